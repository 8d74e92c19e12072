//! Where `marque import` finds the prefix the team's own build gives its
//! custom properties (brand.json `naming.prefix`), so what it publishes
//! has the team's names. Evidence in order, what the repository declares
//! first: a Style Dictionary config's CSS platform (`platforms.css.prefix`),
//! read statically and never executed; then the prefix every Figma
//! `com.figma.codeSyntax.WEB` of the input shares; then, with `--against`,
//! the prefix the team's built CSS puts before marque's names.

use crate::spec::syntax::{self, Syntax};
use crate::spec::tokens::css::{css_name, kebab, property_names};
use crate::spec::tokens::TokenSet;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The names a Style Dictionary config is kept under, read in this order.
const CONFIGS: &[&str] = &[
    "style-dictionary.config.json",
    "style-dictionary.config.json5",
    "sd.config.json",
    "sd.config.json5",
    "config.json",
    "config.json5",
    "config.jsonc",
];

/// Configs that are programs: named, never run (content is untrusted).
const SCRIPTS: &[&str] = &[
    "style-dictionary.config.js",
    "style-dictionary.config.mjs",
    "style-dictionary.config.cjs",
    "style-dictionary.config.ts",
    "sd.config.js",
    "sd.config.mjs",
    "sd.config.cjs",
    "sd.config.ts",
    "config.js",
];

/// How many folders up from the input a config is looked for (the input's
/// own folder first), short of the repository root, which ends the walk.
const LEVELS: usize = 3;

/// The most bytes of a config that are read.
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// A prefix, and what it was taken from, for the import's summary.
#[derive(Debug, PartialEq)]
pub struct Found {
    pub prefix: String,
    pub from: String,
}

/// What the import found of the team's names: the prefix, and the
/// configs that are programs, which it did not run.
#[derive(Debug, Default)]
pub struct Naming {
    pub found: Option<Found>,
    pub scripts: Vec<PathBuf>,
}

/// The team's names for the import of `input` read as `set`, in the order
/// of evidence; `built` is the team's built CSS that `--against` names.
/// The prefix found is the set's from here on.
pub fn find(input: &Path, set: &mut TokenSet, built: Option<&str>) -> Naming {
    let (found, scripts) = match from_config(input) {
        Ok(found) => (found, Vec::new()),
        Err(scripts) => (None, scripts),
    };
    let declared = || -> BTreeSet<String> {
        let rules = super::against::rules(built.unwrap_or_default());
        rules
            .into_iter()
            .flat_map(|r| r.declarations.into_iter().map(|(n, _)| n))
            .collect()
    };
    let found = found
        .or_else(|| figma_prefix(set))
        .or_else(|| built.and_then(|_| built_prefix(set, &declared())));
    if let Some(f) = &found {
        set.prefix = f.prefix.clone();
    }
    Naming { found, scripts }
}

impl Naming {
    /// The summary's lines on names: the prefix and where it came from,
    /// and each config that was not run.
    pub fn report(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        if let Some(f) = &self.found {
            writeln!(
                out,
                "custom properties are prefixed `--{}-` (brand.json naming.prefix), {}",
                f.prefix, f.from
            )?;
        }
        for s in &self.scripts {
            writeln!(
                out,
                "not run: {} is a program, and marque never runs one; write its CSS prefix as brand.json naming.prefix",
                s.display()
            )?;
        }
        Ok(())
    }
}

/// The prefix a Style Dictionary config gives its CSS custom properties:
/// the `css` platform's, else the first platform's that writes CSS (its
/// `transformGroup` or a file's `format`). Style Dictionary kebab-cases
/// the prefix with the path (`name/kebab`), and so is it here.
pub fn config_prefix(config: &Value) -> Option<String> {
    let platforms = config.get("platforms")?.as_object()?;
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
    let css = platforms.get("css").into_iter();
    let others = platforms
        .iter()
        .filter(|(k, p)| *k != "css" && writes_css(p))
        .map(|(_, p)| p);
    css.chain(others)
        .find_map(|p| p.get("prefix").and_then(Value::as_str))
        .map(kebab)
        .filter(|p| crate::spec::brand::is_slug(p))
}

