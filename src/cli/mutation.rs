//! What every mutating command shares: `--dry-run`, `--wait`, and the binary's side of the
//! ops pipeline: the plan shown, the question asked, progress, warnings, a declined answer.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use openclaw_sessions::interruption::Interruption;
use openclaw_sessions::ops::backup_prune::BackupPruneOp;
use openclaw_sessions::ops::compact::CompactOp;
use openclaw_sessions::ops::delete::DeleteOp;
use openclaw_sessions::ops::doctor_fix::DoctorFixOp;
use openclaw_sessions::ops::entry_change::EntryChangeOp;
use openclaw_sessions::ops::migrate_acpx::MigrateAcpxOp;
use openclaw_sessions::ops::migrate_legacy::MigrateLegacyOp;
use openclaw_sessions::ops::migrate_schema::MigrateSchemaOp;
use openclaw_sessions::ops::online::{OnlineOperation, SessionRpc};
use openclaw_sessions::ops::prune::PruneOp;
use openclaw_sessions::ops::reclaim::ReclaimOp;
use openclaw_sessions::ops::restore::RestoreOp;
use openclaw_sessions::ops::restore_session::RestoreSessionOp;
use openclaw_sessions::ops::scrub::ScrubOp;
use openclaw_sessions::ops::{
    self, Decision, Hooks, Operation, PlanSummary, Run, RunOptions, RunState, Selection,
    SnapshotPolicy,
};
use openclaw_sessions::progress::Progress;
use openclaw_sessions::remedy::Warning;

use super::commands::custody::CUSTODY_ENV;
use super::online::OnlineArgs;
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

/// Which sessions a command that changes many acts on, besides the keys given: the filters
/// of `list` over the sessions in scope (the default agent unless `--agent`/`--all-agents`),
/// and keys read from a file or stdin.
#[derive(Debug, Clone, Args)]
pub struct Selectors {
    #[command(flatten)]
    pub filters: super::commands::list::SessionFilters,
    /// Also act on the keys in FILE (`-`: stdin), one a line; blank lines and lines
    /// starting with # are skipped.
    #[arg(long, value_name = "FILE|-")]
    pub keys_from: Option<PathBuf>,
}

impl Selectors {
    /// Whether a selector (a filter, `--keys-from`) was given: the run then shows every match
    /// in its plan and asks before it writes (`-y` skips the question).
    pub fn used(&self) -> bool {
        self.filters.any() || self.keys_from.is_some()
    }

    /// The keys given, then those read with --keys-from, then those the filters match; each
    /// once. Err when nothing names any session at all; an empty Vec when selectors were
    /// given and matched nothing. With a selector the plan is shown whole before the question.
    pub fn keys(&self, ctx: &Ctx, given: &[String]) -> anyhow::Result<Vec<String>> {
        if given.is_empty() && self.keys_from.is_none() && !self.filters.any() {
            return Err(openclaw_sessions::Error::invalid(
                "name the sessions: KEY..., --keys-from FILE|-, or a filter (--kind, --match, --updated-before, ...)",
            )
            .into());
        }
        let mut keys: Vec<String> = given.to_vec();
        if let Some(from) = &self.keys_from {
            let text = if from.as_os_str() == "-" {
                let mut text = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
                    .map_err(|e| openclaw_sessions::Error::io("<stdin>", e))?;
                text
            } else {
                openclaw_sessions::fsutil::read_regular_to_string(from)?
            };
            keys.extend(
                text.lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty() && !l.starts_with('#'))
                    .map(String::from),
            );
        }
        if self.filters.any() {
            let layout = ctx.layout()?;
            keys.extend(self.filters.matching_keys(ctx, ctx.agents(&layout)?)?);
        }
        if self.used() {
            ctx.printer.set_whole_plan();
        }
        let mut seen = std::collections::HashSet::new();
        keys.retain(|k| seen.insert(k.clone()));
        Ok(keys)
    }
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

/// How a mutating command runs, from its operation's own constants: whether it asks first
/// (`Operation::ASKS_FIRST`) and when it snapshots (`Operation::SNAPSHOT`). Its `--help` and
/// the README's table are generated from these (the test below ties the README to them).
#[derive(Debug, Clone, Copy)]
pub struct Runs {
    pub asks_first: bool,
    /// It asks when a selector chose the sessions (`EntryChangeOp::asks_first`), though not
    /// for KEYs named one by one.
    pub selector_asks: bool,
    pub snapshot: SnapshotPolicy,
    /// Where a required snapshot goes without --backup-dir.
    pub default_dir: DefaultDir,
    /// What the command adds to the pipeline's rules, for its `--help`.
    pub notes: &'static str,
    /// Whether a live Gateway's RPC carries it (`ops::online`).
    pub online: bool,
}

