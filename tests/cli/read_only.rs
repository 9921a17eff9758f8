//! Read-only commands never change a byte of the state dir.

use crate::common::{checksums, Store};

/// Every read-only command with its arguments, for a store whose main agent has `key`.
fn commands(key: &str) -> Vec<Vec<String>> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        s(&["status"]),
        s(&["status", "--json"]),
        s(&["list", "--all-agents"]),
        s(&["list", "--all-agents", "--json", "--limit", "all"]),
        s(&["ls", "--agent", "work", "--sort", "bytes"]),
        s(&["show", key]),
        s(&["show", key, "--json"]),
        s(&["transcript", "cat", key]),
        s(&["transcript", "cat", key, "--visible"]),
        s(&["transcript", "delta", key, "--max-events", "3"]),
        s(&["transcript", "delta", key, "--visible"]),
        s(&["transcript", "catalog", key, "--limit", "2"]),
        s(&["transcript", "export", key, "--format", "jsonl"]),
        s(&["transcript", "export", key, "--format", "markdown"]),
        s(&["du", "--all-agents"]),
        s(&["du", "--all-agents", "--json"]),
        s(&["du", "--all-agents", "--sessions", "--sort", "stored"]),
        s(&[
            "du",
            "--all-agents",
            "--sessions",
            "--json",
            "--limit",
            "all",
        ]),
        s(&["du", "--all-agents", "--content"]),
        s(&["du", "--content", key, "--json"]),
        s(&["du", "--all-agents", "--database"]),
        s(&["du", "--all-agents", "--database", "--json"]),
        s(&["marker", "format", "--session-id", "abc"]),
        s(&["secrets", "scan"]),
        s(&["secrets", "scan", "--json", "--all-agents"]),
    ]
}

