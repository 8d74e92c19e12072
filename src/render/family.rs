//! family.json: where a brand stands in its family (DESIGN.md section 18):
//! the brand it extends, the chain of parents it is built over (nearest
//! first, each at the version used), and the brands that extend it
//! directly, with the range each names it by. A brand of no family has
//! `"extends": null` and both lists empty.

use super::Context;
use crate::paths;
use crate::spec::Brand;
use serde_json::{json, Value};

/// `extends` as spec.json and family.json say it: the parent's slug, the
/// range named (absent when the child follows the parent's head), and the
/// parent's version used.
pub fn extends(brand: &Brand) -> Option<Value> {
    let parent = brand.lineage.parents().first()?;
    let mut o = json!({"slug": parent.files.slug, "version": parent.version()});
    if let Some(range) = &parent.range {
        o["range"] = json!(range);
    }
    Some(o)
}

/// The page of `slug` at the version a child uses: a release's pinned
/// page, or the current one.
pub(crate) fn page(ctx: &Context, slug: &str, release: Option<&semver::Version>) -> String {
    let key = paths::brand_key(slug, release.map(|v| v.to_string()).as_deref());
    ctx.url(&paths::brand(&key))
}

pub fn render(brand: &Brand, ctx: &Context) -> String {
    let chain: Vec<Value> = brand
        .lineage
        .parents()
        .iter()
        .map(|p| {
            json!({
                "slug": p.files.slug,
                "version": p.version(),
                "url": page(ctx, &p.files.slug, p.release.as_ref()),
            })
        })
        .collect();
    let dependents: Vec<Value> = brand
        .dependents
        .iter()
        .map(|d| {
            let mut o = json!({"slug": d.slug, "version": d.version});
            if let Some(range) = &d.range {
                o["range"] = json!(range);
            }
            o["url"] = json!(page(ctx, &d.slug, None));
            o
        })
        .collect();
    let doc = json!({
        "slug": brand.slug,
        "version": brand.version.to_string(),
        "extends": extends(brand),
        "chain": chain,
        "dependents": dependents,
    });
    let mut body = serde_json::to_string_pretty(&doc).unwrap_or_default();
    body.push('\n');
    body
}
