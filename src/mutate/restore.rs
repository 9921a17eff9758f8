//! Bringing a deleted session back from its archive (`undelete`), writing what OpenClaw's
//! own writers write for a session (docs/openclaw/ARCHIVES.md, "Undelete"): the node and its
//! entry, the window, the conversation of an external route, every event (zstd frames where
//! OpenClaw would store them), their identities, the rewrite watermark, and the projections
//! (active branch, index state, search rows). One transaction: the session is absent or
//! whole; the archive is only read.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use rusqlite::Transaction;
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::error::{Error, Remedy, Result, ResultExt};
use crate::formats::session_key;
use crate::formats::SessionEntry;
use crate::history::{ArchivedTranscript, Reason};
use crate::legacy::{for_each_index_entry, is_safe_session_id, IndexSource};
use crate::store::db::{events, nodes, windows};
use crate::store::{AgentStore, ReadOnlyDb};
use crate::transcript::for_each_archived;
use crate::writer::kept_entry::read_kept_entry;
use crate::writer::transcript::{
    conversation_of, event_time, link_conversation, write_conversation, EventAppender, SearchRows,
    Stored,
};
use crate::writer::{
    canonical_entry, certify, crash_point, normalise_entry, session_scope, write_node, WritableDb,
};

/// Where the restored entry came from.
#[derive(Debug, Clone, Serialize)]
#[serde(
    tag = "kind",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum EntrySource {
    /// The entry `delete` kept with this archive: the session as it was at deletion.
    Deleted { path: PathBuf, deleted_at: String },
    /// The newest snapshot that still holds the session; `at_deletion` when it holds the
    /// very entry `delete` kept (the deletion's own snapshot).
    Snapshot {
        path: PathBuf,
        created_at: String,
        at_deletion: bool,
    },
    /// The `sessions.json` the legacy import moved aside.
    ImportIndex { path: PathBuf },
    /// None: the smallest entry OpenClaw accepts (`sessionId`, `updatedAt`).
    Minimal,
}

impl EntrySource {
    /// Where the entry comes from, and, when it is not the one kept at deletion, that it is
    /// older and how old (`updated_at`: the entry's `updatedAt`).
    pub fn describe(&self, updated_at: Option<i64>, now_ms: i64) -> String {
        let age = |ms: i64| {
            format!(
                "{} ({} ago)",
                crate::units::iso_from_ms(ms),
                crate::units::format_age(now_ms - ms)
            )
        };
        let updated = updated_at
            .map(|t| format!(", last updated {}", age(t)))
            .unwrap_or_default();
        match self {
            EntrySource::Deleted { deleted_at, .. } => {
                format!("the entry as it was at deletion ({deleted_at})")
            }
            EntrySource::Snapshot {
                path,
                created_at,
                at_deletion: true,
            } => format!(
                "the entry as it was at deletion, from snapshot {} taken {created_at}",
                path.display()
            ),
            EntrySource::Snapshot {
                path, created_at, ..
            } => format!(
                "no entry was kept at deletion: an older entry from snapshot {} taken {created_at}{updated}",
                path.display()
            ),
            EntrySource::ImportIndex { path } => format!(
                "no entry was kept at deletion: an older entry from the import's index {}{updated}",
                path.display()
            ),
            EntrySource::Minimal => {
                "no entry was kept at deletion and no snapshot or index holds it: a minimal entry (sessionId, updatedAt)".into()
            }
        }
    }
}

/// What an undelete will write.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UndeletePlan {
    pub agent_id: String,
    pub session_key: String,
    pub session_id: String,
    pub archive: String,
    pub events: u64,
    pub entry_source: EntrySource,
    /// The restored entry's `updatedAt` (milliseconds).
    pub entry_updated_at: Option<i64>,
    #[serde(skip)]
    pub entry: Map<String, Value>,
    /// The key stays uncertified (still waiting for OpenClaw's key validation), as in the
    /// source: a snapshot that holds it so, or the import, which leaves keys so.
    #[serde(skip)]
    pub pending_validation: bool,
    /// The snapshot database whose node and window rows are copied as they are (the entry
    /// came from a snapshot): columns no entry writer sets (an import's ACP provenance, the
    /// window's creation time) come back too.
    #[serde(skip)]
    pub copy_from: Option<PathBuf>,
    #[serde(skip)]
    pub archived: ArchivedTranscript,
}

