use std::collections::BTreeMap;
use std::ops::ControlFlow;

use clap::Args;
use serde::Serialize;

use openclaw_sessions::du::over_budget_warning;
use openclaw_sessions::mutate::prune::{
    ActionFilter, ArtifactRemoval, BudgetRemoval, MaintenanceSettings, PlannedList, PruneCounts,
    PruneRules,
};
use openclaw_sessions::ops::prune::{action_words, AgentPrune, PruneOp};
use openclaw_sessions::ops::summary::count;
use openclaw_sessions::ops::{RunState, SnapshotTaken};
use openclaw_sessions::test_hooks;
use openclaw_sessions::units::parse_size;
use openclaw_sessions::Error;

use super::reclaim::{print_report as print_reclaim, reclaim, ReclaimReport};
use crate::cli::exit::Outcome;
use crate::cli::mutation::{print_dry_run, run_owned_op, selection, MutationArgs};
use crate::cli::online::{OnlineArgs, OwnerArgs};
use crate::cli::table::Column;
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct PruneArgs {
    /// Archive (or remove, for machine-made sessions) what was not updated for this long:
    /// 30d, 2w, 1w2d12h, 36h (default: session.maintenance.pruneAfter, 30d).
    #[arg(long, value_name = "DURATION")]
    older_than: Option<String>,
    /// Keep at most N unarchived sessions per agent (default: maxEntries, 5000).
    #[arg(long, value_name = "N")]
    max_entries: Option<i64>,
    /// Disk budget per agent (default: maxDiskBytes, 10gb): over it, archives, retained
    /// archive files, historical windows and sessions archived by the cap are removed, in
    /// OpenClaw's order, down to 80% of it (highWaterBytes).
    #[arg(long, value_name = "SIZE")]
    max_disk_bytes: Option<String>,
    /// Also remove archive files past resetArchiveRetention (unreferenced transcripts and
    /// temp files are handled on every run, as OpenClaw's cleanup does).
    #[arg(long)]
    artifacts: bool,
    /// Never touch this session (as OpenClaw's --active-key).
    #[arg(long, value_name = "KEY")]
    active_key: Option<String>,
    /// Apply even when session.maintenance.mode is warn (as OpenClaw's --enforce).
    #[arg(long)]
    enforce: bool,
    /// First remove sessions whose transcripts hold no message (as OpenClaw's --fix-missing);
    /// a transcript with a row that cannot be read is kept, and what is removed is archived.
    #[arg(long)]
    fix_missing: bool,
    /// First remove direct-message sessions left from before session.dmScope main (as
    /// OpenClaw's --fix-dm-scope; only when dmScope is main).
    #[arg(long)]
    fix_dm_scope: bool,
    /// Then give the databases' free pages back to the file system (as `reclaim` does).
    #[arg(long)]
    reclaim: bool,
    /// Before: the flag that took the Gateway route, now the default; accepted, and does
    /// nothing.
    #[arg(long, hide = true, conflicts_with = "offline")]
    via_gateway: bool,
    #[command(flatten)]
    mutation: MutationArgs,
    /// While a live Gateway owns the state dir, the run goes through OpenClaw's own cleanup
    /// (`sessions.cleanup`, in enforce mode, with --agent/--all-agents, --active-key,
    /// --fix-missing and --fix-dm-scope): it applies the config's session.maintenance, so an
    /// option that changes a setting is refused there (exit 75), and the plan shown first is
    /// this tool's prediction of it. --dry-run reads the live store either way.
    #[command(flatten)]
    online: OnlineArgs,
    /// Offline, on a store of a release this tool does not write (or with --via-openclaw),
    /// OpenClaw's own `sessions cleanup --enforce` of the installed package prunes, with
    /// --agent, --active-key, --fix-missing and --fix-dm-scope; an option that changes a
    /// setting of session.maintenance is refused there (it applies the config's as it is).
    #[command(flatten)]
    owner: OwnerArgs,
}

