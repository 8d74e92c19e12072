//! IO: keeping the served snapshot current. Two loops, one per mode, drive
//! the same two parts: the [`reload::Reloader`], which turns content into a
//! snapshot value, and the [`publisher::Publisher`], the only writer of
//! what is served. Directory mode ([`dir`]) rebuilds on file events
//! ([`watch`]); git mode ([`git`]) on fetches, with branch previews
//! ([`previews`]) and, in a fleet, webhooks spread to every replica
//! ([`fanout`]). A broken edit never takes a brand down: each brand keeps
//! its last good render, and nothing is swapped when nothing changed.

pub mod dir;
pub mod fanout;
pub mod git;
pub mod previews;
pub mod publisher;
pub mod reload;
pub mod render_cache;
pub mod watch;

use crate::snapshot::{Branch, Resource, Site};
use crate::source::Content;
use publisher::Publisher;
use reload::Reloader;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The reloader and the publisher, as each loop holds them: every change
/// the reloader makes is a snapshot the publisher serves.
pub struct Live {
    pub reloader: Reloader,
    pub publisher: Publisher,
    /// Changes no build has served yet, for /status and /readyz.
    pub progress: Arc<Progress>,
    /// The content of the last build, and its revision: built again when an
    /// embargo lifts, since the lists of releases change then.
    last: Option<(Content, Option<String>)>,
    /// Told what each publish changed (purges, release events), when
    /// anyone is to be told.
    outbox: Option<crate::outbound::outbox::Outbox>,
}

/// Whether changes have arrived that no finished build has served, and
/// since when: what `/status` and `/readyz` report if builds stop
/// finishing. A change is anything that asks for a build (a saved file, a
/// brand's job ending; not a webhook, which may find nothing new, or a
/// remote that does not answer); each loop step says which changes it
/// took in ([`Progress::building`]) and that it ended ([`Progress::built`]).
#[derive(Debug, Default)]
pub struct Progress {
    arrivals: AtomicU64,
    /// Milliseconds since [`epoch`] plus one when the oldest change still
    /// unserved arrived; 0 when none is waiting.
    waiting_since: AtomicU64,
}

/// Changes waiting longer than this mean the reloader is stuck: every
/// brand's build stops at its time limit (10 s), a build waits on a slow
/// brand only while four others are left behind, and a whole rebuild of
/// 10,000 brands takes about 30 s on two cores, so a working reloader
/// serves any change well within it.
pub const STUCK_AFTER: Duration = Duration::from_secs(120);

fn epoch() -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    epoch().elapsed().as_millis() as u64 + 1
}

impl Progress {
    /// A change arrived.
    pub fn arrived(&self) {
        self.arrivals.fetch_add(1, Ordering::SeqCst);
        let _ =
            self.waiting_since
                .compare_exchange(0, now_ms(), Ordering::SeqCst, Ordering::SeqCst);
    }

    /// A build starts with every change arrived so far: returns what it covers.
    pub fn building(&self) -> u64 {
        self.arrivals.load(Ordering::SeqCst)
    }

    /// The build that covered `covered` ended: what arrived before it is
    /// served; what arrived since waits from now.
    pub fn built(&self, covered: u64) {
        let rest = match self.arrivals.load(Ordering::SeqCst) == covered {
            true => 0,
            false => now_ms(),
        };
        self.waiting_since.store(rest, Ordering::SeqCst);
    }

    /// How long the oldest change no finished build has served has waited.
    pub fn waiting_for(&self) -> Option<Duration> {
        let since = self.waiting_since.load(Ordering::SeqCst);
        (since > 0).then(|| Duration::from_millis(now_ms().saturating_sub(since)))
    }

    /// How long changes have waited with no build finishing, once that is
    /// longer than [`STUCK_AFTER`].
    pub fn stuck_for(&self) -> Option<Duration> {
        self.waiting_for().filter(|w| *w > STUCK_AFTER)
    }
}

impl Live {
    /// The reloader and publisher of one loop.
    pub fn new(reloader: Reloader, publisher: Publisher, progress: Arc<Progress>) -> Live {
        Live {
            reloader,
            publisher,
            progress,
            last: None,
            outbox: None,
        }
    }

    /// Where what a publish changes is told, if anywhere.
    pub fn outbox(&self) -> Option<&crate::outbound::outbox::Outbox> {
        self.outbox.as_ref()
    }

    /// Tells `outbox` what each publish changes from now on.
    pub fn with_outbox(mut self, outbox: Option<crate::outbound::outbox::Outbox>) -> Live {
        self.outbox = outbox;
        self
    }

