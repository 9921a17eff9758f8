use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::json;

use openclaw_sessions::ops::migrate_acpx::{describe, MigrateAcpxOp};
use openclaw_sessions::ops::migrate_schema::MigrateSchemaOp;
use openclaw_sessions::units::now_ms;

use crate::cli::exit::Outcome;
use crate::cli::mutation::{print_dry_run, run_op, MutationArgs};
use crate::cli::Ctx;

#[derive(Debug, Subcommand)]
pub enum MigrateCommand {
    /// Import a legacy sessions.json and its JSONL transcripts into the agent database, as
    /// `openclaw doctor --session-sqlite import` does, then archive the sources.
    #[command(after_help = crate::cli::mutation::MIGRATE_LEGACY.help())]
    Legacy(LegacyArgs),
    /// Move the ACPX plugin's state from <workspace>/state to <state>/acpx.
    #[command(after_help = crate::cli::mutation::MIGRATE_ACPX.help())]
    Acpx(AcpxArgs),
    /// Upgrade an older OpenClaw release's databases (agent schema 19 or 21, state 15 to 17) to
    /// the schema of OpenClaw 2026.9.6, as its `openclaw doctor --fix` does. One-way: releases
    /// before 2026.9.6 can no longer open the store afterwards.
    #[command(after_help = crate::cli::mutation::MIGRATE_SCHEMA.help())]
    Schema(SchemaArgs),
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    #[command(flatten)]
    mutation: MutationArgs,
}

impl MigrateCommand {
    pub fn name(&self) -> &'static str {
        match self {
            MigrateCommand::Legacy(_) => "migrate legacy",
            MigrateCommand::Acpx(_) => "migrate acpx",
            MigrateCommand::Schema(_) => "migrate schema",
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
        MigrateCommand::Schema(args) => run_schema(ctx, args),
    }
}

fn run_schema(ctx: &Ctx, args: &SchemaArgs) -> anyhow::Result<Outcome> {
    let mut op = MigrateSchemaOp::new(crate::cli::mutation::selection(ctx)?);
    let Some(run) = run_op(ctx, &mut op, &args.mutation, "migrate")? else {
        return Ok(Outcome::Done);
    };
    let plan = &run.plan;
    for a in &plan.left_behind {
        ctx.printer.warn(format!(
            "agent {a} keeps an older schema (not selected): OpenClaw {} refuses it until it is upgraded too (add --all-agents)",
            plan.release
        ));
    }
    let Some(report) = &run.report else {
        if ctx.printer.json {
            ctx.printer
                .json_data(&json!({"plan": plan, "applied": false}))?;
        } else if args.mutation.dry_run {
            print_dry_run(ctx, &run.summary)?;
        }
        // Nothing due: nothing printed (cron).
        return Ok(Outcome::Done);
    };
    if ctx.printer.json {
        ctx.printer.json_data(&json!({
            "plan": plan,
            "applied": true,
            "upgraded": report.upgraded,
            "snapshots": run.snapshots,
        }))?;
    } else {
        for d in &report.upgraded {
            ctx.printer.out(&format!(
                "upgraded {}: schema {} -> {} ({})\n",
                d.database,
                d.from,
                d.to,
                d.path.display()
            ))?;
        }
        ctx.printer.info(format!(
            "OpenClaw releases before {} can no longer open this store",
            plan.release
        ));
    }
    Ok(Outcome::Done)
}

fn run_acpx(ctx: &Ctx, args: &AcpxArgs) -> anyhow::Result<Outcome> {
    let mut op = MigrateAcpxOp {
        workspace: args.workspace.clone(),
        now: now_ms(),
    };
    let Some(run) = run_op(ctx, &mut op, &args.mutation, "migrate")? else {
        return Ok(Outcome::Done);
    };
    let plan = &run.plan;
    let describe = describe(plan);
    let Some(old) = &run.report else {
        if let Some(why) = plan
            .nothing_to_do
            .as_ref()
            .filter(|_| !args.mutation.dry_run)
        {
            if ctx.printer.json {
                ctx.printer
                    .json_data(&json!({"plan": plan, "applied": false}))?;
            } else {
                // Nothing due, nothing printed (README.md, Pruning from cron): said at -v.
                ctx.printer.debug(format!("nothing to do: {why}"));
            }
            return Ok(Outcome::Done);
        }
        if ctx.printer.json {
            ctx.printer
                .json_data(&json!({"plan": plan, "applied": false}))?;
        } else {
            print_dry_run(ctx, &run.summary)?;
        }
        return Ok(Outcome::Done);
    };
    ctx.printer.warn(format!(
        "the old copy {} was left in place; remove it once OpenClaw runs from {}",
        old.display(),
        plan.destination.display()
    ));
    if ctx.printer.json {
        ctx.printer.json_data(
            &json!({"plan": plan, "applied": true, "oldCopy": old, "snapshots": run.snapshots}),
        )?;
    } else {
        ctx.printer.out(&format!("moved: {describe}\n"))?;
    }
    Ok(Outcome::Done)
}
