//! `marque check`: validate a content folder and print every problem,
//! as frames, JSON lines or SARIF.

use super::source_of;
use crate::build::{build_catalog, BuildOptions, Catalog};
use crate::config::{CheckArgs, OutputFormat};
use crate::render::Context;
use crate::spec::brand::silence::Silenced;
use crate::spec::diag::count;
use crate::spec::{Diagnostic, Severity};
use anyhow::Result;
use std::io::Write;

mod explain;

/// A brand with more diagnostics than this gets them grouped by kind too.
const GROUPED_FROM: usize = 10;

/// Validates a content folder. Returns the process exit code: 1 on errors.
pub fn run(args: &CheckArgs, colour: bool, out: &mut impl Write) -> Result<i32> {
    let content = crate::source::read_folder(&args.dir)?;
    if args.explain {
        return explain::run(&content, args.format, args.against.as_deref(), out);
    }
    let ctx = Context::new("http://127.0.0.1:8080");
    // Every surface is rendered, as when serving, but nothing is compressed.
    let opts = BuildOptions {
        effort: crate::snapshot::Effort::None,
        semver: args.semver,
        require_deprecation: args.require_deprecation,
        ..BuildOptions::default()
    };
    let catalog = build_catalog(
        &content,
        &ctx,
        crate::spec::Moment::at(chrono::Utc::now()),
        &Catalog::default(),
        &opts,
    );
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
                    if let Some(named) = k.named() {
                        writeln!(out, "          {named}")?;
                    }
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
            for (slug, s) in &catalog.brands {
                if let Some(line) = silenced_line(&s.silenced) {
                    writeln!(out, "{slug}: {line}")?;
                }
            }
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
            let sarif =
                crate::render::sarif::render(&diags, &root, args.public_url.as_deref(), |d| {
                    source_of(&content, d)
                });
            out.write_all(sarif.as_bytes())?;
        }
    }
    Ok(if errors > 0 { 1 } else { 0 })
}

/// What a brand's brand.json silenced, as `check` says it: `3 warning(s)
/// silenced by brand.json (MQ1401 × 1, MQ1407 × 2)`; nothing when none were.
fn silenced_line(silenced: &Silenced) -> Option<String> {
    let total: usize = silenced.values().sum();
    let by_code: Vec<String> = silenced
        .iter()
        .map(|(code, n)| format!("{code} × {n}"))
        .collect();
    (total > 0).then(|| {
        format!(
            "{total} warning(s) silenced by brand.json ({})",
            by_code.join(", ")
        )
    })
}
