//! Reading an older release's database as if it had the layout this tool reads
//! (docs/openclaw/RELEASES.md, "Reading every schema").
//!
//! Each OpenClaw release only ever adds tables and columns to the agent and state databases
//! (agent 16 -> 19 -> 21 -> 23, state 6 -> 15 ... 18), and a database 2026.9.6 upgraded lacks
//! a few columns one it created has. A table or column a release never had holds nothing in
//! its databases, and that release reads it as nothing. So, on a read-only connection only,
//! each missing table gets an empty TEMP table of the same name and columns, and each table
//! that lacks columns a TEMP view of the same name that adds them as NULL (SQLite looks an
//! unqualified name up in `temp` first). Every read then runs unchanged and sees absent data,
//! never an SQL error; nothing is written to the database (TEMP lives in memory), and a
//! database with the full layout gets nothing.
//!
//! The temp objects carry no constraints, so `PRAGMA foreign_key_check` and the integrity
//! checks see only the database's own tables. A view has no rowid: code that reads a rowid
//! of a table names `main.` explicitly.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use rusqlite::Connection;

use crate::store::releases::DatabaseRole;

/// One table of the layout this tool reads: its name, columns in order, whether it has a
/// rowid, and its definition when it is an FTS5 virtual table.
#[derive(Debug)]
struct TableLayout {
    name: String,
    columns: Vec<String>,
    has_rowid: bool,
    virtual_sql: Option<String>,
}

fn expected(role: DatabaseRole) -> &'static [TableLayout] {
    static AGENT: OnceLock<Vec<TableLayout>> = OnceLock::new();
    static STATE: OnceLock<Vec<TableLayout>> = OnceLock::new();
    let (cell, sql) = match role {
        DatabaseRole::Agent => (&AGENT, super::create::AGENT_SQL),
        DatabaseRole::Global => (&STATE, super::create::STATE_SQL),
    };
    cell.get_or_init(|| layout_of_schema(sql).unwrap_or_default())
}

/// The tables of a schema dump, read back from an in-memory database made with it.
fn layout_of_schema(sql: &str) -> rusqlite::Result<Vec<TableLayout>> {
    let conn = Connection::open_in_memory()?;
    conn.execute_batch(&super::create::creatable(sql))?;
    tables_of(&conn, "main")
}

/// The tables of `schema` of `conn` that a reader names: FTS5's shadow tables and SQLite's
/// own are left out.
fn tables_of(conn: &Connection, schema: &str) -> rusqlite::Result<Vec<TableLayout>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT name, sql FROM {schema}.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
    ))?;
    let rows: Vec<(String, Option<String>)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    // FTS5 keeps each virtual table's index in these shadow tables of its own.
    let shadows: HashSet<String> = rows
        .iter()
        .filter(|(_, sql)| is_virtual(sql.as_deref()))
        .flat_map(|(name, _)| {
            ["data", "idx", "content", "docsize", "config"].map(|s| format!("{name}_{s}"))
        })
        .collect();
    let mut cols = conn.prepare(&format!(
        "SELECT name FROM pragma_table_info(?1, '{schema}') ORDER BY cid"
    ))?;
    let mut out = Vec::new();
    for (name, sql) in rows {
        if shadows.contains(&name) {
            continue;
        }
        let columns = cols
            .query_map([&name], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<_>>()?;
        out.push(TableLayout {
            name,
            columns,
            has_rowid: !sql.as_deref().is_some_and(|s| s.contains("WITHOUT ROWID")),
            virtual_sql: sql.filter(|s| is_virtual(Some(s))),
        });
    }
    Ok(out)
}

fn is_virtual(sql: Option<&str>) -> bool {
    sql.is_some_and(|s| s.starts_with("CREATE VIRTUAL TABLE"))
}

fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// What a database lacks of the layout this tool reads: tables, and columns by table.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MissingLayout {
    pub tables: Vec<String>,
    pub columns: Vec<(String, Vec<String>)>,
}

impl MissingLayout {
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty() && self.columns.is_empty()
    }
}

/// The role whose layout a database has, judged from its tables: agent databases hold
/// `session_nodes`, the state database `agent_databases`. Neither: not one of OpenClaw's
/// session databases (a lock coordinator, a pre-SQLite agent database).
pub fn role_of(conn: &Connection) -> rusqlite::Result<Option<DatabaseRole>> {
    let has = |t: &str| super::meta::table_exists(conn, t);
    Ok(if has("session_nodes") {
        Some(DatabaseRole::Agent)
    } else if has("agent_databases") {
        Some(DatabaseRole::Global)
    } else {
        None
    })
}

/// What `conn`'s main database lacks of `role`'s layout.
pub fn missing(conn: &Connection, role: DatabaseRole) -> rusqlite::Result<MissingLayout> {
    let have: HashMap<String, TableLayout> = tables_of(conn, "main")?
        .into_iter()
        .map(|t| (t.name.clone(), t))
        .collect();
    let mut out = MissingLayout::default();
    for want in expected(role) {
        match have.get(&want.name) {
            None => out.tables.push(want.name.clone()),
            Some(got) => {
                let got: HashSet<&str> = got.columns.iter().map(String::as_str).collect();
                let lacking: Vec<String> = want
                    .columns
                    .iter()
                    .filter(|c| !got.contains(c.as_str()))
                    .cloned()
                    .collect();
                if !lacking.is_empty() {
                    out.columns.push((want.name.clone(), lacking));
                }
            }
        }
    }
    Ok(out)
}

