//! What several surfaces read of a brand alike: a reference's resolved
//! CSS value (in a mode, or the default) and hex, the logo a card shows on
//! light and on dark, and the colour that stands for the brand.

use crate::spec::model::{LogoVariant, PaletteEntry};
use crate::spec::tokens::css::{self, Refs};
use crate::spec::tokens::modes::View;
use crate::spec::tokens::{TokenSet, TokenValue};
use crate::spec::Brand;

/// The resolved CSS value of a `{reference}` in a context (a colour's: a
/// composite's parts are resolved in the default).
pub fn reference_value_in(view: View<'_>, reference: &str) -> String {
    view.resolve_reference(reference)
        .as_deref()
        .map(|v| css::value(v, view.base(), Refs::Resolve))
        .unwrap_or_default()
}

/// The resolved CSS value of a `{reference}`.
pub fn reference_value(tokens: &TokenSet, reference: &str) -> String {
    tokens
        .resolve_reference(reference)
        .as_deref()
        .map(|v| css::value(v, tokens, Refs::Resolve))
        .unwrap_or_default()
}

/// The hex (sRGB) of a colour reference, for labels.
pub fn reference_hex(brand: &Brand, reference: &str) -> Option<String> {
    match brand.tokens.resolve_reference(reference).as_deref()? {
        TokenValue::Color(c) => Some(crate::color::hex(c.srgb(), c.alpha)),
        _ => None,
    }
}

/// The logo variant a card on a light background shows.
pub fn primary_logo(brand: &Brand) -> Option<&LogoVariant> {
    let variants = &brand.doc.logo.variants;
    variants
        .iter()
        .find(|v| v.background.as_deref() != Some("dark"))
        .or(variants.first())
}

/// The logo variant for dark backgrounds, if the brand has one.
pub fn dark_logo(brand: &Brand) -> Option<&LogoVariant> {
    brand
        .doc
        .logo
        .variants
        .iter()
        .find(|v| v.background.as_deref() == Some("dark"))
}

/// The palette entry that stands for the brand: the one whose role is
/// `primary` or `brand`, else `accent`, else the first.
pub fn accent(brand: &Brand) -> Option<&PaletteEntry> {
    let palette = &brand.doc.color.palette;
    let with_role = |roles: &[&str]| {
        palette
            .iter()
            .find(|p| p.role.as_deref().is_some_and(|r| roles.contains(&r)))
    };
    with_role(&["primary", "brand"])
        .or_else(|| with_role(&["accent"]))
        .or(palette.first())
}
