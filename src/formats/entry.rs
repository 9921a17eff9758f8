use serde_json::{Map, Value};

use super::{OpenClawKind, SessionKind};

/// One logical session: its key and the canonical entry object (`session_nodes.entry_json`
/// or a `sessions.json` value), key order preserved.
#[derive(Debug, Clone)]
pub struct SessionEntry {
    pub key: String,
    pub fields: Map<String, Value>,
    /// The stored text it was parsed from, when it came from `entry_json`: printed as is,
    /// byte for byte, instead of serializing the parsed object again.
    pub stored_json: Option<String>,
    /// Why the stored `entry_json` could not be read, when it could not: `fields` then hold
    /// only what the row's columns say (`sessionId`, `updatedAt`), so that the session can
    /// still be named, shown raw, deleted or replaced.
    pub unreadable: Option<String>,
}

/// Two entries are equal when their keys and fields are; where the text came from does not
/// matter.
impl PartialEq for SessionEntry {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key && self.fields == other.fields
    }
}

impl SessionEntry {
    /// Every field the listing accessors read (`kind`, `label`, `model`, `archived`, …).
    pub const LISTING_FIELDS: &'static [&'static str] = &[
        "sessionId",
        "updatedAt",
        "createdAt",
        "sessionStartedAt",
        "archivedAt",
        "pinnedAt",
        "modelSelectionLocked",
        "label",
        "displayName",
        "chatType",
        "spawnedBy",
        "agentHarnessId",
        "model",
        "modelOverride",
        "modelProvider",
        "providerOverride",
    ];

    /// Decode an entry; it must be an object with a string `sessionId` and a finite
    /// `updatedAt`, as OpenClaw's row validator requires.
    pub fn parse(key: &str, json: &str) -> Result<Self, String> {
        let value: Value = crate::json_value::from_str(json)
            .map_err(|e| format!("entry_json is not valid JSON: {e}"))?;
        let mut entry = Self::from_value(key, value)?;
        entry.stored_json = Some(json.to_string());
        Ok(entry)
    }

    /// [`Self::parse`] keeping only `fields` (all of them with `None`): the others are
    /// checked as JSON and skipped, never built. A listing of every session parses faster
    /// and holds less that way.
    pub fn parse_fields(key: &str, json: &str, fields: Option<&[&str]>) -> Result<Self, String> {
        Self::parse_fields_owned(key.to_string(), json.to_string(), fields)
    }

    /// [`Self::parse_fields`] of a key and text the caller gives up (a listing's rows, read
    /// as their own strings): kept as they are, not copied again.
    pub fn parse_fields_owned(
        key: String,
        json: String,
        fields: Option<&[&str]>,
    ) -> Result<Self, String> {
        let invalid = |e: serde_json::Error| format!("entry_json is not valid JSON: {e}");
        let value = match fields {
            None => crate::json_value::from_str(&json).map_err(invalid)?,
            Some(fields) => {
                let mut de = serde_json::Deserializer::from_str(&json);
                de.disable_recursion_limit();
                let object = serde::Deserializer::deserialize_any(
                    serde_stacker::Deserializer::new(&mut de),
                    SelectedFields(fields),
                )
                .map_err(invalid)?;
                de.end().map_err(invalid)?;
                let Some(map) = object else {
                    return Err("entry is not a JSON object".into());
                };
                Value::Object(map)
            }
        };
        let mut entry = Self::from_value_owned(key, value)?;
        entry.stored_json = Some(json);
        Ok(entry)
    }

    pub fn from_value(key: &str, value: Value) -> Result<Self, String> {
        Self::from_value_owned(key.to_string(), value)
    }

    fn from_value_owned(key: String, value: Value) -> Result<Self, String> {
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
            key,
            fields,
            stored_json: None,
            unreadable: None,
        })
    }

    /// A row whose `entry_json` does not parse (`why`): named by its columns.
    pub fn unreadable(
        key: &str,
        raw: &str,
        session_id: &str,
        updated_at: i64,
        why: String,
    ) -> Self {
        let mut fields = Map::new();
        fields.insert("sessionId".into(), Value::from(session_id));
        fields.insert("updatedAt".into(), Value::from(updated_at));
        SessionEntry {
            key: key.to_string(),
            fields,
            stored_json: Some(raw.to_string()),
            unreadable: Some(why),
        }
    }

    /// Whether the row's `entry_json` now (`current`) is still this entry: the same fields,
    /// or for an unreadable entry the same text.
    pub fn matches_stored(&self, current: Option<&str>) -> bool {
        match (&self.unreadable, current) {
            (_, None) => false,
            (Some(_), Some(now)) => self.stored_json.as_deref() == Some(now),
            // The same text is the same entry: no second parse of what may be a large entry.
            (None, Some(now)) if self.stored_json.as_deref() == Some(now) => true,
            (None, Some(now)) => Self::parse(&self.key, now).is_ok_and(|e| e == *self),
        }
    }

    /// Refuse to read fields of an unreadable entry: what a change would start from.
    pub fn require_readable(&self) -> Result<&Self, String> {
        match &self.unreadable {
            None => Ok(self),
            Some(why) => Err(format!(
                "the entry of session {} is unreadable ({why})",
                self.key
            )),
        }
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

    /// Our own classification (`category`).
    pub fn kind(&self) -> SessionKind {
        SessionKind::of(&self.key, self.text("chatType"))
    }

    /// OpenClaw's `kind`, as `openclaw sessions --json` gives it.
    pub fn openclaw_kind(&self) -> OpenClawKind {
        // JavaScript truthiness of `entry.spawnedBy`.
        let spawned_by = match self.fields.get("spawnedBy") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(Value::String(s)) => !s.is_empty(),
            Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
            Some(_) => true,
        };
        let chat_type = self.fields.get("chatType").and_then(Value::as_str);
        OpenClawKind::of(&self.key, spawned_by, chat_type)
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
            .unwrap_or_else(|| crate::json_value::map_to_json(&self.fields));
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

/// Reads a JSON value: an object keeps the listed members (later duplicates win, as in a
/// full parse); any other value is `None`.
struct SelectedFields<'f>(&'f [&'f str]);

impl<'de> serde::de::Visitor<'de> for SelectedFields<'_> {
    type Value = Option<Map<String, Value>>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if self.0.contains(&key.as_ref()) {
                out.insert(key.into_owned(), map.next_value::<Value>()?);
            } else {
                map.next_value::<serde::de::IgnoredAny>()?;
            }
        }
        Ok(Some(out))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

#[cfg(test)]
mod selected_fields_tests {
    use super::*;

    /// Keeping some fields decides and reports exactly as a full parse does.
    #[test]
    fn selected_fields_parse_like_the_whole_entry() {
        let only: &[&str] = &["sessionId", "updatedAt", "label"];
        for json in [
            r#"{"sessionId":"s","updatedAt":5,"label":"a","x":{"y":[1,{"z":null}]},"label":"b"}"#,
            r#"{"sessionId":"s","updatedAt":"no"}"#,
            r#"{"updatedAt":1}"#,
            r#"[1,2]"#,
            r#""text""#,
            r#"{"sessionId":"s","updatedAt":5} trailing"#,
            r#"{"sessionId":"s","updatedAt":5,"x":[1,}"#,
            r#"{"sessionId":"s\u00e9","updatedAt":1.5e3,"label":"\"q\""}"#,
        ] {
            let full = SessionEntry::parse("k", json).map(|mut e| {
                e.retain_fields(only);
                e
            });
            let selected = SessionEntry::parse_fields("k", json, Some(only));
            match (&full, &selected) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(a, b, "{json}");
                    assert_eq!(b.stored_json.as_deref(), Some(json));
                }
                (Err(a), Err(b)) => assert_eq!(a, b, "{json}"),
                _ => panic!("{json}: {full:?} vs {selected:?}"),
            }
        }
    }
}
