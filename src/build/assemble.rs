//! Assembling the snapshot: every brand's resources, the documents about
//! all brands (index, brands.json, llms.txt, the schema, /status), a stale
//! brand's page with its errors on it, and a page for each brand that is
//! not published, for browsers that ask for it.
//!
//! A reload must cost what changed, not the number of brands, so each
//! brand's part of the documents about all brands is rendered once: its
//! brands.json entry and llms.txt line with the brand ([`Listing`]), its
//! index row, /status entry and error pages when its state changes
//! ([`Views`]). Assembling concatenates them. Large documents are first
//! published uncompressed, and [`compress_later`] names them so the reload
//! loop can add their codings once the new snapshot is served.

use super::policy_of;
use super::{BrandState, Catalog, Published};
use crate::paths;
use crate::render::html::{IndexEntry, State};
use crate::render::status::{Entry, Reload, Status};
use crate::render::{self, Context, SCHEMA_PATH};
use crate::snapshot::{CachePolicy, Effort, Resource, Snapshot, Stats, LARGE};
use crate::spec::diag::count;
use crate::spec::{Brand, Diagnostic};
use serde::Serialize;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

mod entries;
mod examples;
use entries::{BrandStatus, Findings, Unpublished};
use examples::openapi_examples;

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

/// Pretty JSON of `value`, each line indented by `indent` spaces: an item
/// of an array nested as deep, as `to_string_pretty` would write it there.
fn nested_json(value: &impl Serialize, indent: usize) -> String {
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    let pad = " ".repeat(indent);
    text.lines()
        .map(|l| format!("{pad}{l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Appends a JSON array of pre-rendered items, at the nesting of a
/// top-level member, to `out`: in one pass, as these arrays are megabytes
/// long at thousands of brands.
fn push_json_array<'a>(out: &mut String, items: impl Iterator<Item = &'a str>) {
    out.push('[');
    let mut first = true;
    for item in items {
        out.push_str(if first { "\n" } else { ",\n" });
        out.push_str(item);
        first = false;
    }
    out.push_str(if first { "]" } else { "\n  ]" });
}

/// A published brand's entries in the documents that list every brand,
/// rendered once with the brand.
#[derive(Debug, Clone)]
pub struct Listing {
    pub brands_json: String,
    pub llms_line: String,
}

impl Listing {
    pub fn of(b: &Brand, ctx: &Context) -> Listing {
        let entry = BrandsEntry {
            slug: &b.slug,
            name: &b.doc.name,
            version: b.version.to_string(),
            updated: b.updated.to_string(),
            summary: b.doc.summary.as_deref(),
            links: render::spec_json::links(b, ctx),
        };
        Listing {
            brands_json: nested_json(&entry, 4),
            llms_line: render::llms_txt::index_line(b, ctx),
        }
    }
}

/// What one brand folder shows in the index and /status, and the page that
/// stands in for its own (a stale or unpublished brand's).
#[derive(Debug)]
struct View {
    index_row: String,
    status: Entry,
    published: bool,
    page: Option<Arc<Resource>>,
}

/// The views of the last assembly, by slug, each with what it was made
/// from: a brand whose state did not change is not rendered again. Also
/// the documents that rarely change (the schemas, the OpenAPI description),
/// by path with the body they were made from.
#[derive(Debug, Default)]
pub struct Views {
    by_slug: HashMap<String, (Shown, Arc<View>)>,
    documents: HashMap<String, (String, CachePolicy, Arc<Resource>)>,
    /// /openapi.json and what it was made from: it describes every brand's
    /// demo (megabytes at a thousand brands), so it is made again only when
    /// a prompt kit, a brand, an example or the render context changed, and
    /// is not kept a second time as a body to compare, as other documents are.
    openapi: Option<(render::openapi::Examples, Arc<Resource>)>,
    /// The render context of the views, hashed.
    context: u64,
}

/// What a brand's view is made from. A build carries an unchanged brand's
/// state over as it was (the same `Arc`s), so comparing is a few pointer
/// comparisons per brand, whatever its number of diagnostics: at ten
/// thousand brands, hashing them all took 40 ms of every save.
#[derive(Debug)]
struct Shown {
    attempted: [u8; 32],
    /// The published render's input and bytes (which grow when its
    /// codings arrive, and /status reports them).
    published: Option<([u8; 32], usize)>,
    diagnostics: Arc<Vec<Diagnostic>>,
    /// Its releases' keys, whether each is served, and their diagnostics,
    /// hashed (0 for a brand without releases).
    releases: u64,
    building: bool,
}

impl Shown {
    fn of(s: &BrandState, catalog: &Catalog) -> Shown {
        let mut releases = 0;
        // Skipped without releases at all: `releases_of` formats a prefix.
        if !catalog.pinned.is_empty() {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            let mut any = false;
            for (key, p) in catalog.releases_of(&s.slug) {
                (key, p.published.is_some(), &p.diagnostics).hash(&mut h);
                any = true;
            }
            if any {
                releases = h.finish() | 1;
            }
        }
        Shown {
            attempted: s.attempted,
            published: s.published.as_ref().map(|p| (p.input, p.bytes)),
            diagnostics: s.diagnostics.clone(),
            releases,
            building: catalog.is_building(&s.slug),
        }
    }

    fn same(&self, other: &Shown) -> bool {
        self.attempted == other.attempted
            && self.building == other.building
            && self.published == other.published
            && self.releases == other.releases
            && (Arc::ptr_eq(&self.diagnostics, &other.diagnostics)
                || self.diagnostics == other.diagnostics)
    }
}

impl Views {
    /// The resource of a document that rarely changes: the one built before
    /// when its body and cache policy are the same, so a reload does not
    /// compress it again.
    fn document(
        &mut self,
        path: &str,
        content_type: &str,
        body: String,
        cache: CachePolicy,
    ) -> Arc<Resource> {
        if let Some((before, policy, r)) = self.documents.get(path) {
            if *before == body && *policy == cache {
                return r.clone();
            }
        }
        // Made again only when it changed, so even a large one gets its
        // codings now, and a ready snapshot has them.
        let r = Arc::new(document(content_type, body.clone(), cache, Effort::Fast));
        self.documents
            .insert(path.to_string(), (body, cache, r.clone()));
        r
    }

    /// /openapi.json as made before, when `examples` and `cache` are the
    /// same (a change of render context forgets it, see `rendered_with`).
    fn kept_openapi(
        &self,
        examples: &render::openapi::Examples,
        cache: CachePolicy,
    ) -> Option<Arc<Resource>> {
        let (before, r) = self.openapi.as_ref()?;
        (before == examples && r.cache == cache).then(|| r.clone())
    }

    /// Keeps the served /openapi.json in place of the one kept when it is
    /// the same body with the codings made once it was served (its brotli
    /// coding, see [`compress_later`]), so that it is not compressed again.
    pub fn adopt_openapi(&mut self, served: &Snapshot) {
        let Some((_, kept)) = &mut self.openapi else {
            return;
        };
        if let Some(s) = served.documents.get(paths::OPENAPI) {
            if s.identity.etag == kept.identity.etag && kept.wants_brotli() && !s.wants_brotli() {
                *kept = s.clone();
            }
        }
    }

    /// Forgets every view when the render context changed (it is in each).
    fn rendered_with(&mut self, ctx: &Context) {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        ctx.hash(&mut h);
        let context = h.finish();
        if context != self.context {
            self.by_slug.clear();
            self.openapi = None;
            self.context = context;
        }
    }

    /// The brand's view, made again only when what it shows changed: its
    /// render, its diagnostics or its releases'.
    fn get(&mut self, s: &BrandState, catalog: &Catalog, ctx: &Context) -> Arc<View> {
        let shown = Shown::of(s, catalog);
        if let Some((before, v)) = self.by_slug.get(&s.slug) {
            if before.same(&shown) {
                return v.clone();
            }
        }
        let diags =
            crate::spec::diag::in_repository(&catalog.brand_diagnostics(s), &ctx.source_prefix);
        let view = Arc::new(view_of(s, shown.building, &diags, ctx));
        self.by_slug.insert(s.slug.clone(), (shown, view.clone()));
        view
    }
}

fn view_of(s: &BrandState, building: bool, diags: &[Diagnostic], ctx: &Context) -> View {
    let (errors, warnings) = count(diags);
    let state = match (&s.published, s.stale()) {
        (None, _) => State::Unpublished,
        (Some(_), true) => State::Stale,
        (Some(_), false) => State::Ok,
    };
    let index_row = render::html::index_row(
        &IndexEntry {
            slug: &s.slug,
            headline: s.published.as_ref().map(|p| &p.headline),
            state,
            errors,
        },
        ctx,
    );
    let findings = || Findings {
        errors,
        warnings,
        kinds: crate::spec::diag::kinds(diags.iter()),
        diagnostics: diags,
        silenced: &s.silenced,
    };
    let (status, page) = match &s.published {
        Some(p) => {
            let entry = BrandStatus {
                slug: &s.slug,
                version: p.headline.version.clone(),
                updated: p.headline.updated.clone(),
                state: if s.stale() { "stale" } else { "ok" },
                building,
                bytes: p.bytes,
                findings: findings(),
            };
            let page = s.stale().then(|| {
                let page = match p.model.brand.brand() {
                    Some(brand) => render::html::render_with_errors(&brand, ctx, diags),
                    None => render::html::render_unpublished(&s.slug, ctx, diags),
                };
                Arc::new(page_resource(page, ctx, Effort::None))
            });
            (Entry::of(&entry), page)
        }
        None => {
            let entry = Unpublished {
                slug: &s.slug,
                building,
                findings: findings(),
            };
            let page = render::html::render_unpublished(&s.slug, ctx, diags);
            (
                Entry::of(&entry),
                Some(Arc::new(page_resource(page, ctx, Effort::None))),
            )
        }
    };
    View {
        index_row,
        status,
        published: s.published.is_some(),
        page,
    }
}

/// Assembles the snapshot: every brand's resources plus the global documents.
/// `generation` counts builds (0: nothing built yet, so not ready); `reload`
/// is what /status says about the reloads.
///
/// With `reuse` (the snapshot being served), the documents that list every
/// brand ([`LISTS`]: megabytes at thousands of brands) are taken from it
/// as they are, so that a save is served without making them again, and
/// what they are made from is returned: [`Lists::render`] makes them, on
/// another thread (see `Reloader`).
pub fn assemble(
    catalog: &Catalog,
    ctx: &Context,
    generation: u64,
    reload: &Reload,
    views: &mut Views,
    reuse: Option<&Snapshot>,
) -> (Snapshot, Option<Lists>) {
    // Ready once a build is served at full quality: built, with every body's
    // codings. A snapshot assembled only to publish a failure (say, a fetch
    // before any content), or a first build served before its codings exist,
    // serves /status but not /readyz, so a load balancer that trusts /readyz
    // never sends traffic that would get uncompressed bodies.
    let served = catalog.brands.len() + catalog.pinned.len();
    let building = catalog.first_builds();
    let mut snap = Snapshot {
        // Every brand has had its first outcome: published, invalid, or
        // stopped at its time limit; none is still building for the first time.
        ready: generation > 0 && catalog.is_compressed() && building.is_empty(),
        building,
        generation,
        brands: HashMap::with_capacity(served),
        models: HashMap::with_capacity(served),
        demo: HashMap::with_capacity(catalog.brands.len()),
        ..Snapshot::default()
    };
    let published = catalog
        .published()
        .chain(catalog.pinned.values().filter_map(|p| p.published.as_ref()));
    for p in published {
        snap.brands.insert(p.key.clone(), p.resources.clone());
        snap.models.insert(p.key.clone(), p.model.clone());
    }
    for p in catalog.published() {
        snap.demo.insert(p.demo.slug.clone(), p.demo.clone());
    }
    views.rendered_with(ctx);
    // /openapi.json describes every brand's demo: made on one core while
    // the other assembles the rest (76 MB at ten thousand brands).
    let current = policy_of(ctx);
    let examples = openapi_examples(catalog);
    // Tens of megabytes at thousands of brands: served with gzip alone,
    // its brotli coding following as every body's does (`compress_later`,
    // once the snapshot is served; [`Views::adopt_openapi`] keeps that).
    let kept = views.kept_openapi(&examples, current);
    let (openapi, lists) = rayon::join(
        || {
            kept.unwrap_or_else(|| {
                let body = render::openapi::render(ctx, &examples);
                Arc::new(document("application/json", body, current, Effort::Gzip))
            })
        },
        || assemble_rest(&mut snap, catalog, ctx, generation, reload, views, reuse),
    );
    if lists.is_none() {
        // The lists counted the bytes held without it (it was being made).
        snap.stats.bytes += openapi.memory();
        Arc::make_mut(&mut snap.status).snapshot_bytes = snap.stats.bytes;
    }
    snap.documents
        .insert(paths::OPENAPI.into(), openapi.clone());
    views.openapi = Some((examples, openapi));
    (snap, lists)
}

/// [`assemble`] but for /openapi.json: the brands' views and pages, the
/// documents about the service, and the lists of every brand.
fn assemble_rest(
    snap: &mut Snapshot,
    catalog: &Catalog,
    ctx: &Context,
    generation: u64,
    reload: &Reload,
    views: &mut Views,
    reuse: Option<&Snapshot>,
) -> Option<Lists> {
    let shown: Vec<(&BrandState, Arc<View>)> = catalog
        .brands
        .values()
        .map(|s| (s, views.get(s, catalog, ctx)))
        .collect();
    views
        .by_slug
        .retain(|slug, _| catalog.brands.contains_key(slug));
    for (s, view) in &shown {
        if let Some(page) = &view.page {
            let path = paths::brand(&s.slug);
            if view.published {
                snap.documents.insert(path, page.clone());
            } else {
                snap.unpublished.insert(path, page.clone());
            }
        }
    }
    snap.stats = stats(catalog, &shown);
    documents(snap, ctx, views);
    let lists = Lists {
        ctx: ctx.clone(),
        ready: snap.ready,
        generation,
        views: shown.iter().map(|(_, v)| v.clone()).collect(),
        published: catalog.published().cloned().collect(),
        reload: reload.clone(),
        source_diagnostics: crate::spec::diag::in_repository(
            &catalog.source_diagnostics,
            &ctx.source_prefix,
        ),
    };
    let reused: Option<Vec<(String, Arc<Resource>)>> = reuse.and_then(|prev| {
        LISTS
            .iter()
            .map(|path| Some((path.to_string(), prev.documents.get(*path)?.clone())))
            .collect()
    });
    let brotli_pending = !catalog.has_brotli();
    match (reused, reuse) {
        (Some(docs), Some(prev)) => {
            snap.documents.extend(docs);
            snap.stats.bytes = prev.stats.bytes;
            // The brands' entries follow with the lists; the rest is current.
            let mut status = Status::new(snap.ready, reload.clone()).with_brands_of(&prev.status);
            status.brotli_pending = brotli_pending;
            snap.status = Arc::new(status);
            snap.lists_generation = prev.lists_generation;
            Some(lists)
        }
        _ => {
            // Large lists wait for their codings (`compress_later`) while
            // a first build hurries to be served; a ready snapshot has
            // their gzip coding, and their brotli one follows as every
            // body's does (`compress_later` once the snapshot is served).
            let effort = if snap.ready {
                Effort::Gzip
            } else {
                Effort::None
            };
            let (docs, mut status) = lists.render(snap, effort);
            status.brotli_pending = brotli_pending;
            snap.documents.extend(docs);
            snap.stats.bytes = status.snapshot_bytes;
            snap.status = Arc::new(status);
            snap.lists_generation = generation;
            None
        }
    }
}

/// The documents about the service that rarely change: the schemas, the
/// OpenAPI description and what every page shares.
fn documents(snap: &mut Snapshot, ctx: &Context, views: &mut Views) {
    let current = policy_of(ctx);
    for (path, content_type, body) in [
        (
            SCHEMA_PATH,
            "application/schema+json",
            crate::spec::schema::BRAND_SCHEMA.to_string(),
        ),
        (
            render::schemas::SPEC_SCHEMA_PATH,
            "application/schema+json",
            pretty(&render::schemas::spec_schema()),
        ),
        (
            render::schemas::CHANGELOG_SCHEMA_PATH,
            "application/schema+json",
            pretty(&render::schemas::changelog_schema()),
        ),
    ] {
        snap.documents.insert(
            path.into(),
            views.document(path, content_type, body, current),
        );
    }
    // The codes change only with marque: compressed once, kept.
    let codes = render::html::render_codes(ctx);
    let r = views.document(
        paths::CODES,
        "text/html; charset=utf-8",
        codes.body,
        current,
    );
    snap.documents.insert(
        paths::CODES.into(),
        Arc::new(Resource::clone(&r).with_header("content-security-policy", &codes.csp)),
    );
    snap.documents.insert(
        render::html::FAVICON_ICO.into(),
        Arc::new(Resource::new(
            "image/x-icon",
            render::html::favicon_ico(),
            current,
        )),
    );
    // What every page links to, once: named by their hash, so immutable
    // (but for a preview, whose every document is unlisted and unstored).
    let fixed = match ctx.preview {
        true => CachePolicy::Preview,
        false => CachePolicy::Immutable,
    };
    for asset in render::html::assets::all(ctx) {
        let body = asset.body.to_string();
        let r = views.document(&asset.path, asset.media_type, body, fixed);
        snap.documents.insert(asset.path.clone(), r);
    }
}

fn pretty(v: &serde_json::Value) -> String {
    serde_json::to_string_pretty(v).expect("serialisable") + "\n"
}

/// The figures /metrics reads, but the bytes held (see [`Lists::render`]).
fn stats(catalog: &Catalog, shown: &[(&BrandState, Arc<View>)]) -> Stats {
    let published = shown.iter().filter(|(s, _)| s.published.is_some());
    let stale = published.clone().filter(|(s, _)| s.stale()).count();
    Stats {
        brands_ok: published.count() - stale,
        brands_stale: stale,
        brands_unpublished: shown.iter().filter(|(_, v)| !v.published).count(),
        brand_bytes: catalog
            .published()
            .map(|p| (p.demo.slug.clone(), p.bytes))
            .collect(),
        ..Stats::default()
    }
}

/// The documents that list every brand, and grow with their number.
pub const LISTS: [&str; 3] = [paths::INDEX, paths::BRANDS_JSON, paths::LLMS_TXT];

/// What the documents that list every brand ([`LISTS`]) are made from,
/// owned, so that at thousands of brands they can be made on another
/// thread while a save is served.
#[derive(Debug)]
pub struct Lists {
    ctx: Context,
    ready: bool,
    /// The generation they describe.
    pub generation: u64,
    /// Each brand folder's view, in slug order.
    views: Vec<Arc<View>>,
    /// Each published brand, in slug order.
    published: Vec<Arc<Published>>,
    /// What /status says about the reloads.
    reload: Reload,
    source_diagnostics: Vec<Diagnostic>,
}

impl Lists {
    /// The documents, each large one compressed as hard as `effort` says
    /// (`Effort::None`: compressed later, see [`compress_later`]), and
    /// /status, which counts the bytes `snap` holds with them in place of
    /// its own.
    pub fn render(
        &self,
        snap: &Snapshot,
        effort: Effort,
    ) -> (Vec<(String, Arc<Resource>)>, Status) {
        let ctx = &self.ctx;
        let current = policy_of(ctx);
        // Three documents of megabytes at thousands of brands, each made
        // and compressed on a core of its own.
        let index = || {
            let rows: Vec<&str> = self.views.iter().map(|v| v.index_row.as_str()).collect();
            page_resource(render::html::render_index_of(&rows, ctx), ctx, effort)
        };
        let brands_json = || {
            let entries = self
                .published
                .iter()
                .map(|p| p.listing.brands_json.as_str());
            let mut body =
                String::with_capacity(entries.clone().map(|e| e.len() + 2).sum::<usize>() + 32);
            body.push_str("{\n  \"brands\": ");
            push_json_array(&mut body, entries);
            body.push_str("\n}\n");
            document("application/json", body, current, effort)
        };
        let llms_txt = || {
            let lines: Vec<&str> = self
                .published
                .iter()
                .map(|p| p.listing.llms_line.as_str())
                .collect();
            let body = render::llms_txt::render_index_of(&lines, ctx);
            document("text/plain; charset=utf-8", body, current, effort)
        };
        let ((index, brands_json), llms_txt) =
            rayon::join(|| rayon::join(index, brands_json), llms_txt);
        let docs = vec![
            (paths::INDEX.to_string(), Arc::new(index)),
            (paths::BRANDS_JSON.to_string(), Arc::new(brands_json)),
            (paths::LLMS_TXT.to_string(), Arc::new(llms_txt)),
        ];
        let mut status = Status::new(self.ready, self.reload.clone());
        status.snapshot_bytes = snap.memory_with(&LISTS, docs.iter().map(|(_, r)| r));
        for view in &self.views {
            match view.published {
                true => status.brands.push(view.status.clone()),
                false => status.unpublished.push(view.status.clone()),
            }
        }
        status.content_diagnostics = self.source_diagnostics.clone();
        (docs, status)
    }
}

/// A document rebuilt on every reload: compressed while small; once large
/// (the index of thousands of brands), as hard as `large` says.
fn document(content_type: &str, body: String, cache: CachePolicy, large: Effort) -> Resource {
    let effort = if body.len() > LARGE {
        large
    } else {
        Effort::Best
    };
    Resource::with_effort(content_type, body, cache, effort)
}

/// The documents of `snap` published uncompressed because they are large,
/// or with gzip alone (a first build's lists), with their codings,
/// compressed now: swap them into a copy of the
/// snapshot to serve them compressed. Empty when there is nothing to do.
pub fn compress_later(snap: &Snapshot) -> Vec<(String, Arc<Resource>)> {
    snap.documents
        .iter()
        .filter(|(_, r)| (!r.has_codings() || r.wants_brotli()) && r.len() > LARGE)
        .map(|(path, r)| (path.clone(), Arc::new(r.with_codings(Effort::Fast))))
        .collect()
}

fn page_resource(page: render::html::Page, ctx: &Context, large: Effort) -> Resource {
    let media = "text/html; charset=utf-8";
    let r = match ctx.preview {
        // Compressed once, with its banner (see `live::previews`).
        true => Resource::with_effort(media, page.body, policy_of(ctx), Effort::None),
        false => document(media, page.body, policy_of(ctx), large),
    };
    r.with_header("content-security-policy", &page.csp)
}
