//! A Style Dictionary config read as data (DESIGN 17, issue 59): the
//! system it describes, as a resolver document over the team's own files.
//! Its `include` files are the lower layer and its `source` files the
//! upper, as Style Dictionary merges them, each glob matched under the
//! config's folder; what a platform's `buildPath` names is output, never
//! input. A config that is a program (`sd.config.js`) is never run.
//! PURE: the files come in as their paths and a way to look inside one.

use super::Format;
use crate::spec::tokens::css::kebab;
use crate::spec::tokens::{DimUnit, TokenSet, TokenValue};
use ignore::overrides::{Override, OverrideBuilder};
use serde_json::{json, Value};
use std::path::Path;

/// The file stems a Style Dictionary config is kept under.
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

/// The globs as one matcher over paths relative to the config's folder
/// (the folder stands at a root no file system is asked about).
fn matcher(globs: &[&str]) -> Result<Override, String> {
    let mut b = OverrideBuilder::new("/");
    for g in globs {
        b.add(g.trim_start_matches("./"))
            .map_err(|_| format!("the config's glob `{g}` is not one"))?;
    }
    b.build().map_err(|e| e.to_string())
}

/// A resolver document over `files` (paths relative to the config's
/// folder) that `config` names: one set of its `include` files, then one
/// of its `source` files (a file both name is a source), in the order
/// given. `has_value` says whether a file writes `$value`: Style
/// Dictionary 4's form, with its own type names (`fontSize`), which the
/// Tokens Studio reader knows; `value` is the older form Style
/// Dictionary's reader reads. The format is said in the document's
/// `$extensions["app.marque"].format`.
pub fn resolver(
    config: &Value,
    files: &[&str],
    has_value: impl Fn(&str) -> bool,
) -> Result<Value, String> {
    let outputs = build_paths(config);
    let output = |f: &str| outputs.iter().any(|b| f.starts_with(&format!("{b}/")));
    let include = matcher(&globs(config, "include"))?;
    let source = matcher(&globs(config, "source"))?;
    let hits = |m: &Override, f: &str| m.matched(Path::new("/").join(f), false).is_whitelist();
    let mut sets = serde_json::Map::new();
    let mut order = Vec::new();
    let mut read = Vec::new();
    for (name, m, other) in [
        ("include", &include, Some(&source)),
        ("source", &source, None),
    ] {
        let picked: Vec<&str> = files
            .iter()
            .copied()
            .filter(|f| !output(f) && hits(m, f) && !other.is_some_and(|o| hits(o, f)))
            .collect();
        if picked.is_empty() {
            continue;
        }
        let refs: Vec<Value> = picked.iter().map(|f| json!({ "$ref": f })).collect();
        sets.insert(name.to_string(), json!({ "sources": refs }));
        order.push(json!({ "$ref": format!("#/sets/{name}") }));
        read.extend(picked);
    }
    if read.is_empty() {
        return Err(format!(
            "its `source` and `include` name no data file of its folder (outside {})",
            match outputs.is_empty() {
                true => "no buildPath".to_string(),
                false => outputs.join(", "),
            }
        ));
    }
    let format = match read.iter().any(|f| has_value(f)) {
        true => Format::TokensStudio,
        false => Format::StyleDictionary,
    };
    let words = selector_modes(config);
    let mut doc = match format == Format::TokensStudio && mode_siblings(&read, &words) {
        true => one_tree(&read, &words),
        false => json!({
            "version": "2025.10",
            "sets": sets,
            "resolutionOrder": order,
            "$extensions": {"app.marque": {"format": format.as_str()}}
        }),
    };
    // How the team's build names and sizes what it publishes.
    let how = &mut doc["$extensions"]["app.marque"];
    if let Some(prefix) = config_prefix(config) {
        how["prefix"] = json!(prefix);
    }
    if let Some(base) = px_to_rem(config) {
        how["pxToRem"] = json!(base);
    }
    Ok(doc)
}

/// The names a config's CSS files' selectors give modes: the value of an
/// attribute (`[data-theme="dark"]` → `dark`) or a class (`.ocean`), never
/// `:root`, `html`, `:host` or `body`.
pub fn selector_modes(config: &Value) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let selectors = css_platforms(config)
        .flat_map(|p| {
            p.get("files")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
        })
        .filter_map(|f| f.get("options")?.get("selector")?.as_str());
    for selector in selectors {
        for part in selector.split([',', ' ', '>']) {
            let word = match (part.find('='), part.strip_prefix('.')) {
                (Some(eq), _) => part[eq + 1..].trim_matches([']', '"', '\'', ' ']),
                (None, Some(class)) => class,
                _ => continue,
            };
            let word = word.to_lowercase();
            if !word.is_empty() && !out.contains(&word) {
                out.push(word);
            }
        }
    }
    out
}

/// True when two of `files` differ only by one segment, a mode word or a
/// name in `words` in both (`semantic/light.json`, `semantic/dark.json`).
fn mode_siblings(files: &[&str], words: &[String]) -> bool {
    let mode = |w: &str| super::tokens_studio::is_mode_word(w) || words.iter().any(|g| g == w);
    let segments = |f: &str| -> Vec<String> {
        super::tokens_studio::set_name(f)
            .to_lowercase()
            .split(['/', '-', '_', '.'])
            .map(str::to_string)
            .collect()
    };
    let all: Vec<Vec<String>> = files.iter().map(|f| segments(f)).collect();
    all.iter().enumerate().any(|(i, a)| {
        all[i + 1..].iter().any(|b| {
            let differ: Vec<usize> = (0..a.len().min(b.len()))
                .filter(|k| a[*k] != b[*k])
                .collect();
            a.len() == b.len() && matches!(differ.as_slice(), [k] if mode(&a[*k]) && mode(&b[*k]))
        })
    })
}

