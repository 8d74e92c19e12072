//! tokens.css for a brand with modes: after `:root` (the default
//! permutation), each context of modifier `m` is a rule
//! `[data-m="context"]` holding only what differs from the default, usable
//! on `<html>` or on any element (a dark panel in a light page).
//!
//! A context's rule declares two kinds of property:
//!
//! - what the context writes, as it writes it (aliases stay `var(--…)`);
//! - every alias whose value follows from those (`--fg: var(--ink)` when the
//!   context changes `--ink`), as `:root` writes it. A custom property's
//!   `var()` is resolved where it is declared, so without this a dark
//!   panel would inherit `--fg` as computed on a light `<html>`.
//!
//! The second kind is one rule per modifier, `[data-m]`, for all its
//! contexts (on `<html>` itself `:root` already declares them); it comes
//! first, then the contexts' rules in resolution order. All have the same
//! specificity, so on
//! an element naming contexts of two modifiers (`data-theme="dark"
//! data-density="compact"`), what a context writes beats what another
//! merely re-declares, and of two contexts that write one token the later
//! modifier wins, as in the resolver. A context's name is also a rule for
//! the default (`[data-theme="light"]`), which puts back what the other
//! contexts change, so a light section can sit inside a dark page.
//!
//! A modifier with contexts `light` and `dark` is the colour scheme: each
//! rule declares `color-scheme`, and under `@media (prefers-color-scheme:
//! dark)` the dark context applies to `<html>` unless the page names a
//! context of that modifier there itself.

use super::{fresh, Entry, Sheet};
use crate::spec::tokens::css::{self, declarations, Declaration};
use crate::spec::tokens::modes::{ModeContext, Modifier};
use crate::spec::tokens::{Token, TokenSet, TokenValue};
use std::collections::{BTreeSet, HashMap, HashSet};

/// The `color-scheme` of `:root`: the default context's, when a modifier
/// is the colour scheme.
pub(super) fn root_scheme(set: &TokenSet) -> Option<&'static str> {
    set.modes
        .iter()
        .find(|m| m.is_color_scheme())
        .map(|m| m.contexts[m.default].scheme())
}

/// One non-default context's declarations.
struct Rules<'a> {
    /// What the context writes.
    written: Vec<Declaration<'a>>,
    /// Indices into `:root`'s entries of the aliases that follow.
    follows: Vec<usize>,
}

pub(super) fn write(
    sheet: &mut Sheet,
    set: &TokenSet,
    root: &[Entry<'_>],
    shims: &std::collections::BTreeMap<String, String>,
) {
    let graph = Graph::new(root);
    let rules: Vec<Vec<Option<Rules<'_>>>> = set
        .modes
        .iter()
        .map(|m| {
            m.contexts
                .iter()
                .enumerate()
                .map(|(c, context)| (c != m.default).then(|| rules_of(context, set, &graph, shims)))
                .collect()
        })
        .collect();
    sheet.comment(
        "Modes: each context applies under its data attribute, on the root element or any other.",
    );
    for (m, modifier) in set.modes.iter().enumerate() {
        let follows: BTreeSet<usize> = rules[m]
            .iter()
            .flatten()
            .flat_map(|r| r.follows.iter().copied())
            .collect();
        let any = format!("[{}]", modifier.attribute());
        sheet.rule(
            &[],
            &any,
            None,
            follows.iter().map(|&i| (None, &root[i].decl)),
        );
    }
    for (m, modifier) in set.modes.iter().enumerate() {
        let scheme = |c: &ModeContext| modifier.is_color_scheme().then(|| c.scheme());
        let default = &modifier.contexts[modifier.default];
        let restored: BTreeSet<usize> = rules[m]
            .iter()
            .flatten()
            .flat_map(|r| {
                r.written
                    .iter()
                    .filter_map(|d| graph.index.get(&d.name).copied())
            })
            .collect();
        sheet.rule(
            &[],
            &selector(modifier, default),
            scheme(default),
            restored.iter().map(|&i| (None, &root[i].decl)),
        );
        for (c, context) in modifier.contexts.iter().enumerate() {
            let Some(r) = &rules[m][c] else { continue };
            let written = || r.written.iter().map(|d| (None, d));
            sheet.rule(
                &[],
                &selector(modifier, context),
                scheme(context),
                written(),
            );
            // On <html> itself `:root` already declares what follows.
            if let Some(media) = auto(modifier, c) {
                let at = format!("@media {media}");
                sheet.rule(&[&at], &unnamed(modifier), scheme(context), written());
            }
        }
    }
}

fn rules_of<'a>(
    context: &'a ModeContext,
    set: &'a TokenSet,
    graph: &Graph<'_>,
    shims: &std::collections::BTreeMap<String, String>,
) -> Rules<'a> {
    let mut declared = HashSet::new();
    // A shim follows its replacement in every context: it is not written again.
    let written: Vec<Declaration<'a>> = context
        .tokens
        .iter()
        .filter(|t| !shims.contains_key(&t.name()))
        .flat_map(|t| fresh(declarations(t, set), &mut declared))
        .collect();
    let follows = graph.following(written.iter().map(|d| d.name.as_str()));
    Rules { written, follows }
}

