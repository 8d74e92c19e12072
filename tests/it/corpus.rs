//! The public DTCG corpus: the seven open-source design systems of npm
//! `dtcg-examples` 1.1.3 (MIT; `.ci/deps` fetches it into
//! `target/dtcg-examples-1.1.3`), each as a brand folder with its resolver
//! document and a three-line brand.json, through `marque check` and the
//! server.

use crate::helpers::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/dtcg-examples-1.1.3/package");
    let there = dir.join("package.json").is_file();
    require("the dtcg-examples corpus", there, "bash .ci/deps").then_some(dir)
}

#[test]
fn the_dtcg_corpus_checks_as_documented_and_serves() {
    let Some(corpus) = corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    corpus_content(&corpus, &root);
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", root.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    let mut errors: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut warnings: BTreeMap<String, usize> = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let d: Value = serde_json::from_str(line).unwrap();
        let brand = d["brand"].as_str().unwrap().to_string();
        match d["severity"].as_str() {
            Some("error") => errors
                .entry(brand)
                .or_default()
                .push(d["message"].as_str().unwrap().to_string()),
            _ => *warnings.entry(brand).or_default() += 1,
        }
    }
    println!("corpus warnings per system: {warnings:?}");
    assert!(errors.is_empty(), "{errors:#?}");
    assert_eq!(
        warnings.len(),
        6,
        "only Polaris is strict 2025.10: {warnings:?}"
    );
    // Every surface of every system is served.
    let app = spawn_with(serve_args(&root));
    let schema = jsonschema::draft202012::new(&app.get("/schema/spec.schema.json").json()).unwrap();
    for system in CORPUS_SYSTEMS {
        for surface in marque::render::Surface::ALL.map(|s| s.file()) {
            let res = app.get(&format!("/brand/{system}/{surface}"));
            assert_eq!(res.status, 200, "{system}/{surface}");
        }
        let spec = app.get(&format!("/brand/{system}/spec.json")).json();
        let errors: Vec<String> = schema
            .iter_errors(&spec)
            .map(|e| format!("{e} at {}", e.instance_path))
            .collect();
        assert!(errors.is_empty(), "{system}: {errors:#?}");
        let contexts: usize = spec["modes"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| m["contexts"].as_array().unwrap().len())
            .sum();
        let md = app.get(&format!("/brand/{system}/spec.md")).text();
        assert_eq!(md.contains("## Modes"), contexts > 0, "{system}");
        let css = app.get(&format!("/brand/{system}/tokens.css")).text();
        println!(
            "{system}: {} custom properties in tokens.css, spec.json {} bytes",
            css.matches("\n  --").count(),
            spec.to_string().len()
        );
    }
}

