//! Integration tests: the real binary on copies of real OpenClaw stores.

mod backup;
mod common;
mod conditions;
mod crash_states;
mod custody;
mod docs;
mod doctor;
mod errors;
mod faults;
mod fuzz_regressions;
mod hardening;
mod history;
mod hostile;
mod inspect;
mod layers;
mod migrate_acpx;
mod migrate_legacy;
mod mutate;
mod pipeline;
mod prune;
mod read_only;
mod reclaim;
mod repairs;
mod surface;
mod transcript;
mod undelete;
