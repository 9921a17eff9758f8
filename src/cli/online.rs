//! The binary's side of the online route (`ops::online`, docs/openclaw/GATEWAY.md): whether a
//! command goes through the live Gateway of the state dir, where that Gateway listens, and
//! which credential it gets (never printed).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;

use openclaw_sessions::custody::{OwnerState, OwnershipProbe};
use openclaw_sessions::gateway::{
    self, ConnectOptions, Credential, GatewayClient, GatewayError, ProcessEnv, SecretKind,
};
use openclaw_sessions::ops::online::GatewayRoute;
use openclaw_sessions::paths::StateLayout;
use openclaw_sessions::Error;

/// Where the Gateway is and the secret it wants (as OpenClaw's own CLI takes them).
#[derive(Debug, Clone, Default, Args)]
pub struct GatewayArgs {
    /// The live Gateway's URL (default: the port in its lock file, then
    /// OPENCLAW_GATEWAY_PORT, gateway.port, 18789, on loopback).
    #[arg(long, value_name = "URL")]
    pub gateway_url: Option<String>,
    /// The Gateway token (default: gateway.auth.token, then OPENCLAW_GATEWAY_TOKEN; the
    /// password the same way). Other users can read it in `ps`: prefer --token-file or
    /// OPENCLAW_GATEWAY_TOKEN.
    #[arg(long, value_name = "TOKEN", conflicts_with_all = ["password_file", "token_file"])]
    pub token: Option<String>,
    /// Read the Gateway token from FILE (its first 16 KiB, trimmed), as OpenClaw's --token-file.
    #[arg(long, value_name = "FILE", conflicts_with = "password_file")]
    pub token_file: Option<PathBuf>,
    /// Read the Gateway password from FILE.
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
}

/// OpenClaw's limit on a secret file (`DEFAULT_SECRET_FILE_MAX_BYTES`).
const SECRET_FILE_MAX_BYTES: u64 = 16 * 1024;

/// A token or password read from a file: at most 16 KiB, not empty once trimmed.
fn secret_file(path: &std::path::Path, kind: SecretKind) -> Result<Credential, Error> {
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(SECRET_FILE_MAX_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| Error::io(path, e))?;
    let what = match kind {
        SecretKind::Token => "token",
        SecretKind::Password => "password",
    };
    if text.len() as u64 > SECRET_FILE_MAX_BYTES {
        return Err(Error::invalid(format!(
            "the {what} file {} is larger than 16 KiB",
            path.display()
        )));
    }
    if text.trim().is_empty() {
        return Err(Error::invalid(format!(
            "the {what} file {} is empty",
            path.display()
        )));
    }
    Ok(Credential::explicit(kind, &text))
}

/// `patch`, `archive`, `unarchive`, `delete`, `prune`: through a live Gateway, or `--offline`.
#[derive(Debug, Clone, Default, Args)]
pub struct OnlineArgs {
    /// Never go through a live Gateway: while one owns the state dir, refuse (exit 75) as the
    /// offline commands do.
    #[arg(long)]
    pub offline: bool,
    #[command(flatten)]
    pub gateway: GatewayArgs,
}

/// The owner route (docs/openclaw/RELEASES.md §8): a change written by the installed OpenClaw
/// package's own code. Taken by itself offline on a store of a release this tool does not
/// write; these options take it on any store.
#[derive(Debug, Clone, Args)]
pub struct OwnerArgs {
    /// Write through the installed OpenClaw package's own code (its plugin SDK; for prune, its
    /// own `sessions cleanup`) instead of this tool's writer, offline; it must be the release
    /// that owns the store.
    #[arg(long)]
    pub via_openclaw: bool,
    /// The OpenClaw package to write through: its directory or its `openclaw.mjs` (default:
    /// `openclaw` on PATH, as npm links it). Implies --via-openclaw.
    #[arg(long, value_name = "PATH")]
    pub openclaw: Option<std::path::PathBuf>,
}

/// The commands that go through a live Gateway (the others have no RPC).
pub const ONLINE_COMMANDS: [&str; 5] = ["patch", "archive", "unarchive", "delete", "prune"];

/// The live owner, when it is a Gateway of this host.
pub fn live_gateway(probe: &OwnershipProbe) -> bool {
    probe.owner.state == OwnerState::Live && probe.owner.role.as_deref() == Some("gateway")
}

/// The owner as a refusal names it: "the Gateway (pid 123)".
fn owner_words(probe: &OwnershipProbe) -> String {
    match probe.owner.pid {
        Some(pid) => format!("the live Gateway (pid {pid})"),
        None => "the live Gateway".to_string(),
    }
}

fn credential(
    layout: &StateLayout,
    args: &GatewayArgs,
    probe: &OwnershipProbe,
) -> Result<Credential, Error> {
    if let Some(token) = &args.token {
        return Ok(Credential::explicit(SecretKind::Token, token));
    }
    if let Some(path) = &args.token_file {
        return secret_file(path, SecretKind::Token);
    }
    if let Some(path) = &args.password_file {
        return secret_file(path, SecretKind::Password);
    }
    gateway::credential(&layout.config, &ProcessEnv).map_err(|lookup| Error::OwnerUnavailable {
        message: format!(
            "{} owns the state dir {}, and this command would go through it, but found {lookup}",
            owner_words(probe),
            layout.state_dir.display()
        ),
        hint: Some(
            "give --token-file FILE or --password-file FILE, or set OPENCLAW_GATEWAY_TOKEN; or stop the Gateway and run it offline"
                .into(),
        ),
    })
}

