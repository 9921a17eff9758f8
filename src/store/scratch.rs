//! A private temporary SQLite database: the working memory of a plan that must not grow with
//! the store. `""` opens a database on a temporary file (in `SQLITE_TMPDIR`, `TMPDIR`,
//! `/var/tmp` or `/tmp`) that SQLite writes only when its page cache spills and deletes on
//! close. It stays in one transaction for its whole life: nothing is ever committed to it.

use std::path::PathBuf;

use rusqlite::Connection;

use crate::error::{Result, ResultExt};

/// Open a scratch database with `schema`, its page cache bounded to `cache_kib`. Returns it
/// with the place its errors name (SQLite names no file): `<temp dir>/(<what>)`.
pub fn open_scratch(what: &str, cache_kib: u32, schema: &str) -> Result<(Connection, PathBuf)> {
    let at = std::env::temp_dir().join(format!("({what})"));
    let conn = Connection::open("").at(&at)?;
    conn.execute_batch(&format!(
        "PRAGMA journal_mode = OFF;
         PRAGMA synchronous = OFF;
         PRAGMA cache_size = -{cache_kib};
         PRAGMA temp_store = FILE;
         {schema}
         BEGIN;"
    ))
    .at(&at)?;
    Ok((conn, at))
}
