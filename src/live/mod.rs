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
pub mod watch;

use crate::snapshot::{Resource, Snapshot};
use crate::source::Content;
use publisher::Publisher;
use reload::Reloader;
use std::collections::HashMap;
use std::sync::Arc;

/// The reloader and the publisher, as each loop holds them: every change
/// the reloader makes is a snapshot the publisher serves.
pub struct Live {
    pub reloader: Reloader,
    pub publisher: Publisher,
}

impl Live {
    /// Rebuilds from `content` and serves the result, unless nothing
    /// changed. Returns the generation served, if a new one.
    pub fn rebuild(
        &mut self,
        content: &Content,
        revision: Option<String>,
        cause: &str,
    ) -> Option<u64> {
        self.serve(|r, serving| r.rebuild(content, revision, cause, serving))
            .map(|s| s.generation)
    }

    /// Serves a snapshot whose /status reports `error` (no build came of
    /// it); brands keep serving.
    pub fn record_failure(&mut self, revision: Option<String>, error: String) {
        self.serve(|r, serving| Some(r.record_failure(revision, error, serving)));
    }

    /// Serves `previews` and `/previews.json` beside the content.
    pub fn set_previews(&mut self, previews: HashMap<String, Arc<Snapshot>>, document: Resource) {
        self.reloader.set_previews(previews, document);
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
        if self.reloader.compress_pending() {
            self.republish();
        }
        if self.reloader.interrupted() {
            return;
        }
        self.publisher.compress_documents();
        self.reloader.store_renders();
    }

    /// Serves the current catalog again (same generation).
    fn republish(&mut self) {
        self.serve(|r, serving| Some(r.snapshot(serving, false)));
    }

    /// Serves what `make` makes of the reloader and the snapshot being
    /// served, if anything; the old snapshot is let go first.
    fn serve(
        &mut self,
        make: impl FnOnce(&mut Reloader, &Snapshot) -> Option<publisher::Next>,
    ) -> Option<Arc<Snapshot>> {
        let serving = self.publisher.serving();
        let next = make(&mut self.reloader, &serving);
        drop(serving);
        Some(self.publisher.publish(next?))
    }
}
