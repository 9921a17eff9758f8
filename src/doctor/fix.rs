//! The safe repairs of `doctor --fix`. The caller (the ops pipeline) holds custody, which
//! already reclaimed stale locks, and has snapshotted every database that will change.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use super::{quarantine, Finding, Repair};
use crate::error::{Error, Result, ResultExt};
use crate::paths::{AgentId, StateLayout};
use crate::store::db::archives;
use crate::store::SessionEntry;
use crate::writer::{certify, write_node, WritableDb};

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FixReport {
    pub fixed: Vec<String>,
    pub failed: Vec<String>,
}

fn reproject(tx: &rusqlite::Transaction<'_>, path: &Path, key: &str) -> Result<()> {
    let json: Option<String> = crate::store::db::nodes::entry_json(tx, key).at(path)?;
    let Some(json) = json else { return Ok(()) };
    let entry = SessionEntry::parse(key, &json)
        .map_err(|why| Error::bad_input(format!("session {key}: {why}"), None))?;
    write_node(tx, path, key, &entry.fields, None)?;
    certify(tx, path, key)?;
    Ok(())
}

/// What OpenClaw 2026.9.6's `doctor --fix` does with a row its read refuses over a key
/// (docs/openclaw/HOSTILE.md §8): each lineage value of the entry rewritten normalized (an
/// empty one removed), with the node's columns and the current window's lineage columns
/// projected again (`updatedAt` untouched); then the row moved to its key normalized, with
/// every row that names it (the windows, the tables whose foreign key is the node's key).
/// The row stays on OpenClaw's canonical-validation queue, as its doctor leaves it.
fn canonicalize_keys(
    tx: &rusqlite::Transaction<'_>,
    path: &Path,
    key: &str,
) -> Result<std::result::Result<Option<String>, String>> {
    use crate::formats::session_key;
    let main =
        session_key::normalize_main_key(crate::store::db::meta::contract_main_key(tx).as_deref());
    let Some(json) = crate::store::db::nodes::entry_json(tx, key).at(path)? else {
        return Ok(Ok(None));
    };
    let entry = SessionEntry::parse(key, &json)
        .map_err(|why| Error::bad_input(format!("session {key}: {why}"), None))?;
    let new_key = session_key::key_fix(key, &main);
    if session_key::stored_key_refusal(key, &main).is_some() && new_key.is_none() {
        return Ok(Err(format!(
            "session {key}: the key is still refused once normalized; OpenClaw's doctor leaves it too"
        )));
    }
    if let Some(to) = &new_key {
        let taken: bool = tx
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM session_nodes WHERE session_key = ?1)",
                [to],
                |r| r.get(0),
            )
            .at(path)?;
        if taken {
            return Ok(Err(format!(
                "session {key}: a row with its normalized key {to} exists; OpenClaw's doctor merges the two (run openclaw doctor --fix)"
            )));
        }
    }
    let mut fields = entry.fields.clone();
    let Some(changed) = session_key::fix_entry_lineage(&mut fields, &main) else {
        return Ok(Err(format!(
            "session {key}: a lineage value is still refused once normalized; OpenClaw's doctor leaves it too"
        )));
    };
    let mut done = Vec::new();
    let json = changed.then(|| crate::json_value::map_to_json(&fields));
    write_node(tx, path, key, &fields, json.as_deref())?;
    if changed {
        tx.execute(
            "UPDATE session_windows SET parent_session_key = ?1, spawned_by = ?2 \
             WHERE session_id = (SELECT current_session_id FROM session_nodes WHERE session_key = ?3)",
            rusqlite::params![
                crate::json_value::text(fields.get("parentSessionKey")),
                crate::json_value::text(fields.get("spawnedBy")),
                key
            ],
        )
        .at(path)?;
        done.push("rewrote its lineage values normalized".to_string());
    }
    if let Some(to) = &new_key {
        // The rows that name the key follow it before the commit checks the foreign keys.
        tx.execute_batch("PRAGMA defer_foreign_keys = ON")
            .at(path)?;
        let mut children: Vec<(String, String)> = Vec::new();
        {
            let mut st = tx
                .prepare(
                    "SELECT m.name, f.\"from\" FROM sqlite_master AS m, \
                     pragma_foreign_key_list(m.name) AS f \
                     WHERE m.type = 'table' AND f.\"table\" = 'session_nodes' AND f.\"to\" = 'session_key'",
                )
                .at(path)?;
            for row in st.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).at(path)? {
                children.push(row.at(path)?);
            }
        }
        tx.execute(
            "UPDATE session_nodes SET session_key = ?1 WHERE session_key = ?2",
            [to.as_str(), key],
        )
        .at(path)?;
        for (table, column) in children {
            let sql = format!(
                "UPDATE \"{}\" SET \"{}\" = ?1 WHERE \"{}\" = ?2",
                table.replace('"', "\"\""),
                column.replace('"', "\"\""),
                column.replace('"', "\"\"")
            );
            tx.execute(&sql, [to.as_str(), key]).at(path)?;
        }
        crate::store::db::nodes::set_entry_valid(tx, to).at(path)?;
        done.push(format!("moved it to its normalized key {to}"));
    }
    if done.is_empty() {
        return Ok(Ok(None));
    }
    let schema = crate::writer::AgentSchema::of(tx).at(path)?;
    if super::older_release::as_canonical_repair(schema.0) {
        // The older releases' doctors upsert the entry under its key: the window with it.
        let at = new_key.as_deref().unwrap_or(key);
        let session_id = crate::json_value::text(fields.get("sessionId")).unwrap_or_default();
        let updated_at = crate::json_value::finite(fields.get("updatedAt")).unwrap_or(0.0);
        crate::writer::write_window(tx, path, at, &fields, &session_id, updated_at, None)?;
    }
    Ok(Ok(Some(done.join(" and "))))
}

