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
mod layers;
pub(crate) use kinds::{figma_type, scopes};

use super::Context;
use crate::spec::tokens::css;
use crate::spec::tokens::modes::{ModeContext, Modifier};
use crate::spec::tokens::{Composite, Token, TokenSet, TokenType, TokenValue};
use crate::spec::Brand;
use serde::Serialize;
use std::collections::{HashMap, HashSet};

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
    /// Each modifier's Figma mode ids, with the modifier and context they
    /// stand for: a value written in a context resolves there.
    contexts: HashMap<String, (usize, usize)>,
    /// The tokens an alias may point at: those with a variable in the body.
    exported: HashSet<String>,
    /// Exportable tokens that an earlier pass could not give a variable;
    /// an alias to one is written as the value it resolves to.
    dropped: HashSet<String>,
    body: Body,
    skipped: Vec<Skipped>,
}

impl Builder<'_> {
    /// `v` resolved to a literal in the context Figma mode `mode` stands
    /// for (the default tokens for the base collection's mode).
    fn resolve(&self, mode: &str, v: &TokenValue) -> Option<TokenValue> {
        match self.contexts.get(mode) {
            Some(&(m, c)) => self.set.view(m, c).resolve(v).map(|v| v.into_owned()),
            None => self.set.resolve(v).map(|v| v.into_owned()),
        }
    }

    /// Adds one variable for `t` (or a part of it) to `collection` with a
    /// value per mode; a value may be an alias to an exported token, in any
    /// collection. An alias to a token an earlier pass left out is written
    /// as its value, with a warning. `Err` with the first mode whose value
    /// Figma cannot hold (`None`: the type has no Figma variable).
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        t: &Token,
        name_path: &[String],
        ty: TokenType,
        collection: usize,
        values: &[(String, Option<TokenValue>)],
        description: Option<&String>,
        web: String,
    ) -> Result<&mut VariableCreate, Option<String>> {
        let resolved_type = figma_type(ty).ok_or(None)?;
        let id = var_id(&name_path.join("."));
        let mut mode_values = Vec::new();
        let mut unfollowed = None;
        for (mode, value) in values {
            let v = match value {
                Some(TokenValue::Alias(target)) if self.exported.contains(target) => {
                    Some(Value::Alias {
                        kind: "VARIABLE_ALIAS",
                        id: var_id(target),
                    })
                }
                // A string's `{references}` are resolved: Figma has no var().
                Some(TokenValue::String(text)) if css::has_references(text) => {
                    css::interpolate(text, self.set, css::Refs::Resolve, 0)
                        .and_then(|text| literal(&TokenValue::String(text)))
                }
                Some(other) => {
                    if let Some(target) = other.alias_target() {
                        if self.dropped.contains(target) {
                            unfollowed = Some(target.to_string());
                        }
                    }
                    self.resolve(mode, other).as_ref().and_then(literal)
                }
                None => None,
            };
            let Some(v) = v else {
                return Err(Some(mode.rsplit(':').next().unwrap_or(mode).to_string()));
            };
            mode_values.push(ModeValue {
                variable_id: id.clone(),
                mode_id: mode.clone(),
                value: v,
            });
        }
        if let Some(target) = unfollowed {
            self.skipped.push((
                format!("variable `{}` refers to `{target}`, which tokens.figma.json leaves out; it holds the value `{target}` resolves to, so in Figma it no longer follows it", name_path.join("/")),
                Some((t.file.clone(), t.pointer.clone())),
            ));
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
        Ok(self.body.variables.last_mut().expect("just pushed"))
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
    // Whether a token gets a variable is known only once each of its
    // modes' values is tried, and an alias to one that did not would point
    // at nothing Figma holds. So the body is made again with such aliases
    // written as their values, until every alias's target is in the body;
    // each pass leaves out more tokens, so this ends (in one pass, almost
    // always).
    let mut dropped = HashSet::new();
    loop {
        let b = pass(brand, &dropped);
        let held: HashSet<&str> = b.body.variables.iter().map(|v| v.id.as_str()).collect();
        let unheld: Vec<String> = b
            .exported
            .iter()
            .filter(|name| !held.contains(var_id(name).as_str()))
            .cloned()
            .collect();
        if unheld.is_empty() {
            return finish(b.body, b.skipped);
        }
        dropped.extend(unheld);
    }
}

/// One pass over the tokens, aliases to `dropped` written as their values.
fn pass<'a>(brand: &'a Brand, dropped: &HashSet<String>) -> Builder<'a> {
    let set = &brand.tokens;
    let mut skipped = Vec::new();
    let mut body = Body {
        variable_collections: Vec::new(),
        variable_modes: Vec::new(),
        variables: Vec::new(),
        variable_mode_values: Vec::new(),
    };
    let collection_ids = collections(brand, &mut body, &mut skipped);
    let contexts = set
        .modes
        .iter()
        .enumerate()
        .flat_map(|(m, modifier)| {
            with_modes(modifier).map(move |(c, context)| {
                (mode_id(&brand.slug, &modifier.name, &context.name), (m, c))
            })
        })
        .collect();
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
        contexts,
        exported: set
            .tokens
            .iter()
            .filter(|t| exportable(t))
            .map(Token::name)
            .filter(|name| !dropped.contains(name))
            .collect(),
        dropped: dropped.clone(),
        body,
        skipped: Vec::new(),
    };
    for t in &set.tokens {
        crate::spec::limits::checkpoint();
        let web = format!("var(--{})", set.var_name(&t.path));
        let at = placement(brand, t, &mut skipped);
        match (&t.value, t.ty) {
            (_, ty @ (TokenType::Typography | TokenType::Border | TokenType::Transition | TokenType::Shadow | TokenType::Gradient)) => {
                let before = b.body.variables.len();
                if matches!(ty, TokenType::Shadow | TokenType::Gradient) {
                    layers::layers(&mut b, t, &at);
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
                let added = b.add(t, &t.path, ty, at.collection, &values, description.as_ref(), web);
                if let Err(Some(mode)) = added {
                    skipped.push((
                        format!("token `{}` has no value Figma can hold in mode `{mode}` and is left out of tokens.figma.json", t.name()),
                        Some((t.file.clone(), t.pointer.clone())),
                    ));
                }
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
    // Placement's warnings first, as before aliases' own.
    skipped.append(&mut b.skipped);
    b.skipped = skipped;
    b
}

/// Figma has no composite variable: a border, transition or typography
/// is its parts that Figma holds, each a variable named under the token
/// (`border/focus/color`) and written as the part's own custom property;
/// a border's style, which no Figma field takes, stays in CSS. A
/// typography's line height is in pixels (a unitless factor in DTCG).
fn composite(b: &mut Builder<'_>, t: &Token, at: &Placement<'_>) {
    let base = b.set.var_name(&t.path);
    // Each mode's composite, resolved in the context the mode stands for.
    let per_mode: Vec<(String, Option<Composite>)> = at
        .modes
        .iter()
        .map(|(mode, x)| match b.resolve(mode, &x.value) {
            Some(TokenValue::Composite(c)) => (mode.clone(), Some(c)),
            _ => (mode.clone(), None),
        })
        .collect();
    for part in t.ty.parts().iter().filter(|p| p.key != "lineHeight") {
        let mut path = t.path.clone();
        path.push(part.key.to_string());
        let values: Vec<(String, Option<TokenValue>)> = per_mode
            .iter()
            .map(|(mode, c)| {
                (
                    mode.clone(),
                    c.as_ref().and_then(|c| c.get(part.key).cloned()),
                )
            })
            .collect();
        let web = format!("var(--{base}-{})", part.css);
        let description = t.described(b.set);
        let added = b.add(
            t,
            &path,
            part.ty,
            at.collection,
            &values,
            description.as_ref(),
            web,
        );
        if let (Ok(v), TokenType::Border) = (added, t.ty) {
            v.scopes = match part.ty {
                TokenType::Color => vec!["STROKE_COLOR"],
                _ => vec!["STROKE_FLOAT"],
            };
        }
    }
    if t.ty != TokenType::Typography {
        return;
    }
    let line = |mode: &str, c: &Composite| {
        let size = c.get("fontSize").and_then(|v| b.resolve(mode, v));
        let px = match c.get("lineHeight").and_then(|v| b.resolve(mode, v)) {
            Some(TokenValue::Number(f)) => size.as_ref().and_then(pixels).map(|s| s * f),
            Some(TokenValue::Dimension(d)) => d.px(),
            _ => None,
        }?;
        Some(TokenValue::Number(round(px)))
    };
    let values: Vec<(String, Option<TokenValue>)> = per_mode
        .iter()
        .map(|(mode, c)| (mode.clone(), c.as_ref().and_then(|c| line(mode, c))))
        .collect();
    let mut path = t.path.clone();
    path.push("lineHeight".into());
    let web = format!("var(--{base}-line-height)");
    let description = t.described(b.set);
    if let Ok(v) = b.add(
        t,
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
