//! Every command that writes: what it creates is private (files 0600, directories 0700)
//! even under `umask 0`; and no transcript content reaches an error or a warning.

use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::common::{json, Store};

fn tree(root: &Path) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                stack.push(p.clone());
            }
            out.insert(p);
        }
    }
    out
}

fn inode(p: &Path) -> u64 {
    use std::os::unix::fs::MetadataExt;
    std::fs::symlink_metadata(p).unwrap().ino()
}

/// Run the binary under `umask 0` (so that a missing explicit mode would show as 0666/0777)
/// on `store`, and return what it created. A file moved or linked into a new place keeps
/// its own mode, as OpenClaw's rename does: it is not counted.
fn created_by(store: &Store, args: &[&str]) -> Vec<(PathBuf, u32)> {
    let before = tree(store.dir.path());
    let old_inodes: BTreeSet<u64> = before.iter().map(|p| inode(p)).collect();
    let out = std::process::Command::new("sh")
        .args(["-c", "umask 0; exec \"$0\" \"$@\""])
        .arg(assert_cmd::cargo::cargo_bin("openclaw-sessions"))
        .arg("--state-dir")
        .arg(store.state())
        .args(args)
        .env("HOME", store.dir.path())
        .env_remove("OPENCLAW_STATE_DIR")
        .env_remove("OPENCLAW_HOME")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    tree(store.dir.path())
        .difference(&before)
        .filter(|p| !old_inodes.contains(&inode(p)))
        .map(|p| {
            let mode = std::fs::symlink_metadata(p).unwrap().permissions().mode() & 0o777;
            (p.clone(), mode)
        })
        .collect()
}

fn assert_private(what: &str, created: &[(PathBuf, u32)], expect_some: bool) {
    assert!(
        !expect_some || !created.is_empty(),
        "{what} created nothing"
    );
    for (path, mode) in created {
        let want = if path.is_dir() { 0o700 } else { 0o600 };
        assert_eq!(*mode, want, "{what}: {} is {mode:o}", path.display());
    }
}

#[test]
fn everything_a_command_creates_is_private() {
    let out = |store: &Store, name: &str| store.dir.path().join(name).display().to_string();
    let live_commands: Vec<(&str, Vec<String>)> = vec![
        (
            "patch",
            vec![
                "patch".into(),
                "agent:main:main".into(),
                "--set".into(),
                "label=\"x\"".into(),
            ],
        ),
        (
            "archive",
            vec!["archive".into(), "agent:main:scratch-2".into()],
        ),
        (
            "delete",
            vec![
                "delete".into(),
                "agent:main:scratch-2".into(),
                "--yes".into(),
            ],
        ),
        (
            "prune",
            vec![
                "prune".into(),
                "--agent".into(),
                "main".into(),
                "--yes".into(),
            ],
        ),
        (
            "custody run",
            vec!["custody".into(), "run".into(), "--".into(), "true".into()],
        ),
    ];
    for (what, args) in &live_commands {
        let store = Store::copy("live");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_private(what, &created_by(&store, &args), false);
    }

    // Snapshots, restores and exports land outside the state dir: still private.
    let store = Store::copy("live");
    let repo = out(&store, "repo");
    let created = created_by(&store, &["backup", "create", "--repository", &repo]);
    assert_private("backup create", &created, true);
    let snapshot = created
        .iter()
        .find(|(p, _)| p.ends_with("manifest.json"))
        .map(|(p, _)| p.parent().unwrap().display().to_string())
        .unwrap();
    let target = out(&store, "restored.sqlite");
    assert_private(
        "backup restore",
        &created_by(
            &store,
            &["backup", "restore", &snapshot, "--target", &target],
        ),
        true,
    );
    let export = out(&store, "export.jsonl");
    assert_private(
        "transcript export",
        &created_by(
            &store,
            &[
                "transcript",
                "export",
                "agent:main:main",
                "--format",
                "jsonl",
                "--output",
                &export,
            ],
        ),
        true,
    );
    assert_private(
        "doctor --fix",
        &created_by(&store, &["doctor", "--fix", "--yes"]),
        false,
    );

    // The import creates databases, the archive directory and its manifest.
    let store = Store::copy("legacy");
    assert_private(
        "migrate legacy",
        &created_by(&store, &["migrate", "legacy", "--all-agents", "--yes"]),
        true,
    );
}

