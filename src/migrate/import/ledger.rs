//! One agent's import plan and its file moves, kept in a private temporary SQLite database
//! rather than in memory. The plan holds every session of the legacy store (its normalised
//! entry, paths and lineage: about 1 KB each) from planning to the end of the run, and the
//! manifest lists every moved file; both are read back a page at a time, so the import's
//! memory does not grow with the store. SQLite's page cache spills to a temporary file.
//! The ledger's tables are this module's private scratch database: its SQL stays here.

use std::ffi::OsString;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use rusqlite::{params, Connection, OptionalExtension, Row};
use serde::{Serialize, Serializer};

use super::types::{
    Artifact, ArtifactKind, ArtifactMove, Candidates, Dependencies, Disposal, FileIdentity,
    ImportRecord,
};
use crate::error::{Result, ResultExt};
use crate::store::open_scratch;
use crate::streamed::serialize_visited;

/// Rows read per page (and sessions per import transaction).
pub const PAGE: usize = 256;

fn bytes(p: &Path) -> &[u8] {
    p.as_os_str().as_bytes()
}

/// A path as `Path` compares it (by components: `a//b` and `a/b/` are `a/b`), for lookups.
fn key(p: &Path) -> Vec<u8> {
    p.components()
        .collect::<PathBuf>()
        .into_os_string()
        .into_vec()
}

fn path(b: Vec<u8>) -> PathBuf {
    PathBuf::from(OsString::from_vec(b))
}

/// Trajectory paths joined by NUL, which no path contains.
/// Room for the candidate paths of one record in the candidate order.
const CANDIDATES_PER_RECORD: usize = 1 << 20;

/// The place of a record's `i`-th candidate path: by record, then as given.
fn candidate_order(seq: i64, i: usize) -> i64 {
    seq * CANDIDATES_PER_RECORD as i64 + i.min(CANDIDATES_PER_RECORD - 1) as i64
}

fn joined(paths: &[PathBuf]) -> Vec<u8> {
    paths
        .iter()
        .map(|p| bytes(p))
        .collect::<Vec<_>>()
        .join(&0u8)
}

fn split(b: Vec<u8>) -> Vec<PathBuf> {
    if b.is_empty() {
        return Vec::new();
    }
    b.split(|&c| c == 0).map(|p| path(p.to_vec())).collect()
}

/// Counts of a plan, for its summary line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RecordCounts {
    pub records: usize,
    pub with_transcript: usize,
    pub historical: usize,
    pub transcript_bytes: u64,
}

/// What a planned move is, beside its files.
pub struct MoveLabel<'p> {
    pub kind: ArtifactKind,
    pub session_key: Option<&'p str>,
    /// Classification and reason.
    pub class: (&'static str, &'static str),
    /// Whether the move depends on every candidate transcript path (the index's move).
    pub with_candidates: bool,
}

/// The classifications and reasons a move may carry, read back as the constants they were.
const LABELS: [&str; 9] = [
    "protected",
    "imported",
    "repair-original",
    "indexed-historical-primary",
    "verified-import-original",
    "unimported-or-unknown-history",
    "unreferenced-history",
    "verified-index-import",
    "incomplete-index-import",
];

fn label(s: &str) -> &'static str {
    LABELS
        .iter()
        .find(|l| **l == s)
        .copied()
        .unwrap_or("protected")
}

fn kind_code(kind: ArtifactKind) -> i64 {
    match kind {
        ArtifactKind::Transcript => 0,
        ArtifactKind::Trajectory => 1,
        ArtifactKind::UnreferencedJsonl => 2,
        ArtifactKind::LegacyStore => 3,
    }
}

fn kind_of(code: i64) -> ArtifactKind {
    match code {
        0 => ArtifactKind::Transcript,
        1 => ArtifactKind::Trajectory,
        2 => ArtifactKind::UnreferencedJsonl,
        _ => ArtifactKind::LegacyStore,
    }
}

