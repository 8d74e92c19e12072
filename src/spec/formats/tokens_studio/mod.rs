//! Tokens Studio for Figma's JSON, one file or a synced folder, read as
//! its toolchain (Style Dictionary with `@tokens-studio/sd-transforms`)
//! builds it, into DTCG: a resolver document with inline sources when it
//! has themes, a tokens document when not.
//!
//! - **Sets.** A file with `$metadata` or `$themes`, or whose references
//!   name tokens one level down, holds a set per top-level key (a folder
//!   a set per file, named by its path); otherwise the file is one set.
//!   Sets apply in `$metadata.tokenSetOrder`, else in document order.
//! - **Themes.** Each `group` of `$themes` is a modifier (`theme` when a
//!   theme has none), each theme a context whose sources are the sets it
//!   selects (`enabled` or `source`; a set only ever `source` is referred
//!   to, not published: a reference to it is its value); groups that are
//!   alternatives are one modifier of exactly their themes, and the
//!   default is `light`, `default` or `base`, else the first theme (see
//!   the `groups` module). Sets every theme of a group selects are always
//!   on: the resolver's base (a
//!   group of one theme adds no modifier); a set no theme selects is left
//!   out with a warning. Without themes every set applies, later
//!   sets overriding earlier ones (a warning counts what they override).
//! - **Values**, by type, as sd-transforms' `css` transforms make them:
//!   `sizing`, `spacing`, `borderRadius`, `borderWidth`, `fontSizes`,
//!   `paragraphSpacing`, `dimension` are dimensions, a bare number pixels;
//!   `letterSpacing` a dimension, a percentage `em`; `lineHeights` a
//!   number, a percentage its ratio, a bare number above 3 pixels and one
//!   at or below a ratio, each with a warning (not sd-transforms' reading,
//!   which makes `24` 24 times the font size); `fontWeights` a weight, its name
//!   (`Semi Bold`) the number; `opacity` a number, a percentage its
//!   fraction; `fontFamilies` a font family; `boxShadow` a shadow (drop and
//!   inner, one or a list); `typography` and `border` their composites;
//!   `textCase`, `textDecoration`, `other` text; `composition` (no DTCG
//!   form) is left out with a warning.
//! - **References**: `{a.b}` and the older `$a.b`. **Math** (`{space} *
//!   2`, `roundTo(…)`, see [`super::math`]) is evaluated after the
//!   references in it resolve, in each context: a context whose sets make
//!   an expression evaluate differently gets that token's value too. An
//!   expression that does not evaluate is an error at its token, and only
//!   that token is left out.

use super::math::{self, Quantity};
use super::{insert, srgb, Converted, LEFT_OUT};
use values::*;

mod groups;
mod inferred;
pub use inferred::is_mode_word;
mod planned;
mod reader;
mod values;

use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::{escape_token, join};
use reader::{left_out, Reader};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Where a token's members are in the source: the older keys.
const LEGACY: &[(&str, &str)] = &[
    ("$value", "value"),
    ("$type", "type"),
    ("$description", "description"),
];
/// ... or the `$` keys.
const DOLLAR: &[(&str, &str)] = &[];

/// A theme group: its name, and each theme with the sets it selects.
type Group = (String, Vec<(String, Vec<usize>)>);

/// One token as written.
struct Written<'d> {
    set: usize,
    path: Vec<String>,
    value: &'d Value,
    ty: Option<String>,
    description: Option<&'d str>,
    /// Tokens Studio's colour modifier (`$extensions["studio.tokens"].modify`).
    modify: Option<&'d Value>,
    /// Its pointer in the source document.
    at: String,
    /// Written with `$value` (not `value`).
    dollar: bool,
}

