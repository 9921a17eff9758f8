use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;

use rusqlite::{params, OptionalExtension};
use serde::Serialize;
use serde_json::{Map, Value};

use super::{DatabaseRole, ReadOnlyDb, SchemaInfo, SessionEntry};
use crate::error::{Error, Remedy, Result, ResultExt};
use crate::legacy::LegacyIndex;
use crate::paths::AgentPaths;
use crate::remedy::Warning;

/// Where an agent's sessions are read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StoreKind {
    Sqlite,
    Legacy,
    /// Neither a database nor a legacy index: no sessions yet.
    Empty,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct TranscriptStats {
    pub events: u64,
    pub bytes: u64,
}

/// A session as `list` shows it.
#[derive(Debug, Clone)]
pub struct ListedSession {
    pub entry: SessionEntry,
    pub stats: Option<TranscriptStats>,
}

/// One transcript generation (`session_windows` row) with its size.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WindowRow {
    pub session_id: String,
    pub session_key: String,
    pub previous_session_id: Option<String>,
    pub reason: Option<String>,
    pub session_scope: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub transcript_updated_at: Option<i64>,
    pub acp_owned: bool,
    pub agent_harness_id: Option<String>,
    pub current: bool,
    pub events: u64,
    pub bytes: u64,
    /// Set when the transcript was moved to a cold archive.
    pub cold_archive: Option<String>,
}

/// A `session_transcript_archives` row, with whether its published file is present.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchiveRow {
    pub session_id: String,
    pub generation: String,
    pub session_key: String,
    pub reason: String,
    pub encoding: String,
    pub archive_name: String,
    pub archive_sha256: String,
    pub blob_bytes: u64,
    pub created_at: i64,
    pub published_at: Option<i64>,
    pub file_present: bool,
}

/// How a `show`/`transcript` argument was resolved.
#[derive(Debug, Clone)]
pub struct SessionLookup {
    pub entry: SessionEntry,
    /// The transcript generation the argument named (a session id), or the current one.
    pub session_id: String,
    pub matched_by: &'static str,
}

/// One agent's store, opened read-only: the SQLite database when it exists, else the
/// legacy `sessions.json`.
#[derive(Debug)]
pub struct AgentStore {
    pub paths: AgentPaths,
    pub kind: StoreKind,
    pub schema: Option<SchemaInfo>,
    db: Option<ReadOnlyDb>,
    legacy: Option<LegacyIndex>,
    pub warnings: Vec<Warning>,
}

impl AgentStore {
    pub fn open(paths: AgentPaths) -> Result<Self> {
        let mut warnings = Vec::new();
        if paths.db.exists() {
            let db = ReadOnlyDb::open(&paths.db)?;
            let schema = SchemaInfo::read(&db, DatabaseRole::Agent)?;
            if let Some(w) = schema.warning(&paths.db) {
                warnings.push(w.into());
            }
            if let (Some(owner), false) = (&schema.agent_id, paths.db.to_string_lossy().is_empty())
            {
                if owner != paths.id.as_str() {
                    warnings.push(
                        format!(
                            "{} belongs to agent {owner}, listed as agent {}",
                            paths.db.display(),
                            paths.id
                        )
                        .into(),
                    );
                }
            }
            if paths.legacy_index.as_ref().is_some_and(|p| p.is_file()) {
                warnings.push(Warning::with_remedy(
                    format!(
                        "agent {}: a legacy sessions.json is waiting for import (import it with the legacy import)",
                        paths.id
                    ),
                    Remedy::ImportLegacy,
                ));
            }
            return Ok(AgentStore {
                paths,
                kind: StoreKind::Sqlite,
                schema: Some(schema),
                db: Some(db),
                legacy: None,
                warnings,
            });
        }
        if let Some(index) = paths.legacy_index.as_ref().filter(|p| p.is_file()) {
            let legacy = LegacyIndex::load(index)?;
            for inv in &legacy.invalid {
                warnings.push(
                    format!(
                        "{}: entry {} is invalid and would be dropped on import: {}",
                        index.display(),
                        inv.session_key,
                        inv.reason
                    )
                    .into(),
                );
            }
            return Ok(AgentStore {
                paths,
                kind: StoreKind::Legacy,
                schema: None,
                db: None,
                legacy: Some(legacy),
                warnings,
            });
        }
        Ok(AgentStore {
            paths,
            kind: StoreKind::Empty,
            schema: None,
            db: None,
            legacy: None,
            warnings,
        })
    }

