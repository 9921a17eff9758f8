use std::collections::HashMap;
use std::ops::ControlFlow;

use clap::Args;
use serde::Serialize;

use openclaw_sessions::du::over_budget_warning;
use openclaw_sessions::error::ResultExt;
use openclaw_sessions::mutate::prune::{
    parse_openclaw_duration, plan_artifacts, ActionFilter, ArtifactRemoval, MaintenanceSettings,
    PlanBuilder, PlannedList, PlannerRow, PruneAction, PruneCounts, PruneItem, PrunePlan,
    PLANNER_FIELDS,
};
use openclaw_sessions::mutate::{
    apply_delete, apply_patch, plan_delete, plan_maintenance_archive, DeleteOptions, References,
    WritableDb,
};
use openclaw_sessions::paths::AgentPaths;
use openclaw_sessions::store::{AgentStore, SessionEntry};
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

/// One agent's plan. The actions stay in the plan's temporary database; the report reads
/// them back as it is written.
struct AgentPrune {
    agent_id: String,
    plan: PrunePlan,
    artifacts: Vec<ArtifactRemoval>,
    disk_bytes: u64,
    over_budget: bool,
    applied: bool,
}

/// The JSON report of one agent.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AgentReport<'a> {
    agent_id: &'a str,
    mode: &'a str,
    dry_run: bool,
    archived: PlannedList<'a>,
    deleted: PlannedList<'a>,
    artifacts: &'a [ArtifactRemoval],
    kept: usize,
    counts: &'a PruneCounts,
    actions: PlannedList<'a>,
    disk_bytes: u64,
    max_disk_bytes: Option<u64>,
    over_budget: bool,
    applied: bool,
}

impl AgentPrune {
    fn report<'a>(&'a self, s: &'a MaintenanceSettings, dry_run: bool) -> AgentReport<'a> {
        AgentReport {
            agent_id: &self.agent_id,
            mode: &s.mode,
            dry_run,
            archived: self.plan.keys(ActionFilter::Archives),
            deleted: self.plan.keys(ActionFilter::Removals),
            artifacts: &self.artifacts,
            kept: self.plan.counts().before_count - self.plan.len(),
            counts: self.plan.counts(),
            actions: self.plan.items(),
            disk_bytes: self.disk_bytes,
            max_disk_bytes: s.max_disk_bytes,
            over_budget: self.over_budget,
            applied: self.applied,
        }
    }
}

#[derive(Serialize)]
struct Report<'a> {
    settings: &'a MaintenanceSettings,
    agents: Vec<AgentReport<'a>>,
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
    // Read entry by entry, each reduced to the few words the planner reads, into the plan's
    // temporary database.
    let active_key = args.active_key.as_deref();
    let mut builder = PlanBuilder::new()?;
    let warnings = store.for_each_session(Some(PLANNER_FIELDS), |entry| {
        if let Some(row) = PlannerRow::new(&entry, s, now, active_key) {
            builder.push(&row)?;
        }
        Ok(ControlFlow::Continue(()))
    })?;
    for w in warnings {
        ctx.printer.warn(super::hints::warning(&w));
    }
    let mut plan = builder.plan(s, now)?;
    let artifacts = if args.artifacts {
        // A second read, for the session ids the kept sessions still reference.
        store.for_each_session(Some(&["sessionId"]), |e| {
            if !plan.removes(&e.key)? {
                plan.keep_session_id(e.session_id())?;
            }
            Ok(ControlFlow::Continue(()))
        })?;
        let db = store.db().expect("sqlite store");
        plan_artifacts(
            &paths.sessions_dir,
            |id| plan.keeps_session_id(id),
            |name| {
                db.conn()
                    .prepare_cached(
                        "SELECT 1 FROM session_transcript_archives WHERE archive_name = ?1",
                    )
                    .and_then(|mut s| s.exists([name]))
                    .at(db.path())
            },
            s,
            now,
        )?
    } else {
        Vec::new()
    };
    let du = openclaw_sessions::du::agent_disk_use(
        paths,
        &store,
        &openclaw_sessions::paths::MaintenanceConfig::default(),
    )?;
    let disk = du.budget_bytes;
    Ok(Some(AgentPrune {
        agent_id: paths.id.to_string(),
        plan,
        artifacts,
        disk_bytes: disk,
        over_budget: s.max_disk_bytes.is_some_and(|m| disk > m),
        applied: false,
    }))
}

/// Sessions per batch of a real run: the whole entries and deletion plans of one batch are
/// held at a time, not those of every planned session. `OPENCLAW_SESSIONS_APPLY_BATCH` sets a
/// smaller one, so that tests on small fixtures cross batch boundaries.
fn apply_batch() -> usize {
    std::env::var("OPENCLAW_SESSIONS_APPLY_BATCH")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(512)
}

