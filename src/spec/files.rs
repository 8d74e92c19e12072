//! The input of the pure core: one brand folder's files as bytes, with what
//! the source found while reading them, its releases and its revision.

use super::release::Release;
use super::Diagnostic;
use crate::bodies::Bodies;
use bytes::Bytes;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The files of one brand folder, keyed by path relative to the folder
/// (`brand.json`, `assets/logo.svg`), as read by a source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrandFiles {
    pub slug: String,
    files: BTreeMap<String, Bytes>,
    /// The files held as JSON that were written in another syntax (see
    /// [`super::syntax`]), as written: what a diagnostic's frame shows.
    originals: BTreeMap<String, Bytes>,
    /// Problems found while reading the folder: a file that is not a regular
    /// file, one over the size limit, a link that leaves the folder.
    pub problems: Vec<Diagnostic>,
    /// Releases from git tags, newest first (empty outside git).
    pub releases: Arc<[Release]>,
    /// Git mode: the object id of the brand folder's tree, which changes
    /// exactly when the brand's files change.
    pub revision: Option<String>,
    /// Hash of the files and problems, computed once when read.
    files_digest: [u8; 32],
    /// What brand.json's `"extends"` says, computed once when read.
    extends: Option<String>,
    /// What the build found this brand extends (DESIGN.md section 18):
    /// set before the brand is checked, part of its digest.
    pub lineage: Lineage,
    /// The brands that extend this one directly, as the build found them
    /// (public ones only, see `build::family`): part of its digest, since
    /// its family.json lists them.
    pub dependents: Arc<[Dependent]>,
}

/// A brand that extends another directly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dependent {
    pub slug: String,
    /// The range it names its parent by, if any.
    pub range: Option<String>,
    /// Its own version, as its brand.json says.
    pub version: String,
}

/// What a brand that says `"extends"` is built over: its parents as the
/// build chose them, or why there are none to build over. Set by the
/// build (head brands) or the git reader (releases), never by a source
/// reading a folder.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Lineage {
    /// It extends no brand, or no one has looked yet.
    #[default]
    None,
    /// Its parents, nearest first.
    Parents(Arc<[Parent]>),
    /// Its `extends` cannot be followed: the error to give at the
    /// `extends` line.
    Broken(super::diag::Code, String),
}

/// One parent of a brand, as the build chose it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parent {
    pub files: Arc<BrandFiles>,
    /// The range its child names it with (`^1.2`), if any.
    pub range: Option<String>,
    /// The release chosen for the range; `None` for a parent's head.
    pub release: Option<semver::Version>,
}

impl Lineage {
    /// The parents, nearest first (none unless [`Lineage::Parents`]).
    pub fn parents(&self) -> &[Parent] {
        match self {
            Lineage::Parents(p) => p,
            _ => &[],
        }
    }

    fn digest(&self, h: &mut Sha256) {
        match self {
            Lineage::None => {}
            Lineage::Parents(parents) => {
                for p in parents.iter() {
                    h.update(b"parent");
                    h.update(p.files.slug.as_bytes());
                    h.update([0]);
                    h.update(p.files.files_digest);
                    h.update(p.range.as_deref().unwrap_or("").as_bytes());
                    h.update([0]);
                    h.update(
                        p.release
                            .as_ref()
                            .map(|v| v.to_string())
                            .unwrap_or_default(),
                    );
                    h.update([0]);
                }
            }
            Lineage::Broken(code, message) => {
                h.update(code.as_str().as_bytes());
                h.update(message.as_bytes());
            }
        }
    }
}

impl BrandFiles {
    /// A brand's files, each held in `bodies` once with every body of the
    /// same bytes.
    pub fn new(
        slug: impl Into<String>,
        files: BTreeMap<String, Bytes>,
        problems: Vec<Diagnostic>,
        bodies: &Bodies,
    ) -> BrandFiles {
        let mut h = Sha256::new();
        let slug = slug.into();
        let mut problems = problems;
        let mut originals = BTreeMap::new();
        // Each file is held once with every body of the same bytes: an
        // asset and the body that serves it, a release's and the current.
        // A data file in JSONC, JSON5 or YAML is held as its JSON; each is
        // read on its own, so where the runner spreads work
        // (`limits::stop::spreading`), they are read at once.
        let files: Vec<(String, Bytes)> = files.into_iter().collect();
        let read = super::limits::stop::each(
            &files,
            |(path, bytes)| {
                let mut notes = Vec::new();
                let json = super::syntax::json_of_noting(path, bytes, &mut notes);
                (json, notes)
            },
            |_| false,
        );
        let files: BTreeMap<String, Bytes> = files
            .into_iter()
            .zip(read)
            .filter_map(|((path, bytes), read)| {
                let (json, notes) = read?;
                problems.extend(notes.iter().map(|n| n.warning(&slug, &path)));
                match json {
                    Ok(None) => Some((path, bytes)),
                    Ok(Some(json)) => {
                        originals.insert(path.clone(), bytes);
                        Some((path, Bytes::from(json)))
                    }
                    Err(e) => {
                        problems.push(e.diagnostic(&slug, &path));
                        None
                    }
                }
            })
            .map(|(path, bytes)| {
                let digest: [u8; 32] = Sha256::digest(&bytes).into();
                h.update((path.len() as u64).to_le_bytes());
                h.update(path.as_bytes());
                h.update(digest);
                (path, bodies.share(&bytes, &digest))
            })
            .collect();
        for p in &problems {
            h.update(p.to_string().as_bytes());
            h.update([0]);
        }
        let extends = files.get("brand.json").and_then(|b| extends_of(b));
        BrandFiles {
            slug,
            files,
            originals,
            problems,
            releases: Arc::from([]),
            revision: None,
            files_digest: h.finalize().into(),
            extends,
            lineage: Lineage::None,
            dependents: Arc::from([]),
        }
    }

