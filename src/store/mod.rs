//! Agent databases: opening without disturbing, the schema gate, session rows.

mod agent_schema;
mod agent_store;
pub mod archive_rows;
pub(crate) mod db;
mod leftovers;
mod newest_first;
mod open;
pub mod releases;
pub mod resolve;
mod schema;
mod scratch;
mod sqlite_header;

pub use crate::formats::{OpenClawKind, SessionEntry, SessionKind};
pub use crate::paths::read_owner;
pub use agent_schema::AgentSchema;
pub use agent_store::{
    AgentStore, ArchiveRow, EventCountWalk, EventCounts, ListedSession, SessionLookup, StoreKind,
    TranscriptStats, WindowRow,
};
pub use leftovers::{find_leftovers, Leftover, LeftoverKind};
pub use newest_first::{for_each_newest_first, for_each_newest_first_after, Position};
pub use open::{sidecar as sidecar_path, OpenMode, ReadOnlyDb};
pub use schema::{
    owner_routes_hint, require_database, upgrade_hint, DatabaseRole, SchemaInfo, SchemaStatus,
    KNOWN_AGENT_SCHEMA, KNOWN_STATE_SCHEMA,
};
pub use scratch::open_scratch;
pub use sqlite_header::require_sqlite_file;
