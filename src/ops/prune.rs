//! `prune`: OpenClaw's maintenance pass, offline. Archived sessions keep their rows; removed
//! ones leave their transcripts as archive rows and published files, so a snapshot is taken
//! only on request (`--backup-dir`): a nightly prune that snapshotted every store would grow
//! the state dir without end, the very thing it exists to stop.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use super::pipeline::{ensure, Hooks, Operation, SnapshotPolicy};
use super::summary::{count, PlanGroup, PlanItem, PlanSummary};
use super::targets::{check_owned_agent, Selection};
use crate::backup::SnapshotSource;
use crate::error::{Error, Result};
use crate::mutate::prune::{
    apply_budget, is_main_scope_direct_key, missing_transcript, plan_artifacts, plan_budget,
    ActionFilter, ArtifactEffect, ArtifactRemoval, BudgetInput, BudgetOutcome, BudgetPlan,
    BudgetStep, MaintenanceSettings, PlanBuilder, PlannerRow, PruneAction, PruneItem, PrunePlan,
    PruneRules, FIX_MISSING_FIELDS, PLANNER_FIELDS,
};
use crate::mutate::{
    apply_delete_batch, apply_patch_batch, plan_delete, plan_maintenance_archive, DeleteOptions,
    References,
};
use crate::paths::{AgentPaths, StateLayout};
use crate::remedy::{Remedy, Warning};
use crate::store::archive_rows::{archive_row_exists, delete_archive_row};
use crate::store::{AgentStore, SchemaInfo, SessionEntry, StoreKind};
use crate::writer::kept_entry::remove_kept_entry;
use crate::writer::WritableDb;

pub struct PruneOp {
    pub selection: Selection,
    pub settings: MaintenanceSettings,
    pub artifacts: bool,
    pub active_key: Option<String>,
    /// `--fix-missing`: remove sessions whose transcripts hold no message first.
    pub fix_missing: bool,
    /// `--fix-dm-scope` with `session.dmScope` `main`: remove the old direct-message keys first.
    pub fix_dm_scope: bool,
    /// The instant the plan is timed against.
    pub now: i64,
    /// The options that replace the config's `session.maintenance` settings for this run
    /// (`--older-than`...): OpenClaw's `sessions.cleanup` has no parameter for them.
    pub overrides: Vec<String>,
    agents: Vec<AgentPaths>,
    /// The state database's schema and the release that last opened it, which tell whose store it
    /// is now.
    state: Option<SchemaInfo>,
}

/// What a prune did beyond its plan.
#[derive(Debug, Default)]
pub struct PruneReport {
    /// OpenClaw's own `sessions.cleanup` answer, when the run went through a live Gateway
    /// (its summaries per store: counts before and after, pruned, capped, the disk budget).
    pub gateway_cleanup: Option<serde_json::Value>,
    /// OpenClaw's own `sessions cleanup --enforce --json` answers, one per agent it ran for,
    /// when the installed package's code pruned (`ops::owner`).
    pub owner_cleanup: Option<Vec<serde_json::Value>>,
}

/// One agent's plan. The actions stay in the plan's temporary database.
pub struct AgentPrune {
    pub paths: AgentPaths,
    pub plan: PrunePlan,
    pub artifacts: Vec<ArtifactRemoval>,
    pub disk_bytes: u64,
    pub over_budget: bool,
    /// The disk-budget pass, planned (with `maxDiskBytes`; docs/openclaw/MAINTENANCE.md §3.3).
    pub budget: Option<BudgetPlan>,
    /// What the budget pass measured when it ran.
    pub budget_outcome: Option<BudgetOutcome>,
    pub applied: bool,
    /// Whose cleanup the plan follows: the release that owns the store.
    pub rules: PruneRules,
}

impl AgentPrune {
    pub fn work(&self) -> usize {
        self.plan.len() + self.artifacts.len() + self.budget.as_ref().map_or(0, |b| b.removed.len())
    }

    /// How many of each action this agent's plan holds.
    pub fn totals(&self) -> Result<PruneTotals> {
        let mut t = PruneTotals {
            archived: self.plan.count(ActionFilter::Archives)?,
            deleted: self.plan.count(ActionFilter::Removals)?,
            ..Default::default()
        };
        for a in &self.artifacts {
            if a.archive_to.is_some() {
                t.files_archived += 1;
            } else {
                t.files_removed += 1;
            }
        }
        for r in self.budget.iter().flat_map(|b| &b.removed) {
            match r.step {
                BudgetStep::Archive | BudgetStep::RetainedFile => t.files_removed += 1,
                BudgetStep::Window => t.windows_evicted += 1,
                BudgetStep::ArchivedSession => t.deleted += 1,
            }
        }
        Ok(t)
    }
}

impl PrunePlanSet {
    /// How many of each action the whole plan holds.
    pub fn totals(&self) -> Result<PruneTotals> {
        let mut all = PruneTotals::default();
        for a in &self.agents {
            let t = a.totals()?;
            all.archived += t.archived;
            all.deleted += t.deleted;
            all.files_removed += t.files_removed;
            all.files_archived += t.files_archived;
            all.windows_evicted += t.windows_evicted;
        }
        Ok(all)
    }
}

/// How many of each action a prune plans (or did): sessions archived and deleted, files
/// removed or archived, historical windows evicted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PruneTotals {
    pub archived: usize,
    pub deleted: usize,
    pub files_removed: usize,
    pub files_archived: usize,
    pub windows_evicted: usize,
}

