//! The one runner of every destructive operation, in one fixed order:
//! resolve targets -> take custody -> recover -> plan (read-only) -> show the plan -> confirm
//! -> snapshot per the operation's policy -> apply -> verify -> release -> report.
//!
//! An operation says *what* (its plan, its apply step, which databases it changes); the runner
//! owns *when*, so no command can take custody after planning, skip its snapshot or forget to
//! release. The binary supplies the questions, progress and warnings through [`Hooks`].
//!
//! The runner also keeps the operation log (`oplog`, docs/OPLOG.md) when the caller asks for
//! it ([`RunOptions::record`]): a record's `begin` line, durable, after the snapshot and
//! before the apply step; its `end` line after verification (or the error). So every
//! operation is logged without code of its own. What an operation adds is its extension
//! point for `undo`:
//! - [`Operation::record_actions`]: the per-session actions of the record (key, session id,
//!   what was done, the archive it left, a patch's fields before and after); an operation
//!   that leaves it empty is logged, but `undo` says it cannot take it back, with
//!   [`Operation::not_undoable`]'s reason (which names what to do instead);
//! - `ops::undo` turns each recorded action back into the operation that reverses it
//!   (`undelete`, `unarchive`, `archive`, a patch of the old fields). An operation whose
//!   actions use a new action word adds its reversal there (`ops::undo::reverse`), and is
//!   refused by `undo`, naming the word, until it does.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;

use super::guard::{check_databases, DamagedStore};
use super::summary::PlanSummary;
use crate::backup::{create_snapshot, verify_snapshot, SnapshotSource, SnapshotTarget};
use crate::custody::{AcquireOptions, AcquireReport, Custody};
use crate::error::{Error, Result};
use crate::gateway::GatewayRoute;
use crate::interruption::Interruption;
use crate::paths::{AgentPaths, StateLayout};
use crate::progress::Progress;
use crate::remedy::Warning;

/// When a verified snapshot of each database the plan changes is written before applying.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SnapshotPolicy {
    /// Always; into the given directory, else the operation's default repository.
    Required,
    /// Only when a directory is given (`--backup-dir`).
    OnRequest,
    /// The operation changes no database a snapshot could bring back (it only moves files and
    /// never overwrites one).
    Never,
}

/// What the person (or script) answered when shown the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Proceed,
    /// Declined: nothing is changed, and that is a normal end.
    Decline,
    /// Nobody could be asked (no terminal, no `--yes`): nothing is changed.
    Unanswered,
}

/// The caller's side of a run: questions, progress, warnings, interruption.
pub trait Hooks {
    fn progress(&self) -> &dyn Progress;
    /// Show `summary` and ask whether to apply it.
    fn confirm(&self, summary: &PlanSummary) -> Decision;
    /// Something the person should know that does not stop the run.
    fn warn(&self, _warning: Warning) {}
    /// Progress of the run's own steps (custody taken, snapshot written...).
    fn note(&self, _message: String) {}
    /// Whether the caller asked the run to stop: the one channel for it, polled by the
    /// pipeline between steps, by custody's retries and by each apply step at its consistent
    /// points (a `Copy` value, so work spread over threads polls it too).
    fn interruption(&self) -> Interruption {
        Interruption::NEVER
    }
    /// What a run a signal stopped had done, as data, just before it returns
    /// [`Error::Interrupted`]: the CLI puts it in the error document's `data`.
    fn stopped_with(&self, _done: serde_json::Value) {}
    /// The run enters `step` (resolve, custody, recover, plan, check, confirm, snapshot,
    /// apply, verify): for a trace of where its time goes.
    fn step(&self, _step: &'static str) {}
}

/// Hooks that answer yes and show nothing (library callers, tests).
pub struct Unattended;

impl Hooks for Unattended {
    fn progress(&self) -> &dyn Progress {
        &crate::progress::NoProgress
    }
    fn confirm(&self, _: &PlanSummary) -> Decision {
        Decision::Proceed
    }
}

/// A destructive operation: a read-only plan and the step that applies it.
pub trait Operation {
    type Plan;
    type Report;

    /// Its snapshot policy, stated once (documented in `--help` and the README).
    const SNAPSHOT: SnapshotPolicy;

