//! Modes kept inside values, as some systems write them:
//! `"$value": {"default": "#ffffff", "dark": "#000000"}`. Told by
//! structure: an object value none of whose keys is a member of any
//! token type's value, with one set of keys across the file, read as the
//! contexts of one modifier. Each context reads its key, falling back to
//! the default (`default`, `light` or `base`; else the first key
//! written). The document becomes a resolver: the default's values as the
//! base set, each other key's as its context.

use super::Converted;
use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::{escape_token, join};
use serde_json::{json, Map, Value};

/// The members of every token type's object value (DTCG 2025.10's and
/// Tokens Studio's): an object with one of these is a value, not modes.
const MEMBERS: &[&str] = &[
    "colorSpace",
    "components",
    "alpha",
    "hex",
    "value",
    "unit",
    "fontFamily",
    "fontSize",
    "fontWeight",
    "letterSpacing",
    "lineHeight",
    "color",
    "offsetX",
    "offsetY",
    "blur",
    "spread",
    "inset",
    "width",
    "style",
    "duration",
    "delay",
    "timingFunction",
    "dashArray",
    "lineCap",
    "x",
    "y",
    "type",
    "textCase",
    "textDecoration",
    "paragraphSpacing",
    "paragraphIndent",
    "fontStyle",
    "fontFamilies",
    "fontWeights",
];

/// Keys that name the default context, in order of preference.
const DEFAULTS: &[&str] = &["default", "light", "base", "day", "normal"];

/// Words that make a modifier a colour scheme (`theme`) rather than a mode.
const SCHEMES: &[&str] = &["light", "dark", "dim", "dimmed", "day", "night"];

/// One token whose value holds modes: its path, its type (its own or its
/// group's) and the value per key.
struct Moded<'d> {
    path: Vec<String>,
    ty: Option<&'d str>,
    values: &'d Map<String, Value>,
}

/// `doc` as a resolver when it keeps modes inside values; `None` when it
/// does not (or when what it keeps is not one set of keys: said in `d`).
pub fn read(doc: &Value, d: &mut FileDiags<'_>) -> Option<Converted> {
    if doc.get("resolutionOrder").is_some() {
        return None;
    }
    let mut found = Vec::new();
    collect(doc, &mut Vec::new(), None, &mut found);
    let first = found.first()?;
    // One key set across the file: the union, in the order first written.
    let mut keys: Vec<&str> = Vec::new();
    for m in &found {
        for k in m.values.keys() {
            if !keys.contains(&k.as_str()) {
                keys.push(k);
            }
        }
    }
    if keys.len() < 2 {
        return None;
    }
    let default = DEFAULTS
        .iter()
        .find(|k| keys.contains(k))
        .copied()
        .or_else(|| first.values.keys().next().map(String::as_str))?;
    let mut base = doc.clone();
    let mut tokens = Vec::new();
    let modifier = match keys
        .iter()
        .any(|k| SCHEMES.contains(&k.to_ascii_lowercase().as_str()))
    {
        true => "theme",
        false => "mode",
    };
    let mut contexts = Map::new();
    for key in &keys {
        contexts.insert(key.to_string(), json!([]));
    }
    let mut trees: Map<String, Value> = Map::new();
    for m in &found {
        let pointer: String = m
            .path
            .iter()
            .map(|s| format!("/{}", escape_token(s)))
            .collect();
        // The base: the default's value, or the first one written.
        let value = m
            .values
            .get(default)
            .or_else(|| m.values.values().next())
            .cloned()
            .unwrap_or(Value::Null);
        if let Some(v) = base.pointer_mut(&format!("{pointer}/$value")) {
            *v = value;
        }
        for (key, v) in m.values {
            if key == default {
                continue;
            }
            let tree = trees.entry(key.clone()).or_insert_with(|| json!({}));
            let mut token = json!({ "$value": v });
            if let Some(ty) = m.ty {
                token["$type"] = json!(ty);
            }
            super::insert(
                tree.as_object_mut().expect("a tree is an object"),
                &m.path,
                token,
            );
            let at = format!(
                "{}/0{pointer}",
                join(&join(&join("/modifiers", modifier), "contexts"), key)
            );
            tokens.push((
                format!("{at}/$value"),
                format!("{pointer}/$value/{}", escape_token(key)),
            ));
            tokens.push((at, pointer.clone()));
        }
    }
    for (key, tree) in trees {
        contexts.insert(key, json!([tree]));
    }
    // Every other token: where it is, under the base set.
    let mut all = Vec::new();
    every_token(doc, &mut Vec::new(), &mut all);
    for path in all {
        let pointer: String = path
            .iter()
            .map(|s| format!("/{}", escape_token(s)))
            .collect();
        tokens.push((format!("/sets/tokens/sources/0{pointer}"), pointer));
    }
    let described: Vec<&str> = keys.to_vec();
    d.push(
        Code::ModesInferred,
        "",
        format!(
            "{} token(s) keep modes inside their values: read as a modifier `{modifier}` of contexts {}, `{default}` the default",
            found.len(),
            described.join(", ")
        ),
    );
    let resolver = json!({
        "version": "2025.10",
        "sets": {"tokens": {"sources": [base]}},
        "modifiers": {modifier: {"contexts": contexts, "default": default}},
        "resolutionOrder": [{"$ref": "#/sets/tokens"}, {"$ref": join("#/modifiers", modifier)}],
    });
    Some(Converted::new(resolver, tokens, &[]))
}

