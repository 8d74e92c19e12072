//! One brand, parsed and validated from its files: brand.json, tokens.json,
//! BRAND_BOOK.md and assets. Pure: files come in as bytes, today's date comes
//! in as a value, and every problem goes out as a diagnostic.

use super::diag::{file_diagnostic, has_errors, quoted, Code, Diagnostic, FileDiags};
pub use super::files::BrandFiles;
use super::json::join;
use super::limits::{MAX_JSON_DEPTH, MAX_JSON_VALUES, MAX_KEY_CHARS};
use super::model::{BrandDoc, ContrastPair};
use super::schema::{self, Checked};
use super::tokens::css::{self, css_name};
use super::tokens::{parse_reference, TokenSet, TokenType, TokenValue};
use crate::color;
use bytes::Bytes;
use chrono::NaiveDate;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

mod dates;
pub use dates::{parse_date, parse_embargo};
mod family;
mod named;
mod setting;
use named::read_tokens;
pub use setting::{brand_json, brand_json_saying};
mod prompts;
mod resolved;
pub mod silence;
use prompts::check_prompts;

/// A brand that passed validation: everything a renderer needs.
#[derive(Debug, Clone)]
pub struct Brand {
    pub slug: String,
    pub doc: BrandDoc,
    pub version: semver::Version,
    pub updated: NaiveDate,
    pub tokens: TokenSet,
    pub brand_book: Option<String>,
    /// Files under `assets/`, keyed by their path below `assets/`.
    pub assets: BTreeMap<String, Bytes>,
    /// Releases from git tags, newest first.
    pub releases: Arc<[crate::spec::release::Release]>,
    /// Git mode: the object id of the brand folder's tree.
    pub revision: Option<String>,
    /// The brands it extends, as it was built over them (DESIGN.md §18).
    pub lineage: super::Lineage,
    /// The brands that extend it directly (public ones).
    pub dependents: Arc<[super::Dependent]>,
}

/// True for a slug: lowercase ASCII words joined by single hyphens, at most 64 characters.
pub fn is_slug(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.split('-').all(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Parses a brand version: semver with an optional pre-release, no `v`, no build metadata.
pub fn parse_version(s: &str) -> Result<semver::Version, String> {
    if s.starts_with(['v', 'V']) {
        return Err(format!(
            "version {} must not start with `v`: write {}",
            quoted(s),
            quoted(&s[1..])
        ));
    }
    let v = semver::Version::parse(s).map_err(|e| {
        format!(
            "version {} is not a semantic version MAJOR.MINOR.PATCH ({e})",
            quoted(s)
        )
    })?;
    if !v.build.is_empty() {
        return Err(format!(
            "version {} has build metadata (`+{}`), which marque does not allow",
            quoted(s),
            v.build
        ));
    }
    Ok(v)
}

/// Parses a JSON file. A file that is not UTF-8 or not JSON is one
/// diagnostic (with serde_json's line and column) straight into `out`.
fn read_json<'t>(
    bytes: &'t [u8],
    brand: &str,
    file: &str,
    out: &mut Vec<Diagnostic>,
) -> Option<(Value, &'t str)> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        out.push(file_diagnostic(
            Code::NotUtf8,
            brand,
            file,
            "file is not valid UTF-8",
        ));
        return None;
    };
    let values = super::json::count_values(text);
    if values > MAX_JSON_VALUES {
        out.push(file_diagnostic(
            Code::TooManyValues,
            brand,
            file,
            format!("the file holds about {values} JSON values; at most {MAX_JSON_VALUES} are read, so it is not"),
        ));
        return None;
    }
    match serde_json::from_str::<Value>(text) {
        Ok(v) => Some((v, text)),
        Err(e) => {
            let mut d = file_diagnostic(
                Code::InvalidJson,
                brand,
                file,
                format!("invalid JSON: {}", strip_position(&e.to_string())),
            );
            d.line = e.line().max(1) as u32;
            d.column = e.column().max(1) as u32;
            out.push(d);
            None
        }
    }
}

/// serde_json appends " at line L column C"; the diagnostic carries those already.
fn strip_position(msg: &str) -> &str {
    msg.rfind(" at line ").map_or(msg, |i| &msg[..i])
}

