//! The operator surface: exit codes and `--json` errors as README.md's table says, usage
//! errors that name the command and the argument.

use crate::common::{bin, expect_exit, filter_cut_temp_paths, regex_escape, Store};

/// What one run must end with: its exit code, and under `--json` either the error document's
/// code or a success document (`None`).
struct Expect {
    exit: i32,
    code: Option<&'static str>,
}

const fn ok(exit: i32) -> Expect {
    Expect { exit, code: None }
}
// Every exit but 0 (and a child's under `custody run`) comes with an error code.

const fn err(exit: i32, code: &'static str) -> Expect {
    Expect {
        exit,
        code: Some(code),
    }
}

/// Run `args` with `--json` on `store` and check the exit code and the one-line document.
fn check(store: &Store, args: &[&str], want: Expect) -> serde_json::Value {
    let out = store.cmd().arg("--json").args(args).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(want.exit),
        "{args:?}\nstdout: {stdout}\nstderr: {stderr}"
    );
    if args.first() == Some(&"custody") && args.get(1) == Some(&"run") && want.code.is_none() {
        return serde_json::Value::Null; // the child's own output
    }
    assert_eq!(
        stdout.lines().count(),
        1,
        "{args:?}: one JSON line expected:\n{stdout}"
    );
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let command = doc["command"].as_str().unwrap_or_else(|| {
        panic!("{args:?}: the document names no command: {stdout}");
    });
    assert!(!command.is_empty(), "{args:?}: {stdout}");
    match want.code {
        Some(code) => {
            assert_eq!(doc["ok"], false, "{args:?}: {stdout}");
            assert_eq!(doc["error"]["code"], code, "{args:?}: {stdout}");
            assert!(doc["error"]["message"].is_string(), "{stdout}");
        }
        None => assert_eq!(doc["ok"], true, "{args:?}: {stdout}"),
    }
    // One rule: a document says ok exactly when the exit is 0.
    assert_eq!(doc["ok"], want.exit == 0, "{args:?}: {stdout}");
    doc
}

#[test]
fn every_command_through_its_outcomes() {
    let store = Store::copy("live");
    let s = &store;
    let repo = s.dir.path().join("repo");
    let repo = repo.to_str().unwrap();
    let gone = s.dir.path().join("gone");
    let gone = gone.to_str().unwrap();
    let taken = s.state().join("openclaw.json");
    let taken = taken.to_str().unwrap();

    // status, du: success; not found.
    check(s, &["status"], ok(0));
    check(s, &["du"], ok(0));
    // list: success, nothing matching (success), unknown agent, bad input.
    check(s, &["list"], ok(0));
    check(s, &["list", "--match", "no-such-text"], ok(0));
    check(s, &["list", "--agent", "ghost"], err(4, "NOT_FOUND"));
    check(s, &["list", "--agent", "a/b"], err(2, "USAGE"));
    check(s, &["list", "--limit", "0"], err(2, "USAGE"));
    check(s, &["--store", gone, "list"], err(4, "NOT_FOUND"));
    // The one time grammar: ages with units, valid dates, RFC 3339, epoch with its unit.
    for ok_time in [
        "1w2d12h",
        "2w",
        "2026-06-01",
        "2026-06-01T08:00:00Z",
        "@1780351215s",
    ] {
        check(s, &["list", "--updated-after", ok_time], ok(0));
    }
    for bad_time in [
        "2026-02-31",
        "1780351215",
        "2026-06-01T08:00:00",
        "@1780351215",
    ] {
        check(s, &["list", "--updated-after", bad_time], err(2, "USAGE"));
    }
    check(s, &["prune", "--older-than", "2w", "--dry-run"], ok(0));
    check(s, &["prune", "--older-than", "1d12h", "--dry-run"], ok(0));
    check(
        s,
        &["prune", "--older-than", "30", "--dry-run"],
        err(2, "USAGE"),
    );
    // show and transcript: success, not found, bad input, refused.
    check(s, &["show", "main"], ok(0));
    check(s, &["show", "no-such-session"], err(4, "NOT_FOUND"));
    check(s, &["transcript", "catalog", "main"], ok(0));
    check(s, &["transcript", "delta", "main"], ok(0));
    check(
        s,
        &["transcript", "cat", "no-such-session"],
        err(4, "NOT_FOUND"),
    );
    check(
        s,
        &["transcript", "delta", "main", "--cursor", "garbage"],
        ok(0),
    );
    check(
        s,
        &[
            "transcript",
            "export",
            "main",
            "--format",
            "jsonl",
            "--output",
            taken,
        ],
        err(5, "CONFLICT"),
    );
    // marker: success, bad input.
    check(
        s,
        &["marker", "format", "--agent", "main", "--session-id", "abc"],
        ok(0),
    );
    check(s, &["marker", "parse", "garbage"], err(6, "BAD_INPUT"));
    // patch: success, the same patch again (success), refused, not found.
    check(s, &["patch", "main", "--set", "label=\"walk\""], ok(0));
    check(s, &["patch", "main", "--set", "label=\"walk\""], ok(0));
    check(
        s,
        &[
            "patch",
            "main",
            "--expect-updated-at",
            "1",
            "--set",
            "label=\"x\"",
        ],
        err(5, "CONFLICT"),
    );
    check(
        s,
        &["patch", "no-such-session", "--set", "label=\"x\""],
        err(4, "NOT_FOUND"),
    );
    // archive, unarchive: success, again (nothing to do), not found, partial.
    let key = "agent:main:sdk-made-1";
    check(s, &["archive", key, "--yes"], ok(0));
    check(s, &["archive", key, "--yes"], ok(0));
    check(s, &["unarchive", key, "--yes"], ok(0));
    check(
        s,
        &["archive", "no-such-session", "--yes"],
        err(4, "NOT_FOUND"),
    );
    check(
        s,
        &["archive", key, "no-such-session", "--yes"],
        err(3, "PARTIAL"),
    );
    // Refusals of a guard: ok false with the guard's code, the per-key results as data.
    let refused = check(
        s,
        &["delete", "agent:main:scratch-1", "--yes"],
        err(5, "LOCKED_SESSION"),
    );
    assert_eq!(refused["data"]["results"][0]["result"], "refused");
    check(s, &["archive", "main", "--yes"], err(5, "LOCKED_SESSION"));
    // delete: without --yes and no terminal, success, gone, partial.
    check(s, &["delete", key], err(2, "CONFIRMATION_REQUIRED"));
    check(s, &["delete", key, "--yes"], ok(0));
    check(s, &["delete", key, "--yes"], err(4, "NOT_FOUND"));
    check(
        s,
        &["delete", "agent:main:sdk-made-0", key, "--yes"],
        err(3, "PARTIAL"),
    );
    // prune: success, then nothing to do.
    check(s, &["prune", "--yes"], ok(0));
    check(s, &["prune", "--yes"], ok(0));
    // backup: create, list, verify, not found, partial, refused.
    check(s, &["backup", "create", "--repository", repo], ok(0));
    let listed = check(s, &["backup", "list", "--repository", repo], ok(0));
    let snapshot = listed["data"]["snapshots"][0]["path"]
        .as_str()
        .unwrap()
        .to_string();
    check(s, &["backup", "verify", &snapshot], ok(0));
    check(s, &["backup", "verify", gone], err(4, "NOT_FOUND"));
    check(
        s,
        &["backup", "verify", &snapshot, gone],
        err(3, "FINDINGS"),
    );
    check(
        s,
        &["backup", "list", "--repository", gone],
        err(4, "NOT_FOUND"),
    );
    check(
        s,
        &["backup", "restore", &snapshot, "--target", taken],
        err(5, "TARGET_EXISTS"),
    );
    // doctor: a store with only warnings, an unknown check.
    check(s, &["doctor"], ok(0));
    check(s, &["doctor", "no-such-check"], err(2, "USAGE"));
    // migrate: nothing to do, twice, is success.
    check(s, &["migrate", "legacy", "--yes"], ok(0));
    check(s, &["migrate", "legacy", "--yes"], ok(0));
    check(s, &["migrate", "acpx", "--yes"], ok(0));
    check(s, &["migrate", "acpx", "--yes"], ok(0));
    // custody: status, a child's own code, a command that is not there.
    check(s, &["custody", "status"], ok(0));
    check(s, &["custody", "clear-stale"], ok(0));
    check(s, &["custody", "run", "--", "true"], ok(0));
    check(s, &["custody", "run", "--", "false"], ok(1));
    check(
        s,
        &["custody", "run", "--", "/no/such/command"],
        err(127, "COMMAND_NOT_FOUND"),
    );
    // generators.
    check(s, &["completions", "nosh"], err(2, "USAGE"));

    // doctor with an error finding: exit 3, and the findings are the data.
    s.writable("main")
        .execute(
            "UPDATE session_nodes SET entry_json = '{\"oops\":' WHERE session_key = 'agent:main:main'",
            [],
        )
        .unwrap();
    check(s, &["doctor"], err(3, "FINDINGS"));
}

