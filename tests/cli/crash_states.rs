//! The files a killed writer leaves beside a database, built as SQLite leaves them from a real
//! writer on a copy of a real store: every command, read-only ones included, opens the
//! database as SQLite would recover it, or `doctor` names the state and its repair; none is
//! stuck on "locking protocol" where `sqlite3` opens the file.

use std::path::{Path, PathBuf};

use crate::common::{json, Store};

const KEY: &str = "agent:main:pinned-notes";

fn side(db: &Path, suffix: &str) -> PathBuf {
    let mut s = db.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// A WAL writer changes the label of KEY; `grab` runs while its `-wal` and `-shm` are live
/// (the connection open, nothing checkpointed), as a `kill -9` at that moment would leave
/// them. Returns what `grab` collected; the writer then closes normally (checkpointing into
/// the main file and removing the sidecars).
fn while_writing<T>(db: &Path, label: &str, grab: impl FnOnce() -> T) -> T {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute_batch("PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    conn.execute_batch("BEGIN").unwrap();
    set_label(&conn, label);
    conn.execute_batch("COMMIT").unwrap();
    let out = grab();
    drop(conn);
    out
}

/// The WAL header alone (32 bytes, no frames) and a stale 32 KiB `-shm` from the killed
/// writer: what the kill of `migrate legacy` left.
fn wal_header_only_with_stale_shm(s: &Store) {
    let db = s.agent_db("main");
    let (wal, shm) = while_writing(&db, "killed", || {
        (
            std::fs::read(side(&db, "-wal")).unwrap(),
            std::fs::read(side(&db, "-shm")).unwrap(),
        )
    });
    assert!(wal.len() > 32 && shm.len() == 32 * 1024);
    std::fs::write(side(&db, "-wal"), &wal[..32]).unwrap();
    std::fs::write(side(&db, "-shm"), &shm).unwrap();
}

/// A WAL with committed frames and a `-shm` whose header was torn mid-write (its first copy
/// overwritten): the frames hold the only copy of the last commit.
fn torn_shm_header(s: &Store) {
    let db = s.agent_db("main");
    let (main, wal, mut shm) = while_writing(&db, "in the wal", || {
        (
            std::fs::read(&db).unwrap(),
            std::fs::read(side(&db, "-wal")).unwrap(),
            std::fs::read(side(&db, "-shm")).unwrap(),
        )
    });
    for b in &mut shm[..48] {
        *b = 0x5A;
    }
    std::fs::write(&db, main).unwrap();
    std::fs::write(side(&db, "-wal"), wal).unwrap();
    std::fs::write(side(&db, "-shm"), shm).unwrap();
}

/// A hot rollback journal: a rollback-mode writer killed after it spilled changed pages into
/// the database file (the journal holds their originals).
fn hot_journal(s: &Store) {
    let db = s.agent_db("main");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("PRAGMA journal_mode = DELETE; PRAGMA cache_size = 2;")
        .unwrap();
    conn.execute_batch("BEGIN").unwrap();
    set_label(&conn, "half-written");
    // Enough changed pages to spill the tiny cache into the file.
    conn.execute(
        "UPDATE transcript_events SET created_at = created_at + 1",
        [],
    )
    .unwrap();
    let main = std::fs::read(&db).unwrap();
    let journal = std::fs::read(side(&db, "-journal")).unwrap();
    conn.execute_batch("ROLLBACK").unwrap();
    drop(conn);
    std::fs::write(&db, main).unwrap();
    std::fs::write(side(&db, "-journal"), journal).unwrap();
}

fn label(s: &Store) -> serde_json::Value {
    let out = s.cmd().args(["show", KEY, "--json"]).output().unwrap();
    assert!(
        out.status.success(),
        "show: {}{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    json(&out)["data"]["entry"]["label"].clone()
}

/// The label in the entry and its column, as OpenClaw's writer keeps them.
fn set_label(conn: &rusqlite::Connection, label: &str) {
    conn.execute(
        "UPDATE session_nodes SET label = ?1, entry_json = json_set(entry_json, '$.label', ?1) WHERE session_key = ?2",
        [label, KEY],
    )
    .unwrap();
    conn.execute(
        "UPDATE session_nodes SET entry_valid = 1 WHERE session_key = ?1",
        [KEY],
    )
    .unwrap();
}

type Build = fn(&Store);

/// (name, build, the label every reader must see: what SQLite's recovery yields).
fn states() -> Vec<(&'static str, Build, &'static str)> {
    vec![
        (
            "WAL header only, stale -shm",
            wal_header_only_with_stale_shm,
            "killed",
        ),
        ("torn -shm header", torn_shm_header, "in the wal"),
        ("hot rollback journal", hot_journal, "Pinned notes"),
    ]
}

#[test]
fn every_command_opens_a_crash_state_as_sqlite_recovers_it() {
    for (name, build, want) in states() {
        let store = Store::copy("live");
        build(&store);
        // What SQLite itself recovers, on a copy (recovery writes).
        let probe = Store::copy("live");
        build(&probe);
        let sqlite_label: String = probe
            .writable("main")
            .query_row(
                "SELECT label FROM session_nodes WHERE session_key = ?1",
                [KEY],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(sqlite_label, want, "{name}: the built state");
        // Read-only commands: work, see what SQLite sees, and change no byte.
        let before = crate::common::checksums(&store.state());
        assert_eq!(label(&store), want, "{name}: show");
        for args in [
            vec!["status"],
            vec!["list", "--all-agents"],
            vec!["transcript", "cat", KEY, "--limit", "2"],
            vec!["du"],
            vec!["doctor"],
        ] {
            let out = store.cmd().args(&args).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!err.contains("locking protocol"), "{name}: {args:?}: {err}");
            assert!(
                matches!(out.status.code(), Some(0) | Some(3)),
                "{name}: {args:?}: {err}"
            );
        }
        let after = crate::common::checksums(&store.state());
        assert_eq!(
            before, after,
            "{name}: a read-only command changed the store"
        );
        // doctor names the state and its repair; --fix repairs it as SQLite would.
        let doc = json(&store.cmd().args(["doctor", "--json"]).output().unwrap());
        let named = doc["data"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["check"] == "crash-state")
            .unwrap_or_else(|| panic!("{name}: not named: {doc}"))
            .clone();
        assert_eq!(named["fixable"], true, "{name}: {named}");
        assert!(named["path"]
            .as_str()
            .unwrap()
            .ends_with("openclaw-agent.sqlite"));
        let fix = store
            .cmd()
            .args(["doctor", "--fix", "--yes", "--json"])
            .output()
            .unwrap();
        let fixed = json(&fix);
        assert!(
            !fixed["data"]["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["check"] == "crash-state"),
            "{name}: {fixed}"
        );
        assert_eq!(label(&store), want, "{name}: after --fix");
        for s in ["-journal", "-shm"] {
            assert!(
                !side(&store.agent_db("main"), s).exists(),
                "{name}: {s} left after --fix"
            );
        }
        // A mutating command works on the state too.
        let other = Store::copy("live");
        build(&other);
        let out = other
            .cmd()
            .args(["patch", KEY, "--set", "label=\"after\"", "--yes"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: patch: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(label(&other), "after", "{name}");
    }
}

/// `migrate legacy` killed (SIGKILL) at moments spread over a whole uninterrupted run, the
/// first and last tenth included (where SQLite creates and removes its WAL): after each kill
/// the read-only commands open the store (never "locking protocol"), and a re-run finishes
/// the same import as an uninterrupted one.
#[test]
fn migrate_legacy_killed_across_the_whole_run_resumes() {
    use crate::migrate_legacy::{dump, import, integrity_ok, source_contents, AGENTS};
    let reference = Store::copy("legacy");
    let start = std::time::Instant::now();
    import(&reference);
    let length = start.elapsed();
    let expected: Vec<_> = AGENTS
        .iter()
        .map(|a| dump(&reference.agent_db(a)))
        .collect();
    let sources = source_contents(&reference.state());
    // Per mille of the run: dense in the first and last tenth, spread between.
    let moments: Vec<u32> = [
        0, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400, 500, 600, 700, 800, 900, 910,
        920, 930, 940, 950, 960, 970, 980, 990, 1000,
    ]
    .to_vec();
    let (mut killed, mut wal_states) = (0, 0);
    for per_mille in moments {
        let store = Store::copy("legacy");
        let mut cmd = crate::common::std_bin();
        cmd.env("HOME", store.dir.path())
            .arg("--state-dir")
            .arg(store.state())
            .args(["--json", "migrate", "legacy", "--all-agents", "--yes"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        let mut child = cmd.spawn().unwrap();
        std::thread::sleep(length * per_mille / 1000);
        let _ = child.kill();
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        if status.signal() == Some(libc::SIGKILL) {
            killed += 1;
        }
        let step = format!("killed at {per_mille}/1000 of {length:?}");
        if AGENTS
            .iter()
            .any(|a| side(&store.agent_db(a), "-wal").exists())
        {
            wal_states += 1;
        }
        for args in [vec!["status"], vec!["list", "--all-agents"], vec!["doctor"]] {
            let out = store.cmd().args(&args).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!err.contains("locking protocol"), "{step}: {args:?}: {err}");
            assert_ne!(out.status.code(), Some(1), "{step}: {args:?}: {err}");
        }
        let again = store
            .cmd()
            .args(["--json", "migrate", "legacy", "--all-agents", "--yes"])
            .output()
            .unwrap();
        assert!(
            again.status.success(),
            "{step}: re-run: {}",
            String::from_utf8_lossy(&again.stdout)
        );
        for (a, want) in AGENTS.iter().zip(&expected) {
            integrity_ok(&store.agent_db(a));
            assert_eq!(&dump(&store.agent_db(a)), want, "{a}: {step}");
        }
        assert_eq!(source_contents(&store.state()), sources, "{step}");
    }
    eprintln!("migrate legacy: killed {killed} of 30 runs ({wal_states} left a -wal), a run takes {length:?}");
    assert!(killed >= 10, "only {killed} runs were killed");
}
