//! `backup prune --keep N`: the safety snapshots pile up (one per database per mutating run);
//! this removes the older ones of a repository, keeping the newest `keep` of each database
//! (each agent's, and the global one). Never removed: a snapshot that is not complete (being
//! written, or left by a killed run: `backup list` names those), and any snapshot of an agent
//! where an interrupted run left its staging files (a restore stopped half way may need every
//! copy). The newest snapshot of each database is always kept (`keep` is at least 1): the one
//! an interrupted run took just before it changed anything is its database's newest. Under
//! custody, so no run of ours writes a snapshot meanwhile. A snapshot goes by a rename to a
//! staging name first (`.tmp-pruned-*`), so a kill during its removal never leaves a
//! half-removed directory that looks like a snapshot.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{PlanGroup, PlanItem, PlanSummary};
use crate::backup::{list_snapshots, DatabaseManifest, SnapshotState};
use crate::error::{Error, Result, ResultExt};
use crate::paths::{AgentPaths, StateLayout};
use crate::units::format_bytes;

pub struct BackupPruneOp {
    /// The repository `--repository` named, else the safety snapshots' default one (which a
    /// store that never had a snapshot taken does not have: nothing to prune there, quietly).
    pub repository: Option<PathBuf>,
    /// Snapshots kept of each database, newest first; at least 1.
    pub keep: usize,
}

/// One snapshot the plan keeps or removes.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PlannedSnapshot {
    pub path: PathBuf,
    /// `agent <id>` or `global`.
    pub database: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    pub created_at: Option<String>,
    pub bytes: u64,
    /// Why it is kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_because: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BackupPrunePlan {
    pub repository_path: PathBuf,
    pub keep: usize,
    pub removed: Vec<PlannedSnapshot>,
    pub kept: Vec<PlannedSnapshot>,
}

impl BackupPrunePlan {
    pub fn removed_bytes(&self) -> u64 {
        self.removed.iter().map(|s| s.bytes).sum()
    }
}

fn dir_bytes(dir: &std::path::Path) -> u64 {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| e.metadata().ok())
        .filter(|m| m.is_file())
        .map(|m| m.len())
        .sum()
}

/// Agents of the state dir with an interrupted run's staging files beside their database.
fn agents_with_interrupted_runs(layout: &StateLayout) -> Vec<String> {
    let (ids, _) = layout.known_agents();
    ids.iter()
        .map(|id| layout.agent(id))
        .filter(|p| {
            crate::store::find_leftovers(p)
                .iter()
                .any(|l| l.kind == crate::store::LeftoverKind::StagingDir)
        })
        .map(|p| p.id.to_string())
        .collect()
}

pub fn plan_backup_prune(
    layout: &StateLayout,
    repository: &std::path::Path,
    keep: usize,
) -> Result<BackupPrunePlan> {
    plan_backup_prune_of(layout, repository, keep, list_snapshots(repository)?)
}

/// The plan over `listed` (complete snapshots newest first, as `list_snapshots` gives them).
fn plan_backup_prune_of(
    layout: &StateLayout,
    repository: &std::path::Path,
    keep: usize,
    listed: Vec<crate::backup::ListedSnapshot>,
) -> Result<BackupPrunePlan> {
    if keep == 0 {
        return Err(Error::invalid(
            "--keep 0 would remove every snapshot: keep at least 1 of each database",
        ));
    }
    let interrupted = agents_with_interrupted_runs(layout);
    let mut per_database: BTreeMap<String, usize> = BTreeMap::new();
    let (mut removed, mut kept) = (Vec::new(), Vec::new());
    for s in listed {
        if s.state != SnapshotState::Complete {
            continue;
        }
        let Some(m) = &s.manifest else { continue };
        let (database, agent_id) = match &m.database {
            DatabaseManifest::Agent { agent_id, .. } => {
                (format!("agent {agent_id}"), Some(agent_id.clone()))
            }
            DatabaseManifest::Global { .. } => ("global".to_string(), None),
        };
        let seen = per_database.entry(database.clone()).or_insert(0);
        *seen += 1;
        let mut planned = PlannedSnapshot {
            bytes: dir_bytes(&s.path),
            path: s.path.clone(),
            database,
            agent_id: agent_id.clone(),
            created_at: Some(m.created_at.clone()),
            kept_because: None,
        };
        if *seen <= keep {
            planned.kept_because = Some(format!("one of the newest {keep}"));
            kept.push(planned);
        } else if agent_id.as_ref().is_some_and(|a| interrupted.contains(a)) {
            planned.kept_because =
                Some("an interrupted run left staging files beside this agent's database".into());
            kept.push(planned);
        } else {
            removed.push(planned);
        }
    }
    Ok(BackupPrunePlan {
        repository_path: repository.to_path_buf(),
        keep,
        removed,
        kept,
    })
}

