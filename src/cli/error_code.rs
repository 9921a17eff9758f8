//! The JSON error codes and exit statuses, in one table (README.md, Exit codes).

use openclaw_sessions::{Error, ErrorKind};

/// The stable machine-readable error codes of `--json` and their exit statuses (README.md,
/// Exit codes). The library says what went wrong ([`ErrorKind`]); usage errors, a question
/// nobody could answer, findings and partly done runs are the binary's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    Io,
    Sqlite,
    Internal,
    Usage,
    ConfirmationRequired,
    Findings,
    Partial,
    NotFound,
    Conflict,
    LockedSession,
    TargetExists,
    UnsafePath,
    UnsupportedSchema,
    BadInput,
    OwnerUnavailable,
    GatewayStateOwnerRequired,
    Interrupted,
    SnapshotUnverified,
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Io => "IO",
            ErrorCode::Sqlite => "SQLITE",
            ErrorCode::Internal => "INTERNAL",
            ErrorCode::Usage => "USAGE",
            ErrorCode::ConfirmationRequired => "CONFIRMATION_REQUIRED",
            ErrorCode::Findings => "FINDINGS",
            ErrorCode::Partial => "PARTIAL",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::Conflict => "CONFLICT",
            ErrorCode::LockedSession => "LOCKED_SESSION",
            ErrorCode::TargetExists => "TARGET_EXISTS",
            ErrorCode::UnsafePath => "UNSAFE_PATH",
            ErrorCode::UnsupportedSchema => "UNSUPPORTED_SCHEMA",
            ErrorCode::BadInput => "BAD_INPUT",
            ErrorCode::OwnerUnavailable => "OWNER_UNAVAILABLE",
            ErrorCode::GatewayStateOwnerRequired => "GATEWAY_STATE_OWNER_REQUIRED",
            ErrorCode::Interrupted => "INTERRUPTED",
            ErrorCode::SnapshotUnverified => "SNAPSHOT_UNVERIFIED",
        }
    }

    /// The process exit status.
    pub fn exit_code(self) -> i32 {
        match self {
            ErrorCode::Io
            | ErrorCode::Sqlite
            | ErrorCode::Internal
            | ErrorCode::SnapshotUnverified => 1,
            ErrorCode::Usage | ErrorCode::ConfirmationRequired => 2,
            ErrorCode::Findings | ErrorCode::Partial => 3,
            ErrorCode::NotFound => 4,
            ErrorCode::Conflict
            | ErrorCode::LockedSession
            | ErrorCode::TargetExists
            | ErrorCode::UnsafePath => 5,
            ErrorCode::UnsupportedSchema | ErrorCode::BadInput => 6,
            ErrorCode::OwnerUnavailable | ErrorCode::GatewayStateOwnerRequired => 75,
            ErrorCode::Interrupted => 130,
        }
    }

    /// The code of a library error.
    pub fn of(e: &Error) -> Self {
        match e.kind() {
            ErrorKind::Io => ErrorCode::Io,
            ErrorKind::Sqlite => ErrorCode::Sqlite,
            ErrorKind::Internal => ErrorCode::Internal,
            ErrorKind::InvalidArgument => ErrorCode::Usage,
            ErrorKind::NotFound => ErrorCode::NotFound,
            ErrorKind::Conflict => ErrorCode::Conflict,
            ErrorKind::LockedSession => ErrorCode::LockedSession,
            ErrorKind::TargetExists => ErrorCode::TargetExists,
            ErrorKind::UnsafePath => ErrorCode::UnsafePath,
            ErrorKind::UnsupportedSchema => ErrorCode::UnsupportedSchema,
            ErrorKind::BadInput => ErrorCode::BadInput,
            ErrorKind::OwnerUnavailable => ErrorCode::OwnerUnavailable,
            ErrorKind::GatewayStateOwnerRequired => ErrorCode::GatewayStateOwnerRequired,
            ErrorKind::Interrupted => ErrorCode::Interrupted,
            ErrorKind::SnapshotUnverified => ErrorCode::SnapshotUnverified,
        }
    }
}
