use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use openclaw_sessions::doctor::{
    left_after_repairs, run_checks, DoctorOptions, Finding, Severity, CHECKS,
};
use openclaw_sessions::ops::doctor_fix::DoctorFixOp;
use openclaw_sessions::ops::RunState;
use openclaw_sessions::units::now_ms;
use openclaw_sessions::Error;

use crate::cli::exit::Outcome;
use crate::cli::mutation::{print_dry_run, run_op, MutationArgs};
use crate::cli::shown::value;
use crate::cli::table::Column;
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Run only these checks (see --list-checks).
    #[arg(value_name = "CHECK")]
    checks: Vec<String>,
    /// Apply the safe repairs (custody; a verified snapshot of each changed database first).
    #[arg(long)]
    fix: bool,
    /// With --fix: show the repairs and change nothing.
    #[arg(short = 'n', long, requires = "fix")]
    dry_run: bool,
    /// Full integrity_check instead of quick_check.
    #[arg(long)]
    full: bool,
    /// List the checks and exit.
    #[arg(long)]
    list_checks: bool,
    /// Warnings also make the exit code 3.
    #[arg(long)]
    strict: bool,
    /// Where --fix writes its snapshots (default: the safety repository outside the state
    /// dir, see `backup --help`).
    #[arg(long, value_name = "DIR")]
    backup_dir: Option<PathBuf>,
    /// Wait up to DURATION (10m, 90s; a bare number is seconds) for a live owner of the state
    /// dir to finish (--fix).
    #[arg(long, value_name = "DURATION", value_parser = crate::cli::durations::parse_wait)]
    wait: Option<u64>,
}

fn print_findings(ctx: &Ctx, findings: &[Finding]) -> anyhow::Result<()> {
    if findings.is_empty() {
        ctx.printer.out("no problems found\n")?;
        return Ok(());
    }
    // A block a finding, readable at 80 columns: its severity, check and agent first (never
    // dropped), then the finding and its hint wrapped, never cut (README.md, doctor).
    let mut text = String::new();
    for f in findings {
        let mut head = format!("{:<7} {}", crate::cli::printer::word(&f.severity), f.check);
        if let Some(agent) = &f.subject.agent_id {
            head.push_str(&format!("  agent {agent}"));
        }
        if f.fixable {
            head.push_str("  (doctor --fix repairs it)");
        }
        text.push_str(&format!("{}\n", value(&head)));
        text.push_str(&ctx.printer.wrap(&value(&f.message), "  ", "  "));
        let hint = crate::cli::hints::finding_hint(f);
        if !hint.is_empty() {
            text.push_str(&ctx.printer.wrap(&value(&hint), "  hint: ", "        "));
        }
    }
    ctx.printer.out(&text)
}

pub fn run(ctx: &Ctx, args: &DoctorArgs) -> anyhow::Result<Outcome> {
    if args.list_checks {
        if ctx.printer.json {
            ctx.printer.json_data(&json!({ "checks": CHECKS }))?;
        } else {
            let mut t = ctx.printer.table(&[
                Column::id("CHECK"),
                Column::data("SEVERITY").drop(1),
                Column::prose("WHAT"),
            ]);
            for c in CHECKS {
                t.add_row(vec![
                    c.id.to_string(),
                    crate::cli::printer::word(&c.severity),
                    c.description.to_string(),
                ]);
            }
            ctx.printer.print_table(&t)?;
        }
        return Ok(Outcome::Done);
    }
    for c in &args.checks {
        if !CHECKS.iter().any(|k| k.id == c) {
            return Err(Error::invalid(format!(
                "unknown check {c:?}; `openclaw-sessions doctor --list-checks` lists them"
            ))
            .into());
        }
    }
    let layout = ctx.layout()?;
    // `--agent` scopes the checks and the repairs; `--all-agents` and no selection: every agent.
    let agents = if ctx.global.agents.is_empty() || ctx.global.all_agents {
        Vec::new()
    } else {
        ctx.agents(&layout)?.into_iter().map(|p| p.id).collect()
    };
    let opts = DoctorOptions {
        full: args.full,
        only: args.checks.clone(),
        agents,
    };
    let mut findings = run_checks(&layout, &opts)?;
    let mut fixed = Vec::new();
    let mut failed = Vec::new();
    let mut snapshots = Vec::new();
    let mut plan_summary = None;
    // The findings the run repairs (or, dry, would repair): the plan.
    let mut repairs = Vec::new();
    // Only when something is fixable does --fix go through the pipeline (and take custody).
    if args.fix && findings.iter().any(|f| f.fixable) {
        let mut op = DoctorFixOp {
            options: opts.clone(),
            now: now_ms(),
        };
        let mutation = MutationArgs::new(args.dry_run, args.wait, args.backup_dir.clone());
        let Some(run) = run_op(ctx, &mut op, &mutation, "doctor")? else {
            return Ok(Outcome::Done);
        };
        if let Some(custody) = &run.custody {
            fixed.extend(
                custody
                    .reclaimed
                    .iter()
                    .map(|r| format!("reclaimed stale lock {r}")),
            );
        }
        snapshots = run.snapshots.iter().map(|s| s.path.clone()).collect();
        repairs = run.plan.fixable().cloned().collect();
        match run.report {
            Some(report) => {
                fixed.extend(report.fix.fixed);
                failed.extend(report.fix.failed);
                findings = report.remaining;
            }
            None => {
                // What the real run would leave: it runs the checks again after the repairs.
                findings = left_after_repairs(&run.plan.findings);
                if run.state == RunState::DryRun {
                    plan_summary = Some(run.summary);
                }
            }
        }
    }
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = findings
        .iter()
        .filter(|f| f.severity == Severity::Warning)
        .count();
    let problems = errors > 0 || (args.strict && warnings > 0) || !failed.is_empty();
    if problems {
        let mut words = vec![format!("{errors} error(s)")];
        if args.strict {
            words.push(format!("{warnings} warning(s)"));
        }
        if !failed.is_empty() {
            words.push(format!("{} repair(s) not made", failed.len()));
        }
        ctx.printer.fail(
            crate::cli::exit::ErrorCode::Findings,
            format!("doctor found problems: {}", words.join(", ")),
            None,
        );
    }
    if ctx.printer.json {
        let mut doc = json!({ "findings": crate::cli::hints::findings(&findings), "fixed": fixed, "failed": failed, "snapshots": snapshots });
        if args.fix {
            doc["repairs"] = serde_json::to_value(crate::cli::hints::findings(&repairs))?;
        }
        if let Some(plan) = &plan_summary {
            doc["plan"] = serde_json::to_value(plan)?;
        }
        ctx.printer.json_data(&doc)?;
    } else {
        if let Some(plan) = &plan_summary {
            print_dry_run(ctx, plan)?;
        }
        for s in &snapshots {
            ctx.printer
                .info(format!("snapshot before repairs: {}", s.display()));
        }
        for f in &fixed {
            ctx.printer
                .out(&format!("fixed: {}\n", value(&f.to_string())))?;
        }
        for f in &failed {
            ctx.printer
                .out(&format!("not fixed: {}\n", value(&f.to_string())))?;
        }
        if args.fix && !findings.is_empty() {
            ctx.printer.out("left for a human:\n")?;
        }
        print_findings(ctx, &findings)?;
    }
    Ok(Outcome::Done)
}
