//! Legacy JSONL transcript records converted to the events OpenClaw's importer stores
//! (`createTranscriptEventReader`, `migrateSessionFileEntryToCurrentVersion`,
//! `normalizeLoadedFileEntry`, the Codex part of `repairLegacyTranscript`).

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use crate::json_value::truthy;
use sha2::{Digest, Sha256};

pub const CANONICAL_TYPES: [&str; 10] = [
    "message",
    "thinking_level_change",
    "model_change",
    "compaction",
    "reset",
    "branch_summary",
    "custom",
    "custom_message",
    "label",
    "session_info",
];

/// Converts one transcript's records in file order.
pub struct TranscriptConverter {
    session_id: String,
    /// `sha256(originalSourcePath + "\0" + sessionId)[0:16]`: the v1 id prefix.
    id_prefix: String,
    version: Option<f64>,
    /// Index of the next parsed record (every non-falsy line counts).
    index: u64,
    previous_id: Option<String>,
    /// v1: original index → new id, for compaction `firstKeptEntryIndex`.
    v1_ids: HashMap<u64, String>,
}

impl TranscriptConverter {
    pub fn new(source_path: &str, session_id: &str) -> Self {
        let digest = Sha256::digest(format!("{source_path}\0{session_id}").as_bytes());
        let id_prefix = crate::units::hex(&digest[..8]);
        TranscriptConverter {
            session_id: session_id.to_string(),
            id_prefix,
            version: None,
            index: 0,
            previous_id: None,
            v1_ids: HashMap::new(),
        }
    }

    /// Convert the next parsed record; `None` for a falsy value, which OpenClaw skips.
    pub fn convert(&mut self, value: Value) -> Option<Value> {
        if !truthy(Some(&value)) {
            return None;
        }
        let index = self.index;
        self.index += 1;
        let Value::Object(mut record) = value else {
            return Some(value);
        };
        if self.version.is_none() {
            // The header is the first record; without one the file is version 1.
            let is_header = record.get("type").and_then(Value::as_str) == Some("session");
            self.version = Some(
                match (is_header, record.get("version").and_then(Value::as_f64)) {
                    (true, Some(v)) => v,
                    _ => 1.0,
                },
            );
            if is_header {
                return Some(Value::Object(self.header(record)));
            }
        }
        let version = self.version.unwrap_or(1.0);
        normalise_loaded(&mut record);
        if version < 3.0 {
            if let Some(Value::Object(m)) = record.get_mut("message") {
                if m.get("role").and_then(Value::as_str) == Some("hookMessage") {
                    m.insert("role".into(), json!("custom"));
                    if !truthy(m.get("customType")) {
                        m.insert("customType".into(), json!("hook"));
                    }
                }
            }
        }
        if let Some(Value::Object(m)) = record.get_mut("message") {
            if m.get("role").and_then(Value::as_str) == Some("custom")
                && !m.contains_key("customType")
                && readable_content(m.get("content"))
            {
                m.insert("customType".into(), json!("hook"));
            }
            repair_codex(m);
        }
        if version < 2.0 && recognised_legacy(&record) {
            let id = format!("{}-{}", self.id_prefix, radix36(index));
            record.insert("id".into(), json!(id));
            record.insert(
                "parentId".into(),
                self.previous_id
                    .clone()
                    .map(Value::from)
                    .unwrap_or(Value::Null),
            );
            if record.get("type").and_then(Value::as_str) == Some("compaction") {
                if let Some(kept) = record.shift_remove("firstKeptEntryIndex") {
                    let kept_id = kept
                        .as_f64()
                        .filter(|f| f.fract() == 0.0 && *f >= 0.0)
                        .and_then(|f| self.v1_ids.get(&(f as u64)));
                    if let Some(kept_id) = kept_id {
                        record.insert("firstKeptEntryId".into(), json!(kept_id));
                    }
                }
            }
            self.v1_ids.insert(index, id.clone());
            self.previous_id = Some(id);
        }
        Some(Value::Object(record))
    }

