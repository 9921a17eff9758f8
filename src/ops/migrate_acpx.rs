//! `migrate acpx`: move the ACPX plugin's state from `<workspace>/state` to `<state>/acpx`,
//! with OpenClaw's marker. The files are copied and published without overwriting, and the
//! old copy stays; the state database that records the marker is snapshotted first.

use std::path::PathBuf;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{PlanGroup, PlanItem, PlanSummary};
use crate::backup::SnapshotSource;
use crate::error::Result;
use crate::migrate::acpx::{self, AcpxPlan};
use crate::paths::{AgentPaths, StateLayout};
use crate::units::format_bytes;

pub struct MigrateAcpxOp {
    pub workspace: Option<PathBuf>,
    pub now: i64,
}

/// One line on what the move does.
pub fn describe(plan: &AcpxPlan) -> String {
    format!(
        "{} ACPX state {} ({} records, {} files, {}) to {}",
        if plan.resume {
            "finish the interrupted move of"
        } else {
            "move"
        },
        plan.source.display(),
        plan.records,
        plan.files,
        format_bytes(plan.bytes),
        plan.destination.display()
    )
}

impl Operation for MigrateAcpxOp {
    type Plan = AcpxPlan;
    /// The old directory, which stays.
    type Report = PathBuf;

    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::Required;

    /// The ACPX move is the state dir's, not an agent's; it finishes its own staging itself.
    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        Vec::new()
    }

    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        layout.require_exists()
    }

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<AcpxPlan> {
        acpx::plan(layout, self.workspace.as_deref())
    }

    fn summarize(&self, plan: &AcpxPlan, _limit: usize) -> Result<PlanSummary> {
        if let Some(why) = &plan.nothing_to_do {
            return Ok(PlanSummary::new(why.clone()));
        }
        let mut summary = PlanSummary::new(describe(plan));
        let mut group = PlanGroup::new(None);
        group.push(
            PlanItem::change(
                if plan.resume { "finish" } else { "move" },
                plan.source.display().to_string(),
                Some(format!("to {}", plan.destination.display())),
            ),
            1,
        );
        summary.add(group);
        Ok(summary)
    }

    fn snapshot_sources(&self, layout: &StateLayout, _plan: &AcpxPlan) -> Vec<SnapshotSource> {
        vec![SnapshotSource::Global {
            db: layout.state_db(),
        }]
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut AcpxPlan,
        _hooks: &dyn Hooks,
    ) -> Result<PathBuf> {
        acpx::apply(layout, plan, self.now)
    }

    fn verify(&self, _: &StateLayout, plan: &Self::Plan, _: &Self::Report) -> Result<()> {
        ensure(plan.destination.is_dir(), || {
            format!("{} is missing after the move", plan.destination.display())
        })
    }
}
