//! Bad input gets a clear error, the right exit code, and changes nothing.

use crate::common::{bin, checksums, expect_exit, json, Store};

#[test]
fn missing_state_dir_is_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin()
        .arg("--state-dir")
        .arg(dir.path().join("nope"))
        .arg("status")
        .output()
        .unwrap();
    expect_exit(&out, 4);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("does not exist") && err.contains("hint:"),
        "{err}"
    );
    let out = bin()
        .arg("--state-dir")
        .arg(dir.path().join("nope"))
        .args(["list", "--json"])
        .output()
        .unwrap();
    let doc = json(&out);
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["error"]["code"], "NOT_FOUND");
    assert!(doc["error"]["hint"].is_string());
}

#[test]
fn unknown_and_hostile_agent_ids() {
    let store = Store::copy("live");
    let out = store.run_code(["list", "--agent", "ghost"], 4);
    assert!(String::from_utf8_lossy(&out.stderr).contains("known agents: main, work, research"));
    for bad in ["../x", "a/b", "..", "main\u{1}"] {
        let out = store
            .cmd()
            .args(["list", "--agent", bad, "--json"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert_eq!(json(&out)["error"]["code"], "USAGE");
    }
}

#[test]
fn sessions_json_that_is_not_json5() {
    let store = Store::copy("legacy");
    let index = store.state().join("agents/main/sessions/sessions.json");
    let mut text = std::fs::read_to_string(&index).unwrap();
    text.push_str("\n] trailing garbage\n");
    std::fs::write(&index, &text).unwrap();
    let before = checksums(&store.state());
    let out = store.run_code(["list"], 6);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sessions.json") && err.contains("line"),
        "{err}"
    );
    assert_eq!(before, checksums(&store.state()));
}

#[test]
fn config_that_does_not_parse_names_file_and_line() {
    let store = Store::copy("live");
    std::fs::write(
        store.state().join("openclaw.json"),
        "{\n  agents: {\n    entries: [,\n}\n",
    )
    .unwrap();
    let out = store.cmd().arg("status").output().unwrap();
    expect_exit(&out, 6);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("openclaw.json") && err.contains("line 3"),
        "{err}"
    );
}

#[test]
fn jsonl_line_cut_in_half() {
    let store = Store::copy("legacy");
    let index: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(store.state().join("agents/main/sessions/sessions.json")).unwrap(),
    )
    .unwrap();
    let sid = index["agent:main:main"]["sessionId"].as_str().unwrap();
    let path = store
        .state()
        .join(format!("agents/main/sessions/{sid}.jsonl"));
    let text = std::fs::read_to_string(&path).unwrap();
    let cut = text.trim_end().len() - 20;
    std::fs::write(&path, &text[..cut]).unwrap();
    let out = store.run_code(["transcript", "cat", "agent:main:main"], 6);
    let lines = text.lines().count();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("line {lines}")) && err.contains("not valid JSON"),
        "{err}"
    );
}

fn zstd_row(store: &Store) -> (String, i64) {
    store
        .writable("main")
        .query_row(
            "SELECT session_id, seq FROM transcript_events WHERE event_zstd IS NOT NULL LIMIT 1",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
}

#[test]
fn corrupt_zstd_frame_and_wrong_length() {
    let store = Store::copy("live");
    let (sid, seq) = zstd_row(&store);
    let db = store.writable("main");
    db.execute(
        "UPDATE transcript_events SET event_utf8_bytes = event_utf8_bytes + 3 WHERE session_id = ?1 AND seq = ?2",
        rusqlite::params![sid, seq],
    )
    .unwrap();
    let out = store.run_code(["transcript", "cat", &sid], 6);
    assert!(String::from_utf8_lossy(&out.stderr).contains("event_utf8_bytes"));
    db.execute(
        "UPDATE transcript_events SET event_utf8_bytes = event_utf8_bytes - 3, event_zstd = CAST(substr(event_zstd, 1, 12) || zeroblob(20) AS BLOB) WHERE session_id = ?1 AND seq = ?2",
        rusqlite::params![sid, seq],
    )
    .unwrap();
    let out = store.run_code(["transcript", "cat", &sid, "--json"], 6);
    // Events before the bad row were streamed; the error is the last JSON line.
    let stdout = String::from_utf8(out.stdout).unwrap();
    let doc: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(doc["error"]["code"], "BAD_INPUT");
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("does not decode"),
        "{doc}"
    );
}

