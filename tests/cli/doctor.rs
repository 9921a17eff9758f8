//! A corpus of broken stores built from the real fixtures, one fault each: `doctor` names
//! each fault, `--fix` repairs the safe ones and leaves the rest for a human.

use serde_json::Value;

use crate::common::{assert_foreign_keys, assert_integrity, json, Store};

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
        ("invalid entry_json", "entry-json", "error", true, |s| {
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
        ("window without its node", "orphans", "error", true, |s| {
            let db = s.writable("main");
            db.pragma_update(None, "foreign_keys", false).unwrap();
            db.execute("INSERT INTO session_windows (session_id, session_key, created_at, updated_at) VALUES ('ghost-window', 'agent:main:ghost', 0, 0)", []).unwrap();
        }),
        ("events without a window", "orphans", "error", true, |s| {
            let db = s.writable("main");
            db.pragma_update(None, "foreign_keys", false).unwrap();
            db.execute("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('no-window', 0, '{}', 0)", []).unwrap();
        }),
        ("identities without events", "orphans", "error", true, |s| {
            let db = s.writable("main");
            db.pragma_update(None, "foreign_keys", false).unwrap();
            db.execute("INSERT INTO transcript_event_identities (session_id, event_id, seq, created_at) VALUES (?1, 'dangling', 999, 0)", [sid(s, KEY)]).unwrap();
        }),
        (
            "search rows without a window",
            "orphans",
            "error",
            true,
            |s| {
                let db = s.writable("main");
                db.execute("INSERT INTO session_transcript_fts (rowid, text, session_id, message_id) VALUES (990001, 'ghost text', 'gone-window', 'm1')", []).unwrap();
                db.execute("INSERT INTO session_transcript_fts_rows (id, session_id, message_id) VALUES (990001, 'gone-window', 'm1')", []).unwrap();
            },
        ),
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

/// The JSON fields each fault's finding carries, and the key and session id it names.
fn expected_subject(
    name: &str,
) -> (
    &'static [&'static str],
    Option<&'static str>,
    Option<&'static str>,
) {
    const ROW: &[&str] = &["agentId", "sessionKey", "sessionId", "table", "rowids"];
    const SEQ: &[&str] = &["agentId", "sessionKey", "sessionId", "table", "seqRanges"];
    match name {
        "invalid entry_json" => (ROW, Some(KEY), None),
        "projected column out of step" | "label column out of step" => (
            &[
                "agentId",
                "sessionKey",
                "sessionId",
                "table",
                "rowids",
                "columns",
            ],
            Some(KEY),
            None,
        ),
        "window without its node" => (ROW, Some("agent:main:ghost"), Some("ghost-window")),
        "events without a window" => (
            &["agentId", "sessionId", "table", "rowids", "seqRanges"],
            None,
            Some("no-window"),
        ),
        "identities without events" => (SEQ, Some(KEY), None),
        "search rows without a window" => (
            &["agentId", "sessionId", "table", "rowids"],
            None,
            Some("gone-window"),
        ),
        "missing header" | "seq gap" => (SEQ, Some(KEY), None),
        "zstd row with the wrong length" | "zstd row that does not decode" => (
            &["agentId", "sessionId", "table", "rowids", "seqRanges"],
            None,
            None,
        ),
        "duplicate label" => (&["agentId", "sessionKeys"], None, None),
        "torn page"
        | "-wal without a database"
        | "stale lock"
        | "legacy store beside an imported one"
        | "ACPX state not adopted"
        | "archive file without a row" => (&["path"], None, None),
        "archive row without its file" => (ROW, None, None),
        other => panic!("no expected subject for {other}"),
    }
}

#[test]
fn each_finding_names_its_session_and_rows() {
    for (name, check, _, _, make) in faults() {
        let store = Store::copy("live");
        let key_sid = sid(&store, KEY);
        make(&store);
        let (_, found, _) = findings(&store, &[]);
        let hit = found
            .iter()
            .find(|f| f["check"] == check)
            .unwrap_or_else(|| panic!("{name}: no {check} finding in {found:#?}"));
        let (fields, key, id) = expected_subject(name);
        for field in fields {
            assert!(!hit[*field].is_null(), "{name}: no {field} in {hit:#}");
        }
        if let Some(key) = key {
            assert_eq!(hit["sessionKey"], key, "{name}: {hit:#}");
            let want_id = id.map(String::from).unwrap_or_else(|| key_sid.clone());
            assert_eq!(hit["sessionId"], want_id.as_str(), "{name}: {hit:#}");
            let msg = hit["message"].as_str().unwrap();
            assert!(msg.contains(key) && msg.contains(&want_id), "{name}: {msg}");
        } else if let Some(id) = id {
            assert_eq!(hit["sessionId"], id, "{name}: {hit:#}");
        }
        if let Some(rowids) = hit["rowids"].as_array() {
            assert!(!rowids.is_empty(), "{name}: {hit:#}");
            let msg = hit["message"].as_str().unwrap();
            assert!(
                msg.contains(&rowids[0].to_string()),
                "{name}: rowid not in {msg}"
            );
        }
    }
    // The seq gap names exactly the missing seq.
    let store = Store::copy("live");
    (faults().into_iter().find(|f| f.0 == "seq gap").unwrap().4)(&store);
    let (_, found, _) = findings(&store, &["seq-gaps"]);
    assert_eq!(
        found[0]["seqRanges"],
        serde_json::json!([[3, 3]]),
        "{found:#?}"
    );
}

#[test]
fn agent_scopes_doctor_and_its_repairs() {
    let store = Store::copy("live");
    let agents: Vec<String> = std::fs::read_dir(store.state().join("agents"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("agent/openclaw-agent.sqlite").is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let other = agents
        .iter()
        .find(|a| *a != "main")
        .expect("the live fixture has a second agent")
        .clone();
    // The same derived orphan in both agents.
    for agent in ["main", other.as_str()] {
        let db = store.writable(agent);
        db.pragma_update(None, "foreign_keys", false).unwrap();
        db.execute("INSERT INTO transcript_event_identities (session_id, event_id, seq, created_at) VALUES ((SELECT current_session_id FROM session_nodes LIMIT 1), 'dangling', 999, 0)", []).unwrap();
    }
    let out = store
        .cmd()
        .args(["--agent", &other, "doctor", "--json"])
        .output()
        .unwrap();
    let doc = json(&out);
    let seen: Vec<&str> = doc["data"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["agentId"].as_str())
        .collect();
    assert!(
        !seen.is_empty() && seen.iter().all(|a| *a == other),
        "{doc}"
    );
    let before = std::fs::read(store.agent_db("main")).unwrap();
    let fix = store
        .cmd()
        .args(["--agent", &other, "doctor", "--fix", "--yes", "--json"])
        .output()
        .unwrap();
    let fixed = json(&fix);
    assert_eq!(fix.status.code(), Some(0), "{fixed}");
    assert_eq!(
        std::fs::read(store.agent_db("main")).unwrap(),
        before,
        "--agent {other} doctor --fix changed agent main"
    );
    let (_, main_left, _) = findings(&store, &["orphans"]);
    assert!(
        main_left.iter().any(|f| f["agentId"] == "main"),
        "{main_left:#?}"
    );
    assert!(!main_left.iter().any(|f| f["agentId"] == other.as_str()));
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
        if fixable && check != "integrity" {
            assert_sound(&store);
        }
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
    store.run_code(["doctor", "no-such-check"], 2);
    (faults().into_iter().find(|f| f.0 == "seq gap").unwrap().4)(&store);
    let (code, only, _) = findings(&store, &["duplicate-labels", "schema"]);
    assert_eq!(
        (code, only.len()),
        (0, 0),
        "a seq gap is not in the selected checks: {only:?}"
    );
    let (code, only, _) = findings(&store, &["seq-gaps"]);
    assert_eq!((code, only.len()), (3, 1), "{only:?}");
}

/// The events of a transcript, decoded, in seq order (zstd rows included), as the binary
/// prints them.
fn transcript_lines(store: &Store, id: &str) -> Vec<String> {
    let out = store.run_ok(["transcript", "cat", id]);
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

/// The JSON Lines of a published archive file.
fn archive_lines(store: &Store, name: &str) -> Vec<String> {
    let bytes = std::fs::read(store.state().join("agents/main/sessions").join(name)).unwrap();
    String::from_utf8(zstd::decode_all(&bytes[..]).unwrap())
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

fn archived_by_fix(doc: &Value, id: &str) -> String {
    let line = doc["data"]["fixed"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .find(|l| l.contains(id) && l.contains("archived as"))
        .unwrap_or_else(|| panic!("no archive of {id} in {doc}"));
    line.split("archived as ")
        .nth(1)
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .to_string()
}

fn assert_sound(store: &Store) {
    let db = store.writable("main");
    assert_integrity(&db, "");
    assert_foreign_keys(&db, "");
}

/// Orphaned windows and events hold user content: `--fix` writes them to an archive in
/// OpenClaw's format (row + published `.deleted` file) before removing them, and every event
/// reads back from it.
#[test]
fn orphaned_transcripts_are_archived_before_removal() {
    // A window (with its events) whose node is gone.
    let store = Store::copy("live");
    let id = sid(&store, KEY);
    let before = transcript_lines(&store, KEY);
    assert!(before.len() > 2);
    {
        let db = store.writable("main");
        db.pragma_update(None, "foreign_keys", false).unwrap();
        db.execute("DELETE FROM session_nodes WHERE session_key = ?1", [KEY])
            .unwrap();
    }
    let (_, found, _) = findings(&store, &["orphans"]);
    let hit = found
        .iter()
        .find(|f| f["table"] == "session_windows")
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert_eq!(
        (hit["sessionId"].as_str(), hit["sessionKey"].as_str()),
        (Some(id.as_str()), Some(KEY))
    );
    assert_eq!(hit["fixable"], true);
    let (code, after, doc) = findings(&store, &["--fix", "--yes"]);
    assert!(!after.iter().any(|f| f["check"] == "orphans"), "{after:#?}");
    assert_eq!(code, 0, "{doc}");
    let name = archived_by_fix(&doc, &id);
    assert_eq!(
        archive_lines(&store, &name),
        before,
        "every event is in the archive"
    );
    assert_sound(&store);
    let row: (String, String) = store
        .writable("main")
        .query_row(
            "SELECT session_key, reason FROM session_transcript_archives WHERE archive_name = ?1",
            [&name],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(row, (KEY.to_string(), "deleted".to_string()));

    // Events whose window is gone (the node stays, pointing at the missing window).
    let store = Store::copy("live");
    let before = transcript_lines(&store, KEY);
    {
        let db = store.writable("main");
        db.pragma_update(None, "foreign_keys", false).unwrap();
        db.execute("DELETE FROM session_windows WHERE session_id = ?1", [&id])
            .unwrap();
    }
    let (_, found, _) = findings(&store, &["orphans"]);
    let hit = found
        .iter()
        .find(|f| f["table"] == "transcript_events")
        .unwrap_or_else(|| panic!("{found:#?}"));
    assert_eq!(
        hit["sessionKey"], KEY,
        "the key of the node whose current id it is"
    );
    assert_eq!(hit["seqRanges"][0][0], 0);
    let (_, _, doc) = findings(&store, &["--fix", "--yes"]);
    let name = archived_by_fix(&doc, &id);
    assert_eq!(archive_lines(&store, &name), before);
    assert_sound(&store);
}

/// The integrity check's foreign key findings name their session (agent, id, key), table,
/// rowids and seq ranges, as fields and in the human line, one finding per session.
#[test]
fn foreign_key_findings_name_their_session() {
    let store = Store::copy("live");
    let id = sid(&store, KEY);
    let events: i64 = store
        .writable("main")
        .query_row(
            "SELECT count(*) FROM transcript_events WHERE session_id = ?1",
            [&id],
            |r| r.get(0),
        )
        .unwrap();
    assert!(events > 2);
    {
        let db = store.writable("main");
        db.pragma_update(None, "foreign_keys", false).unwrap();
        // A window whose node is gone, and the events of a session whose window is gone.
        db.execute("INSERT INTO session_windows (session_id, session_key, created_at, updated_at) VALUES ('ghost-window', 'agent:main:ghost', 0, 0)", []).unwrap();
        db.execute("DELETE FROM session_windows WHERE session_id = ?1", [&id])
            .unwrap();
    }
    let (_, found, _) = findings(&store, &["integrity"]);
    let fk = |table: &str| -> Vec<Value> {
        found
            .iter()
            .filter(|f| f["check"] == "integrity" && f["table"] == table)
            .cloned()
            .collect()
    };
    let windows = fk("session_windows");
    assert_eq!(windows.len(), 1, "{found:#?}");
    let w = &windows[0];
    assert_eq!(w["agentId"], "main");
    assert_eq!(w["sessionId"], "ghost-window", "{w:#}");
    assert_eq!(w["sessionKey"], "agent:main:ghost", "{w:#}");
    assert_eq!(w["rowids"].as_array().map(Vec::len), Some(1), "{w:#}");
    let ev = fk("transcript_events");
    assert_eq!(ev.len(), 1, "one finding for the session: {found:#?}");
    let e = &ev[0];
    assert_eq!(e["sessionId"], id.as_str(), "{e:#}");
    assert_eq!(
        e["sessionKey"], KEY,
        "the key of the node whose current id it is"
    );
    assert_eq!(
        e["rowids"].as_array().map(Vec::len),
        Some(events as usize),
        "{e:#}"
    );
    assert_eq!(
        e["seqRanges"],
        serde_json::json!([[0, events - 1]]),
        "{e:#}"
    );

    // The human lines say the same.
    let out = store.cmd().args(["doctor", "integrity"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let line = |needle: &str| {
        text.lines()
            .find(|l| l.contains(&format!("foreign key violation(s): {needle} ")))
            .unwrap_or_else(|| panic!("no foreign key line with {needle}:\n{text}"))
            .to_string()
    };
    let w = line("session_windows");
    assert!(
        w.contains("ghost-window") && w.contains("agent:main:ghost"),
        "{w}"
    );
    let e = line("transcript_events");
    assert!(e.contains(&id) && e.contains(KEY), "{e}");
    assert!(e.contains(&format!("seq 0-{}", events - 1)), "{e}");
}

/// The findings of a `doctor --json` document as `(check, message)`, sorted.
fn messages(list: &Value) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = list
        .as_array()
        .unwrap_or_else(|| panic!("not a list: {list}"))
        .iter()
        .map(|f| (f["check"].to_string(), f["message"].to_string()))
        .collect();
    v.sort();
    v
}

fn break_for_dry_run(s: &Store) {
    let db = s.writable("main");
    db.pragma_update(None, "foreign_keys", false).unwrap();
    db.execute("INSERT INTO session_windows (session_id, session_key, created_at, updated_at) VALUES ('ghost-window', 'agent:main:ghost', 0, 0)", []).unwrap();
    db.execute("INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES ('no-window', 0, '{}', 0)", []).unwrap();
    db.execute(
        "UPDATE session_nodes SET entry_json = '{\"oops\":' WHERE session_key = ?1",
        [KEY],
    )
    .unwrap();
    // One finding no repair touches: left for a human by both runs.
    db.execute("UPDATE transcript_events SET event_zstd = CAST(zeroblob(40) AS BLOB) WHERE rowid = (SELECT rowid FROM transcript_events WHERE event_zstd IS NOT NULL LIMIT 1)", []).unwrap();
}

#[test]
fn the_dry_run_shows_the_repairs_and_leftovers_of_the_real_run() {
    let dry = Store::copy("live");
    let real = Store::copy("live");
    break_for_dry_run(&dry);
    break_for_dry_run(&real);
    let (dry_code, _, planned) = findings(&dry, &["--fix", "--dry-run"]);
    let (real_code, _, done) = findings(&real, &["--fix", "--yes"]);
    let (planned, done) = (&planned["data"], &done["data"]);
    // The same repairs: the entry rebuilt, both orphans archived.
    let repairs = messages(&planned["repairs"]);
    assert_eq!(repairs.len(), 3, "{planned:#}");
    assert_eq!(repairs, messages(&done["repairs"]));
    assert_eq!(done["fixed"].as_array().unwrap().len(), 4, "{done:#}");
    // The same leftovers: the damaged zstd row, not what goes with the orphans' rows.
    let left = messages(&planned["findings"]);
    assert_eq!(left, messages(&done["findings"]), "{planned:#}\n{done:#}");
    assert!(left.iter().any(|(c, _)| c == "\"zstd-rows\""), "{left:?}");
    assert_eq!(dry_code, real_code);
    // In words: each repair once, under "left for a human" only the leftovers.
    let out = dry
        .cmd()
        .args(["doctor", "--fix", "--dry-run"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let (plan, human) = text
        .split_once("left for a human:")
        .unwrap_or_else(|| panic!("{text}"));
    for (_, message) in &repairs {
        let message = message.trim_matches('"');
        assert!(plan.contains(message), "{text}");
        assert!(!human.contains(message), "{text}");
    }
    for check in ["orphans", "integrity", "transcript-header", "entry-json"] {
        assert!(!human.contains(&format!(" {check} ")), "{check}: {text}");
    }
    assert!(human.contains(" zstd-rows "), "{text}");
}

/// On a store an older release wrote at a schema this tool writes (19, 21), the schema finding
/// says so and names no upgrade to run: one would cut that release off its store. At a schema
/// with no writer (16 here) it still names the upgrade.
#[test]
fn an_older_release_store_is_not_sent_to_an_upgrade() {
    for (release, version, written) in [
        ("2026.8.2", 19, true),
        ("2026.9.5", 21, true),
        ("2026.8.2", 16, false),
    ] {
        let store = Store::copy_release(release, "live");
        if version == 16 {
            store
                .writable("main")
                .execute_batch("PRAGMA user_version = 16")
                .unwrap();
        }
        let (_, _, doc) = findings(&store, &["--agent", "main"]);
        let schema: Vec<&Value> = doc["data"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["check"] == "schema")
            .collect();
        assert_eq!(schema.len(), 1, "{release} at {version}: {doc}");
        let (message, hint) = (
            schema[0]["message"].as_str().unwrap(),
            schema[0]["hint"].as_str().unwrap(),
        );
        assert!(
            message.contains(&format!("agent schema {version}")),
            "{message}"
        );
        assert_eq!(
            message.contains("read and changed at this schema"),
            written,
            "{message}"
        );
        assert_eq!(hint.contains("migrate schema"), !written, "{hint}");
        let text = String::from_utf8_lossy(
            &store
                .cmd()
                .args(["doctor", "--agent", "main"])
                .output()
                .unwrap()
                .stdout,
        )
        .into_owned();
        assert_eq!(text.contains("migrate schema"), !written, "{text}");
    }
}

/// doctor at 80 columns: each finding a block, its severity and check first (never dropped),
/// the finding and its hint wrapped (never cut), so an error never reads like an info line;
/// a healthy store prints exactly "no problems found" (a reset archive is normal, not a
/// finding, and does not come back after `--fix`); the seq-gap hint names commands that work
/// on that session as written (delete, then restore from a snapshot from before the gap).
#[test]
fn findings_read_at_80_columns_and_a_healthy_store_reports_nothing() {
    let store = Store::copy("live");
    let healthy = store.run_ok(["--all-agents", "doctor"]);
    assert_eq!(
        String::from_utf8_lossy(&healthy.stdout),
        "no problems found\n"
    );
    let doc = store.json_ok(["--all-agents", "doctor", "--json"]);
    assert_eq!(doc["data"]["findings"], serde_json::json!([]), "{doc}");
    // A snapshot from before the damage, then a seq gap and a broken entry.
    store.run_ok(["backup", "create"]);
    let gap = faults().into_iter().find(|f| f.0 == "seq gap").unwrap().4;
    gap(&store);
    store
        .writable("main")
        .execute(
            "UPDATE session_nodes SET entry_json = '{\"oops\":' WHERE session_key = 'agent:main:main'",
            [],
        )
        .unwrap();
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(
        &crate::common::regex_escape(&store.dir.path().to_string_lossy()),
        "[TMP]",
    );
    settings.add_filter(
        r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
        "[UUID]",
    );
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    for width in [80usize, 120] {
        let out = store
            .cmd()
            .env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", width.to_string())
            .arg("doctor")
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(3));
        let text = String::from_utf8(out.stdout).unwrap();
        for line in text.lines() {
            assert!(line.chars().count() <= width, "{width}: {line}");
        }
        assert!(text.contains("error   seq-gaps  agent main"), "{text}");
        assert!(text.contains("error   entry-json  agent main"), "{text}");
        assert!(!text.contains('…'), "{text}");
        settings.bind(|| insta::assert_snapshot!(format!("doctor_findings_{width}"), text));
    }
    // The hint as written, SNAPSHOT the one from before the damage: one command replaces the
    // damaged session; doctor is clean again.
    let doc = json(&store.run_code(["doctor", "seq-gaps", "--json"], 3));
    let hint = doc["data"]["findings"][0]["hint"]
        .as_str()
        .unwrap()
        .to_string();
    let command = format!("backup restore SNAPSHOT --session {KEY} --replace --yes");
    assert!(hint.contains(&command), "{hint}");
    let words: Vec<String> = command
        .replace("SNAPSHOT", "latest")
        .split(' ')
        .map(String::from)
        .collect();
    store.cmd().args(&words).assert().success();
    let after = json(&store.run_code(["doctor", "seq-gaps", "--json"], 0));
    assert_eq!(after["data"]["findings"], serde_json::json!([]), "{after}");
}

/// Typos are said with the nearest name: `doctor integrty` (was: no suggestion) and
/// `patch --unset lable` (was: "unchanged", exit 0), as `--set lable=` already was.
#[test]
fn a_mistyped_check_or_unset_field_gets_a_suggestion() {
    let store = Store::copy("live");
    let doc = json(
        &store
            .cmd()
            .args(["doctor", "integrty", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(doc["error"]["code"], "USAGE", "{doc}");
    assert!(
        doc["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("did you mean integrity?"),
        "{doc}"
    );
    let before = store.entry("main", KEY).unwrap();
    let out = store
        .cmd()
        .args(["patch", KEY, "--unset", "lable", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let doc = json(&out);
    assert!(
        doc["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("did you mean label?"),
        "{doc}"
    );
    assert_eq!(store.entry("main", KEY).unwrap(), before);
    // A known field the entry does not hold is still nothing to do.
    store.run_ok(["patch", KEY, "--unset", "pinnedAt"]);
}