/// Reads a Tokens Studio document: a single file, or a folder put together
/// as the single-file form (a key per set, with `$themes` and `$metadata`).
/// `folder` says the document is a folder's, so its top-level keys are
/// sets.
pub fn read(doc: &Value, folder: bool, d: &mut FileDiags<'_>) -> Converted {
    let empty = Map::new();
    let o = doc.as_object().unwrap_or(&empty);
    let sets: Vec<(String, &Value, String)> = match folder || has_sets(o) {
        true => {
            let mut names: Vec<&String> = o.keys().filter(|k| !k.starts_with('$')).collect();
            if let Some(order) = o
                .get("$metadata")
                .and_then(|m| m.get("tokenSetOrder"))
                .and_then(Value::as_array)
            {
                let order: Vec<&str> = order.iter().filter_map(Value::as_str).collect();
                // A folder's name orders every set in it.
                let at = |n: &str| {
                    let in_folder =
                        |o: &&str| n.strip_prefix(*o).is_some_and(|r| r.starts_with('/'));
                    order.iter().position(|o| *o == n || in_folder(o))
                };
                names.sort_by_key(|n| at(n).unwrap_or(usize::MAX));
            }
            names
                .into_iter()
                .map(|n| (n.clone(), &o[n], join("", n)))
                .collect()
        }
        false => vec![("tokens".to_string(), doc, String::new())],
    };
    let mut written = Vec::new();
    let mut dollar = 0;
    for (i, (_, tree, at)) in sets.iter().enumerate() {
        collect(
            tree,
            i,
            &mut Vec::new(),
            None,
            at,
            &mut written,
            &mut dollar,
            d,
            0,
        );
    }
    bare_line_heights(&written, d);
    let members = match dollar * 2 > written.len() {
        true => DOLLAR,
        false => LEGACY,
    };
    // Themes: modifiers of contexts, each its selected sets; without
    // `$themes`, those the sets' names make plain.
    let names: Vec<&str> = sets.iter().map(|(n, _, _)| n.as_str()).collect();
    let mut themes = themes(o.get("$themes"), &names, d);
    // A plan's themes are the system's, as it says: nothing merged.
    let planned = o.contains_key(super::decisions::PLANNED);
    let declared = themes.clone();
    if !planned {
        themes = groups::as_the_system_defines(themes, &written, o.get("$themes"));
    }
    // Sets only ever `source` are referred to, not published (as Tokens
    // Studio exports them): a reference to one of their tokens is its value.
    let mut enabled = enabled_sets(o.get("$themes"), &names);
    let mut skipped = Vec::new();
    if o.get("$themes").is_none() && sets.len() > 1 {
        skipped = inferred::not_read(&names, d);
        let declared = o
            .get("$metadata")
            .and_then(|m| m.get("tokenSetOrder"))
            .is_some();
        // Mode names a Style Dictionary config's selectors give.
        let given: Vec<String> = o
            .get(super::decisions::MODE_WORDS)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(str::to_lowercase)
            .collect();
        themes = inferred::inferred_themes(&names, &written, declared, &skipped, &given, d);
        enabled = themes
            .iter()
            .flat_map(|(_, ts)| ts.iter().flat_map(|(_, sel)| sel.iter().copied()))
            .collect();
    }
    let hidden: HashSet<usize> = (0..sets.len())
        .filter(|s| !enabled.contains(s))
        .filter(|s| {
            themes
                .iter()
                .any(|(_, ts)| ts.iter().any(|(_, sel)| sel.contains(s)))
        })
        .collect();
    let evidence = match (planned, o.contains_key("$themes")) {
        (true, _) => planned::Evidence::Plan,
        (false, true) => planned::Evidence::Declared(&declared),
        (false, false) => planned::Evidence::Inferred,
    };
    let plan = planned::plan(&names, &themes, &hidden, &skipped, evidence);
    let mut reader = Reader {
        hidden,
        inlining: 0,
        notes: Vec::new(),
        written: &written,
        cache: HashMap::new(),
        left_out: left_out(&written),
        by_name: written
            .iter()
            .enumerate()
            .fold(HashMap::new(), |mut m, (i, w)| {
                m.entry(w.path.join(".")).or_insert_with(Vec::new).push(i);
                m
            }),
    };
    if themes.is_empty() {
        let order: Vec<usize> = (0..sets.len()).filter(|s| !skipped.contains(s)).collect();
        overrides(&written, &order, &names, d);
        let (tree, tokens) = reader.tree(&order, &order, "", d, &mut HashSet::new());
        let mut converted = Converted::new(Value::Object(tree), tokens, members);
        converted.plan = Some(plan);
        return converted;
    }
    let mut converted = with_themes(&mut reader, &written, &sets, &names, &themes, members, d);
    converted.plan = Some(plan);
    converted
}

