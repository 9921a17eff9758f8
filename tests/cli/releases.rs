//! Stores written by older OpenClaw releases' own code (tests/fixtures/openclaw-<release>/,
//! docs/openclaw/RELEASES.md): every read works and changes nothing, every change is refused
//! before it changes anything with the remedies that work, and nothing cuts the release off its
//! store.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::common::{assert_integrity, checksums, expect_exit, json, Store};

/// The releases of older agent schemas, with their schema: 19 and 21.
const OLDER: [(&str, i64); 2] = [("2026.8.2", 19), ("2026.9.5", 21)];

fn release_list(release: &str, variant: &str) -> Value {
    let path = format!(
        "{}/tests/fixtures/openclaw-{release}/{}report/sessions-all-agents.json",
        env!("CARGO_MANIFEST_DIR"),
        if variant == "upgraded" {
            "upgraded/"
        } else {
            ""
        }
    );
    serde_json::from_slice(&std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))).unwrap()
}

/// (agentId, key, sessionId, updatedAt) of every session a release's own list shows.
fn release_sessions(release: &str, variant: &str) -> BTreeSet<(String, String, String, i64)> {
    release_list(release, variant)["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["agentId"].as_str().unwrap().to_string(),
                s["key"].as_str().unwrap().to_string(),
                s["sessionId"].as_str().unwrap().to_string(),
                s["updatedAt"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn our_sessions(store: &Store) -> BTreeSet<(String, String, String, i64)> {
    let out = store.run_ok(["list", "--all-agents", "--json", "--limit", "all"]);
    json(&out)["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["agentId"].as_str().unwrap().to_string(),
                s["sessionKey"].as_str().unwrap().to_string(),
                s["sessionId"].as_str().unwrap().to_string(),
                s["updatedAt"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// A channel session of agent main, present in every generated store.
fn some_key(store: &Store) -> String {
    our_sessions(store)
        .into_iter()
        .find(|(a, k, _, _)| a == "main" && k.contains("discord:channel"))
        .map(|(_, k, _, _)| k)
        .expect("a discord channel session of agent main")
}

/// Every file of the store but the custody coordinators under `tmp/openclaw-<uid>/`, which
/// taking custody writes (OpenClaw's own lock protocol) before any refusal can be judged.
fn store_files(store: &Store) -> std::collections::BTreeMap<std::path::PathBuf, String> {
    let locks = store.state().join("tmp");
    checksums(&store.state())
        .into_iter()
        .filter(|(p, _)| !p.starts_with(&locks))
        .collect()
}

fn read_only_commands(key: &str) -> Vec<Vec<String>> {
    [
        "status",
        "status --json",
        "list --all-agents",
        "list --all-agents --json --limit all",
        "show KEY",
        "show KEY --json",
        "transcript cat KEY",
        "transcript delta KEY --json",
        "transcript catalog KEY --json",
        "transcript export KEY --format markdown",
        "archives list --all-agents",
        "archives list --all-agents --json",
        "search summarize --all-agents",
        "search summarize --all-agents --archived",
        "du --all-agents",
        "doctor --all-agents",
        "doctor --all-agents --json",
        "prune --all-agents --dry-run",
        "delete KEY --dry-run",
        "archive KEY --dry-run",
        "migrate legacy --all-agents --dry-run",
    ]
    .iter()
    .map(|c| {
        c.split(' ')
            .map(|w| w.replace("KEY", key))
            .collect::<Vec<_>>()
    })
    .collect()
}

#[test]
fn every_read_of_an_older_release_store_works_and_changes_nothing() {
    for (release, schema) in OLDER {
        let store = Store::copy_release(release, "live");
        let key = some_key(&store);
        let before = checksums(&store.state());
        for args in read_only_commands(&key) {
            let out = store.cmd().args(&args).output().unwrap();
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(out.status.code(), Some(0), "{release} {args:?}: {text}");
            assert!(
                !text.contains("no such table")
                    && !text.contains("no such column")
                    && !text.contains("panicked"),
                "{release} {args:?}: {text}"
            );
        }
        assert!(
            checksums(&store.state()) == before,
            "{release}: a read changed the store"
        );
        // The release's own list, and the schema it is of.
        assert_eq!(
            our_sessions(&store),
            release_sessions(release, "live"),
            "{release}"
        );
        assert!(our_sessions(&store).len() >= 35, "{release}");
        let status = store.json_ok(["status", "--json"]);
        let main = status["data"]["agents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["agentId"] == "main")
            .unwrap();
        assert_eq!(main["database"]["schema"]["userVersion"], schema);
        assert_eq!(main["database"]["schema"]["appVersion"], release);
        assert_eq!(
            main["database"]["schema"]["openedBy"],
            if schema == 19 {
                "OpenClaw 2026.8.1 to 2026.9.4"
            } else {
                "OpenClaw 2026.9.5"
            }
        );
        assert_eq!(
            main["database"]["schema"]["openedAfterDoctorFix"],
            if schema == 19 {
                "OpenClaw 2026.9.5 to 2026.9.6"
            } else {
                "OpenClaw 2026.9.6"
            }
        );
        let opened = status["data"]["releases"]["openAsIs"].to_string();
        assert!(opened.contains(release), "{release}: {opened}");
        assert_eq!(status["data"]["releases"]["agree"], true);
    }
}

#[test]
fn transcript_cat_prints_an_older_release_rows_byte_for_byte() {
    for (release, _) in OLDER {
        let store = Store::copy_release(release, "live");
        let mut compared = 0;
        for (agent, key, sid, _) in our_sessions(&store) {
            let conn = rusqlite::Connection::open_with_flags(
                store.agent_db(&agent),
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
            )
            .unwrap();
            let mut stmt = conn
                .prepare(
                    "SELECT event_json FROM transcript_events WHERE session_id = ?1 ORDER BY seq",
                )
                .unwrap();
            let rows: Vec<String> = stmt
                .query_map([&sid], |r| r.get(0))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap();
            let want: String = rows.iter().map(|r| format!("{r}\n")).collect();
            let out = store.run_ok(["transcript", "cat", &key, "--agent", &agent]);
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                want,
                "{release} {key}"
            );
            compared += usize::from(!rows.is_empty());
        }
        assert!(compared >= 30, "{release}: {compared} transcripts compared");
    }
}

#[test]
fn a_prune_of_a_schema_19_store_follows_its_owners_cleanup_and_an_unknown_owner_is_refused() {
    // 2026.8.1 to 2026.9.4 write agent schema 19, beside a state database at 15 (2026.8.x,
    // 2026.9.1, 2026.9.2), 16 and 17. Each owner's cleanup is proven by the reference suite
    // (release_prune_19, release_prune_19_of_2026_9_1 to _9_4); the state database's schema and
    // creator (`schema_meta.app_version`) tell the owner, so 2026.8.2's store stands for theirs
    // relabelled.
    let as_owned_by = |state_schema: i64, creator: &str| {
        let store = Store::copy_release("2026.8.2", "live");
        let conn = rusqlite::Connection::open(store.state().join("state/openclaw.sqlite")).unwrap();
        conn.pragma_update(None, "user_version", state_schema)
            .unwrap();
        conn.execute(
            "UPDATE schema_meta SET app_version = ?1 WHERE meta_key = 'primary'",
            [creator],
        )
        .unwrap();
        store
    };
    let actions = |doc: &Value| -> Vec<(String, String)> {
        doc["data"]["agents"][0]["actions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                (
                    a["sessionKey"].as_str().unwrap().to_string(),
                    a["action"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let cli = "agent:research:explicit:cli-research";
    // 2026.9.3's and 2026.9.4's: 2026.9.5's rules (an old CLI session archived for age, not
    // removed as 2026.8.2 removes it).
    for (state_schema, creator) in [(16, "2026.9.3"), (17, "2026.9.4")] {
        let store = as_owned_by(state_schema, creator);
        let doc = store.json_ok(["--json", "prune", "--agent", "research", "--dry-run"]);
        assert!(
            actions(&doc).contains(&(cli.to_string(), "archive-age".to_string())),
            "{creator}: {doc}"
        );
        // The current rules go unnamed.
        assert!(doc["data"]["agents"][0].get("rulesOf").is_none(), "{doc}");
    }
    // 2026.8.x's, 2026.9.1's and 2026.9.2's remove it; 2026.8.x removes the stale entries in
    // key order, 2026.9.1 and 2026.9.2 oldest first.
    let updated: std::collections::HashMap<String, i64> =
        our_sessions(&as_owned_by(15, "2026.8.2"))
            .into_iter()
            .map(|(_, k, _, u)| (k, u))
            .collect();
    for creator in ["2026.8.2", "2026.9.1", "2026.9.2"] {
        let store = as_owned_by(15, creator);
        let plan = store.json_ok(["--json", "prune", "--agent", "research", "--dry-run"]);
        let stale: Vec<String> = actions(&plan)
            .into_iter()
            .filter(|(_, a)| a == "prune-stale")
            .map(|(k, _)| k)
            .collect();
        assert!(stale.contains(&cli.to_string()), "{creator}: {plan}");
        // The dry run names the rules it follows.
        assert_eq!(
            plan["data"]["agents"][0]["rulesOf"],
            format!("OpenClaw {creator}"),
            "{plan}"
        );
        let shown = store.run_ok(["prune", "--agent", "research", "--dry-run"]);
        assert!(
            String::from_utf8_lossy(&shown.stdout)
                .contains(&format!("by OpenClaw {creator}'s own rules (its store):")),
            "{}",
            String::from_utf8_lossy(&shown.stdout)
        );
        let mut by_key = stale.clone();
        by_key.sort();
        let mut by_age = stale.clone();
        by_age.sort_by_key(|k| (updated[k], std::cmp::Reverse(k.clone())));
        assert_ne!(by_key, by_age, "the fixture tells the two orders apart");
        let want = if creator == "2026.8.2" {
            by_key
        } else {
            by_age
        };
        assert_eq!(stale, want, "{creator}");
        // The real run does what the dry run showed.
        let done = store.json_ok([
            "--json",
            "prune",
            "--agent",
            "research",
            "--enforce",
            "--yes",
        ]);
        assert_eq!(actions(&done), actions(&plan), "{creator}");
        assert!(store.entry("research", cli).is_none(), "{creator}");
        // The cap (work's sessions are ordinary ones): 2026.9.2's archives them, 2026.8.x's and
        // 2026.9.1's remove them.
        let capped = store.json_ok([
            "--json",
            "prune",
            "--agent",
            "work",
            "--max-entries",
            "1",
            "--dry-run",
        ]);
        let capped = actions(&capped);
        let (archives, removes) = (
            capped.iter().any(|(_, a)| a == "archive-cap"),
            capped.iter().any(|(_, a)| a == "prune-cap"),
        );
        assert_eq!(
            (archives, removes),
            (creator == "2026.9.2", creator != "2026.9.2"),
            "{creator}: {capped:?}"
        );
        assert_integrity(&store.writable("research"), creator);
    }
    // An owner of 19 whose cleanup is not reproduced: refused, named, nothing changed.
    let release = "2026.9.0";
    let store = as_owned_by(15, release);
    let before = store_files(&store);
    for args in [
        vec!["prune", "--all-agents", "--enforce", "--yes"],
        vec![
            "prune",
            "--agent",
            "work",
            "--max-entries",
            "1",
            "--enforce",
            "--yes",
        ],
    ] {
        let out = store.cmd().arg("--json").args(&args).output().unwrap();
        let doc = json(&out);
        assert_eq!(out.status.code(), Some(6), "{release} {args:?}: {doc}");
        assert_eq!(doc["error"]["code"], "UNSUPPORTED_SCHEMA", "{doc}");
        let message = doc["error"]["message"].as_str().unwrap();
        let hint = doc["error"]["hint"].as_str().unwrap();
        assert!(
            message.contains(&format!("agent schema 19 in a store of OpenClaw {release}"))
                && message.contains("nothing was changed"),
            "{message}"
        );
        assert!(
            hint.contains("`openclaw doctor --fix`")
                && hint.contains(" migrate schema`")
                && hint.contains("can no longer open it afterwards"),
            "{hint}"
        );
    }
    // The dry run shows the plan and says what the real run meets.
    let out = store.run_code(["prune", "--all-agents", "--dry-run"], 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the real run would be refused") && err.contains(release),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("delete agent:research:"));
    assert!(store_files(&store) == before, "{release}: changed");
}

#[test]
fn an_upgraded_store_reads_as_the_release_that_upgraded_it_lists_it() {
    let store = Store::copy_release("2026.8.2", "upgraded");
    let before = checksums(&store.state());
    assert_eq!(
        our_sessions(&store),
        release_sessions("2026.8.2", "upgraded")
    );
    let key = some_key(&store);
    for args in read_only_commands(&key) {
        let out = store.cmd().args(&args).output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(checksums(&store.state()) == before);
}

#[test]
fn a_pre_sqlite_store_lists_its_legacy_sessions_and_refuses_the_import() {
    let store = Store::copy_release("2026.7.35", "live");
    let sessions = our_sessions(&store);
    assert!(sessions.len() >= 35, "{}", sessions.len());
    let before = store_files(&store);
    let out = store
        .cmd()
        .args(["--json", "migrate", "legacy", "--all-agents", "--yes"])
        .output()
        .unwrap();
    let doc = json(&out);
    expect_exit(&out, 6);
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("OpenClaw 2026.7.35 and older") && message.contains("sessions.json"),
        "{message}"
    );
    assert!(store_files(&store) == before);
}

/// The release's imported store with agent research back to its legacy files.
pub(crate) fn one_agent_still_legacy(release: &str) -> Store {
    let store = Store::copy_release(release, "imported");
    let research = store.state().join("agents/research");
    std::fs::remove_dir_all(&research).unwrap();
    crate::common::copy_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
            "tests/fixtures/openclaw-{release}/legacy/.openclaw/agents/research"
        )),
        &research,
    );
    store
}

/// Rows an import writes that depend neither on the clock nor on where the store is.
fn imported_rows(db: &std::path::Path) -> Vec<String> {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let mut out = Vec::new();
    for sql in [
        "SELECT session_id || ' ' || seq || ' ' || created_at || ' ' || event_json FROM transcript_events ORDER BY session_id, seq",
        "SELECT session_key || ' ' || current_session_id || ' ' || entry_json FROM session_nodes ORDER BY session_key",
        "SELECT rowid || ' ' || session_id || ' ' || message_id || ' ' || text FROM session_transcript_fts ORDER BY rowid",
        "SELECT session_id || ' ' || active_position || ' ' || event_seq FROM session_transcript_active_events ORDER BY 1",
        "SELECT role || ' ' || schema_version || ' ' || agent_id || ' ' || app_version FROM schema_meta",
    ] {
        let mut stmt = conn.prepare(sql).unwrap();
        let rows = stmt.query_map([], |r| r.get::<_, String>(0)).unwrap();
        out.extend(rows.map(Result::unwrap));
    }
    out
}

#[test]
fn an_import_beside_an_older_release_is_at_its_schema_as_its_own_import() {
    // Agent research back to its legacy files, the others at the release's schema: the import
    // creates research as that release's own import did (its committed `imported/` store).
    for (release, schema) in OLDER {
        let store = one_agent_still_legacy(release);
        let before = store_files(&store);
        let out = store
            .cmd()
            .args(["migrate", "legacy", "--agent", "research", "--dry-run"])
            .output()
            .unwrap();
        expect_exit(&out, 0);
        let plan = String::from_utf8_lossy(&out.stdout);
        assert!(
            plan.contains(&format!(
                "at schema {schema}, as OpenClaw {release} creates it"
            )),
            "{plan}"
        );
        assert!(store_files(&store) == before, "a dry run changed the store");
        let out = store
            .cmd()
            .args([
                "--json", "migrate", "legacy", "--agent", "research", "--yes",
            ])
            .output()
            .unwrap();
        expect_exit(&out, 0);
        let imported = &json(&out)["data"]["agents"][0];
        assert_eq!(imported["schemaOfRelease"], release, "{imported}");
        assert_eq!(imported["schema"], schema, "{imported}");
        let db = store
            .state()
            .join("agents/research/agent/openclaw-agent.sqlite");
        // A copy: even a read-only open leaves a `-shm` beside a WAL database.
        let reference = Store::copy_release(release, "imported");
        let theirs = reference.agent_db("research");
        assert_eq!(schema_dump(&db), schema_dump(&theirs), "{release}");
        let rows = imported_rows(&db);
        assert!(rows.len() > 400, "{}", rows.len());
        assert!(rows == imported_rows(&theirs), "{release}: rows differ");
        assert_integrity(&rusqlite::Connection::open(&db).unwrap(), release);
        // Every session of every agent, as after the release's own import of all three.
        assert_eq!(our_sessions(&store), our_sessions(&reference));
        let manifest = std::fs::read_dir(store.state().join("session-sqlite-migration-runs"))
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .filter(|m| m.contains("\"research\""))
            .count();
        assert!(manifest >= 1);
    }
}

/// The 2026.8.2 store with agent research back to its legacy files, its state database at
/// `state_schema` and naming `release` (`schema_meta.app_version`), as a store of that release
/// is: the import goes by both.
fn one_agent_still_legacy_of(state_schema: i64, release: &str) -> Store {
    let store = one_agent_still_legacy("2026.8.2");
    let conn = rusqlite::Connection::open(store.state().join("state/openclaw.sqlite")).unwrap();
    conn.pragma_update(None, "user_version", state_schema)
        .unwrap();
    conn.execute(
        "UPDATE schema_meta SET app_version = ?1 WHERE meta_key = 'primary'",
        [release],
    )
    .unwrap();
    conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
        .unwrap();
    store
}

#[test]
fn an_import_beside_a_2026_9_owner_of_schema_19_is_at_its_schema_as_its_own_import() {
    // 2026.9.2 to 2026.9.4 create agent 19 with one index more than 2026.8.2 (the schema their
    // own import wrote, captured from 2026.9.4's store for the schema upgrade); 2026.9.1 the
    // same as 2026.8.2. The rows are 2026.8.2's import's (the reference suite's
    // legacy_import_at_release_schema_of_2026_9_* compares with each release's own import).
    let dumps = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/schema-upgrade/dumps"
    );
    let with_index = std::fs::read_to_string(format!(
        "{dumps}/agent-19-to-23.from-2026.9.4.before.schema.sql"
    ))
    .unwrap();
    let reference = Store::copy_release("2026.8.2", "imported");
    let theirs = reference.agent_db("research");
    for (state_schema, release) in [
        (16, "2026.9.3"),
        (17, "2026.9.4"),
        (15, "2026.9.2"),
        (15, "2026.9.1"),
    ] {
        let store = one_agent_still_legacy_of(state_schema, release);
        let before = store_files(&store);
        let out = store
            .cmd()
            .args(["migrate", "legacy", "--agent", "research", "--dry-run"])
            .output()
            .unwrap();
        expect_exit(&out, 0);
        let plan = String::from_utf8_lossy(&out.stdout);
        assert!(
            plan.contains(&format!("at schema 19, as OpenClaw {release} creates it")),
            "{release}: {plan}"
        );
        assert!(store_files(&store) == before, "a dry run changed the store");
        let doc = store.json_ok([
            "--json", "migrate", "legacy", "--agent", "research", "--yes",
        ]);
        let imported = &doc["data"]["agents"][0];
        assert_eq!(imported["schemaOfRelease"], release, "{imported}");
        assert_eq!(imported["schema"], 19, "{imported}");
        let db = store
            .state()
            .join("agents/research/agent/openclaw-agent.sqlite");
        if release == "2026.9.1" {
            assert_eq!(schema_dump(&db), schema_dump(&theirs), "{release}");
        } else {
            assert_eq!(schema_dump(&db), with_index, "{release}");
        }
        let ours = imported_rows(&db);
        assert!(ours.len() > 400, "{}", ours.len());
        let renamed: Vec<String> = imported_rows(&theirs)
            .into_iter()
            .map(|r| {
                r.replace(
                    "agent 19 research 2026.8.2",
                    &format!("agent 19 research {release}"),
                )
            })
            .collect();
        assert!(ours == renamed, "{release}: rows differ");
        assert_integrity(&rusqlite::Connection::open(&db).unwrap(), release);
        assert_eq!(our_sessions(&store), our_sessions(&reference), "{release}");
        // The state database stays at its schema, naming its release.
        let state = rusqlite::Connection::open_with_flags(
            store.state().join("state/openclaw.sqlite"),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .unwrap();
        let (version, named, registered): (i64, String, i64) = state
            .query_row(
                "SELECT (SELECT user_version FROM pragma_user_version), \
                 (SELECT app_version FROM schema_meta WHERE meta_key = 'primary'), \
                 (SELECT schema_version FROM agent_databases WHERE agent_id = 'research')",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(
            (version, named.as_str(), registered),
            (state_schema, release, 19)
        );
    }
    // Chosen on a store with no database yet: both created at 2026.9.3's schemas.
    let store = Store::copy_release("2026.8.2", "legacy");
    store.json_ok([
        "--json",
        "migrate",
        "legacy",
        "--all-agents",
        "--schema-of-release",
        "2026.9.3",
        "--yes",
    ]);
    for agent in ["main", "work", "research"] {
        let db = store.agent_db(agent);
        assert_eq!(schema_dump(&db), with_index, "{agent}");
    }
    let state_dump = std::fs::read_to_string(format!(
        "{dumps}/state-16-to-18.from-2026.9.3.before.schema.sql"
    ))
    .unwrap();
    assert_eq!(
        schema_dump(&store.state().join("state/openclaw.sqlite")),
        state_dump
    );
    assert_eq!(our_sessions(&store), our_sessions(&reference));
}

#[test]
fn an_import_beside_an_unproven_older_release_is_refused() {
    // A store of 2026.8.1-beta.1 (agent 16, state 6): its own import is not reproduced, and one
    // at schema 23 would cut it off the store.
    let store = one_agent_still_legacy("2026.8.2");
    for (db, version) in [
        (store.state().join("state/openclaw.sqlite"), 6),
        (store.agent_db("main"), 16),
        (store.agent_db("work"), 16),
    ] {
        rusqlite::Connection::open(&db)
            .unwrap()
            .execute_batch(&format!(
                "PRAGMA user_version = {version}; PRAGMA wal_checkpoint(TRUNCATE);"
            ))
            .unwrap();
    }
    let before = store_files(&store);
    for dry in [false, true] {
        let mut cmd = store.cmd();
        cmd.args(["--json", "migrate", "legacy", "--agent", "research"]);
        cmd.arg(if dry { "--dry-run" } else { "--yes" });
        let out = cmd.output().unwrap();
        let doc = json(&out);
        if dry {
            expect_exit(&out, 0);
            assert!(
                doc["warnings"].to_string().contains("2026.8.1-beta.1"),
                "{doc}"
            );
        } else {
            expect_exit(&out, 6);
            let message = doc["error"]["message"].as_str().unwrap();
            assert!(
                message.contains("OpenClaw 2026.8.1-beta.1")
                    && message.contains("create agent research at schema 23"),
                "{message}"
            );
            let hint = doc["error"]["hint"].as_str().unwrap();
            assert!(
                hint.contains("2026.8.2, 2026.9.1, 2026.9.2, 2026.9.3, 2026.9.4, 2026.9.5"),
                "{hint}"
            );
        }
    }
    assert!(store_files(&store) == before);
}

#[test]
fn schema_of_release_chooses_the_schema_and_is_refused_where_it_does_not_fit() {
    // A store with no database yet: the release named creates both, as its own import.
    let store = Store::copy_release("2026.8.2", "legacy");
    let out = store
        .cmd()
        .args([
            "--json",
            "migrate",
            "legacy",
            "--all-agents",
            "--schema-of-release",
            "2026.8.2",
            "--yes",
        ])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    let reference = Store::copy_release("2026.8.2", "imported");
    for agent in ["main", "work", "research"] {
        let db = store
            .state()
            .join(format!("agents/{agent}/agent/openclaw-agent.sqlite"));
        let theirs = reference.agent_db(agent);
        assert_eq!(schema_dump(&db), schema_dump(&theirs), "{agent}");
        assert!(
            imported_rows(&db) == imported_rows(&theirs),
            "{agent}: rows differ"
        );
    }
    let state = store.state().join("state/openclaw.sqlite");
    let theirs = reference.state().join("state/openclaw.sqlite");
    assert_eq!(schema_dump(&state), schema_dump(&theirs));
    assert_eq!(our_sessions(&store), our_sessions(&reference));

    // 2026.9.5 does not open agent databases at 19 as they are; 2026.8.1-beta.1's import is
    // not reproduced; a word that is no release is a usage error.
    let store = one_agent_still_legacy("2026.8.2");
    let before = store_files(&store);
    for (release, code, words) in [
        ("2026.9.5", 6, "agent main at schema 19"),
        ("2026.8.1-beta.1", 6, "not available"),
        ("9.5", 2, "not an OpenClaw release"),
    ] {
        let out = store
            .cmd()
            .args([
                "--json",
                "migrate",
                "legacy",
                "--agent",
                "research",
                "--yes",
                "--schema-of-release",
                release,
            ])
            .output()
            .unwrap();
        expect_exit(&out, code);
        let message = json(&out)["error"]["message"].as_str().unwrap().to_string();
        assert!(message.contains(words), "{release}: {message}");
    }
    assert!(store_files(&store) == before);
}

#[test]
fn every_change_works_on_a_store_upgraded_from_an_older_schema() {
    // Schema 23 by 2026.9.6's own upgrade: it lacks two columns a fresh 23 has, which no
    // change may name.
    let store = Store::copy_release("2026.8.2", "upgraded");
    let sessions = our_sessions(&store);
    let keys: Vec<&str> = sessions
        .iter()
        // Not the main session, nor the model-locked one (both refused by design).
        .filter(|(a, k, _, _)| a == "main" && !k.ends_with(":main") && !k.ends_with("scratch-1"))
        .map(|(_, k, _, _)| k.as_str())
        .collect();
    assert!(keys.len() >= 4, "{keys:?}");
    for args in [
        vec!["patch", keys[0], "--set", "label=\"renamed\""],
        vec!["archive", keys[1]],
        vec!["unarchive", keys[1]],
        vec!["delete", keys[2], "--yes"],
        vec!["delete", keys[3], "--no-archive", "--yes"],
        vec!["prune", "--all-agents", "--enforce", "--yes"],
        vec!["reclaim", "--all-agents", "--yes"],
    ] {
        let out = store.cmd().args(&args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    for agent in ["main", "work", "research"] {
        assert_integrity(&store.writable(agent), agent);
    }
    let out = store.run_ok(["doctor", "--all-agents", "--json"]);
    let doc = json(&out);
    let errors: Vec<&Value> = doc["data"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] == "error")
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

/// `sqlite_schema` as the upgrade fixtures dump it (tests/fixtures/schema-upgrade/README.md).
fn schema_dump(db: &std::path::Path) -> String {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let mut stmt = conn
        .prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name NOT LIKE 'sqlite_stat%' ORDER BY rowid")
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            let sql: Option<String> = r.get(3)?;
            Ok(match sql {
                Some(sql) => format!("{sql};\n"),
                None => format!(
                    "-- {} {} ON {} (automatic, no SQL)\n",
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?
                ),
            })
        })
        .unwrap();
    rows.collect::<rusqlite::Result<String>>().unwrap()
}

fn upgrade_dump(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/tests/fixtures/schema-upgrade/dumps/{path}.after.schema.sql",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn migrate_schema_gives_the_schema_openclaw_upgrade_gives_and_keeps_every_event() {
    for (release, agent_path, state_path) in [
        (
            "2026.8.2",
            "agent-19-to-23.from-2026.8.2",
            "state-15-to-18.from-2026.8.2",
        ),
        (
            "2026.9.5",
            "agent-21-to-23.from-2026.9.5",
            "state-17-to-18.from-2026.9.5",
        ),
    ] {
        let store = Store::copy_release(release, "live");
        let sessions = our_sessions(&store);
        let mut transcripts = Vec::new();
        for (agent, key, _, _) in &sessions {
            let out = store.run_ok(["transcript", "cat", key, "--agent", agent]);
            transcripts.push(out.stdout);
        }
        // The dry run changes nothing and says it is one-way.
        let before = store_files(&store);
        let out = store.run_ok(["migrate", "schema", "--all-agents", "--dry-run"]);
        let plan = String::from_utf8_lossy(&out.stdout);
        assert!(plan.contains("one-way") && plan.contains("-> 23"), "{plan}");
        assert!(store_files(&store) == before);

        let out = store.run_ok(["--json", "migrate", "schema", "--all-agents", "--yes"]);
        let doc = json(&out);
        assert_eq!(
            doc["data"]["upgraded"].as_array().unwrap().len(),
            4,
            "{doc}"
        );
        for agent in ["main", "work", "research"] {
            assert_eq!(
                schema_dump(&store.agent_db(agent)).trim_end(),
                upgrade_dump(agent_path).trim_end(),
                "{release} {agent}"
            );
        }
        assert_eq!(
            schema_dump(&store.state().join("state/openclaw.sqlite")).trim_end(),
            upgrade_dump(state_path).trim_end(),
            "{release} state"
        );
        // Every session and every event is read back the same, and the store is ours to
        // change now.
        assert_eq!(our_sessions(&store), sessions);
        for ((agent, key, _, _), want) in sessions.iter().zip(&transcripts) {
            let out = store.run_ok(["transcript", "cat", key, "--agent", agent]);
            assert!(&out.stdout == want, "{release} {key}");
        }
        let compressed: i64 = store
            .writable("research")
            .query_row(
                "SELECT count(*) FROM transcript_events WHERE event_zstd IS NOT NULL",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert!(compressed > 0, "{release}: no event was compressed");
        let status = store.json_ok(["status", "--json"]);
        assert_eq!(status["data"]["releases"]["agree"], true);
        assert_eq!(status["data"]["releases"]["openAsIs"][0], "2026.9.6");
        let key = some_key(&store);
        store.run_ok(["patch", &key, "--set", "label=\"after the upgrade\""]);
        // Nothing left to do: nothing printed.
        let again = store
            .cmd()
            .args(["migrate", "schema", "--all-agents", "--yes"])
            .output()
            .unwrap();
        assert!(again.status.success());
        assert!(
            again.stdout.is_empty() && again.stderr.is_empty(),
            "{}{}",
            String::from_utf8_lossy(&again.stdout),
            String::from_utf8_lossy(&again.stderr)
        );
    }
}

#[test]
fn migrate_schema_killed_between_databases_finishes_on_the_next_run() {
    let store = Store::copy_release("2026.8.2", "live");
    let sessions = our_sessions(&store);
    for point in ["migrate-schema-before", "migrate-schema-upgraded"] {
        let out = store
            .cmd()
            .env("OPENCLAW_SESSIONS_CRASH_AT", point)
            .args(["migrate", "schema", "--all-agents", "--yes"])
            .output()
            .unwrap();
        assert!(
            !out.status.success(),
            "{point}: the crash point was not reached"
        );
        for agent in ["main", "work", "research"] {
            let conn = store.writable(agent);
            assert_integrity(&conn, "");
            let v: i64 = conn
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .unwrap();
            assert!(v == 19 || v == 23, "{point} {agent}: {v}");
        }
        assert_eq!(our_sessions(&store), sessions, "{point}");
    }
    store.run_ok(["migrate", "schema", "--all-agents", "--yes"]);
    for agent in ["main", "work", "research"] {
        assert_eq!(
            schema_dump(&store.agent_db(agent)).trim_end(),
            upgrade_dump("agent-19-to-23.from-2026.8.2").trim_end()
        );
    }
    assert_eq!(our_sessions(&store), sessions);
}

#[test]
fn migrate_schema_refuses_a_layout_it_does_not_know_and_a_partial_selection_is_named() {
    let store = Store::copy_release("2026.8.2", "live");
    store
        .writable("work")
        .execute_batch("CREATE INDEX extra_idx ON session_nodes(label)")
        .unwrap();
    let before = store_files(&store);
    let out = store
        .cmd()
        .args(["--json", "migrate", "schema", "--all-agents", "--yes"])
        .output()
        .unwrap();
    let doc = json(&out);
    expect_exit(&out, 6);
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("a layout this tool does not know how to upgrade"),
        "{doc}"
    );
    assert!(doc["error"]["hint"]
        .as_str()
        .unwrap()
        .contains("openclaw doctor --fix"));
    assert!(store_files(&store) == before);
    // Only agent main: the others are named as left behind.
    let out = store
        .cmd()
        .args(["migrate", "schema", "--agent", "main", "--yes"])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("agent research keeps an older schema"),
        "{err}"
    );
    // The store is now of two releases: the doctor says which releases open it, and none does
    // as it is.
    let out = store
        .cmd()
        .args(["--json", "doctor", "releases"])
        .output()
        .unwrap();
    let doc = json(&out);
    expect_exit(&out, 3);
    let finding = &doc["data"]["findings"][0];
    assert_eq!(finding["check"], "releases");
    assert_eq!(finding["severity"], "error");
    let message = finding["message"].as_str().unwrap();
    assert!(
        message.contains("agent main at schema 23 (OpenClaw 2026.9.6)")
            && message.contains("agent work at schema 19")
            && message.contains("OpenClaw 2026.9.6 refuse it until `openclaw doctor --fix`"),
        "{message}"
    );
    let status = store.json_ok(["status", "--json"]);
    assert_eq!(status["data"]["releases"]["agree"], false);
}

/// Every stored row of one transcript that depends on neither the clock nor the store's path.
fn transcript_rows(db: &std::path::Path, session_id: &str) -> Vec<String> {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let mut out = Vec::new();
    for sql in [
        "SELECT seq || ' ' || created_at || ' ' || event_json FROM transcript_events WHERE session_id = ?1 ORDER BY seq",
        "SELECT event_id || ' ' || seq FROM transcript_event_identities WHERE session_id = ?1 ORDER BY seq",
        "SELECT active_position || ' ' || event_seq FROM session_transcript_active_events WHERE session_id = ?1 ORDER BY 1",
        "SELECT message_id || ' ' || text FROM session_transcript_fts WHERE session_id = ?1 ORDER BY rowid",
    ] {
        let mut stmt = conn.prepare(sql).unwrap();
        let rows = stmt.query_map([session_id], |r| r.get::<_, String>(0)).unwrap();
        out.extend(rows.map(Result::unwrap));
    }
    out
}

/// A hook session each release's own maintenance pruned from its live store, its transcript
/// archived as a `.jsonl.deleted.*.zst` file.
const PRUNED_KEY: &str = "agent:main:hook:7a41e6f5-b97d-4c51-b472-0830fd1c2815";
const PRUNED_ID: &str = "5de4f0cf-5583-4e28-baad-b628ce94b831";

#[test]
fn undelete_on_an_older_release_store_writes_what_the_release_wrote() {
    for (release, schema) in OLDER {
        let store = Store::copy_release(release, "live");
        assert!(!our_sessions(&store)
            .iter()
            .any(|(_, k, _, _)| k == PRUNED_KEY));
        let out = store
            .cmd()
            .args(["--json", "undelete", PRUNED_ID, "--yes"])
            .output()
            .unwrap();
        expect_exit(&out, 0);
        let db = store.agent_db("main");
        // The release's own import wrote the session before its maintenance pruned it.
        let reference = Store::copy_release(release, "imported");
        let rows = transcript_rows(&db, PRUNED_ID);
        assert!(rows.len() > 10, "{release}: {}", rows.len());
        assert!(
            rows == transcript_rows(&reference.agent_db("main"), PRUNED_ID),
            "{release}: the restored transcript differs from the release's own rows"
        );
        let conn = rusqlite::Connection::open(&db).unwrap();
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, schema, "the schema stays the release's");
        assert_integrity(&conn, release);
        assert!(our_sessions(&store)
            .iter()
            .any(|(_, k, s, _)| k == PRUNED_KEY && s == PRUNED_ID));
    }
}

#[test]
fn restore_session_on_an_older_release_store_copies_the_release_rows() {
    for (release, _) in OLDER {
        // A snapshot of the store before the release's maintenance pruned the session.
        let before = Store::copy_release(release, "imported");
        let out = before
            .cmd()
            .args([
                "--json",
                "backup",
                "create",
                "--agent",
                "main",
                "--repository",
            ])
            .arg(before.state().join("repo"))
            .output()
            .unwrap();
        expect_exit(&out, 0);
        let snapshot = json(&out)["data"]["snapshots"][0]["path"]
            .as_str()
            .unwrap()
            .to_string();
        let store = Store::copy_release(release, "live");
        let out = store
            .cmd()
            .args([
                "--json",
                "backup",
                "restore",
                &snapshot,
                "--session",
                PRUNED_KEY,
                "--yes",
            ])
            .output()
            .unwrap();
        expect_exit(&out, 0);
        assert!(
            transcript_rows(&store.agent_db("main"), PRUNED_ID)
                == transcript_rows(&before.agent_db("main"), PRUNED_ID),
            "{release}: the restored rows differ from the snapshot's"
        );
        assert_integrity(
            &rusqlite::Connection::open(store.agent_db("main")).unwrap(),
            release,
        );
        assert!(our_sessions(&store)
            .iter()
            .any(|(_, k, _, _)| k == PRUNED_KEY));
    }
}

#[test]
fn a_schema_changing_restore_session_into_an_older_release_store_leaves_no_trace() {
    let current = Store::copy("live");
    let out = current
        .cmd()
        .args([
            "--json",
            "backup",
            "create",
            "--agent",
            "main",
            "--repository",
        ])
        .arg(current.state().join("repo"))
        .output()
        .unwrap();
    expect_exit(&out, 0);
    let snapshot = json(&out)["data"]["snapshots"][0]["path"]
        .as_str()
        .unwrap()
        .to_string();
    let store = Store::copy_release("2026.8.2", "live");
    // Every file, custody's coordinators included: refused before custody is taken.
    let before = checksums(&store.state());
    let out = store
        .cmd()
        .args([
            "--json",
            "backup",
            "restore",
            &snapshot,
            "--session",
            "agent:main:main",
            "--yes",
        ])
        .output()
        .unwrap();
    expect_exit(&out, 6);
    assert!(json(&out)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("installing it changes the schema"));
    assert!(checksums(&store.state()) == before);
}

/// The 2026.9.6 fixture relabelled as a store of OpenClaw 2026.9.8 (schema 24 / state 19, with
/// its added column, table, triggers and moved entry fields: tests/fixtures/openclaw-2026.9.8).
pub(crate) fn newer_release_store() -> Store {
    let store = Store::copy("live");
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/openclaw-2026.9.8");
    let agent_sql = std::fs::read_to_string(fixture.join("agent-24.sql")).unwrap();
    for agent in ["main", "work", "research"] {
        store.writable(agent).execute_batch(&agent_sql).unwrap();
    }
    let state_sql = std::fs::read_to_string(fixture.join("state-19.sql")).unwrap();
    rusqlite::Connection::open(store.state().join("state/openclaw.sqlite"))
        .unwrap()
        .execute_batch(&state_sql)
        .unwrap();
    store
}

/// Issue 48 item 2: reads of a newer release's store are first-class. One warning per run (not
/// one per database), `status` names the release instead of "the databases disagree", the
/// doctor finds no release error, `show` merges the fields schema 24 moved out of
/// `entry_json` as OpenClaw's full read does (the listing leaves them out, as OpenClaw's
/// does), and dry runs are reads; a change is refused naming the owner's routes.
#[test]
fn a_store_of_a_newer_release_reads_first_class() {
    let store = newer_release_store();
    let before = checksums(&store.state());

    let doc = store.json_ok(["--json", "list", "--all-agents"]);
    let warnings = doc["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        warnings[0].as_str().unwrap().contains("OpenClaw 2026.9.8"),
        "{warnings:?}"
    );
    let main = doc["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["sessionKey"] == "agent:main:main")
        .unwrap();
    assert!(main["entry"].get("skillsSnapshot").is_none(), "{main}");

    let status = store.run_ok(["status"]);
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(!text.contains("disagree"), "{text}");
    assert!(
        text.contains("Releases:   OpenClaw 2026.9.8, newer than this tool knows"),
        "{text}"
    );
    assert_eq!(
        String::from_utf8_lossy(&status.stderr)
            .matches("warning:")
            .count(),
        1
    );
    let doc = store.json_ok(["--json", "status"]);
    assert_eq!(doc["data"]["releases"]["agree"], true, "{doc}");
    assert_eq!(
        doc["data"]["releases"]["newerRelease"], "OpenClaw 2026.9.8",
        "{doc}"
    );

    let out = store.cmd().args(["--json", "doctor"]).output().unwrap();
    let doc = json(&out);
    let findings = doc["data"]["findings"].as_array().unwrap();
    assert!(
        !findings
            .iter()
            .any(|f| f["check"] == "releases" || f["severity"] == "error"),
        "{doc}"
    );

    let doc = store.json_ok(["--json", "show", "agent:main:main"]);
    assert_eq!(
        doc["data"]["entry"]["skillsSnapshot"]["version"], 3,
        "{doc}"
    );
    assert_eq!(
        doc["data"]["entry"]["systemPromptReport"]["source"], "run",
        "{doc}"
    );
    assert_eq!(doc["data"]["columns"]["snapshot_revision"], 2, "{doc}");
    let doc = store.json_ok(["--json", "show", "agent:main:pinned-notes"]);
    assert_eq!(
        doc["data"]["entry"]["sessionDiffBaseline"]["files"]["notes.md"], "a1b2c3",
        "{doc}"
    );
    let human = store.run_ok(["show", "agent:main:main"]);
    assert!(String::from_utf8_lossy(&human.stdout).contains("\"systemPromptReport\""));

    for dry in [
        &["prune", "-n"][..],
        &["--agent", "main", "prune", "-n", "--older-than", "1d"],
        &["delete", "agent:main:pinned-notes", "--dry-run"],
        &[
            "patch",
            "agent:main:main",
            "--set",
            "label=\"x\"",
            "--dry-run",
        ],
    ] {
        let out = store.cmd().arg("--json").args(dry).output().unwrap();
        let doc = json(&out);
        assert_eq!(out.status.code(), Some(0), "{dry:?}: {doc}");
        assert!(
            doc["warnings"]
                .to_string()
                .contains("the real run would be refused"),
            "{dry:?}: {doc}"
        );
    }

    // A change goes to the owner's code, refused here where none is installed (the owner
    // route's own test: the_owner_route_is_refused_before_any_change_without_the_owner_s_package);
    // a command the owner route does not carry is refused by the release check.
    let out = store
        .cmd()
        .env("PATH", "/nonexistent")
        .args([
            "--json",
            "patch",
            "agent:main:main",
            "--set",
            "label=\"x\"",
            "--yes",
        ])
        .output()
        .unwrap();
    let doc = json(&out);
    expect_exit(&out, 6);
    let hint = doc["error"]["hint"].as_str().unwrap();
    assert!(
        hint.contains("openclaw@2026.9.8") && !hint.contains("upgrade openclaw-sessions"),
        "{hint}"
    );
    // prune goes to the owner's own cleanup: refused the same way without its package.
    let out = store
        .cmd()
        .env("PATH", "/nonexistent")
        .args(["--json", "prune", "--all-agents", "--enforce", "--yes"])
        .output()
        .unwrap();
    let doc = json(&out);
    expect_exit(&out, 6);
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("`openclaw` is not on PATH") && message.contains("nothing was changed"),
        "{message}"
    );
    let hint = doc["error"]["hint"].as_str().unwrap();
    assert!(
        hint.contains("openclaw@2026.9.8") && hint.contains("Gateway") && !hint.contains("upgrade"),
        "{hint}"
    );
    assert!(
        checksums(&store.state()) == before,
        "a read or a refused change wrote the store"
    );
}

/// A fake installed package of `version` under `<dir>/lib/node_modules/openclaw`, linked as npm
/// links it from `<dir>/bin/openclaw`, with a `node` beside it when `node` (a script that fails
/// loudly: no test here may reach it).
fn fake_package(dir: &std::path::Path, version: &str, node: bool) -> std::path::PathBuf {
    let root = dir.join("lib/node_modules/openclaw");
    std::fs::create_dir_all(root.join("dist/plugin-sdk")).unwrap();
    std::fs::write(
        root.join("package.json"),
        format!("{{\"name\":\"openclaw\",\"version\":\"{version}\"}}"),
    )
    .unwrap();
    std::fs::write(root.join("openclaw.mjs"), "").unwrap();
    std::fs::write(root.join("dist/plugin-sdk/session-store-runtime.js"), "").unwrap();
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::os::unix::fs::symlink(root.join("openclaw.mjs"), dir.join("bin/openclaw")).unwrap();
    if node {
        let n = dir.join("bin/node");
        std::fs::write(&n, "#!/bin/sh\necho 'node must not run' >&2\nexit 99\n").unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&n, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    root
}

/// Issue 48 item 3: offline, a change to a newer release's store goes to the installed package
/// of that release; no package, one of another release, or no `node` is refused (exit 6)
/// before anything changes, naming what works; `--via-openclaw` on a store this tool writes
/// asks for the same route and is refused the same way.
#[test]
fn the_owner_route_is_refused_before_any_change_without_the_owner_s_package() {
    let store = newer_release_store();
    let before = checksums(&store.state());
    let bins = tempfile::tempdir().unwrap();
    let other = bins.path().join("other");
    fake_package(&other, "2026.9.6", true);
    let nodeless = bins.path().join("nodeless");
    fake_package(&nodeless, "2026.9.8", false);
    let patch = [
        "--json",
        "patch",
        "agent:main:main",
        "--set",
        "label=\"x\"",
        "--yes",
    ];
    for (path, says) in [
        (None, "`openclaw` is not on PATH"),
        (Some(other.join("bin")), "the installed OpenClaw 2026.9.6 ("),
        (Some(nodeless.join("bin")), "no `node` is on PATH"),
    ] {
        let mut cmd = store.cmd();
        cmd.env(
            "PATH",
            path.as_deref()
                .unwrap_or(std::path::Path::new("/nonexistent")),
        );
        let out = cmd.args(patch).output().unwrap();
        let doc = json(&out);
        expect_exit(&out, 6);
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(says) && message.contains("nothing was changed"),
            "{message}"
        );
        let hint = doc["error"]["hint"].as_str().unwrap();
        assert!(
            hint.contains("OpenClaw 2026.9.8")
                && hint.contains("--openclaw PATH")
                && hint.contains("Gateway"),
            "{hint}"
        );
    }
    assert!(
        checksums(&store.state()) == before,
        "a refused change wrote the store"
    );

    // On a 2026.9.6 store, asked for: a 2026.9.5 package is not its owner.
    let known = Store::copy("live");
    let before = checksums(&known.state());
    let old = bins.path().join("old");
    let root = fake_package(&old, "2026.9.5", true);
    let out = known
        .cmd()
        .args(patch)
        .arg("--openclaw")
        .arg(&root)
        .env("PATH", old.join("bin"))
        .output()
        .unwrap();
    expect_exit(&out, 6);
    let doc = json(&out);
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("OpenClaw 2026.9.5") && message.contains("(OpenClaw 2026.9.6)"),
        "{message}"
    );
    assert!(
        checksums(&known.state()) == before,
        "a refused change wrote the store"
    );
}

/// Every session's entry as stored, by (agent, key).
fn entries(store: &Store) -> std::collections::BTreeMap<(String, String), Value> {
    let mut out = std::collections::BTreeMap::new();
    for agent in ["main", "work", "research"] {
        let conn = store.writable(agent);
        let mut stmt = conn
            .prepare("SELECT session_key, entry_json FROM session_nodes WHERE entry_json != '{}'")
            .unwrap();
        let rows = stmt
            .query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .unwrap();
        for row in rows {
            let (key, text) = row.unwrap();
            out.insert(
                (agent.to_string(), key),
                serde_json::from_str(&text).unwrap(),
            );
        }
    }
    out
}

/// `migrate schema` on 2026.8.2's store against 2026.9.6's own `doctor --fix` on the same
/// store (the `upgraded` fixture): every entry agrees but for the two repairs that doctor
/// makes on any store after its upgrade, which ours leaves for it and names in its plan:
/// session titles (`displayName`, on exactly the sessions without a name) and runtime model
/// state (`model`, `modelProvider`, `contextTokens` and harness bindings, cleared only on
/// sessions that carry it). The plan's counts are those sessions (was: the plan said nothing
/// of them, so a user who ran ours instead got another store without being told).
#[test]
fn migrate_schema_names_what_openclaws_doctor_repairs_after_its_upgrade() {
    let store = Store::copy_release("2026.8.2", "live");
    let dry = json(&store.run_ok(["--json", "migrate", "schema", "--all-agents", "--dry-run"]));
    store.run_ok(["migrate", "schema", "--all-agents", "--yes"]);
    let ours = entries(&store);
    let theirs = entries(&Store::copy_release("2026.8.2", "upgraded"));
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        theirs.keys().collect::<Vec<_>>()
    );
    const MODEL_STATE: &[&str] = &[
        "model",
        "modelProvider",
        "contextTokens",
        "contextTokensSource",
        "contextBudgetStatus",
        "agentHarnessId",
        "cliSessionIds",
        "cliSessionBindings",
        "claudeCliSessionId",
    ];
    let mut titled: std::collections::BTreeMap<String, u64> = Default::default();
    let mut with_state: std::collections::BTreeMap<String, u64> = Default::default();
    for ((agent, key), o) in &ours {
        let t = &theirs[&(agent.clone(), key.clone())];
        let named = ["label", "displayName", "subject", "groupChannel", "space"]
            .iter()
            .any(|f| o[f].as_str().is_some_and(|s| !s.trim().is_empty()));
        if !named {
            *titled.entry(agent.clone()).or_default() += 1;
        }
        if ["model", "modelProvider", "contextTokens"]
            .iter()
            .any(|f| !o[f].is_null())
        {
            *with_state.entry(agent.clone()).or_default() += 1;
        }
        let cleared = MODEL_STATE
            .iter()
            .any(|f| !o[f].is_null() && t[f].is_null());
        let fields: BTreeSet<&String> = o
            .as_object()
            .unwrap()
            .keys()
            .chain(t.as_object().unwrap().keys())
            .collect();
        for f in fields {
            if o[f] == t[f] {
                continue;
            }
            match f.as_str() {
                // The title repair: only where there was no name, only added.
                "displayName" => assert!(
                    !named && o[f].is_null() && t[f].is_string(),
                    "{key}: displayName {} -> {}",
                    o[f],
                    t[f]
                ),
                f if MODEL_STATE.contains(&f) => {
                    assert!(t[f].is_null(), "{key}: {f} {} -> {}", o[f], t[f])
                }
                // The routing repair moves activity; the title repair keeps it.
                "updatedAt" => assert!(cleared, "{key}: updatedAt moved without a repair"),
                other => panic!("{key}: {other} differs: {} -> {}", o[other], t[other]),
            }
        }
        if !named {
            assert!(
                t["displayName"].is_string(),
                "{key}: OpenClaw gave it no title"
            );
        }
    }
    for d in dry["data"]["plan"]["databases"]
        .as_array()
        .or(dry["data"]["databases"].as_array())
        .unwrap()
    {
        let Some(agent) = d["agentId"].as_str() else {
            continue;
        };
        let left = &d["leftForOpenclawDoctor"];
        assert_eq!(left["untitledSessions"], titled[agent], "{agent}: {dry}");
        assert_eq!(
            left["sessionsWithModelState"],
            with_state.get(agent).copied().unwrap_or(0),
            "{agent}: {dry}"
        );
    }
    let fresh = Store::copy_release("2026.8.2", "live");
    let plan = String::from_utf8(
        fresh
            .run_ok(["migrate", "schema", "--all-agents", "-n"])
            .stdout,
    )
    .unwrap();
    assert!(
        plan.contains("left for OpenClaw's own `openclaw doctor --fix`")
            && plan.contains("7 sessions without a name")
            && plan.contains("14 sessions with runtime model state"),
        "{plan}"
    );
}

/// A fake `node` that records how the owner's code was run (its arguments, its state dir and
/// config, whether this tool's custody lock was held meanwhile) in `<dir>/node.log` and
/// answers as OpenClaw's `sessions cleanup --json` does, without pruning anything.
fn recording_node(dir: &std::path::Path, state: &std::path::Path) -> std::path::PathBuf {
    let log = dir.join("node.log");
    let lock = state.join(format!("tmp/openclaw-{}/gateway.state.lock", unsafe {
        libc::getuid()
    }));
    let n = dir.join("bin/node");
    std::fs::write(
        &n,
        format!(
            "#!/bin/sh\nPATH=/usr/bin:/bin\n{{ echo \"args: $*\"; echo \"state: $OPENCLAW_STATE_DIR\"; echo \"config: $OPENCLAW_CONFIG_PATH\"; \
             if grep -q sqlite-maintenance '{lock}' 2>/dev/null; then echo 'custody: held'; else echo 'custody: free'; fi; }} >> '{log}'\n\
             echo '{{\"agentId\":\"research\",\"applied\":true}}'\n",
            lock = lock.display(),
            log = log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&n, std::fs::Permissions::from_mode(0o755)).unwrap();
    log
}

/// Issue 48: `prune` through the owner's code runs OpenClaw's own offline cleanup, `openclaw
/// sessions cleanup --enforce --json --agent ID --store <agent>/sessions/sessions.json` with the
/// settings its cleanup takes (--active-key, --fix-missing, --fix-dm-scope where it acts),
/// once per agent the plan changes, under this tool's custody (that command takes no lock of its
/// own); a cleanup that does not end as the plan shown is reported, not passed off as done. An
/// option its cleanup has no setting for is refused before anything runs, naming what works; a
/// run with nothing due starts nothing and says so ("via": "none").
#[test]
fn prune_through_the_owner_runs_its_own_cleanup_under_custody_with_the_settings_it_takes() {
    let store = Store::copy("live");
    let bins = tempfile::tempdir().unwrap();
    let root = fake_package(bins.path(), "2026.9.6", false);
    let log = recording_node(bins.path(), &store.state());
    let before = checksums(&store.state());
    // The databases and sessions/ (custody leaves its coordinators in tmp/).
    let data = || {
        (
            checksums(&store.state().join("agents")),
            checksums(&store.state().join("state")),
        )
    };
    let data_before = data();

    // What the cleanup has no option for: refused before node runs.
    for (flag, value, names) in [
        (
            "--older-than",
            Some("1d"),
            "--older-than (session.maintenance.pruneAfter)",
        ),
        (
            "--max-entries",
            Some("2"),
            "--max-entries (session.maintenance.maxEntries)",
        ),
        ("--artifacts", None, "--artifacts"),
        ("--reclaim", None, "--reclaim"),
    ] {
        let mut cmd = store.cmd();
        cmd.env("PATH", bins.path().join("bin")).args([
            "--json",
            "--agent",
            "research",
            "prune",
            "--enforce",
            "--yes",
            flag,
        ]);
        if let Some(v) = value {
            cmd.arg(v);
        }
        let out = cmd.arg("--openclaw").arg(&root).output().unwrap();
        expect_exit(&out, 2);
        let doc = json(&out);
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("OpenClaw 2026.9.6's own `sessions cleanup` has no option for")
                && message.contains(names)
                && message.contains("nothing was changed"),
            "{message}"
        );
        assert!(
            doc["error"]["hint"]
                .as_str()
                .unwrap()
                .contains("session.maintenance"),
            "{doc}"
        );
    }
    assert!(!log.exists(), "node ran for a refused prune");
    assert!(
        checksums(&store.state()) == before,
        "a refused prune wrote the store"
    );

    // The cleanup run as OpenClaw's own command: this one prunes nothing, so the read-back
    // finds the planned sessions still there and says so.
    let out = store
        .cmd()
        .env("PATH", bins.path().join("bin"))
        .args([
            "--json",
            "--agent",
            "research",
            "prune",
            "--enforce",
            "--yes",
            "--fix-missing",
            "--fix-dm-scope",
            "--active-key",
            "agent:research:pinned-notes",
            "--via-openclaw",
            "--openclaw",
        ])
        .arg(&root)
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0));
    let doc = json(&out);
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("written by OpenClaw 2026.9.6's own code"),
        "{doc}"
    );
    let said = std::fs::read_to_string(&log).unwrap();
    let research = store.state().join("agents/research/sessions/sessions.json");
    assert_eq!(
        said,
        format!(
            "args: {} sessions cleanup --enforce --json --agent research --store {} --fix-missing --fix-dm-scope --active-key agent:research:pinned-notes\nstate: {}\nconfig: {}\ncustody: held\n",
            root.join("openclaw.mjs").display(),
            research.display(),
            store.state().display(),
            store.state().join("openclaw.json").display(),
        ),
        "how OpenClaw's cleanup was run"
    );
    assert!(data() == data_before, "only the owner's code writes");

    // Nothing due: node never starts, and the JSON says the route was not taken.
    std::fs::remove_file(&log).unwrap();
    store.run_ok(["--agent", "research", "prune", "--enforce", "--yes"]);
    let doc = store.json_ok([
        "--json",
        "--agent",
        "research",
        "prune",
        "--enforce",
        "--yes",
        "--openclaw",
        root.to_str().unwrap(),
    ]);
    assert_eq!(doc["data"]["via"], "none", "{doc}");
    assert_eq!(
        doc["data"]["notReached"], "OpenClaw 2026.9.6's own code",
        "{doc}"
    );
    assert!(!log.exists(), "node ran with nothing due");
}

/// Issue 48: `doctor --fix` has no owner route (OpenClaw's own `doctor --fix` takes the
/// maintenance lock itself, and its Gateway has no doctor RPC): on a newer release's store a
/// repair is refused (6) with nothing changed, its hint naming that release's own `openclaw
/// doctor --fix`, not a Gateway route the command does not have.
#[test]
fn doctor_fix_on_a_newer_store_names_the_owners_own_doctor() {
    let store = newer_release_store();
    store
        .writable("work")
        .execute(
            "UPDATE session_nodes SET label = 'out of step' WHERE session_key = 'agent:work:main'",
            [],
        )
        .unwrap();
    let before = checksums(&store.state().join("agents"));
    let out = store
        .cmd()
        .args(["--json", "--agent", "work", "doctor", "--fix", "--yes"])
        .output()
        .unwrap();
    expect_exit(&out, 6);
    let doc = json(&out);
    let hint = doc["error"]["hint"].as_str().unwrap();
    assert!(
        hint.contains("run OpenClaw 2026.9.8's own `openclaw doctor --fix` offline")
            && !hint.contains("the same command goes through"),
        "{hint}"
    );
    assert!(
        checksums(&store.state().join("agents")) == before,
        "a refused repair wrote the store"
    );
}
