//! The one answer to "was this run asked to stop?": a flag the caller owns (the binary's
//! signal handler sets it), handed down as a `Copy` value that threads can share. Work polls
//! it at its consistent points (between transactions, before the next file publish) and
//! returns [`crate::Error::Interrupted`].

use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Debug, Clone, Copy, Default)]
pub struct Interruption(Option<&'static AtomicBool>);

impl Interruption {
    /// Nobody can ask the run to stop (library callers, tests).
    pub const NEVER: Interruption = Interruption(None);

    /// Stop once `flag` is set.
    pub const fn on(flag: &'static AtomicBool) -> Interruption {
        Interruption(Some(flag))
    }

    /// Whether the stop has been asked for.
    pub fn requested(self) -> bool {
        self.0.is_some_and(|f| f.load(Ordering::SeqCst))
    }
}
