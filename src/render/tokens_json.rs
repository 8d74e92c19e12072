//! tokens.json and tokens.resolver.json: the brand's tokens in strict DTCG
//! 2025.10, after the tolerant reading, for the tools that read the format
//! (Terrazzo, Style Dictionary, Tokens Studio).
//!
//! - tokens.json: the default permutation, every token with an explicit
//!   `$type`, aliases kept.
//! - tokens.resolver.json: a self-contained Resolver Module 2025.10
//!   document: one set (the default permutation) and, for each modifier,
//!   each context with only the tokens that differ there (sources inlined).
//!   Resolving any permutation of it gives that permutation's tokens.
//!
//! What the tolerant reading kept that 2025.10 has no form for is made
//! strict where that is exact, else left out and reported:
//! - a typography's `lineHeight` given as a length becomes the ratio to
//!   its `fontSize`, and an `em` or `%` `letterSpacing` becomes pixels of
//!   it (both exact when the font size is in px or rem);
//! - other lengths in `em`, `%`, `vw`, `vh`, `string` tokens and font
//!   family names holding `{` or `}` (which the format's readers take for
//!   a reference) are left out, and so is every token that refers to one;
//! - composite members outside the type's table move to the token's
//!   `$extensions` under [`EXTENSION`].

use super::spec_json::{composited, dtcg_value, members, tree};
use crate::spec::tokens::modes::Modifier;
use crate::spec::tokens::refs::collect_aliases;
use crate::spec::tokens::{
    round, Composite, DimUnit, Dimension, Item, StrokeStyle, Token, TokenSet, TokenType,
    TokenValue, WrittenAt,
};
use crate::spec::Brand;
use serde_json::{json, Map, Value};
use std::collections::HashSet;

/// The `$extensions` key under which composite members outside the type's
/// table are kept (`{"members": {"WebkitFontSmoothing": …}}`), and an
/// alias with an alpha (`{"aliasWithAlpha": …}`, see [`composited`]).
pub use super::spec_json::EXTENSION;

/// The resolver module's schema, named by the document.
const RESOLVER_SCHEMA: &str = "https://www.designtokens.org/schemas/2025.10/resolver.json";

/// A rendered document and the tokens it had to leave out, each with why
/// and where it is written.
pub struct Strict {
    pub body: String,
    pub skipped: Vec<(String, Option<WrittenAt>)>,
}

/// tokens.json: the default permutation.
pub fn render(brand: &Brand) -> Strict {
    render_both(brand).0
}

/// tokens.resolver.json: every mode.
pub fn render_resolver(brand: &Brand) -> Strict {
    render_both(brand).1
}

/// tokens.json and tokens.resolver.json, whose set is tokens.json's tree:
/// made strict once. tokens.json reports what the default leaves out, the
/// resolver what its contexts leave out.
pub fn render_both(brand: &Brand) -> (Strict, Strict) {
    let set = &brand.tokens;
    let base = strict_tokens(set, &set.tokens, &HashSet::new());
    let mut skipped = Vec::new();
    let tree = document(&set.groups, &base.tokens, "tokens.json", &mut skipped);
    let tokens = Strict {
        body: pretty(&tree),
        skipped,
    };
    let mut skipped = Vec::new();
    let mut doc = Map::new();
    doc.insert("$schema".into(), json!(RESOLVER_SCHEMA));
    doc.insert("name".into(), json!(brand.doc.name));
    doc.insert("version".into(), json!("2025.10"));
    doc.insert("sets".into(), json!({ "tokens": { "sources": [tree] } }));
    let mut order = vec![json!({ "$ref": "#/sets/tokens" })];
    let mut modifiers = Map::new();
    for m in &set.modes {
        modifiers.insert(
            m.name.clone(),
            modifier(set, m, &base.left_out, &mut skipped),
        );
        order.push(json!({ "$ref": crate::spec::json::join("#/modifiers", &m.name) }));
    }
    if !modifiers.is_empty() {
        doc.insert("modifiers".into(), Value::Object(modifiers));
    }
    doc.insert("resolutionOrder".into(), Value::Array(order));
    let resolver = Strict {
        body: pretty(&Value::Object(doc)),
        skipped,
    };
    (tokens, resolver)
}

