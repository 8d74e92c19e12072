//! What changed between two versions of a brand, and which version number
//! that change needs. PURE: two parsed brands in, a list of changes out.
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
use super::model::{Prompt, PromptVariable};
use super::tokens::{Token, TokenSet, TokenType, TokenValue};
use crate::render::css::{self, Refs};
use crate::render::tokens_css;
use semver::Version;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

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
    Removed,
}

impl Section {
    pub const ALL: [Section; 3] = [Section::Added, Section::Changed, Section::Removed];

    pub fn heading(self) -> &'static str {
        match self {
            Section::Added => "Added",
            Section::Changed => "Changed",
            Section::Removed => "Removed",
        }
    }
}

/// One semantic change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub level: Level,
    pub section: Section,
    /// What changed: `token`, `css-property`, `palette`, `type-family`,
    /// `type-style`, `logo`, `asset`, `contrast-pair`, `prompt`,
    /// `prompt-variable` or `text`.
    pub kind: &'static str,
    /// Its name: `color.brand.primary`, `--color-brand-primary`, `hero`, …
    pub name: String,
    /// One line for people: ``removes token `color.brand.primary` ``.
    pub summary: String,
}

#[cfg(test)]
impl Change {
    /// A token's change, for tests of what lists changes: `removes token `a``.
    pub fn of_token(level: Level, section: Section, verb: &str, name: &str) -> Change {
        Change {
            level,
            section,
            kind: "token",
            name: name.to_string(),
            summary: format!("{verb} token `{name}`"),
        }
    }
}

/// Every semantic change from one version of a brand to another, in a
/// fixed order: tokens, CSS properties, palette, typography, logos and
/// assets, contrast pairs, prompts, texts.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
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
    d.palette(old, new);
    d.typography(old, new);
    d.logos_and_assets(old, new);
    d.pairs(old, new);
    d.prompts(old, new);
    d.texts(old, new);
    Diff { changes: d.out }
}

#[derive(Default)]
struct Builder {
    out: Vec<Change>,
}

/// A token's value as people read it: an alias as `{color.fjord.900}`,
/// anything else in its CSS form.
fn shown(t: &Token, set: &TokenSet) -> String {
    tick(&match &t.value {
        TokenValue::Alias(target) => format!("{{{target}}}"),
        v => css::value(v, set, Refs::Var),
    })
}

/// Text from content made safe inside a Markdown code span: one line, and
/// a backtick (which would end the span) shown as `ˋ`.
fn tick(s: &str) -> String {
    crate::render::escape::collapse_ws(s).replace('`', "ˋ")
}

/// A token's value with every alias resolved, to recognise a rename.
fn resolved(t: &Token, set: &TokenSet) -> String {
    css::value(&t.value, set, Refs::Resolve)
}

