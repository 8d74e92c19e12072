//! From content to catalog: validate each brand and render its surfaces.
//! A brand is validated and rendered again only when its input (files,
//! releases, revision, render context, today's date) changed; a brand with
//! errors keeps its last good render, marked stale, and never affects
//! another brand.
//!
//! Each brand is one job (see [`jobs`]). A job that panics becomes an
//! error diagnostic of its brand; a job that runs past its time limit is
//! stopped and its brand marked stale (and not tried again until its input
//! changes); a job slower than the build's patience is carried to the next
//! build, its brand listed as building, so one slow brand never holds up
//! the others. [`assemble`] turns the catalog into a snapshot.
//!
//! Pure apart from CPU, threads and the clock that watches the budget: it
//! does no IO (`tests/it/architecture.rs` says so). Content comes in as
//! bytes; today's date, the previous catalog, this build of marque's id and
//! a lookup of renders kept from earlier builds ([`Renders`], whose disk
//! reads are the shell's, see `live::render_cache`) come in as values.

mod assemble;
pub mod audience;
mod brand;
pub mod family;
pub mod jobs;
mod plan;
mod releases;
pub use releases::semantic_changes;
use releases::{deprecation_check, semver_check};

pub use assemble::{assemble, compress_later, Listing, Lists, Views, LISTS};
use brand::from_cache;
pub use brand::{render_brand, BrandJob, Published};
use plan::{carry, settle, Plan};

use crate::render::Context;
use crate::snapshot::{CachePolicy, Effort};
use crate::source::{Content, Pinned};
use crate::spec::brand::silence::Silenced;
use crate::spec::diag::{file_diagnostic, has_errors, Code, Severity};
use crate::spec::limits::{describe_bytes, MAX_BRAND_BODY_BYTES};
use crate::spec::{parse_brand, BrandFiles, Diagnostic, Moment};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// What marque knows of one brand folder.
#[derive(Debug, Clone)]
pub struct BrandState {
    pub slug: String,
    /// The render being served, if the brand was ever valid.
    pub published: Option<Arc<Published>>,
    /// Every diagnostic of the latest attempt: its errors (then `published`
    /// is older: stale) and warnings, validation's and rendering's alike.
    pub diagnostics: Arc<Vec<Diagnostic>>,
    /// The warnings of the latest attempt its brand.json silences, counted.
    pub silenced: Arc<Silenced>,
    /// Input hash of the latest attempt, so an unchanged brand is not redone.
    pub attempted: [u8; 32],
}

impl BrandState {
    pub fn stale(&self) -> bool {
        has_errors(&self.diagnostics)
    }
}

/// A released version, rendered once per tag commit.
#[derive(Debug, Clone)]
pub struct PinnedState {
    pub commit: String,
    /// `None` when the release does not validate today (it is then not served).
    pub published: Option<Arc<Published>>,
    pub diagnostics: Arc<Vec<Diagnostic>>,
}

/// The state carried from one build to the next.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    pub brands: BTreeMap<String, BrandState>,
    /// Released versions, keyed by `<slug>@<version>`.
    pub pinned: BTreeMap<String, PinnedState>,
    /// Problems reading the content that belong to no brand folder.
    pub source_diagnostics: Vec<Diagnostic>,
    /// What the build that made this catalog did.
    pub work: Work,
    /// Jobs still running for their brand's latest input, by brand slug or
    /// release key: the next build takes their outcome, or waits on.
    pub running: BTreeMap<String, Carried>,
    /// Brands whose brand.json says `"visibility"` as it is now (see
    /// [`crate::spec::visibility::Guard`]): while one cannot be read, it is
    /// kept from public readers (see [`audience`]).
    pub guarded: std::collections::BTreeSet<String>,
    /// Brands whose brand.json says `"embargo"` as it is now: while one
    /// cannot be read, its errors are kept from public readers, since they
    /// may quote the unreleased version.
    pub embargo_guarded: std::collections::BTreeSet<String>,
    /// Brands whose brand.json cannot be read as text or escapes a key, so
    /// could say either: one never published is kept from public readers.
    pub unknown: std::collections::BTreeSet<String>,
    /// Every embargo the content's releases declare (their tagged
    /// brand.json), by brand and version: such a version is withheld
    /// wherever it is rendered until the moment passes, a head or a
    /// preview that says nothing of it included.
    pub embargoes: BTreeMap<(String, String), chrono::DateTime<chrono::Utc>>,
}

