//! tokens.figma.json: a request body for Figma's `POST /v1/files/:file_key/variables`
//! that can be sent as is. One collection named after the brand, with one
//! mode, for the tokens no context changes; for a brand with modes, one
//! collection per modifier with a Figma mode per context, holding the
//! tokens that modifier changes, each with its value in every mode. One
//! variable per token Figma can hold (names use `/` for groups), values
//! converted to Figma's units, aliases as `VARIABLE_ALIAS` to the exported
//! target in whichever collection. Tokens Figma cannot represent are left
//! out and reported.

mod kinds;
pub(crate) use kinds::{figma_type, scopes};

use super::Context;
use crate::spec::tokens::css;
use crate::spec::tokens::modes::{ModeContext, Modifier};
use crate::spec::tokens::{Item, Token, TokenSet, TokenType, TokenValue};
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
    /// Each modifier's contexts as Figma modes; absent without modes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variable_modes: Vec<ModeChange>,
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

/// A mode created in a collection, or its initial mode renamed.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModeChange {
    pub action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub name: String,
    pub variable_collection_id: String,
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
    pub skipped: Vec<Skipped>,
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
        TokenValue::CubicBezier(p) => Value::String(crate::spec::tokens::css::cubic_bezier(p)),
        _ => return None,
    })
}

/// Where a token's variable lives: its collection, and its token in each
/// of that collection's modes.
struct Placement<'t> {
    collection: usize,
    modes: Vec<(String, &'t Token)>,
    /// For an alias with an alpha, which no Figma alias can carry: the
    /// colour it paints in each of `modes`.
    painted: Option<Vec<TokenValue>>,
}

struct Builder<'a> {
    set: &'a TokenSet,
    /// Collection ids: the brand's base collection, then one per modifier.
    collections: Vec<String>,
    exported: HashSet<String>,
    body: Body,
}

impl Builder<'_> {
    /// Adds one variable to `collection` with a value per mode; a value may
    /// be an alias to an exported token, in any collection.
    fn add(
        &mut self,
        name_path: &[String],
        ty: TokenType,
        collection: usize,
        values: &[(String, Option<TokenValue>)],
        description: Option<&String>,
        web: String,
    ) -> Option<&mut VariableCreate> {
        let resolved_type = figma_type(ty)?;
        let id = var_id(&name_path.join("."));
        let mut mode_values = Vec::new();
        for (mode, value) in values {
            let v = match value {
                Some(TokenValue::Alias(target)) if self.exported.contains(target) => Value::Alias {
                    kind: "VARIABLE_ALIAS",
                    id: var_id(target),
                },
                // A string's `{references}` are resolved: Figma has no var().
                Some(TokenValue::String(text)) if css::has_references(text) => {
                    let text = css::interpolate(text, self.set, css::Refs::Resolve, 0)?;
                    literal(&TokenValue::String(text))?
                }
                Some(other) => self.set.resolve(other).as_deref().and_then(literal)?,
                None => return None,
            };
            mode_values.push(ModeValue {
                variable_id: id.clone(),
                mode_id: mode.clone(),
                value: v,
            });
        }
        self.body.variables.push(VariableCreate {
            action: "CREATE",
            id,
            name: name_path.join("/"),
            variable_collection_id: self.collections[collection].clone(),
            resolved_type,
            description: description.cloned(),
            scopes: scopes(ty, name_path),
            code_syntax: CodeSyntax { web },
        });
        self.body.variable_mode_values.extend(mode_values);
        self.body.variables.last_mut()
    }
}

/// Figma's most modes in one collection (its Enterprise plan's; fewer on
/// others, where Figma refuses the body and says so).
pub const MAX_MODES_PER_COLLECTION: usize = 40;

/// The contexts of `m` that get a Figma mode: the default, and the others
/// in order up to Figma's limit.
pub(crate) fn with_modes(m: &Modifier) -> impl Iterator<Item = (usize, &ModeContext)> {
    let others = m
        .contexts
        .iter()
        .enumerate()
        .filter(move |(c, _)| *c != m.default);
    std::iter::once((m.default, &m.contexts[m.default]))
        .chain(others.take(MAX_MODES_PER_COLLECTION - 1))
}

