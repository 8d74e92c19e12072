//! PURE. What `marque lint` knows of a brand, made once before any file is
//! read: every token's value in every context, keyed so a literal is
//! looked up in constant time, and every name the brand publishes, made
//! by the functions that publish them (tokens.css's declarations,
//! tailwind.css's theme names, tokens.js's paths, Android's resource
//! names, the iOS catalogue's colour-set names), so lint never guesses a
//! naming rule.

use super::colour::Rgba;
use crate::render::namespaces::{self, Namespace};
use crate::spec::tokens::css::{css_name, declarations};
use crate::spec::tokens::deprecation::Deprecation;
use crate::spec::tokens::modes::View;
use crate::spec::tokens::{TokenSet, TokenType, TokenValue};
use crate::spec::Brand;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, OnceLock};

mod near;
use near::{closest, Candidate};

/// The most nearest-name answers the cache file keeps, and the longest
/// name it keeps one for: a codebase of endless misspellings cannot grow
/// the file without end.
pub const MAX_KEPT_NEAREST: usize = 20_000;
pub const MAX_KEPT_NAME: usize = 200;
/// A name of the brand's kind, as code uses it.
#[derive(Debug, Clone, Copy)]
pub enum Name<'a> {
    /// A custom property, without `--`.
    Css,
    /// A Tailwind utility's value: `fjord-900` of `bg-fjord-900`.
    Tailwind(&'a str, &'a [Namespace]),
    Android,
    Ios,
}

/// One token, with its published names.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    /// Its dotted name: `color.accent.fg`.
    pub name: String,
    pub ty: TokenType,
    /// Its custom property, without `--` (with the brand's prefix).
    pub css: String,
    /// Its iOS colour set name (the custom property's name, unprefixed).
    pub ios: String,
    /// Its Tailwind theme namespace and the name after it (`fjord-900`).
    pub tailwind: Option<(Namespace, String)>,
    /// Its Android resource name and the resource type (`color`, `dimen`).
    pub android: String,
    /// Its tokens.js path: `tokens.color.teal["700"]`.
    pub js: String,
    pub deprecated: Option<Deprecation>,
}

/// Which token and in which context a value is found: indexes into
/// [`Index::tokens`] and [`Index::contexts`].
pub type Hit = (usize, usize);

/// A brand, read for lint. Serde writes and reads it whole (but for what
/// lint finds as it goes), so `marque lint` can keep it between runs.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Index {
    pub slug: String,
    pub tokens: Vec<Entry>,
    /// `default`, then `modifier=context` for each other context.
    pub contexts: Vec<String>,
    #[serde(with = "pairs")]
    colours: HashMap<[u8; 4], Vec<Hit>>,
    /// Each distinct colour once, in OKLab, for near matches.
    distinct: Vec<([u8; 4], [f64; 3])>,
    /// Dimensions in hundredths of a pixel, durations in hundredths of a
    /// millisecond, font weights as they are.
    dimensions: HashMap<i64, Vec<Hit>>,
    durations: HashMap<i64, Vec<Hit>>,
    weights: HashMap<i64, Vec<Hit>>,
    /// Custom property (without `--`) → token.
    pub by_css: HashMap<String, usize>,
    /// A custom property folded (ASCII lowercase, `-` and `_` dropped:
    /// `buttondefaultbgcolorrest`) → the published name, when one name alone folds so
    /// it: how a name in another spelling is known as a token's.
    pub by_css_folded: HashMap<String, Option<String>>,
    /// `namespace-name` (`color-fjord-900`) → token.
    pub by_tailwind: HashMap<String, usize>,
    /// tokens.js path segments joined by `.` → token; and every group path.
    pub by_js: HashMap<String, usize>,
    pub js_groups: HashSet<String>,
    /// Android resource name → colour token.
    pub by_android: HashMap<String, usize>,
    /// iOS colour-set name → colour token.
    pub by_ios: HashMap<String, usize>,
    /// The first word of every published name, by kind (`css:color`,
    /// `tw:color:fjord`, `android:color`, `ios:color`): a name that starts
    /// with one reads as the brand's, so when no token has it, it is a
    /// mistake rather than a name of the codebase's own.
    pub first_words: HashSet<String>,
    /// Where the brand's tokens are written, for a finding about a token.
    pub tokens_file: String,
    /// The nearest names found so far, by kind and name: a codebase
    /// repeats its mistakes, and each costs a pass over every name. One
    /// cell a name, so a thread that meets a name another is measuring
    /// waits for its answer rather than measuring it again.
    #[serde(skip)]
    nearest_seen: Mutex<HashMap<String, Arc<OnceLock<Vec<usize>>>>>,
    /// The names the nearest-name search measures, by kind, each with its
    /// words sorted: made at the first unknown name of the kind, once.
    #[serde(skip)]
    near_css: OnceLock<Vec<Candidate>>,
    #[serde(skip)]
    near_android: OnceLock<Vec<Candidate>>,
    #[serde(skip)]
    near_ios: OnceLock<Vec<Candidate>>,
    #[serde(skip)]
    near_js: OnceLock<Vec<Candidate>>,
    /// In token order, with each name's Tailwind namespace.
    #[serde(skip)]
    near_tailwind: OnceLock<Vec<(Namespace, Candidate)>>,
    /// What findings come to, worked out once (see `memo::Memo`).
    #[serde(skip)]
    pub(super) memo: super::memo::Memo,
}

