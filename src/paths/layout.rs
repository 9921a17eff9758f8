use std::path::{Path, PathBuf};

use super::{
    config::Config, resolve_home, resolve_state_dir, sqlite_target_for_selector, AgentId,
    Environment, StateDirChoice,
};
use crate::error::{Error, Result};
use crate::remedy::Remedy;

/// Where one agent keeps its things.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentPaths {
    pub id: AgentId,
    /// `<state>/agents/<id>`
    pub dir: PathBuf,
    /// The agent database (or the `--store` file).
    pub db: PathBuf,
    /// `<state>/agents/<id>/sessions` (legacy store, archive files).
    pub sessions_dir: PathBuf,
    /// The legacy index `sessions.json`, when this agent may have one.
    pub legacy_index: Option<PathBuf>,
    pub import_archive_dir: PathBuf,
}

impl AgentPaths {
    /// Every place the agent's sessions may be read from is readable, or nothing is there:
    /// permission denied is an error naming the path (an agent another user keeps private
    /// must not read as an empty one).
    pub fn check_readable(&self) -> Result<()> {
        let mut places = vec![self.dir.clone(), self.sessions_dir.clone()];
        if let Some(dir) = self.db.parent() {
            places.push(dir.to_path_buf());
        }
        places.push(self.db.clone());
        places.extend(self.legacy_index.clone());
        for p in places {
            crate::fsutil::check_readable(&p)?;
        }
        Ok(())
    }
}

/// The resolved state dir, config and agents, found as OpenClaw finds them
/// (tests/reference/openclaw/FORMAT.md §a).
#[derive(Debug, Clone)]
pub struct StateLayout {
    pub home: Option<PathBuf>,
    pub state_dir: PathBuf,
    pub state_dir_choice: StateDirChoice,
    pub config: Config,
    /// `--store FILE`: one database named directly.
    pub store_override: Option<PathBuf>,
    /// Where this state dir's snapshot repositories live, outside the state dir
    /// (docs/SNAPSHOTS.md): `$XDG_DATA_HOME/openclaw-sessions/snapshots/<name>`
    /// (`~/.local/share` when unset).
    pub snapshots_home: PathBuf,
}

/// What the user asked for on the command line.
#[derive(Debug, Clone, Default)]
pub struct DiscoverOptions {
    pub state_dir: Option<PathBuf>,
    pub profile: Option<String>,
    pub config: Option<PathBuf>,
    pub store: Option<PathBuf>,
}

impl StateLayout {
    pub fn discover(opts: &DiscoverOptions, env: &Environment) -> Result<Self> {
        let (state_dir, state_dir_choice) =
            resolve_state_dir(opts.state_dir.as_deref(), opts.profile.as_deref(), env)?;
        let home = resolve_home(env).ok();
        let explicit_config = opts
            .config
            .clone()
            .or_else(|| env.config_path.as_ref().map(|p| expand(p, home.as_deref())));
        let config = match explicit_config {
            Some(path) => {
                if !path.exists() {
                    return Err(Error::not_found(
                        format!("config file {} does not exist", path.display()),
                        Some("check --config or OPENCLAW_CONFIG_PATH".to_string()),
                    ));
                }
                Config::load(&path)?
            }
            None => {
                let found = ["openclaw.json", "clawdbot.json"]
                    .iter()
                    .map(|n| state_dir.join(n))
                    .find(|p| p.is_file());
                match found {
                    Some(path) => Config::load(&path)?,
                    None => Config::default(),
                }
            }
        };
        let store_override = opts
            .store
            .as_ref()
            .map(|p| expand(&p.to_string_lossy(), home.as_deref()));
        let snapshots_home = snapshots_home(&state_dir, env);
        Ok(StateLayout {
            home,
            state_dir,
            state_dir_choice,
            config,
            store_override,
            snapshots_home,
        })
    }

