//! The projections OpenClaw keeps beside the events: `session_transcript_index_state`,
//! `session_transcript_active_events` (the active branch) and the search index
//! `session_transcript_fts` with its `session_transcript_fts_rows`.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension};

/// `(indexed_seq, leaf_event_id, active_event_count, active_message_count, needs_rebuild)`.
pub type IndexState = (i64, Option<String>, i64, i64, i64);

pub fn state(conn: &Connection, session_id: &str) -> rusqlite::Result<Option<IndexState>> {
    conn.prepare_cached(
        "SELECT indexed_seq, leaf_event_id, active_event_count, active_message_count, needs_rebuild \
         FROM session_transcript_index_state WHERE session_id = ?1",
    )?
    .query_row([session_id], |r| {
        Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
    })
    .optional()
}

/// `(indexed_seq, needs_rebuild)` of a transcript.
pub fn freshness(conn: &Connection, session_id: &str) -> rusqlite::Result<Option<(i64, i64)>> {
    conn.prepare_cached("SELECT indexed_seq, needs_rebuild FROM session_transcript_index_state WHERE session_id = ?1")?.query_row([session_id],|r| Ok((r.get(0)?, r.get(1)?)))
    .optional()
}

/// Write the index state of a transcript, clearing `needs_rebuild`.
pub fn write_state(
    conn: &Connection,
    session_id: &str,
    indexed_seq: i64,
    leaf: Option<&str>,
    active: i64,
    messages: i64,
    updated_at: i64,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO session_transcript_index_state (session_id, active_event_count, active_message_count, indexed_seq, \
            leaf_event_id, needs_rebuild, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, 0, ?6) \
         ON CONFLICT(session_id) DO UPDATE SET active_event_count = excluded.active_event_count, \
            active_message_count = excluded.active_message_count, indexed_seq = excluded.indexed_seq, \
            leaf_event_id = excluded.leaf_event_id, needs_rebuild = 0, updated_at = excluded.updated_at",
    )?
    .execute(params![session_id, active, messages, indexed_seq, leaf, updated_at])
}

/// Mark every transcript's projection for a rebuild.
pub fn mark_all_for_rebuild(conn: &Connection) -> rusqlite::Result<usize> {
    conn.prepare_cached("UPDATE session_transcript_index_state SET needs_rebuild = 1")?
        .execute([])
}

/// A message's `session_transcript_fts_rows` row; its id is the rowid of the message's FTS
/// row ([`insert_search_text`]).
pub fn insert_search_key(
    conn: &Connection,
    session_id: &str,
    message_id: &str,
) -> rusqlite::Result<i64> {
    conn.prepare_cached(
        "INSERT INTO session_transcript_fts_rows (session_id, message_id) VALUES (?1, ?2)",
    )?
    .execute(params![session_id, message_id])?;
    Ok(conn.last_insert_rowid())
}

/// A message's FTS row, under the id of its `session_transcript_fts_rows` row.
pub fn insert_search_text(
    conn: &Connection,
    rowid: i64,
    session_id: &str,
    message_id: &str,
    text: &str,
    role: &str,
    timestamp: f64,
) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO session_transcript_fts (rowid, text, session_id, message_id, role, timestamp) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![rowid, text, session_id, message_id, role, timestamp])?;
    Ok(())
}

/// A message's FTS row in a schema without `session_transcript_fts_rows` (before 23): the
/// FTS table numbers it, as the older releases insert it.
pub fn insert_unkeyed_search_text(
    conn: &Connection,
    session_id: &str,
    message_id: &str,
    text: &str,
    role: &str,
    timestamp: f64,
) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "INSERT INTO session_transcript_fts (text, session_id, message_id, role, timestamp) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![text, session_id, message_id, role, timestamp])?;
    Ok(())
}

/// A session's search entries in a schema without `session_transcript_fts_rows` (before 23),
/// as the older releases delete them (`DELETE FROM session_transcript_fts WHERE session_id = ?`),
/// found in the FTS table's own content table (`_content`: `id` its rowid, `c1` its
/// `session_id`) instead of through the FTS table, whose `session_id` is UNINDEXED: a scan of
/// plain rows, not of the index (benchmarked in BENCHMARKS.md). The same rows go in the same
/// order (rowid ascending), so the FTS5 shadow tables end byte-identical to the release's
/// (`release_entry_writes_19`, `release_prune_19*`).
const UNKEYED_SEARCH_ROWS_DELETE: &str = "DELETE FROM session_transcript_fts \
     WHERE rowid IN (SELECT id FROM session_transcript_fts_content WHERE c1 = ?1)";

