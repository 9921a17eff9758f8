//! `du --sessions`, `du --content [KEY]` and `du --database`: where the bytes are, checked
//! against sums computed here from the rows themselves.

use rusqlite::{params, Connection};
use serde_json::{json as j, Value};

use crate::common::{settings, Store};

/// A base64 payload of `n` characters (valid base64: every character from its alphabet).
fn base64_of(n: usize, salt: u8) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    (0..n)
        .map(|i| ALPHABET[(i * 7 + salt as usize) % 64] as char)
        .collect()
}

fn session_of(db: &Connection, key: &str) -> String {
    db.query_row(
        "SELECT session_id FROM session_windows WHERE session_key = ?1 ORDER BY updated_at DESC LIMIT 1",
        [key],
        |r| r.get(0),
    )
    .unwrap()
}

/// Append an event as a plain JSON row at the transcript's next `seq`; returns the `seq`.
fn append(db: &Connection, session_id: &str, event: &Value) -> i64 {
    let seq: i64 = db
        .query_row(
            "SELECT coalesce(max(seq), -1) + 1 FROM transcript_events WHERE session_id = ?1",
            [session_id],
            |r| r.get(0),
        )
        .unwrap();
    let text = event.to_string();
    db.execute(
        "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![session_id, seq, text, 1_780_400_000_000i64 + seq, text.len() as i64],
    )
    .unwrap();
    seq
}

/// A `view_image` tool result as OpenClaw's SDK stores it: the image inline, base64.
fn view_image_result(data: &str) -> Value {
    j!({
        "type": "message", "id": "img", "parentId": null, "timestamp": "2026-06-02T12:00:00.000Z",
        "message": {
            "role": "toolResult", "toolCallId": "call_img", "toolName": "view_image",
            "content": [
                {"type": "text", "text": "Read image file [image/png]"},
                {"type": "image", "data": data, "mimeType": "image/png"}
            ],
            "isError": false, "timestamp": 1780401600000i64
        }
    })
}

/// The live store with three image tool results (300, 200 and 100 KB of base64) in two
/// sessions and a user message with 50 KB of inline audio. Returns the inline media bytes
/// appended and where the largest went.
struct Media {
    store: Store,
    media_bytes: u64,
    largest: (String, i64),
    pinned_id: String,
}

fn store_with_media() -> Media {
    let store = Store::copy("live");
    let db = store.writable("main");
    let pinned = session_of(&db, "agent:main:pinned-notes");
    let scratch = session_of(&db, "agent:main:scratch-2");
    let big = append(&db, &pinned, &view_image_result(&base64_of(300_000, 1)));
    append(&db, &scratch, &view_image_result(&base64_of(200_000, 2)));
    append(&db, &pinned, &view_image_result(&base64_of(100_000, 3)));
    append(
        &db,
        &scratch,
        &j!({"type": "message", "id": "aud", "message": {"role": "user", "content": [
            {"type": "text", "text": "listen"},
            {"type": "audio", "data": base64_of(50_000, 4), "mimeType": "audio/ogg"}
        ]}}),
    );
    Media {
        store,
        media_bytes: 650_000,
        largest: (pinned.clone(), big),
        pinned_id: pinned,
    }
}

/// `sum(...)` over `transcript_events` of the main agent, plain rows only.
fn sql_i64(store: &Store, sql: &str) -> i64 {
    store
        .writable("main")
        .query_row(sql, [], |r| r.get::<_, Option<i64>>(0))
        .unwrap()
        .unwrap_or(0)
}

