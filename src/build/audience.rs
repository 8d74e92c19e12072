//! Who sees which catalog (DESIGN.md §20). A private brand, a version
//! under embargo and a private brand's releases are withheld from public
//! readers: the public catalog is the catalog without them, an embargoed
//! brand standing as its latest release that is not withheld, or not at
//! all. Each distinct scope of the access tokens opens some of them: its
//! catalog is the public one with those put back. The snapshots are
//! assembled from these catalogs, so a public answer is made from public
//! brands only and cannot carry what it never held.
//!
//! A branch preview is split as the published branch is, and inherits what
//! the published branch decides ([`Inherited`]): a brand private there is
//! private in every preview, whatever the branch's brand.json says, and a
//! version under embargo there (its head, or any tag) is under embargo in
//! every preview that has it.
//!
//! Pure: the time it is decided at comes in as a value.

use super::{BrandState, Catalog, Published};
use crate::access::Scope;
use crate::snapshot::{BrandModel, CachePolicy, Resource};
use chrono::{DateTime, Utc};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// What one moment's catalog is to each reader.
#[derive(Debug)]
pub struct Split {
    /// What readers without a token get; `None` when nothing is withheld
    /// (the catalog itself).
    pub public: Option<Catalog>,
    /// Each distinct set of withheld brands a scope opens, with its
    /// catalog and the scopes that open exactly it.
    pub opened: Vec<Opened>,
    /// The next moment an embargo lifts, if any is pending.
    pub next_lift: Option<DateTime<Utc>>,
    /// The brands withheld from public readers, in part or whole.
    pub withheld: BTreeSet<String>,
}

/// A catalog for the holders of some scopes.
#[derive(Debug)]
pub struct Opened {
    pub slugs: BTreeSet<String>,
    pub scopes: Vec<Scope>,
    pub catalog: Catalog,
}

/// What the published branch decides for every branch preview.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inherited {
    /// Brands private on the published branch, as far as can be told.
    pub private: BTreeSet<String>,
    /// Versions under embargo on the published branch (its heads and its
    /// releases), by brand and version, with the moment each lifts.
    pub embargoes: BTreeMap<(String, String), DateTime<Utc>>,
}

/// What the published branch's `catalog` decides for its previews.
pub fn inherited(catalog: &Catalog) -> Inherited {
    let mut embargoes = catalog.embargoes.clone();
    let renders = catalog
        .brands
        .values()
        .filter_map(|s| Some((s.slug.as_str(), s.published.as_ref()?)))
        .chain(
            catalog
                .pinned
                .iter()
                .filter_map(|(k, p)| Some((super::brand_of(k), p.published.as_ref()?))),
        );
    for (slug, p) in renders {
        if let Some(e) = p.headline.embargo {
            embargoes.insert((slug.to_string(), p.headline.version.clone()), e);
        }
    }
    Inherited {
        private: catalog
            .brands
            .values()
            .filter(|s| is_private(s, catalog, &Inherited::default()))
            .map(|s| s.slug.clone())
            .collect(),
        embargoes,
    }
}

/// True when a brand is private as far as can be told: the published
/// branch says so (`inherited`), its render says so, or, while its latest
/// attempt is not served, its brand.json names a visibility (so a private
/// brand's broken edit never makes it public), or, never published,
/// cannot be read to say it is public (see
/// [`crate::spec::visibility::Guard`]).
pub fn is_private(s: &BrandState, catalog: &Catalog, inherited: &Inherited) -> bool {
    if inherited.private.contains(&s.slug) {
        return true;
    }
    let rendered = s.published.as_ref().is_some_and(|p| p.headline.private);
    let says = catalog.guarded.contains(&s.slug);
    match (&s.published, s.stale()) {
        (Some(_), false) => rendered,
        (Some(_), true) => rendered || says,
        (None, _) => says || catalog.unknown.contains(&s.slug),
    }
}

