//! The migration run manifest (version 3) OpenClaw's `recover`/`restore` read:
//! `<state>/session-sqlite-migration-runs/session-sqlite-<ms>-<id8>.json`, rewritten
//! atomically at every step so a crash leaves the last completed step on record.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::ledger::MoveList;
use super::types::ImportIssue;
use crate::error::{Result, ResultExt};
use crate::store::db::create::OPENCLAW_VERSION;
use crate::units::iso_from_ms;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ManifestTarget<'a> {
    pub agent_id: String,
    pub sqlite_path: PathBuf,
    pub store_path: PathBuf,
    pub completed_moves: MoveList<'a>,
    pub issues: Vec<ImportIssue>,
    pub planned_moves: MoveList<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub validation_before_archive: Option<&'static str>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MigrationManifest<'a> {
    pub manifest_version: u32,
    pub open_claw_version: &'static str,
    pub run_id: String,
    pub started_at: String,
    pub targets: Vec<ManifestTarget<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub completed_at: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failed_at: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub failure_reports: Vec<ImportIssue>,
    #[serde(skip)]
    pub path: PathBuf,
}

impl<'a> MigrationManifest<'a> {
    pub fn new(runs_dir: &Path, now_ms: i64, targets: Vec<ManifestTarget<'a>>) -> Self {
        let id8: String = uuid::Uuid::new_v4()
            .simple()
            .to_string()
            .chars()
            .take(8)
            .collect();
        let run_id = format!("session-sqlite-{now_ms}-{id8}");
        MigrationManifest {
            manifest_version: 3,
            open_claw_version: OPENCLAW_VERSION,
            path: runs_dir.join(format!("{run_id}.json")),
            run_id,
            started_at: iso_from_ms(now_ms),
            targets,
            completed_at: None,
            failed_at: None,
            failure_reports: Vec::new(),
        }
    }

    /// Replace the manifest file with the current state, flushed.
    pub fn write(&self) -> Result<()> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        crate::fsutil::create_private_dir_all(dir)?;
        let tmp = dir.join(format!(".{}.tmp", self.run_id));
        let _ = std::fs::remove_file(&tmp);
        let f = crate::fsutil::create_new_private(&tmp)?;
        // Streamed from the plans: the manifest lists every moved file and can be tens of
        // megabytes.
        let mut out = std::io::BufWriter::new(f);
        serde_json::to_writer_pretty(&mut out, self)
            .map_err(std::io::Error::from)
            .at(&tmp)?;
        out.write_all(b"\n").at(&tmp)?;
        let f = out.into_inner().map_err(|e| e.into_error()).at(&tmp)?;
        f.sync_all().at(&tmp)?;
        std::fs::rename(&tmp, &self.path).at(&self.path)?;
        crate::fsutil::fsync_dir(dir)
    }
}
