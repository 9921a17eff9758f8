//! `session_transcript_archives` rows looked up or removed by name (maintenance artifacts).

use rusqlite::Connection;

use super::db::archives;
use crate::error::{Result, ResultExt};

pub fn archive_row_exists(conn: &Connection, path: &std::path::Path, name: &str) -> Result<bool> {
    archives::exists_named(conn, name).at(path)
}

pub fn delete_archive_row(conn: &Connection, path: &std::path::Path, name: &str) -> Result<usize> {
    archives::delete_named(conn, name).at(path)
}
