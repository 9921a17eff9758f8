//! `undelete ARCHIVE|SESSION_ID [--as KEY]`: bring a deleted session back from its archive
//! (`openclaw_sessions::ops::undelete`).

use std::path::PathBuf;

use clap::Args;

use openclaw_sessions::ops::undelete::UndeleteOp;
use openclaw_sessions::ops::RunState;

use crate::cli::exit::Outcome;
use crate::cli::mutation::{print_dry_run, run_op, selection, MutationArgs};
use crate::cli::shown::value;
use crate::cli::Ctx;

/// How `undelete` runs, for `--help`.
const UNDELETE_RUNS: &str = "\
Runs under offline custody of the state dir (exit 75 while a Gateway owns it). -n/--dry-run \
prints the plan and changes nothing; on a terminal the plan is shown and confirmed (default \
no). The question reads a whole line: y or yes applies; n, no or an empty line changes \
nothing; anything else asks again; the end of input is no. Without a terminal (stdin and \
stderr), or with --json, -y/--yes is needed (exit 2, CONFIRMATION_REQUIRED). Refused (exit 5) when the key belongs to a live \
session (--as KEY names a free one) or the transcript is live; refused (exit 6) when the \
archive does not verify. One transaction: the session comes back whole or not at all; the \
archive is kept. Snapshot: only with --backup-dir DIR.";

#[derive(Debug, Args)]
#[command(after_help = UNDELETE_RUNS)]
pub struct UndeleteArgs {
    /// An archive's name as `archives list` shows it, a path to an archive file, or a
    /// session id or key, whole or bare (its newest archive).
    #[arg(value_name = "ARCHIVE|SESSION_ID|KEY")]
    archive: String,
    /// Bring it back under this key (with or without `agent:<id>:`) instead of the one it had.
    #[arg(long = "as", value_name = "KEY")]
    as_key: Option<String>,
    /// Also look for the session's entry in the snapshots of this repository (repeatable;
    /// the default repositories, the admin's and the safety snapshots', are always searched).
    #[arg(long, value_name = "DIR")]
    snapshots: Vec<PathBuf>,
    #[command(flatten)]
    mutation: MutationArgs,
}

pub fn run(ctx: &Ctx, args: &UndeleteArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    let mut repositories = args.snapshots.clone();
    repositories.extend(layout.snapshot_repositories());
    if let Some(dir) = &args.mutation.backup_dir {
        repositories.push(dir.clone());
    }
    let now = openclaw_sessions::test_hooks::now_ms();
    let mut op = UndeleteOp::new(
        selection(ctx)?,
        args.archive.clone(),
        args.as_key.clone(),
        repositories,
        now,
    );
    let Some(run) = run_op(ctx, &mut op, &args.mutation, "undelete")? else {
        return Ok(Outcome::Done);
    };
    let p = &run.plan.plan;
    if ctx.printer.json {
        ctx.printer.json_data(&serde_json::json!({
            "applied": run.state == RunState::Applied,
            "dryRun": run.state == RunState::DryRun,
            "agentId": p.agent_id,
            "sessionKey": p.session_key,
            "sessionId": p.session_id,
            "archive": p.archive,
            "events": p.events,
            "entrySource": p.entry_source,
            "entryUpdatedAt": p.entry_updated_at.map(openclaw_sessions::units::iso_from_ms),
            "compressedEvents": run.report.as_ref().map(|r| r.compressed),
            "snapshot": run.snapshot_of(&run.plan.agent.db),
        }))?;
        return Ok(Outcome::Done);
    }
    if run.state == RunState::DryRun {
        print_dry_run(ctx, &run.summary)?;
        return Ok(Outcome::Done);
    }
    ctx.printer.out(&format!(
        "undeleted {} ({}): {} events from {}; {}\n",
        value(&p.session_key),
        value(&p.session_id),
        p.events,
        value(&p.archive.to_string()),
        p.entry_source.describe(p.entry_updated_at, now)
    ))?;
    Ok(Outcome::Done)
}
