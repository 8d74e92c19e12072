//! spec.json: the canonical structured spec. Its shape is a published
//! contract, so it has its own types here; sections whose published form
//! equals the input (voice, audience, applications, promptKit) reuse the
//! model types, and the others wrap them to add computed fields.

use super::view::reference_value;
use super::{outputs, Context, Surface};
use crate::spec::brand::pair_contrast;
use crate::spec::model::{self, Ext};
use crate::spec::tokens::modes::Lookup;
use crate::spec::tokens::{
    Color, Component, Item, ShadowLayer, StrokeStyle, Token, TokenSet, TokenValue,
};
use crate::spec::Brand;
use serde::Serialize;
use serde_json::{json, Map, Value};

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Spec<'a> {
    pub slug: &'a str,
    pub name: &'a str,
    pub version: String,
    pub updated: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summary: Option<&'a str>,
    pub revision: Option<&'a str>,
    /// A brand of a family: the brand it extends (DESIGN.md §18).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extends: Option<Value>,
    /// `{"prefix": "ds"}`: the prefix of every custom property the brand
    /// publishes (brand.json's `naming`, or its source's), so a reader of
    /// spec.json (`marque lint --brand <url>`) names tokens as tokens.css
    /// does. Absent for none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub naming: Option<Value>,
    pub links: Links,
    pub tokens: Value,
    /// A resolver brand's modifiers; absent for tokens.json.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub modes: Vec<Mode<'a>>,
    pub voice: &'a model::Voice,
    pub audience: &'a model::Audience,
    pub logo: Logo<'a>,
    pub typography: Typography<'a>,
    pub color: ColorSection<'a>,
    pub applications: &'a [model::Application],
    pub prompt_kit: &'a model::PromptKit,
    #[serde(flatten)]
    pub ext: &'a Ext,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Links {
    pub page: String,
    pub spec_json: String,
    pub spec_md: String,
    pub tokens_css: String,
    pub tokens_figma_json: String,
    pub tokens_json: String,
    pub tokens_resolver_json: String,
    pub llms_txt: String,
    pub design_md: String,
    pub tailwind_css: String,
    pub family_json: String,
    pub tokens_js: String,
    pub tokens_dts: String,
    pub android_zip: String,
    pub android_values: String,
    /// The resources of the colour scheme's other context: values-night
    /// (or values-notnight, for a brand whose default is dark). Absent for
    /// a brand without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub android_values_night: Option<String>,
    pub ios_zip: String,
    /// Figma's variables import bundle (every paid plan).
    pub figma_zip: String,
    /// A released version's npm package (absent for the current brand).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub package_tgz: Option<String>,
    /// The brand's releases, from git tags (absent for a released version).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changelog_md: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub changelog_json: Option<String>,
    pub embed: String,
    pub demo: String,
    pub schema: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Logo<'a> {
    pub variants: Vec<LogoVariant<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clear_space: Option<&'a str>,
    pub misuse: &'a [String],
    #[serde(flatten)]
    pub ext: &'a Ext,
}

#[derive(Serialize)]
pub struct LogoVariant<'a> {
    #[serde(flatten)]
    pub variant: &'a model::LogoVariant,
    pub url: String,
}

#[derive(Serialize)]
pub struct Typography<'a> {
    pub families: Vec<WithValue<'a, model::FontRole>>,
    pub styles: Vec<WithValue<'a, model::TextStyle>>,
    #[serde(flatten)]
    pub ext: &'a Ext,
}

#[derive(Serialize)]
pub struct WithValue<'a, T> {
    #[serde(flatten)]
    pub entry: &'a T,
    /// The resolved CSS value of the entry's token.
    pub value: String,
}

/// A palette entry with its colour's CSS value and sRGB hex (for a colour
/// outside sRGB, the fallback a surface that needs sRGB shows).
#[derive(Serialize)]
pub struct Swatch<'a> {
    #[serde(flatten)]
    pub entry: &'a model::PaletteEntry,
    pub value: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hex: Option<String>,
}

#[derive(Serialize)]
pub struct ColorSection<'a> {
    pub palette: Vec<Swatch<'a>>,
    pub pairs: Vec<Pair<'a>>,
    #[serde(flatten)]
    pub ext: &'a Ext,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pair<'a> {
    #[serde(flatten)]
    pub pair: &'a model::ContrastPair,
    /// WCAG 2 contrast ratio with two decimals, e.g. `"7.12"`... as a number.
    pub contrast: f64,
    pub passes: bool,
    /// The pair in each context that changes either colour.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub in_contexts: Vec<PairInContext>,
}

