//! How OpenClaw stores one event (`prepareTranscriptPayload`): plain JSON, or a zstd frame
//! with `navigation_json` when that saves at least a tenth of the bytes.

use rusqlite::{Connection, OptionalExtension};
use serde_json::{json, Map, Value};

use crate::json_value::truthy;

const MIN_COMPRESS_BYTES: usize = 1024;
const MAX_COMPRESSED_EVENT_BYTES: usize = 4 * 1024 * 1024;
const NAVIGATION_SQL: &str = include_str!("navigation_json.sql");

/// The columns of one `transcript_events` row besides its key and clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StoredPayload {
    Plain,
    Compressed { frame: Vec<u8>, navigation: String },
}

/// Decide how `json` is stored; `conn` evaluates OpenClaw's navigation SQL (SQLite ≥ 3.45)
/// for the rare event the Rust projection leaves to it.
pub fn prepare(conn: &Connection, json: &str, event: &Value) -> rusqlite::Result<StoredPayload> {
    let raw = json.len();
    if !(MIN_COMPRESS_BYTES..=MAX_COMPRESSED_EVENT_BYTES).contains(&raw)
        || json.contains("\\u")
        || json.contains('\0')
    {
        return Ok(StoredPayload::Plain);
    }
    let Ok(frame) = compress(json.as_bytes()) else {
        return Ok(StoredPayload::Plain);
    };
    let maximum = raw - 64usize.max(raw.div_ceil(10));
    if frame.len() > maximum {
        return Ok(StoredPayload::Plain);
    }
    // A transcript header is never compressed.
    if event.get("type").and_then(Value::as_str) == Some("session")
        && event.get("id").is_some_and(Value::is_string)
    {
        return Ok(StoredPayload::Plain);
    }
    let report = serde_json::to_string(&report_facts(event)).unwrap_or_default();
    let navigation = match super::navigation::project(event, raw, &report) {
        Ok(navigation) => navigation,
        Err(super::navigation::Unsupported) => navigation_sql(conn, json, &report)?,
    };
    match navigation {
        Some(nav) if frame.len() + nav.len() <= maximum => Ok(StoredPayload::Compressed {
            frame,
            navigation: nav,
        }),
        _ => Ok(StoredPayload::Plain),
    }
}

/// OpenClaw's own navigation SQL, for events the Rust projection does not render.
pub(super) fn navigation_sql(
    conn: &Connection,
    json: &str,
    report: &str,
) -> rusqlite::Result<Option<String>> {
    Ok(conn
        .prepare_cached(NAVIGATION_SQL)?
        .query_row(rusqlite::params![json, report], |r| r.get(0))
        .optional()?
        .flatten())
}

/// Node's `zstdCompressSync` at level 1 with a checksum: one frame with its content size.
pub fn compress(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    thread_local! {
        // One context for the whole import: creating one per event costs more than level 1.
        static COMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    COMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            let mut c = zstd::bulk::Compressor::new(1)?;
            c.set_parameter(zstd::zstd_safe::CParameter::ChecksumFlag(true))?;
            *slot = Some(c);
        }
        match slot.as_mut() {
            Some(c) => c.compress(bytes),
            None => Err(std::io::Error::other("no zstd context")),
        }
    })
}

fn non_empty(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str).is_some_and(|s| !s.is_empty())
}

fn readable_message(m: &Value) -> bool {
    let Some(m) = m.as_object() else { return false };
    let content_ok = super::convert::readable_content;
    match m.get("role").and_then(Value::as_str) {
        Some("user" | "assistant") => content_ok(m.get("content")),
        Some("toolResult") => {
            m.get("toolCallId").is_some_and(Value::is_string)
                && m.get("toolName").is_some_and(Value::is_string)
                && m.get("isError").is_some_and(Value::is_boolean)
                && m.get("content").is_some_and(Value::is_array)
        }
        Some("custom") => {
            m.get("customType").is_some_and(Value::is_string) && content_ok(m.get("content"))
        }
        Some("bashExecution") => {
            m.get("command").is_some_and(Value::is_string)
                && m.get("output").is_some_and(Value::is_string)
        }
        _ => false,
    }
}

