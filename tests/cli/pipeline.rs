//! The one pipeline every destructive command runs through, seen from outside: with custody
//! held by another process nothing is planned or written; a declined question (typed on a
//! pseudo-terminal) changes nothing and exits 0; the plan shown before the question is what
//! `--dry-run` prints.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use crate::common::{checksums, json, Store};
use crate::custody::hold;

/// One destructive command with a store where it has work to do.
struct Case {
    name: &'static str,
    store: Store,
    args: Vec<String>,
    /// Whether it asks before applying (patch, archive and unarchive change one row and do not).
    asks: bool,
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn live(name: &'static str, args: &[&str], asks: bool) -> Case {
    Case {
        name,
        store: Store::copy("live"),
        args: strings(args),
        asks,
    }
}

fn cases() -> Vec<Case> {
    let mut out = vec![
        live(
            "patch",
            &[
                "patch",
                "agent:main:pinned-notes",
                "--set",
                "label=\"Renamed\"",
            ],
            false,
        ),
        live("archive", &["archive", "agent:main:pinned-notes"], false),
        live("unarchive", &["unarchive", "agent:main:scratch-2"], false),
        live(
            "delete",
            &["delete", "agent:main:pinned-notes", "agent:main:no-such"],
            true,
        ),
        live(
            "prune",
            &["prune", "--agent", "main", "--older-than", "1d"],
            true,
        ),
    ];
    // doctor --fix: a projected column out of step with its entry.
    let doctor = live("doctor --fix", &["doctor", "--fix"], true);
    doctor
        .store
        .writable("main")
        .execute(
            "UPDATE session_nodes SET label = 'drift' WHERE session_key = 'agent:main:pinned-notes'",
            [],
        )
        .unwrap();
    out.push(doctor);
    // restore --in-place: a snapshot of the main database, then a change to undo.
    let restore_store = Store::copy("live");
    let repo = restore_store.dir.path().join("repo");
    restore_store.run_ok(["backup", "create", "--repository", repo.to_str().unwrap()]);
    let snap = std::fs::read_dir(&repo)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.join("manifest.json").is_file())
        .unwrap();
    restore_store.run_ok(["archive", "agent:main:pinned-notes"]);
    out.push(Case {
        name: "backup restore --in-place",
        args: strings(&["backup", "restore", snap.to_str().unwrap(), "--in-place"]),
        store: restore_store,
        asks: true,
    });
    out.push(Case {
        name: "migrate legacy",
        store: Store::copy("legacy"),
        args: strings(&["migrate", "legacy", "--all-agents"]),
        asks: true,
    });
    out.push(Case {
        name: "migrate schema",
        store: Store::copy_release("2026.8.2", "live"),
        args: strings(&["migrate", "schema", "--all-agents"]),
        asks: true,
    });
    let acpx = live("migrate acpx", &["migrate", "acpx"], true);
    crate::migrate_acpx::plant_old_state(&acpx.store);
    out.push(acpx);
    // reclaim: free pages to give back; it removes nothing and does not ask.
    let reclaim = live("reclaim", &["reclaim", "--agent", "main"], false);
    {
        let db = reclaim.store.writable("main");
        db.execute_batch(
            "CREATE TABLE filler(b BLOB); INSERT INTO filler SELECT randomblob(8192) FROM \
             (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 64) \
             SELECT i FROM n); DROP TABLE filler; PRAGMA wal_checkpoint(TRUNCATE);",
        )
        .unwrap();
    }
    out.push(reclaim);
    // bundle import: a session exported, deleted, brought back from its bundle.
    let bundle_store = Store::copy("live");
    let bundle = bundle_store.dir.path().join("notes.bundle");
    bundle_store.run_ok([
        "bundle",
        "export",
        bundle.to_str().unwrap(),
        "agent:main:pinned-notes",
    ]);
    bundle_store.run_ok(["delete", "agent:main:pinned-notes", "--yes"]);
    out.push(Case {
        name: "bundle import",
        args: strings(&["bundle", "import", bundle.to_str().unwrap()]),
        store: bundle_store,
        asks: true,
    });
    // compact: inline images above the threshold taken out of two sessions.
    out.push(Case {
        name: "compact",
        args: strings(&["compact", "--min-bytes", "100kb"]),
        store: crate::compact::seeded().store,
        asks: true,
    });
    // secrets scrub: seeded secrets in rows, archives and a snapshot.
    let (scrub_store, values) = crate::secrets::seeded();
    let mut scrub_args = crate::secrets::scrub_all(&values);
    scrub_args.retain(|a| a != "--yes");
    out.push(Case {
        name: "secrets scrub",
        args: scrub_args,
        store: scrub_store,
        asks: true,
    });
    // undelete: a session deleted (by our delete), brought back by its key.
    let undelete = live("undelete", &["undelete", "agent:main:pinned-notes"], true);
    undelete
        .store
        .run_ok(["delete", "agent:main:pinned-notes", "--yes"]);
    out.push(undelete);
    // restore --session: a snapshot, then the session deleted.
    let store = Store::copy("live");
    let repo = store.dir.path().join("repo");
    store.run_ok(["backup", "create", "--repository", repo.to_str().unwrap()]);
    let snap = std::fs::read_dir(&repo)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            std::fs::read_to_string(p.join("manifest.json"))
                .is_ok_and(|m| m.contains("\"agentId\": \"main\""))
        })
        .unwrap();
    store.run_ok(["delete", "agent:main:pinned-notes", "--yes"]);
    out.push(Case {
        name: "backup restore --session",
        args: strings(&[
            "backup",
            "restore",
            snap.to_str().unwrap(),
            "--session",
            "agent:main:pinned-notes",
        ]),
        store,
        asks: true,
    });
    // backup prune: two snapshots of main, the older one removed.
    let store = Store::copy("live");
    for _ in 0..2 {
        store.run_ok(["backup", "create"]);
    }
    out.push(Case {
        name: "backup prune",
        args: strings(&["backup", "prune", "--keep", "1"]),
        store,
        asks: true,
    });
    out
}

