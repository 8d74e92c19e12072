//! DESIGN.md: the brand in Google's DESIGN.md format (npm
//! `@google/design.md`, version `alpha`), which agents that build UI read.
//! YAML front matter holds the tokens an agent needs, named as
//! tailwind.css names them ([`super::namespaces`]):
//!
//! - `colors`: the colours the brand says matter, its palette and the
//!   colours of its contrast pairs (every colour token when it names
//!   none), in sRGB hex with alpha kept (a colour outside sRGB as its
//!   fallback); an alias of another listed colour is a `{colors.…}`
//!   reference; `primary` refers to the palette's brand colour;
//! - `typography`: the brand's type styles (every typography token when
//!   it names none);
//! - `rounded` and `spacing`: radii and spacing in `px`, `rem` or `em`;
//! - `components`: one per contrast pair, its text on its background, so
//!   the format's linter checks the contrast the brand promises.
//!
//! Then the prose sections in the format's order (`prose`). The format
//! has no modes; they are prose, with each context's colours.

use super::namespaces::{self, Namespace};
use super::Context;
use crate::color::hex;
use crate::spec::tokens::{parse_reference, Token, TokenValue};
use crate::spec::Brand;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

mod prose;

pub fn render(brand: &Brand, ctx: &Context) -> String {
    let front = Front::of(brand);
    let mut out = String::from("---\n");
    front.write(&mut out, brand);
    out.push_str("---\n\n");
    prose::write(&mut out, brand, ctx, &front);
    out
}

