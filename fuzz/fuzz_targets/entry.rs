//! A stored `entry_json`: `SessionEntry::parse`, and entry normalisation of any object.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| openclaw_sessions::fuzzing::entry(data));
