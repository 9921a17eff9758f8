use clap::Args;

use openclaw_sessions::du::content::{content_use, ContentUse, Tally};
use openclaw_sessions::du::database::database_use;
use openclaw_sessions::du::sessions::{agent_sessions, SessionSort};
use openclaw_sessions::du::{agent_disk_use, over_budget_warning, repository_disk_use};
use openclaw_sessions::units::{format_bytes, iso_from_ms};

use super::list::parse_limit;
use crate::cli::exit::Outcome;
use crate::cli::table::Column;
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct DuArgs {
    #[command(flatten)]
    pub output: crate::cli::context::TableOutput,
    /// Each transcript with its events and bytes, the largest first (see --sort, --limit).
    #[arg(long, conflicts_with_all = ["content", "database"])]
    sessions: bool,
    /// What holds the bytes inside the transcripts of each agent, or of one session KEY:
    /// event kind, tool name, content block type (inline base64 images and audio, text,
    /// tool result text), and the largest events.
    #[arg(long, value_name = "KEY", num_args = 0..=1, conflicts_with = "database")]
    content: Option<Option<String>>,
    /// The database's own split: tables and indexes (dbstat), FTS, free pages, WAL and
    /// other sidecars.
    #[arg(long)]
    database: bool,
    /// With --sessions: largest first by this field.
    #[arg(long, value_enum, default_value_t = DuSort::Bytes, requires = "sessions")]
    sort: DuSort,
    /// With --sessions: at most N sessions (default 20); with --content: the N largest
    /// events (default 10); with --database: the N largest tables and indexes (default 20);
    /// or `all`.
    #[arg(long, value_name = "N|all")]
    limit: Option<String>,
}

/// `--sort`: the parser's side of the library's [`SessionSort`].
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum DuSort {
    /// Serialized event bytes.
    Bytes,
    /// Bytes as stored (compressed frames).
    Stored,
    Events,
    /// Newest event.
    Updated,
}

