//! `delete`: OpenClaw's `deleteSessionEntry` (tests/reference/openclaw/OPERATIONS.md §2). With
//! archiving (the default), each transcript generation the key owns alone becomes an archive row
//! (zstd JSONL, sha256, name) and its rows go; the file is published after commit. Without it, the
//! node becomes a tombstone and the transcripts stay. Cold generations are never touched: their
//! node stays as a tombstone.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rusqlite::Transaction;
use serde::Serialize;

use super::patch::check_expectations;
use super::references::{state_ids, ReferenceView};
use crate::error::{Error, Remedy, Result, ResultExt};
use crate::store::db::{self, archives, event_index, nodes, windows};
use crate::store::{AgentStore, SessionEntry};
use crate::writer::archive::{archive_generation, ArchivedFile};
use crate::writer::kept_entry::{write_kept_entries, KeptEntry};
use crate::writer::publish::publish_checked;
use crate::writer::{AgentSchema, WritableDb};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum DeleteResult {
    Deleted,
    Missing,
    Conflict,
    Refused,
}

#[derive(Debug, Clone, Default)]
pub struct DeleteOptions {
    pub archive: bool,
    pub expect_updated_at: Option<i64>,
    pub expect_session_id: Option<Option<String>>,
}

/// One transcript generation that will be archived and removed.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchivePlan {
    pub session_id: String,
    pub events: u64,
    pub bytes: u64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeletePlan {
    #[serde(skip)]
    pub agent_id: String,
    pub session_key: String,
    pub result: DeleteResult,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip)]
    pub entry: Option<PlannedEntry>,
    #[serde(skip)]
    pub archive: bool,
    /// Generations archived and removed.
    pub generations: Vec<ArchivePlan>,
    /// Generations that stay (cold, or still referenced by another session).
    pub kept_generations: Vec<String>,
    /// The node stays as a tombstone (no archive, or kept generations).
    pub tombstone: bool,
}

/// The entry a deletion was planned against, checked again when it writes. A readable entry is
/// kept as its stored text and parsed again then: a plan of many keys holds the text of each,
/// not every parsed entry at once (a parsed entry takes several times its text).
#[derive(Debug, Clone)]
pub enum PlannedEntry {
    Stored { key: String, text: String },
    Whole(SessionEntry),
}

impl PlannedEntry {
    /// Kept as its text only when that text parses back to the same entry.
    pub fn of(entry: &SessionEntry) -> Self {
        match (&entry.unreadable, &entry.stored_json) {
            (None, Some(text))
                if SessionEntry::parse(&entry.key, text).is_ok_and(|e| e == *entry) =>
            {
                PlannedEntry::Stored {
                    key: entry.key.clone(),
                    text: text.clone(),
                }
            }
            _ => PlannedEntry::Whole(entry.clone()),
        }
    }

    /// The entry as planned (its text parsed again: [`Self::of`] checked that it parses).
    pub fn entry(&self) -> Result<std::borrow::Cow<'_, SessionEntry>> {
        match self {
            PlannedEntry::Stored { key, text } => SessionEntry::parse(key, text)
                .map(std::borrow::Cow::Owned)
                .map_err(|e| Error::Internal(format!("session {key}: the planned entry: {e}"))),
            PlannedEntry::Whole(e) => Ok(std::borrow::Cow::Borrowed(e)),
        }
    }
}

fn windows_of(
    conn: &rusqlite::Connection,
    path: &Path,
    key: &str,
    entry: &SessionEntry,
) -> Result<Vec<(String, bool)>> {
    let mut ids: Vec<String> = windows::session_ids_of_key(conn, key).at(path)?;
    for id in state_ids(&entry.fields) {
        let exists: bool = windows::exists(conn, &id).at(path)?;
        if exists && !ids.contains(&id) {
            ids.push(id);
        }
    }
    let mut out = Vec::new();
    for id in ids {
        let cold: bool = archives::is_cold(conn, &id).at(path)?;
        out.push((id, cold));
    }
    Ok(out)
}

