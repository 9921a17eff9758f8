//! Typed errors of the library core. The binary maps each to an exit code and a JSON
//! error code in one place (`cli::exit`). Hints name no command: a remedy a front end names
//! its own way is carried as a [`Remedy`].

use std::path::{Path, PathBuf};

pub use crate::remedy::Remedy;

/// What kind of thing went wrong. The binary turns a kind into its JSON error code and exit
/// status; kinds that only a front end has (usage, a question nobody could answer, findings, a
/// partly done run) are the binary's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    Io,
    Sqlite,
    Internal,
    /// An argument or a request that cannot be carried out as given.
    InvalidArgument,
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
    /// A database stayed busy with another writer past the wait: nothing was wrong with it.
    Busy,
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{message}")]
    InvalidArgument {
        message: String,
        hint: Option<String>,
    },
    #[error("{message}")]
    NotFound {
        message: String,
        hint: Option<String>,
    },
    #[error("{message}")]
    Conflict {
        message: String,
        hint: Option<String>,
    },
    /// A `modelSelectionLocked` session refused a change.
    #[error("{message}")]
    LockedSession {
        message: String,
        hint: Option<String>,
    },
    #[error("{message}")]
    TargetExists {
        message: String,
        hint: Option<String>,
    },
    #[error("{message}")]
    UnsafePath {
        message: String,
        hint: Option<String>,
    },
    #[error("{message}")]
    UnsupportedSchema {
        message: String,
        hint: Option<String>,
    },
    #[error("{message}")]
    BadInput {
        message: String,
        hint: Option<String>,
    },
    /// The state dir has a live owner (a Gateway, an embedded runner, another maintainer).
    #[error("{message}")]
    OwnerUnavailable {
        message: String,
        hint: Option<String>,
    },
    /// The owner cannot be judged from here (another PID namespace).
    #[error("{message}")]
    GatewayStateOwnerRequired {
        message: String,
        hint: Option<String>,
    },
    /// A database another process kept writing while this one read or waited for it
    /// (docs/openclaw/HOSTILE.md §12): the next run tries again.
    #[error("{message}")]
    Busy {
        message: String,
        hint: Option<String>,
    },
    #[error("interrupted")]
    Interrupted,
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: {source}")]
    Sqlite {
        path: PathBuf,
        #[source]
        source: rusqlite::Error,
    },
    #[error("{0}")]
    Internal(String),
    /// The safety snapshot taken before a change does not verify; nothing was changed.
    #[error("the safety snapshot {} does not verify: {}; nothing was changed", path.display(), problems.join("; "))]
    SnapshotUnverified {
        path: PathBuf,
        problems: Vec<String>,
    },
    /// An error with a remedy (see [`Error::with_remedy`]); its hint names the remedy by its
    /// [`Remedy::phrase`].
    #[error("{error}")]
    Remedied { error: Box<Error>, remedy: Remedy },
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::InvalidArgument { .. } => ErrorKind::InvalidArgument,
            Error::NotFound { .. } => ErrorKind::NotFound,
            Error::Conflict { .. } => ErrorKind::Conflict,
            Error::UnsafePath { .. } => ErrorKind::UnsafePath,
            Error::LockedSession { .. } => ErrorKind::LockedSession,
            Error::TargetExists { .. } => ErrorKind::TargetExists,
            Error::UnsupportedSchema { .. } => ErrorKind::UnsupportedSchema,
            Error::BadInput { .. } => ErrorKind::BadInput,
            Error::OwnerUnavailable { .. } => ErrorKind::OwnerUnavailable,
            Error::GatewayStateOwnerRequired { .. } => ErrorKind::GatewayStateOwnerRequired,
            Error::Busy { .. } => ErrorKind::Busy,
            Error::Interrupted => ErrorKind::Interrupted,
            Error::Io { .. } => ErrorKind::Io,
            Error::Sqlite { .. } => ErrorKind::Sqlite,
            Error::Internal(_) => ErrorKind::Internal,
            Error::SnapshotUnverified { .. } => ErrorKind::SnapshotUnverified,
            Error::Remedied { error, .. } => error.kind(),
        }
    }

    pub fn hint(&self) -> Option<&str> {
        match self {
            Error::InvalidArgument { hint, .. }
            | Error::NotFound { hint, .. }
            | Error::Conflict { hint, .. }
            | Error::UnsafePath { hint, .. }
            | Error::LockedSession { hint, .. }
            | Error::TargetExists { hint, .. }
            | Error::UnsupportedSchema { hint, .. }
            | Error::BadInput { hint, .. }
            | Error::OwnerUnavailable { hint, .. }
            | Error::GatewayStateOwnerRequired { hint, .. }
            | Error::Busy { hint, .. } => hint.as_deref(),
            Error::Interrupted => Some(
                "what finished before the signal stays done and the rest is untouched; run the same command again to finish",
            ),
            Error::Io { source, .. } if source.kind() == std::io::ErrorKind::PermissionDenied => {
                Some("run it as the user that owns it, or as root")
            }
            Error::Io { .. } => Some("check the path, its permissions and the free disk space"),
            Error::Sqlite { .. } => Some("run the doctor to check the database"),
            Error::Internal(_) => Some("this is a bug in this tool; please report it"),
            Error::SnapshotUnverified { .. } => Some(
                "check the free space and the health of the snapshot directory, or write snapshots to another one",
            ),
            Error::Remedied { error, .. } => error.hint(),
        }
    }

    /// What to do about the error, when a front end can name it: the hint contains its
    /// [`Remedy::phrase`].
    pub fn remedy(&self) -> Option<Remedy> {
        match self {
            Error::Remedied { remedy, .. } => Some(*remedy),
            Error::Sqlite { .. } => Some(Remedy::RunDoctor),
            Error::Internal(_) => Some(Remedy::ReportBug),
            _ => None,
        }
    }

    /// The same error with a remedy; its hint should contain the remedy's [`Remedy::phrase`].
    pub fn with_remedy(self, remedy: Remedy) -> Self {
        Error::Remedied {
            error: Box::new(self),
            remedy,
        }
    }

    /// The same refusal, reported as a locked session.
    pub fn into_locked(self) -> Self {
        match self {
            Error::Conflict { message, hint } => Error::LockedSession { message, hint },
            Error::Remedied { error, remedy } => error.into_locked().with_remedy(remedy),
            other => other,
        }
    }

    pub fn not_found(message: impl Into<String>, hint: impl Into<Option<String>>) -> Self {
        Error::NotFound {
            message: message.into(),
            hint: hint.into(),
        }
    }

    pub fn bad_input(message: impl Into<String>, hint: impl Into<Option<String>>) -> Self {
        Error::BadInput {
            message: message.into(),
            hint: hint.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Error::InvalidArgument {
            message: message.into(),
            hint: None,
        }
    }

    pub fn unsafe_path(message: impl Into<String>) -> Self {
        Error::UnsafePath {
            message: message.into(),
            hint: None,
        }
    }

    pub fn io(path: impl AsRef<Path>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }

    pub fn sqlite(path: impl AsRef<Path>, source: rusqlite::Error) -> Self {
        Error::Sqlite {
            path: path.as_ref().to_path_buf(),
            source,
        }
    }
}

/// Attach a path to I/O and SQLite results.
pub trait ResultExt<T> {
    fn at(self, path: impl AsRef<Path>) -> Result<T>;
}

impl<T> ResultExt<T> for std::result::Result<T, std::io::Error> {
    fn at(self, path: impl AsRef<Path>) -> Result<T> {
        self.map_err(|e| Error::io(path, e))
    }
}

impl<T> ResultExt<T> for std::result::Result<T, rusqlite::Error> {
    fn at(self, path: impl AsRef<Path>) -> Result<T> {
        self.map_err(|e| match &e {
            // A full disk (or a file size limit) is an I/O problem, not a database one.
            rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::DiskFull => {
                Error::io(
                    path,
                    std::io::Error::new(
                        std::io::ErrorKind::StorageFull,
                        "no space left while writing (disk full)",
                    ),
                )
            }
            rusqlite::Error::SqliteFailure(f, _)
                if f.code == rusqlite::ErrorCode::SystemIoFailure =>
            {
                Error::io(
                    path,
                    std::io::Error::other(format!(
                        "I/O error (SQLite extended code {}); is the disk full?",
                        f.extended_code
                    )),
                )
            }
            _ => Error::sqlite(path, e),
        })
    }
}