impl PruneTotals {
    /// `archive 3 and delete 6 sessions, remove 2 files`, with the verbs given (the plan's
    /// or the done run's).
    pub fn words(&self, archive: &str, delete: &str, remove: &str) -> String {
        let mut parts = Vec::new();
        match (self.archived, self.deleted) {
            (0, 0) => {}
            (a, 0) => parts.push(format!("{archive} {}", count(a, "session"))),
            (0, d) => parts.push(format!("{delete} {}", count(d, "session"))),
            (a, d) => parts.push(format!(
                "{archive} {a} and {delete} {}",
                count(d, "session")
            )),
        }
        if self.files_removed > 0 {
            parts.push(format!("{remove} {}", count(self.files_removed, "file")));
        }
        if self.files_archived > 0 {
            parts.push(format!("{archive} {}", count(self.files_archived, "file")));
        }
        if self.windows_evicted > 0 {
            parts.push(format!(
                "{} {}",
                if remove == "remove" {
                    "evict"
                } else {
                    "evicted"
                },
                count(self.windows_evicted, "historical window")
            ));
        }
        if parts.is_empty() {
            parts.push("nothing".to_string());
        }
        parts.join(", ")
    }
}

pub struct PrunePlanSet {
    pub agents: Vec<AgentPrune>,
    /// Agents whose sessions are still only in a legacy `sessions.json`: nothing is pruned
    /// there until it is imported.
    pub legacy_only: Vec<String>,
}

/// The warning for an agent whose sessions are still in the legacy file store.
pub fn legacy_only_warning(agent: &str, command: &str) -> Warning {
    Warning::with_remedy(
        format!(
            "agent {agent}: its sessions are still in the legacy sessions.json, which {command} \
             does not change; import it first with the legacy import"
        ),
        Remedy::ImportLegacy,
    )
}

impl PruneOp {
    pub fn new(selection: Selection, settings: MaintenanceSettings, now: i64) -> Self {
        PruneOp {
            selection,
            settings,
            artifacts: false,
            active_key: None,
            fix_missing: false,
            fix_dm_scope: false,
            now,
            overrides: Vec::new(),
            agents: Vec::new(),
            state: None,
        }
    }

    /// The options OpenClaw's own cleanup (its RPC `sessions.cleanup`, its command `sessions
    /// cleanup`) has no setting for, as the refusals name them: those that change the config's
    /// `session.maintenance` for this run, `--artifacts`, and `--reclaim` (`reclaim_why`).
    fn unmapped_options(&self, reclaim_why: &str) -> Vec<String> {
        let mut options: Vec<String> = self
            .overrides
            .iter()
            .map(|flag| match flag.as_str() {
                "--older-than" => "--older-than (session.maintenance.pruneAfter)".to_string(),
                "--max-entries" => "--max-entries (session.maintenance.maxEntries)".to_string(),
                "--max-disk-bytes" => {
                    "--max-disk-bytes (session.maintenance.maxDiskBytes)".to_string()
                }
                "--reclaim" => format!("--reclaim ({reclaim_why})"),
                other => other.to_string(),
            })
            .collect();
        if self.artifacts {
            options.push("--artifacts".into());
        }
        options
    }

    fn refuse_unproven_owners(&self, layout: &StateLayout) -> Result<()> {
        for d in crate::status::database_schemas(layout) {
            if let Some(a) = self.agents.iter().find(|a| {
                d.label
                    == crate::store::releases::DatabaseSchema::agent(a.id.as_str(), d.schema).label
            }) {
                refuse_unproven(a.id.as_str(), d.schema, self.state.as_ref())?;
            }
        }
        Ok(())
    }

    fn plan_agent(
        &self,
        paths: &AgentPaths,
        hooks: &dyn Hooks,
        legacy_only: &mut Vec<String>,
        state: Option<&SchemaInfo>,
    ) -> Result<Option<AgentPrune>> {
        let mut store = AgentStore::open(paths.clone())?;
        if store.kind == StoreKind::Legacy {
            hooks.warn(legacy_only_warning(paths.id.as_str(), "prune"));
            legacy_only.push(paths.id.to_string());
            return Ok(None);
        }
        for w in store.warnings.drain(..) {
            hooks.warn(w);
        }
        if store.db().is_none() {
            return Ok(None);
        }
        let rules = {
            let db = store.db().expect("sqlite store");
            let schema = crate::store::AgentSchema::of(db.conn())
                .map_err(|e| Error::sqlite(db.path(), e))?;
            rules_of(schema.0, state)
        };
        let s = &self.settings;
        let now = self.now;
        // Read entry by entry, each reduced to the few words the planner reads, into the plan's
        // temporary database.
        let active_key = self.active_key.as_deref();
        let mut builder = PlanBuilder::new()?;
        let mut fields = PLANNER_FIELDS.to_vec();
        if self.fix_missing {
            fields.extend_from_slice(FIX_MISSING_FIELDS);
        }
        let agent = paths.id.as_str();
        let warnings = store.for_each_session(Some(&fields), |entry| {
            if let Some(mut row) = PlannerRow::new(&entry, s, now, active_key, rules) {
                // OpenClaw's order: missing transcripts, then old direct-message keys.
                if self.fix_missing && missing_transcript(&store, &entry)? {
                    row.remove_first(PruneAction::PruneMissing);
                } else if self.fix_dm_scope
                    && !entry.fields.contains_key("archivedAt")
                    && is_main_scope_direct_key(&entry.key, agent, active_key)
                {
                    row.remove_first(PruneAction::RetireDmScope);
                }
                builder.push(&row)?;
            }
            Ok(ControlFlow::Continue(()))
        })?;
        for w in warnings {
            hooks.warn(w);
        }
        let mut plan = builder.plan(s, now, rules)?;
        // OpenClaw's step 3 runs on every cleanup; `--artifacts` adds archive retention.
        let artifacts = {
            // A second read, for the session ids the kept sessions still reference (an
            // entry reads as valid only with its updatedAt).
            store.for_each_session(Some(&["sessionId", "updatedAt"]), |e| {
                if !plan.removes(&e.key)? {
                    plan.keep_session_id(e.session_id())?;
                }
                Ok(ControlFlow::Continue(()))
            })?;
            let db = store.db().expect("sqlite store");
            plan_artifacts(
                &paths.sessions_dir,
                |id| plan.keeps_session_id(id),
                |name| archive_row_exists(db.conn(), db.path(), name),
                s,
                now,
                self.artifacts,
            )?
        };
        let du =
            crate::du::agent_disk_use(paths, &store, &crate::paths::MaintenanceConfig::default())?;
        let disk = du.budget_bytes;
        let budget = match s.max_disk_bytes {
            None => None,
            // The plan's archives can add at most half the transcripts it removes (file and
            // row): under that, the pass has nothing to do and nothing need be read for it.
            Some(max) if disk + du.transcript_bytes / 2 <= max => Some(BudgetPlan {
                total_bytes_before: disk,
                total_bytes_after: disk,
                max_bytes: max,
                high_water_bytes: s.high_water_bytes.unwrap_or(max),
                removed: Vec::new(),
            }),
            Some(max) => {
                let effects: Vec<ArtifactEffect> = artifacts
                    .iter()
                    .map(|a| ArtifactEffect {
                        path: a.path.clone(),
                        archive_to: a.archive_to.clone(),
                    })
                    .collect();
                Some(plan_budget(&BudgetInput {
                    paths,
                    store: &store,
                    plan: &plan,
                    artifacts: &effects,
                    measured: disk,
                    max_bytes: max,
                    high_water_bytes: s.high_water_bytes.unwrap_or(max),
                    now,
                    refuse_below_schema: s.max_disk_bytes_given,
                })?)
            }
        };
        Ok(Some(AgentPrune {
            paths: paths.clone(),
            plan,
            artifacts,
            disk_bytes: disk,
            over_budget: s.max_disk_bytes.is_some_and(|m| disk > m),
            budget,
            budget_outcome: None,
            applied: false,
            rules,
        }))
    }
}

