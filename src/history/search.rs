//! `search`: OpenClaw's own FTS5 index of user and assistant text (`session_transcript_fts`,
//! docs/openclaw/ARCHIVES.md), queried read-only with the FTS5 query syntax (the words a person
//! typed become one through [`plain_words_query`]); with archives,
//! their messages go through a private in-memory FTS5 table of the same tokenizer, a bounded
//! batch at a time, so matching follows the same rules and nothing is written to the store.

use std::ops::ControlFlow;

use serde::Serialize;

use super::ArchivedTranscript;
use crate::error::{Error, Result, ResultExt};
use crate::store::db::fts::{self, FtsHit, FtsQuery};
use crate::store::AgentStore;
use crate::writer::transcript::searchable_text;

/// Messages indexed at a time (of one archive or several): bounds memory whatever the
/// archives' sizes.
const ARCHIVE_BATCH: usize = 500;

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
/// Whether an agent's live sessions could be searched: a store still in a legacy
/// `sessions.json` (or a database without OpenClaw's index) has no index to search.
pub fn has_index(store: &AgentStore) -> bool {
    store
        .db()
        .is_some_and(|db| crate::store::db::meta::table_exists(db.conn(), "session_transcript_fts"))
}

/// The words a person typed, as an FTS5 query that finds the messages holding every one of
/// them: each word one FTS5 string (a `"` in it doubled), so that `item #3`, `C++`, `a:b` or
/// `NOT` are words and never query syntax. A word without a letter or digit (`#`, `--`) is
/// left out, as the tokenizer would drop it; `None` when no word is left.
pub fn plain_words_query(text: &str) -> Option<String> {
    let words: Vec<String> = text
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .map(|w| format!("\"{}\"", w.replace('"', "\"\"")))
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// Search an agent's live index into `into`; `false` when it has none ([`has_index`]), and
/// nothing was searched.
pub fn search_live(store: &AgentStore, req: &SearchRequest, into: &mut Hits) -> Result<bool> {
    let Some(db) = store.db() else {
        return Ok(false);
    };
    if !crate::store::db::meta::table_exists(db.conn(), "session_transcript_fts") {
        return Ok(false);
    }
    // One more than asked: `truncated` says whether there were more.
    let mut q = req.fts();
    q.limit += 1;
    let found =
        fts::search_live(db.conn(), &q).map_err(|e| query_error(&req.query, e, db.path()))?;
    let agent = store.paths.id.to_string();
    into.add(found.into_iter().map(|h| to_hit(&agent, h, None, None)));
    Ok(true)
}

/// An archive with messages in the current batch: what its hits carry.
struct Tag {
    agent_id: String,
    name: String,
    session_key: Option<String>,
}

/// Archives searched through a private in-memory FTS5 index of OpenClaw's tokenizer
/// (`fts::open_scratch_index`). The messages of consecutive archives, of any agent, are
/// indexed together in one transaction, up to [`ARCHIVE_BATCH`] at a time; each full batch
/// is searched once, its best hits kept, and the index emptied (`delete-all`, so its pages
/// are reused, never accumulated): memory is bounded whatever the number and size of the
/// archives, and an archive of a few messages does not pay a query, an index flush and a
/// merge of its own. Matching is FTS5's `MATCH` with the same tokenizer and query; `bm25`
/// scores are relative to the batch, as a live hit's are to the agent's index.
pub struct ArchiveSearch<'r> {
    req: &'r SearchRequest,
    conn: rusqlite::Connection,
    /// The archives of the batch, by the number their messages carry.
    tags: Vec<Tag>,
    /// Messages in the batch.
    pending: usize,
    /// Messages a batch holds ([`ARCHIVE_BATCH`]; fewer under the test hook).
    batch: usize,
}

impl<'r> ArchiveSearch<'r> {
    pub fn new(req: &'r SearchRequest) -> Result<Self> {
        Ok(ArchiveSearch {
            req,
            conn: fts::open_scratch_index().map_err(|e| Error::sqlite(":memory:", e))?,
            tags: Vec::new(),
            pending: 0,
            batch: crate::test_hooks::apply_batch().unwrap_or(ARCHIVE_BATCH),
        })
    }

