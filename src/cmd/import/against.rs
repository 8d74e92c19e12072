//! `marque import --against <built.css>`: the team's own build as the
//! judge of what marque publishes. Both stylesheets are read into custom
//! properties per context; each property the team's CSS declares in a
//! context is equal (the same value once `var()`s are resolved on each
//! side and colours, numbers, quotes and spaces are compared by what they
//! mean), different, or missing from marque's tokens.css. Names are
//! compared exactly, prefix included.
//!
//! The team's selectors name contexts: `:root`, `html`, `:host` and `body`
//! are the default; a class, an attribute's value or a
//! `prefers-color-scheme` media query names the context it spells
//! (`.dark`, `.theme-dark`, `.darkmode`, `[data-theme=dark]`, `[data-mode="dark"]`,
//! `@media (prefers-color-scheme: dark)`), of any modifier; several, the
//! contexts of several modifiers at once. A rule whose selector names no
//! context of the brand, and one under another media query (a breakpoint),
//! is not compared, and is listed. marque's side is read from its own
//! selectors: `:root` and `[data-m="context"]`.

use crate::render::tokens_css::modes::selector;
use crate::spec::tokens::TokenSet;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A rule of a stylesheet that declares custom properties: the media query
/// it sits under (`""` for none), its selector, and its declarations.
#[derive(Debug, Clone, PartialEq)]
pub struct Rule {
    pub media: String,
    pub selector: String,
    pub declarations: Vec<(String, String)>,
}

/// The contexts a rule applies to: `(modifier, context)` pairs, none for
/// the default.
pub type Key = Vec<(usize, usize)>;

/// One context's comparison.
#[derive(Debug, Default, PartialEq)]
pub struct Compared {
    pub equal: usize,
    /// Name, the team's value, marque's (both as declared).
    pub different: Vec<(String, String, String)>,
    pub missing: Vec<String>,
}

/// The whole comparison: per context (by its key, in order), and the
/// team's selectors that name no context.
#[derive(Debug, Default)]
pub struct Against {
    pub contexts: BTreeMap<Key, Compared>,
    pub unmapped: BTreeSet<String>,
}

/// The rules of `css` that declare custom properties, in order.
pub fn rules(css: &str) -> Vec<Rule> {
    let text = crate::lint::lex::css(css, false);
    let mut out = Vec::new();
    block(text.as_bytes(), &mut 0, "", &mut out, 0);
    out
}

