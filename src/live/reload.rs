//! The reloader: the state carried between builds (the catalog of every
//! brand's last good render, the views of the documents about all brands,
//! what /status says of the reloads), and the snapshot each build makes of
//! it, returned as a value for the publisher (`publisher.rs`) to
//! serve. Each rebuild validates and renders only the brands whose input
//! changed, and makes nothing when nothing changed. Each rebuild is
//! reported (see [`crate::report`]).

use super::publisher::Next;
use super::render_cache::{KeptRenders, RenderCache};
use crate::build::{assemble, build_catalog, BrandState, BuildOptions, Catalog, Views};
use crate::clock::now;
use crate::render::status::{Failure, Reload};
use crate::render::Context;
use crate::report::{Fate, Rebuild, Reporter};
use crate::snapshot::{Branch, Resource, Site, Snapshot, LARGE};
use crate::source::Content;
use crate::spec::{Diagnostic, Severity};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Owns the state carried between builds.
pub struct Reloader {
    ctx: Context,
    catalog: Catalog,
    /// Each brand's rows in the index and /status, kept between assemblies.
    views: Views,
    info: Reload,
    /// A failure of the source itself (a fetch), reported until it clears,
    /// even when the content it left in place builds cleanly.
    source_error: Option<String>,
    options: BuildOptions,
    /// What each rebuild is reported through (none for a preview's).
    reporter: Option<Reporter>,
    /// Make the first build's codings gzip 1 alone, brotli and gzip 6
    /// following (see [`Reloader::brotli_pending`]).
    fast_first_compression: bool,
    /// The render cache and what it holds, if renders are kept on disk.
    kept: Option<KeptRenders>,
    /// Set when a change arrives: the finishing work after a build stops,
    /// so that the change is served first and the finishing resumes after it.
    changes_waiting: Arc<AtomicBool>,
    /// Set when a file of the content changes (not when a job ends): a
    /// later build defers what it has not finished, so the save is built
    /// next (see `build::jobs`).
    saves_waiting: Arc<AtomicBool>,
    /// A snapshot was ready once: later ones stay ready while they publish a brand.
    was_ready: bool,
    /// Branch previews served beside the content, and `/previews.json`
    /// (none in a preview's own snapshots).
    previews: HashMap<String, Branch>,
    previews_document: Option<Arc<Resource>>,
    /// What the published branch decided when `previews` were split: once
    /// a build changes it (a brand made private, a new embargo), they are
    /// withheld until they are split again.
    previews_inherited: Option<crate::build::audience::Inherited>,
    /// The access tokens whose scopes get snapshots of their own, if
    /// `--access-tokens` is given (DESIGN.md §20).
    access: Option<Arc<crate::access::Access>>,
    /// The views of each audience's snapshot, by the brands it opens.
    opened_views: HashMap<std::collections::BTreeSet<String>, Views>,
    /// The brands withheld from public readers at the last snapshot, to
    /// say once when no token can open them.
    withheld: std::collections::BTreeSet<String>,
    /// Where builds and snapshots read the time (embargoes, today's date).
    clock: crate::clock::Clock,
    /// A preview's: what the published branch decides of who sees what
    /// (the default for the published branch itself).
    inherited: crate::build::audience::Inherited,
}

impl Reloader {
    /// A reloader of the content `source` names (`directory …`, `git …`),
    /// building with `options` and reporting through `reporter`.
    pub fn new(
        ctx: Context,
        source: String,
        options: BuildOptions,
        reporter: Reporter,
    ) -> Reloader {
        let previews_document = Arc::new(Resource::with_effort(
            "application/json",
            crate::render::previews::list_json::<()>(&ctx, None, &[]),
            crate::snapshot::CachePolicy::NoStore,
            crate::snapshot::Effort::Fast,
        ));
        Reloader {
            ctx,
            catalog: Catalog::default(),
            views: Views::default(),
            info: Reload {
                source,
                ..Reload::default()
            },
            source_error: None,
            options,
            reporter: Some(reporter),
            fast_first_compression: true,
            kept: None,
            changes_waiting: Arc::default(),
            saves_waiting: Arc::default(),
            was_ready: false,
            previews: HashMap::new(),
            previews_document: Some(previews_document),
            previews_inherited: None,
            access: None,
            opened_views: HashMap::new(),
            withheld: Default::default(),
            clock: crate::clock::Clock::system(),
            inherited: Default::default(),
        }
    }

    /// Reads the time from `clock`.
    pub fn with_clock(mut self, clock: crate::clock::Clock) -> Reloader {
        self.clock = clock;
        self
    }

