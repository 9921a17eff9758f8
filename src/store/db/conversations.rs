//! `conversations` (one external address per channel/account/peer/thread) and
//! `session_conversations` (which windows a conversation reaches).

use rusqlite::{params, Connection};

/// A `conversations` row as the import writes it (no parent, no metadata).
pub struct ConversationRow<'a> {
    pub conversation_id: &'a str,
    pub channel: &'a str,
    pub account_id: &'a str,
    pub kind: &'a str,
    pub peer_id: &'a str,
    pub delivery_target: &'a str,
    pub thread_id: Option<&'a str>,
    pub native_channel_id: Option<&'a str>,
    pub native_direct_user_id: Option<&'a str>,
    pub label: Option<&'a str>,
}

/// Insert the conversation, or update everything but its creation time.
pub fn upsert(
    conn: &Connection,
    c: &ConversationRow<'_>,
    updated_at: i64,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO conversations (conversation_id, channel, account_id, kind, peer_id, delivery_target, parent_conversation_id, \
            thread_id, native_channel_id, native_direct_user_id, label, metadata_json, created_at, updated_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL, ?7, ?8, ?9, ?10, NULL, ?11, ?11) \
         ON CONFLICT(conversation_id) DO UPDATE SET channel = excluded.channel, account_id = excluded.account_id, \
            kind = excluded.kind, peer_id = excluded.peer_id, delivery_target = excluded.delivery_target, \
            parent_conversation_id = NULL, thread_id = excluded.thread_id, native_channel_id = excluded.native_channel_id, \
            native_direct_user_id = excluded.native_direct_user_id, label = excluded.label, metadata_json = NULL, \
            updated_at = excluded.updated_at",
    )?
    .execute(params![
        c.conversation_id,
        c.channel,
        c.account_id,
        c.kind,
        c.peer_id,
        c.delivery_target,
        c.thread_id,
        c.native_channel_id,
        c.native_direct_user_id,
        c.label,
        updated_at
    ])
}

/// Link a window to a conversation in one `role`, dropping its links in other roles.
pub fn link(
    conn: &Connection,
    session_id: &str,
    conversation_id: &str,
    role: &str,
    seen_at: i64,
) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "DELETE FROM session_conversations WHERE session_id = ?1 AND conversation_id = ?2 AND role != ?3",
    )?
    .execute(params![session_id, conversation_id, role])?;
    conn.prepare_cached(
        "INSERT INTO session_conversations (session_id, conversation_id, role, route_context_json, first_seen_at, last_seen_at) \
         VALUES (?1, ?2, ?3, NULL, ?4, ?4) \
         ON CONFLICT(session_id, conversation_id, role) DO UPDATE SET last_seen_at = excluded.last_seen_at",
    )?
    .execute(params![session_id, conversation_id, role, seen_at])?;
    Ok(())
}
