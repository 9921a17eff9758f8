//! What a legacy import of one agent will do, read without changing anything: the index
//! entries normalised as OpenClaw stores them, each one's transcript, the orphan
//! transcripts and the other files that move into `session-sqlite-import-archive/`.

use std::path::{Path, PathBuf};

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use super::ledger::ImportLedger;
use super::types::{ImportIssue, ImportRecord};
use crate::error::{Error, Result, ResultExt};
use crate::legacy::{for_each_index_entry, IndexSource};
use crate::paths::AgentPaths;
use crate::store::db::create::ReleaseSchema;
use crate::streamed::serialize_visited;
use crate::writer::normalise_entry;

/// The import of one agent's legacy store. Its sessions, the `*.jsonl` files no entry
/// claims and that are not importable (moved, not imported), and later its moves, are kept in
/// its ledger.
#[derive(Debug)]
pub struct AgentImportPlan {
    pub agent_id: String,
    pub store_path: PathBuf,
    pub sqlite_path: PathBuf,
    pub sessions_dir: PathBuf,
    pub archive_dir: PathBuf,
    pub database_exists: bool,
    pub legacy_entries: usize,
    pub ledger: ImportLedger,
    pub issues: Vec<ImportIssue>,
    pub transcript_bytes: u64,
    /// The release whose schema the import writes: the one that owns the state dir
    /// (chosen before the import; OpenClaw 2026.9.6's by default).
    pub release: &'static ReleaseSchema,
}

/// A ledger's sessions as a JSON array.
struct RecordList<'a>(&'a ImportLedger);

impl Serialize for RecordList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serialize_visited(serializer, |emit| {
            self.0.for_each_record(|record, _| emit(record))
        })
    }
}

/// A ledger's unreferenced files as a JSON array.
struct UnreferencedList<'a>(&'a ImportLedger);

impl Serialize for UnreferencedList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serialize_visited(serializer, |emit| self.0.for_each_unreferenced(emit))
    }
}

impl Serialize for AgentImportPlan {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("AgentImportPlan", 10)?;
        s.serialize_field("agentId", &self.agent_id)?;
        s.serialize_field("storePath", &self.store_path)?;
        s.serialize_field("sqlitePath", &self.sqlite_path)?;
        s.serialize_field("databaseExists", &self.database_exists)?;
        s.serialize_field("legacyEntries", &self.legacy_entries)?;
        s.serialize_field("records", &RecordList(&self.ledger))?;
        s.serialize_field("unreferenced", &UnreferencedList(&self.ledger))?;
        s.serialize_field("issues", &self.issues)?;
        s.serialize_field("transcriptBytes", &self.transcript_bytes)?;
        s.serialize_field("schemaOfRelease", self.release.version)?;
        s.end()
    }
}

/// `validateSessionId` of transcript path resolution.
fn valid_transcript_id(id: &str) -> bool {
    let mut chars = id.chars();
    chars.next().is_some_and(char::is_alphanumeric)
        && id.chars().count() <= 128
        && id.len() <= 255
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '.' | '_' | '-') || is_mark(c))
}

