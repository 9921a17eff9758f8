//! The one place where errors become exit codes and JSON error codes (README.md, Exit codes).

use std::io::Write;

use openclaw_sessions::Error;

pub use super::error_code::ErrorCode;

use super::printer::{BrokenPipe, Printer};

/// Errors only the binary has.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// A destructive command without a terminal to ask on and without `--yes`.
    #[error("{message}")]
    ConfirmationRequired { message: String },
    /// `custody run`'s command could not be started: not found (127) or not executable (126),
    /// the statuses `env`, `timeout` and `nohup` exit with.
    #[error("{message}")]
    CommandNotRun {
        message: String,
        hint: String,
        found: bool,
    },
}

impl CliError {
    fn code(&self) -> ErrorCode {
        match self {
            CliError::ConfirmationRequired { .. } => ErrorCode::ConfirmationRequired,
            CliError::CommandNotRun { found: false, .. } => ErrorCode::CommandNotFound,
            CliError::CommandNotRun { found: true, .. } => ErrorCode::CommandNotExecutable,
        }
    }

    fn hint(&self) -> Option<String> {
        match self {
            CliError::ConfirmationRequired { .. } => {
                Some("pass --yes to confirm, or --dry-run to see the plan".into())
            }
            CliError::CommandNotRun { hint, .. } => Some(hint.clone()),
        }
    }
}

/// How a command that ran to its end went. A command that did not do all it was asked
/// (a refused key, findings) records it with [`Printer::fail`] before its document is
/// written and still ends `Done`: [`finish`] reads the exit status from that record, so
/// that `--json`'s `ok` and the exit status cannot disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// Exit with a child's code (`custody run`: the child's output is the output).
    Child(i32),
}

pub fn clap_error(e: clap::Error) -> i32 {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                2
            } else {
                0
            }
        }
        _ => {
            let args: Vec<String> = std::env::args().skip(1).collect();
            if wants_json(&args) {
                let doc = usage_document(&e, &args);
                // A closed stdout loses the document; the exit code still says USAGE.
                let _ = writeln!(
                    std::io::stdout().lock(),
                    "{}",
                    serde_json::to_string(&doc).unwrap_or_default()
                );
            }
            let _ = e.print();
            ErrorCode::Usage.exit_code()
        }
    }
}

/// `--json` among the options (not after `--`, where `custody run`'s command starts).
fn wants_json(args: &[String]) -> bool {
    args.iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "--json")
}

/// The `--json` document of an argument clap refused: the command the words name (as far as
/// they name one), clap's own sentence, and the argument at fault.
fn usage_document(e: &clap::Error, args: &[String]) -> serde_json::Value {
    use clap::error::{ContextKind, ContextValue};
    let command = command_path(args);
    let rendered = e.render().to_string();
    let message = rendered
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ")
        .to_string();
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => Some(v.join(", ")),
        Some(ContextValue::StyledStr(s)) => Some(s.to_string()),
        Some(ContextValue::StyledStrs(v)) => Some(
            v.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", "),
        ),
        _ => None,
    };
    let argument = text(ContextKind::InvalidArg).or_else(|| text(ContextKind::InvalidSubcommand));
    let value = text(ContextKind::InvalidValue);
    // "the following required arguments were not provided:" is followed by them.
    let message = match (&argument, message.strip_suffix(':')) {
        (Some(arg), Some(head)) => format!("{head}: {arg}"),
        _ => message,
    };
    let hint = match text(ContextKind::SuggestedArg)
        .or_else(|| text(ContextKind::SuggestedSubcommand))
        .or_else(|| text(ContextKind::SuggestedValue))
    {
        Some(s) => format!("did you mean {s}?"),
        None => match text(ContextKind::ValidValue) {
            Some(v) => format!("possible values: {v}"),
            None if command.is_empty() => "run `openclaw-sessions --help`".to_string(),
            None => format!("run `openclaw-sessions {command} --help`"),
        },
    };
    let mut error = serde_json::json!({
        "code": ErrorCode::Usage.as_str(),
        "message": message,
        "hint": hint,
        "argument": argument,
    });
    if let Some(v) = value {
        error["value"] = v.into();
    }
    serde_json::json!({
        "schemaVersion": 1,
        "command": command,
        "ok": false,
        "error": error,
        "warnings": [],
    })
}

/// The (sub)command the words name, as success documents name it (`list`, `backup verify`),
/// or "" when they name none: subcommand names and aliases followed from the top, options
/// and their values skipped.
pub fn command_path(args: &[String]) -> String {
    use clap::CommandFactory;
    let root = super::Cli::command();
    let mut cmd = &root;
    let mut path: Vec<String> = Vec::new();
    let mut skip_value = false;
    for arg in args {
        if arg == "--" {
            break;
        }
        if skip_value {
            skip_value = false;
            continue;
        }
        if let Some(long) = arg.strip_prefix("--") {
            if !long.contains('=') {
                skip_value = cmd
                    .get_arguments()
                    .chain(root.get_arguments())
                    .find(|a| a.get_long() == Some(long))
                    .is_some_and(|a| a.get_action().takes_values());
            }
            continue;
        }
        if arg.starts_with('-') {
            continue;
        }
        match cmd.find_subcommand(arg) {
            Some(sub) => {
                path.push(sub.get_name().to_string());
                cmd = sub;
            }
            None => break,
        }
    }
    path.join(" ")
}

fn classify(err: &anyhow::Error) -> (ErrorCode, String, Option<String>) {
    for cause in err.chain() {
        if let Some(e) = cause.downcast_ref::<CliError>() {
            return (e.code(), err.to_string(), e.hint());
        }
        if let Some(e) = cause.downcast_ref::<Error>() {
            return (
                ErrorCode::of(e),
                err.to_string(),
                super::hints::error_hint(e),
            );
        }
    }
    if let Some(io) = err.chain().find_map(|c| c.downcast_ref::<std::io::Error>()) {
        return (ErrorCode::IO, format!("{err:#}"), Some(format!("{io}")));
    }
    (ErrorCode::INTERNAL, format!("{err:#}"), None)
}

pub fn finish(printer: &Printer, result: anyhow::Result<Outcome>) -> i32 {
    match result {
        Ok(Outcome::Done) => match printer.failure() {
            None => 0,
            Some(f) => {
                // A failure recorded before any document: the error document says it.
                if printer.json && !printer.documented() {
                    printer.json_error(f.code, &f.message, f.hint.as_deref());
                }
                f.code.exit_code()
            }
        },
        Ok(Outcome::Child(code)) => code,
        Err(e) if is_broken_pipe(&e) => 0,
        Err(e) => {
            let (code, message, hint) = classify(&e);
            if printer.json {
                printer.json_error(code, &message, hint.as_deref());
            } else {
                printer.human_error(&message, hint.as_deref());
            }
            code.exit_code()
        }
    }
}

/// `openclaw-sessions list | head`: the reader left; end quietly.
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.is::<BrokenPipe>()
            || c.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
