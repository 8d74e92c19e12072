//! The embed script: `<div data-marque-brand="slug">` plus
//! `<script async src=".../embed/brand/slug">` renders a live brand card.
//!
//! The script carries the card's data as a JSON literal escaped for script
//! context; every text reaches the page through `textContent`, and colours
//! through `style.setProperty`, so content can never become markup. The
//! card lives in an open shadow root so host styles and card styles do not
//! meet.

use super::escape;
use super::view::{
    accent, dark_logo, primary_logo, reference_hex, reference_value, reference_value_in,
};
use super::Context;
use crate::spec::tokens::css::{self, Refs};
use crate::spec::tokens::modes::View;
use crate::spec::tokens::TokenValue;
use crate::spec::Brand;
use serde::Serialize;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Card {
    slug: String,
    name: String,
    version: String,
    updated: String,
    page: String,
    logo: Option<Logo>,
    /// The variant for dark backgrounds, for `data-theme="dark"`.
    logo_dark: Option<Logo>,
    /// The top border: the palette's brand (or primary) colour.
    accent: Option<String>,
    /// That colour in the brand's own dark context, where it differs, for
    /// a dark card.
    #[serde(skip_serializing_if = "Option::is_none")]
    accent_dark: Option<String>,
    swatches: Vec<Swatch>,
    fonts: Vec<Font>,
    /// "Private" or "Embargoed until …": shown on the card of a brand only
    /// token holders read.
    #[serde(skip_serializing_if = "Option::is_none")]
    access: Option<String>,
}

#[derive(Serialize)]
struct Logo {
    url: String,
    alt: String,
}

#[derive(Serialize)]
struct Swatch {
    name: String,
    css: String,
    hex: String,
    /// The colour in the brand's own dark context, where it differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    dark: Option<Shade>,
}

#[derive(Serialize)]
struct Shade {
    css: String,
    hex: String,
}

/// A colour reference in the dark context, where it differs from the default.
fn dark_shade(brand: &Brand, dark: Option<View<'_>>, reference: &str) -> Option<Shade> {
    let dark = dark?;
    let css = reference_value_in(dark, reference);
    if css == reference_value(&brand.tokens, reference) {
        return None;
    }
    let hex = match dark.resolve_reference(reference).as_deref()? {
        TokenValue::Color(c) => crate::color::hex(c.srgb(), c.alpha),
        _ => return None,
    };
    Some(Shade { css, hex })
}

#[derive(Serialize)]
struct Font {
    role: String,
    family: String,
    css: String,
}

const SCRIPT: &str = include_str!("embed.js");

pub fn render(brand: &Brand, ctx: &Context, access: super::view::Access) -> String {
    let dark = brand.tokens.dark_context();
    let card = Card {
        access: access.label(),
        slug: brand.slug.clone(),
        name: brand.doc.name.clone(),
        version: brand.version.to_string(),
        updated: brand.updated.to_string(),
        page: ctx.brand_url(&brand.slug, ""),
        logo: primary_logo(brand).map(|v| Logo {
            url: ctx.brand_url(&brand.slug, &v.file),
            alt: format!("{} logo", brand.doc.name),
        }),
        logo_dark: dark_logo(brand).map(|v| Logo {
            url: ctx.brand_url(&brand.slug, &v.file),
            alt: format!("{} logo", brand.doc.name),
        }),
        accent: accent(brand).map(|p| reference_value(&brand.tokens, &p.token)),
        accent_dark: accent(brand)
            .and_then(|p| dark_shade(brand, dark, &p.token))
            .map(|s| s.css),
        swatches: brand
            .doc
            .color
            .palette
            .iter()
            .map(|p| Swatch {
                name: p.name.clone(),
                css: reference_value(&brand.tokens, &p.token),
                hex: reference_hex(brand, &p.token).unwrap_or_default(),
                dark: dark_shade(brand, dark, &p.token),
            })
            .collect(),
        fonts: brand
            .doc
            .typography
            .families
            .iter()
            .filter_map(|f| {
                let v = brand.tokens.resolve_reference(&f.token)?;
                let TokenValue::FontFamily(names) = v.as_ref() else {
                    return None;
                };
                Some(Font {
                    role: f.role.clone(),
                    family: names.first()?.clone(),
                    css: css::value(&v, &brand.tokens, Refs::Resolve),
                })
            })
            .collect(),
    };
    SCRIPT.replace("/*CARD*/null", &escape::json_for_script(&card))
}
