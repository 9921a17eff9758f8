//! `compact`: inline media out of transcript rows, and `compact --restore`: every payload put
//! back as it was (docs/openclaw/MEDIA.md, "Taking media out of rows").
//!
//! A block of an event's message content with a string `data` field at least `min_bytes`
//! long (what `du --content` counts as inline media) leaves the row: its base64 text goes to
//! a content-addressed file of this tool's own directory in the state dir
//! (`openclaw-sessions/media/<agent>/<sha256>`, 0600), and the block becomes the form
//! OpenClaw itself gives an image it leaves out of a message (its tool-result sanitizer and
//! its transcript reader's oversized-line recovery): the block without `data`, with
//! `bytes` (the decoded size, as OpenClaw estimates it) and `omitted: true`. Every release
//! reads such a block; none resolves it back, so the conversation stays valid, without the
//! picture.
//!
//! What brings the row back byte for byte is a record per event
//! (`openclaw-sessions/compact/<agent>/<name>.json`): the original text cut at each payload
//! (the pieces between, and the payloads' digests), the digests of the original and the
//! compacted text, and how the original was stored. Files are written and synced before the
//! row changes; a record whose row still holds the original text is a leftover of a run that
//! stopped before its commit, and changes nothing.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use rusqlite::TransactionBehavior;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::digest::sha256_hex;
use crate::error::{Error, Result, ResultExt};
use crate::store::db::{events, windows};
use crate::store::{AgentSchema, ReadOnlyDb};
use crate::transcript::decode_event_row;
use crate::writer::transcript::{rewrite_event, RewriteError};
use crate::writer::{crash_point, WritableDb};

/// Payloads shorter than this stay in the row unless `--min-bytes` says otherwise.
pub const DEFAULT_MIN_BYTES: u64 = 64 * 1024;

/// Rows below this size are not read by a plan: what inline media they hold is too small to
/// count among what stays.
const COUNTED_ROW_BYTES: u64 = 1024;

/// Events whose rows are rewritten in one transaction (and whose payloads are held at once).
const BATCH_EVENTS: usize = 16;
/// A batch holds each event's text about three times (parsed, cut, payloads): 8 MiB of text
/// keeps a run's memory in tens of MB whatever the store.
const BATCH_BYTES: usize = 8 * 1024 * 1024;

/// This tool's own directory in the state dir.
pub fn tool_dir(state_dir: &Path) -> PathBuf {
    state_dir.join("openclaw-sessions")
}

/// Where the payloads of one agent's compacted events are kept.
pub fn media_dir(state_dir: &Path, agent_id: &str) -> PathBuf {
    tool_dir(state_dir).join("media").join(agent_id)
}

/// Where the records that bring one agent's compacted events back are kept.
pub fn records_dir(state_dir: &Path, agent_id: &str) -> PathBuf {
    tool_dir(state_dir).join("compact").join(agent_id)
}

/// OpenClaw's `estimateBase64DecodedBytes`: the decoded size without decoding.
pub fn estimate_decoded_bytes(b64: &str) -> u64 {
    let bytes = b64.as_bytes();
    let effective = bytes.iter().filter(|&&c| c > 32).count() as u64;
    if effective == 0 {
        return 0;
    }
    // Trailing whitespace is skipped, then one or two `=` are padding.
    let skip = |mut end: usize| {
        while end > 0 && bytes[end - 1] <= 32 {
            end -= 1;
        }
        end
    };
    let mut padding = 0;
    let end = skip(bytes.len());
    if end > 0 && bytes[end - 1] == b'=' {
        padding = 1;
        let end = skip(end - 1);
        if end > 0 && bytes[end - 1] == b'=' {
            padding = 2;
        }
    }
    (effective * 3 / 4).saturating_sub(padding)
}

/// One piece of an event's original text: text as it was, or a payload kept in a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Segment {
    Text(String),
    Media { media: String, bytes: u64 },
}

