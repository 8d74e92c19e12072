//! Theo's aliases published as tokens, in the group [`GROUP`], and a
//! prop whose value is one alias alone a DTCG reference to it.
//!
//! Theo's aliases are constants, not props: Theo substitutes them, so a
//! raw export's `value` is the literal (`#FFFFFF`) and its `originalValue`
//! (`{!PALETTE_NEUTRAL_100}`) the only record of which alias the prop
//! names (two aliases may share a value). Kept as written, Style
//! Dictionary reads that `{…}` as a reference to a token that does not
//! exist (it resolves references in every string of a token, not only
//! `$value`). Published as tokens, every consumer reads the aliases.
//!
//! A value of CSS text around aliases (`0 0 0 2px {!PALETTE_NEUTRAL_100},
//! 0 0 0 4px {!PALETTE_BLUE_40}`) has no DTCG reference: it keeps its
//! literal, and its template is kept as a list of parts (the text, and an
//! object `{"alias", "token"}` for each alias) under `$extensions`
//! `org.theo` `template`, a form no consumer reads as a reference.

use super::{inferred, props, read_prop, substitute, typed, EXTENSION};
use crate::spec::diag::FileDiags;
use crate::spec::json::join;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// The group Theo's aliases are published in. Theo's props are published
/// at the top level by their own names; one named so takes the group's
/// place, which [`super::read_with`] reports and then publishes no alias.
pub const GROUP: &str = "theo-alias";

/// A piece of a value as Theo writes it: text, or the alias a `{!name}`
/// names.
#[derive(Debug, PartialEq)]
enum Part<'a> {
    Text(&'a str),
    Alias(&'a str),
}

fn parts(s: &str) -> Vec<Part<'_>> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(open) = rest.find("{!") {
        let Some(len) = rest[open..].find('}') else {
            break;
        };
        if open > 0 {
            out.push(Part::Text(&rest[..open]));
        }
        out.push(Part::Alias(&rest[open + 2..open + len]));
        rest = &rest[open + len + 1..];
    }
    if !rest.is_empty() {
        out.push(Part::Text(rest));
    }
    out
}

/// The alias a value names when it is that alias and nothing else.
pub(super) fn whole(s: &str) -> Option<&str> {
    match parts(s).as_slice() {
        [Part::Alias(a)] => Some(a),
        _ => None,
    }
}

/// An alias's name as a DTCG token name: DTCG 2025.10 forbids `{`, `}`
/// and `.` in a name, and a `$` first; each becomes `_`.
pub(super) fn token_name(alias: &str) -> String {
    alias
        .char_indices()
        .map(|(i, c)| match c {
            '{' | '}' | '.' => '_',
            '$' if i == 0 => '_',
            c => c,
        })
        .collect()
}

/// An alias's value as Theo's raw files write it (`{"value": …}`) or its
/// sources (the value itself).
fn raw(alias: &Value) -> &Value {
    alias.get("value").unwrap_or(alias)
}

