use std::ops::ControlFlow;

use clap::Args;
use serde::Serialize;

use openclaw_sessions::du::over_budget_warning;
use openclaw_sessions::mutate::prune::{
    ActionFilter, ArtifactRemoval, MaintenanceSettings, PlannedList, PruneCounts,
};
use openclaw_sessions::ops::prune::{action_words, AgentPrune, PruneOp};
use openclaw_sessions::ops::{RunState, SnapshotTaken};
use openclaw_sessions::test_hooks;
use openclaw_sessions::units::parse_size;
use openclaw_sessions::Error;

use super::exit::Outcome;
use super::mutation::{print_dry_run, run_op, selection, MutationArgs};
use super::Ctx;

#[derive(Debug, Args)]
pub struct PruneArgs {
    /// Archive (or remove, for machine-made sessions) what was not updated for this long:
    /// 30d, 2w, 1w2d12h, 36h (default: session.maintenance.pruneAfter, 30d).
    #[arg(long, value_name = "DURATION")]
    older_than: Option<String>,
    /// Keep at most N unarchived sessions per agent (default: maxEntries, 5000).
    #[arg(long, value_name = "N")]
    max_entries: Option<i64>,
    /// Disk budget per agent (default: maxDiskBytes, 10gb; reported).
    #[arg(long, value_name = "SIZE")]
    max_disk_bytes: Option<String>,
    /// Also remove unreferenced transcripts and temp files, and archive files past
    /// resetArchiveRetention.
    #[arg(long)]
    artifacts: bool,
    /// Never touch this session (as OpenClaw's --active-key).
    #[arg(long, value_name = "KEY")]
    active_key: Option<String>,
    #[command(flatten)]
    mutation: MutationArgs,
}

/// The JSON report of one agent.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AgentReport<'a> {
    agent_id: &'a str,
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
}

fn report<'a>(p: &'a AgentPrune, s: &'a MaintenanceSettings, dry_run: bool) -> AgentReport<'a> {
    let agent_id = p.paths.id.as_str();
    let this = p;
    AgentReport {
        agent_id,
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
    }
}

#[derive(Serialize)]
struct Report<'a> {
    settings: &'a MaintenanceSettings,
    agents: Vec<AgentReport<'a>>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    snapshots: &'a [SnapshotTaken],
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
    let s = settings(ctx, args, &layout)?;
    let warn_only = s.mode == "warn";
    let mut op = PruneOp::new(selection(ctx), s.clone(), test_hooks::now_ms());
    op.artifacts = args.artifacts;
    // The session to protect, named as any session is (`main`, a bare key, an id); words the
    // resolver does not find are protected as written, as OpenClaw's --active-key does.
    op.active_key = args.active_key.as_ref().map(|words| {
        openclaw_sessions::store::resolve::resolve(&layout, &selection(ctx), words)
            .map(|found| found.session_key)
            .unwrap_or_else(|_| words.clone())
    });
    // `mode: warn` reports what a run would do, as a dry run does.
    let mutation = MutationArgs {
        dry_run: args.mutation.dry_run || warn_only,
        ..args.mutation.clone()
    };
    let Some(run) = run_op(ctx, &mut op, &mutation, "prune")? else {
        return Ok(Outcome::Done);
    };
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
    if ctx.printer.json {
        let agents = plans
            .iter()
            .map(|p| report(p, &s, args.mutation.dry_run))
            .collect();
        ctx.printer.json_data(&Report {
            settings: &s,
            agents,
            snapshots: &run.snapshots,
        })?;
        return Ok(Outcome::Done);
    }
    if work == 0 {
        ctx.printer.debug("nothing to prune");
        return Ok(Outcome::Done);
    }
    if dry_run {
        print_dry_run(ctx, &run.summary)?;
        return Ok(Outcome::Done);
    }
    for snap in &run.snapshots {
        ctx.printer
            .info(format!("snapshot before pruning: {}", snap.path.display()));
    }
    let mut t = ctx.printer.table(&["AGENT", "KEY", "ACTION"]);
    for p in plans {
        let agent = p.paths.id.to_string();
        p.plan
            .for_each(ActionFilter::All, |i| -> anyhow::Result<_> {
                t.add_row(vec![
                    agent.clone(),
                    i.session_key,
                    format!("did {}", action_words(i.action)),
                ]);
                Ok(ControlFlow::Continue(()))
            })?;
        for a in &p.artifacts {
            t.add_row(vec![
                agent.clone(),
                a.path.display().to_string(),
                format!("did remove: {}", a.why),
            ]);
        }
    }
    ctx.printer.print_table(&t)?;
    Ok(Outcome::Done)
}
