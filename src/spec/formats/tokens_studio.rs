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
//!   to, not published: a reference to it is its value), the first theme
//!   the default. Sets
//!   every theme of a group selects are always on: the resolver's base (a
//!   group of one theme adds no modifier); a set no theme selects is left
//!   out with a warning. Without themes every set applies, later
//!   sets overriding earlier ones (a warning counts what they override).
//! - **Values**, by type, as sd-transforms' `css` transforms make them:
//!   `sizing`, `spacing`, `borderRadius`, `borderWidth`, `fontSizes`,
//!   `paragraphSpacing`, `dimension` are dimensions, a bare number pixels;
//!   `letterSpacing` a dimension, a percentage `em`; `lineHeights` a
//!   number, a percentage its ratio; `fontWeights` a weight, its name
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
use crate::spec::diag::FileDiags;
use crate::spec::json::{escape_token, join};
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
                names.sort_by_key(|n| order.iter().position(|o| o == n).unwrap_or(usize::MAX));
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
    let members = match dollar * 2 > written.len() {
        true => DOLLAR,
        false => LEGACY,
    };
    // Themes: modifiers of contexts, each its selected sets.
    let names: Vec<&str> = sets.iter().map(|(n, _, _)| n.as_str()).collect();
    let themes = themes(o.get("$themes"), &names, d);
    // Sets only ever `source` are referred to, not published (as Tokens
    // Studio exports them): a reference to one of their tokens is its value.
    let enabled = enabled_sets(o.get("$themes"), &names);
    let hidden: HashSet<usize> = (0..sets.len())
        .filter(|s| !enabled.contains(s))
        .filter(|s| {
            themes
                .iter()
                .any(|(_, ts)| ts.iter().any(|(_, sel)| sel.contains(s)))
        })
        .collect();
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
        let order: Vec<usize> = (0..sets.len()).collect();
        overrides(&written, &order, &names, d);
        let (tree, tokens) = reader.tree(&order, &order, "", d, &mut HashSet::new());
        return Converted::new(Value::Object(tree), tokens, members);
    }
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
            d.warning(
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
        }
        modifiers.insert(
            group.clone(),
            json!({"contexts": contexts, "default": ts[0].0}),
        );
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
                d.warning(
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
            d.warning(&at, "a theme without a `name` is left out");
            continue;
        };
        let group = theme
            .get("group")
            .and_then(Value::as_str)
            .unwrap_or("theme");
        let mut selected: Vec<usize> = Vec::new();
        for (set, state) in theme
            .get("selectedTokenSets")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
        {
            if !matches!(state.as_str(), Some("enabled" | "source")) {
                continue;
            }
            match names.iter().position(|n| n == set) {
                Some(s) => selected.push(s),
                None => d.warning(
                    &join(&join(&at, "selectedTokenSets"), set),
                    format!("theme `{name}` selects the set `{set}`, which is not there"),
                ),
            }
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
        .filter_map(|(set, _)| names.iter().position(|n| n == set))
        .collect()
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
        d.warning(
            &at,
            format!(
                "set `{}` overrides {n} token(s) of set `{}`; without `$themes` every set applies, the later winning: add themes to publish them as modes",
                names[b], names[a]
            ),
        );
    }
}

struct Reader<'w, 'd> {
    written: &'w [Written<'d>],
    /// Math evaluated, by the sets on and the token's name.
    cache: HashMap<(Vec<usize>, String), Result<Quantity, String>>,
    /// Tokens that refer to a token with no DTCG form, by name: why.
    left_out: HashMap<String, String>,
    /// Each name's tokens, as indexes into `written`, in order.
    by_name: HashMap<String, Vec<usize>>,
    /// Sets referred to but not published (`source` in every theme).
    hidden: HashSet<usize>,
    /// How deep [`Reader::inlined`] is.
    inlining: usize,
    /// What is found wrong in an unpublished token where a reference
    /// inlines it: its place and why, said once.
    notes: Vec<(String, String)>,
}