/// An event with its large inline payloads taken out.
pub struct Cut {
    /// The compacted event and its text.
    pub event: Value,
    pub json: String,
    /// The original text, cut at each payload taken.
    pub segments: Vec<Segment>,
    /// `(sha256, payload)` of each payload taken, in order.
    pub payloads: Vec<(String, String)>,
    /// Bytes of inline payloads left in the row (below the threshold, or not found verbatim).
    pub left_inline: u64,
}

impl Cut {
    pub fn media_bytes(&self) -> u64 {
        self.payloads.iter().map(|(_, p)| p.len() as u64).sum()
    }
}

/// Take every inline payload of at least `min_bytes` out of `event` (stored as `text`).
/// `None` when nothing is taken. A payload is taken only where its JSON string appears
/// verbatim in the text (OpenClaw writes base64 unescaped), so that the pieces around it
/// give the original text back byte for byte.
pub fn cut_event(text: &str, event: &Value, min_bytes: u64) -> Option<Cut> {
    let blocks = event.get("message")?.get("content")?.as_array()?;
    let mut taken: Vec<(usize, usize, usize)> = Vec::new(); // (block, start, end) in text
    let mut cursor = 0;
    let mut left_inline = 0;
    for (i, block) in blocks.iter().enumerate() {
        let Some(data) = block.get("data").and_then(Value::as_str) else {
            continue;
        };
        if (data.len() as u64) < min_bytes.max(1) {
            left_inline += data.len() as u64;
            continue;
        }
        let quoted = format!("\"{data}\"");
        match text[cursor..].find(&quoted) {
            Some(at) => {
                let start = cursor + at + 1;
                let end = start + data.len();
                taken.push((i, start, end));
                cursor = end + 1;
            }
            None => left_inline += data.len() as u64,
        }
    }
    if taken.is_empty() {
        return None;
    }
    let mut compacted = event.clone();
    let content = compacted
        .get_mut("message")?
        .get_mut("content")?
        .as_array_mut()?;
    let mut segments = Vec::new();
    let mut payloads = Vec::new();
    let mut last = 0;
    for &(i, start, end) in &taken {
        let obj = content.get_mut(i)?.as_object_mut()?;
        let data = match obj.shift_remove("data") {
            Some(Value::String(s)) => s,
            _ => return None,
        };
        // OpenClaw's own omitted-image form: the block without its data, its decoded size,
        // `omitted: true` (a `bytes` already there keeps its place).
        obj.insert("bytes".into(), Value::from(estimate_decoded_bytes(&data)));
        obj.insert("omitted".into(), Value::Bool(true));
        let sha = sha256_hex(data.as_bytes());
        segments.push(Segment::Text(text[last..start].to_string()));
        segments.push(Segment::Media {
            media: sha.clone(),
            bytes: data.len() as u64,
        });
        last = end;
        payloads.push((sha, data));
    }
    segments.push(Segment::Text(text[last..].to_string()));
    let json = serde_json::to_string(&compacted).ok()?;
    Some(Cut {
        event: compacted,
        json,
        segments,
        payloads,
        left_inline,
    })
}

/// What brings one compacted event back.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Record {
    pub version: u32,
    pub agent_id: String,
    pub session_id: String,
    pub seq: i64,
    pub original_sha256: String,
    pub original_bytes: u64,
    /// `plain` or `zstd`, as the row stored it.
    pub original_stored: String,
    pub compacted_sha256: String,
    pub compacted_bytes: u64,
    pub compacted_at: i64,
    pub segments: Vec<Segment>,
}

impl Record {
    /// The file name: one per event, whatever the session id holds.
    pub fn file_name(session_id: &str, seq: i64) -> String {
        let digest = sha256_hex(session_id.as_bytes());
        format!("{}-{seq}.json", &digest[..32])
    }

    pub fn media(&self) -> impl Iterator<Item = (&str, u64)> {
        self.segments.iter().filter_map(|s| match s {
            Segment::Media { media, bytes } => Some((media.as_str(), *bytes)),
            Segment::Text(_) => None,
        })
    }