/// A job carried from one build to the next.
#[derive(Debug, Clone)]
pub struct Carried {
    kind: Kind,
    handle: Arc<jobs::Handle>,
}

impl Carried {
    /// Its job has ended.
    fn ended(&self) -> bool {
        self.handle.outcome().is_some()
    }
}

/// What one build did: how much of the content it read, checked and
/// rendered, and how much it kept. /status shows it for the last reload.
pub use crate::render::status::Work;

impl Catalog {
    /// The brand's latest input is still being checked and rendered (its
    /// job carried in [`Catalog::running`]); what it serves is from before.
    pub fn is_building(&self, slug: &str) -> bool {
        self.running.contains_key(slug)
    }

    /// A job carried here has ended: the next build publishes its outcome.
    pub fn has_ended_jobs(&self) -> bool {
        self.running.values().any(Carried::ended)
    }

    /// Calls off every job carried here: nothing will publish them (a
    /// preview removed, a server stopping).
    pub fn cancel_running(&self) {
        self.running.values().for_each(|c| c.handle.cancel());
    }

    /// Brands that are served, in slug order.
    pub fn published(&self) -> impl Iterator<Item = &Arc<Published>> {
        self.brands.values().filter_map(|s| s.published.as_ref())
    }

    /// Every render served, current brands and then released versions.
    pub fn renders(&self) -> impl Iterator<Item = &Arc<Published>> {
        self.published()
            .chain(self.pinned.values().filter_map(|p| p.published.as_ref()))
    }

    /// True when every render served, current or released, has its codings:
    /// what a ready server serves (see `Live::finish`).
    /// The brands and releases (by key in paths) being built for the first
    /// time: no outcome yet, nothing served.
    pub fn first_builds(&self) -> std::collections::HashSet<String> {
        self.running
            .keys()
            .filter(|key| match self.brands.get(key.as_str()) {
                Some(s) => s.published.is_none() && s.attempted == [0; 32],
                None => !self.pinned.contains_key(key.as_str()),
            })
            .cloned()
            .collect()
    }

    pub fn is_compressed(&self) -> bool {
        self.renders().all(|p| p.compressed)
    }

    /// Adds, a batch at a time, the brotli codings of the renders
    /// compressed with gzip alone. True when any were. Stops between
    /// batches once `interrupted` says a change is waiting.
    pub fn brotli_pending(&mut self, interrupted: &dyn Fn() -> bool) -> bool {
        self.in_batches(
            |p| p.compressed && !p.brotli,
            Published::add_brotli,
            interrupted,
        )
    }

    /// True when every render has every coding it will get.
    pub fn has_brotli(&self) -> bool {
        self.renders().all(|p| p.brotli)
    }

    /// Replaces each render `wanted` picks by what `make` makes of it, in
    /// parallel batches, until `interrupted`. True when any was.
    fn in_batches(
        &mut self,
        wanted: impl Fn(&Published) -> bool,
        make: fn(&Published) -> Published,
        interrupted: &dyn Fn() -> bool,
    ) -> bool {
        use rayon::prelude::*;
        // Current brands first, then released versions (keys `slug@version`).
        let pending: Vec<(String, Arc<Published>)> = self
            .brands
            .iter()
            .filter_map(|(slug, s)| Some((slug.clone(), s.published.clone()?)))
            .chain(
                self.pinned
                    .iter()
                    .filter_map(|(key, s)| Some((key.clone(), s.published.clone()?))),
            )
            .filter(|(_, p)| wanted(p))
            .collect();
        let batch = 4 * rayon::current_num_threads();
        let mut compressed = false;
        for chunk in pending.chunks(batch) {
            if interrupted() {
                break;
            }
            let done: Vec<(String, Arc<Published>)> = chunk
                .par_iter()
                .map(|(slug, p)| (slug.clone(), Arc::new(make(p))))
                .collect();
            for (key, p) in done {
                if let Some(s) = self.brands.get_mut(&key) {
                    s.published = Some(p);
                } else if let Some(s) = self.pinned.get_mut(&key) {
                    s.published = Some(p);
                }
            }
            compressed = true;
        }
        compressed
    }

