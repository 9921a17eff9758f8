//! `transcript_events` (one row per event: plain JSON, or a zstd frame with its
//! `navigation_json`), with the tables keyed by its rows: `transcript_event_identities`
//! and `transcript_rewrite_watermarks`.

use std::ops::ControlFlow;
use std::path::Path;

use rusqlite::types::ValueRef;
use rusqlite::{params, Connection, OptionalExtension};

use crate::error::{Result, ResultExt};
use crate::store::AgentSchema;

/// Whether a transcript has any event.
pub fn any(conn: &Connection, session_id: &str) -> rusqlite::Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM transcript_events WHERE session_id = ?1 LIMIT 1")?
        .query_row([session_id], |_| Ok(true))
        .optional()?
        .unwrap_or(false))
}

/// The `seq` the next appended event takes.
pub fn next_seq(conn: &Connection, session_id: &str) -> rusqlite::Result<i64> {
    conn.prepare_cached(
        "SELECT coalesce(max(seq), -1) + 1 FROM transcript_events WHERE session_id = ?1",
    )?
    .query_row([session_id], |r| r.get(0))
}

/// Highest `seq`, or -1 for an empty transcript.
pub fn last_seq(conn: &Connection, session_id: &str) -> rusqlite::Result<i64> {
    conn.prepare_cached(
        "SELECT coalesce(max(seq), -1) FROM transcript_events WHERE session_id = ?1",
    )?
    .query_row([session_id], |r| r.get(0))
}

/// Events of a transcript, counted on the primary-key index (no event is read).
pub fn count(conn: &Connection, session_id: &str) -> rusqlite::Result<i64> {
    conn.prepare_cached("SELECT count(*) FROM transcript_events WHERE session_id = ?1")?
        .query_row([session_id], |r| r.get(0))
}

