//! What a publish tells the world outside: the paths a CDN in front must
//! purge (`--purge-url`) and the signed events that consumers act on
//! (`--notify-url`). This module is the pure half: it compares what two
//! published sites serve ([`Seen`]) and says what changed ([`Published`]);
//! [`outbox`] delivers it, off the path from a save to its serving.
//!
//! Only a key (`acme`, `acme@1.2.0`) whose resources are a new map is
//! changed: a build keeps the map of every brand whose input did not
//! change, and a swap of the same generation (codings added) changes no
//! content, so it purges nothing.

pub mod comment;
pub mod commit_status;
mod delivery;
pub mod job;
pub mod journal;
pub mod outbox;

use crate::build::LISTS;
use crate::snapshot::{BrandModel, Resources, Site};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Duration;

/// Where a publish is told, and how deliveries are made.
#[derive(Debug, Clone)]
pub struct OutboundConfig {
    /// `--purge-url`: templates of the CDN's purge endpoint.
    pub purge: Vec<String>,
    /// `MARQUE_PURGE_HEADER`: one header (`Name: value`) sent with each purge.
    pub purge_header: Option<(String, String)>,
    /// `--notify-url`: who hears about releases, and whether of private brands too.
    pub notify: Vec<Target>,
    /// `MARQUE_NOTIFY_SECRET`: what events are signed with.
    pub secret: Option<String>,
    /// Deadline of one request.
    pub timeout: Duration,
    /// Tries of one delivery, the first included.
    pub attempts: u32,
    /// The wait before the first retry; each next waits twice as long.
    pub retry_base: Duration,
    /// Deliveries waiting at most; past it the oldest is dropped.
    pub queue: usize,
    /// `--status-api`: where previews' commit statuses are posted.
    pub status: Option<commit_status::StatusApi>,
    /// `--status-comment`: previews' change tables go on their pull
    /// requests too (with `status`).
    pub comment: bool,
    /// `--dispatch-repo`: repositories that get a GitHub
    /// `repository_dispatch` for each public event.
    pub dispatch: Option<Dispatch>,
}

/// GitHub repositories that get a `repository_dispatch` (event type
/// `marque-release`) for each public event.
#[derive(Clone)]
pub struct Dispatch {
    /// `owner/name` each.
    pub repos: Vec<String>,
    /// The API's base URL (`https://api.github.com`, or a GitHub
    /// Enterprise Server's `https://host/api/v3`).
    pub base: String,
    /// From `MARQUE_DISPATCH_TOKEN` only.
    pub token: String,
}

impl Dispatch {
    /// The headers of a dispatch, the token among them.
    pub fn headers(&self) -> Vec<(String, String)> {
        vec![
            ("Authorization".into(), format!("Bearer {}", self.token)),
            ("Accept".into(), "application/vnd.github+json".into()),
            ("X-GitHub-Api-Version".into(), "2022-11-28".into()),
        ]
    }
}

impl std::fmt::Debug for Dispatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dispatch")
            .field("repos", &self.repos)
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

impl Default for OutboundConfig {
    fn default() -> OutboundConfig {
        OutboundConfig {
            purge: Vec::new(),
            purge_header: None,
            notify: Vec::new(),
            secret: None,
            timeout: Duration::from_secs(10),
            attempts: 8,
            retry_base: Duration::from_secs(1),
            queue: 1024,
            status: None,
            comment: false,
            dispatch: None,
        }
    }
}

impl OutboundConfig {
    /// Nothing is told anyone.
    pub fn is_off(&self) -> bool {
        self.purge.is_empty()
            && self.notify.is_empty()
            && self.status.is_none()
            && self.dispatch.is_none()
    }
}

/// One `--notify-url`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub url: String,
    /// Hears about private brands and embargoed versions too.
    pub private: bool,
}

