//! Hostile layouts: symlinked components, hard-linked targets, targets outside the state dir,
//! and ids built to escape. Every mutating command that would write there refuses with
//! UNSAFE_PATH (exit 5) before it changes anything, and nothing appears outside the store.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::common::{checksums, expect_exit, json, Store};

/// Runs a mutating command that must be refused as unsafe, and checks that the state dir and
/// `outside` are byte for byte as they were.
fn refused(store: &Store, outside: &Path, args: &[&str]) -> Value {
    let (state, away) = (checksums(&store.state()), checksums(outside));
    let out = store.cmd().arg("--json").args(args).output().unwrap();
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(5), "{args:?}: {doc}");
    assert_eq!(doc["error"]["code"], "UNSAFE_PATH", "{args:?}: {doc}");
    // Custody's lock files come and go; nothing else in the store may change.
    let strip = |m: BTreeMap<PathBuf, String>| -> BTreeMap<PathBuf, String> {
        m.into_iter()
            .filter(|(p, _)| !p.starts_with(crate::content::custody_dir(store)))
            .collect()
    };
    assert!(
        strip(checksums(&store.state())) == strip(state),
        "{args:?}: the store changed"
    );
    assert!(
        checksums(outside) == away,
        "{args:?}: something was written outside"
    );
    doc
}

/// A directory outside the store, beside it in the test's temp dir.
fn outside(store: &Store) -> PathBuf {
    let p = store.dir.path().join("elsewhere");
    std::fs::create_dir_all(&p).unwrap();
    p
}

/// Replace `path` (inside the store) by a symlink to a copy of it outside.
fn move_out_and_link(store: &Store, path: &Path) -> PathBuf {
    let away = outside(store).join(path.file_name().unwrap());
    std::fs::rename(path, &away).unwrap();
    std::os::unix::fs::symlink(&away, path).unwrap();
    away
}

const DELETE: [&str; 3] = ["delete", "agent:main:pinned-notes", "--yes"];
const PRUNE: [&str; 6] = ["prune", "--agent", "main", "--older-than", "1d", "--yes"];
const PATCH: [&str; 5] = [
    "patch",
    "agent:main:main",
    "--set",
    "label=\"hostile\"",
    "--yes",
];

#[test]
fn a_symlinked_sessions_directory_is_never_written_through() {
    for args in [&DELETE[..], &PRUNE[..]] {
        let store = Store::copy("live");
        let away = move_out_and_link(&store, &store.state().join("agents/main/sessions"));
        let doc = refused(&store, &away, args);
        assert!(
            doc["error"]["message"]
                .as_str()
                .unwrap()
                .contains("symbolic link"),
            "{doc}"
        );
    }
    // The legacy import moves its sources out of sessions/.
    let store = Store::copy("legacy");
    let away = move_out_and_link(&store, &store.state().join("agents/main/sessions"));
    refused(
        &store,
        &away,
        &["migrate", "legacy", "--agent", "main", "--yes"],
    );
}

#[test]
fn a_symlinked_database_or_agent_directory_is_refused() {
    for args in [
        &PATCH[..],
        &DELETE[..],
        &PRUNE[..],
        &["archive", "agent:main:scratch-1", "--yes"][..],
    ] {
        let store = Store::copy("live");
        let away = move_out_and_link(&store, &store.agent_db("main"));
        refused(&store, away.parent().unwrap(), args);
        let store = Store::copy("live");
        let away = move_out_and_link(&store, &store.state().join("agents/main/agent"));
        refused(&store, &away, args);
    }
}

#[test]
fn a_hard_linked_database_is_refused() {
    for args in [
        &PATCH[..],
        &DELETE[..],
        &PRUNE[..],
        &["doctor", "--fix", "--yes"][..],
    ] {
        let store = Store::copy("live");
        // doctor --fix needs something to repair in that database.
        store
            .writable("main")
            .execute("UPDATE session_nodes SET label = 'drift' WHERE session_key = 'agent:main:pinned-notes'", [])
            .unwrap();
        let away = outside(&store);
        std::fs::hard_link(store.agent_db("main"), away.join("alias.sqlite")).unwrap();
        let doc = refused(&store, &away, args);
        assert!(
            doc["error"]["message"]
                .as_str()
                .unwrap()
                .contains("hard links"),
            "{args:?}: {doc}"
        );
    }
}