/// Plan the deletion of one key (read-only).
pub fn plan_delete(
    store: &AgentStore,
    refs: ReferenceView<'_>,
    entries: &HashMap<String, SessionEntry>,
    key: &str,
    opts: &DeleteOptions,
) -> Result<DeletePlan> {
    let mut plan = DeletePlan {
        agent_id: store.paths.id.to_string(),
        session_key: key.to_string(),
        result: DeleteResult::Deleted,
        reason: None,
        entry: None,
        archive: opts.archive,
        generations: Vec::new(),
        kept_generations: Vec::new(),
        tombstone: false,
    };
    let Some(entry) = entries.get(key) else {
        plan.result = DeleteResult::Missing;
        plan.reason = Some("no such session".into());
        return Ok(plan);
    };
    if let Err(e) = check_expectations(entry, opts.expect_updated_at, &opts.expect_session_id) {
        plan.result = DeleteResult::Conflict;
        plan.reason = Some(e.to_string());
        return Ok(plan);
    }
    if entry.locked() {
        plan.result = DeleteResult::Refused;
        plan.reason = Some(
            "Model-selection-locked sessions cannot be removed, unlocked, or reassigned.".into(),
        );
        return Ok(plan);
    }
    plan.entry = Some(PlannedEntry::of(entry));
    let Some(db) = store.db() else {
        return Err(Error::UnsupportedSchema {
            message: format!("agent {} has only a legacy store", store.paths.id),
            hint: Some("import it first with the legacy import".into()),
        }
        .with_remedy(Remedy::ImportLegacy));
    };
    for (id, cold) in windows_of(db.conn(), db.path(), key, entry)? {
        let referenced = refs.other_owner(&id, key)?.is_some();
        if !opts.archive || cold || referenced {
            plan.kept_generations.push(id);
            continue;
        }
        if id.len() <= 96 && !crate::legacy::is_safe_session_id(&id) {
            // The archive is named after the id (archive_name): a crafted one would put it
            // elsewhere.
            return Err(Error::unsafe_path(format!(
                "session {key}: transcript id {id:?} is not safe as a file name; it is not archived or deleted"
            )));
        }
        let stats = store.transcript_stats(&id)?;
        plan.generations.push(ArchivePlan {
            session_id: id,
            events: stats.events,
            bytes: stats.bytes,
        });
    }
    let mut owned_left = false;
    for id in &plan.kept_generations {
        owned_left |= refs.other_owner(id, key)?.is_none();
    }
    plan.tombstone = owned_left;
    Ok(plan)
}

/// The search rows of the transcripts some planned deletions remove, in a schema before 23
/// (no `session_transcript_fts_rows` to find them by): found in one pass for all of them
/// ([`event_index::unkeyed_search_rows`]) instead of one scan of the FTS content table a
/// transcript. Empty (each found as it is deleted) from 23 on, or when nothing is planned.
#[derive(Debug, Default)]
pub struct FoundSearchRows(Option<HashMap<String, Vec<i64>>>);

impl FoundSearchRows {
    pub fn find<'p>(
        conn: &rusqlite::Connection,
        path: &Path,
        plans: impl IntoIterator<Item = &'p DeletePlan>,
    ) -> Result<Self> {
        if AgentSchema::of(conn).at(path)?.has_search_rows() {
            return Ok(Self(None));
        }
        let ids: Vec<&str> = plans
            .into_iter()
            .filter(|p| p.entry.is_some())
            .flat_map(|p| p.generations.iter().map(|g| g.session_id.as_str()))
            .collect();
        if ids.is_empty() {
            return Ok(Self(None));
        }
        let found = event_index::unkeyed_search_rows(conn, &ids).at(path)?;
        Ok(Self(Some(found)))
    }

    /// The rows found for `session_id` (none: `&[]`), or `None` when none were looked for.
    fn of(&self, session_id: &str) -> Option<&[i64]> {
        self.0
            .as_ref()
            .map(|m| m.get(session_id).map_or(&[][..], Vec::as_slice))
    }
}