/// The search rows of `session_ids` in a schema without `session_transcript_fts_rows`
/// (before 23), found in one pass of the FTS table's content table, each id's rowids in
/// ascending order: a batch of deletions then costs one scan, not one a transcript
/// (BENCHMARKS.md, 2026-12-06).
pub fn unkeyed_search_rows(
    conn: &Connection,
    session_ids: &[&str],
) -> rusqlite::Result<HashMap<String, Vec<i64>>> {
    let mut found: HashMap<String, Vec<i64>> = HashMap::new();
    if session_ids.is_empty() {
        return Ok(found);
    }
    let ids = serde_json::to_string(session_ids).expect("strings serialize");
    let mut stmt = conn.prepare_cached(
        "SELECT c1, id FROM session_transcript_fts_content \
         WHERE c1 IN (SELECT value FROM json_each(?1)) ORDER BY id",
    )?;
    let mut rows = stmt.query([ids])?;
    while let Some(row) = rows.next()? {
        found.entry(row.get(0)?).or_default().push(row.get(1)?);
    }
    Ok(found)
}

/// [`UNKEYED_SEARCH_ROWS_DELETE`] given the rows [`unkeyed_search_rows`] found (`?1`, a JSON
/// array), each checked again to be still the session's (`?2`): one statement, the same rows
/// in the same order, so the shadow tables end as they would.
const FOUND_SEARCH_ROWS_DELETE: &str = "DELETE FROM session_transcript_fts \
     WHERE rowid IN (SELECT id FROM session_transcript_fts_content \
                     WHERE id IN (SELECT value FROM json_each(?1)) AND c1 = ?2)";

/// [`clear_for_rebuild`] in a schema without `session_transcript_fts_rows` (before 23): the
/// FTS rows go by session id, as the older releases delete them.
pub fn clear_unkeyed_for_rebuild(conn: &Connection, session_id: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(UNKEYED_SEARCH_ROWS_DELETE)?
        .execute([session_id])?;
    conn.prepare_cached("DELETE FROM session_transcript_active_events WHERE session_id = ?1")?
        .execute([session_id])?;
    Ok(())
}

/// One event of the active branch.
pub fn insert_active(
    conn: &Connection,
    session_id: &str,
    active_position: i64,
    seq: i64,
    message_position: Option<i64>,
    context_eligible: i64,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO session_transcript_active_events (session_id, active_position, event_seq, message_position, context_eligible) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![session_id, active_position, seq, message_position, context_eligible])
}

/// Drop a transcript's search and active-branch rows before they are rebuilt.
pub fn clear_for_rebuild(conn: &Connection, session_id: &str) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "DELETE FROM session_transcript_fts_rows WHERE id IN (SELECT id FROM session_transcript_fts_rows WHERE session_id = ?1)",
    )?
    .execute([session_id])?;
    conn.prepare_cached("DELETE FROM session_transcript_active_events WHERE session_id = ?1")?
        .execute([session_id])?;
    Ok(())
}

/// Drop every projection row of a transcript (with its index state), in OpenClaw's order
/// (`deleteSessionTranscriptIndexInTransaction`): its search entries first, through
/// `session_transcript_fts_rows` whose trigger removes them where the schema keeps those rows
/// (23 on), else straight from the FTS table as 2026.8.2 and 2026.9.5 do (`deleteFtsRows`).
pub fn delete_for_session(
    conn: &Connection,
    session_id: &str,
    search_rows: bool,
) -> rusqlite::Result<()> {
    delete_for_session_found(conn, session_id, search_rows, None)
}

