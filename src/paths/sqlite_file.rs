//! Naming and copying an SQLite file without touching it: its sidecars, its `file:` URI, and a
//! private copy to read through when its WAL has no shared-memory file (shared by the owner
//! read here and by `store::ReadOnlyDb`).

use std::path::{Path, PathBuf};

use crate::error::{Result, ResultExt};

/// `<path><suffix>`: `-wal`, `-shm`, `-journal`.
pub fn sidecar(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

/// A `file:` URI for `path`. SQLite decodes `%HH` escapes to bytes, so every byte that a URI
/// cannot carry literally (`%`, `?`, `#`, controls, space and anything outside ASCII) is escaped:
/// a path in any language, and even one that is not UTF-8, names the same file.
pub fn uri_path(path: &Path) -> String {
    use std::fmt::Write;
    use std::os::unix::ffi::OsStrExt;
    let mut out = String::from("file:");
    for &b in path.as_os_str().as_bytes() {
        match b {
            b'%' | b'?' | b'#' | b' ' | 0..=0x1f | 0x7f..=0xff => {
                let _ = write!(out, "%{b:02X}");
            }
            _ => out.push(b as char),
        }
    }
    out
}

/// A database and its `-wal` copied into a fresh 0700 directory, removed on drop: SQLite
/// rebuilds the WAL index there, so nothing is ever written beside the original.
pub struct PrivateCopy {
    dir: PathBuf,
    /// The copied database.
    pub db: PathBuf,
}

impl PrivateCopy {
    pub fn make(db: &Path) -> Result<Self> {
        use std::os::unix::fs::DirBuilderExt;
        let dir =
            std::env::temp_dir().join(format!("openclaw-sessions-read-{}", uuid::Uuid::new_v4()));
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&dir)
            .at(&dir)?;
        let copy = PrivateCopy {
            db: dir.join(db.file_name().unwrap_or_default()),
            dir,
        };
        std::fs::copy(db, &copy.db).at(db)?;
        // The sidecars SQLite recovers from: the WAL's frames, a hot journal's originals. The
        // `-shm` never: SQLite rebuilds the WAL index from the frames.
        for suffix in ["-wal", "-journal"] {
            let from = sidecar(db, suffix);
            if from.is_file() {
                std::fs::copy(&from, sidecar(&copy.db, suffix)).at(&from)?;
            }
        }
        Ok(copy)
    }
}

impl Drop for PrivateCopy {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What a killed writer left beside a database, that SQLite recovers on the next write (and
/// that a read-only reader cannot recover in place). See `docs/openclaw/CRASH-STATES.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CrashState {
    /// A `-wal` with no complete frame (its header at most) beside a `-shm` that still
    /// describes frames: the WAL index of a writer killed around a checkpoint.
    StaleShm,
    /// A `-wal` with frames and a `-shm` whose header copies disagree or are not initialised.
    TornShm,
    /// A `-journal` with a valid header: a rollback-mode writer died mid-transaction and the
    /// database file may hold half of it.
    HotJournal,
}

impl CrashState {
    pub fn describe(self) -> &'static str {
        match self {
            CrashState::StaleShm => {
                "its -wal holds no frames but its -shm still describes some (a writer was killed)"
            }
            CrashState::TornShm => {
                "its -shm header is torn (a writer was killed while updating the WAL index)"
            }
            CrashState::HotJournal => {
                "a hot rollback journal: a writer died mid-transaction and the file holds part of it"
            }
        }
    }
}

/// The page size from the database header (bytes 16-17, big-endian; 1 means 65536).
fn page_size(db: &Path) -> Option<u64> {
    use std::io::Read;
    let mut header = [0u8; 18];
    std::fs::File::open(db).ok()?.read_exact(&mut header).ok()?;
    match u16::from_be_bytes([header[16], header[17]]) {
        1 => Some(65536),
        n if n >= 512 && n.is_power_of_two() => Some(u64::from(n)),
        _ => None,
    }
}

/// Whether the `-wal` beside `db` holds at least one complete frame (32-byte header, then
/// frames of a 24-byte header plus one page): one without any has nothing to replay.
pub fn wal_has_frames(db: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(sidecar(db, "-wal")) else {
        return false;
    };
    let page = page_size(db).unwrap_or(512);
    meta.len() >= 32 + 24 + page
}

/// The two copies of the WAL-index header at the start of `-shm` (48 bytes each): equal and
/// initialised when the last writer finished updating them.
fn shm_header(db: &Path) -> Option<Vec<u8>> {
    use std::io::Read;
    let mut head = vec![0u8; 96];
    std::fs::File::open(sidecar(db, "-shm"))
        .ok()?
        .read_exact(&mut head)
        .ok()?;
    Some(head)
}

/// A `-journal` whose header starts with the journal magic (a zeroed or truncated header is
/// a finished transaction, not a hot one).
pub fn hot_journal(db: &Path) -> bool {
    use std::io::Read;
    const MAGIC: [u8; 8] = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];
    let mut head = [0u8; 8];
    std::fs::File::open(sidecar(db, "-journal"))
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && head == MAGIC
}

/// The crash state beside `db`, if any (read from the files only; nothing is opened).
pub fn crash_state(db: &Path) -> Option<CrashState> {
    if hot_journal(db) {
        return Some(CrashState::HotJournal);
    }
    let head = shm_header(db)?;
    let (first, second) = head.split_at(48);
    // Header fields: iVersion (u32) at 0, isInit (u8) at 12, mxFrame (u32) at 16, native
    // byte order.
    let version = u32::from_ne_bytes([first[0], first[1], first[2], first[3]]);
    let initialised = first[12] != 0;
    let max_frame = u32::from_ne_bytes([first[16], first[17], first[18], first[19]]);
    if !wal_has_frames(db) {
        return (initialised && max_frame > 0).then_some(CrashState::StaleShm);
    }
    (first != second || version != 3_007_000 || !initialised).then_some(CrashState::TornShm)
}

/// Let SQLite recover `db` in place, as the next writer would: open it read-write, read the
/// schema (a hot journal is rolled back, a WAL index rebuilt), checkpoint the WAL and close
/// (the last connection removes `-wal` and `-shm`). The caller holds custody.
pub fn recover_in_place(db: &Path) -> Result<()> {
    use rusqlite::{Connection, OpenFlags};
    let conn = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .at(db)?;
    conn.busy_timeout(std::time::Duration::from_millis(5000))
        .at(db)?;
    conn.query_row("SELECT count(*) FROM sqlite_schema", [], |r| {
        r.get::<_, i64>(0)
    })
    .at(db)?;
    let wal: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .at(db)?;
    if wal.eq_ignore_ascii_case("wal") {
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .at(db)?;
    }
    conn.close().map_err(|(_, e)| e).at(db)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::ffi::OsStrExt;

    #[test]
    fn uri_path_escapes_every_byte_a_uri_cannot_carry() {
        assert_eq!(
            uri_path(Path::new("/home/jos\u{e9}/a b%?#.sqlite")),
            "file:/home/jos%C3%A9/a%20b%25%3F%23.sqlite"
        );
        let raw = std::ffi::OsStr::from_bytes(b"/tmp/\xff\x01x");
        assert_eq!(uri_path(Path::new(raw)), "file:/tmp/%FF%01x");
    }
}