    /// Whether the plan is shown and confirmed before it is applied: destructive operations
    /// ask; a one-row entry change (patch, archive, unarchive) does not.
    const ASKS_FIRST: bool = true;

    /// Whether this run asks: [`Operation::ASKS_FIRST`], unless the run itself says more (an
    /// entry change over sessions a selector chose asks as a destructive command does).
    fn asks_first(&self) -> bool {
        Self::ASKS_FIRST
    }

    /// A snapshot of a store whose foreign keys are already broken is still worth keeping
    /// (doctor's, before it repairs them).
    const KEEPS_BROKEN_FOREIGN_KEYS: bool = false;

    /// What the operation may do with a database that fails `quick_check`: every operation
    /// refuses it before any change, but the doctor's safe repairs and a restore, which
    /// replaces it whole (the guards: `ops::guard`).
    const DAMAGED_STORE: DamagedStore = DamagedStore::Refused;

    /// Whether the operation takes databases of an older release's schema as they are (the
    /// schema upgrade): the guards then refuse only a schema newer than this tool writes.
    const TAKES_OLDER_SCHEMA: bool = false;

    /// The older agent schemas (19, 21) this operation writes as the releases that create them
    /// do, proven against those releases in the reference suite's release matrix
    /// (docs/openclaw/RELEASES.md); any other older schema is refused before any change.
    const OLDER_SCHEMAS_WRITTEN: &'static [i64] = &[];

    /// Whether the run writes the store's databases, so that every database of the state dir
    /// must pass the release check first (`ops::guard::check_state_dir_release`): all but the
    /// operations that touch only snapshots, or replace a database whole with a verified
    /// snapshot (the remedy that must stay open on any store).
    const CHECKS_STATE_DIR_RELEASE: bool = true;

    /// Where a required snapshot goes when the caller names no directory.
    fn default_snapshot_dir(&self, layout: &StateLayout) -> PathBuf {
        layout.safety_repository()
    }

    /// Turn the user's words into targets (read-only, before custody).
    fn resolve(&mut self, _layout: &StateLayout) -> Result<()> {
        Ok(())
    }

    /// The agents this run works on, after `resolve`: the leftovers of killed runs (temporary
    /// files, restore copies) are cleaned only inside them, so `--agent a` never touches agent
    /// b's files (docs/openclaw/HOSTILE.md, section 5). Required: no operation can forget it.
    fn agents_in_scope(&self, layout: &StateLayout) -> Vec<AgentPaths>;

    /// Under custody, before planning: finish what an interrupted run of this operation left
    /// (never on a dry run).
    fn recover(&mut self, _layout: &StateLayout, _hooks: &dyn Hooks) -> Result<()> {
        Ok(())
    }

    /// The plan: reads only.
    fn plan(&mut self, layout: &StateLayout, hooks: &dyn Hooks) -> Result<Self::Plan>;

    /// Refusals that need no plan, checked before custody is taken so that a refused run leaves
    /// no trace at all (not even custody's lock files): by default, an agent database in scope
    /// of a schema this tool does not write (`ops::guard::check_schemas`). Never on a dry run,
    /// whose check step shows the same refusal as a warning under its plan.
    fn check_early(&self, layout: &StateLayout) -> Result<()> {
        if Self::DAMAGED_STORE == DamagedStore::Replaced || Self::TAKES_OLDER_SCHEMA {
            return Ok(());
        }
        super::guard::check_schemas(&self.agents_in_scope(layout), Self::OLDER_SCHEMAS_WRITTEN)
    }

    /// Refusals of the plan's own, beside the database guards (`ops::guard`), run at the same
    /// step: before anything changes, and on a dry run, where a schema refusal becomes a
    /// warning under the plan.
    fn check(&self, _layout: &StateLayout, _plan: &Self::Plan) -> Result<()> {
        Ok(())
    }

    /// What the plan will change, for the prompt and the dry run: at most `limit` items per
    /// group, with the count of every change.
    fn summarize(&self, plan: &Self::Plan, limit: usize) -> Result<PlanSummary>;

    /// The databases `apply` writes to (snapshotted first under the policy).
    fn snapshot_sources(&self, layout: &StateLayout, plan: &Self::Plan) -> Vec<SnapshotSource>;

    fn apply(
        &mut self,
        layout: &StateLayout,
        plan: &mut Self::Plan,
        hooks: &dyn Hooks,
    ) -> Result<Self::Report>;

