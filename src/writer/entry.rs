//! OpenClaw's session entry writer (`writeSessionEntry`, `bindSessionNode`,
//! `bindSessionRoot`): canonical `entry_json`, every projected `session_nodes` column,
//! the window row, `entry_valid = 1` after the triggers reset it, then certification.

use rusqlite::Transaction;
use serde_json::{Map, Value};

use super::entry_fields::{DROPPED_PROJECTIONS, LEGACY_DELIVERY_FIELDS};
use crate::error::{Result, ResultExt};
use crate::store::db::{nodes, windows};
use crate::store::SessionEntry;

pub const ARCHIVE_REASONS: [&str; 5] = [
    "manual",
    "active-session-cap",
    "age-retention",
    "stale-dashboard",
    "restart-recovery",
];

/// The entry as OpenClaw stores it: `delivery` defaulted, retired fields dropped,
/// archive metadata only alongside `archivedAt`. Key order is kept.
pub fn canonical_entry(mut fields: Map<String, Value>) -> Map<String, Value> {
    if !fields.contains_key("delivery")
        && !LEGACY_DELIVERY_FIELDS
            .iter()
            .any(|k| fields.contains_key(*k))
    {
        fields.insert("delivery".into(), serde_json::json!({"kind": "none"}));
    }
    for f in DROPPED_PROJECTIONS {
        fields.shift_remove(f);
    }
    if fields.contains_key("archivedAt") {
        let keep = fields
            .get("archiveReason")
            .and_then(Value::as_str)
            .is_some_and(|r| ARCHIVE_REASONS.contains(&r));
        if !keep {
            fields.shift_remove("archiveReason");
        }
    } else {
        fields.shift_remove("archivedBy");
        fields.shift_remove("archiveReason");
    }
    // A public share belongs to exactly one generation.
    let share_ok = fields
        .get("publicShare")
        .and_then(|s| s.get("sessionId"))
        .is_some_and(|id| Some(id) == fields.get("sessionId"));
    if !share_ok {
        fields.shift_remove("publicShare");
    }
    fields
}

use crate::json_value::{finite as num, text};

/// A JS number as SQLite gets it: integral values as INTEGER.
fn sql_num(v: Option<f64>) -> rusqlite::types::Value {
    match v {
        None => rusqlite::types::Value::Null,
        Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => {
            rusqlite::types::Value::Integer(f as i64)
        }
        Some(f) => rusqlite::types::Value::Real(f),
    }
}

fn status(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str)
        .filter(|s| matches!(*s, "running" | "done" | "failed" | "killed" | "timeout"))
        .map(String::from)
}

fn chat_type(e: &Map<String, Value>) -> Option<&str> {
    e.get("chatType")
        .and_then(Value::as_str)
        .filter(|c| matches!(*c, "direct" | "group" | "channel"))
}

fn delivery_context(e: &Map<String, Value>) -> Option<&Map<String, Value>> {
    let d = e.get("delivery")?;
    if d.get("kind").and_then(Value::as_str) != Some("external") {
        return None;
    }
    d.get("context").and_then(Value::as_object)
}

