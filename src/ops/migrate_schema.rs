//! `migrate schema`: the offline upgrade OpenClaw 2026.9.6's `openclaw doctor --fix` does to an
//! older release's databases (agent 19/21 -> 23, state 15/16/17 -> 18), statement for statement
//! (docs/openclaw/SCHEMA-UPGRADE.md). One-way: the releases before 2026.9.6 refuse the store
//! afterwards, which the plan says. Every database is snapshotted first (required) and upgraded
//! in one transaction of its own, the state database first, as OpenClaw does; a killed run leaves
//! each database as it was or upgraded, and the re-run upgrades the rest.

use std::path::PathBuf;

use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{count, PlanGroup, PlanItem, PlanSummary};
use super::targets::Selection;
use crate::backup::SnapshotSource;
use crate::error::{Error, Result, ResultExt};
use crate::paths::{AgentPaths, StateLayout};
use crate::store::db::upgrade::{self, EventPayload, UpgradeError, UpgradeInputs, UpgradePath};
use crate::store::releases::{self, DatabaseRole};
use crate::store::{ReadOnlyDb, SchemaInfo, SchemaStatus};

pub struct MigrateSchemaOp {
    pub selection: Selection,
    agents: Vec<AgentPaths>,
}

impl MigrateSchemaOp {
    pub fn new(selection: Selection) -> Self {
        MigrateSchemaOp {
            selection,
            agents: Vec::new(),
        }
    }
}

/// One database to upgrade.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DatabaseUpgrade {
    /// "the state database", "agent main".
    pub database: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    pub path: PathBuf,
    pub from: i64,
    pub to: i64,
    /// The releases whose databases have the schema it has now.
    pub releases: String,
    /// The upgrade path replayed (`agent-19-to-23.from-2026.8.2`).
    pub upgrade: &'static str,
    /// What OpenClaw's own `doctor --fix` goes on to repair in an agent database, as it does on
    /// any store, after its upgrade: this tool leaves it for OpenClaw's next doctor run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub left_for_openclaw_doctor: Option<LeftForDoctor>,
    #[serde(skip)]
    sessions_dir: Option<PathBuf>,
}

/// The sessions OpenClaw's own `doctor --fix` repairs after its upgrade of an agent database
/// (docs/openclaw/SCHEMA-UPGRADE.md §6): not part of the upgrade, and left as they are here.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeftForDoctor {
    /// Sessions without an explicit name: its title repair sets `displayName` from the
    /// first user message (activity kept).
    pub untitled_sessions: u64,
    /// Sessions with runtime model state (`model`, `modelProvider`, `contextTokens`): its
    /// routing repair clears it on those outside the configured model route (a question of
    /// the config and its providers, which this tool does not answer).
    pub sessions_with_model_state: u64,
}