/// The names of tokens with no DTCG form (a `composition`, a typography
/// without a font family or size), and of every token that refers to one,
/// with why each of the latter is left out.
fn left_out(written: &[Written<'_>]) -> HashMap<String, String> {
    let mut gone: HashMap<String, String> = HashMap::new();
    for w in written {
        let ty = w.ty.as_deref().unwrap_or("");
        let partial = ty == "typography"
            && w.value
                .as_object()
                .is_some_and(|o| !o.contains_key("fontFamily") || !o.contains_key("fontSize"));
        if ty == "composition" || partial {
            gone.insert(w.path.join("."), String::new());
        }
    }
    loop {
        let mut more = Vec::new();
        for w in written {
            let name = w.path.join(".");
            if gone.contains_key(&name) {
                continue;
            }
            let mut refs = Vec::new();
            references_in(&old_references_in(w.value), &mut refs, 0);
            if let Some(r) = refs.into_iter().find(|r| gone.contains_key(r)) {
                more.push((
                    name,
                    format!("it refers to `{{{r}}}`, which has no DTCG form; left out"),
                ));
            }
        }
        if more.is_empty() {
            return gone;
        }
        gone.extend(more);
    }
}

/// A value with its older `$a.b` references written `{a.b}`.
fn old_references_in(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(old_references(s)),
        Value::Array(a) => Value::Array(a.iter().map(old_references_in).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), old_references_in(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

impl<'d> Reader<'_, 'd> {
    fn lookup(&self, on: &[usize], name: &str) -> Option<usize> {
        self.by_name
            .get(name)?
            .iter()
            .copied()
            .filter(|i| on.contains(&self.written[*i].set))
            .max_by_key(|i| (self.written[*i].set, *i))
    }

    /// The tokens of the sets `own`, merged in set order, as DTCG, their
    /// math evaluated with the sets `on`; each token's pointer under `at`
    /// with its source pointer.
    fn tree(
        &mut self,
        own: &[usize],
        on: &[usize],
        at: &str,
        d: &mut FileDiags<'_>,
        said: &mut HashSet<String>,
    ) -> (Map<String, Value>, Vec<(String, String)>) {
        let mut tree = Map::new();
        let mut tokens: BTreeMap<Vec<String>, String> = BTreeMap::new();
        let written = self.written;
        let hidden = self.hidden.clone();
        for w in written
            .iter()
            .filter(|w| own.contains(&w.set) && !hidden.contains(&w.set))
        {
            let name = w.path.join(".");
            let value = match self.computed(on, w).then_some(()) {
                Some(_) => match self.math(on, &name) {
                    Ok(q) => Some(q),
                    Err(why) => {
                        if said.insert(w.at.clone()) {
                            d.warning(&member(&w.at, "value", w), format!("{why}; {LEFT_OUT}"));
                        }
                        continue;
                    }
                },
                None => None,
            };
            if let Some(why) = self.left_out.get(&name).filter(|why| !why.is_empty()) {
                if said.insert(w.at.clone()) {
                    d.warning(&w.at, why.clone());
                }
                continue;
            }
            let token = self.token(on, w, value);
            if let Some(why) = token.get("$left-out").and_then(Value::as_str) {
                if said.insert(w.at.clone()) {
                    d.warning(&w.at, why.to_string());
                }
                continue;
            }
            insert(&mut tree, &w.path, token);
            tokens.insert(w.path.clone(), w.at.clone());
        }
        self.drain(d, said);
        let tokens = tokens
            .into_iter()
            .map(|(path, source)| (path.iter().fold(at.to_string(), |p, s| join(&p, s)), source))
            .collect();
        (tree, tokens)
    }

    /// What was found wrong in unpublished tokens, said once each.
    fn drain(&mut self, d: &mut FileDiags<'_>, said: &mut HashSet<String>) {
        for (at, why) in std::mem::take(&mut self.notes) {
            if said.insert(at.clone()) {
                d.warning(&at, why);
            }
        }
    }

    /// Every published token that the sets `on` apply, by name: its
    /// index in `written` and its DTCG form there.
    fn published(&mut self, on: &[usize]) -> BTreeMap<String, (usize, Value)> {
        let names: Vec<String> = self
            .by_name
            .keys()
            .filter(|n| self.left_out.get(*n).is_none_or(|why| why.is_empty()))
            .cloned()
            .collect();
        let mut out = BTreeMap::new();
        for name in names {
            let Some(i) = self.lookup(on, &name) else {
                continue;
            };
            if self.hidden.contains(&self.written[i].set) {
                continue;
            }
            let w = &self.written[i];
            let evaluated = match expression_of(w) {
                Some(_) => match self.math(on, &name) {
                    Ok(q) => Some(q),
                    Err(_) => continue,
                },
                None => None,
            };
            let token = self.token(on, w, evaluated);
            if token.get("$left-out").is_none() {
                out.insert(name, (i, token));
            }
        }
        out
    }

    /// True when a token's value is computed by the reader: an
    /// expression.
    fn computed(&self, _on: &[usize], w: &Written<'_>) -> bool {
        expression_of(w).is_some()
    }

    /// The DTCG type of the token an alias names, when it is a number
    /// where the alias says dimension or the other way: Style Dictionary
    /// gives the alias its target's value as built, so it takes that type.
    fn target_type(&self, on: &[usize], ty: &str, text: &str) -> Option<&'static str> {
        let i = self.lookup(on, text.trim_matches(['{', '}']))?;
        let theirs = self.written[i].ty.as_deref().unwrap_or("");
        let family = |t: &str| dtcg_type(t, &Value::Null);
        let numeric = |t: Option<&str>| matches!(t, Some("number" | "dimension"));
        (numeric(family(ty)) && numeric(family(theirs)) && family(theirs) != family(ty))
            .then(|| family(theirs))
            .flatten()
    }

    /// The number a token stands for with the sets `on`: its literal, its
    /// reference's, or its expression's.
    fn math(&mut self, on: &[usize], name: &str) -> Result<Quantity, String> {
        let key = (on.to_vec(), name.to_string());
        if let Some(v) = self.cache.get(&key) {
            return v.clone();
        }
        // A cycle reads as an error, not a loop.
        self.cache
            .insert(key.clone(), Err(format!("`{{{name}}}` refers to itself")));
        let result = self.number_of(on, name);
        self.cache.insert(key, result.clone());
        result
    }

    fn number_of(&mut self, on: &[usize], name: &str) -> Result<Quantity, String> {
        let Some(i) = self.lookup(on, name) else {
            return Err(format!("reference `{{{name}}}` does not name a token"));
        };
        let w = &self.written[i];
        let text = match w.value {
            Value::Number(n) => {
                return Ok(Quantity {
                    value: n.as_f64().unwrap_or(0.0),
                    unit: String::new(),
                })
            }
            Value::String(s) => s.clone(),
            _ => return Err(format!("`{{{name}}}` is not a number")),
        };
        let written = w.value.as_str().unwrap_or("").to_string();
        let expression = expression_of(w).is_some();
        let ty = w.ty.clone().unwrap_or_default();
        let mut q =
            self.eval_text(on, &text)
                .map_err(|why| match why.starts_with("reference") {
                    true => why,
                    false => format!("`{written}` does not evaluate: {why}"),
                })?;
        // As sd-transforms builds a token before another's math uses it:
        // its math rounded to 4 decimals, a bare size in px.
        if expression {
            q.value = (q.value * 1e4).round() / 1e4;
        }
        if q.unit.is_empty()
            && dtcg_type(&ty, &Value::Null) == Some("dimension")
            && ty != "letterSpacing"
        {
            q.unit = "px".into();
        }
        Ok(q)
    }

    /// A token in DTCG form; `evaluated` is its expression's value. A
    /// token with no DTCG form carries `$left-out` with why.
    fn token(&mut self, on: &[usize], w: &Written<'_>, evaluated: Option<Quantity>) -> Value {
        let ty = w.ty.as_deref().unwrap_or("");
        let mut out = Map::new();
        let (dtcg, value) = match evaluated {
            Some(q) => quantity(ty, q),
            None => self.convert(on, ty, w.value),
        };
        if let Some(why) = nested_left_out(&value) {
            return json!({"$left-out": why});
        }
        let value = match (w.modify, dtcg) {
            (Some(m), Some("color")) => match self.modified(on, &value, m) {
                Ok(c) => c,
                Err(why) => {
                    return json!({"$left-out": format!("its colour modifier cannot be applied: {why}; left out")})
                }
            },
            _ => value,
        };
        if let Some(t) = dtcg {
            out.insert("$type".into(), json!(t));
        }
        // `rgba({colour}, a)`: the colour at alpha `a`, still its alias.
        match value.get("$alias-alpha") {
            Some(a) => {
                out.insert("$value".into(), value["$value"].clone());
                out.insert("alpha".into(), a.clone());
            }
            None => {
                out.insert("$value".into(), value);
            }
        }
        if let Some(desc) = w.description.filter(|s| !s.is_empty()) {
            out.insert("$description".into(), json!(desc));
        }
        Value::Object(out)
    }

    /// A value of Tokens Studio type `ty` as DTCG: its type and value.
    fn convert(&mut self, on: &[usize], ty: &str, v: &Value) -> (Option<&'static str>, Value) {
        if ty == "composition" {
            let why =
                "a `composition` token (several properties at once) has no DTCG form; left out";
            return (None, json!({"$left-out": why}));
        }
        let dtcg = dtcg_type(ty, v);
        let value = match (ty, v) {
            (_, Value::String(_)) | (_, Value::Number(_)) => return self.value(on, ty, v, true),
            ("boxShadow", Value::Array(layers)) => {
                Value::Array(layers.iter().map(|l| self.shadow(on, l)).collect())
            }
            ("boxShadow", Value::Object(_)) => self.shadow(on, v),
            ("typography", Value::Object(o)) => {
                let mut t = Map::new();
                for (k, ty) in [
                    ("fontFamily", "fontFamilies"),
                    ("fontWeight", "fontWeights"),
                    ("fontSize", "fontSizes"),
                    ("lineHeight", "lineHeights"),
                    ("letterSpacing", "letterSpacing"),
                ] {
                    match o.get(k) {
                        Some(x) if x.as_str().is_some_and(|s| s.eq_ignore_ascii_case("auto")) => {}
                        Some(x) => {
                            t.insert(k.into(), self.part(on, ty, x).1);
                        }
                        None => {}
                    }
                }
                for k in ["fontFamily", "fontSize"] {
                    if !t.contains_key(k) {
                        let why = format!("a typography without `{k}` has no DTCG form; left out");
                        return (None, json!({"$left-out": why}));
                    }
                }
                Value::Object(t)
            }
            ("border", Value::Object(o)) => {
                let mut b = Map::new();
                for (k, t) in [
                    ("color", "color"),
                    ("width", "borderWidth"),
                    ("style", "other"),
                ] {
                    if let Some(x) = o.get(k) {
                        b.insert(k.into(), self.part(on, t, x).1);
                    }
                }
                Value::Object(b)
            }
            _ => v.clone(),
        };
        (dtcg, value)
    }

    /// A Tokens Studio shadow layer as DTCG's.
    fn shadow(&mut self, on: &[usize], v: &Value) -> Value {
        let Some(o) = v.as_object() else {
            return v.clone();
        };
        let mut s = Map::new();
        if let Some(c) = o.get("color") {
            s.insert("color".into(), self.part(on, "color", c).1);
        }
        for (theirs, ours) in [
            ("x", "offsetX"),
            ("y", "offsetY"),
            ("blur", "blur"),
            ("spread", "spread"),
        ] {
            let x = o.get(theirs).cloned().unwrap_or(json!(0));
            s.insert(ours.into(), self.part(on, "dimension", &x).1);
        }
        if o.get("type").and_then(Value::as_str) == Some("innerShadow") {
            s.insert("inset".into(), json!(true));
        }
        Value::Object(s)
    }

    /// A single value of type `ty`: a reference as it is, an expression
    /// evaluated (its references with the sets `on`), `rgba({c}, a)` the
    /// colour at that alpha, else the literal in the form sd-transforms'
    /// css transforms give it.
    fn part(&mut self, on: &[usize], ty: &str, v: &Value) -> (Option<&'static str>, Value) {
        self.value(on, ty, v, false)
    }

    /// [`Reader::part`], or a token's whole value (`whole`).
    fn value(
        &mut self,
        on: &[usize],
        ty: &str,
        v: &Value,
        whole: bool,
    ) -> (Option<&'static str>, Value) {
        if v.is_number() && matches!(dtcg_type(ty, v), Some("string") | None) {
            return (Some("number"), v.clone());
        }
        let text = match v {
            Value::Number(n) => n.to_string(),
            Value::String(s) => old_references(s.trim()),
            other => return (dtcg_type(ty, other), other.clone()),
        };
        if is_reference(&text) {
            let target = text.trim_matches(['{', '}']);
            if let Some(i) = self
                .lookup(on, target)
                .filter(|i| self.hidden.contains(&self.written[*i].set))
            {
                return self.inlined(on, ty, i, whole);
            }
            let ty = self.target_type(on, ty, &text).or(dtcg_type(ty, v));
            return (ty, json!(text));
        }
        if ty == "color" {
            if let Some((target, alpha)) = alias_alpha(&text) {
                let unpublished = self
                    .lookup(on, target.trim_matches(['{', '}']))
                    .is_some_and(|i| self.hidden.contains(&self.written[i].set));
                if !whole || unpublished {
                    // A composite's part cannot alias at an alpha: the
                    // colour it paints.
                    let name = target.trim_matches(['{', '}']).to_string();
                    if let Some(c) = self.literal_colour(on, &name, 0) {
                        return (Some("color"), with_alpha(c, alpha));
                    }
                }
                return (
                    Some("color"),
                    json!({"$value": target, "$alias-alpha": alpha}),
                );
            }
            if text.starts_with("linear-gradient(") || text.starts_with("radial-gradient(") {
                return (Some("gradient"), json!(text));
            }
        }
        if is_numeric(ty) && math::is_expression(&text.replace(['{', '}'], "")) {
            if let Ok(q) = self.eval_text(on, &text) {
                return quantity(ty, q);
            }
        }
        leaf(ty, &text)
    }

    /// A colour with Tokens Studio's modifier applied, as sd-transforms'
    /// `ts/color/modifiers` applies it: `lighten` and `darken` (in srgb a
    /// mix with white or black; in hsl the lightness moved that fraction
    /// of the way to 100 or 0), `mix` with another colour (srgb), `alpha`.
    /// Its amount may be math or a reference.
    fn modified(&mut self, on: &[usize], value: &Value, m: &Value) -> Result<Value, String> {
        // A modifier written as a reference to a token holding one.
        let m = match m.as_str().map(|s| old_references(s.trim())) {
            Some(r) if is_reference(&r) => {
                let i = self
                    .lookup(on, r.trim_matches(['{', '}']))
                    .ok_or_else(|| format!("reference `{r}` does not name a token"))?;
                self.written[i].value
            }
            _ => m,
        };
        let colour = |reader: &mut Self, v: &Value| -> Option<([f64; 3], f64)> {
            let c = match v {
                Value::String(s) if is_reference(s) => {
                    reader.literal_colour(on, s.trim_matches(['{', '}']), 0)?
                }
                Value::String(s) => color(s)?,
                other => other.clone(),
            };
            let rgb: Vec<f64> = c
                .get("components")?
                .as_array()?
                .iter()
                .filter_map(Value::as_f64)
                .collect();
            let rgb: [f64; 3] = rgb.try_into().ok()?;
            Some((rgb, c.get("alpha").and_then(Value::as_f64).unwrap_or(1.0)))
        };
        let (rgb, alpha) = colour(self, value).ok_or("its colour is no sRGB colour")?;
        let amount = match m.get("value") {
            Some(Value::Number(n)) => n.as_f64().unwrap_or(0.0),
            Some(Value::String(s)) => self.eval_text(on, s)?.value,
            _ => return Err("it has no `value`".into()),
        };
        let space = m.get("space").and_then(Value::as_str).unwrap_or("srgb");
        let towards = |rgb: [f64; 3], to: f64| rgb.map(|c| c + (to - c) * amount);
        let (rgb, alpha) = match (m.get("type").and_then(Value::as_str), space) {
            (Some("alpha"), _) => (rgb, amount),
            (Some("lighten"), "srgb") => (towards(rgb, 1.0), alpha),
            (Some("darken"), "srgb") => (towards(rgb, 0.0), alpha),
            (Some(t @ ("lighten" | "darken")), "hsl") => {
                let [h, s, l] = crate::color::srgb_to_hsl(rgb);
                let l = match t {
                    "lighten" => (l + (100.0 - l) * amount).min(100.0),
                    _ => (l - l * amount).max(0.0),
                };
                (crate::color::to_srgb("hsl", [h, s, l]).ok_or("hsl")?, alpha)
            }
            (Some("mix"), "srgb") => {
                let other = m.get("color").ok_or("a mix without `color`")?;
                let (to, to_alpha) = colour(self, other).ok_or("its `color` is no sRGB colour")?;
                let mixed = [0, 1, 2].map(|i| rgb[i] + (to[i] - rgb[i]) * amount);
                (mixed, alpha + (to_alpha - alpha) * amount)
            }
            (t, space) => {
                return Err(format!(
                    "`{}` in `{space}` is not read yet",
                    t.unwrap_or("?")
                ))
            }
        };
        Ok(srgb(rgb.map(|c| c.clamp(0.0, 1.0)), alpha.clamp(0.0, 1.0)))
    }

    /// The colour literal the token `name` resolves to with the sets `on`,
    /// its modifier (and its target's) applied.
    fn literal_colour(&mut self, on: &[usize], name: &str, depth: usize) -> Option<Value> {
        let w = &self.written[self.lookup(on, name)?];
        let (modify, text) = (w.modify, old_references(w.value.as_str()?.trim()));
        let c = match is_reference(&text) {
            true if depth < 32 => {
                self.literal_colour(on, text.trim_matches(['{', '}']), depth + 1)?
            }
            true => return None,
            false => match alias_alpha(&text) {
                Some((target, alpha)) if depth < 32 => self
                    .literal_colour(on, target.trim_matches(['{', '}']), depth + 1)
                    .map(|c| with_alpha(c, alpha))?,
                _ => color(&text)?,
            },
        };
        match modify {
            Some(m) => self.modified(on, &c, m).ok(),
            None => Some(c),
        }
    }

    /// The value of the token `i` of an unpublished set, where a reference
    /// names it (`ty`: the referring token's type, when it has one).
    fn inlined(
        &mut self,
        on: &[usize],
        ty: &str,
        i: usize,
        whole: bool,
    ) -> (Option<&'static str>, Value) {
        let w = &self.written[i];
        let own = w.ty.clone().unwrap_or_default();
        let ty = if own.is_empty() { ty.to_string() } else { own };
        if expression_of(w).is_some() {
            let name = w.path.join(".");
            match self.math(on, &name) {
                Ok(q) => return quantity(&ty, q),
                Err(why) => {
                    let at = member(&w.at, "value", w);
                    self.notes.push((at, format!("{why}; {LEFT_OUT}")));
                    let why = format!(
                        "it refers to `{{{name}}}`, whose math does not evaluate; left out"
                    );
                    return (None, json!({"$left-out": why}));
                }
            }
        }
        if ty == "color" {
            if let Some(c) = self.literal_colour(on, &w.path.join("."), 0) {
                return (Some("color"), c);
            }
        }
        let value = w.value;
        self.inlining += 1;
        let out = match self.inlining > 32 {
            true => (dtcg_type(&ty, value), value.clone()),
            false => match whole {
                true => self.convert(on, &ty, value),
                false => self.value(on, &ty, value, false),
            },
        };
        self.inlining -= 1;
        out
    }

    /// `text` evaluated, its references replaced by their numbers.
    fn eval_text(&mut self, on: &[usize], text: &str) -> Result<Quantity, String> {
        let mut text = old_references(text);
        for (span, target) in references(&text).into_iter().rev() {
            let q = self.math(on, &target)?;
            text.replace_range(span, &format!("({}{})", q.value, q.unit));
        }
        math::evaluate(&text)
    }
}

/// A DTCG colour with its alpha replaced by `alpha`.
fn with_alpha(mut c: Value, alpha: f64) -> Value {
    match alpha < 1.0 {
        true => c["alpha"] = json!(alpha),
        false => {
            if let Some(o) = c.as_object_mut() {
                o.remove("alpha");
            }
        }
    }
    c
}

/// Why a value is left out, when it or a part of it is.
fn nested_left_out(v: &Value) -> Option<Value> {
    match v {
        Value::Object(o) => o
            .get("$left-out")
            .cloned()
            .or_else(|| o.values().find_map(nested_left_out)),
        Value::Array(a) => a.iter().find_map(nested_left_out),
        _ => None,
    }
}

/// `rgba({colour}, a)`: the reference and the alpha.
fn alias_alpha(text: &str) -> Option<(String, f64)> {
    let inner = text
        .strip_prefix("rgba(")
        .or_else(|| text.strip_prefix("rgb("))?
        .strip_suffix(')')?;
    let (target, a) = inner.rsplit_once(',')?;
    let target = target.trim();
    is_reference(target).then_some(())?;
    Some((target.to_string(), parse_alpha(a.trim())?))
}

/// The member `member` of the token at `at`, as written.
fn member(at: &str, member: &str, w: &Written<'_>) -> String {
    match w.dollar {
        true => join(at, &format!("${member}")),
        false => join(at, member),
    }
}

/// The expression a token's value is, if it is one.
fn expression_of<'a>(w: &'a Written<'_>) -> Option<&'a str> {
    let s = w.value.as_str()?;
    let ty = w.ty.as_deref().unwrap_or("");
    (is_numeric(ty) && math::is_expression(&old_references(s).replace(['{', '}'], ""))).then_some(s)
}

fn is_numeric(ty: &str) -> bool {
    matches!(
        ty,
        "sizing"
            | "spacing"
            | "borderRadius"
            | "borderWidth"
            | "fontSizes"
            | "paragraphSpacing"
            | "dimension"
            | "letterSpacing"
            | "lineHeights"
            | "opacity"
            | "number"
            | "fontWeights"
            | "math"
            | ""
    )
}

/// `{a.b}` references in `s`: each one's byte span and name.
fn references(s: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = s[from..].find('{') {
        let open = from + open;
        let Some(close) = s[open..].find('}') else {
            break;
        };
        let close = open + close;
        let name = s[open + 1..close].trim();
        if !name.is_empty() && !name.contains('{') {
            out.push((open..close + 1, name.to_string()));
        }
        from = close + 1;
    }
    out
}

/// Tokens Studio's older references, `$a.b`, as `{a.b}`.
fn old_references(s: &str) -> String {
    if !s.contains('$') {
        return s.to_string();
    }
    let mut out = String::new();
    let mut chars = s.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        let next_is_name = chars
            .peek()
            .is_some_and(|(_, n)| n.is_alphanumeric() || *n == '_');
        if c == '$' && next_is_name {
            out.push('{');
            while let Some(&(_, n)) = chars.peek() {
                if n.is_alphanumeric() || matches!(n, '_' | '-' | '.') {
                    out.push(n);
                    chars.next();
                } else {
                    break;
                }
            }
            while out.ends_with('.') {
                out.pop();
            }
            out.push('}');
        } else {
            out.push(c);
        }
    }
    out
}

