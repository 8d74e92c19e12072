//! Figma plugin exports that put a collection's mode in the token's path:
//! `{"Semantic": {"Light": {"bg": …}, "Dark": {"bg": …}}}`, references
//! `{Semantic.Light.bg}`. Told by structure and evidence: a top-level
//! group whose members are all groups (two or more) that define the same
//! tokens, named by mode words (`Light`, `Dark`, `Mode 1`…) or marked as
//! modes by the plugin's `$extensions`. Such a collection is a modifier
//! of its modes; the mode segment is stripped from names and from
//! references, so `{Semantic.Light.bg}` is `{Semantic.bg}`. The default
//! mode is `light`, `default` or `base`, else the first written. PURE.

use super::Converted;
use crate::spec::json::{escape_token, join};
use serde_json::{json, Map, Value};
use std::collections::HashSet;

/// Names a mode may have, lower case: the mode words, and Figma's default.
const MODE_WORDS: &[&str] = &[
    "light",
    "dark",
    "dim",
    "day",
    "night",
    "default",
    "base",
    "high-contrast",
    "light-high-contrast",
    "dark-high-contrast",
    "contrast",
    "compact",
    "comfortable",
    "spacious",
];

/// The tokens under `v`, by dotted name below it.
fn names(v: &Value, prefix: &str, out: &mut HashSet<String>, depth: usize) {
    let Some(o) = v.as_object() else { return };
    if o.contains_key("$value") {
        out.insert(prefix.to_string());
        return;
    }
    if depth > crate::spec::limits::MAX_JSON_DEPTH {
        return;
    }
    for (k, c) in o.iter().filter(|(k, _)| !k.starts_with('$')) {
        let name = match prefix.is_empty() {
            true => k.clone(),
            false => format!("{prefix}.{k}"),
        };
        names(c, &name, out, depth + 1);
    }
}

/// True when a token under `v` says, in its plugin's `$extensions`, that
/// it is of a mode (`"mode": "Dark"`, `com.figma.modeName`).
fn marked(v: &Value, depth: usize) -> bool {
    let Some(o) = v.as_object() else { return false };
    if let Some(e) = o.get("$extensions").and_then(Value::as_object) {
        let says = |x: &Value| x.get("mode").is_some() || x.get("modeName").is_some();
        if e.contains_key("com.figma.modeName") || e.values().any(says) {
            return true;
        }
    }
    depth < crate::spec::limits::MAX_JSON_DEPTH
        && o.iter()
            .filter(|(k, _)| !k.starts_with('$'))
            .any(|(_, c)| marked(c, depth + 1))
}

fn is_mode_name(name: &str) -> bool {
    let lower = name.trim().to_lowercase().replace([' ', '_'], "-");
    MODE_WORDS.contains(&lower.as_str())
        || lower
            .strip_prefix("mode-")
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
}

/// True when something in `v` is Figma's: an `$extensions` key naming
/// it (`com.figma…`, `org.lukasoppermann.figmaDesignTokens`), or a Figma
/// variable's id in one (Tokens Brücke's `"variableId": "VariableID:72:35"`).
fn figma(v: &Value, depth: usize) -> bool {
    let Some(o) = v.as_object() else { return false };
    o.get("$extensions")
        .and_then(Value::as_object)
        .is_some_and(|e| {
            e.keys().any(|k| k.to_lowercase().contains("figma"))
                || e.values().any(|x| variable_id(x, 0))
        })
        || (depth < crate::spec::limits::MAX_JSON_DEPTH && o.values().any(|c| figma(c, depth + 1)))
}

/// True when `v` is, or holds, the id Figma gives a variable.
fn variable_id(v: &Value, depth: usize) -> bool {
    match v {
        Value::String(s) => s.starts_with("VariableID:"),
        Value::Object(o) if depth < crate::spec::limits::MAX_JSON_DEPTH => {
            o.values().any(|c| variable_id(c, depth + 1))
        }
        _ => false,
    }
}