impl LeftForDoctor {
    pub fn words(&self) -> String {
        format!(
            "left for OpenClaw's own `openclaw doctor --fix`, which repairs them on any store after its upgrade: {} without a name (it sets displayName from the first user message), {} with runtime model state (it clears model, modelProvider and contextTokens where they are outside the configured model route)",
            crate::ops::summary::count(self.untitled_sessions as usize, "session"),
            crate::ops::summary::count(self.sessions_with_model_state as usize, "session"),
        )
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MigrateSchemaPlan {
    pub databases: Vec<DatabaseUpgrade>,
    /// Agent databases of an older schema outside the selection: still refused by 2026.9.6
    /// afterwards, until they are upgraded too.
    pub left_behind: Vec<String>,
    /// The release whose schema the databases take.
    pub release: &'static str,
    /// Agent databases already at the current schema whose row in the state database's
    /// registry still names an older one: a run stopped between an agent's upgrade and its
    /// registry row leaves that, and the next run records it.
    pub registry: Vec<RegistryRefresh>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RegistryRefresh {
    pub agent_id: String,
    pub path: PathBuf,
    pub schema: i64,
}

/// The agent's database, when it is at the current schema and the state database (current too)
/// has a registry row for it that names another schema.
fn stale_registry_row(layout: &StateLayout, agent: &AgentPaths) -> Result<Option<RegistryRefresh>> {
    let state = layout.state_db();
    if !agent.db.is_file() || !state.is_file() {
        return Ok(None);
    }
    let db = ReadOnlyDb::open_as_stored(&agent.db)?;
    let info = SchemaInfo::read(&db, DatabaseRole::Agent)?;
    if info.status != SchemaStatus::Known {
        return Ok(None);
    }
    let ro = ReadOnlyDb::open(&state)?;
    if SchemaInfo::read(&ro, DatabaseRole::Global)?.status != SchemaStatus::Known {
        return Ok(None);
    }
    let recorded =
        crate::store::db::state::recorded_schema(ro.conn(), agent.id.as_str()).at(&state)?;
    Ok(recorded
        .filter(|v| *v != info.user_version)
        .map(|_| RegistryRefresh {
            agent_id: agent.id.as_str().to_string(),
            path: agent.db.clone(),
            schema: info.user_version,
        }))
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MigrateSchemaReport {
    pub upgraded: Vec<DatabaseUpgrade>,
}

fn path_by_name(name: &str) -> &'static UpgradePath {
    upgrade::PATHS
        .iter()
        .find(|p| p.name == name)
        .expect("a path of the table")
}

/// The upgrade of one database, or none when it is current; refused when it is older and of a
/// schema no known path starts from.
fn plan_database(
    database: String,
    agent: Option<&AgentPaths>,
    path: PathBuf,
    role: DatabaseRole,
) -> Result<Option<DatabaseUpgrade>> {
    if !path.is_file() {
        return Ok(None);
    }
    let db = ReadOnlyDb::open_as_stored(&path)?;
    if role == DatabaseRole::Agent
        && !crate::store::db::meta::table_exists(db.conn(), "session_nodes")
    {
        return Ok(None);
    }
    let info = SchemaInfo::read(&db, role)?;
    if info.status != SchemaStatus::Older {
        return Ok(None);
    }
    let Some(p) = upgrade::recognise(db.conn(), role).at(&path)? else {
        return Err(Error::UnsupportedSchema {
            message: format!(
                "{} has {}, a layout this tool does not know how to upgrade (it upgrades the {} databases of OpenClaw {}); nothing was changed",
                path.display(),
                info.provenance(),
                match role {
                    DatabaseRole::Agent => "agent",
                    DatabaseRole::Global => "state",
                },
                upgrade::PATHS
                    .iter()
                    .filter(|p| p.role == role)
                    .map(|p| p.written_by)
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            hint: Some(format!(
                "upgrade OpenClaw to {} or newer and run its `openclaw doctor --fix` (one-way)",
                releases::written().version
            )),
        });
    };
    if let Some(what) = upgrade::rows_needing_openclaw(db.conn()).at(&path)? {
        return Err(Error::UnsupportedSchema {
            message: format!(
                "{} holds {what}, which OpenClaw's upgrade rewrites with its own code; this tool does not; nothing was changed",
                path.display()
            ),
            hint: Some(format!(
                "upgrade OpenClaw to {} or newer and run its `openclaw doctor --fix` (one-way)",
                releases::written().version
            )),
        });
    }
    let left_for_openclaw_doctor = match role {
        DatabaseRole::Agent => {
            let (untitled_sessions, sessions_with_model_state) =
                crate::store::db::nodes::doctor_repair_candidates(db.conn()).at(&path)?;
            (untitled_sessions + sessions_with_model_state > 0).then_some(LeftForDoctor {
                untitled_sessions,
                sessions_with_model_state,
            })
        }
        DatabaseRole::Global => None,
    };
    Ok(Some(DatabaseUpgrade {
        database,
        agent_id: agent.map(|a| a.id.to_string()),
        path,
        from: info.user_version,
        to: p.to,
        releases: info.releases.clone(),
        upgrade: p.name,
        left_for_openclaw_doctor,
        sessions_dir: agent.map(|a| a.sessions_dir.clone()),
    }))
}

/// The stored event's payload by the importer's rule (OpenClaw's `prepareTranscriptPayload`).
fn event_payload(conn: &Connection, text: &str) -> rusqlite::Result<EventPayload> {
    let Ok(event) = crate::json_value::from_str::<serde_json::Value>(text) else {
        return Ok(EventPayload::Plain);
    };
    Ok(
        match crate::writer::transcript::payload::prepare(conn, text, &event)? {
            crate::writer::transcript::payload::StoredPayload::Plain => EventPayload::Plain,
            crate::writer::transcript::payload::StoredPayload::Compressed { frame, navigation } => {
                EventPayload::Compressed { frame, navigation }
            }
        },
    )
}

impl Operation for MigrateSchemaOp {
    type Plan = MigrateSchemaPlan;
    type Report = MigrateSchemaReport;

    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::Required;
    const TAKES_OLDER_SCHEMA: bool = true;

    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        self.agents.clone()
    }

    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        self.agents = self.selection.whole_agents(layout, "migrate schema")?;
        Ok(())
    }

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<MigrateSchemaPlan> {
        let mut databases = Vec::new();
        // The state database first, as OpenClaw upgrades it.
        if let Some(d) = plan_database(
            "the state database".into(),
            None,
            layout.state_db(),
            DatabaseRole::Global,
        )? {
            databases.push(d);
        }
        for agent in &self.agents {
            if let Some(d) = plan_database(
                format!("agent {}", agent.id),
                Some(agent),
                agent.db.clone(),
                DatabaseRole::Agent,
            )? {
                databases.push(d);
            }
        }
        let chosen: Vec<&str> = self.agents.iter().map(|a| a.id.as_str()).collect();
        let mut left_behind = Vec::new();
        for id in layout.known_agents().0 {
            if chosen.contains(&id.as_str()) {
                continue;
            }
            let db = layout.agent(&id).db;
            let older = ReadOnlyDb::open(&db)
                .and_then(|ro| SchemaInfo::read(&ro, DatabaseRole::Agent))
                .is_ok_and(|i| i.status == SchemaStatus::Older && i.user_version > 1);
            if older {
                left_behind.push(id.to_string());
            }
        }
        let mut registry = Vec::new();
        for agent in &self.agents {
            if !databases.iter().any(|d| d.path == agent.db) {
                registry.extend(stale_registry_row(layout, agent)?);
            }
        }
        Ok(MigrateSchemaPlan {
            databases,
            left_behind,
            release: releases::written().version,
            registry,
        })
    }

    fn summarize(&self, plan: &MigrateSchemaPlan, limit: usize) -> Result<PlanSummary> {
        let written = releases::written().version;
        let mut summary = PlanSummary::new(format!(
            "upgrade {} to the schema of OpenClaw {written} as its `openclaw doctor --fix` does; one-way: OpenClaw releases before {written} can no longer open the store afterwards",
            count(plan.databases.len(), "database"),
        ));
        for d in &plan.databases {
            let mut group = PlanGroup::new(d.agent_id.clone());
            group.push(
                PlanItem::change(
                    "upgrade",
                    d.path.display().to_string(),
                    Some(format!(
                        "schema {} ({}) -> {} (OpenClaw {written})",
                        d.from, d.releases, d.to
                    )),
                ),
                limit,
            );
            if let Some(left) = &d.left_for_openclaw_doctor {
                group.push(
                    PlanItem::left_alone("left", "sessions".to_string(), Some(left.words())),
                    limit,
                );
            }
            summary.add(group);
        }
        for r in &plan.registry {
            let mut group = PlanGroup::new(Some(r.agent_id.clone()));
            group.push(
                PlanItem::change(
                    "record",
                    r.path.display().to_string(),
                    Some(format!(
                        "schema {} in the state database's registry (an earlier run stopped before recording it)",
                        r.schema
                    )),
                ),
                limit,
            );
            summary.add(group);
        }
        if !plan.left_behind.is_empty() {
            let mut group = PlanGroup::new(None);
            for a in &plan.left_behind {
                group.push(
                    PlanItem::left_alone(
                        "left-behind",
                        format!("agent {a}"),
                        Some(format!(
                            "not selected: OpenClaw {written} refuses it until it is upgraded too (--all-agents)"
                        )),
                    ),
                    limit,
                );
            }
            summary.add(group);
        }
        Ok(summary)
    }

    fn snapshot_sources(&self, _: &StateLayout, plan: &MigrateSchemaPlan) -> Vec<SnapshotSource> {
        plan.databases
            .iter()
            .map(|d| match (&d.agent_id, &d.sessions_dir) {
                (Some(agent_id), Some(sessions_dir)) => SnapshotSource::Agent {
                    agent_id: agent_id.clone(),
                    db: d.path.clone(),
                    sessions_dir: sessions_dir.clone(),
                },
                _ => SnapshotSource::Global { db: d.path.clone() },
            })
            .collect()
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut MigrateSchemaPlan,
        hooks: &dyn Hooks,
    ) -> Result<MigrateSchemaReport> {
        let mut upgraded = Vec::new();
        let progress = hooks.progress();
        progress.start("upgrading", Some(plan.databases.len() as u64));
        for d in &plan.databases {
            if hooks.interruption().requested() {
                return Err(Error::Interrupted);
            }
            crate::writer::check_owned_path(&layout.state_dir, &d.path)?;
            let mut conn = Connection::open_with_flags(
                &d.path,
                OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
            )
            .at(&d.path)?;
            conn.busy_timeout(std::time::Duration::from_millis(5000))
                .at(&d.path)?;
            let now_ms = crate::test_hooks::now_ms();
            let stop = || hooks.interruption().requested();
            let inputs = UpgradeInputs {
                now_ms,
                agent_id: d.agent_id.as_deref(),
                payload: &event_payload,
                stop: &stop,
            };
            crate::writer::crash_point("migrate-schema-before");
            match upgrade::apply(&mut conn, path_by_name(d.upgrade), &inputs) {
                Ok(()) => {}
                Err(UpgradeError::Stopped) => return Err(Error::Interrupted),
                Err(UpgradeError::Sqlite(e)) => return Err(Error::sqlite(&d.path, e)),
                Err(UpgradeError::ForeignKeys(n)) => {
                    return Err(Error::Conflict {
                        message: format!(
                            "{}: {n} row(s) would violate foreign keys after the upgrade; it was rolled back, nothing was changed",
                            d.path.display()
                        ),
                        hint: Some("see them with the doctor and repair them first".into()),
                    }
                    .with_remedy(crate::remedy::Remedy::RunDoctor))
                }
                Err(UpgradeError::UnknownStep(s)) => {
                    return Err(Error::Internal(format!("{}: {s}", d.upgrade)))
                }
            }
            drop(conn);
            crate::writer::crash_point("migrate-schema-upgraded");
            // The state database's registry row, as OpenClaw's doctor records the upgrade.
            if let Some(agent) = &d.agent_id {
                record_in_registry(layout, agent, d.to, &d.path, now_ms)?;
            }
            upgraded.push(d.clone());
            progress.advance(1);
        }
        for r in &plan.registry {
            record_in_registry(
                layout,
                &r.agent_id,
                r.schema,
                &r.path,
                crate::test_hooks::now_ms(),
            )?;
        }
        progress.finish();
        Ok(MigrateSchemaReport { upgraded })
    }

    /// Every database is at its new schema.
    fn verify(
        &self,
        _: &StateLayout,
        plan: &MigrateSchemaPlan,
        _: &MigrateSchemaReport,
    ) -> Result<()> {
        for d in &plan.databases {
            let db = ReadOnlyDb::open(&d.path)?;
            let v: i64 = db
                .conn()
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .at(&d.path)?;
            ensure(v == d.to, || {
                format!(
                    "{} is at schema {v} after its upgrade to {}",
                    d.path.display(),
                    d.to
                )
            })?;
        }
        Ok(())
    }
}

/// `agent_databases` of the state database, when it has the agent's row and is current.
fn record_in_registry(
    layout: &StateLayout,
    agent: &str,
    schema: i64,
    db: &std::path::Path,
    now_ms: i64,
) -> Result<()> {
    let state = layout.state_db();
    if !state.is_file() {
        return Ok(());
    }
    let current = ReadOnlyDb::open(&state)
        .and_then(|ro| SchemaInfo::read(&ro, DatabaseRole::Global))
        .is_ok_and(|i| i.status == SchemaStatus::Known);
    if !current {
        return Ok(());
    }
    crate::writer::check_owned_path(&layout.state_dir, &state)?;
    let size = std::fs::metadata(db).map(|m| m.len() as i64).unwrap_or(0);
    let conn = Connection::open_with_flags(
        &state,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .at(&state)?;
    conn.busy_timeout(std::time::Duration::from_millis(5000))
        .at(&state)?;
    upgrade::record_agent_database(&conn, agent, schema, now_ms, size).at(&state)?;
    Ok(())
}