/// Every `session_nodes` column the writer projects from an entry (`bindSessionNode`),
/// as SQLite values, in table order.
pub fn project_node_columns(e: &Map<String, Value>) -> Vec<(&'static str, rusqlite::types::Value)> {
    use rusqlite::types::Value as V;
    let t = |v: Option<String>| v.map_or(V::Null, V::Text);
    let actor = e.get("createdActor");
    vec![
        (
            "current_session_id",
            t(e.get("sessionId").and_then(Value::as_str).map(String::from)),
        ),
        ("updated_at", sql_num(num(e.get("updatedAt")))),
        ("status", t(status(e.get("status")))),
        ("created_at", sql_num(num(e.get("createdAt")))),
        (
            "created_via",
            t(e.get("createdVia")
                .and_then(Value::as_str)
                .filter(|v| {
                    matches!(
                        *v,
                        "operator"
                            | "spawn"
                            | "channel"
                            | "cron"
                            | "talk"
                            | "run"
                            | "plugin"
                            | "internal"
                    )
                })
                .map(String::from)),
        ),
        (
            "created_actor_type",
            t(actor
                .and_then(|a| a.get("type"))
                .and_then(Value::as_str)
                .filter(|v| matches!(*v, "human" | "agent" | "system"))
                .map(String::from)),
        ),
        ("created_actor_id", t(text(actor.and_then(|a| a.get("id"))))),
        ("project_id", t(text(e.get("projectId")))),
        (
            "parent_session_key",
            t(text(e.get("parentSessionKey")).or_else(|| text(e.get("spawnedBy")))),
        ),
        ("spawned_by", t(text(e.get("spawnedBy")))),
        (
            "fork_source_session_key",
            t(text(e.get("forkSource").and_then(|f| f.get("sessionKey")))),
        ),
        (
            "fork_source_session_id",
            t(text(e.get("forkSource").and_then(|f| f.get("sessionId")))),
        ),
        (
            "fork_source_entry_id",
            t(text(e.get("forkSource").and_then(|f| f.get("entryId")))),
        ),
        ("label", t(text(e.get("label")))),
        ("display_name", t(text(e.get("displayName")))),
        ("category", t(text(e.get("category")))),
        ("icon", t(text(e.get("icon")))),
        ("pinned_at", sql_num(num(e.get("pinnedAt")))),
        ("archived_at", sql_num(num(e.get("archivedAt")))),
        ("last_read_at", sql_num(num(e.get("lastReadAt")))),
        (
            "last_interaction_at",
            sql_num(num(e.get("lastInteractionAt"))),
        ),
        ("last_activity_at", sql_num(num(e.get("lastActivityAt")))),
    ]
}

/// Update a node's projected columns from its entry (and `entry_json`, when given), then set
/// `entry_valid = 1` again, since the triggers reset it on entry and identity updates.
pub fn write_node(
    tx: &Transaction<'_>,
    path: &std::path::Path,
    key: &str,
    e: &Map<String, Value>,
    entry_json: Option<&str>,
) -> Result<()> {
    nodes::update_projection(tx, key, entry_json, project_node_columns(e)).at(path)?;
    nodes::set_entry_valid(tx, key).at(path)?;
    Ok(())
}

/// Certify a key as OpenClaw's writers do, as the last step of the transaction (a schema
/// before canonical-key validation has nothing to certify).
pub fn certify(tx: &Transaction<'_>, path: &std::path::Path, key: &str) -> Result<()> {
    if super::AgentSchema::of(tx)
        .at(path)?
        .validates_canonical_keys()
    {
        nodes::certify(tx, key).at(path)?;
    }
    Ok(())
}

/// Columns OpenClaw's row validator compares with the entry: out of step, every reader fails.
pub const LINEAGE_COLUMNS: [&str; 5] = [
    "current_session_id",
    "updated_at",
    "parent_session_key",
    "spawned_by",
    "fork_source_session_key",
];

/// Write `entry` under `key` (which exists with `previous`) in the open transaction.
pub fn write_entry(
    tx: &Transaction<'_>,
    path: &std::path::Path,
    key: &str,
    entry: &SessionEntry,
    previous: &SessionEntry,
) -> Result<Map<String, Value>> {
    let e = write_entry_uncertified(tx, path, key, entry, previous)?;
    certify(tx, path, key)?;
    Ok(e)
}

/// [`write_entry`] without the certification: the key stays on the canonical-validation
/// queue where the schema has one (what 2026.9.5's doctor leaves after a repair).
pub fn write_entry_uncertified(
    tx: &Transaction<'_>,
    path: &std::path::Path,
    key: &str,
    entry: &SessionEntry,
    previous: &SessionEntry,
) -> Result<Map<String, Value>> {
    let mut e = canonical_entry(entry.fields.clone());
    // The creation stamp is immutable once a row exists.
    for f in ["createdVia", "createdActor", "createdAt"] {
        if let Some(v) = previous.fields.get(f) {
            e.insert(f.to_string(), v.clone());
        }
    }
    let session_id = e
        .get("sessionId")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let updated_at = num(e.get("updatedAt")).unwrap_or(0.0);
    let size_hint = previous.stored_json.as_ref().map_or(128, |s| s.len() + 256);
    let entry_json = crate::json_value::map_to_json_sized(&e, size_hint);
    write_node(tx, path, key, &e, Some(&entry_json))?;
    drop(entry_json);
    write_window(tx, path, key, &e, &session_id, updated_at, None)?;
    Ok(e)
}