/// Whose cleanup a prune of this agent database reproduces: the release that owns the store
/// (docs/openclaw/RELEASES.md §6, §7), told by the state database. On agent schema 19: beside
/// state 15 (2026.8.1 to 2026.9.2), the release named by its `schema_meta.app_version` (each
/// release writes its own there when it opens the store, so it names the last one to run it): a 2026.8 release
/// prunes by 2026.8.2's rules (`release_prune_19`), 2026.9.1 and 2026.9.2 by their own
/// (`release_prune_19_of_2026_9_1`, `_9_2`); beside state 16 or 17, 2026.9.3's or 2026.9.4's
/// prune as 2026.9.5's (`release_prune_19_of_2026_9_3`, `_9_4`). `None`: an owner of 19 whose
/// cleanup is not reproduced, refused by [`refuse_unproven`].
fn owner_rules(agent_schema: i64, state: Option<&SchemaInfo>) -> Option<PruneRules> {
    use crate::store::releases::RELEASES;
    if agent_schema != 19 {
        return Some(PruneRules::Current);
    }
    let state = state?;
    // `2026.9.1`, or a build of it (`2026.9.1-beta.1`), not `2026.9.10`.
    let is = |v: &str, release: &str| {
        v.strip_prefix(release)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', '+']))
    };
    // The rows of the release table that create this store (agent 19 beside this state schema).
    let rows: Vec<_> = RELEASES
        .iter()
        .filter(|r| r.agent_schema == 19 && r.state_schema == state.user_version)
        .collect();
    let row = match state.app_version.as_deref() {
        // The release the state database names, among them; a 2026.8 release the table does
        // not list prunes as 2026.8.2 (the 2026.8 releases share their cleanup, RELEASES.md §7).
        Some(v) => rows
            .iter()
            .find(|r| is(v, r.version))
            .or_else(|| {
                v.starts_with("2026.8.")
                    .then(|| rows.iter().find(|r| r.version == "2026.8.2"))
                    .flatten()
            })
            .copied(),
        None => None,
    };
    // Unnamed (or named otherwise): the rows' rules when they all prune alike (state 16, 17).
    let rules_of = match row {
        Some(r) => r.prune_rules_of,
        None if !rows.is_empty()
            && state.user_version != 15
            && rows
                .iter()
                .all(|r| r.prune_rules_of == rows[0].prune_rules_of) =>
        {
            rows[0].prune_rules_of
        }
        None => None,
    };
    PruneRules::of_release(rules_of?)
}

/// The rules a plan follows: the owner's; where it is unproven (refused before a real run),
/// 2026.9.5's, which the dry run names.
fn rules_of(agent_schema: i64, state: Option<&SchemaInfo>) -> PruneRules {
    owner_rules(agent_schema, state).unwrap_or_default()
}

/// Refuse a schema-19 store whose owner's prune is not proven, naming that owner.
fn refuse_unproven(agent: &str, agent_schema: i64, state: Option<&SchemaInfo>) -> Result<()> {
    if owner_rules(agent_schema, state).is_some() {
        return Ok(());
    }
    let owner = match state {
        Some(SchemaInfo {
            user_version: 15,
            app_version: Some(v),
            ..
        }) => format!("OpenClaw {v} (the release that last opened its state database)"),
        Some(s) => {
            let owners: Vec<&str> = crate::store::releases::RELEASES
                .iter()
                .filter(|r| r.agent_schema == 19 && r.state_schema == s.user_version)
                .map(|r| r.version)
                .collect();
            if owners.is_empty() {
                format!(
                    "a release this tool cannot name (state schema {})",
                    s.user_version
                )
            } else {
                format!("OpenClaw {}", owners.join(", "))
            }
        }
        None => "a release this tool cannot name (no state database)".to_string(),
    };
    Err(Error::UnsupportedSchema {
        message: format!(
            "agent {agent}'s database has agent schema 19 in a store of {owner}; prune writes agent schema 19 only as the cleanup of the release that owns the store does (2026.8.x, 2026.9.1 to 2026.9.4), and this one's is not reproduced yet; nothing was changed"
        ),
        hint: Some(crate::store::upgrade_hint(
            crate::store::releases::written().version,
        )),
    }
    .with_remedy(Remedy::UpgradeSchema))
}

