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
    } else if let Some(whole) = header_size(&head).filter(|whole| size < *whole) {
        format!("is cut short ({size} of the {whole} bytes its header counts)")
    } else {
        return Ok(());
    };
    Err(not_a_database(path, &what))
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
