//! A full disk during every mutating command. Each command runs under a ladder of file-size
//! limits (RLIMIT_FSIZE: a write past the limit fails as on a full disk) and at every step:
//! - it completes, or fails with an I/O error in its JSON document (never a panic);
//! - every database passes `integrity_check` and `foreign_key_check`;
//! - every session is as it was, or as the command means to leave it: nothing is half-done,
//!   nothing is lost, and no session outside the command's reach changes;
//! - a re-run without the limit finishes the job.
//!
//! `backup create` and `migrate legacy` have their own full-disk tests (backup.rs,
//! migrate_legacy.rs); a crash (`kill -9`) at every point is tested beside each command.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use rusqlite::OptionalExtension;
use serde_json::Value;

use crate::common::{json, limit_file_size, Store};

/// From nothing at all to more than any file these commands write.
const LIMITS: [u64; 8] = [
    0,
    1 << 10,
    8 << 10,
    64 << 10,
    256 << 10,
    640 << 10,
    1 << 20,
    8 << 20,
];
const AGENTS: [&str; 3] = ["main", "work", "research"];
/// The moment of the fixture's cleanup report, so `prune` plans the same work every run.
const REPORT_NOW: &str = "1795994700000";

/// What a session is: its entry, and the number of its transcript events.
type Session = (Value, i64);
type Sessions = BTreeMap<String, Session>;
/// May this session be left in this state (`None`: gone; the flag: it has an archive row)?
type Allowed = fn(key: &str, before: &Session, now: Option<&Session>, archived: bool) -> bool;

fn sessions(store: &Store, agent: &str) -> Sessions {
    let db = store.writable(agent);
    let mut stmt = db
        .prepare(
            "SELECT session_key, entry_json, \
             (SELECT count(*) FROM transcript_events e WHERE e.session_id = n.current_session_id) \
             FROM session_nodes n",
        )
        .unwrap();
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                (
                    serde_json::from_str(&r.get::<_, String>(1)?).unwrap(),
                    r.get(2)?,
                ),
            ))
        })
        .unwrap()
        .map(Result::unwrap)
        .collect();
    rows
}

/// Keys with a transcript archive row (a deletion keeps one).
fn archived(store: &Store, agent: &str) -> BTreeSet<String> {
    let db = store.writable(agent);
    let mut stmt = db
        .prepare("SELECT session_key FROM session_transcript_archives")
        .unwrap();
    let keys = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    keys
}

fn sound(store: &Store, step: &str) {
    for agent in AGENTS {
        let db = store.writable(agent);
        let ok: String = db
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(ok, "ok", "{step}: {agent}");
        let fk: Option<String> = db
            .query_row("PRAGMA foreign_key_check", [], |r| r.get(0))
            .optional()
            .unwrap();
        assert_eq!(fk, None, "{step}: {agent}: a foreign key dangles");
    }
}

/// One mutating command and what it may leave behind.
struct Case {
    name: &'static str,
    /// The store before the command (faults, snapshots made here).
    prepare: fn() -> Store,
    args: fn(&Store) -> Vec<String>,
    /// The agent the command changes; the other agents must not change at all.
    agent: &'static str,
    /// Called for every session of `agent` that is not exactly as it was.
    allowed: Allowed,
    /// Sessions the command may bring (back) into `agent`.
    appear: &'static [&'static str],
    /// Exit codes of a fine re-run (`delete` reports keys an earlier run took as missing).
    rerun_exits: &'static [i32],
    /// After the re-run without a limit: the command's whole effect is there.
    done: fn(&Store),
}

fn run(store: &Store, case: &Case, limit: Option<u64>) -> std::process::Output {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("openclaw-sessions"));
    for k in [
        "OPENCLAW_HOME",
        "OPENCLAW_STATE_DIR",
        "OPENCLAW_PROFILE",
        "OPENCLAW_CONFIG_PATH",
    ] {
        cmd.env_remove(k);
    }
    cmd.env("HOME", store.dir.path())
        .env("NO_COLOR", "1")
        .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
        .arg("--state-dir")
        .arg(store.state())
        .arg("--json")
        .args((case.args)(store));
    if let Some(bytes) = limit {
        limit_file_size(&mut cmd, bytes);
    }
    cmd.output().unwrap()
}

