use clap::{Args, Subcommand};

use openclaw_sessions::marker::SessionFileMarker;
use openclaw_sessions::paths::AgentId;

use crate::cli::exit::Outcome;
use crate::cli::Ctx;

#[derive(Debug, Subcommand)]
pub enum MarkerCommand {
    /// Print `sqlite:<agentId>:<sessionId>:<absolute store path>` for a session.
    Format(FormatArgs),
    /// Split a marker into its parts.
    Parse(ParseArgs),
}

impl MarkerCommand {
    pub fn name(&self) -> &'static str {
        match self {
            MarkerCommand::Format(_) => "marker format",
            MarkerCommand::Parse(_) => "marker parse",
        }
    }
}

#[derive(Debug, Args)]
pub struct FormatArgs {
    /// The session id.
    #[arg(long, value_name = "ID")]
    session_id: String,
}

#[derive(Debug, Args)]
pub struct ParseArgs {
    /// A marker: `sqlite:<agentId>:<sessionId>:<absolute store path>`.
    #[arg(value_name = "MARKER")]
    marker: String,
}

pub fn run(ctx: &Ctx, cmd: &MarkerCommand) -> anyhow::Result<Outcome> {
    let marker = match cmd {
        MarkerCommand::Format(a) => {
            let layout = ctx.layout()?;
            let agent = match ctx.global.agents.as_slice() {
                [one] => AgentId::parse(one)?,
                [] => layout.default_agent(),
                _ => {
                    return Err(openclaw_sessions::Error::invalid(
                        "marker format takes one --agent",
                    )
                    .into())
                }
            };
            let db = match &layout.store_override {
                Some(p) => p.clone(),
                None => layout.agent(&agent).db,
            };
            SessionFileMarker::new(&agent, &a.session_id, &db)?
        }
        MarkerCommand::Parse(a) => SessionFileMarker::parse(&a.marker)?,
    };
    if ctx.printer.json {
        ctx.printer.json_data(&serde_json::json!({
            "marker": marker.format(),
            "agentId": marker.agent_id,
            "sessionId": marker.session_id,
            "storePath": marker.store_path,
        }))?;
    } else if matches!(cmd, MarkerCommand::Format(_)) {
        ctx.printer.out(&format!("{}\n", marker.format()))?;
    } else {
        ctx.printer.out(&format!(
            "agent id:   {}\nsession id: {}\nstore path: {}\n",
            marker.agent_id,
            marker.session_id,
            marker.store_path.display()
        ))?;
    }
    Ok(Outcome::Done)
}
