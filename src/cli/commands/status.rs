use clap::Args;

use openclaw_sessions::custody::OwnerState;
use openclaw_sessions::status::{gather_agents, DatabaseStatus, ReleasesStatus};
use openclaw_sessions::store::SchemaStatus;
use openclaw_sessions::units::format_bytes;

use crate::cli::exit::Outcome;
use crate::cli::table::Column;
use crate::cli::Ctx;

#[derive(Debug, Args)]
pub struct StatusArgs {
    #[command(flatten)]
    pub output: crate::cli::context::TableOutput,
}

fn db_line(d: &DatabaseStatus) -> String {
    if !d.exists {
        return format!("{} (missing)", d.path.display());
    }
    let mut s = format!("{} ({}", d.path.display(), format_bytes(d.bytes));
    if let Some(w) = d.wal_bytes {
        s.push_str(&format!(", -wal {}", format_bytes(w)));
    }
    if let Some(schema) = &d.schema {
        s.push_str(&format!(", schema {}", schema.user_version));
        if let Some(v) = &schema.app_version {
            s.push_str(&format!(" ({v})"));
        }
        if schema.status == SchemaStatus::Newer {
            s.push_str(", newer than this tool knows");
        }
    }
    if let Some(e) = &d.error {
        s.push_str(&format!(", unreadable: {e}"));
    }
    s.push(')');
    s
}

/// A database's size (and its WAL's), or why there is none.
fn size_cell(d: &DatabaseStatus) -> String {
    if !d.exists {
        return "missing".into();
    }
    match d.wal_bytes {
        Some(w) => format!("{} +wal {}", format_bytes(d.bytes), format_bytes(w)),
        None => format_bytes(d.bytes),
    }
}

/// A database's schema version and release, or why it could not be read.
fn schema_cell(d: &DatabaseStatus) -> String {
    let mut s = String::new();
    if let Some(schema) = &d.schema {
        s.push_str(&schema.user_version.to_string());
        if let Some(v) = &schema.app_version {
            s.push_str(&format!(" ({v})"));
        }
        if schema.status == SchemaStatus::Newer {
            s.push_str(", newer than this tool knows");
        }
    }
    if let Some(e) = &d.error {
        if !s.is_empty() {
            s.push_str(", ");
        }
        s.push_str(&format!("unreadable: {e}"));
    }
    s
}

