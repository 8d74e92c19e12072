//! The response of Figma's `GET /v1/files/:file_key/variables/local`
//! (with or without its `meta` wrapper), read as Figma shows it, into a
//! DTCG resolver document whose sources are inline:
//!
//! - a collection with one mode is a set; one with several a modifier, its
//!   modes the contexts, its default mode the default (names in document
//!   order; of collections that share a name, the file's own, then the
//!   largest, keeps it, the others get `-2`, `-3`);
//! - a variable is a token named by its name, `/` separating groups; when
//!   variables of two collections share a name, each is named under its
//!   collection's name, the segments both start with written once
//!   (`base/color/dark` + `base/color/gray/7` is `base.color.dark.gray.7`);
//! - `COLOR` `{r, g, b, a}` is an sRGB colour; `STRING` is text, or a font
//!   family when scoped `FONT_FAMILY`; `FLOAT` is read by one rule: scoped
//!   `FONT_WEIGHT` or `FONT_STYLE` a font weight, `OPACITY` a number,
//!   `LINE_HEIGHT` a line height, any other scope but `ALL_SCOPES` pixels; with
//!   `ALL_SCOPES` (or none) its name decides: a name with `line-height`
//!   or `leading` a line height, with `weight` a font weight, with `opacity`,
//!   `ratio`, `scale` or `z-index` a number, with a word of size (`size`,
//!   `space`, `spacing`, `gap`, `padding`, `margin`, `radius`, `width`,
//!   `height`, `border`, `offset`, `blur`, `spread`, `inset`, `breakpoint`)
//!   pixels, else a number. A line height above 3 is pixels, one at or
//!   below a multiple of the font size, each with a warning;
//! - `VARIABLE_ALIAS` is a reference to the variable with that id. An
//!   alias to an id the file does not hold (a remote library's), a
//!   `BOOLEAN` (DTCG has no type for it) and every variable that refers to
//!   one of those are left out, each with a warning at its place.

use super::{insert, srgb, Converted};
use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::join;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Each of `$value` and `$type` is written at the value of its mode.
const MEMBERS: &[(&str, &str)] = &[("$value", ""), ("$type", ""), ("$description", "")];

struct Collection<'d> {
    id: &'d str,
    name: String,
    /// Mode id and name, in order.
    modes: Vec<(&'d str, String)>,
    default: usize,
}