/// Sessions per batch of a real run: the whole entries and deletion plans of one batch are
/// held at a time, not those of every planned session. 128, measured with
/// `prune --all-agents --enforce --yes` (peak RSS, wall): on 3 x 5,000 sessions 512 took
/// 26.3 MB (1.6x its 3 x 500 figure), 128 20.2 MB and 64 19.3 MB; on 3 x 500, 64 was 20 %
/// slower than 512 (one commit and one archive publication a batch).
fn apply_batch() -> usize {
    crate::test_hooks::apply_batch().unwrap_or(128)
}

/// The planned actions `filter` admits, handed to `apply` a batch at a time, in plan order.
fn in_batches(
    plan: &PrunePlan,
    filter: ActionFilter,
    mut apply: impl FnMut(Vec<PruneItem>) -> Result<()>,
) -> Result<()> {
    let size = apply_batch();
    let mut batch = Vec::with_capacity(size.min(plan.len()));
    plan.for_each(filter, |item| -> Result<_> {
        batch.push(item);
        if batch.len() == size {
            apply(std::mem::take(&mut batch))?;
        }
        Ok(ControlFlow::Continue(()))
    })?;
    if !batch.is_empty() {
        apply(batch)?;
    }
    Ok(())
}

/// The whole entries of a batch (planning kept a few fields of every session).
fn entries_of(
    store: &AgentStore,
    batch: &[PruneItem],
    agent: &str,
) -> Result<HashMap<String, SessionEntry>> {
    let mut by_key = HashMap::with_capacity(batch.len());
    for item in batch {
        let entry = store
            .entry_by_exact_key(&item.session_key)?
            .ok_or_else(|| {
                Error::not_found(
                    format!("session {} is gone from agent {agent}", item.session_key),
                    None,
                )
            })?;
        by_key.insert(item.session_key.clone(), entry);
    }
    Ok(by_key)
}

/// What the deletions of one agent write to the disk of its database (the archives land in
/// `sessions/` beside it), estimated from the transcripts they remove.
#[derive(Debug, Clone, Copy, Default)]
struct DiskNeeds {
    /// The archive files (they stay), and as much again as rows of the database.
    archives: u64,
    /// The WAL of the largest batch (each batch's writer closes, which checkpoints it).
    batch_wal: u64,
}

impl DiskNeeds {
    fn total(&self) -> u64 {
        self.archives + self.batch_wal
    }
}

/// An archive is zstd over JSONL: half its transcript is a bound zstd stays well under
/// (a quarter is usual; docs/openclaw/MAINTENANCE.md §3.3, "Ours").
fn archive_bound(transcript_bytes: u64) -> u64 {
    transcript_bytes.div_ceil(2)
}

/// Before the first write of any agent, as one whole plan would: every planned session is
/// still there and every deletion can be planned (an unsafe transcript id stops the run
/// here), and what the deletions will write is counted.
fn check_agent(plan: &AgentPrune) -> Result<DiskNeeds> {
    let paths = &plan.paths;
    let agent = paths.id.as_str();
    let opts = DeleteOptions {
        archive: true,
        ..Default::default()
    };
    let store = AgentStore::open(paths.clone())?;
    let (refs, page_size) = {
        let db = store.db().expect("sqlite store");
        let pages = crate::store::db::vacuum::page_use(db.conn())
            .map_err(|e| Error::sqlite(db.path(), e))?;
        (References::read(db.conn(), db.path())?, pages.page_size)
    };
    let frame = page_size + super::disk_space::WAL_FRAME_HEADER;
    let mut needs = DiskNeeds::default();
    in_batches(&plan.plan, ActionFilter::All, |batch| {
        let by_key = entries_of(&store, &batch, agent)?;
        let (mut removed, mut archives) = (0u64, 0u64);
        for item in batch.iter().filter(|i| !i.action.is_archive()) {
            let dp = plan_delete(&store, refs.as_read(), &by_key, &item.session_key, &opts)?;
            for g in dp.generations.iter().filter(|g| g.events > 0) {
                removed += g.bytes;
                archives += archive_bound(g.bytes);
            }
        }
        // Every page the batch changes once in the WAL: its transcripts' pages, the archive
        // rows, and a few pages of indexes and nodes per session.
        let pages = (removed + archives).div_ceil(page_size) + 8 * batch.len() as u64;
        needs.batch_wal = needs
            .batch_wal
            .max(pages * frame + super::disk_space::WAL_HEADER);
        needs.archives += 2 * archives;
        Ok(())
    })?;
    Ok(needs)
}

/// Refuse the whole run, before anything changes, when the disk of an agent's database
/// cannot hold what its deletions write (agents on one file system count together).
fn check_space(plans: &[(&AgentPrune, DiskNeeds)]) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    let mut by_device: Vec<(u64, Vec<(&AgentPrune, DiskNeeds)>)> = Vec::new();
    for &(p, needs) in plans {
        let dir = p.paths.db.parent().unwrap_or(std::path::Path::new("."));
        let dev = std::fs::metadata(dir).map_err(|e| Error::io(dir, e))?.dev();
        match by_device.iter_mut().find(|(d, _)| *d == dev) {
            Some((_, v)) => v.push((p, needs)),
            None => by_device.push((dev, vec![(p, needs)])),
        }
    }
    for (_, group) in &by_device {
        let dir = group[0]
            .0
            .paths
            .db
            .parent()
            .unwrap_or(std::path::Path::new("."));
        let available = super::disk_space::free_bytes_at(dir)?;
        let needed: u64 = group.iter().map(|(_, n)| n.total()).sum();
        if needed > available {
            let agents: Vec<&str> = group.iter().map(|(p, _)| p.paths.id.as_str()).collect();
            return Err(Error::Conflict {
                message: format!(
                    "not enough free disk to prune agent {} in {}: its archives and journal need about {}, {} is free",
                    agents.join(", agent "),
                    dir.display(),
                    crate::units::format_bytes(needed),
                    crate::units::format_bytes(available)
                ),
                hint: Some(
                    "free some space (or prune fewer sessions at a time, e.g. with a later --older-than) and run it again; nothing was changed"
                        .to_string(),
                ),
            });
        }
    }
    Ok(())
}

