//! Sessions of several agents newest first, merged while they are read: memory stays flat
//! however many sessions the stores hold.

use std::ops::ControlFlow;

use super::{AgentStore, SessionEntry};
use crate::error::{Result, ResultExt};
use crate::remedy::Warning;

/// One agent's sessions in listing order, as they are read.
enum Source<'s> {
    Database(&'s AgentStore, rusqlite::Rows<'s>),
    Index(std::vec::IntoIter<SessionEntry>),
}

/// The next session of a source and its place in the order: `updated_at` newest first,
/// then the key's bytes (the order of `idx_agent_session_nodes_updated_at`).
struct Head {
    updated_at: i64,
    entry: SessionEntry,
}

impl Source<'_> {
    fn next(
        &mut self,
        fields: Option<&[&str]>,
        warnings: &mut Vec<Warning>,
    ) -> Result<Option<Head>> {
        match self {
            Source::Index(entries) => Ok(entries.next().map(|entry| Head {
                updated_at: entry.updated_at(),
                entry,
            })),
            Source::Database(store, rows) => {
                let path = &store.paths.db;
                while let Some(row) = rows.next().at(path)? {
                    match store.decode_node(row, fields)? {
                        Some(Ok(entry)) => {
                            let updated_at = row.get(3).at(path)?;
                            return Ok(Some(Head { updated_at, entry }));
                        }
                        Some(Err(warning)) => warnings.push(warning),
                        None => {}
                    }
                }
                Ok(None)
            }
        }
    }
}

/// Visit every readable session of `stores` (with at least `fields` parsed when given; a
/// database row keeps its whole stored text), newest first; ties keep the order of `stores`,
/// then key byte order (OpenClaw's listing order). `visit` gets the store's index and may
/// stop the walk. Returns the warnings of rows that do not decode, as
/// [`AgentStore::sessions`] would. A store that changed while it was read is `Error::Busy`,
/// found once the walk ends.
pub fn for_each_newest_first(
    stores: &[AgentStore],
    fields: Option<&[&str]>,
    visit: impl FnMut(usize, SessionEntry) -> Result<ControlFlow<()>>,
) -> Result<Vec<Warning>> {
    for_each_newest_first_after(stores, fields, None, visit)
}

/// A place in the newest-first order: the session visited last (a keyset, not an offset, so
/// that the next page starts there without reading what came before).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    pub updated_at: i64,
    /// The index in `stores` of the session's store.
    pub store: usize,
    pub key: String,
}

impl Position {
    /// Whether a session of store `store` comes after this position in the order.
    pub fn precedes(&self, store: usize, updated_at: i64, key: &str) -> bool {
        updated_at < self.updated_at
            || (updated_at == self.updated_at
                && (store > self.store || (store == self.store && key > self.key.as_str())))
    }
}

/// [`for_each_newest_first`] from the session after `after` on.
pub fn for_each_newest_first_after(
    stores: &[AgentStore],
    fields: Option<&[&str]>,
    after: Option<&Position>,
    mut visit: impl FnMut(usize, SessionEntry) -> Result<ControlFlow<()>>,
) -> Result<Vec<Warning>> {
    let mut statements = Vec::new();
    for store in stores {
        let sql = match after {
            Some(_) => super::db::nodes::NEWEST_FIRST_AFTER_SQL,
            None => super::db::nodes::NEWEST_FIRST_SQL,
        };
        statements.push(match store.db() {
            Some(db) if store.legacy().is_none() => Some(db.conn().prepare(sql).at(db.path())?),
            _ => None,
        });
    }
    let mut sources = Vec::new();
    for (i, (store, statement)) in stores.iter().zip(statements.iter_mut()).enumerate() {
        sources.push(match (statement, store.legacy()) {
            (Some(stmt), _) => {
                let rows = match after {
                    // Ties at the position's time: in an earlier store they all came before
                    // it, in a later one none did, in its own those up to its key did.
                    Some(p) => stmt.query(rusqlite::params![
                        p.updated_at,
                        (i == p.store).then_some(p.key.as_str()),
                        i > p.store,
                    ]),
                    None => stmt.query([]),
                };
                Source::Database(store, rows.at(&store.paths.db)?)
            }
            (None, Some(legacy)) => {
                let mut entries = legacy.entries.clone();
                entries.sort_by(|a, b| b.updated_at().cmp(&a.updated_at()).then(a.key.cmp(&b.key)));
                if let Some(p) = after {
                    entries.retain(|e| p.precedes(i, e.updated_at(), &e.key));
                }
                Source::Index(entries.into_iter())
            }
            (None, None) => Source::Index(Vec::new().into_iter()),
        });
    }
    let mut warnings = Vec::new();
    let mut heads = Vec::with_capacity(sources.len());
    for source in sources.iter_mut() {
        heads.push(source.next(fields, &mut warnings)?);
    }
    loop {
        // Newest first; the first store wins a tie.
        let mut best: Option<usize> = None;
        for (i, head) in heads.iter().enumerate() {
            if let Some(h) = head {
                if best.is_none_or(|b| {
                    heads[b]
                        .as_ref()
                        .is_some_and(|bh| h.updated_at > bh.updated_at)
                }) {
                    best = Some(i);
                }
            }
        }
        let Some(i) = best else { break };
        let next = sources[i].next(fields, &mut warnings)?;
        let Some(head) = std::mem::replace(&mut heads[i], next) else {
            break;
        };
        if visit(i, head.entry)?.is_break() {
            break;
        }
    }
    drop(sources);
    for store in stores {
        store.check_consistent()?;
    }
    Ok(warnings)
}
