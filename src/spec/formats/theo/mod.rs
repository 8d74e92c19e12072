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
//! - the aliases are tokens of the group `theo-alias`, and a prop whose
//!   value is one alias alone a reference to it (see the `aliases` module); one of
//!   CSS text around aliases keeps the value Theo built.

mod aliases;

use super::{Converted, LEFT_OUT};
use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::join;
pub use aliases::{plan, Plan};
use aliases::{publish, whole, GROUP};
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

/// Reads one Theo file on its own (see [`read_with`]).
pub fn read(doc: &Value, d: &mut FileDiags<'_>) -> Converted {
    read_with(doc, &plan([doc]), d)
}

/// Reads a Theo file of a brand whose Theo files `plan` read ([`plan`]):
/// its aliases are published as that says.
pub fn read_with(doc: &Value, plan: &Plan, d: &mut FileDiags<'_>) -> Converted {
    let aliases: Map<String, Value> = doc
        .get("aliases")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut read = Vec::new();
    for (name, prop, at) in props(doc, d) {
        if let Some(p) = read_prop(name, prop, at, &aliases, d) {
            read.push(p);
        }
    }
    // A prop named as the group would be replaced by it: the aliases are
    // then not published, and every prop keeps its literal value.
    let taken = read.iter().find(|p| p.name == GROUP);
    if let Some(p) = taken {
        d.push_at_key(
            Code::TheoAliasGroupTaken,
            &p.at,
            format!("a prop is named `{GROUP}`, the group Theo's aliases are published in; they are not published, and each prop keeps its value as Theo built it"),
        );
    }
    let none = Map::new();
    let (published, group, mut tokens) =
        publish(if taken.is_some() { &none } else { &aliases }, plan);
    let mut out = Map::new();
    for p in read {
        let mut token = Map::new();
        token.insert("$type".into(), json!(p.ty));
        let reference = p.alias().and_then(|a| published.reference(a, p.ty));
        let mut rest = p.rest;
        // The alias a prop names is in its `$value` as a reference, or, in
        // a value no reference can be, in `template`; Theo's own spelling
        // (`originalValue`, `{!alias}`) is not kept, as Style Dictionary
        // reads every `{…}` of a token as a reference.
        if p.expr.is_some() {
            rest.remove("originalValue");
        }
        match (reference, &p.expr) {
            (Some(r), _) => {
                token.insert("$value".into(), json!(r));
            }
            (None, Some(expr)) => {
                token.insert("$value".into(), p.value);
                rest.insert("template".into(), published.template(expr));
            }
            (None, None) => {
                token.insert("$value".into(), p.value);
            }
        }
        if let Some(c) = p.comment {
            token.insert("$description".into(), c);
        }
        if !rest.is_empty() {
            token.insert("$extensions".into(), json!({ EXTENSION: rest }));
        }
        tokens.push((join("", &p.name), p.at));
        out.insert(p.name, Value::Object(token));
    }
    if !group.is_empty() {
        out.insert(GROUP.into(), Value::Object(group));
    }
    Converted::new(Value::Object(out), tokens, MEMBERS)
}

/// A file's props: `(name, prop, pointer)` in document order.
fn props<'a>(
    doc: &'a Value,
    d: &mut FileDiags<'_>,
) -> Vec<(String, &'a Map<String, Value>, String)> {
    match doc.get("props") {
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
    }
}

/// A prop read: its type and value as Theo builds it.
struct Prop {
    name: String,
    at: String,
    ty: &'static str,
    value: Value,
    /// The value as Theo writes it with its aliases (`{!alias}`), when it
    /// names any: `value` in Theo's sources, `originalValue` in a raw
    /// export (whose `value` Theo substituted).
    expr: Option<String>,
    /// Whether `expr` gives `value`.
    exact: bool,
    comment: Option<Value>,
    /// Its other members, kept under `$extensions`.
    rest: Map<String, Value>,
}

impl Prop {
    /// The alias that is the prop's whole value.
    fn alias(&self) -> Option<&str> {
        self.expr.as_deref().filter(|_| self.exact).and_then(whole)
    }
}

