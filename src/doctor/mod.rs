//! `doctor`: named checks over a state dir, each finding with a severity, a message and a
//! fix hint; `--fix` applies only the safe repairs (see `fix`).

mod checks;
mod fix;
mod older_release;
pub mod quarantine;

use serde::Serialize;

use crate::remedy::Remedy;

pub use checks::{each_finding, run_checks, CheckInfo, DoctorOptions, CHECKS};

pub use fix::{agents_to_repair, apply_fixes, left_after_repairs, FixReport};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

/// What a safe repair would do about a finding.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Repair {
    ClearStaleLocks,
    /// Rewrite the projected columns (and `entry_valid`) of a row from its `entry_json`.
    ReprojectColumns {
        key: String,
    },
    /// Delete rows whose parent is gone: `DELETE FROM table WHERE rowid IN (...)`.
    DeleteOrphans {
        table: String,
        rowids: Vec<i64>,
    },
    /// Archive an orphaned transcript (OpenClaw's archive format), then remove its window,
    /// events and projections.
    ArchiveOrphans {
        session_id: String,
        session_key: Option<String>,
    },
    /// Let SQLite recover what a killed writer left (hot journal, stale or torn `-shm`) by
    /// opening the database read-write and closing it, as the next writer would.
    RecoverCrashState {
        path: std::path::PathBuf,
    },
    /// Rebuild an unreadable entry from its row's columns as OpenClaw's doctor does, after
    /// keeping the row as it was in our quarantine directory (`quarantine`).
    RebuildUnreadableEntry {
        key: String,
    },
    /// Do what OpenClaw's `doctor --fix` does with a row its read refuses over a key: move
    /// the row to its key normalized, and rewrite each lineage value of its entry normalized
    /// (an empty one removed), with its columns projected again.
    CanonicalizeKeys {
        key: String,
    },
    /// Publish archive files from their rows.
    PublishArchives,
    /// Remove a leftover temporary file or staging directory.
    RemoveLeftover {
        path: std::path::PathBuf,
    },
    /// Rename a zero-byte agent database (with no content in a `-wal` or `-journal`) to
    /// `<name>.empty-<stamp>`, so that OpenClaw creates a new one on its next open.
    SetAsideEmpty {
        path: std::path::PathBuf,
    },
}

/// What a finding is about: as many of these as exist, so that a script (and the admin) can
/// find the exact rows without parsing the message.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Subject {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_key: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// Several sessions (a label they share).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub session_keys: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rowids: Vec<i64>,
    /// Inclusive `[first, last]` transcript seq ranges the finding is about.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub seq_ranges: Vec<[i64; 2]>,
    /// Columns (projected columns out of step).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<std::path::PathBuf>,
}

impl Subject {
    pub fn agent(agent: &str) -> Self {
        Subject {
            agent_id: Some(agent.to_string()),
            ..Subject::default()
        }
    }

    pub fn none() -> Self {
        Subject::default()
    }

    pub fn key(mut self, key: Option<&str>) -> Self {
        self.session_key = key.map(String::from);
        self
    }

    pub fn id(mut self, id: Option<&str>) -> Self {
        self.session_id = id.map(String::from);
        self
    }

    pub fn row(mut self, table: &str, rowids: Vec<i64>) -> Self {
        self.table = Some(table.to_string());
        self.rowids = rowids;
        self
    }

    pub fn seqs(mut self, ranges: Vec<[i64; 2]>) -> Self {
        self.seq_ranges = ranges;
        self
    }

    pub fn path(mut self, path: &std::path::Path) -> Self {
        self.path = Some(path.to_path_buf());
        self
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub check: &'static str,
    pub severity: Severity,
    #[serde(flatten)]
    pub subject: Subject,
    pub message: String,
    /// What to do, in words that name no command; with a `remedy`, they contain its
    /// [`Remedy::phrase`], which a front end may replace with its own command.
    pub hint: String,
    pub fixable: bool,
    #[serde(skip)]
    pub repair: Option<Repair>,
    #[serde(skip)]
    pub remedy: Option<Remedy>,
}

impl Finding {
    pub fn agent_id(&self) -> Option<&str> {
        self.subject.agent_id.as_deref()
    }
}
