//! Crash points for the fault tests, off unless asked for:
//! `OPENCLAW_SESSIONS_CRASH_AT=<name>` aborts at that point, `OPENCLAW_SESSIONS_CRASH_AFTER=<n>`
//! at the n-th point reached, whatever its name; both as `kill -9` would.

use std::sync::atomic::{AtomicU64, Ordering};

static REACHED: AtomicU64 = AtomicU64::new(0);

pub fn crash_point(name: &str) {
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
