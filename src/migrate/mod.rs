//! Migrations of old layouts: the legacy file store into SQLite (`legacy`) and the ACPX
//! plugin's state directory adoption (`acpx`).

pub mod acpx;
pub mod legacy;