pub fn run(ctx: &Ctx, args: &DuArgs) -> anyhow::Result<Outcome> {
    if args.sessions {
        return sessions(ctx, args);
    }
    if let Some(key) = &args.content {
        return content(ctx, args, key.as_deref());
    }
    if args.database {
        return database(ctx, args);
    }
    let layout = ctx.layout()?;
    let maintenance = layout.config.maintenance();
    let mut agents = Vec::new();
    for paths in ctx.listed_agents(&layout)? {
        let store = ctx.open_store(paths.clone())?;
        agents.push(agent_disk_use(&paths, &store, &maintenance)?);
    }
    for a in agents.iter().filter(|a| a.over_budget) {
        ctx.printer.warn(over_budget_warning(
            &a.agent_id,
            a.budget_bytes,
            a.max_disk_bytes.unwrap_or(0),
        ));
    }
    // The snapshot repositories: the admin's and the safety snapshots' outside the state dir,
    // and the one earlier versions kept in it (docs/SNAPSHOTS.md).
    let repositories = [
        ("snapshot repository", layout.snapshot_repository()),
        ("safety snapshots", layout.safety_repository()),
        (
            "old snapshot repository",
            layout.legacy_snapshot_repository(),
        ),
    ];
    let mut in_repositories = Vec::new();
    for (what, dir) in &repositories {
        in_repositories.push((*what, dir, repository_disk_use(dir)?));
    }
    let repository = layout.snapshot_repository();
    let snapshots = openclaw_sessions::du::FileGroup {
        files: in_repositories.iter().map(|(_, _, g)| g.files).sum(),
        bytes: in_repositories.iter().map(|(_, _, g)| g.bytes).sum(),
    };
    // So do the entries `delete` keeps beside its archives (for `undelete`).
    let kept_dir = layout
        .state_dir
        .join(openclaw_sessions::writer::kept_entry::KEPT_ENTRIES_DIR);
    let kept = repository_disk_use(&kept_dir)?;
    if ctx.printer.json {
        ctx.printer.json_data(&serde_json::json!({
            "agents": agents,
            "snapshots": {
                "repository": repository,
                "files": snapshots.files,
                "bytes": snapshots.bytes,
                "repositories": in_repositories.iter().map(|(what, dir, g)| serde_json::json!({
                    "what": what, "path": dir, "files": g.files, "bytes": g.bytes,
                })).collect::<Vec<_>>(),
            },
            "keptEntries": {
                "dir": kept_dir,
                "files": kept.files,
                "bytes": kept.bytes,
            },
        }))?;
        return Ok(Outcome::Done);
    }
    // The agent and its total stay; the parts go, least useful first, on a narrow terminal
    // (src/cli/table.rs).
    let mut t = ctx.printer.table(&[
        Column::id("AGENT"),
        Column::data("DATABASE").drop(10),
        Column::data("WAL").drop(1),
        Column::data("TRANSCRIPTS").drop(9),
        Column::data("DELETED").drop(7),
        Column::data("RESET").drop(5),
        Column::data("BAK").drop(2),
        Column::data("COLD").drop(3),
        Column::data("LEGACY").drop(6),
        Column::data("IMPORT ARCHIVE").drop(4),
        Column::data("TOTAL"),
        Column::data("BUDGET"),
    ]);
    let group = |g: &openclaw_sessions::du::FileGroup| {
        if g.files == 0 {
            "-".to_string()
        } else {
            format!("{} ({})", format_bytes(g.bytes), g.files)
        }
    };
    for a in &agents {
        // The bytes the disk budget counts (prune's diskBytes), beside its limit: not the
        // TOTAL, which holds files the budget does not count.
        let counted = format_bytes(a.budget_bytes);
        let budget = match (a.max_disk_bytes, a.over_budget, a.over_high_water) {
            (None, _, _) => format!("{counted} (no budget)"),
            (Some(m), true, _) => format!("{counted} OVER {}", format_bytes(m)),
            (Some(m), false, true) => format!("{counted} of {}, high water", format_bytes(m)),
            (Some(m), false, false) => format!("{counted} of {}", format_bytes(m)),
        };
        t.add_row(vec![
            a.agent_id.clone(),
            format_bytes(a.database),
            format_bytes(a.wal),
            format!(
                "{} ({} events)",
                format_bytes(a.transcript_bytes),
                a.transcript_events
            ),
            group(&a.deleted_archives),
            group(&a.reset_archives),
            group(&a.bak_archives),
            group(&a.cold_archives),
            group(&a.legacy_transcripts),
            group(&a.import_archive),
            format_bytes(a.total),
            budget,
        ]);
    }
    ctx.printer.print_table(&t)?;
    // What this tool keeps beside OpenClaw's files, a line each when there is any.
    let mut lines: Vec<(
        &str,
        &std::path::PathBuf,
        &openclaw_sessions::du::FileGroup,
        &str,
    )> = in_repositories
        .iter()
        .map(|(what, dir, g)| {
            let why = match *what {
                "safety snapshots" => "backup list; backup prune --safety keeps the newest 3",
                _ => "backup list; backup prune --keep N removes the older ones",
            };
            (*what, *dir, g, why)
        })
        .collect();
    lines.push((
        "entries kept by delete",
        &kept_dir,
        &kept,
        "undelete restores them; each goes with its archive",
    ));
    for (what, dir, group, why) in lines {
        if group.files > 0 {
            ctx.printer.out(&format!(
                "{what} {}: {} in {} files ({why})\n",
                dir.display(),
                format_bytes(group.bytes),
                group.files
            ))?;
        }
    }
    Ok(Outcome::Done)
}