    /// Fail with NOT_FOUND unless the state dir exists (or `--store` names a file).
    pub fn require_exists(&self) -> Result<()> {
        if let Some(store) = &self.store_override {
            if !store.exists() {
                return Err(Error::not_found(
                    format!("store {} does not exist", store.display()),
                    Some("check the --store path".to_string()),
                ));
            }
            return Ok(());
        }
        if !self.state_dir.is_dir() {
            // A directory above it that cannot be searched: permission denied, not absent.
            crate::fsutil::exists_readably(&self.state_dir)?;
            // Something that is there but not a directory is named for what it is.
            if let Ok(meta) = std::fs::metadata(&self.state_dir) {
                let what = if meta.is_file() {
                    "is a file, not a directory"
                } else {
                    "is not a directory"
                };
                return Err(Error::not_found(
                    format!("OpenClaw state dir {} {what}", self.state_dir.display()),
                    Some("pass --state-dir DIR, --profile NAME or set OPENCLAW_STATE_DIR to the directory OpenClaw keeps its state in".to_string()),
                ));
            }
            return Err(Error::not_found(
                format!(
                    "OpenClaw state dir {} does not exist",
                    self.state_dir.display()
                ),
                Some("pass --state-dir DIR, --profile NAME or set OPENCLAW_STATE_DIR".to_string()),
            ));
        }
        // A store another user keeps private reads as "permission denied", never as empty.
        let agents = self.state_dir.join("agents");
        crate::fsutil::check_readable(&self.state_dir)?;
        crate::fsutil::check_readable(&agents)?;
        // The directory that holds the state dir given instead of the state dir itself.
        let below = self.state_dir.join(".openclaw");
        if !agents.exists() && below.join("agents").is_dir() {
            return Err(Error::not_found(
                format!(
                    "{} holds no OpenClaw state (no agents/), but {} does",
                    self.state_dir.display(),
                    below.display()
                ),
                Some(format!(
                    "did you mean {}? {}",
                    below.display(),
                    Remedy::StateDirBelow.phrase()
                )),
            )
            .with_remedy(Remedy::StateDirBelow));
        }
        Ok(())
    }

    /// `--store` names OpenClaw's config file (not a store): refused before it is read as a
    /// legacy `sessions.json`, whose shape it does not have.
    fn refuse_config_as_store(&self, store: &Path) -> Result<()> {
        let name = store.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        let is_config = matches!(name, "openclaw.json" | "clawdbot.json")
            || self.config.path.as_deref().is_some_and(|c| same(c, store));
        if is_config {
            return Err(Error::bad_input(
                format!(
                    "{} is OpenClaw's config file, not a session store",
                    store.display()
                ),
                Some("--store takes an agent database (agents/<id>/agent/openclaw-agent.sqlite) or a legacy index (agents/<id>/sessions/sessions.json); the config is read from the state dir, or from --config".to_string()),
            ));
        }
        Ok(())
    }

    /// The admin's snapshot repository (`backup create`, `list`, `prune` without
    /// `--repository`), outside the state dir so that it outlives it (docs/SNAPSHOTS.md).
    pub fn snapshot_repository(&self) -> PathBuf {
        self.snapshots_home.join("manual")
    }

    /// The automatic safety snapshots of `doctor --fix` and the mutations, apart from the
    /// admin's and pruned by their own rule (docs/SNAPSHOTS.md).
    pub fn safety_repository(&self) -> PathBuf {
        self.snapshots_home.join("safety")
    }

    /// The repository earlier versions kept inside the state dir: still read (listed,
    /// verified, restored from), never written.
    pub fn legacy_snapshot_repository(&self) -> PathBuf {
        self.state_dir.join("openclaw-sessions-snapshots")
    }