/// `[data-theme="dark"]`.
pub(crate) fn selector(m: &Modifier, c: &ModeContext) -> String {
    format!("[{}=\"{}\"]", m.attribute(), c.ident())
}

/// `<html>` when it names no context of `m`.
pub(crate) fn unnamed(m: &Modifier) -> String {
    format!(":root:where(:not([{}]))", m.attribute())
}

/// The media query under which context `c` of the colour scheme applies
/// by itself: `dark` where the reader prefers dark and the default is
/// light, `light` where the reader prefers light and the default is dark.
pub(crate) fn auto(m: &Modifier, c: usize) -> Option<String> {
    if !m.is_color_scheme() {
        return None;
    }
    let (default, here) = (m.contexts[m.default].scheme(), &m.contexts[c]);
    let wanted = match default {
        "light" => "dark",
        _ => "light",
    };
    // The one context of the wanted scheme: named so, or the only one
    // declared so (of `a-day`, `a-night`, `b-night` none is).
    let of_scheme = m.contexts.iter().filter(|x| x.scheme() == wanted).count();
    (here.scheme() == wanted && (here.ident() == wanted || of_scheme == 1))
        .then(|| format!("(prefers-color-scheme: {wanted})"))
}

/// Which of `:root`'s declarations refer to which properties.
struct Graph<'r> {
    root: &'r [Entry<'r>],
    /// Property name → index of its entry.
    index: HashMap<String, usize>,
    /// Property name → the entries whose values name it in `var()`.
    used_by: HashMap<String, Vec<usize>>,
}

impl<'r> Graph<'r> {
    fn new(root: &'r [Entry<'r>]) -> Graph<'r> {
        let mut used_by: HashMap<String, Vec<usize>> = HashMap::new();
        for (i, e) in root.iter().enumerate() {
            for name in referenced(&e.decl.value) {
                used_by.entry(name.to_string()).or_default().push(i);
            }
        }
        let index = root
            .iter()
            .enumerate()
            .map(|(i, e)| (e.decl.name.clone(), i))
            .collect();
        Graph {
            root,
            index,
            used_by,
        }
    }

    /// The entries whose values follow, through `var()`, from the
    /// properties `changed` (and are not among them), in `:root`'s order.
    fn following<'n>(&'n self, changed: impl Iterator<Item = &'n str>) -> Vec<usize> {
        let changed: HashSet<&str> = changed.collect();
        let mut queue: Vec<&str> = changed.iter().copied().collect();
        let mut found = BTreeSet::new();
        while let Some(name) = queue.pop() {
            for &i in self.used_by.get(name).into_iter().flatten() {
                let dependent = self.root[i].decl.name.as_str();
                if !changed.contains(dependent) && found.insert(i) {
                    queue.push(dependent);
                }
            }
        }
        found.into_iter().collect()
    }
}

