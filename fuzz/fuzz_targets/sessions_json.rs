//! `sessions.json` (JSON or JSON5): the read-only index parser, the importer's index parser,
//! and entry normalisation of every object value.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| openclaw_sessions::fuzzing::sessions_json(data));
