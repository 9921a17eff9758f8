//! `secrets scan`: credentials stored in conversations, found everywhere a conversation is
//! kept, never shown (docs/SECRETS.md). Two detectors: the exact values this host holds
//! ([`host_values`]) and known token shapes from gitleaks' public rules ([`rules`]). A
//! finding carries the rule, a fingerprint (a SHA-256 prefix of the secret), the secret masked
//! as OpenClaw masks a token, a masked excerpt and where it is; never the secret.

pub mod host_values;
pub mod redact;
pub mod rules;
mod scan;
mod stream;

pub use scan::{scan, ScanOptions, ScanSummary};
pub use stream::TextScanner;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use host_values::HostValue;
use rules::{RuleMatch, RuleSet};

/// OpenClaw's token mask (`maskToken`, 2026.9.2 and later): the first 6 and last 4
/// characters around `…`, or `***` below 18 characters.
pub fn mask(secret: &str) -> String {
    const MIN: usize = 18;
    const KEEP_START: usize = 6;
    let chars: Vec<char> = secret.chars().collect();
    if chars.len() < MIN {
        return "***".into();
    }
    let start: String = chars[..KEEP_START].iter().collect();
    let end: String = chars[chars.len() - 4..].iter().collect();
    format!("{start}…{end}")
}

/// The first 16 hex digits of the secret's SHA-256: the same secret, the same fingerprint,
/// wherever it is found; the secret cannot be read back from it.
pub fn fingerprint(secret: &[u8]) -> String {
    let digest = Sha256::digest(secret);
    digest[..8].iter().map(|b| format!("{b:02x}")).collect()
}

fn has_escape(stored: &[u8]) -> bool {
    stored.iter().any(|&b| b == b'\\' || b == b'"')
}

/// One secret found in a text: which detector, and where in the text.
#[derive(Debug, Clone)]
pub struct Hit {
    /// The rule id, or `host-value`.
    pub rule: String,
    /// For a host value: where the value comes from (`openclaw.json gateway.auth.token`).
    pub source: Option<String>,
    pub start: usize,
    pub end: usize,
    /// The secret as the fingerprint is taken of (a host value: its plain value, also when
    /// found JSON-escaped).
    pub fingerprint: String,
    pub masked: String,
    /// The stored secret holds a `\\` or a `"` (it sits JSON-escaped in the text).
    pub escaped: bool,
}

/// What the scan looks for.
pub struct Detectors {
    rules: Option<RuleSet>,
    values: Vec<HostValue>,
    /// Patterns: each value as is, then JSON-escaped where that differs.
    value_patterns: Option<AhoCorasick>,
    pattern_value: Vec<usize>,
}

impl Detectors {
    pub fn new(rules: Option<RuleSet>, values: Vec<HostValue>) -> Result<Self> {
        let mut patterns: Vec<Vec<u8>> = Vec::new();
        let mut pattern_value = Vec::new();
        for (i, v) in values.iter().enumerate() {
            patterns.push(v.value.as_bytes().to_vec());
            pattern_value.push(i);
            let escaped = serde_json::to_string(&v.value).unwrap_or_default();
            let escaped = &escaped[1..escaped.len().saturating_sub(1).max(1)];
            if escaped != v.value {
                patterns.push(escaped.as_bytes().to_vec());
                pattern_value.push(i);
            }
        }
        let value_patterns = if patterns.is_empty() {
            None
        } else {
            Some(
                AhoCorasickBuilder::new()
                    .match_kind(MatchKind::LeftmostLongest)
                    .build(&patterns)
                    .map_err(|e| Error::Internal(format!("host values: {e}")))?,
            )
        };
        Ok(Detectors {
            rules,
            values,
            value_patterns,
            pattern_value,
        })
    }

    pub fn rule_count(&self) -> usize {
        self.rules.as_ref().map_or(0, RuleSet::len)
    }

    pub fn rules_ref(&self) -> Option<&str> {
        self.rules.as_ref().map(|r| r.upstream_ref.as_str())
    }

    pub fn values(&self) -> &[HostValue] {
        &self.values
    }

    /// Every secret in `text`: host values first; a rule's match that a host value covers
    /// is the same secret and is left out.
    pub fn find(&self, text: &[u8], out: &mut Vec<Hit>) {
        let first = out.len();
        if let Some(ac) = &self.value_patterns {
            for m in ac.find_iter(text) {
                let v = &self.values[self.pattern_value[m.pattern().as_usize()]];
                out.push(Hit {
                    rule: "host-value".into(),
                    source: Some(v.source.clone()),
                    start: m.start(),
                    end: m.end(),
                    fingerprint: fingerprint(v.value.as_bytes()),
                    masked: mask(&v.value),
                    escaped: has_escape(&text[m.start()..m.end()]),
                });
            }
        }
        let values_end = out.len();
        if let Some(rules) = &self.rules {
            let mut found: Vec<RuleMatch> = Vec::new();
            rules.find(text, &mut found);
            // Two rules on one secret (a GitHub token is also a generic `token=` value): the
            // specific rule names it, else the longer match, else the file's first rule.
            found.sort_by_key(|m| {
                (
                    m.start,
                    rules.id(m.rule).starts_with("generic"),
                    std::cmp::Reverse(m.end),
                    m.rule,
                )
            });
            let mut last: Option<(usize, usize)> = None;
            for m in found {
                let covered = out[first..values_end]
                    .iter()
                    .any(|h| h.start <= m.start && m.end <= h.end)
                    || last.is_some_and(|(s, e)| s <= m.start && m.end <= e);
                if covered {
                    continue;
                }
                last = Some((m.start, m.end));
                let secret = &text[m.start..m.end];
                out.push(Hit {
                    rule: rules.id(m.rule).to_string(),
                    source: None,
                    start: m.start,
                    end: m.end,
                    fingerprint: fingerprint(secret),
                    masked: mask(&String::from_utf8_lossy(secret)),
                    escaped: has_escape(secret),
                });
            }
        }
    }
}

/// Where a finding is.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Location {
    /// `transcript`, `entry`, `fts`, `archive-row`, `cold-archive-row`, `table`,
    /// `deleted-archive`, `reset-archive`, `bak-archive`, `cold-archive`, `import-archive`,
    /// `legacy-transcript`, `legacy-index`, `session-file`; in a snapshot, `snapshot` is set.
    pub place: String,
    /// The file, relative to the state dir when it is under it.
    pub path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The event's `seq` (a transcript row), or its position in an archive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seq: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rowid: Option<i64>,
    /// The line of a file (of its decompressed text for a zstd file), from 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// The snapshot directory, for a finding in a snapshot.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<String>,
}

/// One secret found in one place.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub fingerprint: String,
    pub masked: String,
    /// The text around it, the secret masked, control characters escaped.
    pub excerpt: String,
    pub location: Location,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_as_openclaw_does() {
        assert_eq!(mask("AKIAQ7X2LMNB4RT59R5T"), "AKIAQ7…9R5T");
        assert_eq!(mask("short-secret"), "***");
    }

    #[test]
    fn a_host_value_is_found_plain_and_json_escaped_with_one_fingerprint() {
        let v = HostValue {
            source: "test".into(),
            value: "pa\"ss\\word-123456".into(),
        };
        let d = Detectors::new(None, vec![v]).unwrap();
        let mut hits = Vec::new();
        d.find(
            br#"x pa"ss\word-123456 y {"t":"pa\"ss\\word-123456"}"#,
            &mut hits,
        );
        assert_eq!(hits.len(), 2);
        assert_eq!(hits[0].fingerprint, hits[1].fingerprint);
    }
}
