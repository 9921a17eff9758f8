use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::json;

use openclaw_sessions::backup::{
    create_snapshot, find_snapshot, list_snapshots, restore_fresh, verify_snapshot,
    SnapshotManifest, SnapshotSource, SnapshotState, SnapshotTarget,
};
use openclaw_sessions::ops::backup_prune::BackupPruneOp;
use openclaw_sessions::ops::restore::RestoreOp;
use openclaw_sessions::ops::restore_session::RestoreSessionOp;
use openclaw_sessions::ops::RunState;
use openclaw_sessions::paths::{AgentId, StateLayout};
use openclaw_sessions::units::{format_bytes, now_ms};
use openclaw_sessions::Error;

use crate::cli::exit::Outcome;
use crate::cli::mutation::{print_dry_run, run_op, MutationArgs};
use crate::cli::progress::Bar;
use crate::cli::Ctx;

#[derive(Debug, Subcommand)]
pub enum BackupCommand {
    /// Snapshot agent databases (default agent, --agent, --all-agents) or the global one.
    Create(CreateArgs),
    /// Snapshots in a repository, newest first.
    List(ListArgs),
    /// Check snapshots: files, manifest, sha256, integrity, owner, schema version.
    Verify(VerifyArgs),
    /// Restore a snapshot to a fresh path, or in place under custody.
    #[command(after_help = crate::cli::mutation::restore_help())]
    Restore(RestoreArgs),
    /// Remove old snapshots, keeping the newest N of each database (each agent's, the
    /// global one).
    #[command(after_help = crate::cli::mutation::BACKUP_PRUNE.help())]
    Prune(PruneArgs),
}

impl BackupCommand {
    pub fn name(&self) -> &'static str {
        match self {
            BackupCommand::Create(_) => "backup create",
            BackupCommand::List(_) => "backup list",
            BackupCommand::Verify(_) => "backup verify",
            BackupCommand::Restore(_) => "backup restore",
            BackupCommand::Prune(_) => "backup prune",
        }
    }
}

#[derive(Debug, Args)]
pub struct CreateArgs {
    /// The snapshot repository (created 0700 if missing; default: the admin's repository
    /// outside the state dir, $XDG_DATA_HOME/openclaw-sessions/snapshots/<state>-<hash>/manual).
    #[arg(long, value_name = "DIR")]
    repository: Option<PathBuf>,
    /// Snapshot the global state database instead of agent databases.
    #[arg(long, conflicts_with_all = ["agents", "all_agents"])]
    global: bool,
    /// Verify each snapshot again after publication.
    #[arg(long)]
    verify: bool,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub output: crate::cli::context::TableOutput,
    /// The snapshot repository to list (default: the admin's snapshots, the safety snapshots
    /// and those an earlier version left in <state>/openclaw-sessions-snapshots).
    #[arg(long, value_name = "DIR")]
    repository: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct PruneArgs {
    /// Snapshots kept of each database, newest first (at least 1; required but with
    /// --safety, whose own rule keeps 3).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..),
          required_unless_present = "safety")]
    keep: Option<u32>,
    /// The repository to prune (default: the admin's repository).
    #[arg(long, value_name = "DIR", conflicts_with = "safety")]
    repository: Option<PathBuf>,
    /// Prune the safety snapshots of doctor --fix and the mutations instead, by their own
    /// rule: the newest 3 of each database are kept (--keep N for another number).
    #[arg(long)]
    safety: bool,
    /// Show what would be removed and remove nothing.
    #[arg(short = 'n', long)]
    dry_run: bool,
    /// Wait up to DURATION (10m, 90s; a bare number is seconds) for a live owner of the state
    /// dir to finish.
    #[arg(long, value_name = "DURATION", value_parser = crate::cli::durations::parse_wait)]
    wait: Option<u64>,
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Snapshots: their ids as `backup list` shows them (or a unique prefix), `latest`, or
    /// their directories (`<repository>/<stamp>-<uuid>`); none: every snapshot of the
    /// repository.
    #[arg(value_name = "SNAPSHOT")]
    snapshots: Vec<PathBuf>,
    /// The repository whose snapshots are verified, and where a SNAPSHOT id is looked up
    /// (default: the admin's, then the safety snapshots', then <state>/openclaw-sessions-snapshots).
    #[arg(long, value_name = "DIR")]
    repository: Option<PathBuf>,
}

