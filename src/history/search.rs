//! `search`: OpenClaw's own FTS5 index of user and assistant text (`session_transcript_fts`,
//! docs/openclaw/ARCHIVES.md), queried read-only with the FTS5 query syntax; with archives,
//! their messages go through a private in-memory FTS5 table of the same tokenizer, a bounded
//! batch at a time, so matching follows the same rules and nothing is written to the store.

use std::ops::ControlFlow;

use serde::Serialize;

use super::ArchivedTranscript;
use crate::error::{Error, Result, ResultExt};
use crate::migrate::legacy::searchable_text;
use crate::store::db::fts::{self, FtsHit, FtsQuery};
use crate::store::AgentStore;

/// Messages indexed at a time for one archive: bounds memory whatever the archive's size.
const ARCHIVE_BATCH: usize = 2000;

/// One matching message.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    pub agent_id: String,
    pub session_key: Option<String>,
    pub session_id: String,
    /// The event's `seq` (live), or its position in the archive (`archives cat --from-seq`).
    pub seq: Option<i64>,
    pub message_id: String,
    pub role: String,
    /// Milliseconds since the epoch.
    pub timestamp: i64,
    pub snippet: String,
    /// Higher is better (`-bm25`, relative to the index it came from).
    pub score: f64,
    /// The archive's name, for a hit in an archive.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archive: Option<String>,
}

/// What to look for and how many.
#[derive(Debug, Clone)]
pub struct SearchRequest {
    pub query: String,
    pub role: Option<String>,
    pub since: Option<i64>,
    pub recent_first: bool,
    pub limit: usize,
    pub open: String,
    pub close: String,
}

impl SearchRequest {
    fn fts(&self) -> FtsQuery<'_> {
        FtsQuery {
            expr: &self.query,
            role: self.role.as_deref(),
            since: self.since,
            recent_first: self.recent_first,
            limit: self.limit as i64,
            open: &self.open,
            close: &self.close,
        }
    }
}

/// The best `limit` hits seen so far.
pub struct Hits {
    recent_first: bool,
    limit: usize,
    pub hits: Vec<SearchHit>,
    /// More matched than `limit`.
    pub truncated: bool,
}

impl Hits {
    pub fn new(req: &SearchRequest) -> Self {
        Hits {
            recent_first: req.recent_first,
            limit: req.limit,
            hits: Vec::new(),
            truncated: false,
        }
    }

    fn add(&mut self, more: impl IntoIterator<Item = SearchHit>) {
        self.hits.extend(more);
        let recent = self.recent_first;
        self.hits.sort_by(|a, b| {
            if recent {
                b.timestamp.cmp(&a.timestamp)
            } else {
                b.score
                    .total_cmp(&a.score)
                    .then(b.timestamp.cmp(&a.timestamp))
            }
            .then(a.message_id.cmp(&b.message_id))
        });
        if self.hits.len() > self.limit {
            self.truncated = true;
            self.hits.truncate(self.limit);
        }
    }
}

fn query_error(query: &str, e: rusqlite::Error, path: &std::path::Path) -> Error {
    let text = e.to_string();
    // FTS5 reports a query it cannot parse as a plain SQLITE_ERROR; damage has other codes.
    let generic = matches!(&e, rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::Unknown);
    if generic {
        Error::InvalidArgument {
            message: format!("{query:?} is not an FTS5 query: {text}"),
            hint: Some(
                "words match words; \"a phrase\" in double quotes (also for words with - or :); word* for a prefix; AND, OR, NOT in capitals"
                    .into(),
            ),
        }
    } else {
        Error::sqlite(path, e)
    }
}

fn to_hit(agent_id: &str, h: FtsHit, key: Option<String>, archive: Option<&str>) -> SearchHit {
    SearchHit {
        agent_id: agent_id.to_string(),
        session_key: h.session_key.or(key),
        session_id: h.session_id,
        seq: h.seq,
        message_id: h.message_id,
        role: h.role,
        timestamp: h.timestamp as i64,
        snippet: h.snippet,
        score: if h.rank.is_finite() { -h.rank } else { 0.0 },
        archive: archive.map(str::to_string),
    }
}

/// Search one agent's live index.
pub fn search_live(store: &AgentStore, req: &SearchRequest, into: &mut Hits) -> Result<()> {
    let Some(db) = store.db() else {
        return Ok(());
    };
    if !crate::store::db::meta::table_exists(db.conn(), "session_transcript_fts") {
        return Ok(());
    }
    // One more than asked: `truncated` says whether there were more.
    let mut q = req.fts();
    q.limit += 1;
    let found =
        fts::search_live(db.conn(), &q).map_err(|e| query_error(&req.query, e, db.path()))?;
    let agent = store.paths.id.to_string();
    into.add(found.into_iter().map(|h| to_hit(&agent, h, None, None)));
    Ok(())
}

/// A private in-memory FTS5 index with OpenClaw's tokenizer, emptied after each batch and
/// reused for every archive.
pub struct ScratchIndex(rusqlite::Connection);

impl ScratchIndex {
    pub fn new() -> Result<Self> {
        fts::open_scratch_index()
            .map(ScratchIndex)
            .map_err(|e| Error::sqlite(":memory:", e))
    }
}

/// Search the messages of one archive, a batch at a time, through the scratch index.
pub fn search_archive(
    store: &AgentStore,
    archive: &ArchivedTranscript,
    req: &SearchRequest,
    into: &mut Hits,
    scratch: &ScratchIndex,
) -> Result<()> {
    let scratch = &scratch.0;
    // Whatever an archive that failed half-way left is not this one's.
    fts::scratch_clear(scratch).at(":memory:")?;
    let mut q = req.fts();
    q.limit += 1;
    let fallback = archive.archived_at.unwrap_or(0);
    let mut pending = 0usize;
    let flush = |scratch: &rusqlite::Connection, into: &mut Hits| -> Result<()> {
        let found = fts::scratch_search(scratch, &q)
            .map_err(|e| query_error(&req.query, e, std::path::Path::new(&archive.name)))?;
        into.add(found.into_iter().map(|h| {
            to_hit(
                &archive.agent_id,
                h,
                archive.session_key.clone(),
                Some(&archive.name),
            )
        }));
        fts::scratch_clear(scratch).at(":memory:")?;
        Ok(())
    };
    archive.source().for_each(store, 0, &mut |ev| {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(&ev.json) else {
            return Ok(ControlFlow::Continue(()));
        };
        if let Some((id, role, text, ts)) = searchable_text(&value, fallback) {
            fts::scratch_insert(scratch, &archive.session_id, &id, &role, &text, ts, ev.seq)
                .at(":memory:")?;
            pending += 1;
            if pending == ARCHIVE_BATCH {
                flush(scratch, into)?;
                pending = 0;
            }
        }
        Ok(ControlFlow::Continue(()))
    })?;
    if pending > 0 {
        flush(scratch, into)?;
    }
    Ok(())
}