/// What one agent's run had committed when it stopped.
#[derive(Debug, Default, Clone, Copy)]
struct AgentProgress {
    archived: usize,
    deleted: usize,
}

/// Apply one agent's plan; `stop` (a signal, or another agent's failure) is asked before each
/// batch and before its commit: a batch in flight rolls back, so a stopped run has committed
/// nothing since the stop, whatever the timing of the other agents. `done` counts what is
/// committed, for the words of a stopped run.
fn apply_agent(
    layout: &StateLayout,
    plan: &mut AgentPrune,
    now: i64,
    stop: &(dyn Fn() -> bool + Sync),
    done: &mut AgentProgress,
    progress: &dyn crate::progress::Progress,
) -> Result<()> {
    let paths = plan.paths.clone();
    let agent = paths.id.as_str();
    let opts = DeleteOptions {
        archive: true,
        ..Default::default()
    };
    // Every deletion was planned once by check_agent; they are planned again, batch by
    // batch, against the references as they are read here (the same: the store is in custody).
    let mut refs = {
        let store = AgentStore::open(paths.clone())?;
        let db = store.db().expect("sqlite store");
        References::read(db.conn(), db.path())?
    };
    // Then a batch at a time: read with the store's reader, which is closed before the writer
    // opens (an immutable reader beside a writer would read stale pages). Archives first,
    // then deletions, each in plan order.
    let archives = in_batches(&plan.plan, ActionFilter::Archives, |batch| {
        if stop() {
            return Err(Error::Interrupted);
        }
        let by_key = entries_of(&AgentStore::open(paths.clone())?, &batch, agent)?;
        let patches = batch
            .iter()
            .map(|item| {
                plan_maintenance_archive(
                    &by_key[&item.session_key],
                    item.action.archive_reason(),
                    now,
                )
            })
            .collect::<Result<Vec<_>>>()?;
        // One transaction per batch: a crash leaves all of it or none.
        apply_patch_batch(
            &mut WritableDb::open_accepting(
                &layout.state_dir,
                &paths.db,
                PruneOp::OLDER_SCHEMAS_WRITTEN,
            )?,
            &patches,
            stop,
        )?;
        done.archived += batch.len();
        progress.advance(batch.len() as u64);
        Ok(())
    });
    archives?;
    in_batches(&plan.plan, ActionFilter::Removals, |batch| {
        if stop() {
            return Err(Error::Interrupted);
        }
        let delete_plans = {
            let store = AgentStore::open(paths.clone())?;
            let by_key = entries_of(&store, &batch, agent)?;
            batch
                .iter()
                .map(|i| plan_delete(&store, refs.as_read(), &by_key, &i.session_key, &opts))
                .collect::<Result<Vec<_>>>()?
        };
        let mut db = WritableDb::open_accepting(
            &layout.state_dir,
            &paths.db,
            PruneOp::OLDER_SCHEMAS_WRITTEN,
        )?;
        // One transaction and one publication per batch (crash-safe as one per session:
        // docs/openclaw/CRASH-STATES.md).
        apply_delete_batch(
            &mut db,
            &delete_plans,
            &mut refs,
            &paths.sessions_dir,
            now,
            stop,
        )?;
        done.deleted += delete_plans.len();
        progress.advance(delete_plans.len() as u64);
        Ok(())
    })?;
    if !plan.artifacts.is_empty() {
        let db = WritableDb::open_accepting(
            &layout.state_dir,
            &paths.db,
            PruneOp::OLDER_SCHEMAS_WRITTEN,
        )?;
        for a in &plan.artifacts {
            if let Some(name) = &a.archive_row {
                delete_archive_row(&db.conn, &db.path, name)?;
            }
            let done = match &a.archive_to {
                // Transcript content stays, as an archive (never over an existing file).
                Some(to) => crate::fsutil::rename_noreplace(&a.path, to),
                None => std::fs::remove_file(&a.path),
            };
            match done {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::io(&a.path, e)),
            }
            if a.archive_to.is_none() {
                if let Some(name) = a.path.file_name().and_then(|n| n.to_str()) {
                    remove_kept_entry(&layout.state_dir, paths.id.as_str(), name)?;
                }
            }
            progress.advance(1);
        }
    }
    if let Some(budget) = &plan.budget {
        plan.budget_outcome = Some(apply_budget(
            &layout.state_dir,
            &paths,
            budget,
            now,
            PruneOp::OLDER_SCHEMAS_WRITTEN,
            &stop,
        )?);
        progress.advance(budget.removed.len() as u64);
    }
    plan.applied = true;
    Ok(())
}

/// The run's outcome from every agent's: the first failure (in agent order), else the
/// interruption, else success; a stopped run says what each agent had done.
fn stopped_agents(
    outcomes: Vec<(String, Result<()>, AgentProgress)>,
    hooks: &dyn Hooks,
) -> Result<()> {
    let failure = outcomes
        .iter()
        .position(|(_, o, _)| o.as_ref().is_err_and(|e| !matches!(e, Error::Interrupted)));
    let stopped = outcomes.iter().any(|(_, o, _)| o.is_err());
    if !stopped {
        return Ok(());
    }
    let why = match failure {
        Some(i) => format!("agent {} failed", outcomes[i].0),
        None => "the interruption".to_string(),
    };
    let mut in_full = Vec::new();
    let mut first_error = None;
    for (i, (agent, outcome, done)) in outcomes.into_iter().enumerate() {
        match outcome {
            Ok(()) => in_full.push(agent),
            Err(e) => {
                if done.archived + done.deleted > 0 && Some(i) != failure {
                    hooks.warn(
                        format!(
                            "agent {agent}: pruned before {why}: {} archived, {} deleted; the rest of the plan is untouched",
                            done.archived, done.deleted
                        )
                        .into(),
                    );
                }
                if Some(i) == failure {
                    first_error = Some(e);
                } else if !matches!(e, Error::Interrupted) {
                    hooks.warn(format!("agent {agent} failed too: {e}").into());
                }
            }
        }
    }
    if !in_full.is_empty() {
        // An agent may finish its last batch after another failed.
        let when = match failure {
            Some(_) => format!("when {why}"),
            None => format!("before {why}"),
        };
        hooks.warn(format!("pruned in full {when}: agent {}", in_full.join(", agent ")).into());
    }
    Err(first_error.unwrap_or(Error::Interrupted))
}