fn sessions(ctx: &Ctx, args: &DuArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    let limit = parse_limit(args.limit.as_deref().unwrap_or("20"))?;
    let sort = match args.sort {
        DuSort::Bytes => SessionSort::Bytes,
        DuSort::Stored => SessionSort::Stored,
        DuSort::Events => SessionSort::Events,
        DuSort::Updated => SessionSort::Updated,
    };
    let mut agents = Vec::new();
    for paths in ctx.agents(&layout)? {
        let store = ctx.open_store(paths.clone())?;
        if let Some(db) = store.db() {
            agents.push(agent_sessions(&paths.id.to_string(), db, sort, limit)?);
        }
    }
    if ctx.printer.json {
        ctx.printer
            .json_data(&serde_json::json!({ "agents": agents }))?;
        return Ok(Outcome::Done);
    }
    for a in &agents {
        ctx.printer.out(&format!(
            "agent {}: {} transcripts, {} events, {} ({} stored)\n",
            a.agent_id,
            a.transcripts,
            a.events,
            format_bytes(a.bytes),
            format_bytes(a.stored_bytes)
        ))?;
        if a.sessions.is_empty() {
            continue;
        }
        let mut t = ctx.printer.table(&[
            Column::id("SESSION KEY"),
            Column::id("SESSION ID").drop(3),
            Column::data("EVENTS").drop(2),
            Column::data("BYTES"),
            Column::data("STORED").drop(4),
            Column::data("SHARE"),
            Column::data("LAST EVENT").drop(1),
        ]);
        for s in &a.sessions {
            t.add_row(vec![
                s.session_key
                    .clone()
                    .unwrap_or_else(|| "(no window)".into()),
                s.session_id.clone(),
                s.events.to_string(),
                format_bytes(s.bytes),
                format_bytes(s.stored_bytes),
                share(s.bytes, a.bytes),
                s.last_event_at.map(iso_from_ms).unwrap_or_default(),
            ]);
        }
        ctx.printer.print_table(&t)?;
        let shown = a.sessions.len() as u64;
        if shown < a.transcripts {
            ctx.printer.out(&format!(
                "({} more transcripts; --limit all shows them)\n",
                a.transcripts - shown
            ))?;
        }
    }
    Ok(Outcome::Done)
}

fn share(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "-".into();
    }
    format!("{:.1}%", part as f64 * 100.0 / whole as f64)
}

fn content(ctx: &Ctx, args: &DuArgs, key: Option<&str>) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    let top = parse_limit(args.limit.as_deref().unwrap_or("10"))?.unwrap_or(usize::MAX);
    let mut reports: Vec<ContentUse> = Vec::new();
    match key {
        Some(words) => {
            let (store, found) = ctx.find_session(&layout, words)?;
            if let Some(db) = store.db() {
                reports.push(content_use(
                    &store.paths.id.to_string(),
                    db,
                    Some(found.entry.session_id()),
                    top,
                )?);
            }
        }
        None => {
            for paths in ctx.agents(&layout)? {
                let store = ctx.open_store(paths.clone())?;
                if let Some(db) = store.db() {
                    reports.push(content_use(&paths.id.to_string(), db, None, top)?);
                }
            }
        }
    }
    if ctx.printer.json {
        ctx.printer
            .json_data(&serde_json::json!({ "agents": reports }))?;
        return Ok(Outcome::Done);
    }
    for r in &reports {
        let what = match &r.session_id {
            Some(id) => format!("agent {}, transcript {id}", r.agent_id),
            None => format!("agent {}", r.agent_id),
        };
        ctx.printer.out(&format!(
            "{what}: {} events, {} ({} stored)\n  inline media {} ({} of the event bytes)\n",
            r.events,
            format_bytes(r.bytes),
            format_bytes(r.stored_bytes),
            format_bytes(r.inline_media_bytes),
            share(r.inline_media_bytes, r.bytes)
        ))?;
        if r.unreadable_events > 0 {
            ctx.printer.out(&format!(
                "{} events could not be read (the doctor names them)\n",
                r.unreadable_events
            ))?;
        }
        for (title, header, tallies) in [
            ("\nBy event kind:\n", "KIND", &r.by_kind),
            ("\nBy content block:\n", "BLOCK", &r.by_block),
            ("\nTool results by tool:\n", "TOOL", &r.by_tool),
        ] {
            if tallies.is_empty() {
                continue;
            }
            ctx.printer.out(title)?;
            let mut rows: Vec<(&String, &Tally)> = tallies.iter().collect();
            rows.sort_by(|a, b| b.1.bytes.cmp(&a.1.bytes).then(a.0.cmp(b.0)));
            let mut t = ctx.printer.table(&[
                Column::id(header),
                Column::data("COUNT"),
                Column::data("BYTES"),
                Column::data("SHARE"),
            ]);
            for (name, tally) in rows {
                t.add_row(vec![
                    name.clone(),
                    tally.count.to_string(),
                    format_bytes(tally.bytes),
                    share(tally.bytes, r.bytes),
                ]);
            }
            ctx.printer.print_table(&t)?;
        }
        if !r.largest.is_empty() {
            ctx.printer.out("\nLargest events:\n")?;
            let mut t = ctx.printer.table(&[
                Column::id("SESSION KEY"),
                Column::id("SESSION ID").drop(1),
                Column::data("SEQ"),
                Column::data("TIME").drop(4),
                Column::data("KIND").drop(3),
                Column::data("TOOL").drop(5),
                Column::data("BYTES"),
                Column::data("MEDIA").drop(2),
            ]);
            for e in &r.largest {
                t.add_row(vec![
                    e.session_key
                        .clone()
                        .unwrap_or_else(|| "(no window)".into()),
                    e.session_id.clone(),
                    e.seq.to_string(),
                    e.created_at.map(iso_from_ms).unwrap_or_default(),
                    e.kind.clone(),
                    e.tool_name.clone().unwrap_or_default(),
                    format_bytes(e.bytes),
                    format_bytes(e.media_bytes),
                ]);
            }
            ctx.printer.print_table(&t)?;
        }
    }
    Ok(Outcome::Done)
}

