//! What to do about an error, a doctor finding or a store warning, typed. The library names
//! no command of any front end: its hints describe a remedy in plain words
//! ([`Remedy::phrase`]), and a front end that knows the remedy by its own command (the binary's
//! `cli::hints`) puts that in their place.

use serde::{Serialize, Serializer};

/// A remedy a front end can name its own way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Remedy {
    /// Import the legacy `sessions.json` store into the agent database.
    ImportLegacy,
    /// Check the store with the doctor.
    RunDoctor,
    /// The doctor's full integrity check.
    RunDoctorFull,
    /// The doctor's safe repairs.
    RunDoctorFix,
    /// The doctor's safe repair of the finding at hand.
    DoctorFix,
    /// The doctor's repair of stale locks, or clearing them directly.
    ClearStaleLocks,
    /// List the sessions (keys and ids).
    ListSessions,
    /// Show a session's whole entry, as JSON.
    ShowSessionJson,
    /// Verify a snapshot.
    VerifySnapshot,
    /// Restore a verified snapshot over the store, in place.
    RestoreSnapshot,
    /// A damaged database: see it with the doctor, bring back a verified snapshot in place.
    DamagedDatabase,
    /// Prune sessions by the maintenance settings.
    Prune,
    /// Move ACPX state to where OpenClaw reads it.
    MigrateAcpx,
    /// Read a transcript raw, event by event.
    TranscriptCat,
    /// Set a session's label.
    PatchLabel,
    /// A store of a release this tool does not write: that release's own code changes it.
    OwnerWrites,
    /// Upgrade an older release's databases to the schema this tool writes.
    UpgradeSchema,
    /// Report a bug in this tool.
    ReportBug,
    /// The state dir given holds `.openclaw`, the state dir itself.
    StateDirBelow,
    /// A damaged session of a live key: replace it from a snapshot taken before the damage
    /// (its current transcript archived first, as a deletion archives it).
    ReplaceFromSnapshot,
    /// A session restore refused over a live key: ask for the live session to be replaced.
    ReplaceLiveSession,
}

impl Remedy {
    /// The words the library's hints use for this remedy: each hint that carries a remedy
    /// contains them once, and a front end may replace them with its own command.
    pub fn phrase(self) -> &'static str {
        match self {
            Remedy::ImportLegacy => "the legacy import",
            Remedy::RunDoctor => "run the doctor",
            Remedy::RunDoctorFull => "run the doctor's full check",
            Remedy::RunDoctorFix => "run the doctor's repairs",
            Remedy::DoctorFix => "the doctor's repair",
            Remedy::ClearStaleLocks => "the doctor's repair (or clearing stale locks)",
            Remedy::ListSessions => "the session listing",
            Remedy::ShowSessionJson => "its whole entry",
            Remedy::VerifySnapshot => "verifying the snapshot",
            Remedy::RestoreSnapshot => "in place",
            Remedy::DamagedDatabase => {
                "see the damage with the doctor, then bring back a verified snapshot in place"
            }
            Remedy::Prune => "prune the store",
            Remedy::MigrateAcpx => "adopt it with the ACPX migration",
            Remedy::TranscriptCat => "the raw transcript reader",
            Remedy::PatchLabel => "a label patch",
            Remedy::OwnerWrites => "let the release that owns it write it",
            Remedy::UpgradeSchema => "the schema upgrade of this tool",
            Remedy::ReportBug => "a bug in this tool",
            Remedy::StateDirBelow => "use it as the state dir",
            Remedy::ReplaceFromSnapshot => "replace it from a snapshot",
            Remedy::ReplaceLiveSession => "replace the live session",
        }
    }
}

/// A warning for the operator, with what to do about it when there is something to do.
/// Printed as its message; serialized as a string, like a plain warning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub message: String,
    pub remedy: Option<Remedy>,
}

impl Warning {
    /// A warning whose message contains the remedy's [`Remedy::phrase`].
    pub fn with_remedy(message: impl Into<String>, remedy: Remedy) -> Self {
        Warning {
            message: message.into(),
            remedy: Some(remedy),
        }
    }
}

impl From<String> for Warning {
    fn from(message: String) -> Self {
        Warning {
            message,
            remedy: None,
        }
    }
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Serialize for Warning {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.message)
    }
}
