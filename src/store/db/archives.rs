//! `session_transcript_archives` (deleted transcripts kept as zstd blobs, published as
//! files after commit) and `session_transcript_cold_archives` (transcripts moved to cold
//! storage).

use rusqlite::{params, Connection, OptionalExtension};

/// Whether a transcript is in cold storage.
pub fn is_cold(conn: &Connection, session_id: &str) -> rusqlite::Result<bool> {
    Ok(conn
        .prepare_cached("SELECT 1 FROM session_transcript_cold_archives WHERE session_id = ?1")?
        .query_row([session_id], |_| Ok(true))
        .optional()?
        .unwrap_or(false))
}

/// The name of a transcript's cold archive.
pub fn cold_archive_name(conn: &Connection, session_id: &str) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached(
        "SELECT archive_name FROM session_transcript_cold_archives WHERE session_id = ?1",
    )?
    .query_row([session_id], |r| r.get(0))
    .optional()
}

/// The cold archive of a transcript: `(archive_name, event_count)`.
pub fn cold_archive(
    conn: &Connection,
    session_id: &str,
) -> rusqlite::Result<Option<(String, i64)>> {
    conn.prepare_cached("SELECT archive_name, event_count FROM session_transcript_cold_archives WHERE session_id = ?1")?.query_row([session_id],|r| Ok((r.get(0)?, r.get(1)?)))
    .optional()
}

/// Cold archives kept in files: `(session_id, archive_name, archive_sha256, archive_bytes)`.
pub fn cold_files(conn: &Connection) -> rusqlite::Result<Vec<(String, String, String, i64)>> {
    let mut stmt = conn.prepare_cached("SELECT session_id, archive_name, archive_sha256, archive_bytes FROM session_transcript_cold_archives WHERE storage = 'file' ORDER BY session_id")?;
    let r = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
    r.collect()
}

/// Keep a cold archive's bytes in the database instead of its file.
pub fn embed_cold(conn: &Connection, session_id: &str, bytes: &[u8]) -> rusqlite::Result<usize> {
    conn.prepare_cached("UPDATE session_transcript_cold_archives SET storage = 'sqlite', archive_blob = ?2 WHERE session_id = ?1")?.execute(params![session_id, bytes])
}

/// The sha256 of a generation's archive, when it has one.
pub fn sha256_of(
    conn: &Connection,
    session_id: &str,
    generation: &str,
) -> rusqlite::Result<Option<String>> {
    conn.prepare_cached("SELECT archive_sha256 FROM session_transcript_archives WHERE session_id = ?1 AND generation = ?2")?.query_row([session_id, generation],|r| r.get(0))
    .optional()
}

/// A deleted generation's archive, not yet published.
pub struct NewArchive<'a> {
    pub session_id: &'a str,
    pub generation: &'a str,
    pub session_key: &'a str,
    pub blob: &'a [u8],
    pub sha256: &'a str,
    pub name: &'a str,
    pub created_at: i64,
}

pub fn insert_deleted(conn: &Connection, a: &NewArchive<'_>) -> rusqlite::Result<usize> {
    conn.prepare_cached("INSERT INTO session_transcript_archives (session_id, generation, session_key, reason, encoding, archive_blob, \
            archive_sha256, archive_name, created_at, published_at, publish_attempts) \
         VALUES (?1, ?2, ?3, 'deleted', 'zstd', ?4, ?5, ?6, ?7, NULL, 0)")?.execute(params![a.session_id, a.generation, a.session_key, a.blob, a.sha256, a.name, a.created_at])
}

/// Whether an archive row has this name.
pub fn exists_named(conn: &Connection, archive_name: &str) -> rusqlite::Result<bool> {
    conn.prepare_cached("SELECT 1 FROM session_transcript_archives WHERE archive_name = ?1")?
        .exists([archive_name])
}

pub fn delete_named(conn: &Connection, archive_name: &str) -> rusqlite::Result<usize> {
    conn.prepare_cached("DELETE FROM session_transcript_archives WHERE archive_name = ?1")?
        .execute([archive_name])
}

/// Archives waiting for their file, oldest first: `(session_id, generation, archive_name,
/// archive_blob, archive_sha256)`.
pub type PendingArchive = (String, String, String, Vec<u8>, String);