/// Where the prelude or declaration starting at `i` ends: at `{`, `;` or
/// `}` outside quotes and brackets.
fn prelude_end(b: &[u8], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < b.len() {
        match b[i] {
            b'"' | b'\'' => {
                let q = b[i];
                i += 1;
                while i < b.len() && b[i] != q {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            b'{' | b';' | b'}' if depth == 0 => return i,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// Reads the items of a block from `*i` to its `}` (or the end).
fn block(b: &[u8], i: &mut usize, media: &str, out: &mut Vec<Rule>, depth: usize) {
    while *i < b.len() {
        let start = *i;
        let end = prelude_end(b, start);
        let prelude = String::from_utf8_lossy(&b[start..end]).trim().to_string();
        *i = end + 1;
        match b.get(end) {
            Some(b'{') if depth > 16 => skip(b, i),
            Some(b'{') if prelude.starts_with('@') => {
                let lower = prelude.to_ascii_lowercase();
                let inner = match lower.strip_prefix("@media") {
                    Some(q) if media.is_empty() => q.trim().to_string(),
                    Some(q) => format!("{media} and {}", q.trim()),
                    None => media.to_string(),
                };
                block(b, i, &inner, out, depth + 1);
            }
            Some(b'{') => {
                let declarations = body(b, i);
                if !declarations.is_empty() {
                    out.push(Rule {
                        media: media.to_string(),
                        selector: prelude.split_whitespace().collect::<Vec<_>>().join(" "),
                        declarations,
                    });
                }
            }
            Some(b'}') | None => return,
            _ => {}
        }
    }
}

/// Skips a block whose `{` is behind `*i`.
fn skip(b: &[u8], i: &mut usize) {
    let mut depth = 1;
    while *i < b.len() && depth > 0 {
        let end = prelude_end(b, *i);
        depth = match b.get(end) {
            Some(b'{') => depth + 1,
            Some(b'}') => depth - 1,
            _ => depth,
        };
        *i = end + 1;
    }
}

/// The custom properties of a rule's body, `*i` just behind its `{`;
/// nested rules are skipped.
fn body(b: &[u8], i: &mut usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    while *i < b.len() {
        let end = prelude_end(b, *i);
        let text = String::from_utf8_lossy(&b[*i..end]);
        *i = end + 1;
        if let Some((name, value)) = text.split_once(':') {
            let name = name.trim();
            if name.starts_with("--") {
                let value = value.trim().trim_end_matches("!important").trim();
                out.push((name.to_string(), value.to_string()));
            }
        }
        match b.get(end) {
            Some(b'{') => skip(b, i),
            Some(b'}') | None => return out,
            _ => {}
        }
    }
    out
}

/// The words of a selector that may name a context: classes, attribute
/// values, and the scheme of a `prefers-color-scheme` query; `:not(…)` and
/// `:where(…)` not looked into.
fn words(selector: &str, media: &str) -> Vec<String> {
    let mut out = Vec::new();
    let s = selector.to_ascii_lowercase();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'.' => {
                let end = ident_end(b, i + 1);
                out.push(s[i + 1..end].to_string());
                i = end;
            }
            b'[' => {
                let end = s[i..].find(']').map_or(b.len(), |e| i + e);
                if let Some((_, v)) = s[i + 1..end].split_once('=') {
                    out.push(v.trim().trim_matches(['"', '\'']).to_string());
                }
                i = end + 1;
            }
            b'(' => i = matching_paren(&s, i + 1).map_or(b.len(), |c| c + 1),
            _ => i += 1,
        }
    }
    let media = media.to_ascii_lowercase().replace(' ', "");
    if let Some(at) = media.find("prefers-color-scheme:") {
        let rest = &media[at + "prefers-color-scheme:".len()..];
        out.push(rest.chars().take_while(char::is_ascii_alphabetic).collect());
    }
    out
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'-' | b'_')) {
        i += 1;
    }
    i
}

/// Whether a selector's word names the context whose identifier is `n`:
/// the identifier itself, or it after a `-` or `_` (`theme-dark`), or it
/// before `mode` (`darkmode`, `dark-mode`: NVE's build writes
/// `:root.darkmode`).
fn names(w: &str, n: &str) -> bool {
    let bare = w
        .strip_suffix("mode")
        .map_or(w, |s| s.trim_end_matches(['-', '_']));
    !n.is_empty()
        && [w, bare]
            .iter()
            .any(|w| *w == n || w.ends_with(&format!("-{n}")) || w.ends_with(&format!("_{n}")))
}

/// The contexts one selector (of a list) names, `None` when it names none
/// of the brand's; a context that is its modifier's default adds nothing.
fn key_of(set: &TokenSet, selector: &str, media: &str) -> Option<Key> {
    let media_ok = media.is_empty() || media.contains("prefers-color-scheme");
    if !media_ok {
        return None;
    }
    let words = words(selector, media);
    let mut key = Key::new();
    let mut named = false;
    for w in &words {
        for (m, modifier) in set.modes.iter().enumerate() {
            let hit = modifier.contexts.iter().position(|c| names(w, &c.ident()));
            if let Some(c) = hit {
                named = true;
                if c != modifier.default && !key.iter().any(|(k, _)| *k == m) {
                    key.push((m, c));
                }
            }
        }
    }
    key.sort_unstable();
    (named || words.is_empty()).then_some(key)
}

/// Each context's declarations, the default's under the empty key, in
/// the order the rules declare them.
type Sides = BTreeMap<Key, Vec<(String, String)>>;

/// The team's rules by the contexts their selectors name; the selectors
/// that name none.
fn theirs(set: &TokenSet, rules: &[Rule]) -> (Sides, BTreeSet<String>) {
    let mut out = Sides::new();
    let mut unmapped = BTreeSet::new();
    for r in rules {
        for part in r.selector.split(',').map(str::trim) {
            match key_of(set, part, &r.media) {
                Some(key) => out
                    .entry(key)
                    .or_default()
                    .extend(r.declarations.iter().cloned()),
                None => {
                    let at = match r.media.is_empty() {
                        true => part.to_string(),
                        false => format!("@media {} {{ {part} }}", r.media),
                    };
                    unmapped.insert(at);
                }
            }
        }
    }
    (out, unmapped)
}

/// marque's tokens.css by context: `:root`, and each `[data-m="c"]`.
fn ours(set: &TokenSet, rules: &[Rule]) -> Sides {
    let mut names: HashMap<String, (usize, usize)> = HashMap::new();
    for (m, modifier) in set.modes.iter().enumerate() {
        for (c, context) in modifier.contexts.iter().enumerate() {
            names.insert(selector(modifier, context), (m, c));
        }
    }
    let mut out = Sides::new();
    for r in rules.iter().filter(|r| r.media.is_empty()) {
        let key = match r.selector.as_str() {
            ":root" => Key::new(),
            s => match names.get(s) {
                Some(&(m, c)) if c != set.modes[m].default => vec![(m, c)],
                _ => continue,
            },
        };
        out.entry(key)
            .or_default()
            .extend(r.declarations.iter().cloned());
    }
    out
}

/// The properties in effect in context `key`: the default's, then each
/// of the key's contexts' over them (a key of two contexts reads both).
fn effective(sides: &Sides, key: &Key) -> HashMap<String, String> {
    let mut out: HashMap<String, String> = HashMap::new();
    let mut keys = vec![Key::new()];
    keys.extend(key.iter().map(|p| vec![*p]));
    if key.len() > 1 {
        keys.push(key.clone());
    }
    for k in keys {
        for (name, value) in sides.get(&k).into_iter().flatten() {
            out.insert(name.clone(), value.clone());
        }
    }
    out
}

/// `value` with every `var(--x)` (or `var(--x, fallback)`) replaced by
/// what `--x` holds in `props`, to a depth of 16.
fn resolve(value: &str, props: &HashMap<String, String>, depth: usize) -> String {
    if depth > 16 || !value.contains("var(") {
        return value.to_string();
    }
    let mut out = String::new();
    let mut rest = value;
    while let Some(at) = rest.find("var(") {
        out.push_str(&rest[..at]);
        let inner_start = at + 4;
        let Some(close) = matching_paren(rest, inner_start) else {
            break;
        };
        let inner = &rest[inner_start..close];
        let (name, fallback) = match inner.split_once(',') {
            Some((n, f)) => (n.trim(), Some(f.trim())),
            None => (inner.trim(), None),
        };
        match props.get(name).map(String::as_str).or(fallback) {
            Some(v) => out.push_str(&resolve(v, props, depth + 1)),
            None => out.push_str(&rest[at..=close]),
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

fn matching_paren(s: &str, from: usize) -> Option<usize> {
    let mut depth = 1;
    for (i, c) in s[from..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(from + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// A value as what it means: lowercase, quotes around names and spaces
/// beside commas, slashes and brackets gone, colours as 8-bit RGBA,
/// numbers without trailing zeros (`0px` is `0`). A quoted string that
/// holds a function (`"cubic-bezier(…)"`) is a string, not the function,
/// so its quotes stay.
pub fn normal(value: &str) -> String {
    let v = colours_in(&unquote_names(&value.trim().to_ascii_lowercase()));
    let mut spaced = String::new();
    for ch in v.chars() {
        if matches!(ch, ',' | '(' | ')' | '/') {
            spaced.push(' ');
            spaced.push(ch);
            spaced.push(' ');
        } else {
            spaced.push(ch);
        }
    }
    spaced
        .split_whitespace()
        .map(|w| colour(w).unwrap_or_else(|| number(w)))
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" , ", ",")
        .replace("( ", "(")
        .replace(" )", ")")
}

/// `v` with the quotes around each name (`"Source Sans 3"`) gone, and
/// those around a string that holds a bracket written `"`.
fn unquote_names(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut rest = v;
    while let Some(open) = rest.find(['"', '\'']) {
        out.push_str(&rest[..open]);
        let quote = rest[open..].chars().next().unwrap_or('"');
        let after = &rest[open + 1..];
        let Some(close) = after.find(quote) else {
            out.push_str(after);
            return out;
        };
        let inner = &after[..close];
        match inner.contains(['(', ')']) {
            true => {
                out.push('"');
                out.push_str(inner);
                out.push('"');
            }
            false => out.push_str(inner),
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// `v` with each colour function (`rgb(0 0 0 / 0.2)`) as 8-bit RGBA hex.
fn colours_in(v: &str) -> String {
    const NAMES: [&str; 10] = [
        "rgba(", "rgb(", "hsla(", "hsl(", "hwb(", "oklab(", "oklch(", "lab(", "lch(", "color(",
    ];
    let mut out = String::new();
    let mut i = 0;
    while i < v.len() {
        let starts = v.is_char_boundary(i)
            && (i == 0 || !v.as_bytes()[i - 1].is_ascii_alphanumeric())
            && NAMES.iter().any(|n| v[i..].starts_with(n));
        if starts {
            let open = i + v[i..].find('(').unwrap_or(0);
            if let Some(close) = matching_paren(v, open + 1) {
                if let Some(hex) = colour(&v[i..=close]) {
                    out.push_str(&hex);
                    i = close + 1;
                    continue;
                }
            }
        }
        let ch = v[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

fn colour(v: &str) -> Option<String> {
    use crate::lint::colour;
    let c = match v.split_once('(') {
        Some((name, inner)) if v.ends_with(')') => {
            colour::function(name, &inner[..inner.len() - 1])?
        }
        _ if v.starts_with('#') => colour::hex(v)?,
        _ => return None,
    };
    let [r, g, b, a] = c.key();
    Some(format!("#{r:02x}{g:02x}{b:02x}{a:02x}"))
}

fn number(w: &str) -> String {
    let split = w
        .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | '-' | '+' | 'e')))
        .unwrap_or(w.len());
    let (n, unit) = w.split_at(split);
    match n.parse::<f64>() {
        Ok(x) if x == 0.0 && unit != "%" && !unit.ends_with('s') => "0".to_string(),
        Ok(x) => format!("{}{unit}", (x * 1e4).round() / 1e4),
        Err(_) => w.to_string(),
    }
}

/// Compares the team's stylesheet `built` with marque's `tokens_css`.
pub fn compare(set: &TokenSet, built: &str, tokens_css: &str) -> Against {
    let (theirs, unmapped) = theirs(set, &rules(built));
    let ours = ours(set, &rules(tokens_css));
    let mut contexts = BTreeMap::new();
    for (key, declared) in &theirs {
        let (t, o) = (effective(&theirs, key), effective(&ours, key));
        let mut here = Compared::default();
        let mut seen = BTreeSet::new();
        for (name, _) in declared {
            if !seen.insert(name.clone()) {
                continue;
            }
            let mine = resolve(&t[name], &t, 0);
            match o.get(name) {
                None => here.missing.push(name.clone()),
                Some(v) => {
                    let marque = resolve(v, &o, 0);
                    if normal(&mine) == normal(&marque) {
                        here.equal += 1;
                    } else {
                        here.different.push((name.clone(), mine, marque));
                    }
                }
            }
        }
        contexts.insert(key.clone(), here);
    }
    Against { contexts, unmapped }
}

/// A key's name: `default`, or `theme=dark`, `theme=dark, density=compact`.
pub fn key_name(set: &TokenSet, key: &Key) -> String {
    match key.is_empty() {
        true => "default".to_string(),
        false => key
            .iter()
            .map(|&(m, c)| format!("{}={}", set.modes[m].name, set.modes[m].contexts[c].name))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// How many of each kind the listing shows per context.
const LISTED: usize = 50;

/// The comparison as the import summary prints it.
pub fn report(
    out: &mut impl std::io::Write,
    set: &TokenSet,
    built: &std::path::Path,
    a: &Against,
) -> std::io::Result<()> {
    writeln!(out, "against {}:", built.display())?;
    if a.contexts.is_empty() {
        writeln!(
            out,
            "  it declares no custom property in a context marque can name"
        )?;
    }
    for (key, c) in &a.contexts {
        let total = c.equal + c.different.len() + c.missing.len();
        writeln!(
            out,
            "  {}: {} equal, {} different, {} missing (of {total} it declares)",
            key_name(set, key),
            c.equal,
            c.different.len(),
            c.missing.len()
        )?;
        for (name, theirs, ours) in c.different.iter().take(LISTED) {
            writeln!(
                out,
                "    different {name}: theirs `{theirs}`, marque `{ours}`"
            )?;
        }
        if c.different.len() > LISTED {
            writeln!(out, "    … {} more different", c.different.len() - LISTED)?;
        }
        for name in c.missing.iter().take(LISTED) {
            writeln!(out, "    missing {name}")?;
        }
        if c.missing.len() > LISTED {
            writeln!(out, "    … {} more missing", c.missing.len() - LISTED)?;
        }
    }
    if !a.unmapped.is_empty() {
        let list: Vec<&str> = a.unmapped.iter().map(String::as_str).collect();
        writeln!(
            out,
            "  not compared, naming no context of the brand: {}",
            list.join(", ")
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