/// The DTCG type of a Tokens Studio type, for a value of that form.
fn dtcg_type(ty: &str, value: &Value) -> Option<&'static str> {
    Some(match ty {
        "color" => "color",
        "sizing" | "spacing" | "borderRadius" | "borderWidth" | "fontSizes"
        | "paragraphSpacing" | "dimension" | "letterSpacing" => "dimension",
        "lineHeights" => match value.as_str().map(str::trim) {
            Some(s) if s.ends_with("px") || s.ends_with("rem") || s.ends_with("em") => "dimension",
            _ => "number",
        },
        "opacity" | "number" => "number",
        "fontWeights" => "fontWeight",
        "fontFamilies" => "fontFamily",
        "boxShadow" => "shadow",
        "typography" => "typography",
        "border" => "border",
        "duration" => "duration",
        "textCase" | "textDecoration" | "other" | "string" | "text" | "asset" => "string",
        _ => return None,
    })
}

/// An evaluated expression as a value of type `ty`, and its DTCG type.
fn quantity(ty: &str, q: Quantity) -> (Option<&'static str>, Value) {
    let round = |x: f64| (x * 1e4).round() / 1e4;
    let dtcg = match dtcg_type(ty, &Value::Null) {
        Some("number") | None if matches!(q.unit.as_str(), "px" | "rem" | "em") => {
            Some("dimension")
        }
        None => Some("number"),
        t => t,
    };
    let value = match (dtcg, q.unit.as_str()) {
        (Some("dimension"), "" | "px") => json!({"value": round(q.value), "unit": "px"}),
        (Some("dimension"), "%") if ty == "letterSpacing" => {
            json!({"value": round(q.value / 100.0), "unit": "em"})
        }
        (Some("dimension"), u) => json!({"value": round(q.value), "unit": u}),
        (_, "%") if matches!(ty, "lineHeights" | "opacity") => json!(round(q.value / 100.0)),
        (_, "") => json!(round(q.value)),
        (_, u) => json!(format!("{}{u}", round(q.value))),
    };
    (dtcg, value)
}

