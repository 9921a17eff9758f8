//! `archive` and `unarchive`: set or clear `archivedAt`/`archivedBy`/`archiveReason` as
//! `openclaw sessions archive` does, offline.

use clap::Args;
use serde::Serialize;

use openclaw_sessions::mutate::{plan_archive, plan_unarchive};
use openclaw_sessions::units::now_ms;
use openclaw_sessions::{Error, ErrorCode};

use super::exit::Outcome;
use super::mutation::MutationArgs;
use super::patch::run_entry_change;
use super::Ctx;

#[derive(Debug, Args)]
pub struct LifecycleArgs {
    /// Session keys.
    #[arg(required = true, value_name = "KEY")]
    keys: Vec<String>,
    #[command(flatten)]
    mutation: MutationArgs,
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

/// Exit for per-key commands: all done 0; one key refused → that guard's code; several → 3.
pub fn finish_results(
    ctx: &Ctx,
    results: Vec<KeyResult>,
    done: &[&str],
) -> anyhow::Result<Outcome> {
    let failed: Vec<&KeyResult> = results
        .iter()
        .filter(|r| !done.contains(&r.result))
        .collect();
    if ctx.printer.json {
        ctx.printer
            .json_data(&serde_json::json!({ "results": results }))?;
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
    match (results.len(), failed.as_slice()) {
        (_, []) => Ok(Outcome::Done),
        (1, [one]) => Ok(Outcome::Exit(one.code.map(|c| c.exit_code()).unwrap_or(1))),
        _ => Ok(Outcome::Exit(ErrorCode::Partial.exit_code())),
    }
}

pub fn result_of_error(
    key: &str,
    agent: Option<String>,
    e: anyhow::Error,
) -> anyhow::Result<KeyResult> {
    let Some(err) = e.downcast_ref::<Error>() else {
        return Err(e);
    };
    let (result, code) = match err.code() {
        ErrorCode::NotFound => ("missing", ErrorCode::NotFound),
        ErrorCode::Conflict => ("conflict", ErrorCode::Conflict),
        ErrorCode::LockedSession => ("refused", ErrorCode::LockedSession),
        // Anything else (custody, I/O, schema) stops the whole command.
        _ => return Err(e),
    };
    Ok(KeyResult {
        agent_id: agent,
        session_key: key.to_string(),
        result,
        reason: Some(err.to_string()),
        archive: None,
        snapshot: None,
        code: Some(code),
    })
}

pub fn run(ctx: &Ctx, args: &LifecycleArgs, archive: bool) -> anyhow::Result<Outcome> {
    let mut results = Vec::new();
    let now = now_ms();
    for key in &args.keys {
        let outcome = run_entry_change(ctx, key, &args.mutation, &|e, _| {
            if archive {
                plan_archive(e, now)
            } else {
                plan_unarchive(e, now)
            }
        });
        match outcome {
            Ok((plan, written, agent)) => {
                let result = match (plan.changes.is_empty(), args.mutation.dry_run, archive) {
                    (true, _, _) => "unchanged",
                    (false, true, true) => "would-archive",
                    (false, true, false) => "would-unarchive",
                    (false, false, true) if written.is_some() => "archived",
                    (false, false, _) => "unarchived",
                };
                results.push(KeyResult {
                    agent_id: Some(agent),
                    session_key: key.clone(),
                    result,
                    reason: None,
                    archive: None,
                    snapshot: None,
                    code: None,
                });
            }
            Err(e) => results.push(result_of_error(key, None, e)?),
        }
    }
    let done: &[&str] = &[
        "archived",
        "unarchived",
        "unchanged",
        "would-archive",
        "would-unarchive",
    ];
    finish_results(ctx, results, done)
}