#[derive(Serialize)]
pub struct PairInContext {
    pub modifier: String,
    pub context: String,
    pub contrast: f64,
    pub passes: bool,
}

/// A modifier of a resolver brand: how a page picks a context, and each
/// context's tokens that differ from the default.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Mode<'a> {
    pub name: &'a str,
    /// The HTML attribute that picks a context in tokens.css: `data-theme`.
    pub attribute: String,
    pub default: &'a str,
    /// True when the contexts are light and dark: tokens.css follows the
    /// reader's `prefers-color-scheme`.
    pub color_scheme: bool,
    pub contexts: Vec<ModeContext<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ModeContext<'a> {
    pub name: &'a str,
    /// The attribute's value for this context: `dark`.
    pub value: String,
    /// `light` or `dark`, for a colour-scheme modifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scheme: Option<&'static str>,
    /// Each token this context sets apart from the default, by its dotted
    /// name, as `{"$type", "$value"}` (the default's context has none).
    pub tokens: Map<String, Value>,
}

/// The modifiers of `set`, for spec.json.
fn modes(set: &TokenSet) -> Vec<Mode<'_>> {
    set.modes
        .iter()
        .enumerate()
        .map(|(mi, m)| Mode {
            name: &m.name,
            attribute: m.attribute(),
            default: &m.contexts[m.default].name,
            color_scheme: m.is_color_scheme(),
            contexts: m
                .contexts
                .iter()
                .enumerate()
                .map(|(i, c)| ModeContext {
                    name: &c.name,
                    value: c.ident(),
                    scheme: m.is_color_scheme().then(|| c.scheme()),
                    tokens: context_tokens(set, mi, i),
                })
                .collect(),
        })
        .collect()
}

/// What context `c` of modifier `m` sets apart from the default, by
/// dotted name: what it writes, and the colours that aliases with an alpha
/// paint differently there (written as those colours, as in the default).
fn context_tokens(set: &TokenSet, m: usize, c: usize) -> Map<String, Value> {
    let entry =
        |t: &Token, v: &TokenValue| json!({"$type": t.ty.as_str(), "$value": dtcg_value(v)});
    let view = set.view(m, c);
    let mut out: Map<String, Value> = view
        .written()
        .iter()
        .map(|t| match composited(&view, t) {
            Some((painted, _)) => (t.name(), entry(t, &painted)),
            None => (t.name(), entry(t, &t.value)),
        })
        .collect();
    if c != set.modes[m].default {
        for (t, painted) in set.composited_in(m, c) {
            out.entry(t.name()).or_insert_with(|| entry(t, &painted));
        }
    }
    out
}

/// `pair` in each context that changes either of its colours.
fn pair_in_contexts(set: &TokenSet, p: &model::ContrastPair) -> Vec<PairInContext> {
    crate::spec::brand::pair_in_contexts(set, p)
        .into_iter()
        .map(|c| {
            let modifier = &set.modes[c.modifier];
            PairInContext {
                modifier: modifier.name.clone(),
                context: modifier.contexts[c.context].name.clone(),
                contrast: c.ratio,
                passes: c.passes,
            }
        })
        .collect()
}

pub fn links(brand: &Brand, ctx: &Context) -> Links {
    let s = &brand.slug;
    let url = |surface: Surface| ctx.brand_url(s, surface.file());
    // An output only some versions serve: its link where this one does.
    let app = |file: &str| {
        let out = outputs::named(file)?;
        Some(ctx.brand_url(s, &out.file_of(brand, ctx.pin.is_some())?))
    };
    Links {
        page: ctx.brand_url(s, ""),
        spec_json: url(Surface::SpecJson),
        spec_md: url(Surface::SpecMd),
        tokens_css: url(Surface::TokensCss),
        tokens_figma_json: url(Surface::TokensFigma),
        tokens_json: url(Surface::TokensJson),
        tokens_resolver_json: url(Surface::TokensResolver),
        llms_txt: url(Surface::LlmsTxt),
        design_md: url(Surface::DesignMd),
        tailwind_css: url(Surface::TailwindCss),
        family_json: url(Surface::FamilyJson),
        tokens_js: url(Surface::TokensJs),
        tokens_dts: url(Surface::TokensDts),
        android_zip: ctx.brand_url(s, outputs::ANDROID_ZIP),
        android_values: ctx.brand_url(s, outputs::ANDROID_VALUES),
        android_values_night: app(outputs::ANDROID_NIGHT)
            .or_else(|| app(outputs::ANDROID_NOTNIGHT)),
        ios_zip: ctx.brand_url(s, outputs::IOS_ZIP),
        figma_zip: ctx.brand_url(s, outputs::FIGMA_ZIP),
        package_tgz: app(outputs::PACKAGE_TGZ),
        changelog_md: app(outputs::CHANGELOG_MD),
        changelog_json: app(outputs::CHANGELOG_JSON),
        embed: ctx.embed_url(s),
        demo: ctx.demo_url(s),
        schema: ctx.schema_url(),
    }
}

