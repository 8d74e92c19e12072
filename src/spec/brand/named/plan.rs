//! A reading plan whose sets are read as one tree
//! ([`crate::spec::formats::plan`]), named by brand.json's `tokens` or kept
//! as `tokens.resolver.json`: its files read and limited as any token
//! file, put together as the Tokens Studio document the plan stands for,
//! and read as a synced folder is, each diagnostic in its file.

use super::{enforce_limits, read_json, read_named, read_studio};
use crate::spec::diag::{Code, Diagnostic, FileDiags};
use crate::spec::files::BrandFiles;
use crate::spec::formats::plan;
use crate::spec::formats::{self, Format};
use crate::spec::tokens::resolver::brand_path;
use crate::spec::tokens::TokenSet;
use serde_json::Value;

/// The resolver document at `path`: a reading plan is read as it says
/// (its sets one tree, or one whole file in its format), any other as a
/// resolver, its sources in `format` or each in its own. Parsed once.
pub(super) fn read_resolver_at(
    files: &BrandFiles,
    path: &str,
    format: Option<Format>,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let slug = files.slug.as_str();
    let file = format!("{slug}/{path}");
    let (mut doc, text) = read_json(files.get(path)?, slug, &file, out)?;
    let mut d = FileDiags::new(slug, file);
    enforce_limits(&mut doc, &mut d);
    if formats::plan::is_one_tree(&doc) {
        d.finish(Some(text), out);
        return named_as_built(&doc, read_plan(files, path, &doc, text, out));
    }
    let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let whole = formats::plan::whole_file(&doc).and_then(|(file, format)| {
        let file = match dir {
            "" => file,
            dir => format!("{dir}/{file}"),
        };
        Some((brand_path(&file).ok()?, format))
    });
    if let Some((file, format)) = whole {
        d.finish(Some(text), out);
        return named_as_built(&doc, read_named(files, &file, Some(format), out));
    }
    // Names and units a plan or a config's resolver says, kept before the
    // document goes to the resolver's reader.
    let naming = doc.pointer("/$extensions/app.marque").cloned();
    let set = super::resolved::read_resolver(files, path, doc, text, None, d, format, out);
    let mut set = set?;
    formats::sd_config::apply_naming(naming.as_ref(), &mut set);
    Some(set)
}

/// `set`, named and sized as the plan (or a config's resolver) says the
/// team's build does: its CSS prefix, and `size/pxToRem`.
fn named_as_built(doc: &Value, set: Option<TokenSet>) -> Option<TokenSet> {
    let mut set = set?;
    formats::sd_config::apply_naming(doc.pointer("/$extensions/app.marque"), &mut set);
    Some(set)
}

/// The tokens of the plan `doc` at `path` in the brand folder (`text` as
/// written).
pub(super) fn read_plan(
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
    let mut seen: std::collections::HashMap<String, Option<(Value, String)>> = Default::default();
    let mut problems = Vec::new();
    let (studio, mut sources) = plan::studio_doc(
        doc,
        |p| {
            let file = full(p).ok()?;
            // A file several sets read parts of is read (and what is
            // wrong with it said) once, whether or not it can be read.
            if let Some(read) = seen.get(&file) {
                return read.clone();
            }
            let read = files.get(&file).and_then(|bytes| {
                let (mut v, t) = read_json(bytes, slug, &format!("{slug}/{file}"), out)?;
                let mut d = FileDiags::new(slug, format!("{slug}/{file}"));
                enforce_limits(&mut v, &mut d);
                read_ok &= !d.has_errors();
                d.finish(Some(t), out);
                Some((v, t.to_string()))
            });
            seen.insert(file, read.clone());
            read
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