/// The JSON report of one agent.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AgentReport<'a> {
    agent_id: &'a str,
    /// The release whose own cleanup the plan follows, when the store is an older release's
    /// that prunes otherwise than the current one (docs/openclaw/RELEASES.md §7).
    #[serde(skip_serializing_if = "Option::is_none")]
    rules_of: Option<String>,
    mode: &'a str,
    dry_run: bool,
    archived: PlannedList<'a>,
    deleted: PlannedList<'a>,
    artifacts: &'a [ArtifactRemoval],
    kept: usize,
    counts: &'a PruneCounts,
    actions: PlannedList<'a>,
    disk_bytes: u64,
    max_disk_bytes: Option<u64>,
    over_budget: bool,
    applied: bool,
    /// The disk-budget pass: what it removes (or removed), in order.
    budget: Option<BudgetReport<'a>>,
    /// The summary `openclaw sessions cleanup --json` prints for this agent, field for field.
    cleanup: CleanupSummary<'a>,
    /// The keys behind each of its counts.
    keys: BTreeMap<&'static str, Vec<String>>,
}

/// OpenClaw's per-store cleanup summary (docs/openclaw/MAINTENANCE.md §3.2).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CleanupSummary<'a> {
    agent_id: &'a str,
    store_path: &'a std::path::Path,
    mode: &'a str,
    dry_run: bool,
    #[serde(flatten)]
    counts: PruneCounts,
    unreferenced_artifacts: ArtifactSummary<'a>,
    disk_budget: Option<DiskBudget>,
    would_mutate: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactSummary<'a> {
    removed_files: usize,
    /// Bytes of the files removed; transcript content archived in place frees nothing.
    freed_bytes: u64,
    older_than_ms: i64,
    /// Ours: transcripts renamed to archives instead of removed.
    archived_files: usize,
    files: Vec<&'a std::path::Path>,
}

/// The budget pass of one agent (docs/openclaw/MAINTENANCE.md §3.3 step 4).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BudgetReport<'a> {
    /// The byte figures are the plan's estimates (a dry run, or an agent the run did not
    /// change); a real run reports what it measured.
    estimated: bool,
    removed: &'a [BudgetRemoval],
}

/// OpenClaw's `diskBudget` block. OpenClaw's dry run only measures; ours simulates the pass
/// (`budget.estimated`), and a real run measures before and after it.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DiskBudget {
    total_bytes_before: u64,
    total_bytes_after: u64,
    removed_files: usize,
    removed_entries: usize,
    freed_bytes: u64,
    max_bytes: u64,
    high_water_bytes: u64,
    over_budget: bool,
}

