//! OpenClaw's Gateway, reached through its own RPC (docs/openclaw/GATEWAY.md): where the live
//! Gateway of a state dir listens, which secret it wants, and a blocking client. Everything
//! that knows the wire protocol is in `protocol.rs`.

mod client;
mod discover;
mod plaintext;
mod protocol;

pub use client::{ConnectOptions, GatewayClient, GatewayError};
pub use discover::{
    credential, endpoint, Credential, CredentialLookup, CredentialSource, Endpoint, EndpointSource,
    Env, ProcessEnv, DEFAULT_PORT,
};
pub use plaintext::ALLOW_PRIVATE_WS;
pub use protocol::{RpcError, SecretKind, PROTOCOL_VERSION};

/// The Gateway a run went through, for its report (`"via": "gateway"`).
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GatewayRoute {
    pub url: String,
    /// The OpenClaw release the Gateway runs (its `hello-ok`).
    pub version: String,
    /// The scopes it granted.
    pub scopes: Vec<String>,
}

/// The scopes the session commands need: read for lists and resolution, write for the common
/// `sessions.patch` fields, admin for `sessions.delete` and the other patch fields.
pub const SESSION_SCOPES: &[&str] = &["operator.read", "operator.write", "operator.admin"];
