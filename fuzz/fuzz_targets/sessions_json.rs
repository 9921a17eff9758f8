//! `sessions.json` (JSON or JSON5): the one index reader (as the read-only commands keep it,
//! whole, and streamed as the import plans from it), and entry normalisation of every object
//! value.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| openclaw_sessions::fuzzing::sessions_json(data));
