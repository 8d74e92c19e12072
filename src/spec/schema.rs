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

use super::diag::{closest, Code, FileDiags};
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

/// The outcome of the shape check: a value of the right shape, and where it
/// had to be repaired.
pub struct Checked {
    /// The document with every node that failed replaced by a default of
    /// the right shape (and unknown keys removed), so it deserialises.
    pub value: Value,
    /// Pointers of the nodes that failed; checks of what they hold are skipped.
    pub failed: Vec<String>,
}

impl Checked {
    /// True when `pointer` failed the shape check, or lies inside or around a node that did.
    pub fn blocked(&self, pointer: &str) -> bool {
        let inside = |a: &str, b: &str| {
            a == b || (a.starts_with(b) && a.as_bytes().get(b.len()) == Some(&b'/'))
        };
        self.failed
            .iter()
            .any(|f| inside(pointer, f) || inside(f, pointer))
    }
}

/// Checks `value` against the brand.json schema, reporting every mismatch,
/// and repairs what failed so the rest can still be checked.
pub fn check_brand(mut value: Value, diags: &mut FileDiags<'_>) -> Checked {
    let root = schema();
    let mut failed = Vec::new();
    check(root, root, &mut value, "", diags, &mut failed);
    Checked { value, failed }
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

/// A value of the shape `schema` describes: its first enum option, its
/// minimum, or an empty value of its type with its required members.
fn default_for(root: &Value, schema: &Value) -> Value {
    let schema = resolve(root, schema);
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|o| o.first())
    {
        return first.clone();
    }
    match schema.get("type").and_then(Value::as_str) {
        Some("object") => {
            let mut obj = serde_json::Map::new();
            let props = schema.get("properties");
            for req in schema
                .get("required")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
            {
                let sub = props.and_then(|p| p.get(req)).unwrap_or(&Value::Null);
                obj.insert(req.to_string(), default_for(root, sub));
            }
            Value::Object(obj)
        }
        Some("array") => Value::Array(Vec::new()),
        Some("string") => Value::String(String::new()),
        Some("boolean") => Value::Bool(false),
        Some("integer" | "number") => schema
            .get("minimum")
            .cloned()
            .unwrap_or_else(|| Value::from(0)),
        _ => Value::Null,
    }
}

/// Where one check runs: the schema document, the reporter, and the list
/// of pointers that failed.
struct Checker<'a, 'd> {
    root: &'a Value,
    diags: &'a mut FileDiags<'d>,
    failed: &'a mut Vec<String>,
}

fn check(
    root: &Value,
    schema: &Value,
    value: &mut Value,
    pointer: &str,
    diags: &mut FileDiags<'_>,
    failed: &mut Vec<String>,
) {
    Checker {
        root,
        diags,
        failed,
    }
    .node(schema, value, pointer);
}

impl Checker<'_, '_> {
    fn fail(&mut self, code: Code, pointer: &str, message: String) {
        self.diags.push(code, pointer, message);
        self.failed.push(pointer.to_string());
    }

    /// Checks one value against its schema; a value of the wrong type or
    /// outside its enum is replaced by a default of the right shape.
    fn node(&mut self, schema: &Value, value: &mut Value, pointer: &str) {
        let schema = resolve(self.root, schema);
        if let Some(ty) = schema.get("type").and_then(Value::as_str) {
            if !type_matches(ty, value) {
                self.fail(
                    Code::WrongType,
                    pointer,
                    format!("expected {}, found {}", wanted(ty), type_name(value)),
                );
                *value = default_for(self.root, schema);
                return;
            }
        }
        if let Some(options) = schema.get("enum").and_then(Value::as_array) {
            if !options.contains(value) {
                let list: Vec<String> = options.iter().map(Value::to_string).collect();
                self.fail(
                    Code::NotOneOf,
                    pointer,
                    format!(
                        "expected one of {}, found {}",
                        list.join(", "),
                        short(value)
                    ),
                );
                *value = options.first().cloned().unwrap_or(Value::Null);
                return;
            }
        }
        self.bounds(schema, value, pointer);
        match value {
            Value::Object(map) => self.object(schema, map, pointer),
            Value::Array(items) => {
                if let Some(item_schema) = schema.get("items") {
                    for (i, item) in items.iter_mut().enumerate() {
                        self.node(item_schema, item, &format!("{pointer}/{i}"));
                    }
                }
            }
            _ => {}
        }
    }

