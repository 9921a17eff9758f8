//! `prune`: OpenClaw's session store maintenance (OPERATIONS.md §3, `planSessionEntryMaintenance`
//! as `openclaw sessions cleanup` forces it), planned read-only and applied through the same
//! entry writer and deletion as `archive`/`delete`.

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, Result};
use crate::paths::MaintenanceConfig;
use crate::store::SessionEntry;

pub const MODEL_RUN_PRUNE_AFTER_MS: i64 = 86_400_000;

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
        })
    }
}

/// `agent:<id>:<rest>` split as `parseAgentSessionKey` does (lower-cased).
fn rest_of(key: &str) -> Option<(String, String)> {
    let k = key.trim().to_lowercase();
    let after = k.strip_prefix("agent:")?;
    let (id, rest) = after.split_once(':')?;
    let id = id.trim();
    if id.is_empty() || rest.is_empty() || rest.starts_with(':') {
        return None;
    }
    Some((id.to_string(), rest.to_string()))
}

fn is_model_run_key(key: &str) -> bool {
    let Some((_, rest)) = rest_of(key) else {
        return false;
    };
    let Some(uuid) = rest.strip_prefix("explicit:model-run-") else {
        return false;
    };
    let groups: Vec<&str> = uuid.split('-').collect();
    groups.len() == 5
        && [8, 4, 4, 4, 12]
            .iter()
            .zip(&groups)
            .all(|(n, g)| g.len() == *n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// `isSyntheticSessionMaintenanceKey`: machine-made sessions are removed, not archived.
pub fn is_synthetic_key(key: &str) -> bool {
    let lower = key.trim().to_lowercase();
    let parsed = rest_of(key).map(|(_, r)| r);
    let rest = parsed.clone().unwrap_or_else(|| lower.clone());
    is_model_run_key(key)
        || lower.starts_with("subagent:")
        || lower.starts_with("acp:")
        || parsed.as_deref().is_some_and(|r| {
            r.starts_with("subagent:") || r.starts_with("acp:") || r.starts_with("cron:")
        })
        || rest.starts_with("acp-bridge:")
        || rest.starts_with("hook:")
        || rest.starts_with("node:")
        || rest == "heartbeat"
        || rest.ends_with(":heartbeat")
        || rest.contains(":heartbeat:")
}

/// `getSessionMaintenanceActivityAt`.
pub fn activity_at(e: &SessionEntry) -> i64 {
    [
        "lastInteractionAt",
        "lastActivityAt",
        "sessionStartedAt",
        "updatedAt",
    ]
    .iter()
    .filter_map(|f| e.num(f))
    .max()
    .unwrap_or(0)
    .max(0)
}

fn is_pinnable(key: &str, e: &SessionEntry) -> bool {
    let lower = key.trim().to_lowercase();
    if lower.starts_with("subagent:")
        || rest_of(key).is_some_and(|(_, r)| r.starts_with("subagent:"))
        || e.text("spawnedBy").is_some()
    {
        return false;
    }
    match e.text("parentSessionKey") {
        None => true,
        Some(parent) => rest_of(key).is_some_and(|(id, _)| parent == format!("agent:{id}:main")),
    }
}

/// `parseSessionDeliveryRoute` is non-null for `<channel>:<kind>:<peer>` and
/// `<channel>:<account>:direct|dm:<peer>` keys (thread suffix stripped).
fn is_routable(rest: &str) -> bool {
    let base = match rest.rfind(":thread:") {
        Some(i) => &rest[..i],
        None => rest,
    };
    let parts: Vec<&str> = base.split(':').collect();
    let routed = parts.len() >= 3
        && parts[0] != "agent"
        && !parts[0].trim().is_empty()
        && if parts.len() >= 4 && matches!(parts[2], "direct" | "dm") {
            !parts[1].trim().is_empty() && !parts[3].trim().is_empty()
        } else {
            matches!(parts[1], "channel" | "direct" | "dm" | "group") && !parts[2].trim().is_empty()
        };
    let telegram_topic = rest.starts_with("telegram:") && {
        let p: Vec<&str> = rest.split(':').collect();
        p.len() >= 5
            && matches!(p[1], "direct" | "dm")
            && p[p.len() - 2] == "topic"
            && !p[p.len() - 1].is_empty()
    };
    routed
        || (rest.starts_with("direct:") && rest.len() > 7)
        || rest.split_once(':').is_some_and(|(_, r)| {
            (r.starts_with("group:") && r.len() > 6) || (r.starts_with("channel:") && r.len() > 8)
        })
        || telegram_topic
}

fn is_protected(key: &str, e: &SessionEntry) -> bool {
    if is_synthetic_key(key) {
        return false;
    }
    let lower = key.trim().to_lowercase();
    let rest = rest_of(key).map(|(_, r)| r);
    let external = e
        .fields
        .get("delivery")
        .and_then(|d| d.get("kind"))
        .and_then(Value::as_str)
        == Some("external");
    let thread = lower
        .rfind(":thread:")
        .is_some_and(|i| !lower[i + 8..].trim().is_empty());
    let chat = e.text("chatType").map(str::to_lowercase).or_else(|| {
        external
            .then(|| {
                e.fields
                    .get("delivery")?
                    .get("origin")?
                    .get("chatType")?
                    .as_str()
                    .map(|s| s.trim().to_lowercase())
            })
            .flatten()
    });
    lower == "global"
        || rest.as_deref() == Some("main")
        || thread
        || external
        || is_routable(rest.as_deref().unwrap_or(&lower))
        || matches!(chat.as_deref(), Some("group" | "channel" | "thread"))
}

/// `shouldPreserveMaintenanceEntry` for an unarchived row.
fn preserved(
    key: &str,
    e: &SessionEntry,
    settings: &MaintenanceSettings,
    now: i64,
    active_key: Option<&str>,
) -> bool {
    let recent = settings.preserve_recent_ms.is_some_and(|window| {
        let a = activity_at(e);
        !is_synthetic_key(key) && a > 0 && now - a <= window
    });
    (e.fields.contains_key("pinnedAt") && is_pinnable(key, e))
        || e.locked()
        || e.text("status") == Some("running")
        || active_key == Some(key)
        || recent
        || is_protected(key, e)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PruneAction {
    /// Removed (deleted with its transcript archived).
    PruneModelRun,
    ArchiveDashboard,
    ArchiveAge,
    PruneStale,
    ArchiveCap,
    PruneCap,
}

impl PruneAction {
    pub fn archive_reason(self) -> Option<&'static str> {
        match self {
            PruneAction::ArchiveDashboard => Some("stale-dashboard"),
            PruneAction::ArchiveAge => Some("age-retention"),
            PruneAction::ArchiveCap => Some("active-session-cap"),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PruneItem {
    pub session_key: String,
    pub action: PruneAction,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PruneCounts {
    pub before_count: usize,
    pub after_count: usize,
    pub model_run_pruned: usize,
    pub archived: usize,
    pub cap_archived: usize,
    pub pruned: usize,
    pub capped: usize,
}

/// Every entry field [`PlannerRow::new`] reads: the rest of an entry need not be parsed
/// (see [`SessionEntry::parse_fields`]).
pub const PLANNER_FIELDS: &[&str] = &[
    "sessionId",
    "updatedAt",
    "archivedAt",
    "lastInteractionAt",
    "lastActivityAt",
    "sessionStartedAt",
    "spawnedBy",
    "parentSessionKey",
    "pinnedAt",
    "modelSelectionLocked",
    "status",
    "chatType",
    "delivery",
];

/// What the planner needs of one session, reduced as the session is read: the key and a few
/// words. Planning must see the whole store (the cap orders every session), so this is what
/// memory follows: about 100 bytes a session, where a kept entry took about 600.
#[derive(Debug, Clone)]
pub struct PlannerRow {
    pub key: Box<str>,
    updated_at: i64,
    activity_at: i64,
    archived: bool,
    /// `shouldPreserveMaintenanceEntry`, decided once (it reads only this row).
    preserved: bool,
    synthetic: bool,
    model_run: bool,
    dashboard: bool,
}

impl PlannerRow {
    /// `None` for OpenClaw's internal effect rows, which maintenance never counts.
    pub fn new(
        e: &SessionEntry,
        settings: &MaintenanceSettings,
        now: i64,
        active_key: Option<&str>,
    ) -> Option<Self> {
        let rest = rest_of(&e.key).map(|(_, r)| r);
        if rest
            .as_deref()
            .is_some_and(|r| r.starts_with("internal-session-effects:"))
        {
            return None;
        }
        Some(PlannerRow {
            key: e.key.as_str().into(),
            updated_at: e.updated_at(),
            activity_at: activity_at(e),
            archived: e.fields.contains_key("archivedAt"),
            preserved: preserved(&e.key, e, settings, now, active_key),
            synthetic: is_synthetic_key(&e.key),
            model_run: is_model_run_key(&e.key),
            dashboard: rest.as_deref().is_some_and(|r| r.starts_with("dashboard:")),
        })
    }
}

/// The plan, in application order (model-run, dashboard, age, cap). Sorts `rows` by key.
pub fn plan_prune(
    rows: &mut [PlannerRow],
    settings: &MaintenanceSettings,
    now: i64,
) -> (Vec<PruneItem>, PruneCounts) {
    rows.sort_unstable_by(|a, b| a.key.cmp(&b.key));
    let rows = &*rows;
    let mut counts = PruneCounts {
        before_count: rows.len(),
        ..Default::default()
    };
    // State of the preview: archived, removed.
    let mut archived: Vec<bool> = rows.iter().map(|r| r.archived).collect();
    let mut removed = vec![false; rows.len()];
    let mut items = Vec::new();
    let item = |i: usize, action| PruneItem {
        session_key: rows[i].key.to_string(),
        action,
    };
    let keep = |i: usize, archived: &[bool], removed: &[bool]| {
        archived[i] || removed[i] || rows[i].preserved
    };
    // 1. Model-run probes (cleanup is forced: only when over maxEntries).
    let unarchived = rows.iter().filter(|r| !r.archived).count();
    if unarchived as i64 > settings.max_entries {
        for i in 0..rows.len() {
            if !keep(i, &archived, &removed)
                && rows[i].model_run
                && rows[i].updated_at < now - MODEL_RUN_PRUNE_AFTER_MS
            {
                removed[i] = true;
                counts.model_run_pruned += 1;
                items.push(item(i, PruneAction::PruneModelRun));
            }
        }
    }
    // 2. Stale dashboards, by activity.
    if let Some(after) = settings.archive_dashboard_after_ms {
        for i in 0..rows.len() {
            let a = rows[i].activity_at;
            if rows[i].dashboard && !keep(i, &archived, &removed) && a > 0 && a < now - after {
                archived[i] = true;
                counts.archived += 1;
                items.push(item(i, PruneAction::ArchiveDashboard));
            }
        }
    }
    // 3. Age, by updatedAt: machine-made sessions are removed, the rest archived.
    if let Some(after) = settings.prune_after_ms {
        for i in 0..rows.len() {
            if !keep(i, &archived, &removed) && rows[i].updated_at < now - after {
                if rows[i].synthetic {
                    removed[i] = true;
                    counts.pruned += 1;
                    items.push(item(i, PruneAction::PruneStale));
                } else {
                    archived[i] = true;
                    counts.archived += 1;
                    items.push(item(i, PruneAction::ArchiveAge));
                }
            }
        }
    }
    // 4. Cap: oldest activity first, ties to the larger key.
    let live = (0..rows.len())
        .filter(|i| !archived[*i] && !removed[*i])
        .count();
    let overflow = live as i64 - settings.max_entries.max(0);
    if overflow > 0 {
        let mut eligible: Vec<usize> = (0..rows.len())
            .filter(|i| !archived[*i] && !removed[*i] && !rows[*i].preserved)
            .collect();
        eligible.reverse();
        eligible.sort_by_key(|i| rows[*i].activity_at);
        for i in eligible.into_iter().take(overflow as usize) {
            counts.capped += 1;
            if rows[i].synthetic {
                removed[i] = true;
                items.push(item(i, PruneAction::PruneCap));
            } else {
                archived[i] = true;
                counts.cap_archived += 1;
                items.push(item(i, PruneAction::ArchiveCap));
            }
        }
    }
    counts.after_count = rows.len() - removed.iter().filter(|r| **r).count();
    (items, counts)
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

    #[test]
    fn planner_rows_leave_out_internal_effects_and_decide_preservation_once() {
        let settings = MaintenanceSettings::resolve(&MaintenanceConfig::default()).unwrap();
        let row = |k: &str, json: &str| {
            PlannerRow::new(
                &SessionEntry::parse(k, json).unwrap(),
                &settings,
                10,
                Some("agent:r:x"),
            )
        };
        assert!(row(
            "agent:r:internal-session-effects:a",
            r#"{"sessionId":"s","updatedAt":1}"#
        )
        .is_none());
        let pinned = row(
            "agent:r:explicit:p",
            r#"{"sessionId":"s","updatedAt":1,"pinnedAt":2}"#,
        )
        .unwrap();
        assert!(pinned.preserved && !pinned.synthetic);
        let active = row("agent:r:x", r#"{"sessionId":"s","updatedAt":1}"#).unwrap();
        assert!(active.preserved);
        let probe = row(
            "agent:r:explicit:model-run-11111111-2222-4333-8444-555555555555",
            r#"{"sessionId":"s","updatedAt":3,"lastInteractionAt":7}"#,
        )
        .unwrap();
        assert!(probe.model_run && probe.synthetic && !probe.preserved);
        assert_eq!((probe.updated_at, probe.activity_at), (3, 7));
    }

    #[test]
    fn synthetic_and_protected_keys() {
        for k in [
            "agent:r:acp:x",
            "agent:r:cron:a:run:1",
            "agent:r:subagent:x",
            "agent:r:hook:x",
            "agent:r:heartbeat",
            "agent:r:explicit:model-run-11111111-2222-4333-8444-555555555555",
        ] {
            assert!(is_synthetic_key(k), "{k}");
        }
        for k in [
            "agent:r:explicit:cli",
            "agent:r:dashboard:x",
            "agent:r:main",
        ] {
            assert!(!is_synthetic_key(k), "{k}");
        }
        let e = |k: &str| SessionEntry::parse(k, "{\"sessionId\":\"s\",\"updatedAt\":1}").unwrap();
        for k in [
            "agent:r:main",
            "agent:r:telegram:direct:1",
            "agent:r:discord:channel:1",
            "agent:r:direct:bob",
            "agent:r:slack:direct:u:thread:1.2",
        ] {
            assert!(is_protected(k, &e(k)), "{k}");
        }
        assert!(!is_protected(
            "agent:r:explicit:cli",
            &e("agent:r:explicit:cli")
        ));
    }
}

/// What `--artifacts` would remove from `sessions/`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArtifactRemoval {
    pub path: std::path::PathBuf,
    pub bytes: u64,
    pub why: &'static str,
    /// The archive row that names this file, removed with it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive_row: Option<String>,
}

/// Unreferenced transcripts, trajectories and checkpoints older than `pruneAfter`, temp files
/// older than 5 minutes (OpenClaw's `pruneUnreferencedSessionArtifacts`), and archive files
/// (`.deleted`/`.reset`/`.bak`) older than `resetArchiveRetention` when one is set.
pub fn plan_artifacts(
    sessions_dir: &std::path::Path,
    kept_session_ids: &std::collections::HashSet<String>,
    archive_rows: &std::collections::HashSet<String>,
    settings: &MaintenanceSettings,
    now: i64,
) -> Vec<ArtifactRemoval> {
    use crate::legacy::{classify_session_file, SessionFile};
    let mut out = Vec::new();
    let Ok(rd) = std::fs::read_dir(sessions_dir) else {
        return out;
    };
    for ent in rd.flatten() {
        let Ok(meta) = ent.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let name = ent.file_name().to_string_lossy().into_owned();
        let mtime = meta
            .modified()
            .ok()
            .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_millis() as i64)
            .unwrap_or(now);
        let old = |ms: Option<i64>| ms.is_some_and(|ms| mtime <= now - ms);
        let stem_id = name.split('.').next().unwrap_or("").to_string();
        let (why, archive_row) = match classify_session_file(&name) {
            SessionFile::Temporary if mtime <= now - 300_000 => {
                ("temporary file of an interrupted write", None)
            }
            SessionFile::Transcript { session_id }
                if !kept_session_ids.contains(&session_id) && old(settings.prune_after_ms) =>
            {
                ("transcript no session refers to", None)
            }
            SessionFile::Auxiliary
                if !kept_session_ids.contains(&stem_id)
                    && old(settings.prune_after_ms)
                    && (name.ends_with(".jsonl") || name.ends_with(".trajectory-path.json")) =>
            {
                ("trajectory or checkpoint no session refers to", None)
            }
            SessionFile::Archive { stamp, .. } => {
                let at = crate::units::parse_iso_ms(&stamp).unwrap_or(mtime);
                match settings.reset_archive_retention_ms {
                    Some(ms) if at <= now - ms => (
                        "archive past its retention",
                        archive_rows.contains(&name).then(|| name.clone()),
                    ),
                    _ => continue,
                }
            }
            _ => continue,
        };
        out.push(ArtifactRemoval {
            path: ent.path(),
            bytes: meta.len(),
            why,
            archive_row,
        });
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}
