//! `sessions.json` (JSON or JSON5): the read-only index parser, the importer's index parser,
//! and entry normalisation of every object value.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;
use openclaw_sessions::legacy::LegacyIndex;
use openclaw_sessions::migrate::legacy::{normalise_entry, parse_index};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("/s/sessions.json");
    let _ = LegacyIndex::parse(path, text);
    if let Ok(map) = parse_index(path, text, &mut Vec::new()) {
        for (key, value) in &map {
            if let serde_json::Value::Object(obj) = value {
                let _ = normalise_entry(key, obj, 0);
            }
        }
    }
});
