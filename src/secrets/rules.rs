//! Known token shapes: gitleaks' public rule set, kept as data in `gitleaks-rules.json`
//! (which rules, their source, licence and how they are refreshed: docs/SECRETS.md), compiled
//! once with the `regex` crate. As gitleaks does, a rule runs only where one of its keywords
//! occurs (one Aho-Corasick pass over the text finds them all), its secret is its first
//! non-empty group, a secret under the rule's entropy is no finding, and the allowlists and
//! stopwords drop the known false positives.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use regex::bytes::{Regex, RegexBuilder};
use serde::Deserialize;

use crate::error::{Error, Result};

/// The rules as the refresh script writes them.
const RULES_JSON: &str = include_str!("gitleaks-rules.json");

#[derive(Debug, Deserialize)]
struct RuleFile {
    #[serde(default)]
    r#ref: String,
    allowlist: RawAllowlist,
    rules: Vec<RawRule>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawAllowlist {
    #[serde(default)]
    regexes: Vec<String>,
    #[serde(default)]
    stopwords: Vec<String>,
    #[serde(default)]
    regex_target: Option<String>,
    #[serde(default)]
    condition: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RawRule {
    id: String,
    regex: String,
    #[serde(default)]
    secret_group: Option<usize>,
    #[serde(default)]
    entropy: Option<f64>,
    #[serde(default)]
    keywords: Vec<String>,
    #[serde(default)]
    allowlists: Vec<RawAllowlist>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Secret,
    Match,
    Line,
}

#[derive(Debug)]
struct Allowlist {
    regexes: Vec<Regex>,
    stopwords: Vec<String>,
    target: Target,
    and: bool,
}

impl Allowlist {
    fn allows(&self, secret: &[u8], whole: &[u8], line: &[u8]) -> bool {
        let text = match self.target {
            Target::Secret => secret,
            Target::Match => whole,
            Target::Line => line,
        };
        let by_regex = self.regexes.iter().any(|r| r.is_match(text));
        let lower = String::from_utf8_lossy(secret).to_lowercase();
        let by_word = self.stopwords.iter().any(|w| lower.contains(w.as_str()));
        if self.and {
            (self.regexes.is_empty() || by_regex) && (self.stopwords.is_empty() || by_word)
        } else {
            by_regex || by_word
        }
    }
}

#[derive(Debug)]
struct Rule {
    id: String,
    regex: Regex,
    secret_group: Option<usize>,
    entropy: Option<f64>,
    allowlists: Vec<Allowlist>,
}

/// One secret a rule found: where in the text it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleMatch {
    pub rule: usize,
    pub start: usize,
    pub end: usize,
}

/// The compiled rule set.
#[derive(Debug)]
pub struct RuleSet {
    pub upstream_ref: String,
    rules: Vec<Rule>,
    /// Every keyword once; `keyword_rules[k]` are the rules keyword `k` turns on.
    keywords: AhoCorasick,
    keyword_rules: Vec<Vec<usize>>,
    /// Rules without a keyword run on every text.
    always: Vec<usize>,
    global: Allowlist,
}

/// Go's RE2 reads a `{` that starts no repetition as a literal; Rust's parser refuses it.
fn go_to_rust(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut chars = pattern.char_indices().peekable();
    let mut in_class = false;
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => {
                out.push(c);
                if let Some((_, next)) = chars.next() {
                    out.push(next);
                }
            }
            '[' if !in_class => {
                in_class = true;
                out.push(c);
                // A `]` right after `[` or `[^` is a member, not the end.
                if let Some(&(_, '^')) = chars.peek() {
                    out.push('^');
                    chars.next();
                }
                if let Some(&(_, ']')) = chars.peek() {
                    out.push(']');
                    chars.next();
                }
            }
            ']' if in_class => {
                in_class = false;
                out.push(c);
            }
            '{' if !in_class => {
                let rest = &pattern[i + 1..];
                let repetition = rest.find('}').is_some_and(|n| {
                    let inner = &rest[..n];
                    inner.starts_with(|ch: char| ch.is_ascii_digit())
                        && inner.chars().all(|ch| ch.is_ascii_digit() || ch == ',')
                });
                out.push_str(if repetition { "{" } else { "\\{" });
            }
            _ => out.push(c),
        }
    }
    out
}

fn compile(id: &str, pattern: &str) -> Result<Regex> {
    let build = |p: &str| {
        RegexBuilder::new(p)
            // RE2's classes are ASCII, as gitleaks runs them.
            .unicode(false)
            .size_limit(64 << 20)
            .dfa_size_limit(16 << 20)
            .build()
    };
    build(pattern)
        .or_else(|_| build(&go_to_rust(pattern)))
        .map_err(|e| Error::Internal(format!("secret rule {id}: {e}")))
}

fn allowlist(raw: &RawAllowlist, id: &str) -> Result<Allowlist> {
    Ok(Allowlist {
        regexes: raw
            .regexes
            .iter()
            .map(|r| compile(id, r))
            .collect::<Result<_>>()?,
        stopwords: raw.stopwords.iter().map(|w| w.to_lowercase()).collect(),
        target: match raw.regex_target.as_deref() {
            Some("match") => Target::Match,
            Some("line") => Target::Line,
            _ => Target::Secret,
        },
        and: raw
            .condition
            .as_deref()
            .is_some_and(|c| c.eq_ignore_ascii_case("and")),
    })
}

/// Shannon entropy of the bytes, in bits per symbol (gitleaks' `ShannonEntropy`).
pub fn entropy(data: &[u8]) -> f64 {
    if data.is_empty() {
        return 0.0;
    }
    let mut counts = [0usize; 256];
    for &b in data {
        counts[b as usize] += 1;
    }
    let n = data.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = c as f64 / n;
            -p * p.log2()
        })
        .sum()
}

