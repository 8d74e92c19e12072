//! Where a token goes in a theme that names its values by kind, as
//! Tailwind CSS v4 (`--color-*`, `--radius-*`) and DESIGN.md (`colors`,
//! `rounded`, `spacing`) do: one reading of a token's type and path, and
//! one short name per kind, shared by tailwind.css and DESIGN.md so they
//! agree on what `sm` or `fjord-900` is.

use crate::spec::tokens::css::kebab;
use crate::spec::tokens::{Token, TokenSet, TokenType, TokenValue};
use std::collections::HashMap;

/// A kind of theme value, named as Tailwind's namespace for it.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Namespace {
    Color,
    /// A font family (`--font-display`).
    Font,
    /// A type style (`--text-body` with its `--line-height`), or a font size.
    Text,
    FontWeight,
    /// Letter spacing.
    Tracking,
    /// A unitless line height.
    Leading,
    Radius,
    Spacing,
    Shadow,
    /// An easing curve.
    Ease,
}

impl Namespace {
    /// Tailwind's namespace: the custom property's prefix.
    pub fn namespace(self) -> &'static str {
        match self {
            Namespace::Color => "color",
            Namespace::Font => "font",
            Namespace::Text => "text",
            Namespace::FontWeight => "font-weight",
            Namespace::Tracking => "tracking",
            Namespace::Leading => "leading",
            Namespace::Radius => "radius",
            Namespace::Spacing => "spacing",
            Namespace::Shadow => "shadow",
            Namespace::Ease => "ease",
        }
    }

    /// Words of a path that only say what kind a token is (`color`,
    /// `radius`): left out of its short name, which the namespace says.
    fn group_words(self) -> &'static [&'static str] {
        match self {
            Namespace::Color => &["color", "colors", "colour", "colours"],
            Namespace::Font => &["font", "fonts", "family", "families"],
            Namespace::Text => &["typography", "type", "text", "font", "size", "sizes"],
            Namespace::FontWeight => &["font", "weight", "weights"],
            Namespace::Tracking => &["letter", "spacing", "tracking", "font", "typography"],
            Namespace::Leading => &[
                "line",
                "height",
                "lineheight",
                "leading",
                "font",
                "typography",
            ],
            Namespace::Radius => &[
                "radius", "radii", "rounded", "corner", "corners", "border", "shape",
            ],
            Namespace::Spacing => &["space", "spacing", "spacer", "gap", "gutter", "size"],
            Namespace::Shadow => &["shadow", "shadows", "elevation", "box"],
            Namespace::Ease => &["easing", "ease", "motion", "curve", "curves", "timing"],
        }
    }
}

