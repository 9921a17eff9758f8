//! The SQL over OpenClaw's tables, one module per table family. Modules above `store/`
//! call these functions (or use their statement texts) instead of writing SQL: a table's
//! statements are found, and changed, in one place.
//!
//! Functions take a `&Connection` (a `Transaction` derefs to one) and return
//! `rusqlite::Result`, so callers keep naming the database in their errors. Statements run
//! once per row of a bulk write go through the connection's statement cache.
//!
//! `create` makes new databases with OpenClaw's schema (`schema/*.sql`).

pub mod all_values;
pub mod archives;
pub mod conversations;
pub mod create;
pub mod event_index;
pub mod events;
pub mod fts;
pub mod layout;
pub mod meta;
pub mod nodes;
pub mod session_copy;
pub mod state;
pub mod upgrade;
pub mod vacuum;
pub mod windows;

/// Delete rows of `table` by rowid, one prepared statement for all (doctor's orphan repair;
/// `table` is one of the tables its orphan queries name).
pub fn delete_rowids(
    conn: &rusqlite::Connection,
    table: &str,
    rowids: &[i64],
) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare(&format!("DELETE FROM {table} WHERE rowid = ?1"))?;
    for r in rowids {
        stmt.execute([r])?;
    }
    Ok(())
}