impl RuleSet {
    /// The rules kept in the repository, compiled; `only` keeps the rules of those ids.
    pub fn load(only: &[String]) -> Result<Self> {
        let file: RuleFile = serde_json::from_str(RULES_JSON)
            .map_err(|e| Error::Internal(format!("gitleaks-rules.json: {e}")))?;
        let mut rules = Vec::new();
        let mut words: Vec<String> = Vec::new();
        let mut keyword_rules: Vec<Vec<usize>> = Vec::new();
        let mut always = Vec::new();
        for raw in file.rules {
            if !only.is_empty() && !only.iter().any(|o| o == &raw.id) {
                continue;
            }
            let index = rules.len();
            if raw.keywords.is_empty() {
                always.push(index);
            }
            for k in &raw.keywords {
                let k = k.to_lowercase();
                match words.iter().position(|w| *w == k) {
                    Some(at) => keyword_rules[at].push(index),
                    None => {
                        words.push(k);
                        keyword_rules.push(vec![index]);
                    }
                }
            }
            rules.push(Rule {
                regex: compile(&raw.id, &raw.regex)?,
                secret_group: raw.secret_group,
                entropy: raw.entropy,
                allowlists: raw
                    .allowlists
                    .iter()
                    .map(|a| allowlist(a, &raw.id))
                    .collect::<Result<_>>()?,
                id: raw.id,
            });
        }
        let keywords = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .match_kind(MatchKind::Standard)
            .build(&words)
            .map_err(|e| Error::Internal(format!("secret rule keywords: {e}")))?;
        Ok(RuleSet {
            upstream_ref: file.r#ref,
            global: allowlist(&file.allowlist, "global allowlist")?,
            rules,
            keywords,
            keyword_rules,
            always,
        })
    }

    /// Every rule id known, in the file's order.
    pub fn ids() -> Result<Vec<String>> {
        let file: RuleFile = serde_json::from_str(RULES_JSON)
            .map_err(|e| Error::Internal(format!("gitleaks-rules.json: {e}")))?;
        Ok(file.rules.into_iter().map(|r| r.id).collect())
    }

    pub fn len(&self) -> usize {
        self.rules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    pub fn id(&self, rule: usize) -> &str {
        &self.rules[rule].id
    }

    /// The secrets the rules find in `text`.
    pub fn find(&self, text: &[u8], out: &mut Vec<RuleMatch>) {
        let mut on = vec![false; self.rules.len()];
        for &r in &self.always {
            on[r] = true;
        }
        for m in self.keywords.find_overlapping_iter(text) {
            for &r in &self.keyword_rules[m.pattern().as_usize()] {
                on[r] = true;
            }
        }
        for (index, rule) in self.rules.iter().enumerate() {
            if !on[index] {
                continue;
            }
            // The lazy DFA finds each match; only a match is run again for its groups (the
            // capturing engine is many times slower over text that holds none).
            for found in rule.regex.find_iter(text) {
                let Some(caps) = rule.regex.captures_at(text, found.start()) else {
                    continue;
                };
                let whole = caps.get(0).expect("group 0");
                let secret = match rule.secret_group {
                    Some(g) => caps.get(g),
                    None => (1..caps.len()).find_map(|g| caps.get(g).filter(|m| !m.is_empty())),
                }
                .unwrap_or(whole);
                let value = secret.as_bytes();
                if value.is_empty() {
                    continue;
                }
                if rule.entropy.is_some_and(|min| entropy(value) <= min) {
                    continue;
                }
                let line_start = text[..whole.start()]
                    .iter()
                    .rposition(|&b| b == b'\n')
                    .map_or(0, |p| p + 1);
                let line_end = text[whole.end()..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(text.len(), |p| whole.end() + p);
                let line = &text[line_start..line_end];
                if self.global.allows(value, whole.as_bytes(), line)
                    || rule
                        .allowlists
                        .iter()
                        .any(|a| a.allows(value, whole.as_bytes(), line))
                {
                    continue;
                }
                out.push(RuleMatch {
                    rule: index,
                    start: secret.start(),
                    end: secret.end(),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str) -> Vec<String> {
        let set = RuleSet::load(&[]).unwrap();
        let mut out = Vec::new();
        set.find(text.as_bytes(), &mut out);
        out.iter().map(|m| set.id(m.rule).to_string()).collect()
    }

    #[test]
    fn every_kept_rule_compiles() {
        let set = RuleSet::load(&[]).unwrap();
        assert_eq!(set.len(), RuleSet::ids().unwrap().len());
        assert!(set.len() >= 25);
    }

    #[test]
    fn known_shapes_are_found_and_placeholders_are_not() {
        assert!(ids("export AWS_ACCESS_KEY_ID=AKIAQ7X2LMNB4RT56R5T\n")
            .contains(&"aws-access-token".to_string()));
        assert!(ids("token ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1x3z5Ab ok")
            .contains(&"github-pat".to_string()));
        assert!(ids("password=Vq8rT2mZp9LwX4kq\n").contains(&"generic-api-key".to_string()));
        // The shapes gitleaks allows: an example key, a variable in place of a value.
        assert!(ids("AKIAIOSFODNN7EXAMPLE").is_empty());
        assert!(ids("password=${DB_PASSWORD}\n").is_empty());
    }

    #[test]
    fn go_literal_braces_become_rust_literals() {
        assert_eq!(go_to_rust(r"^\$(?:\d+|{\d+})$"), r"^\$(?:\d+|\{\d+})$");
        assert_eq!(go_to_rust(r"a{2,3}b"), r"a{2,3}b");
        assert_eq!(go_to_rust(r"[{]x"), r"[{]x");
    }
}
