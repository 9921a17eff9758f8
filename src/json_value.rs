//! Reading loosely typed JSON the way OpenClaw's normalizers do (`normalizeOptionalString`,
//! `Number.isFinite`, JavaScript truthiness).

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