fn mode_id(slug: &str, modifier: &str, context: &str) -> String {
    format!("mode:{slug}:{modifier}:{context}")
}

/// The collections and modes: the brand's own collection with one mode
/// for the tokens no context changes, then a collection per modifier (a
/// Figma mode per context, named as the resolver names it; the first is
/// the default, Figma's initial mode, renamed).
fn collections(brand: &Brand, body: &mut Body, skipped: &mut Vec<Skipped>) -> Vec<String> {
    let slug = &brand.slug;
    let base = format!("collection:{slug}");
    body.variable_collections.push(CollectionCreate {
        action: "CREATE",
        id: base.clone(),
        name: brand.doc.name.clone(),
        initial_mode_id: format!("mode:{slug}:default"),
    });
    let mut ids = vec![base];
    for m in &brand.tokens.modes {
        let id = format!("collection:{slug}:{}", m.name);
        let default = &m.contexts[m.default].name;
        body.variable_collections.push(CollectionCreate {
            action: "CREATE",
            id: id.clone(),
            name: format!("{} · {}", brand.doc.name, m.name),
            initial_mode_id: mode_id(slug, &m.name, default),
        });
        body.variable_modes.push(ModeChange {
            action: "UPDATE",
            id: Some(mode_id(slug, &m.name, default)),
            name: default.clone(),
            variable_collection_id: id.clone(),
        });
        if m.contexts.len() > MAX_MODES_PER_COLLECTION {
            skipped.push((format!("modifier `{}` has {} contexts, over Figma's {MAX_MODES_PER_COLLECTION} modes per collection; those after the first {MAX_MODES_PER_COLLECTION} are left out of tokens.figma.json", m.name, m.contexts.len()), None));
        }
        for (_, context) in with_modes(m).filter(|(c, _)| *c != m.default) {
            body.variable_modes.push(ModeChange {
                action: "CREATE",
                id: Some(mode_id(slug, &m.name, &context.name)),
                name: context.name.clone(),
                variable_collection_id: id.clone(),
            });
        }
        ids.push(id);
    }
    ids
}

/// The modifiers (by index, in order) whose contexts change `t`: what it
/// writes, or a part of a composite it is made of. The first decides its
/// Figma collection, here and in figma.zip.
pub(crate) fn varies(set: &TokenSet, t: &Token) -> Vec<usize> {
    let name = t.name();
    let mut varies: Vec<usize> = set
        .modes
        .iter()
        .enumerate()
        .filter(|(_, m)| m.contexts.iter().any(|c| c.get(&name).is_some()))
        .map(|(i, _)| i)
        .collect();
    for m in set.composite_varies(t) {
        if !varies.contains(&m) {
            varies.push(m);
        }
    }
    varies.sort_unstable();
    varies
}

