//! `session.maintenance` as OpenClaw resolves it (docs/openclaw/MAINTENANCE.md §1).

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::paths::MaintenanceConfig;

/// `session.maintenance`, resolved as OpenClaw resolves it, with command-line overrides.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MaintenanceSettings {
    /// `enforce` or `warn` (warn plans and reports, applies nothing).
    pub mode: String,
    pub prune_after_ms: Option<i64>,
    pub archive_dashboard_after_ms: Option<i64>,
    pub max_entries: i64,
    pub preserve_recent_ms: Option<i64>,
    pub reset_archive_retention_ms: Option<i64>,
    pub max_disk_bytes: Option<u64>,
    pub high_water_bytes: Option<u64>,
    /// Whether the disk budget was given on the command line (`--max-disk-bytes`): only then
    /// is a budget below the schema's own size refused; one from the config is acted on as
    /// OpenClaw's cleanup acts on it (removing what it can), so a nightly run keeps working.
    #[serde(skip)]
    pub max_disk_bytes_given: bool,
}

/// OpenClaw's duration syntax: `30d`, `1d20h`, `90m`, `500ms`, a bare number in days; no `w`.
pub fn parse_openclaw_duration(raw: &str) -> Option<i64> {
    let s = raw.trim().to_ascii_lowercase();
    if s.is_empty() {
        return None;
    }
    let unit_ms = |u: &str| match u {
        "ms" => Some(1.0),
        "s" => Some(1e3),
        "m" => Some(6e4),
        "h" => Some(36e5),
        "d" | "" => Some(864e5),
        _ => None,
    };
    let bytes = s.as_bytes();
    let (mut i, mut total, mut segments) = (0usize, 0f64, 0);
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
            i += 1;
        }
        let num: f64 = s[start..i].parse().ok()?;
        let ustart = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            i += 1;
        }
        let unit = &s[ustart..i];
        if unit.is_empty() && (segments > 0 || i < bytes.len()) {
            return None;
        }
        total += num * unit_ms(unit)?;
        segments += 1;
    }
    let ms = total.round();
    (ms.is_finite() && ms <= 9_007_199_254_740_991.0).then_some(ms as i64)
}

fn string_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.trim().to_string()).filter(|s| !s.is_empty()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

impl MaintenanceSettings {
    pub fn resolve(cfg: &MaintenanceConfig) -> Result<Self> {
        let get = |k: &str| cfg.raw.get(k).filter(|v| !v.is_null());
        let invalid = |k: &str, v: &Value| {
            Error::bad_input(
                format!("session.maintenance.{k} is invalid: {v}"),
                Some("fix the config (durations use ms, s, m, h, d)".to_string()),
            )
        };
        let duration = |k: &str, default: Option<i64>, allow_false: bool| -> Result<Option<i64>> {
            match get(k) {
                None => Ok(default),
                Some(Value::Bool(false)) if allow_false => Ok(None),
                Some(Value::Number(n)) if allow_false && n.as_f64() == Some(0.0) => Ok(None),
                Some(v) => match string_of(v).and_then(|s| parse_openclaw_duration(&s)) {
                    Some(ms) if ms > 0 => Ok(Some(ms)),
                    _ => Err(invalid(k, v)),
                },
            }
        };
        let mode = match get("mode").and_then(Value::as_str) {
            None | Some("enforce") => "enforce".to_string(),
            Some("warn") => "warn".to_string(),
            Some(other) => return Err(invalid("mode", &Value::from(other))),
        };
        let max_entries = match get("maxEntries") {
            None => 5000,
            Some(v) => v
                .as_i64()
                .filter(|n| *n > 0)
                .ok_or_else(|| invalid("maxEntries", v))?,
        };
        Ok(MaintenanceSettings {
            mode,
            prune_after_ms: duration("pruneAfter", Some(30 * 86_400_000), false)?,
            archive_dashboard_after_ms: duration(
                "archiveDashboardAfter",
                Some(7 * 86_400_000),
                true,
            )?,
            max_entries,
            preserve_recent_ms: duration("preserveRecent", None, true)?,
            reset_archive_retention_ms: duration("resetArchiveRetention", None, true)?,
            max_disk_bytes: cfg.max_disk_bytes(),
            high_water_bytes: cfg
                .high_water_bytes()
                .map(|h| h.min(cfg.max_disk_bytes().unwrap_or(u64::MAX)).max(1)),
            max_disk_bytes_given: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_as_openclaw_parses_them() {
        assert_eq!(parse_openclaw_duration("30d"), Some(30 * 86_400_000));
        assert_eq!(parse_openclaw_duration("1d20h"), Some(44 * 3_600_000));
        assert_eq!(parse_openclaw_duration("1.5"), Some(129_600_000));
        assert_eq!(parse_openclaw_duration("175H"), Some(175 * 3_600_000));
        assert_eq!(parse_openclaw_duration("1w"), None);
        assert_eq!(parse_openclaw_duration("1h 30m"), None);
        assert_eq!(parse_openclaw_duration(""), None);
    }
}
