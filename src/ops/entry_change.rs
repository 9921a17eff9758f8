//! `patch`, `archive`, `unarchive`: one entry change per target, through OpenClaw's entry
//! writer. Snapshot on request: the change is one row, re-read before it is written.

use std::ops::ControlFlow;

use serde_json::Value;

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{count, PlanItem, PlanSummary};
use super::targets::{agents_of, by_agent, check_owned, resolve_targets, Selection, Target};
use crate::backup::SnapshotSource;
use crate::error::{Error, ErrorKind, Result};
use crate::formats::session_key;
use crate::mutate::{apply_patch, plan_archive, plan_patch, plan_unarchive, PatchOps, PatchPlan};
use crate::paths::{AgentPaths, StateLayout};
use crate::remedy::Remedy;
use crate::store::{AgentStore, SessionEntry};
use crate::writer::WritableDb;

/// Which change.
#[derive(Debug, Clone)]
pub enum EntryChange {
    Patch(Box<PatchOps>),
    Archive,
    Unarchive,
}

impl EntryChange {
    /// The result of a target this change leaves as it is (OpenClaw's words for archive).
    pub fn unchanged_word(&self) -> &'static str {
        match self {
            EntryChange::Patch(_) => "unchanged",
            EntryChange::Archive => "already_archived",
            EntryChange::Unarchive => "already_active",
        }
    }

    fn verb(&self) -> &'static str {
        match self {
            EntryChange::Patch(_) => "patch",
            EntryChange::Archive => "archive",
            EntryChange::Unarchive => "unarchive",
        }
    }
}

pub struct EntryChangeOp {
    pub change: EntryChange,
    pub selection: Selection,
    pub words: Vec<String>,
    pub now: i64,
    /// The sessions were chosen by a selector (a filter, `--keys-from`): the plan lists every
    /// match and is confirmed before anything is written, as a destructive command's is.
    pub selected: bool,
    targets: Vec<Target>,
}

/// One target's plan, or why it is left alone.
pub struct EntryItem {
    pub target: Target,
    pub outcome: std::result::Result<PatchPlan, Error>,
}

impl EntryItem {
    pub fn changes(&self) -> bool {
        self.outcome.as_ref().is_ok_and(|p| !p.changes.is_empty())
    }

    /// The plan to write, or `None` for an item left alone ([`EntryItem::left_alone`]).
    fn to_write(&self) -> Option<&PatchPlan> {
        self.outcome.as_ref().ok().filter(|p| !p.changes.is_empty())
    }

    /// The result of an item with nothing to write: unchanged, or refused at plan time.
    fn left_alone(&self) -> Applied {
        if self.outcome.is_ok() {
            Applied::Unchanged
        } else {
            Applied::Skipped
        }
    }
}

pub struct EntryChangePlan {
    pub items: Vec<EntryItem>,
}

/// What happened to each item, in plan order.
pub enum Applied {
    Written(SessionEntry),
    Unchanged,
    /// A guard refused at write time (the row changed meanwhile): reported, not fatal.
    Refused(Error),
    /// Left alone at plan time.
    Skipped,
}

pub struct EntryChangeReport {
    pub results: Vec<Applied>,
}

impl EntryChangeOp {
    pub fn new(change: EntryChange, selection: Selection, words: Vec<String>, now: i64) -> Self {
        EntryChangeOp {
            change,
            selection,
            words,
            now,
            selected: false,
            targets: Vec::new(),
        }
    }

    /// The keys came from a selector: the run asks first ([`Operation::asks_first`]).
    pub fn selected(mut self, selected: bool) -> Self {
        self.selected = selected;
        self
    }