#[test]
fn du_content_counts_inline_media_by_block_tool_and_names_the_largest_events() {
    let m = store_with_media();
    let data = m.store.json_ok(["du", "--content", "--json"]);
    let agent = &data["data"]["agents"][0];
    assert_eq!(agent["agentId"], "main");
    assert_eq!(agent["inlineMediaBytes"], m.media_bytes, "{agent:#}");
    // An independent sum: SQLite's JSON functions over the stored rows.
    let by_sql = sql_i64(
        &m.store,
        "SELECT sum(length(json_extract(b.value, '$.data'))) FROM transcript_events e, \
         json_each(json_extract(e.event_json, '$.message.content')) b \
         WHERE e.event_json IS NOT NULL AND json_type(b.value, '$.data') = 'text'",
    );
    assert_eq!(agent["inlineMediaBytes"], by_sql);
    let image = &agent["byBlock"]["image (inline base64)"];
    assert_eq!(image["count"], 3);
    assert_eq!(image["bytes"], 600_000);
    assert_eq!(agent["byBlock"]["audio (inline base64)"]["bytes"], 50_000);
    assert_eq!(agent["byTool"]["view_image"]["count"], 3);
    assert!(agent["byTool"]["view_image"]["bytes"].as_u64().unwrap() > 600_000);
    // Every event counted once, and its bytes add up to the table's own total.
    let events = sql_i64(&m.store, "SELECT count(*) FROM transcript_events");
    assert_eq!(agent["events"], events);
    let bytes = sql_i64(
        &m.store,
        "SELECT sum(coalesce(event_utf8_bytes, octet_length(event_json))) FROM transcript_events",
    );
    assert_eq!(agent["bytes"], bytes);
    let kinds: u64 = agent["byKind"]
        .as_object()
        .unwrap()
        .values()
        .map(|t| t["bytes"].as_u64().unwrap())
        .sum();
    assert_eq!(kinds as i64, bytes);
    // The largest events first, named by session key, id, seq and time; 10 by default.
    let largest = agent["largest"].as_array().unwrap();
    assert_eq!(largest.len(), 10);
    assert_eq!(largest[0]["sessionId"], m.largest.0);
    assert_eq!(largest[0]["seq"], m.largest.1);
    assert_eq!(largest[0]["sessionKey"], "agent:main:pinned-notes");
    assert_eq!(largest[0]["toolName"], "view_image");
    assert_eq!(largest[0]["mediaBytes"], 300_000);
    assert!(largest[0]["createdAt"].is_i64());
    let sizes: Vec<u64> = largest
        .iter()
        .map(|e| e["bytes"].as_u64().unwrap())
        .collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");
    // --limit all names every event.
    let all = m
        .store
        .json_ok(["du", "--content", "--limit", "all", "--json"]);
    assert_eq!(
        all["data"]["agents"][0]["largest"]
            .as_array()
            .unwrap()
            .len() as i64,
        events
    );
}