/// The published systems, built as static files into `out` (with `marque
/// build`), and their slugs.
fn built(corpus: &Path, dir: &Path) -> (PathBuf, Vec<String>) {
    let root = dir.join("content");
    corpus_content(corpus, &root);
    let out = dir.join("site");
    let status = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args([
            "build",
            root.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "every system builds");
    let mut slugs: Vec<String> = std::fs::read_dir(out.join("brand"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    slugs.sort();
    assert_eq!(slugs, CORPUS_SYSTEMS, "{slugs:?}");
    (out, slugs)
}

/// Runs `tool` in `dir`; its exit status and its output, both streams.
fn run_in(dir: &Path, tool: &Path, args: &[&str]) -> (bool, String) {
    let out = Command::new(tool)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// Tokens (objects with `$value`) in a DTCG document.
fn count_tokens(v: &Value) -> usize {
    match v {
        Value::Object(m) if m.contains_key("$value") => 1,
        Value::Object(m) => m.values().map(count_tokens).sum(),
        Value::Array(items) => items.iter().map(count_tokens).sum(),
        _ => 0,
    }
}

/// tokens.json and tokens.resolver.json of every published system build
/// with Terrazzo 2.7 (its lint on, default settings: no lint error, every
/// token built) and tokens.json with Style Dictionary 5.5.
#[test]
fn the_strict_exports_build_with_terrazzo_and_style_dictionary() {
    let Some(corpus) = corpus() else { return };
    let (Some(tz), Some(sd)) = (js_tool("tz"), js_tool("style-dictionary")) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (site, slugs) = built(&corpus, dir.path());
    for slug in &slugs {
        let brand = site.join("brand").join(slug);
        let tokens: Value =
            serde_json::from_slice(&std::fs::read(brand.join("tokens.json")).unwrap()).unwrap();
        let expected = count_tokens(&tokens);
        assert!(expected >= 30, "{slug}: {expected} tokens");
        for file in ["tokens.json", "tokens.resolver.json"] {
            let work = dir.path().join(format!("tz-{slug}-{file}"));
            std::fs::create_dir_all(&work).unwrap();
            std::fs::copy(brand.join(file), work.join(file)).unwrap();
            std::fs::write(
                work.join("terrazzo.config.mjs"),
                format!("export default {{ tokens: [\"./{file}\"], outDir: \"./out/\", plugins: [] }};\n"),
            )
            .unwrap();
            let (ok, text) = run_in(&work, &tz, &["build"]);
            assert!(ok, "Terrazzo refuses {slug}/{file}:\n{text}");
            assert!(!text.contains(" error"), "{slug}/{file}:\n{text}");
            assert!(
                text.contains(&format!("{expected} tokens built")),
                "Terrazzo builds every token of {slug}/{file} ({expected}):\n{}",
                text.lines().last().unwrap_or_default()
            );
            let warnings = text.lines().filter(|l| l.starts_with("lint:")).count();
            println!("terrazzo {slug}/{file}: {expected} tokens, {warnings} lint lines");
        }
        let work = dir.path().join(format!("sd-{slug}"));
        std::fs::create_dir_all(&work).unwrap();
        std::fs::copy(brand.join("tokens.json"), work.join("tokens.json")).unwrap();
        std::fs::write(
            work.join("sd.config.mjs"),
            "export default { source: [\"tokens.json\"], platforms: { css: { transformGroup: \"css\", buildPath: \"out/\", files: [{ destination: \"variables.css\", format: \"css/variables\" }] } } };\n",
        )
        .unwrap();
        let (ok, text) = run_in(&work, &sd, &["build", "-c", "sd.config.mjs"]);
        assert!(ok, "Style Dictionary refuses {slug}/tokens.json:\n{text}");
        let css = std::fs::read_to_string(work.join("out/variables.css")).unwrap();
        assert_eq!(
            css.matches("\n  --").count(),
            expected,
            "Style Dictionary writes a variable per token of {slug}"
        );
        // Style Dictionary 5.5 has no transform for 2025.10's duration
        // object (its transition transform says "TODO: add support for DTCG
        // duration object value type"), so it prints durations, and the
        // transitions made of them, as `[object Object]`; every other
        // variable must be a CSS value.
        let timed = names_of_type(&tokens, &["duration", "transition"]);
        for line in css.lines().filter(|l| l.contains("[object Object]")) {
            let name = line.trim().trim_start_matches("--");
            let name = name.split(':').next().unwrap().replace('-', "");
            assert!(timed.contains(&name), "{slug}: {line}");
        }
    }
}

/// The names of the tokens of `types` in a strict document (every token
/// carries its `$type`), joined without separators and lower-cased, as
/// they appear in a CSS variable with its hyphens taken out.
fn names_of_type(v: &Value, types: &[&str]) -> std::collections::HashSet<String> {
    fn walk(
        v: &Value,
        path: &mut Vec<String>,
        types: &[&str],
        out: &mut std::collections::HashSet<String>,
    ) {
        let Some(o) = v.as_object() else { return };
        if let Some(t) = o
            .get("$type")
            .and_then(Value::as_str)
            .filter(|_| o.contains_key("$value"))
        {
            if types.contains(&t) {
                out.insert(path.concat().replace('-', "").to_lowercase());
            }
            return;
        }
        for (k, child) in o.iter().filter(|(k, _)| !k.starts_with('$')) {
            path.push(k.clone());
            walk(child, path, types, out);
            path.pop();
        }
    }
    let mut out = std::collections::HashSet::new();
    walk(v, &mut Vec::new(), types, &mut out);
    out
}

/// `marque import` of each system writes a brand folder that checks clean
/// (no error; no warning but what a surface leaves out or two spellings
/// sharing a CSS name), prints what it normalised, and importing its
/// output again changes nothing.
#[test]
fn marque_import_makes_brand_folders_that_check_clean_and_import_to_themselves() {
    let Some(corpus) = corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let import = |file: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_marque"))
            .args([
                "import",
                file.to_str().unwrap(),
                "--out",
                content.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let mut imported = Vec::new();
    for system in CORPUS_SYSTEMS {
        let (code, text) = import(&corpus.join(format!("{system}.resolver.json")));
        assert_eq!(code, Some(0), "{system}: {text}");
        assert!(text.contains(&format!("as `{system}`")), "{text}");
        println!("{text}");
        imported.push(system);
    }
    assert_eq!(imported.len(), 7);
    assert!(
        std::fs::read_to_string(content.join("adobe-spectrum/brand.json"))
            .unwrap()
            .contains("\"palette\""),
        "roles are filled where the names make them obvious"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", content.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let d: Value = serde_json::from_str(line).unwrap();
        assert_eq!(d["severity"], "warning", "{d}");
        let message = d["message"].as_str().unwrap();
        // What a surface leaves out, and Primer's camelCase and kebab-case
        // spellings of one token, both strict DTCG, on one CSS property.
        assert!(
            message.contains("is left out of") || message.contains("their values agree"),
            "{message}"
        );
    }
    for system in imported {
        let file = content.join(system).join("tokens.resolver.json");
        let first = std::fs::read(&file).unwrap();
        let (code, text) = import(&file);
        assert_eq!(code, Some(0), "{text}");
        assert!(!text.contains("normalised"), "strict input: {text}");
        assert!(text.contains("kept"), "brand.json is kept: {text}");
        assert_eq!(
            std::fs::read(&file).unwrap(),
            first,
            "{system} imports to itself"
        );
    }
}

/// Every colour and px/rem dimension of every system's tokens.css, as
/// headless Chromium computes `color: var(--…)` and `margin-left: var(--…)`,
/// equals what an independent reader of the resolver document gives for
/// that permutation (`support/resolve_tokens.py`: its own merge, aliases
/// and colour conversion, nothing shared with marque but the naming of CSS
/// variables): the default; each context of each modifier named on
/// `<html>` and on a nested element; the default named inside another
/// context; contexts of two modifiers at once; and the reader's dark scheme
/// with and without the page naming a theme.
#[test]
fn chromium_computes_every_mode_as_an_independent_resolver_reads_it() {
    let Some(corpus) = corpus() else { return };
    let _one = crate::browser::BROWSER_LOCK
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let Some(b) = crate::browser::browser() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    corpus_content(&corpus, &root);
    let marque = crate::browser::marque_for_browser(&root);
    for system in CORPUS_SYSTEMS {
        let resolver = corpus.join(format!("{system}.resolver.json"));
        let doc: Value = serde_json::from_slice(&std::fs::read(&resolver).unwrap()).unwrap();
        let host = crate::browser::host_page(format!(
            "<!doctype html><html><head><link rel=\"stylesheet\" href=\"{}/brand/{system}/tokens.css\"></head>
             <body><div id=\"panel\"><div id=\"c\"></div><div id=\"d\"></div></div></body></html>",
            marque.public_url
        ));
        b.goto(&host.url());
        b.wait_for(
            "return document.readyState === 'complete'",
            "tokens.css loads",
        );
        let check = |what: &str,
                     chosen: &[(&str, &str)],
                     html: &[(&str, &str)],
                     panel: &[(&str, &str)]| {
            let expected = Reference::of(&resolver, chosen);
            let set = |id: &str, attrs: &[(&str, &str)]| {
                attrs
                    .iter()
                    .map(|(m, c)| {
                        format!("{id}.setAttribute('data-{}', '{}');", kebab(m), kebab(c))
                    })
                    .collect::<String>()
            };
            let painted = b.js(&format!(
                "const html = document.documentElement, panel = document.getElementById('panel');
                 for (const el of [html, panel]) for (const a of [...el.attributes]) if (a.name.startsWith('data-')) el.removeAttribute(a.name);
                 {}{}
                 const c = document.getElementById('c'), d = document.getElementById('d'), here = getComputedStyle(c);
                 const colors = {}.map(n => {{ c.style.color = 'rgb(1, 2, 3)'; c.style.color = 'var(' + n + ')'; return [here.getPropertyValue(n).trim(), getComputedStyle(c).color]; }});
                 const dims = {}.map(n => {{ d.style.marginLeft = '1234px'; d.style.marginLeft = 'var(' + n + ')'; return getComputedStyle(d).marginLeft; }});
                 return [colors, dims];",
                set("html", html),
                set("panel", panel),
                serde_json::to_string(&expected.color_vars()).unwrap(),
                serde_json::to_string(&expected.dimension_vars()).unwrap(),
            ));
            expected.assert_painted(&format!("{system} {what}"), &painted);
        };
        check("default", &[], &[], &[]);
        let modifiers: Vec<(String, Vec<String>, String)> = doc["modifiers"]
            .as_object()
            .map(|ms| {
                ms.iter()
                    .map(|(name, m)| {
                        let contexts: Vec<String> =
                            m["contexts"].as_object().unwrap().keys().cloned().collect();
                        let default = m["default"]
                            .as_str()
                            .map(String::from)
                            .unwrap_or_else(|| contexts[0].clone());
                        (name.clone(), contexts, default)
                    })
                    .collect()
            })
            .unwrap_or_default();
        for (m, contexts, default) in &modifiers {
            for c in contexts.iter().filter(|c| *c != default) {
                let one = [(m.as_str(), c.as_str())];
                check(&format!("{m}={c} on <html>"), &one, &one, &[]);
                check(&format!("{m}={c} on an element"), &one, &[], &one);
                let back = [(m.as_str(), default.as_str())];
                check(&format!("{m}={default} inside {m}={c}"), &[], &one, &back);
            }
        }
        if let [(m1, c1, d1), (m2, c2, d2), ..] = modifiers.as_slice() {
            let (a, b2) = (
                c1.iter().rfind(|c| *c != d1).unwrap(),
                c2.iter().rfind(|c| *c != d2).unwrap(),
            );
            let both = [(m1.as_str(), a.as_str()), (m2.as_str(), b2.as_str())];
            check(
                &format!("{m1}={a} and {m2}={b2} on <html>"),
                &both,
                &both,
                &[],
            );
        }
        if let Some((m, _, default)) = modifiers
            .iter()
            .find(|(_, cs, _)| cs.iter().any(|c| c == "dark") && cs.iter().any(|c| c == "light"))
        {
            b.emulate_dark(true);
            check("a reader's dark scheme", &[(m.as_str(), "dark")], &[], &[]);
            let named = [(m.as_str(), default.as_str())];
            check(
                "a reader's dark scheme, the page naming its theme",
                &[],
                &named,
                &[],
            );
            b.emulate_dark(false);
        }
        println!("{system}: every mode computes as resolved");
    }
}

/// A token name's segments as marque's CSS names write them.
fn kebab(name: &str) -> String {
    marque::spec::tokens::css::kebab(name)
}

/// What `support/resolve_tokens.py` reads for one permutation: each colour
/// token ([r, g, b] from 0 to 255, alpha) and px or rem dimension (px).
pub struct Reference {
    pub colors: BTreeMap<String, [f64; 4]>,
    pub dimensions: BTreeMap<String, f64>,
    /// Typography tokens' font sizes, px.
    pub font_sizes: BTreeMap<String, f64>,
    /// Font family tokens' families.
    pub fonts: BTreeMap<String, Vec<String>>,
}

impl Reference {
    pub fn of(resolver: &Path, chosen: &[(&str, &str)]) -> Reference {
        let script =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/support/resolve_tokens.py");
        let out = Command::new("python3")
            .arg(script)
            .arg(resolver)
            .args(chosen.iter().map(|(m, c)| format!("{m}={c}")))
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        Reference {
            colors: serde_json::from_value(v["colors"].clone()).unwrap(),
            dimensions: serde_json::from_value(v["dimensions"].clone()).unwrap(),
            font_sizes: serde_json::from_value(v["fontSizes"].clone()).unwrap(),
            fonts: serde_json::from_value(v["fonts"].clone()).unwrap(),
        }
    }

    fn var(name: &str) -> String {
        let path: Vec<String> = name.split('.').map(String::from).collect();
        format!("--{}", marque::spec::tokens::css::css_name(&path))
    }

    fn color_vars(&self) -> Vec<String> {
        self.colors.keys().map(|n| Self::var(n)).collect()
    }

    fn dimension_vars(&self) -> Vec<String> {
        self.dimensions.keys().map(|n| Self::var(n)).collect()
    }

    /// `painted` is `[[declared, computed colour]…], [computed margin…]`.
    fn assert_painted(&self, what: &str, painted: &Value) {
        let numbers = |s: &str| -> Vec<f64> {
            s.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
                .filter(|s| !s.is_empty() && *s != "-")
                .map(|s| s.parse().unwrap())
                .collect()
        };
        let colors = painted[0].as_array().unwrap();
        assert_eq!(colors.len(), self.colors.len());
        for ((name, want), got) in self.colors.iter().zip(colors) {
            let (declared, got) = (got[0].as_str().unwrap(), got[1].as_str().unwrap());
            let n = numbers(got);
            let alpha = n.get(3).copied().unwrap_or(1.0);
            let close = !declared.is_empty()
                && n.len() >= 3
                && (0..3).all(|i| (n[i] - want[i]).abs() <= 1.0)
                && (alpha - want[3]).abs() <= 0.01;
            assert!(
                close,
                "{what}: {} ({name}) is `{declared}`, painted {got}; the resolver reads {want:?}",
                Self::var(name)
            );
        }
        let dims = painted[1].as_array().unwrap();
        assert_eq!(dims.len(), self.dimensions.len());
        for ((name, want), got) in self.dimensions.iter().zip(dims) {
            let got = got.as_str().unwrap();
            let px = numbers(got).first().copied().unwrap_or(f64::NAN);
            assert!(
                (px - want).abs() <= 0.01,
                "{what}: {} ({name}) computes to {got}; the resolver reads {want}px",
                Self::var(name)
            );
        }
    }
}

/// tokens.figma.json of every system: a body Figma's OpenAPI description
/// accepts, a Figma mode per context, and every colour variable's value in
/// each mode (aliases followed, across collections, in the mode of the
/// same permutation) equal to what the independent resolver reads there.
#[test]
fn figma_gets_a_mode_per_context_with_the_resolvers_values() {
    let Some(corpus) = corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (site, slugs) = built(&corpus, dir.path());
    for slug in &slugs {
        let text = std::fs::read_to_string(site.join("brand").join(slug).join("tokens.figma.json"))
            .unwrap();
        crate::surfaces::assert_figma_accepts(&text);
        let body: Value = serde_json::from_str(&text).unwrap();
        let resolver = corpus.join(format!("{slug}.resolver.json"));
        let doc: Value = serde_json::from_slice(&std::fs::read(&resolver).unwrap()).unwrap();
        let modifiers = doc["modifiers"].as_object().cloned().unwrap_or_default();
        let modes = body["variableModes"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let contexts: usize = modifiers
            .values()
            .map(|m| m["contexts"].as_object().unwrap().len())
            .sum();
        let renamed = modes.iter().filter(|m| m["action"] == "UPDATE").count();
        assert_eq!(
            renamed,
            modifiers.len(),
            "{slug}: each modifier's default names its initial mode"
        );
        assert_eq!(modes.len(), contexts, "{slug}: a Figma mode per context");
        // Each permutation: the default, and each context alone.
        let mut permutations: Vec<Vec<(String, String)>> = vec![Vec::new()];
        for (m, modifier) in &modifiers {
            for c in modifier["contexts"].as_object().unwrap().keys() {
                permutations.push(vec![(m.clone(), c.clone())]);
            }
        }
        let mut compared = 0;
        for chosen in permutations {
            let pairs: Vec<(&str, &str)> = chosen
                .iter()
                .map(|(m, c)| (m.as_str(), c.as_str()))
                .collect();
            let reference = Reference::of(&resolver, &pairs);
            let figma = FigmaValues::new(&body, slug, &chosen);
            for (name, want) in &reference.colors {
                let Some(got) = figma.color(name) else {
                    continue;
                };
                compared += 1;
                let close = (0..3).all(|i| (got[i] * 255.0 - want[i]).abs() <= 0.51)
                    && (got[3] - want[3]).abs() <= 0.001;
                assert!(
                    close,
                    "{slug} {chosen:?}: {name} is {got:?} in Figma; the resolver reads {want:?}"
                );
            }
        }
        assert!(compared > 50, "{slug}: {compared}");
        println!(
            "{slug}: {} Figma modes, {compared} colour values equal the resolver's",
            body["variableCollections"].as_array().unwrap().len() + modes.len() - renamed
        );
    }
}

/// A Figma body read as Figma would show it for one permutation: each
/// collection in the mode of the chosen context, or its initial mode.
struct FigmaValues<'b> {
    by_name: BTreeMap<String, &'b Value>,
    by_id: BTreeMap<&'b str, &'b Value>,
    values: BTreeMap<(&'b str, &'b str), &'b Value>,
    mode_of: BTreeMap<&'b str, String>,
}

impl<'b> FigmaValues<'b> {
    fn new(body: &'b Value, slug: &str, chosen: &[(String, String)]) -> FigmaValues<'b> {
        let vars = body["variables"].as_array().unwrap();
        let mut mode_of: BTreeMap<&str, String> = body["variableCollections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["id"].as_str().unwrap(),
                    c["initialModeId"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        for (m, c) in chosen {
            let collection = format!("collection:{slug}:{m}");
            let key = mode_of.keys().find(|k| **k == collection).copied().unwrap();
            mode_of.insert(key, format!("mode:{slug}:{m}:{c}"));
        }
        FigmaValues {
            by_name: vars
                .iter()
                .map(|v| (v["name"].as_str().unwrap().replace('/', "."), v))
                .collect(),
            by_id: vars
                .iter()
                .map(|v| (v["id"].as_str().unwrap(), v))
                .collect(),
            values: body["variableModeValues"]
                .as_array()
                .unwrap()
                .iter()
                .map(|mv| {
                    (
                        (
                            mv["variableId"].as_str().unwrap(),
                            mv["modeId"].as_str().unwrap(),
                        ),
                        &mv["value"],
                    )
                })
                .collect(),
            mode_of,
        }
    }

    /// The colour of the variable for token `name`, aliases followed: r, g,
    /// b from 0 to 1 and alpha; `None` when it is not a colour variable.
    fn color(&self, name: &str) -> Option<[f64; 4]> {
        let mut var = *self.by_name.get(name)?;
        if var["resolvedType"] != "COLOR" {
            return None;
        }
        for _ in 0..64 {
            let mode = &self.mode_of[var["variableCollectionId"].as_str().unwrap()];
            let value = self.values[&(var["id"].as_str().unwrap(), mode.as_str())];
            if value["type"] == "VARIABLE_ALIAS" {
                var = self.by_id[value["id"].as_str().unwrap()];
                continue;
            }
            return Some(["r", "g", "b", "a"].map(|k| value[k].as_f64().unwrap()));
        }
        panic!("alias chain too long at {name}")
    }
}
