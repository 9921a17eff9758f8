//! The binary: argument parsing, one module per subcommand, output through [`Printer`],
//! errors mapped to exit codes in [`exit`].

mod backup;
mod completions;
mod context;
mod custody;
mod delete;
mod doctor;
mod du;
mod error_code;
mod exit;
mod hints;
mod lifecycle;
mod list;
mod man;
mod marker;
mod migrate;
mod migrate_legacy;
mod mutation;
mod patch;
mod printer;
mod progress;
mod prune;
mod reclaim;
mod show;
mod signals;
mod status;
mod transcript;

use clap::{Parser, Subcommand};

pub use context::{Ctx, GlobalArgs};
pub use printer::Printer;

#[derive(Debug, Parser)]
#[command(
    name = "openclaw-sessions",
    version,
    about = "Offline operator and doctor tool for OpenClaw session stores",
    long_about = "Inspect, patch, back up, delete, prune and migrate OpenClaw sessions and transcripts \
offline, without a running Gateway. Read-only commands never change a byte of the state dir; \
mutating commands take OpenClaw's offline custody first.",
    after_help = "Exit codes: 0 done, 1 failed, 2 usage, 3 problems found or partly done, 4 not found, \
5 refused by a guard, 6 unsupported store or bad input, 75 state dir owned by a live process, 130 interrupted."
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// State dir, config, agents, databases, sizes, pending migrations and custody.
    Status(status::StatusArgs),
    /// One row per session, with filters and sorting.
    #[command(visible_alias = "ls")]
    List(list::ListArgs),
    /// One session in full: entry, promoted columns, transcript windows, archives.
    Show(show::ShowArgs),
    /// Read transcripts: cat, delta pages, text catalog, export.
    #[command(subcommand)]
    Transcript(transcript::TranscriptCommand),
    /// Change an entry and its projected columns, as OpenClaw's entry writer would.
    #[command(after_help = mutation::CHANGES_ONE_ROW)]
    Patch(patch::PatchArgs),
    /// Set archivedAt/archiveReason on sessions, as `openclaw sessions archive` does.
    #[command(after_help = mutation::CHANGES_ONE_ROW)]
    Archive(lifecycle::LifecycleArgs),
    /// Clear archivedAt/archivedBy/archiveReason.
    #[command(after_help = mutation::CHANGES_ONE_ROW)]
    Unarchive(lifecycle::LifecycleArgs),
    /// Delete sessions as OpenClaw's deleteSessionEntry does, archiving their transcripts.
    #[command(after_help = mutation::ASKS_SNAPSHOT_ON_REQUEST)]
    Delete(delete::DeleteArgs),
    /// The maintenance pass for cron: archive or delete what OpenClaw's maintenance would.
    #[command(after_help = mutation::ASKS_SNAPSHOT_ON_REQUEST)]
    Prune(prune::PruneArgs),
    /// Give agent databases' free pages back to the file system (VACUUM or incremental vacuum).
    #[command(after_help = mutation::RECLAIM)]
    Reclaim(reclaim::ReclaimArgs),
    /// Snapshots in OpenClaw's format: create, list, verify, restore.
    #[command(subcommand)]
    Backup(backup::BackupCommand),
    /// Find what breaks stores; --fix applies the safe repairs.
    #[command(after_help = mutation::ASKS_SNAPSHOT_REQUIRED)]
    Doctor(doctor::DoctorArgs),
    /// Migrate old layouts: a legacy file store into SQLite, ACPX state adoption.
    #[command(subcommand)]
    Migrate(migrate::MigrateCommand),
    /// Disk use per agent against the maintenance budget.
    Du(du::DuArgs),
    /// Format or parse the SQLite session file marker.
    #[command(subcommand)]
    Marker(marker::MarkerCommand),
    /// Offline custody of the state dir: status, run a command under it, clear stale locks.
    #[command(subcommand)]
    Custody(custody::CustodyCommand),
    /// Print a shell completion script.
    Completions(completions::CompletionsArgs),
    /// Write man pages.
    Man(man::ManArgs),
}

impl Command {
    fn name(&self) -> &'static str {
        match self {
            Command::Status(_) => "status",
            Command::List(_) => "list",
            Command::Show(_) => "show",
            Command::Transcript(t) => t.name(),
            Command::Patch(_) => "patch",
            Command::Archive(_) => "archive",
            Command::Unarchive(_) => "unarchive",
            Command::Delete(_) => "delete",
            Command::Prune(_) => "prune",
            Command::Reclaim(_) => "reclaim",
            Command::Backup(b) => b.name(),
            Command::Doctor(_) => "doctor",
            Command::Migrate(m) => m.name(),
            Command::Du(_) => "du",
            Command::Marker(m) => m.name(),
            Command::Custody(c) => c.name(),
            Command::Completions(_) => "completions",
            Command::Man(_) => "man",
        }
    }
}

fn dispatch(ctx: &Ctx, command: &Command) -> anyhow::Result<exit::Outcome> {
    match command {
        Command::Status(args) => status::run(ctx, args),
        Command::List(args) => list::run(ctx, args),
        Command::Show(args) => show::run(ctx, args),
        Command::Transcript(cmd) => transcript::run(ctx, cmd),
        Command::Patch(args) => patch::run(ctx, args),
        Command::Archive(args) => lifecycle::run(ctx, args, true),
        Command::Unarchive(args) => lifecycle::run(ctx, args, false),
        Command::Delete(args) => delete::run(ctx, args),
        Command::Prune(args) => prune::run(ctx, args),
        Command::Reclaim(args) => reclaim::run(ctx, args),
        Command::Backup(cmd) => backup::run(ctx, cmd),
        Command::Doctor(args) => doctor::run(ctx, args),
        Command::Migrate(cmd) => migrate::run(ctx, cmd),
        Command::Du(args) => du::run(ctx, args),
        Command::Marker(cmd) => marker::run(ctx, cmd),
        Command::Custody(cmd) => custody::run(ctx, cmd),
        Command::Completions(args) => completions::run(ctx, args),
        Command::Man(args) => man::run(ctx, args),
    }
}

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return exit::clap_error(e),
    };
    let printer = Printer::new(
        cli.global.json,
        cli.global.quiet,
        cli.global.verbose,
        cli.global.color,
    );
    printer.set_command(cli.command.name());
    let ctx = Ctx::new(printer, cli.global.clone());
    let result = dispatch(&ctx, &cli.command);
    exit::finish(&ctx.printer, result)
}
