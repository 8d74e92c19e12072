//! The formats teams keep (DESIGN 17): a brand whose brand.json names its
//! tokens in another format publishes from them as they are, its
//! diagnostics in the file as written; `marque import` converts them.

use crate::helpers::*;
use std::path::Path;
use std::process::Command;

/// Style Dictionary's legacy sources, as its own examples write them:
/// `value`, `type`, `comment`, `{a.b.value}` references (whole and inside
/// a string), a token with child tokens, and values without a type.
const STYLE_DICTIONARY: &str = r##"{
  "color": {
    "base": {
      "red": { "value": "#ff0000", "type": "color", "comment": "Alarm." },
      "gray": { "light": { "value": "#cccccc" }, "dark": { "value": "#333333" } }
    },
    "font": { "value": "{color.base.gray.dark.value}" },
    "brand": { "value": "{color.base.red.value}", "light": { "value": "#ff8080" } }
  },
  "size": {
    "font": { "small": { "value": "12px", "type": "size" }, "base": { "value": "1rem" } },
    "border": { "value": "1px solid {color.brand.value}" }
  }
}
"##;

fn brand(root: &Path, slug: &str, tokens: &str, file: &str, text: &str) {
    let dir = root.join(slug);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("brand.json"),
        format!(r#"{{"name": "{slug}", "summary": "x", "version": "1.0.0", "updated": "2026-11-20", "tokens": {tokens}}}"#),
    )
    .unwrap();
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_brand_publishes_style_dictionary_sources_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    brand(
        &root,
        "legacy",
        r#""tokens/design-tokens.json""#,
        "tokens/design-tokens.json",
        STYLE_DICTIONARY,
    );
    let app = spawn_with(serve_config(&root));
    let css = app.get("/brand/legacy/tokens.css").text();
    for line in [
        "  --color-base-red: #ff0000;\n",
        "  --color-font: var(--color-base-gray-dark);\n",
        // A token with children is its group's own token, both published.
        "  --color-brand: var(--color-base-red);\n",
        "  --color-brand-light: #ff8080;\n",
        "  --size-font-small: 12px;\n",
        "  --size-font-base: 1rem;\n",
        // A reference inside a string follows its target.
        "  --size-border: 1px solid var(--color-brand);\n",
    ] {
        assert!(css.contains(line), "{line}{css}");
    }
    let spec = app.get("/brand/legacy/spec.json").json();
    assert_eq!(
        spec["tokens"]["color"]["base"]["red"]["$description"],
        "Alarm."
    );
}

#[test]
fn a_style_dictionary_mistake_is_reported_in_the_source_file_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    let broken = STYLE_DICTIONARY.replace(
        r#""font": { "value": "{color.base.gray.dark.value}" }"#,
        r#""font": { "value": "{color.base.gray.darkest.value}" }"#,
    );
    brand(
        &root,
        "legacy",
        r#"{"path": "sd.json", "format": "style-dictionary"}"#,
        "sd.json",
        &broken,
    );
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", root.to_str().unwrap()])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    // One bad token never sinks an export: it alone is left out.
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(
            "warning[MQ1702]: reference `{color.base.gray.darkest}` does not name a token; this token is left out, and the rest publishes without it\n --> legacy/sd.json:7:24"
        ),
        "{text}"
    );
    let app = spawn_with(serve_config(&root));
    let css = app.get("/brand/legacy/tokens.css").text();
    assert!(
        !css.contains("--color-font:") && css.contains("--color-base-red: #ff0000;"),
        "{css}"
    );
}

#[test]
fn brand_json_names_its_tokens_plainly_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    brand(&root, "outside", r#""../x.json""#, "x.json", "{}");
    brand(
        &root,
        "unknown",
        r#"{"path": "x.json", "format": "yaml"}"#,
        "x.json",
        "{}",
    );
    brand(&root, "missing", r#""tokens/none.json""#, "x.json", "{}");
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", root.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    for want in [
        "\"../x.json\" is no path inside the brand folder",
        "unknown format \"yaml\"; the formats are dtcg, tokens-studio, style-dictionary, theo, figma-variables, figma-export",
        "brand.json's `tokens` names `tokens/none.json`, which is not in the brand folder",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
}

#[test]
fn a_resolver_may_name_style_dictionary_files_per_context() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    brand(
        &root,
        "modes",
        r#""tokens/modes.resolver.json""#,
        "tokens/light.json",
        r##"{"color": {"bg": {"value": "#ffffff"}, "fg": {"value": "{color.ink.value}"}, "ink": {"value": "#111111", "comment": "Text."}}}"##,
    );
    std::fs::write(
        root.join("modes/tokens/dark.json"),
        r##"{"color": {"bg": {"value": "#000000"}, "ink": {"value": "#eeeeee"}}}"##,
    )
    .unwrap();
    std::fs::write(
        root.join("modes/tokens/modes.resolver.json"),
        r##"{"version": "2025.10",
             "sets": {"base": {"sources": [{"$ref": "light.json"}]}},
             "modifiers": {"theme": {"contexts": {"light": [], "dark": [{"$ref": "dark.json"}]}, "default": "light"}},
             "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}]}"##,
    )
    .unwrap();
    let app = spawn_with(serve_config(&root));
    let css = app.get("/brand/modes/tokens.css").text();
    assert!(css.contains("  --color-bg: #ffffff;\n"), "{css}");
    assert!(css.contains("  --color-fg: var(--color-ink);\n"), "{css}");
    let dark = css.split("[data-theme=\"dark\"] {").nth(1).expect(&css);
    assert!(
        dark.contains("--color-bg: #000000;") && dark.contains("--color-ink: #eeeeee;"),
        "{dark}"
    );
}

