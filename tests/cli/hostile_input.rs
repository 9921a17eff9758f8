//! Hostile store data, second pass (issue 37): control characters in store text never reach
//! a terminal raw, invalid UTF-8 is a finding and never a panic, and the state dir and size
//! arguments are refused in plain words.

use crate::common::{expect_exit, json, limit_address_space, Store};

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
    expect_exit(&out, 0);
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
    expect_exit(&out, 0);
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

/// Bytes that are not UTF-8 in TEXT cells, written with SQLite itself.
fn write_invalid_utf8(store: &Store) {
    store
        .writable("main")
        .execute_batch(
            "UPDATE session_nodes SET label = CAST(x'41ff42' AS TEXT) WHERE session_key = 'agent:main:scratch-1';
             UPDATE session_nodes SET display_name = CAST(x'43fe' AS TEXT) WHERE session_key = 'agent:main:main';
             UPDATE session_nodes SET category = CAST(x'c3' AS TEXT) WHERE session_key = 'agent:main:telegram:direct:123454';
             UPDATE session_nodes SET entry_json = CAST(x'7b22ff' AS TEXT) WHERE session_key = 'agent:main:pinned-notes';
             UPDATE transcript_events SET event_json = CAST(x'7b2274797065223a22ff227d' AS TEXT)
               WHERE seq = 3 AND session_id = (SELECT current_session_id FROM session_nodes WHERE session_key = 'agent:main:main');",
        )
        .unwrap();
}

fn assert_no_panic(what: &str, out: &std::process::Output) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(101), "{what}: {stderr}");
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
}

