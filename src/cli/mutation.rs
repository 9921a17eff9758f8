//! What every mutating command shares: `--dry-run`, `--wait`, and the binary's side of the
//! ops pipeline: the plan shown, the question asked, progress, warnings, a declined answer.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use openclaw_sessions::ops::{
    self, Decision, Hooks, Operation, PlanSummary, Run, RunOptions, RunState, Selection,
};
use openclaw_sessions::progress::Progress;
use openclaw_sessions::remedy::Warning;

use super::custody::CUSTODY_ENV;
use super::progress::Bar;
use super::shown::value;
use super::{signals, Ctx};

#[derive(Debug, Clone, Args)]
pub struct MutationArgs {
    /// Show the plan and change nothing.
    #[arg(short = 'n', long)]
    pub dry_run: bool,
    /// Wait up to DURATION (10m, 90s; a bare number is seconds) for a live owner of the state
    /// dir to finish.
    #[arg(long, value_name = "DURATION", value_parser = super::durations::parse_wait)]
    pub wait: Option<u64>,
    /// Write the verified snapshots of the databases the change writes into DIR (see the
    /// snapshot policy below).
    #[arg(long, value_name = "DIR")]
    pub backup_dir: Option<PathBuf>,
}

impl MutationArgs {
    /// For commands whose flags say more than the common ones (`doctor --fix`,
    /// `backup restore --in-place`).
    pub fn new(dry_run: bool, wait: Option<u64>, backup_dir: Option<PathBuf>) -> Self {
        MutationArgs {
            dry_run,
            wait,
            backup_dir,
        }
    }
}

/// The pipeline and snapshot policy of each kind of mutating command, for `--help` (the
/// README's table says the same).
pub const CHANGES_ONE_ROW: &str = "\
Runs under offline custody of the state dir (exit 75 while a Gateway owns it), without a \
question (no --yes needed). -n/--dry-run prints the plan and changes nothing. The row is \
re-read before it is written, and read back after. Snapshot: only with --backup-dir DIR (a \
verified snapshot of each changed database, before the first write).";
pub const ASKS_SNAPSHOT_ON_REQUEST: &str = "\
Runs under offline custody of the state dir (exit 75 while a Gateway owns it). -n/--dry-run \
prints the plan and changes nothing; on a terminal the same plan is shown and confirmed \
(default no; a declined question changes nothing and exits 0). The question reads a whole \
line: y or yes applies; n, no or an empty line changes nothing; anything else asks again; the \
end of input is no. Without a terminal (stdin and stderr), or with --json, -y/--yes is needed \
(exit 2, CONFIRMATION_REQUIRED). Every removed transcript is archived first, as OpenClaw does. \
Snapshot: only with --backup-dir DIR (a verified snapshot of each changed database, before the \
first write).";
pub const ASKS_SNAPSHOT_REQUIRED: &str = "\
With changes to make, runs under offline custody of the state dir (exit 75 while a Gateway \
owns it). -n/--dry-run prints the plan and changes nothing; on a terminal the same plan is \
shown and confirmed (default no; a declined question changes nothing and exits 0). The \
question reads a whole line: y or yes applies; n, no or an empty line changes nothing; \
anything else asks again; the end of input is no. Without a terminal (stdin and stderr), or \
with --json, -y/--yes is needed (exit 2, CONFIRMATION_REQUIRED). Snapshot: always, a verified \
snapshot of each database the plan changes, into --backup-dir DIR (default \
<state>/openclaw-sessions-snapshots), before the first write; one that does not verify stops \
the run (SNAPSHOT_UNVERIFIED, nothing changed).";
pub const RECLAIM: &str = "\
Runs under offline custody of the state dir (exit 75 while a Gateway owns it) without a \
question (no --yes needed): it removes nothing. -n/--dry-run prints the plan and changes \
nothing. The integrity of each database is checked before and after; the free disk is checked \
first against what the compaction needs, and a shortfall refuses (exit 5, nothing changed). \
Snapshot: only with --backup-dir DIR.";
pub const RESTORE_IN_PLACE: &str = "\
--in-place runs under offline custody of the state dir (exit 75 while a Gateway owns it). \
-n/--dry-run prints the plan and changes nothing; on a terminal the plan is shown and \
confirmed (default no). The question reads a whole line: y or yes applies; n, no or an empty \
line changes nothing; anything else asks again; the end of input is no. Without a terminal \
(stdin and stderr), or with --json, -y/--yes is needed (exit 2, CONFIRMATION_REQUIRED). \
Snapshot: always, a verified snapshot of the database being replaced, into --backup-dir DIR \
(default: the repository of SNAPSHOT), before the swap.";

