//! IO: keep the served snapshot current. Each rebuild validates and renders
//! only the brands whose input changed, keeps every brand's last good
//! render, and swaps the new snapshot in with one `ArcSwap::store`, unless
//! nothing changed: then nothing is swapped, counted or announced. Each
//! rebuild is reported (see [`crate::report`]).

use crate::build::{
    assemble, build_catalog, BrandState, BuildOptions, Catalog, Lists, Views, LISTS,
};
use crate::clock::{now, today};
use crate::render::Context;
use crate::report::{Fate, Rebuild, Reporter};
use crate::snapshot::{Resource, Snapshot};
use crate::source::dir::DirSource;
use crate::source::Content;
use crate::spec::{Diagnostic, Severity};
use crate::watch::Trigger;
use arc_swap::ArcSwap;

use serde::Serialize;
use std::collections::BTreeSet;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

/// What `/status` reports besides the brands.
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
    /// What the last build read, checked, rendered and kept.
    pub last_build: crate::build::Work,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    pub revision: Option<String>,
    pub since: String,
    pub error: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// Owns the state carried between builds and the handle readers load from.
pub struct Reloader {
    pub snapshot: Arc<ArcSwap<Snapshot>>,
    pub ctx: Context,
    catalog: Catalog,
    /// Each brand's rows in the index and /status, kept between assemblies.
    views: Views,
    info: ReloadInfo,
    /// A failure of the source itself (a fetch), reported until it clears,
    /// even when the content it left in place builds cleanly.
    pub source_error: Option<String>,
    pub options: BuildOptions,
    pub reporter: Reporter,
    /// Publish the first build before compressing it (see [`Reloader::finish`]).
    pub defer_first_compression: bool,
    /// Inputs whose render is in the render cache already.
    cached: std::collections::HashSet<[u8; 32]>,
    /// The render cache's folder was cleared of every entry not in `cached`.
    pruned: bool,
    /// Set when a change arrives: [`Reloader::finish`] stops, so that the
    /// change is served first and the finishing resumes after it.
    pub changes_waiting: Arc<AtomicBool>,
    /// Told the generation of every snapshot swapped in (MCP sessions, /events).
    pub on_publish: Option<watch::Sender<u64>>,
    /// Branch previews served beside the content, and `/previews.json`.
    previews: HashMap<String, Arc<Snapshot>>,
    previews_document: Arc<Resource>,
    /// Held around each swap, so that the lists of all brands made on
    /// another thread never overwrite a newer snapshot (see [`Lister`]).
    swapping: Arc<Mutex<()>>,
    /// Makes the lists of all brands after a save, at thousands of brands.
    lister: Option<Lister>,
}

/// A thread that makes the documents that list every brand ([`LISTS`])
/// after a save is served, and swaps them in: at ten thousand brands they
/// are tens of megabytes, a third of a second to make, and a save must not
/// wait for them (nor the next save). Only the newest lists waiting are
/// made; lists never replace newer ones.
struct Lister {
    jobs: std::sync::mpsc::Sender<(Lists, Arc<Snapshot>)>,
}

impl Lister {
    fn start(snapshot: Arc<ArcSwap<Snapshot>>, swapping: Arc<Mutex<()>>) -> Lister {
        let (jobs, rx) = std::sync::mpsc::channel::<(Lists, Arc<Snapshot>)>();
        let run = move || {
            while let Ok(mut job) = rx.recv() {
                while let Ok(newer) = rx.try_recv() {
                    job = newer;
                }
                let (lists, made_for) = job;
                let made = catch_unwind(AssertUnwindSafe(|| {
                    lists.render(&made_for, crate::snapshot::Effort::Fast)
                }));
                let Ok((documents, bytes)) = made else {
                    tracing::error!(
                        "making the lists of all brands failed (a bug; please report it)"
                    );
                    continue;
                };
                drop(made_for);
                let _held = swapping.lock().unwrap_or_else(|e| e.into_inner());
                let current = snapshot.load_full();
                if current.lists_generation >= lists.generation {
                    continue;
                }
                let mut next = Snapshot::clone(&current);
                next.documents.extend(documents);
                next.stats.bytes = bytes;
                next.lists_generation = lists.generation;
                snapshot.store(Arc::new(next));
            }
        };
        if let Err(e) = std::thread::Builder::new()
            .name("marque-lists".into())
            .spawn(run)
        {
            tracing::error!(error = %e, "cannot start the thread that makes the lists of all brands");
        }
        Lister { jobs }
    }
}

