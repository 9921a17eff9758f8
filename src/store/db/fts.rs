//! Full-text search over `session_transcript_fts` (OpenClaw's FTS5 index of user and
//! assistant text, docs/openclaw/ARCHIVES.md), and a private in-memory table of the same
//! shape and tokenizer for text that is only in archives.

use rusqlite::{params, Connection};

/// OpenClaw's tokenizer for `session_transcript_fts`.
pub const TOKENIZER: &str = "unicode61 remove_diacritics 2";

/// One FTS match.
#[derive(Debug, Clone)]
pub struct FtsHit {
    pub session_id: String,
    pub message_id: String,
    pub role: String,
    pub timestamp: f64,
    pub snippet: String,
    /// `bm25()`: lower is better.
    pub rank: f64,
    /// The key of the window (live index), else `None`.
    pub session_key: Option<String>,
    /// The event's `seq` (from its identity row, or the archive position).
    pub seq: Option<i64>,
}

/// How to order and bound a search.
#[derive(Debug, Clone)]
pub struct FtsQuery<'a> {
    /// An FTS5 query expression, given to `MATCH` as it is.
    pub expr: &'a str,
    pub role: Option<&'a str>,
    /// Only rows with `timestamp >= since` (ms).
    pub since: Option<i64>,
    pub recent_first: bool,
    pub limit: i64,
    /// Snippet highlight markers.
    pub open: &'a str,
    pub close: &'a str,
}

/// The ORDER BY of a search over the rows named `t`.
fn order(q: &FtsQuery<'_>, t: &str) -> String {
    if q.recent_first {
        format!("ORDER BY {t}timestamp DESC, {t}rowid DESC")
    } else {
        format!("ORDER BY {t}rank ASC, {t}timestamp DESC, {t}message_id ASC")
    }
}

fn hit(r: &rusqlite::Row<'_>) -> rusqlite::Result<FtsHit> {
    Ok(FtsHit {
        session_id: r.get(0)?,
        message_id: r.get::<_, Option<String>>(1)?.unwrap_or_default(),
        role: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
        timestamp: r.get::<_, Option<f64>>(3)?.unwrap_or(0.0),
        snippet: r.get::<_, Option<String>>(4)?.unwrap_or_default(),
        rank: r.get(5)?,
        session_key: r.get(6)?,
        seq: r.get(7)?,
    })
}

/// Matches in the live index of an agent database, with each window's key and each
/// message's `seq`.
pub fn search_live(conn: &Connection, q: &FtsQuery<'_>) -> rusqlite::Result<Vec<FtsHit>> {
    // Ranked and cut inside the index first; only the hits kept are joined to their window
    // and identity rows.
    let sql = format!(
        "WITH f AS (SELECT rowid, session_id, message_id, role, timestamp, \
                snippet(session_transcript_fts, 0, ?2, ?3, ' … ', 48) AS snippet, bm25(session_transcript_fts) AS rank \
             FROM session_transcript_fts \
             WHERE session_transcript_fts MATCH ?1 AND (?4 IS NULL OR role = ?4) AND (?5 IS NULL OR timestamp >= ?5) \
             {inner} LIMIT ?6) \
         SELECT f.session_id, f.message_id, f.role, f.timestamp, f.snippet, f.rank, w.session_key, i.seq \
         FROM f \
         LEFT JOIN session_windows w ON w.session_id = f.session_id \
         LEFT JOIN transcript_event_identities i ON i.session_id = f.session_id AND i.event_id = f.message_id \
         {outer}",
        inner = order(q, ""),
        outer = order(q, "f.")
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map(
        params![q.expr, q.open, q.close, q.role, q.since, q.limit],
        hit,
    )?;
    rows.collect()
}

/// A private in-memory index with OpenClaw's tokenizer: the messages in `scratch_docs`
/// (with the event's position in its archive and which archive of the batch it came from),
/// their text indexed by `scratch_fts`, an external-content FTS5 table. Its only indexed
/// column is `text`, as in `session_transcript_fts` (the others are UNINDEXED there), so
/// matching and `bm25` are the same; external content lets a batch be emptied with
/// `delete-all` instead of tokenizing every row again to delete it.
pub fn open_scratch_index() -> rusqlite::Result<Connection> {
    let conn = Connection::open_in_memory()?;
    // A batch is committed only to be searched and emptied: no rollback journal to hold
    // copies of its pages.
    conn.execute_batch(&format!(
        "PRAGMA journal_mode = OFF; \
         CREATE TABLE scratch_docs (id INTEGER PRIMARY KEY, text TEXT, session_id TEXT, message_id TEXT, \
            role TEXT, timestamp REAL, seq INTEGER, archive INTEGER); \
         CREATE VIRTUAL TABLE scratch_fts USING fts5(text, content = 'scratch_docs', content_rowid = 'id', \
            tokenize = '{TOKENIZER}');"
    ))?;
    Ok(conn)
}

/// One message of the batch's archive number `archive`.
#[allow(clippy::too_many_arguments)]
pub fn scratch_insert(
    conn: &Connection,
    archive: i64,
    session_id: &str,
    message_id: &str,
    role: &str,
    text: &str,
    timestamp: f64,
    seq: i64,
) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO scratch_docs (text, session_id, message_id, role, timestamp, seq, archive) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        text, session_id, message_id, role, timestamp, seq, archive
    ])?;
    let id = conn.last_insert_rowid();
    conn.prepare_cached("INSERT INTO scratch_fts (rowid, text) VALUES (?1, ?2)")?
        .execute(params![id, text])?;
    Ok(())
}

/// Matches in the scratch index, each with the number of its archive in the batch.
pub fn scratch_search(conn: &Connection, q: &FtsQuery<'_>) -> rusqlite::Result<Vec<(FtsHit, i64)>> {
    let order = if q.recent_first {
        "ORDER BY d.timestamp DESC, d.id DESC"
    } else {
        "ORDER BY score ASC, d.timestamp DESC, d.message_id ASC"
    };
    let sql = format!(
        "SELECT d.session_id, d.message_id, d.role, d.timestamp, \
                snippet(scratch_fts, 0, ?2, ?3, ' … ', 48), bm25(scratch_fts) AS score, NULL, d.seq, d.archive \
         FROM scratch_fts JOIN scratch_docs d ON d.id = scratch_fts.rowid \
         WHERE scratch_fts MATCH ?1 AND (?4 IS NULL OR d.role = ?4) AND (?5 IS NULL OR d.timestamp >= ?5) \
         {order} LIMIT ?6"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(
        params![q.expr, q.open, q.close, q.role, q.since, q.limit],
        |r| Ok((hit(r)?, r.get(8)?)),
    )?;
    rows.collect()
}

/// Drop the messages of the batch's archive number `archive` (one that could not be read
/// to its end).
pub fn scratch_forget(conn: &Connection, archive: i64) -> rusqlite::Result<usize> {
    conn.execute(
        "INSERT INTO scratch_fts (scratch_fts, rowid, text) \
         SELECT 'delete', id, text FROM scratch_docs WHERE archive = ?1",
        [archive],
    )?;
    conn.execute("DELETE FROM scratch_docs WHERE archive = ?1", [archive])
}

/// Empty the scratch index for the next batch: the index's segments at once, the messages
/// by SQLite's truncation of a table deleted without a condition.
pub fn scratch_clear(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(
        "INSERT INTO scratch_fts (scratch_fts) VALUES ('delete-all'); DELETE FROM scratch_docs;",
    )
}
