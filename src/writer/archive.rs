//! A transcript generation archived the way OpenClaw's `deleteSessionEntry` archives it: its
//! events, in order, as one zstd JSONL frame in a `session_transcript_archives` row named
//! `<sessionId>.jsonl.deleted.<stamp>.<generation>.zst`, published as a file after commit
//! (`publish`).

use std::path::Path;

use rusqlite::Transaction;
use serde::Serialize;

use crate::digest::sha256_hex;
use crate::error::{Error, Remedy, Result, ResultExt};
use crate::store::db::{archives, event_index, events, windows};

/// An archive row written (and, once `published`, its file).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchivedFile {
    pub session_id: String,
    pub generation: String,
    pub archive_name: String,
    pub archive_sha256: String,
    pub published: bool,
}

/// zstd frame without checksum or content size, as OpenClaw writes archives.
pub fn compress(text: &[u8]) -> Result<Vec<u8>> {
    let mut enc =
        zstd::stream::Encoder::new(Vec::new(), 3).map_err(|e| Error::Internal(e.to_string()))?;
    enc.include_checksum(false)
        .map_err(|e| Error::Internal(e.to_string()))?;
    enc.include_contentsize(false)
        .map_err(|e| Error::Internal(e.to_string()))?;
    std::io::Write::write_all(&mut enc, text).map_err(|e| Error::Internal(e.to_string()))?;
    enc.finish().map_err(|e| Error::Internal(e.to_string()))
}

/// `<sessionId>.jsonl.deleted.<stamp>.<generation>.zst`; ids over 96 bytes are hashed.
pub fn archive_name(session_id: &str, created_at: i64, generation: &str, zstd: bool) -> String {
    let id = if session_id.len() <= 96 {
        session_id.to_string()
    } else {
        format!("session-{}", sha256_hex(session_id.as_bytes()))
    };
    format!(
        "{id}.jsonl.deleted.{}.{generation}{}",
        crate::units::archive_stamp(created_at),
        if zstd { ".zst" } else { "" }
    )
}

pub fn archive_generation(
    tx: &Transaction<'_>,
    path: &Path,
    key: &str,
    session_id: &str,
    now: i64,
) -> Result<Option<ArchivedFile>> {
    let mut text = Vec::new();
    events::for_each_in_order(tx, path, session_id, |r| {
        let frame = r
            .frame
            .as_blob_or_null()
            .map_err(|e| Error::bad_input(e.to_string(), None))?;
        let (json, _) =
            crate::transcript::decode_event_row(session_id, r.seq, r.json, frame, r.utf8_bytes)?;
        text.extend_from_slice(json.as_bytes());
        text.push(b'\n');
        Ok(())
    })?;
    if text.is_empty() {
        return Ok(None);
    }
    let generation: String = events::watermark_generation(tx, session_id)
        .at(path)?
        .unwrap_or_else(|| uuid::Uuid::new_v4().simple().to_string());
    let blob = compress(&text)?;
    let sha = sha256_hex(&blob);
    let name = archive_name(session_id, now, &generation, true);
    let existing: Option<String> = archives::sha256_of(tx, session_id, &generation).at(path)?;
    if existing.is_some() {
        return Err(Error::Conflict {
            message: format!(
                "Conflicting SQLite transcript archive for {session_id} (generation {generation})"
            ),
            hint: Some("run the doctor".into()),
        }
        .with_remedy(Remedy::RunDoctor));
    }
    archives::insert_deleted(
        tx,
        &archives::NewArchive {
            session_id,
            generation: &generation,
            session_key: key,
            blob: &blob,
            sha256: &sha,
            name: &name,
            created_at: now,
        },
    )
    .at(path)?;
    Ok(Some(ArchivedFile {
        session_id: session_id.to_string(),
        generation,
        archive_name: name,
        archive_sha256: sha,
        published: false,
    }))
}

/// The doctor's repair of an orphaned transcript (a window without its node, or events
/// without their window): its events become an archive in OpenClaw's format first (a
/// `session_transcript_archives` row, published as a `.deleted` file after commit), then the
/// window, events and their projections go. `key` is the key the rows name (the window's),
/// else OpenClaw's `unknown` sentinel.
pub fn archive_orphan_transcript(
    tx: &Transaction<'_>,
    path: &Path,
    key: Option<&str>,
    session_id: &str,
    now: i64,
) -> Result<Option<ArchivedFile>> {
    let archived = archive_generation(tx, path, key.unwrap_or("unknown"), session_id, now)?;
    let search_rows = super::AgentSchema::of(tx).at(path)?.has_search_rows();
    event_index::delete_for_session(tx, session_id, search_rows).at(path)?;
    events::delete_orphan_transcript(tx, session_id).at(path)?;
    windows::delete(tx, session_id).at(path)?;
    Ok(archived)
}