fn modifier(
    set: &TokenSet,
    m: &Modifier,
    left_out: &HashSet<String>,
    skipped: &mut Vec<(String, Option<WrittenAt>)>,
) -> Value {
    let mut contexts = Map::new();
    let at = set
        .modes
        .iter()
        .position(|x| std::ptr::eq(x, m))
        .unwrap_or(0);
    for (i, c) in m.contexts.iter().enumerate() {
        // An alias with an alpha is the colour it paints here: what the
        // context writes, and what it changes by changing the target.
        let view = set.view(at, i);
        let mut tokens: Vec<Token> = c
            .tokens
            .iter()
            .map(|t| match composited(&view, t) {
                Some((painted, _)) => Token {
                    value: painted,
                    ..t.clone()
                },
                None => t.clone(),
            })
            .collect();
        if i != m.default {
            for (t, painted) in set.composited_in(at, i) {
                if c.get(&t.name()).is_none() {
                    tokens.push(Token {
                        value: painted,
                        ..t.clone()
                    });
                }
            }
        }
        let kept = strict_tokens(set, &tokens, left_out);
        let what = format!("context `{}` of tokens.resolver.json", c.name);
        let tree = document(&[], &kept.tokens, &what, skipped);
        let sources = match tree.as_object().is_some_and(Map::is_empty) {
            true => Vec::new(),
            false => vec![tree],
        };
        contexts.insert(c.name.clone(), Value::Array(sources));
    }
    let mut doc = json!({
        "contexts": contexts,
        "default": m.contexts[m.default].name,
    });
    // The colour schemes the brand's resolver declares, so a re-import
    // keeps `y-night-hc` dark.
    let schemes: Map<String, Value> = m
        .contexts
        .iter()
        .filter_map(|c| Some((c.name.clone(), json!(c.declared_scheme()?))))
        .collect();
    if !schemes.is_empty() {
        doc["$extensions"] = json!({"app.marque": {"colorScheme": schemes}});
    }
    doc
}

/// A token in strict form (its value, and what its [`EXTENSION`] says of
/// what was made strict: composite members outside its type, an alias
/// with an alpha), or why it has none.
type StrictForm = Result<(TokenValue, Option<Value>), String>;

/// Tokens made strict: each kept with its value and extra members, or left
/// out with why.
struct Kept<'t> {
    tokens: Vec<(&'t Token, StrictForm)>,
    left_out: HashSet<String>,
}

/// `tokens` (of `set`, or of a context over it) made strict. A token that
/// refers to one left out (here or in `already`) is left out too.
fn strict_tokens<'t>(set: &TokenSet, tokens: &'t [Token], already: &HashSet<String>) -> Kept<'t> {
    let mut out: Vec<_> = tokens.iter().map(|t| (t, strict(t, set))).collect();
    let mut left_out: HashSet<String> = already.clone();
    left_out.extend(
        out.iter()
            .filter(|(_, r)| r.is_err())
            .map(|(t, _)| t.name()),
    );
    // Each pass leaves out the tokens that refer to one left out by the
    // last; chains are at most `MAX_ALIAS_DEPTH` long.
    loop {
        let mut more = Vec::new();
        for (t, r) in out.iter_mut() {
            let Ok((value, _)) = r else { continue };
            let mut aliases = Vec::new();
            collect_aliases(value, t.ty, "", &mut aliases);
            if let Some((target, ..)) = aliases.iter().find(|(a, ..)| left_out.contains(a)) {
                *r = Err(format!("it refers to `{target}`, which is left out"));
                more.push(t.name());
            }
        }
        if more.is_empty() {
            break;
        }
        left_out.extend(more);
    }
    Kept {
        tokens: out,
        left_out,
    }
}

/// The tree of the kept tokens; a warning in `skipped` for each left out
/// of `what`.
fn document(
    groups: &[crate::spec::tokens::Group],
    tokens: &[(&Token, StrictForm)],
    what: &str,
    skipped: &mut Vec<(String, Option<WrittenAt>)>,
) -> Value {
    let mut kept = Vec::new();
    for (t, r) in tokens {
        crate::spec::limits::checkpoint();
        match r {
            Ok((value, extension)) => {
                let extension = extension.clone().map(|e| (EXTENSION, e));
                kept.push((*t, members(t, dtcg_value(value), extension)));
            }
            Err(why) => skipped.push((
                format!(
                    "token `{}` has no strict DTCG 2025.10 form ({why}); it is left out of {what} (spec.json and tokens.css keep it)",
                    t.name()
                ),
                Some((t.file.clone(), t.pointer.clone())),
            )),
        }
    }
    tree(groups, kept)
}

fn pretty(doc: &Value) -> String {
    let mut s = serde_json::to_string_pretty(doc).expect("serialisable");
    s.push('\n');
    s
}

