use std::path::PathBuf;
use std::sync::OnceLock;

use clap::Args;

use openclaw_sessions::paths::{AgentPaths, DiscoverOptions, Environment, StateLayout};
use openclaw_sessions::store::resolve::AgentSelection;
use openclaw_sessions::store::{AgentStore, OpenMode};

use super::printer::{ColorChoice, Printer, TableFormat};

/// `-o FORMAT` of the commands that print a table (`list`, `du`, `archives list`,
/// `backup list`, `status`, `search`).
#[derive(Debug, Clone, Copy, Args)]
pub struct TableOutput {
    /// Print the table as tsv (tab-separated, cells whole), jsonl (a JSON object a row) or
    /// json (the command's JSON document, as --json); table is the default.
    #[arg(short = 'o', long = "output-format", value_enum, value_name = "FORMAT",
          default_value_t = TableFormat::Table, hide_default_value = true)]
    pub format: TableFormat,
}

/// Options every command accepts (README.md, Commands), shown apart from each command's own
/// under one heading in `--help`.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Global options")]
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
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// More detail on stderr; -vv also times each step of a mutation and names how each
    /// database was opened.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
    /// Colors on stderr (NO_COLOR is respected).
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
    /// Keep every table cell whole (on a terminal, long keys and ids are otherwise shortened
    /// in the middle to keep one line a row; piped output is always whole).
    #[arg(long, global = true)]
    pub wide: bool,
    /// Print tables without their heading line.
    #[arg(long, global = true)]
    pub no_headers: bool,
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
    /// The global words resolved once (the state dir, config and agents they name), the
    /// first time a command asks: commands that never touch a store never resolve them.
    layout: OnceLock<StateLayout>,
    /// The layout as the state dir's owner sees it, once a run root started acts as that
    /// owner (`custody::run_as_state_dir_owner`): its snapshot repositories are the owner's.
    owner_layout: OnceLock<StateLayout>,
    selection: OnceLock<AgentSelection>,
}

impl Ctx {
    pub fn new(printer: Printer, global: GlobalArgs) -> Self {
        Ctx {
            printer,
            global,
            env: Environment::from_process(),
            layout: OnceLock::new(),
            owner_layout: OnceLock::new(),
            selection: OnceLock::new(),
        }
    }

    /// The state dir, config and `--store` the global words name, discovered once.
    pub fn layout(&self) -> openclaw_sessions::Result<StateLayout> {
        if let Some(layout) = self.owner_layout.get() {
            return Ok(layout.clone());
        }
        if let Some(layout) = self.layout.get() {
            return Ok(layout.clone());
        }
        let opts = DiscoverOptions {
            state_dir: self.global.state_dir.clone(),
            profile: self.global.profile.clone(),
            config: self.global.config.clone(),
            store: self.global.store.clone(),
        };
        let layout = StateLayout::discover(&opts, &self.env)?;
        self.printer
            .debug(format!("state dir: {}", layout.state_dir.display()));
        Ok(self.layout.get_or_init(|| layout).clone())
    }

    /// From now on, the layout as the owner of `uid` sees it (a run root started that became
    /// that user).
    pub fn act_as_owner(&self, uid: u32) -> openclaw_sessions::Result<StateLayout> {
        let home = openclaw_sessions::paths::home_of_uid(uid);
        let layout = self.layout()?.as_owner(home.as_deref());
        Ok(self.owner_layout.get_or_init(|| layout).clone())
    }

    /// `--agent`/`--all-agents` (and `--store`'s agent) resolved against the layout once.
    pub fn selection(&self, layout: &StateLayout) -> openclaw_sessions::Result<AgentSelection> {
        if let Some(selection) = self.selection.get() {
            return Ok(selection.clone());
        }
        let selection =
            AgentSelection::resolve(layout, &self.global.agents, self.global.all_agents)?;
        Ok(self.selection.get_or_init(|| selection).clone())
    }

    /// The agents selected by `--agent`/`--all-agents` (default agent otherwise).
    pub fn agents(&self, layout: &StateLayout) -> openclaw_sessions::Result<Vec<AgentPaths>> {
        self.selection(layout)?.agents(layout)
    }

    /// The agents a listing covers (`list`, `du`, `search`, `archives list`): the one rule,
    /// OpenClaw's default agent unless `--agent`/`--all-agents`; when other agents exist and
    /// none was named, a line on stderr says so and how to see them.
    pub fn listed_agents(
        &self,
        layout: &StateLayout,
    ) -> openclaw_sessions::Result<Vec<AgentPaths>> {
        let agents = self.agents(layout)?;
        if self.selection(layout)?.named().is_none() {
            let others: Vec<String> = layout
                .known_agents()
                .0
                .into_iter()
                .filter(|id| !agents.iter().any(|a| &a.id == id))
                .map(|id| id.to_string())
                .collect();
            if !others.is_empty() {
                let shown = agents
                    .iter()
                    .map(|a| a.id.to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                self.printer.info(self.printer.fit_prose(&format!(
                    "showing agent {shown}; other agents: {} (--all-agents)",
                    others.join(", ")
                )));
            }
        }
        Ok(agents)
    }

    /// Open a store and pass its warnings on.
    pub fn open_store(&self, paths: AgentPaths) -> openclaw_sessions::Result<AgentStore> {
        let mut store = AgentStore::open(paths)?;
        match store.db() {
            Some(db) => self.printer.trace(format!(
                "agent {}: {} opened read-only ({})",
                store.paths.id,
                db.path().display(),
                match db.mode() {
                    OpenMode::Immutable => "immutable: no -wal to replay",
                    OpenMode::ReadOnlyShm => "through its -wal, -shm read-only",
                    OpenMode::SharedReader => "as a shared reader of its -wal",
                    OpenMode::PrivateCopy => "a private copy, where SQLite recovers it",
                }
            )),
            None => self.printer.trace(format!(
                "agent {}: no database, {:?} store",
                store.paths.id, store.kind
            )),
        }
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
    /// The session the user's words name, through the one resolver every command uses
    /// (`store::resolve`): a key, `main`, a bare key, a session id or a unique id prefix.
    pub fn find_session(
        &self,
        layout: &StateLayout,
        words: &str,
    ) -> openclaw_sessions::Result<(AgentStore, openclaw_sessions::store::SessionLookup)> {
        let selection = self.selection(layout)?;
        let found = openclaw_sessions::store::resolve::resolve(layout, &selection, words)?;
        let mut store = self.open_store(found.paths)?;
        self.flush_warnings(&mut store);
        Ok((
            store,
            openclaw_sessions::store::SessionLookup {
                session_id: found.session_id,
                entry: found.entry,
                matched_by: found.matched_by.as_str(),
            },
        ))
    }
}
