//! PURE. Declarations and Tailwind class lists, read from text whose
//! comments are already blank: one pass over the bytes, tracking whether
//! it is in a declaration's value and of which property, so a selector
//! (`#fab`) is not a colour and a named colour counts only where a
//! property takes one.

use super::colour;
use super::index::Name;
use super::sink::{Fix, Form, Lit, Sink};
use super::tailwind::{self, UTILITIES};
use crate::render::namespaces::Namespace;
use std::ops::Range;

/// True for a property whose value a named colour is (`color`,
/// `background`, `border-top`, `fill`; a `colorSecondary` style key).
pub fn takes_colour(prop: &str) -> bool {
    // Read once per declaration, in any case, with no copy.
    let p = prop.as_bytes();
    let starts = |s: &str| p.len() >= s.len() && p[..s.len()].eq_ignore_ascii_case(s.as_bytes());
    p.windows(5).any(|w| w.eq_ignore_ascii_case(b"color"))
        || [
            "background",
            "border",
            "outline",
            "fill",
            "stroke",
            "box-shadow",
            "boxshadow",
            "text-shadow",
            "textshadow",
            "column-rule",
            "caret",
            "accent",
        ]
        .iter()
        .any(|s| starts(s))
}

/// The bytes that start nothing the scanner reads, in any state: blanks,
/// brackets, operators, bytes of non-ASCII characters (not `{}`, `;`,
/// `:`, quotes, `#`, `@`, `.`, nor a byte of a word or number).
const PLAIN: [bool; 256] = {
    let mut t = [true; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric()
            || matches!(
                b,
                b'{' | b'}' | b';' | b':' | b'"' | b'\'' | b'#' | b'@' | b'.' | b'-' | b'_'
            )
        {
            t[c] = false;
        }
        c += 1;
    }
    t
};

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'-' || b == b'_'
}

/// Where a declaration value starts: in one already (a JS string that is
/// a value, an arbitrary Tailwind value) or in a list of declarations.
#[derive(Debug, Clone, Copy)]
pub struct Start<'p> {
    pub in_value: bool,
    pub prop: &'p str,
}

/// Declarations in `text[range]` (a style sheet, a `style` attribute, a
/// CSS-in-JS template): literals and `var(--…)` names.
pub fn declarations(sink: &mut Sink<'_>, text: &str, range: Range<usize>, form: Form, fix: bool) {
    let start = Start {
        in_value: false,
        prop: "",
    };
    let fix = if fix { Fix::Var } else { Fix::None };
    values(sink, text, range, form, start, fix);
}