/// Every transcript's event count in one walk of the primary key, in `session_id` order:
/// the same numbers as [`count`] for each (a transcript with no event has no row). Returns
/// whether the walk ended (`visit` may stop it).
pub fn counts(
    conn: &Connection,
    mut visit: impl FnMut(&str, i64) -> ControlFlow<()>,
) -> rusqlite::Result<bool> {
    let mut stmt =
        conn.prepare("SELECT session_id, count(*) FROM transcript_events GROUP BY session_id")?;
    let mut rows = stmt.query([])?;
    while let Some(row) = rows.next()? {
        // An id that is not UTF-8 names no session of a listing: skip it.
        let Ok(id) = row.get_ref(0)?.as_str() else {
            continue;
        };
        if visit(id, row.get(1)?).is_break() {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Events and serialized bytes of a transcript.
pub fn stats(conn: &Connection, session_id: &str) -> rusqlite::Result<(i64, i64)> {
    conn.prepare_cached(
        "SELECT count(*), coalesce(sum(coalesce(event_utf8_bytes, octet_length(event_json))), 0) \
         FROM transcript_events WHERE session_id = ?1",
    )?
    .query_row([session_id], |r| Ok((r.get(0)?, r.get(1)?)))
}

/// Events and serialized bytes of every transcript.
pub fn totals(conn: &Connection) -> rusqlite::Result<(i64, i64)> {
    conn.prepare_cached("SELECT count(*), coalesce(sum(coalesce(event_utf8_bytes, octet_length(event_json))), 0) FROM transcript_events")?.query_row([],|r| Ok((r.get(0)?, r.get(1)?)))
}

/// One transcript's size as stored, for `du --sessions`.
#[derive(Debug, Clone)]
pub struct TranscriptSize {
    pub session_id: String,
    /// The session key of its window, when it has one.
    pub session_key: Option<String>,
    pub events: i64,
    /// Serialized event bytes (what the events weigh decoded).
    pub bytes: i64,
    /// Bytes of the stored cells (`event_zstd` frames, else `event_json`).
    pub stored_bytes: i64,
    /// Newest event's `created_at` (ms).
    pub last_event_at: Option<i64>,
}

/// Every transcript's size in one walk of `transcript_events`, grouped by `session_id` (one
/// aggregate in memory at a time).
pub fn sizes(
    conn: &Connection,
    schema: AgentSchema,
    mut visit: impl FnMut(TranscriptSize),
) -> rusqlite::Result<()> {
    let sql = if schema.compresses_events() {
        "SELECT e.session_id, (SELECT w.session_key FROM session_windows w WHERE w.session_id = e.session_id), \
         count(*), sum(coalesce(e.event_utf8_bytes, octet_length(e.event_json))), \
         sum(coalesce(length(e.event_zstd), octet_length(e.event_json))), max(e.created_at) \
         FROM transcript_events e GROUP BY e.session_id"
    } else {
        "SELECT e.session_id, (SELECT w.session_key FROM session_windows w WHERE w.session_id = e.session_id), \
         count(*), sum(octet_length(e.event_json)), sum(octet_length(e.event_json)), max(e.created_at) \
         FROM transcript_events e GROUP BY e.session_id"
    };
    let mut stmt = conn.prepare(sql)?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        let Ok(id) = r.get_ref(0)?.as_str() else {
            continue;
        };
        visit(TranscriptSize {
            session_id: id.to_string(),
            session_key: r.get(1).ok().flatten(),
            events: r.get(2)?,
            bytes: r.get::<_, Option<i64>>(3)?.unwrap_or(0),
            stored_bytes: r.get::<_, Option<i64>>(4)?.unwrap_or(0),
            last_event_at: r.get(5).ok().flatten(),
        });
    }
    Ok(())
}

/// `(session_id, session_key, seq, created_at, stored bytes)`.
pub type RecentRow = (String, Option<String>, i64, i64, i64);

/// The `n` largest events stored within `window_ms` of the newest one, as
/// `(session_id, session_key, seq, created_at, stored bytes)`: what most likely grew a WAL.
/// The lengths come from the record headers (SQLite does not read the cells for them).
pub fn largest_recent(
    conn: &Connection,
    schema: AgentSchema,
    window_ms: i64,
    n: usize,
) -> rusqlite::Result<Vec<RecentRow>> {
    let size = if schema.compresses_events() {
        "coalesce(length(e.event_zstd), octet_length(e.event_json))"
    } else {
        "octet_length(e.event_json)"
    };
    let sql = format!(
        "SELECT e.session_id, (SELECT w.session_key FROM session_windows w WHERE w.session_id = e.session_id), \
         e.seq, e.created_at, {size} AS b FROM transcript_events e \
         WHERE e.created_at >= (SELECT max(created_at) FROM transcript_events) - ?1 \
         ORDER BY b DESC, e.session_id, e.seq LIMIT ?2"
    );
    let mut stmt = conn.prepare(&sql)?;
    let rows = stmt.query_map(params![window_ms, n as i64], |r| {
        Ok((
            r.get::<_, String>(0)?,
            r.get::<_, Option<String>>(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get::<_, Option<i64>>(4)?.unwrap_or(0),
        ))
    })?;
    rows.collect()
}

/// One stored event for a walk over many transcripts.
pub struct AnyEventRow<'r> {
    pub session_id: &'r str,
    pub seq: i64,
    pub created_at: Option<i64>,
    pub json: Option<String>,
    pub frame: Option<&'r [u8]>,
    pub utf8_bytes: Option<i64>,
    /// Bytes of the stored cell.
    pub stored_bytes: i64,
}

/// Every stored event of one transcript, or of the whole database when `session_id` is
/// `None`, in the table's order, one row in memory at a time.
pub fn for_each_any(
    conn: &Connection,
    path: &Path,
    schema: AgentSchema,
    session_id: Option<&str>,
    mut visit: impl FnMut(AnyEventRow<'_>) -> Result<()>,
) -> Result<()> {
    let cols = if schema.compresses_events() {
        "session_id, seq, created_at, event_json, event_zstd, event_utf8_bytes"
    } else {
        "session_id, seq, created_at, event_json, NULL, NULL"
    };
    let sql = match session_id {
        Some(_) => format!("SELECT {cols} FROM transcript_events WHERE session_id = ?1"),
        None => format!("SELECT {cols} FROM transcript_events"),
    };
    let mut stmt = conn.prepare(&sql).at(path)?;
    let mut rows = match session_id {
        Some(id) => stmt.query([id]),
        None => stmt.query([]),
    }
    .at(path)?;
    while let Some(r) = rows.next().at(path)? {
        let Ok(sid) = r.get_ref(0).at(path)?.as_str() else {
            continue;
        };
        let seq: i64 = r.get(1).at(path)?;
        let json = event_json(r.get_ref(3).at(path)?, sid, seq)?;
        let frame = match r.get_ref(4).at(path)? {
            ValueRef::Blob(b) => Some(b),
            _ => None,
        };
        let stored_bytes =
            frame.map_or_else(|| json.as_ref().map_or(0, |j| j.len()), |f| f.len()) as i64;
        visit(AnyEventRow {
            session_id: sid,
            seq,
            created_at: r.get(2).ok().flatten(),
            json,
            frame,
            utf8_bytes: r.get(5).at(path)?,
            stored_bytes,
        })?;
    }
    Ok(())
}

/// An event's stored payload: `event_json`, `event_zstd`, `event_utf8_bytes`.
pub type Payload = (Option<String>, Option<Vec<u8>>, Option<i64>);

/// One event's stored payload (before schema 23 every event is plain `event_json`).
pub fn payload(
    conn: &Connection,
    schema: AgentSchema,
    session_id: &str,
    seq: i64,
) -> rusqlite::Result<Payload> {
    if !schema.compresses_events() {
        return conn
            .prepare_cached(
                "SELECT event_json FROM transcript_events WHERE session_id = ?1 AND seq = ?2",
            )?
            .query_row(params![session_id, seq], |r| Ok((r.get(0)?, None, None)));
    }
    conn.prepare_cached(
        "SELECT event_json, event_zstd, event_utf8_bytes FROM transcript_events WHERE session_id = ?1 AND seq = ?2",
    )?
    .query_row(params![session_id, seq], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?))
    })
}