/// Enforces the nesting and key-length limits before anything else walks
/// the document: a member whose key is too long is reported at its object
/// and removed, a value nested too deeply is reported and replaced by null.
/// A pointer is only written when there is something to report.
fn enforce_limits(value: &mut Value, d: &mut FileDiags<'_>) {
    fn pointer(path: &[String]) -> String {
        path.iter()
            .map(|t| format!("/{}", super::json::escape_token(t)))
            .collect()
    }
    fn walk(v: &mut Value, path: &mut Vec<String>, d: &mut FileDiags<'_>) {
        if path.len() >= MAX_JSON_DEPTH && (v.is_object() || v.is_array()) {
            d.push(
                Code::NestedTooDeep,
                &pointer(path),
                format!("values are nested more than {MAX_JSON_DEPTH} levels deep here; what lies deeper is not read"),
            );
            *v = Value::Null;
            return;
        }
        match v {
            Value::Object(map) => {
                if map.keys().any(|k| k.len() > MAX_KEY_CHARS) {
                    let long: Vec<String> = map
                        .keys()
                        .filter(|k| k.chars().count() > MAX_KEY_CHARS)
                        .cloned()
                        .collect();
                    for k in long {
                        d.push(
                            Code::KeyTooLong,
                            &pointer(path),
                            format!(
                                "a key of {} characters ({}); keys may have at most {MAX_KEY_CHARS}, so the member is not read",
                                k.chars().count(),
                                quoted(&k)
                            ),
                        );
                        map.remove(&k);
                    }
                }
                for (k, child) in map.iter_mut() {
                    if child.is_object() || child.is_array() {
                        path.push(k.clone());
                        walk(child, path, d);
                        path.pop();
                    }
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter_mut().enumerate() {
                    if child.is_object() || child.is_array() {
                        path.push(i.to_string());
                        walk(child, path, d);
                        path.pop();
                    }
                }
            }
            _ => {}
        }
    }
    // serde_json refuses documents nested over 128 levels, so this recursion is bounded.
    walk(value, &mut Vec::new(), d);
}

/// True when a read problem already names `file` (so "missing" would say it twice).
pub(super) fn named_in(problems: &[Diagnostic], file: &str) -> bool {
    problems.iter().any(|p| p.file == file)
}

/// Parses and validates one brand. Returns the brand when it has no errors,
/// and every diagnostic (errors and warnings) either way.
pub fn parse_brand(files: &BrandFiles, today: NaiveDate) -> (Option<Brand>, Vec<Diagnostic>) {
    let slug = files.slug.as_str();
    let mut out = files.problems.clone();
    if !is_slug(slug) {
        out.push(file_diagnostic(
            Code::InvalidSlug,
            slug,
            &format!("{slug}/"),
            format!("folder name {} is not a valid slug: use lowercase letters and digits in words joined by single hyphens (at most 64 characters)", quoted(slug)),
        ));
    }
    let tokens = read_tokens(files, &mut out);
    let parsed = read_brand_json(files, tokens.as_ref(), today, &mut out);
    family::mark_inherited(files, &mut out);
    let brand_book =
        files
            .get("BRAND_BOOK.md")
            .and_then(|bytes| match std::str::from_utf8(bytes) {
                Ok(s) => Some(s.to_string()),
                Err(_) => {
                    out.push(file_diagnostic(
                        Code::NotUtf8,
                        slug,
                        &format!("{slug}/BRAND_BOOK.md"),
                        "file is not valid UTF-8",
                    ));
                    None
                }
            });
    if has_errors(&out) {
        return (None, out);
    }
    let (Some((doc, version, updated)), Some(mut tokens)) = (parsed, tokens) else {
        return (None, out);
    };
    // Names were checked unprefixed; every published name carries it.
    doc.naming.prefix_tokens(&mut tokens);
    let assets: BTreeMap<String, Bytes> = files
        .files()
        .iter()
        .filter_map(|(path, bytes)| {
            path.strip_prefix("assets/")
                .map(|p| (p.to_string(), bytes.clone()))
        })
        .collect();
    let brand = Brand {
        slug: slug.to_string(),
        doc,
        version,
        updated,
        tokens,
        brand_book,
        assets,
        releases: files.releases.clone(),
        revision: files.revision.clone(),
        lineage: files.lineage.clone(),
        dependents: files.dependents.clone(),
    };
    (Some(brand), out)
}

/// brand.json: read, limited, its shape checked (and repaired), then every
/// semantic check on what could be read.
fn read_brand_json(
    files: &BrandFiles,
    tokens: Option<&TokenSet>,
    today: NaiveDate,
    out: &mut Vec<Diagnostic>,
) -> Option<(BrandDoc, semver::Version, NaiveDate)> {
    let slug = files.slug.as_str();
    let file = format!("{slug}/brand.json");
    let Some(bytes) = files.get("brand.json") else {
        if !named_in(&files.problems, &file) {
            out.push(file_diagnostic(
                Code::MissingFile,
                slug,
                &file,
                "missing brand.json",
            ));
        }
        return None;
    };
    let (mut value, text) = read_json(bytes, slug, &file, out)?;
    let mut d = FileDiags::new(slug, file);
    if let Some(at) = super::json::first_duplicate_key(text) {
        let key = super::json::tokens(&at).pop().unwrap_or_default();
        d.push(
            Code::DuplicateKey,
            &at,
            format!("key `{key}` is given twice in this object: readers disagree on which one counts, so the file is not read; keep one"),
        );
    }
    enforce_limits(&mut value, &mut d);
    let mut checked = schema::check_brand(value, &mut d);
    let parsed = match serde_json::from_value::<BrandDoc>(std::mem::take(&mut checked.value)) {
        Ok(doc) => check_semantics(doc, &checked, files, tokens, today, &mut d),
        Err(e) => {
            d.push(
                Code::UnexpectedShape,
                "",
                format!("brand.json does not have the expected shape: {e}"),
            );
            None
        }
    };
    d.finish(Some(text), out);
    parsed
}

fn check_css_names(set: &TokenSet, d: &mut FileDiags<'_>) {
    let mut seen: BTreeMap<String, String> = BTreeMap::new();
    for t in &set.tokens {
        let name = css_name(&t.path);
        if name.is_empty() {
            d.push(
                Code::NoCssName,
                &t.pointer,
                format!(
                    "token `{}` has no letters or digits to make a CSS name from",
                    t.name()
                ),
            );
            continue;
        }
        // Letters and digits of any script and `-`: always a CSS identifier
        // after `--` (`size.größe` → `--size-größe`).
        let parts = t.ty.parts().iter().map(|p| format!("{name}-{}", p.css));
        for n in std::iter::once(name.clone()).chain(parts) {
            let Some(other) = seen.insert(n.clone(), t.name()) else {
                continue;
            };
            // Exports that keep a camelCase and a kebab-case spelling of one
            // token (Primer's `stringRegexp`, `string-regexp`), or a token
            // beside a composite's part (`outline-width`, `outline`'s
            // width): one property serves both when they agree.
            let css = |name: &str| {
                let token = set.get(name)?;
                let value = set.resolve(&token.value)?;
                let part = match value.as_ref() {
                    TokenValue::Composite(c) => c
                        .parts()
                        .find(|(p, _)| format!("{}-{}", css_name(&token.path), p.css) == n)
                        .and_then(|(_, v)| set.resolve(v)),
                    _ => None,
                };
                Some(css::value(
                    part.as_deref().unwrap_or(&value),
                    set,
                    css::Refs::Resolve,
                ))
            };
            let message = format!(
                "tokens `{other}` and `{}` both map to the CSS name `--{n}`",
                t.name()
            );
            match (css(&other), css(&t.name())) {
                (Some(a), Some(b)) if a == b => d.push(
                    Code::CssNameShared,
                    &t.pointer,
                    format!("{message}; their values agree, so the one property serves both"),
                ),
                _ => d.push(Code::CssNameClash, &t.pointer, message),
            }
        }
    }
}

/// The checks that need meaning, not just shape: version, date, references,
/// contrast, logo files and prompts. Each runs on whatever could be read;
/// only what failed the shape check (`checked.blocked`) is skipped.
fn check_semantics(
    doc: BrandDoc,
    checked: &Checked,
    files: &BrandFiles,
    tokens: Option<&TokenSet>,
    today: NaiveDate,
    d: &mut FileDiags<'_>,
) -> Option<(BrandDoc, semver::Version, NaiveDate)> {
    let version = (!checked.blocked("/version"))
        .then(|| {
            parse_version(&doc.version)
                .map_err(|m| d.push(Code::InvalidVersion, "/version", m))
                .ok()
        })
        .flatten();
    let updated = (!checked.blocked("/updated"))
        .then(|| {
            parse_date(&doc.updated, today)
                .map_err(|(code, m)| d.push(code, "/updated", m))
                .ok()
        })
        .flatten();
    if let Some(embargo) = doc
        .embargo
        .as_deref()
        .filter(|_| !checked.blocked("/embargo"))
    {
        if let Err(m) = parse_embargo(embargo) {
            d.push(Code::InvalidEmbargo, "/embargo", m);
        }
    }
    setting::check_naming(&doc, d);
    if let Some(tokens) = tokens {
        check_references(&doc, checked, tokens, d);
    }
    if let super::Lineage::Broken(code, message) = &files.lineage {
        d.push(*code, "/extends", message.clone());
    }
    check_logo(&doc, checked, files, d);
    check_prompts(&doc, checked, d);
    if !checked.blocked("/diagnostics") {
        silence::check(doc.diagnostics.as_ref(), d);
    }
    Some((doc, version?, updated?))
}

/// Every token reference in brand.json must resolve, to the right type;
/// every contrast pair must meet its level.
fn check_references(doc: &BrandDoc, checked: &Checked, tokens: &TokenSet, d: &mut FileDiags<'_>) {
    let want = |pointer: String, reference: &str, ty: TokenType, d: &mut FileDiags<'_>| {
        if checked.blocked(&pointer) {
            return;
        }
        let Some(name) = parse_reference(reference) else {
            d.push(
                Code::NotAReference,
                &pointer,
                format!(
                    "{} is not a token reference: write it as {{group.token}}",
                    quoted(reference)
                ),
            );
            return;
        };
        match tokens.get(name) {
            None if tokens.unparsed.contains(name) => {}
            None => d.push(
                Code::DanglingReference,
                &pointer,
                format!(
                    "reference `{}` does not name a token in tokens.json",
                    quoted(reference).trim_matches('"')
                ),
            ),
            Some(t) if t.ty != ty => d.push(
                Code::ReferenceTypeMismatch,
                &pointer,
                format!(
                    "reference `{reference}` is a {} token; a {} token is needed here",
                    t.ty.as_str(),
                    ty.as_str()
                ),
            ),
            Some(_) => {}
        }
    };
    for (i, f) in doc.typography.families.iter().enumerate() {
        want(
            format!("/typography/families/{i}/token"),
            &f.token,
            TokenType::FontFamily,
            d,
        );
    }
    for (i, s) in doc.typography.styles.iter().enumerate() {
        want(
            format!("/typography/styles/{i}/token"),
            &s.token,
            TokenType::Typography,
            d,
        );
    }
    for (i, p) in doc.color.palette.iter().enumerate() {
        want(
            format!("/color/palette/{i}/token"),
            &p.token,
            TokenType::Color,
            d,
        );
    }
    for (i, pair) in doc.color.pairs.iter().enumerate() {
        let base = format!("/color/pairs/{i}");
        let (fg, bg) = (join(&base, "foreground"), join(&base, "background"));
        want(fg.clone(), &pair.foreground, TokenType::Color, d);
        want(bg.clone(), &pair.background, TokenType::Color, d);
        if [fg, bg, join(&base, "level")]
            .iter()
            .any(|p| checked.blocked(p))
        {
            continue;
        }
        for (context, ratio) in failing_contrast(tokens, pair) {
            let within = match context {
                Some(label) => format!(" in {label}"),
                None => String::new(),
            };
            d.push(
                Code::ContrastTooLow,
                &base,
                format!(
                    "contrast of {} on {} is {:.2}:1{within}, below the {} minimum of {}:1",
                    pair.foreground,
                    pair.background,
                    ratio,
                    pair.level,
                    level_minimum(&pair.level)
                ),
            );
        }
    }
}

