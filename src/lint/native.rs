//! PURE. The app languages:
//!
//! - Swift and SwiftUI: hex strings, `Color(red:green:blue:)`,
//!   `UIColor(red:…)`, `#colorLiteral(…)`, hex integers given to a colour
//!   initialiser, and `Color("…")` / `UIColor(named: "…")` names (the
//!   iOS catalogue's colour sets).
//! - Kotlin and Compose: `Color(0xFF0969DA)`, hex strings
//!   (`Color.parseColor("#ff0969da")`, alpha first as Android reads it),
//!   `16.dp`, and `R.color.…` names.
//! - Android XML: `#aarrggbb` values, `16dp`, `@color/…` names.

use super::colour::{self, Rgba};
use super::index::Name;
use super::lex::{self, find};
use super::sink::{Fix, Form, Lit, Sink};
use super::Lang;

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// A `#` hex colour at `i` in `text`, read CSS's way or Android's; its length.
fn hex_at(text: &str, i: usize, android: bool) -> Option<(Rgba, usize)> {
    let b = text.as_bytes();
    if i > 0 && is_ident(b[i - 1]) {
        return None;
    }
    let len = b[i + 1..].iter().take_while(|c| is_ident(**c)).count();
    if !matches!(len, 3 | 6 | 8) {
        return None;
    }
    let lit = &text[i..i + 1 + len];
    let rgba = match android {
        true => colour::android_hex(lit),
        false => colour::hex(lit),
    }?;
    Some((rgba, 1 + len))
}

/// Swift or Kotlin source.
/// Each colour resource `m` names after `prefix` (`R.color.`, `@color/`),
/// unless a prefix that starts like a name is the tail of a longer one
/// (`MyR.color.`).
fn android_names(sink: &mut Sink<'_>, m: &str, prefix: &str, form: Form) {
    let b = m.as_bytes();
    let word = is_ident(prefix.as_bytes()[0]);
    for at in memchr::memmem::find_iter(b, prefix.as_bytes()) {
        if word && at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let start = at + prefix.len();
        let len = b[start..].iter().take_while(|c| is_ident(**c)).count();
        sink.name(Name::Android, &m[start..start + len], at..start + len, form);
    }
}

pub fn lint_code(sink: &mut Sink<'_>, text: &str, lang: Lang) {
    let lexed = lex::native(text);
    let m = lexed.masked.as_str();
    let (form, android) = match lang {
        Lang::Kotlin => (Form::Kotlin, true),
        _ => (Form::Swift, false),
    };
    for s in &lexed.strings {
        let body = &m[s.range.clone()];
        // A colour set's name: `Color("x")`, `UIColor(named: "x")`.
        let before = m[..s.range.start.saturating_sub(1)].trim_end();
        if lang == Lang::Swift && (before.ends_with("Color(") || before.ends_with("named:")) {
            sink.name(Name::Ios, body, s.range.clone(), form);
            continue;
        }
        for at in memchr::memchr_iter(b'#', body.as_bytes()) {
            let i = s.range.start + at;
            if let Some((rgba, len)) = hex_at(m, i, android) {
                sink.literal(Lit::Colour(rgba), i..i + len, form, Fix::None);
            }
        }
    }
    let b = m.as_bytes();
    let in_string = |at: usize| lexed.strings.iter().any(|s| s.range.contains(&at));
    // Hex integers given to a colour: `Color(0xFF0969DA)`, `UIColor(hex: 0x0969DA)`.
    for at in memchr::memmem::find_iter(b, b"0x") {
        if in_string(at) || (at > 0 && is_ident(b[at - 1])) {
            continue;
        }
        let len = b[at + 2..]
            .iter()
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        if b.get(at + 2 + len)
            .is_some_and(|c| is_ident(*c) && *c != b'L' && *c != b'u')
        {
            continue;
        }
        let call = m[..at].rsplit_once('(').map_or("", |(f, _)| f);
        let callee = call
            .rsplit(|c: char| !c.is_ascii_alphanumeric())
            .next()
            .unwrap_or("");
        let lower = callee.to_ascii_lowercase();
        if !(lower.ends_with("color") || lower.contains("hex") || lower.contains("rgb")) {
            continue;
        }
        if let Some(rgba) = colour::argb_int(&m[at + 2..at + 2 + len]) {
            sink.literal(Lit::Colour(rgba), at..at + 2 + len, form, Fix::None);
        }
    }
    match lang {
        Lang::Kotlin => kotlin(sink, m),
        _ => components(sink, m),
    }
}

