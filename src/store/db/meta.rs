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

/// The columns of `table` of the main database.
pub fn column_names(conn: &Connection, table: &str) -> rusqlite::Result<HashSet<String>> {
    let mut stmt = conn.prepare_cached("SELECT name FROM pragma_table_info(?1, 'main')")?;
    let rows = stmt.query_map([table], |r| r.get::<_, String>(0))?;
    rows.collect()
}

/// How many rows violate a foreign key.
pub fn foreign_key_violations(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
        r.get(0)
    })
}

/// The names of the database's virtual tables (its FTS5 indexes).
pub fn virtual_tables(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name",
    )?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    rows.collect()
}

/// The complaints of `PRAGMA integrity_check`, of the whole file (`table` None) or of one
/// table only (for a virtual table: its module's own check, FTS5's re-tokenizing of every
/// row against its index); none when it is sound.
pub fn integrity_check(conn: &Connection, table: Option<&str>) -> rusqlite::Result<Vec<String>> {
    let sql = match table {
        None => "PRAGMA integrity_check".to_string(),
        Some(t) => format!("PRAGMA integrity_check(\"{}\")", t.replace('"', "\"\"")),
    };
    check_complaints(conn, &sql)
}

/// Make `conn` know no virtual table module (FTS5 included), so that its
/// `PRAGMA integrity_check` checks every B-tree, row and index but skips the modules' own
/// checks of their virtual tables (SQLite skips a virtual table whose module is unknown).
/// Call it on a fresh connection, before any statement has used a virtual table.
pub fn forget_virtual_table_modules(conn: &Connection) -> rusqlite::Result<()> {
    crate::sys::sqlite_drop_all_modules(conn)
}

/// Doctor: `(table, rowid, parent)` of every row that violates a foreign key.
pub const FOREIGN_KEY_VIOLATIONS_SQL: &str =
    "SELECT \"table\", rowid, parent FROM pragma_foreign_key_check";

/// The session a row of any table belongs to, from the columns the table has: `session_id`,
/// `session_key` and a transcript seq (`seq`, or `event_seq` in the active-event index).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RowSession {
    pub session_id: Option<String>,
    pub session_key: Option<String>,
    pub seq: Option<i64>,
}

/// Doctor: [`RowSession`] of row `rowid` of `table` (a table `pragma_foreign_key_check`
/// named). Columns the table lacks, and values that are not text (or integer for the seq),
/// stay `None`.
pub fn row_session(conn: &Connection, table: &str, rowid: i64) -> rusqlite::Result<RowSession> {
    // `main`: an older layout's missing columns are a TEMP view of the same name (layout.rs).
    let mut stmt = conn.prepare_cached("SELECT name FROM pragma_table_info(?1, 'main')")?;
    let columns: HashSet<String> = stmt
        .query_map([table], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<_>>()?;
    let seq = ["seq", "event_seq"]
        .into_iter()
        .find(|c| columns.contains(*c));
    let pick = |c: &str| {
        if columns.contains(c) {
            format!("\"{c}\"")
        } else {
            "NULL".into()
        }
    };
    let sql = format!(
        "SELECT {}, {}, {} FROM main.\"{}\" WHERE rowid = ?1",
        pick("session_id"),
        pick("session_key"),
        seq.map(pick).unwrap_or_else(|| "NULL".into()),
        table.replace('"', "\"\""),
    );
    let text = |v: rusqlite::types::Value| match v {
        rusqlite::types::Value::Text(t) => Some(t),
        _ => None,
    };
    let found = conn
        .prepare_cached(&sql)?
        .query_row([rowid], |r| {
            Ok(RowSession {
                session_id: text(lossy(r.get_ref(0)?)),
                session_key: text(lossy(r.get_ref(1)?)),
                seq: match r.get_ref(2)? {
                    rusqlite::types::ValueRef::Integer(n) => Some(n),
                    _ => None,
                },
            })
        })
        .optional()?;
    Ok(found.unwrap_or_default())
}

/// A cell as an owned value, text that is not UTF-8 read with U+FFFD in place of its bad
/// bytes (rusqlite's own conversion panics on it; a store may hold anything).
pub fn lossy(v: rusqlite::types::ValueRef<'_>) -> rusqlite::types::Value {
    use rusqlite::types::{Value, ValueRef};
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::Integer(n),
        ValueRef::Real(f) => Value::Real(f),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
}

/// A text cell read as a `String`, bytes that are not UTF-8 as U+FFFD (the doctor's
/// `text-encoding` names the cell); any other type is the usual conversion error.
pub struct LossyText(pub String);

impl rusqlite::types::FromSql for LossyText {
    fn column_result(v: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        match v {
            rusqlite::types::ValueRef::Text(t) => {
                Ok(LossyText(String::from_utf8_lossy(t).into_owned()))
            }
            _ => Err(rusqlite::types::FromSqlError::InvalidType),
        }
    }
}

/// A TEXT cell whose bytes are not UTF-8.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadText {
    pub table: String,
    pub column: String,
    /// None in a table without rowids.
    pub rowid: Option<i64>,
}