    /// The slug of the brand this one extends, as brand.json's `"extends"`
    /// names it (`core`, or `core@^3.2` with a range of its releases):
    /// what the build follows so that a change to a parent reaches its
    /// children (DESIGN.md section 18). Validation is the model's.
    pub fn parent(&self) -> Option<&str> {
        let named = self.extends.as_deref()?;
        let slug = named.split('@').next()?.trim();
        (!slug.is_empty()).then_some(slug)
    }

    /// What `"extends"` names, whole: the parent's slug, and the range of
    /// its releases when one is given (`core`, or `core@^3.2`).
    pub fn extends(&self) -> Option<(String, Option<String>)> {
        let named = self.extends.as_deref()?;
        Some(match named.split_once('@') {
            Some((slug, range)) => (slug.trim().to_string(), Some(range.trim().to_string())),
            None => (named.to_string(), None),
        })
    }

    /// These files, built over `lineage`.
    pub fn with_lineage(&self, lineage: Lineage) -> BrandFiles {
        BrandFiles {
            lineage,
            ..self.clone()
        }
    }

    /// These files, with `releases` as their releases.
    pub fn with_releases(&self, releases: Arc<[crate::spec::release::Release]>) -> BrandFiles {
        BrandFiles {
            releases,
            ..self.clone()
        }
    }

    /// These files, with the brands that extend them.
    pub fn with_dependents(&self, dependents: Arc<[Dependent]>) -> BrandFiles {
        BrandFiles {
            dependents,
            ..self.clone()
        }
    }

    /// Builds files from `(path, text)` pairs, for tests and tools.
    pub fn from_texts<'a>(
        slug: &str,
        texts: impl IntoIterator<Item = (&'a str, &'a [u8])>,
    ) -> BrandFiles {
        let files = texts
            .into_iter()
            .map(|(p, b)| (p.to_string(), Bytes::copy_from_slice(b)))
            .collect();
        BrandFiles::new(slug, files, Vec::new(), Bodies::process())
    }

    pub fn files(&self) -> &BTreeMap<String, Bytes> {
        &self.files
    }

    pub fn get(&self, path: &str) -> Option<&Bytes> {
        self.files.get(path)
    }

    /// The file at `path` as its author wrote it (a YAML file as YAML,
    /// where [`BrandFiles::get`] gives its JSON): what a frame shows.
    pub fn source(&self, path: &str) -> Option<&Bytes> {
        self.originals.get(path).or_else(|| self.files.get(path))
    }

    /// Bytes held by all files.
    pub fn size(&self) -> usize {
        self.files.values().map(Bytes::len).sum()
    }

    /// A hash of everything that can change what is published for this
    /// brand: its files, the problems found reading them, its releases and
    /// its revision.
    pub fn digest(&self) -> [u8; 32] {
        let mut h = Sha256::new();
        h.update(self.files_digest);
        for r in self.releases.iter() {
            h.update(r.tag.as_bytes());
            h.update([0]);
            h.update(r.commit.as_bytes());
            h.update(r.date.to_string().as_bytes());
            for n in &r.notes {
                h.update(n.as_bytes());
                h.update([0]);
            }
            h.update([1]);
        }
        h.update(self.revision.as_deref().unwrap_or("").as_bytes());
        self.lineage.digest(&mut h);
        for d in self.dependents.iter() {
            h.update(b"dependent");
            for part in [&d.slug, d.range.as_deref().unwrap_or(""), &d.version] {
                h.update(part.as_bytes());
                h.update([0]);
            }
        }
        h.finalize().into()
    }
}

/// What `"extends"` says in a brand.json, if it says it. Most brand.json
/// files do not say `"extends"` and are not parsed here.
fn extends_of(brand_json: &[u8]) -> Option<String> {
    const KEY: &[u8] = b"\"extends\"";
    if !brand_json.windows(KEY.len()).any(|w| w == KEY) {
        return None;
    }
    #[derive(serde::Deserialize)]
    struct Head {
        #[serde(default)]
        extends: Option<serde_json::Value>,
    }
    let head: Head = serde_json::from_slice(brand_json).ok()?;
    let named = head.extends?.as_str()?.trim().to_string();
    (!named.is_empty()).then_some(named)
}