/// A stored event as read: the zstd frame is left to the caller to check.
pub struct EventRow<'r> {
    pub seq: i64,
    pub json: Option<String>,
    pub frame: ValueRef<'r>,
    pub utf8_bytes: Option<i64>,
}

/// An `event_json` cell: text that is not UTF-8 is bad input naming the row (the doctor's
/// `text-encoding` finds it), never another event's text.
fn event_json(v: ValueRef<'_>, session_id: &str, seq: i64) -> Result<Option<String>> {
    match v {
        ValueRef::Null => Ok(None),
        ValueRef::Text(t) => match std::str::from_utf8(t) {
            Ok(s) => Ok(Some(s.to_string())),
            Err(e) => Err(crate::error::Error::bad_input(
                format!("transcript row {session_id}#{seq}: event_json is not UTF-8 ({e})"),
                Some("run the doctor on this store".to_string()),
            )
            .with_remedy(crate::error::Remedy::RunDoctor)),
        },
        _ => Err(crate::error::Error::bad_input(
            format!("transcript row {session_id}#{seq}: event_json is not text"),
            Some("run the doctor on this store".to_string()),
        )),
    }
}

/// Every event of a transcript in `seq` order.
pub fn for_each_in_order(
    conn: &Connection,
    path: &Path,
    session_id: &str,
    mut visit: impl FnMut(EventRow<'_>) -> Result<()>,
) -> Result<()> {
    // Before schema 23 every event is plain JSON (no compressed columns).
    let sql = if crate::store::AgentSchema::of(conn)
        .at(path)?
        .compresses_events()
    {
        "SELECT seq, event_json, event_zstd, event_utf8_bytes FROM transcript_events WHERE session_id = ?1 ORDER BY seq"
    } else {
        "SELECT seq, event_json, NULL, NULL FROM transcript_events WHERE session_id = ?1 ORDER BY seq"
    };
    let mut stmt = conn.prepare_cached(sql).at(path)?;
    let mut rows = stmt.query([session_id]).at(path)?;
    while let Some(r) = rows.next().at(path)? {
        let seq = r.get(0).at(path)?;
        visit(EventRow {
            seq,
            json: event_json(r.get_ref(1).at(path)?, session_id, seq)?,
            frame: r.get_ref(2).at(path)?,
            utf8_bytes: r.get(3).at(path)?,
        })?;
    }
    Ok(())
}

/// Events with `seq >= from_seq` in order, with their `created_at`, until `visit` breaks.
pub fn for_each_from(
    conn: &Connection,
    path: &Path,
    session_id: &str,
    from_seq: i64,
    mut visit: impl FnMut(EventRow<'_>, Option<i64>) -> Result<ControlFlow<()>>,
) -> Result<()> {
    let mut stmt = conn
        .prepare_cached(
            "SELECT seq, event_json, event_zstd, event_utf8_bytes, created_at \
             FROM transcript_events WHERE session_id = ?1 AND seq >= ?2 ORDER BY seq",
        )
        .at(path)?;
    let mut rows = stmt.query(params![session_id, from_seq]).at(path)?;
    while let Some(row) = rows.next().at(path)? {
        let seq = row.get(0).at(path)?;
        let event = EventRow {
            seq,
            json: event_json(row.get_ref(1).at(path)?, session_id, seq)?,
            frame: row.get_ref(2).at(path)?,
            utf8_bytes: row.get(3).at(path)?,
        };
        let created_at: Option<i64> = row.get(4).at(path)?;
        if visit(event, created_at)?.is_break() {
            break;
        }
    }
    Ok(())
}

/// Every stored event of a transcript (any order) as `(json, frame, utf8 bytes, seq,
/// created_at)`.
/// `compressed` says whether the schema has compressed rows (23); before, every row is plain
/// JSON.
pub fn for_each_stored(
    conn: &Connection,
    path: &Path,
    session_id: &str,
    compressed: bool,
    mut visit: impl FnMut(Option<String>, Option<Vec<u8>>, Option<i64>, i64, i64) -> Result<()>,
) -> Result<()> {
    let sql = if compressed {
        "SELECT event_json, event_zstd, event_utf8_bytes, seq, created_at FROM transcript_events WHERE session_id = ?1"
    } else {
        "SELECT event_json, NULL, NULL, seq, created_at FROM transcript_events WHERE session_id = ?1"
    };
    let mut stmt = conn.prepare(sql).at(path)?;
    let mut rows = stmt.query([session_id]).at(path)?;
    while let Some(r) = rows.next().at(path)? {
        let frame: Option<Vec<u8>> = r.get(1).at(path)?;
        let seq: i64 = r.get(3).at(path)?;
        let json: Option<String> = r.get(0).at(path)?;
        let utf8_bytes: Option<i64> = r.get(2).at(path)?;
        let created_at: i64 = r.get(4).at(path)?;
        visit(json, frame, utf8_bytes, seq, created_at)?;
    }
    Ok(())
}

/// Every event's tree shape source in `seq` order: `(seq, created_at, JSON)`, where the JSON
/// of a compressed event is its `navigation_json` navigation (before schema 23 every event is
/// plain `event_json`).
pub fn for_each_navigation(
    conn: &Connection,
    schema: AgentSchema,
    session_id: &str,
    mut visit: impl FnMut(i64, i64, String),
) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached(if schema.compresses_events() {
        "SELECT seq, created_at, coalesce(event_json, json_extract(navigation_json, '$.navigation')) \
         FROM transcript_events WHERE session_id = ?1 ORDER BY seq"
    } else {
        "SELECT seq, created_at, event_json FROM transcript_events WHERE session_id = ?1 ORDER BY seq"
    })?;
    let mut q = stmt.query([session_id])?;
    while let Some(r) = q.next()? {
        visit(r.get(0)?, r.get(1)?, r.get(2)?);
    }
    Ok(())
}

/// Append a plain JSON event in a schema before 23 (no `event_zstd`, `event_utf8_bytes`,
/// `navigation_json`).
pub fn insert_plain_json_only(
    conn: &Connection,
    session_id: &str,
    seq: i64,
    json: &str,
    created_at: i64,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO transcript_events (session_id, seq, event_json, created_at) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![session_id, seq, json, created_at])
}

