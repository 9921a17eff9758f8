//! Replays every input kept under `fuzz/regressions/<target>/` through the same calls as
//! the cargo-fuzz target of that name (see fuzz/README.md), on the stable toolchain. Only
//! the absence of panics is asserted. The fixture transcripts and `sessions.json` files
//! also go through the `jsonl_transcript` and `sessions_json` paths.

use std::path::{Path, PathBuf};

use openclaw_sessions::legacy::{JsonlReader, LegacyIndex};
use openclaw_sessions::migrate::legacy::convert::{js_stringify, TranscriptConverter};
use openclaw_sessions::migrate::legacy::payload::{is_recognised_record, report_facts};
use openclaw_sessions::migrate::legacy::{normalise_entry, parse_index};
use openclaw_sessions::store::SessionEntry;
use openclaw_sessions::transcript::cursor::decode as decode_cursor;
use openclaw_sessions::transcript::decode_event_row;
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Every file under `fuzz/regressions/<target>/` (none is fine).
fn regressions(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(ROOT).join("fuzz/regressions").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| Some(e.ok()?.path())).collect())
        .unwrap_or_default();
    files.retain(|p| p.is_file());
    files.sort();
    files
}

/// Every file in the legacy fixture's `agents/*/sessions/` directories.
fn fixture_sessions() -> Vec<PathBuf> {
    let agents = Path::new(ROOT).join("tests/fixtures/openclaw-2026.9.6/legacy/.openclaw/agents");
    let mut files = Vec::new();
    for agent in std::fs::read_dir(agents).unwrap() {
        if let Ok(dir) = std::fs::read_dir(agent.unwrap().path().join("sessions")) {
            files.extend(dir.map(|e| e.unwrap().path()).filter(|p| p.is_file()));
        }
    }
    files.sort();
    assert!(!files.is_empty(), "no legacy fixture sessions found");
    files
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn jsonl_transcript(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut converter =
        TranscriptConverter::new("/home/user/.openclaw/agents/main/sessions/x.jsonl", "sid");
    for line in text.split('\n') {
        let Ok(value) = serde_json::from_str::<Value>(line.trim()) else {
            continue;
        };
        if let Some(event) = converter.convert(value) {
            let _ = js_stringify(&event);
            let _ = report_facts(&event);
            let _ = is_recognised_record(&event);
        }
    }
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), data).unwrap();
    if let Ok(mut reader) = JsonlReader::open(file.path()) {
        while let Ok(Some(_)) = reader.next_line() {}
    }
}

fn sessions_json(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("/s/sessions.json");
    let _ = LegacyIndex::parse(path, text);
    if let Ok(map) = parse_index(path, text, &mut Vec::new()) {
        for (key, value) in &map {
            if let Value::Object(obj) = value {
                let _ = normalise_entry(key, obj, 0);
            }
        }
    }
}

fn cursor(data: &[u8]) {
    let _ = decode_cursor::<Value>(&String::from_utf8_lossy(data), "cursor");
}

fn entry(data: &[u8]) {
    let s = String::from_utf8_lossy(data);
    let _ = SessionEntry::parse("agent:main:x", &s);
    if let Ok(Value::Object(obj)) = serde_json::from_str::<Value>(&s) {
        let _ = normalise_entry("agent:main:x", &obj, 0);
    }
}

fn zstd_row(data: &[u8]) {
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

#[test]
fn fuzz_regressions_jsonl_transcript() {
    for path in regressions("jsonl_transcript")
        .iter()
        .chain(&fixture_sessions())
    {
        jsonl_transcript(&read(path));
    }
}

#[test]
fn fuzz_regressions_sessions_json() {
    for path in regressions("sessions_json")
        .iter()
        .chain(&fixture_sessions())
    {
        sessions_json(&read(path));
    }
}

#[test]
fn fuzz_regressions_cursor() {
    for path in regressions("cursor") {
        cursor(&read(&path));
    }
}

#[test]
fn fuzz_regressions_entry() {
    for path in regressions("entry") {
        entry(&read(&path));
    }
}

#[test]
fn fuzz_regressions_zstd_row() {
    for path in regressions("zstd_row") {
        zstd_row(&read(&path));
    }
}