/// [`delete_for_session`], before 23 with the session's search rows as
/// [`unkeyed_search_rows`] found them for its batch, when given (none found: `&[]`).
pub fn delete_for_session_found(
    conn: &Connection,
    session_id: &str,
    search_rows: bool,
    found: Option<&[i64]>,
) -> rusqlite::Result<()> {
    match (search_rows, found) {
        (true, _) => {
            conn.prepare_cached("DELETE FROM session_transcript_fts_rows WHERE session_id = ?1")?
                .execute([session_id])?;
        }
        (false, Some(ids)) => {
            let ids = serde_json::to_string(ids).expect("numbers serialize");
            conn.prepare_cached(FOUND_SEARCH_ROWS_DELETE)?
                .execute(params![ids, session_id])?;
        }
        (false, None) => {
            conn.prepare_cached(UNKEYED_SEARCH_ROWS_DELETE)?
                .execute([session_id])?;
        }
    }
    for sql in [
        "DELETE FROM session_transcript_active_events WHERE session_id = ?1",
        "DELETE FROM session_transcript_index_state WHERE session_id = ?1",
    ] {
        conn.prepare_cached(sql)?.execute([session_id])?;
    }
    Ok(())
}

/// Whether an active row still waits for its context eligibility.
pub fn context_pending(conn: &Connection, session_id: &str) -> rusqlite::Result<bool> {
    conn.prepare_cached("SELECT EXISTS(SELECT 1 FROM session_transcript_active_events WHERE session_id = ?1 AND context_eligible IS NULL)")?.query_row([session_id],|r| r.get(0))
}

/// The active branch in order, as `(event_seq, event_id, message_position)`.
pub fn active_branch<T>(
    conn: &Connection,
    session_id: &str,
    mut row: impl FnMut(i64, Option<String>, Option<i64>) -> T,
) -> rusqlite::Result<Vec<T>> {
    let mut stmt = conn.prepare_cached(
        "SELECT a.event_seq, i.event_id, a.message_position FROM session_transcript_active_events a \
         LEFT JOIN transcript_event_identities i ON i.session_id = a.session_id AND i.seq = a.event_seq \
         WHERE a.session_id = ?1 ORDER BY a.active_position",
    )?;
    let rows = stmt.query_map([session_id], |r| Ok(row(r.get(0)?, r.get(1)?, r.get(2)?)))?;
    rows.collect()
}

/// How many active-branch events carry a message, and their highest `message_position`
/// (`-1` for none): one walk of the message index, no event read.
pub fn message_count(conn: &Connection, session_id: &str) -> rusqlite::Result<(i64, i64)> {
    conn.prepare_cached(
        "SELECT count(*), coalesce(max(message_position), -1) FROM session_transcript_active_events \
         WHERE session_id = ?1 AND message_position IS NOT NULL",
    )?
    .query_row([session_id], |r| Ok((r.get(0)?, r.get(1)?)))
}

/// `(message_position, event_seq)` of the active-branch messages at positions
/// `from..until`, in position order.
pub fn message_seqs(
    conn: &Connection,
    session_id: &str,
    from: i64,
    until: i64,
) -> rusqlite::Result<Vec<(i64, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT message_position, event_seq FROM session_transcript_active_events \
         WHERE session_id = ?1 AND message_position IS NOT NULL AND message_position >= ?2 \
         AND message_position < ?3 ORDER BY message_position",
    )?;
    let rows = stmt.query_map(params![session_id, from, until], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })?;
    rows.collect()
}

/// Doctor: `(rowid, session_id, seq or NULL, session key or NULL)` of active-branch rows whose event is gone
/// (the key from a surviving window, else from a node whose current id it is).
pub const ORPHAN_ACTIVE_EVENTS_SQL: &str = "SELECT rowid, session_id, event_seq, COALESCE((SELECT w2.session_key FROM session_windows w2 WHERE w2.session_id = a.session_id), (SELECT n2.session_key FROM session_nodes n2 WHERE n2.current_session_id = a.session_id LIMIT 1)) FROM session_transcript_active_events a WHERE NOT EXISTS (SELECT 1 FROM transcript_events e WHERE e.session_id = a.session_id AND e.seq = a.event_seq)";

/// Doctor: `(rowid, session_id, seq or NULL, session key or NULL)` of index states whose window is gone
/// (the key from a surviving window, else from a node whose current id it is).
pub const ORPHAN_STATES_SQL: &str = "SELECT rowid, session_id, NULL, COALESCE((SELECT w2.session_key FROM session_windows w2 WHERE w2.session_id = s.session_id), (SELECT n2.session_key FROM session_nodes n2 WHERE n2.current_session_id = s.session_id LIMIT 1)) FROM session_transcript_index_state s WHERE NOT EXISTS (SELECT 1 FROM session_windows w WHERE w.session_id = s.session_id)";