    /// Every diagnostic, source problems first, then each brand's (with a
    /// warning for each of its releases that is not served).
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut all = self.source_diagnostics.clone();
        for s in self.brands.values() {
            all.extend(self.brand_diagnostics(s));
        }
        all
    }

    /// The released versions of the brand `slug`, by key (`<slug>@<version>`).
    pub fn releases_of<'a>(
        &'a self,
        slug: &str,
    ) -> impl Iterator<Item = (&'a String, &'a PinnedState)> + 'a {
        let prefix = format!("{slug}@");
        self.pinned
            .range(prefix.clone()..)
            .take_while(move |(key, _)| key.starts_with(&prefix))
    }

    /// One brand's diagnostics, with a warning for each of its releases that is not served.
    pub fn brand_diagnostics(&self, s: &BrandState) -> Vec<Diagnostic> {
        let mut all = s.diagnostics.to_vec();
        for (key, p) in self.releases_of(&s.slug) {
            if p.published.is_none() {
                let first = p
                    .diagnostics
                    .iter()
                    .find(|d| d.severity() == Severity::Error)
                    .map(|d| format!(": {} ({}:{})", d.message, d.file, d.line))
                    .unwrap_or_default();
                all.push(file_diagnostic(
                    Code::ReleaseNotServed,
                    &s.slug,
                    &format!("{}/brand.json", s.slug),
                    format!("release {key} is not served: it does not validate today{first}"),
                ));
            }
        }
        all
    }

    pub fn has_errors(&self) -> bool {
        !self.errors().is_empty()
    }

    /// Every error, without copying the warnings (thousands of brands have
    /// tens of thousands).
    pub fn errors(&self) -> Vec<Diagnostic> {
        let error = |d: &&Diagnostic| d.severity() == Severity::Error;
        let mut all: Vec<Diagnostic> = self
            .source_diagnostics
            .iter()
            .filter(error)
            .cloned()
            .collect();
        for s in self.brands.values() {
            all.extend(s.diagnostics.iter().filter(error).cloned());
        }
        all
    }
}

/// A fault to inject into one brand's job, so tests can show that a panic
/// or a stall in one brand leaves the others serving. Not reachable from the
/// command line or the environment.
#[doc(hidden)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fault {
    /// Panic while rendering this brand.
    Panic(String),
    /// Work this long (checking in as real work does) on each of these brands.
    Stall(Vec<String>, Duration),
}

/// A render kept from an earlier build for exactly one input: all of what
/// rendering produced, so a brand whose input is unchanged since is served
/// without being parsed again.
#[derive(Debug)]
pub struct CachedRender {
    pub resources: crate::snapshot::Resources,
    pub warnings: Vec<Diagnostic>,
    pub listing: Listing,
    /// The brand's index row and /status entry.
    pub headline: crate::render::Headline,
    /// Its prompt kit, for the demo.
    pub prompts: Vec<crate::spec::model::Prompt>,
}

impl CachedRender {
    /// What `p` keeps for a later build.
    pub fn of(p: &Published) -> CachedRender {
        CachedRender {
            resources: (*p.resources).clone(),
            warnings: p.warnings.to_vec(),
            headline: p.headline.clone(),
            prompts: p.demo.prompts.clone(),
            listing: p.listing.clone(),
        }
    }
}

/// Where a build looks for a render kept from an earlier build, by the
/// hash of its input. The lookup runs on the build's jobs, in parallel;
/// what it reads (the render cache on disk) is the shell's concern.
pub trait Renders: Send + Sync + std::fmt::Debug {
    fn load(&self, input: &[u8; 32]) -> Option<CachedRender>;
}