/// A name map's names as candidates.
fn candidates(map: &HashMap<String, usize>) -> Vec<Candidate> {
    map.iter().map(|(k, &i)| Candidate::new(k, i)).collect()
}

/// A value's key in hundredths: exact up to what code writes.
fn key(v: f64) -> i64 {
    (v * 100.0).round() as i64
}

/// A JS member access for a path segment: `.teal`, or `["700"]`.
fn js_segment(s: &str) -> String {
    let ident = s
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$');
    match ident {
        true => format!(".{s}"),
        false => format!("[{}]", serde_json::Value::String(s.to_string())),
    }
}

impl Index {
    /// Reads `brand` into an index, with the values of every context.
    /// `tokens_file` is where a finding about a token (`--unused`) points.
    pub fn new(brand: &Brand, tokens_file: &str) -> Index {
        Index::in_contexts(brand, tokens_file, None)
    }

    /// Reads `brand` with the values of one context only (`Some((modifier,
    /// context))`: what code written for that mode must match), or of all.
    pub fn in_contexts(brand: &Brand, tokens_file: &str, only: Option<(usize, usize)>) -> Index {
        let set = &brand.tokens;
        let mut ix = Index {
            slug: brand.slug.clone(),
            tokens_file: tokens_file.to_string(),
            ..Index::default()
        };
        let (placed, _) = namespaces::place(set);
        let theme: HashMap<String, (Namespace, String)> = placed
            .iter()
            .map(|p| {
                let var = crate::render::tailwind::theme_name(p);
                let prefix = format!("--{}-", p.kind.namespace());
                let rest = var.strip_prefix(&prefix).unwrap_or(&p.name).to_string();
                (p.token.name(), (p.kind, rest))
            })
            .collect();
        for (i, t) in set.tokens.iter().enumerate() {
            let name = t.name();
            let entry = Entry {
                css: set.var_name(&t.path),
                ios: css_name(&t.path),
                tailwind: theme.get(&name).cloned(),
                android: crate::render::apps::android::name(&t.path),
                js: format!(
                    "tokens{}",
                    t.path.iter().map(|s| js_segment(s)).collect::<String>()
                ),
                deprecated: t.deprecation(set),
                ty: t.ty,
                name: name.clone(),
            };
            for d in declarations(t, set) {
                ix.by_css_folded
                    .entry(fold(&d.name))
                    .and_modify(|n| *n = n.take().filter(|n| *n == d.name))
                    .or_insert_with(|| Some(d.name.clone()));
                ix.by_css.entry(d.name).or_insert(i);
            }
            if let Some((ns, rest)) = &entry.tailwind {
                ix.by_tailwind
                    .insert(format!("{}-{rest}", ns.namespace()), i);
            }
            if t.ty == TokenType::Color {
                ix.by_android.insert(entry.android.clone(), i);
                ix.by_ios.insert(entry.ios.clone(), i);
            }
            ix.first_words
                .insert(format!("css:{}", first_word(&entry.css)));
            if let Some((ns, rest)) = &entry.tailwind {
                ix.first_words
                    .insert(format!("tw:{}:{}", ns.namespace(), first_word(rest)));
            }
            if t.ty == TokenType::Color {
                ix.first_words
                    .insert(format!("android:{}", first_word(&entry.android)));
                ix.first_words
                    .insert(format!("ios:{}", first_word(&entry.ios)));
            }
            ix.by_js.insert(name.clone(), i);
            for n in 1..t.path.len() {
                ix.js_groups.insert(t.path[..n].join("."));
            }
            ix.tokens.push(entry);
        }
        // Each context is read through a view of the default tokens (what
        // it writes, else the default's), not a copy of the whole set.
        match only {
            None => {
                ix.contexts.push("default".into());
                ix.add_values(set, None, 0);
                for (m, c) in set.contexts() {
                    ix.contexts.push(set.label(m, c));
                    ix.add_values(set, Some(set.view(m, c)), ix.contexts.len() - 1);
                }
            }
            Some((m, c)) => {
                ix.contexts.push(set.label(m, c));
                match c == set.modes[m].default {
                    true => ix.add_values(set, None, 0),
                    false => ix.add_values(set, Some(set.view(m, c)), 0),
                }
            }
        }
        let mut seen = HashSet::new();
        for k in ix.colours.keys() {
            if seen.insert(*k) {
                let rgb = [k[0], k[1], k[2]].map(|b| f64::from(b) / 255.0);
                ix.distinct.push((*k, crate::color::srgb_to_oklab(rgb)));
            }
        }
        ix.distinct.sort_by_key(|a| a.0);
        ix
    }

