//! Faults during every mutating command, two ladders over the same cases:
//! - a full disk: eight file-size limits (RLIMIT_FSIZE: a write past the limit fails as on a
//!   full disk); the command completes, or fails with an I/O error in its JSON document;
//! - `kill -9` at moments spread over the length of an uninterrupted run;
//! - SIGINT and SIGTERM at such moments: the run stops at its next consistent point and exits
//!   130 (INTERRUPTED, what was done named), or it had finished before the signal;
//! - a signal at named points inside the run (the test hook `OPENCLAW_SESSIONS_SIGNAL_AT`),
//!   where the run must stop: exit 130 every time.
//!
//! After each: every database passes `integrity_check` and `foreign_key_check`, every session
//! is as it was or as the command means to leave it (nothing half-done, nothing lost), no
//! session outside the command's reach changes, and a re-run without the fault finishes.
//!
//! `backup create` and `migrate legacy` have their own fault tests (backup.rs,
//! migrate_legacy.rs and the reference suite's kill -9 check); named crash points are tested
//! beside each command.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rusqlite::OptionalExtension;
use serde_json::Value;

use crate::common::{budget_store, checksums, json, limit_file_size, std_bin, Store};

/// From nothing at all to more than any file these commands write.
const LIMITS: [u64; 8] = [
    0,
    1 << 10,
    8 << 10,
    64 << 10,
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
type Allowed = fn(key: &str, before: &Session, now: Option<&Session>, archived: bool) -> bool;

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
        let ok: String = db
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(ok, "ok", "{step}: {agent}");
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
    prepare: fn() -> Store,
    args: fn(&Store) -> Vec<String>,
    /// The agent the command changes; the other agents must not change at all.
    agent: &'static str,
    /// Called for every session of `agent` that is not exactly as it was.
    allowed: Allowed,
    /// Sessions the command may bring (back) into `agent`.
    appear: &'static [&'static str],
    /// Exit codes of a fine re-run (`delete` reports keys an earlier run took as missing).
    rerun_exits: &'static [i32],
    /// After the re-run without a limit: the command's whole effect is there.
    done: fn(&Store),
}

