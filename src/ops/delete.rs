//! `delete`: OpenClaw's `deleteSessionEntry`, offline. Each transcript becomes an archive row
//! plus a published file first, so a snapshot is taken only on request (`--backup-dir`).

use std::collections::HashMap;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{count, PlanGroup, PlanItem, PlanSummary};
use super::targets::{agents_of, by_agent, check_owned_agent, resolve_targets, Selection, Target};
use crate::backup::SnapshotSource;
use crate::error::{Error, ErrorKind, Result};
use crate::mutate::{
    apply_delete, delete_state_rows, plan_delete, DeleteOptions, DeletePlan, DeleteResult,
    FoundSearchRows, References,
};
use crate::paths::{AgentPaths, StateLayout};
use crate::remedy::Remedy;
use crate::store::AgentStore;
use crate::writer::archive::ArchivedFile;
use crate::writer::kept_entry::{write_kept_entries, KeptEntry};
use crate::writer::WritableDb;

pub struct DeleteOp {
    pub selection: Selection,
    pub words: Vec<String>,
    pub options: DeleteOptions,
    targets: Vec<Target>,
}

/// One agent's deletions, with the references they were planned against.
pub struct AgentDeletes {
    pub paths: AgentPaths,
    pub plans: Vec<DeletePlan>,
    refs: References,
}

pub struct DeletePlanSet {
    pub agents: Vec<AgentDeletes>,
}

/// What happened to one planned deletion.
pub enum Deleted {
    Done {
        archived: Vec<ArchivedFile>,
        state_rows: usize,
    },
    /// Deleted by the live Gateway's `sessions.delete` (`ops::online`): the transcripts it
    /// archived, as it names them.
    ByGateway { archived: Vec<std::path::PathBuf> },
    /// The row changed after planning, or a guard refused at write time.
    Refused(Error),
    /// Not a deletion (missing, conflict, refused at plan time).
    Skipped,
}

pub struct DeleteReport {
    /// Per agent, per plan, in plan order.
    pub agents: Vec<Vec<Deleted>>,
}

impl DeleteOp {
    pub fn new(selection: Selection, words: Vec<String>, options: DeleteOptions) -> Self {
        DeleteOp {
            selection,
            words,
            options,
            targets: Vec::new(),
        }
    }

    fn plan_agent(
        &self,
        paths: &AgentPaths,
        targets: &[&Target],
        main_key: &str,
    ) -> Result<AgentDeletes> {
        let store = AgentStore::open(paths.clone())?;
        let db = store.db().ok_or_else(|| {
            Error::UnsupportedSchema {
                message: format!("agent {} has no SQLite store", paths.id),
                hint: Some("import it first with the legacy import".into()),
            }
            .with_remedy(Remedy::ImportLegacy)
        })?;
        let refs = References::read(db.conn(), db.path())?;
        let mut plans = Vec::with_capacity(targets.len());
        for t in targets {
            // Only the entry asked for, read as its plan is made: its plan keeps a copy, and
            // the entries of every key held at once besides would double what the plans hold.
            let mut entries = HashMap::with_capacity(1);
            if let Some(key) = &t.key {
                if let Some(e) = store.entry_by_exact_key(key)? {
                    t.check_still_named(e.session_id())?;
                    entries.insert(key.clone(), e);
                }
            }
            let mut plan = plan_delete(
                &store,
                refs.as_read(),
                &entries,
                t.key_or_words(),
                &self.options,
            )?;
            // Words that name no session say why, with the resolver's "did you mean".
            if t.key.is_none() {
                plan.reason = t.missing.clone().or(plan.reason);
            }
            // OpenClaw's `sessions.delete` refuses the agent's main session (and `global`),
            // in its own words (docs/openclaw/REFUSALS.md).
            let main = format!("agent:{}:{main_key}", paths.id);
            if plan.result == DeleteResult::Deleted
                && (plan.session_key == main || plan.session_key == "global")
            {
                plan.result = DeleteResult::Refused;
                plan.reason = Some(format!(
                    "Cannot delete the main session ({}).",
                    plan.session_key
                ));
                plan.entry = None;
                plan.generations.clear();
                plan.kept_generations.clear();
                plan.tombstone = false;
            }
            plans.push(plan);
        }
        Ok(AgentDeletes {
            paths: paths.clone(),
            plans,
            refs,
        })
    }
}

