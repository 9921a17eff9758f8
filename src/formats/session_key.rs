//! OpenClaw 2026.9.6's canonical session keys (docs/openclaw/HOSTILE.md §8): the rules its
//! writer applies before it stores a key (`assertCanonicalSessionKeyWrite`) and its read path
//! applies to every stored row (`validateCanonicalSessionRow`). A store holding a key that
//! breaks them is refused by OpenClaw as a whole ("non-canonical persisted row resolves to
//! session key ..."), so nothing this tool writes may break them.

pub use super::js::js_trim;

/// `normalizeLowercaseStringOrEmpty`: trimmed, lower-cased.
fn lower_trimmed(s: &str) -> String {
    js_trim(s).to_lowercase()
}

/// Byte spans of `raw` whose case OpenClaw keeps (Signal group ids, Matrix room ids), and
/// whether each is trimmed (`collectCasePreservedSpans`).
fn case_preserved_spans(raw: &str) -> Vec<(usize, usize, bool)> {
    let lower = raw.to_ascii_lowercase();
    let mut spans = Vec::new();
    // /(^|:)signal:group:([^:]+)/gi
    let mut from = 0;
    while let Some(i) = lower[from..].find("signal:group:").map(|i| i + from) {
        let at_boundary = i == 0 || lower.as_bytes()[i - 1] == b':';
        let seg_start = i + "signal:group:".len();
        let seg_len = lower[seg_start..]
            .find(':')
            .unwrap_or(lower.len() - seg_start);
        if at_boundary && seg_len > 0 {
            spans.push((seg_start, seg_start + seg_len, true));
            from = seg_start + seg_len;
        } else {
            from = i + 1;
        }
    }
    // /^(?:(?:agent:[^:]*:)+:*)?matrix:(?:channel|group):/i
    let matrix_prefix = |s: &str| -> Option<usize> {
        for kind in ["matrix:channel:", "matrix:group:"] {
            if s.starts_with(kind) {
                return Some(kind.len());
            }
        }
        None
    };
    let mut tail_start = matrix_prefix(&lower);
    if tail_start.is_none() {
        // One or more `agent:<id>:` groups, any run of `:`, then the marker; the regex
        // backtracks over where the groups end, so every split point is tried.
        let mut pos = 0;
        while lower[pos..].starts_with("agent:") {
            let Some(end) = lower[pos + 6..].find(':').map(|e| pos + 6 + e + 1) else {
                break;
            };
            pos = end;
            let mut p = pos;
            loop {
                if let Some(n) = matrix_prefix(&lower[p..]) {
                    tail_start = Some(p + n);
                    break;
                }
                if lower[p..].starts_with(':') {
                    p += 1;
                } else {
                    break;
                }
            }
            if tail_start.is_some() {
                break;
            }
        }
    }
    let Some(tail_start) = tail_start.filter(|t| *t < raw.len()) else {
        return spans;
    };
    match lower[tail_start..].rfind(":thread:") {
        None => spans.push((tail_start, raw.len(), false)),
        Some(m) => {
            spans.push((tail_start, tail_start + m, false));
            let thread = tail_start + m + ":thread:".len();
            if thread < raw.len() {
                spans.push((thread, raw.len(), false));
            }
        }
    }
    spans
}

/// `normalizeStoreSessionKey`: trimmed and lower-cased, except the provider-owned opaque ids
/// (Signal groups, Matrix rooms), which keep their case.
pub fn normalize_store_key(key: &str) -> String {
    let raw = js_trim(key);
    if raw.is_empty() {
        return String::new();
    }
    let folded = raw.to_lowercase();
    if !folded.contains("signal:") && !folded.contains("matrix:") {
        return folded;
    }
    let mut spans: Vec<_> = case_preserved_spans(raw)
        .into_iter()
        .filter(|(s, e, _)| e > s)
        .collect();
    spans.sort_by_key(|s| s.0);
    let mut out = String::new();
    let mut cursor = 0;
    for (start, end, trim) in spans {
        if start < cursor {
            continue;
        }
        out.push_str(&lower_trimmed(&raw[cursor..start]));
        let kept = &raw[start..end];
        out.push_str(if trim { js_trim(kept) } else { kept });
        cursor = end;
    }
    out.push_str(&lower_trimmed(&raw[cursor..]));
    out
}

/// `parseAgentSessionKey`: `(agentId, rest)` of `agent:<id>:<rest>`, after normalizing.
pub fn parse_agent_key(key: &str) -> Option<(String, String)> {
    let k = normalize_store_key(key);
    parse_agent_key_parts(&k).map(|(agent, rest)| (agent.to_string(), rest.to_string()))
}

