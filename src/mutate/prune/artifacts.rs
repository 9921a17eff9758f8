//! Step 3 of OpenClaw's applied cleanup, `pruneUnreferencedSessionArtifacts`: files in
//! `sessions/` that nothing needs any more (docs/openclaw/MAINTENANCE.md §3.2, §3.3), with
//! OpenClaw's rules, except that transcript content is never simply removed: an unreferenced
//! `.jsonl` is renamed to a `.jsonl.deleted.<stamp>` archive (the name OpenClaw gives its own
//! retained archives), which the disk budget may remove later. `--artifacts` adds our own rule:
//! archive files past `resetArchiveRetention`.

use serde::Serialize;

use super::MaintenanceSettings;
use crate::error::Result;

/// A file of `sessions/` the pass removes, or archives in place.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactRemoval {
    pub path: std::path::PathBuf,
    pub bytes: u64,
    pub why: &'static str,
    /// Transcript content: renamed to this archive name instead of removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive_to: Option<std::path::PathBuf>,
    /// The archive row that names this file, removed with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive_row: Option<String>,
}

/// A temporary file of an interrupted write of the store, as OpenClaw names them:
/// `<store file>.[<n>.]<uuid>.tmp` (case-insensitive), for `sessions.json` or the agent database.
fn is_store_temp_file(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let Some(rest) = ["sessions.json.", "openclaw-agent.sqlite."]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
    else {
        return false;
    };
    let Some(rest) = rest.strip_suffix(".tmp") else {
        return false;
    };
    let uuid = match rest.split_once('.') {
        Some((n, u)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => u,
        Some(_) => return false,
        None => rest,
    };
    uuid::Uuid::try_parse(uuid).is_ok() && uuid.len() == 36
}

/// Unreferenced transcripts, trajectories and checkpoints older than `pruneAfter`, and store
/// temp files older than 5 minutes (OpenClaw's `pruneUnreferencedSessionArtifacts`); with
/// `retention`, also archive files (`.deleted`/`.reset`/`.bak`) older than
/// `resetArchiveRetention` when one is set.
/// `kept_id` answers whether a kept session refers to a session id, `has_archive_row` whether
/// the store has an archive row of that file name: both are looked up, not held.
pub fn plan_artifacts(
    sessions_dir: &std::path::Path,
    kept_id: impl Fn(&str) -> Result<bool>,
    has_archive_row: impl Fn(&str) -> Result<bool>,
    settings: &MaintenanceSettings,
    now: i64,
    retention: bool,
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
        let archived = || {
            Some(sessions_dir.join(format!(
                "{name}.deleted.{}",
                crate::units::archive_stamp(now)
            )))
        };
        if is_store_temp_file(&name) {
            if mtime <= now - 300_000 {
                out.push(ArtifactRemoval {
                    path: ent.path(),
                    bytes: meta.len(),
                    why: "temporary file of an interrupted write",
                    archive_to: None,
                    archive_row: None,
                });
            }
            continue;
        }
        let (why, archive_to, archive_row) = match classify_session_file(&name) {
            SessionFile::Transcript { session_id }
                if old(settings.prune_after_ms) && !kept_id(&session_id)? =>
            {
                ("transcript no session refers to", archived(), None)
            }
            SessionFile::Auxiliary
                if old(settings.prune_after_ms)
                    && (name.ends_with(".jsonl") || name.ends_with(".trajectory-path.json"))
                    && !kept_id(&stem_id)? =>
            {
                (
                    "trajectory or checkpoint no session refers to",
                    name.ends_with(".jsonl").then(archived).flatten(),
                    None,
                )
            }
            SessionFile::Archive { stamp, .. } if retention => {
                let at = crate::units::parse_iso_ms(&stamp).unwrap_or(mtime);
                match settings.reset_archive_retention_ms {
                    Some(ms) if at <= now - ms => (
                        "archive past its retention",
                        None,
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
            archive_to,
            archive_row,
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_temp_files_as_openclaw_names_them() {
        for n in [
            "sessions.json.0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.tmp",
            "openclaw-agent.sqlite.12.0B9F3C1E-7A4D-4C2B-9F1E-2D3C4B5A6F70.tmp",
        ] {
            assert!(is_store_temp_file(n), "{n}");
        }
        for n in [
            "notes.tmp",
            "sessions.json.x.0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.tmp",
            "sessions.json.0b9f3c1e.tmp",
            "other.sqlite.0b9f3c1e-7a4d-4c2b-9f1e-2d3c4b5a6f70.tmp",
        ] {
            assert!(!is_store_temp_file(n), "{n}");
        }
    }
}