impl Reloader {
    pub fn new(ctx: Context, source: String) -> Reloader {
        let previews_document = Arc::new(Resource::with_effort(
            "application/json",
            crate::render::previews::list_json::<()>(&ctx, None, &[]),
            crate::snapshot::CachePolicy::NoStore,
            crate::snapshot::Effort::Fast,
        ));
        Reloader {
            snapshot: Arc::new(ArcSwap::from_pointee(Snapshot::default())),
            ctx,
            catalog: Catalog::default(),
            views: Views::default(),
            info: ReloadInfo {
                source,
                ..ReloadInfo::default()
            },
            source_error: None,
            options: BuildOptions::default(),
            reporter: Reporter {
                json: false,
                colour: false,
            },
            defer_first_compression: true,
            cached: Default::default(),
            pruned: false,
            changes_waiting: Arc::default(),
            on_publish: None,
            previews: HashMap::new(),
            previews_document,
            swapping: Arc::default(),
            lister: None,
        }
    }

    /// Serves `previews` and `document` (`/previews.json`) from now on.
    pub fn set_previews(&mut self, previews: HashMap<String, Arc<Snapshot>>, document: Resource) {
        self.previews = previews;
        self.previews_document = Arc::new(document);
        if self.info.generation > 0 {
            self.publish();
        }
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    pub fn info(&self) -> &ReloadInfo {
        &self.info
    }

    /// Assembles and swaps in a snapshot of the current catalog.
    fn publish(&mut self) -> Arc<Snapshot> {
        self.publish_with(false)
    }

    /// [`Reloader::publish`]; with `lists_may_follow`, documents that list
    /// every brand which are large in the snapshot being served are taken
    /// from it (see [`assemble`]) and made anew on the [`Lister`]'s thread.
    fn publish_with(&mut self, lists_may_follow: bool) -> Arc<Snapshot> {
        let report = serde_json::to_value(&self.info).unwrap_or_default();
        let swapping = self.swapping.clone();
        let _held = swapping.lock().unwrap_or_else(|e| e.into_inner());
        let serving = self.snapshot.load_full();
        let large = LISTS.iter().any(|path| {
            serving
                .documents
                .get(*path)
                .is_some_and(|r| r.identity.body.len() > crate::snapshot::LARGE)
        });
        let (mut snap, lists) = assemble(
            &self.catalog,
            &self.ctx,
            self.info.generation,
            report,
            &mut self.views,
            (lists_may_follow && large).then_some(&*serving),
        );
        snap.stats.reloads = self.info.reloads;
        snap.stats.failed_reloads = self.info.failed_reloads;
        snap.stats.last_reload_ms = self.info.last_reload_ms;
        snap.previews = self.previews.clone();
        snap.documents
            .insert("/previews.json".into(), self.previews_document.clone());
        let snap = Arc::new(snap);
        self.snapshot.store(snap.clone());
        if let Some(lists) = lists {
            self.make_lists((lists, snap.clone()));
        }
        if let Some(tx) = &self.on_publish {
            let generation = snap.generation;
            tx.send_if_modified(|g| std::mem::replace(g, generation) != generation);
        }
        snap
    }

    /// Hands `job` to the [`Lister`], starting it (again, if its thread
    /// ended: the lists must not stop following the saves).
    fn make_lists(&mut self, job: (Lists, Arc<Snapshot>)) {
        let (snapshot, swapping) = (self.snapshot.clone(), self.swapping.clone());
        let lister = self
            .lister
            .get_or_insert_with(|| Lister::start(snapshot.clone(), swapping.clone()));
        if let Err(std::sync::mpsc::SendError(job)) = lister.jobs.send(job) {
            tracing::warn!(
                "the thread that makes the lists of all brands ended; starting it again"
            );
            let lister = self.lister.insert(Lister::start(snapshot, swapping));
            let _ = lister.jobs.send(job);
        }
    }

    /// What follows a rebuild once its snapshot is served: the bodies it
    /// published uncompressed get their codings (every brand of the first
    /// build, the large documents about all brands) in a second swap of the
    /// same generation, and new renders go to the render cache. Off the
    /// path from a save to its serving.
    /// A change that arrives meanwhile stops it (in a few milliseconds):
    /// the change is served first, and the next call goes on from there.
    pub fn finish(&mut self) {
        use rayon::prelude::*;
        // Current brands first, then released versions (keys `slug@version`).
        let pending: Vec<(String, Arc<crate::build::Published>)> = self
            .catalog
            .brands
            .iter()
            .filter_map(|(slug, s)| Some((slug.clone(), s.published.clone()?)))
            .chain(
                self.catalog
                    .pinned
                    .iter()
                    .filter_map(|(key, s)| Some((key.clone(), s.published.clone()?))),
            )
            .filter(|(_, p)| !p.compressed)
            .collect();
        let batch = 4 * rayon::current_num_threads();
        let mut compressed = false;
        for chunk in pending.chunks(batch) {
            if self.interrupted() {
                break;
            }
            let done: Vec<(String, Arc<crate::build::Published>)> = chunk
                .par_iter()
                .map(|(slug, p)| (slug.clone(), Arc::new(p.compress())))
                .collect();
            for (key, p) in done {
                if let Some(s) = self.catalog.brands.get_mut(&key) {
                    s.published = Some(p);
                } else if let Some(s) = self.catalog.pinned.get_mut(&key) {
                    s.published = Some(p);
                }
            }
            compressed = true;
        }
        if compressed {
            self.publish();
        }
        if self.interrupted() {
            return;
        }
        self.compress_documents();
        self.store_renders();
    }

    fn interrupted(&self) -> bool {
        self.changes_waiting.load(Ordering::Relaxed)
    }

    /// Adds the codings of the large documents that the last swap published
    /// uncompressed (the index of thousands of brands).
    fn compress_documents(&self) {
        let _held = self.swapping.lock().unwrap_or_else(|e| e.into_inner());
        let current = self.snapshot.load_full();
        let compressed = crate::build::compress_later(&current);
        if compressed.is_empty() {
            return;
        }
        let mut next = Snapshot::clone(&current);
        next.documents.extend(compressed);
        self.snapshot.store(Arc::new(next));
    }

    /// Writes every compressed render that is not in the render cache yet,
    /// and removes the entries no brand uses any more.
    fn store_renders(&mut self) {
        let Some(cache) = self.options.cache.clone() else {
            return;
        };
        let published: Vec<&Arc<crate::build::Published>> = self
            .catalog
            .published()
            .chain(
                self.catalog
                    .pinned
                    .values()
                    .filter_map(|p| p.published.as_ref()),
            )
            .filter(|p| p.compressed)
            .collect();
        let fresh: Vec<&&Arc<crate::build::Published>> = published
            .iter()
            .filter(|p| !self.cached.contains(&p.input))
            .collect();
        if fresh.is_empty() {
            return;
        }
        for p in &fresh {
            if self.interrupted() {
                return;
            }
            cache.store(
                &p.input,
                &crate::build::cache::Entry {
                    resources: (*p.resources).clone(),
                    warnings: p.warnings.to_vec(),
                    headline: p.headline.clone(),
                    prompts: p.demo.prompts.clone(),
                    listing: p.listing.clone(),
                },
            );
        }
        let used: std::collections::HashSet<[u8; 32]> = published.iter().map(|p| p.input).collect();
        if self.pruned {
            // Only what this build replaced: listing a folder of ten
            // thousand entries took 40 ms of every save.
            for gone in self.cached.difference(&used) {
                cache.remove(gone);
            }
        } else {
            // The first time, whatever else the folder holds (entries of
            // content since changed, of another version of marque).
            cache.prune(&used);
            self.pruned = true;
        }
        self.cached = used;
    }

    /// Records a failure that produced no build (a fetch that failed, a commit
    /// that cannot be read, the reload loop itself) and republishes /status;
    /// brands keep serving.
    pub fn record_failure(&mut self, revision: Option<String>, error: String) {
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
        // Publish /status even before the first build, so an operator can see
        // why marque is not ready.
        self.publish();
    }

    /// Rebuilds from `content` and swaps the result in, unless nothing
    /// changed. `cause` says what triggered it, for the report. Returns the
    /// new snapshot, if one was swapped in.
    pub fn rebuild(
        &mut self,
        content: &Content,
        revision: Option<String>,
        cause: &str,
    ) -> Option<Arc<Snapshot>> {
        let started = Instant::now();
        // The first build of a server publishes its brands before compressing
        // them: ready in a third of the time, compressed a moment later.
        let mut options = self.options.clone();
        if self.defer_first_compression && self.catalog.brands.is_empty() {
            options.effort = crate::snapshot::Effort::None;
        }
        let next = build_catalog(content, &self.ctx, today(), &self.catalog, &options);
        let first = self.info.generation == 0;
        let changed = first || revision != self.info.revision || differs(&self.catalog, &next);
        if !changed {
            self.catalog = next;
            tracing::debug!(cause, "nothing changed; nothing swapped");
            return None;
        }
        let mut report = compare(&self.catalog, &next, content, first);
        report.cause = cause.to_string();
        self.catalog = next;
        self.info.last_build = self.catalog.work;
        self.info.generation += 1;
        self.info.reloads += 1;
        self.info.revision = revision.clone();
        self.info.last_reload_at = Some(now());
        let errors: Vec<Diagnostic> = self.catalog.errors();
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
                error: format!(
                    "{} error(s) in the content; affected brands keep their last good version",
                    errors.len()
                ),
                diagnostics: errors,
            });
        }
        // Measure before assembling so /status can report this build's own duration.
        self.info.last_reload_ms = started.elapsed().as_secs_f64() * 1000.0;
        // Large lists of all brands follow the change, so it is served first.
        let snap = self.publish_with(!first);
        report.millis = started.elapsed().as_secs_f64() * 1000.0;
        report.generation = self.info.generation;
        self.reporter.rebuild(&report);
        Some(snap)
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
}

