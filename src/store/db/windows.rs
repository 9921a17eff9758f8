//! `session_windows`: one row per transcript generation of a session key.

use rusqlite::{params, Connection, OptionalExtension};

/// What a writer keeps from an existing window: provenance, ACP ownership, plugin owner,
/// hook source, transcript clock, conversation link.
pub type ExistingWindow = (
    i64,
    i64,
    Option<String>,
    Option<String>,
    Option<i64>,
    Option<String>,
);

/// The columns of a window that `retainWindow` keeps.
pub fn existing(conn: &Connection, session_id: &str) -> rusqlite::Result<Option<ExistingWindow>> {
    conn.prepare_cached(
        "SELECT session_entry_provenance, acp_owned, plugin_owner_id, hook_external_content_source, \
                transcript_updated_at, primary_conversation_id FROM session_windows WHERE session_id = ?1",
    )?
    .query_row([session_id], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
    })
    .optional()
}

/// A window row as `retainWindow` writes it (`reason` is always NULL).
pub struct WindowUpsert<'a> {
    pub session_id: &'a str,
    pub session_key: &'a str,
    pub created_at: rusqlite::types::Value,
    pub updated_at: rusqlite::types::Value,
    pub session_entry_provenance: i64,
    pub acp_owned: i64,
    pub plugin_owner_id: Option<String>,
    pub hook_external_content_source: Option<String>,
    pub previous_session_id: Option<String>,
    pub session_scope: &'a str,
    pub started_at: rusqlite::types::Value,
    pub ended_at: rusqlite::types::Value,
    pub status: Option<String>,
    pub chat_type: Option<&'a str>,
    pub channel: Option<String>,
    pub account_id: Option<String>,
    pub model_provider: Option<String>,
    pub model: Option<String>,
    pub agent_harness_id: Option<String>,
    pub parent_session_key: Option<String>,
    pub spawned_by: Option<String>,
    pub display_name: Option<String>,
    pub primary_conversation_id: Option<String>,
    pub transcript_observed_at: rusqlite::types::Value,
}

/// Insert the window, or update everything but its key, creation time and transcript clock.
pub fn upsert(conn: &Connection, w: &WindowUpsert<'_>) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO session_windows (session_id, session_key, reason, created_at, updated_at, session_entry_provenance, \
            acp_owned, plugin_owner_id, hook_external_content_source, previous_session_id, session_scope, started_at, \
            ended_at, status, chat_type, channel, account_id, model_provider, model, agent_harness_id, \
            parent_session_key, spawned_by, display_name, primary_conversation_id, transcript_observed_at) \
         VALUES (?1, ?2, NULL, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24) \
         ON CONFLICT(session_id) DO UPDATE SET previous_session_id = excluded.previous_session_id, reason = excluded.reason, \
            session_scope = excluded.session_scope, transcript_observed_at = excluded.transcript_observed_at, \
            session_entry_provenance = excluded.session_entry_provenance, acp_owned = excluded.acp_owned, \
            plugin_owner_id = excluded.plugin_owner_id, hook_external_content_source = excluded.hook_external_content_source, \
            updated_at = excluded.updated_at, started_at = excluded.started_at, ended_at = excluded.ended_at, \
            status = excluded.status, chat_type = excluded.chat_type, channel = excluded.channel, \
            account_id = excluded.account_id, primary_conversation_id = excluded.primary_conversation_id, \
            model_provider = excluded.model_provider, model = excluded.model, agent_harness_id = excluded.agent_harness_id, \
            parent_session_key = excluded.parent_session_key, spawned_by = excluded.spawned_by, display_name = excluded.display_name",
    )?
    .execute(params![
        w.session_id,
        w.session_key,
        w.created_at,
        w.updated_at,
        w.session_entry_provenance,
        w.acp_owned,
        w.plugin_owner_id,
        w.hook_external_content_source,
        w.previous_session_id,
        w.session_scope,
        w.started_at,
        w.ended_at,
        w.status,
        w.chat_type,
        w.channel,
        w.account_id,
        w.model_provider,
        w.model,
        w.agent_harness_id,
        w.parent_session_key,
        w.spawned_by,
        w.display_name,
        w.primary_conversation_id,
        w.transcript_observed_at,
    ])
}

/// Move the transcript clock forward to `mtime` (never back).
pub fn advance_transcript_updated_at(
    conn: &Connection,
    session_id: &str,
    mtime: i64,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "UPDATE session_windows SET transcript_updated_at = ?2 \
         WHERE session_id = ?1 AND (transcript_updated_at IS NULL OR transcript_updated_at < ?2)",
    )?
    .execute(params![session_id, mtime])
}

pub fn set_updated_at(
    conn: &Connection,
    session_id: &str,
    updated_at: i64,
) -> rusqlite::Result<usize> {
    conn.prepare_cached("UPDATE session_windows SET updated_at = ?2 WHERE session_id = ?1")?
        .execute(params![session_id, updated_at])
}

pub fn set_primary_conversation(
    conn: &Connection,
    session_id: &str,
    conversation_id: &str,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "UPDATE session_windows SET primary_conversation_id = ?2 WHERE session_id = ?1",
    )?
    .execute(params![session_id, conversation_id])
}

