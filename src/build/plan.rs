//! Planning a build and recording what its jobs did: which brands and
//! releases are kept as they were, which are carried (their job still
//! running from a build before), and which get a job; then each outcome
//! settled into the next catalog, a failed attempt keeping the brand's
//! last good render.

use super::{
    attempt, brand_of, input_hash, jobs, BrandState, BuildOptions, Carried, Catalog, Kind,
    PinnedState, Published, SemverMode,
};
use crate::render::Context;
use crate::source::{Content, Pinned};
use crate::spec::diag::{file_diagnostic, Code};
use crate::spec::{BrandFiles, Diagnostic};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// What a build has to do: a job per brand and release whose input
/// changed, and the outcomes of carried jobs that have ended since.
pub(super) struct Plan {
    pub kinds: Vec<Kind>,
    pub work: Vec<jobs::Job>,
    pub ended: Vec<(Kind, jobs::Outcome)>,
}

/// What became of the job carried for `key`, if its input is still
/// `kind`'s: `true` when it is dealt with (carried again into `next`, or
/// its outcome taken into `ended`).
fn take_carried(
    key: &str,
    kind: &Kind,
    previous: &Catalog,
    next: &mut Catalog,
    ended: &mut Vec<(Kind, jobs::Outcome)>,
) -> bool {
    let Some(c) = previous.running.get(key).filter(|c| &c.kind == kind) else {
        return false;
    };
    match c.handle.outcome() {
        Some(outcome) => ended.push((c.kind.clone(), outcome)),
        None => carry(next, previous, c.clone()),
    }
    true
}

/// Records in `next` a job that is still running: its brand keeps what it
/// served, and is building while the job is in `next.running`.
pub(super) fn carry(next: &mut Catalog, previous: &Catalog, c: Carried) {
    match &c.kind {
        Kind::Brand { slug, .. } => {
            let state = previous.brands.get(slug).cloned().unwrap_or_else(|| {
                // Never attempted before: nothing to serve yet.
                BrandState {
                    slug: slug.clone(),
                    published: None,
                    diagnostics: Arc::default(),
                    silenced: Arc::default(),
                    attempted: [0; 32],
                }
            });
            next.brands.insert(slug.clone(), state);
            next.running.insert(slug.clone(), c);
        }
        Kind::Pinned { key, .. } => {
            if let Some(p) = previous.pinned.get(key) {
                next.pinned.insert(key.clone(), p.clone());
            }
            next.running.insert(key.clone(), c);
        }
    }
}

/// Reuses into `next` every brand and release whose input did not change,
/// and returns a job for each of the others.
pub(super) fn plan(
    content: &Content,
    ctx: &Context,
    moment: crate::spec::Moment,
    previous: &Catalog,
    opts: &BuildOptions,
    next: &mut Catalog,
) -> Plan {
    let mut kinds = Vec::new();
    let mut work: Vec<jobs::Job> = Vec::new();
    let mut ended = Vec::new();
    let mut releases: BTreeMap<&str, Vec<Arc<Pinned>>> = BTreeMap::new();
    for pin in &content.pinned {
        releases
            .entry(pin.files.slug.as_str())
            .or_default()
            .push(pin.clone());
    }
    // A brand's files include the parents it is built over (see
    // `family`): a change reaches every brand that depends on it.
    for files in &content.brands {
        let hash = input_hash(files, ctx, moment, opts.semver, &opts.build_id);
        let kind = Kind::Brand {
            slug: files.slug.clone(),
            input: hash,
        };
        if take_carried(&files.slug, &kind, previous, next, &mut ended) {
            continue;
        }
        if let Some(p) = previous
            .brands
            .get(&files.slug)
            .filter(|p| p.attempted == hash)
        {
            // Unchanged, or back to the input it serves (an edit undone
            // while the edit's job ran: that job is called off).
            next.brands.insert(files.slug.clone(), p.clone());
            continue;
        }
        let (files, ctx, opts) = (files.clone(), ctx.clone(), opts.clone());
        let releases = releases
            .get(files.slug.as_str())
            .cloned()
            .unwrap_or_default();
        kinds.push(kind);
        work.push(Box::new(move || {
            let (published, diagnostics) = attempt(&files, &releases, &ctx, moment, hash, &opts);
            silence(&files, published, diagnostics)
        }));
    }
    let served = (content.pinned.iter().chain(&content.withheld)).filter(|_| opts.serve_releases);
    for pin in served {
        let key = format!("{}@{}", pin.files.slug, pin.release.version);
        let kind = Kind::Pinned {
            key: key.clone(),
            commit: pin.release.commit.clone(),
        };
        if take_carried(&key, &kind, previous, next, &mut ended) {
            continue;
        }
        if let Some(prev) = previous
            .pinned
            .get(&key)
            .filter(|p| p.commit == pin.release.commit)
        {
            next.pinned.insert(key, prev.clone());
            continue;
        }
        let mut pinned_ctx = ctx.clone();
        pinned_ctx.pin = Some(pin.release.version.to_string());
        pinned_ctx.live_reload = false;
        let pin: Arc<Pinned> = pin.clone();
        let hash = input_hash(
            &pin.files,
            &pinned_ctx,
            moment,
            SemverMode::Off,
            &opts.build_id,
        );
        let opts = BuildOptions {
            fault: None,
            ..opts.clone()
        };
        kinds.push(kind);
        work.push(Box::new(move || {
            let (published, diagnostics) =
                attempt(&pin.files, &[], &pinned_ctx, moment, hash, &opts);
            silence(&pin.files, published, diagnostics)
        }));
    }
    Plan { kinds, work, ended }
}

