//! The CSS form of tokens: a token path's custom property name, the
//! properties a token yields (a composite's parts too), and a value's CSS
//! text. PURE, and part of the token model rather than of one renderer,
//! because validation (two tokens, one CSS name), the semantic diff (a
//! property disappears) and every surface (tokens.css, spec.json `value`,
//! the pages) must agree on it. Aliases are written as `var(--…)`
//! references or resolved to literals, as the caller asks.

use super::{
    fmt_num, round, Color, Component, GradientStop, Item, StrokeStyle, Token, TokenSet, TokenType,
    TokenValue, ROOT,
};
use std::collections::BTreeSet;

mod families;
pub use families::families;

/// How aliases are written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Refs {
    /// `var(--color-brand)`, as tokens.css does.
    Var,
    /// The resolved literal, as spec.json's `value` does.
    Resolve,
}

/// Kebab case of one path segment: `fontSize` → `font-size`, `Brand Blue` → `brand-blue`.
pub fn kebab(segment: &str) -> String {
    let mut out = String::with_capacity(segment.len() + 4);
    push_kebab(&mut out, segment);
    out
}

/// Appends [`kebab`] of `segment` to `out`. Every token name of every
/// renderer goes through here, so it writes in place, ASCII first.
fn push_kebab(out: &mut String, segment: &str) {
    let start = out.len();
    let mut prev: Option<char> = None;
    for c in segment.chars() {
        if c.is_alphanumeric() {
            let boundary =
                c.is_uppercase() && prev.is_some_and(|p| p.is_lowercase() || p.is_ascii_digit());
            if boundary || (prev.is_none() && out.len() > start) {
                out.push('-');
            }
            if c.is_ascii() {
                out.push(c.to_ascii_lowercase());
            } else {
                out.extend(c.to_lowercase());
            }
            prev = Some(c);
        } else {
            prev = None;
        }
    }
}

/// The CSS custom property name of a token path, without the leading `--`:
/// each segment's [`kebab`], the empty ones left out, joined by `-`.
pub fn css_name(path: &[String]) -> String {
    let mut out = String::with_capacity(path.iter().map(|s| s.len() + 1).sum());
    for segment in path.iter().filter(|s| s.as_str() != ROOT) {
        let mark = out.len();
        if mark > 0 {
            out.push('-');
        }
        let at = out.len();
        push_kebab(&mut out, segment);
        if out.len() == at {
            out.truncate(mark);
        }
    }
    out
}

impl TokenSet {
    /// The custom property a token path publishes as, without the leading
    /// `--`: the brand's prefix (brand.json `naming.prefix`) and a hyphen,
    /// then [`css_name`]. Every surface that names a custom property asks
    /// here, so a team's stylesheet and marque's use the same names.
    pub fn var_name(&self, path: &[String]) -> String {
        prefixed(&self.prefix, css_name(path))
    }
}

/// `name` behind `prefix` and a hyphen; `name` itself for no prefix.
pub fn prefixed(prefix: &str, name: String) -> String {
    match prefix.is_empty() {
        true => name,
        false => format!("{prefix}-{name}"),
    }
}

