//! Style Dictionary's legacy sources (before DTCG): a token is an object
//! with `value`, and maybe `type` and `comment`; references are
//! `{a.b.value}` or `{a.b}`, whole or inside a string; a token may have
//! child tokens beside its `value`. Read as Style Dictionary reads them:
//!
//! - `value`, `type`, `comment` (or `description`) become `$value`,
//!   `$type`, `$description`; any other member that holds no token
//!   (`attributes`, `themeable`) is kept under `$extensions`
//!   `org.style-dictionary`.
//! - A `type` DTCG 2025.10 has is kept; another (`size`, `spacing`) is
//!   dropped with a warning, and the value's own form gives the type.
//! - A bare number under `size` is rem and under `time` milliseconds, as
//!   Style Dictionary's `css` transforms (`size/rem`, `time/seconds`)
//!   read its category, the first name of the token's path.
//! - A token with child tokens becomes its group's `$root` token, so both
//!   it and its children publish; references to it name the `$root`.
//! - `.value` at the end of a reference is dropped.
//! - Text that is a CSS easing (`cubic-bezier(0.4, 0, 0.2, 1)`) is DTCG's
//!   cubicBezier, published as the same CSS.

use super::Converted;
use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::join;
use crate::spec::tokens::TokenType;
use serde_json::{Map, Value};
use std::collections::HashSet;

/// The `$extensions` key under which a token's other members are kept.
pub const EXTENSION: &str = "org.style-dictionary";

const MEMBERS: &[(&str, &str)] = &[
    ("$value", "value"),
    ("$type", "type"),
    ("$description", "comment"),
];

pub fn read(doc: &Value, d: &mut FileDiags<'_>) -> Converted {
    let mut r = Reader {
        tokens: Vec::new(),
        roots: HashSet::new(),
    };
    let out = match doc.as_object() {
        Some(o) => Value::Object(r.group(o, "", "", &mut Vec::new(), d)),
        None => {
            d.push(
                Code::InvalidSource,
                "",
                "a Style Dictionary source must be a JSON object of tokens and groups",
            );
            Value::Object(Map::new())
        }
    };
    let mut out = out;
    rewrite_references(&mut out, &r.roots);
    let mut converted = Converted::new(out, r.tokens, MEMBERS);
    give_types(&mut converted, d);
    converted
}

