//! IO: keep the served snapshot current. Each rebuild reads the content
//! again, rebuilds only what changed, keeps every brand's last good render,
//! and swaps the new snapshot in with one `ArcSwap::store`.

use crate::build::{assemble, build_catalog, Catalog, Failure, ReloadInfo};
use crate::render::Context;
use crate::snapshot::Snapshot;
use crate::source::Content;
use arc_swap::ArcSwap;
use chrono::{NaiveDate, Utc};
use std::sync::Arc;
use std::time::Instant;

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
        }
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Rebuilds from `content` and swaps the result in. Returns the new snapshot.
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
            self.info.last_failure = None;
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
