//! A legacy JSONL transcript: line-by-line conversion into import events (and the
//! facts/recognition checks the importer runs on each), plus the streaming `JsonlReader`.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use openclaw_sessions::legacy::JsonlReader;
use openclaw_sessions::migrate::legacy::convert::{js_stringify, TranscriptConverter};
use openclaw_sessions::migrate::legacy::payload::{is_recognised_record, report_facts};

/// One scratch file per fuzzing process, rewritten for every input.
fn scratch() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        std::env::temp_dir().join(format!("openclaw-fuzz-jsonl-{}.jsonl", std::process::id()))
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut converter =
        TranscriptConverter::new("/home/user/.openclaw/agents/main/sessions/x.jsonl", "sid");
    for line in text.split('\n') {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(line.trim()) else {
            continue;
        };
        if let Some(event) = converter.convert(value) {
            let _ = js_stringify(&event);
            let _ = report_facts(&event);
            let _ = is_recognised_record(&event);
        }
    }

    let path = scratch();
    std::fs::write(path, data).expect("write scratch file");
    if let Ok(mut reader) = JsonlReader::open(path) {
        while let Ok(Some(_)) = reader.next_line() {}
    }
});
