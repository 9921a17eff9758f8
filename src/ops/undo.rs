//! `undo [ID]`: one logged operation taken back (docs/OPLOG.md), as a new operation of its
//! own: its plan, question, snapshot and record (`undoes: ID`).
//!
//! Each recorded action is reversed by the operation that takes it back ([`reverse`]):
//! - `delete` (and a prune's removal): `undelete` from the archive it left (`ops::undelete`,
//!   the entry `delete` kept with it);
//! - `patch`, `archive`, `unarchive` with their fields before: a patch that writes those
//!   fields back (`updatedAt` included, as given); a prune's `archive`, which recorded no
//!   fields: `unarchive`;
//! - any other word (`undelete`, and the words of later operations until they add theirs
//!   here): refused, naming it. An operation logged with a `notUndoable` reason (a schema
//!   migration, a restore, a reclaim) is refused with that reason, naming its snapshots.
//!
//! A session changed since the run (another session id under the key, another `updatedAt`
//! than the run left) is named and left alone unless `--force`. An operation already undone
//! is refused; `undo` with no id takes the newest operation neither undone nor an undo itself.

use std::path::PathBuf;

use serde_json::{Map, Value};

use super::entry_change::field_changes_line;
use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{PlanItem, PlanSummary};
use super::undelete::{UndeleteOp, UndeleteOpPlan};
use crate::backup::SnapshotSource;
use crate::error::{Error, ErrorKind, Result};
use crate::mutate::restore::{apply_undelete, UndeleteReport};
use crate::mutate::{apply_patch, plan_patch, plan_unarchive, PatchOps, PatchPlan};
use crate::oplog::{Action, OpLog, Outcome, Record};
use crate::paths::{AgentId, AgentPaths, StateLayout};
use crate::store::{AgentStore, SessionEntry};
use crate::writer::WritableDb;

pub struct UndoOp {
    pub record: Record,
    pub force: bool,
    /// Snapshot repositories searched for a deleted session's entry (as `undelete`'s).
    pub repositories: Vec<PathBuf>,
    pub now: i64,
    agents: Vec<AgentPaths>,
}

/// One action's reversal.
pub enum Step {
    /// An entry's fields written back (or its archive state turned).
    Entry {
        agent: AgentPaths,
        /// The recorded action it takes back.
        undoes: String,
        plan: Box<PatchPlan>,
    },
    /// A deleted session back from its archive.
    Undelete(Box<UndeleteOpPlan>),
    /// Left alone: `result` (`changed`, `missing`, `unchanged`, `cannot`), and why.
    LeftAlone {
        agent_id: String,
        session_key: String,
        result: &'static str,
        why: String,
    },
}

pub struct UndoPlan {
    pub record_id: String,
    pub steps: Vec<Step>,
}

pub enum Undone {
    Written(SessionEntry),
    Undeleted(UndeleteReport),
    /// A guard refused at write time (the row changed after planning).
    Refused(Error),
    Skipped,
}

pub struct UndoReport {
    pub results: Vec<Undone>,
}

/// The newest operation `undo` takes by default: not an undo itself, not undone, and one that
/// may have changed the store.
pub fn default_target(records: &[Record]) -> Option<&Record> {
    records.iter().rev().find(|r| {
        r.begin.undoes.is_none()
            && r.undone_by.is_none()
            && r.may_have_changed()
            && r.outcome != Outcome::Running
    })
}

impl UndoOp {
    /// The operation `words` names in the log (its id or a unique prefix), or the default
    /// target; refused when it is already undone, still running, or not undoable.
    pub fn new(
        layout: &StateLayout,
        words: Option<&str>,
        force: bool,
        repositories: Vec<PathBuf>,
        now: i64,
    ) -> Result<Self> {
        let log = OpLog::of(&layout.state_dir);
        let records = log.read()?;
        let record = match words {
            Some(w) => crate::oplog::find_in(records, w)?,
            None => default_target(&records).cloned().ok_or_else(|| {
                Error::not_found(
                    "the operation log holds no operation to undo",
                    Some("`log` lists what this tool changed and what is undone".to_string()),
                )
            })?,
        };
        refuse_undo_of(&record)?;
        Ok(UndoOp {
            record,
            force,
            repositories,
            now,
            agents: Vec::new(),
        })
    }
}