/// README.md's table of which commands ask is the one these cases follow, row by row.
#[test]
fn the_readmes_table_of_which_commands_ask_is_true() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find("| command | asks first (else `--yes`) |")
        .expect("the README's table of which commands ask");
    let cases = cases();
    let mut named = 0;
    for row in readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
    {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let asks = cells[2].starts_with("yes");
        for command in cells[1].split('`').skip(1).step_by(2) {
            let case = cases
                .iter()
                .find(|c| c.name == command)
                .unwrap_or_else(|| panic!("no case for {command:?}"));
            assert_eq!(case.asks, asks, "{command}");
            named += 1;
        }
    }
    assert_eq!(named, cases.len(), "every case is in the README's table");
}

/// A command that does not ask applies from a pipe without --yes.
#[test]
fn commands_that_do_not_ask_apply_without_yes() {
    for case in cases().into_iter().filter(|c| !c.asks) {
        let before = contents(&case.store);
        let out = case.store.cmd().args(&case.args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}: {out:?}", case.name);
        assert!(
            contents(&case.store) != before,
            "{}: nothing applied",
            case.name
        );
    }
}

/// Every file of the test's directory (store, snapshots) but custody's own lock files.
fn contents(store: &Store) -> BTreeMap<PathBuf, String> {
    checksums(store.dir.path())
        .into_iter()
        .filter(|(p, _)| !p.starts_with(crate::content::custody_dir(store)))
        .collect()
}

#[test]
fn with_custody_held_elsewhere_nothing_is_planned_or_written() {
    for case in cases() {
        let mut holder = hold(&case.store, "60");
        let before = contents(&case.store);
        let out = case
            .store
            .cmd()
            .args(&case.args)
            .args(["--yes", "--json"])
            .output()
            .unwrap();
        let doc = json(&out);
        assert_eq!(out.status.code(), Some(75), "{}: {doc}", case.name);
        assert_eq!(
            doc["error"]["code"], "OWNER_UNAVAILABLE",
            "{}: {doc}",
            case.name
        );
        // Refused before planning: no plan, no result, and the same on a terminal-less run.
        assert!(doc.get("data").is_none(), "{}: {doc}", case.name);
        let human = case
            .store
            .cmd()
            .args(&case.args)
            .arg("--yes")
            .output()
            .unwrap();
        assert_eq!(human.status.code(), Some(75), "{}", case.name);
        assert!(human.stdout.is_empty(), "{}: planned anyway", case.name);
        // On a terminal too: refused before a plan could be shown or a question asked.
        if case.asks {
            let (code, screen) = on_terminal(&case.store, &case.args, "y\n");
            assert_eq!(code, Some(75), "{}: {screen}", case.name);
            assert!(
                !screen.contains("Apply this plan?"),
                "{}: {screen}",
                case.name
            );
        }
        assert!(
            contents(&case.store) == before,
            "{}: the store changed",
            case.name
        );
        // A dry run takes no custody: it plans while the owner works.
        let dry = case
            .store
            .cmd()
            .args(&case.args)
            .arg("--dry-run")
            .output()
            .unwrap();
        assert!(
            dry.status.code() == Some(0) || dry.status.code() == Some(3),
            "{}: dry run {:?}: {}",
            case.name,
            dry.status.code(),
            String::from_utf8_lossy(&dry.stderr)
        );
        assert!(
            contents(&case.store) == before,
            "{}: the dry run wrote",
            case.name
        );
        holder.kill().unwrap();
        holder.wait().unwrap();
    }
}

