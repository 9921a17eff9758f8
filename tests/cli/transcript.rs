//! `transcript cat|delta|catalog|export`, edge by edge.

use serde_json::Value;

use crate::common::{expect_exit, json, Store};

/// Every stored event of a session id, decoded the way OpenClaw reads it.
fn stored_events(store: &Store, agent: &str, session_id: &str) -> Vec<String> {
    let db = store.writable(agent);
    let mut stmt = db
        .prepare("SELECT event_json, event_zstd, event_utf8_bytes FROM transcript_events WHERE session_id = ?1 ORDER BY seq")
        .unwrap();
    let rows = stmt
        .query_map([session_id], |r| {
            Ok((
                r.get::<_, Option<String>>(0)?,
                r.get::<_, Option<Vec<u8>>>(1)?,
                r.get::<_, Option<i64>>(2)?,
            ))
        })
        .unwrap();
    rows.map(|r| {
        let (json, frame, len) = r.unwrap();
        json.unwrap_or_else(|| {
            let bytes = zstd::bulk::decompress(&frame.unwrap(), len.unwrap() as usize).unwrap();
            String::from_utf8(bytes).unwrap()
        })
    })
    .collect()
}

fn session_id(store: &Store, agent: &str, key: &str) -> String {
    store
        .writable(agent)
        .query_row(
            "SELECT current_session_id FROM session_nodes WHERE session_key = ?1",
            [key],
            |r| r.get(0),
        )
        .unwrap()
}

