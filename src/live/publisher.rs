//! The one writer of what is served. Readers load the site from the
//! handle ([`Publisher::reader`]); only this module stores into it: a new
//! snapshot ([`Publisher::publish`]), the codings of its large documents
//! ([`Publisher::compress_documents`]), and the lists of all brands made
//! on a thread of their own after a save (`Lister`). Every store goes
//! through `Served::swap`, under one lock, so no writer overwrites a
//! newer snapshot or newer lists.

use crate::access::Scope;
use crate::build::{compress_later, Lists, LISTS};
use crate::snapshot::{Branch, Site, Snapshot};
use arc_swap::ArcSwap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// A site ready to serve, and, when it carries the lists of all brands
/// of the site before (a save at thousands of brands), what its own
/// lists are made from.
#[derive(Debug)]
pub struct Next {
    pub site: Site,
    pub lists: Option<Lists>,
    /// The same for each view of the token scopes (by the scopes that
    /// see it) whose lists it took from the snapshot before.
    pub audience_lists: Vec<(Vec<Scope>, Lists)>,
}

/// One job of the `Lister`: the lists of every view that follow a save.
type ListsJob = (Option<Lists>, Vec<(Vec<Scope>, Lists)>, Arc<Site>);

/// The served site and the lock every store takes.
struct Served {
    site: Arc<ArcSwap<Site>>,
    swapping: Mutex<()>,
}

impl Served {
    /// Stores what `change` makes of the site being served, unless it
    /// makes nothing. The only `store` of the served handle.
    fn swap(&self, change: impl FnOnce(&Arc<Site>) -> Option<Site>) -> Arc<Site> {
        let _held = self.swapping.lock().unwrap_or_else(|e| e.into_inner());
        let current = self.site.load_full();
        match change(&current) {
            Some(next) => {
                let next = Arc::new(next);
                self.site.store(next.clone());
                next
            }
            None => current,
        }
    }
}

/// What readers hold: the served site, to load and never to store.
#[derive(Clone)]
pub struct Reader(Arc<ArcSwap<Site>>);

impl Reader {
    /// The site being served, for the length of one request.
    pub fn load(&self) -> arc_swap::Guard<Arc<Site>> {
        self.0.load()
    }

    /// The site being served, to keep.
    pub fn load_full(&self) -> Arc<Site> {
        self.0.load_full()
    }
}

impl std::fmt::Debug for Reader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Reader")
            .field("generation", &self.0.load().public().generation)
            .finish()
    }
}

/// Owns the served site.
pub struct Publisher {
    served: Arc<Served>,
    lister: Option<Lister>,
    /// Told the generation of every snapshot swapped in (MCP sessions, /events).
    generations: watch::Sender<u64>,
}

impl Publisher {
    /// Serves an empty site (not ready) until the first is published.
    pub fn new(generations: watch::Sender<u64>) -> Publisher {
        Publisher {
            served: Arc::new(Served {
                site: Arc::new(ArcSwap::from_pointee(Site::default())),
                swapping: Mutex::new(()),
            }),
            lister: None,
            generations,
        }
    }

    /// What readers load the served site from.
    pub fn reader(&self) -> Reader {
        Reader(self.served.site.clone())
    }

    /// The site being served.
    pub fn serving(&self) -> Arc<Site> {
        self.served.site.load_full()
    }

    /// Serves `next`. Lists of all brands that `next` took from the snapshot
    /// before are made on the `Lister`'s thread and follow; if that thread
    /// swapped in newer lists while `next` was assembled, `next` serves those.
    pub fn publish(&mut self, next: Next) -> Arc<Site> {
        let Next {
            mut site,
            lists,
            audience_lists,
        } = next;
        let published = self.served.swap(|current| {
            let (from, into) = (current.public(), &mut site.published.public);
            if from.lists_generation > into.lists_generation && lists.is_some() {
                carry_lists(from, Arc::make_mut(into));
            }
            for (scopes, _) in &audience_lists {
                carry_audience_lists(&current.published, &mut site.published, scopes);
            }
            Some(site)
        });
        if lists.is_some() || !audience_lists.is_empty() {
            self.make_lists((lists, audience_lists, published.clone()));
        }
        let generation = published.public().generation;
        self.generations
            .send_if_modified(|g| std::mem::replace(g, generation) != generation);
        published
    }

    /// Adds the codings of the large documents that the last swap published
    /// uncompressed or with gzip alone (the lists of thousands of brands,
    /// /openapi.json), in every audience's snapshot.
    pub fn compress_documents(&self) {
        self.served.swap(|current| {
            // Every audience's: a token holder's lists and /openapi.json
            // are as large as the public ones.
            let branch = &current.published;
            let public = compress_later(&branch.public);
            let scoped: Vec<_> = branch
                .scoped
                .iter()
                .map(|(_, snapshot)| compress_later(snapshot))
                .collect();
            if public.is_empty() && scoped.iter().all(Vec::is_empty) {
                return None;
            }
            let mut next = Site::clone(current);
            Arc::make_mut(&mut next.published.public)
                .documents
                .extend(public);
            for ((_, snapshot), compressed) in next.published.scoped.iter_mut().zip(scoped) {
                if !compressed.is_empty() {
                    Arc::make_mut(snapshot).documents.extend(compressed);
                }
            }
            Some(next)
        });
    }

