//! Offline custody of a state dir, as OpenClaw's own maintenance takes it
//! (tests/reference/openclaw/FORMAT.md §g, tests/reference/openclaw/OPERATIONS.md §7): lock files
//! with JSON payloads, each guarded by an SQLite coordinator file whose exclusive transaction is
//! held for the owner's lifetime.

mod acquire;
mod coordinator;
mod lock_file;
mod probe;
mod process;

pub use acquire::{clear_stale, AcquireOptions, AcquireReport, Custody, ROLE};
pub use coordinator::{ensure_private_dir, CoordinatorState};
pub use lock_file::LockPayload;
pub use probe::{probe, LockReport, OwnerReport, OwnerState, OwnershipProbe, STALE_MS};
