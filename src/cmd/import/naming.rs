//! Where `marque import` finds the prefix the team's own build gives its
//! custom properties (brand.json `naming.prefix`), so what it publishes
//! has the team's names. Evidence in order, what the repository declares
//! first: a Style Dictionary config's CSS platform (`platforms.css.prefix`),
//! read statically and never executed; then the prefix every Figma
//! `com.figma.codeSyntax.WEB` of the input shares; then, with `--against`,
//! the prefix the team's built CSS puts before marque's names.

use crate::spec::formats::sd_config::{config_prefix, px_to_rem, to_rem};
use crate::spec::syntax::{self, Syntax};
use crate::spec::tokens::css::{css_name, property_names};
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

/// What the import found of the team's names: the prefix, the config's
/// unit transform, and the configs that are programs, which it did not
/// run.
#[derive(Debug, Default)]
pub struct Naming {
    pub found: Option<Found>,
    pub scripts: Vec<PathBuf>,
    /// The pixels per rem of the config's `size/pxToRem`, and the config.
    pub rem: Option<(f64, String)>,
}

/// The team's names for the import of `input` read as `set`, in the order
/// of evidence; `built` is the team's built CSS that `--against` names.
/// The brand.json that import keeps (`kept`, when there is one) says it
/// first: it is the team's correction. The prefix found is the set's from
/// here on.
pub fn find(input: &Path, kept: &Path, set: &mut TokenSet, built: Option<&str>) -> Naming {
    let (config, scripts) = match from_config(input) {
        Ok(config) => (config, Vec::new()),
        Err(scripts) => (None, scripts),
    };
    let from = |path: &Path| format!("from the Style Dictionary config {}", path.display());
    let found = config.as_ref().and_then(|(path, c)| {
        let prefix = config_prefix(c)?;
        Some(Found {
            prefix,
            from: from(path),
        })
    });
    let rem = config
        .as_ref()
        .and_then(|(path, c)| Some((px_to_rem(c)?, from(path))));
    if let Some((base, _)) = &rem {
        to_rem(set, *base);
    }
    let declared = || -> BTreeSet<String> {
        let rules = super::against::rules(built.unwrap_or_default());
        rules
            .into_iter()
            .flat_map(|r| r.declarations.into_iter().map(|(n, _)| n))
            .collect()
    };
    let kept_doc = read_json(kept);
    let said = kept_doc.as_ref().and_then(|doc| {
        let prefix = doc.pointer("/naming/prefix")?.as_str()?.to_string();
        let from = format!("as {} says", kept.display());
        crate::spec::brand::is_slug(&prefix).then_some(Found { prefix, from })
    });
    let corrected = said.is_some();
    let mut found = said
        .or(found)
        .or_else(|| figma_prefix(set))
        .or_else(|| built.and_then(|_| built_prefix(set, &declared())));
    if let Some(f) = &mut found {
        set.prefix = f.prefix.clone();
        // A kept brand.json is not rewritten: the team adds the prefix.
        if kept_doc.is_some() && !corrected {
            let add = format!(
                "; {} is kept as it is: add \"naming\": {{\"prefix\": \"{}\"}} to it",
                kept.display(),
                f.prefix
            );
            f.from.push_str(&add);
        }
    }
    Naming {
        found,
        scripts,
        rem,
    }
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
        if let Some((base, from)) = &self.rem {
            writeln!(
                out,
                "sizes in px are published in rem ({} px each), as size/pxToRem does {from}",
                crate::spec::tokens::fmt_num(*base)
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

/// The nearest Style Dictionary config in the input's folder or above it
/// (up to the repository root), with its path; else the script configs
/// found there, which are not run.
pub fn from_config(input: &Path) -> Result<Option<(PathBuf, Value)>, Vec<PathBuf>> {
    let start = match input.is_dir() {
        true => input,
        false => input.parent().unwrap_or(Path::new(".")),
    };
    let start = std::fs::canonicalize(start).unwrap_or_else(|_| start.to_path_buf());
    let mut scripts = Vec::new();
    for dir in start.ancestors().take(LEVELS + 1) {
        let found = CONFIGS
            .iter()
            .map(|name| dir.join(name))
            .find_map(|path| Some((read_config(&path)?, path)));
        if let Some((config, path)) = found {
            return Ok(Some((path, config)));
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

/// A brand.json as JSON, when it is a regular file of at most
/// [`MAX_CONFIG_BYTES`] (a link is not followed).
fn read_json(path: &Path) -> Option<Value> {
    if !is_file(path, MAX_CONFIG_BYTES) {
        return None;
    }
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
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

    #[test]
    fn px_to_rem_is_read_from_the_css_platforms_transforms_with_its_base() {
        let with = |css: Value| json!({"platforms": {"css": css}});
        let transforms = json!(["attribute/cti", "name/kebab", "size/pxToRem"]);
        assert_eq!(
            px_to_rem(&with(json!({"transforms": transforms}))),
            Some(16.0)
        );
        assert_eq!(
            px_to_rem(&with(
                json!({"transforms": transforms, "basePxFontSize": 10})
            )),
            Some(10.0)
        );
        assert_eq!(
            px_to_rem(&with(
                json!({"transforms": transforms, "options": {"basePxFontSize": 20}})
            )),
            Some(20.0)
        );
        assert_eq!(px_to_rem(&with(json!({"transformGroup": "css"}))), None);
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
