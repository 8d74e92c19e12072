//! The roles `marque import` gives a brand's tokens in brand.json (its
//! palette, font families and type styles), chosen from their names by a
//! rule that is documented (docs/tasks/start-a-brand.md, "marque import") and printed, so the user
//! reviews guesses instead of finding them in DESIGN.md.
//!
//! The palette's rule:
//! - A role's candidates are the colour tokens with a word of the role in
//!   their name (`brand`: brand, primary; `text`: text, foreground, fg; …).
//! - Never a state (`hover`, `pressed`, `down`, `disabled`, …) and, but
//!   for the status roles, never a status (`danger`, `error`, `warning`, …).
//! - Text, background and border are never a component's (`button`,
//!   `input`, `static`, …), and neither text nor background is a part drawn
//!   on the other (a background's name says no text or fg; text's says no
//!   background or bg); the brand's colour is never a part drawn on or
//!   around a surface (text, fg, icon, border, outline, content). A fully
//!   transparent colour is never chosen.
//! - Among the rest, one that is not a component's wins, then a system's
//!   own default (`default`, `body`, `base`, `primary`, `rest`, `page`),
//!   then a semantic name over a step of a scale (`100`), then the shorter
//!   name, then document order.
//! - Text and background are chosen as a pair that reaches 4.5:1 (WCAG
//!   AA), both opaque; without such a pair neither is chosen.

use crate::spec::tokens::{Token, TokenSet, TokenType, TokenValue, ROOT};

/// Roles and the words of a token's name that make each obvious.
pub type Roles = &'static [(&'static str, &'static [&'static str])];

pub const PALETTE: Roles = &[
    ("brand", &["brand", "primary"]),
    ("accent", &["accent", "secondary"]),
    ("text", &["text", "foreground", "fg", "content"]),
    ("background", &["background", "bg", "canvas", "surface"]),
    ("border", &["border"]),
    ("success", &["success", "positive"]),
    ("warning", &["warning", "caution", "attention", "notice"]),
    ("danger", &["danger", "error", "critical", "negative"]),
];

pub const FAMILIES: Roles = &[
    ("display", &["display", "heading", "headline"]),
    ("body", &["body", "base", "sans", "text", "default"]),
    ("code", &["mono", "monospace", "code"]),
];

pub const STYLES: Roles = &[
    ("display", &["display", "hero"]),
    ("heading", &["heading", "title", "headline"]),
    ("body", &["body", "paragraph"]),
    ("caption", &["caption", "small"]),
    ("code", &["code", "mono"]),
];

/// An interaction state: a colour for a moment, not for the brand.
const STATES: &[&str] = &[
    "hover", "hovered", "active", "pressed", "down", "focus", "focused", "disabled", "selected",
    "visited", "checked", "dragged", "inactive",
];

/// A status: what the status roles are for, and no other.
const STATUSES: &[&str] = &[
    "danger",
    "error",
    "critical",
    "negative",
    "warning",
    "caution",
    "attention",
    "success",
    "positive",
    "info",
    "informative",
    "notice",
    "severe",
    "done",
    "sponsors",
    "open",
    "closed",
];

/// A component: its colours are its own, not the page's.
const COMPONENTS: &[&str] = &[
    "button",
    "btn",
    "input",
    "control",
    "badge",
    "chip",
    "tag",
    "tab",
    "tabs",
    "card",
    "tooltip",
    "menu",
    "avatar",
    "checkbox",
    "radio",
    "switch",
    "toggle",
    "field",
    "select",
    "slider",
    "banner",
    "toast",
    "dialog",
    "modal",
    "nav",
    "header",
    "label",
    "link",
    "icon",
    "shadow",
    "overlay",
    "scrollbar",
    "focus",
    "selection",
    "highlight",
    "diff",
    "code",
    "accent",
    "inverse",
    "inverted",
    "on",
    "emphasis",
    "contrast",
    "handle",
    "static",
    "track",
    "thumb",
    "table",
    "list",
    "popover",
    "drawer",
    "tile",
    "layer",
    "chart",
    "data",
    "area",
    "wheel",
    "loupe",
    "swatch",
    "thumbnail",
];

/// Parts drawn on or around a surface: never the brand's colour.
const ON_TOP: &[&str] = &[
    "text",
    "fg",
    "foreground",
    "icon",
    "border",
    "outline",
    "shadow",
    "content",
];