/// `--repository`, else the admin's repository (docs/SNAPSHOTS.md).
fn repository(ctx: &Ctx, given: &Option<PathBuf>) -> anyhow::Result<PathBuf> {
    Ok(match given {
        Some(dir) => dir.clone(),
        None => ctx.layout()?.snapshot_repository(),
    })
}

/// Where a snapshot named by id or `latest` is looked up: `--repository`, else the admin's,
/// the safety and the earlier in-state-dir repository, in that order.
fn lookup_repositories(ctx: &Ctx, given: &Option<PathBuf>) -> anyhow::Result<Vec<PathBuf>> {
    Ok(match given {
        Some(dir) => vec![dir.clone()],
        None => ctx.layout()?.snapshot_repositories(),
    })
}

/// The snapshot directory the words name (an id, a prefix, `latest` or a path).
fn named_snapshot(ctx: &Ctx, words: &std::path::Path) -> anyhow::Result<PathBuf> {
    if words.is_dir() {
        return Ok(words.to_path_buf());
    }
    Ok(find_snapshot(words, &lookup_repositories(ctx, &None)?)?)
}

/// What a snapshot is a copy of, in words: `agent main`, `global`.
fn database_words(m: &SnapshotManifest) -> String {
    match &m.database {
        openclaw_sessions::backup::DatabaseManifest::Agent { agent_id, .. } => {
            format!("agent {agent_id}")
        }
        openclaw_sessions::backup::DatabaseManifest::Global { .. } => "global".to_string(),
    }
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("live").args(["in_place", "session"]))]
pub struct RestoreArgs {
    /// The snapshot to restore (verified first): its id as `backup list` shows it (or a
    /// unique prefix), `latest`, or its directory.
    #[arg(value_name = "SNAPSHOT")]
    snapshot: PathBuf,
    /// Write the database to this fresh path (never over an existing file).
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present_any = ["in_place", "session"],
        conflicts_with_all = ["in_place", "session"]
    )]
    target: Option<PathBuf>,
    /// Replace the live database (custody; the current one is snapshotted first).
    #[arg(long, conflicts_with = "session")]
    in_place: bool,
    /// Take only this session (key or session id) out of the snapshot into the live store,
    /// the others untouched (custody; refused when the key or its transcript is live, unless
    /// --replace).
    #[arg(long, value_name = "KEY|SESSION_ID")]
    session: Option<String>,
    /// With --session: a live session of that key is replaced: deleted first as `delete`
    /// deletes it (its transcripts archived, its entry kept for undelete), then the
    /// snapshot's session is restored in its place.
    #[arg(long, requires = "session")]
    replace: bool,
    /// Wait up to DURATION (10m, 90s; a bare number is seconds) for a live owner of the state
    /// dir to finish (--in-place, --session).
    #[arg(long, value_name = "DURATION", value_parser = crate::cli::durations::parse_wait, requires = "live")]
    wait: Option<u64>,
    /// With --in-place or --session: show what would change and change nothing.
    #[arg(short = 'n', long, requires = "live")]
    dry_run: bool,
    /// With --in-place: where the snapshot of the current database goes (default: the
    /// repository of SNAPSHOT); with --session: a snapshot of the current database first.
    #[arg(long, value_name = "DIR", requires = "live")]
    backup_dir: Option<PathBuf>,
    /// With --in-place or --session: take a snapshot whose schema differs from the live
    /// database's (refused without it: the release that owns the store may no longer open it)
    #[arg(long, alias = "allow-newer-schema", requires = "live")]
    allow_schema_change: bool,
}

