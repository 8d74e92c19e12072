//! IO: read a content repository into memory. A source's only job is to
//! turn a folder (or, later, one git commit) into `Content`: bytes keyed by
//! path, plus diagnostics for what could not be read. Everything after that
//! is pure.

pub mod dir;

use crate::spec::{BrandFiles, Diagnostic};

/// Every brand folder of a content repository, read into memory.
#[derive(Debug, Clone, Default)]
pub struct Content {
    pub brands: Vec<BrandFiles>,
    /// Problems found while reading (a symlink escaping its brand, an oversized asset).
    pub diagnostics: Vec<Diagnostic>,
}