/// A system's own default, named so.
const DEFAULTS: &[&str] = &["default", "body", "base", "primary", "rest", "page"];

/// The words of a token's name: `semanticColors.bodyText` → semantic,
/// colors, body, text.
pub fn words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in name.chars() {
        if c.is_ascii_uppercase() && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if c.is_ascii_alphanumeric() {
            word.push(c.to_ascii_lowercase());
        } else if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
    }
    out.extend((!word.is_empty()).then_some(word));
    out
}

/// A role given to a token.
#[derive(Debug, Clone, PartialEq)]
pub struct Chosen {
    pub role: &'static str,
    pub token: String,
    /// The colour's sRGB hex, for the summary (empty for a font).
    pub value: String,
}

/// The palette's roles: those chosen, and for each role not chosen, why.
#[derive(Debug, Default)]
pub struct Palette {
    pub chosen: Vec<Chosen>,
    pub not_chosen: Vec<(&'static str, String)>,
}

/// The rank of a candidate: lower is better. Not a component's, then a
/// system's default, then not a step of a scale, then short.
fn rank(t: &Token) -> (bool, bool, bool, usize) {
    let steps = t.path.iter().filter(|s| s.as_str() != ROOT);
    let numeric = steps
        .clone()
        .next_back()
        .is_some_and(|s| s.bytes().all(|b| b.is_ascii_digit()));
    let w = words(&t.name());
    let has = |list: &[&str]| w.iter().any(|w| list.contains(&w.as_str()));
    (has(COMPONENTS), !has(DEFAULTS), numeric, steps.count())
}

/// The candidates of `role` (named by `names`), best first.
fn candidates<'s>(set: &'s TokenSet, role: &str, names: &[&str]) -> Vec<&'s Token> {
    let status_role = matches!(role, "success" | "warning" | "danger");
    let page_role = matches!(role, "text" | "background" | "border");
    let mut found: Vec<&Token> = set
        .tokens
        .iter()
        .filter(|t| t.ty == TokenType::Color)
        .filter(|t| {
            let w = words(&t.name());
            let has = |list: &[&str]| w.iter().any(|w| list.contains(&w.as_str()));
            has(names)
                && !has(STATES)
                && (status_role || !has(STATUSES))
                && !(page_role && has(COMPONENTS))
                && !(role == "background" && has(&["text", "fg", "foreground", "content"]))
                && !(role == "text" && has(&["background", "bg", "surface", "canvas"]))
                && !(role == "brand" && has(ON_TOP))
                && srgb(set, t).is_some_and(|(_, alpha)| alpha > 0.0)
        })
        .collect();
    found.sort_by_key(|t| rank(t));
    found
}

/// A colour token's sRGB and alpha, resolved in the default context.
fn srgb(set: &TokenSet, t: &Token) -> Option<([f64; 3], f64)> {
    match set.resolve(&t.value).as_deref()? {
        TokenValue::Color(c) => Some((c.srgb(), c.alpha)),
        _ => None,
    }
}

fn chosen(set: &TokenSet, role: &'static str, t: &Token) -> Chosen {
    Chosen {
        role,
        token: t.name(),
        value: srgb(set, t)
            .map(|(rgb, a)| crate::color::hex(rgb, a))
            .unwrap_or_default(),
    }
}

/// The palette's roles by the rule above.
pub fn palette(set: &TokenSet) -> Palette {
    let mut p = Palette::default();
    let text = candidates(set, "text", names_of("text"));
    let background = candidates(set, "background", names_of("background"));
    // Both opaque: a translucent colour's contrast depends on what is under it.
    let opaque = |t: &Token| srgb(set, t).filter(|(_, a)| *a >= 1.0).map(|(rgb, _)| rgb);
    let pair = text.iter().find_map(|fg| {
        let f = opaque(fg)?;
        background.iter().find_map(|bg| {
            let b = opaque(bg)?;
            (crate::color::contrast(f, b) >= 4.5).then_some((*fg, *bg))
        })
    });
    for (role, names) in PALETTE {
        let pick = match *role {
            "text" => pair.map(|(fg, _)| fg),
            "background" => pair.map(|(_, bg)| bg),
            _ => candidates(set, role, names)
                .into_iter()
                .find(|t| !p.chosen.iter().any(|c| c.token == t.name())),
        };
        match pick {
            Some(t) => p.chosen.push(chosen(set, role, t)),
            None => p
                .not_chosen
                .push((role, why_not(role, &text, &background, names))),
        }
    }
    p
}

