//! What changed between two versions of a brand, and which version number
//! that change needs. PURE: two parsed brands in, a list of changes out,
//! as data. How a change reads (in Markdown, HTML or JSON) is
//! `render::diff`'s business.
//!
//! Each change is classified by what it does to someone who depends on the
//! brand (a site linking tokens.css, a Figma import, an app calling the
//! demo with a prompt's variables):
//!
//! - **major**: something they could depend on disappears or changes type:
//!   a token, a CSS custom property, a palette colour, a type style, a logo
//!   or asset, a contrast pair (or its level drops, or it stops passing), a
//!   prompt or a prompt variable; a variable becomes required, or its
//!   `maxLength` shrinks;
//! - **minor**: something is added, or marked deprecated;
//! - **patch**: a value or a text changes.

use super::brand::{level_minimum, pair_contrast, Brand};
use super::model::{ContrastPair, Prompt, PromptVariable};
use super::tokens::css::{self, Refs};
use super::tokens::{Token, TokenSet, TokenType, TokenValue};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

mod modes;
mod step;
#[cfg(test)]
mod testing;
pub use step::{check_step, TooSmall};

/// How large a version step a change needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Patch,
    Minor,
    Major,
}

impl Level {
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Patch => "patch",
            Level::Minor => "minor",
            Level::Major => "major",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The Keep a Changelog heading a change is listed under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Section {
    Added,
    Changed,
    Deprecated,
    Removed,
}

impl Section {
    /// In Keep a Changelog's order.
    pub const ALL: [Section; 4] = [
        Section::Added,
        Section::Changed,
        Section::Deprecated,
        Section::Removed,
    ];

    pub fn heading(self) -> &'static str {
        match self {
            Section::Added => "Added",
            Section::Changed => "Changed",
            Section::Deprecated => "Deprecated",
            Section::Removed => "Removed",
        }
    }
}

/// What a change is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    Token,
    CssProperty,
    Palette,
    TypeFamily,
    TypeStyle,
    Logo,
    Asset,
    ContrastPair,
    Prompt,
    PromptVariable,
    Text,
    /// A resolver's modifier (`theme`).
    Modifier,
    /// One context of a modifier (`theme=dark`).
    Context,
}

/// What happened to the thing a change names, with the facts the wording
/// needs. Token values are their CSS text (`var(--…)` kept), an alias as
/// `{color.fjord.900}`; custom properties are written with their `--`.
#[derive(Debug, Clone, PartialEq)]
pub enum What {
    /// An entry appeared (palette colour, type style, logo, asset, prompt).
    Added,
    /// An entry disappeared.
    Removed,
    /// An entry's content changed.
    Changed,
    TokenAdded {
        value: String,
    },
    TokenRemoved {
        property: String,
        /// It was deprecated in the version before: its removal was announced.
        announced: bool,
    },
    TokenRenamed {
        to: String,
        from_property: String,
        to_property: String,
    },
    TokenRetyped {
        from: TokenType,
        to: TokenType,
    },
    TokenValue {
        before: String,
        after: String,
    },
    TokenDeprecated,
    TokenDescribed,
    /// A custom property of tokens.css disappeared while its token stayed.
    PropertyRemoved,
    PairAdded {
        level: String,
    },
    PairRemoved {
        level: String,
    },
    PairFails {
        level: String,
        ratio: f64,
    },
    PairLowered {
        from: String,
        to: String,
    },
    PairRaised {
        from: String,
        to: String,
    },
    PairContrast {
        before: f64,
        after: f64,
    },
    /// A prompt's parts that changed: `template`, `system message`, …
    PromptParts(Vec<&'static str>),
    /// One variable of a prompt.
    Variable {
        prompt: String,
        variable: String,
        change: VariableChange,
    },
    /// The brand's display name.
    BrandRenamed {
        from: String,
        to: String,
    },
    /// A prose section: the name says which.
    TextChanged,
}

/// What happened to one variable of a prompt.
#[derive(Debug, Clone, PartialEq)]
pub enum VariableChange {
    Added {
        required: bool,
    },
    Removed,
    Required,
    Optional,
    /// Its `maxLength` shrank.
    Shorter {
        before: u32,
        after: u32,
    },
    /// Its `maxLength` grew, or its description or example changed.
    Changed,
}

/// One semantic change.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub level: Level,
    pub section: Section,
    pub kind: Kind,
    /// Its name as authored: `color.brand.primary`, `--color-brand-primary`,
    /// `hero`, `tagline.tone`, …
    pub name: String,
    pub what: What,
}

