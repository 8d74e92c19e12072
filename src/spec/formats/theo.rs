//! Salesforce Theo's raw JSON: `props` (an object by name, or an array of
//! props with `name`), each with `value`, `type`, `category` and
//! `comment`, and `aliases` that a value names as `{!alias}`. Read as
//! Theo builds it:
//!
//! - every `{!alias}` in a value is replaced by the alias's value (aliases
//!   may name aliases); a missing one is an error at the prop;
//! - a prop is a token named as Theo names it (`color-background-brand`
//!   → `--color-background-brand`), its `comment` the description, its
//!   other members kept under `$extensions["org.theo"]`;
//! - its type comes from Theo's `type` and `category`: colours (hex,
//!   `rgb()`, `rgba()`) are colours; a size, spacing or font size with a
//!   unit a dimension, without one a number; a font family its list;
//!   a shadow its CSS text; anything else text.

use super::{Converted, LEFT_OUT};
use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::join;
use serde_json::{json, Map, Value};

/// The `$extensions` key under which a prop's other members are kept.
pub const EXTENSION: &str = "org.theo";

const MEMBERS: &[(&str, &str)] = &[("$value", "value"), ("$description", "comment")];

/// Theo's `imports`: the aliases of each file `doc` (at `path` in the
/// brand folder) imports, and of what those import, merged into its own
/// (its own win), as Theo reads them. `file` gives a file's JSON by path;
/// an import that is not there is a warning at it.
pub fn import_aliases(
    doc: &mut Value,
    path: &str,
    file: &dyn Fn(&str) -> Option<Value>,
    d: &mut FileDiags<'_>,
) {
    let mut merged = Map::new();
    let mut seen = vec![path.to_string()];
    let imports = doc
        .get("imports")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for (i, import) in imports.iter().enumerate() {
        let Some(rel) = import.as_str() else { continue };
        if !gather(path, rel, file, &mut merged, &mut seen, 0) {
            d.push(
                Code::TheoImportMissing,
                &format!("/imports/{i}"),
                format!("`{rel}` is not a Theo file in the brand folder; its aliases are not read"),
            );
        }
    }
    if merged.is_empty() {
        return;
    }
    let own = doc
        .get("aliases")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    merged.extend(own);
    doc["aliases"] = Value::Object(merged);
}

/// The aliases of the file `rel` (relative to the file at `from`) and of
/// its imports into `out`; false when it cannot be read.
fn gather(
    from: &str,
    rel: &str,
    file: &dyn Fn(&str) -> Option<Value>,
    out: &mut Map<String, Value>,
    seen: &mut Vec<String>,
    depth: usize,
) -> bool {
    let dir = from.rsplit_once('/').map_or("", |(d, _)| d);
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for p in rel.split('/') {
        match p {
            "." | "" => {}
            ".." => {
                if parts.pop().is_none() {
                    return false;
                }
            }
            p => parts.push(p),
        }
    }
    let path = parts.join("/");
    if seen.contains(&path) || depth > 8 {
        return true;
    }
    seen.push(path.clone());
    let Some(doc) = file(&path) else { return false };
    for import in doc
        .get("imports")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let Some(rel) = import.as_str() {
            gather(&path, rel, file, out, seen, depth + 1);
        }
    }
    for (k, v) in doc
        .get("aliases")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        out.insert(k.clone(), v.clone());
    }
    true
}

