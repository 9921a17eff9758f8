//! Canonical session keys (issue 37): nothing this tool writes makes OpenClaw refuse the store.
//! Every key written (lineage fields through `patch`, `undelete --as`) passes OpenClaw
//! 2026.9.6's canonical-key rules or is refused before any change (exit 5, its words), and
//! the doctor names each row OpenClaw's read would refuse.

use openclaw_sessions::formats::session_key::{is_canonical, write_refusal};
use proptest::prelude::*;

use crate::common::{assert_foreign_keys, expect_exit, json, Store};

const KEY: &str = "agent:main:scratch-1";

fn row(store: &Store) -> (String, Option<String>, Option<String>, Option<String>) {
    store
        .writable("main")
        .query_row(
            "SELECT entry_json, parent_session_key, spawned_by, fork_source_session_key
             FROM session_nodes WHERE session_key = ?1",
            [KEY],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap()
}

fn lineage_value() -> impl Strategy<Value = String> {
    let prefix = prop_oneof![
        Just("agent:main:"),
        Just("AGENT:MAIN:"),
        Just("agent:Main:"),
        Just("agent:work:"),
        Just(""),
        Just(" "),
        Just("agent:"),
        Just("global"),
        Just("Unknown"),
    ];
    let suffix = prop_oneof![Just(""), Just(" "), Just("\t"), Just(":"), Just("\u{a0}")];
    (prefix, "[a-zA-Z0-9 :\u{e9}\u{c9}\u{130}-]{0,8}", suffix)
        .prop_map(|(p, r, s)| format!("{p}{r}{s}"))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 32,
        failure_persistence: None,
        rng_algorithm: proptest::test_runner::RngAlgorithm::ChaCha,
        ..ProptestConfig::default()
    })]

    /// A random lineage value is either refused with OpenClaw's words (exit 5, the row
    /// unchanged) or stored canonical, in the entry and its column.
    #[test]
    fn lineage_patches_are_refused_or_stored_canonical(
        field in 0usize..3,
        value in lineage_value(),
    ) {
        let store = Store::copy("live");
        let before = row(&store);
        let encoded = serde_json::to_string(&value).unwrap();
        let set = match field {
            0 => format!("parentSessionKey={encoded}"),
            1 => format!("spawnedBy={encoded}"),
            _ => format!("forkSource={{\"sessionKey\":{encoded},\"sessionId\":\"x\"}}"),
        };
        let out = store.cmd().args(["patch", KEY, "--set", &set]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        let after = row(&store);
        match out.status.code() {
            Some(5) => {
                prop_assert!(stderr.contains("refusing non-canonical session key write"), "{stderr}");
                prop_assert_eq!(&before, &after);
                prop_assert!(write_refusal(&value, "main").is_some(), "{value:?}");
            }
            Some(0) => {
                prop_assert!(is_canonical(&value), "{value:?} stored: {after:?}");
                for v in [&after.1, &after.2, &after.3].into_iter().flatten() {
                    prop_assert!(is_canonical(v), "{v:?}");
                }
            }
            other => prop_assert!(false, "{value:?}: exit {other:?}: {stderr}"),
        }
    }
}

