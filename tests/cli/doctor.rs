//! A corpus of broken stores built from the real fixtures, one fault each: `doctor` names
//! each fault, `--fix` repairs the safe ones and leaves the rest for a human.

use serde_json::Value;

use crate::common::{json, Store};

type Fault = fn(&Store);

fn findings(store: &Store, extra: &[&str]) -> (i32, Vec<Value>, Value) {
    let out = store
        .cmd()
        .args(["doctor", "--json"])
        .args(extra)
        .output()
        .unwrap();
    let doc = json(&out);
    let f = doc["data"]["findings"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    (
        out.status.code().unwrap_or(-1),
        f.into_iter().filter(|f| f["severity"] != "info").collect(),
        doc,
    )
}

fn sid(store: &Store, key: &str) -> String {
    store
        .writable("main")
        .query_row(
            "SELECT current_session_id FROM session_nodes WHERE session_key = ?1",
            [key],
            |r| r.get(0),
        )
        .unwrap_or_else(|e| panic!("session id of {key}: {e}"))
}

const KEY: &str = "agent:main:cron:nightly:run:884";

fn faults() -> Vec<(&'static str, &'static str, &'static str, bool, Fault)> {
    vec![
        ("invalid entry_json", "entry-json", "error", false, |s| {
            s.writable("main")
                .execute(
                    "UPDATE session_nodes SET entry_json = '{\"oops\":' WHERE session_key = ?1",
                    [KEY],
                )
                .unwrap();
        }),
        (
            "projected column out of step",
            "projected-columns",
            "error",
            true,
            |s| {
                s.writable("main").execute("UPDATE session_nodes SET parent_session_key = 'agent:main:main', label = 'drift' WHERE session_key = ?1", [KEY]).unwrap();
            },
        ),
        (
            "label column out of step",
            "projected-columns",
            "warning",
            true,
            |s| {
                s.writable("main")
                    .execute(
                        "UPDATE session_nodes SET label = 'drift' WHERE session_key = ?1",
                        [KEY],
                    )
                    .unwrap();
            },
        ),
        ("window without its node", "orphans", "error", false, |s| {
            let db = s.writable("main");
            db.pragma_update(None, "foreign_keys", false).unwrap();
            db.execute("INSERT INTO session_windows (session_id, session_key, created_at, updated_at) VALUES ('ghost-window', 'agent:main:ghost', 0, 0)", []).unwrap();
        }),
        ("events without a window", "orphans", "error", false, |s| {
            let db = s.writable("main");
            db.pragma_update(None, "foreign_keys", false).unwrap();
            db.execute("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('no-window', 0, '{}', 0)", []).unwrap();
        }),
        ("identities without events", "orphans", "error", true, |s| {
            let db = s.writable("main");
            db.pragma_update(None, "foreign_keys", false).unwrap();
            db.execute("INSERT INTO transcript_event_identities (session_id, event_id, seq, created_at) VALUES (?1, 'dangling', 999, 0)", [sid(s, KEY)]).unwrap();
        }),
        ("missing header", "transcript-header", "error", false, |s| {
            s.writable("main")
                .execute(
                    "DELETE FROM transcript_events WHERE session_id = ?1 AND seq = 0",
                    [sid(s, KEY)],
                )
                .unwrap();
        }),
        ("seq gap", "seq-gaps", "error", false, |s| {
            s.writable("main")
                .execute(
                    "DELETE FROM transcript_events WHERE session_id = ?1 AND seq = 3",
                    [sid(s, KEY)],
                )
                .unwrap();
        }),
        (
            "zstd row with the wrong length",
            "zstd-rows",
            "error",
            false,
            |s| {
                s.writable("main").execute("UPDATE transcript_events SET event_utf8_bytes = event_utf8_bytes + 1 WHERE rowid = (SELECT rowid FROM transcript_events WHERE event_zstd IS NOT NULL LIMIT 1)", []).unwrap();
            },
        ),
        (
            "zstd row that does not decode",
            "zstd-rows",
            "error",
            false,
            |s| {
                s.writable("main").execute("UPDATE transcript_events SET event_zstd = CAST(zeroblob(40) AS BLOB) WHERE rowid = (SELECT rowid FROM transcript_events WHERE event_zstd IS NOT NULL LIMIT 1)", []).unwrap();
            },
        ),
        (
            "duplicate label",
            "duplicate-labels",
            "warning",
            false,
            |s| {
                s.cmd()
                    .args([
                        "patch",
                        "agent:main:main",
                        "--preserve-activity",
                        "--set",
                        "label=\"Dup\"",
                    ])
                    .output()
                    .unwrap();
                s.writable("main").execute("UPDATE session_nodes SET label = 'Dup', entry_json = json_set(entry_json, '$.label', 'Dup') WHERE session_key = ?1", [KEY]).unwrap();
                s.writable("main")
                    .execute(
                        "UPDATE session_nodes SET entry_valid = 1 WHERE session_key = ?1",
                        [KEY],
                    )
                    .unwrap();
            },
        ),
        ("torn page", "integrity", "error", false, |s| {
            let path = s.agent_db("main");
            let mut bytes = std::fs::read(&path).unwrap();
            for b in &mut bytes[4096 * 20..4096 * 20 + 2000] {
                *b = 0xA5;
            }
            std::fs::write(&path, bytes).unwrap();
        }),
        (
            "-wal without a database",
            "stray-sidecars",
            "warning",
            false,
            |s| {
                let dir = s.state().join("agents/ghost/agent");
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join("openclaw-agent.sqlite-wal"), b"x").unwrap();
            },
        ),
        ("stale lock", "stale-locks", "warning", true, |s| {
            let dir = s
                .state()
                .join(format!("tmp/openclaw-{}", unsafe { libc::getuid() }));
            std::fs::create_dir_all(&dir).unwrap();
            let lock = dir.join("gateway.state.lock");
            std::fs::write(&lock, "{\"pid\": 2147483000, \"createdAt\": \"2026-01-01T00:00:00.000Z\", \"configPath\": \"x\", \"startTime\": 1}\n").unwrap();
            // Older than the 30 s in which OpenClaw leaves any lock alone.
            let old = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
            std::fs::File::options()
                .write(true)
                .open(&lock)
                .unwrap()
                .set_modified(old)
                .unwrap();
        }),
        (
            "archive file without a row",
            "archive-files",
            "warning",
            false,
            |s| {
                s.writable("main")
                    .execute("DELETE FROM session_transcript_archives", [])
                    .unwrap();
            },
        ),
        (
            "archive row without its file",
            "archive-files",
            "warning",
            true,
            |s| {
                for e in std::fs::read_dir(s.state().join("agents/main/sessions"))
                    .unwrap()
                    .flatten()
                {
                    if e.file_name().to_string_lossy().contains(".deleted.") {
                        std::fs::remove_file(e.path()).unwrap();
                    }
                }
            },
        ),
        (
            "legacy store beside an imported one",
            "legacy-pending",
            "warning",
            false,
            |s| {
                std::fs::write(s.state().join("agents/main/sessions/sessions.json"), "{}").unwrap();
            },
        ),
        (
            "ACPX state not adopted",
            "acpx-pending",
            "warning",
            false,
            |s| {
                let dir = s.state().join("workspace/state/sessions");
                std::fs::create_dir_all(&dir).unwrap();
                std::fs::write(dir.join("rec-1.json"), "{}").unwrap();
            },
        ),
    ]
}

