//! `marque import <config.json>`: the system a Style Dictionary config
//! describes, read statically (the config is data; a `.js` config is
//! never run). Its `include` files are the lower layer and its `source`
//! files the upper, as Style Dictionary merges them, each glob matched
//! under the config's folder; what a platform's `buildPath` names is
//! output, never input, and so are `node_modules` and hidden folders. The
//! result is a resolver document over the team's own files, imported as
//! any resolver is; the CSS prefix comes from the same config
//! (`naming.rs`).

use crate::spec::formats::Format;
use anyhow::{bail, Context as _, Result};
use ignore::overrides::{Override, OverrideBuilder};
use serde_json::{json, Value};
use std::path::Path;

/// The file names a Style Dictionary config is kept under.
pub const NAMES: &[&str] = &[
    "config",
    "sd.config",
    "style-dictionary.config",
    "tokens.config",
];

/// True for a config: an object with `platforms` and a `source` or
/// `include` list.
pub fn is_config(doc: &Value) -> bool {
    doc.get("platforms").is_some_and(Value::is_object)
        && ["source", "include"]
            .iter()
            .any(|k| doc.get(*k).is_some_and(Value::is_array))
}

/// The globs of `key` (`source`, `include`), as written.
fn globs<'a>(doc: &'a Value, key: &str) -> Vec<&'a str> {
    doc.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// The platforms' `buildPath`s, without `./` and the trailing `/`.
fn build_paths(doc: &Value) -> Vec<String> {
    doc.get("platforms")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(_, p)| p.get("buildPath")?.as_str())
        .map(|b| b.trim_start_matches("./").trim_end_matches('/').to_string())
        .filter(|b| !b.is_empty())
        .collect()
}

/// The most data files a config's folder is searched for.
const MAX_FILES: usize = 10_000;

/// The data files under `dir`, relative to it with `/`, in path order:
/// regular files only (the reader refuses the rest), hidden folders and
/// `node_modules` left out.
pub fn data_files(dir: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| format!("cannot read {}", d.display()))? {
            let p = e?.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let meta = std::fs::symlink_metadata(&p)?;
            if meta.is_dir() && !name.starts_with('.') && name != "node_modules" {
                stack.push(p);
            } else if meta.is_file() && crate::spec::syntax::is_data_file(name) {
                if let Ok(rel) = p.strip_prefix(dir) {
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
            if out.len() > MAX_FILES {
                bail!("{} holds more than {MAX_FILES} data files", dir.display());
            }
        }
    }
    out.sort();
    Ok(out)
}

fn matcher(dir: &Path, globs: &[&str]) -> Result<Override> {
    let mut b = OverrideBuilder::new(dir);
    for g in globs {
        b.add(g.trim_start_matches("./"))
            .with_context(|| format!("the config's glob `{g}` is not one"))?;
    }
    Ok(b.build()?)
}

/// A resolver document over the files `config` names under `dir` (the
/// config's folder): one set of its `include` files, then one of its
/// `source` files (a file both name is a source), in path order.
pub fn resolver(config: &Value, dir: &Path, files: &[String]) -> Result<Value> {
    let outputs = build_paths(config);
    let output = |f: &str| outputs.iter().any(|b| f.starts_with(&format!("{b}/")));
    let (include, source) = (globs(config, "include"), globs(config, "source"));
    let (include, source) = (matcher(dir, &include)?, matcher(dir, &source)?);
    let hits = |m: &Override, f: &str| m.matched(dir.join(f), false).is_whitelist();
    let mut sets = serde_json::Map::new();
    let mut order = Vec::new();
    let mut named = 0;
    for (name, m, other) in [
        ("include", &include, Some(&source)),
        ("source", &source, None),
    ] {
        let picked: Vec<Value> = files
            .iter()
            .filter(|f| !output(f) && hits(m, f) && !other.is_some_and(|o| hits(o, f)))
            .map(|f| json!({ "$ref": f }))
            .collect();
        if picked.is_empty() {
            continue;
        }
        named += picked.len();
        sets.insert(name.to_string(), json!({ "sources": picked }));
        order.push(json!({ "$ref": format!("#/sets/{name}") }));
    }
    if named == 0 {
        bail!(
            "its `source` and `include` name no data file under {} (outside {})",
            dir.display(),
            match outputs.is_empty() {
                true => "no buildPath".to_string(),
                false => outputs.join(", "),
            }
        );
    }
    // Style Dictionary 4 writes `$value` with its own type names
    // (`fontSize`), which Tokens Studio's reader knows; `value` is the
    // older form its own reader reads.
    let modern = files
        .iter()
        .filter(|f| !output(f) && (hits(&include, f) || hits(&source, f)))
        .any(|f| std::fs::read_to_string(dir.join(f)).is_ok_and(|t| t.contains("\"$value\"")));
    let format = match modern {
        true => Format::TokensStudio,
        false => Format::StyleDictionary,
    };
    Ok(json!({
        "version": "2025.10",
        "sets": sets,
        "resolutionOrder": order,
        "$extensions": {"app.marque": {"format": format.as_str()}}
    }))
}

/// The format a resolver made from a config reads its files in.
pub fn format_in(doc: &Value) -> Option<Format> {
    let f = doc.pointer("/$extensions/app.marque/format")?.as_str()?;
    Format::parse(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_is_the_lower_set_and_build_output_is_never_read() {
        let config = json!({
            "include": ["core/**/*.json"],
            "source": ["./tokens/**/*.json", "core/brand.json"],
            "platforms": {"css": {"buildPath": "./build/css/"}, "js": {"buildPath": "tokens/dist/"}}
        });
        assert!(is_config(&config));
        let files: Vec<String> = [
            "core/base.json",
            "core/brand.json",
            "tokens/color.json",
            "tokens/dist/color.json",
            "build/css/tokens.json",
            "other.json",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let r = resolver(&config, Path::new("/repo"), &files).unwrap();
        assert_eq!(
            r["sets"]["include"]["sources"],
            json!([{"$ref": "core/base.json"}])
        );
        assert_eq!(
            r["sets"]["source"]["sources"],
            json!([{"$ref": "core/brand.json"}, {"$ref": "tokens/color.json"}])
        );
        assert_eq!(
            r["resolutionOrder"],
            json!([{"$ref": "#/sets/include"}, {"$ref": "#/sets/source"}])
        );
        let none = json!({"source": ["missing/*.json"], "platforms": {}});
        let why = resolver(&none, Path::new("/repo"), &files).unwrap_err();
        assert!(why.to_string().contains("name no data file"), "{why}");
        assert!(!is_config(&json!({"source": ["a.json"]})));
    }
}