/// Which releases open the store: `Releases:` and, when the databases disagree, what each
/// release does with it.
fn releases_lines(r: &ReleasesStatus) -> String {
    let span = |v: &[String]| match v {
        [] => String::new(),
        [one] => format!("OpenClaw {one}"),
        [first, .., last] => format!("OpenClaw {first} to {last}"),
    };
    if r.databases.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    if let Some(newer) = &r.newer_release {
        // One release's store, newer than this tool knows: said in full, not as a disagreement.
        out.push_str(&format!(
            "Releases:   {newer}, newer than this tool knows: {}\n",
            r.databases
                .iter()
                .map(|d| format!("{} at {}", d.database, d.schema))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        out.push_str(
            "            read as far as this tool knows it; changes go through that release's own code (its Gateway, or its own commands)\n",
        );
        for line in &r.refusing {
            out.push_str(&format!("            {line}\n"));
        }
        return out;
    }
    if r.agree {
        out.push_str(&format!(
            "Releases:   opened as is by {}",
            span(&r.open_as_is)
        ));
        if !r.open_after_state_upgrade.is_empty() {
            out.push_str(&format!(
                "; {} upgrade the state database on their first command (one-way)",
                span(&r.open_after_state_upgrade)
            ));
        }
        out.push('\n');
        return out;
    }
    out.push_str("Releases:   the databases disagree: ");
    out.push_str(
        &r.databases
            .iter()
            .map(|d| format!("{} at {} ({})", d.database, d.schema, d.releases))
            .collect::<Vec<_>>()
            .join(", "),
    );
    out.push('\n');
    if !r.open_after_state_upgrade.is_empty() {
        out.push_str(&format!(
            "            {} open it after upgrading the state database on their first command (one-way)\n",
            span(&r.open_after_state_upgrade)
        ));
    }
    if !r.open_after_doctor_fix.is_empty() {
        out.push_str(&format!(
            "            {} open it only after `openclaw doctor --fix` upgraded the older agent databases (one-way)\n",
            span(&r.open_after_doctor_fix)
        ));
    }
    for line in &r.refusing {
        out.push_str(&format!("            {line}\n"));
    }
    out
}

pub fn run(ctx: &Ctx, _args: &StatusArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    // `--agent` and `--store` narrow the agents shown (the state dir's lines stay).
    let selection = ctx.selection(&layout)?;
    let mut report = gather_agents(&layout, selection.named())?;
    for a in &mut report.agents {
        for w in &mut a.warnings {
            *w = crate::cli::hints::warning(w).into();
            ctx.printer.warn(w.to_string());
        }
    }
    if ctx.printer.json {
        ctx.printer.json_data(&report)?;
        return Ok(Outcome::Done);
    }
    let mut out = String::new();
    let source = serde_json::to_value(report.state_dir_source)?;
    out.push_str(&format!(
        "State dir:  {} ({})\n",
        report.state_dir.display(),
        ctx.printer.value_line(&source)
    ));
    out.push_str(&format!(
        "Config:     {}\n",
        report
            .config_path
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "(none)".into())
    ));
    // The path on its line, what is known of the database on the next: neither wraps
    // behind the other at 80 columns.
    let db = db_line(&report.state_database);
    match db.split_once(" (") {
        Some((path, rest)) => out.push_str(&format!("State DB:   {path}\n            ({rest}\n")),
        None => out.push_str(&format!("State DB:   {db}\n")),
    }
    let owner = &report.custody.owner;
    out.push_str(&match owner.state {
        OwnerState::None => "Custody:    free (no Gateway or maintenance owner)\n".to_string(),
        // The state in our words, lowercased; the role and the start time as the lock gives them.
        state => format!(
            "Custody:    {} owner{}{}{}\n",
            format!("{state:?}").to_lowercase(),
            owner
                .role
                .as_ref()
                .map(|r| format!(" role {r}"))
                .unwrap_or_default(),
            owner.pid.map(|p| format!(" pid {p}")).unwrap_or_default(),
            owner
                .since
                .as_ref()
                .map(|s| format!(" since {s}"))
                .unwrap_or_default()
        ),
    });
    out.push_str(&releases_lines(&report.releases));
    ctx.printer.out(&out)?;
    // The size has a column of its own, before the path, which is cut first (in the middle)
    // on a narrow terminal (src/cli/table.rs).
    let mut t = ctx.printer.table(&[
        Column::id("AGENT"),
        Column::data("STORE").drop(2),
        Column::data("SESSIONS"),
        Column::data("SIZE"),
        Column::prose("SCHEMA").drop(4),
        Column::prose("PENDING").drop(3),
        Column::path("DATABASE").drop(1),
    ]);
    for a in &report.agents {
        let mut pending = Vec::new();
        if let Some(n) = a.legacy_entries {
            pending.push(format!("legacy import ({n} entries)"));
        } else if a.legacy_pending.is_some() {
            pending.push("legacy import".to_string());
        }
        t.add_row(vec![
            a.agent_id.clone(),
            format!("{:?}", a.store).to_lowercase(),
            a.sessions.to_string(),
            size_cell(&a.database),
            schema_cell(&a.database),
            pending.join(", "),
            a.database.path.display().to_string(),
        ]);
    }
    ctx.printer.print_table(&t)?;
    let legacy = report
        .agents
        .iter()
        .filter(|a| a.legacy_entries.is_some() || a.legacy_pending.is_some())
        .count();
    if legacy > 0 {
        ctx.printer.out(&format!(
            "{legacy} agent(s) with a legacy store waiting for import (run {})\n",
            crate::cli::hints::import_legacy()
        ))?;
    }
    for p in &report.acpx.problems {
        let how = if p.migration_resolves() {
            format!(
                "run {}, or pin plugins.entries.acpx.config.stateDir to the old location",
                crate::cli::hints::migrate_acpx()
            )
        } else {
            p.resolution()
        };
        ctx.printer.out(&format!("{} ({how})\n", p.describe()))?;
    }
    for name in &report.rejected_agent_names {
        ctx.printer.warn(format!(
            "ignored agent directory or entry {name:?}: not a valid agent id"
        ));
    }
    Ok(Outcome::Done)
}
