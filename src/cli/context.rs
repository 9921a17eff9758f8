use std::path::PathBuf;

use clap::Args;

use openclaw_sessions::paths::{AgentPaths, DiscoverOptions, Environment, StateLayout};
use openclaw_sessions::store::AgentStore;

use super::printer::{ColorChoice, Printer};

/// Options every command accepts (README.md, Commands).
#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// OpenClaw state dir (default: $OPENCLAW_STATE_DIR, the profile's, or ~/.openclaw).
    #[arg(long, global = true, value_name = "DIR")]
    pub state_dir: Option<PathBuf>,
    /// Use ~/.openclaw-NAME (`default` means ~/.openclaw).
    #[arg(long, global = true, value_name = "NAME")]
    pub profile: Option<String>,
    /// Config file (default: $OPENCLAW_CONFIG_PATH or <state>/openclaw.json).
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Work on this agent (repeatable).
    #[arg(long = "agent", global = true, value_name = "ID")]
    pub agents: Vec<String>,
    /// Work on every agent.
    #[arg(long, global = true, conflicts_with = "agents")]
    pub all_agents: bool,
    /// One database (or legacy sessions.json) named directly.
    #[arg(long, global = true, value_name = "FILE")]
    pub store: Option<PathBuf>,
    /// Print one JSON document on stdout.
    #[arg(long, global = true)]
    pub json: bool,
    /// Only data and errors.
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// More detail on stderr.
    #[arg(short, long, global = true)]
    pub verbose: bool,
    /// Colors on stderr (NO_COLOR is respected).
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Never draw progress bars.
    #[arg(long, global = true)]
    pub no_progress: bool,
    /// Answer yes to confirmations.
    #[arg(short = 'y', long, global = true)]
    pub yes: bool,
}

pub struct Ctx {
    pub printer: Printer,
    pub global: GlobalArgs,
    pub env: Environment,
}

impl Ctx {
    pub fn new(printer: Printer, global: GlobalArgs) -> Self {
        Ctx {
            printer,
            global,
            env: Environment::from_process(),
        }
    }

    pub fn layout(&self) -> openclaw_sessions::Result<StateLayout> {
        let opts = DiscoverOptions {
            state_dir: self.global.state_dir.clone(),
            profile: self.global.profile.clone(),
            config: self.global.config.clone(),
            store: self.global.store.clone(),
        };
        let layout = StateLayout::discover(&opts, &self.env)?;
        self.printer
            .debug(format!("state dir: {}", layout.state_dir.display()));
        Ok(layout)
    }

    /// The agents selected by `--agent`/`--all-agents` (default agent otherwise).
    pub fn agents(&self, layout: &StateLayout) -> openclaw_sessions::Result<Vec<AgentPaths>> {
        layout.select_agents(&self.global.agents, self.global.all_agents)
    }

    /// Open a store and pass its warnings on.
    pub fn open_store(&self, paths: AgentPaths) -> openclaw_sessions::Result<AgentStore> {
        let mut store = AgentStore::open(paths)?;
        for w in store.warnings.drain(..) {
            self.printer.warn(super::hints::warning(&w));
        }
        Ok(store)
    }

    pub fn flush_warnings(&self, store: &mut AgentStore) {
        for w in store.warnings.drain(..) {
            self.printer.warn(super::hints::warning(&w));
        }
    }
}

impl Ctx {
    /// Find a session by key or id. Explicit `--agent`/`--all-agents` (or `--store`) are
    /// searched in order; otherwise a key names its agent (`agent:<id>:...`), and an id is
    /// looked for in the default agent first, then in every other agent.
    pub fn find_session(
        &self,
        layout: &StateLayout,
        arg: &str,
        newest_first: bool,
    ) -> openclaw_sessions::Result<(AgentStore, openclaw_sessions::store::SessionLookup)> {
        use openclaw_sessions::paths::AgentId;
        let explicit = layout.store_override.is_some()
            || self.global.all_agents
            || !self.global.agents.is_empty();
        let candidates: Vec<AgentPaths> = if explicit {
            self.agents(layout)?
        } else {
            layout.require_exists()?;
            let (known, _) = layout.known_agents();
            let from_key = arg
                .trim()
                .strip_prefix("agent:")
                .and_then(|r| r.split(':').next())
                .and_then(|id| AgentId::parse(id).ok())
                .filter(|id| known.contains(id));
            match from_key {
                Some(id) => vec![layout.agent(&id)],
                None => {
                    let default = layout.default_agent();
                    let mut ids: Vec<AgentId> =
                        known.iter().filter(|k| **k == default).cloned().collect();
                    ids.extend(known.iter().filter(|k| **k != default).cloned());
                    ids.iter().map(|id| layout.agent(id)).collect()
                }
            }
        };
        let searched: Vec<String> = candidates.iter().map(|p| p.id.to_string()).collect();
        for paths in candidates {
            let mut store = self.open_store(paths)?;
            if let Some(found) = store.lookup(arg.trim(), newest_first)? {
                self.flush_warnings(&mut store);
                return Ok((store, found));
            }
        }
        Err(openclaw_sessions::Error::not_found(
            format!("no session {:?} in agent(s) {}", arg, searched.join(", ")),
            Some("give a session key or session id; `openclaw-sessions list --all-agents` shows them".to_string()),
        ))
    }
}
