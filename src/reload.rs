//! IO: keep the served snapshot current. Each rebuild reads the content
//! again, rebuilds only what changed, keeps every brand's last good render,
//! and swaps the new snapshot in with one `ArcSwap::store`.

use crate::build::{assemble, build_catalog, Catalog, Failure, ReloadInfo};
use crate::render::Context;
use crate::snapshot::Snapshot;
use crate::source::Content;
use arc_swap::ArcSwap;
use chrono::{NaiveDate, Utc};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, watch};

/// The latest calendar date anywhere on Earth (UTC+14), so an author who
/// writes today's date is never told it is in the future.
pub fn today() -> NaiveDate {
    (Utc::now() + chrono::Duration::hours(14)).date_naive()
}

/// Owns the state carried between builds and the handle readers load from.
pub struct Reloader {
    pub snapshot: Arc<ArcSwap<Snapshot>>,
    pub ctx: Context,
    catalog: Catalog,
    info: ReloadInfo,
    /// A failure of the source itself (a fetch), reported until it clears,
    /// even when the content it left in place builds cleanly.
    pub source_error: Option<String>,
}

impl Reloader {
    pub fn new(ctx: Context, source: String) -> Reloader {
        Reloader {
            snapshot: Arc::new(ArcSwap::from_pointee(Snapshot::default())),
            ctx,
            catalog: Catalog::default(),
            info: ReloadInfo {
                source,
                ..ReloadInfo::default()
            },
            source_error: None,
        }
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Records a failure that produced no build (a fetch that failed, a commit
    /// that cannot be read) and republishes /status; brands keep serving.
    pub fn record_failure(&mut self, revision: Option<String>, error: String) {
        let now = Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        self.info.failed_reloads += 1;
        let since = match &self.info.last_failure {
            Some(f) if f.error == error => f.since.clone(),
            _ => now,
        };
        self.info.last_failure = Some(Failure {
            revision,
            since,
            error,
            diagnostics: Vec::new(),
        });
        // Publish /status even before the first build, so an operator can see
        // why marque is not ready.
        let snap = assemble(&self.catalog, &self.ctx, &self.info);
        self.snapshot.store(Arc::new(snap));
    }

    /// Rebuilds from `content` and swaps the result in. Returns the new snapshot.
    /// Unchanged brands keep their render; a brand that gained errors keeps its last good one.
    pub fn rebuild(&mut self, content: &Content, revision: Option<String>) -> Arc<Snapshot> {
        let started = Instant::now();
        self.ctx.revision = revision.clone();
        self.catalog = build_catalog(content, &self.ctx, today(), &self.catalog);
        let now = Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        self.info.generation += 1;
        self.info.reloads += 1;
        self.info.revision = revision.clone();
        self.info.last_reload_at = Some(now.clone());
        let diagnostics: Vec<_> = self
            .catalog
            .diagnostics()
            .into_iter()
            .filter(|d| d.severity == crate::spec::Severity::Error)
            .collect();
        if diagnostics.is_empty() {
            self.info.last_failure = self.source_error.clone().map(|error| Failure {
                since: match &self.info.last_failure {
                    Some(f) if f.error == error => f.since.clone(),
                    _ => now.clone(),
                },
                revision: revision.clone(),
                error,
                diagnostics: Vec::new(),
            });
        } else {
            self.info.failed_reloads += 1;
            let since = match &self.info.last_failure {
                Some(f) => f.since.clone(),
                None => now,
            };
            self.info.last_failure = Some(Failure {
                revision,
                since,
                error: format!(
                    "{} error(s) in the content; affected brands keep their last good version",
                    diagnostics.len()
                ),
                diagnostics,
            });
        }
        // Measure before assembling so /status can report this build's own duration.
        self.info.last_reload_ms = started.elapsed().as_secs_f64() * 1000.0;
        let snap = Arc::new(assemble(&self.catalog, &self.ctx, &self.info));
        self.snapshot.store(snap.clone());
        for d in self.catalog.diagnostics() {
            match d.severity {
                crate::spec::Severity::Error => tracing::warn!(brand = %d.brand, "{d}"),
                crate::spec::Severity::Warning => tracing::debug!(brand = %d.brand, "{d}"),
            }
        }
        tracing::info!(
            generation = self.info.generation,
            brands = self.catalog.published().count(),
            ms = format!("{:.1}", self.info.last_reload_ms),
            "snapshot swapped in"
        );
        snap
    }
}

/// Quiet time after the last file event before a rebuild starts.
pub const DEBOUNCE: Duration = Duration::from_millis(100);

/// Rebuilds from `dir` whenever `triggers` fire, debounced; events that
/// arrive during a build are coalesced into one follow-up build. Publishes
/// each new generation on `generations`. Returns when `triggers` closes.
pub async fn watch_loop(
    mut reloader: Reloader,
    dir: PathBuf,
    mut triggers: mpsc::UnboundedReceiver<()>,
    generations: watch::Sender<u64>,
) {
    while triggers.recv().await.is_some() {
        // Wait for a quiet moment: editors write several events per save.
        loop {
            match tokio::time::timeout(DEBOUNCE, triggers.recv()).await {
                Ok(Some(())) => continue,
                Ok(None) => return,
                Err(_) => break,
            }
        }
        let dir = dir.clone();
        let built = tokio::task::spawn_blocking(move || {
            let result = crate::source::read_folder(&dir)
                .map(|content| reloader.rebuild(&content, None).generation);
            (reloader, result)
        })
        .await;
        match built {
            Ok((r, result)) => {
                reloader = r;
                match result {
                    Ok(generation) => {
                        let _ = generations.send(generation);
                    }
                    Err(e) => {
                        tracing::warn!(error = %format!("{e:#}"), "cannot read the content folder; still serving the last snapshot")
                    }
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "rebuild panicked; the watcher stops");
                return;
            }
        }
    }
}
