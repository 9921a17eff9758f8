//! `normalizeLegacySessionEntryDelivery`: the retired routing fields of a legacy entry
//! (`channel`, `lastTo`, `origin`, `deliveryContext`…) folded into one `delivery` state.
//! Channel aliases of plugins are not resolved (a channel id is lower-cased and trimmed).

use serde_json::{json, Map, Value};

use crate::json_value::{text, truthy};
use crate::writer::LEGACY_DELIVERY_FIELDS;

const INTERNAL_CHANNELS: [&str; 5] = ["heartbeat", "cron", "webhook", "voice", "sessions_send"];

/// A normalised delivery context (`normalizeDeliveryContext`).
#[derive(Debug, Clone, Default, PartialEq)]
struct Ctx {
    channel: Option<String>,
    to: Option<String>,
    account_id: Option<String>,
    thread_id: Option<Value>,
}

/// `normalizeOptionalThreadValue`: a finite number, or a trimmed non-empty string.
fn thread(v: Option<&Value>) -> Option<Value> {
    match v? {
        Value::Number(n) if n.as_f64().is_some_and(f64::is_finite) => {
            Some(Value::Number(n.clone()))
        }
        Value::String(s) if !s.trim().is_empty() => Some(json!(s.trim())),
        _ => None,
    }
}

/// `normalizeOptionalAccountId`.
fn account(v: Option<&Value>) -> Option<String> {
    let raw = v.and_then(Value::as_str)?.trim();
    if raw.is_empty() {
        return None;
    }
    let lower = raw.to_lowercase();
    let valid = raw.len() <= 64
        && raw
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        && raw
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    let canonical = if valid {
        lower
    } else {
        let mut s = String::new();
        let mut dash = false;
        for c in lower.chars() {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                s.push(c);
                dash = false;
            } else if !dash {
                s.push('-');
                dash = true;
            }
        }
        s.trim_matches('-').chars().take(64).collect()
    };
    (!canonical.is_empty()
        && !matches!(
            canonical.as_str(),
            "__proto__" | "constructor" | "prototype"
        ))
    .then_some(canonical)
}

fn channel(v: Option<&Value>) -> Option<String> {
    text(v).map(|c| c.to_lowercase())
}

impl Ctx {
    fn normalise(
        channel_v: Option<&Value>,
        to: Option<&Value>,
        acc: Option<&Value>,
        th: Option<&Value>,
    ) -> Option<Ctx> {
        let c = Ctx {
            channel: channel(channel_v),
            to: text(to),
            account_id: account(acc),
            thread_id: thread(th),
        };
        (c != Ctx::default()).then_some(c)
    }

    fn from_value(v: Option<&Value>) -> Option<Ctx> {
        let v = v?.as_object()?;
        Ctx::normalise(
            v.get("channel"),
            v.get("to"),
            v.get("accountId"),
            v.get("threadId"),
        )
    }

    fn has_external_target(&self) -> bool {
        self.channel
            .as_deref()
            .is_some_and(|c| c != "webchat" && !INTERNAL_CHANNELS.contains(&c))
            && self.to.is_some()
    }

    fn to_json(&self) -> Value {
        let mut m = Map::new();
        put(&mut m, "channel", self.channel.clone().map(Value::from));
        put(&mut m, "to", self.to.clone().map(Value::from));
        put(
            &mut m,
            "accountId",
            self.account_id.clone().map(Value::from),
        );
        put(&mut m, "threadId", self.thread_id.clone());
        Value::Object(m)
    }
}

fn is_internal(c: Option<&Ctx>) -> bool {
    c.and_then(|c| c.channel.as_deref())
        .is_some_and(|ch| ch == "webchat" || INTERNAL_CHANNELS.contains(&ch))
}

fn put(m: &mut Map<String, Value>, k: &str, v: Option<Value>) {
    if let Some(v) = v {
        m.insert(k.into(), v);
    }
}

