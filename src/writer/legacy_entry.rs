//! Entry normalisation of OpenClaw's legacy import (`readLegacySessionRecords` →
//! `writeSessionEntry`): delivery folding, creator migration, the `updatedAt` fallback and
//! the canonical entry shape. Key order follows JavaScript's: rewrites keep their slot,
//! new keys are appended.

use serde_json::{json, Map, Value};

use super::entry_fields::{DROPPED_PROJECTIONS, FOLDED_FLAT_FIELDS};
use super::transcript::delivery::fold_legacy_delivery;
use crate::json_value::{text, truthy};
use crate::writer::ARCHIVE_REASONS;

/// Normalise one `sessions.json` entry as the importer stores it in `entry_json`.
pub fn normalise_entry(key: &str, raw: &Map<String, Value>, now_ms: i64) -> Map<String, Value> {
    let mut e = fold_legacy_delivery(raw.clone());
    migrate_creator(&mut e);
    if !finite(e.get("updatedAt")) {
        let fallback = e
            .get("sessionStartedAt")
            .filter(|v| finite(Some(v)))
            .cloned()
            .unwrap_or_else(|| json!(now_ms));
        e.insert("updatedAt".into(), fallback);
    }
    if let Some(Value::Object(p)) = e.get_mut("profileInvolvement") {
        p.insert("key".into(), json!(key));
    }
    let session_id = e.get("sessionId").cloned();
    let owned_by_session =
        |v: Option<&Value>| v.and_then(|v| v.get("sessionId")) == session_id.as_ref();
    if e.contains_key("providerReview") && !owned_by_session(e.get("providerReview")) {
        e.shift_remove("providerReview");
    }
    if e.contains_key("publicShare")
        && (e.get("incognito") == Some(&Value::Bool(true))
            || !owned_by_session(e.get("publicShare")))
    {
        e.shift_remove("publicShare");
    }
    let mut e = canonical_shape(e);
    if let Some(Value::Object(s)) = e.get_mut("skillsSnapshot") {
        s.shift_remove("resolvedSkills");
    }
    e
}

fn finite(v: Option<&Value>) -> bool {
    crate::json_value::finite(v).is_some()
}

/// `normalizeCount`: a finite number ≥ 0, floored.
fn count(v: Option<&Value>) -> Option<Value> {
    let f = v?.as_f64().filter(|f| f.is_finite() && *f >= 0.0)?;
    Some(js_number(f.floor()))
}

/// `normalizeOptionalTimestamp`: absent stays absent, a bad value becomes 0.
fn timestamp(v: Option<&Value>) -> Option<Value> {
    let v = v?;
    Some(match v.as_f64() {
        Some(f) if f.is_finite() && f >= 0.0 => v.clone(),
        _ => json!(0),
    })
}

fn js_number(f: f64) -> Value {
    if f.fract() == 0.0 && f.abs() < 9.0e15 {
        json!(f as i64)
    } else {
        json!(f)
    }
}

/// `migrateLegacySessionCreator`: `createdBy` becomes a human `createdActor`.
fn migrate_creator(e: &mut Map<String, Value>) {
    let actor = match e.get("createdActor") {
        Some(a) => a.clone(),
        None => match e.get("createdBy") {
            Some(Value::Object(by)) => {
                let mut a = by.clone();
                a.insert("type".into(), json!("human"));
                a.insert("source".into(), json!("unknown"));
                Value::Object(a)
            }
            _ => return,
        },
    };
    if actor.get("type").and_then(Value::as_str) != Some("human") {
        return;
    }
    let given = actor.get("source").and_then(Value::as_str);
    let source = match given {
        Some(s @ ("profile" | "channel" | "unknown")) => s,
        _ => match e.get("createdVia").and_then(Value::as_str) {
            Some("operator" | "run") => "profile",
            Some("channel") => "channel",
            _ => "unknown",
        },
    };
    if e.contains_key("createdActor") && given == Some(source) && !truthy(e.get("createdBy")) {
        return;
    }
    let mut actor = actor.as_object().cloned().unwrap_or_default();
    actor.insert("source".into(), json!(source));
    e.insert("createdActor".into(), Value::Object(actor));
    e.shift_remove("createdBy");
}

const COLORS: [&str; 8] = [
    "red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan",
];
const ICON_GLYPHS: [&str; 6] = ["braces", "book", "monitor", "bot", "kanban", "coins"];

