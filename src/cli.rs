//! `marque check`, `marque build` and `marque changelog`: the same pipeline
//! as the server, writing to the terminal or to files instead of answering
//! requests.

use crate::build::{assemble, build_catalog, BuildOptions, Catalog};
use crate::clock::today;
use crate::config::{BuildArgs, ChangelogArgs, CheckArgs, DiffArgs, DiffFormat, OutputFormat};
use crate::render::Context;
use crate::source::Content;
use crate::spec::diag::count;
use crate::spec::{Diagnostic, Severity};
use anyhow::{Context as _, Result};
use std::fs;
use std::io::Write;
use std::path::Path;

/// The text of the file a diagnostic points into, for a frame.
pub fn source_of<'c>(content: &'c Content, d: &Diagnostic) -> Option<&'c str> {
    let files = content.brands.iter().find(|b| b.slug == d.brand)?;
    let rel = d.file.strip_prefix(&format!("{}/", d.brand))?;
    std::str::from_utf8(files.get(rel)?).ok()
}

/// A brand with more diagnostics than this gets them grouped by kind too.
const GROUPED_FROM: usize = 10;

/// Validates a content folder. Returns the process exit code: 1 on errors.
pub fn check(args: &CheckArgs, colour: bool, out: &mut impl Write) -> Result<i32> {
    let content = crate::source::read_folder(&args.dir)?;
    let ctx = Context::new("http://127.0.0.1:8080");
    // Every surface is rendered, as when serving, but nothing is compressed.
    let opts = BuildOptions {
        effort: crate::snapshot::Effort::None,
        semver: args.semver,
        ..BuildOptions::default()
    };
    let catalog = build_catalog(&content, &ctx, today(), &Catalog::default(), &opts);
    // One list: what /status reports and the server's log counts.
    let diags = catalog.diagnostics();
    let (errors, warnings) = count(&diags);
    match args.format {
        OutputFormat::Human => {
            for d in &diags {
                writeln!(
                    out,
                    "{}",
                    crate::report::frame(d, source_of(&content, d), colour)
                )?;
            }
            // A brand with many diagnostics: them again, by kind, counted.
            let mut by_brand: std::collections::BTreeMap<&str, Vec<&Diagnostic>> =
                Default::default();
            for d in &diags {
                by_brand.entry(d.brand.as_str()).or_default().push(d);
            }
            for (slug, list) in by_brand.iter().filter(|(_, l)| l.len() > GROUPED_FROM) {
                let e = list
                    .iter()
                    .filter(|d| d.severity() == Severity::Error)
                    .count();
                let w = list.len() - e;
                writeln!(out, "{slug}: {e} error(s), {w} warning(s), by kind:")?;
                for k in crate::spec::diag::kinds(list.iter().copied()) {
                    writeln!(
                        out,
                        "  {:>5} × {}[{}]: {}",
                        k.count,
                        k.severity.as_str(),
                        k.code,
                        k.message
                    )?;
                }
            }
            let brands = catalog.brands.len();
            let ok = catalog
                .brands
                .values()
                .filter(|s| !s.stale() && s.published.is_some())
                .count();
            writeln!(
                out,
                "{brands} brand(s) checked, {ok} valid: {errors} error(s), {warnings} warning(s)"
            )?;
        }
        OutputFormat::Json => {
            for d in &diags {
                writeln!(out, "{}", serde_json::to_string(d)?)?;
            }
        }
        OutputFormat::Sarif => {
            // Paths from the root of the repository that holds the folder
            // (the folder itself outside a git work tree).
            let root = crate::source::git::discover(&args.dir).map_or(String::new(), |(_, p)| p);
            let sarif = crate::render::sarif::render(&diags, &root, |d| source_of(&content, d));
            out.write_all(sarif.as_bytes())?;
        }
    }
    Ok(if errors > 0 { 1 } else { 0 })
}