/// Each archive waiting for its file, oldest first, one row (and blob) at a time.
pub fn for_each_pending(
    conn: &Connection,
    mut f: impl FnMut(PendingArchive),
) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached(
        "SELECT session_id, generation, archive_name, archive_blob, archive_sha256 FROM session_transcript_archives \
         WHERE published_at IS NULL ORDER BY created_at, session_id, generation",
    )?;
    let mut rows = stmt.query([])?;
    while let Some(r) = rows.next()? {
        f((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?));
    }
    Ok(())
}

pub fn mark_published(
    conn: &Connection,
    session_id: &str,
    generation: &str,
    now: i64,
) -> rusqlite::Result<usize> {
    conn.prepare_cached("UPDATE session_transcript_archives SET published_at = ?3, publish_attempts = publish_attempts + 1, \
            last_publish_attempt_at = ?3, last_publish_error = NULL WHERE session_id = ?1 AND generation = ?2")?.execute(params![session_id, generation, now])
}

pub fn mark_publish_failed(
    conn: &Connection,
    session_id: &str,
    generation: &str,
    now: i64,
    error: &str,
) -> rusqlite::Result<usize> {
    conn.prepare_cached("UPDATE session_transcript_archives SET publish_attempts = publish_attempts + 1, \
            last_publish_attempt_at = ?3, last_publish_error = ?4 WHERE session_id = ?1 AND generation = ?2")?.execute(params![session_id, generation, now, error])
}

/// Names of the archives recorded as published.
pub fn published_names(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT archive_name FROM session_transcript_archives WHERE published_at IS NOT NULL",
    )?;
    let v = stmt.query_map([], |r| r.get::<_, String>(0))?.collect();
    v
}

/// Publish an archive again.
pub fn mark_unpublished(conn: &Connection, archive_name: &str) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "UPDATE session_transcript_archives SET published_at = NULL WHERE archive_name = ?1",
    )?
    .execute([archive_name])
}

/// An archive row as `show` lists it (the blob as its length).
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedArchive {
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
}

/// The columns [`listed_archive`] reads, in its order.
const LISTED_SELECT: &str = "SELECT session_id, generation, session_key, reason, encoding, archive_name, \
     archive_sha256, length(archive_blob), created_at, published_at FROM session_transcript_archives";

fn listed_archive(r: &rusqlite::Row<'_>) -> rusqlite::Result<ListedArchive> {
    Ok(ListedArchive {
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
    })
}

/// The archives recorded for a key, newest first.
pub fn of_key(conn: &Connection, key: &str) -> rusqlite::Result<Vec<ListedArchive>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{LISTED_SELECT} WHERE session_key = ?1 ORDER BY created_at DESC"
    ))?;
    let rows = stmt.query_map([key], listed_archive)?;
    rows.collect()
}

pub const COUNT_SQL: &str = "SELECT count(*) FROM session_transcript_archives";
pub const COUNT_COLD_SQL: &str = "SELECT count(*) FROM session_transcript_cold_archives";

/// Doctor: `(archive_name, published_at, rowid, session_id, session_key)` of every archive.
pub const NAMES_SQL: &str = "SELECT archive_name, published_at, rowid, session_id, session_key FROM session_transcript_archives";

/// The name of every archive row of a database.
pub fn names(conn: &Connection) -> rusqlite::Result<std::collections::HashSet<String>> {
    let mut stmt = conn.prepare("SELECT archive_name FROM session_transcript_archives")?;
    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
    rows.collect()
}

/// Every archive row of a database, oldest first.
pub fn all(conn: &Connection) -> rusqlite::Result<Vec<ListedArchive>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{LISTED_SELECT} ORDER BY created_at, session_id, generation"
    ))?;
    let rows = stmt.query_map([], listed_archive)?;
    rows.collect()
}

/// A cold archive row (`session_transcript_cold_archives`), the blob as its storage.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedColdArchive {
    pub session_id: String,
    pub generation: String,
    pub archive_name: String,
    pub archive_sha256: String,
    pub event_count: i64,
    pub raw_bytes: i64,
    pub archive_bytes: i64,
    pub last_seq: i64,
    pub archived_at: i64,
    pub storage: String,
}