/// Items by their name, made safe to quote (see [`tick`]).
fn by_key<'a, T>(items: &'a [T], key: impl Fn(&'a T) -> String) -> BTreeMap<String, &'a T> {
    items.iter().map(|t| (tick(&key(t)), t)).collect()
}

impl Builder {
    fn push(
        &mut self,
        level: Level,
        section: Section,
        kind: &'static str,
        name: &str,
        summary: String,
    ) {
        self.out.push(Change {
            level,
            section,
            kind,
            name: name.to_string(),
            summary,
        });
    }

    /// Tokens added, removed, renamed, retyped, changed or deprecated.
    /// Returns the custom properties (`--color-brand`) of tokens that no
    /// longer exist under their old name or type, whose part properties
    /// are then reported with them.
    fn tokens(&mut self, old: &TokenSet, new: &TokenSet) -> BTreeSet<String> {
        let before = by_key(&old.tokens, |t| tick(&t.name()));
        let after = by_key(&new.tokens, |t| tick(&t.name()));
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
            let name = tick(&t.name());
            vanished.insert(property(&t.path));
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
                    self.push(
                        Level::Major,
                        Section::Changed,
                        "token",
                        &name,
                        format!(
                            "renames token `{name}` to `{}` (`{}` becomes `{}`)",
                            tick(&n.name()),
                            property(&t.path),
                            property(&n.path)
                        ),
                    );
                }
                None => self.push(
                    Level::Major,
                    Section::Removed,
                    "token",
                    &name,
                    format!("removes token `{name}` (`{}`)", property(&t.path)),
                ),
            }
        }
        for (name, a) in &after {
            let Some(b) = before.get(name) else { continue };
            if a.ty != b.ty {
                vanished.insert(property(&a.path));
                self.push(
                    Level::Major,
                    Section::Changed,
                    "token",
                    name,
                    format!(
                        "changes the type of token `{name}` from {} to {}",
                        b.ty.as_str(),
                        a.ty.as_str()
                    ),
                );
                continue;
            }
            let (was, is) = (shown(b, old), shown(a, new));
            if was != is {
                self.push(
                    Level::Patch,
                    Section::Changed,
                    "token",
                    name,
                    format!("changes token `{name}` from `{was}` to `{is}`"),
                );
            }
            if a.deprecated.is_some() && b.deprecated.is_none() {
                self.push(
                    Level::Minor,
                    Section::Changed,
                    "token",
                    name,
                    format!("deprecates token `{name}`"),
                );
            } else if a.description != b.description || a.deprecated != b.deprecated {
                self.push(
                    Level::Patch,
                    Section::Changed,
                    "token",
                    name,
                    format!("changes the description of token `{name}`"),
                );
            }
        }
        for t in fresh
            .iter()
            .zip(&taken)
            .filter(|(_, &k)| !k)
            .map(|(t, _)| t)
        {
            let name = tick(&t.name());
            self.push(
                Level::Minor,
                Section::Added,
                "token",
                &name,
                format!("adds token `{name}` (`{}`)", shown(t, new)),
            );
        }
        vanished
    }

    /// CSS custom properties of tokens.css that disappear while their token
    /// stays (a part property of a composite that became an alias, say).
    /// Those of removed, renamed or retyped tokens (`covered`, with their
    /// parts) were named with them.
    fn css_properties(&mut self, old: &TokenSet, new: &TokenSet, covered: &BTreeSet<String>) {
        let after = tokens_css::property_names(new);
        for p in tokens_css::property_names(old) {
            if after.contains(&p) || covers(covered, &p) {
                continue;
            }
            self.push(
                Level::Major,
                Section::Removed,
                "css-property",
                &p,
                format!("removes CSS custom property `{p}` from tokens.css"),
            );
        }
    }

    fn palette(&mut self, old: &Brand, new: &Brand) {
        let before = by_key(&old.doc.color.palette, |p| p.name.clone());
        let after = by_key(&new.doc.color.palette, |p| p.name.clone());
        self.keyed(&before, &after, "palette", "palette colour", |b, a| {
            json(b) != json(a)
        });
    }

    fn typography(&mut self, old: &Brand, new: &Brand) {
        let t = (&old.doc.typography, &new.doc.typography);
        let before = by_key(&t.0.families, |f| f.role.clone());
        let after = by_key(&t.1.families, |f| f.role.clone());
        self.keyed(&before, &after, "type-family", "typeface role", |b, a| {
            json(b) != json(a)
        });
        let before = by_key(&t.0.styles, |s| s.name.clone());
        let after = by_key(&t.1.styles, |s| s.name.clone());
        self.keyed(&before, &after, "type-style", "type style", |b, a| {
            json(b) != json(a)
        });
    }

    fn logos_and_assets(&mut self, old: &Brand, new: &Brand) {
        let before = by_key(&old.doc.logo.variants, |v| v.id.clone());
        let after = by_key(&new.doc.logo.variants, |v| v.id.clone());
        self.keyed(&before, &after, "logo", "logo", |b, a| json(b) != json(a));
        let before: BTreeMap<String, _> = old.assets.iter().map(|(k, v)| (tick(k), v)).collect();
        let after: BTreeMap<String, _> = new.assets.iter().map(|(k, v)| (tick(k), v)).collect();
        self.keyed(&before, &after, "asset", "asset", |b, a| b != a);
    }

    /// Removed (major), added (minor) and changed (patch) entries of one
    /// kind, keyed by name.
    fn keyed<T>(
        &mut self,
        before: &BTreeMap<String, T>,
        after: &BTreeMap<String, T>,
        kind: &'static str,
        noun: &str,
        differs: impl Fn(&T, &T) -> bool,
    ) {
        for (name, b) in before {
            match after.get(name) {
                None => self.push(
                    Level::Major,
                    Section::Removed,
                    kind,
                    name,
                    format!("removes {noun} `{name}`"),
                ),
                Some(a) if differs(b, a) => self.push(
                    Level::Patch,
                    Section::Changed,
                    kind,
                    name,
                    format!("changes {noun} `{name}`"),
                ),
                Some(_) => {}
            }
        }
        for name in after.keys().filter(|n| !before.contains_key(*n)) {
            self.push(
                Level::Minor,
                Section::Added,
                kind,
                name,
                format!("adds {noun} `{name}`"),
            );
        }
    }

    /// Contrast pairs: removed, added, level lowered or raised, a pair that
    /// stops passing, a ratio that moves.
    fn pairs(&mut self, old: &Brand, new: &Brand) {
        let key =
            |p: &super::model::ContrastPair| tick(&format!("{} on {}", p.foreground, p.background));
        let before: BTreeMap<String, _> = old.doc.color.pairs.iter().map(|p| (key(p), p)).collect();
        let after: BTreeMap<String, _> = new.doc.color.pairs.iter().map(|p| (key(p), p)).collect();
        for (name, b) in &before {
            let Some(a) = after.get(name) else {
                self.push(
                    Level::Major,
                    Section::Removed,
                    "contrast-pair",
                    name,
                    format!("removes contrast pair `{name}` ({})", b.level),
                );
                continue;
            };
            let was = pair_contrast(&old.tokens, &b.foreground, &b.background, &b.level);
            let is = pair_contrast(&new.tokens, &a.foreground, &a.background, &a.level);
            // One change per pair, the weightiest that applies.
            let change = match (was, is) {
                (Some((_, true)), Some((ratio, false))) => Some((
                    Level::Major,
                    format!(
                        "contrast pair `{name}` stops passing {} ({ratio:.2}:1)",
                        a.level
                    ),
                )),
                _ if level_minimum(&a.level) < level_minimum(&b.level) => Some((
                    Level::Major,
                    format!(
                        "lowers contrast pair `{name}` from {} to {}",
                        b.level, a.level
                    ),
                )),
                _ if a.level != b.level => Some((
                    Level::Patch,
                    format!(
                        "raises contrast pair `{name}` from {} to {}",
                        b.level, a.level
                    ),
                )),
                (Some((r0, _)), Some((r1, _))) if r0 != r1 => Some((
                    Level::Patch,
                    format!("changes the contrast of `{name}` from {r0:.2}:1 to {r1:.2}:1"),
                )),
                _ => None,
            };
            if let Some((level, summary)) = change {
                self.push(level, Section::Changed, "contrast-pair", name, summary);
            }
        }
        for name in after.keys().filter(|n| !before.contains_key(*n)) {
            let level = &after[name].level;
            self.push(
                Level::Minor,
                Section::Added,
                "contrast-pair",
                name,
                format!("adds contrast pair `{name}` ({level})"),
            );
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
                    "prompt",
                    id,
                    format!("removes prompt `{id}`"),
                ),
                Some(a) => self.prompt(id, b, a),
            }
        }
        for id in after.keys().filter(|n| !before.contains_key(*n)) {
            self.push(
                Level::Minor,
                Section::Added,
                "prompt",
                id,
                format!("adds prompt `{id}`"),
            );
        }
    }

    /// One prompt's changes: what a caller sends (variables) and what the
    /// model is asked (template, system, parameters).
    fn prompt(&mut self, id: &str, b: &Prompt, a: &Prompt) {
        let before = by_key(&b.variables, |v| v.name.clone());
        let after = by_key(&a.variables, |v| v.name.clone());
        let mut var = |level, section, name: &str, what: String| {
            self.out.push(Change {
                level,
                section,
                kind: "prompt-variable",
                name: format!("{id}.{name}"),
                summary: what,
            });
        };
        for (name, vb) in &before {
            let Some(va) = after.get(name) else {
                var(
                    Level::Major,
                    Section::Removed,
                    name,
                    format!("removes variable `{name}` from prompt `{id}`"),
                );
                continue;
            };
            let (vb, va): (&PromptVariable, &PromptVariable) = (vb, va);
            if va.required && !vb.required {
                var(
                    Level::Major,
                    Section::Changed,
                    name,
                    format!("makes variable `{name}` of prompt `{id}` required"),
                );
            } else if !va.required && vb.required {
                var(
                    Level::Minor,
                    Section::Changed,
                    name,
                    format!("makes variable `{name}` of prompt `{id}` optional"),
                );
            }
            if va.max_length < vb.max_length {
                var(
                    Level::Major,
                    Section::Changed,
                    name,
                    format!(
                        "lowers the maxLength of variable `{name}` of prompt `{id}` from {} to {}",
                        vb.max_length, va.max_length
                    ),
                );
            } else if va.max_length > vb.max_length
                || va.description != vb.description
                || va.example != vb.example
            {
                var(
                    Level::Patch,
                    Section::Changed,
                    name,
                    format!("changes variable `{name}` of prompt `{id}`"),
                );
            }
        }
        for (name, va) in after.iter().filter(|(n, _)| !before.contains_key(*n)) {
            if va.required {
                var(
                    Level::Major,
                    Section::Added,
                    name,
                    format!("adds required variable `{name}` to prompt `{id}`"),
                );
            } else {
                var(
                    Level::Minor,
                    Section::Added,
                    name,
                    format!("adds optional variable `{name}` to prompt `{id}`"),
                );
            }
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
            self.push(
                Level::Patch,
                Section::Changed,
                "prompt",
                id,
                format!("changes the {} of prompt `{id}`", parts.join(", ")),
            );
        }
    }

    /// Prose: the name, summary, voice, audience, applications, logo rules,
    /// `x-` extensions and the brand book.
    fn texts(&mut self, old: &Brand, new: &Brand) {
        let (o, n) = (&old.doc, &new.doc);
        if o.name != n.name {
            self.push(
                Level::Patch,
                Section::Changed,
                "text",
                "name",
                format!(
                    "renames the brand from \"{}\" to \"{}\"",
                    crate::render::escape::md(&o.name),
                    crate::render::escape::md(&n.name)
                ),
            );
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
                self.push(
                    Level::Patch,
                    Section::Changed,
                    "text",
                    name,
                    format!("changes the {name}"),
                );
            }
        }
    }
}

