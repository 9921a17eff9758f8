//! Faults during every mutating command, two ladders over the same cases:
//! - a full disk: eight file-size limits (RLIMIT_FSIZE: a write past the limit fails as on a
//!   full disk); the command completes, or fails with an I/O error in its JSON document;
//! - `kill -9` at moments drawn between the run's first write and the end of its last (the run
//!   is held at a crash point after its first write, then continued and killed a spread of
//!   delays later; the test hook `OPENCLAW_SESSIONS_TRACE` tells where each kill landed, and
//!   a minimum must land before the apply ended);
//! - SIGINT and SIGTERM at such moments: the run stops at its next consistent point and exits
//!   130 (INTERRUPTED, what was done named), or it had finished its last commit first;
//! - a signal at named points inside the run (the test hook `OPENCLAW_SESSIONS_SIGNAL_AT`),
//!   where the run must stop: exit 130 every time.
//!
//! After each: every database passes `integrity_check` and `foreign_key_check`, every session
//! is as it was or as the command means to leave it (nothing half-done, nothing lost), no
//! session outside the command's reach changes, and the whole store (every row of every
//! table of every agent database and of `state/openclaw.sqlite`, every other file by its
//! hash: `common::dump_store`) holds only rows and files of the untouched store or of the
//! finished one, and every one the two share (a command whose change is one transaction: each
//! database is one or the other whole); a re-run without the fault finishes, to exactly the
//! store an uninterrupted run leaves.
//!
//! Each case runs on the store of the release this tool writes, and the cases that change
//! sessions (patch, archive, unarchive, delete, undelete, both restores, prune with and without
//! a budget, doctor --fix) on 2026.8.2's store at agent schema 19 too (`On`), prune also on
//! 2026.9.5's at 21: there every database must end at the schema it had.
//!
//! `backup create` and `migrate legacy` have their own fault tests (backup.rs,
//! migrate_legacy.rs and the reference suite's kill -9 check); named crash points are tested
//! beside each command.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rusqlite::OptionalExtension;
use serde_json::Value;

use crate::common::{
    assert_integrity, budget_store, checksums, dump_store, expect_exit, json, limit_file_size,
    std_bin, Dump, Store,
};

/// From nothing at all to more than any file these commands write; closely spaced above the
/// 32 KiB shared-memory index every connection makes first (a limit under it bites as the
/// database opens, before any write), where a write-ahead log grows during the apply.
const LIMITS: [u64; 14] = [
    0,
    1 << 10,
    8 << 10,
    36 << 10,
    44 << 10,
    52 << 10,
    64 << 10,
    96 << 10,
    128 << 10,
    192 << 10,
    256 << 10,
    640 << 10,
    1 << 20,
    8 << 20,
];
const AGENTS: [&str; 3] = ["main", "work", "research"];
/// The moment of the fixture's cleanup report, so `prune` plans the same work every run.
const REPORT_NOW: &str = "1795994700000";

/// What a session is: its entry, and the number of its transcript events.
type Session = (Value, i64);
type Sessions = BTreeMap<String, Session>;
/// May this session be left in this state (`None`: gone; the flag: it has an archive row)?
type Allowed = Box<dyn Fn(&str, &Session, Option<&Session>, bool) -> bool>;
type Args = Box<dyn Fn(&Store) -> Vec<String>>;

// Boxed closures, so that one case can be built for the store of each release (`On`); these
// give each closure its signature.
fn args(f: impl Fn(&Store) -> Vec<String> + 'static) -> Args {
    Box::new(f)
}

fn allowed(f: impl Fn(&str, &Session, Option<&Session>, bool) -> bool + 'static) -> Allowed {
    Box::new(f)
}

fn done(f: impl Fn(&Store) + 'static) -> Box<dyn Fn(&Store)> {
    Box::new(f)
}

fn sessions(store: &Store, agent: &str) -> Sessions {
    let db = store.writable(agent);
    let mut stmt = db
        .prepare(
            "SELECT session_key, entry_json, \
             (SELECT count(*) FROM transcript_events e WHERE e.session_id = n.current_session_id) \
             FROM session_nodes n",
        )
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                (
                    serde_json::from_str(&r.get::<_, String>(1)?).unwrap(),
                    r.get(2)?,
                ),
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    rows
}

/// Keys with a transcript archive row (a deletion keeps one).
fn archived(store: &Store, agent: &str) -> BTreeSet<String> {
    let db = store.writable(agent);
    let mut stmt = db
        .prepare("SELECT session_key FROM session_transcript_archives")
        .unwrap();
    let keys = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    keys
}

fn sound(store: &Store, step: &str) {
    for agent in AGENTS {
        let db = store.writable(agent);
        assert_integrity(&db, &format!("{step}: {agent}"));
        let fk: Option<String> = db
            .query_row("PRAGMA foreign_key_check", [], |r| r.get(0))
            .optional()
            .unwrap();
        assert_eq!(fk, None, "{step}: {agent}: a foreign key dangles");
    }
}

/// One mutating command and what it may leave behind.
struct Case {
    name: &'static str,
    /// The store before the command (faults, snapshots made here).
    prepare: Box<dyn Fn() -> Store>,
    args: Args,
    /// The agent the command changes; the other agents must not change at all.
    agent: &'static str,
    /// Called for every session of `agent` that is not exactly as it was.
    allowed: Allowed,
    /// Sessions the command may bring (back) into `agent`.
    appear: &'static [&'static str],
    /// Exit codes of a fine re-run (`delete` reports keys an earlier run took as missing).
    rerun_exits: &'static [i32],
    /// After the re-run without a limit: the command's whole effect is there.
    done: Box<dyn Fn(&Store)>,
    /// A crash point the run reaches right after its first write to the store: kills and
    /// signals are drawn from there to the end of the apply (`pipeline-applied`).
    first_write: &'static str,
    /// The change is one transaction per database: after a fault each database is whole as it
    /// was or whole as the finished run leaves it.
    whole: bool,
    /// A file-size limit can bite after the first write. Not where the command's first write
    /// is a snapshot of the database it then changes in place, by less than its size: a limit
    /// that lets the snapshot through lets every later write through.
    limit_lands: bool,
    /// A re-run after a fault leaves exactly the finished store. Not under a disk budget, which
    /// decides what to evict from the sizes of the files, which a fault changes: there the
    /// re-run's store holds nothing the finished one does not (`done` checks the budget).
    exact_rerun: bool,
}

/// The crash point right after the pipeline's apply returned: every write of the command's
/// change is behind it (src/ops/pipeline.rs).
const APPLIED: &str = "pipeline-applied";

/// The crash points a run passed (`OPENCLAW_SESSIONS_TRACE`), with their monotonic times (ns).
fn trace(store: &Store) -> Vec<(String, i128)> {
    std::fs::read_to_string(trace_path(store))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let (name, ns) = l.rsplit_once(' ')?;
            Some((name.to_string(), ns.parse().ok()?))
        })
        .collect()
}

/// Outside the state dir, so that the dump never sees it.
fn trace_path(store: &Store) -> PathBuf {
    store.dir.path().join("points.trace")
}

/// What a fault did: stopped the run (killed, failed cleanly, exited 130), and whether it
/// landed after the run's first write and before the end of its last.
#[derive(Clone, Copy, Debug, Default)]
struct Outcome {
    stopped: bool,
    landed: bool,
}

impl Outcome {
    fn of(store: &Store, case: &Case, stopped: bool) -> Self {
        let points = trace(store);
        let reached = |p: &str| points.iter().any(|(n, _)| n == p);
        Outcome {
            stopped,
            landed: stopped && reached(case.first_write) && !reached(APPLIED),
        }
    }
}

