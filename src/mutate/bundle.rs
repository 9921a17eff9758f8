//! `bundle import`: the sessions of a bundle (docs/BUNDLE.md) written into an agent's
//! database as that database's release holds a session created there: node, entry,
//! conversation and window through the entry writer, every event through the one event
//! appender (payload, identities, watermark, search rows, index), exactly as `undelete`
//! writes them. The bundle is verified to its end before the plan exists, and read and
//! verified again while the rows are written: all sessions go in one transaction, committed
//! only when the second reading checked out too.

use std::path::{Path, PathBuf};

use rusqlite::Transaction;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::error::{Error, Remedy, Result, ResultExt};
use crate::formats::bundle::{read_bundle, Manifest, Member};
use crate::formats::session_key;
use crate::store::db::{nodes, windows};
use crate::store::{AgentSchema, AgentStore};
use crate::writer::transcript::{event_time, EventAppender, SearchRows, Stored};
use crate::writer::{canonical_entry, certify, crash_point, WritableDb};

use super::restore::write_session_rows;

/// What one session of the bundle becomes.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportSession {
    pub source_key: String,
    pub source_session_id: String,
    pub key: String,
    pub session_id: String,
    pub events: u64,
    /// Absolute paths of the source machine the entry carries.
    pub absolute_paths: usize,
    #[serde(skip)]
    pub entry: Map<String, Value>,
}

/// What an import will write.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleImportPlan {
    pub agent_id: String,
    pub bundle: PathBuf,
    pub manifest: Manifest,
    pub sessions: Vec<ImportSession>,
}

/// What it wrote.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BundleImportReport {
    pub sessions: u64,
    pub events: u64,
    pub compressed: u64,
}

/// How the sessions are named in the destination.
#[derive(Debug, Clone, Default)]
pub struct ImportNames {
    /// `--as KEY`: the one session's key.
    pub as_key: Option<String>,
    /// `--new-ids`: fresh session ids, as OpenClaw creates them.
    pub new_ids: bool,
}

fn conflict(message: String, hint: Option<String>) -> Error {
    Error::Conflict { message, hint }
}

/// The key in `agent_id`: `--as` (qualified when bare, lower-cased as OpenClaw's writers
/// store keys), else the source key with its agent part replaced.
fn destination_key(agent_id: &str, source_key: &str, as_key: Option<&str>) -> Result<String> {
    let raw = match as_key {
        Some(k) => session_key::normalize_store_key(k),
        None => match session_key::parse_agent_key_parts(source_key) {
            Some((_, rest)) => format!("agent:{agent_id}:{rest}"),
            None => source_key.to_string(),
        },
    };
    super::restore::key_in_agent(agent_id, raw)
}

/// A bundle read and verified to its end: its manifest and its sessions' entries (the events
/// are read again when they are written).
#[derive(Debug, Clone)]
pub struct VerifiedBundle {
    pub path: PathBuf,
    pub manifest: Manifest,
    entries: Vec<String>,
}

/// Read and verify the bundle at `path` (before custody: a bundle that does not verify is
/// refused without a trace).
pub fn verify_bundle_file(path: &Path) -> Result<VerifiedBundle> {
    let mut entries: Vec<String> = Vec::new();
    let manifest = read_bundle(path, |_, m| {
        if let Member::Entry { entry_json, .. } = m {
            entries.push(entry_json);
        }
        Ok(())
    })?;
    Ok(VerifiedBundle {
        path: path.to_path_buf(),
        manifest,
        entries,
    })
}

