use std::collections::HashMap;

use clap::Args;

use openclaw_sessions::mutate::{
    apply_delete, delete_state_rows, plan_delete, DeleteOptions, DeletePlan, DeleteResult,
    References, WritableDb,
};
use openclaw_sessions::paths::AgentPaths;
use openclaw_sessions::units::now_ms;
use openclaw_sessions::ErrorCode;

use super::custody::take;
use super::exit::Outcome;
use super::lifecycle::{finish_results, KeyResult};
use super::mutation::{agent_for_key, confirm, MutationArgs};
use super::patch::expect_session_id;
use super::Ctx;

#[derive(Debug, Args)]
pub struct DeleteArgs {
    /// Session keys.
    #[arg(required = true, value_name = "KEY")]
    keys: Vec<String>,
    /// Keep the transcripts (the node becomes a tombstone) instead of archiving them.
    #[arg(long)]
    no_archive: bool,
    /// Refuse keys whose session id is not ID (`null`: expect none).
    #[arg(long, value_name = "ID|null")]
    expect_session_id: Option<String>,
    /// Write one verified snapshot per store into DIR before its first deletion.
    #[arg(long, value_name = "DIR")]
    backup_dir: Option<std::path::PathBuf>,
    /// Refuse keys whose updatedAt is not MS.
    #[arg(long, value_name = "MS")]
    expect_updated_at: Option<i64>,
    #[command(flatten)]
    mutation: MutationArgs,
}

fn code_of(plan: &DeletePlan) -> Option<ErrorCode> {
    match plan.result {
        DeleteResult::Deleted => None,
        DeleteResult::Missing => Some(ErrorCode::NotFound),
        DeleteResult::Conflict => Some(ErrorCode::Conflict),
        DeleteResult::Refused => Some(ErrorCode::LockedSession),
    }
}

fn plan_agent(
    ctx: &Ctx,
    paths: &AgentPaths,
    keys: &[String],
    opts: &DeleteOptions,
) -> anyhow::Result<(Vec<DeletePlan>, References)> {
    let store = ctx.open_store(paths.clone())?;
    let db = store
        .db()
        .ok_or_else(|| openclaw_sessions::Error::UnsupportedSchema {
            message: format!("agent {} has no SQLite store", paths.id),
            hint: Some("import it first with `openclaw-sessions migrate legacy`".into()),
        })?;
    let refs = References::read(db.conn(), db.path())?;
    // Only the entries asked for: reading every session would grow with the store.
    let mut entries = HashMap::with_capacity(keys.len());
    for k in keys {
        if let Some(e) = store.entry_by_exact_key(k)? {
            entries.insert(k.clone(), e);
        }
    }
    let plans = keys
        .iter()
        .map(|k| plan_delete(&store, refs.as_read(), &entries, k, opts))
        .collect::<openclaw_sessions::Result<Vec<_>>>()?;
    Ok((plans, refs))
}

/// The verified snapshot taken before a store's first deletion.
fn safety_snapshot(
    ctx: &Ctx,
    layout: &openclaw_sessions::paths::StateLayout,
    paths: &AgentPaths,
    dir: &std::path::Path,
) -> anyhow::Result<std::path::PathBuf> {
    use openclaw_sessions::backup::{create_snapshot, verify_snapshot, SnapshotTarget};
    let source = super::backup::source_for_agent(layout, &paths.id);
    let bar = super::progress::Bar::new(ctx, "backup");
    let (path, _) = create_snapshot(
        &source,
        &SnapshotTarget::new(dir.to_path_buf()),
        &bar,
        now_ms(),
    )?;
    let report = verify_snapshot(&path);
    if !report.ok {
        return Err(openclaw_sessions::Error::Internal(format!(
            "safety snapshot {} does not verify: {}",
            path.display(),
            report.problems.join("; ")
        ))
        .into());
    }
    ctx.printer.info(format!(
        "snapshot of agent {} before deleting: {}",
        paths.id,
        path.display()
    ));
    Ok(path)
}

