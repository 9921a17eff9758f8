//! `transcript export`: a JSONL file in the legacy transcript format (header first, each
//! line the stored event JSON) that OpenClaw's legacy import accepts, or readable Markdown.

use std::io::Write;
use std::ops::ControlFlow;

use serde_json::Value;

use super::branch::active_path;
use super::TranscriptSource;
use crate::error::{Error, Remedy, Result};
use crate::store::{AgentStore, SessionEntry};

fn io(e: std::io::Error) -> Error {
    Error::io("<export output>", e)
}

/// Every event of the generation in `seq` order, one per line.
pub fn export_jsonl(
    store: &AgentStore,
    source: &TranscriptSource,
    out: &mut dyn Write,
) -> Result<u64> {
    let mut n = 0u64;
    source.for_each(store, 0, &mut |ev| {
        if n == 0 && !ev.json.contains("\"type\":\"session\"") {
            return Err(Error::bad_input(
                format!(
                    "transcript {} does not start with its session header",
                    source.session_id()
                ),
                Some("OpenClaw's import would rewrite every event id; run the doctor".to_string()),
            )
            .with_remedy(Remedy::RunDoctor));
        }
        out.write_all(ev.json.as_bytes()).map_err(io)?;
        out.write_all(b"\n").map_err(io)?;
        n += 1;
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(n)
}

/// The text parts of a message's `content` (and its tool calls, one line each).
pub fn text_of(content: &Value) -> Vec<String> {
    match content {
        Value::String(s) => vec![s.clone()],
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| match p.get("type").and_then(Value::as_str) {
                Some("text" | "input_text" | "output_text") => {
                    p.get("text").and_then(Value::as_str).map(String::from)
                }
                Some("toolCall" | "tool_use" | "toolUse") => Some(format!(
                    "> tool call `{}` {}",
                    p.get("name").and_then(Value::as_str).unwrap_or("?"),
                    p.get("arguments")
                        .or_else(|| p.get("input"))
                        .map(|a| a.to_string())
                        .unwrap_or_default()
                )),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn fence(text: &str) -> String {
    let mut ticks = "```".to_string();
    while text.contains(&ticks) {
        ticks.push('`');
    }
    format!("{ticks}\n{text}\n{ticks}")
}

/// The active branch's user and assistant messages and tool results as Markdown.
pub fn export_markdown(
    store: &AgentStore,
    entry: &SessionEntry,
    source: &TranscriptSource,
    out: &mut dyn Write,
) -> Result<u64> {
    let title = entry.label().or(entry.display_name()).unwrap_or(&entry.key);
    writeln!(out, "# {title}\n").map_err(io)?;
    writeln!(out, "- Session key: `{}`", entry.key).map_err(io)?;
    writeln!(out, "- Session id: `{}`", source.session_id()).map_err(io)?;
    writeln!(
        out,
        "- Updated: {}",
        crate::units::iso_from_ms(entry.updated_at())
    )
    .map_err(io)?;
    if let Some(m) = entry.model() {
        writeln!(out, "- Model: {m}").map_err(io)?;
    }
    writeln!(out).map_err(io)?;
    let path = active_path(store, source)?;
    let on_branch: std::collections::HashSet<i64> = path.iter().map(|a| a.seq).collect();
    let mut n = 0u64;
    source.for_each(store, 0, &mut |ev| {
        if !on_branch.contains(&ev.seq) {
            return Ok(ControlFlow::Continue(()));
        }
        let v: Value = crate::json_value::from_str(&ev.json).unwrap_or(Value::Null);
        if v.get("type").and_then(Value::as_str) != Some("message") {
            return Ok(ControlFlow::Continue(()));
        }
        let Some(msg) = v.get("message") else {
            return Ok(ControlFlow::Continue(()));
        };
        let ts = v.get("timestamp").and_then(Value::as_str).unwrap_or("");
        let content = msg.get("content").cloned().unwrap_or(Value::Null);
        let (heading, body) = match msg.get("role").and_then(Value::as_str) {
            Some("user") => ("User".to_string(), text_of(&content).join("\n\n")),
            Some("assistant") => ("Assistant".to_string(), text_of(&content).join("\n\n")),
            Some("toolResult") => (
                format!(
                    "Tool result `{}`",
                    msg.get("toolName").and_then(Value::as_str).unwrap_or("?")
                ),
                fence(&text_of(&content).join("\n")),
            ),
            _ => return Ok(ControlFlow::Continue(())),
        };
        if body.trim().is_empty() {
            return Ok(ControlFlow::Continue(()));
        }
        writeln!(out, "## {heading} · {ts}\n\n{body}\n").map_err(io)?;
        n += 1;
        Ok(ControlFlow::Continue(()))
    })?;
    Ok(n)
}
