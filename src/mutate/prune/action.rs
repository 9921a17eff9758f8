//! What the prune plan does to one session, in the order OpenClaw's cleanup reports it.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PruneAction {
    /// Removed (deleted with its transcript archived).
    PruneModelRun,
    ArchiveDashboard,
    ArchiveAge,
    PruneStale,
    ArchiveCap,
    PruneCap,
    /// `--fix-missing`: no message left in the transcript (removed before planning).
    PruneMissing,
    /// `--fix-dm-scope`: a direct-message key from before `dmScope: main`.
    RetireDmScope,
    /// A stale dashboard archived as 2026.8.x archives it: `archivedAt` alone, no reason.
    ArchiveDashboardUnreasoned,
}

impl PruneAction {
    const ALL: [PruneAction; 9] = [
        PruneAction::PruneModelRun,
        PruneAction::ArchiveDashboard,
        PruneAction::ArchiveAge,
        PruneAction::PruneStale,
        PruneAction::ArchiveCap,
        PruneAction::PruneCap,
        PruneAction::PruneMissing,
        PruneAction::RetireDmScope,
        PruneAction::ArchiveDashboardUnreasoned,
    ];

    /// Whether the session stays, archived (the others are removed).
    pub fn is_archive(self) -> bool {
        self.archive_reason().is_some() || self == PruneAction::ArchiveDashboardUnreasoned
    }

    /// The `archiveReason` written (none for a removal, nor for 2026.8.x's dashboards).
    pub fn archive_reason(self) -> Option<&'static str> {
        match self {
            PruneAction::ArchiveDashboard => Some("stale-dashboard"),
            PruneAction::ArchiveAge => Some("age-retention"),
            PruneAction::ArchiveCap => Some("active-session-cap"),
            _ => None,
        }
    }

    pub(super) fn code(self) -> i64 {
        self as i64
    }

    pub(super) fn from_code(code: i64) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.code() == code)
    }
}