/// Plan importing a verified bundle into `store` (reads only): a taken key or session id, a
/// label in use, a key or lineage OpenClaw's writer would refuse, are refused before any
/// change.
pub fn plan_bundle_import(
    store: &AgentStore,
    verified: &VerifiedBundle,
    names: &ImportNames,
) -> Result<BundleImportPlan> {
    let agent_id = store.paths.id.to_string();
    let Some(db) = store.db() else {
        return Err(Error::UnsupportedSchema {
            message: format!("agent {agent_id} has only a legacy store"),
            hint: Some("import it first with the legacy import".into()),
        }
        .with_remedy(Remedy::ImportLegacy));
    };
    let bundle = verified.path.as_path();
    let manifest = verified.manifest.clone();
    let entries = verified.entries.iter().cloned();
    if names.as_key.is_some() && manifest.sessions.len() != 1 {
        return Err(Error::InvalidArgument {
            message: format!(
                "--as names one session; bundle {} holds {}",
                bundle.display(),
                manifest.sessions.len()
            ),
            hint: None,
        });
    }
    let conn = db.conn();
    let contract_main =
        session_key::normalize_main_key(crate::store::db::meta::contract_main_key(conn).as_deref());
    // A label stays unique in its store, as OpenClaw's writers keep it.
    let mut labelled: Vec<(String, String)> = Vec::new();
    store.for_each_session(Some(&["sessionId", "updatedAt", "label"]), |e| {
        if let Some(label) = e.label() {
            labelled.push((label.to_string(), e.key.clone()));
        }
        Ok(std::ops::ControlFlow::Continue(()))
    })?;
    let mut sessions: Vec<ImportSession> = Vec::new();
    for (s, entry_json) in manifest.sessions.iter().zip(entries) {
        let key = destination_key(&agent_id, &s.key, names.as_key.as_deref())?;
        if let Some(why) = session_key::write_refusal(&key, &contract_main) {
            return Err(session_key::refusal_error(why));
        }
        if sessions.iter().any(|o| o.key == key) {
            return Err(Error::bad_input(
                format!("bundle {} holds key {key} twice", bundle.display()),
                None,
            ));
        }
        if let Some(live) = nodes::current_session_id(conn, &key).at(db.path())? {
            return Err(conflict(
                format!("key {key} is taken in agent {agent_id} (session {live})"),
                Some("import it under a free key with --as KEY".into()),
            ));
        }
        let session_id = if names.new_ids {
            uuid::Uuid::new_v4().to_string()
        } else {
            let sid = s.session_id.clone();
            if !crate::legacy::is_safe_session_id(&sid) {
                return Err(Error::unsafe_path(format!(
                    "bundle {}: session id {sid:?} is not one OpenClaw accepts",
                    bundle.display()
                )));
            }
            if windows::exists(conn, &sid).at(db.path())?
                || crate::store::db::events::any(conn, &sid).at(db.path())?
                || sessions.iter().any(|o| o.session_id == sid)
            {
                return Err(conflict(
                    format!("session id {sid} is taken in agent {agent_id}"),
                    Some("give the imported sessions new ids with --new-ids".into()),
                ));
            }
            sid
        };
        let Ok(Value::Object(fields)) = crate::json_value::from_str::<Value>(&entry_json) else {
            return Err(Error::bad_input(
                format!(
                    "bundle {}: the entry of {} is not a JSON object",
                    bundle.display(),
                    s.key
                ),
                None,
            ));
        };
        let mut entry = canonical_entry(fields);
        entry.insert("sessionId".into(), Value::String(session_id.clone()));
        if let Some(why) = session_key::entry_lineage_refusal(&entry, &contract_main) {
            return Err(session_key::refusal_error(format!(
                "the entry of {key}: {why}"
            )));
        }
        if let Some(Value::String(label)) = entry.get("label") {
            if let Some((_, owner)) = labelled.iter().find(|(l, _)| l == label) {
                return Err(conflict(
                    format!("label already in use: {label} (session {owner} in agent {agent_id})"),
                    Some(format!(
                        "change the label of {owner} here, or of {} at the source, then import again",
                        s.key
                    )),
                ));
            }
            labelled.push((label.clone(), key.clone()));
        }
        sessions.push(ImportSession {
            source_key: s.key.clone(),
            source_session_id: s.session_id.clone(),
            key,
            session_id,
            events: s.events,
            absolute_paths: s.absolute_paths.len(),
            entry,
        });
    }
    Ok(BundleImportPlan {
        agent_id,
        bundle: bundle.to_path_buf(),
        manifest,
        sessions,
    })
}

/// The session being written while the bundle is read.
struct Open {
    index: usize,
    appender: EventAppender,
    search: SearchRows,
    position: i64,
    last_time: Option<i64>,
}