#[test]
fn invalid_utf8_in_text_columns_is_a_finding_never_a_panic() {
    let store = Store::copy("live");
    write_invalid_utf8(&store);
    let read_only: &[&[&str]] = &[
        &["status"],
        &["list", "--all-agents"],
        &["--json", "list", "--all-agents"],
        &["show", "agent:main:main"],
        &["show", "agent:main:scratch-1"],
        &["show", "agent:main:pinned-notes"],
        &["--json", "show", "agent:main:telegram:direct:123454"],
        &["transcript", "cat", "agent:main:main"],
        &["transcript", "delta", "agent:main:main"],
        &["transcript", "catalog", "agent:main:main"],
        &[
            "transcript",
            "export",
            "agent:main:main",
            "--format",
            "markdown",
        ],
        &["archives", "list"],
        &["search", "summarize", "--archived"],
        &["du"],
        &["custody", "status"],
        &["doctor"],
        &["doctor", "--full"],
    ];
    for args in read_only {
        let out = store.cmd().args(*args).output().unwrap();
        assert_no_panic(&format!("{args:?}"), &out);
    }
    // `list` and `show` keep working; the entry that does not parse is skipped with a warning.
    let list = store
        .cmd()
        .args(["--json", "list", "--agent", "main"])
        .output()
        .unwrap();
    expect_exit(&list, 0);
    assert!(json(&list)["warnings"]
        .to_string()
        .contains("agent:main:pinned-notes"));
    let show = store
        .cmd()
        .args(["--json", "show", "agent:main:pinned-notes"])
        .output()
        .unwrap();
    expect_exit(&show, 0);
    // The event that is not UTF-8 is bad input naming its row (exit 6), not another text.
    let cat = store
        .cmd()
        .args(["transcript", "cat", "agent:main:main"])
        .output()
        .unwrap();
    assert_eq!(
        cat.status.code(),
        Some(6),
        "{}",
        String::from_utf8_lossy(&cat.stderr)
    );
    assert!(String::from_utf8_lossy(&cat.stderr).contains("#3: event_json is not UTF-8"));

    let out = store.run_code(["--json", "doctor"], 3);
    let doc = json(&out);
    let bad: Vec<String> = doc["data"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "text-encoding")
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect();
    for cell in [
        "session_nodes.label",
        "session_nodes.display_name",
        "session_nodes.category",
        "session_nodes.entry_json",
        "transcript_events.event_json",
    ] {
        assert!(
            bad.iter()
                .any(|m| m.starts_with(cell) && m.contains("OpenClaw cannot read it")),
            "{cell}: {bad:#?}"
        );
    }

    // --fix repairs what OpenClaw's doctor repairs and leaves the event for a human.
    let out = store
        .cmd()
        .args(["--json", "doctor", "--fix", "--yes"])
        .output()
        .unwrap();
    assert_no_panic("doctor --fix", &out);
    let doc = json(&out);
    let left: Vec<String> = doc["data"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "text-encoding")
        .map(|f| f["message"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(left.len(), 1, "{left:#?}");
    assert!(
        left[0].starts_with("transcript_events.event_json"),
        "{left:#?}"
    );
    let out = store
        .cmd()
        .args(["doctor", "--fix", "--yes"])
        .output()
        .unwrap();
    assert_no_panic("doctor --fix, again", &out);
    let out = store.cmd().args(["list", "--all-agents"]).output().unwrap();
    expect_exit(&out, 0);
}

#[test]
fn a_file_given_as_the_state_dir_is_called_a_file() {
    let store = Store::copy("live");
    let file = store.dir.path().join("not-a-dir");
    std::fs::write(&file, b"x").unwrap();
    for how in ["flag", "env"] {
        let mut c = crate::common::bin();
        match how {
            "flag" => c.arg("--state-dir").arg(&file),
            _ => c.env("OPENCLAW_STATE_DIR", &file),
        };
        let out = c.args(["list"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{how}: {stderr}");
        assert!(
            stderr.contains("is a file, not a directory") && !stderr.contains("does not exist"),
            "{how}: {stderr}"
        );
    }
}

#[test]
fn sizes_that_overflow_are_refused() {
    let store = Store::copy("live");
    for size in ["99999999999999999999gb", "18446744073709551616"] {
        let out = store
            .cmd()
            .args(["prune", "--all-agents", "-n", "--max-disk-bytes", size])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{size}: {stderr}");
        assert!(stderr.contains("out of range"), "{size}: {stderr}");
    }
}

fn mkfifo(path: &std::path::Path) {
    let status = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

/// Runs the binary and kills it if it has not finished within `secs`: a FIFO must never
/// block it.
fn run_promptly(mut cmd: std::process::Command, secs: u64) -> std::process::Output {
    use std::io::Read;
    let mut child = cmd
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > std::time::Duration::from_secs(secs) {
            child.kill().unwrap();
            let _ = child.wait();
            panic!("{cmd:?} did not finish within {secs} s (blocked on a FIFO?)");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    child
        .stdout
        .take()
        .unwrap()
        .read_to_end(&mut stdout)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_end(&mut stderr)
        .unwrap();
    std::process::Output {
        status: child.wait().unwrap(),
        stdout,
        stderr,
    }
}

fn on(store: &Store, args: &[&str]) -> std::process::Command {
    let mut c = crate::common::std_bin();
    c.env("HOME", store.dir.path())
        .arg("--state-dir")
        .arg(store.state())
        .args(args);
    c
}

#[test]
fn a_fifo_manifest_or_quarantine_record_is_refused_never_waited_for() {
    let store = Store::copy("live");
    let repo = store.state().join("openclaw-sessions-snapshots");
    let snap = repo.join("2026-11-29T23-25-12-576Z-56ca6b7f-a7c1-419c-9037-918883083660");
    crate::common::copy_dir(
        &std::path::Path::new(crate::common::FIXTURES)
            .join("snapshot")
            .join(snap.file_name().unwrap()),
        &snap,
    );
    std::fs::remove_file(snap.join("manifest.json")).unwrap();
    mkfifo(&snap.join("manifest.json"));
    let repo_arg = repo.to_str().unwrap();
    let snap_arg = snap.to_str().unwrap();
    for args in [
        &["backup", "list", "--repository", repo_arg][..],
        &["backup", "verify", snap_arg][..],
        &["undelete", "agent:main:never-was", "-n"][..],
    ] {
        let out = run_promptly(on(&store, args), 20);
        assert_ne!(out.status.code(), Some(101), "{args:?}");
        if args[1] == "verify" {
            let stderr = String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr);
            assert!(
                stderr.contains("is a FIFO, not a regular file"),
                "{args:?}: {stderr}"
            );
            assert_eq!(out.status.code(), Some(3), "{args:?}: {stderr}");
        }
    }

    let dir = store
        .state()
        .join("openclaw-sessions-quarantine")
        .join("main");
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("c11d8540.1780000000000.entry.json");
    mkfifo(&record);
    let out = run_promptly(on(&store, &["show", "agent:main:pinned-notes"]), 20);
    let stderr = String::from_utf8_lossy(&out.stderr);
    expect_exit(&out, 5);
    assert!(
        stderr.contains(record.to_str().unwrap()) && stderr.contains("is a FIFO"),
        "{stderr}"
    );
}

#[test]
fn a_fifo_in_acpx_state_is_refused_by_the_dry_run_and_the_run() {
    let store = Store::copy("live");
    let old = crate::migrate_acpx::plant_old_state(&store);
    let fifo = old.join("sessions/pipe");
    mkfifo(&fifo);
    for args in [
        &["migrate", "acpx", "-n"][..],
        &["migrate", "acpx", "--yes"][..],
    ] {
        let out = run_promptly(on(&store, args), 20);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(5), "{args:?}: {stderr}");
        assert!(
            stderr.contains(fifo.to_str().unwrap()) && stderr.contains("is a FIFO"),
            "{args:?}: {stderr}"
        );
    }
    assert!(!store.state().join("acpx").exists());
}

/// A zstd stream of `header`, then `n` times `byte`, then `tail`: a few hundred KB on disk.
fn zstd_bomb(header: &str, byte: u8, n: u64, tail: &str) -> Vec<u8> {
    use std::io::Read;
    let body = header
        .as_bytes()
        .chain(std::io::repeat(byte).take(n))
        .chain(tail.as_bytes());
    zstd::stream::encode_all(body, 19).unwrap()
}

const BOMB_SID: &str = "0badb0b0-0000-4000-8000-000000000001";

fn plant_bomb(store: &Store, bytes: &[u8]) -> (String, std::path::PathBuf) {
    let name = format!(
        "{BOMB_SID}.jsonl.deleted.2026-11-30T00-00-00.000Z.0badb0b00000400080000000000000001.zst"
    );
    let path = store.state().join("agents/main/sessions").join(&name);
    std::fs::write(&path, bytes).unwrap();
    assert!(bytes.len() < 1 << 20, "the bomb is {} bytes", bytes.len());
    (name, path)
}

/// `archives list`, `archives cat` and `search --archived` on a zstd bomb beside a session:
/// each stops at the cap, names the archive, stays under 1 GiB of address space and finishes
/// in seconds; the listing and the search go on with the other archives.
fn bomb_is_bounded(store: &Store, name: &str, path: &std::path::Path, extra: &[(&str, &str)]) {
    let run = |args: &[&str]| {
        let mut c = on(store, args);
        limit_address_space(&mut c, 1 << 30);
        for (k, v) in extra {
            c.env(k, v);
        }
        let start = std::time::Instant::now();
        let out = run_promptly(c, 60);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_no_panic(&format!("{args:?}"), &out);
        assert!(
            out.status.code().is_some(),
            "{args:?} ended by a signal: {stderr}"
        );
        assert!(
            start.elapsed() < std::time::Duration::from_secs(30),
            "{args:?} took {:?}",
            start.elapsed()
        );
        (out, stderr)
    };
    let (out, stderr) = run(&["archives", "list", "--agent", "main"]);
    expect_exit(&out, 0);
    assert!(
        stderr.contains(name) && stderr.contains("the most this tool"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("f41211d0"),
        "the other archives are listed: {stdout}"
    );

    let (out, stderr) = run(&["archives", "cat", name]);
    expect_exit(&out, 6);
    assert!(
        stderr.contains(path.to_str().unwrap()) && stderr.contains("the most this tool"),
        "{stderr}"
    );

    let (out, _) = run(&["search", "--archived", "sdk user msg", "--json"]);
    expect_exit(&out, 0);
    let doc = json(&out);
    let warnings = doc["warnings"].to_string();
    assert!(
        warnings.contains(name) && warnings.contains("was not searched"),
        "{doc}"
    );
    assert!(
        !doc["data"]["hits"].as_array().unwrap().is_empty(),
        "the other archives are searched: {doc}"
    );
}

#[test]
fn a_zstd_bomb_of_one_long_line_is_read_only_up_to_the_line_cap() {
    let store = Store::copy("live");
    let header = format!(
        "{{\"type\":\"session\",\"version\":4,\"id\":\"{BOMB_SID}\",\"timestamp\":\"2026-11-29T23:24:40.727Z\"}}\n\"sdk user msg "
    );
    // One line of 100 MiB (over the 64 MiB cap), a few hundred KB compressed.
    let bomb = zstd_bomb(&header, b'a', 100 << 20, "\"\n");
    let (name, path) = plant_bomb(&store, &bomb);
    bomb_is_bounded(&store, &name, &path, &[]);
}

#[test]
fn a_zstd_bomb_of_empty_lines_is_read_only_up_to_the_archive_cap() {
    let store = Store::copy("live");
    let header = format!(
        "{{\"type\":\"session\",\"version\":4,\"id\":\"{BOMB_SID}\",\"timestamp\":\"2026-11-29T23:24:40.727Z\"}}\n"
    );
    // 256 MiB of newlines against a cap lowered to 32 MiB (the test hook), so that the cap,
    // not the end of the stream, stops it.
    let bomb = zstd_bomb(&header, b'\n', 256 << 20, "");
    let (name, path) = plant_bomb(&store, &bomb);
    bomb_is_bounded(
        &store,
        &name,
        &path,
        &[("OPENCLAW_SESSIONS_MAX_ARCHIVE_BYTES", "33554432")],
    );
}

/// A FIFO (or a symbolic link) where an archive file, the import's index or the config is
/// stands for itself: `archives list` warns for that archive and lists the others; nothing
/// waits for a writer.
#[test]
fn a_fifo_archive_index_or_config_is_never_waited_for() {
    let store = Store::copy("live");
    let sessions = store.state().join("agents/main/sessions");
    let published = sessions.join(
        "f41211d0-f8c6-4159-b013-18288254e649.jsonl.deleted.2026-11-29T23-24-43.289Z.7601e05ea73643a98f220fed34913498.zst",
    );
    std::fs::remove_file(&published).unwrap();
    mkfifo(&published);
    let loose =
        sessions.join("ef600e04-5bcc-46d6-bd14-b9a26263e8fc.jsonl.reset.2026-06-01T08-00-00.000Z");
    std::fs::remove_file(&loose).unwrap();
    mkfifo(&loose);
    let index = store
        .state()
        .join("agents/main/session-sqlite-import-archive/legacy-store.sessions.json.imported-1795994663673");
    std::fs::remove_file(&index).unwrap();
    mkfifo(&index);
    let out = run_promptly(
        on(&store, &["archives", "list", "--agent", "main", "--json"]),
        20,
    );
    expect_exit(&out, 0);
    let doc = json(&out);
    let warnings = doc["warnings"].to_string();
    for fifo in [&published, &loose] {
        assert!(
            warnings.contains(fifo.file_name().unwrap().to_str().unwrap())
                && warnings.contains("is a FIFO, not a regular file"),
            "{doc:#}"
        );
    }
    let listed = doc["data"].to_string();
    assert!(
        listed.contains("f41211d0") && listed.contains("ef600e04"),
        "the listing goes on past them: {doc:#}"
    );
    // Archives of the other agents, and the import's of this one, are still listed.
    assert!(doc.to_string().contains(".jsonl.imported-"), "{doc:#}");

    let config = store.state().join("openclaw.json");
    std::fs::remove_file(&config).unwrap();
    mkfifo(&config);
    let out = run_promptly(on(&store, &["list", "--agent", "main"]), 20);
    assert_ne!(out.status.code(), Some(101));
}

/// The first SIGTERM ends a run blocked in a system call under custody at once (130): the
/// test hook holds `patch` in a plain `open` then `read` of a FIFO inside its transaction,
/// where SA_RESTART restarts the call after the handler. The next run reclaims the lock and
/// finds the entry as it was.
#[test]
fn the_first_sigterm_ends_a_run_blocked_in_a_system_call() {
    use std::os::unix::fs::OpenOptionsExt;
    let store = Store::copy("live");
    let fifo = store.dir.path().join("hold");
    mkfifo(&fifo);
    let mut cmd = on(&store, &["patch", KEY, "--set", "label=\"held\"", "--yes"]);
    cmd.env(
        "OPENCLAW_SESSIONS_BLOCK_AT",
        format!("patch-before-commit={}", fifo.display()),
    )
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    // A writer's non-blocking open succeeds only once the run has opened the FIFO to read;
    // the writer is kept open without writing, so the run stays blocked in `read`.
    let start = std::time::Instant::now();
    let _writer = loop {
        match std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&fifo)
        {
            Ok(w) => break w,
            Err(_) if start.elapsed() < std::time::Duration::from_secs(60) => {
                assert!(child.try_wait().unwrap().is_none(), "the run ended early");
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(e) => panic!("the run never reached the hook: {e}"),
        }
    };
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(child.try_wait().unwrap().is_none(), "held in read");
    // SAFETY: kill(2) of our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let sent = std::time::Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if sent.elapsed() > std::time::Duration::from_secs(3) {
            child.kill().unwrap();
            panic!("still running 3 s after one SIGTERM");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let out = store.run_code(["show", KEY, "--json"], 0);
    assert_ne!(json(&out)["data"]["entry"]["label"], "held");
    let again = store
        .cmd()
        .args(["patch", KEY, "--set", "label=\"after\"", "--yes"])
        .output()
        .unwrap();
    assert_eq!(
        again.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
}

/// Every TEXT column of every table a reader touches, one at a time, holding bytes that are not
/// UTF-8, then JSON cut short: every read-only command and the doctor end without a panic (a
/// property over the whole schema, not a chosen few columns).
#[test]
fn damaged_bytes_in_any_text_column_never_panic_a_reader() {
    let pristine = Store::copy("live");
    let conn = pristine.writable("main");
    let mut columns: Vec<(String, String)> = Vec::new();
    {
        let mut tables = conn
            .prepare(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' \
                 AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts_%' AND name NOT LIKE 'memory_%' \
                 ORDER BY name",
            )
            .unwrap();
        let names: Vec<String> = tables
            .query_map([], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        for t in names {
            let rows: i64 = conn
                .query_row(&format!("SELECT count(*) FROM \"{t}\""), [], |r| r.get(0))
                .unwrap();
            if rows == 0 {
                continue;
            }
            let mut info = conn
                .prepare("SELECT name, type FROM pragma_table_info(?1)")
                .unwrap();
            for (c, ty) in info
                .query_map([&t], |r| {
                    Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?))
                })
                .unwrap()
                .map(Result::unwrap)
            {
                if ty.eq_ignore_ascii_case("TEXT") {
                    columns.push((t.clone(), c));
                }
            }
        }
    }
    drop(conn);
    assert!(columns.len() >= 40, "only {} text columns", columns.len());
    let reads: &[&[&str]] = &[
        &["list", "--all-agents"],
        &["--json", "list", "--all-agents"],
        &["show", "agent:main:main"],
        &["transcript", "cat", "agent:main:main"],
        &["archives", "list"],
        &["search", "summarize"],
        &["du"],
        &["doctor"],
    ];
    for (i, (table, column)) in columns.iter().enumerate() {
        // Alternately bytes that are not UTF-8 and JSON cut short, on every row of the column
        // (a CHECK or a key may refuse the damage: then that column cannot hold it).
        let value = if i % 2 == 0 {
            "x'7b22ff22c3'"
        } else {
            "x'7b2261223a'"
        };
        let store = Store::copy("live");
        let damaged = store.writable("main").execute_batch(&format!(
            "PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON; \
             UPDATE OR IGNORE \"{table}\" SET \"{column}\" = CAST({value} AS TEXT);"
        ));
        if damaged.is_err() {
            continue;
        }
        for args in reads {
            let out = store.cmd().args(*args).output().unwrap();
            assert_no_panic(&format!("{table}.{column}: {args:?}"), &out);
        }
    }
}

/// A state dir under a home directory in another language (issue 55): every command opens its
/// databases by a `file:` URI, and each of these names, composed (NFC) and decomposed (NFD),
/// must name the same files OpenClaw opens. Before, each UTF-8 byte became one character of
/// the URI, so `josé` opened `josÃ©` and every command failed or doctor called a healthy
/// database damaged.
#[test]
fn a_state_dir_under_a_path_in_any_language_works() {
    for name in [
        "jos\u{e9}",
        "jose\u{301}",
        "\u{7528}\u{6237}",
        "\u{41f}\u{43e}\u{43b}\u{44c}\u{437}\u{43e}\u{432}\u{430}\u{442}\u{435}\u{43b}\u{44c}",
        "a b%3F?#",
    ] {
        let (store, state) = crate::common::Store::copy_under("live", name);
        let run = |args: &[&str], code: i32| {
            let mut c = crate::common::bin();
            c.env("HOME", store.dir.path())
                .arg("--state-dir")
                .arg(&state);
            let out = c.args(args).output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(code),
                "{name}: {args:?}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            json(&out)
        };
        let list = run(&["--json", "list", "--all-agents", "--limit", "all"], 0);
        assert!(
            !list["data"].as_array().unwrap().is_empty(),
            "{name}: {list}"
        );
        let doctor = run(&["--json", "doctor"], 0);
        let errors: Vec<_> = doctor["data"]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["severity"] == "error")
            .collect();
        assert!(errors.is_empty(), "{name}: doctor: {errors:?}");
        run(&["--json", "show", KEY], 0);
        run(&["--json", "search", "the"], 0);
        run(&["--json", "du", "--all-agents"], 0);
        run(
            &[
                "--json",
                "patch",
                KEY,
                "--set",
                "label=\"r\u{e9}sum\u{e9}\"",
            ],
            0,
        );
        run(&["--json", "prune", "-n"], 0);
        let del = run(&["--json", "delete", KEY, "--yes"], 0);
        assert_eq!(
            del["data"]["results"][0]["result"], "deleted",
            "{name}: {del}"
        );
        run(&["--json", "archives", "list"], 0);
        run(&["--json", "backup", "create", "--yes"], 0);
    }
}