#[test]
fn cat_reproduces_every_stored_event_byte_for_byte() {
    let store = Store::copy("live");
    let db = store.writable("main");
    let sessions: Vec<(String, String)> = db
        .prepare(
            "SELECT session_key, current_session_id FROM session_nodes WHERE entry_json != '{}'",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let compressed: i64 = db
        .query_row(
            "SELECT count(*) FROM transcript_events WHERE event_zstd IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(compressed > 0, "the fixture has zstd rows");
    let mut total = 0;
    for (key, sid) in sessions {
        let out = store
            .cmd()
            .args(["transcript", "cat", &key])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{key}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let expected: String = stored_events(&store, "main", &sid)
            .iter()
            .map(|e| format!("{e}\n"))
            .collect();
        assert_eq!(String::from_utf8(out.stdout).unwrap(), expected, "{key}");
        total += expected.lines().count();
    }
    let all: i64 = db
        .query_row(
            "SELECT count(*) FROM transcript_events e JOIN session_nodes n ON n.current_session_id = e.session_id",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(total as i64, all);
}

#[test]
fn cat_of_legacy_transcript_is_the_file() {
    let store = Store::copy("legacy");
    let index: Value = serde_json::from_str(
        &std::fs::read_to_string(store.state().join("agents/main/sessions/sessions.json")).unwrap(),
    )
    .unwrap();
    let sid = index["agent:main:cron:nightly:run:884"]["sessionId"]
        .as_str()
        .unwrap();
    let file = std::fs::read_to_string(
        store
            .state()
            .join(format!("agents/main/sessions/{sid}.jsonl")),
    )
    .unwrap();
    let out = store.run_ok(["transcript", "cat", "agent:main:cron:nightly:run:884"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), file);
}

#[test]
fn cat_options_window_from_limit_visible() {
    let store = Store::copy("live");
    let key = "agent:main:acp:9911cc46-d649-47bb-9968-72da7c2daff9";
    let sid = session_id(&store, "main", key);
    let all = stored_events(&store, "main", &sid);
    let out = store
        .cmd()
        .args(["transcript", "cat", key, "--from-seq", "3", "--limit", "2"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}\n{}\n", all[3], all[4])
    );
    let out = store
        .cmd()
        .args(["transcript", "cat", key, "--window", &sid, "--limit", "1"])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("{}\n", all[0])
    );
    store.run_code(["transcript", "cat", key, "--window", "not-a-window"], 4);
    // Visible: the active branch's user/assistant/toolResult messages only; the branch
    // in this session leaves one message off the path.
    let vis = store
        .cmd()
        .args(["transcript", "cat", key, "--visible"])
        .output()
        .unwrap();
    let lines: Vec<Value> = String::from_utf8(vis.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 8);
    assert!(lines.iter().all(|l| l["type"] == "message"));
    assert!(!lines.iter().any(|l| l["id"] == "c1efd952"));
}

#[test]
fn derived_branch_matches_openclaw_projection() {
    use openclaw_sessions::paths::{DiscoverOptions, Environment, StateLayout};
    use openclaw_sessions::store::AgentStore;
    use openclaw_sessions::transcript::{branch, TranscriptSource};
    let store = Store::copy("live");
    let layout = StateLayout::discover(
        &DiscoverOptions {
            state_dir: Some(store.state()),
            ..Default::default()
        },
        &Environment::default(),
    )
    .unwrap();
    for agent in ["main", "work", "research"] {
        let mut s = AgentStore::open(
            layout.agent(&openclaw_sessions::paths::AgentId::parse(agent).unwrap()),
        )
        .unwrap();
        for e in s.sessions().unwrap() {
            let src = TranscriptSource::for_session(&s, e.session_id()).unwrap();
            let projected = branch::active_path(&s, &src).unwrap();
            let derived = branch::derive(&s, &src).unwrap();
            assert_eq!(projected, derived, "{}", e.key);
        }
    }
}

fn delta(store: &Store, key: &str, extra: &[&str]) -> Value {
    let out = store
        .cmd()
        .args(["transcript", "delta", key, "--json"])
        .args(extra)
        .output()
        .unwrap();
    expect_exit(&out, 0);
    json(&out)["data"].clone()
}

#[test]
fn delta_pages_cover_the_transcript_exactly_once() {
    let store = Store::copy("live");
    let key = "agent:main:pinned-notes";
    let all = stored_events(&store, "main", &session_id(&store, "main", key));
    let mut cursor: Option<String> = None;
    let mut seen = Vec::new();
    loop {
        let mut extra = vec!["--max-events", "3"];
        if let Some(c) = &cursor {
            extra.extend(["--cursor", c]);
        }
        let page = delta(&store, key, &extra);
        assert_eq!(page["kind"], "page");
        let events = page["events"].as_array().unwrap();
        assert!(events.len() <= 3);
        let bytes: u64 = events
            .iter()
            .map(|e| e["event"].to_string().len() as u64 + 1)
            .sum();
        assert_eq!(page["serializedBytes"], bytes);
        for e in events {
            seen.push(e["seq"].as_i64().unwrap());
        }
        cursor = Some(page["cursor"].as_str().unwrap().to_string());
        if !page["hasMore"].as_bool().unwrap() {
            break;
        }
    }
    assert_eq!(seen, (0..all.len() as i64).collect::<Vec<_>>());
    // After the end: an empty page, no more.
    let end = delta(&store, key, &["--cursor", cursor.as_ref().unwrap()]);
    assert_eq!(end["events"].as_array().unwrap().len(), 0);
    assert_eq!(end["hasMore"], false);
}

#[test]
fn delta_defaults_limits_and_required_bytes() {
    let store = Store::copy("live");
    let key = "agent:main:pinned-notes";
    let all = stored_events(&store, "main", &session_id(&store, "main", key));
    let page = delta(&store, key, &[]);
    assert_eq!(
        page["events"].as_array().unwrap().len(),
        all.len(),
        "defaults fit the whole session"
    );
    assert_eq!(page["hasMore"], false);
    // The stored bytes are kept exactly inside the document.
    let raw = String::from_utf8(
        store
            .cmd()
            .args(["transcript", "delta", key, "--json"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(raw.contains(&all[1]));
    // A first event larger than --max-bytes: an empty page that says what it needs.
    let tiny = delta(&store, key, &["--max-bytes", "10"]);
    assert_eq!(tiny["events"].as_array().unwrap().len(), 0);
    assert_eq!(tiny["hasMore"], true);
    assert_eq!(tiny["requiredBytes"], all[0].len() + 1);
    let exact = delta(
        &store,
        key,
        &["--max-bytes", &(all[0].len() + 1).to_string()],
    );
    assert_eq!(exact["events"].as_array().unwrap().len(), 1);
    for (flag, bad) in [
        ("--max-events", "0"),
        ("--max-events", "10001"),
        ("--max-bytes", "0"),
        ("--max-bytes", "67108865"),
    ] {
        let out = store
            .cmd()
            .args(["transcript", "delta", key, flag, bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag} {bad}");
    }
    for (flag, ok) in [("--max-events", "10000"), ("--max-bytes", "67108864")] {
        assert!(store
            .cmd()
            .args(["transcript", "delta", key, flag, ok])
            .output()
            .unwrap()
            .status
            .success());
    }
}

#[test]
fn delta_cursors_are_bound_to_store_and_session() {
    let store = Store::copy("live");
    let a = "agent:main:pinned-notes";
    let b = "agent:main:main";
    let cursor = delta(&store, a, &["--max-events", "2"])["cursor"]
        .as_str()
        .unwrap()
        .to_string();
    let other_session = delta(&store, b, &["--cursor", &cursor]);
    assert_eq!(other_session["kind"], "reset");
    assert_eq!(other_session["reason"], "scope_mismatch");
    // The fresh cursor of a reset starts that session from the beginning.
    let fresh = other_session["cursor"].as_str().unwrap().to_string();
    let restart = delta(&store, b, &["--cursor", &fresh]);
    assert_eq!(restart["events"][0]["seq"], 0);
    // The same key in another store (a different database) is out of scope there.
    let other_store = Store::copy("imported");
    let there = delta(&other_store, a, &["--cursor", &cursor]);
    assert_eq!(there["kind"], "reset");
    assert_eq!(there["reason"], "scope_mismatch");
    // Garbage and foreign-format cursors start over (reason invalid_cursor, a fresh cursor),
    // as OpenClaw answers them; the visible reader too.
    let long = "A".repeat(5000);
    for bad in ["garbage!", "e30", "bm90IGpzb24", &long] {
        for visible in [false, true] {
            let mut args = vec!["--cursor", bad];
            if visible {
                args.push("--visible");
            }
            let page = delta(&store, a, &args);
            assert_eq!(page["kind"], "reset", "{bad} visible={visible}: {page}");
            assert_eq!(page["reason"], "invalid_cursor", "{bad}");
            let fresh = page["cursor"].as_str().unwrap().to_string();
            let mut again = vec!["--cursor", fresh.as_str()];
            if visible {
                again.push("--visible");
            }
            assert_eq!(delta(&store, a, &again)["kind"], "page");
        }
    }
    // Cursors OpenClaw issued (no store binding) page as OpenClaw pages them, decoded as
    // loosely as Node decodes base64url, and the next cursor stays in OpenClaw's form.
    let sid = session_id(&store, "main", a);
    let generation: String = store
        .writable("main")
        .query_row(
            "SELECT generation FROM transcript_rewrite_watermarks WHERE session_id = ?1",
            [&sid],
            |r| r.get(0),
        )
        .unwrap();
    let b64 = |json: String| {
        use base64::Engine;
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(json)
    };
    let issued = b64(format!(
        "{{\"agentId\":\"main\",\"generation\":\"{generation}\",\"lastSeq\":1,\"sessionId\":\"{sid}\",\"version\":1}}"
    ));
    for given in [
        issued.clone(),
        format!("{issued}=="),
        format!("{}!{}", &issued[..8], &issued[8..]),
    ] {
        let page = delta(&store, a, &["--cursor", &given, "--max-events", "2"]);
        assert_eq!(page["kind"], "page", "{given}: {page}");
        assert_eq!(page["events"][0]["seq"], 2, "{given}: {page}");
        let next = b64(format!(
            "{{\"agentId\":\"main\",\"generation\":\"{generation}\",\"lastSeq\":3,\"sessionId\":\"{sid}\",\"version\":1}}"
        ));
        assert_eq!(
            page["cursor"],
            next.as_str(),
            "OpenClaw's {{...cursor, lastSeq}}"
        );
    }
    let visible_issued = b64(format!(
        "{{\"agentId\":\"main\",\"generation\":\"{generation}\",\"sessionId\":\"{sid}\",\"lastEventSeq\":-1,\"lastMessagePosition\":-1,\"version\":1}}"
    ));
    let page = delta(&store, a, &["--visible", "--cursor", &visible_issued]);
    assert_eq!(page["kind"], "page", "{page}");
    // A cursor of another session id (OpenClaw's or ours) is out of scope.
    let foreign = b64(format!(
        "{{\"agentId\":\"main\",\"generation\":\"{generation}\",\"lastSeq\":1,\"sessionId\":\"other\",\"version\":1}}"
    ));
    assert_eq!(
        delta(&store, a, &["--cursor", &foreign])["reason"],
        "scope_mismatch"
    );
    // A replaced transcript (new generation) resets.
    store.writable("main").execute("UPDATE transcript_rewrite_watermarks SET generation = 'ffffffffffffffffffffffffffffffff' WHERE session_id = ?1", [&sid]).unwrap();
    let replaced = delta(&store, a, &["--cursor", &cursor]);
    assert_eq!(replaced["reason"], "generation_mismatch");
    // No transcript at all.
    store
        .writable("main")
        .execute(
            "DELETE FROM transcript_rewrite_watermarks WHERE session_id = ?1",
            [&sid],
        )
        .unwrap();
    assert_eq!(delta(&store, a, &[])["kind"], "missing");
}

#[test]
fn visible_delta_pages_messages() {
    let store = Store::copy("live");
    let key = "agent:main:cron:nightly:run:884";
    let page = delta(&store, key, &["--visible", "--max-events", "5"]);
    let msgs = page["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 5);
    assert_eq!(msgs[0]["seq"], 1);
    assert!(msgs
        .iter()
        .all(|m| m["role"].is_string() && m["entryId"].is_string()));
    let mut total = msgs.len();
    let mut cursor = page["cursor"].as_str().unwrap().to_string();
    loop {
        let next = delta(
            &store,
            key,
            &["--visible", "--max-events", "5", "--cursor", &cursor],
        );
        total += next["messages"].as_array().unwrap().len();
        cursor = next["cursor"].as_str().unwrap().to_string();
        if !next["hasMore"].as_bool().unwrap() {
            break;
        }
    }
    assert_eq!(
        total, 18,
        "OpenClaw's visible reader returns 18 messages for this session"
    );
}

fn catalog(store: &Store, key: &str, extra: &[&str]) -> Value {
    let out = store
        .cmd()
        .args(["transcript", "catalog", key, "--json"])
        .args(extra)
        .output()
        .unwrap();
    expect_exit(&out, 0);
    json(&out)["data"].clone()
}

#[test]
fn catalog_is_newest_first_text_only_and_pages() {
    let store = Store::copy("live");
    let key = "agent:main:cron:nightly:run:884";
    let first = catalog(&store, key, &["--limit", "3"]);
    let items = first["items"].as_array().unwrap();
    assert_eq!(items.len(), 3);
    assert_eq!(items[0]["type"], "agentMessage");
    assert_eq!(items[1]["type"], "userMessage");
    assert!(items
        .iter()
        .all(|i| i["text"].is_string() && i["id"].is_string()));
    let mut all = items.clone();
    let mut cursor = first["nextCursor"].as_str().map(String::from);
    while let Some(c) = cursor {
        let page = catalog(&store, key, &["--limit", "3", "--cursor", &c]);
        all.extend(page["items"].as_array().unwrap().iter().cloned());
        cursor = page["nextCursor"].as_str().map(String::from);
    }
    let ids: std::collections::HashSet<_> = all
        .iter()
        .map(|i| i["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), all.len(), "no item twice");
    let whole = catalog(&store, key, &["--limit", "200"]);
    assert_eq!(whole["items"].as_array().unwrap().len(), all.len());
    assert!(whole.get("nextCursor").is_none());
    // Limits and cursors.
    for bad in ["0", "201"] {
        assert_eq!(
            store
                .cmd()
                .args(["transcript", "catalog", key, "--limit", bad])
                .output()
                .unwrap()
                .status
                .code(),
            Some(2)
        );
    }
    let c = first["nextCursor"].as_str().unwrap();
    store.run_code(
        ["transcript", "catalog", "agent:main:main", "--cursor", c],
        6,
    );
    store.run_code(["transcript", "catalog", key, "--cursor", "xx"], 6);
}

#[test]
fn catalog_caps_items_and_scans_at_most_1000_messages() {
    let store = Store::copy("live");
    let key = "agent:main:pinned-notes";
    let sid = session_id(&store, "main", key);
    let db = store.writable("main");
    let (max_seq, last_id): (i64, String) = db
        .query_row("SELECT max(seq), (SELECT event_id FROM transcript_event_identities WHERE session_id=?1 ORDER BY seq DESC LIMIT 1) FROM transcript_events WHERE session_id=?1", [&sid], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap();
    // 1,200 tool results (no text) after a long user message: a page scans 1,000 and stops.
    let long = "x".repeat(7000);
    let insert = |seq: i64, json: String| {
        db.execute("INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?1, ?2, ?3, 0, ?4)", rusqlite::params![sid, seq, json, json.len() as i64]).unwrap();
    };
    insert(
        max_seq + 1,
        format!(
            r#"{{"type":"message","id":"long0001","parentId":"{last_id}","timestamp":"2026-06-01T09:00:00.000Z","message":{{"role":"user","content":[{{"type":"text","text":"{long}"}}]}}}}"#
        ),
    );
    let mut parent = "long0001".to_string();
    for i in 0..1200 {
        let id = format!("tool{i:04}");
        insert(
            max_seq + 2 + i,
            format!(
                r#"{{"type":"message","id":"{id}","parentId":"{parent}","timestamp":"2026-06-01T09:00:00.000Z","message":{{"role":"toolResult","toolCallId":"c","toolName":"t","isError":false,"content":[]}}}}"#
            ),
        );
        parent = id;
    }
    drop(db);
    let page = catalog(&store, key, &["--limit", "10"]);
    assert_eq!(page["scannedMessages"], 1000);
    assert_eq!(
        page["items"].as_array().unwrap().len(),
        0,
        "an empty page still carries a cursor"
    );
    let next = catalog(
        &store,
        key,
        &[
            "--limit",
            "10",
            "--cursor",
            page["nextCursor"].as_str().unwrap(),
        ],
    );
    let item = &next["items"][0];
    assert_eq!(item["text"].as_str().unwrap().len(), 6000);
    assert_eq!(item["truncated"], true);
}

#[test]
fn export_jsonl_is_the_transcript_and_never_overwrites() {
    let store = Store::copy("live");
    let key = "agent:main:cron:nightly:run:884";
    let all = stored_events(&store, "main", &session_id(&store, "main", key));
    let target = store.dir.path().join("out.jsonl");
    let out = store
        .cmd()
        .args(["transcript", "export", key, "--format", "jsonl", "--output"])
        .arg(&target)
        .output()
        .unwrap();
    expect_exit(&out, 0);
    let text = std::fs::read_to_string(&target).unwrap();
    assert_eq!(
        text,
        all.iter().map(|e| format!("{e}\n")).collect::<String>()
    );
    assert!(text.starts_with("{\"type\":\"session\""));
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&target).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let again = store
        .cmd()
        .args([
            "transcript",
            "export",
            key,
            "--format",
            "markdown",
            "--output",
        ])
        .arg(&target)
        .output()
        .unwrap();
    expect_exit(&again, 5);
    assert_eq!(std::fs::read_to_string(&target).unwrap(), text, "unchanged");
    let md = store
        .cmd()
        .args(["transcript", "export", key, "--format", "markdown"])
        .output()
        .unwrap();
    let md = String::from_utf8(md.stdout).unwrap();
    assert!(md.starts_with("# "));
    assert!(md.contains("## User"));
    assert!(md.contains("## Assistant"));
}

#[test]
fn catalog_refuses_an_entry_over_the_8_mib_raw_cap() {
    let store = Store::copy("live");
    let key = "agent:main:main";
    let sid = session_id(&store, "main", key);
    let db = store.writable("main");
    let (max_seq, last_id): (i64, String) = db
        .query_row(
            "SELECT max(seq), (SELECT event_id FROM transcript_event_identities WHERE session_id=?1 ORDER BY seq DESC LIMIT 1) FROM transcript_events WHERE session_id=?1",
            [&sid],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let huge = "y".repeat(9 * 1024 * 1024);
    let event = format!(
        r#"{{"type":"message","id":"huge0001","parentId":"{last_id}","timestamp":"2026-06-01T09:00:00.000Z","message":{{"role":"user","content":[{{"type":"text","text":"{huge}"}}]}}}}"#
    );
    db.execute(
        "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?1, ?2, ?3, 0, ?4)",
        rusqlite::params![sid, max_seq + 1, event, event.len() as i64],
    )
    .unwrap();
    drop(db);
    let out = store.run_code(["transcript", "catalog", key, "--json"], 6);
    assert!(json(&out)["error"]["message"]
        .as_str()
        .unwrap()
        .contains("8 MiB"));
    // The raw readers still page it: a page after the earlier events needs the whole event.
    let first = json(
        &store
            .cmd()
            .args([
                "transcript",
                "delta",
                key,
                "--json",
                "--max-events",
                &(max_seq + 1).to_string(),
            ])
            .output()
            .unwrap(),
    );
    let cursor = first["data"]["cursor"].as_str().unwrap().to_string();
    let page = json(
        &store
            .cmd()
            .args([
                "transcript",
                "delta",
                key,
                "--json",
                "--max-bytes",
                "1000000",
                "--cursor",
                &cursor,
            ])
            .output()
            .unwrap(),
    );
    assert_eq!(page["data"]["requiredBytes"], event.len() + 1);
    assert_eq!(page["data"]["events"].as_array().unwrap().len(), 0);
}

/// Without `--json`, `transcript catalog` and `transcript delta` are for people: one line a
/// turn (time, role, text), cut to the terminal's width, controls escaped, the next cursor on
/// stderr; `--json` keeps the page. `transcript export` without `--format` writes the
/// re-importable JSONL.
#[test]
fn catalog_and_delta_read_as_turns_and_export_defaults_to_jsonl() {
    let store = Store::copy("live");
    let key = "agent:main:pinned-notes";
    let run = |args: &[&str], width: Option<&str>| {
        let mut cmd = store.cmd();
        if let Some(w) = width {
            cmd.env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", w);
        }
        let out = cmd.args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let (catalog, _) = run(&["transcript", "catalog", key], None);
    assert!(!catalog.trim_start().starts_with('{'), "{catalog}");
    let first = catalog.lines().next().unwrap();
    assert!(
        first.starts_with("2026-") && first.contains(" assistant ") && first.contains("item #"),
        "{first}"
    );
    assert!(catalog.lines().any(|l| l.contains(" user ")), "{catalog}");
    // Cut to a terminal's width, the time and role whole.
    let (narrow, _) = run(&["transcript", "catalog", key], Some("40"));
    for line in narrow.lines() {
        assert!(line.chars().count() <= 40, "{line}");
    }
    assert!(narrow.contains('…'), "{narrow}");
    // --json keeps the page as it was.
    let (doc, _) = run(&["transcript", "catalog", key, "--json"], None);
    let doc: Value = serde_json::from_str(&doc).unwrap();
    assert!(doc["data"]["items"]
        .as_array()
        .is_some_and(|i| !i.is_empty()));

    let (delta, err) = run(&["transcript", "delta", key, "--max-events", "5"], None);
    let lines: Vec<&str> = delta.lines().collect();
    assert_eq!(lines.len(), 5, "{delta}");
    assert!(
        lines[0].starts_with("#0 2026-") && lines[0].contains("session"),
        "{delta}"
    );
    assert!(err.contains("more events: --cursor "), "{err}");
    let cursor = err.trim().rsplit(' ').next().unwrap();
    let (next, _) = run(
        &[
            "transcript",
            "delta",
            key,
            "--cursor",
            cursor,
            "--max-events",
            "1",
        ],
        None,
    );
    assert!(next.starts_with("#5 "), "{next}");
    let (visible, _) = run(&["transcript", "delta", key, "--visible"], None);
    assert!(visible.lines().all(|l| l.starts_with('#')), "{visible}");
    assert!(
        visible.contains(" user ") && visible.contains(" assistant "),
        "{visible}"
    );

    // A control in a turn's text is shown escaped, never sent to the terminal.
    let db = store.writable("main");
    let sid = session_id(&store, "main", key);
    db.execute(
        "UPDATE transcript_events SET event_json = replace(event_json, 'user turn 0', 'user \\u001b[2J turn 0') WHERE session_id = ?1",
        [&sid],
    )
    .unwrap();
    drop(db);
    let (escaped, _) = run(&["transcript", "delta", key, "--visible"], None);
    assert!(!escaped.contains('\u{1b}'), "{escaped:?}");
    assert!(escaped.contains("[2J turn 0"), "{escaped:?}");

    // export: JSONL unless --format says otherwise.
    let (default, _) = run(&["transcript", "export", key], None);
    let (jsonl, _) = run(&["transcript", "export", key, "--format", "jsonl"], None);
    assert_eq!(default, jsonl);
    assert!(default.starts_with("{\"type\":\"session\""), "{default}");
}
