//! `archives list|cat|export`, `search`: history on copies of the real fixture stores.

use std::path::Path;

use serde_json::Value;

use crate::common::{checksums, json, Store};

const DELETED: &str = "f41211d0-f8c6-4159-b013-18288254e649";

fn archives(store: &Store, args: &[&str]) -> Vec<Value> {
    let out = store
        .cmd()
        .args(["archives", "list", "--json"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)["data"].as_array().unwrap().clone()
}

/// Archive files a state dir holds, counted from the directories themselves.
fn archive_files(state: &Path) -> usize {
    let mut n = 0;
    for agent in std::fs::read_dir(state.join("agents")).unwrap() {
        let agent = agent.unwrap().path();
        for (dir, pat) in [
            ("sessions", ".jsonl."),
            ("session-sqlite-import-archive", ".jsonl.imported-"),
        ] {
            if let Ok(rd) = std::fs::read_dir(agent.join(dir)) {
                n += rd
                    .filter(|e| {
                        e.as_ref()
                            .unwrap()
                            .file_name()
                            .to_string_lossy()
                            .contains(pat)
                    })
                    .count();
            }
        }
    }
    n
}

#[test]
fn lists_every_archive_with_its_key_reason_and_events() {
    let store = Store::copy("live");
    let rows = archives(&store, &["--all-agents"]);
    assert_eq!(rows.len(), archive_files(&store.state()));
    let deleted: Vec<&Value> = rows.iter().filter(|r| r["reason"] == "deleted").collect();
    assert_eq!(deleted.len(), 1);
    let d = deleted[0];
    assert_eq!(d["sessionId"], DELETED);
    assert_eq!(d["sessionKey"], "agent:main:sdk-made-2");
    assert_eq!(d["row"], true);
    assert_eq!(d["agreement"], "agree");
    assert_eq!(d["archivedAt"], 1795994683289i64);
    // The events the archive holds are the lines of the published file.
    let file = d["file"].as_str().unwrap();
    let text = zstd::decode_all(std::fs::File::open(file).unwrap()).unwrap();
    assert_eq!(
        d["events"],
        text.split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .count()
    );
    let resets: Vec<&Value> = rows.iter().filter(|r| r["reason"] == "reset").collect();
    assert_eq!(resets.len(), 3);
    assert!(resets
        .iter()
        .all(|r| r["agreement"] == "file-only" && r["events"] == 6));
    // Imported transcripts carry the key from the index the import moved aside.
    let main = rows
        .iter()
        .find(|r| r["reason"] == "imported" && r["sessionKey"] == "agent:main:main")
        .unwrap();
    assert_eq!(main["sessionId"], "92ed55f2-df5b-4475-8cc2-23d3d692f452");
    assert_eq!(main["events"], 7);
}

#[test]
fn filters_by_session_and_reason() {
    let store = Store::copy("live");
    let by_key = archives(&store, &["--session", "agent:main:sdk-made-2"]);
    assert_eq!(by_key.len(), 1);
    assert_eq!(by_key[0]["sessionId"], DELETED);
    let bare = archives(&store, &["--session", "sdk-made-2"]);
    assert_eq!(bare.len(), 1);
    let prefix = archives(&store, &["--session", &DELETED[..8]]);
    assert_eq!(prefix.len(), 1);
    let resets = archives(&store, &["--all-agents", "--reason", "reset"]);
    assert_eq!(resets.len(), 3);
    let two = archives(&store, &["--reason", "reset", "--reason", "deleted"]);
    assert_eq!(two.len(), 2);
    let bad = store
        .cmd()
        .args(["archives", "list", "--reason", "gone"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn cat_is_byte_exact_for_rows_files_and_imports() {
    let store = Store::copy("live");
    for r in archives(&store, &["--all-agents"]) {
        let out = store
            .cmd()
            .args([
                "--all-agents",
                "archives",
                "cat",
                r["name"].as_str().unwrap(),
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let file = Path::new(r["file"].as_str().unwrap());
        let original = if r["encoding"] == "zstd" {
            zstd::decode_all(std::fs::File::open(file).unwrap()).unwrap()
        } else {
            std::fs::read(file).unwrap()
        };
        assert_eq!(out.stdout, original, "{}", r["name"]);
    }
    // By session id (its newest archive) and by path, the same bytes.
    let by_id = store.run_ok(["archives", "cat", DELETED]).stdout;
    let row = &archives(&store, &["--reason", "deleted"])[0];
    let by_path = store
        .run_ok(["archives", "cat", row["file"].as_str().unwrap()])
        .stdout;
    assert_eq!(by_id, by_path);
    let limited = store
        .run_ok([
            "archives",
            "cat",
            DELETED,
            "--from-seq",
            "1",
            "--limit",
            "2",
        ])
        .stdout;
    let lines: Vec<&[u8]> = by_id.split(|b| *b == b'\n').collect();
    assert_eq!(limited, [lines[1], b"\n", lines[2], b"\n"].concat());
}

#[test]
fn cat_reads_the_row_when_the_file_is_gone() {
    let store = Store::copy("live");
    let row = &archives(&store, &["--reason", "deleted"])[0];
    let file = row["file"].as_str().unwrap().to_string();
    let before = store.run_ok(["archives", "cat", DELETED]).stdout;
    std::fs::remove_file(&file).unwrap();
    let after = archives(&store, &["--reason", "deleted"]);
    assert_eq!(after[0]["agreement"], "file-missing");
    assert_eq!(store.run_ok(["archives", "cat", DELETED]).stdout, before);
    // A file whose bytes differ from the row's sha256.
    std::fs::write(&file, b"not the archive").unwrap();
    assert_eq!(
        archives(&store, &["--reason", "deleted"])[0]["agreement"],
        "file-differs"
    );
}

#[test]
fn unknown_archive_is_not_found() {
    let store = Store::copy("live");
    let out = store
        .cmd()
        .args(["--json", "archives", "cat", "nope.jsonl.deleted.x.zst"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(4));
    assert_eq!(json(&out)["error"]["code"], "NOT_FOUND");
}

#[test]
fn export_of_an_archive_is_reimportable_jsonl_and_markdown() {
    let store = Store::copy("live");
    let jsonl = store
        .run_ok(["archives", "export", DELETED, "--format", "jsonl"])
        .stdout;
    assert_eq!(jsonl, store.run_ok(["archives", "cat", DELETED]).stdout);
    let md = String::from_utf8(
        store
            .run_ok(["archives", "export", DELETED, "--format", "markdown"])
            .stdout,
    )
    .unwrap();
    assert!(
        md.contains("sdk user msg 0 for agent:main:sdk-made-2"),
        "{md}"
    );
    assert!(md.contains("- Session key: `agent:main:sdk-made-2`"));
    let target = store.dir.path().join("out.jsonl");
    store.run_ok([
        "archives",
        "export",
        DELETED,
        "--format",
        "jsonl",
        "--output",
        target.to_str().unwrap(),
    ]);
    assert_eq!(std::fs::read(&target).unwrap(), jsonl);
    let again = store
        .cmd()
        .args([
            "archives", "export", DELETED, "--format", "jsonl", "--output",
        ])
        .arg(&target)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(5), "never overwrites");
}

/// A cold archive kept in the database, made in OpenClaw's record format from a live
/// session's own events: `archives cat` prints exactly those events.
#[test]
fn cold_archives_decode_to_their_event_records() {
    let store = Store::copy("live");
    let conn = store.writable("main");
    let (sid, generation): (String, String) = conn
        .query_row(
            "SELECT w.session_id, coalesce(m.generation, 'g') FROM session_windows w \
             LEFT JOIN transcript_rewrite_watermarks m USING (session_id) \
             WHERE w.session_key = 'agent:main:main'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let events = store
        .run_ok(["transcript", "cat", "agent:main:main"])
        .stdout;
    let mut records = serde_json::json!({"kind": "header", "version": 1, "sessionId": sid, "generation": generation}).to_string() + "\n";
    for (seq, line) in String::from_utf8(events.clone())
        .unwrap()
        .lines()
        .enumerate()
    {
        records += &serde_json::json!({"kind": "event", "row": {"seq": seq, "event_json": line, "created_at": 1}}).to_string();
        records += "\n";
        records += &serde_json::json!({"kind": "identity", "row": {"event_id": format!("e{seq}"), "seq": seq, "event_type": "message", "parent_id": null, "message_idempotency_key": null, "created_at": 1}}).to_string();
        records += "\n";
    }
    let blob = zstd::encode_all(records.as_bytes(), 3).unwrap();
    let name = format!("{}.jsonl.zst", "a".repeat(64));
    use sha2::Digest;
    let sha = format!("{:x}", sha2::Sha256::digest(&blob));
    conn.execute(
        "INSERT INTO session_transcript_cold_archives (session_id, generation, archive_name, archive_sha256, event_count, raw_bytes, archive_bytes, last_seq, archived_at, storage, archive_blob) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 1795990000000, 'sqlite', ?9)",
        rusqlite::params![sid, generation, name, sha, 7, records.len() as i64, blob.len() as i64, 6, blob],
    )
    .unwrap();
    drop(conn);
    let cold = archives(&store, &["--reason", "cold"]);
    assert_eq!(cold.len(), 1);
    assert_eq!(cold[0]["sessionKey"], "agent:main:main");
    assert_eq!(
        cold[0]["events"],
        events
            .split(|b| *b == b'\n')
            .filter(|l| !l.is_empty())
            .count()
    );
    assert_eq!(store.run_ok(["archives", "cat", &name]).stdout, events);
}

#[test]
fn history_reads_change_nothing_even_on_a_read_only_state_dir() {
    let store = Store::copy("live");
    let before = checksums(&store.state());
    let set_mode = |mode: u32| {
        fn walk(p: &Path, mode: u32) {
            use std::os::unix::fs::PermissionsExt;
            if p.is_dir() {
                for e in std::fs::read_dir(p).unwrap() {
                    walk(&e.unwrap().path(), mode);
                }
                std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode | 0o100)).unwrap();
            } else {
                std::fs::set_permissions(p, std::fs::Permissions::from_mode(mode)).unwrap();
            }
        }
        walk(&store.state(), mode);
    };
    set_mode(0o444);
    for args in [
        vec!["--all-agents", "archives", "list"],
        vec!["archives", "cat", DELETED],
        vec!["archives", "export", DELETED, "--format", "markdown"],
        vec!["--all-agents", "search", "sdk"],
        vec!["--all-agents", "search", "--archived", "sdk"],
    ] {
        let out = store.cmd().args(&args).output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    set_mode(0o644);
    assert_eq!(checksums(&store.state()), before);
}