pub fn run(ctx: &Ctx, args: &DeleteArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    let opts = DeleteOptions {
        archive: !args.no_archive,
        expect_updated_at: args.expect_updated_at,
        expect_session_id: expect_session_id(&args.expect_session_id),
    };
    // Keys grouped by agent, in the order given.
    let mut groups: Vec<(AgentPaths, Vec<String>)> = Vec::new();
    for key in &args.keys {
        let paths = agent_for_key(ctx, &layout, key)?;
        match groups.iter_mut().find(|(p, _)| p.id == paths.id) {
            Some((_, keys)) => keys.push(key.clone()),
            None => groups.push((paths, vec![key.clone()])),
        }
    }
    let custody = if args.mutation.dry_run {
        None
    } else {
        Some(take(ctx, &layout, args.mutation.wait)?)
    };
    let mut results: Vec<KeyResult> = Vec::new();
    for (paths, keys) in &groups {
        let (plans, mut refs) = plan_agent(ctx, paths, keys, &opts)?;
        let doomed: Vec<&DeletePlan> = plans
            .iter()
            .filter(|p| p.result == DeleteResult::Deleted)
            .collect();
        if !args.mutation.dry_run && !doomed.is_empty() {
            let what = if opts.archive {
                "archiving their transcripts"
            } else {
                "keeping their transcripts"
            };
            confirm(
                ctx,
                &format!(
                    "Delete {} session(s) of agent {} ({what})?",
                    doomed.len(),
                    paths.id
                ),
            )?;
        }
        let mut snapshot = None;
        if let (Some(dir), false, false) =
            (&args.backup_dir, args.mutation.dry_run, doomed.is_empty())
        {
            snapshot = Some(safety_snapshot(ctx, &layout, paths, dir)?);
        }
        let mut db = if args.mutation.dry_run {
            None
        } else {
            let db = WritableDb::open(&layout.state_dir, &paths.db)?;
            // Archives an earlier run committed but could not publish go out first.
            let (published, failed) = openclaw_sessions::mutate::publish::publish_pending(
                &db,
                &paths.sessions_dir,
                now_ms(),
            )?;
            for p in published {
                ctx.printer.info(format!("published pending archive {p}"));
            }
            for f in failed {
                ctx.printer.warn(format!("archive still pending: {f}"));
            }
            Some(db)
        };
        for plan in plans {
            let mut r = KeyResult {
                agent_id: Some(paths.id.to_string()),
                session_key: plan.session_key.clone(),
                result: match plan.result {
                    DeleteResult::Deleted if args.mutation.dry_run => "would-delete",
                    DeleteResult::Deleted => "deleted",
                    DeleteResult::Missing => "missing",
                    DeleteResult::Conflict => "conflict",
                    DeleteResult::Refused => "refused",
                },
                reason: plan.reason.clone(),
                archive: None,
                snapshot: None,
                code: code_of(&plan),
            };
            if args.mutation.dry_run {
                r.archive = Some(serde_json::to_value(&plan.generations)?);
            } else if let (Some(db), DeleteResult::Deleted) = (db.as_mut(), plan.result) {
                match apply_delete(db, &plan, refs.now(), &paths.sessions_dir, now_ms()) {
                    Ok(archived) => {
                        refs.forget(&plan.session_key)?;
                        let state_rows = delete_state_rows(
                            &layout.state_dir,
                            &layout.state_db(),
                            paths.id.as_str(),
                            &plan.session_key,
                        )?;
                        ctx.printer.debug(format!(
                            "{}: {state_rows} state database row(s) removed",
                            plan.session_key
                        ));
                        r.snapshot = snapshot.clone();
                        for a in archived.iter().filter(|a| !a.published) {
                            ctx.printer.warn(format!(
                                "archive {} is recorded but its file is not published yet; `openclaw-sessions doctor --fix` retries",
                                a.archive_name
                            ));
                        }
                        r.archive = Some(serde_json::to_value(&archived)?);
                    }
                    Err(e)
                        if matches!(e.code(), ErrorCode::Conflict | ErrorCode::LockedSession) =>
                    {
                        r.result = "conflict";
                        r.code = Some(e.code());
                        r.reason = Some(e.to_string());
                    }
                    Err(e) => {
                        // I/O or SQLite (a full disk): the next key would fail the same way.
                        // Stop as archive and patch do, naming what was already deleted.
                        let done: Vec<&str> = results
                            .iter()
                            .filter(|r| r.result == "deleted")
                            .map(|r| r.session_key.as_str())
                            .collect();
                        if !done.is_empty() {
                            ctx.printer
                                .warn(format!("deleted before the error: {}", done.join(", ")));
                        }
                        return Err(e.into());
                    }
                }
            }
            results.push(r);
        }
    }
    if let Some(c) = custody {
        c.release()?;
    }
    finish_results(ctx, results, &["deleted", "would-delete"])
}
