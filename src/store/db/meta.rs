//! What describes a database rather than sessions: `schema_meta`, the table list, the
//! foreign key check.

use std::collections::HashSet;

use rusqlite::{Connection, OptionalExtension};

/// The names of the database's tables.
pub fn table_names(conn: &Connection) -> rusqlite::Result<HashSet<String>> {
    let mut stmt = conn.prepare_cached("SELECT name FROM sqlite_schema WHERE type = 'table'")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    rows.collect()
}

/// Whether the database has a table named `name` (false when it cannot tell).
pub fn table_exists(conn: &Connection, name: &str) -> bool {
    conn.query_row(
        "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1",
        [name],
        |_| Ok(()),
    )
    .is_ok()
}

/// How many rows violate a foreign key.
pub fn foreign_key_violations(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
        r.get(0)
    })
}

/// Doctor: `(table, rowid, parent)` of every row that violates a foreign key.
pub const FOREIGN_KEY_VIOLATIONS_SQL: &str =
    "SELECT \"table\", rowid, parent FROM pragma_foreign_key_check";

/// The `role` and `agent_id` the database's `schema_meta` records.
pub fn role_and_owner<R: rusqlite::types::FromSql, O: rusqlite::types::FromSql>(
    conn: &Connection,
) -> rusqlite::Result<(R, O)> {
    conn.query_row(
        "SELECT role, agent_id FROM schema_meta WHERE meta_key = 'primary'",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
}

/// When the database was created, as `schema_meta` records it.
pub fn created_at(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT created_at FROM schema_meta WHERE meta_key='primary'",
        [],
        |r| r.get(0),
    )
}

/// Whether the database has its `schema_meta` table.
pub fn has_schema_meta(conn: &Connection) -> rusqlite::Result<bool> {
    Ok(conn
        .query_row(
            "SELECT 1 FROM sqlite_schema WHERE type='table' AND name='schema_meta'",
            [],
            |_| Ok(true),
        )
        .optional()?
        .unwrap_or(false))
}

/// The `role`, `agent_id` and `app_version` of the `schema_meta` row `primary`.
pub type Identity = (Option<String>, Option<String>, Option<String>);

pub fn identity(conn: &Connection) -> rusqlite::Result<Option<Identity>> {
    conn.query_row(
        "SELECT role, agent_id, app_version FROM schema_meta WHERE meta_key='primary'",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
    )
    .optional()
}

/// `PRAGMA quick_check`: its first `limit` complaints, none when the database is sound.
pub fn quick_check(conn: &Connection, limit: usize) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!("PRAGMA quick_check({})", limit.max(1)))?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    let found: Vec<String> = rows.collect::<rusqlite::Result<_>>()?;
    // One complaint may span lines, under a "*** in database main ***" heading.
    Ok(found
        .iter()
        .flat_map(|r| r.lines())
        .map(str::trim)
        .filter(|l| *l != "ok" && !l.is_empty() && !l.starts_with("***"))
        .map(String::from)
        .collect())
}
