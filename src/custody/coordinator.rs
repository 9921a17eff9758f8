use std::fs::File;
use std::os::unix::io::AsRawFd;
use std::path::Path;

/// SQLite's lock bytes (os_unix.c): PENDING_BYTE, RESERVED_BYTE, then the SHARED range.
const PENDING_BYTE: i64 = 0x4000_0000;
const LOCK_RANGE_LEN: i64 = 2 + 510;

/// Whether another process holds a coordinator file's SQLite lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CoordinatorState {
    Missing,
    Free,
    /// Held by a process of this PID namespace.
    Held {
        pid: i32,
    },
    /// Held by a process we cannot see (another PID namespace).
    HeldByUnknown,
}

/// Ask the kernel (F_GETLK) whether a conflicting lock exists, without taking one: a probe
/// that can never make a starting Gateway fail.
pub fn inspect(path: &Path) -> CoordinatorState {
    let Ok(file) = File::open(path) else {
        return CoordinatorState::Missing;
    };
    // SAFETY: a zeroed flock is a valid argument; the fd lives as long as `file`.
    let mut fl: libc::flock = unsafe { std::mem::zeroed() };
    fl.l_type = libc::F_WRLCK as _;
    fl.l_whence = libc::SEEK_SET as _;
    fl.l_start = PENDING_BYTE as _;
    fl.l_len = LOCK_RANGE_LEN as _;
    let rc = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_GETLK, &mut fl) };
    if rc != 0 {
        return CoordinatorState::Free;
    }
    if fl.l_type as i32 == libc::F_UNLCK {
        CoordinatorState::Free
    } else if fl.l_pid > 0 {
        CoordinatorState::Held { pid: fl.l_pid }
    } else {
        CoordinatorState::HeldByUnknown
    }
}