pub fn read(doc: &Value, d: &mut FileDiags<'_>) -> Converted {
    let aliases: Map<String, Value> = doc
        .get("aliases")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();

    // (name, prop, pointer) in document order.
    let props: Vec<(String, &Map<String, Value>, String)> = match doc.get("props") {
        Some(Value::Object(o)) => o
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), v.as_object()?, join("/props", k))))
            .collect(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                let o = v.as_object()?;
                let name = o.get("name")?.as_str()?.to_string();
                Some((name, o, format!("/props/{i}")))
            })
            .collect(),
        // A file of aliases only, for others to import.
        None if doc.get("aliases").is_some_and(Value::is_object)
            || doc.get("imports").is_some() =>
        {
            Vec::new()
        }
        _ => {
            d.push(Code::InvalidSource, "", "a Theo file holds `props`: an object of props by name, or an array of props with `name`");
            Vec::new()
        }
    };
    let mut out = Map::new();
    let mut tokens = Vec::new();
    for (name, prop, at) in props {
        let Some(raw) = prop.get("value") else {
            d.push_at_key(
                Code::LeftOutInvalidValue,
                &at,
                format!("prop `{name}` has no `value`; {LEFT_OUT}"),
            );
            continue;
        };
        let value = match substitute(raw, &aliases, 0) {
            Ok(v) => v,
            Err(missing) => {
                d.push(
                    Code::LeftOutBrokenReference,
                    &join(&at, "value"),
                    format!("`{{!{missing}}}` names no alias of this file; {LEFT_OUT}"),
                );
                continue;
            }
        };
        let ty = prop.get("type").and_then(Value::as_str).unwrap_or("");
        let category = prop.get("category").and_then(Value::as_str).unwrap_or("");
        let (ty, value) = typed(ty, category, value);
        let mut token = Map::new();
        token.insert("$type".into(), json!(ty));
        token.insert("$value".into(), value);
        if let Some(c) = prop.get("comment") {
            token.insert("$description".into(), c.clone());
        }
        let rest: Map<String, Value> = prop
            .iter()
            .filter(|(k, _)| !matches!(k.as_str(), "value" | "comment" | "name"))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if !rest.is_empty() {
            token.insert("$extensions".into(), json!({ EXTENSION: rest }));
        }
        tokens.push((join("", &name), at));
        out.insert(name, Value::Object(token));
    }
    Converted::new(Value::Object(out), tokens, MEMBERS)
}

/// `v` with every `{!alias}` replaced by the alias's value; the name of a
/// missing alias (or one that loops) as the error.
fn substitute(v: &Value, aliases: &Map<String, Value>, depth: usize) -> Result<Value, String> {
    let Some(s) = v.as_str() else {
        return Ok(v.clone());
    };
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find("{!") {
        let Some(len) = rest[open..].find('}') else {
            break;
        };
        let name = &rest[open + 2..open + len];
        let alias = aliases
            .get(name)
            .map(|a| a.get("value").unwrap_or(a))
            .filter(|_| depth < 16)
            .ok_or_else(|| name.to_string())?;
        let resolved = substitute(alias, aliases, depth + 1)?;
        // A whole-value alias keeps its JSON type (a number stays one).
        if open == 0 && len + 1 == rest.len() && out.is_empty() {
            return Ok(resolved);
        }
        out.push_str(&rest[..open]);
        match resolved {
            Value::String(r) => out.push_str(&r),
            other => out.push_str(&other.to_string()),
        }
        rest = &rest[open + len + 1..];
    }
    out.push_str(rest);
    Ok(Value::String(out))
}

/// The DTCG type and value of a prop from Theo's `type` and `category`.
fn typed(ty: &str, category: &str, value: Value) -> (&'static str, Value) {
    let either = |names: &[&str]| names.contains(&ty) || names.contains(&category);
    if either(&[
        "color",
        "background-color",
        "text-color",
        "border-color",
        "hr-color",
        "gradient-color",
    ]) {
        if let Some(c) = value.as_str().and_then(css_color) {
            return ("color", c);
        }
    }
    if either(&["font", "font-family", "font-families"]) && value.is_string() {
        return ("fontFamily", value);
    }
    if either(&["font-weight", "font-weights"]) {
        if let Some(n) = number(&value) {
            return ("fontWeight", json!(n));
        }
    }
    if either(&["shadow", "box-shadow", "drop-shadow", "text-shadow"]) && value.is_string() {
        return ("shadow", value);
    }
    if either(&[
        "time",
        "duration",
        "animation-duration",
        "transition-duration",
    ]) && value.is_string()
    {
        return ("duration", value);
    }
    match value.as_str().map(str::trim) {
        Some(s) if has_unit(s) => ("dimension", value),
        Some(s) if s.parse::<f64>().is_ok() => ("number", json!(s.parse::<f64>().unwrap_or(0.0))),
        None if value.is_number() => ("number", value),
        _ => ("string", value),
    }
}

fn number(v: &Value) -> Option<f64> {
    v.as_f64().or_else(|| v.as_str()?.trim().parse().ok())
}