fn json<T: Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or_default()
}

/// A token's custom property: `--color-brand-primary`.
fn property(path: &[String]) -> String {
    format!("--{}", super::brand::css_name(path))
}

/// True when `prop` is in `covered` or is a part property of one there
/// (`--type-body-font-size` of `--type-body`): one lookup per `-` in it.
fn covers(covered: &BTreeSet<String>, prop: &str) -> bool {
    covered.contains(prop)
        || prop
            .match_indices('-')
            .any(|(i, _)| covered.contains(&prop[..i]))
}

/// Why a version is too small a step after the release it follows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooSmall {
    /// The level the changes need.
    pub needed: Level,
    /// The smallest version that would do.
    pub minimum: Version,
}

/// Checks that `to` is a large enough step after release `from` for
/// changes of `level` (`None`: nothing changed).
///
/// Semver's rules, with Cargo's reading of `0.y.z`: before 1.0.0 a breaking
/// change needs the minor number and an addition the patch number. A
/// pre-release promises nothing, so `3.0.0-beta.1` → `3.0.0-beta.2` or
/// → `3.0.0` may change anything; a pre-release of a later version needs
/// the step its changes need (`2.12.0-rc.1` cannot remove a token from 2.11.0).
pub fn check_step(from: &Version, to: &Version, level: Option<Level>) -> Result<(), TooSmall> {
    let Some(level) = level else { return Ok(()) };
    let effective = match (from.major, level) {
        (0, Level::Major) => Level::Minor,
        (0, _) => Level::Patch,
        (_, l) => l,
    };
    let base = |v: &Version| (v.major, v.minor, v.patch);
    let later = to.cmp_precedence(from) == std::cmp::Ordering::Greater;
    if later && !from.pre.is_empty() && base(to) == base(from) {
        return Ok(());
    }
    let step = if !later {
        None
    } else if to.major != from.major {
        Some(Level::Major)
    } else if to.minor != from.minor {
        Some(Level::Minor)
    } else {
        Some(Level::Patch)
    };
    if step.is_some_and(|s| s >= effective) {
        return Ok(());
    }
    Err(TooSmall {
        needed: level,
        minimum: minimum(from, effective),
    })
}