/// How builds run.
#[derive(Debug, Clone)]
pub struct BuildOptions {
    /// Longest a brand's validation and render may take before it is left
    /// behind and marked stale.
    pub budget: Duration,
    /// How hard to compress the bodies (`Effort::None` for `marque check`).
    pub effort: Effort,
    /// Renders kept from earlier builds (across restarts), if any.
    pub renders: Option<Arc<dyn Renders>>,
    /// This build of marque (see `live::render_cache::build_id`): a render
    /// made by another build of the same version must not be reused, so it
    /// is part of every brand's input.
    pub build_id: Arc<str>,
    /// What a version step smaller than its changes is: nothing, a warning
    /// or an error (see [`crate::spec::diff`]).
    pub semver: SemverMode,
    /// `--require-deprecation`: removing a token that was not deprecated in
    /// the latest release is an error (the brand keeps its last good version).
    pub require_deprecation: bool,
    /// Render each release's surfaces (`/brand/<slug>@<version>/…`); a
    /// branch preview compares with releases but serves none.
    pub serve_releases: bool,
    /// Ready while no brand is published (`--allow-empty`).
    pub allow_empty: bool,
    /// How long a build waits for a brand's job before it publishes the
    /// others and carries that one to the next build (`None`: it waits for
    /// every brand, as `marque check` and `marque build` do).
    pub patience: Option<Duration>,
    /// The published content's, or a preview's (see [`jobs::Priority`]).
    pub priority: jobs::Priority,
    /// Called when a carried job ends, to build again and publish it.
    pub wake: Option<jobs::Wake>,
    /// Set when a save arrives during a build: a later build defers what
    /// it has not finished at once (see [`jobs::Schedule::hurry`]).
    pub hurry: Option<Arc<std::sync::atomic::AtomicBool>>,
    /// Most bytes of surfaces one brand may publish, before compression.
    pub max_body_bytes: usize,
    #[doc(hidden)]
    pub fault: Option<Fault>,
}

/// How long a served build waits for one brand before it publishes the
/// others: far above what a brand takes (Northwind checks and renders in
/// about 10 ms, GitHub Primer in about 200), far below the time limit.
pub const PATIENCE: Duration = Duration::from_millis(300);

impl Default for BuildOptions {
    fn default() -> BuildOptions {
        BuildOptions {
            budget: Duration::from_secs(10),
            effort: Effort::Best,
            renders: None,
            build_id: Arc::from(""),
            semver: SemverMode::Warn,
            require_deprecation: false,
            serve_releases: true,
            allow_empty: false,
            patience: None,
            priority: jobs::Priority::Published,
            wake: None,
            hurry: None,
            max_body_bytes: MAX_BRAND_BODY_BYTES,
            fault: None,
        }
    }
}

/// How a version that is too small a step after the brand's latest release
/// is reported: `error` keeps the last good version serving (the default of
/// `marque check`), `warn` publishes it with a warning (the default when
/// serving, so a live site never goes stale for it), `off` does not compare.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SemverMode {
    Off,
    #[default]
    Warn,
    Error,
}

/// How the documents rendered in `ctx` may be cached: a preview's never
/// (and never indexed), a released version's for ever.
pub(crate) fn policy_of(ctx: &Context) -> CachePolicy {
    if ctx.preview {
        CachePolicy::Preview
    } else if ctx.pin.is_some() {
        CachePolicy::Immutable
    } else {
        CachePolicy::Current(ctx.max_age)
    }
}

