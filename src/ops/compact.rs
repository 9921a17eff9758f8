//! `compact` and `compact --restore` as one operation of the pipeline: the plan (bytes per
//! session), the question, the snapshot, the apply (`mutate::compact`), the verification.
//! docs/openclaw/MEDIA.md says where the payloads go and what stands in for them.

use std::path::PathBuf;

use serde::Serialize;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{count, PlanGroup, PlanItem, PlanSummary};
use super::targets::{resolve_targets, Selection, Target};
use crate::backup::SnapshotSource;
use crate::error::{Error, Result};
use crate::mutate::compact::{
    apply_compact, apply_restore, plan_compact, plan_restore, row_digests, CompactOptions,
    MediaStore, RestorePlanned, RestoreResult, SessionCompaction, SessionDone,
};
use crate::paths::{AgentPaths, StateLayout};
use crate::store::ReadOnlyDb;
use crate::units::format_bytes;
use crate::writer::WritableDb;

/// One agent's share of a compact plan.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentCompaction {
    pub agent_id: String,
    pub database: PathBuf,
    /// Where the payloads go.
    pub media_dir: PathBuf,
    pub sessions: Vec<SessionCompaction>,
    /// What an apply did, per session.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub done: Vec<SessionDone>,
    #[serde(skip)]
    paths: Option<AgentPaths>,
}

impl AgentCompaction {
    pub fn events(&self) -> u64 {
        self.sessions.iter().map(|s| s.events).sum()
    }
    pub fn media_bytes(&self) -> u64 {
        self.sessions.iter().map(|s| s.media_bytes).sum()
    }
}

/// One agent's share of a restore plan.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentRestore {
    pub agent_id: String,
    pub database: PathBuf,
    pub media_dir: PathBuf,
    pub records: Vec<RestorePlanned>,
    /// Payload files removed after the verified restore.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub media_removed: Option<u64>,
    #[serde(skip)]
    paths: Option<AgentPaths>,
}

impl AgentRestore {
    fn due(&self) -> impl Iterator<Item = &RestorePlanned> {
        self.records.iter().filter(|r| {
            matches!(
                r.result,
                RestoreResult::Restored | RestoreResult::AlreadyOriginal
            )
        })
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase", tag = "mode")]
pub enum CompactPlan {
    Compact { agents: Vec<AgentCompaction> },
    Restore { agents: Vec<AgentRestore> },
}

/// `compact [--min-bytes] [--older-than] [KEY...]` or `compact --restore [KEY...]`.
pub struct CompactOp {
    pub selection: Selection,
    pub words: Vec<String>,
    pub options: CompactOptions,
    pub restore: bool,
    targets: Vec<Target>,
    agents: Vec<AgentPaths>,
}

impl CompactOp {
    pub fn new(
        selection: Selection,
        words: Vec<String>,
        options: CompactOptions,
        restore: bool,
    ) -> Self {
        CompactOp {
            selection,
            words,
            options,
            restore,
            targets: Vec::new(),
            agents: Vec::new(),
        }
    }

    /// The sessions named in `agent`, or `None` for all of its sessions.
    fn sessions_of(&self, agent: &AgentPaths) -> Option<Vec<String>> {
        if self.words.is_empty() {
            return None;
        }
        Some(
            self.targets
                .iter()
                .filter(|t| t.agent.id == agent.id)
                .filter_map(|t| t.session_id.clone())
                .collect(),
        )
    }
}

fn session_label(key: Option<&str>, id: &str) -> String {
    key.map_or_else(|| id.to_string(), str::to_string)
}

impl Operation for CompactOp {
    type Plan = CompactPlan;
    type Report = ();

    /// The rows lose their payloads (kept in files of the state dir): a verified snapshot of
    /// each database changed comes first.
    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::Required;

    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        self.agents.clone()
    }

    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        if self.words.is_empty() {
            self.agents = self.selection.agents(layout)?;
            return Ok(());
        }
        self.targets = resolve_targets(layout, &self.selection, &self.words)?;
        if let Some(t) = self.targets.iter().find(|t| t.missing.is_some()) {
            return Err(Error::not_found(
                t.missing.clone().unwrap_or_default(),
                Some("name a session `list` shows".to_string()),
            ));
        }
        self.agents = super::targets::agents_of(&self.targets);
        Ok(())
    }