    pub fn media_bytes(&self) -> u64 {
        self.media().map(|(_, n)| n).sum()
    }
}

/// What to compact.
#[derive(Debug, Clone)]
pub struct CompactOptions {
    pub min_bytes: u64,
    /// Only events stored before this time (ms).
    pub before_ms: Option<i64>,
}

/// One event to compact, as planned.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EventPlan {
    pub seq: i64,
    #[serde(skip)]
    pub sha256: String,
    pub bytes: u64,
    pub media_bytes: u64,
    pub blocks: u64,
}

/// One session's share of a plan.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionCompaction {
    pub session_id: String,
    pub session_key: Option<String>,
    pub events: u64,
    pub blocks: u64,
    /// Bytes of base64 taken out of the rows.
    pub media_bytes: u64,
    /// Serialized event bytes of the events changed, before and after.
    pub bytes_before: u64,
    pub bytes_after: u64,
    /// Inline payloads that stay (below the threshold, newer than `--older-than`, or not
    /// found verbatim in their text; rows under 1 KiB are not read).
    pub left_inline_bytes: u64,
    #[serde(skip)]
    pub planned: Vec<EventPlan>,
}

/// Plan one agent database: the sessions given (or all), event by event.
pub fn plan_compact(
    db: &ReadOnlyDb,
    sessions: Option<&[String]>,
    options: &CompactOptions,
) -> Result<Vec<SessionCompaction>> {
    let schema = AgentSchema::of(db.conn()).at(db.path())?;
    let mut out: BTreeMap<String, SessionCompaction> = BTreeMap::new();
    let mut visit = |row: events::AnyEventRow<'_>| -> Result<()> {
        // A row this small holds no payload worth a line of the plan: not even decoded.
        let size = row
            .utf8_bytes
            .unwrap_or(row.stored_bytes)
            .max(row.stored_bytes) as u64;
        if size < options.min_bytes.clamp(1, COUNTED_ROW_BYTES) {
            return Ok(());
        }
        let (text, _) =
            decode_event_row(row.session_id, row.seq, row.json, row.frame, row.utf8_bytes)?;
        let Ok(event) = serde_json::from_str::<Value>(&text) else {
            return Ok(());
        };
        let old_enough = options
            .before_ms
            .is_none_or(|b| row.created_at.is_some_and(|c| c < b));
        let s = out
            .entry(row.session_id.to_string())
            .or_insert_with(|| SessionCompaction {
                session_id: row.session_id.to_string(),
                ..Default::default()
            });
        let cut = if old_enough {
            cut_event(&text, &event, options.min_bytes)
        } else {
            None
        };
        let Some(cut) = cut else {
            s.left_inline_bytes += inline_bytes(&event);
            return Ok(());
        };
        s.events += 1;
        s.blocks += cut.payloads.len() as u64;
        s.media_bytes += cut.media_bytes();
        s.bytes_before += text.len() as u64;
        s.bytes_after += cut.json.len() as u64;
        s.left_inline_bytes += cut.left_inline;
        s.planned.push(EventPlan {
            seq: row.seq,
            sha256: sha256_hex(text.as_bytes()),
            bytes: text.len() as u64,
            media_bytes: cut.media_bytes(),
            blocks: cut.payloads.len() as u64,
        });
        Ok(())
    };
    match sessions {
        Some(ids) => {
            for id in ids {
                events::for_each_any(db.conn(), db.path(), schema, Some(id), &mut visit)?;
            }
        }
        None => events::for_each_any(db.conn(), db.path(), schema, None, &mut visit)?,
    }
    let mut sessions: Vec<SessionCompaction> = out
        .into_values()
        .filter(|s| s.events > 0 || s.left_inline_bytes > 0)
        .collect();
    for s in &mut sessions {
        s.session_key = windows::session_key_of(db.conn(), &s.session_id).at(db.path())?;
    }
    sessions.sort_by(|a, b| {
        b.media_bytes
            .cmp(&a.media_bytes)
            .then_with(|| a.session_id.cmp(&b.session_id))
    });
    Ok(sessions)
}