/// `mergeDeliveryContext`: fill gaps of `primary` from `fallback` unless their routes conflict.
fn merge(primary: Option<&Ctx>, fallback: Option<&Ctx>) -> Option<Ctx> {
    let (p, f) = match (primary, fallback) {
        (None, None) => return None,
        (Some(p), None) => return Some(p.clone()),
        (None, Some(f)) => return Some(f.clone()),
        (Some(p), Some(f)) => (p, f),
    };
    let channels_conflict = p.channel.is_some() && f.channel.is_some() && p.channel != f.channel;
    let accounts_conflict =
        p.account_id.is_some() && f.account_id.is_some() && p.account_id != f.account_id;
    let conflict = channels_conflict || accounts_conflict;
    let pick = |a: &Option<String>, b: &Option<String>| {
        if conflict {
            a.clone()
        } else {
            a.clone().or_else(|| b.clone())
        }
    };
    let c = Ctx {
        channel: if accounts_conflict {
            p.channel.clone()
        } else {
            p.channel.clone().or_else(|| f.channel.clone())
        },
        to: pick(&p.to, &f.to),
        account_id: pick(&p.account_id, &f.account_id),
        thread_id: if conflict {
            p.thread_id.clone()
        } else {
            p.thread_id.clone().or_else(|| f.thread_id.clone())
        },
    };
    (c != Ctx::default()).then_some(c)
}

/// A legacy `route` object as a context (`normalizeDeliveryChannelRoute` + projection).
fn route_ctx(route: Option<&Value>) -> Option<Ctx> {
    let r = route?.as_object()?;
    Ctx::normalise(
        r.get("channel"),
        r.get("target").and_then(|t| t.get("to")),
        r.get("accountId"),
        r.get("thread").and_then(|t| t.get("id")),
    )
}

fn canonical_state(v: Option<&Value>) -> bool {
    let Some(v) = v.and_then(Value::as_object) else {
        return false;
    };
    match v.get("kind").and_then(Value::as_str) {
        Some("none" | "internal") => true,
        Some("external") => ["route", "context", "origin"]
            .iter()
            .all(|k| v.get(*k).is_some_and(Value::is_object)),
        _ => false,
    }
}

/// `normalizeSessionDeliveryState` for the migrated context and origin.
fn delivery_state(route: Option<&Value>, context: Option<&Ctx>, origin: Option<&Value>) -> Value {
    let route_context = route_ctx(route);
    let origin_context = origin_ctx(origin);
    let fallback = merge(context, origin_context.as_ref());
    let route_is_internal_fallback =
        is_internal(route_context.as_ref()) && context.is_some_and(Ctx::has_external_target);
    let merged = if route_is_internal_fallback {
        let internal = merge(route_context.as_ref(), origin_context.as_ref());
        external_over_internal(context, internal.as_ref())
    } else {
        merge(route_context.as_ref(), fallback.as_ref())
    };
    let Some(merged) = merged else {
        return json!({"kind": "none"});
    };
    if is_internal(Some(&merged)) {
        return json!({"kind": "internal"});
    }
    let raw_route = if route_is_internal_fallback {
        None
    } else {
        route.and_then(Value::as_object)
    };
    let target = raw_route.and_then(|r| r.get("target"));
    let chat_type = target
        .and_then(|t| t.get("chatType"))
        .filter(|c| truthy(Some(c)))
        .cloned();
    let route_channel = raw_route
        .and_then(|r| channel(r.get("channel")))
        .or(merged.channel.clone());
    let route_to = raw_route
        .and_then(|r| text(r.get("target").and_then(|t| t.get("to"))))
        .or(merged.to.clone());
    let route_account = raw_route
        .and_then(|r| account(r.get("accountId")))
        .or(merged.account_id.clone());
    let route_thread = raw_route
        .and_then(|r| thread(r.get("thread").and_then(|t| t.get("id"))))
        .or(merged.thread_id.clone());
    if route_channel.is_none()
        && route_to.is_none()
        && route_account.is_none()
        && route_thread.is_none()
    {
        return json!({"kind": "none"});
    }
    let mut r = Map::new();
    put(&mut r, "channel", route_channel.map(Value::from));
    put(&mut r, "accountId", route_account.map(Value::from));
    if let Some(to) = route_to {
        let mut t = Map::new();
        t.insert("to".into(), json!(to));
        if let Some(raw) = target
            .and_then(|t| text(t.get("rawTo")))
            .filter(|raw| *raw != to)
        {
            t.insert("rawTo".into(), json!(raw));
        }
        put(&mut t, "chatType", chat_type.clone());
        r.insert("target".into(), Value::Object(t));
    }
    if let Some(id) = route_thread {
        let mut t = Map::new();
        t.insert("id".into(), id);
        if let Some(th) = raw_route.and_then(|r| r.get("thread")) {
            put(
                &mut t,
                "kind",
                th.get("kind").filter(|v| truthy(Some(v))).cloned(),
            );
            put(
                &mut t,
                "source",
                th.get("source").filter(|v| truthy(Some(v))).cloned(),
            );
        }
        r.insert("thread".into(), Value::Object(t));
    }
    let mut o = origin
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let fill = |o: &mut Map<String, Value>, k: &str, v: Option<Value>| {
        if o.get(k).is_none_or(Value::is_null) {
            if let Some(v) = v {
                o.insert(k.into(), v);
            }
        }
    };
    fill(&mut o, "provider", merged.channel.clone().map(Value::from));
    fill(&mut o, "to", merged.to.clone().map(Value::from));
    fill(
        &mut o,
        "accountId",
        merged.account_id.clone().map(Value::from),
    );
    fill(&mut o, "threadId", merged.thread_id.clone());
    fill(&mut o, "chatType", chat_type);
    json!({"kind": "external", "route": r, "context": merged.to_json(), "origin": o})
}