    /// Read back what `apply` wrote; an error here means the store is not as planned.
    fn verify(&self, layout: &StateLayout, plan: &Self::Plan, report: &Self::Report) -> Result<()>;

    /// The operation log's per-session actions (docs/OPLOG.md): with no report, what the plan
    /// will do (the `begin` line); with the report, what was written (the `end` line).
    fn record_actions(
        &self,
        _plan: &Self::Plan,
        _report: Option<&Self::Report>,
    ) -> Vec<crate::oplog::Action> {
        Vec::new()
    }

    /// Why `undo` cannot take this operation back (said in its record), or `None` when its
    /// recorded actions are what `undo` reverses.
    fn not_undoable(&self) -> Option<String> {
        Some(
            "its changes are not recorded per session; restore the snapshot it took (`backup restore`)"
                .into(),
        )
    }

    /// The record this run takes back (`undo`'s own).
    fn undoes(&self) -> Option<String> {
        None
    }
}

/// A verification: `Ok` when `held`, else the store is not as the apply step left it.
pub fn ensure(held: bool, what: impl FnOnce() -> String) -> Result<()> {
    if held {
        Ok(())
    } else {
        Err(Error::Internal(format!("not as written: {}", what())))
    }
}

/// How a run is to be done.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    pub dry_run: bool,
    /// Retry custody this long while a live owner holds the state dir.
    pub wait: Option<Duration>,
    /// The custody owner id a parent process holds for us.
    pub inherit_custody: Option<String>,
    /// Where snapshots go (`--backup-dir`).
    pub snapshot_dir: Option<PathBuf>,
    /// Items per group in the summary.
    pub summary_limit: usize,
    /// Keep the operation log (the binary's runs; a library caller may leave it out).
    pub record: Option<Recording>,
}

/// What the operation log says of a run beside what the run knows: the command and its line.
#[derive(Debug, Clone)]
pub struct Recording {
    /// The record's id ([`crate::oplog::new_id`]).
    pub id: String,
    /// `delete`, `patch`, `migrate schema`...
    pub command: String,
    /// The command line as given; its secrets are elided when it is written.
    pub argv: Vec<String>,
}

