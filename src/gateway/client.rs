//! A blocking WebSocket client for the Gateway's RPC (docs/openclaw/GATEWAY.md): the
//! challenge, `connect`, then requests answered by id, each within a deadline.

use std::io;
use std::net::{TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use serde_json::Value;
use tungstenite::protocol::WebSocket;
use tungstenite::{client::IntoClientRequest, Message};

use super::discover::{Credential, Endpoint};
use super::protocol::{self, Frame, Hello, RpcError};

/// Why talking to the Gateway failed.
#[derive(Debug, thiserror::Error)]
pub enum GatewayError {
    #[error("the Gateway URL {url} is not usable: {reason}")]
    BadUrl { url: String, reason: String },
    /// A secret would cross a network in clear (`plaintext.rs`): nothing was sent.
    #[error("refusing to send the Gateway's secret to {url}: {reason}")]
    Insecure { url: String, reason: String },
    #[error("cannot reach the Gateway at {url}: {source}")]
    Unreachable {
        url: String,
        #[source]
        source: io::Error,
    },
    #[error("the Gateway at {url} did not answer {what} in time")]
    Timeout { url: String, what: String },
    #[error("the Gateway at {url} closed the connection during {what}{}", reason.as_deref().map(|r| format!(": {r}")).unwrap_or_default())]
    Closed {
        url: String,
        what: String,
        reason: Option<String>,
    },
    #[error("the Gateway at {url} speaks another protocol: {message}")]
    Protocol { url: String, message: String },
    #[error("the Gateway at {url} speaks protocol {theirs}, this tool speaks {ours}")]
    ProtocolMismatch {
        url: String,
        ours: u64,
        theirs: String,
    },
    /// The Gateway refused the credential; `used` says which one (never its value).
    #[error("the Gateway at {url} refused {used}: {message}")]
    CredentialRejected {
        url: String,
        used: String,
        message: String,
    },
    /// Still starting when the deadline passed.
    #[error("the Gateway at {url} was still starting when the wait ran out: {message}")]
    Unavailable { url: String, message: String },
    /// A method answered with an error.
    #[error("the Gateway refused {method}: {} ({})", error.message, error.code)]
    Rpc {
        method: String,
        error: Box<RpcError>,
    },
}

/// A connected, authenticated operator session with one Gateway.
pub struct GatewayClient {
    socket: WebSocket<TcpStream>,
    url: String,
    hello: Hello,
    next_id: u64,
    /// The time allowed for one request's answer.
    pub request_timeout: Duration,
}

impl std::fmt::Debug for GatewayClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GatewayClient")
            .field("url", &self.url)
            .field("hello", &self.hello)
            .finish_non_exhaustive()
    }
}

/// What to connect with.
#[derive(Debug, Clone)]
pub struct ConnectOptions<'a> {
    /// The scopes to ask for (`operator.read`, `operator.write`, `operator.admin`).
    pub scopes: &'a [&'a str],
    /// This tool's version, sent as the client version.
    pub client_version: &'a str,
    /// Until when a Gateway that is not listening yet or answers `UNAVAILABLE` is retried.
    pub wait_until: Instant,
    /// The time allowed for one attempt (TCP, WebSocket handshake, challenge, `connect`).
    pub attempt_timeout: Duration,
    /// OpenClaw's `OPENCLAW_ALLOW_INSECURE_PRIVATE_WS=1`: plaintext `ws://` also to private
    /// addresses and names (`plaintext.rs`); otherwise to loopback only.
    pub allow_private_ws: bool,
}

fn host_port(url: &str) -> Result<(String, u16), GatewayError> {
    let bad = |reason: &str| GatewayError::BadUrl {
        url: url.to_owned(),
        reason: reason.to_owned(),
    };
    let rest = if let Some(rest) = url.strip_prefix("ws://") {
        rest
    } else if url.starts_with("wss://") {
        return Err(bad(
            "wss (TLS) is not supported yet; reach the Gateway over loopback ws://",
        ));
    } else {
        return Err(bad("it must start with ws://"));
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || h.starts_with('[') => (
            h,
            p.parse::<u16>()
                .map_err(|_| bad("its port is not a number"))?,
        ),
        _ => (authority, 80),
    };
    if host.is_empty() {
        return Err(bad("it has no host"));
    }
    Ok((host.trim_matches(['[', ']']).to_owned(), port))
}