pub fn read(doc: &Value, d: &mut FileDiags<'_>) -> Converted {
    let (root, base) = match doc.get("meta") {
        Some(m) => (m, "/meta"),
        None => (doc, ""),
    };
    let empty = Map::new();
    let variables = root
        .get("variables")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let collections_doc = root
        .get("variableCollections")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let collections = collections(collections_doc);
    let collection_of: HashMap<&str, usize> = collections
        .iter()
        .enumerate()
        .map(|(i, c)| (c.id, i))
        .collect();
    // A name shared by variables of two collections is named under each.
    let mut by_name: HashMap<&str, HashSet<&str>> = HashMap::new();
    for v in variables.values() {
        if let (Some(n), Some(c)) = (
            v.get("name").and_then(Value::as_str),
            v.get("variableCollectionId").and_then(Value::as_str),
        ) {
            by_name.entry(n).or_default().insert(c);
        }
    }
    let path_of = |v: &Value| -> Option<Vec<String>> {
        let name = v.get("name")?.as_str()?;
        let c = collection_of.get(v.get("variableCollectionId")?.as_str()?)?;
        let segments = |s: &str| -> Vec<String> {
            s.split('/')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect()
        };
        let own = segments(name);
        if by_name.get(name).is_none_or(|cs| cs.len() <= 1) {
            return Some(own);
        }
        // Under the collection's name, the segments both start with once:
        // `base/color/dark` + `base/color/gray/7` is `base.color.dark.gray.7`.
        let mut path = segments(&collections[*c].name);
        let shared = path.iter().zip(&own).take_while(|(a, b)| a == b).count();
        path.extend(own.into_iter().skip(shared));
        Some(path)
    };
    let kept = published(variables, base, d);
    let variables = &kept;
    // What is left out, and why; then what refers to it, until none is added.
    let mut left_out: BTreeMap<&str, (Code, String)> = BTreeMap::new();
    for (id, v) in variables {
        let collection = v.get("variableCollectionId").and_then(Value::as_str);
        let in_file = collection_of.contains_key(collection.unwrap_or(""));
        let named = path_of(v).is_some_and(|p| !p.is_empty());
        if let Some((code, why)) = unpublishable(v, in_file, named) {
            left_out.insert(id, (code, why.to_string()));
        }
    }
    let gone = unreadable(variables, &left_out, &collections, &collection_of);
    for (id, (code, why)) in &left_out {
        d.push(
            *code,
            &join(&join(base, "variables"), id),
            format!("variable `{}` is left out: {why}", name_of(variables, id)),
        );
    }
    warn_lost_values(&gone, variables, &collections, &collection_of, base, d);
    // Each collection's mode trees.
    let mut trees: Vec<Vec<Map<String, Value>>> = collections
        .iter()
        .map(|c| vec![Map::new(); c.modes.len()])
        .collect();
    let mut tokens = Vec::new();
    let at_of = |c: usize, m: usize| -> String {
        let col = &collections[c];
        match col.modes.len() {
            1 => format!("{}/0", join(&join("/sets", &col.name), "sources")),
            _ => format!(
                "{}/0",
                join(
                    &join(&join("/modifiers", &col.name), "contexts"),
                    &col.modes[m].1
                )
            ),
        }
    };
    for (id, v) in variables {
        if left_out.contains_key(id.as_str()) {
            continue;
        }
        let (Some(path), Some(&c)) = (
            path_of(v),
            v.get("variableCollectionId")
                .and_then(Value::as_str)
                .and_then(|c| collection_of.get(c)),
        ) else {
            continue;
        };
        let ty = dtcg_type(v);
        let values = v.get("valuesByMode").and_then(Value::as_object);
        for (m, (mode_id, _)) in collections[c].modes.iter().enumerate() {
            let Some(raw) = values.and_then(|vs| vs.get(*mode_id)) else {
                continue;
            };
            if gone.contains_key(&(id.as_str(), *mode_id)) {
                continue;
            }
            let source = join(
                &join(&join(&join(base, "variables"), id), "valuesByMode"),
                mode_id,
            );
            let (ty, value) = match raw.get("type").and_then(Value::as_str) {
                Some("VARIABLE_ALIAS") => {
                    let target = raw.get("id").and_then(Value::as_str).unwrap_or("");
                    let Some(p) = variables.get(target).and_then(&path_of) else {
                        continue;
                    };
                    // A line height's type is its target's, pixels or a ratio.
                    let ty = Some(ty).filter(|t| *t != LINE_HEIGHT);
                    (ty, json!(format!("{{{}}}", p.join("."))))
                }
                _ => typed_literal(ty, raw, &source, d),
            };
            let mut token = Map::new();
            if let Some(ty) = ty {
                token.insert("$type".into(), json!(ty));
            }
            token.insert("$value".into(), value);
            if let Some(desc) = v
                .get("description")
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
            {
                token.insert("$description".into(), json!(desc));
            }
            insert(&mut trees[c][m], &path, Value::Object(token));
            let at = path.iter().fold(at_of(c, m), |p, s| join(&p, s));
            tokens.push((at, source));
        }
    }
    Converted::new(resolver(&collections, trees, variables), tokens, MEMBERS)
}

/// Why a variable is left out whatever refers to it (a type DTCG has
/// not, a collection the file does not hold, no name): its code and why.
fn unpublishable(v: &Value, in_file: bool, named: bool) -> Option<(Code, &'static str)> {
    if v.get("resolvedType").and_then(Value::as_str) == Some("BOOLEAN") {
        let why = "it is a BOOLEAN, which DTCG 2025.10 has no type for";
        return Some((Code::LeftOutNoDtcgForm, why));
    }
    match (in_file, named) {
        (false, _) => Some((Code::LeftOutOther, "its collection is not in the file")),
        (true, false) => Some((Code::LeftOutOther, "it has no name")),
        (true, true) => None,
    }
}

