//! `migrate legacy` on copies of the fixture's legacy store, against OpenClaw's own import of
//! the same store (`imported/`), interrupted at many points, and on bad input.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rusqlite::types::Value as Sql;
use serde_json::Value;

use crate::common::{
    assert_foreign_keys, assert_integrity, checksums, expect_exit, json, Store, FIXTURES,
};

pub(crate) const AGENTS: [&str; 3] = ["main", "work", "research"];

/// Columns that depend on the clock, the machine or chance, per table.
fn volatile(table: &str, column: &str) -> bool {
    matches!(
        (table, column),
        ("schema_meta", "created_at" | "updated_at" | "app_version")
            | ("session_windows", "transcript_updated_at")
            | ("transcript_rewrite_watermarks", "generation" | "updated_at")
            // Sessions with a branch are re-indexed: stamped with the import time.
            | ("session_transcript_index_state", "updated_at")
            // The absolute path of the sessions.json it came from.
            | ("session_nodes", "legacy_acp_migration_json")
    )
}

/// Every row of every table (FTS5 shadow tables excepted: the FTS table is read instead),
/// volatile columns blanked, in a stable order.
pub(crate) fn dump(db: &Path) -> BTreeMap<String, Vec<Vec<String>>> {
    // immutable: never a sidecar next to the fixture.
    let conn = rusqlite::Connection::open_with_flags(
        format!("file:{}?immutable=1", db.display()),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI,
    )
    .unwrap();
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts_data' AND name NOT LIKE '%fts_idx' AND name NOT LIKE '%fts_docsize' AND name NOT LIKE '%fts_config' AND name NOT LIKE '%fts_content' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    let mut out = BTreeMap::new();
    for t in tables {
        let mut stmt = conn.prepare(&format!("SELECT * FROM \"{t}\"")).unwrap();
        let cols: Vec<String> = stmt.column_names().iter().map(|c| c.to_string()).collect();
        let mut rows: Vec<Vec<String>> = stmt
            .query_map([], |r| {
                Ok((0..cols.len())
                    .map(|i| {
                        if volatile(&t, &cols[i]) {
                            return "-".to_string();
                        }
                        match r.get::<_, Sql>(i).unwrap() {
                            Sql::Null => "NULL".into(),
                            Sql::Integer(n) => n.to_string(),
                            Sql::Real(f) => format!("{f:?}"),
                            Sql::Text(s) => s,
                            Sql::Blob(b) => b.iter().map(|x| format!("{x:02x}")).collect(),
                        }
                    })
                    .collect())
            })
            .unwrap()
            .map(Result::unwrap)
            .collect();
        rows.sort();
        out.insert(t, rows);
    }
    out
}

pub(crate) fn import(store: &Store) -> Value {
    store.json_ok(["--json", "migrate", "legacy", "--all-agents", "--yes"])
}

