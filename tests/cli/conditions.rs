//! Hostile conditions around a sound store: output nobody reads, databases that are not what
//! their place says, owners under other uids, bad input, leftovers of killed runs. (Signals
//! are in faults.rs, beside the other faults of a run.)

use std::os::fd::{FromRawFd, OwnedFd};
use std::process::Stdio;

use crate::common::{checksums, json, std_bin, Store};
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
    assert_eq!(out.status.code(), Some(0), "{:?}", out.status);
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
    assert_eq!(out.status.code(), Some(0), "{:?}", out.status);
    let left: i64 = db
        .query_row(
            "SELECT count(*) FROM session_nodes WHERE session_key LIKE 'agent:work:bulk-1%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(left, 50);
    let _ = (checksums, json);
}
