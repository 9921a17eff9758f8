//! Step one of every run: the user's words become (agent, session) targets.

use crate::error::{Error, Result};
use crate::paths::{AgentId, AgentPaths, StateLayout};

/// The agents the user selected (`--agent`, `--all-agents`); `--store` is in the layout.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    pub agents: Vec<String>,
    pub all_agents: bool,
}

impl Selection {
    fn explicit(&self, layout: &StateLayout) -> bool {
        layout.store_override.is_some() || self.all_agents || !self.agents.is_empty()
    }
}

/// One session a mutation is about, found or not.
#[derive(Debug, Clone)]
pub struct Target {
    /// What the user typed.
    pub words: String,
    pub agent: AgentPaths,
    /// The stored key, when the words name a session.
    pub key: Option<String>,
    /// Why the words name no session.
    pub missing: Option<String>,
}

impl Target {
    /// The key to report: the stored one, else the words.
    pub fn key_or_words(&self) -> &str {
        self.key.as_deref().unwrap_or(&self.words)
    }
}

/// The agent a mutation works on: the selected one, else the key's own `agent:<id>:` prefix,
/// else the default agent.
pub fn agent_for_key(
    layout: &StateLayout,
    selection: &Selection,
    words: &str,
) -> Result<AgentPaths> {
    if selection.explicit(layout) {
        let agents = layout.select_agents(&selection.agents, selection.all_agents)?;
        if agents.len() != 1 {
            return Err(Error::usage("a mutation works on one agent at a time"));
        }
        return Ok(agents.into_iter().next().expect("one agent"));
    }
    layout.require_exists()?;
    let id = match words
        .strip_prefix("agent:")
        .and_then(|r| r.split(':').next())
    {
        Some(id) => AgentId::parse(id)?,
        None => layout.default_agent(),
    };
    let (known, _) = layout.known_agents();
    if !known.contains(&id) {
        return Err(Error::not_found(
            format!("unknown agent {id} for session {words}"),
            None,
        ));
    }
    Ok(layout.agent(&id))
}

/// Resolve each of `words` to a target; words that name no session are kept as missing
/// targets, so that a command on several keys reports each.
pub fn resolve_targets(
    layout: &StateLayout,
    selection: &Selection,
    words: &[String],
) -> Result<Vec<Target>> {
    let mut out = Vec::with_capacity(words.len());
    for w in words {
        out.push(resolve_target(layout, selection, w)?);
    }
    Ok(out)
}

pub fn resolve_target(layout: &StateLayout, selection: &Selection, words: &str) -> Result<Target> {
    let agent = agent_for_key(layout, selection, words)?;
    let store = crate::store::AgentStore::open(agent.clone())?;
    let (key, missing) = match store.entry_by_exact_key(words)? {
        Some(e) => (Some(e.key), None),
        None => (
            None,
            Some(format!("no session {words:?} in agent {}", agent.id)),
        ),
    };
    Ok(Target {
        words: words.to_string(),
        agent,
        key,
        missing,
    })
}

/// Targets grouped by agent, in the order first named.
pub fn by_agent(targets: &[Target]) -> Vec<(AgentPaths, Vec<&Target>)> {
    let mut groups: Vec<(AgentPaths, Vec<&Target>)> = Vec::new();
    for t in targets {
        match groups.iter_mut().find(|(p, _)| p.id == t.agent.id) {
            Some((_, ts)) => ts.push(t),
            None => groups.push((t.agent.clone(), vec![t])),
        }
    }
    groups
}

/// Refuse, while planning, every path the apply step would write that is not the state dir's
/// own (a symlinked component, a hard-linked file, a place outside): a refusal then comes
/// before any snapshot or write.
pub fn check_owned<'a>(
    layout: &StateLayout,
    paths: impl IntoIterator<Item = &'a std::path::Path>,
) -> Result<()> {
    for p in paths {
        crate::mutate::check_owned_path(&layout.state_dir, p)?;
    }
    Ok(())
}
