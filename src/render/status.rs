//! `/status`: what an operator reads about the service, as one typed
//! document. The builder fills it with each snapshot; the HTTP layer adds
//! what changes between snapshots (which limiter decides the demo) and
//! serializes it per request. Each brand's entry is JSON rendered once with
//! the brand ([`Entry`]), so a document of ten thousand brands is written
//! without serializing them again.

use crate::spec::Diagnostic;
use serde::Serialize;
use serde_json::value::RawValue;
use std::sync::Arc;

/// The whole document.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub service: &'static str,
    pub version: &'static str,
    /// Built, every brand has had its first outcome, and every body has its
    /// gzip coding: `/readyz` answers 200.
    pub ready: bool,
    /// Brotli codings are still being added to a first build's bodies:
    /// until each has one, a client that takes `br` gets gzip.
    pub brotli_pending: bool,
    #[serde(flatten)]
    pub reload: Reload,
    /// Published brands, in slug order.
    pub brands: Vec<Entry>,
    /// Brand folders with nothing to serve (errors from their first build).
    pub unpublished: Vec<Entry>,
    /// Problems of the content folder itself (not of one brand).
    pub content_diagnostics: Vec<Diagnostic>,
    /// Bytes the snapshot holds, all codings.
    pub snapshot_bytes: usize,
    /// When the next embargo lifts (RFC 3339), shown to access-token
    /// holders only (DESIGN.md §20).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_embargo_lift: Option<String>,
}

impl Default for Status {
    fn default() -> Status {
        Status::new(false, Reload::default())
    }
}

impl Status {
    pub fn new(ready: bool, reload: Reload) -> Status {
        Status {
            service: "marque",
            version: env!("CARGO_PKG_VERSION"),
            ready,
            brotli_pending: false,
            reload,
            brands: Vec::new(),
            unpublished: Vec::new(),
            content_diagnostics: Vec::new(),
            snapshot_bytes: 0,
            next_embargo_lift: None,
        }
    }
}

impl Status {
    /// This document's service facts (ready, the reloads) with the brands
    /// of `lists`: the lists of thousands of brands follow a save, made on
    /// another thread, while what /status says of the reloads is current.
    pub fn with_brands_of(&self, lists: &Status) -> Status {
        Status {
            service: self.service,
            version: self.version,
            ready: self.ready,
            brotli_pending: self.brotli_pending,
            reload: self.reload.clone(),
            brands: lists.brands.clone(),
            unpublished: lists.unpublished.clone(),
            content_diagnostics: lists.content_diagnostics.clone(),
            snapshot_bytes: lists.snapshot_bytes,
            next_embargo_lift: self.next_embargo_lift.clone(),
        }
    }
}

/// `/status` as served: the document of the snapshot, and how the demo's
/// rate limit is decided now.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServedStatus<'a> {
    #[serde(flatten)]
    pub built: &'a Status,
    /// Changes have waited longer than `live::STUCK_AFTER` with no build
    /// finishing: `changes pending, no build finished for N s`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending: Option<String>,
    pub demo_limiter: LimiterStatus,
    /// Deliveries of purges and release events, when any target is configured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outbound: Option<OutboundStatus>,
}

/// Which limiter decides the demo's calls, and how many each decided.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LimiterStatus {
    /// `local`, `shared` (Redis), or `local-fallback` (Redis unreachable).
    pub mode: &'static str,
    /// A Redis URL is configured.
    pub redis: bool,
    pub decided_by_redis: u64,
    pub decided_locally: u64,
}

/// What `/status` says of the deliveries of purges and release events
/// (`outbound`): counts only, never a URL or a secret.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OutboundStatus {
    /// Purge URLs and event targets (`--notify-url`) configured.
    pub purge_targets: usize,
    pub event_targets: usize,
    /// Deliveries acknowledged (a 2xx answer).
    pub sent: u64,
    /// Deliveries given up: refused (4xx but 408 and 429) or out of tries.
    pub failed: u64,
    /// Deliveries waiting, under way or waiting to retry.
    pub pending: u64,
    /// Deliveries dropped unsent because the queue was full.
    pub dropped: u64,
}

/// What `/status` says about the reloads.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Reload {
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
    pub last_build: Work,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Failure {
    pub revision: Option<String>,
    pub since: String,
    pub error: String,
    pub diagnostics: Vec<Diagnostic>,
}

/// What one build did, brand by brand.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Work {
    /// Brand folders read anew (the others were kept from the read before).
    pub read: usize,
    /// Brands and released versions validated again (their input changed).
    pub checked: usize,
    /// Of those, rendered.
    pub rendered: usize,
    /// Of those, taken from the render cache instead.
    pub from_cache: usize,
    /// Brands and released versions kept as they were (input unchanged).
    pub kept: usize,
}

/// One brand's entry, rendered once as pretty JSON at the depth of an item
/// of a top-level array, and written as it is.
#[derive(Debug, Clone)]
pub struct Entry(Arc<RawValue>);

impl Entry {
    /// `value` as an item of `brands` or `unpublished`.
    pub fn of(value: &impl Serialize) -> Entry {
        let text = serde_json::to_string_pretty(value).expect("a status entry serializes");
        let nested = text.replace('\n', "\n    ");
        Entry(Arc::from(
            RawValue::from_string(nested).expect("serde_json wrote JSON"),
        ))
    }
}

impl Serialize for Entry {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize)]
    struct Row {
        slug: &'static str,
        errors: usize,
    }

    #[test]
    fn a_status_takes_its_brands_from_the_lists_and_keeps_its_reloads() {
        let mut lists = Status::new(false, Reload::default());
        lists.brands.push(Entry::of(&Row {
            slug: "acme",
            errors: 0,
        }));
        lists.snapshot_bytes = 10;
        let now = Status::new(
            true,
            Reload {
                generation: 7,
                ..Reload::default()
            },
        );
        let served = serde_json::to_value(now.with_brands_of(&lists)).unwrap();
        assert_eq!(served["ready"], true);
        assert_eq!(served["generation"], 7);
        assert_eq!(served["brands"][0]["slug"], "acme");
        assert_eq!(served["snapshotBytes"], 10);
    }

    /// Entries rendered once read, in the served document, as if serde had
    /// written the whole document at once.
    #[test]
    fn a_document_with_entries_reads_as_one_serialization() {
        let mut status = Status::new(true, Reload::default());
        status.brands.push(Entry::of(&Row {
            slug: "acme",
            errors: 0,
        }));
        status.brands.push(Entry::of(&Row {
            slug: "zen",
            errors: 2,
        }));
        let live = ServedStatus {
            built: &status,
            pending: None,
            demo_limiter: LimiterStatus {
                mode: "local",
                redis: false,
                decided_by_redis: 0,
                decided_locally: 3,
            },
            outbound: None,
        };
        let written = serde_json::to_string_pretty(&live).unwrap();
        let mut whole = serde_json::to_value(&live).unwrap();
        whole["brands"] = serde_json::json!([
            {"slug": "acme", "errors": 0},
            {"slug": "zen", "errors": 2},
        ]);
        assert_eq!(written, serde_json::to_string_pretty(&whole).unwrap());
        assert!(written.contains("\"demoLimiter\": {\n    \"mode\": \"local\""));
    }
}
