//! The Gateway's frames (docs/openclaw/GATEWAY.md §2): JSON text, `req`/`res`/`event`. Pure
//! building and parsing, so a protocol change touches this file only.

use serde_json::{json, Map, Value};

/// The protocol version this client speaks; OpenClaw 2026.9.6 accepts exactly 4 from operators.
pub const PROTOCOL_VERSION: u64 = 4;

/// The client id and mode that keep their scopes on a token-authenticated loopback connection
/// without device pairing (docs/openclaw/GATEWAY.md §3). Any other id has its scopes cleared.
pub const CLIENT_ID: &str = "cli";
pub const CLIENT_MODE: &str = "cli";

/// A frame the Gateway sent.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    Event {
        event: String,
        payload: Value,
    },
    Response {
        id: String,
        outcome: Result<Value, RpcError>,
    },
}

/// The `error` of a failed response: `{code, message, details?, retryable?, retryAfterMs?}`.
#[derive(Debug, Clone, PartialEq)]
pub struct RpcError {
    pub code: String,
    pub message: String,
    pub details: Option<Value>,
    pub retry_after_ms: Option<u64>,
}

impl RpcError {
    /// `details.code` when there is one (`AUTH_TOKEN_MISMATCH`, `PROTOCOL_MISMATCH`, ...).
    pub fn detail_code(&self) -> Option<&str> {
        self.details.as_ref()?.get("code")?.as_str()
    }
}

/// Why a text frame could not be read as a Gateway frame.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("malformed Gateway frame: {0}")]
pub struct FrameError(pub String);

pub fn parse_frame(text: &str) -> Result<Frame, FrameError> {
    let v: Value = serde_json::from_str(text).map_err(|e| FrameError(e.to_string()))?;
    let obj = v
        .as_object()
        .ok_or_else(|| FrameError("not a JSON object".into()))?;
    let str_field = |name: &str| {
        obj.get(name)
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| FrameError(format!("no string `{name}`")))
    };
    match obj.get("type").and_then(Value::as_str) {
        Some("event") => Ok(Frame::Event {
            event: str_field("event")?,
            payload: obj.get("payload").cloned().unwrap_or(Value::Null),
        }),
        Some("res") => {
            let id = str_field("id")?;
            let ok = obj
                .get("ok")
                .and_then(Value::as_bool)
                .ok_or_else(|| FrameError("response without `ok`".into()))?;
            let outcome = if ok {
                Ok(obj.get("payload").cloned().unwrap_or(Value::Null))
            } else {
                Err(parse_error(obj.get("error")))
            };
            Ok(Frame::Response { id, outcome })
        }
        Some(other) => Err(FrameError(format!("unknown frame type `{other}`"))),
        None => Err(FrameError("no `type`".into())),
    }
}

fn parse_error(v: Option<&Value>) -> RpcError {
    let get = |k: &str| v.and_then(|e| e.get(k));
    RpcError {
        code: get("code")
            .and_then(Value::as_str)
            .unwrap_or("UNKNOWN")
            .to_owned(),
        message: get("message")
            .and_then(Value::as_str)
            .unwrap_or("(no message)")
            .to_owned(),
        details: get("details").cloned(),
        retry_after_ms: get("retryAfterMs").and_then(Value::as_u64),
    }
}

/// A request frame. Parameter schemas are closed: callers pass only fields the method knows.
pub fn request(id: &str, method: &str, params: Value) -> String {
    json!({"type": "req", "id": id, "method": method, "params": params}).to_string()
}

/// The secret a connect carries: `auth.token` or `auth.password`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecretKind {
    Token,
    Password,
}

/// The params of the first request, `connect`.
pub fn connect_params(version: &str, scopes: &[&str], kind: SecretKind, secret: &str) -> Value {
    let mut auth = Map::new();
    let field = match kind {
        SecretKind::Token => "token",
        SecretKind::Password => "password",
    };
    auth.insert(field.into(), Value::String(secret.into()));
    json!({
        "minProtocol": PROTOCOL_VERSION,
        "maxProtocol": PROTOCOL_VERSION,
        "client": {
            "id": CLIENT_ID,
            "mode": CLIENT_MODE,
            "version": version,
            "platform": std::env::consts::OS,
        },
        "role": "operator",
        "scopes": scopes,
        "auth": auth,
    })
}

/// What a successful `connect` (`hello-ok`) tells: the protocol, the server's version and the
/// scopes actually granted (fewer than asked when the Gateway cleared them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hello {
    pub protocol: u64,
    pub server_version: String,
    pub scopes: Vec<String>,
}

