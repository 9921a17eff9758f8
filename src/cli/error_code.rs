//! The JSON error codes and exit statuses, in one table (README.md, Exit codes).

use openclaw_sessions::{Error, ErrorKind};

/// The stable machine-readable error codes of `--json` and their exit statuses. The library
/// says what went wrong ([`ErrorKind`]); a question nobody could answer, findings and partly
/// done runs are the binary's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    Library(ErrorKind),
    /// Arguments clap refused (the library's `InvalidArgument` is the same code).
    Usage,
    ConfirmationRequired,
    Findings,
    Partial,
    /// `secrets scan` found a secret (exit 1, as its issue asks for cron, and as `grep` exits
    /// when it finds nothing the other way round).
    SecretsFound,
    /// `custody run`'s command is not there (exit 127, as `env` exits).
    CommandNotFound,
    /// `custody run`'s command is there but cannot be executed (exit 126, as `env` exits).
    CommandNotExecutable,
}

impl ErrorCode {
    pub const NOT_FOUND: ErrorCode = ErrorCode::Library(ErrorKind::NotFound);
    pub const CONFLICT: ErrorCode = ErrorCode::Library(ErrorKind::Conflict);
    pub const LOCKED_SESSION: ErrorCode = ErrorCode::Library(ErrorKind::LockedSession);
    pub const IO: ErrorCode = ErrorCode::Library(ErrorKind::Io);
    pub const INTERNAL: ErrorCode = ErrorCode::Library(ErrorKind::Internal);

    /// The code of a library error.
    pub fn of(e: &Error) -> Self {
        ErrorCode::Library(e.kind())
    }

    pub fn as_str(self) -> &'static str {
        let kind = match self {
            ErrorCode::Usage => return "USAGE",
            ErrorCode::ConfirmationRequired => return "CONFIRMATION_REQUIRED",
            ErrorCode::Findings => return "FINDINGS",
            ErrorCode::Partial => return "PARTIAL",
            ErrorCode::SecretsFound => return "SECRETS_FOUND",
            ErrorCode::CommandNotFound => return "COMMAND_NOT_FOUND",
            ErrorCode::CommandNotExecutable => return "COMMAND_NOT_EXECUTABLE",
            ErrorCode::Library(kind) => kind,
        };
        match kind {
            ErrorKind::Io => "IO",
            ErrorKind::Sqlite => "SQLITE",
            ErrorKind::Internal => "INTERNAL",
            ErrorKind::InvalidArgument => "USAGE",
            ErrorKind::NotFound => "NOT_FOUND",
            ErrorKind::Conflict => "CONFLICT",
            ErrorKind::LockedSession => "LOCKED_SESSION",
            ErrorKind::TargetExists => "TARGET_EXISTS",
            ErrorKind::UnsafePath => "UNSAFE_PATH",
            ErrorKind::UnsupportedSchema => "UNSUPPORTED_SCHEMA",
            ErrorKind::BadInput => "BAD_INPUT",
            ErrorKind::OwnerUnavailable => "OWNER_UNAVAILABLE",
            ErrorKind::GatewayStateOwnerRequired => "GATEWAY_STATE_OWNER_REQUIRED",
            ErrorKind::Interrupted => "INTERRUPTED",
            ErrorKind::SnapshotUnverified => "SNAPSHOT_UNVERIFIED",
            ErrorKind::Busy => "BUSY",
        }
    }

    /// The process exit status.
    pub fn exit_code(self) -> i32 {
        let kind = match self {
            ErrorCode::Usage | ErrorCode::ConfirmationRequired => return 2,
            ErrorCode::Findings | ErrorCode::Partial => return 3,
            ErrorCode::SecretsFound => return 1,
            ErrorCode::CommandNotFound => return 127,
            ErrorCode::CommandNotExecutable => return 126,
            ErrorCode::Library(kind) => kind,
        };
        match kind {
            ErrorKind::Io | ErrorKind::Sqlite | ErrorKind::Internal => 1,
            ErrorKind::SnapshotUnverified => 1,
            ErrorKind::InvalidArgument => 2,
            ErrorKind::NotFound => 4,
            ErrorKind::Conflict
            | ErrorKind::LockedSession
            | ErrorKind::TargetExists
            | ErrorKind::UnsafePath => 5,
            ErrorKind::UnsupportedSchema | ErrorKind::BadInput => 6,
            ErrorKind::OwnerUnavailable
            | ErrorKind::GatewayStateOwnerRequired
            | ErrorKind::Busy => 75,
            ErrorKind::Interrupted => 130,
        }
    }
}