/// The collection of `t` and its token per mode: the base collection when
/// no context changes it, else its modifier's. Figma's modes are per
/// collection, so a token that two modifiers change keeps the first's
/// modes, with a warning.
fn placement<'t>(brand: &'t Brand, t: &'t Token, skipped: &mut Vec<Skipped>) -> Placement<'t> {
    let name = t.name();
    let set = &brand.tokens;
    let varies = varies(set, t);
    let translucent = |x: &Token| matches!(x.value, TokenValue::AliasWithAlpha { .. });
    let Some(&m) = varies.first() else {
        return Placement {
            collection: 0,
            modes: vec![(format!("mode:{}:default", brand.slug), t)],
            painted: translucent(t)
                .then(|| set.resolve(&t.value).map(|v| vec![v.into_owned()]))
                .flatten(),
        };
    };
    if let Some(&other) = varies.get(1) {
        skipped.push((
            format!(
                "token `{name}` varies by modifier `{}` and by `{}`; Figma's modes are per collection, so tokens.figma.json gives it the modes of `{}` only",
                set.modes[m].name, set.modes[other].name, set.modes[m].name
            ),
            Some((t.file.clone(), t.pointer.clone())),
        ));
    }
    let modifier = &set.modes[m];
    let mut modes: Vec<(usize, &ModeContext)> = with_modes(modifier).collect();
    modes.sort_by_key(|(c, _)| *c);
    let painted = modes
        .iter()
        .any(|(_, c)| translucent(c.get(&name).unwrap_or(t)))
        .then(|| {
            modes
                .iter()
                .map(|&(c, context)| {
                    let view = set.view(m, c);
                    let here = context.get(&name).unwrap_or(t);
                    view.resolve(&here.value).map(|v| v.into_owned())
                })
                .collect::<Option<Vec<_>>>()
        })
        .flatten();
    let modes = modes
        .into_iter()
        .map(|(_, c)| {
            let written = c.get(&name);
            (
                mode_id(&brand.slug, &modifier.name, &c.name),
                written.unwrap_or(t),
            )
        })
        .collect();
    Placement {
        collection: m + 1,
        modes,
        painted,
    }
}

/// A warning, with where the token is written when one is to blame.
type Skipped = (String, Option<crate::spec::tokens::WrittenAt>);