fn is_reference(s: &str) -> bool {
    s.starts_with('{') && s.ends_with('}') && s.matches('{').count() == 1
}

/// A literal string of type `ty`, in the form sd-transforms' css
/// transforms give it, and its DTCG type.
fn leaf(ty: &str, s: &str) -> (Option<&'static str>, Value) {
    let number = s.parse::<f64>().ok();
    let percent = s
        .strip_suffix('%')
        .and_then(|p| p.trim().parse::<f64>().ok());
    let length = ["px", "rem", "em"].iter().find_map(|u| {
        let n = s.strip_suffix(u)?.trim().parse::<f64>().ok()?;
        Some(json!({"value": n, "unit": u}))
    });
    let dtcg = dtcg_type(ty, &json!(s));
    let value = match dtcg {
        // Several lengths (`4px 8px`): CSS text, its references resolved.
        Some("dimension") if s.split_whitespace().count() > 1 => {
            return (Some("string"), json!(s));
        }
        Some("dimension") => match (number, percent, length) {
            (Some(n), _, _) => json!({"value": n, "unit": "px"}),
            (_, Some(p), _) if ty == "letterSpacing" => json!({"value": p / 100.0, "unit": "em"}),
            (_, _, Some(l)) => l,
            _ => json!(s),
        },
        Some("number") => match (number, percent, length) {
            (Some(n), _, _) => json!(n),
            (_, Some(p), _) => json!(p / 100.0),
            (_, _, Some(l)) => return (Some("dimension"), l),
            _ => json!(s),
        },
        Some("fontWeight") => match number {
            Some(n) => json!(n),
            None => weight(s).map_or_else(|| json!(s), |w| json!(w)),
        },
        Some("color") => color(s).unwrap_or_else(|| json!(s)),
        // A list of families (`Arial Black, Suisse Int'l, sans-serif`).
        Some("fontFamily") if s.contains(',') => Value::Array(
            s.split(',')
                .map(|f| json!(f.trim().trim_matches(['"', '\''])))
                .filter(|f| f.as_str().is_some_and(|f| !f.is_empty()))
                .collect(),
        ),
        // No type: what the value's form says.
        None if number.is_some() => return (Some("number"), json!(number)),
        _ => json!(s),
    };
    (dtcg, value)
}

