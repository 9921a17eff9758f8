//! `prune`: OpenClaw's maintenance selection, applied through archive/delete, for cron.

use std::path::Path;

use serde_json::Value;

use crate::common::{
    assert_integrity, assert_refused_for_space, budget_store, checksums, expect_exit, json, Store,
    FIXTURES,
};

/// The moment OpenClaw made the fixture's cleanup report (report/sessions-cleanup-dry-run.json).
const REPORT_NOW: &str = "1795994700000";

fn prune(store: &Store, args: &[&str]) -> (i32, Value, String) {
    prune_with(store, args, &[])
}

/// [`prune`] with more environment (test hooks).
fn prune_with(store: &Store, args: &[&str], env: &[(&str, &str)]) -> (i32, Value, String) {
    let out = store
        .cmd()
        .arg("prune")
        .args(args)
        .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let doc = if args.contains(&"--json") {
        json(&out)
    } else {
        Value::Null
    };
    (
        out.status.code().unwrap(),
        doc,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn dry_run_counts_equal_openclaws_own_report() {
    let store = Store::copy("live");
    let (code, doc, _) = prune(&store, &["--all-agents", "--dry-run", "--json"]);
    assert_eq!(code, 0);
    let report: Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{FIXTURES}/report/sessions-cleanup-dry-run.json"))
            .unwrap(),
    )
    .unwrap();
    for theirs in report["stores"].as_array().unwrap() {
        let ours = doc["data"]["agents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["agentId"] == theirs["agentId"])
            .unwrap();
        for k in [
            "beforeCount",
            "afterCount",
            "modelRunPruned",
            "archived",
            "capArchived",
            "pruned",
            "capped",
        ] {
            assert_eq!(ours["counts"][k], theirs[k], "{} {k}", theirs["agentId"]);
        }
        // The summary OpenClaw prints, field for field (the store path is the copy's; the
        // scanned-file count is OpenClaw's own bookkeeping).
        let mut summary = ours["cleanup"].clone();
        let mut expected = theirs.clone();
        for s in [&mut summary, &mut expected] {
            let path = s["storePath"].as_str().unwrap().to_string();
            s["storePath"] = path.rsplit(".openclaw/").next().unwrap().into();
            s["unreferencedArtifacts"]
                .as_object_mut()
                .unwrap()
                .retain(|k, _| k != "scannedFiles" && k != "archivedFiles" && k != "files");
        }
        assert_eq!(summary, expected, "{}", theirs["agentId"]);
    }
}

#[test]
fn quiet_when_nothing_is_due_and_warn_mode_changes_nothing() {
    let store = Store::copy("live");
    let (code, _, stdout) = prune(&store, &["--all-agents", "--older-than", "3650d", "--yes"]);
    assert!(code == 0 && stdout.contains("stale-dashboard"), "{stdout}");
    let (code, _, stdout) = prune(&store, &["--all-agents", "--older-than", "3650d", "--yes"]);
    assert_eq!(
        (code, stdout.as_str()),
        (0, ""),
        "nothing to do prints nothing"
    );
    // Nothing on stderr either, without -q (README.md, Pruning from cron).
    let out = store
        .cmd()
        .args(["prune", "--all-agents", "--older-than", "3650d", "--yes"])
        .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
        .output()
        .unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "{out:?}");
    let cfg = store.state().join("openclaw.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
    v["session"] = serde_json::json!({"maintenance": {"mode": "warn"}});
    std::fs::write(&cfg, v.to_string()).unwrap();
    let before = store
        .writable("main")
        .query_row(
            "SELECT count(*) FROM session_nodes WHERE archived_at IS NULL",
            [],
            |r| r.get::<_, i64>(0),
        )
        .unwrap();
    let (code, _, stdout) = prune(&store, &["--all-agents", "--yes"]);
    assert_eq!(code, 0);
    // The plan, as a dry run prints it.
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("Archive ") && l.contains(" and delete ")),
        "{stdout}"
    );
    let after = store
        .writable("main")
        .query_row(
            "SELECT count(*) FROM session_nodes WHERE archived_at IS NULL",
            [],
            |r| r.get::<_, i64>(0),
        )
        .unwrap();
    assert_eq!(before, after);
}