/// Keep the unreadable row in our quarantine directory, then write the entry OpenClaw's
/// doctor rebuilds from the row's columns (same key, same session id: the transcript stays).
/// `None` when the row is gone or readable by now.
fn rebuild_unreadable(
    tx: &rusqlite::Transaction<'_>,
    path: &Path,
    layout: &StateLayout,
    agent: &str,
    key: &str,
    now_ms: i64,
) -> Result<Option<String>> {
    let Some(row) = crate::store::db::nodes::repair_row(tx, key).at(path)? else {
        return Ok(None);
    };
    let why = match std::str::from_utf8(&row.raw_entry) {
        Ok(text) => match SessionEntry::parse(key, text) {
            Ok(_) => return Ok(None),
            Err(why) => why,
        },
        Err(e) => format!("entry_json is not UTF-8: {e}"),
    };
    let rebuilt = quarantine::hydrate_entry(&row);
    let session_id = rebuilt
        .get("sessionId")
        .and_then(serde_json::Value::as_str)
        .unwrap_or_default()
        .to_string();
    let previous = SessionEntry {
        key: key.to_string(),
        fields: rebuilt
            .iter()
            .filter(|(k, _)| matches!(k.as_str(), "sessionId" | "updatedAt"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        stored_json: None,
        unreadable: Some(why.clone()),
    };
    let entry = SessionEntry {
        key: key.to_string(),
        fields: rebuilt,
        stored_json: None,
        unreadable: None,
    };
    // Kept before the transaction commits: a failed commit leaves a record of an entry
    // that is still there, never a changed entry without its record.
    let mut record =
        quarantine::QuarantinedEntry::new(agent, key, &row, &why, serde_json::Value::Null, now_ms);
    let written = crate::writer::write_entry_uncertified(tx, path, key, &entry, &previous)?;
    let schema = crate::writer::AgentSchema::of(tx).at(path)?;
    if !super::older_release::as_canonical_repair(schema.0) {
        crate::writer::certify(tx, path, key)?;
    }
    record.rebuilt_entry = serde_json::Value::Object(written);
    let file = quarantine::write(layout, &record)?;
    Ok(Some(format!(
        "agent {agent}: rebuilt the unreadable entry of {key} (id {session_id}, session_nodes rowid {}) from its row's columns as OpenClaw's doctor does; the row as it was is kept in {} (show {key} prints it)",
        row.rowid,
        file.display()
    )))
}

/// The agents whose databases the repairs of `findings` change (snapshotted first).
pub fn agents_to_repair(findings: &[Finding]) -> Vec<String> {
    let mut agents: Vec<String> = findings
        .iter()
        .filter(|f| {
            !matches!(
                f.repair,
                None | Some(Repair::ClearStaleLocks)
                    | Some(Repair::RemoveLeftover { .. })
                    | Some(Repair::RecoverCrashState { .. })
                    | Some(Repair::SetAsideEmpty { .. })
            )
        })
        .map(|f| f.subject.agent_id.clone().unwrap_or_default())
        .collect();
    agents.sort();
    agents.dedup();
    agents
}

/// Rename the zero-byte database `path` to `<name>.empty-<stamp>` and drop its empty `-wal`
/// and `-journal` and its `-shm` (an index of the WAL, never content), checked again under
/// custody; `None` when it is no longer an empty database.
fn set_aside_empty(
    layout: &StateLayout,
    path: &Path,
    now_ms: i64,
) -> Result<Option<std::path::PathBuf>> {
    crate::writer::check_owned_path(&layout.state_dir, path)?;
    if !super::checks::empty_without_content(path) {
        return Ok(None);
    }
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".empty-{now_ms}"));
    let to = path.with_file_name(name);
    if to.symlink_metadata().is_ok() {
        return Err(crate::fsutil::target_exists(&to));
    }
    std::fs::rename(path, &to).at(path)?;
    for s in ["-wal", "-journal", "-shm"] {
        let p = crate::store::sidecar_path(path, s);
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&p, e)),
        }
    }
    if let Some(dir) = path.parent() {
        std::fs::File::open(dir)
            .and_then(|d| d.sync_all())
            .at(dir)?;
    }
    Ok(Some(to))
}

