//! What killed runs left inside the store, removed by the next mutation once it holds custody
//! (no live writer can own them then): temporary publication files in `sessions/`
//! (our own `*.tmp` names only), restore staging directories beside an agent database (`.tmp-restore-*`,
//! `.sqlite-snapshot-*`) and the stages of databases being created (`*.sqlite.creating-*`). The doctor names the same leftovers (check `leftovers`).

use std::path::PathBuf;

use crate::error::{Result, ResultExt};
use crate::legacy::is_interrupted_write;
use crate::paths::AgentPaths;
use crate::store::db::create::is_creation_stage;

/// Remove every leftover of `agents` (the run's scope, never another agent's); returns what
/// was removed.
pub fn remove_leftovers(agents: &[AgentPaths]) -> Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for paths in agents {
        if let Some(dir) = paths.db.parent() {
            for ent in std::fs::read_dir(dir).into_iter().flatten().flatten() {
                let name = ent.file_name().to_string_lossy().into_owned();
                let staging =
                    name.starts_with(".tmp-restore-") || name.starts_with(".sqlite-snapshot-");
                if staging && ent.file_type().is_ok_and(|t| t.is_dir()) {
                    std::fs::remove_dir_all(ent.path()).at(ent.path())?;
                    removed.push(ent.path());
                } else if is_creation_stage(&name) && ent.file_type().is_ok_and(|t| t.is_file()) {
                    std::fs::remove_file(ent.path()).at(ent.path())?;
                    removed.push(ent.path());
                }
            }
        }
        for ent in std::fs::read_dir(&paths.sessions_dir)
            .into_iter()
            .flatten()
            .flatten()
        {
            let name = ent.file_name().to_string_lossy().into_owned();
            if is_interrupted_write(&name) && ent.file_type().is_ok_and(|t| t.is_file()) {
                std::fs::remove_file(ent.path()).at(ent.path())?;
                removed.push(ent.path());
            }
        }
    }
    Ok(removed)
}
