//! The fields of a session entry OpenClaw 2026.9.6 knows (every `SessionEntry` field: the keys
//! a plugin may not claim as its own slot, and the retired flat fields it still converts), and
//! the types of those a patch most often touches. `docs/openclaw/REFUSALS.md` tells where the
//! list was read and how `patch` uses it.

use serde_json::Value;

/// What a known field holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// Epoch milliseconds: a finite number, not negative.
    Timestamp,
    Text,
    Flag,
    Number,
    Object,
    OneOf(&'static [&'static str]),
}

/// Typed fields (the others are accepted as any JSON value).
const TYPED: &[(&str, Shape)] = &[
    ("sessionId", Shape::Text),
    ("updatedAt", Shape::Timestamp),
    ("createdAt", Shape::Timestamp),
    ("sessionStartedAt", Shape::Timestamp),
    ("startedAt", Shape::Timestamp),
    ("endedAt", Shape::Timestamp),
    ("archivedAt", Shape::Timestamp),
    ("pinnedAt", Shape::Timestamp),
    ("lastReadAt", Shape::Timestamp),
    ("markedUnreadAt", Shape::Timestamp),
    ("lastActivityAt", Shape::Timestamp),
    ("lastInteractionAt", Shape::Timestamp),
    ("label", Shape::Text),
    ("displayName", Shape::Text),
    ("icon", Shape::Text),
    ("color", Shape::Text),
    ("category", Shape::Text),
    ("model", Shape::Text),
    ("modelProvider", Shape::Text),
    ("providerOverride", Shape::Text),
    ("modelOverride", Shape::Text),
    ("agentHarnessId", Shape::Text),
    ("parentSessionKey", Shape::Text),
    ("parentSessionId", Shape::Text),
    ("spawnedBy", Shape::Text),
    ("projectId", Shape::Text),
    ("pluginOwnerId", Shape::Text),
    ("previousSessionId", Shape::Text),
    ("modelSelectionLocked", Shape::Flag),
    ("systemSent", Shape::Flag),
    ("abortedLastRun", Shape::Flag),
    ("forkedFromParent", Shape::Flag),
    ("totalTokensFresh", Shape::Flag),
    ("inputTokens", Shape::Number),
    ("outputTokens", Shape::Number),
    ("totalTokens", Shape::Number),
    ("contextTokens", Shape::Number),
    ("compactionCount", Shape::Number),
    ("spawnDepth", Shape::Number),
    ("estimatedCostUsd", Shape::Number),
    ("runtimeMs", Shape::Number),
    ("delivery", Shape::Object),
    ("acp", Shape::Object),
    ("forkSource", Shape::Object),
    ("createdActor", Shape::Object),
    ("archivedBy", Shape::Object),
    ("worktree", Shape::Object),
    ("publicShare", Shape::Object),
    ("chatType", Shape::OneOf(&["direct", "group", "channel"])),
    (
        "status",
        Shape::OneOf(&["running", "done", "failed", "killed", "timeout"]),
    ),
    (
        "createdVia",
        Shape::OneOf(&[
            "operator", "spawn", "channel", "cron", "talk", "run", "plugin", "internal",
        ]),
    ),
    (
        "archiveReason",
        Shape::OneOf(&[
            "manual",
            "active-session-cap",
            "age-retention",
            "stale-dashboard",
            "restart-recovery",
        ]),
    ),
];

/// Whether OpenClaw's entry shape has a top-level field of this name.
pub fn is_known_field(name: &str) -> bool {
    KNOWN_FIELDS.contains(&name) || is_retired_field(name)
}

/// The known field closest to `name`, when one is close enough to be a typo.
pub fn suggest_field(name: &str) -> Option<&'static str> {
    let lower = name.to_lowercase();
    KNOWN_FIELDS
        .iter()
        .map(|k| (strsim::levenshtein(&lower, &k.to_lowercase()), *k))
        .filter(|(d, k)| *d <= 2.max(k.len() / 4))
        .min()
        .map(|(_, k)| k)
}