/// Append a plain JSON event.
pub fn insert_plain(
    conn: &Connection,
    session_id: &str,
    seq: i64,
    json: &str,
    created_at: i64,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO transcript_events (session_id, seq, event_json, event_zstd, event_utf8_bytes, navigation_json, created_at) \
         VALUES (?1, ?2, ?3, NULL, ?4, NULL, ?5)",
    )?
    .execute(params![session_id, seq, json, json.len() as i64, created_at])
}

/// Append a compressed event: its zstd `frame`, the length of its JSON, its navigation.
pub fn insert_compressed(
    conn: &Connection,
    session_id: &str,
    seq: i64,
    frame: &[u8],
    utf8_bytes: i64,
    navigation: &str,
    created_at: i64,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO transcript_events (session_id, seq, event_json, event_zstd, event_utf8_bytes, navigation_json, created_at) \
         VALUES (?1, ?2, NULL, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![session_id, seq, frame, utf8_bytes, navigation, created_at])
}

/// The transcript's rewrite generation.
pub fn watermark_generation(
    conn: &Connection,
    session_id: &str,
) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached(
        "SELECT generation FROM transcript_rewrite_watermarks WHERE session_id = ?1",
    )?
    .query_row([session_id], |r| r.get(0))
    .optional()
}

/// Give the transcript a new rewrite generation.
pub fn set_watermark_generation(
    conn: &Connection,
    session_id: &str,
    generation: &str,
    updated_at: i64,
) -> rusqlite::Result<usize> {
    conn.prepare_cached("UPDATE transcript_rewrite_watermarks SET generation = ?2, updated_at = ?3 WHERE session_id = ?1")?.execute(params![session_id, generation, updated_at])
}