    /// The layout as the state dir's owner sees it, for a run root started that acts as that
    /// owner: the snapshot repositories are the owner's (under its home's `.local/share`, as
    /// that user's own run would have them), not root's, which that user could not write.
    pub fn as_owner(mut self, owner_home: Option<&Path>) -> Self {
        // A home that is not a directory (`/nonexistent` of system users): beside the state
        // dir, as a run without a home.
        let home = owner_home
            .filter(|h| h.is_dir())
            .map(|h| h.to_string_lossy().into_owned());
        self.snapshots_home = snapshots_home_in(&self.state_dir, None, home.as_deref());
        self
    }

    /// Every repository a snapshot named by id or `latest` is looked up in, the admin's first.
    pub fn snapshot_repositories(&self) -> Vec<PathBuf> {
        vec![
            self.snapshot_repository(),
            self.safety_repository(),
            self.legacy_snapshot_repository(),
        ]
    }

    pub fn state_db(&self) -> PathBuf {
        self.state_dir.join("state").join("openclaw.sqlite")
    }

    /// `<state>/tmp/openclaw-<uid>`: OpenClaw's lock files and their coordinators.
    pub fn lock_dir(&self) -> PathBuf {
        let uid = rustix::process::getuid().as_raw();
        self.state_dir.join("tmp").join(format!("openclaw-{uid}"))
    }

    pub fn migration_runs_dir(&self) -> PathBuf {
        self.state_dir.join("session-sqlite-migration-runs")
    }

