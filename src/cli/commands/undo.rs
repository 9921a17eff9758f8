//! `undo [ID]`: take one logged operation back (`openclaw_sessions::ops::undo`,
//! docs/OPLOG.md).

use clap::Args;

use openclaw_sessions::ops::undo::{Step, UndoOp, Undone};
use openclaw_sessions::ops::RunState;

use super::lifecycle::{finish_results, KeyResult};
use crate::cli::exit::{ErrorCode, Outcome};
use crate::cli::mutation::{run_online_op, MutationArgs};
use crate::cli::online::OnlineArgs;
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct UndoArgs {
    /// The operation to take back: its id as `log` shows it, or a unique start of it. Without
    /// it, the newest operation that is neither undone nor an undo itself (so `undo` again
    /// walks further back).
    #[arg(value_name = "ID")]
    id: Option<String>,
    /// Also take back the changes of sessions changed since the operation (another
    /// `updatedAt` than it left); without it they are named and left alone.
    #[arg(long)]
    force: bool,
    #[command(flatten)]
    mutation: MutationArgs,
    #[command(flatten)]
    online: OnlineArgs,
}

pub fn run(ctx: &Ctx, args: &UndoArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    layout.require_exists()?;
    let mut repositories = layout.snapshot_repositories();
    if let Some(dir) = &args.mutation.backup_dir {
        repositories.push(dir.clone());
    }
    let now = openclaw_sessions::test_hooks::now_ms();
    let mut op = UndoOp::new(&layout, args.id.as_deref(), args.force, repositories, now)?;
    let undoes = op.record.id().to_string();
    let Some(run) = run_online_op(ctx, &mut op, &args.mutation, &args.online, "undo")? else {
        return Ok(Outcome::Done);
    };
    let dry_run = run.state == RunState::DryRun;
    let mut results = Vec::new();
    for (i, step) in run.plan.steps.iter().enumerate() {
        let applied = run.report.as_ref().and_then(|r| r.results.get(i));
        let mut r = match step {
            Step::Entry {
                agent,
                undoes,
                plan,
            } => KeyResult {
                agent_id: Some(agent.id.to_string()),
                session_key: plan.key.clone(),
                result: match (undoes.as_str(), dry_run) {
                    (_, true) => "would-undo",
                    ("archive", false) => "unarchived",
                    ("unarchive", false) => "archived",
                    _ => "restored",
                },
                reason: None,
                archive: None,
                snapshot: run.snapshot_of(&agent.db).map(|p| p.to_path_buf()),
                code: None,
            },
            Step::Undelete(p) => KeyResult {
                agent_id: Some(p.plan.agent_id.clone()),
                session_key: p.plan.session_key.clone(),
                result: if dry_run { "would-undo" } else { "undeleted" },
                reason: None,
                archive: Some(serde_json::json!([{ "archiveName": p.plan.archive }])),
                snapshot: run.snapshot_of(&p.agent.db).map(|p| p.to_path_buf()),
                code: None,
            },
            Step::LeftAlone {
                agent_id,
                session_key,
                result,
                why,
            } => KeyResult {
                agent_id: Some(agent_id.clone()),
                session_key: session_key.clone(),
                result,
                reason: Some(why.clone()),
                archive: None,
                snapshot: None,
                code: Some(match *result {
                    "missing" => ErrorCode::NOT_FOUND,
                    _ => ErrorCode::CONFLICT,
                }),
            },
        };
        if let Some(Undone::Refused(e)) = applied {
            r.result = "changed";
            r.code = Some(ErrorCode::of(e));
            r.reason = Some(e.to_string());
        }
        results.push(r);
    }
    if !ctx.printer.json && !dry_run && run.state == RunState::Applied {
        ctx.printer.info(format!("undid operation {undoes}"));
    }
    finish_results(
        ctx,
        &run,
        results,
        &[
            "unarchived",
            "archived",
            "restored",
            "undeleted",
            "would-undo",
            "unchanged",
        ],
    )
}
