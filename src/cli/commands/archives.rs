//! `archives list|cat|export`: archived transcripts wherever OpenClaw left them
//! (`openclaw_sessions::history`).

use std::ops::ControlFlow;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use openclaw_sessions::history::{
    archives_named, archives_of, for_each_archive, pick, ArchiveFilter, ArchivedTranscript, Reason,
};
use openclaw_sessions::store::{AgentStore, SessionEntry};
use openclaw_sessions::transcript::export::{export_jsonl, export_markdown};
use openclaw_sessions::units::{format_bytes, iso_from_ms};
use openclaw_sessions::Error;

use super::transcript::{print_events, ExportFormat};
use crate::cli::exit::Outcome;
use crate::cli::printer::word;
use crate::cli::table::Column;
use crate::cli::Ctx;

#[derive(Debug, Subcommand)]
pub enum ArchivesCommand {
    /// One row per archived transcript: archive rows and their files, legacy
    /// .reset/.deleted/.bak files, the import archive, cold archives.
    List(ListArgs),
    /// Print an archived transcript's events as JSON Lines, byte for byte (zstd decoded).
    Cat(CatArgs),
    /// Write an archived transcript as legacy JSONL (re-importable) or Markdown.
    Export(ExportArgs),
}

impl ArchivesCommand {
    pub fn name(&self) -> &'static str {
        match self {
            ArchivesCommand::List(_) => "archives list",
            ArchivesCommand::Cat(_) => "archives cat",
            ArchivesCommand::Export(_) => "archives export",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ReasonArg {
    Deleted,
    Reset,
    Bak,
    Imported,
    Cold,
}

impl From<ReasonArg> for Reason {
    fn from(r: ReasonArg) -> Self {
        match r {
            ReasonArg::Deleted => Reason::Deleted,
            ReasonArg::Reset => Reason::Reset,
            ReasonArg::Bak => Reason::Bak,
            ReasonArg::Imported => Reason::Imported,
            ReasonArg::Cold => Reason::Cold,
        }
    }
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[command(flatten)]
    pub output: crate::cli::context::TableOutput,
    /// Only archives of this session key (with or without `agent:<id>:`) or session id
    /// (or an 8+ character id prefix).
    #[arg(long, value_name = "KEY|SESSION_ID")]
    session: Option<String>,
    /// Only archives of this reason (repeatable).
    #[arg(long, value_enum, value_name = "REASON")]
    reason: Vec<ReasonArg>,
}

/// What ARCHIVE names, shared by `cat` and `export`.
const ARCHIVE_HELP: &str = "An archive's name as `archives list` shows it (its file name, e.g. \
<id>.jsonl.deleted.<stamp>.<generation>.zst), a path to an archive file, or a session id or key, whole or bare (its newest archive). \
Searched in the selected agents (--agent, --all-agents).";

#[derive(Debug, Args)]
pub struct CatArgs {
    #[arg(value_name = "ARCHIVE", help = ARCHIVE_HELP)]
    archive: String,
    /// Start at this sequence number (the event's position in the archive).
    #[arg(long, value_name = "N", default_value_t = 0)]
    from_seq: i64,
    /// At most N events.
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[arg(value_name = "ARCHIVE", help = ARCHIVE_HELP)]
    archive: String,
    /// jsonl: the legacy transcript format, header first, that OpenClaw's import accepts;
    /// markdown: readable text.
    #[arg(long, value_enum)]
    format: ExportFormat,
    /// Write to FILE (created 0600, never overwritten) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

pub fn run(ctx: &Ctx, cmd: &ArchivesCommand) -> anyhow::Result<Outcome> {
    match cmd {
        ArchivesCommand::List(a) => list(ctx, a),
        ArchivesCommand::Cat(a) => cat(ctx, a),
        ArchivesCommand::Export(a) => export(ctx, a),
    }
}

/// Every selected agent's store with its archives that `words` may name (all of them
/// without words).
fn gather(
    ctx: &Ctx,
    words: Option<&str>,
) -> anyhow::Result<Vec<(AgentStore, Vec<ArchivedTranscript>)>> {
    let layout = ctx.layout()?;
    let mut out = Vec::new();
    for paths in ctx.agents(&layout)? {
        let store = ctx.open_store(paths)?;
        let found = match words {
            Some(w) => archives_named(&store, w)?,
            None => archives_of(&store)?,
        };
        out.push((store, found));
    }
    Ok(out)
}

fn list(ctx: &Ctx, args: &ListArgs) -> anyhow::Result<Outcome> {
    let filter = ArchiveFilter {
        session: args.session.clone(),
        reasons: args.reason.iter().map(|r| Reason::from(*r)).collect(),
    };
    // One walk of each agent's archives, one archive at a time: counting events reads every
    // archive, and each JSON row is written as soon as it is counted (text rows are kept for
    // the table's column widths). Every store is opened first, so that the likeliest
    // failures (a store that cannot be opened) come before the first row; an error after
    // it is one more line after the rows (`Printer::json_rows`).
    let layout = ctx.layout()?;
    let agents = ctx.listed_agents(&layout)?;
    for paths in &agents {
        drop(ctx.open_store(paths.clone())?);
    }
    let mut json = if ctx.printer.json {
        Some(ctx.printer.json_rows()?)
    } else {
        None
    };
    let mut rows = Vec::new();
    let mut failure: Option<anyhow::Error> = None;
    for paths in agents {
        // Opened again without its warnings: the first opening gave them.
        let store = AgentStore::open(paths)?;
        for_each_archive(&store, &mut |mut a| {
            if !filter.matches(&a) {
                return ControlFlow::Continue(());
            }
            a.count_events(&store);
            a.find_kept_entry(&layout.state_dir);
            if let Some(p) = &a.problem {
                ctx.printer
                    .warn(format!("archive {} of agent {}: {p}", a.name, a.agent_id));
            }
            match json.as_mut() {
                Some(out) => {
                    if let Err(e) = out.push(&a) {
                        failure = Some(e);
                        return ControlFlow::Break(());
                    }
                }
                None => rows.push(a),
            }
            ControlFlow::Continue(())
        })?;
        if let Some(e) = failure {
            return Err(e);
        }
    }
    if let Some(out) = json {
        out.finish_with(&[])?;
        return Ok(Outcome::Done);
    }
    if rows.is_empty() {
        ctx.printer.info("no archived transcripts");
        return Ok(Outcome::Done);
    }
    // NAME is what `undelete` and `archives cat|export` take: never cut. The other columns
    // go, least useful first, on a narrow terminal (src/cli/table.rs).
    let agents: std::collections::BTreeSet<&str> =
        rows.iter().map(|a| a.agent_id.as_str()).collect();
    let agent = if agents.len() > 1 {
        Column::id("AGENT")
    } else {
        Column::data("AGENT").drop(0)
    };
    let mut t = ctx.printer.table(&[
        agent,
        Column::data("SESSION ID").drop(3),
        Column::data("KEY").drop(8),
        Column::data("REASON").drop(6),
        Column::data("ARCHIVED").drop(4),
        Column::data("SIZE").drop(5),
        Column::data("EVENTS").drop(2),
        Column::data("ROW/FILE").drop(1),
        Column::data("ENTRY").drop(7),
        Column::id("NAME"),
    ]);
    for a in &rows {
        t.add_row(vec![
            a.agent_id.clone(),
            a.session_id.clone(),
            a.session_key.clone().unwrap_or_else(|| "-".into()),
            a.reason.as_str().to_string(),
            a.archived_at.map(iso_from_ms).unwrap_or_else(|| "-".into()),
            format_bytes(a.bytes),
            a.events
                .map(|n| n.to_string())
                .unwrap_or_else(|| "unreadable".into()),
            word(&a.agreement),
            if a.kept_entry.is_some() { "kept" } else { "-" }.to_string(),
            a.name.clone(),
        ]);
    }
    ctx.printer.print_table(&t)?;
    Ok(Outcome::Done)
}

/// The one archive ARCHIVE names, with its store.
fn find(ctx: &Ctx, words: &str) -> anyhow::Result<(AgentStore, ArchivedTranscript)> {
    // Only the archives the words may name are kept: one agent's archives at a time.
    let mut all = gather(ctx, Some(words))?;
    let flat: Vec<ArchivedTranscript> = all.iter_mut().flat_map(|(_, f)| f.drain(..)).collect();
    let chosen = pick(&flat, words)?.clone();
    let i = all
        .iter()
        .position(|(s, _)| s.paths.id.as_str() == chosen.agent_id)
        .ok_or_else(|| Error::Internal("archive lost its agent".into()))?;
    let (store, _) = all.swap_remove(i);
    Ok((store, chosen))
}

fn cat(ctx: &Ctx, args: &CatArgs) -> anyhow::Result<Outcome> {
    let (store, archive) = find(ctx, &args.archive)?;
    let source = archive.source();
    print_events(ctx, &store, &source, args.from_seq, args.limit, &|_, _| {
        true
    })
}

fn export(ctx: &Ctx, args: &ExportArgs) -> anyhow::Result<Outcome> {
    let (store, archive) = find(ctx, &args.archive)?;
    let source = archive.source();
    // Markdown titles the transcript after its session; an archive keeps only its key and id.
    let key = archive
        .session_key
        .clone()
        .unwrap_or_else(|| archive.session_id.clone());
    let entry = SessionEntry::from_value(
        &key,
        serde_json::json!({"sessionId": archive.session_id, "updatedAt": archive.archived_at.unwrap_or(0)}),
    )
    .map_err(|e| Error::Internal(e.to_string()))?;
    let mut write = |w: &mut dyn std::io::Write| -> openclaw_sessions::Result<()> {
        match args.format {
            ExportFormat::Jsonl => export_jsonl(&store, &source, w).map(|_| ()),
            ExportFormat::Markdown => export_markdown(&store, &entry, &source, w).map(|_| ()),
        }
    };
    match &args.output {
        Some(path) => {
            openclaw_sessions::fsutil::write_new_file(path, &mut write)?;
            ctx.printer.info(format!("wrote {}", path.display()));
            if ctx.printer.json {
                ctx.printer.json_data(
                    &serde_json::json!({"path": path, "archive": archive.name, "sessionId": archive.session_id}),
                )?;
            }
        }
        None => ctx
            .printer
            .export(args.format == ExportFormat::Markdown, &mut write)?,
    }
    Ok(Outcome::Done)
}