    /// The clock it reads.
    pub fn clock(&self) -> &crate::clock::Clock {
        &self.clock
    }

    /// A preview's reloader takes what the published branch decides of who
    /// sees what; true when that changed (its snapshot is then made again).
    pub fn set_inherited(&mut self, inherited: crate::build::audience::Inherited) -> bool {
        let changed = self.inherited != inherited;
        self.inherited = inherited;
        changed
    }

    /// Withholds private brands and embargoed versions from public readers,
    /// and makes a snapshot for each scope of `access`'s tokens.
    pub fn with_access(mut self, access: Option<Arc<crate::access::Access>>) -> Reloader {
        self.access = access;
        self
    }

    /// The access tokens it splits snapshots by, if any.
    pub fn access(&self) -> Option<&Arc<crate::access::Access>> {
        self.access.as_ref()
    }

    /// The reloader of a branch preview (`ctx.preview`): the same pipeline,
    /// reported as the published branch's is (or not at all without a
    /// `reporter`), compressing as it builds (nothing waits on a preview's
    /// first build), serving no previews.
    pub fn for_preview(
        ctx: Context,
        source: String,
        options: BuildOptions,
        reporter: Option<Reporter>,
    ) -> Reloader {
        debug_assert!(ctx.preview);
        let quiet = Reporter {
            json: false,
            colour: false,
        };
        let mut reloader = Reloader::new(ctx, source, options, quiet);
        reloader.reporter = reporter;
        reloader.fast_first_compression = false;
        reloader.previews_document = None;
        reloader
    }

    /// How this reloader reports its builds, if it does.
    pub fn reporter(&self) -> Option<Reporter> {
        self.reporter
    }

    /// Keeps renders in `cache` across restarts: builds look them up, and
    /// new ones are written once compressed (see [`Reloader::store_renders`]).
    pub fn with_render_cache(mut self, cache: RenderCache) -> Reloader {
        let kept = KeptRenders::new(cache);
        self.options.renders = Some(kept.lookup());
        self.options.build_id = super::render_cache::build_id();
        self.kept = Some(kept);
        self
    }

    pub fn ctx(&self) -> &Context {
        &self.ctx
    }

    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub fn info(&self) -> &Reload {
        &self.info
    }

    /// The flag a change sets when it arrives (see [`Reloader::interrupted`]).
    pub fn changes_waiting(&self) -> Arc<AtomicBool> {
        self.changes_waiting.clone()
    }

    /// The flag a saved file sets when it arrives.
    pub fn saves_waiting(&self) -> Arc<AtomicBool> {
        self.saves_waiting.clone()
    }

    /// A change arrived since the build began: finishing work gives way.
    pub fn interrupted(&self) -> bool {
        self.changes_waiting.load(Ordering::Relaxed)
    }

    /// What the build that follows takes in: everything that arrived so far.
    pub fn take_changes(&self) {
        self.changes_waiting.store(false, Ordering::Relaxed);
        self.saves_waiting.store(false, Ordering::Relaxed);
    }

    /// Reports `error` (a fetch's) with every build until it clears.
    pub fn set_source_error(&mut self, error: Option<String>) {
        self.source_error = error;
    }

    /// Serves `previews` and `document` (`/previews.json`) with every
    /// snapshot made from now on.
    pub fn set_previews(
        &mut self,
        previews: HashMap<String, Branch>,
        document: Resource,
        inherited: crate::build::audience::Inherited,
    ) {
        self.previews = previews;
        self.previews_document = Some(Arc::new(document));
        self.previews_inherited = Some(inherited);
    }

    /// Withholds the previews when the catalog decides who sees what
    /// otherwise than when they were split: between a build that makes a
    /// brand private (or embargoes a version) and the previews split again
    /// under it, no preview shows what the published branch now withholds.
    fn withhold_stale_previews(&mut self) {
        if self.previews.is_empty() {
            return;
        }
        let now = crate::build::audience::inherited(&self.catalog);
        if self.previews_inherited.as_ref() == Some(&now) {
            return;
        }
        self.previews.clear();
        self.previews_document = Some(Arc::new(Resource::with_effort(
            "application/json",
            crate::render::previews::list_json::<()>(&self.ctx, None, &[]),
            crate::snapshot::CachePolicy::NoStore,
            crate::snapshot::Effort::Fast,
        )));
    }