/// Apply the repairs of `findings`. The caller holds custody and has snapshotted every
/// database `agents_to_repair` names.
pub fn apply_fixes(layout: &StateLayout, findings: &[Finding], now_ms: i64) -> Result<FixReport> {
    let mut report = FixReport::default();
    let mut by_agent: BTreeMap<String, Vec<&Finding>> = BTreeMap::new();
    for f in findings.iter().filter(|f| f.repair.is_some()) {
        match f.repair.as_ref() {
            Some(Repair::ClearStaleLocks) => {
                for r in crate::custody::clear_stale(layout)? {
                    report.fixed.push(format!("removed stale lock {r}"));
                }
            }
            // Before any other repair opens the database.
            Some(Repair::RecoverCrashState { path }) => {
                crate::writer::check_owned_path(&layout.state_dir, path)?;
                match crate::paths::sqlite_file::recover_in_place(path) {
                    Ok(()) => report
                        .fixed
                        .push(format!("SQLite recovered {} in place", path.display())),
                    Err(e) => report.failed.push(e.to_string()),
                }
            }
            // Nothing to snapshot: the file and its journals are empty.
            Some(Repair::SetAsideEmpty { path }) => match set_aside_empty(layout, path, now_ms) {
                Ok(Some(to)) => report.fixed.push(format!(
                    "set the empty database {} aside as {}; OpenClaw creates a new one on its next start",
                    path.display(),
                    to.display()
                )),
                Ok(None) => {}
                Err(e) => report.failed.push(e.to_string()),
            },
            Some(Repair::RemoveLeftover { path }) => {
                // Removed only where the path, and everything on the way, is the store's own.
                if let Err(e) = crate::writer::check_owned_path(&layout.state_dir, path) {
                    report.failed.push(e.to_string());
                    continue;
                }
                let res = if path.is_dir() {
                    std::fs::remove_dir_all(path)
                } else {
                    std::fs::remove_file(path)
                };
                match res {
                    Ok(()) => report
                        .fixed
                        .push(format!("removed leftover {}", path.display())),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => report.failed.push(format!("{}: {e}", path.display())),
                }
            }
            _ => by_agent
                .entry(f.subject.agent_id.clone().unwrap_or_default())
                .or_default()
                .push(f),
        }
    }
    for (agent, fs) in by_agent {
        let id = AgentId::parse(&agent)?;
        let paths = layout.agent(&id);
        crate::writer::check_owned_path(&layout.state_dir, &paths.db)?;
        // The older schemas get only the repairs their release's doctor makes (`older_release`).
        let mut db = WritableDb::open_accepting(
            &layout.state_dir,
            &paths.db,
            super::older_release::SCHEMAS,
        )?;
        let path = db.path.clone();
        let mut publish = false;
        {
            let tx = db.transaction()?;
            for f in &fs {
                match f.repair.as_ref() {
                    Some(Repair::ReprojectColumns { key }) => {
                        reproject(&tx, &path, key)?;
                        report.fixed.push(format!(
                            "agent {agent}: re-projected the columns of {key} from entry_json"
                        ));
                    }
                    Some(Repair::DeleteOrphans { table, rowids }) => {
                        crate::store::db::delete_rowids(&tx, table, rowids).at(&path)?;
                        if table == "session_transcript_active_events" {
                            // Active rows are a projection: mark their transcripts for rebuild.
                            crate::store::db::event_index::mark_all_for_rebuild(&tx).at(&path)?;
                        }
                        report.fixed.push(format!(
                            "agent {agent}: removed {} orphan {table} row(s)",
                            rowids.len()
                        ));
                    }
                    Some(Repair::ArchiveOrphans {
                        session_id,
                        session_key,
                    }) => {
                        let archived = crate::writer::archive::archive_orphan_transcript(
                            &tx,
                            &path,
                            session_key.as_deref(),
                            session_id,
                            now_ms,
                        )?;
                        let what = match &archived {
                            Some(a) => format!("archived as {}", a.archive_name),
                            None => "no events to archive".to_string(),
                        };
                        report.fixed.push(format!(
                            "agent {agent}: orphaned transcript {session_id} {what}, then removed"
                        ));
                        // The archive row is published as a file after the commit.
                        publish |= archived.is_some();
                    }
                    Some(Repair::RebuildUnreadableEntry { key }) => {
                        if let Some(done) =
                            rebuild_unreadable(&tx, &path, layout, &agent, key, now_ms)?
                        {
                            report.fixed.push(done);
                        }
                    }
                    Some(Repair::CanonicalizeKeys { key }) => {
                        match canonicalize_keys(&tx, &path, key)? {
                            Ok(Some(done)) => report.fixed.push(format!(
                                "agent {agent}: session {key}: {done}, as OpenClaw's doctor --fix does"
                            )),
                            Ok(None) => {}
                            Err(why) => report.failed.push(format!("agent {agent}: {why}")),
                        }
                    }
                    Some(Repair::PublishArchives) => publish = true,
                    _ => {}
                }
            }
            crate::writer::crash_point("doctor-fix-before-commit");
            tx.commit().at(&path)?;
        }
        if publish {
            // Rows whose published file vanished are published again, like pending ones.
            let published: Vec<String> = archives::published_names(&db.conn).at(&path)?;
            for name in published
                .iter()
                .filter(|n| !paths.sessions_dir.join(n).is_file())
            {
                archives::mark_unpublished(&db.conn, name).at(&path)?;
            }
            let (done, failed) =
                crate::writer::publish::publish_pending(&db, &paths.sessions_dir, now_ms)?;
            for d in done {
                report
                    .fixed
                    .push(format!("agent {agent}: published archive file {d}"));
            }
            report.failed.extend(failed);
        }
    }
    Ok(report)
}

/// What the checks still find after the repairs of `findings` succeed: the findings that are
/// not fixable and are not about rows a repair removes (the foreign-key violations, header
/// and seq findings of an orphaned transcript go with its rows). The dry run of `doctor --fix`
/// shows these as left for a human, as the real run does after running the checks again.
pub fn left_after_repairs(findings: &[Finding]) -> Vec<Finding> {
    let removed_by = |f: &Finding, r: &Repair| match r {
        Repair::ArchiveOrphans { session_id, .. } => {
            f.subject.session_id.as_deref() == Some(session_id.as_str())
        }
        Repair::DeleteOrphans { table, rowids } => {
            f.subject.table.as_deref() == Some(table.as_str())
                && !f.subject.rowids.is_empty()
                && f.subject.rowids.iter().all(|id| rowids.contains(id))
        }
        _ => false,
    };
    findings
        .iter()
        .filter(|f| {
            !f.fixable
                && !findings.iter().any(|p| {
                    p.subject.agent_id == f.subject.agent_id
                        && p.repair.as_ref().is_some_and(|r| removed_by(f, r))
                })
        })
        .cloned()
        .collect()
}
