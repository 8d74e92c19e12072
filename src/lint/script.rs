//! PURE. JS, TS, JSX and TSX, lexed (comments blank, strings listed):
//!
//! - a string is a class list where JSX or a class helper takes one
//!   (`className="…"`, `class="…"`, `clsx(…)`, `cn(…)`, inside
//!   `className={…}`), else a value, of the property its key names in a
//!   style object (`{ color: "#0969da" }`, `fontWeight: 600`);
//! - a template literal is CSS (styled-components, emotion, lit's `css`)
//!   when it holds declarations, else a value;
//! - in code, `tokens.…` paths of the brand's tokens.js.

use super::css::{self, Start};
use super::lex::Lexed;
use super::sink::{Fix, Form, Lit, Sink};
use std::ops::Range;

/// Functions whose string arguments are class lists.
const CLASS_HELPERS: &[&str] = &[
    "clsx",
    "cn",
    "cx",
    "classnames",
    "classNames",
    "twMerge",
    "twJoin",
    "cva",
    "tw",
];

/// The identifier that ends at `end` (exclusive) in `b`.
fn ident_before(b: &[u8], end: usize) -> &[u8] {
    let start = b[..end]
        .iter()
        .rposition(|c| !(c.is_ascii_alphanumeric() || *c == b'_' || *c == b'$' || *c == b'-'))
        .map_or(0, |p| p + 1);
    &b[start..end]
}

/// The last non-blank byte before `at`, and its index.
fn back(b: &[u8], at: usize) -> Option<(usize, u8)> {
    b[..at]
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map(|p| (p, b[p]))
}

/// What a string at `quote` (the index of its opening quote) is, by the
/// code before it: a class list, or a value of a property (its key).
enum Role<'t> {
    Classes,
    Value(&'t str),
}

fn role<'t>(masked: &'t str, quote: usize) -> Role<'t> {
    let b = masked.as_bytes();
    let Some((p, c)) = back(b, quote) else {
        return Role::Value("");
    };
    match c {
        b'=' => {
            let id = ident_before(b, p);
            if id == b"className" || id == b"class" {
                return Role::Classes;
            }
        }
        b':' => {
            // A key, bare or quoted.
            let key_end = match back(b, p) {
                Some((q, b'"' | b'\'')) => q,
                Some((q, _)) => q + 1,
                None => p,
            };
            let key = std::str::from_utf8(ident_before(b, key_end)).unwrap_or("");
            return match enclosed_in_classes(b, quote) {
                true => Role::Classes,
                false => Role::Value(key),
            };
        }
        _ => {}
    }
    match enclosed_in_classes(b, quote) {
        true => Role::Classes,
        false => Role::Value(""),
    }
}

/// True when the bracket that encloses `at` (within a few hundred bytes)
/// opens `className={…}`, `class={…}` or a class helper's call.
fn enclosed_in_classes(b: &[u8], at: usize) -> bool {
    let floor = at.saturating_sub(400);
    let mut depth = 0i32;
    let mut i = at;
    while i > floor {
        i -= 1;
        match b[i] {
            b')' | b'}' | b']' => depth += 1,
            b'(' | b'{' | b'[' if depth > 0 => depth -= 1,
            b'(' => {
                let id = std::str::from_utf8(ident_before(b, i)).unwrap_or("");
                if CLASS_HELPERS.contains(&id) {
                    return true;
                }
            }
            b'{' => {
                return match back(b, i) {
                    Some((p, b'=')) => {
                        let id = ident_before(b, p);
                        id == b"className" || id == b"class"
                    }
                    _ => false,
                }
            }
            b';' if depth == 0 => return false,
            _ => {}
        }
    }
    false
}

/// Whether a string (not a template) may hold what lint reads other than
/// a named colour: a hex colour (`#`), a function (`var(`, `rgb(`), a
/// number, or a class with a value (`bg-fjord-900`, `-m-4`: every
/// Tailwind utility's value follows a `-`).
fn may_hold(body: &[u8]) -> bool {
    body.iter()
        .any(|c| matches!(c, b'#' | b'(' | b'-' | b'0'..=b'9'))
}