/// Items shown per agent before the question and by a dry run (`-v` shows every one).
const SHOWN_ITEMS: usize = 20;

/// Ask `question` on stderr and read the answer from the terminal, a whole line at a time and
/// never more (what is typed after the line stays for the shell): `y`/`yes` is yes, `n`/`no`
/// or an empty line is no (case-insensitive); anything else asks again; the end of input, or
/// a signal, is no (the pipeline then stops as interrupted).
fn ask_line(printer: &super::Printer, question: &str) -> bool {
    loop {
        printer.stderr(&format!("{question} [y/N] "));
        let Some(line) = read_line_from_stdin() else {
            printer.stderr("\n");
            return false;
        };
        match line.trim().to_ascii_lowercase().as_str() {
            "y" | "yes" => return true,
            "" | "n" | "no" => return false,
            _ => printer.stderr("Please answer yes or no.\n"),
        }
    }
}

/// One line from stdin, read a byte at a time (so nothing after its newline is taken), polled
/// so that Ctrl-C is seen while waiting (the handler restarts reads: `signals`). `None` at the
/// end of input, on an error, or when a signal came.
fn read_line_from_stdin() -> Option<String> {
    let mut line = Vec::new();
    loop {
        if signals::interrupted() {
            return None;
        }
        let mut fd = libc::pollfd {
            fd: 0,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd, a bounded wait.
        let ready = unsafe { libc::poll(&mut fd, 1, 200) };
        if ready < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return None;
        }
        if ready == 0 {
            continue;
        }
        let mut byte = 0u8;
        // SAFETY: reads at most one byte into a local.
        let n = unsafe { libc::read(0, (&mut byte as *mut u8).cast(), 1) };
        match n {
            1 if byte == b'\n' => return Some(String::from_utf8_lossy(&line).into_owned()),
            1 => line.push(byte),
            0 => return None,
            _ if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted => {}
            _ => return None,
        }
    }
}

/// The binary's hooks: an indicatif bar, the line-reading question, the printer's warnings.
pub struct CliHooks<'a> {
    ctx: &'a Ctx,
    bar: Bar,
    /// The step in progress and when it began (`-vv`).
    step: std::cell::Cell<(&'static str, std::time::Instant)>,
}

impl<'a> CliHooks<'a> {
    pub fn new(ctx: &'a Ctx, label: &str) -> Self {
        CliHooks {
            ctx,
            bar: Bar::new(ctx, label),
            step: std::cell::Cell::new(("start", std::time::Instant::now())),
        }
    }
}

impl Hooks for CliHooks<'_> {
    fn progress(&self) -> &dyn Progress {
        &self.bar
    }

    /// On a terminal the plan, then a yes/no question (default no); without one, `--yes`.
    fn confirm(&self, summary: &PlanSummary) -> Decision {
        if self.ctx.global.yes {
            return Decision::Proceed;
        }
        let terminal = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
        if !terminal || self.ctx.printer.json {
            return Decision::Unanswered;
        }
        self.ctx.printer.stderr(&render_summary(summary));
        if ask_line(&self.ctx.printer, "Apply this plan?") {
            Decision::Proceed
        } else {
            Decision::Decline
        }
    }

    fn warn(&self, warning: Warning) {
        self.ctx.printer.warn(super::hints::warning(&warning));
    }

    fn note(&self, message: String) {
        self.ctx.printer.info(message);
    }

    fn interrupted(&self) -> bool {
        signals::interrupted()
    }

    fn stopped_with(&self, done: serde_json::Value) {
        self.ctx.printer.set_error_data(done);
    }

    fn interruption_flag(&self) -> Option<&'static std::sync::atomic::AtomicBool> {
        Some(&signals::INTERRUPTED)
    }

    /// `-vv`: each step ends with the time it took.
    fn step(&self, step: &'static str) {
        let (last, began) = self.step.replace((step, std::time::Instant::now()));
        if last != "start" {
            self.ctx.printer.trace(format!(
                "step {last}: {:.3} s",
                began.elapsed().as_secs_f64()
            ));
        }
    }
}

