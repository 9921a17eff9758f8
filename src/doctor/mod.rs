//! `doctor`: named checks over a state dir, each finding with a severity, a message and a
//! fix hint; `--fix` applies only the safe repairs (see `fix`).

mod checks;
mod fix;

use serde::Serialize;

use crate::remedy::Remedy;

pub use checks::{run_checks, CheckInfo, DoctorOptions, CHECKS};
pub use fix::{agents_to_repair, apply_fixes, FixReport};

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
    /// Publish archive files from their rows.
    PublishArchives,
    /// Remove a leftover temporary file or staging directory.
    RemoveLeftover {
        path: std::path::PathBuf,
    },
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    pub check: &'static str,
    pub severity: Severity,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_key: Option<String>,
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