    pub fn db(&self) -> Option<&ReadOnlyDb> {
        self.db.as_ref()
    }

    pub fn legacy(&self) -> Option<&LegacyIndex> {
        self.legacy.as_ref()
    }

    fn db_path(&self) -> &Path {
        &self.paths.db
    }

    /// Every readable session. Tombstones are not sessions; rows whose entry does not
    /// decode are skipped with a warning (`doctor` reports them in full).
    pub fn sessions(&mut self) -> Result<Vec<SessionEntry>> {
        let mut out = Vec::new();
        let bad = self.for_each_session(None, |e| {
            out.push(e);
            Ok(ControlFlow::Continue(()))
        })?;
        self.warnings.extend(bad);
        Ok(out)
    }

    /// Visit every readable session in storage order, one at a time, without holding them,
    /// each with only `fields` when given; returns the warnings of rows that do not decode.
    pub fn for_each_session(
        &self,
        fields: Option<&[&str]>,
        mut visit: impl FnMut(SessionEntry) -> Result<ControlFlow<()>>,
    ) -> Result<Vec<Warning>> {
        if let Some(legacy) = &self.legacy {
            for e in &legacy.entries {
                let mut e = e.clone();
                if let Some(fields) = fields {
                    e.retain_fields(fields);
                }
                if visit(e)?.is_break() {
                    break;
                }
            }
            return Ok(Vec::new());
        }
        let Some(db) = &self.db else {
            return Ok(Vec::new());
        };
        let mut stmt = db
            .conn()
            .prepare("SELECT session_key, entry_json, entry_valid FROM session_nodes")
            .at(db.path())?;
        let mut rows = stmt.query([]).at(db.path())?;
        let mut bad = Vec::new();
        while let Some(row) = rows.next().at(db.path())? {
            let flow = match self.decode_node(row, fields)? {
                Some(Ok(e)) => visit(e)?,
                Some(Err(warning)) => {
                    bad.push(warning);
                    ControlFlow::Continue(())
                }
                None => ControlFlow::Continue(()),
            };
            if flow.is_break() {
                break;
            }
        }
        drop(rows);
        drop(stmt);
        self.check_consistent()?;
        Ok(bad)
    }

    /// A `session_nodes` row read as `session_key, entry_json, entry_valid`: None for a
    /// deleted placeholder, or the warning that skips a row that does not decode.
    pub(super) fn decode_node(
        &self,
        row: &rusqlite::Row<'_>,
        fields: Option<&[&str]>,
    ) -> Result<Option<std::result::Result<SessionEntry, Warning>>> {
        let path = self.db_path();
        let key: String = row.get(0).at(path)?;
        let json: String = row.get(1).at(path)?;
        let valid: i64 = row.get(2).at(path)?;
        if valid == -1 && json == "{}" {
            return Ok(None);
        }
        Ok(Some(
            SessionEntry::parse_fields(&key, &json, fields).map_err(|reason| {
                Warning::with_remedy(
                    format!(
                        "agent {}: session {key} skipped: {reason} (run the doctor)",
                        self.paths.id
                    ),
                    Remedy::RunDoctor,
                )
            }),
        ))
    }