/// Inline payload bytes of an event (what `du --content` counts as inline media).
fn inline_bytes(event: &Value) -> u64 {
    event
        .get("message")
        .and_then(|m| m.get("content"))
        .and_then(Value::as_array)
        .map_or(0, |blocks| {
            blocks
                .iter()
                .filter_map(|b| b.get("data").and_then(Value::as_str))
                .map(|d| d.len() as u64)
                .sum()
        })
}

/// The files of one agent's compacted events.
pub struct MediaStore {
    pub media: PathBuf,
    pub records: PathBuf,
}

impl MediaStore {
    pub fn new(state_dir: &Path, agent_id: &str) -> Self {
        MediaStore {
            media: media_dir(state_dir, agent_id),
            records: records_dir(state_dir, agent_id),
        }
    }

    fn ensure_dirs(&self) -> Result<()> {
        crate::fsutil::create_private_dir_all(&self.media)?;
        crate::fsutil::create_private_dir_all(&self.records)
    }

    /// Keep `payload` under its digest; one already there must hold the same bytes.
    fn put_media(&self, sha: &str, payload: &str) -> Result<()> {
        let path = self.media.join(sha);
        if path.symlink_metadata().is_ok() {
            let (have, _) = crate::digest::sha256_file(&path)?;
            if have == sha {
                return Ok(());
            }
            return Err(Error::Conflict {
                message: format!(
                    "{} does not hold the payload its name says (sha256 {have})",
                    path.display()
                ),
                hint: Some(
                    "move the damaged file away and run compact again; nothing was changed".into(),
                ),
            });
        }
        crate::fsutil::write_new_file(&path, &mut |w| w.write_all(payload.as_bytes()).at(&path))
    }

    /// Read a payload back, checked against its digest.
    pub fn get_media(&self, sha: &str) -> Result<String> {
        let path = self.media.join(sha);
        let bytes = crate::fsutil::read_regular(&path)?;
        if sha256_hex(&bytes) != sha {
            return Err(Error::bad_input(
                format!("{} does not hold the payload its name says", path.display()),
                Some("restore it from a backup of the state dir; no row was changed".to_string()),
            ));
        }
        String::from_utf8(bytes)
            .map_err(|_| Error::bad_input(format!("{} is not UTF-8", path.display()), None))
    }

    fn record_path(&self, session_id: &str, seq: i64) -> PathBuf {
        self.records.join(Record::file_name(session_id, seq))
    }

    /// Write a record; one left by an interrupted run for the same event is replaced.
    fn put_record(&self, record: &Record) -> Result<()> {
        let path = self.record_path(&record.session_id, record.seq);
        let bytes = serde_json::to_vec(record).map_err(|e| Error::Internal(e.to_string()))?;
        if path.symlink_metadata().is_ok() {
            if crate::fsutil::read_regular(&path).ok().as_deref() == Some(&bytes[..]) {
                return Ok(());
            }
            std::fs::remove_file(&path).at(&path)?;
        }
        crate::fsutil::write_new_file(&path, &mut |w| w.write_all(&bytes).at(&path))
    }

