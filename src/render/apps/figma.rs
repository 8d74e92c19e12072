//! figma.zip: the brand as Figma's own variables import takes it, on
//! every paid plan (tokens.figma.json needs the REST API, which is
//! Enterprise's only). The layout is the one Figma's native export
//! writes and its import reads:
//!
//! - one folder per collection, one `<Mode>.tokens.json` per mode, each
//!   file's `$extensions["com.figma.modeName"]` naming its mode;
//! - the collections are tokens.figma.json's: the brand's own, with one
//!   mode (`Mode 1`), for what no context changes, then one per modifier
//!   with a mode per context, the default first (a collection with no
//!   variable Figma can hold is left out);
//! - values are DTCG 2025.10: a colour `{colorSpace, components, alpha,
//!   hex}` in sRGB (a wider colour clipped to it, as tokens.css's fallback
//!   is), a dimension `{value, unit: "px"}`; font weights, numbers and
//!   durations (in ms) are `number`, font families, strings and easing
//!   curves `string`, as Figma keeps them;
//! - an alias to a variable of the same collection is a `{Group.Name}`
//!   reference; to one of another collection it is the value it resolves
//!   to in that mode, with `com.figma.aliasData` naming the target, as
//!   Figma's export writes it and its import re-links it;
//! - each variable carries `com.figma.scopes` (as tokens.figma.json
//!   derives them) and `com.figma.codeSyntax`: the CSS custom property
//!   (`WEB`), the Android resource name (`ANDROID`) and, for a colour,
//!   the iOS colour set (`iOS`) that marque publishes.
//!
//! Composite tokens (typography, shadows, borders …) have no Figma
//! variable and are not in the bundle; tokens.figma.json splits them.
//! Figma's plans differ in the modes a collection may have (Professional
//! 10, Organization 20, Enterprise 40): a collection past a plan's limit
//! is warned about, naming the plans that import it.

use super::archive;
use crate::render::figma::{figma_type, scopes, varies, with_modes};
use crate::spec::tokens::{css, Token, TokenSet, TokenType, TokenValue};
use crate::spec::Brand;
use serde_json::{json, Map, Value};
use std::collections::HashMap;

/// The most modes one collection may have on each of Figma's plans.
pub const PLAN_MODES: [(&str, usize); 3] = [
    ("Professional", 10),
    ("Organization", 20),
    ("Enterprise", 40),
];

/// The mode name of the brand's own collection: Figma's name for a
/// collection's first mode.
pub const BASE_MODE: &str = "Mode 1";

/// The bundle's files (path, bytes) and what a designer should know: the
/// plans a collection's modes rule out, and any token left out.
pub struct Bundle {
    pub files: Vec<(String, Vec<u8>)>,
    pub warnings: Vec<(String, Option<crate::spec::tokens::WrittenAt>)>,
}

/// The warning for a collection of `modes` modes, when a plan cannot
/// import it.
pub fn plan_warning(collection: &str, modes: usize) -> Option<String> {
    let fits: Vec<&str> = PLAN_MODES
        .iter()
        .filter(|(_, most)| modes <= *most)
        .map(|(plan, _)| *plan)
        .collect();
    let limits = "Professional 10, Organization 20, Enterprise 40";
    match fits.as_slice() {
        [] => Some(format!(
            "Figma collection `{collection}` has {modes} modes, more than any Figma plan imports ({limits}); figma.zip gives it the first 40, the default first"
        )),
        [_, _, _] => None,
        fits => Some(format!(
            "Figma collection `{collection}` has {modes} modes: only Figma's {} plan{} import{} it from figma.zip ({limits} modes per collection)",
            fits.join(" and "),
            if fits.len() > 1 { "s" } else { "" },
            if fits.len() > 1 { "" } else { "s" },
        )),
    }
}

/// A name Figma and a zip both take as one path segment: how figma.zip
/// names a collection's folder and a mode's file.
pub fn segment(name: &str) -> String {
    let s: String = name
        .trim()
        .chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|' => '-',
            c if c.is_control() => '-',
            c => c,
        })
        .collect();
    match s.as_str() {
        "" | "." | ".." => "collection".into(),
        _ => s,
    }
}