/// ACP and harness sessions: the plugin records OpenClaw's SDK delete leaves (its Gateway
/// hands them to the plugin's own cleanup), reported (`mutate::plugin_records`).
pub(crate) fn report_plugin_records(layout: &StateLayout, plan: &DeletePlan, hooks: &dyn Hooks) {
    let Some(Ok(entry)) = plan.entry.as_ref().map(|e| e.entry()) else {
        return;
    };
    if !crate::mutate::plugin_records::is_plugin_session(&entry) {
        return;
    }
    let left = crate::mutate::plugin_records::acpx_records_of(
        layout,
        &plan.session_key,
        entry.session_id(),
    );
    if !left.is_empty() {
        let paths: Vec<String> = left.iter().map(|p| p.display().to_string()).collect();
        hooks.warn(
            format!(
                "session {}: ACPX plugin records stay (OpenClaw's Gateway hands them to the plugin's cleanup; offline they are kept): {}",
                plan.session_key,
                paths.join(", ")
            )
            .into(),
        );
    }
}

impl Operation for DeleteOp {
    type Plan = DeletePlanSet;
    type Report = DeleteReport;

    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::OnRequest;
    const OLDER_SCHEMAS_WRITTEN: &'static [i64] =
        crate::store::releases::OLDER_AGENT_SCHEMAS_WRITTEN;

    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        agents_of(&self.targets)
    }

    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        self.targets = resolve_targets(layout, &self.selection, &self.words)?;
        Ok(())
    }

    /// Archives an earlier run committed but could not publish go out first, whatever this
    /// run then deletes.
    fn recover(&mut self, layout: &StateLayout, hooks: &dyn Hooks) -> Result<()> {
        let agents = agents_of(&self.targets);
        super::pending::publish_pending_archives(
            &layout.state_dir,
            &agents,
            Self::OLDER_SCHEMAS_WRITTEN,
            hooks,
        )
    }

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<DeletePlanSet> {
        let mut agents = Vec::new();
        for (paths, targets) in by_agent(&self.targets) {
            let main_key = crate::store::resolve::main_key(layout);
            agents.push(self.plan_agent(&paths, &targets, &main_key)?);
        }
        for a in agents
            .iter()
            .filter(|a| a.plans.iter().any(|p| p.result == DeleteResult::Deleted))
        {
            check_owned_agent(layout, &a.paths)?;
        }
        Ok(DeletePlanSet { agents })
    }

    fn summarize(&self, plan: &DeletePlanSet, limit: usize) -> Result<PlanSummary> {
        let n: usize = plan
            .agents
            .iter()
            .map(|a| {
                a.plans
                    .iter()
                    .filter(|p| p.result == DeleteResult::Deleted)
                    .count()
            })
            .sum();
        let mut summary = PlanSummary::new(format!(
            "delete {} of {}, {}",
            count(n, "session"),
            count(plan.agents.len(), "agent"),
            if self.options.archive {
                "archiving their transcripts"
            } else {
                "keeping their transcripts"
            }
        ));
        for a in &plan.agents {
            let mut group = PlanGroup::new(Some(a.paths.id.to_string()));
            for p in &a.plans {
                let item = match p.result {
                    DeleteResult::Deleted => {
                        let events: u64 = p.generations.iter().map(|g| g.events).sum();
                        let detail = if p.generations.is_empty() {
                            "no transcript to archive".to_string()
                        } else {
                            format!(
                                "{} archived ({})",
                                count(p.generations.len(), "transcript"),
                                count(events as usize, "event")
                            )
                        };
                        PlanItem::change("delete", p.session_key.clone(), Some(detail))
                    }
                    DeleteResult::Missing => {
                        PlanItem::left_alone("missing", p.session_key.clone(), p.reason.clone())
                    }
                    DeleteResult::Conflict => {
                        PlanItem::left_alone("conflict", p.session_key.clone(), p.reason.clone())
                    }
                    DeleteResult::Refused => {
                        PlanItem::left_alone("refused", p.session_key.clone(), p.reason.clone())
                    }
                };
                group.push(item, limit);
            }
            summary.add(group);
        }
        Ok(summary)
    }

    fn snapshot_sources(&self, layout: &StateLayout, plan: &DeletePlanSet) -> Vec<SnapshotSource> {
        let mut out: Vec<SnapshotSource> = plan
            .agents
            .iter()
            .filter(|a| a.plans.iter().any(|p| p.result == DeleteResult::Deleted))
            .map(|a| SnapshotSource::agent(&a.paths))
            .collect();
        // The Gateway's state rows of a deleted session go too.
        if !out.is_empty() {
            out.push(SnapshotSource::Global {
                db: layout.state_db(),
            });
        }
        out
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut DeletePlanSet,
        hooks: &dyn Hooks,
    ) -> Result<DeleteReport> {
        let mut report = DeleteReport { agents: Vec::new() };
        let now = crate::units::now_ms;
        let mut done: Vec<String> = Vec::new();
        for a in &mut plan.agents {
            let mut results = Vec::with_capacity(a.plans.len());
            if !a.plans.iter().any(|p| p.result == DeleteResult::Deleted) {
                results.extend(a.plans.iter().map(|_| Deleted::Skipped));
                report.agents.push(results);
                continue;
            }
            let mut db = WritableDb::open_accepting(
                &layout.state_dir,
                &a.paths.db,
                Self::OLDER_SCHEMAS_WRITTEN,
            )?;
            // Before schema 23, the search rows of every transcript to delete are found in
            // one pass, not one scan a key.
            let deleted = a.plans.iter().filter(|p| p.result == DeleteResult::Deleted);
            let found = FoundSearchRows::find(&db.conn, &db.path, deleted)?;
            for p in &a.plans {
                if p.result != DeleteResult::Deleted {
                    results.push(Deleted::Skipped);
                    continue;
                }
                let applied = if hooks.interruption().requested() {
                    Err(Error::Interrupted)
                } else {
                    apply_delete(
                        &mut db,
                        p,
                        a.refs.now(),
                        &a.paths.sessions_dir,
                        now(),
                        &found,
                    )
                };
                match applied {
                    Ok(archived) => {
                        a.refs.forget(&p.session_key)?;
                        report_plugin_records(layout, p, hooks);
                        let state_rows = delete_state_rows(
                            &layout.state_dir,
                            &layout.state_db(),
                            a.paths.id.as_str(),
                            &p.session_key,
                        )?;
                        done.push(p.session_key.clone());
                        results.push(Deleted::Done {
                            archived,
                            state_rows,
                        });
                    }
                    Err(e)
                        if matches!(e.kind(), ErrorKind::Conflict | ErrorKind::LockedSession) =>
                    {
                        results.push(Deleted::Refused(e))
                    }
                    Err(e) => {
                        // Interrupted, or I/O or SQLite (a full disk: the next key would fail
                        // the same way): stop, naming what is already deleted.
                        if !done.is_empty() {
                            let when = match e {
                                Error::Interrupted => "the interruption",
                                _ => "the error",
                            };
                            hooks
                                .warn(format!("deleted before {when}: {}", done.join(", ")).into());
                        }
                        return Err(e);
                    }
                }
            }
            report.agents.push(results);
        }
        Ok(report)
    }

    /// One action per session to delete, with the archives its transcripts went to (the
    /// plan's names before the apply; the written ones after it).
    fn record_actions(
        &self,
        plan: &DeletePlanSet,
        report: Option<&DeleteReport>,
    ) -> Vec<crate::oplog::Action> {
        let mut out = Vec::new();
        for (ai, a) in plan.agents.iter().enumerate() {
            for (pi, p) in a.plans.iter().enumerate() {
                if p.result != DeleteResult::Deleted {
                    continue;
                }
                let entry = p.entry.as_ref().and_then(|e| e.entry().ok());
                let mut action = crate::oplog::Action {
                    agent_id: a.paths.id.to_string(),
                    session_key: p.session_key.clone(),
                    session_id: entry
                        .as_ref()
                        .map(|e| e.session_id().to_string())
                        .filter(|s| !s.is_empty()),
                    action: "delete".into(),
                    updated_at: entry.as_ref().map(|e| e.updated_at()),
                    ..Default::default()
                };
                match report
                    .and_then(|r| r.agents.get(ai))
                    .and_then(|r| r.get(pi))
                {
                    Some(Deleted::Done { archived, .. }) => {
                        action.archives = archived.iter().map(|f| f.archive_name.clone()).collect()
                    }
                    Some(Deleted::ByGateway { archived }) => {
                        action.archives = archived
                            .iter()
                            .filter_map(|f| f.file_name())
                            .map(|n| n.to_string_lossy().into_owned())
                            .collect()
                    }
                    Some(Deleted::Refused(e)) => action.refused = Some(e.to_string()),
                    Some(Deleted::Skipped) => continue,
                    None => {}
                }
                out.push(action);
            }
        }
        out
    }

    fn not_undoable(&self) -> Option<String> {
        (!self.options.archive).then(|| {
            "it ran with --no-archive: the transcripts were not archived, so nothing brings the sessions back but the snapshot (`backup restore`)".into()
        })
    }

    fn verify(&self, _: &StateLayout, plan: &Self::Plan, report: &Self::Report) -> Result<()> {
        for (a, results) in plan.agents.iter().zip(&report.agents) {
            let deleted =
                |r: &Deleted| matches!(r, Deleted::Done { .. } | Deleted::ByGateway { .. });
            if !results.iter().any(deleted) {
                continue;
            }
            let store = AgentStore::open(a.paths.clone())?;
            for (p, r) in a.plans.iter().zip(results) {
                let gone = !deleted(r) || store.entry_by_exact_key(&p.session_key)?.is_none();
                ensure(gone, || format!("session {} is still there", p.session_key))?;
            }
        }
        Ok(())
    }
}