/// `--agent`/`--all-agents` as the ops layer takes them.
pub fn selection(ctx: &Ctx) -> Selection {
    Selection {
        agents: ctx.global.agents.clone(),
        all_agents: ctx.global.all_agents,
    }
}

/// Run `op` through the pipeline. A declined question is reported here (nothing changed,
/// exit 0) and gives `None`; a question nobody could answer is `CONFIRMATION_REQUIRED`.
pub fn run_op<O: Operation>(
    ctx: &Ctx,
    op: &mut O,
    args: &MutationArgs,
    label: &str,
) -> anyhow::Result<Option<Run<O::Plan, O::Report>>> {
    let layout = ctx.layout()?;
    if !args.dry_run {
        super::custody::run_as_state_dir_owner(ctx, &layout)?;
        signals::install();
    }
    let options = RunOptions {
        dry_run: args.dry_run,
        wait: args.wait.map(Duration::from_secs),
        inherit_custody: std::env::var(CUSTODY_ENV).ok(),
        interrupted: Some(&signals::INTERRUPTED),
        snapshot_dir: args.backup_dir.clone(),
        summary_limit: if ctx.printer.verbose {
            usize::MAX
        } else {
            SHOWN_ITEMS
        },
    };
    let hooks = CliHooks::new(ctx, label);
    let run = ops::run(op, &layout, &options, &hooks)?;
    match run.state {
        RunState::Declined => {
            // Only a question asked on a terminal is declined, and `--json` never asks
            // (`CliHooks::confirm`): there is no JSON form of a declined run.
            ctx.printer.info("Cancelled: nothing was changed.");
            Ok(None)
        }
        RunState::Unanswered => Err(super::exit::CliError::ConfirmationRequired {
            message: format!(
                "{} needs confirmation (no terminal to ask on)",
                capitalized(&run.summary.headline)
            ),
        }
        .into()),
        _ => Ok(Some(run)),
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// The plan as people read it: shown before the question (stderr) and printed by a dry run
/// (stdout), the same lines in both.
pub fn render_summary(summary: &PlanSummary) -> String {
    let mut out = format!("{}:\n", capitalized(&summary.headline));
    if summary.groups.is_empty() {
        out.push_str("  nothing to change\n");
    }
    for g in &summary.groups {
        if let Some(agent) = &g.agent_id {
            out.push_str(&format!("  agent {}:\n", value(agent)));
        }
        for i in &g.items {
            out.push_str("    ");
            // A key or a detail from the store cannot break the plan's lines.
            let target = value(&i.target);
            let detail = i.detail.as_deref().map(value);
            match (i.action.as_str(), &detail) {
                ("~" | "+" | "-", Some(d)) => out.push_str(&format!("{} {target}: {d}", i.action)),
                (_, Some(d)) => out.push_str(&format!("{} {target}  ({d})", i.action)),
                (_, None) => out.push_str(&format!("{} {target}", i.action)),
            }
            out.push('\n');
        }
        if g.hidden() > 0 {
            out.push_str(&format!("    ... and {} more\n", g.hidden()));
        }
    }
    out
}

/// A dry run's human output: the plan, and that nothing changed.
pub fn print_dry_run(ctx: &Ctx, summary: &PlanSummary) -> anyhow::Result<()> {
    ctx.printer
        .out(&ctx.printer.fit_lines(&render_summary(summary)))?;
    ctx.printer.info("(dry run: nothing was changed)");
    Ok(())
}
