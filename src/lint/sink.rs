//! PURE. Where the scanners put what they see: a literal or a name
//! becomes a finding (or a use of a token), worded with the names the
//! file's language uses; `marque-lint-ignore` comments drop findings at
//! the end.

use super::colour::Rgba;
use super::index::{Entry, Hit, Index, Name};
use super::memo::{Answer, LitKey, Unknown};
use super::tailwind::utility_takes;
use super::{FileLint, Options};
use crate::render::namespaces::Namespace;
use crate::spec::diag::Code;
use crate::spec::tokens::TokenType;
use serde::Serialize;
use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

/// One thing lint found in a file.
#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub code: Code,
    pub line: u32,
    pub column: u32,
    /// Byte offsets of what was found.
    #[serde(skip)]
    pub range: Range<usize>,
    /// What the code writes there: the literal or the name.
    pub subject: String,
    pub message: String,
    /// The names to write instead, best first, in the file's language.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suggest: Vec<String>,
    /// What `--fix` writes over which bytes, where it may.
    #[serde(skip)]
    pub fix: Option<(Range<usize>, String)>,
    /// For an unknown `var(--x)`: `x`, dropped later when the codebase declares it.
    #[serde(skip)]
    pub var: Option<String>,
}

/// How a file names a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Form {
    /// `var(--color-accent)`.
    Css,
    /// A Tailwind class, else `var(--…)` in an arbitrary value.
    Class,
    /// `tokens.color.accent` (JS code and style objects).
    Js,
    /// `Color("color-accent")`.
    Swift,
    /// `colorResource(R.color.color_accent)`.
    Kotlin,
    /// `@color/color_accent`.
    Xml,
}

/// The memo's key for a literal: its kind and exact value (its bits: a
/// colour near a token is measured from its exact channels), form,
/// utility and ΔE.
fn lit_key(lit: Lit, form: Form, utility: Option<&str>, delta_e: f64) -> LitKey {
    let (kind, bits) = match lit {
        Lit::Colour(c) => (0, [c.rgb[0], c.rgb[1], c.rgb[2], c.alpha].map(f64::to_bits)),
        Lit::Dimension(v) => (1, [v.to_bits(), 0, 0, 0]),
        Lit::Duration(v) => (2, [v.to_bits(), 0, 0, 0]),
        Lit::Weight(v) => (3, [v.to_bits(), 0, 0, 0]),
    };
    LitKey(
        kind,
        bits,
        form as u8,
        utility.map(str::to_string),
        delta_e.to_bits(),
    )
}

/// A literal value read from code.
#[derive(Debug, Clone, Copy)]
pub enum Lit {
    Colour(Rgba),
    /// In pixels.
    Dimension(f64),
    /// In milliseconds.
    Duration(f64),
    Weight(f64),
}

/// What `--fix` may write for a literal.
#[derive(Debug, Clone)]
pub enum Fix {
    None,
    /// `var(--…)` over the literal.
    Var,
    /// A Tailwind class (`bg-fjord-900`) over the class (`bg-[#1a2b3c]`).
    Class {
        range: Range<usize>,
        utility: String,
    },
}

pub struct Sink<'a> {
    pub ix: &'a Index,
    opts: &'a Options,
    text: &'a str,
    /// Where each line starts, made at the first finding.
    lines: Vec<usize>,
    out: FileLint,
}