pub fn build<'a>(brand: &'a Brand, ctx: &'a Context) -> Spec<'a> {
    let tokens = &brand.tokens;
    Spec {
        tokens: tokens_tree(tokens),
        modes: modes(tokens),
        ..build_prose(brand, ctx)
    }
}

/// [`build`] without the token tree and the modes, which are the costly
/// part (2 % of a first build went to spec.md's unused copy of them)
/// and which spec.md reads from the brand's tokens itself.
pub fn build_prose<'a>(brand: &'a Brand, ctx: &'a Context) -> Spec<'a> {
    let doc = &brand.doc;
    let tokens = &brand.tokens;
    Spec {
        slug: &brand.slug,
        name: &doc.name,
        version: brand.version.to_string(),
        updated: brand.updated.to_string(),
        summary: doc.summary.as_deref(),
        revision: brand.revision.as_deref(),
        extends: super::family::extends(brand),
        naming: (!tokens.prefix.is_empty()).then(|| json!({"prefix": tokens.prefix})),
        links: links(brand, ctx),
        tokens: Value::Null,
        modes: Vec::new(),
        voice: &doc.voice,
        audience: &doc.audience,
        logo: Logo {
            variants: doc
                .logo
                .variants
                .iter()
                .map(|v| LogoVariant {
                    variant: v,
                    url: ctx.brand_url(&brand.slug, &v.file),
                })
                .collect(),
            clear_space: doc.logo.clear_space.as_deref(),
            misuse: &doc.logo.misuse,
            ext: &doc.logo.ext,
        },
        typography: Typography {
            families: doc
                .typography
                .families
                .iter()
                .map(|f| WithValue {
                    entry: f,
                    value: reference_value(tokens, &f.token),
                })
                .collect(),
            styles: doc
                .typography
                .styles
                .iter()
                .map(|s| WithValue {
                    entry: s,
                    value: reference_value(tokens, &s.token),
                })
                .collect(),
            ext: &doc.typography.ext,
        },
        color: ColorSection {
            palette: doc
                .color
                .palette
                .iter()
                .map(|p| Swatch {
                    entry: p,
                    value: reference_value(tokens, &p.token),
                    hex: match tokens.resolve_reference(&p.token).as_deref() {
                        Some(TokenValue::Color(c)) => Some(c.srgb_hex()),
                        _ => None,
                    },
                })
                .collect(),
            pairs: doc
                .color
                .pairs
                .iter()
                .map(|p| {
                    let (contrast, passes) =
                        pair_contrast(tokens, &p.foreground, &p.background, &p.level)
                            .unwrap_or((0.0, false));
                    Pair {
                        pair: p,
                        contrast,
                        passes,
                        in_contexts: pair_in_contexts(tokens, p),
                    }
                })
                .collect(),
            ext: &doc.color.ext,
        },
        applications: &doc.applications,
        prompt_kit: &doc.prompt_kit,
        ext: &doc.ext,
    }
}

pub fn render(brand: &Brand, ctx: &Context) -> String {
    let mut s = serde_json::to_string_pretty(&build(brand, ctx)).expect("serialisable");
    s.push('\n');
    s
}

fn num(n: f64) -> Value {
    serde_json::Number::from_f64(n)
        .map(Value::Number)
        .unwrap_or(Value::Null)
}

fn alias(target: &str) -> Value {
    Value::String(format!("{{{target}}}"))
}

