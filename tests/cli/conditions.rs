//! Hostile conditions around a sound store: output nobody reads, databases that are not what
//! their place says, owners under other uids, bad input, leftovers of killed runs. (Signals
//! are in faults.rs, beside the other faults of a run.)

use std::collections::BTreeMap;
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::common::{checksums, expect_exit, json, std_bin, Store};
use crate::faults::{bulk_key, many_sessions};

/// The write end of a pipe whose read end is already closed: every write fails with EPIPE
/// (`cmd 2>&1 | true` once `true` has exited).
fn closed_pipe() -> Stdio {
    let mut fds = [0; 2];
    // SAFETY: pipe(2) fills both descriptors; each is owned exactly once below.
    assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
    let (read, write) = unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
    drop(read);
    Stdio::from(write)
}

/// The binary pointed at `store`, as a `std::process::Command` (its output can go anywhere).
fn std_cmd(store: &Store) -> std::process::Command {
    let mut c = std_bin();
    c.env("HOME", store.dir.path())
        .arg("--state-dir")
        .arg(store.state());
    c
}

/// `/dev/full`: every write fails with ENOSPC.
fn full_device() -> Stdio {
    Stdio::from(
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap(),
    )
}

#[test]
fn a_closed_or_full_stderr_never_panics_a_reader() {
    let store = Store::copy("live");
    for (name, args) in [
        ("status", vec!["status"]),
        ("a typo", vec!["stauts"]),
        ("a missing key", vec!["show", "agent:main:nope"]),
        ("doctor", vec!["doctor", "-v"]),
    ] {
        for (how, err) in [("closed", closed_pipe()), ("full", full_device())] {
            let out = std_cmd(&store)
                .args(&args)
                .stdout(closed_pipe())
                .stderr(err)
                .output()
                .unwrap();
            assert_ne!(
                out.status.code(),
                Some(101),
                "{name} with a {how} stderr panicked"
            );
            assert!(out.status.code().is_some(), "{name}: killed by a signal");
        }
    }
}

