//! What an admin meets on a damaged or sensitive store: an unreadable entry is still a session
//! (shown raw, deleted, replaced), OpenClaw's own refusals (the main session, archives and
//! patches that change nothing), and `patch` validating like OpenClaw's entry shape.

use serde_json::Value;

use crate::common::{checksums, expect_exit, json, Store};

/// Every file of the store but custody's lock files (each run takes and releases its own),
/// as the paths that differ from `before`.
fn changed(
    store: &Store,
    before: &std::collections::BTreeMap<std::path::PathBuf, String>,
) -> Vec<String> {
    let tmp = store.state().join("tmp");
    let now = checksums(&store.state());
    let mut out: Vec<String> = now
        .iter()
        .filter(|(p, h)| !p.starts_with(&tmp) && before.get(*p) != Some(h))
        .map(|(p, _)| p.display().to_string())
        .collect();
    out.extend(
        before
            .keys()
            .filter(|p| !p.starts_with(&tmp) && !now.contains_key(*p))
            .map(|p| format!("{} (removed)", p.display())),
    );
    out
}

const KEY: &str = "agent:main:cron:nightly:run:884";

fn sid(store: &Store, key: &str) -> String {
    store
        .writable("main")
        .query_row(
            "SELECT current_session_id FROM session_nodes WHERE session_key = ?1",
            [key],
            |r| r.get(0),
        )
        .unwrap()
}

fn break_entry(store: &Store, key: &str) {
    store
        .writable("main")
        .execute(
            "UPDATE session_nodes SET entry_json = '{\"oops\":' WHERE session_key = ?1",
            [key],
        )
        .unwrap();
}

fn text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn an_unreadable_entry_is_shown_raw_and_refused_for_changes() {
    let store = Store::copy("live");
    let id = sid(&store, KEY);
    break_entry(&store, KEY);
    // Resolvable by key and by session id; shown raw with the parse error.
    for words in [KEY, id.as_str()] {
        let doc = json(
            &store
                .cmd()
                .args(["show", words, "--json"])
                .output()
                .unwrap(),
        );
        assert_eq!(doc["ok"], true, "{doc}");
        assert_eq!(doc["data"]["sessionKey"], KEY);
        assert_eq!(doc["data"]["sessionId"], id.as_str());
        assert_eq!(doc["data"]["entryRaw"], "{\"oops\":");
        assert!(doc["data"]["entryError"]
            .as_str()
            .unwrap()
            .contains("not valid JSON"));
    }
    let human = store.run_ok(["show", KEY]);
    assert!(text(&human).contains("unreadable"), "{}", text(&human));
    // Its transcript is still readable.
    let cat = store.run_ok(["transcript", "cat", KEY]);
    assert!(cat.stdout.split(|b| *b == b'\n').count() > 2);
    // Changes that start from the entry are refused, saying why; nothing is written.
    let before = checksums(&store.state());
    for args in [
        vec!["patch", KEY, "--set", "label=\"x\"", "--yes"],
        vec!["archive", KEY, "--yes"],
        vec!["unarchive", KEY, "--yes"],
    ] {
        let out = store.cmd().args(&args).output().unwrap();
        let said = text(&out);
        assert_eq!(out.status.code(), Some(5), "{args:?}: {said}");
        assert!(said.contains("unreadable"), "{args:?}: {said}");
        assert!(
            !said.contains("no session") && !said.contains("missing"),
            "{args:?}: {said}"
        );
    }
    assert_eq!(changed(&store, &before), Vec::<String>::new());
}

