use clap::Args;
use serde::Serialize;
use serde_json::Value;

use openclaw_sessions::store::{SessionKind, TranscriptStats};
use openclaw_sessions::units::{format_age, format_bytes, now_ms, parse_time_arg};

use super::exit::Outcome;
use super::Ctx;

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum SortKey {
    Updated,
    Created,
    Events,
    Bytes,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Only sessions updated within the last MINUTES.
    #[arg(long, value_name = "MINUTES")]
    active: Option<u64>,
    /// Only archived sessions.
    #[arg(long, conflicts_with = "no_archived")]
    archived: bool,
    /// Leave archived sessions out.
    #[arg(long)]
    no_archived: bool,
    /// Only sessions of this kind (repeatable).
    #[arg(long, value_enum, value_name = "KIND")]
    kind: Vec<SessionKind>,
    /// Only sessions whose key, label or display name contains TEXT (case-insensitive).
    #[arg(long = "match", value_name = "TEXT")]
    matches: Option<String>,
    /// Only sessions updated before TIME (epoch ms, ISO-8601, or an age like 7d).
    #[arg(long, value_name = "TIME")]
    updated_before: Option<String>,
    /// Only sessions updated after TIME.
    #[arg(long, value_name = "TIME")]
    updated_after: Option<String>,
    /// At most N rows, or `all`.
    #[arg(long, default_value = "100", value_name = "N|all")]
    limit: String,
    /// Newest first by this field.
    #[arg(long, value_enum, default_value_t = SortKey::Updated)]
    sort: SortKey,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListRow {
    agent_id: String,
    session_key: String,
    session_id: String,
    updated_at: i64,
    kind: SessionKind,
    label: Option<String>,
    display_name: Option<String>,
    archived: bool,
    pinned: bool,
    locked: bool,
    harness: Option<String>,
    model: Option<String>,
    transcript: TranscriptStats,
    entry: Value,
}

struct Row {
    agent: String,
    entry: openclaw_sessions::store::SessionEntry,
    stats: TranscriptStats,
}

fn parse_limit(raw: &str) -> openclaw_sessions::Result<Option<usize>> {
    if raw.eq_ignore_ascii_case("all") {
        return Ok(None);
    }
    match raw.parse::<usize>() {
        Ok(n) if n > 0 => Ok(Some(n)),
        _ => Err(openclaw_sessions::Error::usage(format!(
            "--limit must be a positive integer or \"all\", not {raw:?}"
        ))),
    }
}

pub fn run(ctx: &Ctx, args: &ListArgs) -> anyhow::Result<Outcome> {
    let now = now_ms();
    let limit = parse_limit(&args.limit)?;
    let before = args
        .updated_before
        .as_deref()
        .map(|t| parse_time_arg(t, now))
        .transpose()?;
    let after = args
        .updated_after
        .as_deref()
        .map(|t| parse_time_arg(t, now))
        .transpose()?;
    let needle = args.matches.as_ref().map(|m| m.to_lowercase());
    let layout = ctx.layout()?;
    let agents = ctx.agents(&layout)?;
    let mut rows: Vec<Row> = Vec::new();
    for paths in agents {
        let mut store = ctx.open_store(paths)?;
        let sessions = store.sessions()?;
        ctx.flush_warnings(&mut store);
        let mut selected: Vec<_> = sessions
            .into_iter()
            .filter(|e| {
                args.active
                    .is_none_or(|m| e.updated_at() >= now - (m as i64) * 60_000)
            })
            .filter(|e| (!args.archived || e.archived()) && (!args.no_archived || !e.archived()))
            .filter(|e| args.kind.is_empty() || args.kind.contains(&e.kind()))
            .filter(|e| needle.as_deref().is_none_or(|n| e.matches(n)))
            .filter(|e| before.is_none_or(|b| e.updated_at() < b))
            .filter(|e| after.is_none_or(|a| e.updated_at() > a))
            .collect();
        // OpenClaw's order within an agent: session key (byte order).
        selected.sort_by(|a, b| a.key.cmp(&b.key));
        for entry in selected {
            let stats = store.transcript_stats(entry.session_id())?;
            rows.push(Row {
                agent: store.paths.id.to_string(),
                entry,
                stats,
            });
        }
    }
    // Stable sort, newest first; ties keep agent order then key order (as OpenClaw).
    match args.sort {
        SortKey::Updated => rows.sort_by_key(|r| std::cmp::Reverse(r.entry.updated_at())),
        SortKey::Created => {
            rows.sort_by_key(|r| std::cmp::Reverse(r.entry.created_at().unwrap_or(0)))
        }
        SortKey::Events => rows.sort_by_key(|r| std::cmp::Reverse(r.stats.events)),
        SortKey::Bytes => rows.sort_by_key(|r| std::cmp::Reverse(r.stats.bytes)),
    }
    let total = rows.len();
    if let Some(n) = limit {
        rows.truncate(n);
    }
    if total > rows.len() && !ctx.printer.json {
        ctx.printer.info(format!(
            "showing {} of {total} sessions (use --limit all)",
            rows.len()
        ));
    }
    if ctx.printer.json {
        let data: Vec<ListRow> = rows
            .into_iter()
            .map(
                |Row {
                     agent,
                     entry: e,
                     stats,
                 }| {
                    ListRow {
                        agent_id: agent,
                        session_id: e.session_id().to_string(),
                        updated_at: e.updated_at(),
                        kind: e.kind(),
                        label: e.label().map(String::from),
                        display_name: e.display_name().map(String::from),
                        archived: e.archived(),
                        pinned: e.pinned(),
                        locked: e.locked(),
                        harness: e.harness().map(String::from),
                        model: e.model(),
                        transcript: stats,
                        entry: e.to_value(),
                        session_key: e.key,
                    }
                },
            )
            .collect();
        ctx.printer.json_data(&data)?;
        return Ok(Outcome::Done);
    }
    let mut t = ctx.printer.table(&[
        "AGENT",
        "KEY",
        "SESSION ID",
        "UPDATED",
        "NAME",
        "KIND",
        "HARNESS",
        "MODEL",
        "EVENTS",
        "BYTES",
        "FLAGS",
    ]);
    for Row {
        agent,
        entry: e,
        stats: s,
    } in &rows
    {
        let mut flags = Vec::new();
        if e.archived() {
            flags.push("archived");
        }
        if e.pinned() {
            flags.push("pinned");
        }
        if e.locked() {
            flags.push("locked");
        }
        t.add_row(vec![
            agent.clone(),
            e.key.clone(),
            e.session_id().to_string(),
            format!("{} ago", format_age(now - e.updated_at())),
            e.label().or(e.display_name()).unwrap_or("").to_string(),
            e.kind().to_string(),
            e.harness().unwrap_or("").to_string(),
            e.model().unwrap_or_default(),
            s.events.to_string(),
            format_bytes(s.bytes),
            flags.join(","),
        ]);
    }
    ctx.printer.print_table(&t)?;
    Ok(Outcome::Done)
}