    /// The site of the current catalog: the published branch as each
    /// audience sees it, and the previews. With `lists_may_follow`, the
    /// documents that list every brand, when they are large in `serving`,
    /// are taken from it as they are (see [`assemble`]), and what they are
    /// made from comes with the site, for the publisher to make them.
    pub fn site(&mut self, serving: &Site, lists_may_follow: bool) -> Next {
        let large = |s: &Snapshot| {
            crate::build::LISTS
                .iter()
                .any(|path| s.documents.get(*path).is_some_and(|r| r.len() > LARGE))
        };
        let scopes = self
            .access
            .as_ref()
            .map(|a| a.tokens().scopes())
            .unwrap_or_default();
        let split = crate::build::audience::split(
            &self.catalog,
            &self.inherited,
            self.clock.now(),
            &scopes,
            self.ctx.max_age,
        );
        let public_info = withheld_from(&self.info, &split.withheld);
        self.views.adopt_openapi(serving.public());
        let (mut snapshot, lists) = assemble(
            split.public.as_ref().unwrap_or(&self.catalog),
            &self.ctx,
            self.info.generation,
            public_info.as_ref().unwrap_or(&self.info),
            &mut self.views,
            (lists_may_follow && large(serving.public())).then_some(serving.public()),
        );
        if split.withheld != self.withheld {
            if self.access.is_none() && !split.withheld.is_empty() && self.reporter.is_some() {
                let brands: Vec<String> = split.withheld.iter().cloned().collect();
                tracing::warn!(
                    brands = %crate::report::some_of(&brands, 8),
                    "private or embargoed brands are served to no one: give --access-tokens FILE (marque token makes one) so their readers can sign in"
                );
            }
            self.withheld = split.withheld.clone();
        }
        // An empty site is not ready unless the operator says it is meant
        // to be: a load balancer must not send traffic to a replica that
        // serves nothing (a wrong --git-path, an empty folder).
        if !self.options.allow_empty && self.catalog.published().next().is_none() {
            snapshot.ready = false;
            std::sync::Arc::make_mut(&mut snapshot.status).ready = false;
        } else if self.was_ready && !snapshot.ready {
            // Once ready, a brand published without its codings yet (one
            // whose job the first build left behind) serves identity bodies
            // for a moment; that is no reason to leave the load balancer.
            snapshot.ready = true;
            std::sync::Arc::make_mut(&mut snapshot.status).ready = true;
        }
        self.was_ready |= snapshot.ready;
        self.withhold_stale_previews();
        if let Some(document) = &self.previews_document {
            snapshot
                .documents
                .insert(crate::paths::PREVIEWS_JSON.into(), document.clone());
        }
        self.opened_views
            .retain(|slugs, _| split.opened.iter().any(|o| &o.slugs == slugs));
        let mut scoped = Vec::new();
        let mut audience_lists = Vec::new();
        for opened in split.opened {
            let views = self.opened_views.entry(opened.slugs).or_default();
            let served = opened
                .scopes
                .first()
                .and_then(|s| serving.published.scoped_for(s));
            if let Some(served) = served {
                views.adopt_openapi(served);
            }
            // Each scope's lists follow a save as the public ones do.
            let before = served.filter(|s| lists_may_follow && large(s));
            let (mut seen, lists) = assemble(
                &opened.catalog,
                &self.ctx,
                self.info.generation,
                &self.info,
                views,
                before.map(|s| &**s),
            );
            if let Some(lists) = lists {
                audience_lists.push((opened.scopes.clone(), lists));
            }
            seen.ready = snapshot.ready;
            let status = Arc::make_mut(&mut seen.status);
            status.ready = seen.ready;
            status.next_embargo_lift = split
                .next_lift
                .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
            if let Some(document) = &self.previews_document {
                seen.documents
                    .insert(crate::paths::PREVIEWS_JSON.into(), document.clone());
            }
            scoped.push((opened.scopes, Arc::new(seen)));
        }
        Next {
            site: Site {
                published: Branch {
                    public: Arc::new(snapshot),
                    scoped,
                },
                previews: self.previews.clone(),
                next_lift: split.next_lift,
            },
            lists,
            audience_lists,
        }
    }

    /// Adds, a batch at a time, the brotli codings of the bodies compressed
    /// with gzip alone (every brand of the first build: ready sooner). True
    /// when any were. Stops when a change arrives.
    pub fn brotli_pending(&mut self) -> bool {
        let waiting = self.changes_waiting.clone();
        self.catalog
            .brotli_pending(&|| waiting.load(Ordering::Relaxed))
    }

    /// Writes every compressed render that is not in the render cache yet,
    /// and removes the entries no brand uses any more.
    pub fn store_renders(&mut self) {
        let waiting = self.changes_waiting.clone();
        if let Some(kept) = &mut self.kept {
            kept.sync(&self.catalog, &|| waiting.load(Ordering::Relaxed));
        }
    }