/// What a real run leaves, without what differs from run to run: publication times and the
/// random generation ids of archive names.
fn outcome(store: &Store) -> Vec<String> {
    let mut out = Vec::new();
    for agent in ["main", "work", "research"] {
        let db = store.writable(agent);
        for sql in [
            "SELECT session_key || ' ' || current_session_id || ' ' || entry_json FROM session_nodes ORDER BY session_key",
            "SELECT session_id || ' ' || count(*) FROM transcript_events GROUP BY session_id ORDER BY session_id",
            "SELECT session_id || ' ' || session_key || ' ' || reason || ' ' || created_at || ' ' || length(archive_blob) || ' ' || (published_at IS NOT NULL) FROM session_transcript_archives ORDER BY session_id, session_key",
            "PRAGMA integrity_check",
        ] {
            let mut stmt = db.prepare(sql).unwrap();
            let rows = stmt.query_map([], |r| r.get::<_, String>(0)).unwrap();
            out.extend(rows.map(|r| format!("{agent} {}", r.unwrap())));
        }
        let mut files: Vec<String> =
            std::fs::read_dir(store.state().join("agents").join(agent).join("sessions"))
                .unwrap()
                .map(|e| {
                    let name = e.unwrap().file_name().to_string_lossy().into_owned();
                    match name.strip_suffix(".zst").and_then(|n| n.rsplit_once('.')) {
                        Some((stem, _generation)) => format!("{stem}.<generation>.zst"),
                        None => name,
                    }
                })
                .collect();
        files.sort();
        out.extend(files.into_iter().map(|f| format!("{agent} file {f}")));
    }
    out
}