pub fn source_for_agent(layout: &StateLayout, id: &AgentId) -> SnapshotSource {
    SnapshotSource::agent(&layout.agent(id))
}

pub fn run(ctx: &Ctx, cmd: &BackupCommand) -> anyhow::Result<Outcome> {
    match cmd {
        BackupCommand::Create(a) => create(ctx, a),
        BackupCommand::List(a) => list(ctx, a),
        BackupCommand::Verify(a) => verify(ctx, a),
        BackupCommand::Restore(a) => restore(ctx, a),
        BackupCommand::Prune(a) => prune(ctx, a),
    }
}

/// The safety snapshots' own rule: the newest 3 of each database (docs/SNAPSHOTS.md).
const SAFETY_KEEP: u32 = 3;

fn prune(ctx: &Ctx, args: &PruneArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    let repository = match (&args.repository, args.safety) {
        (Some(dir), _) => Some(dir.clone()),
        (None, true) => Some(layout.safety_repository()),
        (None, false) => None,
    };
    let mut op = BackupPruneOp {
        repository,
        keep: args.keep.unwrap_or(SAFETY_KEEP) as usize,
    };
    let mutation = MutationArgs::new(args.dry_run, args.wait, None);
    let Some(run) = run_op(ctx, &mut op, &mutation, "backup prune")? else {
        return Ok(Outcome::Done);
    };
    let plan = &run.plan;
    if ctx.printer.json {
        ctx.printer.json_data(&json!({
            "applied": run.state == RunState::Applied,
            "dryRun": run.state == RunState::DryRun,
            "repositoryPath": plan.repository_path,
            "keep": plan.keep,
            "removed": plan.removed,
            "kept": plan.kept,
            "removedBytes": plan.removed_bytes(),
        }))?;
        return Ok(Outcome::Done);
    }
    match run.state {
        RunState::DryRun => print_dry_run(ctx, &run.summary)?,
        // Nothing due, nothing printed (cron).
        RunState::NothingToDo => {}
        _ => ctx.printer.out(&format!(
            "removed {} snapshots ({}) from {}; kept {}\n",
            plan.removed.len(),
            format_bytes(plan.removed_bytes()),
            plan.repository_path.display(),
            plan.kept.len()
        ))?,
    }
    Ok(Outcome::Done)
}

fn create(ctx: &Ctx, args: &CreateArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    // It writes (the repository, in the store by default): as every mutation, root runs it
    // as the owner of the state dir, so that nothing it leaves is root's.
    super::custody::run_as_state_dir_owner(ctx, &layout)?;
    let layout = ctx.layout()?;
    let sources: Vec<SnapshotSource> = if args.global {
        layout.require_exists()?;
        vec![SnapshotSource::Global {
            db: layout.state_db(),
        }]
    } else {
        ctx.agents(&layout)?
            .into_iter()
            .map(|p| source_for_agent(&layout, &p.id))
            .collect()
    };
    let repository = repository(ctx, &args.repository)?;
    if sources.is_empty() {
        // A state dir without agents: said, not a silent success that reads like a snapshot.
        ctx.printer
            .warn("no agent database in this state dir: nothing to snapshot (--global snapshots the state database)");
    }
    let mut made = Vec::new();
    for source in &sources {
        let bar = Bar::new(ctx, &source.db().display().to_string());
        let (path, manifest) = create_snapshot(
            source,
            &SnapshotTarget::new(repository.clone()),
            &bar,
            now_ms(),
        )?;
        if args.verify {
            let report = verify_snapshot(&path);
            if !report.ok {
                return Err(Error::Internal(format!(
                    "snapshot {} does not verify: {}",
                    path.display(),
                    report.problems.join("; ")
                ))
                .into());
            }
        }
        let of = database_words(&manifest);
        ctx.printer.info(format!(
            "snapshot of {of}: {} ({})",
            path.display(),
            format_bytes(manifest.artifact.size_bytes)
        ));
        let agent_id = match &manifest.database {
            openclaw_sessions::backup::DatabaseManifest::Agent { agent_id, .. } => {
                Some(agent_id.clone())
            }
            openclaw_sessions::backup::DatabaseManifest::Global { .. } => None,
        };
        made.push(json!({"path": path, "agentId": agent_id, "manifest": manifest}));
    }
    if ctx.printer.json {
        ctx.printer
            .json_data(&json!({ "repository": repository, "snapshots": made }))?;
    } else {
        // One line a snapshot: its path, then what it is a copy of (`cut -f1` gives paths).
        for m in &made {
            let of = match m["agentId"].as_str() {
                Some(a) => format!("agent {a}"),
                None => "global".to_string(),
            };
            ctx.printer.out(&format!(
                "{}\t{of}\n",
                m["path"].as_str().unwrap_or_default()
            ))?;
        }
    }
    Ok(Outcome::Done)
}