/// Where a required snapshot goes without --backup-dir.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultDir {
    /// The safety repository (docs/SNAPSHOTS.md).
    Repository,
    /// The repository of the snapshot being restored.
    RestoredSnapshots,
}

const fn runs<O: Operation>(notes: &'static str) -> Runs {
    Runs {
        asks_first: O::ASKS_FIRST,
        selector_asks: false,
        snapshot: O::SNAPSHOT,
        default_dir: DefaultDir::Repository,
        notes,
        online: false,
    }
}

/// A command the live Gateway's RPC carries.
const fn online<O: OnlineOperation>(notes: &'static str) -> Runs {
    Runs {
        online: true,
        ..runs::<O>(notes)
    }
}

const ONE_ROW: &str = "The row is re-read before it is written, and read back after.";
const ARCHIVES_FIRST: &str = "Every removed transcript is archived first, as OpenClaw does.";

pub const DOCTOR_FIX: Runs = runs::<DoctorFixOp>("");
pub const MIGRATE_LEGACY: Runs = runs::<MigrateLegacyOp>("");
pub const MIGRATE_ACPX: Runs = runs::<MigrateAcpxOp>("");
pub const MIGRATE_SCHEMA: Runs = runs::<MigrateSchemaOp>("");
pub const RESTORE_IN_PLACE: Runs = Runs {
    default_dir: DefaultDir::RestoredSnapshots,
    ..runs::<RestoreOp>("")
};
pub const DELETE: Runs = online::<DeleteOp>(ARCHIVES_FIRST);
pub const PRUNE: Runs = online::<PruneOp>(ARCHIVES_FIRST);
pub const RESTORE_SESSION: Runs = runs::<RestoreSessionOp>("");
/// An entry change: one row a KEY, without a question; a selector's sessions, asked.
const ENTRY_CHANGE: Runs = Runs {
    selector_asks: true,
    ..online::<EntryChangeOp>(ONE_ROW)
};
pub const PATCH: Runs = ENTRY_CHANGE;
pub const ARCHIVE: Runs = ENTRY_CHANGE;
pub const UNARCHIVE: Runs = ENTRY_CHANGE;
pub const BACKUP_PRUNE: Runs = runs::<BackupPruneOp>(
    "Never removed: the newest N of each database (N is at least 1, so the snapshot an \
interrupted run took before it changed anything stays), a snapshot that is not complete (being \
written, or left by a killed run), and every snapshot of an agent where an interrupted restore \
left its staging files. Nothing to remove prints nothing (exit 0).",
);
pub const SECRETS_SCRUB: Runs = runs::<ScrubOp>(
    "The safety snapshot holds the secrets: it is removed once the change is verified, unless \
--keep-snapshot. Snapshots holding a selected secret are listed, and removed only with \
--remove-snapshots.",
);
pub const RECLAIM: Runs = runs::<ReclaimOp>(
    "It removes nothing. The integrity of each database is checked before and after; the free \
disk is checked first against what the compaction needs, and a shortfall refuses (exit 5, \
nothing changed).",
);

pub const COMPACT: Runs = runs::<CompactOp>(
    "Each payload is written to a file of the state dir (openclaw-sessions/media/<agent>, named \
by its sha256, 0600) with a record that brings its row back, both synced, before the row \
changes; the block left in the row is OpenClaw's own omitted-image form. --restore puts every \
payload back byte for byte and removes the files only after the rows read back as they were.",
);

impl Runs {
    /// The pipeline and snapshot policy, for the command's `--help` (`after_help`).
    pub fn help(&self) -> String {
        let mut text = self.pipeline();
        if !self.notes.is_empty() {
            text.push(' ');
            text.push_str(self.notes);
        }
        text.push_str(" Snapshot: ");
        text.push_str(&self.snapshot_words());
        text
    }