#[test]
fn an_unreadable_entry_can_be_replaced() {
    let store = Store::copy("live");
    let id = sid(&store, KEY);
    break_entry(&store, KEY);
    let file = store.dir.path().join("fixed.json");
    std::fs::write(
        &file,
        format!("{{\"sessionId\":\"{id}\",\"updatedAt\":1780000000000,\"label\":\"Fixed\"}}"),
    )
    .unwrap();
    let out = store
        .cmd()
        .args(["patch", KEY, "--yes", "--json", "--replace-entry"])
        .arg(&file)
        .output()
        .unwrap();
    let doc = json(&out);
    expect_exit(&out, 0);
    assert_eq!(doc["data"]["result"], "patched");
    let shown = store.json_ok(["show", KEY, "--json"]);
    assert_eq!(shown["data"]["entry"]["label"], "Fixed");
    assert!(shown["data"]["entryError"].is_null());
    let doctor = json(
        &store
            .cmd()
            .args(["doctor", "entry-json", "projected-columns", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(
        doctor["data"]["findings"],
        serde_json::json!([]),
        "{doctor}"
    );
    // A replacement with another session id is refused (the id is not patchable).
    std::fs::write(
        &file,
        "{\"sessionId\":\"someone-else\",\"updatedAt\":1780000000000}",
    )
    .unwrap();
    break_entry(&store, KEY);
    let other = store
        .cmd()
        .args(["patch", KEY, "--yes", "--replace-entry"])
        .arg(&file)
        .output()
        .unwrap();
    expect_exit(&other, 2);
}

#[test]
fn an_unreadable_entry_can_be_deleted_with_its_transcript_archived() {
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
    assert!(events > 0);
    break_entry(&store, KEY);
    let doc = store.json_ok(["delete", KEY, "--yes", "--json"]);
    let result = &doc["data"]["results"][0];
    assert_eq!(result["result"], "deleted", "{doc}");
    let name = result["archive"][0]["archiveName"].as_str().unwrap();
    assert!(name.starts_with(&id));
    assert!(store
        .state()
        .join("agents/main/sessions")
        .join(name)
        .is_file());
    store.run_code(["show", KEY], 4);
    // The archive holds every event (zstd JSON Lines, OpenClaw's format).
    let file = std::fs::read(store.state().join("agents/main/sessions").join(name)).unwrap();
    let jsonl = zstd::decode_all(&file[..]).unwrap();
    let lines = String::from_utf8(jsonl)
        .unwrap()
        .lines()
        .filter(|l| !l.is_empty())
        .count();
    assert_eq!(lines as i64, events);
}

/// `doctor --fix` repairs an unreadable entry as OpenClaw's doctor does (rebuilt from the
/// row's columns, same key and session id, transcript untouched), after keeping the row as it
/// was where `show` prints it back. The dry run writes nothing.
#[test]
fn doctor_fix_rebuilds_an_unreadable_entry_and_keeps_the_row() {
    let store = Store::copy("live");
    let keys = [
        "agent:main:pinned-notes",
        "agent:main:subagent:461fb4b4-4eee-4160-baf0-ce3d5dbdd820",
    ];
    let events = |id: &str| -> i64 {
        store
            .writable("main")
            .query_row(
                "SELECT count(*) FROM transcript_events WHERE session_id = ?1",
                [id],
                |r| r.get(0),
            )
            .unwrap()
    };
    let mut before = Vec::new();
    for key in keys {
        let shown = store.json_ok(["show", key, "--json"]);
        let id = sid(&store, key);
        before.push((shown["data"].clone(), events(&id)));
        break_entry(&store, key);
    }
    let doctor = json(
        &store
            .cmd()
            .args(["doctor", "entry-json", "--json"])
            .output()
            .unwrap(),
    );
    let findings = doctor["data"]["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 2, "{doctor}");
    assert!(findings.iter().all(|f| f["fixable"] == true), "{doctor}");
    // The dry run writes nothing.
    let sums = checksums(&store.state());
    let dry = store
        .cmd()
        .args(["doctor", "entry-json", "--fix", "--dry-run", "--yes"])
        .output()
        .unwrap();
    assert_eq!(
        changed(&store, &sums),
        Vec::<String>::new(),
        "{}",
        text(&dry)
    );
    let fix = store
        .cmd()
        .args(["doctor", "entry-json", "--fix", "--yes", "--json"])
        .output()
        .unwrap();
    let doc = json(&fix);
    expect_exit(&fix, 0);
    assert!(doc["data"]["fixed"][0]
        .as_str()
        .unwrap()
        .contains("rebuilt the unreadable entry"));
    for (key, (old, old_events)) in keys.iter().zip(&before) {
        let shown = store.json_ok(["show", key, "--json"]);
        let d = &shown["data"];
        assert!(d["entryError"].is_null(), "{shown}");
        assert_eq!(d["sessionId"], old["sessionId"]);
        // Every projected column is as it was before the entry broke.
        assert_eq!(d["columns"], old["columns"], "{key}");
        // (A `parentSessionKey` equal to `spawnedBy` is left out, as OpenClaw's rebuild does:
        // it reads as `spawnedBy` and the column above says the same.)
        for field in [
            "label",
            "pinnedAt",
            "spawnedBy",
            "updatedAt",
            "chatType",
            "model",
        ] {
            assert_eq!(d["entry"][field], old["entry"][field], "{key} {field}");
        }
        assert_eq!(events(d["sessionId"].as_str().unwrap()), *old_events);
        // The row as it was, read back.
        let q = &d["quarantined"][0];
        assert_eq!(q["entryJson"], "{\"oops\":", "{shown}");
        assert_eq!(q["sessionKey"], *key);
        assert_eq!(q["sessionId"], old["sessionId"]);
        assert!(q["parseError"].as_str().unwrap().contains("not valid JSON"));
        assert!(std::path::Path::new(q["file"].as_str().unwrap()).is_file());
        let human = text(&store.run_ok(["show", key]));
        assert!(
            human.contains("Unreadable entry rebuilt by doctor --fix")
                && human.contains("{\"oops\":"),
            "{human}"
        );
    }
    let after = json(
        &store
            .cmd()
            .args(["doctor", "entry-json", "projected-columns", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(after["data"]["findings"], serde_json::json!([]), "{after}");
}

#[test]
fn the_main_session_cannot_be_deleted() {
    let store = Store::copy("live");
    let before = checksums(&store.state());
    for words in ["agent:main:main", "main", "AGENT:MAIN:MAIN", " main"] {
        let out = store
            .cmd()
            .args(["delete", words, "--yes", "--json"])
            .output()
            .unwrap();
        let doc = json(&out);
        assert_eq!(out.status.code(), Some(5), "{words}: {doc}");
        let r = &doc["data"]["results"][0];
        assert_eq!(r["result"], "refused", "{words}: {doc}");
        assert_eq!(
            r["reason"], "Cannot delete the main session (agent:main:main).",
            "{words}"
        );
    }
    // Another agent's main session too, and a dry run says so.
    let out = store
        .cmd()
        .args(["delete", "agent:work:main", "--dry-run"])
        .output()
        .unwrap();
    assert!(
        text(&out).contains("Cannot delete the main session (agent:work:main)."),
        "{}",
        text(&out)
    );
    assert_eq!(changed(&store, &before), Vec::<String>::new());
}

/// Archiving the agent's main session is refused as OpenClaw refuses it, exit 5, nothing
/// written; "main" is `agent:<id>:<session.mainKey>`, not any key ending in `:main`.
#[test]
fn the_main_session_cannot_be_archived() {
    let store = Store::copy("live");
    let before = checksums(&store.state());
    let archive = |key: &str, extra: &[&str]| {
        let out = store
            .cmd()
            .args(["archive", key, "--yes", "--json"])
            .args(extra)
            .output()
            .unwrap();
        let doc = json(&out);
        (out.status.code(), doc["data"]["results"][0].clone())
    };
    for key in ["agent:main:main", "agent:work:main"] {
        for extra in [&[][..], &["--dry-run"][..]] {
            let (code, r) = archive(key, extra);
            assert_eq!(code, Some(5), "{key} {extra:?}: {r}");
            assert_eq!(r["result"], "refused", "{key}: {r}");
            assert_eq!(r["reason"], "Cannot archive an agent's main session.");
        }
    }
    assert_eq!(changed(&store, &before), Vec::<String>::new());

    // With session.mainKey = pinned-notes, that session is the main one and `agent:main:main`
    // an ordinary session.
    let config = store.state().join("openclaw.json");
    let mut cfg: Value = serde_json::from_slice(&std::fs::read(&config).unwrap()).unwrap();
    cfg["session"] = serde_json::json!({ "mainKey": "pinned-notes" });
    std::fs::write(&config, serde_json::to_vec_pretty(&cfg).unwrap()).unwrap();
    let (code, r) = archive("agent:main:pinned-notes", &[]);
    assert_eq!(
        (code, r["result"].as_str()),
        (Some(5), Some("refused")),
        "{r}"
    );
    let (code, r) = archive("agent:main:main", &[]);
    assert_eq!(
        (code, r["result"].as_str()),
        (Some(0), Some("archived")),
        "{r}"
    );
}

/// `patch --set archivedAt=...` on the main session archives it as `archive` would, so it is
/// refused the same way (same words, exit 5, nothing written), dry run included.
#[test]
fn patching_archived_at_on_the_main_session_is_refused_as_archive_is() {
    let store = Store::copy("live");
    let before = checksums(&store.state());
    let archived = store
        .cmd()
        .args(["archive", "agent:main:main", "--yes", "--json"])
        .output()
        .unwrap();
    let words = json(&archived)["data"]["results"][0]["reason"].clone();
    assert_eq!(words, "Cannot archive an agent's main session.");
    for key in ["agent:main:main", "main", "agent:work:main"] {
        for extra in [&[][..], &["--dry-run"][..]] {
            let out = store
                .cmd()
                .args([
                    "patch",
                    key,
                    "--set",
                    "archivedAt=1780000000000",
                    "--yes",
                    "--json",
                ])
                .args(extra)
                .output()
                .unwrap();
            let doc = json(&out);
            assert_eq!(out.status.code(), Some(5), "{key} {extra:?}: {doc}");
            assert_eq!(doc["error"]["message"], words, "{key} {extra:?}: {doc}");
        }
    }
    assert_eq!(changed(&store, &before), Vec::<String>::new());
    // Another session takes the same patch; the main session takes other patches.
    let other = patch(
        &store,
        &["agent:main:scratch-1", "--set", "archivedAt=1780000000000"],
    );
    expect_exit(&other, 0);
    let label = patch(&store, &["agent:main:main", "--set", "label=\"Home\""]);
    expect_exit(&label, 0);
}

#[test]
fn archive_and_unarchive_that_change_nothing_write_nothing() {
    let store = Store::copy("live");
    let key = "agent:main:pinned-notes";
    let never = "agent:main:sdk-made-0";
    store.run_ok(["archive", key, "--yes"]);
    let before = checksums(&store.state());
    let result = |args: &[&str]| -> Value {
        let out = store.cmd().args(args).arg("--json").output().unwrap();
        expect_exit(&out, 0);
        json(&out)["data"]["results"][0]["result"].clone()
    };
    assert_eq!(result(&["archive", key, "--yes"]), "already_archived");
    assert_eq!(result(&["unarchive", never, "--yes"]), "already_active");
    assert_eq!(
        changed(&store, &before),
        Vec::<String>::new(),
        "a no-op wrote something"
    );
    // A patch that changes nothing writes nothing either (updatedAt is not bumped).
    let label = store.json_ok(["show", never, "--json"])["data"]["entry"]["label"].clone();
    let out = store
        .cmd()
        .args(["patch", never, "--yes", "--json", "--set"])
        .arg(format!("label={label}"))
        .output()
        .unwrap();
    assert_eq!(json(&out)["data"]["result"], "unchanged", "{}", text(&out));
    assert_eq!(changed(&store, &before), Vec::<String>::new());
}

fn patch(store: &Store, args: &[&str]) -> std::process::Output {
    store
        .cmd()
        .arg("patch")
        .args(args)
        .args(["--yes", "--json"])
        .output()
        .unwrap()
}

fn column(store: &Store, key: &str, col: &str) -> rusqlite::types::Value {
    store
        .writable("main")
        .query_row(
            &format!("SELECT {col} FROM session_nodes WHERE session_key = ?1"),
            [key],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn patch_validates_like_the_entry_shape() {
    let store = Store::copy("live");
    let key = "agent:main:scratch-2";
    let before = checksums(&store.state());
    // Unknown fields: refused with the closest known name.
    let out = patch(&store, &[key, "--set", "labl=Ops"]);
    let doc = json(&out);
    expect_exit(&out, 2);
    assert!(doc["error"]["hint"]
        .as_str()
        .unwrap()
        .contains("did you mean label?"));
    // Known fields are type-checked.
    for bad in [
        "pinnedAt=true",
        "pinnedAt=-5",
        "chatType=\"dm\"",
        "modelSelectionLocked=\"yes\"",
    ] {
        let out = patch(&store, &[key, "--set", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", text(&out));
    }
    // An updatedAt in the future is refused, not clamped.
    let out = patch(&store, &[key, "--set", "updatedAt=99999999999999"]);
    expect_exit(&out, 2);
    assert_eq!(
        changed(&store, &before),
        Vec::<String>::new(),
        "a refusal wrote something"
    );

    // Dotted paths set nested fields.
    let doc = json(&patch(
        &store,
        &[
            key,
            "--set",
            "delivery.kind=\"none\"",
            "--set",
            "acp.mode=\"x\"",
        ],
    ));
    let entry = &doc["data"]["after"];
    assert_eq!(entry["acp"]["mode"], "x", "{doc}");
    assert!(entry.get("delivery.kind").is_none() && entry.get("acp.mode").is_none());
    // pinnedAt keeps the pinned_at column in step.
    patch(&store, &[key, "--set", "pinnedAt=1780000000000"]);
    assert_eq!(
        column(&store, key, "pinned_at"),
        rusqlite::types::Value::Integer(1_780_000_000_000)
    );
    // An explicit updatedAt is honoured.
    let doc = json(&patch(&store, &[key, "--set", "updatedAt=5"]));
    assert_eq!(doc["data"]["after"]["updatedAt"], 5, "{doc}");
    assert_eq!(
        column(&store, key, "updated_at"),
        rusqlite::types::Value::Integer(5)
    );
    // The explicit flag allows a plugin's own field.
    let out = patch(
        &store,
        &[
            key,
            "--set",
            "myPluginSlot={\"a\":1}",
            "--allow-unknown-field",
        ],
    );
    expect_exit(&out, 0);
}

#[test]
fn doctor_names_a_known_field_of_the_wrong_type() {
    let store = Store::copy("live");
    let key = "agent:main:scratch-2";
    store
        .writable("main")
        .execute(
            "UPDATE session_nodes SET entry_json = json_set(entry_json, '$.pinnedAt', json('true')) WHERE session_key = ?1",
            [key],
        )
        .unwrap();
    let doc = json(&store.cmd().args(["doctor", "--json"]).output().unwrap());
    let f = doc["data"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["sessionKey"] == key && f["check"] == "entry-json")
        .unwrap_or_else(|| panic!("{doc}"))
        .clone();
    assert_eq!(f["columns"], serde_json::json!(["pinned_at"]), "{f}");
    assert!(f["message"].as_str().unwrap().contains("pinnedAt"));
}

/// Every projected column out of step is named, label included.
#[test]
fn doctor_names_every_projected_column_out_of_step() {
    let key = "agent:main:scratch-2";
    // The columns OpenClaw's entry writer projects from entry_json (owner_* it does not).
    let cols: Vec<(&str, &str)> = [
        "current_session_id",
        "updated_at",
        "status",
        "created_at",
        "created_via",
        "created_actor_type",
        "created_actor_id",
        "project_id",
        "parent_session_key",
        "spawned_by",
        "fork_source_session_key",
        "fork_source_session_id",
        "fork_source_entry_id",
        "label",
        "display_name",
        "category",
        "icon",
        "pinned_at",
        "archived_at",
        "last_read_at",
        "last_interaction_at",
        "last_activity_at",
    ]
    .into_iter()
    .map(|c| {
        (
            c,
            if c.ends_with("_at") {
                "INTEGER"
            } else {
                "TEXT"
            },
        )
    })
    .collect();
    let mut checked = 0;
    for (col, ty) in cols {
        let copy = Store::copy("live");
        let value = match (col, ty) {
            ("status", _) => "'killed'".to_string(),
            ("created_via", _) => "'talk'".to_string(),
            ("created_actor_type", _) => "'system'".to_string(),
            (_, "INTEGER") => "12345".to_string(),
            _ => "'drift'".to_string(),
        };
        let db = copy.writable("main");
        db.pragma_update(None, "foreign_keys", false).unwrap();
        db.execute(
            &format!("UPDATE session_nodes SET {col} = {value} WHERE session_key = ?1"),
            [key],
        )
        .unwrap();
        // The triggers reset entry_valid on some updates; keep only the column's drift.
        db.execute(
            "UPDATE session_nodes SET entry_valid = 1 WHERE session_key = ?1",
            [key],
        )
        .unwrap();
        drop(db);
        let doc = json(
            &copy
                .cmd()
                .args(["doctor", "projected-columns", "--json"])
                .output()
                .unwrap(),
        );
        let named = doc["data"]["findings"].as_array().unwrap().iter().any(|f| {
            f["sessionKey"] == key
                && f["columns"]
                    .as_array()
                    .is_some_and(|c| c.iter().any(|c| c == col))
        });
        assert!(named, "{col} out of step is not named: {doc}");
        checked += 1;
    }
    assert_eq!(checked, 22);
}

#[test]
fn every_mutation_resolves_keys_as_show_does() {
    let store = Store::copy("live");
    for words in [
        "AGENT:MAIN:PINNED-NOTES",
        " agent:main:pinned-notes",
        "pinned-notes",
    ] {
        let shown = store.json_ok(["show", words, "--json"]);
        assert_eq!(shown["data"]["sessionKey"], "agent:main:pinned-notes");
        let out = patch(&store, &[words, "--set", "label=\"Pinned notes 2\""]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "patch {words:?}: {}",
            text(&out)
        );
        for cmd in ["archive", "unarchive"] {
            let out = store
                .cmd()
                .args([cmd, words, "--yes", "--json"])
                .output()
                .unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{cmd} {words:?}: {}",
                text(&out)
            );
        }
        let dry = store
            .cmd()
            .args(["delete", words, "--dry-run", "--json"])
            .output()
            .unwrap();
        let doc = json(&dry);
        assert_eq!(dry.status.code(), Some(0), "delete {words:?}: {doc}");
    }
}

/// Peak resident memory (KiB) of the binary run with `args` on `store`, as `/usr/bin/time`
/// reports it. Not the test's own `wait4`: a child forked from this (large) test process
/// inherits its peak across `exec`; `time` is small, so its child starts clean.
fn peak_rss_kib(store: &Store, args: &[&str]) -> (i64, Vec<u8>) {
    let bin = crate::common::std_bin();
    let out = std::process::Command::new("/usr/bin/time")
        .args(["-f", "peak-rss-kib=%M"])
        .arg(bin.get_program())
        .envs(bin.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))))
        .env("HOME", store.dir.path())
        .arg("--state-dir")
        .arg(store.state())
        .args(args)
        .output()
        .expect("/usr/bin/time (GNU time) measures the peak");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let kib = err
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("peak-rss-kib="))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no peak in {err}"));
    (kib, out.stdout)
}

/// `transcript catalog` holds at most its 8 MiB page budget plus a constant: 300 messages of
/// 1 MiB each peak well under 32 MB, whatever `--limit`.
#[test]
fn catalog_memory_stays_within_its_page_budget() {
    let store = Store::copy("live");
    let key = "agent:main:scratch-2";
    let id = sid(&store, key);
    let db = store.writable("main");
    let last: i64 = db
        .query_row(
            "SELECT max(seq) FROM transcript_events WHERE session_id = ?1",
            [&id],
            |r| r.get(0),
        )
        .unwrap();
    let text = "x".repeat(1024 * 1024);
    let tx = db.unchecked_transaction().unwrap();
    for i in 0..300i64 {
        let parent = if i == 0 {
            "null".to_string()
        } else {
            format!("\"big-{}\"", i - 1)
        };
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        let json = format!(
            "{{\"type\":\"message\",\"id\":\"big-{i}\",\"parentId\":{parent},\"message\":{{\"role\":\"{role}\",\"content\":[{{\"type\":\"text\",\"text\":\"{text}\"}}]}}}}"
        );
        tx.execute(
            "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?1, ?2, ?3, 0)",
            rusqlite::params![id, last + 1 + i, json],
        )
        .unwrap();
    }
    tx.commit().unwrap();
    drop(db);
    for limit in ["5", "200"] {
        let (kib, out) = peak_rss_kib(
            &store,
            &["transcript", "catalog", key, "--json", "--limit", limit],
        );
        let doc: Value = serde_json::from_slice(&out).unwrap();
        let items = doc["data"]["items"].as_array().unwrap();
        assert!(!items.is_empty(), "{limit}");
        assert!(doc["data"]["nextCursor"].is_string(), "more pages remain");
        assert!(
            kib < 32 * 1024,
            "--limit {limit}: peak RSS {kib} KiB, over 32 MB"
        );
        eprintln!("catalog --limit {limit}: peak RSS {kib} KiB");
    }
}

fn acpx_problem_kinds(store: &Store) -> Vec<String> {
    let status = json(&store.cmd().args(["status", "--json"]).output().unwrap());
    status["data"]["acpx"]["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap().to_string())
        .collect()
}

fn acpx_findings(store: &Store) -> Vec<Value> {
    let doc = json(&store.cmd().args(["doctor", "--json"]).output().unwrap());
    doc["data"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "acpx-pending")
        .cloned()
        .collect()
}

/// Every ACPX state that hides sessions is reported by `status` and `doctor`, each time, with
/// what resolves it.
#[test]
fn acpx_states_that_hide_sessions_are_reported_every_time() {
    // Old records beside an occupied destination: hidden.
    let store = Store::copy("live");
    let old = crate::migrate_acpx::plant_old_state(&store);
    let dest = store.state().join("acpx/sessions");
    std::fs::create_dir_all(&dest).unwrap();
    std::fs::write(dest.join("other.json"), "{}").unwrap();
    assert_eq!(acpx_problem_kinds(&store), ["hidden-beside-occupied"]);
    let human = text(&store.run_ok(["status"]));
    assert!(
        human.contains("hidden")
            && human.contains("stateDir")
            && human.contains(old.to_str().unwrap()),
        "{human}"
    );
    let f = acpx_findings(&store);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0]["path"], old.to_str().unwrap());
    assert!(f[0]["hint"].as_str().unwrap().contains("stateDir"));

    // After a completed adoption the old copy is reported every time, not once.
    let store = Store::copy("live");
    crate::migrate_acpx::plant_old_state(&store);
    store.run_ok(["migrate", "acpx", "--yes"]);
    for _ in 0..3 {
        assert_eq!(acpx_problem_kinds(&store), ["leftover-after-adoption"]);
        assert_eq!(acpx_findings(&store).len(), 1);
    }

    // A move that died before its marker said completed:true.
    let store = Store::copy("live");
    crate::migrate_acpx::plant_old_state(&store);
    let out = store
        .cmd()
        .args(["migrate", "acpx", "--yes"])
        .env("OPENCLAW_SESSIONS_CRASH_AT", "acpx-before-publish")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(
        crate::migrate_acpx::marker(&store).unwrap()["completed"],
        false
    );
    let kinds = acpx_problem_kinds(&store);
    assert!(kinds.contains(&"incomplete".to_string()), "{kinds:?}");
    let f = acpx_findings(&store);
    assert!(
        f.iter()
            .any(|f| f["hint"].as_str().unwrap().contains(" migrate acpx`")),
        "{f:?}"
    );
    // The next run finishes the move; then only the old copy is reported.
    store.run_ok(["migrate", "acpx", "--yes"]);
    assert_eq!(acpx_problem_kinds(&store), ["leftover-after-adoption"]);
}

/// A failed move (a file in the old state that cannot be read: a socket that appears after
/// the plan, which refuses one it sees) says that the old location stays in use and how to
/// pin it; the marker it leaves is reported, and once the cause is gone the next run
/// finishes.
#[test]
fn a_failed_acpx_move_says_the_old_location_stays_in_use() {
    let store = Store::copy("live");
    let old = crate::migrate_acpx::plant_old_state(&store);
    let socket = old.join("cache/agent.sock");
    // Held at the point after the plan and the marker, before the copy.
    let child = crate::common::std_bin()
        .env("HOME", store.dir.path())
        .arg("--state-dir")
        .arg(store.state())
        .args(["migrate", "acpx", "--yes"])
        .env("OPENCLAW_SESSIONS_SIGNAL_AT", "acpx-before-copy:STOP")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let stopped = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| {
                s.rsplit(')')
                    .next()
                    .map(|r| r.trim_start().starts_with('T'))
            })
            .unwrap_or(false)
    };
    let waited = std::time::Instant::now();
    while !stopped() {
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(60),
            "the move never reached its stop"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    unsafe { libc::kill(pid as i32, libc::SIGCONT) };
    let out = child.wait_with_output().unwrap();
    let said = text(&out);
    assert!(!out.status.success(), "{said}");
    assert!(
        said.contains("stays in use")
            && said.contains("stateDir")
            && said.contains(old.to_str().unwrap()),
        "{said}"
    );
    assert!(!store.state().join("acpx").exists());
    assert_eq!(
        crate::migrate_acpx::marker(&store).unwrap()["completed"],
        false
    );
    let kinds = acpx_problem_kinds(&store);
    assert!(kinds.contains(&"incomplete".to_string()), "{kinds:?}");
    drop(listener);
    std::fs::remove_file(&socket).unwrap();
    store.run_ok(["migrate", "acpx", "--yes"]);
    assert_eq!(
        crate::migrate_acpx::marker(&store).unwrap()["completed"],
        true
    );
}

/// Deleting an ACP session removes what OpenClaw's SDK delete removes and reports the ACPX
/// plugin records that stay (OpenClaw's Gateway hands those to the plugin's own cleanup).
#[test]
fn deleting_an_acp_session_reports_the_plugin_records_that_stay() {
    let store = Store::copy("live");
    let key = "agent:main:acp:9911cc46-d649-47bb-9968-72da7c2daff9";
    let records = store.state().join("acpx/sessions");
    std::fs::create_dir_all(&records).unwrap();
    let mine = records.join("rec-mine.json");
    std::fs::write(
        &mine,
        format!("{{\"sessionKey\":\"{key}\",\"acpxRecordId\":\"r1\"}}"),
    )
    .unwrap();
    let other = records.join("rec-other.json");
    std::fs::write(&other, "{\"sessionKey\":\"agent:main:acp:someone-else\"}").unwrap();
    let out = store
        .cmd()
        .args(["delete", key, "--yes", "--json"])
        .output()
        .unwrap();
    let doc = json(&out);
    assert_eq!(doc["data"]["results"][0]["result"], "deleted", "{doc}");
    let warnings = doc["warnings"].to_string();
    assert!(
        warnings.contains("rec-mine.json") && !warnings.contains("rec-other.json"),
        "{doc}"
    );
    assert!(
        mine.exists() && other.exists(),
        "plugin records are reported, not removed"
    );
}