/// The resolver of a document with themes: the base (sets every theme of
/// a group selects), then a modifier per group of several themes, each
/// context its own sets and what reads differently there.
fn with_themes(
    reader: &mut Reader<'_, '_>,
    written: &[Written<'_>],
    sets: &[(String, &Value, String)],
    names: &[&str],
    themes: &[Group],
    members: &'static [(&'static str, &'static str)],
    d: &mut FileDiags<'_>,
) -> Converted {
    // The base: sets always on, as every theme of a group selects them
    // (one theme of each group is always chosen), in set order.
    let every: Vec<usize> = (0..sets.len())
        .filter(|s| {
            themes
                .iter()
                .any(|(_, ts)| ts.iter().all(|(_, sel)| sel.contains(s)))
        })
        .collect();
    for (s, name) in names.iter().enumerate() {
        if !themes
            .iter()
            .any(|(_, ts)| ts.iter().any(|(_, sel)| sel.contains(&s)))
        {
            d.push(
                Code::SetInNoTheme,
                &sets[s].2,
                format!("set `{name}` is in no theme of `$themes`, so no context publishes it"),
            );
        }
    }
    // A permutation: every group at its first theme but `at`.
    let permutation = |at: Option<(usize, usize)>| -> Vec<usize> {
        let mut on: Vec<usize> = themes
            .iter()
            .enumerate()
            .flat_map(|(g, (_, ts))| {
                let t = match at {
                    Some((ag, at)) if ag == g => at,
                    _ => 0,
                };
                ts[t].1.iter().copied()
            })
            .collect();
        on.sort_unstable();
        on.dedup();
        on
    };
    let default = permutation(None);
    let mut said = HashSet::new();
    let (base, mut tokens) = reader.tree(&every, &default, "/sets/tokens/sources/0", d, &mut said);
    let defaults = reader.published(&default);
    // Math in unpublished sets is checked too, where nothing refers to it.
    for (i, w) in written.iter().enumerate() {
        if reader.hidden.contains(&w.set) && expression_of(w).is_some() && default.contains(&w.set)
        {
            let name = w.path.join(".");
            if reader.lookup(&default, &name) == Some(i) {
                if let Err(why) = reader.math(&default, &name) {
                    reader
                        .notes
                        .push((member(&w.at, "value", w), format!("{why}; {LEFT_OUT}")));
                }
            }
        }
    }
    reader.drain(d, &mut said);
    let mut modifiers = Map::new();
    for (g, (group, ts)) in themes.iter().enumerate() {
        // A group of one theme is always on: its sets are the base's.
        if ts.len() < 2 {
            continue;
        }
        let mut contexts = Map::new();
        let mut schemes = Map::new();
        for (t, (theme, selected)) in ts.iter().enumerate() {
            let on = permutation(Some((g, t)));
            let own: Vec<usize> = selected
                .iter()
                .copied()
                .filter(|s| !every.contains(s))
                .collect();
            let at = format!(
                "{}/0",
                join(&join(&join("/modifiers", group), "contexts"), theme)
            );
            let (mut tree, more) = reader.tree(&own, &on, &at, d, &mut said);
            tokens.extend(more);
            // What reads differently here, wherever it is written: math
            // over sets this context changes, a value of an unpublished set.
            for (name, (i, token)) in reader.published(&on) {
                let w = &written[i];
                if own.contains(&w.set) || defaults.get(&name).is_some_and(|(_, t)| *t == token) {
                    continue;
                }
                insert(&mut tree, &w.path, token);
                let pointer = w.path.iter().fold(at.clone(), |p, s| join(&p, s));
                tokens.push((pointer, w.at.clone()));
            }
            reader.drain(d, &mut said);
            contexts.insert(theme.clone(), json!([tree]));
            let own: Vec<&str> = own.iter().map(|s| names[*s]).collect();
            if let Some(scheme) = groups::scheme_of(theme, &own) {
                schemes.insert(theme.clone(), json!(scheme));
            }
        }
        let mut modifier = json!({"contexts": contexts, "default": ts[0].0});
        // Each context's colour scheme, so `color-scheme` and
        // `prefers-color-scheme` follow the theme, not its name.
        if schemes.values().any(|s| s == "dark") {
            modifier["$extensions"] = json!({"app.marque": {"colorScheme": schemes}});
        }
        modifiers.insert(group.clone(), modifier);
    }
    let mut order = vec![json!({"$ref": "#/sets/tokens"})];
    order.extend(
        modifiers
            .keys()
            .map(|g| json!({"$ref": join("#/modifiers", g)})),
    );
    let resolver = json!({
        "version": "2025.10",
        "sets": {"tokens": {"sources": [base]}},
        "modifiers": modifiers,
        "resolutionOrder": order,
    });
    Converted::new(resolver, tokens, members)
}

/// True when the top-level keys of a file are sets: Tokens Studio's own
/// members are there, or a reference names a token one level down.
fn has_sets(o: &Map<String, Value>) -> bool {
    if o.contains_key("$themes") || o.contains_key("$metadata") {
        return true;
    }
    if o.values().any(|v| token_of(v).is_some()) {
        return false;
    }
    let mut refs = Vec::new();
    for v in o.values() {
        references_in(v, &mut refs, 0);
    }
    let top = |r: &str| r.split('.').next().is_some_and(|h| o.contains_key(h));
    let below = |r: &str| {
        let head = r.split('.').next().unwrap_or("");
        o.values().any(|set| set.get(head).is_some())
    };
    !refs.is_empty()
        && refs.iter().any(|r| !top(r) && below(r))
        && !refs.iter().any(|r| top(r) && !below(r))
}

fn references_in(v: &Value, out: &mut Vec<String>, depth: usize) {
    if depth > 64 {
        return;
    }
    match v {
        Value::String(s) => out.extend(references(s).into_iter().map(|(_, r)| r)),
        Value::Object(o) => o.values().for_each(|c| references_in(c, out, depth + 1)),
        Value::Array(a) => a.iter().for_each(|c| references_in(c, out, depth + 1)),
        _ => {}
    }
}

/// The token an object is: its value and type members (`value`/`type` or
/// `$value`/`$type`).
fn token_of(v: &Value) -> Option<(&Value, Option<&str>, bool)> {
    let o = v.as_object()?;
    if let Some(value) = o.get("$value") {
        return Some((value, o.get("$type").and_then(Value::as_str), true));
    }
    let value = o.get("value")?;
    let plain = !value.is_object()
        || o.contains_key("type")
        || o.contains_key("description")
        || o.len() == 1;
    plain.then(|| (value, o.get("type").and_then(Value::as_str), false))
}

#[allow(clippy::too_many_arguments)]
fn collect<'d>(
    v: &'d Value,
    set: usize,
    path: &mut Vec<String>,
    inherited: Option<&'d str>,
    at: &str,
    out: &mut Vec<Written<'d>>,
    dollar: &mut usize,
    d: &mut FileDiags<'_>,
    depth: usize,
) {
    let Some(o) = v.as_object() else { return };
    if depth > crate::spec::limits::MAX_JSON_DEPTH {
        return;
    }
    if let Some((value, ty, is_dollar)) = token_of(v) {
        if path.is_empty() {
            return;
        }
        *dollar += usize::from(is_dollar);
        let description = o
            .get(if is_dollar {
                "$description"
            } else {
                "description"
            })
            .and_then(Value::as_str);
        out.push(Written {
            set,
            path: path.clone(),
            value,
            ty: ty.or(inherited).map(str::to_string),
            description,
            modify: o
                .get("$extensions")
                .and_then(|e| e.get("studio.tokens"))
                .and_then(|s| s.get("modify"))
                .filter(|m| m.is_object() || m.is_string()),
            at: at.to_string(),
            dollar: is_dollar,
        });
        return;
    }
    let inherited = o
        .get("$type")
        .or_else(|| o.get("type"))
        .and_then(Value::as_str)
        .or(inherited);
    for (k, child) in o
        .iter()
        .filter(|(k, _)| !k.starts_with('$') && *k != "type")
    {
        if !child.is_object() {
            if !k.starts_with('$') && !matches!(k.as_str(), "description" | "type") {
                d.push(
                    Code::NotAToken,
                    &join(at, k),
                    format!("`{k}` is neither a token nor a group; left out"),
                );
            }
            continue;
        }
        path.push(k.clone());
        collect(
            child,
            set,
            path,
            inherited,
            &join(at, k),
            out,
            dollar,
            d,
            depth + 1,
        );
        path.pop();
    }
}

