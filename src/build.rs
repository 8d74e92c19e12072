//! From content to snapshot: validate each brand, render its surfaces, and
//! assemble the snapshot. A brand is re-rendered only when its files (or the
//! render context) changed; a brand with errors keeps its last good render,
//! marked stale, and never affects another brand.
//!
//! Pure apart from CPU: content comes in as bytes, today's date and the
//! reload history come in as values.

use crate::demo::DemoBrand;
use crate::render::{self, Context};
use crate::snapshot::{CachePolicy, Resource, Snapshot};
use crate::source::Content;
use crate::spec::diag::{has_errors, Severity};
use crate::spec::{parse_brand, Brand, BrandFiles, Diagnostic};
use chrono::NaiveDate;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::Arc;

/// One brand's rendered surfaces.
#[derive(Debug)]
pub struct Published {
    pub brand: Arc<Brand>,
    /// Hash of the brand's files and the render context it was rendered with.
    pub input: [u8; 32],
    pub resources: Vec<(String, Arc<Resource>)>,
    /// Validation warnings plus what a surface had to leave out.
    pub warnings: Vec<Diagnostic>,
    /// The prompt kit and spec.md, for the demo endpoint.
    pub demo: Arc<DemoBrand>,
}

/// What marque knows of one brand folder.
#[derive(Debug, Clone)]
pub struct BrandState {
    pub slug: String,
    /// The render being served, if the brand was ever valid.
    pub published: Option<Arc<Published>>,
    /// Diagnostics of the latest attempt (errors mean `published` is older: stale).
    pub diagnostics: Vec<Diagnostic>,
    /// Input hash of the latest attempt, so an unchanged broken brand is not re-parsed.
    pub attempted: [u8; 32],
}

impl BrandState {
    pub fn stale(&self) -> bool {
        has_errors(&self.diagnostics)
    }
}

/// The state carried from one build to the next.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub brands: BTreeMap<String, BrandState>,
    /// Released versions, rendered once per tag commit and kept across builds,
    /// keyed by `<slug>@<version>`.
    pub pinned: BTreeMap<String, (String, Arc<Published>)>,
    /// Problems reading the content that belong to no single brand file.
    pub source_diagnostics: Vec<Diagnostic>,
}

impl Catalog {
    /// Brands that are served, in slug order.
    pub fn published(&self) -> impl Iterator<Item = &Arc<Published>> {
        self.brands.values().filter_map(|s| s.published.as_ref())
    }

    /// Every diagnostic, source problems first.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut all = self.source_diagnostics.clone();
        for s in self.brands.values() {
            all.extend(s.diagnostics.iter().cloned());
        }
        all
    }

    pub fn has_errors(&self) -> bool {
        has_errors(&self.diagnostics())
    }
}