const CANARY: &str = "sk-canary-7f3e9a1c";

/// Every message a person or a program reads about a failure: stderr, and the `error` and
/// `warnings` of a JSON document (its `data` is the user's own content, asked for).
fn messages(out: &std::process::Output) -> String {
    let mut text = String::from_utf8_lossy(&out.stderr).to_string();
    if let Ok(doc) = serde_json::from_slice::<serde_json::Value>(&out.stdout) {
        text.push_str(&doc["error"].to_string());
        text.push_str(&doc["warnings"].to_string());
    }
    text
}

#[test]
fn transcript_content_never_reaches_an_error_or_a_warning() {
    let store = Store::copy("live");
    {
        let db = store.writable("main");
        // A broken event row and a broken entry, both carrying the secret.
        db.execute(
            &format!("UPDATE transcript_events SET event_json = '{{\"type\":\"message\",\"text\":\"{CANARY}' WHERE seq = (SELECT max(seq) FROM transcript_events WHERE session_id = (SELECT current_session_id FROM session_nodes WHERE session_key = 'agent:main:main')) AND session_id = (SELECT current_session_id FROM session_nodes WHERE session_key = 'agent:main:main')"),
            [],
        )
        .unwrap();
        db.execute(
            &format!("UPDATE session_nodes SET entry_json = '{{\"sessionId\":\"{CANARY}' WHERE session_key = 'agent:main:scratch-2'"),
            [],
        )
        .unwrap();
    }
    let repo = store.dir.path().join("repo").display().to_string();
    let runs: Vec<Vec<&str>> = vec![
        vec!["status"],
        vec!["list", "--all-agents"],
        vec!["list", "--all-agents", "--json", "--limit", "all"],
        vec!["show", "agent:main:main"],
        vec!["transcript", "cat", "agent:main:main"],
        vec!["transcript", "cat", "agent:main:main", "--json"],
        vec!["transcript", "catalog", "agent:main:main"],
        vec![
            "transcript",
            "export",
            "agent:main:main",
            "--format",
            "markdown",
        ],
        vec!["doctor"],
        vec!["doctor", "--json"],
        vec!["patch", "agent:main:scratch-2", "--set", "label=\"x\""],
        vec!["delete", "agent:main:scratch-2", "--dry-run", "--json"],
        vec!["prune", "--all-agents", "--dry-run"],
        vec!["backup", "create", "--repository", &repo],
        vec!["du"],
    ];
    let mut failures = Vec::new();
    for args in &runs {
        let out = store.cmd().args(args).output().unwrap();
        if !out.status.success() {
            failures.push(args.join(" "));
        }
        let text = messages(&out);
        assert!(!text.contains(CANARY), "{args:?} leaked it: {text}");
    }
    eprintln!("failed, as they should: {failures:?}");
    assert!(
        failures.len() >= 2,
        "the broken rows are noticed: {failures:?}"
    );

    // A legacy transcript line that does not parse, carrying the secret.
    let store = Store::copy("legacy");
    let sessions = store.state().join("agents/main/sessions");
    let transcript = std::fs::read_dir(&sessions)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .unwrap();
    let mut text = std::fs::read_to_string(&transcript).unwrap();
    text.push_str(&format!(
        "{{\"type\":\"message\",\"message\":{{\"content\":\"{CANARY}\"\n"
    ));
    std::fs::write(&transcript, text).unwrap();
    for args in [
        vec!["migrate", "legacy", "--all-agents", "--dry-run"],
        vec!["migrate", "legacy", "--all-agents", "--dry-run", "--json"],
        vec!["doctor"],
        vec!["migrate", "legacy", "--all-agents", "--yes", "--json"],
    ] {
        let out = store.cmd().args(&args).output().unwrap();
        let text = messages(&out);
        assert!(!text.contains(CANARY), "{args:?} leaked it: {text}");
        if args.contains(&"--json") {
            assert!(json(&out)["warnings"].is_array() || json(&out)["error"].is_object());
        }
    }
}

