//! Crash points of the mutations, for the fault tests (no-ops outside test builds; see
//! `crate::test_hooks`).

pub use crate::test_hooks::crash_point;
