//! `bundle export FILE KEY...` and `bundle import FILE`: sessions moved or copied between
//! agents, state dirs, hosts and releases in one verified file (docs/BUNDLE.md;
//! `openclaw_sessions::history::bundle`, `openclaw_sessions::ops::bundle_import`).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use openclaw_sessions::history::bundle::{export_bundle, ExportSession};
use openclaw_sessions::mutate::bundle::ImportNames;
use openclaw_sessions::ops::bundle_import::BundleImportOp;
use openclaw_sessions::ops::RunState;
use openclaw_sessions::Error;

use crate::cli::exit::Outcome;
use crate::cli::mutation::{print_dry_run, run_op, selection, MutationArgs};
use crate::cli::shown::value;
use crate::cli::Ctx;

/// How `bundle import` runs, for `--help`.
const IMPORT_RUNS: &str = "\
Verifies the whole bundle first (format version, every session's sha256 and event count, the \
whole file's sha256; a newer format, a flipped byte or a truncated file is refused with exit 6 \
and nothing changed). Runs under offline custody of the state dir (exit 75 while a Gateway \
owns it). -n/--dry-run prints the plan and changes nothing; on a terminal the plan is shown and \
confirmed (default no). Without a terminal, or with --json, -y/--yes is needed (exit 2, \
CONFIRMATION_REQUIRED). A taken key or session id is refused (exit 5) unless --as KEY or \
--new-ids. One transaction: every session comes in whole or none does. Snapshot: only with \
--backup-dir DIR.";

#[derive(Debug, Subcommand)]
pub enum BundleCommand {
    /// Write sessions (entry and whole transcript) into one verified, portable file.
    Export(ExportArgs),
    /// Bring a bundle's sessions into an agent, as its release holds sessions created there.
    #[command(after_help = IMPORT_RUNS)]
    Import(ImportArgs),
}

impl BundleCommand {
    pub fn name(&self) -> &'static str {
        match self {
            BundleCommand::Export(_) => "bundle export",
            BundleCommand::Import(_) => "bundle import",
        }
    }
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The bundle to write (created 0600, never overwritten), or `-` for stdout.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Sessions to export: keys, bare keys, `main` or session ids, all of one agent.
    #[arg(value_name = "KEY", required = true)]
    keys: Vec<String>,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The bundle to import (a file: it is read twice, verified before anything changes).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Import the bundle's one session under this key (with or without `agent:<id>:`).
    #[arg(long = "as", value_name = "KEY")]
    as_key: Option<String>,
    /// Give every imported session a new session id (entry and transcript header), as
    /// OpenClaw creates one.
    #[arg(long)]
    new_ids: bool,
    #[command(flatten)]
    mutation: MutationArgs,
}

pub fn run(ctx: &Ctx, cmd: &BundleCommand) -> anyhow::Result<Outcome> {
    match cmd {
        BundleCommand::Export(args) => export(ctx, args),
        BundleCommand::Import(args) => import(ctx, args),
    }
}

