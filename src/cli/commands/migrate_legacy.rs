//! `migrate legacy`: import legacy `sessions.json` stores into SQLite under custody.

use clap::Args;
use serde::Serialize;
use serde_json::json;

use crate::cli::exit::ErrorCode;
use openclaw_sessions::migrate::import::{self as legacy, MoveList};
use openclaw_sessions::ops::migrate_legacy::{schema_of_release, MigrateLegacyOp};

use crate::cli::exit::Outcome;
use crate::cli::mutation::{print_dry_run, run_op, selection, MutationArgs};
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct LegacyArgs {
    #[command(flatten)]
    mutation: MutationArgs,
    /// Create the databases at the schema of this OpenClaw release, as its own import does
    /// (2026.8.2 and 2026.9.1 to 2026.9.4: agent schema 19, 2026.9.5: 21, 2026.9.6: 23). By
    /// default, the release that owns the state dir (its existing databases tell which).
    #[arg(long, value_name = "VERSION")]
    schema_of_release: Option<String>,
}

#[derive(Serialize)]
struct PlanDocument<'a> {
    plan: &'a [legacy::AgentImportPlan],
    applied: bool,
}

#[derive(Serialize)]
struct AppliedDocument<'a> {
    agents: &'a [legacy::AgentImportReport<'a>],
    manifest: &'a std::path::Path,
    applied: bool,
}

pub fn run(ctx: &Ctx, args: &LegacyArgs) -> anyhow::Result<Outcome> {
    let mut op = MigrateLegacyOp::new(selection(ctx)?);
    if let Some(version) = &args.schema_of_release {
        op.schema_of_release = Some(schema_of_release(version)?);
    }
    // The transcripts are read too, so the dry run names every line the import would stop at.
    op.scan_transcripts = args.mutation.dry_run;
    let label = if args.mutation.dry_run {
        "check"
    } else {
        "migrate"
    };
    let Some(run) = run_op(ctx, &mut op, &args.mutation, label)? else {
        return Ok(Outcome::Done);
    };
    let targets = &run.plan.targets;
    if targets.is_empty() {
        if ctx.printer.json {
            ctx.printer
                .json_data(&json!({"agents": [], "applied": false}))?;
        } else {
            // Nothing due, nothing printed (README.md, Pruning from cron), but on a dry run.
            let message = "no legacy sessions.json to import";
            if args.mutation.dry_run {
                ctx.printer.info(message);
            } else {
                ctx.printer.debug(message);
            }
        }
        return Ok(Outcome::Done);
    }
    let Some(applied) = &run.report else {
        if ctx.printer.json {
            // Written from the plans as they are: a `json!` value would copy every record.
            ctx.printer.json_data(&PlanDocument {
                plan: targets,
                applied: false,
            })?;
        } else {
            print_dry_run(ctx, &run.summary)?;
        }
        return Ok(Outcome::Done);
    };
    for s in &run.snapshots {
        ctx.printer
            .info(format!("snapshot before importing: {}", s.path.display()));
    }
    // The move lists are read from the plans again.
    let reports: Vec<legacy::AgentImportReport<'_>> = applied
        .agents
        .iter()
        .zip(targets)
        .map(|((r, moved), t)| {
            let mut r: legacy::AgentImportReport<'_> = r.clone();
            if *moved {
                r.moved = MoveList(Some(&t.ledger));
            }
            r
        })
        .collect();
    let manifest = &applied.manifest;
    let mut blocked = false;
    for r in &reports {
        for i in &r.issues {
            ctx.printer
                .warn(format!("{}: {}: {}", r.agent_id, i.code, i.message));
        }
        blocked |= r.validation != "passed" || r.moved.is_empty()?;
    }
    if blocked {
        ctx.printer.fail(
            ErrorCode::Partial,
            "some agents were imported but their sources were not moved",
            None,
        );
    }
    if ctx.printer.json {
        ctx.printer.json_data(&AppliedDocument {
            agents: &reports,
            manifest,
            applied: true,
        })?;
    } else {
        for r in &reports {
            // The schema is named where it is not this tool's own (an older owner's).
            let schema = if r.schema_of_release == legacy::current_release() {
                String::new()
            } else {
                format!(" at schema {} (OpenClaw {})", r.schema, r.schema_of_release)
            };
            ctx.printer.out(&format!(
                "{}: imported {} session(s), {} event(s){}{schema}; moved {} file(s) into {}\n",
                r.agent_id,
                r.imported,
                r.imported_transcript_events,
                if r.skipped > 0 {
                    format!(", {} already there", r.skipped)
                } else {
                    String::new()
                },
                r.moved.len()?,
                r.moved
                    .archive_dir()?
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|| "nothing (validation failed)".into())
            ))?;
        }
        ctx.printer
            .out(&format!("manifest: {}\n", manifest.display()))?;
    }
    if blocked {
        ctx.printer.warn(
            "some agents were imported but their sources were not moved (see the issues above)",
        );
        return Ok(Outcome::Done);
    }
    Ok(Outcome::Done)
}
