//! The transcript projections OpenClaw keeps beside the events: active branch rows, FTS rows
//! and the index state. Extended event by event while the transcript stays a straight
//! chain (`createTranscriptIndexAppenderInTransaction`), rebuilt from the tree otherwise
//! (`reconcileSessionTranscriptIndexInTransaction`).

use std::collections::HashMap;

use rusqlite::Transaction;
use serde_json::Value;

use super::convert::CANONICAL_TYPES;
use crate::store::db::{event_index, events};
use crate::store::AgentSchema;

fn kind(e: &Value) -> Option<&str> {
    e.get("type").and_then(Value::as_str)
}

fn is_canonical(e: &Value) -> bool {
    kind(e).is_some_and(|t| CANONICAL_TYPES.contains(&t))
}

fn trimmed_id(e: &Value) -> Option<&str> {
    e.get("id")
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// Has its own `parentId` and a non-blank id.
fn is_tree_entry(e: &Value) -> bool {
    e.as_object().is_some_and(|o| o.contains_key("parentId")) && trimmed_id(e).is_some()
}

/// `shouldProjectActiveEvent`.
fn is_projectable(e: &Value) -> bool {
    e.is_object()
        && kind(e) != Some("session")
        && (is_canonical(e) || is_tree_entry(e) || e.get("message").is_some_and(|m| !m.is_null()))
}

fn has_message(e: &Value) -> bool {
    e.get("message").is_some_and(|m| !m.is_null())
}

/// `extractTranscriptIndexEntry`: the searchable text of a user or assistant message.
fn fts_text(e: &Value) -> Option<(String, String, String)> {
    if kind(e) != Some("message") {
        return None;
    }
    let id = trimmed_id(e)?;
    let m = e.get("message")?;
    let role = m
        .get("role")
        .and_then(Value::as_str)
        .filter(|r| matches!(*r, "user" | "assistant"))?;
    let text = match (m.get("content"), m.get("text")) {
        (Some(Value::String(s)), _) => s.trim().to_string(),
        (_, Some(Value::String(s))) if !m.get("content").is_some_and(Value::is_string) => {
            s.trim().to_string()
        }
        (Some(Value::Array(blocks)), _) => blocks
            .iter()
            .filter(|b| {
                matches!(
                    b.get("type").and_then(Value::as_str),
                    Some("text" | "input_text" | "output_text")
                )
            })
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .filter(|t| !t.trim().is_empty())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    };
    (!text.is_empty()).then(|| (id.to_string(), role.to_string(), text))
}

/// The FTS row's timestamp; OpenClaw binds a JavaScript number, so FTS5 stores a REAL.
fn fts_timestamp(e: &Value, created_at: i64) -> f64 {
    match e.get("timestamp") {
        Some(Value::Number(n)) => n.as_f64().unwrap_or(created_at as f64),
        Some(Value::String(s)) => crate::units::parse_js_date(s).unwrap_or(created_at) as f64,
        _ => created_at as f64,
    }
}

/// What OpenClaw indexes of one event for search: `(message id, role, text, timestamp)`.
pub fn searchable_text(e: &Value, created_at: i64) -> Option<(String, String, String, f64)> {
    let (id, role, text) = fts_text(e)?;
    Some((id, role, text, fts_timestamp(e, created_at)))
}

/// FTS rows waiting to be written. FTS5 writes its pending terms out as a new segment at
/// every statement savepoint, and every session's writes open several: indexed as each event
/// is appended, the index got one small segment per session, and merging them cost more than
/// the tokenising. Queued here, the texts of many sessions go in back to back, into few
/// segments (docs/openclaw/IMPORT.md, "How this import is fast"). The rows' content and ids
/// are the same: each `session_transcript_fts_rows` row is written at once, its FTS row under
/// the same id before the transaction commits ([`SearchRows::flush`]).
pub struct SearchRows {
    rows: Vec<QueuedSearchRow>,
    bytes: usize,
    schema: AgentSchema,
}

impl Default for SearchRows {
    fn default() -> Self {
        Self::for_schema(AgentSchema::CURRENT)
    }
}

struct QueuedSearchRow {
    /// The `session_transcript_fts_rows` id; none where the schema has no such table.
    rowid: Option<i64>,
    session_id: String,
    message_id: String,
    role: String,
    text: String,
    timestamp: f64,
}

impl SearchRows {
    /// Texts held before they are written anyway: memory stays bounded for any transcript.
    const MAX_BYTES: usize = 8 * 1024 * 1024;

    pub fn new() -> Self {
        Self::default()
    }

    /// The search rows of a database at `schema`.
    pub fn for_schema(schema: AgentSchema) -> Self {
        SearchRows {
            rows: Vec::new(),
            bytes: 0,
            schema,
        }
    }

    fn push(
        &mut self,
        tx: &Transaction<'_>,
        session_id: &str,
        (message_id, role, text): (String, String, String),
        timestamp: f64,
    ) -> rusqlite::Result<()> {
        let rowid = if self.schema.has_search_rows() {
            Some(event_index::insert_search_key(tx, session_id, &message_id)?)
        } else {
            None
        };
        self.bytes += text.len() + message_id.len() + session_id.len() + 64;
        self.rows.push(QueuedSearchRow {
            rowid,
            session_id: session_id.to_string(),
            message_id,
            role,
            text,
            timestamp,
        });
        if self.bytes > Self::MAX_BYTES {
            self.flush(tx)?;
        }
        Ok(())
    }

    /// Drop the queued FTS rows of a session whose rows are about to be deleted: its
    /// `session_transcript_fts_rows` rows go, and the trigger that deletes their FTS rows
    /// finds none for these. A session is projected whole before the next one starts, so its
    /// queued rows are the last ones.
    fn forget(&mut self, session_id: &str) {
        while self.rows.last().is_some_and(|r| r.session_id == session_id) {
            self.rows.pop();
        }
    }

    /// Write every queued FTS row; before the transaction commits.
    pub fn flush(&mut self, tx: &Transaction<'_>) -> rusqlite::Result<()> {
        for r in self.rows.drain(..) {
            match r.rowid {
                Some(rowid) => event_index::insert_search_text(
                    tx,
                    rowid,
                    &r.session_id,
                    &r.message_id,
                    &r.text,
                    &r.role,
                    r.timestamp,
                )?,
                None => event_index::insert_unkeyed_search_text(
                    tx,
                    &r.session_id,
                    &r.message_id,
                    &r.text,
                    &r.role,
                    r.timestamp,
                )?,
            }
        }
        self.bytes = 0;
        Ok(())
    }
}

#[allow(clippy::too_many_arguments)]
fn insert_rows(
    tx: &Transaction<'_>,
    search: &mut SearchRows,
    session_id: &str,
    seq: i64,
    e: &Value,
    created_at: i64,
    active_position: i64,
    message_position: Option<i64>,
) -> rusqlite::Result<()> {
    if let Some(row) = fts_text(e) {
        search.push(tx, session_id, row, fts_timestamp(e, created_at))?;
    }
    let eligible = i64::from(
        e.get("message").and_then(|m| m.get("excludeFromContext")) != Some(&Value::Bool(true)),
    );
    event_index::insert_active(
        tx,
        session_id,
        active_position,
        seq,
        message_position,
        eligible,
    )?;
    Ok(())
}

/// One session's projection while its events are appended.
pub struct ProjectionCursor {
    session_id: String,
    indexed_seq: i64,
    leaf: Option<String>,
    active: i64,
    messages: i64,
    dirty: bool,
    updated_at: Option<i64>,
}

impl ProjectionCursor {
    /// Start from the stored index state (a re-run appends to it).
    pub fn load(tx: &Transaction<'_>, session_id: &str) -> rusqlite::Result<Self> {
        let state = event_index::state(tx, session_id)?;
        let (indexed_seq, leaf, active, messages, dirty) = state.unwrap_or((-1, None, 0, 0, 0));
        Ok(ProjectionCursor {
            session_id: session_id.to_string(),
            indexed_seq,
            leaf,
            active,
            messages,
            dirty: dirty != 0,
            updated_at: None,
        })
    }

    /// Project an appended event, or mark the session for a rebuild when it branches.
    pub fn append(
        &mut self,
        tx: &Transaction<'_>,
        search: &mut SearchRows,
        seq: i64,
        e: &Value,
        created_at: i64,
    ) -> rusqlite::Result<()> {
        if self.dirty {
            return Ok(());
        }
        let canonical = is_canonical(e);
        let projectable = is_projectable(e);
        let extends = seq == self.indexed_seq + 1
            && (self.indexed_seq == -1
                || (kind(e) != Some("leaf")
                    && e.get("appendMode").and_then(Value::as_str) != Some("side")
                    && !(canonical && self.leaf.is_none() && self.active > 0)
                    && !(!canonical && projectable && self.leaf.is_some())
                    && (!is_tree_entry(e)
                        || e.get("parentId").and_then(Value::as_str) == self.leaf.as_deref())));
        if !extends {
            self.dirty = true;
            return Ok(());
        }
        if projectable {
            let message_position = has_message(e).then_some(self.messages);
            insert_rows(
                tx,
                search,
                &self.session_id,
                seq,
                e,
                created_at,
                self.active,
                message_position,
            )?;
            self.active += 1;
            if message_position.is_some() {
                self.messages += 1;
            }
        }
        self.indexed_seq = seq;
        if canonical {
            if let Some(id) = trimmed_id(e) {
                self.leaf = Some(id.to_string());
            }
        }
        self.updated_at = Some(created_at);
        Ok(())
    }

    /// Write the index state, rebuilding the rows first when the chain was broken.
    pub fn finish(
        self,
        tx: &Transaction<'_>,
        search: &mut SearchRows,
        now_ms: i64,
    ) -> rusqlite::Result<()> {
        if self.dirty {
            return rebuild(tx, search, &self.session_id, now_ms);
        }
        let Some(updated_at) = self.updated_at else {
            return Ok(());
        };
        event_index::write_state(
            tx,
            &self.session_id,
            self.indexed_seq,
            self.leaf.as_deref(),
            self.active,
            self.messages,
            updated_at,
        )
        .map(drop)
    }
}

/// Rebuild one session's projection (active branch, search rows, index state) from its stored
/// events, as OpenClaw's reconcile does after a rewrite: for events changed in place.
pub fn rebuild_session(
    tx: &Transaction<'_>,
    schema: AgentSchema,
    session_id: &str,
    now_ms: i64,
) -> rusqlite::Result<()> {
    let mut search = SearchRows::for_schema(schema);
    rebuild(tx, &mut search, session_id, now_ms)?;
    search.flush(tx)
}

/// Rebuild the session's projection from its tree: the path from the leaf back to the root.
fn rebuild(
    tx: &Transaction<'_>,
    search: &mut SearchRows,
    session_id: &str,
    now_ms: i64,
) -> rusqlite::Result<()> {
    search.forget(session_id);
    let schema = search.schema;
    if schema.has_search_rows() {
        event_index::clear_for_rebuild(tx, session_id)?;
    } else {
        event_index::clear_unkeyed_for_rebuild(tx, session_id)?;
    }
    // Only the tree shape of each event is kept (not the events): a rebuild of a long
    // transcript holds ids and links, then reads the path's events one at a time.
    struct Shape {
        seq: i64,
        created_at: i64,
        id: Option<String>,
        parent: Option<String>,
    }
    let mut rows: Vec<Shape> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    let mut leaf: Option<String> = None;
    let mut leaf_control = false;
    let visit = |seq, created_at, json: String| {
        let e: Value = crate::json_value::from_str(&json).unwrap_or(Value::Null);
        let mut shape = Shape {
            seq,
            created_at,
            id: None,
            parent: None,
        };
        match kind(&e) {
            Some("session") => {}
            Some("leaf") => {
                leaf_control = true;
                leaf = e.get("targetId").and_then(Value::as_str).map(String::from);
            }
            _ => {
                if let Some(id) = trimmed_id(&e) {
                    by_id.insert(id.to_string(), rows.len());
                    leaf = Some(id.to_string());
                    shape.id = Some(id.to_string());
                    shape.parent = e.get("parentId").and_then(Value::as_str).map(String::from);
                }
            }
        }
        rows.push(shape);
    };
    events::for_each_navigation(tx, schema, session_id, visit)?;
    let mut path = Vec::new();
    let mut cur = leaf.clone();
    while let Some(id) = cur {
        let Some(&i) = by_id.get(&id) else { break };
        if path.len() > rows.len() {
            break; // a parent cycle
        }
        path.push(i);
        cur = rows[i].parent.clone();
    }
    path.reverse();
    if path.is_empty() && !leaf_control {
        path = (0..rows.len()).collect();
    }
    // The projected rows need the full event; compressed rows carry only navigation facts.
    let mut active = 0;
    let mut messages = 0;
    for i in path {
        let Shape {
            seq, created_at, ..
        } = &rows[i];
        let e = stored_event(tx, schema, session_id, *seq)?;
        if !is_projectable(&e) {
            continue;
        }
        let message_position = has_message(&e).then_some(messages);
        insert_rows(
            tx,
            search,
            session_id,
            *seq,
            &e,
            *created_at,
            active,
            message_position,
        )?;
        active += 1;
        if message_position.is_some() {
            messages += 1;
        }
    }
    let max_seq = rows.last().map_or(-1, |r| r.seq);
    let leaf = leaf.filter(|l| by_id.contains_key(l) || leaf_control);
    event_index::write_state(
        tx,
        session_id,
        max_seq,
        leaf.as_deref(),
        active,
        messages,
        now_ms,
    )
    .map(drop)
}

/// One stored event, decoded (plain JSON or zstd frame) in a single read.
fn stored_event(
    tx: &Transaction<'_>,
    schema: AgentSchema,
    session_id: &str,
    seq: i64,
) -> rusqlite::Result<Value> {
    let (json, frame, len) = events::payload(tx, schema, session_id, seq)?;
    let text = crate::transcript::decode_event_row(session_id, seq, json, frame.as_deref(), len)
        .map(|(j, _)| j)
        .unwrap_or_default();
    Ok(crate::json_value::from_str(&text).unwrap_or(Value::Null))
}