/// What it wrote.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UndeleteReport {
    pub events: u64,
    pub compressed: u64,
}

fn conflict(message: String, hint: Option<String>) -> Error {
    Error::Conflict { message, hint }
}

/// The key the session comes back under: `--as` (qualified with the agent when bare,
/// lower-cased as OpenClaw's writers store keys), else the key the archive names.
fn target_key(
    agent_id: &str,
    archived: &ArchivedTranscript,
    as_key: Option<&str>,
) -> Result<String> {
    let raw = match as_key {
        Some(k) => crate::formats::session_key::normalize_store_key(k),
        None => archived
            .session_key
            .clone()
            .ok_or_else(|| Error::InvalidArgument {
                message: format!(
                    "archive {} does not say which session key it belonged to",
                    archived.name
                ),
                hint: Some("name the key it should come back under with --as".into()),
            })?,
    };
    key_in_agent(agent_id, raw)
}

/// `raw` as a key of `agent_id`: qualified with the agent when bare, refused when empty or
/// when it names another agent (shared by `undelete --as` and `bundle import --as`).
pub(crate) fn key_in_agent(agent_id: &str, raw: String) -> Result<String> {
    if raw.is_empty() {
        return Err(Error::InvalidArgument {
            message: "the key is empty".into(),
            hint: None,
        });
    }
    // `global` and `unknown` are stored bare, as OpenClaw stores them.
    let key = if raw.starts_with("agent:") || session_key::SENTINEL_KEYS.contains(&raw.as_str()) {
        raw
    } else {
        format!("agent:{agent_id}:{raw}")
    };
    if !key.starts_with(&format!("agent:{agent_id}:"))
        && !session_key::SENTINEL_KEYS.contains(&key.as_str())
    {
        return Err(Error::InvalidArgument {
            message: format!("key {key} belongs to another agent than {agent_id}"),
            hint: Some("select the agent with --agent".into()),
        });
    }
    Ok(key)
}

/// The archive's sha256 (when recorded) and events, read to the end; its first event must
/// be the header of this session.
fn verify_archive(store: &AgentStore, a: &ArchivedTranscript) -> Result<(u64, Option<i64>)> {
    let db = store.paths.db.as_path();
    let conn = store.db().map(ReadOnlyDb::conn);
    let bad = |why: String| {
        Error::bad_input(
            format!("archive {} does not verify: {why}", a.name),
            Some("nothing was changed; the archive is kept as it is".to_string()),
        )
    };
    if let Some(expected) = &a.sha256 {
        use sha2::{Digest, Sha256};
        let mut h = Sha256::new();
        let mut raw = a.body.open_on(conn, db)?;
        std::io::copy(&mut raw, &mut h).at(a.body.display_path(db))?;
        let got = crate::units::hex(&h.finalize());
        if &got != expected {
            return Err(bad(format!("sha256 {got}, recorded {expected}")));
        }
    }
    let mut n = 0u64;
    let mut last_time = None;
    let mut header_problem = None;
    for_each_archived(&a.body, a.encoding, conn, db, 0, &mut |ev| {
        let v: Value = crate::json_value::from_str(&ev.json).unwrap_or(Value::Null);
        if n == 0
            && (v.get("type").and_then(Value::as_str) != Some("session")
                || v.get("id").and_then(Value::as_str) != Some(a.session_id.as_str()))
        {
            header_problem = Some("its first event is not this session's header".to_string());
        }
        if let Some(Value::String(t)) = v.get("timestamp") {
            last_time = crate::units::parse_js_date(t).or(last_time);
        }
        n += 1;
        Ok(ControlFlow::Continue(()))
    })
    .map_err(|e| bad(e.to_string()))?;
    if let Some(p) = header_problem {
        return Err(bad(p));
    }
    if n == 0 {
        return Err(bad("it holds no events".into()));
    }
    Ok((n, last_time))
}

/// An entry found in a source, with the window clocks and the validation state it had.
struct FoundEntry {
    fields: Map<String, Value>,
    source: EntrySource,
    pending_validation: bool,
}

