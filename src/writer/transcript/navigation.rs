//! `navigation_json` of a compressed event, built in Rust. OpenClaw builds it with the SQL
//! in `navigation_json.sql`; running that SQL per event was a third of the import's time.
//!
//! The event reaching here is `JSON.stringify` output without `\u` escapes, so SQLite
//! renders its strings, integers and subtrees exactly as [`write_js`] does. Where SQLite
//! would render a value differently (a non-integral number re-printed by `json_each`, a
//! boolean or container read through `json_extract`), [`project`] answers `Unsupported`
//! and the caller runs OpenClaw's SQL instead.

use serde_json::{Map, Value};

use super::convert::{js_integral, write_js, write_js_str};

/// Largest `navigation_json` OpenClaw keeps.
const MAX_NAVIGATION_BYTES: usize = 16 * 1024;

const ROOT_KEYS: [&str; 20] = [
    "type",
    "id",
    "parentId",
    "targetId",
    "appendParentId",
    "appendMode",
    "timestamp",
    "version",
    "cwd",
    "firstKeptEntryId",
    "reason",
    "tokensBefore",
    "thinkingLevel",
    "provider",
    "modelId",
    "fromId",
    "customType",
    "display",
    "label",
    "name",
];
/// The root keys of `navigation`: [`ROOT_KEYS`] and `message`.
const NAVIGATION_ROOT_KEYS: [&str; ROOT_KEYS.len() + 1] = {
    let mut keys = [""; ROOT_KEYS.len() + 1];
    let mut i = 0;
    while i < ROOT_KEYS.len() {
        keys[i] = ROOT_KEYS[i];
        i += 1;
    }
    keys[ROOT_KEYS.len()] = "message";
    keys
};
const NAVIGATION_MESSAGE_KEYS: [&str; 5] = [
    "role",
    "idempotencyKey",
    "provenance",
    "excludeFromContext",
    "__openclaw",
];
const NAVIGATION_OPENCLAW_KEYS: [&str; 3] = ["runId", "steerTargetRunId", "contextFreeCommand"];
const RESET_KEYS: [&str; 10] = [
    "type",
    "id",
    "parentId",
    "targetId",
    "appendParentId",
    "appendMode",
    "timestamp",
    "firstKeptEntryId",
    "customType",
    "display",
];
const MODEL_MESSAGE_KEYS: [&str; 16] = [
    "role",
    "provider",
    "model",
    "timestamp",
    "excludeFromContext",
    "toolCallId",
    "toolUseId",
    "tool_call_id",
    "tool_use_id",
    "callId",
    "call_id",
    "toolName",
    "isError",
    "stopReason",
    "customType",
    "display",
];
const TOOL_CALL_TYPES: [&str; 3] = ["toolCall", "toolUse", "functionCall"];
const SYNTHETIC_RESULT_TEXT: &str =
    "[openclaw] missing tool result in session history; inserted synthetic error result for transcript repair.";

/// SQLite would print a value of this event differently from `JSON.stringify`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Unsupported;

type Rendered<T> = Result<T, Unsupported>;

/// The `navigation_json` OpenClaw stores beside the frame of `event` (None: it stores none).
/// `json_len` is the length of the event's JSON, `report` the JSON of its report facts.
pub fn project(event: &Value, json_len: usize, report: &str) -> Rendered<Option<String>> {
    let Some(root) = event.as_object() else {
        return Ok(None);
    };
    let message = match root.get("message") {
        None | Some(Value::Null) => None,
        Some(Value::Object(m)) => Some(m),
        Some(_) => return Ok(None),
    };
    let mut out = String::with_capacity(512);
    out.push_str("{\"version\":1,\"report\":");
    out.push_str(report);
    out.push_str(",\"navigation\":");
    navigation(root, &mut out)?;
    out.push_str(",\"reset\":");
    reset(root, message, &mut out)?;
    out.push_str(",\"model\":");
    model(root, message, &mut out)?;
    let sizes = sizes(root, message, json_len);
    use std::fmt::Write;
    let _ = write!(
        out,
        ",\"modelBytes\":{},\"modelWithoutCheckpointBytes\":{},\"withoutCustomDataBytes\":{}}}",
        sizes[0], sizes[1], sizes[2]
    );
    Ok((out.len() <= MAX_NAVIGATION_BYTES).then_some(out))
}