    fn recover(&mut self, layout: &StateLayout, hooks: &dyn Hooks) -> Result<()> {
        for a in &self.agents {
            let store = MediaStore::new(&layout.state_dir, a.id.as_str());
            // Nothing is removed through a symbolic link: the plan refuses such a directory.
            let owned = [store.media.as_path(), store.records.as_path()];
            if super::targets::check_owned(layout, owned).is_err() {
                continue;
            }
            for path in store.remove_leftovers()? {
                hooks.note(format!(
                    "removed {}, left by an interrupted run",
                    path.display()
                ));
            }
            let orphans = store.collect_garbage()?;
            if orphans > 0 {
                hooks.note(format!(
                    "removed {orphans} payload file(s) of agent {} that no record needs, left by an interrupted run",
                    a.id
                ));
            }
        }
        Ok(())
    }

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<CompactPlan> {
        if self.restore {
            let mut agents = Vec::new();
            for p in &self.agents {
                let store = MediaStore::new(&layout.state_dir, p.id.as_str());
                if !p.db.is_file() {
                    continue;
                }
                let db = ReadOnlyDb::open(&p.db)?;
                let sessions = self.sessions_of(p);
                let records = plan_restore(&db, &store, sessions.as_deref())?;
                if records.is_empty() {
                    continue;
                }
                super::targets::check_owned_agent(layout, p)?;
                super::targets::check_owned(
                    layout,
                    [store.media.as_path(), store.records.as_path()],
                )?;
                agents.push(AgentRestore {
                    agent_id: p.id.to_string(),
                    database: p.db.clone(),
                    media_dir: store.media,
                    records,
                    media_removed: None,
                    paths: Some(p.clone()),
                });
            }
            return Ok(CompactPlan::Restore { agents });
        }
        let mut agents = Vec::new();
        for p in &self.agents {
            if !p.db.is_file() {
                continue;
            }
            let db = ReadOnlyDb::open(&p.db)?;
            let sessions = plan_compact(&db, self.sessions_of(p).as_deref(), &self.options)?;
            if sessions.is_empty() {
                continue;
            }
            if sessions.iter().any(|s| s.events > 0) {
                super::targets::check_owned_agent(layout, p)?;
                // The payload files and records go nowhere but into the state dir.
                let store = MediaStore::new(&layout.state_dir, p.id.as_str());
                super::targets::check_owned(
                    layout,
                    [store.media.as_path(), store.records.as_path()],
                )?;
            }
            agents.push(AgentCompaction {
                agent_id: p.id.to_string(),
                database: p.db.clone(),
                media_dir: MediaStore::new(&layout.state_dir, p.id.as_str()).media,
                sessions,
                done: Vec::new(),
                paths: Some(p.clone()),
            });
        }
        Ok(CompactPlan::Compact { agents })
    }

    fn summarize(&self, plan: &CompactPlan, limit: usize) -> Result<PlanSummary> {
        match plan {
            CompactPlan::Compact { agents } => {
                let events: u64 = agents.iter().map(AgentCompaction::events).sum();
                let bytes: u64 = agents.iter().map(AgentCompaction::media_bytes).sum();
                let mut summary = PlanSummary::new(format!(
                    "take {} of inline media out of {} (undone by compact --restore)",
                    format_bytes(bytes),
                    count(events as usize, "event")
                ));
                for a in agents {
                    let mut group = PlanGroup::new(Some(a.agent_id.clone()));
                    for s in &a.sessions {
                        let label = session_label(s.session_key.as_deref(), &s.session_id);
                        if s.events == 0 {
                            group.push(
                                PlanItem::left_alone(
                                    "unchanged",
                                    label,
                                    Some(format!(
                                        "{} stays inline",
                                        format_bytes(s.left_inline_bytes)
                                    )),
                                ),
                                limit,
                            );
                            continue;
                        }
                        let mut detail = format!(
                            "{} in {}",
                            format_bytes(s.media_bytes),
                            count(s.events as usize, "event")
                        );
                        if s.left_inline_bytes > 0 {
                            detail.push_str(&format!(
                                "; {} stays",
                                format_bytes(s.left_inline_bytes)
                            ));
                        }
                        group.push(PlanItem::change("compact", label, Some(detail)), limit);
                    }
                    if group.changes > 0 {
                        group.push(
                            PlanItem::left_alone(
                                "unchanged",
                                "archives",
                                Some("they keep their media".to_string()),
                            ),
                            limit,
                        );
                    }
                    summary.add(group);
                }
                Ok(summary)
            }
            CompactPlan::Restore { agents } => {
                let due: usize = agents.iter().map(|a| a.due().count()).sum();
                let bytes: u64 = agents
                    .iter()
                    .flat_map(|a| a.due())
                    .filter(|r| r.result == RestoreResult::Restored)
                    .map(|r| r.media_bytes)
                    .sum();
                let mut summary = PlanSummary::new(format!(
                    "put {} of media back into {}",
                    format_bytes(bytes),
                    count(due, "event")
                ));
                for a in agents {
                    let mut group = PlanGroup::new(Some(a.agent_id.clone()));
                    for r in &a.records {
                        let target = format!(
                            "{}#{}",
                            session_label(r.session_key.as_deref(), &r.session_id),
                            r.seq
                        );
                        let item = match r.result {
                            RestoreResult::Restored => PlanItem::change(
                                "restore",
                                target,
                                Some(format_bytes(r.media_bytes)),
                            ),
                            RestoreResult::AlreadyOriginal => PlanItem::change(
                                "forget",
                                target,
                                Some("its row holds its media already".into()),
                            ),
                            RestoreResult::Changed => PlanItem::left_alone(
                                "changed",
                                target,
                                Some("row changed since; files kept".into()),
                            ),
                            RestoreResult::Gone => PlanItem::left_alone(
                                "missing",
                                target,
                                Some(
                                    "the row is gone (session deleted?); its payloads are kept"
                                        .into(),
                                ),
                            ),
                        };
                        group.push(item, limit);
                    }
                    summary.add(group);
                }
                Ok(summary)
            }
        }
    }