/// The modes of collection `v`, when it is one: its members, all groups
/// (one, or two or more defining the same tokens), marked as modes by the
/// plugin, or named as modes in a Figma export (`from_figma`).
fn modes(v: &Value, from_figma: bool) -> Option<Vec<String>> {
    let o = v.as_object()?;
    let members: Vec<(&String, &Value)> = o.iter().filter(|(k, _)| !k.starts_with('$')).collect();
    if members.is_empty() || o.contains_key("$value") {
        return None;
    }
    let mut sets = Vec::new();
    for (_, m) in &members {
        if !m.is_object() || m.get("$value").is_some() {
            return None;
        }
        let mut n = HashSet::new();
        names(m, "", &mut n, 0);
        if n.is_empty() {
            return None;
        }
        sets.push(n);
    }
    let first = &sets[0];
    let same = sets
        .iter()
        .all(|s| s.intersection(first).count() * 2 >= s.len().min(first.len()));
    let evidence = (from_figma && members.iter().all(|(k, _)| is_mode_name(k))) || marked(v, 0);
    (same && evidence).then(|| members.iter().map(|(k, _)| k.to_string()).collect())
}

/// `s` with each reference `{C.M.rest}` to a mode `M` of collection `C`
/// written `{C.rest}`.
fn strip(s: &str, collections: &[(String, Vec<String>)]) -> String {
    let mut out = s.to_string();
    for (c, modes) in collections {
        for m in modes {
            out = out.replace(&format!("{{{c}.{m}."), &format!("{{{c}."));
        }
    }
    out
}

fn strip_all(v: &mut Value, collections: &[(String, Vec<String>)]) {
    match v {
        Value::String(s) if s.contains('{') => *s = strip(s, collections),
        Value::Object(o) => o.values_mut().for_each(|c| strip_all(c, collections)),
        Value::Array(a) => a.iter_mut().for_each(|c| strip_all(c, collections)),
        _ => {}
    }
}

/// Where each token under `v` is, in the output (`at`) and the source
/// (`from`).
fn pointers(v: &Value, at: &str, from: &str, out: &mut Vec<(String, String)>, depth: usize) {
    let Some(o) = v.as_object() else { return };
    if o.contains_key("$value") {
        out.push((at.to_string(), from.to_string()));
        return;
    }
    if depth > crate::spec::limits::MAX_JSON_DEPTH {
        return;
    }
    for (k, c) in o.iter().filter(|(k, _)| !k.starts_with('$')) {
        pointers(c, &join(at, k), &join(from, k), out, depth + 1);
    }
}

/// The document as a resolver when a collection keeps its modes in the
/// path; `None` when none does.
pub fn read(doc: &Value) -> Option<Converted> {
    let o = doc.as_object()?;
    if o.contains_key("resolutionOrder") {
        return None;
    }
    let from_figma = figma(doc, 0);
    let collections: Vec<(String, Vec<String>)> = o
        .iter()
        .filter(|(k, _)| !k.starts_with('$'))
        .filter_map(|(k, v)| Some((k.clone(), modes(v, from_figma)?)))
        .collect();
    // Only where a collection has several modes: a lone `default` group
    // elsewhere is a name, not a mode.
    if !collections.iter().any(|(_, m)| m.len() > 1) {
        return None;
    }
    let mut doc = doc.clone();
    strip_all(&mut doc, &collections);
    let mut tokens = Vec::new();
    let mut base = Map::new();
    let mut modifiers = Map::new();
    let mut order = vec![json!({"$ref": "#/sets/tokens"})];
    let base_at = "/sets/tokens/sources/0";
    for (k, v) in doc.as_object()?.iter() {
        let Some((_, modes)) = collections.iter().find(|(c, _)| c == k) else {
            if !k.starts_with('$') {
                pointers(v, &join(base_at, k), &join("", k), &mut tokens, 0);
            }
            base.insert(k.clone(), v.clone());
            continue;
        };
        // A collection of one mode: its tokens, the segment stripped.
        if let [only] = modes.as_slice() {
            let tree = &v[only.as_str()];
            pointers(
                tree,
                &join(base_at, k),
                &join(&join("", k), only),
                &mut tokens,
                0,
            );
            base.insert(k.clone(), tree.clone());
            continue;
        }
        let default = ["light", "default", "base"]
            .iter()
            .find_map(|d| modes.iter().find(|m| m.trim().eq_ignore_ascii_case(d)))
            .unwrap_or(&modes[0]);
        let mut contexts = Map::new();
        let mut schemes = Map::new();
        for m in modes {
            let tree = &v[m.as_str()];
            let at = format!(
                "{}/0/{}",
                join(&join(&join("/modifiers", k), "contexts"), m),
                escape_token(k)
            );
            pointers(tree, &at, &join(&join("", k), m), &mut tokens, 0);
            contexts.insert(m.clone(), json!([{ k.clone(): tree }]));
            let lower = m.to_lowercase();
            if lower.contains("dark") || lower.contains("night") {
                schemes.insert(m.clone(), json!("dark"));
            } else if lower.contains("light") || lower.contains("day") {
                schemes.insert(m.clone(), json!("light"));
            }
        }
        let mut modifier = json!({
            "description": format!("the modes of Figma collection `{k}`, written in its tokens' paths"),
            "contexts": contexts,
            "default": default,
        });
        if schemes.values().any(|s| s == "dark") {
            modifier["$extensions"] = json!({"app.marque": {"colorScheme": schemes}});
        }
        modifiers.insert(k.clone(), modifier);
        order.push(json!({"$ref": join("#/modifiers", k)}));
    }
    let resolver = json!({
        "version": "2025.10",
        "sets": {"tokens": {"sources": [base]}},
        "modifiers": modifiers,
        "resolutionOrder": order,
    });
    Some(Converted::new(resolver, tokens, &[]))
}