fn check(case: &Case) {
    let mut failed = 0;
    for limit in LIMITS {
        let step = format!("{} under a {limit}-byte limit", case.name);
        let store = (case.prepare)();
        let before: BTreeMap<&str, Sessions> =
            AGENTS.iter().map(|a| (*a, sessions(&store, a))).collect();
        let out = run(&store, case, Some(limit));
        if !out.status.success() {
            failed += 1;
            assert_ne!(out.status.code(), Some(101), "{step}: a panic");
            let doc = json(&out);
            let code = doc["error"]["code"].as_str().unwrap_or_default();
            assert!(matches!(code, "IO" | "SQLITE"), "{step}: {doc}");
            assert!(
                !doc["error"]["message"]
                    .as_str()
                    .unwrap_or_default()
                    .is_empty(),
                "{step}: {doc}"
            );
        }
        sound(&store, &step);
        for agent in AGENTS {
            let now = sessions(&store, agent);
            if agent != case.agent {
                assert_eq!(now, before[agent], "{step}: agent {agent} changed");
                continue;
            }
            let archives = archived(&store, agent);
            for (key, was) in &before[agent] {
                let is = now.get(key);
                if is != Some(was) {
                    assert!(
                        (case.allowed)(key, was, is, archives.contains(key)),
                        "{step}: {key} was {was:?}, is {is:?} (archived: {})",
                        archives.contains(key)
                    );
                }
            }
            let new: Vec<&String> = now
                .keys()
                .filter(|k| !before[agent].contains_key(*k) && !case.appear.contains(&k.as_str()))
                .collect();
            assert!(new.is_empty(), "{step}: sessions appeared: {new:?}");
        }
        let again = run(&store, case, None);
        assert!(
            again
                .status
                .code()
                .is_some_and(|c| case.rerun_exits.contains(&c)),
            "{step}: the re-run failed: {}",
            String::from_utf8_lossy(&again.stdout)
        );
        sound(&store, &format!("{step}, re-run"));
        (case.done)(&store);
    }
    eprintln!(
        "{}: failed cleanly under {failed} of {} limits",
        case.name,
        LIMITS.len()
    );
    assert!(
        failed >= 3,
        "{}: the limits bit only {failed} times",
        case.name
    );
}

fn live() -> Store {
    Store::copy("live")
}

fn entry(store: &Store, agent: &str, key: &str) -> Option<Value> {
    sessions(store, agent).remove(key).map(|(e, _)| e)
}

/// Changed in `field` alone (and the `updatedAt` a write stamps).
fn only_changed(before: &Value, now: &Value, field: &str) -> bool {
    let strip = |v: &Value| {
        let mut v = v.clone();
        for f in [field, "updatedAt"] {
            v.as_object_mut().unwrap().remove(f);
        }
        v
    };
    strip(before) == strip(now)
}

/// Archived in place: `archivedAt` and `archiveReason` added, nothing else changed.
fn archived_in_place(before: &Value, now: &Value) -> bool {
    let mut now = now.clone();
    let reason = now.as_object_mut().unwrap().remove("archiveReason");
    reason.is_some_and(|r| r.is_string())
        && now["archivedAt"].is_number()
        && only_changed(before, &now, "archivedAt")
}

const DELETED: [&str; 4] = [
    "agent:main:acp:9911cc46-d649-47bb-9968-72da7c2daff9",
    "agent:main:cron:nightly:run:884",
    "agent:main:pinned-notes",
    "agent:main:telegram:group:-100123456784",
];

