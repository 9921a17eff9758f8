//! `reclaim` and `prune --reclaim`: free pages given back, the same rows after, a refusal when
//! the disk is short, and a valid store after a full disk or `kill -9` at any moment.

use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::Connection;
use serde_json::Value;

use crate::common::{
    assert_foreign_keys, assert_integrity, assert_refused_for_space, checksums, json,
    limit_file_size, std_bin, Store,
};

const AGENTS: [&str; 3] = ["main", "work", "research"];

fn pragma(db: &Connection, name: &str) -> i64 {
    db.query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
        .unwrap()
}

/// Free pages in `agent`'s database: a table of `bytes` of filler, dropped again.
fn free_pages(store: &Store, agent: &str, bytes: usize) {
    let db = store.writable(agent);
    db.execute_batch("CREATE TABLE filler(b BLOB)").unwrap();
    for _ in 0..bytes / 8192 {
        db.execute("INSERT INTO filler VALUES (randomblob(8192))", [])
            .unwrap();
    }
    db.execute_batch("DROP TABLE filler; PRAGMA wal_checkpoint(TRUNCATE);")
        .unwrap();
}

/// The database and its WAL.
fn bytes(db: &Path) -> u64 {
    let wal = db.with_extension("sqlite-wal");
    std::fs::metadata(db).unwrap().len() + std::fs::metadata(wal).map_or(0, |m| m.len())
}

fn integrity(store: &Store, step: &str) {
    for agent in AGENTS {
        let db = store.writable(agent);
        assert_integrity(&db, &format!("{step}: {agent}"));
        assert_foreign_keys(&db, &format!("{step}: {agent}"));
    }
}

/// Every session and transcript as our own reader lists them.
fn listing(store: &Store) -> Value {
    let out = store.run_ok(["list", "--all-agents", "--json"]);
    json(&out)["data"].clone()
}

fn reclaim(store: &Store, args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    store
        .cmd()
        .arg("reclaim")
        .args(args)
        .envs(env.iter().copied())
        .output()
        .unwrap()
}

