//! Offline custody: exclusion, stale locks, crashes (tests/reference/openclaw/OPERATIONS.md §7).

use std::path::PathBuf;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::common::{checksums, expect_exit, json, Store};

pub fn lock_dir(store: &Store) -> PathBuf {
    store
        .state()
        .join("tmp")
        .join(format!("openclaw-{}", unsafe { libc::getuid() }))
}

/// `custody run -- sleep SECS` on the store, returned once it holds custody (the caller
/// kills and waits for it).
pub fn hold(store: &Store, secs: &str) -> Child {
    hold_as(store, secs, &[])
}

/// [`hold`] run through `wrapper` (for example `setpriv` to another uid), whose lock directory
/// is `tmp/openclaw-<uid>/`.
pub fn hold_as(store: &Store, secs: &str, wrapper: &[&str]) -> Child {
    let bin = assert_cmd::cargo::cargo_bin("openclaw-sessions");
    let (program, lock_dir) = match wrapper {
        [] => (bin.clone().into_os_string(), lock_dir(store)),
        [first, ..] => (
            std::ffi::OsString::from(first),
            store.state().join("tmp").join(format!(
                "openclaw-{}",
                wrapper
                    .iter()
                    .skip_while(|a| **a != "--reuid")
                    .nth(1)
                    .expect("a --reuid in the wrapper")
            )),
        ),
    };
    let mut cmd = std::process::Command::new(program);
    if !wrapper.is_empty() {
        cmd.args(&wrapper[1..]).arg(&bin);
    }
    let child = cmd
        .arg("--state-dir")
        .arg(store.state())
        .args(["custody", "run", "--", "sleep", secs])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The config lock is taken last: once it exists, custody is complete.
    let t = Instant::now();
    loop {
        let n = std::fs::read_dir(&lock_dir)
            .map(|d| {
                d.flatten()
                    .filter(|e| e.file_name().to_string_lossy().ends_with(".lock"))
                    .count()
            })
            .unwrap_or(0);
        if n >= 2 {
            break;
        }
        assert!(t.elapsed() < Duration::from_secs(10), "custody never taken");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

fn payload(pid: i64, start_time: Option<i64>, created_at: &str) -> String {
    let mut v = serde_json::json!({
        "pid": pid, "ownerId": "test", "createdAt": created_at,
        "configPath": "/home/user/.openclaw/openclaw.json", "stateDir": "/home/user/.openclaw",
        "role": "sqlite-maintenance",
    });
    if let Some(s) = start_time {
        v["startTime"] = s.into();
    }
    format!(
        "{}\n\t\t\t\t\t\t\t\t{}\n",
        serde_json::to_string_pretty(&v).unwrap(),
        " ".repeat(128)
    )
}

pub fn start_time(pid: u32) -> i64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    stat[stat.rfind(')').unwrap() + 2..]
        .split_whitespace()
        .nth(19)
        .unwrap()
        .parse()
        .unwrap()
}

/// A state lock written a minute ago: past the 30 s in which OpenClaw leaves any lock alone
/// (a fresh one is in conditions.rs).
fn plant_state_lock(store: &Store, text: &str) -> PathBuf {
    let dir = lock_dir(store);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("gateway.state.lock");
    std::fs::write(&path, text).unwrap();
    let minute_ago = std::time::SystemTime::now() - Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(minute_ago)
        .unwrap();
    path
}

#[test]
fn exactly_one_instance_gets_custody_and_readers_still_work() {
    let store = Store::copy("live");
    let mut holder = hold(&store, "4");
    let out = store.run_code(["custody", "run", "--", "true"], 75);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sqlite-maintenance") && err.contains(&format!("pid {}", holder.id())),
        "{err}"
    );
    let doc = json(
        &store
            .cmd()
            .args(["custody", "run", "--json", "--", "true"])
            .output()
            .unwrap(),
    );
    assert_eq!(doc["error"]["code"], "OWNER_UNAVAILABLE");
    let status = json(
        &store
            .cmd()
            .args(["custody", "status", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(status["data"]["owner"]["state"], "live");
    assert_eq!(status["data"]["owner"]["pid"], holder.id());
    // Readers are not blocked.
    assert!(store
        .cmd()
        .args(["list", "--all-agents"])
        .output()
        .unwrap()
        .status
        .success());
    // clear-stale never removes a live lock.
    assert!(store
        .cmd()
        .args(["custody", "clear-stale"])
        .output()
        .unwrap()
        .status
        .success());
    assert!(lock_dir(&store).join("gateway.state.lock").exists());
    // --wait outlasts the holder.
    let waited = store
        .cmd()
        .args(["custody", "run", "--wait", "20", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(
        waited.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&waited.stderr)
    );
    holder.wait().unwrap();
    // Released: no lock files left, only the (empty) coordinators.
    let left: Vec<_> = std::fs::read_dir(lock_dir(&store))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".lock"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn run_exits_with_the_commands_code_and_hands_custody_to_children() {
    let store = Store::copy("live");
    store.run_code(["custody", "run", "--", "sh", "-c", "exit 7"], 7);
    // A nested run inherits the parent's custody instead of deadlocking.
    let bin = assert_cmd::cargo::cargo_bin("openclaw-sessions");
    let inner = format!(
        "{} --state-dir {} custody run -- true",
        bin.display(),
        store.state().display()
    );
    let out = store
        .cmd()
        .args(["custody", "run", "--", "sh", "-c", &inner])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn kill_dash_9_leaves_nothing_that_blocks_the_next_run() {
    let store = Store::copy("live");
    let mut holder = hold(&store, "30");
    unsafe { libc::kill(holder.id() as i32, libc::SIGKILL) };
    holder.wait().unwrap();
    assert!(
        lock_dir(&store).join("gateway.state.lock").exists(),
        "the crash left its lock file"
    );
    let status = json(
        &store
            .cmd()
            .args(["custody", "status", "--json"])
            .output()
            .unwrap(),
    );
    assert_eq!(status["data"]["owner"]["state"], "stale");
    let out = store
        .cmd()
        .args(["custody", "run", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("reclaimed a stale lock"));
}

#[test]
fn stale_locks_are_reclaimed_and_live_ones_refused() {
    let me = std::process::id();
    let now = "2099-01-01T00:00:00.000Z";
    let long_ago = "2020-01-01T00:00:00.000Z";
    // A dead pid, a reused pid with another start time, no pid and older than 30 s.
    let dead = i32::MAX as i64 - 7;
    let no_pid = payload(0, None, long_ago).replace("\"pid\": 0,\n", "");
    for (name, text) in [
        ("dead pid", payload(dead, Some(1), now)),
        (
            "reused pid",
            payload(me as i64, Some(start_time(me) + 1), now),
        ),
        ("no pid, old", no_pid),
    ] {
        let store = Store::copy("live");
        plant_state_lock(&store, &text);
        let out = store
            .cmd()
            .args(["custody", "run", "--", "true"])
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let store2 = Store::copy("live");
        let path = plant_state_lock(&store2, &text);
        // A dry run names it and leaves every file as it was.
        let before = checksums(&store2.state());
        let dry = json(
            &store2
                .cmd()
                .args(["custody", "clear-stale", "--dry-run", "--json"])
                .output()
                .unwrap(),
        );
        assert_eq!(
            dry["data"]["stale"].as_array().unwrap().len(),
            1,
            "{name}: {dry}"
        );
        assert!(
            checksums(&store2.state()) == before,
            "{name}: the dry run wrote"
        );
        let cleared = json(
            &store2
                .cmd()
                .args(["custody", "clear-stale", "--json"])
                .output()
                .unwrap(),
        );
        assert_eq!(
            cleared["data"]["removed"].as_array().unwrap().len(),
            1,
            "{name}"
        );
        assert!(!path.exists());
    }
    // A live pid with its own start time: refused, and clear-stale keeps it.
    let store = Store::copy("live");
    let path = plant_state_lock(&store, &payload(me as i64, Some(start_time(me)), now));
    let out = store
        .cmd()
        .args(["custody", "run", "--", "true"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(75),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    store
        .cmd()
        .args(["custody", "clear-stale"])
        .output()
        .unwrap();
    assert!(path.exists());
}

/// An owner in another PID namespace cannot be judged: GATEWAY_STATE_OWNER_REQUIRED.
#[test]
fn an_owner_outside_our_pid_namespace_cannot_be_judged() {
    let probe = std::process::Command::new("unshare")
        .args(["--fork", "--pid", "--mount-proc", "true"])
        .output();
    if !probe.map(|o| o.status.success()).unwrap_or(false) {
        crate::common::cannot_run_here("unshare --pid is not available");
        return;
    }
    let store = Store::copy("live");
    let mut holder = hold(&store, "4");
    let bin = assert_cmd::cargo::cargo_bin("openclaw-sessions");
    let out = std::process::Command::new("unshare")
        .args(["--fork", "--pid", "--mount-proc"])
        .arg(&bin)
        .arg("--state-dir")
        .arg(store.state())
        .args(["--json", "patch", "agent:main:main", "--set", "label=\"x\""])
        .output()
        .unwrap();
    expect_exit(&out, 75);
    assert_eq!(json(&out)["error"]["code"], "GATEWAY_STATE_OWNER_REQUIRED");
    holder.wait().unwrap();
}
