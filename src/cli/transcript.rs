use std::ops::ControlFlow;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::Value;

use openclaw_sessions::store::{AgentStore, SessionLookup};
use openclaw_sessions::transcript::branch::active_path;
use openclaw_sessions::transcript::catalog::catalog_page;
use openclaw_sessions::transcript::delta::{raw_delta, visible_delta, DeltaLimits};
use openclaw_sessions::transcript::export::{export_jsonl, export_markdown};
use openclaw_sessions::transcript::TranscriptSource;
use openclaw_sessions::Error;

use super::exit::Outcome;
use super::Ctx;

#[derive(Debug, Subcommand)]
pub enum TranscriptCommand {
    /// Print events as JSON Lines, each line the stored event JSON byte for byte.
    Cat(CatArgs),
    /// One bounded page of events with an opaque cursor.
    Delta(DeltaArgs),
    /// Newest-first pages of user and assistant text.
    Catalog(CatalogArgs),
    /// Write the transcript as legacy JSONL (re-importable) or Markdown.
    Export(ExportArgs),
}

impl TranscriptCommand {
    pub fn name(&self) -> &'static str {
        match self {
            TranscriptCommand::Cat(_) => "transcript cat",
            TranscriptCommand::Delta(_) => "transcript delta",
            TranscriptCommand::Catalog(_) => "transcript catalog",
            TranscriptCommand::Export(_) => "transcript export",
        }
    }
}

#[derive(Debug, Args)]
pub struct CatArgs {
    /// The session: a key, `main`, a key without its agent prefix, a session id or a unique
    /// id prefix of 8+ characters.
    #[arg(value_name = "KEY|SESSION_ID")]
    session: String,
    /// Read this transcript generation of the session instead of the current one.
    #[arg(long, value_name = "SESSION_ID")]
    window: Option<String>,
    /// Only the active branch's user and assistant messages and tool results.
    #[arg(long)]
    visible: bool,
    /// Start at this sequence number.
    #[arg(long, value_name = "N", default_value_t = 0)]
    from_seq: i64,
    /// At most N events.
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
}

#[derive(Debug, Args)]
pub struct DeltaArgs {
    /// The session: a key, `main`, a key without its agent prefix, a session id or a unique
    /// id prefix of 8+ characters.
    #[arg(value_name = "KEY|SESSION_ID")]
    session: String,
    /// Continue after the page this cursor came from (the `cursor` of the last page; one
    /// from another store or session answers `reset`).
    #[arg(long, value_name = "CURSOR")]
    cursor: Option<String>,
    /// Events per page (1..=10000, default 1000).
    #[arg(long, value_name = "N")]
    max_events: Option<u64>,
    /// Serialized bytes per page (1..=67108864, default 1000000).
    #[arg(long, value_name = "B")]
    max_bytes: Option<u64>,
    /// Active-branch messages instead of raw events.
    #[arg(long)]
    visible: bool,
}