/// The window's `session_scope`: a direct chat on the main key is shared; group and channel
/// chats are their own scope; everything else is one conversation.
pub fn session_scope(key: &str, e: &Map<String, Value>) -> &'static str {
    let lower_key = key.trim().to_lowercase();
    match chat_type(e) {
        Some("direct") if lower_key == "main" || lower_key.ends_with(":main") => "shared-main",
        Some("group") => "group",
        Some("channel") => "channel",
        _ => "conversation",
    }
}

/// `retainWindow`: upsert the generation's window, keeping its owner and creation time.
/// `observed_at` overrides the transcript clock a writer would carry over (an import
/// claims the window afresh).
pub fn write_window(
    tx: &Transaction<'_>,
    path: &std::path::Path,
    key: &str,
    e: &Map<String, Value>,
    session_id: &str,
    updated_at: f64,
    observed_at: Option<f64>,
) -> Result<()> {
    let existing = windows::existing(tx, session_id).at(path)?;
    let hook = e
        .get("hookExternalContentSource")
        .and_then(Value::as_str)
        .map(|h| if h == "email" { "webhook" } else { h });
    let mut provenance = 1i64;
    let mut acp_owned =
        i64::from(e.contains_key("acp") && !e.get("acp").is_some_and(Value::is_null));
    let mut plugin_owner = text(e.get("pluginOwnerId"));
    let mut hook_source = hook
        .filter(|h| matches!(*h, "gmail" | "webhook"))
        .map(String::from);
    match &existing {
        // A window that never came from an entry stays that way (same generation).
        Some((0, ..)) => {
            provenance = 0;
            acp_owned = 0;
            plugin_owner = None;
            hook_source = None;
        }
        Some((1, acp, plugin, hook, ..)) => {
            if *acp == 1 {
                acp_owned = 1;
            }
            plugin_owner = plugin_owner.or_else(|| plugin.clone());
            hook_source = hook_source.or_else(|| hook.clone());
        }
        _ => {}
    }
    let transcript_observed_at = observed_at.unwrap_or_else(|| {
        existing
            .as_ref()
            .and_then(|x| x.4)
            .map(|v| v as f64)
            .unwrap_or(updated_at)
    });
    // Conversation routing is not rewritten offline: keep an existing link.
    let primary_conversation = existing.as_ref().and_then(|x| x.5.clone());
    let chat = chat_type(e);
    let scope = session_scope(key, e);
    let created_at = ["sessionStartedAt", "startedAt", "updatedAt"]
        .iter()
        .find_map(|f| num(e.get(*f)).filter(|v| *v >= 0.0))
        .unwrap_or(updated_at);
    let ctx = delivery_context(e);
    let channel = ctx
        .and_then(|c| text(c.get("channel")))
        .or_else(|| text(e.get("channel")));
    let account = ctx.and_then(|c| text(c.get("accountId")));
    let display = text(e.get("displayName"))
        .or_else(|| text(e.get("label")))
        .or_else(|| text(e.get("subject")))
        .or_else(|| text(e.get("groupId")));
    windows::upsert(
        tx,
        &windows::WindowUpsert {
            session_id,
            session_key: key,
            created_at: sql_num(Some(created_at)),
            updated_at: sql_num(Some(updated_at)),
            session_entry_provenance: provenance,
            acp_owned,
            plugin_owner_id: plugin_owner,
            hook_external_content_source: hook_source,
            previous_session_id: text(e.get("previousSessionId")),
            session_scope: scope,
            started_at: sql_num(num(e.get("startedAt"))),
            ended_at: sql_num(num(e.get("endedAt"))),
            status: status(e.get("status")),
            chat_type: chat,
            channel,
            account_id: account,
            model_provider: text(e.get("modelProvider")),
            model: text(e.get("model")),
            agent_harness_id: text(e.get("agentHarnessId")),
            parent_session_key: text(e.get("parentSessionKey")),
            spawned_by: text(e.get("spawnedBy")),
            display_name: display,
            primary_conversation_id: primary_conversation,
            transcript_observed_at: sql_num(Some(transcript_observed_at)),
        },
    )
    .at(path)?;
    Ok(())
}
