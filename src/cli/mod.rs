//! The binary: argument parsing, one module per subcommand (`commands/`), output through
//! [`Printer`], errors mapped to exit codes in [`exit`].

mod commands;
mod context;
mod durations;
mod error_code;
mod examples;
mod exit;
mod hints;
mod mutation;
mod online;
mod printer;
mod progress;
mod shown;
mod signals;
mod table;

use commands::{
    archives, backup, bundle, compact, completions, custody, delete, doctor, du, lifecycle, list,
    log, man, marker, migrate, patch, prune, reclaim, search, secrets, show, status, transcript,
    undelete, undo,
};

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

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
    /// Archived transcripts wherever they are: list, cat, export.
    #[command(subcommand)]
    Archives(archives::ArchivesCommand),
    /// Full-text search through OpenClaw's FTS5 index (--archived: archives too).
    Search(search::SearchArgs),
    /// Bring a deleted session back from its archive.
    Undelete(undelete::UndeleteArgs),
    /// Change an entry and its projected columns, as OpenClaw's entry writer would.
    #[command(after_help = mutation::PATCH.help())]
    Patch(patch::PatchArgs),
    /// Set archivedAt/archiveReason on sessions, as `openclaw sessions archive` does.
    #[command(after_help = mutation::ARCHIVE.help())]
    Archive(lifecycle::LifecycleArgs),
    /// Clear archivedAt/archivedBy/archiveReason.
    #[command(after_help = mutation::UNARCHIVE.help())]
    Unarchive(lifecycle::LifecycleArgs),
    /// Delete sessions as OpenClaw's deleteSessionEntry does, archiving their transcripts.
    #[command(after_help = mutation::DELETE.help())]
    Delete(delete::DeleteArgs),
    /// The maintenance pass for cron: archive or delete what OpenClaw's maintenance would.
    #[command(after_help = mutation::PRUNE.help())]
    Prune(prune::PruneArgs),
    /// The operations this tool made on the state dir, newest first; `log show ID` in full.
    Log(log::LogArgs),
    /// Take one logged operation back (default: the newest not yet undone).
    Undo(undo::UndoArgs),
    /// Give agent databases' free pages back to the file system (VACUUM or incremental vacuum).
    #[command(after_help = mutation::RECLAIM.help())]
    Reclaim(reclaim::ReclaimArgs),
    /// Take inline media (base64 images, audio, files) out of transcript rows into files of
    /// the state dir; --restore puts it back.
    #[command(after_help = mutation::COMPACT.help())]
    Compact(compact::CompactArgs),
    /// Snapshots in OpenClaw's format: create, list, verify, restore.
    #[command(subcommand)]
    Backup(backup::BackupCommand),
    /// Sessions moved or copied between agents, state dirs, hosts and releases.
    #[command(subcommand)]
    Bundle(bundle::BundleCommand),
    /// Find what breaks stores; --fix applies the safe repairs.
    #[command(after_help = mutation::DOCTOR_FIX.help())]
    Doctor(doctor::DoctorArgs),
    /// Migrate old layouts: a legacy file store into SQLite, ACPX state adoption.
    #[command(subcommand)]
    Migrate(migrate::MigrateCommand),
    /// Disk use per agent against the maintenance budget; per session, content and table.
    Du(du::DuArgs),
    /// Credentials stored in conversations: found everywhere they are kept, never printed.
    #[command(subcommand)]
    Secrets(secrets::SecretsCommand),
    /// Format or parse the SQLite session file marker.
    #[command(subcommand)]
    Marker(marker::MarkerCommand),
    /// Offline custody of the state dir: status, run a command under it, clear stale locks.
    #[command(subcommand)]
    Custody(custody::CustodyCommand),
    /// Print the shell's completion script; it asks this binary for candidates, live ones
    /// (agents, session keys, checks, snapshots) read from the store the line points at.
    Completions(completions::CompletionsArgs),
    /// Write man pages.
    Man(man::ManArgs),
}

impl Command {
    /// `-o FORMAT` of the commands that print a table.
    fn table_format(&self) -> printer::TableFormat {
        let output = match self {
            Command::Status(a) => Some(&a.output),
            Command::List(a) => Some(&a.output),
            Command::Du(a) => Some(&a.output),
            Command::Search(a) => Some(&a.output),
            Command::Log(a) if a.show.is_none() => Some(&a.output),
            Command::Archives(archives::ArchivesCommand::List(a)) => Some(&a.output),
            Command::Backup(backup::BackupCommand::List(a)) => Some(&a.output),
            _ => None,
        };
        output.map(|o| o.format).unwrap_or_default()
    }

