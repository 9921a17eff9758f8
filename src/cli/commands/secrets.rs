//! `secrets scan`: credentials stored in conversations, wherever they are kept, never printed
//! (docs/SECRETS.md). Exit 1 when anything is found, 0 when nothing is, for cron.

use std::io::Read;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use openclaw_sessions::secrets::host_values::{self, HostValue};
use openclaw_sessions::secrets::rules::RuleSet;
use openclaw_sessions::secrets::{scan, Detectors, Finding, ScanOptions};

use openclaw_sessions::ops::scrub::{remove_safety_snapshots, shown_path, ScrubOp, ScrubSelection};
use openclaw_sessions::ops::summary::count;
use openclaw_sessions::ops::RunState;
use openclaw_sessions::secrets::fingerprint;
use openclaw_sessions::secrets::redact::Selection;

use crate::cli::exit::{ErrorCode, Outcome};
use crate::cli::table::Column;
use crate::cli::Ctx;

#[derive(Debug, Subcommand)]
pub enum SecretsCommand {
    /// Find credentials in transcripts, entries, the search index, archives, legacy files and
    /// snapshots (read-only; exit 1 when any is found).
    Scan(ScanArgs),
    /// Replace the secrets selected (by rule, fingerprint, value file, session) with
    /// OpenClaw's redaction marker everywhere they are stored.
    #[command(after_help = crate::cli::mutation::SECRETS_SCRUB.help())]
    Scrub(ScrubArgs),
}

impl SecretsCommand {
    pub fn name(&self) -> &'static str {
        match self {
            SecretsCommand::Scan(_) => "secrets scan",
            SecretsCommand::Scrub(_) => "secrets scrub",
        }
    }
}

#[derive(Debug, Args)]
pub struct ScanArgs {
    /// Also look for these exact values: a file with one a line (`-`: standard input).
    #[arg(long, value_name = "FILE|-")]
    value_from: Vec<PathBuf>,
    /// Look for the values given with --value-from only: not the config's, not the auth
    /// profiles'.
    #[arg(long)]
    no_host_values: bool,
    /// Known token shapes: only this gitleaks rule (repeatable); `none` for values only.
    #[arg(long, value_name = "ID")]
    rule: Vec<String>,
    /// Another snapshot repository to read (OpenClaw's `backup sqlite create --repository`);
    /// the state dir's own are always read.
    #[arg(long, value_name = "DIR")]
    snapshots: Vec<PathBuf>,
    /// Findings listed at most (all are counted and summed up per secret).
    #[arg(long, value_name = "N", default_value_t = 50)]
    limit: usize,
}

#[derive(Debug, Args)]
pub struct ScrubArgs {
    /// Only the findings of these sessions (keys or ids); every session when none is given.
    #[arg(value_name = "KEY")]
    sessions: Vec<String>,
    /// Scrub the secrets this gitleaks rule finds (repeatable; `host-value`: every value the
    /// host holds).
    #[arg(long, value_name = "ID")]
    rule: Vec<String>,
    /// Scrub the secret of this fingerprint, as `secrets scan` prints it (repeatable; a
    /// prefix of at least 8 hex digits).
    #[arg(long, value_name = "HEX")]
    fingerprint: Vec<String>,
    /// Scrub these exact values: a file with one a line (`-`: standard input).
    #[arg(long, value_name = "FILE|-")]
    value_from: Vec<PathBuf>,
    /// Another snapshot repository to look in (OpenClaw's `backup sqlite create
    /// --repository`); the state dir's own are always looked in.
    #[arg(long, value_name = "DIR")]
    snapshots: Vec<PathBuf>,
    /// Remove the snapshots that hold a selected secret (they are listed otherwise, and
    /// left as they are).
    #[arg(long)]
    remove_snapshots: bool,
    /// Keep this run's safety snapshot (it holds the secrets) instead of removing it once
    /// the change is verified.
    #[arg(long)]
    keep_snapshot: bool,
    #[command(flatten)]
    mutation: crate::cli::mutation::MutationArgs,
}

fn read_value_file(path: &PathBuf) -> anyhow::Result<(String, String)> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        return Ok(("standard input".into(), text));
    }
    let text = std::fs::read_to_string(path).map_err(|e| {
        openclaw_sessions::Error::bad_input(
            format!("--value-from {}: {e}", path.display()),
            Some("give a readable file with one value a line, or - for standard input".into()),
        )
    })?;
    Ok((path.display().to_string(), text))
}

