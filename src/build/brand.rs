//! One brand's documents: rendered from a valid brand, or taken from the
//! render cache, into a [`Published`] with what the demo, the comparison
//! endpoint and the documents about all brands need of it.

use super::assemble::Listing;
use super::{policy_of, CachedRender};
use crate::paths;
use crate::render::changelog::SemanticChanges;
use crate::render::{self, Context, Surface};
use crate::snapshot::{BrandModel, DemoBrand, Effort, Resource, Resources};
use crate::spec::diag::{file_diagnostic, Code};
use crate::spec::json::{locate, Anchor};
use crate::spec::{Brand, BrandFiles, Diagnostic, LazyBrand};
use bytes::Bytes;
use chrono::NaiveDate;
use std::sync::Arc;

/// One brand's rendered surfaces.
#[derive(Debug)]
pub struct Published {
    pub headline: render::Headline,
    /// Its version, cache policy and (parsed on demand) brand: what a stale
    /// brand's page and the compare endpoint need, made once with it.
    pub model: Arc<BrandModel>,
    /// Hash of the brand's input and the render context it was rendered with.
    pub input: [u8; 32],
    /// Its key in paths: `acme`, or `acme@1.2.0` for a released version.
    pub key: String,
    pub resources: Arc<Resources>,
    /// Its entries in the documents that list every brand, rendered with it.
    pub listing: Listing,
    /// The prompt kit and spec.md, for the demo endpoint.
    pub demo: Arc<DemoBrand>,
    /// False while its bodies wait to be compressed (see `Live::finish`).
    pub compressed: bool,
    /// False while its bodies, compressed, wait for their brotli codings
    /// (a server's first build is served once it has gzip).
    pub brotli: bool,
    /// Every diagnostic of the attempt that made it (warnings only: a brand
    /// with errors is not rendered), kept for the render cache: the list
    /// its brand's state holds, not a copy.
    pub warnings: Arc<Vec<Diagnostic>>,
    /// Taken from the render cache rather than rendered.
    pub from_cache: bool,
    /// Bytes its resources hold, all codings (for /status and /metrics).
    pub bytes: usize,
    /// A head under an embargo that held when it was rendered: what public
    /// readers get at its current paths while the embargo holds, its latest release before
    /// it rendered as the current version (its page, changelog and every
    /// surface, as of that release). `None` for everything else, and for a
    /// head with no release before it (then public readers get no brand).
    pub stand_in: Option<Arc<Published>>,
}

/// Bytes held by `resources`, all codings.
fn bytes_of(resources: &Resources) -> usize {
    resources.values().map(|r| r.memory()).sum()
}

impl Published {
    /// This render with the codings of every body that has gzip 1 alone
    /// (brotli 5 and gzip 6, see [`Resource::with_brotli`]).
    pub fn add_brotli(&self) -> Published {
        let resources: Resources = self
            .resources
            .iter()
            .map(|(path, r)| match r.wants_brotli() {
                true => (path.clone(), Arc::new(r.with_brotli())),
                false => (path.clone(), r.clone()),
            })
            .collect();
        Published {
            brotli: true,
            stand_in: self.stand_in.as_ref().map(|p| Arc::new(p.add_brotli())),
            ..self.with_resources(resources)
        }
    }

    /// This render with `resources`, compressed.
    fn with_resources(&self, resources: Resources) -> Published {
        Published {
            bytes: bytes_of(&resources),
            headline: self.headline.clone(),
            model: self.model.clone(),
            input: self.input,
            key: self.key.clone(),
            demo: Arc::new(DemoBrand {
                spec_md: served_spec_md(&resources, &self.key, String::new()),
                ..(*self.demo).clone()
            }),
            resources: Arc::new(resources),
            listing: self.listing.clone(),
            compressed: true,
            brotli: self.brotli,
            warnings: self.warnings.clone(),
            from_cache: self.from_cache,
            stand_in: self.stand_in.clone(),
        }
    }
}

/// spec.md as served, the system context of the demo's prompts: the
/// resource itself, not a copy of its bytes (ten kilobytes a brand, held
/// only as gzip once compressed); `rendered` when it is not served.
fn served_spec_md(resources: &Resources, key: &str, rendered: String) -> Arc<Resource> {
    resources
        .get(&paths::brand_doc(key, Surface::SpecMd.file()))
        .cloned()
        .unwrap_or_else(|| {
            Arc::new(Resource::with_effort(
                "text/markdown; charset=utf-8",
                rendered,
                crate::snapshot::CachePolicy::NoStore,
                Effort::None,
            ))
        })
}

/// What rendering a brand needs besides the brand and the context.
#[derive(Clone, Copy)]
pub struct BrandJob<'a> {
    pub files: &'a Arc<BrandFiles>,
    /// The hash of everything the render depends on (its cache key).
    pub input: [u8; 32],
    pub today: NaiveDate,
    /// The moment it is rendered for: a version whose embargo holds then
    /// says so in its page and card.
    pub now: chrono::DateTime<chrono::Utc>,
    pub effort: Effort,
    /// The semantic changes its changelog lists.
    pub changes: &'a SemanticChanges,
}

