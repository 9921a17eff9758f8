use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use rusqlite::OptionalExtension;
use serde::Serialize;
use serde_json::{Map, Value};

use super::db::archives::{self, ListedArchive};
use super::db::meta::LossyText;
use super::db::windows::{self, ListedWindow};
use super::db::{events, nodes};
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
    /// A database file that cannot be read (empty, not SQLite, cut short, damaged): `status`
    /// says so and points to the doctor (docs/openclaw/HOSTILE.md, section 3).
    Unreadable,
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
    #[serde(flatten)]
    pub row: ListedWindow,
    pub current: bool,
    pub events: u64,
    pub bytes: u64,
}

/// A `session_transcript_archives` row, with whether its published file is present.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchiveRow {
    #[serde(flatten)]
    pub row: ListedArchive,
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
        // A database without session tables is a release's from before SQLite sessions
        // (2026.7 and older: caches and auth only): its sessions are the legacy store's.
        let db = match paths.db.exists() {
            true => {
                let db = ReadOnlyDb::open(&paths.db)?;
                let schema = SchemaInfo::read(&db, DatabaseRole::Agent)?;
                let sessions = super::db::meta::table_exists(db.conn(), "session_nodes");
                sessions.then_some((db, schema))
            }
            false => None,
        };
        if let Some((db, schema)) = db {
            if let Some(w) = schema.warning() {
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
        let mut stmt = db.conn().prepare(nodes::ENTRIES_SQL).at(db.path())?;
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
        // Text that is not UTF-8 reads with U+FFFD: such an entry either parses (the doctor
        // names the cell) or is skipped with a warning, never ends the listing.
        let key = row.get::<_, LossyText>(0).at(path)?.0;
        let json = row.get::<_, LossyText>(1).at(path)?.0;
        let valid: i64 = row.get(2).at(path)?;
        if valid == -1 && json == "{}" {
            return Ok(None);
        }
        Ok(Some(
            SessionEntry::parse_fields_owned(key.clone(), json, fields).map_err(|reason| {
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
        let row = nodes::entry_row(db.conn(), key).at(db.path())?;
        let Some((json, valid, session_id, updated_at)) = row else {
            return Ok(None);
        };
        // A deleted key's placeholder is no session.
        if valid == -1 && json == "{}" {
            return Ok(None);
        }
        // An unreadable entry is still a session: named by its columns, marked unreadable.
        let entry = SessionEntry::parse(key, &json).unwrap_or_else(|why| {
            SessionEntry::unreadable(key, &json, &session_id, updated_at, why)
        });
        self.check_consistent()?;
        Ok(Some(entry))
    }

    /// An immutable read that raced a writer is not trusted.
    pub(super) fn check_consistent(&self) -> Result<()> {
        match &self.db {
            Some(db) if !db.still_consistent() => Err(Error::Busy {
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
        let (events, bytes) = events::stats(db.conn(), session_id).at(db.path())?;
        Ok(TranscriptStats {
            events: events as u64,
            bytes: bytes as u64,
        })
    }

    /// Events of a transcript generation, counted on the primary-key index (no event is read).
    pub fn transcript_event_count(&self, session_id: &str) -> Result<u64> {
        if self.legacy.is_some() {
            return Ok(self.transcript_stats(session_id)?.events);
        }
        let Some(db) = &self.db else { return Ok(0) };
        events::count(db.conn(), session_id)
            .map(|n| n as u64)
            .at(db.path())
    }

    /// Limits the page cache of the store's database (a read that visits each page about
    /// once gains nothing from SQLite's default and would only grow with the store).
    pub fn set_page_cache_kib(&self, kib: u32) -> Result<()> {
        match &self.db {
            Some(db) => db.set_page_cache_kib(kib),
            None => Ok(()),
        }
    }

    /// Every transcript's event count read in one pass (for a listing that covers most
    /// sessions: one walk of the primary key instead of one lookup a session). `None` for a
    /// store without a database, a legacy one, or one with more than [`EventCounts::CAP`]
    /// transcripts: count those with [`Self::transcript_event_count`].
    pub fn transcript_event_counts(&self) -> Result<Option<EventCounts>> {
        let Some(db) = self.db.as_ref().filter(|_| self.legacy.is_none()) else {
            return Ok(None);
        };
        walk_event_counts(db.conn(), db.path(), None)
    }

    /// [`Self::transcript_event_counts`] on a connection of its own, to run on another
    /// thread while this store goes on reading. `None` where that gives `None`.
    pub fn event_count_walk(&self) -> Result<Option<EventCountWalk>> {
        let Some(db) = self.db.as_ref().filter(|_| self.legacy.is_none()) else {
            return Ok(None);
        };
        // A walk reads each page once: a small cache keeps its memory apart from the store's.
        let conn = db.second_connection(256)?;
        Ok(Some(EventCountWalk {
            conn,
            path: db.path().to_path_buf(),
        }))
    }

    /// The promoted `session_nodes` columns of a key, as stored.
    pub fn columns(&self, key: &str) -> Result<Map<String, Value>> {
        let Some(db) = &self.db else {
            return Ok(Map::new());
        };
        let row = nodes::stored_columns(db.conn(), key).at(self.db_path())?;
        Ok(row.unwrap_or_default())
    }

    /// The entry fields a newer release keeps outside `entry_json` (`session_entry_snapshots`,
    /// schema 24), each parsed; a value that does not parse is kept as its text. OpenClaw's own
    /// full-entry read puts them back into the entry; its listing leaves them out.
    pub fn moved_fields(&self, key: &str) -> Result<Map<String, Value>> {
        let Some(db) = &self.db else {
            return Ok(Map::new());
        };
        let rows = nodes::entry_snapshots(db.conn(), key).at(self.db_path())?;
        Ok(rows
            .into_iter()
            .map(|(field, json)| {
                let value = serde_json::from_str(&json).unwrap_or(Value::String(json));
                (field, value)
            })
            .collect())
    }

    /// Every transcript generation of a key, newest first.
    pub fn windows(&self, entry: &SessionEntry) -> Result<Vec<WindowRow>> {
        let Some(db) = &self.db else {
            let stats = self.transcript_stats(entry.session_id())?;
            return Ok(vec![WindowRow {
                row: ListedWindow {
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
                    cold_archive: None,
                },
                current: true,
                events: stats.events,
                bytes: stats.bytes,
            }]);
        };
        let rows = windows::of_key_or_id(db.conn(), &entry.key, entry.session_id()).at(db.path())?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let stats = self.transcript_stats(&row.session_id)?;
            out.push(WindowRow {
                current: row.session_id == entry.session_id(),
                row,
                events: stats.events,
                bytes: stats.bytes,
            });
        }
        Ok(out)
    }

    /// Deleted/reset transcript archives recorded for a key or its generations.
    pub fn archives(&self, key: &str) -> Result<Vec<ArchiveRow>> {
        let Some(db) = &self.db else {
            return Ok(Vec::new());
        };
        let rows = archives::of_key(db.conn(), key).at(db.path())?;
        Ok(rows
            .into_iter()
            .map(|row| ArchiveRow {
                file_present: self.paths.sessions_dir.join(&row.archive_name).is_file(),
                row,
            })
            .collect())
    }

    /// Row counts of the main tables, for `status`.
    pub fn counts(&self) -> Result<HashMap<&'static str, u64>> {
        let mut out = HashMap::new();
        let Some(db) = &self.db else { return Ok(out) };
        for (name, sql) in [
            ("sessions", nodes::COUNT_SESSIONS_SQL),
            ("tombstones", nodes::COUNT_TOMBSTONES_SQL),
            ("windows", windows::COUNT_SQL),
            ("archives", archives::COUNT_SQL),
            ("coldArchives", archives::COUNT_COLD_SQL),
        ] {
            let n: Option<i64> = db
                .conn()
                .query_row(sql, [], |r| r.get(0))
                .optional()
                .unwrap_or(None);
            out.insert(name, n.unwrap_or(0) as u64);
        }
        Ok(out)
    }
}

/// A walk of every transcript's event count with a connection of its own (it is `Send`):
/// see [`AgentStore::event_count_walk`].
pub struct EventCountWalk {
    conn: rusqlite::Connection,
    path: std::path::PathBuf,
}

impl EventCountWalk {
    /// The walk, given up (`None`) once `stop` is set.
    pub fn run(self, stop: &AtomicBool) -> Result<Option<EventCounts>> {
        walk_event_counts(&self.conn, &self.path, Some(stop))
    }
}

fn walk_event_counts(
    conn: &rusqlite::Connection,
    path: &Path,
    stop: Option<&AtomicBool>,
) -> Result<Option<EventCounts>> {
    let mut counts = EventCounts::default();
    let complete = events::counts(conn, |id, n| {
        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) || counts.len() >= EventCounts::CAP {
            return ControlFlow::Break(());
        }
        if !counts.push(id, n) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    })
    .at(path)?;
    Ok(complete.then(|| counts.finish()))
}

/// Event counts by transcript, read in one pass, for at most [`EventCounts::CAP`]
/// transcripts a store so that memory stays bounded. A session id that is a canonical
/// lowercase UUID (as OpenClaw writes them) is held as a `u128` key in a sorted table
/// beside a `u32` count (20 bytes a transcript, found by binary search); any other id, or
/// a count beyond `u32`, is held by name in a side map of at most [`EventCounts::CAP_NAMED`].
#[derive(Debug, Default)]
pub struct EventCounts {
    keys: Vec<u128>,
    counts: Vec<u32>,
    named: HashMap<Box<str>, u64>,
}

impl EventCounts {
    /// The most transcripts a table holds; a store with more is counted one by one.
    pub const CAP: usize = 262_144;
    /// The most transcripts held by name (ids that are not canonical UUIDs).
    pub const CAP_NAMED: usize = 16_384;

    fn len(&self) -> usize {
        self.keys.len() + self.named.len()
    }

    /// Holds the count of one transcript (each id once, as a GROUP BY yields them).
    /// `false` when the side map is full.
    fn push(&mut self, session_id: &str, n: i64) -> bool {
        match (uuid_key(session_id), u32::try_from(n)) {
            (Some(key), Ok(n)) => {
                self.keys.push(key);
                self.counts.push(n);
            }
            _ if self.named.len() >= Self::CAP_NAMED => return false,
            _ => {
                self.named.insert(Box::from(session_id), n.max(0) as u64);
            }
        }
        true
    }

    /// Sorts the table by key for [`Self::get`] and gives back unused capacity.
    fn finish(mut self) -> Self {
        if self.keys.windows(2).any(|w| w[0] > w[1]) {
            let mut pairs: Vec<(u128, u32)> = self
                .keys
                .iter()
                .copied()
                .zip(self.counts.iter().copied())
                .collect();
            pairs.sort_unstable_by_key(|p| p.0);
            (self.keys, self.counts) = pairs.into_iter().unzip();
        }
        self.keys.shrink_to_fit();
        self.counts.shrink_to_fit();
        self
    }

    /// The events of `session_id` (0 for a transcript with none): exact, as
    /// [`AgentStore::transcript_event_count`].
    pub fn get(&self, session_id: &str) -> u64 {
        if let Some(key) = uuid_key(session_id) {
            if let Ok(i) = self.keys.binary_search(&key) {
                return u64::from(self.counts[i]);
            }
        }
        self.named.get(session_id).copied().unwrap_or(0)
    }
}

/// The 128 bits of a canonical lowercase UUID (`8-4-4-4-12` hex digits); `None` for any
/// other text, so that two ids share a key only if they are the same text.
fn uuid_key(id: &str) -> Option<u128> {
    let b = id.as_bytes();
    if b.len() != 36 {
        return None;
    }
    let mut key = 0u128;
    for (i, &c) in b.iter().enumerate() {
        let digit = match c {
            b'-' if matches!(i, 8 | 13 | 18 | 23) => continue,
            b'0'..=b'9' if !matches!(i, 8 | 13 | 18 | 23) => c - b'0',
            b'a'..=b'f' if !matches!(i, 8 | 13 | 18 | 23) => c - b'a' + 10,
            _ => return None,
        };
        key = key << 4 | u128::from(digit);
    }
    Some(key)
}

fn legacy_stats(path: &Path) -> Result<TranscriptStats> {
    use std::io::Read;
    let mut file = match crate::fsutil::open_regular(path) {
        Ok(f) => f,
        Err(_) if matches!(std::fs::symlink_metadata(path), Err(e) if e.kind() == std::io::ErrorKind::NotFound) => {
            return Ok(TranscriptStats::default())
        }
        Err(e) => return Err(e),
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

#[cfg(test)]
mod tests {
    use super::{uuid_key, EventCounts};

    #[test]
    fn event_counts_key_canonical_uuids_and_name_the_rest() {
        let a = "0006f7d7-ea41-46a3-80ef-21debf16de00";
        assert_eq!(uuid_key(a), Some(0x0006f7d7_ea41_46a3_80ef_21debf16de00));
        for other in [
            "0006F7D7-EA41-46A3-80EF-21DEBF16DE00",
            "0006f7d7ea4146a380ef21debf16de00",
            "0006f7d7-ea41-46a3-80ef-21debf16de0g",
            "0006f7d7-ea41-46a3-80ef+21debf16de00",
            "0006f7d7-ea41-46a3-80ef-21debf16de00-",
            "legacy",
        ] {
            assert_eq!(uuid_key(other), None, "{other}");
        }
        let mut counts = EventCounts::default();
        // Out of order on purpose: finish() sorts.
        assert!(counts.push("ffffffff-ffff-ffff-ffff-ffffffffffff", 7));
        assert!(counts.push(a, 3));
        assert!(counts.push("0006F7D7-EA41-46A3-80EF-21DEBF16DE00", 5));
        assert!(counts.push(
            "00000000-0000-0000-0000-000000000001",
            i64::from(u32::MAX) + 1
        ));
        let counts = counts.finish();
        assert_eq!(counts.get(a), 3);
        assert_eq!(counts.get("0006F7D7-EA41-46A3-80EF-21DEBF16DE00"), 5);
        assert_eq!(counts.get("ffffffff-ffff-ffff-ffff-ffffffffffff"), 7);
        assert_eq!(
            counts.get("00000000-0000-0000-0000-000000000001"),
            u64::from(u32::MAX) + 1
        );
        assert_eq!(counts.get("00000000-0000-0000-0000-000000000002"), 0);
        assert_eq!(counts.len(), 4);
    }
}