/// `normalizeSessionIconValue`, approximated for emoji: one short non-ASCII symbol.
/// SVG icons are kept as written (OpenClaw re-encodes them on its next write).
fn icon(raw: &str) -> Option<String> {
    let t = raw.trim();
    if t.is_empty() {
        return None;
    }
    if ICON_GLYPHS.contains(&t) || t.starts_with('<') || t.to_ascii_lowercase().starts_with("data:")
    {
        return Some(t.to_string());
    }
    let utf16 = t.encode_utf16().count();
    let single_symbol = utf16 <= 16
        && !t.is_ascii()
        && !t.chars().any(char::is_whitespace)
        && t.chars().filter(|c| c.is_alphanumeric()).count() == 0;
    single_symbol.then(|| t.to_string())
}

/// `projectCanonicalSessionEntryShape`.
fn canonical_shape(mut e: Map<String, Value>) -> Map<String, Value> {
    let legacy: Map<String, Value> = DROPPED_PROJECTIONS
        .iter()
        .chain(FOLDED_FLAT_FIELDS.iter())
        .filter_map(|k| e.shift_remove(*k).map(|v| (k.to_string(), v)))
        .collect();
    let updated_at = e.get("updatedAt").cloned();
    match e.get("icon").and_then(Value::as_str).and_then(icon) {
        Some(i) => {
            e.insert("icon".into(), json!(i));
        }
        None => {
            e.shift_remove("icon");
        }
    }
    let color = e
        .get("color")
        .and_then(Value::as_str)
        .map(|c| c.trim().to_lowercase())
        .filter(|c| COLORS.contains(&c.as_str()));
    match color {
        Some(c) => {
            e.insert("color".into(), json!(c));
        }
        None => {
            e.shift_remove("color");
        }
    }
    let pending_text = text(legacy.get("pendingFinalDeliveryText"));
    let intent = text(legacy.get("pendingFinalDeliveryIntentId"));
    let pending = pending_final_delivery(e.get("pendingFinalDelivery")).or_else(|| {
        (pending_text.is_some() || e.get("pendingFinalDelivery") == Some(&Value::Bool(true))).then(
            || {
                let mut p = Map::new();
                match &pending_text {
                    Some(t) => {
                        p.insert("kind".into(), json!("replayable"));
                        p.insert("text".into(), json!(t));
                    }
                    None => {
                        p.insert("kind".into(), json!("transport-only"));
                    }
                }
                let created = timestamp(legacy.get("pendingFinalDeliveryCreatedAt"))
                    .or_else(|| timestamp(updated_at.as_ref()))
                    .unwrap_or(json!(0));
                p.insert("createdAt".into(), created);
                if let Some(c @ Value::Object(_)) = legacy.get("pendingFinalDeliveryContext") {
                    p.insert("context".into(), c.clone());
                }
                if let Some(i) = &intent {
                    p.insert("intentId".into(), json!(i));
                }
                Value::Object(p)
            },
        )
    });
    set_or_remove(&mut e, "pendingFinalDelivery", pending);
    let notice = pending_delivery_notice(e.get("pendingDeliveryNotice"));
    set_or_remove(&mut e, "pendingDeliveryNotice", notice);
    let repair = pending_transcript_repair(e.get("pendingTranscriptRepair"));
    set_or_remove(&mut e, "pendingTranscriptRepair", repair);
    let selected = text(legacy.get("fallbackNoticeSelectedModel"));
    let active = text(legacy.get("fallbackNoticeActiveModel"));
    let reason = text(legacy.get("fallbackNoticeReason"));
    let fallback = fallback_notice(e.get("fallbackNotice")).or_else(|| match (selected, active) {
        (Some(s), Some(a)) => {
            let mut f = Map::new();
            f.insert("kind".into(), json!("active"));
            f.insert("selectedModel".into(), json!(s));
            f.insert("activeModel".into(), json!(a));
            if let Some(r) = reason {
                f.insert("reason".into(), json!(r));
            }
            Some(Value::Object(f))
        }
        _ => None,
    });
    set_or_remove(&mut e, "fallbackNotice", fallback);
    let flush_compactions = count(legacy.get("memoryFlushCompactionCount"));
    let flush_failures = count(legacy.get("memoryFlushFailureCount"));
    let flush = memory_flush(e.get("memoryFlush")).or_else(|| {
        if flush_failures
            .as_ref()
            .and_then(Value::as_f64)
            .is_some_and(|f| f > 0.0)
        {
            let mut m = Map::new();
            m.insert("kind".into(), json!("failed"));
            if let Some(c) = &flush_compactions {
                m.insert("compactionCount".into(), c.clone());
            }
            m.insert(
                "failureCount".into(),
                flush_failures.clone().unwrap_or(json!(0)),
            );
            Some(Value::Object(m))
        } else {
            flush_compactions
                .clone()
                .map(|c| json!({"kind": "succeeded", "compactionCount": c}))
        }
    });
    set_or_remove(&mut e, "memoryFlush", flush);
    let reason = e
        .get("archiveReason")
        .and_then(Value::as_str)
        .filter(|r| ARCHIVE_REASONS.contains(r))
        .map(String::from);
    if e.contains_key("archivedAt") {
        set_or_remove(&mut e, "archiveReason", reason.map(Value::from));
    } else {
        e.shift_remove("archivedBy");
        e.shift_remove("archiveReason");
    }
    e
}

