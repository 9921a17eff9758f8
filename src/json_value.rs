//! Reading loosely typed JSON the way OpenClaw's normalizers do (`normalizeOptionalString`,
//! `Number.isFinite`, JavaScript truthiness), and JSON5 documents (`openclaw.json`,
//! `sessions.json`).

use serde_json::Value;

/// A trimmed, non-empty string (`normalizeOptionalString`).
pub fn text(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
}

/// A finite number.
pub fn finite(v: Option<&Value>) -> Option<f64> {
    v.and_then(Value::as_f64).filter(|f| f.is_finite())
}

/// JavaScript truthiness of a parsed value (`null`, `false`, `0`, `""` and absence are false).
pub fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

/// Parse JSON5 into an order-preserving JSON value; errors carry line and column.
pub(crate) fn parse_json5_document(
    text: &str,
) -> std::result::Result<Value, (String, Option<usize>, Option<usize>)> {
    json5::from_str::<Value>(text).map_err(|e| match e {
        json5::Error::Message { msg, location } => {
            let first = msg.lines().last().unwrap_or(&msg).trim().to_string();
            (
                first,
                location.as_ref().map(|l| l.line),
                location.as_ref().map(|l| l.column),
            )
        }
    })
}