pub fn parse_hello(payload: &Value) -> Result<Hello, FrameError> {
    if payload.get("type").and_then(Value::as_str) != Some("hello-ok") {
        return Err(FrameError("connect answered without `hello-ok`".into()));
    }
    let protocol = payload
        .get("protocol")
        .and_then(Value::as_u64)
        .ok_or_else(|| FrameError("hello-ok without `protocol`".into()))?;
    let server_version = payload
        .pointer("/server/version")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
        .to_owned();
    let scopes = payload
        .pointer("/auth/scopes")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    Ok(Hello {
        protocol,
        server_version,
        scopes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_challenge_event() {
        let f = parse_frame(
            r#"{"type":"event","event":"connect.challenge","payload":{"nonce":"n","ts":1}}"#,
        )
        .unwrap();
        assert_eq!(
            f,
            Frame::Event {
                event: "connect.challenge".into(),
                payload: json!({"nonce": "n", "ts": 1})
            }
        );
    }

    #[test]
    fn parses_ok_and_failed_responses() {
        let ok = parse_frame(r#"{"type":"res","id":"3","ok":true,"payload":{"ok":true}}"#).unwrap();
        assert_eq!(
            ok,
            Frame::Response {
                id: "3".into(),
                outcome: Ok(json!({"ok": true}))
            }
        );
        let failed = parse_frame(
            r#"{"type":"res","id":"1","ok":false,"error":{"code":"UNAVAILABLE","message":"gateway starting; retry shortly","retryable":true,"retryAfterMs":500,"details":{"reason":"startup-sidecars"}}}"#,
        )
        .unwrap();
        let Frame::Response {
            id,
            outcome: Err(e),
        } = failed
        else {
            panic!("not a failed response: {failed:?}")
        };
        assert_eq!(id, "1");
        assert_eq!(e.code, "UNAVAILABLE");
        assert_eq!(e.retry_after_ms, Some(500));
        assert_eq!(e.detail_code(), None);
        let mismatch = parse_frame(
            r#"{"type":"res","id":"1","ok":false,"error":{"code":"INVALID_REQUEST","message":"m","details":{"code":"AUTH_TOKEN_MISMATCH"}}}"#,
        )
        .unwrap();
        let Frame::Response {
            outcome: Err(e), ..
        } = mismatch
        else {
            panic!()
        };
        assert_eq!(e.detail_code(), Some("AUTH_TOKEN_MISMATCH"));
    }

    #[test]
    fn rejects_what_is_not_a_frame() {
        for text in [
            "[]",
            "{}",
            "not json",
            r#"{"type":"res","ok":true}"#,
            r#"{"type":"res","id":"1"}"#,
            r#"{"type":"hello"}"#,
        ] {
            assert!(parse_frame(text).is_err(), "{text} parsed");
        }
    }

    #[test]
    fn connect_params_carry_protocol_client_role_scopes_and_one_secret() {
        let p = connect_params("0.1.0", &["operator.read"], SecretKind::Password, "s3");
        assert_eq!(p["minProtocol"], 4);
        assert_eq!(p["maxProtocol"], 4);
        assert_eq!(p["client"]["id"], "cli");
        assert_eq!(p["client"]["mode"], "cli");
        assert_eq!(p["client"]["version"], "0.1.0");
        assert_eq!(p["role"], "operator");
        assert_eq!(p["scopes"], json!(["operator.read"]));
        assert_eq!(p["auth"], json!({"password": "s3"}));
        let t = connect_params("0.1.0", &[], SecretKind::Token, "t");
        assert_eq!(t["auth"], json!({"token": "t"}));
    }

    #[test]
    fn hello_gives_protocol_version_and_granted_scopes() {
        let h = parse_hello(&json!({
            "type": "hello-ok", "protocol": 4,
            "server": {"version": "2026.9.6", "connId": "c"},
            "auth": {"method": "token", "role": "operator", "scopes": ["operator.read"]}
        }))
        .unwrap();
        assert_eq!(h.protocol, 4);
        assert_eq!(h.server_version, "2026.9.6");
        assert_eq!(h.scopes, vec!["operator.read".to_string()]);
        assert!(parse_hello(&json!({"protocol": 4})).is_err());
    }

    #[test]
    fn request_frame_shape() {
        let r: Value =
            serde_json::from_str(&request("7", "sessions.list", json!({"limit": 1}))).unwrap();
        assert_eq!(
            r,
            json!({"type":"req","id":"7","method":"sessions.list","params":{"limit":1}})
        );
    }
}