#[test]
fn a_missing_state_dir_is_not_found_for_every_reader() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["status"][..],
        &["list"],
        &["show", "main"],
        &["du"],
        &["doctor"],
    ] {
        let out = bin()
            .env("HOME", dir.path())
            .arg("--state-dir")
            .arg(dir.path().join("nope"))
            .arg("--json")
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(4), "{args:?}");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["error"]["code"], "NOT_FOUND", "{args:?}");
    }
}

#[test]
fn a_missing_acpx_source_and_a_finished_move_are_nothing_to_do() {
    let store = Store::copy("live");
    let out = store.run_code(["migrate", "acpx", "--yes"], 0);
    // Nothing due, nothing printed; -v says why.
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    let out = store.run_code(["-v", "migrate", "acpx", "--yes"], 0);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("nothing to do"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!store.state().join("acpx").exists());
}

/// `custody run` exits as `env` and `timeout` do when the command cannot start: 127 for a
/// command that is not there, 126 for one that is there but cannot be executed (README.md,
/// Exit codes), with the code named under `--json`.
#[test]
fn custody_run_exits_127_for_a_missing_command_and_126_for_one_that_cannot_run() {
    let store = Store::copy("live");
    let out = store.run_code(["custody", "run", "--", "/no/such/command"], 127);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no such command"), "{err}");
    assert!(!err.contains("disk"), "{err}");
    store.run_code(["custody", "run", "--", "no-such-command-on-path-36"], 127);

    let plain = store.dir.path().join("not-executable.sh");
    std::fs::write(&plain, "#!/bin/sh\nexit 0\n").unwrap();
    let dir = store.dir.path().join("a-directory");
    std::fs::create_dir(&dir).unwrap();
    for program in [&plain, &dir] {
        let out = store
            .cmd()
            .arg("--json")
            .args(["custody", "run", "--"])
            .arg(program)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(126), "{program:?}");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(doc["error"]["code"], "COMMAND_NOT_EXECUTABLE", "{doc}");
    }
    let out = store
        .cmd()
        .arg("--json")
        .args(["custody", "run", "--", "/no/such/command"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["error"]["code"], "COMMAND_NOT_FOUND", "{doc}");
    // Custody was released: the next run takes it.
    store.run_ok(["custody", "run", "--", "true"]);
}

/// Every command path (`list`, `backup create`, ...) from the `Commands:` sections of `--help`.
fn command_paths(prefix: &[String], out: &mut Vec<Vec<String>>) {
    out.push(prefix.to_vec());
    let help = bin().args(prefix).arg("--help").output().unwrap();
    let text = String::from_utf8_lossy(&help.stdout).to_string();
    let Some(start) = text.find("\nCommands:\n") else {
        return;
    };
    for line in text[start + 11..].lines() {
        if line.is_empty() {
            break;
        }
        // "  name  text"; a wrapped description is indented further.
        let Some(rest) = line.strip_prefix("  ") else {
            break;
        };
        if rest.starts_with(' ') {
            continue;
        }
        let name = rest.split_whitespace().next().unwrap().to_string();
        if name == "help" {
            continue;
        }
        let mut path = prefix.to_vec();
        path.push(name);
        command_paths(&path, out);
    }
}

