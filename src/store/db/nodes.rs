//! `session_nodes` (the entry and its projected columns), its validation queue
//! `session_canonical_validation_pending`, and the rows other tables keep per session key.

use std::collections::HashSet;

use rusqlite::{params, Connection, OptionalExtension};
use serde_json::{Map, Value};

/// The stored `entry_json` of a key.
pub fn entry_json(conn: &Connection, key: &str) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached("SELECT entry_json FROM session_nodes WHERE session_key = ?1")?
        .query_row([key], |r| r.get(0))
        .optional()
}

/// Every node as `session_key, entry_json, entry_valid`, in storage order.
pub const ENTRIES_SQL: &str = "SELECT session_key, entry_json, entry_valid FROM session_nodes";

/// Every node as `session_key, entry_json, entry_valid, updated_at`, newest first, then
/// by key (the order of `idx_agent_session_nodes_updated_at`).
pub const NEWEST_FIRST_SQL: &str =
    "SELECT session_key, entry_json, entry_valid, updated_at FROM session_nodes \
                                    ORDER BY updated_at DESC, session_key";

/// [`NEWEST_FIRST_SQL`] from a keyset position on (`list --after`): rows older than `?1`,
/// and at `?1` those whose key sorts after `?2` (`?2` NULL: none; `?3` 1: all of them).
pub const NEWEST_FIRST_AFTER_SQL: &str =
    "SELECT session_key, entry_json, entry_valid, updated_at FROM session_nodes \
     WHERE updated_at < ?1 OR (updated_at = ?1 AND (?3 = 1 OR session_key > ?2)) \
     ORDER BY updated_at DESC, session_key";

/// A node that is a session, not a tombstone (a deleted key's placeholder).
pub const LIVE_ROW: &str = "NOT (entry_valid = -1 AND entry_json = '{}')";

/// The freshest live key equal to `key` ignoring ASCII case.
pub fn live_key_nocase(conn: &Connection, key: &str) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached(&format!(
        "SELECT session_key FROM session_nodes WHERE session_key = ?1 COLLATE NOCASE \
             AND {LIVE_ROW} ORDER BY updated_at DESC, session_key LIMIT 1"
    ))?
    .query_row([key], |r| r.get(0))
    .optional()
}

/// Up to `limit` live `(key, updated_at)` in key order whose current session id is `id`,
/// or, with `trim_chars`, differs from `id` only by those characters trimmed.
pub fn live_keys_by_session_id(
    conn: &Connection,
    id: &str,
    trim_chars: Option<&str>,
    limit: usize,
) -> rusqlite::Result<Vec<(String, i64)>> {
    let sql = if trim_chars.is_some() {
        format!(
            "SELECT session_key, updated_at FROM session_nodes WHERE current_session_id != ?1 \
             AND trim(current_session_id, ?2) = ?1 AND {LIVE_ROW} ORDER BY session_key LIMIT {limit}"
        )
    } else {
        format!(
            "SELECT session_key, updated_at FROM session_nodes WHERE current_session_id = ?1 \
             AND {LIVE_ROW} ORDER BY session_key LIMIT {limit}"
        )
    };
    let mut stmt = conn.prepare_cached(&sql)?;
    let row = |r: &rusqlite::Row<'_>| Ok((r.get(0)?, r.get(1)?));
    let rows = match trim_chars {
        Some(chars) => stmt
            .query_map(params![id, chars], row)?
            .collect::<rusqlite::Result<Vec<(String, i64)>>>(),
        None => stmt
            .query_map(params![id], row)?
            .collect::<rusqlite::Result<Vec<(String, i64)>>>(),
    };
    rows
}

