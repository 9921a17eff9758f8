//! `du --content [KEY]`: what holds the bytes inside transcripts — event kind, tool name,
//! content block type (inline base64 media, text, tool result text, thinking, tool calls) —
//! with the largest events named. One event decoded at a time (docs/openclaw/MEDIA.md says
//! how OpenClaw keeps media inline in its transcript rows).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use serde::Serialize;
use serde_json::Value;

use crate::error::{Result, ResultExt};
use crate::store::db::{events, windows};
use crate::store::{AgentSchema, ReadOnlyDb};
use crate::transcript::decode_event_row;

/// Events, and bytes they hold, under one name.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Tally {
    pub count: u64,
    pub bytes: u64,
}

impl Tally {
    fn add(&mut self, bytes: u64) {
        self.count += 1;
        self.bytes += bytes;
    }
}

/// One of the largest events.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LargeEvent {
    pub session_id: String,
    pub session_key: Option<String>,
    pub seq: i64,
    pub created_at: Option<i64>,
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    pub bytes: u64,
    pub stored_bytes: u64,
    /// Bytes of inline base64 media in it.
    pub media_bytes: u64,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ContentUse {
    pub agent_id: String,
    /// The one transcript measured, or every transcript of the agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    pub events: u64,
    /// Serialized event bytes.
    pub bytes: u64,
    /// Bytes of the stored cells (zstd frames as stored).
    pub stored_bytes: u64,
    /// Events whose JSON does not parse or whose frame does not decode: counted, not split.
    pub unreadable_events: u64,
    /// Inline base64 payloads (`data` of image, audio and file blocks): their base64 length.
    pub inline_media_bytes: u64,
    /// By event `type`; messages as `message:<role>`.
    pub by_kind: BTreeMap<String, Tally>,
    /// Tool results by `toolName`: the whole event's bytes.
    pub by_tool: BTreeMap<String, Tally>,
    /// Content blocks by what they hold: `image (inline base64)`, `text`, `tool result text`,
    /// `thinking`, `tool call`, ... with the bytes of their payload.
    pub by_block: BTreeMap<String, Tally>,
    pub largest: Vec<LargeEvent>,
}

/// The name of a block's kind and the bytes of what it holds.
fn block_use(block: &Value, role: &str) -> (String, u64) {
    let Some(obj) = block.as_object() else {
        return match block.as_str() {
            Some(s) => ("text".to_string(), s.len() as u64),
            None => ("other".to_string(), block.to_string().len() as u64),
        };
    };
    let ty = obj.get("type").and_then(Value::as_str).unwrap_or("untyped");
    if let Some(data) = obj.get("data").and_then(Value::as_str) {
        return (format!("{ty} (inline base64)"), data.len() as u64);
    }
    let text_len = |k: &str| obj.get(k).and_then(Value::as_str).map(|s| s.len() as u64);
    match ty {
        "text" if role == "toolResult" => (
            "tool result text".to_string(),
            text_len("text").unwrap_or(0),
        ),
        "text" => ("text".to_string(), text_len("text").unwrap_or(0)),
        "thinking" => ("thinking".to_string(), text_len("thinking").unwrap_or(0)),
        "toolCall" => (
            "tool call".to_string(),
            obj.get("arguments")
                .map_or(0, |a| a.to_string().len() as u64),
        ),
        other => (other.to_string(), block.to_string().len() as u64),
    }
}

/// Measure the transcripts of one agent database, or one transcript, keeping the `top`
/// largest events.
pub fn content_use(
    agent_id: &str,
    db: &ReadOnlyDb,
    session_id: Option<&str>,
    top: usize,
) -> Result<ContentUse> {
    let schema = AgentSchema::of(db.conn()).at(db.path())?;
    let mut out = ContentUse {
        agent_id: agent_id.to_string(),
        session_id: session_id.map(str::to_string),
        ..Default::default()
    };
    let mut heap: BinaryHeap<Reverse<(u64, String, i64)>> = BinaryHeap::new();
    let mut kept: BTreeMap<(String, i64), LargeEvent> = BTreeMap::new();
    events::for_each_any(db.conn(), db.path(), schema, session_id, |row| {
        out.events += 1;
        out.stored_bytes += row.stored_bytes as u64;
        let decoded =
            decode_event_row(row.session_id, row.seq, row.json, row.frame, row.utf8_bytes);
        let parsed = decoded
            .ok()
            .and_then(|(j, _)| serde_json::from_str::<Value>(&j).ok().map(|v| (j.len(), v)));
        let Some((len, event)) = parsed else {
            out.unreadable_events += 1;
            out.bytes += row.utf8_bytes.unwrap_or(row.stored_bytes).max(0) as u64;
            return Ok(());
        };
        let bytes = len as u64;
        out.bytes += bytes;
        let ty = event
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("untyped");
        let message = event.get("message");
        let role = message
            .and_then(|m| m.get("role"))
            .and_then(Value::as_str)
            .unwrap_or("");
        let kind = if ty == "message" {
            format!("message:{}", if role.is_empty() { "?" } else { role })
        } else {
            ty.to_string()
        };
        out.by_kind.entry(kind.clone()).or_default().add(bytes);
        let tool_name = (role == "toolResult").then(|| {
            message
                .and_then(|m| m.get("toolName"))
                .and_then(Value::as_str)
                .unwrap_or("?")
                .to_string()
        });
        if let Some(t) = &tool_name {
            out.by_tool.entry(t.clone()).or_default().add(bytes);
        }
        let mut media = 0;
        match message.and_then(|m| m.get("content")) {
            Some(Value::Array(blocks)) => {
                for b in blocks {
                    let (name, n) = block_use(b, role);
                    if name.ends_with("(inline base64)") {
                        media += n;
                    }
                    out.by_block.entry(name).or_default().add(n);
                }
            }
            Some(c @ Value::String(_)) => {
                let (name, n) = block_use(c, role);
                out.by_block.entry(name).or_default().add(n);
            }
            _ => {}
        }
        out.inline_media_bytes += media;
        if top > 0 {
            let id = (bytes, row.session_id.to_string(), row.seq);
            let enter = heap.len() < top || heap.peek().is_some_and(|Reverse(low)| *low < id);
            if enter {
                if heap.len() >= top {
                    if let Some(Reverse((_, s, q))) = heap.pop() {
                        kept.remove(&(s, q));
                    }
                }
                heap.push(Reverse(id));
                kept.insert(
                    (row.session_id.to_string(), row.seq),
                    LargeEvent {
                        session_id: row.session_id.to_string(),
                        session_key: None,
                        seq: row.seq,
                        created_at: row.created_at,
                        kind,
                        tool_name,
                        bytes,
                        stored_bytes: row.stored_bytes as u64,
                        media_bytes: media,
                    },
                );
            }
        }
        Ok(())
    })?;
    let mut largest: Vec<LargeEvent> = kept.into_values().collect();
    largest.sort_by(|a, b| {
        b.bytes
            .cmp(&a.bytes)
            .then_with(|| a.session_id.cmp(&b.session_id))
            .then(a.seq.cmp(&b.seq))
    });
    for e in &mut largest {
        e.session_key = windows::session_key_of(db.conn(), &e.session_id).at(db.path())?;
    }
    out.largest = largest;
    Ok(out)
}
