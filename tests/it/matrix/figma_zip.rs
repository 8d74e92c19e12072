//! The matrix's column for `figma.zip`, Figma's native variables import
//! (`src/render/apps/figma.rs`). The bundle is no plugin: it holds no
//! `manifest.json` and no code, only a README and a DTCG
//! `<Mode>.tokens.json` per mode of each collection, which the Variables
//! panel's Import reads. Figma's importer runs only inside Figma, so the
//! column judges what it reads by Figma's own published description of
//! variables, the request body of `POST /v1/files/{file_key}/variables`
//! in Figma's OpenAPI, as the `figma` column judges tokens.figma.json:
//!
//! - the zip extracts (Python's zipfile, CRCs checked), with a README and
//!   every other file a `<collection>/<mode>.tokens.json` whose
//!   `com.figma.modeName` is its mode;
//! - the variables the files describe, read as the import reads them
//!   (`$type` to the resolved type, `com.figma.scopes`,
//!   `com.figma.codeSyntax`, a `{group.name}` value an alias within the
//!   collection, `com.figma.aliasData` one to another collection), make a
//!   body Figma's OpenAPI schema accepts, with every alias's target in it
//!   and one value per mode (`assert_figma_accepts`); an alias's target
//!   has the alias's type;
//! - every colour is the resolver's in that mode's context (spec.json).

use super::{unzip, Cell, System};
use marque::render::apps::figma::segment;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// One variable as the import reads it from the first mode that has it.
struct Variable {
    id: String,
    ty: &'static str,
    json: Value,
}

/// A collection: its folder's name, its modes' files in the README's
/// order, and its variables by `/` name.
struct Collection {
    name: String,
    modes: Vec<(String, Value)>,
    variables: BTreeMap<String, Variable>,
}

/// The resolved type Figma gives a DTCG `$type` of the bundle.
fn resolved_type(ty: &str) -> Option<&'static str> {
    match ty {
        "color" => Some("COLOR"),
        "dimension" | "number" => Some("FLOAT"),
        "string" => Some("STRING"),
        _ => None,
    }
}

/// Every token of a mode's file: its path and its object.
fn tokens<'a>(v: &'a Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, &'a Value)>) {
    let Some(o) = v.as_object() else { return };
    if o.contains_key("$value") {
        out.push((path.clone(), v));
        return;
    }
    // `$root` is a group's own token (DTCG 2025.10), which tokens.figma.json
    // names `…/$root` too; no other `$` member holds a token.
    for (k, child) in o
        .iter()
        .filter(|(k, _)| !k.starts_with('$') || *k == "$root")
    {
        path.push(k.clone());
        tokens(child, path, out);
        path.pop();
    }
}

/// The collections of the extracted bundle in `work`, by folder; the
/// modes of each in the README's order (the default first).
fn read(work: &Path) -> Result<Vec<Collection>, String> {
    let readme =
        std::fs::read_to_string(work.join("README.txt")).map_err(|e| format!("README.txt: {e}"))?;
    let mut found: BTreeMap<String, Vec<(String, Value)>> = BTreeMap::new();
    for e in std::fs::read_dir(work).map_err(|e| e.to_string())? {
        let e = e.map_err(|e| e.to_string())?;
        let name = e.file_name().to_string_lossy().into_owned();
        if !e.path().is_dir() {
            if name != "README.txt" {
                return Err(format!("{name}: not in a collection's folder"));
            }
            continue;
        }
        for f in std::fs::read_dir(e.path()).map_err(|e| e.to_string())? {
            let f = f.map_err(|e| e.to_string())?.path();
            let file = f.file_name().unwrap().to_string_lossy().into_owned();
            let Some(mode) = file.strip_suffix(".tokens.json") else {
                return Err(format!("{name}/{file}: not a .tokens.json"));
            };
            let doc: Value = serde_json::from_slice(&std::fs::read(&f).unwrap())
                .map_err(|e| format!("{name}/{file}: not JSON: {e}"))?;
            if doc["$extensions"]["com.figma.modeName"] != mode {
                return Err(format!("{name}/{file}: com.figma.modeName is not {mode:?}"));
            }
            found
                .entry(name.clone())
                .or_default()
                .push((mode.into(), doc));
        }
    }
    let mut out = Vec::new();
    // The README lists `- <collection>: <mode>, <mode>…`, default first.
    for line in readme.lines().filter_map(|l| l.strip_prefix("- ")) {
        // The longest folder name the line starts with is its collection.
        let name = found
            .keys()
            .filter(|n| line.starts_with(&format!("{n}: ")))
            .max_by_key(|n| n.len())
            .cloned();
        let Some((name, modes)) = name.and_then(|n| Some((n.clone(), found.remove(&n)?))) else {
            continue;
        };
        let listed: Vec<&str> = line[name.len() + 2..].split(", ").collect();
        let mut modes = modes;
        modes.sort_by_key(|(m, _)| listed.iter().position(|l| l == m));
        out.push(Collection {
            name,
            modes,
            variables: BTreeMap::new(),
        });
    }
    if let Some(name) = found.keys().next() {
        return Err(format!("README.txt does not list collection {name}"));
    }
    if out.is_empty() {
        return Err("no collection".into());
    }
    Ok(out)
}

