//! tokens.figma.json: a request body for Figma's `POST /v1/files/:file_key/variables`
//! that can be sent as is. One collection named after the brand, one mode,
//! one variable per token Figma can hold (names use `/` for groups), values
//! converted to Figma's units, aliases as `VARIABLE_ALIAS` to the exported
//! target. Tokens Figma cannot represent are left out and reported.

use super::Context;
use crate::spec::tokens::css::css_name;
use crate::spec::tokens::{Token, TokenSet, TokenType, TokenValue};
use crate::spec::Brand;
use serde::Serialize;
use std::collections::HashSet;

/// Figma's limits on one request (from the endpoint's documentation).
pub const MAX_VARIABLES_PER_COLLECTION: usize = 5000;
pub const MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Body {
    pub variable_collections: Vec<CollectionCreate>,
    pub variables: Vec<VariableCreate>,
    pub variable_mode_values: Vec<ModeValue>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CollectionCreate {
    pub action: &'static str,
    pub id: String,
    pub name: String,
    pub initial_mode_id: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VariableCreate {
    pub action: &'static str,
    pub id: String,
    pub name: String,
    pub variable_collection_id: String,
    pub resolved_type: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub scopes: Vec<&'static str>,
    pub code_syntax: CodeSyntax,
}

#[derive(Serialize)]
pub struct CodeSyntax {
    #[serde(rename = "WEB")]
    pub web: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModeValue {
    pub variable_id: String,
    pub mode_id: String,
    pub value: Value,
}

#[derive(Serialize, Clone)]
#[serde(untagged)]
pub enum Value {
    Color {
        r: f64,
        g: f64,
        b: f64,
        a: f64,
    },
    Float(f64),
    String(String),
    Alias {
        #[serde(rename = "type")]
        kind: &'static str,
        id: String,
    },
}

/// The body, and a warning for each token left out (with where the token
/// is written, when one is to blame: its file, `None` for tokens.json, and
/// its pointer).
pub struct Output {
    pub body: String,
    pub skipped: Vec<(String, Option<crate::spec::tokens::WrittenAt>)>,
}

/// Six decimals: finer than Figma stores, and stable across runs.
fn round(v: f64) -> f64 {
    crate::spec::tokens::round(v, 6)
}

/// Temporary ids live only inside one request body. They must not look like
/// Figma's real ids (`VariableID:1:23`), which Figma would try to look up.
fn var_id(path: &str) -> String {
    format!("var:{path}")
}

/// Figma's type for a token type, or `None` when Figma has no variable for it.
fn figma_type(ty: TokenType) -> Option<&'static str> {
    match ty {
        TokenType::Color => Some("COLOR"),
        TokenType::Dimension | TokenType::FontWeight | TokenType::Number | TokenType::Duration => {
            Some("FLOAT")
        }
        TokenType::FontFamily | TokenType::String => Some("STRING"),
        _ => None,
    }
}

/// Scopes by type and by what the token's path says it is for.
fn scopes(ty: TokenType, path: &[String]) -> Vec<&'static str> {
    let has = |words: &[&str]| {
        path.iter().any(|seg| {
            let s = seg.to_lowercase();
            words.iter().any(|w| s.contains(w))
        })
    };
    match ty {
        TokenType::Color if has(&["text", "ink", "foreground"]) => vec!["TEXT_FILL"],
        TokenType::Color if has(&["border", "stroke", "outline"]) => vec!["STROKE_COLOR"],
        TokenType::Color if has(&["shadow", "scrim"]) => vec!["EFFECT_COLOR"],
        TokenType::Color => vec!["ALL_FILLS", "STROKE_COLOR"],
        TokenType::Dimension if has(&["radius", "corner"]) => vec!["CORNER_RADIUS"],
        TokenType::Dimension if has(&["tracking", "letter"]) => vec!["LETTER_SPACING"],
        TokenType::Dimension if has(&["font", "text", "type"]) => vec!["FONT_SIZE"],
        TokenType::Dimension if has(&["stroke", "border"]) => vec!["STROKE_FLOAT"],
        TokenType::Dimension if has(&["space", "spacing", "gap", "gutter"]) => vec!["GAP"],
        TokenType::Dimension => vec!["WIDTH_HEIGHT", "GAP"],
        TokenType::FontWeight => vec!["FONT_WEIGHT"],
        TokenType::FontFamily => vec!["FONT_FAMILY"],
        TokenType::Number if has(&["opacity", "alpha"]) => vec!["OPACITY"],
        TokenType::Number if has(&["line-height", "lineheight", "leading"]) => vec!["LINE_HEIGHT"],
        _ => vec!["ALL_SCOPES"],
    }
}

/// A dimension's size in pixels, if it has one.
fn pixels(v: &TokenValue) -> Option<f64> {
    match v {
        TokenValue::Dimension(d) => d.px(),
        _ => None,
    }
}

/// A literal value in Figma's units.
fn literal(v: &TokenValue) -> Option<Value> {
    Some(match v {
        TokenValue::Color(c) => {
            let [r, g, b] = c.srgb().map(round);
            Value::Color {
                r,
                g,
                b,
                a: round(c.alpha),
            }
        }
        TokenValue::Dimension(d) => Value::Float(round(d.px()?)),
        TokenValue::FontWeight(n) | TokenValue::Number(n) => Value::Float(round(*n)),
        TokenValue::Duration(d) => Value::Float(round(d.ms())),
        TokenValue::FontFamily(names) => Value::String(names.first()?.clone()),
        TokenValue::String(text) => Value::String(text.clone()),
        _ => return None,
    })
}

struct Builder<'a> {
    set: &'a TokenSet,
    collection: String,
    mode: String,
    exported: HashSet<String>,
    body: Body,
}