    /// The header as stored: the entry's session id, `timestamp`/`cwd` defaulted, version 3.
    fn header(&self, mut h: Map<String, Value>) -> Map<String, Value> {
        h.shift_remove("sessionId");
        h.insert("id".into(), json!(self.session_id));
        h.insert("type".into(), json!("session"));
        if !h.get("timestamp").is_some_and(Value::is_string) {
            h.insert("timestamp".into(), json!(""));
        }
        if !h.get("cwd").is_some_and(Value::is_string) {
            h.insert("cwd".into(), json!(""));
        }
        if self.version.is_some_and(|v| v < 3.0) {
            h.insert("version".into(), json!(3));
        }
        h
    }
}

fn radix36(mut n: u64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Message content a reader can show: a string, or blocks that each name their `type`.
pub(super) fn readable_content(c: Option<&Value>) -> bool {
    match c {
        Some(Value::String(_)) => true,
        Some(Value::Array(items)) => items
            .iter()
            .all(|b| b.get("type").is_some_and(Value::is_string)),
        _ => false,
    }
}

/// A record a pre-v3 reader understood: a canonical type with the fields it needs.
fn recognised_legacy(r: &Map<String, Value>) -> bool {
    let Some(t) = r.get("type").and_then(Value::as_str) else {
        return false;
    };
    if t == "message" {
        return r
            .get("message")
            .and_then(|m| m.get("role"))
            .is_some_and(Value::is_string);
    }
    CANONICAL_TYPES.contains(&t)
}

/// `normalizeLoadedFileEntry`: assistant/tool text content as blocks, retired compaction replays dropped.
fn normalise_loaded(r: &mut Map<String, Value>) {
    if r.get("type").and_then(Value::as_str) != Some("message") {
        return;
    }
    let Some(Value::Object(m)) = r.get_mut("message") else {
        return;
    };
    let role = m
        .get("role")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    if role == "assistant" || role == "toolResult" {
        if let Some(Value::String(text)) = m.get("content") {
            let blocks = json!([{"type": "text", "text": text}]);
            m.insert("content".into(), blocks);
        }
    }
    if role == "toolResult" {
        if let Some(c @ Value::Object(_)) = m.get("content").cloned() {
            m.insert("content".into(), json!([c]));
        }
    }
    let retired_replay = m
        .get("providerReplay")
        .and_then(|p| p.get("type"))
        .and_then(Value::as_str)
        .is_some_and(|t| {
            matches!(
                t,
                "anthropic-compaction"
                    | "openai-responses-compaction"
                    | "openai-responses-retained-compaction"
            )
        });
    if retired_replay {
        m.shift_remove("providerReplay");
    }
}

/// Messages written under the retired Codex provider ids now name OpenAI.
fn repair_codex(m: &mut Map<String, Value>) {
    if m.get("provider").and_then(Value::as_str) == Some("openai-codex") {
        m.insert("provider".into(), json!("openai"));
    }
    if m.get("api").and_then(Value::as_str) == Some("openai-codex-responses") {
        m.insert("api".into(), json!("openai-chatgpt-responses"));
    }
}

/// `JSON.stringify` of a parsed value: integral doubles print without a fraction.
pub fn js_stringify(v: &Value) -> String {
    let mut out = String::new();
    write_js(v, &mut out);
    out
}

/// [`js_stringify`] appended to `out`, without copying the value first.
pub fn write_js(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => write_js_number(n, out),
        Value::String(s) => write_js_str(s, out),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_js(x, out);
            }
            out.push(']');
        }
        Value::Object(o) => {
            out.push('{');
            for (i, (k, x)) in o.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_js_str(k, out);
                out.push(':');
                write_js(x, out);
            }
            out.push('}');
        }
    }
}