impl<'a> Sink<'a> {
    pub fn new(ix: &'a Index, opts: &'a Options, text: &'a str) -> Sink<'a> {
        Sink {
            ix,
            opts,
            text,
            lines: Vec::new(),
            out: FileLint::default(),
        }
    }

    /// A custom property the file declares (`--x: …`).
    pub fn declare(&mut self, name: &str) {
        self.out.declared.insert(name.to_string());
    }

    /// A token's name in `form`, for a use of it by `utility` (a Tailwind class's).
    fn name_in(&self, e: &Entry, form: Form, utility: Option<&str>) -> String {
        let css = format!("var(--{})", e.css);
        match form {
            Form::Css => css,
            Form::Class => match (&e.tailwind, utility) {
                (Some((ns, rest)), Some(u)) if utility_takes(u, *ns) => format!("{u}-{rest}"),
                _ => css,
            },
            Form::Js => e.js.clone(),
            Form::Swift if e.ty == TokenType::Color => format!("Color(\"{}\")", e.ios),
            Form::Kotlin if e.ty == TokenType::Color => {
                format!("colorResource(R.color.{})", e.android)
            }
            Form::Kotlin if e.ty == TokenType::Dimension => {
                format!("dimensionResource(R.dimen.{})", e.android)
            }
            Form::Xml if e.ty == TokenType::Color => format!("@color/{}", e.android),
            Form::Xml if e.ty == TokenType::Dimension => format!("@dimen/{}", e.android),
            Form::Swift | Form::Kotlin | Form::Xml => format!("`{}`", e.name),
        }
    }

    fn push(&mut self, code: Code, range: Range<usize>, message: String, suggest: Vec<String>) {
        if self.lines.is_empty() {
            let b = self.text.as_bytes();
            // About one line in 32 bytes: one pass, few regrowths.
            self.lines.reserve(b.len() / 32 + 1);
            self.lines.push(0);
            self.lines
                .extend(memchr::memchr_iter(b'\n', b).map(|p| p + 1));
        }
        let at = range.start;
        let line = self.lines.partition_point(|&s| s <= at);
        let start = self.lines[line - 1];
        let column = self.text[start..at].chars().count() + 1;
        let (line, column) = (line as u32, column as u32);
        self.out.findings.push(Finding {
            code,
            line,
            column,
            subject: self.text[range.clone()].to_string(),
            range,
            message,
            suggest,
            fix: None,
            var: None,
        });
    }

    /// A literal at `range`: a finding when a token has its value (or,
    /// for a colour, one near it). What a value comes to is worked out
    /// once a run (see `memo::Memo`); only the words about the literal as
    /// written, and its fix, are made per finding.
    pub fn literal(&mut self, lit: Lit, range: Range<usize>, form: Form, fix: Fix) {
        let ix = self.ix;
        let utility = match &fix {
            Fix::Class { utility, .. } => Some(utility.as_str()),
            _ => None,
        };
        let key = lit_key(lit, form, utility, self.opts.delta_e);
        let seen = ix
            .memo
            .literals
            .lock()
            .ok()
            .and_then(|m| m.get(&key).cloned());
        let answer = match seen {
            Some(a) => a,
            None => {
                let a = self.answer(lit, form, utility).map(Arc::new);
                if let Ok(mut m) = ix.memo.literals.lock() {
                    m.insert(key, a.clone());
                }
                a
            }
        };
        let Some(a) = answer else {
            return;
        };
        let subject = &self.text[range.clone()];
        let (code, message) = match a.near {
            None => (
                Code::LiteralIsToken,
                format!(
                    "`{subject}` is the value of {}: use {}",
                    a.listed, a.suggest[0]
                ),
            ),
            Some(d) => (
                Code::LiteralNearToken,
                format!(
                    "`{subject}` is near {} (ΔE {:.2}): use {} if it was meant",
                    a.listed, d, a.suggest[0]
                ),
            ),
        };
        let fix = match (a.only, fix) {
            (Some(i), Fix::Var) => {
                Some((range.clone(), self.name_in(&ix.tokens[i], Form::Css, None)))
            }
            (Some(i), Fix::Class { range, utility }) => match &ix.tokens[i].tailwind {
                Some((ns, rest)) if utility_takes(&utility, *ns) => {
                    Some((range, format!("{utility}-{rest}")))
                }
                _ => None,
            },
            _ => None,
        };
        self.push(code, range, message, a.suggest.clone());
        if let Some(f) = self.out.findings.last_mut() {
            f.fix = fix;
        }
    }

    /// What a literal value comes to in `form` (for a use by `utility`):
    /// `None` when no token has it (nor, for a colour, one near it).
    fn answer(&self, lit: Lit, form: Form, utility: Option<&str>) -> Option<Answer> {
        let ix = self.ix;
        let (hits, near) = match lit {
            Lit::Colour(c) => match ix.colour(&c) {
                [] => {
                    let (hits, d) = ix.near_colour(&c, self.opts.delta_e)?;
                    (hits, Some(d))
                }
                hits => (hits, None),
            },
            Lit::Dimension(px) => (ix.dimension(px), None),
            Lit::Duration(ms) => (ix.duration(ms), None),
            Lit::Weight(w) => (ix.weight(w), None),
        };
        if hits.is_empty() {
            return None;
        }
        let ranked = rank(ix, hits);
        let suggest: Vec<String> = ranked
            .iter()
            .take(3)
            .map(|&i| self.name_in(&ix.tokens[i], form, utility))
            .collect();
        let listed: Vec<String> = ranked
            .iter()
            .take(3)
            .map(|&i| format!("`{}` ({})", ix.tokens[i].name, contexts_of(ix, i, hits)))
            .collect();
        let mut listed = listed.join(", ");
        if ranked.len() > 3 {
            listed.push_str(&format!(" and {} more", ranked.len() - 3));
        }
        // One token, the same in every context, and not deprecated: a
        // rewrite that changes nothing a reader sees, anywhere.
        let only = match ranked.as_slice() {
            [i] if near.is_none() && ix.same_everywhere(*i, hits) => Some(*i),
            _ => None,
        };
        Some(Answer {
            near,
            suggest,
            listed,
            only,
        })
    }

    /// A token used by name: marked used, and a finding when it is deprecated.
    pub fn used(&mut self, i: usize, range: Range<usize>, form: Form, utility: Option<&str>) {
        self.out.used.insert(i);
        let e = &self.ix.tokens[i];
        let Some(d) = &e.deprecated else {
            return;
        };
        let instead = d
            .replacement
            .as_ref()
            .and_then(|r| self.ix.by_js.get(r))
            .map(|&r| self.name_in(&self.ix.tokens[r], form, utility));
        let message = match &instead {
            Some(n) => format!("`{}` is {}: write {n}", e.name, d.advice()),
            None => format!("`{}` is {}", e.name, d.advice()),
        };
        self.push(
            Code::DeprecatedTokenUse,
            range,
            message,
            instead.into_iter().collect(),
        );
    }

    /// A name of the brand's kind at `range`: a use, or a finding when no
    /// token publishes it but it reads as the brand's (its first word is
    /// one of the brand's).
    pub fn name(&mut self, kind: Name<'_>, name: &str, range: Range<usize>, form: Form) {
        let ix = self.ix;
        let (found, first_key, utility) = match kind {
            Name::Css => (ix.by_css.get(name).copied(), "css", None),
            Name::Android => (ix.by_android.get(name).copied(), "android", None),
            Name::Ios => (ix.by_ios.get(name).copied(), "ios", None),
            Name::Tailwind(utility, spaces) => {
                let found = spaces
                    .iter()
                    .find_map(|ns| ix.by_tailwind.get(&format!("{}-{name}", ns.namespace())));
                (found.copied(), "tw", Some((utility, spaces)))
            }
        };
        if let Some(i) = found {
            return self.used(i, range, form, utility.map(|u| u.0));
        }
        // What a name no token has comes to is worked out once a run.
        let (tag, key) = match kind {
            Name::Css => (0, Cow::Borrowed(name)),
            Name::Android => (1, Cow::Borrowed(name)),
            Name::Ios => (2, Cow::Borrowed(name)),
            Name::Tailwind(u, _) => (3, Cow::Owned(format!("{u}:{name}"))),
        };
        let seen = ix.memo.names.lock().ok().and_then(|m| {
            m.get(&(tag, form as u8))
                .and_then(|names| names.get(key.as_ref()))
                .cloned()
        });
        let answer = match seen {
            Some(a) => a,
            None => {
                let a = Arc::new(self.unknown(kind, name, form, first_key, utility));
                if let Ok(mut m) = ix.memo.names.lock() {
                    let names = m.entry((tag, form as u8)).or_default();
                    names.insert(key.into_owned(), a.clone());
                }
                a
            }
        };
        match &*answer {
            Unknown::Spelling {
                token,
                message,
                instead,
            } => {
                self.used(*token, range.clone(), form, None);
                let (message, instead) = (message.clone(), instead.clone());
                self.push(Code::TokenNameSpelling, range, message, vec![instead]);
                if let Some(f) = self.out.findings.last_mut() {
                    f.var = Some(name.to_string());
                }
            }
            Unknown::Mistake { message, suggest } => {
                self.push(
                    Code::UnknownTokenName,
                    range,
                    message.clone(),
                    suggest.clone(),
                );
                if let (Name::Css, Some(f)) = (kind, self.out.findings.last_mut()) {
                    f.var = Some(name.to_string());
                }
            }
            Unknown::Own => {}
        }
    }

    /// What a name of `kind` that no token has is: another spelling of a
    /// published one, a mistake (its first word is one of the brand's),
    /// or the codebase's own.
    fn unknown(
        &self,
        kind: Name<'_>,
        name: &str,
        form: Form,
        first_key: &str,
        utility: Option<(&str, &[Namespace])>,
    ) -> Unknown {
        let ix = self.ix;
        if let Name::Css = kind {
            if let Some(Some(published)) = ix.by_css_folded.get(&super::index::fold(name)) {
                return self.spelling(name, published);
            }
        }
        let first = name.split(['-', '_', '.']).next().unwrap_or(name);
        let branded = match utility {
            Some((_, spaces)) => spaces.iter().any(|ns| {
                ix.first_words
                    .contains(&format!("tw:{}:{first}", ns.namespace()))
            }),
            None => ix.first_words.contains(&format!("{first_key}:{first}")),
        };
        if !branded {
            return Unknown::Own;
        }
        let nearest = ix.nearest(kind, name);
        let shown = match (kind, utility) {
            (Name::Css, _) => format!("--{name}"),
            (_, Some((u, _))) => format!("{u}-{name}"),
            _ => name.to_string(),
        };
        let suggest: Vec<String> = nearest
            .iter()
            .map(|&i| self.name_in(&ix.tokens[i], form, utility.map(|u| u.0)))
            .collect();
        let message = match suggest.first() {
            Some(n) => format!("`{shown}` is no token of {}: did you mean {n}?", ix.slug),
            None => format!("`{shown}` is no token of {}", ix.slug),
        };
        Unknown::Mistake { message, suggest }
    }

    /// `var(--name)` where marque publishes the same words as
    /// `--published` (`bgColor` for `bg-color`): a use of that token, and
    /// a note with the published spelling, not an unknown name. A design
    /// system's own CSS (Primer's) declares its token paths' spelling; a
    /// codebase that loads marque's tokens.css needs marque's.
    fn spelling(&self, name: &str, published: &str) -> Unknown {
        let ix = self.ix;
        let Some(&token) = ix.by_css.get(published) else {
            return Unknown::Own;
        };
        let instead = format!("var(--{published})");
        let message = format!(
            "`--{name}` is `{}` spelt another way: {} publishes it as `--{published}`; write {instead} where the code loads marque's tokens.css",
            ix.tokens[token].name, ix.slug
        );
        Unknown::Spelling {
            token,
            message,
            instead,
        }
    }

    /// A `tokens.a.b` path of tokens.js, its segments with their ranges.
    pub fn js_path(&mut self, segments: &[(String, Range<usize>)], range: Range<usize>) {
        let ix = self.ix;
        let Some((first, _)) = segments.first() else {
            return;
        };
        if !ix.js_groups.contains(first) && !ix.by_js.contains_key(first) {
            // Not the brand's tokens object (or a misspelled top level,
            // which tokens.d.ts reports).
            return;
        }
        let mut path = String::new();
        for (n, (seg, r)) in segments.iter().enumerate() {
            if n > 0 {
                path.push('.');
            }
            path.push_str(seg);
            if let Some(&i) = ix.by_js.get(&path) {
                return self.used(i, range.start..r.end, Form::Js, None);
            }
            if !ix.js_groups.contains(&path) {
                let nearest = ix.nearest_js(&path);
                let suggest: Vec<String> =
                    nearest.iter().map(|&i| ix.tokens[i].js.clone()).collect();
                let message = match suggest.first() {
                    Some(s) => format!(
                        "`tokens.{path}` is no token of {}: did you mean {s}?",
                        ix.slug
                    ),
                    None => format!("`tokens.{path}` is no token of {}", ix.slug),
                };
                return self.push(Code::UnknownTokenName, range.start..r.end, message, suggest);
            }
        }
    }

    /// The file's findings, less those a `marque-lint-ignore` comment
    /// on their line or the line above drops.
    pub fn finish(mut self) -> FileLint {
        self.out.findings.sort_by_key(|f| (f.range.start, f.code));
        if memchr::memmem::find(self.text.as_bytes(), b"marque-lint-ignore").is_some() {
            let lines: Vec<&str> = self.text.lines().collect();
            self.out.findings.retain(|f| {
                let at = f.line as usize - 1;
                let above = at.checked_sub(1);
                // Its own line, or the line above when the comment is alone there.
                let here = lines.get(at).is_some_and(|l| ignores(l, f.code));
                let above = above
                    .and_then(|l| lines.get(l))
                    .is_some_and(|l| alone(l) && ignores(l, f.code));
                !(here || above)
            });
        }
        self.out
    }
}

/// True when `line` is only a comment (so it speaks of the line below).
fn alone(line: &str) -> bool {
    let t = line.trim_start();
    ["//", "/*", "<!--", "*", "#"]
        .iter()
        .any(|o| t.starts_with(o))
}

/// True when `line` has a `marque-lint-ignore` that names `code`, or no code.
fn ignores(line: &str, code: Code) -> bool {
    let Some(at) = line.find("marque-lint-ignore") else {
        return false;
    };
    let rest = &line[at + "marque-lint-ignore".len()..];
    let codes: Vec<&str> = rest
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() == 6 && w.starts_with("MQ"))
        .collect();
    codes.is_empty() || codes.contains(&code.as_str())
}