#[test]
fn newer_schema_reads_with_a_warning() {
    let store = Store::copy("live");
    store
        .writable("main")
        .pragma_update(None, "user_version", 24)
        .unwrap();
    let out = store.cmd().args(["list", "--json"]).output().unwrap();
    assert!(out.status.success());
    let doc = json(&out);
    assert_eq!(doc["data"].as_array().unwrap().len(), 16);
    assert!(
        doc["warnings"][0].as_str().unwrap().contains("newer"),
        "{doc}"
    );
    let human = store.cmd().args(["list"]).output().unwrap();
    assert!(String::from_utf8_lossy(&human.stderr).contains("warning:"));
}

#[test]
fn invalid_entry_rows_are_skipped_with_a_warning() {
    let store = Store::copy("live");
    store.writable("main").execute("UPDATE session_nodes SET entry_json = '{\"nope\":1}' WHERE session_key = 'agent:main:main'", []).unwrap();
    let doc = json(&store.cmd().args(["list", "--json"]).output().unwrap());
    assert_eq!(doc["data"].as_array().unwrap().len(), 15);
    assert!(doc["warnings"].to_string().contains("agent:main:main"));
}

#[test]
fn broken_pipe_ends_quietly() {
    let store = Store::copy("live");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("openclaw-sessions"))
        .env("HOME", store.dir.path())
        .arg("--state-dir")
        .arg(store.state())
        .args(["transcript", "cat", "agent:main:cron:nightly:run:884"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    expect_exit(&out, 0);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn usage_errors_exit_2() {
    let out = bin().args(["list", "--limit", "zero"]).output().unwrap();
    expect_exit(&out, 2);
    let out = bin().args(["frobnicate"]).output().unwrap();
    expect_exit(&out, 2);
    let out = bin().args(["frobnicate", "--json"]).output().unwrap();
    assert_eq!(json(&out)["error"]["code"], "USAGE");
}

/// A state dir given as the directory that holds `.openclaw` points at it; a file given as
/// the state dir is "not a directory"; OpenClaw's config given as `--store` is named for
/// what it is, never read as a legacy index.
#[test]
fn wrong_state_dirs_and_stores_are_named_for_what_they_are() {
    let store = Store::copy("live");
    let holder = store.dir.path();
    let out = bin()
        .env("HOME", holder)
        .arg("--state-dir")
        .arg(holder)
        .arg("status")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    expect_exit(&out, 4);
    assert!(
        err.contains(&format!("did you mean {}?", store.state().display())),
        "{err}"
    );
    assert!(err.contains("--state-dir"), "{err}");
    for args in [&["list"][..], &["--json", "list"]] {
        let out = bin()
            .env("HOME", holder)
            .arg("--state-dir")
            .arg(holder)
            .args(args)
            .output()
            .unwrap();
        expect_exit(&out, 4);
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(".openclaw?")
                || String::from_utf8_lossy(&out.stderr).contains(".openclaw?")
        );
    }
    // A file as the state dir.
    let file = store.state().join("openclaw.json");
    let out = bin()
        .env("HOME", holder)
        .arg("--state-dir")
        .arg(&file)
        .arg("list")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    expect_exit(&out, 4);
    assert!(err.contains("is a file, not a directory"), "{err}");
    assert!(!err.contains("does not exist"), "{err}");
    // OpenClaw's config as --store: refused as bad input, nothing read from it as sessions.
    let out = bin()
        .env("HOME", holder)
        .arg("--store")
        .arg(&file)
        .args(["--json", "list"])
        .output()
        .unwrap();
    let doc = json(&out);
    expect_exit(&out, 6);
    assert_eq!(doc["error"]["code"], "BAD_INPUT", "{doc}");
    assert!(
        doc["error"]["message"]
            .as_str()
            .unwrap()
            .contains("is OpenClaw's config file, not a session store"),
        "{doc}"
    );
    assert!(doc["warnings"].as_array().unwrap().is_empty(), "{doc}");
}
