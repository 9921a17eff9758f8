//! The online route: `patch`, `archive`, `unarchive`, `delete` and `prune` while a live Gateway
//! owns the state dir, through its own RPC (`sessions.patch`, `sessions.delete`,
//! `sessions.cleanup`; docs/openclaw/GATEWAY.md §7) instead of a refusal. The same order as the
//! pipeline's, without custody (the Gateway holds the store and writes it): resolve -> plan
//! (read-only, on the live store, as a dry run reads it) -> check -> connect (only when there
//! is something to do) -> show -> confirm -> snapshot on request -> one RPC per target -> read
//! back. Every RPC names the session id the plan saw (`expectedSessionId`): without it
//! `sessions.patch` of a key that went away would create a new session.

use serde_json::Value;

use super::pipeline::{Hooks, Operation, Run, RunOptions};
use crate::error::{Error, ErrorKind, Result};
pub use crate::gateway::GatewayRoute;
use crate::gateway::{GatewayClient, GatewayError, RpcError};
use crate::paths::StateLayout;

/// One call of the Gateway's RPC (the client; a fake in tests).
pub trait SessionRpc {
    fn call(&mut self, method: &str, params: Value) -> std::result::Result<Value, GatewayError>;
}

impl SessionRpc for GatewayClient {
    fn call(&mut self, method: &str, params: Value) -> std::result::Result<Value, GatewayError> {
        GatewayClient::call(self, method, params)
    }
}

/// An operation the Gateway's RPC can carry.
pub trait OnlineOperation: Operation {
    /// Why this request cannot go through the RPC (an option the RPC has no parameter for), or
    /// `None`. Checked before anything is read.
    fn online_refusal(&self) -> Option<String> {
        None
    }

    /// One RPC per planned change; a refusal of the Gateway's own is that target's result.
    fn apply_online(
        &mut self,
        layout: &StateLayout,
        plan: &mut Self::Plan,
        rpc: &mut dyn SessionRpc,
        hooks: &dyn Hooks,
    ) -> Result<Self::Report>;

    /// Read back what the Gateway wrote, from its store (read-only): by default the offline
    /// run's own verification.
    fn verify_online(
        &self,
        layout: &StateLayout,
        plan: &Self::Plan,
        report: &Self::Report,
    ) -> Result<()> {
        self.verify(layout, plan, report)
    }
}

/// The RPC's answer, or its refusal as our error for `key` (see [`refusal`]).
pub fn call(rpc: &mut dyn SessionRpc, method: &str, key: &str, params: Value) -> Result<Value> {
    rpc.call(method, params)
        .map_err(|e| gateway_error(method, key, e))
}

/// Whether an error of [`call`] is one target's result (a refusal) rather than the end of the
/// run (the connection lost, a credential or scope refused).
pub fn is_refusal(e: &Error) -> bool {
    matches!(
        e.kind(),
        ErrorKind::NotFound | ErrorKind::Conflict | ErrorKind::LockedSession
    )
}

/// A Gateway error as ours. Its refusals are all `INVALID_REQUEST` and told apart by their
/// message or `details.reason` (docs/openclaw/GATEWAY.md §7): mapped to the exit codes the
/// offline run gives for the same refusal.
fn gateway_error(method: &str, key: &str, e: GatewayError) -> Error {
    match e {
        GatewayError::Rpc { error, .. } => refusal(method, key, &error),
        // The request may have reached the Gateway: lost, timed out or garbled, its outcome
        // is unknown (docs/openclaw/GATEWAY.md §8).
        other => Error::OwnerUnavailable {
            message: format!(
                "{other}; whether the Gateway applied {method} for {key} is unknown; nothing after it was sent"
            ),
            hint: Some("look at the session, then run the command again".into()),
        },
    }
}

/// One target of a run's calls, as the error of a lost connection lists it: `{agentId,
/// sessionKey}` for a session, `{agentId}` for an agent, `{allAgents: true}`.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(transparent)]
pub struct CallTarget(Value);

impl CallTarget {
    pub fn session(agent_id: &str, session_key: &str) -> Self {
        CallTarget(serde_json::json!({"agentId": agent_id, "sessionKey": session_key}))
    }

    pub fn agent(agent_id: &str) -> Self {
        CallTarget(serde_json::json!({ "agentId": agent_id }))
    }

    pub fn all_agents() -> Self {
        CallTarget(serde_json::json!({"allAgents": true}))
    }

    /// How a message names it: "agent:main:x", "agent main", "all agents".
    pub fn describe(&self) -> String {
        match (self.0.get("sessionKey"), self.0.get("agentId")) {
            (Some(_), _) => self.name().to_owned(),
            (None, Some(_)) => format!("agent {}", self.name()),
            _ => self.name().to_owned(),
        }
    }

