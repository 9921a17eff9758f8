//! Whether a file is a whole SQLite database at all, read from its first 100 bytes: the
//! refusals name what the file is (empty, something else, cut short) instead of the first
//! query's "no such table" (docs/openclaw/HOSTILE.md, section 3).

use std::path::Path;

use crate::error::{Error, Remedy, Result, ResultExt};

/// The first bytes of every SQLite 3 database file.
const SQLITE_HEADER: &[u8; 16] = b"SQLite format 3\0";

/// Refuse a file that is not an SQLite database at all (empty, cut short before its header,
/// or something else), saying what it is, instead of the first query's "no such table" or
/// "file is not a database" (docs/openclaw/HOSTILE.md, section 3).
pub fn require_sqlite_file(path: &Path) -> Result<()> {
    let size = std::fs::metadata(path).at(path)?.len();
    let mut head = [0u8; 100];
    let read = std::fs::File::open(path)
        .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
        .at(path)?;
    let what = if size == 0 {
        "is empty (0 bytes)".to_string()
    } else if read < head.len() || &head[..16] != SQLITE_HEADER {
        format!("is not an SQLite database ({size} bytes)")
    } else if let Some(whole) = header_size(&head)
        .filter(|whole| size < *whole)
        .filter(|_| !wal_has_frames(path))
    {
        format!("is cut short ({size} of the {whole} bytes its header counts)")
    } else {
        return Ok(());
    };
    Err(not_a_database(path, &what))
}

/// Whether the database's `-wal` holds at least one frame (its 32-byte header, then 24 bytes
/// and a page per frame). A writer killed before a checkpoint can leave a main file shorter
/// than its header counts with the rest in the WAL, which SQLite replays on open: such a file
/// is not cut short (docs/openclaw/HOSTILE.md, section 3).
pub fn wal_has_frames(path: &Path) -> bool {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    std::fs::metadata(wal).is_ok_and(|m| m.len() >= 32 + 24 + 512)
}

/// The database size the header records (page size times page count), when SQLite itself
/// would trust it: the change counter equals the "version valid for" number (SQLite's file
/// format, "in-header database size").
fn header_size(head: &[u8; 100]) -> Option<u64> {
    let be32 = |at: usize| u32::from_be_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
    let page_size = match u16::from_be_bytes([head[16], head[17]]) {
        1 => 65_536,
        n => u64::from(n),
    };
    let pages = u64::from(be32(28));
    (be32(24) == be32(92) && pages > 0 && page_size >= 512).then_some(page_size * pages)
}

pub(super) fn not_a_database(path: &Path, what: &str) -> Error {
    Error::UnsupportedSchema {
        message: format!("{} {what}: nothing in it can be read", path.display()),
        hint: Some(
            "see the damage with the doctor, then bring back a verified snapshot in place".into(),
        ),
    }
    .with_remedy(Remedy::DamagedDatabase)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A main file whose header counts 4 pages of 4096 bytes but holds one.
    fn short_main(dir: &Path) -> std::path::PathBuf {
        let path = dir.join("openclaw-agent.sqlite");
        let mut page = vec![0u8; 4096];
        page[..16].copy_from_slice(SQLITE_HEADER);
        page[16..18].copy_from_slice(&4096u16.to_be_bytes());
        page[24..28].copy_from_slice(&7u32.to_be_bytes());
        page[28..32].copy_from_slice(&4u32.to_be_bytes());
        page[92..96].copy_from_slice(&7u32.to_be_bytes());
        std::fs::write(&path, page).unwrap();
        path
    }

    #[test]
    fn a_short_main_file_is_cut_short_without_a_wal() {
        let dir = tempfile::tempdir().unwrap();
        let path = short_main(dir.path());
        let err = require_sqlite_file(&path).unwrap_err().to_string();
        assert!(
            err.contains("is cut short (4096 of the 16384 bytes"),
            "{err}"
        );
        // An empty WAL (its header only) recovers nothing either.
        std::fs::write(dir.path().join("openclaw-agent.sqlite-wal"), [0u8; 32]).unwrap();
        assert!(require_sqlite_file(&path).is_err());
    }

    #[test]
    fn a_short_main_file_with_wal_frames_is_left_to_sqlite() {
        let dir = tempfile::tempdir().unwrap();
        let path = short_main(dir.path());
        std::fs::write(
            dir.path().join("openclaw-agent.sqlite-wal"),
            vec![0u8; 32 + 24 + 4096],
        )
        .unwrap();
        require_sqlite_file(&path).unwrap();
    }
}
