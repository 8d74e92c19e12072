//! Reading a resolver document: `sets`, `modifiers` and
//! `resolutionOrder` into a [`Resolver`], every problem reported at once.

use super::{From, Modifier, Resolver, Source, Step, MAX_CONTEXTS, MAX_SOURCE_DEPTH};
use crate::spec::diag::FileDiags;
use crate::spec::json::join;
use serde_json::{Map, Value};
use std::collections::BTreeSet;

/// Reads a resolver document, reporting every problem in it.
pub fn read(doc: &Value, d: &mut FileDiags<'_>) -> Option<Resolver> {
    let Some(root) = doc.as_object() else {
        d.error(
            "",
            "tokens.resolver.json must be a JSON object (a DTCG Resolver Module 2025.10 document)",
        );
        return None;
    };
    match root.get("version") {
        Some(Value::String(v)) if v == "2025.10" => {}
        None => d.warning(
            "",
            "no `version`: read as a DTCG Resolver Module 2025.10 document",
        ),
        Some(other) => d.warning(
            "/version",
            format!("version {other} is not \"2025.10\"; read as 2025.10"),
        ),
    }
    let empty = Map::new();
    let sets = object_at(root, "sets", d).unwrap_or(&empty);
    let modifiers = object_at(root, "modifiers", d).unwrap_or(&empty);
    let mut r = Resolver::default();
    let mut used_sets = BTreeSet::new();
    match root.get("resolutionOrder") {
        Some(Value::Array(order)) => {
            for (i, item) in order.iter().enumerate() {
                let at = format!("/resolutionOrder/{i}");
                step(&mut r, root, item, &at, &mut used_sets, d);
            }
        }
        Some(_) => d.error(
            "/resolutionOrder",
            "`resolutionOrder` must be an array of sets and modifiers",
        ),
        None => {
            d.warning(
                "",
                "no `resolutionOrder`: the sets, then the modifiers, merge in the order they are written",
            );
            for name in sets.keys() {
                let item = serde_json::json!({ "$ref": format!("#/sets/{}", escape(name)) });
                step(&mut r, root, &item, "", &mut used_sets, d);
            }
            for name in modifiers.keys() {
                let item = serde_json::json!({ "$ref": format!("#/modifiers/{}", escape(name)) });
                step(&mut r, root, &item, "", &mut used_sets, d);
            }
        }
    }
    for (name, set) in sets {
        if !used_sets.contains(name) {
            let at = join("/sets", name);
            let sources = set_sources(root, set, &at, 0, d);
            r.unused_sets.push((name.clone(), sources));
        }
    }
    let contexts: usize = r.modifiers.iter().map(|m| m.contexts.len()).sum();
    if contexts > MAX_CONTEXTS {
        d.error(
            "/modifiers",
            format!(
                "the modifiers have {contexts} contexts in all; at most {MAX_CONTEXTS} are read"
            ),
        );
        return None;
    }
    Some(r)
}

fn escape(name: &str) -> String {
    crate::spec::json::escape_token(name)
}

fn object_at<'v>(
    root: &'v Map<String, Value>,
    key: &str,
    d: &mut FileDiags<'_>,
) -> Option<&'v Map<String, Value>> {
    match root.get(key)? {
        Value::Object(o) => Some(o),
        _ => {
            d.error(&format!("/{key}"), format!("`{key}` must be an object"));
            None
        }
    }
}

/// One item of `resolutionOrder`: a reference to a set or modifier, or one
/// written inline.
fn step(
    r: &mut Resolver,
    root: &Map<String, Value>,
    item: &Value,
    at: &str,
    used_sets: &mut BTreeSet<String>,
    d: &mut FileDiags<'_>,
) {
    let Some(o) = item.as_object() else {
        d.error(at, "each step of `resolutionOrder` must be an object");
        return;
    };
    if let Some(reference) = o.get("$ref") {
        let target = reference.as_str().and_then(|s| s.strip_prefix('#'));
        let parts: Vec<String> = target.map(crate::spec::json::tokens).unwrap_or_default();
        let ref_at = join(at, "$ref");
        match parts.as_slice() {
            [kind, name] if kind == "sets" => {
                let Some(set) = root.get("sets").and_then(|s| s.get(name)) else {
                    d.error(&ref_at, format!("there is no set `{name}` in `sets`"));
                    return;
                };
                used_sets.insert(name.clone());
                let sources = set_sources(root, set, &join("/sets", name), 0, d);
                r.steps.push(Step::Set(sources));
            }
            [kind, name] if kind == "modifiers" => {
                let Some(m) = root.get("modifiers").and_then(|s| s.get(name)) else {
                    d.error(
                        &ref_at,
                        format!("there is no modifier `{name}` in `modifiers`"),
                    );
                    return;
                };
                modifier(r, root, name, m, &join("/modifiers", name), &ref_at, d);
            }
            _ => d.error(
                &ref_at,
                "a step's `$ref` must name a set (`#/sets/<name>`) or a modifier (`#/modifiers/<name>`)",
            ),
        }
        return;
    }
    let name = o.get("name").and_then(Value::as_str).unwrap_or_default();
    match o.get("type").and_then(Value::as_str) {
        Some("set") => {
            let sources = set_sources(root, item, at, 0, d);
            r.steps.push(Step::Set(sources));
        }
        Some("modifier") if !name.is_empty() => modifier(r, root, name, item, at, at, d),
        Some("modifier") => d.error(at, "an inline modifier needs a `name`"),
        _ => d.error(
            at,
            "each step of `resolutionOrder` is a `$ref` to a set or modifier, or an object of `type` \"set\" or \"modifier\"",
        ),
    }
}