/// A 50-key delete whose messages go to a pipe nobody reads runs to its end.
#[test]
fn a_closed_stderr_never_stops_a_mutation_half_way() {
    let store = many_sessions();
    let keys: Vec<String> = (0..50).map(bulk_key).collect();
    let out = std_cmd(&store)
        .args(["--agent", "work", "-v", "delete"])
        .args(&keys)
        .arg("--yes")
        .stdout(Stdio::null())
        .stderr(closed_pipe())
        .output()
        .unwrap();
    expect_exit(&out, 0);
    let db = store.writable("work");
    let left: i64 = db
        .query_row(
            "SELECT count(*) FROM session_nodes WHERE session_key LIKE 'agent:work:bulk-0%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(left, 50, "keys bulk-050..099 stay, bulk-000..049 are gone");
    // The same with stdout closed and --json: the run ends at its end, not half way.
    let keys: Vec<String> = (100..150).map(bulk_key).collect();
    let out = std_cmd(&store)
        .args(["--agent", "work", "--json", "delete"])
        .args(&keys)
        .arg("--yes")
        .stdout(closed_pipe())
        .stderr(full_device())
        .output()
        .unwrap();
    expect_exit(&out, 0);
    let left: i64 = db
        .query_row(
            "SELECT count(*) FROM session_nodes WHERE session_key LIKE 'agent:work:bulk-1%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(left, 50);
}

/// The store's files without custody's lock files, which come and go with every run.
fn store_files(store: &Store) -> BTreeMap<PathBuf, String> {
    checksums(&store.state())
        .into_iter()
        .filter(|(p, _)| !p.starts_with(crate::content::custody_dir(store)))
        .collect()
}

/// Runs `args` with `--json`, which must be refused with `exit` and `code`, a message that
/// contains `says`, and the store byte for byte as it was.
fn refused(store: &Store, args: &[&str], exit: i32, code: &str, says: &str) -> Value {
    let before = store_files(store);
    let out = store.cmd().arg("--json").args(args).output().unwrap();
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(exit), "{args:?}: {doc}");
    assert_eq!(doc["error"]["code"], code, "{args:?}: {doc}");
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(message.contains(says), "{args:?}: {message}");
    assert!(store_files(store) == before, "{args:?}: the store changed");
    doc
}

/// Every kind of mutation on agent main's database (one row, several keys, a plan).
const MUTATIONS: [&[&str]; 5] = [
    &["patch", "agent:main:main", "--set", "label=\"x\"", "--yes"],
    &["archive", "agent:main:scratch-1", "--yes"],
    &["delete", "agent:main:pinned-notes", "--yes"],
    &["prune", "--agent", "main", "--older-than", "1d", "--yes"],
    &[
        "patch",
        "agent:main:main",
        "--set",
        "label=\"x\"",
        "--dry-run",
    ],
];

#[test]
fn a_database_of_another_agent_is_refused_before_any_change() {
    let store = Store::copy("live");
    store
        .writable("main")
        .execute(
            "UPDATE schema_meta SET agent_id = 'beta' WHERE meta_key = 'primary'",
            [],
        )
        .unwrap();
    for args in MUTATIONS {
        refused(
            &store,
            args,
            5,
            "CONFLICT",
            "openclaw-agent.sqlite belongs to agent beta; requested agent main",
        );
    }
}

/// Overwrites the header of the last leaf page of `transcript_events` (its first free block
/// pointer), as bad storage would: `quick_check` fails, yet sessions still read.
fn damage_a_transcript_page(db: &Path) {
    let (root, page_size) = {
        let c = rusqlite::Connection::open(db).unwrap();
        let root: i64 = c
            .query_row(
                "SELECT rootpage FROM sqlite_schema WHERE name = 'transcript_events'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let size: i64 = c.query_row("PRAGMA page_size", [], |r| r.get(0)).unwrap();
        (root as usize, size as usize)
    };
    let mut bytes = std::fs::read(db).unwrap();
    let interior = (root - 1) * page_size;
    assert_eq!(bytes[interior], 5, "an interior table page");
    let right = u32::from_be_bytes(bytes[interior + 8..interior + 12].try_into().unwrap());
    let leaf = (right as usize - 1) * page_size;
    bytes[leaf + 1..leaf + 3].copy_from_slice(&[0, 7]);
    std::fs::write(db, bytes).unwrap();
}

#[test]
fn a_database_that_fails_quick_check_is_refused_but_for_the_doctor() {
    let store = Store::copy("live");
    damage_a_transcript_page(&store.agent_db("main"));
    for args in MUTATIONS {
        let doc = refused(&store, args, 5, "CONFLICT", "fails SQLite's quick_check");
        let hint = doc["error"]["hint"].as_str().unwrap();
        assert!(
            hint.contains(&format!(
                "openclaw-sessions --state-dir {} doctor",
                store.state().display()
            )) && hint.contains("backup restore"),
            "{hint}"
        );
    }
    // The doctor's repairs are not refused by the guard (they may find nothing to repair).
    let out = store
        .cmd()
        .args(["--json", "doctor", "--fix", "--yes"])
        .output()
        .unwrap();
    assert!(
        !String::from_utf8_lossy(&out.stdout).contains("fails SQLite's quick_check"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Frees pages (a filler table, dropped), then gives the first freelist trunk page a leaf
/// count no page can hold: the freelist, which no table's check walks, is damaged.
fn damage_the_freelist(store: &Store, db: &Path) {
    {
        let c = store.writable("main");
        c.execute_batch(
            "CREATE TABLE filler(b BLOB); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 64) INSERT INTO filler SELECT zeroblob(3000) FROM n; DROP TABLE filler; PRAGMA wal_checkpoint(TRUNCATE);",
        )
        .unwrap();
    }
    let mut bytes = std::fs::read(db).unwrap();
    let page_size = u16::from_be_bytes([bytes[16], bytes[17]]) as usize;
    let trunk = u32::from_be_bytes(bytes[32..36].try_into().unwrap()) as usize;
    assert!(trunk > 0, "the freelist is empty");
    let at = (trunk - 1) * page_size;
    bytes[at + 4..at + 8].copy_from_slice(&0x00ff_ffffu32.to_be_bytes());
    std::fs::write(db, bytes).unwrap();
}

#[test]
fn a_damaged_freelist_is_refused_before_any_change() {
    let store = Store::copy("live");
    let db = store.agent_db("main");
    damage_the_freelist(&store, &db);
    let before = std::fs::read(&db).unwrap();
    for args in MUTATIONS {
        refused(&store, args, 5, "CONFLICT", "fails SQLite's quick_check");
    }
    assert!(
        std::fs::read(&db).unwrap() == before,
        "the database changed"
    );
}

#[test]
fn a_newer_schema_is_refused_before_any_change() {
    let store = Store::copy("live");
    store
        .writable("main")
        .execute_batch("PRAGMA user_version = 24")
        .unwrap();
    // A dry run is a read (issue 48 item 2): it shows its plan and says the run is refused.
    let (dry, changes): (Vec<&[&str]>, Vec<&[&str]>) =
        MUTATIONS.iter().partition(|a| a.contains(&"--dry-run"));
    for args in changes {
        refused(
            &store,
            args,
            6,
            "UNSUPPORTED_SCHEMA",
            "has agent schema 24 (created by OpenClaw 2026.9.6; the schema of a release newer than OpenClaw 2026.9.6)",
        );
    }
    for args in dry {
        let out = store.cmd().arg("--json").args(args).output().unwrap();
        let doc = json(&out);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {doc}");
        assert!(
            doc["warnings"]
                .to_string()
                .contains("the real run would be refused"),
            "{doc}"
        );
    }
}

/// A 2026.9.6 store whose state database a newer release upgraded (user_version 19, the
/// agents still at 23): that release owns the whole state dir, and 2026.9.6 itself refuses it.
/// Every change is refused before anything changes, whichever database it would write (issue
/// 55 item 5: prune, patch and archive wrote through it), and no hint sends the admin to
/// upgrade this tool (issue 48 item 6); a dry run still shows its plan.
#[test]
fn a_newer_state_database_refuses_every_change_before_any_change() {
    let store = Store::copy("live");
    rusqlite::Connection::open(store.state().join("state/openclaw.sqlite"))
        .unwrap()
        .execute_batch("PRAGMA user_version = 19")
        .unwrap();
    let changes: [&[&str]; 6] = [
        &["patch", "agent:main:main", "--set", "label=\"x\"", "--yes"],
        &["archive", "agent:main:scratch-1", "--yes"],
        &["unarchive", "agent:main:scratch-1", "--yes"],
        &["delete", "agent:main:pinned-notes", "--yes"],
        &["prune", "--agent", "main", "--older-than", "1d", "--yes"],
        &["prune", "--all-agents", "--enforce", "--yes"],
    ];
    for args in changes {
        let doc = refused(
            &store,
            args,
            6,
            "UNSUPPORTED_SCHEMA",
            "has state schema 19 (created by OpenClaw 2026.9.6; the schema of a release newer than OpenClaw 2026.9.6)",
        );
        let hint = doc["error"]["hint"].as_str().unwrap();
        assert!(!hint.contains("upgrade"), "{args:?}: {hint}");
        assert!(hint.contains("Gateway"), "{args:?}: {hint}");
    }
    let out = store
        .cmd()
        .args([
            "--json",
            "patch",
            "agent:main:main",
            "--set",
            "label=\"x\"",
            "--dry-run",
        ])
        .output()
        .unwrap();
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(0), "{doc}");
    assert!(
        doc["warnings"]
            .to_string()
            .contains("the real run would be refused"),
        "{doc}"
    );
}

/// A verified snapshot of `agent` in `<tmp>/repo`.
fn snapshot_of(store: &Store, agent: &str) -> PathBuf {
    let repo = store.dir.path().join("repo");
    let out = store.run_ok([
        "--json",
        "backup",
        "create",
        "--agent",
        agent,
        "--repository",
        repo.to_str().unwrap(),
    ]);
    let doc = json(&out);
    let path = doc["data"][0]["path"]
        .as_str()
        .or_else(|| doc["data"]["snapshots"][0]["path"].as_str())
        .unwrap_or_else(|| panic!("{doc}"));
    PathBuf::from(path)
}

#[test]
fn restore_in_place_goes_only_where_the_snapshot_came_from() {
    let store = Store::copy("live");
    let work = snapshot_of(&store, "work");
    let snap = work.to_str().unwrap();
    for last in ["--yes", "-n"] {
        let args = [
            "--agent",
            "main",
            "backup",
            "restore",
            snap,
            "--in-place",
            last,
        ];
        refused(
            &store,
            &args,
            5,
            "CONFLICT",
            "is a snapshot of agent work's database, not of agent main",
        );
    }
    // Named (or not named at all), the agent it came from takes it back.
    store.run_ok([
        "--agent",
        "work",
        "backup",
        "restore",
        snap,
        "--in-place",
        "--yes",
    ]);
}

/// Sets the snapshot's `user_version` and rewrites its manifest to match, so that it still
/// verifies (as a snapshot taken by a newer OpenClaw would).
fn make_newer(snapshot: &Path, version: i64) {
    let db = snapshot.join("database.sqlite");
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch(&format!("PRAGMA user_version = {version}"))
        .unwrap();
    let bytes = std::fs::read(&db).unwrap();
    let manifest = snapshot.join("manifest.json");
    let mut m: Value = serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    m["database"]["userVersion"] = Value::from(version);
    m["artifact"]["sha256"] = Value::from(format!("{:x}", Sha256::digest(&bytes)));
    m["artifact"]["sizeBytes"] = Value::from(bytes.len());
    std::fs::write(
        &manifest,
        format!("{}\n", serde_json::to_string_pretty(&m).unwrap()),
    )
    .unwrap();
}

#[test]
fn restore_in_place_refuses_a_schema_change_unless_asked() {
    for (version, flag) in [(24, "--allow-schema-change"), (19, "--allow-newer-schema")] {
        let store = Store::copy("live");
        let snap = snapshot_of(&store, "main");
        make_newer(&snap, version);
        let s = snap.to_str().unwrap();
        store.run_ok(["backup", "verify", s]);
        for dry in [&["--yes"][..], &["-n"][..]] {
            let mut args = vec!["backup", "restore", s, "--in-place"];
            args.extend(dry);
            let doc = refused(
                &store,
                &args,
                6,
                "UNSUPPORTED_SCHEMA",
                &format!("has agent schema {version} (created by OpenClaw 2026.9.6; "),
            );
            let message = doc["error"]["message"].as_str().unwrap();
            assert!(
                message.contains("the live database has agent schema 23")
                    && message.contains("installing it changes the schema"),
                "{message}"
            );
            assert!(
                doc["error"]["hint"]
                    .as_str()
                    .unwrap()
                    .contains("--allow-schema-change"),
                "{doc}"
            );
        }
        // The same for one session out of it.
        refused(
            &store,
            &[
                "backup",
                "restore",
                s,
                "--session",
                "agent:main:main",
                "--yes",
            ],
            6,
            "UNSUPPORTED_SCHEMA",
            "installing it changes the schema",
        );
        // Asked for (the old flag name is kept as an alias), it is installed.
        store.run_ok(["backup", "restore", s, "--in-place", "--yes", flag]);
        let got: i64 = store
            .writable("main")
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(got, version);
    }
}

/// The uid the cross-user tests give the store (nobody), and the one they run as instead.
const SERVICE_UID: u32 = 65534;
const OTHER_UID: u32 = 65533;

/// Whether this process may switch users (root, as CI runs); else the test says so and skips.
fn may_switch_users(test: &str) -> bool {
    // SAFETY: geteuid never fails.
    let root = unsafe { libc::geteuid() } == 0;
    if !root {
        crate::common::cannot_run_here(&format!("{test} needs root to run as other users"));
    }
    root
}

/// A copy of the live fixture owned by the service user, as a store a service runs.
fn service_store() -> Store {
    let store = Store::copy("live");
    // The temp dir is root's 0700: the service user must reach the store inside it.
    std::fs::set_permissions(
        store.dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let ok = std::process::Command::new("chown")
        .args(["-R", &format!("{SERVICE_UID}:{SERVICE_UID}")])
        .arg(store.state())
        .status()
        .unwrap();
    assert!(ok.success());
    store
}

fn setpriv(uid: u32) -> Vec<String> {
    [
        "setpriv".to_string(),
        "--reuid".into(),
        uid.to_string(),
        "--regid".into(),
        uid.to_string(),
        "--clear-groups".into(),
    ]
    .to_vec()
}

/// Files under the store not owned by `uid`.
fn not_owned_by(store: &Store, uid: u32) -> Vec<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    checksums(&store.state())
        .into_keys()
        .filter(|p| std::fs::metadata(p).unwrap().uid() != uid)
        .collect()
}

#[test]
fn an_owner_running_as_another_uid_is_seen_and_refused() {
    if !may_switch_users("an_owner_running_as_another_uid_is_seen_and_refused") {
        return;
    }
    let store = service_store();
    let wrapper = setpriv(SERVICE_UID);
    let wrapper: Vec<&str> = wrapper.iter().map(String::as_str).collect();
    let mut holder = crate::custody::hold_as(&store, "30", &wrapper);
    let status = store.json_ok(["--json", "custody", "status"]);
    let owner = &status["data"]["owner"];
    assert_eq!(owner["state"], "live", "{status}");
    assert_eq!(owner["uid"], SERVICE_UID, "{status}");
    assert_eq!(owner["role"], "sqlite-maintenance", "{status}");
    let text = String::from_utf8(store.run_ok(["custody", "status"]).stdout).unwrap();
    assert!(
        text.contains(&format!(
            "Owner: live, role sqlite-maintenance, pid {}",
            holder.id()
        )) && text.contains(&format!("uid {SERVICE_UID}")),
        "{text}"
    );
    refused(
        &store,
        &["patch", "agent:main:main", "--set", "label=\"x\"", "--yes"],
        75,
        "OWNER_UNAVAILABLE",
        &format!("sqlite-maintenance (pid {}", holder.id()),
    );
    unsafe { libc::kill(holder.id() as i32, libc::SIGTERM) };
    holder.wait().unwrap();
}

#[test]
fn root_runs_a_mutation_as_the_owner_of_the_state_dir() {
    if !may_switch_users("root_runs_a_mutation_as_the_owner_of_the_state_dir") {
        return;
    }
    let store = service_store();
    store.run_ok(["patch", "agent:main:main", "--set", "label=\"by root\""]);
    store.run_ok(["delete", "agent:main:pinned-notes", "--yes"]);
    store.run_ok(["prune", "--agent", "main", "--older-than", "1d", "--yes"]);
    assert_eq!(not_owned_by(&store, SERVICE_UID), Vec::<PathBuf>::new());
    let label: String = store
        .writable("main")
        .query_row(
            "SELECT label FROM session_nodes WHERE session_key = 'agent:main:main'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(label, "by root");
}

/// Root's `backup create` runs as the owner of the state dir, as every mutation does: the
/// repository and each snapshot are that user's (issue 55: they were root's, 0700, which then
/// broke the user's `migrate schema`, `backup prune` and `backup verify`). A repository the
/// user replaced by a symbolic link (to a directory only root may write) is never written
/// through, by `backup create` or by a mutation's safety snapshot.
#[test]
fn root_writes_snapshots_as_the_owner_and_never_through_a_symlink() {
    if !may_switch_users("root_writes_snapshots_as_the_owner_and_never_through_a_symlink") {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    let store = service_store();
    let secret = store.dir.path().join("root-only");
    std::fs::create_dir(&secret).unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o700)).unwrap();
    let repo = store.state().join("openclaw-sessions-snapshots");
    std::os::unix::fs::symlink(&secret, &repo).unwrap();
    std::os::unix::fs::lchown(&repo, Some(SERVICE_UID), Some(SERVICE_UID)).unwrap();
    // The repository named as an admin names one (the default is outside the state dir, under
    // the owner's home: docs/SNAPSHOTS.md); the link is the owner's.
    for args in [
        &["backup", "create", "--repository", "DEFAULT"][..],
        &["backup", "create", "--global", "--repository", "DEFAULT"],
        &[
            "delete",
            "agent:main:pinned-notes",
            "--yes",
            "--backup-dir",
            "DEFAULT",
        ],
    ] {
        let args: Vec<String> = args
            .iter()
            .map(|a| {
                if *a == "DEFAULT" {
                    repo.display().to_string()
                } else {
                    a.to_string()
                }
            })
            .collect();
        let out = store.cmd().arg("--json").args(&args).output().unwrap();
        let doc = json(&out);
        assert_eq!(out.status.code(), Some(5), "{args:?}: {doc}");
        assert_eq!(doc["error"]["code"], "UNSAFE_PATH", "{args:?}: {doc}");
        assert_eq!(
            std::fs::read_dir(&secret).unwrap().count(),
            0,
            "{args:?}: written through the link"
        );
    }
    std::fs::remove_file(&repo).unwrap();
    let named = repo.display().to_string();
    store.run_ok(["backup", "create", "--repository", &named]);
    store.run_ok(["backup", "create", "--global", "--repository", &named]);
    assert_eq!(not_owned_by(&store, SERVICE_UID), Vec::<PathBuf>::new());
    {
        use std::os::unix::fs::MetadataExt;
        let mut dirs = vec![repo.clone()];
        dirs.extend(std::fs::read_dir(&repo).unwrap().map(|e| e.unwrap().path()));
        for d in dirs {
            assert_eq!(
                std::fs::metadata(&d).unwrap().uid(),
                SERVICE_UID,
                "{}",
                d.display()
            );
        }
    }
    store.run_ok(["backup", "verify", "--repository", &named]);
}

/// A root-owned state dir inside a directory another user owns: that user can swap it for
/// their own store at any moment (`renameat2(RENAME_EXCHANGE)`), between the uid decision and
/// the writes, so root refuses to write there as root (issue 55: 16 of 180 root runs worked
/// as uid 0 inside the user's store). Reading stays allowed; the user's own store, swapped
/// in, is written as that user.
#[test]
fn root_does_not_write_as_root_where_another_user_can_swap_the_state_dir() {
    if !may_switch_users("root_does_not_write_as_root_where_another_user_can_swap_the_state_dir") {
        return;
    }
    let store = Store::copy("live");
    std::fs::set_permissions(
        store.dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    std::os::unix::fs::chown(store.dir.path(), Some(SERVICE_UID), Some(SERVICE_UID)).unwrap();
    let before = store_files(&store);
    for args in [
        &["patch", "agent:main:main", "--set", "label=\"x\"", "--yes"][..],
        &["backup", "create"],
        &["delete", "agent:main:pinned-notes", "--yes"],
    ] {
        let out = store.cmd().arg("--json").args(args).output().unwrap();
        let doc = json(&out);
        assert_eq!(out.status.code(), Some(5), "{args:?}: {doc}");
        assert_eq!(doc["error"]["code"], "UNSAFE_PATH", "{args:?}: {doc}");
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("uid {SERVICE_UID} can replace it")),
            "{message}"
        );
    }
    assert!(store_files(&store) == before, "the store changed");
    store.run_ok(["list"]);
}

#[test]
fn another_user_than_the_owner_is_refused() {
    if !may_switch_users("another_user_than_the_owner_is_refused") {
        return;
    }
    let store = service_store();
    let before = store_files(&store);
    let wrapper = setpriv(OTHER_UID);
    let out = std::process::Command::new(&wrapper[0])
        .args(&wrapper[1..])
        .arg(assert_cmd::cargo::cargo_bin("openclaw-sessions"))
        .arg("--state-dir")
        .arg(store.state())
        .args(["--json", "patch", "agent:main:main", "--set", "label=\"x\""])
        .env("HOME", store.dir.path())
        .output()
        .unwrap();
    let doc = json(&out);
    expect_exit(&out, 5);
    assert_eq!(doc["error"]["code"], "CONFLICT");
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!(
            "belongs to uid {SERVICE_UID}, and this runs as uid {OTHER_UID}"
        )),
        "{message}"
    );
    assert!(store_files(&store) == before, "the store changed");
}

/// A live lock (this test's pid) in `tmp/openclaw-<uid>/` for `uid`, the directory that
/// uid's OpenClaw makes.
fn plant_live_lock(store: &Store, uid: u32) -> PathBuf {
    let dir = store.state().join(format!("tmp/openclaw-{uid}"));
    std::fs::create_dir_all(&dir).unwrap();
    let me = std::process::id();
    let stat = std::fs::read_to_string(format!("/proc/{me}/stat")).unwrap();
    let start: i64 = stat[stat.rfind(')').unwrap() + 2..]
        .split_whitespace()
        .nth(19)
        .unwrap()
        .parse()
        .unwrap();
    let payload = serde_json::json!({
        "pid": me, "ownerId": "7d7e0c62-1f0b-4bb7-9d2f-8b8cf5a3a001",
        "createdAt": "2026-11-30T10:00:00.000Z", "role": "sqlite-maintenance", "startTime": start,
    });
    std::fs::write(
        dir.join("gateway.state.lock"),
        serde_json::to_string_pretty(&payload).unwrap(),
    )
    .unwrap();
    std::os::unix::fs::chown(&dir, Some(uid), Some(uid)).unwrap();
    dir
}

/// A lock in the lock directory of the uid that owns the store, held by a live process (this
/// test), is an owner to root, which reads as itself and writes as that uid.
#[test]
fn a_live_lock_in_another_users_lock_directory_is_an_owner() {
    if !may_switch_users("a_live_lock_in_another_users_lock_directory_is_an_owner") {
        return;
    }
    let store = service_store();
    plant_live_lock(&store, SERVICE_UID);
    let status = store.json_ok(["--json", "custody", "status"]);
    assert_eq!(status["data"]["owner"]["state"], "live", "{status}");
    assert_eq!(status["data"]["owner"]["uid"], SERVICE_UID, "{status}");
    // Run as that uid, the delete meets the lock in its own directory (where it may leave a
    // coordinator file beside it, as OpenClaw's own run would).
    let out = store
        .cmd()
        .args(["--json", "delete", "agent:main:pinned-notes", "--yes"])
        .output()
        .unwrap();
    let doc = json(&out);
    assert_eq!(out.status.code(), Some(75), "{doc}");
    assert_eq!(doc["error"]["code"], "OWNER_UNAVAILABLE", "{doc}");
    let message = doc["error"]["message"].as_str().unwrap();
    assert!(
        message.contains(&format!("pid {}", std::process::id())),
        "{message}"
    );
    assert!(store.entry("main", "agent:main:pinned-notes").is_some());
}

/// Locks of a uid that cannot write the store (4242 on root's store), in that uid's own
/// directories, held by a live process: OpenClaw running as the store's owner looks only in
/// its own uid's directories, so it runs; so do we (issue 55: before, every mutation exited
/// 75, "owned by another process of uid 4242").
#[test]
fn a_lock_of_a_uid_that_cannot_own_the_store_is_ignored_as_openclaw_ignores_it() {
    if !may_switch_users(
        "a_lock_of_a_uid_that_cannot_own_the_store_is_ignored_as_openclaw_ignores_it",
    ) {
        return;
    }
    use std::os::unix::fs::PermissionsExt;
    const SQUATTER: u32 = 4242;
    let store = Store::copy("live");
    plant_live_lock(&store, SQUATTER);
    // The lifecycle coordinator of this state database in 4242's own runtime directory, held
    // as OpenClaw holds it (an open connection in `BEGIN EXCLUSIVE`).
    let runtime = PathBuf::from(format!("/tmp/openclaw-state-locks-{SQUATTER}"));
    if !runtime.exists() {
        std::fs::create_dir(&runtime).unwrap();
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
        std::os::unix::fs::chown(&runtime, Some(SQUATTER), Some(SQUATTER)).unwrap();
    }
    let state_db = std::fs::canonicalize(store.state())
        .unwrap()
        .join("state/openclaw.sqlite");
    let hash = Sha256::digest(state_db.to_string_lossy().as_bytes());
    let h8: String = hash[..4].iter().map(|b| format!("{b:02x}")).collect();
    let coordinator = runtime.join(format!("gateway-lifecycle.{h8}.lock.sqlite"));
    let held = rusqlite::Connection::open(&coordinator).unwrap();
    held.execute_batch("PRAGMA journal_mode = MEMORY; BEGIN EXCLUSIVE;")
        .unwrap();
    let status = store.json_ok(["--json", "custody", "status"]);
    let out = store
        .cmd()
        .args([
            "--json",
            "patch",
            "agent:main:main",
            "--set",
            "label=\"x\"",
            "--yes",
        ])
        .output()
        .unwrap();
    drop(held);
    let _ = std::fs::remove_file(&coordinator);
    assert_ne!(status["data"]["owner"]["state"], "live", "{status}");
    expect_exit(&out, 0);
}

/// A lock written a moment ago whose pid does not run here (another PID namespace, a
/// container): refused while fresh, as OpenClaw refuses it, and reclaimed after 30 s.
#[test]
fn a_fresh_lock_whose_owner_cannot_be_verified_is_left_alone() {
    let store = Store::copy("live");
    let dir = store
        .state()
        .join("tmp")
        .join(format!("openclaw-{}", unsafe { libc::getuid() }));
    std::fs::create_dir_all(&dir).unwrap();
    let lock = dir.join("gateway.state.lock");
    let payload = serde_json::json!({
        "pid": i32::MAX - 11, "ownerId": "0b7e3c1a-5f0e-4c55-8d4e-2f6a7b8c9d01",
        "createdAt": "2026-11-30T10:00:00.000Z", "role": "sqlite-maintenance", "startTime": 4242,
    });
    std::fs::write(&lock, serde_json::to_string_pretty(&payload).unwrap()).unwrap();
    let status = store.json_ok(["--json", "custody", "status"]);
    assert_eq!(status["data"]["owner"]["state"], "unknown", "{status}");
    let pid = format!("pid {}", i32::MAX - 11);
    // A dry run takes no custody: only the four real runs.
    for args in &MUTATIONS[..4] {
        refused(&store, args, 75, "GATEWAY_STATE_OWNER_REQUIRED", &pid);
    }
    assert!(lock.exists());
    // Past OpenClaw's 30 s, the dead owner's lock is reclaimed.
    std::fs::File::options()
        .write(true)
        .open(&lock)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(31))
        .unwrap();
    let out = store.run_ok(["patch", "agent:main:main", "--set", "label=\"x\""]);
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("reclaimed a stale lock"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Agent main's database replaced by `bytes`: empty, not SQLite, or cut short.
fn with_main_database(bytes: &[u8]) -> Store {
    let store = Store::copy("live");
    std::fs::write(store.agent_db("main"), bytes).unwrap();
    store
}

#[test]
fn an_empty_or_foreign_file_as_database_is_a_finding_and_a_clear_refusal() {
    for (name, bytes, says) in [
        ("zero bytes", Vec::new(), "is empty (0 bytes)"),
        (
            "text",
            b"not a database\n".repeat(300),
            "is not an SQLite database (4500 bytes)",
        ),
    ] {
        let store = with_main_database(&bytes);
        for args in [
            &["list", "--agent", "main"][..],
            &["show", "agent:main:main"],
            &["patch", "agent:main:main", "--set", "label=\"x\"", "--yes"],
            &["delete", "agent:main:pinned-notes", "--yes"],
            &["prune", "--agent", "main", "--older-than", "1d", "--yes"],
        ] {
            let doc = refused(&store, args, 6, "UNSUPPORTED_SCHEMA", says);
            let hint = doc["error"]["hint"].as_str().unwrap();
            assert!(
                hint.contains("doctor") && hint.contains("backup restore"),
                "{name}: {hint}"
            );
        }
        // The doctor names it (exit 3, findings) and checks the other agents.
        let out = store.cmd().args(["--json", "doctor"]).output().unwrap();
        let doc = json(&out);
        assert_eq!(out.status.code(), Some(3), "{name}: {doc}");
        let findings = doc["data"]["findings"].as_array().unwrap();
        assert!(
            findings.iter().any(|f| f["agentId"] == "main"
                && f["severity"] == "error"
                && f["message"].as_str().unwrap().contains(says)),
            "{name}: {doc}"
        );
        // Status says what the file is, never "older schema version 0".
        let out = store.cmd().args(["--json", "status"]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains(says), "{name}: {text}");
        assert!(!text.contains("schema version 0"), "{name}: {text}");
        assert!(!text.contains("no such table"), "{name}: {text}");
        // Unreadable, never "empty" (it may hold sessions), with the doctor named.
        let doc = json(&out);
        let main = doc["data"]["agents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["agentId"] == "main")
            .unwrap();
        assert_eq!(main["store"], "unreadable", "{name}: {main}");
        assert!(
            doc["warnings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|w| w.as_str().unwrap().contains("doctor")),
            "{name}: {doc}"
        );
    }
}

/// The doctor's finding on agent main's database, and whether `doctor --fix` offers a repair.
fn main_database_finding(store: &Store) -> (String, String, bool) {
    let out = store.cmd().args(["--json", "doctor"]).output().unwrap();
    let doc = json(&out);
    let f = doc["data"]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["agentId"] == "main" && f["check"] == "integrity")
        .unwrap_or_else(|| panic!("no finding: {doc}"))
        .clone();
    (
        f["message"].as_str().unwrap().to_string(),
        f["hint"].as_str().unwrap().to_string(),
        f["fixable"].as_bool().unwrap(),
    )
}

fn wal_of(db: &Path) -> PathBuf {
    let mut p = db.as_os_str().to_owned();
    p.push("-wal");
    PathBuf::from(p)
}

/// Entries of agent main's database directory whose name holds `.empty-`.
fn set_aside(store: &Store) -> Vec<PathBuf> {
    named(store.agent_db("main").parent().unwrap(), ".empty-")
}

/// A zero-byte agent database (no content in a -wal or -journal either) is set aside by
/// `doctor --fix` as `<name>.empty-<stamp>`, so OpenClaw creates a new one; `doctor` names
/// the repair; the other agents are untouched.
#[test]
fn doctor_fix_sets_a_zero_byte_database_aside() {
    let store = with_main_database(b"");
    std::fs::write(wal_of(&store.agent_db("main")), b"").unwrap();
    let others = checksums(&store.state().join("agents/work"));
    let (message, hint, fixable) = main_database_finding(&store);
    assert!(message.contains("is empty (0 bytes)"), "{message}");
    assert!(fixable && hint.contains(".empty-"), "{hint}");
    let out = store.run_ok(["doctor", "--fix", "--yes"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("set the empty database"), "{text}");
    let aside = set_aside(&store);
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(std::fs::metadata(&aside[0]).unwrap().len(), 0);
    assert!(!store.agent_db("main").exists());
    assert!(!wal_of(&store.agent_db("main")).exists());
    assert_eq!(checksums(&store.state().join("agents/work")), others);
    // Nothing is left to repair; a read of the agent finds no database, not an error.
    let out = store.cmd().args(["--json", "doctor"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("is empty (0 bytes)"));
}

/// Not set aside: a zero-byte file whose -wal holds bytes, a truncated database, a file that
/// is not SQLite. Each is a finding without that repair, and `doctor --fix` leaves it as is.
#[test]
fn doctor_fix_sets_aside_only_an_empty_database_without_content() {
    let whole = std::fs::read(Store::copy("live").agent_db("main")).unwrap();
    let wal_with_bytes = with_main_database(b"");
    std::fs::write(wal_of(&wal_with_bytes.agent_db("main")), vec![7u8; 4096]).unwrap();
    for (name, store, says) in [
        (
            "zero bytes, -wal with bytes",
            wal_with_bytes,
            "is empty (0 bytes)",
        ),
        (
            "truncated",
            with_main_database(&whole[..whole.len() / 2]),
            "is cut short",
        ),
        (
            "text",
            with_main_database(&b"not a database\n".repeat(300)),
            "is not an SQLite database",
        ),
    ] {
        let (message, hint, fixable) = main_database_finding(&store);
        assert!(message.contains(says), "{name}: {message}");
        assert!(!fixable && !hint.contains(".empty-"), "{name}: {hint}");
        let db = store.agent_db("main");
        let before = std::fs::read(&db).unwrap();
        let _ = store
            .cmd()
            .args(["doctor", "--fix", "--yes"])
            .output()
            .unwrap();
        assert_eq!(std::fs::read(&db).unwrap(), before, "{name}");
        assert!(set_aside(&store).is_empty(), "{name}");
    }
}

#[test]
fn a_truncated_database_is_refused_before_any_change() {
    let whole = std::fs::read(Store::copy("live").agent_db("main")).unwrap();
    let store = with_main_database(&whole[..whole.len() / 2]);
    for args in [
        &["patch", "agent:main:main", "--set", "label=\"x\"", "--yes"][..],
        &["delete", "agent:main:pinned-notes", "--yes"],
    ] {
        refused(&store, args, 6, "UNSUPPORTED_SCHEMA", "is cut short");
    }
}

/// Runs `args` on `store` with a crash at `point` (the process aborts there, as kill -9).
fn crashed_at(store: &Store, point: &str, args: &[&str]) {
    let out = store
        .cmd()
        .env("OPENCLAW_SESSIONS_CRASH_AT", point)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), None, "{point}: the run did not crash");
}

/// Entries of `dir` whose name contains `part`.
fn named(dir: &Path, part: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains(part))
        .collect()
}

/// A kill while a transcript archive is being published leaves its `.tmp` file; the next
/// run of the command removes it and says so.
#[test]
fn the_next_delete_removes_what_a_killed_one_left() {
    let store = Store::copy("live");
    let sessions = store.state().join("agents/main/sessions");
    let args = ["delete", "agent:main:pinned-notes", "--yes"];
    crashed_at(&store, "publish-temp-written", &args);
    let left = named(&sessions, ".tmp");
    assert_eq!(left.len(), 1, "{left:?}");
    let out = store
        .cmd()
        .args(["delete", "agent:main:cron:nightly:run:884", "--yes"])
        .output()
        .unwrap();
    expect_exit(&out, 0);
    assert!(named(&sessions, ".tmp").is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("left by an interrupted run"), "{err}");
}

/// Leftovers of a killed run are cleaned by the next run only inside its own agent scope:
/// `--agent work` leaves agent main's `.tmp` file and restore copy alone; the next run on
/// main removes both.
#[test]
fn the_next_run_cleans_leftovers_only_in_its_agent_scope() {
    let store = Store::copy("live");
    let sessions = store.state().join("agents/main/sessions");
    let agent_dir = store.state().join("agents/main/agent");
    crashed_at(
        &store,
        "publish-temp-written",
        &["delete", "agent:main:pinned-notes", "--yes"],
    );
    let copy = agent_dir.join(".tmp-restore-left-by-a-kill");
    std::fs::create_dir(&copy).unwrap();
    std::fs::write(copy.join("database.sqlite"), b"half a copy").unwrap();
    assert_eq!(named(&sessions, ".tmp").len(), 1);
    for args in [
        &[
            "--agent",
            "work",
            "delete",
            "agent:work:sdk-made-2",
            "--yes",
        ][..],
        &[
            "--agent",
            "work",
            "patch",
            "agent:work:sdk-made-1",
            "--set",
            "label=\"x\"",
        ],
        &["--agent", "work", "doctor", "--fix", "--yes"],
    ] {
        let out = store.cmd().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{args:?}: {err}");
        assert!(
            !err.contains("left by an interrupted run"),
            "{args:?}: {err}"
        );
        assert_eq!(named(&sessions, ".tmp").len(), 1, "{args:?}");
        assert!(copy.is_dir(), "{args:?}");
    }
    let out = store
        .cmd()
        .args([
            "--agent",
            "main",
            "patch",
            "agent:main:main",
            "--set",
            "label=\"y\"",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("left by an interrupted run"), "{err}");
    assert!(named(&sessions, ".tmp").is_empty());
    assert!(!copy.exists());
}

/// A kill before the swap leaves the restore's staging copy beside the database; the next
/// restore removes it and finishes.
#[test]
fn the_next_restore_removes_the_copy_a_killed_one_left() {
    let store = Store::copy("live");
    let snap = snapshot_of(&store, "main");
    let args = [
        "backup",
        "restore",
        snap.to_str().unwrap(),
        "--in-place",
        "--yes",
    ];
    crashed_at(&store, "restore-before-swap", &args);
    let agent_dir = store.state().join("agents/main/agent");
    assert_eq!(named(&agent_dir, ".tmp-restore-").len(), 1);
    store.run_ok(args);
    assert!(named(&agent_dir, ".tmp-restore-").is_empty());
}

/// `backup list --json` of `repo`.
fn listed(store: &Store, repo: &Path) -> Value {
    let repo = repo.to_str().unwrap();
    store.json_ok(["--json", "backup", "list", "--repository", repo])
}

/// A killed `backup create` leaves a staging directory: `backup list` names it apart, never
/// as a snapshot, and the next `backup create` into the repository removes it.
#[test]
fn a_killed_backups_staging_is_never_listed_and_is_removed_next_time() {
    let store = Store::copy("live");
    let repo = store.dir.path().join("repo");
    let create = [
        "backup",
        "create",
        "--agent",
        "main",
        "--repository",
        repo.to_str().unwrap(),
    ];
    crashed_at(&store, "backup-after-copy", &create);
    let staging = named(&repo, ".tmp-");
    assert_eq!(staging.len(), 1);
    let list = listed(&store, &repo);
    assert_eq!(list["data"]["snapshots"], serde_json::json!([]), "{list}");
    assert_eq!(list["data"]["staging"][0], staging[0].to_str().unwrap());
    let text = String::from_utf8(
        store
            .run_ok(["backup", "list", "--repository", repo.to_str().unwrap()])
            .stdout,
    )
    .unwrap();
    assert!(!text.contains(".tmp-"), "{text}");
    // A staging directory a minute old and not locked by a live run is a dead one.
    std::fs::File::open(&staging[0])
        .unwrap()
        .set_modified(std::time::SystemTime::now() - std::time::Duration::from_secs(61))
        .unwrap();
    store.run_ok(create);
    assert!(named(&repo, ".tmp-").is_empty());
    let list = listed(&store, &repo);
    assert_eq!(list["data"]["snapshots"].as_array().unwrap().len(), 1);
}

/// The legacy fixture with agent work's `sessions.json` rewritten by `edit` (its text in,
/// bytes out); returns the store and the file.
fn legacy_with_index(edit: impl FnOnce(String) -> Vec<u8>) -> (Store, PathBuf) {
    let store = Store::copy("legacy");
    let index = store.state().join("agents/work/sessions/sessions.json");
    let text = std::fs::read_to_string(&index).unwrap();
    std::fs::write(&index, edit(text)).unwrap();
    (store, index)
}

/// `text` with `value` added as the label of agent:work:main, a field OpenClaw keeps.
fn with_main_label(text: &str, value: &str) -> String {
    let marker = "\"agent:work:main\": {";
    assert!(text.contains(marker));
    text.replacen(marker, &format!("{marker}\"label\": {value}, "), 1)
}

fn work_main_label(store: &Store) -> String {
    store
        .writable("work")
        .query_row(
            "SELECT hex(label) FROM session_nodes WHERE session_key = 'agent:work:main'",
            [],
            |r| r.get(0),
        )
        .unwrap()
}

const IMPORT_WORK: [&str; 5] = ["--agent", "work", "migrate", "legacy", "--yes"];

/// What OpenClaw 2026.9.6's own import accepts is imported with its result (checked against
/// it on these very edits): a byte that is not UTF-8 reads as U+FFFD, and of two equal keys
/// (entries or fields) the last one counts.
#[test]
fn a_sessions_json_openclaw_accepts_is_imported_as_openclaw_imports_it() {
    let (store, _) = legacy_with_index(|t| {
        let mut bytes = with_main_label(&t, "\"cafeXX\"").into_bytes();
        let at = bytes.windows(6).position(|w| w == b"cafeXX").unwrap();
        bytes.splice(at + 3..at + 6, [0xe9]);
        bytes
    });
    store.run_ok(IMPORT_WORK);
    assert_eq!(work_main_label(&store), "636166EFBFBD", "caf + U+FFFD");

    let (store, _) =
        legacy_with_index(|t| with_main_label(&t, "\"first\", \"label\": \"second\"").into_bytes());
    store.run_ok(IMPORT_WORK);
    assert_eq!(work_main_label(&store), hex("second"));

    let (store, _) = legacy_with_index(|t| {
        let entry = t.split("\"agent:work:main\": ").nth(1).unwrap();
        let entry = &entry[..entry.find("\n  }").unwrap() + 4];
        let again = with_main_label(&format!("\"agent:work:main\": {entry}"), "\"second\"");
        let end = t.rfind('}').unwrap();
        format!("{},\n  {again}\n}}\n", t[..end].trim_end()).into_bytes()
    });
    store.run_ok(IMPORT_WORK);
    assert_eq!(work_main_label(&store), hex("second"));
}

fn hex(s: &str) -> String {
    s.bytes().map(|b| format!("{b:02X}")).collect()
}

/// What this reader cannot read as OpenClaw would (a number beyond f64, nesting deeper than
/// 128) is refused with exit 6, naming the file and the byte, before anything changes.
#[test]
fn a_sessions_json_this_tool_cannot_read_is_refused_with_its_byte_offset() {
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    for (value, says, at) in [
        ("1e400", "number out of range", "1e400"),
        (deep.as_str(), "recursion limit exceeded", "[[["),
    ] {
        let (store, index) = legacy_with_index(|t| with_main_label(&t, value).into_bytes());
        let text = std::fs::read_to_string(&index).unwrap();
        let start = text.find(at).unwrap();
        let doc = refused(&store, &IMPORT_WORK, 6, "BAD_INPUT", says);
        let message = doc["error"]["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("{}: byte ", index.display())),
            "{message}"
        );
        let byte: usize = message
            .split("byte ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        // The reader stops at the value's last byte or the one after it.
        assert!(
            (start..=start + value.len()).contains(&byte),
            "{message}: the value spans bytes {start}..{}",
            start + value.len()
        );
        assert!(!message.contains("bug"), "{message}");
    }
}

/// A signal between prune's batches stops it there (exit 130) and names what was done.
#[test]
fn an_interrupted_prune_names_what_it_did() {
    let store = many_sessions();
    // SIGINT at the first row of the second batch of five archives (the test hook's signal
    // point), so the first batch is committed: not a timed guess, which under load could land
    // before any batch.
    let out = std_cmd(&store)
        .env("OPENCLAW_SESSIONS_APPLY_BATCH", "5")
        .env("OPENCLAW_SESSIONS_SIGNAL_AT", "patch-before-commit@6")
        .args([
            "--json",
            "--agent",
            "work",
            "prune",
            "--older-than",
            "1d",
            "--yes",
        ])
        .output()
        .unwrap();
    let doc = json(&out);
    expect_exit(&out, 130);
    assert_eq!(doc["error"]["code"], "INTERRUPTED");
    let warnings = doc["warnings"].to_string();
    assert!(
        warnings.contains("agent work: pruned before the interruption: ")
            && warnings.contains("the rest of the plan is untouched"),
        "{doc}"
    );
    // The re-run finishes the plan.
    store.run_ok(["--agent", "work", "prune", "--older-than", "1d", "--yes"]);
}

/// As a user who cannot read a store another user keeps private (0700 at the state dir, at
/// `agents/`, at one agent, or a 0600 database), `list` and `status` say "permission denied"
/// and on which path, and exit 1 (IO): never "unknown agent", never an empty table and 0.
#[test]
fn an_unreadable_store_says_permission_denied_on_which_path() {
    use std::os::unix::fs::PermissionsExt;
    if !may_switch_users("an_unreadable_store_says_permission_denied_on_which_path") {
        return;
    }
    let store = service_store();
    let state = store.state();
    let db = store.agent_db("main");
    let places: [(PathBuf, u32); 4] = [
        (state.clone(), 0o700),
        (state.join("agents"), 0o700),
        (state.join("agents/main"), 0o700),
        (db.clone(), 0o600),
    ];
    let wrapper = setpriv(OTHER_UID);
    for (path, mode) in places {
        let was = std::fs::metadata(&path).unwrap().permissions().mode();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        for args in [
            &["list"][..],
            &["status"],
            &["--json", "list"],
            &["--all-agents", "list"],
        ] {
            let out = std::process::Command::new(&wrapper[0])
                .args(&wrapper[1..])
                .arg(assert_cmd::cargo::cargo_bin("openclaw-sessions"))
                .arg("--state-dir")
                .arg(&state)
                .args(args)
                .env("HOME", store.dir.path())
                .output()
                .unwrap();
            let said = String::from_utf8_lossy(&out.stderr).to_string()
                + &String::from_utf8_lossy(&out.stdout);
            let at = format!("{} at {mode:o}, {args:?}", path.display());
            assert_eq!(out.status.code(), Some(1), "{at}: {said}");
            assert!(said.contains("permission denied"), "{at}: {said}");
            assert!(
                said.contains(&format!("{}:", path.display())),
                "{at}: {said}"
            );
            assert!(!said.contains("unknown agent"), "{at}: {said}");
            if args[0] == "--json" {
                let doc = json(&out);
                assert_eq!(doc["error"]["code"], "IO", "{at}: {said}");
                assert!(
                    doc["error"]["hint"]
                        .as_str()
                        .unwrap()
                        .contains("the user that owns it"),
                    "{at}: {said}"
                );
            }
        }
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(was)).unwrap();
    }
    // The same store, readable, lists as before.
    let out = std::process::Command::new(&wrapper[0])
        .args(&wrapper[1..])
        .arg(assert_cmd::cargo::cargo_bin("openclaw-sessions"))
        .arg("--state-dir")
        .arg(&state)
        .arg("list")
        .env("HOME", store.dir.path())
        .output()
        .unwrap();
    expect_exit(&out, 0);
}