/// A CSS string literal (with quotes). Quotes, backslashes, line breaks and
/// `<` are written as CSS escapes, so the value can neither end the string
/// and the declaration nor close a surrounding `<style>` element.
pub fn string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '<' | '>' | '\n' | '\r' | '\u{c}' | '\0'..='\u{1f}' | '\u{7f}' => {
                out.push_str(&format!("\\{:x} ", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Every custom property tokens.css declares for a token set: each
/// token's, and a composite's part properties (`--type-body-font-size`),
/// an alias of a composite's too.
pub fn property_names(set: &TokenSet) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for token in &set.tokens {
        out.extend(
            declarations(token, set)
                .into_iter()
                .map(|d| format!("--{}", d.name)),
        );
    }
    out
}

/// One custom property: its name without `--`, its value, and the token
/// value it was written from (for the sRGB fallback of wide colours).
pub struct Declaration<'a> {
    pub name: String,
    pub value: String,
    pub from: Option<&'a TokenValue>,
}

/// What tokens.css declares for one token: a composite's parts, then the
/// token. An alias of a composite gets part properties that refer to its
/// target's, so `--lead-font-size` exists wherever `--body-font-size` does.
pub fn declarations<'a>(token: &'a Token, set: &'a TokenSet) -> Vec<Declaration<'a>> {
    let name = set.var_name(&token.path);
    let mut out = Vec::new();
    let value = match &token.value {
        TokenValue::Composite(c) => {
            for (part, v) in c.parts() {
                let css = match v {
                    TokenValue::FontFamily(names) => {
                        let names = families(names, set, 0);
                        with_generic(&font_family(&names), &names, &name)
                    }
                    v => value(v, set, Refs::Var),
                };
                out.push(Declaration {
                    name: format!("{name}-{}", part.css),
                    value: css,
                    from: Some(v),
                });
            }
            shorthand_of_parts(c.ty, &name)
        }
        // An alias of a composite written as parts (not as CSS text).
        TokenValue::Alias(target)
            if !token.ty.parts().is_empty()
                && matches!(
                    set.resolve(&token.value).as_deref(),
                    Some(TokenValue::Composite(_))
                ) =>
        {
            let path: Vec<String> = target.split('.').map(String::from).collect();
            let base = set.var_name(&path);
            for part in token.ty.parts() {
                out.push(Declaration {
                    name: format!("{name}-{}", part.css),
                    value: format!("var(--{base}-{})", part.css),
                    from: None,
                });
            }
            shorthand_of_parts(token.ty, &name)
        }
        // A shadow, border, transition, gradient or length written as CSS
        // text is that text where CSS reads it as a value (with
        // references, the arm of `value` that resolves them decides).
        TokenValue::String(text)
            if matches!(
                token.ty,
                TokenType::Shadow
                    | TokenType::Border
                    | TokenType::Transition
                    | TokenType::Gradient
                    | TokenType::Dimension
            ) && !has_references(text)
                && is_css_value(text) =>
        {
            text.clone()
        }
        TokenValue::FontFamily(names) => {
            let names = families(names, set, 0);
            with_generic(&font_family(&names), &names, &name)
        }
        v => value(v, set, Refs::Var),
    };
    out.push(Declaration {
        name,
        value,
        from: Some(&token.value),
    });
    out
}

/// An easing curve as CSS writes it: `cubic-bezier(0.2, 0, 0, 1)`.
pub fn cubic_bezier(p: &[f64; 4]) -> String {
    format!(
        "cubic-bezier({}, {}, {}, {})",
        fmt_num(p[0]),
        fmt_num(p[1]),
        fmt_num(p[2]),
        fmt_num(p[3])
    )
}

/// Generic font families, written without quotes.
pub const GENERIC_FAMILIES: &[&str] = &[
    "serif",
    "sans-serif",
    "monospace",
    "cursive",
    "fantasy",
    "system-ui",
    "ui-serif",
    "ui-sans-serif",
    "ui-monospace",
    "ui-rounded",
    "math",
    "emoji",
    "fangsong",
];

pub fn color(c: &Color) -> String {
    // Most colours: their components are never written.
    if c.space == "srgb" {
        return srgb(c);
    }
    let comp = |x: Component| match x {
        Component::Num(n) => fmt_num(round(n, 6)),
        Component::None => "none".to_string(),
    };
    let [a, b, cc] = c.components.map(comp);
    let alpha = if c.alpha < 1.0 {
        format!(" / {}", fmt_num(round(c.alpha, 6)))
    } else {
        String::new()
    };
    match c.space.as_str() {
        "hsl" => format!("hsl({a} {b}% {cc}%{alpha})"),
        "hwb" => format!("hwb({a} {b}% {cc}%{alpha})"),
        "lab" | "lch" | "oklab" | "oklch" => format!("{}({a} {b} {cc}{alpha})", c.space),
        space => format!("color({space} {a} {b} {cc}{alpha})"),
    }
}

/// The colour in sRGB: its hex, or with alpha `rgb(10 39 66 / 0.24)` (the
/// alpha exactly as authored, which an 8-digit hex would round). Outside
/// sRGB, the gamut-clipped fallback.
pub fn srgb(c: &Color) -> String {
    let hex = c.srgb_hex();
    if c.alpha >= 1.0 {
        return hex;
    }
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2).unwrap_or("00"), 16).unwrap_or(0);
    format!(
        "rgb({} {} {} / {})",
        byte(1),
        byte(3),
        byte(5),
        fmt_num(round(c.alpha, 6))
    )
}

