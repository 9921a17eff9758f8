//! Agent databases: opening without disturbing, the schema gate, session rows.

mod agent_store;
pub(crate) mod db;
mod entry;
mod kind;
mod newest_first;
mod open;
mod schema;
mod scratch;

pub use agent_store::{
    AgentStore, ArchiveRow, ListedSession, SessionLookup, StoreKind, TranscriptStats, WindowRow,
};
pub use entry::SessionEntry;
pub use kind::SessionKind;
pub use newest_first::for_each_newest_first;
pub use open::{sidecar as sidecar_path, OpenMode, ReadOnlyDb};
pub use schema::{
    read_owner, DatabaseRole, SchemaInfo, SchemaStatus, KNOWN_AGENT_SCHEMA, KNOWN_STATE_SCHEMA,
};
pub use scratch::open_scratch;
