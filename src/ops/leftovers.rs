//! What killed runs left inside the store, removed by the next mutation once it holds custody
//! (no live writer can own them then): temporary publication files in `sessions/`
//! (our own `*.tmp` names only), restore staging directories beside an agent database (`.tmp-restore-*`,
//! `.sqlite-snapshot-*`) and the stages of databases being created (`*.sqlite.creating-*`). The doctor names the same leftovers (check `leftovers`).

use std::path::PathBuf;

use crate::error::{Result, ResultExt};
use crate::paths::AgentPaths;
use crate::store::{find_leftovers, LeftoverKind};

/// Remove every leftover of `agents` (the run's scope, never another agent's); returns what
/// was removed. Custody is held, so no live run of ours owns them, whatever pid a stage names.
pub fn remove_leftovers(agents: &[AgentPaths]) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for paths in agents {
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
