//! Assembling the snapshot: every brand's resources, the documents about
//! all brands (index, brands.json, llms.txt, the schema, /status), a stale
//! brand's page with its errors on it, and a page for each brand that is
//! not published, for browsers that ask for it.

use super::{BrandState, Catalog};
use crate::render::html::{IndexEntry, State};
use crate::render::{self, Context, SCHEMA_PATH};
use crate::snapshot::{CachePolicy, Resource, Snapshot, Stats};
use crate::spec::diag::count;
use crate::spec::Diagnostic;
use serde::Serialize;
use std::sync::Arc;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Status<'a> {
    service: &'static str,
    version: &'static str,
    ready: bool,
    #[serde(flatten)]
    reload: serde_json::Value,
    brands: Vec<BrandStatus<'a>>,
    unpublished: Vec<Unpublished>,
    content_diagnostics: &'a [Diagnostic],
    snapshot_bytes: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BrandStatus<'a> {
    slug: &'a str,
    version: String,
    updated: String,
    state: &'static str,
    /// Bytes its resources hold, all codings.
    bytes: usize,
    errors: usize,
    warnings: usize,
    diagnostics: Vec<Diagnostic>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Unpublished {
    slug: String,
    errors: usize,
    warnings: usize,
    diagnostics: Vec<Diagnostic>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BrandsEntry<'a> {
    slug: &'a str,
    name: &'a str,
    version: String,
    updated: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    summary: Option<&'a str>,
    links: render::spec_json::Links,
}

fn json(value: &impl Serialize) -> String {
    let mut s = serde_json::to_string_pretty(value).unwrap_or_default();
    s.push('\n');
    s
}

/// One brand folder with every diagnostic of its latest attempt.
type Judged<'c> = (&'c BrandState, Vec<Diagnostic>);

/// Assembles the snapshot: every brand's resources plus the global documents.
/// `generation` counts builds (0: nothing built yet, so not ready); `report`
/// holds what /status says about the reloads, as JSON object members.
pub fn assemble(
    catalog: &Catalog,
    ctx: &Context,
    generation: u64,
    report: serde_json::Value,
) -> Snapshot {
    // Ready once a build has happened; a snapshot assembled only to publish
    // a failure (say, a fetch before any content) serves /status but not /readyz.
    let mut snap = Snapshot {
        ready: generation > 0,
        generation,
        ..Snapshot::default()
    };
    for p in catalog.published() {
        for (path, r) in &p.resources {
            snap.resources.insert(path.clone(), r.clone());
        }
        snap.demo.insert(p.brand.slug.clone(), p.demo.clone());
    }
    for p in catalog.pinned.values() {
        for (path, r) in p.published.iter().flat_map(|p| &p.resources) {
            snap.resources.insert(path.clone(), r.clone());
        }
    }
    let judged: Vec<Judged> = catalog
        .brands
        .values()
        .map(|s| (s, catalog.brand_diagnostics(s)))
        .collect();
    pages(&mut snap, &judged, ctx);
    documents(&mut snap, catalog, ctx);
    status(&mut snap, catalog, &judged, report);
    snap
}

/// A stale brand's page carries its errors; an unpublished brand gets a
/// page of its own, served with 404 to browsers; the index lists them all.
fn pages(snap: &mut Snapshot, judged: &[Judged], ctx: &Context) {
    for (s, diags) in judged {
        let path = format!("/brand/{}", s.slug);
        match &s.published {
            Some(p) if s.stale() => {
                let page = render::html::render_with_errors(&p.brand, ctx, diags);
                snap.resources
                    .insert(path, Arc::new(page_resource(page, ctx)));
            }
            Some(_) => {}
            None => {
                let page = render::html::render_unpublished(&s.slug, ctx, diags);
                snap.unpublished
                    .insert(path, Arc::new(page_resource(page, ctx)));
            }
        }
    }
    let entries: Vec<IndexEntry> = judged
        .iter()
        .map(|(s, diags)| IndexEntry {
            slug: &s.slug,
            brand: s.published.as_ref().map(|p| p.brand.as_ref()),
            state: match (&s.published, s.stale()) {
                (None, _) => State::Unpublished,
                (Some(_), true) => State::Stale,
                (Some(_), false) => State::Ok,
            },
            errors: count(diags).0,
        })
        .collect();
    snap.resources.insert(
        "/".into(),
        Arc::new(page_resource(
            render::html::render_index(&entries, ctx),
            ctx,
        )),
    );
}