#[derive(Debug, Args)]
pub struct CatalogArgs {
    /// The session: a key, `main`, a key without its agent prefix, a session id or a unique
    /// id prefix of 8+ characters.
    #[arg(value_name = "KEY|SESSION_ID")]
    session: String,
    /// Continue with the older page this cursor came from (the `cursor` of the last page).
    #[arg(long, value_name = "CURSOR")]
    cursor: Option<String>,
    /// Items per page (1..=200, default 50).
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ExportFormat {
    Jsonl,
    Markdown,
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The session: a key, `main`, a key without its agent prefix, a session id or a unique
    /// id prefix of 8+ characters.
    #[arg(value_name = "KEY|SESSION_ID")]
    session: String,
    /// jsonl: the legacy transcript format, header first, that OpenClaw's import accepts;
    /// markdown: readable text.
    #[arg(long, value_enum)]
    format: ExportFormat,
    /// Write to FILE (created 0600, never overwritten) instead of stdout.
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

fn open(ctx: &Ctx, arg: &str) -> anyhow::Result<(AgentStore, SessionLookup)> {
    let layout = ctx.layout()?;
    Ok(ctx.find_session(&layout, arg)?)
}

/// The generation to read: `--window`, else the one the argument named.
fn source_for(
    store: &AgentStore,
    found: &SessionLookup,
    window: Option<&str>,
) -> anyhow::Result<TranscriptSource> {
    let session_id = match window {
        None => found.session_id.clone(),
        Some(w) => {
            let belongs = w == found.entry.session_id()
                || store
                    .windows(&found.entry)?
                    .iter()
                    .any(|x| x.row.session_id == w && x.row.session_key == found.entry.key);
            if !belongs {
                return Err(Error::not_found(
                    format!("session {} has no transcript window {w}", found.entry.key),
                    Some("`openclaw-sessions show KEY` lists the windows".to_string()),
                )
                .into());
            }
            w.to_string()
        }
    };
    Ok(TranscriptSource::for_session(store, &session_id)?)
}

pub fn run(ctx: &Ctx, cmd: &TranscriptCommand) -> anyhow::Result<Outcome> {
    match cmd {
        TranscriptCommand::Cat(a) => cat(ctx, a),
        TranscriptCommand::Delta(a) => delta(ctx, a),
        TranscriptCommand::Catalog(a) => catalog(ctx, a),
        TranscriptCommand::Export(a) => export(ctx, a),
    }
}

fn cat(ctx: &Ctx, args: &CatArgs) -> anyhow::Result<Outcome> {
    let (store, found) = open(ctx, &args.session)?;
    let source = source_for(&store, &found, args.window.as_deref())?;
    let branch: Option<std::collections::HashSet<i64>> = if args.visible {
        Some(
            active_path(&store, &source)?
                .into_iter()
                .map(|a| a.seq)
                .collect(),
        )
    } else {
        None
    };
    let mut out = ctx.printer.stream();
    let mut left = args.limit.unwrap_or(u64::MAX);
    let mut failure: Option<anyhow::Error> = None;
    let result = source.for_each(&store, args.from_seq, &mut |ev| {
        if left == 0 {
            return Ok(ControlFlow::Break(()));
        }
        if let Some(on_branch) = &branch {
            if !on_branch.contains(&ev.seq) || !is_visible(&ev.json) {
                return Ok(ControlFlow::Continue(()));
            }
        }
        if let Err(e) = out.line(&ev.json) {
            failure = Some(e);
            return Ok(ControlFlow::Break(()));
        }
        left -= 1;
        Ok(ControlFlow::Continue(()))
    });
    if let Some(e) = failure {
        return Err(e);
    }
    out.finish()?;
    result?;
    Ok(Outcome::Done)
}

fn is_visible(json: &str) -> bool {
    let Ok(v) = serde_json::from_str::<Value>(json) else {
        return false;
    };
    v.get("type").and_then(Value::as_str) == Some("message")
        && matches!(
            v.pointer("/message/role").and_then(Value::as_str),
            Some("user" | "assistant" | "toolResult")
        )
}

fn print_data<T: serde::Serialize>(ctx: &Ctx, data: &T) -> anyhow::Result<()> {
    if ctx.printer.json {
        ctx.printer.json_data(data)
    } else {
        ctx.printer
            .out_json_text(&format!("{}\n", serde_json::to_string(data)?))
    }
}

fn delta(ctx: &Ctx, args: &DeltaArgs) -> anyhow::Result<Outcome> {
    let limits = DeltaLimits::new(args.max_events, args.max_bytes)?;
    let (store, found) = open(ctx, &args.session)?;
    let source = source_for(&store, &found, None)?;
    if args.visible {
        let page = visible_delta(&store, &source, args.cursor.as_deref(), limits)?;
        // Visible pages carry messages, not raw events.
        let mut v = serde_json::to_value(&page)?;
        if let Some(obj) = v.as_object_mut() {
            if let Some(items) = obj.shift_remove("events") {
                obj.insert("messages".into(), items);
            }
        }
        print_data(ctx, &v)?;
    } else {
        print_data(
            ctx,
            &raw_delta(&store, &source, args.cursor.as_deref(), limits)?,
        )?;
    }
    Ok(Outcome::Done)
}

fn catalog(ctx: &Ctx, args: &CatalogArgs) -> anyhow::Result<Outcome> {
    let (store, found) = open(ctx, &args.session)?;
    let page = catalog_page(&store, &found.entry, args.cursor.as_deref(), args.limit)?;
    if let Some(cold) = &page.cold {
        ctx.printer.warn(format!(
            "transcript {} is in cold storage ({}, {} events); this tool does not restore it",
            cold.session_id, cold.archive_name, cold.event_count
        ));
    }
    print_data(ctx, &page)?;
    Ok(Outcome::Done)
}

fn export(ctx: &Ctx, args: &ExportArgs) -> anyhow::Result<Outcome> {
    let (store, found) = open(ctx, &args.session)?;
    let source = source_for(&store, &found, None)?;
    let mut write = |w: &mut dyn std::io::Write| -> openclaw_sessions::Result<()> {
        match args.format {
            ExportFormat::Jsonl => export_jsonl(&store, &source, w).map(|_| ()),
            ExportFormat::Markdown => export_markdown(&store, &found.entry, &source, w).map(|_| ()),
        }
    };
    match &args.output {
        Some(path) => {
            openclaw_sessions::fsutil::write_new_file(path, &mut write)?;
            ctx.printer.info(format!("wrote {}", path.display()));
            if ctx.printer.json {
                ctx.printer
                    .json_data(&serde_json::json!({"path": path, "sessionKey": found.entry.key}))?;
            }
        }
        None => ctx
            .printer
            .export(args.format == ExportFormat::Markdown, &mut write)?,
    }
    Ok(Outcome::Done)
}
