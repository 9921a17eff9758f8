//! Canonical session keys (issue 37): nothing this tool writes makes OpenClaw refuse the store.
//! Every key written (lineage fields through `patch`, `undelete --as`) passes OpenClaw
//! 2026.9.6's canonical-key rules or is refused before any change (exit 5, its words), and
//! the doctor names each row OpenClaw's read would refuse.

use openclaw_sessions::formats::session_key::{is_canonical, write_refusal};
use proptest::prelude::*;

use crate::common::{json, Store};

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
    assert_eq!(out.status.code(), Some(3));
    // The fixture itself is canonical.
    let clean = Store::copy("live");
    let out = clean.cmd().args(["doctor", "--json"]).output().unwrap();
    assert!(
        !json(&out).to_string().contains("canonical-keys\""),
        "{}",
        json(&out)
    );
}
