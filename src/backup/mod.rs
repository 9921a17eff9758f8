//! Snapshots in OpenClaw's format (tests/reference/openclaw/OPERATIONS.md §6): a verified,
//! standalone, compacted copy of one database plus `manifest.json`, published so that a half-made
//! snapshot never looks like one.

mod create;
mod manifest;
mod restore;
mod verify;

pub use create::{
    check_integrity_split, create_snapshot, remove_dead_staging, SnapshotSource, SnapshotTarget,
};
pub use manifest::{ArtifactManifest, DatabaseManifest, SnapshotManifest};
pub use restore::{check_restorable, restore_fresh, restore_in_place, verified};
pub use verify::{
    find_snapshot, list_snapshots, verify_snapshot, ListedSnapshot, SnapshotState, VerifyReport,
};

pub const SNAPSHOT_DB: &str = "database.sqlite";
pub const MANIFEST: &str = "manifest.json";
pub const PENDING: &str = ".pending";