fn set_or_remove(e: &mut Map<String, Value>, key: &str, value: Option<Value>) {
    match value {
        Some(v) => {
            e.insert(key.into(), v);
        }
        None => {
            e.shift_remove(key);
        }
    }
}

fn pending_final_delivery(v: Option<&Value>) -> Option<Value> {
    let v = v?.as_object()?;
    let created = timestamp(v.get("createdAt"))?;
    let mut base = Map::new();
    base.insert("createdAt".into(), created);
    if let Some(c @ Value::Object(_)) = v.get("context") {
        base.insert("context".into(), c.clone());
    }
    if let Some(i) = text(v.get("intentId")) {
        base.insert("intentId".into(), json!(i));
    }
    let deliveries: Vec<Value> = v
        .get("deliveries")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|d| {
            let id = text(d.get("id"))?;
            let state = d.get("state").and_then(Value::as_str)?;
            matches!(
                state,
                "prepared" | "queued" | "delivered" | "suppressed" | "unknown"
            )
            .then(|| json!({"id": id, "state": state}))
        })
        .collect();
    if !deliveries.is_empty() {
        base.insert("deliveries".into(), Value::Array(deliveries));
    }
    let mut out = Map::new();
    match (v.get("kind").and_then(Value::as_str), text(v.get("text"))) {
        (Some("transport-only"), _) => {
            out.insert("kind".into(), json!("transport-only"));
        }
        (Some("replayable"), Some(t)) => {
            out.insert("kind".into(), json!("replayable"));
            out.insert("text".into(), json!(t));
        }
        _ => return None,
    }
    out.extend(base);
    Some(Value::Object(out))
}

fn pending_delivery_notice(v: Option<&Value>) -> Option<Value> {
    let v = v?.as_object()?;
    let context = v.get("context").filter(|c| c.is_object())?;
    let created = timestamp(v.get("createdAt"))?;
    let intent = text(v.get("intentId"))?;
    let state = v
        .get("state")
        .and_then(Value::as_str)
        .filter(|s| matches!(*s, "owed" | "unresolved" | "acknowledged"))?;
    Some(json!({"createdAt": created, "context": context, "intentId": intent, "state": state}))
}

fn pending_transcript_repair(v: Option<&Value>) -> Option<Value> {
    let items: Vec<Value> = v?
        .as_array()?
        .iter()
        .filter_map(|r| {
            let id = text(r.get("id"))?;
            let t = text(r.get("text"))?;
            let created = timestamp(r.get("createdAt"))?;
            let mut m = Map::new();
            m.insert("id".into(), json!(id));
            m.insert("text".into(), json!(t));
            if let Some(p) = text(r.get("provider")) {
                m.insert("provider".into(), json!(p));
            }
            if let Some(p) = text(r.get("model")) {
                m.insert("model".into(), json!(p));
            }
            m.insert("createdAt".into(), created);
            Some(Value::Object(m))
        })
        .collect();
    (!items.is_empty()).then_some(Value::Array(items))
}