pub fn render(brand: &Brand, _ctx: &Context) -> Output {
    let set = &brand.tokens;
    let mut skipped = Vec::new();
    let mut body = Body {
        variable_collections: Vec::new(),
        variable_modes: Vec::new(),
        variables: Vec::new(),
        variable_mode_values: Vec::new(),
    };
    let collection_ids = collections(brand, &mut body, &mut skipped);
    // A token Figma can hold: of a type it has, with a value in its units
    // (a length relative to its element has no pixels).
    let exportable = |t: &Token| {
        figma_type(t.ty).is_some()
            && (t.ty != TokenType::Dimension
                || set.resolve(&t.value).as_deref().and_then(pixels).is_some())
    };
    let mut b = Builder {
        set,
        collections: collection_ids,
        exported: set
            .tokens
            .iter()
            .filter(|t| exportable(t))
            .map(Token::name)
            .collect(),
        body,
    };
    for t in &set.tokens {
        crate::spec::limits::checkpoint();
        let web = format!("var(--{})", set.var_name(&t.path));
        let at = placement(brand, t, &mut skipped);
        match (&t.value, t.ty) {
            (_, ty @ (TokenType::Typography | TokenType::Border | TokenType::Transition | TokenType::Shadow | TokenType::Gradient)) => {
                let before = b.body.variables.len();
                if matches!(ty, TokenType::Shadow | TokenType::Gradient) {
                    layers(&mut b, t, &at);
                } else {
                    composite(&mut b, t, &at);
                }
                if b.body.variables.len() == before {
                    skipped.push((
                        format!("token `{}` ({}) has no part Figma can hold and is left out of tokens.figma.json", t.name(), ty.as_str()),
                        Some((t.file.clone(), t.pointer.clone())),
                    ));
                }
            }
            (_, ty) if exportable(t) => {
                let values: Vec<(String, Option<TokenValue>)> = match &at.painted {
                    Some(painted) => {
                        skipped.push((
                            format!("token `{}` is an alias with an alpha beside it, which a Figma variable alias cannot carry; tokens.figma.json gives it the colour it paints in each mode, so in Figma it no longer follows `{{{}}}`", t.name(), t.value.alias_target().unwrap_or_default()),
                            Some((t.file.clone(), t.pointer.clone())),
                        ));
                        at.modes
                            .iter()
                            .zip(painted)
                            .map(|((mode, _), v)| (mode.clone(), Some(v.clone())))
                            .collect()
                    }
                    None => at
                        .modes
                        .iter()
                        .map(|(mode, x)| (mode.clone(), Some(x.value.clone())))
                        .collect(),
                };
                let description = t.described(b.set);
                b.add(&t.path, ty, at.collection, &values, description.as_ref(), web);
            }
            (_, TokenType::Dimension) => skipped.push((
                format!(
                    "token `{}` is a length relative to its element or the viewport ({}), which has no pixel value in Figma; it is left out of tokens.figma.json",
                    t.name(),
                    set.resolve(&t.value).as_deref().map_or(String::new(), |v| crate::spec::tokens::css::value(v, set, crate::spec::tokens::css::Refs::Resolve)),
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
    finish(b.body, skipped)
}

/// Figma has no composite variable: a border, transition or typography
/// is its parts that Figma holds, each a variable named under the token
/// (`border/focus/color`) and written as the part's own custom property;
/// a border's style, which no Figma field takes, stays in CSS. A
/// typography's line height is in pixels (a unitless factor in DTCG).
fn composite(b: &mut Builder<'_>, t: &Token, at: &Placement<'_>) {
    let set = b.set;
    let base = set.var_name(&t.path);
    let composite = |x: &Token| match set.resolve(&x.value).as_deref() {
        Some(TokenValue::Composite(c)) => Some(c.clone()),
        _ => None,
    };
    for part in t.ty.parts().iter().filter(|p| p.key != "lineHeight") {
        let mut path = t.path.clone();
        path.push(part.key.to_string());
        let values: Vec<(String, Option<TokenValue>)> = at
            .modes
            .iter()
            .map(|(mode, x)| {
                (
                    mode.clone(),
                    composite(x).and_then(|c| c.get(part.key).cloned()),
                )
            })
            .collect();
        let web = format!("var(--{base}-{})", part.css);
        let description = t.described(b.set);
        if let Some(v) = b.add(
            &path,
            part.ty,
            at.collection,
            &values,
            description.as_ref(),
            web,
        ) {
            if t.ty == TokenType::Border {
                v.scopes = match part.ty {
                    TokenType::Color => vec!["STROKE_COLOR"],
                    _ => vec!["STROKE_FLOAT"],
                };
            }
        }
    }
    if t.ty != TokenType::Typography {
        return;
    }
    let line = |x: &Token| {
        let c = composite(x)?;
        let size = c.get("fontSize").and_then(|v| set.resolve(v));
        let px = match c.get("lineHeight").and_then(|v| set.resolve(v)).as_deref() {
            Some(TokenValue::Number(f)) => size.as_deref().and_then(pixels).map(|s| s * f),
            Some(TokenValue::Dimension(d)) => d.px(),
            _ => None,
        }?;
        Some(TokenValue::Number(round(px)))
    };
    let values: Vec<(String, Option<TokenValue>)> = at
        .modes
        .iter()
        .map(|(mode, x)| (mode.clone(), line(x)))
        .collect();
    let mut path = t.path.clone();
    path.push("lineHeight".into());
    let web = format!("var(--{base}-line-height)");
    let description = t.described(b.set);
    if let Some(v) = b.add(
        &path,
        TokenType::Number,
        at.collection,
        &values,
        description.as_ref(),
        web,
    ) {
        v.scopes = vec!["LINE_HEIGHT"];
    }
}

/// The layers of a shadow or the stops of a gradient, each member a
/// variable Figma can bind (an effect's colour, offsets, blur and spread;
/// a stop's colour), named by position when there are several
/// (`elevation/card/1/blur`). An aliased element stands for the elements
/// of the token it names. Dev Mode shows the whole token's property.
fn layers(b: &mut Builder<'_>, t: &Token, at: &Placement<'_>) {
    let set = b.set;
    let members = |x: &Token| elements(set, &x.value, 0);
    let per_mode: Vec<(String, Vec<Element>)> = at
        .modes
        .iter()
        .map(|(mode, x)| (mode.clone(), members(x)))
        .collect();
    let count = per_mode.first().map_or(0, |(_, m)| m.len());
    let web = format!("var(--{})", set.var_name(&t.path));
    for i in 0..count {
        let keys: Vec<(&'static str, TokenType)> = per_mode[0].1[i]
            .iter()
            .map(|(k, ty, _)| (*k, *ty))
            .collect();
        for (key, ty) in keys {
            let mut path = t.path.clone();
            if count > 1 {
                path.push(i.to_string());
            }
            path.push(key.to_string());
            let values: Vec<(String, Option<TokenValue>)> = per_mode
                .iter()
                .map(|(mode, m)| {
                    let v = m.get(i).and_then(|e| e.iter().find(|(k, _, _)| *k == key));
                    (mode.clone(), v.map(|(_, _, v)| v.clone()))
                })
                .collect();
            let description = t.description.as_ref();
            let Some(v) = b.add(&path, ty, at.collection, &values, description, web.clone()) else {
                continue;
            };
            v.scopes = match (t.ty, ty) {
                (TokenType::Shadow, TokenType::Color) => vec!["EFFECT_COLOR"],
                (TokenType::Shadow, _) => vec!["EFFECT_FLOAT"],
                (_, TokenType::Color) => vec!["ALL_FILLS"],
                _ => vec![],
            };
        }
    }
}

/// A shadow layer or a gradient stop: its members, each with its type.
type Element = Vec<(&'static str, TokenType, TokenValue)>;

/// A shadow's layers or a gradient's stops as (member, type, value) lists,
/// aliased elements replaced by the elements they name.
fn elements(set: &TokenSet, value: &TokenValue, depth: usize) -> Vec<Element> {
    let value = match set.resolve(value) {
        Some(v) if depth < 8 => v,
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    match value.as_ref() {
        TokenValue::Shadow(items) => {
            for item in items {
                match item {
                    Item::Alias(target) => {
                        out.extend(elements(set, &TokenValue::Alias(target.clone()), depth + 1))
                    }
                    Item::Literal(l) => out.push(vec![
                        ("color", TokenType::Color, l.color.clone()),
                        ("offsetX", TokenType::Dimension, l.offset_x.clone()),
                        ("offsetY", TokenType::Dimension, l.offset_y.clone()),
                        ("blur", TokenType::Dimension, l.blur.clone()),
                        ("spread", TokenType::Dimension, l.spread.clone()),
                    ]),
                }
            }
        }
        TokenValue::Gradient(items) => {
            for item in items {
                match item {
                    Item::Alias(target) => {
                        out.extend(elements(set, &TokenValue::Alias(target.clone()), depth + 1))
                    }
                    Item::Literal(s) => out.push(vec![
                        ("color", TokenType::Color, s.color.clone()),
                        ("position", TokenType::Number, s.position.clone()),
                    ]),
                }
            }
        }
        _ => {}
    }
    out
}

/// Figma's limits on the whole body, then the body as text.
fn finish(mut body: Body, mut skipped: Vec<Skipped>) -> Output {
    for collection in body.variable_collections.iter().map(|c| c.id.clone()) {
        let ids: Vec<String> = body
            .variables
            .iter()
            .filter(|v| v.variable_collection_id == collection)
            .map(|v| v.id.clone())
            .collect();
        if ids.len() > MAX_VARIABLES_PER_COLLECTION {
            skipped.push((
                format!(
                    "{} variables exceed Figma's limit of {MAX_VARIABLES_PER_COLLECTION} per collection; the rest are left out",
                    ids.len()
                ),
                None,
            ));
            let dropped: HashSet<&String> = ids[MAX_VARIABLES_PER_COLLECTION..].iter().collect();
            body.variables.retain(|v| !dropped.contains(&v.id));
            body.variable_mode_values
                .retain(|mv| !dropped.contains(&mv.variable_id));
        }
    }
    let mut text = serde_json::to_string_pretty(&body).expect("serialisable");
    text.push('\n');
    if text.len() > MAX_BODY_BYTES {
        skipped.push((
            format!(
                "tokens.figma.json is {} bytes, over Figma's 4 MB request limit",
                text.len()
            ),
            None,
        ));
    }
    Output {
        body: text,
        skipped,
    }
}
