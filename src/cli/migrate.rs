use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::json;

use openclaw_sessions::migrate::acpx;
use openclaw_sessions::units::{format_bytes, now_ms};

use super::custody::take;
use super::exit::Outcome;
use super::mutation::{confirm, MutationArgs};
use super::Ctx;

#[derive(Debug, Subcommand)]
pub enum MigrateCommand {
    /// Import a legacy sessions.json and its JSONL transcripts into the agent database, as
    /// `openclaw doctor --session-sqlite import` does, then archive the sources.
    Legacy(LegacyArgs),
    /// Move the ACPX plugin's state from <workspace>/state to <state>/acpx.
    Acpx(AcpxArgs),
}

impl MigrateCommand {
    pub fn name(&self) -> &'static str {
        match self {
            MigrateCommand::Legacy(_) => "migrate legacy",
            MigrateCommand::Acpx(_) => "migrate acpx",
        }
    }
}

pub use super::migrate_legacy::LegacyArgs;

#[derive(Debug, Args)]
pub struct AcpxArgs {
    /// The agent workspace holding `state/` (default: from the config, else <state>/workspace).
    #[arg(long, value_name = "DIR")]
    workspace: Option<PathBuf>,
    #[command(flatten)]
    mutation: MutationArgs,
}

pub fn run(ctx: &Ctx, cmd: &MigrateCommand) -> anyhow::Result<Outcome> {
    match cmd {
        MigrateCommand::Legacy(args) => super::migrate_legacy::run(ctx, args),
        MigrateCommand::Acpx(args) => run_acpx(ctx, args),
    }
}

fn run_acpx(ctx: &Ctx, args: &AcpxArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    layout.require_exists()?;
    let plan = acpx::plan(&layout, args.workspace.as_deref())?;
    let describe = format!(
        "{} ACPX state {} ({} records, {} files, {}) to {}",
        if plan.resume {
            "finish the interrupted move of"
        } else {
            "move"
        },
        plan.source.display(),
        plan.records,
        plan.files,
        format_bytes(plan.bytes),
        plan.destination.display()
    );
    if args.mutation.dry_run {
        if ctx.printer.json {
            ctx.printer
                .json_data(&json!({"plan": plan, "applied": false}))?;
        } else {
            ctx.printer.out(&format!("would {describe}\n"))?;
        }
        return Ok(Outcome::Done);
    }
    confirm(
        ctx,
        &format!("{}?", describe[..1].to_uppercase() + &describe[1..]),
    )?;
    let custody = take(ctx, &layout, args.mutation.wait)?;
    // Under custody the picture cannot change any more: plan again, then apply.
    let plan = acpx::plan(&layout, args.workspace.as_deref())?;
    let old = acpx::apply(&layout, &plan, now_ms())?;
    custody.release()?;
    ctx.printer.warn(format!(
        "the old copy {} was left in place; remove it once OpenClaw runs from {}",
        old.display(),
        plan.destination.display()
    ));
    if ctx.printer.json {
        ctx.printer
            .json_data(&json!({"plan": plan, "applied": true, "oldCopy": old}))?;
    } else {
        ctx.printer.out(&format!("moved: {describe}\n"))?;
    }
    Ok(Outcome::Done)
}