fn modifier(
    r: &mut Resolver,
    root: &Map<String, Value>,
    name: &str,
    m: &Value,
    at: &str,
    used_at: &str,
    d: &mut FileDiags<'_>,
) {
    if r.modifiers.iter().any(|x| x.name == name) {
        d.error(
            used_at,
            format!("modifier `{name}` is in `resolutionOrder` twice"),
        );
        return;
    }
    let Some(contexts) = m.get("contexts").and_then(Value::as_object) else {
        d.error(
            at,
            format!(
                "modifier `{name}` needs `contexts`: an object of context names and their sources"
            ),
        );
        return;
    };
    if contexts.is_empty() {
        d.error(
            &join(at, "contexts"),
            format!("modifier `{name}` has no context"),
        );
        return;
    }
    let contexts: Vec<(String, Vec<Source>)> = contexts
        .iter()
        .map(|(c, sources)| {
            let at = join(&join(at, "contexts"), c);
            (c.clone(), sources_of(root, sources, &at, 0, d))
        })
        .collect();
    let default = match m.get("default") {
        None => {
            d.warning(
                at,
                format!(
                    "modifier `{name}` has no `default`; its first context, `{}`, is the default",
                    contexts[0].0
                ),
            );
            0
        }
        Some(Value::String(c)) => match contexts.iter().position(|(n, _)| n == c) {
            Some(i) => i,
            None => {
                d.error(
                    &join(at, "default"),
                    format!("modifier `{name}` has no context `{c}` to be its default"),
                );
                return;
            }
        },
        Some(_) => {
            d.error(&join(at, "default"), "`default` must name a context");
            return;
        }
    };
    r.modifiers.push(Modifier {
        name: name.to_string(),
        contexts,
        default,
    });
    r.steps.push(Step::Modifier(r.modifiers.len() - 1));
}

/// The sources of a set object (`{"sources": […]}`).
fn set_sources(
    root: &Map<String, Value>,
    set: &Value,
    at: &str,
    depth: usize,
    d: &mut FileDiags<'_>,
) -> Vec<Source> {
    match set.get("sources") {
        Some(sources) => sources_of(root, sources, &join(at, "sources"), depth, d),
        None => {
            d.error(at, "a set needs `sources`: an array of files or tokens");
            Vec::new()
        }
    }
}

/// A list of sources.
fn sources_of(
    root: &Map<String, Value>,
    sources: &Value,
    at: &str,
    depth: usize,
    d: &mut FileDiags<'_>,
) -> Vec<Source> {
    let Some(list) = sources.as_array() else {
        d.error(at, "sources must be an array of `$ref`s and tokens");
        return Vec::new();
    };
    let mut out = Vec::new();
    for (i, source) in list.iter().enumerate() {
        let at = format!("{at}/{i}");
        let Some(o) = source.as_object() else {
            d.error(&at, "a source must be an object: a `$ref` or tokens");
            continue;
        };
        let Some(reference) = o.get("$ref") else {
            out.push(Source {
                from: From::Inline(at.clone()),
                at,
            });
            continue;
        };
        let ref_at = join(&at, "$ref");
        let Some(reference) = reference.as_str() else {
            d.error(&ref_at, "`$ref` must be a string");
            continue;
        };
        if let Some(pointer) = reference.strip_prefix('#') {
            let Some(target) = pointer_in(root, pointer) else {
                d.error(
                    &ref_at,
                    format!("`{reference}` names nothing in this document"),
                );
                continue;
            };
            if target.get("sources").is_some() {
                if depth >= MAX_SOURCE_DEPTH {
                    d.error(&ref_at, "sets refer to each other too deeply (a loop?)");
                    continue;
                }
                out.extend(set_sources(root, target, pointer, depth + 1, d));
            } else if target.is_object() {
                out.push(Source {
                    from: From::Inline(pointer.to_string()),
                    at,
                });
            } else {
                d.error(&ref_at, format!("`{reference}` is not a set or tokens"));
            }
            continue;
        }
        let (path, fragment) = match reference.split_once('#') {
            Some((p, f)) => (p, f),
            None => (reference, ""),
        };
        match brand_path(path) {
            Ok(path) => out.push(Source {
                from: From::File {
                    path,
                    fragment: fragment.to_string(),
                },
                at,
            }),
            Err(why) => d.error(&ref_at, format!("`{reference}`: {why}")),
        }
    }
    out
}

/// What `pointer` names in the document whose root members are `root`.
fn pointer_in<'v>(root: &'v Map<String, Value>, pointer: &str) -> Option<&'v Value> {
    let rest = pointer.strip_prefix('/')?;
    let (first, rest) = match rest.split_once('/') {
        Some((first, rest)) => (first, format!("/{rest}")),
        None => (rest, String::new()),
    };
    let first = first.replace("~1", "/").replace("~0", "~");
    root.get(&first)?.pointer(&rest)
}

/// A `$ref`'s path as a path of the brand folder, or why it cannot be one.
fn brand_path(path: &str) -> Result<String, &'static str> {
    if path.contains("://") || path.starts_with("//") {
        return Err("sources are files of the brand folder, never URLs");
    }
    if path.starts_with('/') || path.contains('\\') {
        return Err("sources are relative paths with `/`, inside the brand folder");
    }
    let mut parts = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => return Err("sources are inside the brand folder: no `..`"),
            p => parts.push(p),
        }
    }
    if parts.is_empty() {
        return Err("names no file");
    }
    Ok(parts.join("/"))
}
