//! The agent schema a writer writes: each release's writer writes only the tables and columns
//! its schema has (docs/openclaw/RELEASES.md §2), so a change to a schema-19 or schema-21
//! database is what 2026.8.2 (and 2026.9.1 to 2026.9.4, which write 19 the same way) or 2026.9.5
//! would write for the same request.

use rusqlite::Connection;

/// An agent database's `user_version`, read from the connection the writer writes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AgentSchema(pub i64);

impl AgentSchema {
    /// The schema this tool writes when nothing older is asked for (OpenClaw 2026.9.6's, 23).
    pub const CURRENT: AgentSchema = AgentSchema(super::KNOWN_AGENT_SCHEMA);

    /// The older agent schemas this tool writes as their releases do (each operation names
    /// which of them it writes: `Operation::OLDER_SCHEMAS_WRITTEN`; docs/openclaw/RELEASES.md §6).
    pub const OLDER_WRITTEN: &'static [i64] = super::releases::OLDER_AGENT_SCHEMAS_WRITTEN;

    pub fn of(conn: &Connection) -> rusqlite::Result<Self> {
        conn.query_row("PRAGMA user_version", [], |r| r.get(0))
            .map(AgentSchema)
    }

    /// `session_canonical_validation_pending` and its triggers (21 on): the writer certifies
    /// the keys it writes by clearing their rows.
    pub fn validates_canonical_keys(self) -> bool {
        self.0 >= 21
    }

    /// `session_transcript_fts_rows` (23 on): the search index keeps a row per message there.
    pub fn has_search_rows(self) -> bool {
        self.0 >= 23
    }

    /// `transcript_events.event_zstd`, `event_utf8_bytes`, `navigation_json` (23 on): before,
    /// every event is plain `event_json`.
    pub fn compresses_events(self) -> bool {
        self.0 >= 23
    }

    /// `session_nodes.legacy_acp_migration_json` records where ACP metadata came from (21 and
    /// a fresh 23; 19 has no such column).
    pub fn records_acp_sources(self) -> bool {
        self.0 >= 21
    }

    /// `session_transcript_cold_archives` (21 on).
    pub fn has_cold_archives(self) -> bool {
        self.0 >= 21
    }
}