/// Each permutation in which `pair` fails its level, with its ratio: the
/// default (`None`), and every context that changes either colour.
fn failing_contrast(tokens: &TokenSet, pair: &ContrastPair) -> Vec<(Option<String>, f64)> {
    let (fg, bg, level) = (&pair.foreground, &pair.background, &pair.level);
    let mut out = Vec::new();
    if let Some((ratio, false)) = pair_contrast(tokens, fg, bg, level) {
        out.push((None, ratio));
    }
    for c in pair_in_contexts(tokens, pair)
        .into_iter()
        .filter(|c| !c.passes)
    {
        out.push((Some(tokens.label(c.modifier, c.context)), c.ratio));
    }
    out
}

/// The WCAG 2 minimum ratio of a conformance level.
pub fn level_minimum(level: &str) -> f64 {
    match level {
        "AAA" => 7.0,
        "AA-large" => 3.0,
        _ => 4.5,
    }
}

/// The contrast ratio of two colour references and whether it meets `level`.
/// A translucent foreground is composited over the background first.
pub fn pair_contrast(tokens: &TokenSet, fg: &str, bg: &str, level: &str) -> Option<(f64, bool)> {
    contrast_of(
        tokens.resolve_reference(fg).as_deref(),
        tokens.resolve_reference(bg).as_deref(),
        level,
    )
}