/// At 80 columns every command's `--help` examples fit, and one too long for a line goes on
/// as a shell continuation (` \`), never broken in the middle of a command.
#[test]
fn help_examples_fit_80_columns_without_breaking_a_command() {
    let mut paths = Vec::new();
    command_paths(&[], &mut paths);
    assert!(paths.len() > 30, "{paths:?}");
    for path in paths {
        let out = bin()
            .args(&path)
            .arg("--help")
            .env("COLUMNS", "80")
            .output()
            .unwrap();
        assert!(out.status.success(), "{path:?}");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        let examples = &text[text
            .find("Examples:\n")
            .unwrap_or_else(|| panic!("{path:?}"))..];
        for line in examples.lines() {
            assert!(
                line.chars().count() <= 80,
                "{path:?}: an example line wider than 80: {line:?}"
            );
        }
        let mut continued = false;
        for line in examples.lines().skip(1) {
            if line.trim().is_empty() {
                break;
            }
            let command = line.starts_with("  openclaw-sessions ") || line.starts_with("  source ");
            assert!(
                command || continued,
                "{path:?}: an example broken mid-command: {line:?}\n{examples}"
            );
            continued = line.ends_with(" \\");
        }
    }
}

/// Usage errors: one line, the command named, the argument at fault, a hint.
#[test]
fn usage_errors_name_the_command_and_the_argument() {
    let store = Store::copy("live");
    for (args, command, argument) in [
        (&["list", "--bogus"][..], "list", "--bogus"),
        (&["list", "--kind", "nope"], "list", "--kind <KIND>"),
        (
            &["backup", "restore", "--target", "x"],
            "backup restore",
            "<SNAPSHOT>",
        ),
        (
            &["--agent", "main", "transcript", "cat"],
            "transcript cat",
            "<KEY|SESSION_ID>",
        ),
    ] {
        let out = store.cmd().arg("--json").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(stdout.lines().count(), 1, "{stdout}");
        let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(doc["command"], command, "{stdout}");
        assert_eq!(doc["error"]["code"], "USAGE", "{stdout}");
        assert_eq!(doc["error"]["argument"], argument, "{stdout}");
        assert!(
            doc["error"]["message"]
                .as_str()
                .unwrap()
                .contains(argument.trim_end_matches("...")),
            "{stdout}"
        );
        assert!(doc["error"]["hint"].is_string(), "{stdout}");
    }
    // A typo gets clap's suggestion as the hint.
    let out = store
        .cmd()
        .args(["--json", "list", "--limt", "3"])
        .output()
        .unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["error"]["hint"], "did you mean --limit?");
}

/// `-v` shows more, `-vv` more again: each step of a mutation with its time, and how each
/// database was opened; `-q` and `-v` together are a usage error.
#[test]
fn each_v_shows_more() {
    let store = Store::copy("live");
    let run = |args: &[&str]| {
        let out = store.cmd().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let once = run(&["-v", "archive", "agent:main:pinned-notes"]);
    assert!(once.contains("state dir:"), "{once}");
    assert!(!once.contains("step apply:"), "{once}");
    let twice = run(&["-vv", "unarchive", "agent:main:pinned-notes"]);
    for step in ["resolve", "custody", "plan", "check", "apply", "verify"] {
        assert!(twice.contains(&format!("step {step}: ")), "{step}: {twice}");
    }
    let read = run(&["-vv", "list", "--limit", "1"]);
    assert!(read.contains("opened read-only (immutable"), "{read}");
    store.run_code(["-q", "-v", "list"], 2);
}

/// The shell at `name`, or a printed notice that its tests are skipped.
fn shell(name: &str) -> Option<std::path::PathBuf> {
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        crate::common::cannot_run_here(&format!("{name} is not installed"));
    }
    found
}

