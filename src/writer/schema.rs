//! What the agent schema a writer writes has, by its `user_version`: each OpenClaw release
//! writes only what its schema holds (docs/openclaw/RELEASES.md §2), so a write to an older
//! release's database leaves out what that release never wrote.

/// The agent schema a write is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WrittenSchema {
    pub user_version: i64,
}

impl WrittenSchema {
    /// The schema this tool writes (OpenClaw 2026.9.6's, 23).
    pub const CURRENT: WrittenSchema = WrittenSchema {
        user_version: crate::store::KNOWN_AGENT_SCHEMA,
    };

    pub fn of(user_version: i64) -> Self {
        WrittenSchema { user_version }
    }

    /// Events may be stored as zstd frames with their navigation (`event_zstd`,
    /// `event_utf8_bytes`, `navigation_json`: 2026.9.6's 23); before, every event is plain JSON.
    pub fn compresses_events(self) -> bool {
        self.user_version >= 23
    }

    /// Search rows are keyed by `session_transcript_fts_rows` (23); before, the FTS table
    /// numbers its own rows.
    pub fn keys_search_rows(self) -> bool {
        self.user_version >= 23
    }

    /// `session_nodes.legacy_acp_migration_json` records where ACP metadata came from (21 and
    /// a fresh 23; 19 has no such column).
    pub fn records_acp_sources(self) -> bool {
        self.user_version >= 21
    }

    /// `session_canonical_validation_pending` exists (21 and later): a key written is certified
    /// by removing its row there; before, there is nothing to certify.
    pub fn validates_canonical_keys(self) -> bool {
        self.user_version >= 21
    }

    /// `session_transcript_cold_archives` exists (21 and later).
    pub fn has_cold_archives(self) -> bool {
        self.user_version >= 21
    }
}
