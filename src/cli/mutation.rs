//! What every mutating command shares: `--dry-run`, `--wait`, confirmation, custody, and
//! finding the agent store a key lives in.

use std::io::IsTerminal;

use clap::Args;

use openclaw_sessions::paths::{AgentId, AgentPaths, StateLayout};
use openclaw_sessions::Error;

use super::Ctx;

#[derive(Debug, Clone, Args)]
pub struct MutationArgs {
    /// Show the plan and change nothing.
    #[arg(short = 'n', long)]
    pub dry_run: bool,
    /// Wait up to SECONDS for a live owner of the state dir to finish.
    #[arg(long, value_name = "SECONDS")]
    pub wait: Option<u64>,
}

/// Ask before a destructive step: on a terminal a yes/no question (default no); without one,
/// `--yes` is required.
pub fn confirm(ctx: &Ctx, question: &str) -> anyhow::Result<()> {
    if ctx.global.yes {
        return Ok(());
    }
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() && !ctx.printer.json {
        let yes = dialoguer::Confirm::new()
            .with_prompt(question)
            .default(false)
            .interact()
            .unwrap_or(false);
        if yes {
            return Ok(());
        }
        return Err(Error::Interrupted.into());
    }
    Err(Error::ConfirmationRequired {
        message: format!("{question} (needs --yes without a terminal)"),
    }
    .into())
}

/// The agent a session key belongs to: `--agent` when given, else the key's own
/// `agent:<id>:` prefix, else the default agent.
pub fn agent_for_key(ctx: &Ctx, layout: &StateLayout, key: &str) -> anyhow::Result<AgentPaths> {
    if layout.store_override.is_some() || !ctx.global.agents.is_empty() {
        let agents = ctx.agents(layout)?;
        if agents.len() != 1 {
            return Err(Error::usage("give one --agent for a mutation").into());
        }
        return Ok(agents.into_iter().next().expect("one agent"));
    }
    layout.require_exists()?;
    let id = match key.strip_prefix("agent:").and_then(|r| r.split(':').next()) {
        Some(id) => AgentId::parse(id)?,
        None => layout.default_agent(),
    };
    let (known, _) = layout.known_agents();
    if !known.contains(&id) {
        return Err(Error::not_found(format!("unknown agent {id} for session {key}"), None).into());
    }
    Ok(layout.agent(&id))
}