/// `indexedSessionEntrySchema`: the event is a canonical tree entry.
fn recognised(e: &Map<String, Value>) -> bool {
    let base = non_empty(e.get("id"))
        && e.get("parentId")
            .is_none_or(|p| p.is_null() || p.is_string())
        && e.get("timestamp").is_none_or(Value::is_string);
    if !base {
        return false;
    }
    let s = |k: &str| e.get(k).is_some_and(Value::is_string);
    match e.get("type").and_then(Value::as_str) {
        Some("message") => e.get("message").is_some_and(readable_message),
        Some("thinking_level_change") => non_empty(e.get("thinkingLevel")),
        Some("model_change") => non_empty(e.get("provider")) && non_empty(e.get("modelId")),
        Some("compaction") => {
            s("summary")
                && non_empty(e.get("firstKeptEntryId"))
                && e.get("tokensBefore").is_some_and(Value::is_number)
        }
        Some("reset") => matches!(
            e.get("reason").and_then(Value::as_str),
            Some("new" | "reset" | "idle" | "daily" | "cron-stale")
        ),
        Some("branch_summary") => s("fromId") && s("summary"),
        Some("custom") => s("customType"),
        Some("custom_message") => {
            s("customType")
                && e.get("display").is_some_and(Value::is_boolean)
                && matches!(e.get("content"), Some(Value::String(_) | Value::Array(_)))
        }
        Some("label") => {
            non_empty(e.get("targetId")) && e.get("label").is_none_or(Value::is_string)
        }
        Some("session_info") => e.get("name").is_none_or(Value::is_string),
        _ => false,
    }
}

/// A record the transcript repair recognises: a canonical entry or a valid leaf control.
/// One that is not keeps its original file protected in the archive.
pub fn is_recognised_record(event: &Value) -> bool {
    let Some(e) = event.as_object() else {
        return false;
    };
    match e.get("type").and_then(Value::as_str) {
        Some("session") => false,
        Some("leaf") => {
            non_empty(e.get("id"))
                && e.get("targetId")
                    .is_none_or(|t| t.is_null() || t.is_string())
        }
        _ => recognised(e),
    }
}

/// `projectSessionTranscriptReportFacts`: what the report needs without decoding the frame.
pub fn report_facts(event: &Value) -> Value {
    let Some(e) = event.as_object() else {
        return json!({"kind": "ignored"});
    };
    let kind = e.get("type").and_then(Value::as_str);
    if kind != Some("session") && recognised(e) {
        let mut entry = Map::new();
        for k in ["id", "parentId", "timestamp", "appendMode", "type"] {
            if let Some(v) = e.get(k) {
                entry.insert(k.into(), v.clone());
            }
        }
        match kind {
            Some("label") => {
                for k in ["targetId", "label"] {
                    if let Some(v) = e.get(k) {
                        entry.insert(k.into(), v.clone());
                    }
                }
            }
            Some("custom_message") => {
                if let Some(v) = e.get("customType") {
                    entry.insert("customType".into(), v.clone());
                }
            }
            Some("message") => {
                let m = &e["message"];
                if m.get("role").and_then(Value::as_str) == Some("assistant") {
                    let run = m
                        .get("__openclaw")
                        .and_then(|o| o.get("runId"))
                        .and_then(Value::as_str)
                        .map(str::trim)
                        .filter(|s| !s.is_empty());
                    if let Some(run) = run {
                        entry.insert("assistantRunId".into(), json!(run));
                    }
                    if let Some(r) = m.get("responseId").filter(|r| r.is_string()) {
                        entry.insert("assistantResponseId".into(), r.clone());
                    }
                }
            }
            _ => {}
        }
        return json!({"kind": "canonical", "hasParentId": e.contains_key("parentId"), "entry": entry});
    }
    let id = e.get("id").and_then(Value::as_str);
    if kind == Some("leaf")
        && id.is_some()
        && e.get("targetId")
            .is_none_or(|t| t.is_null() || t.is_string())
    {
        let mut entry = Map::new();
        for k in ["id", "parentId", "targetId", "appendParentId", "appendMode"] {
            if let Some(v) = e.get(k).filter(|v| truthy(Some(v)) || v.is_null()) {
                entry.insert(k.into(), v.clone());
            }
        }
        return json!({"kind": "leaf", "entry": entry});
    }
    if id.is_some()
        && e.get("parentId")
            .is_some_and(|p| p.is_null() || p.is_string())
        && !matches!(kind, Some("session" | "leaf"))
    {
        return json!({"kind": "link", "id": e["id"], "parentId": e["parentId"]});
    }
    json!({"kind": "ignored"})
}
