//! Every stored value of a table, row by row, whatever the table: what a scan that must see
//! every byte a database holds (`secrets scan`, docs/SECRETS.md) reads. One row is in memory
//! at a time.

use rusqlite::types::ValueRef;
use rusqlite::Connection;

/// The ordinary tables of a database (no virtual table: an FTS5 table's text is read from
/// its `_content` table), with whether they have a rowid.
pub fn tables(conn: &Connection) -> rusqlite::Result<Vec<(String, bool)>> {
    let mut stmt = conn.prepare(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok((r.get::<_, String>(0)?, r.get::<_, Option<String>>(1)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (name, sql) = row?;
        let sql = sql.unwrap_or_default().to_ascii_uppercase();
        if sql.starts_with("CREATE VIRTUAL") {
            continue;
        }
        out.push((name, !sql.contains("WITHOUT ROWID")));
    }
    Ok(out)
}

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The column names of a table, in order.
pub fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let stmt = conn.prepare(&format!("SELECT * FROM {} LIMIT 0", quoted(table)))?;
    let names = stmt.column_names().iter().map(|s| s.to_string()).collect();
    stmt.finalize()?;
    Ok(names)
}

/// Call `visit` with each row's rowid (when the table has one) and its values, in the
/// table's column order; `visit` returns `false` to stop.
pub fn for_each_row(
    conn: &Connection,
    table: &str,
    has_rowid: bool,
    visit: &mut dyn FnMut(Option<i64>, &[ValueRef<'_>]) -> bool,
) -> rusqlite::Result<()> {
    let sql = if has_rowid {
        format!("SELECT rowid, * FROM {}", quoted(table))
    } else {
        format!("SELECT * FROM {}", quoted(table))
    };
    let mut stmt = conn.prepare(&sql)?;
    let n = stmt.column_count();
    let first = usize::from(has_rowid);
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        let mut values: Vec<ValueRef<'_>> = Vec::with_capacity(n);
        for i in first..n {
            values.push(row.get_ref(i)?);
        }
        let rowid = if has_rowid {
            row.get::<_, Option<i64>>(0)?
        } else {
            None
        };
        if !visit(rowid, &values) {
            break;
        }
    }
    Ok(())
}

/// Session id to session key, from the windows and the nodes (either may be missing).
pub fn session_keys(
    conn: &Connection,
) -> rusqlite::Result<std::collections::HashMap<String, String>> {
    let mut out = std::collections::HashMap::new();
    for sql in [
        "SELECT session_id, session_key FROM session_windows WHERE session_key IS NOT NULL",
        "SELECT current_session_id, session_key FROM session_nodes WHERE current_session_id IS NOT NULL",
    ] {
        let Ok(mut stmt) = conn.prepare(sql) else {
            continue;
        };
        let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        for row in rows {
            let (id, key) = row?;
            out.insert(id, key);
        }
    }
    Ok(out)
}

/// The auth-profile stores an agent database keeps (`auth_profile_store.store_json`, 2026.9.6);
/// none when the table is missing.
pub fn auth_profile_stores(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let Ok(mut stmt) = conn.prepare("SELECT store_json FROM auth_profile_store") else {
        return Ok(Vec::new());
    };
    let rows = stmt.query_map([], |r| r.get::<_, Option<String>>(0))?;
    let mut out = Vec::new();
    for row in rows {
        out.extend(row?);
    }
    Ok(out)
}