fn remaining(deadline: Instant) -> Option<Duration> {
    deadline
        .checked_duration_since(Instant::now())
        .filter(|d| !d.is_zero())
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// One attempt's outcome: retry (not listening yet, starting) or final.
enum Attempt {
    Connected(Box<GatewayClient>),
    Retry(GatewayError, Duration),
    Failed(GatewayError),
}

impl GatewayClient {
    /// Connect and authenticate, retrying a Gateway that does not listen yet or answers
    /// `UNAVAILABLE` (still starting) until `opts.wait_until`.
    pub fn connect(
        endpoint: &Endpoint,
        credential: &Credential,
        opts: &ConnectOptions<'_>,
    ) -> Result<GatewayClient, GatewayError> {
        loop {
            match Self::attempt(endpoint, credential, opts) {
                Attempt::Connected(c) => return Ok(*c),
                Attempt::Failed(e) => return Err(e),
                Attempt::Retry(e, delay) => {
                    let left = remaining(opts.wait_until).ok_or_else(|| match e {
                        GatewayError::Rpc { error, .. } => GatewayError::Unavailable {
                            url: endpoint.url.clone(),
                            message: error.message,
                        },
                        other => other,
                    })?;
                    std::thread::sleep(delay.min(left));
                }
            }
        }
    }

    fn attempt(endpoint: &Endpoint, credential: &Credential, opts: &ConnectOptions<'_>) -> Attempt {
        let url = endpoint.url.as_str();
        let (host, port) = match host_port(url) {
            Ok(hp) => hp,
            Err(e) => return Attempt::Failed(e),
        };
        let deadline = Instant::now() + opts.attempt_timeout;
        let unreachable = |source| GatewayError::Unreachable {
            url: url.to_owned(),
            source,
        };
        let addr = match (host.as_str(), port)
            .to_socket_addrs()
            .map(|mut a| a.next())
        {
            Ok(Some(a)) => a,
            Ok(None) => {
                return Attempt::Failed(unreachable(io::Error::new(
                    io::ErrorKind::NotFound,
                    "the host has no address",
                )))
            }
            Err(e) => return Attempt::Failed(unreachable(e)),
        };
        // Checked before any byte is sent: the secret goes with the first request.
        if let Some(reason) = super::plaintext::refusal(&host, &addr, opts.allow_private_ws) {
            return Attempt::Failed(GatewayError::Insecure {
                url: url.to_owned(),
                reason,
            });
        }
        let stream = match TcpStream::connect_timeout(&addr, opts.attempt_timeout) {
            Ok(s) => s,
            // Not listening yet: a Gateway binds its port well after writing its lock.
            Err(e) if e.kind() == io::ErrorKind::ConnectionRefused => {
                return Attempt::Retry(unreachable(e), Duration::from_millis(250))
            }
            Err(e) => return Attempt::Failed(unreachable(e)),
        };
        let _ = stream.set_nodelay(true);
        if let Err(e) = stream.set_read_timeout(Some(opts.attempt_timeout)) {
            return Attempt::Failed(unreachable(e));
        }
        // A plain client request: Host, Upgrade, key and version, and no Origin header (a
        // browser Origin would make the Gateway treat us as a browser client).
        let request = match url.into_client_request() {
            Ok(r) => r,
            Err(e) => {
                return Attempt::Failed(GatewayError::BadUrl {
                    url: url.to_owned(),
                    reason: e.to_string(),
                })
            }
        };
        let socket = match tungstenite::client(request, stream) {
            Ok((socket, _response)) => socket,
            // The read timeout fired before the upgrade was answered.
            Err(tungstenite::HandshakeError::Interrupted(_)) => {
                return Attempt::Failed(GatewayError::Timeout {
                    url: url.to_owned(),
                    what: "the WebSocket upgrade".to_owned(),
                })
            }
            Err(tungstenite::HandshakeError::Failure(e)) => {
                return Attempt::Failed(GatewayError::Protocol {
                    url: url.to_owned(),
                    message: format!("WebSocket upgrade failed: {e}"),
                })
            }
        };
        let mut client = GatewayClient {
            socket,
            url: url.to_owned(),
            hello: Hello {
                protocol: 0,
                server_version: String::new(),
                scopes: Vec::new(),
            },
            next_id: 0,
            request_timeout: opts.attempt_timeout,
        };
        match client.handshake(credential, opts, deadline) {
            Ok(()) => Attempt::Connected(Box::new(client)),
            Err(GatewayError::Rpc { method, error }) if error.code == "UNAVAILABLE" => {
                let delay = Duration::from_millis(error.retry_after_ms.unwrap_or(500).max(50));
                Attempt::Retry(GatewayError::Rpc { method, error }, delay)
            }
            Err(e) => Attempt::Failed(e),
        }
    }

    fn handshake(
        &mut self,
        credential: &Credential,
        opts: &ConnectOptions<'_>,
        deadline: Instant,
    ) -> Result<(), GatewayError> {
        // The server speaks first; anything before the challenge is ignored.
        loop {
            if let Frame::Event { event, .. } =
                self.read_frame("the connect challenge", deadline)?
            {
                if event == "connect.challenge" {
                    break;
                }
            }
        }
        let params = protocol::connect_params(
            opts.client_version,
            opts.scopes,
            credential.kind,
            &credential.secret,
        );
        let payload = match self.call_until("connect", params, deadline) {
            Ok(p) => p,
            Err(GatewayError::Rpc { error, .. })
                if error.detail_code() == Some("PROTOCOL_MISMATCH") =>
            {
                let theirs = error
                    .details
                    .as_ref()
                    .and_then(|d| d.get("expectedProtocol"))
                    .map(Value::to_string)
                    .unwrap_or_else(|| "another version".into());
                return Err(GatewayError::ProtocolMismatch {
                    url: self.url.clone(),
                    ours: protocol::PROTOCOL_VERSION,
                    theirs,
                });
            }
            Err(GatewayError::Rpc { error, .. })
                if error
                    .detail_code()
                    .is_some_and(|c| c.starts_with("AUTH_") || c == "DEVICE_IDENTITY_REQUIRED") =>
            {
                return Err(GatewayError::CredentialRejected {
                    url: self.url.clone(),
                    used: credential.describe(),
                    message: error.message,
                })
            }
            Err(e) => return Err(e),
        };
        let hello = protocol::parse_hello(&payload).map_err(|e| GatewayError::Protocol {
            url: self.url.clone(),
            message: e.to_string(),
        })?;
        if hello.protocol != protocol::PROTOCOL_VERSION {
            return Err(GatewayError::ProtocolMismatch {
                url: self.url.clone(),
                ours: protocol::PROTOCOL_VERSION,
                theirs: hello.protocol.to_string(),
            });
        }
        self.hello = hello;
        Ok(())
    }

    /// The Gateway's version (`hello-ok.server.version`).
    pub fn server_version(&self) -> &str {
        &self.hello.server_version
    }

    /// The scopes the Gateway granted.
    pub fn scopes(&self) -> &[String] {
        &self.hello.scopes
    }

    pub fn url(&self) -> &str {
        &self.url
    }

    /// Call a method and wait for its answer for at most [`Self::request_timeout`].
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, GatewayError> {
        let deadline = Instant::now() + self.request_timeout;
        self.call_until(method, params, deadline)
    }

    fn call_until(
        &mut self,
        method: &str,
        params: Value,
        deadline: Instant,
    ) -> Result<Value, GatewayError> {
        self.next_id += 1;
        let id = self.next_id.to_string();
        let text = protocol::request(&id, method, params);
        self.socket
            .send(Message::text(text))
            .map_err(|e| self.transport_error(e, method))?;
        loop {
            // Events (ticks, presence) interleave with answers; only our id ends the wait.
            if let Frame::Response { id: got, outcome } = self.read_frame(method, deadline)? {
                if got == id {
                    return outcome.map_err(|error| GatewayError::Rpc {
                        method: method.to_owned(),
                        error: Box::new(error),
                    });
                }
            }
        }
    }

    fn read_frame(&mut self, what: &str, deadline: Instant) -> Result<Frame, GatewayError> {
        loop {
            let left = remaining(deadline).ok_or_else(|| GatewayError::Timeout {
                url: self.url.clone(),
                what: what.to_owned(),
            })?;
            let _ = self.socket.get_ref().set_read_timeout(Some(left));
            let msg = self
                .socket
                .read()
                .map_err(|e| self.transport_error(e, what))?;
            match msg {
                Message::Text(text) => {
                    return protocol::parse_frame(text.as_str()).map_err(|e| {
                        GatewayError::Protocol {
                            url: self.url.clone(),
                            message: e.to_string(),
                        }
                    })
                }
                Message::Close(frame) => {
                    return Err(GatewayError::Closed {
                        url: self.url.clone(),
                        what: what.to_owned(),
                        reason: frame
                            .map(|f| f.reason.to_string())
                            .filter(|r| !r.is_empty()),
                    })
                }
                // Pings are answered by tungstenite on the next read or write.
                _ => {}
            }
        }
    }

    fn transport_error(&self, e: tungstenite::Error, what: &str) -> GatewayError {
        match e {
            tungstenite::Error::Io(io) if is_timeout(&io) => GatewayError::Timeout {
                url: self.url.clone(),
                what: what.to_owned(),
            },
            tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed => {
                GatewayError::Closed {
                    url: self.url.clone(),
                    what: what.to_owned(),
                    reason: None,
                }
            }
            // A Gateway that died (killed, crashed, its host gone) ends the stream without a
            // close frame, or resets it: the connection was lost, not another protocol.
            tungstenite::Error::Protocol(
                tungstenite::error::ProtocolError::ResetWithoutClosingHandshake,
            ) => GatewayError::Closed {
                url: self.url.clone(),
                what: what.to_owned(),
                reason: Some("the connection ended without a close frame".into()),
            },
            tungstenite::Error::Io(io)
                if matches!(
                    io.kind(),
                    io::ErrorKind::ConnectionReset
                        | io::ErrorKind::ConnectionAborted
                        | io::ErrorKind::BrokenPipe
                        | io::ErrorKind::UnexpectedEof
                ) =>
            {
                GatewayError::Closed {
                    url: self.url.clone(),
                    what: what.to_owned(),
                    reason: Some(io.to_string()),
                }
            }
            tungstenite::Error::Io(io) => GatewayError::Unreachable {
                url: self.url.clone(),
                source: io,
            },
            other => GatewayError::Protocol {
                url: self.url.clone(),
                message: other.to_string(),
            },
        }
    }

    /// Close the connection politely.
    pub fn close(mut self) {
        let _ = self.socket.close(None);
        let _ = self.socket.flush();
    }
}

#[cfg(test)]
mod tests {
    use std::net::TcpListener;
    use std::sync::mpsc;
    use std::thread;

    use serde_json::json;
    use tungstenite::handshake::server::{Request, Response};

    use super::super::discover::{CredentialSource, EndpointSource};
    use super::super::protocol::SecretKind;
    use super::*;

    /// What one connection of the fake Gateway does after the challenge, given the `connect`
    /// request it received.
    type Script = Box<dyn FnOnce(&mut WebSocket<TcpStream>, Value) + Send>;

    fn send(ws: &mut WebSocket<TcpStream>, v: Value) {
        ws.send(Message::text(v.to_string())).unwrap();
    }

    /// A Gateway that answers `connect` with `error`.
    fn refusing(error: Value) -> Script {
        Box::new(move |ws, connect| {
            send(
                ws,
                json!({"type": "res", "id": connect["id"], "ok": false, "error": error}),
            )
        })
    }

    fn recv(ws: &mut WebSocket<TcpStream>) -> Value {
        loop {
            if let Message::Text(t) = ws.read().unwrap() {
                return serde_json::from_str(t.as_str()).unwrap();
            }
        }
    }

    fn hello(id: &Value, protocol: u64) -> Value {
        json!({"type": "res", "id": id, "ok": true, "payload": {
            "type": "hello-ok", "protocol": protocol,
            "server": {"version": "2026.9.6", "connId": "c"},
            "auth": {"method": "token", "role": "operator", "scopes": ["operator.read", "operator.write"]}}})
    }

    /// A tiny Gateway on loopback: one script per accepted connection, in order. Reports
    /// whether any handshake carried an `Origin` header.
    // The handshake callback's error type is tungstenite's (an HTTP response), not ours.
    #[allow(clippy::result_large_err)]
    fn fake_gateway(scripts: Vec<Script>) -> (Endpoint, mpsc::Receiver<bool>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            for script in scripts {
                let (stream, _) = listener.accept().unwrap();
                let tx = tx.clone();
                let mut ws = tungstenite::accept_hdr(stream, |req: &Request, resp: Response| {
                    let _ = tx.send(req.headers().contains_key("origin"));
                    Ok(resp)
                })
                .unwrap();
                send(
                    &mut ws,
                    json!({"type": "event", "event": "tick", "payload": {"ts": 1}}),
                );
                send(
                    &mut ws,
                    json!({"type": "event", "event": "connect.challenge", "payload": {"nonce": "n", "ts": 1}}),
                );
                let connect = recv(&mut ws);
                assert_eq!(connect["method"], "connect");
                script(&mut ws, connect);
                let _ = ws.close(None);
                let _ = ws.flush();
            }
        });
        let endpoint = Endpoint {
            url: format!("ws://127.0.0.1:{port}"),
            source: EndpointSource::Explicit,
        };
        (endpoint, rx)
    }

    fn opts(wait: Duration) -> ConnectOptions<'static> {
        ConnectOptions {
            scopes: &["operator.read", "operator.write"],
            client_version: "0.1.0",
            wait_until: Instant::now() + wait,
            attempt_timeout: Duration::from_secs(5),
            allow_private_ws: false,
        }
    }

    fn token() -> Credential {
        Credential {
            kind: SecretKind::Token,
            source: CredentialSource::Env("OPENCLAW_GATEWAY_TOKEN"),
            secret: "s3cret".into(),
        }
    }

    #[test]
    fn retries_unavailable_then_connects_and_answers_by_id() {
        let unavailable = refusing(
            json!({"code": "UNAVAILABLE", "message": "gateway starting; retry shortly",
                "retryable": true, "retryAfterMs": 20}),
        );
        let serve: Script = Box::new(|ws, connect| {
            assert_eq!(connect["params"]["auth"], json!({"token": "s3cret"}));
            assert_eq!(connect["params"]["client"]["id"], "cli");
            send(ws, hello(&connect["id"], 4));
            let req = recv(ws);
            assert_eq!(req["method"], "sessions.list");
            assert_eq!(req["params"], json!({"limit": 1}));
            // An event and a stale answer first: only the request's own id ends the wait.
            send(
                ws,
                json!({"type": "event", "event": "presence", "payload": {}}),
            );
            send(
                ws,
                json!({"type": "res", "id": "stale", "ok": true, "payload": 0}),
            );
            send(
                ws,
                json!({"type": "res", "id": req["id"], "ok": true, "payload": {"count": 1}}),
            );
            let req = recv(ws);
            send(
                ws,
                json!({"type": "res", "id": req["id"], "ok": false, "error": {
                "code": "INVALID_REQUEST", "message": "Cannot delete the main session (agent:main:main)."}}),
            );
        });
        let (endpoint, origins) = fake_gateway(vec![unavailable, serve]);
        let mut c =
            GatewayClient::connect(&endpoint, &token(), &opts(Duration::from_secs(10))).unwrap();
        assert_eq!(c.server_version(), "2026.9.6");
        assert_eq!(c.scopes(), ["operator.read", "operator.write"]);
        assert_eq!(
            c.call("sessions.list", json!({"limit": 1})).unwrap(),
            json!({"count": 1})
        );
        let err = c
            .call("sessions.delete", json!({"key": "agent:main:main"}))
            .unwrap_err();
        let GatewayError::Rpc { method, error } = err else {
            panic!("{err:?}")
        };
        assert_eq!(
            (method.as_str(), error.code.as_str()),
            ("sessions.delete", "INVALID_REQUEST")
        );
        c.close();
        assert_eq!(
            origins.iter().take(2).collect::<Vec<_>>(),
            vec![false, false]
        );
    }

    #[test]
    fn unavailable_past_the_wait_is_reported_as_starting() {
        let unavailable = || -> Script {
            Box::new(|ws, connect| {
                send(
                    ws,
                    json!({"type": "res", "id": connect["id"], "ok": false, "error": {
                    "code": "UNAVAILABLE", "message": "gateway starting; retry shortly", "retryAfterMs": 10}}),
                );
            })
        };
        let (endpoint, _) = fake_gateway((0..50).map(|_| unavailable()).collect());
        let err = GatewayClient::connect(&endpoint, &token(), &opts(Duration::from_millis(60)))
            .unwrap_err();
        assert!(matches!(err, GatewayError::Unavailable { .. }), "{err:?}");
    }

    #[test]
    fn a_refused_token_names_its_source_not_its_value() {
        let refuse = refusing(
            json!({"code": "INVALID_REQUEST", "message": "unauthorized: gateway token mismatch",
                "details": {"code": "AUTH_TOKEN_MISMATCH"}}),
        );
        let (endpoint, _) = fake_gateway(vec![refuse]);
        let err =
            GatewayClient::connect(&endpoint, &token(), &opts(Duration::from_secs(5))).unwrap_err();
        let text = err.to_string();
        assert!(
            matches!(err, GatewayError::CredentialRejected { .. }),
            "{err:?}"
        );
        assert!(
            text.contains("the environment variable OPENCLAW_GATEWAY_TOKEN"),
            "{text}"
        );
        assert!(!text.contains("s3cret"), "{text}");
    }

    #[test]
    fn another_protocol_is_refused_either_way() {
        let theirs = refusing(
            json!({"code": "INVALID_REQUEST", "message": "protocol mismatch",
                "details": {"code": "PROTOCOL_MISMATCH", "expectedProtocol": 5}}),
        );
        let ours: Script = Box::new(|ws, connect| send(ws, hello(&connect["id"], 5)));
        let (endpoint, _) = fake_gateway(vec![theirs, ours]);
        for _ in 0..2 {
            let err = GatewayClient::connect(&endpoint, &token(), &opts(Duration::from_secs(5)))
                .unwrap_err();
            let GatewayError::ProtocolMismatch { ours, theirs, .. } = err else {
                panic!("{err:?}")
            };
            assert_eq!((ours, theirs.as_str()), (4, "5"));
        }
    }

    #[test]
    fn a_silent_gateway_times_out() {
        let silent: Script = Box::new(|ws, connect| {
            send(ws, hello(&connect["id"], 4));
            let _ = recv(ws);
            thread::sleep(Duration::from_millis(500));
        });
        let (endpoint, _) = fake_gateway(vec![silent]);
        let mut c =
            GatewayClient::connect(&endpoint, &token(), &opts(Duration::from_secs(5))).unwrap();
        c.request_timeout = Duration::from_millis(100);
        let err = c.call("sessions.list", json!({})).unwrap_err();
        assert!(matches!(err, GatewayError::Timeout { .. }), "{err:?}");
    }

    /// A Gateway that dies with a request in flight (no close frame, the socket dropped) is a
    /// lost connection, never "another protocol" (issue 55).
    #[test]
    fn a_gateway_that_dies_mid_call_is_a_closed_connection() {
        let dies: Script = Box::new(|ws, connect| {
            send(ws, hello(&connect["id"], 4));
            let _ = recv(ws);
            // Dropped without a close frame, as a killed process's socket ends.
            let stream = ws.get_mut().try_clone().unwrap();
            stream.shutdown(std::net::Shutdown::Both).unwrap();
        });
        let (endpoint, _) = fake_gateway(vec![dies]);
        let mut c =
            GatewayClient::connect(&endpoint, &token(), &opts(Duration::from_secs(5))).unwrap();
        let err = c.call("sessions.delete", json!({"key": "k"})).unwrap_err();
        assert!(
            matches!(&err, GatewayError::Closed { what, .. } if what == "sessions.delete"),
            "{err:?}"
        );
    }

    #[test]
    fn a_listener_that_never_upgrades_times_out() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let endpoint = Endpoint {
            url: format!("ws://{}", listener.local_addr().unwrap()),
            source: EndpointSource::Default,
        };
        let held = thread::spawn(move || {
            let (stream, _) = listener.accept().unwrap();
            thread::sleep(Duration::from_millis(400));
            drop(stream);
        });
        let mut o = opts(Duration::from_secs(5));
        o.attempt_timeout = Duration::from_millis(150);
        let err = GatewayClient::connect(&endpoint, &token(), &o).unwrap_err();
        assert!(
            matches!(&err, GatewayError::Timeout { what, .. } if what == "the WebSocket upgrade"),
            "{err:?}"
        );
        held.join().unwrap();
    }

    #[test]
    fn nothing_listening_is_unreachable_once_the_wait_is_over() {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let endpoint = Endpoint {
            url: format!("ws://127.0.0.1:{port}"),
            source: EndpointSource::Default,
        };
        let started = Instant::now();
        let err = GatewayClient::connect(&endpoint, &token(), &opts(Duration::from_millis(300)))
            .unwrap_err();
        assert!(matches!(err, GatewayError::Unreachable { .. }), "{err:?}");
        assert!(started.elapsed() >= Duration::from_millis(250));
    }

    /// A private address is refused before any connection, so its listener never sees the
    /// secret (issue 55); with OpenClaw's break-glass the client tries it.
    #[test]
    fn plaintext_to_another_host_is_refused_before_connecting() {
        let endpoint = Endpoint {
            url: "ws://10.255.255.1:18789".into(),
            source: EndpointSource::Explicit,
        };
        let err = GatewayClient::connect(&endpoint, &token(), &opts(Duration::ZERO)).unwrap_err();
        assert!(
            matches!(&err, GatewayError::Insecure { reason, .. } if reason.contains("in clear")),
            "{err:?}"
        );
        assert!(!err.to_string().contains("s3cret"), "{err}");
        let mut o = opts(Duration::ZERO);
        o.allow_private_ws = true;
        o.attempt_timeout = Duration::from_millis(50);
        let err = GatewayClient::connect(&endpoint, &token(), &o).unwrap_err();
        assert!(!matches!(err, GatewayError::Insecure { .. }), "{err:?}");
    }

    #[test]
    fn urls() {
        assert_eq!(
            host_port("ws://127.0.0.1:39609").unwrap(),
            ("127.0.0.1".into(), 39609)
        );
        assert_eq!(host_port("ws://[::1]:4/x").unwrap(), ("::1".into(), 4));
        assert_eq!(host_port("ws://gw").unwrap(), ("gw".into(), 80));
        assert!(matches!(
            host_port("wss://h:1"),
            Err(GatewayError::BadUrl { .. })
        ));
        assert!(matches!(
            host_port("http://h:1"),
            Err(GatewayError::BadUrl { .. })
        ));
        assert!(matches!(
            host_port("ws://h:x"),
            Err(GatewayError::BadUrl { .. })
        ));
        assert!(matches!(
            host_port("ws://:1"),
            Err(GatewayError::BadUrl { .. })
        ));
    }
}
