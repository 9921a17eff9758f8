use std::io::Read;
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use serde_json::{Map, Value};

use openclaw_sessions::mutate::{FieldChange, PatchOps, PatchPlan};
use openclaw_sessions::ops::entry_change::{Applied, EntryChange, EntryChangeOp};
use openclaw_sessions::ops::RunState;
use openclaw_sessions::units::now_ms;
use openclaw_sessions::Error;

use crate::cli::exit::Outcome;
use crate::cli::mutation::{print_dry_run, run_owned_op, selection, via, MutationArgs};
use crate::cli::online::{OnlineArgs, OwnerArgs};
use crate::cli::shown::value;
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct PatchArgs {
    /// The session key (several, or selected: --keys-from, the filters of `list`, patch each
    /// the same way).
    #[arg(value_name = "KEY")]
    keys: Vec<String>,
    #[command(flatten)]
    select: crate::cli::mutation::Selectors,
    /// Set a field to a JSON value (a bare word is taken as a string): `--set label='"Ops"'`.
    #[arg(long = "set", value_name = "FIELD=JSON")]
    set: Vec<String>,
    /// Remove a field.
    #[arg(long, value_name = "FIELD")]
    unset: Vec<String>,
    /// Shallow-merge a JSON object into the entry.
    #[arg(long, value_name = "JSON")]
    merge: Option<String>,
    /// Replace the whole entry with the JSON object in FILE (`-` for stdin).
    #[arg(long, value_name = "FILE|-")]
    replace_entry: Option<PathBuf>,
    /// Allow top-level fields OpenClaw's session entry does not have (a plugin's own slot).
    #[arg(long)]
    allow_unknown_field: bool,
    /// Keep updatedAt (otherwise it becomes now).
    #[arg(long)]
    preserve_activity: bool,
    /// Refuse unless updatedAt is exactly MS.
    #[arg(long, value_name = "MS")]
    expect_updated_at: Option<i64>,
    /// Refuse unless the session id is ID (`null`: expect none).
    #[arg(long, value_name = "ID|null")]
    expect_session_id: Option<String>,
    #[command(flatten)]
    mutation: MutationArgs,
    #[command(flatten)]
    online: OnlineArgs,
    #[command(flatten)]
    owner: OwnerArgs,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PatchData {
    agent_id: String,
    session_key: String,
    before: Value,
    after: Value,
    changes: Vec<FieldChange>,
    kept: Vec<String>,
    applied: bool,
    /// `patched`, `unchanged` (nothing written), or `would-patch` (a dry run).
    result: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    snapshots: Vec<openclaw_sessions::ops::SnapshotTaken>,
    /// `"via"`: `"offline"`, or `"gateway"` with `"gateway": {url, version, scopes}`.
    #[serde(flatten)]
    via: Value,
}

fn parse_object(raw: &str, what: &str) -> openclaw_sessions::Result<Map<String, Value>> {
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(_) => Err(Error::invalid(format!("{what} must be a JSON object"))),
        Err(e) => Err(Error::invalid(format!("{what} is not valid JSON: {e}"))),
    }
}

pub fn expect_session_id(raw: &Option<String>) -> Option<Option<String>> {
    raw.as_ref()
        .map(|s| if s == "null" { None } else { Some(s.clone()) })
}

fn ops(args: &PatchArgs) -> anyhow::Result<PatchOps> {
    let mut ops = PatchOps {
        preserve_activity: args.preserve_activity,
        expect_updated_at: args.expect_updated_at,
        expect_session_id: expect_session_id(&args.expect_session_id),
        unset: args.unset.clone(),
        allow_unknown_fields: args.allow_unknown_field,
        ..Default::default()
    };
    for s in &args.set {
        let (field, raw) = s
            .split_once('=')
            .ok_or_else(|| Error::invalid(format!("--set wants FIELD=JSON, not {s:?}")))?;
        if field.is_empty() {
            return Err(Error::invalid("--set needs a field name").into());
        }
        let value = serde_json::from_str(raw).unwrap_or_else(|_| Value::from(raw));
        ops.set.push((field.to_string(), value));
    }
    if let Some(m) = &args.merge {
        ops.merge = Some(parse_object(m, "--merge")?);
    }
    if let Some(path) = &args.replace_entry {
        let text = if path.as_os_str() == "-" {
            let mut s = String::new();
            std::io::stdin().read_to_string(&mut s)?;
            s
        } else {
            std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?
        };
        ops.replace = Some(parse_object(&text, "--replace-entry")?);
    }
    if ops.set.is_empty() && ops.unset.is_empty() && ops.merge.is_none() && ops.replace.is_none() {
        return Err(Error::invalid(
            "nothing to patch: give --set, --unset, --merge or --replace-entry",
        )
        .into());
    }
    Ok(ops)
}

