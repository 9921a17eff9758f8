//! Transcript events: decoding stored rows (zstd included), streaming, and the bounded
//! readers (`delta`, `catalog`) and writers (`export`) built on them.

pub mod branch;
pub mod catalog;
pub mod cursor;
pub mod delta;
mod event;
pub mod export;
mod source;

pub use event::{decode_event_row, StoredEvent};
pub use source::{for_each_archived, ArchiveBody, ArchiveEncoding, TranscriptSource};
