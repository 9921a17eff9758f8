//! Migrations of old layouts: the legacy file store imported into SQLite (`import`; the
//! legacy files themselves are read by the top-level `legacy` module) and the ACPX plugin's
//! state directory adoption (`acpx`).

pub mod acpx;
pub mod import;
