//! Archives an earlier run committed but was stopped before publishing (their rows pending),
//! published by the next `delete` or `prune` once it holds custody, before it plans.

use std::path::Path;

use super::Hooks;
use crate::error::Result;
use crate::paths::AgentPaths;

/// Publish the pending archives of each of `agents` that has a database (of the schema this
/// tool writes, or one of the operation's older ones, `also`); says what it published and
/// what is still pending through `hooks`.
pub fn publish_pending_archives<'a>(
    state_dir: &Path,
    agents: impl IntoIterator<Item = &'a AgentPaths>,
    also: &[i64],
    hooks: &dyn Hooks,
) -> Result<()> {
    for paths in agents {
        if !paths.db.is_file() {
            continue;
        }
        let db = crate::writer::WritableDb::open_accepting(state_dir, &paths.db, also)?;
        let (published, failed) = crate::writer::publish::publish_pending(
            &db,
            &paths.sessions_dir,
            crate::units::now_ms(),
        )?;
        for p in published {
            hooks.note(format!("published pending archive {p}"));
        }
        for f in failed {
            hooks.warn(format!("archive still pending: {f}").into());
        }
    }
    Ok(())
}