/// `parseAgentSessionKeyParts`: `(agent id as typed, rest)` of `agent:<id>:<rest>`, without
/// normalizing the key first.
pub fn parse_agent_key_parts(key: &str) -> Option<(&str, &str)> {
    if !key
        .get(..6)
        .is_some_and(|p| p.eq_ignore_ascii_case("agent:"))
    {
        return None;
    }
    let end = 6 + key[6..].find(':')?;
    let agent = js_trim(&key[6..end]);
    let rest = &key[end + 1..];
    (!agent.is_empty() && !rest.is_empty() && !rest.starts_with(':')).then_some((agent, rest))
}

/// The keys OpenClaw stores without an agent: `global` and `unknown`.
pub const SENTINEL_KEYS: [&str; 2] = ["global", "unknown"];

/// `isCanonicalSessionKey`.
pub fn is_canonical(key: &str) -> bool {
    let trimmed = js_trim(key);
    if trimmed.is_empty() || trimmed != key || normalize_store_key(key) != key {
        return false;
    }
    SENTINEL_KEYS.contains(&trimmed)
        || parse_agent_key(trimmed)
            .is_some_and(|(agent, _)| trimmed.starts_with(&format!("agent:{agent}:")))
}

/// `normalizeMainKey`: the store's main key (`session_key_contract.main_key`), `main` when
/// blank.
pub fn normalize_main_key(main_key: Option<&str>) -> String {
    let k = lower_trimmed(main_key.unwrap_or(""));
    if k.is_empty() {
        "main".into()
    } else {
        k
    }
}

/// Why OpenClaw's writer refuses to store `key` (a session's own key, or a lineage field's
/// value) in a store whose main key is `main_key`, in its words; `None` when it stores it.
pub fn write_refusal(key: &str, main_key: &str) -> Option<String> {
    let main_alias =
        main_key != "main" && parse_agent_key(key).is_some_and(|(_, rest)| rest == "main");
    (!is_canonical(key) || main_alias)
        .then(|| format!("refusing non-canonical session key write {key}"))
}

/// Why OpenClaw's read path refuses a stored lineage value (`parent_session_key`,
/// `spawned_by`, `fork_source_session_key`), in its words; `None` when it reads it.
pub fn stored_lineage_refusal(value: &str, main_key: &str) -> Option<String> {
    if value.is_empty() {
        return None;
    }
    let normalized = normalize_store_key(value);
    let parsed = parse_agent_key(&normalized);
    let bad = normalized != value
        || (parsed.is_none() && !SENTINEL_KEYS.contains(&normalized.as_str()))
        || (parsed.is_some_and(|(_, rest)| rest == "main") && main_key != "main");
    bad.then(|| {
        let shown = if normalized.is_empty() {
            value
        } else {
            &normalized
        };
        format!("non-canonical persisted row resolves to session key {shown}")
    })
}

/// Why OpenClaw's read path refuses a row's own key (after its delivery-proven alias rule,
/// which this does not apply), in its words; `None` when it reads it.
pub fn stored_key_refusal(key: &str, main_key: &str) -> Option<String> {
    let trimmed = js_trim(key);
    let parsed = parse_agent_key(trimmed);
    let bad = key != trimmed
        || normalize_store_key(trimmed) != trimmed
        || (parsed.is_none() && !SENTINEL_KEYS.contains(&trimmed))
        || (parsed.is_some_and(|(_, rest)| rest == "main") && main_key != "main");
    bad.then(|| {
        let shown = if trimmed.is_empty() { key } else { trimmed };
        format!("non-canonical persisted row resolves to session key {shown}")
    })
}

/// What OpenClaw 2026.9.6's `doctor --fix` does with a stored lineage value
/// (docs/openclaw/HOSTILE.md §8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineageFix {
    /// Canonical: left as it is.
    Keep,
    /// Empty once trimmed: the field is removed (its read refuses an empty value as
    /// "invalid persisted session row requires repair").
    Remove,
    /// Rewritten normalized (`AGENT:MAIN:X` -> `agent:main:x`).
    Set(String),
    /// Still refused once normalized (`agent:main:`): its doctor leaves it, so do we.
    Stays,
}

pub fn lineage_fix(value: &str, main_key: &str) -> LineageFix {
    let normalized = normalize_store_key(value);
    if normalized.is_empty() {
        LineageFix::Remove
    } else if normalized == value && stored_lineage_refusal(value, main_key).is_none() {
        LineageFix::Keep
    } else if stored_lineage_refusal(&normalized, main_key).is_none() {
        LineageFix::Set(normalized)
    } else {
        LineageFix::Stays
    }
}

