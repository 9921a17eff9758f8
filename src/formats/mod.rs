//! Session data as OpenClaw writes it, independent of where it is stored: the entry object
//! (a `session_nodes.entry_json` row or a `sessions.json` value) and the kind of session a
//! key names. Both the store readers and the legacy file readers build on it.

pub mod bundle;
mod entry;
pub mod js;
mod kind;
pub mod session_key;

pub use entry::SessionEntry;
pub use kind::{OpenClawKind, SessionKind};