/// The custom properties a value names in `var(--…)`.
fn referenced(value: &str) -> impl Iterator<Item = &str> {
    value.split("var(--").skip(1).filter_map(|rest| {
        let end = rest.find([')', ',', ' '])?;
        Some(&rest[..end])
    })
}

/// The condition under which a browser cannot compute relative colour
/// syntax (before Chrome 119, Safari 18, Firefox 128).
pub(crate) const NO_RELATIVE_COLORS: &str = "@supports not (color: rgb(from red r g b))";

/// For a browser without relative colour syntax, the colour each alias
/// with an alpha paints, as a literal, in the same rules as the modes'
/// (so a context on any element still applies): without these, its
/// `rgb(from var(--…) …)` would be invalid where it is used, and the
/// property would fall back to its initial value. Nothing is written for
/// a brand without such an alias.
pub(super) fn without_relative_colors(sheet: &mut Sheet, set: &TokenSet) {
    let literal = |t: &Token, v: &TokenValue| Literal {
        name: set.var_name(&t.path),
        value: v.clone(),
    };
    let root: Vec<Literal> = set
        .tokens
        .iter()
        .filter(|t| matches!(t.value, TokenValue::AliasWithAlpha { .. }))
        .filter_map(|t| Some(literal(t, set.resolve(&t.value)?.as_ref())))
        .collect();
    let contexts: Vec<Vec<Vec<Literal>>> = set
        .modes
        .iter()
        .enumerate()
        .map(|(m, modifier)| {
            (0..modifier.contexts.len())
                .map(|c| match c == modifier.default {
                    true => Vec::new(),
                    false => set
                        .composited_in(m, c)
                        .into_iter()
                        .map(|(t, v)| literal(t, &v))
                        .collect(),
                })
                .collect()
        })
        .collect();
    if root.is_empty() && contexts.iter().flatten().all(Vec::is_empty) {
        return;
    }
    sheet.comment(
        "Where relative colours are not computed: each translucent alias as the colour it paints.",
    );
    let at = [NO_RELATIVE_COLORS];
    let decls = |ls: &[Literal]| -> Vec<Declaration<'static>> {
        ls.iter()
            .map(|l| Declaration {
                name: l.name.clone(),
                value: css::value(&l.value, set, css::Refs::Var),
                from: None,
            })
            .collect()
    };
    let root_decls = decls(&root);
    sheet.rule(&at, ":root", None, root_decls.iter().map(|d| (None, d)));
    for (m, modifier) in set.modes.iter().enumerate() {
        // On any element naming a context, the default's colours first,
        // for those another context of this modifier changes.
        let changed: BTreeSet<&str> = contexts[m]
            .iter()
            .flatten()
            .map(|l| l.name.as_str())
            .collect();
        let defaults: Vec<&Declaration> = root_decls
            .iter()
            .filter(|d| changed.contains(d.name.as_str()))
            .collect();
        sheet.rule(
            &at,
            &format!("[{}]", modifier.attribute()),
            None,
            defaults.iter().map(|d| (None, *d)),
        );
        for (c, context) in modifier.contexts.iter().enumerate() {
            let here = decls(&contexts[m][c]);
            sheet.rule(
                &at,
                &selector(modifier, context),
                None,
                here.iter().map(|d| (None, d)),
            );
            if let Some(media) = auto(modifier, c) {
                let media = format!("@media {media}");
                sheet.rule(
                    &[NO_RELATIVE_COLORS, &media],
                    &unnamed(modifier),
                    None,
                    here.iter().map(|d| (None, d)),
                );
            }
        }
    }
}

/// One custom property's literal colour.
struct Literal {
    name: String,
    value: TokenValue,
}
