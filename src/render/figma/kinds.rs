//! What kind of Figma variable a token is: its type, and the scopes that
//! say where Figma offers it (tokens.figma.json and figma.zip alike).

use crate::spec::tokens::TokenType;

/// Figma's type for a token type, or `None` when Figma has no variable for it.
pub(crate) fn figma_type(ty: TokenType) -> Option<&'static str> {
    match ty {
        TokenType::Color => Some("COLOR"),
        TokenType::Dimension | TokenType::FontWeight | TokenType::Number | TokenType::Duration => {
            Some("FLOAT")
        }
        // An easing curve has no Figma field to bind to; as text it still
        // carries the curve to Dev Mode and plugins, and transitions alias it.
        TokenType::FontFamily | TokenType::String | TokenType::CubicBezier => Some("STRING"),
        _ => None,
    }
}

/// Scopes by type and by what the token's path says it is for.
pub(crate) fn scopes(ty: TokenType, path: &[String]) -> Vec<&'static str> {
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
        // No picker field takes a curve or a duration: hidden from pickers,
        // still aliased and shown in Dev Mode.
        TokenType::CubicBezier | TokenType::Duration => vec![],
        _ => vec!["ALL_SCOPES"],
    }
}