/// Lints the script in `range` of `lexed` (the whole file, or a
/// `<script>` of a component: `lexed.masked` is the whole file either way).
pub fn lint(sink: &mut Sink<'_>, lexed: &Lexed, range: Range<usize>) {
    let text = lexed.masked.as_str();
    for s in lexed
        .strings
        .iter()
        .filter(|s| range.contains(&s.range.start))
    {
        let quote = s.range.start.saturating_sub(1);
        if !s.template && !may_hold(&text.as_bytes()[s.range.clone()]) {
            // Nothing in it is a literal, a `var(…)` or a class with a
            // value: only a named colour can be, as the value of a key
            // (`color: "red"`). Most strings are none of these: an
            // import's path, a label, a key.
            if back(text.as_bytes(), quote).is_none_or(|(_, c)| c != b':') {
                continue;
            }
        }
        // Read once: it walks back up to a few hundred bytes.
        let role = role(text, quote);
        if matches!(role, Role::Classes) {
            css::classes(sink, text, s.range.clone(), false);
            continue;
        }
        let body = &text[s.range.clone()];
        if s.template && body.contains(':') && (body.contains(';') || body.contains('{')) {
            css::declarations(sink, text, s.range.clone(), Form::Css, false);
            continue;
        }
        let prop = match role {
            Role::Value(k) => k,
            Role::Classes => "",
        };
        let start = Start {
            in_value: true,
            prop,
        };
        let form = if s.template { Form::Css } else { Form::Js };
        css::values(sink, text, s.range.clone(), form, start, Fix::None);
    }
    code(sink, text, range, &lexed.strings);
}

/// Code outside strings: `tokens.…` paths and numeric font weights.
fn code(sink: &mut Sink<'_>, text: &str, range: Range<usize>, strings: &[super::lex::Str]) {
    let b = text.as_bytes();
    let in_string = |at: usize| {
        let k = strings.partition_point(|s| s.range.start <= at);
        k > 0 && strings[k - 1].range.contains(&at) && !strings[k - 1].template
    };
    for at in memchr::memmem::find_iter(&b[range.clone()], b"tokens") {
        let at = range.start + at;
        let before = at.checked_sub(1).map(|p| b[p]);
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c == b'.')
            || in_string(at)
        {
            continue;
        }
        let segments = path(text, at + "tokens".len(), range.end);
        if !segments.is_empty() {
            sink.js_path(&segments, at..at);
        }
    }
    for at in memchr::memmem::find_iter(&b[range.clone()], b"fontWeight") {
        let at = range.start + at + "fontWeight".len();
        let rest = &text[at..range.end.min(at + 20)];
        let Some(value) = rest.trim_start().strip_prefix(':') else {
            continue;
        };
        let digits_at = at + (rest.len() - value.len()) + (value.len() - value.trim_start().len());
        let n: String = text[digits_at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        if let Ok(w) = n.parse::<f64>() {
            sink.literal(
                Lit::Weight(w),
                digits_at..digits_at + n.len(),
                Form::Js,
                Fix::None,
            );
        }
    }
}

/// The segments of a member path from `at`: `.color`, `["700"]`, `[700]`.
fn path(text: &str, mut at: usize, end: usize) -> Vec<(String, Range<usize>)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    while at < end {
        match b[at] {
            b'.' => {
                let len = b[at + 1..end]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_' || **c == b'$')
                    .count();
                if len == 0 {
                    break;
                }
                out.push((text[at + 1..at + 1 + len].to_string(), at + 1..at + 1 + len));
                at += 1 + len;
            }
            b'[' => {
                let Some(close) = b[at..end].iter().position(|c| *c == b']') else {
                    break;
                };
                let inner = text[at + 1..at + close].trim();
                let key = inner.trim_matches(['"', '\'']);
                let quoted = key.len() + 2 == inner.len();
                if !(quoted || key.bytes().all(|c| c.is_ascii_digit())) || key.is_empty() {
                    break;
                }
                out.push((key.to_string(), at..at + close + 1));
                at += close + 1;
            }
            _ => break,
        }
    }
    out
}
