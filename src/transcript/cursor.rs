//! Opaque cursors: base64url (no padding) of a small JSON object. They name a position,
//! never grant access: each carries the store, agent, session and generation it belongs to.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::{Error, Result};

/// Longest cursor accepted (OpenClaw's raw cursor limit).
pub const MAX_CURSOR_LEN: usize = 4096;

pub fn encode<T: Serialize>(value: &T) -> String {
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(value).unwrap_or_default())
}

/// Decode a cursor strictly: canonical base64url, JSON of the expected shape with no
/// unknown fields, and the same bytes when re-encoded. Anything else is `BAD_INPUT`.
pub fn decode<T: Serialize + DeserializeOwned>(raw: &str, what: &str) -> Result<T> {
    let bad = |why: &str| {
        Error::bad_input(
            format!("malformed {what} cursor: {why}"),
            Some("pass a cursor exactly as a previous page returned it, or omit --cursor to start over".to_string()),
        )
    };
    if raw.is_empty() || raw.len() > MAX_CURSOR_LEN {
        return Err(bad("wrong length"));
    }
    if !raw
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return Err(bad("not base64url"));
    }
    let bytes = URL_SAFE_NO_PAD
        .decode(raw)
        .map_err(|_| bad("not base64url"))?;
    let value: T = serde_json::from_slice(&bytes).map_err(|e| bad(&e.to_string()))?;
    if encode(&value) != raw {
        return Err(bad("not in canonical form"));
    }
    Ok(value)
}

/// A short stable hash used to bind cursors to a store or source.
pub fn binding(parts: &[&str]) -> String {
    use sha2::{Digest, Sha256};
    let json = serde_json::to_string(parts).unwrap_or_default();
    URL_SAFE_NO_PAD.encode(Sha256::digest(json.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Serialize, serde::Deserialize, PartialEq)]
    #[serde(deny_unknown_fields, rename_all = "camelCase")]
    struct C {
        version: u8,
        last_seq: i64,
    }

    #[test]
    fn round_trip_and_rejects() {
        let c = C {
            version: 1,
            last_seq: 5,
        };
        let s = encode(&c);
        assert_eq!(decode::<C>(&s, "t").unwrap(), c);
        assert!(decode::<C>("garbage!", "t").is_err());
        assert!(decode::<C>(
            &encode(&serde_json::json!({"version":1,"lastSeq":5,"x":1})),
            "t"
        )
        .is_err());
        assert!(decode::<C>(&encode(&serde_json::json!({"lastSeq":5,"version":1})), "t").is_err());
        assert!(decode::<C>("", "t").is_err());
    }

    proptest! {
        #[test]
        fn decode_never_panics(s in ".{0,200}") {
            let _ = decode::<C>(&s, "t");
        }
    }
}