/// A brand's render as the cache kept it.
pub(super) fn from_cache(
    files: &Arc<BrandFiles>,
    today: NaiveDate,
    ctx: &Context,
    input: [u8; 32],
    entry: CachedRender,
) -> Published {
    let key = ctx.brand_key(&files.slug);
    let spec_md = served_spec_md(&entry.resources, &key, String::new());
    let demo = Arc::new(DemoBrand {
        slug: files.slug.clone(),
        version: entry.headline.version.clone(),
        spec_md,
        prompts: entry.prompts,
    });
    Published {
        bytes: bytes_of(&entry.resources),
        model: model(files, today, ctx, &entry.headline.version, input),
        headline: entry.headline,
        input,
        key,
        resources: Arc::new(entry.resources),
        listing: entry.listing,
        demo,
        compressed: true,
        brotli: true,
        stand_in: None,
        warnings: Arc::new(entry.warnings),
        from_cache: true,
    }
}

/// Renders every surface of one valid brand, its changelog listing
/// `changes`. Its warnings are `diagnostics` (validation's) followed by
/// what a surface had to leave out, placed in the files they come from.
pub fn render_brand(
    brand: Brand,
    ctx: &Context,
    job: &BrandJob<'_>,
    mut diagnostics: Vec<Diagnostic>,
) -> Published {
    let BrandJob {
        files,
        input,
        today,
        now,
        effort,
        changes,
    } = *job;
    let access = render::view::Access::of(&brand, now);
    // Each body is compressed as it is made: a stopped build stops between them.
    let resource = |media: &str, body: Bytes| {
        crate::spec::limits::checkpoint();
        Resource::with_effort(media, body, policy_of(ctx), effort)
    };
    // A preview's page is compressed once, with its banner (see `live::previews`).
    let page_effort = if ctx.preview { Effort::None } else { effort };
    let s = brand.slug.clone();
    // A released version lives under `<slug>@<version>` and never changes.
    let key = ctx.brand_key(&s);
    let mut resources = Resources::new();
    let mut add = |path: String, r: Resource| {
        resources.insert(path, Arc::new(r));
    };
    let figma = render::figma::render(&brand, ctx);
    let (strict, resolver) = render::tokens_json::render_both(&brand);
    let spec_md = render::spec_md::render(&brand, ctx);
    let js = render::apps::js::render(&brand);
    for surface in Surface::ALL {
        crate::spec::limits::checkpoint();
        // Rendered above for the demo and the warnings.
        let body = match surface {
            Surface::SpecMd => spec_md.clone(),
            Surface::TokensFigma => figma.body.clone(),
            Surface::TokensJson => strict.body.clone(),
            Surface::TokensResolver => resolver.body.clone(),
            Surface::TokensJs => js.0.clone(),
            Surface::TokensDts => js.1.clone(),
            other => other.render(&brand, ctx),
        };
        add(
            paths::brand_doc(&key, surface.file()),
            resource(surface.media_type(), body.into()),
        );
    }
    if ctx.pin.is_none() {
        let md = render::changelog::render_md(
            &brand.doc.name,
            &brand.version,
            &brand.releases,
            changes,
            Some(&ctx.brand_url(&s, "")),
        );
        let json = render::changelog::render_json(&s, &brand.version, &brand.releases, changes);
        // Served by the registry's media types, as every describer names them.
        for (file, body) in [
            (render::outputs::CHANGELOG_MD, md),
            (render::outputs::CHANGELOG_JSON, json),
        ] {
            let media = render::outputs::named(file).map_or("text/plain", |o| o.media_type);
            add(paths::brand_doc(&s, file), resource(media, body.into()));
        }
    }
    let page = render::html::render_with_notes(&brand, ctx, &diagnostics, changes, access);
    add(
        paths::brand(&key),
        Resource::with_effort(
            "text/html; charset=utf-8",
            page.body,
            policy_of(ctx),
            page_effort,
        )
        .with_header("content-security-policy", &page.csp),
    );
    add(
        paths::embed(&key),
        resource(
            "text/javascript; charset=utf-8",
            render::embed::render(&brand, ctx, access).into(),
        ),
    );
    // What apps take: Android, iOS, JavaScript and TypeScript (DESIGN §19).
    let apps = render::apps::render(&brand, ctx.pin.is_some(), ctx.npm_scope.as_deref(), &js);
    for (file, media, body) in apps.files {
        add(paths::brand_doc(&key, &file), resource(media, body.into()));
    }
    diagnostics.extend(apps_warnings(
        &apps.android_clashes,
        &apps.figma_warnings,
        &apps.android_css,
        &s,
        files,
    ));
    for (path, bytes) in &brand.assets {
        let media = render::media_type_of(path);
        let mut r = resource(media, bytes.clone());
        if media == "image/svg+xml" {
            // An SVG opened directly is a document that could run script; forbid it.
            r = r.with_header(
                "content-security-policy",
                "default-src 'none'; style-src 'unsafe-inline'; sandbox",
            );
        }
        add(format!("{}{path}", paths::assets(&key)), r);
    }
    let surfaces = [
        (Code::LeftOutOfFigma, &figma.skipped),
        (Code::LeftOutOfTokensJson, &strict.skipped),
        (Code::LeftOutOfResolverJson, &resolver.skipped),
    ];
    for (code, skipped) in surfaces {
        diagnostics.extend(left_out_warnings(code, &s, skipped, files));
    }
    let spec_md = served_spec_md(&resources, &key, spec_md);
    let demo = Arc::new(DemoBrand {
        slug: s.clone(),
        version: brand.version.to_string(),
        spec_md,
        prompts: brand.doc.prompt_kit.prompts.clone(),
    });
    let listing = Listing::of(&brand, ctx);
    Published {
        bytes: bytes_of(&resources),
        headline: render::Headline::of(&brand),
        model: model(files, today, ctx, &brand.version.to_string(), input),
        input,
        key,
        resources: Arc::new(resources),
        listing,
        demo,
        compressed: effort != Effort::None,
        brotli: !matches!(effort, Effort::None | Effort::Gzip),
        from_cache: false,
        warnings: Arc::new(diagnostics),
        stand_in: None,
    }
}

