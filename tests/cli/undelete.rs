//! `undelete`: a deleted session back from its archive, on copies of the real fixture store.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::common::{assert_foreign_keys, assert_integrity, expect_exit, json, std_bin, Store};

/// A session with zstd rows, branches and search rows in the fixture's `main` agent.
pub(crate) const KEY: &str = "agent:main:pinned-notes";

/// Columns whose values come from the clock or a random source when OpenClaw writes a
/// session: they are not compared.
const EXEMPT: &[(&str, &str)] = &[
    ("transcript_events", "created_at"),
    ("transcript_event_identities", "created_at"),
    ("session_transcript_index_state", "updated_at"),
    ("transcript_rewrite_watermarks", "generation"),
    ("transcript_rewrite_watermarks", "updated_at"),
    ("session_transcript_fts_rows", "id"),
];

fn value(v: rusqlite::types::ValueRef<'_>) -> Value {
    use rusqlite::types::ValueRef::*;
    match v {
        Null => Value::Null,
        Integer(i) => Value::from(i),
        Real(f) => Value::from(f),
        Text(t) => Value::from(String::from_utf8_lossy(t).into_owned()),
        Blob(b) => Value::from(format!(
            "blob:{}",
            b.iter().map(|x| format!("{x:02x}")).collect::<String>()
        )),
    }
}

/// Every row of every table that holds a session, clock and random columns left out.
pub(crate) fn session_rows(store: &Store, key: &str, sid: &str) -> BTreeMap<String, Vec<String>> {
    let conn = store.writable("main");
    let mut out = BTreeMap::new();
    let queries = [
        ("session_nodes", "SELECT * FROM session_nodes WHERE session_key = ?1", key),
        ("session_windows", "SELECT * FROM session_windows WHERE session_id = ?1", sid),
        ("transcript_events", "SELECT * FROM transcript_events WHERE session_id = ?1", sid),
        ("transcript_event_identities", "SELECT * FROM transcript_event_identities WHERE session_id = ?1", sid),
        ("session_transcript_index_state", "SELECT * FROM session_transcript_index_state WHERE session_id = ?1", sid),
        ("session_transcript_active_events", "SELECT * FROM session_transcript_active_events WHERE session_id = ?1", sid),
        ("session_transcript_fts_rows", "SELECT * FROM session_transcript_fts_rows WHERE session_id = ?1", sid),
        ("session_transcript_fts", "SELECT text, session_id, message_id, role, timestamp FROM session_transcript_fts WHERE session_id = ?1", sid),
        ("transcript_rewrite_watermarks", "SELECT * FROM transcript_rewrite_watermarks WHERE session_id = ?1", sid),
        ("session_conversations", "SELECT * FROM session_conversations WHERE session_id = ?1", sid),
        ("session_canonical_validation_pending", "SELECT * FROM session_canonical_validation_pending WHERE session_key = ?1", key),
    ];
    for (table, sql, arg) in queries {
        // Tables an older schema has not (19 and 21: no FTS row map; 19: no validation queue).
        let exists: bool = conn
            .query_row(
                "SELECT count(*) > 0 FROM sqlite_master WHERE name = ?1",
                [table],
                |r| r.get(0),
            )
            .unwrap();
        if !exists {
            continue;
        }
        let mut stmt = conn.prepare(sql).unwrap();
        let names: Vec<String> = stmt.column_names().iter().map(|s| s.to_string()).collect();
        let mut rows = stmt.query([arg]).unwrap();
        let mut list = Vec::new();
        while let Some(r) = rows.next().unwrap() {
            let mut m = Map::new();
            for (i, n) in names.iter().enumerate() {
                if !EXEMPT.contains(&(table, n.as_str())) {
                    m.insert(n.clone(), value(r.get_ref(i).unwrap()));
                }
            }
            list.push(Value::Object(m).to_string());
        }
        list.sort();
        out.insert(table.to_string(), list);
    }
    out
}

pub(crate) fn session_id(store: &Store, key: &str) -> String {
    store
        .writable("main")
        .query_row(
            "SELECT current_session_id FROM session_nodes WHERE session_key = ?1",
            [key],
            |r| r.get(0),
        )
        .unwrap()
}

/// A copy of the live store with a snapshot of `main` in the default repository, then
/// `KEY` deleted by our `delete` (OpenClaw's deleteSessionEntry with archiving).
pub(crate) fn deleted() -> (Store, String, BTreeMap<String, Vec<String>>) {
    deleted_in(Store::copy("live"))
}