/// Record the transcript's generation unless it has one.
pub fn insert_watermark_if_absent(
    conn: &Connection,
    session_id: &str,
    generation: &str,
    updated_at: i64,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO transcript_rewrite_watermarks (session_id, generation, updated_at) VALUES (?1, ?2, ?3) \
         ON CONFLICT(session_id) DO NOTHING",
    )?
    .execute(params![session_id, generation, updated_at])
}

/// Every event id of a transcript.
pub fn for_each_event_id(
    conn: &Connection,
    path: &Path,
    session_id: &str,
    mut visit: impl FnMut(&str),
) -> Result<()> {
    let mut stmt = conn
        .prepare("SELECT event_id FROM transcript_event_identities WHERE session_id = ?1")
        .at(path)?;
    let mut rows = stmt.query([session_id]).at(path)?;
    while let Some(r) = rows.next().at(path)? {
        visit(&r.get::<_, String>(0).at(path)?);
    }
    Ok(())
}

/// Whether an event of the transcript already carries this message idempotency key.
pub fn idempotency_key_taken(
    conn: &Connection,
    session_id: &str,
    key: &str,
) -> rusqlite::Result<bool> {
    Ok(conn
        .prepare_cached(
            "SELECT 1 FROM transcript_event_identities WHERE session_id = ?1 AND message_idempotency_key = ?2",
        )?
        .query_row(params![session_id, key], |_| Ok(()))
        .optional()?
        .is_some())
}

/// An event identity row, unless the id is taken.
pub struct EventIdentity<'a> {
    pub session_id: &'a str,
    pub event_id: &'a str,
    pub seq: i64,
    pub event_type: Option<&'a str>,
    pub parent_id: Option<&'a str>,
    pub message_idempotency_key: Option<&'a str>,
    pub created_at: i64,
}