/// Hash of everything that decides a brand's render.
fn input_hash(
    files: &BrandFiles,
    ctx: &Context,
    moment: Moment,
    semver: SemverMode,
    build_id: &str,
) -> [u8; 32] {
    let today = moment.today;
    let mut h = Sha256::new();
    // The slug too: two folders with the same files are two brands.
    h.update(files.slug.as_bytes());
    h.update([0]);
    h.update(files.digest());
    h.update(ctx.public_url.as_bytes());
    h.update([0]);
    h.update(ctx.pin.as_deref().unwrap_or("").as_bytes());
    h.update([0, u8::from(ctx.live_reload), u8::from(ctx.mcp)]);
    h.update(ctx.max_age.to_le_bytes());
    h.update(ctx.npm_scope.as_deref().unwrap_or("").as_bytes());
    h.update([0]);
    if ctx.preview {
        h.update(b"preview");
    }
    h.update(today.to_string().as_bytes());
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(build_id.as_bytes());
    h.update([semver as u8]);
    // A version whose embargo holds says so where it is rendered: it is
    // rendered again when the embargo lifts.
    h.update([u8::from(embargo_holds(files, moment.at))]);
    h.finalize().into()
}

/// True when `files`' brand.json names an embargo that holds at `now`.
fn embargo_holds(files: &BrandFiles, now: chrono::DateTime<chrono::Utc>) -> bool {
    let Some(json) = files.get("brand.json") else {
        return false;
    };
    memchr::memmem::find(json, b"\"embargo\"").is_some()
        && crate::spec::visibility::declared(Some(json))
            .embargo
            .is_some_and(|e| e > now)
}

/// What a job is for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Brand { slug: String, input: [u8; 32] },
    Pinned { key: String, commit: String },
}

/// Validates and renders every brand of `content`, reusing `previous` where
/// a brand's input did not change.
pub fn build_catalog(
    content: &Content,
    ctx: &Context,
    moment: Moment,
    previous: &Catalog,
    opts: &BuildOptions,
) -> Catalog {
    let mut next = Catalog {
        embargoes: releases::embargoes(content),
        ..Catalog::default()
    };
    // What readers may see of each brand's releases at this moment, then
    // each brand of a family with the parents it is built over.
    let content = releases::withheld_left_out(content, moment.at);
    let as_parent = |f: &Arc<BrandFiles>| family::last_good_parent(f, previous, moment.today);
    let content = &*family::settle_over(&content, &as_parent);
    let Plan { kinds, work, ended } = plan::plan(content, ctx, moment, previous, opts, &mut next);
    next.work.read = content.read;
    next.work.kept = next.brands.len() + next.pinned.len();
    next.work.checked = work.len();
    // A server's later builds defer what they have not finished within
    // their patience (a parent with hundreds of children holds up no
    // other brand); its first build, and `marque check`, wait.
    let later = !previous.brands.is_empty() && opts.wake.is_some();
    let schedule = jobs::Schedule {
        limit: opts.budget,
        patience: opts.patience,
        priority: opts.priority,
        wake: opts.wake.clone(),
        defer_after: opts
            .patience
            .filter(|_| later && opts.priority == jobs::Priority::Published),
        hurry: opts.hurry.clone(),
    };
    // A job no build wants any more (its brand changed again, or is gone)
    // stops now, before this build's jobs need its place.
    for (key, c) in &previous.running {
        if next
            .running
            .get(key)
            .is_none_or(|n| !Arc::ptr_eq(&n.handle, &c.handle))
        {
            c.handle.cancel();
        }
    }
    let ran = jobs::run(work, &schedule);
    let ran = kinds.into_iter().zip(ran).chain(
        ended
            .into_iter()
            .map(|(kind, outcome)| (kind, jobs::Ran::Finished(outcome))),
    );
    for (kind, ran) in ran {
        match ran {
            jobs::Ran::Finished(outcome) => settle(&mut next, previous, kind, outcome, opts.budget),
            jobs::Ran::LeftBehind(handle) => carry(&mut next, previous, Carried { kind, handle }),
        }
    }
    next.source_diagnostics = content
        .diagnostics
        .iter()
        .filter(|d| !next.brands.contains_key(&d.brand))
        .cloned()
        .collect();
    for f in &content.brands {
        let guard = crate::spec::visibility::Guard::of(f);
        if guard.visibility {
            next.guarded.insert(f.slug.clone());
        }
        if guard.embargo {
            next.embargo_guarded.insert(f.slug.clone());
        }
        if guard.unknown {
            next.unknown.insert(f.slug.clone());
        }
    }
    // Content diagnostics of a brand (a skipped tag) join its own.
    for d in &content.diagnostics {
        if let Some(s) = next.brands.get_mut(&d.brand) {
            if !s.diagnostics.contains(d) {
                Arc::make_mut(&mut s.diagnostics).push(d.clone());
            }
        }
    }
    next
}

