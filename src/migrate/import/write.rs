//! Writing one planned session into the agent database, inside the batch transaction:
//! node, window, ACP provenance, then the transcript events with their identities,
//! watermark and projections (`importSqliteSessionRowsInTransaction`).

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rusqlite::Transaction;
use serde_json::{json, Map, Value};
use sha2::{Digest, Sha256};

use super::plan::mtime_ms;
use super::types::{ImportIssue, ImportRecord};
use crate::error::{Error, Result, ResultExt};
use crate::progress::Progress;
use crate::store::db::{archives, events, nodes, windows};
use crate::writer::transcript::convert::{js_stringify, TranscriptConverter};
use crate::writer::transcript::{event_id, event_time, EventAppender, SearchRows};
use crate::writer::{session_scope, write_node, write_window, AgentSchema};

/// Largest event JSON the `transcript_events` CHECKs accept.
const MAX_EVENT_BYTES: usize = 4 * 1024 * 1024;

/// What writing one record did.
#[derive(Debug, Default, Clone)]
pub struct RecordOutcome {
    pub written: bool,
    pub events_inserted: u64,
    /// Events left to store after conversion (the count validation expects).
    pub events_expected: u64,
    pub issues: Vec<ImportIssue>,
    /// The transcript was read to its end without a malformed line.
    pub complete: bool,
    /// Every record was one the repair recognises (one header, canonical entries, leaves).
    pub recognised: bool,
    /// Repeated lines were dropped.
    pub repaired: bool,
}

fn id_digest(id: &str) -> [u8; 16] {
    let d = Sha256::digest(id.as_bytes());
    let mut out = [0u8; 16];
    out.copy_from_slice(&d[..16]);
    out
}

fn hash(json: &str) -> [u8; 32] {
    Sha256::digest(json.as_bytes()).into()
}

/// Write one record into a database at `schema`. `store_path` is the legacy index (ACP
/// provenance names it).
#[allow(clippy::too_many_arguments)]
pub fn write_record(
    tx: &Transaction<'_>,
    schema: AgentSchema,
    search: &mut SearchRows,
    db: &Path,
    store_path: &Path,
    record: &ImportRecord,
    now_ms: i64,
    progress: &dyn Progress,
) -> Result<RecordOutcome> {
    let mut out = RecordOutcome::default();
    let key = record.session_key.as_str();
    let sid = record.session_id.as_str();
    let cold: bool = schema.has_cold_archives() && archives::is_cold(tx, sid).at(db)?;
    if cold {
        out.issues.push(ImportIssue::new(
            "session_cold_archived",
            format!("Session {sid} is in cold archive storage; restore it before importing its legacy transcript."),
            Some(key),
        ));
        return Ok(out);
    }
    let existing: Option<String> = nodes::current_session_id(tx, key).at(db)?;
    // A finished earlier run moved this transcript away: the row is already there.
    if record.transcript.is_none() && !record.historical && existing.as_deref() == Some(sid) {
        let had_events: bool = events::any(tx, sid).at(db)?;
        if had_events {
            out.complete = true;
            return Ok(out);
        }
    }
    let entry: Map<String, Value> =
        crate::json_value::from_str(&record.entry_json).unwrap_or_default();
    let e = &entry;
    let updated_at = e.get("updatedAt").and_then(Value::as_f64).unwrap_or(0.0);
    if !(record.historical && existing.is_some()) {
        let entry_json = &record.entry_json;
        nodes::insert_if_absent(tx, key, sid, entry_json, updated_at as i64).at(db)?;
        write_node(tx, db, key, e, Some(entry_json))?;
        let conversation =
            crate::writer::transcript::conversation::conversation_of(e, session_scope(key, e));
        if let Some(c) = &conversation {
            crate::writer::transcript::conversation::write_conversation(tx, c, updated_at as i64)
                .at(db)?;
        }
        write_window(tx, db, key, e, sid, updated_at, Some(updated_at))?;
        if let Some(c) = &conversation {
            crate::writer::transcript::conversation::link_conversation(
                tx,
                c,
                sid,
                updated_at as i64,
            )
            .at(db)?;
        }
        if schema.records_acp_sources() && crate::json_value::truthy(e.get("acp")) {
            record_acp_source(tx, db, store_path, key, e)?;
        }
        out.written = true;
    }
    if let Some(path) = &record.transcript {
        import_events(
            tx, schema, search, db, record, path, now_ms, progress, &mut out,
        )?;
        let mtime = std::fs::metadata(path).map(|m| mtime_ms(&m)).at(path)?;
        windows::advance_transcript_updated_at(tx, sid, mtime).at(db)?;
    } else {
        out.complete = true;
    }
    Ok(out)
}

