//! Where the live Gateway of a state dir listens and which secret it wants
//! (docs/openclaw/GATEWAY.md §4-§5), read from its lock file, the environment and the config.

use std::fmt;
use std::path::PathBuf;

use serde_json::Value;

use crate::custody::{OwnerState, OwnershipProbe};
use crate::paths::Config;

use super::protocol::SecretKind;

/// OpenClaw's `DEFAULT_GATEWAY_PORT`.
pub const DEFAULT_PORT: u16 = 18789;

/// Where a Gateway URL came from, for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EndpointSource {
    /// `--gateway-url`.
    Explicit,
    /// The live Gateway's lock file (its `port`).
    LockFile(PathBuf),
    EnvPort,
    ConfigPort,
    ProfilePort,
    Default,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Endpoint {
    pub url: String,
    pub source: EndpointSource,
}

/// The environment variables discovery reads, passed in so tests need no process env.
pub trait Env {
    fn var(&self, name: &str) -> Option<String>;
}

/// The process environment.
pub struct ProcessEnv;

impl Env for ProcessEnv {
    fn var(&self, name: &str) -> Option<String> {
        std::env::var(name).ok()
    }
}

fn non_empty(s: Option<String>) -> Option<String> {
    s.map(|s| s.trim().to_owned()).filter(|s| !s.is_empty())
}

/// `OPENCLAW_GATEWAY_PORT` as OpenClaw parses it: `PORT`, `HOST:PORT` or `[IPV6]:PORT`.
fn parse_env_port(raw: &str) -> Option<u16> {
    let raw = raw.trim();
    let digits = if raw.bytes().all(|b| b.is_ascii_digit()) {
        raw
    } else if let Some(rest) = raw.strip_prefix('[') {
        rest.split_once("]:")?.1
    } else {
        let (host, port) = raw.split_once(':')?;
        if host.is_empty() || port.contains(':') {
            return None;
        }
        port
    };
    digits.parse::<u16>().ok().filter(|p| *p > 0)
}

/// OpenClaw's per-profile port: FNV-1a of the profile name, in 20000..60000.
fn profile_port(profile: &str) -> u16 {
    let mut hash: u32 = 2_166_136_261;
    for b in profile.as_bytes() {
        hash = (hash ^ u32::from(*b)).wrapping_mul(16_777_619);
    }
    (20_000 + hash % 40_000) as u16
}

fn uses_tls(config: &Config) -> bool {
    config
        .root
        .pointer("/gateway/tls/enabled")
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// The URL of the state dir's Gateway: `explicit` (`--gateway-url`) first, then the port in
/// the lock file of a live Gateway, then `OPENCLAW_GATEWAY_PORT`, `gateway.port`, the
/// profile's port and 18789, on loopback (`wss` when `gateway.tls.enabled`).
pub fn endpoint(
    explicit: Option<&str>,
    probe: &OwnershipProbe,
    config: &Config,
    env: &dyn Env,
) -> Endpoint {
    if let Some(url) = explicit {
        return Endpoint {
            url: url.to_owned(),
            source: EndpointSource::Explicit,
        };
    }
    let scheme = if uses_tls(config) { "wss" } else { "ws" };
    let at = |port: u16, source| Endpoint {
        url: format!("{scheme}://127.0.0.1:{port}"),
        source,
    };
    let locked = probe.locks.iter().find_map(|l| {
        let port = l.payload.as_ref()?.port?;
        let port = u16::try_from(port).ok().filter(|p| *p > 0)?;
        (l.state == OwnerState::Live).then(|| (port, l.path.clone()))
    });
    if let Some((port, path)) = locked {
        return at(port, EndpointSource::LockFile(path));
    }
    if let Some(port) = non_empty(env.var("OPENCLAW_GATEWAY_PORT"))
        .as_deref()
        .and_then(parse_env_port)
    {
        return at(port, EndpointSource::EnvPort);
    }
    if let Some(port) = config
        .root
        .pointer("/gateway/port")
        .and_then(Value::as_u64)
        .and_then(|p| u16::try_from(p).ok())
        .filter(|p| *p > 0)
    {
        return at(port, EndpointSource::ConfigPort);
    }
    if let Some(profile) =
        non_empty(env.var("OPENCLAW_PROFILE")).filter(|p| !p.eq_ignore_ascii_case("default"))
    {
        return at(profile_port(&profile), EndpointSource::ProfilePort);
    }
    at(DEFAULT_PORT, EndpointSource::Default)
}

/// Where a secret came from. Shown in messages; the secret itself never is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CredentialSource {
    /// `--token` / `--password-file`.
    Explicit,
    /// A config key (`gateway.auth.token`, `gateway.auth.password`) of this file.
    Config { key: &'static str, file: PathBuf },
    /// An environment variable.
    Env(&'static str),
}

impl fmt::Display for CredentialSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CredentialSource::Explicit => f.write_str("the command line"),
            CredentialSource::Config { key, file } => write!(f, "{key} in {}", file.display()),
            CredentialSource::Env(var) => write!(f, "the environment variable {var}"),
        }
    }
}

