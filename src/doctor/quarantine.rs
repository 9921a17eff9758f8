//! The repair of an unreadable `entry_json` (docs/openclaw/REFUSALS.md, "An unreadable
//! entry"). OpenClaw's doctor (its canonical-key repair, `hydrateCanonicalRepairEntry`)
//! rebuilds such an entry from the row's projected columns, its current window's and that
//! window's conversation's, and writes it back under the same key with the same session id,
//! so the transcript stays where it is. It keeps nothing of the unreadable text (its
//! `openclaw-quarantine.sqlite` holds whole-database verdicts, not rows). We rebuild the
//! entry the same way, and first keep the row as it was (key, session id, rowid, the stored
//! text byte for byte) in a file of ours, `<state>/openclaw-sessions-quarantine/<agent>/`,
//! which `show` prints back.

use std::path::{Path, PathBuf};

use rusqlite::types::Value as Sql;
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};

use crate::error::{Error, Result};
use crate::fsutil;
use crate::paths::StateLayout;
use crate::store::db::nodes::RepairRow;

/// Under the state dir, beside `openclaw-sessions-snapshots`.
pub const QUARANTINE_DIR: &str = "openclaw-sessions-quarantine";
const FORMAT: &str = "openclaw-sessions.quarantined-entry";

/// One quarantined row, as kept in its file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct QuarantinedEntry {
    pub format: String,
    pub version: u32,
    pub agent_id: String,
    pub session_key: String,
    pub session_id: String,
    /// `session_nodes.rowid` of the row when it was quarantined.
    pub rowid: i64,
    pub updated_at: Value,
    pub parse_error: String,
    /// The stored `entry_json`, byte for byte when it is UTF-8 ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_json: Option<String>,
    /// ... and as hex when it is not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry_json_hex: Option<String>,
    pub quarantined_at: i64,
    /// The entry written in its place.
    pub rebuilt_entry: Value,
    /// The file it was read from (not stored).
    #[serde(skip_deserializing, default)]
    pub file: PathBuf,
}

fn col<'a>(row: &'a RepairRow, name: &str) -> &'a Sql {
    row.columns.get(name).unwrap_or(&Sql::Null)
}

fn json_of(v: &Sql) -> Value {
    match v {
        Sql::Null => Value::Null,
        Sql::Integer(n) => json!(n),
        Sql::Real(f) => serde_json::Number::from_f64(*f).map_or(Value::Null, Value::Number),
        Sql::Text(t) => json!(t),
        Sql::Blob(b) => json!(String::from_utf8_lossy(b)),
    }
}

/// A JavaScript-truthy text column (`row.x ? ... : ...`).
fn truthy_text(row: &RepairRow, name: &str) -> Option<Value> {
    match col(row, name) {
        Sql::Text(t) if !t.is_empty() => Some(json!(t)),
        Sql::Integer(n) if *n != 0 => Some(json!(n)),
        Sql::Real(f) if *f != 0.0 && !f.is_nan() => Some(json_of(col(row, name))),
        _ => None,
    }
}

/// A column that is not NULL (`row.x !== null ? ... : ...`).
fn present(row: &RepairRow, name: &str) -> Option<Value> {
    Some(json_of(col(row, name))).filter(|v| !v.is_null())
}

fn actor(row: &RepairRow, ty: &str, id: &str) -> Option<Value> {
    let t = match col(row, ty) {
        Sql::Text(t) if matches!(t.as_str(), "human" | "agent" | "system") => t.clone(),
        _ => return None,
    };
    let id = match col(row, id) {
        Sql::Text(i) if !i.trim().is_empty() => i.trim().to_string(),
        _ => return None,
    };
    Some(json!({"type": t, "id": id}))
}