    /// Hands `job` to the [`Lister`], starting it (again, if its thread
    /// ended: the lists must not stop following the saves).
    fn make_lists(&mut self, job: ListsJob) {
        let served = self.served.clone();
        let lister = self
            .lister
            .get_or_insert_with(|| Lister::start(served.clone()));
        if let Err(std::sync::mpsc::SendError(job)) = lister.jobs.send(job) {
            tracing::warn!(
                "the thread that makes the lists of all brands ended; starting it again"
            );
            let lister = self.lister.insert(Lister::start(served));
            let _ = lister.jobs.send(job);
        }
    }
}

/// Puts the lists that `from`'s view of `scopes` serves into each of
/// `into`'s views of those scopes, where `from`'s are newer.
fn carry_audience_lists(from: &Branch, into: &mut Branch, scopes: &[Scope]) {
    let Some(newer) = scopes.first().and_then(|s| from.scoped_for(s)) else {
        return;
    };
    for (seen_by, view) in into.scoped.iter_mut() {
        if seen_by.iter().all(|s| scopes.contains(s))
            && newer.lists_generation > view.lists_generation
        {
            carry_lists(newer, Arc::make_mut(view));
        }
    }
}

/// Puts the lists of all brands that `from` serves into `into`.
fn carry_lists(from: &Snapshot, into: &mut Snapshot) {
    for path in LISTS {
        if let Some(r) = from.documents.get(path) {
            into.documents.insert(path.to_string(), r.clone());
        }
    }
    into.status = Arc::new(into.status.with_brands_of(&from.status));
    into.stats.bytes = from.stats.bytes;
    into.lists_generation = from.lists_generation;
}

/// A thread that makes the documents that list every brand ([`LISTS`])
/// after a save is served, and swaps them in: at ten thousand brands they
/// are tens of megabytes, a third of a second to make, and a save must not
/// wait for them (nor the next save). Only the newest lists waiting are
/// made; lists never replace newer ones.
struct Lister {
    jobs: std::sync::mpsc::Sender<ListsJob>,
}

/// The lists of all brands as made: their documents, and /status.
type MadeLists = (
    Vec<(String, Arc<crate::snapshot::Resource>)>,
    crate::render::status::Status,
);

/// The lists `lists` makes for the snapshot `made_for`; `None` when making
/// them failed (logged).
fn made(lists: &Lists, made_for: &Snapshot) -> Option<MadeLists> {
    let made = catch_unwind(AssertUnwindSafe(|| {
        lists.render(made_for, crate::snapshot::Effort::Fast)
    }));
    if made.is_err() {
        tracing::error!("making the lists of all brands failed (a bug; please report it)");
    }
    made.ok()
}

/// Puts lists made for generation `generation` into `into`, unless it
/// has newer ones; true when it took them.
fn put((documents, status): &MadeLists, generation: u64, into: &mut Snapshot) -> bool {
    if into.lists_generation >= generation {
        return false;
    }
    into.documents.extend(documents.iter().cloned());
    into.stats.bytes = status.snapshot_bytes;
    // What /status says of the reloads is the newest snapshot's.
    into.status = Arc::new(into.status.with_brands_of(status));
    into.lists_generation = generation;
    true
}

impl Lister {
    fn start(served: Arc<Served>) -> Lister {
        let (jobs, rx) = std::sync::mpsc::channel::<ListsJob>();
        let run = move || {
            while let Ok(mut job) = rx.recv() {
                while let Ok(newer) = rx.try_recv() {
                    job = newer;
                }
                let (lists, audience_lists, made_for) = job;
                // Made off the lock, each for the view it was taken for;
                // swapped in under it, never over newer lists.
                let public = lists
                    .as_ref()
                    .and_then(|l| Some((made(l, made_for.public())?, l.generation)));
                let views: Vec<(Vec<Scope>, _, u64)> = audience_lists
                    .iter()
                    .filter_map(|(scopes, l)| {
                        let view = scopes
                            .first()
                            .and_then(|s| made_for.published.scoped_for(s))?;
                        Some((scopes.clone(), made(l, view)?, l.generation))
                    })
                    .collect();
                drop(made_for);
                served.swap(|current| {
                    // Nothing newer than what is served: no copy made.
                    let wanted = |scopes: &[Scope], generation: u64| {
                        current.published.scoped.iter().any(|(seen_by, view)| {
                            seen_by.iter().all(|s| scopes.contains(s))
                                && view.lists_generation < generation
                        })
                    };
                    let newer = public
                        .as_ref()
                        .is_some_and(|(_, g)| current.public().lists_generation < *g)
                        || views.iter().any(|(scopes, _, g)| wanted(scopes, *g));
                    if !newer {
                        return None;
                    }
                    let mut next = Site::clone(current);
                    let mut changed = false;
                    if let Some((public, generation)) = &public {
                        if current.public().lists_generation < *generation {
                            let into = Arc::make_mut(&mut next.published.public);
                            changed |= put(public, *generation, into);
                        }
                    }
                    for (scopes, lists, generation) in &views {
                        for (seen_by, view) in next.published.scoped.iter_mut() {
                            if seen_by.iter().all(|s| scopes.contains(s))
                                && view.lists_generation < *generation
                            {
                                changed |= put(lists, *generation, Arc::make_mut(view));
                            }
                        }
                    }
                    changed.then_some(next)
                });
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