/// The documents about all brands: /brands.json, /llms.txt and the schema.
fn documents(snap: &mut Snapshot, catalog: &Catalog, ctx: &Context) {
    let brands: Vec<&crate::spec::Brand> = catalog.published().map(|p| p.brand.as_ref()).collect();
    let list: Vec<BrandsEntry> = brands
        .iter()
        .map(|b| BrandsEntry {
            slug: &b.slug,
            name: &b.doc.name,
            version: b.version.to_string(),
            updated: b.updated.to_string(),
            summary: b.doc.summary.as_deref(),
            links: render::spec_json::links(b, ctx),
        })
        .collect();
    let current = CachePolicy::Current(ctx.max_age);
    snap.resources.insert(
        "/brands.json".into(),
        Arc::new(Resource::new(
            "application/json",
            json(&serde_json::json!({ "brands": list })),
            current,
        )),
    );
    snap.resources.insert(
        "/llms.txt".into(),
        Arc::new(Resource::new(
            "text/plain; charset=utf-8",
            render::llms_txt::render_index(&brands, ctx),
            current,
        )),
    );
    snap.resources.insert(
        SCHEMA_PATH.into(),
        Arc::new(Resource::new(
            "application/schema+json",
            crate::spec::schema::BRAND_SCHEMA,
            current,
        )),
    );
}

/// /status, and the figures /metrics reads.
fn status(snap: &mut Snapshot, catalog: &Catalog, judged: &[Judged], report: serde_json::Value) {
    let bytes = snap.memory();
    let status = Status {
        service: "marque",
        version: env!("CARGO_PKG_VERSION"),
        ready: snap.ready,
        reload: report,
        brands: judged
            .iter()
            .filter_map(|(s, diags)| {
                let p = s.published.as_ref()?;
                let (errors, warnings) = count(diags);
                Some(BrandStatus {
                    slug: &s.slug,
                    version: p.brand.version.to_string(),
                    updated: p.brand.updated.to_string(),
                    state: if s.stale() { "stale" } else { "ok" },
                    bytes: p.resources.iter().map(|(_, r)| r.memory()).sum(),
                    errors,
                    warnings,
                    diagnostics: diags.clone(),
                })
            })
            .collect(),
        unpublished: judged
            .iter()
            .filter(|(s, _)| s.published.is_none())
            .map(|(s, diags)| {
                let (errors, warnings) = count(diags);
                Unpublished {
                    slug: s.slug.clone(),
                    errors,
                    warnings,
                    diagnostics: diags.clone(),
                }
            })
            .collect(),
        content_diagnostics: &catalog.source_diagnostics,
        snapshot_bytes: bytes,
    };
    snap.stats = Stats {
        brands_ok: status.brands.iter().filter(|b| b.state == "ok").count(),
        brands_stale: status.brands.iter().filter(|b| b.state == "stale").count(),
        brands_unpublished: status.unpublished.len(),
        bytes,
        brand_bytes: status
            .brands
            .iter()
            .map(|b| (b.slug.to_string(), b.bytes))
            .collect(),
        ..Stats::default()
    };
    snap.resources.insert(
        "/status".into(),
        Arc::new(Resource::new(
            "application/json",
            json(&status),
            CachePolicy::NoStore,
        )),
    );
}

fn page_resource(page: render::html::Page, ctx: &Context) -> Resource {
    Resource::new(
        "text/html; charset=utf-8",
        page.body,
        CachePolicy::Current(ctx.max_age),
    )
    .with_header("content-security-policy", &page.csp)
}
