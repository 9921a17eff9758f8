//! `backup restore --in-place`: swap a verified snapshot in for a live database, after a
//! verified snapshot of that database (required: the swap replaces it whole).

use std::path::PathBuf;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{PlanGroup, PlanItem, PlanSummary};
use crate::backup::{
    check_restorable, restore_in_place, sha256_file, verified, DatabaseManifest, SnapshotManifest,
    SnapshotSource,
};
use crate::error::Result;
use crate::paths::{AgentId, StateLayout};

pub struct RestoreOp {
    pub snapshot: PathBuf,
}

pub struct RestorePlan {
    pub source: SnapshotSource,
    pub manifest: SnapshotManifest,
}

/// The database a snapshot belongs to in this state dir.
pub fn source_for(layout: &StateLayout, manifest: &SnapshotManifest) -> Result<SnapshotSource> {
    Ok(match &manifest.database {
        DatabaseManifest::Agent { agent_id, .. } => {
            SnapshotSource::agent(&layout.agent(&AgentId::parse(agent_id)?))
        }
        DatabaseManifest::Global { .. } => SnapshotSource::Global {
            db: layout.state_db(),
        },
    })
}

impl Operation for RestoreOp {
    type Plan = RestorePlan;
    type Report = ();

    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::Required;

    /// Beside the snapshot being restored, so the two are found together.
    fn default_snapshot_dir(&self, layout: &StateLayout) -> PathBuf {
        self.snapshot
            .parent()
            .map(|p| p.to_path_buf())
            .unwrap_or_else(|| layout.state_dir.join("openclaw-sessions-snapshots"))
    }

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<RestorePlan> {
        let manifest = verified(&self.snapshot)?;
        let source = source_for(layout, &manifest)?;
        check_restorable(&self.snapshot, &manifest, &source, &layout.state_dir)?;
        Ok(RestorePlan { source, manifest })
    }

    fn summarize(&self, plan: &RestorePlan, _limit: usize) -> Result<PlanSummary> {
        let mut summary = PlanSummary::new(format!(
            "replace {} with snapshot {}",
            plan.source.db().display(),
            plan.manifest.snapshot_id
        ));
        let agent = match &plan.source {
            SnapshotSource::Agent { agent_id, .. } => Some(agent_id.clone()),
            SnapshotSource::Global { .. } => None,
        };
        let mut group = PlanGroup::new(agent);
        group.push(
            PlanItem::change(
                "replace",
                plan.source.db().display().to_string(),
                Some(format!(
                    "with {} of {}",
                    plan.manifest.snapshot_id, plan.manifest.created_at
                )),
            ),
            1,
        );
        summary.add(group);
        Ok(summary)
    }

    fn snapshot_sources(&self, _layout: &StateLayout, plan: &RestorePlan) -> Vec<SnapshotSource> {
        vec![plan.source.clone()]
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut RestorePlan,
        _hooks: &dyn Hooks,
    ) -> Result<()> {
        restore_in_place(
            &self.snapshot,
            &plan.manifest,
            &plan.source,
            &layout.state_dir,
        )
    }

    /// The live file is now the snapshot's database, byte for byte.
    fn verify(&self, _: &StateLayout, plan: &Self::Plan, _: &Self::Report) -> Result<()> {
        let manifest = &plan.manifest;
        let (sha, _) = sha256_file(plan.source.db())?;
        ensure(sha == manifest.artifact.sha256, || {
            format!(
                "{} does not match snapshot {} after the restore",
                plan.source.db().display(),
                manifest.snapshot_id
            )
        })
    }
}