    /// The entry stored under exactly `key`: one indexed row.
    pub fn entry_by_exact_key(&self, key: &str) -> Result<Option<SessionEntry>> {
        let Some(db) = &self.db else {
            return Ok(None);
        };
        let row: Option<(String, i64)> = db
            .conn()
            .query_row(
                "SELECT entry_json, entry_valid FROM session_nodes WHERE session_key = ?1",
                [key],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .at(db.path())?;
        let Some((json, valid)) = row else {
            return Ok(None);
        };
        // Placeholders and unreadable entries take the full path, which skips and reports them.
        if valid == -1 && json == "{}" {
            return Ok(None);
        }
        let entry = SessionEntry::parse(key, &json).ok();
        self.check_consistent()?;
        Ok(entry)
    }

    /// An immutable read that raced a writer is not trusted.
    pub(super) fn check_consistent(&self) -> Result<()> {
        match &self.db {
            Some(db) if !db.still_consistent() => Err(Error::Conflict {
                message: format!("{} changed while it was being read", db.path().display()),
                hint: Some("a writer started meanwhile; run the command again".into()),
            }),
            _ => Ok(()),
        }
    }

    /// Events and serialized bytes of a transcript generation.
    pub fn transcript_stats(&self, session_id: &str) -> Result<TranscriptStats> {
        if let Some(legacy) = &self.legacy {
            let Some(path) = legacy.transcript_path(session_id) else {
                return Ok(TranscriptStats::default());
            };
            return legacy_stats(&path);
        }
        let Some(db) = &self.db else {
            return Ok(TranscriptStats::default());
        };
        let mut stmt = db
            .conn()
            .prepare_cached(
                "SELECT count(*), coalesce(sum(coalesce(event_utf8_bytes, octet_length(event_json))), 0) \
                 FROM transcript_events WHERE session_id = ?1",
            )
            .at(db.path())?;
        stmt.query_row([session_id], |r| {
            Ok(TranscriptStats {
                events: r.get::<_, i64>(0)? as u64,
                bytes: r.get::<_, i64>(1)? as u64,
            })
        })
        .at(db.path())
    }

    /// Events of a transcript generation, counted on the primary-key index (no event is read).
    pub fn transcript_event_count(&self, session_id: &str) -> Result<u64> {
        if self.legacy.is_some() {
            return Ok(self.transcript_stats(session_id)?.events);
        }
        let Some(db) = &self.db else { return Ok(0) };
        let mut stmt = db
            .conn()
            .prepare_cached("SELECT count(*) FROM transcript_events WHERE session_id = ?1")
            .at(db.path())?;
        stmt.query_row([session_id], |r| r.get::<_, i64>(0))
            .map(|n| n as u64)
            .at(db.path())
    }

    /// The promoted `session_nodes` columns of a key, as stored.
    pub fn columns(&self, key: &str) -> Result<Map<String, Value>> {
        let Some(db) = &self.db else {
            return Ok(Map::new());
        };
        let mut stmt = db
            .conn()
            .prepare("SELECT * FROM session_nodes WHERE session_key = ?1")
            .at(self.db_path())?;
        let names: Vec<String> = stmt.column_names().into_iter().map(String::from).collect();
        let row = stmt
            .query_row([key], |r| {
                let mut map = Map::new();
                for (i, name) in names.iter().enumerate() {
                    if name == "entry_json" {
                        continue;
                    }
                    let v = match r.get_ref(i)? {
                        rusqlite::types::ValueRef::Null => Value::Null,
                        rusqlite::types::ValueRef::Integer(n) => Value::from(n),
                        rusqlite::types::ValueRef::Real(f) => Value::from(f),
                        rusqlite::types::ValueRef::Text(t) => {
                            Value::from(String::from_utf8_lossy(t).into_owned())
                        }
                        rusqlite::types::ValueRef::Blob(b) => {
                            Value::from(format!("<{} bytes>", b.len()))
                        }
                    };
                    map.insert(name.clone(), v);
                }
                Ok(map)
            })
            .optional()
            .at(self.db_path())?;
        Ok(row.unwrap_or_default())
    }

    /// Every transcript generation of a key, newest first.
    pub fn windows(&self, entry: &SessionEntry) -> Result<Vec<WindowRow>> {
        let Some(db) = &self.db else {
            let stats = self.transcript_stats(entry.session_id())?;
            return Ok(vec![WindowRow {
                session_id: entry.session_id().to_string(),
                session_key: entry.key.clone(),
                previous_session_id: entry.text("previousSessionId").map(String::from),
                reason: None,
                session_scope: "conversation".into(),
                created_at: entry.created_at().unwrap_or(entry.updated_at()),
                updated_at: entry.updated_at(),
                transcript_updated_at: None,
                acp_owned: entry.fields.contains_key("acp"),
                agent_harness_id: entry.harness().map(String::from),
                current: true,
                events: stats.events,
                bytes: stats.bytes,
                cold_archive: None,
            }]);
        };
        let mut stmt = db
            .conn()
            .prepare(
                "SELECT w.session_id, w.session_key, w.previous_session_id, w.reason, w.session_scope, \
                        w.created_at, w.updated_at, w.transcript_updated_at, w.acp_owned, w.agent_harness_id, \
                        c.archive_name \
                 FROM session_windows w LEFT JOIN session_transcript_cold_archives c USING (session_id) \
                 WHERE w.session_key = ?1 OR w.session_id = ?2 \
                 ORDER BY w.updated_at DESC, w.session_id",
            )
            .at(db.path())?;
        let rows = stmt
            .query_map(params![entry.key, entry.session_id()], |r| {
                Ok(WindowRow {
                    session_id: r.get(0)?,
                    session_key: r.get(1)?,
                    previous_session_id: r.get(2)?,
                    reason: r.get(3)?,
                    session_scope: r.get(4)?,
                    created_at: r.get(5)?,
                    updated_at: r.get(6)?,
                    transcript_updated_at: r.get(7)?,
                    acp_owned: r.get::<_, i64>(8)? != 0,
                    agent_harness_id: r.get(9)?,
                    current: false,
                    events: 0,
                    bytes: 0,
                    cold_archive: r.get(10)?,
                })
            })
            .at(db.path())?
            .collect::<rusqlite::Result<Vec<_>>>()
            .at(db.path())?;
        let mut out = Vec::with_capacity(rows.len());
        for mut w in rows {
            let stats = self.transcript_stats(&w.session_id)?;
            w.events = stats.events;
            w.bytes = stats.bytes;
            w.current = w.session_id == entry.session_id();
            out.push(w);
        }
        Ok(out)
    }

    /// Deleted/reset transcript archives recorded for a key or its generations.
    pub fn archives(&self, key: &str) -> Result<Vec<ArchiveRow>> {
        let Some(db) = &self.db else {
            return Ok(Vec::new());
        };
        let mut stmt = db
            .conn()
            .prepare(
                "SELECT session_id, generation, session_key, reason, encoding, archive_name, archive_sha256, \
                        length(archive_blob), created_at, published_at \
                 FROM session_transcript_archives WHERE session_key = ?1 ORDER BY created_at DESC",
            )
            .at(db.path())?;
        let rows = stmt
            .query_map([key], |r| {
                Ok(ArchiveRow {
                    session_id: r.get(0)?,
                    generation: r.get(1)?,
                    session_key: r.get(2)?,
                    reason: r.get(3)?,
                    encoding: r.get(4)?,
                    archive_name: r.get(5)?,
                    archive_sha256: r.get(6)?,
                    blob_bytes: r.get::<_, i64>(7)? as u64,
                    created_at: r.get(8)?,
                    published_at: r.get(9)?,
                    file_present: false,
                })
            })
            .at(db.path())?
            .collect::<rusqlite::Result<Vec<_>>>()
            .at(db.path())?;
        Ok(rows
            .into_iter()
            .map(|mut a| {
                a.file_present = self.paths.sessions_dir.join(&a.archive_name).is_file();
                a
            })
            .collect())
    }

    /// Row counts of the main tables, for `status`.
    pub fn counts(&self) -> Result<HashMap<&'static str, u64>> {
        let mut out = HashMap::new();
        let Some(db) = &self.db else { return Ok(out) };
        for (name, sql) in [
            ("sessions", "SELECT count(*) FROM session_nodes WHERE NOT (entry_valid = -1 AND entry_json = '{}')"),
            ("tombstones", "SELECT count(*) FROM session_nodes WHERE entry_valid = -1 AND entry_json = '{}'"),
            ("windows", "SELECT count(*) FROM session_windows"),
            ("archives", "SELECT count(*) FROM session_transcript_archives"),
            ("coldArchives", "SELECT count(*) FROM session_transcript_cold_archives"),
        ] {
            let n: Option<i64> = db.conn().query_row(sql, [], |r| r.get(0)).optional().unwrap_or(None);
            out.insert(name, n.unwrap_or(0) as u64);
        }
        Ok(out)
    }
}

fn legacy_stats(path: &Path) -> Result<TranscriptStats> {
    use std::io::Read;
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(TranscriptStats::default()),
        Err(e) => return Err(Error::io(path, e)),
    };
    let mut buf = vec![0u8; 256 * 1024];
    let (mut newlines, mut bytes, mut last) = (0u64, 0u64, b'\n');
    loop {
        let n = file.read(&mut buf).at(path)?;
        if n == 0 {
            break;
        }
        newlines += buf[..n].iter().filter(|b| **b == b'\n').count() as u64;
        bytes += n as u64;
        last = buf[n - 1];
    }
    let events = newlines + u64::from(last != b'\n');
    // Serialized bytes exclude the line endings, as for SQLite rows.
    Ok(TranscriptStats {
        events,
        bytes: bytes - newlines,
    })
}