/// OpenClaw's `hydrateCanonicalRepairEntry` for a row whose entry does not parse: what the
/// stored text still says when it is an object, overlaid with every projected column.
pub fn hydrate_entry(row: &RepairRow) -> Map<String, Value> {
    let mut e: Map<String, Value> = crate::json_value::from_slice::<Value>(&row.raw_entry)
        .ok()
        .and_then(|v| v.as_object().cloned())
        .unwrap_or_default();
    let mut put = |k: &str, v: Option<Value>| {
        if let Some(v) = v {
            e.insert(k.to_string(), v);
        }
    };
    put("status", truthy_text(row, "status"));
    put("startedAt", present(row, "current_started_at"));
    put("endedAt", present(row, "current_ended_at"));
    put("chatType", truthy_text(row, "current_chat_type"));
    put("modelProvider", truthy_text(row, "current_model_provider"));
    put("model", truthy_text(row, "current_model"));
    put(
        "previousSessionId",
        truthy_text(row, "current_previous_session_id"),
    );
    put(
        "agentHarnessId",
        truthy_text(row, "current_agent_harness_id"),
    );
    let delivery = match (
        truthy_text(row, "delivery_channel"),
        truthy_text(row, "delivery_target"),
    ) {
        (Some(channel), Some(to)) => Some(crate::writer::transcript::delivery_from_context(
            Some(&channel),
            Some(&to),
            truthy_text(row, "delivery_account_id").as_ref(),
            truthy_text(row, "delivery_thread_id").as_ref(),
        )),
        _ => None,
    };
    put("delivery", delivery);
    put("createdAt", present(row, "created_at"));
    put("createdVia", truthy_text(row, "created_via"));
    let created_actor = truthy_text(row, "created_actor_type").map(|t| {
        let mut a = Map::new();
        a.insert("type".into(), t.clone());
        if t == "human" {
            a.insert("source".into(), json!("unknown"));
        }
        if let Some(id) = truthy_text(row, "created_actor_id") {
            a.insert("id".into(), id);
        }
        Value::Object(a)
    });
    put("createdActor", created_actor);
    let spawned_by = truthy_text(row, "spawned_by");
    put("spawnedBy", spawned_by.clone());
    put(
        "parentSessionKey",
        truthy_text(row, "parent_session_key").filter(|p| Some(p) != spawned_by.as_ref()),
    );
    let fork = match (
        truthy_text(row, "fork_source_session_key"),
        truthy_text(row, "fork_source_session_id"),
    ) {
        (Some(k), Some(id)) => {
            let mut f = Map::new();
            f.insert("sessionKey".into(), k);
            f.insert("sessionId".into(), id);
            if let Some(entry) = truthy_text(row, "fork_source_entry_id") {
                f.insert("entryId".into(), entry);
            }
            Some(Value::Object(f))
        }
        _ => None,
    };
    put("forkSource", fork);
    for (field, column) in [
        ("label", "label"),
        ("displayName", "display_name"),
        ("category", "category"),
        ("icon", "icon"),
    ] {
        put(field, truthy_text(row, column));
    }
    for (field, column) in [
        ("pinnedAt", "pinned_at"),
        ("archivedAt", "archived_at"),
        ("lastReadAt", "last_read_at"),
        ("lastInteractionAt", "last_interaction_at"),
        ("lastActivityAt", "last_activity_at"),
    ] {
        put(field, present(row, column));
    }
    put("sessionId", Some(json_of(col(row, "current_session_id"))));
    put("updatedAt", Some(json_of(col(row, "updated_at"))));
    if let Some(owner) = actor(row, "owner_actor_type", "owner_actor_id") {
        let mut o = Map::new();
        o.insert("actor".into(), owner);
        if let Some(by) = actor(row, "owner_assigned_by_type", "owner_assigned_by_id") {
            o.insert("assignedBy".into(), by);
        }
        if let Some(at) = present(row, "owner_assigned_at").filter(Value::is_number) {
            o.insert("assignedAt".into(), at);
        }
        e.insert("owner".into(), Value::Object(o));
    }
    e
}

impl QuarantinedEntry {
    pub fn new(
        agent_id: &str,
        session_key: &str,
        row: &RepairRow,
        parse_error: &str,
        rebuilt_entry: Value,
        now_ms: i64,
    ) -> Self {
        let (entry_json, entry_json_hex) = match std::str::from_utf8(&row.raw_entry) {
            Ok(s) => (Some(s.to_string()), None),
            Err(_) => (
                None,
                Some(row.raw_entry.iter().map(|b| format!("{b:02x}")).collect()),
            ),
        };
        QuarantinedEntry {
            format: FORMAT.into(),
            version: 1,
            agent_id: agent_id.into(),
            session_key: session_key.into(),
            session_id: json_of(col(row, "current_session_id"))
                .as_str()
                .unwrap_or_default()
                .to_string(),
            rowid: row.rowid,
            updated_at: json_of(col(row, "updated_at")),
            parse_error: parse_error.into(),
            entry_json,
            entry_json_hex,
            quarantined_at: now_ms,
            rebuilt_entry,
            file: PathBuf::new(),
        }
    }
}

fn agent_dir(layout: &StateLayout, agent: &str) -> PathBuf {
    layout.state_dir.join(QUARANTINE_DIR).join(agent)
}

/// A file name from the session id and time: only `[A-Za-z0-9._-]` of the id is kept.
fn file_name(q: &QuarantinedEntry) -> String {
    let id: String = q
        .session_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    format!("{id}.{}.entry.json", q.quarantined_at)
}

