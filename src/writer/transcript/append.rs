//! One event appended to a session's transcript the way OpenClaw appends it: the stored
//! payload (plain, or a compressed frame with its navigation), the rewrite watermark of the
//! generation, the search rows and index state, and the event's identity, whose message
//! idempotency key is kept only while no earlier event of the session holds it. The legacy
//! import and undelete both append through here.

use rusqlite::Transaction;
use serde_json::Value;

use super::payload::{prepare, StoredPayload};
use super::projection::{ProjectionCursor, SearchRows};
use crate::store::db::events;
use crate::store::AgentSchema;

/// How an appended event was stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    Plain,
    Compressed,
}

/// Appends events to one session, keeping its projection cursor between them.
pub struct EventAppender {
    session_id: String,
    cursor: ProjectionCursor,
    watermarked: bool,
    now_ms: i64,
    schema: AgentSchema,
}

/// The event's id as OpenClaw keys its identity: trimmed, and none when blank.
pub fn event_id(event: &Value) -> Option<&str> {
    event
        .get("id")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// `readEventTimestamp`: a finite number, else a parseable date string, else now.
pub fn event_time(e: &Value, now_ms: i64) -> i64 {
    match e.get("timestamp") {
        Some(Value::Number(n)) => n
            .as_f64()
            .filter(|f| f.is_finite())
            .map_or(now_ms, |f| f.floor() as i64),
        Some(Value::String(s)) if !s.trim().is_empty() => {
            crate::units::parse_js_date(s).unwrap_or(now_ms)
        }
        _ => now_ms,
    }
}

impl EventAppender {
    /// Start appending to `session_id` from its stored index state.
    pub fn load(tx: &Transaction<'_>, session_id: &str, now_ms: i64) -> rusqlite::Result<Self> {
        Self::load_for(tx, AgentSchema::CURRENT, session_id, now_ms)
    }

    /// [`EventAppender::load`] for a database at `schema`: before 23, every event is stored
    /// plain, as the older releases store it.
    pub fn load_for(
        tx: &Transaction<'_>,
        schema: AgentSchema,
        session_id: &str,
        now_ms: i64,
    ) -> rusqlite::Result<Self> {
        Ok(EventAppender {
            session_id: session_id.to_string(),
            cursor: ProjectionCursor::load(tx, session_id)?,
            watermarked: false,
            now_ms,
            schema,
        })
    }

    /// Append `event` (serialised as `json`, OpenClaw's stored text) at `seq`.
    pub fn append(
        &mut self,
        tx: &Transaction<'_>,
        search: &mut SearchRows,
        seq: i64,
        json: &str,
        event: &Value,
        created_at: i64,
    ) -> rusqlite::Result<Stored> {
        let sid = self.session_id.as_str();
        let payload = if self.schema.compresses_events() {
            prepare(tx, json, event)?
        } else {
            events::insert_plain_json_only(tx, sid, seq, json, created_at)?;
            StoredPayload::Plain
        };
        let stored = match payload {
            StoredPayload::Plain if !self.schema.compresses_events() => Stored::Plain,
            StoredPayload::Plain => {
                events::insert_plain(tx, sid, seq, json, created_at)?;
                Stored::Plain
            }
            StoredPayload::Compressed { frame, navigation } => {
                events::insert_compressed(
                    tx,
                    sid,
                    seq,
                    &frame,
                    json.len() as i64,
                    &navigation,
                    created_at,
                )?;
                Stored::Compressed
            }
        };
        if !self.watermarked {
            // The generation's name: a later delete archives it under a name of its own.
            self.watermarked = true;
            let generation = uuid::Uuid::new_v4().simple().to_string();
            events::insert_watermark_if_absent(tx, sid, &generation, self.now_ms)?;
        }
        self.cursor.append(tx, search, seq, event, created_at)?;
        if let Some(id) = event_id(event) {
            let idem = event
                .get("message")
                .and_then(|m| m.get("idempotencyKey"))
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty());
            let idem_free = match idem {
                Some(k) => !events::idempotency_key_taken(tx, sid, k)?,
                None => false,
            };
            events::insert_identity(
                tx,
                &events::EventIdentity {
                    session_id: sid,
                    event_id: id,
                    seq,
                    event_type: event.get("type").and_then(Value::as_str),
                    parent_id: event.get("parentId").and_then(Value::as_str),
                    message_idempotency_key: idem.filter(|_| idem_free),
                    created_at,
                },
            )?;
        }
        Ok(stored)
    }

    /// Write the index state (rebuilding the search rows when the chain branched).
    pub fn finish(self, tx: &Transaction<'_>, search: &mut SearchRows) -> rusqlite::Result<()> {
        self.cursor.finish(tx, search, self.now_ms)
    }
}