/// A token's path as words: each segment in kebab case, split at its
/// hyphens (`corner-radius-100` is three words, as `corner.radius.100` is).
fn words(t: &Token) -> Vec<String> {
    t.path
        .iter()
        .flat_map(|s| {
            kebab(s)
                .split('-')
                .filter(|w| !w.is_empty())
                .map(String::from)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The kind of a token, from its type and what its path says it is for;
/// `None` for a token no namespace holds (a duration, a border, a size
/// that is neither spacing nor a radius).
pub fn kind_of(t: &Token, set: &TokenSet) -> Option<Namespace> {
    // A string is quoted in CSS: no colour, shadow or font reads it.
    if matches!(
        set.resolve(&t.value).as_deref(),
        Some(TokenValue::String(_))
    ) {
        return None;
    }
    // A word or a phrase of words (`line-height`) of the path, whose words
    // are joined only for the types that ask (every renderer of a theme
    // asks this of every token).
    let joined = std::cell::OnceCell::new();
    let has = |list: &[&str]| {
        let joined = joined.get_or_init(|| format!("-{}-", words(t).join("-")));
        list.iter().any(|p| has_phrase(joined, p))
    };
    Some(match t.ty {
        TokenType::Color => Namespace::Color,
        TokenType::FontFamily => Namespace::Font,
        TokenType::FontWeight => Namespace::FontWeight,
        TokenType::Typography => Namespace::Text,
        TokenType::Shadow => Namespace::Shadow,
        TokenType::CubicBezier => Namespace::Ease,
        TokenType::Number if has(&["line-height", "leading", "lineheight"]) => Namespace::Leading,
        TokenType::Dimension => {
            // A length relative to its element stays a length, but a theme
            // scale needs one that means the same everywhere.
            let sized = matches!(
                set.resolve(&t.value).as_deref(),
                Some(TokenValue::Dimension(_))
            );
            if !sized {
                return None;
            }
            if has(&["radius", "radii", "rounded", "corner", "corners"]) {
                Namespace::Radius
            } else if has(&["letter-spacing", "tracking"]) {
                Namespace::Tracking
            } else if has(&["font-size", "text-size"]) || (has(&["font", "text"]) && has(&["size"]))
            {
                Namespace::Text
            } else if has(&["space", "spacing", "spacer", "gap", "gutter"]) {
                Namespace::Spacing
            } else {
                return None;
            }
        }
        _ => return None,
    })
}

/// True when `joined` (words between hyphens, `-a-b-`) holds `phrase` as
/// whole words: what `joined.contains("-{phrase}-")` says, without
/// formatting the pattern.
fn has_phrase(joined: &str, phrase: &str) -> bool {
    joined
        .match_indices(phrase)
        .any(|(at, _)| joined[..at].ends_with('-') && joined[at + phrase.len()..].starts_with('-'))
}

/// A token's name in its kind: the words of its path without those that
/// only name the kind (`radius.sm` → `sm`, `color.fjord.900` →
/// `fjord-900`, `corner-radius-100` → `100`, `size.radius` → `size`);
/// the last word when nothing else is left.
pub fn short_name(t: &Token, kind: Namespace) -> String {
    let words = words(t);
    let group = kind.group_words();
    let kept: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .filter(|w| !group.contains(w))
        .collect();
    match kept.is_empty() {
        true => words.last().cloned().unwrap_or_default(),
        false => kept.join("-"),
    }
}

/// A token placed in a theme.
pub struct Placed<'a> {
    pub kind: Namespace,
    pub name: String,
    pub token: &'a Token,
}

/// Why a token is not in a theme.
pub enum Left<'a> {
    /// No namespace holds its type (with the type's name).
    NoKind(&'a Token),
    /// Its short name is another token's in the same kind.
    Taken(&'a Token, Namespace, String),
    /// Its variable would be read as another namespace's: a font family
    /// `--font-weight-bold` is Tailwind's font weight `bold`.
    Misread(&'a Token, Namespace, String),
}

/// The namespace Tailwind reads `--<kind>-<name>` as, where that is not
/// `kind`: one whose prefix extends `kind`'s (`--font-weight-*` over
/// `--font-*`).
fn misread(kind: Namespace, name: &str) -> Option<Namespace> {
    let var = format!("{}-{name}", kind.namespace());
    ALL_NAMESPACES.into_iter().find(|other| {
        *other != kind
            && other.namespace().len() > kind.namespace().len()
            && var.starts_with(&format!("{}-", other.namespace()))
    })
}

const ALL_NAMESPACES: [Namespace; 10] = [
    Namespace::Color,
    Namespace::Font,
    Namespace::Text,
    Namespace::FontWeight,
    Namespace::Tracking,
    Namespace::Leading,
    Namespace::Radius,
    Namespace::Spacing,
    Namespace::Shadow,
    Namespace::Ease,
];

/// Every token of `set` in its kind, in document order, with the ones
/// left out and why. Of two tokens with one name in a kind, a type style
/// keeps it over a bare font size (it carries its line height); otherwise
/// the first does.
pub fn place(set: &TokenSet) -> (Vec<Placed<'_>>, Vec<Left<'_>>) {
    let candidates: Vec<(&Token, Option<(Namespace, String)>)> = set
        .tokens
        .iter()
        .map(|t| (t, kind_of(t, set).map(|k| (k, short_name(t, k)))))
        .collect();
    let mut owner: HashMap<(Namespace, String), usize> = HashMap::new();
    for (i, (t, c)) in candidates.iter().enumerate() {
        let Some(key) = c.clone().filter(|(_, n)| !n.is_empty()) else {
            continue;
        };
        let styled = t.ty == TokenType::Typography;
        match owner.get(&key) {
            Some(&j) if styled && candidates[j].0.ty != TokenType::Typography => {
                owner.insert(key, i);
            }
            Some(_) => {}
            None => {
                owner.insert(key, i);
            }
        }
    }
    let (mut placed, mut left) = (Vec::new(), Vec::new());
    for (i, (t, c)) in candidates.into_iter().enumerate() {
        match c {
            None => left.push(Left::NoKind(t)),
            Some((kind, name)) if misread(kind, &name).is_some() => {
                left.push(Left::Misread(t, kind, name))
            }
            Some((kind, name)) if owner.get(&(kind, name.clone())) == Some(&i) => {
                placed.push(Placed {
                    kind,
                    name,
                    token: t,
                })
            }
            Some((kind, name)) => left.push(Left::Taken(t, kind, name)),
        }
    }
    (placed, left)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::diag::FileDiags;

    #[test]
    fn a_phrase_is_found_as_whole_words_only() {
        for (joined, phrase) in [
            ("-line-height-", "line-height"),
            ("-font-size-", "size"),
            ("-sizes-", "size"),
            ("-upsize-", "size"),
            ("-a-b-", "b-"),
            ("-size-size-", "size"),
            ("-x-sizex-size-", "size"),
        ] {
            assert_eq!(
                has_phrase(joined, phrase),
                joined.contains(&format!("-{phrase}-")),
                "{joined} {phrase}"
            );
        }
    }

    fn parse(json: &str) -> TokenSet {
        let doc: serde_json::Value = serde_json::from_str(json).unwrap();
        let mut d = FileDiags::new("b", "b/tokens.json");
        crate::spec::tokens::parse_tokens(&doc, &mut d).unwrap()
    }

    fn placed(json: &str) -> Vec<(Namespace, String)> {
        let set = parse(json);
        place(&set)
            .0
            .into_iter()
            .map(|p| (p.kind, p.name))
            .collect()
    }

    /// slds's font family `font-weight-bold` made `--font-weight-bold`,
    /// which Tailwind reads as the weight `bold, sans-serif` (the matrix's
    /// Tailwind column).
    #[test]
    fn a_name_another_namespace_would_read_is_left_out() {
        let set = parse(
            r#"{"font": {"weight-bold": {"$type": "fontFamily", "$value": "bold"}, "sans": {"$type": "fontFamily", "$value": "Inter"}}}"#,
        );
        let (placed, left) = place(&set);
        let names: Vec<&str> = placed.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["sans"]);
        assert!(
            matches!(&left[..], [Left::Misread(t, Namespace::Font, n)] if t.name() == "font.weight-bold" && n == "weight-bold"),
            "{} left out",
            left.len()
        );
    }

    /// auro's and twilio's shadows are strings (`"0 1px 0 #e7dcfa"`), which
    /// CSS quotes: `--shadow-100: "…"` is no shadow (the matrix's Tailwind
    /// column).
    #[test]
    fn a_string_value_has_no_namespace() {
        let mut set =
            parse(r#"{"shadow": {"soft": {"$type": "string", "$value": "0 1px 0 #e7dcfa"}}}"#);
        set.tokens[0].ty = TokenType::Shadow;
        let (placed, left) = place(&set);
        assert!(placed.is_empty());
        assert!(
            matches!(&left[..], [Left::NoKind(_)]),
            "{} left out",
            left.len()
        );
    }

    #[test]
    fn kinds_come_from_the_type_and_the_path() {
        let got = placed(
            r##"{
              "color": { "fjord": { "900": { "$type": "color", "$value": { "colorSpace": "srgb", "components": [0, 0, 0] } } } },
              "radius": { "sm": { "$type": "dimension", "$value": { "value": 4, "unit": "px" } } },
              "space": { "md": { "$type": "dimension", "$value": { "value": 1, "unit": "rem" } } },
              "size": { "icon": { "$type": "dimension", "$value": { "value": 24, "unit": "px" } } },
              "font": { "family": { "body": { "$type": "fontFamily", "$value": ["Inter", "sans-serif"] } } },
              "motion": { "easing": { "standard": { "$type": "cubicBezier", "$value": [0.2, 0, 0, 1] } } }
            }"##,
        );
        assert_eq!(
            got,
            [
                (Namespace::Color, "fjord-900".to_string()),
                (Namespace::Radius, "sm".to_string()),
                (Namespace::Spacing, "md".to_string()),
                (Namespace::Font, "body".to_string()),
                (Namespace::Ease, "standard".to_string()),
            ],
            "an icon size has no namespace"
        );
    }

    #[test]
    fn a_type_style_keeps_its_name_over_a_bare_font_size() {
        let set = parse(
            r##"{
              "font": { "size": { "body": { "$type": "dimension", "$value": { "value": 1, "unit": "rem" } } } },
              "typography": { "body": { "$type": "typography", "$value": {
                "fontFamily": ["Inter"], "fontSize": "{font.size.body}", "fontWeight": 400,
                "letterSpacing": { "value": 0, "unit": "px" }, "lineHeight": 1.5 } } }
            }"##,
        );
        let (placed, left) = place(&set);
        let body: Vec<String> = placed
            .iter()
            .filter(|p| p.kind == Namespace::Text)
            .map(|p| p.token.name())
            .collect();
        assert_eq!(body, ["typography.body"]);
        assert!(
            matches!(&left[..], [Left::Taken(t, Namespace::Text, n)] if t.name() == "font.size.body" && n == "body")
        );
    }

    #[test]
    fn a_taken_name_is_left_out_and_the_first_keeps_it() {
        let set = parse(
            r##"{
              "color": { "red": { "$type": "color", "$value": { "colorSpace": "srgb", "components": [1, 0, 0] } } },
              "colors": { "red": { "$type": "color", "$value": { "colorSpace": "srgb", "components": [0.9, 0, 0] } } }
            }"##,
        );
        let (placed, left) = place(&set);
        assert_eq!(placed.len(), 1);
        assert_eq!(placed[0].token.name(), "color.red");
        assert!(
            matches!(&left[..], [Left::Taken(t, Namespace::Color, n)] if t.name() == "colors.red" && n == "red")
        );
    }
}