/// `R.color.x` names and `16.dp` lengths.
fn kotlin(sink: &mut Sink<'_>, m: &str) {
    let b = m.as_bytes();
    android_names(sink, m, "R.color.", Form::Kotlin);
    for at in memchr::memmem::find_iter(b, b".dp") {
        if b.get(at + 3).is_some_and(|c| is_ident(*c)) {
            continue;
        }
        let digits = b[..at]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_digit() || **c == b'.')
            .count();
        let start = at - digits;
        if digits == 0 || (start > 0 && is_ident(b[start - 1])) {
            continue;
        }
        if let Ok(n) = m[start..at].parse::<f64>() {
            if n != 0.0 {
                sink.literal(Lit::Dimension(n), start..at + 3, Form::Kotlin, Fix::None);
            }
        }
    }
}

/// A number, or a quotient of two (`9 / 255`, `9.0/255.0`).
fn number(s: &str) -> Option<f64> {
    let s = s.trim();
    match s.split_once('/') {
        Some((a, d)) => Some(number(a)? / number(d)?).filter(|v| v.is_finite()),
        None => s.trim_end_matches(['f', 'F']).parse().ok(),
    }
}

/// `Color(red: 0.04, green: 0.41, blue: 0.85[, opacity: 1])`, and
/// UIKit's and `#colorLiteral`'s `alpha:`.
fn components(sink: &mut Sink<'_>, m: &str) {
    let b = m.as_bytes();
    for at in memchr::memmem::find_iter(b, b"red:") {
        let Some(open) = m[..at].rfind('(') else {
            continue;
        };
        if !m[open + 1..at].trim().is_empty() {
            continue;
        }
        let Some(close) = find(b, at, b")") else {
            continue;
        };
        let args = &m[open + 1..close];
        let arg = |name: &str| {
            let rest = &args[args.find(&format!("{name}:"))? + name.len() + 1..];
            number(rest.split(',').next()?)
        };
        let (Some(r), Some(g), Some(bl)) = (arg("red"), arg("green"), arg("blue")) else {
            continue;
        };
        let alpha = arg("opacity").or_else(|| arg("alpha")).unwrap_or(1.0);
        let call_start = m[..open]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '#' || c == '.'))
            .map_or(0, |p| p + 1);
        let rgba = Rgba {
            rgb: [r, g, bl].map(|v| v.clamp(0.0, 1.0)),
            alpha,
        };
        sink.literal(
            Lit::Colour(rgba),
            call_start..close + 1,
            Form::Swift,
            Fix::None,
        );
    }
}

/// Android resource XML.
pub fn lint_xml(sink: &mut Sink<'_>, text: &str) {
    let m = lex::markup(text);
    let b = m.as_bytes();
    for at in memchr::memchr_iter(b'#', b) {
        if !matches!(at.checked_sub(1).map(|p| b[p]), Some(b'>' | b'"')) {
            continue;
        }
        if let Some((rgba, len)) = hex_at(&m, at, true) {
            sink.literal(Lit::Colour(rgba), at..at + len, Form::Xml, Fix::None);
        }
    }
    android_names(sink, &m, "@color/", Form::Xml);
    for at in memchr::memmem::find_iter(b, b"dp") {
        if !matches!(b.get(at + 2), Some(b'<' | b'"')) {
            continue;
        }
        let digits = b[..at]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_digit() || **c == b'.')
            .count();
        let start = at - digits;
        if digits == 0 || !matches!(start.checked_sub(1).map(|p| b[p]), Some(b'>' | b'"')) {
            continue;
        }
        if let Ok(n) = m[start..at].parse::<f64>() {
            if n != 0.0 {
                sink.literal(Lit::Dimension(n), start..at + 2, Form::Xml, Fix::None);
            }
        }
    }
}