/// True when the brand's latest attempt failed and may carry an embargo:
/// its brand.json names one (or, never published, may say anything).
fn embargo_guarded(s: &BrandState, catalog: &Catalog) -> bool {
    let says = catalog.embargo_guarded.contains(&s.slug)
        || (s.published.is_none() && catalog.unknown.contains(&s.slug));
    s.stale() && says
}

/// The versions under an embargo that holds at `now`, by brand: every
/// render of such a version is withheld, whichever of them carries the
/// embargo (a tag cut before the embargo line was added, say).
type Embargoed = BTreeSet<(String, String)>;

fn embargoed_versions(catalog: &Catalog, inherited: &Inherited, now: DateTime<Utc>) -> Embargoed {
    let head = catalog
        .brands
        .values()
        .filter_map(|s| Some((s.slug.as_str(), s.published.as_ref()?)));
    let released = catalog
        .pinned
        .iter()
        .filter_map(|(k, p)| Some((super::brand_of(k), p.published.as_ref()?)));
    let rendered = head
        .chain(released)
        .filter(|(_, p)| p.headline.embargo.is_some_and(|e| e > now))
        .map(|(slug, p)| (slug.to_string(), p.headline.version.clone()));
    let declared = catalog
        .embargoes
        .iter()
        .chain(&inherited.embargoes)
        .filter(|(_, e)| **e > now)
        .map(|(k, _)| k.clone());
    rendered.chain(declared).collect()
}

/// True when `p`, a render of the brand `slug`, is withheld from public readers.
fn hidden(p: &Published, slug: &str, embargoed: &Embargoed) -> bool {
    p.headline.private || embargoed.contains(&(slug.to_string(), p.headline.version.clone()))
}

/// Splits `catalog` at `now` for the public and for each of `scopes`, as
/// the published branch decides (`inherited`; the default for the
/// published branch itself); current surfaces of an embargoed brand's
/// fallback are cached for `max_age` seconds.
pub fn split(
    catalog: &Catalog,
    inherited: &Inherited,
    now: DateTime<Utc>,
    scopes: &[Scope],
    max_age: u32,
) -> Split {
    let embargoed = embargoed_versions(catalog, inherited, now);
    let mut private = BTreeSet::new();
    let mut withheld = BTreeSet::new();
    // A declared embargo lifts at its moment too (a release's list changes then).
    let mut next_lift: Option<DateTime<Utc>> = catalog
        .embargoes
        .values()
        .chain(inherited.embargoes.values())
        .filter(|e| **e > now)
        .min()
        .copied();
    let mut lift = |p: &Published| {
        if let Some(e) = p.headline.embargo.filter(|e| *e > now) {
            next_lift = Some(next_lift.map_or(e, |n| n.min(e)));
        }
    };
    for s in catalog.brands.values() {
        if is_private(s, catalog, inherited) {
            private.insert(s.slug.clone());
            withheld.insert(s.slug.clone());
        }
        if let Some(p) = &s.published {
            lift(p);
            if hidden(p, &s.slug, &embargoed) {
                withheld.insert(s.slug.clone());
            }
        }
        // A broken edit that may carry an embargo: its errors are not public.
        if embargo_guarded(s, catalog) {
            withheld.insert(s.slug.clone());
        }
    }
    for (key, p) in &catalog.pinned {
        if let Some(p) = &p.published {
            lift(p);
            if hidden(p, super::brand_of(key), &embargoed) {
                withheld.insert(super::brand_of(key).to_string());
            }
        }
    }
    if withheld.is_empty() {
        return Split {
            public: None,
            opened: Vec::new(),
            next_lift,
            withheld,
        };
    }
    let public = without(catalog, &withheld, &private, &embargoed, max_age);
    let mut by_set: BTreeMap<BTreeSet<String>, Vec<Scope>> = BTreeMap::new();
    for scope in scopes {
        let slugs: BTreeSet<String> = withheld
            .iter()
            .filter(|s| scope.covers(s))
            .cloned()
            .collect();
        if !slugs.is_empty() {
            by_set.entry(slugs).or_default().push(scope.clone());
        }
    }
    let opened = by_set
        .into_iter()
        .map(|(slugs, scopes)| {
            let closed: BTreeSet<String> = withheld.difference(&slugs).cloned().collect();
            Opened {
                catalog: without(catalog, &closed, &private, &embargoed, max_age),
                slugs,
                scopes,
            }
        })
        .collect();
    Split {
        public: Some(public),
        opened,
        next_lift,
        withheld,
    }
}

