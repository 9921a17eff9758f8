//! Where conversations are kept, each read once (docs/SECRETS.md): the agent databases (every
//! row of every table but the credential stores and the search index's internals: transcript
//! rows, zstd ones decoded, entries, the FTS content, archive rows), the conversation tables
//! of the state database, the session files (legacy `sessions.json` and JSONL, `.deleted`,
//! `.reset` and `.bak` archives, cold archives, import archives; zstd decoded), and every
//! snapshot database (this tool's repository, OpenClaw's wherever they are named). Read-only:
//! databases through [`ReadOnlyDb`], files opened for reading.

use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::types::ValueRef;
use serde::Serialize;

use super::stream::{scan_maybe_zstd, StreamHit, TextScanner};
use super::{Detectors, Finding, Location};
use crate::error::{Error, Result};
use crate::legacy::{classify_session_file, ArchiveReason, SessionFile};
use crate::store::db::all_values;
use crate::store::ReadOnlyDb;

/// Tables of an agent database that hold credentials by design or no text of a conversation.
fn skipped_agent_table(name: &str) -> bool {
    matches!(
        name,
        "auth_profile_store" | "auth_profile_state" | "schema_meta" | "memory_embedding_cache"
    ) || ["_fts_data", "_fts_idx", "_fts_docsize", "_fts_config"]
        .iter()
        .any(|s| name.ends_with(s))
}

/// The state database's tables that keep conversation text; the rest holds the host's
/// own credentials (device tokens, the secret store) or none.
const STATE_CONVERSATION_TABLES: &[&str] = &[
    "acp_replay_events",
    "session_state_events",
    "meeting_transcript_utterances",
    "meeting_transcript_summaries",
    "subagent_runs",
    "channel_ingress_events",
    "delivery_queue_entries",
];

/// Files that are the host's configuration: where the secrets belong, not findings.
const CONFIG_FILES: &[&str] = &[
    "openclaw.json",
    "clawdbot.json",
    "auth-profiles.json",
    "models.json",
];

/// Directories no conversation is kept in.
const SKIPPED_DIRS: &[&str] = &["node_modules", ".git", "credentials"];

#[derive(Debug, Clone, Default)]
pub struct ScanOptions {
    /// More snapshot repositories (OpenClaw's `backup sqlite create --repository`).
    pub snapshot_dirs: Vec<PathBuf>,
    /// Keep at most this many findings in the summary (all are counted).
    pub keep: usize,
    /// Only these agents' directories (`agents/<id>/`); all when empty.
    pub agents: Vec<String>,
}

/// One distinct secret: how many places hold it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SecretCount {
    pub rule: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub fingerprint: String,
    pub masked: String,
    pub findings: u64,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScanSummary {
    pub findings: u64,
    /// Distinct secrets, by fingerprint.
    pub secrets: Vec<SecretCount>,
    /// Places read: databases and files.
    pub databases: u64,
    pub files: u64,
    pub rows: u64,
    pub bytes: u64,
    /// The first findings, up to the limit asked.
    pub kept: Vec<Finding>,
    pub truncated: bool,
    /// Files that could not be read (named, the scan went on).
    pub unreadable: Vec<String>,
}

struct Walk<'a> {
    detectors: &'a Detectors,
    state_dir: &'a Path,
    summary: ScanSummary,
    by_fingerprint: BTreeMap<String, usize>,
    keep: usize,
    agents: &'a [String],
    on_finding: &'a mut dyn FnMut(&Finding),
}