    /// Every record of the agent, in name order.
    pub fn records(&self) -> Result<Vec<Record>> {
        let Some(dir) = crate::fsutil::read_dir_if_exists(&self.records)? else {
            return Ok(Vec::new());
        };
        let mut names = Vec::new();
        for entry in dir {
            let entry = entry.at(&self.records)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".json") && !name.starts_with('.') {
                names.push(name);
            }
        }
        names.sort();
        let mut out = Vec::with_capacity(names.len());
        for name in names {
            let path = self.records.join(&name);
            let text = crate::fsutil::read_regular_to_string(&path)?;
            let record: Record = serde_json::from_str(&text).map_err(|e| {
                Error::bad_input(
                    format!("{} is not a compact record: {e}", path.display()),
                    Some("move it away (its payloads stay in the media directory)".to_string()),
                )
            })?;
            out.push(record);
        }
        Ok(out)
    }

    fn remove_record(&self, session_id: &str, seq: i64) -> Result<()> {
        let path = self.record_path(session_id, seq);
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(Error::io(&path, e)),
        }
    }

    /// Remove every payload no record refers to; returns how many. Such a file is never
    /// needed: a row loses its payload only after the record naming the file is synced.
    pub fn collect_garbage(&self) -> Result<u64> {
        let wanted: BTreeSet<String> = self
            .records()?
            .iter()
            .flat_map(|r| r.media().map(|(m, _)| m.to_string()).collect::<Vec<_>>())
            .collect();
        let Some(dir) = crate::fsutil::read_dir_if_exists(&self.media)? else {
            return Ok(0);
        };
        let mut removed = 0;
        for entry in dir {
            let entry = entry.at(&self.media)?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') || wanted.contains(&name) {
                continue;
            }
            std::fs::remove_file(entry.path()).at(entry.path())?;
            removed += 1;
        }
        let _ = crate::fsutil::fsync_dir(&self.media);
        Ok(removed)
    }

    /// Temporary files of a run that was killed.
    pub fn remove_leftovers(&self) -> Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        for dir in [&self.media, &self.records] {
            let Some(list) = crate::fsutil::read_dir_if_exists(dir)? else {
                continue;
            };
            for entry in list {
                let entry = entry.at(dir)?;
                let name = entry.file_name().to_string_lossy().into_owned();
                if name.starts_with('.') && name.ends_with(".tmp") {
                    std::fs::remove_file(entry.path()).at(entry.path())?;
                    out.push(entry.path());
                }
            }
        }
        Ok(out)
    }
}

/// One event as the row holds it now.
fn read_row(
    db: &WritableDb,
    schema: AgentSchema,
    session_id: &str,
    seq: i64,
) -> Result<Option<(String, bool)>> {
    let payload = match events::payload(&db.conn, schema, session_id, seq) {
        Ok(p) => p,
        Err(rusqlite::Error::QueryReturnedNoRows) => return Ok(None),
        Err(e) => return Err(Error::sqlite(&db.path, e)),
    };
    let (json, frame, utf8) = payload;
    let compressed = frame.is_some() && json.is_none();
    let (text, _) = decode_event_row(session_id, seq, json, frame.as_deref(), utf8)?;
    Ok(Some((text, compressed)))
}

fn rewrite_failed(path: &Path, session_id: &str, seq: i64, e: RewriteError) -> Error {
    match e {
        RewriteError::Sqlite(e) => Error::sqlite(path, e),
        RewriteError::Projection(what) => Error::Internal(format!(
            "transcript row {session_id}#{seq}: the rewrite would change its {what}"
        )),
        RewriteError::Missing => Error::Internal(format!(
            "transcript row {session_id}#{seq} disappeared under custody"
        )),
    }
}

/// What happened to one session's events.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionDone {
    pub session_id: String,
    pub events: u64,
    pub media_bytes: u64,
    /// Events whose row changed since the plan (left as they are).
    pub changed: u64,
    /// `(seq, compacted sha256)` of every event written.
    #[serde(skip)]
    pub written: Vec<(i64, String)>,
}

struct Pending {
    session: usize,
    seq: i64,
    old: Value,
    cut: Cut,
}