#[test]
fn undelete_as_a_non_canonical_key_is_refused_and_sentinels_are_stored_bare() {
    let store = Store::copy("live");
    let archive = "f41211d0-f8c6-4159-b013-18288254e649";
    for bad in [
        "agent:main:",
        "agent:main::",
        "agent:main: ",
        "agent:main:\t",
    ] {
        let out = store
            .cmd()
            .args(["undelete", archive, "--as", bad, "--yes"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(5), "{bad:?}: {stderr}");
        assert!(
            stderr.contains("refusing non-canonical session key write"),
            "{bad:?}: {stderr}"
        );
    }
    let out = store
        .cmd()
        .args(["undelete", archive, "--as", "global", "--dry-run", "--json"])
        .output()
        .unwrap();
    let doc = json(&out);
    assert!(
        doc.to_string().contains("\"global\""),
        "--as global is OpenClaw's sentinel: {doc}"
    );
}

#[test]
fn the_doctor_names_each_row_openclaw_would_refuse() {
    let store = Store::copy("live");
    let db = store.writable("main");
    db.execute(
        "UPDATE session_nodes SET parent_session_key = 'AGENT:MAIN:X',
         entry_json = json_set(entry_json, '$.parentSessionKey', 'AGENT:MAIN:X')
         WHERE session_key = ?1",
        [KEY],
    )
    .unwrap();
    drop(db);
    let out = store
        .cmd()
        .args(["doctor", "--json", "--agent", "main"])
        .output()
        .unwrap();
    let doc = json(&out);
    let findings: Vec<_> = doc["data"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "canonical-keys")
        .collect();
    assert_eq!(findings.len(), 1, "{doc}");
    assert_eq!(findings[0]["sessionKey"], KEY);
    let message = findings[0]["message"].as_str().unwrap();
    assert!(
        message.contains("non-canonical persisted row resolves to session key agent:main:x"),
        "{message}"
    );
    expect_exit(&out, 3);
    // The fixture itself is canonical.
    let clean = Store::copy("live");
    let out = clean.cmd().args(["doctor", "--json"]).output().unwrap();
    assert!(
        !json(&out).to_string().contains("canonical-keys\""),
        "{}",
        json(&out)
    );
}

/// `doctor --fix` does what OpenClaw 2026.9.6's `doctor --fix` did on the same rows
/// (docs/openclaw/HOSTILE.md §8): the upper-case key a legacy import stores moves to its key
/// normalized; each lineage value is rewritten normalized (an empty one removed) in the entry,
/// its columns and the current window; `agent:main:` stays, as OpenClaw's doctor leaves it.
/// The expected values are those OpenClaw's doctor wrote.
#[test]
fn doctor_fix_canonicalizes_keys_as_openclaws_doctor_does() {
    let store = Store::copy("legacy");
    let index = store.state().join("agents/main/sessions/sessions.json");
    let text = std::fs::read_to_string(&index).unwrap();
    let text = text.replace(
        "\"agent:main:telegram:direct:123454\"",
        "\"agent:main:Telegram:Direct:UPPER\"",
    );
    std::fs::write(&index, text).unwrap();
    let out = store
        .cmd()
        .args(["migrate", "legacy", "--all-agents", "--yes"])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    // The lineage values as this tool's patch wrote them before it refused them: the entry
    // as given, the columns trimmed.
    let db = store.writable("main");
    let plant = |key: &str, path: &str, value: &str, columns: &[(&str, Option<&str>)]| {
        db.execute(
            &format!(
                "UPDATE session_nodes SET entry_json = json_set(entry_json, '{path}', ?2)
                 WHERE session_key = ?1"
            ),
            [key, value],
        )
        .unwrap();
        for (column, v) in columns {
            db.execute(
                &format!("UPDATE session_nodes SET {column} = ?2 WHERE session_key = ?1"),
                rusqlite::params![key, v],
            )
            .unwrap();
        }
        db.execute(
            "UPDATE session_nodes SET entry_valid = 1 WHERE session_key = ?1",
            [key],
        )
        .unwrap();
    };
    plant(
        "agent:main:scratch-1",
        "$.parentSessionKey",
        "AGENT:MAIN:X",
        &[("parent_session_key", Some("AGENT:MAIN:X"))],
    );
    plant(
        "agent:main:scratch-1",
        "$.spawnedBy",
        "  agent:main:main  ",
        &[("spawned_by", Some("agent:main:main"))],
    );
    db.execute(
        "UPDATE session_nodes SET entry_json = json_set(entry_json, '$.forkSource',
           json('{\"sessionKey\":\"AGENT:MAIN:Y\",\"sessionId\":\"4755de3e-0000-0000-0000-000000000000\"}')),
         fork_source_session_key = 'AGENT:MAIN:Y',
         fork_source_session_id = '4755de3e-0000-0000-0000-000000000000', entry_valid = 1
         WHERE session_key = 'agent:main:scratch-2'",
        [],
    )
    .unwrap();
    plant(
        "agent:main:dashboard:review-ui",
        "$.parentSessionKey",
        "agent:main:",
        &[("parent_session_key", Some("agent:main:"))],
    );
    plant(
        "agent:main:cron:nightly:run:884",
        "$.parentSessionKey",
        "",
        &[],
    );
    plant(
        "agent:main:pinned-notes",
        "$.spawnedBy",
        "agent:main:Upper",
        &[
            ("parent_session_key", Some("agent:main:Upper")),
            ("spawned_by", Some("agent:main:Upper")),
        ],
    );
    db.execute_batch(
        "UPDATE session_windows SET parent_session_key = 'AGENT:MAIN:X', spawned_by = 'agent:main:main'
           WHERE session_key = 'agent:main:scratch-1';
         UPDATE session_windows SET parent_session_key = 'agent:main:'
           WHERE session_key = 'agent:main:dashboard:review-ui';
         UPDATE session_windows SET spawned_by = 'agent:main:Upper'
           WHERE session_key = 'agent:main:pinned-notes';",
    )
    .unwrap();
    let before: Vec<(String, String, i64)> = db
        .prepare("SELECT session_key, entry_json, updated_at FROM session_nodes ORDER BY current_session_id")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    drop(db);

    let canonical = |store: &Store| -> Vec<serde_json::Value> {
        let out = store
            .cmd()
            .args(["doctor", "--json", "--agent", "main"])
            .output()
            .unwrap();
        json(&out)["data"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["check"] == "canonical-keys")
            .cloned()
            .collect()
    };
    let found = canonical(&store);
    let keys: Vec<&str> = found
        .iter()
        .map(|f| f["sessionKey"].as_str().unwrap())
        .collect();
    assert_eq!(found.len(), 6, "{found:#?}");
    for key in [
        "agent:main:Telegram:Direct:UPPER",
        "agent:main:scratch-1",
        "agent:main:scratch-2",
        "agent:main:dashboard:review-ui",
        "agent:main:cron:nightly:run:884",
        "agent:main:pinned-notes",
    ] {
        let f = found
            .iter()
            .find(|f| f["sessionKey"] == key)
            .unwrap_or_else(|| panic!("{key}: {keys:?}"));
        assert_eq!(f["fixable"], key != "agent:main:dashboard:review-ui", "{f}");
    }
    let empty = found
        .iter()
        .find(|f| f["sessionKey"] == "agent:main:cron:nightly:run:884")
        .unwrap();
    assert!(
        empty["message"].as_str().unwrap().contains(
            "invalid persisted session row requires repair for agent:main:cron:nightly:run:884"
        ),
        "{empty}"
    );

    let out = store
        .cmd()
        .args(["doctor", "--fix", "--yes", "--json", "--agent", "main"])
        .output()
        .unwrap();
    let doc = json(&out);
    let fixed = doc.to_string();
    assert!(fixed.contains("as OpenClaw's doctor --fix does"), "{doc:#}");

    // Only the row OpenClaw's doctor leaves is still found.
    let left = canonical(&store);
    assert_eq!(left.len(), 1, "{left:#?}");
    assert_eq!(left[0]["sessionKey"], "agent:main:dashboard:review-ui");

    let db = store.writable("main");
    type Node = (
        String,
        String,
        Option<String>,
        Option<String>,
        Option<String>,
        i64,
    );
    let node = |id: &str| -> Node {
        db.query_row(
            "SELECT session_key, entry_json, parent_session_key, spawned_by,
                    fork_source_session_key, updated_at
             FROM session_nodes WHERE current_session_id = ?1",
            [id],
            |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            },
        )
        .unwrap()
    };
    let window = |id: &str| -> (String, Option<String>, Option<String>) {
        db.query_row(
            "SELECT session_key, parent_session_key, spawned_by FROM session_windows
             WHERE session_id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap()
    };
    let entry = |n: &Node| -> serde_json::Value { serde_json::from_str(&n.1).unwrap() };
    let was = |key: &str| before.iter().find(|b| b.0 == key).unwrap().clone();
    let s = |v: &str| Some(v.to_string());

    // The upper-case key: moved to its key normalized, entry and updatedAt unchanged.
    let upper = node("21fb0a97-0ec1-4f01-b5e6-fb7502418ab1");
    assert_eq!(upper.0, "agent:main:telegram:direct:upper");
    let prior = was("agent:main:Telegram:Direct:UPPER");
    assert_eq!((upper.1.as_str(), upper.5), (prior.1.as_str(), prior.2));
    assert_eq!(
        window("21fb0a97-0ec1-4f01-b5e6-fb7502418ab1").0,
        "agent:main:telegram:direct:upper"
    );
    let gone: i64 = db
        .query_row(
            "SELECT count(*) FROM session_nodes WHERE session_key = 'agent:main:Telegram:Direct:UPPER'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(gone, 0);

    let one = node("9e59a4d4-80e9-41b8-a7f6-26efc4ae0a86");
    assert_eq!(entry(&one)["parentSessionKey"], "agent:main:x");
    assert_eq!(entry(&one)["spawnedBy"], "agent:main:main");
    assert_eq!(
        (one.2.clone(), one.3.clone()),
        (s("agent:main:x"), s("agent:main:main"))
    );
    assert_eq!(one.5, was("agent:main:scratch-1").2);
    let w = window("9e59a4d4-80e9-41b8-a7f6-26efc4ae0a86");
    assert_eq!((w.1, w.2), (s("agent:main:x"), s("agent:main:main")));

    let two = node("4755de3e-4215-40b9-a147-e4fe746a50d3");
    assert_eq!(
        entry(&two)["forkSource"],
        serde_json::json!({"sessionKey": "agent:main:y", "sessionId": "4755de3e-0000-0000-0000-000000000000"})
    );
    assert_eq!(two.4, s("agent:main:y"));

    let cron = node("35813266-2c71-460f-92aa-7007b0d762a8");
    assert!(entry(&cron).get("parentSessionKey").is_none(), "{}", cron.1);
    assert_eq!(cron.2, None);

    let pinned = node("c11d8540-2656-4573-b1f0-e6fee19fdfb1");
    assert_eq!(entry(&pinned)["spawnedBy"], "agent:main:upper");
    assert_eq!(
        (pinned.2.clone(), pinned.3.clone()),
        (s("agent:main:upper"), s("agent:main:upper"))
    );
    let w = window("c11d8540-2656-4573-b1f0-e6fee19fdfb1");
    assert_eq!((w.1, w.2), (None, s("agent:main:upper")));

    let dash = node("bd3c2ab5-88b1-412d-a728-850508f6ff76");
    assert_eq!(entry(&dash)["parentSessionKey"], "agent:main:");
    assert_foreign_keys(&db, "");
}