pub struct ImportLedger {
    /// Shared by reference with the thread that imports the agent.
    conn: Mutex<Connection>,
    /// Named in errors; computed once, since rows are added one at a time.
    at: PathBuf,
}

impl std::fmt::Debug for ImportLedger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ImportLedger")
    }
}

impl ImportLedger {
    pub fn new() -> Result<Self> {
        let (conn, at) = open_scratch(
            "import plan",
            1024,
            "CREATE TABLE record (
               seq INTEGER PRIMARY KEY,
               session_key TEXT NOT NULL,
               session_id TEXT NOT NULL,
               entry_json TEXT NOT NULL,
               transcript BLOB,
               trajectories BLOB NOT NULL,
               historical INTEGER NOT NULL,
               transcript_bytes INTEGER NOT NULL,
               adopted INTEGER NOT NULL DEFAULT 0
             );
             CREATE INDEX record_by_id ON record (session_id, historical);
             CREATE TABLE lineage (
               session_id TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (session_id, seq)
             ) WITHOUT ROWID;
             CREATE TABLE claimed (path BLOB PRIMARY KEY) WITHOUT ROWID;
             CREATE TABLE candidate (n INTEGER PRIMARY KEY, key BLOB NOT NULL UNIQUE, path BLOB NOT NULL);
             CREATE TABLE listing (name BLOB PRIMARY KEY) WITHOUT ROWID;
             CREATE TABLE unreferenced (n INTEGER PRIMARY KEY, path BLOB NOT NULL);
             CREATE TABLE outcome (
               seq INTEGER PRIMARY KEY, expected INTEGER NOT NULL, class INTEGER NOT NULL
             );
             CREATE TABLE move (
               n INTEGER PRIMARY KEY,
               source_key BLOB NOT NULL UNIQUE,
               source BLOB NOT NULL,
               archive_path BLOB NOT NULL UNIQUE,
               kind INTEGER NOT NULL,
               session_key TEXT,
               classification TEXT NOT NULL,
               reason TEXT NOT NULL,
               dev TEXT NOT NULL,
               ino TEXT NOT NULL,
               mtime_ns TEXT NOT NULL,
               size INTEGER NOT NULL,
               sha256 TEXT NOT NULL,
               with_candidates INTEGER NOT NULL
             );",
        )?;
        Ok(ImportLedger {
            conn: Mutex::new(conn),
            at,
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Run one statement with parameters.
    fn execute(&self, sql: &str, args: impl rusqlite::Params) -> Result<usize> {
        self.conn()
            .prepare_cached(sql)
            .and_then(|mut s| s.execute(args))
            .at(&self.at)
    }

    fn count(&self, sql: &str) -> Result<usize> {
        self.conn()
            .prepare_cached(sql)
            .and_then(|mut s| s.query_row([], |r| r.get::<_, i64>(0)))
            .map(|n| n as usize)
            .at(&self.at)
    }

    /// Visit the rows of `sql` (`… WHERE <key> > ?1 ORDER BY <key> LIMIT ?2`, the key first)
    /// a page at a time, from `start`, a value below every key: each page is a seek on the
    /// key, not a scan from the first row. The lock is released while a page is visited, so
    /// the visitor may use the ledger.
    fn pages<K: rusqlite::types::FromSql + rusqlite::ToSql, T>(
        &self,
        sql: &str,
        start: K,
        map: impl Fn(&Row<'_>) -> rusqlite::Result<T>,
        mut visit: impl FnMut(Vec<T>) -> Result<()>,
    ) -> Result<()> {
        let mut after = start;
        loop {
            let page = {
                let conn = self.conn();
                let mut stmt = conn.prepare_cached(sql).at(&self.at)?;
                let rows = stmt
                    .query_map(params![after, PAGE as i64], |r| Ok((r.get(0)?, map(r)?)))
                    .at(&self.at)?;
                rows.collect::<rusqlite::Result<Vec<(K, T)>>>()
                    .at(&self.at)?
            };
            let full = page.len() == PAGE;
            let mut items = Vec::with_capacity(page.len());
            for (key, item) in page {
                after = key;
                items.push(item);
            }
            if items.is_empty() {
                return Ok(());
            }
            visit(items)?;
            if !full {
                return Ok(());
            }
        }
    }

    /// Add a session. `lineage` names the session ids whose orphan transcripts it may own;
    /// `candidates` the paths its transcript was looked for at.
    pub fn add_record(
        &self,
        record: &ImportRecord,
        lineage: &[String],
        candidates: &[PathBuf],
    ) -> Result<()> {
        let conn = self.conn();
        let at = &self.at;
        conn.prepare_cached(
            "INSERT INTO record (session_key, session_id, entry_json, transcript, trajectories, \
             historical, transcript_bytes) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )
        .and_then(|mut s| {
            s.execute(params![
                record.session_key,
                record.session_id,
                record.entry_json,
                record.transcript.as_deref().map(bytes),
                joined(&record.trajectories),
                record.historical,
                record.transcript_bytes as i64,
            ])
        })
        .at(at)?;
        let seq = conn.last_insert_rowid();
        for id in lineage {
            conn.prepare_cached("INSERT OR IGNORE INTO lineage (session_id, seq) VALUES (?1, ?2)")
                .and_then(|mut s| s.execute(params![id, seq]))
                .at(at)?;
        }
        // Ordered by record, then as given: a transcript discovery gives the record later
        // ([`ImportLedger::adopt`]) still comes right after its own candidates.
        for (i, c) in candidates.iter().enumerate() {
            conn.prepare_cached(
                "INSERT OR IGNORE INTO candidate (n, key, path) VALUES (?1, ?2, ?3)",
            )
            .and_then(|mut s| s.execute(params![candidate_order(seq, i), key(c), bytes(c)]))
            .at(at)?;
        }
        // An entry's transcript and trajectories are claimed: never orphans.
        if !record.historical {
            for p in record.transcript.iter().chain(&record.trajectories) {
                conn.prepare_cached("INSERT OR IGNORE INTO claimed (path) VALUES (?1)")
                    .and_then(|mut s| s.execute([key(p)]))
                    .at(at)?;
            }
        }
        Ok(())
    }

    pub fn counts(&self) -> Result<RecordCounts> {
        self.conn()
            .prepare_cached(
                "SELECT count(*), count(transcript), coalesce(sum(historical), 0), \
                 coalesce(sum(transcript_bytes), 0) FROM record",
            )
            .and_then(|mut s| {
                s.query_row([], |r| {
                    Ok(RecordCounts {
                        records: r.get::<_, i64>(0)? as usize,
                        with_transcript: r.get::<_, i64>(1)? as usize,
                        historical: r.get::<_, i64>(2)? as usize,
                        transcript_bytes: r.get::<_, i64>(3)? as u64,
                    })
                })
            })
            .at(&self.at)
    }

    pub fn is_claimed(&self, p: &Path) -> Result<bool> {
        self.conn()
            .prepare_cached("SELECT 1 FROM claimed WHERE path = ?1")
            .and_then(|mut s| s.exists([key(p)]))
            .at(&self.at)
    }

    /// The key of the entry with this session id (the last one, as a map keyed by id keeps).
    pub fn entry_key_of(&self, session_id: &str) -> Result<Option<String>> {
        self.conn()
            .prepare_cached(
                "SELECT session_key FROM record WHERE session_id = ?1 AND historical = 0 \
                 ORDER BY seq DESC LIMIT 1",
            )
            .and_then(|mut s| s.query_row([session_id], |r| r.get(0)).optional())
            .at(&self.at)
    }

    /// Give `path` (a primary transcript whose header names `session_id`) to the entry of that
    /// session id whose transcript was not found, as OpenClaw's import does: only when exactly
    /// one entry has that id, it has no transcript, and no other entry's lineage names the id
    /// (else OpenClaw keeps the file as it is). The key of that entry, or `None`.
    pub fn adopt(
        &self,
        session_id: &str,
        path: &Path,
        trajectories: &[PathBuf],
        bytes_len: u64,
    ) -> Result<Option<String>> {
        let conn = self.conn();
        let at = &self.at;
        let rows: Vec<(i64, String, bool)> = conn
            .prepare_cached(
                "SELECT seq, session_key, transcript IS NOT NULL FROM record \
                 WHERE session_id = ?1 AND historical = 0 LIMIT 2",
            )
            .and_then(|mut s| {
                s.query_map([session_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                    .collect::<rusqlite::Result<_>>()
            })
            .at(at)?;
        let [(seq, session_key, false)] = &rows[..] else {
            return Ok(None);
        };
        let other_owners: i64 = conn
            .prepare_cached("SELECT count(*) FROM lineage WHERE session_id = ?1 AND seq != ?2")
            .and_then(|mut s| s.query_row(params![session_id, seq], |r| r.get(0)))
            .at(at)?;
        if other_owners > 0 {
            return Ok(None);
        }
        conn.prepare_cached(
            "UPDATE record SET transcript = ?1, trajectories = ?2, transcript_bytes = ?3, \
             adopted = 1 WHERE seq = ?4",
        )
        .and_then(|mut s| {
            s.execute(params![
                bytes(path),
                joined(trajectories),
                bytes_len as i64,
                seq
            ])
        })
        .at(at)?;
        conn.prepare_cached("INSERT OR IGNORE INTO candidate (n, key, path) VALUES (?1, ?2, ?3)")
            .and_then(|mut s| {
                s.execute(params![
                    candidate_order(*seq, CANDIDATES_PER_RECORD - 1),
                    key(path),
                    bytes(path)
                ])
            })
            .at(at)?;
        for p in std::iter::once(path).chain(trajectories.iter().map(PathBuf::as_path)) {
            conn.prepare_cached("INSERT OR IGNORE INTO claimed (path) VALUES (?1)")
                .and_then(|mut s| s.execute([key(p)]))
                .at(at)?;
        }
        Ok(Some(session_key.clone()))
    }

    /// The key of the one entry whose lineage lists `session_id`; none when several do.
    pub fn owner_key(&self, session_id: &str) -> Result<Option<String>> {
        let conn = self.conn();
        let owners: Vec<i64> = conn
            .prepare_cached("SELECT seq FROM lineage WHERE session_id = ?1 LIMIT 2")
            .and_then(|mut s| {
                s.query_map([session_id], |r| r.get(0))?
                    .collect::<rusqlite::Result<_>>()
            })
            .at(&self.at)?;
        let [seq] = owners[..] else {
            return Ok(None);
        };
        conn.prepare_cached("SELECT session_key FROM record WHERE seq = ?1")
            .and_then(|mut s| s.query_row([seq], |r| r.get(0)).optional())
            .at(&self.at)
    }

    /// Every session, in plan order, a page at a time, with its import outcome once recorded.
    pub fn record_pages(
        &self,
        visit: impl FnMut(Vec<(ImportRecord, Option<(u64, i64)>)>) -> Result<()>,
    ) -> Result<()> {
        self.pages(
            "SELECT r.seq, r.session_key, r.session_id, r.entry_json, r.transcript, \
             r.trajectories, r.historical, r.transcript_bytes, o.expected, o.class, r.adopted \
             FROM record r LEFT JOIN outcome o ON o.seq = r.seq \
             WHERE r.seq > ?1 ORDER BY r.seq LIMIT ?2",
            i64::MIN,
            |r| {
                let outcome = match (r.get::<_, Option<i64>>(8)?, r.get::<_, Option<i64>>(9)?) {
                    (Some(e), Some(c)) => Some((e as u64, c)),
                    _ => None,
                };
                Ok((
                    ImportRecord {
                        seq: r.get(0)?,
                        session_key: r.get(1)?,
                        session_id: r.get(2)?,
                        entry_json: r.get(3)?,
                        transcript: r.get::<_, Option<Vec<u8>>>(4)?.map(path),
                        trajectories: split(r.get(5)?),
                        historical: r.get(6)?,
                        adopted: r.get(10)?,
                        transcript_bytes: r.get::<_, i64>(7)? as u64,
                    },
                    outcome,
                ))
            },
            visit,
        )
    }

    /// Every session, in plan order, one at a time.
    pub fn for_each_record(
        &self,
        mut visit: impl FnMut(ImportRecord, Option<(u64, i64)>) -> Result<()>,
    ) -> Result<()> {
        self.record_pages(|page| {
            page.into_iter()
                .try_for_each(|(record, outcome)| visit(record, outcome))
        })
    }

    /// What importing a session found: the events its transcript converts to, and its class.
    pub fn set_outcome(&self, seq: i64, expected: u64, class: i64) -> Result<()> {
        self.execute(
            "INSERT OR REPLACE INTO outcome (seq, expected, class) VALUES (?1, ?2, ?3)",
            params![seq, expected as i64, class],
        )?;
        Ok(())
    }

    /// A `*.jsonl` name of the sessions dir, to be visited in byte order.
    pub fn add_listed(&self, name: &str) -> Result<()> {
        self.execute(
            "INSERT OR IGNORE INTO listing (name) VALUES (?1)",
            [name.as_bytes()],
        )?;
        Ok(())
    }

    pub fn for_each_listed(&self, mut visit: impl FnMut(String) -> Result<()>) -> Result<()> {
        // Keyed by the name itself; the empty name sorts first.
        self.pages(
            "SELECT name, name FROM listing WHERE name > ?1 ORDER BY name LIMIT ?2",
            Vec::<u8>::new(),
            |r| r.get::<_, Vec<u8>>(1),
            |page| {
                page.into_iter()
                    .try_for_each(|name| visit(String::from_utf8_lossy(&name).into_owned()))
            },
        )
    }

    pub fn add_unreferenced(&self, p: &Path) -> Result<()> {
        self.execute("INSERT INTO unreferenced (path) VALUES (?1)", [bytes(p)])?;
        Ok(())
    }

    pub fn unreferenced_count(&self) -> Result<usize> {
        self.count("SELECT count(*) FROM unreferenced")
    }

    pub fn for_each_unreferenced(
        &self,
        mut visit: impl FnMut(PathBuf) -> Result<()>,
    ) -> Result<()> {
        self.pages(
            "SELECT n, path FROM unreferenced WHERE n > ?1 ORDER BY n LIMIT ?2",
            i64::MIN,
            |r| r.get::<_, Vec<u8>>(1).map(path),
            |page| page.into_iter().try_for_each(&mut visit),
        )
    }

    /// Every candidate transcript path once, in the order the sessions named them.
    pub fn for_each_candidate(&self, mut visit: impl FnMut(PathBuf) -> Result<()>) -> Result<()> {
        self.pages(
            "SELECT n, path FROM candidate WHERE n > ?1 ORDER BY n LIMIT ?2",
            i64::MIN,
            |r| r.get::<_, Vec<u8>>(1).map(path),
            |page| page.into_iter().try_for_each(&mut visit),
        )
    }

    /// Whether a planned move already goes to this archive name.
    pub fn archive_name_taken(&self, p: &Path) -> Result<bool> {
        self.conn()
            .prepare_cached("SELECT 1 FROM move WHERE archive_path = ?1")
            .and_then(|mut s| s.exists([bytes(p)]))
            .at(&self.at)
    }

    pub fn add_move(
        &self,
        m: &MoveLabel<'_>,
        source: &Path,
        archive_path: &Path,
        identity: &FileIdentity,
    ) -> Result<()> {
        self.execute(
            "INSERT INTO move (source_key, source, archive_path, kind, session_key, classification, \
             reason, dev, ino, mtime_ns, size, sha256, with_candidates) \
             VALUES (?13, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                bytes(source),
                bytes(archive_path),
                kind_code(m.kind),
                m.session_key,
                m.class.0,
                m.class.1,
                identity.dev,
                identity.ino,
                identity.mtime_ns,
                identity.size as i64,
                identity.sha256,
                m.with_candidates,
                key(source),
            ],
        )?;
        Ok(())
    }

    /// A second move of the same source keeps the first's place and archive name, and takes
    /// the later kind, key, class and dependencies. Returns whether the source had a move.
    pub fn update_move(&self, m: &MoveLabel<'_>, source: &Path) -> Result<bool> {
        let updated = self.execute(
            "UPDATE move SET kind = ?2, session_key = ?3, classification = ?4, reason = ?5, \
             with_candidates = ?6 WHERE source_key = ?1",
            params![
                key(source),
                kind_code(m.kind),
                m.session_key,
                m.class.0,
                m.class.1,
                m.with_candidates,
            ],
        )?;
        Ok(updated > 0)
    }

    pub fn move_count(&self) -> Result<usize> {
        self.count("SELECT count(*) FROM move")
    }

    /// Every planned move in plan order, one at a time.
    pub fn for_each_move<'a>(
        &'a self,
        mut visit: impl FnMut(ArtifactMove<'a>) -> Result<()>,
    ) -> Result<()> {
        self.pages(
            "SELECT n, source, archive_path, kind, session_key, classification, reason, dev, ino, \
             mtime_ns, size, sha256, with_candidates FROM move WHERE n > ?1 ORDER BY n LIMIT ?2",
            i64::MIN,
            |r| {
                Ok(ArtifactMove {
                    source_path: path(r.get(1)?),
                    archive_path: path(r.get(2)?),
                    kind: kind_of(r.get(3)?),
                    session_key: r.get(4)?,
                    artifact: Artifact {
                        classification: label(&r.get::<_, String>(5)?),
                        reason: label(&r.get::<_, String>(6)?),
                        identity: FileIdentity {
                            dev: r.get(7)?,
                            ino: r.get(8)?,
                            mtime_ns: r.get(9)?,
                            size: r.get::<_, i64>(10)? as u64,
                            sha256: r.get(11)?,
                        },
                        dependencies: if r.get(12)? {
                            Dependencies::Candidates(self)
                        } else {
                            Dependencies::None
                        },
                        disposal: Disposal { state: "retained" },
                    },
                })
            },
            |page| page.into_iter().try_for_each(&mut visit),
        )
    }
}

impl Candidates for ImportLedger {
    fn for_each_candidate(&self, visit: &mut dyn FnMut(PathBuf) -> Result<()>) -> Result<()> {
        ImportLedger::for_each_candidate(self, visit)
    }
}

/// The moves of a plan, or none, as a JSON array (manifest and report).
#[derive(Debug, Clone, Copy, Default)]
pub struct MoveList<'a>(pub Option<&'a ImportLedger>);

impl MoveList<'_> {
    pub fn len(&self) -> Result<usize> {
        self.0.map_or(Ok(0), ImportLedger::move_count)
    }

    pub fn is_empty(&self) -> Result<bool> {
        self.len().map(|n| n == 0)
    }

    /// The directory the first move goes to: the agent's import archive.
    pub fn archive_dir(&self) -> Result<Option<PathBuf>> {
        let Some(ledger) = self.0 else {
            return Ok(None);
        };
        let first: Option<Vec<u8>> = ledger
            .conn()
            .prepare_cached("SELECT archive_path FROM move ORDER BY n LIMIT 1")
            .and_then(|mut s| s.query_row([], |r| r.get(0)).optional())
            .at(&ledger.at)?;
        Ok(first.and_then(|p| path(p).parent().map(Path::to_path_buf)))
    }
}

impl Serialize for MoveList<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        serialize_visited(serializer, |emit| match self.0 {
            Some(ledger) => ledger.for_each_move(emit),
            None => Ok(()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(key: &str, id: &str, transcript: Option<&str>, historical: bool) -> ImportRecord {
        ImportRecord {
            seq: 0,
            session_key: key.into(),
            session_id: id.into(),
            entry_json: format!("{{\"sessionId\":\"{id}\"}}"),
            transcript: transcript.map(PathBuf::from),
            trajectories: Vec::new(),
            historical,
            adopted: false,
            transcript_bytes: 3,
        }
    }

    fn keys(ledger: &ImportLedger) -> Vec<String> {
        let mut out = Vec::new();
        ledger
            .for_each_record(|r, _| {
                out.push(r.session_key);
                Ok(())
            })
            .unwrap();
        out
    }

    #[test]
    fn sessions_come_back_in_plan_order_across_pages() {
        let ledger = ImportLedger::new().unwrap();
        let n = 2 * PAGE + 3;
        for i in 0..n {
            // Keys out of order: the plan's order is the order of addition.
            let key = format!("k{}", n - i);
            ledger
                .add_record(&record(&key, &format!("s{i}"), None, false), &[], &[])
                .unwrap();
        }
        let mut sizes = Vec::new();
        ledger
            .record_pages(|page| {
                sizes.push(page.len());
                Ok(())
            })
            .unwrap();
        assert_eq!(sizes, [PAGE, PAGE, 3]);
        let expected: Vec<String> = (0..n).map(|i| format!("k{}", n - i)).collect();
        assert_eq!(keys(&ledger), expected);
        ledger.set_outcome(2, 7, 1).unwrap();
        let mut outcomes = Vec::new();
        ledger
            .for_each_record(|r, o| {
                if o.is_some() {
                    outcomes.push((r.seq, o));
                }
                Ok(())
            })
            .unwrap();
        assert_eq!(outcomes, [(2, Some((7, 1)))]);
        let counts = ledger.counts().unwrap();
        assert_eq!((counts.records, counts.transcript_bytes), (n, 3 * n as u64));
    }

    #[test]
    fn lookups_answer_as_the_maps_they_replace() {
        let ledger = ImportLedger::new().unwrap();
        let a = record("a", "dup", Some("d/sub//a.jsonl"), false);
        ledger.add_record(&a, &["x".into()], &[]).unwrap();
        let b = record("b", "dup", None, false);
        ledger
            .add_record(&b, &["x".into(), "y".into(), "y".into()], &[])
            .unwrap();
        let h = record("h", "dup", Some("d/h.jsonl"), true);
        ledger.add_record(&h, &[], &[]).unwrap();
        // A map keyed by session id keeps the last entry; historical sessions are not entries.
        assert_eq!(ledger.entry_key_of("dup").unwrap().as_deref(), Some("b"));
        assert_eq!(ledger.entry_key_of("none").unwrap(), None);
        // An owner must be the only one.
        assert_eq!(ledger.owner_key("x").unwrap(), None);
        assert_eq!(ledger.owner_key("y").unwrap().as_deref(), Some("b"));
        // Paths compare as `Path` does; a historical transcript is not claimed.
        assert!(ledger.is_claimed(Path::new("d/sub/a.jsonl")).unwrap());
        assert!(ledger.is_claimed(Path::new("d//sub/a.jsonl/")).unwrap());
        assert!(!ledger.is_claimed(Path::new("d/h.jsonl")).unwrap());
    }

    #[test]
    fn moves_keep_their_first_place_and_take_the_last_label() {
        let ledger = ImportLedger::new().unwrap();
        let identity = FileIdentity {
            dev: "1".into(),
            ino: "2".into(),
            mtime_ns: "3".into(),
            size: 4,
            sha256: "ab".into(),
        };
        let label = |key, class| MoveLabel {
            kind: ArtifactKind::Transcript,
            session_key: Some(key),
            class,
            with_candidates: false,
        };
        let other = PathBuf::from("d/w.jsonl");
        ledger
            .add_move(
                &label("a", ("imported", "verified-import-original")),
                Path::new("d/a.jsonl"),
                Path::new("z/a"),
                &identity,
            )
            .unwrap();
        ledger
            .add_move(
                &label("w", ("protected", "unreferenced-history")),
                &other,
                Path::new("z/w"),
                &identity,
            )
            .unwrap();
        assert!(ledger.archive_name_taken(Path::new("z/a")).unwrap());
        // The same source, spelled otherwise, has its move updated; another source has none.
        assert!(ledger
            .update_move(
                &label("b", ("protected", "unimported-or-unknown-history")),
                Path::new("d//a.jsonl"),
            )
            .unwrap());
        assert!(!ledger
            .update_move(
                &label("c", ("protected", "unreferenced-history")),
                Path::new("d/x")
            )
            .unwrap());
        ledger
            .add_record(
                &record("k", "s", None, false),
                &[],
                &[
                    PathBuf::from("d/c1"),
                    PathBuf::from("d//c1"),
                    PathBuf::from("d/c2"),
                ],
            )
            .unwrap();
        let store = MoveLabel {
            kind: ArtifactKind::LegacyStore,
            session_key: None,
            class: ("imported", "verified-index-import"),
            with_candidates: true,
        };
        ledger
            .add_move(
                &store,
                Path::new("d/sessions.json"),
                Path::new("z/s"),
                &identity,
            )
            .unwrap();
        let json = serde_json::to_value(MoveList(Some(&ledger))).unwrap();
        let moves = json.as_array().unwrap();
        assert_eq!(moves.len(), 3);
        assert_eq!(
            (
                moves[0]["sessionKey"].as_str(),
                moves[0]["sourcePath"].as_str()
            ),
            (Some("b"), Some("d/a.jsonl"))
        );
        assert_eq!(
            moves[0]["artifact"]["reason"],
            "unimported-or-unknown-history"
        );
        assert_eq!(moves[0]["artifact"]["identity"]["sha256"], "ab");
        assert_eq!(moves[0]["archivePath"], "z/a");
        assert_eq!(
            moves[2]["artifact"]["dependencies"],
            serde_json::json!(["d/c1", "d/c2"])
        );
        assert_eq!(moves[1]["artifact"]["dependencies"], serde_json::json!([]));
        assert_eq!(moves[1]["sourcePath"], "d/w.jsonl");
        assert_eq!(
            MoveList(Some(&ledger)).archive_dir().unwrap(),
            Some(PathBuf::from("z"))
        );
        assert_eq!(MoveList(None).len().unwrap(), 0);
    }

    #[test]
    fn paths_that_are_not_utf8_come_back_as_they_were() {
        let ledger = ImportLedger::new().unwrap();
        let weird = PathBuf::from(OsString::from_vec(b"d/\xff.jsonl".to_vec()));
        let mut r = record("k", "s", None, false);
        r.transcript = Some(weird.clone());
        r.trajectories = vec![weird.with_extension("x"), PathBuf::from("t")];
        ledger.add_record(&r, &[], &[]).unwrap();
        ledger.add_unreferenced(&weird).unwrap();
        let mut back = Vec::new();
        ledger
            .for_each_record(|r, _| {
                back.push((r.transcript, r.trajectories));
                Ok(())
            })
            .unwrap();
        assert_eq!(back, [(Some(weird.clone()), r.trajectories.clone())]);
        let mut unreferenced = Vec::new();
        ledger
            .for_each_unreferenced(|p| {
                unreferenced.push(p);
                Ok(())
            })
            .unwrap();
        assert_eq!(unreferenced, [weird]);
    }

    #[test]
    fn listed_names_come_back_in_byte_order_once() {
        let ledger = ImportLedger::new().unwrap();
        let mut names: Vec<String> = (0..PAGE + 5)
            .map(|i| format!("{:x}.jsonl", i * 7919 % 1000))
            .collect();
        names.push("Z.jsonl".into());
        names.push("é.jsonl".into());
        for n in &names {
            ledger.add_listed(n).unwrap();
        }
        let mut seen = Vec::new();
        ledger
            .for_each_listed(|n| {
                seen.push(n);
                Ok(())
            })
            .unwrap();
        names.sort();
        names.dedup();
        assert_eq!(seen, names);
    }
}
