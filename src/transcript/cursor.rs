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
    let value: T = crate::json_value::from_slice(&bytes).map_err(|e| bad(&e.to_string()))?;
    if encode(&value) != raw {
        return Err(bad("not in canonical form"));
    }
    Ok(value)
}

/// Node's `Buffer.from(raw, "base64url")`, which OpenClaw's raw transcript cursor parser uses
/// (docs/openclaw/READERS.md, transcript delta cursors): both alphabets (`+/` and `-_`), any
/// other character skipped, decoding stops at the first `=`, and a trailing group of 2 or 3
/// characters yields 1 or 2 bytes (a lone trailing character yields nothing).
pub fn node_base64url_decode(raw: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len() / 4 * 3 + 2);
    let (mut acc, mut n) = (0u32, 0u8);
    for c in raw.chars() {
        let v = match c {
            'A'..='Z' => c as u32 - 'A' as u32,
            'a'..='z' => c as u32 - 'a' as u32 + 26,
            '0'..='9' => c as u32 - '0' as u32 + 52,
            '+' | '-' => 62,
            '/' | '_' => 63,
            '=' => break,
            _ => continue,
        };
        acc = (acc << 6) | v;
        n += 1;
        if n == 4 {
            out.extend_from_slice(&[(acc >> 16) as u8, (acc >> 8) as u8, acc as u8]);
            (acc, n) = (0, 0);
        }
    }
    match n {
        2 => out.push((acc >> 4) as u8),
        3 => out.extend_from_slice(&[(acc >> 10) as u8, (acc >> 2) as u8]),
        _ => {}
    }
    out
}

/// OpenClaw's loose cursor decoding (`JSON.parse(Buffer.from(raw, "base64url")
/// .toString("utf8"))` with the 4096-unit limit): the JSON object, or `None` where OpenClaw's
/// parse throws or yields no object. Integer-valued numbers are integers, as in JavaScript.
pub fn decode_loose(raw: &str) -> Option<serde_json::Map<String, serde_json::Value>> {
    if raw.encode_utf16().count() > MAX_CURSOR_LEN {
        return None;
    }
    let bytes = node_base64url_decode(raw);
    let text = String::from_utf8_lossy(&bytes);
    match crate::json_value::from_str::<serde_json::Value>(&text).ok()? {
        serde_json::Value::Object(map) => {
            Some(map.into_iter().map(|(k, v)| (k, js_number(v))).collect())
        }
        _ => None,
    }
}

/// `1.0` -> `1`: JavaScript has one number type, so `JSON.stringify` writes integral numbers
/// as integers (top-level fields only: cursors are flat).
fn js_number(v: serde_json::Value) -> serde_json::Value {
    match v.as_f64() {
        Some(f) if v.is_f64() && f.fract() == 0.0 && f.abs() <= MAX_SAFE_INTEGER as f64 => {
            serde_json::Value::from(f as i64)
        }
        _ => v,
    }
}

/// JavaScript's `Number.MAX_SAFE_INTEGER`.
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// `Number.isSafeInteger(v)`.
pub fn safe_integer(v: Option<&serde_json::Value>) -> Option<i64> {
    v?.as_i64().filter(|n| n.abs() <= MAX_SAFE_INTEGER)
}

/// `Buffer.from(JSON.stringify(map)).toString("base64url")`.
pub fn encode_map(map: &serde_json::Map<String, serde_json::Value>) -> String {
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(map).unwrap_or_default())
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

    #[test]
    fn node_base64url_semantics() {
        // Each answer is what Node 24's Buffer.from(x, "base64url") gives.
        let cases: &[(&str, &[u8])] = &[
            ("e30", b"{}"),
            ("e30=", b"{}"),
            ("e3 0", b"{}"),
            ("e3!0", b"{}"),
            ("e3=0", b"{"),
            ("e3+0", b"{\x7f\xb4"),
            ("eyJhIjoxfQA", b"{\"a\":1}\0"),
            ("eyJhIjoxfQAAA", b"{\"a\":1}\0\0"),
            ("e", b""),
            ("=e30", b""),
            ("e%30", b"{}"),
            ("e3\u{e9}0", b"{}"),
        ];
        for (raw, want) in cases {
            assert_eq!(node_base64url_decode(raw), *want, "{raw:?}");
        }
        assert_eq!(decode_loose("e30").map(|m| m.len()), Some(0));
        assert!(
            decode_loose("eyJhIjoxfQA").is_none(),
            "a trailing NUL is not JSON"
        );
        assert!(decode_loose("W10").is_none(), "an array is no cursor");
        let m = decode_loose(&URL_SAFE_NO_PAD.encode(r#"{"v":1.0,"w":1.5}"#)).unwrap();
        assert_eq!(encode_map(&m), URL_SAFE_NO_PAD.encode(r#"{"v":1,"w":1.5}"#));
        assert!(decode_loose(&"A".repeat(MAX_CURSOR_LEN + 1)).is_none());
    }

    proptest! {
        #[test]
        fn loose_decode_never_panics(s in ".{0,200}") {
            let _ = decode_loose(&s);
        }

        #[test]
        fn decode_never_panics(s in ".{0,200}") {
            let _ = decode::<C>(&s, "t");
        }
    }
}
