//! The only `unsafe` in the crate: the system calls that neither rustix nor signal-hook wrap
//! (a lock query that takes no lock, a process-wide change of user, an SQLite call rusqlite
//! does not expose). Everything else goes through those crates' safe functions; the crate
//! roots deny `unsafe_code` and allow it in this module only.

use std::io;
use std::os::fd::{AsFd, AsRawFd};

/// The pid holding a POSIX record lock that a write lock on `start..start + len` of `fd`'s
/// file would conflict with (`fcntl(F_GETLK)`): `None` when there is none. It takes no lock,
/// so the probe can never make another process's locking fail. The pid is 0 or less when
/// the holder lives in another PID namespace. rustix has `fcntl_lock` (which takes a lock)
/// but no `F_GETLK`.
pub fn write_lock_holder(fd: impl AsFd, start: i64, len: i64) -> io::Result<Option<i32>> {
    // SAFETY: an all-zero `flock` is a valid value of this plain C struct.
    let mut fl: libc::flock = unsafe { std::mem::zeroed() };
    fl.l_type = libc::F_WRLCK as _;
    fl.l_whence = libc::SEEK_SET as _;
    fl.l_start = start as _;
    fl.l_len = len as _;
    let fd = fd.as_fd();
    // SAFETY: `fd` is borrowed open for the call; F_GETLK only writes into `fl`, which lives
    // on this stack frame.
    let rc = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_GETLK, &mut fl) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    if fl.l_type as i32 == libc::F_UNLCK {
        Ok(None)
    } else {
        Ok(Some(fl.l_pid))
    }
}

/// Become `uid`/`gid` for the whole process, with no supplementary groups: groups first,
/// then the gid, then the uid (after which the others cannot be changed any more). rustix
/// changes ids per thread only (`rustix::thread::set_thread_uid`); libc's calls change every
/// thread of the process, which is what a process that already runs threads needs.
pub fn become_user(uid: u32, gid: u32) -> io::Result<()> {
    // SAFETY: a null list with a length of 0 is the documented way to clear the groups.
    if unsafe { libc::setgroups(0, std::ptr::null()) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: plain system call on this process; the result is checked.
    if unsafe { libc::setgid(gid) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: plain system call on this process; the result is checked.
    if unsafe { libc::setuid(uid) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// `sqlite3_drop_modules(db, NULL)`: the connection forgets every virtual table module
/// (rusqlite has no safe wrapper for it).
pub fn sqlite_drop_all_modules(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
    // SAFETY: the handle is this open connection's, used on this thread only while `conn` is
    // borrowed; a null list keeps no module.
    let rc = unsafe { rusqlite::ffi::sqlite3_drop_modules(conn.handle(), std::ptr::null_mut()) };
    if rc == rusqlite::ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(rc),
            None,
        ))
    }
}