/// Give a read-only connection's view of its database the full layout of the role its
/// tables show (see the module comment). Runs before the connection is made query-only;
/// returns what was missing (empty for a database with the full layout, or of no role).
pub fn complete_for_reading(conn: &Connection) -> rusqlite::Result<MissingLayout> {
    let Some(role) = role_of(conn)? else {
        return Ok(MissingLayout::default());
    };
    let missing = missing(conn, role)?;
    if missing.is_empty() {
        return Ok(missing);
    }
    conn.execute_batch("PRAGMA temp_store = MEMORY")?;
    let by_name: HashMap<&str, &TableLayout> = expected(role)
        .iter()
        .map(|t| (t.name.as_str(), t))
        .collect();
    for name in &missing.tables {
        let want = by_name[name.as_str()];
        let sql = match &want.virtual_sql {
            Some(def) => def.replacen(
                &format!("CREATE VIRTUAL TABLE {name}"),
                &format!("CREATE VIRTUAL TABLE temp.{}", quote(name)),
                1,
            ),
            None => format!(
                "CREATE TEMP TABLE {}({})",
                quote(name),
                want.columns
                    .iter()
                    .map(|c| quote(c))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        conn.execute_batch(&sql)?;
    }
    for (name, lacking) in &missing.columns {
        let want = by_name[name.as_str()];
        let mut select: Vec<String> = want
            .columns
            .iter()
            .map(|c| {
                if lacking.contains(c) {
                    format!("NULL AS {}", quote(c))
                } else {
                    quote(c)
                }
            })
            .collect();
        // Last, so that `SELECT *` keeps the table's column order: readers of a rowid
        // (the doctor's row references) find it by name.
        if want.has_rowid {
            select.push("rowid AS rowid".into());
        }
        conn.execute_batch(&format!(
            "CREATE TEMP VIEW {name_q} AS SELECT {} FROM main.{name_q}",
            select.join(", "),
            name_q = quote(name),
        ))?;
    }
    Ok(missing)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh(role: DatabaseRole) -> Connection {
        let sql = match role {
            DatabaseRole::Agent => super::super::create::AGENT_SQL,
            DatabaseRole::Global => super::super::create::STATE_SQL,
        };
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(&super::super::create::creatable(sql))
            .unwrap();
        conn
    }

    #[test]
    fn a_full_layout_lacks_nothing_and_gets_nothing() {
        for role in [DatabaseRole::Agent, DatabaseRole::Global] {
            let conn = fresh(role);
            assert_eq!(role_of(&conn).unwrap(), Some(role));
            assert!(complete_for_reading(&conn).unwrap().is_empty());
            let temp: i64 = conn
                .query_row("SELECT count(*) FROM temp.sqlite_schema", [], |r| r.get(0))
                .unwrap();
            assert_eq!(temp, 0);
        }
        assert!(expected(DatabaseRole::Agent).len() > 20);
        assert!(expected(DatabaseRole::Global).len() > 20);
    }

    #[test]
    fn missing_tables_and_columns_read_as_absent_data() {
        // An agent schema-19 shape, in part: no cold archives, no search rows, no
        // compressed events.
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE session_nodes (session_key TEXT PRIMARY KEY, entry_json TEXT);
             CREATE TABLE transcript_events (session_id TEXT, seq INTEGER, event_json TEXT,
               event_zstd BLOB, PRIMARY KEY (session_id, seq));
             INSERT INTO transcript_events VALUES ('s', 0, '{}', NULL);",
        )
        .unwrap();
        let missing = complete_for_reading(&conn).unwrap();
        assert!(missing
            .tables
            .contains(&"session_transcript_cold_archives".to_string()));
        assert!(missing
            .tables
            .contains(&"session_transcript_fts".to_string()));
        assert!(missing
            .tables
            .contains(&"session_transcript_fts_rows".to_string()));
        let events = missing
            .columns
            .iter()
            .find(|(t, _)| t == "transcript_events")
            .unwrap();
        assert!(events.1.contains(&"event_utf8_bytes".to_string()));
        assert!(!events.1.contains(&"event_zstd".to_string()));
        let (rowid, json): (i64, String) = conn
            .query_row(
                "SELECT rowid, event_json FROM transcript_events WHERE session_id = 's'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((rowid, json.as_str()), (1, "{}"));
        let n: i64 = conn
            .query_row(
                "SELECT count(*) FROM session_transcript_cold_archives",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 0);
        let none: Option<i64> = conn
            .query_row(
                "SELECT max(event_utf8_bytes) FROM transcript_events",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(none, None);
        conn.query_row(
            "SELECT count(*) FROM session_transcript_fts WHERE session_transcript_fts MATCH 'x'",
            [],
            |r| r.get::<_, i64>(0),
        )
        .unwrap();
        let fk: i64 = conn
            .query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(fk, 0);
    }
}
