//! What killed runs left inside the store, removed by the next mutation once it holds custody
//! (no live writer can own them then): temporary publication files in `sessions/`
//! (our own `*.tmp` names only), restore staging directories beside an agent database (`.tmp-restore-*`,
//! `.sqlite-snapshot-*`) and the stages of databases being created (`*.sqlite.creating-*`). The doctor names the same leftovers (check `leftovers`).

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