/// Doctor: `(rowid, session_id, seq or NULL, session key or NULL)` of search rows whose window is gone
/// (the key from a surviving window, else from a node whose current id it is).
pub const ORPHAN_SEARCH_ROWS_SQL: &str = "SELECT rowid, session_id, NULL, COALESCE((SELECT w2.session_key FROM session_windows w2 WHERE w2.session_id = f.session_id), (SELECT n2.session_key FROM session_nodes n2 WHERE n2.current_session_id = f.session_id LIMIT 1)) FROM session_transcript_fts_rows f WHERE NOT EXISTS (SELECT 1 FROM session_windows w WHERE w.session_id = f.session_id)";

#[cfg(test)]
mod tests {
    use super::*;

    /// A pre-23 search index (2026.8.2's shape) with the messages of four sessions
    /// interleaved.
    fn pre23_index() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE VIRTUAL TABLE session_transcript_fts USING fts5(text, \
             session_id UNINDEXED, message_id UNINDEXED, role UNINDEXED, timestamp UNINDEXED, \
             tokenize = 'unicode61 remove_diacritics 2'); \
             CREATE TABLE session_transcript_active_events (session_id TEXT); \
             CREATE TABLE session_transcript_index_state (session_id TEXT);",
        )
        .unwrap();
        for i in 0..400 {
            let session = format!("s{}", i % 4);
            insert_unkeyed_search_text(
                &conn,
                &session,
                &format!("m{i}"),
                &format!("message {i} of {session}: words {} and more", i * 7),
                "user",
                f64::from(i),
            )
            .unwrap();
        }
        conn
    }

    fn shadow_tables(conn: &Connection) -> Vec<Vec<u8>> {
        [
            "SELECT id, block FROM session_transcript_fts_data ORDER BY id",
            "SELECT segid, term, pgno FROM session_transcript_fts_idx ORDER BY segid, term",
            "SELECT id, c0, c1, c2 FROM session_transcript_fts_content ORDER BY id",
            "SELECT id, sz FROM session_transcript_fts_docsize ORDER BY id",
        ]
        .iter()
        .map(|sql| {
            let mut out = Vec::new();
            let mut stmt = conn.prepare(sql).unwrap();
            let n = stmt.column_count();
            let mut rows = stmt.query([]).unwrap();
            while let Some(r) = rows.next().unwrap() {
                for i in 0..n {
                    let v: rusqlite::types::Value = r.get(i).unwrap();
                    out.extend(format!("{v:?}|").into_bytes());
                }
                out.push(b'\n');
            }
            out
        })
        .collect()
    }

    /// The rows of a batch found in one pass and deleted by what was found leave the FTS5
    /// shadow tables byte for byte as deleting each session by its id does (the releases'
    /// own way), the rows of the sessions kept untouched.
    #[test]
    fn found_search_rows_delete_as_the_scan_per_session_does() {
        let by_scan = pre23_index();
        let by_found = pre23_index();
        let batch = ["s2", "s0", "nothing-indexed"];
        let tx = by_scan.unchecked_transaction().unwrap();
        for s in batch {
            delete_for_session(&tx, s, false).unwrap();
        }
        tx.commit().unwrap();
        let tx = by_found.unchecked_transaction().unwrap();
        let found = unkeyed_search_rows(&tx, &batch).unwrap();
        assert_eq!(found["s2"].len(), 100);
        assert!(found["s0"].windows(2).all(|w| w[0] < w[1]));
        assert!(!found.contains_key("nothing-indexed"));
        for s in batch {
            let ids = found.get(s).map_or(&[][..], Vec::as_slice);
            delete_for_session_found(&tx, s, false, Some(ids)).unwrap();
        }
        tx.commit().unwrap();
        let left: i64 = by_found
            .query_row(
                "SELECT count(*) FROM session_transcript_fts WHERE session_id IN ('s1', 's3')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(left, 200);
        let total: i64 = by_found
            .query_row("SELECT count(*) FROM session_transcript_fts", [], |r| {
                r.get(0)
            })
            .unwrap();
        assert_eq!(total, 200);
        assert!(shadow_tables(&by_scan) == shadow_tables(&by_found));
    }
}