impl Target {
    /// `https://…`, or `private:https://…` for a target that may hear
    /// about private brands.
    pub fn parse(text: &str) -> Target {
        match text.strip_prefix("private:") {
            Some(url) => Target {
                url: url.to_string(),
                private: true,
            },
            None => Target {
                url: text.to_string(),
                private: false,
            },
        }
    }
}

/// One brand key as a site serves it.
#[derive(Debug, Clone)]
struct Key {
    resources: Arc<Resources>,
    model: Option<Arc<BrandModel>>,
}

/// What one published site serves, by brand key: enough to tell what the
/// next publish changed. Holds the maps, not copies.
#[derive(Debug, Default)]
pub struct Seen {
    ready: bool,
    generation: u64,
    public: HashMap<String, Key>,
    /// Keys that only token holders see (private brands, embargoed versions).
    private: HashMap<String, Key>,
}

impl Seen {
    pub fn of(site: &Site) -> Seen {
        let public = site.public();
        let key = |snapshot: &crate::snapshot::Snapshot, k: &String, r: &Arc<Resources>| {
            (
                k.clone(),
                Key {
                    resources: r.clone(),
                    model: snapshot.models.get(k).cloned(),
                },
            )
        };
        let mut private = HashMap::new();
        for (_, view) in &site.published.scoped {
            for (k, r) in &view.brands {
                if !public.brands.contains_key(k) && !private.contains_key(k) {
                    private.extend([key(view, k, r)]);
                }
            }
        }
        Seen {
            ready: public.ready,
            generation: public.generation,
            public: public
                .brands
                .iter()
                .map(|(k, r)| key(public, k, r))
                .collect(),
            private,
        }
    }
}

/// What an event is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Kind {
    /// A version tagged `<slug>@<version>` is published.
    #[serde(rename = "release.published")]
    Release,
    /// An embargoed version is public now.
    #[serde(rename = "embargo.lifted")]
    EmbargoLifted,
    /// A brand is public now (new, or private before).
    #[serde(rename = "brand.published")]
    BrandPublished,
    /// A brand is no longer public.
    #[serde(rename = "brand.removed")]
    BrandRemoved,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Release => "release.published",
            Kind::EmbargoLifted => "embargo.lifted",
            Kind::BrandPublished => "brand.published",
            Kind::BrandRemoved => "brand.removed",
        }
    }
}

/// The links of an event.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Links {
    /// The page of the brand or version.
    pub page: String,
    /// The comparison with the version before, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compare: Option<String>,
}

/// One event, as sent (the body of a `--notify-url` POST). A published
/// format: fields are added, never renamed.
#[derive(Debug, Clone, Serialize)]
pub struct Event {
    /// The same for every delivery of this event, to every target, and
    /// from every replica: `Idempotency-Key` carries it too.
    pub id: String,
    #[serde(rename = "type")]
    pub kind: Kind,
    pub brand: String,
    pub version: Option<String>,
    /// `major`, `minor`, `patch` or `none` against the version before,
    /// when there is one.
    pub verdict: Option<String>,
    /// Whether only token holders may read it (only private targets hear).
    pub private: bool,
    pub changed_paths: Vec<String>,
    pub links: Links,
    /// The generation of the snapshot that published it.
    pub generation: u64,
    /// Its two versions, for the verdict, computed by the outbox off the
    /// publish path.
    #[serde(skip)]
    pub compared: Option<(Arc<BrandModel>, Arc<BrandModel>)>,
}

/// What a publish changed.
#[derive(Debug, Default)]
pub struct Published {
    /// Public paths whose answer changed, the lists of all brands
    /// included: what a CDN must purge. Sorted.
    pub paths: Vec<String>,
    pub events: Vec<Event>,
    pub generation: u64,
}