impl Builder<'_> {
    /// Adds one variable; `value` may be an alias to an exported token.
    fn add(
        &mut self,
        name_path: &[String],
        ty: TokenType,
        value: &TokenValue,
        description: Option<&String>,
        web: String,
    ) {
        let Some(resolved_type) = figma_type(ty) else {
            return;
        };
        let dotted = name_path.join(".");
        let id = var_id(&dotted);
        let v = match value {
            TokenValue::Alias(target) if self.exported.contains(target) => Value::Alias {
                kind: "VARIABLE_ALIAS",
                id: var_id(target),
            },
            other => match self.set.resolve(other).and_then(literal) {
                Some(v) => v,
                None => return,
            },
        };
        self.body.variables.push(VariableCreate {
            action: "CREATE",
            id: id.clone(),
            name: name_path.join("/"),
            variable_collection_id: self.collection.clone(),
            resolved_type,
            description: description.cloned(),
            scopes: scopes(ty, name_path),
            code_syntax: CodeSyntax { web },
        });
        self.body.variable_mode_values.push(ModeValue {
            variable_id: id,
            mode_id: self.mode.clone(),
            value: v,
        });
    }
}

pub fn render(brand: &Brand, _ctx: &Context) -> Output {
    let set = &brand.tokens;
    let mut skipped = Vec::new();
    let collection = format!("collection:{}", brand.slug);
    let mode = format!("mode:{}:default", brand.slug);
    // A token Figma can hold: of a type it has, with a value in its units
    // (a length relative to its element has no pixels).
    let exportable = |t: &Token| {
        figma_type(t.ty).is_some()
            && (t.ty != TokenType::Dimension || set.resolve(&t.value).and_then(pixels).is_some())
    };
    let mut b = Builder {
        set,
        collection: collection.clone(),
        mode: mode.clone(),
        exported: set
            .tokens
            .iter()
            .filter(|t| exportable(t))
            .map(Token::name)
            .collect(),
        body: Body {
            variable_collections: vec![CollectionCreate {
                action: "CREATE",
                id: collection,
                name: brand.doc.name.clone(),
                initial_mode_id: mode,
            }],
            variables: Vec::new(),
            variable_mode_values: Vec::new(),
        },
    };
    for t in &set.tokens {
        let web = format!("var(--{})", css_name(&t.path));
        match (&t.value, t.ty) {
            (TokenValue::Composite(c), TokenType::Typography) => {
                // Figma has no typography variable: export the parts it can hold.
                let base = css_name(&t.path);
                for (part, value) in c.parts().filter(|(p, _)| p.key != "lineHeight") {
                    let mut path = t.path.clone();
                    path.push(part.key.to_string());
                    b.add(&path, part.ty, value, t.description.as_ref(), format!("var(--{base}-{})", part.css));
                }
                // Line height: a unitless factor in DTCG, pixels in Figma.
                let size = c.get("fontSize").and_then(|v| set.resolve(v));
                let factor = c.get("lineHeight").and_then(|v| set.resolve(v));
                let line = match factor {
                    Some(TokenValue::Number(f)) => size.and_then(pixels).map(|s| s * f),
                    Some(TokenValue::Dimension(d)) => d.px(),
                    _ => None,
                };
                if let Some(line) = line {
                    let mut path = t.path.clone();
                    path.push("lineHeight".into());
                    let px = TokenValue::Number(round(line));
                    b.add(&path, TokenType::Number, &px, t.description.as_ref(), format!("var(--{base}-line-height)"));
                    if let Some(last) = b.body.variables.last_mut() {
                        last.scopes = vec!["LINE_HEIGHT"];
                    }
                }
            }
            (_, ty) if exportable(t) => b.add(&t.path, ty, &t.value, t.description.as_ref(), web),
            (_, TokenType::Dimension) => skipped.push((
                format!(
                    "token `{}` is a length relative to its element or the viewport ({}), which has no pixel value in Figma; it is left out of tokens.figma.json",
                    t.name(),
                    set.resolve(&t.value).map_or(String::new(), |v| crate::spec::tokens::css::value(v, set, crate::spec::tokens::css::Refs::Resolve)),
                ),
                Some((t.file.clone(), t.pointer.clone())),
            )),
            (_, ty) => skipped.push((
                format!(
                    "token `{}` ({}) has no Figma variable type and is left out of tokens.figma.json",
                    t.name(),
                    ty.as_str()
                ),
                Some((t.file.clone(), t.pointer.clone())),
            )),
        }
    }
    if b.body.variables.len() > MAX_VARIABLES_PER_COLLECTION {
        skipped.push((
            format!(
                "{} variables exceed Figma's limit of {MAX_VARIABLES_PER_COLLECTION} per collection; the rest are left out",
                b.body.variables.len()
            ),
            None,
        ));
        b.body.variables.truncate(MAX_VARIABLES_PER_COLLECTION);
        b.body
            .variable_mode_values
            .truncate(MAX_VARIABLES_PER_COLLECTION);
    }
    let mut body = serde_json::to_string_pretty(&b.body).expect("serialisable");
    body.push('\n');
    if body.len() > MAX_BODY_BYTES {
        skipped.push((
            format!(
                "tokens.figma.json is {} bytes, over Figma's 4 MB request limit",
                body.len()
            ),
            None,
        ));
    }
    Output { body, skipped }
}
