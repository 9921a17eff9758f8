//! `backup restore SNAPSHOT --session KEY|ID`: one session out of a verified snapshot into
//! the live store (`mutate::restore`), the others untouched. Snapshot on request: the
//! change only adds that session's rows, in one transaction.

use std::path::PathBuf;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::restore::source_for;
use super::summary::{PlanGroup, PlanItem, PlanSummary};
use super::targets::check_owned_agent;
use crate::backup::{verified, SnapshotManifest, SnapshotSource};
use crate::error::{Error, Result, ResultExt};
use crate::mutate::restore::{
    apply_session_from_snapshot, plan_session_from_snapshot, SnapshotSessionPlan,
    SnapshotSessionReport,
};
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
}

pub struct RestoreSessionPlan {
    pub agent: AgentPaths,
    pub manifest: SnapshotManifest,
    pub plan: SnapshotSessionPlan,
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

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<RestoreSessionPlan> {
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
        let plan = plan_session_from_snapshot(&store, &self.snapshot, &self.words)?;
        Ok(RestoreSessionPlan {
            agent,
            manifest,
            plan,
        })
    }

    fn summarize(&self, plan: &RestoreSessionPlan, _limit: usize) -> Result<PlanSummary> {
        let p = &plan.plan;
        let mut summary = PlanSummary::new(format!(
            "restore session {} from snapshot {}",
            p.session_key, plan.manifest.snapshot_id
        ));
        let mut group = PlanGroup::new(Some(p.agent_id.clone()));
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
            1,
        );
        summary.add(group);
        Ok(summary)
    }

    fn snapshot_sources(&self, _: &StateLayout, plan: &RestoreSessionPlan) -> Vec<SnapshotSource> {
        vec![SnapshotSource::agent(&plan.agent)]
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut RestoreSessionPlan,
        _hooks: &dyn Hooks,
    ) -> Result<SnapshotSessionReport> {
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
