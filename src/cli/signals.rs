//! Ctrl-C and SIGTERM set a flag instead of killing the process: a mutation stops at its next
//! consistent point (between transactions, before the next file publish), releases custody,
//! says what was done and exits 130. A second signal ends the process at once: every write
//! is a transaction or a rename, so the store is consistent at any instant, and the lock
//! left behind names a dead pid, which the next run reclaims (README.md, Exit codes).
//! A run that does not reach such a point within [`GRACE`] of the first signal (blocked in a
//! system call: an `open` or a `read` that SA_RESTART restarts) is ended then, for the same
//! reason (docs/openclaw/HOSTILE.md §9).

use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::Duration;

pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// How long after the first signal a run may take to reach its next consistent point.
pub const GRACE: Duration = Duration::from_millis(1500);

/// Set while `custody run` waits for its child: the child is told and stops on its own; the
/// custody it inherits must outlive it, so the parent is never ended early.
static CHILD_HOLDS_RUN: AtomicBool = AtomicBool::new(false);

/// `custody run`: no watchdog while its child runs (see [`CHILD_HOLDS_RUN`]).
pub fn wait_for_child() {
    CHILD_HOLDS_RUN.store(true, Ordering::SeqCst);
}

/// The write end of the pipe that wakes the watchdog thread (-1: none).
static WAKE: AtomicI32 = AtomicI32::new(-1);

/// The exit code of an interrupted run (128 + SIGINT, as shells report it).
const EXIT_INTERRUPTED: libc::c_int = 130;

extern "C" fn on_signal(_: libc::c_int) {
    if INTERRUPTED.swap(true, Ordering::SeqCst) {
        // SAFETY: `_exit` is async-signal-safe; nothing is flushed or unwound.
        unsafe { libc::_exit(EXIT_INTERRUPTED) };
    }
    let fd = WAKE.load(Ordering::SeqCst);
    if fd >= 0 {
        let byte = 1u8;
        // SAFETY: `write` is async-signal-safe; a full pipe only loses a wake-up that an
        // earlier byte already gave.
        unsafe { libc::write(fd, (&byte as *const u8).cast(), 1) };
    }
}

/// The watchdog: woken by the first signal, it ends the run [`GRACE`] later if the run is
/// still there (a run that reached its consistent point has exited by then).
fn start_watchdog() {
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `pipe2` writes two descriptors into the array it is given.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return;
    }
    let [read_end, write_end] = fds;
    let spawned = std::thread::Builder::new()
        .name("signal-watchdog".into())
        .spawn(move || {
            let mut byte = 0u8;
            loop {
                // SAFETY: reads one byte into a local buffer from the pipe this thread owns.
                let n = unsafe { libc::read(read_end, (&mut byte as *mut u8).cast(), 1) };
                if n == 1 {
                    break;
                }
                if n == 0 {
                    return;
                }
            }
            std::thread::sleep(GRACE);
            if CHILD_HOLDS_RUN.load(Ordering::SeqCst) {
                return;
            }
            let msg = b"openclaw-sessions: interrupted while blocked; stopped at once (every write is a transaction or a rename; the lock left behind is reclaimed by the next run)\n";
            // SAFETY: `write` to stderr and `_exit`, without the locks the blocked thread may hold.
            unsafe {
                libc::write(2, msg.as_ptr().cast(), msg.len());
                libc::_exit(EXIT_INTERRUPTED);
            }
        });
    if spawned.is_ok() {
        WAKE.store(write_end, Ordering::SeqCst);
    }
}

/// Install the handlers (mutating commands only: readers keep the default behaviour and
/// stop at once).
pub fn install() {
    if WAKE.load(Ordering::SeqCst) < 0 {
        start_watchdog();
    }
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
