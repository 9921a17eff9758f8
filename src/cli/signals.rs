//! Ctrl-C and SIGTERM set a flag instead of killing the process: a mutation stops at its next
//! consistent point (between transactions, before the next file publish), releases custody,
//! says what was done and exits 130. A second signal ends the process at once: every write
//! is a transaction or a rename, so the store is consistent at any instant, and the lock
//! left behind names a dead pid, which the next run reclaims (README.md, Exit codes).
//! A run that does not reach such a point within [`GRACE`] of the first signal (blocked in a
//! system call: an `open` or a `read` that SA_RESTART restarts) is ended then, for the same
//! reason (docs/openclaw/HOSTILE.md §9).

use std::io::Read;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;
use std::time::Duration;

use openclaw_sessions::interruption::Interruption;
use signal_hook::consts::{SIGINT, SIGTERM};

/// Set by the first signal; read through [`interruption`].
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// How long after the first signal a run may take to reach its next consistent point.
pub const GRACE: Duration = Duration::from_millis(1500);

/// Set while `custody run` waits for its child: the child is told and stops on its own; the
/// custody it inherits must outlive it, so the parent is never ended early.
static CHILD_HOLDS_RUN: AtomicBool = AtomicBool::new(false);

/// `custody run`: no watchdog while its child runs (see [`CHILD_HOLDS_RUN`]).
pub fn wait_for_child() {
    CHILD_HOLDS_RUN.store(true, Ordering::SeqCst);
}

/// The exit code of an interrupted run (128 + SIGINT, as shells report it).
const EXIT_INTERRUPTED: i32 = 130;

/// The watchdog: woken through `wake` by the first signal, it ends the run [`GRACE`] later
/// if the run is still there (a run that reached its consistent point has exited by then).
fn start_watchdog(mut wake: UnixStream) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("signal-watchdog".into())
        .spawn(move || {
            let mut byte = [0u8];
            loop {
                match wake.read(&mut byte) {
                    Ok(1) => break,
                    Ok(_) => return,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(_) => return,
                }
            }
            std::thread::sleep(GRACE);
            if CHILD_HOLDS_RUN.load(Ordering::SeqCst) {
                return;
            }
            let msg = b"openclaw-sessions: interrupted while blocked; stopped at once (every write is a transaction or a rename; the lock left behind is reclaimed by the next run)\n";
            // Straight to fd 2 and `_exit`, without the locks (stderr's, the allocator's, the
            // atexit list's) that the blocked thread may hold.
            let _ = rustix::io::write(rustix::stdio::stderr(), msg);
            signal_hook::low_level::exit(EXIT_INTERRUPTED);
        })?;
    Ok(())
}

/// Install the handlers (mutating commands only: readers keep the default behaviour and
/// stop at once). Each signal runs, in this order: exit 130 at once if a signal came before
/// (`_exit`: nothing is flushed or unwound), else set [`INTERRUPTED`], then wake the
/// watchdog. The actions are async-signal-safe and the handlers restart interrupted calls
/// (SA_RESTART). Installing twice changes nothing.
pub fn install() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let wake = UnixStream::pair()
            .and_then(|(read_end, write_end)| start_watchdog(read_end).map(|()| write_end));
        for signal in [SIGINT, SIGTERM] {
            // Registration fails only for signals that cannot be caught (SIGKILL, SIGSTOP).
            let _ = signal_hook::flag::register_conditional_shutdown(
                signal,
                EXIT_INTERRUPTED,
                &INTERRUPTED,
            );
            let _ = signal_hook::flag::register(signal, &INTERRUPTED);
            if let Ok(write_end) = &wake {
                if let Ok(write_end) = write_end.try_clone() {
                    let _ = signal_hook::low_level::pipe::register(signal, write_end);
                }
            }
        }
    });
}

/// The flag the handlers set, as the library polls it.
pub fn interruption() -> Interruption {
    Interruption::on(&INTERRUPTED)
}