/// Every semantic change from one version of a brand to another, in a
/// fixed order: tokens, CSS properties, palette, typography, logos and
/// assets, contrast pairs, prompts, texts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Diff {
    pub changes: Vec<Change>,
}

impl Diff {
    /// The largest level among the changes; `None` when nothing changed.
    pub fn level(&self) -> Option<Level> {
        self.changes.iter().map(|c| c.level).max()
    }

    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// The changes listed under one heading.
    pub fn section(&self, s: Section) -> impl Iterator<Item = &Change> {
        self.changes.iter().filter(move |c| c.section == s)
    }
}

/// The semantic changes from `old` to `new`.
pub fn diff(old: &Brand, new: &Brand) -> Diff {
    let mut d = Builder::default();
    let vanished = d.tokens(&old.tokens, &new.tokens);
    d.css_properties(&old.tokens, &new.tokens, &vanished);
    d.modes(&old.tokens, &new.tokens);
    d.palette(old, new);
    d.typography(old, new);
    d.logos_and_assets(old, new);
    d.pairs(old, new);
    d.prompts(old, new);
    d.texts(old, new);
    Diff { changes: d.out }
}

/// The changes of tokens and custom properties alone, for tests of them.
#[cfg(test)]
pub fn token_changes(old: &TokenSet, new: &TokenSet) -> Vec<Change> {
    let mut d = Builder::default();
    let vanished = d.tokens(old, new);
    d.css_properties(old, new, &vanished);
    d.out
}

#[derive(Default)]
struct Builder {
    out: Vec<Change>,
}

/// A token's value as people read it: an alias as `{color.fjord.900}`,
/// anything else in its CSS form.
fn shown(t: &Token, set: &TokenSet) -> String {
    match &t.value {
        TokenValue::Alias(target) => format!("{{{target}}}"),
        TokenValue::AliasWithAlpha { target, alpha } => {
            format!(
                "{{{target}}} at alpha {}",
                crate::spec::tokens::fmt_num(*alpha)
            )
        }
        v => css::value(v, set, Refs::Var),
    }
}

/// A token's value with every alias resolved, to recognise a rename.
fn resolved(t: &Token, set: &TokenSet) -> String {
    css::value(&t.value, set, Refs::Resolve)
}