/// The keys of each count of OpenClaw's summary (`capped` includes `capArchived`).
fn keys_by_count(
    plan: &openclaw_sessions::mutate::prune::PrunePlan,
) -> anyhow::Result<BTreeMap<&'static str, Vec<String>>> {
    use openclaw_sessions::mutate::prune::PruneAction as A;
    let mut keys: BTreeMap<&'static str, Vec<String>> = [
        "missing",
        "dmScopeRetired",
        "modelRunPruned",
        "archived",
        "capArchived",
        "pruned",
        "capped",
    ]
    .into_iter()
    .map(|k| (k, Vec::new()))
    .collect();
    plan.for_each(ActionFilter::All, |i| -> anyhow::Result<_> {
        let mut add =
            |k: &'static str| keys.get_mut(k).expect("listed").push(i.session_key.clone());
        match i.action {
            A::PruneMissing => add("missing"),
            A::RetireDmScope => add("dmScopeRetired"),
            A::PruneModelRun => add("modelRunPruned"),
            A::ArchiveDashboard | A::ArchiveDashboardUnreasoned | A::ArchiveAge => add("archived"),
            A::PruneStale => add("pruned"),
            A::ArchiveCap => {
                add("capArchived");
                add("capped");
            }
            A::PruneCap => add("capped"),
        }
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(keys)
}

fn report<'a>(
    p: &'a AgentPrune,
    s: &'a MaintenanceSettings,
    dry_run: bool,
) -> anyhow::Result<AgentReport<'a>> {
    let agent_id = p.paths.id.as_str();
    let this = p;
    let counts = this.plan.counts();
    let removed: Vec<_> = p
        .artifacts
        .iter()
        .filter(|a| a.archive_to.is_none())
        .collect();
    let unreferenced_artifacts = ArtifactSummary {
        removed_files: removed.len(),
        freed_bytes: removed.iter().map(|a| a.bytes).sum(),
        older_than_ms: s.prune_after_ms.unwrap_or(0),
        archived_files: p.artifacts.len() - removed.len(),
        files: p.artifacts.iter().map(|a| a.path.as_path()).collect(),
    };
    let disk_budget = p.budget.as_ref().map(|b| {
        let (before, after) = match &p.budget_outcome {
            Some(o) => (o.total_bytes_before, o.total_bytes_after),
            None => (b.total_bytes_before, b.total_bytes_after),
        };
        DiskBudget {
            total_bytes_before: before,
            total_bytes_after: after,
            removed_files: b.removed_files(),
            removed_entries: b.removed_entries(),
            freed_bytes: before.saturating_sub(after),
            max_bytes: b.max_bytes,
            high_water_bytes: b.high_water_bytes,
            over_budget: before > b.max_bytes,
        }
    });
    let budget = p.budget.as_ref().map(|b| BudgetReport {
        estimated: p.budget_outcome.is_none(),
        removed: &b.removed,
    });
    let would_mutate = p.work() > 0;
    // An applied run counts the rows left after the disk budget, as OpenClaw's does.
    let mut summary_counts = counts.clone();
    if p.budget_outcome.is_some() {
        let evicted = p.budget.as_ref().map_or(0, |b| {
            b.removed
                .iter()
                .filter(|r| r.step == openclaw_sessions::mutate::prune::BudgetStep::ArchivedSession)
                .count()
        });
        summary_counts.after_count = summary_counts.after_count.saturating_sub(evicted);
    }
    Ok(AgentReport {
        agent_id,
        rules_of: (p.rules != PruneRules::Current)
            .then(|| format!("OpenClaw {}", p.rules.release())),
        mode: &s.mode,
        dry_run,
        archived: this.plan.keys(ActionFilter::Archives),
        deleted: this.plan.keys(ActionFilter::Removals),
        artifacts: &this.artifacts,
        kept: this.plan.counts().before_count - this.plan.len(),
        counts: this.plan.counts(),
        actions: this.plan.items(),
        disk_bytes: this.disk_bytes,
        max_disk_bytes: s.max_disk_bytes,
        over_budget: this.over_budget,
        applied: this.applied,
        budget,
        cleanup: CleanupSummary {
            agent_id,
            store_path: &p.paths.db,
            mode: &s.mode,
            dry_run,
            counts: summary_counts,
            unreferenced_artifacts,
            disk_budget,
            would_mutate,
        },
        keys: keys_by_count(&this.plan)?,
    })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Report<'a> {
    settings: &'a MaintenanceSettings,
    agents: Vec<AgentReport<'a>>,
    /// Agents still on the legacy file store: import them first (`migrate legacy`).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    legacy_only: &'a [String],
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    snapshots: &'a [SnapshotTaken],
    #[serde(skip_serializing_if = "Option::is_none")]
    reclaim: Option<ReclaimReport>,
    /// `"via": "offline"`, `"openclaw"` (the package whose own cleanup pruned) or `"none"`
    /// (nothing due; a run through the Gateway reports its own answer instead).
    #[serde(flatten)]
    via: serde_json::Value,
    /// OpenClaw's own `sessions cleanup --json` answer per agent, when its package pruned.
    #[serde(skip_serializing_if = "Option::is_none")]
    openclaw_cleanup: Option<&'a [serde_json::Value]>,
}