fn describe(m: &Option<SnapshotManifest>) -> (String, String, String) {
    match m {
        None => (String::new(), String::new(), String::new()),
        Some(m) => {
            let db = database_words(m);
            (
                m.created_at.clone(),
                db,
                format_bytes(m.artifact.size_bytes),
            )
        }
    }
}

fn list(ctx: &Ctx, args: &ListArgs) -> anyhow::Result<Outcome> {
    // `--repository`: that one (it must exist). Else the admin's, the safety snapshots' and
    // the one an earlier version kept in the state dir, each as far as it exists.
    let repositories: Vec<(&str, PathBuf)> = match &args.repository {
        Some(dir) => vec![("named", dir.clone())],
        None => {
            let layout = ctx.layout()?;
            vec![
                ("manual", layout.snapshot_repository()),
                ("safety", layout.safety_repository()),
                ("old", layout.legacy_snapshot_repository()),
            ]
        }
    };
    let mut snaps = Vec::new();
    for (kind, repo) in &repositories {
        let listed = match list_snapshots(repo) {
            Ok(l) => l,
            Err(e)
                if args.repository.is_none()
                    && e.kind() == openclaw_sessions::ErrorKind::NotFound =>
            {
                continue
            }
            Err(e) => return Err(e.into()),
        };
        snaps.extend(listed.into_iter().map(|s| (*kind, s)));
    }
    for (_, s) in snaps
        .iter()
        .filter(|(_, s)| s.state != SnapshotState::Complete)
    {
        ctx.printer.warn(format!(
            "{} is not a complete snapshot ({}): left by an interrupted run",
            s.path.display(),
            serde_json::to_value(s.state)?.as_str().unwrap_or_default()
        ));
    }
    // A staging directory is never a snapshot: it is named apart (`staging`), as a warning.
    let (staging, snaps): (Vec<_>, Vec<_>) = snaps
        .into_iter()
        .partition(|(_, s)| s.state == SnapshotState::Staging);
    let staging: Vec<_> = staging.into_iter().map(|(_, s)| s.path).collect();
    let id_of = |s: &openclaw_sessions::backup::ListedSnapshot| {
        s.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    if ctx.printer.json {
        let rows: Vec<serde_json::Value> = snaps
            .iter()
            .map(|(kind, s)| {
                let mut v = serde_json::to_value(s).unwrap_or_default();
                v["id"] = json!(id_of(s));
                if args.repository.is_none() {
                    v["kind"] = json!(kind);
                }
                v
            })
            .collect();
        let mut doc = json!({
            "repositoryPath": repositories[0].1,
            "snapshots": rows,
            "staging": staging,
        });
        if args.repository.is_none() {
            doc["repositories"] = json!(repositories
                .iter()
                .map(|(k, p)| json!({"kind": k, "path": p}))
                .collect::<Vec<_>>());
        }
        ctx.printer.json_data(&doc)?;
        return Ok(Outcome::Done);
    }
    if snaps.is_empty() {
        ctx.printer.info(format!(
            "no snapshots in {}",
            repositories
                .iter()
                .map(|(_, p)| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        return Ok(Outcome::Done);
    }
    use crate::cli::table::Column;
    let mut t = ctx.printer.table(&[
        Column::id("ID"),
        Column::data("KIND").drop(3),
        Column::data("STATE").drop(1),
        Column::data("CREATED").drop(4),
        Column::data("DATABASE"),
        Column::data("SIZE").drop(2),
    ]);
    for (kind, s) in &snaps {
        let (created, db, size) = describe(&s.manifest);
        t.add_row(vec![
            id_of(s),
            kind.to_string(),
            crate::cli::printer::word(&s.state),
            created,
            db,
            size,
        ]);
    }
    ctx.printer.print_table(&t)?;
    Ok(Outcome::Done)
}

fn verify(ctx: &Ctx, args: &VerifyArgs) -> anyhow::Result<Outcome> {
    let repository = repository(ctx, &args.repository)?;
    // No snapshot named: every snapshot of the repository. A bare name that is not a path
    // here is looked up in the repository (the names `backup list` shows).
    let snapshots: Vec<PathBuf> = if args.snapshots.is_empty() {
        let all: Vec<PathBuf> = list_snapshots(&repository)?
            .into_iter()
            .filter(|s| s.state != SnapshotState::Staging)
            .map(|s| s.path)
            .collect();
        if all.is_empty() {
            return Err(openclaw_sessions::Error::not_found(
                format!("no snapshot in {}", repository.display()),
                Some("name a snapshot directory, or a repository with --repository DIR".into()),
            )
            .into());
        }
        all
    } else {
        let repositories = lookup_repositories(ctx, &args.repository)?;
        args.snapshots
            .iter()
            .map(|p| {
                if p.exists() {
                    return p.clone();
                }
                // An id, a prefix or `latest`; what names nothing is reported as missing.
                find_snapshot(p, &repositories).unwrap_or_else(|_| p.clone())
            })
            .collect()
    };
    // Nothing there at all is not found (exit 4); some of several missing is a partial
    // result reported per snapshot (exit 3).
    if snapshots.iter().all(|p| !p.exists()) {
        let names: Vec<_> = snapshots.iter().map(|p| p.display().to_string()).collect();
        return Err(openclaw_sessions::Error::not_found(
            format!("no snapshot at {}", names.join(", ")),
            Some("name a snapshot directory (backup list shows them)".to_string()),
        )
        .into());
    }
    let reports: Vec<_> = snapshots.iter().map(|p| verify_snapshot(p)).collect();
    let failed = reports.iter().filter(|r| !r.ok).count();
    if failed > 0 {
        ctx.printer.fail(
            crate::cli::exit::ErrorCode::Findings,
            format!(
                "{failed} of {} snapshot(s) failed verification",
                reports.len()
            ),
            None,
        );
    }
    if ctx.printer.json {
        ctx.printer.json_data(&json!({ "results": reports }))?;
    } else {
        for r in &reports {
            if r.ok {
                ctx.printer
                    .out(&format!("ok      {}\n", r.path.display()))?;
            } else {
                ctx.printer
                    .out(&format!("FAILED  {}\n", r.path.display()))?;
                for p in &r.problems {
                    ctx.printer.out(&format!("        {p}\n"))?;
                }
            }
        }
    }
    Ok(Outcome::Done)
}

fn restore(ctx: &Ctx, args: &RestoreArgs) -> anyhow::Result<Outcome> {
    let snapshot = named_snapshot(ctx, &args.snapshot)?;
    let args = &RestoreArgs {
        snapshot,
        target: args.target.clone(),
        in_place: args.in_place,
        session: args.session.clone(),
        replace: args.replace,
        wait: args.wait,
        dry_run: args.dry_run,
        backup_dir: args.backup_dir.clone(),
        allow_schema_change: args.allow_schema_change,
    };
    if let Some(target) = &args.target {
        let manifest = restore_fresh(&args.snapshot, target)?;
        ctx.printer.info(format!(
            "restored {} to {}",
            manifest.snapshot_id,
            target.display()
        ));
        if ctx.printer.json {
            ctx.printer
                .json_data(&json!({"target": target, "manifest": manifest}))?;
        }
        return Ok(Outcome::Done);
    }
    if let Some(words) = &args.session {
        return restore_session(ctx, args, words);
    }
    let mut op = RestoreOp {
        snapshot: args.snapshot.clone(),
        agents: ctx.global.agents.clone(),
        allow_schema_change: args.allow_schema_change,
    };
    let mutation = MutationArgs::new(args.dry_run, args.wait, args.backup_dir.clone());
    let Some(run) = run_op(ctx, &mut op, &mutation, "restore")? else {
        return Ok(Outcome::Done);
    };
    let target = run.plan.source.db().to_path_buf();
    let previous = run.snapshot_of(&target).map(|p| p.to_path_buf());
    if run.state == RunState::DryRun {
        if ctx.printer.json {
            ctx.printer.json_data(&json!({
                "target": target,
                "manifest": run.plan.manifest,
                "applied": false,
                "plan": run.summary,
            }))?;
        } else {
            print_dry_run(ctx, &run.summary)?;
        }
        return Ok(Outcome::Done);
    }
    let manifest = run.plan.manifest;
    match &previous {
        Some(before) => ctx.printer.info(format!(
            "restored {} over {}; the previous database is in {}",
            manifest.snapshot_id,
            target.display(),
            before.display()
        )),
        None => ctx.printer.info(format!(
            "restored {} to {}",
            manifest.snapshot_id,
            target.display()
        )),
    }
    if ctx.printer.json {
        ctx.printer.json_data(
            &json!({"target": target, "manifest": manifest, "previous": previous, "applied": true}),
        )?;
    }
    Ok(Outcome::Done)
}

/// `backup restore SNAPSHOT --session KEY|ID`.
fn restore_session(ctx: &Ctx, args: &RestoreArgs, words: &str) -> anyhow::Result<Outcome> {
    let mut op = RestoreSessionOp {
        snapshot: args.snapshot.clone(),
        words: words.to_string(),
        allow_schema_change: args.allow_schema_change,
        replace: args.replace,
    };
    let mutation = MutationArgs::new(args.dry_run, args.wait, args.backup_dir.clone());
    let Some(run) = run_op(ctx, &mut op, &mutation, "restore")? else {
        return Ok(Outcome::Done);
    };
    let p = &run.plan.plan;
    let applied = run.state == RunState::Applied;
    if ctx.printer.json {
        ctx.printer.json_data(&json!({
            "applied": applied,
            "agentId": p.agent_id,
            "sessionKey": p.session_key,
            "sessionId": p.session_id,
            "windows": p.windows,
            "events": p.events,
            "rows": run.report.as_ref().map(|r| r.rows),
            "replaced": run.plan.replaced.as_ref().map(|(_, set)| {
                set.agents.iter().flat_map(|a| &a.plans).map(|d| json!({
                    "sessionKey": d.session_key,
                    "archive": d.generations,
                })).collect::<Vec<_>>()
            }),
            "manifest": run.plan.manifest,
            "snapshot": run.snapshot_of(&run.plan.agent.db),
        }))?;
    } else if run.state == RunState::DryRun {
        print_dry_run(ctx, &run.summary)?;
    } else {
        ctx.printer.out(&format!(
            "{} session {} ({}, {} events) from {}\n",
            if run.plan.replaced.is_some() {
                "replaced"
            } else {
                "restored"
            },
            p.session_key,
            p.session_id,
            p.events,
            run.plan.manifest.snapshot_id
        ))?;
    }
    Ok(Outcome::Done)
}
