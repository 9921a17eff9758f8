//! The duration options' values (README.md, Times and sizes): the one grammar of
//! `units::parse_duration_arg`, and a bare number where an option took one before it took
//! units.

/// `--wait`: `10m`, `90s`, or a bare number of seconds as before; whole seconds, rounded up.
pub fn parse_wait(raw: &str) -> Result<u64, openclaw_sessions::Error> {
    Ok(openclaw_sessions::units::parse_duration_or_count(raw, 1000)?.div_ceil(1000))
}

/// `list --active`: `30m`, `2h`, `7d`, `1w`, or a bare number of minutes as before; in
/// milliseconds.
pub fn parse_active(raw: &str) -> Result<u64, openclaw_sessions::Error> {
    openclaw_sessions::units::parse_duration_or_count(raw, 60_000)
}