/// The session ids of a key's windows, in id order.
pub fn session_ids_of_key(conn: &Connection, key: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT session_id FROM session_windows WHERE session_key = ?1 ORDER BY session_id",
    )?;
    let rows = stmt.query_map([key], |r| r.get::<_, String>(0))?;
    rows.collect()
}

pub fn exists(conn: &Connection, session_id: &str) -> rusqlite::Result<bool> {
    conn.prepare_cached("SELECT EXISTS(SELECT 1 FROM session_windows WHERE session_id = ?1)")?
        .query_row([session_id], |r| r.get(0))
}

/// The key a window belongs to.
pub fn session_key_of(conn: &Connection, session_id: &str) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached("SELECT session_key FROM session_windows WHERE session_id = ?1")?
        .query_row([session_id], |r| r.get(0))
        .optional()
}

/// Up to `limit` `(key, session id)` of windows with `lower <= id < upper`, in id order.
pub fn by_session_id_range(
    conn: &Connection,
    lower: &str,
    upper: &str,
    limit: usize,
) -> rusqlite::Result<Vec<(String, String)>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT session_key, session_id FROM session_windows \
         WHERE session_id >= ?1 AND session_id < ?2 ORDER BY session_id LIMIT {limit}"
    ))?;
    let rows = stmt.query_map(params![lower, upper], |r| Ok((r.get(0)?, r.get(1)?)))?;
    rows.collect()
}

/// `(session_id, updated_at)` of a key's most recently updated window.
pub fn latest_of_key(conn: &Connection, key: &str) -> rusqlite::Result<Option<(String, i64)>> {
    conn.prepare_cached("SELECT session_id, updated_at FROM session_windows WHERE session_key = ?1 ORDER BY updated_at DESC, session_id ASC LIMIT 1")?.query_row([key],|r| Ok((r.get(0)?, r.get(1)?)))
    .optional()
}

/// Give a window to another key.
pub fn reassign(conn: &Connection, session_id: &str, key: &str) -> rusqlite::Result<usize> {
    conn.prepare_cached("UPDATE session_windows SET session_key = ?2 WHERE session_id = ?1")?
        .execute([session_id, key])
}

pub fn delete(conn: &Connection, session_id: &str) -> rusqlite::Result<usize> {
    conn.prepare_cached("DELETE FROM session_windows WHERE session_id = ?1")?
        .execute([session_id])
}

/// A window as `show` lists it, with its cold archive's name.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedWindow {
    pub session_id: String,
    pub session_key: String,
    pub previous_session_id: Option<String>,
    pub reason: Option<String>,
    pub session_scope: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub transcript_updated_at: Option<i64>,
    pub acp_owned: bool,
    pub agent_harness_id: Option<String>,
    /// Set when the transcript was moved to a cold archive.
    pub cold_archive: Option<String>,
}

/// The windows of a key, and the window `session_id`, newest first.
pub fn of_key_or_id(
    conn: &Connection,
    key: &str,
    session_id: &str,
) -> rusqlite::Result<Vec<ListedWindow>> {
    let mut stmt = conn.prepare_cached(
        "SELECT w.session_id, w.session_key, w.previous_session_id, w.reason, w.session_scope, \
                w.created_at, w.updated_at, w.transcript_updated_at, w.acp_owned, w.agent_harness_id, \
                c.archive_name \
         FROM session_windows w LEFT JOIN session_transcript_cold_archives c USING (session_id) \
         WHERE w.session_key = ?1 OR w.session_id = ?2 \
         ORDER BY w.updated_at DESC, w.session_id",
    )?;
    let rows = stmt.query_map(params![key, session_id], |r| {
        Ok(ListedWindow {
            session_id: r.get(0)?,
            session_key: r.get(1)?,
            previous_session_id: r.get(2)?,
            reason: r.get(3)?,
            session_scope: r.get(4)?,
            created_at: r.get(5)?,
            updated_at: r.get(6)?,
            transcript_updated_at: r.get(7)?,
            acp_owned: r.get::<_, i64>(8)? != 0,
            agent_harness_id: r.get(9)?,
            cold_archive: r.get(10)?,
        })
    })?;
    rows.collect()
}

pub const COUNT_SQL: &str = "SELECT count(*) FROM session_windows";

/// Doctor: `(rowid, session_id, seq or NULL, session key or NULL)` of windows whose node is gone
/// (the key from a surviving window, else from a node whose current id it is).
pub const ORPHANS_SQL: &str = "SELECT rowid, session_id, NULL, session_key FROM session_windows w WHERE NOT EXISTS (SELECT 1 FROM session_nodes n WHERE n.session_key = w.session_key)";

/// Every window as the disk budget visits them: `(session_id, session_key, updated_at)`, by
/// `updated_at`, then `session_id` (docs/openclaw/MAINTENANCE.md §3.3 4b).
pub fn in_budget_order(conn: &Connection) -> rusqlite::Result<Vec<(String, String, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT session_id, session_key, updated_at FROM session_windows \
         ORDER BY updated_at, session_id",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
    rows.collect()
}