/// Each collection's variables, from the first mode that has each.
fn variables(collections: &mut [Collection]) -> Result<(), String> {
    let mut n = 0;
    for (c, col) in collections.iter_mut().enumerate() {
        for (mode, doc) in &col.modes {
            let mut found = Vec::new();
            tokens(doc, &mut Vec::new(), &mut found);
            for (path, t) in found {
                let name = path.join("/");
                let ty = t["$type"].as_str().and_then(resolved_type).ok_or(format!(
                    "{}/{mode}: {name} has $type {}",
                    col.name, t["$type"]
                ))?;
                if let Some(v) = col.variables.get(&name) {
                    if v.ty != ty {
                        return Err(format!("{}: {name} is {} and {ty}", col.name, v.ty));
                    }
                    continue;
                }
                n += 1;
                let ext = &t["$extensions"];
                let mut json = json!({
                    "action": "CREATE", "id": format!("v{n}"), "name": name,
                    "variableCollectionId": format!("c{c}"), "resolvedType": ty,
                    "scopes": ext["com.figma.scopes"], "codeSyntax": ext["com.figma.codeSyntax"],
                });
                if let Some(d) = t.get("$description") {
                    json["description"] = d.clone();
                }
                let id = format!("v{n}");
                col.variables.insert(name, Variable { id, ty, json });
            }
        }
    }
    Ok(())
}

/// A mode's value of a token, as Figma's body writes it: a colour's
/// `{r, g, b, a}`, a number, a string, or an alias.
fn value(collections: &[Collection], c: usize, t: &Value, ty: &str) -> Result<Value, String> {
    let alias = |col: Option<&Collection>, name: &str| -> Result<Value, String> {
        let target = col.and_then(|col| col.variables.get(name));
        match target {
            Some(v) if v.ty != ty => Err(format!("an alias of {ty} to {name}, a {}", v.ty)),
            Some(v) => Ok(json!({"type": "VARIABLE_ALIAS", "id": v.id})),
            None => Err(format!(
                "an alias to {name}, which collection {} does not hold",
                col.map_or("(none of that name)", |c| c.name.as_str())
            )),
        }
    };
    if let Some(a) = t["$extensions"].get("com.figma.aliasData") {
        let set = a["targetVariableSetName"].as_str().unwrap_or("");
        let name = a["targetVariableName"].as_str().unwrap_or("");
        return alias(collections.iter().find(|c| c.name == set), name);
    }
    let v = &t["$value"];
    if let Some(r) = v
        .as_str()
        .and_then(|s| s.strip_prefix('{')?.strip_suffix('}'))
    {
        return alias(Some(&collections[c]), &r.replace('.', "/"));
    }
    match ty {
        "COLOR" => {
            if v["colorSpace"] != "srgb" {
                return Err(format!("colour space {}", v["colorSpace"]));
            }
            let part = |i: usize| v["components"][i].clone();
            Ok(json!({"r": part(0), "g": part(1), "b": part(2), "a": v["alpha"]}))
        }
        "FLOAT" if v.is_object() => match v["unit"].as_str() {
            Some("px") => Ok(v["value"].clone()),
            _ => Err(format!("dimension {v}, not in px")),
        },
        _ => Ok(v.clone()),
    }
}

