//! The shape of brand.json, as one JSON Schema document that is both
//! published (`/schema/brand.schema.json`, for editors) and enforced here.
//!
//! The validator implements the subset of JSON Schema 2020-12 the document
//! uses (`type`, `properties`, `required`, `additionalProperties: false`,
//! prefix `patternProperties`, `items`, `enum`, `minLength`, `minimum`,
//! `maximum`, local `$ref`). `pattern` is not evaluated: the rules it states
//! (token references) are checked with clearer messages in `brand.rs`.
//! Keeping one document means the published schema cannot drift from what
//! marque accepts.

use super::diag::{closest, FileDiags};
use super::json::join;
use serde_json::Value;
use std::sync::OnceLock;

/// The published JSON Schema text of brand.json.
pub const BRAND_SCHEMA: &str = include_str!("brand.schema.json");

fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        serde_json::from_str(BRAND_SCHEMA).expect("brand.schema.json is valid JSON")
    })
}

/// Checks `value` against the brand.json schema, reporting every mismatch.
pub fn check_brand(value: &Value, diags: &mut FileDiags<'_>) {
    let root = schema();
    check(root, root, value, "", diags);
}

fn resolve<'a>(root: &'a Value, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => r
            .strip_prefix('#')
            .and_then(|p| root.pointer(p))
            .map(|s| resolve(root, s))
            .unwrap_or(schema),
        None => schema,
    }
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "an integer",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn type_matches(ty: &str, v: &Value) -> bool {
    match ty {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64(),
        "null" => v.is_null(),
        _ => false,
    }
}

fn check(root: &Value, schema: &Value, value: &Value, pointer: &str, diags: &mut FileDiags<'_>) {
    let schema = resolve(root, schema);
    if let Some(ty) = schema.get("type").and_then(Value::as_str) {
        if !type_matches(ty, value) {
            let wanted = match ty {
                "object" => "an object",
                "array" => "an array",
                "string" => "a string",
                "boolean" => "true or false",
                "number" => "a number",
                "integer" => "a whole number",
                _ => ty,
            };
            diags.error(
                pointer,
                format!("expected {wanted}, found {}", type_name(value)),
            );
            return;
        }
    }
    if let Some(options) = schema.get("enum").and_then(Value::as_array) {
        if !options.contains(value) {
            let list: Vec<String> = options.iter().map(Value::to_string).collect();
            diags.error(
                pointer,
                format!("expected one of {}, found {value}", list.join(", ")),
            );
            return;
        }
    }
    if let (Some(min), Some(s)) = (
        schema.get("minLength").and_then(Value::as_u64),
        value.as_str(),
    ) {
        if (s.trim().chars().count() as u64) < min {
            diags.error(pointer, "must not be empty");
        }
    }
    if let Some(n) = value.as_f64() {
        if let Some(min) = schema.get("minimum").and_then(Value::as_f64) {
            if n < min {
                diags.error(pointer, format!("must be at least {min}, found {n}"));
            }
        }
        if let Some(max) = schema.get("maximum").and_then(Value::as_f64) {
            if n > max {
                diags.error(pointer, format!("must be at most {max}, found {n}"));
            }
        }
    }
    match value {
        Value::Object(map) => {
            let props = schema.get("properties").and_then(Value::as_object);
            let prefixes: Vec<&str> = schema
                .get("patternProperties")
                .and_then(Value::as_object)
                .map(|p| p.keys().filter_map(|k| k.strip_prefix('^')).collect())
                .unwrap_or_default();
            let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
            for (key, member) in map {
                let member_pointer = join(pointer, key);
                match props.and_then(|p| p.get(key)) {
                    Some(sub) => check(root, sub, member, &member_pointer, diags),
                    None if prefixes.iter().any(|p| key.starts_with(p)) => {}
                    None if closed => {
                        let known = props.map(|p| p.keys().map(String::as_str).collect::<Vec<_>>());
                        let hint = known
                            .and_then(|k| closest(key, k))
                            .map(|c| format!("; did you mean `{c}`?"))
                            .unwrap_or_default();
                        diags.error_at_key(
                            &member_pointer,
                            format!(
                                "unknown key `{key}`{hint} (extension keys must start with `x-`)"
                            ),
                        );
                    }
                    None => {}
                }
            }
            for req in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                if !map.contains_key(req) {
                    diags.error(pointer, format!("missing required key `{req}`"));
                }
            }
        }
        Value::Array(items) => {
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    check(root, item_schema, item, &format!("{pointer}/{i}"), diags);
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::json::PosIndex;

    fn run(text: &str) -> Vec<String> {
        let value: Value = serde_json::from_str(text).unwrap();
        let index = PosIndex::new(text);
        let mut out = Vec::new();
        let mut d = FileDiags {
            brand: "b",
            file: "b/brand.json".into(),
            index: &index,
            out: &mut out,
        };
        check_brand(&value, &mut d);
        out.iter()
            .map(|d| format!("{}:{} {} {}", d.line, d.column, d.pointer, d.message))
            .collect()
    }

    #[test]
    fn accepts_minimal_brand_and_extension_keys() {
        assert!(
            run(r#"{"name":"A","version":"1.0.0","updated":"2026-01-01","x-owner":"me"}"#)
                .is_empty()
        );
    }

    #[test]
    fn reports_every_problem_with_positions() {
        let got = run("{\"name\": 3,\n \"colour\": {},\n \"color\": {\"pairs\": [{\"foreground\": \"{a}\", \"background\": \"{b}\", \"level\": \"A\"}]}}");
        assert_eq!(
            got,
            vec![
                "1:10 /name expected a string, found an integer",
                "2:2 /colour unknown key `colour`; did you mean `color`? (extension keys must start with `x-`)",
                "3:74 /color/pairs/0/level expected one of \"AA\", \"AA-large\", \"AAA\", found \"A\"",
                "1:1  missing required key `version`",
                "1:1  missing required key `updated`",
            ]
        );
    }
}
