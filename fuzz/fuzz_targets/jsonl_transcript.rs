//! A legacy JSONL transcript: line-by-line conversion into import events (and the
//! facts/recognition checks the importer runs on each), plus the streaming `JsonlReader`.
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;

/// One scratch file per fuzzing process, rewritten for every input.
fn scratch() -> &'static PathBuf {
    static PATH: OnceLock<PathBuf> = OnceLock::new();
    PATH.get_or_init(|| {
        std::env::temp_dir().join(format!("openclaw-fuzz-jsonl-{}.jsonl", std::process::id()))
    })
}

fuzz_target!(|data: &[u8]| openclaw_sessions::fuzzing::jsonl_transcript(data, scratch()));
