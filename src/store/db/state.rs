//! Tables of the global state database (`openclaw.sqlite`) that sessions touch: the agent
//! database registry, plugin state, session state/links/watch cursors, and what a snapshot
//! scrubs.

use std::collections::HashSet;

use rusqlite::{params, Connection, OptionalExtension};

/// Record (or refresh) an agent database in `agent_databases`.
pub fn upsert_agent_database(
    conn: &Connection,
    agent_id: &str,
    path: &str,
    schema_version: i64,
    last_seen_at: i64,
    size_bytes: i64,
) -> rusqlite::Result<usize> {
    conn.execute(
        "INSERT INTO agent_databases (agent_id, path, schema_version, last_seen_at, size_bytes) VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT(agent_id, path) DO UPDATE SET schema_version = excluded.schema_version, last_seen_at = excluded.last_seen_at, \
            size_bytes = excluded.size_bytes",
        params![agent_id, path, schema_version, last_seen_at, size_bytes],
    )
}

/// A plugin's state entry.
pub fn plugin_state(
    conn: &Connection,
    plugin_id: &str,
    namespace: &str,
    entry_key: &str,
) -> rusqlite::Result<Option<String>> {
    conn.query_row(
        "SELECT value_json FROM plugin_state_entries WHERE plugin_id = ?1 AND namespace = ?2 AND entry_key = ?3",
        params![plugin_id, namespace, entry_key],
        |r| r.get(0),
    )
    .optional()
}

pub fn set_plugin_state(
    conn: &Connection,
    plugin_id: &str,
    namespace: &str,
    entry_key: &str,
    value_json: &str,
    created_at: i64,
) -> rusqlite::Result<usize> {
    conn.execute(
        "INSERT INTO plugin_state_entries (plugin_id, namespace, entry_key, value_json, created_at) VALUES (?1, ?2, ?3, ?4, ?5) \
         ON CONFLICT(plugin_id, namespace, entry_key) DO UPDATE SET value_json = excluded.value_json",
        params![plugin_id, namespace, entry_key, value_json, created_at],
    )
}

/// `handleSessionStateSessionDeleted`: a session's upstream link, state events and head,
/// and the watch cursors it is the watcher or the target of, in the tables of `tables`.
/// Returns how many rows went.
pub fn delete_session_rows(
    conn: &Connection,
    tables: &HashSet<String>,
    agent_id: &str,
    key: &str,
) -> rusqlite::Result<usize> {
    let mut n = 0;
    for (table, sql) in [
        (
            "session_upstream_links",
            "DELETE FROM session_upstream_links WHERE session_key = ?1 AND agent_id = ?2",
        ),
        (
            "session_state_events",
            "DELETE FROM session_state_events WHERE session_key = ?1 AND agent_id = ?2",
        ),
        (
            "session_state_heads",
            "DELETE FROM session_state_heads WHERE session_key = ?1 AND agent_id = ?2",
        ),
    ] {
        if tables.contains(table) {
            n += conn.execute(sql, params![key, agent_id])?;
        }
    }
    if tables.contains("session_watch_cursors") {
        n += conn.execute(
            "DELETE FROM session_watch_cursors WHERE watcher_session_key = ?1 OR target_session_key = ?1",
            [key],
        )?;
    }
    Ok(n)
}

/// Empty a lease table (`state_leases`, `agent_database_leases`).
pub fn clear_leases(conn: &Connection, table: &str) -> rusqlite::Result<usize> {
    conn.execute(&format!("DELETE FROM {table}"), [])
}

pub fn clear_delivery_queue(conn: &Connection) -> rusqlite::Result<usize> {
    conn.execute("DELETE FROM delivery_queue_entries", [])
}

pub fn delete_expiring_plugin_blobs(conn: &Connection) -> rusqlite::Result<usize> {
    conn.execute(
        "DELETE FROM plugin_blob_entries WHERE expires_at IS NOT NULL",
        [],
    )
}

/// `(config_key, raw_json)` of every exec approvals config.
pub fn exec_approvals_configs(conn: &Connection) -> rusqlite::Result<Vec<(String, String)>> {
    let mut stmt = conn.prepare("SELECT config_key, raw_json FROM exec_approvals_config")?;
    let r = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
    r.collect()
}

pub fn set_exec_approvals_config(
    conn: &Connection,
    config_key: &str,
    raw_json: &str,
) -> rusqlite::Result<usize> {
    conn.execute(
        "UPDATE exec_approvals_config SET raw_json = ?2 WHERE config_key = ?1",
        [config_key, raw_json],
    )
}

/// The schema `agent_databases` records for an agent's database (`None`: no row).
pub fn recorded_schema(conn: &Connection, agent_id: &str) -> rusqlite::Result<Option<i64>> {
    conn.query_row(
        "SELECT schema_version FROM agent_databases WHERE agent_id = ?1",
        [agent_id],
        |r| r.get(0),
    )
    .optional()
}