/// The contrast ratio of two resolved colours and whether it meets `level`.
fn contrast_of(
    fg: Option<&TokenValue>,
    bg: Option<&TokenValue>,
    level: &str,
) -> Option<(f64, bool)> {
    let (Some(TokenValue::Color(f)), Some(TokenValue::Color(b))) = (fg, bg) else {
        return None;
    };
    let shown = color::shown_contrast(f.srgb(), f.alpha, b.srgb());
    Some((shown, shown >= level_minimum(level)))
}

/// A colour pair in one context that changes either of its colours.
pub struct ContextContrast {
    pub modifier: usize,
    pub context: usize,
    pub ratio: f64,
    pub passes: bool,
}

/// `pair` in each context of `tokens` that changes either of its colours,
/// in document order. Validation, spec.json and the page all read this.
pub fn pair_in_contexts(tokens: &TokenSet, pair: &ContrastPair) -> Vec<ContextContrast> {
    let (fg, bg) = (&pair.foreground, &pair.background);
    let here = (tokens.resolve_reference(fg), tokens.resolve_reference(bg));
    tokens
        .contexts()
        .filter_map(|(m, c)| {
            let view = tokens.view(m, c);
            let there = (view.resolve_reference(fg), view.resolve_reference(bg));
            if there == here {
                return None;
            }
            let (ratio, passes) = contrast_of(there.0.as_deref(), there.1.as_deref(), &pair.level)?;
            Some(ContextContrast {
                modifier: m,
                context: c,
                ratio,
                passes,
            })
        })
        .collect()
}

