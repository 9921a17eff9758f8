//! OpenClaw's writer: every row this tool writes into OpenClaw's databases is written here,
//! the way OpenClaw's own code writes it (docs/ARCHITECTURE.md). The entry and its projected
//! columns, the window, transcript events (plain or compressed, with their search rows,
//! conversation, delivery and navigation), transcript archives and their publication, and
//! the guards every write passes (the owned-path check, the crash points of the fault tests).
//!
//! The command engines above (`migrate`, `backup`, `doctor`, `mutate`, `history`) are peers
//! that import none of one another; what two of them write in common lives here.

pub mod archive;
mod crash;
mod entry;
mod entry_fields;
pub mod kept_entry;
mod legacy_entry;
pub mod publish;
pub mod transcript;
mod writable;

pub use crate::store::AgentSchema;
pub use crash::crash_point;
pub use entry::{
    canonical_entry, certify, project_node_columns, session_scope, write_entry,
    write_entry_uncertified, write_node, write_window, ARCHIVE_REASONS, LINEAGE_COLUMNS,
};
pub use entry_fields::{field_type_error, is_known_field, suggest_field, LEGACY_DELIVERY_FIELDS};
pub use legacy_entry::normalise_entry;
pub use writable::{check_owned_path, WritableDb};