    fn plan_agent(
        &self,
        paths: &AgentPaths,
        main_key: &str,
        targets: &[&Target],
        out: &mut Vec<EntryItem>,
    ) -> Result<()> {
        // The agent's main session as OpenClaw names it (`agent:<id>:<session.mainKey>`), as
        // `delete` finds it (docs/openclaw/REFUSALS.md).
        let main = format!("agent:{}:{main_key}", paths.id);
        let store = AgentStore::open(paths.clone())?;
        if store.db().is_none() {
            return Err(Error::UnsupportedSchema {
                message: format!("agent {} has no SQLite store to change", paths.id),
                hint: Some("import it first with the legacy import".into()),
            }
            .with_remedy(Remedy::ImportLegacy));
        }
        // Only each labelled session's key and label are held (whole entries were 25 MB at
        // 5,000 sessions); rows that do not decode own no label here, as before.
        let contract_main = session_key::normalize_main_key(
            store
                .db()
                .and_then(|db| crate::store::db::meta::contract_main_key(db.conn()))
                .as_deref(),
        );
        let mut labelled: Vec<(String, String)> = Vec::new();
        store.for_each_session(Some(&["sessionId", "updatedAt", "label"]), |e| {
            if let Some(label) = e.label() {
                labelled.push((e.key.clone(), label.to_string()));
            }
            Ok(ControlFlow::Continue(()))
        })?;
        for t in targets {
            let outcome = match &t.key {
                None => Err(Error::not_found(
                    t.missing
                        .clone()
                        .unwrap_or_else(|| format!("no session {:?}", t.words)),
                    None,
                )),
                // By its key, not from the listing: an unreadable entry is a session too.
                Some(key) => match store.entry_by_exact_key(key)? {
                    None => Err(Error::not_found(
                        format!("no session {key:?} in agent {}", paths.id),
                        None,
                    )),
                    Some(entry) => {
                        t.check_still_named(entry.session_id())?;
                        let taken =
                            |label: &str| labelled.iter().any(|(k, l)| k != key && l == label);
                        let is_main = *key == main || key == "global";
                        let refuse_main = || Error::LockedSession {
                            message: "Cannot archive an agent's main session.".into(),
                            hint: None,
                        };
                        match &self.change {
                            // A patch that archives the main session (`archivedAt` set where
                            // it was not, or changed) is refused as `archive` is.
                            EntryChange::Patch(ops) => plan_patch(entry, ops, &taken, self.now)
                                .and_then(|p| {
                                    // A key OpenClaw's writer would refuse makes it refuse the
                                    // whole store: refused here, before any change.
                                    if let Some(why) = session_key::entry_lineage_refusal(
                                        &p.after.fields,
                                        &contract_main,
                                    ) {
                                        return Err(session_key::refusal_error(why));
                                    }
                                    let archives = p.changes.iter().any(|c| {
                                        c.field == "archivedAt"
                                            && c.after.as_ref().is_some_and(|v| !v.is_null())
                                    });
                                    if is_main && archives {
                                        Err(refuse_main())
                                    } else {
                                        Ok(p)
                                    }
                                }),
                            // After `already_archived`, as OpenClaw's lifecycle command.
                            EntryChange::Archive => plan_archive(&entry, self.now).and_then(|p| {
                                if !p.changes.is_empty() && is_main {
                                    Err(refuse_main())
                                } else {
                                    Ok(p)
                                }
                            }),
                            EntryChange::Unarchive => plan_unarchive(&entry, self.now),
                        }
                    }
                },
            };
            // A guard's refusal is this target's result; anything else stops the run.
            let outcome = match outcome {
                Err(e)
                    if !matches!(
                        e.kind(),
                        ErrorKind::NotFound | ErrorKind::Conflict | ErrorKind::LockedSession
                    ) =>
                {
                    return Err(e)
                }
                other => other,
            };
            out.push(EntryItem {
                target: (*t).clone(),
                outcome,
            });
        }
        Ok(())
    }
}

/// A patch plan's field changes on one line (`~ label: "a" -> "b"; + pinnedAt: 1`), for a
/// plan that names several sessions.
pub fn field_changes_line(plan: &PatchPlan) -> String {
    let fields: Vec<String> = field_items(plan)
        .iter()
        .filter(|i| i.action != "=")
        .map(|i| {
            let detail = i.detail.as_deref().map(|d| format!(": {d}"));
            format!("{} {}{}", i.action, i.target, detail.unwrap_or_default())
        })
        .collect();
    fields.join("; ")
}

/// The field changes of a patch plan as summary items (`~ field: before -> after`).
pub fn field_items(plan: &PatchPlan) -> Vec<PlanItem> {
    let mut items = Vec::new();
    for c in &plan.changes {
        let (action, detail) = match (&c.before, &c.after) {
            (Some(b), Some(a)) => ("~", format!("{b} -> {a}")),
            (None, Some(a)) => ("+", a.to_string()),
            (Some(b), None) => ("-", b.to_string()),
            (None, None) => continue,
        };
        items.push(PlanItem::change(action, c.field.clone(), Some(detail)));
    }
    for k in &plan.kept {
        items.push(PlanItem::left_alone("=", k.clone(), None));
    }
    items
}

impl Operation for EntryChangeOp {
    type Plan = EntryChangePlan;
    type Report = EntryChangeReport;

    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::OnRequest;
    const ASKS_FIRST: bool = false;
    const OLDER_SCHEMAS_WRITTEN: &'static [i64] =
        crate::store::releases::OLDER_AGENT_SCHEMAS_WRITTEN;