/// A shell with the binary first on PATH, run on a copy of the live store.
fn in_shell(shell: &std::path::Path, store: &Store, args: &[&str], script: &str) -> String {
    let bin_dir = assert_cmd::cargo::cargo_bin("openclaw-sessions")
        .parent()
        .unwrap()
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = std::process::Command::new(shell)
        .args(args)
        .arg(script)
        .env("PATH", path)
        .env("HOME", store.dir.path())
        .env("STATE", store.state())
        .env_remove("OPENCLAW_STATE_DIR")
        .env_remove("OPENCLAW_HOME")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{script}\n{stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// `(the line being completed, what must be among the candidates, what must not)`.
fn completion_cases(store: &Store) -> Vec<(String, Vec<String>, Vec<&'static str>)> {
    let keys = store_keys(store, "main");
    let state = store.state().display().to_string();
    vec![
        (
            "openclaw-sessions list --k".into(),
            vec!["--kind".into()],
            vec!["--json"],
        ),
        (
            "openclaw-sessions list --kind ".into(),
            ["direct", "group", "cron", "spawn-child"]
                .map(String::from)
                .to_vec(),
            vec!["--kind"],
        ),
        (
            "openclaw-sessions completions ".into(),
            ["bash", "zsh", "fish", "powershell", "elvish"]
                .map(String::from)
                .to_vec(),
            vec![],
        ),
        (
            format!("openclaw-sessions --state-dir {state} show agent:main:"),
            keys.clone(),
            vec!["agent:work:scratch-1"],
        ),
        (
            format!("openclaw-sessions --state-dir {state} --agent work delete agent:work:scr"),
            vec!["agent:work:scratch-1".into(), "agent:work:scratch-2".into()],
            vec!["agent:main:scratch-1"],
        ),
        (
            format!("openclaw-sessions --state-dir {state} --agent "),
            ["main", "work", "research"].map(String::from).to_vec(),
            vec![],
        ),
        (
            format!("openclaw-sessions --state-dir {state} doctor inte"),
            vec!["integrity".into()],
            vec![],
        ),
        (
            format!("openclaw-sessions --state-dir {state} transcript cat ma"),
            vec!["main".into()],
            vec![],
        ),
    ]
}

fn store_keys(store: &Store, agent: &str) -> Vec<String> {
    let keys = keys_of(&list_json(
        store,
        &["--agent", agent, "list", "--limit", "all"],
    ));
    assert!(keys.len() > 5, "{keys:?}");
    keys
}

fn assert_candidates(shell: &str, line: &str, got: &[String], want: &[String], not: &[&str]) {
    for w in want {
        assert!(got.contains(w), "{shell}: `{line}` -> {got:?} lacks {w}");
    }
    for n in not {
        assert!(
            !got.iter().any(|g| g == n),
            "{shell}: `{line}` -> {got:?} has {n}"
        );
    }
}

/// Bash splits words at `:` (COMP_WORDBREAKS); the completion function gets them as bash would
/// (and, as its second argument, the text after the last word break, which bash replaces).
fn bash_words(line: &str) -> (String, usize) {
    let mut words: Vec<String> = Vec::new();
    for part in line.split(' ') {
        let mut cur = String::new();
        for c in part.chars() {
            if c == ':' {
                if !cur.is_empty() {
                    words.push(std::mem::take(&mut cur));
                }
                words.push(":".into());
            } else {
                cur.push(c);
            }
        }
        words.push(cur);
    }
    // Empty words are kept only at the end (the word being typed).
    let last = words.pop().unwrap_or_default();
    words.retain(|w| !w.is_empty());
    words.push(last);
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    (quoted.join(" "), words.len() - 1)
}

#[test]
fn bash_completes_at_every_level_and_from_the_store() {
    let Some(bash) = shell("bash") else { return };
    let store = Store::copy("live");
    let before = crate::common::checksums(&store.state());
    for (line, want, not) in completion_cases(&store) {
        let (words, cword) = bash_words(&line);
        let script = format!(
            r#"source <(openclaw-sessions completions bash)
complete -p openclaw-sessions >/dev/null || exit 7
COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}; COMP_WORDS=({words}); COMP_CWORD={cword}
cur="${{COMP_LINE##*[ :]}}"; whole="${{COMP_LINE##* }}"
_openclaw_sessions_complete openclaw-sessions "$cur" "${{COMP_WORDS[COMP_CWORD-1]}}"
for c in "${{COMPREPLY[@]}}"; do printf '%s\n' "${{whole%"$cur"}}$c"; done"#
        );
        let out = in_shell(&bash, &store, &["--norc", "--noprofile", "-c"], &script);
        let got: Vec<String> = out.lines().map(String::from).collect();
        assert_candidates("bash", &line, &got, &want, &not);
    }
    assert_eq!(
        crate::common::checksums(&store.state()),
        before,
        "a completion lookup changed the state dir"
    );
}

#[test]
fn zsh_completes_at_every_level_and_from_the_store() {
    let Some(zsh) = shell("zsh") else { return };
    let store = Store::copy("live");
    for (line, want, not) in completion_cases(&store) {
        let mut words: Vec<&str> = line.split(' ').collect();
        if line.ends_with(' ') {
            words.pop();
            words.push("");
        }
        let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
        // _describe is where zsh would show the candidates: print them instead.
        let script = format!(
            r#"autoload -U compinit; compinit -u -D
source <(openclaw-sessions completions zsh)
_describe() {{ print -rl -- "${{(@P)3}}" }}
words=({}); CURRENT={}
_clap_dynamic_completer_openclaw_sessions"#,
            quoted.join(" "),
            words.len()
        );
        let out = in_shell(&zsh, &store, &["-f", "-c"], &script);
        // `value:description`, with `:` in values escaped.
        let got: Vec<String> = out
            .lines()
            .map(|l| {
                let mut value = String::new();
                let mut chars = l.chars();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => value.extend(chars.next()),
                        ':' => break,
                        c => value.push(c),
                    }
                }
                value
            })
            .collect();
        assert_candidates("zsh", &line, &got, &want, &not);
    }
}

#[test]
fn fish_completes_at_every_level_and_from_the_store() {
    let Some(fish) = shell("fish") else { return };
    let store = Store::copy("live");
    for (line, want, not) in completion_cases(&store) {
        let script = format!("openclaw-sessions completions fish | source; complete -C '{line}'");
        let out = in_shell(&fish, &store, &["--no-config", "-c"], &script);
        let got: Vec<String> = out
            .lines()
            .map(|l| l.split('\t').next().unwrap_or_default().to_string())
            .collect();
        assert_candidates("fish", &line, &got, &want, &not);
    }
}

/// Every committed page names the program as it is typed, has the sections a man page needs,
/// and renders without a warning.
#[test]
fn man_pages_render_cleanly_with_the_right_program_name() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let mut pages: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pages.sort();
    assert!(pages.len() > 20, "{pages:?}");
    let groff = shell("groff");
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        // (`openclaw sessions ...` may appear in the text: OpenClaw's own CLI, cited.)
        let synopsis = text
            .split(".SH SYNOPSIS\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{}: no SYNOPSIS", page.display()));
        let words = page
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap()
            .strip_prefix("openclaw-sessions")
            .unwrap()
            .replace('-', " ")
            .replace("clear stale", "clear-stale");
        let typed = format!("\\fBopenclaw\\-sessions{}\\fR", words.replace('-', "\\-"));
        assert!(
            synopsis.starts_with(&typed),
            "{}: synopsis {:?}, expected {typed:?}",
            page.display(),
            &synopsis[..80.min(synopsis.len())]
        );
        for section in [
            ".SH EXAMPLES",
            ".SH \"EXIT STATUS\"",
            ".SH \"ENVIRONMENT\"",
            ".SH \"FILES\"",
        ] {
            assert!(text.contains(section), "{}: no {section}", page.display());
        }
        if let Some(groff) = &groff {
            let out = std::process::Command::new(groff)
                .args(["-man", "-Tutf8", "-ww", "-z"])
                .arg(page)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}: {}",
                page.display(),
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(
                String::from_utf8_lossy(&out.stderr),
                "",
                "{}: groff warnings",
                page.display()
            );
        }
    }
}

