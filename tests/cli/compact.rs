//! `compact` and `compact --restore`: inline media out of transcript rows and back, on a copy
//! of a real store with image tool results appended as OpenClaw's SDK stores them (through
//! the writer that stores events as OpenClaw's `prepareTranscriptPayload` does: zstd frames
//! with their navigation).

use std::os::unix::fs::PermissionsExt;

use rusqlite::Connection;
use serde_json::{json as j, Value};

use crate::common::{expect_exit, Store};
use openclaw_sessions::writer::transcript::{EventAppender, SearchRows};

/// Seeded pseudo-random base64: it compresses as little as a real image's does.
fn random_base64(n: usize, salt: u32) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut x: u32 = (salt + 1).wrapping_mul(2_654_435_761);
    (0..n)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            ALPHABET[(x >> 26) as usize] as char
        })
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

/// Append `view_image` tool results (one per length) to `session_id`, chained to its last
/// event, stored as OpenClaw stores them.
fn append_images(db: &mut Connection, session_id: &str, lengths: &[usize], salt: u32) {
    let tx = db.transaction().unwrap();
    let (mut seq, mut parent): (i64, Option<String>) = tx
        .query_row(
            "SELECT seq + 1, event_id FROM transcript_event_identities WHERE session_id = ?1 ORDER BY seq DESC LIMIT 1",
            [session_id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let mut appender = EventAppender::load(&tx, session_id, 1_780_400_000_000).unwrap();
    let mut search = SearchRows::new();
    for (i, n) in lengths.iter().enumerate() {
        let id = format!("img{salt}{i:04}");
        let event = j!({
            "type": "message", "id": id, "parentId": parent, "timestamp": "2026-06-02T12:00:00.000Z",
            "message": {
                "role": "toolResult", "toolCallId": format!("call_view_image_{i}"), "toolName": "view_image",
                "content": [
                    {"type": "text", "text": format!("Read image file [image/png] shot-{i}.png")},
                    {"type": "image", "data": random_base64(*n, salt + i as u32), "mimeType": "image/png"}
                ],
                "isError": false, "timestamp": 1_780_401_600_000i64
            }
        });
        let text = event.to_string();
        appender
            .append(
                &tx,
                &mut search,
                seq,
                &text,
                &event,
                1_780_400_000_000 + seq,
            )
            .unwrap();
        parent = Some(id);
        seq += 1;
    }
    appender.finish(&tx, &mut search).unwrap();
    search.flush(&tx).unwrap();
    tx.commit().unwrap();
}

/// Every row of the tables a transcript keeps, each cell rendered exactly (blobs in hex).
fn transcript_tables(db: &Connection) -> Vec<(String, Vec<String>)> {
    let tables = [
        "transcript_events",
        "transcript_event_identities",
        "transcript_rewrite_watermarks",
        "session_transcript_active_events",
        "session_transcript_fts_rows",
        "session_transcript_index_state",
    ];
    let mut out = Vec::new();
    for t in tables {
        let exists: bool = db
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [t],
                |r| r.get::<_, i64>(0),
            )
            .unwrap()
            > 0;
        if !exists {
            continue;
        }
        let mut stmt = db
            .prepare(&format!("SELECT * FROM {t} ORDER BY 1, 2"))
            .unwrap();
        let n = stmt.column_count();
        let rows: Vec<String> = stmt
            .query_map([], |r| {
                let mut cells = Vec::new();
                for i in 0..n {
                    cells.push(match r.get_ref(i)? {
                        rusqlite::types::ValueRef::Blob(b) => {
                            b.iter().map(|x| format!("{x:02x}")).collect()
                        }
                        v => format!("{v:?}"),
                    });
                }
                Ok(cells.join("|"))
            })
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        out.push((t.to_string(), rows));
    }
    // FTS rows by their text (the FTS5 table itself).
    let mut stmt = db
        .prepare("SELECT rowid, * FROM session_transcript_fts ORDER BY rowid")
        .unwrap();
    let n = stmt.column_count();
    let rows: Vec<String> = stmt
        .query_map([], |r| {
            Ok((0..n)
                .map(|i| format!("{:?}", r.get_ref(i).unwrap()))
                .collect::<Vec<_>>()
                .join("|"))
        })
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    out.push(("session_transcript_fts".into(), rows));
    out
}

pub(crate) struct Seeded {
    pub(crate) store: Store,
    pinned: String,
}

/// The live store with 300 KB, 200 KB and 20 KB images in one session and 150 KB in another.
pub(crate) fn seeded() -> Seeded {
    let store = Store::copy("live");
    let mut db = store.writable("main");
    let pinned = session_of(&db, "agent:main:pinned-notes");
    let scratch = session_of(&db, "agent:main:scratch-2");
    append_images(&mut db, &pinned, &[300_000, 200_000, 20_000], 1);
    append_images(&mut db, &scratch, &[150_000], 7);
    Seeded { store, pinned }
}

fn media_files(store: &Store) -> Vec<std::path::PathBuf> {
    let dir = store.state().join("openclaw-sessions/media/main");
    match std::fs::read_dir(&dir) {
        Ok(d) => d.flatten().map(|e| e.path()).collect(),
        Err(_) => Vec::new(),
    }
}

fn inline_media(store: &Store) -> u64 {
    let du = store.json_ok(["du", "--content", "--json"]);
    du["data"]["agents"][0]["inlineMediaBytes"]
        .as_u64()
        .unwrap()
}

#[test]
fn compact_moves_large_images_out_and_restore_gives_byte_identical_rows() {
    let s = seeded();
    let db = s.store.writable("main");
    let compressed: i64 = db
        .query_row(
            "SELECT count(*) FROM transcript_events WHERE event_zstd IS NOT NULL AND event_utf8_bytes > 100000",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(
        compressed, 3,
        "the images are stored as zstd frames, as OpenClaw stores them"
    );
    let before = transcript_tables(&db);
    drop(db);
    assert_eq!(inline_media(&s.store), 670_000);

    // A dry run shows bytes per session and changes nothing.
    let dry = s.store.json_ok(["compact", "--dry-run", "--json"]);
    assert_eq!(dry["data"]["dryRun"], true);
    let sessions = &dry["data"]["plan"]["agents"][0]["sessions"];
    assert_eq!(sessions[0]["sessionId"], s.pinned.as_str(), "{dry:#}");
    assert_eq!(sessions[0]["mediaBytes"], 500_000);
    assert_eq!(sessions[0]["leftInlineBytes"], 20_000);
    assert_eq!(sessions[1]["mediaBytes"], 150_000);
    assert_eq!(transcript_tables(&s.store.writable("main")), before);
    assert!(media_files(&s.store).is_empty());

    let done = s.store.json_ok(["compact", "--yes", "--json"]);
    assert_eq!(done["data"]["applied"], true, "{done:#}");
    assert_eq!(done["data"]["snapshots"].as_array().unwrap().len(), 1);
    // Only the 20 KB image stays inline.
    assert_eq!(inline_media(&s.store), 20_000);
    let files = media_files(&s.store);
    assert_eq!(files.len(), 3);
    for f in &files {
        assert_eq!(
            std::fs::metadata(f).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }
    let db = s.store.writable("main");
    let after = transcript_tables(&db);
    // Every projection is as it was: only the event rows changed.
    for ((t, rows), (t2, rows2)) in before.iter().zip(&after) {
        assert_eq!(t, t2);
        if t != "transcript_events" {
            assert_eq!(rows, rows2, "{t} changed");
        }
    }
    // The compacted block is OpenClaw's own omitted-image form.
    let out = s
        .store
        .run_ok(["transcript", "cat", "agent:main:pinned-notes"]);
    let events: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let omitted: Vec<&Value> = events
        .iter()
        .filter_map(|e| e["message"]["content"].as_array())
        .flatten()
        .filter(|b| b["omitted"] == true)
        .collect();
    assert_eq!(omitted.len(), 2);
    assert_eq!(
        omitted[0],
        &j!({"type": "image", "mimeType": "image/png", "bytes": 225_000, "omitted": true})
    );
    let zstd_left: i64 = db
        .query_row(
            "SELECT count(*) FROM transcript_events WHERE event_utf8_bytes > 100000",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(zstd_left, 0);
    drop(db);
    let ok = s.store.run_ok(["doctor", "--json"]);
    let _ = ok;

    // A second compact finds nothing (quiet), and restore gives every row back byte for byte.
    let again = s.store.json_ok(["compact", "--yes", "--json"]);
    assert_eq!(again["data"]["applied"], false);
    let back = s.store.json_ok(["compact", "--restore", "--yes", "--json"]);
    assert_eq!(back["data"]["applied"], true, "{back:#}");
    assert_eq!(transcript_tables(&s.store.writable("main")), before);
    assert!(media_files(&s.store).is_empty(), "payload files removed");
    assert_eq!(inline_media(&s.store), 670_000);
}

#[test]
fn compact_of_one_key_leaves_the_other_sessions_and_bad_sizes_are_refused() {
    let s = seeded();
    let out = s.store.json_ok([
        "compact",
        "agent:main:scratch-2",
        "--min-bytes",
        "100kb",
        "--yes",
        "--json",
    ]);
    let sessions = &out["data"]["plan"]["agents"][0]["sessions"];
    assert_eq!(sessions.as_array().unwrap().len(), 1, "{out:#}");
    assert_eq!(sessions[0]["mediaBytes"], 150_000);
    assert_eq!(inline_media(&s.store), 520_000);
    let bad = s
        .store
        .run_code(["compact", "--min-bytes", "0", "--yes"], 2);
    expect_exit(&bad, 2);
    // Restoring another key finds nothing to put back.
    let none = s.store.json_ok([
        "compact",
        "--restore",
        "agent:main:pinned-notes",
        "--yes",
        "--json",
    ]);
    assert_eq!(none["data"]["applied"], false);
    assert_eq!(inline_media(&s.store), 520_000);
}

/// The binary as a std command on `store` (for resource limits).
fn std_cmd(store: &Store) -> std::process::Command {
    let mut c = crate::common::std_bin();
    c.env("HOME", store.state().parent().unwrap())
        .arg("--state-dir")
        .arg(store.state());
    c
}

fn integrity(store: &Store, what: &str) {
    crate::common::assert_integrity(&store.writable("main"), what);
}

/// After anything: a complete compact and a restore give every row back as it was.
fn nothing_lost(s: &Seeded, before: &[(String, Vec<String>)], what: &str) {
    let again = s
        .store
        .cmd()
        .args(["compact", "--yes", "--json"])
        .output()
        .unwrap();
    expect_exit(&again, 0);
    assert_eq!(inline_media(&s.store), 20_000, "{what}: compact finished");
    let back = s
        .store
        .cmd()
        .args(["compact", "--restore", "--yes", "--json"])
        .output()
        .unwrap();
    expect_exit(&back, 0);
    assert_eq!(
        transcript_tables(&s.store.writable("main")),
        before,
        "{what}: rows not as they were"
    );
    assert!(
        media_files(&s.store).is_empty(),
        "{what}: payload files left"
    );
}

/// kill -9 at every crash point a compact passes (one event per transaction): the database
/// is whole, every row is its original or its compacted text, and a re-run then a restore
/// give every row back byte for byte.
#[test]
fn compact_killed_at_every_point_loses_nothing() {
    let mut runs = 0;
    for n in 1..200 {
        let s = seeded();
        let before = transcript_tables(&s.store.writable("main"));
        let out = s
            .store
            .cmd()
            .args(["compact", "--yes"])
            .env("OPENCLAW_SESSIONS_APPLY_BATCH", "1")
            .env("OPENCLAW_SESSIONS_CRASH_AFTER", n.to_string())
            .output()
            .unwrap();
        if out.status.success() {
            break;
        }
        assert_eq!(out.status.code(), None, "run {n}: failed on its own");
        runs += 1;
        integrity(&s.store, &format!("compact run {n}"));
        nothing_lost(&s, &before, &format!("compact run {n}"));
    }
    assert!(runs >= 8, "only {runs} crash points");
}

/// kill -9 at every crash point a restore passes: re-run, it finishes, and every row is
/// byte for byte what it was before the compact; payload files go only at the end.
#[test]
fn restore_killed_at_every_point_loses_nothing() {
    let mut runs = 0;
    for n in 1..200 {
        let s = seeded();
        let before = transcript_tables(&s.store.writable("main"));
        s.store.run_ok(["compact", "--yes"]);
        let out = s
            .store
            .cmd()
            .args(["compact", "--restore", "--yes"])
            .env("OPENCLAW_SESSIONS_APPLY_BATCH", "1")
            .env("OPENCLAW_SESSIONS_CRASH_AFTER", n.to_string())
            .output()
            .unwrap();
        if out.status.success() {
            break;
        }
        assert_eq!(out.status.code(), None, "run {n}: failed on its own");
        runs += 1;
        integrity(&s.store, &format!("restore run {n}"));
        let back = s
            .store
            .cmd()
            .args(["compact", "--restore", "--yes"])
            .output()
            .unwrap();
        expect_exit(&back, 0);
        assert_eq!(
            transcript_tables(&s.store.writable("main")),
            before,
            "restore run {n}"
        );
        assert!(media_files(&s.store).is_empty(), "restore run {n}");
    }
    assert!(runs >= 6, "only {runs} crash points");
}

/// A full disk (file size limits from the payload files to the database's growth) stops a
/// compact or a restore with an error, never half a row: a later run finishes and nothing
/// is lost.
#[test]
fn a_full_disk_loses_nothing() {
    for limit in [64 * 1024, 256 * 1024, 1024 * 1024] {
        let s = seeded();
        let before = transcript_tables(&s.store.writable("main"));
        let mut cmd = std_cmd(&s.store);
        cmd.args(["compact", "--yes", "--backup-dir"])
            .arg(s.store.state().parent().unwrap().join("snaps"));
        crate::common::limit_file_size(&mut cmd, limit);
        let out = cmd.output().unwrap();
        assert_ne!(out.status.code(), Some(101), "limit {limit}: a panic");
        integrity(&s.store, &format!("compact at {limit}"));
        nothing_lost(&s, &before, &format!("compact at {limit}"));

        let s = seeded();
        let before = transcript_tables(&s.store.writable("main"));
        s.store.run_ok(["compact", "--yes"]);
        let mut cmd = std_cmd(&s.store);
        cmd.args(["compact", "--restore", "--yes"]);
        crate::common::limit_file_size(&mut cmd, limit);
        let out = cmd.output().unwrap();
        assert_ne!(out.status.code(), Some(101), "limit {limit}: a panic");
        integrity(&s.store, &format!("restore at {limit}"));
        nothing_lost(&s, &before, &format!("restore at {limit}"));
    }
}

/// What people read: the plan (dry run), the compact's table and the restore's, at 80 and 200
/// columns.
#[test]
fn compact_views_for_people_at_80_and_200_columns() {
    for width in ["80", "200"] {
        let s = seeded();
        let settings = crate::common::settings(&s.store);
        for (name, args) in [
            ("plan", vec!["compact", "--dry-run"]),
            ("applied", vec!["compact", "--yes"]),
            ("restore_plan", vec!["compact", "--restore", "--dry-run"]),
            ("restored", vec!["compact", "--restore", "--yes"]),
        ] {
            let out = s
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
            settings.bind(|| insta::assert_snapshot!(format!("compact_{name}_{width}"), text));
        }
    }
}

/// Nothing due, nothing printed: a cron run of compact on a store without large inline media
/// prints nothing on either stream and changes nothing.
#[test]
fn compact_with_nothing_due_is_quiet() {
    let store = Store::copy("live");
    let out = store.run_ok(["compact", "--yes"]);
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    let out = store.run_ok(["compact", "--restore", "--yes"]);
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    assert!(!store.state().join("openclaw-sessions").exists());
}

/// `--older-than` keeps what is newer: the seeded events are from June 2026.
#[test]
fn older_than_keeps_newer_events_inline() {
    let s = seeded();
    let none = s
        .store
        .json_ok(["compact", "--older-than", "3650d", "--dry-run", "--json"]);
    let sessions = none["data"]["plan"]["agents"][0]["sessions"]
        .as_array()
        .unwrap();
    assert!(sessions.iter().all(|s| s["events"] == 0), "{none:#}");
    let some = s
        .store
        .json_ok(["compact", "--older-than", "1d", "--dry-run", "--json"]);
    let events: u64 = some["data"]["plan"]["agents"][0]["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["events"].as_u64().unwrap())
        .sum();
    assert_eq!(events, 3);
}

/// A compacted row changed since (OpenClaw rewrote it): the restore puts the others back,
/// keeps that row's record and payload, and says so (exit 3, PARTIAL); nothing is lost.
#[test]
fn a_row_changed_since_compact_keeps_its_payload() {
    let s = seeded();
    s.store.run_ok(["compact", "--yes"]);
    let db = s.store.writable("main");
    let (sid, seq): (String, i64) = db
        .query_row(
            "SELECT session_id, seq FROM transcript_events WHERE session_id = ?1 ORDER BY seq DESC LIMIT 1 OFFSET 1",
            [&s.pinned],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let text: String = db
        .query_row(
            "SELECT event_json FROM transcript_events WHERE session_id = ?1 AND seq = ?2",
            rusqlite::params![sid, seq],
            |r| r.get(0),
        )
        .unwrap();
    assert!(text.contains("\"omitted\":true"), "{text}");
    db.execute(
        "UPDATE transcript_events SET event_json = replace(event_json, 'shot-', 'SHOT-'), event_utf8_bytes = octet_length(replace(event_json, 'shot-', 'SHOT-')) WHERE session_id = ?1 AND seq = ?2",
        rusqlite::params![sid, seq],
    )
    .unwrap();
    drop(db);
    let out = s
        .store
        .run_code(["compact", "--restore", "--yes", "--json"], 3);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["error"]["code"], "PARTIAL", "{doc:#}");
    assert_eq!(
        media_files(&s.store).len(),
        1,
        "the changed row's payload is kept"
    );
    // The 300 KB and 150 KB images are back; the 200 KB one of the changed row is in its file.
    assert_eq!(inline_media(&s.store), 20_000 + 300_000 + 150_000);
    assert_eq!(
        std::fs::metadata(&media_files(&s.store)[0]).unwrap().len(),
        200_000
    );
}

/// This tool's directory in the state dir reached through a symbolic link: refused before
/// any change (exit 5, UNSAFE_PATH), nothing written there or in the rows.
#[test]
fn a_symlinked_media_directory_is_refused() {
    let s = seeded();
    let elsewhere = s.store.state().parent().unwrap().join("elsewhere");
    // A file there that no record names: never removed through the link.
    std::fs::create_dir_all(elsewhere.join("media/main")).unwrap();
    std::fs::write(elsewhere.join("media/main/keep"), "x").unwrap();
    std::os::unix::fs::symlink(&elsewhere, s.store.state().join("openclaw-sessions")).unwrap();
    let before = transcript_tables(&s.store.writable("main"));
    let out = s.store.run_code(["compact", "--yes", "--json"], 5);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["error"]["code"], "UNSAFE_PATH", "{doc:#}");
    assert_eq!(transcript_tables(&s.store.writable("main")), before);
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 1);
    assert!(elsewhere.join("media/main/keep").is_file());
}