/// The values that cannot be read, by variable id and mode, with why: an
/// alias whose target is not in the file, is left out (`left_out`), or has
/// no value in that mode (the same collection's) or in some mode (another
/// collection's, which any context may select). Found until none is
/// added; a variable keeps the values it has.
fn unreadable<'a>(
    variables: &'a Map<String, Value>,
    left_out: &BTreeMap<&str, (Code, String)>,
    collections: &'a [Collection<'a>],
    collection_of: &HashMap<&str, usize>,
) -> BTreeMap<(&'a str, &'a str), (Code, String)> {
    let modes_of = |v: &Value| -> Vec<&str> {
        v.get("variableCollectionId")
            .and_then(Value::as_str)
            .and_then(|c| collection_of.get(c))
            .map(|&c| collections[c].modes.iter().map(|(m, _)| *m).collect())
            .unwrap_or_default()
    };
    let mut gone: BTreeMap<(&str, &str), (Code, String)> = BTreeMap::new();
    loop {
        let mut more = Vec::new();
        for (id, v) in variables
            .iter()
            .filter(|(id, _)| !left_out.contains_key(id.as_str()))
        {
            let values = v.get("valuesByMode").and_then(Value::as_object);
            for mode in modes_of(v) {
                if gone.contains_key(&(id.as_str(), mode)) {
                    continue;
                }
                let Some(raw) = values.and_then(|vs| vs.get(mode)) else {
                    continue;
                };
                if raw.get("type").and_then(Value::as_str) != Some("VARIABLE_ALIAS") {
                    continue;
                }
                let target = raw.get("id").and_then(Value::as_str).unwrap_or("");
                let name = name_of(variables, target);
                let dependent = |why: String| (Code::LeftOutDependent, why);
                let why = match variables.get(target) {
                    None => Some((Code::LeftOutBrokenReference, format!("it refers to `{target}`, a variable this file does not hold (a library's?)"))),
                    Some(_) if left_out.contains_key(target) => Some(dependent(format!("it refers to `{name}`, which is left out"))),
                    Some(t) => {
                        let same = t.get("variableCollectionId") == v.get("variableCollectionId");
                        let lost = |m: &str| gone.contains_key(&(target, m));
                        match same {
                            true => lost(mode).then(|| dependent(format!("it refers to `{name}`, which has no value there"))),
                            false => modes_of(t).into_iter().any(lost).then(|| dependent(format!("it refers to `{name}`, which lacks a value in some mode"))),
                        }
                    }
                };
                if let Some(why) = why {
                    more.push(((id.as_str(), mode), why));
                }
            }
        }
        if more.is_empty() {
            return gone;
        }
        gone.extend(more);
    }
}

/// A value left out: one warning per variable, at its first such value,
/// naming the modes it is left out of.
fn warn_lost_values(
    gone: &BTreeMap<(&str, &str), (Code, String)>,
    variables: &Map<String, Value>,
    collections: &[Collection<'_>],
    collection_of: &HashMap<&str, usize>,
    base: &str,
    d: &mut FileDiags<'_>,
) {
    let mut said = HashSet::new();
    for ((id, mode), (code, why)) in gone {
        if !said.insert(*id) {
            continue;
        }
        let v = &variables[*id];
        let c = collection_of[v
            .get("variableCollectionId")
            .and_then(Value::as_str)
            .unwrap_or("")];
        let lost: Vec<&str> = collections[c]
            .modes
            .iter()
            .map(|(m, _)| *m)
            .filter(|m| gone.contains_key(&(*id, *m)))
            .collect();
        let mode_name = |m: &str| -> String {
            let named = collections[c].modes.iter().find(|(i, _)| *i == m);
            named.map_or(m, |(_, n)| n.as_str()).to_string()
        };
        let which = match (collections[c].modes.len(), lost.len()) {
            (1, _) => "left out".to_string(),
            (n, k) if n == k => "left out of every mode".to_string(),
            (_, 1) => format!("left out of mode `{}`", mode_name(lost[0])),
            (_, k) => format!(
                "left out of mode `{}` and {} more",
                mode_name(lost[0]),
                k - 1
            ),
        };
        d.push(
            *code,
            &join(
                &join(&join(&join(base, "variables"), id), "valuesByMode"),
                mode,
            ),
            format!("variable `{}` is {which}: {why}", name_of(variables, id)),
        );
    }
}

/// The collections in document order, names made unique: of those that
/// share a name, the file's own (not `remote`), then the largest, keeps
/// it, the others get `-2`, `-3`.
fn collections(collections_doc: &Map<String, Value>) -> Vec<Collection<'_>> {
    let mut used: HashMap<String, usize> = HashMap::new();
    let remote = |c: &Value| c.get("remote").and_then(Value::as_bool) == Some(true);
    let mut unique_names = HashMap::new();
    let size = |c: &Value| {
        c.get("variableIds")
            .and_then(Value::as_array)
            .map_or(0, Vec::len)
    };
    let mut ranked: Vec<(&String, &Value)> = collections_doc.iter().collect();
    ranked.sort_by_key(|(_, c)| (remote(c), std::cmp::Reverse(size(c))));
    for (id, c) in ranked {
        let Some(name) = c.get("name").and_then(Value::as_str) else {
            continue;
        };
        let n = used.entry(name.to_string()).or_default();
        *n += 1;
        let unique = match *n {
            1 => name.to_string(),
            k => format!("{name}-{k}"),
        };
        unique_names.insert(id.as_str(), unique);
    }
    collections_doc
        .iter()
        .filter_map(|(id, c)| {
            let unique = unique_names.get(id.as_str())?.clone();
            let modes: Vec<(&str, String)> = c
                .get("modes")?
                .as_array()?
                .iter()
                .filter_map(|m| {
                    Some((
                        m.get("modeId")?.as_str()?,
                        m.get("name")?.as_str()?.to_string(),
                    ))
                })
                .collect();
            let default_id = c.get("defaultModeId").and_then(Value::as_str);
            let default = modes
                .iter()
                .position(|(m, _)| Some(*m) == default_id)
                .unwrap_or(0);
            Some(Collection {
                id,
                name: unique,
                modes,
                default,
            })
        })
        .collect()
}