/// What an action does, in the plan's words.
pub fn action_words(action: PruneAction) -> String {
    match action {
        PruneAction::PruneModelRun | PruneAction::PruneStale | PruneAction::PruneCap => {
            "delete (archived transcript)".to_string()
        }
        // 2026.8.x archives a stale dashboard without writing a reason.
        PruneAction::ArchiveDashboardUnreasoned => "archive (stale dashboard)".to_string(),
        a => format!("archive ({})", a.archive_reason().unwrap_or_default()),
    }
}

impl Operation for PruneOp {
    type Plan = PrunePlanSet;
    type Report = PruneReport;

    const SNAPSHOT: SnapshotPolicy = SnapshotPolicy::OnRequest;
    /// 2026.9.5's cleanup plans and writes as 2026.9.6's does (reference check
    /// `release_prune_21`); on 19, the owner's: 2026.8.x's own rules (`release_prune_19`),
    /// 2026.9.1's and 2026.9.2's own (`release_prune_19_of_2026_9_1`, `_9_2`), 2026.9.3/9.4's as
    /// 2026.9.5's (`release_prune_19_of_2026_9_3`, `_9_4`); a store of another owner of 19 is
    /// refused in `check_early` and `check` (docs/openclaw/RELEASES.md §6).
    const OLDER_SCHEMAS_WRITTEN: &'static [i64] =
        crate::store::releases::OLDER_AGENT_SCHEMAS_WRITTEN;

    fn agents_in_scope(&self, _layout: &StateLayout) -> Vec<AgentPaths> {
        self.agents.clone()
    }

    fn resolve(&mut self, layout: &StateLayout) -> Result<()> {
        self.agents = self.selection.agents(layout)?;
        self.state =
            crate::status::database_status(&layout.state_db(), crate::store::DatabaseRole::Global)
                .schema;
        Ok(())
    }

    /// The schema guard, and a schema-19 store whose owner's prune is unproven, before
    /// custody.
    fn check_early(&self, layout: &StateLayout) -> Result<()> {
        super::guard::check_schemas(&self.agents, Self::OLDER_SCHEMAS_WRITTEN)?;
        self.refuse_unproven_owners(layout)
    }

    /// The same on a dry run, where it becomes a warning under the plan.
    fn check(&self, layout: &StateLayout, _plan: &PrunePlanSet) -> Result<()> {
        self.refuse_unproven_owners(layout)
    }

    /// Archives an earlier run committed but was stopped before publishing go out first, as
    /// `delete` does: a prune with nothing left to do would otherwise leave them pending.
    fn recover(&mut self, layout: &StateLayout, hooks: &dyn Hooks) -> Result<()> {
        super::pending::publish_pending_archives(
            &layout.state_dir,
            &self.agents,
            Self::OLDER_SCHEMAS_WRITTEN,
            hooks,
        )
    }

    fn plan(&mut self, layout: &StateLayout, hooks: &dyn Hooks) -> Result<PrunePlanSet> {
        let mut agents = Vec::new();
        let mut legacy_only = Vec::new();
        for paths in &self.agents {
            if let Some(p) = self.plan_agent(paths, hooks, &mut legacy_only, self.state.as_ref())? {
                agents.push(p);
            }
        }
        for a in agents.iter().filter(|a| a.work() > 0) {
            check_owned_agent(layout, &a.paths)?;
        }
        Ok(PrunePlanSet {
            agents,
            legacy_only,
        })
    }

    fn summarize(&self, plan: &PrunePlanSet, limit: usize) -> Result<PlanSummary> {
        let mut headline = plan.totals()?.words("archive", "delete", "remove");
        // An older release's store is pruned by that release's own rules: said, since they
        // differ from the current ones (2026.9.3/9.4's, the same as 2026.9.5's, go unsaid).
        let mut owners: Vec<&str> = Vec::new();
        for a in plan.agents.iter().filter(|a| a.work() > 0) {
            if a.rules != PruneRules::Current && !owners.contains(&a.rules.release()) {
                owners.push(a.rules.release());
            }
        }
        if !owners.is_empty() {
            headline.push_str(&format!(
                ", by OpenClaw {}'s own rules (its store)",
                owners.join("'s and ")
            ));
        }
        let mut summary = PlanSummary::new(headline);
        for a in &plan.agents {
            let mut group = PlanGroup::new(Some(a.paths.id.to_string()));
            a.plan.for_each(ActionFilter::All, |i| -> Result<_> {
                group.push(
                    match i.action.archive_reason() {
                        Some(reason) => {
                            PlanItem::change("archive", i.session_key, Some(reason.to_string()))
                        }
                        None if i.action.is_archive() => PlanItem::change(
                            "archive",
                            i.session_key,
                            Some("stale dashboard, no reason written".to_string()),
                        ),
                        None => PlanItem::change(
                            "delete",
                            i.session_key,
                            Some("transcript archived".to_string()),
                        ),
                    },
                    limit,
                );
                Ok(ControlFlow::Continue(()))
            })?;
            for f in &a.artifacts {
                group.push(
                    PlanItem::change(
                        if f.archive_to.is_some() {
                            "archive"
                        } else {
                            "remove"
                        },
                        f.path.display().to_string(),
                        Some(f.why.to_string()),
                    ),
                    limit,
                );
            }
            for r in a.budget.iter().flat_map(|b| &b.removed) {
                let (verb, why) = match r.step {
                    BudgetStep::Archive if r.written_by_this_run => {
                        ("remove", "disk budget: archive written by this run")
                    }
                    BudgetStep::Archive => ("remove", "disk budget: oldest archive"),
                    BudgetStep::RetainedFile => ("remove", "disk budget: retained archive file"),
                    BudgetStep::Window => ("evict", "disk budget: historical window, archived"),
                    BudgetStep::ArchivedSession => (
                        "delete",
                        "disk budget: archived by the cap, transcript archived",
                    ),
                };
                // Every removal the budget makes is shown, whatever the limit: it is what the
                // admin cannot guess from the sessions' ages.
                group.push(
                    PlanItem::change(verb, r.name.clone(), Some(why.to_string())),
                    usize::MAX,
                );
            }
            summary.add(group);
        }
        Ok(summary)
    }

