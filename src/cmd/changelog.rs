//! `marque changelog`: the Keep a Changelog document of each brand,
//! from its release tags.

use super::source_of;
use crate::clock::today;
use crate::config::ChangelogArgs;
use crate::spec::Severity;
use anyhow::{Context as _, Result};
use std::fs;
use std::io::Write;

/// Writes the changelog of every brand (or one) of a content folder in a git
/// work tree: Keep a Changelog Markdown, one document per brand.
pub fn run(args: &ChangelogArgs, out: &mut impl Write, err: &mut impl Write) -> Result<i32> {
    // A brand of a family is read over its parents.
    let content =
        crate::build::family::settle(&crate::source::read_folder(&args.dir)?).into_owned();
    if crate::source::git::discover(&args.dir).is_none() {
        anyhow::bail!(
            "{} is not inside a git work tree: releases are git tags",
            args.dir.display()
        );
    }
    let mut text = String::new();
    let mut found = false;
    for files in &content.brands {
        if args.brand.as_deref().is_some_and(|b| b != files.slug) {
            continue;
        }
        found = true;
        let (brand, diags) = crate::spec::parse_brand(files, today());
        let Some(brand) = brand else {
            for d in diags.iter().filter(|d| d.severity() == Severity::Error) {
                writeln!(
                    err,
                    "{}",
                    crate::report::frame(d, source_of(&content, d), false)
                )?;
            }
            anyhow::bail!(
                "brand {} has errors; fix them first (marque check)",
                files.slug
            );
        };
        if !text.is_empty() {
            text.push('\n');
        }
        let releases: Vec<_> = content
            .pinned
            .iter()
            .filter(|p| p.files.slug == files.slug)
            .cloned()
            .collect();
        let (changes, _) = crate::build::semantic_changes(&brand, &releases, today());
        text.push_str(&crate::render::changelog::render_md(
            &brand.doc.name,
            &brand.version,
            &brand.releases,
            &changes,
            None,
        ));
    }
    for d in content
        .diagnostics
        .iter()
        .filter(|d| d.pointer == "/version")
    {
        writeln!(err, "{d}\n")?;
    }
    if !found {
        anyhow::bail!(
            "no brand {} in {}",
            args.brand.as_deref().unwrap_or(""),
            args.dir.display()
        );
    }
    match &args.output {
        Some(path) => {
            fs::write(path, &text).with_context(|| format!("cannot write {}", path.display()))?;
            writeln!(out, "wrote {}", path.display())?;
        }
        None => out.write_all(text.as_bytes())?,
    }
    Ok(0)
}
