use std::ops::ControlFlow;
use std::path::PathBuf;

use super::{decode_event_row, StoredEvent};
use crate::error::{Error, Result, ResultExt};
use crate::legacy::{archive_cap, JsonlReader, MAX_ARCHIVE_BYTES, MAX_COLD_ARCHIVE_BYTES};
use crate::store::db::{archives, events};
use crate::store::AgentStore;

/// Where one transcript generation lives.
#[derive(Debug, Clone)]
pub enum TranscriptSource {
    /// `transcript_events` rows of a session id.
    Sqlite { db: PathBuf, session_id: String },
    /// A legacy `<sessionId>.jsonl` file; `seq` is the line's index among non-empty lines.
    Jsonl { path: PathBuf, session_id: String },
    /// An archived transcript (deleted, reset, imported or cold); `seq` as for `Jsonl`.
    Archive {
        session_id: String,
        body: ArchiveBody,
        encoding: ArchiveEncoding,
    },
}

/// Where an archived transcript's bytes are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArchiveBody {
    /// A file (`sessions/`, `sessions/cold/`, `session-sqlite-import-archive/`).
    File(PathBuf),
    /// The blob of a `session_transcript_archives` row of the store's database.
    Row {
        session_id: String,
        generation: String,
    },
    /// The blob of a `session_transcript_cold_archives` row kept in the database.
    ColdRow { session_id: String },
}

/// How an archive's bytes encode its events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ArchiveEncoding {
    /// JSON Lines, one event per line (legacy `.reset`/`.deleted`/`.bak`, import archive).
    Identity,
    /// One zstd stream of JSON Lines (`.zst` files, archive rows with `encoding = 'zstd'`).
    Zstd,
    /// A cold archive: zstd JSON Lines of records (`header`, `event`, `identity`, `active`,
    /// `index`, `fts`); the events are the `event` records' `row.event_json`, in order
    /// (docs/openclaw/ARCHIVES.md).
    ColdRecords,
}

impl TranscriptSource {
    pub fn for_session(store: &AgentStore, session_id: &str) -> Result<Self> {
        if let Some(db) = store.db() {
            let cold: Option<String> =
                archives::cold_archive_name(db.conn(), session_id).unwrap_or(None);
            if let Some(name) = cold {
                return Err(Error::Conflict {
                    message: format!(
                        "transcript {session_id} is in cold storage (archive {name}); OpenClaw restores it on first use"
                    ),
                    hint: Some("this tool reports cold history but never restores it".into()),
                });
            }
            return Ok(TranscriptSource::Sqlite {
                db: db.path().to_path_buf(),
                session_id: session_id.to_string(),
            });
        }
        if let Some(legacy) = store.legacy() {
            let path = legacy.transcript_path(session_id).ok_or_else(|| {
                Error::bad_input(
                    format!("session id {session_id:?} is not a safe file name"),
                    None,
                )
            })?;
            return Ok(TranscriptSource::Jsonl {
                path,
                session_id: session_id.to_string(),
            });
        }
        Err(Error::not_found(
            format!("agent {} has no store", store.paths.id),
            None,
        ))
    }

    pub fn session_id(&self) -> &str {
        match self {
            TranscriptSource::Sqlite { session_id, .. }
            | TranscriptSource::Jsonl { session_id, .. }
            | TranscriptSource::Archive { session_id, .. } => session_id,
        }
    }

    /// Visit events with `seq >= from_seq` in order until `visit` breaks. Memory stays
    /// bounded: rows are streamed, one event decoded at a time.
    pub fn for_each(
        &self,
        store: &AgentStore,
        from_seq: i64,
        visit: &mut dyn FnMut(StoredEvent) -> Result<ControlFlow<()>>,
    ) -> Result<()> {
        match self {
            TranscriptSource::Sqlite {
                db: path,
                session_id,
            } => {
                let db = database_of(store)?;
                events::for_each_from(db.conn(), path, session_id, from_seq, |row, created_at| {
                    let seq = row.seq;
                    let frame = row.frame.as_blob_or_null().map_err(|e| {
                        Error::bad_input(
                            format!(
                                "transcript row {session_id}#{seq}: event_zstd is not a blob ({e})"
                            ),
                            None,
                        )
                    })?;
                    let (json, compressed) =
                        decode_event_row(session_id, seq, row.json, frame, row.utf8_bytes)?;
                    visit(StoredEvent {
                        seq,
                        json,
                        created_at,
                        compressed,
                    })
                })
            }
            TranscriptSource::Jsonl { path, .. } => {
                let mut reader = JsonlReader::open(path)?;
                let mut seq = 0i64;
                while let Some((_, line)) = reader.next_line()? {
                    if seq >= from_seq {
                        let ev = StoredEvent::from_file(seq, line.to_string());
                        if visit(ev)?.is_break() {
                            break;
                        }
                    }
                    seq += 1;
                }
                Ok(())
            }
            TranscriptSource::Archive { body, encoding, .. } => {
                let (conn, db) = match store.db() {
                    Some(db) => (Some(db.conn()), db.path()),
                    None => (None, store.paths.db.as_path()),
                };
                for_each_archived(body, *encoding, conn, db, from_seq, visit)
            }
        }
    }