/// Up to `limit` live `(key, current session id)` with `lower <= id < upper`, in id order.
pub fn live_keys_by_session_id_range(
    conn: &Connection,
    lower: &str,
    upper: &str,
    limit: usize,
) -> rusqlite::Result<Vec<(String, String)>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT session_key, current_session_id FROM session_nodes \
         WHERE current_session_id >= ?1 AND current_session_id < ?2 AND {LIVE_ROW} \
         ORDER BY current_session_id LIMIT {limit}"
    ))?;
    let rows = stmt.query_map(params![lower, upper], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

/// Every live node as `(session_key, current_session_id)`, streamed.
pub fn for_each_live_key(
    conn: &Connection,
    path: &std::path::Path,
    mut visit: impl FnMut(&str, &str),
) -> crate::error::Result<()> {
    use crate::error::ResultExt;
    let mut stmt = conn
        .prepare(&format!(
            "SELECT session_key, current_session_id FROM session_nodes WHERE {LIVE_ROW}"
        ))
        .at(path)?;
    let mut rows = stmt.query([]).at(path)?;
    while let Some(row) = rows.next().at(path)? {
        let key = row.get::<_, super::meta::LossyText>(0).at(path)?.0;
        let id = row.get::<_, super::meta::LossyText>(1).at(path)?.0;
        visit(&key, &id);
    }
    Ok(())
}

/// Nodes that are sessions (not tombstones), and tombstones.
pub const COUNT_SESSIONS_SQL: &str =
    "SELECT count(*) FROM session_nodes WHERE NOT (entry_valid = -1 AND entry_json = '{}')";
pub const COUNT_TOMBSTONES_SQL: &str =
    "SELECT count(*) FROM session_nodes WHERE entry_valid = -1 AND entry_json = '{}'";

/// The stored `entry_json`, `entry_valid`, `current_session_id` and `updated_at` of a key.
pub fn entry_row(
    conn: &Connection,
    key: &str,
) -> rusqlite::Result<Option<(String, i64, String, i64)>> {
    use super::meta::LossyText;
    conn.prepare_cached("SELECT entry_json, entry_valid, current_session_id, updated_at FROM session_nodes WHERE session_key = ?1")?.query_row([key],|r| Ok((r.get::<_, LossyText>(0)?.0, r.get(1)?, r.get::<_, LossyText>(2)?.0, r.get(3)?)))
    .optional()
}

/// Every column of a key's node but `entry_json`, as stored (a blob as its size).
pub fn stored_columns(
    conn: &Connection,
    key: &str,
) -> rusqlite::Result<Option<Map<String, Value>>> {
    // `main`: the columns the database has, not an older layout's completion (layout.rs).
    let mut stmt =
        conn.prepare_cached("SELECT * FROM main.session_nodes WHERE session_key = ?1")?;
    let names: Vec<String> = stmt.column_names().into_iter().map(String::from).collect();
    stmt.query_row([key], |r| {
        let mut map = Map::new();
        for (i, name) in names.iter().enumerate() {
            if name == "entry_json" {
                continue;
            }
            let v = match r.get_ref(i)? {
                rusqlite::types::ValueRef::Null => Value::Null,
                rusqlite::types::ValueRef::Integer(n) => Value::from(n),
                rusqlite::types::ValueRef::Real(f) => Value::from(f),
                rusqlite::types::ValueRef::Text(t) => {
                    Value::from(String::from_utf8_lossy(t).into_owned())
                }
                rusqlite::types::ValueRef::Blob(b) => Value::from(format!("<{} bytes>", b.len())),
            };
            map.insert(name.clone(), v);
        }
        Ok(map)
    })
    .optional()
}

/// The entry fields a newer release keeps beside `entry_json` (schema 24 of OpenClaw 2026.9.8
/// moves `sessionDiffBaseline`, `skillsSnapshot` and `systemPromptReport` into
/// `session_entry_snapshots`; docs/openclaw/RELEASES.md): `(field, value_json)` of a key, by
/// field; none where the table does not exist.
pub fn entry_snapshots(conn: &Connection, key: &str) -> rusqlite::Result<Vec<(String, String)>> {
    if !super::meta::table_exists(conn, "session_entry_snapshots") {
        return Ok(Vec::new());
    }
    let mut stmt = conn.prepare_cached(
        "SELECT field, value_json FROM main.session_entry_snapshots WHERE session_key = ?1 ORDER BY field",
    )?;
    let rows = stmt.query_map([key], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

/// The current session id of a key.
pub fn current_session_id(conn: &Connection, key: &str) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached("SELECT current_session_id FROM session_nodes WHERE session_key = ?1")?
        .query_row([key], |r| r.get(0))
        .optional()
}

/// The current session id of a key whose entry is certified valid.
pub fn valid_current_session_id(conn: &Connection, key: &str) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached(
        "SELECT current_session_id FROM session_nodes WHERE session_key = ?1 AND entry_valid = 1",
    )?
    .query_row([key], |r| r.get(0))
    .optional()
}

/// Insert a node (`entry_valid = 0`) unless the key exists.
pub fn insert_if_absent(
    conn: &Connection,
    key: &str,
    session_id: &str,
    entry_json: &str,
    updated_at: i64,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO session_nodes (session_key, current_session_id, entry_json, entry_valid, updated_at) \
         VALUES (?1, ?2, ?3, 0, ?4) ON CONFLICT(session_key) DO NOTHING",
    )?
    .execute(params![key, session_id, entry_json, updated_at])
}

