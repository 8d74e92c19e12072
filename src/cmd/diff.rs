//! `marque diff`: what changed in a brand between two versions.

use crate::clock::today;
use crate::config::{DiffArgs, DiffFormat};
use crate::source::Content;
use anyhow::{Context as _, Result};
use std::io::Write;

/// The files of one side of a comparison: `current` (the content folder)
/// or a released version (its tag's tree).
fn side_files(
    content: &Content,
    slug: &str,
    reference: &str,
) -> Result<std::sync::Arc<crate::spec::BrandFiles>> {
    if reference == "current" {
        return content
            .brands
            .iter()
            .find(|b| b.slug == slug)
            .cloned()
            .with_context(|| format!("no brand folder {slug}"));
    }
    let version = semver::Version::parse(reference)
        .map_err(|e| anyhow::anyhow!("{reference:?} is neither `current` nor a version ({e})"))?;
    content
        .pinned
        .iter()
        .find(|p| p.files.slug == slug && p.release.version == version)
        .map(|p| p.files.clone())
        .with_context(|| {
            let known: Vec<String> = content
                .pinned
                .iter()
                .filter(|p| p.files.slug == slug)
                .map(|p| p.release.version.to_string())
                .collect();
            format!(
                "no release {slug}@{reference} (releases: {})",
                if known.is_empty() {
                    "none".to_string()
                } else {
                    known.join(", ")
                }
            )
        })
}

/// `marque diff`: what changed in a brand between two versions, and the
/// version step it needs. Exit code 0 either way; 2 when a side is unknown
/// or does not validate.
pub fn run(args: &DiffArgs, out: &mut impl Write) -> Result<i32> {
    let (dir, slug, from, to) = args.parts();
    // A brand of a family is read over its parents.
    let content = crate::build::family::settle(&crate::source::read_folder(&dir)?).into_owned();
    let parse = |reference: &str| -> Result<(crate::spec::Brand, crate::render::diff::Side)> {
        let files = side_files(&content, slug, reference)?;
        let brand = crate::spec::parse_brand(&files, today())
            .0
            .with_context(|| format!("{slug}@{reference} has errors (marque check shows them)"))?;
        let side = crate::render::diff::Side {
            reference: reference.to_string(),
            version: brand.version.to_string(),
        };
        Ok((brand, side))
    };
    let (old, from) = parse(from)?;
    let (new, to) = parse(to)?;
    let changes = crate::spec::diff::diff(&old, &new);
    let text = match args.format {
        DiffFormat::Markdown => crate::render::diff::render_md(&new.doc.name, &from, &to, &changes),
        DiffFormat::Json => crate::render::diff::render_json(slug, &from, &to, &changes),
    };
    out.write_all(text.as_bytes())?;
    Ok(0)
}
