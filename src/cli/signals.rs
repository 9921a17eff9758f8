//! Ctrl-C and SIGTERM set a flag instead of killing the process: a mutation stops at its next
//! consistent point (between transactions, before the next file publish), releases custody,
//! says what was done and exits 130. A second signal ends the process at once: every write
//! is a transaction or a rename, so the store is consistent at any instant, and the lock
//! left behind names a dead pid, which the next run reclaims (README.md, Exit codes).

use std::sync::atomic::{AtomicBool, Ordering};

pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The exit code of an interrupted run (128 + SIGINT, as shells report it).
const EXIT_INTERRUPTED: libc::c_int = 130;

extern "C" fn on_signal(_: libc::c_int) {
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // SAFETY: `_exit` is async-signal-safe; nothing is flushed or unwound.
        unsafe { libc::_exit(EXIT_INTERRUPTED) };
    }
}

/// Install the handlers (mutating commands only: readers keep the default behaviour and
/// stop at once).
pub fn install() {
    // SAFETY: the handler only touches an atomic and calls `_exit`, both async-signal-safe.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_signal as *const () as usize;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        libc::sigaction(libc::SIGINT, &action, std::ptr::null_mut());
        libc::sigaction(libc::SIGTERM, &action, std::ptr::null_mut());
    }
}

pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}
