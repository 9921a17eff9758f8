//! Hooks for the test suite: crash points, a fixed clock and small batches. They exist only in
//! builds with the `test-hooks` feature (the test build turns it on through the crate's
//! dev-dependency on itself); a release build neither reads these variables nor can abort.
//!
//! - `OPENCLAW_SESSIONS_CRASH_AT=<name>` aborts at that crash point, as `kill -9` would;
//!   `OPENCLAW_SESSIONS_CRASH_AFTER=<n>` at the n-th point reached, whatever its name.
//! - `OPENCLAW_SESSIONS_SIGNAL_AT=<name>[@n][:TERM|:STOP]` sends the process SIGINT (SIGTERM
//!   with `:TERM`; SIGSTOP with `:STOP`, which holds a run mid-way while a test looks at it)
//!   the n-th time (the first by default) the crash point `<name>` is reached, so a signal
//!   lands at a known moment instead of after a guessed delay.
//! - `OPENCLAW_SESSIONS_BLOCK_AT=<name>=<path>` opens `<path>` (a FIFO) for reading with a
//!   plain blocking `open` and reads it to its end when the crash point `<name>` is reached,
//!   so a run is held in a system call at a known moment (the first signal must still end
//!   it at once).
//! - `OPENCLAW_SESSIONS_TRACE=<path>` appends `<name> <monotonic ns>` to `<path>` at every
//!   crash point reached, before any of the above acts there, so that a test knows after a
//!   fault which points the run had passed (where the fault landed) and how far apart they are.
//! - `OPENCLAW_SESSIONS_NOW_MS=<ms>` fixes the clock of maintenance planning.
//! - `OPENCLAW_SESSIONS_APPLY_BATCH=<n>` makes batched applies (and the batches of messages
//!   `search --archived` indexes at a time, and the windows of import-archive names the
//!   archive walk reads at a time) cross batch boundaries on small fixtures.
//! - `OPENCLAW_SESSIONS_FREE_BYTES=<n>` makes every file system look as if it had `n` bytes
//!   free, so that a refusal for want of space can be tested on a roomy disk.
//! - `OPENCLAW_SESSIONS_SPOIL_SNAPSHOTS=1` damages every safety snapshot right after it is
//!   written, so that its verification fails as on bad storage.
//! - `OPENCLAW_SESSIONS_MAX_ARCHIVE_BYTES=<n>` lowers the most an archive may decode to
//!   (`legacy::MAX_ARCHIVE_BYTES`), so that the cap is reached by a small bomb.
//! - `OPENCLAW_SESSIONS_TERMINAL_WIDTH=<n>` makes the binary's stdout a terminal that reports
//!   a width of n (0: one that reports none), for the table tests.

#[cfg(feature = "test-hooks")]
mod enabled {
    use std::sync::atomic::{AtomicU64, Ordering};

    static REACHED: AtomicU64 = AtomicU64::new(0);
    static SIGNAL_REACHED: AtomicU64 = AtomicU64::new(0);

    /// `OPENCLAW_SESSIONS_SIGNAL_AT`: the point, the how-many-th arrival, the signal.
    fn signal_at() -> Option<(String, u64, libc::c_int)> {
        let spec = std::env::var("OPENCLAW_SESSIONS_SIGNAL_AT").ok()?;
        let (spec, signal) = if let Some(s) = spec.strip_suffix(":TERM") {
            (s, libc::SIGTERM)
        } else if let Some(s) = spec.strip_suffix(":STOP") {
            (s, libc::SIGSTOP)
        } else {
            (spec.as_str(), libc::SIGINT)
        };
        let (point, n) = match spec.split_once('@') {
            Some((p, n)) => (p, n.parse().ok()?),
            None => (spec, 1),
        };
        Some((point.to_string(), n, signal))
    }

    fn signal_point(name: &str) {
        if let Some((point, n, signal)) = signal_at() {
            if point == name && SIGNAL_REACHED.fetch_add(1, Ordering::SeqCst) + 1 == n {
                // raise(3) delivers the signal to this thread; the handler the binary
                // installed (or the default action) runs as for one from outside.
                let _ = signal_hook::low_level::raise(signal);
            }
        }
    }

