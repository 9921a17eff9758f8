//! `archives list|cat|export`, `search`: history on copies of the real fixture stores.

use std::path::Path;

use serde_json::Value;

use crate::common::{checksums, expect_exit, json, Store};

const DELETED: &str = "f41211d0-f8c6-4159-b013-18288254e649";

fn archives(store: &Store, args: &[&str]) -> Vec<Value> {
    let out = store
        .cmd()
        .args(["archives", "list", "--json"])
        .args(args)
        .output()
        .unwrap();
    expect_exit(&out, 0);
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
    store.run_code(["archives", "list", "--reason", "gone"], 2);
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
        expect_exit(&out, 0);
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
    assert_eq!(
        store.run_ok(["archives", "cat", &DELETED[..8]]).stdout,
        by_id,
        "an 8+ character id prefix"
    );
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
    let out = store.run_code(["--json", "archives", "cat", "nope.jsonl.deleted.x.zst"], 4);
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

fn search_json(store: &Store, args: &[&str]) -> Value {
    let out = store
        .cmd()
        .args(["search", "--json", "--limit", "100000"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)["data"].clone()
}

/// `(session id, message id, seq)` of every hit.
fn hit_set(data: &Value) -> std::collections::BTreeSet<(String, String, Option<i64>)> {
    data["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["sessionId"].as_str().unwrap().to_string(),
                h["messageId"].as_str().unwrap().to_string(),
                h["seq"].as_i64(),
            )
        })
        .collect()
}