fn is_mark(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// Candidate transcript paths of an entry, inside its sessions dir only, in OpenClaw's order
/// (docs/openclaw/IMPORT.md §4.1): first the recorded `sessionFile`
/// when it resolves inside the sessions dir (an absolute path from another home re-rooted
/// there), else `<sessionId>.jsonl`; then the file of that name in the sessions dir. The first
/// that exists is the transcript.
fn candidates(
    sessions_dir: &Path,
    agent: &str,
    session_file: Option<&str>,
    session_id: &str,
) -> Vec<PathBuf> {
    let by_id =
        valid_transcript_id(session_id).then(|| sessions_dir.join(format!("{session_id}.jsonl")));
    let Some(file) = session_file
        .map(str::trim)
        .filter(|f| !f.is_empty() && !f.starts_with("sqlite:"))
    else {
        return vec![sessions_dir.join(format!("{session_id}.jsonl"))];
    };
    let marker = format!("/agents/{agent}/sessions/");
    let rel = match file.rfind(&marker) {
        Some(pos) => Some(&file[pos + marker.len()..]),
        None if !file.starts_with('/') => Some(file),
        None => None,
    };
    let within = rel.filter(|rel| {
        Path::new(rel)
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
    });
    let relocated = Path::new(file)
        .file_name()
        .map(|base| sessions_dir.join(base));
    // A `sessionFile` outside the sessions dir (`../../x.jsonl`, another absolute path) is not
    // followed: OpenClaw falls back to the session id's own file.
    let default = match within {
        Some(rel) => Some(sessions_dir.join(rel)),
        None => by_id.or_else(|| relocated.clone()),
    };
    let mut out = Vec::new();
    for p in [default, relocated].into_iter().flatten() {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// A trajectory file of a transcript (`<stem>.trajectory.jsonl`, `.trajectory-path.json`).
fn trajectories(transcript: &Path) -> Vec<PathBuf> {
    let Some(stem) = transcript.to_str().and_then(|s| s.strip_suffix(".jsonl")) else {
        return Vec::new();
    };
    [".trajectory.jsonl", ".trajectory-path.json"]
        .iter()
        .map(|s| PathBuf::from(format!("{stem}{s}")))
        .filter(|p| p.is_file())
        .collect()
}

/// Plan the import of one agent whose `sessions.json` exists.
pub fn plan_agent(agent: &AgentPaths, index_path: &Path, now_ms: i64) -> Result<AgentImportPlan> {
    let sessions_dir = index_path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let agent_id = agent.id.as_str().to_string();
    let mut issues = Vec::new();
    let mut entry_issues = Vec::new();
    let ledger = ImportLedger::new()?;
    let file = crate::fsutil::open_regular(index_path)?;
    let source = IndexSource::File(&file);
    let read = for_each_index_entry(index_path, source, |key, value| {
        let valid = value
            .get("sessionId")
            .and_then(Value::as_str)
            .is_some_and(|s| !s.trim().is_empty());
        let Value::Object(raw) = value else {
            entry_issues.push(invalid_entry(index_path, &key));
            return Ok(());
        };
        if !valid {
            entry_issues.push(invalid_entry(index_path, &key));
            return Ok(());
        }
        let session_id = raw["sessionId"].as_str().unwrap_or_default().to_string();
        let session_file = raw.get("sessionFile").and_then(Value::as_str);
        let locked = raw.get("modelSelectionLocked") == Some(&Value::Bool(true));
        let has_file = session_file.is_some_and(|f| !f.trim().is_empty());
        if (!has_file || locked) && !valid_transcript_id(&session_id) {
            return Err(Error::bad_input(
                format!("{}: entry {key:?} has an invalid session id {session_id:?}", index_path.display()),
                Some(format!(
                    "OpenClaw's import stops on this entry as well; fix or remove it in {} and run again; nothing was changed",
                    index_path.display()
                )),
            ));
        }
        let cands = candidates(&sessions_dir, &agent_id, session_file, &session_id);
        let transcript = cands.iter().find(|p| p.is_file()).cloned();
        if transcript.is_none() && has_file {
            let shown = cands
                .first()
                .map(|p| p.display().to_string())
                .unwrap_or_default();
            entry_issues.push(ImportIssue::new(
                "transcript_missing",
                format!("Transcript file is missing: {shown}"),
                Some(&key),
            ));
        }
        let transcript_bytes = transcript
            .as_ref()
            .and_then(|p| std::fs::metadata(p).ok())
            .map_or(0, |m| m.len());
        let (entry_json, lineage) = stored_entry(normalise_entry(&key, &raw, now_ms));
        let record = ImportRecord {
            seq: 0,
            entry_json,
            session_key: key,
            session_id,
            trajectories: transcript.as_deref().map(trajectories).unwrap_or_default(),
            transcript,
            historical: false,
            adopted: false,
            transcript_bytes,
        };
        ledger.add_record(&record, &lineage, &cands)?;
        Ok(())
    })?;
    drop(file);
    if let Some(strict) = read.json5 {
        issues.push(ImportIssue::new(
            "store_json5",
            format!("{}: not plain JSON ({strict}); read with JSON5 rules, which OpenClaw's own import refuses", index_path.display()),
            None,
        ));
    }
    issues.extend(entry_issues);
    discover_orphans(&sessions_dir, &agent_id, &ledger, &mut issues)?;
    let transcript_bytes = ledger.counts()?.transcript_bytes;
    Ok(AgentImportPlan {
        agent_id,
        store_path: index_path.to_path_buf(),
        sqlite_path: agent.db.clone(),
        sessions_dir,
        archive_dir: agent.import_archive_dir.clone(),
        database_exists: agent.db.is_file(),
        legacy_entries: read.entries,
        ledger,
        issues,
        transcript_bytes,
        release: ReleaseSchema::current(),
    })
}

fn invalid_entry(index_path: &Path, key: &str) -> ImportIssue {
    ImportIssue::new(
        "entry_invalid",
        format!(
            "{}: session entry is missing a valid sessionId; skipped while preserving the original index for recovery.",
            index_path.display()
        ),
        Some(key),
    )
}

/// A primary transcript's header: `{type:"session", id|sessionId, version}` on the first line.
fn header_id(path: &Path) -> Option<(String, bool)> {
    use std::io::BufRead;
    let file = std::fs::File::open(path).ok()?;
    let mut reader = std::io::BufReader::new(file);
    let mut first = String::new();
    reader.read_line(&mut first).ok()?;
    let v: Value = crate::json_value::from_str(first.trim()).ok()?;
    if v.get("type").and_then(Value::as_str) != Some("session") {
        return None;
    }
    let id = v
        .get("id")
        .or_else(|| v.get("sessionId"))
        .and_then(Value::as_str)?
        .to_string();
    let version_ok = v
        .get("version")
        .and_then(Value::as_f64)
        .is_none_or(|n| (1.0..=3.0).contains(&n));
    // At least one message, every later line an object.
    let mut has_message = false;
    for line in reader.lines() {
        let line = line.ok()?;
        if line.trim().is_empty() {
            continue;
        }
        let e: Value = crate::json_value::from_str(line.trim()).ok()?;
        if !e.is_object() {
            return None;
        }
        has_message |= e.get("type").and_then(Value::as_str) == Some("message");
    }
    Some((id, version_ok && has_message))
}

fn orphan_id_ok(id: &str) -> bool {
    let mut chars = id.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && id.len() <= 128
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// Transcripts no entry claims: a complete primary transcript is imported as an archived
/// historical session; anything else `*.jsonl` moves as unreferenced history. Names are
/// visited in byte order, through the ledger rather than a sorted list.
fn discover_orphans(
    sessions_dir: &Path,
    agent_id: &str,
    ledger: &ImportLedger,
    issues: &mut Vec<ImportIssue>,
) -> Result<()> {
    for e in std::fs::read_dir(sessions_dir).at(sessions_dir)? {
        let Ok(e) = e else { continue };
        if !e.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let Ok(name) = e.file_name().into_string() else {
            continue;
        };
        if name.ends_with(".jsonl") && !name.ends_with(".trajectory.jsonl") {
            ledger.add_listed(&name)?;
        }
    }
    ledger.for_each_listed(|name| {
        let path = sessions_dir.join(&name);
        if ledger.is_claimed(&path)? {
            return Ok(());
        }
        let stem = name.trim_end_matches(".jsonl");
        let importable = !stem.contains(".checkpoint.")
            && !stem.contains("-topic-")
            && orphan_id_ok(stem)
            && header_id(&path).is_some_and(|(id, complete)| id == stem && complete);
        if !importable {
            if stem.contains("-topic-") {
                let owner = stem.split("-topic-").next().unwrap_or_default();
                if ledger.entry_key_of(owner)?.is_some() {
                    issues.push(ImportIssue::new(
                        "historical_transcript_deferred",
                        format!("{}: Error: A registered primary already claims this identity; extra original retained", path.display()),
                        None,
                    ));
                }
            }
            return ledger.add_unreferenced(&path);
        }
        if let Some(key) = ledger.entry_key_of(stem)? {
            // The entry's own transcript was not where its `sessionFile` said (inside the
            // sessions dir): OpenClaw's discovery gives it this file, whose header names its
            // session id, and finds nothing missing (docs/openclaw/IMPORT.md §4.1).
            let size = std::fs::metadata(&path).at(&path)?.len();
            if let Some(adopted) = ledger.adopt(stem, &path, &trajectories(&path), size)? {
                issues.retain(|i| {
                    !(i.code == "transcript_missing" && i.session_key.as_deref() == Some(&adopted))
                });
                return Ok(());
            }
            issues.push(ImportIssue::new(
                "historical_transcript_deferred",
                format!("{}: Error: A registered primary already claims this identity; extra original retained", path.display()),
                Some(&key),
            ));
            return ledger.add_unreferenced(&path);
        }
        let meta = std::fs::metadata(&path).at(&path)?;
        let mtime = mtime_ms(&meta);
        let key = ledger
            .owner_key(stem)?
            .unwrap_or_else(|| format!("agent:{agent_id}:recovered:{stem}"));
        let mut entry = Map::new();
        entry.insert("sessionId".into(), Value::from(stem));
        entry.insert("updatedAt".into(), Value::from(mtime));
        entry.insert(
            "archivedAt".into(),
            Value::from(if mtime == 0 { 1 } else { mtime }),
        );
        entry.insert("delivery".into(), serde_json::json!({"kind": "none"}));
        let (entry_json, lineage) = stored_entry(entry);
        let orphan = ImportRecord {
            seq: 0,
            session_key: key,
            session_id: stem.to_string(),
            entry_json,
            trajectories: trajectories(&path),
            transcript: Some(path.clone()),
            historical: true,
            adopted: false,
            transcript_bytes: meta.len(),
        };
        ledger.add_record(&orphan, &lineage, &[path])
    })
}

/// The text of a normalised entry, and its lineage.
fn stored_entry(entry: Map<String, Value>) -> (String, Vec<String>) {
    let previous = entry.get("previousSessionId").and_then(Value::as_str);
    let family = entry
        .get("usageFamilySessionIds")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str);
    let lineage = previous
        .into_iter()
        .chain(family)
        .map(String::from)
        .collect();
    let text = crate::json_value::map_to_json(&entry);
    (text, lineage)
}

pub fn mtime_ms(meta: &std::fs::Metadata) -> i64 {
    use std::os::unix::fs::MetadataExt;
    meta.mtime() * 1000 + meta.mtime_nsec() / 1_000_000
}
