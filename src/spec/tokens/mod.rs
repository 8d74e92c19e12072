//! tokens.json: W3C Design Tokens (DTCG) format 2025.10, parsed into a flat,
//! typed, document-ordered token set with aliases kept as references.
//!
//! - [`extends`]: `$extends` and `$ref` rewrite the document first, within a budget.
//! - [`tree`]: walk the groups, give every token its declared, inherited or
//!   aliased `$type`, and parse each `$value`.
//! - [`values`]: one parser per token type.
//! - [`css`]: the CSS form: custom property names, the properties a token
//!   yields, a value's CSS text.
//! - [`refs`]: aliases must resolve, to the right type, without a cycle and
//!   within [`limits::MAX_ALIAS_DEPTH`](super::limits::MAX_ALIAS_DEPTH) links.
//!
//! Every problem is reported at once, and every step is linear in the size
//! of the document.

pub mod css;
pub mod deprecation;
pub mod extends;
pub mod modes;
pub mod refs;
pub mod resolver;
mod tolerant;
pub mod tree;
pub mod values;

pub use tree::parse_tokens;
pub use values::{fmt_num, round, NAMED_WEIGHTS};

use crate::color;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// The token types marque understands, with their `$type` spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum TokenType {
    Color,
    Dimension,
    FontFamily,
    FontWeight,
    Duration,
    CubicBezier,
    Number,
    StrokeStyle,
    Border,
    Transition,
    Shadow,
    Gradient,
    Typography,
    /// Not a DTCG 2025.10 type, but one real exports carry (a text or an
    /// identifier); read with a warning.
    String,
}

impl TokenType {
    pub const ALL: [TokenType; 14] = [
        TokenType::Color,
        TokenType::Dimension,
        TokenType::FontFamily,
        TokenType::FontWeight,
        TokenType::Duration,
        TokenType::CubicBezier,
        TokenType::Number,
        TokenType::StrokeStyle,
        TokenType::Border,
        TokenType::Transition,
        TokenType::Shadow,
        TokenType::Gradient,
        TokenType::Typography,
        TokenType::String,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            TokenType::Color => "color",
            TokenType::Dimension => "dimension",
            TokenType::FontFamily => "fontFamily",
            TokenType::FontWeight => "fontWeight",
            TokenType::Duration => "duration",
            TokenType::CubicBezier => "cubicBezier",
            TokenType::Number => "number",
            TokenType::StrokeStyle => "strokeStyle",
            TokenType::Border => "border",
            TokenType::Transition => "transition",
            TokenType::Shadow => "shadow",
            TokenType::Gradient => "gradient",
            TokenType::Typography => "typography",
            TokenType::String => "string",
        }
    }

    pub fn parse(s: &str) -> Option<TokenType> {
        TokenType::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// The parts of a composite type whose value is an object of named
    /// parts (border, transition, typography): the one table that parsing,
    /// references, tokens.css, Figma and spec.json all read. Empty for
    /// every other type (shadow and gradient are lists of layers or stops).
    pub fn parts(self) -> &'static [Part] {
        match self {
            TokenType::Border => BORDER,
            TokenType::Transition => TRANSITION,
            TokenType::Typography => TYPOGRAPHY,
            _ => &[],
        }
    }
}

/// One part of a composite token.
#[derive(Debug, PartialEq, Eq)]
pub struct Part {
    /// The member's name in DTCG 2025.10 (`fontSize`).
    pub key: &'static str,
    /// The suffix of its custom property in tokens.css (`font-size`).
    pub css: &'static str,
    pub ty: TokenType,
}

const fn part(key: &'static str, css: &'static str, ty: TokenType) -> Part {
    Part { key, css, ty }
}

const BORDER: &[Part] = &[
    part("color", "color", TokenType::Color),
    part("width", "width", TokenType::Dimension),
    part("style", "style", TokenType::StrokeStyle),
];

const TRANSITION: &[Part] = &[
    part("duration", "duration", TokenType::Duration),
    part("delay", "delay", TokenType::Duration),
    part("timingFunction", "timing-function", TokenType::CubicBezier),
];

const TYPOGRAPHY: &[Part] = &[
    part("fontFamily", "font-family", TokenType::FontFamily),
    part("fontSize", "font-size", TokenType::Dimension),
    part("fontWeight", "font-weight", TokenType::FontWeight),
    part("letterSpacing", "letter-spacing", TokenType::Dimension),
    part("lineHeight", "line-height", TokenType::Number),
];

