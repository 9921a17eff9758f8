//! A stored `entry_json`: `SessionEntry::parse`, and entry normalisation of any object.
#![no_main]

use libfuzzer_sys::fuzz_target;
use openclaw_sessions::migrate::legacy::normalise_entry;
use openclaw_sessions::store::SessionEntry;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let _ = SessionEntry::parse("agent:main:x", &s);
    if let Ok(serde_json::Value::Object(obj)) = serde_json::from_str::<serde_json::Value>(&s) {
        let _ = normalise_entry("agent:main:x", &obj, 0);
    }
});
