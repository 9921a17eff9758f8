use std::ops::ControlFlow;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use serde_json::Value;

use openclaw_sessions::store::{AgentStore, SessionLookup};
use openclaw_sessions::transcript::branch::active_path;
use openclaw_sessions::transcript::catalog::catalog_page;
use openclaw_sessions::transcript::delta::{raw_delta, visible_delta, DeltaLimits, DeltaPage};
use openclaw_sessions::transcript::export::{export_jsonl, export_markdown, text_of};
use openclaw_sessions::transcript::TranscriptSource;
use openclaw_sessions::Error;

use crate::cli::exit::Outcome;
use crate::cli::shown;
use crate::cli::Ctx;

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
    /// jsonl (the default): the legacy transcript format, header first, that OpenClaw's
    /// import accepts; markdown: readable text.
    #[arg(long, value_enum, default_value = "jsonl")]
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
    print_events(
        ctx,
        &store,
        &source,
        args.from_seq,
        args.limit,
        &|seq, json| {
            branch
                .as_ref()
                .is_none_or(|on| on.contains(&seq) && is_visible(json))
        },
    )
}

/// Print the stored events of `source` from `from_seq`, one JSON line each, up to `limit`
/// of those `keep` accepts (by seq and text); a closed pipe ends it quietly.
pub fn print_events(
    ctx: &Ctx,
    store: &AgentStore,
    source: &TranscriptSource,
    from_seq: i64,
    limit: Option<u64>,
    keep: &dyn Fn(i64, &str) -> bool,
) -> anyhow::Result<Outcome> {
    let mut out = ctx.printer.stream();
    let mut left = limit.unwrap_or(u64::MAX);
    let mut failure: Option<anyhow::Error> = None;
    let result = source.for_each(store, from_seq, &mut |ev| {
        if left == 0 {
            return Ok(ControlFlow::Break(()));
        }
        if !keep(ev.seq, &ev.json) {
            return Ok(ControlFlow::Continue(()));
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
    ctx.printer.json_data(data)
}

/// A stored time as a person reads it: `2026-06-01 08:00:00` (UTC), else as stored.
fn short_time(stored: Option<&str>) -> String {
    match stored {
        Some(t) if t.len() >= 19 && t.is_char_boundary(19) && t.as_bytes()[10] == b'T' => {
            t[..19].replacen('T', " ", 1)
        }
        Some(t) => t.to_string(),
        None => "-".into(),
    }
}

/// One turn on one line: time, role, and the text with its newlines read as spaces and its
/// controls escaped, cut at its end to a terminal's width (whole when piped or `--wide`).
fn turn_line(ctx: &Ctx, head: &str, role: &str, text: &str) -> String {
    let text = shown::value(&text.replace('\n', " ")).into_owned();
    let line = format!("{head} {:<9} {text}", shown::value(role));
    format!("{}\n", ctx.printer.fit_prose(line.trim_end()))
}

/// A message event's role and text, from the stored event JSON (`message.role`,
/// `message.content`); other events by their type.
fn event_turn(json: &str) -> (String, String, Option<String>) {
    let v: Value = serde_json::from_str(json).unwrap_or(Value::Null);
    let time = v.get("timestamp").and_then(Value::as_str).map(String::from);
    match v.get("message") {
        Some(msg) => (
            msg.get("role")
                .and_then(Value::as_str)
                .unwrap_or("message")
                .to_string(),
            msg.get("content")
                .map(text_of)
                .unwrap_or_default()
                .join(" "),
            time,
        ),
        None => (
            v.get("type")
                .and_then(Value::as_str)
                .unwrap_or("event")
                .to_string(),
            String::new(),
            time,
        ),
    }
}

/// A delta page for people: one line a turn, then (on stderr) where the next read starts.
fn print_delta_page<T>(
    ctx: &Ctx,
    page: &DeltaPage<T>,
    line: impl Fn(&T) -> String,
) -> anyhow::Result<()> {
    match page {
        DeltaPage::Page {
            cursor,
            items,
            has_more,
            ..
        } => {
            let text: String = items.iter().map(line).collect();
            ctx.printer.out(&text)?;
            ctx.printer.info(if *has_more {
                format!("more events: --cursor {cursor}")
            } else {
                format!("up to date; new events later: --cursor {cursor}")
            });
        }
        DeltaPage::Reset { cursor, reason } => ctx.printer.info(format!(
            "the cursor no longer fits this transcript ({reason}); start again with --cursor {cursor}"
        )),
        DeltaPage::Missing => ctx.printer.info("no transcript"),
    }
    Ok(())
}

fn delta(ctx: &Ctx, args: &DeltaArgs) -> anyhow::Result<Outcome> {
    let limits = DeltaLimits::new(args.max_events, args.max_bytes)?;
    let (store, found) = open(ctx, &args.session)?;
    let source = source_for(&store, &found, None)?;
    if args.visible {
        let page = visible_delta(&store, &source, args.cursor.as_deref(), limits)?;
        if !ctx.printer.json {
            print_delta_page(ctx, &page, |m| {
                let msg: Value = serde_json::from_str(m.message.get()).unwrap_or(Value::Null);
                let text = msg.get("content").map(text_of).unwrap_or_default();
                let time = msg
                    .get("timestamp")
                    .and_then(Value::as_i64)
                    .map(openclaw_sessions::units::iso_from_ms);
                let time = m.created_at.clone().or(time);
                turn_line(
                    ctx,
                    &format!("#{} {}", m.seq, short_time(time.as_deref())),
                    &m.role,
                    &text.join(" "),
                )
            })?;
            return Ok(Outcome::Done);
        }
        // Visible pages carry messages, not raw events.
        let mut v = serde_json::to_value(&page)?;
        if let Some(obj) = v.as_object_mut() {
            if let Some(items) = obj.shift_remove("events") {
                obj.insert("messages".into(), items);
            }
        }
        print_data(ctx, &v)?;
    } else {
        let page = raw_delta(&store, &source, args.cursor.as_deref(), limits)?;
        if !ctx.printer.json {
            print_delta_page(ctx, &page, |e| {
                let (role, text, time) = event_turn(e.event.get());
                turn_line(
                    ctx,
                    &format!("#{} {}", e.seq, short_time(time.as_deref())),
                    &role,
                    &text,
                )
            })?;
            return Ok(Outcome::Done);
        }
        print_data(ctx, &page)?;
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
    if ctx.printer.json {
        print_data(ctx, &page)?;
        return Ok(Outcome::Done);
    }
    // Newest first, as the page is; one line a turn, then where the older page starts.
    let mut text = String::new();
    for item in &page.items {
        let role = match item.kind {
            "userMessage" => "user",
            "agentMessage" => "assistant",
            other => other,
        };
        text += &turn_line(
            ctx,
            &short_time(item.timestamp.as_deref()),
            role,
            &item.text,
        );
    }
    ctx.printer.out(&text)?;
    if let Some(next) = &page.next_cursor {
        ctx.printer.info(format!("older turns: --cursor {next}"));
    }
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
