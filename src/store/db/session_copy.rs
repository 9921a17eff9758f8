//! Copying one session's rows out of a snapshot of the same agent database, attached as
//! `snap` (`backup restore --session`): every table that hangs off the session's node
//! (`session_key`) or its windows (`session_id`), found from the schema's foreign keys, row
//! for row; the search rows under fresh ids, as OpenClaw's inserter pairs them.

use std::collections::{BTreeSet, HashSet};

use rusqlite::{params, Connection, OptionalExtension};

/// The alias a snapshot is attached under.
pub const SNAPSHOT_SCHEMA: &str = "snap";

/// Attach `path` (outside a transaction, as SQLite requires). Only read: a snapshot is a
/// standalone database without a journal or WAL, so reading it creates no sidecar.
pub fn attach_snapshot(conn: &Connection, path: &std::path::Path) -> rusqlite::Result<()> {
    conn.execute(
        "ATTACH DATABASE ?1 AS snap",
        [path.to_string_lossy().as_ref()],
    )?;
    Ok(())
}

pub fn detach_snapshot(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute("DETACH DATABASE snap", [])?;
    Ok(())
}

/// The key and current session id of the node `words` names in the snapshot: the key
/// itself, else a node whose current session is that id, else the key owning that window.
pub fn find_in_snapshot(
    conn: &Connection,
    words: &str,
) -> rusqlite::Result<Option<(String, String)>> {
    let by_key = conn
        .query_row(
            "SELECT session_key, current_session_id FROM snap.session_nodes WHERE session_key = ?1",
            [words],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    if by_key.is_some() {
        return Ok(by_key);
    }
    conn.query_row(
        "SELECT n.session_key, n.current_session_id FROM snap.session_nodes n \
         WHERE n.current_session_id = ?1 OR n.session_key = (SELECT session_key FROM snap.session_windows WHERE session_id = ?1) \
         ORDER BY n.current_session_id = ?1 DESC LIMIT 1",
        [words],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()
}

/// Up to `limit` `(key, current session id)` of the snapshot whose current or earlier session
/// id starts with `prefix` (the caller checks its length, `store::resolve::MIN_PREFIX_LEN`).
pub fn find_in_snapshot_by_prefix(
    conn: &Connection,
    prefix: &str,
    limit: usize,
) -> rusqlite::Result<Vec<(String, String)>> {
    let mut stmt = conn.prepare(
        "SELECT DISTINCT n.session_key, n.current_session_id FROM snap.session_nodes n \
         JOIN snap.session_windows w ON w.session_key = n.session_key \
         WHERE substr(w.session_id, 1, length(?1)) = ?1 ORDER BY n.session_key LIMIT ?2",
    )?;
    let rows = stmt.query_map(rusqlite::params![prefix, limit as i64], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })?;
    rows.collect()
}

/// Whether the snapshot holds the key still waiting for OpenClaw's key validation.
pub fn snapshot_pending_validation(conn: &Connection, key: &str) -> rusqlite::Result<bool> {
    conn.prepare("SELECT 1 FROM snap.session_canonical_validation_pending WHERE session_key = ?1")?
        .exists([key])
}

/// The session ids of a key's windows in the snapshot.
pub fn snapshot_window_ids(conn: &Connection, key: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(
        "SELECT session_id FROM snap.session_windows WHERE session_key = ?1 ORDER BY session_id",
    )?;
    let rows = stmt.query_map([key], |r| r.get(0))?;
    rows.collect()
}

fn columns(conn: &Connection, schema: &str, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!("SELECT name FROM {schema}.pragma_table_info(?1)"))?;
    let rows = stmt.query_map([table], |r| r.get(0))?;
    rows.collect()
}

