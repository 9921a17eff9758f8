//! Changing stores, always as plan-then-apply: a plan is computed read-only (and is all a
//! dry run shows), then applied in one transaction that re-checks what the plan saw. Every
//! write goes through OpenClaw's own rules (tests/reference/openclaw/OPERATIONS.md §0–§3).

mod crash;
mod delete;
mod entry_fields;
mod entry_writer;
pub mod kept_entry;
mod patch;
pub mod plugin_records;
pub mod prune;
pub mod publish;
mod references;
mod writable;

pub use crash::crash_point;
pub use delete::{
    apply_delete, apply_delete_batch, archive_name, archive_orphan_transcript, delete_state_rows,
    plan_delete, ArchivePlan, ArchivedFile, DeleteOptions, DeletePlan, DeleteResult,
};
pub use entry_fields::{field_type_error, is_known_field, suggest_field};
pub use entry_writer::{
    canonical_entry, certify, project_node_columns, write_node, LINEAGE_COLUMNS,
};
pub(crate) use entry_writer::{
    session_scope, write_entry, write_window, ARCHIVE_REASONS, LEGACY_DELIVERY_FIELDS,
};
pub use patch::{
    apply_patch, apply_patch_batch, plan_archive, plan_maintenance_archive, plan_patch,
    plan_unarchive, FieldChange, PatchOps, PatchPlan,
};
pub use references::{ReferenceView, References};
pub use writable::{check_owned_path, WritableDb};
