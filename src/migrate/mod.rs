//! Migrations of old layouts: the ACPX plugin's state directory adoption (`acpx`).

pub mod acpx;