/// A number as Figma keeps it: six decimals, whole numbers without them.
fn num(v: f64) -> Value {
    let v = crate::spec::tokens::round(v, 6);
    match v.fract() == 0.0 && v.abs() < 1e15 {
        true => json!(v as i64),
        false => json!(v),
    }
}

/// The DTCG type figma.zip gives a token type, or `None` when Figma has
/// no variable for it.
fn native_type(ty: TokenType) -> Option<&'static str> {
    Some(match figma_type(ty)? {
        "COLOR" => "color",
        "FLOAT" if ty == TokenType::Dimension => "dimension",
        "FLOAT" => "number",
        _ => "string",
    })
}

/// A resolved value as figma.zip writes it.
fn literal(v: &TokenValue, set: &TokenSet) -> Option<Value> {
    Some(match v {
        TokenValue::Color(c) => {
            let rgb = c.srgb().map(|x| x.clamp(0.0, 1.0));
            json!({
                "colorSpace": "srgb",
                "components": rgb.map(num),
                "alpha": num(c.alpha.clamp(0.0, 1.0)),
                "hex": crate::color::hex(rgb, 1.0).to_uppercase(),
            })
        }
        TokenValue::Dimension(d) => json!({"value": num(d.px()?), "unit": "px"}),
        TokenValue::FontWeight(n) | TokenValue::Number(n) => num(*n),
        TokenValue::Duration(d) => num(d.ms()),
        TokenValue::FontFamily(names) => json!(names.first()?),
        TokenValue::String(text) if css::has_references(text) => {
            json!(css::interpolate(text, set, css::Refs::Resolve, 0)?)
        }
        TokenValue::String(text) => json!(text),
        TokenValue::CubicBezier(p) => json!(css::cubic_bezier(p)),
        _ => return None,
    })
}

/// One collection: its name, and its modes as (name, modifier and
/// context, or `None` for the brand's own collection).
struct Collection {
    name: String,
    modes: Vec<(String, Option<(usize, usize)>)>,
}

/// The collections: the brand's own, then one per modifier.
fn collections(brand: &Brand) -> Vec<Collection> {
    let base = segment(&brand.doc.name);
    let mut out = vec![Collection {
        name: base.clone(),
        modes: vec![(BASE_MODE.to_string(), None)],
    }];
    for (i, m) in brand.tokens.modes.iter().enumerate() {
        let mut name = segment(&m.name);
        while out.iter().any(|c| c.name.eq_ignore_ascii_case(&name)) {
            name.push_str(" (modifier)");
        }
        out.push(Collection {
            name,
            modes: with_modes(m)
                .map(|(c, context)| (segment(&context.name), Some((i, c))))
                .collect(),
        });
    }
    out
}

/// One file's tree: groups in the order their first token came, each
/// token its JSON text, made once and written on one line (a file is
/// thousands of them: a Value tree pretty-printed cost more than all the
/// rest of figma.zip).
#[derive(Default)]
struct Group {
    members: Vec<(String, Member)>,
    index: HashMap<String, usize>,
}

enum Member {
    Group(Group),
    Token(String),
}

impl Group {
    fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Puts `token` at `path`; false when a token already holds a group it
    /// needs, or the place (a JSON document cannot hold both).
    fn insert(&mut self, path: &[String], token: String) -> bool {
        let Some((last, groups)) = path.split_last() else {
            return false;
        };
        let mut at = self;
        for g in groups {
            let i = match at.index.get(g) {
                Some(&i) => i,
                None => {
                    at.index.insert(g.clone(), at.members.len());
                    at.members
                        .push((g.clone(), Member::Group(Group::default())));
                    at.members.len() - 1
                }
            };
            let Member::Group(next) = &mut at.members[i].1 else {
                return false;
            };
            at = next;
        }
        if at.index.contains_key(last) {
            return false;
        }
        at.index.insert(last.clone(), at.members.len());
        at.members.push((last.clone(), Member::Token(token)));
        true
    }

