//! `session_transcript_archives` rows looked up or removed by name (maintenance artifacts).

use rusqlite::Connection;

use crate::error::{Result, ResultExt};

pub fn archive_row_exists(conn: &Connection, path: &std::path::Path, name: &str) -> Result<bool> {
    conn.prepare_cached("SELECT 1 FROM session_transcript_archives WHERE archive_name = ?1")
        .and_then(|mut s| s.exists([name]))
        .at(path)
}

pub fn delete_archive_row(conn: &Connection, path: &std::path::Path, name: &str) -> Result<usize> {
    conn.execute(
        "DELETE FROM session_transcript_archives WHERE archive_name = ?1",
        [name],
    )
    .at(path)
}