/// Tables of `main` with a foreign key to `parent`, with the child column that refers to it.
fn children(conn: &Connection, parent: &str) -> rusqlite::Result<Vec<(String, String)>> {
    let mut stmt = conn.prepare(
        "SELECT m.name, f.\"from\" FROM main.sqlite_schema m, pragma_foreign_key_list(m.name) f \
         WHERE m.type = 'table' AND f.\"table\" = ?1 AND f.seq = 0 ORDER BY m.name",
    )?;
    let rows = stmt.query_map([parent.trim_matches('"')], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

fn quote(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Copy the rows of `table` whose `column` is `value`, every column, from the snapshot.
fn copy_rows(
    conn: &Connection,
    table: &str,
    column: &str,
    value: &str,
    or_ignore: bool,
) -> rusqlite::Result<usize> {
    let cols = columns(conn, "main", table)?;
    let theirs: HashSet<String> = columns(conn, SNAPSHOT_SCHEMA, table)?.into_iter().collect();
    if theirs.is_empty() {
        return Ok(0);
    }
    let shared: Vec<String> = cols
        .into_iter()
        .filter(|c| theirs.contains(c))
        .map(|c| quote(&c))
        .collect();
    let list = shared.join(", ");
    conn.execute(
        &format!(
            "INSERT {}INTO main.{t} ({list}) SELECT {list} FROM snap.{t} WHERE {c} = ?1",
            if or_ignore { "OR IGNORE " } else { "" },
            t = quote(table),
            c = quote(column)
        ),
        [value],
    )
}

/// A search row of the snapshot: `(message_id, text, role, timestamp)`.
type SearchRow = (
    Option<String>,
    Option<String>,
    Option<String>,
    rusqlite::types::Value,
);

/// What was copied.
#[derive(Debug, Clone, Default)]
pub struct Copied {
    pub rows: usize,
    pub events: usize,
}

/// Copy the node `key` (with the rows that hang off it), the window `session_id` and its
/// conversation links from the snapshot: the session as the snapshot holds it, without its
/// transcript (`undelete` takes the events from the archive).
pub fn copy_node_and_window(
    conn: &Connection,
    key: &str,
    session_id: &str,
) -> rusqlite::Result<usize> {
    conn.execute(
        "INSERT OR IGNORE INTO main.conversations SELECT * FROM snap.conversations WHERE conversation_id IN \
           (SELECT primary_conversation_id FROM snap.session_windows WHERE session_id = ?1 \
            UNION SELECT conversation_id FROM snap.session_conversations WHERE session_id = ?1)",
        [session_id],
    )?;
    let mut n = copy_rows(conn, "session_nodes", "session_key", key, false)?;
    for (table, column) in children(conn, "session_nodes")? {
        if table != "session_windows" {
            n += copy_rows(conn, &table, &column, key, false)?;
        }
    }
    n += copy_rows(conn, "session_windows", "session_id", session_id, false)?;
    n += copy_rows(
        conn,
        "session_conversations",
        "session_id",
        session_id,
        false,
    )?;
    Ok(n)
}

/// Copy the node `key` and the windows `ids` (with everything under them) from the
/// snapshot, inside the caller's transaction.
/// `keyed_search` says whether the schema keys its search rows by
/// `session_transcript_fts_rows` (23); before, the FTS rows are copied as they are, numbered
/// anew by the FTS table as the older releases insert them.
pub fn copy_session(
    conn: &Connection,
    key: &str,
    ids: &[String],
    keyed_search: bool,
) -> rusqlite::Result<Copied> {
    let mut copied = Copied::default();
    // The conversations the node and its windows point at, first (shared rows: kept when
    // present).
    conn.execute(
        "INSERT OR IGNORE INTO main.conversations SELECT * FROM snap.conversations WHERE conversation_id IN \
           (SELECT primary_conversation_id FROM snap.session_windows WHERE session_key = ?1 \
            UNION SELECT conversation_id FROM snap.session_conversations WHERE session_id IN \
              (SELECT session_id FROM snap.session_windows WHERE session_key = ?1))",
        [key],
    )?;
    copied.rows += copy_rows(conn, "session_nodes", "session_key", key, false)?;
    let mut done: BTreeSet<String> = ["session_nodes".to_string()].into();
    // Tables under the node, then under each window, then under each event, parents first.
    for (table, column) in children(conn, "session_nodes")? {
        if table == "session_windows" || !done.insert(table.clone()) {
            continue;
        }
        copied.rows += copy_rows(conn, &table, &column, key, false)?;
    }
    for id in ids {
        copied.rows += copy_rows(conn, "session_windows", "session_id", id, false)?;
    }
    done.insert("session_windows".into());
    let mut under_windows = children(conn, "session_windows")?;
    // transcript_events before the tables that refer to its rows.
    under_windows.sort_by_key(|(t, _)| t != "transcript_events");
    for (table, column) in under_windows {
        if !done.insert(table.clone()) {
            continue;
        }
        for id in ids {
            let n = copy_rows(conn, &table, &column, id, false)?;
            if table == "transcript_events" {
                copied.events += n;
            }
            copied.rows += n;
        }
    }
    for (table, _) in children(conn, "transcript_events")? {
        if !done.insert(table.clone()) {
            continue;
        }
        for id in ids {
            copied.rows += copy_rows(conn, &table, "session_id", id, false)?;
        }
    }
    if !keyed_search {
        for id in ids {
            copied.rows += conn.execute(
                "INSERT INTO main.session_transcript_fts (text, session_id, message_id, role, timestamp) \
                 SELECT text, session_id, message_id, role, timestamp FROM snap.session_transcript_fts \
                 WHERE session_id = ?1 ORDER BY rowid",
                [id],
            )?;
        }
        return Ok(copied);
    }
    // Search rows: a fresh identity row each, its FTS row under that id.
    for id in ids {
        let mut stmt = conn.prepare(
            "SELECT r.message_id, f.text, f.role, f.timestamp FROM snap.session_transcript_fts_rows r \
             JOIN snap.session_transcript_fts f ON f.rowid = r.id WHERE r.session_id = ?1 ORDER BY r.id",
        )?;
        let rows: Vec<SearchRow> = stmt
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<rusqlite::Result<_>>()?;
        for (message_id, text, role, timestamp) in rows {
            conn.execute(
                "INSERT INTO main.session_transcript_fts_rows (session_id, message_id) VALUES (?1, ?2)",
                params![id, message_id],
            )?;
            let rowid = conn.last_insert_rowid();
            conn.execute(
                "INSERT INTO main.session_transcript_fts (rowid, text, session_id, message_id, role, timestamp) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![rowid, text, id, message_id, role, timestamp],
            )?;
            copied.rows += 2;
        }
    }
    Ok(copied)
}
