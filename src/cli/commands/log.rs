//! `log`: the operations this tool made on the state dir, newest first; `log show ID`: one in
//! full, with what `undo` would do with it now (`openclaw_sessions::oplog`, docs/OPLOG.md).

use clap::{Args, Subcommand, ValueEnum};

use openclaw_sessions::oplog::{OpLog, Outcome as OpOutcome, Record};
use openclaw_sessions::ops::undo::{refuse_undo_of, UndoOp};
use openclaw_sessions::ops::Operation;
use openclaw_sessions::units::{iso_from_ms, parse_time_arg};

use crate::cli::exit::Outcome;
use crate::cli::shown::value;
use crate::cli::table::Column;
use crate::cli::Ctx;

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct LogArgs {
    #[command(subcommand)]
    pub show: Option<LogCommand>,
    #[command(flatten)]
    pub output: crate::cli::context::TableOutput,
    /// Only operations of this command (`delete`, `patch`, `migrate schema`; repeatable).
    #[arg(long, value_name = "COMMAND")]
    command: Vec<String>,
    /// Only operations that changed this session: its key (with or without `agent:<id>:`)
    /// or session id. (`--agent` keeps those of an agent.)
    #[arg(long, value_name = "KEY|SESSION_ID")]
    key: Option<String>,
    /// Only operations started at or after TIME (an age such as 7d, a date, an instant).
    #[arg(long, value_name = "TIME")]
    since: Option<String>,
    /// Only operations started before TIME.
    #[arg(long, value_name = "TIME")]
    until: Option<String>,
    /// Only operations that ended so (repeatable).
    #[arg(long, value_enum, value_name = "OUTCOME")]
    outcome: Vec<OutcomeArg>,
    /// At most N operations (the newest).
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
}

