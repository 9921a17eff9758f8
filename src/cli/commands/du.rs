use clap::Args;

use openclaw_sessions::du::{agent_disk_use, over_budget_warning, repository_disk_use};
use openclaw_sessions::units::format_bytes;

use crate::cli::exit::Outcome;
use crate::cli::table::Column;
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct DuArgs {
    #[command(flatten)]
    pub output: crate::cli::context::TableOutput,
}

pub fn run(ctx: &Ctx, _args: &DuArgs) -> anyhow::Result<Outcome> {
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
