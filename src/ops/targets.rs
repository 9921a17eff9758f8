//! Step one of every run: the user's words become (agent, session) targets.

use crate::error::{Error, Result};
use crate::paths::{AgentId, AgentPaths, StateLayout};
use crate::store::resolve::{resolve_session, ResolveError};

/// The agents the user selected (`--agent`, `--all-agents`); `--store` is in the layout.
pub use crate::store::resolve::AgentSelection as Selection;

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

/// Resolve each of `words` to a target; words that name no session are kept as missing
/// targets (with the resolver's "did you mean"), so that a command on several keys reports
/// each. Words that match several sessions stop the run: a mutation never guesses.
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
    match resolve_session(layout, selection, words) {
        Ok(found) => {
            if found.is_earlier_generation() {
                return Err(Error::invalid(format!(
                    "{words:?} names an earlier transcript of {} (agent {}), not a live session; give its key",
                    found.session_key, found.paths.id
                )));
            }
            Ok(Target {
                words: words.to_string(),
                agent: found.paths,
                key: Some(found.session_key),
                missing: None,
            })
        }
        Err(e @ ResolveError::NotFound { .. }) => {
            let why = match e.hint() {
                Some(hint) => format!("{e} ({hint})"),
                None => e.to_string(),
            };
            Ok(Target {
                words: words.to_string(),
                agent: agent_for_missing(layout, selection, words)?,
                key: None,
                missing: Some(why),
            })
        }
        Err(e) => Err(e.into()),
    }
}

/// The agent a target that names no session is reported under: the selected one, else the
/// key's own `agent:<id>:` prefix, else the default agent.
fn agent_for_missing(
    layout: &StateLayout,
    selection: &Selection,
    words: &str,
) -> Result<AgentPaths> {
    if layout.store_override.is_some() || selection.all_agents || !selection.agents.is_empty() {
        let agents = layout.select_agents(&selection.agents, selection.all_agents)?;
        if let Some(first) = agents.into_iter().next() {
            return Ok(first);
        }
    }
    layout.require_exists()?;
    let id = match words
        .trim()
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
        crate::writer::check_owned_path(&layout.state_dir, p)?;
    }
    Ok(())
}

/// [`check_owned`] for what an agent's changes write: its database and its `sessions/`.
pub fn check_owned_agent(layout: &StateLayout, paths: &AgentPaths) -> Result<()> {
    check_owned(layout, [paths.db.as_path(), paths.sessions_dir.as_path()])
}

/// After a session is brought back: its key names that session again (verify steps).
pub(crate) fn ensure_key_names(
    db: &crate::store::ReadOnlyDb,
    key: &str,
    session_id: &str,
) -> Result<()> {
    use crate::error::ResultExt;
    let current = crate::store::db::nodes::current_session_id(db.conn(), key).at(db.path())?;
    super::pipeline::ensure(current.as_deref() == Some(session_id), || {
        format!("{key} does not name {session_id}")
    })
}