/// What changed from `before` to `after`. The first site (served before
/// any build) changes nothing: a restart announces nothing again.
pub fn published(before: &Seen, after: &Seen, public_url: &str) -> Published {
    let mut out = Published {
        generation: after.generation,
        ..Published::default()
    };
    if !before.ready || !after.ready {
        return out;
    }
    let rebuilt = after.generation != before.generation;
    let mut paths = BTreeSet::new();
    let mut keys: Vec<&String> = after.public.keys().chain(before.public.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        let (old, new) = (before.public.get(k), after.public.get(k));
        let changed = match (old, new) {
            (Some(a), Some(b)) => rebuilt && !Arc::ptr_eq(&a.resources, &b.resources),
            _ => true,
        };
        if !changed {
            continue;
        }
        let of = new.or(old).map(|k| &k.resources);
        let key_paths: Vec<String> = of.into_iter().flat_map(|r| r.keys().cloned()).collect();
        paths.extend(key_paths.iter().cloned());
        let kind = match (old, new) {
            (None, Some(_)) if k.contains('@') && before.private.contains_key(k) => {
                Kind::EmbargoLifted
            }
            (None, Some(_)) if k.contains('@') => Kind::Release,
            (None, Some(_)) => Kind::BrandPublished,
            (Some(_), None) if !k.contains('@') => Kind::BrandRemoved,
            _ => continue,
        };
        out.events
            .push(event(kind, k, false, key_paths, after, public_url));
    }
    // What only private targets hear: keys new to the private views.
    let mut private: Vec<&String> = after
        .private
        .keys()
        .filter(|k| !before.private.contains_key(*k) && !before.public.contains_key(*k))
        .collect();
    private.sort();
    for k in private {
        let kind = match k.contains('@') {
            true => Kind::Release,
            false => Kind::BrandPublished,
        };
        let key_paths = after.private[k].resources.keys().cloned().collect();
        out.events
            .push(event(kind, k, true, key_paths, after, public_url));
    }
    if !paths.is_empty() {
        paths.extend(LISTS.iter().map(|p| p.to_string()));
    }
    out.paths = paths.into_iter().collect();
    out
}