/// `$themes`: each group with its themes, each with the sets it selects
/// (indexes into `names`, in set order).
fn themes(v: Option<&Value>, names: &[&str], d: &mut FileDiags<'_>) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    for (i, theme) in v
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let at = format!("/$themes/{i}");
        let Some(name) = theme.get("name").and_then(Value::as_str) else {
            d.push(
                Code::UnnamedTheme,
                &at,
                "a theme without a `name` is left out",
            );
            continue;
        };
        let group = theme
            .get("group")
            .and_then(Value::as_str)
            .unwrap_or("theme");
        let mut selected: Vec<usize> = Vec::new();
        // Whether the sets it enables are there: a theme none of whose
        // enabled sets is there would publish another theme's tokens
        // under its name.
        let (mut enabled, mut missing) = (0, 0);
        for (set, state) in theme
            .get("selectedTokenSets")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if !matches!(state.as_str(), Some("enabled" | "source")) {
                continue;
            }
            let on = state.as_str() == Some("enabled");
            match named_sets(names, set).as_slice() {
                [] => {
                    missing += usize::from(on);
                    d.push(
                        Code::MissingThemeSet,
                        &join(&join(&at, "selectedTokenSets"), set),
                        format!("theme `{name}` selects the set `{set}`, which is not there"),
                    )
                }
                found => {
                    enabled += usize::from(on);
                    selected.extend(found)
                }
            }
        }
        if missing > 0 && enabled == 0 {
            d.push(
                Code::MissingThemeSet,
                &at,
                format!("theme `{name}` is left out: none of the sets it enables is there, so it would publish another theme's tokens under its name"),
            );
            continue;
        }
        selected.sort_unstable();
        match groups.iter_mut().find(|(g, _)| g == group) {
            Some((_, ts)) => ts.push((name.to_string(), selected)),
            None => groups.push((group.to_string(), vec![(name.to_string(), selected)])),
        }
    }
    groups
}