#[derive(Debug, Subcommand)]
pub enum LogCommand {
    /// One operation in full: who, where, each session's action, its snapshot, and what
    /// `undo` would do with it now.
    Show(ShowArgs),
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The operation's id as `log` shows it, or a unique start of it.
    #[arg(value_name = "ID")]
    id: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum OutcomeArg {
    Done,
    Interrupted,
    Resumed,
    Failed,
    Refused,
    Running,
}

impl OutcomeArg {
    fn outcome(self) -> OpOutcome {
        match self {
            OutcomeArg::Done => OpOutcome::Done,
            OutcomeArg::Interrupted => OpOutcome::Interrupted,
            OutcomeArg::Resumed => OpOutcome::Resumed,
            OutcomeArg::Failed => OpOutcome::Failed,
            OutcomeArg::Refused => OpOutcome::Refused,
            OutcomeArg::Running => OpOutcome::Running,
        }
    }
}

pub fn run(ctx: &Ctx, args: &LogArgs) -> anyhow::Result<Outcome> {
    match &args.show {
        Some(LogCommand::Show(show_args)) => show(ctx, show_args),
        None => list(ctx, args),
    }
}

/// Whether `words` name the session of `a`: its whole key, its key without `agent:<id>:`,
/// or its session id.
fn names_session(words: &str, a: &openclaw_sessions::oplog::Action) -> bool {
    a.session_key == words
        || a.session_key
            .strip_prefix(&format!("agent:{}:", a.agent_id))
            == Some(words)
        || a.session_id.as_deref() == Some(words)
}

fn list(ctx: &Ctx, args: &LogArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    let now = openclaw_sessions::test_hooks::now_ms();
    let since = args
        .since
        .as_deref()
        .map(|t| parse_time_arg(t, now))
        .transpose()?;
    let until = args
        .until
        .as_deref()
        .map(|t| parse_time_arg(t, now))
        .transpose()?;
    let agents = &ctx.global.agents;
    let outcomes: Vec<OpOutcome> = args.outcome.iter().map(|o| o.outcome()).collect();
    let records = OpLog::of(&layout.state_dir).read()?;
    let mut shown: Vec<&Record> = records
        .iter()
        .rev()
        .filter(|r| args.command.is_empty() || args.command.contains(&r.begin.command))
        .filter(|r| since.is_none_or(|s| r.begin.time >= s))
        .filter(|r| until.is_none_or(|u| r.begin.time < u))
        .filter(|r| outcomes.is_empty() || outcomes.contains(&r.outcome))
        .filter(|r| agents.is_empty() || r.agents().iter().any(|a| agents.iter().any(|x| x == a)))
        .filter(|r| {
            args.key
                .as_deref()
                .is_none_or(|k| r.actions().iter().any(|a| names_session(k, a)))
        })
        .collect();
    if let Some(n) = args.limit {
        shown.truncate(n);
    }
    if ctx.printer.json {
        ctx.printer
            .json_data(&serde_json::json!({ "operations": shown }))?;
        return Ok(Outcome::Done);
    }
    let mut t = ctx
        .printer
        .table(&[
            Column::id("ID"),
            Column::data("STARTED").drop(5),
            Column::data("COMMAND"),
            Column::data("OUTCOME"),
            Column::data("SESSIONS").drop(3),
            Column::data("BY").drop(1),
            Column::data("UNDO").drop(4),
            Column::prose("WHAT").drop(2),
        ])
        .when_empty("no operations in the log");
    for r in &shown {
        let undo = match (&r.undone_by, &r.begin.undoes, &r.begin.not_undoable) {
            (Some(by), _, _) => format!("undone by {by}"),
            (None, Some(of), _) => format!("undoes {of}"),
            (None, None, Some(_)) => "no".into(),
            (None, None, None) => "-".into(),
        };
        t.add_row(vec![
            r.begin.id.clone(),
            iso_from_ms(r.begin.time),
            r.begin.command.clone(),
            r.outcome.word().to_string(),
            r.actions().len().to_string(),
            format!(
                "{}@{}",
                r.begin.origin.user.as_deref().unwrap_or("?"),
                r.begin.origin.host.as_deref().unwrap_or("?")
            ),
            undo,
            r.begin.headline.clone(),
        ]);
    }
    ctx.printer.print_table(&t)?;
    Ok(Outcome::Done)
}

fn show(ctx: &Ctx, args: &ShowArgs) -> anyhow::Result<Outcome> {
    let layout = ctx.layout()?;
    let record = OpLog::of(&layout.state_dir).find(&args.id)?;
    // What `undo` would do now: its plan, read only (as a dry run reads it), or its refusal.
    let undo = match refuse_undo_of(&record) {
        Err(e) => Err(e),
        Ok(()) => {
            let now = openclaw_sessions::test_hooks::now_ms();
            UndoOp::new(
                &layout,
                Some(record.id()),
                false,
                layout.snapshot_repositories(),
                now,
            )
            .and_then(|mut op| {
                op.resolve(&layout)?;
                let hooks = openclaw_sessions::ops::pipeline::Unattended;
                let plan = op.plan(&layout, &hooks)?;
                op.summarize(&plan, usize::MAX)
            })
        }
    };
    if ctx.printer.json {
        let undo = match &undo {
            Ok(summary) => serde_json::json!({"undoable": summary.changes > 0, "plan": summary}),
            Err(e) => serde_json::json!({"undoable": false, "reason": e.to_string()}),
        };
        ctx.printer
            .json_data(&serde_json::json!({"operation": record, "undo": undo}))?;
        return Ok(Outcome::Done);
    }
    let b = &record.begin;
    let mut out = String::new();
    let mut line = |k: &str, v: String| out.push_str(&format!("{k:<11}{v}\n"));
    line("operation", format!("{} ({})", value(&b.id), b.command));
    line("started", iso_from_ms(b.time));
    if let Some(t) = record.ended {
        line("ended", iso_from_ms(t));
    }
    line("outcome", record.outcome.word().into());
    if let Some(e) = &record.error {
        line("error", e.clone());
    }
    if let Some(by) = &record.resumed_by {
        line("resumed by", by.clone());
    }
    line("command", format!("openclaw-sessions {}", b.argv.join(" ")));
    line(
        "by",
        format!(
            "{} (uid {}) on {}, pid {}",
            b.origin.user.as_deref().unwrap_or("?"),
            b.origin.uid,
            b.origin.host.as_deref().unwrap_or("?"),
            b.origin.pid
        ),
    );
    line("route", format!("{:?}", b.route).to_lowercase());
    if let Some(r) = &b.release {
        line("release", format!("OpenClaw {r}"));
    }
    line("plan", b.headline.clone());
    for s in &b.snapshots {
        line(
            "snapshot",
            format!("{} (of {})", s.path.display(), s.database.display()),
        );
    }
    if let Some(of) = &b.undoes {
        line("undoes", of.clone());
    }
    if let Some(by) = &record.undone_by {
        line("undone by", by.clone());
    }
    out.push_str("actions:\n");
    if record.actions().is_empty() {
        out.push_str("  (none recorded)\n");
    }
    for a in record.actions() {
        let mut words = format!("  {} {}", a.action, a.session_key);
        if let Some(id) = &a.session_id {
            words.push_str(&format!(" ({id})"));
        }
        if !a.archives.is_empty() {
            words.push_str(&format!(": {}", a.archives.join(", ")));
        }
        if let (Some(before), Some(after)) = (&a.before, &a.after) {
            let fields: Vec<String> = before
                .iter()
                .map(|(f, v)| {
                    format!(
                        "{f} {v} -> {}",
                        after.get(f).unwrap_or(&serde_json::Value::Null)
                    )
                })
                .collect();
            words.push_str(&format!(": {}", fields.join("; ")));
        }
        if let Some(why) = &a.refused {
            words.push_str(&format!(" (refused: {why})"));
        }
        out.push_str(&words);
        out.push('\n');
    }
    match &undo {
        Err(e) => out.push_str(&format!("undo:      no: {e}\n")),
        Ok(summary) => {
            out.push_str(&format!(
                "undo:      {}\n",
                if summary.changes > 0 {
                    format!("`undo {}` would:", b.id)
                } else {
                    "nothing is left to undo:".into()
                }
            ));
            for g in &summary.groups {
                for i in &g.items {
                    out.push_str(&format!(
                        "  {} {}{}\n",
                        i.action,
                        i.target,
                        i.detail
                            .as_deref()
                            .map(|d| format!(": {d}"))
                            .unwrap_or_default()
                    ));
                }
            }
        }
    }
    ctx.printer.out(&ctx.printer.fit_lines(&out))?;
    Ok(Outcome::Done)
}
