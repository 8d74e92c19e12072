//! IO: read a content repository into memory. A source's only job is to
//! turn a folder (or, later, one git commit) into `Content`: bytes keyed by
//! path, plus diagnostics for what could not be read. Everything after that
//! is pure.

pub mod dir;
pub mod git;

use crate::spec::{BrandFiles, Diagnostic};

/// Every brand folder of a content repository, read into memory.
#[derive(Debug, Clone, Default)]
pub struct Content {
    pub brands: Vec<BrandFiles>,
    /// Problems found while reading (a symlink escaping its brand, an oversized asset).
    pub diagnostics: Vec<Diagnostic>,
    /// Released versions, when the content comes from (or lives in) git.
    pub pinned: Vec<git::Pinned>,
}

/// Reads a content folder; when it lies in a git work tree, its tags add
/// releases (changelog and pinned versions).
pub fn read_folder(dir: &std::path::Path) -> anyhow::Result<Content> {
    let mut content = dir::read_content(dir)?;
    if let Some((repo, prefix)) = git::discover(dir) {
        git::add_history(&repo, &prefix, &mut content);
    }
    Ok(content)
}
