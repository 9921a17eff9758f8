//! Changing stores, always as plan-then-apply: a plan is computed read-only (and is all a
//! dry run shows), then applied in one transaction that re-checks what the plan saw. Every
//! write goes through OpenClaw's own rules (tests/reference/openclaw/OPERATIONS.md §0–§3).

pub mod bundle;
pub mod compact;
mod delete;
mod patch;
pub mod plugin_records;
pub mod prune;
mod references;
pub mod restore;

pub use delete::{
    apply_delete, apply_delete_batch, delete_state_rows, plan_delete, ArchivePlan, DeleteOptions,
    DeletePlan, DeleteResult, FoundSearchRows,
};
pub use patch::{
    apply_patch, apply_patch_batch, plan_archive, plan_maintenance_archive, plan_patch,
    plan_unarchive, FieldChange, PatchOps, PatchPlan,
};
pub use references::{ReferenceView, References};