/// A snapshot of the agent's database that may hold an entry of the session.
#[derive(Debug, Clone)]
pub struct AgentSnapshot {
    /// The snapshot's directory (what the plan names).
    pub dir: PathBuf,
    /// Its database file.
    pub db: PathBuf,
    /// When it was taken (its manifest's ISO time).
    pub created_at: String,
}

/// The entry of `session_id` in the newest of `snapshots` that holds it.
fn entry_from_snapshots(
    snapshots: &[AgentSnapshot],
    key: &str,
    session_id: &str,
) -> Option<FoundEntry> {
    let mut found: Vec<&AgentSnapshot> = snapshots.iter().collect();
    found.sort_by(|a, b| b.created_at.cmp(&a.created_at));
    for snapshot in found {
        let (created_at, dir) = (snapshot.created_at.clone(), snapshot.dir.clone());
        let Ok(db) = ReadOnlyDb::open(&snapshot.db) else {
            continue;
        };
        let Ok(Some(text)) = nodes::entry_json(db.conn(), key) else {
            continue;
        };
        let Ok(Value::Object(e)) = crate::json_value::from_str::<Value>(&text) else {
            continue;
        };
        if e.get("sessionId").and_then(Value::as_str) == Some(session_id) {
            let conn = db.conn();
            return Some(FoundEntry {
                fields: e,
                pending_validation: nodes::is_pending_validation(conn, key).unwrap_or(false),
                source: EntrySource::Snapshot {
                    path: dir,
                    created_at,
                    at_deletion: false,
                },
            });
        }
    }
    None
}

/// The entry `delete` kept with this archive (`kept_entries_in` is the state dir).
fn entry_kept_at_deletion(
    state_dir: &Path,
    agent_id: &str,
    archived: &ArchivedTranscript,
) -> Option<FoundEntry> {
    let (path, kept) = read_kept_entry(state_dir, agent_id, &archived.name)?;
    (kept.session_id == archived.session_id).then(|| FoundEntry {
        fields: kept.entry,
        pending_validation: kept.pending_validation,
        source: EntrySource::Deleted {
            path,
            deleted_at: crate::units::iso_from_ms(kept.deleted_at),
        },
    })
}

/// The entry of `session_id` in the index the legacy import moved aside.
fn entry_from_import_index(
    store: &AgentStore,
    key: &str,
    session_id: &str,
    now_ms: i64,
) -> Option<FoundEntry> {
    let dir = &store.paths.import_archive_dir;
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with("legacy-store.sessions.json.imported-"))
        .collect();
    names.sort();
    for name in names.iter().rev() {
        let path = dir.join(name);
        // Streamed, keeping only the first valid entry of this session (the index's order):
        // a whole index costs about four times its text. An index that does not read to
        // its end is passed over, as a whole load of it would be.
        let Ok(file) = crate::fsutil::open_regular(&path) else {
            continue;
        };
        let mut hit: Option<SessionEntry> = None;
        let read = for_each_index_entry(&path, IndexSource::File(&file), |k, value| {
            if hit.is_none() {
                if let Ok(e) = SessionEntry::from_value(&k, value) {
                    if is_safe_session_id(e.session_id()) && e.session_id() == session_id {
                        hit = Some(e);
                    }
                }
            }
            Ok(())
        });
        if let (Ok(_), Some(e)) = (read, hit) {
            let raw = e.fields;
            // The import leaves the keys it writes waiting for validation.
            return Some(FoundEntry {
                fields: normalise_entry(key, &raw, now_ms),
                source: EntrySource::ImportIndex { path },
                pending_validation: true,
            });
        }
    }
    None
}