    /// Custody, the dry run and, when it asks first, the question.
    fn pipeline(&self) -> String {
        let custody = if self.online {
            "Runs under offline custody of the state dir; while a live Gateway of this host owns \
it, through the Gateway's own RPC instead (the same plan, question and output, with \
\"via\": \"gateway\"; its secret from --token, --password-file, gateway.auth.token or \
OPENCLAW_GATEWAY_TOKEN), or with --offline a refusal (exit 75)"
        } else {
            "Runs under offline custody of the state dir (exit 75 while a Gateway owns it: it has \
no Gateway RPC)"
        };
        const QUESTION: &str = "the same plan is shown and confirmed (default no; a declined \
question changes nothing and exits 0). The question reads a whole line: y or yes applies; n, no \
or an empty line changes nothing; anything else asks again; the end of input is no. Without a \
terminal (stdin and stderr), or with --json, -y/--yes is needed (exit 2, CONFIRMATION_REQUIRED).";
        if self.asks_first {
            format!(
                "{custody}. -n/--dry-run prints the plan and changes nothing; on a terminal \
{QUESTION}"
            )
        } else if self.selector_asks {
            format!(
                "{custody}. -n/--dry-run prints the plan and changes nothing. The KEYs named \
are changed without a question (no --yes needed); sessions a selector chose (a filter of list, \
--keys-from) are all listed in the plan, and on a terminal {QUESTION}"
            )
        } else {
            format!(
                "{custody}, without a question (no --yes needed). -n/--dry-run prints the plan \
and changes nothing."
            )
        }
    }

    /// When a snapshot is taken, and where.
    fn snapshot_words(&self) -> String {
        match self.snapshot {
            SnapshotPolicy::Required => format!(
                "always, a verified snapshot of each database the plan changes, into \
--backup-dir DIR (default {}), before the first write; one that does not verify stops the run \
(SNAPSHOT_UNVERIFIED, nothing changed).",
                match self.default_dir {
                    DefaultDir::Repository =>
                        "the safety repository, <data>/safety (see backup --help)",
                    DefaultDir::RestoredSnapshots => "the repository of SNAPSHOT",
                }
            ),
            SnapshotPolicy::OnRequest => "only with --backup-dir DIR (a verified snapshot of \
each changed database, before the first write)."
                .to_string(),
            SnapshotPolicy::Never => {
                "none: it changes no database a snapshot could bring back.".to_string()
            }
        }
    }
}

