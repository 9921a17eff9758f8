//! `prune --artifacts`: files in `sessions/` that nothing needs any more.

use serde::Serialize;

use super::MaintenanceSettings;
use crate::error::Result;

/// What `--artifacts` would remove from `sessions/`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactRemoval {
    pub path: std::path::PathBuf,
    pub bytes: u64,
    pub why: &'static str,
    /// The archive row that names this file, removed with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive_row: Option<String>,
}

/// Unreferenced transcripts, trajectories and checkpoints older than `pruneAfter`, temp files
/// older than 5 minutes (OpenClaw's `pruneUnreferencedSessionArtifacts`), and archive files
/// (`.deleted`/`.reset`/`.bak`) older than `resetArchiveRetention` when one is set.
/// `kept_id` answers whether a kept session refers to a session id, `has_archive_row` whether
/// the store has an archive row of that file name: both are looked up, not held.
pub fn plan_artifacts(
    sessions_dir: &std::path::Path,
    kept_id: impl Fn(&str) -> Result<bool>,
    has_archive_row: impl Fn(&str) -> Result<bool>,
    settings: &MaintenanceSettings,
    now: i64,
) -> Result<Vec<ArtifactRemoval>> {
    use crate::legacy::{classify_session_file, SessionFile};
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(sessions_dir) else {
        return Ok(out);
    };
    for ent in rd.flatten() {
        let Ok(meta) = ent.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let name = ent.file_name().to_string_lossy().into_owned();
        let mtime = meta
            .modified()
            .ok()
            .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_millis() as i64)
            .unwrap_or(now);
        let old = |ms: Option<i64>| ms.is_some_and(|ms| mtime <= now - ms);
        let stem_id = name.split('.').next().unwrap_or("").to_string();
        let (why, archive_row) = match classify_session_file(&name) {
            SessionFile::Temporary if mtime <= now - 300_000 => {
                ("temporary file of an interrupted write", None)
            }
            SessionFile::Transcript { session_id }
                if old(settings.prune_after_ms) && !kept_id(&session_id)? =>
            {
                ("transcript no session refers to", None)
            }
            SessionFile::Auxiliary
                if old(settings.prune_after_ms)
                    && (name.ends_with(".jsonl") || name.ends_with(".trajectory-path.json"))
                    && !kept_id(&stem_id)? =>
            {
                ("trajectory or checkpoint no session refers to", None)
            }
            SessionFile::Archive { stamp, .. } => {
                let at = crate::units::parse_iso_ms(&stamp).unwrap_or(mtime);
                match settings.reset_archive_retention_ms {
                    Some(ms) if at <= now - ms => (
                        "archive past its retention",
                        has_archive_row(&name)?.then(|| name.clone()),
                    ),
                    _ => continue,
                }
            }
            _ => continue,
        };
        out.push(ArtifactRemoval {
            path: ent.path(),
            bytes: meta.len(),
            why,
            archive_row,
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}