/// One token in strict 2025.10: its value, and the composite members
/// outside its type's table; or why it has no strict form.
fn strict(t: &Token, set: &TokenSet) -> StrictForm {
    if t.ty == TokenType::String {
        return Err("`string` is not a type of the format".into());
    }
    if let TokenValue::String(_) = t.value {
        return Err(format!("it is a {} written as CSS text", t.ty.as_str()));
    }
    if let Some((painted, extension)) = composited(set, t) {
        return Ok((painted, Some(extension)));
    }
    let mut value = t.value.clone();
    let mut extra = None;
    if let TokenValue::Composite(c) = &mut value {
        if !c.extra.is_empty() {
            let members = Value::Object(std::mem::take(&mut c.extra).into_iter().collect());
            extra = Some(json!({ "members": members }));
        }
        if c.ty == TokenType::Typography {
            typography(c, set)?;
        }
    }
    lengths(&value)?;
    braces(&value)?;
    Ok((value, extra))
}

/// An error naming the first font family name that holds `{` or `}`:
/// 2025.10 keeps braces for references, so its readers take such a name
/// for a malformed one (Terrazzo refuses the file, Style Dictionary looks
/// the text up as a token). No escape exists for them in the format.
fn braces(v: &TokenValue) -> Result<(), String> {
    match v {
        TokenValue::FontFamily(names) => match names.iter().find(|n| n.contains(['{', '}'])) {
            Some(name) => Err(format!(
                "its font family name {} holds `{{` or `}}`, which the format's readers take for a reference",
                serde_json::to_string(name).unwrap_or_default()
            )),
            None => Ok(()),
        },
        TokenValue::Composite(c) => c.parts().try_for_each(|(_, v)| braces(v)),
        _ => Ok(()),
    }
}

/// A typography's `lineHeight` as a ratio, and its `letterSpacing` in
/// pixels, where they were lengths relative to the font.
fn typography(c: &mut Composite, set: &TokenSet) -> Result<(), String> {
    let size = c
        .get("fontSize")
        .and_then(|v| set.resolve(v))
        .and_then(|v| match v.as_ref() {
            TokenValue::Dimension(d) => d.px(),
            _ => None,
        });
    let resolved = |c: &Composite, key: &str| {
        c.get(key)
            .and_then(|v| set.resolve(v))
            .map(|v| v.into_owned())
    };
    if let Some(TokenValue::String(s)) = resolved(c, "lineHeight") {
        return Err(format!(
            "its lineHeight is CSS `{s}`, which the format has no number for"
        ));
    }
    if let Some(TokenValue::Dimension(d)) = resolved(c, "lineHeight") {
        let ratio = match (d.unit, size) {
            (DimUnit::Em, _) => d.value,
            (DimUnit::Percent, _) => d.value / 100.0,
            (DimUnit::Px | DimUnit::Rem, Some(size)) if size > 0.0 => {
                d.px().unwrap_or_default() / size
            }
            _ => {
                return Err(format!(
                    "its lineHeight in {} has no ratio to its font size",
                    d.unit.as_str()
                ))
            }
        };
        c.set("lineHeight", TokenValue::Number(round(ratio, 4)));
    }
    if let Some(TokenValue::Dimension(d)) = resolved(c, "letterSpacing") {
        if !d.unit.is_strict() {
            let em = match d.unit {
                DimUnit::Em => d.value,
                DimUnit::Percent => d.value / 100.0,
                _ => return Err(format!("its letterSpacing is in {}", d.unit.as_str())),
            };
            let Some(size) = size else {
                return Err("its letterSpacing is relative to a font size in no fixed unit".into());
            };
            c.set(
                "letterSpacing",
                TokenValue::Dimension(Dimension {
                    value: round(em * size, 4),
                    unit: DimUnit::Px,
                }),
            );
        }
    }
    Ok(())
}

