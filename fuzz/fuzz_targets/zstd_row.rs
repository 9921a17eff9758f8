//! A transcript row: a zstd frame checked against its declared `event_utf8_bytes`.
//! Input: 2 bytes little-endian (declared length + 5), then the frame.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| openclaw_sessions::fuzzing::zstd_row(data));