/// An unknown rule id names the nearest one.
fn check_rule(known: &[String], r: &str) -> anyhow::Result<()> {
    if known.iter().any(|k| k == r) {
        return Ok(());
    }
    let near = known
        .iter()
        .max_by(|a, b| strsim::jaro(r, a).total_cmp(&strsim::jaro(r, b)))
        .cloned()
        .unwrap_or_default();
    Err(openclaw_sessions::Error::InvalidArgument {
        message: format!("no rule {r:?}"),
        hint: Some(format!(
            "did you mean {near}? the rules: {} (or none)",
            known.join(", ")
        )),
    }
    .into())
}

fn detectors(
    ctx: &Ctx,
    args: &ScanArgs,
    state_dir: &std::path::Path,
    config: &serde_json::Value,
) -> anyhow::Result<Detectors> {
    let mut values: Vec<HostValue> = if args.no_host_values {
        Vec::new()
    } else {
        host_values::collect(state_dir, config, &|k| std::env::var(k).ok())?
    };
    for path in &args.value_from {
        let (label, text) = read_value_file(path)?;
        host_values::from_value_file(&label, &text, &mut values)?;
    }
    let rules = if args.rule.iter().any(|r| r == "none") {
        None
    } else {
        let known = RuleSet::ids()?;
        for r in &args.rule {
            check_rule(&known, r)?;
        }
        Some(RuleSet::load(&args.rule)?)
    };
    ctx.printer.debug(format!(
        "looking for {} host values and {} rules",
        values.len(),
        rules.as_ref().map_or(0, RuleSet::len)
    ));
    Ok(Detectors::new(rules, values)?)
}

fn place_words(f: &Finding) -> String {
    let l = &f.location;
    let mut parts = Vec::new();
    if let Some(s) = &l.snapshot {
        parts.push(format!("snapshot {s}"));
    }
    if let Some(a) = &l.agent_id {
        parts.push(format!("agent {a}"));
    }
    match (&l.session_key, &l.session_id) {
        (Some(k), _) => parts.push(k.clone()),
        (None, Some(id)) => parts.push(format!("session {id}")),
        _ => {}
    }
    let what = match l.place.as_str() {
        "transcript" => format!("transcript seq {}", l.seq.unwrap_or_default()),
        "archive-row" | "cold-archive-row" => {
            format!("{} event {}", l.place, l.seq.unwrap_or_default())
        }
        "table" => format!(
            "{}.{}",
            l.table.as_deref().unwrap_or("?"),
            l.column.as_deref().unwrap_or("?")
        ),
        "entry" | "fts" => l.place.clone(),
        other => {
            let name = l.path.rsplit('/').next().unwrap_or(&l.path);
            format!("{other} {name}:{}", l.line.unwrap_or_default())
        }
    };
    parts.push(what);
    parts.join(", ")
}

