//! Read-only commands never change a byte of the state dir (SPEC §3).

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
        s(&["marker", "format", "--session-id", "abc"]),
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
