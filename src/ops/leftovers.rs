//! What killed runs left inside the store, removed by the next mutation once it holds custody
//! (no live writer can own them then): temporary publication files in `sessions/`
//! (our own `*.tmp` names only), restore staging directories beside an agent database (`.tmp-restore-*`,
//! `.sqlite-snapshot-*`), the stages of databases being created (`*.sqlite.creating-*`), and
//! the entries a deletion kept whose archive is gone (a deletion killed after keeping them and
//! before its commit; its re-run keeps them again under a new archive name). The doctor names
//! the same leftovers (check `leftovers`).

use std::path::{Path, PathBuf};

use crate::error::{Result, ResultExt};
use crate::paths::AgentPaths;
use crate::store::{find_leftovers, LeftoverKind};

/// Remove every leftover of `agents` (the run's scope, never another agent's), the temporary
/// files of their kept entries in `state_dir` included; returns what was removed. Custody is
/// held, so no live run of ours owns them, whatever pid a stage names.
pub fn remove_leftovers(state_dir: &Path, agents: &[AgentPaths]) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for paths in agents {
        for path in crate::writer::kept_entry::interrupted_writes(state_dir, paths.id.as_str())? {
            std::fs::remove_file(&path).at(&path)?;
            removed.push(path);
        }
        for path in orphaned_kept_entries(state_dir, paths)? {
            std::fs::remove_file(&path).at(&path)?;
            removed.push(path);
        }
        for leftover in find_leftovers(paths) {
            let path = leftover.path;
            match leftover.kind {
                LeftoverKind::StagingDir => std::fs::remove_dir_all(&path).at(&path)?,
                LeftoverKind::CreationStage { .. } | LeftoverKind::InterruptedWrite => {
                    std::fs::remove_file(&path).at(&path)?
                }
            }
            removed.push(path);
        }
    }
    Ok(removed)
}

/// The entries kept for an archive of this agent that is neither a row of its database nor a
/// file in `sessions/`: nothing reads them (docs/openclaw/HOSTILE.md §11). A database that
/// does not open proves nothing gone, so then none is named.
fn orphaned_kept_entries(state_dir: &Path, paths: &AgentPaths) -> Result<Vec<PathBuf>> {
    let dir = crate::writer::kept_entry::kept_entries_dir(state_dir, paths.id.as_str());
    let Some(rd) = crate::fsutil::read_dir_if_exists(&dir)? else {
        return Ok(Vec::new());
    };
    let Ok(db) = crate::store::ReadOnlyDb::open(&paths.db) else {
        return Ok(Vec::new());
    };
    let Ok(names) = crate::store::db::archives::names(db.conn()) else {
        return Ok(Vec::new());
    };
    let mut found = Vec::new();
    for ent in rd {
        let ent = ent.at(&dir)?;
        let file = ent.file_name().to_string_lossy().into_owned();
        let Some(archive) = file.strip_suffix(crate::writer::kept_entry::SUFFIX) else {
            continue;
        };
        if file.starts_with('.')
            || names.contains(archive)
            || !ent.file_type().at(ent.path())?.is_file()
            || std::fs::symlink_metadata(paths.sessions_dir.join(archive)).is_ok()
        {
            continue;
        }
        found.push(ent.path());
    }
    found.sort();
    Ok(found)
}
