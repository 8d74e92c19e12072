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
        let mut source = DirSource::new(dir);
        source.read_all()?;
        live.rebuild(&source.content(), None, "");
        live.finish();
        Ok(DirWorker { live, source })
    }

    /// Reads what `pending` names again, rebuilds and serves (blocking). A
    /// failure is reported on /status, never the end of reloading.
    fn step(&mut self, pending: &Pending, covered: u64) {
        let result = catch_unwind(AssertUnwindSafe(|| {
            if pending.republish_only() {
                self.live.republish_if_due();
                return Ok(());
            }
            let cause = pending.cause(&self.source);
            let read = pending.apply(&mut self.source);
            if read.is_ok() {
                self.live.rebuild(&self.source.content(), None, &cause);
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
        self.live.progress.built(covered);
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
