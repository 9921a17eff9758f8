//! Opaque page cursors: strict base64url + JSON + canonical re-encoding check.
#![no_main]

use libfuzzer_sys::fuzz_target;
use openclaw_sessions::transcript::cursor::decode;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let _ = decode::<serde_json::Value>(&s, "cursor");
});