#[test]
fn patch_on_a_full_disk() {
    check(&Case {
        name: "patch",
        prepare: live,
        args: |_| {
            [
                "patch",
                "agent:main:main",
                "--set",
                "label=\"Full\"",
                "--yes",
            ]
            .map(String::from)
            .to_vec()
        },
        agent: "main",
        allowed: |key, (was, n), now, _| {
            key == "agent:main:main"
                && now.is_some_and(|(e, m)| {
                    m == n && e["label"] == "Full" && only_changed(was, e, "label")
                })
        },
        appear: &[],
        rerun_exits: &[0],
        done: |s| {
            assert_eq!(
                entry(s, "main", "agent:main:main").unwrap()["label"],
                "Full"
            )
        },
    });
}

#[test]
fn archive_on_a_full_disk() {
    check(&Case {
        name: "archive",
        prepare: live,
        args: |_| {
            ["archive", "agent:main:scratch-1", "--yes"]
                .map(String::from)
                .to_vec()
        },
        agent: "main",
        allowed: |key, (was, n), now, _| {
            key == "agent:main:scratch-1"
                && now.is_some_and(|(e, m)| m == n && archived_in_place(was, e))
        },
        appear: &[],
        rerun_exits: &[0],
        done: |s| {
            assert!(entry(s, "main", "agent:main:scratch-1").unwrap()["archivedAt"].is_number())
        },
    });
}

#[test]
fn delete_on_a_full_disk() {
    check(&Case {
        name: "delete",
        prepare: live,
        args: |_| {
            let mut a = vec!["delete".to_string()];
            a.extend(DELETED.map(String::from));
            a.push("--yes".into());
            a
        },
        agent: "main",
        // Gone only with its transcript archived.
        allowed: |key, _, now, archived| DELETED.contains(&key) && now.is_none() && archived,
        appear: &[],
        // 3: some keys were already deleted by the limited run (missing now), 4: all were.
        rerun_exits: &[0, 3, 4],
        done: |s| {
            for k in DELETED {
                assert!(entry(s, "main", k).is_none(), "{k} survived");
            }
            let pending: i64 = s
                .writable("main")
                .query_row(
                    "SELECT count(*) FROM session_transcript_archives WHERE published_at IS NULL",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(pending, 0, "archives left unpublished");
        },
    });
}

const PRUNE: [&str; 7] = [
    "prune",
    "--agent",
    "main",
    "--older-than",
    "1d",
    "--max-entries",
    "4",
];

#[test]
fn prune_on_a_full_disk() {
    check(&Case {
        name: "prune",
        prepare: live,
        args: |_| {
            let mut a = PRUNE.map(String::from).to_vec();
            a.push("--yes".into());
            a
        },
        agent: "main",
        // Archived in place, or removed with its transcript archived.
        allowed: |_, (was, n), now, archived| match now {
            Some((e, m)) => m == n && archived_in_place(was, e),
            None => archived,
        },
        appear: &[],
        rerun_exits: &[0],
        done: |s| {
            let out = s
                .cmd()
                .args(PRUNE)
                .args(["--dry-run", "--json"])
                .env("OPENCLAW_SESSIONS_NOW_MS", REPORT_NOW)
                .output()
                .unwrap();
            let left = &json(&out)["data"]["agents"][0]["actions"];
            assert_eq!(left.as_array().unwrap().len(), 0, "left to do: {left}");
        },
    });
}

fn snapshot_then_delete_main() -> Store {
    let store = live();
    let repo = store.dir.path().join("repo");
    store.run_ok([
        "backup",
        "create",
        "--agent",
        "main",
        "--repository",
        repo.to_str().unwrap(),
    ]);
    store.run_ok(["delete", "agent:main:main", "--yes"]);
    store
}

fn the_snapshot(store: &Store) -> PathBuf {
    let repo = store.dir.path().join("repo");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&repo)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("manifest.json").exists())
        .collect();
    found.sort();
    found.remove(0)
}

