//! PURE. HTML, Vue and Svelte: `<!-- -->` comments blank; each
//! `<style>` read as CSS (SCSS or Less by its `lang`), each `<script>` as
//! JS; `style="…"` as declarations, `:style="…"` (Vue) as JS, and
//! `class="…"` as a Tailwind class list. Text between tags is not style.

use super::lex::{self, Lexed, Str};
use super::sink::{Form, Sink};
use super::{css, script, Lang};
use std::ops::Range;

/// The element `name`'s contents, each with its opening tag.
fn elements<'t>(text: &'t str, name: &str) -> Vec<(&'t str, Range<usize>)> {
    let b = text.as_bytes();
    let lower = text.to_ascii_lowercase();
    let open = format!("<{name}");
    let close = format!("</{name}");
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(start) = lex::find(lower.as_bytes(), i, open.as_bytes()) {
        let after = start + open.len();
        if b.get(after).is_some_and(|c| c.is_ascii_alphanumeric()) {
            i = after;
            continue;
        }
        let Some(tag_end) = lex::find(b, after, b">") else {
            break;
        };
        let body_start = tag_end + 1;
        let body_end = lex::find(lower.as_bytes(), body_start, close.as_bytes()).unwrap_or(b.len());
        out.push((&text[start..body_start], body_start..body_end));
        i = body_end;
    }
    out
}

/// Lints a page or a single-file component.
pub fn lint(sink: &mut Sink<'_>, text: &str, lang: Lang) {
    let mut masked = lex::markup(text).into_bytes();
    let mut taken: Vec<Range<usize>> = Vec::new();
    // Each `<style>` and `<script>`, its comments blanked in its own syntax.
    let mut sheets = Vec::new();
    for (tag, body) in elements(text, "style") {
        let line_comments = tag.contains("scss") || tag.contains("less") || tag.contains("sass");
        let css_masked = lex::css(&text[body.clone()], line_comments);
        masked[body.clone()].copy_from_slice(css_masked.as_bytes());
        sheets.push(body.clone());
        taken.push(body);
    }
    let mut scripts = Vec::new();
    for (_, body) in elements(text, "script") {
        let lexed = lex::script(&text[body.clone()]);
        masked[body.clone()].copy_from_slice(lexed.masked.as_bytes());
        scripts.push((body.clone(), shifted(lexed.strings, body.start)));
        taken.push(body);
    }
    let masked = String::from_utf8(masked).expect("blanking whole comments keeps UTF-8");
    for body in sheets {
        css::declarations(sink, &masked, body, Form::Css, false);
    }
    for (body, strings) in scripts {
        let lexed = Lexed {
            masked: masked.clone(),
            strings,
        };
        script::lint(sink, &lexed, body);
    }
    attributes(sink, &masked, &taken, lang);
}

fn shifted(strings: Vec<Str>, by: usize) -> Vec<Str> {
    strings
        .into_iter()
        .map(|s| Str {
            range: s.range.start + by..s.range.end + by,
            template: s.template,
        })
        .collect()
}

/// `style`, `:style` and `class` attributes outside `<style>` and `<script>`.
fn attributes(sink: &mut Sink<'_>, masked: &str, taken: &[Range<usize>], lang: Lang) {
    let b = masked.as_bytes();
    for name in ["style=", "class=", "className="] {
        for at in memchr::memmem::find_iter(b, name.as_bytes()) {
            if taken.iter().any(|r| r.contains(&at)) {
                continue;
            }
            let before = at.checked_sub(1).map(|p| b[p]);
            let bound = at + name.len();
            let Some(&q) = b.get(bound).filter(|c| matches!(c, b'"' | b'\'')) else {
                continue;
            };
            let Some(len) = b[bound + 1..].iter().position(|c| *c == q) else {
                continue;
            };
            let value = bound + 1..bound + 1 + len;
            let bound_to_js = matches!(before, Some(b':')) && lang == Lang::Vue;
            match (name, bound_to_js, before) {
                (_, _, Some(c)) if !(c.is_ascii_whitespace() || c == b':') => {}
                ("style=", true, _) => {
                    // Vue's `:style` is a JS expression.
                    let lexed = lex::script(&masked[value.clone()]);
                    let mut whole = masked.to_string();
                    whole.replace_range(value.clone(), &lexed.masked);
                    let lexed = Lexed {
                        masked: whole,
                        strings: shifted(lexed.strings, value.start),
                    };
                    script::lint(sink, &lexed, value);
                }
                ("style=", false, _) => css::declarations(sink, masked, value, Form::Css, false),
                (_, false, _) => css::classes(sink, masked, value, false),
                _ => {}
            }
        }
    }
}
