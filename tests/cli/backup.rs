//! Snapshots: create, list, verify, restore; crashes and a full disk during create.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::common::{assert_integrity, expect_exit, json, Store, FIXTURES};

fn snapshots(repo: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(repo)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    v.sort();
    v
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[test]
fn create_list_verify() {
    let store = Store::copy("live");
    let repo = store.dir.path().join("repo");
    let out = store
        .cmd()
        .args([
            "backup",
            "create",
            "--all-agents",
            "--verify",
            "--json",
            "--repository",
        ])
        .arg(&repo)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let doc = json(&out);
    let made = doc["data"]["snapshots"].as_array().unwrap();
    assert_eq!(made.len(), 3);
    assert_eq!(mode(&repo), 0o700);
    for s in made {
        let dir = PathBuf::from(s["path"].as_str().unwrap());
        let m = &s["manifest"];
        assert_eq!(m["schemaVersion"], 1);
        assert_eq!(m["snapshotId"], dir.file_name().unwrap().to_str().unwrap());
        assert_eq!(m["database"]["role"], "agent");
        assert_eq!(m["database"]["userVersion"], 23);
        assert_eq!(m["database"]["basename"], "openclaw-agent.sqlite");
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&dir.join("database.sqlite")), 0o600);
        assert_eq!(mode(&dir.join("manifest.json")), 0o600);
        let db = rusqlite::Connection::open_with_flags(
            dir.join("database.sqlite"),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .unwrap();
        let jm: String = db
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(jm, "delete");
        let n: i64 = db
            .query_row("SELECT count(*) FROM session_nodes", [], |r| r.get(0))
            .unwrap();
        assert!(n >= 14);
    }
    let listed = json(
        &store
            .cmd()
            .args(["backup", "list", "--json", "--repository"])
            .arg(&repo)
            .output()
            .unwrap(),
    );
    let states: Vec<&str> = listed["data"]["snapshots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["complete"; 3]);
    // OpenClaw's own snapshot verifies too.
    let theirs = std::fs::read_dir(format!("{FIXTURES}/snapshot"))
        .unwrap()
        .next()
        .unwrap()
        .unwrap()
        .path();
    let out = store
        .cmd()
        .args(["backup", "verify"])
        .arg(&theirs)
        .args(snapshots(&repo))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn verify_reports_damage_with_exit_3() {
    let store = Store::copy("live");
    let repo = store.dir.path().join("repo");
    store
        .cmd()
        .args(["backup", "create", "--repository"])
        .arg(&repo)
        .output()
        .unwrap();
    let snap = snapshots(&repo).remove(0);
    let db = snap.join("database.sqlite");
    let mut bytes = std::fs::read(&db).unwrap();
    bytes[5000] ^= 0x55;
    std::fs::write(&db, &bytes).unwrap();
    std::fs::write(snap.join("extra.txt"), "x").unwrap();
    let out = store
        .cmd()
        .args(["backup", "verify", "--json"])
        .arg(&snap)
        .output()
        .unwrap();
    expect_exit(&out, 3);
    let problems = json(&out)["data"]["results"][0]["problems"].to_string();
    assert!(
        problems.contains("hash mismatch") && problems.contains("extra.txt"),
        "{problems}"
    );
}

#[test]
fn restore_fresh_and_refusals() {
    let store = Store::copy("live");
    let repo = store.dir.path().join("repo");
    store
        .cmd()
        .args(["backup", "create", "--repository"])
        .arg(&repo)
        .output()
        .unwrap();
    let snap = snapshots(&repo).remove(0);
    let target = store.dir.path().join("restored.sqlite");
    let out = store
        .cmd()
        .args(["backup", "restore"])
        .arg(&snap)
        .arg("--target")
        .arg(&target)
        .output()
        .unwrap();
    expect_exit(&out, 0);
    assert_eq!(
        std::fs::read(&target).unwrap(),
        std::fs::read(snap.join("database.sqlite")).unwrap()
    );
    // An existing file, or only a sidecar of the target: TARGET_EXISTS, nothing written.
    let again = store
        .cmd()
        .args(["backup", "restore", "--json"])
        .arg(&snap)
        .arg("--target")
        .arg(&target)
        .output()
        .unwrap();
    expect_exit(&again, 5);
    assert_eq!(json(&again)["error"]["code"], "TARGET_EXISTS");
    let fresh = store.dir.path().join("fresh.sqlite");
    std::fs::write(store.dir.path().join("fresh.sqlite-wal"), "").unwrap();
    let side = store
        .cmd()
        .args(["backup", "restore"])
        .arg(&snap)
        .arg("--target")
        .arg(&fresh)
        .output()
        .unwrap();
    expect_exit(&side, 5);
    assert!(!fresh.exists());
    // Through a symlinked directory: UNSAFE_PATH.
    let real = store.dir.path().join("real");
    std::fs::create_dir(&real).unwrap();
    std::os::unix::fs::symlink(&real, store.dir.path().join("link")).unwrap();
    let via = store
        .cmd()
        .args(["backup", "restore", "--json"])
        .arg(&snap)
        .arg("--target")
        .arg(store.dir.path().join("link/x.sqlite"))
        .output()
        .unwrap();
    expect_exit(&via, 5);
    assert_eq!(json(&via)["error"]["code"], "UNSAFE_PATH");
    assert!(std::fs::read_dir(&real).unwrap().next().is_none());
}

#[test]
fn restore_in_place_snapshots_first_and_swaps() {
    let store = Store::copy("live");
    let repo = store.dir.path().join("repo");
    store
        .cmd()
        .args(["backup", "create", "--repository"])
        .arg(&repo)
        .output()
        .unwrap();
    let snap = snapshots(&repo).remove(0);
    assert!(store
        .cmd()
        .args(["delete", "agent:main:pinned-notes", "--yes"])
        .output()
        .unwrap()
        .status
        .success());
    let out = store
        .cmd()
        .args(["backup", "restore", "--in-place", "--yes", "--json"])
        .arg(&snap)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let previous = PathBuf::from(json(&out)["data"]["previous"].as_str().unwrap());
    assert!(
        previous.join("manifest.json").exists(),
        "the replaced database was snapshotted first"
    );
    let listed = json(&store.cmd().args(["list", "--json"]).output().unwrap());
    assert!(listed["data"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["sessionKey"] == "agent:main:pinned-notes"));
    for s in ["-wal", "-shm", "-journal"] {
        let mut p = store.agent_db("main").into_os_string();
        p.push(s);
        assert!(
            !PathBuf::from(p).exists(),
            "{s} left beside the restored file"
        );
    }
    // A hard-linked live database is refused.
    std::fs::hard_link(
        store.agent_db("main"),
        store.dir.path().join("alias.sqlite"),
    )
    .unwrap();
    let linked = store
        .cmd()
        .args(["backup", "restore", "--in-place", "--yes", "--json"])
        .arg(&snap)
        .output()
        .unwrap();
    expect_exit(&linked, 5);
    assert_eq!(json(&linked)["error"]["code"], "UNSAFE_PATH");
}

#[test]
fn crashes_never_publish_a_half_made_snapshot() {
    for point in ["backup-after-copy", "backup-pending"] {
        let store = Store::copy("live");
        let repo = store.dir.path().join("repo");
        let out = store
            .cmd()
            .args(["backup", "create", "--repository"])
            .arg(&repo)
            .env("OPENCLAW_SESSIONS_CRASH_AT", point)
            .output()
            .unwrap();
        assert!(!out.status.success());
        let listed = json(
            &store
                .cmd()
                .args(["backup", "list", "--json", "--repository"])
                .arg(&repo)
                .output()
                .unwrap(),
        );
        // A staging directory is named apart, never as a snapshot.
        let snaps = listed["data"]["snapshots"].as_array().unwrap();
        let staging = listed["data"]["staging"].as_array().unwrap();
        assert!(
            !snaps.is_empty() || !staging.is_empty(),
            "{point}: the leftover is reported"
        );
        assert!(
            snaps.iter().all(|s| s["state"] != "complete"),
            "{point}: {snaps:?}"
        );
        for path in snaps.iter().map(|s| &s["path"]).chain(staging) {
            let v = store
                .cmd()
                .args(["backup", "verify"])
                .arg(path.as_str().unwrap())
                .output()
                .unwrap();
            assert_eq!(v.status.code(), Some(3), "{point}");
        }
        // The next run still works.
        assert!(store
            .cmd()
            .args(["backup", "create", "--repository"])
            .arg(&repo)
            .output()
            .unwrap()
            .status
            .success());
    }
}

#[test]
fn a_full_disk_is_an_io_error_and_leaves_no_snapshot() {
    let store = Store::copy("live");
    let repo = store.dir.path().join("repo");
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("openclaw-sessions"));
    cmd.arg("--state-dir")
        .arg(store.state())
        .args(["backup", "create", "--json", "--repository"])
        .arg(&repo);
    // A 256 KiB file size limit: writes past it fail with EFBIG, as on a full disk.
    crate::common::limit_file_size(&mut cmd, 256 * 1024);
    let out = cmd.output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let doc = json(&out);
    assert_eq!(doc["error"]["code"], "IO", "{doc}");
    assert!(
        snapshots(&repo).is_empty(),
        "nothing that looks like a snapshot: {:?}",
        snapshots(&repo)
    );
}

#[test]
fn snapshot_beside_a_writer_is_a_consistent_prefix() {
    let store = Store::copy("live");
    let repo = store.dir.path().join("repo");
    let db_path = store.agent_db("main");
    let sid: String = store
        .writable("main")
        .query_row(
            "SELECT current_session_id FROM session_nodes WHERE session_key = 'agent:main:main'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let stop = stop.clone();
        let sid = sid.clone();
        std::thread::spawn(move || {
            let db = rusqlite::Connection::open(&db_path).unwrap();
            db.pragma_update(None, "journal_mode", "WAL").unwrap();
            db.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
            let mut seq: i64 = db
                .query_row(
                    "SELECT max(seq) FROM transcript_events WHERE session_id = ?1",
                    [&sid],
                    |r| r.get(0),
                )
                .unwrap();
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::SeqCst) || n < 50 {
                seq += 1;
                let ev = format!("{{\"type\":\"custom\",\"id\":\"w{seq}\",\"parentId\":null,\"timestamp\":\"2026-06-01T09:00:00.000Z\",\"customType\":\"t\"}}");
                db.execute("INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?1, ?2, ?3, 0, ?4)", rusqlite::params![sid, seq, ev, ev.len() as i64]).unwrap();
                n += 1;
            }
            n
        })
    };
    std::thread::sleep(std::time::Duration::from_millis(50));
    for _ in 0..3 {
        let out = store
            .cmd()
            .args(["backup", "create", "--verify", "--repository"])
            .arg(&repo)
            .output()
            .unwrap();
        expect_exit(&out, 0);
    }
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    let written = writer.join().unwrap();
    assert!(written >= 50);
    for snap in snapshots(&repo) {
        let db = rusqlite::Connection::open_with_flags(
            snap.join("database.sqlite"),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .unwrap();
        let (min, max, count): (i64, i64, i64) = db
            .query_row(
                "SELECT min(seq), max(seq), count(*) FROM transcript_events WHERE session_id = ?1",
                [&sid],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(
            (min, count),
            (0, max + 1),
            "a contiguous prefix of the writes"
        );
    }
}

/// A snapshot is compact, and what the sanitizer drops leaves no free pages behind: the copy
/// is one `VACUUM INTO`, compacted once more only when the sanitizer changed it.
#[test]
fn snapshots_are_compact_and_sanitized() {
    let store = Store::copy("live");
    let state_db = store.state().join("state/openclaw.sqlite");
    {
        let conn = rusqlite::Connection::open(&state_db).unwrap();
        let tx = conn.unchecked_transaction().unwrap();
        for i in 0..2000 {
            tx.execute(
                "INSERT INTO state_leases (scope, lease_key, owner, payload_json, created_at, updated_at) VALUES ('gateway', ?1, 'pid:1', ?2, 1, 1)",
                rusqlite::params![format!("lease-{i}"), "x".repeat(300)],
            )
            .unwrap();
        }
        tx.commit().unwrap();
        conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .unwrap();
    }
    for global in [true, false] {
        let repo = store.dir.path().join(format!("repo-{global}"));
        let mut cmd = store.cmd();
        cmd.args(["backup", "create", "--json", "--repository"])
            .arg(&repo);
        if global {
            cmd.arg("--global");
        }
        let out = cmd.output().unwrap();
        expect_exit(&out, 0);
        let dir = PathBuf::from(json(&out)["data"]["snapshots"][0]["path"].as_str().unwrap());
        let db = rusqlite::Connection::open_with_flags(
            dir.join("database.sqlite"),
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
        )
        .unwrap();
        let free: i64 = db
            .query_row("PRAGMA freelist_count", [], |r| r.get(0))
            .unwrap();
        assert_eq!(free, 0, "global={global}");
        assert_integrity(&db, "");
        if global {
            let leases: i64 = db
                .query_row("SELECT count(*) FROM state_leases", [], |r| r.get(0))
                .unwrap();
            assert_eq!(leases, 0);
        }
    }
    // The live store keeps its leases: a snapshot never writes to its source.
    let conn = rusqlite::Connection::open_with_flags(
        &state_db,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let leases: i64 = conn
        .query_row("SELECT count(*) FROM state_leases", [], |r| r.get(0))
        .unwrap();
    assert_eq!(leases, 2000);
}

/// `backup create|list|verify` default to the admin's repository outside the state dir
/// (docs/SNAPSHOTS.md); `create` names the agent of each snapshot; `du` counts it.
#[test]
fn backup_defaults_to_the_admins_repository_outside_the_state_dir_and_du_counts_it() {
    let store = Store::copy("live");
    let repo = store.snapshot_repo();
    assert!(!repo.starts_with(store.state()));
    let out = store.run_ok(["--all-agents", "backup", "create"]);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let mut agents = Vec::new();
    for line in stdout.lines() {
        let (path, of) = line.split_once('\t').unwrap_or_else(|| panic!("{stdout}"));
        assert!(Path::new(path).starts_with(&repo), "{line}");
        assert!(Path::new(path).join("manifest.json").is_file(), "{line}");
        agents.push(of.to_string());
        assert!(
            stderr.contains(&format!("snapshot of {of}: {path}")),
            "{stderr}"
        );
    }
    agents.sort();
    assert_eq!(agents, ["agent main", "agent research", "agent work"]);
    let doc = store.json_ok(["backup", "create", "--agent", "work", "--json"]);
    assert_eq!(doc["data"]["snapshots"][0]["agentId"], "work", "{doc}");
    // list and verify find them without --repository.
    let listed = store.json_ok(["backup", "list", "--json"]);
    assert_eq!(
        listed["data"]["repositoryPath"].as_str().unwrap(),
        repo.to_str().unwrap()
    );
    let snapshots = listed["data"]["snapshots"].as_array().unwrap();
    assert_eq!(snapshots.len(), 4, "{listed}");
    let verified = store.json_ok(["backup", "verify", "--json"]);
    let results = verified["data"]["results"].as_array().unwrap();
    assert_eq!(results.len(), 4, "{verified}");
    assert!(results.iter().all(|r| r["ok"] == true), "{verified}");
    // A name as `backup list` shows it.
    let first = Path::new(snapshots[0]["path"].as_str().unwrap())
        .file_name()
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    store.run_ok(["backup", "verify", &first]);
    // du counts the repository, apart from the agents.
    let du = store.json_ok(["du", "--json"]);
    let bytes = du["data"]["snapshots"]["bytes"].as_u64().unwrap();
    assert!(bytes > 3 * 800_000, "{du}");
    assert_eq!(du["data"]["snapshots"]["files"], 8, "{du}");
    let human = String::from_utf8_lossy(&store.run_ok(["du"]).stdout).to_string();
    assert!(
        human.contains(&format!("snapshot repository {}: ", repo.display())),
        "{human}"
    );
    // An empty repository has nothing to verify: not found.
    let empty = store
        .cmd()
        .args(["backup", "verify", "--repository"])
        .arg(store.dir.path().join("none"))
        .output()
        .unwrap();
    expect_exit(&empty, 4);
}

/// `backup prune --keep N`: plan then apply, the newest N of each database kept (each
/// agent's, the global one), `--yes` needed without a terminal, nothing printed when nothing
/// is due; never a snapshot that is not complete, nor any of an agent where an interrupted
/// restore left its staging files; `--repository` names another repository; du counts less.
#[test]
fn backup_prune_keeps_the_newest_of_each_database() {
    let store = Store::copy("live");
    let repo = store.snapshot_repo();
    for _ in 0..3 {
        store.run_ok(["--all-agents", "backup", "create"]);
    }
    store.run_ok(["backup", "create", "--global"]);
    let listed = |repo: &Path| -> Vec<(String, String)> {
        let doc = json(
            &store
                .cmd()
                .args(["backup", "list", "--json", "--repository"])
                .arg(repo)
                .output()
                .unwrap(),
        );
        doc["data"]["snapshots"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["state"] == "complete")
            .map(|s| {
                let m = &s["manifest"]["database"];
                (
                    m["agentId"].as_str().unwrap_or("global").to_string(),
                    s["path"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let before = listed(&repo);
    assert_eq!(before.len(), 10);
    let du_before = store.json_ok(["du", "--json"])["data"]["snapshots"]["bytes"]
        .as_u64()
        .unwrap();
    // A snapshot being written (staging) and one a killed run left (no manifest): kept.
    let staging = repo.join(".tmp-2026-01-01T00-00-00-000Z-x");
    std::fs::create_dir_all(&staging).unwrap();
    let incomplete = repo.join("2026-01-01T00-00-00-000Z-incomplete");
    std::fs::create_dir_all(&incomplete).unwrap();
    // The dry run removes nothing and lists what the run removes.
    let dry = store.json_ok(["backup", "prune", "--keep", "1", "-n", "--json"]);
    assert_eq!(dry["data"]["dryRun"], true);
    let planned: Vec<String> = dry["data"]["removed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(planned.len(), 6, "{dry}");
    assert_eq!(listed(&repo), before);
    let human = store.run_ok(["backup", "prune", "--keep", "1", "--dry-run"]);
    let human = String::from_utf8_lossy(&human.stdout);
    assert!(human.starts_with("Remove 6 of 10 snapshots"), "{human}");
    // Without a terminal and without --yes: refused, nothing removed.
    store.run_code(["backup", "prune", "--keep", "1"], 2);
    assert_eq!(listed(&repo), before);
    store.run_code(["backup", "prune", "--keep", "0", "--yes"], 2);
    // An interrupted restore's staging files beside research's database: its snapshots stay.
    let research = store.agent_db("research");
    let leftover = research.parent().unwrap().join(".tmp-restore-killed");
    std::fs::create_dir_all(&leftover).unwrap();
    let done = store.json_ok(["backup", "prune", "--keep", "1", "--yes", "--json"]);
    assert_eq!(done["data"]["applied"], true, "{done}");
    let after = listed(&repo);
    let count = |who: &str| after.iter().filter(|(a, _)| a == who).count();
    assert_eq!((count("main"), count("work"), count("global")), (1, 1, 1));
    assert_eq!(count("research"), 3, "{done}");
    // The newest of each is the one kept.
    for who in ["main", "work"] {
        let newest = &before.iter().find(|(a, _)| a == who).unwrap().1;
        assert!(after.iter().any(|(_, p)| p == newest), "{who}");
    }
    assert!(staging.is_dir() && incomplete.is_dir());
    let du_after = store.json_ok(["du", "--json"])["data"]["snapshots"]["bytes"]
        .as_u64()
        .unwrap();
    assert!(du_after < du_before, "{du_after} >= {du_before}");
    // The interrupted run finished: research's older ones go too.
    std::fs::remove_dir_all(&leftover).unwrap();
    store.run_ok(["backup", "prune", "--keep", "1", "--yes"]);
    assert_eq!(listed(&repo).len(), 4);
    // Nothing due: nothing printed on either stream, exit 0.
    let quiet = store
        .cmd()
        .args(["backup", "prune", "--keep", "1", "--yes"])
        .output()
        .unwrap();
    assert!(quiet.status.success());
    assert!(
        quiet.stdout.is_empty() && quiet.stderr.is_empty(),
        "{quiet:?}"
    );
    // Another repository.
    let other = store.dir.path().join("other");
    for _ in 0..2 {
        store
            .cmd()
            .args(["backup", "create", "--agent", "work", "--repository"])
            .arg(&other)
            .output()
            .unwrap();
    }
    let out = store
        .cmd()
        .args(["backup", "prune", "--keep", "1", "--yes", "--repository"])
        .arg(&other)
        .output()
        .unwrap();
    expect_exit(&out, 0);
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("removed 1 snapshots"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(listed(&other).len(), 1);
    assert_eq!(listed(&repo).len(), 4);
}

/// kill -9 while a snapshot is being removed: what is left is a staging directory (never a
/// half-removed one that reads as a snapshot), and a re-run finishes.
#[test]
fn backup_prune_killed_midway_leaves_no_half_snapshot() {
    let store = Store::copy("live");
    let repo = store.snapshot_repo();
    for _ in 0..3 {
        store.run_ok(["backup", "create"]);
    }
    let status = crate::common::std_bin()
        .env("HOME", store.dir.path())
        .env("OPENCLAW_SESSIONS_CRASH_AT", "backup-prune-renamed")
        .arg("--state-dir")
        .arg(store.state())
        .args(["backup", "prune", "--keep", "1", "--yes"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(libc::SIGABRT));
    let doc = store.json_ok(["backup", "list", "--json"]);
    let snaps = doc["data"]["snapshots"].as_array().unwrap();
    assert!(snaps.iter().all(|s| s["state"] == "complete"), "{doc}");
    assert_eq!(snaps.len(), 2, "{doc}");
    assert_eq!(doc["data"]["staging"].as_array().unwrap().len(), 1, "{doc}");
    store.run_ok(["backup", "prune", "--keep", "1", "--yes"]);
    let doc = store.json_ok(["backup", "list", "--json"]);
    assert_eq!(
        doc["data"]["snapshots"].as_array().unwrap().len(),
        1,
        "{doc}"
    );
    let _ = repo;
}

/// A store that never had a snapshot taken has no default repository: nothing to prune, so a
/// nightly `backup prune` prints nothing and exits 0; a repository named that does not exist
/// is an error (a typo must not pass silently).
#[test]
fn backup_prune_of_a_store_without_snapshots_is_quiet() {
    let store = Store::copy("live");
    assert!(!store.snapshots_home().exists());
    let out = store.run_code(["backup", "prune", "--keep", "3", "--yes"], 0);
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{out:?}");
    store.run_code(
        [
            "backup",
            "prune",
            "--keep",
            "3",
            "--yes",
            "--repository",
            "no-such-repository",
        ],
        4,
    );
}

/// The README's monthly snapshot line, run verbatim as cron runs it, four times: each run
/// snapshots every agent and the repository keeps the newest 3 of each.
#[test]
fn the_readmes_snapshot_cron_line_keeps_the_newest_three() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme.find("## Snapshots from cron").unwrap();
    let line = readme[start..]
        .lines()
        .find(|l| l.starts_with("17 5 1 * * "))
        .expect("the cron line");
    let command = line.splitn(6, ' ').nth(5).unwrap();
    let store = Store::copy("live");
    let home = store.dir.path();
    std::fs::create_dir_all(home.join(".cargo/bin")).unwrap();
    std::os::unix::fs::symlink(
        assert_cmd::cargo::cargo_bin("openclaw-sessions"),
        home.join(".cargo/bin/openclaw-sessions"),
    )
    .unwrap();
    for _ in 0..4 {
        let out = std::process::Command::new("env")
            .args(["-i", "PATH=/usr/bin:/bin"])
            .arg(format!("HOME={}", home.display()))
            .args(["/bin/sh", "-c", command])
            .current_dir(home)
            .output()
            .unwrap();
        expect_exit(&out, 0);
    }
    assert_eq!(snapshots(&home.join("openclaw-snapshots")).len(), 9);
}
