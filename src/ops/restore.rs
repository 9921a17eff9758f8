//! `backup restore --in-place`: swap a verified snapshot in for a live database, after a
//! verified snapshot of that database (required: the swap replaces it whole).

use std::path::{Path, PathBuf};

use super::guard::DamagedStore;
use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{PlanGroup, PlanItem, PlanSummary};
use crate::backup::SNAPSHOT_DB;
use crate::backup::{
    check_restorable, restore_in_place, verified, DatabaseManifest, SnapshotManifest,
    SnapshotSource,
};
use crate::error::{Error, Result};
use crate::paths::{AgentId, AgentPaths, StateLayout};
use crate::store::{DatabaseRole, ReadOnlyDb, SchemaInfo, SchemaStatus};

pub struct RestoreOp {
    pub snapshot: PathBuf,
    /// The agents the caller named (`--agent`): the snapshot must be of one of them.
    pub agents: Vec<String>,
    /// Install a snapshot whose schema differs from the live database's.
    pub allow_schema_change: bool,
}

pub struct RestorePlan {
    pub source: SnapshotSource,
    pub manifest: SnapshotManifest,
}

/// The agent a snapshot's manifest names, as a run's scope (none for the state database, or a
/// manifest that cannot be read, which planning then refuses).
pub fn snapshot_agent_scope(snapshot: &Path, layout: &StateLayout) -> Vec<AgentPaths> {
    SnapshotManifest::read(&snapshot.join(crate::backup::MANIFEST))
        .ok()
        .and_then(|m| match m.database {
            DatabaseManifest::Agent { agent_id, .. } => AgentId::parse(&agent_id).ok(),
            DatabaseManifest::Global { .. } => None,
        })
        .map(|id| layout.agent(&id))
        .into_iter()
        .collect()
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

impl RestoreOp {
    /// A snapshot goes back only where it came from: with `--agent`, that agent's database.
    fn check_agent(&self, manifest: &SnapshotManifest) -> Result<()> {
        if self.agents.is_empty() {
            return Ok(());
        }
        let of = match &manifest.database {
            DatabaseManifest::Agent { agent_id, .. } => {
                if self.agents.iter().any(|a| a == agent_id) {
                    return Ok(());
                }
                format!("agent {agent_id}'s database")
            }
            DatabaseManifest::Global { .. } => "the state database".to_string(),
        };
        Err(Error::Conflict {
            message: format!(
                "snapshot {} is a snapshot of {of}, not of agent {}; nothing was changed",
                self.snapshot.display(),
                self.agents.join(", ")
            ),
            hint: Some(
                "a snapshot is restored only over the database it was taken of: name its agent, or none"
                    .into(),
            ),
        })
    }
}

/// A snapshot's schema against the live database's: a restore that would change the schema
/// of a database (a schema-23 snapshot over a schema-19 database, or the other way) cuts the
/// release that owns the store off it, or leaves databases of different releases side by
/// side; refused unless the admin asks for exactly that (`--allow-schema-change`). The
/// message names both schemas and the releases that open the store afterwards.
pub fn check_schema_change(
    layout: &StateLayout,
    snapshot: &Path,
    manifest: &SnapshotManifest,
    live: &Path,
) -> Result<()> {
    use crate::store::releases::{self, DatabaseSchema};
    let role = match manifest.database {
        DatabaseManifest::Agent { .. } => DatabaseRole::Agent,
        DatabaseManifest::Global { .. } => DatabaseRole::Global,
    };
    let snap = SchemaInfo::read(&ReadOnlyDb::open(&snapshot.join(SNAPSHOT_DB))?, role)?;
    let live_info = if live.is_file() {
        Some(SchemaInfo::read(&ReadOnlyDb::open(live)?, role)?)
    } else {
        None
    };
    let changed = match &live_info {
        Some(l) => l.user_version != snap.user_version,
        // Nothing to compare with: only a schema no release this tool knows is refused.
        None => snap.status == SchemaStatus::Newer,
    };
    if !changed {
        return Ok(());
    }
    // The store as it would be: this database at the snapshot's schema.
    let label = match &manifest.database {
        DatabaseManifest::Agent { agent_id, .. } => DatabaseSchema::agent(agent_id, 0).label,
        DatabaseManifest::Global { .. } => DatabaseSchema::state(0).label,
    };
    let mut after: Vec<DatabaseSchema> = crate::status::database_schemas(layout)
        .into_iter()
        .filter(|d| d.label != label)
        .collect();
    after.push(DatabaseSchema {
        label,
        role,
        schema: snap.user_version,
        app_version: None,
    });
    let verdict = releases::judge(&after);
    let opens = if verdict.agree() {
        format!(
            "afterwards the store opens in OpenClaw {} only",
            releases::span(&verdict.as_is)
        )
    } else if !verdict.after_state_upgrade.is_empty() {
        format!(
            "afterwards its databases are of different releases; OpenClaw {} opens it after upgrading the state database",
            releases::span(&verdict.after_state_upgrade)
        )
    } else {
        "afterwards its databases are of different releases and no OpenClaw release opens it as it is".into()
    };
    let live_words = match &live_info {
        Some(l) => format!("the live database has {}", l.provenance()),
        None => "there is no live database".into(),
    };
    let newer = snap.status == SchemaStatus::Newer;
    Err(Error::UnsupportedSchema {
        message: format!(
            "snapshot {} has {}, {live_words}: installing it changes the schema ({opens}); nothing was changed",
            snapshot.display(),
            snap.provenance(),
        ),
        hint: Some(if newer {
            "restore it with the OpenClaw that wrote it, or pass --allow-schema-change to install it anyway".into()
        } else {
            "restore a snapshot of the same schema (backup list shows each one's), or pass --allow-schema-change to install it anyway".into()
        }),
    })
}

impl Operation for RestoreOp {
    type Plan = RestorePlan;
    type Report = ();

    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::Required;
    const DAMAGED_STORE: DamagedStore = DamagedStore::Replaced;
    const CHECKS_STATE_DIR_RELEASE: bool = false;

    /// Beside the snapshot being restored, so the two are found together.
    fn default_snapshot_dir(&self, layout: &StateLayout) -> PathBuf {
        self.snapshot
            .parent()
            .map(|p| p.to_path_buf())
            .unwrap_or_else(|| layout.safety_repository())
    }

    fn agents_in_scope(&self, layout: &StateLayout) -> Vec<AgentPaths> {
        snapshot_agent_scope(&self.snapshot, layout)
    }

    /// Before custody: a schema change is refused without a trace (the plan checks it again
    /// on the verified snapshot).
    fn check_early(&self, layout: &StateLayout) -> Result<()> {
        if self.allow_schema_change {
            return Ok(());
        }
        let Ok(manifest) = SnapshotManifest::read(&self.snapshot.join(crate::backup::MANIFEST))
        else {
            // Planning says what is wrong with it.
            return Ok(());
        };
        let source = source_for(layout, &manifest)?;
        check_schema_change(layout, &self.snapshot, &manifest, source.db())
    }

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<RestorePlan> {
        let manifest = verified(&self.snapshot)?;
        self.check_agent(&manifest)?;
        let source = source_for(layout, &manifest)?;
        if !self.allow_schema_change {
            check_schema_change(layout, &self.snapshot, &manifest, source.db())?;
        }
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
        hooks: &dyn Hooks,
    ) -> Result<()> {
        restore_in_place(
            &self.snapshot,
            &plan.manifest,
            &plan.source,
            &layout.state_dir,
            &|| hooks.interruption().requested(),
        )
    }

    /// The live file is now the snapshot's database, byte for byte.
    fn verify(&self, _: &StateLayout, plan: &Self::Plan, _: &Self::Report) -> Result<()> {
        let manifest = &plan.manifest;
        let (sha, _) = crate::digest::sha256_file(plan.source.db())?;
        ensure(sha == manifest.artifact.sha256, || {
            format!(
                "{} does not match snapshot {} after the restore",
                plan.source.db().display(),
                manifest.snapshot_id
            )
        })
    }
}