    fn snapshot_sources(&self, _layout: &StateLayout, plan: &PrunePlanSet) -> Vec<SnapshotSource> {
        plan.agents
            .iter()
            .filter(|a| a.work() > 0)
            .map(|a| SnapshotSource::agent(&a.paths))
            .collect()
    }

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut PrunePlanSet,
        hooks: &dyn Hooks,
    ) -> Result<PruneReport> {
        // Archives are written to, and artifacts removed from, sessions/: refused up front if
        // it leads outside the store. Then every agent's deletions are planned, and what they
        // write checked against the free disk, before the first write of any.
        let working: Vec<&mut AgentPrune> =
            plan.agents.iter_mut().filter(|a| a.work() > 0).collect();
        for a in &working {
            crate::writer::check_owned_path(&layout.state_dir, &a.paths.sessions_dir)?;
        }
        // Agents are separate databases: checked, then pruned, side by side (two threads a
        // core, as the import: SQLite's work and the archives' fsyncs share the cores).
        let threads = 2 * crate::parallel::cores();
        let checked = crate::parallel::map_in_order(working, threads, |a| {
            check_agent(a).map(|needs| (a, needs))
        })
        .into_iter()
        .collect::<Result<Vec<_>>>()?;
        check_space(&checked.iter().map(|(a, n)| (&**a, *n)).collect::<Vec<_>>())?;
        let working: Vec<&mut AgentPrune> = checked.into_iter().map(|(a, _)| a).collect();
        let interruption = hooks.interruption();
        let failed = AtomicBool::new(false);
        let stop = || failed.load(Ordering::SeqCst) || interruption.requested();
        let now = self.now;
        // One bar over every agent's actions (sessions, files, budget removals).
        let progress = hooks.progress();
        progress.start(
            "pruning",
            Some(working.iter().map(|a| a.work() as u64).sum()),
        );
        let outcomes = crate::parallel::map_in_order(working, threads, |a| {
            let mut done = AgentProgress::default();
            let outcome = apply_agent(layout, a, now, &stop, &mut done, progress);
            if outcome
                .as_ref()
                .is_err_and(|e| !matches!(e, Error::Interrupted))
            {
                // The others stop before their next commit: each agent is whole batches.
                failed.store(true, Ordering::SeqCst);
            }
            (a.paths.id.to_string(), outcome, done)
        });
        progress.finish();
        stopped_agents(outcomes, hooks)?;
        Ok(PruneReport::default())
    }

    /// One action per session the cleanup plans to remove (`delete`: its transcripts are
    /// archived, as `delete` archives them) or to archive. The disk-budget pass, which picks
    /// what it removes as it measures, is not itemized: its removals are named by the
    /// snapshot only (docs/OPLOG.md).
    fn record_actions(
        &self,
        plan: &PrunePlanSet,
        _report: Option<&PruneReport>,
    ) -> Vec<crate::oplog::Action> {
        let mut out = Vec::new();
        for a in &plan.agents {
            let _ = a.plan.for_each(
                crate::mutate::prune::ActionFilter::All,
                |item| -> Result<ControlFlow<()>> {
                    out.push(crate::oplog::Action {
                        agent_id: a.paths.id.to_string(),
                        session_key: item.session_key,
                        action: if item.action.is_archive() {
                            "archive".into()
                        } else {
                            "delete".into()
                        },
                        ..Default::default()
                    });
                    Ok(ControlFlow::Continue(()))
                },
            );
        }
        out
    }

    fn not_undoable(&self) -> Option<String> {
        None
    }

    fn verify(&self, _: &StateLayout, plan: &Self::Plan, _: &Self::Report) -> Result<()> {
        // Every removed session is gone and every archived one reads as archived.
        for a in plan.agents.iter().filter(|a| a.applied) {
            let store = AgentStore::open(a.paths.clone())?;
            // Sessions the disk budget deleted after archiving them.
            let evicted: std::collections::HashSet<&str> = a
                .budget
                .iter()
                .flat_map(|b| &b.removed)
                .filter(|r| r.step == BudgetStep::ArchivedSession)
                .map(|r| r.name.as_str())
                .collect();
            a.plan.for_each(ActionFilter::All, |i| -> Result<_> {
                let now = store.entry_by_exact_key(&i.session_key)?;
                let as_planned = match i.action.is_archive() {
                    _ if evicted.contains(i.session_key.as_str()) => now.is_none(),
                    true => now.as_ref().is_some_and(|e| e.archived()),
                    false => now.is_none(),
                };
                ensure(as_planned, || {
                    format!(
                        "agent {}: session {} after the prune",
                        a.paths.id, i.session_key
                    )
                })?;
                Ok(ControlFlow::Continue(()))
            })?;
        }
        Ok(())
    }
}

impl super::online::OnlineOperation for PruneOp {
    /// `sessions.cleanup` takes `agent`/`allAgents`, `enforce`, `activeKey`, `fixMissing` and
    /// `fixDmScope` (the same closed schema in 2026.8.2, 2026.9.5 and 2026.9.6) and applies the
    /// config's `session.maintenance` as it is: an option that changes a setting has no
    /// parameter there (docs/openclaw/GATEWAY.md §7).
    fn online_refusal(&self) -> Option<String> {
        let options = self.unmapped_options("reclaim has no Gateway RPC");
        (!options.is_empty()).then(|| {
            format!(
                "OpenClaw's sessions.cleanup has no parameter for {}: it applies the config's session.maintenance as it is",
                options.join(", ")
            )
        })
    }