fn print_diff(ctx: &Ctx, plan: &PatchPlan, applied: bool) -> anyhow::Result<()> {
    let mut out = format!(
        "{} {}\n",
        if applied { "patched" } else { "unchanged:" },
        value(&plan.key)
    );
    if plan.changes.is_empty() {
        out.push_str("  (no change)\n");
    }
    for c in &plan.changes {
        match (&c.before, &c.after) {
            (Some(b), Some(a)) => out.push_str(&format!(
                "  ~ {}: {} -> {}\n",
                value(&c.field),
                value(&b.to_string()),
                value(&a.to_string())
            )),
            (None, Some(a)) => out.push_str(&format!(
                "  + {}: {}\n",
                value(&c.field),
                value(&a.to_string())
            )),
            (Some(b), None) => out.push_str(&format!(
                "  - {}: {}\n",
                value(&c.field),
                value(&b.to_string())
            )),
            (None, None) => {}
        }
    }
    for k in &plan.kept {
        out.push_str(&format!("  = {}\n", value(k)));
    }
    ctx.printer.out(&out)
}

pub fn run(ctx: &Ctx, args: &PatchArgs) -> anyhow::Result<Outcome> {
    let ops = ops(args)?;
    if args.select.used() || args.keys.len() != 1 {
        return run_many(ctx, args, ops);
    }
    let mut op = EntryChangeOp::new(
        EntryChange::Patch(Box::new(ops)),
        selection(ctx)?,
        args.keys.clone(),
        now_ms(),
    );
    let Some(run) = run_owned_op(
        ctx,
        &mut op,
        &args.mutation,
        &args.online,
        &args.owner,
        "patch",
    )?
    else {
        return Ok(Outcome::Done);
    };
    let via = via(&run);
    let item = run.plan.items.into_iter().next().expect("one target");
    let mut plan = item.outcome?;
    let written = match run.report.and_then(|r| r.results.into_iter().next()) {
        Some(Applied::Refused(e)) => return Err(e.into()),
        Some(Applied::Written(entry)) => Some(entry.to_value()),
        _ => None,
    };
    // The changes as written: a Gateway sets `updatedAt` (and normalizes) on its own clock.
    if let Some(written) = &written {
        for c in &mut plan.changes {
            c.after = written.get(&c.field).cloned();
        }
    }
    let applied = written.is_some();
    if ctx.printer.json {
        ctx.printer.json_data(&PatchData {
            agent_id: item.target.agent.id.to_string(),
            session_key: plan.key.clone(),
            before: plan.before.to_value(),
            after: written.unwrap_or_else(|| plan.after.to_value()),
            changes: plan.changes.clone(),
            kept: plan.kept.clone(),
            applied,
            result: if applied {
                "patched"
            } else if plan.changes.is_empty() {
                "unchanged"
            } else {
                "would-patch"
            },
            snapshots: run.snapshots,
            via,
        })?;
    } else if run.state == RunState::DryRun {
        print_dry_run(ctx, &run.summary)?;
    } else {
        for s in &run.snapshots {
            ctx.printer
                .info(format!("snapshot before patching: {}", s.path.display()));
        }
        print_diff(ctx, &plan, applied)?;
    }
    Ok(Outcome::Done)
}

/// Several sessions (keys, --keys-from, the filters of `list`) patched the same way: the plan
/// lists every match before the question, and the results are reported per key as
/// archive's are (`results` in --json; exit 3 when some were not done).
fn run_many(ctx: &Ctx, args: &PatchArgs, ops: PatchOps) -> anyhow::Result<Outcome> {
    if args.expect_updated_at.is_some() || args.expect_session_id.is_some() {
        return Err(Error::invalid(
            "--expect-updated-at and --expect-session-id name one session's state: give one KEY",
        )
        .into());
    }
    let keys = args.select.keys(ctx, &args.keys)?;
    if keys.is_empty() {
        ctx.printer.info("no sessions match: nothing to patch");
        return Ok(Outcome::Done);
    }
    let mut op = EntryChangeOp::new(
        EntryChange::Patch(Box::new(ops)),
        selection(ctx)?,
        keys,
        now_ms(),
    )
    .selected(args.select.used());
    let Some(run) = run_owned_op(
        ctx,
        &mut op,
        &args.mutation,
        &args.online,
        &args.owner,
        "patch",
    )?
    else {
        return Ok(Outcome::Done);
    };
    let applied = run.report.as_ref().map(|r| &r.results);
    let mut results = Vec::with_capacity(run.plan.items.len());
    for (n, item) in run.plan.items.iter().enumerate() {
        let (result, reason, code) = match (&item.outcome, applied.map(|a| &a[n])) {
            (Err(e), _) | (_, Some(Applied::Refused(e))) => (
                openclaw_sessions::ops::entry_change::result_of(e),
                Some(e.to_string()),
                Some(crate::cli::exit::ErrorCode::of(e)),
            ),
            (Ok(p), _) if p.changes.is_empty() => ("unchanged", None, None),
            (Ok(_), Some(Applied::Written(_))) => ("patched", None, None),
            (Ok(_), _) => ("would-patch", None, None),
        };
        results.push(super::lifecycle::KeyResult {
            agent_id: Some(item.target.agent.id.to_string()),
            session_key: item.target.key_or_words().to_string(),
            result,
            reason,
            archive: None,
            snapshot: run
                .snapshot_of(&item.target.agent.db)
                .filter(|_| result == "patched")
                .map(|p| p.to_path_buf()),
            code,
        });
    }
    super::lifecycle::finish_results(ctx, &run, results, &["patched", "unchanged", "would-patch"])
}