    /// The group as JSON: a member per line, indented by two spaces.
    fn write(&self, depth: usize, out: &mut String) {
        out.push('{');
        for (i, (key, member)) in self.members.iter().enumerate() {
            out.push_str(if i == 0 { "\n" } else { ",\n" });
            out.push_str(&"  ".repeat(depth + 1));
            out.push_str(&json_string(key));
            out.push_str(": ");
            match member {
                Member::Group(g) => g.write(depth + 1, out),
                Member::Token(text) => out.push_str(text),
            }
        }
        if !self.members.is_empty() {
            out.push('\n');
            out.push_str(&"  ".repeat(depth));
        }
        out.push('}');
    }
}

/// `text` as a JSON string.
fn json_string(text: &str) -> String {
    Value::String(text.to_string()).to_string()
}

/// The bundle of `brand`.
pub fn render(brand: &Brand) -> Bundle {
    let set = &brand.tokens;
    let mut warnings = Vec::new();
    let collections = collections(brand);
    let exportable = |t: &Token| {
        native_type(t.ty).is_some()
            && (t.ty != TokenType::Dimension
                || matches!(set.resolve(&t.value).as_deref(), Some(TokenValue::Dimension(d)) if d.px().is_some()))
    };
    // Each exported token's collection.
    let home: HashMap<String, usize> = set
        .tokens
        .iter()
        .filter(|t| exportable(t))
        .map(|t| (t.name(), varies(set, t).first().map_or(0, |m| m + 1)))
        .collect();
    let mut docs: Vec<Vec<Group>> = collections
        .iter()
        .map(|c| c.modes.iter().map(|_| Group::default()).collect())
        .collect();
    for t in &set.tokens {
        crate::spec::limits::checkpoint();
        let name = t.name();
        let Some(&col) = home.get(&name) else {
            continue;
        };
        let ty = native_type(t.ty).expect("exportable");
        let mut syntax = Map::new();
        syntax.insert(
            "WEB".into(),
            json!(format!("var(--{})", set.var_name(&t.path))),
        );
        syntax.insert("ANDROID".into(), json!(super::android::name(&t.path)));
        if t.ty == TokenType::Color {
            syntax.insert("iOS".into(), json!(css::css_name(&t.path)));
        }
        // What every mode's copy of the variable carries, written once:
        // its type and description, then its `$extensions` but the last `}`.
        let head = match t.described(set) {
            Some(d) => format!(
                "{{\"$type\": \"{ty}\", \"$description\": {}, ",
                json_string(&d)
            ),
            None => format!("{{\"$type\": \"{ty}\", "),
        };
        let ext =
            json!({"com.figma.scopes": scopes(t.ty, &t.path), "com.figma.codeSyntax": syntax})
                .to_string();
        let ext = &ext[..ext.len() - 1];
        for (k, (_, at)) in collections[col].modes.iter().enumerate() {
            let here = match at {
                Some((m, c)) => set.modes[*m].contexts[*c].get(&name).unwrap_or(t),
                None => t,
            };
            let resolved = match at {
                Some((m, c)) => set.view(*m, *c).resolve(&here.value),
                None => set.resolve(&here.value),
            };
            let mut alias_data = String::new();
            let value = match &here.value {
                TokenValue::Alias(target) if home.get(target) == Some(&col) => {
                    Some(json!(format!("{{{target}}}")))
                }
                TokenValue::Alias(target) if home.contains_key(target) => {
                    let target_path = set
                        .get(target)
                        .map_or_else(|| target.replace('.', "/"), |x| x.path.join("/"));
                    alias_data = format!(
                        ",\"com.figma.aliasData\":{}",
                        json!({
                            "targetVariableName": target_path,
                            "targetVariableSetName": collections[home[target]].name,
                        })
                    );
                    resolved.as_deref().and_then(|v| literal(v, set))
                }
                _ => resolved.as_deref().and_then(|v| literal(v, set)),
            };
            let Some(value) = value else {
                continue;
            };
            let token =
                format!("{head}\"$value\": {value}, \"$extensions\": {ext}{alias_data}}}}}");
            if !docs[col][k].insert(&t.path, token) && k == 0 {
                warnings.push((
                    format!("token `{name}` is a group's name too, which one Figma file cannot hold; it is left out of figma.zip"),
                    Some((t.file.clone(), t.pointer.clone())),
                ));
            }
        }
    }
    // A collection with no variable (a modifier that changes only what
    // Figma cannot hold) is no collection in Figma.
    let (collections, docs): (Vec<Collection>, Vec<_>) = collections
        .into_iter()
        .zip(docs)
        .filter(|(_, modes)| modes.iter().any(|d| !d.is_empty()))
        .unzip();
    for c in &collections {
        if let Some((m, _)) = c.modes[0].1 {
            if let Some(w) = plan_warning(&c.name, set.modes[m].contexts.len()) {
                warnings.push((w, None));
            }
        }
    }
    let mut files = vec![(
        "README.txt".to_string(),
        readme(brand, &collections).into_bytes(),
    )];
    for (c, modes) in collections.iter().zip(docs) {
        for ((mode, _), mut doc) in c.modes.iter().zip(modes) {
            let named = format!("{{\"com.figma.modeName\": {}}}", json_string(mode));
            doc.members
                .push(("$extensions".into(), Member::Token(named)));
            let mut text = String::new();
            doc.write(0, &mut text);
            text.push('\n');
            files.push((format!("{}/{mode}.tokens.json", c.name), text.into_bytes()));
        }
    }
    Bundle { files, warnings }
}

