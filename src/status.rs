//! `status`: what a state dir holds, gathered read-only.

use std::path::PathBuf;

use serde::Serialize;

use crate::custody::{probe, OwnershipProbe};
use crate::error::Result;
use crate::paths::{StateDirChoice, StateLayout};
use crate::remedy::Warning;
use crate::store::{sidecar_path, AgentStore, DatabaseRole, ReadOnlyDb, SchemaInfo, StoreKind};

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
    }
}

/// Old-default ACPX state dirs (`<workspace>/state` with `sessions/*.json`) waiting for
/// adoption into `<state>/acpx`, when no `stateDir` is configured.
pub fn acpx_pending(layout: &StateLayout) -> Vec<PathBuf> {
    let configured = layout.config.acpx_state_dir();
    let mut pending = Vec::new();
    if configured.is_none() {
        let dest = layout.state_dir.join("acpx");
        let dest_empty = std::fs::read_dir(&dest)
            .map(|mut d| d.next().is_none())
            .unwrap_or(true);
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
        for ws in workspaces {
            let sessions = ws.join("state").join("sessions");
            let has_records = std::fs::read_dir(&sessions)
                .map(|rd| {
                    rd.flatten()
                        .any(|e| e.file_name().to_string_lossy().ends_with(".json"))
                })
                .unwrap_or(false);
            if has_records && dest_empty {
                pending.push(ws.join("state"));
            }
        }
    }
    pending
}

pub fn gather(layout: &StateLayout) -> Result<StatusReport> {
    layout.require_exists()?;
    let (ids, rejected) = layout.known_agents();
    let mut agents = Vec::new();
    for id in ids {
        let paths = layout.agent(&id);
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
            Err(e) => status.warnings.push(e.to_string().into()),
        }
        agents.push(status);
    }
    Ok(StatusReport {
        state_dir: layout.state_dir.clone(),
        state_dir_source: layout.state_dir_choice,
        config_path: layout.config.path.clone(),
        agents,
        rejected_agent_names: rejected,
        state_database: database_status(&layout.state_db(), DatabaseRole::Global),
        acpx: acpx_status(layout),
        custody: probe(layout),
    })
}