/// Connect to the live Gateway of `layout`, within `wait` seconds for one still starting.
pub fn connect(
    layout: &StateLayout,
    probe: &OwnershipProbe,
    args: &GatewayArgs,
    wait: Option<u64>,
) -> Result<(GatewayClient, GatewayRoute), Error> {
    let credential = credential(layout, args, probe)?;
    let endpoint = gateway::endpoint(
        args.gateway_url.as_deref(),
        probe,
        &layout.config,
        &ProcessEnv,
    );
    let options = ConnectOptions {
        scopes: gateway::SESSION_SCOPES,
        client_version: env!("CARGO_PKG_VERSION"),
        wait_until: Instant::now() + Duration::from_secs(wait.unwrap_or(0)),
        attempt_timeout: Duration::from_secs(15),
        allow_private_ws: gateway::Env::var(&ProcessEnv, gateway::ALLOW_PRIVATE_WS).as_deref()
            == Some("1"),
    };
    let client = GatewayClient::connect(&endpoint, &credential, &options).map_err(|e| {
        let hint = match &e {
            GatewayError::CredentialRejected { .. } => {
                "give the Gateway's own secret (--token-file, --password-file, OPENCLAW_GATEWAY_TOKEN), or stop the Gateway and run it offline"
            }
            GatewayError::Insecure { .. } => {
                "give a loopback --gateway-url (ws://127.0.0.1:PORT; a remote Gateway through `ssh -L PORT:127.0.0.1:PORT HOST`)"
            }
            GatewayError::Unavailable { .. } | GatewayError::Unreachable { .. } => {
                "a Gateway that is starting needs up to a minute: pass --wait 60s; or give --gateway-url"
            }
            _ => "stop the Gateway and run it offline, or give --gateway-url",
        };
        Error::OwnerUnavailable {
            message: format!(
                "{} owns the state dir {}, and going through it failed: {e}",
                owner_words(probe),
                layout.state_dir.display()
            ),
            hint: Some(hint.into()),
        }
    })?;
    let route = GatewayRoute {
        url: client.url().to_string(),
        version: client.server_version().to_string(),
        scopes: client.scopes().to_vec(),
    };
    Ok((client, route))
}

/// Whether this tool reaches the live Gateway (`custody status`): where, which release, which
/// scopes, or why not (the credential is never shown).
#[derive(Debug, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reach {
    pub reachable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub scopes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Reach {
    pub fn describe(&self) -> String {
        match (&self.url, &self.version, &self.error) {
            (Some(url), Some(version), None) => format!(
                "reachable at {url} (OpenClaw {version}), scopes {}",
                if self.scopes.is_empty() {
                    "none".to_string()
                } else {
                    self.scopes.join(", ")
                }
            ),
            (_, _, Some(e)) => format!("not reachable: {e}"),
            _ => "not reachable".to_string(),
        }
    }
}

/// Connect once and close (no wait for a Gateway still starting).
pub fn reach(layout: &StateLayout, probe: &OwnershipProbe, args: &GatewayArgs) -> Reach {
    match connect(layout, probe, args, None) {
        Ok((client, route)) => {
            client.close();
            Reach {
                reachable: true,
                url: Some(route.url),
                version: Some(route.version),
                scopes: route.scopes,
                error: None,
            }
        }
        Err(e) => Reach {
            reachable: false,
            url: None,
            version: None,
            scopes: Vec::new(),
            error: Some(e.to_string()),
        },
    }
}

/// A refusal of custody while a Gateway owns the state dir, said for what the command is: one
/// with no RPC runs only offline; one that has it was told `--offline`.
pub fn explain_refusal(e: anyhow::Error, label: &str, layout: &StateLayout) -> anyhow::Error {
    let e = name_the_owners_command(e, label, layout);
    let Some(Error::OwnerUnavailable { message, hint }) = e.downcast_ref::<Error>() else {
        return e;
    };
    if !live_gateway(&openclaw_sessions::custody::probe(layout)) {
        return e;
    }
    let label = if label == "doctor" {
        "doctor --fix"
    } else {
        label
    };
    let why = if ONLINE_COMMANDS.contains(&label) {
        format!("`{label} --offline` does not go through it")
    } else {
        format!("`{label}` has no Gateway RPC, so it runs only while no Gateway owns the state dir")
    };
    Error::OwnerUnavailable {
        message: format!("{message}; {why}"),
        hint: hint.clone(),
    }
    .into()
}

/// A change refused on a store of a newer release, by a command that neither the Gateway's RPC
/// nor the owner route carries (`doctor --fix`, `migrate`, `backup restore`, ...): the generic
/// hint ("the same command goes through its Gateway") would not work for it, so the hint names
/// that release's own command instead (docs/openclaw/RELEASES.md §8).
fn name_the_owners_command(e: anyhow::Error, label: &str, layout: &StateLayout) -> anyhow::Error {
    use openclaw_sessions::remedy::Remedy;
    let Some(err) = e.downcast_ref::<Error>() else {
        return e;
    };
    if err.remedy() != Some(Remedy::OwnerWrites) || ONLINE_COMMANDS.contains(&label) {
        return e;
    }
    let Some(owner) = openclaw_sessions::store::releases::newer_owner(
        &openclaw_sessions::status::database_schemas(layout),
    ) else {
        return e;
    };
    let words = owner.words();
    let (shown, own) = match label {
        "doctor" => ("doctor --fix", "`openclaw doctor --fix`"),
        "restore" => ("backup restore", "`openclaw` commands"),
        _ => (label, "`openclaw` commands"),
    };
    Error::UnsupportedSchema {
        message: err.to_string(),
        hint: Some(format!(
            "`{shown}` goes neither through {words}'s Gateway (it has no RPC) nor through its installed code: run {words}'s own {own} offline"
        )),
    }
    .with_remedy(Remedy::OwnerWrites)
    .into()
}