/// The scanner itself: `start` says where the text begins; `fix` what a
/// literal may be rewritten to.
pub fn values(
    sink: &mut Sink<'_>,
    text: &str,
    range: Range<usize>,
    form: Form,
    start: Start<'_>,
    fix: Fix,
) {
    let b = text.as_bytes();
    let (mut in_value, mut prop) = (start.in_value, start.prop);
    let mut colours = takes_colour(prop);
    let mut boundary = range.start;
    let mut i = range.start;
    let end = range.end.min(b.len());
    let keep = Fix::None;
    while i < end {
        let c = b[i];
        if PLAIN[usize::from(c)] {
            i += 1;
            continue;
        }
        // A Sass or Less variable's value may feed a function
        // (`darken($brand, 5%)`) that a custom property would break.
        let fix = match prop.starts_with(['$', '@']) {
            true => &keep,
            false => &fix,
        };
        let prev = if i > range.start { b[i - 1] } else { b' ' };
        let at = Place {
            text,
            end,
            form,
            in_value,
            prop,
            colours,
            fix,
        };
        match c {
            b'{' | b'}' | b';' => {
                if !start.in_value {
                    in_value = false;
                    prop = "";
                    colours = false;
                }
                boundary = i + 1;
                i += 1;
            }
            b':' if !in_value => {
                prop = text[boundary..i].split_whitespace().last().unwrap_or("");
                colours = takes_colour(prop);
                if let Some(name) = prop.strip_prefix("--") {
                    sink.declare(name);
                }
                in_value = true;
                i += 1;
            }
            b'"' | b'\'' if !start.in_value => {
                i = b[i + 1..end]
                    .iter()
                    .position(|x| *x == c || *x == b'\n')
                    .map_or(end, |p| i + 1 + p + 1);
            }
            b'#' if in_value && !is_ident(prev) && prev != b'&' => {
                let len = b[i + 1..end].iter().take_while(|x| is_ident(**x)).count();
                let lit = &text[i..i + 1 + len];
                if let Some(rgba) = matches!(len, 3 | 4 | 6 | 8)
                    .then(|| colour::hex(lit))
                    .flatten()
                {
                    sink.literal(Lit::Colour(rgba), i..i + 1 + len, form, fix.clone());
                }
                i += 1 + len;
            }
            b'@' if text[i..end].starts_with("@apply") => {
                let stop = b[i..end]
                    .iter()
                    .position(|x| matches!(x, b';' | b'}' | b'\n'))
                    .map_or(end, |p| i + p);
                classes(sink, text, i + 6..stop, !matches!(fix, Fix::None));
                i = stop;
            }
            c if (c.is_ascii_alphabetic() || c == b'-' || c == b'_') && !is_ident(prev) => {
                i = word(sink, at, i);
            }
            c if (c.is_ascii_digit()
                || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit)))
                && !is_ident(prev)
                && prev != b'#'
                && prev != b'.' =>
            {
                i = number(sink, at, i);
            }
            _ => i += 1,
        }
    }
}

/// Where a word or number is read: the text up to `end`, the declaration
/// it is in (`prop`, and whether in its value), and how a match is fixed.
#[derive(Clone, Copy)]
struct Place<'a> {
    text: &'a str,
    end: usize,
    form: Form,
    in_value: bool,
    prop: &'a str,
    /// `takes_colour(prop)`, read once per declaration.
    colours: bool,
    fix: &'a Fix,
}

/// A word at `i`: a colour function, `var(--…)`, a named colour. Returns
/// where scanning goes on.
fn word(sink: &mut Sink<'_>, at: Place<'_>, i: usize) -> usize {
    let Place {
        text,
        end,
        form,
        in_value,
        colours,
        fix,
        ..
    } = at;
    let b = text.as_bytes();
    let len = b[i..end].iter().take_while(|x| is_ident(**x)).count();
    let w = &text[i..i + len];
    let after = i + len;
    if b.get(after) == Some(&b'(') {
        let close = b[after..end]
            .iter()
            .position(|x| *x == b')')
            .map(|p| after + p);
        if w.eq_ignore_ascii_case("var") {
            let inner_start = after + 1;
            let inner_end = close.unwrap_or(end);
            let inner = &text[inner_start..inner_end];
            let name_len = inner.find([',', ')']).unwrap_or(inner.len());
            let name = inner[..name_len].trim();
            if let Some(n) = name.strip_prefix("--") {
                let at = inner_start + inner.find("--").unwrap_or(0);
                sink.name(Name::Css, n, at..at + name.len(), form);
            }
            // A fallback may hold a literal: read on inside the parentheses.
            return inner_start + name_len;
        }
        let function = colour::FUNCTIONS.iter().find(|f| f.eq_ignore_ascii_case(w));
        if let (Some(close), Some(function)) = (close, function) {
            // Tailwind writes spaces in an arbitrary value as `_`.
            let inner = text[after + 1..close].replace('_', " ");
            if let Some(rgba) = colour::function(function, &inner) {
                sink.literal(Lit::Colour(rgba), i..close + 1, form, fix.clone());
                return close + 1;
            }
        }
        if w.eq_ignore_ascii_case("url") {
            return close.map_or(end, |c| c + 1);
        }
        return after;
    }
    if in_value && colours && !matches!(i.checked_sub(1).map(|p| b[p]), Some(b'.' | b'$' | b'@')) {
        if let Some(rgba) = colour::named_any_case(w) {
            sink.literal(Lit::Colour(rgba), i..after, form, fix.clone());
        }
    }
    after
}

