//! `du --sessions`: each transcript of an agent database with its events and bytes, the
//! largest first (or by another order), read in one grouped walk of `transcript_events`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use serde::Serialize;

use crate::error::{Result, ResultExt};
use crate::store::db::events;
use crate::store::{AgentSchema, ReadOnlyDb};

/// How `du --sessions` orders the transcripts (the first are shown).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionSort {
    /// Serialized event bytes, largest first.
    Bytes,
    /// Bytes of the stored cells (compressed frames as stored), largest first.
    Stored,
    /// Events, most first.
    Events,
    /// Newest event, most recent first.
    Updated,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionDiskUse {
    pub agent_id: String,
    pub session_id: String,
    /// Null for a transcript without a window (the doctor's orphan finding).
    pub session_key: Option<String>,
    pub events: u64,
    pub bytes: u64,
    pub stored_bytes: u64,
    pub last_event_at: Option<i64>,
}

impl SessionDiskUse {
    fn rank(&self, sort: SessionSort) -> (i64, String) {
        let v = match sort {
            SessionSort::Bytes => self.bytes as i64,
            SessionSort::Stored => self.stored_bytes as i64,
            SessionSort::Events => self.events as i64,
            SessionSort::Updated => self.last_event_at.unwrap_or(i64::MIN),
        };
        // Ties broken by session id, so the order is the same on every run.
        (v, self.session_id.clone())
    }
}

/// The transcripts of one agent database, all of them counted, the first `limit` in `sort`
/// order kept (a heap of `limit` rows: memory does not grow with the number of sessions).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentSessions {
    pub agent_id: String,
    pub transcripts: u64,
    pub events: u64,
    pub bytes: u64,
    pub stored_bytes: u64,
    pub sessions: Vec<SessionDiskUse>,
}

pub fn agent_sessions(
    agent_id: &str,
    db: &ReadOnlyDb,
    sort: SessionSort,
    limit: Option<usize>,
) -> Result<AgentSessions> {
    let schema = AgentSchema::of(db.conn()).at(db.path())?;
    let mut out = AgentSessions {
        agent_id: agent_id.to_string(),
        transcripts: 0,
        events: 0,
        bytes: 0,
        stored_bytes: 0,
        sessions: Vec::new(),
    };
    // Smallest rank on top, so the heap keeps the largest `limit`.
    let mut heap: BinaryHeap<Reverse<((i64, String), usize)>> = BinaryHeap::new();
    let mut slots: Vec<Option<SessionDiskUse>> = Vec::new();
    let mut free: Vec<usize> = Vec::new();
    events::sizes(db.conn(), schema, |t| {
        let s = SessionDiskUse {
            agent_id: agent_id.to_string(),
            session_id: t.session_id,
            session_key: t.session_key,
            events: t.events.max(0) as u64,
            bytes: t.bytes.max(0) as u64,
            stored_bytes: t.stored_bytes.max(0) as u64,
            last_event_at: t.last_event_at,
        };
        out.transcripts += 1;
        out.events += s.events;
        out.bytes += s.bytes;
        out.stored_bytes += s.stored_bytes;
        let rank = s.rank(sort);
        if limit.is_some_and(|l| heap.len() >= l) {
            match heap.peek() {
                Some(Reverse((low, _))) if *low < rank => {}
                _ => return,
            }
            if let Some(Reverse((_, slot))) = heap.pop() {
                slots[slot] = None;
                free.push(slot);
            }
        }
        if limit == Some(0) {
            return;
        }
        let slot = match free.pop() {
            Some(i) => {
                slots[i] = Some(s);
                i
            }
            None => {
                slots.push(Some(s));
                slots.len() - 1
            }
        };
        heap.push(Reverse((rank, slot)));
    })
    .at(db.path())?;
    let mut kept: Vec<SessionDiskUse> = slots.into_iter().flatten().collect();
    kept.sort_by_key(|s| Reverse(s.rank(sort)));
    out.sessions = kept;
    Ok(out)
}