/// What happened to each brand between two catalogs, with the errors of
/// those that changed (and the source text of their files, for frames).
fn compare(prev: &Catalog, next: &Catalog, content: &Content, first: bool) -> Rebuild {
    let mut r = Rebuild::default();
    let source = |d: &Diagnostic| -> Option<String> {
        let files = content.brands.iter().find(|b| b.slug == d.brand)?;
        let rel = d.file.strip_prefix(&format!("{}/", d.brand))?;
        let bytes = files.get(rel)?;
        std::str::from_utf8(bytes).ok().map(str::to_string)
    };
    for (slug, s) in &next.brands {
        let before = prev.brands.get(slug);
        if !first && before.is_some_and(|b| b.attempted == s.attempted) {
            continue;
        }
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
        for d in s.diagnostics.iter() {
            match d.severity {
                Severity::Error => r.errors.push((d.clone(), source(d))),
                Severity::Warning => r.warnings += 1,
            }
        }
    }
    for slug in prev.brands.keys().filter(|s| !next.brands.contains_key(*s)) {
        r.brands.push((slug.clone(), Fate::Removed, None));
    }
    for d in &next.source_diagnostics {
        if !prev.source_diagnostics.contains(d) && d.severity == Severity::Error {
            r.errors.push((d.clone(), None));
        }
    }
    r
}

