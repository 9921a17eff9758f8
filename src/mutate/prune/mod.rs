//! `prune`: OpenClaw's session store maintenance (docs/openclaw/MAINTENANCE.md §2,
//! `planSessionEntryMaintenance` as `openclaw sessions cleanup` forces it), planned read-only and
//! applied through the same entry writer and deletion as `archive`/`delete`.

mod action;
mod artifacts;
mod budget;
mod fixes;
mod planner;
mod rules;
mod settings;

pub use action::PruneAction;
pub use artifacts::{plan_artifacts, ArtifactRemoval};
pub use budget::{
    apply_budget, is_retained_archive_name, plan_budget, simulate, ArtifactEffect, BudgetInput,
    BudgetOutcome, BudgetPlan, BudgetRemoval, BudgetStep, Candidate, Candidates,
};
pub use fixes::{missing_transcript, FIX_MISSING_FIELDS};
pub use planner::{
    ActionFilter, PlanBuilder, PlannedList, PruneCounts, PruneItem, PrunePlan,
    MODEL_RUN_PRUNE_AFTER_MS,
};
pub use rules::{is_main_scope_direct_key, PlannerRow, PruneRules, PLANNER_FIELDS};
pub use settings::{parse_openclaw_duration, MaintenanceSettings};
