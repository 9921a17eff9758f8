//! The replacement `secrets scrub` writes (docs/SECRETS.md): each selected secret becomes
//! OpenClaw's own redaction marker form, the form 2026.9.2 and later write for a masked token
//! ([`super::mask`]: the first 6 and last 4 characters around `…`, `***` under 18). Only what
//! the admin selects is replaced (by rule, fingerprint, or host value), and only when asked:
//! nothing in this tool redacts at write time or by default.
//!
//! Two shapes of text: a value held whole (a row's column), rewritten in memory; a stream (an
//! archive file, decoded), rewritten in two passes (the spans found first, a bounded list,
//! then the bytes copied with the spans replaced), so that memory does not grow with the file.

use std::io::{Read, Write};

use super::stream::{StreamHit, TextScanner};
use super::{Detectors, Hit};

/// Which findings a scrub replaces.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Rule ids (`aws-access-token`, `host-value`).
    pub rules: Vec<String>,
    /// Fingerprints, or prefixes of at least 8 hex digits.
    pub fingerprints: Vec<String>,
    /// Every host value (the config's, the auth profiles', `--value-from`).
    pub host_values: bool,
}

impl Selection {
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty() && self.fingerprints.is_empty() && !self.host_values
    }

    pub fn selects(&self, hit: &Hit) -> bool {
        (self.host_values && hit.rule == "host-value")
            || self.rules.contains(&hit.rule)
            || self
                .fingerprints
                .iter()
                .any(|f| f.len() >= 8 && hit.fingerprint.starts_with(f.as_str()))
    }
}

/// The marker for a secret as it is stored. The secret may sit in a JSON string with escapes
/// in it (`\n` in a PEM key): a marker keeping some of its characters could cut an escape or
/// end the string, so it is `***`, which OpenClaw also writes.
pub fn marker(hit: &Hit) -> String {
    if hit.escaped {
        "***".to_string()
    } else {
        hit.masked.clone()
    }
}

/// One span to replace in a stream: byte offset, length and marker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Span {
    pub offset: u64,
    pub len: u64,
    pub marker: String,
}

/// The selected secrets of a value held whole, replaced; `None` when none is in it.
pub fn redact_value(
    detectors: &Detectors,
    selection: &Selection,
    text: &[u8],
) -> Option<(Vec<u8>, usize)> {
    let mut hits: Vec<Hit> = Vec::new();
    detectors.find(text, &mut hits);
    let mut spans: Vec<(usize, usize, String)> = hits
        .iter()
        .filter(|h| selection.selects(h))
        .map(|h| (h.start, h.end, marker(h)))
        .collect();
    if spans.is_empty() {
        return None;
    }
    spans.sort_by_key(|s| (s.0, std::cmp::Reverse(s.1)));
    let mut out = Vec::with_capacity(text.len());
    let mut at = 0;
    let mut count = 0;
    for (start, end, m) in spans {
        if start < at {
            continue;
        }
        out.extend_from_slice(&text[at..start]);
        out.extend_from_slice(m.as_bytes());
        at = end;
        count += 1;
    }
    out.extend_from_slice(&text[at..]);
    Some((out, count))
}

/// First pass over a stream: the spans to replace, in order, none overlapping.
pub fn spans_of(
    detectors: &Detectors,
    selection: &Selection,
    reader: &mut dyn Read,
) -> std::io::Result<Vec<Span>> {
    let mut found: Vec<StreamHit> = Vec::new();
    TextScanner::new(detectors).read_all(reader, &mut |h| {
        if selection.selects(&h.hit) {
            found.push(h);
        }
    })?;
    found.sort_by_key(|h| h.offset);
    let mut spans: Vec<Span> = Vec::new();
    for h in found {
        let len = (h.hit.end - h.hit.start) as u64;
        if spans.last().is_some_and(|s| h.offset < s.offset + s.len) {
            continue;
        }
        spans.push(Span {
            offset: h.offset,
            len,
            marker: marker(&h.hit),
        });
    }
    Ok(spans)
}