/// Write `q` as a new file (fsynced, published complete) and return its path.
pub fn write(layout: &StateLayout, q: &QuarantinedEntry) -> Result<PathBuf> {
    let dir = agent_dir(layout, &q.agent_id);
    fsutil::create_private_dir_all(&dir)?;
    let mut name = file_name(q);
    let mut n = 1;
    while dir.join(&name).symlink_metadata().is_ok() {
        n += 1;
        name = format!("{}.{n}.entry.json", name.trim_end_matches(".entry.json"));
    }
    let path = dir.join(name);
    let text = serde_json::to_string_pretty(q)
        .map_err(|e| Error::bad_input(format!("quarantine record: {e}"), None))?;
    fsutil::write_new_file(&path, &mut |w| {
        w.write_all(text.as_bytes())
            .and_then(|()| w.write_all(b"\n"))
            .map_err(|e| Error::io(&path, e))
    })?;
    fsutil::fsync_dir(&dir)?;
    Ok(path)
}

/// Every quarantined row of `agent` under `key`, oldest first. A file that does not read
/// as a quarantine record is skipped; one that is not a regular file is refused.
pub fn entries_for(layout: &StateLayout, agent: &str, key: &str) -> Result<Vec<QuarantinedEntry>> {
    let dir = agent_dir(layout, agent);
    let rd = match std::fs::read_dir(&dir) {
        Ok(rd) => rd,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(&dir, e)),
    };
    let mut out = Vec::new();
    for ent in rd {
        let ent = ent.map_err(|e| Error::io(&dir, e))?;
        let path = ent.path();
        if !path.to_string_lossy().ends_with(".entry.json") {
            continue;
        }
        let Some(mut q) = read(&path)? else { continue };
        if q.session_key == key {
            q.file = path;
            out.push(q);
        }
    }
    out.sort_by(|a, b| (a.quarantined_at, &a.file).cmp(&(b.quarantined_at, &b.file)));
    Ok(out)
}

/// A record, or None for a file that does not read as one. A FIFO, device or socket (or a
/// symbolic link) in the quarantine is refused, naming it, instead of blocking the read.
fn read(path: &Path) -> Result<Option<QuarantinedEntry>> {
    let text = match fsutil::read_regular_to_string(path) {
        Ok(t) => t,
        Err(e @ Error::UnsafePath { .. }) => return Err(e),
        Err(_) => return Ok(None),
    };
    let Ok(q) = crate::json_value::from_str::<QuarantinedEntry>(&text) else {
        return Ok(None);
    };
    Ok((q.format == FORMAT).then_some(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(cols: &[(&str, Sql)], raw: &str) -> RepairRow {
        RepairRow {
            rowid: 7,
            raw_entry: raw.as_bytes().to_vec(),
            columns: cols
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        }
    }

    fn t(s: &str) -> Sql {
        Sql::Text(s.into())
    }

    #[test]
    fn hydrates_every_projection_as_openclaw_does() {
        let r = row(
            &[
                ("current_session_id", t("s1")),
                ("updated_at", Sql::Integer(5)),
                ("status", t("")),
                ("label", t("L")),
                ("pinned_at", Sql::Integer(0)),
                ("created_actor_type", t("human")),
                ("created_actor_id", t("u1")),
                ("spawned_by", t("agent:main:main")),
                ("parent_session_key", t("agent:main:main")),
                ("fork_source_session_key", t("agent:main:x")),
                ("fork_source_session_id", t("s0")),
                ("owner_actor_type", t("agent")),
                ("owner_actor_id", t(" a1 ")),
                ("owner_assigned_at", Sql::Integer(3)),
                ("delivery_channel", t("telegram")),
                ("delivery_target", t("42")),
                ("delivery_account_id", t("default")),
            ],
            "{\"oops\":",
        );
        let e = Value::Object(hydrate_entry(&r));
        assert_eq!(e["sessionId"], "s1");
        assert_eq!(e["updatedAt"], 5);
        assert!(e.get("status").is_none(), "an empty text is not projected");
        assert_eq!(e["pinnedAt"], 0, "a number column is, even 0");
        assert_eq!(
            e["createdActor"],
            json!({"type": "human", "source": "unknown", "id": "u1"})
        );
        assert_eq!(e["spawnedBy"], "agent:main:main");
        assert!(
            e.get("parentSessionKey").is_none(),
            "equal to spawnedBy: left out"
        );
        assert_eq!(
            e["forkSource"],
            json!({"sessionKey": "agent:main:x", "sessionId": "s0"})
        );
        assert_eq!(
            e["owner"],
            json!({"actor": {"type": "agent", "id": "a1"}, "assignedAt": 3})
        );
        assert_eq!(e["delivery"]["kind"], "external");
        assert_eq!(
            e["delivery"]["context"],
            json!({"channel": "telegram", "to": "42", "accountId": "default"})
        );
        // What the stored text still says as an object is kept under the columns.
        let r = row(
            &[("current_session_id", t("s1")), ("label", t("col"))],
            "{\"label\":\"old\",\"note\":1,\"sessionId\":7}",
        );
        let e = hydrate_entry(&r);
        assert_eq!(e["label"], "col");
        assert_eq!(e["note"], 1);
        assert_eq!(e["sessionId"], "s1");
    }
}