/// The variables published: the file's own, and a library's (`remote`;
/// the export copies whole libraries) where they refer to them. How many
/// are not is a warning.
fn published(all: &Map<String, Value>, base: &str, d: &mut FileDiags<'_>) -> Map<String, Value> {
    let mut used: HashSet<&str> = all
        .iter()
        .filter(|(_, v)| v.get("remote").and_then(Value::as_bool) != Some(true))
        .map(|(id, _)| id.as_str())
        .collect();
    let mut todo: Vec<&str> = used.iter().copied().collect();
    while let Some(id) = todo.pop() {
        let targets = all[id]
            .get("valuesByMode")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|vs| vs.values())
            .filter(|x| x.get("type").and_then(Value::as_str) == Some("VARIABLE_ALIAS"))
            .filter_map(|x| x.get("id").and_then(Value::as_str));
        for t in targets {
            if let Some((t, _)) = all.get_key_value(t) {
                if used.insert(t.as_str()) {
                    todo.push(t.as_str());
                }
            }
        }
    }
    let unused = all.len() - used.len();
    if unused > 0 {
        d.push(
            Code::UnusedLibraryVariables,
            &join(base, "variables"),
            format!("{unused} variable(s) copied from libraries (`remote`) that nothing in this file refers to are not published"),
        );
    }
    all.iter()
        .filter(|(id, _)| used.contains(id.as_str()))
        .map(|(id, v)| (id.clone(), v.clone()))
        .collect()
}