#[test]
fn search_matches_a_direct_fts5_match_on_the_same_database() {
    let store = Store::copy("live");
    // Non-ASCII text, indexed the way OpenClaw indexes a message (fts_rows id = FTS rowid).
    let conn = store.writable("main");
    let (sid, event_id, seq): (String, String, i64) = conn
        .query_row(
            "SELECT session_id, event_id, seq FROM transcript_event_identities WHERE event_type = 'message' LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    conn.execute(
        "INSERT INTO session_transcript_fts_rows (session_id, message_id) VALUES (?1, ?2)",
        [&sid, &event_id],
    )
    .unwrap();
    let rowid = conn.last_insert_rowid();
    conn.execute(
        "INSERT INTO session_transcript_fts (rowid, text, session_id, message_id, role, timestamp) \
         VALUES (?1, 'Grüße aus dem Café in 東京 naïve', ?2, ?3, 'user', 1795990000000.0)",
        rusqlite::params![rowid, sid, event_id],
    )
    .unwrap();
    for query in [
        "summarize",
        "\"user turn\"",
        "summ*",
        "item AND answer",
        "sdk OR summarized",
        "summarize NOT \"item 0\"",
        "cafe",
        "GRUSSE OR grüße",
        "東京",
        "naive",
    ] {
        let ours = hit_set(&search_json(&store, &["--fts", query]));
        let mut direct = std::collections::BTreeSet::new();
        let mut stmt = conn
            .prepare(
                "SELECT f.session_id, f.message_id, i.seq FROM session_transcript_fts f \
                 LEFT JOIN transcript_event_identities i ON i.session_id = f.session_id AND i.event_id = f.message_id \
                 WHERE session_transcript_fts MATCH ?1",
            )
            .unwrap();
        let rows = stmt
            .query_map([query], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap();
        for r in rows {
            direct.insert(r.unwrap());
        }
        assert_eq!(ours, direct, "query {query:?}");
        if matches!(query, "cafe" | "東京" | "naive") {
            assert_eq!(ours.len(), 1, "{query:?}");
            assert!(ours.contains(&(sid.clone(), event_id.clone(), Some(seq))));
        } else {
            assert!(!ours.is_empty(), "{query:?}");
        }
    }
    // Snippets are highlighted, roles and limits apply, best match first.
    let d = search_json(&store, &["東京"]);
    assert!(d["hits"][0]["snippet"]
        .as_str()
        .unwrap()
        .contains("**東京**"));
    assert_eq!(
        d["hits"][0]["sessionKey"],
        conn.query_row(
            "SELECT session_key FROM session_windows WHERE session_id = ?1",
            [&sid],
            |r| r.get::<_, String>(0)
        )
        .unwrap()
    );
    let users = search_json(&store, &["summarize", "--role", "assistant"]);
    assert!(users["hits"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["role"] == "assistant"));
    let two = store.run_ok(["search", "--json", "summarize", "--limit", "2"]);
    let two = json(&two);
    assert_eq!(two["data"]["hits"].as_array().unwrap().len(), 2);
    assert_eq!(two["data"]["truncated"], true);
    let scores: Vec<f64> = search_json(&store, &["--fts", "summarize OR sdk"])["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "best first");
    let times: Vec<i64> = search_json(&store, &["--fts", "summarize OR sdk", "--order", "recent"])
        ["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["timestamp"].as_i64().unwrap())
        .collect();
    assert!(
        times.len() > 10 && times.windows(2).all(|w| w[0] >= w[1]),
        "newest first"
    );
    let since = search_json(
        &store,
        &["--fts", "cafe OR summarize", "--since", "@1795989999999ms"],
    );
    assert!(since["hits"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["timestamp"].as_i64().unwrap() >= 1795989999999));
}

#[test]
fn search_finds_text_only_in_archives_with_archived() {
    let store = Store::copy("live");
    let phrase = "\"agent:main:sdk-made-2\"";
    let live = search_json(&store, &["--fts", phrase]);
    assert!(live["hits"].as_array().unwrap().is_empty());
    let all = search_json(&store, &["--fts", phrase, "--archived"]);
    let hits = all["hits"].as_array().unwrap();
    let cat = store.run_ok(["archives", "cat", DELETED]).stdout;
    let lines: Vec<Value> = String::from_utf8(cat)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let messages_with_it = lines
        .iter()
        .filter(|e| {
            e["type"] == "message" && e["message"].to_string().contains("agent:main:sdk-made-2")
        })
        .count();
    assert!(messages_with_it > 0);
    assert_eq!(hits.len(), messages_with_it, "{all}");
    for h in hits {
        assert_eq!(h["sessionId"], DELETED);
        assert_eq!(h["sessionKey"], "agent:main:sdk-made-2");
        assert!(h["archive"].as_str().unwrap().starts_with(DELETED));
        // The seq is the event's position in the archive.
        let ev = &lines[h["seq"].as_u64().unwrap() as usize];
        assert_eq!(ev["id"], h["messageId"]);
    }
    store.run_code(["search", "--fts", "\"open"], 2);
}

/// A hit: `(agent, session id, message id, seq, archive, key)`.
type ArchivedHit = (
    String,
    String,
    String,
    Option<i64>,
    Option<String>,
    Option<String>,
);

/// A successful `search --archived --json` of every agent, unlimited, with
/// `OPENCLAW_SESSIONS_APPLY_BATCH` (messages indexed at a time) when given.
fn archived_search(store: &Store, query: &str, batch: Option<usize>) -> std::process::Output {
    let mut cmd = store.cmd();
    if let Some(n) = batch {
        cmd.env("OPENCLAW_SESSIONS_APPLY_BATCH", n.to_string());
    }
    let out = cmd
        .args([
            "--all-agents",
            "search",
            "--json",
            "--limit",
            "100000",
            "--fts",
        ])
        .args(["--archived", query])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{query:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Every hit of [`archived_search`].
fn archived_hits(
    store: &Store,
    query: &str,
    batch: Option<usize>,
) -> std::collections::BTreeSet<ArchivedHit> {
    let text = |v: &Value| v.as_str().map(str::to_string);
    json(&archived_search(store, query, batch))["data"]["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                text(&h["agentId"]).unwrap(),
                text(&h["sessionId"]).unwrap(),
                text(&h["messageId"]).unwrap(),
                h["seq"].as_i64(),
                text(&h["archive"]),
                text(&h["sessionKey"]),
            )
        })
        .collect()
}

#[test]
fn archived_search_batches_many_archives_and_finds_what_the_live_index_finds() {
    let store = Store::copy("live");
    // The import moved every legacy transcript aside unchanged: for a word no later event
    // added, the import archives' hits are the live index's hits of the same sessions, each
    // under its own archive and key whatever the archives it shared a batch with.
    let hits = archived_hits(&store, "summarize", None);
    let live: std::collections::BTreeSet<_> = hits
        .iter()
        .filter(|h| h.4.is_none())
        .map(|h| (h.0.clone(), h.1.clone(), h.2.clone(), h.5.clone()))
        .collect();
    let imported: Vec<_> = hits
        .iter()
        .filter(|h| {
            h.4.as_deref()
                .is_some_and(|a| a.contains(".jsonl.imported-"))
        })
        .collect();
    let sessions: std::collections::BTreeSet<_> = imported.iter().map(|h| &h.1).collect();
    assert!(sessions.len() > 10, "{sessions:?}");
    for h in &imported {
        let archive = h.4.as_deref().unwrap();
        assert!(
            archive.contains(&format!(".{}.jsonl.imported-", h.1)),
            "{h:?}"
        );
        assert!(archive.starts_with(&format!("agent_{}_", h.0)), "{h:?}");
    }
    let imported_set: std::collections::BTreeSet<_> = imported
        .iter()
        .map(|h| (h.0.clone(), h.1.clone(), h.2.clone(), h.5.clone()))
        .collect();
    let live_of_them: std::collections::BTreeSet<_> = live
        .iter()
        .filter(|h| sessions.contains(&h.1))
        .cloned()
        .collect();
    assert_eq!(imported_set, live_of_them);
    // Batches of any size (one message, a few, more than all) find the same hits.
    for query in [
        "summarize",
        "\"agent:main:sdk-made-2\"",
        "item OR answer",
        "user*",
    ] {
        let whole = archived_hits(&store, query, None);
        assert!(!whole.is_empty(), "{query:?}");
        for batch in [1, 3, 7, 100_000] {
            assert_eq!(
                archived_hits(&store, query, Some(batch)),
                whole,
                "{query:?} in batches of {batch}"
            );
        }
    }
}

#[test]
fn an_archive_broken_half_way_is_not_searched_and_the_others_are() {
    let store = Store::copy("live");
    let main = store.state().join("agents/main");
    let source = std::fs::read_dir(main.join("session-sqlite-import-archive"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("cron_nightly_run_884"))
        .unwrap();
    let text = std::fs::read_to_string(&source).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 10);
    // A copy whose later half is behind a line that is not JSON: its first messages are
    // indexed before the break is read.
    let broken_id = "0b0b0b0b-1111-4222-8333-444444444444";
    let broken_name = format!("{broken_id}.jsonl.reset.2026-06-02T08-00-00.000Z");
    let half = lines.len() / 2;
    let mut broken = lines[..half].join("\n");
    broken.push_str("\n{not json\n");
    broken.push_str(&lines[half..].join("\n"));
    std::fs::write(main.join("sessions").join(&broken_name), broken).unwrap();
    let original = source.file_name().unwrap().to_string_lossy().to_string();
    let out = archived_search(&store, "summarize OR nightly OR cron", None);
    let doc = json(&out);
    let hits = doc["data"]["hits"].as_array().unwrap();
    assert!(hits.iter().all(|h| h["sessionId"] != broken_id), "{doc}");
    assert!(hits
        .iter()
        .any(|h| h["archive"].as_str() == Some(original.as_str())));
    let warned = doc["warnings"].to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(warned.contains(&broken_name), "{warned}");
    // Its messages before the break do match the query (what was dropped was there).
    let first_half_matches = lines[..half].iter().any(|l| {
        let l = l.to_lowercase();
        l.contains("\"message\"")
            && (l.contains("summarize") || l.contains("nightly") || l.contains("cron"))
    });
    assert!(first_half_matches);
}

#[test]
fn archives_are_listed_in_the_same_order_whatever_the_window_of_names_read_at_a_time() {
    let store = Store::copy("live");
    let list = |batch: Option<&str>| {
        let mut cmd = store.cmd();
        if let Some(n) = batch {
            cmd.env("OPENCLAW_SESSIONS_APPLY_BATCH", n);
        }
        let out = cmd
            .args(["--all-agents", "archives", "list", "--json"])
            .output()
            .unwrap();
        assert!(out.status.success());
        json(&out)["data"].clone()
    };
    let whole = list(None);
    let rows = whole.as_array().unwrap();
    let imported = rows.iter().filter(|a| a["reason"] == "imported").count();
    assert!(imported > 20, "{imported}");
    // Oldest first within each agent.
    for pair in rows.windows(2) {
        if pair[0]["agentId"] == pair[1]["agentId"] {
            assert!(pair[0]["archivedAt"].as_i64() <= pair[1]["archivedAt"].as_i64());
        }
    }
    for batch in ["1", "2", "5", "1000"] {
        assert_eq!(list(Some(batch)), whole, "windows of {batch}");
    }
}

/// `search` takes words as a person types them: `item #3` is two words, not FTS5 syntax (which
/// `--fts` asks for); a phrase typed as words finds what the FTS5 phrase finds and more.
#[test]
fn search_takes_plain_words_unless_fts_asks_for_the_syntax() {
    let store = Store::copy("live");
    for words in ["item #3", "C++ (draft)", "NOT", "a:b \"c", "summarize AND"] {
        let out = store.cmd().args(["search", words]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{words:?}: {out:?}");
    }
    // Each word must be in the message, whatever the order.
    let plain = hit_set(&search_json(&store, &["sdk summarize"]));
    let fts = hit_set(&search_json(&store, &["--fts", "sdk AND summarize"]));
    assert_eq!(plain, fts);
    let one = hit_set(&search_json(&store, &["summarize"]));
    assert!(!one.is_empty());
    assert_eq!(one, hit_set(&search_json(&store, &["--fts", "summarize"])));
    // The FTS5 syntax is refused as a usage error only under --fts.
    store.run_code(["search", "--fts", "item #3"], 2);
    // Nothing to search for.
    store.run_code(["search", "# --"], 2);
}

/// `search -o tsv|jsonl|json` and `--no-headers`, as the other list commands: one row a hit
/// with every cell whole, the same hits as `--json`.
#[test]
fn search_prints_tsv_jsonl_and_json_for_scripts() {
    let store = Store::copy("live");
    let doc = search_json(&store, &["summarize"]);
    let n = doc["hits"].as_array().unwrap().len();
    assert!(n > 1, "{doc}");
    let run = |args: &[&str]| {
        let out = store
            .cmd()
            .args(["search", "summarize", "--limit", "100000"])
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let tsv = run(&["-o", "tsv"]);
    let lines: Vec<&str> = tsv.lines().collect();
    assert_eq!(lines.len(), 1 + n, "{tsv}");
    assert_eq!(
        lines[0],
        "AGENT\tKEY\tSESSION ID\tSEQ\tROLE\tTIME\tARCHIVE\tSNIPPET"
    );
    assert!(lines.iter().all(|l| l.split('\t').count() == 8), "{tsv}");
    let bare = store
        .cmd()
        .args([
            "--no-headers",
            "search",
            "summarize",
            "--limit",
            "100000",
            "-o",
            "tsv",
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8(bare.stdout).unwrap().lines().count(), n);
    let rows: Vec<Value> = run(&["-o", "jsonl"])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), n);
    for (row, hit) in rows.iter().zip(doc["hits"].as_array().unwrap()) {
        assert_eq!(row["session_id"], hit["sessionId"], "{row} {hit}");
        assert_eq!(row["snippet"], hit["snippet"], "{row} {hit}");
    }
    let whole: Value = serde_json::from_str(&run(&["-o", "json"])).unwrap();
    assert_eq!(whole["ok"], true);
    assert_eq!(whole["data"]["hits"], doc["hits"]);
}