/// `recordLegacyAcpMigrationSources`: which legacy source the ACP metadata came from.
fn record_acp_source(
    tx: &Transaction<'_>,
    db: &Path,
    store_path: &Path,
    key: &str,
    e: &Map<String, Value>,
) -> Result<()> {
    let revision = e.get("lifecycleRevision").and_then(Value::as_str);
    let sid = e.get("sessionId").and_then(Value::as_str);
    let binding = revision.or(sid).map_or(Value::Null, Value::from);
    let serialized = stable_stringify(
        &json!({"sessionKey": key.trim(), "sessionBinding": binding, "meta": e["acp"]}),
    );
    let mut source = Map::new();
    source.insert("sourcePath".into(), json!(store_path.to_string_lossy()));
    source.insert("sourceSessionKey".into(), json!(key.trim()));
    if let Some(s) = sid {
        source.insert("sessionId".into(), json!(s));
    }
    if let Some(r) = revision {
        source.insert("lifecycleRevision".into(), json!(r));
    }
    source.insert(
        "sourceSha256".into(),
        json!(crate::digest::sha256_hex(serialized.as_bytes())),
    );
    source.insert("sourceSizeBytes".into(), json!(serialized.len()));
    let stored: Option<String> = nodes::legacy_acp_migration_json(tx, key).at(db)?;
    let mut sources: Vec<Value> = stored
        .and_then(|s| crate::json_value::from_str(&s).ok())
        .unwrap_or_default();
    let same = |v: &Value| {
        v.get("sourcePath") == source.get("sourcePath")
            && v.get("sourceSessionKey") == source.get("sourceSessionKey")
            && v.get("lifecycleRevision") == source.get("lifecycleRevision")
            && v.get("sessionId") == source.get("sessionId")
    };
    sources.retain(|v| !same(v));
    sources.push(Value::Object(source));
    nodes::set_legacy_acp_migration_json(
        tx,
        key,
        &serde_json::to_string(&sources).unwrap_or_default(),
    )
    .at(db)?;
    Ok(())
}

/// OpenClaw's `stableStringify`: object keys sorted by UTF-16 code units, no spaces.
pub fn stable_stringify(v: &Value) -> String {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort_by(|a, b| a.encode_utf16().cmp(b.encode_utf16()));
            let parts: Vec<String> = keys
                .iter()
                .map(|k| {
                    format!(
                        "{}:{}",
                        serde_json::to_string(k).unwrap_or_default(),
                        stable_stringify(&m[*k])
                    )
                })
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(stable_stringify).collect::<Vec<_>>().join(",")
        ),
        other => js_stringify(other),
    }
}

/// A message with media in the keys `canonicalizeTranscriptEventMedia` rewrites, which this
/// import does not reproduce yet.
fn has_legacy_media(event: &Value) -> bool {
    const KEYS: [&str; 10] = [
        "MediaPath",
        "MediaPaths",
        "MediaUrl",
        "MediaUrls",
        "MediaType",
        "MediaTypes",
        "MediaTranscribedIndexes",
        "MediaStaged",
        "MediaWorkspaceDir",
        "media",
    ];
    event.get("type").and_then(Value::as_str) == Some("message")
        && event
            .get("message")
            .and_then(Value::as_object)
            .is_some_and(|m| KEYS.iter().any(|k| m.contains_key(*k)))
}