/// Second pass: the stream copied with the spans replaced; returns the bytes written.
pub fn rewrite(
    reader: &mut dyn Read,
    writer: &mut dyn Write,
    spans: &[Span],
) -> std::io::Result<u64> {
    let mut block = vec![0u8; 64 << 10];
    let mut pos: u64 = 0;
    let mut written: u64 = 0;
    let mut next = 0usize;
    // Bytes of the current span still to skip.
    let mut skipping: u64 = 0;
    loop {
        let n = match reader.read(&mut block) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let mut i = 0usize;
        while i < n {
            if skipping > 0 {
                let s = skipping.min((n - i) as u64) as usize;
                skipping -= s as u64;
                i += s;
                pos += s as u64;
                continue;
            }
            let here = pos;
            let until = match spans.get(next) {
                Some(span) if span.offset < here + (n - i) as u64 => span.offset,
                _ => here + (n - i) as u64,
            };
            let plain = (until - here) as usize;
            writer.write_all(&block[i..i + plain])?;
            written += plain as u64;
            i += plain;
            pos += plain as u64;
            if let Some(span) = spans.get(next) {
                if span.offset == pos {
                    writer.write_all(span.marker.as_bytes())?;
                    written += span.marker.len() as u64;
                    skipping = span.len;
                    next += 1;
                }
            }
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::host_values::HostValue;
    use crate::secrets::rules::RuleSet;

    fn detectors() -> Detectors {
        Detectors::new(
            Some(RuleSet::load(&[]).unwrap()),
            vec![HostValue {
                source: "openclaw.json gateway.auth.token".into(),
                value: "gw-token-5b1e0c9a7f3d42e8".into(),
            }],
        )
        .unwrap()
    }

    #[test]
    fn only_the_selected_secrets_are_replaced_with_openclaws_marker() {
        let d = detectors();
        let text = br#"{"text":"AKIAQ7X2LMNB4RT56R5T and gw-token-5b1e0c9a7f3d42e8"}"#;
        let only_aws = Selection {
            rules: vec!["aws-access-token".into()],
            ..Selection::default()
        };
        let (out, n) = redact_value(&d, &only_aws, text).unwrap();
        assert_eq!(n, 1);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#"{"text":"AKIAQ7…6R5T and gw-token-5b1e0c9a7f3d42e8"}"#
        );
        let hosts = Selection {
            host_values: true,
            ..Selection::default()
        };
        let (out, _) = redact_value(&d, &hosts, text).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.contains("gw-tok…42e8") && out.contains("AKIAQ7X2LMNB4RT56R5T"));
        serde_json::from_str::<serde_json::Value>(&out).unwrap();
        assert!(redact_value(&d, &Selection::default(), text).is_none());
    }

    #[test]
    fn a_stream_is_rewritten_with_the_same_result_as_a_whole_value() {
        let d = detectors();
        let sel = Selection {
            rules: vec!["aws-access-token".into(), "github-pat".into()],
            host_values: true,
            ..Selection::default()
        };
        let mut text = Vec::new();
        for i in 0..40_000 {
            text.extend_from_slice(format!("{{\"n\":{i},\"t\":\"line\"}}\n").as_bytes());
            if i % 9_999 == 0 {
                text.extend_from_slice(
                    b"{\"t\":\"AKIAQ7X2LMNB4RT56R5T ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1x3z5Ab gw-token-5b1e0c9a7f3d42e8\"}\n",
                );
            }
        }
        let spans = spans_of(&d, &sel, &mut &text[..]).unwrap();
        assert_eq!(spans.len(), 15);
        let mut out = Vec::new();
        let written = rewrite(&mut &text[..], &mut out, &spans).unwrap();
        assert_eq!(written as usize, out.len());
        let (whole, n) = redact_value(&d, &sel, &text).unwrap();
        assert_eq!(n, 15);
        assert_eq!(out, whole);
        let out = String::from_utf8(out).unwrap();
        assert!(
            !out.contains("AKIAQ7X2LMNB4RT56R5T") && !out.contains("gw-token-5b1e0c9a7f3d42e8")
        );
    }

    #[test]
    fn a_secret_stored_with_an_escape_becomes_stars_and_the_json_stays_valid() {
        let d = Detectors::new(
            None,
            vec![HostValue {
                source: "t".into(),
                value: "line-one\nline-two-secret".into(),
            }],
        )
        .unwrap();
        let sel = Selection {
            host_values: true,
            ..Selection::default()
        };
        let text = br#"{"t":"x line-one\nline-two-secret y"}"#;
        let (out, n) = redact_value(&d, &sel, text).unwrap();
        assert_eq!(n, 1);
        assert_eq!(String::from_utf8(out).unwrap(), r#"{"t":"x *** y"}"#);
    }
}