    /// `minLength`, `minimum` and `maximum`; a number out of bounds is clamped.
    fn bounds(&mut self, schema: &Value, value: &mut Value, pointer: &str) {
        if let (Some(min), Some(s)) = (
            schema.get("minLength").and_then(Value::as_u64),
            value.as_str(),
        ) {
            if (s.trim().chars().count() as u64) < min {
                self.fail(Code::OutOfBounds, pointer, "must not be empty".into());
            }
        }
        let Some(n) = value.as_f64() else {
            return;
        };
        let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
        let clamped = match (bound("minimum"), bound("maximum")) {
            (Some(min), _) if n < min => {
                self.fail(
                    Code::OutOfBounds,
                    pointer,
                    format!("must be at least {min}, found {n}"),
                );
                min
            }
            (_, Some(max)) if n > max => {
                self.fail(
                    Code::OutOfBounds,
                    pointer,
                    format!("must be at most {max}, found {n}"),
                );
                max
            }
            _ => return,
        };
        *value = if value.is_i64() || value.is_u64() {
            Value::from(clamped as i64)
        } else {
            serde_json::Number::from_f64(clamped).map_or(Value::Null, Value::Number)
        };
    }

    /// Members: each known one checked, `x-` ones kept, unknown ones
    /// reported and removed, missing required ones reported and added.
    fn object(&mut self, schema: &Value, map: &mut serde_json::Map<String, Value>, pointer: &str) {
        let props = schema.get("properties").and_then(Value::as_object);
        let prefixes: Vec<&str> = schema
            .get("patternProperties")
            .and_then(Value::as_object)
            .map(|p| p.keys().filter_map(|k| k.strip_prefix('^')).collect())
            .unwrap_or_default();
        let closed = schema.get("additionalProperties") == Some(&Value::Bool(false));
        let keys: Vec<String> = map.keys().cloned().collect();
        for key in keys {
            let member_pointer = join(pointer, &key);
            match props.and_then(|p| p.get(&key)) {
                Some(sub) => {
                    if let Some(member) = map.get_mut(&key) {
                        self.node(sub, member, &member_pointer);
                    }
                }
                None if prefixes.iter().any(|p| key.starts_with(p)) => {}
                None if closed => {
                    let known = props.map(|p| p.keys().map(String::as_str).collect::<Vec<_>>());
                    let hint = known
                        .and_then(|k| closest(&key, k))
                        .map(|c| format!("; did you mean `{c}`?"))
                        .unwrap_or_default();
                    self.diags.push_at_key(
                        Code::UnknownKey,
                        &member_pointer,
                        format!(
                            "unknown key `{}`{hint} (extension keys must start with `x-`)",
                            short_key(&key)
                        ),
                    );
                    self.failed.push(member_pointer);
                    map.remove(&key);
                }
                None => {}
            }
        }
        let required = schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str);
        for req in required {
            if !map.contains_key(req) {
                self.diags.push(
                    Code::MissingKey,
                    pointer,
                    format!("missing required key `{req}`"),
                );
                self.failed.push(join(pointer, req));
                let sub = props.and_then(|p| p.get(req)).unwrap_or(&Value::Null);
                map.insert(req.to_string(), default_for(self.root, sub));
            }
        }
    }
}

/// How a message names a JSON Schema type.
fn wanted(ty: &str) -> &str {
    match ty {
        "object" => "an object",
        "array" => "an array",
        "string" => "a string",
        "boolean" => "true or false",
        "number" => "a number",
        "integer" => "a whole number",
        other => other,
    }
}

/// A value for a message: short ones as they are, long ones cut.
fn short(v: &Value) -> String {
    super::diag::clipped(&v.to_string()).into_owned()
}

/// A key for a message: cut when very long.
fn short_key(k: &str) -> String {
    super::diag::clipped(k).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str) -> Vec<String> {
        let value: Value = serde_json::from_str(text).unwrap();
        let mut d = FileDiags::new("b", "b/brand.json");
        let checked = check_brand(value, &mut d);
        assert!(
            serde_json::from_value::<crate::spec::model::BrandDoc>(checked.value).is_ok(),
            "the repaired document deserialises"
        );
        let mut out = Vec::new();
        d.finish(Some(text), &mut out);
        out.iter()
            .map(|d| {
                let (line, column, code) = (d.line, d.column, d.code);
                format!("{line}:{column} {code} {} {}", d.pointer, d.message)
            })
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
                "1:10 MQ1103 /name expected a string, found an integer",
                "2:2 MQ1101 /colour unknown key `colour`; did you mean `color`? (extension keys must start with `x-`)",
                "3:74 MQ1104 /color/pairs/0/level expected one of \"AA\", \"AA-large\", \"AAA\", found \"A\"",
                "1:1 MQ1102  missing required key `version`",
                "1:1 MQ1102  missing required key `updated`",
            ]
        );
    }
}