/// Why `record` cannot be undone, as the refusal `undo` gives.
pub fn refuse_undo_of(record: &Record) -> Result<()> {
    let id = record.id();
    if let Some(by) = &record.undone_by {
        return Err(Error::Conflict {
            message: format!(
                "operation {id} ({}) is already undone, by operation {by}",
                record.begin.command
            ),
            hint: Some(format!("`log show {id}` shows it; an undo is not repeated")),
        });
    }
    if record.outcome == Outcome::Running {
        return Err(Error::Conflict {
            message: format!(
                "operation {id} is still running (pid {})",
                record.begin.origin.pid
            ),
            hint: Some("wait for it to end, then undo it".into()),
        });
    }
    if record.outcome == Outcome::Refused {
        return Err(Error::invalid(format!(
            "operation {id} changed nothing (every change was refused): there is nothing to undo"
        )));
    }
    if let Some(why) = &record.begin.not_undoable {
        let snapshots: Vec<String> = record
            .begin
            .snapshots
            .iter()
            .map(|s| s.path.display().to_string())
            .collect();
        let hint = if snapshots.is_empty() {
            None
        } else {
            Some(format!(
                "its snapshot{}: {} (`backup restore --in-place SNAPSHOT`)",
                if snapshots.len() == 1 { "" } else { "s" },
                snapshots.join(", ")
            ))
        };
        return Err(Error::Conflict {
            message: format!(
                "operation {id} ({}) cannot be undone: {why}",
                record.begin.command
            ),
            hint,
        });
    }
    Ok(())
}

/// The fields to write back to undo an entry action: its recorded `before`, as a patch.
fn restoring_patch(before: &Map<String, Value>) -> PatchOps {
    let mut ops = PatchOps {
        allow_unknown_fields: true,
        ..Default::default()
    };
    for (field, value) in before {
        if value.is_null() {
            ops.unset.push(field.clone());
        } else {
            ops.set.push((field.clone(), value.clone()));
        }
    }
    ops
}

