//! `backup restore SNAPSHOT --session KEY|ID`: one session out of a verified snapshot into
//! the live store (`mutate::restore`), the others untouched. Snapshot on request: the
//! change only adds that session's rows, in one transaction.
//!
//! With `--replace`, a live session of that key goes first through the delete operation
//! itself (`ops::delete`: its transcripts archived and published, its entry kept, its state
//! rows removed), then the snapshot's session is copied in. Two transactions: a run killed
//! between them leaves the session deleted and archived, and the same command run again
//! finds the key free and only restores.

use std::path::PathBuf;

use super::delete::{DeleteOp, DeletePlanSet, Deleted};
use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::restore::source_for;
use super::summary::count;
use super::summary::{PlanGroup, PlanItem, PlanSummary};
use super::targets::{check_owned_agent, Selection};
use crate::backup::{verified, SnapshotManifest, SnapshotSource};
use crate::error::{Error, Result, ResultExt};
use crate::mutate::restore::{
    apply_session_from_snapshot, plan_session_from_snapshot, SnapshotSessionPlan,
    SnapshotSessionReport,
};
use crate::mutate::{DeleteOptions, DeleteResult};
use crate::paths::{AgentPaths, StateLayout};
use crate::store::AgentStore;
use crate::writer::WritableDb;

pub struct RestoreSessionOp {
    pub snapshot: PathBuf,
    /// A key, a bare key or a session id, as the snapshot holds it.
    pub words: String,
    /// Take the session from a snapshot whose schema differs from the live database's (its
    /// columns are copied by name).
    pub allow_schema_change: bool,
    /// Replace a live session of the key (`--replace`).
    pub replace: bool,
}

pub struct RestoreSessionPlan {
    pub agent: AgentPaths,
    pub manifest: SnapshotManifest,
    pub plan: SnapshotSessionPlan,
    /// With `--replace` and a live session of the key: its deletion, planned as `delete`
    /// plans one.
    pub replaced: Option<(DeleteOp, DeletePlanSet)>,
}

/// The live session of the key, planned for deletion as `delete KEY` plans it (the session id
/// the plan read is its expectation); refused as delete refuses it (the agent's main session).
fn plan_replacement(
    layout: &StateLayout,
    agent: &AgentPaths,
    key: &str,
    hooks: &dyn Hooks,
) -> Result<Option<(DeleteOp, DeletePlanSet)>> {
    let db = crate::store::ReadOnlyDb::open(&agent.db)?;
    let Some(live) = crate::store::db::nodes::current_session_id(db.conn(), key).at(db.path())?
    else {
        return Ok(None);
    };
    drop(db);
    let selection = Selection::resolve(layout, &[agent.id.to_string()], false)?;
    let mut delete = DeleteOp::new(
        selection,
        vec![key.to_string()],
        DeleteOptions {
            archive: true,
            expect_updated_at: None,
            expect_session_id: Some(Some(live)),
        },
    );
    delete.resolve(layout)?;
    let plan = delete.plan(layout, hooks)?;
    let refused = plan
        .agents
        .iter()
        .flat_map(|a| &a.plans)
        .find(|p| p.result != DeleteResult::Deleted);
    if let Some(p) = refused {
        return Err(Error::Conflict {
            message: format!(
                "the live session {key} cannot be replaced: {}",
                p.reason.as_deref().unwrap_or("delete refuses it")
            ),
            hint: None,
        });
    }
    Ok(Some((delete, plan)))
}

impl Operation for RestoreSessionOp {
    type Plan = RestoreSessionPlan;
    type Report = SnapshotSessionReport;

    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::OnRequest;
    /// The rows are copied from a snapshot of the same schema (a snapshot of another is
    /// refused), proven against 2026.8.2, 2026.9.1, 2026.9.4 and 2026.9.5 (reference checks
    /// `restore_session_on_release_stores`, `release_restores_of_2026_9_1`, `_9_4`).
    const OLDER_SCHEMAS_WRITTEN: &'static [i64] =
        crate::store::releases::OLDER_AGENT_SCHEMAS_WRITTEN;

    fn agents_in_scope(&self, layout: &StateLayout) -> Vec<AgentPaths> {
        super::restore::snapshot_agent_scope(&self.snapshot, layout)
    }

    /// Before custody: a schema this tool does not write, and a schema change, are refused
    /// without a trace (the plan checks the latter again on the verified snapshot).
    fn check_early(&self, layout: &StateLayout) -> Result<()> {
        super::guard::check_schemas(&self.agents_in_scope(layout), Self::OLDER_SCHEMAS_WRITTEN)?;
        if self.allow_schema_change {
            return Ok(());
        }
        let Ok(manifest) = SnapshotManifest::read(&self.snapshot.join(crate::backup::MANIFEST))
        else {
            // Planning says what is wrong with it.
            return Ok(());
        };
        match source_for(layout, &manifest) {
            Ok(SnapshotSource::Agent { db, .. }) => {
                super::restore::check_schema_change(layout, &self.snapshot, &manifest, &db)
            }
            // A global snapshot, or one of an unknown agent: planning refuses it.
            _ => Ok(()),
        }
    }

    /// With `--replace`: archives an earlier deletion committed but could not publish go out
    /// first, as `delete` does.
    fn recover(&mut self, layout: &StateLayout, hooks: &dyn Hooks) -> Result<()> {
        if !self.replace {
            return Ok(());
        }
        super::pending::publish_pending_archives(
            &layout.state_dir,
            &self.agents_in_scope(layout),
            Self::OLDER_SCHEMAS_WRITTEN,
            hooks,
        )
    }