/// An error naming the first length written in a unit outside 2025.10.
fn lengths(v: &TokenValue) -> Result<(), String> {
    fn each<'a>(mut vs: impl Iterator<Item = &'a TokenValue>) -> Result<(), String> {
        vs.try_for_each(lengths)
    }
    match v {
        TokenValue::Dimension(d) if !d.unit.is_strict() => Err(format!(
            "`{}` lengths have no fixed size in px or rem",
            d.unit.as_str()
        )),
        TokenValue::Composite(c) => each(c.parts().map(|(_, v)| v)),
        TokenValue::StrokeStyle(StrokeStyle::Dashed { dash_array, .. }) => each(dash_array.iter()),
        TokenValue::Shadow(layers) => layers.iter().try_for_each(|l| match l {
            Item::Literal(l) => {
                each(&mut [&l.color, &l.offset_x, &l.offset_y, &l.blur, &l.spread].into_iter())
            }
            Item::Alias(_) => Ok(()),
        }),
        TokenValue::Gradient(stops) => stops.iter().try_for_each(|s| match s {
            Item::Literal(s) => each([&s.color, &s.position].into_iter()),
            Item::Alias(_) => Ok(()),
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::diag::FileDiags;
    use crate::spec::tokens::parse_tokens;
    use std::collections::BTreeMap;

    /// The strict form of every token of `text`, by name: its `$value` as
    /// JSON with its extra members, or why it is left out.
    fn strict_of(text: &str) -> BTreeMap<String, Result<(Value, Option<Value>), String>> {
        let doc: Value = serde_json::from_str(text).unwrap();
        let mut d = FileDiags::new("b", "b/tokens.json");
        let set = parse_tokens(&doc, &mut d).unwrap();
        let kept = strict_tokens(&set, &set.tokens, &HashSet::new());
        kept.tokens
            .into_iter()
            .map(|(t, r)| (t.name(), r.map(|(v, extra)| (dtcg_value(&v), extra))))
            .collect()
    }

    #[test]
    fn what_strict_2025_10_has_no_form_for_is_made_exact_or_left_out() {
        let out = strict_of(
            r##"{
              "size": { "$type": "dimension", "$value": { "value": 20, "unit": "px" } },
              "wide": { "$type": "dimension", "$value": { "value": 50, "unit": "vw" } },
              "gap": { "$type": "dimension", "$value": "{wide}" },
              "feature": { "$type": "string", "$value": "tnum" },
              "body": { "$type": "typography", "$value": {
                "fontFamily": "Inter", "fontSize": "{size}", "fontWeight": 400,
                "letterSpacing": { "value": 0.05, "unit": "em" },
                "lineHeight": { "value": 30, "unit": "px" },
                "WebkitFontSmoothing": "antialiased" } },
              "caption": { "$type": "typography", "$value": {
                "fontFamily": "Inter", "fontSize": { "value": 1, "unit": "em" }, "fontWeight": 400,
                "letterSpacing": { "value": 0.1, "unit": "em" }, "lineHeight": 1.4 } }
            }"##,
        );
        let (body, extra) = out["body"].clone().unwrap();
        assert_eq!(body["lineHeight"], 1.5, "30px over a 20px font");
        assert_eq!(
            body["letterSpacing"],
            serde_json::json!({"value": 1.0, "unit": "px"})
        );
        assert_eq!(body["fontSize"], "{size}", "aliases stay");
        assert!(body.get("WebkitFontSmoothing").is_none());
        assert_eq!(
            extra.unwrap()["members"]["WebkitFontSmoothing"],
            "antialiased"
        );
        assert!(out["size"].is_ok());
        assert!(out["wide"].as_ref().unwrap_err().contains("`vw` lengths"));
        assert!(out["gap"]
            .as_ref()
            .unwrap_err()
            .contains("refers to `wide`"));
        assert!(out["feature"].as_ref().unwrap_err().contains("`string`"));
        assert!(
            out["caption"]
                .as_ref()
                .unwrap_err()
                .contains("letterSpacing"),
            "an em font size gives no pixels: {:?}",
            out["caption"]
        );
    }

    /// A font family name with a brace has no strict form: Terrazzo
    /// refuses it as a malformed reference. A name without one, or an
    /// alias that stands as the whole value, is kept.
    #[test]
    fn font_family_names_holding_braces_are_left_out() {
        let out = strict_of(
            r##"{
              "evil": { "$type": "fontFamily", "$value": ["Evil\"; } body { color: red; } /*", "serif"] },
              "half": { "$type": "fontFamily", "$value": "Open}" },
              "plain": { "$type": "fontFamily", "$value": ["Inter", "sans-serif"] },
              "follows": { "$type": "fontFamily", "$value": "{plain}" },
              "body": { "$type": "typography", "$value": {
                "fontFamily": "{evil}", "fontSize": { "value": 16, "unit": "px" }, "fontWeight": 400,
                "letterSpacing": { "value": 0, "unit": "px" }, "lineHeight": 1.5 } },
              "inline": { "$type": "typography", "$value": {
                "fontFamily": ["{x}y"], "fontSize": { "value": 16, "unit": "px" }, "fontWeight": 400,
                "letterSpacing": { "value": 0, "unit": "px" }, "lineHeight": 1.5 } }
            }"##,
        );
        assert!(out["evil"]
            .as_ref()
            .unwrap_err()
            .contains("holds `{` or `}`"));
        assert!(out["half"].as_ref().unwrap_err().contains("\"Open}\""));
        assert!(out["plain"].is_ok());
        assert!(out["follows"].is_ok(), "{:?}", out["follows"]);
        assert!(out["body"]
            .as_ref()
            .unwrap_err()
            .contains("refers to `evil`"));
        assert!(out["inline"].as_ref().unwrap_err().contains("\"{x}y\""));
    }
}