/// A Style Dictionary config in the input's folder or above it (up to
/// the repository root), and the prefix it gives, if any; else the
/// script configs found there, which are not run.
pub fn from_config(input: &Path) -> Result<Option<Found>, Vec<PathBuf>> {
    let start = match input.is_dir() {
        true => input,
        false => input.parent().unwrap_or(Path::new(".")),
    };
    let start = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    let mut scripts = Vec::new();
    for dir in start.ancestors().take(LEVELS + 1) {
        for name in CONFIGS {
            let path = dir.join(name);
            let Some(config) = read_config(&path) else {
                continue;
            };
            if let Some(prefix) = config_prefix(&config) {
                let from = format!("from the Style Dictionary config {}", path.display());
                return Ok(Some(Found { prefix, from }));
            }
        }
        scripts.extend(
            SCRIPTS
                .iter()
                .map(|s| dir.join(s))
                .filter(|p| is_file(p, u64::MAX)),
        );
        if dir.join(".git").exists() {
            break;
        }
    }
    match scripts.is_empty() {
        true => Ok(None),
        false => Err(scripts),
    }
}

fn is_file(path: &Path, max: u64) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() && m.len() <= max)
}

/// A config file as JSON, when it is a regular file of at most
/// [`MAX_CONFIG_BYTES`] in JSON, JSONC or JSON5 with a `platforms` object.
fn read_config(path: &Path) -> Option<Value> {
    if !is_file(path, MAX_CONFIG_BYTES) {
        return None;
    }
    let text = std::fs::read_to_string(path).ok()?;
    let name = path.file_name()?.to_str()?;
    let json = match syntax::to_json(&text, Syntax::of(name)?).ok()? {
        j if serde_json::from_str::<Value>(&j).is_ok() => j.into_owned(),
        _ => syntax::relaxed(&text)?,
    };
    let config: Value = serde_json::from_str(&json).ok()?;
    config.get("platforms")?.is_object().then_some(config)
}

/// The prefix Figma's code syntax gives the tokens: each token's
/// `com.figma.codeSyntax.WEB` (`var(--ds-color-brand)`) less its own name
/// (`color-brand`), when at least half of the tokens have one and the
/// words left before it are the same for nine in ten of those.
pub fn figma_prefix(set: &TokenSet) -> Option<Found> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut with = 0;
    for t in &set.tokens {
        let Some(web) = t.extensions.as_ref().and_then(web_syntax) else {
            continue;
        };
        with += 1;
        let name = css_name(&t.path);
        let Some(var) = web.split("--").nth(1) else {
            continue;
        };
        let var: String = var
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if let Some(p) = var.strip_suffix(&name).and_then(|p| p.strip_suffix('-')) {
            *seen.entry(p.to_string()).or_default() += 1;
        }
    }
    let (prefix, count) = seen.into_iter().max_by_key(|(_, n)| *n)?;
    // A code syntax on a few tokens (one collection's) may hold words of
    // that collection's path as well: it names no prefix for the rest.
    let most = with * 2 >= set.tokens.len();
    (most && count * 10 >= with * 9 && crate::spec::brand::is_slug(&prefix)).then(|| Found {
        from: format!("from com.figma.codeSyntax.WEB ({count} of {with} tokens)"),
        prefix,
    })
}

/// `com.figma.codeSyntax.WEB`, as Figma's own export writes it, or under
/// `com.figma` as the variables GitHub action's sync does.
fn web_syntax(ext: &Value) -> Option<&str> {
    let syntax = ext
        .get("com.figma.codeSyntax")
        .or_else(|| ext.get("com.figma")?.get("codeSyntax"))?;
    syntax.get("WEB")?.as_str()
}

