//! The external address of a routed session (`conversationIdentityFromSessionEntry`,
//! `upsertConversationIdentity`, `linkSessionConversation`): one `conversations` row per
//! channel/account/peer/thread, linked to the session's window.

use rusqlite::Transaction;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::json_value::text;
use crate::store::db::conversations;

fn thread(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::Number(n) if n.as_f64().is_some_and(f64::is_finite) => Some(n.to_string()),
        other => text(Some(other)),
    }
}

/// `normalizeConversationPeerId`: drop a `<channel>:` and a `user:`/`group:`… prefix.
fn peer_id(channel: &str, raw: &str) -> String {
    let mut s = raw.trim();
    let prefix = format!("{}:", channel.trim().to_lowercase());
    if s.len() >= prefix.len() && s[..prefix.len()].eq_ignore_ascii_case(&prefix) {
        s = s[prefix.len()..].trim();
    }
    for p in [
        "user:",
        "channel:",
        "group:",
        "conversation:",
        "room:",
        "dm:",
        "thread:",
    ] {
        if s.len() >= p.len() && s[..p.len()].eq_ignore_ascii_case(p) {
            s = &s[p.len()..];
            break;
        }
    }
    s.trim().to_string()
}

/// A derived `conversations` row.
#[derive(Debug, Clone, PartialEq)]
pub struct Conversation {
    pub id: String,
    channel: String,
    account_id: String,
    kind: &'static str,
    peer_id: String,
    delivery_target: String,
    thread_id: Option<String>,
    native_channel_id: Option<String>,
    native_direct_user_id: Option<String>,
    label: Option<String>,
    /// `participant` for a shared-main direct session, else `primary`.
    pub primary: bool,
}

/// The conversation of an entry with an external delivery route, if it has one.
pub fn conversation_of(e: &Map<String, Value>, session_scope: &str) -> Option<Conversation> {
    let delivery = e
        .get("delivery")
        .filter(|d| d.get("kind").and_then(Value::as_str) == Some("external"))?;
    let ctx = delivery.get("context");
    let origin = delivery.get("origin");
    let kind = match e
        .get("chatType")
        .and_then(Value::as_str)
        .map(|s| s.trim().to_lowercase())
        .as_deref()
    {
        Some("channel") => "channel",
        Some("group") => "group",
        _ => "direct",
    };
    let route_target = text(ctx.and_then(|c| c.get("to")));
    let delivery_target = route_target.clone().or_else(|| {
        (kind == "direct")
            .then(|| text(origin.and_then(|o| o.get("from"))))
            .flatten()
    })?;
    let owns = route_target.is_some();
    let pick = |k: &str| {
        if owns {
            ctx.and_then(|c| c.get(k))
        } else {
            origin.and_then(|o| o.get(k))
        }
    };
    let channel = if owns {
        text(ctx.and_then(|c| c.get("channel")))
    } else {
        text(origin.and_then(|o| o.get("provider")))
    }?
    .to_lowercase();
    let paired = owns
        .then(|| paired_origin_peer(origin, ctx, &delivery_target, kind))
        .flatten();
    let peer = peer_id(&channel, &paired.unwrap_or_else(|| delivery_target.clone()));
    if peer.is_empty() {
        return None;
    }
    let account_id = text(pick("accountId"))
        .map(|a| a.to_lowercase())
        .unwrap_or_else(|| "default".into());
    let thread_id = thread(pick("threadId"));
    let digest = Sha256::digest(
        serde_json::to_string(&serde_json::json!([
            channel,
            account_id,
            kind,
            peer,
            "",
            thread_id.clone().unwrap_or_default()
        ]))
        .unwrap_or_default()
        .as_bytes(),
    );
    let id = format!("conv_{}", crate::units::hex(&digest[..16]));
    Some(Conversation {
        id,
        channel,
        account_id,
        kind,
        peer_id: peer,
        delivery_target,
        thread_id,
        native_channel_id: text(origin.and_then(|o| o.get("nativeChannelId"))),
        native_direct_user_id: text(origin.and_then(|o| o.get("nativeDirectUserId"))),
        label: text(e.get("displayName")).or_else(|| text(e.get("label"))),
        primary: !(session_scope == "shared-main" && kind == "direct"),
    })
}

/// `resolvePairedOriginPeerId`: a direct chat's peer is the origin's sender when the origin
/// describes the same route.
fn paired_origin_peer(
    origin: Option<&Value>,
    ctx: Option<&Value>,
    target: &str,
    kind: &str,
) -> Option<String> {
    if kind != "direct" {
        return None;
    }
    let o = origin?;
    let from = text(o.get("from"))?;
    let same_channel = text(o.get("provider")).map(|c| c.to_lowercase())
        == text(ctx.and_then(|c| c.get("channel"))).map(|c| c.to_lowercase());
    let acc = |v: Option<&Value>| {
        text(v)
            .map(|a| a.to_lowercase())
            .unwrap_or_else(|| "default".into())
    };
    let ok = text(o.get("to")).as_deref() == Some(target)
        && same_channel
        && text(o.get("chatType")).map(|c| c.to_lowercase()).as_deref() == Some(kind)
        && acc(o.get("accountId")) == acc(ctx.and_then(|c| c.get("accountId")))
        && thread(o.get("threadId")) == thread(ctx.and_then(|c| c.get("threadId")));
    ok.then_some(from)
}

/// Upsert the conversation and link it to the window (`role` primary or participant).
pub fn write_conversation(
    tx: &Transaction<'_>,
    c: &Conversation,
    updated_at: i64,
) -> rusqlite::Result<()> {
    conversations::upsert(
        tx,
        &conversations::ConversationRow {
            conversation_id: &c.id,
            channel: &c.channel,
            account_id: &c.account_id,
            kind: c.kind,
            peer_id: &c.peer_id,
            delivery_target: &c.delivery_target,
            thread_id: c.thread_id.as_deref(),
            native_channel_id: c.native_channel_id.as_deref(),
            native_direct_user_id: c.native_direct_user_id.as_deref(),
            label: c.label.as_deref(),
        },
        updated_at,
    )?;
    Ok(())
}

/// Link the window to the conversation (after the window row exists).
pub fn link_conversation(
    tx: &Transaction<'_>,
    c: &Conversation,
    session_id: &str,
    updated_at: i64,
) -> rusqlite::Result<()> {
    let role = if c.primary { "primary" } else { "participant" };
    if c.primary {
        crate::store::db::windows::set_primary_conversation(tx, session_id, &c.id)?;
    }
    conversations::link(tx, session_id, &c.id, role, updated_at)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row OpenClaw's import wrote for a folded telegram entry (IMPORT.md §1.3.1).
    #[test]
    fn telegram_direct_matches_openclaw() {
        let e: Map<String, Value> = crate::json_value::from_str(
            r#"{"displayName":"Disp","chatType":"direct","delivery":{"kind":"external","route":{"channel":"telegram","accountId":"default","target":{"to":"42"}},"context":{"channel":"telegram","to":"42","accountId":"default"},"origin":{"provider":"telegram","chatType":"direct","to":"42","accountId":"default","label":"Bob"}}}"#,
        )
        .unwrap();
        let c = conversation_of(&e, "conversation").unwrap();
        assert_eq!(c.id, "conv_56e1ee132fa57e8fcfbbc792fe0dfc5e");
        assert_eq!(
            (
                c.peer_id.as_str(),
                c.delivery_target.as_str(),
                c.label.as_deref()
            ),
            ("42", "42", Some("Disp"))
        );
        assert!(c.primary);
        assert_eq!(peer_id("slack", "Slack:user:U1 "), "U1");
    }
}