fn read_prop(
    name: String,
    prop: &Map<String, Value>,
    at: String,
    aliases: &Map<String, Value>,
    d: &mut FileDiags<'_>,
) -> Option<Prop> {
    let Some(raw) = prop.get("value") else {
        d.push_at_key(
            Code::LeftOutInvalidValue,
            &at,
            format!("prop `{name}` has no `value`; {LEFT_OUT}"),
        );
        return None;
    };
    let value = match substitute(raw, aliases, 0) {
        Ok(v) => v,
        Err(missing) => {
            d.push(
                Code::LeftOutBrokenReference,
                &join(&at, "value"),
                format!("`{{!{missing}}}` names no alias of this file; {LEFT_OUT}"),
            );
            return None;
        }
    };
    let names_aliases = |v: &Value| v.as_str().filter(|s| s.contains("{!")).map(String::from);
    let original = prop.get("originalValue");
    let (expr, exact) = match (names_aliases(raw), original.and_then(names_aliases)) {
        (Some(expr), _) => (Some(expr), true),
        // A raw export's `originalValue` names the alias only where it
        // gives the value Theo built.
        (None, Some(expr)) => {
            let built = substitute(original.unwrap_or(raw), aliases, 0);
            let exact = built.is_ok_and(|v| same_text(&v, &value));
            (Some(expr), exact)
        }
        (None, None) => (None, false),
    };
    let ty = prop.get("type").and_then(Value::as_str).unwrap_or("");
    let category = prop.get("category").and_then(Value::as_str).unwrap_or("");
    let (ty, value) = typed(ty, category, value);
    let rest: Map<String, Value> = prop
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "value" | "comment" | "name"))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    Some(Prop {
        name,
        at,
        ty,
        value,
        expr,
        exact,
        comment: prop.get("comment").cloned(),
        rest,
    })
}

/// Whether two values are the same text, but for case: `#FFFFFF` and
/// `#ffffff`, or an alias's number 400 and a prop's `"400"`.
fn same_text(a: &Value, b: &Value) -> bool {
    let text = |v: &Value| v.as_str().map_or_else(|| v.to_string(), str::to_string);
    text(a).eq_ignore_ascii_case(&text(b))
}