fn delete_generation(
    tx: &Transaction<'_>,
    path: &Path,
    session_id: &str,
    found: &FoundSearchRows,
) -> Result<()> {
    let search_rows = AgentSchema::of(tx).at(path)?.has_search_rows();
    event_index::delete_for_session_found(tx, session_id, search_rows, found.of(session_id))
        .at(path)?;
    windows::delete(tx, session_id).at(path)?;
    Ok(())
}

fn delete_node_artifacts(tx: &Transaction<'_>, path: &Path, key: &str) -> Result<()> {
    let present = db::meta::table_names(tx).at(path)?;
    nodes::delete_artifacts(tx, &present, key).at(path)?;
    Ok(())
}

/// `clearSqliteSessionEntryPreservingWindows`: the node becomes a tombstone pointing at
/// its most recently updated remaining window.
fn tombstone(tx: &Transaction<'_>, path: &Path, key: &str) -> Result<bool> {
    let window: Option<(String, i64)> = windows::latest_of_key(tx, key).at(path)?;
    let Some((sid, updated)) = window else {
        return Ok(false);
    };
    delete_node_artifacts(tx, path, key)?;
    nodes::write_tombstone(tx, key, &sid, updated).at(path)?;
    crate::writer::certify(tx, path, key)?;
    Ok(true)
}

/// One planned deletion inside the caller's transaction: archive rows for the generations it
/// owns, then its rows. Returns the archives written (not yet published); the entry, with the
/// archive of its current transcript, goes to `kept` (written before the commit).
#[allow(clippy::too_many_arguments)]
fn delete_in_tx(
    tx: &Transaction<'_>,
    path: &Path,
    plan: &DeletePlan,
    expected: &SessionEntry,
    refs: ReferenceView<'_>,
    now: i64,
    kept: &mut Vec<KeptEntry>,
    found: &FoundSearchRows,
) -> Result<Vec<ArchivedFile>> {
    let key = plan.session_key.as_str();
    let current: Option<String> = nodes::entry_json(tx, key).at(path)?;
    if !expected.matches_stored(current.as_deref()) {
        return Err(Error::Conflict {
            message: format!("session {key} changed while the deletion was being planned"),
            hint: Some("run the command again".into()),
        });
    }
    let pending_validation = AgentSchema::of(tx).at(path)?.validates_canonical_keys()
        && nodes::is_pending_validation(tx, key).at(path)?;
    let mut archived = Vec::new();
    for g in &plan.generations {
        if let Some(a) = archive_generation(tx, path, key, &g.session_id, now)? {
            if a.session_id == expected.session_id() && expected.unreadable.is_none() {
                kept.push(KeptEntry::new(
                    &plan.agent_id,
                    key,
                    &a.session_id,
                    &a.archive_name,
                    now,
                    pending_validation,
                    expected.fields.clone(),
                ));
            }
            archived.push(a);
            crate::writer::crash_point("delete-archive-row");
        }
        delete_generation(tx, path, &g.session_id, found)?;
        crate::writer::crash_point("delete-generation");
    }
    // Generations another session still refers to move to that session.
    for id in &plan.kept_generations {
        if let Some(owner) = refs.other_owner(id, key)? {
            windows::reassign(tx, id, &owner).at(path)?;
        }
    }
    if !tombstone(tx, path, key)? {
        delete_node_artifacts(tx, path, key)?;
        nodes::delete(tx, key).at(path)?;
    }
    Ok(archived)
}

/// What every deletion does before its transaction: archives go into `sessions_dir`, refused
/// before anything changes if that is not the store's own; statement journals in memory.
/// Returns the database's path and the state dir.
fn before_deleting(
    db: &mut WritableDb,
    sessions_dir: &Path,
) -> Result<(std::path::PathBuf, std::path::PathBuf)> {
    crate::writer::check_owned_path(&db.state_dir, sessions_dir)?;
    db.statement_journals_in_memory()?;
    Ok((db.path.clone(), db.state_dir.clone()))
}

