use std::fs::File;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Path, PathBuf};

use std::sync::Mutex;

use rusqlite::{Connection, OpenFlags};

use crate::error::{Error, Result, ResultExt};

/// SQLite's lock bytes (os_unix.c): PENDING_BYTE, RESERVED_BYTE, then the SHARED range.
const PENDING_BYTE: i64 = 0x4000_0000;
const LOCK_RANGE_LEN: i64 = 2 + 510;

/// Whether another process holds a coordinator file's SQLite lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case", tag = "state")]
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

/// Coordinators this process holds. POSIX record locks belong to the process and closing
/// *any* descriptor of the file drops them, so a held coordinator is never opened again here.
static HELD: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn held_here(path: &Path) -> bool {
    HELD.lock()
        .map(|h| h.iter().any(|p| p == path))
        .unwrap_or(false)
}

/// Ask the kernel (F_GETLK) whether a conflicting lock exists, without taking one: a probe
/// that can never make a starting Gateway fail. A coordinator this process holds is
/// reported as held by this pid.
pub fn inspect(path: &Path) -> CoordinatorState {
    if held_here(path) {
        return CoordinatorState::Held {
            pid: std::process::id() as i32,
        };
    }
    let Ok(file) = File::open(path) else {
        return CoordinatorState::Missing;
    };
    match crate::sys::write_lock_holder(&file, PENDING_BYTE, LOCK_RANGE_LEN) {
        Err(_) | Ok(None) => CoordinatorState::Free,
        Ok(Some(pid)) if pid > 0 => CoordinatorState::Held { pid },
        Ok(Some(_)) => CoordinatorState::HeldByUnknown,
    }
}

/// An exclusive coordinator lock, held until dropped: an open SQLite connection to the
/// (empty) coordinator file with `BEGIN EXCLUSIVE` outstanding, exactly as OpenClaw holds it.
/// The OS releases it if the process dies.
pub struct HeldCoordinator {
    conn: Option<Connection>,
    pub path: PathBuf,
}

impl std::fmt::Debug for HeldCoordinator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeldCoordinator")
            .field("path", &self.path)
            .finish()
    }
}

/// Create a private directory (0700) if missing.
pub fn ensure_private_dir(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .at(dir)
}

/// Try once to take the coordinator; `Ok(None)` when another process (or another custody
/// of this process) holds it.
pub fn try_acquire(path: &Path) -> Result<Option<HeldCoordinator>> {
    if held_here(path) {
        return Ok(None);
    }
    if let Some(dir) = path.parent() {
        ensure_private_dir(dir)?;
    }
    if !path.exists() {
        // OpenClaw's coordinators are empty files created 0600.
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
        {
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::io(path, e)),
        }
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .at(path)?;
    let is_busy = |e: &rusqlite::Error| {
        matches!(e, rusqlite::Error::SqliteFailure(f, _)
            if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked))
    };
    // The journal-mode pragma already needs a lock: busy there means held, too.
    match conn
        .execute_batch("PRAGMA busy_timeout = 0; PRAGMA journal_mode = MEMORY; BEGIN EXCLUSIVE;")
    {
        Ok(()) => {
            if let Ok(mut held) = HELD.lock() {
                held.push(path.to_path_buf());
            }
            Ok(Some(HeldCoordinator {
                conn: Some(conn),
                path: path.to_path_buf(),
            }))
        }
        Err(e) if is_busy(&e) => Ok(None),
        Err(e) => Err(Error::sqlite(path, e)),
    }
}

impl Drop for HeldCoordinator {
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            let _ = conn.execute_batch("ROLLBACK");
            let _ = conn.close();
        }
        if let Ok(mut held) = HELD.lock() {
            held.retain(|p| p != &self.path);
        }
    }
}
