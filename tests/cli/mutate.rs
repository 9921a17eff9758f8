//! `patch`, `archive`, `unarchive`, `delete` on copies of the real stores.

use rusqlite::OptionalExtension;
use serde_json::Value;

use crate::common::{assert_integrity, checksums, json, Store};

fn node_row(store: &Store, key: &str) -> (i64, Option<String>, Option<String>, i64, bool) {
    store
        .writable("main")
        .query_row(
            "SELECT entry_valid, label, display_name, updated_at, EXISTS(SELECT 1 FROM session_canonical_validation_pending p WHERE p.session_key = n.session_key) FROM session_nodes n WHERE session_key = ?1",
            [key],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .unwrap()
}

fn integrity(store: &Store, agent: &str) {
    let db = store.writable(agent);
    assert_integrity(&db, "");
    let fk: Option<String> = db
        .query_row("PRAGMA foreign_key_check", [], |r| r.get(0))
        .optional()
        .unwrap();
    assert_eq!(fk, None);
}

#[test]
fn patch_writes_entry_and_every_projected_column() {
    let store = Store::copy("live");
    let key = "agent:main:scratch-2";
    let before = store.entry("main", key).unwrap();
    let long: String = "名".repeat(499) + "😀😀";
    let out = store.run_ok([
        "patch",
        key,
        "--json",
        "--set",
        "label=\"  Ops  \"",
        "--set",
        &format!("displayName=\"  {long}  \""),
        "--set",
        "customField={\"a\":1}",
        "--allow-unknown-field",
    ]);
    let doc = json(&out);
    assert_eq!(doc["data"]["applied"], true);
    let after = store.entry("main", key).unwrap();
    assert_eq!(after["label"], "Ops");
    // 499 one-unit chars + a surrogate pair would be 501 units: the pair is not split.
    assert_eq!(
        after["displayName"]
            .as_str()
            .unwrap()
            .encode_utf16()
            .count(),
        499
    );
    assert_eq!(after["customField"]["a"], 1, "unknown fields are kept");
    assert!(after["updatedAt"].as_i64().unwrap() > before["updatedAt"].as_i64().unwrap());
    // Key order: existing keys first, new ones appended.
    let keys: Vec<&String> = after.as_object().unwrap().keys().collect();
    assert_eq!(keys[0], "sessionId");
    assert_eq!(keys.last().unwrap().as_str(), "customField");
    let (valid, label, display, updated, pending) = node_row(&store, key);
    assert_eq!((valid, label.as_deref(), pending), (1, Some("Ops"), false));
    assert_eq!(display.as_deref(), after["displayName"].as_str());
    assert_eq!(updated, after["updatedAt"].as_i64().unwrap());
    let window_name: Option<String> = store
        .writable("main")
        .query_row(
            "SELECT display_name FROM session_windows WHERE session_id = ?1",
            [after["sessionId"].as_str().unwrap()],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(window_name.as_deref(), after["displayName"].as_str());
    integrity(&store, "main");
    // --preserve-activity keeps updatedAt; --unset removes.
    let out = store
        .cmd()
        .args([
            "patch",
            key,
            "--preserve-activity",
            "--unset",
            "customField",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let again = store.entry("main", key).unwrap();
    assert_eq!(again["updatedAt"], after["updatedAt"]);
    assert!(again.get("customField").is_none());
}

#[test]
fn patch_guards_refuse_and_change_nothing() {
    let store = Store::copy("live");
    let before = checksums(&store.state());
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (
            vec!["agent:main:scratch-1", "--set", "model=\"gpt-x\""],
            5,
            "LOCKED_SESSION",
        ),
        (
            vec![
                "agent:main:scratch-1",
                "--set",
                "modelSelectionLocked=false",
            ],
            5,
            "LOCKED_SESSION",
        ),
        (
            vec!["agent:main:main", "--set", "label=\"Pinned notes\""],
            5,
            "CONFLICT",
        ),
        (
            vec!["agent:main:main", "--set", "sessionId=\"other\""],
            2,
            "USAGE",
        ),
        (
            vec![
                "agent:main:main",
                "--expect-updated-at",
                "1",
                "--set",
                "label=\"x\"",
            ],
            5,
            "CONFLICT",
        ),
        (
            vec![
                "agent:main:main",
                "--expect-session-id",
                "null",
                "--set",
                "label=\"x\"",
            ],
            5,
            "CONFLICT",
        ),
        (
            vec!["agent:main:nope", "--set", "label=\"x\""],
            4,
            "NOT_FOUND",
        ),
        (vec!["agent:main:main", "--merge", "[1]"], 2, "USAGE"),
    ];
    for (args, code, err) in cases {
        let out = store
            .cmd()
            .arg("patch")
            .args(&args)
            .arg("--json")
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert_eq!(json(&out)["error"]["code"], err, "{args:?}");
    }
    // Dry runs change nothing either.
    let out = store
        .cmd()
        .args([
            "patch",
            "agent:main:main",
            "--set",
            "label=\"New\"",
            "--dry-run",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("+ label: \"New\""));
    // The refusals may have left lock coordinators (0-byte files) and nothing else.
    let after: std::collections::BTreeMap<_, _> = checksums(&store.state())
        .into_iter()
        .filter(|(p, _)| !p.starts_with(crate::content::custody_dir(&store)))
        .collect();
    let before: std::collections::BTreeMap<_, _> = before
        .into_iter()
        .filter(|(p, _)| !p.starts_with(crate::content::custody_dir(&store)))
        .collect();
    assert_eq!(before, after);
}

#[test]
fn archive_and_unarchive() {
    let store = Store::copy("live");
    let key = "agent:main:pinned-notes";
    let out = store
        .cmd()
        .args(["archive", key, "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(json(&out)["data"]["results"][0]["result"], "archived");
    let e = store.entry("main", key).unwrap();
    assert!(e["archivedAt"].is_i64());
    assert_eq!(e["archiveReason"], "manual");
    assert!(e.get("pinnedAt").is_none(), "archiving unpins");
    let out = store.cmd().args(["unarchive", key]).output().unwrap();
    assert!(out.status.success());
    let e = store.entry("main", key).unwrap();
    assert!(e.get("archivedAt").is_none() && e.get("archiveReason").is_none());
    store.run_code(["archive", "agent:main:main"], 5);
    integrity(&store, "main");
}

fn count(store: &Store, sql: &str, arg: &str) -> i64 {
    store
        .writable("main")
        .query_row(sql, [arg], |r| r.get(0))
        .unwrap()
}

#[test]
fn delete_archives_the_transcript_and_removes_every_row() {
    let store = Store::copy("live");
    let key = "agent:main:acp:9911cc46-d649-47bb-9968-72da7c2daff9";
    let sid = store.entry("main", key).unwrap()["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    let events: Vec<String> = String::from_utf8(
        store
            .cmd()
            .args(["transcript", "cat", key])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap()
    .lines()
    .map(String::from)
    .collect();
    let out = store
        .cmd()
        .args(["delete", key, "--yes", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let doc = json(&out);
    let result = &doc["data"]["results"][0];
    assert_eq!(result["result"], "deleted");
    let name = result["archive"][0]["archiveName"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        name.starts_with(&format!("{sid}.jsonl.deleted.")) && name.ends_with(".zst"),
        "{name}"
    );
    assert_eq!(result["archive"][0]["published"], true);
    // The published file and the row hold the same zstd JSONL: every event, in order.
    let file = std::fs::read(store.state().join("agents/main/sessions").join(&name)).unwrap();
    let text = String::from_utf8(zstd::decode_all(&file[..]).unwrap()).unwrap();
    assert_eq!(
        text,
        events.iter().map(|e| format!("{e}\n")).collect::<String>()
    );
    let (blob, sha, published): (Vec<u8>, String, Option<i64>) = store
        .writable("main")
        .query_row("SELECT archive_blob, archive_sha256, published_at FROM session_transcript_archives WHERE archive_name = ?1", [&name], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap();
    assert_eq!(blob, file);
    use sha2::Digest;
    assert_eq!(sha, format!("{:x}", sha2::Sha256::digest(&blob)));
    assert!(published.is_some());
    for (table, col) in [
        ("session_nodes", "current_session_id"),
        ("session_windows", "session_id"),
        ("transcript_events", "session_id"),
        ("transcript_event_identities", "session_id"),
        ("session_transcript_active_events", "session_id"),
        ("session_transcript_index_state", "session_id"),
        ("session_transcript_fts_rows", "session_id"),
        ("transcript_rewrite_watermarks", "session_id"),
    ] {
        assert_eq!(
            count(
                &store,
                &format!("SELECT count(*) FROM {table} WHERE {col} = ?1"),
                &sid
            ),
            0,
            "{table}"
        );
    }
    assert_eq!(
        count(
            &store,
            "SELECT count(*) FROM session_transcript_fts WHERE session_id = ?1",
            &sid
        ),
        0
    );
    assert_eq!(
        count(
            &store,
            "SELECT count(*) FROM session_canonical_validation_pending WHERE session_key = ?1",
            key
        ),
        0
    );
    integrity(&store, "main");
}

#[test]
fn delete_without_archive_leaves_a_tombstone() {
    let store = Store::copy("live");
    let key = "agent:main:hook:7a41e6f5-b97d-4c51-b472-0830fd1c2815";
    let sid = store.entry("main", key).unwrap()["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    let events = count(
        &store,
        "SELECT count(*) FROM transcript_events WHERE session_id = ?1",
        &sid,
    );
    store.run_ok(["delete", key, "--no-archive", "--yes"]);
    let (json_text, valid, current): (String, i64, String) = store
        .writable("main")
        .query_row("SELECT entry_json, entry_valid, current_session_id FROM session_nodes WHERE session_key = ?1", [key], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap();
    assert_eq!(
        (json_text.as_str(), valid, current.as_str()),
        ("{}", -1, sid.as_str())
    );
    assert_eq!(
        count(
            &store,
            "SELECT count(*) FROM transcript_events WHERE session_id = ?1",
            &sid
        ),
        events
    );
    assert_eq!(
        count(
            &store,
            "SELECT count(*) FROM session_transcript_archives WHERE session_id = ?1",
            &sid
        ),
        0
    );
    // A tombstone is not a session any more.
    let listed = json(
        &store
            .cmd()
            .args(["list", "--json", "--limit", "all"])
            .output()
            .unwrap(),
    );
    assert!(!listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["sessionKey"] == key));
    integrity(&store, "main");
}

#[test]
fn delete_results_and_exit_codes() {
    let store = Store::copy("live");
    let untouched = checksums(&store.state());
    // No terminal, no --yes: exit 2, nothing changed.
    store.run_code(["delete", "agent:main:scratch-2"], 2);
    // Dry run: the plan, nothing changed.
    let out = store
        .cmd()
        .args(["delete", "agent:main:scratch-2", "--dry-run", "--json"])
        .output()
        .unwrap();
    assert_eq!(json(&out)["data"]["results"][0]["result"], "would-delete");
    let strip = |m: std::collections::BTreeMap<std::path::PathBuf, String>| -> Vec<_> {
        m.into_iter()
            .filter(|(p, _)| !p.starts_with(crate::content::custody_dir(&store)))
            .collect()
    };
    assert_eq!(strip(untouched.clone()), strip(checksums(&store.state())));
    // One key: the guard's own code.
    assert_eq!(
        store
            .cmd()
            .args(["delete", "agent:main:nope", "--yes"])
            .output()
            .unwrap()
            .status
            .code(),
        Some(4)
    );
    let locked = store.run_code(["delete", "agent:main:scratch-1", "--yes", "--json"], 5);
    assert_eq!(json(&locked)["data"]["results"][0]["result"], "refused");
    store.run_code(
        [
            "delete",
            "agent:main:scratch-2",
            "--yes",
            "--expect-updated-at",
            "5",
        ],
        5,
    );
    // Several keys, some not deleted: exit 3, the others are deleted.
    let out = store.run_code(
        [
            "delete",
            "agent:main:scratch-2",
            "agent:main:nope",
            "agent:main:scratch-1",
            "--yes",
            "--json",
        ],
        3,
    );
    let results: Vec<String> = json(&out)["data"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["result"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(results, ["deleted", "missing", "refused"]);
    assert!(store.entry("main", "agent:main:scratch-2").is_none());
    assert!(store.entry("main", "agent:main:scratch-1").is_some());
}

#[test]
fn crash_points_leave_a_consistent_store() {
    for point in [
        "patch-before-commit",
        "delete-generation",
        "delete-before-commit",
        "delete-before-publish",
    ] {
        let store = Store::copy("live");
        let key = "agent:main:cron:nightly:run:884";
        let before = store.entry("main", key).unwrap();
        let args: Vec<&str> = if point.starts_with("patch") {
            vec!["patch", key, "--set", "label=\"x\""]
        } else {
            vec!["delete", key, "--yes"]
        };
        let out = store
            .cmd()
            .args(&args)
            .env("OPENCLAW_SESSIONS_CRASH_AT", point)
            .output()
            .unwrap();
        assert!(
            !out.status.success(),
            "{point}: the process should have died"
        );
        integrity(&store, "main");
        let now = store.entry("main", key);
        let archives = count(
            &store,
            "SELECT count(*) FROM session_transcript_archives WHERE session_key = ?1",
            key,
        );
        match point {
            "delete-before-publish" => {
                // Committed: the session is gone, its archive row waits for its file.
                assert!(now.is_none());
                assert_eq!(archives, 1);
                let pending = count(&store, "SELECT count(*) FROM session_transcript_archives WHERE session_key = ?1 AND published_at IS NULL", key);
                assert_eq!(pending, 1);
                // The next deletion (after reclaiming the dead run's stale lock) publishes it.
                let out = store.run_ok(["delete", "agent:main:scratch-2", "--yes"]);
                assert!(String::from_utf8_lossy(&out.stderr).contains("reclaimed a stale lock"));
                let pending = count(&store, "SELECT count(*) FROM session_transcript_archives WHERE published_at IS NULL AND ?1 = ?1", "");
                assert_eq!(pending, 0);
            }
            _ => {
                // Rolled back: the session is exactly as it was, with no archive.
                assert_eq!(now.as_ref(), Some(&before), "{point}");
                assert_eq!(archives, 0, "{point}");
                let again = store.cmd().args(&args).output().unwrap();
                assert!(
                    again.status.success(),
                    "{point}: {}",
                    String::from_utf8_lossy(&again.stderr)
                );
            }
        }
        integrity(&store, "main");
    }
}

#[test]
fn mutations_refuse_while_another_owner_holds_the_state_dir() {
    let store = Store::copy("live");
    let mut holder = std::process::Command::new(assert_cmd::cargo::cargo_bin("openclaw-sessions"))
        .arg("--state-dir")
        .arg(store.state())
        .args(["custody", "run", "--", "sleep", "3"])
        .spawn()
        .unwrap();
    let lock = store
        .state()
        .join(format!("tmp/openclaw-{}/gateway.state.lock", unsafe {
            libc::getuid()
        }));
    while !lock.exists() {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    std::thread::sleep(std::time::Duration::from_millis(100));
    let before = store.entry("main", "agent:main:scratch-2");
    for args in [
        vec!["patch", "agent:main:scratch-2", "--set", "label=\"x\""],
        vec!["archive", "agent:main:scratch-2"],
        vec!["delete", "agent:main:scratch-2", "--yes"],
    ] {
        let out = store.cmd().args(&args).arg("--json").output().unwrap();
        assert_eq!(out.status.code(), Some(75), "{args:?}");
        assert_eq!(json(&out)["error"]["code"], "OWNER_UNAVAILABLE");
    }
    assert_eq!(store.entry("main", "agent:main:scratch-2"), before);
    holder.wait().unwrap();
}

#[test]
fn delete_with_backup_dir_snapshots_the_store_first() {
    let store = Store::copy("live");
    let dir = store.dir.path().join("safety");
    let out = store
        .cmd()
        .args([
            "delete",
            "agent:main:scratch-2",
            "agent:main:pinned-notes",
            "--yes",
            "--json",
            "--backup-dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let doc = json(&out);
    let snap = std::path::PathBuf::from(doc["data"]["results"][0]["snapshot"].as_str().unwrap());
    assert_eq!(
        std::fs::read_dir(&dir).unwrap().count(),
        2,
        "one snapshot per changed database: the agent's and the state database (its Gateway rows go too)"
    );
    let verify = store
        .cmd()
        .args(["backup", "verify"])
        .arg(&snap)
        .output()
        .unwrap();
    assert!(verify.status.success());
    // The snapshot still holds the deleted sessions.
    let db = rusqlite::Connection::open_with_flags(
        snap.join("database.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let n: i64 = db.query_row("SELECT count(*) FROM session_nodes WHERE session_key IN ('agent:main:scratch-2', 'agent:main:pinned-notes')", [], |r| r.get(0)).unwrap();
    assert_eq!(n, 2);
}

/// `kill -9` at every point of a multi-key delete, one run per point (a `--fail-after` hook):
/// each time the store passes `integrity_check`, and every session is either untouched or
/// deleted with its archive row; a re-run finishes and publishes every archive.
#[test]
fn multi_key_delete_killed_at_every_point() {
    let keys = [
        "agent:main:acp:9911cc46-d649-47bb-9968-72da7c2daff9",
        "agent:main:cron:nightly:run:884",
        "agent:main:hook:7a41e6f5-b97d-4c51-b472-0830fd1c2815",
        "agent:main:pinned-notes",
        "agent:main:dashboard:review-ui",
        "agent:main:telegram:group:-100123456784",
    ];
    let pristine = Store::copy("live");
    let originals: Vec<Value> = keys
        .iter()
        .map(|k| pristine.entry("main", k).unwrap())
        .collect();
    let mut runs = 0;
    for n in 1..200 {
        let store = Store::copy("live");
        let out = store
            .cmd()
            .arg("delete")
            .args(keys)
            .arg("--yes")
            .env("OPENCLAW_SESSIONS_CRASH_AFTER", n.to_string())
            .output()
            .unwrap();
        if out.status.success() {
            break; // n is past the last crash point: the whole run completed
        }
        runs += 1;
        integrity(&store, "main");
        for (k, original) in keys.iter().zip(&originals) {
            let now = store.entry("main", k);
            let archived = count(
                &store,
                "SELECT count(*) FROM session_transcript_archives WHERE session_key = ?1",
                k,
            );
            match now {
                Some(e) => {
                    assert_eq!(&e, original, "run {n}: {k} half-changed");
                    assert_eq!(archived, 0, "run {n}: {k} archived but not deleted");
                }
                None => assert_eq!(archived, 1, "run {n}: {k} deleted without its archive"),
            }
        }
        // Whatever was published is complete and matches its row.
        let db = store.writable("main");
        for e in std::fs::read_dir(store.state().join("agents/main/sessions"))
            .unwrap()
            .flatten()
        {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.ends_with(".zst") {
                let sha: Option<String> = db.query_row("SELECT archive_sha256 FROM session_transcript_archives WHERE archive_name = ?1", [&name], |r| r.get(0)).ok();
                use sha2::Digest;
                let actual = format!(
                    "{:x}",
                    sha2::Sha256::digest(std::fs::read(e.path()).unwrap())
                );
                assert_eq!(sha.as_deref(), Some(actual.as_str()), "run {n}: {name}");
            }
        }
        drop(db);
        // Re-run the same command: the survivors go, pending archives are published.
        let again = store
            .cmd()
            .arg("delete")
            .args(keys)
            .arg("--yes")
            .output()
            .unwrap();
        assert!(
            matches!(again.status.code(), Some(0) | Some(3) | Some(4)),
            "run {n}: {}",
            String::from_utf8_lossy(&again.stderr)
        );
        for k in keys {
            assert!(
                store.entry("main", k).is_none(),
                "run {n}: {k} survived the re-run"
            );
        }
        let pending = count(&store, "SELECT count(*) FROM session_transcript_archives WHERE published_at IS NULL AND ?1 = ?1", "");
        assert_eq!(pending, 0, "run {n}: archives left unpublished");
        integrity(&store, "main");
    }
    eprintln!("multi-key delete: killed at {runs} points");
    assert!(runs >= 20, "only {runs} crash points were reached");
}

#[test]
fn patch_killed_at_every_point() {
    let mut crashed = 0;
    let mut finished = false;
    for n in 1..10 {
        let store = Store::copy("live");
        let before = store.entry("main", "agent:main:main").unwrap();
        let out = store
            .cmd()
            .args(["patch", "agent:main:main", "--set", "label=\"Crash\""])
            .env("OPENCLAW_SESSIONS_CRASH_AFTER", n.to_string())
            .output()
            .unwrap();
        if out.status.success() {
            // Fewer than n points: the patch is done.
            assert_eq!(
                store.entry("main", "agent:main:main").unwrap()["label"],
                "Crash"
            );
            finished = true;
            break;
        }
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            out.status.signal(),
            Some(libc::SIGABRT),
            "run {n}: failed without crashing: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        crashed += 1;
        integrity(&store, "main");
        let after = store.entry("main", "agent:main:main").unwrap();
        assert!(
            after == before || after["label"] == "Crash",
            "run {n}: half a patch"
        );
        let (valid, label, _, _, pending) = node_row(&store, "agent:main:main");
        assert_eq!(valid, 1, "run {n}");
        assert_eq!(
            label.as_deref(),
            after["label"].as_str(),
            "run {n}: column and entry disagree"
        );
        // Imported rows start out pending validation; a committed patch certifies the key.
        assert!(after == before || !pending, "run {n}");
    }
    eprintln!("patch: crashed at {crashed} points, then finished");
    assert!(finished, "the patch never finished: more than 9 points?");
    assert!(crashed >= 1, "no crash point was reached");
}

#[test]
fn delete_removes_the_state_database_rows_of_the_session() {
    let store = Store::copy("live");
    let state = rusqlite::Connection::open(store.state().join("state/openclaw.sqlite")).unwrap();
    let key = "agent:main:scratch-2";
    state
        .execute_batch(&format!(
            "INSERT INTO session_state_heads (session_key, agent_id, last_sequence, updated_at) VALUES ('{key}', 'main', 1, 0), ('agent:main:main', 'main', 1, 0);
             INSERT INTO session_watch_cursors (watcher_session_key, target_session_key, updated_at) VALUES ('agent:main:main', '{key}', 0), ('agent:main:main', 'agent:main:pinned-notes', 0);
             INSERT INTO session_state_events (session_key, agent_id, kind, actor_type, occurred_at, summary) VALUES ('{key}', 'main', 'k', 'system', 0, 's');"
        ))
        .unwrap();
    drop(state);
    assert!(store
        .cmd()
        .args(["delete", key, "--yes"])
        .output()
        .unwrap()
        .status
        .success());
    let state = rusqlite::Connection::open(store.state().join("state/openclaw.sqlite")).unwrap();
    let count = |sql: &str| state.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
    assert_eq!(
        count(&format!(
            "SELECT count(*) FROM session_state_heads WHERE session_key = '{key}'"
        )),
        0
    );
    assert_eq!(
        count(&format!(
            "SELECT count(*) FROM session_state_events WHERE session_key = '{key}'"
        )),
        0
    );
    assert_eq!(
        count(&format!(
            "SELECT count(*) FROM session_watch_cursors WHERE target_session_key = '{key}'"
        )),
        0
    );
    assert_eq!(
        count("SELECT count(*) FROM session_state_heads"),
        1,
        "other sessions' rows stay"
    );
    assert_eq!(count("SELECT count(*) FROM session_watch_cursors"), 1);
}

/// Selectors on the commands that change sessions: `list`'s filters (`--kind`,
/// `--updated-before`, `--match`, ...) over the sessions in scope and `--keys-from FILE|-`;
/// the plan names every match before anything changes; nothing matching changes nothing
/// (exit 0); naming nothing at all is a usage error.
#[test]
fn archive_and_delete_take_lists_filters_and_keys_from_stdin() {
    let store = Store::copy("live");
    let listed = store.json_ok([
        "--all-agents",
        "list",
        "--kind",
        "cron",
        "--updated-before",
        "1d",
        "--limit",
        "all",
        "--json",
    ]);
    let expected: Vec<String> = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["sessionKey"].as_str().unwrap().to_string())
        .collect();
    assert!(expected.len() >= 2, "{listed}");
    let plan = store.run_ok([
        "--all-agents",
        "delete",
        "--kind",
        "cron",
        "--updated-before",
        "1d",
        "--dry-run",
    ]);
    let plan = String::from_utf8_lossy(&plan.stdout).to_string();
    for key in &expected {
        assert!(
            plan.contains(key.as_str()),
            "{key} not in the plan:\n{plan}"
        );
    }
    let done = store.json_ok([
        "--all-agents",
        "delete",
        "--kind",
        "cron",
        "--updated-before",
        "1d",
        "--yes",
        "--json",
    ]);
    let mut deleted: Vec<String> = done["data"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["sessionKey"].as_str().unwrap().to_string())
        .collect();
    deleted.sort();
    let mut expected = expected;
    expected.sort();
    assert_eq!(deleted, expected, "{done}");
    // Keys from stdin, comments and blank lines skipped.
    let out = store
        .cmd()
        .args(["archive", "--keys-from", "-", "--yes", "--json"])
        .write_stdin("agent:main:sdk-made-0\n# a comment\n\nagent:main:sdk-made-1\n")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let doc = json(&out);
    let results: Vec<&str> = doc["data"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["archived", "archived"], "{doc}");
    // Nothing matching: nothing changed, exit 0; nothing named: a usage error.
    let sums = checksums(&store.state());
    store.run_ok(["delete", "--match", "no-such-session-text", "--yes"]);
    assert_eq!(checksums(&store.state()), sums);
    store.run_code(["delete", "--yes"], 2);
}

/// `patch` takes the selectors of archive and delete (was: exactly one KEY): the filters of
/// `list` and `--keys-from FILE|-`, every match named in the plan with its changes, each
/// session patched the same way (`results` per key in --json); `--expect-*` name one
/// session's state and are refused with a selector.
#[test]
fn patch_takes_lists_filters_and_keys_from_stdin() {
    let store = Store::copy("live");
    let listed = store.json_ok(["list", "--kind", "group", "--limit", "all", "--json"]);
    let mut expected: Vec<String> = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["sessionKey"].as_str().unwrap().to_string())
        .collect();
    assert!(expected.len() >= 2, "{listed}");
    let plan = store.run_ok(["patch", "--kind", "group", "--set", "label=Ops", "-n"]);
    let plan = String::from_utf8_lossy(&plan.stdout).to_string();
    for key in &expected {
        let line = plan.lines().find(|l| l.contains(key.as_str()));
        assert!(
            line.is_some_and(|l| l.contains(r#"label: "#) && l.contains(r#""Ops""#)),
            "{key} not in the plan with its change:\n{plan}"
        );
    }
    let done = store.json_ok([
        "patch",
        "--kind",
        "group",
        "--set",
        "label=Ops",
        "--yes",
        "--json",
    ]);
    let mut patched: Vec<String> = done["data"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .inspect(|r| assert_eq!(r["result"], "patched", "{done}"))
        .map(|r| r["sessionKey"].as_str().unwrap().to_string())
        .collect();
    patched.sort();
    expected.sort();
    assert_eq!(patched, expected, "{done}");
    let relisted = store.json_ok(["list", "--kind", "group", "--limit", "all", "--json"]);
    for row in relisted["data"].as_array().unwrap() {
        assert_eq!(row["label"], "Ops", "{row}");
    }
    // Keys from stdin, comments and blank lines skipped.
    let out = store
        .cmd()
        .args([
            "patch",
            "--keys-from",
            "-",
            "--unset",
            "label",
            "--yes",
            "--json",
        ])
        .write_stdin("agent:main:pinned-notes\n# a comment\n\nagent:main:scratch-1\n")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let doc = json(&out);
    let keys: Vec<&str> = doc["data"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["sessionKey"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        ["agent:main:pinned-notes", "agent:main:scratch-1"],
        "{doc}"
    );
    // A guard of one session's state with a selector: a usage error, nothing changed.
    let sums = checksums(&store.state());
    store.run_code(
        [
            "patch",
            "--kind",
            "group",
            "--set",
            "label=x",
            "--expect-updated-at",
            "1",
            "--yes",
        ],
        2,
    );
    // Nothing matching: nothing changed, exit 0.
    store.run_ok([
        "patch",
        "--match",
        "no-such-session-text",
        "--set",
        "label=x",
        "--yes",
    ]);
    assert_eq!(checksums(&store.state()), sums);
}