/// A colour string as DTCG: `#hex`, `rgb()`/`rgba()` with numbers, or an
/// `rgba(#hex, alpha)` (Tokens Studio's).
fn color(s: &str) -> Option<Value> {
    let object = srgb;
    if let Some((rgb, a)) = crate::color::parse_hex(s) {
        return Some(object(rgb, a));
    }
    let inner = s
        .strip_prefix("rgba(")
        .or_else(|| s.strip_prefix("rgb("))?
        .strip_suffix(')')?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [hex, a] => {
            let (rgb, alpha) = crate::color::parse_hex(hex)?;
            Some(object(rgb, alpha * parse_alpha(a)?))
        }
        [r, g, b] | [r, g, b, _] => {
            let ch = |x: &str| x.parse::<f64>().ok().map(|v| v / 255.0);
            let a = match parts.get(3) {
                Some(a) => parse_alpha(a)?,
                None => 1.0,
            };
            Some(object([ch(r)?, ch(g)?, ch(b)?], a))
        }
        _ => None,
    }
}

fn parse_alpha(a: &str) -> Option<f64> {
    match a.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().ok().map(|p| p / 100.0),
        None => a.parse().ok(),
    }
}

/// A font weight's name as its number (sd-transforms' `fontWeightMap`).
fn weight(name: &str) -> Option<u32> {
    let key: String = name
        .to_ascii_lowercase()
        .replace("italic", "")
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .collect();
    Some(match key.as_str() {
        "hairline" | "thin" => 100,
        "extralight" | "ultralight" => 200,
        "light" => 300,
        "normal" | "regular" | "book" | "" => 400,
        "medium" => 500,
        "semibold" | "demibold" => 600,
        "bold" => 700,
        "extrabold" | "ultrabold" => 800,
        "black" | "heavy" => 900,
        "extrablack" | "ultrablack" => 950,
        _ => return None,
    })
}