/// A member value as `json_each` hands it to `json_group_object`: subtrees and literals
/// verbatim, strings re-escaped, numbers re-printed from their SQL value.
fn member(v: &Value, out: &mut String) -> Rendered<()> {
    if let Value::Number(n) = v {
        if n.as_i64().is_none() && js_integral(n).is_none() {
            return Err(Unsupported);
        }
    }
    write_js(v, out);
    Ok(())
}

/// A scalar read with `json_extract`: booleans and containers would change shape.
fn extracted(v: Option<&Value>, out: &mut String) -> Rendered<()> {
    match v {
        None | Some(Value::Null) => out.push_str("null"),
        Some(v @ (Value::String(_) | Value::Number(_))) => member(v, out)?,
        Some(_) => return Err(Unsupported),
    }
    Ok(())
}

/// `json_group_object` over the members of `object` named in `keys`, in document order,
/// left open so the caller can append members as `json_set` does.
fn open_subset(
    object: &Map<String, Value>,
    keys: &[&str],
    out: &mut String,
    mut render: impl FnMut(&str, &Value, &mut String) -> Rendered<()>,
) -> Rendered<bool> {
    out.push('{');
    let mut any = false;
    for (k, v) in object {
        if !keys.contains(&k.as_str()) {
            continue;
        }
        if any {
            out.push(',');
        }
        any = true;
        write_js_str(k, out);
        out.push(':');
        render(k, v, out)?;
    }
    Ok(any)
}

fn subset(object: &Map<String, Value>, keys: &[&str], out: &mut String) -> Rendered<bool> {
    open_subset(object, keys, out, |_, v, out| member(v, out))
}

/// Append `"key":` to an object left open by [`open_subset`].
fn append_key(any: &mut bool, key: &str, out: &mut String) {
    if *any {
        out.push(',');
    }
    *any = true;
    write_js_str(key, out);
    out.push(':');
}

fn navigation(root: &Map<String, Value>, out: &mut String) -> Rendered<()> {
    open_subset(root, &NAVIGATION_ROOT_KEYS, out, |k, v, out| match (k, v) {
        ("message", Value::Object(m)) => {
            open_subset(m, &NAVIGATION_MESSAGE_KEYS, out, |k, v, out| match (k, v) {
                ("__openclaw", Value::Object(o)) => {
                    subset(o, &NAVIGATION_OPENCLAW_KEYS, out)?;
                    out.push('}');
                    Ok(())
                }
                _ => member(v, out),
            })?;
            out.push('}');
            Ok(())
        }
        _ => member(v, out),
    })?;
    out.push('}');
    Ok(())
}

fn reset(
    root: &Map<String, Value>,
    message: Option<&Map<String, Value>>,
    out: &mut String,
) -> Rendered<()> {
    let mut any = subset(root, &RESET_KEYS, out)?;
    append_key(&mut any, "message", out);
    out.push_str("{\"role\":");
    extracted(message.and_then(|m| m.get("role")), out)?;
    out.push_str("}}");
    Ok(())
}

fn model(
    root: &Map<String, Value>,
    message: Option<&Map<String, Value>>,
    out: &mut String,
) -> Rendered<()> {
    let mut any = subset(root, &ROOT_KEYS, out)?;
    match root.get("type").and_then(Value::as_str) {
        Some("message") => {
            append_key(&mut any, "message", out);
            model_message(message, out)?;
        }
        Some("custom_message") => {
            append_key(&mut any, "content", out);
            out.push_str("[]");
        }
        Some("compaction" | "branch_summary") => {
            append_key(&mut any, "summary", out);
            out.push_str("\"\"");
        }
        _ => {}
    }
    out.push('}');
    Ok(())
}

/// The members of `message.content` `json_each` visits: array items or object values.
fn content_items(message: Option<&Map<String, Value>>) -> Box<dyn Iterator<Item = &Value> + '_> {
    match message.and_then(|m| m.get("content")) {
        Some(Value::Array(a)) => Box::new(a.iter()),
        Some(Value::Object(o)) => Box::new(o.values()),
        _ => Box::new(std::iter::empty()),
    }
}