/// The file a snapshot path is written to: pages become `index.html`.
fn file_for(path: &str) -> String {
    let rel = path.trim_start_matches('/');
    if rel.is_empty() {
        "index.html".into()
    } else if rel.starts_with("brand/") && !rel["brand/".len()..].contains('/') {
        format!("{rel}/index.html")
    } else {
        rel.to_string()
    }
}

/// Writes every surface as static files (with .gz and .br siblings), plus a
/// `_headers` file giving the media type and caching of each path for hosts
/// that read one (Netlify, Cloudflare Pages).
pub fn build(args: &BuildArgs, out: &mut impl Write) -> Result<i32> {
    let content = crate::source::read_folder(&args.dir)?;
    let ctx = Context::new(&args.public_url);
    let catalog = build_catalog(
        &content,
        &ctx,
        today(),
        &Catalog::default(),
        &BuildOptions {
            semver: args.semver,
            ..BuildOptions::default()
        },
    );
    let (mut snap, _) = assemble(
        &catalog,
        &ctx,
        1,
        &crate::render::status::Reload::default(),
        &mut crate::build::Views::default(),
        None,
    );
    let compressed = crate::build::compress_later(&snap);
    snap.documents.extend(compressed);
    let mut paths: Vec<(&String, &std::sync::Arc<crate::snapshot::Resource>)> =
        snap.paths().collect();
    paths.sort_by(|a, b| a.0.cmp(b.0));
    let mut headers = String::new();
    let mut files: Vec<(String, &axum::body::Bytes)> = Vec::new();
    for (path, r) in &paths {
        let file = file_for(path);
        let mut targets = vec![file.clone()];
        if path.starts_with("/embed/brand/") {
            targets.push(format!("{file}.js"));
        }
        for target in targets {
            if let Some(gz) = &r.gzip {
                files.push((format!("{target}.gz"), &gz.body));
            }
            if let Some(br) = &r.br {
                files.push((format!("{target}.br"), &br.body));
            }
            files.push((target, &r.identity.body));
        }
        // The server's cache policy: what is named by a hash (the pages'
        // shared assets) or released is immutable there and here.
        headers.push_str(&format!(
            "{path}\n  Content-Type: {}\n  Cache-Control: {}\n",
            r.content_type.to_str().unwrap_or_default(),
            r.cache_control.to_str().unwrap_or_default()
        ));
        for (name, value) in &r.headers {
            headers.push_str(&format!(
                "  {name}: {}\n",
                value.to_str().unwrap_or_default()
            ));
        }
        headers.push_str("  Access-Control-Allow-Origin: *\n  X-Content-Type-Options: nosniff\n");
    }
    // Thousands of small files: written from every core.
    {
        use rayon::prelude::*;
        files
            .par_iter()
            .try_for_each(|(target, body)| write_file(&args.out, target, body))?;
    }
    write_file(&args.out, "_headers", headers.as_bytes())?;
    let diags = catalog.diagnostics();
    for d in diags.iter().filter(|d| d.severity() == Severity::Error) {
        writeln!(
            out,
            "{}",
            crate::report::frame(d, source_of(&content, d), false)
        )?;
    }
    // Every file written: each path's body and its codings, and _headers.
    writeln!(
        out,
        "wrote {} files ({} paths, with their gzip and brotli copies, and _headers) for {} brand(s) to {}",
        files.len() + 1,
        paths.len(),
        catalog.published().count(),
        args.out.display()
    )?;
    Ok(if count(&diags).0 > 0 { 1 } else { 0 })
}

fn write_file(root: &Path, rel: &str, bytes: &[u8]) -> Result<()> {
    let path = root.join(rel);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {}", parent.display()))?;
    }
    fs::write(&path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Writes the changelog of every brand (or one) of a content folder in a git
/// work tree: Keep a Changelog Markdown, one document per brand.
pub fn changelog(args: &ChangelogArgs, out: &mut impl Write, err: &mut impl Write) -> Result<i32> {
    let content = crate::source::read_folder(&args.dir)?;
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
pub fn diff(args: &DiffArgs, out: &mut impl Write) -> Result<i32> {
    let (dir, slug, from, to) = args.parts();
    let content = crate::source::read_folder(&dir)?;
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