impl super::online::OnlineOperation for DeleteOp {
    /// `sessions.delete` per key, with the session id and `updatedAt` the plan saw as its
    /// expectations (the admin's own `--expect-*` when given): it deletes what was shown or
    /// nothing. `deleteTranscript` is the archive choice (`--no-archive`: false).
    fn apply_online(
        &mut self,
        layout: &StateLayout,
        plan: &mut DeletePlanSet,
        rpc: &mut dyn super::online::SessionRpc,
        hooks: &dyn Hooks,
    ) -> Result<DeleteReport> {
        let mut report = DeleteReport { agents: Vec::new() };
        let mut calls = super::online::Calls::new(
            plan.agents
                .iter()
                .flat_map(|a| {
                    a.plans
                        .iter()
                        .filter(|p| p.result == DeleteResult::Deleted)
                        .map(|p| {
                            super::online::CallTarget::session(a.paths.id.as_str(), &p.session_key)
                        })
                })
                .collect(),
        );
        for a in &plan.agents {
            let mut results = Vec::with_capacity(a.plans.len());
            for p in &a.plans {
                if p.result != DeleteResult::Deleted {
                    results.push(Deleted::Skipped);
                    continue;
                }
                if hooks.interruption().requested() {
                    return Err(Error::Interrupted);
                }
                let entry = p.entry.as_ref().map(|e| e.entry()).transpose()?;
                let mut params = serde_json::json!({
                    "key": p.session_key,
                    "agentId": a.paths.id.as_str(),
                    "deleteTranscript": self.options.archive,
                });
                if let Some(e) = entry.as_ref().filter(|e| !e.session_id().is_empty()) {
                    params["expectedSessionId"] = e.session_id().into();
                }
                let updated_at = self
                    .options
                    .expect_updated_at
                    .or_else(|| entry.as_ref().map(|e| e.updated_at()));
                if let Some(ms) = updated_at {
                    params["expectedSessionUpdatedAt"] = ms.into();
                }
                let answer =
                    match super::online::call(rpc, "sessions.delete", &p.session_key, params) {
                        Ok(answer) => answer,
                        Err(e) if super::online::is_refusal(&e) => {
                            calls.answered("refused");
                            results.push(Deleted::Refused(e));
                            continue;
                        }
                        Err(e) => return Err(calls.lost(e, hooks)),
                    };
                if answer.get("deleted").and_then(serde_json::Value::as_bool) != Some(true) {
                    calls.answered("gone");
                    results.push(Deleted::Refused(Error::not_found(
                        format!(
                            "session {} was gone when the Gateway came to delete it",
                            p.session_key
                        ),
                        None,
                    )));
                    continue;
                }
                let archived: Vec<std::path::PathBuf> = answer
                    .get("archived")
                    .and_then(serde_json::Value::as_array)
                    .map(|a| {
                        a.iter()
                            .filter_map(serde_json::Value::as_str)
                            .map(std::path::PathBuf::from)
                            .collect()
                    })
                    .unwrap_or_default();
                // The entry is kept beside the archive of its own transcript, as the offline
                // delete keeps it, so that `undelete` brings it back as it was.
                if let Some(e) = entry.as_ref().filter(|e| e.unreadable.is_none()) {
                    let kept: Vec<KeptEntry> = archived
                        .iter()
                        .filter_map(|p| p.file_name()?.to_str())
                        .filter(|name| name.starts_with(&format!("{}.", e.session_id())))
                        .map(|name| {
                            KeptEntry::new(
                                a.paths.id.as_str(),
                                &p.session_key,
                                e.session_id(),
                                name,
                                crate::units::now_ms(),
                                false,
                                e.fields.clone(),
                            )
                        })
                        .collect();
                    write_kept_entries(&layout.state_dir, &kept)?;
                }
                calls.answered("deleted");
                results.push(Deleted::ByGateway { archived });
            }
            report.agents.push(results);
        }
        Ok(report)
    }
}

