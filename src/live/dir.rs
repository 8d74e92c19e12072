//! Directory mode: the first build of the content folder, then a rebuild
//! after every burst of file events, debounced; events that arrive during a
//! build are coalesced into one follow-up build. Git mode's loop
//! (`git.rs` beside this file) has the same shape: a worker that owns its source and
//! the [`Live`] pair, and a blocking step per trigger.

use super::watch::Trigger;
use super::Live;
use crate::source::dir::DirSource;
use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// What directory mode holds between builds: the content folder as last
/// read, and the reloader and publisher.
pub struct DirWorker {
    live: Live,
    source: DirSource,
}

impl DirWorker {
    /// Reads the whole folder at `dir`, builds it and serves the result
    /// (blocking). An unreadable folder is an error: there is nothing to serve.
    pub fn start(mut live: Live, dir: &Path) -> anyhow::Result<DirWorker> {
        let covered = live.progress.building();
        let mut source = DirSource::new(dir);
        source.read_all()?;
        live.rebuild(&source.content(), None, "");
        // What arrived before the read is served; compressing (a minute of
        // brotli at 10,000 brands) is no build that changes wait on.
        live.progress.built(covered);
        live.finish();
        Ok(DirWorker { live, source })
    }

    /// Reads what `pending` names again, rebuilds and serves (blocking). A
    /// failure is reported on /status, never the end of reloading.
    fn step(&mut self, pending: &Pending, covered: u64) {
        let mut served = false;
        let result = catch_unwind(AssertUnwindSafe(|| {
            if pending.republish_only() {
                self.live.republish_if_due();
                return Ok(());
            }
            let cause = pending.cause(&self.source);
            let read = pending.apply(&mut self.source);
            if read.is_ok() {
                self.live.rebuild(&self.source.content(), None, &cause);
                // Served: what follows (codings, the render cache) is no
                // build that changes wait on, and /readyz must not read a
                // minute of brotli after a large build as a stuck reload.
                self.live.progress.built(covered);
                served = true;
                self.live.finish();
                self.live.republish_if_due();
            }
            read
        }));
        match result {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                let error = format!("cannot read the content folder: {e:#}");
                tracing::warn!(%error, "still serving the last snapshot");
                self.live.record_failure(None, error);
            }
            Err(_) => {
                let error = "the reload loop failed (a bug; please report it); still serving the last snapshot".to_string();
                tracing::error!(%error);
                self.live.record_failure(None, error);
                // Read everything again next time: the folder state is unknown.
                let _ = self.source.read_all();
            }
        }
        // A step that served no build (a republish, a read that failed, a
        // panic) ends its changes' wait here.
        if !served {
            self.live.progress.built(covered);
        }
    }

    /// Rebuilds whenever `triggers` fire, debounced, until `triggers` closes
    /// or the runtime stops.
    pub async fn run(mut self, mut triggers: mpsc::UnboundedReceiver<Trigger>) {
        loop {
            // An embargo lifts without a change to wait for.
            let first = match self.live.next_lift_in() {
                Some(wait) => match tokio::time::timeout(wait, triggers.recv()).await {
                    Ok(Some(t)) => t,
                    Ok(None) => return,
                    Err(_) => Trigger::Republish,
                },
                None => match triggers.recv().await {
                    Some(t) => t,
                    None => return,
                },
            };
            let mut pending = Pending::default();
            let mut quiet_from = tokio::time::Instant::now() + DEBOUNCE;
            pending.add(first);
            // Wait for a quiet moment: editors write several events per
            // save (an embargo's moment or new tokens need none). Only a
            // file event moves the moment: jobs that end (a parent's
            // children deferred by the build before) wake the loop one by
            // one, and must not hold up the save they arrive beside.
            while !pending.republish_only() {
                match tokio::time::timeout_at(quiet_from, triggers.recv()).await {
                    Ok(Some(t)) => {
                        if t.is_file_event() {
                            quiet_from = tokio::time::Instant::now() + DEBOUNCE;
                        }
                        pending.add(t);
                    }
                    Ok(None) => return,
                    Err(_) => break,
                }
            }
            // What arrived so far is in this build.
            self.live.reloader.take_changes();
            let covered = self.live.progress.building();
            let stepped = tokio::task::spawn_blocking(move || {
                self.step(&pending, covered);
                self
            })
            .await;
            match stepped {
                Ok(worker) => self = worker,
                Err(e) => {
                    // Only a cancelled runtime gets here: the server is stopping.
                    tracing::debug!(error = %e, "the reload loop stops");
                    return;
                }
            }
        }
    }
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
    /// A job left behind ended: its outcome is published by this build.
    settled: bool,
    /// An embargo lifts, or the tokens changed.
    republish: bool,
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
            Trigger::Settled => self.settled = true,
            Trigger::Republish => self.republish = true,
        }
    }

    /// Nothing is to be read or built: only served again.
    fn republish_only(&self) -> bool {
        self.republish && !self.all && !self.tags && !self.settled && self.slugs.is_empty()
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
        if self.settled && parts.is_empty() {
            parts.push("a brand finished building".into());
        }
        parts.join(", ")
    }
}

/// Passes the watcher's triggers on, setting `waiting` as each arrives, so
/// that a build's finishing work (see [`Live::finish`](super::Live::finish)) can give way.
pub fn flag_arrivals(
    mut triggers: mpsc::UnboundedReceiver<Trigger>,
    (waiting, saved): (Arc<AtomicBool>, Arc<AtomicBool>),
    progress: Arc<super::Progress>,
) -> mpsc::UnboundedReceiver<Trigger> {
    let (tx, rx) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(t) = triggers.recv().await {
            waiting.store(true, Ordering::Relaxed);
            if t.is_file_event() {
                saved.store(true, Ordering::Relaxed);
            }
            progress.arrived();
            if tx.send(t).is_err() {
                return;
            }
        }
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::live::{publisher::Publisher, reload::Reloader, Progress};

    /// A change that arrived before the first read is served by the first
    /// build: /readyz must not count the compressing that follows (a
    /// minute of brotli at 10,000 brands) as a reload that is stuck.
    #[test]
    fn the_first_build_ends_the_wait_of_what_arrived_before_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("acme")).unwrap();
        let progress = Arc::new(Progress::default());
        progress.arrived();
        let reloader = Reloader::new(
            crate::render::Context::new("https://b.example"),
            "test".into(),
            crate::build::BuildOptions::default(),
            crate::report::Reporter {
                json: true,
                colour: false,
            },
        );
        let (generations, _) = tokio::sync::watch::channel(0u64);
        let live = Live::new(reloader, Publisher::new(generations), progress.clone());
        let _worker = DirWorker::start(live, dir.path()).unwrap();
        assert_eq!(progress.waiting_for(), None);
    }
}