    /// Highest `seq`, or -1 for an empty transcript.
    pub fn last_seq(&self, store: &AgentStore) -> Result<i64> {
        match self {
            TranscriptSource::Sqlite {
                db: path,
                session_id,
            } => {
                let db = database_of(store)?;
                events::last_seq(db.conn(), session_id).at(path)
            }
            TranscriptSource::Jsonl { .. } | TranscriptSource::Archive { .. } => {
                let mut last = -1;
                self.for_each(store, 0, &mut |ev| {
                    last = ev.seq;
                    Ok(ControlFlow::Continue(()))
                })?;
                Ok(last)
            }
        }
    }
}

/// The event of a cold archive's `event` record, else `None` (another record kind).
fn cold_event(line: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Row {
        event_json: String,
    }
    #[derive(serde::Deserialize)]
    struct Record {
        kind: String,
        row: Option<Row>,
    }
    let r: Record = crate::json_value::from_str(line).ok()?;
    match (r.kind.as_str(), r.row) {
        ("event", Some(row)) => Some(row.event_json),
        _ => None,
    }
}

/// Visit an archive's events (`seq` = position in the archive) from `from_seq` on, reading a
/// row's blob through `conn` (the store's reader, or a writer's transaction).
pub fn for_each_archived(
    body: &ArchiveBody,
    encoding: ArchiveEncoding,
    conn: Option<&rusqlite::Connection>,
    db: &std::path::Path,
    from_seq: i64,
    visit: &mut dyn FnMut(StoredEvent) -> Result<ControlFlow<()>>,
) -> Result<()> {
    let name = body.display_path(db);
    let raw = body.open_on(conn, db)?;
    let reader: Box<dyn std::io::BufRead + '_> = match encoding {
        ArchiveEncoding::Identity => Box::new(std::io::BufReader::with_capacity(256 * 1024, raw)),
        ArchiveEncoding::Zstd | ArchiveEncoding::ColdRecords => {
            Box::new(std::io::BufReader::with_capacity(
                256 * 1024,
                zstd::stream::read::Decoder::new(raw).at(&name)?,
            ))
        }
    };
    // A decoded archive is read up to a cap, whatever its compressed size: a small file can
    // expand without bound (docs/openclaw/HOSTILE.md §7).
    let lines = JsonlReader::from_reader(&name, reader);
    let mut lines = match encoding {
        ArchiveEncoding::Identity => lines,
        ArchiveEncoding::Zstd => lines.decoded_cap(archive_cap(MAX_ARCHIVE_BYTES)),
        ArchiveEncoding::ColdRecords => lines.decoded_cap(archive_cap(MAX_COLD_ARCHIVE_BYTES)),
    };
    let mut seq = 0i64;
    while let Some((line_no, line)) = lines.next_line()? {
        let json = match encoding {
            ArchiveEncoding::ColdRecords => match cold_event(line) {
                Some(json) => json,
                None if line.contains("\"kind\"") => continue,
                None => {
                    return Err(Error::bad_input(
                        format!(
                            "{} line {line_no} is not a cold archive record",
                            name.display()
                        ),
                        None,
                    ))
                }
            },
            _ => line.to_string(),
        };
        if seq >= from_seq {
            let ev = StoredEvent::from_file(seq, json);
            if visit(ev)?.is_break() {
                break;
            }
        }
        seq += 1;
    }
    Ok(())
}

impl ArchiveBody {
    /// A path naming the archive in messages: the file, or `<database>#<table row>`.
    pub fn display_path(&self, db: &std::path::Path) -> PathBuf {
        let db = db.display();
        match self {
            ArchiveBody::File(p) => p.clone(),
            ArchiveBody::Row {
                session_id,
                generation,
            } => PathBuf::from(format!(
                "{db}#session_transcript_archives({session_id},{generation})"
            )),
            ArchiveBody::ColdRow { session_id } => PathBuf::from(format!(
                "{db}#session_transcript_cold_archives({session_id})"
            )),
        }
    }

    /// The raw (still encoded) bytes, streamed; a row's blob is read through `conn`, the
    /// connection to the database at `db`.
    pub fn open_on<'s>(
        &self,
        conn: Option<&'s rusqlite::Connection>,
        db: &std::path::Path,
    ) -> Result<Box<dyn std::io::Read + 's>> {
        let missing = || {
            Error::not_found(
                format!(
                    "archive {} is no longer there",
                    self.display_path(db).display()
                ),
                None,
            )
        };
        match self {
            ArchiveBody::File(p) => {
                // A FIFO or a symbolic link in place of an archive is refused, not waited for.
                let f = crate::fsutil::open_regular(p).map_err(|e| match e {
                    Error::Io { ref source, .. }
                        if source.kind() == std::io::ErrorKind::NotFound =>
                    {
                        missing()
                    }
                    e => e,
                })?;
                Ok(Box::new(f))
            }
            ArchiveBody::Row {
                session_id,
                generation,
            } => {
                let conn = conn.ok_or_else(missing)?;
                let blob = archives::blob_reader(conn, session_id, generation)
                    .at(db)?
                    .ok_or_else(missing)?;
                Ok(Box::new(blob))
            }
            ArchiveBody::ColdRow { session_id } => {
                let conn = conn.ok_or_else(missing)?;
                let blob = archives::cold_blob_reader(conn, session_id)
                    .at(db)?
                    .ok_or_else(missing)?;
                Ok(Box::new(blob))
            }
        }
    }
}

/// The store's database, which a SQLite source was found in.
fn database_of(store: &AgentStore) -> Result<&crate::store::ReadOnlyDb> {
    store
        .db()
        .ok_or_else(|| Error::Internal("store lost its database".into()))
}