/// The planned actions `filter` admits, handed to `apply` a batch at a time, in plan order.
fn in_batches(
    plan: &PrunePlan,
    filter: ActionFilter,
    mut apply: impl FnMut(Vec<PruneItem>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let size = apply_batch();
    let mut batch = Vec::with_capacity(size.min(plan.len()));
    plan.for_each(filter, |item| -> anyhow::Result<_> {
        batch.push(item);
        if batch.len() == size {
            apply(std::mem::take(&mut batch))?;
        }
        Ok(ControlFlow::Continue(()))
    })?;
    if !batch.is_empty() {
        apply(batch)?;
    }
    Ok(())
}

/// The whole entries of a batch (planning kept a few fields of every session).
fn entries_of(
    store: &AgentStore,
    batch: &[PruneItem],
    agent: &str,
) -> anyhow::Result<HashMap<String, SessionEntry>> {
    let mut by_key = HashMap::with_capacity(batch.len());
    for item in batch {
        let entry = store
            .entry_by_exact_key(&item.session_key)?
            .ok_or_else(|| {
                Error::not_found(
                    format!("session {} is gone from agent {agent}", item.session_key),
                    None,
                )
            })?;
        by_key.insert(item.session_key.clone(), entry);
    }
    Ok(by_key)
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
    let agent = paths.id.as_str();
    let opts = DeleteOptions {
        archive: true,
        ..Default::default()
    };
    // Before the first write, as one whole plan would: every planned session is still there
    // and every deletion can be planned (an unsafe transcript id stops the run here). The
    // deletions are planned against the references as they were read, in both passes.
    let mut refs = {
        let store = AgentStore::open(paths.clone())?;
        let refs = {
            let db = store.db().expect("sqlite store");
            References::read(db.conn(), db.path())?
        };
        in_batches(&plan.plan, ActionFilter::All, |batch| {
            let by_key = entries_of(&store, &batch, agent)?;
            for item in batch.iter().filter(|i| i.action.archive_reason().is_none()) {
                plan_delete(&store, refs.as_read(), &by_key, &item.session_key, &opts)?;
            }
            Ok(())
        })?;
        refs
    };
    // Then a batch at a time: read with the store's reader, which is closed before the writer
    // opens (an immutable reader beside a writer would read stale pages). Archives first,
    // then deletions, each in plan order.
    in_batches(&plan.plan, ActionFilter::Archives, |batch| {
        let by_key = entries_of(&AgentStore::open(paths.clone())?, &batch, agent)?;
        let mut db = WritableDb::open(&layout.state_dir, &paths.db)?;
        for item in &batch {
            let reason = item.action.archive_reason().expect("an archive action");
            let p = plan_maintenance_archive(&by_key[&item.session_key], reason, now)?;
            apply_patch(&mut db, &p)?;
        }
        Ok(())
    })?;
    in_batches(&plan.plan, ActionFilter::Removals, |batch| {
        let delete_plans = {
            let store = AgentStore::open(paths.clone())?;
            let by_key = entries_of(&store, &batch, agent)?;
            batch
                .iter()
                .map(|i| plan_delete(&store, refs.as_read(), &by_key, &i.session_key, &opts))
                .collect::<openclaw_sessions::Result<Vec<_>>>()?
        };
        let mut db = WritableDb::open(&layout.state_dir, &paths.db)?;
        for dp in &delete_plans {
            apply_delete(&mut db, dp, refs.now(), &paths.sessions_dir, now)?;
            refs.forget(&dp.session_key)?;
        }
        Ok(())
    })?;
    if !plan.artifacts.is_empty() {
        let db = WritableDb::open(&layout.state_dir, &paths.db)?;
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
        .map(|(_, p)| p.plan.len() + p.artifacts.len())
        .sum();
    let warn_only = s.mode == "warn";
    if work > 0 && !args.mutation.dry_run && !warn_only {
        confirm(
            ctx,
            &format!(
                "Archive or delete {} session(s) and remove {} file(s)?",
                plans.iter().map(|(_, p)| p.plan.len()).sum::<usize>(),
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
                s.max_disk_bytes.unwrap_or(0),
            ));
        }
    }
    if ctx.printer.json {
        let dry_run = args.mutation.dry_run;
        let agents = plans.iter().map(|(_, p)| p.report(&s, dry_run)).collect();
        ctx.printer.json_data(&Report {
            settings: &s,
            agents,
        })?;
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
        p.plan
            .for_each(ActionFilter::All, |i| -> anyhow::Result<_> {
                let action = match i.action {
                    PruneAction::PruneModelRun
                    | PruneAction::PruneStale
                    | PruneAction::PruneCap => "delete (archived transcript)".to_string(),
                    a => format!("archive ({})", a.archive_reason().unwrap_or_default()),
                };
                t.add_row(vec![
                    p.agent_id.clone(),
                    i.session_key,
                    format!("{verb} {action}"),
                ]);
                Ok(ControlFlow::Continue(()))
            })?;
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
