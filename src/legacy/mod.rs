//! The legacy file store: `sessions.json` (JSON5) beside `<sessionId>.jsonl` transcripts,
//! and the archive file names OpenClaw leaves in `sessions/`.

mod archive_name;
mod index;
mod jsonl;

pub use archive_name::{classify_session_file, ArchiveReason, SessionFile};
pub use index::{is_safe_session_id, InvalidLegacyEntry, LegacyIndex};
pub use jsonl::JsonlReader;
