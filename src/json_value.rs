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

/// Parse JSON of any depth (docs/openclaw/HOSTILE.md §10): OpenClaw's `JSON.parse` has no
/// depth limit, so an event or entry nested deeper than serde_json's default 128 levels is
/// still data. The recursion limit is off and the stack grows on the heap as the parser goes
/// deeper (`serde_stacker`), so no depth overflows the thread's stack.
pub fn from_str<'a, T: serde::Deserialize<'a>>(text: &'a str) -> serde_json::Result<T> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.disable_recursion_limit();
    let value = T::deserialize(serde_stacker::Deserializer::new(&mut de))?;
    de.end()?;
    Ok(value)
}

/// [`from_str`] of bytes.
pub fn from_slice<'a, T: serde::Deserialize<'a>>(bytes: &'a [u8]) -> serde_json::Result<T> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    let value = T::deserialize(serde_stacker::Deserializer::new(&mut de))?;
    de.end()?;
    Ok(value)
}

/// Whether `text` is one JSON value, of any depth.
pub fn is_valid(text: &str) -> bool {
    from_str::<serde::de::IgnoredAny>(text).is_ok()
}

/// A value of any depth as compact JSON, byte for byte what `serde_json::to_string` writes,
/// without recursing (that writer takes one stack frame per level).
pub fn to_json(value: &Value) -> String {
    let mut out = String::with_capacity(128);
    write_tree(Part::Value(value), &mut out);
    out
}

/// [`to_json`] of an object's members.
pub fn map_to_json(map: &serde_json::Map<String, Value>) -> String {
    map_to_json_sized(map, 128)
}

/// [`map_to_json`] into a buffer of `capacity` bytes first: given the size of the text it
/// replaces, a large entry is written without doubling its buffer on the way.
pub fn map_to_json_sized(map: &serde_json::Map<String, Value>, capacity: usize) -> String {
    let mut out = String::with_capacity(capacity);
    write_tree(Part::Object(map), &mut out);
    out
}

enum Part<'a> {
    Value(&'a Value),
    Object(&'a serde_json::Map<String, Value>),
    Key(&'a str, bool),
    Comma,
    Close(char),
}

fn write_tree(root: Part<'_>, out: &mut String) {
    let mut stack = vec![root];
    while let Some(part) = stack.pop() {
        match part {
            Part::Value(Value::Array(items)) => {
                out.push('[');
                stack.push(Part::Close(']'));
                for (i, item) in items.iter().enumerate().rev() {
                    stack.push(Part::Value(item));
                    if i > 0 {
                        stack.push(Part::Comma);
                    }
                }
            }
            Part::Value(Value::Object(map)) | Part::Object(map) => {
                out.push('{');
                stack.push(Part::Close('}'));
                for (i, (k, v)) in map.iter().enumerate().rev() {
                    stack.push(Part::Value(v));
                    stack.push(Part::Key(k, i > 0));
                }
            }
            // A scalar has no depth: serde_json's own writer escapes and prints it.
            Part::Value(leaf) => out.push_str(&serde_json::to_string(leaf).unwrap_or_default()),
            Part::Key(k, comma) => {
                if comma {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).unwrap_or_default());
                out.push(':');
            }
            Part::Comma => out.push(','),
            Part::Close(c) => out.push(c),
        }
    }
}

/// Drop a value of any depth without recursing: `Value`'s own drop goes one stack frame per
/// level.
pub fn dispose(value: Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

#[cfg(test)]
mod deep_tests {
    use super::*;
    use proptest::prelude::*;

    fn nested(depth: usize, arrays: bool) -> String {
        let (open, close) = if arrays { ("[", "]") } else { ("{\"k\":", "}") };
        format!("{}1{}", open.repeat(depth), close.repeat(depth))
    }

    #[test]
    fn any_depth_is_parsed_written_back_and_dropped() {
        for depth in [0, 127, 128, 129, 130, 10_000, 100_000] {
            for arrays in [true, false] {
                let text = nested(depth, arrays);
                assert!(is_valid(&text), "{depth}");
                let v: Value = from_str(&text).unwrap();
                assert_eq!(to_json(&v), text, "{depth}");
                dispose(v);
            }
        }
        assert!(from_str::<Value>("[[1]] x").is_err(), "trailing characters");
        assert!(!is_valid(&"[".repeat(1000)), "unclosed");
    }

    #[test]
    fn to_json_writes_what_serde_json_writes() {
        let text =
            r#"{"a":[1,-2,3.5,1e300,"x\"\n\u0001é",true,null,{},[]],"b\u0007":{"c":{}},"":0}"#;
        let v: Value = from_str(text).unwrap();
        assert_eq!(to_json(&v), serde_json::to_string(&v).unwrap());
        let Value::Object(m) = &v else { unreachable!() };
        assert_eq!(map_to_json(m), serde_json::to_string(m).unwrap());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn nesting_of_any_shape_reads_back_byte_for_byte(
            shape in proptest::collection::vec(0u8..3, 0..3000)
        ) {
            let mut text = String::new();
            for s in &shape {
                text.push_str(match s { 0 => "[", 1 => "{\"a\":", _ => "[0,{\"b\":" });
            }
            text.push_str("\"x\"");
            for s in shape.iter().rev() {
                text.push_str(match s { 0 => "]", 1 => "}", _ => "}]" });
            }
            let v: Value = from_str(&text).unwrap();
            prop_assert_eq!(to_json(&v), text);
            dispose(v);
        }
    }
}
