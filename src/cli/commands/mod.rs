//! One module per subcommand: its arguments (clap), its run, its output. What they share (the
//! printer, exit codes, hints, tables, the mutation pipeline's hooks and question, signals)
//! is in `src/cli/`.

pub mod archives;
pub mod backup;
pub mod bundle;
pub mod compact;
pub mod completions;
pub mod custody;
pub mod delete;
pub mod doctor;
pub mod du;
pub mod lifecycle;
pub mod list;
pub mod log;
pub mod man;
pub mod marker;
pub mod migrate;
pub mod migrate_legacy;
pub mod patch;
pub mod prune;
pub mod reclaim;
pub mod search;
pub mod secrets;
pub mod show;
pub mod status;
pub mod transcript;
pub mod undelete;
pub mod undo;