/// An id (of a logo, a prompt) that must be slug-shaped and not among
/// `seen`, unless its place is blocked by an earlier error.
fn check_id<'a>(
    noun: &str,
    id: &'a str,
    at: &str,
    checked: &Checked,
    seen: &mut HashSet<&'a str>,
    d: &mut FileDiags<'_>,
) {
    if checked.blocked(at) {
    } else if !is_slug(id) {
        d.push(
            Code::InvalidId,
            at,
            format!(
                "{noun} id {} must be slug-shaped (lowercase words joined by hyphens)",
                quoted(id)
            ),
        );
    } else if !seen.insert(id) {
        d.push(
            Code::DuplicateId,
            at,
            format!("{noun} id \"{id}\" is used twice"),
        );
    }
}

fn check_logo(doc: &BrandDoc, checked: &Checked, files: &BrandFiles, d: &mut FileDiags<'_>) {
    let mut ids = HashSet::new();
    for (i, v) in doc.logo.variants.iter().enumerate() {
        let base = format!("/logo/variants/{i}");
        check_id("logo", &v.id, &join(&base, "id"), checked, &mut ids, d);
        let p = join(&base, "file");
        if checked.blocked(&p) {
            continue;
        }
        match check_asset_path(&v.file) {
            Err(m) => d.push(Code::InvalidAssetPath, &p, m),
            Ok(()) if files.get(&v.file).is_none() => d.push(
                Code::MissingLogoFile,
                &p,
                format!(
                    "logo file {} does not exist in the brand folder",
                    quoted(&v.file)
                ),
            ),
            Ok(()) => {
                let svg = v.file.to_ascii_lowercase().ends_with(".svg");
                if svg && files.get(&v.file).is_some_and(|b| has_text_element(b)) {
                    d.push(
                        Code::LogoTextElement,
                        &p,
                        format!(
                            "logo file {} draws its lettering with <text>, which shows in a fallback font (or cut off) wherever the font is not installed; convert the text to outlines (paths)",
                            quoted(&v.file)
                        ),
                    );
                }
            }
        }
    }
}

/// True when an SVG has a `<text>` element (not `<textPath>` alone).
fn has_text_element(svg: &[u8]) -> bool {
    svg.windows(5).enumerate().any(|(i, w)| {
        w.eq_ignore_ascii_case(b"<text")
            && svg
                .get(i + 5)
                .is_some_and(|c| c.is_ascii_whitespace() || *c == b'>' || *c == b'/')
    })
}

/// An asset path must be relative, inside `assets/`, without `..` or empty segments.
pub fn check_asset_path(path: &str) -> Result<(), String> {
    if path.starts_with('/') || path.contains('\\') || path.contains(':') {
        return Err(format!("\"{path}\" must be a relative path inside the brand folder, such as \"assets/logo.svg\""));
    }
    if path
        .split('/')
        .any(|s| s.is_empty() || s == "." || s == "..")
    {
        return Err(format!(
            "\"{path}\" must stay inside the brand folder (no `..`, `.` or empty segments)"
        ));
    }
    if !path.starts_with("assets/") {
        return Err(format!(
            "\"{path}\" must lie in the brand's assets/ folder, which marque publishes"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