/// Check a known field's value against the shape OpenClaw accepts; `None` when it fits (or
/// the field is untyped), else why not.
pub fn field_type_error(name: &str, value: &Value) -> Option<String> {
    let (_, shape) = TYPED.iter().find(|(n, _)| *n == name)?;
    let ok = match shape {
        Shape::Timestamp => value.as_f64().is_some_and(|f| f.is_finite() && f >= 0.0),
        Shape::Text => value.is_string(),
        Shape::Flag => value.is_boolean(),
        Shape::Number => value.as_f64().is_some_and(f64::is_finite),
        Shape::Object => value.is_object(),
        Shape::OneOf(words) => value.as_str().is_some_and(|s| words.contains(&s)),
    };
    if ok {
        return None;
    }
    let want = match shape {
        Shape::Timestamp => "a timestamp (epoch milliseconds, a number >= 0)".to_string(),
        Shape::Text => "a string".to_string(),
        Shape::Flag => "true or false".to_string(),
        Shape::Number => "a number".to_string(),
        Shape::Object => "a JSON object".to_string(),
        Shape::OneOf(words) => format!("one of {}", words.join(", ")),
    };
    Some(format!("{name} must be {want}, not {value}"))
}

/// Every `SessionEntry` field (OpenClaw 2026.9.6).
pub const KNOWN_FIELDS: &[&str] = &[
    "lastHeartbeatText",
    "lastHeartbeatSentAt",
    "heartbeatIsolatedBaseSessionKey",
    "heartbeatTaskState",
    "pluginExtensions",
    "initializationPending",
    "pluginExtensionSlotKeys",
    "pluginNextTurnInjections",
    "sessionId",
    "lifecycleRevision",
    "providerReview",
    "updatedAt",
    "incognito",
    "archivedAt",
    "archivedBy",
    "archiveReason",
    "pinnedAt",
    "lastReadAt",
    "agentStatus",
    "observerDigest",
    "activitySummary",
    "markedUnreadAt",
    "lastActivityAt",
    "sessionFile",
    "transcriptPath",
    "spawnedBy",
    "completionOwnerSessionKey",
    "spawnedWorkspaceDir",
    "spawnedCwd",
    "permissionMode",
    "sessionRoot",
    "sessionDiffBaseline",
    "sessionDiffBaselineCapture",
    "worktree",
    "projectId",
    "repositoryWorkspaceId",
    "pendingProjectGitUrl",
    "pendingWorktree",
    "parentSessionKey",
    "parentSessionId",
    "createdVia",
    "createdActor",
    "sandbox",
    "sandboxMode",
    "nativeRuntimeConsent",
    "owner",
    "participants",
    "participantCount",
    "createdAt",
    "forkSource",
    "previousSessionId",
    "forkedFromParent",
    "spawnDepth",
    "swarmGroupId",
    "swarmCollector",
    "swarmOutputSchema",
    "subagentRole",
    "subagentControlScope",
    "inheritedToolPolicyVersion",
    "inheritedToolDeny",
    "inheritedToolAllow",
    "lifecycleRunId",
    "lastRunId",
    "activeWriterRunId",
    "mainRestartRecovery",
    "subagentRecovery",
    "pluginOwnerId",
    "systemSent",
    "abortedLastRun",
    "restartRecoveryRuns",
    "restartRecoveryForceSafeTools",
    "goal",
    "sessionStartedAt",
    "ambientTranscriptWatermarks",
    "lastInteractionAt",
    "startedAt",
    "endedAt",
    "runtimeMs",
    "status",
    "lastRunError",
    "abortCutoffMessageSid",
    "abortCutoffTimestamp",
    "chatType",
    "contextWindow",
    "thinkingLevel",
    "cronRunContinuation",
    "fastMode",
    "toolOverrides",
    "verboseLevel",
    "traceLevel",
    "reasoningLevel",
    "elevatedLevel",
    "ttsAuto",
    "lastTtsReadLatestHash",
    "lastTtsReadLatestAt",
    "execHost",
    "execNode",
    "execCwd",
    "responseUsage",
    "usageFamilyKey",
    "usageFamilySessionIds",
    "providerOverride",
    "modelOverride",
    "agentRuntimeOverride",
    "modelOverrideSource",
    "modelOverrideRouteResolution",
    "modelOverrideFallbackOriginProvider",
    "modelOverrideFallbackOriginModel",
    "modelFallback",
    "authProfileOverride",
    "authProfileOverrideSource",
    "authProfileOverrideCompactionCount",
    "liveModelSwitchPending",
    "groupActivation",
    "groupActivationNeedsSystemIntro",
    "sendPolicy",
    "queueMode",
    "queueDebounceMs",
    "queueCap",
    "queueDrop",
    "inputTokens",
    "outputTokens",
    "totalTokens",
    "pendingFinalDelivery",
    "pendingDeliveryNotice",
    "restartRecoveryDeliveryContext",
    "restartRecoveryDeliveryMediaUrls",
    "restartRecoveryDisableMessageTool",
    "restartRecoverySuppressTextDelivery",
    "restartRecoveryDeliveryRequestFingerprint",
    "restartRecoveryDeliveryRunId",
    "restartRecoveryDeliverySourceRunId",
    "restartRecoveryBeforeAgentReplyState",
    "restartRecoveryDeliveryReceiptState",
    "restartRecoveryDeliveryToolCallId",
    "restartRecoveryRequesterAccountId",
    "restartRecoveryRequesterSenderId",
    "restartRecoverySameChannelThreadRequired",
    "restartRecoverySourceIngress",
    "restartRecoverySourceReplyDeliveryMode",
    "restartRecoveryTerminalDeliveryEvidence",
    "restartRecoveryHarnessCompletion",
    "restartRecoveryTerminalRunIds",
    "totalTokensFresh",
    "totalTokensVersion",
    "estimatedCostUsd",
    "cacheRead",
    "cacheWrite",
    "modelProvider",
    "model",
    "modelSelectionLocked",
    "agentHarnessId",
    "fallbackNotice",
    "contextTokens",
    "contextTokensSource",
    "contextBudgetStatus",
    "compactionCount",
    "transcriptByteCompactionLatch",
    "memoryFlush",
    "cliHistoryBoundary",
    "cliSessionIds",
    "cliSessionBindings",
    "acpSessionBinding",
    "claudeCliSessionId",
    "label",
    "autoLabel",
    "icon",
    "color",
    "category",
    "boardFace",
    "boardPresentation",
    "displayName",
    "delivery",
    "groupId",
    "subject",
    "topicName",
    "groupChannel",
    "space",
    "skillsSnapshot",
    "skillLibrarySelections",
    "systemPromptReport",
    "pluginDebugEntries",
    "hookExternalContentSource",
    "acp",
    "quotaSuspension",
    "pendingTranscriptRepair",
    "visibility",
    "publicShare",
    "profileInvolvement",
];

