//! The calls each cargo-fuzz target makes (`fuzz/fuzz_targets/`), in one place, so that
//! `tests/cli/fuzz_regressions.rs` replays kept inputs through exactly the same code on
//! stable. Not part of the API: only panics matter here, results are dropped.

use std::path::Path;

use serde_json::Value;

use crate::legacy::{for_each_index_entry, parse_index, IndexSource, JsonlReader, LegacyIndex};
use crate::store::SessionEntry;
use crate::transcript::cursor::{decode as decode_cursor, decode_loose as decode_cursor_loose};
use crate::transcript::decode_event_row;
use crate::writer::normalise_entry;
use crate::writer::transcript::convert::{js_stringify, TranscriptConverter};
use crate::writer::transcript::payload::{is_recognised_record, report_facts};

/// A legacy JSONL transcript: each line converted into an import event (with the facts and
/// recognition checks the importer runs on it), then the whole file through the streaming
/// `JsonlReader`, written to `scratch` first.
pub fn jsonl_transcript(data: &[u8], scratch: &Path) {
    let text = String::from_utf8_lossy(data);
    let mut converter =
        TranscriptConverter::new("/home/user/.openclaw/agents/main/sessions/x.jsonl", "sid");
    for line in text.split('\n') {
        let Ok(value) = crate::json_value::from_str::<Value>(line.trim()) else {
            continue;
        };
        if let Some(event) = converter.convert(value) {
            let _ = js_stringify(&event);
            let _ = report_facts(&event);
            let _ = is_recognised_record(&event);
        }
    }
    if std::fs::write(scratch, data).is_ok() {
        if let Ok(mut reader) = JsonlReader::open(scratch) {
            while let Ok(Some(_)) = reader.next_line() {}
        }
    }
}

/// `sessions.json` (JSON or JSON5): the index reader as the read-only commands use it, its
/// whole-text parser, the streamed walk the import plans from, and entry normalisation of
/// every object value.
pub fn sessions_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("/s/sessions.json");
    let _ = LegacyIndex::parse(path, text);
    let _ = parse_index(path, text);
    let _ = for_each_index_entry(path, IndexSource::Text(text), |key, value| {
        if let Value::Object(obj) = value {
            let _ = normalise_entry(&key, &obj, 0);
        }
        Ok(())
    });
}

/// An opaque page cursor: strict base64url, JSON, canonical re-encoding; and the loose decoding
/// of OpenClaw's raw delta cursors.
pub fn cursor(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let _ = decode_cursor::<Value>(&text, "cursor");
    // OpenClaw's raw cursor decoding (Node's forgiving base64url), as `transcript delta` uses it.
    if let Some(map) = decode_cursor_loose(&text) {
        let _ = crate::transcript::cursor::encode_map(&map);
    }
}

/// A stored `entry_json`, and entry normalisation of any object.
pub fn entry(data: &[u8]) {
    let s = String::from_utf8_lossy(data);
    let _ = SessionEntry::parse("agent:main:x", &s);
    if let Ok(Value::Object(obj)) = crate::json_value::from_str::<Value>(&s) {
        let _ = normalise_entry("agent:main:x", &obj, 0);
    }
}

/// A transcript row: a zstd frame checked against its declared `event_utf8_bytes`.
/// Input: 2 bytes little-endian (declared length + 5), then the frame.
pub fn zstd_row(data: &[u8]) {
    let (frame, len) = match data {
        [a, b, rest @ ..] => (
            Some(rest),
            Some(i64::from(u16::from_le_bytes([*a, *b])) - 5),
        ),
        _ => (None, None),
    };
    if let Some(frame) = frame {
        let _ = decode_event_row("sid", 0, None, Some(frame), len);
    }
    let json = String::from_utf8_lossy(data).into_owned();
    let _ = decode_event_row("sid", 0, Some(json), frame, len);
}
