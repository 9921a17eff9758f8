//! A transcript row: a zstd frame checked against its declared `event_utf8_bytes`.
//! Input: 2 bytes little-endian (declared length + 5), then the frame.
#![no_main]

use libfuzzer_sys::fuzz_target;
use openclaw_sessions::transcript::decode_event_row;

fuzz_target!(|data: &[u8]| {
    let (frame, len) = match data {
        [a, b, rest @ ..] => (
            Some(rest),
            Some(i64::from(u16::from_le_bytes([*a, *b])) - 5),
        ),
        _ => (None, None),
    };
    if let Some(frame) = frame {
        let _ = decode_event_row("sid", 0, None, Some(frame), len);
    }
    let json = String::from_utf8_lossy(data).into_owned();
    let _ = decode_event_row("sid", 0, Some(json), frame, len);
});