pub fn insert_identity(conn: &Connection, i: &EventIdentity<'_>) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO transcript_event_identities (session_id, event_id, seq, event_type, parent_id, message_idempotency_key, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT(session_id, event_id) DO NOTHING",
    )?
    .execute(params![
        i.session_id,
        i.event_id,
        i.seq,
        i.event_type,
        i.parent_id,
        i.message_idempotency_key,
        i.created_at
    ])
}

/// Doctor: the first row of every transcript, as `(session_id, seq, event_json, event_zstd,
/// event_utf8_bytes, rowid)`.
pub const FIRST_ROWS_SQL: &str = "SELECT session_id, seq, event_json, event_zstd, event_utf8_bytes, rowid FROM transcript_events e WHERE seq = (SELECT min(seq) FROM transcript_events x WHERE x.session_id = e.session_id)";

/// Doctor: `(session_id, count, max seq)` of transcripts whose `seq` does not run 0..n.
pub const SEQ_GAPS_SQL: &str = "SELECT session_id, count(*), max(seq) FROM transcript_events GROUP BY session_id HAVING count(*) != max(seq) + 1 OR min(seq) != 0";

/// Doctor: `(session_id, seq, event_zstd, event_utf8_bytes, rowid)` of every compressed event.
pub const COMPRESSED_ROWS_SQL: &str = "SELECT session_id, seq, event_zstd, event_utf8_bytes, rowid FROM transcript_events WHERE event_zstd IS NOT NULL";

/// Doctor: `(rowid, session_id, seq or NULL, session key or NULL)` of events whose window is gone
/// (the key from a surviving window, else from a node whose current id it is).
pub const ORPHANS_SQL: &str = "SELECT rowid, session_id, seq, COALESCE((SELECT w2.session_key FROM session_windows w2 WHERE w2.session_id = e.session_id), (SELECT n2.session_key FROM session_nodes n2 WHERE n2.current_session_id = e.session_id LIMIT 1)) FROM transcript_events e WHERE NOT EXISTS (SELECT 1 FROM session_windows w WHERE w.session_id = e.session_id)";

/// Doctor: `(rowid, session_id, seq or NULL, session key or NULL)` of event identities whose event is gone
/// (the key from a surviving window, else from a node whose current id it is).
pub const ORPHAN_IDENTITIES_SQL: &str = "SELECT rowid, session_id, seq, COALESCE((SELECT w2.session_key FROM session_windows w2 WHERE w2.session_id = i.session_id), (SELECT n2.session_key FROM session_nodes n2 WHERE n2.current_session_id = i.session_id LIMIT 1)) FROM transcript_event_identities i WHERE NOT EXISTS (SELECT 1 FROM transcript_events e WHERE e.session_id = i.session_id AND e.seq = i.seq)";

/// Doctor: `(rowid, session_id, seq or NULL, session key or NULL)` of rewrite watermarks whose window is gone
/// (the key from a surviving window, else from a node whose current id it is).
pub const ORPHAN_WATERMARKS_SQL: &str = "SELECT rowid, session_id, NULL, COALESCE((SELECT w2.session_key FROM session_windows w2 WHERE w2.session_id = m.session_id), (SELECT n2.session_key FROM session_nodes n2 WHERE n2.current_session_id = m.session_id LIMIT 1)) FROM transcript_rewrite_watermarks m WHERE NOT EXISTS (SELECT 1 FROM session_windows w WHERE w.session_id = m.session_id)";

/// Doctor: the seq ranges `(first, last)` missing from a transcript that should run `0..n`.
pub fn missing_seq_ranges(
    conn: &Connection,
    session_id: &str,
) -> rusqlite::Result<Vec<(i64, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT -1, min(seq) FROM transcript_events WHERE session_id = ?1 \
         UNION ALL SELECT seq, next FROM (SELECT seq, lead(seq) OVER (ORDER BY seq) AS next \
         FROM transcript_events WHERE session_id = ?1) WHERE next > seq + 1",
    )?;
    let rows = stmt.query_map([session_id], |r| {
        Ok((r.get::<_, i64>(0)?, r.get::<_, Option<i64>>(1)?))
    })?;
    let mut out = Vec::new();
    for row in rows {
        if let (before, Some(next)) = row? {
            if next > before + 1 {
                out.push((before + 1, next - 1));
            }
        }
    }
    Ok(out)
}