/// The resolver of the collections' mode trees: sets, then modifiers, in
/// document order; a collection none of whose variables is published adds
/// nothing.
fn resolver(
    collections: &[Collection<'_>],
    mut trees: Vec<Vec<Map<String, Value>>>,
    variables: &Map<String, Value>,
) -> Value {
    let mut sets = Map::new();
    let mut modifiers = Map::new();
    let mut order = Vec::new();
    let holds: HashSet<&str> = variables
        .values()
        .filter_map(|v| v.get("variableCollectionId").and_then(Value::as_str))
        .collect();
    for (c, col) in collections.iter().enumerate() {
        let trees = std::mem::take(&mut trees[c]);
        // A collection none of whose variables is published adds nothing.
        if !holds.contains(col.id) {
            continue;
        }
        if col.modes.len() == 1 {
            let tree = trees.into_iter().next().unwrap_or_default();
            sets.insert(col.name.clone(), json!({"sources": [tree]}));
            order.push(json!({"$ref": join("#/sets", &col.name)}));
        } else if col.modes.len() > 1 {
            let contexts: Map<String, Value> = col
                .modes
                .iter()
                .zip(trees)
                .map(|((_, name), tree)| (name.clone(), json!([tree])))
                .collect();
            modifiers.insert(
                col.name.clone(),
                json!({"contexts": contexts, "default": col.modes[col.default].1}),
            );
        }
    }
    for name in modifiers.keys() {
        order.push(json!({"$ref": join("#/modifiers", name)}));
    }
    let mut resolver = json!({"version": "2025.10", "sets": sets, "resolutionOrder": order});
    if !modifiers.is_empty() {
        resolver["modifiers"] = Value::Object(modifiers);
    }
    resolver
}

fn name_of<'v>(variables: &'v Map<String, Value>, id: &'v str) -> &'v str {
    variables
        .get(id)
        .and_then(|v| v.get("name"))
        .and_then(Value::as_str)
        .unwrap_or(id)
}

/// A `FLOAT` that is a line height: not a DTCG type, but read by
/// [`super::bare_line_height`], pixels or a ratio by its size.
const LINE_HEIGHT: &str = "lineHeight";

/// The DTCG type of a variable, by the rule in this module's header.
fn dtcg_type(v: &Value) -> &'static str {
    let scopes: Vec<&str> = v
        .get("scopes")
        .and_then(Value::as_array)
        .map(|s| s.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let name = v
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_ascii_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| name.contains(w));
    match v.get("resolvedType").and_then(Value::as_str) {
        Some("COLOR") => "color",
        Some("STRING") if scopes.contains(&"FONT_FAMILY") || has(&["family"]) => "fontFamily",
        Some("STRING") => "string",
        _ => {
            let specific: Vec<&str> = scopes
                .iter()
                .copied()
                .filter(|s| *s != "ALL_SCOPES")
                .collect();
            let line_height = ["line-height", "lineheight", "line height", "leading"];
            if specific.contains(&"LINE_HEIGHT") || (specific.is_empty() && has(&line_height)) {
                LINE_HEIGHT
            } else if specific
                .iter()
                .any(|s| matches!(*s, "FONT_WEIGHT" | "FONT_STYLE"))
            {
                "fontWeight"
            } else if specific.contains(&"OPACITY") {
                "number"
            } else if !specific.is_empty() {
                "dimension"
            } else if has(&["weight"]) {
                "fontWeight"
            } else if has(&["opacity", "ratio", "scale", "z-index", "zindex"]) {
                "number"
            } else if has(&[
                "size",
                "space",
                "spacing",
                "gap",
                "padding",
                "margin",
                "radius",
                "width",
                "height",
                "border",
                "offset",
                "blur",
                "spread",
                "inset",
                "breakpoint",
            ]) {
                "dimension"
            } else {
                "number"
            }
        }
    }
}

/// A literal of type `ty` (or [`LINE_HEIGHT`], with a warning at
/// `source`) as DTCG: its type and value.
fn typed_literal(
    ty: &'static str,
    raw: &Value,
    source: &str,
    d: &mut FileDiags<'_>,
) -> (Option<&'static str>, Value) {
    if ty != LINE_HEIGHT {
        return (Some(ty), literal(ty, raw));
    }
    let (ty, value, why) = super::bare_line_height(raw.as_f64().unwrap_or(0.0));
    d.push(Code::BareLineHeight, source, why);
    (Some(ty), value)
}