/// The brand slug of a job key (`acme` or `acme@1.2.0`).
fn brand_of(key: &str) -> &str {
    key.split('@').next().unwrap_or(key)
}

/// Validates one brand and, when it has no errors, renders it; or takes its
/// render from the cache, when one was kept for exactly this input (which
/// was valid then, so is now: the input includes the date and marque's
/// version), without parsing it again.
pub(super) fn attempt(
    files: &Arc<BrandFiles>,
    releases: &[Arc<Pinned>],
    ctx: &Context,
    moment: Moment,
    input: [u8; 32],
    opts: &BuildOptions,
) -> (Option<Arc<Published>>, Arc<Vec<Diagnostic>>) {
    let today = moment.today;
    match &opts.fault {
        Some(Fault::Panic(s)) if *s == files.slug => panic!("injected fault in {s}"),
        Some(Fault::Stall(slugs, d)) if slugs.contains(&files.slug) => {
            // Work that checks in as a build's steps do.
            let until = std::time::Instant::now() + *d;
            while std::time::Instant::now() < until {
                crate::spec::limits::checkpoint();
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        _ => {}
    }
    // A head under an embargo that holds renders its stand-in too (see
    // `Published::stand_in`), which the render cache does not keep; once
    // it lifts, the input (which says whether it holds) changes.
    let held = ctx.pin.is_none() && embargo_holds(files, moment.at);
    let cached = opts.renders.as_ref().filter(|_| !held);
    if let Some(entry) = cached.and_then(|c| c.load(&input)) {
        let published = from_cache(files, today, ctx, input, entry);
        let diagnostics = published.warnings.clone();
        return (Some(Arc::new(published)), diagnostics);
    }
    let (brand, mut diagnostics) = parse_brand(files, today);
    let Some(brand) = brand else {
        return (None, Arc::new(diagnostics));
    };
    let (changes, base) = semantic_changes(&brand, releases, today);
    let preview = opts.priority == jobs::Priority::Preview;
    if let Some(d) = semver_check(&brand, files, base, &changes, opts.semver, preview) {
        let refused = d.severity() == Severity::Error;
        diagnostics.push(d);
        if refused {
            return (None, Arc::new(diagnostics));
        }
    }
    if let Some(d) = deprecation_check(&brand, files, base, &changes, opts.require_deprecation) {
        diagnostics.push(d);
        return (None, Arc::new(diagnostics));
    }
    let job = BrandJob {
        files,
        input,
        today,
        now: moment.at,
        effort: opts.effort,
        changes: &changes,
    };
    let version = brand.version.clone();
    let mut published = render_brand(brand, ctx, &job, diagnostics);
    if held {
        published.stand_in =
            releases::stand_in(files, &version, releases, ctx, moment, input, opts);
    }
    let mut diagnostics = published.warnings.clone();
    // Assets are bounded by the folder's limits; what is rendered by this.
    let assets = crate::paths::assets(&published.key);
    let rendered: usize = published
        .resources
        .iter()
        .filter(|(path, _)| !path.starts_with(&assets))
        .map(|(_, r)| r.len())
        .sum();
    if rendered > opts.max_body_bytes {
        Arc::make_mut(&mut diagnostics).push(file_diagnostic(
            Code::SurfacesTooLarge,
            &files.slug,
            &format!("{}/", files.slug),
            format!(
                "its surfaces add up to {:.1} MiB before compression, over the {} a brand may publish; it keeps its last good version: split the brand, or give it fewer tokens or contexts",
                rendered as f64 / (1024.0 * 1024.0),
                describe_bytes(opts.max_body_bytes)
            ),
        ));
        return (None, diagnostics);
    }
    (Some(Arc::new(published)), diagnostics)
}
