//! `migrate acpx`: every rule of the move (src/migrate/acpx.rs) on layouts the tests build.

use crate::common::{json, Store};

pub fn plant_old_state(store: &Store) -> std::path::PathBuf {
    // The fixture config puts the main agent's workspace at ~/.openclaw/workspace-main.
    let old = store.state().join("workspace-main/state");
    std::fs::create_dir_all(old.join("sessions")).unwrap();
    std::fs::write(old.join("sessions/rec-1.json"), "{\"id\":1}").unwrap();
    std::fs::write(old.join("sessions/rec-2.json"), "{\"id\":2}").unwrap();
    std::fs::create_dir_all(old.join("cache")).unwrap();
    std::fs::write(old.join("cache/blob.bin"), vec![7u8; 3000]).unwrap();
    old
}

pub fn marker(store: &Store) -> Option<serde_json::Value> {
    let db = rusqlite::Connection::open(store.state().join("state/openclaw.sqlite")).unwrap();
    db.query_row(
        "SELECT value_json FROM plugin_state_entries WHERE plugin_id = 'acpx' AND namespace = 'state-directory-migration' AND entry_key = 'workspace-state-v1'",
        [],
        |r| r.get::<_, String>(0),
    )
    .ok()
    .map(|v| serde_json::from_str(&v).unwrap())
}

#[test]
fn moves_into_an_empty_destination_and_keeps_the_old_copy() {
    let store = Store::copy("live");
    let old = plant_old_state(&store);
    let status = json(&store.cmd().args(["status", "--json"]).output().unwrap());
    assert_eq!(
        status["data"]["acpx"]["pendingSources"][0],
        old.to_str().unwrap()
    );
    let dry = store
        .cmd()
        .args(["migrate", "acpx", "--dry-run"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&dry.stdout).contains("2 records"));
    assert!(!store.state().join("acpx").exists());
    let out = store.run_ok(["migrate", "acpx", "--yes"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("old copy"));
    let dest = store.state().join("acpx");
    assert_eq!(
        std::fs::read(dest.join("sessions/rec-2.json")).unwrap(),
        b"{\"id\":2}"
    );
    assert_eq!(
        std::fs::read(dest.join("cache/blob.bin")).unwrap().len(),
        3000
    );
    assert!(
        old.join("sessions/rec-1.json").exists(),
        "the old copy is never deleted"
    );
    assert_eq!(marker(&store).unwrap()["completed"], true);
    // Done: nothing pending any more, and a second run has nothing to do (a success).
    let again = store.run_code(["migrate", "acpx", "--yes", "--json"], 0);
    let doc = json(&again);
    assert_eq!(doc["data"]["applied"], false);
    assert!(doc["data"]["plan"]["nothingToDo"]
        .as_str()
        .unwrap()
        .contains("already moved"));
}

#[test]
fn refusals() {
    // An explicit stateDir is never relocated.
    let store = Store::copy("live");
    plant_old_state(&store);
    let cfg = store.state().join("openclaw.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
    v["plugins"] = serde_json::json!({"entries": {"acpx": {"config": {"stateDir": "/srv/acpx"}}}});
    std::fs::write(&cfg, v.to_string()).unwrap();
    store.run_code(["migrate", "acpx", "--yes"], 5);
    assert!(marker(&store).is_none());
    // No records: nothing to adopt, which is a success that writes nothing.
    let store = Store::copy("live");
    std::fs::create_dir_all(store.state().join("workspace-main/state/sessions")).unwrap();
    assert_eq!(
        store
            .cmd()
            .args(["migrate", "acpx", "--yes"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(0)
    );
    assert!(marker(&store).is_none());
    assert!(!store.state().join("acpx").exists());
    // An occupied destination.
    let store = Store::copy("live");
    plant_old_state(&store);
    std::fs::create_dir_all(store.state().join("acpx")).unwrap();
    std::fs::write(store.state().join("acpx/keep.txt"), "mine").unwrap();
    assert_eq!(
        store
            .cmd()
            .args(["migrate", "acpx", "--yes"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(5)
    );
    assert_eq!(
        std::fs::read_to_string(store.state().join("acpx/keep.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn a_failure_before_publication_keeps_the_old_location() {
    let store = Store::copy("live");
    let old = plant_old_state(&store);
    let out = store
        .cmd()
        .args(["migrate", "acpx", "--yes"])
        .env("OPENCLAW_SESSIONS_CRASH_AT", "acpx-before-publish")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(!store.state().join("acpx").exists(), "nothing published");
    assert!(old.join("sessions/rec-1.json").exists());
    assert_eq!(
        marker(&store).unwrap()["completed"],
        false,
        "the marker says the move did not finish"
    );
    // The next run completes (the crash left a stale lock and a staging dir behind).
    store.run_ok(["migrate", "acpx", "--yes"]);
    assert_eq!(marker(&store).unwrap()["completed"], true);
}

#[test]
fn a_crash_after_publication_is_finished_by_the_next_run() {
    let store = Store::copy("live");
    let old = plant_old_state(&store);
    let out = store
        .cmd()
        .args(["migrate", "acpx", "--yes"])
        .env("OPENCLAW_SESSIONS_CRASH_AT", "acpx-before-marker")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let dest = store.state().join("acpx");
    assert!(dest.join("sessions/rec-1.json").exists(), "published");
    assert_eq!(marker(&store).unwrap()["completed"], false);
    // The destination is a whole copy of the source: the next run only writes the marker.
    let dry = store
        .cmd()
        .args(["migrate", "acpx", "--dry-run"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&dry.stdout).contains("Finish the interrupted move"),
        "{}",
        String::from_utf8_lossy(&dry.stdout)
    );
    store.run_ok(["migrate", "acpx", "--yes"]);
    assert_eq!(marker(&store).unwrap()["completed"], true);
    assert!(
        old.join("sessions/rec-1.json").exists(),
        "the old copy stays"
    );
    // A destination that differs from the source is still never taken over.
    let store = Store::copy("live");
    plant_old_state(&store);
    store
        .cmd()
        .args(["migrate", "acpx", "--yes"])
        .env("OPENCLAW_SESSIONS_CRASH_AT", "acpx-before-marker")
        .output()
        .unwrap();
    std::fs::write(store.state().join("acpx/sessions/rec-1.json"), "{\"id\":9}").unwrap();
    let refused = store.run_code(["migrate", "acpx", "--yes", "--json"], 5);
    assert_eq!(json(&refused)["error"]["code"], "TARGET_EXISTS");
}