/// The event `kind` about brand key `key`.
fn event(
    kind: Kind,
    key: &str,
    private: bool,
    mut changed_paths: Vec<String>,
    after: &Seen,
    public_url: &str,
) -> Event {
    changed_paths.sort();
    let (slug, version) = match key.split_once('@') {
        Some((s, v)) => (s.to_string(), Some(v.to_string())),
        None => (key.to_string(), None),
    };
    let view = |k: &str| {
        after
            .public
            .get(k)
            .or_else(|| private.then(|| after.private.get(k)).flatten())
            .and_then(|k| k.model.clone())
    };
    let this = view(key);
    // The release before this one, for the verdict and the compare link.
    let previous = version.as_deref().and_then(|v| {
        let v = semver::Version::parse(v).ok()?;
        let prefix = format!("{slug}@");
        after
            .public
            .keys()
            .chain(after.private.keys().filter(|_| private))
            .filter_map(|k| k.strip_prefix(&prefix))
            .filter_map(|o| Some((semver::Version::parse(o).ok()?, o)))
            .filter(|(o, _)| *o < v)
            .max()
            .map(|(_, o)| o.to_string())
    });
    let compared = match (&previous, &this) {
        (Some(p), Some(t)) => view(&format!("{slug}@{p}")).map(|p| (p, t.clone())),
        _ => None,
    };
    let id = {
        use sha2::{Digest, Sha256};
        let input = this.as_ref().map(|m| m.input).unwrap_or_default();
        let mut h = Sha256::new();
        for part in [kind.as_str().as_bytes(), key.as_bytes(), &input[..]] {
            h.update(part);
            h.update([0]);
        }
        let d = h.finalize();
        let hex: String = d[..12].iter().map(|b| format!("{b:02x}")).collect();
        format!("evt_{hex}")
    };
    Event {
        id,
        kind,
        links: Links {
            page: format!("{public_url}{}", crate::paths::brand(key)),
            compare: previous
                .as_ref()
                .zip(version.as_ref())
                .map(|(p, v)| format!("{public_url}{}", crate::paths::compare(&slug, p, v, ""))),
        },
        brand: slug,
        version,
        verdict: None,
        private,
        changed_paths,
        generation: after.generation,
        compared,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resources(paths: &[&str]) -> Arc<Resources> {
        let r = Arc::new(crate::snapshot::Resource::with_effort(
            "text/plain",
            b"x".to_vec(),
            crate::snapshot::CachePolicy::NoStore,
            crate::snapshot::Effort::None,
        ));
        Arc::new(paths.iter().map(|p| (p.to_string(), r.clone())).collect())
    }

    fn seen(generation: u64, public: &[(&str, &Arc<Resources>)], private: &[&str]) -> Seen {
        let key = |r: &Arc<Resources>| Key {
            resources: r.clone(),
            model: None,
        };
        Seen {
            ready: true,
            generation,
            public: public
                .iter()
                .map(|(k, r)| (k.to_string(), key(r)))
                .collect(),
            private: private
                .iter()
                .map(|k| (k.to_string(), key(&resources(&[]))))
                .collect(),
        }
    }

    #[test]
    fn only_brands_with_a_new_map_are_purged_with_the_lists() {
        let acme = resources(&["/brand/acme/tokens.css", "/brand/acme"]);
        let zen = resources(&["/brand/zen/tokens.css"]);
        let acme2 = resources(&["/brand/acme/tokens.css", "/brand/acme"]);
        let before = seen(1, &[("acme", &acme), ("zen", &zen)], &[]);
        let after = seen(2, &[("acme", &acme2), ("zen", &zen)], &[]);
        let p = published(&before, &after, "https://b.example");
        assert_eq!(
            p.paths,
            [
                "/",
                "/brand/acme",
                "/brand/acme/tokens.css",
                "/brands.json",
                "/llms.txt"
            ]
        );
        assert!(p.events.is_empty(), "an edit is no event");
        // The same generation swapped again (codings added): nothing.
        let again = seen(2, &[("acme", &acme), ("zen", &zen)], &[]);
        assert!(published(&after, &again, "").paths.is_empty());
    }

    #[test]
    fn a_new_tag_a_lift_a_removal_and_a_private_release_are_events() {
        let r = resources(&["/brand/acme@1.1.0/tokens.css"]);
        let acme = resources(&["/brand/acme"]);
        let before = seen(1, &[("acme", &acme)], &["acme@1.1.0"]);
        let after = seen(2, &[("acme@1.1.0", &r)], &["acme@2.0.0"]);
        let p = published(&before, &after, "https://b.example");
        let kinds: Vec<_> = p
            .events
            .iter()
            .map(|e| (e.kind, e.brand.as_str(), e.version.as_deref(), e.private))
            .collect();
        assert_eq!(
            kinds,
            [
                (Kind::BrandRemoved, "acme", None, false),
                (Kind::EmbargoLifted, "acme", Some("1.1.0"), false),
                (Kind::Release, "acme", Some("2.0.0"), true),
            ]
        );
        assert_eq!(p.events[1].links.page, "https://b.example/brand/acme@1.1.0");
        // Ids are the same whoever computes them, and differ by event.
        let again = published(&before, &after, "https://b.example");
        assert_eq!(p.events[1].id, again.events[1].id);
        assert_ne!(p.events[0].id, p.events[1].id);
    }

    #[test]
    fn the_first_build_announces_nothing() {
        let acme = resources(&["/brand/acme"]);
        let after = seen(1, &[("acme", &acme)], &[]);
        let p = published(&Seen::default(), &after, "");
        assert!(p.paths.is_empty() && p.events.is_empty());
    }

    #[test]
    fn a_private_prefix_marks_a_target() {
        assert_eq!(
            Target::parse("private:https://ci.example/hook"),
            Target {
                url: "https://ci.example/hook".into(),
                private: true
            }
        );
        assert!(!Target::parse("https://x.example").private);
    }
}