    /// Agents: the config's `agents.entries` in config order (OpenClaw's listing order),
    /// then agent directories not in the config, sorted. Names that are not valid agent ids
    /// are returned separately, never as paths.
    pub fn known_agents(&self) -> (Vec<AgentId>, Vec<String>) {
        let mut ids: Vec<AgentId> = Vec::new();
        let mut rejected = Vec::new();
        for name in self.config.agent_entries() {
            match AgentId::parse(&name) {
                Ok(id) if !ids.contains(&id) => ids.push(id),
                Ok(_) => {}
                Err(_) => rejected.push(name),
            }
        }
        let mut from_dirs = Vec::new();
        if let Ok(rd) = std::fs::read_dir(self.state_dir.join("agents")) {
            for ent in rd.flatten() {
                if !ent.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                    continue;
                }
                let name = ent.file_name().to_string_lossy().into_owned();
                match AgentId::parse(&name) {
                    Ok(id) if id.as_str() == name => {
                        if !ids.contains(&id) {
                            from_dirs.push(id)
                        }
                    }
                    _ => rejected.push(name),
                }
            }
        }
        from_dirs.sort();
        ids.extend(from_dirs);
        (ids, rejected)
    }

    pub fn default_agent(&self) -> AgentId {
        self.config
            .default_agent()
            .and_then(|a| AgentId::parse(&a).ok())
            .unwrap_or_else(AgentId::main)
    }

    fn selector_path(&self, id: &AgentId) -> Option<PathBuf> {
        let raw = self.config.session_store()?;
        let substituted = raw.replace("{agentId}", id.as_str());
        let p = expand(&substituted, self.home.as_deref());
        Some(if p.is_absolute() {
            p
        } else {
            self.state_dir.join(p)
        })
    }

    /// Paths of one agent, its database resolved through `session.store` if set.
    pub fn agent(&self, id: &AgentId) -> AgentPaths {
        let dir = self.state_dir.join("agents").join(id.as_str());
        let sessions_dir = dir.join("sessions");
        let default_db = dir.join("agent").join("openclaw-agent.sqlite");
        let (db, legacy_index) = match self.selector_path(id) {
            None => (default_db, Some(sessions_dir.join("sessions.json"))),
            Some(selector) => {
                let target = sqlite_target_for_selector(&selector);
                let legacy =
                    (!selector.to_string_lossy().ends_with(".sqlite")).then(|| selector.clone());
                let db = if target.custom {
                    custom_partition(&target.path, id, &self.default_agent())
                } else {
                    target.path
                };
                (db, legacy)
            }
        };
        AgentPaths {
            id: id.clone(),
            import_archive_dir: dir.join("session-sqlite-import-archive"),
            dir,
            db,
            sessions_dir,
            legacy_index,
        }
    }

    /// The default agent, checked to exist (a command given no `--agent`).
    pub fn select_default_agent(&self) -> Result<AgentPaths> {
        let mut agents = self.select_agents(&[], false)?;
        Ok(agents.remove(0))
    }

    /// The agents a command works on: `--agent` (repeatable), `--all-agents`, else the
    /// default agent. With `--store`, one synthetic agent for that file. The binary calls
    /// this once per command, through `store::resolve::AgentSelection::resolve`.
    pub fn select_agents(&self, requested: &[String], all: bool) -> Result<Vec<AgentPaths>> {
        if let Some(store) = &self.store_override {
            self.require_exists()?;
            self.refuse_config_as_store(store)?;
            crate::fsutil::check_readable(store)?;
            let id = match requested.first() {
                Some(a) => AgentId::parse(a)?,
                None => super::read_owner(store)
                    .and_then(|o| AgentId::parse(&o).ok())
                    .unwrap_or_else(AgentId::main),
            };
            let mut paths = self.agent(&id);
            if store.to_string_lossy().ends_with(".json") {
                paths.db = sqlite_target_for_selector(store).path;
                paths.sessions_dir = store.parent().map(Path::to_path_buf).unwrap_or_default();
                paths.legacy_index = Some(store.clone());
            } else {
                paths.db = store.clone();
                paths.legacy_index = None;
            }
            return Ok(vec![paths]);
        }
        self.require_exists()?;
        let (known, _) = self.known_agents();
        if all {
            let agents: Vec<AgentPaths> = known.iter().map(|id| self.agent(id)).collect();
            for a in &agents {
                a.check_readable()?;
            }
            return Ok(agents);
        }
        let ids: Vec<AgentId> = if requested.is_empty() {
            vec![self.default_agent()]
        } else {
            requested
                .iter()
                .map(|a| AgentId::parse(a))
                .collect::<Result<_>>()?
        };
        let mut out = Vec::new();
        for id in ids {
            if !known.contains(&id) {
                let list = known
                    .iter()
                    .map(AgentId::as_str)
                    .collect::<Vec<_>>()
                    .join(", ");
                return Err(Error::not_found(
                    format!("unknown agent {id} in {}", self.state_dir.display()),
                    Some(if list.is_empty() {
                        "this state dir has no agents".to_string()
                    } else {
                        format!("known agents: {list}")
                    }),
                ));
            }
            if !out.iter().any(|p: &AgentPaths| p.id == id) {
                let paths = self.agent(&id);
                paths.check_readable()?;
                out.push(paths);
            }
        }
        Ok(out)
    }
}

fn expand(raw: &str, home: Option<&Path>) -> PathBuf {
    match (raw.trim().strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
            home.join(rest.trim_start_matches('/'))
        }
        _ => PathBuf::from(raw.trim()),
    }
}

/// A custom selector may hold one database shared by owners: the unsuffixed file when it
/// belongs to this agent (or to nobody yet and this is the default agent), else the
/// agent's `<base>.<id>[.<n>].sqlite` partition whose `schema_meta` names it.
fn custom_partition(unsuffixed: &Path, id: &AgentId, default: &AgentId) -> PathBuf {
    let owner = super::read_owner(unsuffixed);
    if owner.as_deref() == Some(id.as_str())
        || (owner.is_none() && !unsuffixed.exists() && id == default)
    {
        return unsuffixed.to_path_buf();
    }
    let dir = unsuffixed
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let base = unsuffixed
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("openclaw-agent");
    let first = dir.join(format!("{base}.{id}.sqlite"));
    for n in 2..64 {
        let candidate = dir.join(format!("{base}.{id}.{n}.sqlite"));
        if super::read_owner(&candidate).as_deref() == Some(id.as_str()) {
            return candidate;
        }
    }
    first
}