/// The integral double a JS number prints as an integer, if `n` is one.
pub fn js_integral(n: &serde_json::Number) -> Option<i64> {
    let f = n.as_f64().filter(|_| n.is_f64())?;
    (f.fract() == 0.0 && f.abs() < 9.007_199_254_740_992e15).then_some(f as i64)
}

fn write_js_number(n: &serde_json::Number, out: &mut String) {
    use std::fmt::Write;
    match js_integral(n) {
        Some(i) => {
            let _ = write!(out, "{i}");
        }
        None => {
            let _ = write!(out, "{n}");
        }
    }
}

/// A string as `JSON.stringify` (and serde_json) escape it.
pub fn write_js_str(s: &str, out: &mut String) {
    out.push('"');
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if escape.is_empty() {
            use std::fmt::Write;
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(escape);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(lines: &[Value], path: &str) -> Vec<String> {
        let mut c = TranscriptConverter::new(path, "sid");
        lines
            .iter()
            .filter_map(|l| c.convert(l.clone()))
            .map(|v| js_stringify(&v))
            .collect()
    }

    #[test]
    fn headers_of_each_version() {
        assert_eq!(
            run(
                &[json!({"type":"session","id":"x","timestamp":"t","cwd":"/","extra":1})],
                "/p"
            )[0],
            r#"{"type":"session","id":"sid","timestamp":"t","cwd":"/","extra":1,"version":3}"#
        );
        assert_eq!(
            run(
                &[json!({"type":"session","version":2,"sessionId":"x","timestamp":"t"})],
                "/p"
            )[0],
            r#"{"type":"session","version":3,"timestamp":"t","id":"sid","cwd":""}"#
        );
        let v3 = json!({"type":"session","version":3,"id":"sid","timestamp":"t","cwd":"/w"});
        assert_eq!(run(std::slice::from_ref(&v3), "/p")[0], v3.to_string());
    }

    #[test]
    fn v1_records_get_chained_ids_and_v3_is_kept() {
        let out = run(
            &[
                json!({"type":"message","message":{"role":"user","content":"a"}}),
                json!(null),
                json!({"type":"message","id":"old","message":{"role":"assistant","content":"b"}}),
                json!({"type":"compaction","summary":"s","firstKeptEntryIndex":1,"tokensBefore":1}),
            ],
            "/s/a.jsonl",
        );
        let prefix = &out[0][out[0].find("\"id\":\"").unwrap() + 6..][..16];
        assert!(
            out[0].ends_with(&format!(r#""id":"{prefix}-0","parentId":null}}"#)),
            "{}",
            out[0]
        );
        // An existing id is rewritten in its slot; parentId is appended.
        assert_eq!(
            out[1],
            format!(
                r#"{{"type":"message","id":"{prefix}-1","message":{{"role":"assistant","content":[{{"type":"text","text":"b"}}]}},"parentId":"{prefix}-0"}}"#
            )
        );
        assert!(out[1].contains(r#""content":[{"type":"text","text":"b"}]"#));
        assert!(
            out[2].contains(&format!(r#""firstKeptEntryId":"{prefix}-1""#)),
            "{}",
            out[2]
        );
        assert!(!out[2].contains("firstKeptEntryIndex"));
        let kept = json!({"type":"message","id":"m","parentId":null,"message":{"role":"user","content":"x"}});
        assert_eq!(
            run(
                &[
                    json!({"type":"session","version":3,"id":"sid"}),
                    kept.clone()
                ],
                "/p"
            )[1],
            kept.to_string()
        );
    }

    #[test]
    fn id_prefix_matches_openclaw() {
        // Recomputed from OpenClaw's import of a synthetic v1 file (IMPORT.md §4.3).
        let c = TranscriptConverter::new("/x/y.jsonl", "sid");
        assert_eq!(c.id_prefix.len(), 16);
        assert_eq!(radix36(35), "z");
        assert_eq!(radix36(36), "10");
        assert_eq!(js_stringify(&json!(2.0)), "2");
    }
}