    /// One key named on the command line is one row re-read before it is written: no
    /// question. Sessions a selector chose are many, not all of them seen by the user: asked.
    fn asks_first(&self) -> bool {
        self.selected
    }

    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        agents_of(&self.targets)
    }

    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        self.targets = resolve_targets(layout, &self.selection, &self.words)?;
        Ok(())
    }

    fn plan(&mut self, layout: &StateLayout, _hooks: &dyn Hooks) -> Result<EntryChangePlan> {
        let mut items = Vec::with_capacity(self.targets.len());
        for (paths, targets) in by_agent(&self.targets) {
            let main_key = crate::store::resolve::main_key(layout);
            self.plan_agent(&paths, &main_key, &targets, &mut items)?;
        }
        check_owned(
            layout,
            items
                .iter()
                .filter(|i| i.changes())
                .map(|i| i.target.agent.db.as_path()),
        )?;
        // Back in the order given.
        let order = |t: &Target| self.targets.iter().position(|x| x.words == t.words);
        items.sort_by_key(|i| order(&i.target));
        Ok(EntryChangePlan { items })
    }

    fn summarize(&self, plan: &EntryChangePlan, limit: usize) -> Result<PlanSummary> {
        let changing = plan.items.iter().filter(|i| i.changes()).count();
        let verb = self.change.verb();
        let mut summary = PlanSummary::new(match (&self.change, plan.items.as_slice()) {
            (EntryChange::Patch(_), [one]) => format!(
                "{verb} {} in agent {}",
                one.target.key_or_words(),
                one.target.agent.id
            ),
            _ => format!("{verb} {}", count(changing, "session")),
        });
        for item in &plan.items {
            let agent = Some(item.target.agent.id.to_string());
            let key = item.target.key_or_words().to_string();
            let items = match (&item.outcome, &self.change) {
                (Ok(p), _) if p.changes.is_empty() => {
                    vec![PlanItem::left_alone(
                        self.change.unchanged_word(),
                        key,
                        None,
                    )]
                }
                (Ok(p), EntryChange::Patch(_)) if plan.items.len() == 1 => field_items(p),
                // Several sessions (a selector): one line each, naming the session.
                (Ok(p), EntryChange::Patch(_)) => {
                    vec![PlanItem::change(verb, key, Some(field_changes_line(p)))]
                }
                (Ok(_), _) => vec![PlanItem::change(verb, key, None)],
                (Err(e), _) => vec![PlanItem::left_alone(result_of(e), key, Some(e.to_string()))],
            };
            for i in items {
                summary.push(agent.clone(), i, limit);
            }
        }
        Ok(summary)
    }

    fn snapshot_sources(
        &self,
        _layout: &StateLayout,
        plan: &EntryChangePlan,
    ) -> Vec<SnapshotSource> {
        let changing: Vec<Target> = plan
            .items
            .iter()
            .filter(|i| i.changes())
            .map(|i| i.target.clone())
            .collect();
        by_agent(&changing)
            .into_iter()
            .map(|(p, _)| SnapshotSource::agent(&p))
            .collect()
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut EntryChangePlan,
        _hooks: &dyn Hooks,
    ) -> Result<EntryChangeReport> {
        let mut results = Vec::with_capacity(plan.items.len());
        let mut open: Option<(String, WritableDb)> = None;
        for item in &plan.items {
            let Some(p) = item.to_write() else {
                results.push(item.left_alone());
                continue;
            };
            let agent = item.target.agent.id.to_string();
            if open.as_ref().is_none_or(|(a, _)| *a != agent) {
                open = Some((
                    agent.clone(),
                    WritableDb::open_accepting(
                        &layout.state_dir,
                        &item.target.agent.db,
                        Self::OLDER_SCHEMAS_WRITTEN,
                    )?,
                ));
            }
            let db = &mut open.as_mut().expect("an open database").1;
            match apply_patch(db, p) {
                Ok(written) => results.push(Applied::Written(written)),
                Err(e) if matches!(e.kind(), ErrorKind::Conflict | ErrorKind::LockedSession) => {
                    results.push(Applied::Refused(e))
                }
                Err(e) => return Err(e),
            }
        }
        Ok(EntryChangeReport { results })
    }

    /// One action per entry to write: its changed fields before and after (what `undo`
    /// writes back), and the `updatedAt` it was left with.
    fn record_actions(
        &self,
        plan: &EntryChangePlan,
        report: Option<&EntryChangeReport>,
    ) -> Vec<crate::oplog::Action> {
        let mut out = Vec::new();
        for (i, item) in plan.items.iter().enumerate() {
            let Some(p) = item.to_write() else { continue };
            let (left, refused) = match report.and_then(|r| r.results.get(i)) {
                Some(Applied::Written(e)) => (e, None),
                Some(Applied::Refused(e)) => (&p.before, Some(e.to_string())),
                Some(_) => continue,
                None => (&p.after, None),
            };
            let mut before = serde_json::Map::new();
            let mut after = serde_json::Map::new();
            for c in &p.changes {
                before.insert(c.field.clone(), c.before.clone().unwrap_or(Value::Null));
                after.insert(
                    c.field.clone(),
                    left.fields.get(&c.field).cloned().unwrap_or(Value::Null),
                );
            }
            out.push(crate::oplog::Action {
                agent_id: item.target.agent.id.to_string(),
                session_key: p.key.clone(),
                session_id: Some(left.session_id().to_string()).filter(|s| !s.is_empty()),
                action: self.change.verb().to_string(),
                archives: Vec::new(),
                before: Some(before),
                after: Some(after),
                updated_at: left.fields.get("updatedAt").and_then(Value::as_i64),
                refused,
            });
        }
        out
    }

    fn not_undoable(&self) -> Option<String> {
        None
    }

    fn verify(&self, _: &StateLayout, plan: &Self::Plan, report: &Self::Report) -> Result<()> {
        for (item, result) in plan.items.iter().zip(&report.results) {
            let Applied::Written(written) = result else {
                continue;
            };
            let store = AgentStore::open(item.target.agent.clone())?;
            let stored = store.entry_by_exact_key(&written.key)?;
            ensure(
                stored.as_ref().map(|e| &e.fields) == Some(&written.fields),
                || format!("session {} reads back otherwise", written.key),
            )?;
        }
        Ok(())
    }
}