/// Stream the transcript into `transcript_events`, skipping what is already stored.
#[allow(clippy::too_many_arguments)]
fn import_events(
    tx: &Transaction<'_>,
    schema: AgentSchema,
    search: &mut SearchRows,
    db: &Path,
    record: &ImportRecord,
    path: &Path,
    now_ms: i64,
    progress: &dyn Progress,
    out: &mut RecordOutcome,
) -> Result<()> {
    use std::io::BufRead;
    let sid = record.session_id.as_str();
    let key = record.session_key.as_str();
    let mut next_seq: i64 = events::next_seq(tx, sid).at(db)?;
    // Only a re-run has stored events to skip: a fresh import keeps no per-event state
    // besides the ids it wrote.
    // hash of the event JSON -> (created_at, stored before this run)
    let mut seen: HashMap<[u8; 32], (i64, bool)> = HashMap::new();
    // 128-bit digests of the event ids: 16 bytes per event, whatever the id length.
    let mut ids: HashSet<[u8; 16]> = HashSet::new();
    if next_seq > 0 {
        let compressed = schema.compresses_events();
        events::for_each_stored(
            tx,
            db,
            sid,
            compressed,
            |json, frame, len, seq, created_at| {
                let (json, _) =
                    crate::transcript::decode_event_row(sid, seq, json, frame.as_deref(), len)?;
                seen.insert(hash(&json), (created_at, true));
                Ok(())
            },
        )?;
        events::for_each_event_id(tx, db, sid, |id| {
            ids.insert(id_digest(id));
        })?;
    }
    let mut appender = EventAppender::load_for(tx, schema, sid, now_ms).at(db)?;
    let mut converter = TranscriptConverter::new(&path.to_string_lossy(), sid);
    let file = crate::fsutil::open_regular(path)?;
    let mut reader = std::io::BufReader::with_capacity(256 * 1024, file);
    let mut line = Vec::new();
    let mut line_no = 0u64;
    let mut last_time: Option<i64> = None;
    out.complete = true;
    out.recognised = true;
    let mut first = true;
    let mut media_reported = false;
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line).at(path)?;
        if n == 0 {
            break;
        }
        progress.advance(n as u64);
        line_no += 1;
        let parsed = std::str::from_utf8(&line)
            .map_err(|e| e.to_string())
            .and_then(|s| {
                let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
                if t.is_empty() {
                    Ok(None)
                } else {
                    crate::json_value::from_str::<Value>(t)
                        .map(Some)
                        .map_err(|e| e.to_string())
                }
            });
        let value = match parsed {
            Ok(Some(v)) => v,
            Ok(None) => continue,
            Err(e) => {
                out.complete = false;
                out.issues.push(ImportIssue::new(
                    "transcript_malformed",
                    format!(
                        "{}: line {line_no}: {e}. Only the readable prefix can be imported; the original remains protected for recovery.",
                        path.display()
                    ),
                    Some(key),
                ));
                break;
            }
        };
        let Some(event) = converter.convert(value) else {
            continue;
        };
        if !media_reported && has_legacy_media(&event) {
            media_reported = true;
            out.issues.push(ImportIssue::new(
                "transcript_media_kept",
                format!(
                    "{} line {line_no}: message media in the retired Media* keys kept as written (OpenClaw's import moves them into message.__openclaw.media)",
                    path.display()
                ),
                Some(key),
            ));
        }
        let is_header = event.get("type").and_then(Value::as_str) == Some("session");
        if (is_header && !first)
            || (!is_header && !crate::writer::transcript::payload::is_recognised_record(&event))
        {
            out.recognised = false;
        }
        first = false;
        let json = js_stringify(&event);
        let digest = hash(&json);
        if let Some(&(stored_at, before)) = seen.get(&digest) {
            // A line repeated in the file is dropped (OpenClaw's repair); an event an
            // earlier run stored still counts, and still sets the window's clock.
            if before {
                out.events_expected += 1;
                last_time = Some(stored_at);
            } else {
                out.repaired = true;
            }
            continue;
        }
        out.events_expected += 1;
        let created_at = event_time(&event, now_ms);
        last_time = Some(created_at);
        if let Some(id) = event_id(&event) {
            if !ids.insert(id_digest(id)) {
                // Another event already owns this id: OpenClaw skips it the same way.
                out.events_expected -= 1;
                out.recognised = false;
                continue;
            }
        }
        if json.len() > MAX_EVENT_BYTES {
            return Err(Error::bad_input(
                format!(
                    "{} line {line_no}: event of {} bytes is larger than the 4 MiB OpenClaw stores",
                    path.display(),
                    json.len()
                ),
                // The batch's transaction rolls back; a database this run was creating is
                // discarded whole (its stage is dropped), so only earlier batches of a
                // database that already existed stay written.
                Some(
                    "this agent's import stopped before its current batch: a database the run was creating is not kept; trim the event and run again"
                        .to_string(),
                ),
            ));
        }
        let seq = next_seq;
        next_seq += 1;
        appender
            .append(tx, search, seq, &json, &event, created_at)
            .at(db)?;
        out.events_inserted += 1;
        seen.insert(digest, (created_at, false));
    }
    appender.finish(tx, search).at(db)?;
    if let Some(t) = last_time {
        windows::set_updated_at(tx, sid, t).at(db)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_stringify_sorts_keys_and_media_keys_are_noticed() {
        let v = serde_json::json!({"b": 1, "a": {"d": [2.0, "x"], "c": null}});
        assert_eq!(
            stable_stringify(&v),
            r#"{"a":{"c":null,"d":[2,"x"]},"b":1}"#
        );
        let with_media = serde_json::json!({"type": "message", "message": {"role": "user", "MediaPaths": ["/a.png"]}});
        assert!(has_legacy_media(&with_media));
        let plain =
            serde_json::json!({"type": "message", "message": {"role": "user", "content": "x"}});
        assert!(!has_legacy_media(&plain));
    }
}