#[test]
fn import_converts_style_dictionary_sources_and_again_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("design-tokens.json");
    std::fs::write(
        &input,
        STYLE_DICTIONARY.replace(
            "{color.base.gray.dark.value}",
            "{color.base.gray.nope.value}",
        ),
    )
    .unwrap();
    let run = |file: &Path, out: &Path| {
        Command::new(env!("CARGO_BIN_EXE_marque"))
            .args([
                "import",
                file.to_str().unwrap(),
                "--slug",
                "legacy",
                "--out",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap()
    };
    // A bad token is left out of the import, and said so: the import is
    // written, and fails, unless a partial import is accepted.
    let partial = run(&input, &dir.path().join("partial"));
    let text = String::from_utf8_lossy(&partial.stdout).to_string();
    assert_eq!(partial.status.code(), Some(1), "{text}");
    assert!(
        text.contains("      1 × MQ1702 left-out-broken-reference: ")
            && text.contains("kept 7 of 9 tokens")
            && text.contains("the import is partial: 1 token(s) left out for errors (above); fix them, or accept it with --allow-partial"),
        "counted by code: {text}"
    );
    let accepted = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["import", "--allow-partial", "--slug", "legacy", "--out"])
        .arg(dir.path().join("accepted"))
        .arg(&input)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&accepted.stdout).to_string();
    assert!(accepted.status.success(), "{text}");
    assert!(
        text.contains("1 token(s) left out for errors, accepted (--allow-partial)"),
        "{text}"
    );
    // An error is in the input, not in what import would write.
    let theo = dir.path().join("theo.json");
    std::fs::write(&theo, "{\n  \"props\": 5\n}\n").unwrap();
    let failed = run(&theo, &dir.path().join("out"));
    let text = String::from_utf8_lossy(&failed.stdout).to_string();
    assert!(!failed.status.success());
    assert!(
        text.contains(&format!("--> {}:1:1", theo.display())),
        "{text}"
    );
    std::fs::write(&input, STYLE_DICTIONARY).unwrap();
    let out = dir.path().join("out");
    let ok = run(&input, &out);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
    let tokens = out.join("legacy/tokens.json");
    let first = std::fs::read_to_string(&tokens).unwrap();
    let again = dir.path().join("again");
    assert!(run(&tokens, &again).status.success());
    assert_eq!(
        first,
        std::fs::read_to_string(again.join("legacy/tokens.json")).unwrap()
    );
    // A folder is a Tokens Studio sync; in another format it is refused
    // with why, not "Is a directory".
    let folder = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["import", "--format", "style-dictionary"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&folder.stderr).contains("is a folder"),
        "{}",
        String::from_utf8_lossy(&folder.stderr)
    );
}

/// The real exports of `tests/fixtures/formats/` (each folder's SOURCE.md
/// says where it is from and under which licence).
pub(crate) fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/formats")
}

/// A brand folder of `files` (copied from `from`, under `tokens/`) and a
/// resolver: one set of `set`, and a `theme` modifier whose contexts add
/// the files given.
pub(crate) fn corpus_brand(
    root: &Path,
    slug: &str,
    from: &Path,
    set: &[String],
    themes: &[(&str, Vec<String>)],
) {
    let dir = root.join(slug);
    copy_dir(from, &dir.join("tokens"));
    let refs = |files: &[String]| -> Vec<serde_json::Value> {
        files
            .iter()
            .map(|f| serde_json::json!({"$ref": format!("tokens/{f}")}))
            .collect()
    };
    let mut doc = serde_json::json!({
        "version": "2025.10",
        "sets": {"all": {"sources": refs(set)}},
        "resolutionOrder": [{"$ref": "#/sets/all"}]
    });
    if !themes.is_empty() {
        let contexts: serde_json::Map<String, serde_json::Value> = themes
            .iter()
            .map(|(name, files)| (name.to_string(), serde_json::Value::Array(refs(files))))
            .collect();
        doc["modifiers"] =
            serde_json::json!({"theme": {"contexts": contexts, "default": themes[0].0}});
        doc["resolutionOrder"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"$ref": "#/modifiers/theme"}));
    }
    std::fs::write(dir.join("tokens.resolver.json"), doc.to_string()).unwrap();
    std::fs::write(
        dir.join("brand.json"),
        format!(
            r#"{{"name": "{slug}", "summary": "x", "version": "0.1.0", "updated": "2026-11-20"}}"#
        ),
    )
    .unwrap();
}

/// Every `.json` file under `dir`, relative to it, in path order.
pub(crate) fn json_files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p.strip_prefix(dir).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    out.sort();
    out
}

/// The custom properties the rule `selector` of tokens.css declares, by
/// name (without `--`); none when there is no such rule.
fn declarations(css: &str, selector: &str) -> std::collections::HashMap<String, String> {
    let Some(body) = css.split(&format!("\n{selector} {{\n")).nth(1) else {
        return Default::default();
    };
    body.split("\n}")
        .next()
        .unwrap_or_default()
        .lines()
        .filter_map(|l| {
            let (k, v) = l
                .trim()
                .strip_prefix("--")?
                .strip_suffix(';')?
                .split_once(": ")?;
            Some((k.to_string(), v.to_string()))
        })
        .collect()
}