/// Quiet time after the last file event before a rebuild starts.
pub const DEBOUNCE: Duration = Duration::from_millis(100);

/// What a burst of triggers asks to read again.
#[derive(Debug, Default)]
struct Pending {
    slugs: BTreeSet<String>,
    files: BTreeSet<String>,
    all: bool,
    tags: bool,
}

impl Pending {
    fn add(&mut self, t: Trigger) {
        match t {
            Trigger::Brand { slug, file } => {
                self.slugs.insert(slug);
                self.files.insert(file);
            }
            Trigger::Tags => self.tags = true,
            Trigger::All => self.all = true,
        }
    }

    /// Reads what changed into `source`.
    fn apply(&self, source: &mut DirSource) -> anyhow::Result<()> {
        if self.all {
            return source.read_all();
        }
        if !self.slugs.is_empty() {
            source.reread(&self.slugs)?;
        }
        if self.tags {
            source.read_tags();
        }
        Ok(())
    }

    /// The changed files, for the report: those read before or there now
    /// (an editor's or a tool's temporary file is neither).
    fn cause(&self, source: &DirSource) -> String {
        let files: Vec<&String> = self.files.iter().filter(|f| source.is_known(f)).collect();
        let mut parts: Vec<String> = files.iter().take(5).map(|f| f.to_string()).collect();
        if files.len() > 5 {
            parts.push(format!("and {} more", files.len() - 5));
        }
        if self.tags {
            parts.push("tags".into());
        }
        if self.all {
            parts.push("the content folder".into());
        }
        parts.join(", ")
    }
}

