//! Newest-first pages of user and assistant text (OpenClaw's
//! `readSessionTranscriptCatalogPage`): no tool calls, results or reasoning; at most 1,000
//! messages scanned and 8 MiB read per page; every item capped; cursors bound to the
//! store and session; cold history reported, never restored.

use std::collections::{BTreeSet, VecDeque};
use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::branch::active_messages;
use super::cursor;
use super::delta::{generation, store_identity};
use super::TranscriptSource;
use crate::error::{Error, Remedy, Result};
use crate::store::{AgentStore, SessionEntry};

pub const DEFAULT_LIMIT: u64 = 50;
pub const MAX_ITEMS: u64 = 200;
pub const MAX_TEXT_UNITS: usize = 6000;
pub const MAX_READ_BYTES: u64 = 8 * 1024 * 1024;
pub const MAX_SCAN_MESSAGES: usize = 1000;
const CONTROL_REPLIES: [&str; 3] = ["NO_REPLY", "ANNOUNCE_SKIP", "REPLY_SKIP"];

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Anchor {
    seq: usize,
    #[serde(rename = "eventSeq")]
    event_seq: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogCursor {
    version: u8,
    scope: String,
    source: String,
    anchor: Anchor,
    before: usize,
    skip: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct CatalogItem {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated: Option<bool>,
    pub id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ColdHistory {
    pub session_id: String,
    pub archive_name: String,
    pub event_count: i64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CatalogPage {
    pub items: Vec<CatalogItem>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    pub scanned_messages: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cold: Option<ColdHistory>,
}

/// Cut to at most `max` UTF-16 code units without splitting a surrogate pair.
pub fn truncate_utf16(text: &str, max: usize) -> (&str, bool) {
    let mut units = 0;
    for (i, c) in text.char_indices() {
        units += c.len_utf16();
        if units > max {
            return (&text[..i], true);
        }
    }
    (text, false)
}

fn cold_history(store: &AgentStore, session_id: &str) -> Option<ColdHistory> {
    let db = store.db()?;
    let (archive_name, event_count) =
        crate::store::db::archives::cold_archive(db.conn(), session_id)
            .ok()
            .flatten()?;
    Some(ColdHistory {
        session_id: session_id.to_string(),
        archive_name,
        event_count,
    })
}

/// Items of one message, oldest block first.
fn message_items(event: &Value) -> Vec<CatalogItem> {
    let Some(message) = event.get("message") else {
        return Vec::new();
    };
    let kind = match message.get("role").and_then(Value::as_str) {
        Some("user") => "userMessage",
        Some("assistant") => "agentMessage",
        _ => return Vec::new(),
    };
    let event_id = event.get("id").and_then(Value::as_str).unwrap_or_default();
    let timestamp = message
        .get("timestamp")
        .and_then(|t| {
            t.as_i64()
                .map(crate::units::iso_from_ms)
                .or_else(|| t.as_str().map(String::from))
        })
        .or_else(|| {
            event
                .get("timestamp")
                .and_then(Value::as_str)
                .map(String::from)
        });
    let model = message
        .get("model")
        .and_then(Value::as_str)
        .map(|m| m.chars().take(200).collect());
    let blocks: Vec<(usize, &str)> = match message.get("content") {
        Some(Value::String(s)) => vec![(0, s.as_str())],
        Some(Value::Array(parts)) => parts
            .iter()
            .enumerate()
            .filter(|(_, b)| {
                matches!(
                    b.get("type").and_then(Value::as_str),
                    Some("text" | "input_text" | "output_text")
                )
            })
            .filter_map(|(i, b)| b.get("text").and_then(Value::as_str).map(|t| (i, t)))
            .collect(),
        _ => Vec::new(),
    };
    blocks
        .into_iter()
        .filter(|(_, t)| !t.trim().is_empty())
        .filter(|(_, t)| !(kind == "agentMessage" && CONTROL_REPLIES.contains(&t.trim())))
        .map(|(i, t)| {
            let (text, cut) = truncate_utf16(t, MAX_TEXT_UNITS);
            CatalogItem {
                kind,
                text: text.to_string(),
                truncated: cut.then_some(true),
                id: format!("{event_id}:{i}"),
                timestamp: timestamp.clone(),
                model: model.clone(),
            }
        })
        .collect()
}

pub fn catalog_page(
    store: &AgentStore,
    entry: &SessionEntry,
    cursor_arg: Option<&str>,
    limit: Option<u64>,
) -> Result<CatalogPage> {
    let parsed_cursor: Option<CatalogCursor> = cursor_arg
        .map(|c| cursor::decode(c, "transcript catalog"))
        .transpose()?;
    let limit = limit.unwrap_or(DEFAULT_LIMIT);
    if !(1..=MAX_ITEMS).contains(&limit) {
        return Err(Error::invalid(format!(
            "--limit must be an integer from 1 to {MAX_ITEMS}"
        )));
    }
    let session_id = entry.session_id();
    if let Some(cold) = cold_history(store, session_id) {
        return Ok(CatalogPage {
            items: Vec::new(),
            next_cursor: None,
            scanned_messages: 0,
            cold: Some(cold),
        });
    }
    let source = TranscriptSource::for_session(store, session_id)?;
    let generation = generation(store, &source)?.unwrap_or_default();
    let identity = store_identity(store);
    let scope = cursor::binding(&[
        "conversation",
        store.paths.id.as_str(),
        &entry.key,
        session_id,
        &identity,
    ]);
    let source_hash =
        cursor::binding(&["source", store.paths.id.as_str(), session_id, &generation]);
    // The display history: active-branch messages after the latest reset. Only the range
    // this page may scan is read (and the anchor a cursor names).
    let messages = active_messages(store, &source)?;
    let mismatch = || {
        Error::bad_input(
            "transcript catalog cursor does not belong to this session (another store, session or transcript)",
            Some("start again without --cursor".to_string()),
        )
    };
    let total = messages.total();
    let (anchor, mut before, mut skip) = match &parsed_cursor {
        None => match messages.seqs(total.saturating_sub(1), total)?.first() {
            None => {
                return Ok(CatalogPage {
                    items: Vec::new(),
                    next_cursor: None,
                    scanned_messages: 0,
                    cold: None,
                })
            }
            Some(&last) => (
                Anchor {
                    seq: total,
                    event_seq: last,
                },
                total,
                0,
            ),
        },
        Some(c) => {
            if c.version != 1 || c.scope != scope || c.source != source_hash {
                return Err(mismatch());
            }
            if c.anchor.seq == 0
                || c.anchor.seq > total
                || c.before > total
                || c.before > c.anchor.seq
            {
                return Err(mismatch());
            }
            if messages.seqs(c.anchor.seq - 1, c.anchor.seq)?.first() != Some(&c.anchor.event_seq) {
                return Err(mismatch());
            }
            (c.anchor.clone(), c.before, c.skip)
        }
    };
    // Read the events this page may scan, bounded by the scan and byte caps. They are read
    // oldest first but used newest first, so only the newest ones within the byte budget are
    // kept: an older one is dropped as soon as newer ones fill the budget (the page would stop
    // before it anyway). Memory is the budget plus one event, whatever the sizes.
    let lowest = before.saturating_sub(MAX_SCAN_MESSAGES);
    let window = messages.seqs(lowest, before)?;
    let wanted: BTreeSet<i64> = window.iter().copied().collect();
    let mut events: VecDeque<(i64, String)> = VecDeque::new();
    let mut held = 0u64;
    if let Some(&first) = wanted.iter().next() {
        source.for_each(store, first, &mut |ev| {
            if wanted.contains(&ev.seq) {
                let json = if ev.json.len() as u64 + 1 > MAX_READ_BYTES {
                    // Only an error when this page would have to show it first.
                    String::new()
                } else {
                    ev.json
                };
                held += json.len() as u64 + 1;
                events.push_back((ev.seq, json));
                while held > MAX_READ_BYTES && events.len() > 1 {
                    if let Some((_, old)) = events.pop_front() {
                        held -= old.len() as u64 + 1;
                    }
                }
            }
            Ok(if wanted.last() == Some(&ev.seq) {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            })
        })?;
    }
    let mut items = Vec::new();
    let (mut scanned, mut read_bytes) = (0usize, 0u64);
    while before > 0 && (items.len() as u64) < limit && scanned < MAX_SCAN_MESSAGES {
        let seq = window[before - 1 - lowest];
        // Dropped for the budget: this page is full.
        let Some((_, json)) = events.pop_back().filter(|(s, _)| *s == seq) else {
            break;
        };
        if json.is_empty() {
            return Err(Error::bad_input(
                "a transcript entry is too large to show (over 8 MiB)",
                Some("use the raw transcript reader to read it raw".to_string()),
            )
            .with_remedy(Remedy::TranscriptCat));
        }
        if read_bytes + json.len() as u64 + 1 > MAX_READ_BYTES && scanned > 0 {
            break;
        }
        read_bytes += json.len() as u64 + 1;
        let value: Value = crate::json_value::from_str(&json).unwrap_or(Value::Null);
        let mut msg_items = message_items(&value);
        msg_items.reverse();
        if skip > msg_items.len() {
            return Err(Error::bad_input(
                "malformed transcript catalog cursor: skip out of range",
                None,
            ));
        }
        let remaining = &msg_items[skip..];
        let room = (limit as usize) - items.len();
        if remaining.len() > room {
            items.extend_from_slice(&remaining[..room]);
            skip += room;
            scanned += 1;
            break;
        }
        items.extend_from_slice(remaining);
        skip = 0;
        before -= 1;
        scanned += 1;
    }
    let next_cursor = (before > 0).then(|| {
        cursor::encode(&CatalogCursor {
            version: 1,
            scope,
            source: source_hash,
            anchor,
            before,
            skip,
        })
    });
    Ok(CatalogPage {
        items,
        next_cursor,
        scanned_messages: scanned,
        cold: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_cut_keeps_pairs() {
        assert_eq!(truncate_utf16("abc", 5), ("abc", false));
        assert_eq!(truncate_utf16("abcdef", 3), ("abc", true));
        // '😀' is two UTF-16 units: never split.
        assert_eq!(truncate_utf16("a😀b", 2), ("a", true));
        assert_eq!(truncate_utf16("a😀b", 3), ("a😀", true));
    }
}