/// The colour a CSS hex or `rgb()` text names, as bytes and alpha.
fn rgba(css: &str) -> Option<[u32; 4]> {
    let css = css.trim();
    if let Some(h) = css.strip_prefix('#') {
        let byte = |i: usize| u32::from_str_radix(h.get(i..i + 2)?, 16).ok();
        return match h.len() {
            6 => Some([byte(0)?, byte(2)?, byte(4)?, 100]),
            _ => None,
        };
    }
    let inner = css
        .strip_prefix("rgba(")
        .or_else(|| css.strip_prefix("rgb("))?
        .strip_suffix(')')?;
    let n: Vec<f64> = inner
        .split([',', '/', ' '])
        .filter(|p| !p.is_empty())
        .map(|p| p.parse().ok())
        .collect::<Option<_>>()?;
    let a = n.get(3).copied().unwrap_or(1.0);
    Some([
        n[0] as u32,
        n[1] as u32,
        n[2] as u32,
        (a * 100.0).round() as u32,
    ])
}

/// Theo's raw files hold each prop's value as Theo built it: tokens.css
/// declares every colour prop with that value, in the default theme and
/// in Twilio Paste's dark theme (a context of the resolver).
#[test]
fn theo_exports_publish_with_the_values_theo_built() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    let twilio = fixtures().join("theo/twilio-paste");
    corpus_brand(
        &root,
        "twilio-paste",
        &twilio,
        &["tokens.raw.json".to_string()],
        &[
            ("default", vec![]),
            ("dark", vec!["themes/dark/tokens.raw.json".to_string()]),
        ],
    );
    let slds = fixtures().join("theo/salesforce-slds");
    let files: Vec<String> = json_files(&slds)
        .into_iter()
        // The form factors are alternatives; primitive.raw.json spells two
        // props of font.raw.json in capitals with other values, which one
        // CSS name cannot hold (an error marque reports).
        .filter(|f| !f.starts_with("form-factor-") || f == "form-factor-medium.raw.json")
        .filter(|f| f != "primitive.raw.json")
        .collect();
    corpus_brand(&root, "salesforce-slds", &slds, &files, &[]);
    let app = spawn_with(serve_config(&root));
    for (slug, raw, context) in [
        ("twilio-paste", twilio.join("tokens.raw.json"), None),
        (
            "twilio-paste",
            twilio.join("themes/dark/tokens.raw.json"),
            Some("dark"),
        ),
        ("salesforce-slds", slds.join("colors.raw.json"), None),
    ] {
        let css = app.get(&format!("/brand/{slug}/tokens.css")).text();
        let root = declarations(&css, ":root");
        let here = match context {
            None => root.clone(),
            Some(c) => declarations(&css, &format!("[data-theme=\"{c}\"]")),
        };
        // A prop that names one of Theo's aliases is a `var()` of the
        // alias's property, in the context or else in `:root`.
        let value = |name: &str| -> Option<String> {
            let mut v = here.get(name)?.clone();
            while let Some(to) = v.strip_prefix("var(--").and_then(|r| r.strip_suffix(')')) {
                v = here.get(to).or_else(|| root.get(to))?.clone();
            }
            Some(v)
        };
        let declared: std::collections::HashMap<&str, String> = here
            .keys()
            .filter_map(|k| Some((k.as_str(), value(k)?)))
            .collect();
        let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&raw).unwrap()).unwrap();
        let (mut compared, mut equal) = (0, 0);
        for (name, prop) in doc["props"].as_object().unwrap() {
            if prop["type"] != "color" {
                continue;
            }
            let want = rgba(prop["value"].as_str().unwrap());
            // A context declares only what differs from the default.
            let Some(got) = declared.get(name.as_str()) else {
                assert!(context.is_some(), "{slug}: --{name} is not declared");
                continue;
            };
            compared += 1;
            if rgba(got) == want {
                equal += 1;
            } else {
                println!(
                    "{slug} {context:?}: --{name} is {got}; Theo built {}",
                    prop["value"]
                );
            }
        }
        println!("{slug} {context:?}: {equal} of {compared} colour props as Theo built them");
        assert!(compared > 20, "{slug}: {compared}");
        assert_eq!(equal, compared, "{slug} {context:?}");
    }
}

/// Style Dictionary's own complete example and Cockroach Labs' tokens,
/// every file of each merged as Style Dictionary merges its sources,
/// publish with every token in tokens.css.
#[test]
fn style_dictionary_exports_publish_every_token() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    for system in ["style-dictionary-examples", "cockroachlabs-ui"] {
        let from = fixtures().join("style-dictionary").join(system);
        corpus_brand(&root, system, &from, &json_files(&from), &[]);
    }
    let app = spawn_with(serve_config(&root));
    for (system, some) in [
        (
            "style-dictionary-examples",
            "  --color-base-red-400: #ef5350;\n",
        ),
        (
            "cockroachlabs-ui",
            "  --color-base-blue: var(--color-core-blue-3);\n",
        ),
        // Bare numbers read by category, as Style Dictionary's css transforms do.
        (
            "style-dictionary-examples",
            "  --size-font-tiny: 0.75rem;\n",
        ),
        (
            "style-dictionary-examples",
            "  --time-transition-short: 200ms;\n",
        ),
    ] {
        let spec = app.get(&format!("/brand/{system}/spec.json"));
        assert_eq!(spec.status, 200, "{system} publishes");
        let css = app.get(&format!("/brand/{system}/tokens.css")).text();
        assert!(css.contains(some), "{system}: {some}");
        let properties = css.matches("\n  --").count();
        println!("{system}: {properties} custom properties in tokens.css");
        assert!(properties > 150, "{system}: {properties}");
    }
}

