//! tokens.json: W3C Design Tokens (DTCG) format 2025.10, parsed into a flat,
//! typed, document-ordered token set with aliases kept as references.
//!
//! Parsing happens in three passes so that every problem is reported at once:
//! walk the tree collecting tokens with their declared or inherited `$type`;
//! give alias tokens without a type the type of what they point at; then
//! parse each `$value` by its type. The older string forms most tools still
//! emit (`"#0b5fff"`, `"16px"`, `"120ms"`) are accepted with a warning and
//! normalised to the 2025.10 objects.

use super::diag::FileDiags;
use super::json::join;
use crate::color;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// The token types marque understands, with their `$type` spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
}

impl TokenType {
    pub const ALL: [TokenType; 13] = [
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
        }
    }

    pub fn parse(s: &str) -> Option<TokenType> {
        TokenType::ALL.into_iter().find(|t| t.as_str() == s)
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
    pub hex: Option<String>,
}

impl Color {
    /// Gamma-encoded sRGB, clipped to the gamut.
    pub fn srgb(&self) -> [f64; 3] {
        color::to_srgb(&self.space, self.components.map(Component::value)).unwrap_or([0.0; 3])
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Dimension {
    pub value: f64,
    pub unit: DimUnit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DimUnit {
    Px,
    Rem,
}

impl DimUnit {
    pub fn as_str(self) -> &'static str {
        match self {
            DimUnit::Px => "px",
            DimUnit::Rem => "rem",
        }
    }
}

impl Dimension {
    /// Pixels, reading 1rem as 16px (the browser default).
    pub fn px(&self) -> f64 {
        match self.unit {
            DimUnit::Px => self.value,
            DimUnit::Rem => self.value * 16.0,
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
    Color(Color),
    Dimension(Dimension),
    FontFamily(Vec<String>),
    FontWeight(f64),
    Duration(Duration),
    CubicBezier([f64; 4]),
    Number(f64),
    /// A keyword (`solid`, `dashed`, …) or `{dashArray, lineCap}`.
    StrokeStyle(StrokeStyle),
    Border {
        color: Box<TokenValue>,
        width: Box<TokenValue>,
        style: Box<TokenValue>,
    },
    Transition {
        duration: Box<TokenValue>,
        delay: Box<TokenValue>,
        timing_function: Box<TokenValue>,
    },
    Shadow(Vec<Item<ShadowLayer>>),
    Gradient(Vec<Item<GradientStop>>),
    Typography(Typography),
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

#[derive(Debug, Clone, PartialEq)]
pub struct Typography {
    pub font_family: Box<TokenValue>,
    pub font_size: Box<TokenValue>,
    pub font_weight: Box<TokenValue>,
    pub letter_spacing: Box<TokenValue>,
    pub line_height: Box<TokenValue>,
}

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
    /// JSON Pointer of the token object in tokens.json.
    pub pointer: String,
    /// Where the token starts in tokens.json.
    pub pos: super::json::Pos,
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
    /// Group-level `$description`s, keyed by dotted group path, kept for spec.json.
    pub groups: Vec<Group>,
    /// Tokens that exist but could not be parsed (their error is already
    /// reported), so references to them add no second error.
    pub unparsed: std::collections::HashSet<String>,
    by_name: HashMap<String, usize>,
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

const MAX_ALIAS_DEPTH: usize = 32;

impl TokenSet {
    pub fn get(&self, name: &str) -> Option<&Token> {
        self.by_name.get(name).map(|&i| &self.tokens[i])
    }

    /// Follows aliases until a literal value. Returns `None` for a dangling
    /// reference or a cycle (both are validation errors, so a published
    /// brand never has either).
    pub fn resolve<'a>(&'a self, value: &'a TokenValue) -> Option<&'a TokenValue> {
        let mut v = value;
        for _ in 0..MAX_ALIAS_DEPTH {
            match v {
                TokenValue::Alias(target) => v = &self.get(target)?.value,
                other => return Some(other),
            }
        }
        None
    }

    /// The literal value a `{group.token}` reference resolves to.
    pub fn resolve_reference(&self, reference: &str) -> Option<&TokenValue> {
        self.resolve(&self.get(parse_reference(reference)?)?.value)
    }

    /// The type a reference resolves to.
    pub fn type_of_reference(&self, reference: &str) -> Option<TokenType> {
        parse_reference(reference)
            .and_then(|n| self.get(n))
            .map(|t| t.ty)
    }
}

/// The type a token gets from its group chain.
#[derive(Debug, Clone, Copy)]
enum Inherit {
    Unset,
    Type(TokenType),
    /// A `$type` on the way was invalid (already reported).
    Invalid,
}

impl Inherit {
    fn or(self, own: Result<Option<TokenType>, ()>) -> Inherit {
        match own {
            Ok(Some(t)) => Inherit::Type(t),
            Ok(None) => self,
            Err(()) => Inherit::Invalid,
        }
    }
}

struct RawToken {
    path: Vec<String>,
    ty: Inherit,
    value: Value,
    description: Option<String>,
    deprecated: Option<Value>,
    extensions: Option<Value>,
    pointer: String,
}

/// Parses tokens.json, pushing every problem into `diags`.
pub fn parse_tokens(doc: &Value, diags: &mut FileDiags<'_>) -> TokenSet {
    let doc = &preprocess(doc, diags);
    let Some(root) = doc.as_object() else {
        diags.error("", "tokens.json must be a JSON object of token groups");
        return TokenSet::default();
    };
    let mut raw = Vec::new();
    let mut groups = Vec::new();
    walk_group(
        root,
        &mut Vec::new(),
        Inherit::Unset,
        "",
        &mut raw,
        &mut groups,
        diags,
    );
    let mut unparsed: std::collections::HashSet<String> = raw
        .iter()
        .filter(|t| matches!(t.ty, Inherit::Invalid))
        .map(|t| t.path.join("."))
        .collect();

    // Pass 2: aliases without a declared type take their target's type.
    let mut types: HashMap<String, Option<TokenType>> = raw
        .iter()
        .map(|t| {
            (
                t.path.join("."),
                if let Inherit::Type(ty) = t.ty {
                    Some(ty)
                } else {
                    None
                },
            )
        })
        .collect();
    let targets: HashMap<String, String> = raw
        .iter()
        .filter_map(|t| {
            let target = t.value.as_str().and_then(parse_reference)?;
            Some((t.path.join("."), target.to_string()))
        })
        .collect();
    for t in &raw {
        let name = t.path.join(".");
        if types[&name].is_some() {
            continue;
        }
        let mut cur = name.clone();
        let mut found = None;
        for _ in 0..MAX_ALIAS_DEPTH {
            match targets.get(&cur) {
                Some(next) => match types.get(next) {
                    Some(Some(ty)) => {
                        found = Some(*ty);
                        break;
                    }
                    Some(None) => cur = next.clone(),
                    None => break,
                },
                None => break,
            }
        }
        types.insert(name, found);
    }

    // Pass 3: typed values.
    let mut set = TokenSet {
        groups,
        ..TokenSet::default()
    };
    for t in raw {
        let name = t.path.join(".");
        let value_pointer = join(&t.pointer, "$value");
        if unparsed.contains(&name) {
            continue;
        }
        let Some(ty) = types[&name] else {
            let target = t.value.as_str().and_then(parse_reference);
            if target.is_some_and(|n| unparsed.contains(n)) {
                unparsed.insert(name);
                continue;
            }
            unparsed.insert(name.clone());
            match target {
                Some(target) if !types.contains_key(target) => diags.error(
                    &value_pointer,
                    format!("reference `{{{target}}}` does not name a token"),
                ),
                Some(_) => diags.error(
                    &value_pointer,
                    "cannot tell this token's type: its alias chain has no `$type` (or is a cycle)",
                ),
                None => diags.error(
                    &t.pointer,
                    format!("token `{name}` has no `$type`, on itself or an enclosing group"),
                ),
            }
            continue;
        };
        let value = parse_value(ty, &t.value, &value_pointer, diags);
        let Some(value) = value else {
            unparsed.insert(name);
            continue;
        };
        set.by_name.insert(name, set.tokens.len());
        set.tokens.push(Token {
            path: t.path,
            ty,
            value,
            description: t.description,
            deprecated: t.deprecated,
            extensions: t.extensions,
            pos: diags.index.key(&t.pointer),
            pointer: t.pointer,
        });
    }
    set.unparsed = unparsed;
    check_references(&set, diags);
    set
}

fn check_name(name: &str, pointer: &str, diags: &mut FileDiags<'_>) -> bool {
    if name.starts_with('$') {
        diags.error_at_key(pointer, format!("unknown property `{name}`: names starting with `$` are reserved by the DTCG format"));
        return false;
    }
    if name.is_empty() || name.contains(['{', '}', '.']) {
        diags.error_at_key(pointer, format!("invalid token or group name `{name}`: names must not be empty or contain `{{`, `}}` or `.`"));
        return false;
    }
    true
}

fn string_prop(
    obj: &Map<String, Value>,
    key: &str,
    pointer: &str,
    diags: &mut FileDiags<'_>,
) -> Option<String> {
    match obj.get(key) {
        None => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => {
            diags.error(&join(pointer, key), format!("`{key}` must be a string"));
            None
        }
    }
}

/// The `$type` an object declares: `Ok(None)` when it declares none, `Err`
/// when it declares an invalid one (reported here).
fn declared_type(
    obj: &Map<String, Value>,
    pointer: &str,
    diags: &mut FileDiags<'_>,
) -> Result<Option<TokenType>, ()> {
    let Some(v) = obj.get("$type") else {
        return Ok(None);
    };
    let p = join(pointer, "$type");
    match v.as_str().map(|s| (s, TokenType::parse(s))) {
        Some((_, Some(t))) => Ok(Some(t)),
        Some((s, None)) => {
            let known: Vec<&str> = TokenType::ALL.iter().map(|t| t.as_str()).collect();
            let hint = super::diag::closest(s, known.iter().copied())
                .map(|c| format!("; did you mean `{c}`?"))
                .unwrap_or_default();
            diags.error(&p, format!("unknown `$type` \"{s}\"{hint}"));
            Err(())
        }
        None => {
            diags.error(&p, "`$type` must be a string");
            Err(())
        }
    }
}

fn walk_group(
    obj: &Map<String, Value>,
    path: &mut Vec<String>,
    inherited: Inherit,
    pointer: &str,
    raw: &mut Vec<RawToken>,
    groups: &mut Vec<Group>,
    diags: &mut FileDiags<'_>,
) {
    let own_type = declared_type(obj, pointer, diags);
    let ty = inherited.or(own_type);
    let own_type = own_type.ok().flatten();
    if !path.is_empty() || obj.contains_key("$description") {
        groups.push(Group {
            path: path.clone(),
            description: string_prop(obj, "$description", pointer, diags),
            ty: own_type,
            extensions: obj.get("$extensions").cloned(),
            deprecated: obj.get("$deprecated").cloned(),
        });
    }
    for (key, child) in obj {
        let child_pointer = join(pointer, key);
        match key.as_str() {
            "$type" | "$description" | "$extensions" | "$deprecated" => continue,
            "$schema" if path.is_empty() => continue,
            // Resolved by `preprocess`; reaching here means it could not be.
            "$extends" => continue,
            _ => {}
        }
        // `$root` is a group's own token (DTCG 2025.10 §6.3), referenced as `{group.$root}`.
        if key != ROOT && !check_name(key, &child_pointer, diags) {
            continue;
        }
        let Some(child_obj) = child.as_object() else {
            diags.error(
                &child_pointer,
                format!("`{key}` must be a token (an object with `$value`) or a group (an object)"),
            );
            continue;
        };
        path.push(key.clone());
        if let Some(value) = child_obj.get("$value") {
            for k in child_obj.keys() {
                if !matches!(
                    k.as_str(),
                    "$value" | "$type" | "$description" | "$extensions" | "$deprecated"
                ) {
                    let msg = if k.starts_with('$') {
                        format!("unknown token property `{k}`")
                    } else {
                        format!("a token cannot contain `{k}`: tokens hold `$value`, groups hold tokens")
                    };
                    diags.error_at_key(&join(&child_pointer, k), msg);
                }
            }
            raw.push(RawToken {
                path: path.clone(),
                ty: ty.or(declared_type(child_obj, &child_pointer, diags)),
                value: value.clone(),
                description: string_prop(child_obj, "$description", &child_pointer, diags),
                deprecated: child_obj.get("$deprecated").cloned(),
                extensions: child_obj.get("$extensions").cloned(),
                pointer: child_pointer,
            });
        } else {
            walk_group(child_obj, path, ty, &child_pointer, raw, groups, diags);
        }
        path.pop();
    }
}

fn num(v: &Value) -> Option<f64> {
    v.as_f64().filter(|n| n.is_finite())
}

/// The name of a group's own token.
pub const ROOT: &str = "$root";

const MAX_REF_DEPTH: usize = 16;

/// Resolves the two DTCG features that rewrite the document before it is
/// read: group `$extends` (the referenced group's members, overridden by the
/// local ones) and JSON Pointer `$ref` objects. A `$ref` to a whole token
/// (or its `$value`) becomes a curly alias, so it stays a reference in every
/// surface; a `$ref` into part of a value becomes a copy of that part.
pub fn preprocess(doc: &Value, diags: &mut FileDiags<'_>) -> Value {
    let mut out = doc.clone();
    resolve_extends(doc, &mut out, "", 0, diags);
    let snapshot = out.clone();
    resolve_refs(&snapshot, &mut out, "", 0, diags);
    out
}

fn resolve_extends(
    doc: &Value,
    node: &mut Value,
    pointer: &str,
    depth: usize,
    diags: &mut FileDiags<'_>,
) {
    let Some(obj) = node.as_object_mut() else {
        return;
    };
    if obj.contains_key("$value") {
        return;
    }
    if let Some(target) = obj.remove("$extends") {
        let p = join(pointer, "$extends");
        let base = target
            .as_str()
            .and_then(parse_reference)
            .map(|t| {
                t.split('.')
                    .map(crate::spec::json::escape_token)
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .and_then(|path| doc.pointer(&format!("/{path}")).cloned());
        match base {
            Some(Value::Object(mut base))
                if depth < MAX_REF_DEPTH && !base.contains_key("$value") =>
            {
                let mut base_value = Value::Object(base.clone());
                resolve_extends(doc, &mut base_value, &p, depth + 1, diags);
                base = base_value.as_object().cloned().unwrap_or_default();
                for (k, v) in std::mem::take(obj) {
                    match (base.get_mut(&k), v) {
                        (Some(Value::Object(b)), Value::Object(local))
                            if !local.contains_key("$value") =>
                        {
                            for (lk, lv) in local {
                                b.insert(lk, lv);
                            }
                        }
                        (_, v) => {
                            base.insert(k, v);
                        }
                    }
                }
                *obj = base;
            }
            _ => diags.error(
                &p,
                "`$extends` must name a group, as {group.name}, without a cycle",
            ),
        }
    }
    let keys: Vec<String> = obj.keys().cloned().collect();
    for k in keys {
        if let Some(child) = obj.get_mut(&k) {
            resolve_extends(doc, child, &join(pointer, &k), depth, diags);
        }
    }
}

/// The dotted token name a pointer names, when it names a token or its `$value`.
fn token_name_of(doc: &Value, target: &str) -> Option<String> {
    let path = target.strip_suffix("/$value").unwrap_or(target);
    doc.pointer(path)?.get("$value")?;
    let segs: Vec<String> = path
        .trim_start_matches('/')
        .split('/')
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    Some(segs.join("."))
}

fn resolve_refs(
    doc: &Value,
    node: &mut Value,
    pointer: &str,
    depth: usize,
    diags: &mut FileDiags<'_>,
) {
    match node {
        Value::Object(obj) => {
            if let Some(Value::String(r)) = obj.get("$ref").cloned() {
                let p = join(pointer, "$ref");
                let target = r.strip_prefix('#').unwrap_or("\u{0}");
                // A token that is nothing but a `$ref` to another token is an alias token.
                let token_level = !pointer.contains("/$value");
                if let Some(name) = token_name_of(doc, target) {
                    let alias = Value::String(format!("{{{name}}}"));
                    obj.remove("$ref");
                    if token_level {
                        obj.insert("$value".into(), alias);
                    } else {
                        *node = alias;
                    }
                    return;
                }
                match doc.pointer(target) {
                    Some(v) if target.contains("/$value/") && depth < MAX_REF_DEPTH => {
                        let mut copy = v.clone();
                        resolve_refs(doc, &mut copy, pointer, depth + 1, diags);
                        *node = copy;
                    }
                    _ => diags.error(&p, format!("`$ref` \"{r}\" must be a JSON Pointer (#/…) to a token or to part of a token's $value")),
                }
                return;
            }
            let keys: Vec<String> = obj.keys().cloned().collect();
            for k in keys {
                if let Some(child) = obj.get_mut(&k) {
                    resolve_refs(doc, child, &join(pointer, &k), depth, diags);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter_mut().enumerate() {
                resolve_refs(doc, item, &format!("{pointer}/{i}"), depth, diags);
            }
        }
        _ => {}
    }
}

/// Parses one `$value` (or a part of a composite) of type `ty`.
fn parse_value(ty: TokenType, v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<TokenValue> {
    if let Some(s) = v.as_str() {
        if let Some(target) = parse_reference(s) {
            return Some(TokenValue::Alias(target.to_string()));
        }
    }
    match ty {
        TokenType::Color => parse_color(v, p, diags).map(TokenValue::Color),
        TokenType::Dimension => parse_dimension(v, p, diags).map(TokenValue::Dimension),
        TokenType::Duration => parse_duration(v, p, diags).map(TokenValue::Duration),
        TokenType::Number => match num(v) {
            Some(n) => Some(TokenValue::Number(n)),
            None => {
                diags.error(p, "a number token's value must be a number");
                None
            }
        },
        TokenType::FontFamily => match v {
            Value::String(s) if !s.trim().is_empty() => {
                Some(TokenValue::FontFamily(vec![s.clone()]))
            }
            Value::Array(items)
                if !items.is_empty()
                    && items
                        .iter()
                        .all(|i| i.as_str().is_some_and(|s| !s.trim().is_empty())) =>
            {
                Some(TokenValue::FontFamily(
                    items
                        .iter()
                        .filter_map(|i| i.as_str().map(String::from))
                        .collect(),
                ))
            }
            _ => {
                diags.error(
                    p,
                    "a fontFamily value must be a font name or a non-empty array of font names",
                );
                None
            }
        },
        TokenType::FontWeight => parse_font_weight(v, p, diags).map(TokenValue::FontWeight),
        TokenType::CubicBezier => {
            let pts: Option<Vec<f64>> = v
                .as_array()
                .filter(|a| a.len() == 4)
                .and_then(|a| a.iter().map(num).collect());
            match pts {
                Some(p4) if (0.0..=1.0).contains(&p4[0]) && (0.0..=1.0).contains(&p4[2]) => {
                    Some(TokenValue::CubicBezier([p4[0], p4[1], p4[2], p4[3]]))
                }
                Some(_) => {
                    diags.error(p, "cubicBezier x coordinates (first and third numbers) must lie between 0 and 1");
                    None
                }
                None => {
                    diags.error(
                        p,
                        "a cubicBezier value must be an array of four numbers [x1, y1, x2, y2]",
                    );
                    None
                }
            }
        }
        TokenType::StrokeStyle => parse_stroke_style(v, p, diags).map(TokenValue::StrokeStyle),
        TokenType::Border => {
            let o = composite(v, p, &["color", "width", "style"], &[], diags)?;
            Some(TokenValue::Border {
                color: Box::new(part(o, "color", TokenType::Color, p, diags)?),
                width: Box::new(part(o, "width", TokenType::Dimension, p, diags)?),
                style: Box::new(part(o, "style", TokenType::StrokeStyle, p, diags)?),
            })
        }
        TokenType::Transition => {
            let o = composite(v, p, &["duration", "delay", "timingFunction"], &[], diags)?;
            Some(TokenValue::Transition {
                duration: Box::new(part(o, "duration", TokenType::Duration, p, diags)?),
                delay: Box::new(part(o, "delay", TokenType::Duration, p, diags)?),
                timing_function: Box::new(part(
                    o,
                    "timingFunction",
                    TokenType::CubicBezier,
                    p,
                    diags,
                )?),
            })
        }
        TokenType::Shadow => {
            let layers: Vec<(&Value, String)> = match v {
                Value::Array(items) => items
                    .iter()
                    .enumerate()
                    .map(|(i, x)| (x, format!("{p}/{i}")))
                    .collect(),
                other => vec![(other, p.to_string())],
            };
            let mut out = Vec::new();
            let mut ok = true;
            for (layer, lp) in layers {
                if let Some(target) = layer.as_str().and_then(parse_reference) {
                    out.push(Item::Alias(target.to_string()));
                    continue;
                }
                match parse_shadow_layer(layer, &lp, diags) {
                    Some(l) => out.push(Item::Literal(l)),
                    None => ok = false,
                }
            }
            (ok && !out.is_empty()).then_some(TokenValue::Shadow(out))
        }
        TokenType::Gradient => {
            let Some(items) = v.as_array().filter(|a| !a.is_empty()) else {
                diags.error(
                    p,
                    "a gradient value must be a non-empty array of stops {color, position}",
                );
                return None;
            };
            let mut stops = Vec::new();
            for (i, s) in items.iter().enumerate() {
                let sp = format!("{p}/{i}");
                if let Some(target) = s.as_str().and_then(parse_reference) {
                    stops.push(Item::Alias(target.to_string()));
                    continue;
                }
                let o = composite(s, &sp, &["color", "position"], &[], diags)?;
                let position = part(o, "position", TokenType::Number, &sp, diags)?;
                if let TokenValue::Number(n) = position {
                    if !(0.0..=1.0).contains(&n) {
                        diags.error(
                            &join(&sp, "position"),
                            "a gradient stop position must lie between 0 and 1",
                        );
                    }
                }
                stops.push(Item::Literal(GradientStop {
                    color: part(o, "color", TokenType::Color, &sp, diags)?,
                    position,
                }));
            }
            Some(TokenValue::Gradient(stops))
        }
        TokenType::Typography => {
            let o = composite(
                v,
                p,
                &[
                    "fontFamily",
                    "fontSize",
                    "fontWeight",
                    "letterSpacing",
                    "lineHeight",
                ],
                &[],
                diags,
            )?;
            let font_family = part(o, "fontFamily", TokenType::FontFamily, p, diags);
            let font_size = part(o, "fontSize", TokenType::Dimension, p, diags);
            let font_weight = part(o, "fontWeight", TokenType::FontWeight, p, diags);
            let letter_spacing = part(o, "letterSpacing", TokenType::Dimension, p, diags);
            let line_height = part(o, "lineHeight", TokenType::Number, p, diags);
            Some(TokenValue::Typography(Typography {
                font_family: Box::new(font_family?),
                font_size: Box::new(font_size?),
                font_weight: Box::new(font_weight?),
                letter_spacing: Box::new(letter_spacing?),
                line_height: Box::new(line_height?),
            }))
        }
    }
}

/// Checks a composite object's keys: `required` must be present, anything
/// else outside `required` and `optional` is an error.
fn composite<'v>(
    v: &'v Value,
    p: &str,
    required: &[&str],
    optional: &[&str],
    diags: &mut FileDiags<'_>,
) -> Option<&'v Map<String, Value>> {
    let Some(o) = v.as_object() else {
        diags.error(
            p,
            format!("expected an object with {}", required.join(", ")),
        );
        return None;
    };
    let mut ok = true;
    for r in required {
        if !o.contains_key(*r) {
            diags.error(p, format!("missing `{r}`"));
            ok = false;
        }
    }
    for k in o.keys() {
        if !required.contains(&k.as_str()) && !optional.contains(&k.as_str()) {
            diags.error_at_key(&join(p, k), format!("unknown property `{k}`"));
            ok = false;
        }
    }
    ok.then_some(o)
}

fn part(
    o: &Map<String, Value>,
    key: &str,
    ty: TokenType,
    p: &str,
    diags: &mut FileDiags<'_>,
) -> Option<TokenValue> {
    parse_value(ty, o.get(key)?, &join(p, key), diags)
}

fn parse_shadow_layer(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<ShadowLayer> {
    let o = composite(
        v,
        p,
        &["color", "offsetX", "offsetY", "blur", "spread"],
        &["inset"],
        diags,
    )?;
    let inset = match o.get("inset") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            diags.error(&join(p, "inset"), "`inset` must be true or false");
            false
        }
    };
    Some(ShadowLayer {
        color: part(o, "color", TokenType::Color, p, diags)?,
        offset_x: part(o, "offsetX", TokenType::Dimension, p, diags)?,
        offset_y: part(o, "offsetY", TokenType::Dimension, p, diags)?,
        blur: part(o, "blur", TokenType::Dimension, p, diags)?,
        spread: part(o, "spread", TokenType::Dimension, p, diags)?,
        inset,
    })
}

const STROKE_KEYWORDS: &[&str] = &[
    "solid", "dashed", "dotted", "double", "groove", "ridge", "outset", "inset",
];

fn parse_stroke_style(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<StrokeStyle> {
    match v {
        Value::String(s) if STROKE_KEYWORDS.contains(&s.as_str()) => {
            Some(StrokeStyle::Keyword(s.clone()))
        }
        Value::String(s) => {
            diags.error(
                p,
                format!(
                    "unknown stroke style \"{s}\"; expected one of {}",
                    STROKE_KEYWORDS.join(", ")
                ),
            );
            None
        }
        _ => {
            let o = composite(v, p, &["dashArray", "lineCap"], &[], diags)?;
            let cap = o["lineCap"].as_str().unwrap_or_default();
            if !matches!(cap, "round" | "butt" | "square") {
                diags.error(
                    &join(p, "lineCap"),
                    "lineCap must be \"round\", \"butt\" or \"square\"",
                );
                return None;
            }
            let Some(items) = o["dashArray"].as_array().filter(|a| !a.is_empty()) else {
                diags.error(
                    &join(p, "dashArray"),
                    "dashArray must be a non-empty array of dimensions",
                );
                return None;
            };
            let dash_array: Option<Vec<TokenValue>> = items
                .iter()
                .enumerate()
                .map(|(i, d)| {
                    parse_value(
                        TokenType::Dimension,
                        d,
                        &format!("{p}/dashArray/{i}"),
                        diags,
                    )
                })
                .collect();
            Some(StrokeStyle::Dashed {
                dash_array: dash_array?,
                line_cap: cap.to_string(),
            })
        }
    }
}

fn parse_color(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<Color> {
    if let Some(s) = v.as_str() {
        return match color::parse_hex(s) {
            Some((rgb, alpha)) => {
                diags.warning(
                    p,
                    format!("\"{s}\" is the older string form; DTCG 2025.10 writes colours as {{\"colorSpace\": \"srgb\", \"components\": [...], \"hex\": \"...\"}}"),
                );
                Some(Color {
                    space: "srgb".into(),
                    components: rgb.map(|c| Component::Num(round(c, 4))),
                    alpha,
                    hex: Some(color::hex(rgb, 1.0)),
                })
            }
            None => {
                diags.error(p, format!("\"{s}\" is not a colour: use a {{colorSpace, components}} object or a #rrggbb hex string"));
                None
            }
        };
    }
    let o = composite(
        v,
        p,
        &["colorSpace", "components"],
        &["alpha", "hex"],
        diags,
    )?;
    let space = o["colorSpace"].as_str().unwrap_or_default();
    if !color::COLOR_SPACES.contains(&space) {
        diags.error(
            &join(p, "colorSpace"),
            format!(
                "unknown colorSpace \"{space}\"; expected one of {}",
                color::COLOR_SPACES.join(", ")
            ),
        );
        return None;
    }
    let comps: Option<Vec<Component>> = o["components"]
        .as_array()
        .filter(|a| a.len() == 3)
        .and_then(|a| {
            a.iter()
                .map(|c| match c {
                    Value::String(s) if s == "none" => Some(Component::None),
                    other => num(other).map(Component::Num),
                })
                .collect()
        });
    let Some(comps) = comps else {
        diags.error(
            &join(p, "components"),
            "components must be an array of three numbers (or \"none\")",
        );
        return None;
    };
    let alpha = match o.get("alpha") {
        None => 1.0,
        Some(a) => match num(a).filter(|a| (0.0..=1.0).contains(a)) {
            Some(a) => a,
            None => {
                diags.error(&join(p, "alpha"), "alpha must be a number between 0 and 1");
                return None;
            }
        },
    };
    let hex = match o.get("hex") {
        None => None,
        Some(Value::String(h)) if h.len() == 7 && color::parse_hex(h).is_some() => {
            Some(h.to_lowercase())
        }
        Some(_) => {
            diags.error(
                &join(p, "hex"),
                "hex must be a 6-digit CSS hex colour such as \"#0b5fff\"",
            );
            return None;
        }
    };
    Some(Color {
        space: space.to_string(),
        components: [comps[0], comps[1], comps[2]],
        alpha,
        hex,
    })
}

/// Rounds to `places` decimals, for output that reads well and stays stable.
pub fn round(v: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (v * f).round() / f
}

/// Splits a legacy `"16px"` / `"120ms"` string into number and unit.
fn split_unit(s: &str) -> Option<(f64, &str)> {
    let s = s.trim();
    let idx = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(s.len());
    let n: f64 = s[..idx].parse().ok()?;
    Some((n, &s[idx..]))
}

fn parse_dimension(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<Dimension> {
    let unit_of = |u: &str| match u {
        "px" => Some(DimUnit::Px),
        "rem" => Some(DimUnit::Rem),
        _ => None,
    };
    if let Some(s) = v.as_str() {
        let parsed = split_unit(s).and_then(|(n, u)| match u {
            "" if n == 0.0 => Some(Dimension {
                value: 0.0,
                unit: DimUnit::Px,
            }),
            u => unit_of(u).map(|unit| Dimension { value: n, unit }),
        });
        return match parsed {
            Some(d) => {
                diags.warning(p, format!("\"{s}\" is the older string form; DTCG 2025.10 writes dimensions as {{\"value\": {}, \"unit\": \"{}\"}}", fmt_num(d.value), d.unit.as_str()));
                Some(d)
            }
            None => {
                diags.error(p, format!("\"{s}\" is not a dimension: use {{\"value\": 16, \"unit\": \"px\"}} (units px or rem)"));
                None
            }
        };
    }
    let o = composite(v, p, &["value", "unit"], &[], diags)?;
    let value = num(&o["value"]);
    let unit = o["unit"].as_str().and_then(unit_of);
    match (value, unit) {
        (Some(value), Some(unit)) => Some(Dimension { value, unit }),
        (None, _) => {
            diags.error(&join(p, "value"), "a dimension's value must be a number");
            None
        }
        (_, None) => {
            diags.error(
                &join(p, "unit"),
                "a dimension's unit must be \"px\" or \"rem\"",
            );
            None
        }
    }
}

fn parse_duration(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<Duration> {
    let unit_of = |u: &str| match u {
        "ms" => Some(DurUnit::Ms),
        "s" => Some(DurUnit::S),
        _ => None,
    };
    if let Some(s) = v.as_str() {
        let parsed =
            split_unit(s).and_then(|(n, u)| unit_of(u).map(|unit| Duration { value: n, unit }));
        return match parsed {
            Some(d) => {
                diags.warning(p, format!("\"{s}\" is the older string form; DTCG 2025.10 writes durations as {{\"value\": {}, \"unit\": \"{}\"}}", fmt_num(d.value), d.unit_str()));
                Some(d)
            }
            None => {
                diags.error(p, format!("\"{s}\" is not a duration: use {{\"value\": 120, \"unit\": \"ms\"}} (units ms or s)"));
                None
            }
        };
    }
    let o = composite(v, p, &["value", "unit"], &[], diags)?;
    match (
        num(&o["value"]).filter(|n| *n >= 0.0),
        o["unit"].as_str().and_then(unit_of),
    ) {
        (Some(value), Some(unit)) => Some(Duration { value, unit }),
        (None, _) => {
            diags.error(
                &join(p, "value"),
                "a duration's value must be a non-negative number",
            );
            None
        }
        (_, None) => {
            diags.error(
                &join(p, "unit"),
                "a duration's unit must be \"ms\" or \"s\"",
            );
            None
        }
    }
}

/// Named font weights from DTCG 2025.10, section "Font weight".
pub const NAMED_WEIGHTS: &[(&str, f64)] = &[
    ("thin", 100.0),
    ("hairline", 100.0),
    ("extra-light", 200.0),
    ("ultra-light", 200.0),
    ("light", 300.0),
    ("normal", 400.0),
    ("regular", 400.0),
    ("book", 400.0),
    ("medium", 500.0),
    ("semi-bold", 600.0),
    ("demi-bold", 600.0),
    ("bold", 700.0),
    ("extra-bold", 800.0),
    ("ultra-bold", 800.0),
    ("black", 900.0),
    ("heavy", 900.0),
    ("extra-black", 950.0),
    ("ultra-black", 950.0),
];

fn parse_font_weight(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<f64> {
    if let Some(s) = v.as_str() {
        if let Some((_, w)) = NAMED_WEIGHTS.iter().find(|(n, _)| *n == s) {
            return Some(*w);
        }
        diags.error(p, format!("unknown font weight \"{s}\"; use a number from 1 to 1000 or a DTCG name such as \"bold\""));
        return None;
    }
    match num(v).filter(|n| (1.0..=1000.0).contains(n)) {
        Some(n) => Some(n),
        None => {
            diags.error(p, "a font weight must be a number from 1 to 1000");
            None
        }
    }
}

/// Formats a number the shortest way that reads back the same (`16`, `1.5`).
pub fn fmt_num(n: f64) -> String {
    if n == 0.0 {
        return "0".into();
    }
    format!("{n}")
}

/// Reports dangling references, references to the wrong type, and cycles.
fn check_references(set: &TokenSet, diags: &mut FileDiags<'_>) {
    for token in &set.tokens {
        let mut refs = Vec::new();
        collect_aliases(
            &token.value,
            token.ty,
            &join(&token.pointer, "$value"),
            &mut refs,
        );
        for (target, want, pointer) in refs {
            match set.get(&target) {
                None if set.unparsed.contains(&target) => {}
                None => diags.error(
                    &pointer,
                    format!("reference `{{{target}}}` does not name a token"),
                ),
                Some(t) if t.ty != want => diags.error(
                    &pointer,
                    format!(
                        "reference `{{{target}}}` is a {} token; a {} is needed here",
                        t.ty.as_str(),
                        want.as_str()
                    ),
                ),
                Some(_) => {}
            }
        }
        // Cycle: follow the token's own alias chain.
        if let TokenValue::Alias(_) = token.value {
            if set.resolve(&token.value).is_none() && alias_chain_is_cycle(set, token) {
                diags.error(
                    &join(&token.pointer, "$value"),
                    format!("alias cycle: `{}` refers back to itself", token.name()),
                );
            }
        }
    }
}

fn alias_chain_is_cycle(set: &TokenSet, token: &Token) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut cur = token;
    while let TokenValue::Alias(target) = &cur.value {
        if !seen.insert(cur.name()) {
            return true;
        }
        match set.get(target) {
            Some(next) => cur = next,
            None => return false,
        }
    }
    false
}

fn collect_aliases(
    v: &TokenValue,
    ty: TokenType,
    p: &str,
    out: &mut Vec<(String, TokenType, String)>,
) {
    let mut sub = |v: &TokenValue, ty, key: &str| collect_aliases(v, ty, &join(p, key), out);
    match v {
        TokenValue::Alias(t) => out.push((t.clone(), ty, p.to_string())),
        TokenValue::Border {
            color,
            width,
            style,
        } => {
            sub(color, TokenType::Color, "color");
            sub(width, TokenType::Dimension, "width");
            sub(style, TokenType::StrokeStyle, "style");
        }
        TokenValue::Transition {
            duration,
            delay,
            timing_function,
        } => {
            sub(duration, TokenType::Duration, "duration");
            sub(delay, TokenType::Duration, "delay");
            sub(timing_function, TokenType::CubicBezier, "timingFunction");
        }
        TokenValue::Typography(t) => {
            sub(&t.font_family, TokenType::FontFamily, "fontFamily");
            sub(&t.font_size, TokenType::Dimension, "fontSize");
            sub(&t.font_weight, TokenType::FontWeight, "fontWeight");
            sub(&t.letter_spacing, TokenType::Dimension, "letterSpacing");
            sub(&t.line_height, TokenType::Number, "lineHeight");
        }
        TokenValue::Shadow(layers) => {
            for (i, item) in layers.iter().enumerate() {
                let lp = if layers.len() == 1 {
                    p.to_string()
                } else {
                    format!("{p}/{i}")
                };
                let l = match item {
                    Item::Alias(t) => {
                        out.push((t.clone(), TokenType::Shadow, lp));
                        continue;
                    }
                    Item::Literal(l) => l,
                };
                for (val, t, k) in [
                    (&l.color, TokenType::Color, "color"),
                    (&l.offset_x, TokenType::Dimension, "offsetX"),
                    (&l.offset_y, TokenType::Dimension, "offsetY"),
                    (&l.blur, TokenType::Dimension, "blur"),
                    (&l.spread, TokenType::Dimension, "spread"),
                ] {
                    collect_aliases(val, t, &join(&lp, k), out);
                }
            }
        }
        TokenValue::Gradient(stops) => {
            for (i, item) in stops.iter().enumerate() {
                let s = match item {
                    Item::Alias(t) => {
                        out.push((t.clone(), TokenType::Gradient, format!("{p}/{i}")));
                        continue;
                    }
                    Item::Literal(s) => s,
                };
                collect_aliases(&s.color, TokenType::Color, &format!("{p}/{i}/color"), out);
                collect_aliases(
                    &s.position,
                    TokenType::Number,
                    &format!("{p}/{i}/position"),
                    out,
                );
            }
        }
        TokenValue::StrokeStyle(StrokeStyle::Dashed { dash_array, .. }) => {
            for (i, d) in dash_array.iter().enumerate() {
                collect_aliases(d, TokenType::Dimension, &format!("{p}/dashArray/{i}"), out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::diag::{Diagnostic, Severity};
    use crate::spec::json::PosIndex;

    fn parse(text: &str) -> (TokenSet, Vec<Diagnostic>) {
        let doc: Value = serde_json::from_str(text).unwrap();
        let index = PosIndex::new(text);
        let mut out = Vec::new();
        let set = parse_tokens(
            &doc,
            &mut FileDiags {
                brand: "b",
                file: "b/tokens.json".into(),
                index: &index,
                out: &mut out,
            },
        );
        (set, out)
    }

    fn errors(text: &str) -> Vec<String> {
        parse(text)
            .1
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .map(|d| format!("{} {}", d.pointer, d.message))
            .collect()
    }

    #[test]
    fn group_type_is_inherited_and_aliases_take_their_target_type() {
        let (set, diags) = parse(
            r#"{"color": {"$type": "color", "blue": {"$value": {"colorSpace": "srgb", "components": [0, 0, 1]}}},
            "link": {"$value": "{color.blue}"}}"#,
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(set.get("color.blue").unwrap().ty, TokenType::Color);
        assert_eq!(set.get("link").unwrap().ty, TokenType::Color);
        assert!(matches!(
            set.resolve(&set.get("link").unwrap().value),
            Some(TokenValue::Color(_))
        ));
    }

    #[test]
    fn legacy_strings_are_accepted_with_a_warning() {
        let (set, diags) = parse(
            r##"{"c": {"$type": "color", "$value": "#0b5fff"}, "d": {"$type": "dimension", "$value": "1.5rem"}, "t": {"$type": "duration", "$value": "120ms"}}"##,
        );
        assert_eq!(diags.len(), 3);
        assert!(diags.iter().all(|d| d.severity == Severity::Warning));
        assert_eq!(
            set.get("d").unwrap().value,
            TokenValue::Dimension(Dimension {
                value: 1.5,
                unit: DimUnit::Rem
            })
        );
        let TokenValue::Color(c) = &set.get("c").unwrap().value else {
            panic!()
        };
        assert_eq!(c.hex.as_deref(), Some("#0b5fff"));
    }

    #[test]
    fn reports_cycles_dangling_references_and_type_mismatches() {
        let errs = errors(
            r#"{"a": {"$type": "color", "$value": "{b}"}, "b": {"$type": "color", "$value": "{a}"},
            "c": {"$type": "dimension", "$value": "{nope}"},
            "n": {"$type": "number", "$value": 1}, "d": {"$type": "dimension", "$value": "{n}"}}"#,
        );
        assert_eq!(
            errs,
            vec![
                "/a/$value alias cycle: `a` refers back to itself",
                "/b/$value alias cycle: `b` refers back to itself",
                "/c/$value reference `{nope}` does not name a token",
                "/d/$value reference `{n}` is a number token; a dimension is needed here",
            ]
        );
    }

    #[test]
    fn rejects_bad_values_with_clear_messages() {
        let errs = errors(
            r#"{"x": {"$type": "colour", "$value": 1}, "w": {"$type": "fontWeight", "$value": "fat"},
            "e": {"$type": "cubicBezier", "$value": [2, 0, 1, 1]}, "u": {"$value": 3}, "bad.name": {"$type": "number", "$value": 1}}"#,
        );
        assert_eq!(
            errs,
            vec![
                "/x/$type unknown `$type` \"colour\"; did you mean `color`?",
                "/bad.name invalid token or group name `bad.name`: names must not be empty or contain `{`, `}` or `.`",
                "/w/$value unknown font weight \"fat\"; use a number from 1 to 1000 or a DTCG name such as \"bold\"",
                "/e/$value cubicBezier x coordinates (first and third numbers) must lie between 0 and 1",
                "/u token `u` has no `$type`, on itself or an enclosing group",
            ]
        );
    }

    #[test]
    fn composites_parse_with_aliased_parts() {
        let (set, diags) = parse(
            r#"{"size": {"$type": "dimension", "m": {"$value": {"value": 16, "unit": "px"}}},
            "font": {"$type": "fontFamily", "body": {"$value": ["Inter", "sans-serif"]}},
            "type": {"$type": "typography", "body": {"$value": {"fontFamily": "{font.body}", "fontSize": "{size.m}", "fontWeight": "regular", "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5}}}}"#,
        );
        assert!(diags.is_empty(), "{diags:?}");
        let TokenValue::Typography(t) = &set.get("type.body").unwrap().value else {
            panic!()
        };
        assert_eq!(*t.font_weight, TokenValue::FontWeight(400.0));
        assert_eq!(*t.font_size, TokenValue::Alias("size.m".into()));
    }
}
