//! Step one of every run: the user's words become (agent, session) targets.

use crate::error::{Error, Result};
use crate::paths::{AgentId, AgentPaths, StateLayout};
use crate::store::resolve::{resolve_session, MatchKind, ResolveError};

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
    /// The session id the resolver found and how the words matched (with `key`).
    pub session_id: Option<String>,
    pub matched_by: Option<MatchKind>,
}

impl Target {
    /// The key to report: the stored one, else the words.
    pub fn key_or_words(&self) -> &str {
        self.key.as_deref().unwrap_or(&self.words)
    }

    /// Under custody, with the entry the key holds now: words that named a session by its id
    /// must still name it. A key reset or replaced after resolving now holds another session
    /// (another transcript), which the user did not name: refused, nothing planned.
    pub fn check_still_named(&self, current_session_id: &str) -> Result<()> {
        let by_id = matches!(
            self.matched_by,
            Some(MatchKind::SessionId | MatchKind::IdPrefix)
        );
        match (&self.session_id, &self.key) {
            (Some(named), Some(key)) if by_id && named != current_session_id => {
                Err(Error::Conflict {
                    message: format!(
                        "{:?} named session {named}, but {key} now holds {current_session_id}",
                        self.words
                    ),
                    hint: Some("the session was reset or replaced meanwhile; name it again".into()),
                })
            }
            _ => Ok(()),
        }
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
                session_id: Some(found.session_id),
                matched_by: Some(found.matched_by),
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
                session_id: None,
                matched_by: None,
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
    if let Some(first) = selection.named().and_then(|a| a.first()) {
        return Ok(first.clone());
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

/// The agents of the targets, in the order first named.
pub fn agents_of(targets: &[Target]) -> Vec<AgentPaths> {
    by_agent(targets).into_iter().map(|(p, _)| p).collect()
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

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn target(matched_by: MatchKind) -> Target {
        Target {
            words: "4f2a9c1e".into(),
            agent: AgentPaths {
                id: AgentId::main(),
                dir: PathBuf::new(),
                db: PathBuf::new(),
                sessions_dir: PathBuf::new(),
                legacy_index: None,
                import_archive_dir: PathBuf::new(),
            },
            key: Some("agent:main:telegram:direct:1".into()),
            missing: None,
            session_id: Some("4f2a9c1e-0000".into()),
            matched_by: Some(matched_by),
        }
    }

    #[test]
    fn words_that_named_an_id_must_still_name_it_under_custody() {
        let t = target(MatchKind::IdPrefix);
        assert!(t.check_still_named("4f2a9c1e-0000").is_ok());
        let e = t.check_still_named("77aa0000-1111").unwrap_err();
        assert!(matches!(e, Error::Conflict { .. }), "{e}");
        assert!(e.to_string().contains("now holds 77aa0000-1111"), "{e}");
        // A key names whatever session it holds.
        assert!(target(MatchKind::Key)
            .check_still_named("77aa0000-1111")
            .is_ok());
    }
}
