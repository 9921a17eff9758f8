//! The active branch of a transcript: the tree path from the root to the current leaf
//! (what OpenClaw materialises in `session_transcript_active_events`).

use std::collections::HashMap;
use std::ops::ControlFlow;

use serde::Deserialize;

use super::TranscriptSource;
use crate::error::{Result, ResultExt};
use crate::store::db::{event_index, events};
use crate::store::AgentStore;

/// One event on the active branch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActiveEvent {
    pub seq: i64,
    pub event_id: Option<String>,
    /// Position among the branch's events that carry a `message` (0-based).
    pub message_position: Option<i64>,
}

#[derive(Deserialize)]
struct EventShape<'a> {
    #[serde(rename = "type", borrow)]
    kind: Option<std::borrow::Cow<'a, str>>,
    id: Option<String>,
    #[serde(rename = "parentId")]
    parent_id: Option<String>,
    #[serde(rename = "targetId")]
    target_id: Option<String>,
    message: Option<serde::de::IgnoredAny>,
}

/// Read the materialised projection when it is current, else derive the branch from the
/// events (legacy files, stale projections).
pub fn active_path(store: &AgentStore, source: &TranscriptSource) -> Result<Vec<ActiveEvent>> {
    if let Some(rows) = projection(store, source)? {
        return Ok(rows);
    }
    derive(store, source)
}

/// The connection and session id of a transcript whose materialised projection is current:
/// indexed up to its last event, not marked for a rebuild, no context flag pending.
fn fresh_projection<'a>(
    store: &'a AgentStore,
    source: &'a TranscriptSource,
) -> Result<Option<(&'a crate::store::ReadOnlyDb, &'a str)>> {
    let (Some(db), TranscriptSource::Sqlite { session_id, .. }) = (store.db(), source) else {
        return Ok(None);
    };
    let conn = db.conn();
    let state: Option<(i64, i64)> = event_index::freshness(conn, session_id).at(db.path())?;
    let max_seq: i64 = events::last_seq(conn, session_id).at(db.path())?;
    let pending: bool = event_index::context_pending(conn, session_id).at(db.path())?;
    Ok(match state {
        Some((indexed, 0)) if indexed == max_seq && !pending => Some((db, session_id)),
        _ => None,
    })
}

/// The active branch's messages in order (the display history): how many, and the event
/// `seq` of each, read a range at a time.
#[derive(Debug)]
pub enum ActiveMessages<'a> {
    /// From the current projection, by `message_position` (as OpenClaw reads its history):
    /// only the rows asked for are read.
    Projected {
        db: &'a crate::store::ReadOnlyDb,
        session_id: &'a str,
        total: usize,
    },
    /// Derived from the events, every message's seq held.
    Listed(Vec<i64>),
}

impl ActiveMessages<'_> {
    pub fn total(&self) -> usize {
        match self {
            ActiveMessages::Projected { total, .. } => *total,
            ActiveMessages::Listed(seqs) => seqs.len(),
        }
    }

    /// The seqs of messages `from..until` (clamped to the history).
    pub fn seqs(&self, from: usize, until: usize) -> Result<Vec<i64>> {
        let until = until.min(self.total());
        if from >= until {
            return Ok(Vec::new());
        }
        match self {
            ActiveMessages::Listed(seqs) => Ok(seqs[from..until].to_vec()),
            ActiveMessages::Projected { db, session_id, .. } => {
                let rows =
                    event_index::message_seqs(db.conn(), session_id, from as i64, until as i64)
                        .at(db.path())?;
                // Positions are unique and count up from 0 (checked when `total` was read).
                if rows.len() != until - from
                    || rows
                        .iter()
                        .zip(from as i64..)
                        .any(|((position, _), want)| *position != want)
                {
                    return Err(crate::error::Error::Conflict {
                        message: format!(
                            "transcript {session_id} changed during this read (its message positions moved)"
                        ),
                        hint: Some("read the page again".into()),
                    });
                }
                Ok(rows.into_iter().map(|(_, seq)| seq).collect())
            }
        }
    }
}

/// The display history's messages: from the projection when it is current and its message
/// positions are exactly `0..count` (so position `i` is the `i`-th message of the branch),
/// else from the branch derived or read whole.
pub fn active_messages<'a>(
    store: &'a AgentStore,
    source: &'a TranscriptSource,
) -> Result<ActiveMessages<'a>> {
    if let Some((db, session_id)) = fresh_projection(store, source)? {
        let (count, max) = event_index::message_count(db.conn(), session_id).at(db.path())?;
        if count == max + 1 {
            return Ok(ActiveMessages::Projected {
                db,
                session_id,
                total: count as usize,
            });
        }
    }
    Ok(ActiveMessages::Listed(
        active_path(store, source)?
            .into_iter()
            .filter(|a| a.message_position.is_some())
            .map(|a| a.seq)
            .collect(),
    ))
}

fn projection(store: &AgentStore, source: &TranscriptSource) -> Result<Option<Vec<ActiveEvent>>> {
    let Some((db, session_id)) = fresh_projection(store, source)? else {
        return Ok(None);
    };
    let conn = db.conn();
    let rows = event_index::active_branch(conn, session_id, |seq, event_id, message_position| {
        ActiveEvent {
            seq,
            event_id,
            message_position,
        }
    })
    .at(db.path())?;
    Ok(Some(rows))
}

/// Walk `parentId` links back from the leaf: the last event with an id, or the target of
/// a trailing `leaf` record.
pub fn derive(store: &AgentStore, source: &TranscriptSource) -> Result<Vec<ActiveEvent>> {
    struct Node {
        seq: i64,
        parent: Option<String>,
        has_message: bool,
    }
    let mut nodes: HashMap<String, Node> = HashMap::new();
    let mut leaf: Option<String> = None;
    source.for_each(store, 0, &mut |ev| {
        let Ok(shape) = crate::json_value::from_str::<EventShape>(&ev.json) else {
            return Ok(ControlFlow::Continue(()));
        };
        if shape.kind.as_deref() == Some("session") {
            return Ok(ControlFlow::Continue(()));
        }
        if shape.kind.as_deref() == Some("leaf") {
            if let Some(t) = shape.target_id {
                leaf = Some(t);
            }
            return Ok(ControlFlow::Continue(()));
        }
        if let Some(id) = shape.id {
            leaf = Some(id.clone());
            nodes.insert(
                id,
                Node {
                    seq: ev.seq,
                    parent: shape.parent_id,
                    has_message: shape.message.is_some(),
                },
            );
        }
        Ok(ControlFlow::Continue(()))
    })?;
    let mut path = Vec::new();
    let mut cur = leaf;
    let mut guard = nodes.len() + 1;
    while let Some(id) = cur {
        let Some(node) = nodes.get(&id) else { break };
        path.push((id.clone(), node.seq, node.has_message));
        cur = node.parent.clone();
        guard -= 1;
        if guard == 0 {
            break; // a parent cycle: stop rather than loop
        }
    }
    path.reverse();
    let mut position = 0;
    Ok(path
        .into_iter()
        .map(|(id, seq, has_message)| {
            let message_position = has_message.then(|| {
                position += 1;
                position - 1
            });
            ActiveEvent {
                seq,
                event_id: Some(id),
                message_position,
            }
        })
        .collect())
}
