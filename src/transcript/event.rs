use crate::error::{Error, Remedy, Result};

/// Largest event OpenClaw stores compressed (`event_utf8_bytes` CHECK).
pub const MAX_EVENT_BYTES: i64 = 4 * 1024 * 1024;

/// One transcript event exactly as stored: `seq` and the event JSON text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEvent {
    pub seq: i64,
    pub json: String,
    pub created_at: Option<i64>,
    pub compressed: bool,
}

impl StoredEvent {
    /// An event read from a file (a legacy JSONL or an archive): no row time, not compressed.
    pub fn from_file(seq: i64, json: String) -> Self {
        StoredEvent {
            seq,
            json,
            created_at: None,
            compressed: false,
        }
    }
}

/// `coalesce(event_json, decode(event_zstd))`, with the frame checked against
/// `event_utf8_bytes`: a frame that does not decode, decodes to another length, or is not
/// UTF-8 is `BAD_INPUT` naming the row.
pub fn decode_event_row(
    session_id: &str,
    seq: i64,
    event_json: Option<String>,
    event_zstd: Option<&[u8]>,
    utf8_bytes: Option<i64>,
) -> Result<(String, bool)> {
    let where_ = || format!("transcript row {session_id}#{seq}");
    match (event_json, event_zstd) {
        (Some(json), _) => Ok((json, false)),
        (None, Some(frame)) => {
            let expected = utf8_bytes.ok_or_else(|| {
                Error::bad_input(
                    format!("{} is compressed but has no event_utf8_bytes", where_()),
                    None,
                )
            })?;
            if !(1..=MAX_EVENT_BYTES).contains(&expected) {
                return Err(Error::bad_input(
                    format!("{} declares {expected} bytes, outside 1..=4 MiB", where_()),
                    None,
                ));
            }
            // One byte of headroom so that a frame longer than declared is detected.
            let bytes = decompress(frame, expected as usize + 1).map_err(|e| {
                Error::bad_input(
                    format!("{}: zstd frame does not decode ({e})", where_()),
                    Some("run the doctor on this store".to_string()),
                )
                .with_remedy(Remedy::RunDoctor)
            })?;
            if bytes.len() as i64 != expected {
                return Err(Error::bad_input(
                    format!(
                        "{}: zstd frame decodes to {} bytes but event_utf8_bytes says {expected}",
                        where_(),
                        bytes.len()
                    ),
                    Some("run the doctor on this store".to_string()),
                )
                .with_remedy(Remedy::RunDoctor));
            }
            let json = String::from_utf8(bytes).map_err(|_| {
                Error::bad_input(format!("{}: decoded event is not UTF-8", where_()), None)
            })?;
            Ok((json, true))
        }
        (None, None) => Err(Error::bad_input(
            format!("{} has neither event_json nor event_zstd", where_()),
            None,
        )),
    }
}

/// One zstd context per thread for every row: creating one per row cost more than the
/// decoding itself.
fn decompress(frame: &[u8], capacity: usize) -> std::io::Result<Vec<u8>> {
    thread_local! {
        static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    DECOMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            *slot = Some(zstd::bulk::Decompressor::new()?);
        }
        match slot.as_mut() {
            Some(d) => d.decompress(frame, capacity),
            None => Err(std::io::Error::other("no zstd context")),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn decodes_and_checks_length() {
        let text = "{\"type\":\"message\"}";
        let frame = zstd::bulk::compress(text.as_bytes(), 1).unwrap();
        let ok = decode_event_row("s", 1, None, Some(&frame), Some(text.len() as i64)).unwrap();
        assert_eq!(ok, (text.to_string(), true));
        let short =
            decode_event_row("s", 1, None, Some(&frame), Some(text.len() as i64 - 1)).unwrap_err();
        assert!(short.to_string().contains("decodes to"), "{short}");
        let long =
            decode_event_row("s", 1, None, Some(&frame), Some(text.len() as i64 + 5)).unwrap_err();
        assert!(long.to_string().contains("decodes to"), "{long}");
        let mut bad = frame.clone();
        let n = bad.len();
        bad[n / 2] ^= 0xff;
        bad.truncate(n - 2);
        assert!(decode_event_row("s", 1, None, Some(&bad), Some(text.len() as i64)).is_err());
    }

    proptest! {
        #[test]
        fn arbitrary_frames_never_panic(frame in proptest::collection::vec(any::<u8>(), 0..256), len in -5i64..5000) {
            let _ = decode_event_row("s", 0, None, Some(&frame), Some(len));
        }
    }
}
