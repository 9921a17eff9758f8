//! The operation log and `undo` (docs/OPLOG.md): each mutating command, then `undo`, leaves
//! the store's rows as they were; a run killed half way is logged as interrupted and undone;
//! an undone operation is not undone twice.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::common::{dump_store, expect_exit, json, std_bin, Dump, Store};

/// The fixture's moment for `prune` (report/sessions-cleanup-dry-run.json).
const REPORT_NOW: &str = "1795994700000";

/// Rows of every table that differ between two dumps: (database, table) -> (only before,
/// only after).
type RowDiff = BTreeMap<(String, String), (Vec<String>, Vec<String>)>;

fn row_diff(before: &Dump, after: &Dump) -> RowDiff {
    let mut out = RowDiff::new();
    let tables: BTreeSet<&(String, String)> = before.rows.keys().chain(after.rows.keys()).collect();
    for t in tables {
        let empty = Vec::new();
        let b: BTreeSet<&String> = before.rows.get(t).unwrap_or(&empty).iter().collect();
        let a: BTreeSet<&String> = after.rows.get(t).unwrap_or(&empty).iter().collect();
        let gone: Vec<String> = b.difference(&a).map(|s| s.to_string()).collect();
        let new: Vec<String> = a.difference(&b).map(|s| s.to_string()).collect();
        if !gone.is_empty() || !new.is_empty() {
            out.insert(t.clone(), (gone, new));
        }
    }
    out
}

/// Columns OpenClaw's own writers set from the clock when a session's rows are written again
/// (an undelete appends the events anew: their `created_at` and the search index's row ids
/// are new; an entry write refreshes its window's `transcript_updated_at` and
/// `transcript_observed_at`): every other cell of every table must be as before.
fn rewritten(cell: &str) -> bool {
    [
        "created_at=",
        "updated_at=",
        "generation=",
        "id=",
        "transcript_updated_at=",
        "transcript_observed_at=",
    ]
    .iter()
    .any(|c| cell.starts_with(c))
}

