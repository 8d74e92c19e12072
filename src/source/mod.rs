//! IO: read a content repository into memory. A source's only job is to
//! turn a folder or one git commit into [`Content`]: bytes keyed by path,
//! plus the problems found while reading. Everything after that is pure.
//!
//! Both sources keep what they read, so a reload reads again only the brand
//! folders that changed ([`dir::DirSource`], [`git::GitSource`]).

pub mod dir;
pub mod git;

use crate::spec::release::Release;
use crate::spec::{BrandFiles, Diagnostic};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Every brand folder of a content repository, read into memory.
#[derive(Debug, Clone, Default)]
pub struct Content {
    pub brands: Vec<Arc<BrandFiles>>,
    /// Problems that belong to no brand folder.
    pub diagnostics: Vec<Diagnostic>,
    /// Released versions, when the content comes from (or lives in) git.
    pub pinned: Vec<Arc<Pinned>>,
    /// Released versions left out of every other version's renders at the
    /// moment of a build (under embargo, or private while their brand is
    /// public now; see `build::releases::withheld_left_out`): still built
    /// at `<slug>@<version>`, for the readers who may see them. Empty as
    /// a source reads the content.
    pub withheld: Vec<Arc<Pinned>>,
    /// How many brand folders were read anew for this content (the others
    /// were kept from the read before).
    pub read: usize,
}

impl Content {
    /// `self`, with the diagnostic `hint` gives, if any.
    fn with_hint(mut self, hint: impl FnOnce() -> Option<Diagnostic>) -> Content {
        self.diagnostics.extend(hint());
        self
    }
}

/// A released version's files, to render at `/brand/<slug>@<version>/…`.
#[derive(Debug, Clone)]
pub struct Pinned {
    pub release: Release,
    pub files: Arc<BrandFiles>,
}

/// Files at the top of a brand folder that marque reads.
pub const BRAND_FILES: &[&str] = &[
    "brand.json",
    "tokens.json",
    "tokens.resolver.json",
    "BRAND_BOOK.md",
];

/// True when a brand's folder holds token files beyond the ones read by
/// name: it has a resolver document, or its brand.json names its tokens
/// (`"tokens"`, DESIGN 17). Both folder and git readers then read its
/// JSON files.
pub fn reads_token_files(files: &std::collections::BTreeMap<String, bytes::Bytes>) -> bool {
    files.contains_key(crate::spec::tokens::resolver::RESOLVER_FILE)
        || files
            .get("brand.json")
            .and_then(|b| crate::spec::brand::brand_json_saying(b, "tokens"))
            .is_some_and(|doc| doc.get("tokens").is_some())
}

/// The one rule for paths that are never content, used by the folder
/// reader, the git reader and the watcher alike. `parts` is a path relative
/// to the content root, split into its components.
///
/// - At the top, folders starting with `.` or `_`, and `target` (a Rust or
///   Node build folder next to the content), are not brands.
/// - Anywhere, names that editors and tools leave behind are not content.
pub fn is_ignored(parts: &[&str]) -> bool {
    let Some(first) = parts.first() else {
        return false;
    };
    first.starts_with('_') || *first == "target" || parts.iter().any(|p| is_scratch_name(p))
}

/// True for names editors and tools leave behind, which are never content:
/// dot files (`.git`, `.DS_Store`, vim's `.x.swp`), backups and temporaries.
/// A folder that tools keep beside content and that is never content:
/// hidden ones (`.git`), `node_modules`, `target`. The walks that look for
/// token files and for brand folders deeper down skip them.
pub fn is_tool_folder(name: &str) -> bool {
    name.starts_with('.') || name == "node_modules" || name == "target"
}

pub fn is_scratch_name(name: &str) -> bool {
    name.starts_with('.')
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.ends_with(".tmp")
        || name.ends_with("___jb_tmp___")
        || name.ends_with("___jb_old___")
        || name == "4913"
}

/// Releases of each brand, newest first, keyed by slug.
pub type Releases = BTreeMap<String, Arc<[Release]>>;

/// Attaches each brand's releases (from tags) to its files.
/// What to say when a source finds no brand folder where it looks: where
/// brand folders are instead (`found`: the paths of folders holding a
/// brand.json, relative to the repository or folder root, deepest first
/// excluded), and the option that serves them. `looked` names where it
/// looked; `option` turns the folder found into the option to give.
pub fn no_brands_here(
    looked: &str,
    found: &[String],
    option: impl Fn(&str) -> String,
) -> Diagnostic {
    let parents: std::collections::BTreeSet<&str> = found
        .iter()
        .map(|p| p.rsplit_once('/').map_or("", |(parent, _)| parent))
        .collect();
    let mut d = crate::spec::diag::file_diagnostic(
        crate::spec::diag::Code::NoBrandFolder,
        "",
        looked,
        format!(
            "no brand folder in {looked}: a brand folder is a folder at the top that holds brand.json"
        ),
    );
    if let Some(first) = parents.iter().next() {
        let mut message = format!(
            "no brand folder in {looked}, but {} brand folder(s) under `{}`: {}",
            found.len(),
            if first.is_empty() { "." } else { first },
            option(first)
        );
        if parents.len() > 1 {
            message.push_str(&format!(" (and {} other folder(s))", parents.len() - 1));
        }
        d.code = crate::spec::diag::Code::BrandFoldersElsewhere;
        d.message = message;
    }
    d
}

/// How deep below the root a brand folder is looked for, to point at it.
pub const HINT_DEPTH: usize = 4;

fn with_releases(files: &Arc<BrandFiles>, releases: &Releases) -> Arc<BrandFiles> {
    let want: Arc<[Release]> = releases.get(&files.slug).cloned().unwrap_or_default();
    if files.releases == want {
        return files.clone();
    }
    let mut f = BrandFiles::clone(files);
    f.releases = want;
    Arc::new(f)
}

/// Reads a content folder once (for `check`, `build` and `changelog`); when
/// it lies in a git work tree, its tags add releases.
pub fn read_folder(dir: &std::path::Path) -> anyhow::Result<Content> {
    let mut source = dir::DirSource::new(dir);
    source.read_all()?;
    Ok(source.content())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rule_says_what_is_never_content() {
        let table: &[(&str, bool)] = &[
            ("acme/brand.json", false),
            ("acme/assets/logo.svg", false),
            ("acme", false),
            (".git/index", true),
            ("acme/.git/HEAD", true),
            ("_drafts/brand.json", true),
            (".hidden/brand.json", true),
            ("target/debug/x", true),
            ("acme/target/x", false),
            ("acme/.brand.json.swp", true),
            ("acme/brand.json~", true),
            ("acme/4913", true),
            ("acme/brand.json___jb_tmp___", true),
            ("acme/assets/.DS_Store", true),
        ];
        for (path, want) in table {
            let parts: Vec<&str> = path.split('/').collect();
            assert_eq!(is_ignored(&parts), *want, "{path}");
        }
    }
}