/// The value of a border, transition or typography token: one value per
/// part of [`TokenType::parts`], in its order (so they cannot disagree).
#[derive(Debug, Clone, PartialEq)]
pub struct Composite {
    pub ty: TokenType,
    values: Vec<TokenValue>,
    /// Members outside the type's table that an export carried
    /// (`WebkitFontSmoothing`): kept in spec.json, left out of CSS.
    pub extra: Vec<(String, Value)>,
}

impl Composite {
    /// A composite of `ty` from one value per part, in the table's order.
    pub fn new(ty: TokenType, values: Vec<TokenValue>) -> Option<Composite> {
        (values.len() == ty.parts().len() && !values.is_empty()).then_some(Composite {
            ty,
            values,
            extra: Vec::new(),
        })
    }

    /// Each part with its value.
    pub fn parts(&self) -> impl Iterator<Item = (&'static Part, &TokenValue)> {
        self.ty.parts().iter().zip(&self.values)
    }

    /// The value of the part named `key` (its DTCG name).
    pub fn get(&self, key: &str) -> Option<&TokenValue> {
        self.parts().find(|(p, _)| p.key == key).map(|(_, v)| v)
    }

    /// Replaces the value of the part named `key`, if the type has it.
    pub fn set(&mut self, key: &str, value: TokenValue) {
        if let Some(i) = self.ty.parts().iter().position(|p| p.key == key) {
            self.values[i] = value;
        }
    }
}

/// A colour component: a number or the keyword `none`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Component {
    Num(f64),
    None,
}

