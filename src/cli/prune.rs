use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;

use clap::Args;
use serde::Serialize;

use openclaw_sessions::du::over_budget_warning;
use openclaw_sessions::mutate::prune::{
    parse_openclaw_duration, plan_artifacts, plan_prune, ArtifactRemoval, MaintenanceSettings,
    PlannerRow, PruneAction, PruneCounts, PruneItem, PLANNER_FIELDS,
};
use openclaw_sessions::mutate::{
    apply_delete, apply_patch, plan_delete, plan_maintenance_archive, DeleteOptions, References,
    WritableDb,
};
use openclaw_sessions::paths::AgentPaths;
use openclaw_sessions::units::{now_ms, parse_size};
use openclaw_sessions::Error;

use super::custody::take;
use super::exit::Outcome;
use super::mutation::{confirm, MutationArgs};
use super::Ctx;

#[derive(Debug, Args)]
pub struct PruneArgs {
    /// Archive (or remove, for machine-made sessions) what was not updated for this long
    /// (default: session.maintenance.pruneAfter, 30d).
    #[arg(long, value_name = "DURATION")]
    older_than: Option<String>,
    /// Keep at most N unarchived sessions per agent (default: maxEntries, 5000).
    #[arg(long, value_name = "N")]
    max_entries: Option<i64>,
    /// Disk budget per agent (default: maxDiskBytes, 10gb; reported).
    #[arg(long, value_name = "SIZE")]
    max_disk_bytes: Option<String>,
    /// Also remove unreferenced transcripts and temp files, and archive files past
    /// resetArchiveRetention.
    #[arg(long)]
    artifacts: bool,
    /// Never touch this session (as OpenClaw's --active-key).
    #[arg(long, value_name = "KEY")]
    active_key: Option<String>,
    #[command(flatten)]
    mutation: MutationArgs,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AgentPrune {
    agent_id: String,
    mode: String,
    dry_run: bool,
    archived: Vec<String>,
    deleted: Vec<String>,
    artifacts: Vec<ArtifactRemoval>,
    kept: usize,
    counts: PruneCounts,
    actions: Vec<PruneItem>,
    disk_bytes: u64,
    max_disk_bytes: Option<u64>,
    over_budget: bool,
    applied: bool,
}

fn settings(
    ctx: &Ctx,
    args: &PruneArgs,
    layout: &openclaw_sessions::paths::StateLayout,
) -> anyhow::Result<MaintenanceSettings> {
    let mut s = MaintenanceSettings::resolve(&layout.config.maintenance())?;
    if let Some(d) = &args.older_than {
        s.prune_after_ms = Some(
            parse_openclaw_duration(d)
                .filter(|ms| *ms > 0)
                .ok_or_else(|| {
                    Error::usage(format!("invalid duration {d:?} (use ms, s, m, h, d)"))
                })?,
        );
    }
    if let Some(n) = args.max_entries {
        if n <= 0 {
            return Err(Error::usage("--max-entries must be positive").into());
        }
        s.max_entries = n;
    }
    if let Some(b) = &args.max_disk_bytes {
        let v = parse_size(b)?;
        s.max_disk_bytes = (v > 0).then_some(v);
        s.high_water_bytes = s
            .max_disk_bytes
            .map(|m| ((m as f64) * 0.8).floor().max(1.0) as u64);
    }
    ctx.printer.debug(format!(
        "maintenance settings: {}",
        serde_json::to_string(&s)?
    ));
    Ok(s)
}

fn plan_agent(
    ctx: &Ctx,
    paths: &AgentPaths,
    s: &MaintenanceSettings,
    args: &PruneArgs,
    now: i64,
) -> anyhow::Result<Option<AgentPrune>> {
    let mut store = ctx.open_store(paths.clone())?;
    if store.db().is_none() {
        ctx.printer
            .debug(format!("agent {}: no SQLite store, skipped", paths.id));
        return Ok(None);
    }
    ctx.flush_warnings(&mut store);
    // Read entry by entry, each reduced to the few words the planner reads.
    let active_key = args.active_key.as_deref();
    let mut rows = Vec::new();
    let warnings = store.for_each_session(Some(PLANNER_FIELDS), |entry| {
        rows.extend(PlannerRow::new(&entry, s, now, active_key));
        Ok(ControlFlow::Continue(()))
    })?;
    for w in warnings {
        ctx.printer.warn(w);
    }
    let (items, counts) = plan_prune(&mut rows, s, now);
    drop(rows);
    let artifacts = if args.artifacts {
        let removed: HashSet<&str> = items
            .iter()
            .filter(|i| i.action.archive_reason().is_none())
            .map(|i| i.session_key.as_str())
            .collect();
        // A second read, for the session ids the kept sessions still reference.
        let mut kept_ids = HashSet::new();
        store.for_each_session(Some(&["sessionId"]), |e| {
            if !removed.contains(e.key.as_str()) {
                kept_ids.insert(e.session_id().to_string());
            }
            Ok(ControlFlow::Continue(()))
        })?;
        let rows: HashSet<String> = {
            let db = store.db().expect("sqlite store");
            let mut stmt = db
                .conn()
                .prepare("SELECT archive_name FROM session_transcript_archives")?;
            let v = stmt
                .query_map([], |r| r.get::<_, String>(0))?
                .collect::<rusqlite::Result<HashSet<_>>>()?;
            v
        };
        plan_artifacts(&paths.sessions_dir, &kept_ids, &rows, s, now)
    } else {
        Vec::new()
    };
    let du = openclaw_sessions::du::agent_disk_use(
        paths,
        &store,
        &openclaw_sessions::paths::MaintenanceConfig::default(),
    )?;
    let disk = du.budget_bytes;
    let plan = AgentPrune {
        agent_id: paths.id.to_string(),
        mode: s.mode.clone(),
        dry_run: args.mutation.dry_run,
        archived: items
            .iter()
            .filter(|i| i.action.archive_reason().is_some())
            .map(|i| i.session_key.clone())
            .collect(),
        deleted: items
            .iter()
            .filter(|i| i.action.archive_reason().is_none())
            .map(|i| i.session_key.clone())
            .collect(),
        artifacts,
        kept: counts.before_count - items.len(),
        counts,
        actions: items,
        disk_bytes: disk,
        max_disk_bytes: s.max_disk_bytes,
        over_budget: s.max_disk_bytes.is_some_and(|m| disk > m),
        applied: false,
    };
    Ok(Some(plan))
}

fn apply_agent(
    layout: &openclaw_sessions::paths::StateLayout,
    paths: &AgentPaths,
    plan: &mut AgentPrune,
    now: i64,
) -> anyhow::Result<()> {
    // Archives are written to, and artifacts removed from, sessions/: refused up front if it
    // leads outside the store.
    openclaw_sessions::mutate::check_owned_path(&layout.state_dir, &paths.sessions_dir)?;
    let store = openclaw_sessions::store::AgentStore::open(paths.clone())?;
    // The whole entries of the planned sessions only (planning kept a few fields of all).
    let mut by_key: HashMap<String, openclaw_sessions::store::SessionEntry> = HashMap::new();
    for item in &plan.actions {
        let entry = store
            .entry_by_exact_key(&item.session_key)?
            .ok_or_else(|| {
                Error::not_found(
                    format!(
                        "session {} is gone from agent {}",
                        item.session_key, paths.id
                    ),
                    None,
                )
            })?;
        by_key.insert(item.session_key.clone(), entry);
    }
    let mut refs = {
        let db = store.db().expect("sqlite store");
        References::read(db.conn(), db.path())?
    };
    let delete_plans = plan
        .actions
        .iter()
        .filter(|i| i.action.archive_reason().is_none())
        .map(|i| {
            plan_delete(
                &store,
                &refs,
                &by_key,
                &i.session_key,
                &DeleteOptions {
                    archive: true,
                    ..Default::default()
                },
            )
        })
        .collect::<openclaw_sessions::Result<Vec<_>>>()?;
    drop(store);
    let mut db = WritableDb::open(&layout.state_dir, &paths.db)?;
    for item in &plan.actions {
        if let Some(reason) = item.action.archive_reason() {
            let p = plan_maintenance_archive(&by_key[&item.session_key], reason, now)?;
            apply_patch(&mut db, &p)?;
        }
    }
    for dp in &delete_plans {
        apply_delete(&mut db, dp, &refs, &paths.sessions_dir, now)?;
        refs.forget(&dp.session_key);
    }
    for a in &plan.artifacts {
        if let Some(name) = &a.archive_row {
            db.conn.execute(
                "DELETE FROM session_transcript_archives WHERE archive_name = ?1",
                [name],
            )?;
        }
        match std::fs::remove_file(&a.path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&a.path, e).into()),
        }
    }
    plan.applied = true;
    Ok(())
}

