//! The legacy file store: `sessions.json` (JSON, or JSON5) beside `<sessionId>.jsonl`
//! transcripts, and the archive file names OpenClaw leaves in `sessions/`. One reader of
//! `sessions.json` serves the read-only commands and the import.

mod archive_name;
mod index;
mod jsonl;

pub use archive_name::{classify_session_file, is_interrupted_write, ArchiveReason, SessionFile};
pub use index::{
    for_each_index_entry, is_safe_session_id, parse_index, IndexRead, IndexSource,
    InvalidLegacyEntry, LegacyIndex,
};
pub use jsonl::{
    archive_cap, JsonlReader, MAX_ARCHIVE_BYTES, MAX_COLD_ARCHIVE_BYTES, MAX_LINE_BYTES,
};
