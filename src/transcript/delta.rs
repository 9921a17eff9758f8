//! Bounded transcript pages with an opaque cursor: the contract of OpenClaw's raw and
//! visible delta readers (`readSessionTranscriptRawDelta`,
//! `readSessionTranscriptVisibleMessageDelta`), read-only, with cursors bound to the store.

use std::collections::HashMap;
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::branch::active_path;
use super::cursor;
use super::TranscriptSource;
use crate::error::{Error, Result};
use crate::store::AgentStore;

pub const DEFAULT_MAX_EVENTS: u64 = 1_000;
pub const DEFAULT_MAX_BYTES: u64 = 1_000_000;
pub const MAX_EVENTS: u64 = 10_000;
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;

#[derive(Debug, Clone, Copy)]
pub struct DeltaLimits {
    pub max_events: u64,
    pub max_bytes: u64,
}

impl DeltaLimits {
    pub fn new(max_events: Option<u64>, max_bytes: Option<u64>) -> Result<Self> {
        let check = |v: u64, max: u64, name: &str| {
            if (1..=max).contains(&v) {
                Ok(v)
            } else {
                Err(Error::invalid(format!(
                    "{name} must be an integer between 1 and {max}"
                )))
            }
        };
        Ok(DeltaLimits {
            max_events: check(
                max_events.unwrap_or(DEFAULT_MAX_EVENTS),
                MAX_EVENTS,
                "--max-events",
            )?,
            max_bytes: check(
                max_bytes.unwrap_or(DEFAULT_MAX_BYTES),
                MAX_BYTES,
                "--max-bytes",
            )?,
        })
    }
}

/// The raw delta cursor: OpenClaw's (`agentId`, `generation`, `lastSeq`, `sessionId`,
/// `version`, in that order) plus the `store` binding of ours. A cursor without `store` is one
/// OpenClaw issued: it pages as OpenClaw pages it, and the next cursor stays in its form
/// (docs/openclaw/READERS.md, transcript delta cursors).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct RawCursor {
    agent_id: String,
    generation: String,
    last_seq: i64,
    session_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    store: Option<String>,
    version: u8,
}