/// The smallest version after `from` that makes a step of `level`.
fn minimum(from: &Version, level: Level) -> Version {
    if !from.pre.is_empty() {
        // The release of the pre-release itself may change anything.
        return Version::new(from.major, from.minor, from.patch);
    }
    match level {
        Level::Major => Version::new(from.major + 1, 0, 0),
        Level::Minor => Version::new(from.major, from.minor + 1, 0),
        Level::Patch => Version::new(from.major, from.minor, from.patch + 1),
    }
}

/// The one-line verdict of a step that is too small:
/// `` 2.4.0 → 2.4.1 removes token `color.brand.primary` (…): needs 3.0.0 ``,
/// naming the changes that force it (at most five, then how many more).
pub fn explain(from: &Version, to: &Version, diff: &Diff, too_small: &TooSmall) -> String {
    let forcing: Vec<&str> = diff
        .changes
        .iter()
        .filter(|c| c.level == too_small.needed)
        .map(|c| c.summary.as_str())
        .collect();
    let mut listed = forcing
        .iter()
        .take(5)
        .copied()
        .collect::<Vec<_>>()
        .join("; ");
    if forcing.len() > 5 {
        listed.push_str(&format!("; and {} more", forcing.len() - 5));
    }
    let unchanged = if from == to {
        " (the same version)"
    } else {
        ""
    };
    format!(
        "{from} → {to}{unchanged} {listed}: a {} change, needs {} or later",
        too_small.needed, too_small.minimum
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::tokens::tree::parse_tokens;

    fn v(s: &str) -> Version {
        s.parse().unwrap()
    }

    fn set(json: &str) -> TokenSet {
        let doc: serde_json::Value = serde_json::from_str(json).unwrap();
        let mut out = Vec::new();
        let mut d = crate::spec::diag::FileDiags::new("acme", "acme/tokens.json");
        let s = parse_tokens(&doc, &mut d).unwrap();
        d.finish(None, &mut out);
        assert!(!crate::spec::diag::has_errors(&out), "{out:?}");
        s
    }

    fn changes_of(old: &str, new: &str) -> Vec<(Level, String)> {
        let (o, n) = (set(old), set(new));
        let mut b = Builder::default();
        b.tokens(&o, &n);
        b.out.into_iter().map(|c| (c.level, c.summary)).collect()
    }

    #[test]
    fn a_token_with_the_same_value_under_a_new_name_is_a_rename() {
        let old = r##"{"color":{"$type":"color","brand":{"primary":{"$value":"#0a2742"}}}}"##;
        let new = r##"{"color":{"$type":"color","core":{"primary":{"$value":"#0a2742"}}}}"##;
        assert_eq!(
            changes_of(old, new),
            [(
                Level::Major,
                "renames token `color.brand.primary` to `color.core.primary` (`--color-brand-primary` becomes `--color-core-primary`)".to_string()
            )]
        );
    }

    #[test]
    fn a_token_with_another_value_under_a_new_name_is_a_removal_and_an_addition() {
        let old = r##"{"color":{"$type":"color","brand":{"primary":{"$value":"#0a2742"}}}}"##;
        let new = r##"{"color":{"$type":"color","core":{"primary":{"$value":"#0a2743"}}}}"##;
        let c = changes_of(old, new);
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(c[0].0, Level::Major);
        assert!(c[0].1.starts_with("removes token `color.brand.primary`"));
        assert_eq!(
            c[1],
            (
                Level::Minor,
                "adds token `color.core.primary` (`#0a2743`)".into()
            )
        );
    }

    #[test]
    fn a_new_type_is_major_and_a_new_value_is_a_patch_in_css_form() {
        let old = r#"{"space":{"xs":{"$type":"dimension","$value":{"value":4,"unit":"px"}},"n":{"$type":"number","$value":4}}}"#;
        let new = r#"{"space":{"xs":{"$type":"dimension","$value":{"value":6,"unit":"px"}},"n":{"$type":"dimension","$value":{"value":4,"unit":"px"}}}}"#;
        assert_eq!(
            changes_of(old, new),
            [
                (
                    Level::Major,
                    "changes the type of token `space.n` from number to dimension".to_string()
                ),
                (
                    Level::Patch,
                    "changes token `space.xs` from `4px` to `6px`".to_string()
                ),
            ]
        );
    }

    #[test]
    fn an_alias_pointed_elsewhere_is_a_patch_shown_by_reference() {
        let old = r##"{"color":{"$type":"color","a":{"$value":"#000000"},"b":{"$value":"#ffffff"},"text":{"$value":"{color.a}"}}}"##;
        let new = r##"{"color":{"$type":"color","a":{"$value":"#000000"},"b":{"$value":"#ffffff"},"text":{"$value":"{color.b}"}}}"##;
        assert_eq!(
            changes_of(old, new),
            [(
                Level::Patch,
                "changes token `color.text` from `{color.a}` to `{color.b}`".to_string()
            )]
        );
    }

    #[test]
    fn a_covered_property_covers_its_part_properties() {
        let covered: BTreeSet<String> = ["--type-body".to_string()].into();
        assert!(covers(&covered, "--type-body"));
        assert!(covers(&covered, "--type-body-font-size"));
        assert!(!covers(&covered, "--type-bodyx"));
        assert!(!covers(&covered, "--type"));
    }

    /// The smallest version `to` would have to be, or None when it will do.
    fn needs(from: &str, to: &str, level: Option<Level>) -> Option<Version> {
        check_step(&v(from), &v(to), level).err().map(|e| e.minimum)
    }

    #[test]
    fn a_step_must_be_as_large_as_the_change() {
        let major = Some(Level::Major);
        assert_eq!(needs("2.4.0", "2.4.1", major), Some(v("3.0.0")));
        assert_eq!(needs("2.4.0", "3.0.0", major), None);
        assert_eq!(needs("2.4.0", "3.0.0-beta.1", major), None);
        assert_eq!(needs("2.4.0", "2.5.0-rc.1", major), Some(v("3.0.0")));
        assert_eq!(
            needs("2.4.0", "2.4.1", Some(Level::Minor)),
            Some(v("2.5.0"))
        );
        assert_eq!(needs("2.4.0", "2.4.1", Some(Level::Patch)), None);
        // The same version with changes needs a step.
        assert_eq!(
            needs("2.4.0", "2.4.0", Some(Level::Patch)),
            Some(v("2.4.1"))
        );
        assert_eq!(needs("2.4.0", "2.4.0", None), None);
    }

    #[test]
    fn pre_releases_and_zero_versions_follow_semver() {
        let major = Some(Level::Major);
        assert_eq!(needs("3.0.0-beta.1", "3.0.0-beta.2", major), None);
        assert_eq!(needs("3.0.0-beta.2", "3.0.0", major), None);
        assert_eq!(
            needs("3.0.0-beta.2", "3.0.0-beta.2", major),
            Some(v("3.0.0"))
        );
        // Before 1.0.0 the minor number carries breaking changes.
        assert_eq!(needs("0.3.1", "0.4.0", major), None);
        assert_eq!(needs("0.3.1", "0.3.2", major), Some(v("0.4.0")));
        assert_eq!(needs("0.3.1", "0.3.2", Some(Level::Minor)), None);
    }

    #[test]
    fn the_verdict_names_the_forcing_changes_and_the_version() {
        let diff = Diff {
            changes: vec![
                Change::of_token(
                    Level::Major,
                    Section::Removed,
                    "removes",
                    "color.brand.primary",
                ),
                Change::of_token(Level::Minor, Section::Added, "adds", "x"),
            ],
        };
        let err = check_step(&v("2.4.0"), &v("2.4.1"), diff.level()).unwrap_err();
        assert_eq!(
            explain(&v("2.4.0"), &v("2.4.1"), &diff, &err),
            "2.4.0 → 2.4.1 removes token `color.brand.primary`: a major change, needs 3.0.0 or later"
        );
    }
}

#[cfg(test)]
mod brand_tests {
    use super::*;
    use crate::spec::{parse_brand, BrandFiles};

    const TOKENS: &str = r##"{"color":{"$type":"color",
        "ink":{"$value":{"colorSpace":"srgb","components":[0,0,0],"hex":"#000000"}},
        "grey":{"$value":{"colorSpace":"srgb","components":[0.4,0.4,0.4],"hex":"#666666"}},
        "paper":{"$value":{"colorSpace":"srgb","components":[1,1,1],"hex":"#ffffff"}}}}"##;

    /// A small valid brand: one contrast pair and one prompt, with `extra`
    /// spliced into the prompt's variables.
    fn brand(fg: &str, level: &str, variables: &str) -> Brand {
        let json = format!(
            r#"{{"name":"Acme","version":"1.0.0","updated":"2026-01-01",
            "color":{{"pairs":[{{"foreground":"{{color.{fg}}}","background":"{{color.paper}}","level":"{level}"}}]}},
            "promptKit":{{"prompts":[{{"id":"tagline","template":"Write a tagline about {{{{ topic }}}}.",
              "variables":[{{"name":"topic","example":"rain"}}{variables}]}}]}}}}"#
        );
        let files = BrandFiles::from_texts(
            "acme",
            [
                ("brand.json", json.as_bytes()),
                ("tokens.json", TOKENS.as_bytes()),
            ],
        );
        let (b, diags) = parse_brand(&files, "2026-06-01".parse().unwrap());
        b.unwrap_or_else(|| panic!("{diags:?}"))
    }

    fn levels(d: &Diff) -> Vec<(Level, &str)> {
        d.changes
            .iter()
            .map(|c| (c.level, c.summary.as_str()))
            .collect()
    }

    #[test]
    fn a_contrast_pair_that_stops_passing_or_lowers_its_level_is_major() {
        let pair = "`{color.ink} on {color.paper}`";
        let (aaa, aa) = (brand("ink", "AAA", ""), brand("ink", "AA", ""));
        assert_eq!(
            levels(&diff(&aaa, &aa)),
            [(
                Level::Major,
                format!("lowers contrast pair {pair} from AAA to AA").as_str()
            )]
        );
        assert_eq!(diff(&aa, &aaa).level(), Some(Level::Patch));
        // Its foreground lightened to #eeeeee: 1.16:1 no longer passes AA
        // (validation refuses that brand; the diff still says why).
        let mut faded = aa.clone();
        let ink = faded
            .tokens
            .tokens
            .iter_mut()
            .find(|t| t.name() == "color.ink")
            .unwrap();
        let TokenValue::Color(c) = &mut ink.value else {
            panic!()
        };
        c.components = [crate::spec::tokens::Component::Num(0.9333); 3];
        c.hex = Some("#eeeeee".into());
        let d = diff(&aa, &faded);
        assert_eq!(
            d.changes[0].summary,
            "changes token `color.ink` from `#000000` to `#eeeeee`"
        );
        assert_eq!(
            (d.changes[1].level, d.changes[1].summary.as_str()),
            (
                Level::Major,
                format!("contrast pair {pair} stops passing AA (1.16:1)").as_str()
            )
        );
        // Another pair altogether: one removed, one added.
        let grey = brand("grey", "AA", "");
        assert_eq!(
            levels(&diff(&aa, &grey)),
            [
                (
                    Level::Major,
                    "removes contrast pair `{color.ink} on {color.paper}` (AA)"
                ),
                (
                    Level::Minor,
                    "adds contrast pair `{color.grey} on {color.paper}` (AA)"
                ),
            ]
        );
    }

    #[test]
    fn a_required_variable_added_is_major_and_an_optional_one_minor() {
        let base = brand("ink", "AA", "");
        let required = brand("ink", "AA", r#",{"name":"tone","example":"dry"}"#);
        let optional = brand(
            "ink",
            "AA",
            r#",{"name":"tone","example":"dry","required":false}"#,
        );
        assert_eq!(
            levels(&diff(&base, &required)),
            [(
                Level::Major,
                "adds required variable `tone` to prompt `tagline`"
            )]
        );
        assert_eq!(
            levels(&diff(&base, &optional)),
            [(
                Level::Minor,
                "adds optional variable `tone` to prompt `tagline`"
            )]
        );
        assert_eq!(
            levels(&diff(&optional, &required)),
            [(
                Level::Major,
                "makes variable `tone` of prompt `tagline` required"
            )]
        );
        assert_eq!(diff(&required, &base).level(), Some(Level::Major));
    }
}