/// A left-alone target's result word.
pub fn result_of(e: &Error) -> &'static str {
    match e.kind() {
        ErrorKind::NotFound => "missing",
        ErrorKind::LockedSession => "refused",
        _ => "conflict",
    }
}

/// The JSON value of what was written, for reports.
pub fn written_value(a: &Applied) -> Option<Value> {
    match a {
        Applied::Written(e) => Some(e.to_value()),
        _ => None,
    }
}

/// The entry fields `sessions.patch` sets under the same name and meaning (a string, or `null`
/// to clear): docs/openclaw/GATEWAY.md §7. Any other field has no RPC of the same effect.
pub const ONLINE_PATCH_FIELDS: [&str; 7] = [
    "label",
    "autoLabel",
    "icon",
    "color",
    "category",
    "thinkingLevel",
    "fastMode",
];

impl super::online::OnlineOperation for EntryChangeOp {
    fn online_refusal(&self) -> Option<String> {
        let EntryChange::Patch(ops) = &self.change else {
            return None;
        };
        let rpc_has_no = |what: &str| Some(format!("the Gateway's sessions.patch has no {what}"));
        if ops.replace.is_some() {
            return rpc_has_no("whole-entry replacement (--replace-entry)");
        }
        if ops.merge.is_some() {
            return rpc_has_no("merge (--merge); use --set/--unset of its fields");
        }
        if ops.preserve_activity {
            return rpc_has_no(
                "way to keep updatedAt (--preserve-activity): it always moves it to now",
            );
        }
        let fields = ops
            .set
            .iter()
            .map(|(f, _)| f)
            .chain(ops.unset.iter())
            .find(|f| !ONLINE_PATCH_FIELDS.contains(&f.as_str()));
        fields.and_then(|f| {
            rpc_has_no(&format!(
                "field {f:?} (through it: {})",
                ONLINE_PATCH_FIELDS.join(", ")
            ))
        })
    }