/// A job's result: an attempt's render, and its diagnostics less the
/// warnings the brand's brand.json silences, which are counted. Every
/// warning of the attempt is silenced alike, validation's and rendering's;
/// the render cache keeps them all, so a render taken from it counts the
/// same.
fn silence(
    files: &BrandFiles,
    published: Option<Arc<Published>>,
    diagnostics: Arc<Vec<Diagnostic>>,
) -> jobs::Result {
    let codes = crate::spec::brand::silence::codes(files);
    if codes.is_empty() {
        return (published, diagnostics, Arc::default());
    }
    let all = Arc::try_unwrap(diagnostics).unwrap_or_else(|shared| shared.to_vec());
    let (shown, silenced) = crate::spec::brand::silence::apply(&codes, all);
    (published, Arc::new(shown), Arc::new(silenced))
}

/// Records a job's outcome in `next`. A brand whose attempt failed keeps
/// its last good render.
pub(super) fn settle(
    next: &mut Catalog,
    previous: &Catalog,
    kind: Kind,
    outcome: jobs::Outcome,
    budget: Duration,
) {
    let slug = match &kind {
        Kind::Brand { slug, .. } => slug.clone(),
        Kind::Pinned { key, .. } => brand_of(key).to_string(),
    };
    let (published, diagnostics, silenced) = match outcome {
        jobs::Outcome::Done(r) => {
            if let Some(p) = &r.0 {
                if p.from_cache {
                    next.work.from_cache += 1;
                } else {
                    next.work.rendered += 1;
                }
            }
            r
        }
        jobs::Outcome::Panicked(message) => (
            None,
            Arc::new(vec![file_diagnostic(
                Code::InternalError,
                &slug,
                &format!("{slug}/"),
                format!("marque failed while checking this brand (a bug; please report it): {message}"),
            )]),
            Arc::default(),
        ),
        jobs::Outcome::TimedOut => (
            None,
            Arc::new(vec![file_diagnostic(
                Code::TimedOut,
                &slug,
                &format!("{slug}/"),
                format!(
                    "checking and rendering this brand took longer than {} s, so it was stopped; it keeps its last good version and is not tried again until its files change; simplify its tokens or assets",
                    budget.as_secs_f64()
                ),
            )]),
            Arc::default(),
        ),
        // Only a job no build wants is cancelled. Should one reach here,
        // its brand keeps what it had, and the next build tries again.
        jobs::Outcome::Cancelled => {
            if let Kind::Brand { slug, .. } = &kind {
                if let Some(p) = previous.brands.get(slug) {
                    let kept = BrandState {
                        attempted: [0; 32],
                        ..p.clone()
                    };
                    next.brands.insert(slug.clone(), kept);
                }
            }
            return;
        }
    };
    match kind {
        Kind::Pinned { key, commit } => {
            next.pinned.insert(
                key,
                PinnedState {
                    commit,
                    published,
                    diagnostics,
                },
            );
        }
        Kind::Brand { slug, input } => {
            let keep = previous.brands.get(&slug).and_then(|p| p.published.clone());
            next.brands.insert(
                slug.clone(),
                BrandState {
                    published: published.or(keep),
                    slug,
                    diagnostics,
                    silenced,
                    attempted: input,
                },
            );
        }
    }
}
