//! `sessions.json`, the legacy index, with one reader for the import and the read-only
//! commands: its entries in the order OpenClaw's importer visits them (JavaScript's own-key
//! order), one at a time. A plain JSON
//! index is streamed from the file, so that a reader holds neither its text nor its parsed map
//! (which costs about four times the text); JSON5, integer-like keys and repeated keys, all
//! rare, are read whole. The import plans from it entry by entry; the read-only commands keep
//! its valid entries ([`LegacyIndex`]).

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::fs::File;
use std::hash::{BuildHasher, RandomState};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, Visitor};
use serde_json::{Map, Value};

use crate::error::{Error, Result, ResultExt};
use crate::formats::SessionEntry;

/// The array index a key stands for in JavaScript, which orders such keys first.
fn array_index(k: &str) -> Option<u32> {
    let ok =
        !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) && (k == "0" || !k.starts_with('0'));
    ok.then(|| k.parse::<u64>().ok())
        .flatten()
        .filter(|n| *n < u32::MAX as u64)
        .map(|n| n as u32)
}

/// JavaScript's own-key order for a parsed object: integer-like keys first, ascending.
fn js_key_order(map: Map<String, Value>) -> Vec<(String, Value)> {
    let (mut ints, rest): (Vec<_>, Vec<_>) =
        map.into_iter().partition(|(k, _)| array_index(k).is_some());
    ints.sort_by_key(|(k, _)| array_index(k));
    ints.extend(rest);
    ints
}

/// Where an index is read from: its text, or its open file, read from the start at each pass
/// (one descriptor: a `sessions.json` replaced by rename meanwhile is not mixed in).
#[derive(Clone, Copy)]
pub enum IndexSource<'a> {
    Text(&'a str),
    File(&'a File),
}

impl<'a> IndexSource<'a> {
    fn reader(self) -> std::io::Result<Box<dyn Read + 'a>> {
        Ok(match self {
            IndexSource::Text(t) => Box::new(t.as_bytes()),
            IndexSource::File(mut f) => {
                f.seek(SeekFrom::Start(0))?;
                Box::new(std::io::BufReader::with_capacity(64 * 1024, f))
            }
        })
    }

    /// The whole text, decoded as OpenClaw's import decodes it (Node's `utf8`): a byte that
    /// is not UTF-8 reads as U+FFFD.
    fn whole(self) -> std::io::Result<Cow<'a, str>> {
        Ok(match self {
            IndexSource::Text(t) => Cow::Borrowed(t),
            IndexSource::File(mut f) => {
                f.seek(SeekFrom::Start(0))?;
                let mut bytes = Vec::new();
                f.read_to_end(&mut bytes)?;
                Cow::Owned(match String::from_utf8(bytes) {
                    Ok(text) => text,
                    Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
                })
            }
        })
    }

    /// Whether the whole source is valid UTF-8 (read in chunks, never whole).
    fn is_utf8(self) -> std::io::Result<bool> {
        let mut reader = self.reader()?;
        let mut buf = vec![0u8; 64 * 1024];
        let mut carried = 0;
        loop {
            let n = reader.read(&mut buf[carried..])?;
            let filled = carried + n;
            match std::str::from_utf8(&buf[..filled]) {
                Ok(_) if n == 0 => return Ok(true),
                Ok(_) => carried = 0,
                // A character cut by the chunk's end: keep its bytes for the next read.
                Err(e) if e.error_len().is_none() && n > 0 => {
                    let valid = e.valid_up_to();
                    buf.copy_within(valid..filled, 0);
                    carried = filled - valid;
                }
                Err(_) => return Ok(false),
            }
        }
    }
}

/// How an index was read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IndexRead {
    /// The entries the index holds.
    pub entries: usize,
    /// Why the text is not plain JSON, when it was read with JSON5 rules instead (OpenClaw's
    /// own import refuses such an index).
    pub json5: Option<String>,
}

/// Visit every entry of a `sessions.json` in OpenClaw's order. An error from `visit` stops
/// the walk and is returned.
pub fn for_each_index_entry(
    path: &Path,
    source: IndexSource<'_>,
    mut visit: impl FnMut(String, Value) -> Result<()>,
) -> Result<IndexRead> {
    // Streamed only when it is UTF-8: otherwise decoded whole, as OpenClaw decodes it.
    let utf8 = source.is_utf8().at(path)?;
    match scan_keys(source.reader().at(path)?) {
        Some(scan) if scan.streamable && utf8 => {
            let mut failed = None;
            let reader = source.reader().at(path)?;
            let mut de = serde_json::Deserializer::from_reader(reader);
            let walked = EntryWalk {
                visit: &mut visit,
                failed: &mut failed,
            }
            .deserialize(&mut de);
            if let Some(e) = failed {
                return Err(e);
            }
            // The key scan read this same text without an error: only reading can fail here.
            walked.map_err(|e| match e.io_error_kind() {
                Some(kind) => Error::io(path, std::io::Error::from(kind)),
                None => beyond_this_reader(path, source, &e),
            })?;
            Ok(IndexRead {
                entries: scan.entries,
                json5: None,
            })
        }
        _ => {
            let text = source.whole().at(path)?;
            let (map, json5) = parse_index(path, &text)?;
            let entries = map.len();
            for (key, value) in js_key_order(map) {
                visit(key, value)?;
            }
            Ok(IndexRead { entries, json5 })
        }
    }
}