/// The key OpenClaw 2026.9.6's `doctor --fix` moves a row with a refused key to (its
/// normalized key, when that is read), as it does with the upper-case key a legacy import
/// stores; `None` when the key is read as it is, or is still refused once normalized.
pub fn key_fix(key: &str, main_key: &str) -> Option<String> {
    stored_key_refusal(key, main_key)?;
    let normalized = normalize_store_key(key);
    stored_key_refusal(&normalized, main_key)
        .is_none()
        .then_some(normalized)
}

/// The value of lineage field `field` (`forkSource.sessionKey` is nested) of an entry.
pub fn lineage_value<'a>(
    fields: &'a serde_json::Map<String, serde_json::Value>,
    field: &str,
) -> Option<&'a serde_json::Value> {
    match field.split_once('.') {
        Some((outer, inner)) => fields.get(outer).and_then(|o| o.get(inner)),
        None => fields.get(field),
    }
}

/// Why OpenClaw's read path refuses the entry of `key` over a lineage value stored in the
/// entry itself, in its words, and what its doctor does about it.
pub fn entry_lineage_stored_refusal(
    key: &str,
    fields: &serde_json::Map<String, serde_json::Value>,
    main_key: &str,
) -> Option<(String, LineageFix)> {
    LINEAGE_FIELDS.iter().find_map(|field| {
        let serde_json::Value::String(v) = lineage_value(fields, field)? else {
            return None;
        };
        match lineage_fix(v, main_key) {
            LineageFix::Keep => None,
            LineageFix::Remove => Some((
                format!("{field}: invalid persisted session row requires repair for {key}"),
                LineageFix::Remove,
            )),
            fix => {
                let why = stored_lineage_refusal(v, main_key).unwrap_or_else(|| {
                    format!("non-canonical persisted row resolves to session key {v}")
                });
                Some((format!("{field}: {why}"), fix))
            }
        }
    })
}

/// Apply OpenClaw's doctor repair to every lineage field of an entry; `None` when a value
/// stays refused (nothing is changed then), else whether anything changed.
pub fn fix_entry_lineage(
    fields: &mut serde_json::Map<String, serde_json::Value>,
    main_key: &str,
) -> Option<bool> {
    let mut plan = Vec::new();
    for field in LINEAGE_FIELDS {
        if let Some(serde_json::Value::String(v)) = lineage_value(fields, field) {
            match lineage_fix(v, main_key) {
                LineageFix::Keep => {}
                LineageFix::Stays => return None,
                fix => plan.push((field, fix)),
            }
        }
    }
    let changed = !plan.is_empty();
    for (field, fix) in plan {
        let (map, name) = match field.split_once('.') {
            Some((outer, inner)) => match fields.get_mut(outer) {
                Some(serde_json::Value::Object(o)) => (o, inner),
                _ => continue,
            },
            None => (&mut *fields, field),
        };
        match fix {
            LineageFix::Set(v) => {
                map.insert(name.to_string(), serde_json::Value::String(v));
            }
            _ => {
                map.remove(name);
            }
        }
    }
    Some(changed)
}

/// The entry fields that hold a session key, as OpenClaw's writer checks them
/// (`assertCanonicalSessionEntryLineageWrite`): `parentSessionKey`, `spawnedBy`,
/// `forkSource.sessionKey`.
pub const LINEAGE_FIELDS: [&str; 3] = ["parentSessionKey", "spawnedBy", "forkSource.sessionKey"];

/// The first lineage field of an entry OpenClaw's writer would refuse, with its words: a
/// value that is not a canonical key, or not a string at all.
pub fn entry_lineage_refusal(
    fields: &serde_json::Map<String, serde_json::Value>,
    main_key: &str,
) -> Option<String> {
    for field in LINEAGE_FIELDS {
        let why = match lineage_value(fields, field) {
            None => None,
            Some(serde_json::Value::String(k)) => write_refusal(k, main_key),
            Some(other) => Some(format!("refusing non-canonical session key write {other}")),
        };
        if let Some(why) = why {
            return Some(format!("{field}: {why}"));
        }
    }
    None
}

