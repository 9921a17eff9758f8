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
}

impl CliError {
    fn code(&self) -> ErrorCode {
        match self {
            CliError::ConfirmationRequired { .. } => ErrorCode::ConfirmationRequired,
        }
    }

    fn hint(&self) -> Option<String> {
        match self {
            CliError::ConfirmationRequired { .. } => {
                Some("pass --yes to confirm, or --dry-run to see the plan".into())
            }
        }
    }
}

/// How a command that ran to its end went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// Exit with a child's code (`custody run`).
    Exit(i32),
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
            if std::env::args().any(|a| a == "--json") {
                let doc = serde_json::json!({
                    "schemaVersion": 1,
                    "command": serde_json::Value::Null,
                    "ok": false,
                    "error": {"code": "USAGE", "message": e.kind().to_string(), "hint": "run with --help"},
                });
                let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
                // A closed stdout loses the document; the exit code still says USAGE.
                let _ = writeln!(std::io::stdout().lock(), "{text}");
            }
            let _ = e.print();
            ErrorCode::Usage.exit_code()
        }
    }
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
        Ok(Outcome::Done) => 0,
        Ok(Outcome::Exit(code)) => code,
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