/// Plan bringing `archived` back (reads only). Refuses a cold archive, a session id that is
/// live, a key that belongs to a live session, and an archive that does not verify.
pub fn plan_undelete(
    store: &AgentStore,
    archived: &ArchivedTranscript,
    as_key: Option<&str>,
    kept_entries_in: &Path,
    snapshots: &[AgentSnapshot],
    now_ms: i64,
) -> Result<UndeletePlan> {
    let agent_id = store.paths.id.to_string();
    let Some(db) = store.db() else {
        return Err(Error::UnsupportedSchema {
            message: format!("agent {agent_id} has only a legacy store"),
            hint: Some("import it first with the legacy import".into()),
        }
        .with_remedy(Remedy::ImportLegacy));
    };
    if archived.reason == Reason::Cold {
        return Err(Error::InvalidArgument {
            message: format!(
                "{} is a cold archive: session {} is still listed, and OpenClaw restores its transcript on first use",
                archived.name, archived.session_id
            ),
            hint: None,
        });
    }
    let sid = archived.session_id.as_str();
    if !crate::legacy::is_safe_session_id(sid) {
        return Err(Error::unsafe_path(format!(
            "archive {}: session id {sid:?} is not one OpenClaw accepts",
            archived.name
        )));
    }
    if let Some(owner) = windows::session_key_of(db.conn(), sid).at(db.path())? {
        return Err(conflict(
            format!("transcript {sid} is live again (session {owner}); nothing to bring back"),
            None,
        ));
    }
    let key = target_key(&agent_id, archived, as_key)?;
    // A key OpenClaw's writer would refuse makes it refuse the whole store.
    let contract_main = session_key::normalize_main_key(
        crate::store::db::meta::contract_main_key(db.conn()).as_deref(),
    );
    if let Some(why) = session_key::write_refusal(&key, &contract_main) {
        return Err(session_key::refusal_error(why));
    }
    if let Some(live) = nodes::current_session_id(db.conn(), &key).at(db.path())? {
        return Err(conflict(
            format!("key {key} now belongs to another live session ({live})"),
            Some("bring it back under a free key with --as KEY".into()),
        ));
    }
    let (events, last_time) = verify_archive(store, archived)?;
    let kept = entry_kept_at_deletion(kept_entries_in, &agent_id, archived);
    let snapshot = entry_from_snapshots(snapshots, &key, sid);
    // A snapshot that holds the very entry kept at deletion (the deletion's own safety
    // snapshot) gives back the rows as they were, columns no entry writer sets included.
    let found = match (kept, snapshot) {
        (Some(kept), Some(mut snap)) if snap.fields == kept.fields => {
            if let EntrySource::Snapshot { at_deletion, .. } = &mut snap.source {
                *at_deletion = true;
            }
            Some(snap)
        }
        (Some(kept), _) => Some(kept),
        (None, snapshot) => snapshot,
    };
    let found = found
        .or_else(|| entry_from_import_index(store, &key, sid, now_ms))
        .unwrap_or_else(|| {
            let updated = last_time.or(archived.archived_at).unwrap_or(now_ms);
            let mut e = Map::new();
            e.insert("sessionId".into(), json!(sid));
            e.insert("updatedAt".into(), json!(updated));
            FoundEntry {
                fields: e,
                source: EntrySource::Minimal,
                pending_validation: false,
            }
        });
    let copy_from = match &found.source {
        EntrySource::Snapshot { path, .. } => Some(path.join("database.sqlite")),
        _ => None,
    };
    let entry_source = found.source;
    let mut entry = canonical_entry(found.fields);
    entry.insert("sessionId".into(), json!(sid));
    let entry_updated_at = crate::json_value::finite(entry.get("updatedAt")).map(|t| t as i64);
    if let Some(why) = session_key::entry_lineage_refusal(&entry, &contract_main) {
        return Err(session_key::refusal_error(format!(
            "the entry found for {key}: {why}"
        )));
    }
    Ok(UndeletePlan {
        agent_id,
        session_key: key,
        session_id: sid.to_string(),
        archive: archived.name.clone(),
        events,
        entry_source,
        entry_updated_at,
        entry,
        pending_validation: found.pending_validation,
        copy_from,
        archived: archived.clone(),
    })
}

/// The node, entry, conversation and window, as the entry writer stores them.
fn write_session(tx: &Transaction<'_>, path: &Path, plan: &UndeletePlan) -> Result<()> {
    write_session_rows(tx, path, &plan.session_key, &plan.session_id, &plan.entry)
}

