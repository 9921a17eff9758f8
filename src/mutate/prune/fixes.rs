//! `--fix-missing`: sessions whose transcripts hold no message (OpenClaw's
//! `pruneMissingTranscriptEntries`, docs/openclaw/MAINTENANCE.md §3.2), decided more carefully
//! than OpenClaw does: a transcript with any row that cannot be read is kept, so a torn row can
//! never make a readable transcript look empty. What is removed still has its transcript
//! archived by the deletion.

use std::ops::ControlFlow;

use serde_json::Value;

use super::rules::rest_of;
use crate::error::Result;
use crate::store::{AgentStore, SessionEntry};
use crate::transcript::TranscriptSource;

/// Entry fields [`missing_transcript`] reads beyond the planner's.
pub const FIX_MISSING_FIELDS: &[&str] = &["initializationPending", "sessionFile"];

/// `isTranscriptMessageRecord`.
fn is_message(event: &Value) -> bool {
    let role_is_message = |v: Option<&Value>| {
        matches!(
            v.and_then(Value::as_str),
            Some("user" | "assistant" | "tool" | "toolResult" | "system")
        )
    };
    match event.get("type") {
        Some(t) => t.as_str() == Some("message"),
        None => {
            event
                .get("message")
                .is_some_and(|m| m.is_object() && role_is_message(m.get("role")))
                || role_is_message(event.get("role"))
        }
    }
}

/// Whether `--fix-missing` removes this session: not locked or archived, not a session still
/// being set up, and its whole transcript read without a single message. A transcript that
/// cannot be read whole (a torn or undecodable row, cold storage) keeps its session.
pub fn missing_transcript(store: &AgentStore, e: &SessionEntry) -> Result<bool> {
    if e.locked() || e.fields.contains_key("archivedAt") {
        return Ok(false);
    }
    let agent_key = rest_of(&e.key).is_some();
    let session_id = e.session_id();
    let has_session_file = e.text("sessionFile").is_some_and(|f| !f.trim().is_empty());
    if agent_key
        && (e.fields.get("initializationPending") == Some(&Value::Bool(true))
            || (session_id == e.key && !has_session_file))
    {
        return Ok(false);
    }
    if session_id.is_empty() {
        return Ok(!agent_key);
    }
    let Ok(source) = TranscriptSource::for_session(store, session_id) else {
        return Ok(false);
    };
    let mut messages = false;
    let mut unreadable = false;
    let read = source.for_each(store, 0, &mut |ev| {
        match crate::json_value::from_str::<Value>(&ev.json) {
            Ok(v) if is_message(&v) => messages = true,
            Ok(_) => {}
            Err(_) => unreadable = true,
        }
        Ok(if messages || unreadable {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    });
    Ok(read.is_ok() && !messages && !unreadable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_records_as_openclaw_counts_them() {
        for (json, message) in [
            (r#"{"type":"message","message":{"role":"user"}}"#, true),
            (r#"{"message":{"role":"toolResult"}}"#, true),
            (r#"{"role":"assistant"}"#, true),
            (r#"{"type":"session","id":"x"}"#, false),
            (r#"{"type":null,"role":"user"}"#, false),
            (r#"{"message":{"role":"other"}}"#, false),
            (r#"{"message":"user"}"#, false),
        ] {
            let v: Value = crate::json_value::from_str(json).unwrap();
            assert_eq!(is_message(&v), message, "{json}");
        }
    }
}