/// Projections OpenClaw's canonical shape drops (`projectCanonicalSessionEntryShape`).
pub const DROPPED_PROJECTIONS: [&str; 5] = [
    "sessionFile",
    "transcriptPath",
    "owner",
    "participants",
    "participantCount",
];

/// The flat delivery route fields OpenClaw folds into `deliveryContext` on its next write.
pub const LEGACY_DELIVERY_FIELDS: [&str; 8] = [
    "route",
    "deliveryContext",
    "origin",
    "channel",
    "lastChannel",
    "lastTo",
    "lastAccountId",
    "lastThreadId",
];

/// The flat fields of a pending final delivery, a fallback notice and a memory flush, which
/// OpenClaw folds into their objects (its import at once, its writers on the next write).
pub const FOLDED_FLAT_FIELDS: [&str; 16] = [
    "pendingFinalDeliveryCreatedAt",
    "pendingFinalDeliveryLastAttemptAt",
    "pendingFinalDeliveryAttemptCount",
    "pendingFinalDeliveryLastError",
    "pendingFinalDeliveryText",
    "pendingFinalDeliveryContext",
    "pendingFinalDeliveryIntentId",
    "fallbackNoticeSelectedModel",
    "fallbackNoticeActiveModel",
    "fallbackNoticeReason",
    "memoryFlushAt",
    "memoryFlushCompactionCount",
    "memoryFlushContextHash",
    "memoryFlushFailureCount",
    "memoryFlushLastFailedAt",
    "memoryFlushLastFailureError",
];

/// Other retired fields OpenClaw still converts on its next write.
const CONVERTED_FIELDS: [&str; 3] = ["compactionCheckpoints", "execSecurity", "execAsk"];

/// A flat field OpenClaw retired but still converts on its next write.
pub fn is_retired_field(name: &str) -> bool {
    CONVERTED_FIELDS.contains(&name)
        || LEGACY_DELIVERY_FIELDS.contains(&name)
        || FOLDED_FLAT_FIELDS.contains(&name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn known_typos_and_types() {
        assert!(is_known_field("label") && is_known_field("lastChannel"));
        assert!(!is_known_field("labl"));
        assert_eq!(suggest_field("labl"), Some("label"));
        assert_eq!(suggest_field("pinnedat"), Some("pinnedAt"));
        assert_eq!(suggest_field("somethingElseEntirely"), None);
        assert!(field_type_error("pinnedAt", &json!(true)).is_some());
        assert!(field_type_error("pinnedAt", &json!(-1)).is_some());
        assert!(field_type_error("pinnedAt", &json!(1780000000000u64)).is_none());
        assert!(field_type_error("chatType", &json!("dm")).is_some());
        assert!(field_type_error("goal", &json!([1])).is_none());
    }
}