/// A session's node, entry, conversation and window as the entry writer stores them for a
/// session created in this store (undelete, bundle import).
pub(crate) fn write_session_rows(
    tx: &Transaction<'_>,
    path: &Path,
    key: &str,
    sid: &str,
    e: &Map<String, Value>,
) -> Result<()> {
    let entry_json = crate::json_value::map_to_json(e);
    let updated_at = crate::json_value::finite(e.get("updatedAt")).unwrap_or(0.0);
    nodes::insert_if_absent(tx, key, sid, &entry_json, updated_at as i64).at(path)?;
    write_node(tx, path, key, e, Some(&entry_json))?;
    let conversation = conversation_of(e, session_scope(key, e));
    if let Some(c) = &conversation {
        write_conversation(tx, c, updated_at as i64).at(path)?;
    }
    crate::writer::write_window(tx, path, key, e, sid, updated_at, Some(updated_at))?;
    if let Some(c) = &conversation {
        link_conversation(tx, c, sid, updated_at as i64).at(path)?;
    }
    Ok(())
}

/// Write the planned session in one transaction. The archive is read through the same
/// connection and left as it is.
pub fn apply_undelete(
    db: &mut WritableDb,
    plan: &UndeletePlan,
    now_ms: i64,
) -> Result<UndeleteReport> {
    use crate::store::db::session_copy::{attach_snapshot, detach_snapshot};
    if let Some(snapshot) = &plan.copy_from {
        attach_snapshot(&db.conn, snapshot).at(snapshot)?;
    }
    let result = write_undelete(db, plan, now_ms);
    if let Some(snapshot) = &plan.copy_from {
        let detached = detach_snapshot(&db.conn).at(snapshot);
        let report = result?;
        detached?;
        crash_point("undelete-after-commit");
        return Ok(report);
    }
    let report = result?;
    crash_point("undelete-after-commit");
    Ok(report)
}

fn write_undelete(db: &mut WritableDb, plan: &UndeletePlan, now_ms: i64) -> Result<UndeleteReport> {
    let path = db.path.clone();
    let schema = db.schema();
    let tx = db.transaction()?;
    // Re-checked inside the transaction: nothing took the key or the id meanwhile.
    if nodes::current_session_id(&tx, &plan.session_key)
        .at(&path)?
        .is_some()
        || windows::exists(&tx, &plan.session_id).at(&path)?
    {
        return Err(conflict(
            format!(
                "session {} or transcript {} appeared while the undelete was being planned",
                plan.session_key, plan.session_id
            ),
            Some("run the command again".into()),
        ));
    }
    match &plan.copy_from {
        Some(_) => {
            crate::store::db::session_copy::copy_node_and_window(
                &tx,
                &plan.session_key,
                &plan.session_id,
            )
            .at(&path)?;
        }
        None => write_session(&tx, &path, plan)?,
    }
    crash_point("undelete-session");
    let sid = plan.session_id.as_str();
    let mut appender = EventAppender::load_for(&tx, schema, sid, now_ms).at(&path)?;
    let mut search = SearchRows::for_schema(schema);
    let mut report = UndeleteReport {
        events: 0,
        compressed: 0,
    };
    let mut last_time: Option<i64> = None;
    let a = &plan.archived;
    let conn: &rusqlite::Connection = &tx;
    for_each_archived(&a.body, a.encoding, Some(conn), &path, 0, &mut |ev| {
        let event: Value = crate::json_value::from_str(&ev.json)
            .map_err(|e| Error::bad_input(format!("archive {}: {e}", a.name), None))?;
        let seq = ev.seq;
        let created_at = event_time(&event, now_ms);
        let stored = appender
            .append(&tx, &mut search, seq, &ev.json, &event, created_at)
            .at(&path)?;
        if stored == Stored::Compressed {
            report.compressed += 1;
        }
        report.events += 1;
        last_time = Some(created_at);
        if report.events == 1 {
            crash_point("undelete-first-event");
        }
        Ok(ControlFlow::Continue(()))
    })?;
    crash_point("undelete-events");
    appender.finish(&tx, &mut search).at(&path)?;
    search.flush(&tx).at(&path)?;
    if plan.copy_from.is_none() {
        if let Some(t) = last_time {
            windows::advance_transcript_updated_at(&tx, sid, t).at(&path)?;
        }
    }
    if plan.copy_from.is_some() {
        // The triggers flagged the copied rows; the entry is as the snapshot certified it.
        nodes::set_entry_valid(&tx, &plan.session_key).at(&path)?;
    }
    if !plan.pending_validation && schema.validates_canonical_keys() {
        certify(&tx, &path, &plan.session_key)?;
    }
    crash_point("undelete-before-commit");
    tx.commit().at(&path)?;
    Ok(report)
}

