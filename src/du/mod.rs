//! Disk use per agent (`du`): database and sidecars, transcript bytes, archive files,
//! cold archives and import leftovers, against `session.maintenance.maxDiskBytes`.

pub mod content;
pub mod database;
pub mod sessions;

use std::path::Path;

use serde::Serialize;

use crate::error::{Result, ResultExt};
use crate::legacy::{classify_session_file, ArchiveReason, SessionFile};
use crate::paths::{AgentPaths, MaintenanceConfig};
use crate::store::AgentStore;

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileGroup {
    pub files: u64,
    pub bytes: u64,
}

impl FileGroup {
    fn add(&mut self, bytes: u64) {
        self.files += 1;
        self.bytes += bytes;
    }
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentDiskUse {
    pub agent_id: String,
    pub database: u64,
    pub wal: u64,
    pub shm: u64,
    /// Serialized event bytes of every stored transcript (logical, not on disk).
    pub transcript_bytes: u64,
    pub transcript_events: u64,
    pub legacy_transcripts: FileGroup,
    pub deleted_archives: FileGroup,
    pub reset_archives: FileGroup,
    pub bak_archives: FileGroup,
    pub cold_archives: FileGroup,
    pub other_session_files: FileGroup,
    pub import_archive: FileGroup,
    /// Everything on disk that counts for this agent.
    pub total: u64,
    /// What OpenClaw's `maxDiskBytes` measures (`readSessionPhysicalDiskUsage`): the database
    /// and its `-wal`, the files directly in `sessions/` but migration leftovers, `cold/`,
    /// and the skills-prompt cache. The budget flags compare this, not `total`.
    pub budget_bytes: u64,
    pub max_disk_bytes: Option<u64>,
    pub high_water_bytes: Option<u64>,
    pub over_budget: bool,
    pub over_high_water: bool,
}

fn size(p: &Path) -> u64 {
    std::fs::symlink_metadata(p).map(|m| m.len()).unwrap_or(0)
}

fn walk(dir: &Path, visit: &mut dyn FnMut(&Path, u64)) -> Result<()> {
    let Some(rd) = crate::fsutil::read_dir_if_exists(dir)? else {
        return Ok(());
    };
    for ent in rd {
        let ent = ent.at(dir)?;
        let ft = ent.file_type().at(ent.path())?;
        if ft.is_dir() {
            walk(&ent.path(), visit)?;
        } else if ft.is_file() {
            visit(&ent.path(), ent.metadata().at(ent.path())?.len());
        }
    }
    Ok(())
}

/// The files of a snapshot repository (the safety snapshots, `<state>/openclaw-sessions-
/// snapshots`): they sit in the state dir and count for its disk, apart from any agent's.
pub fn repository_disk_use(repository: &Path) -> Result<FileGroup> {
    let mut group = FileGroup::default();
    walk(repository, &mut |_, bytes| group.add(bytes))?;
    Ok(group)
}

pub fn agent_disk_use(
    paths: &AgentPaths,
    store: &AgentStore,
    maintenance: &MaintenanceConfig,
) -> Result<AgentDiskUse> {
    let mut du = AgentDiskUse {
        agent_id: paths.id.to_string(),
        ..Default::default()
    };
    du.database = size(&paths.db);
    du.wal = size(&crate::store::sidecar_path(&paths.db, "-wal"));
    du.shm = size(&crate::store::sidecar_path(&paths.db, "-shm"));
    if let Some(db) = store.db() {
        let (events, bytes): (i64, i64) =
            crate::store::db::events::totals(db.conn()).at(db.path())?;
        du.transcript_events = events as u64;
        du.transcript_bytes = bytes as u64;
    }
    let cold_dir = paths.sessions_dir.join("cold");
    walk(&paths.sessions_dir, &mut |p, len| {
        if p.starts_with(&cold_dir) {
            du.cold_archives.add(len);
            return;
        }
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        match classify_session_file(name) {
            SessionFile::Transcript { .. } => du.legacy_transcripts.add(len),
            SessionFile::Archive {
                reason: ArchiveReason::Deleted,
                ..
            } => du.deleted_archives.add(len),
            SessionFile::Archive {
                reason: ArchiveReason::Reset,
                ..
            } => du.reset_archives.add(len),
            SessionFile::Archive {
                reason: ArchiveReason::Bak,
                ..
            } => du.bak_archives.add(len),
            _ => du.other_session_files.add(len),
        }
    })?;
    walk(&paths.import_archive_dir, &mut |_, len| {
        du.import_archive.add(len)
    })?;
    du.total = du.database
        + du.wal
        + du.shm
        + du.legacy_transcripts.bytes
        + du.deleted_archives.bytes
        + du.reset_archives.bytes
        + du.bak_archives.bytes
        + du.cold_archives.bytes
        + du.other_session_files.bytes
        + du.import_archive.bytes;
    du.budget_bytes = du.database + du.wal + budget_files(&paths.sessions_dir)?;
    du.max_disk_bytes = maintenance.max_disk_bytes();
    du.high_water_bytes = maintenance.high_water_bytes();
    du.over_budget = du.max_disk_bytes.is_some_and(|m| du.budget_bytes > m);
    du.over_high_water = du.high_water_bytes.is_some_and(|h| du.budget_bytes > h);
    Ok(du)
}

/// A migration leftover OpenClaw's disk budget does not count (`isMigrationArchiveArtifactName`):
/// `*.migrated`, `*.migrated.N`, `*.jsonl.pre-doctor-(branch|openai-codex)-repair-<stamp>.bak`
/// with the stamp `YYYY-MM-DDTHH-MM-SS-mmmZ`.
fn migration_leftover(name: &str) -> bool {
    let migrated = name.rsplit_once(".migrated").is_some_and(|(_, rest)| {
        rest.is_empty()
            || rest
                .strip_prefix('.')
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    let repair = ["branch", "openai-codex"].iter().any(|kind| {
        name.rsplit_once(&format!(".jsonl.pre-doctor-{kind}-repair-"))
            .and_then(|(_, rest)| rest.strip_suffix(".bak"))
            .is_some_and(repair_stamp)
    });
    migrated || repair
}

/// `YYYY-MM-DDTHH-MM-SS-mmmZ`, the stamp of OpenClaw's pre-doctor repair backups.
fn repair_stamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 24
        && b.iter().enumerate().all(|(i, &c)| match i {
            4 | 7 | 13 | 16 | 19 => c == b'-',
            10 => c == b'T',
            23 => c == b'Z',
            _ => c.is_ascii_digit(),
        })
}

/// The regular files directly in `dir` (not symlinks, not in subdirectories), as OpenClaw's
/// `readSessionsDirFiles` lists them: migration leftovers are left out.
fn top_files(dir: &Path, visit: &mut dyn FnMut(&str, u64)) -> Result<()> {
    let Some(rd) = crate::fsutil::read_dir_if_exists(dir)? else {
        return Ok(());
    };
    for ent in rd {
        let ent = ent.at(dir)?;
        let ft = ent.file_type().at(ent.path())?;
        let name = ent.file_name().to_string_lossy().into_owned();
        if ft.is_file() && !migration_leftover(&name) {
            visit(&name, ent.metadata().at(ent.path())?.len());
        }
    }
    Ok(())
}

/// A skills-prompt cache file OpenClaw counts: `<64 hex>.txt`, or its temporary
/// `<64 hex>.txt[.N].<uuid>.tmp` (`isSessionPromptBlobTempArtifactName`).
fn prompt_blob_name(name: &str) -> bool {
    let hex = |s: &str, n: usize| {
        s.len() == n && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    };
    let Some((hash, rest)) = name.split_once('.') else {
        return false;
    };
    let Some(rest) = rest.strip_prefix("txt") else {
        return false;
    };
    if !hex(hash, 64) {
        return false;
    }
    if rest.is_empty() {
        return true;
    }
    let Some(tmp) = rest.strip_prefix('.').and_then(|r| r.strip_suffix(".tmp")) else {
        return false;
    };
    // An optional counter before the uuid.
    let uuid = match tmp.split_once('.') {
        Some((n, u)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => u,
        Some(_) => return false,
        None => tmp,
    };
    let parts: Vec<&str> = uuid.split('-').collect();
    parts.len() == 5 && parts.iter().zip([8, 4, 4, 4, 12]).all(|(p, n)| hex(p, n))
}

/// The files of `sessions/` that OpenClaw's disk budget counts (`readSessionPhysicalDiskUsage`,
/// see `budget_bytes`): the files directly in `sessions/` and in `sessions/cold/` but migration
/// leftovers, and the skills-prompt cache `skills-prompts/sha256/<2 hex>/<64 hex>.txt`.
fn budget_files(sessions_dir: &Path) -> Result<u64> {
    let mut bytes = 0;
    top_files(sessions_dir, &mut |_, len| bytes += len)?;
    top_files(&sessions_dir.join("cold"), &mut |_, len| bytes += len)?;
    let prompts = sessions_dir.join("skills-prompts/sha256");
    let rd = match std::fs::read_dir(&prompts) {
        Ok(rd) => Some(rd),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(crate::Error::io(&prompts, e)),
    };
    for ent in rd.into_iter().flatten() {
        let ent = ent.at(&prompts)?;
        let name = ent.file_name().to_string_lossy().into_owned();
        let prefix =
            name.len() == 2 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        if !prefix || !ent.file_type().at(ent.path())?.is_dir() {
            continue;
        }
        let dir = ent.path();
        for blob in std::fs::read_dir(&dir).at(&dir)? {
            let blob = blob.at(&dir)?;
            let name = blob.file_name().to_string_lossy().into_owned();
            if blob.file_type().at(blob.path())?.is_file() && prompt_blob_name(&name) {
                bytes += blob.metadata().at(blob.path())?.len();
            }
        }
    }
    Ok(bytes)
}

/// The warning for an agent over its disk budget, worded once for every command.
pub fn over_budget_warning(agent_id: &str, used: u64, max: u64) -> String {
    format!(
        "agent {agent_id} uses {} on disk, over its budget session.maintenance.maxDiskBytes {}",
        crate::units::format_bytes(used),
        crate::units::format_bytes(max)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migration_leftovers_are_not_budgeted() {
        for name in [
            "a.jsonl.migrated",
            "a.jsonl.migrated.2",
            "a.jsonl.pre-doctor-branch-repair-2026-01-01T00-00-00-000Z.bak",
            "a.jsonl.pre-doctor-openai-codex-repair-2026-01-01T00-00-00-000Z.bak",
        ] {
            assert!(migration_leftover(name), "{name}");
        }
        for name in [
            "a.jsonl",
            "a.jsonl.migrated.x",
            "a.jsonl.bak.2026-01-01T00-00-00.000Z",
            "a.jsonl.pre-doctor-openai-codex-repair-x.bak",
            "a.jsonl.pre-doctor-branch-repair-2026-01-01T00-00-00.000Z.bak",
            "sessions.json",
        ] {
            assert!(!migration_leftover(name), "{name}");
        }
    }

    #[test]
    fn prompt_cache_names_as_openclaw_counts_them() {
        let h = "0123456789abcdef".repeat(4);
        for name in [
            format!("{h}.txt"),
            format!("{h}.txt.0123abcd-0000-4000-8000-0123456789ab.tmp"),
            format!("{h}.txt.12.0123abcd-0000-4000-8000-0123456789ab.tmp"),
        ] {
            assert!(prompt_blob_name(&name), "{name}");
        }
        for name in [
            format!("{}.txt", &h[1..]),
            format!("{h}.txt.tmp"),
            format!("{h}.txt.x.0123abcd-0000-4000-8000-0123456789ab.tmp"),
            format!("{h}.md"),
            format!("{}.txt", h.to_uppercase()),
        ] {
            assert!(!prompt_blob_name(&name), "{name}");
        }
    }
}