#[test]
fn gives_back_at_least_the_free_pages_and_keeps_every_row() {
    let store = Store::copy("live");
    free_pages(&store, "work", 2 << 20);
    let before_list = listing(&store);
    let db = store.agent_db("work");
    let (free, page) = {
        let c = store.writable("work");
        (pragma(&c, "freelist_count"), pragma(&c, "page_size"))
    };
    assert!(free >= 256, "{free} free pages");
    let before = bytes(&db);

    // The dry run names the work and changes nothing.
    let sums = checksums(&store.state());
    let out = reclaim(&store, &["--all-agents", "--dry-run", "--json"], &[]);
    assert!(out.status.success());
    let doc = json(&out);
    let work = &doc["data"]["agents"][1];
    assert_eq!(work["agentId"], "work");
    assert_eq!(work["freePages"], free);
    assert_eq!(work["freeBytes"], free * page);
    assert_eq!(work["method"], "incremental-vacuum");
    assert_eq!(checksums(&store.state()), sums, "the dry run changed files");

    let out = reclaim(&store, &["--agent", "work", "--json"], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let doc = json(&out);
    let work = &doc["data"]["agents"][0];
    let after = bytes(&db);
    assert!(
        before - after >= (free * page) as u64,
        "{before} -> {after}, {free} free pages of {page}"
    );
    assert_eq!(work["bytesBefore"], before);
    assert_eq!(work["bytesAfter"], after);
    assert_eq!(work["reclaimedBytes"], before - after);
    assert_eq!(work["freePagesAfter"], 0);
    assert_eq!(pragma(&store.writable("work"), "freelist_count"), 0);
    integrity(&store, "after reclaim");
    assert_eq!(listing(&store), before_list);
}

#[test]
fn a_database_without_incremental_vacuum_is_rebuilt_and_left_incremental() {
    let store = Store::copy("live");
    store
        .writable("main")
        .execute_batch("PRAGMA auto_vacuum = NONE; VACUUM;")
        .unwrap();
    free_pages(&store, "main", 1 << 20);
    let c = store.writable("main");
    assert_eq!(pragma(&c, "auto_vacuum"), 0);
    let page = pragma(&c, "page_size");
    let used = pragma(&c, "page_count") - pragma(&c, "freelist_count");
    drop(c);
    let before_list = listing(&store);
    let before = bytes(&store.agent_db("main"));
    let out = reclaim(&store, &["--json"], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(json(&out)["data"]["agents"][0]["method"], "vacuum");
    let after = bytes(&store.agent_db("main"));
    // Every free page given back; an incremental database adds one pointer-map page per
    // page_size / 5 pages.
    let pointer_maps = used / (page / 5) + 1;
    assert!(
        after <= ((used + pointer_maps) * page) as u64,
        "{before} -> {after}: {used} used pages of {page}"
    );
    let c = store.writable("main");
    assert_eq!(pragma(&c, "auto_vacuum"), 2);
    assert_eq!(pragma(&c, "freelist_count"), 0);
    drop(c);
    integrity(&store, "after vacuum");
    assert_eq!(listing(&store), before_list);
}

#[test]
fn nothing_to_give_back_is_quiet() {
    let store = Store::copy("imported");
    let agents = store.state().join("agents");
    let sums = checksums(&agents);
    let out = reclaim(&store, &["--all-agents"], &[]);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(checksums(&agents), sums);
}

/// A dry run with nothing to give back says so in words (was: nothing printed, on a store
/// without free pages and on a state dir without agents alike); `--json` is an empty result;
/// exit 0 throughout.
#[test]
fn a_dry_run_with_nothing_to_give_back_says_so() {
    let store = Store::copy("imported");
    let out = reclaim(&store, &["--all-agents", "-n"], &[]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("nothing to reclaim: no free pages or WAL to truncate in"),
        "{stderr}"
    );

    let dir = tempfile::tempdir().unwrap();
    let state = dir.path().join(".openclaw");
    std::fs::create_dir_all(&state).unwrap();
    let run = |args: &[&str]| {
        crate::common::bin()
            .env("HOME", dir.path())
            .arg("--state-dir")
            .arg(&state)
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["reclaim", "-n"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "nothing to reclaim: no agent database in this state dir\n"
    );
    let out = run(&["--json", "reclaim", "-n"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let doc = json(&out);
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["data"]["agents"], Value::Array(vec![]));
    // A real run stays quiet for cron.
    let out = run(&["reclaim"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn a_short_disk_refuses_and_changes_nothing() {
    let store = Store::copy("live");
    free_pages(&store, "research", 1 << 20);
    let sums = checksums(&store.state());
    let out = reclaim(
        &store,
        &["--agent", "research", "--json"],
        &[("OPENCLAW_SESSIONS_FREE_BYTES", "4096")],
    );
    assert_refused_for_space(
        &store,
        out.status.code(),
        &json(&out),
        &["not enough free disk", "research"],
        &sums,
    );
    // The dry run says the same before anything is tried.
    let out = reclaim(
        &store,
        &["--agent", "research", "--dry-run"],
        &[("OPENCLAW_SESSIONS_FREE_BYTES", "4096")],
    );
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not enough free disk"));
}

/// A store with much to give back, for the fault ladders: 6 MiB free in `main`.
fn roomy() -> Store {
    let store = Store::copy("live");
    free_pages(&store, "main", 6 << 20);
    store
}

fn command(store: &Store, extra: &[&str], env: &[(&str, &str)]) -> std::process::Command {
    let mut cmd = std_bin();
    cmd.env("HOME", store.dir.path())
        .envs(env.iter().copied())
        .arg("--state-dir")
        .arg(store.state())
        .arg("--json")
        .arg("reclaim")
        .args(extra);
    cmd
}

/// After a fault: sound, the same rows, and a re-run gives back every free page.
fn recovers(store: &Store, listed: &Value, step: &str) {
    integrity(store, step);
    assert_eq!(&listing(store), listed, "{step}: rows changed");
    let out = command(store, &[], &[]).output().unwrap();
    assert!(
        out.status.success(),
        "{step}: re-run: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(
        pragma(&store.writable("main"), "freelist_count"),
        0,
        "{step}"
    );
    integrity(store, &format!("{step}, re-run"));
    assert_eq!(
        &listing(store),
        listed,
        "{step}: rows changed by the re-run"
    );
}

#[test]
fn a_full_disk_at_any_size_leaves_a_valid_store() {
    let mut failed = 0;
    for limit in [
        0u64,
        1 << 10,
        8 << 10,
        64 << 10,
        256 << 10,
        1 << 20,
        4 << 20,
        64 << 20,
    ] {
        let step = format!("file size limit {limit}");
        let store = roomy();
        let listed = listing(&store);
        let mut cmd = command(&store, &[], &[]);
        limit_file_size(&mut cmd, limit);
        let out = cmd.output().unwrap();
        if !out.status.success() {
            failed += 1;
            assert_ne!(out.status.code(), Some(101), "{step}: a panic");
            let doc = json(&out);
            let code = doc["error"]["code"].as_str().unwrap_or_default();
            assert!(matches!(code, "IO" | "SQLITE"), "{step}: {doc}");
        }
        recovers(&store, &listed, &step);
    }
    assert!(failed >= 3, "the limits bit only {failed} times");
}

#[test]
fn killed_at_every_crash_point_and_pass_a_rerun_finishes() {
    // Passes of 64 pages: many crash points on the way.
    for n in 1..=12 {
        let step = format!("crash after point {n}");
        let store = roomy();
        let listed = listing(&store);
        let status = command(
            &store,
            &[],
            &[
                ("OPENCLAW_SESSIONS_APPLY_BATCH", "64"),
                ("OPENCLAW_SESSIONS_CRASH_AFTER", &n.to_string()),
            ],
        )
        .output()
        .unwrap()
        .status;
        assert!(!status.success(), "{step}: not stopped");
        recovers(&store, &listed, &step);
    }
    for (point, prepare) in [
        ("reclaim-before-vacuum", roomy as fn() -> Store),
        ("reclaim-after-vacuum", || {
            let store = Store::copy("live");
            store
                .writable("main")
                .execute_batch("PRAGMA auto_vacuum = NONE; VACUUM;")
                .unwrap();
            free_pages(&store, "main", 1 << 20);
            store
        }),
    ] {
        let store = prepare();
        let listed = listing(&store);
        let status = command(&store, &[], &[("OPENCLAW_SESSIONS_CRASH_AT", point)])
            .output()
            .unwrap()
            .status;
        assert!(!status.success(), "{point}: not stopped");
        recovers(&store, &listed, point);
    }
}

#[test]
fn kill_9_at_moments_spread_over_a_run() {
    const KILLS: u32 = 12;
    // A database worth rebuilding: a full VACUUM of 8 MiB kept and 8 MiB freed.
    let prepare = || {
        let store = Store::copy("live");
        let db = store.writable("main");
        db.execute_batch("PRAGMA auto_vacuum = NONE; VACUUM; CREATE TABLE kept(b BLOB)")
            .unwrap();
        for _ in 0..1024 {
            db.execute("INSERT INTO kept VALUES (randomblob(8192))", [])
                .unwrap();
        }
        drop(db);
        free_pages(&store, "main", 8 << 20);
        store
    };
    let length = (0..3)
        .map(|_| {
            let store = prepare();
            let start = Instant::now();
            assert!(command(&store, &[], &[]).output().unwrap().status.success());
            start.elapsed()
        })
        .min()
        .unwrap();
    let mut killed = 0;
    for i in 0..KILLS {
        let store = prepare();
        let listed = listing(&store);
        let mut child = command(&store, &[], &[])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(length * i / KILLS);
        let _ = child.kill();
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        if status.signal() == Some(libc::SIGKILL) {
            killed += 1;
        } else {
            assert!(status.success(), "kill {i}: failed on its own: {status}");
        }
        recovers(
            &store,
            &listed,
            &format!("kill at {:?}", length * i / KILLS),
        );
    }
    eprintln!("reclaim: killed {killed} of {KILLS} runs (a run takes {length:?})");
    assert!(killed >= KILLS / 3, "only {killed} runs were killed");
    let _ = Duration::ZERO;
}

#[test]
fn prune_reclaim_gives_back_what_the_prune_freed() {
    let store = Store::copy("live");
    let db = store.agent_db("main");
    let before = bytes(&db);
    let out = store
        .cmd()
        .args([
            "prune",
            "--agent",
            "main",
            "--older-than",
            "1d",
            "--reclaim",
            "--yes",
            "--json",
        ])
        .env("OPENCLAW_SESSIONS_NOW_MS", "1795994700000")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let doc = json(&out);
    let agent = &doc["data"]["agents"][0];
    assert!(!agent["deleted"].as_array().unwrap().is_empty(), "{agent}");
    let r = &doc["data"]["reclaim"]["agents"][0];
    assert_eq!(r["agentId"], "main");
    assert!(r["freePages"].as_i64().unwrap() > 0, "{r}");
    assert_eq!(r["freePagesAfter"], 0);
    assert_eq!(pragma(&store.writable("main"), "freelist_count"), 0);
    assert!(bytes(&db) <= before);
    integrity(&store, "prune --reclaim");
}

/// A WAL grown past the database's live pages, as a Gateway killed after rows larger than
/// the autocheckpoint leaves it: six view_image results of 1 MB each appended to
/// `agent:main:pinned-notes` and five removed again, each its own commit with the
/// autocheckpoint off, the database file as it was before them and every frame in the WAL.
/// Returns the session id and the seq of the one kept.
fn oversized_wal(store: &Store) -> (String, Vec<i64>) {
    let db_path = store.agent_db("main");
    let wal_path = db_path.with_extension("sqlite-wal");
    let saved_db = db_path.with_extension("saved");
    let saved_wal = db_path.with_extension("saved-wal");
    let db = store.writable("main");
    db.execute_batch("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;")
        .unwrap();
    let sid: String = db
        .query_row(
            "SELECT session_id FROM session_windows WHERE session_key = 'agent:main:pinned-notes' ORDER BY updated_at DESC LIMIT 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    let mut seqs = Vec::new();
    for i in 0..6u8 {
        let seq: i64 = db
            .query_row(
                "SELECT max(seq) + 1 FROM transcript_events WHERE session_id = ?1",
                [&sid],
                |r| r.get(0),
            )
            .unwrap();
        let data: String = (0..1_000_000)
            .map(|n| (b'A' + ((n + i as usize) % 26) as u8) as char)
            .collect();
        let event = serde_json::json!({
            "type": "message", "id": format!("img{i}"), "parentId": null,
            "timestamp": "2026-06-02T12:00:00.000Z",
            "message": {"role": "toolResult", "toolCallId": format!("call_{i}"),
                "toolName": "view_image",
                "content": [{"type": "image", "data": data, "mimeType": "image/png"}],
                "isError": false, "timestamp": 1780401600000i64}
        })
        .to_string();
        db.execute(
            "INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_utf8_bytes) VALUES (?1, ?2, ?3, 1800000000000, ?4)",
            rusqlite::params![sid, seq, event, event.len() as i64],
        )
        .unwrap();
        seqs.push(seq);
    }
    for seq in seqs.split_off(1) {
        db.execute(
            "DELETE FROM transcript_events WHERE session_id = ?1 AND seq = ?2",
            rusqlite::params![sid, seq],
        )
        .unwrap();
    }
    std::fs::copy(&db_path, &saved_db).unwrap();
    std::fs::copy(&wal_path, &saved_wal).unwrap();
    drop(db);
    std::fs::rename(&saved_db, &db_path).unwrap();
    std::fs::rename(&saved_wal, &wal_path).unwrap();
    let _ = std::fs::remove_file(db_path.with_extension("sqlite-shm"));
    assert!(std::fs::metadata(&wal_path).unwrap().len() > 6_000_000);
    (sid, seqs)
}

fn wal_findings(store: &Store) -> Vec<Value> {
    let out = store.cmd().args(["doctor", "--json"]).output().unwrap();
    let doc = json(&out);
    doc["data"]["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("{doc}"))
        .iter()
        .filter(|f| f["check"] == "wal-size")
        .cloned()
        .collect()
}

#[test]
fn doctor_names_an_oversized_wal_and_reclaim_checkpoints_and_truncates_it() {
    let store = Store::copy("live");
    let (sid, seqs) = oversized_wal(&store);
    let wal = store.agent_db("main").with_extension("sqlite-wal");
    let found = wal_findings(&store);
    assert_eq!(found.len(), 1, "{found:?}");
    let f = &found[0];
    assert_eq!(f["severity"], "warning");
    assert_eq!(f["agentId"], "main");
    assert_eq!(f["sessionKey"], "agent:main:pinned-notes");
    assert_eq!(f["sessionId"], sid);
    let message = f["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("seq {}", seqs[0]))
            || message.contains(&format!("seq {}", seqs[3])),
        "{message}"
    );
    assert!(f["hint"].as_str().unwrap().contains("reclaim"));
    let before_list = listing(&store);

    // The dry run names the checkpoint and changes nothing.
    let sums = checksums(&store.state());
    let out = reclaim(&store, &["--agent", "main", "--dry-run", "--json"], &[]);
    assert!(out.status.success());
    let doc = json(&out);
    assert!(
        doc["data"]["agents"][0]["walBytes"].as_u64().unwrap() > 4_000_000,
        "{doc}"
    );
    let out = reclaim(&store, &["--agent", "main", "--dry-run"], &[]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("checkpoint and truncate the WAL"), "{text}");
    assert_eq!(checksums(&store.state()), sums);

    let out = reclaim(&store, &["--agent", "main", "--json"], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let doc = json(&out);
    assert_eq!(doc["data"]["agents"][0]["walAfter"], 0, "{doc}");
    assert_eq!(std::fs::metadata(&wal).map_or(0, |m| m.len()), 0);
    integrity(&store, "after the checkpoint");
    assert_eq!(listing(&store), before_list);
    // Every row of the WAL is in the database now.
    let n: i64 = store
        .writable("main")
        .query_row(
            "SELECT count(*) FROM transcript_events WHERE session_id = ?1 AND seq >= ?2",
            rusqlite::params![sid, seqs[0]],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(n, 1);
    assert!(wal_findings(&store).is_empty());
}

#[test]
fn an_oversized_wal_on_a_short_disk_is_refused_untouched() {
    let store = Store::copy("live");
    oversized_wal(&store);
    let sums = checksums(&store.state());
    let out = reclaim(
        &store,
        &["--agent", "main", "--json"],
        &[("OPENCLAW_SESSIONS_FREE_BYTES", "1048576")],
    );
    assert_refused_for_space(
        &store,
        out.status.code(),
        &json(&out),
        &["not enough free disk", "main"],
        &sums,
    );
}

#[test]
fn killed_after_the_checkpoint_a_rerun_finishes() {
    let store = Store::copy("live");
    oversized_wal(&store);
    free_pages(&store, "research", 1 << 20);
    let listed = listing(&store);
    let status = command(
        &store,
        &["--all-agents"],
        &[("OPENCLAW_SESSIONS_CRASH_AT", "reclaim-after-checkpoint")],
    )
    .output()
    .unwrap()
    .status;
    assert!(!status.success(), "not stopped");
    recovers(&store, &listed, "reclaim-after-checkpoint");
    let wal = store.agent_db("main").with_extension("sqlite-wal");
    assert_eq!(std::fs::metadata(&wal).map_or(0, |m| m.len()), 0);
}