/// One session to take out of a snapshot (`backup restore --session`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotSessionPlan {
    pub agent_id: String,
    pub snapshot: PathBuf,
    pub session_key: String,
    pub session_id: String,
    /// Every transcript generation (window) of the key in the snapshot.
    pub windows: Vec<String>,
    pub events: u64,
}

/// What was copied.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotSessionReport {
    pub rows: u64,
    pub events: u64,
}

fn with_snapshot<T>(
    snapshot_db: &Path,
    read: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T>,
) -> Result<T> {
    use crate::store::db::session_copy::attach_snapshot;
    let conn = rusqlite::Connection::open_in_memory().at(snapshot_db)?;
    attach_snapshot(&conn, snapshot_db).at(snapshot_db)?;
    read(&conn).at(snapshot_db)
}

/// Plan taking the session `words` names (a key, a bare key, a session id) out of a
/// verified snapshot of `store`'s database. Refuses when the key or one of its transcripts
/// is live.
/// With `replacing`, a live session of the same key is no refusal: the caller deletes it
/// (its transcripts archived) before the rows are copied, and its own transcripts are no
/// conflict either; a transcript another key owns still is.
pub fn plan_session_from_snapshot(
    store: &AgentStore,
    snapshot: &Path,
    words: &str,
    replacing: bool,
) -> Result<SnapshotSessionPlan> {
    use crate::store::db::session_copy::{
        find_in_snapshot, find_in_snapshot_by_prefix, snapshot_window_ids,
    };
    let agent_id = store.paths.id.to_string();
    let Some(db) = store.db() else {
        return Err(Error::not_found(
            format!("agent {agent_id} has no database to restore into"),
            None,
        ));
    };
    let snapshot_db = snapshot.join("database.sqlite");
    let words = words.trim();
    let qualified = format!("agent:{agent_id}:{}", words.to_lowercase());
    // A key, a bare key, a session id, or a unique prefix of one (as every other command
    // takes them, store::resolve).
    let mut ambiguous = Vec::new();
    let (found, windows, events, lineage) = with_snapshot(&snapshot_db, |c| {
        let mut found = match find_in_snapshot(c, words)? {
            Some(f) => Some(f),
            None => find_in_snapshot(c, &qualified)?,
        };
        if found.is_none() && words.chars().count() >= crate::store::resolve::MIN_PREFIX_LEN {
            let mut by_prefix = find_in_snapshot_by_prefix(c, words, 6)?;
            if by_prefix.len() == 1 {
                found = by_prefix.pop();
            } else {
                ambiguous = by_prefix;
            }
        }
        let Some((key, _)) = &found else {
            return Ok((None, Vec::new(), 0, Vec::new()));
        };
        let lineage: Vec<String> = c
            .query_row(
                "SELECT parent_session_key, spawned_by, fork_source_session_key \
                 FROM snap.session_nodes WHERE session_key = ?1",
                [key],
                |r| {
                    Ok([0, 1, 2]
                        .into_iter()
                        .filter_map(|i| r.get::<_, Option<String>>(i).ok().flatten())
                        .collect())
                },
            )
            .unwrap_or_default();
        let windows = snapshot_window_ids(c, key)?;
        let mut events = 0i64;
        for w in &windows {
            events += c.query_row(
                "SELECT count(*) FROM snap.transcript_events WHERE session_id = ?1",
                [w],
                |r| r.get::<_, i64>(0),
            )?;
        }
        Ok((found, windows, events, lineage))
    })?;
    if found.is_none() && ambiguous.len() > 1 {
        let names: Vec<String> = ambiguous
            .iter()
            .take(5)
            .map(|(k, id)| format!("{k} ({id})"))
            .collect();
        return Err(Error::InvalidArgument {
            message: format!(
                "{words:?} is the start of several session ids in snapshot {}: {}{}",
                snapshot.display(),
                names.join(", "),
                if ambiguous.len() > 5 { ", ..." } else { "" }
            ),
            hint: Some("give more of the id, or the session key".into()),
        });
    }
    let Some((key, sid)) = found else {
        return Err(Error::not_found(
            format!("snapshot {} holds no session {words:?}", snapshot.display()),
            None,
        ));
    };
    // The row is copied as the snapshot holds it: a key or lineage value OpenClaw would
    // refuse is refused here, before any change.
    let contract_main = session_key::normalize_main_key(
        crate::store::db::meta::contract_main_key(db.conn()).as_deref(),
    );
    if let Some(why) = session_key::write_refusal(&key, &contract_main).or_else(|| {
        lineage
            .iter()
            .find_map(|v| session_key::stored_lineage_refusal(v, &contract_main))
    }) {
        return Err(session_key::refusal_error(why));
    }
    let live = nodes::current_session_id(db.conn(), &key).at(db.path())?;
    if let (Some(live), false) = (&live, replacing) {
        return Err(conflict(
            format!("key {key} belongs to a live session ({live}); nothing of it is replaced"),
            Some(
                "replace the live session (its current transcripts are archived first, as a deletion archives them)"
                    .into(),
            ),
        )
        .with_remedy(Remedy::ReplaceLiveSession));
    }
    for w in &windows {
        if let Some(owner) = windows::session_key_of(db.conn(), w).at(db.path())? {
            if replacing && owner == key {
                continue;
            }
            return Err(conflict(
                format!("transcript {w} of {key} is live (session {owner})"),
                None,
            ));
        }
    }
    Ok(SnapshotSessionPlan {
        agent_id,
        snapshot: snapshot.to_path_buf(),
        session_key: key,
        session_id: sid,
        windows,
        events: events as u64,
    })
}