    fn plan(&mut self, layout: &StateLayout, hooks: &dyn Hooks) -> Result<RestoreSessionPlan> {
        let manifest = verified(&self.snapshot)?;
        let agent = match source_for(layout, &manifest)? {
            SnapshotSource::Agent { agent_id, .. } => {
                layout.agent(&crate::paths::AgentId::parse(&agent_id)?)
            }
            SnapshotSource::Global { .. } => {
                return Err(Error::InvalidArgument {
                    message: format!(
                        "snapshot {} is of the global database; sessions live in agent databases",
                        self.snapshot.display()
                    ),
                    hint: None,
                })
            }
        };
        check_owned_agent(layout, &agent)?;
        if !self.allow_schema_change {
            super::restore::check_schema_change(layout, &self.snapshot, &manifest, &agent.db)?;
        }
        let store = AgentStore::open(agent.clone())?;
        let plan = plan_session_from_snapshot(&store, &self.snapshot, &self.words, self.replace)?;
        drop(store);
        let replaced = if self.replace {
            plan_replacement(layout, &agent, &plan.session_key, hooks)?
        } else {
            None
        };
        // A transcript the deletion keeps (another key or a cold archive refers to it) stays
        // live: the snapshot's copy of it would collide.
        if let Some((_, set)) = &replaced {
            let kept = set
                .agents
                .iter()
                .flat_map(|a| &a.plans)
                .flat_map(|p| &p.kept_generations)
                .find(|g| plan.windows.contains(g));
            if let Some(w) = kept {
                return Err(Error::Conflict {
                    message: format!(
                        "transcript {w} of {} stays live after the deletion (another session or archive refers to it); nothing was changed",
                        plan.session_key
                    ),
                    hint: None,
                });
            }
        }
        Ok(RestoreSessionPlan {
            agent,
            manifest,
            plan,
            replaced,
        })
    }

    fn summarize(&self, plan: &RestoreSessionPlan, _limit: usize) -> Result<PlanSummary> {
        let p = &plan.plan;
        let mut summary = PlanSummary::new(format!(
            "{} session {} from snapshot {}",
            if plan.replaced.is_some() {
                "replace"
            } else {
                "restore"
            },
            p.session_key,
            plan.manifest.snapshot_id
        ));
        let mut group = PlanGroup::new(Some(p.agent_id.clone()));
        for a in plan.replaced.iter().flat_map(|(_, set)| &set.agents) {
            for d in &a.plans {
                let events: u64 = d.generations.iter().map(|g| g.events).sum();
                group.push(
                    PlanItem::change(
                        "delete",
                        d.session_key.clone(),
                        Some(format!(
                            "the live session {}: {} archived ({})",
                            d.entry
                                .as_ref()
                                .and_then(|e| e.entry().ok())
                                .map(|e| e.session_id().to_string())
                                .unwrap_or_default(),
                            count(d.generations.len(), "transcript"),
                            count(events as usize, "event")
                        )),
                    ),
                    usize::MAX,
                );
            }
        }
        group.push(
            PlanItem::change(
                "restore",
                p.session_key.clone(),
                Some(format!(
                    "{} window(s), {} events; other sessions untouched",
                    p.windows.len(),
                    p.events
                )),
            ),
            usize::MAX,
        );
        summary.add(group);
        Ok(summary)
    }

    fn snapshot_sources(
        &self,
        layout: &StateLayout,
        plan: &RestoreSessionPlan,
    ) -> Vec<SnapshotSource> {
        match &plan.replaced {
            Some((delete, set)) => delete.snapshot_sources(layout, set),
            None => vec![SnapshotSource::agent(&plan.agent)],
        }
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut RestoreSessionPlan,
        hooks: &dyn Hooks,
    ) -> Result<SnapshotSessionReport> {
        if let Some((delete, set)) = plan.replaced.as_mut() {
            let report = delete.apply(layout, set, hooks)?;
            if let Some(Deleted::Refused(e)) = report.agents.iter().flatten().next() {
                return Err(Error::Conflict {
                    message: format!(
                        "the live session {} was not replaced: {e}; nothing was changed",
                        plan.plan.session_key
                    ),
                    hint: Some("run the command again".into()),
                });
            }
            crate::test_hooks::crash_point("restore-session-replaced");
        }
        let mut db = WritableDb::open_accepting(
            &layout.state_dir,
            &plan.agent.db,
            Self::OLDER_SCHEMAS_WRITTEN,
        )?;
        apply_session_from_snapshot(&mut db, &plan.plan, crate::test_hooks::now_ms())
    }

    fn verify(
        &self,
        _: &StateLayout,
        plan: &RestoreSessionPlan,
        report: &SnapshotSessionReport,
    ) -> Result<()> {
        let p = &plan.plan;
        let db = crate::store::ReadOnlyDb::open(&plan.agent.db)?;
        super::targets::ensure_key_names(&db, &p.session_key, &p.session_id)?;
        let mut stored = 0u64;
        for w in &p.windows {
            stored += crate::store::db::events::count(db.conn(), w).at(db.path())? as u64;
        }
        ensure(stored == p.events && report.events == p.events, || {
            format!(
                "{} holds {stored} events, the snapshot {}",
                p.session_key, p.events
            )
        })
    }
}