impl UndoOp {
    /// One action's reversal, planned against the store as it is now.
    fn reverse(&self, layout: &StateLayout, action: &Action, hooks: &dyn Hooks) -> Result<Step> {
        let left_alone = |result: &'static str, why: String| Step::LeftAlone {
            agent_id: action.agent_id.clone(),
            session_key: action.session_key.clone(),
            result,
            why,
        };
        let id = AgentId::parse(&action.agent_id).map_err(|e| {
            Error::invalid(format!("the record names agent {:?}: {e}", action.agent_id))
        })?;
        let agent = layout.agent(&id);
        if !agent.db.is_file() {
            return Ok(left_alone(
                "missing",
                format!("agent {} has no database any more", action.agent_id),
            ));
        }
        let store = AgentStore::open(agent.clone())?;
        let current = store.entry_by_exact_key(&action.session_key)?;
        match action.action.as_str() {
            "delete" => {
                if let Some(e) = &current {
                    let same = action.session_id.as_deref() == Some(e.session_id());
                    return Ok(if same {
                        left_alone(
                            "unchanged",
                            "the session was not deleted (the run stopped before it)".into(),
                        )
                    } else {
                        left_alone(
                            "changed",
                            format!(
                                "the key holds session {} now, created since",
                                e.session_id()
                            ),
                        )
                    });
                }
                let words = action
                    .archives
                    .first()
                    .cloned()
                    .or_else(|| action.session_id.clone())
                    .unwrap_or_else(|| action.session_key.clone());
                let selection = super::targets::Selection::resolve(
                    layout,
                    std::slice::from_ref(&action.agent_id),
                    false,
                )?;
                let mut op =
                    UndeleteOp::new(selection, words, None, self.repositories.clone(), self.now);
                let planned = op.resolve(layout).and_then(|()| op.plan(layout, hooks));
                match planned {
                    Ok(p) => Ok(Step::Undelete(Box::new(p))),
                    Err(e) if matches!(e.kind(), ErrorKind::NotFound) => {
                        Ok(left_alone("missing", e.to_string()))
                    }
                    Err(e)
                        if matches!(e.kind(), ErrorKind::Conflict | ErrorKind::LockedSession) =>
                    {
                        Ok(left_alone("changed", e.to_string()))
                    }
                    Err(e) => Err(e),
                }
            }
            "patch" | "archive" | "unarchive" => {
                let Some(entry) = current else {
                    return Ok(left_alone("missing", "the session is gone".into()));
                };
                let changed = match (&action.session_id, action.updated_at) {
                    (Some(sid), _) if sid != entry.session_id() => Some(format!(
                        "the key holds session {} now, not {sid}",
                        entry.session_id()
                    )),
                    (_, Some(at)) if at != entry.updated_at() => Some(format!(
                        "changed since (updatedAt {}, the run left {})",
                        crate::units::iso_from_ms(entry.updated_at()),
                        crate::units::iso_from_ms(at)
                    )),
                    _ => None,
                };
                if let (Some(why), false) = (&changed, self.force) {
                    return Ok(left_alone(
                        "changed",
                        format!("{why}; --force undoes it anyway"),
                    ));
                }
                let planned = match &action.before {
                    Some(before) => {
                        let ops = restoring_patch(before);
                        let labels = other_labels(&store, &action.session_key, before)?;
                        plan_patch(
                            entry,
                            &ops,
                            &|l: &str| labels.iter().any(|x| x == l),
                            self.now,
                        )
                    }
                    // A prune's archive recorded no fields.
                    None if action.action == "archive" => plan_unarchive(&entry, self.now),
                    None => {
                        return Ok(left_alone(
                            "cannot",
                            format!(
                                "the record holds no fields of the {} before it",
                                action.action
                            ),
                        ))
                    }
                };
                match planned {
                    Ok(plan) if plan.changes.is_empty() => Ok(left_alone(
                        "unchanged",
                        "the entry already holds what it held before".into(),
                    )),
                    Ok(plan) => Ok(Step::Entry {
                        agent,
                        undoes: action.action.clone(),
                        plan: Box::new(plan),
                    }),
                    Err(e)
                        if matches!(e.kind(), ErrorKind::Conflict | ErrorKind::LockedSession) =>
                    {
                        Ok(left_alone("changed", e.to_string()))
                    }
                    Err(e) => Err(e),
                }
            }
            other => Ok(left_alone(
                "cannot",
                match other {
                    "undelete" => "an undelete is taken back by `delete` of the session".into(),
                    _ => format!("undo has no reversal of {other:?}"),
                },
            )),
        }
    }
}

/// The labels of the agent's other sessions, when the fields to write back hold a label (a
/// label is unique per agent).
fn other_labels(store: &AgentStore, key: &str, before: &Map<String, Value>) -> Result<Vec<String>> {
    let mut out = Vec::new();
    if before.get("label").is_none_or(Value::is_null) {
        return Ok(out);
    }
    store.for_each_session(Some(&["sessionId", "updatedAt", "label"]), |e| {
        if e.key != key {
            if let Some(l) = e.label() {
                out.push(l.to_string());
            }
        }
        Ok(std::ops::ControlFlow::Continue(()))
    })?;
    Ok(out)
}

/// The reversal word of a recorded action, as the undo's own record names it.
fn reversal_word(undoes: &str) -> &'static str {
    match undoes {
        "archive" => "unarchive",
        "unarchive" => "archive",
        _ => "patch",
    }
}

impl Operation for UndoOp {
    type Plan = UndoPlan;
    type Report = UndoReport;