impl Walk<'_> {
    fn rel(&self, path: &Path) -> String {
        path.strip_prefix(self.state_dir)
            .unwrap_or(path)
            .display()
            .to_string()
    }

    fn record(&mut self, hit: StreamHit, location: &Location) {
        let h = hit.hit;
        let finding = Finding {
            rule: h.rule,
            source: h.source,
            fingerprint: h.fingerprint,
            masked: h.masked,
            excerpt: hit.excerpt,
            location: location.clone(),
        };
        self.summary.findings += 1;
        match self.by_fingerprint.get(&finding.fingerprint) {
            Some(&i) => self.summary.secrets[i].findings += 1,
            None => {
                self.by_fingerprint
                    .insert(finding.fingerprint.clone(), self.summary.secrets.len());
                self.summary.secrets.push(SecretCount {
                    rule: finding.rule.clone(),
                    source: finding.source.clone(),
                    fingerprint: finding.fingerprint.clone(),
                    masked: finding.masked.clone(),
                    findings: 1,
                });
            }
        }
        (self.on_finding)(&finding);
        if self.summary.kept.len() < self.keep {
            self.summary.kept.push(finding);
        } else {
            self.summary.truncated = true;
        }
    }

    /// The agent id of a path under `agents/<id>/`.
    fn agent_of(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(self.state_dir).ok()?;
        let mut parts = rel.components();
        (parts.next()?.as_os_str() == "agents")
            .then(|| {
                parts
                    .next()
                    .map(|c| c.as_os_str().to_string_lossy().to_string())
            })
            .flatten()
    }

    fn database(&mut self, path: &Path, snapshot: Option<String>) -> Result<()> {
        let db = ReadOnlyDb::open_as_stored(path)?;
        let conn = db.conn();
        let tables = all_values::tables(conn).map_err(|e| Error::sqlite(path, e))?;
        let agent_db = tables.iter().any(|(t, _)| t == "transcript_events");
        let state_db = !agent_db && tables.iter().any(|(t, _)| t == "session_state_events");
        if !agent_db && !state_db {
            return Ok(());
        }
        self.summary.databases += 1;
        let keys = all_values::session_keys(conn).map_err(|e| Error::sqlite(path, e))?;
        let agent_id = self.agent_of(path).or_else(|| {
            conn.query_row(
                "SELECT agent_id FROM schema_meta WHERE meta_key = 'primary'",
                [],
                |r| r.get::<_, Option<String>>(0),
            )
            .ok()
            .flatten()
        });
        let rel = self.rel(path);
        for (table, has_rowid) in tables {
            let wanted = if agent_db {
                !skipped_agent_table(&table)
            } else {
                STATE_CONVERSATION_TABLES.contains(&table.as_str())
            };
            if !wanted {
                continue;
            }
            let columns = all_values::columns(conn, &table).map_err(|e| Error::sqlite(path, e))?;
            let col = |n: &str| columns.iter().position(|c| c == n);
            let place = match table.as_str() {
                "transcript_events" => "transcript",
                "session_nodes" => "entry",
                "session_transcript_fts_content" => "fts",
                "session_transcript_archives" => "archive-row",
                "session_transcript_cold_archives" => "cold-archive-row",
                _ => "table",
            };
            let session_col = if place == "fts" {
                col("c1")
            } else {
                col("session_id")
            };
            let key_col = col("session_key");
            let seq_col = if place == "transcript" {
                col("seq")
            } else {
                None
            };
            let archive_row = matches!(place, "archive-row" | "cold-archive-row");
            let mut failed = None;
            all_values::for_each_row(conn, &table, has_rowid, &mut |rowid, values| {
                self.summary.rows += 1;
                let text_of = |i: Option<usize>| {
                    i.and_then(|i| match values.get(i) {
                        Some(ValueRef::Text(t)) => Some(String::from_utf8_lossy(t).to_string()),
                        _ => None,
                    })
                };
                let session_id = text_of(session_col);
                let session_key = text_of(key_col)
                    .or_else(|| session_id.as_ref().and_then(|s| keys.get(s).cloned()));
                let seq = seq_col.and_then(|i| match values.get(i) {
                    Some(ValueRef::Integer(n)) => Some(*n),
                    _ => None,
                });
                for (i, value) in values.iter().enumerate() {
                    let bytes = match value {
                        ValueRef::Text(t) => *t,
                        ValueRef::Blob(b) => *b,
                        _ => continue,
                    };
                    self.summary.bytes += bytes.len() as u64;
                    let mut location = Location {
                        place: place.into(),
                        path: rel.clone(),
                        agent_id: agent_id.clone(),
                        session_key: session_key.clone(),
                        session_id: session_id.clone(),
                        seq,
                        table: Some(table.clone()),
                        column: Some(columns[i].clone()),
                        rowid,
                        line: None,
                        snapshot: snapshot.clone(),
                    };
                    let mut hits = Vec::new();
                    if let Err(e) = scan_maybe_zstd(self.detectors, bytes, &mut |h| hits.push(h)) {
                        failed = Some(e);
                        return false;
                    }
                    for h in hits {
                        if archive_row {
                            // An archive's line is its event's position.
                            location.seq = Some(h.line as i64);
                        }
                        self.record(h, &location);
                    }
                }
                true
            })
            .map_err(|e| Error::sqlite(path, e))?;
            if let Some(e) = failed {
                return Err(e);
            }
        }
        Ok(())
    }

    fn session_file(&mut self, path: &Path, place: &str) -> Result<()> {
        let mut file = crate::fsutil::open_regular(path)?;
        self.summary.files += 1;
        let mut head = [0u8; 4];
        let mut got = 0;
        while got < 4 {
            match file.read(&mut head[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(Error::io(path, e)),
            }
        }
        let reader = std::io::Read::chain(&head[..got], file);
        let location = Location {
            place: place.into(),
            path: self.rel(path),
            agent_id: self.agent_of(path),
            session_id: session_id_of(path),
            ..Location::default()
        };
        let mut hits = Vec::new();
        let mut counting = CountingReader {
            inner: reader,
            count: 0,
        };
        let detectors = self.detectors;
        let result = if super::stream::is_zstd(&head[..got]) {
            let mut decoder =
                zstd::stream::read::Decoder::new(&mut counting).map_err(|e| Error::io(path, e))?;
            TextScanner::new(detectors).read_all(&mut decoder, &mut |h| hits.push(h))
        } else {
            TextScanner::new(detectors).read_all(&mut counting, &mut |h| hits.push(h))
        };
        self.summary.bytes += counting.count;
        for h in hits {
            let mut at = location.clone();
            at.line = Some(h.line);
            self.record(h, &at);
        }
        result.map_err(|e| Error::io(path, e))
    }

    fn walk_dir(&mut self, dir: &Path, snapshot_root: bool) -> Result<()> {
        let Some(rd) = crate::fsutil::read_dir_if_exists(dir)? else {
            return Ok(());
        };
        let mut entries: Vec<_> = rd.filter_map(|e| e.ok()).collect();
        entries.sort_by_key(|e| e.file_name());
        let is_snapshot_dir = entries.iter().any(|e| e.file_name() == "manifest.json")
            && entries.iter().any(|e| e.file_name() == "database.sqlite");
        for ent in entries {
            let path = ent.path();
            let name = ent.file_name().to_string_lossy().to_string();
            let Ok(ft) = ent.file_type() else { continue };
            if ft.is_dir() {
                if SKIPPED_DIRS.contains(&name.as_str()) {
                    continue;
                }
                let other_agent = !self.agents.is_empty()
                    && dir == self.state_dir.join("agents")
                    && !self.agents.contains(&name);
                if other_agent {
                    continue;
                }
                self.walk_dir(&path, snapshot_root)?;
                continue;
            }
            if !ft.is_file() || CONFIG_FILES.contains(&name.as_str()) {
                continue;
            }
            let outcome = if is_sqlite(&path) {
                let snapshot = (is_snapshot_dir || snapshot_root || name.contains("snapshot"))
                    .then(|| self.rel(dir));
                self.database(&path, snapshot)
            } else if let Some(place) = file_place(&name) {
                self.session_file(&path, place)
            } else {
                continue;
            };
            if let Err(e) = outcome {
                match e.kind() {
                    crate::error::ErrorKind::Io
                    | crate::error::ErrorKind::Sqlite
                    | crate::error::ErrorKind::BadInput => self
                        .summary
                        .unreadable
                        .push(format!("{}: {e}", self.rel(&path))),
                    _ => return Err(e),
                }
            }
        }
        Ok(())
    }
}