fn input_hash(files: &BrandFiles, ctx: &Context, today: NaiveDate) -> [u8; 32] {
    let mut h = Sha256::new();
    for (path, bytes) in &files.files {
        h.update((path.len() as u64).to_le_bytes());
        h.update(path.as_bytes());
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    h.update(serde_json::to_vec(&files.releases).unwrap_or_default());
    h.update(ctx.public_url.as_bytes());
    h.update([0]);
    h.update(ctx.revision.as_deref().unwrap_or("").as_bytes());
    h.update([0]);
    h.update(today.to_string().as_bytes());
    h.update([u8::from(ctx.live_reload)]);
    h.finalize().into()
}

/// Validates and renders every brand of `content`, reusing `previous` where
/// a brand's input did not change.
pub fn build_catalog(
    content: &Content,
    ctx: &Context,
    today: NaiveDate,
    previous: &Catalog,
) -> Catalog {
    // Brands are independent, so they are validated and rendered in parallel.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = content.brands.len().div_ceil(threads).max(1);
    let states: Vec<BrandState> = std::thread::scope(|scope| {
        let workers: Vec<_> = content
            .brands
            .chunks(chunk)
            .map(|brands| {
                scope.spawn(move || {
                    brands
                        .iter()
                        .map(|files| {
                            brand_state(
                                files,
                                content,
                                ctx,
                                today,
                                previous.brands.get(&files.slug),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("rendering a brand does not panic"))
            .collect()
    });
    let mut next = Catalog {
        brands: states.into_iter().map(|s| (s.slug.clone(), s)).collect(),
        source_diagnostics: Vec::new(),
        pinned: BTreeMap::new(),
    };
    for pin in &content.pinned {
        let key = format!("{}@{}", pin.files.slug, pin.release.version);
        if let Some(prev) = previous
            .pinned
            .get(&key)
            .filter(|(commit, _)| *commit == pin.release.commit)
        {
            next.pinned.insert(key, prev.clone());
            continue;
        }
        // A release is rendered as it was; a version that no longer validates is not served.
        let (brand, diags) = parse_brand(&pin.files, today);
        match brand {
            Some(brand) => {
                let mut pinned_ctx = ctx.clone();
                pinned_ctx.pin = Some(pin.release.version.to_string());
                pinned_ctx.live_reload = false;
                let hash = input_hash(&pin.files, &pinned_ctx, today);
                let published = Arc::new(render_brand(brand, &pinned_ctx, hash));
                next.pinned
                    .insert(key, (pin.release.commit.clone(), published));
            }
            None => {
                tracing::warn!(release = %key, errors = diags.len(), "a released version does not validate today; it is not served")
            }
        }
    }
    next.source_diagnostics = content
        .diagnostics
        .iter()
        .filter(|d| !next.brands.contains_key(&d.brand))
        .cloned()
        .collect();
    next
}

/// Validates and renders one brand, or reuses its previous state when its
/// input did not change. A brand with errors keeps its last good render.
fn brand_state(
    files: &BrandFiles,
    content: &Content,
    ctx: &Context,
    today: NaiveDate,
    prev: Option<&BrandState>,
) -> BrandState {
    let hash = input_hash(files, ctx, today);
    if let Some(p) = prev.filter(|p| p.attempted == hash) {
        return p.clone();
    }
    let mut all: Vec<Diagnostic> = content
        .diagnostics
        .iter()
        .filter(|d| d.brand == files.slug)
        .cloned()
        .collect();
    let (brand, mut diags) = parse_brand(files, today);
    all.append(&mut diags);
    let published = match brand {
        Some(brand) if !has_errors(&all) => Some(Arc::new(render_brand(brand, ctx, hash))),
        _ => prev.and_then(|p| p.published.clone()),
    };
    BrandState {
        slug: files.slug.clone(),
        published,
        diagnostics: all,
        attempted: hash,
    }
}

/// Renders every surface of one valid brand.
pub fn render_brand(brand: Brand, ctx: &Context, input: [u8; 32]) -> Published {
    let s = brand.slug.clone();
    // A released version lives under `<slug>@<version>` and never changes.
    let key = ctx.brand_key(&s);
    let policy = if ctx.pin.is_some() {
        CachePolicy::Immutable
    } else {
        CachePolicy::Current
    };
    let mut resources = Vec::new();
    let mut add = |path: String, r: Resource| resources.push((path, Arc::new(r)));
    let figma = render::figma::render(&brand, ctx);
    let spec_md = render::spec_md::render(&brand, ctx);
    for (file, media) in render::SURFACES {
        let body = match *file {
            "spec.json" => render::spec_json::render(&brand, ctx),
            "spec.md" => spec_md.clone(),
            "tokens.css" => render::tokens_css::render(&brand, ctx),
            "tokens.figma.json" => figma.body.clone(),
            "llms.txt" => render::llms_txt::render(&brand, ctx),
            _ => unreachable!("every surface has a renderer"),
        };
        add(
            format!("/brand/{key}/{file}"),
            Resource::new(media, body.into_bytes(), policy),
        );
    }
    if ctx.pin.is_none() {
        let md = crate::changelog::render_md(&brand.doc.name, &brand.version, &brand.releases);
        let json = crate::changelog::render_json(&s, &brand.version, &brand.releases);
        add(
            format!("/brand/{s}/changelog.md"),
            Resource::new("text/markdown; charset=utf-8", md.into_bytes(), policy),
        );
        add(
            format!("/brand/{s}/changelog.json"),
            Resource::new("application/json", json.into_bytes(), policy),
        );
    }
    let page = render::html::render(&brand, ctx);
    add(
        format!("/brand/{key}"),
        Resource::new("text/html; charset=utf-8", page.body.into_bytes(), policy)
            .with_header("content-security-policy", &page.csp),
    );
    add(
        format!("/embed/brand/{key}"),
        Resource::new(
            "text/javascript; charset=utf-8",
            render::embed::render(&brand, ctx).into_bytes(),
            policy,
        ),
    );
    for (path, bytes) in &brand.assets {
        let media = crate::snapshot::media_type_of(path);
        let mut r = Resource::new(media, bytes.clone(), policy);
        if media == "image/svg+xml" {
            // An SVG opened directly is a document that could run script; forbid it.
            r = r.with_header(
                "content-security-policy",
                "default-src 'none'; style-src 'unsafe-inline'; sandbox",
            );
        }
        add(format!("/brand/{key}/assets/{path}"), r);
    }
    let mut warnings = brand.warnings.clone();
    for (message, token) in figma.skipped {
        let pos = token.as_ref().map(|t| t.pos).unwrap_or_default();
        warnings.push(Diagnostic {
            severity: Severity::Warning,
            brand: s.clone(),
            file: format!("{s}/tokens.json"),
            pointer: token.map(|t| t.pointer).unwrap_or_default(),
            line: pos.line.max(1),
            column: pos.column.max(1),
            message,
        });
    }
    let demo = Arc::new(DemoBrand {
        slug: s.clone(),
        version: brand.version.to_string(),
        spec_md,
        prompts: brand.doc.prompt_kit.prompts.clone(),
    });
    Published {
        brand: Arc::new(brand),
        input,
        resources,
        warnings,
        demo,
    }
}

/// What `/status` reports besides the brands: filled in by the reload loop.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReloadInfo {
    /// `directory` or `git`, and where from (credentials removed).
    pub source: String,
    /// The revision being served (a commit id), if known.
    pub revision: Option<String>,
    pub generation: u64,
    pub reloads: u64,
    pub failed_reloads: u64,
    pub last_reload_ms: f64,
    pub last_reload_at: Option<String>,
    pub last_failure: Option<Failure>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    pub revision: Option<String>,
    pub since: String,
    pub error: String,
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Status<'a> {
    service: &'static str,
    version: &'static str,
    ready: bool,
    #[serde(flatten)]
    reload: &'a ReloadInfo,
    brands: Vec<BrandStatus<'a>>,
    unpublished: Vec<Unpublished<'a>>,
    content_diagnostics: &'a [Diagnostic],
    snapshot_bytes: usize,
}

#[derive(Serialize)]
struct BrandStatus<'a> {
    slug: &'a str,
    version: String,
    updated: String,
    state: &'static str,
    diagnostics: Vec<&'a Diagnostic>,
}

#[derive(Serialize)]
struct Unpublished<'a> {
    slug: &'a str,
    diagnostics: &'a [Diagnostic],
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

/// Assembles the snapshot: every brand's resources plus the global documents.
pub fn assemble(catalog: &Catalog, ctx: &Context, reload: &ReloadInfo) -> Snapshot {
    // Ready once a build has happened; a snapshot assembled only to publish
    // a failure (say, a fetch before any content) serves /status but not /readyz.
    let ready = reload.generation > 0;
    let mut snap = Snapshot {
        resources: Default::default(),
        ready,
        generation: reload.generation,
        demo: Default::default(),
        stats: Default::default(),
    };
    let brands: Vec<&Brand> = catalog.published().map(|p| p.brand.as_ref()).collect();
    for p in catalog.published() {
        for (path, r) in &p.resources {
            snap.resources.insert(path.clone(), r.clone());
        }
        snap.demo.insert(p.brand.slug.clone(), p.demo.clone());
    }
    for (_, p) in catalog.pinned.values() {
        for (path, r) in &p.resources {
            snap.resources.insert(path.clone(), r.clone());
        }
    }
    let index = render::html::render_index(&brands, ctx);
    snap.resources.insert(
        "/".into(),
        Arc::new(
            Resource::new(
                "text/html; charset=utf-8",
                index.body.into_bytes(),
                CachePolicy::Current,
            )
            .with_header("content-security-policy", &index.csp),
        ),
    );
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
    let mut brands_json =
        serde_json::to_string_pretty(&serde_json::json!({ "brands": list })).expect("serialisable");
    brands_json.push('\n');
    snap.resources.insert(
        "/brands.json".into(),
        Arc::new(Resource::new(
            "application/json",
            brands_json.into_bytes(),
            CachePolicy::Current,
        )),
    );
    snap.resources.insert(
        "/llms.txt".into(),
        Arc::new(Resource::new(
            "text/plain; charset=utf-8",
            render::llms_txt::render_index(&brands, ctx).into_bytes(),
            CachePolicy::Current,
        )),
    );
    snap.resources.insert(
        "/schema/brand.schema.json".into(),
        Arc::new(Resource::new(
            "application/schema+json",
            crate::spec::schema::BRAND_SCHEMA.as_bytes().to_vec(),
            CachePolicy::Current,
        )),
    );
    let status = Status {
        service: "marque",
        version: env!("CARGO_PKG_VERSION"),
        ready,
        reload,
        brands: catalog
            .brands
            .values()
            .filter_map(|s| {
                let p = s.published.as_ref()?;
                let mut diagnostics: Vec<&Diagnostic> = s.diagnostics.iter().collect();
                if !s.stale() {
                    diagnostics.extend(p.warnings.iter().filter(|w| !s.diagnostics.contains(w)));
                }
                Some(BrandStatus {
                    slug: &s.slug,
                    version: p.brand.version.to_string(),
                    updated: p.brand.updated.to_string(),
                    state: if s.stale() { "stale" } else { "ok" },
                    diagnostics,
                })
            })
            .collect(),
        unpublished: catalog
            .brands
            .values()
            .filter(|s| s.published.is_none())
            .map(|s| Unpublished {
                slug: &s.slug,
                diagnostics: &s.diagnostics,
            })
            .collect(),
        content_diagnostics: &catalog.source_diagnostics,
        snapshot_bytes: snap.memory(),
    };
    snap.stats = crate::snapshot::Stats {
        brands_ok: status.brands.iter().filter(|b| b.state == "ok").count(),
        brands_stale: status.brands.iter().filter(|b| b.state == "stale").count(),
        brands_unpublished: status.unpublished.len(),
        reloads: reload.reloads,
        failed_reloads: reload.failed_reloads,
        last_reload_ms: reload.last_reload_ms,
        bytes: status.snapshot_bytes,
    };
    let mut status_json = serde_json::to_string_pretty(&status).expect("serialisable");
    status_json.push('\n');
    snap.resources.insert(
        "/status".into(),
        Arc::new(Resource::new(
            "application/json",
            status_json.into_bytes(),
            CachePolicy::NoStore,
        )),
    );
    snap
}
