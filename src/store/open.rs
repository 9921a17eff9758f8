use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, OpenFlags};

use crate::error::{Error, Result, ResultExt};

/// How a database was opened for reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum OpenMode {
    /// No `-wal`/`-journal` beside the file: nothing to replay, so the file is read as is
    /// (`immutable=1`) and SQLite creates no sidecar.
    Immutable,
    /// A `-wal` exists: read through it with the shared-memory file opened read-only, so
    /// neither `-wal` nor `-shm` is written or created.
    ReadOnlyShm,
    /// A `-wal` exists and a long read must stay consistent beside a live writer (backups):
    /// an ordinary read-only reader, which records its read mark in `-shm` as any reader does.
    SharedReader,
    /// A `-wal` with frames but no `-shm`, a torn `-shm` or a hot journal: a private copy of
    /// the file and its `-wal`/`-journal` is read, where SQLite recovers them.
    PrivateCopy,
}

/// What a write changes: the main file (a checkpoint, a rollback-journal commit) or frames in
/// `-wal`. Not whether `-wal` exists: any reader in WAL mode (OpenClaw's, a plain `sqlite3
/// mode=ro`) creates an empty one and removes it again, which changes nothing read.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Fingerprint {
    len: u64,
    modified: Option<SystemTime>,
    wal_frames: bool,
}

fn fingerprint(path: &Path) -> Option<Fingerprint> {
    let meta = std::fs::metadata(path).ok()?;
    Some(Fingerprint {
        len: meta.len(),
        modified: meta.modified().ok(),
        wal_frames: wal_has_frames(path),
    })
}

/// How long a read-only open is tried again while a writer beside it changes its files.
const OPEN_WAIT: Duration = Duration::from_secs(10);

/// What a writer's opening, checkpoint or closing changes: the main file's size and time and
/// which of its sidecar files exist, with their sizes.
fn sidecars(path: &Path) -> [Option<(u64, Option<SystemTime>)>; 4] {
    let of = |p: &Path| {
        std::fs::metadata(p)
            .ok()
            .map(|m| (m.len(), m.modified().ok()))
    };
    [
        of(path),
        of(&sidecar(path, "-wal")),
        of(&sidecar(path, "-shm")),
        of(&sidecar(path, "-journal")),
    ]
}

pub use crate::paths::sqlite_file::sidecar;
use crate::paths::sqlite_file::{crash_state, uri_path, wal_has_frames, CrashState, PrivateCopy};

/// A read-only connection that never checkpoints and never creates a file.
pub struct ReadOnlyDb {
    conn: Connection,
    path: PathBuf,
    mode: OpenMode,
    opened_as: Option<Fingerprint>,
    /// The private copy read instead of the original (see `OpenMode::PrivateCopy`).
    copy: Option<PrivateCopy>,
    /// Whether an older release's missing tables and columns read as empty
    /// (`db::layout`): every reader but a copy of the file (a snapshot), which must see the
    /// database's own schema alone.
    complete_layout: bool,
}

impl std::fmt::Debug for ReadOnlyDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadOnlyDb")
            .field("path", &self.path)
            .field("mode", &self.mode)
            .finish()
    }
}

impl ReadOnlyDb {
    pub fn open(path: &Path) -> Result<Self> {
        Self::open_as(path, false, true)
    }

    /// Open read-only, writing nothing, and see the database's own schema only (no completion
    /// of an older layout): what the schema upgrade recognises a database by.
    pub fn open_as_stored(path: &Path) -> Result<Self> {
        Self::open_as(path, false, false)
    }

    /// Open for a long consistent read (a backup) that may run beside a live writer; the
    /// database is seen with its own schema only.
    pub fn open_for_snapshot(path: &Path) -> Result<Self> {
        Self::open_as(path, true, false)
    }

