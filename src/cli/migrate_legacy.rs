//! `migrate legacy`: import legacy `sessions.json` stores into SQLite under custody.

use clap::Args;
use serde::Serialize;
use serde_json::json;

use openclaw_sessions::migrate::legacy::{self, AgentImportPlan};
use openclaw_sessions::units::{format_bytes, now_ms};
use openclaw_sessions::{Error, ErrorCode};

use super::custody::take;
use super::exit::Outcome;
use super::mutation::{confirm, MutationArgs};
use super::progress::Bar;
use super::Ctx;
use openclaw_sessions::progress::Progress;

#[derive(Debug, Args)]
pub struct LegacyArgs {
    #[command(flatten)]
    mutation: MutationArgs,
}

fn describe(t: &AgentImportPlan) -> Result<String, Error> {
    let counts = t.ledger.counts()?;
    let historical = counts.historical;
    let mut s = format!(
        "{}: {} session(s) from {} ({} transcript(s), {})",
        t.agent_id,
        counts.records - historical,
        t.store_path.display(),
        counts.with_transcript,
        format_bytes(t.transcript_bytes)
    );
    if historical > 0 {
        s.push_str(&format!(
            ", {historical} orphan transcript(s) as archived sessions"
        ));
    }
    let unreferenced = t.ledger.unreferenced_count()?;
    if unreferenced > 0 {
        s.push_str(&format!(", {unreferenced} unreferenced file(s) to archive"));
    }
    if !t.database_exists {
        s.push_str(&format!("; creates {}", t.sqlite_path.display()));
    }
    Ok(s)
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
    let layout = ctx.layout()?;
    layout.require_exists()?;
    if layout.store_override.is_some() {
        return Err(Error::usage(
            "migrate legacy works on agents (--agent/--all-agents), not on --store",
        )
        .into());
    }
    let agents = ctx.agents(&layout)?;
    let targets = legacy::plan(&agents, now_ms())?;
    if targets.is_empty() {
        if ctx.printer.json {
            ctx.printer
                .json_data(&json!({"agents": [], "applied": false}))?;
        } else {
            ctx.printer.info("no legacy sessions.json to import");
        }
        return Ok(Outcome::Done);
    }
    if args.mutation.dry_run {
        // The transcripts are read too, so the dry run names every line the import would stop at.
        let bar = Bar::new(ctx, "check");
        bar.start(
            "reading transcripts",
            Some(targets.iter().map(|t| t.transcript_bytes).sum()),
        );
        let mut targets = targets;
        for t in &mut targets {
            let found = legacy::scan_transcripts(t, &bar)?;
            t.issues.extend(found);
        }
        bar.finish();
        if ctx.printer.json {
            // Written from the plans as they are: a `json!` value would copy every record.
            ctx.printer.json_data(&PlanDocument {
                plan: &targets,
                applied: false,
            })?;
        } else {
            for t in &targets {
                ctx.printer
                    .out(&format!("would import {}\n", describe(t)?))?;
                for i in &t.issues {
                    ctx.printer.out(&format!("  {}: {}\n", i.code, i.message))?;
                }
            }
        }
        return Ok(Outcome::Done);
    }
    let mut total = 0;
    for t in &targets {
        total += t.ledger.counts()?.records;
    }
    confirm(
        ctx,
        &format!(
            "Import {total} session(s) of {} agent(s) into SQLite and move the legacy files into session-sqlite-import-archive/?",
            targets.len()
        ),
    )?;
    // The plan is made again under custody; this one (every session of every agent) goes.
    drop(targets);
    let custody = take(ctx, &layout, args.mutation.wait)?;
    // Under custody: finish moves an interrupted run left, then plan again on what is there.
    for p in legacy::recover_interrupted(&agents)? {
        ctx.printer.info(format!(
            "finished the interrupted archive move of {}",
            p.display()
        ));
    }
    let targets = legacy::plan(&agents, now_ms())?;
    let bar = Bar::new(ctx, "migrate");
    let (reports, manifest) = legacy::apply(&layout, &targets, &now_ms, &bar)?;
    custody.release()?;
    let mut blocked = false;
    for r in &reports {
        for i in &r.issues {
            ctx.printer
                .warn(format!("{}: {}: {}", r.agent_id, i.code, i.message));
        }
        blocked |= r.validation != "passed" || r.moved.is_empty()?;
    }
    if ctx.printer.json {
        ctx.printer.json_data(&AppliedDocument {
            agents: &reports,
            manifest: &manifest,
            applied: true,
        })?;
    } else {
        for r in &reports {
            ctx.printer.out(&format!(
                "{}: imported {} session(s), {} event(s){}; moved {} file(s) into {}\n",
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
        return Ok(Outcome::Exit(ErrorCode::Partial.exit_code()));
    }
    Ok(Outcome::Done)
}
