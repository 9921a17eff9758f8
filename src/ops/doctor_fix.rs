//! `doctor --fix`: the safe repairs, after a verified snapshot of every database they change
//! (required: a repair rewrites rows that nothing else keeps a copy of).

use super::guard::DamagedStore;
use super::pipeline::{Hooks, Operation, SnapshotPolicy};
use super::summary::{count, PlanItem, PlanSummary};
use super::targets::check_owned;
use crate::backup::SnapshotSource;
use crate::doctor::{agents_to_repair, apply_fixes, run_checks, DoctorOptions, Finding, FixReport};
use crate::error::Result;
use crate::paths::{AgentId, AgentPaths, StateLayout};

pub struct DoctorFixOp {
    pub options: DoctorOptions,
    pub now: i64,
}

/// The findings as seen under custody; the fixable ones are the plan.
pub struct DoctorFixPlan {
    pub findings: Vec<Finding>,
}

impl DoctorFixPlan {
    pub fn fixable(&self) -> impl Iterator<Item = &Finding> {
        self.findings.iter().filter(|f| f.fixable)
    }
}

pub struct DoctorFixReport {
    pub fix: FixReport,
    /// What the checks find after the repairs.
    pub remaining: Vec<Finding>,
}

impl Operation for DoctorFixOp {
    type Plan = DoctorFixPlan;
    type Report = DoctorFixReport;

    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::Required;
    const DAMAGED_STORE: DamagedStore = DamagedStore::Repaired;
    /// The store is snapshotted as it is, broken foreign keys included: that is what the
    /// repair changes, and what a rollback must bring back.
    const KEEPS_BROKEN_FOREIGN_KEYS: bool = true;
    /// There only the repairs that release's own doctor makes are offered
    /// (`doctor::older_release`; the reference check `release_doctor_fix`).
    const OLDER_SCHEMAS_WRITTEN: &'static [i64] =
        crate::store::releases::OLDER_AGENT_SCHEMAS_WRITTEN;

    /// `--agent`'s agents, else every known agent (as the checks).
    fn agents_in_scope(&self, layout: &StateLayout) -> Vec<AgentPaths> {
        let ids = if self.options.agents.is_empty() {
            layout.known_agents().0
        } else {
            self.options.agents.clone()
        };
        ids.iter().map(|id| layout.agent(id)).collect()
    }

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<DoctorFixPlan> {
        let plan = DoctorFixPlan {
            findings: run_checks(layout, &self.options)?,
        };
        let sources = self.snapshot_sources(layout, &plan);
        check_owned(layout, sources.iter().map(|s| s.db()))?;
        Ok(plan)
    }

    fn summarize(&self, plan: &DoctorFixPlan, limit: usize) -> Result<PlanSummary> {
        let n = plan.fixable().count();
        let mut summary = PlanSummary::new(format!("apply {}", count(n, "safe repair")));
        for f in plan.fixable() {
            let item = PlanItem::change("repair", f.check, Some(f.message.clone()));
            summary.push(f.subject.agent_id.clone(), item, limit);
        }
        Ok(summary)
    }

    fn snapshot_sources(&self, layout: &StateLayout, plan: &DoctorFixPlan) -> Vec<SnapshotSource> {
        agents_to_repair(&plan.findings)
            .into_iter()
            .filter_map(|a| AgentId::parse(&a).ok())
            .map(|id| SnapshotSource::agent(&layout.agent(&id)))
            .collect()
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut DoctorFixPlan,
        _hooks: &dyn Hooks,
    ) -> Result<DoctorFixReport> {
        let fix = apply_fixes(layout, &plan.findings, self.now)?;
        Ok(DoctorFixReport {
            fix,
            remaining: run_checks(layout, &self.options)?,
        })
    }

    /// The checks ran again in `apply`; what they still find is reported, not an error: some
    /// findings are for a human.
    fn verify(&self, _: &StateLayout, _: &Self::Plan, _: &Self::Report) -> Result<()> {
        Ok(())
    }
}