    fn apply_online(
        &mut self,
        _layout: &StateLayout,
        plan: &mut EntryChangePlan,
        rpc: &mut dyn super::online::SessionRpc,
        hooks: &dyn Hooks,
    ) -> Result<EntryChangeReport> {
        let mut results = Vec::with_capacity(plan.items.len());
        let mut calls = super::online::Calls::new(
            plan.items
                .iter()
                .filter_map(|item| {
                    let p = item.to_write()?;
                    Some(super::online::CallTarget::session(
                        item.target.agent.id.as_str(),
                        &p.key,
                    ))
                })
                .collect(),
        );
        let done_word = match &self.change {
            EntryChange::Archive => "archived",
            EntryChange::Unarchive => "unarchived",
            EntryChange::Patch(_) => "patched",
        };
        for item in &plan.items {
            let Some(p) = item.to_write() else {
                results.push(item.left_alone());
                continue;
            };
            if hooks.interruption().requested() {
                return Err(Error::Interrupted);
            }
            let mut params = serde_json::json!({
                "key": p.key,
                "agentId": item.target.agent.id.as_str(),
                "expectedSessionId": p.before.session_id(),
            });
            match &self.change {
                EntryChange::Archive => params["archived"] = Value::Bool(true),
                EntryChange::Unarchive => params["archived"] = Value::Bool(false),
                // `updatedAt` moves by itself (the RPC has no field for it).
                EntryChange::Patch(_) => {
                    for c in p
                        .changes
                        .iter()
                        .filter(|c| ONLINE_PATCH_FIELDS.contains(&c.field.as_str()))
                    {
                        params[c.field.as_str()] =
                            p.after.fields.get(&c.field).cloned().unwrap_or(Value::Null);
                    }
                }
            }
            match super::online::call(rpc, "sessions.patch", &p.key, params) {
                Ok(_) => calls.answered(done_word),
                Err(e) if super::online::is_refusal(&e) => {
                    calls.answered("refused");
                    results.push(Applied::Refused(e));
                    continue;
                }
                Err(e) => return Err(calls.lost(e, hooks)),
            }
            // What the Gateway wrote, read back from its store.
            let store = AgentStore::open(item.target.agent.clone())?;
            let stored = store.entry_by_exact_key(&p.key)?.ok_or_else(|| {
                Error::Internal(format!("session {} is gone after sessions.patch", p.key))
            })?;
            // Only what the call asked for: around it each release writes its own way
            // (2026.8.2's `sessions.patch` archives without an `archiveReason`, where its own
            // offline archive and ours write "manual"; docs/openclaw/GATEWAY.md §8).
            let asked = |field: &str| match &self.change {
                EntryChange::Archive | EntryChange::Unarchive => field == "archivedAt",
                EntryChange::Patch(_) => ONLINE_PATCH_FIELDS.contains(&field),
            };
            for c in p.changes.iter().filter(|c| asked(&c.field)) {
                ensure(
                    stored.fields.contains_key(&c.field) == p.after.fields.contains_key(&c.field),
                    || {
                        format!(
                            "the Gateway's write of {} in {} differs from the plan",
                            c.field, p.key
                        )
                    },
                )?;
            }
            results.push(Applied::Written(stored));
        }
        Ok(EntryChangeReport { results })
    }
}

impl super::owner::OwnerOperation for EntryChangeOp {
    /// Every planned entry written whole by the owner's code (`patchSessionEntry` replacing the
    /// entry of the session id the plan saw), in one run, then read back: it must be the entry
    /// planned, as this tool's own writer would have left it.
    fn apply_by_owner(
        &mut self,
        _layout: &StateLayout,
        plan: &mut EntryChangePlan,
        owner: &super::owner::OwnerWriter,
        hooks: &dyn Hooks,
    ) -> Result<EntryChangeReport> {
        if hooks.interruption().requested() {
            return Err(Error::Interrupted);
        }
        let calls: Vec<super::owner::OwnerCall> = plan
            .items
            .iter()
            .filter_map(|item| {
                let p = item.to_write()?;
                Some(super::owner::OwnerCall::Replace {
                    agent_id: item.target.agent.id.to_string(),
                    session_key: p.key.clone(),
                    expected_session_id: p.before.session_id().to_string(),
                    entry: p.after.to_value(),
                })
            })
            .collect();
        let mut answers = owner.write(&calls)?.into_iter();
        let mut results = Vec::with_capacity(plan.items.len());
        for item in &plan.items {
            let Some(p) = item.to_write() else {
                results.push(item.left_alone());
                continue;
            };
            match answers.next() {
                Some(Ok(())) => {}
                Some(Err(said)) => {
                    results.push(Applied::Refused(Error::Conflict {
                        message: format!(
                            "OpenClaw {} refused to write {}: {said}",
                            owner.package.version, p.key
                        ),
                        hint: Some("look at the session, then run the command again".into()),
                    }));
                    continue;
                }
                None => {
                    return Err(Error::Internal(
                        "the owner's code answered fewer calls".into(),
                    ))
                }
            }
            let store = AgentStore::open(item.target.agent.clone())?;
            let stored = store.entry_by_exact_key(&p.key)?.ok_or_else(|| {
                Error::Internal(format!("session {} is gone after the owner's write", p.key))
            })?;
            ensure(stored.fields == p.after.fields, || {
                format!(
                    "OpenClaw {}'s write of {} differs from the plan",
                    owner.package.version, p.key
                )
            })?;
            results.push(Applied::Written(stored));
        }
        Ok(EntryChangeReport { results })
    }
}