/// `catalog` without what it withholds of the brands `closed`: all of a
/// private one; an embargoed version (its head standing as its latest
/// release that is not withheld).
fn without(
    catalog: &Catalog,
    closed: &BTreeSet<String>,
    private: &BTreeSet<String>,
    embargoed: &Embargoed,
    max_age: u32,
) -> Catalog {
    let mut out = catalog.clone();
    let hidden = |p: &Option<Arc<Published>>, slug: &str| {
        p.as_ref().is_some_and(|p| hidden(p, slug, embargoed))
    };
    out.pinned.retain(|key, p| {
        let slug = super::brand_of(key);
        !closed.contains(slug) || !(private.contains(slug) || hidden(&p.published, slug))
    });
    for slug in closed {
        if private.contains(slug) {
            out.brands.remove(slug);
            out.running.remove(slug);
            continue;
        }
        let Some(s) = out.brands.get_mut(slug) else {
            continue;
        };
        if !hidden(&s.published, slug) {
            // A broken edit that may carry an embargo: served as its last
            // good version, its errors the holders' alone.
            if embargo_guarded(s, catalog) {
                s.diagnostics = Arc::default();
                s.silenced = Arc::default();
            }
            continue;
        }
        // Its latest release before it stands for the brand, rendered as
        // the current version; else the latest release left, as released;
        // none, no brand.
        let stand_in = s
            .published
            .as_ref()
            .and_then(|p| p.stand_in.clone())
            .filter(|p| !hidden(&Some(p.clone()), slug));
        let fallback = stand_in.or_else(|| {
            out.pinned
                .iter()
                .filter(|(key, _)| super::brand_of(key) == slug)
                .filter_map(|(_, p)| p.published.as_ref())
                .max_by(|a, b| version_of(a).cmp(&version_of(b)))
                .map(|p| Arc::new(as_current(p, slug, CachePolicy::Current(max_age))))
        });
        match fallback {
            Some(p) => {
                s.published = Some(p);
                s.diagnostics = Arc::default();
                s.silenced = Arc::default();
                out.running.remove(slug);
            }
            None => {
                out.brands.remove(slug);
                out.running.remove(slug);
            }
        }
    }
    out.source_diagnostics.retain(|d| {
        !closed.contains(&d.brand) && !closed.iter().any(|s| d.file.starts_with(&format!("{s}/")))
    });
    out
}

fn version_of(p: &Published) -> Option<semver::Version> {
    semver::Version::parse(&p.headline.version).ok()
}

/// A released version's render, served at the brand's current paths: its
/// documents as released, cached as current ones.
fn as_current(p: &Published, slug: &str, cache: CachePolicy) -> Published {
    let from = format!("/brand/{}", p.key);
    let to = format!("/brand/{slug}");
    let resources = p
        .resources
        .iter()
        .map(|(path, r)| {
            let path = match path.strip_prefix(&from) {
                Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("{to}{rest}"),
                _ => path.clone(),
            };
            let r = Resource {
                cache,
                cache_control: cache.header(),
                ..Resource::clone(r)
            };
            (path, Arc::new(r))
        })
        .collect();
    Published {
        headline: p.headline.clone(),
        model: Arc::new(BrandModel {
            version: p.model.version.clone(),
            input: p.model.input,
            cache,
            brand: p.model.brand.clone(),
            lint: Default::default(),
        }),
        input: p.input,
        key: slug.to_string(),
        resources: Arc::new(resources),
        listing: p.listing.clone(),
        demo: p.demo.clone(),
        compressed: p.compressed,
        brotli: p.brotli,
        warnings: p.warnings.clone(),
        from_cache: p.from_cache,
        bytes: p.bytes,
        stand_in: None,
    }
}