/// The commands the first test leaves out: `undelete`, both restores, `reclaim`,
/// `migrate acpx` and `migrate schema` create only private files and directories too.
#[test]
fn what_undelete_restores_reclaim_and_migrations_create_is_private() {
    use crate::undelete::{deleted, the_snapshot, KEY};
    let (store, _, _) = deleted();
    assert_private(
        "undelete",
        &created_by(&store, &["undelete", KEY, "--yes"]),
        false,
    );
    let (store, _, _) = deleted();
    let snapshot = the_snapshot(&store).display().to_string();
    assert_private(
        "backup restore --session",
        &created_by(
            &store,
            &["backup", "restore", &snapshot, "--session", KEY, "--yes"],
        ),
        false,
    );
    let (store, _, _) = deleted();
    let snapshot = the_snapshot(&store).display().to_string();
    assert_private(
        "backup restore --in-place",
        &created_by(
            &store,
            &["backup", "restore", "--in-place", "--yes", &snapshot],
        ),
        true,
    );
    let store = Store::copy("live");
    assert_private("reclaim", &created_by(&store, &["reclaim"]), false);
    let store = Store::copy("live");
    crate::migrate_acpx::plant_old_state(&store);
    assert_private(
        "migrate acpx",
        &created_by(&store, &["migrate", "acpx", "--yes"]),
        true,
    );
    let store = Store::copy_release("2026.8.2", "live");
    assert_private(
        "migrate schema",
        &created_by(&store, &["migrate", "schema", "--all-agents", "--yes"]),
        true,
    );
}

/// README: "a release build has no hooks". The hooks are compiled only with the `test-hooks`
/// feature, which only the test build's dev-dependency turns on: every hook variable
/// (`OPENCLAW_SESSIONS_*` but custody's hand-over to a child, `OPENCLAW_SESSIONS_CUSTODY`) is
/// named in `src/` only inside `src/test_hooks.rs`'s `#[cfg(feature = "test-hooks")]` module;
/// the module a build without the feature compiles reads no environment; and the feature is
/// not a default one. (A proof from the source that costs no second build: the release binary
/// CI's reference suite may build is built with the hooks on purpose, for its fixed clock.)
#[test]
fn a_release_build_has_no_hooks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let hooks_rs = std::fs::read_to_string(root.join("src/test_hooks.rs")).unwrap();
    let enabled_at = hooks_rs
        .find("#[cfg(feature = \"test-hooks\")]\nmod enabled {")
        .expect("the hooks' module is behind the feature");
    let disabled_at = hooks_rs
        .find("#[cfg(not(feature = \"test-hooks\"))]\nmod enabled {")
        .expect("the module a build without the feature compiles");
    assert!(enabled_at < disabled_at);
    let disabled = &hooks_rs[disabled_at..];
    let disabled = &disabled[..disabled.find("\npub use ").unwrap()];
    assert!(
        !disabled.contains("env::") && !disabled.contains("OPENCLAW_SESSIONS_"),
        "a build without the feature reads the environment:\n{disabled}"
    );
    // Every use of a hook variable in code (not in a doc comment).
    let mut names = BTreeSet::new();
    let mut files = vec![root.join("src")];
    while let Some(p) = files.pop() {
        if p.is_dir() {
            files.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if p.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let mut offset = 0;
        for line in text.split_inclusive('\n') {
            let code = line.trim_start();
            if !code.starts_with("//") {
                for (at, _) in line.match_indices("OPENCLAW_SESSIONS_") {
                    let name: String = line[at..]
                        .chars()
                        .take_while(|c| c.is_ascii_uppercase() || *c == '_')
                        .collect();
                    if name == "OPENCLAW_SESSIONS_CUSTODY" {
                        continue;
                    }
                    let at = offset + at;
                    assert!(
                        p.ends_with("src/test_hooks.rs") && at > enabled_at && at < disabled_at,
                        "{name} is read outside the hooks' feature-gated module: {}",
                        p.display()
                    );
                    names.insert(name);
                }
            }
            offset += line.len();
        }
    }
    assert!(names.len() >= 10, "only {names:?}");
    let cargo = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let default = cargo
        .lines()
        .find(|l| l.trim_start().starts_with("default ="))
        .unwrap_or("");
    assert!(!default.contains("test-hooks"), "{default}");
    assert!(
        cargo.contains("features = [\"test-hooks\"]"),
        "the test build's dev-dependency turns the hooks on"
    );
}