/// The refusal of a key OpenClaw would not store (`CONFLICT`), in its words.
pub fn refusal_error(why: String) -> crate::error::Error {
    crate::error::Error::Conflict {
        message: why,
        hint: Some(
            "OpenClaw refuses every session of an agent whose store holds a key that is not \
             canonical (trimmed, lower-case, agent:<id>:<rest>, or global/unknown); nothing was \
             changed"
                .into(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What OpenClaw 2026.9.6's `assertCanonicalSessionKeyWrite` answered for each key.
    const ANSWERS: &[(&str, bool)] = &[
        ("AGENT:MAIN:X", false),
        ("agent:main:", false),
        ("  agent:main:main  ", false),
        ("", false),
        ("agent:main:Upper", false),
        ("agent:main::", false),
        ("agent:main: ", false),
        ("global", true),
        ("unknown", true),
        ("Global", false),
        ("main", false),
        ("agent::x", false),
        ("agent:main:x", true),
        ("agent:main:signal:group:AbC", true),
        ("agent:main:matrix:channel:!Room:Server", true),
        ("agent:main:matrix:channel:!Room:thread:T1", true),
        ("agent:main:x\u{a0}", false),
        ("agent:main:x\u{85}", true),
        ("agent:main:x\u{feff}", false),
        ("agent:main:\u{e9}", true),
        ("agent:main:\u{c9}", false),
        ("agent: main:x", false),
        ("agent:main :x", false),
        ("agent:Main:signal:group:AbC", false),
        ("agent:main:signal:group: AbC", false),
        ("agent:main:x:MATRIX:channel:Ab", false),
        ("agent:a:agent:b:matrix:group:Ab", true),
        ("agent:main:\u{130}", false),
        ("agent:main:\u{df}", true),
    ];

    /// The key grammar's edges: the agent part as typed, and the opaque ids that keep case.
    #[test]
    fn agent_key_parts_and_case_kept_ids() {
        assert_eq!(
            parse_agent_key_parts("AGENT:Work:x:y"),
            Some(("Work", "x:y"))
        );
        assert_eq!(parse_agent_key_parts("agent:work:"), None);
        assert_eq!(parse_agent_key_parts("agent:work::x"), None);
        assert_eq!(parse_agent_key_parts("main"), None);
        assert_eq!(
            parse_agent_key(" AGENT:Work:X "),
            Some(("work".to_string(), "x".to_string()))
        );
        assert_eq!(
            normalize_store_key(" Agent:Main:Signal:Group:AbC=:Thread:X "),
            "agent:main:signal:group:AbC=:thread:x"
        );
        assert_eq!(
            normalize_store_key("agent:main:matrix:channel:!Room:Srv:THREAD:$Ev"),
            "agent:main:matrix:channel:!Room:Srv:thread:$Ev"
        );
        assert_eq!(
            normalize_store_key("Telegram:Direct:1"),
            "telegram:direct:1"
        );
    }

    #[test]
    fn openclaws_answers() {
        for (key, stored) in ANSWERS {
            assert_eq!(write_refusal(key, "main").is_none(), *stored, "{key:?}");
        }
    }

    #[test]
    fn openclaws_cases() {
        for bad in [
            "AGENT:MAIN:X",
            "agent:main:",
            "  agent:main:main  ",
            "",
            "agent:main:Upper",
            "agent:main::",
            "agent:main: ",
            "Global",
            "main",
            "agent::x",
        ] {
            assert!(write_refusal(bad, "main").is_some(), "{bad:?}");
        }
        for good in [
            "agent:main:x",
            "global",
            "unknown",
            "agent:main:main",
            "agent:main:signal:group:AbC",
            "agent:main:matrix:channel:!Room:Server",
            "agent:main:matrix:channel:!Room:thread:T1",
        ] {
            assert_eq!(write_refusal(good, "main"), None, "{good:?}");
        }
        assert!(write_refusal("agent:main:main", "home").is_some());
        assert_eq!(
            normalize_store_key(" Agent:Main:Signal:Group:AbC:X "),
            "agent:main:signal:group:AbC:x"
        );
        assert!(stored_lineage_refusal("AGENT:MAIN:X", "main").is_some());
        assert_eq!(stored_lineage_refusal("", "main"), None);
        assert!(stored_key_refusal("agent:main:Telegram:Direct:UPPER", "main").is_some());
    }

    /// What OpenClaw 2026.9.6's `doctor --fix` wrote for each stored value (HOSTILE.md §8).
    #[test]
    fn openclaws_doctor_repairs() {
        use LineageFix::*;
        assert_eq!(
            lineage_fix("AGENT:MAIN:X", "main"),
            Set("agent:main:x".into())
        );
        assert_eq!(
            lineage_fix("  agent:main:main  ", "main"),
            Set("agent:main:main".into())
        );
        assert_eq!(
            lineage_fix("agent:main:Upper", "main"),
            Set("agent:main:upper".into())
        );
        assert_eq!(lineage_fix("", "main"), Remove);
        assert_eq!(lineage_fix("agent:main:", "main"), Stays);
        assert_eq!(lineage_fix("agent:main:x", "main"), Keep);
        assert_eq!(
            key_fix("agent:main:Telegram:Direct:UPPER", "main").as_deref(),
            Some("agent:main:telegram:direct:upper")
        );
        assert_eq!(key_fix("agent:main:x", "main"), None);
        assert_eq!(key_fix("agent:main:", "main"), None);
    }
}