/// The config's files as one Tokens Studio tree, a set per file in the
/// order they merge, whose modes are inferred as a synced folder's are
/// (with the names `words` gives): a reading plan that leaves its modes
/// to be found.
fn one_tree(files: &[&str], words: &[String]) -> Value {
    let how = json!({"format": Format::TokensStudio.as_str(), "oneTree": true});
    let mut sets = serde_json::Map::new();
    for f in files {
        let name = super::tokens_studio::set_name(f).to_string();
        sets.insert(
            name,
            json!({"sources": [{"$ref": f}], "$extensions": {"app.marque": how}}),
        );
    }
    let order: Vec<Value> = sets
        .keys()
        .map(|n| json!({"$ref": crate::spec::json::join("#/sets", n)}))
        .collect();
    json!({
        "version": "2025.10",
        "sets": sets,
        "resolutionOrder": order,
        "$extensions": {"app.marque": {"format": Format::TokensStudio.as_str(), "infer": true, "modeWords": words}}
    })
}

/// What a resolver made from a config (or a plan of one) says of names
/// and units in its `$extensions["app.marque"]` (`how`): the CSS prefix,
/// and the pixels per rem of `size/pxToRem`. Applied to `set` as the
/// config's build applies them.
pub fn apply_naming(how: Option<&Value>, set: &mut TokenSet) {
    if let Some(base) = how.and_then(|h| h.get("pxToRem")).and_then(Value::as_f64) {
        if base.is_finite() && base > 0.0 {
            to_rem(set, base);
        }
    }
    if let Some(prefix) = how.and_then(|h| h.get("prefix")).and_then(Value::as_str) {
        if crate::spec::brand::is_slug(prefix) {
            set.prefix = prefix.to_string();
        }
    }
}

/// The format a resolver made from a config reads its files in.
pub fn format_in(doc: &Value) -> Option<Format> {
    let f = doc.pointer("/$extensions/app.marque/format")?.as_str()?;
    Format::parse(f)
}

/// The prefix a Style Dictionary config gives its CSS custom properties:
/// the `css` platform's, else the first platform's that writes CSS (its
/// `transformGroup` or a file's `format`). Style Dictionary kebab-cases
/// the prefix with the path (`name/kebab`), and so is it here.
pub fn config_prefix(config: &Value) -> Option<String> {
    css_platforms(config)
        .find_map(|p| p.get("prefix").and_then(Value::as_str))
        .map(kebab)
        .filter(|p| crate::spec::brand::is_slug(p))
}

/// A config's platforms that write CSS: `css` first, then each whose
/// `transformGroup` or a file's `format` is CSS's (or SCSS's, Less's).
fn css_platforms(config: &Value) -> impl Iterator<Item = &Value> {
    let platforms = config.get("platforms").and_then(Value::as_object);
    let writes_css = |p: &Value| {
        let group = p.get("transformGroup").and_then(Value::as_str);
        let formats = p
            .get("files")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|f| f.get("format").and_then(Value::as_str));
        matches!(group, Some("css" | "scss" | "less"))
            || formats
                .into_iter()
                .any(|f| f.starts_with("css/") || f.starts_with("scss/") || f.starts_with("less/"))
    };
    let css = platforms.and_then(|p| p.get("css")).into_iter();
    let others = platforms
        .into_iter()
        .flatten()
        .filter(move |(k, p)| *k != "css" && writes_css(p))
        .map(|(_, p)| p);
    css.chain(others)
}

/// The pixels per rem of a CSS platform whose `transforms` name
/// `size/pxToRem`: its `basePxFontSize` (or its `options`'), else 16, as
/// Style Dictionary's default.
pub fn px_to_rem(config: &Value) -> Option<f64> {
    let p = css_platforms(config).find(|p| {
        p.get("transforms")
            .and_then(Value::as_array)
            .is_some_and(|t| t.iter().any(|t| t == "size/pxToRem"))
    })?;
    let base = p
        .get("basePxFontSize")
        .or_else(|| p.get("options")?.get("basePxFontSize"))
        .and_then(Value::as_f64)
        .filter(|b| b.is_finite() && *b > 0.0);
    Some(base.unwrap_or(16.0))
}

/// Every dimension token in px, in every context, in rem: what
/// `size/pxToRem` makes of a dimension or font size token (parts of
/// composites it leaves, as Style Dictionary does).
pub fn to_rem(set: &mut TokenSet, base: f64) {
    let convert = |t: &mut crate::spec::tokens::Token| {
        if let TokenValue::Dimension(d) = &mut t.value {
            if d.unit == DimUnit::Px {
                d.value = crate::spec::tokens::round(d.value / base, 4);
                d.unit = DimUnit::Rem;
            }
        }
    };
    set.tokens.iter_mut().for_each(convert);
    for m in &mut set.modes {
        for c in &mut m.contexts {
            c.tokens.iter_mut().for_each(convert);
        }
    }
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
        let files = [
            "core/base.json",
            "core/brand.json",
            "tokens/color.json",
            "tokens/dist/color.json",
            "build/css/tokens.json",
            "other.json",
        ];
        let r = resolver(&config, &files, |_| false).unwrap();
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
        assert_eq!(format_in(&r), Some(Format::StyleDictionary));
        let modern = resolver(&config, &files, |f| f == "tokens/color.json").unwrap();
        assert_eq!(format_in(&modern), Some(Format::TokensStudio));
        let none = json!({"source": ["missing/*.json"], "platforms": {}});
        let why = resolver(&none, &files, |_| false).unwrap_err();
        assert!(why.contains("name no data file"), "{why}");
        assert!(!is_config(&json!({"source": ["a.json"]})));
    }
}
