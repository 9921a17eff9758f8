//! `bundle import FILE`: the sessions of a bundle into one agent's database
//! (`mutate::bundle`). Snapshot on request: the change only adds the bundle's sessions, in
//! one transaction, and the bundle is only read.

use std::path::PathBuf;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{PlanGroup, PlanItem, PlanSummary};
use super::targets::{check_owned_agent, Selection};
use crate::backup::SnapshotSource;
use crate::error::{Error, Result, ResultExt};
use crate::mutate::bundle::{
    apply_bundle_import, plan_bundle_import, verify_bundle_file, BundleImportPlan,
    BundleImportReport, ImportNames, VerifiedBundle,
};
use crate::paths::{AgentPaths, StateLayout};
use crate::store::AgentStore;
use crate::writer::WritableDb;

pub struct BundleImportOp {
    pub selection: Selection,
    pub bundle: PathBuf,
    pub names: ImportNames,
    pub now: i64,
    agent: Option<AgentPaths>,
    verified: Option<VerifiedBundle>,
}

impl BundleImportOp {
    pub fn new(selection: Selection, bundle: PathBuf, names: ImportNames, now: i64) -> Self {
        BundleImportOp {
            selection,
            bundle,
            names,
            now,
            agent: None,
            verified: None,
        }
    }
}

pub struct BundleImportOpPlan {
    pub agent: AgentPaths,
    pub plan: BundleImportPlan,
}

impl Operation for BundleImportOp {
    type Plan = BundleImportOpPlan;
    type Report = BundleImportReport;

    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::OnRequest;
    /// Written through the same writer and event appender as `undelete`, which writes each
    /// older schema as its release does.
    const OLDER_SCHEMAS_WRITTEN: &'static [i64] =
        crate::store::releases::OLDER_AGENT_SCHEMAS_WRITTEN;

    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        self.agent.iter().cloned().collect()
    }

    /// The bundle, verified to its end before custody is taken (a bundle that does not
    /// verify is refused without a trace), and the one destination agent: `--agent`, else
    /// the default agent.
    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        self.verified = Some(verify_bundle_file(&self.bundle)?);
        let mut agents = self.selection.agents(layout)?;
        match agents.len() {
            1 => {
                self.agent = agents.pop();
                Ok(())
            }
            0 => Err(Error::not_found(
                format!(
                    "state dir {} has no agent to import into",
                    layout.state_dir.display()
                ),
                Some("name the agent with --agent ID".to_string()),
            )),
            n => Err(Error::InvalidArgument {
                message: format!("a bundle is imported into one agent, not {n}"),
                hint: Some("name one agent with --agent ID".into()),
            }),
        }
    }

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<BundleImportOpPlan> {
        let agent = self
            .agent
            .clone()
            .ok_or_else(|| Error::Internal("import planned before it was resolved".into()))?;
        check_owned_agent(layout, &agent)?;
        let store = AgentStore::open(agent.clone())?;
        let verified = self
            .verified
            .as_ref()
            .ok_or_else(|| Error::Internal("import planned before it was resolved".into()))?;
        let plan = plan_bundle_import(&store, verified, &self.names)?;
        Ok(BundleImportOpPlan { agent, plan })
    }

    fn summarize(&self, plan: &BundleImportOpPlan, limit: usize) -> Result<PlanSummary> {
        let p = &plan.plan;
        let m = &p.manifest;
        let mut summary = PlanSummary::new(format!(
            "import {} of agent {} (schema {}) into agent {} from {}",
            super::summary::count(p.sessions.len(), "session"),
            m.source.agent_id,
            m.source.agent_schema,
            p.agent_id,
            p.bundle.display(),
        ));
        let mut group = PlanGroup::new(Some(p.agent_id.clone()));
        for s in &p.sessions {
            let mut detail = format!("{} events", s.events);
            if s.key != s.source_key {
                detail.push_str(&format!(", was {}", s.source_key));
            }
            if s.session_id != s.source_session_id {
                detail.push_str(&format!(
                    ", new id {} (was {})",
                    s.session_id, s.source_session_id
                ));
            } else {
                detail.push_str(&format!(", id {}", s.session_id));
            }
            if s.absolute_paths > 0 {
                detail.push_str(&format!(
                    "; its entry names {} of the source machine",
                    super::summary::count(s.absolute_paths, "absolute path")
                ));
            }
            group.push(
                PlanItem::change("import", s.key.clone(), Some(detail)),
                limit,
            );
        }
        summary.add(group);
        Ok(summary)
    }

    fn snapshot_sources(
        &self,
        _layout: &StateLayout,
        plan: &BundleImportOpPlan,
    ) -> Vec<SnapshotSource> {
        vec![SnapshotSource::agent(&plan.agent)]
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut BundleImportOpPlan,
        _hooks: &dyn Hooks,
    ) -> Result<BundleImportReport> {
        let mut db = WritableDb::open_accepting(
            &layout.state_dir,
            &plan.agent.db,
            Self::OLDER_SCHEMAS_WRITTEN,
        )?;
        apply_bundle_import(&mut db, &plan.plan, self.now)
    }

    /// Every key names its session and every event of the bundle is stored.
    fn verify(
        &self,
        _: &StateLayout,
        plan: &BundleImportOpPlan,
        report: &BundleImportReport,
    ) -> Result<()> {
        let db = crate::store::ReadOnlyDb::open(&plan.agent.db)?;
        let mut total = 0u64;
        for s in &plan.plan.sessions {
            super::targets::ensure_key_names(&db, &s.key, &s.session_id)?;
            let stored =
                crate::store::db::events::count(db.conn(), &s.session_id).at(db.path())? as u64;
            ensure(stored == s.events, || {
                format!(
                    "{} holds {stored} events, the bundle {}",
                    s.session_id, s.events
                )
            })?;
            total += stored;
        }
        ensure(report.events == total, || {
            format!("{} events written, {total} stored", report.events)
        })
    }
}