fn database(ctx: &Ctx, args: &DuArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    let limit = parse_limit(args.limit.as_deref().unwrap_or("20"))?.unwrap_or(usize::MAX);
    let mut reports = Vec::new();
    for paths in ctx.agents(&layout)? {
        let store = ctx.open_store(paths.clone())?;
        if let Some(db) = store.db() {
            reports.push(database_use(&paths.id.to_string(), db)?);
        }
    }
    if ctx.printer.json {
        ctx.printer
            .json_data(&serde_json::json!({ "agents": reports }))?;
        return Ok(Outcome::Done);
    }
    for r in &reports {
        let sidecars: Vec<String> = r
            .sidecars
            .iter()
            .map(|s| format!("{} {}", s.suffix, format_bytes(s.bytes)))
            .collect();
        ctx.printer.out(&format!(
            "agent {}: file {}, {} pages of {}\n  tables {}, indexes {}, FTS {}, free {} ({} pages)\n",
            r.agent_id,
            format_bytes(r.file_bytes),
            r.page_count,
            format_bytes(r.page_size),
            format_bytes(r.table_bytes),
            format_bytes(r.index_bytes),
            format_bytes(r.fts_bytes),
            format_bytes(r.free_bytes),
            r.free_pages,
        ))?;
        if !sidecars.is_empty() {
            ctx.printer
                .out(&format!("  beside it: {}\n", sidecars.join(", ")))?;
        }
        let mut t = ctx.printer.table(&[
            // Object names can be long: cut in the middle, both ends say what it is.
            Column::path("NAME"),
            Column::data("KIND").drop(3),
            Column::id("TABLE").drop(2),
            Column::data("PAGES").drop(1),
            Column::data("BYTES"),
            Column::data("SHARE"),
        ]);
        let shown: Vec<_> = r.objects.iter().filter(|o| o.pages > 0).collect();
        for o in shown.iter().take(limit) {
            t.add_row(vec![
                o.name.clone(),
                o.kind.clone(),
                o.table.clone(),
                o.pages.to_string(),
                format_bytes(o.bytes),
                share(o.bytes, r.file_bytes),
            ]);
        }
        ctx.printer.print_table(&t)?;
        if shown.len() > limit {
            let rest = &shown[limit..];
            ctx.printer.out(&format!(
                "({} more tables and indexes, {}; --limit all shows them)\n",
                rest.len(),
                format_bytes(rest.iter().map(|o| o.bytes).sum())
            ))?;
        }
    }
    Ok(Outcome::Done)
}