    /// Every literal value of `set`'s tokens in one context (`view`, or
    /// the default's with none), keyed. Token `i` of the index is token
    /// `i` of `set`; a token only a context writes has no entry.
    fn add_values(&mut self, set: &TokenSet, view: Option<View<'_>>, context: usize) {
        for (i, base) in set.tokens.iter().enumerate() {
            let hit = (i, context);
            let value = match view {
                None => set.resolve(&base.value),
                Some(v) => {
                    let t = v.get(&self.tokens[i].name).unwrap_or(base);
                    v.resolve(&t.value)
                }
            };
            match value.as_deref() {
                Some(TokenValue::Color(c)) => {
                    let k = Rgba {
                        rgb: c.srgb(),
                        alpha: c.alpha,
                    }
                    .key();
                    push(&mut self.colours, k, hit);
                }
                Some(TokenValue::Dimension(d)) => {
                    if let Some(px) = d.px().filter(|px| *px != 0.0) {
                        push(&mut self.dimensions, key(px), hit);
                    }
                }
                Some(TokenValue::Duration(d)) if d.ms() != 0.0 => {
                    push(&mut self.durations, key(d.ms()), hit)
                }
                Some(TokenValue::FontWeight(w)) => push(&mut self.weights, key(*w), hit),
                _ => {}
            }
        }
    }

    /// The tokens whose colour is `c` in some context.
    pub fn colour(&self, c: &Rgba) -> &[Hit] {
        self.colours.get(&c.key()).map_or(&[], Vec::as_slice)
    }

    /// The nearest token colour to `c` within `delta_e` (OKLab distance ×
    /// 100), with the same alpha: its hits and the distance.
    pub fn near_colour(&self, c: &Rgba, delta_e: f64) -> Option<(&[Hit], f64)> {
        let lab = crate::color::srgb_to_oklab(c.rgb);
        let alpha = c.key()[3];
        let (k, d) = self
            .distinct
            .iter()
            .filter(|(k, _)| k[3] == alpha)
            .map(|(k, l)| {
                let d =
                    ((l[0] - lab[0]).powi(2) + (l[1] - lab[1]).powi(2) + (l[2] - lab[2]).powi(2))
                        .sqrt()
                        * 100.0;
                (k, d)
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))?;
        (d <= delta_e).then(|| (self.colours[k].as_slice(), d))
    }

    /// The tokens of a dimension in pixels.
    pub fn dimension(&self, px: f64) -> &[Hit] {
        self.dimensions.get(&key(px)).map_or(&[], Vec::as_slice)
    }

    /// The tokens of a duration in milliseconds.
    pub fn duration(&self, ms: f64) -> &[Hit] {
        self.durations.get(&key(ms)).map_or(&[], Vec::as_slice)
    }

    /// The tokens of a font weight.
    pub fn weight(&self, w: f64) -> &[Hit] {
        self.weights.get(&key(w)).map_or(&[], Vec::as_slice)
    }

    /// True when the index holds any dimension (so a length is worth reading).
    pub fn has_dimensions(&self) -> bool {
        !self.dimensions.is_empty()
    }

    /// True when token `i` has the same literal in every context in which
    /// `hits` (a lookup's answer) lists it, and it is listed in all of them.
    pub fn same_everywhere(&self, i: usize, hits: &[Hit]) -> bool {
        // A list holds each (token, context) once (`push`), so a count is
        // the number of contexts.
        hits.iter().filter(|h| h.0 == i).count() == self.contexts.len()
    }
}

/// A name of `kind` as the memos key it: `css:name`, `tw:bg:name`
/// (a Tailwind utility's namespaces are the utility's), `android:name`,
/// `ios:name`.
pub fn name_key(kind: Name<'_>, name: &str) -> String {
    match kind {
        Name::Css => format!("css:{name}"),
        Name::Android => format!("android:{name}"),
        Name::Ios => format!("ios:{name}"),
        Name::Tailwind(u, _) => format!("tw:{u}:{name}"),
    }
}