#[test]
fn the_clean_fixture_has_no_findings() {
    let store = Store::copy("live");
    let (code, f, _) = findings(&store, &[]);
    assert_eq!((code, f.len()), (0, 0), "{f:?}");
}

#[test]
fn each_fault_is_named_and_safe_ones_are_fixed() {
    for (name, check, severity, fixable, make) in faults() {
        let store = Store::copy("live");
        make(&store);
        let (code, found, _) = findings(&store, &[]);
        let hit = found
            .iter()
            .find(|f| f["check"] == check)
            .unwrap_or_else(|| panic!("{name}: no {check} finding in {found:#?}"));
        assert_eq!(hit["severity"], severity, "{name}: {hit}");
        assert_eq!(hit["fixable"], fixable, "{name}: {hit}");
        assert!(!hit["hint"].as_str().unwrap().is_empty());
        let has_error = found.iter().any(|f| f["severity"] == "error");
        assert_eq!(code, if has_error { 3 } else { 0 }, "{name}");
        if severity == "warning" && !has_error {
            let (strict, _, _) = findings(&store, &["--strict"]);
            assert_eq!(strict, 3, "{name}: --strict");
        }
        let (_, after, doc) = findings(&store, &["--fix", "--yes"]);
        let still = after
            .iter()
            .any(|f| f["check"] == check && f["message"] == hit["message"]);
        assert_eq!(still, !fixable, "{name}: after --fix {after:#?} / {doc}");
        if fixable && check != "stale-locks" {
            assert!(
                !doc["data"]["snapshots"]
                    .as_array()
                    .unwrap_or_else(|| panic!("{name}: {doc}"))
                    .is_empty(),
                "{name}: a snapshot comes first"
            );
        }
    }
}

#[test]
fn checks_can_be_selected_and_listed() {
    let store = Store::copy("live");
    let list = json(
        &store
            .cmd()
            .args(["doctor", "--list-checks", "--json"])
            .output()
            .unwrap(),
    );
    assert!(list["data"]["checks"].as_array().unwrap().len() >= 15);
    let bad = store
        .cmd()
        .args(["doctor", "no-such-check"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    (faults()[7].4)(&store);
    let (code, only, _) = findings(&store, &["duplicate-labels", "schema"]);
    assert_eq!(
        (code, only.len()),
        (0, 0),
        "a seq gap is not in the selected checks: {only:?}"
    );
    let (code, only, _) = findings(&store, &["seq-gaps"]);
    assert_eq!((code, only.len()), (3, 1), "{only:?}");
}