/// The README in the zip: how a designer imports it, in three steps.
fn readme(brand: &Brand, collections: &[Collection]) -> String {
    let mut o = format!(
        "{name} {version}: design tokens as Figma variables (generated by marque)\n\n\
         To import them into a Figma file (any paid plan):\n\n\
         1. Unzip this file. Each folder is a collection; each <Mode>.tokens.json in it is one mode.\n\
         2. In Figma, open the file, deselect everything, and open Local variables (the Variables panel).\n\
         3. Choose Import, then choose the .tokens.json files of a collection, all its modes at once;\n   \
         import {base} first, then the others, so aliases across collections link up.\n\n\
         Collections and modes:\n",
        name = brand.doc.name,
        version = brand.version,
        base = collections.first().map_or("the first", |c| c.name.as_str()),
    );
    for c in collections {
        let modes: Vec<&str> = c.modes.iter().map(|(m, _)| m.as_str()).collect();
        o.push_str(&format!("- {}: {}\n", c.name, modes.join(", ")));
    }
    o.push_str(
        "\nModes per collection by Figma plan: Professional 10, Organization 20, Enterprise 40.\n\
         Typography, shadows, borders and other composite tokens have no Figma variable and are not here.\n",
    );
    o
}

/// figma.zip's bytes and warnings.
pub fn zip(brand: &Brand) -> (Vec<u8>, Bundle) {
    let bundle = render(brand);
    (archive::zip(&bundle.files), bundle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_are_named_by_their_mode_limits() {
        assert_eq!(plan_warning("c", 10), None);
        assert!(plan_warning("c", 11)
            .unwrap()
            .contains("Organization and Enterprise plans import"));
        assert!(plan_warning("c", 20)
            .unwrap()
            .contains("Organization and Enterprise"));
        assert!(plan_warning("c", 21)
            .unwrap()
            .contains("only Figma's Enterprise plan imports"));
        assert!(plan_warning("c", 41)
            .unwrap()
            .contains("more than any Figma plan"));
    }

    #[test]
    fn segments_are_safe_path_parts() {
        assert_eq!(segment("a/b"), "a-b");
        assert_eq!(segment(" .. "), "collection");
        assert_eq!(segment("🌗 Color scheme"), "🌗 Color scheme");
    }
}