/// The single-file form of a synced folder: each file a set named by its
/// path without `.json`, `$themes.json` and `$metadata.json` as members.
pub fn folder_doc(files: &[(String, Value)]) -> Value {
    let mut doc = Map::new();
    for (path, v) in files {
        let name = path.strip_suffix(".json").unwrap_or(path);
        doc.insert(name.to_string(), v.clone());
    }
    Value::Object(doc)
}

/// The pointer prefix of set `name` in [`folder_doc`].
pub fn set_pointer(name: &str) -> String {
    format!("/{}", escape_token(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_themes_types_and_math() {
        let doc = json!({
            "core": {
                "space": {"sm": {"value": "4", "type": "spacing"}, "lg": {"value": "{space.sm} * 2", "type": "spacing"}},
                "weight": {"value": "Semi Bold", "type": "fontWeights"},
                "lh": {"value": "130%", "type": "lineHeights"},
                "shadow": {"value": [{"x": "0", "y": "2", "blur": "4", "spread": "0", "color": "rgba(0,0,0,0.16)", "type": "dropShadow"}], "type": "boxShadow"},
                "old": {"value": "$space.sm", "type": "spacing"}
            },
            "compact": {"space": {"sm": {"value": "2", "type": "spacing"}}},
            "$themes": [
                {"name": "Default", "group": "density", "selectedTokenSets": {"core": "enabled"}},
                {"name": "Compact", "group": "density", "selectedTokenSets": {"core": "source", "compact": "enabled"}}
            ],
            "$metadata": {"tokenSetOrder": ["core", "compact"]}
        });
        let mut d = FileDiags::new("b", "b/t.json");
        let c = read(&doc, false, &mut d);
        let base = &c.doc["sets"]["tokens"]["sources"][0];
        assert_eq!(
            base["space"]["lg"]["$value"],
            json!({"value": 8.0, "unit": "px"})
        );
        assert_eq!(
            base["weight"],
            json!({"$type": "fontWeight", "$value": 600})
        );
        assert_eq!(base["lh"]["$value"], json!(1.3));
        assert_eq!(
            base["shadow"]["$value"][0]["blur"],
            json!({"value": 4.0, "unit": "px"})
        );
        assert_eq!(base["shadow"]["$value"][0]["color"]["alpha"], json!(0.16));
        assert_eq!(base["old"]["$value"], "{space.sm}");
        let compact = &c.doc["modifiers"]["density"]["contexts"]["Compact"][0];
        assert_eq!(
            compact["space"]["sm"]["$value"],
            json!({"value": 2.0, "unit": "px"})
        );
        // The expression written in `core` evaluates anew in Compact.
        assert_eq!(
            compact["space"]["lg"]["$value"],
            json!({"value": 4.0, "unit": "px"})
        );
        assert_eq!(
            c.source_pointer("/modifiers/density/contexts/Compact/0/space/lg/$value"),
            "/core/space/lg/value"
        );
    }
}