/// A JSON value with its objects' keys sorted.
fn sorted(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let b: BTreeMap<String, Value> = m.into_iter().map(|(k, v)| (k, sorted(v))).collect();
            Value::Object(b.into_iter().collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// A row with its rewritten cells left out, and its entry compared as a JSON object: OpenClaw's
/// writer moves a field it writes again to the end of the entry (an archive of a pinned
/// session, `pinnedAt`), which changes no field.
fn kept_cells(row: &str) -> String {
    row.split('|')
        .filter(|c| !rewritten(c))
        .map(|c| match c.strip_prefix("entry_json=") {
            Some(text) => {
                let inner: String = serde_json::from_str(text).unwrap_or_default();
                match serde_json::from_str::<Value>(&inner) {
                    Ok(v) => format!("entry_json={}", sorted(v)),
                    Err(_) => c.to_string(),
                }
            }
            None => c.to_string(),
        })
        .collect::<Vec<_>>()
        .join("|")
}

/// The differences that remain once the rewritten cells are set aside, and the tables that
/// hold the archives `delete` left (kept by `undelete`).
fn real_differences(before: &Dump, after: &Dump) -> Vec<String> {
    let mut out = Vec::new();
    for ((db, table), (gone, new)) in row_diff(before, after) {
        if table == "transcript_archives" || table == "session_transcript_archives" {
            continue;
        }
        let mut g: BTreeSet<String> = gone.iter().map(|r| kept_cells(r)).collect();
        let n: BTreeSet<String> = new.iter().map(|r| kept_cells(r)).collect();
        // OpenClaw's entry writer validates the key of an entry it writes: the session's row
        // in the queue of keys waiting for validation goes (docs/openclaw/GATEWAY.md §7).
        if table == "session_canonical_validation_pending" && n.is_empty() {
            g.clear();
        }
        if g != n {
            out.push(format!("{db} {table}: before {g:?}, after {n:?}"));
        }
    }
    out
}

fn run(store: &Store, args: &[&str]) -> std::process::Output {
    store
        .cmd()
        .args(args)
        .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
        .output()
        .unwrap()
}

#[track_caller]
fn ok(store: &Store, args: &[&str]) -> std::process::Output {
    let out = run(store, args);
    expect_exit(&out, 0);
    out
}

fn log(store: &Store) -> Vec<Value> {
    let doc = json(&ok(store, &["log", "--json"]));
    doc["data"]["operations"].as_array().unwrap().clone()
}

/// The files of the state dir but this tool's own (its log, the entries `delete` keeps) and
/// the archives `delete` leaves in the sessions directories, which `undelete` keeps.
fn store_files(dump: &Dump) -> BTreeMap<String, String> {
    dump.files
        .iter()
        .filter(|(p, _)| !p.starts_with("openclaw-sessions-") && !p.contains(".deleted."))
        .map(|(p, h)| (p.clone(), h.clone()))
        .collect()
}

/// `command`, then `undo`: every row of every database as before (rewritten cells named in
/// [`rewritten`]), every file of the store as before.
fn command_then_undo(store: &Store, command: &[&str]) -> Value {
    let before = dump_store(&store.state());
    ok(store, command);
    let changed = dump_store(&store.state());
    assert!(
        !row_diff(&before, &changed).is_empty(),
        "{command:?} changed nothing"
    );
    let undo = json(&ok(store, &["undo", "--yes", "--json"]));
    let after = dump_store(&store.state());
    let left = real_differences(&before, &after);
    assert!(left.is_empty(), "{command:?} then undo: {left:#?}");
    assert_eq!(store_files(&before), store_files(&after), "{command:?}");
    undo
}

#[test]
fn patch_then_undo_restores_every_row() {
    let store = Store::copy("live");
    command_then_undo(
        &store,
        &[
            "patch",
            "agent:main:pinned-notes",
            "--set",
            "label=renamed",
            "--set",
            "category=ops",
        ],
    );
    let entry = store.entry("main", "agent:main:pinned-notes").unwrap();
    assert_eq!(entry["label"], "Pinned notes");
}

#[test]
fn archive_and_unarchive_then_undo_restore_every_row() {
    let store = Store::copy("live");
    command_then_undo(
        &store,
        &[
            "archive",
            "agent:main:pinned-notes",
            "agent:main:sdk-made-1",
        ],
    );
    assert!(store.entry("main", "agent:main:pinned-notes").unwrap()["archivedAt"].is_null());
    command_then_undo(&store, &["unarchive", "agent:main:explicit:cli-main"]);
    assert!(!store.entry("main", "agent:main:explicit:cli-main").unwrap()["archivedAt"].is_null());
}

#[test]
fn delete_then_undo_brings_the_sessions_back() {
    let store = Store::copy("live");
    let undo = command_then_undo(
        &store,
        &[
            "delete",
            "agent:main:pinned-notes",
            "agent:main:sdk-made-1",
            "--yes",
        ],
    );
    let results = undo["data"]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert!(
        results.iter().all(|r| r["result"] == "undeleted"),
        "{undo:#}"
    );
    let ops = log(&store);
    assert_eq!(ops[0]["command"], "undo");
    assert_eq!(ops[0]["undoes"], ops[1]["id"]);
    assert_eq!(ops[1]["undoneBy"], ops[0]["id"]);
    assert_eq!(ops[1]["actions"][0]["action"], "delete");
    assert!(ops[1]["actions"][0]["archives"][0]
        .as_str()
        .unwrap()
        .contains(".jsonl.deleted."));
}

/// Each session of the agent: its id, and whether it is archived.
fn sessions(store: &Store) -> BTreeMap<String, (String, bool)> {
    let conn = store.writable("main");
    let mut stmt = conn
        .prepare(
            "SELECT session_key, current_session_id, archived_at IS NOT NULL FROM session_nodes",
        )
        .unwrap();
    stmt.query_map([], |r| Ok((r.get(0)?, (r.get(1)?, r.get(2)?))))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap()
}

/// `prune` removes and archives as OpenClaw's maintenance does, and also makes its repairs
/// (a window's transcript times, an entry's `updatedAt` settled, a legacy ACP field dropped:
/// docs/openclaw/MAINTENANCE.md); `undo` takes back the removals and archives, every session
/// back under its key with its transcript, the repairs stay.
#[test]
fn prune_then_undo_brings_back_what_it_removed_and_archived() {
    let store = Store::copy("live");
    let before = sessions(&store);
    ok(&store, &["prune", "--agent", "main", "--yes"]);
    assert_ne!(sessions(&store), before, "prune changed nothing");
    let undo = json(&ok(&store, &["undo", "--yes", "--json"]));
    assert!(
        !undo["data"]["results"].as_array().unwrap().is_empty(),
        "{undo:#}"
    );
    assert_eq!(sessions(&store), before);
}

#[test]
fn undo_of_an_undone_operation_is_refused_and_undo_walks_back() {
    let store = Store::copy("live");
    ok(&store, &["archive", "agent:main:pinned-notes"]);
    ok(
        &store,
        &["patch", "agent:main:sdk-made-1", "--set", "label=x"],
    );
    let ops = log(&store);
    let (patch_id, archive_id) = (
        ops[0]["id"].as_str().unwrap().to_string(),
        ops[1]["id"].as_str().unwrap().to_string(),
    );
    ok(&store, &["undo", "--yes"]);
    ok(&store, &["undo", "--yes"]);
    let ops = log(&store);
    assert_eq!(
        ops[0]["undoes"],
        archive_id.as_str(),
        "the second undo walks back"
    );
    assert_eq!(ops[1]["undoes"], patch_id.as_str());
    let again = run(&store, &["undo", &patch_id, "--yes", "--json"]);
    expect_exit(&again, 5);
    let doc = json(&again);
    assert_eq!(doc["ok"], false);
    assert_eq!(doc["error"]["code"], "CONFLICT");
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(message.contains("already undone"), "{message}");
    // Nothing is left to undo: the undos are never the default target.
    expect_exit(&run(&store, &["undo", "--yes"]), 4);
}

#[test]
fn a_session_changed_since_is_named_and_left_alone_unless_forced() {
    let store = Store::copy("live");
    ok(
        &store,
        &["patch", "agent:main:pinned-notes", "--set", "label=first"],
    );
    let id = log(&store)[0]["id"].as_str().unwrap().to_string();
    // Someone else changes it afterwards (no log of ours: as OpenClaw would).
    {
        let conn = store.writable("main");
        let n = conn
            .execute(
                "UPDATE session_nodes SET entry_json = json_set(entry_json, '$.updatedAt', 1) WHERE session_key = ?1",
                ["agent:main:pinned-notes"],
            )
            .unwrap();
        assert_eq!(n, 1);
    }
    let out = run(&store, &["undo", &id, "--yes", "--json"]);
    expect_exit(&out, 5);
    let doc = json(&out);
    let r = &doc["data"]["results"][0];
    assert_eq!(r["result"], "changed", "{doc:#}");
    assert!(r["reason"].as_str().unwrap().contains("--force"));
    assert_eq!(
        store.entry("main", "agent:main:pinned-notes").unwrap()["label"],
        "first"
    );
    ok(&store, &["undo", &id, "--force", "--yes"]);
    assert_eq!(
        store.entry("main", "agent:main:pinned-notes").unwrap()["label"],
        "Pinned notes"
    );
}

/// A `delete` of two sessions killed (SIGKILL) after its first commit: logged as
/// interrupted; `undo` brings back the one deleted and names the other as never deleted;
/// the store ends as before.
#[test]
fn a_delete_killed_half_way_is_logged_interrupted_and_undone() {
    let store = Store::copy("live");
    let before = dump_store(&store.state());
    let mut cmd = std_bin();
    cmd.env("HOME", store.state().parent().unwrap())
        .arg("--state-dir")
        .arg(store.state())
        .args([
            "delete",
            "agent:main:pinned-notes",
            "agent:main:sdk-made-1",
            "--yes",
        ])
        .env("OPENCLAW_SESSIONS_SIGNAL_AT", "delete-before-publish:STOP")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    let child = cmd.spawn().unwrap();
    let pid = child.id() as i32;
    let mut raw = 0;
    // SAFETY: our own child; WUNTRACED returns when it stops, without reaping it.
    let got = unsafe { libc::waitpid(pid, &mut raw, libc::WUNTRACED) };
    assert_eq!(got, pid);
    assert!(
        libc::WIFSTOPPED(raw),
        "the run ended before its first commit"
    );
    // SAFETY: signals and reaps our own stopped child.
    unsafe {
        libc::kill(pid, libc::SIGKILL);
        libc::waitpid(pid, &mut raw, 0);
    }
    drop(child);
    assert!(store.entry("main", "agent:main:pinned-notes").is_none());
    assert!(store.entry("main", "agent:main:sdk-made-1").is_some());
    let ops = log(&store);
    assert_eq!(ops[0]["command"], "delete");
    assert_eq!(ops[0]["outcome"], "interrupted", "{:#}", ops[0]);
    let out = run(&store, &["undo", "--yes", "--json"]);
    let doc = json(&out);
    let results = doc["data"]["results"].as_array().unwrap();
    let of = |key: &str| results.iter().find(|r| r["sessionKey"] == key).unwrap();
    assert_eq!(
        of("agent:main:pinned-notes")["result"],
        "undeleted",
        "{doc:#}"
    );
    assert_eq!(
        of("agent:main:sdk-made-1")["result"],
        "unchanged",
        "{doc:#}"
    );
    expect_exit(&out, 0);
    let after = dump_store(&store.state());
    let left = real_differences(&before, &after);
    assert!(left.is_empty(), "{left:#?}");
    assert_eq!(store_files(&before), store_files(&after));
}

/// The re-run of a killed `delete` completes its record as resumed.
#[test]
fn a_rerun_completes_the_record_of_a_killed_run_as_resumed() {
    let store = Store::copy("live");
    let out = store
        .cmd()
        .args(["delete", "agent:main:pinned-notes", "--yes"])
        .env("OPENCLAW_SESSIONS_CRASH_AT", "delete-before-publish")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(log(&store)[0]["outcome"], "interrupted");
    ok(&store, &["delete", "agent:main:sdk-made-1", "--yes"]);
    let ops = log(&store);
    assert_eq!(ops[1]["outcome"], "resumed", "{:#}", ops[1]);
    assert_eq!(ops[1]["resumedBy"], ops[0]["id"]);
}

#[test]
fn the_log_is_private_filtered_and_elides_secrets() {
    use std::os::unix::fs::PermissionsExt;
    let store = Store::copy("live");
    ok(&store, &["archive", "agent:main:pinned-notes"]);
    ok(
        &store,
        &[
            "patch",
            "agent:main:sdk-made-1",
            "--set",
            "label=x",
            "--offline",
            "--token",
            "s3cret",
        ],
    );
    let dir = store.state().join("openclaw-sessions-oplog");
    for f in std::fs::read_dir(&dir).unwrap().flatten() {
        assert_eq!(f.metadata().unwrap().permissions().mode() & 0o777, 0o600);
        let text = std::fs::read_to_string(f.path()).unwrap();
        assert!(!text.contains("s3cret"));
    }
    let ops = log(&store);
    let argv: Vec<&str> = ops[0]["argv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(argv.contains(&"<elided>"), "{argv:?}");
    let only = |args: &[&str]| {
        let mut a = vec!["log", "--json"];
        a.extend_from_slice(args);
        json(&ok(&store, &a))["data"]["operations"]
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(only(&["--command", "archive"]), 1);
    assert_eq!(only(&["--key", "sdk-made-1"]), 1);
    assert_eq!(only(&["--key", "agent:main:pinned-notes"]), 1);
    assert_eq!(only(&["--outcome", "failed"]), 0);
    assert_eq!(only(&["--since", "1h"]), 2);
    assert_eq!(only(&["--until", "2000-01-01"]), 0);
    assert_eq!(only(&["--agent", "work"]), 0);
    let tsv = ok(&store, &["log", "-o", "tsv"]);
    assert_eq!(String::from_utf8_lossy(&tsv.stdout).lines().count(), 3);
}

/// `log` at 80 columns: one line a row, every id whole; `log show` as people read it (ids,
/// times, who and where filtered: they are the run's own).
#[test]
fn log_at_80_columns_and_log_show_in_full() {
    let store = Store::copy("live");
    ok(&store, &["archive", "agent:main:pinned-notes"]);
    ok(&store, &["delete", "agent:main:sdk-made-1", "--yes"]);
    let ops = log(&store);
    let table = store
        .cmd()
        .arg("log")
        .env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", "80")
        .output()
        .unwrap();
    expect_exit(&table, 0);
    let text = String::from_utf8_lossy(&table.stdout).into_owned();
    for line in text.lines() {
        assert!(line.chars().count() <= 80, "{line:?}");
    }
    for op in &ops {
        assert!(text.contains(op["id"].as_str().unwrap()), "{text}");
    }
    let id = ops[0]["id"].as_str().unwrap();
    let show = store
        .cmd()
        .args(["log", "show", &id[..12]])
        .env("OPENCLAW_SESSIONS_TERMINAL_WIDTH", "80")
        .output()
        .unwrap();
    expect_exit(&show, 0);
    let mut settings = crate::common::settings(&store);
    settings.add_filter(r"\b[0-9a-f]{15}\b", "[ID]");
    settings.add_filter(r"\d{4}-\d\d-\d\dT[0-9:.-]+Z", "[TIME]");
    settings.add_filter(r"(?m)^by +.*$", "by         [ORIGIN]");
    // The command line names the store's temp dir, cut in the middle at 80 columns.
    settings.add_filter(r"(?m)^command +.*$", "command    [COMMAND LINE]");
    settings.add_filter(r"\b[0-9a-f]{32}\b", "[GEN]");
    settings.add_filter(
        r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b",
        "[UUID]",
    );
    settings.bind(|| insta::assert_snapshot!("log_show_80", String::from_utf8_lossy(&show.stdout)));
}