/// The aliases published, by Theo's name: each one's token name and type.
pub(super) struct Published(BTreeMap<String, (String, &'static str)>);

impl Published {
    /// The reference a token of type `ty` whose value is `alias` alone
    /// has: none where the alias is not published, or is of another type
    /// (a reference to another type is an error to DTCG's readers).
    pub fn reference(&self, alias: &str, ty: &str) -> Option<String> {
        let (name, t) = self.0.get(alias)?;
        (*t == ty).then(|| format!("{{{GROUP}.{name}}}"))
    }

    /// A value's template: its text, and for each alias Theo's name and
    /// the path of its token where it is published. No string of it holds
    /// braces, so no consumer reads a reference in it.
    pub fn template(&self, expr: &str) -> Value {
        let parts = parts(expr).into_iter().map(|p| match p {
            Part::Text(t) => json!(t),
            Part::Alias(a) => match self.0.get(a) {
                Some((name, _)) => json!({"alias": a, "token": format!("{GROUP}.{name}")}),
                None => json!({"alias": a}),
            },
        });
        Value::Array(parts.collect())
    }
}

/// `value` as [`typed`] gives it a prop of the DTCG type `ty` (each
/// type has the one reading of a value); what its value alone has where
/// it cannot have that type.
fn as_type(ty: &'static str, value: Value) -> (&'static str, Value) {
    // A Theo type [`typed`] reads as each DTCG type; the others it reads
    // from the value.
    let theo = match ty {
        "color" => "color",
        "fontFamily" => "font",
        "fontWeight" => "font-weight",
        "shadow" => "shadow",
        "duration" => "duration",
        _ => "",
    };
    match typed(theo, "", value.clone()) {
        (t, v) if t == ty => (t, v),
        _ => inferred(value),
    }
}

/// `aliases` (by Theo's name) as tokens of [`GROUP`]: the table of those
/// published, the group, and each token's pointer with its place in the
/// source. An alias takes the type of the props whose value it alone is
/// where they agree ([`Plan`]), so that they can refer to it; otherwise
/// the type its value has. An alias whose value is another alias alone
/// refers to it where their types agree.
///
/// Not published: an alias `plan` finds contested, one whose value names
/// a missing alias, and one whose DTCG name an earlier alias of the same
/// value has (`a.b` after `a_b`). A token naming one keeps its literal.
pub(super) fn publish(
    aliases: &Map<String, Value>,
    plan: &Plan,
) -> (Published, Map<String, Value>, Vec<(String, String)>) {
    let mut names = BTreeMap::new();
    let mut values = Vec::new();
    let mut taken = HashSet::new();
    for (alias, v) in aliases {
        let name = token_name(alias);
        if plan.contested.contains(&name) || name.is_empty() || taken.contains(&name) {
            continue;
        }
        let Ok(value) = substitute(raw(v), aliases, 0) else {
            continue;
        };
        let (ty, value) = match plan.types.get(alias) {
            Some(Some(ty)) => as_type(ty, value),
            _ => inferred(value),
        };
        taken.insert(name.clone());
        names.insert(alias.clone(), (name, ty));
        values.push((alias, value));
    }
    let published = Published(names);
    let mut group = Map::new();
    let mut tokens = Vec::new();
    for (alias, value) in values {
        let (name, ty) = &published.0[alias];
        let expr = raw(&aliases[alias]).as_str().filter(|s| s.contains("{!"));
        let reference = expr
            .and_then(whole)
            .and_then(|a| published.reference(a, ty));
        let mut token = json!({"$type": ty});
        match (reference, expr) {
            (Some(r), _) => token["$value"] = json!(r),
            (None, Some(expr)) => {
                token["$value"] = value;
                token["$extensions"] = json!({EXTENSION: {"template": published.template(expr)}});
            }
            (None, None) => token["$value"] = value,
        }
        tokens.push((join(&join("", GROUP), name), join("/aliases", alias)));
        group.insert(name.clone(), token);
    }
    (published, group, tokens)
}

/// What a brand's Theo files (their imports merged) say of each alias,
/// which one token of the group `theo-alias` publishes for all of them.
#[derive(Default)]
pub struct Plan {
    /// The token names of aliases two files (or two aliases of one file,
    /// `a.b` and `a_b`) give different values. One token cannot hold
    /// both: SLDS's `font.raw.json` has `FONT_SIZE_1` at 1.125rem and its
    /// `primitive.raw.json` at 0.625rem, in one set, where the later
    /// file's would win for both. So neither is published, and the props
    /// naming one keep their literal values.
    contested: BTreeSet<String>,
    /// Each alias's type from the props whose value it alone is, in any
    /// file: `None` where they disagree. Every file publishes an alias
    /// with one type, or a file's props would refer to another file's
    /// token of another type.
    types: BTreeMap<String, Option<&'static str>>,
}

/// The plan of a brand's Theo files `docs`.
pub fn plan<'a>(docs: impl IntoIterator<Item = &'a Value>) -> Plan {
    let mut plan = Plan::default();
    let mut seen: BTreeMap<String, Value> = BTreeMap::new();
    let none = Map::new();
    for doc in docs {
        let aliases = doc
            .get("aliases")
            .and_then(Value::as_object)
            .unwrap_or(&none);
        for (alias, v) in aliases {
            let Ok(value) = substitute(raw(v), aliases, 0) else {
                continue;
            };
            // As published: `#FFFFFF` and `#ffffff` are one colour.
            let (_, value) = inferred(value);
            let name = token_name(alias);
            match seen.get(&name) {
                Some(before) if *before != value => {
                    plan.contested.insert(name);
                }
                Some(_) => {}
                None => {
                    seen.insert(name, value);
                }
            }
        }
        // What is wrong with a prop is said when the file is read.
        let mut quiet = FileDiags::new("", "");
        for (name, prop, at) in props(doc, &mut quiet) {
            let Some(p) = read_prop(name, prop, at, aliases, &mut quiet) else {
                continue;
            };
            if let Some(alias) = p.alias() {
                plan.types
                    .entry(alias.to_string())
                    .and_modify(|t| *t = t.filter(|t| *t == p.ty))
                    .or_insert(Some(p.ty));
            }
        }
    }
    plan
}
