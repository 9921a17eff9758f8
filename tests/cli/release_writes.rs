//! Changes to a store of an older release, written as that release writes them
//! (docs/openclaw/RELEASES.md): the database keeps its schema and gains no object or row that
//! release would not write; the change reads back. That the rows are the release's own is
//! proven against the releases themselves by the reference suite's `release_entry_writes_*`.

use rusqlite::Connection;

use crate::common::{assert_foreign_keys, assert_integrity, expect_exit, json, Store};

/// The releases of older agent schemas, with their schema.
const OLDER: [(&str, i64); 2] = [("2026.8.2", 19), ("2026.9.5", 21)];

fn open(store: &Store, agent: &str) -> Connection {
    Connection::open_with_flags(
        store.agent_db(agent),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap()
}

/// `user_version` and every `sqlite_schema` row (type, name, sql), in order.
type Schema = (i64, Vec<(String, String, Option<String>)>);

fn schema_of(conn: &Connection) -> Schema {
    let v = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    let mut stmt = conn
        .prepare("SELECT type, name, sql FROM sqlite_schema ORDER BY rowid")
        .unwrap();
    let objects = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    (v, objects)
}

fn count(conn: &Connection, sql: &str, arg: &str) -> i64 {
    conn.query_row(sql, [arg], |r| r.get(0)).unwrap()
}

fn pending_rows(conn: &Connection) -> Option<i64> {
    conn.query_row(
        "SELECT count(*) FROM session_canonical_validation_pending",
        [],
        |r| r.get(0),
    )
    .ok()
}

/// After a change: the same schema, nothing damaged, every session listed.
fn assert_kept_schema(store: &Store, agent: &str, before: &Schema, what: &str) {
    let conn = open(store, agent);
    assert!(schema_of(&conn) == *before, "{what}: the schema changed");
    assert_integrity(&conn, what);
    assert_foreign_keys(&conn, what);
}

#[test]
fn patch_archive_and_unarchive_write_an_older_release_store_at_its_schema() {
    for (release, schema) in OLDER {
        let store = Store::copy_release(release, "live");
        let key = "agent:work:pinned-notes";
        let before = schema_of(&open(&store, "work"));
        assert_eq!(before.0, schema);
        let pending = pending_rows(&open(&store, "work"));
        assert_eq!(pending.is_some(), schema >= 21, "{release}");

        let doc = store.json_ok([
            "--json",
            "patch",
            key,
            "--agent",
            "work",
            "--set",
            "label=\"Renamed on 19\"",
            "--set",
            "displayName=\"  Named  \"",
        ]);
        assert_eq!(doc["data"]["after"]["label"], "Renamed on 19", "{doc}");
        let conn = open(&store, "work");
        let (label, display, valid): (String, String, i64) = conn
            .query_row(
                "SELECT label, display_name, entry_valid FROM session_nodes WHERE session_key = ?1",
                [key],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(
            (label.as_str(), display.as_str(), valid),
            ("Renamed on 19", "Named", 1),
            "{release}"
        );
        // The key is certified where the schema validates keys (its pending row cleared).
        if schema >= 21 {
            assert_eq!(
                count(
                    &conn,
                    "SELECT count(*) FROM session_canonical_validation_pending WHERE session_key = ?1",
                    key
                ),
                0,
                "{release}"
            );
        }
        drop(conn);
        assert_kept_schema(&store, "work", &before, &format!("{release} patch"));

        let doc = store.json_ok(["--json", "archive", key, "--agent", "work"]);
        assert_eq!(doc["data"]["results"][0]["result"], "archived", "{doc}");
        let archived = store.entry("work", key).unwrap();
        assert_eq!(archived["archiveReason"], "manual", "{archived}");
        let doc = store.json_ok(["--json", "unarchive", key, "--agent", "work"]);
        assert_eq!(doc["data"]["results"][0]["result"], "unarchived", "{doc}");
        let entry = store.entry("work", key).unwrap();
        assert!(entry.get("archivedAt").is_none(), "{entry}");
        assert_eq!(entry["label"], "Renamed on 19");
        assert_kept_schema(&store, "work", &before, &format!("{release} archive"));
        // The dry run no longer says the real run would be refused.
        let out = store.run_ok([
            "patch",
            key,
            "--agent",
            "work",
            "--set",
            "label=\"x\"",
            "--dry-run",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("would be refused"), "{release}: {err}");
    }
}

#[test]
fn delete_on_an_older_release_store_archives_as_that_release_does() {
    for (release, schema) in OLDER {
        let store = Store::copy_release(release, "live");
        let agent = "research";
        let before = schema_of(&open(&store, agent));
        assert_eq!(before.0, schema);
        let list = store.json_ok(["--json", "list", "--agent", agent, "--limit", "all"]);
        let row = list["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["sessionKey"].as_str().unwrap().contains(":acp:"))
            .expect("an ACP session")
            .clone();
        let key = row["sessionKey"].as_str().unwrap();
        let sid = row["sessionId"].as_str().unwrap();
        let conn = open(&store, agent);
        let events = count(
            &conn,
            "SELECT count(*) FROM transcript_events WHERE session_id = ?1",
            sid,
        );
        let searchable = count(
            &conn,
            "SELECT count(*) FROM session_transcript_fts WHERE session_id = ?1",
            sid,
        );
        let fts_total: i64 = conn
            .query_row("SELECT count(*) FROM session_transcript_fts", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert!(
            events > 0 && searchable > 0,
            "{release}: {events} {searchable}"
        );
        drop(conn);

        let doc = store.json_ok(["--json", "delete", key, "--agent", agent, "--yes"]);
        let result = &doc["data"]["results"][0];
        assert_eq!(result["result"], "deleted", "{doc}");
        let name = result["archive"][0]["archiveName"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            name.starts_with(&format!("{sid}.jsonl.deleted.")) && name.ends_with(".zst"),
            "{name}"
        );
        assert_eq!(result["archive"][0]["published"], true, "{doc}");
        assert!(store
            .state()
            .join("agents/research/sessions")
            .join(&name)
            .is_file());

        let conn = open(&store, agent);
        for (table, n) in [
            ("transcript_events", 0),
            ("transcript_event_identities", 0),
            ("session_windows", 0),
            ("session_transcript_active_events", 0),
            ("session_transcript_index_state", 0),
            ("session_transcript_fts", 0),
        ] {
            let sql = format!("SELECT count(*) FROM {table} WHERE session_id = ?1");
            assert_eq!(count(&conn, &sql, sid), n, "{release}: {table}");
        }
        let fts_after: i64 = conn
            .query_row("SELECT count(*) FROM session_transcript_fts", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(
            fts_after,
            fts_total - searchable,
            "{release}: other sessions' search rows"
        );
        assert_eq!(
            count(
                &conn,
                "SELECT count(*) FROM session_transcript_archives WHERE session_id = ?1 AND reason = 'deleted' AND encoding = 'zstd' AND published_at IS NOT NULL",
                sid
            ),
            1,
            "{release}"
        );
        assert_eq!(
            count(
                &conn,
                "SELECT count(*) FROM session_nodes WHERE session_key = ?1",
                key
            ),
            0,
            "{release}"
        );
        drop(conn);
        assert_kept_schema(&store, agent, &before, &format!("{release} delete"));
        // The archive reads back as the transcript was, and undelete knows the entry.
        let out = store.run_ok(["archives", "cat", &name, "--agent", agent]);
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).lines().count() as i64,
            events,
            "{release}"
        );
        assert!(store
            .state()
            .join("openclaw-sessions-deleted/research")
            .join(format!("{name}.entry.json"))
            .is_file());

        // Without archiving: the node stays a tombstone and the transcript stays.
        let doc = store.json_ok([
            "--json",
            "delete",
            "agent:research:pinned-notes",
            "--agent",
            agent,
            "--no-archive",
            "--yes",
        ]);
        assert_eq!(doc["data"]["results"][0]["result"], "deleted", "{doc}");
        let conn = open(&store, agent);
        let (entry, valid): (String, i64) = conn
            .query_row(
                "SELECT entry_json, entry_valid FROM session_nodes WHERE session_key = 'agent:research:pinned-notes'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((entry.as_str(), valid), ("{}", -1), "{release}");
        drop(conn);
        assert_kept_schema(
            &store,
            agent,
            &before,
            &format!("{release} delete --no-archive"),
        );
        let listed = store.json_ok(["--json", "list", "--agent", agent, "--limit", "all"]);
        assert_eq!(
            listed["data"].as_array().unwrap().len() + 2,
            list["data"].as_array().unwrap().len(),
            "{release}"
        );
    }
}

#[test]
fn an_older_schema_without_a_writer_stays_refused() {
    // Schema 16 (2026.8.1-beta.1) has no proven writer, nor has one newer than this tool;
    // doctor --fix repairs nothing there, a column out of step included.
    for version in [16, 24] {
        let store = Store::copy_release("2026.8.2", "live");
        break_columns(&store);
        store
            .writable("main")
            .execute_batch(&format!("PRAGMA user_version = {version}"))
            .unwrap();
        let before = all_rows(&open(&store, "main"));
        for args in [
            &[
                "--json",
                "patch",
                "agent:main:pinned-notes",
                "--set",
                "label=\"x\"",
            ][..],
            &["--json", "doctor", "--fix", "--agent", "main", "--yes"][..],
        ] {
            let out = store.cmd().args(args).output().unwrap();
            expect_exit(&out, 6);
            assert_eq!(
                json(&out)["error"]["code"],
                "UNSUPPORTED_SCHEMA",
                "{args:?}"
            );
        }
        assert!(all_rows(&open(&store, "main")) == before, "{version}");
    }
}

/// Every row of every table (FTS5 shadow tables included) as text, sorted, for comparing a
/// database before and after a change that must keep its rows.
fn all_rows(conn: &Connection) -> Vec<String> {
    rows_except_keys(conn, &[])
}

/// [`all_rows`] but for the rows whose `session_key` is one of `keys`.
fn rows_except_keys(conn: &Connection, keys: &[&str]) -> Vec<String> {
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'sqlite_%'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    let mut out = Vec::new();
    for t in tables {
        let keyed: bool = conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM pragma_table_info(?1) WHERE name = 'session_key')",
                [&t],
                |r| r.get(0),
            )
            .unwrap();
        let except = if keyed && !keys.is_empty() {
            let list: Vec<String> = keys.iter().map(|k| format!("'{k}'")).collect();
            format!(" WHERE session_key NOT IN ({})", list.join(", "))
        } else {
            String::new()
        };
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM \"{t}\"{except}"))
            .unwrap();
        let n = stmt.column_count();
        let mut rows = stmt.query([]).unwrap();
        while let Some(r) = rows.next().unwrap() {
            let cells: Vec<String> = (0..n)
                .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                .collect();
            out.push(format!("{t}: {}", cells.join(" | ")));
        }
    }
    out.sort();
    out
}

#[test]
fn reclaim_gives_pages_back_on_an_older_release_store_and_keeps_every_row() {
    for (release, schema) in OLDER {
        let store = Store::copy_release(release, "live");
        let before_schema = schema_of(&open(&store, "work"));
        assert_eq!(before_schema.0, schema);
        store
            .writable("work")
            .execute_batch(
                "CREATE TABLE filler(b BLOB); \
                 WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 64) \
                 INSERT INTO filler SELECT randomblob(8192) FROM n; \
                 DROP TABLE filler; PRAGMA wal_checkpoint(TRUNCATE);",
            )
            .unwrap();
        let rows = all_rows(&open(&store, "work"));
        let doc = store.json_ok(["--json", "reclaim", "--agent", "work"]);
        let agent = &doc["data"]["agents"][0];
        assert!(
            agent["freePages"].as_i64().unwrap() >= 64
                && agent["freePagesAfter"] == 0
                && agent["reclaimedBytes"].as_i64().unwrap() >= 64 * 8192,
            "{release}: {doc}"
        );
        assert!(
            all_rows(&open(&store, "work")) == rows,
            "{release}: rows changed"
        );
        assert_kept_schema(
            &store,
            "work",
            &before_schema,
            &format!("{release} reclaim"),
        );
    }
}

#[test]
fn prune_writes_a_schema_19_store_as_2026_8_2_cleans_it_up() {
    // What 2026.8.2's own `openclaw sessions cleanup --enforce` did to this store's research
    // agent (14 -> 8, archived 1, pruned 6; the reference check release_prune_19 compares every
    // row): every stale session removed, machine-made or not, in key order, each transcript
    // archived; the stale dashboard archived without a reason.
    let store = Store::copy_release("2026.8.2", "live");
    let before = schema_of(&open(&store, "research"));
    let doc = store.json_ok([
        "--json",
        "prune",
        "--agent",
        "research",
        "--enforce",
        "--yes",
    ]);
    let cleanup = &doc["data"]["agents"][0]["cleanup"];
    assert_eq!(
        (
            cleanup["beforeCount"].as_i64(),
            cleanup["afterCount"].as_i64(),
            cleanup["archived"].as_i64(),
            cleanup["pruned"].as_i64(),
            cleanup["capArchived"].as_i64()
        ),
        (Some(14), Some(8), Some(1), Some(6), Some(0)),
        "{doc}"
    );
    let deleted: Vec<&str> = doc["data"]["agents"][0]["deleted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    let mut in_key_order = deleted.clone();
    in_key_order.sort_unstable();
    assert_eq!(deleted, in_key_order, "{doc}");
    assert!(
        deleted.contains(&"agent:research:telegram:direct:123458")
            && deleted.contains(&"agent:research:explicit:cli-research"),
        "2026.8.2 removes a stale direct-message or CLI session too: {doc}"
    );
    let dashboard = store
        .entry("research", "agent:research:dashboard:review-ui")
        .expect("the dashboard stays");
    assert!(
        dashboard.get("archivedAt").is_some() && dashboard.get("archiveReason").is_none(),
        "{dashboard}"
    );
    let conn = open(&store, "research");
    let archives: i64 = conn
        .query_row(
            "SELECT count(*) FROM session_transcript_archives WHERE reason = 'deleted' AND published_at IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(archives, 6);
    let orphans: i64 = conn
        .query_row(
            "SELECT count(*) FROM session_transcript_fts WHERE session_id NOT IN (SELECT session_id FROM session_windows)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(orphans, 0, "search entries of removed sessions left");
    drop(conn);
    assert_kept_schema(&store, "research", &before, "2026.8.2 prune");
    // The cap as 2026.8.2's on a fresh copy, with nothing stale (its own run with
    // `pruneAfter: 365d, maxEntries: 3`: capped 6, 14 -> 8): it counts the archived sessions
    // and removes the oldest updatedAt, archiving none.
    let store = Store::copy_release("2026.8.2", "live");
    let doc = store.json_ok([
        "--json",
        "prune",
        "--agent",
        "research",
        "--older-than",
        "365d",
        "--max-entries",
        "3",
        "--enforce",
        "--yes",
    ]);
    let cleanup = &doc["data"]["agents"][0]["cleanup"];
    assert_eq!(
        (
            cleanup["archived"].as_i64(),
            cleanup["pruned"].as_i64(),
            cleanup["capped"].as_i64(),
            cleanup["capArchived"].as_i64(),
            cleanup["afterCount"].as_i64()
        ),
        (Some(1), Some(0), Some(6), Some(0), Some(8)),
        "{doc}"
    );
}

#[test]
fn prune_writes_a_schema_21_store_as_2026_9_5_cleans_it_up() {
    // What 2026.9.5's own `openclaw sessions cleanup --enforce` did to this store's research
    // agent (the reference check release_prune_21 compares every row): machine-made sessions
    // older than 30 days removed with their transcripts archived, a stale dashboard and the
    // other old sessions archived.
    let store = Store::copy_release("2026.9.5", "live");
    let before = schema_of(&open(&store, "research"));
    let doc = store.json_ok([
        "--json",
        "prune",
        "--agent",
        "research",
        "--enforce",
        "--yes",
    ]);
    let cleanup = &doc["data"]["agents"][0]["cleanup"];
    assert_eq!(
        (
            cleanup["beforeCount"].as_i64(),
            cleanup["afterCount"].as_i64(),
            cleanup["archived"].as_i64(),
            cleanup["pruned"].as_i64()
        ),
        (Some(14), Some(10), Some(2), Some(4)),
        "{doc}"
    );
    // Removed oldest first, as OpenClaw takes its age candidates.
    let deleted: Vec<&str> = doc["data"]["agents"][0]["deleted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k.as_str().unwrap())
        .collect();
    assert_eq!(deleted.len(), 4, "{doc}");
    let conn = open(&store, "research");
    let archives: i64 = conn
        .query_row(
            "SELECT count(*) FROM session_transcript_archives WHERE reason = 'deleted' AND published_at IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(archives, 4);
    let orphans: i64 = conn
        .query_row(
            "SELECT count(*) FROM session_transcript_fts WHERE session_id NOT IN (SELECT session_id FROM session_windows)",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(orphans, 0, "search entries of removed sessions left");
    drop(conn);
    assert_kept_schema(&store, "research", &before, "2026.9.5 prune");
    // Nothing left to do.
    let again = store.json_ok([
        "--json",
        "prune",
        "--agent",
        "research",
        "--enforce",
        "--yes",
    ]);
    assert_eq!(
        again["data"]["agents"][0]["actions"]
            .as_array()
            .map(Vec::len),
        Some(0),
        "{again}"
    );
}

/// Break, in `store` (a copy of an older release's live store), a label column (main) and a
/// lineage column (research) out of step with their entries; the keys broken.
fn break_columns(store: &Store) -> (String, String) {
    let main = store.writable("main");
    let label_key: String = main
        .query_row(
            "SELECT session_key FROM session_nodes WHERE json_extract(entry_json, '$.label') IS NOT NULL \
             AND session_key <> 'agent:main:main' ORDER BY session_key LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    main.execute(
        "UPDATE session_nodes SET label = 'drift' WHERE session_key = ?1",
        [&label_key],
    )
    .unwrap();
    let research = store.writable("research");
    let sub: String = research
        .query_row(
            "SELECT session_key FROM session_nodes WHERE json_extract(entry_json, '$.parentSessionKey') IS NOT NULL \
             ORDER BY session_key LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    research
        .execute(
            "UPDATE session_nodes SET parent_session_key = 'agent:research:other' WHERE session_key = ?1",
            [&sub],
        )
        .unwrap();
    (label_key, sub)
}

/// An identity row whose event is gone: main's foreign_key_check fails.
fn break_foreign_keys(store: &Store) {
    store
        .writable("main")
        .execute_batch(
            "PRAGMA foreign_keys = OFF; \
             INSERT INTO transcript_event_identities (session_id, event_id, seq, created_at) \
             SELECT current_session_id, 'dangling', 9999, 0 FROM session_nodes \
             WHERE session_key <> 'agent:main:main' ORDER BY session_key LIMIT 1;",
        )
        .unwrap();
}

/// Every row but the canonical-validation queue's (2026.9.5's doctor empties it of every key;
/// ours takes off the keys it repairs).
fn rows_but_queue(conn: &Connection) -> Vec<String> {
    all_rows(conn)
        .into_iter()
        .filter(|r| !r.starts_with("session_canonical_validation_pending:"))
        .collect()
}

#[test]
fn doctor_fix_on_an_older_release_store_repairs_only_what_that_release_repairs() {
    // What 2026.8.2's and 2026.9.5's own `openclaw doctor --fix` did to the same faults (the
    // reference check release_doctor_fix compares every row with them).
    for (release, schema) in OLDER {
        let clean = Store::copy_release(release, "live");
        // Columns out of step: re-projected from entry_json, every row back as it was.
        let store = Store::copy_release(release, "live");
        let before = schema_of(&open(&store, "main"));
        assert_eq!(before.0, schema);
        let (label_key, sub) = break_columns(&store);
        let doc = store.json_ok(["--json", "doctor", "--fix", "--yes"]);
        let fixed = doc["data"]["fixed"].to_string();
        assert!(
            fixed.contains(&format!("re-projected the columns of {label_key}"))
                && fixed.contains(&format!("re-projected the columns of {sub}")),
            "{release}: {doc}"
        );
        for agent in ["main", "research", "work"] {
            assert!(
                rows_but_queue(&open(&store, agent)) == rows_but_queue(&open(&clean, agent)),
                "{release} {agent}: the rows differ from the unbroken store's"
            );
            assert_kept_schema(&store, agent, &before_of(&clean, agent), release);
        }
        if schema == 21 {
            let queued =
                "SELECT count(*) FROM session_canonical_validation_pending WHERE session_key = ?1";
            assert_eq!(count(&open(&store, "main"), queued, &label_key), 0);
            assert_eq!(count(&open(&store, "research"), queued, &sub), 0);
        }
        // The same columns beside failing foreign keys in main: neither release's doctor
        // repairs a column anywhere then (2026.8.2 skips main and its entry repairs fail for
        // every agent; 2026.9.5 stops before any database repair).
        let store = Store::copy_release(release, "live");
        let (label_key, sub) = break_columns(&store);
        break_foreign_keys(&store);
        let main_rows = all_rows(&open(&store, "main"));
        let research_rows = all_rows(&open(&store, "research"));
        let out = store
            .cmd()
            .args(["--json", "doctor", "--fix", "--yes"])
            .output()
            .unwrap();
        expect_exit(&out, 3);
        let doc = json(&out);
        assert!(
            all_rows(&open(&store, "main")) == main_rows
                && all_rows(&open(&store, "research")) == research_rows,
            "{release}: changed: {doc}"
        );
        let findings = doc["data"]["findings"].as_array().unwrap();
        let hint_of = |key: &str| {
            let f = findings
                .iter()
                .find(|f| f["check"] == "projected-columns" && f["sessionKey"] == key)
                .unwrap_or_else(|| panic!("{release}: {key} not named: {doc}"));
            assert_eq!(f["fixable"], false, "{f}");
            f["hint"].as_str().unwrap().to_string()
        };
        for (key, words) in [
            (&label_key, "while this one fails foreign_key_check"),
            (
                &sub,
                "while the database of agent main fails foreign_key_check",
            ),
        ] {
            let hint = hint_of(key);
            assert!(
                hint.contains(&format!("the doctor of OpenClaw {release}"))
                    && hint.contains("repairs no database")
                    && hint.contains(words)
                    && hint.contains("`openclaw doctor --fix`")
                    && hint.contains(" migrate schema`"),
                "{hint}"
            );
        }
    }
}

fn before_of(store: &Store, agent: &str) -> Schema {
    schema_of(&open(store, agent))
}

/// The two unreadable entries of the reference check release_doctor_fix (its `entries` fault
/// set), in work: one `entry_json` not JSON, one a JSON array.
const UNREADABLE: [(&str, &str); 2] = [
    ("agent:work:discord:channel:987654324", "{not json"),
    ("agent:work:pinned-notes", "[1,2]"),
];

/// The entries 2026.8.2's and 2026.9.5's own `openclaw doctor --fix` rebuilt from those rows'
/// columns (their `hydrateCanonicalRepairEntry`, then `delivery` defaulted by their writer).
const REBUILT: [&str; 2] = [
    r#"{"chatType":"channel","modelProvider":"openai","model":"gpt-5","displayName":"discord:#general","lastInteractionAt":1780401620000,"sessionId":"e539b498-7087-42b5-84b2-533ca66f73aa","updatedAt":1780401620000,"delivery":{"kind":"none"}}"#,
    r#"{"chatType":"direct","modelProvider":"openai","model":"gpt-5","label":"Pinned notes","pinnedAt":1780437617000,"lastInteractionAt":1780437615000,"sessionId":"874a035b-f171-430a-b073-e628ddd56eb9","updatedAt":1780437615000,"delivery":{"kind":"none"}}"#,
];

fn break_entries(store: &Store) {
    let work = store.writable("work");
    for (key, text) in UNREADABLE {
        let n = work
            .execute(
                "UPDATE session_nodes SET entry_json = ?1 WHERE session_key = ?2",
                [text, key],
            )
            .unwrap();
        assert_eq!(n, 1, "{key}");
    }
}

/// Every row but those of the unreadable entries' keys.
fn rows_but_unreadable(conn: &Connection) -> Vec<String> {
    rows_except_keys(conn, &UNREADABLE.map(|(k, _)| k))
}

#[test]
fn doctor_fix_rebuilds_an_unreadable_entry_on_an_older_release_store_as_that_release_does() {
    for (release, schema) in OLDER {
        let clean = Store::copy_release(release, "live");
        let store = Store::copy_release(release, "live");
        break_entries(&store);
        let before = schema_of(&open(&store, "work"));
        let doc = if schema == 19 {
            // The human output, once: what was rebuilt, and where the row as it was is kept.
            let out = store.run_ok(["doctor", "--fix", "--yes", "entry-json"]);
            let mut s = crate::common::settings(&store);
            s.add_filter(r"\.\d{13}\.entry\.json", ".[NOW].entry.json");
            s.bind(|| {
                insta::assert_snapshot!(
                    "doctor_fix_unreadable_entry_19",
                    String::from_utf8_lossy(&out.stdout)
                )
            });
            None
        } else {
            Some(store.json_ok(["--json", "doctor", "--fix", "--yes"]))
        };
        let work = open(&store, "work");
        for ((key, _), rebuilt) in UNREADABLE.iter().zip(REBUILT) {
            let (json, valid, updated, observed, transcript_updated): (String, i64, i64, i64, i64) = work
                .query_row(
                    "SELECT n.entry_json, n.entry_valid, n.updated_at, w.transcript_observed_at, w.transcript_updated_at \
                     FROM session_nodes AS n JOIN session_windows AS w ON w.session_id = n.current_session_id \
                     WHERE n.session_key = ?1",
                    [key],
                    |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
                )
                .unwrap();
            assert_eq!(json, rebuilt, "{release} {key}");
            assert_eq!(valid, 1, "{release} {key}");
            let entry: serde_json::Value = serde_json::from_str(&json).unwrap();
            assert_eq!(entry["updatedAt"], updated, "{release} {key}");
            // The release's writer observes the transcript as of its last update.
            assert_eq!(observed, transcript_updated, "{release} {key}");
            if schema == 21 {
                // 2026.9.5's canonical-key repair leaves the rebuilt key queued for validation.
                let queued = "SELECT count(*) FROM session_canonical_validation_pending WHERE session_key = ?1";
                assert_eq!(count(&work, queued, key), 1, "{release} {key}");
            }
            if let Some(doc) = &doc {
                let fixed = doc["data"]["fixed"].to_string();
                assert!(
                    fixed.contains(&format!("rebuilt the unreadable entry of {key}")),
                    "{release}: {doc}"
                );
            }
        }
        assert!(
            rows_but_unreadable(&work) == rows_but_unreadable(&open(&clean, "work")),
            "{release}: rows other than the unreadable entries' changed"
        );
        for agent in ["main", "research"] {
            assert!(
                all_rows(&open(&store, agent)) == all_rows(&open(&clean, agent)),
                "{release} {agent}: changed"
            );
        }
        assert_kept_schema(&store, "work", &before, release);
        // Both entries read back.
        let list = store.json_ok(["--json", "list", "--agent", "work", "--limit", "all"]);
        let keys = list["data"].to_string();
        assert!(
            UNREADABLE.iter().all(|(k, _)| keys.contains(k)),
            "{release}: {list}"
        );
    }
}

#[test]
fn doctor_fix_moves_a_non_canonical_key_on_an_older_release_store_as_that_release_does() {
    // The keys fault set of release_doctor_fix: both releases' doctors move the row back to
    // its canonical key and rewrite a lineage value normalized, writing the entry through their
    // entry writer (the window upserted with it).
    let (canonical, stored) = ("agent:work:scratch-1", "agent:work:Scratch-1");
    for (release, schema) in OLDER {
        let clean = Store::copy_release(release, "live");
        let store = Store::copy_release(release, "live");
        {
            let work = store.writable("work");
            work.execute_batch("PRAGMA foreign_keys = OFF").unwrap();
            let children: Vec<(String, String)> = work
                .prepare(
                    "SELECT m.name, f.\"from\" FROM sqlite_master AS m, pragma_foreign_key_list(m.name) AS f \
                     WHERE m.type = 'table' AND f.\"table\" = 'session_nodes'",
                )
                .unwrap()
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap()
                .collect::<rusqlite::Result<_>>()
                .unwrap();
            work.execute(
                "UPDATE session_nodes SET session_key = ?1 WHERE session_key = ?2",
                [stored, canonical],
            )
            .unwrap();
            for (t, c) in children {
                work.execute(
                    &format!("UPDATE \"{t}\" SET \"{c}\" = ?1 WHERE \"{c}\" = ?2"),
                    [stored, canonical],
                )
                .unwrap();
            }
        }
        // And a lineage value that is not canonical: rewritten normalized.
        let (child, parent) = ("agent:work:scratch-2", "agent:work:Main");
        store
            .writable("work")
            .execute_batch(&format!(
                "UPDATE session_nodes SET entry_json = json_set(entry_json, '$.parentSessionKey', '{parent}'), \
                 parent_session_key = '{parent}' WHERE session_key = '{child}'; \
                 UPDATE session_nodes SET entry_valid = 1 WHERE session_key = '{child}';"
            ))
            .unwrap();
        let doc = store.json_ok(["--json", "doctor", "--fix", "--yes"]);
        let fixed = doc["data"]["fixed"].to_string();
        assert!(
            fixed.contains(&format!("moved it to its normalized key {canonical}"))
                && fixed.contains(&format!(
                    "session {child}: rewrote its lineage values normalized"
                )),
            "{release}: {doc}"
        );
        let work = open(&store, "work");
        let node = "SELECT entry_json FROM session_nodes WHERE session_key = ?1";
        let entry = |conn: &Connection| -> String {
            conn.query_row(node, [canonical], |r| r.get(0)).unwrap()
        };
        assert_eq!(entry(&work), entry(&open(&clean, "work")), "{release}");
        assert_eq!(
            count(
                &work,
                "SELECT count(*) FROM session_nodes WHERE session_key = ?1",
                stored
            ),
            0
        );
        let (observed, transcript_updated): (i64, i64) = work
            .query_row(
                "SELECT transcript_observed_at, transcript_updated_at FROM session_windows WHERE session_key = ?1",
                [canonical],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(observed, transcript_updated, "{release}");
        if schema == 21 {
            let queued =
                "SELECT count(*) FROM session_canonical_validation_pending WHERE session_key = ?1";
            assert_eq!(count(&work, queued, canonical), 1, "{release}");
        }
        let (lineage, column, window): (String, String, String) = work
            .query_row(
                "SELECT json_extract(n.entry_json, '$.parentSessionKey'), n.parent_session_key, w.parent_session_key \
                 FROM session_nodes AS n JOIN session_windows AS w ON w.session_id = n.current_session_id \
                 WHERE n.session_key = ?1",
                [child],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(
            (lineage.as_str(), column.as_str(), window.as_str()),
            ("agent:work:main", "agent:work:main", "agent:work:main"),
            "{release}"
        );
        let keys = [canonical, stored, child];
        assert!(
            rows_except_keys(&work, &keys) == rows_except_keys(&open(&clean, "work"), &keys),
            "{release}: rows other than the repaired sessions' changed"
        );
    }
}
