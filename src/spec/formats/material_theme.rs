//! Material Theme Builder's JSON export (`material-theme.json`), read as
//! its own CSS export publishes it: one modifier `scheme` whose contexts
//! are exactly its six schemes (`light`, `light-medium-contrast`,
//! `light-high-contrast`, `dark`, `dark-medium-contrast`,
//! `dark-high-contrast`), light × dark by three contrasts, `light` the
//! default, each context's colour scheme declared. A scheme's roles are
//! `md.sys.color.<role>` (`--md-sys-color-on-primary`), the tonal palettes
//! `md.ref.palette.<palette><tone>` (`--md-ref-palette-primary40`), the
//! seed and core colours `md.source.*`. PURE.

use super::Converted;
use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::join;
use crate::spec::tokens::css::kebab;
use serde_json::{json, Map, Value};

/// The schemes, in the order the export writes them.
pub const SCHEMES: [&str; 6] = [
    "light",
    "light-medium-contrast",
    "light-high-contrast",
    "dark",
    "dark-medium-contrast",
    "dark-high-contrast",
];

/// True when `o` is a Material Theme Builder export: `schemes` holding
/// `light` and `dark`, beside `coreColors` or `palettes`.
pub fn is_material_theme(o: &Map<String, Value>) -> bool {
    let schemes = o.get("schemes").and_then(Value::as_object);
    schemes.is_some_and(|s| s.contains_key("light") && s.contains_key("dark"))
        && (o.contains_key("coreColors") || o.contains_key("palettes"))
}

/// A colour token, when `v` is a hex colour.
fn colour(v: &Value, at: &str, d: &mut FileDiags<'_>) -> Option<Value> {
    let s = v.as_str().filter(|s| s.starts_with('#'))?;
    match crate::color::parse_hex(s) {
        Some((rgb, alpha)) => Some(json!({"$type": "color", "$value": super::srgb(rgb, alpha)})),
        None => {
            d.push(
                Code::NotAToken,
                at,
                format!("`{s}` is not a hex colour; left out"),
            );
            None
        }
    }
}

/// Reads the export into a resolver: the palettes and source colours as
/// the base, each scheme a context.
pub fn read(doc: &Value, d: &mut FileDiags<'_>) -> Converted {
    let empty = Map::new();
    let o = doc.as_object().unwrap_or(&empty);
    let mut tokens = Vec::new();
    let mut base = Map::new();
    let mut source = Map::new();
    if let Some(t) = o.get("seed").and_then(|v| colour(v, "/seed", d)) {
        source.insert("seed".into(), t);
        tokens.push((
            "/sets/tokens/sources/0/md/source/seed".into(),
            "/seed".into(),
        ));
    }
    for (k, v) in o
        .get("coreColors")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let at = join("/coreColors", k);
        if let Some(t) = colour(v, &at, d) {
            let name = kebab(k);
            tokens.push((format!("/sets/tokens/sources/0/md/source/{name}"), at));
            source.insert(name, t);
        }
    }
    let mut palettes = Map::new();
    for (p, tones) in o
        .get("palettes")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        for (tone, v) in tones.as_object().into_iter().flatten() {
            let at = join(&join("/palettes", p), tone);
            if let Some(t) = colour(v, &at, d) {
                let name = format!("{}{tone}", kebab(p));
                tokens.push((format!("/sets/tokens/sources/0/md/ref/palette/{name}"), at));
                palettes.insert(name, t);
            }
        }
    }
    if !source.is_empty() {
        base.insert("md".into(), json!({"source": source}));
    }
    if !palettes.is_empty() {
        let md = base.entry("md").or_insert_with(|| json!({}));
        md["ref"] = json!({"palette": palettes});
    }
    let schemes = o.get("schemes").and_then(Value::as_object);
    let mut contexts = Map::new();
    let mut declared = Map::new();
    for name in SCHEMES {
        let Some(roles) = schemes.and_then(|s| s.get(name)).and_then(Value::as_object) else {
            continue;
        };
        let mut colors = Map::new();
        for (role, v) in roles {
            let at = join(&join("/schemes", name), role);
            if let Some(t) = colour(v, &at, d) {
                let role = kebab(role);
                tokens.push((
                    format!("/modifiers/scheme/contexts/{name}/0/md/sys/color/{role}"),
                    at,
                ));
                colors.insert(role, t);
            }
        }
        contexts.insert(name.into(), json!([{"md": {"sys": {"color": colors}}}]));
        let scheme = match name.starts_with("dark") {
            true => "dark",
            false => "light",
        };
        declared.insert(name.into(), json!(scheme));
    }
    let resolver = json!({
        "version": "2025.10",
        "sets": {"tokens": {"sources": [base]}},
        "modifiers": {"scheme": {
            "description": "Material Theme Builder's six schemes: light and dark, each at standard, medium and high contrast",
            "contexts": contexts,
            "default": "light",
            "$extensions": {"app.marque": {"colorScheme": declared}},
        }},
        "resolutionOrder": [{"$ref": "#/sets/tokens"}, {"$ref": "#/modifiers/scheme"}],
    });
    Converted::new(resolver, tokens, &[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn six_schemes_are_one_modifier_with_light_the_default() {
        let mut schemes = Map::new();
        for (i, s) in SCHEMES.iter().enumerate() {
            schemes.insert(s.to_string(), json!({"onPrimary": format!("#00000{i}")}));
        }
        let doc = json!({"seed": "#6750A4", "coreColors": {"primary": "#6750A4"},
            "schemes": schemes, "palettes": {"neutral-variant": {"40": "#605D66"}}});
        assert!(is_material_theme(doc.as_object().unwrap()));
        let mut d = FileDiags::new("b", "b/material-theme.json");
        let c = read(&doc, &mut d);
        let m = &c.doc["modifiers"]["scheme"];
        assert_eq!(m["contexts"].as_object().unwrap().len(), 6);
        assert_eq!(m["default"], "light");
        assert_eq!(
            m["$extensions"]["app.marque"]["colorScheme"]["dark-high-contrast"],
            "dark"
        );
        let dark = &m["contexts"]["dark-medium-contrast"][0]["md"]["sys"]["color"];
        assert!(dark["on-primary"]["$value"].is_object(), "{dark}");
        let base = &c.doc["sets"]["tokens"]["sources"][0]["md"];
        assert!(base["ref"]["palette"]["neutral-variant40"].is_object());
        assert!(base["source"]["primary"].is_object());
    }
}
