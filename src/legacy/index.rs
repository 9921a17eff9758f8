use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{Error, Result, ResultExt};
use crate::formats::SessionEntry;

/// An entry `sessions.json` holds that OpenClaw's importer would drop.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InvalidLegacyEntry {
    pub session_key: String,
    pub reason: String,
}

/// A parsed `sessions.json`.
#[derive(Debug, Clone)]
pub struct LegacyIndex {
    pub path: PathBuf,
    pub entries: Vec<SessionEntry>,
    pub invalid: Vec<InvalidLegacyEntry>,
}

impl LegacyIndex {
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path).at(path)?;
        Self::parse(path, &text)
    }

    pub fn parse(path: &Path, text: &str) -> Result<Self> {
        let root = crate::json_value::parse_json5_document(text).map_err(|(msg, line, col)| {
            Error::bad_input(
                match line {
                    Some(line) => format!(
                        "{} does not parse as JSON5 at line {line}, column {}: {msg}",
                        path.display(),
                        col.unwrap_or(0)
                    ),
                    None => format!("{} does not parse as JSON5: {msg}", path.display()),
                },
                Some("restore it from a `sessions.json.bak.*` copy or fix it by hand; nothing was changed".to_string()),
            )
        })?;
        let Value::Object(map) = root else {
            return Err(Error::bad_input(
                format!(
                    "{} is not a JSON5 object of session entries",
                    path.display()
                ),
                None,
            ));
        };
        let mut entries = Vec::with_capacity(map.len());
        let mut invalid = Vec::new();
        for (key, value) in map {
            match SessionEntry::from_value(&key, value) {
                Ok(e) if is_safe_session_id(e.session_id()) => entries.push(e),
                Ok(e) => invalid.push(InvalidLegacyEntry {
                    reason: format!("unsafe sessionId {:?}", e.session_id()),
                    session_key: key,
                }),
                Err(reason) => invalid.push(InvalidLegacyEntry {
                    session_key: key,
                    reason,
                }),
            }
        }
        Ok(LegacyIndex {
            path: path.to_path_buf(),
            entries,
            invalid,
        })
    }

    /// `<sessions dir>/<sessionId>.jsonl` for an entry (the recorded absolute
    /// `sessionFile` is ignored, as OpenClaw's importer does).
    pub fn transcript_path(&self, session_id: &str) -> Option<PathBuf> {
        if !is_safe_session_id(session_id) {
            return None;
        }
        Some(self.path.parent()?.join(format!("{session_id}.jsonl")))
    }
}

/// OpenClaw's `validateSessionId`, restricted to what is safe as a file name stem.
pub fn is_safe_session_id(id: &str) -> bool {
    let mut chars = id.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    first.is_alphanumeric()
        && id.chars().count() <= 128
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-'))
        && id != "."
        && !id.contains("..")
        && id.len() + ".jsonl".len() <= 255
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_valid_and_invalid() {
        let text = "{ // legacy\n 'agent:main:a': {sessionId:'abc', updatedAt: 1},\n 'agent:main:b': {sessionId:'../x', updatedAt: 1},\n 'agent:main:c': 5, }";
        let idx = LegacyIndex::parse(Path::new("/s/sessions.json"), text).unwrap();
        assert_eq!(idx.entries.len(), 1);
        assert_eq!(idx.invalid.len(), 2);
        assert_eq!(
            idx.transcript_path("abc").unwrap(),
            PathBuf::from("/s/abc.jsonl")
        );
    }

    #[test]
    fn not_json5_is_bad_input_with_line() {
        let err = LegacyIndex::parse(Path::new("/s/sessions.json"), "{\n'a': {,\n").unwrap_err();
        assert_eq!(err.code(), crate::error::ErrorCode::BadInput);
        assert!(err.to_string().contains("line 2"), "{err}");
    }
}