    /// Rebuilds from `content` and serves the result, unless nothing
    /// changed. Returns the generation served, if a new one.
    pub fn rebuild(
        &mut self,
        content: &Content,
        revision: Option<String>,
        cause: &str,
    ) -> Option<u64> {
        self.last = Some((content.clone(), revision.clone()));
        self.serve(|r, serving| r.rebuild(content, revision, cause, serving))
            .map(|s| s.public().generation)
    }

    /// Serves a snapshot whose /status reports `error` (no build came of
    /// it); brands keep serving.
    pub fn record_failure(&mut self, revision: Option<String>, error: String) {
        self.serve(|r, serving| Some(r.record_failure(revision, error, serving)));
    }

    /// Serves `previews` and `/previews.json` beside the content.
    pub fn set_previews(
        &mut self,
        previews: HashMap<String, Branch>,
        document: Resource,
        inherited: crate::build::audience::Inherited,
    ) {
        self.reloader.set_previews(previews, document, inherited);
        if self.reloader.info().generation > 0 {
            self.republish();
        }
    }

    /// What follows a rebuild once its snapshot is served: the bodies it
    /// published uncompressed get their codings (every brand of the first
    /// build, the large documents about all brands) in a second swap of the
    /// same generation, and new renders go to the render cache. Off the
    /// path from a save to its serving: a change that arrives meanwhile
    /// stops it (in a few milliseconds), is served first, and the next
    /// call goes on from there.
    pub fn finish(&mut self) {
        // Every build's bodies have a gzip coding as they are published (a
        // first build's gzip 1 alone); brotli and gzip 6 follow here, and a
        // client that takes `br` gets gzip until its body's brotli coding
        // exists.
        self.publisher.compress_documents();
        if self.reloader.brotli_pending() {
            self.republish();
        }
        if self.reloader.interrupted() {
            return;
        }
        self.reloader.store_renders();
    }

    /// Serves the current catalog again when what it shows to whom has
    /// changed without a build: an embargo lifted, or the access tokens
    /// were read anew (DESIGN.md §20).
    pub fn republish_if_due(&mut self) {
        let now = self.reloader.clock().now();
        let lifted = self.publisher.serving().next_lift.is_some_and(|t| t <= now);
        let tokens = self.reloader.access().is_some_and(|a| a.take_changed());
        if lifted {
            tracing::info!("an embargo lifted: its version is public now");
            // A release's embargo lifts into other versions' renders (their
            // changelogs and pages list it from now on): built again.
            if let Some((content, revision)) = self.last.take() {
                let built = self.rebuild(&content, revision, "an embargo lifted");
                self.finish();
                if built.is_some() {
                    return;
                }
            }
        }
        if lifted || tokens {
            self.republish();
        }
    }

    /// How long until the next embargo lifts, if one is pending.
    pub fn next_lift_in(&self) -> Option<Duration> {
        let at = self.publisher.serving().next_lift?;
        let wait = (at - self.reloader.clock().now())
            .to_std()
            .unwrap_or_default();
        // Timers may fire a hair early: wake just after the moment.
        Some(wait + Duration::from_millis(5))
    }

    /// Serves the current catalog again (same generation).
    fn republish(&mut self) {
        self.serve(|r, serving| Some(r.site(serving, false)));
        // Its large documents, made again with gzip alone, get their
        // brotli coding back.
        self.publisher.compress_documents();
    }

    /// Serves what `make` makes of the reloader and the snapshot being
    /// served, if anything; the old snapshot is let go first (but for the
    /// brand maps the outbox compares, when there is one). What changed
    /// is handed to the outbox after the swap: queued, not sent, so the
    /// publish never waits on a receiver.
    fn serve(
        &mut self,
        make: impl FnOnce(&mut Reloader, &Site) -> Option<publisher::Next>,
    ) -> Option<Arc<Site>> {
        let serving = self.publisher.serving();
        let before = self
            .outbox
            .as_ref()
            .map(|_| crate::outbound::Seen::of(&serving));
        let next = make(&mut self.reloader, &serving);
        drop(serving);
        let served = self.publisher.publish(next?);
        if let (Some(outbox), Some(before)) = (&self.outbox, before) {
            outbox.published(&before, &crate::outbound::Seen::of(&served));
        }
        Some(served)
    }
}

#[cfg(test)]
mod tests {
    use super::Progress;

    #[test]
    fn changes_wait_until_a_build_that_took_them_in_ends() {
        let p = Progress::default();
        assert!(p.waiting_for().is_none());
        p.arrived();
        let covered = p.building();
        assert!(p.waiting_for().is_some());
        // A change during the build waits on after it.
        p.arrived();
        p.built(covered);
        assert!(p.waiting_for().is_some());
        let covered = p.building();
        p.built(covered);
        assert!(p.waiting_for().is_none());
        assert!(p.stuck_for().is_none());
    }
}
