//! A reading plan whose sets are read as one tree
//! ([`crate::spec::formats::plan`]), named by brand.json's `tokens` or kept
//! as `tokens.resolver.json`: its files read and limited as any token
//! file, put together as the Tokens Studio document the plan stands for,
//! and read as a synced folder is, each diagnostic in its file.

use super::{enforce_limits, read_json, read_studio};
use crate::spec::diag::{Code, Diagnostic, FileDiags};
use crate::spec::files::BrandFiles;
use crate::spec::formats::plan;
use crate::spec::tokens::resolver::brand_path;
use crate::spec::tokens::TokenSet;
use serde_json::Value;

/// The tokens of the plan `doc` at `path` in the brand folder (`text` as
/// written).
pub(in crate::spec::brand) fn read_plan(
    files: &BrandFiles,
    path: &str,
    doc: &Value,
    text: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let slug = files.slug.as_str();
    let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
    let full = |p: &str| match dir {
        "" => brand_path(p),
        dir => brand_path(&format!("{dir}/{p}")),
    };
    let mut read_ok = true;
    let mut problems = Vec::new();
    let (studio, mut sources) = plan::studio_doc(
        doc,
        |p| {
            let file = full(p).ok()?;
            let bytes = files.get(&file)?;
            let (mut v, t) = read_json(bytes, slug, &format!("{slug}/{file}"), out)?;
            let mut d = FileDiags::new(slug, format!("{slug}/{file}"));
            enforce_limits(&mut v, &mut d);
            read_ok &= !d.has_errors();
            d.finish(Some(t), out);
            Some((v, t.to_string()))
        },
        &mut problems,
    );
    // Each file by its path in the brand folder.
    for s in &mut sources {
        if let Ok(file) = full(&s.path) {
            s.path = file;
        }
    }
    let mut d = FileDiags::new(slug, format!("{slug}/{path}"));
    for (at, why) in problems {
        d.push(Code::UnknownResolverReference, &at, why);
    }
    let broken = d.has_errors();
    d.finish(Some(text), out);
    if broken || !read_ok {
        return None;
    }
    read_studio(files, path, &studio, sources, out)
}