/// A fault to put a run through.
#[derive(Clone, Copy, Debug)]
enum Fault {
    None,
    DiskLimit(u64),
    KillAfter(Duration),
    /// This signal after this long (and a second one right after, with `twice`).
    SignalAfter {
        delay: Duration,
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
        .arg("--state-dir")
        .arg(store.state())
        .arg("--json")
        .args((case.args)(store));
    cmd
}

/// Runs the case's command under `fault`; `true` when the fault stopped it.
fn run(store: &Store, case: &Case, fault: Fault, step: &str) -> bool {
    let mut cmd = command(store, case);
    let out = match fault {
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
        Fault::SignalAfter {
            delay,
            signal,
            twice,
        } => return signalled(cmd, delay, signal, twice, step),
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

/// One store per fault: run, check what is left, re-run, check the job is done. Returns how
/// many faults stopped the command.
fn check(case: &Case, faults: &[Fault]) -> usize {
    let mut stopped = 0;
    for fault in faults {
        let step = format!("{} under {fault:?}", case.name);
        let store = (case.prepare)();
        let before: BTreeMap<&str, Sessions> =
            AGENTS.iter().map(|a| (*a, sessions(&store, a))).collect();
        if run(&store, case, *fault, &step) {
            stopped += 1;
        }
        sound(&store, &step);
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
    }
    stopped
}

fn on_a_full_disk(case: Case) {
    let faults = LIMITS.map(Fault::DiskLimit);
    let failed = check(&case, &faults);
    eprintln!(
        "{}: failed cleanly under {failed} of {} limits",
        case.name,
        faults.len()
    );
    assert!(
        failed >= 3,
        "{}: the limits bit only {failed} times",
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

/// `kill -9` at `KILLS` moments spread evenly over an uninterrupted run (timed here, on this
/// machine), each on a fresh store.
fn killed_at_many_moments(case: Case) {
    const KILLS: u32 = 16;
    let length = shortest_run(case.prepare, |store| {
        run(store, &case, Fault::None, case.name);
    });
    let faults: Vec<Fault> = (0..KILLS)
        .map(|i| Fault::KillAfter(length * i / KILLS))
        .collect();
    let killed = check(&case, &faults);
    eprintln!(
        "{}: killed {killed} of {KILLS} runs (a run takes {length:?})",
        case.name
    );
    assert!(
        killed >= KILLS as usize / 3,
        "{}: only {killed} runs were killed",
        case.name
    );
}

/// SIGINT and SIGTERM, each at `MOMENTS` moments spread over an uninterrupted run, each on a
/// fresh store; and both signals twice in a row at a moment inside the run.
fn signalled_at_many_moments(case: Case) {
    const MOMENTS: u32 = 3;
    let length = shortest_run(case.prepare, |store| {
        run(store, &case, Fault::None, case.name);
    });
    let mut faults = Vec::new();
    for signal in [libc::SIGINT, libc::SIGTERM] {
        for i in 0..MOMENTS {
            faults.push(Fault::SignalAfter {
                delay: length * (2 * i + 1) / (2 * MOMENTS),
                signal,
                twice: false,
            });
        }
        faults.push(Fault::SignalAfter {
            delay: length / 2,
            signal,
            twice: true,
        });
    }
    let stopped = check(&case, &faults);
    eprintln!(
        "{}: {stopped} of {} signalled runs stopped (a run takes {length:?})",
        case.name,
        faults.len()
    );
    assert!(stopped >= 1, "{}: no signal stopped a run", case.name);
}

fn live() -> Store {
    Store::copy("live")
}

fn entry(store: &Store, agent: &str, key: &str) -> Option<Value> {
    sessions(store, agent).remove(key).map(|(e, _)| e)
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

const DELETED: [&str; 4] = [
    "agent:main:acp:9911cc46-d649-47bb-9968-72da7c2daff9",
    "agent:main:cron:nightly:run:884",
    "agent:main:pinned-notes",
    "agent:main:telegram:group:-100123456784",
];

fn patch_case() -> Case {
    Case {
        name: "patch",
        prepare: live,
        args: |_| {
            [
                "patch",
                "agent:main:main",
                "--set",
                "label=\"Full\"",
                "--yes",
            ]
            .map(String::from)
            .to_vec()
        },
        agent: "main",
        allowed: |key, (was, n), now, _| {
            key == "agent:main:main"
                && now.is_some_and(|(e, m)| {
                    m == n && e["label"] == "Full" && only_changed(was, e, "label")
                })
        },
        appear: &[],
        rerun_exits: &[0],
        done: |s| {
            assert_eq!(
                entry(s, "main", "agent:main:main").unwrap()["label"],
                "Full"
            )
        },
    }
}

fn archive_case() -> Case {
    Case {
        name: "archive",
        prepare: live,
        args: |_| {
            ["archive", "agent:main:scratch-1", "--yes"]
                .map(String::from)
                .to_vec()
        },
        agent: "main",
        allowed: |key, (was, n), now, _| {
            key == "agent:main:scratch-1"
                && now.is_some_and(|(e, m)| m == n && archived_in_place(was, e))
        },
        appear: &[],
        rerun_exits: &[0],
        done: |s| {
            assert!(entry(s, "main", "agent:main:scratch-1").unwrap()["archivedAt"].is_number())
        },
    }
}

fn delete_case() -> Case {
    Case {
        name: "delete",
        prepare: live,
        args: |_| {
            let mut a = vec!["delete".to_string()];
            a.extend(DELETED.map(String::from));
            a.push("--yes".into());
            a
        },
        agent: "main",
        // Gone only with its transcript archived.
        allowed: |key, _, now, archived| DELETED.contains(&key) && now.is_none() && archived,
        appear: &[],
        // 3: some keys were already deleted by the limited run (missing now), 4: all were.
        rerun_exits: &[0, 3, 4],
        done: |s| {
            for k in DELETED {
                assert!(entry(s, "main", k).is_none(), "{k} survived");
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
        },
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
            let ok: String = db
                .query_row("PRAGMA integrity_check", [], |r| r.get(0))
                .unwrap();
            assert_eq!(ok, "ok", "{a}");
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
    assert_eq!(check(&case, &faults), points.len());
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
        prepare: many_sessions,
        args: |_| {
            let mut a = vec!["--agent".to_string(), "work".into(), "delete".into()];
            a.extend((0..BULK).map(bulk_key));
            a.push("--yes".into());
            a
        },
        agent: "work",
        allowed: |key, _, now, archived| {
            key.starts_with("agent:work:bulk-") && now.is_none() && archived
        },
        appear: &[],
        rerun_exits: &[0, 3, 4],
        done: |s| {
            let left: Vec<String> = (0..BULK)
                .map(bulk_key)
                .filter(|k| entry(s, "work", k).is_some())
                .collect();
            assert!(left.is_empty(), "left: {left:?}");
        },
    }
}

fn prune_case() -> Case {
    Case {
        name: "prune",
        prepare: live,
        args: |_| {
            let mut a = PRUNE.map(String::from).to_vec();
            a.push("--yes".into());
            a
        },
        agent: "main",
        // Archived in place, or removed with its transcript archived.
        allowed: |_, (was, n), now, archived| match now {
            Some((e, m)) => m == n && archived_in_place(was, e),
            None => archived,
        },
        appear: &[],
        rerun_exits: &[0],
        done: |s| {
            let out = s
                .cmd()
                .args(PRUNE)
                .args(["--dry-run", "--json"])
                .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
                .output()
                .unwrap();
            let left = &json(&out)["data"]["agents"][0]["actions"];
            assert_eq!(left.as_array().unwrap().len(), 0, "left to do: {left}");
        },
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
        prepare: budget_store,
        args: |_| PRUNE_BUDGET.map(String::from).to_vec(),
        agent: "research",
        // Archived in place; removed with its transcript archived (the session the budget
        // deletes too); or a machine-made session whose archive the budget evicted.
        allowed: |key, (was, n), now, archived| match now {
            Some((e, m)) => m == n && archived_in_place(was, e),
            None => archived || BUDGET_EVICTED_ARCHIVES.contains(&key),
        },
        appear: &[],
        rerun_exits: &[0],
        done: |s| {
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
        },
    }
}

fn snapshot_then_delete_pinned() -> Store {
    let store = live();
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

fn backup_restore_case() -> Case {
    Case {
        name: "backup restore --in-place",
        prepare: snapshot_then_delete_pinned,
        args: |s| {
            vec![
                "backup".into(),
                "restore".into(),
                "--in-place".into(),
                "--yes".into(),
                the_snapshot(s).to_string_lossy().into_owned(),
            ]
        },
        agent: "main",
        // The snapshot holds every other session as it is: only the deleted one comes back.
        allowed: |_, _, _, _| false,
        appear: &["agent:main:pinned-notes"],
        rerun_exits: &[0],
        done: |s| {
            assert!(
                entry(s, "main", "agent:main:pinned-notes").is_some(),
                "not restored"
            )
        },
    }
}

fn drifted_label() -> Store {
    let store = live();
    store
        .writable("main")
        .execute(
            "UPDATE session_nodes SET label = 'drift' WHERE session_key = 'agent:main:cron:nightly:run:884'",
            [],
        )
        .unwrap();
    store
}

fn doctor_fix_case() -> Case {
    Case {
        name: "doctor --fix",
        prepare: drifted_label,
        args: |_| ["doctor", "--fix", "--yes"].map(String::from).to_vec(),
        agent: "main",
        // The repair touches a projected column only, never an entry or a transcript.
        allowed: |_, _, _, _| false,
        appear: &[],
        rerun_exits: &[0],
        done: |s| {
            let label: Option<String> = s
                .writable("main")
                .query_row(
                    "SELECT label FROM session_nodes WHERE session_key = 'agent:main:cron:nightly:run:884'",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_ne!(label.as_deref(), Some("drift"), "not repaired");
        },
    }
}

#[test]
fn patch_on_a_full_disk() {
    on_a_full_disk(patch_case());
}

#[test]
fn patch_killed_at_many_moments() {
    killed_at_many_moments(patch_case());
}

#[test]
fn archive_on_a_full_disk() {
    on_a_full_disk(archive_case());
}

#[test]
fn archive_killed_at_many_moments() {
    killed_at_many_moments(archive_case());
}

#[test]
fn delete_on_a_full_disk() {
    on_a_full_disk(delete_case());
}

#[test]
fn delete_killed_at_many_moments() {
    killed_at_many_moments(delete_case());
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
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(AGENTS.iter().all(|a| planned(a) == 0));
}

/// Before the swap, after the safety snapshot, after the staged copy, after the checkpoint:
/// nothing of the live database changes, and a re-run restores.
#[test]
fn backup_restore_signalled_at_named_points() {
    signalled_at_points(
        backup_restore_case(),
        &[
            "backup-after-copy",
            "restore-staged:TERM",
            "restore-before-swap",
        ],
    );
}

#[test]
fn backup_restore_signalled_at_many_moments() {
    signalled_at_many_moments(backup_restore_case());
}

#[test]
fn backup_restore_on_a_full_disk() {
    on_a_full_disk(backup_restore_case());
}

#[test]
fn backup_restore_killed_at_many_moments() {
    killed_at_many_moments(backup_restore_case());
}

#[test]
fn doctor_fix_on_a_full_disk() {
    on_a_full_disk(doctor_fix_case());
}

#[test]
fn doctor_fix_killed_at_many_moments() {
    killed_at_many_moments(doctor_fix_case());
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
        prepare: live,
        args: |_| ["migrate", "acpx", "--yes"].map(String::from).to_vec(),
        agent: "main",
        allowed: |_, _, _, _| false,
        appear: &[],
        rerun_exits: &[0],
        done: |_| {},
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
        if run(&store, &case, *fault, &step) {
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
        prepare: || Store::copy_release("2026.8.2", "live"),
        args: |_| {
            ["migrate", "schema", "--all-agents", "--yes"]
                .map(String::from)
                .to_vec()
        },
        agent: "main",
        allowed: |_, _, _, _| false,
        appear: &[],
        rerun_exits: &[0],
        done: |s| {
            for agent in AGENTS {
                let v: i64 = s
                    .writable(agent)
                    .query_row("PRAGMA user_version", [], |r| r.get(0))
                    .unwrap();
                assert_eq!(v, 23, "{agent} not upgraded");
            }
        },
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
