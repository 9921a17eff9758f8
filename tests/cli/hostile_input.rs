//! Hostile store data, second pass (issue 37): control characters in store text never reach
//! a terminal raw, invalid UTF-8 is a finding and never a panic, and the state dir and size
//! arguments are refused in plain words.

use crate::common::{json, Store};

/// A label that would retitle the terminal, clear it and forge a line of output.
const HOSTILE: &str = "evil\u{1b}]0;owned title\u{7}\u{1b}[2J\nforged line\u{202e}txt";
const KEY: &str = "agent:main:dashboard:review-ui";

fn set_label(store: &Store, key: &str, label: &str) {
    let n = store
        .writable("main")
        .execute(
            "UPDATE session_nodes SET label = ?2, entry_json = json_set(entry_json, '$.label', ?2)
             WHERE session_key = ?1",
            rusqlite::params![key, label],
        )
        .unwrap();
    assert_eq!(n, 1);
}

/// No raw ESC, BEL, bidi override, and no line of ours that starts with the label's second
/// line.
fn assert_clean(what: &str, text: &[u8]) {
    assert_no_controls(what, text);
    let text = String::from_utf8_lossy(text);
    assert!(
        !text
            .lines()
            .any(|l| l.trim_start().starts_with("forged line")),
        "{what}: a newline in store text forged a line:\n{text}"
    );
}

/// No raw ESC, BEL, C1 CSI or bidi override (Markdown keeps a message's own lines).
fn assert_no_controls(what: &str, text: &[u8]) {
    let text = String::from_utf8_lossy(text);
    for bad in ['\u{1b}', '\u{7}', '\u{202e}', '\u{9b}'] {
        assert!(
            !text.contains(bad),
            "{what}: raw {:?} reached the output:\n{text}",
            bad
        );
    }
}

#[test]
fn control_characters_in_store_text_are_shown_escaped() {
    let store = Store::copy("live");
    set_label(&store, KEY, HOSTILE);
    // Piped, and on a terminal (tables with borders, cells cut to 60 columns).
    for width in [None, Some("60"), Some("200")] {
        let run = |args: &[&str]| {
            let mut c = store.cmd();
            if let Some(w) = width {
                c.env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", w);
            }
            let out = c.args(args).output().unwrap();
            assert!(
                out.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert_clean(&format!("{args:?} at {width:?}"), &out.stdout);
            assert_clean(&format!("{args:?} at {width:?} (stderr)"), &out.stderr);
            String::from_utf8(out.stdout).unwrap()
        };
        let list = run(&["list", "--agent", "main"]);
        let show = run(&["show", KEY]);
        assert!(
            show.contains(
                "label:      evil\\e]0;owned title\\u{7}\\e[2J\\nforged line\\u{202e}txt"
            ),
            "{show}"
        );
        if width.is_none() {
            assert!(list.contains("evil\\e]0;owned"), "{list}");
        }
    }
    // --json keeps the data as it is.
    let out = store.cmd().args(["--json", "show", KEY]).output().unwrap();
    assert_eq!(json(&out)["data"]["entry"]["label"], HOSTILE);
}

#[test]
fn search_snippets_hints_and_markdown_are_shown_escaped() {
    let store = Store::copy("live");
    let conn = store.writable("main");
    let sid: String = conn
        .query_row(
            "SELECT current_session_id FROM session_nodes WHERE session_key = 'agent:main:main'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    conn.execute(
        "INSERT INTO session_transcript_fts(text, session_id, message_id, role, timestamp)
         VALUES (?1, ?2, 'hostile-1', 'user', 1780000000000)",
        rusqlite::params![format!("zebracorn {HOSTILE} zebracorn"), sid],
    )
    .unwrap();
    // A transcript message that holds the same text, for the Markdown export.
    conn.execute(
        "UPDATE transcript_events SET event_json = json_set(event_json, '$.message.content[0].text', ?2)
         WHERE session_id = ?1 AND seq = 3",
        rusqlite::params![sid, HOSTILE],
    )
    .unwrap();
    // A key that "did you mean" offers.
    conn.execute_batch(
        "CREATE TEMP TABLE copied AS SELECT * FROM session_nodes WHERE session_key = 'agent:main:scratch-2';
         UPDATE copied SET session_key = 'agent:main:zz' || char(27) || '[2J' || char(10) || 'forged line';
         INSERT INTO session_nodes SELECT * FROM copied;",
    )
    .unwrap();
    drop(conn);

    let out = store.cmd().args(["search", "zebracorn"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_clean("search", &out.stdout);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\\e[2J"), "{text}");
    // --json keeps the snippet's text.
    let doc = json(
        &store
            .cmd()
            .args(["--json", "search", "zebracorn"])
            .output()
            .unwrap(),
    );
    assert!(
        doc["data"]["hits"][0]["snippet"]
            .as_str()
            .unwrap()
            .contains('\u{1b}'),
        "{doc}"
    );

    let out = store
        .cmd()
        .env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", "80")
        .args([
            "transcript",
            "export",
            "agent:main:main",
            "--format",
            "markdown",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_no_controls("markdown to a terminal", &out.stdout);
    assert!(String::from_utf8_lossy(&out.stdout).contains("\\e[2J"));
    // Piped to a file, the Markdown is the data.
    let out = store
        .cmd()
        .args([
            "transcript",
            "export",
            "agent:main:main",
            "--format",
            "markdown",
        ])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("\u{1b}[2J"));

    let out = store
        .cmd()
        .args(["show", "agent:main:zz\u{1b}[2J\nforged lin"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_clean("did you mean", &out.stderr);
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("did you mean agent:main:zz\\e[2J\\nforged line"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