    /// A verified snapshot of each database it writes, before it writes: an undo writes over
    /// rows someone may have wanted as they were.
    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::Required;
    const OLDER_SCHEMAS_WRITTEN: &'static [i64] =
        crate::store::releases::OLDER_AGENT_SCHEMAS_WRITTEN;

    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        self.agents.clone()
    }

    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        let mut agents: Vec<AgentPaths> = Vec::new();
        for a in self.record.agents() {
            let Ok(id) = AgentId::parse(a) else { continue };
            let paths = layout.agent(&id);
            if paths.db.is_file() && !agents.iter().any(|p| p.id == paths.id) {
                agents.push(paths);
            }
        }
        self.agents = agents;
        Ok(())
    }

    /// Archives a killed `delete` committed but did not publish go out first: the undelete
    /// reads them.
    fn recover(&mut self, layout: &StateLayout, hooks: &dyn Hooks) -> Result<()> {
        super::pending::publish_pending_archives(
            &layout.state_dir,
            &self.agents,
            Self::OLDER_SCHEMAS_WRITTEN,
            hooks,
        )
    }

    fn plan(&mut self, layout: &StateLayout, hooks: &dyn Hooks) -> Result<UndoPlan> {
        let mut steps = Vec::new();
        // Last change first: a session changed twice comes back as it was before both.
        for action in self.record.actions().iter().rev() {
            if action.refused.is_some() {
                continue;
            }
            steps.push(self.reverse(layout, action, hooks)?);
        }
        super::targets::check_owned(
            layout,
            steps.iter().filter_map(|s| match s {
                Step::Entry { agent, .. } => Some(agent.db.as_path()),
                Step::Undelete(p) => Some(p.agent.db.as_path()),
                Step::LeftAlone { .. } => None,
            }),
        )?;
        Ok(UndoPlan {
            record_id: self.record.id().to_string(),
            steps,
        })
    }

    fn summarize(&self, plan: &UndoPlan, limit: usize) -> Result<PlanSummary> {
        let r = &self.record;
        let mut summary = PlanSummary::new(format!(
            "undo operation {} ({}, {})",
            r.id(),
            r.begin.command,
            crate::units::iso_from_ms(r.begin.time)
        ));
        for step in &plan.steps {
            match step {
                Step::Entry {
                    agent,
                    undoes,
                    plan,
                } => {
                    summary.push(
                        Some(agent.id.to_string()),
                        PlanItem::change(
                            reversal_word(undoes),
                            plan.key.clone(),
                            Some(format!("undoes {undoes}: {}", field_changes_line(plan))),
                        ),
                        limit,
                    );
                }
                Step::Undelete(p) => {
                    let u = &p.plan;
                    summary.push(
                        Some(u.agent_id.clone()),
                        PlanItem::change(
                            "undelete",
                            u.session_key.clone(),
                            Some(format!(
                                "{} ({} events) from {}",
                                u.session_id, u.events, u.archive
                            )),
                        ),
                        limit,
                    );
                }
                Step::LeftAlone {
                    agent_id,
                    session_key,
                    result,
                    why,
                } => summary.push(
                    Some(agent_id.clone()),
                    PlanItem::left_alone(result, session_key.clone(), Some(why.clone())),
                    limit,
                ),
            }
        }
        Ok(summary)
    }

    fn snapshot_sources(&self, _layout: &StateLayout, plan: &UndoPlan) -> Vec<SnapshotSource> {
        let mut out: Vec<SnapshotSource> = Vec::new();
        let mut seen: Vec<PathBuf> = Vec::new();
        for step in &plan.steps {
            let agent = match step {
                Step::Entry { agent, .. } => agent,
                Step::Undelete(p) => &p.agent,
                Step::LeftAlone { .. } => continue,
            };
            if !seen.contains(&agent.db) {
                seen.push(agent.db.clone());
                out.push(SnapshotSource::agent(agent));
            }
        }
        out
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut UndoPlan,
        hooks: &dyn Hooks,
    ) -> Result<UndoReport> {
        let mut results = Vec::with_capacity(plan.steps.len());
        for step in &plan.steps {
            if hooks.interruption().requested() {
                return Err(Error::Interrupted);
            }
            let (agent, written) = match step {
                Step::LeftAlone { .. } => {
                    results.push(Undone::Skipped);
                    continue;
                }
                Step::Entry { agent, plan, .. } => {
                    let mut db = WritableDb::open_accepting(
                        &layout.state_dir,
                        &agent.db,
                        Self::OLDER_SCHEMAS_WRITTEN,
                    )?;
                    (agent, apply_patch(&mut db, plan).map(Undone::Written))
                }
                Step::Undelete(p) => {
                    let mut db = WritableDb::open_accepting(
                        &layout.state_dir,
                        &p.agent.db,
                        Self::OLDER_SCHEMAS_WRITTEN,
                    )?;
                    (
                        &p.agent,
                        apply_undelete(&mut db, &p.plan, self.now).map(Undone::Undeleted),
                    )
                }
            };
            let _ = agent;
            match written {
                Ok(done) => results.push(done),
                Err(e) if matches!(e.kind(), ErrorKind::Conflict | ErrorKind::LockedSession) => {
                    results.push(Undone::Refused(e))
                }
                Err(e) => return Err(e),
            }
        }
        Ok(UndoReport { results })
    }

    fn verify(&self, _: &StateLayout, plan: &UndoPlan, report: &UndoReport) -> Result<()> {
        for (step, result) in plan.steps.iter().zip(&report.results) {
            match (step, result) {
                (Step::Entry { agent, .. }, Undone::Written(written)) => {
                    let store = AgentStore::open(agent.clone())?;
                    let stored = store.entry_by_exact_key(&written.key)?;
                    ensure(
                        stored.as_ref().map(|e| &e.fields) == Some(&written.fields),
                        || format!("session {} reads back otherwise", written.key),
                    )?;
                }
                (Step::Undelete(p), Undone::Undeleted(_)) => {
                    let db = crate::store::ReadOnlyDb::open(&p.agent.db)?;
                    super::targets::ensure_key_names(&db, &p.plan.session_key, &p.plan.session_id)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn record_actions(&self, plan: &UndoPlan, report: Option<&UndoReport>) -> Vec<Action> {
        let mut out = Vec::new();
        for (i, step) in plan.steps.iter().enumerate() {
            let result = report.and_then(|r| r.results.get(i));
            let refused = match result {
                Some(Undone::Refused(e)) => Some(e.to_string()),
                _ => None,
            };
            match step {
                Step::Entry {
                    agent,
                    undoes,
                    plan,
                } => {
                    let left = match result {
                        Some(Undone::Written(e)) => e,
                        Some(Undone::Refused(_)) => &plan.before,
                        _ => &plan.after,
                    };
                    let mut before = Map::new();
                    let mut after = Map::new();
                    for c in &plan.changes {
                        before.insert(c.field.clone(), c.before.clone().unwrap_or(Value::Null));
                        after.insert(
                            c.field.clone(),
                            left.fields.get(&c.field).cloned().unwrap_or(Value::Null),
                        );
                    }
                    out.push(Action {
                        agent_id: agent.id.to_string(),
                        session_key: plan.key.clone(),
                        session_id: Some(left.session_id().to_string()).filter(|s| !s.is_empty()),
                        action: reversal_word(undoes).into(),
                        before: Some(before),
                        after: Some(after),
                        updated_at: Some(left.updated_at()),
                        refused,
                        ..Default::default()
                    });
                }
                Step::Undelete(p) => out.push(Action {
                    agent_id: p.plan.agent_id.clone(),
                    session_key: p.plan.session_key.clone(),
                    session_id: Some(p.plan.session_id.clone()),
                    action: "undelete".into(),
                    archives: vec![p.plan.archive.clone()],
                    refused,
                    ..Default::default()
                }),
                Step::LeftAlone { .. } => {}
            }
        }
        out
    }

    fn not_undoable(&self) -> Option<String> {
        None
    }

    fn undoes(&self) -> Option<String> {
        Some(self.record.id().to_string())
    }
}

impl super::online::OnlineOperation for UndoOp {
    /// A deleted session comes back only offline: the Gateway has no RPC that undeletes.
    fn online_refusal(&self) -> Option<String> {
        if self.record.actions().iter().any(|a| a.action == "delete") {
            return Some(format!(
                "operation {} deleted sessions, and the Gateway has no RPC that brings one back",
                self.record.id()
            ));
        }
        let fields = self
            .record
            .actions()
            .iter()
            .filter(|a| a.action == "patch")
            .flat_map(|a| a.before.iter().flat_map(|b| b.keys()))
            .find(|f| {
                *f != "updatedAt" && !super::entry_change::ONLINE_PATCH_FIELDS.contains(&f.as_str())
            });
        fields.map(|f| format!("the Gateway's sessions.patch has no field {f:?} to write back"))
    }

    /// `sessions.patch` per entry: `archived` for an archive or unarchive, the fields for a
    /// patch (the Gateway moves `updatedAt` itself).
    fn apply_online(
        &mut self,
        _layout: &StateLayout,
        plan: &mut UndoPlan,
        rpc: &mut dyn super::online::SessionRpc,
        hooks: &dyn Hooks,
    ) -> Result<UndoReport> {
        let mut results = Vec::with_capacity(plan.steps.len());
        let mut calls = super::online::Calls::new(
            plan.steps
                .iter()
                .filter_map(|s| match s {
                    Step::Entry { agent, plan, .. } => Some(super::online::CallTarget::session(
                        agent.id.as_str(),
                        &plan.key,
                    )),
                    _ => None,
                })
                .collect(),
        );
        for step in &plan.steps {
            let (agent, undoes, p) = match step {
                Step::Entry {
                    agent,
                    undoes,
                    plan,
                } => (agent, undoes, plan),
                Step::LeftAlone { .. } => {
                    results.push(Undone::Skipped);
                    continue;
                }
                Step::Undelete(_) => {
                    return Err(Error::Internal(
                        "an undelete planned through the Gateway".into(),
                    ))
                }
            };
            if hooks.interruption().requested() {
                return Err(Error::Interrupted);
            }
            let mut params = serde_json::json!({
                "key": p.key,
                "agentId": agent.id.as_str(),
                "expectedSessionId": p.before.session_id(),
            });
            match undoes.as_str() {
                "archive" => params["archived"] = Value::Bool(false),
                "unarchive" => params["archived"] = Value::Bool(true),
                _ => {
                    for c in p.changes.iter().filter(|c| {
                        super::entry_change::ONLINE_PATCH_FIELDS.contains(&c.field.as_str())
                    }) {
                        params[c.field.as_str()] =
                            p.after.fields.get(&c.field).cloned().unwrap_or(Value::Null);
                    }
                }
            }
            match super::online::call(rpc, "sessions.patch", &p.key, params) {
                Ok(_) => calls.answered("undone"),
                Err(e) if super::online::is_refusal(&e) => {
                    calls.answered("refused");
                    results.push(Undone::Refused(e));
                    continue;
                }
                Err(e) => return Err(calls.lost(e, hooks)),
            }
            let store = AgentStore::open(agent.clone())?;
            let stored = store.entry_by_exact_key(&p.key)?.ok_or_else(|| {
                Error::Internal(format!("session {} is gone after sessions.patch", p.key))
            })?;
            results.push(Undone::Written(stored));
        }
        Ok(UndoReport { results })
    }

    /// What the Gateway wrote around the fields asked (`updatedAt`, its own archive fields)
    /// is its own: the archive state and the patched fields are read back.
    fn verify_online(&self, _: &StateLayout, plan: &UndoPlan, report: &UndoReport) -> Result<()> {
        for (step, result) in plan.steps.iter().zip(&report.results) {
            if let (Step::Entry { undoes, plan, .. }, Undone::Written(stored)) = (step, result) {
                let archived = stored.archived();
                match undoes.as_str() {
                    "archive" => ensure(!archived, || format!("{} is still archived", plan.key))?,
                    "unarchive" => ensure(archived, || format!("{} is not archived", plan.key))?,
                    _ => {}
                }
            }
        }
        Ok(())
    }
}