#[test]
fn a_database_outside_the_state_dir_is_not_changed_in_place() {
    let store = Store::copy("live");
    let away = outside(&store);
    let db = away.join("copy.sqlite");
    std::fs::copy(store.agent_db("main"), &db).unwrap();
    let db = db.to_str().unwrap().to_string();
    for args in [&PATCH[..], &DELETE[..]] {
        let mut a = vec!["--store", db.as_str()];
        a.extend_from_slice(args);
        let doc = refused(&store, &away, &a);
        assert!(
            doc["error"]["message"]
                .as_str()
                .unwrap()
                .contains("outside the state dir"),
            "{doc}"
        );
    }
}

#[test]
fn a_transcript_id_built_to_escape_is_not_archived() {
    let store = Store::copy("live");
    // A second window of the session, under an id that names a path outside sessions/.
    store
        .writable("main")
        .execute(
            "INSERT INTO session_windows (session_id, session_key, created_at, updated_at) \
             VALUES ('../../../escaped', 'agent:main:pinned-notes', 0, 0)",
            [],
        )
        .unwrap();
    let away = store.dir.path().to_path_buf();
    let before = checksums(&away);
    let out = store.cmd().arg("--json").args(DELETE).output().unwrap();
    let doc = json(&out);
    expect_exit(&out, 5);
    assert_eq!(doc["error"]["code"], "UNSAFE_PATH", "{doc}");
    let after = checksums(&away);
    let new: Vec<&PathBuf> = after.keys().filter(|p| !before.contains_key(*p)).collect();
    assert!(
        new.iter()
            .all(|p| p.to_string_lossy().contains("/tmp/openclaw")),
        "files appeared: {new:?}"
    );
    assert!(
        store
            .writable("main")
            .query_row(
                "SELECT count(*) FROM session_nodes WHERE session_key = 'agent:main:pinned-notes'",
                [],
                |r| r.get::<_, i64>(0)
            )
            .unwrap()
            == 1,
        "the session is still there"
    );
}

/// Session keys are data, never paths: a legacy import names its archive files after them, and
/// keys built to climb out (`../`, an absolute path) still land inside the import archive.
#[test]
fn session_keys_built_to_escape_stay_inside_the_import_archive() {
    let store = Store::copy("legacy");
    let sessions = store.state().join("agents/main/sessions");
    let index = sessions.join("sessions.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&index).unwrap()).unwrap();
    let main = v["agent:main:main"].clone();
    let source = sessions.join(format!("{}.jsonl", main["sessionId"].as_str().unwrap()));
    for (n, key) in [
        "agent:main:../../../../../escaped",
        "agent:main:/abs/escaped",
    ]
    .iter()
    .enumerate()
    {
        let id = format!("0000000{n}-1111-4222-8333-444444444444");
        let mut e = main.clone();
        e["sessionId"] = Value::from(id.clone());
        e.as_object_mut().unwrap().remove("sessionFile");
        v[*key] = e;
        std::fs::copy(&source, sessions.join(format!("{id}.jsonl"))).unwrap();
    }
    std::fs::write(&index, v.to_string()).unwrap();
    let before = checksums(store.dir.path());
    store.run_ok(["--json", "migrate", "legacy", "--agent", "main", "--yes"]);
    let archive = store
        .state()
        .join("agents/main/session-sqlite-import-archive");
    let new: Vec<PathBuf> = checksums(store.dir.path())
        .into_keys()
        .filter(|p| !before.contains_key(p))
        .collect();
    assert!(!new.is_empty());
    for p in &new {
        assert!(
            p.starts_with(store.state()),
            "written outside the store: {p:?}"
        );
        if p.to_string_lossy().contains("escaped") {
            assert_eq!(p.parent(), Some(archive.as_path()), "{p:?}");
        }
    }
    assert_eq!(
        new.iter()
            .filter(|p| p.to_string_lossy().contains("escaped"))
            .count(),
        2,
        "{new:?}"
    );
    // Five levels up from the import archive is the directory holding this test's store.
    let above = store.dir.path().parent().unwrap();
    let climbed: Vec<_> = std::fs::read_dir(above)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().contains("escaped"))
        .collect();
    assert!(climbed.is_empty(), "{climbed:?}");
}
