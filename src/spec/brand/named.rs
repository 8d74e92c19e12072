//! A brand whose `brand.json` names its tokens (DESIGN 17): `"tokens":
//! "<path>"` or `{"path": "<path>", "format": "<format>"}`, a file in the
//! brand folder in any format marque reads. A resolver document is read as
//! one ([`super::resolved`]), with its sources in any format; any other
//! file is read by its format's reader, then as DTCG tokens, every
//! diagnostic placed in the file as it is written.

use super::{check_css_names, enforce_limits, read_json};
use crate::spec::diag::{file_error, Diagnostic, FileDiags};
use crate::spec::files::BrandFiles;
use crate::spec::formats::{self, Format};
use crate::spec::tokens::{parse_tokens, TokenSet};
use serde_json::Value;
use std::collections::BTreeMap;

/// Where a brand's tokens are.
pub(super) enum Named {
    /// Not named: `tokens.json` or `tokens.resolver.json`.
    Default,
    /// A file of the brand folder, and its format when brand.json gives it.
    File {
        path: String,
        format: Option<Format>,
    },
    /// Named wrongly (reported).
    Broken,
}

/// What `brand.json`'s `tokens` member names. A brand.json that cannot be
/// read names nothing here; reading it reports why.
pub(super) fn named(files: &BrandFiles, out: &mut Vec<Diagnostic>) -> Named {
    let slug = files.slug.as_str();
    let Some(doc) = files.get("brand.json").and_then(|b| brand_json(b)) else {
        return Named::Default;
    };
    let Some(tokens) = doc.get("tokens") else {
        return Named::Default;
    };
    let text = std::str::from_utf8(files.get("brand.json").map_or(&[][..], |b| &b[..])).ok();
    let mut d = FileDiags::new(slug, format!("{slug}/brand.json"));
    let named = match tokens {
        Value::String(path) => {
            checked_path(path, "/tokens", &mut d).map(|path| Named::File { path, format: None })
        }
        Value::Object(o) => {
            let path = match o.get("path") {
                Some(Value::String(p)) => checked_path(p, "/tokens/path", &mut d),
                _ => {
                    d.error("/tokens", "`tokens` needs a `path`: the file of the brand's tokens, in the brand folder");
                    None
                }
            };
            let format = match o.get("format") {
                None => Some(None),
                Some(Value::String(f)) => match Format::parse(f) {
                    Some(f) => Some(Some(f)),
                    None => {
                        d.error(
                            "/tokens/format",
                            format!(
                                "unknown format {}; the formats are {}",
                                crate::spec::diag::quoted(f),
                                names()
                            ),
                        );
                        None
                    }
                },
                Some(_) => {
                    d.error(
                        "/tokens/format",
                        format!("`format` must be one of {}", names()),
                    );
                    None
                }
            };
            match (path, format) {
                (Some(path), Some(format)) => Some(Named::File { path, format }),
                _ => None,
            }
        }
        _ => {
            d.error(
                "/tokens",
                "`tokens` must be a path in the brand folder, or {\"path\", \"format\"}",
            );
            None
        }
    };
    d.finish(text, out);
    named.unwrap_or(Named::Broken)
}

/// brand.json parsed, when it is within the budget on JSON values
/// (reading it reports what is wrong otherwise).
pub fn brand_json(bytes: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(bytes).ok()?;
    (crate::spec::json::count_values(text) <= crate::spec::limits::MAX_JSON_VALUES)
        .then(|| serde_json::from_str(text).ok())
        .flatten()
}

fn names() -> String {
    Format::ALL
        .iter()
        .map(|f| f.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A path inside the brand folder: relative, no `..`, no backslash.
fn checked_path(path: &str, at: &str, d: &mut FileDiags<'_>) -> Option<String> {
    let bad = path.is_empty()
        || path.starts_with('/')
        || path.contains('\\')
        || path
            .split('/')
            .any(|s| s == ".." || s == "." || s.is_empty());
    if bad {
        d.error(
            at,
            format!(
                "{} is no path inside the brand folder (relative, without `..`)",
                crate::spec::diag::quoted(path)
            ),
        );
        return None;
    }
    Some(path.to_string())
}

/// The tokens of the file at `path`, read in `format` or the one its
/// content shows.
pub(super) fn read_named(
    files: &BrandFiles,
    path: &str,
    format: Option<Format>,
    out: &mut Vec<Diagnostic>,
) -> Option<TokenSet> {
    let slug = files.slug.as_str();
    let file = format!("{slug}/{path}");
    let Some(bytes) = files.get(path) else {
        let folder = files
            .files()
            .keys()
            .any(|f| f.starts_with(&format!("{path}/")));
        let message = match folder {
            true => format!("brand.json's `tokens` names the folder `{path}`; a folder of token files is read for Tokens Studio and Figma's export, which this version of marque does not read yet: name a file, or a tokens.resolver.json that lists the files"),
            false => format!("brand.json's `tokens` names `{path}`, which is not in the brand folder"),
        };
        out.push(file_error(slug, &format!("{slug}/brand.json"), message));
        return None;
    };
    let (mut doc, text) = read_json(bytes, slug, &file, out)?;
    let mut d = FileDiags::new(slug, file.clone());
    enforce_limits(&mut doc, &mut d);
    if doc.get("resolutionOrder").is_some() {
        // The format brand.json gives is its sources'.
        d.finish(Some(text), out);
        return super::resolved::read_resolved(files, path, format, out);
    }
    let format = match format.map_or_else(|| formats::detect(&doc), Ok) {
        Ok(f) => f,
        Err(why) => {
            d.error("", why);
            d.finish(Some(text), out);
            return None;
        }
    };
    let converted = formats::convert(format, &doc, &mut d);
    d.finish(Some(text), out);
    let converted = converted?;
    // A reader that finds modes makes a resolver (Figma's collections).
    if converted.doc.get("resolutionOrder").is_some() {
        let d = FileDiags::new(slug, file.clone());
        let doc = converted.doc.clone();
        return super::resolved::read_resolver(
            files,
            path,
            doc,
            text,
            Some(&converted),
            d,
            None,
            out,
        );
    }
    let mut p = FileDiags::new(slug, file.clone());
    let mut set = parse_tokens(&converted.doc, &mut p);
    if let Some(set) = &set {
        check_css_names(set, &mut p);
    }
    let texts = BTreeMap::from([(file.clone(), text)]);
    p.finish_mapped(
        |pointer| (file.clone(), converted.source_pointer(pointer)),
        &texts,
        |_| {},
        out,
    );
    if let Some(set) = set.as_mut() {
        for t in &mut set.tokens {
            t.file = Some(path.to_string());
            t.pointer = converted.source_pointer(&t.pointer);
        }
    }
    set
}