/// The bundle as the body of Figma's `POST /v1/files/{file_key}/variables`.
fn body(collections: &[Collection]) -> Result<Value, String> {
    let (mut cols, mut modes, mut vars, mut values) = (vec![], vec![], vec![], vec![]);
    for (c, col) in collections.iter().enumerate() {
        cols.push(
            json!({"action": "CREATE", "id": format!("c{c}"), "name": col.name,
            "initialModeId": format!("c{c}m0")}),
        );
        for (m, (mode, doc)) in col.modes.iter().enumerate() {
            let action = if m == 0 { "UPDATE" } else { "CREATE" };
            modes.push(
                json!({"action": action, "id": format!("c{c}m{m}"), "name": mode,
                "variableCollectionId": format!("c{c}")}),
            );
            let mut found = Vec::new();
            tokens(doc, &mut Vec::new(), &mut found);
            for (path, t) in found {
                let name = path.join("/");
                let var = &col.variables[&name];
                let v = value(collections, c, t, var.ty)
                    .map_err(|e| format!("{}/{mode}: {name}: {e}", col.name))?;
                values
                    .push(json!({"variableId": var.id, "modeId": format!("c{c}m{m}"), "value": v}));
            }
        }
        vars.extend(col.variables.values().map(|v| v.json.clone()));
    }
    Ok(json!({"variableCollections": cols, "variableModes": modes,
        "variables": vars, "variableModeValues": values}))
}

/// The tokens of the context a collection's mode stands for: none over
/// the default for the brand's own collection (the first), else the
/// context of that name of the modifier the collection is named after.
fn context(system: &System, c: usize, col: &str, mode: &str) -> Option<Map<String, Value>> {
    if c == 0 {
        return Some(Map::new());
    }
    let modifier = system.spec["modes"].as_array()?.iter().find(|m| {
        let name = segment(m["name"].as_str().unwrap_or(""));
        col == name || col == format!("{name} (modifier)")
    })?;
    let ctx = modifier["contexts"].as_array()?.iter().find(|x| {
        let name = x["name"].as_str().unwrap_or("");
        segment(name) == mode
    })?;
    Some(ctx["tokens"].as_object().cloned().unwrap_or_default())
}

/// Every colour written as a value (not a reference within the
/// collection) is spec.json's in the mode's context, within a unit of
/// its sRGB hex per channel.
fn same_colours(system: &System, collections: &[Collection]) -> Cell {
    for (c, col) in collections.iter().enumerate() {
        for (mode, doc) in &col.modes {
            let here: BTreeMap<String, Value> = context(system, c, &col.name, mode)
                .ok_or(format!("{}/{mode}: no such context in spec.json", col.name))?
                .into_iter()
                .collect();
            let mut found = Vec::new();
            tokens(doc, &mut Vec::new(), &mut found);
            for (path, t) in found.iter().filter(|(_, t)| t["$value"].is_object()) {
                if t["$type"] != "color" {
                    continue;
                }
                let (name, dotted) = (path.join("/"), path.join("."));
                let Some(want) = crate::spec_tokens::colour(&dotted, &here, &system.default) else {
                    return Err(format!(
                        "{}/{mode}: {name} is no colour of spec.json",
                        col.name
                    ));
                };
                let byte = |hex: &str, i: usize| {
                    let hex = hex.trim_start_matches('#');
                    hex.get(2 * i..2 * i + 2)
                        .and_then(|b| i64::from_str_radix(b, 16).ok())
                };
                let (got, wanted) = (t["$value"]["hex"].as_str(), want["hex"].as_str());
                let close = (0..3).all(|i| {
                    let (g, w) = (byte(got.unwrap_or(""), i), byte(wanted.unwrap_or(""), i));
                    matches!((g, w), (Some(g), Some(w)) if (g - w).abs() <= 1)
                });
                let alpha = want.get("alpha").and_then(Value::as_f64).unwrap_or(1.0);
                let a = t["$value"]["alpha"].as_f64().unwrap_or(-1.0);
                if !close || (a - alpha).abs() > 0.0006 {
                    return Err(format!(
                        "{}/{mode}: colour {name} is {} alpha {a}, the resolver's {want}",
                        col.name,
                        got.unwrap_or("?")
                    ));
                }
            }
        }
    }
    Ok(())
}

pub(super) fn figma_zip(system: &System, work: &Path) -> Cell {
    unzip(&system.brand.join("figma.zip"), work)?;
    let mut collections = read(work)?;
    variables(&mut collections)?;
    let body = body(&collections)?;
    super::tools::figma_accepts(&body.to_string())?;
    same_colours(system, &collections)
}