/// Tables at 0 (a terminal that reports no width), 80, 100, 120 and 200 columns: one line
/// a row, never wider than the terminal, the same at 0 as at COLUMNS, whole when piped; one
/// style (borders on a terminal) at every width, what a narrow terminal leaves out named on
/// stderr after the table.
#[test]
fn tables_stay_one_line_a_row_at_every_width() {
    // At a path of the same length on every machine, so that a shortened path cell is the same
    // everywhere once the path is filtered.
    let store = Store::copy_at_fixed_length("live");
    let mut settings = insta::Settings::clone_current();
    settings.add_filter(&regex_escape(&store.dir.path().to_string_lossy()), "[TMP]");
    filter_cut_temp_paths(&mut settings, &store);
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    // doctor prints blocks, not a table: doctor::findings_read_at_80_columns.
    let views: [(&str, &[&str]); 7] = [
        ("list", &["--all-agents", "list", "--limit", "all"]),
        ("status", &["status"]),
        (
            "delete_plan",
            &[
                "delete",
                "agent:main:slack:direct:u04abcdef:thread:1777244748.777294",
                "agent:main:cron:nightly:run:884",
                "--dry-run",
            ],
        ),
        ("archives", &["--all-agents", "archives", "list"]),
        ("du", &["--all-agents", "du"]),
        ("list_page", &["--all-agents", "list", "--limit", "3"]),
        (
            "search",
            &["--all-agents", "search", "summarize item", "--limit", "4"],
        ),
    ];
    let run_full = |args: &[&str], width: Option<&str>, columns: Option<&str>| {
        let mut cmd = store.cmd();
        cmd.env("OPENCLAW_SESSIONS_NOW_MS", "1796200000000")
            .env_remove("COLUMNS");
        if let Some(w) = width {
            cmd.env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", w);
        }
        if let Some(c) = columns {
            cmd.env("COLUMNS", c);
        }
        let out = cmd.args(args).output().unwrap();
        assert!(
            out.status.code().is_some_and(|c| c == 0 || c == 3),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        (
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let run = |args: &[&str], width: Option<&str>, columns: Option<&str>| {
        run_full(args, width, columns).0
    };
    let archive_names: Vec<String> = crate::common::json(
        &store
            .cmd()
            .args(["--all-agents", "archives", "list", "--json"])
            .output()
            .unwrap(),
    )["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap().to_string())
        .collect();
    assert!(archive_names.len() > 10);
    for (name, args) in views {
        for width in [0usize, 80, 100, 120, 200] {
            let (text, err) = run_full(args, Some(&width.to_string()), None);
            let limit = if width == 0 { 80 } else { width };
            // The table's lines, from its top border on, and every line of a plan; prose
            // above a table (status's paths) and search's lines of keys are text the
            // terminal may wrap; search's snippets are cut to it.
            let table: Vec<&str> = match name {
                "delete_plan" => text.lines().collect(),
                "search" => text.lines().filter(|l| l.starts_with("    ")).collect(),
                // status's lines above its table hold whole paths (a terminal wraps a
                // path longer than it is wide); its table is held to the width.
                "status" => text
                    .lines()
                    .skip_while(|l| !l.starts_with("AGENT"))
                    .collect(),
                _ => text.lines().collect(),
            };
            // An archive's name is what `undelete` takes: whole, even where it is wider
            // than the terminal; every other column is left out, and the table is left open
            // on the right so that only a row whose name is too long runs past the edge (the
            // terminal wraps that name alone), never a padded line of borders.
            if name == "archives" {
                for n in &archive_names {
                    assert!(text.contains(n.as_str()), "{name} at {width}: {n}\n{text}");
                }
            }
            let open = name == "archives";
            for line in &table {
                let runs_past = open
                    && archive_names
                        .iter()
                        .any(|n| line.ends_with(n.as_str()) && unicode_width(n) + 10 > limit);
                assert!(
                    unicode_width(line) <= limit || runs_past,
                    "{name} at {width}: {} columns:\n{line}",
                    unicode_width(line)
                );
            }
            // One style, gh's and kubectl's: no borders, columns apart by spaces; and no
            // line of stderr (footers) runs past the edge either but a lone cursor.
            assert!(
                !text.contains(['┌', '┘', '│', '┆']),
                "{name} at {width}:\n{text}"
            );
            for line in err.lines().filter(|l| !l.starts_with("--after ")) {
                assert!(unicode_width(line) <= limit, "{name} at {width}: {line}");
            }
            if name == "list_page" {
                assert!(err.contains("showing 3 of 47 sessions"), "{err}");
            }
            let said = err.lines().filter(|l| l.starts_with("hidden at")).count();
            assert!(said <= 1, "{name} at {width}: {err}");
            settings.bind(|| {
                insta::assert_snapshot!(
                    format!("table_{name}_{width}"),
                    format!("{text}----- stderr -----\n{err}")
                );
            });
        }
        // A width of 0 is COLUMNS wide when COLUMNS says so.
        assert_eq!(
            run(args, Some("0"), Some("120")),
            run(args, Some("120"), None),
            "{name}"
        );
    }
    // Piped: every key and id whole, plain columns, one line a row.
    let piped = run(&["--all-agents", "list", "--limit", "all"], None, None);
    assert!(piped.contains("agent:research:slack:direct:u08abcdef:thread:1777244748.777298"));
    assert!(!piped.contains('…'));
    assert!(
        piped.lines().next().unwrap().contains("CATEGORY"),
        "{piped}"
    );
    assert_eq!(piped.lines().count(), 1 + 47, "{piped}");
    // --wide keeps every column and cell whole on a terminal too.
    let wide = run(
        &["--all-agents", "--wide", "list", "--limit", "all"],
        Some("80"),
        None,
    );
    assert!(wide.contains("agent:research:slack:direct:u08abcdef:thread:1777244748.777298"));
    assert!(wide.contains("HARNESS") && !wide.contains('…'), "{wide}");
}

/// The cells of a table's rows (header first): columns are apart by two spaces or more.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|l| {
            l.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// At 80 columns every session of the live fixture is named whole: the agent, the key as
/// `--agent AGENT` resolves it, and a session-id prefix the resolver takes for that session.
#[test]
fn every_key_appears_whole_at_80_columns() {
    let store = Store::copy("live");
    let out = store
        .cmd()
        .env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", "80")
        .args(["--all-agents", "list", "--limit", "all"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let rows = table_rows(&text);
    assert_eq!(rows[0][..3], ["AGENT", "KEY", "SESSION ID"], "{text}");
    let expected = list_json(&store, &["--all-agents", "list", "--limit", "all"]);
    let expected: std::collections::BTreeSet<(String, String, String)> = expected["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["agentId"].as_str().unwrap().to_string(),
                r["sessionKey"].as_str().unwrap().to_string(),
                r["sessionId"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(rows.len() - 1, expected.len(), "{text}");
    let mut seen = std::collections::BTreeSet::new();
    for row in &rows[1..] {
        let (agent, key, prefix) = (&row[0], &row[1], &row[2]);
        assert!(!key.contains('…') && !prefix.contains('…'), "{row:?}");
        assert!(prefix.chars().count() >= 8, "{row:?}");
        for words in [key, prefix] {
            let shown = crate::common::json(
                &store
                    .cmd()
                    .args(["--agent", agent, "show", words, "--json"])
                    .output()
                    .unwrap(),
            );
            assert_eq!(shown["data"]["agentId"], agent.as_str(), "{words}: {shown}");
            let full = shown["data"]["sessionKey"].as_str().unwrap().to_string();
            let id = shown["data"]["entry"]["sessionId"]
                .as_str()
                .unwrap()
                .to_string();
            assert!(id.starts_with(prefix.as_str()), "{row:?}: {id}");
            if words == key {
                seen.insert((agent.clone(), full, id));
            }
        }
    }
    assert_eq!(seen, expected);
}

fn unicode_width(s: &str) -> usize {
    // Box drawing and the ellipsis are one column each; the fixtures hold no wide characters.
    s.chars().count()
}

/// `list --json` with `args`, which must succeed.
fn list_json(store: &Store, args: &[&str]) -> serde_json::Value {
    let out = store.cmd().arg("--json").args(args).output().unwrap();
    expect_exit(&out, 0);
    crate::common::json(&out)
}

fn list_page(store: &Store, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["--all-agents", "list"];
    args.extend_from_slice(extra);
    list_json(store, &args)
}

fn keys_of(doc: &serde_json::Value) -> Vec<String> {
    doc["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["sessionKey"].as_str().unwrap().to_string())
        .collect()
}

/// `list --json` says whether it saw everything, and `--after` walks the pages (ties in
/// `updatedAt` across agents included) to exactly the whole listing.
#[test]
fn list_pages_walk_the_whole_listing() {
    let store = Store::copy("live");
    let all = list_page(&store, &["--limit", "all"]);
    let every = keys_of(&all);
    assert_eq!(all["page"]["total"], every.len());
    assert_eq!(all["page"]["more"], false);
    assert!(all["page"]["next"].is_null());

    let mut walked = Vec::new();
    let mut after: Option<String> = None;
    let mut pages = 0;
    loop {
        let mut extra = vec!["--limit".to_string(), "4".to_string()];
        if let Some(a) = &after {
            extra.extend(["--after".to_string(), a.clone()]);
        }
        let extra: Vec<&str> = extra.iter().map(String::as_str).collect();
        let page = list_page(&store, &extra);
        let keys = keys_of(&page);
        assert_eq!(page["page"]["returned"], keys.len());
        assert_eq!(page["page"]["total"], every.len() - walked.len());
        walked.extend(keys);
        pages += 1;
        match page["page"]["next"].as_str() {
            Some(next) => {
                assert_eq!(page["page"]["more"], true);
                after = Some(next.to_string());
            }
            None => {
                assert_eq!(page["page"]["more"], false);
                break;
            }
        }
    }
    assert_eq!(walked, every);
    assert_eq!(pages, every.len().div_ceil(4));

    // The table says the same on stderr, and its --after page equals the JSON one.
    let first = list_page(&store, &["--limit", "4"]);
    let next = first["page"]["next"].as_str().unwrap();
    let out = store
        .cmd()
        .args(["--all-agents", "list", "--limit", "4"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("showing 4 of {} sessions", every.len()))
            && stderr.contains(&format!("--after {next}")),
        "{stderr}"
    );
    let table = store
        .cmd()
        .args(["--all-agents", "list", "--limit", "4", "--after", next])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&table.stdout);
    for key in &every[4..8] {
        assert!(table.contains(key.as_str()), "{key}\n{table}");
    }
    // Other orders report the counts but give no cursor, and refuse one.
    let by_events = list_page(&store, &["--limit", "2", "--sort", "events"]);
    assert_eq!(by_events["page"]["more"], true);
    assert!(by_events["page"]["next"].is_null());
    store.run_code(
        [
            "--all-agents",
            "--json",
            "list",
            "--sort",
            "events",
            "--after",
            next,
        ],
        2,
    );
    // A cursor that is not one, or names an agent outside the selection.
    for (args, code) in [
        (vec!["--all-agents", "list", "--after", "garbage"], 2),
        (vec!["--agent", "main", "list", "--after", next], 2),
    ] {
        let out = store.cmd().args(&args).output().unwrap();
        if every[3].starts_with("agent:main:") && args[1] == "main" {
            continue;
        }
        assert_eq!(out.status.code(), Some(code), "{args:?}");
    }
}

/// A live owner of the state dir: every mutating command exits 75, readers still work.
#[test]
fn a_live_owner_is_75_for_every_mutating_command() {
    let store = Store::copy("live");
    let mut holder = crate::custody::hold(&store, "20");
    for args in [
        &["patch", "main", "--set", "label=\"x\""][..],
        &["archive", "agent:main:scratch-1", "--yes"],
        &["delete", "agent:main:scratch-1", "--yes"],
        &["prune", "--yes"],
        &["custody", "run", "--", "true"],
    ] {
        check(&store, args, err(75, "OWNER_UNAVAILABLE"));
    }
    check(&store, &["list"], ok(0));
    holder.kill().unwrap();
    holder.wait().unwrap();
}

/// A copy of the live store with a key that holds shell syntax, for the completion tests.
const EVIL_KEY: &str = "agent:main:evil $(touch pwned) `touch pwned2`";

fn store_with_evil_key() -> Store {
    let store = Store::copy("live");
    store
        .writable("main")
        .execute_batch(&format!(
            "CREATE TEMP TABLE t AS SELECT * FROM session_nodes WHERE session_key = 'agent:main:pinned-notes';
             UPDATE t SET session_key = '{}';
             INSERT INTO session_nodes SELECT * FROM t;",
            EVIL_KEY.replace('\'', "''")
        ))
        .unwrap();
    store
}

/// A shell in a tmux terminal of its own server (220x40), started clean with our binary on
/// its PATH and HOME in `home`; the server goes with the value, also when a test panics.
struct Terminal {
    tmux: std::path::PathBuf,
    socket: String,
}

impl Terminal {
    fn start(
        tmux: &std::path::Path,
        name: &str,
        home: &std::path::Path,
        shell: &std::path::Path,
        flags: &str,
    ) -> Terminal {
        let bin_dir = assert_cmd::cargo::cargo_bin("openclaw-sessions")
            .parent()
            .unwrap()
            .to_path_buf();
        let t = Terminal {
            tmux: tmux.to_path_buf(),
            socket: format!("ocs-completion-{name}-{}", std::process::id()),
        };
        let shell_line = format!(
            "env -i PATH={}:/usr/bin:/bin HOME={} TERM=xterm {} {flags}",
            bin_dir.display(),
            home.display(),
            shell.display()
        );
        let started = t.tmux(&[
            "new-session",
            "-d",
            "-x",
            "220",
            "-y",
            "40",
            "-s",
            "t",
            &shell_line,
        ]);
        assert!(started.status.success(), "{started:?}");
        t
    }

    fn tmux(&self, args: &[&str]) -> std::process::Output {
        std::process::Command::new(&self.tmux)
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .unwrap()
    }

    /// Send keys, give the shell time to answer, and read the screen.
    fn screen(&self, keys: &[&str]) -> String {
        self.tmux(&[&["send-keys", "-t", "t"][..], keys].concat());
        std::thread::sleep(std::time::Duration::from_millis(1500));
        String::from_utf8_lossy(&self.tmux(&["capture-pane", "-p", "-t", "t"]).stdout).into_owned()
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        self.tmux(&["kill-server"]);
    }
}

/// Bash completion in a real terminal (tmux): Tab pressed, screen read. A key that holds
/// shell syntax is inserted as one word that runs nothing, `agent:main:` + Tab never doubles
/// the colon, and a bare key completes.
#[test]
fn bash_completion_in_a_terminal_inserts_keys_as_one_word() {
    let Some(tmux) = shell("tmux") else { return };
    let tmux = tmux.as_path();
    let Some(bash) = shell("bash") else { return };
    let store = store_with_evil_key();
    let dir = store.dir.path();
    let term = Terminal::start(tmux, "bash", dir, &bash, "--norc --noprofile");
    let screen = |keys: &[&str]| term.screen(keys);
    screen(&[
        &format!(
            "cd {} && source <(openclaw-sessions completions bash)",
            dir.display()
        ),
        "Enter",
    ]);
    let state = store.state();
    let prefix = format!("openclaw-sessions --state-dir {} show ", state.display());
    let typed = screen(&[&format!("{prefix}agent:main:ev"), "Tab"]);
    let last = typed
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .to_string();
    if !last.contains(r"agent:main:evil\ \$\(touch\ pwned\)\ \`touch\ pwned2\`") {
        panic!("the key was not inserted as one quoted word:\n{typed}");
    }
    screen(&["Enter"]);
    let ran = screen(&["echo \"rc=$?\"", "Enter"]);
    let pwned = dir.join("pwned").exists() || dir.join("pwned2").exists();
    // `agent:main:` + Tab completes from there on, without a second colon.
    screen(&["C-c"]);
    let colon = screen(&[&format!("{prefix}agent:main:pinn"), "Tab"]);
    screen(&["C-c"]);
    let bare = screen(&[&format!("{prefix}pinn"), "Tab"]);
    // Two keys share `agent:main:telegram:`: Tab inserts that, a second Tab adds nothing
    // (was: `agent:main:telegram::`, the colon bash had split off doubled).
    screen(&["C-c"]);
    let shared = screen(&[&format!("{prefix}agent:main:tel"), "Tab", "Tab"]);
    // A whole word gets its space (was: `statusX`).
    screen(&["C-c"]);
    let spaced = screen(&["openclaw-sessions sta", "Tab", "X"]);
    // Inside an opened quote the key completes and the quote is closed (was: nothing), and
    // what the quote protects is not escaped again; Enter shows that session.
    screen(&["C-c"]);
    let quoted = screen(&[&format!("{prefix}'agent:main:ev"), "Tab"]);
    screen(&["Enter"]);
    let quoted_ran = screen(&["echo \"rc=$?\"", "Enter"]);
    let quoted_pwned = dir.join("pwned").exists() || dir.join("pwned2").exists();
    drop(term);
    assert!(!pwned, "a completed key ran a command:\n{ran}");
    assert!(
        ran.contains("rc=0"),
        "show of the completed key failed:\n{ran}"
    );
    let line = |s: &str| {
        s.lines()
            .rev()
            .find(|l| l.contains("show "))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        line(&colon).contains("show agent:main:pinned-notes"),
        "{colon}"
    );
    assert!(!line(&colon).contains("agent:main::"), "{colon}");
    assert!(line(&bare).contains("show pinned-notes"), "{bare}");
    assert!(
        line(&shared)
            .trim_end()
            .ends_with("show agent:main:telegram:"),
        "{shared}"
    );
    assert!(
        spaced
            .lines()
            .any(|l| l.trim_end().ends_with("openclaw-sessions status X")),
        "{spaced}"
    );
    assert!(
        line(&quoted)
            .trim_end()
            .ends_with("show 'agent:main:evil $(touch pwned) `touch pwned2`'"),
        "{quoted}"
    );
    assert!(
        !quoted_pwned,
        "a completed key ran a command:\n{quoted_ran}"
    );
    assert!(quoted_ran.contains("rc=0"), "{quoted_ran}");
}

/// zsh and fish completion in a real terminal (tmux), as bash's above: the key that holds
/// shell syntax is inserted as one word that runs nothing (Enter then shows that session),
/// `agent:main:` + Tab completes the rest, and a bare key completes.
#[test]
fn zsh_and_fish_completion_in_a_terminal_insert_keys_as_one_word() {
    let Some(tmux) = shell("tmux") else { return };
    let tmux = tmux.as_path();
    let store = store_with_evil_key();
    let dir = store.dir.path();
    let cases: [(&str, &str, &str, &str); 2] = [
        (
            "zsh",
            "-f",
            "autoload -U compinit && compinit -u -D && source <(openclaw-sessions completions zsh)",
            "echo rc=$?",
        ),
        (
            "fish",
            "--no-config",
            "openclaw-sessions completions fish | source",
            "echo rc=$status",
        ),
    ];
    for (name, flag, setup, rc) in cases {
        let Some(sh) = shell(name) else { continue };
        let term = Terminal::start(tmux, name, dir, &sh, flag);
        let screen = |keys: &[&str]| term.screen(keys);
        screen(&[&format!("cd {}; {setup}", dir.display()), "Enter"]);
        screen(&["clear", "Enter"]);
        let prefix = format!(
            "openclaw-sessions --state-dir {} show ",
            store.state().display()
        );
        let typed = screen(&[&format!("{prefix}agent:main:ev"), "Tab"]);
        screen(&["Enter"]);
        let ran = screen(&[rc, "Enter"]);
        let pwned = dir.join("pwned").exists() || dir.join("pwned2").exists();
        screen(&["clear", "Enter"]);
        let colon = screen(&[&format!("{prefix}agent:main:pinn"), "Tab"]);
        screen(&["C-u"]);
        screen(&["clear", "Enter"]);
        let bare = screen(&[&format!("{prefix}pinn"), "Tab"]);
        drop(term);
        assert!(!pwned, "{name}: a completed key ran a command:\n{typed}");
        assert!(typed.contains("agent:main:evil"), "{name}: {typed}");
        assert!(
            ran.contains("rc=0"),
            "{name}: show of the completed key failed:\n{ran}"
        );
        assert!(
            colon.contains("show agent:main:pinned-notes"),
            "{name}: {colon}"
        );
        assert!(!colon.contains("agent:main::"), "{name}: {colon}");
        assert!(bare.contains("show pinned-notes"), "{name}: {bare}");
    }
}

/// Tables for scripts: `--no-headers`, `-o tsv` (cells whole, one line a row), `-o jsonl` (an
/// object a row), `-o json` (the command's document); an empty result says so in words
/// instead of a heading alone; at 80 columns `list` keeps KEY, SESSION ID and UPDATED and
/// draws no border.
#[test]
fn tables_for_scripts_and_an_empty_result_in_words() {
    let store = Store::copy("live");
    let tsv = store.run_ok(["--all-agents", "list", "--limit", "all", "-o", "tsv"]);
    let tsv = String::from_utf8(tsv.stdout).unwrap();
    let lines: Vec<&str> = tsv.lines().collect();
    assert_eq!(lines.len(), 1 + 47, "{tsv}");
    assert!(
        lines[0].starts_with("AGENT\tKEY\tSESSION ID\tUPDATED"),
        "{tsv}"
    );
    assert!(lines.iter().all(|l| l.split('\t').count() == 11), "{tsv}");
    let bare = store.run_ok([
        "--all-agents",
        "--no-headers",
        "list",
        "--limit",
        "all",
        "-o",
        "tsv",
    ]);
    assert_eq!(String::from_utf8(bare.stdout).unwrap().lines().count(), 47);
    let plain = store.run_ok(["--no-headers", "list", "--limit", "3"]);
    assert!(!String::from_utf8(plain.stdout)
        .unwrap()
        .contains("SESSION ID"));
    let jsonl = store.run_ok(["list", "--limit", "3", "-o", "jsonl"]);
    let rows: Vec<serde_json::Value> = String::from_utf8(jsonl.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    assert!(
        rows[0]["key"].as_str().unwrap().starts_with("agent:main:"),
        "{rows:?}"
    );
    let doc = crate::common::json(&store.run_ok(["list", "--limit", "3", "-o", "json"]));
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["data"].as_array().unwrap().len(), 3);
    for args in [
        &["du", "-o", "tsv"][..],
        &["backup", "list", "-o", "tsv"],
        &["archives", "list", "-o", "jsonl"],
    ] {
        let out = store.cmd().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}: {out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.contains("  "), "{args:?}: not aligned text: {text}");
    }
    // Empty: words on stderr, nothing on stdout.
    let empty = store
        .cmd()
        .env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", "80")
        .args(["list", "--match", "no-such-text"])
        .output()
        .unwrap();
    assert!(empty.stdout.is_empty(), "{empty:?}");
    assert!(String::from_utf8_lossy(&empty.stderr).contains("no sessions match"));
    // 80 columns: no border, UPDATED kept, nothing wraps.
    let at80 = store
        .cmd()
        .env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", "80")
        .args(["--all-agents", "list", "--limit", "all"])
        .output()
        .unwrap();
    let text = String::from_utf8(at80.stdout).unwrap();
    assert!(text.lines().next().unwrap().contains("UPDATED"), "{text}");
    assert!(!text.contains('│') && !text.contains('┌'), "{text}");
    for line in text
        .lines()
        .chain(String::from_utf8_lossy(&at80.stderr).lines())
    {
        assert!(line.chars().count() <= 80, "{line}");
    }
}
