//! Named crash points for the fault tests: with `OPENCLAW_SESSIONS_CRASH_AT=<name>` the
//! process aborts there, as `kill -9` would. Off unless the variable is set.

pub fn crash_point(name: &str) {
    if let Some(at) = std::env::var_os("OPENCLAW_SESSIONS_CRASH_AT") {
        if at == name {
            std::process::abort();
        }
    }
}