/// The prefix the team's built CSS puts before marque's names: the words
/// before more of them than match with none, and before at least half
/// of the custom properties it declares.
pub fn built_prefix(set: &TokenSet, declared: &BTreeSet<String>) -> Option<Found> {
    let ours: BTreeSet<String> = property_names(set)
        .into_iter()
        .map(|n| n.trim_start_matches('-').to_string())
        .collect();
    let theirs: Vec<&str> = declared
        .iter()
        .filter_map(|n| n.strip_prefix("--"))
        .collect();
    let plain = theirs.iter().filter(|n| ours.contains(**n)).count();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for n in &theirs {
        // The shortest prefix that leaves one of marque's names.
        let cut = n
            .match_indices('-')
            .map(|(i, _)| i)
            .find(|&i| i > 0 && ours.contains(&n[i + 1..]));
        if let Some(i) = cut {
            *seen.entry(&n[..i]).or_default() += 1;
        }
    }
    let (prefix, count) = seen.into_iter().max_by_key(|(_, n)| *n)?;
    (count > plain && count * 2 >= theirs.len() && crate::spec::brand::is_slug(prefix)).then(|| {
        Found {
            prefix: prefix.to_string(),
            from: format!(
                "from the built CSS ({count} of its {} names are marque's behind it)",
                theirs.len()
            ),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_configs_css_platform_prefix_is_kebab_cased_as_style_dictionary_does() {
        let config = json!({"source": ["tokens/**/*.json"], "platforms": {
            "js": {"transformGroup": "js", "prefix": "nope"},
            "css": {"transformGroup": "css", "prefix": "pfT", "buildPath": "dist/"}}});
        assert_eq!(config_prefix(&config).as_deref(), Some("pf-t"));
        // No `css` platform: the first that writes CSS, by its files.
        let config = json!({"platforms": {
            "ios": {"prefix": "nope"},
            "web": {"prefix": "ds", "files": [{"format": "css/variables"}]}}});
        assert_eq!(config_prefix(&config).as_deref(), Some("ds"));
        assert_eq!(config_prefix(&json!({"platforms": {"css": {}}})), None);
        assert_eq!(config_prefix(&json!({"source": []})), None);
    }

    fn set(json: &str) -> TokenSet {
        let doc: Value = serde_json::from_str(json).unwrap();
        let mut d = crate::spec::diag::FileDiags::new("b", "b/tokens.json");
        crate::spec::tokens::parse_tokens(&doc, &mut d).unwrap()
    }

    #[test]
    fn figmas_code_syntax_gives_the_prefix_its_names_share() {
        let web = |n: &str| {
            format!(
                r##"{{"$type": "color", "$value": "#000000", "$extensions": {{"com.figma.codeSyntax": {{"WEB": "var(--{n})"}}}}}}"##
            )
        };
        let tokens = format!(
            r#"{{"color": {{"ink": {}, "paper": {}}}, "line": {}}}"#,
            web("ds-color-ink"),
            web("ds-color-paper"),
            web("ds-line")
        );
        let found = figma_prefix(&set(&tokens)).unwrap();
        assert_eq!(found.prefix, "ds");
        // Names that do not agree give none.
        let tokens = format!(
            r#"{{"color": {{"ink": {}, "paper": {}}}}}"#,
            web("ds-color-ink"),
            web("xy-color-paper")
        );
        assert_eq!(figma_prefix(&set(&tokens)), None);
        // One token of three has one: it names no prefix for the others.
        let plain = r##"{"$type": "color", "$value": "#000000"}"##;
        let tokens = format!(
            r#"{{"color": {{"ink": {}, "paper": {plain}}}, "line": {plain}}}"#,
            web("ds-color-ink")
        );
        assert_eq!(figma_prefix(&set(&tokens)), None);
    }

    #[test]
    fn a_built_css_gives_the_prefix_before_most_of_marques_names() {
        let tokens = set(
            r##"{"color": {"$type": "color", "ink": {"$value": "#000000"}, "ink-muted": {"$value": "#111111"}}}"##,
        );
        let declared = |names: &[&str]| names.iter().map(|n| n.to_string()).collect();
        let found = built_prefix(
            &tokens,
            &declared(&["--ds-color-ink", "--ds-color-ink-muted", "--other"]),
        )
        .unwrap();
        assert_eq!(found.prefix, "ds");
        // Its names are marque's already: no prefix.
        assert_eq!(
            built_prefix(
                &tokens,
                &declared(&["--color-ink", "--color-ink-muted", "--ds-color-ink"])
            ),
            None
        );
    }
}