/// Set `entry_json` (when given) and the projected `columns` of a key.
pub fn update_projection(
    conn: &Connection,
    key: &str,
    entry_json: Option<&str>,
    columns: Vec<(&'static str, rusqlite::types::Value)>,
) -> rusqlite::Result<usize> {
    // Bound by reference: `entry_json` can be large, and a copy per bind is one more of it.
    let mut values: Vec<&dyn rusqlite::ToSql> = vec![&key];
    let mut sets = Vec::new();
    if let Some(json) = &entry_json {
        values.push(json);
        sets.push("entry_json = ?2".to_string());
    }
    for (c, v) in &columns {
        values.push(v);
        sets.push(format!("{c} = ?{}", values.len()));
    }
    let sql = format!(
        "UPDATE session_nodes SET {} WHERE session_key = ?1",
        sets.join(", ")
    );
    conn.prepare_cached(&sql)?
        .execute(rusqlite::params_from_iter(values))
}

/// `entry_valid = 1`: the triggers reset it on entry and identity updates.
pub fn set_entry_valid(conn: &Connection, key: &str) -> rusqlite::Result<usize> {
    conn.prepare_cached("UPDATE session_nodes SET entry_valid = 1 WHERE session_key = ?1")?
        .execute([key])
}

/// Certify a key: take it off the canonical validation queue.
pub fn certify(conn: &Connection, key: &str) -> rusqlite::Result<usize> {
    conn.prepare_cached("DELETE FROM session_canonical_validation_pending WHERE session_key = ?1")?
        .execute([key])
}

/// The legacy ACP migration sources recorded on a key.
pub fn legacy_acp_migration_json(conn: &Connection, key: &str) -> rusqlite::Result<Option<String>> {
    Ok(conn
        .prepare_cached(
            "SELECT legacy_acp_migration_json FROM session_nodes WHERE session_key = ?1",
        )?
        .query_row([key], |r| r.get(0))
        .optional()?
        .flatten())
}

pub fn set_legacy_acp_migration_json(
    conn: &Connection,
    key: &str,
    json: &str,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "UPDATE session_nodes SET legacy_acp_migration_json = ?2 WHERE session_key = ?1",
    )?
    .execute(params![key, json])
}

/// `clearSqliteSessionEntryPreservingWindows`: the node becomes a tombstone (empty entry,
/// `entry_valid = -1`, no projected columns) pointing at `session_id`.
pub fn write_tombstone(
    conn: &Connection,
    key: &str,
    session_id: &str,
    updated_at: i64,
) -> rusqlite::Result<()> {
    // A database 2026.9.6 upgraded from an older schema lacks some of these columns (no
    // `legacy_acp_migration_json` after 19, no `owner_*` after 16; docs/openclaw/RELEASES.md
    // §2): only the ones it has are cleared. One statement, so that the row's triggers fire
    // once, as for OpenClaw's update.
    const CLEARED: [&str; 26] = [
        "legacy_acp_migration_json",
        "status",
        "created_at",
        "created_via",
        "created_actor_type",
        "created_actor_id",
        "project_id",
        "parent_session_key",
        "spawned_by",
        "fork_source_session_key",
        "fork_source_session_id",
        "fork_source_entry_id",
        "label",
        "display_name",
        "category",
        "icon",
        "pinned_at",
        "archived_at",
        "last_read_at",
        "last_interaction_at",
        "last_activity_at",
        "owner_actor_type",
        "owner_actor_id",
        "owner_assigned_by_type",
        "owner_assigned_by_id",
        "owner_assigned_at",
    ];
    let have = super::meta::column_names(conn, "session_nodes")?;
    let mut set = String::from(
        "current_session_id = ?2, entry_json = '{}', entry_valid = -1, updated_at = ?3",
    );
    for c in CLEARED.iter().filter(|c| have.contains(**c)) {
        set.push_str(&format!(", {c} = NULL"));
    }
    conn.prepare_cached(&format!(
        "UPDATE session_nodes SET {set} WHERE session_key = ?1"
    ))?
    .execute(params![key, session_id, updated_at])?;
    conn.prepare_cached("UPDATE session_nodes SET entry_valid = -1 WHERE session_key = ?1")?
        .execute([key])?;
    Ok(())
}