/// The DTCG 2025.10 JSON of one value: aliases as `{…}`, legacy forms normalised.
/// A token's value as spec.json writes it, with every alias in it (the
/// value itself, or a part of a composite) replaced by what it names: what
/// a caller that cannot follow references reads (MCP's `find_tokens`).
pub fn resolved_value(set: &impl Lookup, v: &TokenValue) -> Value {
    resolved_at(set, v, 0)
}

fn resolved_at(set: &impl Lookup, v: &TokenValue, depth: usize) -> Value {
    let mut out = dtcg_value(set.resolve_value(v).as_deref().unwrap_or(v));
    resolve_parts(set, &mut out, depth);
    out
}

/// Replaces the references left in the parts of a written value. Chains
/// are resolved by the set; only nesting (a shadow's colour that is a
/// gradient's stop …) recurses, and not without end.
fn resolve_parts(set: &impl Lookup, value: &mut Value, depth: usize) {
    if depth > crate::spec::limits::MAX_ALIAS_DEPTH {
        return;
    }
    match value {
        Value::String(s) => {
            let target = crate::spec::tokens::parse_reference(s).and_then(|n| set.token(n));
            if let Some(t) = target {
                *value = resolved_at(set, &t.value, depth + 1);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| resolve_parts(set, v, depth)),
        Value::Object(members) => members
            .values_mut()
            .for_each(|v| resolve_parts(set, v, depth)),
        _ => {}
    }
}

pub fn dtcg_value(v: &TokenValue) -> Value {
    match v {
        TokenValue::Alias(t) => alias(t),
        // DTCG 2025.10 has no alias with an alpha: what can resolve it
        // writes the colour it paints ([`composited`]); this is the rest.
        TokenValue::AliasWithAlpha { target, .. } => alias(target),
        TokenValue::Color(c) => color_json(c),
        TokenValue::Dimension(d) => json!({"value": num(d.value), "unit": d.unit.as_str()}),
        TokenValue::Duration(d) => json!({"value": num(d.value), "unit": d.unit_str()}),
        TokenValue::FontFamily(names) if names.len() == 1 => json!(names[0]),
        TokenValue::FontFamily(names) => json!(names),
        TokenValue::String(text) => json!(text),
        TokenValue::FontWeight(n) | TokenValue::Number(n) => num(*n),
        TokenValue::CubicBezier(p) => Value::Array(p.iter().map(|x| num(*x)).collect()),
        TokenValue::StrokeStyle(StrokeStyle::Keyword(k)) => json!(k),
        TokenValue::StrokeStyle(StrokeStyle::Dashed {
            dash_array,
            line_cap,
        }) => {
            json!({"dashArray": dash_array.iter().map(dtcg_value).collect::<Vec<_>>(), "lineCap": line_cap})
        }
        TokenValue::Composite(c) => Value::Object(
            c.parts()
                .map(|(part, value)| (part.key.to_string(), dtcg_value(value)))
                .chain(c.extra.iter().cloned())
                .collect(),
        ),
        TokenValue::Shadow(layers) => shadow_json(layers),
        TokenValue::Gradient(stops) => Value::Array(
            stops
                .iter()
                .map(|item| match item {
                    Item::Alias(t) => alias(t),
                    Item::Literal(s) => {
                        json!({"color": dtcg_value(&s.color), "position": dtcg_value(&s.position)})
                    }
                })
                .collect(),
        ),
    }
}

fn color_json(c: &Color) -> Value {
    let mut o = Map::new();
    o.insert("colorSpace".into(), json!(c.space));
    o.insert(
        "components".into(),
        Value::Array(
            c.components
                .iter()
                .map(|x| match x {
                    Component::Num(n) => num(*n),
                    Component::None => json!("none"),
                })
                .collect(),
        ),
    );
    if c.alpha < 1.0 {
        o.insert("alpha".into(), num(c.alpha));
    }
    // DTCG's own fallback member: the author's, or for a colour given only
    // by components, computed (gamut-clipped outside sRGB).
    o.insert("hex".into(), json!(c.srgb_hex()));
    Value::Object(o)
}

/// One layer as an object, several as an array (as the author wrote them).
fn shadow_json(layers: &[Item<ShadowLayer>]) -> Value {
    let mut list: Vec<Value> = layers
        .iter()
        .map(|item| {
            let l = match item {
                Item::Alias(t) => return alias(t),
                Item::Literal(l) => l,
            };
            let mut o = json!({
                "color": dtcg_value(&l.color), "offsetX": dtcg_value(&l.offset_x), "offsetY": dtcg_value(&l.offset_y),
                "blur": dtcg_value(&l.blur), "spread": dtcg_value(&l.spread)
            });
            if l.inset {
                o["inset"] = json!(true);
            }
            o
        })
        .collect();
    if list.len() == 1 {
        list.pop().unwrap_or_default()
    } else {
        Value::Array(list)
    }
}

/// The token set as a DTCG 2025.10 document in source order, with an
/// explicit `$type` on every token so consumers need not implement type
/// inheritance. Group descriptions and extensions are kept.
pub fn tokens_tree(set: &TokenSet) -> Value {
    tree(
        &set.groups,
        set.tokens.iter().map(|t| {
            let m = match composited(set, t) {
                Some((value, ext)) => members(t, dtcg_value(&value), Some((EXTENSION, ext))),
                None => members(t, dtcg_value(&t.value), None),
            };
            (t, m)
        }),
    )
}

/// The `$extensions` key under which marque says what a value was written
/// as where DTCG 2025.10 has no form for it.
pub const EXTENSION: &str = "com.marque";

/// An alias with an alpha beside it, which DTCG 2025.10 cannot write: the
/// colour it paints where `lookup` resolves it, and the extension that
/// records the alias and the alpha (`{"aliasWithAlpha": {"alias", "alpha"}}`).
/// `None` for every other token.
pub fn composited(lookup: &impl Lookup, t: &Token) -> Option<(TokenValue, Value)> {
    let TokenValue::AliasWithAlpha { target, alpha } = &t.value else {
        return None;
    };
    let painted = lookup.resolve_value(&t.value)?.into_owned();
    let ext = json!({"aliasWithAlpha": {"alias": format!("{{{target}}}"), "alpha": num(*alpha)}});
    Some((painted, ext))
}

/// A token's members: `$type`, `$value` (given), `$description`,
/// `$deprecated` and `$extensions` (its own, with `extensions` added).
pub fn members(t: &Token, value: Value, extensions: Option<(&str, Value)>) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("$type".into(), json!(t.ty.as_str()));
    o.insert("$value".into(), value);
    if let Some(d) = &t.description {
        o.insert("$description".into(), json!(d));
    }
    if let Some(d) = &t.deprecated {
        o.insert("$deprecated".into(), d.clone());
    }
    let mut ext = t.extensions.clone();
    if let Some((key, added)) = extensions {
        let mut map = match ext.take() {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        };
        map.insert(key.to_string(), added);
        ext = Some(Value::Object(map));
    }
    if let Some(e) = ext {
        o.insert("$extensions".into(), e);
    }
    o
}