/// `backup restore`: two operations behind one command, said once when they run alike.
pub fn restore_help() -> String {
    let (whole, one) = (RESTORE_IN_PLACE, RESTORE_SESSION);
    if whole.asks_first == one.asks_first {
        format!(
            "With --in-place or --session: {} Snapshot with --in-place: {} With --session: {}",
            whole.pipeline(),
            whole.snapshot_words(),
            one.snapshot_words()
        )
    } else {
        format!(
            "With --in-place: {}\n\nWith --session: {}",
            whole.help(),
            one.help()
        )
    }
}

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
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    use rustix::io::Errno;
    const POLL_INTERVAL: Timespec = Timespec {
        tv_sec: 0,
        tv_nsec: 200_000_000,
    };
    let stdin = std::io::stdin();
    let mut line = Vec::new();
    loop {
        if signals::interruption().requested() {
            return None;
        }
        let mut fds = [PollFd::new(&stdin, PollFlags::IN)];
        match poll(&mut fds, Some(&POLL_INTERVAL)) {
            Ok(0) | Err(Errno::INTR) => continue,
            Ok(_) => {}
            Err(_) => return None,
        }
        let mut byte = [0u8];
        match rustix::io::read(&stdin, &mut byte) {
            Ok(1) if byte[0] == b'\n' => return Some(String::from_utf8_lossy(&line).into_owned()),
            Ok(1) => line.push(byte[0]),
            Ok(_) => return None,
            Err(Errno::INTR) => {}
            Err(_) => return None,
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

    fn interruption(&self) -> Interruption {
        signals::interruption()
    }

    fn stopped_with(&self, done: serde_json::Value) {
        self.ctx.printer.set_error_data(done);
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

/// `--agent`/`--all-agents` resolved once, as the ops layer takes them.
pub fn selection(ctx: &Ctx) -> anyhow::Result<Selection> {
    let layout = ctx.layout()?;
    Ok(ctx.selection(&layout)?)
}

/// The pipeline's options from the command's flags.
fn run_options(ctx: &Ctx, args: &MutationArgs) -> RunOptions {
    RunOptions {
        dry_run: args.dry_run,
        wait: args.wait.map(Duration::from_secs),
        inherit_custody: std::env::var(CUSTODY_ENV).ok(),
        snapshot_dir: args.backup_dir.clone(),
        summary_limit: if ctx.printer.verbose || ctx.printer.whole_plan() {
            usize::MAX
        } else {
            SHOWN_ITEMS
        },
        // Every run of the binary is logged (docs/OPLOG.md), under the command's own name.
        record: Some(ops::pipeline::Recording::new(
            ctx.printer.command(),
            std::env::args().skip(1).collect(),
        )),
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
    let mut layout = ctx.layout()?;
    if !args.dry_run {
        super::commands::custody::run_as_state_dir_owner(ctx, &layout)?;
        layout = ctx.layout()?;
        signals::install();
    }
    let hooks = CliHooks::new(ctx, label);
    let run = ops::run(op, &layout, &run_options(ctx, args), &hooks)
        .map_err(|e| super::online::explain_refusal(e.into(), label, &layout))?;
    finish_run(ctx, run)
}

/// [`run_op`] for the commands the Gateway's RPC carries: while a live Gateway of this host
/// owns the state dir (and without `--offline`), the run goes through it (`ops::online`);
/// otherwise, and for every dry run, it is the offline pipeline's.
pub fn run_online_op<O: OnlineOperation>(
    ctx: &Ctx,
    op: &mut O,
    args: &MutationArgs,
    online: &OnlineArgs,
    label: &str,
) -> anyhow::Result<Option<Run<O::Plan, O::Report>>> {
    if args.dry_run || online.offline {
        return run_op(ctx, op, args, label);
    }
    let layout = ctx.layout()?;
    let probe = openclaw_sessions::custody::probe(&layout);
    if !super::online::live_gateway(&probe) {
        return run_op(ctx, op, args, label);
    }
    super::commands::custody::run_as_state_dir_owner(ctx, &layout)?;
    let layout = ctx.layout()?;
    signals::install();
    let hooks = CliHooks::new(ctx, label);
    let mut connect = || {
        let (client, route) = super::online::connect(&layout, &probe, &online.gateway, args.wait)?;
        ctx.printer.debug(format!(
            "connected to the live Gateway at {} (OpenClaw {}), scopes {}",
            route.url,
            route.version,
            route.scopes.join(", ")
        ));
        Ok((Box::new(client) as Box<dyn SessionRpc>, route))
    };
    let run = ops::online::run_online(op, &layout, &run_options(ctx, args), &hooks, &mut connect)?;
    finish_run(ctx, run)
}

/// [`run_online_op`] for the commands the owner route carries too (`ops::owner`): offline, on
/// a store of a release this tool does not write, or with `--via-openclaw`/`--openclaw`, the
/// installed OpenClaw package's own code writes the plan. A live Gateway still goes first on
/// a newer store (it is the owner); with `--via-openclaw` it is refused (75), as any offline
/// change is. Dry runs are this tool's own reads.
pub fn run_owned_op<O: OnlineOperation + ops::owner::OwnerOperation>(
    ctx: &Ctx,
    op: &mut O,
    args: &MutationArgs,
    online: &OnlineArgs,
    owner: &super::online::OwnerArgs,
    label: &str,
) -> anyhow::Result<Option<Run<O::Plan, O::Report>>> {
    let asked = owner.via_openclaw || owner.openclaw.is_some();
    if args.dry_run {
        return run_op(ctx, op, args, label);
    }
    let layout = ctx.layout()?;
    // A store that is one newer release's (every database of it): its package writes it. A
    // state dir of mixed releases stays refused by the release check, whose refusal names
    // the routes.
    let newer = openclaw_sessions::store::releases::newer_owner(
        &openclaw_sessions::status::database_schemas(&layout),
    )
    .is_some();
    if !asked && !newer {
        return run_online_op(ctx, op, args, online, label);
    }
    let probe = openclaw_sessions::custody::probe(&layout);
    if super::online::live_gateway(&probe) && !asked && !online.offline {
        return run_online_op(ctx, op, args, online, label);
    }
    if probe.owner.state == openclaw_sessions::custody::OwnerState::Live {
        return Err(openclaw_sessions::Error::OwnerUnavailable {
            message: format!(
                "the state dir has a live owner ({}), and the installed OpenClaw's code writes offline only",
                probe.owner.role.as_deref().unwrap_or("unknown role")
            ),
            hint: Some("leave out --via-openclaw (a live Gateway then writes the change), or stop the owner and run it again".into()),
        }
        .into());
    }
    let owner_words = match openclaw_sessions::store::releases::newer_owner(
        &openclaw_sessions::status::database_schemas(&layout),
    ) {
        Some(n) => n.words(),
        None => "the OpenClaw release that owns it".to_string(),
    };
    let path = std::env::var_os("PATH");
    let package =
        ops::owner::find_package(owner.openclaw.as_deref(), path.as_deref(), &owner_words)?;
    ops::owner::require_owner(&package, &layout)?;
    super::commands::custody::run_as_state_dir_owner(ctx, &layout)?;
    let layout = ctx.layout()?;
    signals::install();
    let writer = ops::owner::OwnerWriter {
        package,
        state_dir: layout.state_dir.clone(),
        config: layout.config.path.clone(),
    };
    let hooks = CliHooks::new(ctx, label);
    let run = ops::owner::run_owner(op, &layout, &run_options(ctx, args), &hooks, &writer)?;
    finish_run(ctx, run)
}

/// A declined question is reported here (nothing changed, exit 0) and gives `None`; a
/// question nobody could answer is `CONFIRMATION_REQUIRED`.
fn finish_run<P, R>(ctx: &Ctx, run: Run<P, R>) -> anyhow::Result<Option<Run<P, R>>> {
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

/// How the run reached the store, for JSON data: `"offline"` (this tool's writer, under its
/// custody), `"gateway"` with the Gateway's URL, version and scopes, `"openclaw"` with the
/// package whose code wrote it, or `"none"` when a run with nothing to do did not take the
/// owner's route it would have taken (`notReached` names it): it only read the store.
pub fn via<P, R>(run: &Run<P, R>) -> serde_json::Value {
    match (&run.gateway, &run.owner, &run.not_reached) {
        (Some(route), _, _) => serde_json::json!({"via": "gateway", "gateway": route}),
        (None, Some(package), _) => serde_json::json!({"via": "openclaw", "openclaw": package}),
        (None, None, Some(route)) => serde_json::json!({"via": "none", "notReached": route}),
        (None, None, None) => serde_json::json!({"via": "offline"}),
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

#[cfg(test)]
mod tests {
    use super::*;
    use openclaw_sessions::ops::bundle_import::BundleImportOp;
    use openclaw_sessions::ops::undelete::UndeleteOp;

    /// Every mutating command as typed, in the README table's order. (`undelete`'s `--help`
    /// is still its own text, `cli/commands/undelete.rs`.)
    const MUTATING: &[(&str, Runs)] = &[
        ("doctor --fix", DOCTOR_FIX),
        ("migrate legacy", MIGRATE_LEGACY),
        ("migrate acpx", MIGRATE_ACPX),
        ("migrate schema", MIGRATE_SCHEMA),
        ("backup restore --in-place", RESTORE_IN_PLACE),
        ("delete", DELETE),
        ("prune", PRUNE),
        ("undelete", runs::<UndeleteOp>("")),
        ("backup restore --session", RESTORE_SESSION),
        ("bundle import", runs::<BundleImportOp>("")),
        ("backup prune", BACKUP_PRUNE),
        ("patch", PATCH),
        ("archive", ARCHIVE),
        ("unarchive", UNARCHIVE),
        ("reclaim", RECLAIM),
        ("compact", COMPACT),
        ("secrets scrub", SECRETS_SCRUB),
    ];

    /// The README table's cells for the question and the snapshot.
    fn cells(runs: &Runs) -> (&'static str, String) {
        let asks = match (runs.asks_first, runs.selector_asks) {
            (true, _) => "yes",
            (false, true) => "with a selector",
            (false, false) => "no",
        };
        let snapshot = match runs.snapshot {
            SnapshotPolicy::Required => format!(
                "always, of each database the plan changes, into `--backup-dir DIR` (default {})",
                match runs.default_dir {
                    DefaultDir::Repository => "the safety repository `<data>/safety`",
                    DefaultDir::RestoredSnapshots => "the repository of the snapshot it restores",
                }
            ),
            SnapshotPolicy::OnRequest => "only with `--backup-dir DIR`".to_string(),
            SnapshotPolicy::Never => "never".to_string(),
        };
        (asks, snapshot)
    }

    /// The README's table of mutating commands: one row per way of running, its commands in
    /// [`MUTATING`]'s order.
    fn policy_table() -> String {
        let mut rows: Vec<(Vec<&str>, (&str, String))> = Vec::new();
        for (command, runs) in MUTATING {
            let cells = cells(runs);
            match rows.iter_mut().find(|(_, c)| *c == cells) {
                Some((commands, _)) => commands.push(command),
                None => rows.push((vec![command], cells)),
            }
        }
        let mut table = String::from(
            "| command | asks first (else `--yes`) | snapshot before the change |\n|---|---|---|\n",
        );
        for (commands, (asks, snapshot)) in rows {
            let commands: Vec<String> = commands.iter().map(|c| format!("`{c}`")).collect();
            table.push_str(&format!(
                "| {} | {asks} | {snapshot} |\n",
                commands.join(", ")
            ));
        }
        table
    }

    /// The README's table is the one the operations' constants give.
    #[test]
    fn the_readme_table_is_the_operations_policy() {
        let readme =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
        let table = policy_table();
        assert!(
            readme.contains(&table),
            "README.md's table of mutating commands is not what the operations' SNAPSHOT and \
ASKS_FIRST give; put this in its place:\n{table}"
        );
    }
}