struct KeyScan {
    entries: usize,
    /// No key is integer-like or repeated: file order is OpenClaw's order.
    streamable: bool,
}

/// The keys of a plain JSON object, values skipped; `None` when the text is not one (or
/// cannot be read: the whole-map path then reports why).
fn scan_keys(reader: impl Read) -> Option<KeyScan> {
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = KeyScan;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(
            self,
            mut map: A,
        ) -> std::result::Result<KeyScan, A::Error> {
            // Hashes only: a collision merely sends the file down the whole-map path.
            let hasher = RandomState::new();
            let mut seen = HashSet::new();
            let mut scan = KeyScan {
                entries: 0,
                streamable: true,
            };
            while let Some(key) = map.next_key::<String>()? {
                map.next_value::<IgnoredAny>()?;
                if array_index(&key).is_some() || !seen.insert(hasher.hash_one(&key)) {
                    scan.streamable = false;
                }
                scan.entries += 1;
            }
            Ok(scan)
        }
    }
    let mut de = serde_json::Deserializer::from_reader(reader);
    let scan = de::Deserializer::deserialize_map(&mut de, Keys).ok()?;
    de.end().ok()?;
    Some(scan)
}

/// Walks the top-level object, handing each entry to `visit` as it is parsed.
struct EntryWalk<'a, F> {
    visit: &'a mut F,
    failed: &'a mut Option<Error>,
}

impl<'de, F: FnMut(String, Value) -> Result<()>> DeserializeSeed<'de> for EntryWalk<'_, F> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de, F: FnMut(String, Value) -> Result<()>> Visitor<'de> for EntryWalk<'_, F> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            let value: Value = map.next_value()?;
            if let Err(e) = (self.visit)(key, value) {
                *self.failed = Some(e);
                return Err(de::Error::custom("stopped"));
            }
        }
        Ok(())
    }
}

/// A JSON text OpenClaw's `JSON.parse` reads but this reader does not: a number beyond f64
/// (JavaScript reads `Infinity`) or nesting deeper than 128 levels. Refused, naming the file
/// and the byte, before anything is changed.
fn beyond_this_reader(path: &Path, source: IndexSource<'_>, e: &serde_json::Error) -> Error {
    let offset = source
        .whole()
        .ok()
        .map(|text| byte_offset(&text, e.line(), e.column()));
    Error::bad_input(
        format!(
            "{}: byte {} (line {}, column {}): {}; this tool cannot read it as OpenClaw would",
            path.display(),
            offset.map(|o| o.to_string()).unwrap_or_else(|| "?".into()),
            e.line(),
            e.column(),
            message_of(e)
        ),
        Some(
            "change that value by hand (keep a copy of the file first); nothing was changed"
                .to_string(),
        ),
    )
}

/// serde_json's message without its own " at line L column C".
fn message_of(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// The byte offset of serde_json's `line` (1-based) and `column` (bytes, 1-based) in `text`.
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    start + column.saturating_sub(1)
}

/// Whether a strict parse failed on something JSON5 would not fix either.
fn beyond_json(e: &serde_json::Error) -> bool {
    let text = e.to_string();
    text.contains("number out of range") || text.contains("recursion limit exceeded")
}

