//! PURE. `marque lint`: what a codebase hard-codes that the brand names.
//! A file's text and its language come in, findings go out; walking the
//! tree, reading files and printing are `cmd::lint`'s.
//!
//! - [`index`]: the brand, read once: values by context, published names.
//! - [`colour`]: colour literals in every notation code writes.
//! - `lex`: comments blanked, strings found, per language (hand-written
//!   lexers: no grammar crate is light enough to build here; each one
//!   knows its language's comments, strings and template literals).
//! - `css`: declarations (CSS, SCSS, Less, `style=""`, `<style>`,
//!   CSS-in-JS templates) and Tailwind class lists.
//! - `script`: JS, TS, JSX and TSX: strings, style objects, `tokens.…`.
//! - `markup`: HTML, Vue and Svelte: their style, script and class parts.
//! - `native`: Swift/SwiftUI, Kotlin/Compose and Android XML.
//! - `sink`: one finding made from a literal or a name, worded per language.
//! - `memo`: what a literal value or an unknown name comes to, worked out
//!   once a run and kept in the index.
//! - `tailwind`: the utilities that take theme values, by namespace.
//! - [`baseline`]: the findings CI accepts for now, which may only shrink.
//!
//! A literal inside a comment is never a finding: every lexer blanks its
//! comments first, keeping byte offsets, so positions stay true.

pub mod baseline;
pub mod colour;
mod css;
pub mod index;
pub(crate) mod lex;
mod markup;
mod memo;
mod native;
mod script;
mod sink;
mod tailwind;

pub use index::Index;
pub use sink::Finding;

use std::collections::HashSet;

/// The languages lint reads, by file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Lang {
    Css,
    Scss,
    Less,
    Html,
    Vue,
    Svelte,
    Js,
    Ts,
    Jsx,
    Tsx,
    Swift,
    Kotlin,
    AndroidXml,
}

impl Lang {
    /// Every language, with the names `check_code` and `--help` give it.
    pub const ALL: [(Lang, &'static str); 13] = [
        (Lang::Css, "css"),
        (Lang::Scss, "scss"),
        (Lang::Less, "less"),
        (Lang::Html, "html"),
        (Lang::Vue, "vue"),
        (Lang::Svelte, "svelte"),
        (Lang::Js, "js"),
        (Lang::Ts, "ts"),
        (Lang::Jsx, "jsx"),
        (Lang::Tsx, "tsx"),
        (Lang::Swift, "swift"),
        (Lang::Kotlin, "kotlin"),
        (Lang::AndroidXml, "xml"),
    ];

    /// The language of a file, by its extension; `None` for one lint does not read.
    pub fn of_path(path: &str) -> Option<Lang> {
        let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
        Some(match ext.as_str() {
            "css" | "pcss" | "postcss" => Lang::Css,
            "scss" | "sass" => Lang::Scss,
            "less" => Lang::Less,
            "html" | "htm" => Lang::Html,
            "vue" => Lang::Vue,
            "svelte" => Lang::Svelte,
            "js" | "mjs" | "cjs" => Lang::Js,
            "ts" | "mts" | "cts" => Lang::Ts,
            "jsx" => Lang::Jsx,
            "tsx" => Lang::Tsx,
            "swift" => Lang::Swift,
            "kt" | "kts" => Lang::Kotlin,
            "xml" => Lang::AndroidXml,
            _ => return None,
        })
    }

    /// A language by its name (`css`, `tsx`, `kotlin`; `kt`, `android`
    /// and `typescript` too).
    pub fn parse(name: &str) -> Option<Lang> {
        let n = name.trim().to_ascii_lowercase();
        let n = match n.as_str() {
            "javascript" => "js",
            "typescript" => "ts",
            "kt" | "compose" => "kotlin",
            "android" | "android-xml" => "xml",
            "swiftui" => "swift",
            other => other,
        };
        Lang::ALL.iter().find(|(_, s)| *s == n).map(|(l, _)| *l)
    }

    pub fn as_str(self) -> &'static str {
        Lang::ALL
            .iter()
            .find(|(l, _)| *l == self)
            .map_or("", |(_, s)| s)
    }

    /// True for the languages `--fix` rewrites: CSS, SCSS and Less (and
    /// the Tailwind classes they `@apply`).
    pub fn fixable(self) -> bool {
        matches!(self, Lang::Css | Lang::Scss | Lang::Less)
    }
}

/// How lint reads: the ΔE under which a colour is near a token.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// OKLab distance × 100 (2.0 is about a just-noticeable difference).
    pub delta_e: f64,
}

impl Default for Options {
    fn default() -> Options {
        Options { delta_e: 2.0 }
    }
}

/// What one file gives: its findings, the tokens it names (for
/// `--unused`) and the custom properties it declares (a `var(--x)` of
/// one declared in the codebase is not an unknown token).
#[derive(Debug, Default)]
pub struct FileLint {
    pub findings: Vec<Finding>,
    pub used: HashSet<usize>,
    pub declared: HashSet<String>,
}

/// Lints one file's text.
pub fn lint_text(ix: &Index, lang: Lang, text: &str, opts: &Options) -> FileLint {
    let mut sink = sink::Sink::new(ix, opts, text);
    match lang {
        Lang::Css | Lang::Scss | Lang::Less => {
            let masked = lex::css(text, lang != Lang::Css);
            let fix = lang.fixable();
            css::declarations(&mut sink, &masked, 0..masked.len(), sink::Form::Css, fix);
        }
        Lang::Html | Lang::Vue | Lang::Svelte => markup::lint(&mut sink, text, lang),
        Lang::Js | Lang::Ts | Lang::Jsx | Lang::Tsx => {
            let lexed = lex::script(text);
            script::lint(&mut sink, &lexed, 0..text.len());
        }
        Lang::Swift | Lang::Kotlin => native::lint_code(&mut sink, text, lang),
        Lang::AndroidXml => native::lint_xml(&mut sink, text),
    }
    sink.finish()
}