/// What the compare endpoint and a stale brand's page need of a render. The
/// parsed brand is not kept: at thousands of brands it would hold more
/// memory than every rendered body; it is parsed again, once, when needed.
fn model(
    files: &Arc<BrandFiles>,
    today: NaiveDate,
    ctx: &Context,
    version: &str,
    input: [u8; 32],
) -> Arc<BrandModel> {
    Arc::new(BrandModel {
        version: version.to_string(),
        input,
        cache: policy_of(ctx),
        brand: Arc::new(LazyBrand::unparsed(files, today)),
        lint: Default::default(),
    })
}

/// What the outputs for apps leave out or warn of, as diagnostics at each
/// token: Android resource names that clash, strings Android cannot hold
/// (CSS), and the Figma plans a figma.zip collection rules out.
fn apps_warnings(
    android_clashes: &[(crate::spec::tokens::Token, String)],
    figma_warnings: &[(String, Option<crate::spec::tokens::WrittenAt>)],
    android_css: &[(crate::spec::tokens::Token, &'static str)],
    slug: &str,
    files: &BrandFiles,
) -> Vec<Diagnostic> {
    let mut diagnostics = Vec::new();
    for (t, name) in android_clashes {
        let at = Some((t.file.clone(), t.pointer.clone()));
        let message = format!(
            "token `{}` has the Android resource name `{name}`, as an earlier token of its kind does: it is left out of the Android resources; rename one of them",
            t.name()
        );
        diagnostics.extend(left_out_warnings(
            Code::AndroidNameClash,
            slug,
            &[(message, at)],
            files,
        ));
    }
    diagnostics.extend(left_out_warnings(
        Code::FigmaPlan,
        slug,
        figma_warnings,
        files,
    ));
    // Until the code table has one of its own, the warning that a string
    // is CSS rather than text is MQ1408's, the warning for CSS text.
    let css: Vec<_> = android_css
        .iter()
        .map(|(t, why)| {
            let message = format!(
                "token `{}` is left out of the Android resources: {why}",
                t.name()
            );
            (message, Some((t.file.clone(), t.pointer.clone())))
        })
        .collect();
    diagnostics.extend(left_out_warnings(Code::CssTextComposite, slug, &css, files));
    diagnostics
}

/// A warning (`code`, the surface's) for each token a surface had to
/// leave out, at the token in the file it is written in.
fn left_out_warnings(
    code: Code,
    slug: &str,
    skipped: &[(String, Option<crate::spec::tokens::WrittenAt>)],
    files: &BrandFiles,
) -> Vec<Diagnostic> {
    let mut by_file: std::collections::BTreeMap<&str, Vec<(&str, &str)>> = Default::default();
    for (message, at) in skipped {
        let (file, pointer) = match at {
            Some((file, pointer)) => (file.as_deref().unwrap_or("tokens.json"), pointer.as_str()),
            None => ("tokens.json", ""),
        };
        by_file.entry(file).or_default().push((message, pointer));
    }
    let mut out = Vec::new();
    for (file, found) in by_file {
        let text = files.get(file).and_then(|b| std::str::from_utf8(b).ok());
        let wanted: Vec<(&str, Anchor)> = found.iter().map(|(_, p)| (*p, Anchor::Key)).collect();
        let positions = text.map(|t| locate(t, &wanted)).unwrap_or_default();
        for (i, (message, pointer)) in found.into_iter().enumerate() {
            let pos = positions.get(i).copied().unwrap_or_default();
            out.push(Diagnostic {
                pointer: pointer.to_string(),
                line: pos.line.max(1),
                column: pos.column.max(1),
                ..file_diagnostic(code, slug, &format!("{slug}/{file}"), message.to_string())
            });
        }
    }
    out
}
