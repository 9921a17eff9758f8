use serde_json::{Map, Value};

use super::SessionKind;

/// One logical session: its key and the canonical entry object (`session_nodes.entry_json`
/// or a `sessions.json` value), key order preserved.
#[derive(Debug, Clone)]
pub struct SessionEntry {
    pub key: String,
    pub fields: Map<String, Value>,
    /// The stored text it was parsed from, when it came from `entry_json`: printed as is,
    /// byte for byte, instead of serializing the parsed object again.
    pub stored_json: Option<String>,
}

/// Two entries are equal when their keys and fields are; where the text came from does not
/// matter.
impl PartialEq for SessionEntry {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key && self.fields == other.fields
    }
}

impl SessionEntry {
    /// Decode an entry; it must be an object with a string `sessionId` and a finite
    /// `updatedAt`, as OpenClaw's row validator requires.
    pub fn parse(key: &str, json: &str) -> Result<Self, String> {
        let value: Value =
            serde_json::from_str(json).map_err(|e| format!("entry_json is not valid JSON: {e}"))?;
        let mut entry = Self::from_value(key, value)?;
        entry.stored_json = Some(json.to_string());
        Ok(entry)
    }

    pub fn from_value(key: &str, value: Value) -> Result<Self, String> {
        let Value::Object(fields) = value else {
            return Err("entry is not a JSON object".into());
        };
        match fields.get("sessionId") {
            Some(Value::String(s)) if !s.is_empty() => {}
            _ => return Err("entry has no string sessionId".into()),
        }
        match fields.get("updatedAt") {
            Some(Value::Number(n)) if n.as_f64().is_some_and(f64::is_finite) => {}
            _ => return Err("entry has no finite updatedAt".into()),
        }
        Ok(SessionEntry {
            key: key.to_string(),
            fields,
            stored_json: None,
        })
    }

    /// Keep only `fields` (and forget the stored text): a plan over every session of a
    /// store then costs what it reads, not the whole entries.
    pub fn retain_fields(&mut self, fields: &[&str]) {
        // Collected anew: `retain` would keep the capacity of the whole entry.
        self.fields = std::mem::take(&mut self.fields)
            .into_iter()
            .filter(|(k, _)| fields.contains(&k.as_str()))
            .collect();
        self.stored_json = None;
    }

    pub fn session_id(&self) -> &str {
        self.fields
            .get("sessionId")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    pub fn updated_at(&self) -> i64 {
        self.num("updatedAt").unwrap_or(0)
    }

    /// A finite number field, as epoch ms.
    pub fn num(&self, name: &str) -> Option<i64> {
        self.fields
            .get(name)
            .and_then(Value::as_f64)
            .filter(|f| f.is_finite())
            .map(|f| f as i64)
    }

    /// A trimmed, non-empty string field (OpenClaw's `text()` projection).
    pub fn text(&self, name: &str) -> Option<&str> {
        self.fields
            .get(name)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }

    pub fn label(&self) -> Option<&str> {
        self.text("label")
    }

    pub fn display_name(&self) -> Option<&str> {
        self.text("displayName")
    }

    pub fn archived(&self) -> bool {
        self.num("archivedAt").is_some()
    }

    pub fn pinned(&self) -> bool {
        self.num("pinnedAt").is_some()
    }

    pub fn locked(&self) -> bool {
        self.fields.get("modelSelectionLocked") == Some(&Value::Bool(true))
    }

    pub fn created_at(&self) -> Option<i64> {
        self.num("createdAt")
            .or_else(|| self.num("sessionStartedAt"))
    }

    pub fn harness(&self) -> Option<&str> {
        self.text("agentHarnessId")
    }

    /// The model in use: the override if set, else the recorded one.
    pub fn model(&self) -> Option<String> {
        let (provider, model) = match self.text("modelOverride") {
            Some(m) => (self.text("providerOverride"), Some(m)),
            None => (self.text("modelProvider"), self.text("model")),
        };
        match (provider, model) {
            (Some(p), Some(m)) => Some(format!("{p}/{m}")),
            (None, Some(m)) => Some(m.to_string()),
            _ => None,
        }
    }

    pub fn kind(&self) -> SessionKind {
        SessionKind::of(&self.key, self.text("chatType"))
    }

    /// Text an operator searches: key, label, display name.
    pub fn matches(&self, needle_lower: &str) -> bool {
        self.key.to_lowercase().contains(needle_lower)
            || self
                .label()
                .is_some_and(|l| l.to_lowercase().contains(needle_lower))
            || self
                .display_name()
                .is_some_and(|d| d.to_lowercase().contains(needle_lower))
    }

    /// The entry as a raw JSON value: the stored text when there is one.
    pub fn to_raw(&self) -> Box<serde_json::value::RawValue> {
        let text = self
            .stored_json
            .clone()
            .unwrap_or_else(|| serde_json::to_string(&self.fields).unwrap_or_default());
        serde_json::value::RawValue::from_string(text).unwrap_or_else(|_| {
            serde_json::value::RawValue::from_string("{}".into()).expect("valid JSON")
        })
    }

    pub fn to_value(&self) -> Value {
        Value::Object(self.fields.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn validates_identity() {
        assert!(SessionEntry::parse("k", "{}").is_err());
        assert!(SessionEntry::parse("k", "[]").is_err());
        assert!(SessionEntry::parse("k", "{\"sessionId\":\"a\"}").is_err());
        assert!(SessionEntry::parse("k", "{\"sessionId\":\"a\",\"updatedAt\":\"x\"}").is_err());
        let e = SessionEntry::parse("k", "{\"sessionId\":\"a\",\"updatedAt\":5,\"z\":1,\"b\":2}")
            .unwrap();
        assert_eq!(e.updated_at(), 5);
        assert_eq!(
            serde_json::to_string(&e.to_value()).unwrap(),
            "{\"sessionId\":\"a\",\"updatedAt\":5,\"z\":1,\"b\":2}"
        );
    }
}