    /// The key, the agent, or "all agents".
    fn name(&self) -> &str {
        ["sessionKey", "agentId"]
            .iter()
            .find_map(|k| self.0.get(*k).and_then(Value::as_str))
            .unwrap_or("all agents")
    }
}

/// The calls of one run, in the order they are sent, and the answers so far: when the
/// connection is lost, what was done, which call's outcome is unknown and what was never sent
/// (the error document's `data`, through [`Hooks::stopped_with`]).
pub struct Calls {
    targets: Vec<CallTarget>,
    answered: Vec<(CallTarget, String)>,
}

impl Calls {
    /// `targets`: every call the run will make, in order.
    pub fn new(targets: Vec<CallTarget>) -> Self {
        Calls {
            answered: Vec::with_capacity(targets.len()),
            targets,
        }
    }

    /// The next target was answered: `result` as the report words it (`deleted`, `refused`...).
    pub fn answered(&mut self, result: &str) {
        if let Some(target) = self.targets.get(self.answered.len()) {
            self.answered.push((target.clone(), result.to_owned()));
        }
    }

    /// The run ends on `e` (the connection lost during the next call): says how far it got,
    /// in the message and as data.
    pub fn lost(self, e: Error, hooks: &dyn Hooks) -> Error {
        let done = self.answered.len();
        let total = self.targets.len();
        let unknown = self.targets.get(done).cloned();
        let not_sent: Vec<CallTarget> = self.targets.iter().skip(done + 1).cloned().collect();
        let done_data: Vec<Value> = self
            .answered
            .iter()
            .map(|(target, result)| {
                let mut entry = target.0.clone();
                entry["result"] = result.as_str().into();
                entry
            })
            .collect();
        hooks.stopped_with(serde_json::json!({
            "done": done_data,
            "outcomeUnknown": unknown,
            "notSent": not_sent,
        }));
        let Error::OwnerUnavailable { message, hint } = e else {
            return e;
        };
        let named: Vec<&str> = self.answered.iter().map(|(t, _)| t.name()).collect();
        let list = if named.is_empty() {
            String::new()
        } else if named.len() <= 5 {
            format!(": {}", named.join(", "))
        } else {
            " (listed in --json as data.done)".to_string()
        };
        Error::OwnerUnavailable {
            message: format!(
                "{message}; {done} of {total} had been answered before it{list}; {} not sent",
                not_sent.len()
            ),
            hint,
        }
    }
}

/// The Gateway's refusal of `method` on `key` as our error kind.
pub fn refusal(method: &str, key: &str, error: &RpcError) -> Error {
    let message = &error.message;
    let reason = error
        .details
        .as_ref()
        .and_then(|d| d.get("reason"))
        .and_then(Value::as_str);
    let said = format!("the Gateway refused {method} for {key}: {message}");
    if error.code == "FORBIDDEN" || error.detail_code() == Some("MISSING_SCOPE") {
        return Error::OwnerUnavailable {
            message: said,
            hint: Some(
                "the credential's scopes are not enough: use the Gateway's operator token (gateway.auth.token), or stop the Gateway and run offline".into(),
            ),
        };
    }
    if reason == Some("session-changed") || message.contains("changed before") {
        return Error::Conflict {
            message: format!("session {key} changed after the plan was made ({said})"),
            hint: Some("look at it again and retry".into()),
        };
    }
    if message.starts_with("Cannot delete the main session")
        || message.starts_with("Model selection is locked")
    {
        return Error::LockedSession {
            message: message.clone(),
            hint: None,
        };
    }
    if message.starts_with("No session found")
        || message.starts_with("session not found")
        || message.contains("not found")
    {
        return Error::not_found(said, None);
    }
    Error::Conflict {
        message: said,
        hint: None,
    }
}