    /// `OPENCLAW_SESSIONS_TRACE`: one line per point reached, written through at once (a
    /// `kill -9` loses nothing the kernel has).
    fn trace_point(name: &str) {
        if let Some(path) = std::env::var_os("OPENCLAW_SESSIONS_TRACE") {
            use std::io::Write;
            let ts = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
            let ns = ts.tv_sec as i128 * 1_000_000_000 + ts.tv_nsec as i128;
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
            {
                let _ = f.write_all(format!("{name} {ns}\n").as_bytes());
            }
        }
    }

    pub fn crash_point(name: &str) {
        trace_point(name);
        signal_point(name);
        if let Some(spec) = std::env::var_os("OPENCLAW_SESSIONS_BLOCK_AT") {
            let spec = spec.to_string_lossy().into_owned();
            if let Some((point, path)) = spec.split_once('=') {
                if point == name {
                    use std::io::Read;
                    if let Ok(mut f) = std::fs::File::open(path) {
                        let _ = f.read_to_end(&mut Vec::new());
                    }
                }
            }
        }
        if let Some(at) = std::env::var_os("OPENCLAW_SESSIONS_CRASH_AT") {
            if at == name {
                std::process::abort();
            }
        }
        if let Some(n) = std::env::var("OPENCLAW_SESSIONS_CRASH_AFTER")
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
        {
            if REACHED.fetch_add(1, Ordering::SeqCst) + 1 == n {
                std::process::abort();
            }
        }
    }

    pub fn fixed_now_ms() -> Option<i64> {
        std::env::var("OPENCLAW_SESSIONS_NOW_MS")
            .ok()
            .and_then(|v| v.parse().ok())
    }

    pub fn apply_batch() -> Option<usize> {
        std::env::var("OPENCLAW_SESSIONS_APPLY_BATCH")
            .ok()
            .and_then(|v| v.parse().ok())
            .filter(|n| *n > 0)
    }

    pub fn free_bytes() -> Option<u64> {
        std::env::var("OPENCLAW_SESSIONS_FREE_BYTES")
            .ok()
            .and_then(|v| v.parse().ok())
    }

    pub fn max_archive_bytes() -> Option<u64> {
        std::env::var("OPENCLAW_SESSIONS_MAX_ARCHIVE_BYTES")
            .ok()
            .and_then(|v| v.parse().ok())
    }

    pub fn terminal_width() -> Option<u16> {
        std::env::var("OPENCLAW_SESSIONS_TERMINAL_WIDTH")
            .ok()
            .and_then(|v| v.parse().ok())
    }

    pub fn spoil_snapshot(dir: &std::path::Path) {
        if std::env::var_os("OPENCLAW_SESSIONS_SPOIL_SNAPSHOTS").is_some() {
            use std::io::{Seek, SeekFrom, Write};
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .write(true)
                .open(dir.join("database.sqlite"))
            {
                let _ = f.seek(SeekFrom::Start(100));
                let _ = f.write_all(b"spoiled by the test hook");
            }
        }
    }
}

#[cfg(not(feature = "test-hooks"))]
mod enabled {
    #[inline(always)]
    pub fn crash_point(_name: &str) {}

    #[inline(always)]
    pub fn fixed_now_ms() -> Option<i64> {
        None
    }

    #[inline(always)]
    pub fn apply_batch() -> Option<usize> {
        None
    }

    #[inline(always)]
    pub fn free_bytes() -> Option<u64> {
        None
    }

    #[inline(always)]
    pub fn spoil_snapshot(_dir: &std::path::Path) {}

    #[inline(always)]
    pub fn terminal_width() -> Option<u16> {
        None
    }

    #[inline(always)]
    pub fn max_archive_bytes() -> Option<u64> {
        None
    }
}

pub use enabled::{
    apply_batch, crash_point, free_bytes, max_archive_bytes, spoil_snapshot, terminal_width,
};

/// Now, or the clock the tests fixed.
pub fn now_ms() -> i64 {
    enabled::fixed_now_ms().unwrap_or_else(crate::units::now_ms)
}

/// Whether this build has the hooks (for tests that need them).
pub const ENABLED: bool = cfg!(feature = "test-hooks");