/// A token or password for the Gateway. `Debug` does not show the secret.
#[derive(Clone)]
pub struct Credential {
    pub kind: SecretKind,
    pub source: CredentialSource,
    pub(super) secret: String,
}

impl fmt::Debug for Credential {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credential")
            .field("kind", &self.kind)
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl Credential {
    pub fn explicit(kind: SecretKind, secret: &str) -> Self {
        Credential {
            kind,
            source: CredentialSource::Explicit,
            secret: secret.trim().to_owned(),
        }
    }

    /// What it names, e.g. "the token from gateway.auth.token in <file>".
    pub fn describe(&self) -> String {
        let what = match self.kind {
            SecretKind::Token => "token",
            SecretKind::Password => "password",
        };
        format!("the {what} from {}", self.source)
    }
}

/// No usable secret: what was looked at, in order, and why a config value was not usable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CredentialLookup {
    pub looked_at: Vec<String>,
    /// A config value that is a reference to OpenClaw's secret store, which this tool does not
    /// read (`OPENCLAW_GATEWAY_TOKEN` or `--token` stand in for it).
    pub secret_ref: Option<&'static str>,
}

impl fmt::Display for CredentialLookup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no Gateway token or password: looked at {}",
            self.looked_at.join(", ")
        )?;
        if let Some(key) = self.secret_ref {
            write!(
                f,
                "; {key} refers to OpenClaw's secret store, which this tool does not read"
            )?;
        }
        Ok(())
    }
}