/// A literal value of type `ty` from Figma's JSON.
fn literal(ty: &str, raw: &Value) -> Value {
    match ty {
        "color" => {
            let ch = |k: &str| raw.get(k).and_then(Value::as_f64).unwrap_or(0.0);
            let a = raw.get("a").and_then(Value::as_f64).unwrap_or(1.0);
            srgb([ch("r"), ch("g"), ch("b")], a)
        }
        "dimension" => json!({"value": raw.as_f64().unwrap_or(0.0), "unit": "px"}),
        "fontFamily" | "string" => raw.clone(),
        _ => raw.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collections_become_sets_and_modifiers_and_aliases_references() {
        let doc = json!({"meta": {
            "variableCollections": {
                "C:1": {"id": "C:1", "name": "base", "modes": [{"modeId": "1:0", "name": "default"}], "defaultModeId": "1:0"},
                "C:2": {"id": "C:2", "name": "theme", "modes": [{"modeId": "2:0", "name": "Light"}, {"modeId": "2:1", "name": "Dark"}], "defaultModeId": "2:0"}
            },
            "variables": {
                "V:1": {"id": "V:1", "name": "gray/900", "variableCollectionId": "C:1", "resolvedType": "COLOR", "valuesByMode": {"1:0": {"r": 0.1, "g": 0.1, "b": 0.1, "a": 1}}, "scopes": ["ALL_SCOPES"]},
                "V:2": {"id": "V:2", "name": "gray/50", "variableCollectionId": "C:1", "resolvedType": "COLOR", "valuesByMode": {"1:0": {"r": 1, "g": 1, "b": 1, "a": 0.5}}, "scopes": ["ALL_SCOPES"]},
                "V:3": {"id": "V:3", "name": "text", "variableCollectionId": "C:2", "resolvedType": "COLOR", "valuesByMode": {"2:0": {"type": "VARIABLE_ALIAS", "id": "V:1"}, "2:1": {"type": "VARIABLE_ALIAS", "id": "V:2"}}},
                "V:4": {"id": "V:4", "name": "space/4", "variableCollectionId": "C:1", "resolvedType": "FLOAT", "valuesByMode": {"1:0": 16}, "scopes": ["GAP"]},
                "V:5": {"id": "V:5", "name": "remote", "variableCollectionId": "C:1", "resolvedType": "COLOR", "valuesByMode": {"1:0": {"type": "VARIABLE_ALIAS", "id": "V:lib"}}},
                "V:6": {"id": "V:6", "name": "flag", "variableCollectionId": "C:1", "resolvedType": "BOOLEAN", "valuesByMode": {"1:0": true}}
            }
        }});
        let mut d = FileDiags::new("b", "b/f.json");
        let c = read(&doc, &mut d);
        let base = &c.doc["sets"]["base"]["sources"][0];
        assert_eq!(base["gray"]["50"]["$value"]["alpha"], 0.5);
        assert_eq!(
            base["space"]["4"],
            json!({"$type": "dimension", "$value": {"value": 16.0, "unit": "px"}})
        );
        assert!(base.get("remote").is_none() && base.get("flag").is_none());
        let theme = &c.doc["modifiers"]["theme"];
        assert_eq!(theme["default"], "Light");
        assert_eq!(theme["contexts"]["Dark"][0]["text"]["$value"], "{gray.50}");
        assert_eq!(
            c.source_pointer("/modifiers/theme/contexts/Dark/0/text/$value"),
            "/meta/variables/V:3/valuesByMode/2:1"
        );
        let mut out = Vec::new();
        d.finish(None, &mut out);
        assert_eq!(out.len(), 2, "{out:?}");
    }

    #[test]
    fn a_line_height_above_3_is_pixels_and_one_at_or_below_a_ratio() {
        let doc = json!({"meta": {
            "variableCollections": {
                "C:1": {"id": "C:1", "name": "base", "modes": [{"modeId": "1:0", "name": "default"}], "defaultModeId": "1:0"}
            },
            "variables": {
                "V:1": {"id": "V:1", "name": "body/line-height", "variableCollectionId": "C:1", "resolvedType": "FLOAT", "valuesByMode": {"1:0": 24}, "scopes": ["ALL_SCOPES"]},
                "V:2": {"id": "V:2", "name": "tight", "variableCollectionId": "C:1", "resolvedType": "FLOAT", "valuesByMode": {"1:0": 1.25}, "scopes": ["LINE_HEIGHT"]},
                "V:3": {"id": "V:3", "name": "heading/leading", "variableCollectionId": "C:1", "resolvedType": "FLOAT", "valuesByMode": {"1:0": {"type": "VARIABLE_ALIAS", "id": "V:1"}}, "scopes": ["LINE_HEIGHT"]}
            }
        }});
        let mut d = FileDiags::new("b", "b/f.json");
        let c = read(&doc, &mut d);
        let base = &c.doc["sets"]["base"]["sources"][0];
        assert_eq!(
            base["body"]["line-height"],
            json!({"$type": "dimension", "$value": {"value": 24.0, "unit": "px"}})
        );
        assert_eq!(base["tight"], json!({"$type": "number", "$value": 1.25}));
        // An alias takes its target's type.
        assert_eq!(
            base["heading"]["leading"],
            json!({"$value": "{body.line-height}"})
        );
        let mut out = Vec::new();
        d.finish(None, &mut out);
        let warned: Vec<&str> = out
            .iter()
            .filter(|x| x.code == Code::BareLineHeight)
            .map(|x| x.pointer.as_str())
            .collect();
        assert_eq!(
            warned,
            [
                "/meta/variables/V:1/valuesByMode/1:0",
                "/meta/variables/V:2/valuesByMode/1:0"
            ],
            "{out:?}"
        );
    }
}