    /// [`Self::open_once`], again while a writer beside us makes it fail: a writer of ours or
    /// OpenClaw's creates and removes `-wal` and `-shm` as it opens and closes, so the mode
    /// chosen from the files can be stale by the time SQLite opens them ("unable to open
    /// database file"), and a checkpoint can hold the database busy. Such a failure is tried
    /// again, with the files looked at anew, for up to [`OPEN_WAIT`]; past it the database is
    /// `Busy` (exit 75), never an error of the database (docs/openclaw/HOSTILE.md §12).
    fn open_as(path: &Path, shared_reader: bool, complete_layout: bool) -> Result<Self> {
        let deadline = std::time::Instant::now() + OPEN_WAIT;
        let mut pause = Duration::from_millis(2);
        loop {
            let before = sidecars(path);
            let err = match Self::open_once(path, shared_reader, complete_layout) {
                Ok(db) => return Ok(db),
                Err(e) => e,
            };
            let busy = matches!(
                &err,
                Error::Sqlite { source: rusqlite::Error::SqliteFailure(f, _), .. }
                    if matches!(f.code, rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
            );
            if !busy && sidecars(path) == before {
                return Err(err);
            }
            if std::time::Instant::now() >= deadline {
                return Err(Error::Busy {
                    message: format!(
                        "{} kept changing while it was opened for reading: {err}",
                        path.display()
                    ),
                    hint: Some("another process is writing it; run the command again".into()),
                });
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }

    fn open_once(path: &Path, shared_reader: bool, complete_layout: bool) -> Result<Self> {
        let meta = std::fs::metadata(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Error::not_found(format!("database {} does not exist", path.display()), None)
            } else {
                Error::io(path, e)
            }
        })?;
        if !meta.is_file() {
            return Err(Error::bad_input(
                format!("{} is not a file", path.display()),
                None,
            ));
        }
        let wal_len = std::fs::metadata(sidecar(path, "-wal"))
            .map(|m| m.len())
            .ok();
        let has_shm = sidecar(path, "-shm").exists();
        let has_journal = sidecar(path, "-journal").exists();
        let crash = crash_state(path);
        // Without frames to replay, the file alone must be a whole SQLite database.
        if matches!(wal_len, None | Some(0)) && !has_journal {
            super::sqlite_header::require_sqlite_file(path)?;
        }
        let mode = match (wal_len, has_shm, has_journal, shared_reader) {
            // What a killed writer left (a hot journal, a torn WAL index): read a private
            // copy, where SQLite recovers it as it would in place (doctor names the state).
            _ if matches!(crash, Some(CrashState::HotJournal | CrashState::TornShm)) => {
                OpenMode::PrivateCopy
            }
            // No WAL frames to replay (no -wal, an empty one as OpenClaw leaves it, or just
            // its header beside a stale -shm): the file alone is the database, read as is.
            (None | Some(0), _, false, _) => OpenMode::Immutable,
            (Some(_), _, false, false) if !wal_has_frames(path) => OpenMode::Immutable,
            // Frames but no -shm to read them through (a crash leftover, or read-only media
            // where SQLite cannot create one): read a private copy instead.
            (Some(_), false, _, _) => OpenMode::PrivateCopy,
            (_, _, _, false) => OpenMode::ReadOnlyShm,
            (_, _, _, true) => OpenMode::SharedReader,
        };
        match Self::open_mode(path, mode, complete_layout) {
            // The WAL index could not be read as it is (a writer died mid-update in a way
            // the header check cannot see): SQLite recovers it in a private copy.
            Err(e)
                if mode == OpenMode::ReadOnlyShm && e.to_string().contains("locking protocol") =>
            {
                Self::open_mode(path, OpenMode::PrivateCopy, complete_layout)
            }
            other => other,
        }
    }

    fn open_mode(path: &Path, mode: OpenMode, complete_layout: bool) -> Result<Self> {
        let (copy, target) = if mode == OpenMode::PrivateCopy {
            let guard = PrivateCopy::make(path)?;
            let copy = guard.db.clone();
            (Some(guard), copy)
        } else {
            (None, path.to_path_buf())
        };
        let conn = Self::connect(path, &target, mode, complete_layout)?;
        let opened_as = (mode == OpenMode::Immutable)
            .then(|| fingerprint(path))
            .flatten();
        Ok(ReadOnlyDb {
            conn,
            path: path.to_path_buf(),
            mode,
            opened_as,
            copy,
            complete_layout,
        })
    }

    /// Another connection to the same file (the private copy, for one), opened the same
    /// way, with a page cache of `cache_kib` KiB: a whole-store read can then run on a
    /// thread of its own beside this one, its memory apart from this connection's.
    pub fn second_connection(&self, cache_kib: u32) -> Result<Connection> {
        let target = self.copy.as_ref().map_or(&self.path, |c| &c.db);
        let conn = Self::connect(&self.path, target, self.mode, self.complete_layout)?;
        set_cache_kib(&conn, &self.path, cache_kib)?;
        Ok(conn)
    }

    /// SQLite's page cache of this connection, in KiB (its default is about 2 MB).
    pub fn set_page_cache_kib(&self, kib: u32) -> Result<()> {
        set_cache_kib(&self.conn, &self.path, kib)
    }

    fn connect(
        path: &Path,
        target: &Path,
        mode: OpenMode,
        complete_layout: bool,
    ) -> Result<Connection> {
        let params = match mode {
            OpenMode::Immutable => "?mode=ro&immutable=1",
            OpenMode::ReadOnlyShm => "?mode=ro&readonly_shm=1",
            OpenMode::SharedReader => "?mode=ro",
            // Read-write on the private copy only: rolling back a hot journal writes there.
            OpenMode::PrivateCopy => "?mode=rw",
        };
        let uri = format!("{}{params}", uri_path(target));
        let access = if mode == OpenMode::PrivateCopy {
            OpenFlags::SQLITE_OPEN_READ_WRITE
        } else {
            OpenFlags::SQLITE_OPEN_READ_ONLY
        };
        let flags = access | OpenFlags::SQLITE_OPEN_URI | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&uri, flags).at(path)?;
        conn.set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
            true,
        )
        .at(path)?;
        conn.busy_timeout(Duration::from_millis(5000)).at(path)?;
        // Fail early, with the path, on a file that is not a database.
        conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| {
            r.get::<_, i64>(0)
        })
        .map_err(|e| match e {
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::NotADatabase => {
                Error::bad_input(
                    format!("{} is not an SQLite database", path.display()),
                    None,
                )
            }
            other => Error::sqlite(path, other),
        })?;
        // An older release's layout reads as the full one, its missing parts empty.
        if complete_layout {
            super::db::layout::complete_for_reading(&conn).at(path)?;
        }
        conn.execute_batch("PRAGMA query_only = ON; PRAGMA trusted_schema = OFF;")
            .at(path)?;
        Ok(conn)
    }

    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn mode(&self) -> OpenMode {
        self.mode
    }

    /// An immutable read is only valid if no writer wrote meanwhile: a writer in WAL mode
    /// writes frames to `-wal`, and a checkpoint changes the main file.
    pub fn still_consistent(&self) -> bool {
        match &self.opened_as {
            None => true,
            Some(before) => fingerprint(&self.path).as_ref() == Some(before),
        }
    }
}

/// SQLite's page cache of `conn`, in KiB (a negative `cache_size` is KiB).
fn set_cache_kib(conn: &Connection, path: &Path, kib: u32) -> Result<()> {
    conn.pragma_update(None, "cache_size", -i64::from(kib))
        .at(path)
}