/// The sets some theme of `$themes` has `enabled`.
fn enabled_sets(v: Option<&Value>, names: &[&str]) -> HashSet<usize> {
    v.and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.get("selectedTokenSets")?.as_object())
        .flatten()
        .filter(|(_, state)| state.as_str() == Some("enabled"))
        .flat_map(|(set, _)| named_sets(names, set))
        .collect()
}

/// The sets a theme's `selectedTokenSets` key names: the set of that
/// name, else every set in the folder of that name (`base` for
/// `base/palette`, `base/size`), as a synced folder's themes may select.
fn named_sets(names: &[&str], set: &str) -> Vec<usize> {
    match names.iter().position(|n| *n == set) {
        Some(s) => vec![s],
        None => {
            let folder = format!("{set}/");
            (0..names.len())
                .filter(|s| names[*s].starts_with(&folder))
                .collect()
        }
    }
}

/// A warning counting what later sets override, when no theme says which
/// of them apply together.
fn overrides(written: &[Written<'_>], order: &[usize], names: &[&str], d: &mut FileDiags<'_>) {
    let mut first: HashMap<&[String], usize> = HashMap::new();
    let mut pairs: BTreeMap<(usize, usize), (usize, String)> = BTreeMap::new();
    for w in written.iter().filter(|w| order.contains(&w.set)) {
        match first.get(w.path.as_slice()) {
            Some(&s) if s != w.set => {
                let e = pairs.entry((s, w.set)).or_insert((0, w.at.clone()));
                e.0 += 1;
            }
            Some(_) => {}
            None => {
                first.insert(&w.path, w.set);
            }
        }
    }
    for ((a, b), (n, at)) in pairs {
        d.push(
            Code::SetOverrides,
            &at,
            format!(
                "set `{}` overrides {n} token(s) of set `{}`; without `$themes` every set applies, the later winning: add themes to publish them as modes",
                names[b], names[a]
            ),
        );
    }
}

/// The member `member` of the token at `at`, as written.
fn member(at: &str, member: &str, w: &Written<'_>) -> String {
    match w.dollar {
        true => join(at, &format!("${member}")),
        false => join(at, member),
    }
}

/// A warning at each line height written as a bare number, a token's or
/// a typography's, saying how [`super::bare_line_height`] read it.
fn bare_line_heights(written: &[Written<'_>], d: &mut FileDiags<'_>) {
    let bare = |v: &Value| match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    for w in written {
        let (at, n) = match w.ty.as_deref() {
            Some("lineHeights") => (member(&w.at, "value", w), bare(w.value)),
            Some("typography") => (
                join(&member(&w.at, "value", w), "lineHeight"),
                w.value.get("lineHeight").and_then(bare),
            ),
            _ => continue,
        };
        if let Some(n) = n {
            d.push(Code::BareLineHeight, &at, super::bare_line_height(n).2);
        }
    }
}

/// The expression a token's value is, if it is one.
fn expression_of<'a>(w: &'a Written<'_>) -> Option<&'a str> {
    let s = w.value.as_str()?;
    let ty = w.ty.as_deref().unwrap_or("");
    // CSS's own functions are CSS, not Tokens Studio's math (which has
    // none of them): published as written.
    let css = ["clamp(", "calc(", "var(", "env("]
        .iter()
        .any(|f| s.trim_start().to_ascii_lowercase().starts_with(f));
    (is_numeric(ty) && !css && math::is_expression(&old_references(s).replace(['{', '}'], "")))
        .then_some(s)
}

/// The single-file form of a synced folder: each file a set named by its
/// path without `.json`, `$themes.json` and `$metadata.json` as members.
pub fn folder_doc(files: &[(String, Value)]) -> Value {
    let mut doc = Map::new();
    for (path, v) in files {
        doc.insert(set_name(path).to_string(), v.clone());
    }
    Value::Object(doc)
}

/// The set a synced folder's file at `path` is: its path without the
/// extension, and without DTCG's `.tokens` (`semantic/light.tokens.json`
/// is the set `semantic/light` that `$themes` names).
pub fn set_name(path: &str) -> &str {
    let stem = crate::spec::syntax::stem(path);
    stem.strip_suffix(".tokens").unwrap_or(stem)
}

/// The pointer prefix of set `name` in [`folder_doc`].
pub fn set_pointer(name: &str) -> String {
    format!("/{}", escape_token(name))
}

#[cfg(test)]
mod tests;
