//! What brand.json's `tokens` member says (DESIGN 17): where a brand's
//! tokens are, read before the rest of brand.json. Both the one-brand
//! reading (`named`) and a family's (`resolved`) start here. And what its
//! `naming` says: the names those tokens publish as.

use crate::spec::diag::{Code, Diagnostic, FileDiags};
use crate::spec::files::BrandFiles;
use crate::spec::formats::Format;
use serde_json::Value;

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
    let Some(doc) = files
        .get("brand.json")
        .and_then(|b| brand_json_saying(b, "tokens"))
    else {
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
                    d.push(Code::InvalidTokensSetting, "/tokens", "`tokens` needs a `path`: the file of the brand's tokens, in the brand folder");
                    None
                }
            };
            let format = match o.get("format") {
                None => Some(None),
                Some(Value::String(f)) => match Format::parse(f) {
                    Some(f) => Some(Some(f)),
                    None => {
                        d.push(
                            Code::UnknownFormat,
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
                    d.push(
                        Code::UnknownFormat,
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
            d.push(
                Code::InvalidTokensSetting,
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

/// [`brand_json`], where it may say `key` at all: most brand.json files
/// say neither `"diagnostics"` nor `"tokens"`, and looking for the key
/// costs a fraction of a parse, which three readers of every brand at
/// every build would pay. A document with an escape (`"tok\u0065ns"`)
/// is parsed, so no spelling of the key is missed.
pub fn brand_json_saying(bytes: &[u8], key: &str) -> Option<Value> {
    let quoted = format!("\"{key}\"");
    let may = memchr::memmem::find(bytes, quoted.as_bytes()).is_some()
        || memchr::memmem::find(bytes, b"\\u").is_some();
    may.then(|| brand_json(bytes)).flatten()
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
        d.push(
            Code::InvalidTokensSetting,
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

/// What to say when brand.json's `tokens` names `path` and no file is
/// there: a folder, when one is (`advice` says what to name instead), or
/// nothing at all.
pub(super) fn not_a_file(files: &BrandFiles, path: &str, advice: &str) -> Option<Diagnostic> {
    let slug = files.slug.as_str();
    // A file the source refused (too large, a link out, not YAML it can
    // read) is there, and its own problem says why: no second word.
    if super::named_in(&files.problems, &format!("{slug}/{path}")) {
        return None;
    }
    let folder = files
        .files()
        .keys()
        .any(|f| f.starts_with(&format!("{path}/")));
    let (code, message) = match folder {
        true => (
            Code::InvalidTokensSetting,
            format!("brand.json's `tokens` names the folder `{path}`; {advice}"),
        ),
        false => (
            Code::MissingFile,
            format!("brand.json's `tokens` names `{path}`, which is not in the brand folder"),
        ),
    };
    Some(crate::spec::diag::file_diagnostic(
        code,
        slug,
        &format!("{slug}/brand.json"),
        message,
    ))
}

/// brand.json's `naming.prefix` must be able to start a custom property
/// name as the team's build writes one: lowercase words joined by hyphens.
pub(super) fn check_naming(doc: &crate::spec::model::BrandDoc, d: &mut FileDiags<'_>) {
    if let Some(p) = doc.naming.prefix.as_deref().filter(|p| !super::is_slug(p)) {
        let m = format!("prefix {} is not lowercase words joined by hyphens (`ds`, `pf-t`); write it without `--` or the hyphen after it", crate::spec::diag::quoted(p));
        d.push(Code::InvalidPrefix, "/naming/prefix", m);
    }
}

#[cfg(test)]
mod tests {
    use super::brand_json_saying;

    #[test]
    fn a_key_is_looked_for_before_parsing_and_found_however_spelled() {
        let plain = br#"{"name": "A", "tokens": "t.json"}"#;
        let escaped = br#"{"name": "A", "tok\u0065ns": "t.json"}"#;
        let without = br#"{"name": "A", "version": "1.0.0"}"#;
        let tokens = |b: &[u8]| brand_json_saying(b, "tokens").map(|d| d["tokens"].clone());
        assert_eq!(tokens(plain), Some("t.json".into()));
        assert_eq!(tokens(escaped), Some("t.json".into()));
        assert_eq!(brand_json_saying(without, "tokens"), None);
    }
}