fn settings(
    ctx: &Ctx,
    args: &PruneArgs,
    layout: &openclaw_sessions::paths::StateLayout,
) -> anyhow::Result<MaintenanceSettings> {
    let mut s = MaintenanceSettings::resolve(&layout.config.maintenance())?;
    if let Some(d) = &args.older_than {
        // The command line's one duration grammar (units::parse_duration_arg); the config's
        // pruneAfter keeps OpenClaw's.
        let ms = openclaw_sessions::units::parse_duration_arg(d)?;
        if ms == 0 {
            return Err(Error::invalid("--older-than must be longer than 0").into());
        }
        s.prune_after_ms = Some(i64::try_from(ms).unwrap_or(i64::MAX));
    }
    if let Some(n) = args.max_entries {
        if n <= 0 {
            return Err(Error::invalid("--max-entries must be positive").into());
        }
        s.max_entries = n;
    }
    if let Some(b) = &args.max_disk_bytes {
        let v = parse_size(b)?;
        s.max_disk_bytes = (v > 0).then_some(v);
        s.max_disk_bytes_given = true;
        s.high_water_bytes = s
            .max_disk_bytes
            .map(|m| ((m as f64) * 0.8).floor().max(1.0) as u64);
    }
    ctx.printer.debug(format!(
        "maintenance settings: {}",
        serde_json::to_string(&s)?
    ));
    Ok(s)
}

pub fn run(ctx: &Ctx, args: &PruneArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    let mut s = settings(ctx, args, &layout)?;
    // OpenClaw's `mode = opts.enforce ? "enforce" : maintenance.mode`.
    if args.enforce {
        s.mode = "enforce".to_string();
    }
    let warn_only = s.mode == "warn";
    let selected = selection(ctx)?;
    let mut op = PruneOp::new(selected.clone(), s.clone(), test_hooks::now_ms());
    op.artifacts = args.artifacts;
    op.fix_missing = args.fix_missing;
    op.fix_dm_scope = args.fix_dm_scope && layout.config.dm_scope_is_main();
    // The options that change what the config sets: the Gateway's cleanup, which applies the
    // config as it is, cannot carry them (an option that repeats the config's value can go).
    let config = MaintenanceSettings::resolve(&layout.config.maintenance())?;
    for (changed, flag) in [
        (s.prune_after_ms != config.prune_after_ms, "--older-than"),
        (s.max_entries != config.max_entries, "--max-entries"),
        (
            (s.max_disk_bytes, s.high_water_bytes)
                != (config.max_disk_bytes, config.high_water_bytes),
            "--max-disk-bytes",
        ),
        (args.reclaim, "--reclaim"),
    ] {
        if changed {
            op.overrides.push(flag.to_string());
        }
    }
    // The session to protect, named as any session is (`main`, a bare key, an id); words the
    // resolver does not find are protected as written, as OpenClaw's --active-key does.
    op.active_key = args.active_key.as_ref().map(|words| {
        openclaw_sessions::store::resolve::resolve(&layout, &selected, words)
            .map(|found| found.session_key)
            .unwrap_or_else(|_| words.clone())
    });
    // `mode: warn` reports what a run would do, as a dry run does.
    let mutation = MutationArgs {
        dry_run: args.mutation.dry_run || warn_only,
        ..args.mutation.clone()
    };
    let Some(run) = run_owned_op(ctx, &mut op, &mutation, &args.online, &args.owner, "prune")?
    else {
        return Ok(Outcome::Done);
    };
    if let (Some(route), Some(answer)) = (
        &run.gateway,
        run.report.as_ref().and_then(|r| r.gateway_cleanup.as_ref()),
    ) {
        return print_gateway_cleanup(ctx, route, answer, &run.plan.agents);
    }
    let plans = &run.plan.agents;
    let work: usize = plans.iter().map(AgentPrune::work).sum();
    if warn_only && work > 0 {
        ctx.printer
            .warn("session.maintenance.mode is warn: reporting only, nothing changed");
    }
    for p in plans {
        if p.over_budget {
            ctx.printer.warn(over_budget_warning(
                p.paths.id.as_str(),
                p.disk_bytes,
                s.max_disk_bytes.unwrap_or(0),
            ));
        }
    }
    let dry_run = run.state == RunState::DryRun;
    // Pages freed by this run are given back after its custody is released, under the
    // compaction's own.
    let reclaimed = if args.reclaim {
        reclaim(ctx, &args.mutation)?
    } else {
        None
    };
    if ctx.printer.json {
        let agents = plans
            .iter()
            .map(|p| report(p, &s, args.mutation.dry_run))
            .collect::<anyhow::Result<_>>()?;
        ctx.printer.json_data(&Report {
            settings: &s,
            agents,
            legacy_only: &run.plan.legacy_only,
            snapshots: &run.snapshots,
            reclaim: reclaimed,
            via: crate::cli::mutation::via(&run),
            openclaw_cleanup: run.report.as_ref().and_then(|r| r.owner_cleanup.as_deref()),
        })?;
        return Ok(Outcome::Done);
    }
    print_prune(ctx, &run, work, dry_run)?;
    if let Some(r) = &reclaimed {
        print_reclaim(ctx, r)?;
    }
    Ok(Outcome::Done)
}

