//! Progress reporting from the core to whoever draws it (the binary's progress bar).

/// Receives progress of long work. All methods default to doing nothing. `Sync`: work on
/// several databases at once reports to one receiver.
pub trait Progress: Sync {
    /// A new phase with a known total (bytes, rows...), or `None` when unknown.
    fn start(&self, _label: &str, _total: Option<u64>) {}
    fn advance(&self, _delta: u64) {}
    fn finish(&self) {}
}

/// Progress that goes nowhere (quiet runs, tests).
pub struct NoProgress;

impl Progress for NoProgress {}