/// The tokens of `hits`, each once: not deprecated first, then those that
/// match in the default context, then the same everywhere, then in order.
fn rank(ix: &Index, hits: &[Hit]) -> Vec<usize> {
    // Sorted, each token's hits are together, its default context first:
    // one pass reads what the order needs (a value of a scale, `1px`,
    // lists dozens of tokens in a dozen contexts).
    let mut sorted = hits.to_vec();
    sorted.sort_unstable();
    let mut keyed: Vec<(bool, bool, bool, usize)> = sorted
        .chunk_by(|a, b| a.0 == b.0)
        .map(|g| {
            let i = g[0].0;
            let deprecated = ix.tokens[i].deprecated.is_some();
            (deprecated, g[0].1 != 0, g.len() != ix.contexts.len(), i)
        })
        .collect();
    keyed.sort_unstable();
    keyed.into_iter().map(|k| k.3).collect()
}

/// The contexts in which token `i` has the value: `every context`, or
/// their names.
fn contexts_of(ix: &Index, i: usize, hits: &[Hit]) -> String {
    if ix.contexts.len() > 1 && ix.same_everywhere(i, hits) {
        return "every context".into();
    }
    hits.iter()
        .filter(|h| h.0 == i)
        .map(|h| ix.contexts[h.1].as_str())
        .collect::<Vec<_>>()
        .join(", ")
}