/// Doctor: every cell of every ordinary table that holds text that is not UTF-8, in table
/// order. FTS5 tables and their shadow tables are SQLite's own and left out (`integrity`
/// re-checks them). Only text cells are looked at; a blob's bytes are its own business.
pub fn invalid_utf8_cells(
    conn: &Connection,
    visit: &mut dyn FnMut(BadText),
) -> rusqlite::Result<()> {
    let virtual_names = virtual_tables(conn)?;
    let mut stmt = conn.prepare(
        "SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
           AND coalesce(sql, '') NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name",
    )?;
    let tables: Vec<String> = stmt
        .query_map([], |r| Ok(lossy(r.get_ref(0)?)))?
        .filter_map(|v| match v {
            Ok(rusqlite::types::Value::Text(t)) => Some(Ok(t)),
            Ok(_) => None,
            Err(e) => Some(Err(e)),
        })
        .collect::<rusqlite::Result<_>>()?;
    for table in tables {
        if virtual_names
            .iter()
            .any(|v| table.starts_with(&format!("{v}_")))
        {
            continue;
        }
        let quoted = table.replace('"', "\"\"");
        let columns: Vec<String> = conn
            .prepare(&format!(
                "SELECT name FROM pragma_table_info('{}', 'main')",
                table.replace('\'', "''")
            ))?
            .query_map([], |r| Ok(lossy(r.get_ref(0)?)))?
            .filter_map(|v| match v {
                Ok(rusqlite::types::Value::Text(t)) => Some(t),
                _ => None,
            })
            .collect();
        if columns.is_empty() {
            continue;
        }
        // Of each row only its text cells are read (a blob stays on its pages).
        let list = columns
            .iter()
            .map(|c| {
                format!(
                    "CASE WHEN typeof(\"{0}\") = 'text' THEN \"{0}\" END",
                    c.replace('"', "\"\"")
                )
            })
            .collect::<Vec<_>>()
            .join(", ");
        let with_rowid = format!("SELECT rowid, {list} FROM main.\"{quoted}\"");
        let (mut stmt, first) = match conn.prepare(&with_rowid) {
            Ok(s) => (s, 1),
            // WITHOUT ROWID
            Err(_) => (
                conn.prepare(&format!("SELECT {list} FROM main.\"{quoted}\""))?,
                0,
            ),
        };
        let mut rows = stmt.query([])?;
        while let Some(row) = rows.next()? {
            for (i, column) in columns.iter().enumerate() {
                if let rusqlite::types::ValueRef::Text(t) = row.get_ref(first + i)? {
                    if std::str::from_utf8(t).is_err() {
                        visit(BadText {
                            table: table.clone(),
                            column: column.clone(),
                            rowid: if first == 1 { row.get(0).ok() } else { None },
                        });
                    }
                }
            }
        }
    }
    Ok(())
}

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

/// `quick_check` of every B-tree, one table at a time: `sqlite_schema` first (a check that
/// starts at page 1 also walks the freelist), then each ordinary table with its indexes, the
/// full-text index's own tables included. What it leaves to the doctor's whole-file
/// `quick_check` is the count of pages no B-tree uses and FTS5's re-tokenizing of every
/// message against its index, which is most of the whole check's time on a large store
/// (docs/openclaw/HOSTILE.md, section 3). Its first `limit` complaints.
pub fn btree_check(conn: &Connection, limit: usize) -> rusqlite::Result<Vec<String>> {
    let mut tables = vec!["sqlite_schema".to_string()];
    let mut stmt = conn.prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY rootpage",
    )?;
    for name in stmt.query_map([], |r| r.get::<_, String>(0))? {
        tables.push(name?);
    }
    let mut found = Vec::new();
    for table in tables {
        let quoted = table.replace('"', "\"\"");
        found.extend(check_complaints(
            conn,
            &format!("PRAGMA quick_check(\"{quoted}\")"),
        )?);
        if found.len() >= limit.max(1) {
            found.truncate(limit.max(1));
            break;
        }
    }
    Ok(found)
}

/// The complaints of `PRAGMA quick_check` of the whole file (every page, B-tree and row, not
/// whether each index holds what its table says); none when it is sound. FTS5 runs its whole
/// check here too: its module ignores the "quick" flag.
pub fn quick_check(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    check_complaints(conn, "PRAGMA quick_check")
}

/// The complaints of one `integrity_check` or `quick_check` statement, one a line, none when
/// what it checked is sound.
fn check_complaints(conn: &Connection, sql: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(sql)?;
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

/// The main key OpenClaw's key contract records (`session_key_contract.main_key`), if any:
/// its canonical-key rules read it from here, not from the config.
pub fn contract_main_key(conn: &Connection) -> Option<String> {
    conn.query_row(
        "SELECT main_key FROM session_key_contract WHERE id = 1",
        [],
        |r| r.get::<_, Option<String>>(0),
    )
    .optional()
    .ok()
    .flatten()
    .flatten()
}
