//! CSS values of tokens, shared by tokens.css, spec.json (`value`) and the
//! HTML pages. Aliases are written as `var(--…)` references or resolved to
//! literals, as the caller asks.

use super::escape;
use crate::spec::brand::css_name;
use crate::spec::tokens::{
    fmt_num, round, Color, Component, GradientStop, Item, StrokeStyle, TokenSet, TokenType,
    TokenValue,
};

/// How aliases are written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Refs {
    /// `var(--color-brand)`, as tokens.css does.
    Var,
    /// The resolved literal, as spec.json's `value` does.
    Resolve,
}

/// Generic font families, written without quotes.
const GENERIC_FAMILIES: &[&str] = &[
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
        "srgb" => srgb(c),
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
    let mut chars = name.chars();
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
                escape::css_string(n)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The CSS value of a token value. `Refs::Var` keeps aliases as references.
pub fn value(v: &TokenValue, set: &TokenSet, refs: Refs) -> String {
    let sub = |v: &TokenValue| value(v, set, refs);
    match v {
        TokenValue::Alias(target) => match refs {
            Refs::Var => {
                let path: Vec<String> = target.split('.').map(String::from).collect();
                format!("var(--{})", css_name(&path))
            }
            Refs::Resolve => set
                .resolve(v)
                .map(|r| value(r, set, refs))
                .unwrap_or_default(),
        },
        TokenValue::Color(c) => color(c),
        TokenValue::Dimension(d) => format!("{}{}", fmt_num(d.value), d.unit.as_str()),
        TokenValue::FontFamily(names) => font_family(names),
        TokenValue::FontWeight(w) | TokenValue::Number(w) => fmt_num(*w),
        TokenValue::Duration(d) => format!("{}{}", fmt_num(d.value), d.unit_str()),
        TokenValue::CubicBezier(p) => format!(
            "cubic-bezier({}, {}, {}, {})",
            fmt_num(p[0]),
            fmt_num(p[1]),
            fmt_num(p[2]),
            fmt_num(p[3])
        ),
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
                    set.resolve(&TokenValue::Alias(t.clone()))
                {
                    out.extend(gradient_stops(inner, set, refs, depth + 1));
                }
            }
            Item::Alias(_) => {}
            Item::Literal(s) => {
                let pos = match set.resolve(&s.position) {
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
