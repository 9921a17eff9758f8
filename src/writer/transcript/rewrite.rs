//! One stored event replaced in place by another text of the same event, the way OpenClaw
//! stores an event it appends (`prepareTranscriptPayload`): plain or a zstd frame with its
//! navigation, `event_utf8_bytes` the length of the new JSON. The event keeps its `seq`,
//! clock, identity, active-branch rows and rewrite generation; a rewrite that would change
//! what the event projects (its search text, identity or navigation facts) is refused, so
//! the projections OpenClaw keeps beside the row stay true without being rebuilt.

use rusqlite::Transaction;
use serde_json::Value;

use super::append::{event_id, Stored};
use super::payload::{prepare, report_facts, StoredPayload};
use super::projection::searchable_text;
use crate::store::db::events;
use crate::store::AgentSchema;

/// Why a rewrite was refused.
#[derive(Debug)]
pub enum RewriteError {
    Sqlite(rusqlite::Error),
    /// The new text projects differently from the stored one (what differs).
    Projection(&'static str),
    /// No row at that key.
    Missing,
}

impl From<rusqlite::Error> for RewriteError {
    fn from(e: rusqlite::Error) -> Self {
        RewriteError::Sqlite(e)
    }
}

/// What the projections and identity rows read of an event: its search row, its navigation
/// facts, its identity.
#[derive(PartialEq)]
struct Projected {
    search: Option<(String, String, String, u64)>,
    facts: Value,
    identity: Value,
}

fn projected(e: &Value) -> Projected {
    Projected {
        search: searchable_text(e, 0).map(|(id, role, text, ts)| (id, role, text, ts.to_bits())),
        facts: report_facts(e),
        identity: serde_json::json!([
            event_id(e),
            e.get("type"),
            e.get("parentId"),
            e.get("message").and_then(|m| m.get("idempotencyKey")),
            e.get("message").and_then(|m| m.get("excludeFromContext")),
        ]),
    }
}

/// Replace the payload of `(session_id, seq)`, whose stored event is `old`, by `json` (the
/// event `new`).
pub fn rewrite_event(
    tx: &Transaction<'_>,
    schema: AgentSchema,
    session_id: &str,
    seq: i64,
    old: &Value,
    json: &str,
    new: &Value,
) -> Result<Stored, RewriteError> {
    let (a, b) = (projected(old), projected(new));
    if a.search != b.search {
        return Err(RewriteError::Projection("search text"));
    }
    if a.facts != b.facts {
        return Err(RewriteError::Projection("navigation facts"));
    }
    if a.identity != b.identity {
        return Err(RewriteError::Projection("identity"));
    }
    let (stored, changed) = if schema.compresses_events() {
        match prepare(tx, json, new)? {
            StoredPayload::Plain => (
                Stored::Plain,
                events::replace_payload(tx, schema, session_id, seq, json, None)?,
            ),
            StoredPayload::Compressed { frame, navigation } => (
                Stored::Compressed,
                events::replace_payload(
                    tx,
                    schema,
                    session_id,
                    seq,
                    json,
                    Some((&frame, &navigation)),
                )?,
            ),
        }
    } else {
        (
            Stored::Plain,
            events::replace_payload(tx, schema, session_id, seq, json, None)?,
        )
    };
    if changed != 1 {
        return Err(RewriteError::Missing);
    }
    Ok(stored)
}