/// As [`deleted`], in `store` (an older release's too: the key is in each live fixture).
pub(crate) fn deleted_in(store: Store) -> (Store, String, BTreeMap<String, Vec<String>>) {
    let sid = session_id(&store, KEY);
    let before = session_rows(&store, KEY, &sid);
    assert!(!before["transcript_events"].is_empty());
    let repo = store.state().join("openclaw-sessions-snapshots");
    store
        .cmd()
        .args(["backup", "create", "--repository"])
        .arg(&repo)
        .output()
        .unwrap();
    store.run_ok(["delete", KEY, "--yes"]);
    assert!(session_rows(&store, KEY, &sid)["session_nodes"].is_empty());
    (store, sid, before)
}

fn archive_state(store: &Store, sid: &str) -> Vec<String> {
    let conn = store.writable("main");
    let mut stmt = conn
        .prepare("SELECT archive_name, archive_sha256, hex(archive_blob) FROM session_transcript_archives WHERE session_id = ?1")
        .unwrap();
    let mut out: Vec<String> = stmt
        .query_map([sid], |r| {
            Ok(format!(
                "{}|{}|{}",
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for e in std::fs::read_dir(store.state().join("agents/main/sessions")).unwrap() {
        let p = e.unwrap().path();
        if p.file_name().unwrap().to_string_lossy().starts_with(sid) {
            out.push(format!(
                "{}:{}",
                p.display(),
                std::fs::read(&p).unwrap().len()
            ));
        }
    }
    out
}

#[test]
fn undelete_brings_back_every_row_the_session_had() {
    let (store, sid, before) = deleted();
    let archive_before = archive_state(&store, &sid);
    let dry = store
        .cmd()
        .args(["undelete", &sid, "--dry-run", "--json"])
        .output()
        .unwrap();
    expect_exit(&dry, 0);
    let dry = json(&dry);
    assert_eq!(dry["data"]["applied"], false);
    assert_eq!(dry["data"]["entrySource"]["kind"], "snapshot");
    // The snapshot holds the very entry the deletion kept: the rows come back as they were.
    assert_eq!(dry["data"]["entrySource"]["atDeletion"], true, "{dry}");
    assert!(
        session_rows(&store, KEY, &sid)["session_nodes"].is_empty(),
        "a dry run writes nothing"
    );
    let out = store
        .cmd()
        .args(["undelete", &sid, "--yes", "--json"])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    let report = json(&out);
    assert_eq!(report["data"]["sessionKey"], KEY);
    assert_eq!(report["data"]["applied"], true);
    let after = session_rows(&store, KEY, &sid);
    for (table, rows) in &before {
        assert_eq!(rows, &after[table], "{table}");
    }
    assert_eq!(
        archive_state(&store, &sid),
        archive_before,
        "the archive is kept"
    );
    // The store is sound, and the session reads back and deletes again.
    let doctor = store.cmd().args(["doctor", "--json"]).output().unwrap();
    assert!(
        doctor.status.success(),
        "{}",
        String::from_utf8_lossy(&doctor.stdout)
    );
    store.run_ok(["transcript", "cat", KEY]);
    store.run_ok(["delete", KEY, "--yes"]);
}

/// `undelete KEY` takes the key `archives list` shows (whole, or bare), as it takes a session
/// id: the newest archive of that session.
#[test]
fn undelete_takes_the_key_archives_list_shows() {
    let (store, sid, _) = deleted();
    let listed = store.json_ok(["archives", "list", "--json"]);
    let row = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["sessionId"] == sid.as_str() && a["reason"] == "deleted")
        .unwrap_or_else(|| panic!("{listed}"))
        .clone();
    assert_eq!(row["sessionKey"], KEY, "{row}");
    for words in [KEY, "pinned-notes", "AGENT:MAIN:PINNED-NOTES"] {
        let dry = store.json_ok(["undelete", words, "--dry-run", "--json"]);
        assert_eq!(dry["data"]["sessionId"], sid.as_str(), "{words}: {dry}");
        assert_eq!(dry["data"]["archive"], row["name"], "{words}: {dry}");
        // archives cat takes it too.
        store.run_ok(["archives", "cat", words]);
    }
    let out = store.json_ok(["undelete", KEY, "--yes", "--json"]);
    assert_eq!(out["data"]["sessionKey"], KEY);
    assert_eq!(out["data"]["applied"], true);
    store.run_ok(["transcript", "cat", KEY]);
    // A key that no archive has is not found.
    store.run_code(["undelete", "agent:main:never-was", "--yes"], 4);
}

#[test]
fn undelete_refuses_a_taken_key_unless_as_names_a_free_one() {
    let (store, sid, before) = deleted();
    // Another session now has the key.
    store.run_ok(["patch", "agent:main:scratch-1", "--set", "label=\"x\""]);
    let conn = store.writable("main");
    conn.execute(
        "INSERT INTO session_nodes (session_key, current_session_id, entry_json, entry_valid, updated_at) \
         SELECT ?1, current_session_id, entry_json, 1, updated_at FROM session_nodes WHERE session_key = 'agent:main:scratch-1'",
        [KEY],
    )
    .unwrap();
    conn.execute(
        "DELETE FROM session_nodes WHERE session_key = 'agent:main:scratch-1'",
        [],
    )
    .unwrap();
    drop(conn);
    let out = store
        .cmd()
        .args(["undelete", &sid, "--yes", "--json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(5),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(json(&out)["error"]["code"], "CONFLICT");
    store.run_code(
        [
            "undelete",
            &sid,
            "--yes",
            "--as",
            "agent:main:cron:nightly:run:884",
        ],
        5,
    );
    store.run_ok(["undelete", &sid, "--yes", "--as", "notes-restored"]);
    let back = session_rows(&store, "agent:main:notes-restored", &sid);
    assert_eq!(back["transcript_events"], before["transcript_events"]);
    assert_eq!(back["session_nodes"].len(), 1);
}

#[test]
fn undelete_refuses_an_archive_that_does_not_verify() {
    let (store, sid, _) = deleted();
    let conn = store.writable("main");
    conn.execute(
        "UPDATE session_transcript_archives SET archive_sha256 = ?2 WHERE session_id = ?1",
        [sid.as_str(), &"0".repeat(64)],
    )
    .unwrap();
    drop(conn);
    let out = store
        .cmd()
        .args(["undelete", &sid, "--yes", "--json"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(6),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(session_rows(&store, KEY, &sid)["session_nodes"].is_empty());
}

/// Remove the entries `delete` kept (as a deletion by OpenClaw itself, or by an older
/// release of this tool, leaves none).
fn forget_kept_entries(store: &Store) {
    let dir = store.state().join("openclaw-sessions-deleted");
    assert!(dir.is_dir(), "delete keeps the deleted entry");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn undelete_without_a_snapshot_takes_the_import_index_else_a_minimal_entry() {
    let store = Store::copy("live");
    // An imported session: its entry is still in the index the import moved aside.
    let sid = session_id(&store, KEY);
    let entry = store.json_ok(["show", KEY, "--json"])["data"]["entry"].clone();
    store.run_ok(["delete", KEY, "--yes"]);
    forget_kept_entries(&store);
    // The plan says that the entry is not the one at deletion, where it comes from and how
    // old it is.
    let dry = store
        .cmd()
        .env("COLUMNS", "200")
        .args(["undelete", &sid, "--dry-run"])
        .output()
        .unwrap();
    let plan =
        String::from_utf8_lossy(&dry.stdout).to_string() + &String::from_utf8_lossy(&dry.stderr);
    assert!(
        plan.contains("no entry was kept at deletion: an older entry from the import's index")
            && plan.contains("last updated ")
            && plan.contains(" ago)"),
        "{plan}"
    );
    let out = store
        .cmd()
        .args(["undelete", &sid, "--yes", "--json"])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    assert_eq!(json(&out)["data"]["entrySource"]["kind"], "import-index");
    let show = store.json_ok(["show", KEY, "--json"]);
    assert_eq!(show["data"]["entry"]["sessionId"], sid.as_str());
    assert_eq!(show["data"]["entry"]["label"], entry["label"]);
    // A session the SDK made: nothing but the archive holds it.
    let made = "agent:main:sdk-made-1";
    let sid = session_id(&store, made);
    store.run_ok(["delete", made, "--yes"]);
    forget_kept_entries(&store);
    let out = store
        .cmd()
        .args(["undelete", &sid, "--yes", "--json"])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    assert_eq!(json(&out)["data"]["entrySource"]["kind"], "minimal");
    let list = store.json_ok(["list", "--json", "--limit", "all"]);
    let row = list["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["sessionKey"] == made)
        .cloned()
        .unwrap();
    assert_eq!(row["sessionId"], sid.as_str());
    assert_eq!(
        store.run_ok(["transcript", "cat", made]).stdout,
        store.run_ok(["archives", "cat", &sid]).stdout
    );
}

/// `delete` keeps the entry it removes (0600, under `<state>/openclaw-sessions-deleted/`),
/// `archives list` says so, and `undelete` brings the session back as it was at deletion:
/// after `patch label` and `archive`, not the import's older entry.
#[test]
fn undelete_brings_back_the_entry_as_it_was_at_deletion() {
    use std::os::unix::fs::PermissionsExt;
    let store = Store::copy("live");
    let sid = session_id(&store, KEY);
    store.run_ok(["patch", KEY, "--set", "label=\"kept at deletion\""]);
    store.run_ok(["archive", KEY, "--yes"]);
    let entry = store.json_ok(["show", KEY, "--json"])["data"]["entry"].clone();
    assert_eq!(entry["label"], "kept at deletion");
    store.run_ok(["delete", KEY, "--yes"]);
    let listed = store.json_ok(["archives", "list", "--json"]);
    let row = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["sessionId"] == sid.as_str() && a["reason"] == "deleted")
        .unwrap_or_else(|| panic!("{listed}"))
        .clone();
    let kept =
        std::path::PathBuf::from(row["keptEntry"].as_str().unwrap_or_else(|| panic!("{row}")));
    assert!(kept.starts_with(store.state().join("openclaw-sessions-deleted").join("main")));
    // `du` counts what this tool keeps in the state dir.
    let du = store.json_ok(["du", "--json"]);
    assert_eq!(du["data"]["keptEntries"]["files"], 1, "{du}");
    assert_eq!(
        du["data"]["keptEntries"]["bytes"],
        std::fs::metadata(&kept).unwrap().len(),
        "{du}"
    );
    for p in [
        &kept,
        kept.parent().unwrap(),
        kept.parent().unwrap().parent().unwrap(),
    ] {
        let mode = std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let want = if p.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(mode, want, "{}", p.display());
    }
    // Other archives have no entry kept.
    assert!(listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["keptEntry"].is_null()));
    let human = store
        .cmd()
        .env("COLUMNS", "250")
        .args(["archives", "list", "--session", KEY])
        .output()
        .unwrap();
    let human = String::from_utf8_lossy(&human.stdout);
    assert!(human.contains("ENTRY"), "{human}");
    let line = human
        .lines()
        .find(|l| l.contains(row["name"].as_str().unwrap()))
        .unwrap_or_else(|| panic!("{human}"));
    assert!(line.contains(" kept "), "{human}");
    // Neither our doctor nor OpenClaw's maintenance takes the kept entry for a stray.
    let doctor = store.json_ok(["doctor", "--json"]);
    assert!(
        !doctor.to_string().contains("openclaw-sessions-deleted"),
        "{doctor}"
    );
    let dry = store.json_ok(["undelete", KEY, "--dry-run", "--json"]);
    assert_eq!(dry["data"]["entrySource"]["kind"], "deleted", "{dry}");
    let out = store
        .cmd()
        .env("COLUMNS", "200")
        .args(["undelete", KEY, "--yes"])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("the entry as it was at deletion"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let back = store.json_ok(["show", KEY, "--json"])["data"]["entry"].clone();
    for field in [
        "label",
        "updatedAt",
        "archivedAt",
        "archiveReason",
        "sessionId",
    ] {
        assert_eq!(back[field], entry[field], "{field}: {back}");
    }
    store.run_ok(["transcript", "cat", KEY]);
}

/// kill -9 after the kept entry is written and before the deletion commits: the session is
/// still whole, the entry file names an archive that does not exist (nothing reads it), and a
/// re-run removes that file, deletes and keeps the entry again, which undelete then uses.
#[test]
fn delete_killed_after_keeping_the_entry() {
    for point in [
        "delete-entries-kept",
        "delete-before-commit",
        "delete-before-publish",
    ] {
        let store = Store::copy("live");
        let sid = session_id(&store, KEY);
        let before = session_rows(&store, KEY, &sid);
        store.run_ok(["patch", KEY, "--set", "label=\"before the crash\""]);
        let status = std_bin()
            .env("HOME", store.dir.path())
            .env("OPENCLAW_SESSIONS_CRASH_AT", point)
            .arg("--state-dir")
            .arg(store.state())
            .args(["delete", KEY, "--yes"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert_eq!(
            crashed_or_finished(status, "OPENCLAW_SESSIONS_CRASH_AT", point),
            1
        );
        let now = session_rows(&store, KEY, &sid);
        let committed = now["session_nodes"].is_empty();
        if !committed {
            assert_eq!(
                now["transcript_events"], before["transcript_events"],
                "{point}"
            );
            store.run_ok(["delete", KEY, "--yes"]);
        } else {
            // The publication a crash interrupted is finished by the next command that
            // writes; the kept entry was there before the commit.
            store.run_ok(["doctor", "--fix", "--yes"]);
        }
        // A deletion killed before its commit left an entry whose archive never came to be:
        // its re-run removes it and keeps its own, so no leftover is there to name (issue
        // 55: the re-run ends at exactly the finished store).
        let kept_dir = store.state().join("openclaw-sessions-deleted/main");
        let files = || std::fs::read_dir(&kept_dir).unwrap().count();
        let doctor = store.json_ok(["doctor", "leftovers", "--json"]);
        let orphans = doctor["data"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| {
                f["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("which is gone")
            })
            .count();
        assert_eq!(orphans, 0, "{point}: {doctor}");
        assert_eq!(files(), 1, "{point}");
        let listed = store.json_ok(["archives", "list", "--json", "--session", &sid]);
        let kept: Vec<&Value> = listed["data"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|a| a["reason"] == "deleted" && !a["keptEntry"].is_null())
            .collect();
        assert_eq!(kept.len(), 1, "{point}: {listed}");
        let dry = store.json_ok(["undelete", &sid, "--dry-run", "--json"]);
        assert_eq!(
            dry["data"]["entrySource"]["kind"], "deleted",
            "{point}: {dry}"
        );
        store.run_ok(["undelete", &sid, "--yes"]);
        let back = store.json_ok(["show", KEY, "--json"])["data"]["entry"].clone();
        assert_eq!(back["label"], "before the crash", "{point}");
    }
}

/// kill -9 at every crash point and after each of the first moments of a run: the store
/// passes its checks, the session is absent or whole, the archive is as it was; a re-run
/// finishes.
#[test]
fn undelete_killed_at_many_moments() {
    let mut faults: Vec<(&str, String)> = [
        "undelete-session",
        "undelete-first-event",
        "undelete-events",
        "undelete-before-commit",
        "undelete-after-commit",
    ]
    .iter()
    .map(|p| ("OPENCLAW_SESSIONS_CRASH_AT", p.to_string()))
    .collect();
    faults.extend((1..=6).map(|n| ("OPENCLAW_SESSIONS_CRASH_AFTER", n.to_string())));
    let (template, sid, before) = deleted();
    let _ = template;
    let mut crashed = 0;
    for (var, val) in faults {
        let (store, sid2, _) = deleted();
        assert_eq!(sid2, sid);
        let archive_before = archive_state(&store, &sid);
        let status = std_bin()
            .env("HOME", store.dir.path())
            .env(var, &val)
            .arg("--state-dir")
            .arg(store.state())
            .args(["undelete", &sid, "--yes"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        crashed += crashed_or_finished(status, var, &val);
        let conn = store.writable("main");
        assert_integrity(&conn, &format!("{var}={val}"));
        assert_foreign_keys(&conn, &format!("{var}={val}"));
        drop(conn);
        let now = session_rows(&store, KEY, &sid);
        let absent = now.values().all(Vec::is_empty);
        let whole = before.iter().all(|(t, rows)| &now[t] == rows);
        assert!(absent || whole, "{var}={val}: neither absent nor whole");
        assert_eq!(archive_state(&store, &sid), archive_before, "{var}={val}");
        // A re-run finishes the job (or finds it done).
        let again = store
            .cmd()
            .args(["undelete", &sid, "--yes"])
            .output()
            .unwrap();
        assert!(
            again.status.success() || whole,
            "{var}={val}: {}",
            String::from_utf8_lossy(&again.stderr)
        );
        let done = session_rows(&store, KEY, &sid);
        assert!(
            before.iter().all(|(t, rows)| &done[t] == rows),
            "{var}={val}"
        );
    }
    eprintln!("undelete: crashed at {crashed} of 11 points");
    assert!(crashed >= 8, "only {crashed} crash points were reached");
}

/// A run under `OPENCLAW_SESSIONS_CRASH_AT` must reach its point and abort there; under
/// `OPENCLAW_SESSIONS_CRASH_AFTER=n` it aborts at the n-th point, or finishes when it has
/// fewer. 1 when it crashed.
fn crashed_or_finished(status: std::process::ExitStatus, var: &str, val: &str) -> usize {
    use std::os::unix::process::ExitStatusExt;
    if status.signal() == Some(libc::SIGABRT) {
        return 1;
    }
    assert!(
        var == "OPENCLAW_SESSIONS_CRASH_AFTER" && status.success(),
        "{var}={val}: not crashed and not finished: {status}"
    );
    0
}

/// The snapshot `deleted()` wrote before the deletion.
pub(crate) fn the_snapshot(store: &Store) -> std::path::PathBuf {
    let repo = store.state().join("openclaw-sessions-snapshots");
    std::fs::read_dir(&repo)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.join("manifest.json").is_file())
        .unwrap()
}

fn listing(store: &Store) -> Vec<Value> {
    let list = store.json_ok(["list", "--all-agents", "--json", "--limit", "all"]);
    list["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            serde_json::json!([
                r["sessionKey"],
                r["sessionId"],
                r["updatedAt"],
                r["transcript"]
            ])
        })
        .collect()
}

#[test]
fn backup_restore_session_takes_one_session_out_of_a_snapshot() {
    let (store, sid, before) = deleted();
    let snapshot = the_snapshot(&store);
    let others = listing(&store);
    let out = store
        .cmd()
        .args(["backup", "restore"])
        .arg(&snapshot)
        .args(["--session", "pinned-notes", "--yes", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let report = json(&out);
    assert_eq!(report["data"]["sessionKey"], KEY);
    assert_eq!(report["data"]["sessionId"], sid.as_str());
    let after = session_rows(&store, KEY, &sid);
    for (table, rows) in &before {
        assert_eq!(rows, &after[table], "{table}");
    }
    // The others are as they were; the restored one is back in the listing.
    let now = listing(&store);
    assert_eq!(now.len(), others.len() + 1);
    assert!(others.iter().all(|r| now.contains(r)));
    let doctor = store.cmd().args(["doctor", "--json"]).output().unwrap();
    assert!(
        doctor.status.success(),
        "{}",
        String::from_utf8_lossy(&doctor.stdout)
    );
    // Restored twice: the key is live now.
    let again = store
        .cmd()
        .args(["backup", "restore"])
        .arg(&snapshot)
        .args(["--session", &sid, "--yes"])
        .output()
        .unwrap();
    expect_exit(&again, 5);
    let missing = store
        .cmd()
        .args(["backup", "restore"])
        .arg(&snapshot)
        .args(["--session", "no-such-session", "--yes"])
        .output()
        .unwrap();
    expect_exit(&missing, 4);
    // Its archive from the deletion is still there, and it can be deleted again.
    store.run_ok(["delete", KEY, "--yes"]);
    assert_eq!(
        json(&store.run_ok([
            "archives",
            "list",
            "--json",
            "--session",
            KEY,
            "--reason",
            "deleted"
        ]))["data"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn backup_restore_session_killed_at_many_moments() {
    let mut faults: Vec<(&str, String)> = [
        "restore-session-rows",
        "restore-session-before-commit",
        "restore-session-after-commit",
    ]
    .iter()
    .map(|p| ("OPENCLAW_SESSIONS_CRASH_AT", p.to_string()))
    .collect();
    faults.extend((1..=4).map(|n| ("OPENCLAW_SESSIONS_CRASH_AFTER", n.to_string())));
    let mut crashed = 0;
    for (var, val) in faults {
        let (store, sid, before) = deleted();
        let snapshot = the_snapshot(&store);
        let status = std_bin()
            .env("HOME", store.dir.path())
            .env(var, &val)
            .arg("--state-dir")
            .arg(store.state())
            .args(["backup", "restore"])
            .arg(&snapshot)
            .args(["--session", KEY, "--yes"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        crashed += crashed_or_finished(status, var, &val);
        let conn = store.writable("main");
        assert_integrity(&conn, &format!("{var}={val}"));
        drop(conn);
        let now = session_rows(&store, KEY, &sid);
        let absent = now.values().all(Vec::is_empty);
        let whole = before.iter().all(|(t, rows)| &now[t] == rows);
        assert!(absent || whole, "{var}={val}: neither absent nor whole");
        if absent {
            store
                .cmd()
                .args(["backup", "restore"])
                .arg(&snapshot)
                .args(["--session", KEY, "--yes"])
                .assert()
                .success();
        }
        let done = session_rows(&store, KEY, &sid);
        assert!(
            before.iter().all(|(t, rows)| &done[t] == rows),
            "{var}={val}"
        );
    }
    eprintln!("backup restore --session: crashed at {crashed} of 7 points");
    assert!(crashed >= 5, "only {crashed} crash points were reached");
}

/// Snapshots are named by the id `backup list` prints, a unique prefix of it or of its uuid,
/// or `latest`, wherever a snapshot is named; `--session` takes an 8-character session-id
/// prefix; the safety snapshots of `doctor --fix` go to their own folder outside the state dir,
/// which `backup prune --keep 1` leaves alone (`--safety` prunes them by their own rule); the
/// repository an earlier version kept in the state dir is still read (docs/SNAPSHOTS.md).
#[test]
fn snapshots_are_named_by_id_prefix_or_latest_and_kept_apart_from_safety_snapshots() {
    let store = Store::copy("live");
    let sid = session_id(&store, KEY);
    store.run_ok(["backup", "create"]);
    let listed = store.json_ok(["backup", "list", "--json"]);
    let snap = &listed["data"]["snapshots"][0];
    let id = snap["id"].as_str().unwrap().to_string();
    assert_eq!(snap["kind"], "manual", "{listed}");
    assert!(std::path::Path::new(snap["path"].as_str().unwrap()).starts_with(store.snapshot_repo()));
    let uuid = &id[id.len() - 36..];
    for words in [id.as_str(), &uuid[..8], &id[..20], "latest"] {
        store.run_ok(["backup", "verify", words]);
    }
    // The human listing keeps the id whole at 80 columns.
    let human = store
        .cmd()
        .env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", "80")
        .args(["backup", "list"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&human.stdout).contains(&id));
    // Restore one session by the id's prefix and a session-id prefix of 8 characters.
    store.run_ok(["delete", KEY, "--yes"]);
    let out = store.run_ok([
        "backup",
        "restore",
        &uuid[..8],
        "--session",
        &sid[..8],
        "--yes",
        "--json",
    ]);
    assert_eq!(json(&out)["data"]["sessionKey"], KEY);
    // A second manual snapshot, then doctor's safety snapshot in its own folder.
    store.run_ok(["backup", "create"]);
    store
        .writable("main")
        .execute(
            "UPDATE session_nodes SET entry_json = '{\"oops\":' WHERE session_key = ?1",
            [KEY],
        )
        .unwrap();
    store.run_ok(["doctor", "entry-json", "--fix", "--yes"]);
    let safety: Vec<_> = std::fs::read_dir(store.safety_repo())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("manifest.json").is_file())
        .collect();
    assert_eq!(safety.len(), 1, "{safety:?}");
    assert!(!store.state().join("openclaw-sessions-snapshots").exists());
    // The admin's prune keeps the admin's newest and never looks at doctor's.
    store.run_ok(["backup", "prune", "--keep", "1", "--yes"]);
    let kinds = |doc: &Value| -> Vec<String> {
        doc["data"]["snapshots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["kind"].as_str().unwrap().to_string())
            .collect()
    };
    let after = store.json_ok(["backup", "list", "--json"]);
    assert_eq!(kinds(&after), ["manual", "safety"], "{after}");
    store.run_ok(["backup", "prune", "--safety", "--yes"]);
    assert!(safety[0].exists());
    // An earlier version's repository in the state dir is still listed and restorable.
    let old = store.state().join("openclaw-sessions-snapshots");
    crate::common::copy_dir(&safety[0], &old.join(safety[0].file_name().unwrap()));
    let after = store.json_ok(["backup", "list", "--json"]);
    assert_eq!(kinds(&after), ["manual", "safety", "old"], "{after}");
    // A name that is nowhere: not found, saying where it looked.
    let out = store
        .cmd()
        .args(["backup", "verify", "no-such-snapshot"])
        .output()
        .unwrap();
    expect_exit(&out, 4);
}

/// A live session with a label the snapshot does not have, and that snapshot (taken first).
fn changed_since_snapshot() -> (
    Store,
    String,
    BTreeMap<String, Vec<String>>,
    std::path::PathBuf,
) {
    let store = Store::copy("live");
    let sid = session_id(&store, KEY);
    let before = session_rows(&store, KEY, &sid);
    let repo = store.dir.path().join("repo");
    store.run_ok(["backup", "create", "--repository", repo.to_str().unwrap()]);
    let snapshot = std::fs::read_dir(&repo)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            std::fs::read_to_string(p.join("manifest.json"))
                .is_ok_and(|m| m.contains("\"agentId\": \"main\""))
        })
        .unwrap();
    store.run_ok(["patch", KEY, "--set", "label=\"Changed since\""]);
    assert_ne!(session_rows(&store, KEY, &sid), before);
    (store, sid, before, snapshot)
}

/// `backup restore SNAPSHOT --session KEY --replace` replaces a live session through the
/// pipeline: its current rows deleted as `delete` deletes them (transcript archived, entry
/// kept), then the snapshot's session restored; without --replace a live key is refused with
/// a hint naming --replace; the dry run shows both steps and changes nothing.
#[test]
fn backup_restore_session_replace_replaces_a_live_session() {
    let (store, sid, before, snapshot) = changed_since_snapshot();
    let sums = crate::common::checksums(&store.state());
    let refused = store
        .cmd()
        .args(["backup", "restore"])
        .arg(&snapshot)
        .args(["--session", KEY, "--yes", "--json"])
        .output()
        .unwrap();
    expect_exit(&refused, 5);
    let doc = json(&refused);
    assert!(
        doc["error"]["hint"].as_str().unwrap().contains("--replace"),
        "{doc}"
    );
    let dry = store
        .cmd()
        .args(["backup", "restore"])
        .arg(&snapshot)
        .args(["--session", KEY, "--replace", "-n"])
        .output()
        .unwrap();
    assert!(dry.status.success(), "{dry:?}");
    let plan = String::from_utf8_lossy(&dry.stdout).to_string();
    assert!(plan.starts_with("Replace session"), "{plan}");
    assert!(
        plan.contains(&format!("delete {KEY}")) && plan.contains(&format!("restore {KEY}")),
        "{plan}"
    );
    assert_eq!(crate::common::checksums(&store.state()), sums);
    let done = store
        .cmd()
        .args(["backup", "restore"])
        .arg(&snapshot)
        .args(["--session", KEY, "--replace", "--yes", "--json"])
        .output()
        .unwrap();
    assert!(done.status.success(), "{done:?}");
    let doc = json(&done);
    assert_eq!(doc["data"]["replaced"][0]["sessionKey"], KEY, "{doc}");
    let after = session_rows(&store, KEY, &sid);
    for (table, rows) in &before {
        assert_eq!(rows, &after[table], "{table}");
    }
    // The replaced rows are an archive as delete writes it, with its entry kept.
    let archives = store.json_ok([
        "archives",
        "list",
        "--json",
        "--session",
        KEY,
        "--reason",
        "deleted",
    ]);
    let archives = archives["data"].as_array().unwrap();
    assert_eq!(archives.len(), 1, "{archives:?}");
    assert!(archives[0]["keptEntry"].is_string(), "{archives:?}");
    let doctor = store.cmd().args(["doctor", "--json"]).output().unwrap();
    assert!(doctor.status.success(), "{doctor:?}");
    // The key free again (deleted): --replace is a plain restore.
    store.run_ok(["delete", KEY, "--yes"]);
    store
        .cmd()
        .args(["backup", "restore"])
        .arg(&snapshot)
        .args(["--session", KEY, "--replace", "--yes"])
        .assert()
        .success();
    let again = session_rows(&store, KEY, &sid);
    assert!(before.iter().all(|(t, rows)| &again[t] == rows));
}

/// Killed at every moment of a replacing restore: the session is the live one as it was, gone
/// (deleted and archived), or the snapshot's whole; the same command run again ends with the
/// snapshot's session.
#[test]
fn backup_restore_session_replace_killed_at_many_moments() {
    let mut faults: Vec<(&str, String)> = [
        "delete-generation",
        "delete-before-commit",
        "delete-before-publish",
        "publish-linked",
        "restore-session-replaced",
        "restore-session-rows",
        "restore-session-before-commit",
        "restore-session-after-commit",
    ]
    .iter()
    .map(|p| ("OPENCLAW_SESSIONS_CRASH_AT", p.to_string()))
    .collect();
    faults.extend((1..=10).map(|n| ("OPENCLAW_SESSIONS_CRASH_AFTER", n.to_string())));
    let mut crashed = 0;
    for (var, val) in faults {
        let (store, sid, before, snapshot) = changed_since_snapshot();
        let live = session_rows(&store, KEY, &sid);
        let run = || {
            let mut cmd = std_bin();
            cmd.env("HOME", store.dir.path())
                .arg("--state-dir")
                .arg(store.state())
                .args(["backup", "restore"])
                .arg(&snapshot)
                .args(["--session", KEY, "--replace", "--yes"])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null());
            cmd
        };
        let status = run().env(var, &val).status().unwrap();
        crashed += crashed_or_finished(status, var, &val);
        let conn = store.writable("main");
        assert_integrity(&conn, &format!("{var}={val}"));
        assert_foreign_keys(&conn, &format!("{var}={val}"));
        drop(conn);
        let now = session_rows(&store, KEY, &sid);
        let absent = now.values().all(Vec::is_empty);
        let old = live.iter().all(|(t, rows)| &now[t] == rows);
        let whole = before.iter().all(|(t, rows)| &now[t] == rows);
        assert!(
            absent || old || whole,
            "{var}={val}: neither absent, old nor whole"
        );
        // A re-run finishes the job; after the restore committed it is done (a re-run would
        // replace the session again, archiving it once more).
        if !whole {
            assert!(
                run().status().unwrap().success(),
                "{var}={val}: the re-run failed"
            );
        }
        let done = session_rows(&store, KEY, &sid);
        assert!(
            before.iter().all(|(t, rows)| &done[t] == rows),
            "{var}={val}"
        );
        // One deletion archived, however the run was cut.
        let archives = store.json_ok([
            "archives",
            "list",
            "--json",
            "--session",
            KEY,
            "--reason",
            "deleted",
        ]);
        assert_eq!(
            archives["data"].as_array().unwrap().len(),
            1,
            "{var}={val}: {archives}"
        );
    }
    eprintln!("backup restore --session --replace: crashed at {crashed} of 18 points");
    assert!(crashed >= 12, "only {crashed} crash points were reached");
}