#[test]
fn du_content_of_one_session_measures_that_transcript_only() {
    let m = store_with_media();
    let data = m
        .store
        .json_ok(["du", "--content", "agent:main:pinned-notes", "--json"]);
    let agents = data["data"]["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 1);
    let a = &agents[0];
    assert_eq!(a["sessionId"], m.pinned_id);
    let events = m
        .store
        .writable("main")
        .query_row(
            "SELECT count(*) FROM transcript_events WHERE session_id = ?1",
            [&m.pinned_id],
            |r| r.get::<_, i64>(0),
        )
        .unwrap();
    assert_eq!(a["events"], events);
    assert_eq!(a["inlineMediaBytes"], 400_000);
    assert!(a["largest"]
        .as_array()
        .unwrap()
        .iter()
        .all(|e| e["sessionId"] == m.pinned_id));
    // A key that names nothing is an error, not an empty report.
    let out = m
        .store
        .cmd()
        .args(["du", "--content", "agent:main:no-such-session"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}

#[test]
fn du_sessions_lists_the_largest_first_and_counts_every_transcript() {
    let m = store_with_media();
    let data = m
        .store
        .json_ok(["du", "--sessions", "--limit", "2", "--json"]);
    let a = &data["data"]["agents"][0];
    let transcripts = sql_i64(
        &m.store,
        "SELECT count(DISTINCT session_id) FROM transcript_events",
    );
    assert_eq!(a["transcripts"], transcripts);
    let bytes = sql_i64(
        &m.store,
        "SELECT sum(coalesce(event_utf8_bytes, octet_length(event_json))) FROM transcript_events",
    );
    assert_eq!(a["bytes"], bytes);
    let sessions = a["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 2);
    assert_eq!(sessions[0]["sessionKey"], "agent:main:pinned-notes");
    assert_eq!(sessions[1]["sessionKey"], "agent:main:scratch-2");
    let pinned_bytes = m
        .store
        .writable("main")
        .query_row(
            "SELECT sum(coalesce(event_utf8_bytes, octet_length(event_json))) FROM transcript_events WHERE session_id = ?1",
            [&m.pinned_id],
            |r| r.get::<_, i64>(0),
        )
        .unwrap();
    assert_eq!(sessions[0]["bytes"], pinned_bytes);

    // The other orders, every transcript with `all`.
    for (sort, field) in [
        ("events", "events"),
        ("stored", "storedBytes"),
        ("updated", "lastEventAt"),
    ] {
        let data = m.store.json_ok([
            "du",
            "--sessions",
            "--sort",
            sort,
            "--limit",
            "all",
            "--json",
        ]);
        let rows = data["data"]["agents"][0]["sessions"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(rows.len() as i64, transcripts, "{sort}");
        let v: Vec<i64> = rows.iter().map(|r| r[field].as_i64().unwrap()).collect();
        assert!(v.windows(2).all(|w| w[0] >= w[1]), "{sort}: {v:?}");
    }
    // A limit that is no count is refused.
    for bad in ["0", "many"] {
        let out = m
            .store
            .cmd()
            .args(["du", "--sessions", "--limit", bad])
            .output()
            .unwrap();
        assert!(!out.status.success(), "--limit {bad}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("--limit"));
    }
}

#[test]
fn du_database_splits_tables_indexes_fts_free_pages_and_the_wal() {
    let store = Store::copy("live");
    // A writer keeps its WAL while it is open: du reports it beside the database.
    let writer = store.writable("main");
    writer
        .execute_batch(
            "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; \
             CREATE TABLE filler(b BLOB); INSERT INTO filler VALUES (randomblob(200000));",
        )
        .unwrap();
    let data = store.json_ok(["du", "--database", "--json"]);
    let a = &data["data"]["agents"][0];
    let objects = a["objects"].as_array().unwrap();
    let by = |kind: &str| -> u64 {
        objects
            .iter()
            .filter(|o| o["kind"] == kind)
            .map(|o| o["bytes"].as_u64().unwrap())
            .sum()
    };
    assert_eq!(a["tableBytes"], by("table"));
    assert_eq!(a["indexBytes"], by("index"));
    assert_eq!(a["ftsBytes"], by("fts"));
    assert!(a["ftsBytes"].as_u64().unwrap() > 0);
    let fts = objects
        .iter()
        .find(|o| o["name"] == "session_transcript_fts_data")
        .unwrap();
    assert_eq!(fts["table"], "session_transcript_fts");
    let events = objects
        .iter()
        .find(|o| o["name"] == "transcript_events")
        .unwrap();
    assert_eq!(events["kind"], "table");
    // Every page is a table's, an index's, a free page, or a pointer map (at most one in
    // page_size / 5).
    let page = a["pageSize"].as_u64().unwrap();
    let pages = a["pageCount"].as_u64().unwrap();
    let counted: u64 = objects
        .iter()
        .map(|o| o["pages"].as_u64().unwrap())
        .sum::<u64>()
        + a["freePages"].as_u64().unwrap();
    assert!(
        counted <= pages && pages - counted <= pages / (page / 5) + 1,
        "{counted} of {pages}"
    );
    let wal = a["sidecars"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["suffix"] == "-wal")
        .unwrap_or_else(|| panic!("no -wal in {a:#}"));
    assert!(wal["bytes"].as_u64().unwrap() > 200_000);
    drop(writer);
}

#[test]
fn du_views_for_people_at_80_and_200_columns() {
    let m = store_with_media();
    let s = settings(&m.store);
    for width in ["80", "200"] {
        for (name, args) in [
            ("sessions", vec!["du", "--sessions", "--limit", "3"]),
            ("content", vec!["du", "--content", "--limit", "3"]),
            ("database", vec!["du", "--database"]),
        ] {
            let out = m
                .store
                .cmd()
                .env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", width)
                .env_remove("COLUMNS")
                .args(&args)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let text = String::from_utf8(out.stdout).unwrap();
            if width == "80" {
                for line in text.lines() {
                    assert!(line.chars().count() <= 80, "{name}: {line:?}");
                }
            }
            s.bind(|| insta::assert_snapshot!(format!("du_{name}_{width}"), text));
        }
    }
}
