//! `marque build`: every surface as static files, with their codings
//! and a `_headers` file.

use super::source_of;
use crate::build::{assemble, build_catalog, BuildOptions, Catalog};
use crate::config::BuildArgs;
use crate::render::Context;
use crate::spec::diag::count;
use crate::spec::Severity;
use anyhow::{Context as _, Result};
use std::fs;
use std::io::Write;
use std::path::Path;

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
pub fn run(args: &BuildArgs, out: &mut impl Write) -> Result<i32> {
    let content = crate::source::read_folder(&args.dir)?;
    let mut ctx = Context::new(&args.public_url);
    ctx.npm_scope = args.npm_scope.clone();
    let moment = crate::spec::Moment::at(chrono::Utc::now());
    let catalog = build_catalog(
        &content,
        &ctx,
        moment,
        &Catalog::default(),
        &BuildOptions {
            semver: args.semver,
            ..BuildOptions::default()
        },
    );
    // A static site answers everyone: it holds what public readers see,
    // no private brand and no version under embargo (DESIGN.md §20).
    let split =
        crate::build::audience::split(&catalog, &Default::default(), moment.at, &[], ctx.max_age);
    if !split.withheld.is_empty() {
        writeln!(
            out,
            "left out (private, or under embargo): {}",
            split
                .withheld
                .iter()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        )?;
    }
    let (mut snap, _) = assemble(
        split.public.as_ref().unwrap_or(&catalog),
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
    let mut files: Vec<(String, axum::body::Bytes)> = Vec::new();
    for (path, r) in &paths {
        let file = file_for(path);
        let mut targets = vec![file.clone()];
        if path.starts_with("/embed/brand/") {
            targets.push(format!("{file}.js"));
        }
        for target in targets {
            if let Some(gz) = &r.gzip {
                files.push((format!("{target}.gz"), gz.body.clone()));
            }
            if let Some(br) = &r.br {
                files.push((format!("{target}.br"), br.body.clone()));
            }
            files.push((target, r.body()));
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