    /// Records a failure that produced no build (a fetch that failed, a commit
    /// that cannot be read, the reload loop itself), and returns the snapshot
    /// that says so on /status (even before the first build, so an operator
    /// can see why marque is not ready); brands keep serving.
    pub fn record_failure(
        &mut self,
        revision: Option<String>,
        error: String,
        serving: &Site,
    ) -> Next {
        self.info.failed_reloads += 1;
        let since = match &self.info.last_failure {
            Some(f) if f.error == error => f.since.clone(),
            _ => now(),
        };
        self.info.last_failure = Some(Failure {
            revision,
            since,
            error,
            diagnostics: Vec::new(),
        });
        self.site(serving, false)
    }

    /// Rebuilds from `content` and returns the snapshot to serve, unless
    /// nothing changed. `cause` says what triggered it, for the report;
    /// `serving` is the snapshot being served.
    pub fn rebuild(
        &mut self,
        content: &Content,
        revision: Option<String>,
        cause: &str,
        serving: &Site,
    ) -> Option<Next> {
        let started = Instant::now();
        // The first build of a server compresses each body as it is made,
        // with gzip 1 alone, on the build's jobs: ready (every body with a
        // gzip coding) with no second pass over every brand, brotli and
        // gzip 6 a moment later.
        let mut options = self.options.clone();
        options.hurry = Some(self.saves_waiting.clone());
        if self.fast_first_compression && self.catalog.brands.is_empty() {
            options.effort = crate::snapshot::Effort::Gzip;
        }
        let next = build_catalog(
            content,
            &self.ctx,
            crate::spec::Moment::at(self.clock.now()),
            &self.catalog,
            &options,
        );
        let first = self.info.generation == 0;
        let changed = first || revision != self.info.revision || differs(&self.catalog, &next);
        if !changed {
            self.catalog = next;
            tracing::debug!(cause, "nothing changed; nothing swapped");
            return None;
        }
        let mut report = compare(&self.catalog, &next, content, first);
        // Named as people find them: by their path in the repository.
        let prefix = &self.ctx.source_prefix;
        for (d, _) in report
            .errors
            .iter_mut()
            .chain(report.new_warnings.iter_mut())
        {
            if !prefix.is_empty() && !d.file.is_empty() {
                d.file = format!("{prefix}{}", d.file);
            }
        }
        report.cause = cause.to_string();
        self.catalog = next;
        self.info.last_build = self.catalog.work;
        self.info.generation += 1;
        self.info.reloads += 1;
        self.info.revision = revision.clone();
        self.info.last_reload_at = Some(now());
        let errors: Vec<Diagnostic> =
            crate::spec::diag::in_repository(&self.catalog.errors(), &self.ctx.source_prefix);
        if errors.is_empty() {
            self.info.last_failure = self.source_error.clone().map(|error| Failure {
                since: match &self.info.last_failure {
                    Some(f) if f.error == error => f.since.clone(),
                    _ => now(),
                },
                revision: revision.clone(),
                error,
                diagnostics: Vec::new(),
            });
        } else {
            self.info.failed_reloads += 1;
            let since = match &self.info.last_failure {
                Some(f) => f.since.clone(),
                None => now(),
            };
            self.info.last_failure = Some(Failure {
                revision,
                since,
                error: failed_build(errors.len()),
                diagnostics: errors,
            });
        }
        // Measure before assembling so /status can report this build's own duration.
        self.info.last_reload_ms = started.elapsed().as_secs_f64() * 1000.0;
        // Large lists of all brands follow the change, so it is served first.
        let next = self.site(serving, !first);
        report.millis = started.elapsed().as_secs_f64() * 1000.0;
        report.generation = self.info.generation;
        if let Some(reporter) = &self.reporter {
            reporter.rebuild(&report);
        }
        Some(next)
    }
}

impl Drop for Reloader {
    /// Jobs still running for a server that stops are called off, not left
    /// to run to their limit.
    fn drop(&mut self) {
        self.catalog.cancel_running();
    }
}

/// True when `next` would publish anything different from `prev`.
fn differs(prev: &Catalog, next: &Catalog) -> bool {
    let same_brand = |a: &BrandState, b: &BrandState| {
        a.attempted == b.attempted
            && (Arc::ptr_eq(&a.diagnostics, &b.diagnostics) || a.diagnostics == b.diagnostics)
            && match (&a.published, &b.published) {
                (Some(x), Some(y)) => Arc::ptr_eq(x, y),
                (None, None) => true,
                _ => false,
            }
    };
    prev.brands.len() != next.brands.len()
        || prev
            .brands
            .iter()
            .zip(&next.brands)
            .any(|((ka, a), (kb, b))| ka != kb || !same_brand(a, b))
        || prev.pinned.len() != next.pinned.len()
        || prev
            .pinned
            .iter()
            .zip(&next.pinned)
            .any(|((ka, a), (kb, b))| ka != kb || a.commit != b.commit)
        || prev.source_diagnostics != next.source_diagnostics
        || !prev.running.keys().eq(next.running.keys())
}

