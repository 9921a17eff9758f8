use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use openclaw_sessions::doctor::{
    each_finding, left_after_repairs, run_checks, DoctorOptions, Finding, Severity, CHECKS,
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

/// The findings the human output shows; past them, only how many more there are (`--json`
/// lists every one). A store with a million findings is not one page of text.
const SHOWN: usize = 1000;

fn print_findings(ctx: &Ctx, findings: &[Finding]) -> anyhow::Result<()> {
    if findings.is_empty() {
        ctx.printer.out("no problems found\n")?;
        return Ok(());
    }
    let mut text = String::new();
    for f in findings.iter().take(SHOWN) {
        text.push_str(&finding_block(ctx, f));
    }
    ctx.printer.out(&text)?;
    print_more(ctx, findings.len().saturating_sub(SHOWN))
}

/// The line after the shown findings, when there were more.
fn print_more(ctx: &Ctx, more: usize) -> anyhow::Result<()> {
    if more > 0 {
        ctx.printer.out(&format!(
            "... and {more} more finding(s) not shown (--json lists every one)\n"
        ))?;
    }
    Ok(())
}

/// A block a finding, readable at 80 columns: its severity, check and agent first (never
/// dropped), then the finding and its hint wrapped, never cut (README.md, doctor).
fn finding_block(ctx: &Ctx, f: &Finding) -> String {
    let mut text = String::new();
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
    text
}

/// Errors and warnings of a run's findings.
#[derive(Default)]
struct Counts {
    errors: usize,
    warnings: usize,
}

impl Counts {
    fn add(&mut self, f: &Finding) {
        match f.severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => {}
        }
    }
}

/// Record the failure (exit 3) when the counts are problems.
fn fail_on(ctx: &Ctx, args: &DoctorArgs, counts: &Counts, not_made: usize) {
    let Counts { errors, warnings } = *counts;
    if errors > 0 || (args.strict && warnings > 0) || not_made > 0 {
        let mut words = vec![format!("{errors} error(s)")];
        if args.strict {
            words.push(format!("{warnings} warning(s)"));
        }
        if not_made > 0 {
            words.push(format!("{not_made} repair(s) not made"));
        }
        ctx.printer.fail(
            crate::cli::exit::ErrorCode::Findings,
            format!("doctor found problems: {}", words.join(", ")),
            None,
        );
    }
}

/// `doctor` without `--fix`: each finding is written as it is found and none is kept, so
/// memory does not grow with the findings (issue 55: 4.9 GB for a million). The JSON
/// document says `ok` before its findings, so a first pass only counts them; the human
/// output shows the first [`SHOWN`] and counts the rest.
fn run_streamed(
    ctx: &Ctx,
    args: &DoctorArgs,
    layout: &openclaw_sessions::paths::StateLayout,
    opts: &DoctorOptions,
) -> anyhow::Result<Outcome> {
    let mut counts = Counts::default();
    let mut failed: Option<anyhow::Error> = None;
    if ctx.printer.json {
        each_finding(layout, opts, &mut |f| counts.add(&f))?;
        fail_on(ctx, args, &counts, 0);
        let mut rows = ctx.printer.json_rows_in("findings")?;
        each_finding(layout, opts, &mut |f| {
            if failed.is_none() {
                let shown = Finding {
                    hint: crate::cli::hints::finding_hint(&f),
                    remedy: None,
                    ..f
                };
                if let Err(e) = rows.push(&shown) {
                    failed = Some(e);
                }
            }
        })?;
        if let Some(e) = failed {
            return Err(e);
        }
        rows.finish_with(&[
            ("fixed", json!([])),
            ("failed", json!([])),
            ("snapshots", json!([])),
        ])?;
        return Ok(Outcome::Done);
    }
    let mut found = 0usize;
    each_finding(layout, opts, &mut |f| {
        counts.add(&f);
        found += 1;
        if found <= SHOWN && failed.is_none() {
            if let Err(e) = ctx.printer.out(&finding_block(ctx, &f)) {
                failed = Some(e);
            }
        }
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    if found == 0 {
        ctx.printer.out("no problems found\n")?;
    }
    print_more(ctx, found.saturating_sub(SHOWN))?;
    fail_on(ctx, args, &counts, 0);
    Ok(Outcome::Done)
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
            // The nearest check's name, as clap offers for a mistyped command.
            let nearest = CHECKS
                .iter()
                .map(|k| (strsim::levenshtein(c, k.id), k.id))
                .filter(|(d, id)| *d <= 3.max(id.len() / 3))
                .min();
            return Err(Error::InvalidArgument {
                message: format!("unknown check {c:?}"),
                hint: Some(match nearest {
                    Some((_, id)) => {
                        format!("did you mean {id}? (`doctor --list-checks` lists them)")
                    }
                    None => "`openclaw-sessions doctor --list-checks` lists them".to_string(),
                }),
            }
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
    if !args.fix {
        return run_streamed(ctx, args, &layout, &opts);
    }
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
    let mut counts = Counts::default();
    findings.iter().for_each(|f| counts.add(f));
    fail_on(ctx, args, &counts, failed.len());
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