/// True for a value that holds modes: an object with no member of any
/// type's value, whose keys are not groups or tokens themselves.
fn is_modes(v: &Value) -> bool {
    let Value::Object(o) = v else {
        return false;
    };
    o.len() >= 2
        && o.keys()
            .all(|k| !k.starts_with('$') && !MEMBERS.contains(&k.as_str()))
        && o.values().all(|v| v.get("$value").is_none())
}

/// Every token under `v` whose value holds modes.
fn collect<'d>(
    v: &'d Value,
    path: &mut Vec<String>,
    ty: Option<&'d str>,
    out: &mut Vec<Moded<'d>>,
) {
    let Value::Object(o) = v else {
        return;
    };
    let ty = o.get("$type").and_then(Value::as_str).or(ty);
    if let Some(value) = o.get("$value") {
        if is_modes(value) {
            out.push(Moded {
                path: path.clone(),
                ty,
                values: value.as_object().expect("modes are an object"),
            });
        }
        return;
    }
    for (k, child) in o {
        if k.starts_with('$') {
            continue;
        }
        path.push(k.clone());
        collect(child, path, ty, out);
        path.pop();
    }
}

/// The path of every token under `v`.
fn every_token(v: &Value, path: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let Value::Object(o) = v else {
        return;
    };
    if o.contains_key("$value") {
        out.push(path.clone());
        return;
    }
    for (k, child) in o {
        if k.starts_with('$') {
            continue;
        }
        path.push(k.clone());
        every_token(child, path, out);
        path.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_in_values_become_a_modifier_with_the_default_as_base() {
        let doc = json!({
            "color": {
                "$type": "color",
                "bg": {"$value": {"default": "#ffffff", "dark": "#000000"}},
                "fg": {"$value": {"default": "#111111", "dark": "#eeeeee"}},
                "brand": {"$value": "#0a84ff"},
                "c": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1]}}
            }
        });
        let mut d = FileDiags::new("b", "b/t.json".to_string());
        let c = read(&doc, &mut d).unwrap();
        assert_eq!(
            c.doc["sets"]["tokens"]["sources"][0]["color"]["bg"]["$value"],
            "#ffffff"
        );
        assert_eq!(
            c.doc["modifiers"]["theme"]["contexts"]["dark"][0]["color"]["bg"],
            json!({"$value": "#000000", "$type": "color"})
        );
        assert_eq!(c.doc["modifiers"]["theme"]["default"], "default");
        // A colour object is a value, not modes.
        assert!(read(
            &json!({"c": {"$value": {"hex": "#fff", "alpha": 1}}}),
            &mut d
        )
        .is_none());
        assert!(read(&json!({"c": {"$value": "#fff"}}), &mut d).is_none());
    }
}