fn export(ctx: &Ctx, args: &ExportArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    let mut store = None;
    let mut sessions: Vec<ExportSession> = Vec::new();
    for words in &args.keys {
        // A stored key as typed (the resolver's first rule) is looked up in the store already
        // open: `list --json` gives keys so, a thousand at a time.
        if let Some(first) = &store {
            let first: &openclaw_sessions::store::AgentStore = first;
            if let Some(entry) = first.entry_by_exact_key(words)? {
                if !sessions.iter().any(|x| x.key == entry.key) {
                    sessions.push(ExportSession {
                        session_id: entry.session_id().to_string(),
                        key: entry.key,
                    });
                }
                continue;
            }
        }
        let (s, found) = ctx.find_session(&layout, words)?;
        if found.session_id != found.entry.session_id() {
            return Err(Error::InvalidArgument {
                message: format!(
                    "{words:?} names an earlier transcript of {}; a bundle holds a session's current one",
                    found.entry.key
                ),
                hint: Some("name the session by its key".into()),
            }
            .into());
        }
        if let Some(first) = &store {
            let first: &openclaw_sessions::store::AgentStore = first;
            if first.paths.id != s.paths.id {
                return Err(Error::InvalidArgument {
                    message: format!(
                        "{words:?} is a session of agent {}, the others of {}",
                        s.paths.id, first.paths.id
                    ),
                    hint: Some("export each agent's sessions into a bundle of their own".into()),
                }
                .into());
            }
        }
        if !sessions.iter().any(|x| x.key == found.entry.key) {
            sessions.push(ExportSession {
                key: found.entry.key.clone(),
                session_id: found.session_id.clone(),
            });
        }
        if store.is_none() {
            store = Some(s);
        }
    }
    let store = store.ok_or_else(|| anyhow::anyhow!("no session named"))?;
    let created_by = format!("openclaw-sessions {}", env!("CARGO_PKG_VERSION"));
    let now = openclaw_sessions::test_hooks::now_ms();
    let mut report = None;
    let mut write = |w: &mut dyn std::io::Write| -> openclaw_sessions::Result<()> {
        report = Some(export_bundle(&store, &sessions, w, &created_by, now)?);
        Ok(())
    };
    let to_stdout = args.file.as_os_str() == "-";
    if to_stdout {
        ctx.printer.export(false, &mut write)?;
    } else {
        openclaw_sessions::fsutil::write_new_file(&args.file, &mut write)?;
    }
    let report = report.ok_or_else(|| anyhow::anyhow!("nothing written"))?;
    let m = &report.manifest;
    let events: u64 = m.sessions.iter().map(|s| s.events).sum();
    let paths: usize = m.sessions.iter().map(|s| s.absolute_paths.len()).sum();
    if ctx.printer.json && !to_stdout {
        ctx.printer.json_data(&serde_json::json!({
            "path": args.file,
            "bytes": report.bytes,
            "manifest": m,
        }))?;
        return Ok(Outcome::Done);
    }
    let line = format!(
        "exported {} ({} events) of agent {} into {} ({} bytes)",
        openclaw_sessions::ops::summary::count(m.sessions.len(), "session"),
        events,
        value(&m.source.agent_id),
        value(&args.file.display().to_string()),
        report.bytes
    );
    ctx.printer.info(line);
    if paths > 0 {
        ctx.printer.info(format!(
            "the entries name {paths} absolute path(s) of this machine (listed in the manifest)"
        ));
    }
    Ok(Outcome::Done)
}

fn import(ctx: &Ctx, args: &ImportArgs) -> anyhow::Result<Outcome> {
    if args.file.as_os_str() == "-" {
        return Err(Error::InvalidArgument {
            message: "a bundle is imported from a file: it is read to its end and verified before anything changes, then read again".into(),
            hint: Some("save it first (bundle export writes to a file, or `> FILE`)".into()),
        }
        .into());
    }
    let now = openclaw_sessions::test_hooks::now_ms();
    let mut op = BundleImportOp::new(
        selection(ctx)?,
        args.file.clone(),
        ImportNames {
            as_key: args.as_key.clone(),
            new_ids: args.new_ids,
        },
        now,
    );
    let Some(run) = run_op(ctx, &mut op, &args.mutation, "bundle import")? else {
        return Ok(Outcome::Done);
    };
    let p = &run.plan.plan;
    if ctx.printer.json {
        ctx.printer.json_data(&serde_json::json!({
            "applied": run.state == RunState::Applied,
            "dryRun": run.state == RunState::DryRun,
            "agentId": p.agent_id,
            "bundle": p.bundle,
            "source": p.manifest.source,
            "sessions": p.sessions,
            "events": run.report.as_ref().map(|r| r.events),
            "compressedEvents": run.report.as_ref().map(|r| r.compressed),
            "snapshot": run.snapshot_of(&run.plan.agent.db),
        }))?;
        return Ok(Outcome::Done);
    }
    if run.state == RunState::DryRun {
        print_dry_run(ctx, &run.summary)?;
        return Ok(Outcome::Done);
    }
    for s in &p.sessions {
        ctx.printer.out(&format!(
            "imported {} ({}): {} events\n",
            value(&s.key),
            value(&s.session_id),
            s.events
        ))?;
    }
    Ok(Outcome::Done)
}
