//! The SQLite session file marker `sqlite:<agentId>:<sessionId>:<absolute store path>`
//! (tests/reference/openclaw/FORMAT.md §f, `formatSqliteSessionFileMarker` /
//! `parseSqliteSessionFileMarker`).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionFileMarker {
    pub agent_id: String,
    pub session_id: String,
    pub store_path: PathBuf,
}

impl SessionFileMarker {
    /// `agent` is an agent id, already validated (`paths::AgentId`): the marker format sits
    /// below the layout, so it takes any displayable id.
    pub fn new(
        agent: &impl std::fmt::Display,
        session_id: &str,
        store_path: &Path,
    ) -> Result<Self> {
        if !crate::legacy::is_safe_session_id(session_id) {
            return Err(Error::invalid(format!("invalid session id {session_id:?}")));
        }
        let store_path = if store_path.is_absolute() {
            store_path.to_path_buf()
        } else {
            std::env::current_dir()
                .map_err(|e| Error::io(".", e))?
                .join(store_path)
        };
        Ok(SessionFileMarker {
            agent_id: agent.to_string(),
            session_id: session_id.to_string(),
            store_path,
        })
    }

    pub fn format(&self) -> String {
        format!(
            "sqlite:{}:{}:{}",
            self.agent_id,
            self.session_id,
            self.store_path.display()
        )
    }

    /// Trims, requires the `sqlite:` prefix and three non-empty parts; the path may hold ':'.
    pub fn parse(raw: &str) -> Result<Self> {
        let bad = || {
            Error::bad_input(
                format!("not an SQLite session file marker: {raw:?}"),
                Some("expected sqlite:<agentId>:<sessionId>:<absolute store path>".to_string()),
            )
        };
        let rest = raw.trim().strip_prefix("sqlite:").ok_or_else(bad)?;
        let (agent, rest) = rest.split_once(':').ok_or_else(bad)?;
        let (session, path) = rest.split_once(':').ok_or_else(bad)?;
        if agent.is_empty() || session.is_empty() || path.is_empty() {
            return Err(bad());
        }
        Ok(SessionFileMarker {
            agent_id: agent.to_string(),
            session_id: session.to_string(),
            store_path: PathBuf::from(path),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::AgentId;
    use proptest::prelude::*;

    #[test]
    fn round_trip() {
        let m = SessionFileMarker::new(&AgentId::main(), "abc-1", Path::new("/h/a:b/db.sqlite"))
            .unwrap();
        let s = m.format();
        assert_eq!(s, "sqlite:main:abc-1:/h/a:b/db.sqlite");
        assert_eq!(SessionFileMarker::parse(&format!("  {s}\n")).unwrap(), m);
        for bad in [
            "",
            "sqlite:",
            "sqlite:a:b:",
            "sqlite::b:c",
            "file:a:b:c",
            "sqlite:a",
        ] {
            assert!(SessionFileMarker::parse(bad).is_err(), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn parse_never_panics(s in ".{0,64}") {
            let _ = SessionFileMarker::parse(&s);
        }
    }
}