/// Parse the text of a `sessions.json` (named `path` in messages): its object, and why it is
/// not plain JSON when it was read with JSON5 rules.
pub fn parse_index(path: &Path, text: &str) -> Result<(Map<String, Value>, Option<String>)> {
    let (root, json5): (Value, _) = match serde_json::from_str(text) {
        Ok(v) => (v, None),
        Err(strict) if beyond_json(&strict) => {
            return Err(beyond_this_reader(path, IndexSource::Text(text), &strict))
        }
        Err(strict) => {
            let v = crate::json_value::parse_json5_document(text).map_err(|(msg, line, col)| {
                Error::bad_input(
                    format!(
                        "{} is neither JSON ({strict}) nor JSON5 (line {}, column {}: {msg})",
                        path.display(),
                        line.unwrap_or(0),
                        col.unwrap_or(0)
                    ),
                    Some("restore it from a `sessions.json.bak.*` copy or fix it by hand; nothing was changed".to_string()),
                )
            })?;
            (v, Some(strict.to_string()))
        }
    };
    match root {
        Value::Object(m) => Ok((m, json5)),
        _ => Err(Error::bad_input(
            format!(
                "{} does not contain an object session store.",
                path.display()
            ),
            Some("nothing was changed".to_string()),
        )),
    }
}

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
    /// Read an index from its file, streamed (see the module documentation).
    pub fn load(path: &Path) -> Result<Self> {
        let file = File::open(path).at(path)?;
        Self::read(path, IndexSource::File(&file))
    }

    pub fn parse(path: &Path, text: &str) -> Result<Self> {
        Self::read(path, IndexSource::Text(text))
    }

    /// The valid entries of an index, in OpenClaw's order; the others are kept as invalid.
    pub fn read(path: &Path, source: IndexSource<'_>) -> Result<Self> {
        let mut entries = Vec::new();
        let mut invalid = Vec::new();
        for_each_index_entry(path, source, |key, value| {
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
            Ok(())
        })?;
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
    use proptest::prelude::*;

    fn walked(text: &str) -> (Result<IndexRead>, Vec<(String, Value)>) {
        let mut seen = Vec::new();
        let read = for_each_index_entry(Path::new("s.json"), IndexSource::Text(text), |k, v| {
            seen.push((k, v));
            Ok(())
        });
        (read, seen)
    }

    fn whole(text: &str) -> Option<Vec<(String, Value)>> {
        parse_index(Path::new("s.json"), text)
            .ok()
            .map(|(map, _)| js_key_order(map))
    }

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
    fn a_file_is_read_as_its_text_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sessions.json");
        let text = r#"{"agent:main:b": {"sessionId": "b", "updatedAt": 2}, "agent:main:a": {"sessionId": "a", "updatedAt": 1}, "x": 1}"#;
        std::fs::write(&path, text).unwrap();
        let loaded = LegacyIndex::load(&path).unwrap();
        let parsed = LegacyIndex::parse(&path, text).unwrap();
        assert_eq!(loaded.entries, parsed.entries);
        let keys: Vec<&str> = loaded.entries.iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["agent:main:b", "agent:main:a"]);
        assert_eq!(loaded.invalid.len(), 1);
    }

    #[test]
    fn not_json5_is_bad_input_with_line() {
        let err = LegacyIndex::parse(Path::new("/s/sessions.json"), "{\n'a': {,\n").unwrap_err();
        assert_eq!(err.kind(), crate::error::ErrorKind::BadInput);
        assert!(err.to_string().contains("line 2"), "{err}");
    }

    #[test]
    fn order_and_repeats_as_javascript_reads_them() {
        // Integer-like keys first; a repeated key keeps its first place and its last value.
        let text = r#"{"b":{"v":1},"10":{"v":2},"a":{"v":3},"2":{"v":4},"b":{"v":5},"01":{}}"#;
        let (read, seen) = walked(text);
        assert_eq!(
            read.unwrap(),
            IndexRead {
                entries: 5,
                json5: None
            }
        );
        let keys: Vec<&str> = seen.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["2", "10", "b", "a", "01"]);
        assert_eq!(seen[2].1["v"], 5);
    }

    #[test]
    fn json5_and_bad_roots_take_the_whole_map_path() {
        let (read, seen) = walked("{a: {sessionId: 'x'},}");
        let read = read.unwrap();
        assert_eq!((read.entries, seen.len()), (1, 1));
        assert!(read.json5.is_some());
        let (read, _) = walked("[1, 2]");
        assert!(read
            .unwrap_err()
            .to_string()
            .contains("does not contain an object"));
        let (read, _) = walked("{\"a\": ");
        assert!(read.is_err());
    }

    #[test]
    fn an_error_from_the_visitor_stops_the_walk() {
        let mut visited = 0;
        let r = for_each_index_entry(
            Path::new("s.json"),
            IndexSource::Text(r#"{"a":1,"b":2,"c":3}"#),
            |k, _| {
                visited += 1;
                if k == "b" {
                    return Err(Error::invalid("stop at b"));
                }
                Ok(())
            },
        );
        assert_eq!(
            (r.unwrap_err().to_string(), visited),
            ("stop at b".into(), 2)
        );
    }

    proptest! {
        #[test]
        fn streaming_visits_what_the_whole_map_holds(
            entries in proptest::collection::vec(
                ("(0|[1-9][0-9]{0,2}|0[0-9]|[a-c]{1,2}|k\\\\u0041)", 0u8..4),
                0..12,
            ),
            json5 in any::<bool>(),
        ) {
            let body: Vec<String> = entries
                .iter()
                .map(|(k, v)| format!("\"{k}\": {{\"v\": {v}}}"))
                .collect();
            let text = format!("{{{}{}}}", body.join(", "), if json5 && !body.is_empty() { "," } else { "" });
            let (read, seen) = walked(&text);
            let expected = whole(&text).expect("valid JSON or JSON5");
            prop_assert_eq!(read.unwrap().entries, expected.len());
            prop_assert_eq!(seen, expected);
        }
    }
}