/// Tokens, each with its members, nested into their groups in the order
/// given; groups keep their description, extensions and deprecation.
pub fn tree<'t>(
    groups: &[crate::spec::tokens::Group],
    tokens: impl IntoIterator<Item = (&'t Token, Map<String, Value>)>,
) -> Value {
    let groups: std::collections::HashMap<&[String], &crate::spec::tokens::Group> =
        groups.iter().map(|g| (g.path.as_slice(), g)).collect();
    let mut root = Map::new();
    if let Some(g) = groups.get(&[][..]) {
        if let Some(d) = &g.description {
            root.insert("$description".into(), json!(d));
        }
    }
    for (t, members) in tokens {
        crate::spec::limits::checkpoint();
        let (last, parents) = t.path.split_last().expect("tokens have a name");
        let mut node = &mut root;
        for depth in 1..=parents.len() {
            let seg = &parents[depth - 1];
            if !node.contains_key(seg) {
                let mut meta = Map::new();
                if let Some(g) = groups.get(&parents[..depth]) {
                    if let Some(d) = &g.description {
                        meta.insert("$description".into(), json!(d));
                    }
                    if let Some(e) = &g.extensions {
                        meta.insert("$extensions".into(), e.clone());
                    }
                    if let Some(d) = &g.deprecated {
                        meta.insert("$deprecated".into(), d.clone());
                    }
                }
                node.insert(seg.clone(), Value::Object(meta));
            }
            node = node
                .get_mut(seg)
                .and_then(Value::as_object_mut)
                .expect("groups are objects");
        }
        node.insert(last.clone(), Value::Object(members));
    }
    Value::Object(root)
}
