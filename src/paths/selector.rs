//! `session.store` selectors map to SQLite targets (tests/reference/openclaw/FORMAT.md §a,
//! `resolveUnsuffixedSqliteTargetFromSessionStorePath`).

use std::path::{Component, Path, PathBuf};

use super::AgentId;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelectorTarget {
    pub path: PathBuf,
    /// The owner the path itself implies (`.../agents/<id>/...`), if any.
    pub agent_id: Option<AgentId>,
    /// True for a custom selector whose database may be shared and partitioned per agent.
    pub custom: bool,
}

fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn name(p: &Path) -> &str {
    p.file_name().and_then(|s| s.to_str()).unwrap_or("")
}

/// `.../agents/<id>/agent/openclaw-agent.sqlite` names its owner.
fn agent_from_db_path(p: &Path) -> Option<AgentId> {
    let agent_dir = p.parent()?;
    if name(agent_dir) != "agent" || name(p) != "openclaw-agent.sqlite" {
        return None;
    }
    let id_dir = agent_dir.parent()?;
    if name(id_dir.parent()?) != "agents" {
        return None;
    }
    AgentId::parse(name(id_dir)).ok()
}

/// The unsuffixed SQLite target of an (already expanded, absolute) selector path.
pub fn sqlite_target_for_selector(selector: &Path) -> SelectorTarget {
    let resolved = normalize(selector);
    if name(&resolved).ends_with(".sqlite") {
        let agent_id = agent_from_db_path(&resolved);
        let custom = agent_id.is_none();
        return SelectorTarget {
            path: resolved,
            agent_id,
            custom,
        };
    }
    let dir = resolved.parent().map(Path::to_path_buf).unwrap_or_default();
    if name(&resolved) != "sessions.json" {
        let stem = resolved
            .file_stem()
            .and_then(|s| s.to_str())
            .filter(|s| !s.is_empty());
        let stem = stem.unwrap_or("openclaw-agent");
        return SelectorTarget {
            path: dir.join(format!("{stem}.sqlite")),
            agent_id: None,
            custom: true,
        };
    }
    let custom = SelectorTarget {
        path: dir.join("openclaw-agent.sqlite"),
        agent_id: None,
        custom: true,
    };
    if name(&dir) != "sessions" {
        return custom;
    }
    let Some(agent_dir) = dir.parent() else {
        return custom;
    };
    if agent_dir.parent().map(name) != Some("agents") {
        return custom;
    }
    match AgentId::parse(name(agent_dir)) {
        Ok(id) => SelectorTarget {
            path: agent_dir.join("agent").join("openclaw-agent.sqlite"),
            agent_id: Some(id),
            custom: false,
        },
        Err(_) => custom,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_selectors() {
        let t = sqlite_target_for_selector(Path::new(
            "/h/.openclaw/agents/work/sessions/sessions.json",
        ));
        assert_eq!(
            t.path,
            PathBuf::from("/h/.openclaw/agents/work/agent/openclaw-agent.sqlite")
        );
        assert_eq!(t.agent_id.unwrap().as_str(), "work");
        let t = sqlite_target_for_selector(Path::new("/srv/oc/sessions.json"));
        assert_eq!(t.path, PathBuf::from("/srv/oc/openclaw-agent.sqlite"));
        assert!(t.custom);
        let t = sqlite_target_for_selector(Path::new("/srv/oc/store.json"));
        assert_eq!(t.path, PathBuf::from("/srv/oc/store.sqlite"));
        let t = sqlite_target_for_selector(Path::new("/srv/oc/shared.sqlite"));
        assert_eq!(
            (t.path.as_path(), t.custom),
            (Path::new("/srv/oc/shared.sqlite"), true)
        );
        let t = sqlite_target_for_selector(Path::new("/h/agents/x/agent/openclaw-agent.sqlite"));
        assert_eq!(t.agent_id.unwrap().as_str(), "x");
    }
}
