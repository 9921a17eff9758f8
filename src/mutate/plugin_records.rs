//! Plugin-side records of ACP and agent-harness sessions. OpenClaw's Gateway `sessions.delete`
//! closes the session's ACP runtime and hands the session to each plugin's own cleanup hook;
//! its SDK `deleteSessionEntry` (and so an offline delete or prune) removes only the store and
//! state-database rows (`docs/openclaw/REFUSALS.md`). The ACPX plugin's records therefore
//! stay: they are found here and reported, never removed by this tool.

use std::io::Read;
use std::path::PathBuf;

use crate::paths::StateLayout;
use crate::store::SessionEntry;

/// Longest record read when looking for a session's key or id in it.
const MAX_RECORD_BYTES: u64 = 1024 * 1024;

/// Whether OpenClaw hands this session to a plugin runtime (ACP, an agent harness).
pub fn is_plugin_session(entry: &SessionEntry) -> bool {
    entry.key.contains(":acp:")
        || entry.fields.contains_key("acp")
        || entry.fields.contains_key("acpSessionBinding")
        || entry.fields.contains_key("agentHarnessId")
}

/// The ACPX state dir OpenClaw reads: the configured `stateDir` (`~/` expanded), else
/// `<state>/acpx`.
fn acpx_dir(layout: &StateLayout) -> PathBuf {
    match layout.config.acpx_state_dir() {
        Some(dir) => match (dir.strip_prefix("~/"), &layout.home) {
            (Some(rest), Some(home)) => home.join(rest),
            _ => PathBuf::from(dir),
        },
        None => layout.state_dir.join("acpx"),
    }
}

/// The ACPX session records that name `key` or `session_id` (left behind by an offline
/// delete or prune, as OpenClaw's own SDK leaves them). Shared by `delete` and `prune`.
pub fn acpx_records_of(layout: &StateLayout, key: &str, session_id: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(dir) = std::fs::read_dir(acpx_dir(layout).join("sessions")) else {
        return found;
    };
    let quoted = [format!("\"{key}\""), format!("\"{session_id}\"")];
    for ent in dir.flatten() {
        let path = ent.path();
        if !ent.file_name().to_string_lossy().ends_with(".json") {
            continue;
        }
        let mut text = String::new();
        let read = crate::fsutil::open_regular(&path).and_then(|f| {
            f.take(MAX_RECORD_BYTES)
                .read_to_string(&mut text)
                .map_err(|e| crate::error::Error::io(&path, e))
        });
        if read.is_ok() && quoted.iter().any(|q| text.contains(q.as_str())) {
            found.push(path);
        }
    }
    found.sort();
    found
}