/// Figma's own variables export (GET /v1/files/:key/variables/local, a
/// real Primer file): its collections publish as sets and modifiers, and
/// every colour of the file's own `mode` collection, in each of its nine
/// modes, is in tokens.css what Figma shows (aliases followed in the
/// export itself, independently of marque). What cannot be read is left
/// out with a warning at its place in the export.
#[test]
fn figma_variables_publish_every_mode_as_figma_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    let export = fixtures().join("figma-variables/primer-via-terrazzo/get-local-variables.json");
    let text = std::fs::read_to_string(&export).unwrap();
    brand(
        &root,
        "primer",
        r#""figma/variables.json""#,
        "figma/variables.json",
        &text,
    );
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", root.to_str().unwrap()])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("is left out: it refers to `VariableID:")
            && said.contains("--> primer/figma/variables.json:1:"),
        "{said}"
    );

    // And Moon's (coingaming/moon-tokens): 27 brand modes, aliases into
    // collections of other modes.
    let moon =
        std::fs::read_to_string(fixtures().join("figma-variables/moon-tokens/variables.json"))
            .unwrap();
    brand(
        &root,
        "moon",
        r#""variables.json""#,
        "variables.json",
        &moon,
    );
    let app = spawn_with(serve_config(&root));
    for (slug, text, collection, attr, at_least) in [
        ("primer", &text, "mode", "mode", 5000),
        ("moon", &moon, "Global Colors", "global-colors", 1000),
    ] {
        let css = app.get(&format!("/brand/{slug}/tokens.css")).text();
        let (compared, equal) = figma_mode_colours(&css, text, collection, attr);
        println!("{slug}: {equal} of {compared} colours of `{collection}` as Figma shows them");
        assert!(compared > at_least, "{slug}: {compared}");
        assert_eq!(equal, compared, "{slug}");
    }
    drop(app);

    // `marque import` keeps the modes: a resolver, which imports with the
    // same tokens (a context's groups in the strict export's order).
    let out = dir.path().join("imported");
    let import = |file: &Path| {
        let o = Command::new(env!("CARGO_BIN_EXE_marque"))
            .args(["import", "--allow-partial", "--slug", "primer", "--out"])
            .arg(&out)
            .arg(file)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    let said = import(&export);
    assert!(
        said.contains("modifiers Data Table (condensed, normal, spacious)"),
        "{said}"
    );
    let resolver = out.join("primer/tokens.resolver.json");
    let json = |p: &Path| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
    };
    let first = json(&resolver);
    import(&resolver);
    assert!(first == json(&resolver));
}

/// Every colour of `collection` (the file's own) of a Figma variables
/// export (`text`), in each of its modes, against what tokens.css (`css`)
/// resolves it to under `[data-<attr>="<mode>"]`: Figma's value is its
/// alias followed in the export itself, in that mode where the target is
/// in the same collection, else in the target's only or default mode.
/// Compared and equal.
fn figma_mode_colours(css: &str, text: &str, collection: &str, attr: &str) -> (usize, usize) {
    let doc: serde_json::Value = serde_json::from_str(text).unwrap();
    let variables = doc["meta"]["variables"].as_object().unwrap();
    let collections = doc["meta"]["variableCollections"].as_object().unwrap();
    let (mode_id, mode) = collections
        .iter()
        .find(|(_, c)| c["name"] == collection && c["remote"] == false)
        .unwrap();
    fn figma_colour(
        vars: &serde_json::Map<String, serde_json::Value>,
        cols: &serde_json::Map<String, serde_json::Value>,
        id: &str,
        m: &str,
    ) -> Option<[u32; 4]> {
        let v = vars.get(id)?;
        let col = &cols[v["variableCollectionId"].as_str()?];
        let values = v["valuesByMode"].as_object()?;
        let value = values
            .get(m)
            .or_else(|| values.get(col["defaultModeId"].as_str()?))?;
        if value["type"] == "VARIABLE_ALIAS" {
            return figma_colour(vars, cols, value["id"].as_str()?, m);
        }
        let ch = |k: &str| (value[k].as_f64().unwrap() * 255.0).round() as u32;
        Some([
            ch("r"),
            ch("g"),
            ch("b"),
            (value["a"].as_f64()? * 100.0).round() as u32,
        ])
    }
    let names: std::collections::HashMap<&str, usize> =
        variables.values().fold(Default::default(), |mut n, v| {
            *n.entry(v["name"].as_str().unwrap()).or_default() += 1;
            n
        });

    let rule = |selector: &str| declarations(css, selector);
    let root_rule = rule(":root");
    let (mut compared, mut equal) = (0, 0);
    for m in mode["modes"].as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        let ident = marque::spec::tokens::css::kebab(name);
        let here = rule(&format!("[data-{attr}=\"{ident}\"]"));
        let value = |prop: &str| here.get(prop).or_else(|| root_rule.get(prop)).cloned();
        let resolve = |prop: &str| -> Option<[u32; 4]> {
            let mut v = value(prop)?;
            for _ in 0..16 {
                match v.strip_prefix("var(--").and_then(|r| r.strip_suffix(')')) {
                    Some(next) => v = value(next)?,
                    None => return rgba(&v),
                }
            }
            None
        };
        for (id, v) in variables {
            let unique = names[v["name"].as_str().unwrap()] == 1;
            if v["variableCollectionId"] != **mode_id || v["resolvedType"] != "COLOR" || !unique {
                continue;
            }
            let Some(want) =
                figma_colour(variables, collections, id, m["modeId"].as_str().unwrap())
            else {
                continue; // aliases a library's variable: left out
            };
            let prop =
                marque::spec::tokens::css::kebab(&v["name"].as_str().unwrap().replace('/', "."));
            let got = resolve(&prop);
            compared += 1;
            let near = got.is_some_and(|g| (0..4).all(|i| g[i].abs_diff(want[i]) <= 1));
            if near {
                equal += 1;
            } else {
                println!("{name}: --{prop} is {got:?}; Figma shows {want:?}");
            }
        }
    }
    (compared, equal)
}

/// The Tokens Studio corpus as 15 brands under `root`: the starter and
/// MetaMask files (`tokens.studio.json`), Digdir's two synced folders
/// (`design-tokens/`), each sd-transforms fixture a brand of its own
/// (`tokens/<file>`) but the three cross-file ones, one folder (`tokens/`).
pub(crate) fn tokens_studio_content(root: &Path) {
    let ts = fixtures().join("tokens-studio");
    let named = |slug: &str, tokens: &str| {
        std::fs::write(
            root.join(slug).join("brand.json"),
            format!(r#"{{"name": "{slug}", "summary": "x", "version": "1.0.0", "updated": "2026-11-20", "tokens": {tokens}}}"#),
        )
        .unwrap();
    };
    for (slug, file) in [
        ("starter", "tokens-studio-starter/default.json"),
        ("metamask", "metamask/tokens.json"),
    ] {
        std::fs::create_dir_all(root.join(slug)).unwrap();
        std::fs::copy(ts.join(file), root.join(slug).join("tokens.studio.json")).unwrap();
        named(slug, r#""tokens.studio.json""#);
    }
    for slug in ["digdir-designsystemet", "digdir-designsystemet-2024"] {
        copy_dir(&ts.join(slug), &root.join(slug).join("design-tokens"));
        named(slug, r#""design-tokens""#);
    }
    let sdt = ts.join("sd-transforms-fixtures");
    for file in json_files(&sdt) {
        let slug = file.trim_end_matches(".tokens.json").to_ascii_lowercase();
        let to = match slug.starts_with("cross-file-refs") {
            true => root.join("cross-file-refs/tokens").join(&file),
            false => root.join(&slug).join("tokens").join(&file),
        };
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(sdt.join(&file), &to).unwrap();
        if !slug.starts_with("cross-file-refs") {
            named(
                &slug,
                &format!(r#"{{"path": "tokens/{file}", "format": "tokens-studio"}}"#),
            );
        }
    }
    named("cross-file-refs", r#""tokens""#);
}

/// Tokens Studio as teams keep it: two files and two synced folders of
/// real systems, and sd-transforms' own fixtures (its cross-file ones as
/// one folder), publish with 0 errors. Digdir's fluid type, math over
/// sets that each Viewport theme overrides, is in each context what its
/// expressions evaluate to there (evaluated here, from the constants in
/// the file, independently of marque); a broken expression is an error in
/// the set's own file at its line.
#[test]
fn tokens_studio_files_and_synced_folders_publish_with_their_math() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    let ts = fixtures().join("tokens-studio");
    tokens_studio_content(&root);
    let check = |root: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_marque"))
            .args(["check", root.to_str().unwrap()])
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
        )
    };
    let (ok, said) = check(&root);
    assert!(ok, "{said}");
    assert!(
        said.contains("15 brand(s) checked, 15 valid: 0 error(s)"),
        "{said}"
    );

    // Digdir 2024: `font-scale.f5.fluid` by its own formula.
    let core: serde_json::Value = serde_json::from_slice(
        &std::fs::read(ts.join("digdir-designsystemet-2024/Base/Core.json")).unwrap(),
    )
    .unwrap();
    let c = &core["font-scale"]["const"];
    let num = |v: &serde_json::Value| v["value"].as_str().unwrap().parse::<f64>().unwrap();
    let round_to = |x: f64| (x * 10.0).round() / 10.0;
    let step = |k: &str| {
        5.0 * round_to(num(&c[k]["f0"]) * num(&c[k]["r"]).powf(5.0 / num(&c[k]["n"])) / 5.0)
    };
    let (min, max) = (step("min"), step("max"));
    let (vmin, vmax) = (num(&core["viewport"]["min"]), num(&core["viewport"]["max"]));
    // Each token's math is rounded to 4 decimals before another's uses it,
    // as sd-transforms builds it.
    let round4 = |x: f64| (x * 1e4).round() / 1e4;
    let v = round4(100.0 * (max - min) / (vmax - vmin));
    let r = round4((vmin * max - vmax * min) / (vmin - vmax));
    let fluid = |w: f64| (w / 100.0 * v + r).round();

    let app = spawn_with(serve_config(&root));
    let css = app
        .get("/brand/digdir-designsystemet-2024/tokens.css")
        .text();
    let declared = |selector: &str, prop: &str| -> String {
        let body = css.split(&format!("\n{selector} {{\n")).nth(1).unwrap();
        let rule = body.split("\n}").next().unwrap();
        let line = rule
            .lines()
            .find(|l| l.trim().starts_with(&format!("--{prop}:")))
            .unwrap();
        line.split_once(": ")
            .unwrap()
            .1
            .trim_end_matches(';')
            .to_string()
    };
    for (selector, width) in [
        (":root", 1440.0),
        ("[data-viewport=\"768\"]", 768.0),
        ("[data-viewport=\"320\"]", 320.0),
    ] {
        // H1's size is `font-size.f5`, `min(max(min, fluid), max)`, of
        // Base/Core: a `source` set, referred to and not published, so
        // the typography carries the value.
        let size = fluid(width).max(min).min(max);
        assert_eq!(
            declared(selector, "typography-heading-xlarge-font-size"),
            format!("{size}px"),
            "{selector}"
        );
    }
    assert!(!css.contains("--font-scale-f5-fluid:"), "{css}");
    assert!(css.contains("[data-brand=\"altinn\"] {"), "{css}");
    // Tokens Studio's own starter: `roundTo({fontSizes.body}*1.25^5)`.
    let starter = app.get("/brand/starter/tokens.css").text();
    assert!(starter.contains("  --font-sizes-h1: 49px;\n"), "{starter}");
    drop(app);

    // A broken expression: a warning in the set's file, at its line.
    let core_file = root.join("digdir-designsystemet-2024/design-tokens/Base/Core.json");
    let text = std::fs::read_to_string(&core_file).unwrap();
    std::fs::write(
        &core_file,
        text.replacen(
            "round(({viewport.width}/100)",
            "round(({viewport.width}/100) %",
            1,
        ),
    )
    .unwrap();
    let (ok, said) = check(&root);
    // The token alone is left out; the brand publishes.
    assert!(ok, "{said}");
    assert!(
        said.contains("does not evaluate")
            && said.contains("--> digdir-designsystemet-2024/design-tokens/Base/Core.json:"),
        "{said}"
    );

    // `marque import` takes the synced folder: a resolver with its themes.
    let imported = dir.path().join("imported");
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["import", "--slug", "digdir", "--out"])
        .arg(&imported)
        .arg(ts.join("digdir-designsystemet-2024"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains(
            "modifiers Brand (Digdir, Altinn, Tilsynet, Brreg), Viewport (1440, 768, 320)"
        ),
        "{said}"
    );
    assert!(imported.join("digdir/tokens.resolver.json").is_file());
}

/// Figma's own export folders (`<Collection>.<Mode>.json`, named by
/// brand.json's `tokens`, detected): each collection of several modes is a
/// modifier, and every colour of every file is in tokens.css, in its mode,
/// the colour the files say (their aliases followed here, across the
/// folder's files, independently of marque). A token DTCG has no type for
/// (`boolean`) is left out with a warning at its line; the rest publishes.
#[test]
fn figma_export_folders_publish_their_modes_with_the_files_values() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    let systems = ["equinor-eds", "figma-variables-github-action-example"];
    for slug in systems {
        copy_dir(
            &fixtures().join("figma-export").join(slug),
            &root.join(slug).join("figma"),
        );
        std::fs::write(
            root.join(slug).join("brand.json"),
            format!(r#"{{"name": "{slug}", "summary": "x", "version": "1.0.0", "updated": "2026-11-20", "tokens": "figma"}}"#),
        )
        .unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", root.to_str().unwrap()])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("warning[MQ1703]: unknown `$type` \"boolean\"; this token is left out, and the rest publishes without it\n --> figma-variables-github-action-example/figma/Product interactions — Completed.Default.json:3:14"),
        "{said}"
    );

    // Many diagnostics read as a few lines: grouped by kind, counted.
    assert!(
        said.contains("figma-variables-github-action-example: 0 error(s), 15 warning(s), by kind:\n     11 × warning[MQ1401]: \"…\" is the older string form;")
            && said.contains("      2 × warning[MQ1703]: unknown `…` \"…\"; this token is left out"),
        "{said}"
    );

    let app = spawn_with(serve_config(&root));
    let status = app.get("/status").json();
    let entry = status["brands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["slug"] == "equinor-eds")
        .unwrap();
    assert_eq!(entry["kinds"][0]["count"], 196, "{entry}");
    assert_eq!(entry["kinds"][0]["severity"], "warning", "{entry}");
    for slug in systems {
        let folder = fixtures().join("figma-export").join(slug);
        let css = app.get(&format!("/brand/{slug}/tokens.css")).text();
        let rule = |selector: &str| declarations(&css, selector);
        let root_rule = rule(":root");
        // Every file's tokens by dotted name, per file.
        let mut by_file: Vec<(
            String,
            std::collections::BTreeMap<String, serde_json::Value>,
        )> = Vec::new();
        for file in json_files(&folder) {
            let doc: serde_json::Value =
                serde_json::from_slice(&std::fs::read(folder.join(&file)).unwrap()).unwrap();
            let mut tokens = std::collections::BTreeMap::new();
            fn walk(
                v: &serde_json::Value,
                path: &mut Vec<String>,
                out: &mut std::collections::BTreeMap<String, serde_json::Value>,
            ) {
                let Some(o) = v.as_object() else { return };
                if o.contains_key("$value") {
                    out.insert(path.join("."), v.clone());
                    return;
                }
                for (k, c) in o.iter().filter(|(k, _)| !k.starts_with('$')) {
                    path.push(k.clone());
                    walk(c, path, out);
                    path.pop();
                }
            }
            walk(&doc, &mut Vec::new(), &mut tokens);
            by_file.push((file, tokens));
        }
        let stem = |f: &str| {
            f.trim_end_matches(".json")
                .rsplit_once('.')
                .map(|(c, m)| (c.to_string(), m.to_string()))
                .unwrap()
        };
        let (mut compared, mut equal) = (0, 0);
        for (file, tokens) in &by_file {
            let (collection, mode) = stem(file);
            let modes = by_file
                .iter()
                .filter(|(f, _)| stem(f).0 == collection)
                .count();
            let kebab = marque::spec::tokens::css::kebab;
            let selector = match modes {
                1 => None,
                _ => {
                    let name = collection
                        .rsplit_once('/')
                        .map_or(collection.as_str(), |(_, n)| n);
                    Some(format!("[data-{}=\"{}\"]", kebab(name), kebab(&mode)))
                }
            };
            let here = selector.as_deref().map(rule).unwrap_or_default();
            // The files this mode sees: this one, and every other
            // collection's only or default mode (Default, Light or Mode 1,
            // else the first).
            let default_of = |c: &str| {
                let mut ms: Vec<String> = by_file
                    .iter()
                    .map(|(f, _)| stem(f))
                    .filter(|(g, _)| g == c)
                    .map(|(_, m)| m)
                    .collect();
                ms.sort();
                ms.iter()
                    .find(|m| {
                        ["default", "light", "mode 1"].contains(&m.to_ascii_lowercase().as_str())
                    })
                    .unwrap_or(&ms[0])
                    .clone()
            };
            let seen: Vec<&std::collections::BTreeMap<String, serde_json::Value>> = by_file
                .iter()
                .filter(|(f, _)| {
                    let (c, m) = stem(f);
                    f == file || (c != collection && m == default_of(&c))
                })
                .map(|(_, t)| t)
                .collect();
            let lookup = |name: &str| seen.iter().rev().find_map(|t| t.get(name));
            for (name, token) in tokens {
                if token["$type"] != "color" {
                    continue;
                }
                let mut value = token["$value"].as_str().unwrap().to_string();
                for _ in 0..16 {
                    match value.strip_prefix('{').and_then(|v| v.strip_suffix('}')) {
                        Some(target) => {
                            value = lookup(target).unwrap()["$value"]
                                .as_str()
                                .unwrap()
                                .to_string()
                        }
                        None => break,
                    }
                }
                let hex = value.trim_start_matches('#');
                let byte = |i: usize| u32::from_str_radix(&hex[i..i + 2], 16).unwrap();
                let alpha = if hex.len() == 8 {
                    (f64::from(byte(6)) / 255.0 * 100.0).round() as u32
                } else {
                    100
                };
                let want = [byte(0), byte(2), byte(4), alpha];
                // tokens.css, its var() chain followed in this mode.
                let prop = marque::spec::tokens::css::kebab(name);
                let get = |p: &str| here.get(p).or_else(|| root_rule.get(p)).cloned();
                let mut got = get(&prop);
                for _ in 0..16 {
                    match got
                        .as_deref()
                        .and_then(|v| v.strip_prefix("var(--"))
                        .and_then(|r| r.strip_suffix(')'))
                    {
                        Some(next) => got = get(next),
                        None => break,
                    }
                }
                compared += 1;
                let got = got.as_deref().and_then(rgba);
                if got.is_some_and(|g| (0..4).all(|i| g[i].abs_diff(want[i]) <= 1)) {
                    equal += 1;
                } else {
                    println!("{slug} {file}: --{prop} is {got:?}; the file says {want:?}");
                }
            }
        }
        println!("{slug}: {equal} of {compared} colours, in their modes, as the files say");
        assert!(compared > 20, "{slug}: {compared}");
        assert_eq!(equal, compared, "{slug}");
    }
}

/// The 15 real exports of `tests/fixtures/formats/`, each a brand folder
/// under `root` (the consumer matrix builds them too).
pub(crate) fn export_content(root: &Path) {
    let f = fixtures();
    let named = |slug: &str, tokens: &str| {
        std::fs::write(
            root.join(slug).join("brand.json"),
            format!(r#"{{"name": "{slug}", "summary": "x", "version": "1.0.0", "updated": "2026-11-20", "tokens": {tokens}}}"#),
        )
        .unwrap();
    };
    let copy =
        |from: &str, slug: &str, to: &str| copy_dir(&f.join(from), &root.join(slug).join(to));
    copy("tokens-studio/digdir-designsystemet", "digdir", "tokens");
    named("digdir", r#""tokens""#);
    copy(
        "tokens-studio/digdir-designsystemet-2024",
        "digdir-2024",
        "tokens",
    );
    named("digdir-2024", r#""tokens""#);
    for (slug, file) in [
        ("starter", "tokens-studio-starter/default.json"),
        ("metamask", "metamask/tokens.json"),
    ] {
        std::fs::create_dir_all(root.join(slug)).unwrap();
        std::fs::copy(
            f.join("tokens-studio").join(file),
            root.join(slug).join("t.json"),
        )
        .unwrap();
        named(slug, r#""t.json""#);
    }
    copy(
        "tokens-studio/sd-transforms-fixtures",
        "sd-transforms",
        "tokens",
    );
    named(
        "sd-transforms",
        r#"{"path": "tokens", "format": "tokens-studio"}"#,
    );
    std::fs::create_dir_all(root.join("primer-figma")).unwrap();
    std::fs::copy(
        f.join("figma-variables/primer-via-terrazzo/get-local-variables.json"),
        root.join("primer-figma/v.json"),
    )
    .unwrap();
    named("primer-figma", r#""v.json""#);
    std::fs::create_dir_all(root.join("moon")).unwrap();
    std::fs::copy(
        f.join("figma-variables/moon-tokens/variables.json"),
        root.join("moon/variables.json"),
    )
    .unwrap();
    named("moon", r#""variables.json""#);
    copy("figma-export/equinor-eds", "equinor", "figma");
    named("equinor", r#""figma""#);
    copy(
        "figma-export/figma-variables-github-action-example",
        "action-example",
        "figma",
    );
    named("action-example", r#""figma""#);
    let twilio = f.join("theo/twilio-paste");
    corpus_brand(
        root,
        "twilio",
        &twilio,
        &["tokens.raw.json".to_string()],
        &[
            ("default", vec![]),
            ("dark", vec!["themes/dark/tokens.raw.json".to_string()]),
        ],
    );
    for (slug, from) in [
        ("slds", "theo/salesforce-slds"),
        ("backpack", "theo/skyscanner-backpack"),
        ("sd-examples", "style-dictionary/style-dictionary-examples"),
        ("cockroach", "style-dictionary/cockroachlabs-ui"),
        ("auro", "style-dictionary/auro-classic"),
    ] {
        let files: Vec<String> = json_files(&f.join(from))
            .into_iter()
            .filter(|p| !p.starts_with("expected/"))
            // SLDS: one form factor of the three alternatives.
            .filter(|p| !p.starts_with("form-factor-") || p == "form-factor-medium.raw.json")
            .collect();
        corpus_brand(root, slug, &f.join(from), &files, &[]);
    }
}

/// Every real export of `tests/fixtures/formats/` (15, in five formats) is
/// served as a brand and publishes with 0 errors: tokens.css declares its
/// tokens and the modes its tool describes exist. Theo's `imports` are
/// followed (Skyscanner Backpack's props name aliases of the files they
/// import), and a Style Dictionary file of notes only (Auro's
/// `comments.json`) is read as one.
#[test]
fn every_export_of_the_corpus_publishes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    export_content(&root);
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", root.to_str().unwrap()])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("15 brand(s) checked, 15 valid: 0 error(s)"),
        "{said}"
    );
    let app = spawn_with(serve_config(&root));
    for (slug, at_least, mode) in [
        ("digdir", 500, Some("[data-color-scheme=\"dark\"]")),
        ("digdir-2024", 350, Some("[data-viewport=\"320\"]")),
        ("starter", 100, None),
        ("metamask", 150, None),
        ("sd-transforms", 30, None),
        ("primer-figma", 1300, Some("[data-mode=\"dark-dimmed\"]")),
        ("moon", 150, Some("[data-global-colors=\"bc-dark\"]")),
        ("equinor", 600, Some("[data-color-scheme=\"dark\"]")),
        (
            "action-example",
            40,
            Some("[data-primitives-completed=\"brutal-theme\"]"),
        ),
        ("twilio", 200, Some("[data-theme=\"dark\"]")),
        ("slds", 60, None),
        ("backpack", 300, None),
        ("sd-examples", 1000, None),
        ("cockroach", 200, None),
        ("auro", 500, None),
    ] {
        let css = app.get(&format!("/brand/{slug}/tokens.css")).text();
        let root_rule = css.split("\n}\n").next().unwrap();
        let declared = root_rule
            .lines()
            .filter(|l| l.trim_start().starts_with("--"))
            .count();
        println!("{slug}: {declared} custom properties in :root");
        assert!(declared >= at_least, "{slug}: {declared}");
        if let Some(selector) = mode {
            assert!(
                css.contains(&format!("\n{selector} {{")),
                "{slug}: {selector}"
            );
        }
    }
    // Auro's comments name notes in its notes file: each reads as the
    // note's text, not the reference, in tokens.json as everywhere.
    let tokens = app.get("/brand/auro/tokens.json").json();
    assert_eq!(
        tokens["color"]["base"]["white"]["$description"],
        "// Base value for token support; should not use in code!"
    );
}

/// `marque import` takes each export of the corpus that is one file or
/// folder, the result checks clean, and importing the result again gives
/// the same tokens (byte for byte but for the order of a context's groups
/// after Figma's variables and Digdir's folder, whose sources interleave
/// them).
#[test]
fn every_export_of_the_corpus_imports_and_imports_again_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("content");
    let f = fixtures();
    let import = |slug: &str, input: &Path| {
        // Real exports leave some tokens out (each said): accepted here.
        let o = Command::new(env!("CARGO_BIN_EXE_marque"))
            .args(["import", "--allow-partial", "--slug", slug, "--out"])
            .arg(&out)
            .arg(input)
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&o.stdout).to_string();
        assert!(
            o.status.success(),
            "{slug}: {said}{}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    let exports = [
        (
            "starter",
            "tokens-studio/tokens-studio-starter/default.json",
        ),
        ("metamask", "tokens-studio/metamask/tokens.json"),
        ("digdir", "tokens-studio/digdir-designsystemet"),
        ("digdir-2024", "tokens-studio/digdir-designsystemet-2024"),
        (
            "primer",
            "figma-variables/primer-via-terrazzo/get-local-variables.json",
        ),
        ("moon", "figma-variables/moon-tokens/variables.json"),
        ("equinor", "figma-export/equinor-eds"),
        (
            "action-example",
            "figma-export/figma-variables-github-action-example",
        ),
        ("twilio", "theo/twilio-paste/tokens.raw.json"),
    ];
    // One file of a Style Dictionary source whose every token refers to
    // another file: nothing of it publishes, and the import says so and
    // fails, writing nothing, where it once wrote an empty brand and
    // exited 0.
    let o = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args([
            "import",
            "--allow-partial",
            "--slug",
            "cockroach-base",
            "--out",
        ])
        .arg(&out)
        .arg(f.join("style-dictionary/cockroachlabs-ui/color/base.json"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(o.status.code(), Some(1), "{said}");
    assert!(
        said.contains("kept 0 of 13 tokens") && said.contains("the import publishes no token"),
        "{said}"
    );
    assert!(!out.join("cockroach-base").exists());
    for (slug, from) in exports {
        import(slug, &f.join(from));
        let written = ["tokens.json", "tokens.resolver.json"]
            .map(|n| out.join(slug).join(n))
            .into_iter()
            .find(|p| p.is_file())
            .unwrap();
        let first = std::fs::read_to_string(&written).unwrap();
        import(slug, &written);
        let again = std::fs::read_to_string(&written).unwrap();
        let json = |t: &str| serde_json::from_str::<serde_json::Value>(t).unwrap();
        assert!(
            json(&first) == json(&again),
            "{slug}: importing the import changed its tokens"
        );
    }
    let o = Command::new(env!("CARGO_BIN_EXE_marque"))
        .arg("check")
        .arg(&out)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{said}");
    assert!(
        said.contains("9 brand(s) checked, 9 valid: 0 error(s)"),
        "{said}"
    );
}