/// `12px`, `0.25rem`, `1.5em`, `100%`.
fn has_unit(s: &str) -> bool {
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .unwrap_or(s.len());
    end > 0
        && s[..end].parse::<f64>().is_ok()
        && matches!(&s[end..], "px" | "rem" | "em" | "%" | "vw" | "vh")
}

/// A DTCG colour object of a CSS `#hex`, `rgb()` or `rgba()`.
fn css_color(s: &str) -> Option<Value> {
    let s = s.trim();
    if s.starts_with('#') {
        return crate::color::parse_hex(s).map(|_| json!(s.to_ascii_lowercase()));
    }
    let inner = s
        .strip_prefix("rgba(")
        .or_else(|| s.strip_prefix("rgb("))?
        .strip_suffix(')')?;
    let parts: Vec<&str> = inner
        .split([',', '/', ' '])
        .filter(|p| !p.is_empty())
        .collect();
    let channel = |p: &str| -> Option<f64> {
        match p.strip_suffix('%') {
            Some(n) => n.parse::<f64>().ok().map(|n| n / 100.0),
            None => p.parse::<f64>().ok().map(|n| n / 255.0),
        }
    };
    let rgb: Vec<f64> = parts
        .iter()
        .take(3)
        .map(|p| channel(p))
        .collect::<Option<_>>()?;
    if rgb.len() != 3 || parts.len() > 4 {
        return None;
    }
    let alpha = match parts.get(3) {
        Some(a) => match a.strip_suffix('%') {
            Some(n) => n.parse::<f64>().ok()? / 100.0,
            None => a.parse::<f64>().ok()?,
        },
        None => 1.0,
    };
    let round = |x: f64| (x * 1e6).round() / 1e6;
    let hex = crate::color::hex([rgb[0], rgb[1], rgb[2]], 1.0);
    let mut c = json!({"colorSpace": "srgb", "components": [round(rgb[0]), round(rgb[1]), round(rgb[2])], "hex": hex});
    if alpha < 1.0 {
        c["alpha"] = json!(alpha);
    }
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn props_are_tokens_with_their_aliases_substituted() {
        let doc = json!({
            "aliases": {"blue": {"value": "#0B5CAB"}, "focus": "0 0 0 2px {!blue}", "gap": {"value": "0.25rem"}},
            "props": {
                "color-brand": {"value": "{!blue}", "type": "color", "category": "background-color", "comment": "Brand."},
                "color-veil": {"value": "rgba(242, 47, 70, 0.1)", "type": "color", "category": "background-color"},
                "shadow-focus": {"value": "{!focus}", "type": "raw", "category": "shadow"},
                "spacing-1": {"value": "{!gap}", "type": "number", "category": "spacing"},
                "line-height-text": {"value": "1.5", "type": "number", "category": "line-height"},
                "font-family-base": {"value": "'Salesforce Sans', Arial, sans-serif", "type": "font", "category": "font-family"},
                "broken": {"value": "{!nope}", "type": "color", "category": "color"}
            }
        });
        let mut d = FileDiags::new("b", "b/t.json");
        let c = read(&doc, &mut d);
        assert_eq!(c.doc["color-brand"]["$value"], "#0b5cab");
        assert_eq!(c.doc["color-brand"]["$description"], "Brand.");
        assert_eq!(c.doc["color-veil"]["$value"]["alpha"], 0.1);
        assert_eq!(c.doc["shadow-focus"]["$type"], "shadow");
        assert_eq!(c.doc["shadow-focus"]["$value"], "0 0 0 2px #0B5CAB");
        assert_eq!(
            c.doc["spacing-1"],
            json!({"$type": "dimension", "$value": "0.25rem", "$extensions": {"org.theo": {"type": "number", "category": "spacing"}}})
        );
        assert_eq!(c.doc["line-height-text"]["$value"], 1.5);
        assert_eq!(c.doc["font-family-base"]["$type"], "fontFamily");
        assert!(c.doc.get("broken").is_none());
        assert_eq!(
            c.source_pointer("/color-brand/$value"),
            "/props/color-brand/value"
        );
        let mut out = Vec::new();
        d.finish(None, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].code, Code::LeftOutBrokenReference);
        assert!(out[0].message.contains("`{!nope}`"), "names the alias");
    }
}