pub fn cold_all(conn: &Connection) -> rusqlite::Result<Vec<ListedColdArchive>> {
    let mut stmt = conn.prepare_cached(
        "SELECT session_id, generation, archive_name, archive_sha256, event_count, raw_bytes, archive_bytes, \
                last_seq, archived_at, storage \
         FROM session_transcript_cold_archives ORDER BY archived_at, session_id",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(ListedColdArchive {
            session_id: r.get(0)?,
            generation: r.get(1)?,
            archive_name: r.get(2)?,
            archive_sha256: r.get(3)?,
            event_count: r.get(4)?,
            raw_bytes: r.get(5)?,
            archive_bytes: r.get(6)?,
            last_seq: r.get(7)?,
            archived_at: r.get(8)?,
            storage: r.get(9)?,
        })
    })?;
    rows.collect()
}

/// A streaming reader over an archive row's blob (bounded memory, read-only).
pub fn blob_reader<'c>(
    conn: &'c Connection,
    session_id: &str,
    generation: &str,
) -> rusqlite::Result<Option<rusqlite::blob::Blob<'c>>> {
    let rowid: Option<i64> = conn
        .query_row(
            "SELECT rowid FROM session_transcript_archives WHERE session_id = ?1 AND generation = ?2",
            [session_id, generation],
            |r| r.get(0),
        )
        .optional()?;
    rowid
        .map(|id| open_archive_blob(conn, "session_transcript_archives", id))
        .transpose()
}

/// A streaming reader over a cold archive kept in the database (`storage = 'sqlite'`).
pub fn cold_blob_reader<'c>(
    conn: &'c Connection,
    session_id: &str,
) -> rusqlite::Result<Option<rusqlite::blob::Blob<'c>>> {
    let rowid: Option<i64> = conn
        .query_row(
            "SELECT rowid FROM session_transcript_cold_archives WHERE session_id = ?1 AND storage = 'sqlite'",
            [session_id],
            |r| r.get(0),
        )
        .optional()?;
    rowid
        .map(|id| open_archive_blob(conn, "session_transcript_cold_archives", id))
        .transpose()
}

/// A published archive as the disk budget removes them, oldest first:
/// `(archive_name, session_id, generation, blob bytes)` (docs/openclaw/MAINTENANCE.md §3.3 4a).
pub type PublishedArchive = (String, String, String, i64);

/// The published archives in the order OpenClaw's disk budget removes them: `created_at`,
/// then `session_id`, then `generation`.
pub fn published_in_budget_order(conn: &Connection) -> rusqlite::Result<Vec<PublishedArchive>> {
    let mut stmt = conn.prepare_cached(
        "SELECT archive_name, session_id, generation, coalesce(length(archive_blob), 0) \
         FROM session_transcript_archives \
         WHERE published_at IS NOT NULL ORDER BY created_at, session_id, generation",
    )?;
    let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
    rows.collect()
}

/// Names of the archives not yet published (the disk budget leaves their files alone).
pub fn unpublished_names(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare_cached(
        "SELECT archive_name FROM session_transcript_archives WHERE published_at IS NULL",
    )?;
    let v = stmt.query_map([], |r| r.get::<_, String>(0))?.collect();
    v
}

/// The archive rows of one session written at one instant (by one run): `(archive_name,
/// generation)`, in generation order.
pub fn of_session_created_at(
    conn: &Connection,
    session_id: &str,
    created_at: i64,
) -> rusqlite::Result<Vec<(String, String)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT archive_name, generation FROM session_transcript_archives \
         WHERE session_id = ?1 AND created_at = ?2 ORDER BY generation",
    )?;
    let rows = stmt.query_map(params![session_id, created_at], |r| {
        Ok((r.get(0)?, r.get(1)?))
    })?;
    rows.collect()
}

/// The `archive_blob` of a row of `table`, opened read-only for streaming.
fn open_archive_blob<'c>(
    conn: &'c Connection,
    table: &str,
    rowid: i64,
) -> rusqlite::Result<rusqlite::blob::Blob<'c>> {
    conn.blob_open(
        rusqlite::DatabaseName::Main,
        table,
        "archive_blob",
        rowid,
        true,
    )
}
