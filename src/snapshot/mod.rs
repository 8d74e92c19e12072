//! The snapshot: every surface of every brand, rendered, compressed and
//! hashed once, off the request path. A request loads the current snapshot
//! once and answers from one map lookup; a reload builds a whole new
//! snapshot and swaps it in. A text body of [`INFLATED`] size is held only
//! as its gzip coding once it has one ([`Identity`]).

mod coding;
mod resource;
mod site;

pub use coding::{brotli, gzip};
pub use resource::{CachePolicy, Effort, Encoded, Identity, Resource, INFLATED, LARGE};
pub use site::{Branch, Site, View};

use crate::paths::brand_key_of;
use std::collections::HashMap;
use std::sync::Arc;

/// What the prompt demo needs of one published brand, kept in the snapshot.
#[derive(Debug, Clone)]
pub struct DemoBrand {
    pub slug: String,
    pub version: String,
    /// spec.md as served: the system context of every prompt.
    pub spec_md: Arc<Resource>,
    pub prompts: Vec<crate::spec::model::Prompt>,
}

/// A published brand or release as a model: its version, input, cache
/// policy and (parsed on first use) brand. What the compare endpoint, MCP,
/// previews and a stale brand's page read of it.
#[derive(Debug)]
pub struct BrandModel {
    /// The version its brand.json declares.
    pub version: String,
    /// Hash of its input: two answers about the same inputs are the same.
    pub input: [u8; 32],
    /// How its surfaces may be cached (a release's are immutable).
    pub cache: CachePolicy,
    /// Its brand, parsed on first use.
    pub brand: Arc<crate::spec::LazyBrand>,
    /// What MCP's `check_code` lints against in every context, made on its
    /// first call and kept with the model, not made again for each call.
    pub lint: std::sync::OnceLock<Arc<crate::lint::Index>>,
}

/// One brand's resources (or one released version's), by path.
pub type Resources = HashMap<String, Arc<Resource>>;

/// The immutable set of everything marque serves at one moment. A brand's
/// resources are one shared map, so a reload that changes one brand
/// re-assembles a map of brands, not a map of every path.
#[derive(Debug, Default, Clone)]
pub struct Snapshot {
    /// Each brand's resources, by its key in paths: `acme`, or `acme@1.2.0`
    /// for a released version.
    pub brands: HashMap<String, Arc<Resources>>,
    /// Documents about all brands and the service (`/`, `/brands.json`,
    /// …), and pages that stand in for a brand's own (the page
    /// of a stale brand, with its errors), by path. Looked up first.
    pub documents: Resources,
    /// Pages of brands that are not published, by path: what a browser
    /// asking for `/brand/<slug>` gets, with status 404.
    pub unpublished: Resources,
    /// False only for the empty snapshot served before the first build.
    pub ready: bool,
    /// Counts builds; a new snapshot has a higher generation.
    pub generation: u64,
    /// The generation the documents that list every brand describe: at
    /// thousands of brands they follow a save (see `Reloader`).
    pub lists_generation: u64,
    /// What the prompt demo needs of each published brand.
    pub demo: HashMap<String, Arc<DemoBrand>>,
    /// Each published brand and release as a model, by its key in paths
    /// (compare, MCP and previews read them).
    pub models: HashMap<String, Arc<BrandModel>>,
    /// Figures for /metrics.
    pub stats: Stats,
    /// `/status`, but for what the HTTP layer adds per request.
    pub status: Arc<crate::render::status::Status>,
    /// Brands and releases (by key in paths) that are being built and
    /// have no version served yet: their paths answer 503 with
    /// `Retry-After`, never 404, until their first outcome.
    pub building: std::collections::HashSet<String>,
}

/// Figures of a snapshot and of the builds that led to it, for /metrics.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    pub brands_ok: usize,
    pub brands_stale: usize,
    pub brands_unpublished: usize,
    /// Bytes held by every resource, all codings.
    pub bytes: usize,
    /// Bytes held by each published brand's resources, by slug.
    pub brand_bytes: Vec<(String, usize)>,
}

/// Hashes a body's address: a multiplication and a fold (addresses are
/// already unique; this only spreads their bits).
#[derive(Default)]
struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_usize(&mut self, n: usize) {
        // Aligned addresses end in zero bits: fold the high bits down too.
        let x = (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = x ^ (x >> 29);
    }
}

impl Snapshot {
    /// The resource at `path`: two hash lookups at most.
    pub fn get(&self, path: &str) -> Option<&Arc<Resource>> {
        if let Some(r) = self.documents.get(path) {
            return Some(r);
        }
        self.brands.get(brand_key_of(path)?)?.get(path)
    }

    /// Every served path with its resource (a brand's page that a document
    /// stands in for is given once, as the document).
    pub fn paths(&self) -> impl Iterator<Item = (&String, &Arc<Resource>)> {
        self.documents.iter().chain(
            self.brands
                .values()
                .flat_map(|r| r.iter())
                .filter(|(p, _)| !self.documents.contains_key(*p)),
        )
    }

    /// Bytes of the bodies this snapshot holds, each shared body once.
    pub fn memory(&self) -> usize {
        self.memory_with(&[], std::iter::empty())
    }

    /// [`Snapshot::memory`], with the documents at `replaced` left out and
    /// `extra` resources counted in.
    pub fn memory_with<'a>(
        &'a self,
        replaced: &[&str],
        extra: impl Iterator<Item = &'a Arc<Resource>>,
    ) -> usize {
        // Every body of every resource, by address: hundreds of thousands
        // at scale, so no path is hashed and addresses hash cheaply.
        let mut seen: std::collections::HashSet<
            usize,
            std::hash::BuildHasherDefault<AddressHasher>,
        > = Default::default();
        let mut total = 0;
        let resources = self
            .documents
            .iter()
            .filter(|(path, _)| !replaced.contains(&path.as_str()))
            .map(|(_, r)| r)
            .chain(extra)
            .chain(self.brands.values().flat_map(|r| r.values()));
        for r in resources {
            let codings = [r.gzip.as_ref(), r.br.as_ref()].map(|e| e.map(|e| &e.body));
            for body in codings
                .into_iter()
                .chain([r.identity.held_body()])
                .flatten()
            {
                if seen.insert(body.as_ptr() as usize) {
                    total += body.len();
                }
            }
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_find_their_brand() {
        assert_eq!(brand_key_of("/brand/acme/spec.json"), Some("acme"));
        assert_eq!(brand_key_of("/brand/acme"), Some("acme"));
        assert_eq!(
            brand_key_of("/brand/acme@1.2.0/tokens.css"),
            Some("acme@1.2.0")
        );
        assert_eq!(brand_key_of("/embed/brand/acme"), Some("acme"));
        assert_eq!(brand_key_of("/status"), None);
    }
}