/// Runs `args` on a pseudo-terminal (util-linux `script`), typing `keys`; returns the exit
/// code and everything the terminal showed, with line ends as `\n`.
fn on_terminal(store: &Store, args: &[String], keys: &str) -> (Option<i32>, String) {
    on_terminal_then(store, args, keys, "")
}

/// [`on_terminal`], the shell then running `after` on the same terminal (`$rc` holds the
/// command's exit code).
fn on_terminal_then(
    store: &Store,
    args: &[String],
    keys: &str,
    after: &str,
) -> (Option<i32>, String) {
    let bin = assert_cmd::cargo::cargo_bin("openclaw-sessions");
    let mut line = format!(
        "{} --state-dir {}",
        shell_quote(&bin),
        shell_quote(&store.state())
    );
    for a in args {
        line.push(' ');
        line.push_str(&shell_quote(Path::new(a)));
    }
    if !after.is_empty() {
        line.push_str("; rc=$?; ");
        line.push_str(after);
    }
    let mut child = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env("HOME", store.dir.path())
        .env("NO_COLOR", "1")
        .env_remove("OPENCLAW_STATE_DIR")
        .env_remove("OPENCLAW_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("util-linux `script` runs a command on a pseudo-terminal");
    {
        use std::io::Write;
        // Typed once the question is up: the plan comes first, and may take a moment.
        std::thread::sleep(Duration::from_millis(300));
        let mut stdin = child.stdin.take().unwrap();
        // A command that ended without asking has closed the terminal already.
        let _ = stdin.write_all(keys.as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"),
    )
}

fn shell_quote(p: &Path) -> String {
    format!("'{}'", p.to_string_lossy().replace('\'', "'\\''"))
}

/// The lines shown before the question: after the echoed key, up to the question.
fn shown_plan(screen: &str) -> &str {
    let start = screen.find(char::is_uppercase).unwrap_or(0);
    let end = screen.find("Apply this plan?").unwrap_or(screen.len());
    &screen[start..end]
}

#[test]
fn a_declined_question_changes_nothing_and_shows_the_dry_run_plan() {
    for case in cases().into_iter().filter(|c| c.asks) {
        let dry = case
            .store
            .cmd()
            .args(&case.args)
            .arg("--dry-run")
            .output()
            .unwrap();
        let dry_plan = String::from_utf8_lossy(&dry.stdout).to_string();
        let before = contents(&case.store);
        let (code, screen) = on_terminal(&case.store, &case.args, "n\n");
        assert_eq!(code, Some(0), "{}: {screen}", case.name);
        assert!(
            screen.contains("Cancelled: nothing was changed."),
            "{}: {screen}",
            case.name
        );
        assert!(
            contents(&case.store) == before,
            "{}: the store changed",
            case.name
        );
        let shown = shown_plan(&screen);
        assert!(
            shown.lines().count() >= 2,
            "{}: no plan shown: {screen}",
            case.name
        );
        // The same lines as the dry run (doctor's dry run prints its findings after them).
        assert!(
            dry_plan.starts_with(shown),
            "{}: the prompt showed\n{shown}\nthe dry run printed\n{dry_plan}",
            case.name
        );
        // Answering yes applies that plan.
        let (code, screen) = on_terminal(&case.store, &case.args, "y\n");
        assert!(
            code == Some(0) || code == Some(3),
            "{}: {code:?} {screen}",
            case.name
        );
        assert!(
            contents(&case.store) != before,
            "{}: nothing applied: {screen}",
            case.name
        );
    }
}

/// README: `--json` never asks, even on a terminal: without `--yes` every command that asks
/// exits 2 `CONFIRMATION_REQUIRED` with its JSON document, shows no question, reads no answer
/// (the "n" typed is never taken) and changes nothing.
#[test]
fn json_on_a_terminal_never_asks() {
    let mut asked = 0;
    for case in cases().into_iter().filter(|c| c.asks) {
        let before = contents(&case.store);
        let mut args = case.args.clone();
        args.push("--json".into());
        let (code, screen) = on_terminal(&case.store, &args, "n\n");
        assert_eq!(code, Some(2), "{}: {screen}", case.name);
        assert!(
            screen.contains("CONFIRMATION_REQUIRED"),
            "{}: {screen}",
            case.name
        );
        assert!(
            !screen.contains("Apply this plan?"),
            "{}: {screen}",
            case.name
        );
        assert!(!screen.contains("Cancelled"), "{}: {screen}", case.name);
        assert!(
            contents(&case.store) == before,
            "{}: the store changed",
            case.name
        );
        asked += 1;
    }
    assert!(asked >= 5, "only {asked} commands that ask");
}

#[test]
fn without_a_terminal_or_yes_nothing_changes_and_the_exit_is_2() {
    for case in cases().into_iter().filter(|c| c.asks) {
        let before = contents(&case.store);
        let out = case
            .store
            .cmd()
            .args(&case.args)
            .arg("--json")
            .output()
            .unwrap();
        let doc = json(&out);
        assert_eq!(out.status.code(), Some(2), "{}: {doc}", case.name);
        assert_eq!(
            doc["error"]["code"], "CONFIRMATION_REQUIRED",
            "{}: {doc}",
            case.name
        );
        assert!(
            contents(&case.store) == before,
            "{}: the store changed",
            case.name
        );
    }
}

#[test]
fn a_snapshot_that_does_not_verify_stops_the_run_before_any_change() {
    // Every case takes one: required ones always, the others with --backup-dir; but not the
    // import of a legacy-only store, which creates its databases (nothing to keep), nor
    // backup prune, which changes no database (it removes older snapshots only).
    for case in cases()
        .into_iter()
        .filter(|c| c.name != "migrate legacy" && c.name != "backup prune")
    {
        let repo = case.store.dir.path().join("safety");
        let before = contents(&case.store);
        let out = case
            .store
            .cmd()
            .args(&case.args)
            .args(["--yes", "--json", "--backup-dir"])
            .arg(&repo)
            .env("OPENCLAW_SESSIONS_SPOIL_SNAPSHOTS", "1")
            .output()
            .unwrap();
        let doc = json(&out);
        assert_eq!(out.status.code(), Some(1), "{}: {doc}", case.name);
        assert_eq!(
            doc["error"]["code"], "SNAPSHOT_UNVERIFIED",
            "{}: {doc}",
            case.name
        );
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("nothing was changed"),
            "{}: {doc}",
            case.name
        );
        // The store is as it was; only the (spoiled) snapshot was written, beside it.
        let after: BTreeMap<PathBuf, String> = contents(&case.store)
            .into_iter()
            .filter(|(p, _)| !p.starts_with(&repo))
            .collect();
        assert!(after == before, "{}: the store changed", case.name);
    }
}

/// The question reads a whole line (README.md, Confirmation): `yes` + Enter applies and leaves
/// nothing for the shell to run; any case; anything else asks again; an empty line or the end
/// of input is no.
#[test]
fn the_question_reads_a_whole_line() {
    let args = strings(&["delete", "agent:main:pinned-notes"]);
    let probe = "IFS= read -r rest; echo \"rc=$rc left=[$rest]\"";
    // `yes` applies, and the shell reads nothing the question left.
    let store = Store::copy("live");
    let before = contents(&store);
    let (_, screen) = on_terminal_then(&store, &args, "yes\n", probe);
    assert!(screen.contains("rc=0 left=[]"), "{screen}");
    assert!(contents(&store) != before, "not applied: {screen}");
    // Not an answer: asked again; then YES applies.
    let store = Store::copy("live");
    let before = contents(&store);
    let (code, screen) = on_terminal(&store, &args, "maybe\nYES\n");
    assert_eq!(code, Some(0), "{screen}");
    assert_eq!(screen.matches("Apply this plan?").count(), 2, "{screen}");
    assert!(screen.contains("Please answer yes or no."), "{screen}");
    assert!(contents(&store) != before, "not applied: {screen}");
    // An empty line, `No`, and the end of input decline: nothing changes, exit 0.
    for keys in ["\n", "No\n", ""] {
        let store = Store::copy("live");
        let before = contents(&store);
        let (code, screen) = on_terminal(&store, &args, keys);
        assert_eq!(code, Some(0), "{keys:?}: {screen}");
        assert!(
            screen.contains("Cancelled: nothing was changed."),
            "{keys:?}: {screen}"
        );
        assert!(contents(&store) == before, "{keys:?}: the store changed");
    }
}

/// README: "A closed pipe (`openclaw-sessions list | head`) ends quietly with 0", through a
/// real shell pipeline on a list longer than `head` reads (the store's list repeated by
/// `--all-agents` and `-v` rows), with `pipefail` so the list's own exit is the pipeline's.
#[test]
fn list_piped_into_head_exits_0() {
    let store = crate::faults::many_sessions();
    let bin = assert_cmd::cargo::cargo_bin("openclaw-sessions");
    let line = format!(
        "set -o pipefail; {} --state-dir {} list --all-agents --limit all | head -n 1",
        shell_quote(&bin),
        shell_quote(&store.state())
    );
    let out = std::process::Command::new("bash")
        .args(["-c", &line])
        .env("HOME", store.dir.path())
        .env("NO_COLOR", "1")
        .env_remove("OPENCLAW_STATE_DIR")
        .env_remove("OPENCLAW_HOME")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

/// Selectors on `archive`, `unarchive`, `patch` and `delete` (`list`'s filters,
/// `--keys-from`): the plan lists every match before the question, on a terminal the run asks
/// (declined: nothing changed), without a terminal it needs `--yes` (exit 2,
/// CONFIRMATION_REQUIRED, nothing changed), and `--yes` applies. A KEY named alone to
/// `archive` or `patch` still applies without a question (`commands_that_do_not_ask_apply_without_yes`).
#[test]
fn a_selector_run_lists_every_match_then_asks() {
    let store = Store::copy("live");
    let listed = store.json_ok([
        "--all-agents",
        "list",
        "--no-archived",
        "--updated-before",
        "1d",
        "--limit",
        "all",
        "--json",
    ]);
    let keys: Vec<String> = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["sessionKey"].as_str().unwrap().to_string())
        .filter(|k| !k.ends_with(":main"))
        .collect();
    // More than the 20 items a plan shows per agent by default.
    assert!(keys.len() > 20, "{listed}");
    let selector = |verb: &[&str]| -> Vec<String> {
        let mut args = strings(&["--all-agents"]);
        args.extend(strings(verb));
        args.extend(strings(&["--no-archived", "--updated-before", "1d"]));
        args
    };
    for (name, args) in [
        ("archive", selector(&["archive"])),
        ("patch", selector(&["patch", "--set", "label=\"Batch\""])),
        ("delete", selector(&["delete"])),
    ] {
        let before = contents(&store);
        let (code, screen) = on_terminal(&store, &args, "n\n");
        assert_eq!(code, Some(0), "{name}: {screen}");
        assert!(screen.contains("Apply this plan?"), "{name}: {screen}");
        assert!(
            screen.contains("Cancelled: nothing was changed."),
            "{name}: {screen}"
        );
        let shown = shown_plan(&screen);
        for key in &keys {
            assert!(
                shown.contains(key.as_str()),
                "{name}: {key} not listed before the question:\n{shown}"
            );
        }
        assert!(contents(&store) == before, "{name}: the store changed");
        let out = store.cmd().args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{name}: {out:?}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("--yes"),
            "{name}: {out:?}"
        );
        assert!(contents(&store) == before, "{name}: the store changed");
        let mut json_args = args.clone();
        json_args.push("--json".into());
        let out = store.cmd().args(&json_args).output().unwrap();
        let doc = json(&out);
        assert_eq!(
            doc["error"]["code"], "CONFIRMATION_REQUIRED",
            "{name}: {doc}"
        );
    }
    // Keys from stdin ask too.
    let before = contents(&store);
    let out = store
        .cmd()
        .args(["unarchive", "--keys-from", "-"])
        .write_stdin("agent:main:scratch-2\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(contents(&store) == before, "unarchive: the store changed");
    // --yes applies.
    let mut args = selector(&["archive"]);
    args.extend(strings(&["--yes", "--json"]));
    let done = json(&store.cmd().args(&args).output().unwrap());
    let mut archived: Vec<&str> = done["data"]["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["result"] == "archived")
        .map(|r| r["sessionKey"].as_str().unwrap())
        .collect();
    archived.sort();
    let mut keys = keys;
    keys.sort();
    // Every match but the agents' main sessions, which archive refuses as OpenClaw does.
    assert_eq!(archived, keys, "{done}");
}
