//! What OpenClaw's maintenance decides from one session alone: which keys are machine-made,
//! protected or preserved, and when a session was last active.

use serde_json::Value;

use super::{MaintenanceSettings, PruneAction};
use crate::store::SessionEntry;

/// `agent:<id>:<rest>` split as `parseAgentSessionKey` does (lower-cased).
pub(super) fn rest_of(key: &str) -> Option<(String, String)> {
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
fn is_synthetic_key(key: &str) -> bool {
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

/// `isMainScopeStaleDirectSessionKey` (`--fix-dm-scope`, only when `session.dmScope` is
/// `main`): a direct-message key of the target agent, as made before DMs shared the main
/// session: `direct:X`, `CH:direct:X` or `CH:ACCOUNT:direct:X` (docs/openclaw/MAINTENANCE.md §3.2).
pub fn is_main_scope_direct_key(key: &str, agent_id: &str, active_key: Option<&str>) -> bool {
    if active_key == Some(key) {
        return false;
    }
    let Some((id, rest)) = rest_of(key) else {
        return false;
    };
    if id != agent_id.trim().to_lowercase() {
        return false;
    }
    let parts: Vec<&str> = rest.split(':').collect();
    let set = |p: &str| !p.is_empty();
    if parts[0] == "agent" {
        return false;
    }
    match parts.as_slice() {
        ["direct", x] => set(x),
        [ch, "direct", x] => set(ch) && set(x),
        [ch, acct, "direct", x] => set(ch) && set(acct) && set(x),
        _ => false,
    }
}

/// `getSessionMaintenanceActivityAt`.
fn activity_at(e: &SessionEntry) -> i64 {
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

/// Whose maintenance a plan follows: the release that owns the store (docs/openclaw/RELEASES.md
/// §7). 2026.9.3 to 2026.9.6 share one set of rules; 2026.8.x's, 2026.9.1's and 2026.9.2's
/// differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PruneRules {
    /// 2026.9.5's and 2026.9.6's (age archive, the cap archives by activity).
    #[default]
    Current,
    /// 2026.8.2's: every stale entry removed, dashboards archived without a reason, the cap
    /// removes the oldest `updatedAt`, its own protection rules; the store read in key order.
    OpenClaw2026_8,
    /// 2026.9.1's: 2026.8.2's rules, but the stale entries read oldest first (as 2026.9.5
    /// reads its age candidates) and the cap's victims read by `updatedAt`, then key.
    OpenClaw2026_9_1,
    /// 2026.9.2's: 2026.8.2's preservation and age (every stale entry removed), dashboards
    /// archived with their reason, and 2026.9.5's cap (unarchived entries, archived by
    /// activity; machine-made ones removed).
    OpenClaw2026_9_2,
}

impl PruneRules {
    /// Whether the release preserves and protects entries as 2026.8.2 does.
    fn preserves_as_2026_8(self) -> bool {
        !matches!(self, PruneRules::Current)
    }

    /// The rules of the cleanup of `release` (a release table row's `prune_rules_of`).
    pub fn of_release(release: &str) -> Option<PruneRules> {
        [
            PruneRules::Current,
            PruneRules::OpenClaw2026_8,
            PruneRules::OpenClaw2026_9_1,
            PruneRules::OpenClaw2026_9_2,
        ]
        .into_iter()
        .find(|r| r.release() == release)
    }

    /// The release whose cleanup these rules are, for the plan's words.
    pub fn release(self) -> &'static str {
        match self {
            PruneRules::Current => "2026.9.5",
            PruneRules::OpenClaw2026_8 => "2026.8.2",
            PruneRules::OpenClaw2026_9_1 => "2026.9.1",
            PruneRules::OpenClaw2026_9_2 => "2026.9.2",
        }
    }
}

/// 2026.8.2's `isProtectedExternalConversationSessionKey`: `<channel>:group|channel:<id>`, or
/// a Telegram direct-message topic.
fn is_external_conversation_2026_8(rest: &str) -> bool {
    let conversation = rest.split_once(':').is_some_and(|(ch, r)| {
        !ch.is_empty()
            && ["group:", "channel:"]
                .iter()
                .any(|p| r.strip_prefix(p).is_some_and(|id| !id.is_empty()))
    });
    let topic = ["telegram:direct:", "telegram:dm:"].iter().any(|p| {
        rest.strip_prefix(p).is_some_and(|r| {
            r.rfind(":topic:")
                .is_some_and(|i| i > 0 && !r[i + 7..].is_empty() && !r[i + 7..].contains(':'))
        })
    });
    conversation || topic
}

/// 2026.8.2's `isProtectedSessionMaintenanceEntry`: no delivery kind, no bare routes.
fn is_protected_2026_8(key: &str, e: &SessionEntry) -> bool {
    if is_synthetic_key(key) {
        return false;
    }
    let lower = key.trim().to_lowercase();
    let rest = rest_of(key).map(|(_, r)| r);
    let thread = lower
        .rfind(":thread:")
        .is_some_and(|i| !lower[i + 8..].trim().is_empty());
    // `entry.chatType ?? sessionDeliveryOrigin(entry)?.chatType`.
    let delivery = e.fields.get("delivery");
    let origin_chat = delivery
        .filter(|d| d.get("kind").and_then(Value::as_str) == Some("external"))
        .and_then(|d| d.get("origin")?.get("chatType")?.as_str());
    let chat = e
        .fields
        .get("chatType")
        .and_then(Value::as_str)
        .or(origin_chat)
        .map(|c| c.trim().to_lowercase());
    lower == "global"
        || rest.as_deref() == Some("main")
        || thread
        || is_external_conversation_2026_8(rest.as_deref().unwrap_or(&lower))
        || matches!(chat.as_deref(), Some("group" | "channel" | "thread"))
}

/// 2026.8.2's `shouldPreserveMaintenanceEntry` for an unarchived row: any `pinnedAt` counts.
fn preserved_2026_8(
    key: &str,
    e: &SessionEntry,
    settings: &MaintenanceSettings,
    now: i64,
    active_key: Option<&str>,
) -> bool {
    e.fields.contains_key("pinnedAt")
        || e.locked()
        || active_key == Some(key)
        || is_recent(key, e, settings, now)
        || is_protected_2026_8(key, e)
}

/// `isRecentSessionMaintenanceEntry`: active within `preserveRecent` (never a machine-made key).
fn is_recent(key: &str, e: &SessionEntry, settings: &MaintenanceSettings, now: i64) -> bool {
    settings.preserve_recent_ms.is_some_and(|window| {
        let a = activity_at(e);
        !is_synthetic_key(key) && a > 0 && now - a <= window
    })
}

/// `shouldPreserveMaintenanceEntry` for an unarchived row.
fn preserved(
    key: &str,
    e: &SessionEntry,
    settings: &MaintenanceSettings,
    now: i64,
    active_key: Option<&str>,
) -> bool {
    let recent = is_recent(key, e, settings, now);
    (e.fields.contains_key("pinnedAt") && is_pinnable(key, e))
        || e.locked()
        || e.text("status") == Some("running")
        || active_key == Some(key)
        || recent
        || is_protected(key, e)
}

/// Every entry field [`PlannerRow::new`] reads: the rest of an entry need not be parsed
/// (see [`SessionEntry::parse_fields`]).
pub const PLANNER_FIELDS: &[&str] = &[
    "sessionId",
    "updatedAt",
    "archivedAt",
    "archiveReason",
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
#[derive(Debug, Clone, Default)]
pub struct PlannerRow {
    pub key: Box<str>,
    pub(super) updated_at: i64,
    pub(super) activity_at: i64,
    pub(super) archived: bool,
    /// `shouldPreserveMaintenanceEntry`, decided once (it reads only this row).
    pub(super) preserved: bool,
    pub(super) synthetic: bool,
    pub(super) model_run: bool,
    pub(super) dashboard: bool,
    /// Removed before planning by `--fix-missing` or `--fix-dm-scope`.
    pub(super) fix: Option<PruneAction>,
    /// For the disk budget (docs/openclaw/MAINTENANCE.md §3.3 4): `archivedAt` as a number,
    /// archived by the cap, pinned, active within `preserveRecent`, and preserved by a rule
    /// other than `--active-key` (`shouldPreserveNonArchivedMaintenanceEntry` without keys).
    pub(super) archived_at: Option<i64>,
    pub(super) cap_archived: bool,
    pub(super) pinned: bool,
    pub(super) recent: bool,
    pub(super) budget_kept: bool,
}

impl PlannerRow {
    /// `None` for OpenClaw's internal effect rows, which maintenance never counts.
    pub fn new(
        e: &SessionEntry,
        settings: &MaintenanceSettings,
        now: i64,
        active_key: Option<&str>,
        rules: PruneRules,
    ) -> Option<Self> {
        let rest = rest_of(&e.key).map(|(_, r)| r);
        if rest
            .as_deref()
            .is_some_and(|r| r.starts_with("internal-session-effects:"))
        {
            return None;
        }
        let dashboard = rest.as_deref().is_some_and(|r| r.starts_with("dashboard:"));
        let (kept, dashboard, budget_kept) = if rules.preserves_as_2026_8() {
            // 2026.8.2's `archiveStaleDashboardEntries` (also 2026.9.1's and 2026.9.2's) skips
            // a pinned or active dashboard only, whatever else would preserve it.
            (
                preserved_2026_8(&e.key, e, settings, now, active_key),
                dashboard
                    && !e.fields.contains_key("pinnedAt")
                    && active_key != Some(e.key.as_str()),
                // The budgets of 2026.8.2 and 2026.9.1 never delete an archived session; from
                // 2026.9.2 one archived by the cap that no rule preserves (its
                // `isSessionEntryDiskBudgetEvictable`).
                rules != PruneRules::OpenClaw2026_9_2
                    || preserved_2026_8(&e.key, e, settings, now, None),
            )
        } else {
            (
                preserved(&e.key, e, settings, now, active_key),
                dashboard,
                preserved(&e.key, e, settings, now, None),
            )
        };
        Some(PlannerRow {
            key: e.key.as_str().into(),
            updated_at: e.updated_at(),
            activity_at: activity_at(e),
            archived: e.fields.contains_key("archivedAt"),
            preserved: kept,
            synthetic: is_synthetic_key(&e.key),
            model_run: is_model_run_key(&e.key),
            dashboard,
            fix: None,
            archived_at: e
                .fields
                .get("archivedAt")
                .and_then(Value::as_f64)
                .map(|v| v as i64),
            cap_archived: e.text("archiveReason") == Some("active-session-cap"),
            pinned: e.fields.get("pinnedAt").and_then(Value::as_f64).is_some(),
            recent: is_recent(&e.key, e, settings, now),
            budget_kept,
        })
    }

    /// Remove this row before planning (`PruneMissing` or `RetireDmScope`).
    pub fn remove_first(&mut self, action: PruneAction) {
        self.fix = Some(action);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::MaintenanceConfig;

    #[test]
    fn planner_rows_leave_out_internal_effects_and_decide_preservation_once() {
        let settings = MaintenanceSettings::resolve(&MaintenanceConfig::default()).unwrap();
        let row = |k: &str, json: &str| {
            PlannerRow::new(
                &SessionEntry::parse(k, json).unwrap(),
                &settings,
                10,
                Some("agent:r:x"),
                PruneRules::Current,
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

    #[test]
    fn main_scope_direct_keys() {
        for k in [
            "agent:r:direct:bob",
            "agent:R:telegram:direct:1",
            "agent:r:slack:acct:direct:u1",
        ] {
            assert!(is_main_scope_direct_key(k, "r", None), "{k}");
        }
        for k in [
            "agent:r:direct:",
            "agent:x:direct:bob",
            "agent:r:telegram:group:1",
            "agent:r:slack:direct:u:thread:1.2",
            "agent:r:agent:direct:x",
            "agent:r:main",
        ] {
            assert!(!is_main_scope_direct_key(k, "r", None), "{k}");
        }
        assert!(!is_main_scope_direct_key(
            "agent:r:direct:bob",
            "r",
            Some("agent:r:direct:bob")
        ));
    }
}