/// Rebuilds whenever `triggers` fire, debounced; triggers that arrive during
/// a build are coalesced into one follow-up build. Publishes each new
/// generation on `generations`. Returns when `triggers` closes.
/// Passes the watcher's triggers on, setting `waiting` as each arrives, so
/// that a build's finishing work (see [`Reloader::finish`]) can give way.
pub fn flag_arrivals(
    mut triggers: mpsc::UnboundedReceiver<Trigger>,
    waiting: Arc<AtomicBool>,
) -> mpsc::UnboundedReceiver<Trigger> {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(t) = triggers.recv().await {
            waiting.store(true, Ordering::Relaxed);
            if tx.send(t).is_err() {
                return;
            }
        }
    });
    rx
}

pub async fn watch_loop(
    mut reloader: Reloader,
    mut source: DirSource,
    mut triggers: mpsc::UnboundedReceiver<Trigger>,
    generations: watch::Sender<u64>,
) {
    while let Some(first) = triggers.recv().await {
        let mut pending = Pending::default();
        pending.add(first);
        // Wait for a quiet moment: editors write several events per save.
        loop {
            match tokio::time::timeout(DEBOUNCE, triggers.recv()).await {
                Ok(Some(t)) => pending.add(t),
                Ok(None) => return,
                Err(_) => break,
            }
        }
        // What arrived so far is in this build.
        reloader.changes_waiting.store(false, Ordering::Relaxed);
        let built = tokio::task::spawn_blocking(move || {
            // A failure of the loop itself is reported, never the end of reloading.
            let result = catch_unwind(AssertUnwindSafe(|| {
                let cause = pending.cause(&source);
                let built = pending
                    .apply(&mut source)
                    .map(|()| reloader.rebuild(&source.content(), None, &cause));
                reloader.finish();
                built
            }));
            let generation = match result {
                Ok(Ok(Some(snap))) => Some(snap.generation),
                Ok(Ok(None)) => None,
                Ok(Err(e)) => {
                    let error = format!("cannot read the content folder: {e:#}");
                    tracing::warn!(%error, "still serving the last snapshot");
                    reloader.record_failure(None, error);
                    None
                }
                Err(_) => {
                    let error = "the reload loop failed (a bug; please report it); still serving the last snapshot".to_string();
                    tracing::error!(%error);
                    reloader.record_failure(None, error);
                    // Read everything again next time: the folder state is unknown.
                    let _ = source.read_all();
                    None
                }
            };
            (reloader, source, generation)
        })
        .await;
        match built {
            Ok((r, s, generation)) => {
                reloader = r;
                source = s;
                if let Some(g) = generation {
                    let _ = generations.send(g);
                }
            }
            Err(e) => {
                // Only a cancelled runtime gets here: the server is stopping.
                tracing::debug!(error = %e, "the reload loop stops");
                return;
            }
        }
    }
}
