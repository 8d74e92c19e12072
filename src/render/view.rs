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

/// What a page or a card says of who may read it (DESIGN.md §20): a
/// private brand, or a version under an embargo that holds, is shown only
/// to the holders of a token for it, who must know it is not public.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    Public,
    Private,
    /// Under embargo until this moment.
    Embargoed(chrono::DateTime<chrono::Utc>),
}

impl Access {
    /// What `brand` is to readers at `now`.
    pub fn of(brand: &Brand, now: chrono::DateTime<chrono::Utc>) -> Access {
        if brand.is_private() {
            return Access::Private;
        }
        match brand.embargo().filter(|e| *e > now) {
            Some(e) => Access::Embargoed(e),
            None => Access::Public,
        }
    }

    /// Private or public, whatever its embargo (what a page rendered with
    /// no moment to decide an embargo at says).
    pub fn private_or_public(brand: &Brand) -> Access {
        match brand.is_private() {
            true => Access::Private,
            false => Access::Public,
        }
    }

    /// Its label, in UTC: `Private`, `Embargoed until 2027-01-15 08:00 UTC`.
    pub fn label(self) -> Option<String> {
        match self {
            Access::Public => None,
            Access::Private => Some("Private".to_string()),
            Access::Embargoed(e) => Some(format!(
                "Embargoed until {} UTC",
                e.format("%Y-%m-%d %H:%M")
            )),
        }
    }
}