/// `normalizeSessionDeliveryState({ context })`: the delivery OpenClaw's doctor rebuilds
/// from a conversation's columns (channel, target, account, thread).
pub fn delivery_from_context(
    channel: Option<&Value>,
    to: Option<&Value>,
    account_id: Option<&Value>,
    thread_id: Option<&Value>,
) -> Value {
    let ctx = Ctx::normalise(channel, to, account_id, thread_id);
    delivery_state(None, ctx.as_ref(), None)
}

fn origin_ctx(origin: Option<&Value>) -> Option<Ctx> {
    let o = origin?.as_object()?;
    Ctx::normalise(
        o.get("provider"),
        o.get("to"),
        o.get("accountId"),
        o.get("threadId"),
    )
}

fn external_over_internal(external: Option<&Ctx>, internal: Option<&Ctx>) -> Option<Ctx> {
    let e = external.cloned().unwrap_or_default();
    let c = Ctx {
        channel: e.channel,
        to: e.to,
        account_id: e
            .account_id
            .or_else(|| internal.and_then(|i| i.account_id.clone())),
        thread_id: e
            .thread_id
            .or_else(|| internal.and_then(|i| i.thread_id.clone())),
    };
    (c != Ctx::default()).then_some(c)
}

/// Fold the legacy routing fields of `entry` into `delivery`, then drop them.
pub fn fold_legacy_delivery(entry: Map<String, Value>) -> Map<String, Value> {
    let has_legacy = LEGACY_DELIVERY_FIELDS
        .iter()
        .any(|k| entry.contains_key(*k));
    if canonical_state(entry.get("delivery")) && !has_legacy {
        return entry;
    }
    let route = entry.get("route");
    let route_context = route_ctx(route);
    let explicit = Ctx::from_value(entry.get("deliveryContext"));
    let last_channel = channel(entry.get("lastChannel"));
    let stored_channel = channel(entry.get("channel"));
    let origin = entry.get("origin");
    let origin_channel = channel(origin.and_then(|o| o.get("provider")));
    let last_fields = Ctx::normalise(
        None,
        entry.get("lastTo"),
        entry.get("lastAccountId"),
        entry.get("lastThreadId"),
    );
    let has_last_fields = last_fields.is_some();
    let last_candidate = Ctx {
        channel: last_channel.clone().or_else(|| {
            has_last_fields
                .then(|| stored_channel.clone().or(origin_channel.clone()))
                .flatten()
        }),
        ..last_fields.unwrap_or_default()
    };
    let last_candidate = (last_candidate != Ctx::default()).then_some(last_candidate);
    let last_context = last_candidate.filter(|c| {
        is_internal(Some(c))
            || c.has_external_target()
            || (last_channel.is_some() && c.channel.is_some())
            || (c.channel.is_some()
                && c.channel == explicit.as_ref().and_then(|e| e.channel.clone()))
    });
    let channel_context = Ctx::normalise(entry.get("channel"), None, None, None);
    let origin_context = origin_ctx(origin);
    let fallback = merge(
        last_context.as_ref(),
        merge(
            explicit.as_ref(),
            merge(channel_context.as_ref(), origin_context.as_ref()).as_ref(),
        )
        .as_ref(),
    );
    let internal_fallback = if is_internal(route_context.as_ref()) {
        merge(route_context.as_ref(), last_context.as_ref())
    } else if is_internal(last_context.as_ref()) {
        last_context.clone()
    } else if is_internal(channel_context.as_ref()) {
        merge(channel_context.as_ref(), last_context.as_ref())
    } else {
        None
    };
    let has_internal_fallback =
        internal_fallback.is_some() && explicit.as_ref().is_some_and(Ctx::has_external_target);
    let context = if has_internal_fallback {
        external_over_internal(explicit.as_ref(), internal_fallback.as_ref())
    } else {
        merge(route_context.as_ref(), fallback.as_ref())
    };
    let migrated = delivery_state(
        if has_internal_fallback { None } else { route },
        context.as_ref(),
        origin,
    );
    let existing = entry.get("delivery").filter(|d| canonical_state(Some(d)));
    let migrated_kind = migrated["kind"].as_str().unwrap_or("none");
    let delivery = match existing.and_then(|d| d.get("kind")).and_then(Value::as_str) {
        Some("none") if migrated_kind != "none" => migrated,
        Some("internal") if migrated_kind == "external" => migrated,
        Some(_) => existing.cloned().unwrap_or(migrated),
        None => migrated,
    };
    let chat_type = origin
        .and_then(|o| o.get("chatType"))
        .and_then(Value::as_str)
        .filter(|c| matches!(*c, "direct" | "group" | "channel"))
        .map(String::from);
    let mut next = entry;
    next.insert("delivery".into(), delivery);
    if next.get("chatType").is_none_or(Value::is_null) {
        if let Some(c) = chat_type {
            next.insert("chatType".into(), json!(c));
        }
    }
    for k in LEGACY_DELIVERY_FIELDS {
        next.shift_remove(k);
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fold(v: Value) -> Value {
        Value::Object(fold_legacy_delivery(v.as_object().unwrap().clone()))["delivery"].clone()
    }

    /// Outputs of OpenClaw's own function (docs/openclaw/IMPORT.md §3.2).
    #[test]
    fn matches_openclaw_examples() {
        assert_eq!(
            fold(json!({"channel": "telegram"})).to_string(),
            r#"{"kind":"external","route":{"channel":"telegram"},"context":{"channel":"telegram"},"origin":{"provider":"telegram"}}"#
        );
        assert_eq!(
            fold(json!({"lastChannel": "webchat"})),
            json!({"kind": "internal"})
        );
        assert_eq!(
            fold(json!({"channel": "telegram", "lastTo": "42"})).to_string(),
            r#"{"kind":"external","route":{"channel":"telegram","target":{"to":"42"}},"context":{"channel":"telegram","to":"42"},"origin":{"provider":"telegram","to":"42"}}"#
        );
        assert_eq!(fold(json!({"x": 1})), json!({"kind": "none"}));
        let kept = json!({"kind": "internal"});
        assert_eq!(fold(json!({"delivery": kept})), kept);
    }
}