    /// Index the messages of one archive, searching each batch that fills. `Ok(Some(e))`:
    /// the archive could not be read to its end (`e`); its messages not searched yet are
    /// dropped and the search goes on. `Err`: the search itself failed (the query is not
    /// an FTS5 query: `InvalidArgument`).
    pub fn add(
        &mut self,
        store: &AgentStore,
        archive: &ArchivedTranscript,
        into: &mut Hits,
    ) -> Result<Option<Error>> {
        let fallback = archive.archived_at.unwrap_or(0);
        let tag = || Tag {
            agent_id: archive.agent_id.clone(),
            name: archive.name.clone(),
            session_key: archive.session_key.clone(),
        };
        let mut current: Option<i64> = None;
        let mut fatal: Option<Error> = None;
        let read = archive.source().for_each(store, 0, &mut |ev| {
            let Ok(value) = crate::json_value::from_str::<serde_json::Value>(&ev.json) else {
                return Ok(ControlFlow::Continue(()));
            };
            let Some((id, role, text, ts)) = searchable_text(&value, fallback) else {
                return Ok(ControlFlow::Continue(()));
            };
            let number = match current {
                Some(n) => n,
                None => {
                    if self.pending == 0 {
                        self.conn.execute_batch("BEGIN").at(":memory:")?;
                    }
                    self.tags.push(tag());
                    let n = (self.tags.len() - 1) as i64;
                    current = Some(n);
                    n
                }
            };
            fts::scratch_insert(
                &self.conn,
                number,
                &archive.session_id,
                &id,
                &role,
                &text,
                ts,
                ev.seq,
            )
            .at(":memory:")?;
            self.pending += 1;
            if self.pending >= self.batch {
                if let Err(e) = self.flush(into) {
                    fatal = Some(e);
                    return Ok(ControlFlow::Break(()));
                }
                // The rest of this archive starts the next batch.
                current = None;
            }
            Ok(ControlFlow::Continue(()))
        });
        if let Some(e) = fatal {
            return Err(e);
        }
        match read {
            Ok(()) => Ok(None),
            Err(e) => {
                if let Some(n) = current {
                    let dropped = fts::scratch_forget(&self.conn, n).at(":memory:")?;
                    self.pending -= dropped;
                }
                Ok(Some(e))
            }
        }
    }

    /// Search what is left in the batch.
    pub fn finish(mut self, into: &mut Hits) -> Result<()> {
        self.flush(into)
    }

    /// Search the batch, keep its best hits, and empty it.
    fn flush(&mut self, into: &mut Hits) -> Result<()> {
        if self.pending == 0 && self.tags.is_empty() {
            return Ok(());
        }
        if !self.conn.is_autocommit() {
            self.conn.execute_batch("COMMIT").at(":memory:")?;
        }
        if self.pending > 0 {
            // One more than asked: `truncated` says whether there were more.
            let mut q = self.req.fts();
            q.limit += 1;
            let found = fts::scratch_search(&self.conn, &q)
                .map_err(|e| query_error(&self.req.query, e, std::path::Path::new(":memory:")))?;
            let tags = &self.tags;
            into.add(found.into_iter().filter_map(|(h, n)| {
                let tag = tags.get(usize::try_from(n).ok()?)?;
                Some(to_hit(
                    &tag.agent_id,
                    h,
                    tag.session_key.clone(),
                    Some(&tag.name),
                ))
            }));
        }
        fts::scratch_clear(&self.conn).at(":memory:")?;
        self.tags.clear();
        self.pending = 0;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::plain_words_query;

    #[test]
    fn each_word_is_one_fts5_string() {
        assert_eq!(plain_words_query("item #3").unwrap(), "\"item\" \"#3\"");
        assert_eq!(
            plain_words_query(" a\"b  NOT ").unwrap(),
            "\"a\"\"b\" \"NOT\""
        );
        assert_eq!(plain_words_query("say # -- it").unwrap(), "\"say\" \"it\"");
        assert_eq!(plain_words_query("# --"), None);
    }
}
