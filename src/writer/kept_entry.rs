//! The entry a deletion removes, kept so that `undelete` brings the session back as it was at
//! deletion (label, `updatedAt`, everything), not as an older snapshot or the import's index
//! had it. One private file per archive, `<state>/openclaw-sessions-deleted/<agent>/<archive
//! name>.entry.json`, under our own directory rather than in `sessions/`: OpenClaw's
//! maintenance and disk budget judge every file in `sessions/` by its name, and our doctor
//! reports files there that it does not know. A kept entry goes with its archive (the disk
//! budget and the artifact retention remove both).
//!
//! Crash safety: the files are written and synced before the deletion's transaction commits.
//! A run killed between leaves a file whose archive does not exist, which nothing reads:
//! every lookup goes by archive name, and an archive name is never made twice (it holds the
//! deletion's time and the transcript's generation). The next mutation removes such a file
//! under custody before it plans (`ops::leftovers`), so a re-run ends with the entries of an
//! uninterrupted run; the doctor names one, and one whose archive OpenClaw's own disk budget
//! removed, and its repair removes it (check `leftovers`).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result, ResultExt};
use crate::fsutil;

/// Under the state dir, beside `openclaw-sessions-snapshots`.
pub const KEPT_ENTRIES_DIR: &str = "openclaw-sessions-deleted";
const FORMAT: &str = "openclaw-sessions.deleted-entry";
pub const SUFFIX: &str = ".entry.json";

/// One deleted entry, as kept in its file.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct KeptEntry {
    pub format: String,
    pub version: u32,
    pub agent_id: String,
    pub session_key: String,
    pub session_id: String,
    /// The archive of the session's transcript this entry goes with.
    pub archive_name: String,
    /// Milliseconds since the epoch.
    pub deleted_at: i64,
    /// The key was still waiting for OpenClaw's key validation.
    #[serde(default)]
    pub pending_validation: bool,
    pub entry: Map<String, Value>,
}

impl KeptEntry {
    pub fn new(
        agent_id: &str,
        session_key: &str,
        session_id: &str,
        archive_name: &str,
        deleted_at: i64,
        pending_validation: bool,
        entry: Map<String, Value>,
    ) -> Self {
        KeptEntry {
            format: FORMAT.into(),
            version: 1,
            agent_id: agent_id.into(),
            session_key: session_key.into(),
            session_id: session_id.into(),
            archive_name: archive_name.into(),
            deleted_at,
            pending_validation,
            entry,
        }
    }
}

/// `<state>/openclaw-sessions-deleted/<agent>`.
pub fn kept_entries_dir(state_dir: &Path, agent_id: &str) -> PathBuf {
    state_dir.join(KEPT_ENTRIES_DIR).join(agent_id)
}

/// The file that keeps the entry deleted with `archive_name`.
pub fn kept_entry_path(state_dir: &Path, agent_id: &str, archive_name: &str) -> PathBuf {
    kept_entries_dir(state_dir, agent_id).join(format!("{archive_name}{SUFFIX}"))
}

/// The entry kept with `archive_name`, when there is one that reads and names that archive.
pub fn read_kept_entry(
    state_dir: &Path,
    agent_id: &str,
    archive_name: &str,
) -> Option<(PathBuf, KeptEntry)> {
    let path = kept_entry_path(state_dir, agent_id, archive_name);
    let text = fsutil::read_regular_to_string(&path).ok()?;
    let kept: KeptEntry = crate::json_value::from_str(&text).ok()?;
    (kept.format == FORMAT && kept.archive_name == archive_name && kept.agent_id == agent_id)
        .then_some((path, kept))
}

/// The temporary files a run killed while it wrote an agent's entries left
/// (`.<archive>.<uuid>.tmp`, only ours), for the next run to remove under custody.
pub fn interrupted_writes(state_dir: &Path, agent_id: &str) -> Result<Vec<PathBuf>> {
    let dir = kept_entries_dir(state_dir, agent_id);
    let Some(rd) = fsutil::read_dir_if_exists(&dir)? else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for ent in rd {
        let ent = ent.at(&dir)?;
        let name = ent.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.')
            && name.ends_with(".tmp")
            && ent.file_type().at(ent.path())?.is_file()
        {
            found.push(ent.path());
        }
    }
    Ok(found)
}

/// Write the entries (0600, in a 0700 directory), each file and the directory synced before
/// this returns: called before the deletion commits. An older file of the same name (a run
/// killed before its commit) is replaced.
pub fn write_kept_entries(state_dir: &Path, kept: &[KeptEntry]) -> Result<()> {
    let Some(first) = kept.first() else {
        return Ok(());
    };
    let dir = kept_entries_dir(state_dir, &first.agent_id);
    let created = !dir.is_dir();
    fsutil::create_private_dir_all(&dir)?;
    crate::writer::check_owned_path(state_dir, &dir)?;
    for k in kept {
        if Path::new(&k.archive_name)
            .file_name()
            .and_then(|n| n.to_str())
            != Some(k.archive_name.as_str())
            || k.agent_id != first.agent_id
        {
            return Err(Error::unsafe_path(format!(
                "archive name {:?} is not a plain file name; its entry is not kept",
                k.archive_name
            )));
        }
        let target = dir.join(format!("{}{SUFFIX}", k.archive_name));
        let tmp = dir.join(format!(".{}.{}.tmp", k.archive_name, uuid::Uuid::new_v4()));
        let written = (|| {
            let mut f = fsutil::create_new_private(&tmp)?;
            let text = serde_json::to_vec_pretty(k).map_err(|e| Error::Internal(e.to_string()))?;
            f.write_all(&text).at(&tmp)?;
            f.sync_all().at(&tmp)?;
            std::fs::rename(&tmp, &target).at(&target)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written?;
    }
    fsutil::fsync_dir(&dir)?;
    if created {
        for d in [dir.parent(), dir.parent().and_then(Path::parent)]
            .into_iter()
            .flatten()
        {
            let _ = fsutil::fsync_dir(d);
        }
    }
    Ok(())
}

/// Remove the entry kept with `archive_name` (its archive is being removed). Nothing there is
/// no error.
pub fn remove_kept_entry(state_dir: &Path, agent_id: &str, archive_name: &str) -> Result<()> {
    let path = kept_entry_path(state_dir, agent_id, archive_name);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(&path, e)),
    }
}
