use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use openclaw_sessions::doctor::{
    apply_fixes, run_checks, DoctorOptions, Finding, Severity, CHECKS,
};
use openclaw_sessions::units::now_ms;
use openclaw_sessions::Error;

use super::custody::take;
use super::exit::Outcome;
use super::mutation::confirm;
use super::progress::Bar;
use super::Ctx;

#[derive(Debug, Args)]
pub struct DoctorArgs {
    /// Run only these checks (see --list-checks).
    #[arg(value_name = "CHECK")]
    checks: Vec<String>,
    /// Apply the safe repairs (custody; a verified snapshot first).
    #[arg(long)]
    fix: bool,
    /// Full integrity_check instead of quick_check.
    #[arg(long)]
    full: bool,
    /// List the checks and exit.
    #[arg(long)]
    list_checks: bool,
    /// Warnings also make the exit code 3.
    #[arg(long)]
    strict: bool,
    /// Where --fix writes its snapshots (default: <state>/openclaw-sessions-snapshots).
    #[arg(long, value_name = "DIR")]
    backup_dir: Option<PathBuf>,
    /// Wait up to SECONDS for a live owner of the state dir to finish (--fix).
    #[arg(long, value_name = "SECONDS")]
    wait: Option<u64>,
}

fn print_findings(ctx: &Ctx, findings: &[Finding]) -> anyhow::Result<()> {
    if findings.is_empty() {
        ctx.printer.out("no problems found\n")?;
        return Ok(());
    }
    let mut t = ctx
        .printer
        .table(&["SEVERITY", "CHECK", "AGENT", "FINDING", "FIX"]);
    for f in findings {
        t.add_row(vec![
            serde_json::to_value(f.severity)?
                .as_str()
                .unwrap_or_default()
                .to_string(),
            f.check.to_string(),
            f.agent_id.clone().unwrap_or_default(),
            format!("{}\n  → {}", f.message, super::hints::finding_hint(f)),
            if f.fixable {
                "--fix".into()
            } else {
                String::new()
            },
        ]);
    }
    ctx.printer.print_table(&t)
}

pub fn run(ctx: &Ctx, args: &DoctorArgs) -> anyhow::Result<Outcome> {
    if args.list_checks {
        if ctx.printer.json {
            ctx.printer.json_data(&json!({ "checks": CHECKS }))?;
        } else {
            let mut t = ctx.printer.table(&["CHECK", "SEVERITY", "WHAT"]);
            for c in CHECKS {
                t.add_row(vec![
                    c.id.to_string(),
                    serde_json::to_value(c.severity)?
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                    c.description.to_string(),
                ]);
            }
            ctx.printer.print_table(&t)?;
        }
        return Ok(Outcome::Done);
    }
    for c in &args.checks {
        if !CHECKS.iter().any(|k| k.id == c) {
            return Err(Error::usage(format!(
                "unknown check {c:?}; `openclaw-sessions doctor --list-checks` lists them"
            ))
            .into());
        }
    }
    let layout = ctx.layout()?;
    let opts = DoctorOptions {
        full: args.full,
        only: args.checks.clone(),
    };
    let mut findings = run_checks(&layout, &opts)?;
    let mut fixed = Vec::new();
    let mut failed = Vec::new();
    let mut snapshots = Vec::new();
    if args.fix && findings.iter().any(|f| f.fixable) {
        let n = findings.iter().filter(|f| f.fixable).count();
        confirm(
            ctx,
            &format!("Apply {n} safe repair(s) (a verified snapshot is written first)?"),
        )?;
        let custody = take(ctx, &layout, args.wait)?;
        fixed.extend(
            custody
                .report
                .reclaimed
                .iter()
                .map(|r| format!("reclaimed stale lock {r}")),
        );
        // Under custody the store cannot change: look again, then repair what is still there.
        let current = run_checks(&layout, &opts)?;
        let dir = args
            .backup_dir
            .clone()
            .unwrap_or_else(|| layout.state_dir.join("openclaw-sessions-snapshots"));
        let bar = Bar::new(ctx, "doctor");
        let report = apply_fixes(&layout, &current, &dir, &bar, now_ms())?;
        fixed.extend(report.fixed);
        failed.extend(report.failed);
        snapshots = report.snapshots;
        findings = run_checks(&layout, &opts)?;
        custody.release()?;
    }
    let errors = findings
        .iter()
        .filter(|f| f.severity == Severity::Error)
        .count();
    let warnings = findings
        .iter()
        .filter(|f| f.severity == Severity::Warning)
        .count();
    if ctx.printer.json {
        ctx.printer.json_data(&json!({ "findings": super::hints::findings(&findings), "fixed": fixed, "failed": failed, "snapshots": snapshots }))?;
    } else {
        for s in &snapshots {
            ctx.printer
                .info(format!("snapshot before repairs: {}", s.display()));
        }
        for f in &fixed {
            ctx.printer.out(&format!("fixed: {f}\n"))?;
        }
        for f in &failed {
            ctx.printer.out(&format!("not fixed: {f}\n"))?;
        }
        if args.fix && !findings.is_empty() {
            ctx.printer.out("left for a human:\n")?;
        }
        print_findings(ctx, &findings)?;
    }
    let problems = errors > 0 || (args.strict && warnings > 0) || !failed.is_empty();
    Ok(if problems {
        Outcome::Exit(openclaw_sessions::ErrorCode::Findings.exit_code())
    } else {
        Outcome::Done
    })
}
