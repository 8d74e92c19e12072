//! `marque check --explain`: how each brand's tokens are read, as its
//! reading plan ([`crate::spec::formats::plan`]) over the brand's own
//! files, with each context's token count and the sets not read; as text,
//! or a JSON line per brand.

use crate::config::OutputFormat;
use crate::source::Content;
use crate::spec::files::BrandFiles;
use crate::spec::formats::{plan, Format};
use crate::spec::tokens::resolver::RESOLVER_FILE;
use anyhow::Result;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// Says every brand's plan; the exit code (1 when one cannot be planned).
pub fn run(
    content: &Content,
    format: OutputFormat,
    against: Option<&Path>,
    out: &mut impl Write,
) -> Result<i32> {
    let built = against
        .map(crate::cmd::import::read_built_css)
        .transpose()?;
    let mut code = 0;
    for files in &content.brands {
        let slug = files.slug.as_str();
        let (named, given) = named(files);
        let parsed = data_files(files);
        let (brand, diags) = crate::spec::brand::parse_brand(files, crate::clock::today());
        let set = brand.as_ref().map(|b| &b.tokens);
        let left_out = left_out(&diags);
        match plan::make(&named, given, &parsed, "") {
            Ok(made) => {
                let mut lines = plan::explain(&made, set);
                if !left_out.is_empty() {
                    let by: Vec<String> =
                        left_out.iter().map(|(c, n)| format!("{c} × {n}")).collect();
                    let n: usize = left_out.values().sum();
                    lines.push(format!("left out: {n} token(s) ({})", by.join(", ")));
                }
                // The team's own build, compared as import compares it.
                if let (Some(css), Some(path), Some(brand)) = (&built, against, &brand) {
                    lines.extend(compared(brand, css, path)?);
                }
                match format {
                    OutputFormat::Json => {
                        let line = json!({"brand": slug, "tokens": named, "format": made.format.as_str(), "plan": made.doc, "explain": lines, "contexts": contexts(set), "leftOut": left_out});
                        writeln!(out, "{line}")?;
                    }
                    _ => {
                        writeln!(out, "{slug}: tokens from `{named}`")?;
                        for line in lines {
                            writeln!(out, "  {line}")?;
                        }
                        writeln!(out, "  the plan (save it beside the tokens and name it in brand.json's `tokens` to keep or correct it):")?;
                        for line in serde_json::to_string_pretty(&made.doc)?.lines() {
                            writeln!(out, "    {line}")?;
                        }
                    }
                }
            }
            Err(why) => {
                code = 1;
                match format {
                    OutputFormat::Json => writeln!(
                        out,
                        "{}",
                        json!({"brand": slug, "tokens": named, "error": why})
                    )?,
                    _ => writeln!(out, "{slug}: cannot say how its tokens are read: {why}")?,
                }
            }
        }
    }
    Ok(code)
}

/// What brand.json's `tokens` names (a path, and a format where given),
/// else the resolver or tokens.json.
fn named(files: &BrandFiles) -> (String, Option<Format>) {
    let doc: Option<Value> = files
        .get("brand.json")
        .and_then(|b| serde_json::from_slice(b).ok());
    let tokens = doc.as_ref().and_then(|d| d.get("tokens"));
    if let Some(path) = tokens.and_then(Value::as_str) {
        return (path.to_string(), None);
    }
    if let Some(path) = tokens.and_then(|t| t.get("path")).and_then(Value::as_str) {
        let format = tokens
            .and_then(|t| t.get("format"))
            .and_then(Value::as_str)
            .and_then(Format::parse);
        return (path.to_string(), format);
    }
    match files.get(RESOLVER_FILE).is_some() {
        true => (RESOLVER_FILE.to_string(), None),
        false => ("tokens.json".to_string(), None),
    }
}

/// The brand's data files (JSON, JSON5, JSONC, YAML) but brand.json, parsed.
fn data_files(files: &BrandFiles) -> BTreeMap<String, Value> {
    files
        .files()
        .iter()
        .filter(|(p, _)| p.as_str() != "brand.json" && crate::spec::syntax::is_data_file(p))
        .filter_map(|(p, b)| {
            let text = match crate::spec::syntax::json_of(p, b) {
                Ok(Some(json)) => json.into_bytes(),
                Ok(None) => b.to_vec(),
                Err(_) => return None,
            };
            Some((p.clone(), serde_json::from_slice(&text).ok()?))
        })
        .collect()
}

/// What `marque import --against` says of `brand` against the team's
/// built CSS `css` (read from `path`), as lines.
fn compared(brand: &crate::spec::Brand, css: &str, path: &Path) -> Result<Vec<String>> {
    use crate::cmd::import::against;
    let ours = crate::render::tokens_css::render(brand, &crate::render::Context::new(""));
    let a = against::compare(&brand.tokens, css, &ours);
    let mut text = Vec::new();
    against::report(&mut text, &brand.tokens, path, &a)?;
    Ok(String::from_utf8_lossy(&text)
        .lines()
        .map(str::to_string)
        .collect())
}

/// The tokens left out, counted by code.
fn left_out(diags: &[crate::spec::Diagnostic]) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for d in diags {
        if d.code.family() == crate::spec::diag::Family::LeftOut {
            *out.entry(d.code.to_string()).or_default() += 1;
        }
    }
    out
}

/// Each context's token count, by modifier.
fn contexts(set: Option<&crate::spec::tokens::TokenSet>) -> Value {
    let Some(set) = set else { return Value::Null };
    let mut out = serde_json::Map::new();
    out.insert("default".into(), json!(set.tokens.len()));
    for (m, modifier) in set.modes.iter().enumerate() {
        for (c, context) in modifier.contexts.iter().enumerate() {
            let n = plan::context_tokens(set, m, c);
            out.insert(format!("{}={}", modifier.name, context.name), json!(n));
        }
    }
    Value::Object(out)
}