fn run_all_and_compare(store: &Store, key: &str) {
    let before = checksums(&store.state());
    for args in commands(key) {
        let out = store.cmd().args(&args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let after = checksums(&store.state());
    assert_eq!(before, after, "a read-only command changed the state dir");
}

#[test]
fn live_store_untouched() {
    run_all_and_compare(&Store::copy("live"), "agent:main:cron:nightly:run:884");
}

#[test]
fn imported_store_untouched() {
    run_all_and_compare(
        &Store::copy("imported"),
        "agent:main:acp:9911cc46-d649-47bb-9968-72da7c2daff9",
    );
}

#[test]
fn legacy_store_untouched() {
    run_all_and_compare(&Store::copy("legacy"), "agent:main:main");
}

/// With a writer holding a write transaction (WAL and SHM present), reads still work and
/// change neither the database nor its sidecars.
#[test]
fn untouched_while_a_writer_holds_a_transaction() {
    let store = Store::copy("live");
    let writer = store.writable("main");
    writer.pragma_update(None, "journal_mode", "WAL").unwrap();
    // A committed change, so the WAL has frames readers must see.
    writer
        .execute(
            "UPDATE schema_meta SET updated_at = updated_at + 1 WHERE meta_key = 'primary'",
            [],
        )
        .unwrap();
    writer
        .execute_batch("BEGIN IMMEDIATE; UPDATE session_key_contract SET updated_at = 7;")
        .unwrap();
    assert!(store.agent_db("main").with_extension("sqlite-wal").exists());
    run_all_and_compare(&store, "agent:main:cron:nightly:run:884");
    writer.execute_batch("ROLLBACK").unwrap();
}

/// A `-wal` holding committed frames but no `-shm` (a crash leftover): the frames are read
/// (through a private copy), and nothing is created beside the database.
#[test]
fn wal_frames_without_shm_are_read_and_nothing_is_created() {
    let store = Store::copy("live");
    let path = store.agent_db("main");
    let events_in_wal = {
        let db = rusqlite::Connection::open(&path).unwrap();
        db.pragma_update(None, "journal_mode", "WAL").unwrap();
        db.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        db.set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
            true,
        )
        .unwrap();
        db.execute("UPDATE session_nodes SET label = 'from-the-wal', entry_json = json_set(entry_json, '$.label', 'from-the-wal') WHERE session_key = 'agent:main:main'", []).unwrap();
        db.execute(
            "UPDATE session_nodes SET entry_valid = 1 WHERE session_key = 'agent:main:main'",
            [],
        )
        .unwrap();
        db.execute("DELETE FROM transcript_events WHERE rowid = (SELECT max(rowid) FROM transcript_events WHERE session_id = (SELECT current_session_id FROM session_nodes WHERE session_key = 'agent:main:main'))", []).unwrap();
        db.query_row("SELECT count(*) FROM transcript_events WHERE session_id = (SELECT current_session_id FROM session_nodes WHERE session_key = 'agent:main:main')", [], |r| r.get::<_, i64>(0)).unwrap()
    };
    let wal = store
        .dir
        .path()
        .join(".openclaw/agents/main/agent/openclaw-agent.sqlite-wal");
    let shm = store
        .dir
        .path()
        .join(".openclaw/agents/main/agent/openclaw-agent.sqlite-shm");
    let _ = std::fs::remove_file(&shm);
    assert!(
        std::fs::metadata(&wal).unwrap().len() > 0,
        "the WAL holds frames"
    );
    let before = checksums(&store.state());
    let out = store.run_ok(["show", "agent:main:main", "--json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["data"]["entry"]["label"], "from-the-wal");
    // A whole listing counts events on a second connection, to the same private copy.
    for limit in ["all", "1000"] {
        let out = store.run_ok(["list", "--agent", "main", "--json", "--limit", limit]);
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let row = doc["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["sessionKey"] == "agent:main:main")
            .unwrap();
        assert_eq!(
            row["transcript"]["events"], events_in_wal,
            "--limit {limit}"
        );
    }
    assert_eq!(before, checksums(&store.state()));
    assert!(!shm.exists());
}

/// A read-only mount (root can bind-mount one): every reader works and nothing is written.
#[test]
fn read_only_mount() {
    let store = Store::copy("live");
    // OpenClaw leaves an empty -wal beside its databases.
    std::fs::write(
        store
            .dir
            .path()
            .join(".openclaw/agents/main/agent/openclaw-agent.sqlite-wal"),
        b"",
    )
    .unwrap();
    let mnt = tempfile::tempdir().unwrap();
    let ok = std::process::Command::new("mount")
        .arg("--bind")
        .arg(store.dir.path())
        .arg(mnt.path())
        .status()
        .map(|s| s.success())
        .unwrap_or(false)
        && std::process::Command::new("mount")
            .args(["-o", "remount,bind,ro"])
            .arg(mnt.path())
            .status()
            .map(|s| s.success())
            .unwrap_or(false);
    if !ok {
        let _ = std::process::Command::new("umount")
            .arg(mnt.path())
            .status();
        crate::common::cannot_run_here("a read-only bind mount cannot be made");
        return;
    }
    let state = mnt.path().join(".openclaw");
    let mut failures = Vec::new();
    for args in [
        vec!["status"],
        vec!["list", "--all-agents"],
        vec!["show", "agent:main:main"],
        vec!["transcript", "cat", "agent:main:main"],
        vec!["du", "--all-agents"],
        vec!["du", "--all-agents", "--sessions"],
        vec!["du", "--all-agents", "--content"],
        vec!["du", "--all-agents", "--database"],
        vec!["doctor"],
    ] {
        let out = crate::common::bin()
            .arg("--state-dir")
            .arg(&state)
            .args(&args)
            .output()
            .unwrap();
        if !out.status.success() {
            failures.push(format!(
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    let _ = std::process::Command::new("umount")
        .arg(mnt.path())
        .status();
    assert!(failures.is_empty(), "{failures:#?}");
}