impl Recording {
    pub fn new(command: impl Into<String>, argv: Vec<String>) -> Self {
        Recording {
            id: crate::oplog::new_id(crate::units::now_ms()),
            command: command.into(),
            argv,
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RunState {
    DryRun,
    /// The plan changes nothing: no question, no snapshot, no write.
    NothingToDo,
    Declined,
    /// No terminal to ask on and no `--yes`.
    Unanswered,
    Applied,
}

/// A verified snapshot taken before applying.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotTaken {
    /// The database it is a copy of.
    pub database: PathBuf,
    /// The snapshot directory (`database.sqlite` + `manifest.json`).
    pub path: PathBuf,
}

/// Everything a run produced, for the caller's report.
pub struct Run<P, R> {
    pub state: RunState,
    pub plan: P,
    pub summary: PlanSummary,
    pub report: Option<R>,
    pub snapshots: Vec<SnapshotTaken>,
    pub custody: Option<AcquireReport>,
    /// The live Gateway the run went through (`ops::online`); `None` offline.
    pub gateway: Option<GatewayRoute>,
    /// The installed OpenClaw package whose own code wrote the changes (`ops::owner`).
    pub owner: Option<super::owner::OpenClawPackage>,
    /// The owner's route a run with nothing to do did not take ("the live Gateway", "OpenClaw
    /// 2026.9.8's own code"): it only read the store, and says so rather than a route.
    pub not_reached: Option<String>,
}

impl<P, R> Run<P, R> {
    /// The snapshot of `database`, if one was taken.
    pub fn snapshot_of(&self, database: &Path) -> Option<&Path> {
        self.snapshots
            .iter()
            .find(|s| s.database == database)
            .map(|s| s.path.as_path())
    }
}

/// Run `op` in the fixed order. Custody is released on every path out, errors included.
pub fn run<O: Operation>(
    op: &mut O,
    layout: &StateLayout,
    options: &RunOptions,
    hooks: &dyn Hooks,
) -> Result<Run<O::Plan, O::Report>> {
    hooks.step("resolve");
    op.resolve(layout)?;
    if !options.dry_run {
        if O::CHECKS_STATE_DIR_RELEASE {
            super::guard::check_state_dir_release(layout)?;
        }
        op.check_early(layout)?;
    }
    let custody = if options.dry_run {
        None
    } else {
        hooks.step("custody");
        let acquire = AcquireOptions {
            wait: options.wait,
            interruption: hooks.interruption(),
            inherit: options.inherit_custody.clone(),
        };
        let custody = Custody::acquire(layout, &acquire)?;
        for r in &custody.report.reclaimed {
            hooks.warn(format!("reclaimed a stale lock: {r}").into());
        }
        Some(custody)
    };
    let custody_report = custody.as_ref().map(|c| c.report.clone());
    let result = run_held(op, layout, options, hooks);
    if let Some(c) = custody {
        let released = c.release();
        if result.is_ok() {
            released?;
        }
    }
    let mut run = result?;
    run.custody = custody_report;
    Ok(run)
}

fn run_held<O: Operation>(
    op: &mut O,
    layout: &StateLayout,
    options: &RunOptions,
    hooks: &dyn Hooks,
) -> Result<Run<O::Plan, O::Report>> {
    if !options.dry_run {
        hooks.step("recover");
        for path in
            super::leftovers::remove_leftovers(&layout.state_dir, &op.agents_in_scope(layout))?
        {
            hooks.note(format!(
                "removed {}, left by an interrupted run",
                path.display()
            ));
        }
        op.recover(layout, hooks)?;
        if let Some(rec) = &options.record {
            resume_interrupted(layout, rec, hooks);
        }
    }
    hooks.step("plan");
    let plan = op.plan(layout, hooks)?;
    hooks.step("check");
    // Before anything changes, and on a dry run too: it shows the refusal the run would meet.
    // An older release's schema, which this tool does not write yet, still reads in full: a
    // dry run shows its plan, and says that the real run would be refused and what to do (a
    // newer schema, read only in part, is refused as the real run is).
    let sources = op.snapshot_sources(layout, &plan);
    let whole = if O::CHECKS_STATE_DIR_RELEASE {
        super::guard::check_state_dir_release(layout)
    } else {
        Ok(())
    };
    let checked = whole
        .and_then(|()| {
            check_databases(
                &sources,
                O::DAMAGED_STORE,
                O::TAKES_OLDER_SCHEMA,
                O::OLDER_SCHEMAS_WRITTEN,
            )
        })
        .and_then(|()| op.check(layout, &plan));
    match checked {
        // A dry run is a read: it shows its plan, and says the real run would be refused.
        Err(e)
            if options.dry_run
                && matches!(
                    e.remedy(),
                    Some(crate::remedy::Remedy::UpgradeSchema | crate::remedy::Remedy::OwnerWrites)
                ) =>
        {
            let message = match e.hint() {
                Some(hint) => format!("the real run would be refused: {e}; {hint}"),
                None => format!("the real run would be refused: {e}"),
            };
            hooks.warn(Warning {
                message,
                remedy: e.remedy(),
            });
        }
        other => other?,
    }
    let summary = op.summarize(&plan, options.summary_limit.max(1))?;
    if options.dry_run {
        return Ok(Run::ended(RunState::DryRun, plan, summary, None));
    }
    finish(
        op,
        layout,
        options,
        hooks,
        (plan, summary),
        None,
        crate::oplog::Route::Offline,
        |op, plan| op.apply(layout, plan, hooks),
        |op, plan, report| op.verify(layout, plan, report),
    )
}

impl<P, R> Run<P, R> {
    /// A run that ended before its apply.
    fn ended(
        state: RunState,
        plan: P,
        summary: PlanSummary,
        gateway: Option<GatewayRoute>,
    ) -> Self {
        Run {
            state,
            plan,
            summary,
            report: None,
            snapshots: Vec::new(),
            custody: None,
            gateway,
            owner: None,
            not_reached: None,
        }
    }
}

/// From the plan shown to the end: nothing to do, the question, the snapshot, the apply and
/// its verification. The same for a run offline and one through a live Gateway
/// (`online::run_online`), which differ in how they apply and verify.
#[allow(clippy::too_many_arguments)]
pub(super) fn finish<O: Operation>(
    op: &mut O,
    layout: &StateLayout,
    options: &RunOptions,
    hooks: &dyn Hooks,
    (mut plan, summary): (O::Plan, PlanSummary),
    gateway: Option<GatewayRoute>,
    route: crate::oplog::Route,
    apply: impl FnOnce(&mut O, &mut O::Plan) -> Result<O::Report>,
    verify: impl FnOnce(&O, &O::Plan, &O::Report) -> Result<()>,
) -> Result<Run<O::Plan, O::Report>> {
    if summary.changes == 0 {
        return Ok(Run::ended(RunState::NothingToDo, plan, summary, gateway));
    }
    let decision = if op.asks_first() {
        hooks.step("confirm");
        hooks.confirm(&summary)
    } else {
        Decision::Proceed
    };
    // A signal while the question waited is an interruption, never a declined question.
    if hooks.interruption().requested() {
        return Err(Error::Interrupted);
    }
    match decision {
        Decision::Proceed => {}
        Decision::Decline => return Ok(Run::ended(RunState::Declined, plan, summary, gateway)),
        Decision::Unanswered => {
            return Ok(Run::ended(RunState::Unanswered, plan, summary, gateway))
        }
    }
    hooks.step("snapshot");
    let snapshots = snapshot(op, layout, &plan, options, hooks)?;
    if hooks.interruption().requested() {
        return Err(Error::Interrupted);
    }
    // Said only when something is applied: a run with nothing due prints nothing (cron).
    if let Some(route) = &gateway {
        hooks.note(format!(
            "through the live Gateway at {} (OpenClaw {})",
            route.url, route.version
        ));
    }
    // The record's begin, durable before anything is written: a run killed from here on is
    // logged as interrupted.
    // Never a state dir created for the log: an operation on snapshots alone (`backup prune`)
    // may run where there is none.
    let record = match &options.record {
        Some(rec) if layout.state_dir.is_dir() => {
            let begin = begin_record(op, layout, &plan, &summary, rec, route, &snapshots);
            crate::oplog::OpLog::of(&layout.state_dir).begin(&begin)?;
            Some(rec)
        }
        _ => None,
    };
    hooks.step("apply");
    // The points between which every write of the apply lands (the fault tests draw their
    // faults there).
    crate::test_hooks::crash_point("pipeline-apply");
    let report = apply(op, &mut plan)
        .and_then(|report| {
            crate::test_hooks::crash_point("pipeline-applied");
            hooks.step("verify");
            verify(op, &plan, &report).map(|()| report)
        })
        .inspect_err(|e| {
            if let Some(rec) = record {
                let outcome = match e {
                    Error::Interrupted => crate::oplog::Outcome::Interrupted,
                    _ => crate::oplog::Outcome::Failed,
                };
                end_record(layout, rec, outcome, None, Some(e.to_string()), hooks);
            }
        })?;
    if let Some(rec) = record {
        let actions = op.record_actions(&plan, Some(&report));
        let refused = !actions.is_empty() && actions.iter().all(|a| a.refused.is_some());
        let outcome = if refused {
            crate::oplog::Outcome::Refused
        } else {
            crate::oplog::Outcome::Done
        };
        end_record(layout, rec, outcome, Some(actions), None, hooks);
    }
    hooks.step("done");
    Ok(Run {
        state: RunState::Applied,
        plan,
        summary,
        report: Some(report),
        snapshots,
        custody: None,
        gateway,
        owner: None,
        not_reached: None,
    })
}

/// The record's `begin` line: who, where, what the plan does, the snapshots taken.
fn begin_record<O: Operation>(
    op: &O,
    layout: &StateLayout,
    plan: &O::Plan,
    summary: &PlanSummary,
    rec: &Recording,
    route: crate::oplog::Route,
    snapshots: &[SnapshotTaken],
) -> crate::oplog::Begin {
    let judged = crate::store::releases::judge(&crate::status::database_schemas(layout)).as_is;
    let release = (!judged.is_empty()).then(|| crate::store::releases::span(&judged));
    crate::oplog::Begin {
        id: rec.id.clone(),
        time: crate::units::now_ms(),
        command: rec.command.clone(),
        argv: crate::oplog::elide_secrets(&rec.argv),
        origin: crate::oplog::Origin::current(),
        route,
        release,
        headline: summary.headline.clone(),
        actions: op.record_actions(plan, None),
        snapshots: snapshots
            .iter()
            .map(|s| crate::oplog::Snapshot {
                database: s.database.clone(),
                path: s.path.clone(),
            })
            .collect(),
        undoes: op.undoes(),
        not_undoable: op.not_undoable(),
    }
}

/// The record's `end` line. The change is made (or stopped) whatever happens here: a log that
/// cannot be written is a warning, never the run's error.
fn end_record(
    layout: &StateLayout,
    rec: &Recording,
    outcome: crate::oplog::Outcome,
    actions: Option<Vec<crate::oplog::Action>>,
    error: Option<String>,
    hooks: &dyn Hooks,
) {
    let end = crate::oplog::End {
        id: rec.id.clone(),
        time: crate::units::now_ms(),
        outcome,
        actions,
        error,
        resumed_by: None,
    };
    if let Err(e) = crate::oplog::OpLog::of(&layout.state_dir).end(&end) {
        hooks.warn(format!("the operation log was not completed: {e}").into());
    }
}

/// Under custody, after the operation's own recovery: the records of earlier runs of the
/// same command that were stopped half way are completed as resumed by this run (its
/// recovery step finished what they left; docs/OPLOG.md).
fn resume_interrupted(layout: &StateLayout, rec: &Recording, hooks: &dyn Hooks) {
    let log = crate::oplog::OpLog::of(&layout.state_dir);
    if !log.dir().is_dir() {
        return;
    }
    let records = match log.read() {
        Ok(r) => r,
        Err(e) => {
            hooks.warn(format!("the operation log does not read: {e}").into());
            return;
        }
    };
    for r in records.iter().filter(|r| {
        r.outcome == crate::oplog::Outcome::Interrupted && r.begin.command == rec.command
    }) {
        let end = crate::oplog::End {
            id: r.begin.id.clone(),
            time: crate::units::now_ms(),
            outcome: crate::oplog::Outcome::Resumed,
            actions: None,
            error: None,
            resumed_by: Some(rec.id.clone()),
        };
        match log.end(&end) {
            Ok(()) => hooks.note(format!(
                "operation {} ({}), interrupted, is resumed by this run",
                r.begin.id, r.begin.command
            )),
            Err(e) => hooks.warn(format!("the operation log was not completed: {e}").into()),
        }
    }
}

/// One verified snapshot per database the plan changes, or none, as the policy says. A
/// snapshot that does not verify stops the run before anything changed.
pub(super) fn snapshot<O: Operation>(
    op: &O,
    layout: &StateLayout,
    plan: &O::Plan,
    options: &RunOptions,
    hooks: &dyn Hooks,
) -> Result<Vec<SnapshotTaken>> {
    let dir = match (O::SNAPSHOT, &options.snapshot_dir) {
        (SnapshotPolicy::Never, _) | (SnapshotPolicy::OnRequest, None) => return Ok(Vec::new()),
        (_, Some(dir)) => dir.clone(),
        (SnapshotPolicy::Required, None) => op.default_snapshot_dir(layout),
    };
    let tolerate = O::KEEPS_BROKEN_FOREIGN_KEYS;
    let mut written = Vec::new();
    for source in op.snapshot_sources(layout, plan) {
        // A database the run will create has nothing to keep.
        if !source.db().is_file() {
            continue;
        }
        let target = SnapshotTarget {
            repository: dir.clone(),
            tolerate_foreign_key_violations: tolerate,
        };
        let (path, _) =
            create_snapshot(&source, &target, hooks.progress(), crate::units::now_ms())?;
        crate::test_hooks::spoil_snapshot(&path);
        check_snapshot(&path, tolerate)?;
        hooks.note(format!(
            "snapshot of {} written: {}",
            source.db().display(),
            path.display()
        ));
        written.push(SnapshotTaken {
            database: source.db().to_path_buf(),
            path,
        });
    }
    Ok(written)
}

fn check_snapshot(path: &Path, tolerate_foreign_keys: bool) -> Result<()> {
    let report = verify_snapshot(path);
    let problems: Vec<String> = report
        .problems
        .into_iter()
        .filter(|p| !(tolerate_foreign_keys && p.contains("foreign key violation")))
        .collect();
    if problems.is_empty() {
        return Ok(());
    }
    Err(Error::SnapshotUnverified {
        path: path.to_path_buf(),
        problems,
    })
}
