//! What describes a database rather than sessions: `schema_meta`, the table list, the
//! foreign key check.

use std::collections::HashSet;

use rusqlite::Connection;

/// The names of the database's tables.
pub fn table_names(conn: &Connection) -> rusqlite::Result<HashSet<String>> {
    let mut stmt = conn.prepare_cached("SELECT name FROM sqlite_schema WHERE type = 'table'")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    rows.collect()
}