impl Operation for BackupPruneOp {
    type Plan = BackupPrunePlan;
    /// The snapshots removed.
    type Report = Vec<PathBuf>;

    /// It removes snapshots only: no database changes.
    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::Never;
    const CHECKS_STATE_DIR_RELEASE: bool = false;

    /// It touches no agent's files.
    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        Vec::new()
    }

    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        layout.require_exists()
    }

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<BackupPrunePlan> {
        let repository = match &self.repository {
            Some(named) => named.clone(),
            None => layout.snapshot_repository(),
        };
        if self.repository.is_none() && !repository.exists() {
            return plan_backup_prune_of(layout, &repository, self.keep, Vec::new());
        }
        plan_backup_prune(layout, &repository, self.keep)
    }

    fn summarize(&self, plan: &BackupPrunePlan, limit: usize) -> Result<PlanSummary> {
        let mut summary = PlanSummary::new(if plan.removed.is_empty() {
            format!(
                "nothing to remove from {}: {} snapshots kept (the newest {} of each database)",
                plan.repository_path.display(),
                plan.kept.len(),
                plan.keep
            )
        } else {
            format!(
                "Remove {} of {} snapshots ({}) from {}, keeping the newest {} of each database",
                plan.removed.len(),
                plan.removed.len() + plan.kept.len(),
                format_bytes(plan.removed_bytes()),
                plan.repository_path.display(),
                plan.keep
            )
        });
        let mut groups: BTreeMap<Option<String>, PlanGroup> = BTreeMap::new();
        for s in &plan.removed {
            let name = s
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            groups
                .entry(s.agent_id.clone())
                .or_insert_with(|| PlanGroup::new(s.agent_id.clone()))
                .push(
                    PlanItem::change(
                        "remove",
                        name,
                        Some(format!(
                            "{}{}, {}",
                            if s.agent_id.is_some() { "" } else { "global, " },
                            s.created_at.as_deref().unwrap_or("-"),
                            format_bytes(s.bytes)
                        )),
                    ),
                    limit,
                );
        }
        for g in groups.into_values() {
            summary.add(g);
        }
        Ok(summary)
    }

    fn snapshot_sources(
        &self,
        _layout: &StateLayout,
        _plan: &BackupPrunePlan,
    ) -> Vec<crate::backup::SnapshotSource> {
        Vec::new()
    }

    fn apply(
        &mut self,
        _layout: &StateLayout,
        plan: &mut BackupPrunePlan,
        hooks: &dyn Hooks,
    ) -> Result<Vec<PathBuf>> {
        let mut done = Vec::new();
        for s in &plan.removed {
            if hooks.interruption().requested() {
                return Err(Error::Interrupted);
            }
            let name = s
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let staged = plan.repository_path.join(format!(".tmp-pruned-{name}"));
            std::fs::rename(&s.path, &staged).at(&s.path)?;
            crate::test_hooks::crash_point("backup-prune-renamed");
            std::fs::remove_dir_all(&staged).at(&staged)?;
            done.push(s.path.clone());
        }
        let _ = crate::fsutil::fsync_dir(&plan.repository_path);
        Ok(done)
    }

    fn verify(&self, _: &StateLayout, plan: &BackupPrunePlan, _: &Vec<PathBuf>) -> Result<()> {
        for s in &plan.removed {
            ensure(!s.path.exists(), || {
                format!("{} is still there", s.path.display())
            })?;
        }
        for s in &plan.kept {
            ensure(s.path.is_dir(), || format!("{} is gone", s.path.display()))?;
        }
        Ok(())
    }
}