/// Compact the planned events of one agent database: payload files and records first
/// (synced), then the rows, a batch per transaction.
pub fn apply_compact(
    db: &mut WritableDb,
    store: &MediaStore,
    agent_id: &str,
    sessions: &[SessionCompaction],
    options: &CompactOptions,
    now_ms: i64,
    interrupted: &dyn Fn() -> bool,
) -> Result<Vec<SessionDone>> {
    let schema = AgentSchema::of(&db.conn).at(&db.path)?;
    store.ensure_dirs()?;
    let mut done: Vec<SessionDone> = sessions
        .iter()
        .map(|s| SessionDone {
            session_id: s.session_id.clone(),
            ..Default::default()
        })
        .collect();
    let mut batch: Vec<Pending> = Vec::new();
    let mut held = 0usize;
    let batch_events = crate::test_hooks::apply_batch().unwrap_or(BATCH_EVENTS);
    for (si, s) in sessions.iter().enumerate() {
        for ev in &s.planned {
            if interrupted() {
                flush(db, schema, store, &mut batch, &mut done, sessions)?;
                return Err(Error::Interrupted);
            }
            let Some((text, compressed)) = read_row(db, schema, &s.session_id, ev.seq)? else {
                done[si].changed += 1;
                continue;
            };
            if sha256_hex(text.as_bytes()) != ev.sha256 {
                done[si].changed += 1;
                continue;
            }
            let Ok(old) = serde_json::from_str::<Value>(&text) else {
                done[si].changed += 1;
                continue;
            };
            let Some(cut) = cut_event(&text, &old, options.min_bytes) else {
                done[si].changed += 1;
                continue;
            };
            for (sha, payload) in &cut.payloads {
                store.put_media(sha, payload)?;
            }
            store.put_record(&Record {
                version: 1,
                agent_id: agent_id.to_string(),
                session_id: s.session_id.clone(),
                seq: ev.seq,
                original_sha256: ev.sha256.clone(),
                original_bytes: text.len() as u64,
                original_stored: if compressed { "zstd" } else { "plain" }.to_string(),
                compacted_sha256: sha256_hex(cut.json.as_bytes()),
                compacted_bytes: cut.json.len() as u64,
                compacted_at: now_ms,
                segments: cut.segments.clone(),
            })?;
            held += text.len();
            batch.push(Pending {
                session: si,
                seq: ev.seq,
                old,
                cut,
            });
            if batch.len() >= batch_events || held >= BATCH_BYTES {
                flush(db, schema, store, &mut batch, &mut done, sessions)?;
                held = 0;
            }
        }
    }
    flush(db, schema, store, &mut batch, &mut done, sessions)?;
    Ok(done)
}

fn flush(
    db: &mut WritableDb,
    schema: AgentSchema,
    store: &MediaStore,
    batch: &mut Vec<Pending>,
    done: &mut [SessionDone],
    sessions: &[SessionCompaction],
) -> Result<()> {
    if batch.is_empty() {
        return Ok(());
    }
    // The payloads and records are on disk before any row loses its payload.
    crate::fsutil::fsync_dir(&store.media)?;
    crate::fsutil::fsync_dir(&store.records)?;
    crash_point("compact-files-written");
    let path = db.path.clone();
    let tx = db
        .conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .at(&path)?;
    for p in batch.iter() {
        let sid = &sessions[p.session].session_id;
        rewrite_event(&tx, schema, sid, p.seq, &p.old, &p.cut.json, &p.cut.event)
            .map_err(|e| rewrite_failed(&path, sid, p.seq, e))?;
        crash_point("compact-row");
    }
    crash_point("compact-before-commit");
    tx.commit().at(&path)?;
    crash_point("compact-committed");
    for p in batch.drain(..) {
        let d = &mut done[p.session];
        d.events += 1;
        d.media_bytes += p.cut.media_bytes();
        d.written.push((p.seq, sha256_hex(p.cut.json.as_bytes())));
    }
    Ok(())
}

/// What a restore found for one record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RestoreResult {
    /// The payloads are back in the row.
    Restored,
    /// The row already held the original (a compact stopped before its commit, or a restore
    /// before removing its record): the record goes.
    AlreadyOriginal,
    /// The row changed since it was compacted: record and payloads are kept.
    Changed,
    /// The row is gone (the session was deleted since): record and payloads are kept.
    Gone,
}

/// One record as a restore plan sees it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RestorePlanned {
    pub session_id: String,
    pub session_key: Option<String>,
    pub seq: i64,
    pub media_bytes: u64,
    pub result: RestoreResult,
    #[serde(skip)]
    pub record: Record,
}