/// The directory of one state dir's snapshot repositories: named by the state dir's last
/// component and a digest of its whole path, so that two state dirs never share one and the
/// name still says whose it is (`openclaw-3f2a9c1b7d04`).
fn snapshots_home(state_dir: &Path, env: &Environment) -> PathBuf {
    snapshots_home_in(state_dir, env.xdg_data_home.as_deref(), env.home.as_deref())
}

/// [`snapshots_home`] from a data dir and a home directory given apart.
fn snapshots_home_in(state_dir: &Path, xdg_data_home: Option<&str>, home: Option<&str>) -> PathBuf {
    let base = match (xdg_data_home, home) {
        (Some(xdg), _) if Path::new(xdg).is_absolute() => PathBuf::from(xdg)
            .join("openclaw-sessions")
            .join("snapshots"),
        (_, Some(home)) => PathBuf::from(home)
            .join(".local")
            .join("share")
            .join("openclaw-sessions")
            .join("snapshots"),
        // No home at all: beside the state dir, never inside it.
        (_, None) => state_dir
            .parent()
            .unwrap_or(state_dir)
            .join("openclaw-sessions-snapshots"),
    };
    let last = state_dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut name: String = last
        .trim_start_matches('.')
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    if name.is_empty() {
        name.push_str("state");
    }
    let digest = crate::digest::sha256_hex(state_dir.as_os_str().as_encoded_bytes());
    base.join(format!("{name}-{}", &digest[..12]))
}

/// The home directory `/etc/passwd` gives `uid`, for a run root started that acts as the
/// state dir's owner (its `HOME` is root's). Read from the file rather than through NSS
/// (`getpwuid_r` would be the crate's only other `unsafe` call); a uid only a directory
/// service knows has no home here, and its repositories go beside the state dir.
pub fn home_of_uid(uid: u32) -> Option<PathBuf> {
    let text = std::fs::read_to_string("/etc/passwd").ok()?;
    home_in_passwd(&text, uid)
}

fn home_in_passwd(text: &str, uid: u32) -> Option<PathBuf> {
    text.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        (fields.len() >= 7 && fields[2].parse::<u32>().ok() == Some(uid) && !fields[5].is_empty())
            .then(|| PathBuf::from(fields[5]))
    })
}

#[cfg(test)]
mod passwd_tests {
    use super::*;

    #[test]
    fn the_home_of_a_uid_is_its_sixth_field() {
        let text = "admin:x:0:0:admin:/home/user:/bin/bash\n# comment\nalice:x:1000:1000:Alice,,,:/home/alice:/bin/zsh\nbroken:x:12\n";
        assert_eq!(
            home_in_passwd(text, 1000),
            Some(PathBuf::from("/home/alice"))
        );
        assert_eq!(home_in_passwd(text, 0), Some(PathBuf::from("/home/user")));
        assert_eq!(home_in_passwd(text, 12), None);
        assert_eq!(home_in_passwd(text, 4242), None);
    }

    #[test]
    fn a_run_as_the_owner_keeps_its_repositories_under_the_owner_s_home() {
        let home = tempfile::tempdir().unwrap();
        let layout = StateLayout::discover(
            &DiscoverOptions {
                state_dir: Some(home.path().join(".openclaw")),
                ..Default::default()
            },
            &Environment {
                home: Some("/home/user".into()),
                xdg_data_home: Some("/home/user/.local/share".into()),
                ..Default::default()
            },
        )
        .unwrap();
        assert!(layout.snapshot_repository().starts_with("/home/user"));
        let owned = layout.clone().as_owner(Some(home.path()));
        assert!(owned
            .snapshot_repository()
            .starts_with(home.path().join(".local/share/openclaw-sessions/snapshots")));
        let homeless = layout.as_owner(Some(Path::new("/nonexistent")));
        assert!(homeless
            .snapshot_repository()
            .starts_with(home.path().join("openclaw-sessions-snapshots")));
    }
}