/// What happened to each brand between two catalogs, with the errors of
/// those that changed (and the source text of their files, for frames).
fn compare(prev: &Catalog, next: &Catalog, content: &Content, first: bool) -> Rebuild {
    let mut r = Rebuild::default();
    let source = |d: &Diagnostic| -> Option<String> {
        let files = content.brands.iter().find(|b| b.slug == d.brand)?;
        let rel = d.file.strip_prefix(&format!("{}/", d.brand))?;
        let bytes = files.source(rel)?;
        std::str::from_utf8(bytes).ok().map(str::to_string)
    };
    for (slug, s) in &next.brands {
        let before = prev.brands.get(slug);
        let (was, is) = (prev.is_building(slug), next.is_building(slug));
        if is {
            // Said once, when it starts building; its outcome when it ends.
            if first || !was {
                let version = s.published.as_ref().map(|p| p.headline.version.clone());
                r.brands.push((slug.clone(), Fate::Building, version));
            }
            continue;
        }
        if !first && !was && before.is_some_and(|b| b.attempted == s.attempted) {
            continue;
        }
        // A brand first seen building was not there before it was built.
        let before = before.filter(|b| !(was && b.attempted == [0; 32]));
        let version = s.published.as_ref().map(|p| p.headline.version.clone());
        let fate = match (before, s.stale(), &s.published) {
            (None, false, _) => Fate::Added,
            (None, true, _) => Fate::AddedBroken,
            (Some(_), true, Some(_)) => Fate::Stale,
            (Some(_), true, None) => Fate::Unpublished,
            (Some(b), false, _) if b.stale() => Fate::Recovered,
            (Some(_), false, _) => Fate::Rebuilt,
        };
        r.brands.push((slug.clone(), fate, version));
        // Known by what they say and where, not by line: an edit above a
        // warning moves it without making it new.
        let known: HashSet<(&str, &str, &str)> = before
            .map(|b| {
                b.diagnostics
                    .iter()
                    .map(|d| (d.file.as_str(), d.pointer.as_str(), d.message.as_str()))
                    .collect()
            })
            .unwrap_or_default();
        for d in s.diagnostics.iter() {
            match d.severity() {
                Severity::Error => r.errors.push((d.clone(), source(d))),
                Severity::Warning => {
                    r.warnings += 1;
                    // A warning this change brought is shown like an error
                    // (a breaking change under the same version); on the
                    // first build every warning is new.
                    if !known.contains(&(d.file.as_str(), d.pointer.as_str(), d.message.as_str())) {
                        r.new_warnings.push((d.clone(), source(d)));
                    }
                }
            }
        }
    }
    for slug in prev.brands.keys().filter(|s| !next.brands.contains_key(*s)) {
        r.brands.push((slug.clone(), Fate::Removed, None));
    }
    for d in &next.source_diagnostics {
        if !prev.source_diagnostics.contains(d) && d.severity() == Severity::Error {
            r.errors.push((d.clone(), None));
        }
    }
    r
}

/// What public readers' /status may say of the reloads when `withheld`
/// brands are not theirs to see: their errors are left out of the last
/// failure (and a failure that was only theirs, out). `None`: all of it.
fn withheld_from(info: &Reload, withheld: &std::collections::BTreeSet<String>) -> Option<Reload> {
    let failure = info.last_failure.as_ref()?;
    if !failure
        .diagnostics
        .iter()
        .any(|d| withheld.contains(&d.brand))
    {
        return None;
    }
    let mut info = info.clone();
    let diagnostics: Vec<Diagnostic> = failure
        .diagnostics
        .iter()
        .filter(|d| !withheld.contains(&d.brand))
        .cloned()
        .collect();
    let errors = diagnostics
        .iter()
        .filter(|d| d.severity() == crate::spec::diag::Severity::Error)
        .count();
    info.last_failure = (errors > 0).then(|| Failure {
        error: failed_build(errors),
        diagnostics,
        ..failure.clone()
    });
    Some(info)
}

/// What /status says of a build with `errors` errors.
fn failed_build(errors: usize) -> String {
    format!("{errors} error(s) in the content; affected brands keep their last good version")
}