#[cfg(test)]
mod scale_tests {
    use super::*;

    /// `n` colour tokens `<group>.<stem><i>`, each with its own value.
    fn many(group: &str, stem: &str, n: usize) -> TokenSet {
        let members: Vec<String> = (0..n)
            .map(|i| {
                let c = |shift: usize| ((i >> shift) & 255) as f64 / 255.0;
                format!(
                    r##""{stem}{i}":{{"$value":{{"colorSpace":"srgb","components":[{},{},{}],"hex":"#{i:06x}"}}}}"##,
                    c(16),
                    c(8),
                    c(0)
                )
            })
            .collect();
        let doc: serde_json::Value = serde_json::from_str(&format!(
            r#"{{"{group}":{{"$type":"color",{}}}}}"#,
            members.join(",")
        ))
        .unwrap();
        let mut d = crate::spec::diag::FileDiags::new("acme", "acme/tokens.json");
        crate::spec::tokens::parse_tokens(&doc, &mut d).unwrap()
    }

    #[test]
    fn renaming_the_most_tokens_a_file_may_hold_is_found_in_one_pass() {
        // Every token moved and renamed: each is a rename, found by its
        // value, not by comparing every old token with every new one (and
        // no new name keeps an old one's last segment, the first guess).
        let n = crate::spec::limits::MAX_TOKENS;
        let (old, new) = (many("a", "t", n), many("b", "u", n));
        let started = std::time::Instant::now();
        let mut b = Builder::default();
        let vanished = b.tokens(&old, &new);
        b.css_properties(&old, &new, &vanished);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        assert_eq!(b.out.len(), n);
        assert!(b
            .out
            .iter()
            .all(|c| c.summary.starts_with("renames token `a.t")));
    }
}