    fn name(&self) -> &'static str {
        match self {
            Command::Status(_) => "status",
            Command::List(_) => "list",
            Command::Show(_) => "show",
            Command::Transcript(t) => t.name(),
            Command::Archives(a) => a.name(),
            Command::Search(_) => "search",
            Command::Undelete(_) => "undelete",
            Command::Patch(_) => "patch",
            Command::Archive(_) => "archive",
            Command::Unarchive(_) => "unarchive",
            Command::Delete(_) => "delete",
            Command::Prune(_) => "prune",
            Command::Reclaim(_) => "reclaim",
            Command::Compact(_) => "compact",
            Command::Log(_) => "log",
            Command::Undo(_) => "undo",
            Command::Backup(b) => b.name(),
            Command::Bundle(b) => b.name(),
            Command::Doctor(_) => "doctor",
            Command::Migrate(m) => m.name(),
            Command::Du(_) => "du",
            Command::Secrets(s) => s.name(),
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
        Command::Archives(cmd) => archives::run(ctx, cmd),
        Command::Search(args) => search::run(ctx, args),
        Command::Undelete(args) => undelete::run(ctx, args),
        Command::Patch(args) => patch::run(ctx, args),
        Command::Archive(args) => lifecycle::run(ctx, args, true),
        Command::Unarchive(args) => lifecycle::run(ctx, args, false),
        Command::Delete(args) => delete::run(ctx, args),
        Command::Prune(args) => prune::run(ctx, args),
        Command::Reclaim(args) => reclaim::run(ctx, args),
        Command::Compact(args) => compact::run(ctx, args),
        Command::Log(args) => log::run(ctx, args),
        Command::Undo(args) => undo::run(ctx, args),
        Command::Backup(cmd) => backup::run(ctx, cmd),
        Command::Bundle(cmd) => bundle::run(ctx, cmd),
        Command::Doctor(args) => doctor::run(ctx, args),
        Command::Migrate(cmd) => migrate::run(ctx, cmd),
        Command::Du(args) => du::run(ctx, args),
        Command::Secrets(cmd) => secrets::run(ctx, cmd),
        Command::Marker(cmd) => marker::run(ctx, cmd),
        Command::Custody(cmd) => custody::run(ctx, cmd),
        Command::Completions(args) => completions::run(ctx, args),
        Command::Man(args) => man::run(ctx, args),
    }
}

/// The whole command line as `--help`, man pages and completion see it: the derived
/// definition plus each command's examples.
pub fn command() -> clap::Command {
    examples::attach(Cli::command())
}

pub fn main() -> i32 {
    completions::answer_if_asked();
    let mut cli = match command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(e) => return exit::clap_error(e),
    };
    let format = cli.command.table_format();
    if format == printer::TableFormat::Json {
        cli.global.json = true;
    }
    let printer = Printer::new(
        cli.global.json,
        cli.global.quiet,
        cli.global.verbose,
        cli.global.color,
    );
    printer.set_command(cli.command.name());
    printer.set_wide(cli.global.wide);
    printer.set_table_format(cli.global.no_headers, format);
    let g = &cli.global;
    hints::remember(
        g.state_dir.as_deref(),
        g.profile.as_deref(),
        g.config.as_deref(),
        &g.agents,
        g.all_agents,
    );
    let ctx = Ctx::new(printer, cli.global.clone());
    let result = dispatch(&ctx, &cli.command);
    exit::finish(&ctx.printer, result)
}

#[cfg(test)]
mod tests {
    use super::{command, Cli};
    use clap::CommandFactory;

    fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
        for arg in cmd.get_arguments() {
            let id = arg.get_id().as_str();
            if matches!(id, "help" | "version") {
                continue;
            }
            if arg.get_help().is_none() && arg.get_long_help().is_none() {
                missing.push(format!("{path} {id}"));
            }
        }
        for sub in cmd.get_subcommands() {
            if sub.get_name() == "help" {
                continue;
            }
            if sub.get_about().is_none() {
                missing.push(format!("{path} {} (the command)", sub.get_name()));
            }
            walk(sub, &format!("{path} {}", sub.get_name()), missing);
        }
    }

    /// Every command and every argument says what it is in `--help`.
    #[test]
    fn every_argument_is_documented() {
        let mut cmd = command();
        cmd.build();
        let mut missing = Vec::new();
        walk(&cmd, "openclaw-sessions", &mut missing);
        assert!(missing.is_empty(), "undocumented: {missing:#?}");
    }

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}

#[cfg(test)]
mod example_tests {
    use super::command;

    fn paths(cmd: &clap::Command, path: &str, out: &mut Vec<String>) {
        out.push(path.to_string());
        for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
            let p = if path.is_empty() {
                sub.get_name().to_string()
            } else {
                format!("{path} {}", sub.get_name())
            };
            paths(sub, &p, out);
        }
    }

    /// Every command ends its `--help` with examples, and every example parses.
    #[test]
    fn every_command_has_examples_that_parse() {
        let mut all = Vec::new();
        paths(&command(), "", &mut all);
        for path in all {
            let lines =
                super::examples::of(&path).unwrap_or_else(|| panic!("no examples for {path:?}"));
            for line in lines.iter().filter(|l| l.starts_with("openclaw-sessions ")) {
                let words = shlex_words(line);
                if let Err(e) = command().try_get_matches_from(&words) {
                    panic!("example {line:?} does not parse: {e}");
                }
            }
        }
    }

    /// Enough of shell quoting for the examples: single quotes, and a pipe ends the command.
    fn shlex_words(line: &str) -> Vec<String> {
        let mut words = Vec::new();
        let mut cur = String::new();
        let mut quoted = false;
        for c in line.chars() {
            match c {
                '\'' => quoted = !quoted,
                ' ' if !quoted => {
                    if !cur.is_empty() {
                        words.push(std::mem::take(&mut cur));
                    }
                }
                '|' | '>' if !quoted => break,
                c => cur.push(c),
            }
        }
        if !cur.is_empty() {
            words.push(cur);
        }
        words
    }
}