/// Run `op` through a live Gateway: `connect` is called once, after the plan and before its
/// question, when there is something to do.
pub fn run_online<O: OnlineOperation>(
    op: &mut O,
    layout: &StateLayout,
    options: &RunOptions,
    hooks: &dyn Hooks,
    connect: &mut dyn FnMut() -> Result<(Box<dyn SessionRpc>, GatewayRoute)>,
) -> Result<Run<O::Plan, O::Report>> {
    if let Some(why) = op.online_refusal() {
        return Err(Error::OwnerUnavailable {
            message: format!("a live Gateway owns the state dir, and {why}"),
            hint: Some("stop the Gateway and run it offline, or leave that option out".into()),
        });
    }
    hooks.step("resolve");
    op.resolve(layout)?;
    hooks.step("plan");
    let plan = op.plan(layout, hooks)?;
    hooks.step("check");
    // The plan's own refusals only: the Gateway writes its store at its own schema.
    op.check(layout, &plan)?;
    let summary = op.summarize(&plan, options.summary_limit.max(1))?;
    // Only a run with something to do connects, before its question (a missing or refused
    // credential is said first): one with nothing due ends quietly, as offline (cron).
    let (mut rpc, route) = if summary.changes == 0 {
        (None, None)
    } else {
        let (rpc, route) = connect()?;
        (Some(rpc), Some(route))
    };
    let reached = route.is_some();
    let mut run = super::pipeline::finish(
        op,
        layout,
        options,
        hooks,
        (plan, summary),
        route,
        crate::oplog::Route::Gateway,
        |op, plan| {
            let rpc = rpc.as_mut().ok_or_else(|| {
                Error::Internal("the online route applied a plan without a Gateway".into())
            })?;
            op.apply_online(layout, plan, rpc.as_mut(), hooks)
        },
        |op, plan, report| op.verify_online(layout, plan, report),
    )?;
    if !reached {
        run.not_reached = Some("the live Gateway".to_string());
    }
    Ok(run)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    use crate::mutate::{DeleteOptions, PatchOps};
    use crate::ops::delete::{DeleteOp, Deleted};
    use crate::ops::entry_change::{Applied, EntryChange, EntryChangeOp};
    use crate::ops::pipeline::Unattended;
    use crate::ops::targets::Selection as AgentSelection;
    use crate::paths::{DiscoverOptions, Environment};

    /// A Gateway that records each call and answers from a script, in order.
    struct ScriptedGateway {
        calls: Vec<(String, Value)>,
        answers: Vec<std::result::Result<Value, RpcError>>,
    }

    impl SessionRpc for ScriptedGateway {
        fn call(
            &mut self,
            method: &str,
            params: Value,
        ) -> std::result::Result<Value, GatewayError> {
            self.calls.push((method.to_string(), params));
            self.answers.remove(0).map_err(|error| GatewayError::Rpc {
                method: method.to_string(),
                error: Box::new(error),
            })
        }
    }

    /// A private copy of the 2026.9.6 fixture (the plan only reads it).
    fn fixture() -> (tempfile::TempDir, StateLayout) {
        let dir = tempfile::tempdir().unwrap();
        let from = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/openclaw-2026.9.6/live/.openclaw"
        );
        let copied = std::process::Command::new("cp")
            .args(["-a", from])
            .arg(dir.path().join(".openclaw"))
            .status()
            .unwrap();
        assert!(copied.success());
        let layout = StateLayout::discover(
            &DiscoverOptions {
                state_dir: Some(dir.path().join(".openclaw")),
                ..Default::default()
            },
            &Environment {
                home: Some(dir.path().to_string_lossy().into_owned()),
                ..Default::default()
            },
        )
        .unwrap();
        (dir, layout)
    }

    const SDK_MADE_1: &str = "85e5c013-73a2-4265-9325-d5da86586a95";

    /// A label patch sends the key, the agent, the session id the plan read and the label,
    /// never `updatedAt` (the RPC moves it itself and rejects unknown fields); the Gateway's
    /// "changed before patch" is that target's conflict, not the end of the run.
    #[test]
    fn a_patch_sends_its_expectation_and_a_refusal_is_the_targets_result() {
        let (_dir, layout) = fixture();
        let ops = PatchOps {
            set: vec![("label".into(), json!("Ops"))],
            ..Default::default()
        };
        let mut op = EntryChangeOp::new(
            EntryChange::Patch(Box::new(ops)),
            AgentSelection::none(),
            vec!["agent:main:sdk-made-1".into()],
            crate::units::now_ms(),
        );
        assert_eq!(op.online_refusal(), None);
        op.resolve(&layout).unwrap();
        let mut plan = op.plan(&layout, &Unattended).unwrap();
        let mut gateway = ScriptedGateway {
            calls: Vec::new(),
            answers: vec![Err(rpc_error(
                "Session agent:main:sdk-made-1 changed before patch. Retry.",
                Some(json!({"reason": "session-changed"})),
            ))],
        };
        let report = op
            .apply_online(&layout, &mut plan, &mut gateway, &Unattended)
            .unwrap();
        assert_eq!(
            gateway.calls,
            vec![(
                "sessions.patch".to_string(),
                json!({"key": "agent:main:sdk-made-1", "agentId": "main",
                       "expectedSessionId": SDK_MADE_1, "label": "Ops"})
            )]
        );
        assert!(
            matches!(&report.results[..], [Applied::Refused(e)] if e.kind() == ErrorKind::Conflict)
        );
    }

    /// A delete names the session id and `updatedAt` the plan saw, and whether to archive;
    /// an answer of `deleted: false` (gone meanwhile) is that key's result.
    #[test]
    fn a_delete_sends_what_the_plan_saw() {
        let (_dir, layout) = fixture();
        let mut op = DeleteOp::new(
            AgentSelection::none(),
            vec![
                "agent:main:sdk-made-1".into(),
                "agent:main:scratch-2".into(),
            ],
            DeleteOptions {
                archive: false,
                ..Default::default()
            },
        );
        op.resolve(&layout).unwrap();
        let mut plan = op.plan(&layout, &Unattended).unwrap();
        let mut gateway = ScriptedGateway {
            calls: Vec::new(),
            answers: vec![
                Ok(json!({"ok": true, "deleted": true, "archived": []})),
                Ok(json!({"ok": true, "deleted": false})),
            ],
        };
        let report = op
            .apply_online(&layout, &mut plan, &mut gateway, &Unattended)
            .unwrap();
        let (method, first) = &gateway.calls[0];
        assert_eq!(method, "sessions.delete");
        assert_eq!(first["key"], "agent:main:sdk-made-1");
        assert_eq!(first["deleteTranscript"], false);
        assert_eq!(first["expectedSessionId"], SDK_MADE_1);
        assert!(first["expectedSessionUpdatedAt"].is_i64(), "{first}");
        assert!(matches!(
            &report.agents[0][..],
            [Deleted::ByGateway { .. }, Deleted::Refused(e)] if e.kind() == ErrorKind::NotFound
        ));
    }

    /// OpenClaw's maintenance defaults (an empty `session.maintenance`).
    fn settings() -> crate::mutate::prune::MaintenanceSettings {
        crate::mutate::prune::MaintenanceSettings::resolve(&crate::paths::MaintenanceConfig {
            raw: json!({}),
        })
        .unwrap()
    }

    /// What the RPC cannot carry is refused before anything is read.
    #[test]
    fn options_the_rpc_has_no_parameter_for_are_refused() {
        let patch = |ops: PatchOps| {
            EntryChangeOp::new(
                EntryChange::Patch(Box::new(ops)),
                AgentSelection::none(),
                vec!["main".into()],
                0,
            )
            .online_refusal()
        };
        let merge = serde_json::Map::from_iter([("label".to_string(), json!("x"))]);
        for (ops, says) in [
            (
                PatchOps {
                    merge: Some(merge),
                    ..Default::default()
                },
                "--merge",
            ),
            (
                PatchOps {
                    preserve_activity: true,
                    ..Default::default()
                },
                "--preserve-activity",
            ),
            (
                PatchOps {
                    set: vec![("model".into(), json!("x"))],
                    ..Default::default()
                },
                "\"model\"",
            ),
            (
                PatchOps {
                    unset: vec!["displayName".into()],
                    ..Default::default()
                },
                "\"displayName\"",
            ),
        ] {
            let why = patch(ops).expect("refused");
            assert!(why.contains(says), "{why}");
        }
        let mut prune = crate::ops::prune::PruneOp::new(AgentSelection::none(), settings(), 0);
        assert_eq!(prune.online_refusal(), None);
        prune.overrides.push("--older-than".into());
        assert!(prune.online_refusal().unwrap().contains("--older-than"));
    }

    fn rpc_error(message: &str, details: Option<Value>) -> RpcError {
        RpcError {
            code: "INVALID_REQUEST".into(),
            message: message.into(),
            details,
            retry_after_ms: None,
        }
    }

    /// The Gateway's refusals, in its own words (docs/openclaw/GATEWAY.md §7), get the exit
    /// codes the offline run gives for the same refusal.
    #[test]
    fn the_gateways_refusals_map_to_ours() {
        let cases = [
            (
                rpc_error(
                    "Session agent:main:x changed before patch. Retry.",
                    Some(json!({"reason": "session-changed"})),
                ),
                ErrorKind::Conflict,
            ),
            (
                rpc_error("Cannot delete the main session (agent:main:main).", None),
                ErrorKind::LockedSession,
            ),
            (
                rpc_error("Model selection is locked for this session.", None),
                ErrorKind::LockedSession,
            ),
            (
                rpc_error("label already in use: Ops", None),
                ErrorKind::Conflict,
            ),
            (
                rpc_error("No session found: agent:main:x", None),
                ErrorKind::NotFound,
            ),
            (
                RpcError {
                    code: "FORBIDDEN".into(),
                    message: "missing scope: operator.admin".into(),
                    details: Some(json!({"code": "MISSING_SCOPE"})),
                    retry_after_ms: None,
                },
                ErrorKind::OwnerUnavailable,
            ),
        ];
        for (error, kind) in cases {
            let e = refusal("sessions.patch", "agent:main:x", &error);
            assert_eq!(e.kind(), kind, "{}", error.message);
            assert!(
                e.to_string().contains(error.message.trim_end_matches('.')),
                "{e}"
            );
        }
    }
}