fn fallback_notice(v: Option<&Value>) -> Option<Value> {
    let v = v?.as_object()?;
    if v.get("kind").and_then(Value::as_str) != Some("active") {
        return None;
    }
    let selected = text(v.get("selectedModel"))?;
    let active = text(v.get("activeModel"))?;
    let mut m = Map::new();
    m.insert("kind".into(), json!("active"));
    m.insert("selectedModel".into(), json!(selected));
    m.insert("activeModel".into(), json!(active));
    if let Some(r) = text(v.get("reason")) {
        m.insert("reason".into(), json!(r));
    }
    Some(Value::Object(m))
}

fn memory_flush(v: Option<&Value>) -> Option<Value> {
    let v = v?.as_object()?;
    let compactions = count(v.get("compactionCount"));
    let kind = v.get("kind").and_then(Value::as_str);
    if kind == Some("succeeded") {
        if let Some(c) = &compactions {
            return Some(json!({"kind": "succeeded", "compactionCount": c}));
        }
    }
    let failures = count(v.get("failureCount")).filter(|f| f.as_f64().is_some_and(|f| f > 0.0))?;
    if kind != Some("failed") {
        return None;
    }
    let mut m = Map::new();
    m.insert("kind".into(), json!("failed"));
    if let Some(c) = compactions {
        m.insert("compactionCount".into(), c);
    }
    m.insert("failureCount".into(), failures);
    Some(Value::Object(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn norm(v: Value) -> String {
        serde_json::to_string(&normalise_entry("agent:main:x", v.as_object().unwrap(), 5)).unwrap()
    }

    /// The example OpenClaw's own importer produced for a legacy entry with every retired
    /// shape (docs/openclaw/IMPORT.md §3.3).
    #[test]
    fn matches_openclaw_for_legacy_shapes() {
        let input = json!({"sessionId":"s1","updatedAt":1780000000000u64,"sessionStartedAt":1779990000000u64,
            "sessionFile":"/x/s1.jsonl","provider":"telegram","room":"r1","channel":"telegram","lastChannel":"telegram",
            "lastTo":"42","lastAccountId":"default","origin":{"provider":"telegram","chatType":"direct"},
            "deliveryContext":{"channel":"telegram","to":"42","accountId":"default"},"createdBy":{"id":"u1"},
            "createdVia":"operator","label":"  L1  ","displayName":"Disp","pendingFinalDeliveryText":"hello",
            "pendingFinalDeliveryCreatedAt":1780000001000u64,"fallbackNoticeSelectedModel":"a/b",
            "fallbackNoticeActiveModel":"c/d","memoryFlushCompactionCount":2,"icon":"not-an-icon!!",
            "archiveReason":"manual","owner":"o","participants":[],"transcriptPath":"/t",
            "skillsSnapshot":{"resolvedSkills":[1],"prompt":"p"},"zzz":1});
        let out = norm(input);
        assert!(out.starts_with(r#"{"sessionId":"s1","updatedAt":1780000000000,"sessionStartedAt":1779990000000,"provider":"telegram","room":"r1","createdVia":"operator","label":"  L1  ","displayName":"Disp","skillsSnapshot":{"prompt":"p"},"zzz":1,"delivery":{"kind":"external","route":{"channel":"telegram","accountId":"default","target":{"to":"42"}},"context":{"channel":"telegram","to":"42","accountId":"default"},"origin":{"provider":"telegram","chatType":"direct""#), "{out}");
        assert!(out.ends_with(r#""chatType":"direct","createdActor":{"id":"u1","type":"human","source":"unknown"},"pendingFinalDelivery":{"kind":"replayable","text":"hello","createdAt":1780000001000},"fallbackNotice":{"kind":"active","selectedModel":"a/b","activeModel":"c/d"},"memoryFlush":{"kind":"succeeded","compactionCount":2}}"#), "{out}");
    }

    #[test]
    fn plain_entry_gets_delivery_none_and_updated_at_fallback() {
        assert_eq!(
            norm(json!({"sessionId":"s","sessionStartedAt":7,"sessionFile":"f","acp":{"a":1}})),
            r#"{"sessionId":"s","sessionStartedAt":7,"acp":{"a":1},"delivery":{"kind":"none"},"updatedAt":7}"#
        );
        assert_eq!(
            norm(json!({"sessionId":"s","updatedAt":"x"})),
            r#"{"sessionId":"s","updatedAt":5,"delivery":{"kind":"none"}}"#
        );
    }
}