/// The secret for a local Gateway, as OpenClaw's CLI picks it for a local Gateway (config
/// first, then the environment): `gateway.auth.token`, `OPENCLAW_GATEWAY_TOKEN`, then
/// `gateway.auth.password`, `OPENCLAW_GATEWAY_PASSWORD`. `gateway.auth.mode: "password"`
/// puts the password first.
pub fn credential(config: &Config, env: &dyn Env) -> Result<Credential, CredentialLookup> {
    let file = config.path.clone().unwrap_or_default();
    // Where a key was looked for, as a message says it.
    let place = |key: &str| match &config.path {
        Some(path) => format!("{key} in {}", path.display()),
        None => format!("{key} (no config file was found)"),
    };
    let mode = config
        .root
        .pointer("/gateway/auth/mode")
        .and_then(Value::as_str);
    let mut order = [
        (
            SecretKind::Token,
            "gateway.auth.token",
            "/gateway/auth/token",
            "OPENCLAW_GATEWAY_TOKEN",
        ),
        (
            SecretKind::Password,
            "gateway.auth.password",
            "/gateway/auth/password",
            "OPENCLAW_GATEWAY_PASSWORD",
        ),
    ];
    if mode == Some("password") {
        order.reverse();
    }
    let mut looked_at = Vec::new();
    let mut secret_ref = None;
    for (kind, key, pointer, var) in order {
        match config.root.pointer(pointer) {
            Some(Value::String(s)) if !s.trim().is_empty() => {
                return Ok(Credential {
                    kind,
                    source: CredentialSource::Config {
                        key,
                        file: file.clone(),
                    },
                    secret: s.trim().to_owned(),
                })
            }
            Some(Value::Object(_)) => secret_ref = secret_ref.or(Some(key)),
            _ => {}
        }
        looked_at.push(place(key));
        if let Some(s) = non_empty(env.var(var)) {
            return Ok(Credential {
                kind,
                source: CredentialSource::Env(var),
                secret: s,
            });
        }
        looked_at.push(format!("the environment variable {var}"));
    }
    Err(CredentialLookup {
        looked_at,
        secret_ref,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use serde_json::json;

    use super::*;
    use crate::custody::{CoordinatorState, LockPayload, LockReport, OwnerReport};

    struct Vars(HashMap<&'static str, &'static str>);

    impl Env for Vars {
        fn var(&self, name: &str) -> Option<String> {
            self.0.get(name).map(|s| s.to_string())
        }
    }

    fn vars(pairs: &[(&'static str, &'static str)]) -> Vars {
        Vars(pairs.iter().copied().collect())
    }

    fn config(root: Value) -> Config {
        Config {
            path: Some(PathBuf::from("state/openclaw.json")),
            root,
        }
    }

    fn probe_with(state: OwnerState, port: Option<i64>) -> OwnershipProbe {
        let payload = LockPayload {
            pid: Some(1),
            owner_id: None,
            created_at: None,
            config_path: None,
            state_dir: None,
            role: None,
            start_time: None,
            port,
        };
        OwnershipProbe {
            owner: OwnerReport {
                state,
                role: None,
                pid: Some(1),
                since: None,
                uid: None,
            },
            locks: vec![LockReport {
                path: PathBuf::from("tmp/openclaw-0/gateway.state.lock"),
                kind: "state",
                exists: true,
                coordinator: CoordinatorState::Missing,
                payload: Some(payload),
                state,
                reason: String::new(),
                uid: Some(0),
            }],
        }
    }

    #[test]
    fn endpoint_prefers_the_live_lock_then_env_config_profile_default() {
        let cfg = config(json!({"gateway": {"port": 4100}}));
        let live = probe_with(OwnerState::Live, Some(39609));
        let e = endpoint(
            None,
            &live,
            &cfg,
            &vars(&[("OPENCLAW_GATEWAY_PORT", "5000")]),
        );
        assert_eq!(e.url, "ws://127.0.0.1:39609");
        assert!(matches!(e.source, EndpointSource::LockFile(_)));
        let stale = probe_with(OwnerState::Stale, Some(39609));
        let e = endpoint(
            None,
            &stale,
            &cfg,
            &vars(&[("OPENCLAW_GATEWAY_PORT", "host:5000")]),
        );
        assert_eq!(
            (e.url.as_str(), e.source),
            ("ws://127.0.0.1:5000", EndpointSource::EnvPort)
        );
        let e = endpoint(
            None,
            &stale,
            &cfg,
            &vars(&[("OPENCLAW_GATEWAY_PORT", "a:b:5000")]),
        );
        assert_eq!(
            (e.url.as_str(), e.source),
            ("ws://127.0.0.1:4100", EndpointSource::ConfigPort)
        );
        let bare = config(json!({}));
        let e = endpoint(None, &stale, &bare, &vars(&[("OPENCLAW_PROFILE", "work")]));
        assert_eq!(e.source, EndpointSource::ProfilePort);
        let e = endpoint(None, &stale, &bare, &vars(&[]));
        assert_eq!(
            (e.url.as_str(), e.source),
            ("ws://127.0.0.1:18789", EndpointSource::Default)
        );
        let tls = config(json!({"gateway": {"tls": {"enabled": true}}}));
        assert!(endpoint(None, &stale, &tls, &vars(&[]))
            .url
            .starts_with("wss://"));
        let e = endpoint(Some("ws://10.0.0.1:1"), &live, &cfg, &vars(&[]));
        assert_eq!(
            (e.url.as_str(), e.source),
            ("ws://10.0.0.1:1", EndpointSource::Explicit)
        );
    }

    #[test]
    fn env_port_forms() {
        assert_eq!(parse_env_port("18789"), Some(18789));
        assert_eq!(parse_env_port("[::1]:4000"), Some(4000));
        assert_eq!(parse_env_port("localhost:4000"), Some(4000));
        assert_eq!(parse_env_port(":4000"), None);
        assert_eq!(parse_env_port("0"), None);
        assert_eq!(parse_env_port("99999"), None);
    }

    #[test]
    fn profile_port_is_openclaws_fnv_hash() {
        // OpenClaw 2026.9.6's resolveGatewayPort({}, {OPENCLAW_PROFILE: "work"}), run once.
        assert_eq!(profile_port("work"), 41984);
    }

    #[test]
    fn credential_takes_config_then_env_and_says_where_it_looked() {
        let cfg = config(json!({"gateway": {"auth": {"token": " t1 "}}}));
        let c = credential(&cfg, &vars(&[("OPENCLAW_GATEWAY_TOKEN", "t2")])).unwrap();
        assert_eq!((c.kind, c.secret.as_str()), (SecretKind::Token, "t1"));
        assert!(!format!("{c:?}").contains("t1"));
        assert_eq!(
            c.describe(),
            "the token from gateway.auth.token in state/openclaw.json"
        );
        let bare = config(json!({}));
        let c = credential(&bare, &vars(&[("OPENCLAW_GATEWAY_TOKEN", "t2")])).unwrap();
        assert_eq!(c.source, CredentialSource::Env("OPENCLAW_GATEWAY_TOKEN"));
        let c = credential(&bare, &vars(&[("OPENCLAW_GATEWAY_PASSWORD", "p")])).unwrap();
        assert_eq!(c.kind, SecretKind::Password);
        let pw_mode = config(
            json!({"gateway": {"auth": {"mode": "password", "password": "p", "token": "t"}}}),
        );
        assert_eq!(
            credential(&pw_mode, &vars(&[])).unwrap().kind,
            SecretKind::Password
        );
        let no_file = Config::default();
        assert_eq!(
            credential(&no_file, &vars(&[])).unwrap_err().looked_at[0],
            "gateway.auth.token (no config file was found)"
        );
        let missing = credential(&bare, &vars(&[("OPENCLAW_GATEWAY_TOKEN", "  ")])).unwrap_err();
        assert_eq!(
            missing.looked_at,
            vec![
                "gateway.auth.token in state/openclaw.json",
                "the environment variable OPENCLAW_GATEWAY_TOKEN",
                "gateway.auth.password in state/openclaw.json",
                "the environment variable OPENCLAW_GATEWAY_PASSWORD",
            ]
        );
        assert!(missing
            .to_string()
            .starts_with("no Gateway token or password: looked at gateway.auth.token in "));
        let reference =
            config(json!({"gateway": {"auth": {"token": {"source": "env", "id": "X"}}}}));
        let unread = credential(&reference, &vars(&[])).unwrap_err();
        assert_eq!(unread.secret_ref, Some("gateway.auth.token"));
        assert!(unread.to_string().ends_with(
            "; gateway.auth.token refers to OpenClaw's secret store, which this tool does not read"
        ));
    }
}