/// True when a family name can be written without quotes: one CSS
/// identifier that is not a keyword (Style Dictionary quotes the same way).
fn plain_family(name: &str) -> bool {
    // An identifier may start with one hyphen (`-apple-system`).
    let mut chars = name.strip_prefix('-').unwrap_or(name).chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    first_ok
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && !matches!(
            name.to_ascii_lowercase().as_str(),
            "inherit" | "initial" | "unset" | "revert" | "revert-layer" | "default"
        )
}

pub fn font_family(names: &[String]) -> String {
    names
        .iter()
        .map(|n| {
            if GENERIC_FAMILIES.contains(&n.as_str()) || plain_family(n) {
                n.clone()
            } else {
                string(n)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A font stack with a generic family (one at its end, when it has none),
/// so a reader without the brand's font gets the right kind of one
/// (Tailwind's `--font-mono` of "JetBrains Mono" alone set `<code>` in the
/// browser's serif; tokens.css's "Circular Std" alone set the page in
/// serif). `name` is the token's or theme variable's name, and says the
/// kind: monospace for a name that says mono or code, serif for one that
/// says serif (and not sans), sans-serif otherwise.
pub fn with_generic(css: &str, families: &[String], name: &str) -> String {
    // A generic anywhere counts: Primer puts its emoji fonts after
    // `sans-serif` on purpose.
    if families
        .iter()
        .any(|f| GENERIC_FAMILIES.contains(&f.as_str()))
    {
        return css.to_string();
    }
    let generic = if name.contains("mono") || name.contains("code") {
        "ui-monospace, monospace"
    } else if name.contains("serif") && !name.contains("sans") {
        "serif"
    } else {
        "sans-serif"
    };
    format!("{css}, {generic}")
}

/// `var(--…)` of the token a reference names, by the set's names.
pub fn var(set: &TokenSet, target: &str) -> String {
    let path: Vec<String> = target.split('.').map(String::from).collect();
    format!("var(--{})", set.var_name(&path))
}

/// The colour a `var()` holds with `alpha` in place of its own: CSS
/// relative colour syntax, so it follows the variable in every context.
pub fn with_alpha(var: &str, alpha: f64) -> String {
    format!("rgb(from {var} r g b / {})", fmt_num(round(alpha, 6)))
}

/// The CSS value of a token value. `Refs::Var` keeps aliases as references.
pub fn value(v: &TokenValue, set: &TokenSet, refs: Refs) -> String {
    let sub = |v: &TokenValue| value(v, set, refs);
    match v {
        TokenValue::Alias(target) => match refs {
            Refs::Var => var(set, target),
            Refs::Resolve => set
                .resolve(v)
                .map(|r| value(&r, set, refs))
                .unwrap_or_default(),
        },
        TokenValue::AliasWithAlpha { target, alpha } => match refs {
            Refs::Var => with_alpha(&var(set, target), *alpha),
            Refs::Resolve => set
                .resolve(v)
                .map(|r| value(&r, set, refs))
                .unwrap_or_default(),
        },
        TokenValue::Color(c) => color(c),
        TokenValue::Dimension(d) => format!("{}{}", fmt_num(d.value), d.unit.as_str()),
        TokenValue::FontFamily(names) => font_family(&families(names, set, 0)),
        TokenValue::String(text) if has_references(text) => {
            match interpolate(text, set, Refs::Resolve, 0) {
                Some(resolved) if is_css_value(&resolved) => match refs {
                    Refs::Var => interpolate(text, set, Refs::Var, 0).unwrap_or(resolved),
                    Refs::Resolve => resolved,
                },
                Some(resolved) => string(&resolved),
                None => string(text),
            }
        }
        TokenValue::String(text) if plain_family(text) && !text.contains(' ') => text.clone(),
        TokenValue::String(text) => string(text),
        TokenValue::FontWeight(w) | TokenValue::Number(w) => fmt_num(*w),
        TokenValue::Duration(d) => format!("{}{}", fmt_num(d.value), d.unit_str()),
        TokenValue::CubicBezier(p) => cubic_bezier(p),
        // CSS has no dash-array for borders; a custom dash pattern is shown as `dashed`.
        TokenValue::StrokeStyle(StrokeStyle::Keyword(k)) => k.clone(),
        TokenValue::StrokeStyle(StrokeStyle::Dashed { .. }) => "dashed".to_string(),
        TokenValue::Composite(c) => shorthand(c.ty, |key| c.get(key).map(sub).unwrap_or_default()),
        TokenValue::Shadow(layers) => layers
            .iter()
            .map(|item| {
                let l = match item {
                    Item::Alias(t) => return sub(&TokenValue::Alias(t.clone())),
                    Item::Literal(l) => l,
                };
                let inset = if l.inset { "inset " } else { "" };
                format!(
                    "{inset}{} {} {} {} {}",
                    sub(&l.offset_x),
                    sub(&l.offset_y),
                    sub(&l.blur),
                    sub(&l.spread),
                    sub(&l.color)
                )
            })
            .collect::<Vec<_>>()
            .join(", "),
        TokenValue::Gradient(stops) => format!(
            "linear-gradient(90deg, {})",
            gradient_stops(stops, set, refs, 0).join(", ")
        ),
    }
}

/// The `{references}` inside a string, each with its byte range.
pub fn references_in(text: &str) -> Vec<(std::ops::Range<usize>, &str)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find('{').map(|i| from + i) {
        let Some(close) = text[open + 1..].find(['{', '}']).map(|i| open + 1 + i) else {
            break;
        };
        if text.as_bytes()[close] == b'{' {
            from = close;
            continue;
        }
        let target = &text[open + 1..close];
        if !target.trim().is_empty() && target.trim() == target {
            out.push((open..close + 1, target));
        }
        from = close + 1;
    }
    out
}

/// True when a string holds `{references}`.
pub fn has_references(text: &str) -> bool {
    !references_in(text).is_empty()
}

/// How deep references inside strings may lead to strings with references.
pub const MAX_STRING_DEPTH: usize = 8;

/// A string with each `{reference}` replaced by the CSS of what it names:
/// `var(--…)` or the resolved value, as `refs` asks. `None` when a
/// reference names nothing, or strings refer to strings more than
/// [`MAX_STRING_DEPTH`] deep (a loop among them included).
pub fn interpolate(text: &str, set: &TokenSet, refs: Refs, depth: usize) -> Option<String> {
    if depth > MAX_STRING_DEPTH {
        return None;
    }
    let mut out = String::new();
    let mut at = 0;
    for (range, target) in references_in(text) {
        out.push_str(&text[at..range.start]);
        let piece = match refs {
            Refs::Var => {
                set.get(target)?;
                var(set, target)
            }
            Refs::Resolve => {
                let token = set.get(target)?;
                match set.resolve(&token.value)?.as_ref() {
                    TokenValue::String(inner) if has_references(inner) => {
                        let inner = interpolate(inner, set, refs, depth + 1)?;
                        match is_css_value(&inner) {
                            true => inner,
                            false => return None,
                        }
                    }
                    resolved => value(resolved, set, refs),
                }
            }
        };
        out.push_str(&piece);
        at = range.end;
    }
    out.push_str(&text[at..]);
    Some(out)
}

/// True when `text` reads as a CSS value any property could take apart
/// from its meaning: identifiers, numbers with or without a unit, `#`
/// colours and functions of those (balanced), separated by spaces, commas
/// and slashes. Nothing that could end a declaration or a rule, open a
/// string or a comment, or reach outside a `<style>` element.
pub fn is_css_value(text: &str) -> bool {
    let mut depth = 0usize;
    let ok = text.chars().all(|c| match c {
        '(' => {
            depth += 1;
            true
        }
        ')' => match depth.checked_sub(1) {
            Some(d) => {
                depth = d;
                true
            }
            None => false,
        },
        c => c.is_alphanumeric() || " -+._%#,/*".contains(c),
    });
    // No function that loads or reads from elsewhere.
    let lower = text.to_lowercase();
    let fetches = FETCHING_FUNCTIONS.iter().any(|f| {
        lower
            .match_indices(f)
            .any(|(i, _)| !lower[..i].ends_with(|c: char| c.is_alphanumeric() || c == '-'))
    });
    ok && !fetches
        && depth == 0
        && !text.trim().is_empty()
        && !text.contains("/*")
        && !text.contains("*/")
}

/// CSS functions that load a resource or read the document: never in a
/// value written from a token's text.
const FETCHING_FUNCTIONS: &[&str] = &[
    "url(",
    "src(",
    "image(",
    "image-set(",
    "cross-fade(",
    "element(",
    "attr(",
    "env(",
    "expression(",
];

/// The colour stops of a gradient; an aliased element is replaced by the
/// stops of the gradient it names (a `var()` cannot stand for stops).
fn gradient_stops(
    stops: &[Item<GradientStop>],
    set: &TokenSet,
    refs: Refs,
    depth: usize,
) -> Vec<String> {
    let mut out = Vec::new();
    for item in stops {
        match item {
            Item::Alias(t) if depth < 8 => {
                if let Some(TokenValue::Gradient(inner)) =
                    set.resolve(&TokenValue::Alias(t.clone())).as_deref()
                {
                    out.extend(gradient_stops(inner, set, refs, depth + 1));
                }
            }
            Item::Alias(_) => {}
            Item::Literal(s) => {
                let pos = match set.resolve(&s.position).as_deref() {
                    Some(TokenValue::Number(n)) => format!("{}%", fmt_num(round(n * 100.0, 4))),
                    _ => String::new(),
                };
                out.push(
                    format!("{} {pos}", value(&s.color, set, refs))
                        .trim_end()
                        .to_string(),
                );
            }
        }
    }
    out
}

/// The CSS shorthand of a composite, from its parts' CSS values: CSS's own
/// order for `border`, `transition` and `font`, which is not DTCG's.
pub fn shorthand(ty: TokenType, part: impl Fn(&str) -> String) -> String {
    match ty {
        TokenType::Border => format!("{} {} {}", part("width"), part("style"), part("color")),
        TokenType::Transition => format!(
            "{} {} {}",
            part("duration"),
            part("timingFunction"),
            part("delay")
        ),
        TokenType::Typography => format!(
            "{} {}/{} {}",
            part("fontWeight"),
            part("fontSize"),
            part("lineHeight"),
            part("fontFamily")
        ),
        _ => String::new(),
    }
}

/// The shorthand of a composite whose parts are custom properties named
/// `--{name}-{suffix}`, so overriding one part changes the shorthand too.
pub fn shorthand_of_parts(ty: TokenType, name: &str) -> String {
    shorthand(ty, |key| {
        let part = ty.parts().iter().find(|p| p.key == key);
        format!("var(--{name}-{})", part.map_or(key, |p| p.css))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The written-in-place names equal the plain definition: each
    /// segment's kebab case, the empty ones left out, joined by `-`.
    #[test]
    fn css_names_in_place_equal_segments_joined() {
        let segments = [
            "color",
            "brandBlue",
            "500",
            "",
            "--",
            "Body Text",
            "ÄpfelGrün",
            "x2Large",
            "İstanbul",
            "ß",
            "a_b-c",
            "ROOT",
            ROOT,
            "😀",
            "Σίσυφος",
            "HTTPServer",
            "2xl",
        ];
        for a in segments {
            for b in segments {
                for c in ["", "Z", "ǅungla"] {
                    let path: Vec<String> = [a, b, c].iter().map(|s| s.to_string()).collect();
                    let plain = path
                        .iter()
                        .filter(|s| s.as_str() != ROOT)
                        .map(|s| kebab(s))
                        .filter(|s| !s.is_empty())
                        .collect::<Vec<_>>()
                        .join("-");
                    assert_eq!(css_name(&path), plain, "{path:?}");
                }
            }
        }
    }

    #[test]
    fn css_names_are_kebab_case_paths() {
        let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            css_name(&path(&["color", "brandBlue", "500"])),
            "color-brand-blue-500"
        );
        assert_eq!(css_name(&path(&["font", "Body Text"])), "font-body-text");
        assert_eq!(css_name(&path(&["space", "2xl"])), "space-2xl");
        assert_eq!(css_name(&path(&["a_b"])), "a-b");
    }

    #[test]
    fn only_plain_css_text_is_written_unquoted() {
        assert!(is_css_value("inset 0 0 0 1px"));
        assert!(is_css_value("0 1px 2px rgb(0 0 0 / 0.5), 0 0 1px #000"));
        assert!(is_css_value("calc(48rem - 0.02px)"));
        for hostile in [
            "1px; } body { color: red",
            "x</style><script>",
            "url(evil.png)",
            "0 0 image-set(a)",
            "attr(title)",
            "a /* b",
            "(min-width: 1px)",
            "\"quoted\"",
            "calc(1px",
            "",
        ] {
            assert!(!is_css_value(hostile), "{hostile}");
        }
        assert!(is_css_value("myurl(x)"), "only the functions themselves");
    }

    #[test]
    fn css_strings_cannot_end_the_declaration() {
        assert_eq!(string("a\"; } body { x"), "\"a\\\"; } body { x\"");
        assert_eq!(string("</style>"), "\"\\3c /style\\3e \"");
    }
}
