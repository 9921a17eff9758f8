//! Opaque page cursors: strict base64url + JSON + canonical re-encoding check.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| openclaw_sessions::fuzzing::cursor(data));
