//! The online route: `patch`, `archive`, `unarchive` and `delete` while a live Gateway owns the
//! state dir, through its own RPC (`sessions.patch`, `sessions.delete`; docs/openclaw/GATEWAY.md
//! §7) instead of a refusal. The same order as the pipeline's, without custody (the Gateway
//! holds the store and writes it): resolve -> plan (read-only, on the live store, as a dry run
//! reads it) -> check -> show -> confirm -> snapshot on request -> one RPC per target -> read
//! back. Every RPC names the session id the plan saw (`expectedSessionId`): without it
//! `sessions.patch` of a key that went away would create a new session.

use serde::Serialize;
use serde_json::Value;

use super::pipeline::{snapshot, Hooks, Operation, Run, RunOptions, RunState};
use crate::error::{Error, ErrorKind, Result};
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

/// The Gateway a run went through, for its report (`"via": "gateway"`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayRoute {
    pub url: String,
    /// The OpenClaw release the Gateway runs (its `hello-ok`).
    pub version: String,
    /// The scopes it granted.
    pub scopes: Vec<String>,
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
        GatewayError::Timeout { .. } | GatewayError::Closed { .. } => Error::OwnerUnavailable {
            message: format!(
                "{e}; whether the Gateway applied {method} for {key} is unknown; nothing after it was sent"
            ),
            hint: Some(format!(
                "look at the session (`openclaw-sessions show {key}`) and run the command again"
            )),
        },
        other => Error::OwnerUnavailable {
            message: other.to_string(),
            hint: None,
        },
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

/// Run `op` through a live Gateway: `connect` is called once, before the plan is read (a
/// missing or refused credential is said before any question).
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
    // Before the plan, so that a missing or refused credential says so before any question.
    let (mut rpc, route) = connect()?;
    hooks.step("plan");
    let mut plan = op.plan(layout, hooks)?;
    hooks.step("check");
    // The plan's own refusals only: the Gateway writes its store at its own schema.
    op.check(layout, &plan)?;
    let summary = op.summarize(&plan, options.summary_limit.max(1))?;
    let ended = |state, plan, summary, route: &GatewayRoute| Run {
        state,
        plan,
        summary,
        report: None,
        snapshots: Vec::new(),
        custody: None,
        gateway: Some(route.clone()),
    };
    if summary.changes == 0 {
        return Ok(ended(RunState::NothingToDo, plan, summary, &route));
    }
    let decision = if O::ASKS_FIRST {
        hooks.step("confirm");
        hooks.confirm(&summary)
    } else {
        super::Decision::Proceed
    };
    if hooks.interruption().requested() {
        return Err(Error::Interrupted);
    }
    match decision {
        super::Decision::Proceed => {}
        super::Decision::Decline => return Ok(ended(RunState::Declined, plan, summary, &route)),
        super::Decision::Unanswered => {
            return Ok(ended(RunState::Unanswered, plan, summary, &route))
        }
    }
    hooks.step("snapshot");
    let snapshots = snapshot(op, layout, &plan, options, hooks)?;
    if hooks.interruption().requested() {
        return Err(Error::Interrupted);
    }
    hooks.step("apply");
    let report = op.apply_online(layout, &mut plan, rpc.as_mut(), hooks)?;
    hooks.step("verify");
    op.verify_online(layout, &plan, &report)?;
    hooks.step("done");
    Ok(Run {
        state: RunState::Applied,
        plan,
        summary,
        report: Some(report),
        snapshots,
        custody: None,
        gateway: Some(route),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