fn names_of(role: &str) -> &'static [&'static str] {
    PALETTE
        .iter()
        .find(|(r, _)| *r == role)
        .map_or(&[], |(_, n)| n)
}

fn why_not(role: &str, text: &[&Token], background: &[&Token], names: &[&str]) -> String {
    let unnamed = || {
        format!(
            "no colour token outside states and components is named {}",
            names.join(", ")
        )
    };
    match role {
        "text" | "background" if !text.is_empty() && !background.is_empty() => {
            "no text and background pair reaches 4.5:1 (WCAG AA)".into()
        }
        "text" if !text.is_empty() => {
            "chosen only with a background it reaches 4.5:1 on, and none is named".into()
        }
        "background" if !background.is_empty() => {
            "chosen only with a text colour that reaches 4.5:1 on it, and none is named".into()
        }
        _ => unnamed(),
    }
}

/// For each role, the first token of type `ty` (in document order) with a
/// word of its name that names the role; each token at most once. For
/// font families and type styles, whose names are plainer than colours'.
pub fn by_name(set: &TokenSet, ty: TokenType, roles: Roles) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    for (role, names) in roles {
        let found = set
            .tokens
            .iter()
            .filter(|t| {
                t.ty == ty
                    && !out.iter().any(|(_, n)| *n == t.name())
                    && words(&t.name()).iter().any(|w| names.contains(&w.as_str()))
            })
            .min_by_key(|t| {
                let (_, _, numeric, len) = rank(t);
                (numeric, len)
            });
        if let Some(t) = found {
            out.push((role, t.name()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::diag::FileDiags;

    fn set(json: &str) -> TokenSet {
        let doc: serde_json::Value = serde_json::from_str(json).unwrap();
        let mut d = FileDiags::new("b", "b/tokens.json");
        crate::spec::tokens::parse_tokens(&doc, &mut d).unwrap()
    }

    fn color(hex: &str) -> String {
        format!(r#"{{"$type": "color", "$value": "{hex}"}}"#)
    }

    #[test]
    fn defaults_win_and_states_statuses_and_components_never_do() {
        let set = set(&format!(
            r#"{{
              "button": {{ "primary": {{ "fgColor": {{ "rest": {w} }}, "bgColor": {{ "rest": {blue}, "hover": {navy} }} }} }},
              "semanticColors": {{ "accentButtonText": {w}, "bodyText": {ink} }},
              "color": {{ "background": {{ "danger": {red}, "default": {w} }} }}
            }}"#,
            w = color("#ffffff"),
            blue = color("#1f6feb"),
            navy = color("#0d419d"),
            ink = color("#1f2328"),
            red = color("#ec221f"),
        ));
        let p = palette(&set);
        let role = |r: &str| {
            p.chosen
                .iter()
                .find(|c| c.role == r)
                .map(|c| c.token.as_str())
        };
        assert_eq!(role("brand"), Some("button.primary.bgColor.rest"));
        assert_eq!(role("text"), Some("semanticColors.bodyText"));
        assert_eq!(role("background"), Some("color.background.default"));
        assert_eq!(role("danger"), Some("color.background.danger"));
        assert_eq!(
            p.chosen.iter().find(|c| c.role == "text").unwrap().value,
            "#1f2328"
        );
    }

    #[test]
    fn text_and_background_are_a_pair_that_passes_aa_or_neither() {
        let set = set(&format!(
            r#"{{ "text": {{ "default": {grey} }}, "background": {{ "default": {white} }} }}"#,
            grey = color("#aaaaaa"),
            white = color("#ffffff"),
        ));
        let p = palette(&set);
        assert!(p
            .chosen
            .iter()
            .all(|c| c.role != "text" && c.role != "background"));
        let why: Vec<&str> = p
            .not_chosen
            .iter()
            .filter(|(r, _)| *r == "text")
            .map(|(_, w)| w.as_str())
            .collect();
        assert_eq!(why, ["no text and background pair reaches 4.5:1 (WCAG AA)"]);
    }
}
