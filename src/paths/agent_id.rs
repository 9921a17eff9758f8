use std::fmt;

use crate::error::{Error, Result};

/// A validated, lower-cased agent id (`^[a-z0-9][a-z0-9_-]{0,63}$`, as OpenClaw checks it).
/// Anything else (a separator, `..`, NUL) is rejected before it can reach a path.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct AgentId(String);

pub const DEFAULT_AGENT_ID: &str = "main";

impl AgentId {
    pub fn parse(raw: &str) -> Result<Self> {
        let valid = !raw.is_empty()
            && raw.len() <= 64
            && raw
                .bytes()
                .enumerate()
                .all(|(i, b)| b.is_ascii_alphanumeric() || (i > 0 && (b == b'_' || b == b'-')));
        if valid {
            Ok(AgentId(raw.to_ascii_lowercase()))
        } else {
            Err(Error::InvalidArgument {
                message: format!("invalid agent id {:?}", raw.escape_debug().to_string()),
                hint: Some(
                    "agent ids are 1-64 characters: letters, digits, '_' and '-', starting with a letter or digit"
                        .into(),
                ),
            })
        }
    }

    pub fn main() -> Self {
        AgentId(DEFAULT_AGENT_ID.to_string())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AgentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_and_lowercases() {
        assert_eq!(AgentId::parse("Work_1-x").unwrap().as_str(), "work_1-x");
    }

    #[test]
    fn rejects_escapes() {
        for bad in [
            "",
            "../x",
            "a/b",
            "..",
            "a\0b",
            "-a",
            "_a",
            "a.b",
            &"a".repeat(65),
        ] {
            assert!(AgentId::parse(bad).is_err(), "{bad:?}");
        }
    }
}