/// What the front matter holds, kept for the prose to name.
pub(super) struct Front<'a> {
    /// Listed colours: key, token, and the YAML value.
    colors: Vec<(String, &'a Token, String)>,
    /// Colour key by token name.
    color_keys: HashMap<String, String>,
    /// The key `primary` refers to, when the front matter adds it.
    primary: Option<String>,
    typography: Vec<(String, Vec<(&'static str, String)>)>,
    pub(super) rounded: Vec<(String, String)>,
    pub(super) spacing: Vec<(String, String)>,
    /// Per contrast pair: its component's key.
    components: Vec<String>,
}

impl<'a> Front<'a> {
    fn of(brand: &'a Brand) -> Front<'a> {
        let set = &brand.tokens;
        let (placed, _) = namespaces::place(set);
        let name_of: HashMap<String, (Namespace, String)> = placed
            .iter()
            .map(|p| (p.token.name(), (p.kind, p.name.clone())))
            .collect();
        let colors = colors(brand, &name_of);
        let color_keys: HashMap<String, String> = colors
            .iter()
            .map(|(key, t, _)| (t.name(), key.clone()))
            .collect();
        let primary = primary(brand, &colors, &color_keys);
        let scale = |kind: Namespace| -> Vec<(String, String)> {
            placed
                .iter()
                .filter(|p| p.kind == kind)
                .filter_map(|p| {
                    Some((
                        p.name.clone(),
                        dimension(set.resolve(&p.token.value).as_deref()?)?,
                    ))
                })
                .collect()
        };
        let mut used = HashSet::new();
        let components = brand
            .doc
            .color
            .pairs
            .iter()
            .map(|pair| {
                let key = |r: &str| {
                    parse_reference(r)
                        .and_then(|n| color_keys.get(n))
                        .cloned()
                        .unwrap_or_default()
                };
                unique(
                    format!("{}-on-{}", key(&pair.foreground), key(&pair.background)),
                    &mut used,
                )
            })
            .collect();
        Front {
            colors,
            color_keys,
            primary,
            typography: typography(brand, &name_of),
            rounded: scale(Namespace::Radius),
            spacing: scale(Namespace::Spacing),
            components,
        }
    }

    /// The colour key of a `{reference}`, when it is listed.
    pub(super) fn color_key(&self, reference: &str) -> Option<&str> {
        self.color_keys
            .get(parse_reference(reference)?)
            .map(String::as_str)
    }

    fn write(&self, out: &mut String, brand: &Brand) {
        let doc = &brand.doc;
        out.push_str("version: alpha\n");
        let _ = writeln!(out, "name: {}", yaml_str(&doc.name));
        if let Some(summary) = &doc.summary {
            let _ = writeln!(out, "description: {}", yaml_str(summary));
        }
        if !self.colors.is_empty() {
            out.push_str("colors:\n");
            if let Some(key) = &self.primary {
                let _ = writeln!(out, "  primary: {}", yaml_str(&format!("{{colors.{key}}}")));
            }
            for (key, _, value) in &self.colors {
                let _ = writeln!(out, "  {}: {value}", yaml_str(key));
            }
        }
        if !self.typography.is_empty() {
            out.push_str("typography:\n");
            for (key, fields) in &self.typography {
                let _ = writeln!(out, "  {}:", yaml_str(key));
                for (field, value) in fields {
                    let _ = writeln!(out, "    {field}: {value}");
                }
            }
        }
        for (section, scale) in [("rounded", &self.rounded), ("spacing", &self.spacing)] {
            if scale.is_empty() {
                continue;
            }
            let _ = writeln!(out, "{section}:");
            for (key, value) in scale {
                let _ = writeln!(out, "  {}: {}", yaml_str(key), yaml_str(value));
            }
        }
        if !self.components.is_empty() {
            out.push_str("components:\n");
            for (key, pair) in self.components.iter().zip(&doc.color.pairs) {
                let _ = writeln!(out, "  {}:", yaml_str(key));
                for (field, reference) in [
                    ("backgroundColor", &pair.background),
                    ("textColor", &pair.foreground),
                ] {
                    if let Some(k) = self.color_key(reference) {
                        let _ =
                            writeln!(out, "    {field}: {}", yaml_str(&format!("{{colors.{k}}}")));
                    }
                }
            }
        }
    }
}

/// The format's name for a palette role, when it has one: its
/// conventional palette names (`primary`, `secondary`, `tertiary`,
/// `neutral`) and the Material families its linter knows (`surface`,
/// `on-surface`, `error`, `outline`), which need no component.
fn role_key(role: &str) -> Option<&'static str> {
    Some(match role.to_lowercase().as_str() {
        "primary" | "brand" => "primary",
        "secondary" | "action" => "secondary",
        "tertiary" | "accent" | "highlight" => "tertiary",
        "neutral" => "neutral",
        "surface" => "surface",
        "background" => "background",
        "text" | "foreground" | "ink" | "on-surface" => "on-surface",
        "error" | "danger" | "critical" => "error",
        "border" | "outline" | "divider" => "outline",
        _ => return None,
    })
}

/// The colours the brand says matter (palette, then pair colours), or
/// every colour token when it says none. A palette entry is keyed by the
/// format's name for its role (the second of a role adds its token's
/// name: `surface-snow`); any other colour by its theme name.
fn colors<'a>(
    brand: &'a Brand,
    name_of: &HashMap<String, (Namespace, String)>,
) -> Vec<(String, &'a Token, String)> {
    let set = &brand.tokens;
    let c = &brand.doc.color;
    let theme_name = |t: &Token| match name_of.get(&t.name()) {
        Some((Namespace::Color, name)) => name.clone(),
        _ => crate::spec::tokens::css::css_name(&t.path),
    };
    let mut seen = HashSet::new();
    let mut used = HashSet::new();
    let mut listed: Vec<(String, &Token)> = Vec::new();
    for p in &c.palette {
        let Some(t) = parse_reference(&p.token).and_then(|n| set.get(n)) else {
            continue;
        };
        if !seen.insert(t.name()) {
            continue;
        }
        let key = match p.role.as_deref().and_then(role_key) {
            Some(role) if !used.contains(role) => role.to_string(),
            Some(role) => format!("{role}-{}", theme_name(t)),
            None => theme_name(t),
        };
        listed.push((unique(key, &mut used), t));
    }
    let pair_colours = c
        .pairs
        .iter()
        .flat_map(|p| [p.foreground.as_str(), p.background.as_str()])
        .filter_map(parse_reference)
        .filter_map(|n| set.get(n));
    let rest: Vec<&Token> = match c.palette.is_empty() && c.pairs.is_empty() {
        true => set
            .tokens
            .iter()
            .filter(|t| matches!(set.resolve(&t.value).as_deref(), Some(TokenValue::Color(_))))
            .collect(),
        false => pair_colours.collect(),
    };
    for t in rest {
        if seen.insert(t.name()) {
            listed.push((unique(theme_name(t), &mut used), t));
        }
    }
    let key_of: HashMap<String, &str> =
        listed.iter().map(|(k, t)| (t.name(), k.as_str())).collect();
    listed
        .iter()
        .filter_map(|(key, t)| {
            let value = match &t.value {
                TokenValue::Alias(target) if key_of.contains_key(target) => {
                    yaml_str(&format!("{{colors.{}}}", key_of[target]))
                }
                v => match set.resolve(v).as_deref()? {
                    TokenValue::Color(c) => yaml_str(&hex(c.srgb(), c.alpha)),
                    _ => return None,
                },
            };
            Some((key.clone(), *t, value))
        })
        .collect()
}

/// The colour `primary` refers to when no palette entry is the brand's
/// (whose key is `primary`): the palette's `action` or `accent` colour,
/// else its first entry; without a palette, a listed colour named for the
/// brand. `None` when a colour is already `primary`, or nothing says which.
fn primary(
    brand: &Brand,
    colors: &[(String, &Token, String)],
    keys: &HashMap<String, String>,
) -> Option<String> {
    if colors.iter().any(|(k, _, _)| k == "primary") {
        return None;
    }
    let palette = &brand.doc.color.palette;
    let role = |roles: &[&str]| {
        palette.iter().find(|p| {
            p.role
                .as_deref()
                .is_some_and(|r| roles.contains(&r.to_lowercase().as_str()))
        })
    };
    let entry = role(&["action", "secondary", "accent", "tertiary"]).or(palette.first());
    if let Some(p) = entry {
        return keys.get(parse_reference(&p.token)?).cloned();
    }
    ["primary", "brand"].iter().find_map(|word| {
        colors
            .iter()
            .find(|(k, _, _)| k.split('-').any(|w| w == *word))
            .map(|(k, _, _)| k.clone())
    })
}

/// Type styles: the brand's named styles, else its typography tokens,
/// else its font families each as a style of that family.
fn typography(
    brand: &Brand,
    name_of: &HashMap<String, (Namespace, String)>,
) -> Vec<(String, Vec<(&'static str, String)>)> {
    let set = &brand.tokens;
    let mut used = HashSet::new();
    let styles: Vec<(String, &Token)> = match brand.doc.typography.styles.is_empty() {
        false => brand
            .doc
            .typography
            .styles
            .iter()
            .filter_map(|s| {
                let t = set.get(parse_reference(&s.token)?)?;
                Some((crate::spec::tokens::css::kebab(&s.name), t))
            })
            .collect(),
        true => set
            .tokens
            .iter()
            .filter_map(|t| match name_of.get(&t.name()) {
                Some((Namespace::Text, name))
                    if matches!(
                        set.resolve(&t.value).as_deref(),
                        Some(TokenValue::Composite(_))
                    ) =>
                {
                    Some((name.clone(), t))
                }
                _ => None,
            })
            .collect(),
    };
    let mut out: Vec<(String, Vec<(&'static str, String)>)> = styles
        .into_iter()
        .filter_map(|(name, t)| {
            let resolved = set.resolve(&t.value)?;
            let TokenValue::Composite(c) = resolved.as_ref() else {
                return None;
            };
            let get = |key: &str| c.get(key).and_then(|v| set.resolve(v));
            let mut fields = Vec::new();
            if let Some(TokenValue::FontFamily(names)) = get("fontFamily").as_deref() {
                fields.push(("fontFamily", yaml_str(names.first()?)));
            }
            if let Some(size) = get("fontSize").as_deref().and_then(dimension) {
                fields.push(("fontSize", yaml_str(&size)));
            }
            if let Some(TokenValue::FontWeight(w)) = get("fontWeight").as_deref() {
                fields.push(("fontWeight", crate::spec::tokens::fmt_num(*w)));
            }
            match get("lineHeight").as_deref() {
                Some(TokenValue::Number(n)) => {
                    fields.push(("lineHeight", crate::spec::tokens::fmt_num(*n)))
                }
                Some(v) => {
                    if let Some(d) = dimension(v) {
                        fields.push(("lineHeight", yaml_str(&d)));
                    }
                }
                None => {}
            }
            if let Some(spacing) = get("letterSpacing").as_deref().and_then(dimension) {
                fields.push(("letterSpacing", yaml_str(&spacing)));
            }
            (!fields.is_empty()).then(|| (unique(name, &mut used), fields))
        })
        .collect();
    if out.is_empty() {
        for f in &brand.doc.typography.families {
            let resolved = set.resolve_reference(&f.token);
            let Some(TokenValue::FontFamily(names)) = resolved.as_deref() else {
                continue;
            };
            if let Some(first) = names.first() {
                let key = unique(crate::spec::tokens::css::kebab(&f.role), &mut used);
                out.push((key, vec![("fontFamily", yaml_str(first))]));
            }
        }
    }
    out
}

/// A dimension as the format writes one (`px`, `rem` or `em`).
fn dimension(v: &TokenValue) -> Option<String> {
    match v {
        TokenValue::Dimension(d) if matches!(d.unit.as_str(), "px" | "rem" | "em") => {
            Some(format!(
                "{}{}",
                crate::spec::tokens::fmt_num(crate::spec::tokens::round(d.value, 4)),
                d.unit.as_str()
            ))
        }
        _ => None,
    }
}

/// `key`, or `key-2`, `key-3`… when it is taken; `used` then holds it.
fn unique(key: String, used: &mut HashSet<String>) -> String {
    let key = if key.is_empty() {
        "token".to_string()
    } else {
        key
    };
    let mut candidate = key.clone();
    let mut n = 2;
    while !used.insert(candidate.clone()) {
        candidate = format!("{key}-{n}");
        n += 1;
    }
    candidate
}

/// A YAML double-quoted scalar: JSON's escapes, and every character YAML
/// does not allow unescaped (C0 and C1 controls, DEL, line and paragraph
/// separators, BOM) as `\u`, so content cannot end the scalar or the
/// front matter.
pub(super) fn yaml_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\u{0}'..='\u{1f}'
            | '\u{7f}'..='\u{9f}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{feff}'
            | '\u{fffe}'
            | '\u{ffff}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn yaml_strings_cannot_end_the_scalar_or_the_front_matter() {
        assert_eq!(yaml_str("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(yaml_str("x\n---\ny"), r#""x\n---\ny""#);
        assert_eq!(yaml_str("\u{85}\u{2028}"), r#""\u0085\u2028""#);
    }

    #[test]
    fn a_taken_key_gets_a_number() {
        let mut used = HashSet::new();
        assert_eq!(unique("a".into(), &mut used), "a");
        assert_eq!(unique("a".into(), &mut used), "a-2");
        assert_eq!(unique("a".into(), &mut used), "a-3");
    }
}