/// Apply one planned deletion in one transaction, then publish its archive files.
/// Returns the archives written (published or left pending with the reason recorded).
pub fn apply_delete(
    db: &mut WritableDb,
    plan: &DeletePlan,
    refs: ReferenceView<'_>,
    sessions_dir: &Path,
    now: i64,
    found: &FoundSearchRows,
) -> Result<Vec<ArchivedFile>> {
    let Some(expected) = &plan.entry else {
        return Ok(Vec::new());
    };
    let expected = expected.entry()?;
    let (path, state_dir) = before_deleting(db, sessions_dir)?;
    let tx = db.transaction()?;
    let mut kept = Vec::new();
    let mut archived = delete_in_tx(&tx, &path, plan, &expected, refs, now, &mut kept, found)?;
    write_kept_entries(&state_dir, &kept)?;
    crate::writer::crash_point("delete-entries-kept");
    crate::writer::crash_point("delete-before-commit");
    tx.commit().at(&path)?;
    crate::writer::crash_point("delete-before-publish");
    let (published, _failed) = publish_checked(db, sessions_dir, crate::units::now_ms())?;
    for a in &mut archived {
        a.published = published.contains(&a.archive_name);
    }
    Ok(archived)
}

/// Apply a batch of planned deletions, in order, in one transaction (each as
/// [`apply_delete`] would: a crash leaves either the whole batch or none of it, and every
/// transcript removed has its archive row in the same commit), then publish the batch's
/// archive files together. Each key is forgotten in `refs` once its deletion is applied, so
/// the next ones see the references as a run of single deletions would. `stop` is asked after
/// each deletion: when it says so, the transaction rolls back (`Interrupted`; `refs` is then
/// stale, and the caller stops), so a signal never lets a batch in flight commit.
pub fn apply_delete_batch(
    db: &mut WritableDb,
    plans: &[DeletePlan],
    refs: &mut super::References,
    sessions_dir: &Path,
    now: i64,
    stop: &dyn Fn() -> bool,
) -> Result<()> {
    if plans.iter().all(|p| p.entry.is_none()) {
        return Ok(());
    }
    let (path, state_dir) = before_deleting(db, sessions_dir)?;
    let tx = db.transaction()?;
    let found = FoundSearchRows::find(&tx, &path, plans)?;
    let mut kept = Vec::new();
    for plan in plans {
        let Some(expected) = &plan.entry else {
            continue;
        };
        let expected = expected.entry()?;
        delete_in_tx(
            &tx,
            &path,
            plan,
            &expected,
            refs.now(),
            now,
            &mut kept,
            &found,
        )?;
        refs.forget(&plan.session_key)?;
        crate::writer::crash_point("delete-before-commit");
        if stop() {
            return Err(Error::Interrupted);
        }
    }
    write_kept_entries(&state_dir, &kept)?;
    crate::writer::crash_point("delete-entries-kept");
    tx.commit().at(&path)?;
    for _ in plans.iter().filter(|p| p.entry.is_some()) {
        crate::writer::crash_point("delete-before-publish");
    }
    publish_checked(db, sessions_dir, crate::units::now_ms())?;
    Ok(())
}

/// The state-database rows the Gateway's `sessions.delete` removes with a session
/// (`handleSessionStateSessionDeleted`): its upstream link, state events and head, and the
/// watch cursors it is the watcher or the target of. Returns how many rows went.
pub fn delete_state_rows(
    state_dir: &Path,
    state_db: &Path,
    agent_id: &str,
    key: &str,
) -> Result<usize> {
    if !state_db.is_file() {
        return Ok(0);
    }
    let mut db = WritableDb::open_role(state_dir, state_db, crate::store::DatabaseRole::Global)?;
    let tx = db.transaction()?;
    let tables: HashSet<String> = db::meta::table_names(&tx).at(state_db)?;
    let n = db::state::delete_session_rows(&tx, &tables, agent_id, key).at(state_db)?;
    tx.commit().at(state_db)?;
    Ok(n)
}
