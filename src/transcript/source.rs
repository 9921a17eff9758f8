use std::ops::ControlFlow;
use std::path::PathBuf;

use super::{decode_event_row, StoredEvent};
use crate::error::{Error, Result, ResultExt};
use crate::legacy::JsonlReader;
use crate::store::db::{archives, events};
use crate::store::AgentStore;

/// Where one transcript generation lives.
#[derive(Debug, Clone)]
pub enum TranscriptSource {
    /// `transcript_events` rows of a session id.
    Sqlite { db: PathBuf, session_id: String },
    /// A legacy `<sessionId>.jsonl` file; `seq` is the line's index among non-empty lines.
    Jsonl { path: PathBuf, session_id: String },
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
            | TranscriptSource::Jsonl { session_id, .. } => session_id,
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
                let db = store
                    .db()
                    .ok_or_else(|| Error::Internal("store lost its database".into()))?;
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
                        let ev = StoredEvent {
                            seq,
                            json: line.to_string(),
                            created_at: None,
                            compressed: false,
                        };
                        if visit(ev)?.is_break() {
                            break;
                        }
                    }
                    seq += 1;
                }
                Ok(())
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
                let db = store
                    .db()
                    .ok_or_else(|| Error::Internal("store lost its database".into()))?;
                events::last_seq(db.conn(), session_id).at(path)
            }
            TranscriptSource::Jsonl { .. } => {
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