#[test]
fn a_real_run_applied_one_session_per_batch_ends_as_one_in_large_batches() {
    // Batches re-read the store between writes; deletions are still planned against the
    // transcript references as they were before the run, so the outcome cannot depend on
    // where the batches end.
    let run = |batch: &str| {
        let store = Store::copy("live");
        // Two sessions the run deletes, the second naming the first's transcript as its
        // previous one: each refers to the other's transcript before the run.
        let (_, plan, _) = prune(&store, &["--agent", "main", "--dry-run", "--json"]);
        let deleted: Vec<&str> = plan["data"]["agents"][0]["deleted"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k.as_str().unwrap())
            .collect();
        assert!(deleted.len() >= 2, "{deleted:?}");
        let first_id: String = store
            .writable("main")
            .query_row(
                "SELECT current_session_id FROM session_nodes WHERE session_key = ?1",
                [deleted[0]],
                |r| r.get(0),
            )
            .unwrap();
        store.run_ok([
            "patch",
            deleted[1],
            "--set",
            &format!("previousSessionId={first_id}"),
            "--preserve-activity",
            "--yes",
        ]);
        let (code, mut doc, _) = prune_with(
            &store,
            &["--all-agents", "--yes", "--json"],
            &[("OPENCLAW_SESSIONS_APPLY_BATCH", batch)],
        );
        assert_eq!(code, 0);
        // The store path names this copy.
        for a in doc["data"]["agents"].as_array_mut().unwrap() {
            a["cleanup"]["storePath"] = Value::Null;
        }
        let planned: usize = doc["data"]["agents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["actions"].as_array().unwrap().len())
            .sum();
        (doc, planned, outcome(&store))
    };
    let (one_doc, planned, one) = run("1");
    let (large_doc, _, large) = run("512");
    assert!(planned >= 10, "{planned} actions");
    assert_eq!(one_doc, large_doc);
    assert_eq!(one, large);
    assert!(one.iter().any(|l| l.ends_with(".<generation>.zst")));
}

/// When the disk of the databases cannot hold the archives and the journal the deletions
/// write, the run is refused before anything changes (every agent, not only the first), and
/// a run with room does it all.
#[test]
fn a_disk_too_full_for_the_archives_refuses_before_anything_changes() {
    let store = Store::copy("live");
    let sums = checksums(&store.state());
    let args = [
        "--all-agents",
        "--older-than",
        "1d",
        "--enforce",
        "--yes",
        "--json",
    ];
    let (code, doc, _) = prune_with(&store, &args, &[("OPENCLAW_SESSIONS_FREE_BYTES", "4096")]);
    assert_refused_for_space(
        &store,
        Some(code),
        &doc,
        &["not enough free disk to prune agent main, agent work, agent research"],
        &sums,
    );
    let (code, doc, _) = prune(&store, &args);
    assert_eq!(code, 0, "{doc}");
    assert!(doc["data"]["agents"]
        .as_array()
        .unwrap()
        .iter()
        .all(|a| a["applied"] == true));
}

#[test]
fn applied_prune_archives_and_deletes_as_planned() {
    let store = Store::copy("live");
    let (_, plan, _) = prune(&store, &["--agent", "main", "--dry-run", "--json"]);
    let (code, done, _) = prune(&store, &["--agent", "main", "--yes", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(
        plan["data"]["agents"][0]["actions"],
        done["data"]["agents"][0]["actions"]
    );
    let db = store.writable("main");
    for a in done["data"]["agents"][0]["actions"].as_array().unwrap() {
        let key = a["sessionKey"].as_str().unwrap();
        let row: Option<(String, Option<i64>)> = db
            .query_row("SELECT json_extract(entry_json, '$.archiveReason'), archived_at FROM session_nodes WHERE session_key = ?1", [key], |r| Ok((r.get(0)?, r.get(1)?)))
            .ok();
        match a["action"].as_str().unwrap() {
            "archive-age" => assert_eq!(row.unwrap().0, "age-retention"),
            "prune-stale" => {
                assert!(row.is_none(), "{key} deleted");
                let archives: i64 = db
                    .query_row(
                        "SELECT count(*) FROM session_transcript_archives WHERE session_key = ?1",
                        [key],
                        |r| r.get(0),
                    )
                    .unwrap();
                assert_eq!(archives, 1, "{key} has its transcript archive");
            }
            other => panic!("unexpected action {other}"),
        }
    }
    assert_integrity(&db, "");
}

#[test]
fn a_crash_mid_prune_leaves_every_session_kept_archived_or_deleted_with_its_archive() {
    for point in [
        "patch-before-commit",
        "delete-generation",
        "delete-before-commit",
        "delete-before-publish",
    ] {
        let store = Store::copy("live");
        let out = store
            .cmd()
            .args(["prune", "--agent", "main", "--yes"])
            .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
            .env("OPENCLAW_SESSIONS_CRASH_AT", point)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{point}");
        let db = store.writable("main");
        assert_integrity(&db, point);
        // Every synthetic session is either still there or gone with an archive row.
        for key in [
            "agent:main:acp:9911cc46-d649-47bb-9968-72da7c2daff9",
            "agent:main:cron:nightly:run:884",
            "agent:main:hook:7a41e6f5-b97d-4c51-b472-0830fd1c2815",
            "agent:main:subagent:461fb4b4-4eee-4160-baf0-ce3d5dbdd820",
        ] {
            let present: bool = db
                .query_row(
                    "SELECT EXISTS(SELECT 1 FROM session_nodes WHERE session_key = ?1)",
                    [key],
                    |r| r.get(0),
                )
                .unwrap();
            let archived: bool = db.query_row("SELECT EXISTS(SELECT 1 FROM session_transcript_archives WHERE session_key = ?1)", [key], |r| r.get(0)).unwrap();
            assert!(
                present ^ archived,
                "{point}: {key} present={present} archived={archived}"
            );
        }
        drop(db);
        // A second run finishes the job.
        let again = store
            .cmd()
            .args(["prune", "--agent", "main", "--yes", "--json"])
            .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
            .output()
            .unwrap();
        assert!(
            again.status.success(),
            "{point}: {}",
            String::from_utf8_lossy(&again.stderr)
        );
        let (_, left, _) = prune(&store, &["--agent", "main", "--dry-run", "--json"]);
        assert_eq!(
            left["data"]["agents"][0]["actions"]
                .as_array()
                .unwrap()
                .len(),
            0,
            "{point}: nothing left to do"
        );
    }
}

#[test]
fn artifacts_removes_unreferenced_files_and_archives_past_retention() {
    let store = Store::copy("live");
    let sessions = store.state().join("agents/main/sessions");
    let orphan = sessions.join("0000dead-0000-4000-8000-000000000000.jsonl");
    std::fs::write(&orphan, "{\"type\":\"session\"}\n").unwrap();
    let tmp = sessions.join("openclaw-agent.sqlite.0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.tmp");
    std::fs::write(&tmp, "x").unwrap();
    let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
    for p in [&orphan, &tmp] {
        std::fs::File::options()
            .write(true)
            .open(p)
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    let cfg = store.state().join("openclaw.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
    v["session"] = serde_json::json!({"maintenance": {"resetArchiveRetention": "30d"}});
    std::fs::write(&cfg, v.to_string()).unwrap();
    let (code, doc, _) = prune(
        &store,
        &[
            "--agent",
            "main",
            "--artifacts",
            "--older-than",
            "3650d",
            "--max-entries",
            "100",
            "--yes",
            "--json",
        ],
    );
    assert_eq!(code, 0);
    let removed: Vec<String> = doc["data"]["agents"][0]["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            a["path"]
                .as_str()
                .unwrap()
                .rsplit('/')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert!(
        removed
            .iter()
            .any(|n| n.ends_with(".reset.2026-06-01T08-00-00.000Z")),
        "{removed:?}"
    );
    assert!(
        !orphan.exists() || removed.iter().all(|n| !n.starts_with("0000dead")),
        "orphan younger than 3650d stays"
    );
    assert!(!tmp.exists(), "old temp file removed");
    // The deleted archive is younger than the retention at REPORT_NOW: kept.
    assert!(std::fs::read_dir(&sessions)
        .unwrap()
        .flatten()
        .any(|e| e.file_name().to_string_lossy().contains(".deleted.")));
}

/// `kill -9` at every point of a prune (the `--fail-after` hook): the store stays valid and
/// every session is kept, archived, or deleted with its transcript archive.
#[test]
fn prune_killed_at_every_point() {
    let mut runs = 0;
    for n in 1..200 {
        let store = Store::copy("live");
        let out = store
            .cmd()
            .args([
                "prune",
                "--agent",
                "research",
                "--older-than",
                "1d",
                "--yes",
            ])
            .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
            .env("OPENCLAW_SESSIONS_CRASH_AFTER", n.to_string())
            .output()
            .unwrap();
        if out.status.success() {
            break;
        }
        runs += 1;
        let db = store.writable("research");
        assert_integrity(&db, &format!("run {n}"));
        let gone: Vec<String> = {
            let mut stmt = db
                .prepare("SELECT DISTINCT session_key FROM session_transcript_archives")
                .unwrap();
            let v = stmt
                .query_map([], |r| r.get(0))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            v
        };
        for key in &gone {
            let present: bool = db
                .query_row(
                    "SELECT EXISTS(SELECT 1 FROM session_nodes WHERE session_key = ?1)",
                    [key],
                    |r| r.get(0),
                )
                .unwrap();
            assert!(!present, "run {n}: {key} archived but still present");
        }
        let invalid: i64 = db
            .query_row(
                "SELECT count(*) FROM session_nodes WHERE entry_valid = 0",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(invalid, 0, "run {n}: a row was left mid-write");
        drop(db);
        let again = store
            .cmd()
            .args([
                "prune",
                "--agent",
                "research",
                "--older-than",
                "1d",
                "--yes",
            ])
            .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
            .output()
            .unwrap();
        assert!(
            again.status.success(),
            "run {n}: {}",
            String::from_utf8_lossy(&again.stderr)
        );
    }
    eprintln!("prune: killed at {runs} points");
    assert!(runs >= 15, "only {runs} points reached");
}

#[test]
fn a_legacy_only_store_says_to_import_first_and_changes_nothing() {
    let store = Store::copy("legacy");
    let sums = crate::common::checksums(&store.state().join("agents"));
    for args in [
        &["--all-agents", "--dry-run"][..],
        &["--all-agents", "--yes"][..],
    ] {
        let out = store.cmd().arg("prune").args(args).output().unwrap();
        // Nothing to do is success (README, exit codes).
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "", "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        for agent in ["main", "work", "research"] {
            assert!(
                err.contains(&format!(
                    "agent {agent}: its sessions are still in the legacy sessions.json"
                )) && err.contains(&format!(
                    "openclaw-sessions --state-dir {} migrate legacy",
                    store.state().display()
                )),
                "{args:?}: {err}"
            );
        }
    }
    let (code, doc, _) = prune(&store, &["--all-agents", "--dry-run", "--json"]);
    assert_eq!(code, 0);
    assert_eq!(
        doc["data"]["legacyOnly"],
        serde_json::json!(["main", "work", "research"])
    );
    assert_eq!(doc["data"]["agents"], serde_json::json!([]));
    assert_eq!(
        crate::common::checksums(&store.state().join("agents")),
        sums
    );
}

/// The current session id of `key` in `agent`.
fn session_id_of(store: &Store, agent: &str, key: &str) -> String {
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
fn fix_missing_removes_message_free_sessions_archives_them_and_keeps_torn_ones() {
    let store = Store::copy("live");
    let gone = "agent:research:explicit:cli-research";
    let header_only = "agent:research:hook:663e71ef-4473-485e-aacc-29a6fa55442b";
    let torn = "agent:research:discord:channel:987654328";
    {
        let db = store.writable("research");
        // No transcript rows at all.
        db.execute(
            "DELETE FROM transcript_events WHERE session_id = ?1",
            [session_id_of(&store, "research", gone)],
        )
        .unwrap();
        // Only the header left.
        let id = session_id_of(&store, "research", header_only);
        db.execute(
            "DELETE FROM transcript_events WHERE session_id = ?1 \
             AND seq > (SELECT min(seq) FROM transcript_events WHERE session_id = ?1)",
            [&id],
        )
        .unwrap();
        // Every message gone but one, and that one torn mid-write: unreadable, so kept.
        let id = session_id_of(&store, "research", torn);
        db.execute_batch(&format!(
            "DELETE FROM transcript_events WHERE session_id = '{id}' AND seq IN \
               (SELECT seq FROM transcript_events WHERE session_id = '{id}' \
                AND coalesce(event_json, '') LIKE '%\"type\":\"message\"%' ORDER BY seq LIMIT -1 OFFSET 1);
             UPDATE transcript_events SET event_json = '{{\"type\":\"message\",\"mess' \
               WHERE session_id = '{id}' AND event_json LIKE '%\"type\":\"message\"%';"
        ))
        .unwrap();
    }
    let torn_events: i64 = store
        .writable("research")
        .query_row(
            "SELECT count(*) FROM transcript_events WHERE session_id = ?1",
            [session_id_of(&store, "research", torn)],
            |r| r.get(0),
        )
        .unwrap();
    let args = [
        "--agent",
        "research",
        "--fix-missing",
        "--max-entries",
        "100",
    ];
    let (code, doc, _) = prune(&store, &[&args[..], &["--dry-run", "--json"]].concat());
    assert_eq!(code, 0);
    let agent = &doc["data"]["agents"][0];
    assert_eq!(agent["counts"]["missing"], 2, "{agent}");
    let missing: Vec<&str> = agent["actions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["action"] == "prune-missing")
        .map(|a| a["sessionKey"].as_str().unwrap())
        .collect();
    assert_eq!(missing, [gone, header_only]);

    let (code, doc, _) = prune(&store, &[&args[..], &["--yes", "--json"]].concat());
    assert_eq!(code, 0, "{doc}");
    let db = store.writable("research");
    let exists = |key: &str| -> bool {
        db.query_row(
            "SELECT count(*) FROM session_nodes WHERE session_key = ?1",
            [key],
            |r| r.get::<_, i64>(0),
        )
        .unwrap()
            > 0
    };
    assert!(!exists(gone) && !exists(header_only));
    assert!(exists(torn), "a torn transcript must keep its session");
    let kept: i64 = db
        .query_row(
            "SELECT count(*) FROM transcript_events WHERE session_id = ?1",
            [session_id_of(&store, "research", torn)],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(kept, torn_events);
    // The header that was left is archived, readable back.
    let archives: i64 = db
        .query_row(
            "SELECT count(*) FROM session_transcript_archives WHERE session_key = ?1",
            [header_only],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(archives, 1);
}

#[test]
fn fix_dm_scope_retires_old_direct_keys_and_enforce_overrides_warn() {
    let store = Store::copy("live");
    let config = store.state().join("openclaw.json");
    let mut cfg: Value = serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    cfg["session"]["maintenance"] = serde_json::json!({"mode": "warn"});
    std::fs::write(&config, serde_json::to_string(&cfg).unwrap()).unwrap();
    let args = ["--agent", "research", "--fix-dm-scope", "--json"];
    // warn: reported, nothing changed.
    let (code, doc, _) = prune(&store, &[&args[..], &["--yes"]].concat());
    assert_eq!(code, 0);
    assert_eq!(doc["data"]["agents"][0]["counts"]["dmScopeRetired"], 1);
    assert_eq!(doc["data"]["agents"][0]["applied"], false);
    let direct = "agent:research:telegram:direct:123458";
    let present = |s: &Store| {
        s.writable("research")
            .query_row(
                "SELECT count(*) FROM session_nodes WHERE session_key = ?1",
                [direct],
                |r| r.get::<_, i64>(0),
            )
            .unwrap()
    };
    assert_eq!(present(&store), 1);
    let (code, doc, _) = prune(&store, &[&args[..], &["--yes", "--enforce"]].concat());
    assert_eq!(code, 0);
    let agent = &doc["data"]["agents"][0];
    assert_eq!(agent["mode"], "enforce");
    assert_eq!(agent["applied"], true);
    assert!(agent["deleted"]
        .as_array()
        .unwrap()
        .iter()
        .any(|k| k == direct));
    assert_eq!(present(&store), 0);
    // Not with another dmScope.
    let store = Store::copy("live");
    let mut cfg: Value = serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    cfg["session"]["dmScope"] = serde_json::json!("per-peer");
    std::fs::write(
        store.state().join("openclaw.json"),
        serde_json::to_string(&cfg).unwrap(),
    )
    .unwrap();
    let (_, doc, _) = prune(
        &store,
        &[
            "--agent",
            "research",
            "--fix-dm-scope",
            "--dry-run",
            "--json",
        ],
    );
    assert_eq!(doc["data"]["agents"][0]["counts"]["dmScopeRetired"], 0);
}

#[test]
fn unreferenced_artifacts_go_as_openclaw_says_and_transcripts_stay_as_archives() {
    let store = Store::copy("live");
    let dir = store.state().join("agents/research/sessions");
    std::fs::create_dir_all(&dir).unwrap();
    let old = std::time::UNIX_EPOCH + std::time::Duration::from_millis(1_767_225_600_000); // 2026-01-01
    let referenced = format!(
        "{}.jsonl",
        session_id_of(&store, "research", "agent:research:main")
    );
    let files = [
        ("0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.jsonl", true),
        (
            "0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.trajectory-path.json",
            true,
        ),
        (
            "sessions.json.0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.tmp",
            true,
        ),
        ("1c9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f71.jsonl", false),
        (referenced.as_str(), true),
        ("notes.tmp", true),
    ];
    for (name, aged) in files {
        let f = std::fs::File::create(dir.join(name)).unwrap();
        std::io::Write::write_all(&mut &f, b"{\"type\":\"session\"}\n").unwrap();
        if aged {
            f.set_modified(old).unwrap();
        }
    }
    let (code, doc, _) = prune(&store, &["--agent", "research", "--dry-run", "--json"]);
    assert_eq!(code, 0);
    let planned: Vec<(String, bool)> = doc["data"]["agents"][0]["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                Path::new(a["path"].as_str().unwrap())
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
                a.get("archiveTo").is_some(),
            )
        })
        .collect();
    assert_eq!(
        planned,
        [
            (
                "0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.jsonl".to_string(),
                true
            ),
            (
                "0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.trajectory-path.json".to_string(),
                false
            ),
            (
                "sessions.json.0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.tmp".to_string(),
                false
            ),
        ]
    );
    let (code, doc, _) = prune(&store, &["--agent", "research", "--yes", "--json"]);
    assert_eq!(code, 0, "{doc}");
    let mut left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert!(left.contains(&"1c9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f71.jsonl".to_string()));
    assert!(left.contains(&referenced));
    assert!(left.contains(&"notes.tmp".to_string()));
    assert!(!left
        .iter()
        .any(|n| n.ends_with(".trajectory-path.json") || n.starts_with("sessions.json.")));
    // The orphan transcript is an archive now, with its content.
    let archive = left
        .iter()
        .find(|n| n.starts_with("0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.jsonl.deleted."))
        .unwrap_or_else(|| panic!("no archive in {left:?}"));
    assert_eq!(
        std::fs::read_to_string(dir.join(archive)).unwrap(),
        "{\"type\":\"session\"}\n"
    );
}

fn budget_of(doc: &Value) -> (Vec<(String, String)>, Value) {
    let a = &doc["data"]["agents"][0];
    let removed = a["budget"]["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["step"].as_str().unwrap().to_string(),
                r["name"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (removed, a["cleanup"]["diskBudget"].clone())
}

#[test]
fn the_disk_budget_removes_in_openclaws_order_and_the_dry_run_shows_the_real_run() {
    let store = budget_store();
    let args = [
        "--agent",
        "research",
        "--max-disk-bytes",
        "600kib",
        "--json",
    ];
    let (code, plan, _) = prune(&store, &[&args[..], &["--dry-run"]].concat());
    assert_eq!(code, 0, "{plan}");
    let (planned, estimate) = budget_of(&plan);
    assert_eq!(plan["data"]["agents"][0]["budget"]["estimated"], true);
    // Every sub-step, in OpenClaw's order: the retained .reset file, the window (archived),
    // the session archived by the cap. Never the archives this same prune writes (of the
    // machine-made sessions it deletes, of the window it evicts): they are kept.
    let steps: Vec<&str> = planned.iter().map(|(s, _)| s.as_str()).collect();
    let first = |s: &str| steps.iter().position(|x| *x == s).unwrap();
    assert!(
        first("retained-file") < first("window") && first("window") < first("archived-session"),
        "{steps:?}"
    );
    let removed = plan["data"]["agents"][0]["budget"]["removed"]
        .as_array()
        .unwrap();
    assert!(
        removed.iter().all(|r| r.get("writtenByThisRun").is_none()),
        "{removed:?}"
    );
    assert!(planned.contains(&(
        "window".to_string(),
        "00000000-0000-4000-8000-00000000b0d6".to_string()
    )));
    assert!(planned.contains(&(
        "archived-session".to_string(),
        "agent:research:scratch-2".to_string()
    )));
    assert_eq!(estimate["overBudget"], true);
    assert_eq!(estimate["removedEntries"], 2);
    // The real run does what the dry run showed, and measures.
    let (code, done, _) = prune(&store, &[&args[..], &["--yes"]].concat());
    assert_eq!(code, 0, "{done}");
    let (removed, measured) = budget_of(&done);
    assert_eq!(removed, planned);
    assert_eq!(done["data"]["agents"][0]["budget"]["estimated"], false);
    assert_eq!(measured["removedFiles"], estimate["removedFiles"]);
    assert_eq!(measured["removedEntries"], 2);
    assert!(measured["totalBytesAfter"].as_u64() < measured["totalBytesBefore"].as_u64());
    assert_eq!(
        done["data"]["agents"][0]["cleanup"]["afterCount"],
        plan["data"]["agents"][0]["cleanup"]["afterCount"]
            .as_u64()
            .unwrap()
            - 1
    );
    let db = store.writable("research");
    let count = |sql: &str| -> i64 { db.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(
        count("SELECT count(*) FROM session_windows WHERE session_id = '00000000-0000-4000-8000-00000000b0d6'"),
        0
    );
    assert_eq!(
        count("SELECT count(*) FROM session_nodes WHERE session_key = 'agent:research:scratch-2'"),
        0
    );
    // Nothing of the removed session is lost: its transcript is an archive, file and row.
    let name: String = db
        .query_row(
            "SELECT archive_name FROM session_transcript_archives WHERE session_key = 'agent:research:scratch-2' AND published_at IS NOT NULL",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let sessions = store.state().join("agents/research/sessions");
    assert!(sessions.join(&name).is_file());
    // The archives this run wrote are all kept: the window's and each deleted session's,
    // file and row.
    assert_eq!(
        count("SELECT count(*) FROM session_transcript_archives WHERE session_id = '00000000-0000-4000-8000-00000000b0d6'"),
        1
    );
    let rows: Vec<String> = {
        let mut stmt = db
            .prepare("SELECT archive_name FROM session_transcript_archives WHERE published_at IS NOT NULL")
            .unwrap();
        let names = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        names
    };
    assert!(rows.len() >= 6, "{rows:?}");
    for n in &rows {
        assert!(sessions.join(n).is_file(), "{n}");
    }
    assert_integrity(&db, "");
}

/// A prune with nothing due says so (a silent dry run would read as a failure), on stderr,
/// and `-q` silences it for cron.
#[test]
fn nothing_to_prune_is_said_unless_quiet() {
    let store = Store::copy("live");
    let run = |quiet: bool| {
        let mut cmd = store.cmd();
        if quiet {
            cmd.arg("-q");
        }
        cmd.args(["prune", "--all-agents", "--older-than", "1d", "--dry-run"])
            // A year before the fixture's report: nothing is a day old yet.
            .env("OPENCLAW_SESSIONS_NOW_MS", "1764547200000")
            .output()
            .unwrap()
    };
    let said = run(false);
    assert!(said.status.success());
    assert!(said.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&said.stderr);
    assert!(
        stderr.starts_with("nothing to prune: ") && stderr.ends_with(" kept in 3 agents\n"),
        "{stderr}"
    );
    let quiet = run(true);
    assert!(quiet.status.success());
    assert!(quiet.stdout.is_empty() && quiet.stderr.is_empty());
}

/// README.md, "Pruning from cron": the crontab lines, verbatim, run as cron runs them (`/bin/sh
/// -c`, an environment of only `PATH=/usr/bin:/bin` and `HOME`, the binary installed in
/// `$HOME/.cargo/bin`). A first run does what is due; a second one prints nothing on either
/// stream and exits 0. On a store whose agents still wait for `migrate legacy`, the warning that
/// needs a human stays on stderr, every night.
#[test]
fn the_readmes_cron_lines_run_verbatim_and_print_nothing_when_nothing_is_due() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("## Pruning from cron").unwrap();
    let section = &readme[start..];
    let section = &section[..section[3..].find("\n## ").unwrap()];
    let lines: Vec<&str> = section
        .lines()
        .filter(|l| {
            let fields: Vec<&str> = l.split(' ').take(5).collect();
            fields.len() == 5
                && fields
                    .iter()
                    .all(|f| f.chars().all(|c| c.is_ascii_digit() || "*/,-".contains(c)))
                && l.contains("openclaw-sessions")
        })
        .collect();
    assert_eq!(lines.len(), 2, "{section}");
    let binary = assert_cmd::cargo::cargo_bin("openclaw-sessions");
    for which in ["live", "legacy"] {
        let store = Store::copy(which);
        let home = store.dir.path();
        std::fs::create_dir_all(home.join(".cargo/bin")).unwrap();
        std::os::unix::fs::symlink(&binary, home.join(".cargo/bin/openclaw-sessions")).unwrap();
        for line in &lines {
            // The five time fields, then the command cron hands to the shell.
            let command = line.splitn(6, ' ').nth(5).unwrap();
            let run = || {
                std::process::Command::new("env")
                    .args(["-i", "PATH=/usr/bin:/bin"])
                    .arg(format!("HOME={}", home.display()))
                    .args(["/bin/sh", "-c", command])
                    .current_dir(home)
                    .output()
                    .unwrap()
            };
            let first = run();
            assert_eq!(
                first.status.code(),
                Some(0),
                "{which}: {command}: {first:?}"
            );
            let second = run();
            assert_eq!(
                second.status.code(),
                Some(0),
                "{which}: {command}: {second:?}"
            );
            assert!(second.stdout.is_empty(), "{which}: {command}: {second:?}");
            let stderr = String::from_utf8_lossy(&second.stderr);
            if which == "live" {
                assert!(stderr.is_empty(), "{which}: {command}: {stderr}");
            } else if command.contains(" prune ") {
                assert!(
                    stderr.starts_with("warning: ") && stderr.contains("migrate legacy"),
                    "{which}: {command}: {stderr}"
                );
            }
        }
    }
}

/// The plan's headline counts each action; a run ends with the totals of what it did; a
/// budget below what the schema alone takes is refused before anything changes.
#[test]
fn plans_and_runs_count_each_action_and_a_budget_below_the_schema_is_refused() {
    let store = budget_store();
    let out = store
        .cmd()
        .args(["--agent", "research", "prune", "-n"])
        .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
        .output()
        .unwrap();
    let plan = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        plan.starts_with("Archive 2 and delete 4 sessions"),
        "{plan}"
    );
    let (code, _, stdout) = prune(&store, &["--agent", "research", "--yes"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("did delete"), "{stdout}");
    assert!(
        stdout
            .lines()
            .last()
            .is_some_and(|l| l == "pruned: archived 2 and deleted 4 sessions"),
        "{stdout}"
    );
    // A budget of 10 bytes: refused (exit 2), naming the least budget; nothing changed.
    let before = checksums(&store.state());
    let out = store
        .cmd()
        .args([
            "--agent",
            "research",
            "prune",
            "--yes",
            "--max-disk-bytes",
            "10",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    expect_exit(&out, 2);
    assert!(stderr.contains("schema alone"), "{stderr}");
    assert_eq!(checksums(&store.state()), before);
}

/// On a terminal a run shows its progress (as `migrate legacy` does), through the library's
/// Progress callback, and ends with its totals.
#[test]
fn prune_on_a_terminal_shows_progress_and_totals() {
    let store = Store::copy("live");
    let bin = assert_cmd::cargo::cargo_bin("openclaw-sessions");
    let line = format!(
        "'{}' --state-dir '{}' --all-agents prune --yes",
        bin.display(),
        store.state().display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &line, "/dev/null"])
        .env("HOME", store.dir.path())
        .env("NO_COLOR", "1")
        .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
        .env("OPENCLAW_SESSIONS_APPLY_BATCH", "1")
        .output()
        .expect("util-linux `script` runs a command on a pseudo-terminal");
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{screen}");
    assert!(screen.contains("pruning"), "{screen}");
    assert!(screen.contains("pruned: archived "), "{screen}");
}

/// Every deletion with an archive keeps the entry (prune's removals too, through the one
/// delete pipeline), and the disk budget removes a kept entry with its archive.
#[test]
fn prune_keeps_deleted_entries_and_the_budget_removes_them_with_their_archives() {
    let store = Store::copy("live");
    let kept_dir = store
        .state()
        .join("openclaw-sessions-deleted")
        .join("research");
    let kept = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(&kept_dir)
            .map(|d| {
                d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    };
    let (code, done, _) = prune(&store, &["--agent", "research", "--yes", "--json"]);
    assert_eq!(code, 0, "{done}");
    let deleted = done["data"]["agents"][0]["deleted"].clone();
    let n = deleted.as_array().map_or(0, Vec::len);
    assert!(n > 0, "{done}");
    assert_eq!(
        kept().len(),
        n,
        "one kept entry per deleted session: {:?}",
        kept()
    );
    let listed = store.json_ok(["--agent", "research", "archives", "list", "--json"]);
    let with_entry: Vec<String> = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| !a["keptEntry"].is_null())
        .map(|a| format!("{}.entry.json", a["name"].as_str().unwrap()))
        .collect();
    assert_eq!(with_entry.len(), n, "{listed}");
    // A budget that needs every older archive's room: each goes with its kept entry.
    let before = kept();
    let (code, done, _) = prune(
        &store,
        &[
            "--agent",
            "research",
            "--yes",
            "--json",
            "--max-disk-bytes",
            "700kib",
        ],
    );
    assert_eq!(code, 0, "{done}");
    let removed: Vec<String> = done["data"]["agents"][0]["budget"]["removed"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["step"] == "archive")
        .map(|r| format!("{}.entry.json", r["name"].as_str().unwrap()))
        .collect();
    assert!(
        removed.iter().any(|n| before.contains(n)),
        "the budget removed no archive with a kept entry: {done}"
    );
    let left = kept();
    for name in &removed {
        assert!(!left.contains(name), "{name} outlived its archive");
    }
    let listed = store.json_ok(["--agent", "research", "archives", "list", "--json"]);
    let still: usize = listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| !a["keptEntry"].is_null())
        .count();
    assert_eq!(still, left.len(), "{listed}");
}

/// `du` shows the bytes the disk budget counts (prune's `diskBytes`) beside its total, and a
/// budget plan shows every removal the budget makes (never among the lines past the plan's
/// first 20 that only -v shows; this fixture's plans are shorter than that).
#[test]
fn du_shows_what_the_budget_counts_and_the_budget_plan_shows_every_removal() {
    let store = Store::copy("live");
    let du = store.json_ok(["--agent", "research", "du", "--json"]);
    let counted = du["data"]["agents"][0]["budgetBytes"].as_u64().unwrap();
    let human = store.run_ok(["--agent", "research", "du"]);
    let human = String::from_utf8_lossy(&human.stdout).to_string();
    let shown = openclaw_sessions::units::format_bytes(counted);
    assert!(human.contains(&format!("{shown} of ")), "{shown}: {human}");
    let args = [
        "--agent",
        "research",
        "prune",
        "--dry-run",
        "--max-disk-bytes",
        "700kib",
    ];
    let plan = store.run_ok(args);
    let plan = String::from_utf8_lossy(&plan.stdout).to_string();
    let doc = json(&store.cmd().args(args).arg("--json").output().unwrap());
    let removed: Vec<String> = doc["data"]["agents"][0]["budget"]["removed"]
        .as_array()
        .unwrap_or_else(|| panic!("{doc}"))
        .iter()
        .map(|r| r["name"].as_str().unwrap().to_string())
        .collect();
    assert!(!removed.is_empty(), "{doc}");
    for name in &removed {
        assert!(
            plan.contains(name.as_str()),
            "{name} not in the plan:\n{plan}"
        );
    }
}