struct CountingReader<R> {
    inner: R,
    count: u64,
}

impl<R: Read> Read for CountingReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        Ok(n)
    }
}

/// A file that begins as a SQLite database does (its sidecars are read through it).
fn is_sqlite(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    if name.ends_with("-wal") || name.ends_with("-shm") || name.ends_with("-journal") {
        return false;
    }
    let mut head = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && &head == b"SQLite format 3\0"
}

/// What a session file is, by its name; `None` for a file no conversation is kept in.
fn file_place(name: &str) -> Option<&'static str> {
    if name.contains(".imported-") {
        return Some("import-archive");
    }
    match classify_session_file(name) {
        SessionFile::Archive { reason, .. } => Some(match reason {
            ArchiveReason::Deleted => "deleted-archive",
            ArchiveReason::Reset => "reset-archive",
            ArchiveReason::Bak => "bak-archive",
        }),
        SessionFile::Transcript { .. } => Some("legacy-transcript"),
        SessionFile::Index | SessionFile::IndexBackup => Some("legacy-index"),
        _ if name.ends_with(".jsonl.zst") || name.ends_with(".zst") => Some("cold-archive"),
        _ if name.contains(".jsonl") => Some("session-file"),
        _ => None,
    }
}

/// The session id a session file's name starts with (`<id>.jsonl...`).
fn session_id_of(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_string_lossy().to_string();
    let stem = name.split(".jsonl").next()?;
    if stem == name {
        return None;
    }
    // An import archive is `<keySlug>.<sessionId>.jsonl.imported-<ms>`: the id is last.
    let id = stem
        .rsplit('.')
        .next()
        .filter(|id| id.len() >= 8)
        .unwrap_or(stem);
    crate::legacy::is_safe_session_id(id).then(|| id.to_string())
}

/// Scan the state dir (and the snapshot repositories named) with `detectors`; each finding
/// goes to `on_finding` as it is found.
pub fn scan(
    state_dir: &Path,
    detectors: &Detectors,
    options: &ScanOptions,
    on_finding: &mut dyn FnMut(&Finding),
) -> Result<ScanSummary> {
    let mut walk = Walk {
        detectors,
        state_dir,
        summary: ScanSummary::default(),
        by_fingerprint: BTreeMap::new(),
        keep: options.keep,
        agents: &options.agents,
        on_finding,
    };
    walk.walk_dir(state_dir, false)?;
    let mut seen: HashMap<PathBuf, ()> = HashMap::new();
    for dir in &options.snapshot_dirs {
        let real = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        if real.starts_with(state_dir) || seen.insert(real, ()).is_some() {
            continue;
        }
        walk.walk_dir(dir, true)?;
    }
    Ok(walk.summary)
}