impl super::owner::OwnerOperation for DeleteOp {
    /// Every planned deletion by the owner's code (`deleteSessionEntry` with the session id
    /// the plan saw, archiving the transcript unless `--no-archive`), in one run; the archive
    /// files it wrote are the new files of the agent's sessions directory named by the
    /// session id, and the entry is kept beside them as the offline delete keeps it.
    fn apply_by_owner(
        &mut self,
        layout: &StateLayout,
        plan: &mut DeletePlanSet,
        owner: &super::owner::OwnerWriter,
        hooks: &dyn Hooks,
    ) -> Result<DeleteReport> {
        if hooks.interruption().requested() {
            return Err(Error::Interrupted);
        }
        let listing = |dir: &std::path::Path| -> std::collections::BTreeSet<std::path::PathBuf> {
            std::fs::read_dir(dir)
                .map(|rd| rd.flatten().map(|e| e.path()).collect())
                .unwrap_or_default()
        };
        let before: Vec<_> = plan
            .agents
            .iter()
            .map(|a| listing(&a.paths.sessions_dir))
            .collect();
        let mut calls = Vec::new();
        let mut entries = Vec::new();
        for a in &plan.agents {
            for p in a.plans.iter().filter(|p| p.result == DeleteResult::Deleted) {
                let entry = p.entry.as_ref().map(|e| e.entry()).transpose()?;
                calls.push(super::owner::OwnerCall::Delete {
                    agent_id: a.paths.id.to_string(),
                    session_key: p.session_key.clone(),
                    expected_session_id: entry
                        .as_ref()
                        .map(|e| e.session_id().to_string())
                        .unwrap_or_default(),
                    archive_transcript: self.options.archive,
                });
                entries.push(entry);
            }
        }
        let mut answers = owner.write(&calls)?.into_iter();
        let mut entries = entries.into_iter();
        let mut report = DeleteReport { agents: Vec::new() };
        for (a, before) in plan.agents.iter().zip(before) {
            let new: Vec<std::path::PathBuf> = listing(&a.paths.sessions_dir)
                .difference(&before)
                .cloned()
                .collect();
            let mut results = Vec::with_capacity(a.plans.len());
            for p in &a.plans {
                if p.result != DeleteResult::Deleted {
                    results.push(Deleted::Skipped);
                    continue;
                }
                let entry = entries.next().flatten();
                match answers.next() {
                    Some(Ok(())) => {}
                    Some(Err(said)) => {
                        results.push(Deleted::Refused(Error::Conflict {
                            message: format!(
                                "OpenClaw {} refused to delete {}: {said}",
                                owner.package.version, p.session_key
                            ),
                            hint: Some("look at the session, then run the command again".into()),
                        }));
                        continue;
                    }
                    None => {
                        return Err(Error::Internal(
                            "the owner's code answered fewer calls".into(),
                        ))
                    }
                }
                let archived: Vec<std::path::PathBuf> = match &entry {
                    Some(e) if !e.session_id().is_empty() => new
                        .iter()
                        .filter(|f| {
                            f.file_name()
                                .and_then(|n| n.to_str())
                                .is_some_and(|n| n.starts_with(&format!("{}.", e.session_id())))
                        })
                        .cloned()
                        .collect(),
                    _ => Vec::new(),
                };
                if let Some(e) = entry.as_ref().filter(|e| e.unreadable.is_none()) {
                    let kept: Vec<KeptEntry> = archived
                        .iter()
                        .filter_map(|f| f.file_name()?.to_str())
                        .map(|name| {
                            KeptEntry::new(
                                a.paths.id.as_str(),
                                &p.session_key,
                                e.session_id(),
                                name,
                                crate::units::now_ms(),
                                false,
                                e.fields.clone(),
                            )
                        })
                        .collect();
                    write_kept_entries(&layout.state_dir, &kept)?;
                }
                results.push(Deleted::ByGateway { archived });
            }
            report.agents.push(results);
        }
        Ok(report)
    }
}