pub fn run(ctx: &Ctx, cmd: &SecretsCommand) -> anyhow::Result<Outcome> {
    let args = match cmd {
        SecretsCommand::Scan(args) => args,
        SecretsCommand::Scrub(args) => return scrub(ctx, args),
    };
    let layout = ctx.layout()?;
    layout.require_exists()?;
    let detectors = detectors(ctx, args, &layout.state_dir, &layout.config.root)?;
    let agents = if ctx.global.agents.is_empty() {
        Vec::new()
    } else {
        ctx.agents(&layout)?
            .iter()
            .map(|a| a.id.to_string())
            .collect()
    };
    let mut snapshot_dirs = layout.snapshot_repositories();
    snapshot_dirs.extend(args.snapshots.iter().cloned());
    let options = ScanOptions {
        snapshot_dirs,
        keep: args.limit,
        agents,
    };
    let detected = serde_json::json!({
        "hostValues": detectors.values().len(),
        "rules": detectors.rule_count(),
        "rulesRef": detectors.rules_ref(),
    });
    let summary = scan(&layout.state_dir, &detectors, &options, &mut |_| {})?;
    if summary.findings > 0 {
        // Recorded before the document: `ok` is false and the exit 1 (README, Exit codes).
        ctx.printer.fail(
            ErrorCode::SecretsFound,
            format!(
                "{} of {}",
                count(summary.findings as usize, "finding"),
                count(summary.secrets.len(), "secret")
            ),
            Some("docs/SECRETS.md; each finding says where it is".into()),
        );
    }
    if ctx.printer.json {
        ctx.printer.json_data(&serde_json::json!({
            "findings": summary.kept,
            "total": summary.findings,
            "truncated": summary.truncated,
            "secrets": summary.secrets,
            "read": {
                "databases": summary.databases,
                "files": summary.files,
                "rows": summary.rows,
                "bytes": summary.bytes,
                "unreadable": summary.unreadable,
            },
            "detectors": detected,
        }))?;
        return Ok(Outcome::Done);
    }
    for u in &summary.unreadable {
        ctx.printer.warn(format!("not read: {u}"));
    }
    let read = format!(
        "{} databases ({} rows) and {} files read; {} host values and {} rules looked for",
        summary.databases,
        summary.rows,
        summary.files,
        detectors.values().len(),
        detectors.rule_count()
    );
    if summary.findings == 0 {
        ctx.printer.out(&format!("No secrets found. {read}.\n"))?;
        return Ok(Outcome::Done);
    }
    let mut t = ctx.printer.table(&[
        Column::id("FINGERPRINT"),
        Column::data("RULE"),
        Column::data("SECRET").drop(2),
        Column::data("PLACES"),
        Column::data("FROM").drop(1),
    ]);
    for s in &summary.secrets {
        t.add_row(vec![
            s.fingerprint.clone(),
            s.rule.clone(),
            s.masked.clone(),
            s.findings.to_string(),
            s.source.clone().unwrap_or_else(|| "-".into()),
        ]);
    }
    ctx.printer.print_table(&t)?;
    ctx.printer.out("\n")?;
    let mut t = ctx.printer.table(&[
        Column::id("FINGERPRINT"),
        Column::data("WHERE"),
        Column::data("EXCERPT").drop(1),
    ]);
    for f in &summary.kept {
        t.add_row(vec![
            f.fingerprint.clone(),
            place_words(f),
            f.excerpt.clone(),
        ]);
    }
    ctx.printer.print_table(&t)?;
    let more = if summary.truncated {
        format!(" ({} listed; --limit N lists more)", summary.kept.len())
    } else {
        String::new()
    };
    ctx.printer.out(&format!(
        "\n{} of {}{more}. {read}.\n",
        count(summary.findings as usize, "finding"),
        count(summary.secrets.len(), "secret")
    ))?;
    Ok(Outcome::Done)
}