pub fn delete(conn: &Connection, key: &str) -> rusqlite::Result<usize> {
    conn.prepare_cached("DELETE FROM session_nodes WHERE session_key = ?1")?
        .execute([key])
}

/// Tables whose rows belong to a session key and go with its node.
const NODE_ARTIFACT_TABLES: [&str; 7] = [
    "board_widgets",
    "board_tabs",
    "heartbeat_outcomes",
    "session_participants",
    "session_progress_cards",
    "session_members",
    "session_suggestions",
];

/// Delete the rows other tables keep for `key` (pending inputs, boards, participants, ...),
/// in the tables of `present` (the database's tables).
pub fn delete_artifacts(
    conn: &Connection,
    present: &HashSet<String>,
    key: &str,
) -> rusqlite::Result<()> {
    if present.contains("session_pending_inputs") {
        conn.prepare_cached("DELETE FROM session_pending_inputs WHERE session_key = ?1")?
            .execute([key])?;
    }
    for table in NODE_ARTIFACT_TABLES {
        if present.contains(table) {
            conn.prepare_cached(&format!("DELETE FROM {table} WHERE session_key = ?1"))?
                .execute([key])?;
        }
    }
    Ok(())
}

/// Every node as `(session_key, current_session_id, entry_json)`, in storage order.
pub fn for_each_reference(
    conn: &Connection,
    path: &std::path::Path,
    mut visit: impl FnMut(String, String, String) -> crate::error::Result<()>,
) -> crate::error::Result<()> {
    use crate::error::ResultExt;
    let mut stmt = conn
        .prepare("SELECT session_key, current_session_id, entry_json FROM session_nodes")
        .at(path)?;
    let mut rows = stmt.query([]).at(path)?;
    while let Some(r) = rows.next().at(path)? {
        let key: String = r.get(0).at(path)?;
        let current: String = r.get(1).at(path)?;
        let json: String = r.get(2).at(path)?;
        visit(key, current, json)?;
    }
    Ok(())
}

/// Doctor: every node with its stored projected `columns` after
/// `session_key, entry_json, entry_valid, rowid, current_session_id`, in key order.
pub fn with_columns_sql(columns: &[&str]) -> String {
    format!(
        "SELECT session_key, entry_json, entry_valid, rowid, current_session_id, {} FROM session_nodes ORDER BY session_key",
        columns.join(", ")
    )
}

/// Doctor: `(session_key, current_session_id, rowid)` of nodes whose current window is missing.
pub const WITHOUT_CURRENT_WINDOW_SQL: &str = "SELECT n.session_key, n.current_session_id, n.rowid FROM session_nodes n WHERE NOT EXISTS (SELECT 1 FROM session_windows w WHERE w.session_id = n.current_session_id)";

/// Doctor: `(label, keys as a JSON array)` of labels more than one live node uses.
pub const DUPLICATE_LABELS_SQL: &str = "SELECT label, json_group_array(session_key) FROM session_nodes WHERE label IS NOT NULL AND entry_valid != -1 GROUP BY label HAVING count(*) > 1";

/// Whether a key still waits for OpenClaw's canonical-key validation (not certified).
pub fn is_pending_validation(conn: &Connection, key: &str) -> rusqlite::Result<bool> {
    conn.prepare_cached(
        "SELECT 1 FROM session_canonical_validation_pending WHERE session_key = ?1",
    )?
    .exists([key])
}

/// The row OpenClaw's doctor rebuilds an unreadable entry from (its `canonicalRepairQuery`):
/// the node's columns, its current window's and that window's conversation's, by name,
/// plus `rowid` and the stored `entry_json` as raw bytes (whatever its encoding).
pub struct RepairRow {
    pub rowid: i64,
    pub raw_entry: Vec<u8>,
    pub columns: std::collections::BTreeMap<String, rusqlite::types::Value>,
}