/// OpenClaw's own cleanup, run through the live Gateway: its answer, per store, as it gave
/// it (JSON: `{"via": "gateway", "gateway", "cleanup"}`).
fn print_gateway_cleanup(
    ctx: &Ctx,
    route: &openclaw_sessions::ops::online::GatewayRoute,
    answer: &serde_json::Value,
    plans: &[AgentPrune],
) -> anyhow::Result<Outcome> {
    if ctx.printer.json {
        // Beside OpenClaw's answer, the counts our plan predicted just before it ran.
        let predicted: Vec<serde_json::Value> = plans
            .iter()
            .map(|a| serde_json::json!({"agentId": a.paths.id.as_str(), "counts": a.plan.counts()}))
            .collect();
        ctx.printer.json_data(&serde_json::json!({
            "via": "gateway",
            "gateway": route,
            "cleanup": answer,
            "predicted": predicted,
        }))?;
        return Ok(Outcome::Done);
    }
    let stores: Vec<&serde_json::Value> = match answer.get("stores").and_then(|s| s.as_array()) {
        Some(stores) => stores.iter().collect(),
        None => vec![answer],
    };
    let mut out = format!(
        "OpenClaw's own cleanup ran through the live Gateway (OpenClaw {}, mode enforce):\n",
        route.version
    );
    let n = |s: &serde_json::Value, k: &str| s.get(k).and_then(|v| v.as_i64()).unwrap_or(0);
    for s in stores {
        out.push_str(&format!(
            "  agent {}: {} -> {} sessions (pruned {}, capped {}, archived {}, missing {}, unreferenced files removed {})\n",
            crate::cli::shown::value(s.get("agentId").and_then(|v| v.as_str()).unwrap_or("?")),
            n(s, "beforeCount"),
            n(s, "appliedCount").max(n(s, "afterCount")),
            n(s, "pruned"),
            n(s, "capped"),
            n(s, "archived") + n(s, "capArchived"),
            n(s, "missing"),
            s.pointer("/unreferencedArtifacts/removedFiles").and_then(|v| v.as_i64()).unwrap_or(0),
        ));
    }
    ctx.printer.out(&out)?;
    Ok(Outcome::Done)
}

fn budget_words(r: &BudgetRemoval) -> &'static str {
    use openclaw_sessions::mutate::prune::BudgetStep;
    match r.step {
        BudgetStep::Archive if r.written_by_this_run => "archive written by this run",
        BudgetStep::Archive => "archive",
        BudgetStep::RetainedFile => "retained archive file",
        BudgetStep::Window => "historical window, archived",
        BudgetStep::ArchivedSession => "session archived by the cap, transcript archived",
    }
}

