//! `compact [--min-bytes SIZE] [--older-than AGE] [KEY...]`: inline media out of transcript
//! rows into files of the state dir; `compact --restore [KEY...]` puts it back
//! (`openclaw_sessions::ops::compact`, docs/openclaw/MEDIA.md).

use clap::Args;
use serde_json::json;

use openclaw_sessions::mutate::compact::{CompactOptions, RestoreResult, DEFAULT_MIN_BYTES};
use openclaw_sessions::ops::compact::{CompactOp, CompactPlan};
use openclaw_sessions::ops::RunState;
use openclaw_sessions::units::{format_bytes, parse_duration_arg, parse_size};
use openclaw_sessions::Error;

use super::reclaim::{print_report as print_reclaim, reclaim};
use crate::cli::exit::Outcome;
use crate::cli::mutation::{print_dry_run, run_op, selection, MutationArgs};
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct CompactArgs {
    /// Sessions to compact (key, bare key or session id); default: every session of the
    /// selected agents.
    #[arg(value_name = "KEY")]
    keys: Vec<String>,
    /// Take out inline payloads (base64 of images, audio, files) of at least SIZE (64kb, 1mb;
    /// a bare number is bytes).
    #[arg(long, value_name = "SIZE", conflicts_with = "restore")]
    min_bytes: Option<String>,
    /// Only events stored longer ago than AGE (7d, 12h).
    #[arg(long, value_name = "AGE", conflicts_with = "restore")]
    older_than: Option<String>,
    /// Put every payload a compact took out back into its row, byte for byte; the payload
    /// files go once the rows read back as they were.
    #[arg(long)]
    restore: bool,
    /// Then give the databases' free pages back (as `reclaim` does).
    #[arg(long)]
    reclaim: bool,
    #[command(flatten)]
    mutation: MutationArgs,
}

fn options(args: &CompactArgs) -> anyhow::Result<CompactOptions> {
    let min_bytes = match &args.min_bytes {
        Some(s) => {
            let n = parse_size(s)?;
            if n == 0 {
                return Err(Error::invalid("--min-bytes must be more than 0").into());
            }
            n
        }
        None => DEFAULT_MIN_BYTES,
    };
    let before_ms = match &args.older_than {
        Some(d) => {
            let ms = parse_duration_arg(d)?;
            if ms == 0 {
                return Err(Error::invalid("--older-than must be longer than 0").into());
            }
            Some(openclaw_sessions::test_hooks::now_ms() - i64::try_from(ms).unwrap_or(i64::MAX))
        }
        None => None,
    };
    Ok(CompactOptions {
        min_bytes,
        before_ms,
    })
}

pub fn run(ctx: &Ctx, args: &CompactArgs) -> anyhow::Result<Outcome> {
    let mut op = CompactOp::new(
        selection(ctx)?,
        args.keys.clone(),
        options(args)?,
        args.restore,
    );
    let Some(run) = run_op(ctx, &mut op, &args.mutation, "compact")? else {
        return Ok(Outcome::Done);
    };
    let applied = run.state == RunState::Applied;
    let reclaimed = if args.reclaim && applied {
        reclaim(ctx, &args.mutation)?
    } else {
        None
    };
    let kept: usize = match &run.plan {
        CompactPlan::Restore { agents } => agents
            .iter()
            .flat_map(|a| &a.records)
            .filter(|r| matches!(r.result, RestoreResult::Changed | RestoreResult::Gone))
            .count(),
        CompactPlan::Compact { .. } => 0,
    };
    if kept > 0 && applied {
        ctx.printer.fail(
            crate::cli::exit::ErrorCode::Partial,
            format!("{kept} compacted event(s) kept their record: their rows changed or are gone since compact"),
            Some("their payloads stay in the media directory; `compact --restore --json` lists them".to_string()),
        );
    }
    if ctx.printer.json {
        ctx.printer.json_data(&json!({
            "dryRun": run.state == RunState::DryRun,
            "applied": applied,
            "plan": run.plan,
            "snapshots": run.snapshots,
            "reclaim": reclaimed,
        }))?;
    } else if run.state == RunState::DryRun || run.state == RunState::NothingToDo {
        if run.summary.changes == 0 {
            let message = if args.restore {
                "nothing to restore: no compacted event in scope"
            } else {
                "nothing to compact: no inline payload in scope at or above --min-bytes"
            };
            // A real run with nothing due prints nothing (cron); a dry run says so.
            if run.state == RunState::DryRun {
                ctx.printer.info(message);
            } else {
                ctx.printer.debug(message);
            }
        } else {
            print_dry_run(ctx, &run.summary)?;
        }
    } else if applied {
        print_applied(ctx, &run.plan)?;
        if let Some(r) = &reclaimed {
            print_reclaim(ctx, r)?;
        }
    }
    Ok(Outcome::Done)
}

fn print_applied(ctx: &Ctx, plan: &CompactPlan) -> anyhow::Result<()> {
    match plan {
        CompactPlan::Compact { agents } => {
            let mut t = ctx
                .printer
                .table(&["AGENT", "SESSION", "EVENTS", "MEDIA OUT", "CHANGED"]);
            for a in agents {
                for d in &a.done {
                    if d.events == 0 && d.changed == 0 {
                        continue;
                    }
                    let key = a
                        .sessions
                        .iter()
                        .find(|s| s.session_id == d.session_id)
                        .and_then(|s| s.session_key.clone())
                        .unwrap_or_else(|| d.session_id.clone());
                    t.add_row(vec![
                        a.agent_id.clone(),
                        key,
                        d.events.to_string(),
                        format_bytes(d.media_bytes),
                        d.changed.to_string(),
                    ]);
                }
            }
            ctx.printer.print_table(&t)?;
        }
        CompactPlan::Restore { agents } => {
            let mut t =
                ctx.printer
                    .table(&["AGENT", "RESTORED", "MEDIA BACK", "KEPT", "FILES REMOVED"]);
            for a in agents {
                let restored = a
                    .records
                    .iter()
                    .filter(|r| r.result == RestoreResult::Restored);
                let kept = a
                    .records
                    .iter()
                    .filter(|r| matches!(r.result, RestoreResult::Changed | RestoreResult::Gone))
                    .count();
                t.add_row(vec![
                    a.agent_id.clone(),
                    restored.clone().count().to_string(),
                    format_bytes(restored.map(|r| r.media_bytes).sum()),
                    kept.to_string(),
                    a.media_removed.unwrap_or(0).to_string(),
                ]);
            }
            ctx.printer.print_table(&t)?;
        }
    }
    Ok(())
}