#[test]
fn backup_restore_on_a_full_disk() {
    check(&Case {
        name: "backup restore --in-place",
        prepare: snapshot_then_delete_main,
        args: |s| {
            vec![
                "backup".into(),
                "restore".into(),
                "--in-place".into(),
                "--yes".into(),
                the_snapshot(s).to_string_lossy().into_owned(),
            ]
        },
        agent: "main",
        // The snapshot holds every other session as it is: only the deleted one comes back.
        allowed: |_, _, _, _| false,
        appear: &["agent:main:main"],
        rerun_exits: &[0],
        done: |s| {
            assert!(
                entry(s, "main", "agent:main:main").is_some(),
                "not restored"
            )
        },
    });
}

fn drifted_label() -> Store {
    let store = live();
    store
        .writable("main")
        .execute(
            "UPDATE session_nodes SET label = 'drift' WHERE session_key = 'agent:main:cron:nightly:run:884'",
            [],
        )
        .unwrap();
    store
}

#[test]
fn doctor_fix_on_a_full_disk() {
    check(&Case {
        name: "doctor --fix",
        prepare: drifted_label,
        args: |_| ["doctor", "--fix", "--yes"].map(String::from).to_vec(),
        agent: "main",
        // The repair touches a projected column only, never an entry or a transcript.
        allowed: |_, _, _, _| false,
        appear: &[],
        rerun_exits: &[0],
        done: |s| {
            let label: Option<String> = s
                .writable("main")
                .query_row(
                    "SELECT label FROM session_nodes WHERE session_key = 'agent:main:cron:nightly:run:884'",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_ne!(label.as_deref(), Some("drift"), "not repaired");
        },
    });
}

/// Every file under `dir`, by relative path.
fn tree(dir: &std::path::Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &std::path::Path, dir: &std::path::Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.insert(
                    p.strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    if dir.exists() {
        walk(dir, dir, &mut out);
    }
    out
}

/// `migrate acpx` copies a directory tree, then renames it into place: under every limit the
/// old copy stays whole, the destination is absent or whole, no staging directory is left, and
/// the marker says "completed" only when the destination is there.
#[test]
fn migrate_acpx_on_a_full_disk() {
    let mut failed = 0;
    for limit in LIMITS {
        let step = format!("migrate acpx under a {limit}-byte limit");
        let store = live();
        let old = crate::migrate_acpx::plant_old_state(&store);
        // Larger than the middle limits, so the copy itself runs out of room there.
        std::fs::write(old.join("cache/large.bin"), vec![9u8; 200 << 10]).unwrap();
        let source = tree(&old);
        let dest = store.state().join("acpx");
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("openclaw-sessions"));
        cmd.env("HOME", store.dir.path())
            .arg("--state-dir")
            .arg(store.state())
            .args(["--json", "migrate", "acpx", "--yes"]);
        limit_file_size(&mut cmd, limit);
        let out = cmd.output().unwrap();
        if !out.status.success() {
            failed += 1;
            assert_eq!(out.status.code(), Some(1), "{step}");
            let doc = json(&out);
            assert!(
                matches!(doc["error"]["code"].as_str(), Some("IO" | "SQLITE")),
                "{step}: {doc}"
            );
        }
        assert_eq!(tree(&old), source, "{step}: the old copy changed");
        let moved = tree(&dest);
        assert!(
            moved.is_empty() || moved == source,
            "{step}: a partial destination"
        );
        let completed = crate::migrate_acpx::marker(&store).is_some_and(|m| m["completed"] == true);
        assert!(
            !completed || moved == source,
            "{step}: marked completed without the move"
        );
        let staging: Vec<_> = std::fs::read_dir(store.state())
            .unwrap()
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with(".acpx-migrate-")
            })
            .collect();
        assert!(staging.is_empty(), "{step}: staging left behind");
        sound(&store, &step);
        if moved.is_empty() {
            store.run_ok(["migrate", "acpx", "--yes"]);
        }
        assert_eq!(tree(&dest), source, "{step}: after the re-run");
        assert_eq!(
            crate::migrate_acpx::marker(&store).unwrap()["completed"],
            true,
            "{step}"
        );
    }
    eprintln!(
        "migrate acpx: failed cleanly under {failed} of {} limits",
        LIMITS.len()
    );
    assert!(failed >= 3, "the limits bit only {failed} times");
}
