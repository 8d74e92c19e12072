//! A resolver's source files read into its input: each parsed and
//! limited, its format detected, and read by its format's reader. Read in
//! two passes, as Theo's aliases need: a Theo alias is published as one
//! token for the whole brand, so what every file says of it (its values,
//! the types of the props naming it) is known before any is converted.

use super::{enforce_limits, read_json, Input};
use crate::spec::diag::{Code, Diagnostic, FileDiags};
use crate::spec::files::BrandFiles;
use crate::spec::formats::{self, Format};
use serde_json::Value;

/// A source parsed, before its reader reads it.
struct Parsed<'t> {
    path: String,
    doc: Value,
    text: &'t str,
    fd: FileDiags<'t>,
    format: Option<Format>,
}

/// Reads the files `named` into `input`, each in `format` or the one its
/// content shows; returns the Style Dictionary sources as written (the
/// notes comments name).
pub(super) fn read_sources<'t>(
    input: &mut Input<'t>,
    files: &'t BrandFiles,
    named: Vec<String>,
    format: Option<Format>,
    planned: &std::collections::BTreeMap<String, Format>,
    out: &mut Vec<Diagnostic>,
) -> Vec<(String, Value)> {
    let slug = files.slug.as_str();
    let mut notes = Vec::new();
    let mut parsed = Vec::new();
    for path in named {
        let Some(bytes) = files.get(&path) else {
            continue;
        };
        let file = format!("{slug}/{path}");
        let Some((mut doc, text)) = read_json(bytes, slug, &file, out) else {
            continue;
        };
        let mut fd = FileDiags::new(slug, file);
        enforce_limits(&mut doc, &mut fd);
        // A source in another format is read by its reader first.
        let format = planned.get(&path).copied().or(format);
        let format = match format.map_or_else(|| formats::detect(&doc), Ok) {
            Ok(f) => Some(f),
            Err(why) => {
                fd.push(Code::UndetectedFormat, "", why);
                None
            }
        };
        if format == Some(Format::StyleDictionary) {
            notes.push((path.clone(), doc.clone()));
        }
        if format == Some(Format::Theo) {
            let file = |p: &str| files.get(p).and_then(|b| serde_json::from_slice(b).ok());
            formats::theo::import_aliases(&mut doc, &path, &file, &mut fd);
        }
        parsed.push(Parsed {
            path,
            doc,
            text,
            fd,
            format,
        });
    }
    let theo = parsed.iter().filter(|p| p.format == Some(Format::Theo));
    let plan = formats::theo::plan(theo.map(|p| &p.doc));
    for p in parsed {
        let Parsed {
            path,
            doc,
            text,
            mut fd,
            format,
        } = p;
        let converted = match format {
            Some(Format::Dtcg) => {
                input.files.insert(path.clone(), doc);
                None
            }
            Some(Format::Theo) => Some(formats::theo::read_with(&doc, &plan, &mut fd)),
            Some(f) => formats::convert(f, &doc, &mut fd),
            None => None,
        };
        if let Some(c) = converted {
            input.files.insert(path.clone(), c.doc.clone());
            input.converted.insert(path, c);
        }
        input.texts.insert(fd.file.clone(), text);
        fd.finish(Some(text), out);
    }
    notes
}
