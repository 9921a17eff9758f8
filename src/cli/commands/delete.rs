use clap::Args;

use crate::cli::exit::ErrorCode;
use openclaw_sessions::mutate::{DeleteOptions, DeletePlan, DeleteResult};
use openclaw_sessions::ops::delete::{DeleteOp, Deleted};
use openclaw_sessions::ops::RunState;

use super::lifecycle::{finish_results, KeyResult};
use super::patch::expect_session_id;
use crate::cli::exit::Outcome;
use crate::cli::mutation::{run_owned_op, selection, MutationArgs};
use crate::cli::online::{OnlineArgs, OwnerArgs};
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct DeleteArgs {
    /// Session keys (or select them: --keys-from, the filters of `list`).
    #[arg(value_name = "KEY")]
    keys: Vec<String>,
    #[command(flatten)]
    select: crate::cli::mutation::Selectors,
    /// Keep the transcripts (the node becomes a tombstone) instead of archiving them.
    #[arg(long)]
    no_archive: bool,
    /// Refuse keys whose session id is not ID (`null`: expect none).
    #[arg(long, value_name = "ID|null")]
    expect_session_id: Option<String>,
    /// Refuse keys whose updatedAt is not MS.
    #[arg(long, value_name = "MS")]
    expect_updated_at: Option<i64>,
    #[command(flatten)]
    mutation: MutationArgs,
    #[command(flatten)]
    online: OnlineArgs,
    #[command(flatten)]
    owner: OwnerArgs,
}

fn code_of(plan: &DeletePlan) -> Option<ErrorCode> {
    match plan.result {
        DeleteResult::Deleted => None,
        DeleteResult::Missing => Some(ErrorCode::NOT_FOUND),
        DeleteResult::Conflict => Some(ErrorCode::CONFLICT),
        DeleteResult::Refused => Some(ErrorCode::LOCKED_SESSION),
    }
}

pub fn run(ctx: &Ctx, args: &DeleteArgs) -> anyhow::Result<Outcome> {
    let options = DeleteOptions {
        archive: !args.no_archive,
        expect_updated_at: args.expect_updated_at,
        expect_session_id: expect_session_id(&args.expect_session_id),
    };
    let keys = args.select.keys(ctx, &args.keys)?;
    if keys.is_empty() {
        ctx.printer.info("no sessions match: nothing to delete");
        return Ok(Outcome::Done);
    }
    let mut op = DeleteOp::new(selection(ctx)?, keys, options);
    let Some(run) = run_owned_op(
        ctx,
        &mut op,
        &args.mutation,
        &args.online,
        &args.owner,
        "delete",
    )?
    else {
        return Ok(Outcome::Done);
    };
    let dry_run = run.state == RunState::DryRun;
    let mut results: Vec<KeyResult> = Vec::new();
    for (i, a) in run.plan.agents.iter().enumerate() {
        let applied = run.report.as_ref().map(|r| &r.agents[i]);
        for (n, plan) in a.plans.iter().enumerate() {
            let mut r = KeyResult {
                agent_id: Some(a.paths.id.to_string()),
                session_key: plan.session_key.clone(),
                result: match plan.result {
                    DeleteResult::Deleted if dry_run => "would-delete",
                    DeleteResult::Deleted => "deleted",
                    DeleteResult::Missing => "missing",
                    DeleteResult::Conflict => "conflict",
                    DeleteResult::Refused => "refused",
                },
                reason: plan.reason.clone(),
                archive: None,
                snapshot: None,
                code: code_of(plan),
            };
            match applied.map(|a| &a[n]) {
                None => r.archive = Some(serde_json::to_value(&plan.generations)?),
                Some(Deleted::Done {
                    archived,
                    state_rows,
                }) => {
                    ctx.printer.debug(format!(
                        "{}: {state_rows} state database row(s) removed",
                        plan.session_key
                    ));
                    for a in archived.iter().filter(|a| !a.published) {
                        ctx.printer.warn(format!(
                            "archive {} is recorded but its file is not published yet; `openclaw-sessions doctor --fix` retries",
                            a.archive_name
                        ));
                    }
                    r.snapshot = run.snapshot_of(&a.paths.db).map(|p| p.to_path_buf());
                    r.archive = Some(serde_json::to_value(archived)?);
                }
                Some(Deleted::ByGateway { archived }) => {
                    r.snapshot = run.snapshot_of(&a.paths.db).map(|p| p.to_path_buf());
                    let files: Vec<serde_json::Value> = archived
                        .iter()
                        .map(|p| {
                            serde_json::json!({
                                "archiveName": p.file_name().map(|n| n.to_string_lossy()),
                                "path": p,
                            })
                        })
                        .collect();
                    r.archive = Some(serde_json::Value::Array(files));
                }
                Some(Deleted::Refused(e)) => {
                    r.result = "conflict";
                    r.code = Some(ErrorCode::of(e));
                    r.reason = Some(e.to_string());
                }
                Some(Deleted::Skipped) => {}
            }
            results.push(r);
        }
    }
    finish_results(ctx, &run, results, &["deleted", "would-delete"])
}