/// Items by their name.
fn by_key<'a, T>(items: &'a [T], key: impl Fn(&'a T) -> String) -> BTreeMap<String, &'a T> {
    items.iter().map(|t| (key(t), t)).collect()
}

impl Builder {
    fn push(&mut self, level: Level, section: Section, kind: Kind, name: &str, what: What) {
        self.out.push(Change {
            level,
            section,
            kind,
            name: name.to_string(),
            what,
        });
    }

    /// Tokens added, removed, renamed, retyped, changed or deprecated.
    /// Returns the custom properties (`--color-brand`) of tokens that no
    /// longer exist under their old name or type, whose part properties
    /// are then reported with them.
    fn tokens(&mut self, old: &TokenSet, new: &TokenSet) -> BTreeSet<String> {
        let before = by_key(&old.tokens, Token::name);
        let after = by_key(&new.tokens, Token::name);
        let gone: Vec<&&Token> = before
            .iter()
            .filter(|(n, _)| !after.contains_key(*n))
            .map(|(_, t)| t)
            .collect();
        let fresh: Vec<&Token> = after
            .iter()
            .filter(|(n, _)| !before.contains_key(*n))
            .map(|(_, t)| *t)
            .collect();
        // New tokens by type and resolved value, each list in name order, so
        // finding a rename is one lookup, not a scan of every new token.
        let mut by_value: HashMap<(TokenType, String), Vec<usize>> = HashMap::new();
        for (i, n) in fresh.iter().enumerate() {
            by_value
                .entry((n.ty, resolved(n, new)))
                .or_default()
                .push(i);
        }
        let mut taken = vec![false; fresh.len()];
        let mut vanished = BTreeSet::new();
        for t in gone {
            let name = t.name();
            vanished.insert(property(old, &t.path));
            // A rename: a new token of the same type and value. Prefer one
            // that keeps the last segment of the name (`a.primary` → `b.primary`).
            let free: Vec<usize> = by_value
                .get(&(t.ty, resolved(t, old)))
                .into_iter()
                .flatten()
                .copied()
                .filter(|&i| !taken[i])
                .collect();
            let pick = free
                .iter()
                .find(|&&i| fresh[i].path.last() == t.path.last())
                .or(free.first())
                .copied();
            if let Some(i) = pick {
                taken[i] = true;
            }
            match pick {
                Some(i) => {
                    let n = fresh[i];
                    let what = What::TokenRenamed {
                        to: n.name(),
                        from_property: property(old, &t.path),
                        to_property: property(new, &n.path),
                    };
                    self.push(Level::Major, Section::Changed, Kind::Token, &name, what);
                }
                None => {
                    let what = What::TokenRemoved {
                        property: property(old, &t.path),
                        announced: t.deprecation(old).is_some(),
                    };
                    self.push(Level::Major, Section::Removed, Kind::Token, &name, what);
                }
            }
        }
        for (name, a) in &after {
            let Some(b) = before.get(name) else { continue };
            if a.ty != b.ty {
                vanished.insert(property(old, &a.path));
                let what = What::TokenRetyped {
                    from: b.ty,
                    to: a.ty,
                };
                self.push(Level::Major, Section::Changed, Kind::Token, name, what);
                continue;
            }
            let (was, is) = (shown(b, old), shown(a, new));
            if was != is {
                let what = What::TokenValue {
                    before: was,
                    after: is,
                };
                self.push(Level::Patch, Section::Changed, Kind::Token, name, what);
            }
            if a.deprecation(new).is_some() && b.deprecation(old).is_none() {
                let what = What::TokenDeprecated;
                self.push(Level::Minor, Section::Deprecated, Kind::Token, name, what);
            } else if a.description != b.description || a.deprecated != b.deprecated {
                let what = What::TokenDescribed;
                self.push(Level::Patch, Section::Changed, Kind::Token, name, what);
            }
        }
        for t in fresh
            .iter()
            .zip(&taken)
            .filter(|(_, &k)| !k)
            .map(|(t, _)| t)
        {
            let what = What::TokenAdded {
                value: shown(t, new),
            };
            self.push(Level::Minor, Section::Added, Kind::Token, &t.name(), what);
        }
        vanished
    }

    /// CSS custom properties of tokens.css that disappear while their token
    /// stays (a part property of a composite that became an alias, say).
    /// Those of removed, renamed or retyped tokens (`covered`, with their
    /// parts) were named with them.
    fn css_properties(&mut self, old: &TokenSet, new: &TokenSet, covered: &BTreeSet<String>) {
        let after = css::property_names(new);
        for p in css::property_names(old) {
            if after.contains(&p) || covers(covered, &p) {
                continue;
            }
            let what = What::PropertyRemoved;
            self.push(Level::Major, Section::Removed, Kind::CssProperty, &p, what);
        }
    }

    fn palette(&mut self, old: &Brand, new: &Brand) {
        let before = by_key(&old.doc.color.palette, |p| p.name.clone());
        let after = by_key(&new.doc.color.palette, |p| p.name.clone());
        self.keyed(&before, &after, Kind::Palette, |b, a| json(b) != json(a));
    }

    fn typography(&mut self, old: &Brand, new: &Brand) {
        let t = (&old.doc.typography, &new.doc.typography);
        let before = by_key(&t.0.families, |f| f.role.clone());
        let after = by_key(&t.1.families, |f| f.role.clone());
        self.keyed(&before, &after, Kind::TypeFamily, |b, a| json(b) != json(a));
        let before = by_key(&t.0.styles, |s| s.name.clone());
        let after = by_key(&t.1.styles, |s| s.name.clone());
        self.keyed(&before, &after, Kind::TypeStyle, |b, a| json(b) != json(a));
    }

    fn logos_and_assets(&mut self, old: &Brand, new: &Brand) {
        let before = by_key(&old.doc.logo.variants, |v| v.id.clone());
        let after = by_key(&new.doc.logo.variants, |v| v.id.clone());
        self.keyed(&before, &after, Kind::Logo, |b, a| json(b) != json(a));
        let before: BTreeMap<String, _> = old.assets.iter().map(|(k, v)| (k.clone(), v)).collect();
        let after: BTreeMap<String, _> = new.assets.iter().map(|(k, v)| (k.clone(), v)).collect();
        self.keyed(&before, &after, Kind::Asset, |b, a| b != a);
    }

    /// Removed (major), added (minor) and changed (patch) entries of one
    /// kind, keyed by name.
    fn keyed<T>(
        &mut self,
        before: &BTreeMap<String, T>,
        after: &BTreeMap<String, T>,
        kind: Kind,
        differs: impl Fn(&T, &T) -> bool,
    ) {
        for (name, b) in before {
            match after.get(name) {
                None => self.push(Level::Major, Section::Removed, kind, name, What::Removed),
                Some(a) if differs(b, a) => {
                    self.push(Level::Patch, Section::Changed, kind, name, What::Changed)
                }
                Some(_) => {}
            }
        }
        for name in after.keys().filter(|n| !before.contains_key(*n)) {
            self.push(Level::Minor, Section::Added, kind, name, What::Added);
        }
    }

    /// Contrast pairs: removed, added, level lowered or raised, a pair that
    /// stops passing, a ratio that moves.
    fn pairs(&mut self, old: &Brand, new: &Brand) {
        let key = |p: &ContrastPair| format!("{} on {}", p.foreground, p.background);
        let before: BTreeMap<String, _> = old.doc.color.pairs.iter().map(|p| (key(p), p)).collect();
        let after: BTreeMap<String, _> = new.doc.color.pairs.iter().map(|p| (key(p), p)).collect();
        let kind = Kind::ContrastPair;
        for (name, b) in &before {
            let Some(a) = after.get(name) else {
                let what = What::PairRemoved {
                    level: b.level.clone(),
                };
                self.push(Level::Major, Section::Removed, kind, name, what);
                continue;
            };
            let was = pair_contrast(&old.tokens, &b.foreground, &b.background, &b.level);
            let is = pair_contrast(&new.tokens, &a.foreground, &a.background, &a.level);
            let (from, to) = (b.level.clone(), a.level.clone());
            // One change per pair, the weightiest that applies.
            let change = match (was, is) {
                (Some((_, true)), Some((ratio, false))) => {
                    Some((Level::Major, What::PairFails { level: to, ratio }))
                }
                _ if level_minimum(&a.level) < level_minimum(&b.level) => {
                    Some((Level::Major, What::PairLowered { from, to }))
                }
                _ if a.level != b.level => Some((Level::Patch, What::PairRaised { from, to })),
                (Some((r0, _)), Some((r1, _))) if r0 != r1 => Some((
                    Level::Patch,
                    What::PairContrast {
                        before: r0,
                        after: r1,
                    },
                )),
                _ => None,
            };
            if let Some((level, what)) = change {
                self.push(level, Section::Changed, kind, name, what);
            }
        }
        for name in after.keys().filter(|n| !before.contains_key(*n)) {
            let what = What::PairAdded {
                level: after[name].level.clone(),
            };
            self.push(Level::Minor, Section::Added, kind, name, what);
        }
    }

    fn prompts(&mut self, old: &Brand, new: &Brand) {
        let before = by_key(&old.doc.prompt_kit.prompts, |p| p.id.clone());
        let after = by_key(&new.doc.prompt_kit.prompts, |p| p.id.clone());
        for (id, b) in &before {
            match after.get(id) {
                None => self.push(
                    Level::Major,
                    Section::Removed,
                    Kind::Prompt,
                    id,
                    What::Removed,
                ),
                Some(a) => self.prompt(id, b, a),
            }
        }
        for id in after.keys().filter(|n| !before.contains_key(*n)) {
            self.push(Level::Minor, Section::Added, Kind::Prompt, id, What::Added);
        }
    }

    /// One prompt's changes: what a caller sends (variables) and what the
    /// model is asked (template, system, parameters).
    fn prompt(&mut self, id: &str, b: &Prompt, a: &Prompt) {
        let before = by_key(&b.variables, |v| v.name.clone());
        let after = by_key(&a.variables, |v| v.name.clone());
        let mut var = |level, section, name: &str, change: VariableChange| {
            self.out.push(Change {
                level,
                section,
                kind: Kind::PromptVariable,
                name: format!("{id}.{name}"),
                what: What::Variable {
                    prompt: id.to_string(),
                    variable: name.to_string(),
                    change,
                },
            });
        };
        for (name, vb) in &before {
            let Some(va) = after.get(name) else {
                var(
                    Level::Major,
                    Section::Removed,
                    name,
                    VariableChange::Removed,
                );
                continue;
            };
            let (vb, va): (&PromptVariable, &PromptVariable) = (vb, va);
            if va.required && !vb.required {
                var(
                    Level::Major,
                    Section::Changed,
                    name,
                    VariableChange::Required,
                );
            } else if !va.required && vb.required {
                var(
                    Level::Minor,
                    Section::Changed,
                    name,
                    VariableChange::Optional,
                );
            }
            if va.max_length < vb.max_length {
                let change = VariableChange::Shorter {
                    before: vb.max_length,
                    after: va.max_length,
                };
                var(Level::Major, Section::Changed, name, change);
            } else if va.max_length > vb.max_length
                || va.description != vb.description
                || va.example != vb.example
            {
                var(
                    Level::Patch,
                    Section::Changed,
                    name,
                    VariableChange::Changed,
                );
            }
        }
        for (name, va) in after.iter().filter(|(n, _)| !before.contains_key(*n)) {
            let level = if va.required {
                Level::Major
            } else {
                Level::Minor
            };
            let change = VariableChange::Added {
                required: va.required,
            };
            var(level, Section::Added, name, change);
        }
        let mut parts = Vec::new();
        if a.template != b.template {
            parts.push("template");
        }
        if a.system != b.system {
            parts.push("system message");
        }
        if a.max_tokens != b.max_tokens || a.temperature != b.temperature {
            parts.push("model parameters");
        }
        if a.title != b.title || a.description != b.description || a.ext != b.ext {
            parts.push("description");
        }
        if !parts.is_empty() {
            let what = What::PromptParts(parts);
            self.push(Level::Patch, Section::Changed, Kind::Prompt, id, what);
        }
    }

    /// Prose: the name, summary, voice, audience, applications, logo rules,
    /// `x-` extensions and the brand book.
    fn texts(&mut self, old: &Brand, new: &Brand) {
        let (o, n) = (&old.doc, &new.doc);
        if o.name != n.name {
            let what = What::BrandRenamed {
                from: o.name.clone(),
                to: n.name.clone(),
            };
            self.push(Level::Patch, Section::Changed, Kind::Text, "name", what);
        }
        let sections = [
            ("summary", json(&o.summary) != json(&n.summary)),
            ("voice", json(&o.voice) != json(&n.voice)),
            ("audience", json(&o.audience) != json(&n.audience)),
            (
                "applications",
                json(&o.applications) != json(&n.applications),
            ),
            (
                "logo guidance",
                o.logo.clear_space != n.logo.clear_space
                    || o.logo.misuse != n.logo.misuse
                    || o.logo.ext != n.logo.ext,
            ),
            ("extensions", o.ext != n.ext),
            ("brand book", old.brand_book != new.brand_book),
        ];
        for (name, changed) in sections {
            if changed {
                let what = What::TextChanged;
                self.push(Level::Patch, Section::Changed, Kind::Text, name, what);
            }
        }
    }
}

fn json<T: Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or_default()
}

/// A token's custom property in `set`'s names: `--color-brand-primary`.
fn property(set: &TokenSet, path: &[String]) -> String {
    format!("--{}", set.var_name(path))
}

/// True when `prop` is in `covered` or is a part property of one there
/// (`--type-body-font-size` of `--type-body`): one lookup per `-` in it.
fn covers(covered: &BTreeSet<String>, prop: &str) -> bool {
    covered.contains(prop)
        || prop
            .match_indices('-')
            .any(|(i, _)| covered.contains(&prop[..i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_covered_property_covers_its_part_properties() {
        let covered: BTreeSet<String> = ["--type-body".to_string()].into();
        assert!(covers(&covered, "--type-body"));
        assert!(covers(&covered, "--type-body-font-size"));
        assert!(!covers(&covered, "--type-bodyx"));
        assert!(!covers(&covered, "--type"));
    }
}