/// A fault to put a run through.
#[derive(Clone, Copy, Debug)]
enum Fault {
    None,
    DiskLimit(u64),
    KillAfter(Duration),
    /// Held at the case's first-write point, continued, and killed this long after.
    KillMidWrite(Duration),
    /// Held at the case's first-write point, continued, and sent this signal this long after.
    SignalMidWrite {
        delay: Duration,
        signal: i32,
    },
    /// The run held in a blocking `open` at its first-write point (the test hook
    /// `OPENCLAW_SESSIONS_BLOCK_AT`, a FIFO nobody writes), then this signal, and with
    /// `twice` the same again 100 ms later.
    WhileBlocked {
        signal: i32,
        twice: bool,
    },
    /// A signal the n-th time the run reaches a crash point (`<point>[@n][:TERM]`, the test
    /// hook `OPENCLAW_SESSIONS_SIGNAL_AT`), in batches of two where a command batches.
    SignalAt(&'static str),
}

fn command(store: &Store, case: &Case) -> std::process::Command {
    let mut cmd = std_bin();
    cmd.env("HOME", store.dir.path())
        .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
        .env("OPENCLAW_SESSIONS_TRACE", trace_path(store))
        .arg("--state-dir")
        .arg(store.state())
        .arg("--json")
        .args((case.args)(store));
    cmd
}

/// Runs the case's command under `fault`: what it did.
fn run(store: &Store, case: &Case, fault: Fault, step: &str) -> Outcome {
    let _ = std::fs::remove_file(trace_path(store));
    let stopped = run_under(store, case, fault, step);
    Outcome::of(store, case, stopped)
}

/// Starts `cmd` held (SIGSTOP) at crash point `at`; once it is held, continues it and sends
/// `signal` `delay` later. Its exit status and output; a run that ended before reaching `at`
/// is reported as it ended.
fn held_then(
    mut cmd: std::process::Command,
    store: &Store,
    at: &str,
    delay: Duration,
    signal: i32,
) -> (std::process::ExitStatus, Vec<u8>) {
    use std::os::unix::process::ExitStatusExt;
    let out_path = store.dir.path().join("held.stdout");
    let child = cmd
        .env("OPENCLAW_SESSIONS_SIGNAL_AT", format!("{at}:STOP"))
        .stdout(std::fs::File::create(&out_path).unwrap())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let mut raw = 0;
    // SAFETY: waits for our own child; WUNTRACED returns when it stops, without reaping it.
    let got = unsafe { libc::waitpid(pid, &mut raw, libc::WUNTRACED) };
    assert_eq!(got, pid);
    let status = if libc::WIFSTOPPED(raw) {
        // SAFETY: signals to our own child, which is not reaped before `waitpid` below.
        unsafe { libc::kill(pid, libc::SIGCONT) };
        if !delay.is_zero() {
            std::thread::sleep(delay);
        }
        unsafe { libc::kill(pid, signal) };
        let got = unsafe { libc::waitpid(pid, &mut raw, 0) };
        assert_eq!(got, pid);
        std::process::ExitStatus::from_raw(raw)
    } else {
        std::process::ExitStatus::from_raw(raw)
    };
    // The child is reaped: `child` is only dropped (never waited on again).
    drop(child);
    (status, std::fs::read(&out_path).unwrap())
}

/// The run's first signal gives it this long to reach its next consistent point before the
/// watchdog ends it (src/cli/signals.rs `GRACE`), saying so on stderr.
const GRACE: Duration = Duration::from_millis(1500);
const WATCHDOG_SAYS: &str = "interrupted while blocked";

/// [`Fault::WhileBlocked`]: a run held where its first signal cannot stop it before the
/// watchdog, [`GRACE`] later; a second signal ends it at once. Exit 130 every time; with
/// `twice`, within [`GRACE`] of the first signal and without the watchdog's word; once, only
/// by the watchdog, at least [`GRACE`] after it.
fn blocked_then_signalled(
    mut cmd: std::process::Command,
    store: &Store,
    case: &Case,
    signal: i32,
    twice: bool,
    step: &str,
) {
    let fifo = store.dir.path().join("block.fifo");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let child = cmd
        .env(
            "OPENCLAW_SESSIONS_BLOCK_AT",
            format!("{}={}", case.first_write, fifo.display()),
        )
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let waiting = Instant::now();
    while !trace(store).iter().any(|(p, _)| p == case.first_write) {
        assert!(
            waiting.elapsed() < Duration::from_secs(120),
            "{step}: never reached {}",
            case.first_write
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // The point is traced just before the blocking `open`.
    std::thread::sleep(Duration::from_millis(200));
    let pid = child.id() as i32;
    // SAFETY: kill(2) of our own child, not reaped before `wait_with_output`.
    unsafe { libc::kill(pid, signal) };
    let first = Instant::now();
    if twice {
        std::thread::sleep(Duration::from_millis(100));
        unsafe { libc::kill(pid, signal) };
    }
    let out = child.wait_with_output().unwrap();
    let took = first.elapsed();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{step}: {stderr}");
    if twice {
        assert!(
            !stderr.contains(WATCHDOG_SAYS),
            "{step}: the watchdog ended it: {stderr}"
        );
        assert!(
            took < GRACE,
            "{step}: {took:?} after the first signal, 100 ms after the second"
        );
    } else {
        assert!(stderr.contains(WATCHDOG_SAYS), "{step}: {stderr}");
        assert!(
            took >= GRACE,
            "{step}: ended {took:?} after the only signal"
        );
    }
}

/// [`run`] without the trace: `true` when the fault stopped the run.
fn run_under(store: &Store, case: &Case, fault: Fault, step: &str) -> bool {
    let mut cmd = command(store, case);
    let out = match fault {
        Fault::WhileBlocked { signal, twice } => {
            blocked_then_signalled(cmd, store, case, signal, twice, step);
            return true;
        }
        Fault::KillMidWrite(delay) => {
            use std::os::unix::process::ExitStatusExt;
            let (status, _) = held_then(cmd, store, case.first_write, delay, libc::SIGKILL);
            if status.signal() == Some(libc::SIGKILL) {
                return true;
            }
            assert!(
                status
                    .code()
                    .is_some_and(|c| case.rerun_exits.contains(&c) && c == 0),
                "{step}: the run failed on its own: {status}"
            );
            return false;
        }
        Fault::SignalMidWrite { delay, signal } => {
            let (status, stdout) = held_then(cmd, store, case.first_write, delay, signal);
            return match status.code() {
                Some(0) => false,
                Some(130) => {
                    let doc: Value = serde_json::from_slice(&stdout)
                        .unwrap_or_else(|e| panic!("{step}: exit 130 without a document ({e})"));
                    assert_eq!(doc["error"]["code"], "INTERRUPTED", "{step}: {doc}");
                    true
                }
                _ => panic!("{step}: {status}: {}", String::from_utf8_lossy(&stdout)),
            };
        }
        Fault::None => return run_ok(store, case, step),
        Fault::DiskLimit(bytes) => {
            limit_file_size(&mut cmd, bytes);
            cmd.output().unwrap()
        }
        Fault::KillAfter(delay) => {
            let mut child = cmd
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(delay);
            let _ = child.kill(); // SIGKILL; fails only when the run is already over
            let status = child.wait().unwrap();
            use std::os::unix::process::ExitStatusExt;
            if status.signal() == Some(libc::SIGKILL) {
                return true;
            }
            assert!(
                status.success(),
                "{step}: the run failed on its own: {status}"
            );
            return false;
        }
        Fault::SignalAt(point) => {
            let out = cmd
                .env("OPENCLAW_SESSIONS_SIGNAL_AT", point)
                .env("OPENCLAW_SESSIONS_APPLY_BATCH", "2")
                .output()
                .unwrap();
            stopped_by_signal(&out, step);
            return true;
        }
    };
    if out.status.success() {
        return false;
    }
    assert_ne!(out.status.code(), Some(101), "{step}: a panic");
    let doc = json(&out);
    let code = doc["error"]["code"].as_str().unwrap_or_default();
    assert!(matches!(code, "IO" | "SQLITE"), "{step}: {doc}");
    let message = doc["error"]["message"].as_str().unwrap_or_default();
    assert!(!message.is_empty(), "{step}: {doc}");
    true
}

/// Sends `signal` to a run after `delay`; `true` when it stopped the run (exit 130 with an
/// INTERRUPTED document, or at once on a second signal), `false` when the run had finished.
fn signalled(
    mut cmd: std::process::Command,
    delay: Duration,
    signal: i32,
    twice: bool,
    step: &str,
) -> bool {
    let child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(delay);
    let pid = child.id() as i32;
    // SAFETY: kill(2) of our own child, which is not reaped before `wait_with_output`.
    unsafe { libc::kill(pid, signal) };
    if twice {
        std::thread::sleep(Duration::from_millis(5));
        unsafe { libc::kill(pid, signal) };
    }
    let sent = Instant::now();
    let out = child.wait_with_output().unwrap();
    let stopping = sent.elapsed();
    use std::os::unix::process::ExitStatusExt;
    if out.status.signal() == Some(signal) {
        // The signal came before the command installed its handler (a loaded machine can take
        // longer than the shortest delay to start a process): the default action ended it
        // before it had taken custody or changed anything, which `check` verifies.
        return true;
    }
    match out.status.code() {
        Some(0) => false,
        Some(130) => {
            // A second signal ends the run at once, without a document or in the middle of
            // writing one (a run that had finished and was printing its report).
            if twice && serde_json::from_slice::<Value>(&out.stdout).is_err() {
                return true;
            }
            let doc = json(&out);
            assert_eq!(doc["error"]["code"], "INTERRUPTED", "{step}: {doc}");
            assert!(
                stopping < Duration::from_secs(5),
                "{step}: took {stopping:?} to stop"
            );
            true
        }
        other => panic!(
            "{step}: exit {other:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// A run a signal reached after its handler was installed: exit 130 with an INTERRUPTED
/// document, never a finished run or another failure.
fn stopped_by_signal(out: &std::process::Output, step: &str) {
    assert_eq!(
        out.status.code(),
        Some(130),
        "{step}: not stopped: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let doc = json(out);
    assert_eq!(doc["error"]["code"], "INTERRUPTED", "{step}: {doc}");
}

/// A run without a fault, which must end with one of the case's exit codes (never stopped).
fn run_ok(store: &Store, case: &Case, step: &str) -> bool {
    let again = command(store, case).output().unwrap();
    assert!(
        again
            .status
            .code()
            .is_some_and(|c| case.rerun_exits.contains(&c)),
        "{step}: the run failed: {}",
        String::from_utf8_lossy(&again.stdout)
    );
    false
}

/// Every row and file of `now` is one of `before` (the untouched store) or of `finished` (the
/// store an uninterrupted run leaves), and every one the two share is there; with `whole`,
/// each database is all of one or all of the other. Two states between are the store's own
/// and counted as done: an archive row committed whose file is not published yet, and a
/// staging file; the re-run must settle both (`settled`).
fn between(step: &str, before: &Dump, finished: &Dump, now: &Dump, whole: bool) {
    let tables: BTreeSet<&(String, String)> = before
        .rows
        .keys()
        .chain(finished.rows.keys())
        .chain(now.rows.keys())
        .filter(|(db, _)| !staging(db))
        .collect();
    let none = Vec::new();
    for t in tables {
        let (b, f, n) = (
            before.rows.get(t).unwrap_or(&none),
            finished.rows.get(t).unwrap_or(&none),
            now.rows.get(t).unwrap_or(&none),
        );
        for row in n {
            assert!(
                b.contains(row)
                    || f.contains(row)
                    || f.iter().any(|r| publication_pending(t, row, r)),
                "{step}: {t:?} holds a row of neither the untouched nor the finished store: {row}"
            );
        }
        for row in b.iter().filter(|r| f.contains(r)) {
            if !n.contains(row) {
                let instead: Vec<&String> = n.iter().filter(|r| !f.contains(r)).collect();
                panic!("{step}: {t:?} lost a row: {row}\nholds instead: {instead:#?}");
            }
        }
    }
    for (path, sha) in &now.files {
        if staging(path) {
            continue;
        }
        assert!(
            before.files.get(path) == Some(sha) || finished.files.get(path) == Some(sha),
            "{step}: {path} is a file of neither the untouched nor the finished store"
        );
    }
    for (path, sha) in &before.files {
        if finished.files.get(path) == Some(sha) {
            assert_eq!(
                now.files.get(path),
                Some(sha),
                "{step}: {path} changed or went"
            );
        }
    }
    if whole {
        let dbs: BTreeSet<&String> = now.rows.keys().map(|(db, _)| db).collect();
        for db in dbs {
            let of = |d: &Dump| -> Vec<(String, Vec<String>)> {
                d.rows
                    .iter()
                    .filter(|((name, _), _)| name == db)
                    .map(|((_, t), rows)| (t.clone(), rows.clone()))
                    .collect()
            };
            let (n, b, f) = (of(now), of(before), of(finished));
            if n != b && n != f {
                let differs = |other: &[(String, Vec<String>)]| -> Vec<String> {
                    n.iter()
                        .filter(|t| !other.contains(t))
                        .map(|(t, _)| t.clone())
                        .collect()
                };
                panic!(
                    "{step}: {db} is neither whole as it was (differs in {:?}) nor whole as \
                     finished (differs in {:?})",
                    differs(&b),
                    differs(&f)
                );
            }
        }
    }
}

/// After the re-run: exactly the store an uninterrupted run leaves.
fn settled(step: &str, finished: &Dump, now: &Dump) {
    if now != finished {
        between(step, finished, finished, now, false);
        let extra: Vec<&String> = now
            .files
            .keys()
            .chain(now.rows.keys().map(|(db, _)| db))
            .filter(|p| {
                !finished.files.contains_key(*p) && !finished.rows.keys().any(|(d, _)| d == *p)
            })
            .collect();
        panic!("{step}: not the finished store; more than it: {extra:?}");
    }
}

/// `row` is the archive row `published` of the finished store, committed and not yet published
/// (its file is written after the commit): the next run publishes it (`settled`).
fn publication_pending(table: &(String, String), row: &str, published: &str) -> bool {
    let unpublished = |r: &str| -> Option<String> {
        let cells: Vec<&str> = r
            .split('|')
            .filter(|c| !c.starts_with("published_at=") && !c.contains("publish_"))
            .collect();
        Some(cells.join("|"))
    };
    table.1 == "session_transcript_archives"
        && row.contains("published_at=NULL")
        && unpublished(row) == unpublished(published)
}

/// A staging file or directory (a restore's `.tmp-restore-…`, an archive's `….tmp` before it
/// is linked, `.acpx-migrate-…`) a killed run leaves for the next to remove (`settled` sees
/// that it did).
fn staging(path: &str) -> bool {
    path.split('/')
        .any(|c| c.starts_with(".tmp") || c.ends_with(".tmp") || c.starts_with(".acpx-migrate-"))
}

/// Every row and file of `now` is one of the finished store.
fn within_finished(step: &str, finished: &Dump, now: &Dump) {
    for (t, rows) in &now.rows {
        let f = finished.rows.get(t);
        for row in rows {
            assert!(
                f.is_some_and(|f| f.contains(row)),
                "{step}: {t:?} holds a row the finished store does not: {row}"
            );
        }
    }
    for (path, sha) in &now.files {
        assert_eq!(finished.files.get(path), Some(sha), "{step}: {path}");
    }
}

/// The store an uninterrupted run of the case leaves.
fn finished(case: &Case) -> Dump {
    let store = (case.prepare)();
    run(&store, case, Fault::None, case.name);
    dump_store(&store.state())
}

/// One store per fault: run, check what is left, re-run, check the job is done. Returns what
/// each fault did.
fn check(case: &Case, faults: &[Fault]) -> Vec<Outcome> {
    let finished = finished(case);
    let mut outcomes = Vec::new();
    for fault in faults {
        let step = format!("{} under {fault:?}", case.name);
        let store = (case.prepare)();
        let before: BTreeMap<&str, Sessions> =
            AGENTS.iter().map(|a| (*a, sessions(&store, a))).collect();
        let untouched = dump_store(&store.state());
        let outcome = run(&store, case, *fault, &step);
        outcomes.push(outcome);
        sound(&store, &step);
        between(
            &step,
            &untouched,
            &finished,
            &dump_store(&store.state()),
            case.whole,
        );
        for agent in AGENTS {
            let now = sessions(&store, agent);
            if agent != case.agent {
                assert_eq!(now, before[agent], "{step}: agent {agent} changed");
                continue;
            }
            let archives = archived(&store, agent);
            for (key, was) in &before[agent] {
                let is = now.get(key);
                if is != Some(was) {
                    assert!(
                        (case.allowed)(key, was, is, archives.contains(key)),
                        "{step}: {key} was {was:?}, is {is:?} (archived: {})",
                        archives.contains(key)
                    );
                }
            }
            let new: Vec<&String> = now
                .keys()
                .filter(|k| !before[agent].contains_key(*k) && !case.appear.contains(&k.as_str()))
                .collect();
            assert!(new.is_empty(), "{step}: sessions appeared: {new:?}");
        }
        run(&store, case, Fault::None, &format!("{step}, re-run"));
        sound(&store, &format!("{step}, re-run"));
        (case.done)(&store);
        let now = dump_store(&store.state());
        // The dump reads the run's times in a name as `[NOW]`, so two kept entries of one
        // session under two deletion times would read as one: look at the files themselves.
        let kept = kept_entries(&store);
        let orphans: Vec<&String> = kept
            .iter()
            .filter(|(_, gone)| *gone)
            .map(|(p, _)| p)
            .collect();
        assert!(
            orphans.is_empty(),
            "{step}, re-run: entries kept for archives that are gone: {orphans:?}"
        );
        if case.exact_rerun {
            assert_eq!(
                kept.len(),
                finished
                    .files
                    .keys()
                    .filter(|p| p.ends_with(".entry.json"))
                    .count(),
                "{step}, re-run: kept entries beside the finished store's"
            );
            settled(&format!("{step}, re-run"), &finished, &now);
        } else {
            within_finished(&format!("{step}, re-run"), &finished, &now);
        }
    }
    outcomes
}

/// Every `.entry.json` file a deletion kept, in every agent's directory, and whether its
/// archive is gone (neither a row of the agent's database nor a file in its `sessions/`).
fn kept_entries(store: &Store) -> Vec<(String, bool)> {
    let Ok(agents) = std::fs::read_dir(store.state().join("openclaw-sessions-deleted")) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for agent in agents.flatten() {
        let id = agent.file_name().to_string_lossy().into_owned();
        let sessions = store.state().join("agents").join(&id).join("sessions");
        let db = store.writable(&id);
        for file in std::fs::read_dir(agent.path()).unwrap().flatten() {
            let name = file.file_name().to_string_lossy().into_owned();
            let Some(archive) = name.strip_suffix(".entry.json") else {
                continue;
            };
            let row: i64 = db
                .query_row(
                    "SELECT count(*) FROM session_transcript_archives WHERE archive_name = ?1",
                    [archive],
                    |r| r.get(0),
                )
                .unwrap();
            found.push((
                format!("{id}/{name}"),
                row == 0 && !sessions.join(archive).exists(),
            ));
        }
    }
    found
}

fn count(outcomes: &[Outcome], what: fn(&Outcome) -> bool) -> usize {
    outcomes.iter().filter(|o| what(o)).count()
}

/// Every limit of [`LIMITS`], and two just over the size of each database of the store; at
/// least one must bite between the first write and the end of the apply.
fn on_a_full_disk(case: Case) {
    let mut faults = LIMITS.map(Fault::DiskLimit).to_vec();
    // Just over each database's size: a write that grows it, or a copy of one, bites there.
    let store = (case.prepare)();
    let sizes: BTreeSet<u64> = checksums(&store.state())
        .keys()
        .filter(|p| p.extension().is_some_and(|e| e == "sqlite"))
        .map(|p| std::fs::metadata(p).unwrap().len())
        .collect();
    for size in sizes {
        faults.extend([size + (4 << 10), size + (16 << 10)].map(Fault::DiskLimit));
    }
    let outcomes = check(&case, &faults);
    let (failed, landed) = (
        count(&outcomes, |o| o.stopped),
        count(&outcomes, |o| o.landed),
    );
    eprintln!(
        "{}: failed cleanly under {failed} of {} limits, {landed} after the first write",
        case.name,
        faults.len()
    );
    assert!(
        failed >= 3,
        "{}: the limits bit only {failed} times",
        case.name
    );
    assert!(
        landed >= 1 || !case.limit_lands,
        "{}: no limit bit after the first write ({failed} before it)",
        case.name
    );
}

/// The shortest of three uninterrupted runs of `once`, each on a store from `prepare` (not
/// timed): kills spread over it land inside a run even when the first run after a build starts
/// slowly.
fn shortest_run<S>(mut prepare: impl FnMut() -> S, mut once: impl FnMut(&S)) -> Duration {
    (0..3)
        .map(|_| {
            let store = prepare();
            let start = Instant::now();
            once(&store);
            start.elapsed()
        })
        .min()
        .unwrap()
}

/// How long an uninterrupted run takes from its first write to the end of its apply (the
/// shortest of three, read from the trace of crash points): where the faults are drawn.
fn write_span(case: &Case) -> Duration {
    (0..3)
        .map(|_| {
            let store = (case.prepare)();
            run(&store, case, Fault::None, case.name);
            let points = trace(&store);
            let at = |p: &str| {
                points
                    .iter()
                    .find(|(n, _)| n == p)
                    .unwrap_or_else(|| panic!("{}: never reached {p}: {points:?}", case.name))
                    .1
            };
            let ns = at(APPLIED) - at(case.first_write);
            Duration::from_nanos(ns.max(0) as u64)
        })
        .min()
        .unwrap()
}

/// `kill -9` at `KILLS` moments spread from the run's first write to the end of its last
/// (timed here, on this machine), each on a fresh store; at least half land there (the first,
/// while the run is held at its first write, always does).
fn killed_at_many_moments(case: Case) {
    const KILLS: u32 = 12;
    let span = write_span(&case);
    let faults: Vec<Fault> = (0..KILLS)
        .map(|i| Fault::KillMidWrite(span * i / KILLS))
        .collect();
    let outcomes = check(&case, &faults);
    let (killed, landed) = (
        count(&outcomes, |o| o.stopped),
        count(&outcomes, |o| o.landed),
    );
    eprintln!(
        "{}: killed {killed} of {KILLS} runs, {landed} between the first write and the end of \
         the last (that span takes {span:?})",
        case.name
    );
    assert!(
        landed >= KILLS as usize / 2,
        "{}: only {landed} kills landed mid-write",
        case.name
    );
}

/// SIGINT and SIGTERM, each at `MOMENTS` moments spread from the run's first write to the end
/// of its last, each on a fresh store: every run exits 130 or had finished; the first moment
/// of each (the run held at its first write) comes before the last commit.
fn signalled_at_many_moments(case: Case) {
    const MOMENTS: u32 = 3;
    let span = write_span(&case);
    let mut faults = Vec::new();
    for signal in [libc::SIGINT, libc::SIGTERM] {
        for i in 0..MOMENTS {
            faults.push(Fault::SignalMidWrite {
                delay: span * i / MOMENTS,
                signal,
            });
        }
    }
    let outcomes = check(&case, &faults);
    let (stopped, landed) = (
        count(&outcomes, |o| o.stopped),
        count(&outcomes, |o| o.landed),
    );
    eprintln!(
        "{}: {stopped} of {} signalled runs stopped, {landed} before the end of the apply (the \
         span from the first write takes {span:?})",
        case.name,
        faults.len()
    );
    for (fault, outcome) in faults.iter().zip(&outcomes) {
        if outcome.stopped {
            assert!(
                outcome.landed,
                "{}: {fault:?} stopped the run after its apply",
                case.name
            );
        }
    }
}

fn live() -> Store {
    Store::copy("live")
}

/// The store a case runs on: the committed store of the release this tool writes, or of an
/// older release whose agent schema it also writes (2026.8.2's at 19, 2026.9.5's at 21).
#[derive(Clone, Copy, Debug, PartialEq)]
enum On {
    Current,
    Schema19,
    Schema21,
}

impl On {
    fn copy(self, variant: &str) -> Store {
        match self {
            On::Current => Store::copy(variant),
            On::Schema19 => Store::copy_release("2026.8.2", variant),
            On::Schema21 => Store::copy_release("2026.9.5", variant),
        }
    }

    fn live(self) -> Store {
        self.copy("live")
    }

    fn schema(self) -> i64 {
        match self {
            On::Current => 23,
            On::Schema19 => 19,
            On::Schema21 => 21,
        }
    }

    /// The case's name on this store.
    fn name(self, command: &str) -> &'static str {
        match self {
            On::Current => Box::leak(command.to_string().into_boxed_str()),
            _ => Box::leak(format!("{command} on schema {}", self.schema()).into_boxed_str()),
        }
    }

    /// `done`, and every agent database still at this store's schema.
    fn done(self, f: impl Fn(&Store) + 'static) -> Box<dyn Fn(&Store)> {
        Box::new(move |s: &Store| {
            f(s);
            for agent in AGENTS {
                let v: i64 = s
                    .writable(agent)
                    .query_row("PRAGMA user_version", [], |r| r.get(0))
                    .unwrap();
                assert_eq!(v, self.schema(), "{agent}: another schema");
            }
        })
    }
}

/// Changed in `field` alone (and the `updatedAt` a write stamps).
fn only_changed(before: &Value, now: &Value, field: &str) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        for f in [field, "updatedAt"] {
            v.as_object_mut().unwrap().remove(f);
        }
        v
    };
    strip(before) == strip(now)
}

/// Archived in place: `archivedAt` and `archiveReason` added, nothing else changed.
fn archived_in_place(before: &Value, now: &Value) -> bool {
    let mut now = now.clone();
    let reason = now.as_object_mut().unwrap().remove("archiveReason");
    reason.is_some_and(|r| r.is_string())
        && now["archivedAt"].is_number()
        && only_changed(before, &now, "archivedAt")
}

fn patch_case(on: On) -> Case {
    Case {
        name: on.name("patch"),
        prepare: Box::new(move || on.live()),
        args: args(|_| {
            [
                "patch",
                "agent:main:main",
                "--set",
                "label=\"Full\"",
                "--yes",
            ]
            .map(String::from)
            .to_vec()
        }),
        agent: "main",
        allowed: allowed(|key, (was, n), now, _| {
            key == "agent:main:main"
                && now.is_some_and(|(e, m)| {
                    m == n && e["label"] == "Full" && only_changed(was, e, "label")
                })
        }),
        appear: &[],
        rerun_exits: &[0],
        first_write: "patch-before-commit",
        whole: true,
        limit_lands: true,
        exact_rerun: true,
        done: on.done(|s| assert_eq!(s.entry("main", "agent:main:main").unwrap()["label"], "Full")),
    }
}

fn archive_case(on: On) -> Case {
    Case {
        name: on.name("archive"),
        prepare: Box::new(move || on.live()),
        args: args(|_| {
            ["archive", "agent:main:scratch-1", "--yes"]
                .map(String::from)
                .to_vec()
        }),
        agent: "main",
        allowed: allowed(|key, (was, n), now, _| {
            key == "agent:main:scratch-1"
                && now.is_some_and(|(e, m)| m == n && archived_in_place(was, e))
        }),
        appear: &[],
        rerun_exits: &[0],
        first_write: "patch-before-commit",
        whole: true,
        limit_lands: true,
        exact_rerun: true,
        done: on.done(|s| {
            assert!(s.entry("main", "agent:main:scratch-1").unwrap()["archivedAt"].is_number())
        }),
    }
}

fn archived_scratch(on: On) -> Store {
    let store = on.live();
    store.run_ok(["archive", "agent:main:scratch-1", "--yes"]);
    store
}

fn unarchive_case(on: On) -> Case {
    Case {
        name: on.name("unarchive"),
        prepare: Box::new(move || archived_scratch(on)),
        args: args(|_| {
            ["unarchive", "agent:main:scratch-1", "--yes"]
                .map(String::from)
                .to_vec()
        }),
        agent: "main",
        // Back in place: `archivedAt` and `archiveReason` gone, nothing else changed.
        allowed: allowed(|key, (was, n), now, _| {
            key == "agent:main:scratch-1"
                && now.is_some_and(|(e, m)| m == n && archived_in_place(e, was))
        }),
        appear: &[],
        rerun_exits: &[0],
        done: on.done(|s| {
            let e = s.entry("main", "agent:main:scratch-1").unwrap();
            assert!(e.get("archivedAt").is_none(), "still archived: {e}");
        }),
        first_write: "patch-before-commit",
        whole: true,
        limit_lands: true,
        exact_rerun: true,
    }
}

/// The session id of the session `undelete::deleted()` deleted, from its archive row.
fn deleted_session_id(store: &Store) -> String {
    store
        .writable("main")
        .query_row(
            "SELECT session_id FROM session_transcript_archives WHERE session_key = ?1 LIMIT 1",
            [crate::undelete::KEY],
            |r| r.get(0),
        )
        .unwrap()
}

fn undelete_case(on: On) -> Case {
    Case {
        name: on.name("undelete"),
        prepare: Box::new(move || crate::undelete::deleted_in(on.live()).0),
        args: args(|s| {
            ["undelete", &deleted_session_id(s), "--yes"]
                .map(String::from)
                .to_vec()
        }),
        agent: "main",
        // Only the deleted session comes back; no other changes.
        allowed: allowed(|_, _, _, _| false),
        appear: &[crate::undelete::KEY],
        // 5: the session is live again (an earlier run brought it back whole).
        rerun_exits: &[0, 5],
        done: on.done(|s| assert!(s.entry("main", crate::undelete::KEY).is_some(), "not back")),
        first_write: "undelete-session",
        whole: true,
        limit_lands: true,
        exact_rerun: true,
    }
}

/// `bundle import`: the live store's `KEY` exported into a bundle beside the state dir, then
/// deleted (by our delete); the import brings it back from the bundle.
fn bundle_import_case(on: On) -> Case {
    Case {
        name: on.name("bundle import"),
        prepare: Box::new(move || {
            let store = on.live();
            let bundle = store.dir.path().join("notes.bundle");
            store.run_ok([
                "bundle",
                "export",
                bundle.to_str().unwrap(),
                crate::undelete::KEY,
            ]);
            store.run_ok(["delete", crate::undelete::KEY, "--yes"]);
            store
        }),
        args: args(|s| {
            vec![
                "bundle".into(),
                "import".into(),
                s.dir
                    .path()
                    .join("notes.bundle")
                    .to_string_lossy()
                    .into_owned(),
                "--yes".into(),
            ]
        }),
        agent: "main",
        // Only the exported session comes back; no other changes.
        allowed: allowed(|_, _, _, _| false),
        appear: &[crate::undelete::KEY],
        // 5: the key is taken (an earlier run brought it in whole).
        rerun_exits: &[0, 5],
        done: on.done(|s| assert!(s.entry("main", crate::undelete::KEY).is_some(), "not in")),
        first_write: "bundle-import-session",
        whole: true,
        limit_lands: true,
        exact_rerun: true,
    }
}

fn restore_session_case(on: On) -> Case {
    Case {
        name: on.name("backup restore --session"),
        prepare: Box::new(move || crate::undelete::deleted_in(on.live()).0),
        args: args(|s| {
            vec![
                "backup".into(),
                "restore".into(),
                crate::undelete::the_snapshot(s)
                    .to_string_lossy()
                    .into_owned(),
                "--session".into(),
                crate::undelete::KEY.into(),
                "--yes".into(),
            ]
        }),
        agent: "main",
        allowed: allowed(|_, _, _, _| false),
        appear: &[crate::undelete::KEY],
        rerun_exits: &[0, 5],
        done: on.done(|s| assert!(s.entry("main", crate::undelete::KEY).is_some(), "not back")),
        first_write: "restore-session-rows",
        whole: true,
        limit_lands: true,
        exact_rerun: true,
    }
}

/// Sessions `delete` removes from agent main: in each release's live store, with transcripts
/// (2026.8.2's has no ACP or cron session).
fn deleted_keys(on: On) -> &'static [&'static str] {
    match on {
        On::Schema19 => &[
            "agent:main:pinned-notes",
            "agent:main:discord:channel:987654324",
            "agent:main:telegram:group:-100123456784",
        ],
        On::Current | On::Schema21 => &[
            "agent:main:acp:9911cc46-d649-47bb-9968-72da7c2daff9",
            "agent:main:cron:nightly:run:884",
            "agent:main:pinned-notes",
            "agent:main:telegram:group:-100123456784",
        ],
    }
}

fn delete_case(on: On) -> Case {
    let keys = deleted_keys(on);
    Case {
        name: on.name("delete"),
        prepare: Box::new(move || on.live()),
        args: args(move |_| {
            let mut a = vec!["delete".to_string()];
            a.extend(keys.iter().map(|k| k.to_string()));
            a.push("--yes".into());
            a
        }),
        agent: "main",
        // Gone only with its transcript archived.
        allowed: allowed(move |key, _, now, archived| {
            keys.contains(&key) && now.is_none() && archived
        }),
        appear: &[],
        // 3: some keys were already deleted by the limited run (missing now), 4: all were.
        rerun_exits: &[0, 3, 4],
        first_write: "delete-generation",
        whole: false,
        limit_lands: true,
        exact_rerun: true,
        done: on.done(move |s| {
            for k in keys {
                assert!(s.entry("main", k).is_none(), "{k} survived");
            }
            let pending: i64 = s
                .writable("main")
                .query_row(
                    "SELECT count(*) FROM session_transcript_archives WHERE published_at IS NULL",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(pending, 0, "archives left unpublished");
        }),
    }
}

const PRUNE: [&str; 7] = [
    "prune",
    "--agent",
    "main",
    "--older-than",
    "1d",
    "--max-entries",
    "4",
];

/// The bulk sessions of [`many_sessions`].
const BULK: usize = 200;

pub(crate) fn bulk_key(i: usize) -> String {
    format!("agent:work:bulk-{i:03}")
}

/// The legacy fixture with `BULK` more sessions for agent work, imported by `migrate legacy`
/// (made once, copied for each run).
pub(crate) fn many_sessions() -> Store {
    static MADE: std::sync::OnceLock<Store> = std::sync::OnceLock::new();
    let made = MADE.get_or_init(|| {
        let store = many_legacy_sessions();
        for agent in AGENTS {
            store.run_ok(["--agent", agent, "migrate", "legacy", "--yes"]);
        }
        store
    });
    let store = Store {
        dir: tempfile::tempdir().unwrap(),
    };
    crate::common::copy_dir(&made.state(), &store.state());
    store
}

/// The legacy fixture with `BULK` more sessions for agent work, not imported yet.
fn many_legacy_sessions() -> Store {
    legacy_with(BULK)
}

/// The legacy fixture with `n` more sessions for agent work (`bulk_key(i)`, copies of its
/// main session), not imported yet.
pub(crate) fn legacy_with(n: usize) -> Store {
    let store = Store::copy("legacy");
    let sessions = store.state().join("agents/work/sessions");
    let index = sessions.join("sessions.json");
    let mut entries: serde_json::Map<String, Value> =
        serde_json::from_slice(&std::fs::read(&index).unwrap()).unwrap();
    let main = entries["agent:work:main"].clone();
    let id = main["sessionId"].as_str().unwrap().to_string();
    let transcript = std::fs::read_to_string(sessions.join(format!("{id}.jsonl"))).unwrap();
    for i in 0..n {
        let new_id = format!("00000000-0000-4000-8000-{i:012}");
        let mut e = main.clone();
        e["sessionId"] = Value::from(new_id.clone());
        e["sessionFile"] = Value::from(main["sessionFile"].as_str().unwrap().replace(&id, &new_id));
        e["updatedAt"] = Value::from(main["updatedAt"].as_i64().unwrap() + i as i64);
        entries.insert(bulk_key(i), e);
        std::fs::write(
            sessions.join(format!("{new_id}.jsonl")),
            transcript.replace(&id, &new_id),
        )
        .unwrap();
    }
    std::fs::write(&index, serde_json::to_vec(&entries).unwrap()).unwrap();
    store
}

/// Sessions per agent, for stores where some agents may have no database yet.
fn session_counts(store: &Store) -> BTreeMap<&'static str, i64> {
    AGENTS
        .iter()
        .filter(|a| store.agent_db(a).is_file())
        .map(|a| {
            let db = store.writable(a);
            assert_integrity(&db, a);
            let n = db
                .query_row("SELECT count(*) FROM session_nodes", [], |r| r.get(0))
                .unwrap();
            (*a, n)
        })
        .collect()
}

/// SIGINT and SIGTERM at moments spread over an import of 242 sessions: each run finishes or
/// exits 130, every database passes `integrity_check`, and a re-run imports everything.
#[test]
fn migrate_legacy_signalled_at_many_moments() {
    let import = |store: &Store| {
        let mut cmd = std_bin();
        cmd.env("HOME", store.dir.path())
            .arg("--state-dir")
            .arg(store.state())
            .args(["--json", "migrate", "legacy", "--all-agents", "--yes"]);
        cmd
    };
    let reference = many_legacy_sessions();
    let start = Instant::now();
    assert!(import(&reference).output().unwrap().status.success());
    let length = start.elapsed();
    let want = session_counts(&reference);
    let mut stopped = 0;
    for signal in [libc::SIGINT, libc::SIGTERM] {
        for (i, twice) in [(1, false), (3, false), (5, false), (3, true)] {
            let step = format!("migrate legacy, signal {signal} at {i}/6 (twice: {twice})");
            let store = many_legacy_sessions();
            if signalled(import(&store), length * i / 6, signal, twice, &step) {
                stopped += 1;
            }
            session_counts(&store);
            let again = import(&store).output().unwrap();
            assert!(
                again.status.success(),
                "{step}, re-run: {}",
                String::from_utf8_lossy(&again.stdout)
            );
            assert_eq!(session_counts(&store), want, "{step}");
        }
    }
    eprintln!("migrate legacy: {stopped} of 8 signalled runs stopped (a run takes {length:?})");
}

/// A signal at each named point (each on a fresh store): every run stops with exit 130, the
/// store is sound and holds only what the command means, and a re-run finishes.
fn signalled_at_points(case: Case, points: &[&'static str]) {
    let faults: Vec<Fault> = points.iter().map(|p| Fault::SignalAt(p)).collect();
    let outcomes = check(&case, &faults);
    assert_eq!(count(&outcomes, |o| o.stopped), points.len());
}

/// SIGINT or SIGTERM at named points of an import of 242 sessions into three agents: between
/// agents (as each database is made ready), between sessions (inside the first batch, after
/// it commits), after validation and before the sources move, between agents' moves. Every
/// run exits 130 naming what it did, every database passes `integrity_check`, no legacy
/// index is half moved, and a re-run imports everything.
#[test]
fn migrate_legacy_signalled_at_each_unit() {
    let import = |store: &Store| {
        let mut cmd = std_bin();
        cmd.env("HOME", store.dir.path())
            .arg("--state-dir")
            .arg(store.state())
            .args(["--json", "migrate", "legacy", "--all-agents", "--yes"]);
        cmd
    };
    let reference = many_legacy_sessions();
    assert!(import(&reference).output().unwrap().status.success());
    let want = session_counts(&reference);
    for point in [
        "import-database-ready@1",
        "import-database-ready@2:TERM",
        "import-record@1",
        "import-record@120:TERM",
        "import-batch-committed@1",
        "import-validated:TERM",
        "import-move-link@1",
        "import-move-unlink@40:TERM",
    ] {
        let step = format!("migrate legacy, signal at {point}");
        let store = many_legacy_sessions();
        let out = import(&store)
            .env("OPENCLAW_SESSIONS_SIGNAL_AT", point)
            .output()
            .unwrap();
        stopped_by_signal(&out, &step);
        let doc = json(&out);
        assert!(
            doc["warnings"][0]
                .as_str()
                .is_some_and(|w| w.starts_with("import stopped by a signal")),
            "{step}: {doc}"
        );
        let counts = session_counts(&store);
        for (agent, n) in &counts {
            assert!(*n <= want[agent], "{step}: {agent} has {n} sessions");
        }
        // The same, as data: each agent's state, sessions written and files moved.
        let agents = doc["data"]["agents"]
            .as_array()
            .unwrap_or_else(|| panic!("{step}: no data.agents in {doc}"));
        assert_eq!(agents.len(), AGENTS.len(), "{step}: {doc}");
        for a in agents {
            let agent = a["agentId"].as_str().unwrap();
            let (imported, moved) = (
                a["imported"].as_i64().unwrap(),
                a["moved"].as_i64().unwrap(),
            );
            assert_eq!(
                imported,
                counts.get(agent).copied().unwrap_or(0),
                "{step}: {a}"
            );
            match a["state"].as_str().unwrap() {
                "not_started" => assert_eq!((imported, moved), (0, 0), "{step}: {a}"),
                "interrupted" => assert_eq!(moved, 0, "{step}: {a}"),
                "done" => assert_eq!(imported, want[agent], "{step}: {a}"),
                other => panic!("{step}: state {other} in {a}"),
            }
        }
        let state_of = |agent: &str| {
            let a = agents.iter().find(|a| a["agentId"] == agent).unwrap();
            (
                a["state"].as_str().unwrap().to_string(),
                a["moved"].as_i64().unwrap(),
            )
        };
        // Each agent's index is in place or moved whole, never both or neither.
        for agent in AGENTS {
            let index = store
                .state()
                .join(format!("agents/{agent}/sessions/sessions.json"));
            let archive = store
                .state()
                .join(format!("agents/{agent}/session-sqlite-import-archive"));
            let archived = std::fs::read_dir(&archive)
                .into_iter()
                .flatten()
                .flatten()
                .any(|e| e.file_name().to_string_lossy().contains("sessions.json"));
            assert!(index.is_file() != archived, "{step}: {agent}'s index");
            let (state, moved) = state_of(agent);
            assert_eq!(archived, moved > 0, "{step}: {agent} {state} moved {moved}");
            if archived {
                assert_eq!(state, "done", "{step}: {agent}");
            }
        }
        let again = import(&store).output().unwrap();
        assert!(
            again.status.success(),
            "{step}, re-run: {}",
            String::from_utf8_lossy(&again.stdout)
        );
        assert_eq!(session_counts(&store), want, "{step}");
    }
}

fn delete_many_case() -> Case {
    Case {
        name: "delete of 200 keys",
        prepare: Box::new(many_sessions),
        args: args(|_| {
            let mut a = vec!["--agent".to_string(), "work".into(), "delete".into()];
            a.extend((0..BULK).map(bulk_key));
            a.push("--yes".into());
            a
        }),
        agent: "work",
        allowed: allowed(|key, _, now, archived| {
            key.starts_with("agent:work:bulk-") && now.is_none() && archived
        }),
        appear: &[],
        rerun_exits: &[0, 3, 4],
        first_write: "delete-generation",
        whole: false,
        limit_lands: true,
        exact_rerun: true,
        done: done(|s| {
            let left: Vec<String> = (0..BULK)
                .map(bulk_key)
                .filter(|k| s.entry("work", k).is_some())
                .collect();
            assert!(left.is_empty(), "left: {left:?}");
        }),
    }
}

fn prune_case() -> Case {
    Case {
        name: "prune",
        prepare: Box::new(live),
        args: args(|_| {
            let mut a = PRUNE.map(String::from).to_vec();
            a.push("--yes".into());
            a
        }),
        agent: "main",
        // Archived in place, or removed with its transcript archived.
        allowed: allowed(|_, (was, n), now, archived| match now {
            Some((e, m)) => m == n && archived_in_place(was, e),
            None => archived,
        }),
        appear: &[],
        rerun_exits: &[0],
        first_write: "delete-generation",
        whole: false,
        limit_lands: true,
        exact_rerun: true,
        done: done(|s| {
            let out = s
                .cmd()
                .args(PRUNE)
                .args(["--dry-run", "--json"])
                .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
                .output()
                .unwrap();
            let left = &json(&out)["data"]["agents"][0]["actions"];
            assert_eq!(left.as_array().unwrap().len(), 0, "left to do: {left}");
        }),
    }
}

/// `prune --enforce` of agent research in an older release's store (the reference checks
/// release_prune_19/_21 compare the same run with that release's own cleanup).
const PRUNE_ENFORCE: [&str; 5] = ["prune", "--agent", "research", "--enforce", "--yes"];

/// Archived in place as the store's release archives in a prune: 2026.8.x archives a stale
/// dashboard with `archivedAt` alone, no reason.
fn pruned_in_place(on: On, before: &Value, now: &Value) -> bool {
    match on {
        On::Schema19 => {
            now.get("archiveReason").is_none()
                && now["archivedAt"].is_number()
                && only_changed(before, now, "archivedAt")
        }
        On::Current | On::Schema21 => archived_in_place(before, now),
    }
}

/// `prune --enforce` on an older release's store, as its own cleanup: on 21 (2026.9.5) four
/// sessions removed with their transcripts archived and two archived; on 19 (2026.8.2) six
/// removed and the stale dashboard archived without a reason. With `budget`, a disk budget
/// then removes the older archives and the retained `.reset` file.
fn prune_enforce_case(on: On, budget: Option<&'static str>) -> Case {
    let extra = move || budget.map(|b| ["--max-disk-bytes".to_string(), b.to_string()]);
    Case {
        name: on.name(if budget.is_some() {
            "prune with a disk budget"
        } else {
            "prune"
        }),
        prepare: Box::new(move || on.live()),
        args: args(move |_| {
            let mut a = PRUNE_ENFORCE.map(String::from).to_vec();
            a.extend(extra().into_iter().flatten());
            a
        }),
        agent: "research",
        allowed: allowed(move |_, (was, n), now, archived| match now {
            Some((e, m)) => m == n && pruned_in_place(on, was, e),
            None => archived,
        }),
        appear: &[],
        rerun_exits: &[0],
        first_write: "delete-generation",
        whole: false,
        limit_lands: true,
        exact_rerun: budget.is_none(),
        done: on.done(move |s| {
            let out = s
                .cmd()
                .args(&PRUNE_ENFORCE[..4])
                .args(extra().into_iter().flatten())
                .args(["--dry-run", "--json"])
                .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
                .output()
                .unwrap();
            let left = &json(&out)["data"]["agents"][0]["actions"];
            assert_eq!(left.as_array().unwrap().len(), 0, "left to do: {left}");
            if budget.is_none() {
                return;
            }
            let reset = std::fs::read_dir(s.state().join("agents/research/sessions"))
                .unwrap()
                .filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .file_name()
                        .to_string_lossy()
                        .contains(".jsonl.reset.")
                })
                .count();
            assert_eq!(reset, 0, "the budget left the retained .reset file");
        }),
    }
}

/// `prune` with a disk budget the store cannot meet (just over what the schema alone takes):
/// every sub-step of the budget pass runs after the sessions are pruned
/// (tests/cli/common.rs `budget_store`).
const PRUNE_BUDGET: [&str; 6] = [
    "prune",
    "--agent",
    "research",
    "--max-disk-bytes",
    "600kib",
    "--yes",
];

/// The machine-made sessions of research the prune deletes: their transcripts become archives,
/// which the budget then removes, as OpenClaw's does (an archive evicted by the budget is the
/// one removal that leaves nothing; docs/openclaw/MAINTENANCE.md §3.3).
const BUDGET_EVICTED_ARCHIVES: [&str; 4] = [
    "agent:research:acp:83e7d05a-78a4-472d-8b5d-3ba236d74e7b",
    "agent:research:cron:nightly:run:888",
    "agent:research:hook:663e71ef-4473-485e-aacc-29a6fa55442b",
    "agent:research:subagent:a5b74b91-dac7-4797-a272-631ebdf79266",
];

fn prune_budget_case() -> Case {
    Case {
        name: "prune with a disk budget",
        prepare: Box::new(budget_store),
        args: args(|_| PRUNE_BUDGET.map(String::from).to_vec()),
        agent: "research",
        // Archived in place; removed with its transcript archived (the session the budget
        // deletes too); or a machine-made session whose archive the budget evicted.
        allowed: allowed(|key, (was, n), now, archived| match now {
            Some((e, m)) => m == n && archived_in_place(was, e),
            None => archived || BUDGET_EVICTED_ARCHIVES.contains(&key),
        }),
        appear: &[],
        rerun_exits: &[0],
        first_write: "delete-generation",
        whole: false,
        limit_lands: true,
        exact_rerun: false,
        done: done(|s| {
            let db = s.writable("research");
            let left: i64 = db
                .query_row(
                    "SELECT (SELECT count(*) FROM session_windows \
                       WHERE session_id = '00000000-0000-4000-8000-00000000b0d6') \
                     + (SELECT count(*) FROM session_nodes WHERE session_key = 'agent:research:scratch-2')",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(left, 0, "the window or the cap's archived session is left");
            let out = s
                .cmd()
                .args(&PRUNE_BUDGET[..5])
                .args(["--dry-run", "--json"])
                .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
                .output()
                .unwrap();
            let doc = json(&out);
            let left = &doc["data"]["agents"][0]["actions"];
            assert_eq!(left.as_array().unwrap().len(), 0, "left to do: {left}");
            // Only archives can be left for the budget (the transcript of scratch-2).
            for r in doc["data"]["agents"][0]["budget"]["removed"]
                .as_array()
                .unwrap()
            {
                assert_eq!(r["step"], "archive", "left to do: {r}");
            }
        }),
    }
}

fn snapshot_then_delete_pinned(on: On) -> Store {
    let store = on.live();
    let repo = store.dir.path().join("repo");
    store.run_ok([
        "backup",
        "create",
        "--agent",
        "main",
        "--repository",
        repo.to_str().unwrap(),
    ]);
    store.run_ok(["delete", "agent:main:pinned-notes", "--yes"]);
    // Smaller than the snapshot, so that a limit just over its size lets the safety snapshot
    // of it through and bites as the larger snapshot is staged in its place.
    store.writable("main").execute_batch("VACUUM").unwrap();
    store
}

fn the_snapshot(store: &Store) -> PathBuf {
    let repo = store.dir.path().join("repo");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&repo)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        // Not a staging directory a killed restore left (it snapshots the live database
        // first); snapshot names start with their time, so the first is the one made here.
        .filter(|p| {
            !p.file_name().unwrap().to_string_lossy().starts_with('.')
                && p.join("manifest.json").exists()
        })
        .collect();
    found.sort();
    found.remove(0)
}

fn backup_restore_case(on: On) -> Case {
    Case {
        name: on.name("backup restore --in-place"),
        prepare: Box::new(move || snapshot_then_delete_pinned(on)),
        args: args(|s| {
            vec![
                "backup".into(),
                "restore".into(),
                "--in-place".into(),
                "--yes".into(),
                the_snapshot(s).to_string_lossy().into_owned(),
            ]
        }),
        agent: "main",
        // The snapshot holds every other session as it is: only the deleted one comes back.
        allowed: allowed(|_, _, _, _| false),
        appear: &["agent:main:pinned-notes"],
        rerun_exits: &[0],
        // The first write is the staging copy of the snapshot, begun as the apply starts.
        first_write: "pipeline-apply",
        whole: false,
        limit_lands: true,
        exact_rerun: true,
        done: on.done(|s| {
            assert!(
                s.entry("main", "agent:main:pinned-notes").is_some(),
                "not restored"
            )
        }),
    }
}

/// A label column out of step with its entry: a repair every release's doctor makes (on 19 and
/// 21 the only kind: src/doctor/older_release.rs).
fn drifted_label(on: On) -> Store {
    let store = on.live();
    store
        .writable("main")
        .execute(
            "UPDATE session_nodes SET label = 'drift' WHERE session_key = 'agent:main:pinned-notes'",
            [],
        )
        .unwrap();
    store
}

fn doctor_fix_case(on: On) -> Case {
    Case {
        name: on.name("doctor --fix"),
        prepare: Box::new(move || drifted_label(on)),
        args: args(|_| ["doctor", "--fix", "--yes"].map(String::from).to_vec()),
        agent: "main",
        // The repair touches a projected column only, never an entry or a transcript.
        allowed: allowed(|_, _, _, _| false),
        appear: &[],
        rerun_exits: &[0],
        first_write: "doctor-fix-before-commit",
        whole: true,
        limit_lands: false,
        exact_rerun: true,
        done: on.done(|s| {
            let label: Option<String> = s
                .writable("main")
                .query_row(
                    "SELECT label FROM session_nodes WHERE session_key = 'agent:main:pinned-notes'",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_ne!(label.as_deref(), Some("drift"), "not repaired");
        }),
    }
}

#[test]
fn patch_on_a_full_disk() {
    on_a_full_disk(patch_case(On::Current));
}

#[test]
fn patch_killed_at_many_moments() {
    killed_at_many_moments(patch_case(On::Current));
}

#[test]
fn archive_on_a_full_disk() {
    on_a_full_disk(archive_case(On::Current));
}

#[test]
fn archive_killed_at_many_moments() {
    killed_at_many_moments(archive_case(On::Current));
}

#[test]
fn delete_on_a_full_disk() {
    on_a_full_disk(delete_case(On::Current));
}

#[test]
fn delete_killed_at_many_moments() {
    killed_at_many_moments(delete_case(On::Current));
}

#[test]
fn delete_on_schema_19_on_a_full_disk() {
    on_a_full_disk(delete_case(On::Schema19));
}

#[test]
fn delete_on_schema_19_killed_at_many_moments() {
    killed_at_many_moments(delete_case(On::Schema19));
}

#[test]
fn delete_on_schema_19_signalled_at_many_moments() {
    signalled_at_many_moments(delete_case(On::Schema19));
}

#[test]
fn patch_on_schema_19_on_a_full_disk() {
    on_a_full_disk(patch_case(On::Schema19));
}

#[test]
fn patch_on_schema_19_killed_at_many_moments() {
    killed_at_many_moments(patch_case(On::Schema19));
}

#[test]
fn archive_on_schema_19_on_a_full_disk() {
    on_a_full_disk(archive_case(On::Schema19));
}

#[test]
fn archive_on_schema_19_killed_at_many_moments() {
    killed_at_many_moments(archive_case(On::Schema19));
}

#[test]
fn unarchive_on_schema_19_on_a_full_disk() {
    on_a_full_disk(unarchive_case(On::Schema19));
}

#[test]
fn unarchive_on_schema_19_killed_at_many_moments() {
    killed_at_many_moments(unarchive_case(On::Schema19));
}

#[test]
fn undelete_on_schema_19_on_a_full_disk() {
    on_a_full_disk(undelete_case(On::Schema19));
}

#[test]
fn undelete_on_schema_19_killed_at_many_moments() {
    killed_at_many_moments(undelete_case(On::Schema19));
}

#[test]
fn backup_restore_session_on_schema_19_on_a_full_disk() {
    on_a_full_disk(restore_session_case(On::Schema19));
}

#[test]
fn backup_restore_session_on_schema_19_killed_at_many_moments() {
    killed_at_many_moments(restore_session_case(On::Schema19));
}

#[test]
fn backup_restore_on_schema_19_on_a_full_disk() {
    on_a_full_disk(backup_restore_case(On::Schema19));
}

#[test]
fn backup_restore_on_schema_19_killed_at_many_moments() {
    killed_at_many_moments(backup_restore_case(On::Schema19));
}

#[test]
fn doctor_fix_on_schema_19_on_a_full_disk() {
    on_a_full_disk(doctor_fix_case(On::Schema19));
}

#[test]
fn doctor_fix_on_schema_19_killed_at_many_moments() {
    killed_at_many_moments(doctor_fix_case(On::Schema19));
}

#[test]
fn prune_on_schema_21_on_a_full_disk() {
    on_a_full_disk(prune_enforce_case(On::Schema21, None));
}

#[test]
fn prune_on_schema_21_killed_at_many_moments() {
    killed_at_many_moments(prune_enforce_case(On::Schema21, None));
}

#[test]
fn prune_on_schema_21_signalled_at_many_moments() {
    signalled_at_many_moments(prune_enforce_case(On::Schema21, None));
}

#[test]
fn prune_with_a_disk_budget_on_schema_21_killed_at_many_moments() {
    killed_at_many_moments(prune_enforce_case(On::Schema21, Some("600kb")));
}

#[test]
fn prune_with_a_disk_budget_on_schema_21_on_a_full_disk() {
    on_a_full_disk(prune_enforce_case(On::Schema21, Some("600kb")));
}

#[test]
fn prune_on_schema_19_on_a_full_disk() {
    on_a_full_disk(prune_enforce_case(On::Schema19, None));
}

#[test]
fn prune_on_schema_19_killed_at_many_moments() {
    killed_at_many_moments(prune_enforce_case(On::Schema19, None));
}

#[test]
fn prune_on_schema_19_signalled_at_many_moments() {
    signalled_at_many_moments(prune_enforce_case(On::Schema19, None));
}

#[test]
fn prune_with_a_disk_budget_on_schema_19_killed_at_many_moments() {
    killed_at_many_moments(prune_enforce_case(On::Schema19, Some("600kb")));
}

#[test]
fn prune_with_a_disk_budget_on_schema_19_on_a_full_disk() {
    on_a_full_disk(prune_enforce_case(On::Schema19, Some("600kb")));
}

#[test]
fn prune_on_a_full_disk() {
    on_a_full_disk(prune_case());
}

#[test]
fn prune_killed_at_many_moments() {
    killed_at_many_moments(prune_case());
}

#[test]
fn prune_with_a_disk_budget_killed_at_many_moments() {
    killed_at_many_moments(prune_budget_case());
}

#[test]
fn prune_with_a_disk_budget_on_a_full_disk() {
    on_a_full_disk(prune_budget_case());
}

#[test]
fn prune_with_a_disk_budget_signalled_at_many_moments() {
    signalled_at_many_moments(prune_budget_case());
}

#[test]
fn delete_of_many_keys_signalled_at_many_moments() {
    signalled_at_many_moments(delete_many_case());
}

#[test]
fn prune_signalled_at_many_moments() {
    signalled_at_many_moments(prune_case());
}

#[test]
fn delete_of_many_keys_signalled_at_named_points() {
    signalled_at_points(
        delete_many_case(),
        &[
            "delete-before-commit@1",
            "publish-temp-written@60:TERM",
            "delete-before-publish@199",
        ],
    );
}

#[test]
fn prune_signalled_at_named_points() {
    signalled_at_points(
        prune_case(),
        &["delete-before-commit@1", "delete-before-publish@2:TERM"],
    );
}

/// A signal while the agents are pruned side by side stops each before its next commit: the
/// batch it came in, and every other agent's batch in flight, roll back, so the run never
/// ends as finished (with a session a batch, and with the default batch, where every agent
/// of this store is in its one batch at once). The warnings name the agents pruned in full
/// and what each other agent had done, and the store agrees: a dry run plans nothing more for
/// an agent named in full, the plan less the named counts for an agent named as stopped, and
/// the whole plan for any other. The re-run finishes the plan.
#[test]
fn prune_of_every_agent_signalled_names_the_agents_done() {
    for batch in [Some("1"), None] {
        prune_of_every_agent_signalled(batch);
    }
}

fn prune_of_every_agent_signalled(batch: Option<&str>) {
    let store = live();
    let prune = ["prune", "--enforce", "--older-than", "1d"];
    let planned = |agent: &str| -> usize {
        let out = store
            .cmd()
            .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
            .args(["--json", "--agent", agent])
            .args(prune)
            .arg("--dry-run")
            .output()
            .unwrap();
        let doc = json(&out);
        let a = &doc["data"]["agents"][0];
        ["archived", "deleted"]
            .iter()
            .map(|k| a[*k].as_array().map_or(0, Vec::len))
            .sum()
    };
    let before: Vec<usize> = AGENTS.iter().map(|a| planned(a)).collect();
    assert!(before.iter().all(|n| *n > 1), "{before:?}");
    let mut cmd = store.cmd();
    cmd.env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
        .env("OPENCLAW_SESSIONS_SIGNAL_AT", "delete-before-commit@1");
    if let Some(size) = batch {
        cmd.env("OPENCLAW_SESSIONS_APPLY_BATCH", size);
    }
    let out = cmd
        .args(["--json", "--all-agents"])
        .args(prune)
        .arg("--yes")
        .output()
        .unwrap();
    stopped_by_signal(&out, "prune --all-agents");
    let doc = json(&out);
    let warnings: Vec<&str> = doc["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    let in_full: Vec<&str> = warnings
        .iter()
        .filter_map(|w| w.strip_prefix("pruned in full before the interruption: "))
        .flat_map(|list| list.split(", "))
        .map(|a| a.trim_start_matches("agent "))
        .collect();
    let mut left_in_all = 0;
    for (agent, before) in AGENTS.iter().zip(before) {
        let left = planned(agent);
        left_in_all += left;
        let stopped = warnings.iter().find_map(|w| {
            w.strip_prefix(&format!("agent {agent}: pruned before the interruption: "))
        });
        if in_full.contains(agent) {
            assert_eq!(left, 0, "{agent} was named pruned in full: {doc}");
        } else if let Some(words) = stopped {
            // "N archived, M deleted; ...": what is left is the plan less what it names.
            let done: usize = words
                .split(';')
                .next()
                .unwrap()
                .split(", ")
                .map(|part| part.split(' ').next().unwrap().parse::<usize>().unwrap())
                .sum();
            assert!(
                done > 0 && left == before - done,
                "{agent}: {left} of {before} left after {done}: {doc}"
            );
        } else {
            assert_eq!(
                left, before,
                "{agent} was not named, so it is untouched: {doc}"
            );
        }
    }
    // The batch the signal came in rolled back: the run left work, whatever the timing.
    assert!(left_in_all > 0, "batch {batch:?}: nothing left: {doc}");
    sound(&store, "prune --all-agents");
    let again = store
        .cmd()
        .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
        .arg("--all-agents")
        .args(prune)
        .arg("--yes")
        .output()
        .unwrap();
    expect_exit(&again, 0);
    assert!(AGENTS.iter().all(|a| planned(a) == 0));
}

/// Before the swap, after the safety snapshot, after the staged copy, after the checkpoint:
/// nothing of the live database changes, and a re-run restores.
#[test]
fn backup_restore_signalled_at_named_points() {
    signalled_at_points(
        backup_restore_case(On::Current),
        &[
            "backup-after-copy",
            "restore-staged:TERM",
            "restore-before-swap",
        ],
    );
}

#[test]
fn backup_restore_signalled_at_many_moments() {
    signalled_at_many_moments(backup_restore_case(On::Current));
}

#[test]
fn backup_restore_on_a_full_disk() {
    on_a_full_disk(backup_restore_case(On::Current));
}

#[test]
fn backup_restore_killed_at_many_moments() {
    killed_at_many_moments(backup_restore_case(On::Current));
}

#[test]
fn doctor_fix_on_a_full_disk() {
    on_a_full_disk(doctor_fix_case(On::Current));
}

#[test]
fn doctor_fix_killed_at_many_moments() {
    killed_at_many_moments(doctor_fix_case(On::Current));
}

/// The sha256 of every file under `dir`, by relative path (none when it does not exist).
fn tree(dir: &std::path::Path) -> BTreeMap<PathBuf, String> {
    if !dir.exists() {
        return BTreeMap::new();
    }
    checksums(dir)
        .into_iter()
        .map(|(p, sha)| (p.strip_prefix(dir).unwrap().to_path_buf(), sha))
        .collect()
}

fn acpx_staging(store: &Store) -> Vec<PathBuf> {
    std::fs::read_dir(store.state())
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(".acpx-migrate-")
        })
        .map(|e| e.path())
        .collect()
}

/// `migrate acpx` copies a directory tree into a staging directory, then renames it into
/// place: after any fault the old copy stays whole, the destination is absent or whole, and
/// the marker says "completed" only when the destination is there; a re-run finishes the move
/// and leaves no staging directory behind. Returns how many faults stopped the command.
fn migrate_acpx_under(faults: &[Fault]) -> usize {
    // Only its command is used: this migration moves files, not sessions.
    let case = Case {
        name: "migrate acpx",
        prepare: Box::new(live),
        args: args(|_| ["migrate", "acpx", "--yes"].map(String::from).to_vec()),
        agent: "main",
        allowed: allowed(|_, _, _, _| false),
        appear: &[],
        rerun_exits: &[0],
        first_write: "acpx-before-publish",
        whole: false,
        limit_lands: true,
        exact_rerun: true,
        done: done(|_| {}),
    };
    let mut stopped = 0;
    for fault in faults {
        let step = format!("migrate acpx under {fault:?}");
        let store = live();
        let old = crate::migrate_acpx::plant_old_state(&store);
        // Larger than the middle limits, so the copy itself runs out of room there.
        std::fs::write(old.join("cache/large.bin"), vec![9u8; 200 << 10]).unwrap();
        let source = tree(&old);
        let dest = store.state().join("acpx");
        if run(&store, &case, *fault, &step).stopped {
            stopped += 1;
        }
        assert_eq!(tree(&old), source, "{step}: the old copy changed");
        let moved = tree(&dest);
        assert!(
            moved.is_empty() || moved == source,
            "{step}: a partial destination"
        );
        let completed = crate::migrate_acpx::marker(&store).is_some_and(|m| m["completed"] == true);
        assert!(
            !completed || moved == source,
            "{step}: marked completed without the move"
        );
        if !matches!(fault, Fault::KillAfter(_)) {
            assert!(
                acpx_staging(&store).is_empty(),
                "{step}: staging left behind"
            );
        }
        sound(&store, &step);
        if !completed {
            run(&store, &case, Fault::None, &format!("{step}, re-run"));
        }
        assert_eq!(tree(&dest), source, "{step}: after the re-run");
        assert_eq!(
            crate::migrate_acpx::marker(&store).unwrap()["completed"],
            true,
            "{step}"
        );
        assert!(
            acpx_staging(&store).is_empty(),
            "{step}: staging left after the re-run"
        );
    }
    stopped
}

#[test]
fn migrate_acpx_on_a_full_disk() {
    let failed = migrate_acpx_under(&LIMITS.map(Fault::DiskLimit));
    eprintln!(
        "migrate acpx: failed cleanly under {failed} of {} limits",
        LIMITS.len()
    );
    assert!(failed >= 3, "the limits bit only {failed} times");
}

#[test]
fn migrate_acpx_killed_at_many_moments() {
    let length = shortest_run(
        || {
            let store = live();
            crate::migrate_acpx::plant_old_state(&store);
            store
        },
        |store| {
            store.run_ok(["migrate", "acpx", "--yes"]);
        },
    );
    let faults: Vec<Fault> = (0..16).map(|i| Fault::KillAfter(length * i / 16)).collect();
    let killed = migrate_acpx_under(&faults);
    eprintln!("migrate acpx: killed {killed} of {} runs", faults.len());
    assert!(killed >= 5, "only {killed} runs were killed");
}

/// `migrate schema` of a 2026.8.2 store (three agent databases at 19, the state database at
/// 15): each database is upgraded whole or not at all, no session changes, and the re-run
/// upgrades the rest.
fn migrate_schema_case() -> Case {
    Case {
        name: "migrate schema",
        prepare: Box::new(|| Store::copy_release("2026.8.2", "live")),
        args: args(|_| {
            ["migrate", "schema", "--all-agents", "--yes"]
                .map(String::from)
                .to_vec()
        }),
        agent: "main",
        allowed: allowed(|_, _, _, _| false),
        appear: &[],
        rerun_exits: &[0],
        first_write: "migrate-schema-upgraded",
        // Not whole: the state database's registry of agent databases follows each agent
        // database as it is upgraded.
        whole: false,
        // Its first write is a snapshot of each database it upgrades (see `limit_lands`).
        limit_lands: false,
        exact_rerun: true,
        done: done(|s| {
            for agent in AGENTS {
                let v: i64 = s
                    .writable(agent)
                    .query_row("PRAGMA user_version", [], |r| r.get(0))
                    .unwrap();
                assert_eq!(v, 23, "{agent} not upgraded");
            }
        }),
    }
}

#[test]
fn migrate_schema_on_a_full_disk() {
    on_a_full_disk(migrate_schema_case());
}

#[test]
fn migrate_schema_killed_at_many_moments() {
    killed_at_many_moments(migrate_schema_case());
}

#[test]
fn migrate_schema_signalled_at_many_moments() {
    signalled_at_many_moments(migrate_schema_case());
}

#[test]
fn unarchive_on_a_full_disk() {
    on_a_full_disk(unarchive_case(On::Current));
}

#[test]
fn unarchive_killed_at_many_moments() {
    killed_at_many_moments(unarchive_case(On::Current));
}

#[test]
fn unarchive_signalled_at_many_moments() {
    signalled_at_many_moments(unarchive_case(On::Current));
}

#[test]
fn undelete_on_a_full_disk() {
    on_a_full_disk(undelete_case(On::Current));
}

#[test]
fn undelete_killed_mid_write() {
    killed_at_many_moments(undelete_case(On::Current));
}

#[test]
fn undelete_signalled_at_many_moments() {
    signalled_at_many_moments(undelete_case(On::Current));
}

#[test]
fn bundle_import_on_a_full_disk() {
    on_a_full_disk(bundle_import_case(On::Current));
}

#[test]
fn bundle_import_killed_mid_write() {
    killed_at_many_moments(bundle_import_case(On::Current));
}

#[test]
fn bundle_import_signalled_at_many_moments() {
    signalled_at_many_moments(bundle_import_case(On::Current));
}

#[test]
fn bundle_import_on_schema_19_killed_mid_write() {
    killed_at_many_moments(bundle_import_case(On::Schema19));
}

#[test]
fn backup_restore_session_on_a_full_disk() {
    on_a_full_disk(restore_session_case(On::Current));
}

#[test]
fn backup_restore_session_killed_mid_write() {
    killed_at_many_moments(restore_session_case(On::Current));
}

#[test]
fn backup_restore_session_signalled_at_many_moments() {
    signalled_at_many_moments(restore_session_case(On::Current));
}

/// "A second signal stops at once": each mutating command held in a system call after its
/// first write, where the first signal cannot stop it (only the watchdog does, 1.5 s later:
/// shown once, on `patch`), exits 130 within that grace of a second SIGINT or SIGTERM sent
/// 100 ms after the first, by the second signal (not the watchdog); the store is as it was or
/// as finished (the full comparison), and a re-run finishes.
#[test]
fn a_second_signal_stops_at_once() {
    let once = Fault::WhileBlocked {
        signal: libc::SIGINT,
        twice: false,
    };
    let twice = [libc::SIGINT, libc::SIGTERM].map(|signal| Fault::WhileBlocked {
        signal,
        twice: true,
    });
    check(&patch_case(On::Current), &[once]);
    for case in [
        patch_case(On::Current),
        archive_case(On::Current),
        unarchive_case(On::Current),
        delete_case(On::Current),
        undelete_case(On::Current),
        restore_session_case(On::Current),
        doctor_fix_case(On::Current),
    ] {
        let outcomes = check(&case, &twice);
        assert_eq!(count(&outcomes, |o| o.landed), twice.len(), "{}", case.name);
    }
}