impl RawCursor {
    /// OpenClaw's `parseRawTranscriptCursor` checks on a loosely decoded cursor; a `store`
    /// that is not a string binds to no store of ours.
    fn from_map(map: &serde_json::Map<String, serde_json::Value>) -> Option<RawCursor> {
        let text = |k: &str| map.get(k).and_then(|v| v.as_str()).map(String::from);
        if cursor::safe_integer(map.get("version")) != Some(1) {
            return None;
        }
        let last_seq = cursor::safe_integer(map.get("lastSeq")).filter(|n| *n >= -1)?;
        Some(RawCursor {
            agent_id: text("agentId")?,
            generation: text("generation")?,
            last_seq,
            session_id: text("sessionId")?,
            store: map
                .get("store")
                .map(|v| v.as_str().unwrap_or_default().to_string()),
            version: 1,
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct VisibleCursor {
    agent_id: String,
    generation: String,
    session_id: String,
    last_event_seq: i64,
    last_message_position: i64,
    /// Ours only: OpenClaw's visible cursor is these fields without `store`, in this order,
    /// canonical (its parser re-encodes and compares, as [`cursor::decode`] does).
    #[serde(skip_serializing_if = "Option::is_none")]
    store: Option<String>,
    version: u8,
}

#[derive(Debug, Serialize)]
pub struct RawEvent {
    pub seq: i64,
    pub event: Box<RawValue>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VisibleMessage {
    pub entry_id: String,
    pub parent_id: Option<String>,
    pub seq: i64,
    pub message: Box<RawValue>,
    pub role: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}

/// The answer of a delta read.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum DeltaPage<T> {
    Page {
        cursor: String,
        #[serde(rename = "events")]
        items: Vec<T>,
        #[serde(rename = "hasMore")]
        has_more: bool,
        #[serde(rename = "serializedBytes")]
        serialized_bytes: u64,
        #[serde(rename = "requiredBytes", skip_serializing_if = "Option::is_none")]
        required_bytes: Option<u64>,
    },
    /// The cursor no longer fits (another store or session, replaced transcript): start
    /// again from the fresh cursor.
    Reset {
        cursor: String,
        reason: &'static str,
    },
    /// No such transcript.
    Missing,
}

/// Identity of a store for cursor binding: the database file (by canonical path) and its
/// creation stamp, so a copy elsewhere or a recreated database is another store.
pub fn store_identity(store: &AgentStore) -> String {
    if let Some(db) = store.db() {
        let created: Option<i64> = crate::store::db::meta::created_at(db.conn()).ok();
        let created = created.map(|c| c.to_string()).unwrap_or_default();
        let path = std::fs::canonicalize(db.path()).unwrap_or_else(|_| db.path().to_path_buf());
        return cursor::binding(&[
            "sqlite",
            store.paths.id.as_str(),
            &created,
            &path.to_string_lossy(),
        ]);
    }
    let path = store
        .legacy()
        .map(|l| l.path.to_string_lossy().into_owned())
        .unwrap_or_default();
    cursor::binding(&["legacy", store.paths.id.as_str(), &path])
}

/// The transcript's current generation: the rewrite watermark in SQLite, a hash of the
/// header line for a legacy file. `None` when the transcript does not exist.
pub fn generation(store: &AgentStore, source: &TranscriptSource) -> Result<Option<String>> {
    match source {
        TranscriptSource::Sqlite { session_id, db } => {
            let conn = store
                .db()
                .ok_or_else(|| Error::Internal("no database".into()))?
                .conn();
            crate::store::db::events::watermark_generation(conn, session_id)
                .map_err(|e| Error::sqlite(db, e))
        }
        TranscriptSource::Jsonl { .. } | TranscriptSource::Archive { .. } => {
            if let TranscriptSource::Jsonl { path, .. } = source {
                if !path.exists() {
                    return Ok(None);
                }
            }
            let mut header = None;
            source.for_each(store, 0, &mut |ev| {
                header = Some(ev.json);
                Ok(ControlFlow::Break(()))
            })?;
            Ok(Some(
                cursor::binding(&["jsonl", header.as_deref().unwrap_or("")])[..32].to_string(),
            ))
        }
    }
}

fn raw_value(json: String, where_: &str) -> Result<Box<RawValue>> {
    RawValue::from_string(json)
        .map_err(|e| Error::bad_input(format!("{where_}: stored event is not JSON ({e})"), None))
}

/// One raw page: every event type, the header included, in `seq` order.
pub fn raw_delta(
    store: &AgentStore,
    source: &TranscriptSource,
    cursor_arg: Option<&str>,
    limits: DeltaLimits,
) -> Result<DeltaPage<RawEvent>> {
    let Some(generation) = generation(store, source)? else {
        return Ok(DeltaPage::Missing);
    };
    let bootstrap = RawCursor {
        agent_id: store.paths.id.to_string(),
        generation: generation.clone(),
        last_seq: -1,
        session_id: source.session_id().to_string(),
        store: Some(store_identity(store)),
        version: 1,
    };
    // The cursor as given, to continue in its own form (OpenClaw: `{...cursor, lastSeq}`).
    let mut given = None;
    let cur = match cursor_arg {
        None => bootstrap.clone(),
        Some(raw) => {
            let reset = |reason| {
                Ok(DeltaPage::Reset {
                    cursor: cursor::encode(&bootstrap),
                    reason,
                })
            };
            // Decoded as loosely as OpenClaw decodes it; a malformed or foreign-format cursor
            // starts over, as OpenClaw answers it (SPEC §5, transcript delta).
            let Some(map) = cursor::decode_loose(raw) else {
                return reset("invalid_cursor");
            };
            let Some(c) = RawCursor::from_map(&map) else {
                return reset("invalid_cursor");
            };
            given = Some(map);
            // Ours carries its store: used against another store, it is out of scope there.
            if c.store
                .as_ref()
                .is_some_and(|s| Some(s) != bootstrap.store.as_ref())
                || c.agent_id != bootstrap.agent_id
                || c.session_id != bootstrap.session_id
            {
                return reset("scope_mismatch");
            }
            if c.generation != generation {
                return reset("generation_mismatch");
            }
            if c.last_seq < -1 || c.last_seq > source.last_seq(store)? {
                return reset("invalid_cursor");
            }
            c
        }
    };
    let mut items = Vec::new();
    let (mut bytes, mut has_more, mut required, mut last_seq) = (0u64, false, None, cur.last_seq);
    source.for_each(store, cur.last_seq + 1, &mut |ev| {
        let size = ev.json.len() as u64 + 1;
        if items.len() as u64 >= limits.max_events || bytes + size > limits.max_bytes {
            has_more = true;
            if items.is_empty() {
                required = Some(size);
            }
            return Ok(ControlFlow::Break(()));
        }
        bytes += size;
        last_seq = ev.seq;
        let where_ = format!("transcript row {}#{}", source.session_id(), ev.seq);
        items.push(RawEvent {
            seq: ev.seq,
            event: raw_value(ev.json, &where_)?,
        });
        Ok(ControlFlow::Continue(()))
    })?;
    let next = match given {
        Some(mut map) => {
            map.insert("lastSeq".into(), last_seq.into());
            cursor::encode_map(&map)
        }
        None => cursor::encode(&RawCursor { last_seq, ..cur }),
    };
    Ok(DeltaPage::Page {
        cursor: next,
        items,
        has_more,
        serialized_bytes: bytes,
        required_bytes: required,
    })
}

#[derive(Deserialize)]
struct MessageEvent<'a> {
    #[serde(rename = "type")]
    kind: Option<String>,
    id: Option<String>,
    timestamp: Option<String>,
    #[serde(borrow)]
    message: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct MessageFields {
    role: Option<String>,
    #[serde(rename = "idempotencyKey")]
    idempotency_key: Option<String>,
}

/// One visible page: the active branch's `message` events (every role), 1-based `seq`
/// counting messages along the branch.
pub fn visible_delta(
    store: &AgentStore,
    source: &TranscriptSource,
    cursor_arg: Option<&str>,
    limits: DeltaLimits,
) -> Result<DeltaPage<VisibleMessage>> {
    let Some(generation) = generation(store, source)? else {
        return Ok(DeltaPage::Missing);
    };
    let bootstrap = VisibleCursor {
        agent_id: store.paths.id.to_string(),
        generation: generation.clone(),
        session_id: source.session_id().to_string(),
        last_event_seq: -1,
        last_message_position: -1,
        store: Some(store_identity(store)),
        version: 1,
    };
    let path = active_path(store, source)?;
    let cur = match cursor_arg {
        None => bootstrap.clone(),
        Some(raw) => {
            let reset = |reason| {
                Ok(DeltaPage::Reset {
                    cursor: cursor::encode(&bootstrap),
                    reason,
                })
            };
            // Malformed, foreign-format or inconsistent: start over (SPEC §5). OpenClaw's own
            // visible cursors decode here (the same canonical check as its parser's).
            let c: VisibleCursor =
                match cursor::decode::<VisibleCursor>(raw, "visible transcript delta") {
                    Ok(c)
                        if c.version == 1
                            && (c.last_event_seq == -1) == (c.last_message_position == -1)
                            && c.last_event_seq >= -1
                            && c.last_message_position >= -1 =>
                    {
                        c
                    }
                    _ => return reset("invalid_cursor"),
                };
            if c.store
                .as_ref()
                .is_some_and(|s| Some(s) != bootstrap.store.as_ref())
                || c.agent_id != bootstrap.agent_id
                || c.session_id != bootstrap.session_id
            {
                return reset("scope_mismatch");
            }
            if c.generation != generation {
                return reset("generation_mismatch");
            }
            if c.last_event_seq >= 0 {
                match path.iter().find(|a| a.seq == c.last_event_seq) {
                    Some(a) if a.message_position == Some(c.last_message_position) => {}
                    Some(a) if a.message_position.is_some() => return reset("anchor_moved"),
                    _ => return reset("anchor_missing"),
                }
            }
            c
        }
    };
    // Candidates after the cursor, in branch order, with the id of the event before each.
    let mut wanted: HashMap<i64, (i64, Option<String>)> = HashMap::new();
    let mut order = Vec::new();
    for (i, a) in path.iter().enumerate() {
        if let Some(pos) = a.message_position {
            if pos > cur.last_message_position {
                let parent = if i > 0 {
                    path[i - 1].event_id.clone()
                } else {
                    None
                };
                wanted.insert(a.seq, (pos, parent));
                order.push(a.seq);
            }
        }
    }
    let mut items = Vec::new();
    let (mut bytes, mut has_more, mut required) = (0u64, false, None);
    let (mut last_seq, mut last_pos, mut taken) =
        (cur.last_event_seq, cur.last_message_position, 0u64);
    let first = order.first().copied().unwrap_or(i64::MAX);
    if first != i64::MAX {
        source.for_each(store, first, &mut |ev| {
            let Some((pos, parent)) = wanted.get(&ev.seq).cloned() else {
                return Ok(ControlFlow::Continue(()));
            };
            let size = ev.json.len() as u64 + 1;
            if taken >= limits.max_events || bytes + size > limits.max_bytes {
                has_more = true;
                if taken == 0 {
                    required = Some(size);
                }
                return Ok(ControlFlow::Break(()));
            }
            taken += 1;
            bytes += size;
            last_seq = ev.seq;
            last_pos = pos;
            let where_ = format!("transcript row {}#{}", source.session_id(), ev.seq);
            let parsed: MessageEvent = crate::json_value::from_str(&ev.json).map_err(|e| {
                Error::bad_input(format!("{where_}: stored event is not JSON ({e})"), None)
            })?;
            let (Some("message"), Some(message), Some(id)) =
                (parsed.kind.as_deref(), parsed.message, parsed.id)
            else {
                return Ok(ControlFlow::Continue(()));
            };
            let fields: MessageFields =
                crate::json_value::from_str(message.get()).unwrap_or(MessageFields {
                    role: None,
                    idempotency_key: None,
                });
            let Some(role) = fields.role.filter(|r| !r.trim().is_empty()) else {
                return Ok(ControlFlow::Continue(()));
            };
            items.push(VisibleMessage {
                entry_id: id,
                parent_id: parent,
                seq: pos + 1,
                message: message.to_owned(),
                role,
                created_at: parsed.timestamp.filter(|t| !t.trim().is_empty()),
                idempotency_key: fields.idempotency_key.filter(|k| !k.trim().is_empty()),
            });
            Ok(ControlFlow::Continue(()))
        })?;
    }
    let next = VisibleCursor {
        last_event_seq: last_seq,
        last_message_position: last_pos,
        ..cur
    };
    Ok(DeltaPage::Page {
        cursor: cursor::encode(&next),
        items,
        has_more,
        serialized_bytes: bytes,
        required_bytes: required,
    })
}
