//! The commands, one room each: `marque serve` (the default) and the
//! one-shot commands, which run the server's pipeline once and write to
//! the terminal or to files instead of answering requests.

pub mod build;
pub mod changelog;
pub mod check;
pub mod diff;
pub mod import;
pub mod lint;
pub mod serve;
pub mod token;

use crate::source::Content;
use crate::spec::Diagnostic;

/// The text of the file a diagnostic points into, for a frame.
pub fn source_of<'c>(content: &'c Content, d: &Diagnostic) -> Option<&'c str> {
    // A problem in a parent's file (a family) is in that brand's folder.
    let brand = d
        .inherited
        .as_ref()
        .map_or(d.brand.as_str(), |i| i.brand.as_str());
    let files = content.brands.iter().find(|b| b.slug == brand)?;
    let rel = d.file.strip_prefix(&format!("{brand}/"))?;
    std::str::from_utf8(files.source(rel)?).ok()
}