pub fn run(ctx: &Ctx, args: &PruneArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    let s = settings(ctx, args, &layout)?;
    // A fixed clock for reproducible runs (tests, comparisons with OpenClaw's own reports).
    let now = std::env::var("OPENCLAW_SESSIONS_NOW_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(now_ms);
    let agents = ctx.agents(&layout)?;
    let mut plans = Vec::new();
    for paths in &agents {
        if let Some(p) = plan_agent(ctx, paths, &s, args, now)? {
            plans.push((paths.clone(), p));
        }
    }
    let work: usize = plans
        .iter()
        .map(|(_, p)| p.actions.len() + p.artifacts.len())
        .sum();
    let warn_only = s.mode == "warn";
    if work > 0 && !args.mutation.dry_run && !warn_only {
        confirm(
            ctx,
            &format!(
                "Archive or delete {} session(s) and remove {} file(s)?",
                plans.iter().map(|(_, p)| p.actions.len()).sum::<usize>(),
                plans.iter().map(|(_, p)| p.artifacts.len()).sum::<usize>()
            ),
        )?;
        let custody = take(ctx, &layout, args.mutation.wait)?;
        // Under custody nothing else writes: plan again, then apply that plan.
        let mut fresh = Vec::new();
        for (paths, _) in &plans {
            if let Some(p) = plan_agent(ctx, paths, &s, args, now)? {
                fresh.push((paths.clone(), p));
            }
        }
        plans = fresh;
        for (paths, plan) in plans.iter_mut() {
            apply_agent(&layout, paths, plan, now)?;
        }
        custody.release()?;
    } else if warn_only && work > 0 {
        ctx.printer
            .warn("session.maintenance.mode is warn: reporting only, nothing changed");
    }
    for (_, p) in &plans {
        if p.over_budget {
            ctx.printer.warn(over_budget_warning(
                &p.agent_id,
                p.disk_bytes,
                p.max_disk_bytes.unwrap_or(0),
            ));
        }
    }
    if ctx.printer.json {
        let agents: Vec<&AgentPrune> = plans.iter().map(|(_, p)| p).collect();
        ctx.printer
            .json_data(&serde_json::json!({ "settings": s, "agents": agents }))?;
        return Ok(Outcome::Done);
    }
    if work == 0 {
        ctx.printer.debug("nothing to prune");
        return Ok(Outcome::Done);
    }
    let verb = if args.mutation.dry_run || warn_only {
        "would"
    } else {
        "did"
    };
    let mut t = ctx.printer.table(&["AGENT", "KEY", "ACTION"]);
    for (_, p) in &plans {
        for i in &p.actions {
            let action = match i.action {
                PruneAction::PruneModelRun | PruneAction::PruneStale | PruneAction::PruneCap => {
                    "delete (archived transcript)".to_string()
                }
                a => format!("archive ({})", a.archive_reason().unwrap_or_default()),
            };
            t.add_row(vec![
                p.agent_id.clone(),
                i.session_key.clone(),
                format!("{verb} {action}"),
            ]);
        }
        for a in &p.artifacts {
            t.add_row(vec![
                p.agent_id.clone(),
                a.path.display().to_string(),
                format!("{verb} remove: {}", a.why),
            ]);
        }
    }
    ctx.printer.print_table(&t)?;
    Ok(Outcome::Done)
}