/// `secrets scrub`: the selected secrets replaced everywhere the scan finds them, through the
/// pipeline (docs/SECRETS.md, "Scrubbing").
fn scrub(ctx: &Ctx, args: &ScrubArgs) -> anyhow::Result<Outcome> {
    if args.rule.is_empty() && args.fingerprint.is_empty() && args.value_from.is_empty() {
        return Err(openclaw_sessions::Error::InvalidArgument {
            message: "say which secrets to scrub".into(),
            hint: Some(
                "give --rule ID, --fingerprint HEX (as `secrets scan` prints it) or --value-from FILE"
                    .into(),
            ),
        }
        .into());
    }
    for f in &args.fingerprint {
        if f.len() < 8 || !f.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(openclaw_sessions::Error::InvalidArgument {
                message: format!("--fingerprint {f:?} is not 8 or more hex digits"),
                hint: Some("copy it from `secrets scan`'s FINGERPRINT column".into()),
            }
            .into());
        }
    }
    let layout = ctx.layout()?;
    layout.require_exists()?;
    let mut selection = Selection {
        fingerprints: args.fingerprint.iter().map(|f| f.to_lowercase()).collect(),
        ..Selection::default()
    };
    let mut rules: Vec<String> = Vec::new();
    for r in &args.rule {
        if r == "host-value" {
            selection.host_values = true;
        } else {
            rules.push(r.clone());
            selection.rules.push(r.clone());
        }
    }
    // Every rule is looked for, so that a fingerprint of any rule's secret is found; the
    // rules named are checked as the scan checks them.
    let known = RuleSet::ids()?;
    for r in &rules {
        check_rule(&known, r)?;
    }
    let mut values = host_values::collect(&layout.state_dir, &layout.config.root, &|k| {
        std::env::var(k).ok()
    })?;
    for path in &args.value_from {
        let (label, text) = read_value_file(path)?;
        let mut given = Vec::new();
        host_values::from_value_file(&label, &text, &mut given)?;
        for v in &given {
            selection.fingerprints.push(fingerprint(v.value.as_bytes()));
        }
        values.extend(given);
    }
    let detectors_of = Detectors::new(Some(RuleSet::load(&[])?), values)?;
    // As the scan: every agent, unless --agent names some.
    let agents = if ctx.global.agents.is_empty() {
        openclaw_sessions::store::resolve::AgentSelection::resolve(&layout, &[], true)?
    } else {
        crate::cli::mutation::selection(ctx)?
    };
    let mut op = ScrubOp::new(
        agents,
        ScrubSelection {
            secrets: selection,
            sessions: args.sessions.clone(),
        },
        detectors_of,
    );
    let mut snapshot_dirs = layout.snapshot_repositories();
    snapshot_dirs.extend(args.snapshots.iter().cloned());
    op.snapshot_dirs = snapshot_dirs;
    op.snapshots = if args.remove_snapshots {
        openclaw_sessions::ops::scrub::SnapshotAction::Remove
    } else {
        openclaw_sessions::ops::scrub::SnapshotAction::List
    };
    op.keep_snapshot = args.keep_snapshot;
    let Some(run) = crate::cli::mutation::run_op(ctx, &mut op, &args.mutation, "secrets scrub")?
    else {
        return Ok(Outcome::Done);
    };
    // The safety snapshot holds the secrets: kept only until the change verified.
    let mut removed = Vec::new();
    if run.state == RunState::Applied && !args.keep_snapshot {
        removed = remove_safety_snapshots(&run.snapshots)?;
    }
    let plan = &run.plan;
    if ctx.printer.json {
        ctx.printer.json_data(&serde_json::json!({
            "dryRun": run.state == RunState::DryRun,
            "applied": run.state == RunState::Applied,
            "findings": plan.findings,
            "secrets": plan.fingerprints,
            "databases": plan.databases,
            "files": plan.files,
            "snapshots": plan.snapshots,
            "leftAlone": plan.left_alone,
            "safetySnapshots": run.snapshots.iter().map(|s| &s.path).collect::<Vec<_>>(),
            "safetySnapshotsRemoved": removed,
            "plan": run.summary,
        }))?;
        return Ok(Outcome::Done);
    }
    match run.state {
        RunState::DryRun => crate::cli::mutation::print_dry_run(ctx, &run.summary)?,
        RunState::NothingToDo => {
            let kept = plan.snapshots.len() + plan.left_alone.len();
            if kept == 0 {
                ctx.printer
                    .info("no selected secret is stored anywhere: nothing to scrub");
            } else {
                ctx.printer.out(
                    &ctx.printer
                        .fit_lines(&crate::cli::mutation::render_summary(&run.summary)),
                )?;
            }
        }
        RunState::Applied => {
            let mut t = ctx
                .printer
                .table(&[Column::path("PLACE"), Column::data("REPLACED")]);
            for d in &plan.databases {
                t.add_row(vec![
                    shown_path(&layout.state_dir, &d.database),
                    d.replaced.unwrap_or_default().to_string(),
                ]);
            }
            for f in &plan.files {
                t.add_row(vec![
                    shown_path(&layout.state_dir, &f.path),
                    f.replaced.unwrap_or_default().to_string(),
                ]);
            }
            ctx.printer.print_table(&t)?;
            for s in &plan.snapshots {
                if s.removed {
                    ctx.printer.out(&format!(
                        "removed snapshot {}\n",
                        shown_path(&layout.state_dir, &s.path)
                    ))?;
                } else {
                    ctx.printer.warn(format!(
                        "snapshot {} still holds {} (--remove-snapshots removes it)",
                        shown_path(&layout.state_dir, &s.path),
                        count(s.findings as usize, "finding")
                    ));
                }
            }
            for a in &plan.left_alone {
                ctx.printer.warn(format!(
                    "not scrubbed: {} ({} {}): {}",
                    a.path, a.place, a.findings, a.why
                ));
            }
            if args.keep_snapshot {
                for s in &run.snapshots {
                    ctx.printer.warn(format!(
                        "the safety snapshot {} still holds the secrets (--keep-snapshot)",
                        s.path.display()
                    ));
                }
            }
            ctx.printer.out(&format!(
                "\nscrubbed {} of {}.\n",
                count(plan.findings as usize, "finding"),
                count(plan.fingerprints.len(), "secret")
            ))?;
        }
        _ => {}
    }
    Ok(Outcome::Done)
}