    fn snapshot_sources(&self, _layout: &StateLayout, plan: &CompactPlan) -> Vec<SnapshotSource> {
        match plan {
            CompactPlan::Compact { agents } => agents
                .iter()
                .filter(|a| a.events() > 0)
                .filter_map(|a| a.paths.as_ref().map(SnapshotSource::agent))
                .collect(),
            CompactPlan::Restore { agents } => agents
                .iter()
                .filter(|a| a.due().any(|r| r.result == RestoreResult::Restored))
                .filter_map(|a| a.paths.as_ref().map(SnapshotSource::agent))
                .collect(),
        }
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut CompactPlan,
        hooks: &dyn Hooks,
    ) -> Result<()> {
        let interruption = hooks.interruption();
        let interrupted = move || interruption.requested();
        let now = crate::units::now_ms();
        match plan {
            CompactPlan::Compact { agents } => {
                for a in agents.iter_mut().filter(|a| a.events() > 0) {
                    let store = MediaStore::new(&layout.state_dir, &a.agent_id);
                    let mut db = WritableDb::open(&layout.state_dir, &a.database)?;
                    a.done = apply_compact(
                        &mut db,
                        &store,
                        &a.agent_id,
                        &a.sessions,
                        &self.options,
                        now,
                        &interrupted,
                    )?;
                }
            }
            CompactPlan::Restore { agents } => {
                for a in agents.iter_mut() {
                    if a.due().next().is_none() {
                        continue;
                    }
                    let store = MediaStore::new(&layout.state_dir, &a.agent_id);
                    let mut db = WritableDb::open(&layout.state_dir, &a.database)?;
                    a.media_removed =
                        Some(apply_restore(&mut db, &store, &a.records, &interrupted)?);
                }
            }
        }
        Ok(())
    }

    fn verify(&self, layout: &StateLayout, plan: &CompactPlan, _: &()) -> Result<()> {
        match plan {
            CompactPlan::Compact { agents } => {
                for a in agents.iter().filter(|a| a.events() > 0) {
                    let store = MediaStore::new(&layout.state_dir, &a.agent_id);
                    let written: Vec<(String, i64)> = a
                        .done
                        .iter()
                        .flat_map(|d| {
                            d.written
                                .iter()
                                .map(|(seq, _)| (d.session_id.clone(), *seq))
                        })
                        .collect();
                    let db = ReadOnlyDb::open(&a.database)?;
                    let digests = row_digests(&db, &written)?;
                    let records = store.records()?;
                    for d in &a.done {
                        for (seq, sha) in &d.written {
                            let key = (d.session_id.clone(), *seq);
                            ensure(digests.get(&key) == Some(&Some(sha.clone())), || {
                                format!(
                                    "transcript row {}#{seq} is not the compacted text",
                                    d.session_id
                                )
                            })?;
                            let record = records
                                .iter()
                                .find(|r| r.session_id == d.session_id && r.seq == *seq);
                            ensure(record.is_some(), || {
                                format!("no record brings {}#{seq} back", d.session_id)
                            })?;
                            if let Some(r) = record {
                                for (media, bytes) in r.media() {
                                    let len = std::fs::metadata(store.media.join(media))
                                        .map_or(0, |m| m.len());
                                    ensure(len == bytes, || {
                                        format!("payload {media} is not {bytes} bytes")
                                    })?;
                                }
                            }
                        }
                    }
                }
            }
            CompactPlan::Restore { agents } => {
                for a in agents {
                    let rows: Vec<(String, i64)> =
                        a.due().map(|r| (r.session_id.clone(), r.seq)).collect();
                    if rows.is_empty() {
                        continue;
                    }
                    let db = ReadOnlyDb::open(&a.database)?;
                    let digests = row_digests(&db, &rows)?;
                    for r in a.due() {
                        let key = (r.session_id.clone(), r.seq);
                        ensure(
                            digests.get(&key) == Some(&Some(r.record.original_sha256.clone())),
                            || {
                                format!(
                                    "transcript row {}#{} is not its original text",
                                    r.session_id, r.seq
                                )
                            },
                        )?;
                    }
                }
            }
        }
        Ok(())
    }
}
