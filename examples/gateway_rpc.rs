//! One RPC through the library's Gateway client, for the reference suite
//! (tests/reference/checks-gateway.sh: the client alone, beside the commands that use it):
//!
//!   gateway_rpc STATE_DIR METHOD [PARAMS_JSON]
//!
//! Finds the live Gateway of STATE_DIR (its lock file, else OPENCLAW_GATEWAY_PORT, gateway.port,
//! 18789) and its secret (gateway.auth.token, OPENCLAW_GATEWAY_TOKEN, then the password), waits
//! up to GATEWAY_RPC_WAIT_SECS (default 60) for a Gateway still starting, calls METHOD and
//! prints `{"url", "serverVersion", "scopes", "result"}` as one JSON line.

use std::time::{Duration, Instant};

use openclaw_sessions::gateway::{self, ConnectOptions, GatewayClient, ProcessEnv};
use openclaw_sessions::paths::{DiscoverOptions, Environment, StateLayout};

fn main() {
    if let Err(e) = run() {
        eprintln!("gateway_rpc: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [state_dir, method, rest @ ..] = args.as_slice() else {
        return Err("usage: gateway_rpc STATE_DIR METHOD [PARAMS_JSON]".into());
    };
    let params: serde_json::Value = match rest {
        [] => serde_json::json!({}),
        [p] => serde_json::from_str(p)?,
        _ => return Err("usage: gateway_rpc STATE_DIR METHOD [PARAMS_JSON]".into()),
    };
    let wait: u64 = std::env::var("GATEWAY_RPC_WAIT_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let layout = StateLayout::discover(
        &DiscoverOptions {
            state_dir: Some(state_dir.into()),
            ..Default::default()
        },
        &Environment::from_process(),
    )?;
    let probe = openclaw_sessions::custody::probe(&layout);
    let endpoint = gateway::endpoint(None, &probe, &layout.config, &ProcessEnv);
    let credential = gateway::credential(&layout.config, &ProcessEnv).map_err(|m| m.to_string())?;
    let mut client = GatewayClient::connect(
        &endpoint,
        &credential,
        &ConnectOptions {
            scopes: gateway::SESSION_SCOPES,
            client_version: env!("CARGO_PKG_VERSION"),
            wait_until: Instant::now() + Duration::from_secs(wait),
            attempt_timeout: Duration::from_secs(15),
            allow_private_ws: std::env::var(gateway::ALLOW_PRIVATE_WS).as_deref() == Ok("1"),
        },
    )?;
    let result = client.call(method, params)?;
    let out = serde_json::json!({
        "url": client.url(),
        "serverVersion": client.server_version(),
        "scopes": client.scopes(),
        "result": result,
    });
    client.close();
    println!("{out}");
    Ok(())
}
