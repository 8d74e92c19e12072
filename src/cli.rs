//! `marque check` and `marque build`: the same pipeline as the server,
//! writing to the terminal or to files instead of answering requests.

use crate::build::{assemble, build_catalog, Catalog, ReloadInfo};
use crate::config::{BuildArgs, ChangelogArgs, CheckArgs, OutputFormat};
use crate::reload::today;
use crate::render::Context;
use crate::spec::Severity;
use anyhow::{Context as _, Result};
use std::fs;
use std::io::Write;
use std::path::Path;

/// Validates a content folder. Returns the process exit code: 1 on errors.
pub fn check(args: &CheckArgs, out: &mut impl Write) -> Result<i32> {
    let content = crate::source::read_folder(&args.dir)?;
    let ctx = Context::new("http://127.0.0.1:8080", None);
    let catalog = build_catalog(&content, &ctx, today(), &Catalog::default());
    // Validation diagnostics only; what a surface leaves out is reported in /status.
    let diags = catalog.diagnostics();
    let left_out: usize = catalog
        .published()
        .map(|p| p.warnings.iter().filter(|w| !diags.contains(w)).count())
        .sum();
    let errors = diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    let warnings = diags.len() - errors;
    match args.format {
        OutputFormat::Human => {
            for d in &diags {
                writeln!(out, "{d}\n")?;
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
            if left_out > 0 {
                writeln!(out, "note: {left_out} token(s) have no Figma variable type and are left out of tokens.figma.json")?;
            }
        }
        OutputFormat::Json => {
            for d in &diags {
                writeln!(out, "{}", serde_json::to_string(d)?)?;
            }
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
    let ctx = Context::new(&args.public_url, None);
    let catalog = build_catalog(&content, &ctx, today(), &Catalog::default());
    let snap = assemble(
        &catalog,
        &ctx,
        &ReloadInfo {
            source: format!("directory {}", args.dir.display()),
            ..ReloadInfo::default()
        },
    );
    let mut paths: Vec<&String> = snap
        .resources
        .keys()
        .filter(|p| p.as_str() != "/status")
        .collect();
    paths.sort();
    let mut headers = String::new();
    for path in &paths {
        let r = &snap.resources[*path];
        let file = file_for(path);
        let mut targets = vec![file.clone()];
        if path.starts_with("/embed/brand/") {
            targets.push(format!("{file}.js"));
        }
        for target in &targets {
            write_file(&args.out, target, &r.identity.body)?;
            if let Some(gz) = &r.gzip {
                write_file(&args.out, &format!("{target}.gz"), &gz.body)?;
            }
            if let Some(br) = &r.br {
                write_file(&args.out, &format!("{target}.br"), &br.body)?;
            }
        }
        headers.push_str(&format!(
            "{path}\n  Content-Type: {}\n",
            r.content_type.to_str().unwrap_or_default()
        ));
        for (name, value) in &r.headers {
            headers.push_str(&format!(
                "  {name}: {}\n",
                value.to_str().unwrap_or_default()
            ));
        }
        headers.push_str("  Access-Control-Allow-Origin: *\n  X-Content-Type-Options: nosniff\n");
    }
    write_file(&args.out, "_headers", headers.as_bytes())?;
    let errors = catalog
        .diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count();
    for d in catalog.diagnostics() {
        writeln!(out, "{d}\n")?;
    }
    writeln!(
        out,
        "wrote {} files for {} brand(s) to {}",
        paths.len(),
        catalog.published().count(),
        args.out.display()
    )?;
    Ok(if errors > 0 { 1 } else { 0 })
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
pub fn changelog(args: &ChangelogArgs, out: &mut impl Write) -> Result<i32> {
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
            for d in diags.iter().filter(|d| d.severity == Severity::Error) {
                eprintln!("{d}\n");
            }
            anyhow::bail!(
                "brand {} has errors; fix them first (marque check)",
                files.slug
            );
        };
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&crate::changelog::render_md(
            &brand.doc.name,
            &brand.version,
            &brand.releases,
        ));
    }
    for d in content
        .diagnostics
        .iter()
        .filter(|d| d.pointer == "/version")
    {
        eprintln!("{d}\n");
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