fn close(tx: &Transaction<'_>, path: &Path, sessions: &[ImportSession], open: Open) -> Result<()> {
    let mut search = open.search;
    open.appender.finish(tx, &mut search).at(path)?;
    search.flush(tx).at(path)?;
    if let Some(t) = open.last_time {
        windows::advance_transcript_updated_at(tx, &sessions[open.index].session_id, t).at(path)?;
    }
    Ok(())
}

/// The event's text with the session header's id replaced (`--new-ids`).
fn renamed_header(event: &mut Value, session_id: &str) -> Option<String> {
    if event.get("type").and_then(Value::as_str) != Some("session") {
        return None;
    }
    let obj = event.as_object_mut()?;
    obj.insert("id".into(), Value::String(session_id.to_string()));
    serde_json::to_string(event).ok()
}

/// Write the planned sessions in one transaction.
pub fn apply_bundle_import(
    db: &mut WritableDb,
    plan: &BundleImportPlan,
    now_ms: i64,
) -> Result<BundleImportReport> {
    let path = db.path.clone();
    let schema: AgentSchema = db.schema();
    let tx = db.transaction()?;
    for s in &plan.sessions {
        // Re-checked inside the transaction: nothing took the key or the id meanwhile.
        if nodes::current_session_id(&tx, &s.key).at(&path)?.is_some()
            || windows::exists(&tx, &s.session_id).at(&path)?
        {
            return Err(conflict(
                format!(
                    "session {} or transcript {} appeared while the import was being planned",
                    s.key, s.session_id
                ),
                Some("run the command again".into()),
            ));
        }
    }
    let mut report = BundleImportReport::default();
    let mut open: Option<Open> = None;
    let sessions = &plan.sessions;
    let manifest = read_bundle(&plan.bundle, |_, member| {
        match member {
            Member::Entry { session, .. } => {
                if let Some(o) = open.take() {
                    close(&tx, &path, sessions, o)?;
                }
                let s = sessions.get(session).ok_or_else(|| {
                    Error::bad_input("the bundle changed since it was planned", None)
                })?;
                write_session_rows(&tx, &path, &s.key, &s.session_id, &s.entry)?;
                crash_point("bundle-import-session");
                open = Some(Open {
                    index: session,
                    appender: EventAppender::load_for(&tx, schema, &s.session_id, now_ms)
                        .at(&path)?,
                    search: SearchRows::for_schema(schema),
                    position: 0,
                    last_time: None,
                });
                report.sessions += 1;
            }
            Member::Event {
                session,
                event_json,
                ..
            } => {
                let o = open
                    .as_mut()
                    .filter(|o| o.index == session)
                    .ok_or_else(|| Error::Internal("an event outside its session".into()))?;
                let s = &sessions[session];
                let mut event: Value = crate::json_value::from_str(&event_json).map_err(|e| {
                    Error::bad_input(format!("bundle event of {}: {e}", s.source_key), None)
                })?;
                let renamed = if s.session_id != s.source_session_id && o.position == 0 {
                    renamed_header(&mut event, &s.session_id)
                } else {
                    None
                };
                let json = renamed.as_deref().unwrap_or(&event_json);
                let created_at = event_time(&event, now_ms);
                let stored = o
                    .appender
                    .append(&tx, &mut o.search, o.position, json, &event, created_at)
                    .at(&path)?;
                if stored == Stored::Compressed {
                    report.compressed += 1;
                }
                o.position += 1;
                o.last_time = Some(created_at);
                report.events += 1;
                if report.events == 1 {
                    crash_point("bundle-import-first-event");
                }
            }
        }
        Ok(())
    })?;
    if let Some(o) = open.take() {
        close(&tx, &path, sessions, o)?;
    }
    if manifest != plan.manifest {
        return Err(Error::bad_input(
            format!(
                "bundle {} changed since it was planned",
                plan.bundle.display()
            ),
            Some("nothing was changed; run the command again".to_string()),
        ));
    }
    if schema.validates_canonical_keys() {
        for s in sessions {
            certify(&tx, &path, &s.key)?;
        }
    }
    crash_point("bundle-import-before-commit");
    tx.commit().at(&path)?;
    crash_point("bundle-import-after-commit");
    Ok(report)
}
