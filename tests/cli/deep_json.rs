//! JSON of any depth OpenClaw stores (issue 55 item 7): an event nested deeper than a JSON
//! reader's usual 128 levels is read back by `transcript catalog`, the Markdown export,
//! `search --archived` and `undelete`, byte for byte.

use serde_json::Value;

use crate::common::{expect_exit, json, Store};

const KEY: &str = "agent:main:pinned-notes";
/// A word found only in the planted event.
const WORD: &str = "zebradeep";

/// `depth` levels of alternating objects and arrays around a string.
fn nested(depth: usize) -> String {
    let mut s = String::with_capacity(depth * 8);
    for i in 0..depth {
        s.push_str(if i % 2 == 0 { "{\"k\":" } else { "[" });
    }
    s.push_str("\"bottom\"");
    for i in (0..depth).rev() {
        s.push(if i % 2 == 0 { '}' } else { ']' });
    }
    s
}

/// Replaces the fourth event of [`KEY`] (a user message) by the same event with [`WORD`] in
/// its text and a `deep` field nested `depth` levels; returns the session id and the event.
fn plant(store: &Store, depth: usize) -> (String, String) {
    let conn = store.writable("main");
    let sid: String = conn
        .query_row(
            "SELECT current_session_id FROM session_nodes WHERE session_key = ?1",
            [KEY],
            |r| r.get(0),
        )
        .unwrap();
    let old: String = conn
        .query_row(
            "SELECT event_json FROM transcript_events WHERE session_id = ?1 AND seq = 4",
            [&sid],
            |r| r.get(0),
        )
        .unwrap();
    let body = old.strip_suffix('}').unwrap();
    let event = format!("{body},\"deep\":{}}}", nested(depth)).replacen(
        "\"text\":\"",
        &format!("\"text\":\"{WORD} "),
        1,
    );
    conn.execute(
        "UPDATE transcript_events SET event_json = ?2, event_utf8_bytes = ?3 \
         WHERE session_id = ?1 AND seq = 4",
        rusqlite::params![sid, event, event.len() as i64],
    )
    .unwrap();
    (sid, event)
}

fn deep_event_is_read_back_by_every_command(depth: usize) {
    let store = Store::copy("live");
    let (sid, event) = plant(&store, depth);

    let out = store
        .cmd()
        .args(["transcript", "catalog", KEY, "--json", "--limit", "200"])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    let items = json(&out)["data"]["items"].clone();
    assert!(
        items
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["text"].as_str().is_some_and(|t| t.contains(WORD))),
        "depth {depth}: the catalog leaves the event out"
    );

    let out = store
        .cmd()
        .args(["transcript", "export", KEY, "--format", "markdown"])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains(WORD),
        "depth {depth}: the Markdown export leaves the event out"
    );

    store.run_ok(["delete", KEY, "--yes"]);
    let out = store
        .cmd()
        .args([
            "--all-agents",
            "search",
            "--json",
            "--archived",
            "--fts",
            WORD,
        ])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    let hits = json(&out)["data"]["hits"].clone();
    assert_eq!(
        hits.as_array().map(Vec::len),
        Some(1),
        "depth {depth}: search --archived: {hits}"
    );

    let out = store
        .cmd()
        .args(["undelete", KEY, "--yes"])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    // Written back as OpenClaw writes an event of that size: plain or zstd.
    let (plain, packed): (Option<String>, Option<Vec<u8>>) = store
        .writable("main")
        .query_row(
            "SELECT event_json, event_zstd FROM transcript_events \
             WHERE session_id = ?1 AND seq = 4",
            [&sid],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    let back = plain.unwrap_or_else(|| {
        String::from_utf8(zstd::decode_all(&packed.unwrap()[..]).unwrap()).unwrap()
    });
    assert!(back == event, "depth {depth}: undelete changed the event");
    let parsed: Result<Value, _> = serde_json::from_str(&event);
    assert!(parsed.is_err() || depth < 128, "the planted event is deep");
}

#[test]
fn an_event_nested_130_levels_is_read_back_by_every_command() {
    deep_event_is_read_back_by_every_command(130);
}

#[test]
fn an_event_nested_10000_levels_is_read_back_by_every_command() {
    deep_event_is_read_back_by_every_command(10_000);
}
