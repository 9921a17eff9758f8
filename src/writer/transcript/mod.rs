//! Transcript events as OpenClaw stores them: a legacy JSONL record converted to OpenClaw's
//! event (`convert`), its stored payload, plain or a compressed frame with its navigation
//! (`payload`, `navigation`), the search rows and index it projects (`projection`), and the
//! conversation and delivery rows an entry's context implies (`conversation`, `delivery`).

pub mod append;
pub mod conversation;
pub mod convert;
pub mod delivery;
pub mod navigation;
pub mod payload;
pub mod projection;
pub mod rewrite;

pub use append::{event_id, event_time, EventAppender, Stored};
pub use conversation::{conversation_of, link_conversation, write_conversation};
pub use delivery::delivery_from_context;
pub use projection::{searchable_text, ProjectionCursor, SearchRows};
pub use rewrite::{rewrite_event, RewriteError};