/// A number at `i` with its unit: a length in `px` or `rem`, a duration,
/// or a font weight where `font-weight` takes one.
fn number(sink: &mut Sink<'_>, at: Place<'_>, i: usize) -> usize {
    let Place {
        text,
        end,
        form,
        in_value,
        prop,
        fix,
        ..
    } = at;
    let b = text.as_bytes();
    let digits = b[i..end]
        .iter()
        .take_while(|x| x.is_ascii_digit() || **x == b'.')
        .count();
    let unit_len = b[i + digits..end]
        .iter()
        .take_while(|x| x.is_ascii_alphabetic() || **x == b'%')
        .count();
    let after = i + digits + unit_len;
    if !in_value || b.get(after).is_some_and(|x| is_ident(*x)) {
        return after;
    }
    let Ok(n) = text[i..i + digits].parse::<f64>() else {
        return after;
    };
    let lit = match &text[i + digits..after] {
        "px" => Lit::Dimension(n),
        "rem" => Lit::Dimension(n * 16.0),
        "ms" => Lit::Duration(n),
        "s" => Lit::Duration(n * 1000.0),
        "" if is_weight_prop(prop) => Lit::Weight(n),
        _ => return after,
    };
    if n != 0.0 {
        sink.literal(lit, i..after, form, fix.clone());
    }
    after
}

fn is_weight_prop(prop: &str) -> bool {
    prop.eq_ignore_ascii_case("font-weight") || prop.eq_ignore_ascii_case("fontWeight")
}

/// A Tailwind class list in `text[range]`: theme names (used, deprecated
/// or unknown) and literals in arbitrary values (`bg-[#0969da]`).
pub fn classes(sink: &mut Sink<'_>, text: &str, range: Range<usize>, fix: bool) {
    let b = text.as_bytes();
    let mut i = range.start;
    let end = range.end.min(b.len());
    while i < end {
        if b[i].is_ascii_whitespace() || matches!(b[i], b'\'' | b'"' | b',') {
            i += 1;
            continue;
        }
        let len = b[i..end]
            .iter()
            .take_while(|x| !x.is_ascii_whitespace() && !matches!(x, b'\'' | b'"' | b','))
            .count();
        class(sink, text, i..i + len, fix);
        i += len;
    }
}

/// One class: its variants (`hover:`, `md:`) and importance set aside.
fn class(sink: &mut Sink<'_>, text: &str, range: Range<usize>, fix: bool) {
    let s = &text[range.clone()];
    // The utility starts after the last `:` outside brackets.
    let mut depth = 0i32;
    let mut from = 0;
    for (k, ch) in s.char_indices() {
        match ch {
            '[' => depth += 1,
            ']' => depth -= 1,
            ':' if depth == 0 => from = k + 1,
            _ => {}
        }
    }
    let lead = s[from..].len() - s[from..].trim_start_matches(['!', '-']).len();
    let start = range.start + from + lead;
    let u = text[start..range.end].trim_end_matches('!');
    if let Some(open) = u.find("-[") {
        if !u.ends_with(']') {
            return;
        }
        let utility = &u[..open];
        let prop = match tailwind::utility(utility).map(|k| UTILITIES[k]) {
            Some((_, spaces)) if spaces.contains(&Namespace::Color) => "color",
            _ => "",
        };
        let fix = match fix {
            true => Fix::Class {
                range: start..start + u.len(),
                utility: utility.to_string(),
            },
            false => Fix::None,
        };
        let inner = start + open + 2..start + u.len() - 1;
        let start_at = Start {
            in_value: true,
            prop,
        };
        return values(sink, text, inner, Form::Class, start_at, fix);
    }
    let u = u.split('/').next().unwrap_or(u);
    if let Some((k, value)) = tailwind::utility_of(u) {
        let (utility, spaces) = UTILITIES[k];
        if value.is_empty() {
            return;
        }
        let at = start + utility.len() + 1;
        sink.name(
            Name::Tailwind(utility, spaces),
            value,
            start..at + value.len(),
            Form::Class,
        );
    }
}
