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
use crate::spec::tokens::{Token, TokenSet, TokenType, TokenValue};
use crate::spec::Brand;
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

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
#[derive(Debug, Clone)]
pub struct Entry {
    /// Its dotted name: `color.accent.fg`.
    pub name: String,
    pub ty: TokenType,
    /// Its custom property, without `--`.
    pub css: String,
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

/// A brand, read for lint.
#[derive(Debug, Default)]
pub struct Index {
    pub slug: String,
    pub tokens: Vec<Entry>,
    /// `default`, then `modifier=context` for each other context.
    pub contexts: Vec<String>,
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
    /// repeats its mistakes, and each costs a pass over every name.
    nearest_seen: Mutex<HashMap<String, Vec<usize>>>,
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
                css: css_name(&t.path),
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
                ix.by_css.entry(d.name).or_insert(i);
            }
            if let Some((ns, rest)) = &entry.tailwind {
                ix.by_tailwind
                    .insert(format!("{}-{rest}", ns.namespace()), i);
            }
            if t.ty == TokenType::Color {
                ix.by_android.insert(entry.android.clone(), i);
                ix.by_ios.insert(entry.css.clone(), i);
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
                    .insert(format!("ios:{}", first_word(&entry.css)));
            }
            ix.by_js.insert(name.clone(), i);
            for n in 1..t.path.len() {
                ix.js_groups.insert(t.path[..n].join("."));
            }
            ix.tokens.push(entry);
        }
        match only {
            None => {
                ix.contexts.push("default".into());
                ix.add_values(set, 0);
                for (m, c) in set.contexts() {
                    ix.contexts.push(set.label(m, c));
                    let here = set.in_context(m, c);
                    ix.add_values(&here, ix.contexts.len() - 1);
                }
            }
            Some((m, c)) => {
                ix.contexts.push(set.label(m, c));
                match c == set.modes[m].default {
                    true => ix.add_values(set, 0),
                    false => ix.add_values(&set.in_context(m, c), 0),
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

    /// Every literal value of `set` (one context's permutation), keyed.
    fn add_values(&mut self, set: &TokenSet, context: usize) {
        for t in &set.tokens {
            let Some(i) = self.token_index(t) else {
                continue;
            };
            let hit = (i, context);
            match set.resolve(&t.value).as_deref() {
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

    fn token_index(&self, t: &Token) -> Option<usize> {
        self.by_js.get(&t.name()).copied()
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
        let here: HashSet<usize> = hits.iter().filter(|h| h.0 == i).map(|h| h.1).collect();
        here.len() == self.contexts.len()
    }
}

/// The first word of a name: up to its first `-`, `_` or `.`.
pub fn first_word(name: &str) -> &str {
    name.split(['-', '_', '.']).next().unwrap_or(name)
}

impl Index {
    /// The tokens whose name of `kind` is nearest `name` (edit distance),
    /// at most three, nearest first.
    pub fn nearest(&self, kind: Name<'_>, name: &str) -> Vec<usize> {
        let key = match kind {
            Name::Css => format!("css:{name}"),
            Name::Android => format!("android:{name}"),
            Name::Ios => format!("ios:{name}"),
            Name::Tailwind(u, _) => format!("tw:{u}:{name}"),
        };
        if let Some(found) = self
            .nearest_seen
            .lock()
            .ok()
            .and_then(|m| m.get(&key).cloned())
        {
            return found;
        }
        let found = self.nearest_uncached(kind, name);
        if let Ok(mut m) = self.nearest_seen.lock() {
            m.insert(key, found.clone());
        }
        found
    }

    fn nearest_uncached(&self, kind: Name<'_>, name: &str) -> Vec<usize> {
        let candidates: Vec<(&str, usize)> = match kind {
            Name::Css => self.by_css.iter().map(|(k, v)| (k.as_str(), *v)).collect(),
            Name::Android => self
                .by_android
                .iter()
                .map(|(k, v)| (k.as_str(), *v))
                .collect(),
            Name::Ios => self.by_ios.iter().map(|(k, v)| (k.as_str(), *v)).collect(),
            Name::Tailwind(_, spaces) => self
                .tokens
                .iter()
                .enumerate()
                .filter_map(|(i, e)| {
                    let (ns, rest) = e.tailwind.as_ref()?;
                    spaces.contains(ns).then_some((rest.as_str(), i))
                })
                .collect(),
        };
        closest(candidates, name)
    }

    /// The tokens whose dotted name is nearest `path`.
    pub fn nearest_js(&self, path: &str) -> Vec<usize> {
        closest(
            self.by_js.iter().map(|(k, v)| (k.as_str(), *v)).collect(),
            path,
        )
    }
}

/// The three candidates nearest `name` (edit distance, with words in
/// any order as near as in theirs); ties in name order, so the answer does
/// not depend on a map's order. A candidate whose length alone puts it
/// further than the third best is not measured.
fn closest(candidates: Vec<(&str, usize)>, name: &str) -> Vec<usize> {
    // Words in another order are near too: `--color-fg-default` is
    // `--fg-color-default` misremembered.
    let words = |s: &str| {
        let mut w: Vec<&str> = s.split(['-', '_', '.']).collect();
        w.sort_unstable();
        w.join("-")
    };
    let sorted = words(name);
    // The best, nearest first: (distance, name, token), one per token.
    let mut best: Vec<(usize, &str, usize)> = Vec::new();
    for (k, i) in candidates {
        let bound = match (k.is_ascii() && name.is_ascii(), best.get(2)) {
            (true, Some(third)) => k.len().abs_diff(name.len()) > third.0,
            _ => false,
        };
        if bound {
            continue;
        }
        let d = strsim::levenshtein(k, name).min(strsim::levenshtein(&words(k), &sorted));
        if let Some(at) = best.iter().position(|b| b.2 == i) {
            if (d, k) >= (best[at].0, best[at].1) {
                continue;
            }
            best.remove(at);
        }
        let at = best.partition_point(|b| (b.0, b.1) < (d, k));
        if at < 3 {
            best.insert(at, (d, k, i));
            best.truncate(3);
        }
    }
    best.into_iter().map(|b| b.2).collect()
}

fn push<K: std::hash::Hash + Eq>(map: &mut HashMap<K, Vec<Hit>>, k: K, hit: Hit) {
    let list = map.entry(k).or_default();
    if !list.contains(&hit) {
        list.push(hit);
    }
}
