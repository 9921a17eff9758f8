//! `secrets scan`: credentials stored in conversations, wherever they are kept, never printed
//! (docs/SECRETS.md). Exit 1 when anything is found, 0 when nothing is, for cron.

use std::io::Read;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use openclaw_sessions::secrets::host_values::{self, HostValue};
use openclaw_sessions::secrets::rules::RuleSet;
use openclaw_sessions::secrets::{scan, Detectors, Finding, ScanOptions};

use crate::cli::exit::{ErrorCode, Outcome};
use crate::cli::table::Column;
use crate::cli::Ctx;

#[derive(Debug, Subcommand)]
pub enum SecretsCommand {
    /// Find credentials in transcripts, entries, the search index, archives, legacy files and
    /// snapshots (read-only; exit 1 when any is found).
    Scan(ScanArgs),
}

impl SecretsCommand {
    pub fn name(&self) -> &'static str {
        match self {
            SecretsCommand::Scan(_) => "secrets scan",
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
            if !known.contains(r) {
                let near = known
                    .iter()
                    .max_by(|a, b| strsim::jaro(r, a).total_cmp(&strsim::jaro(r, b)))
                    .cloned()
                    .unwrap_or_default();
                return Err(openclaw_sessions::Error::InvalidArgument {
                    message: format!("no rule {r:?}"),
                    hint: Some(format!(
                        "did you mean {near}? the rules: {} (or none)",
                        known.join(", ")
                    )),
                }
                .into());
            }
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
    let SecretsCommand::Scan(args) = cmd;
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
                "{} findings of {} secrets",
                summary.findings,
                summary.secrets.len()
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
        "\n{} findings of {} secrets{more}. {read}.\n",
        summary.findings,
        summary.secrets.len()
    ))?;
    Ok(Outcome::Done)
}