/// Style Dictionary reads a value as what it is: each token without a
/// `type` gets the one its value's form says (`#hex` a colour, `16px` a
/// dimension, `200ms` a duration, a number a number), an alias its
/// target's, and text anything else (with a warning: a CSS string, its
/// references resolved).
fn give_types(c: &mut Converted, d: &mut FileDiags<'_>) {
    let pointers: Vec<String> = c.token_pointers().map(str::to_string).collect();
    let by_name: std::collections::HashMap<String, String> =
        pointers.iter().map(|p| (name_of(p), p.clone())).collect();
    let ty_at = |doc: &Value, p: &str| {
        doc.pointer(p)
            .and_then(|t| t.get("$type"))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    // Literals first, then aliases to typed tokens until none changes.
    for p in &pointers {
        let Some(t) = c.doc.pointer(p) else { continue };
        if t.get("$type").is_some() {
            continue;
        }
        // Style Dictionary's `css` transforms read a bare number by its
        // category, the first name of its path: `size/rem`, and time in ms.
        let bare = t
            .get("$value")
            .and_then(|v| v.as_f64().or_else(|| v.as_str()?.trim().parse().ok()));
        let category = p.split('/').nth(1).unwrap_or("");
        let by_category = match (bare, category) {
            (Some(n), "size") => Some((
                "dimension",
                format!("{}rem", crate::spec::tokens::fmt_num(n)),
            )),
            (Some(n), "time") => {
                Some(("duration", format!("{}ms", crate::spec::tokens::fmt_num(n))))
            }
            _ => None,
        };
        // A number written as a string (`"200"`) is the number Style
        // Dictionary writes.
        let plain = |v: &str| {
            let v = v.trim().strip_prefix('-').unwrap_or(v.trim());
            !v.is_empty()
                && v.split_once('.')
                    .map_or(v, |(a, b)| if b.is_empty() { "" } else { a })
                    .chars()
                    .all(|c| c.is_ascii_digit())
                && v.chars().all(|c| c.is_ascii_digit() || c == '.')
        };
        let number = bare.filter(|n| {
            n.is_finite()
                && category != "color"
                && t.get("$value").and_then(Value::as_str).is_some_and(plain)
        });
        // Text where the name says what it is: a font family's list, a
        // shadow's CSS.
        let name = name_of(p).to_ascii_lowercase();
        let text = t.get("$value").and_then(Value::as_str);
        let named = match text {
            Some(v) if name.contains("family") && font_list(v) => Some("fontFamily"),
            Some(v)
                if (name.contains("shadow") || name.contains("elevation"))
                    && v.split_whitespace().count() > 2 =>
            {
                Some("shadow")
            }
            _ => None,
        };
        let Some(o) = c.doc.pointer_mut(p).and_then(Value::as_object_mut) else {
            continue;
        };
        if let Some((ty, value)) = by_category {
            o.insert("$type".into(), Value::String(ty.into()));
            o.insert("$value".into(), Value::String(value));
        } else if let Some(n) = number {
            o.insert("$type".into(), Value::String("number".into()));
            o.insert("$value".into(), serde_json::json!(n));
        } else if let Some(ty) = named {
            o.insert("$type".into(), Value::String(ty.into()));
            // A list of families, each name as written, quotes taken off.
            let list = o
                .get("$value")
                .and_then(Value::as_str)
                .filter(|v| ty == "fontFamily" && v.contains(','));
            if let Some(list) = list.map(str::to_string) {
                let names: Vec<Value> = list
                    .split(',')
                    .map(|f| f.trim().trim_matches(['"', '\'']).to_string())
                    .filter(|f| !f.is_empty())
                    .map(Value::String)
                    .collect();
                o.insert("$value".into(), Value::Array(names));
            }
        } else if let Some(points) = o.get("$value").and_then(easing) {
            o.insert("$type".into(), Value::String("cubicBezier".into()));
            o.insert("$value".into(), points);
        } else if let Some(ty) = o.get("$value").and_then(form_of) {
            o.insert("$type".into(), Value::String(ty.into()));
        }
    }
    loop {
        let mut changed = false;
        for p in &pointers {
            let t = &c.doc.pointer(p);
            let Some(t) = t else { continue };
            if t.get("$type").is_some() {
                continue;
            }
            let target = t
                .get("$value")
                .and_then(Value::as_str)
                .and_then(crate::spec::tokens::parse_reference)
                .and_then(|n| by_name.get(n));
            if let Some(ty) = target.and_then(|tp| ty_at(&c.doc, tp)) {
                if let Some(o) = c.doc.pointer_mut(p).and_then(Value::as_object_mut) {
                    o.insert("$type".into(), Value::String(ty));
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    for p in &pointers {
        let Some(t) = c.doc.pointer(p) else { continue };
        let is_alias = t
            .get("$value")
            .and_then(Value::as_str)
            .and_then(crate::spec::tokens::parse_reference)
            .is_some();
        if t.get("$type").is_some() || is_alias || !t.get("$value").is_some_and(Value::is_string) {
            continue;
        }
        d.push(
            Code::UntypedText,
            &format!("{}/value", c.source_pointer(p)),
            "this value has no type and is no colour, length, duration or number; it is read as text (a CSS value where it reads as one, its references resolved)",
        );
        if let Some(o) = c.doc.pointer_mut(p).and_then(Value::as_object_mut) {
            o.insert("$type".into(), Value::String("string".into()));
        }
    }
}

/// The dotted name of the token at a pointer (`/a/b/$root` → `a.b.$root`).
fn name_of(pointer: &str) -> String {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect::<Vec<_>>()
        .join(".")
}

/// A CSS easing written as text (`cubic-bezier(0.4, 0, 0.2, 1)`), as
/// DTCG's cubicBezier: the four numbers, which CSS reads as the same curve.
fn easing(v: &Value) -> Option<Value> {
    let inner = v
        .as_str()?
        .trim()
        .strip_prefix("cubic-bezier(")?
        .strip_suffix(')')?;
    let points: Vec<f64> = inner
        .split(',')
        .map(|n| n.trim().parse().ok())
        .collect::<Option<_>>()?;
    (points.len() == 4).then(|| serde_json::json!(points))
}

/// True for a CSS font list whose names are names or whole references
/// (`'{asset.font.sans.value}', Helvetica, sans-serif`): a reference
/// stands for the font it names.
fn font_list(v: &str) -> bool {
    // One reference alone is an alias, typed as its target.
    (v.contains(',') || !v.contains('{'))
        && v.split(',').all(|name| {
            let name = name.trim().trim_matches(['\'', '"']);
            crate::spec::tokens::parse_reference(name).is_some() || !name.contains(['{', '}'])
        })
}

/// The type a value's own form says.
fn form_of(v: &Value) -> Option<&'static str> {
    match v {
        Value::Number(_) => Some("number"),
        Value::String(s) if s.starts_with('#') && crate::color::parse_hex(s).is_some() => {
            Some("color")
        }
        Value::String(s) if s.starts_with("rgb") || s.starts_with("hsl") => Some("color"),
        Value::String(s) => {
            let s = s.trim();
            let end = s
                .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
                .unwrap_or(s.len());
            if end == 0 || s[..end].parse::<f64>().is_err() {
                return None;
            }
            match &s[end..] {
                "ms" | "s" => Some("duration"),
                "px" | "rem" | "em" | "%" | "vw" | "vh" | "dp" | "pt" => Some("dimension"),
                _ => None,
            }
        }
        _ => None,
    }
}

struct Reader {
    /// Each token's pointer in the tree made, and in the source.
    tokens: Vec<(String, String)>,
    /// The dotted paths of tokens that have child tokens (now `$root`s).
    roots: HashSet<String>,
}

/// True when `v` is a token (an object with `value`) or holds one.
fn holds_token(v: &Value, depth: usize) -> bool {
    match v.as_object() {
        Some(o) if o.contains_key("value") => true,
        Some(o) if depth < crate::spec::limits::MAX_JSON_DEPTH => {
            o.values().any(|c| holds_token(c, depth + 1))
        }
        _ => false,
    }
}

impl Reader {
    /// A group's members, made DTCG; `at` is the pointer in the tree made,
    /// `src` in the source.
    fn group(
        &mut self,
        o: &Map<String, Value>,
        at: &str,
        src: &str,
        path: &mut Vec<String>,
        d: &mut FileDiags<'_>,
    ) -> Map<String, Value> {
        let mut out = Map::new();
        for (k, v) in o {
            let (here, there) = (join(at, k), join(src, k));
            path.push(k.clone());
            match v.as_object() {
                Some(child) if child.contains_key("value") => {
                    self.token(child, k, &here, &there, path, &mut out, d);
                }
                // An exporter's own notes beside the tokens (Tokens
                // Brücke's `$meta`): a `$` name DTCG reserves, no token.
                Some(_) if k.starts_with('$') && !holds_token(v, 0) => {
                    d.push_at_key(
                        Code::NotAToken,
                        &there,
                        format!("`{k}` is an exporter's notes, no token; it is ignored"),
                    );
                }
                Some(child) => {
                    out.insert(
                        k.clone(),
                        Value::Object(self.group(child, &here, &there, path, d)),
                    );
                }
                // A scalar outside any token (a file's own notes): not a token.
                None => {
                    d.push_at_key(
                        Code::NotAToken,
                        &there,
                        format!("`{k}` holds no token (no `value`); it is ignored"),
                    );
                }
            }
            path.pop();
        }
        out
    }

    /// One token `k` into `out`: its own members, and its children beside
    /// it when it has any (then it is the group's `$root`).
    #[allow(clippy::too_many_arguments)]
    fn token(
        &mut self,
        o: &Map<String, Value>,
        k: &str,
        here: &str,
        there: &str,
        path: &mut Vec<String>,
        out: &mut Map<String, Value>,
        d: &mut FileDiags<'_>,
    ) {
        let children: Vec<&String> = o
            .iter()
            .filter(|(m, v)| {
                !matches!(m.as_str(), "value" | "type" | "comment" | "description")
                    && holds_token(v, 0)
            })
            .map(|(m, _)| m)
            .collect();
        let mut token = Map::new();
        let mut extensions = Map::new();
        for (m, v) in o {
            match m.as_str() {
                "value" => {
                    token.insert("$value".into(), v.clone());
                }
                "type" => match v.as_str() {
                    Some(t) if TokenType::parse(t).is_some() => {
                        token.insert("$type".into(), v.clone());
                    }
                    _ => d.push(
                        Code::DroppedType,
                        &join(there, "type"),
                        format!("type {v} is not one of DTCG 2025.10's types; it is dropped, and the value's own form gives the token its type"),
                    ),
                },
                "comment" | "description" => {
                    token.insert("$description".into(), v.clone());
                }
                _ if children.contains(&m) => {}
                _ => {
                    extensions.insert(m.clone(), v.clone());
                }
            }
        }
        if !extensions.is_empty() {
            let mut ext = Map::new();
            ext.insert(EXTENSION.into(), Value::Object(extensions));
            token.insert("$extensions".into(), Value::Object(ext));
        }
        if children.is_empty() {
            self.tokens.push((here.to_string(), there.to_string()));
            out.insert(k.to_string(), Value::Object(token));
            return;
        }
        d.push_at_key(
            Code::TokenWithChildren,
            there,
            format!("token `{}` also has child tokens; it is published as the group's own token (`$root`), its children beside it", path.join(".")),
        );
        self.roots.insert(path.join("."));
        let root = join(here, "$root");
        self.tokens.push((root, there.to_string()));
        let mut group = Map::new();
        group.insert("$root".into(), Value::Object(token));
        for m in children {
            let (h, t) = (join(here, m), join(there, m));
            path.push(m.clone());
            let v = &o[m];
            match v.as_object() {
                Some(c) if c.contains_key("value") => self.token(c, m, &h, &t, path, &mut group, d),
                Some(c) => {
                    group.insert(m.clone(), Value::Object(self.group(c, &h, &t, path, d)));
                }
                None => {}
            }
            path.pop();
        }
        out.insert(k.to_string(), Value::Object(group));
    }
}

/// Every `{a.b.value}` becomes `{a.b}`, and a reference to a token that
/// has children names its `$root`, in every string of every `$value`.
pub(crate) fn rewrite_references(v: &mut Value, roots: &HashSet<String>) {
    match v {
        Value::String(s) if s.contains('{') => *s = rewrite(s, roots),
        Value::Array(items) => items.iter_mut().for_each(|i| rewrite_references(i, roots)),
        Value::Object(o) => {
            for (k, child) in o.iter_mut() {
                if k != "$extensions" && k != "$description" {
                    rewrite_references(child, roots);
                }
            }
        }
        _ => {}
    }
}

/// Each comment of the Style Dictionary `sources` (path, file as written,
/// in the order they are named) that names a note of another (Auro's
/// notes file) reads as the note's text, in `files`, the converted files.
pub(crate) fn resolve_comments_in(
    files: &mut std::collections::BTreeMap<String, Value>,
    sources: &[(String, Value)],
) {
    let notes: Vec<&Value> = sources.iter().map(|(_, doc)| doc).collect();
    for (path, _) in sources {
        if let Some(doc) = files.get_mut(path) {
            resolve_comments(doc, &notes);
        }
    }
}

/// Each `$description` in `doc` that is one whole reference to a note
/// of the sources (Auro's `comment` `{comments.color.base.value.comment}`
/// names its notes file) becomes the note's text, as Style Dictionary
/// reads a `comment`. `sources` are the Style Dictionary files as written,
/// in the order they merge (a later one wins). A reference to nothing, or
/// to what is not text, stays as written.
pub(crate) fn resolve_comments(doc: &mut Value, sources: &[&Value]) {
    let Value::Object(o) = doc else {
        return;
    };
    for (k, v) in o.iter_mut() {
        match (k.as_str(), v) {
            ("$description", Value::String(text)) => {
                if let Some(note) = note_of(text, sources) {
                    *text = note;
                }
            }
            (k, v) if !k.starts_with('$') => resolve_comments(v, sources),
            _ => {}
        }
    }
}

/// The text a comment that is one whole reference names, following a
/// note that is itself one (a chain no longer than 8).
fn note_of(text: &str, sources: &[&Value]) -> Option<String> {
    let mut text = text.trim();
    for _ in 0..8 {
        let path = text.strip_prefix('{')?.strip_suffix('}')?;
        if path.contains(['{', '}']) {
            return None;
        }
        let found = sources.iter().rev().find_map(|doc| {
            path.split('.')
                .try_fold(*doc, |v, k| v.get(k))
                .and_then(Value::as_str)
        })?;
        text = found.trim();
        if !text.starts_with('{') {
            return Some(text.to_string());
        }
    }
    None
}

fn rewrite(s: &str, roots: &HashSet<String>) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find('{') {
        let Some(len) = rest[open..].find('}') else {
            break;
        };
        out.push_str(&rest[..open]);
        let inner = &rest[open + 1..open + len];
        let target = inner.strip_suffix(".value").unwrap_or(inner);
        match roots.contains(target) {
            true => out.push_str(&format!("{{{target}.$root}}")),
            false => out.push_str(&format!("{{{target}}}")),
        }
        rest = &rest[open + len + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_comment_naming_a_note_becomes_the_notes_text() {
        let notes = json!({"comments": {
            "deprecated": {"comment": "\n // Deprecated, no replacement"},
            "color": {
                "base": {"value": {"comment": "\n // Base value; not for code", "type": "semantic"}},
                "deprecated": {"comment": "{comments.deprecated.comment}"}
            }
        }});
        let mut doc = json!({"color": {
            "white": {"$value": "#fff", "$description": "{comments.color.base.value.comment}"},
            "old": {"$value": "#000", "$description": "{comments.color.deprecated.comment}"},
            "odd": {"$value": "#111", "$description": "{comments.nowhere}"},
            "obj": {"$value": "#222", "$description": "{comments.color.base}"},
            "prose": {"$value": "#333", "$description": "Use {color.white} on dark"}
        }});
        resolve_comments(&mut doc, &[&notes]);
        let description = |k: &str| doc["color"][k]["$description"].clone();
        assert_eq!(description("white"), "// Base value; not for code");
        assert_eq!(description("old"), "// Deprecated, no replacement");
        // What names no text stays as written.
        assert_eq!(description("odd"), "{comments.nowhere}");
        assert_eq!(description("obj"), "{comments.color.base}");
        assert_eq!(description("prose"), "Use {color.white} on dark");
    }

    #[test]
    fn legacy_sources_become_dtcg_with_their_places_kept() {
        let doc = json!({
            "color": {
                "base": {"red": {"value": "#ff0000", "type": "color", "comment": "Alarm.", "attributes": {"category": "color"}}},
                "brand": {"value": "{color.base.red.value}", "light": {"value": "#ff8080"}},
                "border": {"value": "1px solid {color.brand.value}", "type": "size"}
            }
        });
        let mut d = FileDiags::new("b", "b/tokens.json");
        let c = read(&doc, &mut d);
        let red = &c.doc["color"]["base"]["red"];
        assert_eq!(red["$value"], "#ff0000");
        assert_eq!(red["$type"], "color");
        assert_eq!(red["$description"], "Alarm.");
        assert_eq!(
            red["$extensions"][EXTENSION]["attributes"]["category"],
            "color"
        );
        assert_eq!(
            c.doc["color"]["brand"]["$root"]["$value"],
            "{color.base.red}"
        );
        assert_eq!(c.doc["color"]["brand"]["light"]["$value"], "#ff8080");
        assert_eq!(
            c.doc["color"]["border"]["$value"],
            "1px solid {color.brand.$root}"
        );
        assert_eq!(
            c.doc["color"]["border"]["$type"], "string",
            "text, its references resolved"
        );
        assert_eq!(
            c.doc["color"]["brand"]["light"]["$type"], "color",
            "by its form"
        );
        assert_eq!(
            c.doc["color"]["brand"]["$root"]["$type"], "color",
            "by its target"
        );
        assert_eq!(
            c.source_pointer("/color/brand/$root/$value"),
            "/color/brand/value"
        );
        assert_eq!(
            c.source_pointer("/color/brand/light/$value"),
            "/color/brand/light/value"
        );
        let mut out = Vec::new();
        d.finish(None, &mut out);
        assert_eq!(out.len(), 3, "{out:?}");
    }
}