impl Component {
    pub fn value(self) -> f64 {
        match self {
            Component::Num(n) => n,
            Component::None => 0.0,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Color {
    pub space: String,
    pub components: [Component; 3],
    pub alpha: f64,
    /// The author's sRGB hex, checked against the components when parsed.
    pub hex: Option<String>,
}

impl Color {
    /// Gamma-encoded sRGB, clipped to the gamut.
    pub fn srgb(&self) -> [f64; 3] {
        color::to_srgb(&self.space, self.components.map(Component::value)).unwrap_or([0.0; 3])
    }

    /// The 6-digit sRGB hex every surface shows for this colour (alpha aside):
    /// the author's `hex` when given (it matches the components), else the
    /// components converted to sRGB and clipped.
    pub fn srgb_hex(&self) -> String {
        match &self.hex {
            Some(h) => h.clone(),
            None => color::hex(self.srgb(), 1.0),
        }
    }

    /// True when the colour lies outside sRGB's colour space (so `srgb_hex` is a fallback).
    pub fn is_wide(&self) -> bool {
        !matches!(self.space.as_str(), "srgb" | "hsl" | "hwb")
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dimension {
    pub value: f64,
    pub unit: DimUnit,
}

/// A dimension's unit: DTCG 2025.10's `px` and `rem`, and the CSS
/// relative lengths real exports carry (read with a warning, see
/// `values.rs`), which have no fixed size in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DimUnit {
    Px,
    Rem,
    Em,
    Percent,
    Vw,
    Vh,
}

impl DimUnit {
    pub fn as_str(self) -> &'static str {
        match self {
            DimUnit::Px => "px",
            DimUnit::Rem => "rem",
            DimUnit::Em => "em",
            DimUnit::Percent => "%",
            DimUnit::Vw => "vw",
            DimUnit::Vh => "vh",
        }
    }

    /// True for `px` and `rem`, the units of DTCG 2025.10.
    pub fn is_strict(self) -> bool {
        matches!(self, DimUnit::Px | DimUnit::Rem)
    }
}

impl Dimension {
    /// Pixels, reading 1rem as 16px (the browser default); `None` for a
    /// length relative to its element or the viewport.
    pub fn px(&self) -> Option<f64> {
        match self.unit {
            DimUnit::Px => Some(self.value),
            DimUnit::Rem => Some(self.value * 16.0),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Duration {
    pub value: f64,
    pub unit: DurUnit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DurUnit {
    Ms,
    S,
}

impl Duration {
    pub fn ms(&self) -> f64 {
        match self.unit {
            DurUnit::Ms => self.value,
            DurUnit::S => self.value * 1000.0,
        }
    }

    pub fn unit_str(&self) -> &'static str {
        match self.unit {
            DurUnit::Ms => "ms",
            DurUnit::S => "s",
        }
    }
}

/// A token value, or part of a composite value. Any part may be an alias
/// (`{group.token}`), kept as written so surfaces can output references.
#[derive(Debug, Clone, PartialEq)]
pub enum TokenValue {
    Alias(String),
    /// An alias with a numeric `alpha` written beside it, as GitHub Primer
    /// writes a translucent colour (DESIGN 14): the colour the alias
    /// resolves to, in whatever context, with this alpha in place of its
    /// own.
    AliasWithAlpha {
        target: String,
        alpha: f64,
    },
    Color(Color),
    Dimension(Dimension),
    FontFamily(Vec<String>),
    FontWeight(f64),
    Duration(Duration),
    CubicBezier([f64; 4]),
    Number(f64),
    /// A keyword (`solid`, `dashed`, …) or `{dashArray, lineCap}`.
    StrokeStyle(StrokeStyle),
    /// A border, transition or typography value.
    Composite(Composite),
    Shadow(Vec<Item<ShadowLayer>>),
    Gradient(Vec<Item<GradientStop>>),
    /// A `string` token's text.
    String(String),
}

impl TokenValue {
    /// The token an alias names, with or without an alpha of its own.
    pub fn alias_target(&self) -> Option<&str> {
        match self {
            TokenValue::Alias(t) | TokenValue::AliasWithAlpha { target: t, .. } => Some(t),
            _ => None,
        }
    }

    /// `self` with `alpha` in place of its own when it is a colour; other
    /// values as they are (validation lets an alpha stand only on colours).
    pub fn with_alpha(&self, alpha: f64) -> TokenValue {
        match self {
            TokenValue::Color(c) => TokenValue::Color(Color { alpha, ..c.clone() }),
            other => other.clone(),
        }
    }
}

/// An element of a shadow or gradient array: written out, or an alias to a
/// token of the same type whose elements stand in its place.
#[derive(Debug, Clone, PartialEq)]
pub enum Item<T> {
    Literal(T),
    Alias(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum StrokeStyle {
    Keyword(String),
    Dashed {
        dash_array: Vec<TokenValue>,
        line_cap: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct ShadowLayer {
    pub color: TokenValue,
    pub offset_x: TokenValue,
    pub offset_y: TokenValue,
    pub blur: TokenValue,
    pub spread: TokenValue,
    pub inset: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct GradientStop {
    pub color: TokenValue,
    pub position: TokenValue,
}

/// Where a token is written: its file in the brand folder (`None`:
/// tokens.json) and its pointer there.
pub type WrittenAt = (Option<String>, String);

/// One design token.
#[derive(Debug, Clone)]
pub struct Token {
    /// Path segments from the root group, e.g. `["color", "brand", "primary"]`.
    pub path: Vec<String>,
    pub ty: TokenType,
    pub value: TokenValue,
    pub description: Option<String>,
    /// `$deprecated`: `true`, or an explanation.
    pub deprecated: Option<Value>,
    pub extensions: Option<Value>,
    /// The file it is written in, relative to the brand folder (`None`:
    /// tokens.json; a resolver brand's tokens come from several files).
    pub file: Option<String>,
    /// JSON Pointer of the token object in its file.
    pub pointer: String,
}

impl Token {
    /// The dotted name used in references: `color.brand.primary`.
    pub fn name(&self) -> String {
        self.path.join(".")
    }
}

/// Every token of a brand in document order, with lookup by dotted name.
#[derive(Debug, Clone, Default)]
pub struct TokenSet {
    pub tokens: Vec<Token>,
    /// Groups with their `$description`, `$type`, `$extensions` and `$deprecated`.
    pub groups: Vec<Group>,
    /// Tokens that exist but could not be parsed (their error is already
    /// reported), so references to them add no second error.
    pub unparsed: HashSet<String>,
    /// A resolver brand's modifiers, each context with what differs from
    /// these tokens (the default permutation); empty for tokens.json.
    pub modes: Vec<modes::Modifier>,
    /// The prefix of every custom property the tokens publish as (brand.json
    /// `naming.prefix`, `ds` for `--ds-color-…`), without `--` or the hyphen
    /// after it; empty for none. See [`TokenSet::var_name`].
    pub prefix: String,
    by_name: HashMap<String, usize>,
    /// For each token, the token whose literal value its alias chain ends at
    /// (itself when it is no alias); `None` for a broken chain.
    resolved: Vec<Option<usize>>,
    /// For each token, the alpha written beside the alias nearest it on its
    /// chain: the alpha its colour is painted with, in place of its own.
    alpha: Vec<Option<f64>>,
    /// Each context's whole set ([`TokenSet::context`]), made once when a
    /// surface first asks: five surfaces read every context, and each set
    /// copies and resolves every token again.
    contexts: modes::ContextSets,
}

#[derive(Debug, Clone)]
pub struct Group {
    pub path: Vec<String>,
    pub description: Option<String>,
    pub ty: Option<TokenType>,
    pub extensions: Option<Value>,
    /// `$deprecated` on the group: `true`, or an explanation.
    pub deprecated: Option<Value>,
}

/// Parses a `{a.b.c}` reference into its dotted target.
pub fn parse_reference(s: &str) -> Option<&str> {
    let inner = s.strip_prefix('{')?.strip_suffix('}')?;
    (!inner.is_empty() && !inner.contains(['{', '}'])).then_some(inner)
}

impl TokenSet {
    /// A set of parsed tokens in document order; aliases are resolved once, here.
    pub fn new(tokens: Vec<Token>, groups: Vec<Group>, unparsed: HashSet<String>) -> TokenSet {
        let by_name: HashMap<String, usize> = tokens
            .iter()
            .enumerate()
            .map(|(i, t)| (t.name(), i))
            .collect();
        let mut set = TokenSet {
            tokens,
            groups,
            unparsed,
            modes: Vec::new(),
            prefix: String::new(),
            by_name,
            resolved: Vec::new(),
            alpha: Vec::new(),
            contexts: modes::ContextSets::default(),
        };
        let chains = refs::resolve_chains(&set);
        set.resolved = chains
            .iter()
            .map(|c| match c {
                refs::Chain::End { at, .. } => Some(*at),
                _ => None,
            })
            .collect();
        // Nearest first: a link's own alpha, else the alpha of the token it
        // links to, which is one link nearer the end (so settled before it).
        let mut by_depth: Vec<(usize, usize)> = chains
            .iter()
            .enumerate()
            .filter_map(|(i, c)| match c {
                refs::Chain::End { depth, .. } => Some((*depth, i)),
                _ => None,
            })
            .collect();
        by_depth.sort_unstable();
        set.alpha = vec![None; set.tokens.len()];
        for (_, i) in by_depth {
            set.alpha[i] = match &set.tokens[i].value {
                TokenValue::AliasWithAlpha { alpha, .. } => Some(*alpha),
                TokenValue::Alias(t) => set.index_of(t).and_then(|j| set.alpha[j]),
                _ => None,
            };
        }
        set
    }

    pub fn get(&self, name: &str) -> Option<&Token> {
        self.by_name.get(name).map(|&i| &self.tokens[i])
    }

    pub(crate) fn index_of(&self, name: &str) -> Option<usize> {
        self.by_name.get(name).copied()
    }

    /// Follows aliases to a literal value. Returns `None` for a dangling
    /// reference, a cycle or an over-long chain (all validation errors, so a
    /// published brand never has one). Constant time: chains are resolved
    /// when the set is made.
    ///
    /// A colour reached through an alias with an alpha beside it is a new
    /// value (the colour at that alpha), so the answer is borrowed only
    /// where the set holds it as it is.
    pub fn resolve<'a>(&'a self, value: &'a TokenValue) -> Option<Cow<'a, TokenValue>> {
        let (target, alpha) = match value {
            TokenValue::Alias(target) => (target, None),
            TokenValue::AliasWithAlpha { target, alpha } => (target, Some(*alpha)),
            other => return Some(Cow::Borrowed(other)),
        };
        let i = self.index_of(target)?;
        let end = &self.tokens[(*self.resolved.get(i)?)?].value;
        Some(match alpha.or(self.alpha[i]) {
            Some(a) => Cow::Owned(end.with_alpha(a)),
            None => Cow::Borrowed(end),
        })
    }

    /// The literal value a `{group.token}` reference resolves to.
    pub fn resolve_reference(&self, reference: &str) -> Option<Cow<'_, TokenValue>> {
        self.resolve(&self.get(parse_reference(reference)?)?.value)
    }

    /// The type a reference resolves to.
    pub fn type_of_reference(&self, reference: &str) -> Option<TokenType> {
        parse_reference(reference)
            .and_then(|n| self.get(n))
            .map(|t| t.ty)
    }
}

/// The name of a group's own token.
pub const ROOT: &str = "$root";