fn model_message(message: Option<&Map<String, Value>>, out: &mut String) -> Rendered<()> {
    let empty = Map::new();
    let mut any = subset(message.unwrap_or(&empty), &MODEL_MESSAGE_KEYS, out)?;
    append_key(&mut any, "content", out);
    out.push('[');
    let mut first = true;
    for item in content_items(message).filter_map(Value::as_object) {
        let kind = item.get("type").and_then(Value::as_str);
        if !kind.is_some_and(|k| TOOL_CALL_TYPES.contains(&k)) {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        out.push_str("{\"type\":");
        extracted(item.get("type"), out)?;
        out.push_str(",\"id\":");
        extracted(item.get("id"), out)?;
        out.push_str(",\"name\":");
        extracted(item.get("name"), out)?;
        out.push('}');
    }
    out.push_str("],\"command\":\"\",\"output\":\"\",\"providerReplay\":{\"type\":");
    let replay = message.and_then(|m| m.get("providerReplay"));
    extracted(
        replay
            .and_then(Value::as_object)
            .and_then(|r| r.get("type")),
        out,
    )?;
    out.push_str("},\"details\":{\"openclawSyntheticMissingToolResult\":");
    out.push_str(if synthetic_result(message) {
        "true"
    } else {
        "false"
    });
    out.push_str("}}");
    Ok(())
}

/// `COALESCE(details.openclawSyntheticMissingToolResult, 0) = 1`, or the repair's text.
fn synthetic_result(message: Option<&Map<String, Value>>) -> bool {
    let flagged = message
        .and_then(|m| m.get("details"))
        .and_then(Value::as_object)
        .and_then(|d| d.get("openclawSyntheticMissingToolResult"))
        .is_some_and(|f| match f {
            Value::Bool(b) => *b,
            Value::Number(n) => n.as_f64() == Some(1.0),
            _ => false,
        });
    flagged
        || content_items(message)
            .filter_map(Value::as_object)
            .any(|item| {
                item.get("type").and_then(Value::as_str) == Some("text")
                    && item.get("text").and_then(Value::as_str) == Some(SYNTHETIC_RESULT_TEXT)
            })
}

/// Bytes `json_remove` takes out of the event's JSON when it drops `key` from `object`,
/// which then has `members` members: the member and one comma if others remain.
fn removed(object: &Map<String, Value>, key: &str, members: &mut usize) -> usize {
    let Some(v) = object.get(key) else {
        return 0;
    };
    let mut text = String::new();
    write_js_str(key, &mut text);
    write_js(v, &mut text);
    let comma = usize::from(*members > 1);
    *members -= 1;
    text.len() + 1 + comma
}

/// `modelBytes`, `modelWithoutCheckpointBytes` and `withoutCustomDataBytes`.
fn sizes(
    root: &Map<String, Value>,
    message: Option<&Map<String, Value>>,
    json_len: usize,
) -> [usize; 3] {
    let mut model = json_len;
    let mut without_checkpoint = json_len;
    if let Some(m) = message {
        if let Some(Value::Object(o)) = m.get("__openclaw") {
            let upstream = removed(o, "upstreamUserText", &mut o.len());
            model -= upstream;
            without_checkpoint -= upstream;
        }
        let mut members = m.len();
        if m.get("role").and_then(Value::as_str) == Some("toolResult") {
            let details = removed(m, "details", &mut members);
            model -= details;
            without_checkpoint -= details;
        }
        without_checkpoint -= removed(m, "providerReplay", &mut members);
    }
    let data = removed(root, "data", &mut root.len());
    [model, without_checkpoint, json_len - data]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::writer::transcript::convert::js_stringify;
    use crate::writer::transcript::payload::{navigation_sql, report_facts};
    use proptest::prelude::*;
    use rusqlite::Connection;
    use serde_json::json;

    /// The Rust projection equals OpenClaw's SQL, or leaves the event to it.
    fn agrees(conn: &Connection, event: &Value) -> bool {
        let text = js_stringify(event);
        let report = serde_json::to_string(&report_facts(event)).unwrap();
        let sql = navigation_sql(conn, &text, &report).unwrap();
        match project(event, text.len(), &report) {
            Ok(ours) => {
                assert_eq!(ours, sql, "event {text}");
                true
            }
            Err(Unsupported) => false,
        }
    }

    fn fixture_databases() -> Vec<std::path::PathBuf> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut found = Vec::new();
        let mut stack = vec![root];
        while let Some(dir) = stack.pop() {
            for e in std::fs::read_dir(&dir).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.file_name().is_some_and(|n| n == "openclaw-agent.sqlite") {
                    found.push(p);
                }
            }
        }
        found
    }

    /// Every event OpenClaw stored in the fixtures: the compressed ones get OpenClaw's own
    /// `navigation_json` back, and every event gets what the SQL computes.
    #[test]
    fn fixture_events_match_openclaw() {
        let conn = Connection::open_in_memory().unwrap();
        let (mut compared, mut stored) = (0, 0);
        for db in fixture_databases() {
            let uri = format!("file:{}?immutable=1", db.display());
            let flags =
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_URI;
            let fixture = Connection::open_with_flags(uri, flags).unwrap();
            // Releases before 2026.9.6 store no compressed event (tests/fixtures/openclaw-2026.8.2).
            let version: i64 = fixture
                .query_row("PRAGMA user_version", [], |r| r.get(0))
                .unwrap();
            if version < 23 {
                continue;
            }
            let mut stmt = fixture
                .prepare("SELECT session_id, seq, event_json, event_zstd, event_utf8_bytes, navigation_json FROM transcript_events")
                .unwrap();
            let rows = stmt
                .query_map([], |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, Option<Vec<u8>>>(3)?,
                        r.get::<_, Option<i64>>(4)?,
                        r.get::<_, Option<String>>(5)?,
                    ))
                })
                .unwrap();
            for row in rows {
                let (sid, seq, text, frame, len, navigation) = row.unwrap();
                let (text, _) =
                    crate::transcript::decode_event_row(&sid, seq, text, frame.as_deref(), len)
                        .unwrap();
                let event: Value = crate::json_value::from_str(&text).unwrap();
                assert_eq!(js_stringify(&event), text);
                assert!(agrees(&conn, &event), "left to SQL: {text}");
                compared += 1;
                if let Some(navigation) = navigation {
                    let report = serde_json::to_string(&report_facts(&event)).unwrap();
                    assert_eq!(project(&event, text.len(), &report), Ok(Some(navigation)));
                    stored += 1;
                }
            }
        }
        assert!(
            compared > 1000 && stored > 40,
            "{compared} events, {stored} stored"
        );
    }

    #[test]
    fn edge_events_match_the_sql() {
        let conn = Connection::open_in_memory().unwrap();
        let synthetic = SYNTHETIC_RESULT_TEXT;
        let cases = [
            json!({}),
            json!({"type": "message", "message": null}),
            json!({"type": "message", "message": "text"}),
            json!({"type": "message", "id": "a", "message": {"role": "toolResult", "details": {"x": 1}, "providerReplay": {"type": "r"}}}),
            json!({"type": "message", "message": {"details": 1, "providerReplay": 2}}),
            json!({"type": "message", "message": {"role": "toolResult", "details": {"openclawSyntheticMissingToolResult": true}}}),
            json!({"type": "message", "message": {"role": "user", "details": {"openclawSyntheticMissingToolResult": 1}}}),
            json!({"type": "message", "message": {"details": {"openclawSyntheticMissingToolResult": "1"}}}),
            json!({"type": "message", "message": {"content": [{"type": "text", "text": synthetic}]}}),
            json!({"type": "message", "message": {"content": {"a": {"type": "toolUse", "id": "i", "name": "n"}}}}),
            json!({"type": "message", "message": {"content": [{"type": "toolCall", "id": 7}, {"type": "functionCall"}, "x", 3]}}),
            json!({"type": "message", "message": {"__openclaw": {"runId": "r", "upstreamUserText": "u", "other": [1]}, "role": "assistant"}}),
            json!({"type": "message", "message": {"__openclaw": {"upstreamUserText": "only"}}}),
            json!({"type": "message", "message": {"__openclaw": "not an object", "provenance": {"a": [true, null]}}}),
            json!({"type": "custom_message", "content": "x", "display": true}),
            json!({"type": "compaction", "summary": "s", "tokensBefore": 12}),
            json!({"type": "branch_summary", "fromId": "f"}),
            json!({"type": 5, "data": {"k": "v"}}),
            json!({"data": 1}),
            json!({"type": "x", "label": "quote \" backslash \\ tab \t newline \n ctl \u{8}\u{c} del \u{7f} sep \u{2028} é 😀"}),
            json!({"type": "x", "version": 3.0, "appendMode": -0.0}),
            json!({"type": "message", "message": {"role": "assistant", "timestamp": 1_700_000_000_000_i64, "isError": false}}),
        ];
        for case in &cases {
            assert!(agrees(&conn, case), "left to SQL: {case}");
        }
        // What SQLite prints differently is left to it, and the SQL still runs.
        for case in [
            json!({"type": "x", "tokensBefore": 1.5}),
            json!({"type": "message", "message": {"role": true}}),
            json!({"type": "message", "message": {"content": [{"type": "toolUse", "id": {"a": 1}}]}}),
            json!({"type": "message", "message": {"providerReplay": {"type": 2.5}}}),
            json!({"type": "x", "id": 1e300}),
        ] {
            assert!(!agrees(&conn, &case), "{case}");
        }
    }

    fn scalar() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            (-1e6f64..1e6).prop_map(|f| json!(f)),
            "[a-z\"\\\\\t\n\u{7f}\u{2028}é ]{0,8}".prop_map(Value::from),
            prop::sample::select(vec![
                "toolCall",
                "toolUse",
                "text",
                "message",
                "toolResult",
                SYNTHETIC_RESULT_TEXT
            ])
            .prop_map(Value::from),
        ]
    }

    fn value() -> impl Strategy<Value = Value> {
        scalar().prop_recursive(3, 24, 6, |inner| {
            let keys = prop::sample::select(vec![
                "type",
                "id",
                "role",
                "content",
                "details",
                "providerReplay",
                "__openclaw",
                "runId",
                "upstreamUserText",
                "text",
                "name",
                "openclawSyntheticMissingToolResult",
                "data",
                "label",
                "display",
                "other",
            ]);
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::vec((keys, inner), 0..6).prop_map(|members| Value::Object(
                    members
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect()
                )),
            ]
        })
    }

    fn event() -> impl Strategy<Value = Value> {
        let kinds = prop::sample::select(vec![
            "message",
            "custom_message",
            "compaction",
            "branch_summary",
            "label",
        ]);
        let root_keys = prop::sample::select(
            ROOT_KEYS
                .iter()
                .chain(["message", "data", "content"].iter())
                .copied()
                .collect::<Vec<_>>(),
        );
        (
            kinds,
            prop::collection::vec((root_keys, value()), 0..8),
            value(),
        )
            .prop_map(|(kind, members, message)| {
                let mut root = Map::new();
                root.insert("type".into(), json!(kind));
                for (k, v) in members {
                    root.insert(k.to_string(), v);
                }
                if kind == "message" {
                    root.insert("message".into(), message);
                }
                Value::Object(root)
            })
    }

    /// Random events: every one the projection renders equals the SQL, and most are.
    #[test]
    fn random_events_match_the_sql() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::{Config, TestRunner};
        let conn = Connection::open_in_memory().unwrap();
        let mut runner = TestRunner::new(Config::with_cases(3000));
        let (mut rendered, mut left) = (0, 0);
        for _ in 0..3000 {
            let event = event().new_tree(&mut runner).unwrap().current();
            if agrees(&conn, &event) {
                rendered += 1;
            } else {
                left += 1;
            }
        }
        assert!(
            rendered > 2 * left,
            "{rendered} rendered, {left} left to SQL"
        );
    }

    #[test]
    fn navigation_root_keys_are_the_root_keys_and_message() {
        assert_eq!(NAVIGATION_ROOT_KEYS[..20], ROOT_KEYS);
        assert_eq!(NAVIGATION_ROOT_KEYS[20], "message");
    }

    #[test]
    fn writer_equals_serde_after_integral_doubles() {
        let v = json!({"a": [1.0, 2.5, -0.0, 1e300, "q\"\\\u{1}\u{1f}\u{7f}é"], "b": {"c": null, "d": true}});
        let mut fixed = v.clone();
        fixed["a"][0] = json!(1);
        fixed["a"][2] = json!(0);
        assert_eq!(js_stringify(&v), serde_json::to_string(&fixed).unwrap());
    }
}