fn print_prune(
    ctx: &Ctx,
    run: &openclaw_sessions::ops::Run<
        openclaw_sessions::ops::prune::PrunePlanSet,
        openclaw_sessions::ops::prune::PruneReport,
    >,
    work: usize,
    dry_run: bool,
) -> anyhow::Result<()> {
    let plans = &run.plan.agents;
    if work == 0 {
        // Nothing due, nothing printed (README.md, Pruning from cron): a real run says it only
        // at -v, so that cron mails nothing; a dry run that printed nothing would read as a
        // failure, so it says it.
        let kept: usize = plans.iter().map(|a| a.plan.counts().before_count).sum();
        let message = format!(
            "nothing to prune: {} kept in {}",
            count(kept, "session"),
            count(plans.len(), "agent")
        );
        if dry_run {
            ctx.printer.info(message);
        } else {
            ctx.printer.debug(message);
        }
        return Ok(());
    }
    if dry_run {
        print_dry_run(ctx, &run.summary)?;
        return Ok(());
    }
    for snap in &run.snapshots {
        ctx.printer
            .info(format!("snapshot before pruning: {}", snap.path.display()));
    }
    // What was done, a row an action, when that is few enough to read (or -v asks); then,
    // always, the totals of each action.
    let totals = run.plan.totals()?;
    if work <= ACTION_ROWS || ctx.printer.verbose {
        print_actions(ctx, plans)?;
    }
    let mut done = format!("pruned: {}", totals.words("archived", "deleted", "removed"));
    if work > ACTION_ROWS && !ctx.printer.verbose {
        done.push_str(&format!(" (-v or --json lists each of the {work} actions)"));
    }
    ctx.printer.out(&format!("{done}\n"))?;
    Ok(())
}

/// Up to how many actions a run lists one by one without -v.
const ACTION_ROWS: usize = 100;

/// The table of a run's actions, a row each.
fn print_actions(ctx: &Ctx, plans: &[AgentPrune]) -> anyhow::Result<()> {
    // A long table is printed a block of rows at a time, each block with its header: the
    // rows of a run over a whole store are not all held at once.
    const BLOCK: usize = 1000;
    let header = [
        Column::id("AGENT"),
        Column::id("KEY"),
        Column::prose("ACTION"),
    ];
    let mut t = ctx.printer.table(&header);
    let mut rows = 0usize;
    let mut add = |t: &mut crate::cli::table::Table, row: Vec<String>| -> anyhow::Result<()> {
        if rows > 0 && rows % BLOCK == 0 {
            ctx.printer
                .print_table(&std::mem::replace(t, ctx.printer.table(&header)))?;
        }
        rows += 1;
        t.add_row(row);
        Ok(())
    };
    for p in plans {
        let agent = p.paths.id.to_string();
        p.plan
            .for_each(ActionFilter::All, |i| -> anyhow::Result<_> {
                add(
                    &mut t,
                    vec![
                        agent.clone(),
                        i.session_key,
                        format!("did {}", action_words(i.action)),
                    ],
                )?;
                Ok(ControlFlow::Continue(()))
            })?;
        for a in &p.artifacts {
            add(
                &mut t,
                vec![
                    agent.clone(),
                    a.path.display().to_string(),
                    format!(
                        "did {}: {}",
                        if a.archive_to.is_some() {
                            "archive"
                        } else {
                            "remove"
                        },
                        a.why
                    ),
                ],
            )?;
        }
        for r in p.budget.iter().flat_map(|b| &b.removed) {
            add(
                &mut t,
                vec![
                    agent.clone(),
                    r.name.clone(),
                    format!("did remove: disk budget ({})", budget_words(r)),
                ],
            )?;
        }
    }
    if !t.is_empty() {
        ctx.printer.print_table(&t)?;
    }
    Ok(())
}