/// Copy the planned session's rows from the snapshot in one transaction, then certify the
/// key as OpenClaw's writers do.
pub fn apply_session_from_snapshot(
    db: &mut WritableDb,
    plan: &SnapshotSessionPlan,
    now_ms: i64,
) -> Result<SnapshotSessionReport> {
    use crate::store::db::session_copy::{
        attach_snapshot, copy_session, detach_snapshot, snapshot_pending_validation,
    };
    let path = db.path.clone();
    let snapshot_db = plan.snapshot.join("database.sqlite");
    attach_snapshot(&db.conn, &snapshot_db).at(&snapshot_db)?;
    let result = (|| -> Result<SnapshotSessionReport> {
        let schema = db.schema();
        let tx = db.transaction()?;
        if nodes::current_session_id(&tx, &plan.session_key)
            .at(&path)?
            .is_some()
        {
            return Err(conflict(
                format!(
                    "session {} appeared while the restore was being planned",
                    plan.session_key
                ),
                Some("run the command again".into()),
            ));
        }
        let copied = copy_session(
            &tx,
            &plan.session_key,
            &plan.windows,
            schema.has_search_rows(),
        )
        .at(&path)?;
        crash_point("restore-session-rows");
        // A generation whose archive row is still there (the session was deleted since the
        // snapshot) gets a new one: a later delete archives under a name of its own.
        for w in &plan.windows {
            if let Some(g) = events::watermark_generation(&tx, w).at(&path)? {
                if crate::store::db::archives::sha256_of(&tx, w, &g)
                    .at(&path)?
                    .is_some()
                {
                    let fresh = uuid::Uuid::new_v4().simple().to_string();
                    events::set_watermark_generation(&tx, w, &fresh, now_ms).at(&path)?;
                }
            }
        }
        nodes::set_entry_valid(&tx, &plan.session_key).at(&path)?;
        // Certified, unless the snapshot holds the key still waiting for validation.
        // Before 21 there is no validation to wait for, nor to certify.
        if schema.validates_canonical_keys()
            && !snapshot_pending_validation(&tx, &plan.session_key).at(&path)?
        {
            certify(&tx, &path, &plan.session_key)?;
        }
        crash_point("restore-session-before-commit");
        tx.commit().at(&path)?;
        Ok(SnapshotSessionReport {
            rows: copied.rows as u64,
            events: copied.events as u64,
        })
    })();
    let detached = detach_snapshot(&db.conn).at(&snapshot_db);
    let report = result?;
    detached?;
    crash_point("restore-session-after-commit");
    Ok(report)
}