/// A name with its case and separators dropped: `button-default-bgColor-rest`
/// and `button-default-bg-color-rest` fold alike.
pub fn fold(name: &str) -> String {
    name.chars()
        .filter(|c| !matches!(c, '-' | '_'))
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The first word of a name: up to its first `-`, `_` or `.`.
pub fn first_word(name: &str) -> &str {
    name.split(['-', '_', '.']).next().unwrap_or(name)
}

impl Index {
    /// The tokens whose name of `kind` is nearest `name` (edit distance),
    /// at most three, nearest first.
    pub fn nearest(&self, kind: Name<'_>, name: &str) -> Vec<usize> {
        self.seen(name_key(kind, name), || self.nearest_uncached(kind, name))
    }

    /// The memo's answer for `key`, measured by `measure` at its first ask.
    fn seen(&self, key: String, measure: impl FnOnce() -> Vec<usize>) -> Vec<usize> {
        let cell = match self.nearest_seen.lock() {
            Ok(mut m) => m.entry(key).or_default().clone(),
            Err(_) => Arc::default(),
        };
        cell.get_or_init(measure).clone()
    }

    /// Every nearest-name answer measured so far (or remembered), by its
    /// key (`css:name`, `tw:bg:name`, `js:path`), in key order: what the
    /// lint cache keeps beside the index, so a later run over the same
    /// brand measures none of them again.
    pub fn nearest_known(&self) -> Vec<(String, Vec<usize>)> {
        let Ok(m) = self.nearest_seen.lock() else {
            return Vec::new();
        };
        let mut known: Vec<(String, Vec<usize>)> = m
            .iter()
            .filter(|(k, _)| k.len() <= MAX_KEPT_NAME)
            .filter_map(|(k, cell)| Some((k.clone(), cell.get()?.clone())))
            .collect();
        known.sort_unstable();
        // A codebase of endless misspellings cannot grow the cache file
        // without end: the first answers, in name order, are kept.
        known.truncate(MAX_KEPT_NEAREST);
        known
    }

    /// Answers of [`Index::nearest_known`] from an earlier run over this
    /// brand, taken as measured. An answer naming no token of the index is
    /// dropped (it cannot be this brand's).
    pub fn remember_nearest(&self, known: Vec<(String, Vec<usize>)>) {
        let Ok(mut m) = self.nearest_seen.lock() else {
            return;
        };
        for (k, tokens) in known {
            if tokens.iter().all(|&i| i < self.tokens.len()) {
                m.insert(k, Arc::new(OnceLock::from(tokens)));
            }
        }
    }

    fn nearest_uncached(&self, kind: Name<'_>, name: &str) -> Vec<usize> {
        fn list<'s>(
            cell: &'s OnceLock<Vec<Candidate>>,
            map: &HashMap<String, usize>,
        ) -> Vec<&'s Candidate> {
            cell.get_or_init(|| candidates(map)).iter().collect()
        }
        let found: Vec<&Candidate> = match kind {
            Name::Css => list(&self.near_css, &self.by_css),
            Name::Android => list(&self.near_android, &self.by_android),
            Name::Ios => list(&self.near_ios, &self.by_ios),
            Name::Tailwind(_, spaces) => self
                .near_tailwind
                .get_or_init(|| {
                    self.tokens
                        .iter()
                        .enumerate()
                        .filter_map(|(i, e)| {
                            let (ns, rest) = e.tailwind.as_ref()?;
                            Some((*ns, Candidate::new(rest, i)))
                        })
                        .collect()
                })
                .iter()
                .filter(|(ns, _)| spaces.contains(ns))
                .map(|(_, c)| c)
                .collect(),
        };
        closest(found, name)
    }

    /// The tokens whose dotted name is nearest `path`.
    pub fn nearest_js(&self, path: &str) -> Vec<usize> {
        self.seen(format!("js:{path}"), || {
            let found = self
                .near_js
                .get_or_init(|| candidates(&self.by_js))
                .iter()
                .collect();
            closest(found, path)
        })
    }
}

/// A map keyed by colour as a list of pairs: JSON keys are strings.
mod pairs {
    use super::Hit;
    use serde::{Deserialize, Deserializer, Serializer};
    use std::collections::HashMap;

    pub fn serialize<S: Serializer>(
        map: &HashMap<[u8; 4], Vec<Hit>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_seq(map.iter())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<HashMap<[u8; 4], Vec<Hit>>, D::Error> {
        Ok(Vec::<([u8; 4], Vec<Hit>)>::deserialize(d)?
            .into_iter()
            .collect())
    }
}

fn push<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Vec<Hit>>, k: K, hit: Hit) {
    let list = map.entry(k).or_default();
    if !list.contains(&hit) {
        list.push(hit);
    }
}
