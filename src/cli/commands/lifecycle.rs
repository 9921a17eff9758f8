//! `archive` and `unarchive`: set or clear `archivedAt`/`archivedBy`/`archiveReason` as
//! `openclaw sessions archive` does, offline.

use clap::Args;
use serde::Serialize;

use crate::cli::exit::ErrorCode;
use openclaw_sessions::ops::entry_change::{result_of, Applied, EntryChange, EntryChangeOp};
use openclaw_sessions::ops::{Run, RunState};
use openclaw_sessions::units::now_ms;

use crate::cli::exit::Outcome;
use crate::cli::mutation::{print_dry_run, run_owned_op, selection, MutationArgs};
use crate::cli::online::{OnlineArgs, OwnerArgs};
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct LifecycleArgs {
    /// Session keys (or select them: --keys-from, the filters of `list`).
    #[arg(value_name = "KEY")]
    keys: Vec<String>,
    #[command(flatten)]
    select: crate::cli::mutation::Selectors,
    #[command(flatten)]
    mutation: MutationArgs,
    #[command(flatten)]
    online: OnlineArgs,
    #[command(flatten)]
    owner: OwnerArgs,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct KeyResult {
    pub agent_id: Option<String>,
    pub session_key: String,
    pub result: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive: Option<serde_json::Value>,
    /// The safety snapshot written before this store's first deletion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snapshot: Option<std::path::PathBuf>,
    #[serde(skip)]
    pub code: Option<ErrorCode>,
}

/// Report per-key results (a dry run's as its plan, for people) and exit: all done 0; one
/// key refused → that guard's code; several → 3.
pub fn finish_results<P, R>(
    ctx: &Ctx,
    run: &Run<P, R>,
    results: Vec<KeyResult>,
    done: &[&str],
) -> anyhow::Result<Outcome> {
    let failed: Vec<&KeyResult> = results
        .iter()
        .filter(|r| !done.contains(&r.result))
        .collect();
    // All done 0; one key refused: that guard's code; several keys: 3 (README.md, Exit codes).
    match (results.len(), failed.as_slice()) {
        (_, []) => {}
        (1, [first]) => ctx.printer.fail(
            first.code.unwrap_or(ErrorCode::INTERNAL),
            format!(
                "{}: {}",
                first.session_key,
                first.reason.as_deref().unwrap_or(first.result)
            ),
            None,
        ),
        (n, failed) => ctx.printer.fail(
            ErrorCode::Partial,
            format!(
                "{} of {n} keys not done (first: {}: {})",
                failed.len(),
                failed[0].session_key,
                failed[0].reason.as_deref().unwrap_or(failed[0].result)
            ),
            None,
        ),
    }
    if ctx.printer.json {
        let mut data = crate::cli::mutation::via(run);
        data["results"] = serde_json::to_value(&results)?;
        ctx.printer.json_data(&data)?;
    } else if run.state == RunState::DryRun {
        print_dry_run(ctx, &run.summary)?;
    } else {
        let mut t = ctx.printer.table(&["AGENT", "KEY", "RESULT", "DETAIL"]);
        for r in &results {
            let detail = match (&r.reason, &r.archive) {
                (Some(reason), _) => reason.clone(),
                (None, Some(a)) => a
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x["archiveName"].as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default(),
                _ => String::new(),
            };
            t.add_row(vec![
                r.agent_id.clone().unwrap_or_default(),
                r.session_key.clone(),
                r.result.to_string(),
                detail,
            ]);
        }
        ctx.printer.print_table(&t)?;
    }
    Ok(Outcome::Done)
}

pub fn run(ctx: &Ctx, args: &LifecycleArgs, archive: bool) -> anyhow::Result<Outcome> {
    let change = if archive {
        EntryChange::Archive
    } else {
        EntryChange::Unarchive
    };
    let keys = args.select.keys(ctx, &args.keys)?;
    if keys.is_empty() {
        ctx.printer.info("no sessions match: nothing to change");
        return Ok(Outcome::Done);
    }
    let mut op =
        EntryChangeOp::new(change, selection(ctx)?, keys, now_ms()).selected(args.select.used());
    let label = if archive { "archive" } else { "unarchive" };
    let Some(run) = run_owned_op(
        ctx,
        &mut op,
        &args.mutation,
        &args.online,
        &args.owner,
        label,
    )?
    else {
        return Ok(Outcome::Done);
    };
    let applied = run.report.as_ref().map(|r| &r.results);
    let mut results = Vec::with_capacity(run.plan.items.len());
    for (n, item) in run.plan.items.iter().enumerate() {
        let key = item.target.key_or_words().to_string();
        let agent = Some(item.target.agent.id.to_string());
        let (result, reason, code) = match (&item.outcome, applied.as_ref().map(|a| &a[n])) {
            (Err(e), _) | (_, Some(Applied::Refused(e))) => {
                (result_of(e), Some(e.to_string()), Some(ErrorCode::of(e)))
            }
            // OpenClaw's words for an archive or unarchive that has nothing to do.
            (Ok(p), _) if p.changes.is_empty() && archive => ("already_archived", None, None),
            (Ok(p), _) if p.changes.is_empty() => ("already_active", None, None),
            (Ok(_), Some(Applied::Written(_))) if archive => ("archived", None, None),
            (Ok(_), Some(Applied::Written(_))) => ("unarchived", None, None),
            (Ok(_), _) if archive => ("would-archive", None, None),
            (Ok(_), _) => ("would-unarchive", None, None),
        };
        results.push(KeyResult {
            agent_id: agent,
            session_key: key,
            result,
            reason,
            archive: None,
            snapshot: run
                .snapshot_of(&item.target.agent.db)
                .filter(|_| result == "archived" || result == "unarchived")
                .map(|p| p.to_path_buf()),
            code,
        });
    }
    let done: &[&str] = &[
        "archived",
        "unarchived",
        "already_archived",
        "already_active",
        "would-archive",
        "would-unarchive",
    ];
    finish_results(ctx, &run, results, done)
}