fn files_under(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// The sha256 of every legacy source file, wherever it is now (sessions/ or the archive).
pub(crate) fn source_contents(state: &Path) -> Vec<String> {
    let mut v: Vec<String> = AGENTS
        .iter()
        .flat_map(|a| {
            let dir = state.join("agents").join(a);
            ["sessions", "session-sqlite-import-archive"]
                .iter()
                .map(|sub| dir.join(sub))
                .filter(|d| d.is_dir())
                .flat_map(|d| checksums(&d).into_values())
                .collect::<Vec<_>>()
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn imports_the_fixture_as_openclaw_did() {
    let store = Store::copy("legacy");
    let before = source_contents(&store.state());
    let doc = import(&store);
    let agents = doc["data"]["agents"].as_array().unwrap();
    assert_eq!(agents.len(), 3, "{doc}");
    for a in agents {
        assert_eq!(a["imported"], 14, "{a}");
        assert_eq!(a["importedTranscriptEvents"], 180, "{a}");
        assert_eq!(a["moved"].as_array().unwrap().len(), 15, "{a}");
        assert_eq!(a["validation"], "passed");
        assert_eq!(a["databaseCreated"], true);
    }
    let reference = Path::new(FIXTURES).join("imported/.openclaw");
    for agent in AGENTS {
        let ours = dump(&store.agent_db(agent));
        let theirs = dump(
            &reference
                .join("agents")
                .join(agent)
                .join("agent/openclaw-agent.sqlite"),
        );
        assert_eq!(
            ours.keys().collect::<Vec<_>>(),
            theirs.keys().collect::<Vec<_>>()
        );
        for (table, rows) in &theirs {
            assert_eq!(&ours[table], rows, "{agent}: table {table} differs");
        }
        // The same files left and moved (archive stamps aside).
        let strip = |v: Vec<String>| -> Vec<String> {
            v.into_iter()
                .map(|n| n.split(".imported-").next().unwrap().to_string())
                .collect()
        };
        let dir = |root: &Path, sub: &str| root.join("agents").join(agent).join(sub);
        assert_eq!(
            files_under(&dir(&store.state(), "sessions")),
            files_under(&dir(&reference, "sessions"))
        );
        assert_eq!(
            strip(files_under(&dir(
                &store.state(),
                "session-sqlite-import-archive"
            ))),
            strip(files_under(&dir(
                &reference,
                "session-sqlite-import-archive"
            )))
        );
    }
    // Nothing lost: every source is in the archive, byte for byte.
    assert_eq!(source_contents(&store.state()), before);
    // The manifest, as OpenClaw writes it.
    let runs = files_under(&store.state().join("session-sqlite-migration-runs"));
    assert_eq!(runs.len(), 1);
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(
            store
                .state()
                .join("session-sqlite-migration-runs")
                .join(&runs[0]),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["manifestVersion"], 3);
    assert!(manifest["completedAt"].is_string());
    let t = &manifest["targets"][0];
    assert_eq!(t["validationBeforeArchive"], "passed");
    assert_eq!(t["completedMoves"].as_array().unwrap().len(), 15);
    assert_eq!(t["completedMoves"][14]["kind"], "legacy-store");
    assert_eq!(
        t["completedMoves"][14]["artifact"]["reason"],
        "verified-index-import"
    );
    // The tool reads what it wrote, and a second run finds nothing to do.
    let list = store.json_ok(["--json", "list", "--all-agents", "--limit", "all"]);
    assert_eq!(list["data"].as_array().unwrap().len(), 42);
    let again = import(&store);
    assert_eq!(again["data"]["agents"], serde_json::json!([]), "{again}");
}

#[test]
fn dry_run_reports_and_changes_nothing() {
    let store = Store::copy("legacy");
    let before = checksums(&store.state());
    let out = store.run_ok(["migrate", "legacy", "--all-agents", "--dry-run"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("\n    import ").count(), 3, "{text}");
    assert!(text.contains("main: 14 session(s)"), "{text}");
    assert_eq!(checksums(&store.state()), before);
    let doc = json(&store.run_ok([
        "--json",
        "migrate",
        "legacy",
        "--agent",
        "work",
        "--dry-run",
    ]));
    assert_eq!(
        doc["data"]["plan"][0]["records"].as_array().unwrap().len(),
        14
    );
    assert_eq!(checksums(&store.state()), before);
}

/// Kill the import at crash point `n` of its run (as kill -9 would), then check the store.
fn crash_at(store: &Store, n: usize) -> bool {
    let out = store
        .cmd()
        .args(["--json", "migrate", "legacy", "--all-agents", "--yes"])
        .env("OPENCLAW_SESSIONS_CRASH_AFTER", n.to_string())
        .output()
        .unwrap();
    out.status.success()
}

pub(crate) fn integrity_ok(db: &Path) {
    if !db.exists() {
        return;
    }
    let conn = rusqlite::Connection::open(db).unwrap();
    assert_integrity(&conn, &format!("{}", db.display()));
    assert_foreign_keys(&conn, "");
}

#[test]
fn killed_anywhere_a_rerun_finishes_the_same_import() {
    let reference = Store::copy("legacy");
    import(&reference);
    let expected: Vec<_> = AGENTS
        .iter()
        .map(|a| dump(&reference.agent_db(a)))
        .collect();
    let sources = source_contents(&reference.state());
    // A run passes ~140 crash points (records, batches, moves); every third one, and the
    // last ones, each killed and then re-run to the end.
    let mut points: Vec<usize> = (1..=150).step_by(3).collect();
    points.extend([141, 142, 143]);
    let mut killed = 0;
    for n in points {
        let store = Store::copy("legacy");
        if crash_at(&store, n) {
            continue; // past the last point: the run finished
        }
        killed += 1;
        for a in AGENTS {
            integrity_ok(&store.agent_db(a));
        }
        assert_eq!(
            source_contents(&store.state()),
            sources,
            "a source was lost at point {n}"
        );
        let out = store
            .cmd()
            .args(["--json", "migrate", "legacy", "--all-agents", "--yes"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "re-run after point {n}: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        for (a, want) in AGENTS.iter().zip(&expected) {
            assert_eq!(
                &dump(&store.agent_db(a)),
                want,
                "{a} after a crash at point {n}"
            );
        }
        assert_eq!(source_contents(&store.state()), sources);
        for a in AGENTS {
            let left = files_under(&store.state().join("agents").join(a).join("sessions"));
            assert_eq!(left.len(), 1, "{a} after point {n}: {left:?}");
        }
    }
    assert!(killed >= 45, "only {killed} runs were interrupted");
}

/// The same ladders beside a 2026.8.2 owner, where the import creates agent research at schema
/// 19 as that release's own import does (releases.rs): killed at every other crash point, or
/// under a file-size limit as on a full disk, the store stays sound with every source kept, and
/// a re-run finishes the import an uninterrupted run makes, still at schema 19.
#[test]
fn an_import_at_schema_19_killed_or_on_a_full_disk_finishes_the_same_import() {
    let import_research = |store: &Store| {
        let mut cmd = crate::common::std_bin();
        cmd.env("HOME", store.dir.path())
            .arg("--state-dir")
            .arg(store.state())
            .args([
                "--json", "migrate", "legacy", "--agent", "research", "--yes",
            ]);
        cmd
    };
    let reference = crate::releases::one_agent_still_legacy("2026.8.2");
    expect_exit(&import_research(&reference).output().unwrap(), 0);
    let expected = dump(&reference.agent_db("research"));
    let sources = source_contents(&reference.state());
    let finishes = |store: &Store, step: &str| {
        for a in AGENTS {
            integrity_ok(&store.agent_db(a));
        }
        assert_eq!(
            source_contents(&store.state()),
            sources,
            "{step}: a source was lost"
        );
        let out = import_research(store).output().unwrap();
        assert!(
            out.status.success(),
            "{step}, re-run: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert_eq!(dump(&store.agent_db("research")), expected, "{step}");
        let version: i64 = rusqlite::Connection::open(store.agent_db("research"))
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, 19, "{step}");
    };
    let mut killed = 0;
    for n in (1..=60).step_by(2) {
        let store = crate::releases::one_agent_still_legacy("2026.8.2");
        let out = import_research(&store)
            .env("OPENCLAW_SESSIONS_CRASH_AFTER", n.to_string())
            .output()
            .unwrap();
        if out.status.success() {
            continue; // past the last point: the run finished
        }
        killed += 1;
        finishes(&store, &format!("killed at point {n}"));
    }
    assert!(killed >= 15, "only {killed} runs were interrupted");
    let mut failed = 0;
    for limit in [0, 64 << 10, 256 << 10, 512 << 10] {
        let store = crate::releases::one_agent_still_legacy("2026.8.2");
        let mut cmd = import_research(&store);
        crate::common::limit_file_size(&mut cmd, limit);
        if !cmd.output().unwrap().status.success() {
            failed += 1;
        }
        finishes(&store, &format!("under a limit of {limit} bytes"));
    }
    assert!(failed >= 3, "the limits bit only {failed} times");
}

/// A read-only doctor beside a live import (held here by SIGSTOP mid-way) reports the import's
/// stages as databases being created, at info level and with nothing to repair, not as
/// leftovers; `doctor --fix` leaves them alone, and the import, resumed, finishes as if nobody
/// had looked.
#[test]
fn a_doctor_beside_a_live_import_leaves_its_stages_alone() {
    let reference = Store::copy("legacy");
    import(&reference);
    let store = Store::copy("legacy");
    let child = crate::common::std_bin()
        .env("HOME", store.dir.path())
        .arg("--state-dir")
        .arg(store.state())
        .args(["migrate", "legacy", "--all-agents", "--yes"])
        .env("OPENCLAW_SESSIONS_SIGNAL_AT", "import-record@3:STOP")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let stopped = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .ok()
            .and_then(|s| {
                s.rsplit(')')
                    .next()
                    .map(|r| r.trim_start().starts_with('T'))
            })
            .unwrap_or(false)
    };
    let waited = std::time::Instant::now();
    while !stopped() {
        assert!(
            waited.elapsed() < std::time::Duration::from_secs(60),
            "the import never reached its stop"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let stage = format!("openclaw-agent.sqlite.creating-{pid}");
    let doctor = json(&store.cmd().args(["--json", "doctor"]).output().unwrap());
    let findings = doctor["data"]["findings"].as_array().unwrap();
    let about_stages: Vec<&Value> = findings
        .iter()
        .filter(|f| f["message"].as_str().unwrap_or("").contains(&stage))
        .collect();
    assert!(
        !about_stages.is_empty(),
        "no finding names {stage}: {doctor:#}"
    );
    for f in &about_stages {
        assert_eq!(f["check"], "leftovers", "{f:#}");
        assert_eq!(f["severity"], "info", "{f:#}");
        assert_eq!(f["fixable"], false, "{f:#}");
        let message = f["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("is being created by running process {pid}")),
            "{message}"
        );
    }
    // The legacy indexes the run is importing are not pending: the doctor names the run.
    let pending: Vec<&Value> = findings
        .iter()
        .filter(|f| f["check"] == "legacy-pending")
        .collect();
    assert_eq!(pending.len(), AGENTS.len(), "{doctor:#}");
    for f in &pending {
        assert_eq!(f["severity"], "info", "{f:#}");
        assert!(
            f["message"].as_str().unwrap().contains(&format!(
                "is being imported by running process {pid} (run session-sqlite-"
            )),
            "{f:#}"
        );
    }
    let fix = store
        .cmd()
        .args(["doctor", "--fix", "--yes"])
        .output()
        .unwrap();
    // Nothing to repair, so nothing to take custody for: the stages stay.
    let said = String::from_utf8_lossy(&fix.stdout);
    assert!(fix.status.success(), "{said}");
    assert!(
        said.contains("is being created by running process"),
        "{said}"
    );
    for a in AGENTS {
        let dir = store.agent_db(a).parent().unwrap().to_path_buf();
        assert!(
            dir.join(&stage).is_file(),
            "{a}: doctor --fix removed the stage"
        );
    }
    // SAFETY: the pid is this test's own child, stopped above.
    unsafe { libc::kill(pid as i32, libc::SIGCONT) };
    let out = child.wait_with_output().unwrap();
    expect_exit(&out, 0);
    for a in AGENTS {
        let dir = store.agent_db(a).parent().unwrap().to_path_buf();
        assert!(
            !files_under(&dir).iter().any(|n| n.contains(".creating-")),
            "{a}: a stage is left"
        );
        assert_eq!(
            dump(&store.agent_db(a)),
            dump(&reference.agent_db(a)),
            "{a}"
        );
    }
}

/// A crashed import leaves an unfinished run manifest. Beside a later live owner (here a
/// `custody run` that is no import) that run is not the owner's: the indexes it named are
/// still waiting for import, and the doctor says so.
#[test]
fn a_doctor_beside_another_owner_calls_a_crashed_import_pending() {
    let store = Store::copy("legacy");
    let crashed = store
        .cmd()
        .args(["migrate", "legacy", "--all-agents", "--yes"])
        .env("OPENCLAW_SESSIONS_CRASH_AT", "import-record")
        .output()
        .unwrap();
    assert!(!crashed.status.success());
    let runs = store.state().join("session-sqlite-migration-runs");
    assert_eq!(files_under(&runs).len(), 1, "one unfinished manifest");
    let bin = assert_cmd::cargo::cargo_bin("openclaw-sessions");
    let inside = store
        .cmd()
        .args(["custody", "run", "--"])
        .arg(&bin)
        .arg("--state-dir")
        .arg(store.state())
        .args(["--json", "doctor", "legacy-pending"])
        .output()
        .unwrap();
    let doctor = json(&inside);
    let pending: Vec<&Value> = doctor["data"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["check"] == "legacy-pending")
        .collect();
    assert_eq!(pending.len(), AGENTS.len(), "{doctor:#}");
    for f in &pending {
        assert_eq!(f["severity"], "warning", "{f:#}");
        assert!(
            f["message"]
                .as_str()
                .unwrap()
                .ends_with("is waiting for import"),
            "{f:#}"
        );
    }
}

/// A new agent database is filled at a stage beside its path and published whole: killed
/// while importing rows, the run leaves no database at the path, only the stage, which the
/// doctor names as a leftover and the next run removes before it imports everything again.
#[test]
fn a_killed_import_leaves_only_a_stage_the_next_run_removes() {
    let reference = Store::copy("legacy");
    import(&reference);
    let store = Store::copy("legacy");
    let out = store
        .cmd()
        .args(["--json", "migrate", "legacy", "--all-agents", "--yes"])
        .env("OPENCLAW_SESSIONS_CRASH_AT", "import-record")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), None, "the run did not crash");
    let stages: Vec<PathBuf> = AGENTS
        .iter()
        .flat_map(|a| {
            let dir = store.agent_db(a).parent().unwrap().to_path_buf();
            files_under(&dir)
                .into_iter()
                .filter(|n| n.starts_with("openclaw-agent.sqlite.creating-"))
                .map(move |n| dir.join(n))
        })
        .collect();
    assert!(!stages.is_empty(), "no stage left");
    for a in AGENTS {
        assert!(!store.agent_db(a).exists(), "{a}: a database at its path");
    }
    let doctor = json(&store.cmd().args(["--json", "doctor"]).output().unwrap());
    let text = doctor.to_string();
    for stage in &stages {
        let name = stage.file_name().unwrap().to_string_lossy();
        assert!(
            text.contains(&*name),
            "doctor does not name {name}: {doctor}"
        );
    }
    let again = store
        .cmd()
        .args(["migrate", "legacy", "--all-agents", "--yes"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{err}");
    assert!(err.contains("left by an interrupted run"), "{err}");
    for stage in &stages {
        assert!(!stage.exists(), "{} left", stage.display());
    }
    for a in AGENTS {
        assert_eq!(
            dump(&store.agent_db(a)),
            dump(&reference.agent_db(a)),
            "{a}"
        );
        let dir = store.agent_db(a).parent().unwrap().to_path_buf();
        assert_eq!(files_under(&dir), ["openclaw-agent.sqlite"], "{a}");
    }
}

#[test]
fn a_full_disk_fails_cleanly_and_a_rerun_finishes() {
    let store = Store::copy("legacy");
    let sources = source_contents(&store.state());
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("openclaw-sessions"));
    cmd.env("HOME", store.dir.path())
        .env("NO_COLOR", "1")
        .args(["--state-dir"])
        .arg(store.state())
        .args(["--json", "migrate", "legacy", "--all-agents", "--yes"]);
    // A 512 KiB file size limit: the agent database (about 880 KiB) cannot be written whole.
    crate::common::limit_file_size(&mut cmd, 512 * 1024);
    let out = cmd.output().unwrap();
    assert!(!out.status.success());
    let doc = json(&out);
    assert!(
        matches!(doc["error"]["code"].as_str(), Some("IO" | "SQLITE")),
        "{doc}"
    );
    for a in AGENTS {
        integrity_ok(&store.agent_db(a));
    }
    assert_eq!(source_contents(&store.state()), sources);
    assert!(store
        .state()
        .join("agents/main/sessions/sessions.json")
        .exists());
    let doc = import(&store);
    assert_eq!(doc["data"]["agents"].as_array().unwrap().len(), 3, "{doc}");
    assert_eq!(source_contents(&store.state()), sources);
}

fn write_index(store: &Store, agent: &str, text: &str) -> PathBuf {
    let p = store
        .state()
        .join("agents")
        .join(agent)
        .join("sessions/sessions.json");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let store = Store::copy("legacy");
    for (text, needle) in [
        ("{\"agent:main:a\": ", "neither JSON"),
        ("[1, 2]", "does not contain an object session store"),
        (
            r#"{"agent:main:x": {"sessionId": "../evil", "updatedAt": 1}}"#,
            "invalid session id",
        ),
    ] {
        write_index(&store, "main", text);
        let before = checksums(&store.state());
        let out = store
            .cmd()
            .args(["--json", "migrate", "legacy", "--yes"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(6), "{text}");
        let doc = json(&out);
        assert_eq!(doc["error"]["code"], "BAD_INPUT");
        assert!(
            doc["error"]["message"].as_str().unwrap().contains(needle),
            "{doc}"
        );
        // Custody's coordinator files (empty, reused by every run) are not the store.
        let without_locks = |m: std::collections::BTreeMap<std::path::PathBuf, String>| {
            m.into_iter()
                .filter(|(p, _)| !p.starts_with(crate::content::custody_dir(&store)))
                .collect::<std::collections::BTreeMap<_, _>>()
        };
        assert_eq!(
            without_locks(checksums(&store.state())),
            without_locks(before),
            "{text}"
        );
    }
}

#[test]
fn invalid_entries_are_reported_and_the_index_kept_protected() {
    let store = Store::copy("legacy");
    let path = write_index(&store, "work", "");
    let original = std::fs::read_to_string(
        Path::new(FIXTURES).join("legacy/.openclaw/agents/work/sessions/sessions.json"),
    )
    .unwrap();
    let mut map: serde_json::Map<String, Value> = serde_json::from_str(&original).unwrap();
    map.insert(
        "agent:work:broken".into(),
        serde_json::json!({"updatedAt": 1}),
    );
    map.insert("agent:work:five".into(), serde_json::json!(5));
    std::fs::write(&path, serde_json::to_string(&map).unwrap()).unwrap();
    let out = store
        .cmd()
        .args(["--json", "migrate", "legacy", "--agent", "work", "--yes"])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    let doc = json(&out);
    let agent = &doc["data"]["agents"][0];
    assert_eq!(agent["imported"], 14);
    let invalid: Vec<&str> = agent["invalid"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["sessionKey"].as_str().unwrap())
        .collect();
    assert_eq!(invalid, ["agent:work:broken", "agent:work:five"]);
    let index_move = agent["moved"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(index_move["kind"], "legacy-store");
    assert_eq!(index_move["artifact"]["classification"], "protected");
    assert_eq!(index_move["artifact"]["reason"], "incomplete-index-import");
    assert!(doc.to_string().contains("entry_invalid"), "{doc}");
}

#[test]
fn a_malformed_line_is_named_by_the_dry_run_and_only_the_prefix_imported() {
    let store = Store::copy("legacy");
    let transcript = store
        .state()
        .join("agents/main/sessions/92ed55f2-df5b-4475-8cc2-23d3d692f452.jsonl");
    let mut text = std::fs::read_to_string(&transcript).unwrap();
    let lines = text.lines().count();
    text.push_str("{\"type\":\"message\", cut short\n");
    std::fs::write(&transcript, &text).unwrap();
    let before = checksums(&store.state());
    let doc = store.json_ok(["--json", "migrate", "legacy", "--dry-run"]);
    let issues = doc["data"]["plan"][0]["issues"].as_array().unwrap().clone();
    assert_eq!(issues.len(), 1, "{doc}");
    assert_eq!(issues[0]["code"], "transcript_malformed");
    assert_eq!(issues[0]["sessionKey"], "agent:main:main");
    let line = format!("line {}:", lines + 1);
    assert!(
        issues[0]["message"].as_str().unwrap().contains(&line),
        "{doc}"
    );
    assert_eq!(checksums(&store.state()), before);
    // The real run imports the lines before it and keeps the original protected.
    let doc = import(&store);
    let main = &doc["data"]["agents"][0];
    assert_eq!(main["importedTranscriptEvents"], 180, "{main}");
    let moved = main["moved"].as_array().unwrap();
    let original = moved
        .iter()
        .find(|m| m["sessionKey"] == "agent:main:main")
        .unwrap();
    assert_eq!(original["artifact"]["classification"], "protected");
    assert_eq!(
        moved.last().unwrap()["artifact"]["reason"],
        "incomplete-index-import"
    );
}

/// Two more entries name the main session's transcript (one `sessionFile`): OpenClaw imports it
/// for each session and moves the file once; its manifest keeps the first entry's place and
/// archive name and the last entry's key. A second move used to find the source gone.
#[test]
fn entries_sharing_one_transcript_file_import_it_each_and_move_it_once() {
    let store = Store::copy("legacy");
    let index = store.state().join("agents/main/sessions/sessions.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&index).unwrap()).unwrap();
    let main = v["agent:main:main"].clone();
    let file = main["sessionFile"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();
    for n in 1..=2 {
        let mut e = main.clone();
        e["sessionId"] = Value::from(format!("0000000{n}-1111-4222-8333-444444444444"));
        v[format!("agent:main:shared-{n}")] = e;
    }
    std::fs::write(&index, v.to_string()).unwrap();
    let doc = import(&store);
    assert_eq!(doc["ok"], true, "{doc}");
    let db = rusqlite::Connection::open(store.agent_db("main")).unwrap();
    let events = |key: &str| -> i64 {
        db.query_row(
            "SELECT count(*) FROM transcript_events e JOIN session_nodes n ON e.session_id = n.current_session_id WHERE n.session_key = ?1",
            [key],
            |r| r.get(0),
        )
        .unwrap()
    };
    let n = events("agent:main:main");
    assert!(n > 0);
    assert_eq!(events("agent:main:shared-1"), n);
    assert_eq!(events("agent:main:shared-2"), n);
    let main_agent = doc["data"]["agents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["agentId"] == "main")
        .unwrap();
    let moves: Vec<&Value> = main_agent["moved"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["sourcePath"].as_str().unwrap().ends_with(&file))
        .collect();
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(moves[0]["sessionKey"], "agent:main:shared-2");
    assert!(moves[0]["archivePath"]
        .as_str()
        .unwrap()
        .contains("agent_main_main."));
    assert!(!store
        .state()
        .join("agents/main/sessions")
        .join(&file)
        .exists());
}

/// A `sessionFile` that points outside the sessions dir (`../../x.jsonl`, an absolute path in
/// another place) is not followed: as OpenClaw's import does, the session id's own
/// `<sessionId>.jsonl` is the transcript, and every event of it is imported.
#[test]
fn a_session_file_outside_the_sessions_dir_falls_back_to_the_session_id() {
    let store = Store::copy("legacy");
    let index = store.state().join("agents/main/sessions/sessions.json");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&index).unwrap()).unwrap();
    let mut changed = Vec::new();
    for (key, file) in [
        ("agent:main:telegram:direct:123454", "../../elsewhere.jsonl"),
        (
            "agent:main:discord:channel:987654324",
            "/srv/other-home/x.jsonl",
        ),
    ] {
        let entry = doc.get_mut(key).unwrap_or_else(|| panic!("{key}"));
        let sid = entry["sessionId"].as_str().unwrap().to_string();
        entry["sessionFile"] = serde_json::Value::from(file);
        let lines = std::fs::read_to_string(
            store
                .state()
                .join(format!("agents/main/sessions/{sid}.jsonl")),
        )
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count();
        assert!(lines > 3, "{key}");
        changed.push((key, sid));
    }
    std::fs::write(&index, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    store.run_ok(["migrate", "legacy", "--agent", "main", "--yes"]);
    let db = store.writable("main");
    for (key, sid) in changed {
        let events: i64 = db
            .query_row(
                "SELECT count(*) FROM transcript_events WHERE session_id = ?1",
                [&sid],
                |r| r.get(0),
            )
            .unwrap();
        assert!(events > 0, "{key}: no event imported from {sid}.jsonl");
    }
}

/// A `sessionFile` inside the sessions dir that is not there, while `<sessionId>.jsonl` is:
/// OpenClaw's import gives the entry that file (its header names the session id), imports
/// every event of it, reports nothing missing and moves it as a historical primary under the
/// entry's key (was: 0 events, `transcript_missing`, the file moved as unreferenced history).
#[test]
fn a_missing_session_file_inside_the_sessions_dir_falls_back_to_the_id_file() {
    let store = Store::copy("legacy");
    let index = store.state().join("agents/main/sessions/sessions.json");
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&index).unwrap()).unwrap();
    let key = "agent:main:telegram:direct:123454";
    let entry = doc.get_mut(key).unwrap();
    let sid = entry["sessionId"].as_str().unwrap().to_string();
    entry["sessionFile"] =
        serde_json::Value::from("/home/user/.openclaw/agents/main/sessions/renamed-away.jsonl");
    std::fs::write(&index, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let source = store
        .state()
        .join(format!("agents/main/sessions/{sid}.jsonl"));
    let lines = std::fs::read_to_string(&source)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count() as i64;
    let out = json(&store.run_ok(["--json", "migrate", "legacy", "--agent", "main", "--yes"]));
    let events: i64 = store
        .writable("main")
        .query_row(
            "SELECT count(*) FROM transcript_events WHERE session_id = ?1",
            [&sid],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(events, lines, "{out}");
    assert!(!source.exists());
    let run = std::fs::read_dir(store.state().join("session-sqlite-migration-runs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .next()
        .unwrap();
    let manifest: serde_json::Value = serde_json::from_slice(&std::fs::read(run).unwrap()).unwrap();
    let main = manifest["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["agentId"] == "main")
        .unwrap();
    assert!(
        !main["issues"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["sessionKey"] == key),
        "{main}"
    );
    let moved = main["completedMoves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| {
            m["sourcePath"]
                .as_str()
                .unwrap()
                .ends_with(&format!("{sid}.jsonl"))
        })
        .unwrap();
    assert_eq!(moved["kind"], "transcript", "{moved}");
    assert_eq!(moved["sessionKey"], key, "{moved}");
    assert_eq!(
        moved["artifact"]["reason"], "indexed-historical-primary",
        "{moved}"
    );
}