/// Look at every record of the agent (of the sessions given) against the rows.
pub fn plan_restore(
    db: &ReadOnlyDb,
    store: &MediaStore,
    sessions: Option<&[String]>,
) -> Result<Vec<RestorePlanned>> {
    let schema = AgentSchema::of(db.conn()).at(db.path())?;
    let mut out = Vec::new();
    for record in store.records()? {
        if sessions.is_some_and(|ids| !ids.contains(&record.session_id)) {
            continue;
        }
        let result = match events::payload(db.conn(), schema, &record.session_id, record.seq) {
            Err(rusqlite::Error::QueryReturnedNoRows) => RestoreResult::Gone,
            Err(e) => return Err(Error::sqlite(db.path(), e)),
            Ok((json, frame, utf8)) => {
                let (text, _) =
                    decode_event_row(&record.session_id, record.seq, json, frame.as_deref(), utf8)?;
                let sha = sha256_hex(text.as_bytes());
                if sha == record.compacted_sha256 {
                    RestoreResult::Restored
                } else if sha == record.original_sha256 {
                    RestoreResult::AlreadyOriginal
                } else {
                    RestoreResult::Changed
                }
            }
        };
        out.push(RestorePlanned {
            session_key: windows::session_key_of(db.conn(), &record.session_id).at(db.path())?,
            session_id: record.session_id.clone(),
            seq: record.seq,
            media_bytes: record.media_bytes(),
            result,
            record,
        });
    }
    Ok(out)
}

/// The original text of a record, from its pieces and payload files, checked.
pub fn rebuild(store: &MediaStore, record: &Record) -> Result<String> {
    let mut text = String::with_capacity(record.original_bytes as usize);
    for s in &record.segments {
        match s {
            Segment::Text(t) => text.push_str(t),
            Segment::Media { media, .. } => text.push_str(&store.get_media(media)?),
        }
    }
    if sha256_hex(text.as_bytes()) != record.original_sha256 {
        return Err(Error::bad_input(
            format!(
                "the payloads of transcript row {}#{} do not give its original text back",
                record.session_id, record.seq
            ),
            Some("nothing was changed; keep the media directory as it is".to_string()),
        ));
    }
    Ok(text)
}

/// Put the payloads of the planned records back, a batch per transaction; then, each row
/// read back as the original, remove its record, and the payloads no record needs.
pub fn apply_restore(
    db: &mut WritableDb,
    store: &MediaStore,
    planned: &[RestorePlanned],
    interrupted: &dyn Fn() -> bool,
) -> Result<u64> {
    let schema = AgentSchema::of(&db.conn).at(&db.path)?;
    let path = db.path.clone();
    let todo: Vec<&RestorePlanned> = planned
        .iter()
        .filter(|p| p.result == RestoreResult::Restored)
        .collect();
    let batch_events = crate::test_hooks::apply_batch().unwrap_or(BATCH_EVENTS);
    // Batches of at most `batch_events` events and BATCH_BYTES of original text (one event
    // larger than that is a batch of its own).
    let mut chunks: Vec<&[&RestorePlanned]> = Vec::new();
    let (mut start, mut held) = (0, 0usize);
    for (i, p) in todo.iter().enumerate() {
        if i > start
            && (i - start >= batch_events || held + p.record.original_bytes as usize > BATCH_BYTES)
        {
            chunks.push(&todo[start..i]);
            (start, held) = (i, 0);
        }
        held += p.record.original_bytes as usize;
    }
    if start < todo.len() {
        chunks.push(&todo[start..]);
    }
    for chunk in chunks {
        if interrupted() {
            return Err(Error::Interrupted);
        }
        let mut texts = Vec::with_capacity(chunk.len());
        for p in chunk {
            let original = rebuild(store, &p.record)?;
            let Some((current, _)) = read_row(db, schema, &p.session_id, p.seq)? else {
                return Err(Error::Internal(format!(
                    "transcript row {}#{} disappeared under custody",
                    p.session_id, p.seq
                )));
            };
            texts.push((p, original, current));
        }
        let tx = db
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .at(&path)?;
        for (p, original, current) in &texts {
            if sha256_hex(current.as_bytes()) != p.record.compacted_sha256 {
                continue;
            }
            let old: Value = serde_json::from_str(current)
                .map_err(|e| Error::Internal(format!("compacted row does not parse: {e}")))?;
            let new: Value = serde_json::from_str(original)
                .map_err(|e| Error::Internal(format!("original row does not parse: {e}")))?;
            rewrite_event(&tx, schema, &p.session_id, p.seq, &old, original, &new)
                .map_err(|e| rewrite_failed(&path, &p.session_id, p.seq, e))?;
            crash_point("restore-row");
        }
        crash_point("restore-before-commit");
        tx.commit().at(&path)?;
        crash_point("restore-committed");
    }
    // A record goes only once its row reads back as the original.
    for p in planned {
        if !matches!(
            p.result,
            RestoreResult::Restored | RestoreResult::AlreadyOriginal
        ) {
            continue;
        }
        if let Some((text, _)) = read_row(db, schema, &p.session_id, p.seq)? {
            if sha256_hex(text.as_bytes()) == p.record.original_sha256 {
                store.remove_record(&p.session_id, p.seq)?;
            }
        }
    }
    if store.records.is_dir() {
        crate::fsutil::fsync_dir(&store.records)?;
    }
    crash_point("restore-records-removed");
    store.collect_garbage()
}