/// Doctor's repair: every row of a transcript whose window is gone (events, their identities
/// and rewrite watermark; the projections go with `event_index::delete_for_session`).
pub fn delete_orphan_transcript(conn: &Connection, session_id: &str) -> rusqlite::Result<()> {
    for sql in [
        "DELETE FROM transcript_event_identities WHERE session_id = ?1",
        "DELETE FROM transcript_rewrite_watermarks WHERE session_id = ?1",
        "DELETE FROM transcript_events WHERE session_id = ?1",
    ] {
        conn.prepare_cached(sql)?.execute([session_id])?;
    }
    Ok(())
}

/// Doctor: the key a transcript belongs to: its window's, else a node's whose current id it is.
pub fn key_of_session(conn: &Connection, session_id: &str) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached(
        "SELECT COALESCE((SELECT session_key FROM session_windows WHERE session_id = ?1), \
         (SELECT session_key FROM session_nodes WHERE current_session_id = ?1 LIMIT 1))",
    )?
    .query_row([session_id], |r| r.get(0))
}

/// Replace one event's stored payload in place, keeping its key, clock and every row keyed
/// by it: `Plain` as OpenClaw stores a plain event (JSON, its UTF-8 length, no frame or
/// navigation), else a zstd `frame` with the length of its JSON and its navigation. Before
/// schema 23 only `event_json` exists. Returns the rows changed (1, or 0 when it is gone).
pub fn replace_payload(
    conn: &Connection,
    schema: AgentSchema,
    session_id: &str,
    seq: i64,
    json: &str,
    compressed: Option<(&[u8], &str)>,
) -> rusqlite::Result<usize> {
    if !schema.compresses_events() {
        return conn
            .prepare_cached(
                "UPDATE transcript_events SET event_json = ?3 WHERE session_id = ?1 AND seq = ?2",
            )?
            .execute(params![session_id, seq, json]);
    }
    match compressed {
        None => conn
            .prepare_cached(
                "UPDATE transcript_events SET event_json = ?3, event_zstd = NULL, \
                 event_utf8_bytes = ?4, navigation_json = NULL WHERE session_id = ?1 AND seq = ?2",
            )?
            .execute(params![session_id, seq, json, json.len() as i64]),
        Some((frame, navigation)) => conn
            .prepare_cached(
                "UPDATE transcript_events SET event_json = NULL, event_zstd = ?3, \
                 event_utf8_bytes = ?4, navigation_json = ?5 WHERE session_id = ?1 AND seq = ?2",
            )?
            .execute(params![
                session_id,
                seq,
                frame,
                json.len() as i64,
                navigation
            ]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grouped pass gives each transcript the number `count` gives it, and can stop.
    #[test]
    fn grouped_counts_equal_the_single_counts() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL,
               PRIMARY KEY (session_id, seq));
             INSERT INTO transcript_events VALUES ('a', 0), ('a', 1), ('a', 5), ('B', 0),
               ('b', 0), ('b', 1), ('c', 7);",
        )
        .unwrap();
        let mut seen = Vec::new();
        let done = counts(&conn, |id, n| {
            seen.push((id.to_string(), n));
            ControlFlow::Continue(())
        })
        .unwrap();
        assert!(done);
        let single: Vec<_> = ["B", "a", "b", "c"]
            .iter()
            .map(|id| (id.to_string(), count(&conn, id).unwrap()))
            .collect();
        assert_eq!(seen, single);
        assert_eq!(single[1].1, 3);
        let mut calls = 0;
        let done = counts(&conn, |_, _| {
            calls += 1;
            ControlFlow::Break(())
        })
        .unwrap();
        assert!(!done);
        assert_eq!(calls, 1);
    }
}