pub fn repair_row(conn: &Connection, key: &str) -> rusqlite::Result<Option<RepairRow>> {
    const SQL: &str = "SELECT n.rowid, CAST(n.entry_json AS BLOB), n.current_session_id, \
        n.updated_at, n.status, n.created_at, n.created_via, n.created_actor_type, \
        n.created_actor_id, n.owner_actor_type, n.owner_actor_id, n.owner_assigned_by_type, \
        n.owner_assigned_by_id, n.owner_assigned_at, n.parent_session_key, n.spawned_by, \
        n.fork_source_session_key, n.fork_source_session_id, n.fork_source_entry_id, n.label, \
        n.display_name, n.category, n.icon, n.pinned_at, n.archived_at, n.last_read_at, \
        n.last_interaction_at, n.last_activity_at, \
        w.started_at AS current_started_at, w.ended_at AS current_ended_at, \
        w.chat_type AS current_chat_type, w.model_provider AS current_model_provider, \
        w.model AS current_model, w.previous_session_id AS current_previous_session_id, \
        w.agent_harness_id AS current_agent_harness_id, c.channel AS delivery_channel, \
        c.account_id AS delivery_account_id, c.delivery_target, \
        c.thread_id AS delivery_thread_id \
        FROM session_nodes n \
        LEFT JOIN session_windows w ON w.session_id = n.current_session_id \
          AND w.session_key = n.session_key \
        LEFT JOIN conversations c ON c.conversation_id = w.primary_conversation_id \
        WHERE n.session_key = ?1";
    let mut stmt = conn.prepare_cached(SQL)?;
    let names: Vec<String> = stmt
        .column_names()
        .iter()
        .map(|n| n.rsplit('.').next().unwrap_or(n).to_string())
        .collect();
    stmt.query_row([key], |r| {
        let mut columns = std::collections::BTreeMap::new();
        for (i, name) in names.iter().enumerate().skip(2) {
            use rusqlite::types::{Value as V, ValueRef};
            let v = match r.get_ref(i)? {
                ValueRef::Null => V::Null,
                ValueRef::Integer(n) => V::Integer(n),
                ValueRef::Real(f) => V::Real(f),
                ValueRef::Text(t) => V::Text(String::from_utf8_lossy(t).into_owned()),
                ValueRef::Blob(b) => V::Blob(b.to_vec()),
            };
            columns.insert(name.clone(), v);
        }
        Ok(RepairRow {
            rowid: r.get(0)?,
            raw_entry: r.get::<_, Option<Vec<u8>>>(1)?.unwrap_or_default(),
            columns,
        })
    })
    .optional()
}

/// What OpenClaw's own `doctor --fix` repairs on any store besides its schema upgrade, counted
/// over the sessions (not tombstones) of an agent database: sessions with no explicit name
/// (no non-blank `label`, `displayName`, `subject`, `groupChannel` or `space`: its session
/// title repair derives a `displayName` from the first user message), and sessions with
/// runtime model state (`model`, `modelProvider` or `contextTokens`: its routing repair clears
/// it where it is outside the configured model route). docs/openclaw/SCHEMA-UPGRADE.md §6.
pub fn doctor_repair_candidates(conn: &Connection) -> rusqlite::Result<(u64, u64)> {
    let blank = |f: &str| format!("coalesce(trim(json_extract(entry_json, '$.{f}')), '') = ''");
    let unnamed = ["label", "displayName", "subject", "groupChannel", "space"]
        .iter()
        .map(|f| blank(f))
        .collect::<Vec<_>>()
        .join(" AND ");
    let sql = format!(
        "SELECT \
           coalesce(sum(CASE WHEN json_valid(entry_json) THEN ({unnamed}) ELSE 0 END), 0), \
           coalesce(sum(CASE WHEN json_valid(entry_json) THEN \
             (json_extract(entry_json, '$.model') IS NOT NULL \
              OR json_extract(entry_json, '$.modelProvider') IS NOT NULL \
              OR json_extract(entry_json, '$.contextTokens') IS NOT NULL) ELSE 0 END), 0) \
         FROM session_nodes WHERE {LIVE_ROW}"
    );
    conn.query_row(&sql, [], |r| {
        Ok((r.get::<_, i64>(0)? as u64, r.get::<_, i64>(1)? as u64))
    })
}