/// The decoded text of every row named, for verification: `(session, seq) -> sha256`.
pub fn row_digests(
    db: &ReadOnlyDb,
    rows: &[(String, i64)],
) -> Result<BTreeMap<(String, i64), Option<String>>> {
    let schema = AgentSchema::of(db.conn()).at(db.path())?;
    let mut out = BTreeMap::new();
    for (sid, seq) in rows {
        let digest = match events::payload(db.conn(), schema, sid, *seq) {
            Err(rusqlite::Error::QueryReturnedNoRows) => None,
            Err(e) => return Err(Error::sqlite(db.path(), e)),
            Ok((json, frame, utf8)) => {
                let (text, _) = decode_event_row(sid, *seq, json, frame.as_deref(), utf8)?;
                Some(sha256_hex(text.as_bytes()))
            }
        };
        out.insert((sid.clone(), *seq), digest);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimate_matches_openclaws_arithmetic() {
        assert_eq!(estimate_decoded_bytes(""), 0);
        assert_eq!(estimate_decoded_bytes("QUJD"), 3);
        assert_eq!(estimate_decoded_bytes("QUI="), 2);
        assert_eq!(estimate_decoded_bytes("QQ=="), 1);
        assert_eq!(estimate_decoded_bytes("QQ==\n"), 1);
    }

    #[test]
    fn a_cut_keeps_every_byte_of_the_original_in_its_pieces() {
        let data = "QUJD".repeat(100);
        let text = format!(
            r#"{{"type":"message","id":"a","message":{{"role":"toolResult","content":[{{"type":"text","text":"x"}},{{"type":"image","data":"{data}","mimeType":"image/png"}},{{"type":"image","data":"QQ==","mimeType":"image/png"}}]}}}}"#
        );
        let event: Value = serde_json::from_str(&text).unwrap();
        let cut = cut_event(&text, &event, 100).unwrap();
        assert_eq!(cut.payloads.len(), 1);
        assert_eq!(cut.left_inline, 4);
        assert!(cut
            .json
            .contains(r#"{"type":"image","mimeType":"image/png","bytes":300,"omitted":true}"#));
        let mut back = String::new();
        for s in &cut.segments {
            match s {
                Segment::Text(t) => back.push_str(t),
                Segment::Media { media, .. } => {
                    assert_eq!(media, &cut.payloads[0].0);
                    back.push_str(&cut.payloads[0].1);
                }
            }
        }
        assert_eq!(back, text);
        assert!(cut_event(&text, &event, 1000).is_none());
    }
}
