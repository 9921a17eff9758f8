//! `status`: what a state dir holds, gathered read-only.

use std::path::PathBuf;

use serde::Serialize;

use crate::custody::{probe, OwnershipProbe};
use crate::error::{Result, ResultExt};
use crate::paths::{AgentPaths, StateDirChoice, StateLayout};
use crate::remedy::{Remedy, Warning};
use crate::store::{
    releases, sidecar_path, AgentStore, DatabaseRole, ReadOnlyDb, SchemaInfo, StoreKind,
};

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseStatus {
    pub path: PathBuf,
    pub exists: bool,
    pub bytes: u64,
    pub wal_bytes: Option<u64>,
    pub shm_bytes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema: Option<SchemaInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentStatus {
    pub agent_id: String,
    pub store: StoreKind,
    pub database: DatabaseStatus,
    pub sessions: u64,
    pub tombstones: u64,
    pub archives: u64,
    pub cold_archives: u64,
    /// A `sessions.json` still waiting for import into SQLite.
    pub legacy_pending: Option<PathBuf>,
    pub legacy_entries: Option<u64>,
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AcpxStatus {
    pub configured_state_dir: Option<String>,
    /// The old default `<workspace>/state` with `sessions/*.json` records, not yet adopted.
    pub pending_sources: Vec<PathBuf>,
    /// Every ACPX state that hides sessions or needs a decision, each time it is there.
    pub problems: Vec<AcpxProblem>,
}

/// The plugin state entry that records the ACPX move (OpenClaw's own marker).
pub const ACPX_PLUGIN_ID: &str = "acpx";
pub const ACPX_NAMESPACE: &str = "state-directory-migration";
pub const ACPX_ENTRY_KEY: &str = "workspace-state-v1";

/// An ACPX state that hides sessions from OpenClaw or waits for a decision
/// (`docs/openclaw/ACPX.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum AcpxProblem {
    /// Old records, empty destination, no `stateDir`: adopt them.
    Pending { source: PathBuf, records: usize },
    /// Old records beside an occupied destination that is not their adoption: OpenClaw reads
    /// the destination only, so the old records are hidden.
    HiddenBesideOccupied {
        source: PathBuf,
        destination: PathBuf,
        records: usize,
    },
    /// The move completed and the old copy is still there (no longer read).
    LeftoverAfterAdoption {
        source: PathBuf,
        destination: PathBuf,
    },
    /// The marker says a move started and did not complete.
    Incomplete { destination: PathBuf },
}

impl AcpxProblem {
    /// What it is, in a sentence.
    pub fn describe(&self) -> String {
        match self {
            AcpxProblem::Pending { source, records } => format!(
                "ACPX state at {} ({records} session record(s)) is waiting for adoption",
                source.display()
            ),
            AcpxProblem::HiddenBesideOccupied {
                source,
                destination,
                records,
            } => format!(
                "{records} ACPX session record(s) at {} are hidden: OpenClaw reads {}, which already holds other state",
                source.display(),
                destination.display()
            ),
            AcpxProblem::LeftoverAfterAdoption {
                source,
                destination,
            } => format!(
                "the old ACPX state at {} is still there after its adoption into {}; OpenClaw no longer reads it",
                source.display(),
                destination.display()
            ),
            AcpxProblem::Incomplete { destination } => format!(
                "the ACPX move into {} started and did not complete (marker completed:false)",
                destination.display()
            ),
        }
    }

    /// What resolves it (the ACPX migration named by its remedy phrase where it does).
    pub fn resolution(&self) -> String {
        match self {
            AcpxProblem::Pending { source, .. } => format!(
                "adopt it with the ACPX migration, or pin plugins.entries.acpx.config.stateDir to {}",
                source.display()
            ),
            AcpxProblem::HiddenBesideOccupied { source, destination, .. } => format!(
                "inspect both: pin plugins.entries.acpx.config.stateDir to {} to keep reading the old records, or merge them into {} by hand",
                source.display(),
                destination.display()
            ),
            AcpxProblem::LeftoverAfterAdoption { source, .. } => format!(
                "check the adopted copy, then remove {} (or keep it as a backup; it is reported until then)",
                source.display()
            ),
            AcpxProblem::Incomplete { .. } => {
                "adopt it with the ACPX migration (it resumes or redoes the move)".to_string()
            }
        }
    }

    /// Whether the ACPX migration resolves it.
    pub fn migration_resolves(&self) -> bool {
        matches!(
            self,
            AcpxProblem::Pending { .. } | AcpxProblem::Incomplete { .. }
        )
    }
}

/// OpenClaw's ACPX move marker: its destination and whether the move completed.
pub fn acpx_marker(layout: &StateLayout) -> Result<Option<(PathBuf, bool)>> {
    let path = layout.state_db();
    if !path.exists() {
        return Ok(None);
    }
    let db = ReadOnlyDb::open(&path)?;
    let value: Option<String> = crate::store::db::state::plugin_state(
        db.conn(),
        ACPX_PLUGIN_ID,
        ACPX_NAMESPACE,
        ACPX_ENTRY_KEY,
    )
    .at(&path)?;
    Ok(value
        .and_then(|v| serde_json::from_str::<serde_json::Value>(&v).ok())
        .and_then(|v| {
            Some((
                PathBuf::from(v.get("destination")?.as_str()?),
                v.get("completed")?.as_bool()?,
            ))
        }))
}

/// Old-default workspace state dirs with their `sessions/*.json` record counts.
fn acpx_old_sources(layout: &StateLayout) -> Vec<(PathBuf, usize)> {
    let mut workspaces: Vec<PathBuf> = vec![layout.state_dir.join("workspace")];
    let (agents, _) = layout.known_agents();
    for a in agents {
        if let Some(ws) = layout.config.workspace(a.as_str()) {
            let p = match (ws.strip_prefix("~/"), &layout.home) {
                (Some(rest), Some(home)) => home.join(rest),
                _ => PathBuf::from(ws),
            };
            workspaces.push(p);
        }
    }
    workspaces.sort();
    workspaces.dedup();
    workspaces
        .into_iter()
        .filter_map(|ws| {
            let records = std::fs::read_dir(ws.join("state").join("sessions"))
                .map(|rd| {
                    rd.flatten()
                        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
                        .count()
                })
                .unwrap_or(0);
            (records > 0).then(|| (ws.join("state"), records))
        })
        .collect()
}

/// Every ACPX state that hides sessions or waits for a decision (none with an explicit
/// `stateDir`: OpenClaw then reads exactly that).
pub fn acpx_problems(layout: &StateLayout) -> Vec<AcpxProblem> {
    if layout.config.acpx_state_dir().is_some() {
        return Vec::new();
    }
    let dest = layout.state_dir.join("acpx");
    let dest_empty = std::fs::read_dir(&dest)
        .map(|mut d| d.next().is_none())
        .unwrap_or(true);
    let marker = acpx_marker(layout).ok().flatten();
    let mut out = Vec::new();
    if let Some((destination, false)) = &marker {
        out.push(AcpxProblem::Incomplete {
            destination: destination.clone(),
        });
    }
    let adopted = matches!(&marker, Some((d, true)) if *d == dest);
    for (source, records) in acpx_old_sources(layout) {
        if dest_empty {
            out.push(AcpxProblem::Pending { source, records });
        } else if adopted {
            out.push(AcpxProblem::LeftoverAfterAdoption {
                source,
                destination: dest.clone(),
            });
        } else if !matches!(&marker, Some((d, false)) if *d == dest) {
            out.push(AcpxProblem::HiddenBesideOccupied {
                source,
                destination: dest.clone(),
                records,
            });
        }
    }
    out
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusReport {
    pub state_dir: PathBuf,
    pub state_dir_source: StateDirChoice,
    pub config_path: Option<PathBuf>,
    pub agents: Vec<AgentStatus>,
    pub rejected_agent_names: Vec<String>,
    pub state_database: DatabaseStatus,
    pub acpx: AcpxStatus,
    pub custody: OwnershipProbe,
    pub releases: ReleasesStatus,
}

/// Which OpenClaw releases open the state dir's databases, taken together.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReleasesStatus {
    /// Each database's schema, in words too.
    pub databases: Vec<DatabaseSchemaStatus>,
    /// Releases that open every database as it is.
    pub open_as_is: Vec<String>,
    /// Releases that open it after upgrading the state database on their first command.
    pub open_after_state_upgrade: Vec<String>,
    /// Releases that open it once their `openclaw doctor --fix` upgraded its agent databases.
    pub open_after_doctor_fix: Vec<String>,
    /// Releases that refuse it, in words, grouped by the database they refuse.
    pub refusing: Vec<String>,
    /// Whether one release opens every database as it is, or every database is of one release
    /// newer than this tool knows (false for a store of no database).
    pub agree: bool,
    /// The newer release the store belongs to ("OpenClaw 2026.9.8"), when it belongs to one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub newer_release: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseSchemaStatus {
    pub database: String,
    pub schema: i64,
    /// The releases whose own code creates that schema, in words.
    pub releases: String,
}

/// The schema of each readable database of the state dir: the state database first, then the
/// agents' (pre-SQLite agent databases included: they tell a 2026.7 store).
pub fn database_schemas(layout: &StateLayout) -> Vec<releases::DatabaseSchema> {
    let mut out = Vec::new();
    let state = database_status(&layout.state_db(), DatabaseRole::Global);
    if let Some(s) = &state.schema {
        out.push(releases::DatabaseSchema::state(s.user_version).named(s.app_version.clone()));
    }
    for id in layout.known_agents().0 {
        let db = database_status(&layout.agent(&id).db, DatabaseRole::Agent);
        if let Some(s) = &db.schema {
            out.push(
                releases::DatabaseSchema::agent(id.as_str(), s.user_version)
                    .named(s.app_version.clone()),
            );
        }
    }
    out
}

/// [`releases::judge`] of these databases, for `status`.
pub fn releases_status(databases: &[releases::DatabaseSchema]) -> ReleasesStatus {
    let verdict = releases::judge(databases);
    let newer = releases::newer_owner(databases);
    let names = |rs: &[&releases::Release]| rs.iter().map(|r| r.version.to_string()).collect();
    ReleasesStatus {
        databases: databases
            .iter()
            .map(|d| DatabaseSchemaStatus {
                database: d.label.clone(),
                schema: d.schema,
                releases: releases::describe(d.role, d.schema),
            })
            .collect(),
        open_as_is: names(&verdict.as_is),
        open_after_state_upgrade: names(&verdict.after_state_upgrade),
        open_after_doctor_fix: names(&verdict.after_doctor_fix),
        refusing: releases::describe_refusals(&verdict.refusing),
        agree: verdict.agree() || newer.is_some(),
        newer_release: newer.map(|n| n.words()),
    }
}

fn file_size(p: &std::path::Path) -> Option<u64> {
    std::fs::metadata(p).ok().map(|m| m.len())
}

pub fn database_status(path: &std::path::Path, role: DatabaseRole) -> DatabaseStatus {
    let mut st = DatabaseStatus {
        path: path.to_path_buf(),
        exists: path.is_file(),
        bytes: file_size(path).unwrap_or(0),
        wal_bytes: file_size(&sidecar_path(path, "-wal")),
        shm_bytes: file_size(&sidecar_path(path, "-shm")),
        schema: None,
        error: None,
    };
    if st.exists {
        match ReadOnlyDb::open(path).and_then(|db| SchemaInfo::read(&db, role)) {
            Ok(s) => st.schema = Some(s),
            Err(e) => st.error = Some(e.to_string()),
        }
    }
    st
}

fn acpx_status(layout: &StateLayout) -> AcpxStatus {
    AcpxStatus {
        configured_state_dir: layout.config.acpx_state_dir().map(String::from),
        pending_sources: acpx_pending(layout),
        problems: acpx_problems(layout),
    }
}

/// Old-default ACPX state dirs (`<workspace>/state` with `sessions/*.json`) waiting for
/// adoption into `<state>/acpx`, when no `stateDir` is configured.
pub fn acpx_pending(layout: &StateLayout) -> Vec<PathBuf> {
    acpx_problems(layout)
        .into_iter()
        .filter_map(|p| match p {
            AcpxProblem::Pending { source, .. } => Some(source),
            _ => None,
        })
        .collect()
}

pub fn gather(layout: &StateLayout) -> Result<StatusReport> {
    gather_agents(layout, None)
}

/// [`gather`] for the agents a command line named (`--agent`, `--store`: each with the
/// database it names), or every known agent.
pub fn gather_agents(layout: &StateLayout, named: Option<&[AgentPaths]>) -> Result<StatusReport> {
    layout.require_exists()?;
    let (ids, rejected) = layout.known_agents();
    let chosen: Vec<AgentPaths> = match named {
        Some(named) => named.to_vec(),
        None => ids.iter().map(|id| layout.agent(id)).collect(),
    };
    let mut agents = Vec::new();
    for paths in chosen {
        let id = paths.id.clone();
        paths.check_readable()?;
        let database = database_status(&paths.db, DatabaseRole::Agent);
        let legacy_pending = paths.legacy_index.clone().filter(|p| p.is_file());
        let mut status = AgentStatus {
            agent_id: id.to_string(),
            store: StoreKind::Empty,
            database,
            sessions: 0,
            tombstones: 0,
            archives: 0,
            cold_archives: 0,
            legacy_entries: None,
            legacy_pending,
            warnings: Vec::new(),
        };
        match AgentStore::open(paths.clone()) {
            Ok(mut store) => {
                status.store = store.kind;
                if store.kind == StoreKind::Legacy {
                    status.sessions = store.sessions()?.len() as u64;
                } else {
                    let counts = store.counts()?;
                    status.sessions = counts.get("sessions").copied().unwrap_or(0);
                    status.tombstones = counts.get("tombstones").copied().unwrap_or(0);
                    status.archives = counts.get("archives").copied().unwrap_or(0);
                    status.cold_archives = counts.get("coldArchives").copied().unwrap_or(0);
                }
                if let Some(p) = &status.legacy_pending {
                    status.legacy_entries = crate::legacy::LegacyIndex::load(p)
                        .ok()
                        .map(|i| i.entries.len() as u64);
                }
                status.warnings = store.warnings;
            }
            Err(e) if status.database.exists => {
                // Sessions may well be in it: never "empty".
                status.store = StoreKind::Unreadable;
                status.warnings.push(Warning::with_remedy(
                    format!("{e}; run the doctor to see what it is and how to repair it"),
                    Remedy::RunDoctor,
                ));
            }
            Err(e) => status.warnings.push(e.to_string().into()),
        }
        agents.push(status);
    }
    let state_database = database_status(&layout.state_db(), DatabaseRole::Global);
    let mut schemas: Vec<releases::DatabaseSchema> = Vec::new();
    if let Some(s) = &state_database.schema {
        schemas.push(releases::DatabaseSchema::state(s.user_version).named(s.app_version.clone()));
    }
    for a in &agents {
        if let Some(s) = &a.database.schema {
            schemas.push(
                releases::DatabaseSchema::agent(&a.agent_id, s.user_version)
                    .named(s.app_version.clone()),
            );
        }
    }
    // The releases that open the store are the whole state dir's, whichever agents are shown.
    if named.is_some() {
        schemas = database_schemas(layout);
    }
    Ok(StatusReport {
        releases: releases_status(&schemas),
        state_dir: layout.state_dir.clone(),
        state_dir_source: layout.state_dir_choice,
        config_path: layout.config.path.clone(),
        agents,
        rejected_agent_names: rejected,
        state_database,
        acpx: acpx_status(layout),
        custody: probe(layout),
    })
}

/// The run id of the newest import run (ours or OpenClaw's) when it is unfinished (neither
/// `completedAt` nor `failedAt`), lists `store_path` as a target, and started no earlier than
/// `not_before_ms` (when the live owner took custody: an import names its run after it holds
/// the state dir, so an older unfinished run is a crashed one, not the owner's). Only the
/// newest is read: custody lets one import run at a time, and a live one wrote its manifest
/// last. An unreadable manifest reads as no run: this only tells a live import from a pending
/// one.
pub fn unfinished_run_for(
    runs_dir: &std::path::Path,
    store_path: &std::path::Path,
    not_before_ms: Option<i64>,
) -> Option<String> {
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Target {
        store_path: std::path::PathBuf,
    }
    // Only these fields are kept: the moves a manifest lists are skipped as they are read.
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase")]
    struct Run {
        run_id: String,
        #[serde(default)]
        targets: Vec<Target>,
        completed_at: Option<serde::de::IgnoredAny>,
        failed_at: Option<serde::de::IgnoredAny>,
    }
    // `session-sqlite-<ms>-<id8>.json`: the newest has the largest start time.
    let newest = std::fs::read_dir(runs_dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let started: u64 = name
                .strip_prefix("session-sqlite-")?
                .strip_suffix(".json")?
                .split('-')
                .next()?
                .parse()
                .ok()?;
            Some((started, e.path()))
        })
        .max()?;
    if not_before_ms.is_some_and(|t| (newest.0 as i64) < t) {
        return None;
    }
    let f = std::fs::File::open(newest.1).ok()?;
    let run: Run = serde_json::from_reader(std::io::BufReader::new(f)).ok()?;
    (run.completed_at.is_none()
        && run.failed_at.is_none()
        && run.targets.iter().any(|t| t.store_path == store_path))
    .then_some(run.run_id)
}
