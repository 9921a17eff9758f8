//! Every destructive operation as a value with a read-only plan and an apply step, all run by
//! one pipeline ([`pipeline::run`]) in one fixed order. The binary supplies the questions,
//! progress and output through [`pipeline::Hooks`]; nothing here prints, prompts or exits.

pub mod backup_prune;
pub mod bundle_import;
pub mod compact;
pub mod delete;
mod disk_space;
pub mod doctor_fix;
pub mod entry_change;
pub mod guard;
pub mod leftovers;
pub mod migrate_acpx;
pub mod migrate_legacy;
pub mod migrate_schema;
pub mod online;
pub mod owner;
mod pending;
pub mod pipeline;
pub mod prune;
pub mod reclaim;
mod release_guard;
pub mod restore;
pub mod restore_session;
pub mod scrub;
pub mod summary;
pub mod targets;
pub mod undelete;
pub mod undo;

pub use pipeline::{
    run, Decision, Hooks, Operation, Run, RunOptions, RunState, SnapshotPolicy, SnapshotTaken,
};
pub use summary::{PlanGroup, PlanItem, PlanSummary};
pub use targets::{Selection, Target};
