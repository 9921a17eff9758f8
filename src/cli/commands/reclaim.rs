//! `reclaim`: give agent databases' free pages back to the file system (also `prune --reclaim`).

use clap::Args;
use serde::Serialize;

use openclaw_sessions::ops::reclaim::{AgentReclaim, ReclaimOp};
use openclaw_sessions::ops::{PlanSummary, RunState};
use openclaw_sessions::units::format_bytes;

use crate::cli::exit::Outcome;
use crate::cli::mutation::{print_dry_run, run_op, selection, MutationArgs};
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct ReclaimArgs {
    #[command(flatten)]
    mutation: MutationArgs,
}

/// The JSON report (`prune --reclaim` nests it under `reclaim`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReclaimReport {
    pub dry_run: bool,
    pub applied: bool,
    pub agents: Vec<AgentReclaim>,
    #[serde(skip)]
    summary: PlanSummary,
}

/// Run the compaction for the selected agents; `None` when nothing ran (declined).
pub fn reclaim(ctx: &Ctx, mutation: &MutationArgs) -> anyhow::Result<Option<ReclaimReport>> {
    let mut op = ReclaimOp::new(selection(ctx)?);
    let Some(run) = run_op(ctx, &mut op, mutation, "reclaim")? else {
        return Ok(None);
    };
    Ok(Some(ReclaimReport {
        dry_run: run.state == RunState::DryRun,
        applied: run.state == RunState::Applied,
        agents: run.plan.agents,
        summary: run.summary,
    }))
}

/// The human lines of a report: one row per database given pages back. None had free pages
/// (or there is no agent): a real run says so only at -v (quiet for cron, as prune), a dry run
/// says it in words, since a dry run that printed nothing would read as a failure.
pub fn print_report(ctx: &Ctx, report: &ReclaimReport) -> anyhow::Result<()> {
    let due: Vec<&AgentReclaim> = report.agents.iter().filter(|a| a.work()).collect();
    if due.is_empty() {
        let message = match report.agents.len() {
            0 => "nothing to reclaim: no agent database in this state dir".to_string(),
            1 => "nothing to reclaim: no free pages or WAL to truncate in 1 agent database"
                .to_string(),
            n => format!(
                "nothing to reclaim: no free pages or WAL to truncate in {n} agent databases"
            ),
        };
        if report.dry_run {
            ctx.printer.info(message);
        } else {
            ctx.printer.debug(message);
        }
        return Ok(());
    }
    if report.dry_run {
        return print_dry_run(ctx, &report.summary);
    }
    if !report.applied {
        return Ok(());
    }
    let mut t = ctx.printer.table(&[
        "AGENT",
        "METHOD",
        "FREE PAGES",
        "WAL",
        "BEFORE",
        "AFTER",
        "GIVEN BACK",
    ]);
    for a in due {
        t.add_row(vec![
            a.agent_id.clone(),
            if a.free_pages == 0 {
                "checkpoint".to_string()
            } else {
                serde_json::to_value(a.method)?
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            },
            format!("{} ({})", a.free_pages, format_bytes(a.free_bytes)),
            format_bytes(a.wal_bytes),
            format_bytes(a.bytes_before),
            a.bytes_after.map(format_bytes).unwrap_or_default(),
            a.reclaimed_bytes.map(format_bytes).unwrap_or_default(),
        ]);
    }
    ctx.printer.print_table(&t)?;
    Ok(())
}

pub fn run(ctx: &Ctx, args: &ReclaimArgs) -> anyhow::Result<Outcome> {
    let Some(report) = reclaim(ctx, &args.mutation)? else {
        return Ok(Outcome::Done);
    };
    if ctx.printer.json {
        ctx.printer.json_data(&report)?;
    } else {
        print_report(ctx, &report)?;
    }
    Ok(Outcome::Done)
}