    /// OpenClaw's own cleanup in enforce mode (the binary goes online only for a run that
    /// applies), once for all agents or once per selected agent: it has no dry run and decides
    /// for itself what it removes, so the plan shown before was our prediction of it and its
    /// answer is the report (one store's summary, or `{allAgents, mode, stores}`).
    fn apply_online(
        &mut self,
        layout: &StateLayout,
        _plan: &mut PrunePlanSet,
        rpc: &mut dyn super::online::SessionRpc,
        hooks: &dyn Hooks,
    ) -> Result<PruneReport> {
        use super::online::CallTarget;
        let mut common = serde_json::json!({ "enforce": true });
        if let Some(key) = &self.active_key {
            common["activeKey"] = key.as_str().into();
        }
        if self.fix_missing {
            common["fixMissing"] = true.into();
        }
        if self.fix_dm_scope {
            common["fixDmScope"] = true.into();
        }
        let every = layout.select_agents(&[], true)?;
        let all = self.agents.len() > 1 && self.agents.len() == every.len();
        let calls: Vec<(CallTarget, serde_json::Value)> = if all {
            let mut params = common.clone();
            params["allAgents"] = true.into();
            vec![(CallTarget::all_agents(), params)]
        } else {
            self.agents
                .iter()
                .map(|a| {
                    let mut params = common.clone();
                    params["agent"] = a.id.as_str().into();
                    (CallTarget::agent(a.id.as_str()), params)
                })
                .collect()
        };
        let mut record = super::online::Calls::new(calls.iter().map(|(t, _)| t.clone()).collect());
        let mut answers = Vec::with_capacity(calls.len());
        for (target, params) in calls {
            if hooks.interruption().requested() {
                return Err(Error::Interrupted);
            }
            match super::online::call(rpc, "sessions.cleanup", &target.describe(), params) {
                Ok(answer) => {
                    record.answered("cleaned");
                    answers.push(answer);
                }
                Err(e) => return Err(record.lost(e, hooks)),
            }
        }
        let answer = match <[_; 1]>::try_from(answers) {
            Ok([one]) => one,
            Err(several) => serde_json::json!({
                "allAgents": false,
                "mode": "enforce",
                "stores": several,
            }),
        };
        Ok(PruneReport {
            gateway_cleanup: Some(answer),
            owner_cleanup: None,
        })
    }

    /// Nothing of the plan to read back: OpenClaw's cleanup chose what it removed.
    fn verify_online(&self, _: &StateLayout, _: &PrunePlanSet, _: &PruneReport) -> Result<()> {
        Ok(())
    }
}

impl super::owner::OwnerOperation for PruneOp {
    /// OpenClaw's `sessions cleanup` takes `--agent`, `--enforce`, `--active-key`,
    /// `--fix-missing` and `--fix-dm-scope`, and applies the config's `session.maintenance` as
    /// it is (2026.8.2, 2026.9.5 and 2026.9.6 alike): an option that changes a setting, and
    /// `--artifacts` and `--reclaim`, are refused before anything changes.
    fn owner_refusal(&self, owner: &super::owner::OwnerWriter) -> Result<()> {
        owner.require_cli("sessions cleanup")?;
        let options = self.unmapped_options("this tool's own write, not OpenClaw's");
        if options.is_empty() {
            return Ok(());
        }
        Err(Error::InvalidArgument {
            message: format!(
                "OpenClaw {}'s own `sessions cleanup` has no option for {}: it applies the config's session.maintenance as it is; nothing was changed",
                owner.package.version,
                options.join(", ")
            ),
            hint: Some(
                "set the setting in the config's session.maintenance (OpenClaw's cleanup then applies it), or leave the option out; on a store this tool writes, leaving out --via-openclaw/--openclaw lets this tool's own prune take it".into(),
            ),
        })
    }

    /// OpenClaw's own offline cleanup, `openclaw sessions cleanup --enforce --agent ID --store
    /// <agent>/sessions/sessions.json --json` (the store path its Gateway uses, so that its
    /// disk budget measures `sessions/` too, docs/openclaw/RELEASES.md §7), once per agent
    /// the plan changes, under this tool's custody (that command takes no lock of its own with
    /// `--store`, and never calls a Gateway with it). It decides for itself what it removes:
    /// the plan shown was this tool's reading of its rules, checked against the store after.
    fn apply_by_owner(
        &mut self,
        _layout: &StateLayout,
        plan: &mut PrunePlanSet,
        owner: &super::owner::OwnerWriter,
        hooks: &dyn Hooks,
    ) -> Result<PruneReport> {
        let mut answers = Vec::new();
        for a in plan.agents.iter_mut().filter(|a| a.work() > 0) {
            if hooks.interruption().requested() {
                return Err(Error::Interrupted);
            }
            let store = a.paths.sessions_dir.join("sessions.json");
            let mut args: Vec<&std::ffi::OsStr> = [
                "sessions",
                "cleanup",
                "--enforce",
                "--json",
                "--agent",
                a.paths.id.as_str(),
                "--store",
            ]
            .into_iter()
            .map(std::ffi::OsStr::new)
            .collect();
            args.push(store.as_os_str());
            if self.fix_missing {
                args.push("--fix-missing".as_ref());
            }
            if self.fix_dm_scope {
                args.push("--fix-dm-scope".as_ref());
            }
            if let Some(key) = &self.active_key {
                args.push("--active-key".as_ref());
                args.push(key.as_ref());
            }
            let answer = owner.run_cli(&args, "sessions cleanup --enforce")?;
            a.applied = true;
            answers.push(answer);
        }
        Ok(PruneReport {
            gateway_cleanup: None,
            owner_cleanup: Some(answers),
        })
    }
}