/// A Style Dictionary source as read (`read`), or, when it is a Figma
/// plugin's export keeping a collection's modes in its paths (Tokens
/// Brücke's `value`, `type`), those modes as contexts, each token's place
/// still the one in the source.
pub fn over(read: Converted) -> Converted {
    let Some(mut modes) = self::read(&read.doc) else {
        return read;
    };
    for (_, source) in &mut modes.tokens {
        *source = read.source_pointer(source);
    }
    modes.tokens.sort();
    modes.members = read.members;
    modes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_collection_s_modes_in_the_path_are_a_modifier_and_leave_names_and_references() {
        let doc = json!({
            "Primitives": {"Mode 1": {"white": {"$type": "color", "$value": "#ffffff", "$extensions": {"com.figma.scopes": ["ALL_SCOPES"]}}, "ink": {"$type": "color", "$value": "#111111"}}},
            "Semantic": {
                "Dark": {"bg": {"$type": "color", "$value": "{Primitives.Mode 1.ink}"}},
                "Light": {"bg": {"$type": "color", "$value": "{Primitives.Mode 1.white}"}}
            }
        });
        let c = read(&doc).expect("modes in the path");
        let m = &c.doc["modifiers"]["Semantic"];
        assert_eq!(m["default"], "Light");
        assert_eq!(
            m["contexts"]["Dark"][0]["Semantic"]["bg"]["$value"],
            "{Primitives.ink}"
        );
        // A collection of one mode is the base, its segment stripped.
        assert!(c.doc["modifiers"].get("Primitives").is_none());
        let base = &c.doc["sets"]["tokens"]["sources"][0];
        assert_eq!(base["Primitives"]["white"]["$value"], "#ffffff");
        assert_eq!(
            c.source_pointer("/modifiers/Semantic/contexts/Dark/0/Semantic/bg/$value"),
            "/Semantic/Dark/bg/$value"
        );
        // Mode words without Figma's evidence are groups, as written.
        let hand = json!({"color": {"light": {"a": {"$type": "color", "$value": "#000000"}}, "dark": {"a": {"$type": "color", "$value": "#ffffff"}}}});
        assert!(read(&hand).is_none());
        // A Figma variable's id is Figma's evidence too (Tokens Brücke).
        let id = |v: &str| json!({"$type": "color", "$value": v, "$extensions": {"variableId": "VariableID:72:35"}});
        let bruecke =
            json!({"Tokens": {"Light": {"bg": id("#ffffff")}, "Dark": {"bg": id("#000000")}}});
        let c = read(&bruecke).expect("modes in the path");
        assert_eq!(c.doc["modifiers"]["Tokens"]["default"], "Light");
        // Groups that are not modes stay groups.
        let plain = json!({"color": {"brand": {"a": {"$type": "color", "$value": "#000000"}}, "accent": {"a": {"$type": "color", "$value": "#ffffff"}}}});
        assert!(read(&plain).is_none());
    }
}