/// `v` with every `{!alias}` replaced by the alias's value; the name of a
/// missing alias (or one that loops) as the error.
pub(super) fn substitute(
    v: &Value,
    aliases: &Map<String, Value>,
    depth: usize,
) -> Result<Value, String> {
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
pub(super) fn typed(ty: &str, category: &str, value: Value) -> (&'static str, Value) {
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

/// The DTCG type and value of an alias, which Theo does not type: a
/// colour, or what [`typed`] makes of a value of no type.
pub(super) fn inferred(value: Value) -> (&'static str, Value) {
    if let Some(c) = value.as_str().and_then(css_color) {
        return ("color", c);
    }
    typed("", "", value)
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

    /// A token's value with its reference to an alias followed.
    fn resolved<'a>(doc: &'a Value, token: &str) -> &'a Value {
        let mut v = &doc[token]["$value"];
        while let Some(name) = v.as_str().and_then(|s| s.strip_prefix("{theo-alias.")) {
            v = &doc[GROUP][name.trim_end_matches('}')]["$value"];
        }
        v
    }

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
        assert_eq!(resolved(&c.doc, "color-brand"), "#0b5cab");
        assert_eq!(c.doc["color-brand"]["$description"], "Brand.");
        assert_eq!(c.doc["color-veil"]["$value"]["alpha"], 0.1);
        assert_eq!(c.doc["shadow-focus"]["$type"], "shadow");
        assert_eq!(resolved(&c.doc, "shadow-focus"), "0 0 0 2px #0B5CAB");
        assert_eq!(
            c.doc["spacing-1"],
            json!({"$type": "dimension", "$value": "{theo-alias.gap}", "$extensions": {"org.theo": {"type": "number", "category": "spacing"}}})
        );
        assert_eq!(resolved(&c.doc, "spacing-1"), "0.25rem");
        assert_eq!(c.doc["line-height-text"]["$value"], 1.5);
        assert_eq!(c.doc["font-family-base"]["$type"], "fontFamily");
        assert!(c.doc.get("broken").is_none());
        assert_eq!(
            c.source_pointer("/color-brand/$value"),
            "/props/color-brand/value"
        );
        assert_eq!(
            c.source_pointer("/theo-alias/blue/$value"),
            "/aliases/blue/value"
        );
        let mut out = Vec::new();
        d.finish(None, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].code, Code::LeftOutBrokenReference);
        assert!(out[0].message.contains("`{!nope}`"), "names the alias");
    }

    /// Theo's raw export: `value` substituted, `originalValue` the alias.
    fn raw_export() -> Value {
        json!({
            "aliases": {
                "PALETTE_NEUTRAL_100": {"value": "#FFFFFF"},
                "WHITE": {"value": "#FFFFFF"},
                "PALETTE_BLUE_40": {"value": "#0B5CAB"},
                "FONT_WEIGHT_BOLD": {"value": 700}
            },
            "props": {
                "color-background": {"value": "#FFFFFF", "originalValue": "{!PALETTE_NEUTRAL_100}", "type": "color", "category": "background-color"},
                "color-text-inverse": {"value": "#FFFFFF", "originalValue": "{!WHITE}", "type": "color", "category": "text-color"},
                "shadow-focus": {"value": "0 0 0 2px #FFFFFF, 0 0 0 4px #0B5CAB", "originalValue": "0 0 0 2px {!PALETTE_NEUTRAL_100}, 0 0 0 4px {!PALETTE_BLUE_40}", "type": "raw", "category": "shadow"},
                "font-weight-bold": {"value": "700", "originalValue": "{!FONT_WEIGHT_BOLD}", "type": "font-weight", "category": "font-weight"},
                "color-stale": {"value": "#000000", "originalValue": "{!WHITE}", "type": "color", "category": "text-color"}
            }
        })
    }

    #[test]
    fn a_prop_that_is_one_alias_refers_to_the_alias_published_as_a_token() {
        let mut d = FileDiags::new("b", "b/t.raw.json");
        let c = read(&raw_export(), &mut d);
        let token = &c.doc["color-background"];
        assert_eq!(token["$value"], "{theo-alias.PALETTE_NEUTRAL_100}");
        assert_eq!(
            c.doc[GROUP]["PALETTE_NEUTRAL_100"],
            json!({"$type": "color", "$value": "#ffffff"})
        );
        // The reference records the alias: Theo's spelling is not kept.
        assert!(token["$extensions"][EXTENSION]
            .get("originalValue")
            .is_none());
        assert!(token["$extensions"][EXTENSION].get("template").is_none());
        // A number alias of font-weight props is one, and `"700"` is 700.
        assert_eq!(
            c.doc["font-weight-bold"]["$value"],
            "{theo-alias.FONT_WEIGHT_BOLD}"
        );
        assert_eq!(
            c.doc[GROUP]["FONT_WEIGHT_BOLD"],
            json!({"$type": "fontWeight", "$value": 700.0})
        );
    }

    #[test]
    fn two_aliases_of_one_value_each_keep_the_props_that_name_them() {
        let mut d = FileDiags::new("b", "b/t.raw.json");
        let c = read(&raw_export(), &mut d);
        assert_eq!(
            c.doc["color-background"]["$value"],
            "{theo-alias.PALETTE_NEUTRAL_100}"
        );
        assert_eq!(c.doc["color-text-inverse"]["$value"], "{theo-alias.WHITE}");
        assert_eq!(resolved(&c.doc, "color-text-inverse"), "#ffffff");
    }

    #[test]
    fn a_template_of_aliases_keeps_its_literal_and_records_them_without_braces() {
        let mut d = FileDiags::new("b", "b/t.raw.json");
        let c = read(&raw_export(), &mut d);
        let token = &c.doc["shadow-focus"];
        assert_eq!(token["$value"], "0 0 0 2px #FFFFFF, 0 0 0 4px #0B5CAB");
        let theo = &token["$extensions"][EXTENSION];
        assert!(theo.get("originalValue").is_none());
        assert_eq!(
            theo["template"],
            json!([
                "0 0 0 2px ",
                {"alias": "PALETTE_NEUTRAL_100", "token": "theo-alias.PALETTE_NEUTRAL_100"},
                ", 0 0 0 4px ",
                {"alias": "PALETTE_BLUE_40", "token": "theo-alias.PALETTE_BLUE_40"}
            ])
        );
        // An `originalValue` that does not give the value Theo built is no
        // reference: the value is Theo's, the alias recorded.
        let stale = &c.doc["color-stale"];
        assert_eq!(stale["$value"], "#000000");
        assert_eq!(
            stale["$extensions"][EXTENSION]["template"],
            json!([{"alias": "WHITE", "token": "theo-alias.WHITE"}])
        );
        assert!(
            !c.doc.to_string().contains("{!"),
            "no Theo alias syntax is left"
        );
    }

    #[test]
    fn alias_names_are_made_valid_dtcg_names() {
        let doc = json!({
            "aliases": {"brand.blue": "#0B5CAB", "$gap": "4px", "odd{x}": "2px", "brand_blue": "#0b5cab",
                "a.b": "1px", "a_b": "2px"},
            "props": {
                "a": {"value": "{!brand.blue}", "type": "color", "category": "color"},
                "b": {"value": "{!$gap}", "type": "size", "category": "spacing"},
                "d": {"value": "{!brand_blue}", "type": "color", "category": "color"},
                "e": {"value": "{!a_b}", "type": "size", "category": "spacing"}
            }
        });
        let mut d = FileDiags::new("b", "b/t.json");
        let c = read(&doc, &mut d);
        let names: Vec<&String> = c.doc[GROUP].as_object().unwrap().keys().collect();
        for n in &names {
            assert!(
                !n.starts_with('$') && !n.contains(['.', '{', '}']),
                "{n} is no DTCG name"
            );
        }
        assert!(names.contains(&&"odd_x_".to_string()));
        assert_eq!(c.doc["b"]["$value"], "{theo-alias._gap}");
        // `brand.blue` and `brand_blue` would be one name, of one value:
        // the first is published, and the other's prop keeps its value.
        assert_eq!(c.doc["a"]["$value"], "{theo-alias.brand_blue}");
        assert_eq!(resolved(&c.doc, "a"), "#0b5cab");
        assert_eq!(c.doc["d"]["$value"], "#0b5cab");
        assert_eq!(
            c.doc["d"]["$extensions"][EXTENSION]["template"],
            json!([{"alias": "brand_blue"}])
        );
        // `a.b` and `a_b` differ: one token cannot hold both.
        assert!(c.doc[GROUP].get("a_b").is_none());
        assert_eq!(c.doc["e"]["$value"], "2px");
    }

    #[test]
    fn an_alias_that_is_another_refers_to_it() {
        let doc = json!({
            "aliases": {"blue": "#0B5CAB", "brand": "{!blue}"},
            "props": {"c": {"value": "{!brand}", "type": "color", "category": "color"}}
        });
        let mut d = FileDiags::new("b", "b/t.json");
        let c = read(&doc, &mut d);
        assert_eq!(c.doc[GROUP]["brand"]["$value"], "{theo-alias.blue}");
        assert_eq!(c.doc["c"]["$value"], "{theo-alias.brand}");
        assert_eq!(resolved(&c.doc, "c"), "#0b5cab");
    }

    #[test]
    fn an_alias_two_files_give_different_values_is_not_published() {
        let font = json!({"aliases": {"FONT_SIZE_1": "1.125rem", "GAP": "4px"}, "props": {
            "font-scale-1": {"value": "{!FONT_SIZE_1}", "type": "size", "category": "font-size"},
            "gap": {"value": "{!GAP}", "type": "size", "category": "spacing"}
        }});
        let primitive = json!({"aliases": {"FONT_SIZE_1": "0.625rem", "GAP": "4px"}, "props": {
            "FONT_SIZE_1": {"value": "{!FONT_SIZE_1}", "type": "size", "category": "font-size"}
        }});
        let plan = plan([&font, &primitive]);
        let mut d = FileDiags::new("b", "b/font.json");
        let c = read_with(&font, &plan, &mut d);
        assert_eq!(c.doc["font-scale-1"]["$value"], "1.125rem");
        assert!(c.doc[GROUP].get("FONT_SIZE_1").is_none());
        assert_eq!(c.doc["gap"]["$value"], "{theo-alias.GAP}");
        let c = read_with(&primitive, &plan, &mut d);
        assert_eq!(c.doc["FONT_SIZE_1"]["$value"], "0.625rem");
    }

    #[test]
    fn a_prop_named_as_the_group_keeps_every_value_literal_and_is_reported() {
        let doc = json!({"aliases": {"blue": "#0B5CAB"}, "props": {
            "theo-alias": {"value": "{!blue}", "type": "color", "category": "color"}
        }});
        let mut d = FileDiags::new("b", "b/t.json");
        let c = read(&doc, &mut d);
        assert_eq!(c.doc[GROUP]["$value"], "#0b5cab");
        let mut out = Vec::new();
        d.finish(None, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].code, Code::TheoAliasGroupTaken);
    }
}
