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
    let app = spawn_with(serve_config(&root));
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
pub(crate) fn built(corpus: &Path, dir: &Path) -> (PathBuf, Vec<String>) {
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
pub(crate) fn run_in(dir: &Path, tool: &Path, args: &[&str]) -> (bool, String) {
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

/// What Style Dictionary's `css/variables` makes of the `tokens.json` in
/// `brand`, built in `work`; the test fails if it refuses the file.
pub(crate) fn style_dictionary_css(sd: &Path, work: &Path, brand: &Path) -> String {
    std::fs::create_dir_all(work).unwrap();
    std::fs::copy(brand.join("tokens.json"), work.join("tokens.json")).unwrap();
    std::fs::write(
        work.join("sd.config.mjs"),
        "export default { source: [\"tokens.json\"], platforms: { css: { transformGroup: \"css\", buildPath: \"out/\", files: [{ destination: \"variables.css\", format: \"css/variables\" }] } } };\n",
    )
    .unwrap();
    let (ok, text) = run_in(work, sd, &["build", "-c", "sd.config.mjs"]);
    assert!(ok, "Style Dictionary refuses {}:\n{text}", brand.display());
    std::fs::read_to_string(work.join("out/variables.css")).unwrap()
}

/// Tokens (objects with `$value`) in a DTCG document.
pub(crate) fn count_tokens(v: &Value) -> usize {
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
        let css = style_dictionary_css(&sd, &dir.path().join(format!("sd-{slug}")), &brand);
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
/// they appear in a CSS variable with its hyphens taken out. Underscores
/// go too: Style Dictionary's kebab case writes SLDS's
/// `DURATION_INSTANTLY` as `--duration-instantly`.
pub(crate) fn names_of_type(v: &Value, types: &[&str]) -> std::collections::HashSet<String> {
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
                out.insert(path.concat().replace(['-', '_'], "").to_lowercase());
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
        assert!(
            text.contains("palette roles, guessed from token names (review them in brand.json):")
                || text.contains("palette: no role given"),
            "import says what it guessed, or that it guessed nothing: {text}"
        );
        println!("{text}");
        imported.push(system);
    }
    assert_eq!(imported.len(), 7);
    // The palette roles each system gets by the manual's rule (docs/tasks/start-a-brand.md), or none.
    let expected: [(&str, &[(&str, &str)]); 7] = [
        (
            "adobe-spectrum",
            &[
                ("accent", "accent-background-color-default"),
                ("text", "neutral-content-color-default"),
                ("background", "background-base-color"),
                ("success", "positive-background-color-default"),
                ("warning", "notice-background-color-default"),
                ("danger", "negative-background-color-default"),
            ],
        ),
        ("apple-hig", &[]),
        (
            "figma-sds",
            &[
                ("brand", "color.background.brand.$root"),
                ("accent", "color.background.default.secondary"),
                ("text", "color.text.default.$root"),
                ("background", "color.background.default.$root"),
                ("border", "color.border.default.$root"),
                ("success", "color.background.positive.$root"),
                ("warning", "color.background.warning.$root"),
                ("danger", "color.background.danger.$root"),
            ],
        ),
        (
            "github-primer",
            &[
                ("brand", "button.primary.bgColor.rest"),
                ("accent", "fgColor.accent"),
                ("text", "fgColor.default"),
                ("background", "bgColor.default"),
                ("border", "borderColor.default"),
                ("success", "fgColor.success"),
                ("warning", "fgColor.attention"),
                ("danger", "fgColor.danger"),
            ],
        ),
        ("ibm-carbon", &[]),
        (
            "microsoft-fluent",
            &[
                ("brand", "palette.themePrimary"),
                ("accent", "palette.themeSecondary"),
                ("text", "semanticColors.bodyText"),
                ("background", "semanticColors.bodyBackground"),
                ("border", "semanticColors.variantBorder"),
                ("success", "semanticColors.successBackground"),
                ("warning", "semanticColors.warningBackground"),
                ("danger", "semanticColors.errorText"),
            ],
        ),
        ("shopify-polaris", &[]),
    ];
    for (system, roles) in expected {
        let doc: Value = serde_json::from_str(
            &std::fs::read_to_string(content.join(system).join("brand.json")).unwrap(),
        )
        .unwrap();
        let got: Vec<(String, String)> = doc["color"]["palette"]
            .as_array()
            .map(|p| {
                p.iter()
                    .map(|e| {
                        let token = e["token"].as_str().unwrap();
                        (
                            e["role"].as_str().unwrap().to_string(),
                            token.trim_matches(['{', '}']).to_string(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default();
        let mut want: Vec<(String, String)> = roles
            .iter()
            .map(|(r, t)| (r.to_string(), t.to_string()))
            .collect();
        let mut got_sorted = got.clone();
        got_sorted.sort();
        want.sort();
        assert_eq!(got_sorted, want, "{system}'s palette roles");
    }
    // A brand.json that says nothing of voice or audience gets no empty
    // heading for them.
    let today = marque::clock::today();
    for files in &marque::source::read_folder(&content).unwrap().brands {
        let brand = marque::spec::parse_brand(files, today).0.unwrap();
        let md = marque::render::Surface::SpecMd.render(&brand, &crate::surfaces::ctx());
        let page = marque::render::html::render(&brand, &crate::surfaces::ctx()).body;
        assert!(
            !md.contains("## Voice") && !md.contains("## Audience"),
            "{}",
            brand.slug
        );
        assert!(!page.contains("<h2>Voice</h2>"), "{}", brand.slug);
    }
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
        // What a surface leaves out (MQ23xx), and Primer's camelCase and
        // kebab-case spellings of one token, both strict DTCG, on one CSS
        // property (MQ1802 css-name-shared).
        let code = d["code"].as_str().unwrap();
        assert!(code.starts_with("MQ23") || code == "MQ1802", "{d}");
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

/// Every value of every system's tokens.css that Chromium can compute, as
/// headless Chromium computes it, equals what an independent reader of the
/// resolver document gives for that permutation
/// (`support/resolve_tokens.py`: its own merge, aliases, `alpha` beside a
/// colour and colour conversion, nothing shared with marque but the naming
/// of CSS variables): every colour (`color: var(--…)`), px/rem dimension
/// (`margin-left`), shadow (`box-shadow`: each layer's colour, offsets,
/// blur, spread and inset; a string with references that reads as a
/// shadow too), border (`border`: colour, width, style) and font family
/// (`font-family`, of fontFamily tokens and of type styles). In the
/// default; each context of each modifier named on `<html>` and on a
/// nested element; the default named inside another context; contexts of
/// two modifiers at once; and the reader's dark scheme with and without
/// the page naming a theme.
///
/// The same for tailwind.css: its `@theme` and context rules, read as the
/// CSS Tailwind compiles them to, give each colour token's `--color-*`
/// literal (named as tailwind.css names it: the token's path in kebab case
/// without the words that only say "colour"; a token whose name is another
/// token's is left out, as its header lists) equal to the reader's in every
/// one of those contexts.
///
/// Every difference is collected and reported with counts per system,
/// type and context before the test fails.
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
    let mut tally = Tally::default();
    for system in CORPUS_SYSTEMS {
        let resolver = corpus.join(format!("{system}.resolver.json"));
        let doc: Value = serde_json::from_slice(&std::fs::read(&resolver).unwrap()).unwrap();
        let checks = checks_of(&doc);
        let mut references = References::new(&resolver);

        let host = crate::browser::host_page(probe_page(&format!(
            "<link rel=\"stylesheet\" href=\"{}/brand/{system}/tokens.css\">",
            marque.public_url
        )));
        b.goto(&host.url());
        b.wait_for(
            "return document.readyState === 'complete'",
            "tokens.css loads",
        );
        for check in &checks {
            b.emulate_dark(check.dark);
            let want = references.of(&check.chosen);
            let probe = Probe::of_tokens_css(want, check);
            let painted = b.js(&probe.script());
            probe.compare(want, &painted, &mut tally, system, &check.what);
        }
        b.emulate_dark(false);

        let tailwind = marque.get(&format!("/brand/{system}/tailwind.css")).text();
        let names = TailwindColours::of(&tailwind, references.of(&[]));
        let host = crate::browser::host_page(probe_page(&format!(
            "<style>{}</style>",
            tailwind_as_css(&tailwind)
        )));
        b.goto(&host.url());
        b.wait_for(
            "return document.readyState === 'complete'",
            "tailwind.css loads",
        );
        for check in &checks {
            b.emulate_dark(check.dark);
            let want = references.of(&check.chosen);
            let probe = Probe {
                html: check.html.clone(),
                panel: check.panel.clone(),
                colors: names.vars.iter().map(|(var, _)| var.clone()).collect(),
                ..Probe::default()
            };
            let painted = b.js(&probe.script());
            let got = painted["colors"].as_array().unwrap();
            for ((var, token), got) in names.vars.iter().zip(got) {
                let Some(want) = want.colors.get(token) else {
                    continue;
                };
                let (ok, detail) = color_matches(got, want);
                tally.compare(system, &check.what, "tailwind colour", ok, || {
                    format!("{token} ({var}) {detail}")
                });
            }
        }
        b.emulate_dark(false);
        tally.print(system, "tokens.css and tailwind.css in Chromium");
        let strings = &references.of(&[]).strings;
        println!(
            "{system}: tailwind.css names {} colour tokens ({} left out as another token's name, {} not found: {:?}); {} strings with references ({:?})",
            names.vars.len(),
            names.named_for_another,
            names.not_found.len(),
            names.not_found.iter().take(5).collect::<Vec<_>>(),
            strings.len(),
            strings.keys().take(5).collect::<Vec<_>>()
        );
    }
    tally.finish("tokens.css and tailwind.css, as Chromium computes them");
}

/// One way of choosing contexts, and what the resolver is asked for it.
struct Check {
    what: String,
    /// The permutation the reader resolves.
    chosen: Vec<(String, String)>,
    /// Data attributes on `<html>` and on the element holding the probes.
    html: Vec<(String, String)>,
    panel: Vec<(String, String)>,
    /// The reader prefers a dark colour scheme.
    dark: bool,
}

/// Every check of a resolver document: the default; each context of each
/// modifier on `<html>`, on an element, and the default inside it; the
/// last contexts of two modifiers at once; the reader's dark scheme.
fn checks_of(doc: &Value) -> Vec<Check> {
    type Pairs<'a> = [(&'a str, &'a str)];
    fn check(what: String, chosen: &Pairs, html: &Pairs, panel: &Pairs, dark: bool) -> Check {
        let attrs = |pairs: &Pairs| -> Vec<(String, String)> {
            pairs
                .iter()
                .map(|(m, c)| (format!("data-{}", kebab(m)), kebab(c)))
                .collect()
        };
        Check {
            what,
            chosen: chosen
                .iter()
                .map(|(m, c)| (m.to_string(), c.to_string()))
                .collect(),
            html: attrs(html),
            panel: attrs(panel),
            dark,
        }
    }
    let mut checks = vec![check("default".into(), &[], &[], &[], false)];
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
            checks.push(check(format!("{m}={c} on <html>"), &one, &one, &[], false));
            checks.push(check(
                format!("{m}={c} on an element"),
                &one,
                &[],
                &one,
                false,
            ));
            let back = [(m.as_str(), default.as_str())];
            checks.push(check(
                format!("{m}={default} inside {m}={c}"),
                &[],
                &one,
                &back,
                false,
            ));
        }
    }
    if let [(m1, c1, d1), (m2, c2, d2), ..] = modifiers.as_slice() {
        let (a, b) = (
            c1.iter().rfind(|c| *c != d1).unwrap(),
            c2.iter().rfind(|c| *c != d2).unwrap(),
        );
        let both = [(m1.as_str(), a.as_str()), (m2.as_str(), b.as_str())];
        checks.push(check(
            format!("{m1}={a} and {m2}={b} on <html>"),
            &both,
            &both,
            &[],
            false,
        ));
    }
    if let Some((m, _, default)) = modifiers
        .iter()
        .find(|(_, cs, _)| cs.iter().any(|c| c == "dark") && cs.iter().any(|c| c == "light"))
    {
        let dark = [(m.as_str(), "dark")];
        checks.push(check(
            "a reader's dark scheme".into(),
            &dark,
            &[],
            &[],
            true,
        ));
        let named = [(m.as_str(), default.as_str())];
        checks.push(check(
            "a reader's dark scheme, the page naming its theme".into(),
            &[],
            &named,
            &[],
            true,
        ));
    }
    checks
}

/// A page with `head` and the probe elements: `#panel` (where a context
/// is named on an element) holding `#probe`, whose colour and font family
/// are what a property falls back to when its `var()` is invalid.
fn probe_page(head: &str) -> String {
    format!(
        "<!doctype html><html><head>{head}</head><body><div id=\"panel\">
         <div id=\"probe\" style=\"color: rgb(1, 2, 3); font-family: no-font-here\">
         <div id=\"c\"></div><div id=\"d\"></div><div id=\"s\"></div><div id=\"bd\"></div><div id=\"f\"></div>
         </div></div></body></html>"
    )
}

/// The custom properties one JavaScript call computes, by what it sets:
/// `color`, `margin-left`, `box-shadow`, `border`, `font-family`.
#[derive(Default, serde::Serialize)]
struct Probe {
    html: Vec<(String, String)>,
    panel: Vec<(String, String)>,
    colors: Vec<String>,
    dims: Vec<String>,
    shadows: Vec<String>,
    borders: Vec<String>,
    fonts: Vec<String>,
    /// The token of each entry of `fonts`, and whether it is a type style's.
    #[serde(skip)]
    font_tokens: Vec<(String, bool)>,
}

/// Reads what Chromium computes: a colour as [r, g, b, alpha] (0 to 255;
/// relative colours compute to `color(srgb …)`), a shadow as its layers,
/// a font family list as its families without quotes.
const PROBE_JS: &str = r#"
const rgba = s => {
  let m = s.match(/^rgba?\(([^)]*)\)$/);
  if (m) { const n = m[1].split(/[\s,\/]+/).filter(Boolean).map(Number); return [n[0], n[1], n[2], n.length > 3 ? n[3] : 1]; }
  m = s.match(/^color\(srgb ([^)]*)\)$/);
  if (m) { const n = m[1].split(/[\s\/]+/).filter(Boolean).map(Number); return [n[0] * 255, n[1] * 255, n[2] * 255, n.length > 3 ? n[3] : 1]; }
  return null;
};
const splitTop = s => { const out = []; let depth = 0, cur = ''; for (const ch of s) { if (ch === '(') depth++; if (ch === ')') depth--; if (ch === ',' && depth === 0) { out.push(cur.trim()); cur = ''; } else cur += ch; } out.push(cur.trim()); return out; };
const layers = s => s === 'none' ? [] : splitTop(s).map(l => {
  const m = l.match(/^((?:rgba?|color)\([^)]*\))\s*(.*)$/);
  const rest = (m ? m[2] : l).split(/\s+/).filter(Boolean);
  return { color: m ? rgba(m[1]) : null, n: rest.filter(w => w !== 'inset').map(parseFloat), inset: rest.includes('inset') };
});
const families = s => { const out = []; let q = null, cur = ''; for (const ch of s) { if (q) { if (ch === q) q = null; else cur += ch; } else if (ch === '"' || ch === "'") q = ch; else if (ch === ',') { out.push(cur.trim()); cur = ''; } else cur += ch; } out.push(cur.trim()); return out.filter(Boolean); };
const html = document.documentElement, panel = document.getElementById('panel');
for (const el of [html, panel]) for (const a of [...el.attributes]) if (a.name.startsWith('data-')) el.removeAttribute(a.name);
for (const [k, v] of probe.html) html.setAttribute(k, v);
for (const [k, v] of probe.panel) panel.setAttribute(k, v);
const [c, d, s, bd, f] = ['c', 'd', 's', 'bd', 'f'].map(id => document.getElementById(id));
const here = getComputedStyle(c), declared = n => here.getPropertyValue(n).trim();
const colors = probe.colors.map(n => { c.style.color = 'rgb(1, 2, 3)'; c.style.color = 'var(' + n + ')'; const got = getComputedStyle(c).color; return [declared(n), got, rgba(got)]; });
const dims = probe.dims.map(n => { d.style.marginLeft = '1234px'; d.style.marginLeft = 'var(' + n + ')'; return [declared(n), getComputedStyle(d).marginLeft]; });
const shadows = probe.shadows.map(n => { s.style.boxShadow = 'none'; s.style.boxShadow = 'var(' + n + ')'; const got = getComputedStyle(s).boxShadow; return [declared(n), got, layers(got)]; });
const borders = probe.borders.map(n => { bd.style.border = '0px none'; bd.style.border = 'var(' + n + ')'; const cs = getComputedStyle(bd); return [declared(n), cs.borderTopWidth + ' ' + cs.borderTopStyle + ' ' + cs.borderTopColor, rgba(cs.borderTopColor), parseFloat(cs.borderTopWidth), cs.borderTopStyle]; });
const fonts = probe.fonts.map(n => { f.style.fontFamily = 'no-font-here'; f.style.fontFamily = 'var(' + n + ')'; const got = getComputedStyle(f).fontFamily; return [declared(n), got, families(got)]; });
return { colors, dims, shadows, borders, fonts };
"#;

impl Probe {
    /// Every value of `want` that tokens.css names, in `check`'s contexts.
    fn of_tokens_css(want: &Reference, check: &Check) -> Probe {
        let vars = |names: &mut dyn Iterator<Item = &String>| names.map(|n| var(n, None)).collect();
        let mut font_tokens: Vec<(String, bool)> =
            want.fonts.keys().map(|n| (n.clone(), false)).collect();
        font_tokens.extend(want.typography_fonts.keys().map(|n| (n.clone(), true)));
        Probe {
            html: check.html.clone(),
            panel: check.panel.clone(),
            colors: vars(&mut want.colors.keys()),
            dims: vars(&mut want.dimensions.keys()),
            shadows: vars(&mut want.shadows.keys()),
            borders: vars(&mut want.borders.keys()),
            fonts: font_tokens
                .iter()
                .map(|(n, styled)| var(n, styled.then_some("fontFamily")))
                .collect(),
            font_tokens,
        }
    }

    fn script(&self) -> String {
        format!(
            "const probe = {};\n{PROBE_JS}",
            serde_json::to_string(self).unwrap()
        )
    }

    /// Compares what Chromium `painted` for this probe with `want`, in
    /// `tally` as `system`'s `context`.
    fn compare(
        &self,
        want: &Reference,
        painted: &Value,
        tally: &mut Tally,
        system: &str,
        context: &str,
    ) {
        let mut report =
            |kind: &str, name: &str, var: &str, ok: bool, detail: &dyn Fn() -> String| {
                tally.compare(system, context, kind, ok, || {
                    format!("{name} ({var}) {}", detail())
                })
            };
        let list = |key: &str, len: usize| {
            let got = painted[key].as_array().unwrap().clone();
            assert_eq!(got.len(), len, "{key}: one answer per probe");
            got
        };
        let colors = list("colors", self.colors.len());
        for (((name, w), var), got) in want.colors.iter().zip(&self.colors).zip(&colors) {
            let (ok, detail) = color_matches(got, w);
            report("colour", name, var, ok, &|| detail.clone());
        }
        let dims = list("dims", self.dims.len());
        for (((name, w), var), got) in want.dimensions.iter().zip(&self.dims).zip(&dims) {
            let px = px_of(got[1].as_str().unwrap());
            let ok = (px - w).abs() <= 0.01;
            report("dimension", name, var, ok, &|| {
                format!(
                    "holds `{}`, computes {}; the resolver reads {w}px",
                    got[0], got[1]
                )
            });
        }
        let shadows = list("shadows", self.shadows.len());
        for (((name, w), var), got) in want.shadows.iter().zip(&self.shadows).zip(&shadows) {
            let layers = got[2].as_array().unwrap();
            let ok = layers.len() == w.len()
                && w.iter().zip(layers).all(|(w, g)| {
                    let color = w.color.unwrap_or(CURRENT_COLOR);
                    let n: Vec<f64> = serde_json::from_value(g["n"].clone()).unwrap_or_default();
                    color_close(&g["color"], &color)
                        && n.len() == 4
                        && [w.x, w.y, w.blur, w.spread]
                            .iter()
                            .zip(&n)
                            .all(|(a, b)| (a - b).abs() <= 0.01)
                        && g["inset"] == w.inset
                });
            report("shadow", name, var, ok, &|| {
                let layers: Vec<String> = w.iter().map(ShadowLayer::css).collect();
                format!(
                    "holds `{}`, computes `{}`; the resolver reads `{}`",
                    got[0].as_str().unwrap(),
                    got[1].as_str().unwrap(),
                    layers.join(", ")
                )
            });
        }
        let borders = list("borders", self.borders.len());
        for (((name, w), var), got) in want.borders.iter().zip(&self.borders).zip(&borders) {
            let ok = color_close(&got[2], &w.color)
                && got[3]
                    .as_f64()
                    .is_some_and(|px| (px - w.width).abs() <= 0.01)
                && got[4] == w.style.as_str();
            report("border", name, var, ok, &|| {
                format!(
                    "holds `{}`, computes `{}`; the resolver reads `{}px {} {}`",
                    got[0].as_str().unwrap(),
                    got[1].as_str().unwrap(),
                    w.width,
                    w.style,
                    css_rgba(&w.color)
                )
            });
        }
        let fonts = list("fonts", self.fonts.len());
        for (((name, styled), var), got) in self.font_tokens.iter().zip(&self.fonts).zip(&fonts) {
            let w = match styled {
                true => &want.typography_fonts[name],
                false => &want.fonts[name],
            };
            let mut families: Vec<String> = serde_json::from_value(got[2].clone()).unwrap();
            // tokens.css ends a stack that has no generic family with one
            // as tailwind.css does (one rule: `css::with_generic`).
            let generic = |f: &String| {
                [
                    "serif",
                    "sans-serif",
                    "monospace",
                    "ui-monospace",
                    "system-ui",
                ]
                .contains(&f.as_str())
            };
            if !w.last().is_some_and(generic)
                && families.len() > w.len()
                && families[..w.len()] == w[..]
                && families[w.len()..].iter().all(generic)
            {
                families.truncate(w.len());
            }
            report("font", name, var, &families == w, &|| {
                format!(
                    "holds `{}`, computes `{}`; the resolver reads {w:?}",
                    got[0].as_str().unwrap(),
                    got[1].as_str().unwrap()
                )
            });
        }
    }
}

/// The colour `#probe` gives its children: a shadow layer without a colour
/// paints in it (`currentcolor`).
const CURRENT_COLOR: [f64; 4] = [1.0, 2.0, 3.0, 1.0];

/// Whether a colour Chromium computed (`[declared, computed, [r, g, b, a]]`)
/// is `want`, and what it was.
fn color_matches(got: &Value, want: &[f64; 4]) -> (bool, String) {
    let ok = !got[0].as_str().unwrap_or_default().is_empty() && color_close(&got[2], want);
    let detail = format!(
        "holds `{}`, computes `{}`; the resolver reads {}",
        got[0].as_str().unwrap_or_default(),
        got[1].as_str().unwrap_or_default(),
        css_rgba(want)
    );
    (ok, detail)
}

/// `[r, g, b, a]` (or null) within a byte of `want` in r, g, b and 0.01 in alpha.
fn color_close(got: &Value, want: &[f64; 4]) -> bool {
    let Ok(got) = serde_json::from_value::<[f64; 4]>(got.clone()) else {
        return false;
    };
    (0..3).all(|i| (got[i] - want[i]).abs() <= 1.0) && (got[3] - want[3]).abs() <= 0.01
}

fn css_rgba(c: &[f64; 4]) -> String {
    format!("rgb({:.1} {:.1} {:.1} / {:.3})", c[0], c[1], c[2], c[3])
}

/// The first number of a computed length, px.
fn px_of(s: &str) -> f64 {
    s.trim_end_matches("px").trim().parse().unwrap_or(f64::NAN)
}

/// A token's custom property in tokens.css, or that of one of its
/// composite's properties.
fn var(name: &str, property: Option<&str>) -> String {
    let mut path: Vec<String> = name.split('.').map(String::from).collect();
    path.extend(property.map(String::from));
    format!("--{}", marque::spec::tokens::css::css_name(&path))
}

/// tailwind.css as the CSS Tailwind compiles it to, for a page without
/// Tailwind: `@theme` is `:root`, and the `@custom-variant` rules, which
/// only tell Tailwind's compiler about variants, are left out. The context
/// rules are CSS already.
fn tailwind_as_css(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0i64;
    for line in text.lines() {
        let braces = line.matches('{').count() as i64 - line.matches('}').count() as i64;
        if depth > 0 {
            depth += braces;
            continue;
        }
        if line.starts_with("@custom-variant") {
            depth = braces;
            continue;
        }
        out.push_str(if line == "@theme {" { ":root {" } else { line });
        out.push('\n');
    }
    out
}

/// tailwind.css's `--color-*` theme variables and the colour token each
/// holds. tailwind.css names a colour token by its path, each segment in
/// kebab case and split at its hyphens, without the words that only say
/// it is a colour (`color`, `colors`, `colour`, `colours`; the last word
/// when nothing else is left); of two tokens with one name the one its
/// header lists as "another token's" is left out.
struct TailwindColours {
    vars: Vec<(String, String)>,
    named_for_another: usize,
    not_found: Vec<String>,
}

impl TailwindColours {
    fn of(text: &str, reference: &Reference) -> TailwindColours {
        let theme: std::collections::HashSet<&str> = text
            .split("@theme {")
            .nth(1)
            .and_then(|t| t.split("\n}").next())
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.trim().split(':').next())
            .filter(|n| n.starts_with("--color-"))
            .collect();
        let header = text.split("*/").next().unwrap_or_default();
        let mut out = TailwindColours {
            vars: Vec::new(),
            named_for_another: 0,
            not_found: Vec::new(),
        };
        for token in reference.colors.keys() {
            let words: Vec<String> = token
                .split('.')
                .flat_map(|s| {
                    kebab(s)
                        .split('-')
                        .filter(|w| !w.is_empty())
                        .map(String::from)
                        .collect::<Vec<_>>()
                })
                .collect();
            let kept: Vec<&str> = words
                .iter()
                .map(String::as_str)
                .filter(|w| !["color", "colors", "colour", "colours"].contains(w))
                .collect();
            let short = match kept.is_empty() {
                true => words.last().cloned().unwrap_or_default(),
                false => kept.join("-"),
            };
            let var = format!("--color-{short}");
            if header.contains(&format!(" *   {token} ({var} is another token's)")) {
                out.named_for_another += 1;
            } else if theme.contains(var.as_str()) {
                out.vars.push((var, token.clone()));
            } else {
                out.not_found.push(token.clone());
            }
        }
        out
    }
}

/// What each check compared and every difference, reported together at
/// the end of a test: counts per system, context and kind of value.
#[derive(Default)]
struct Tally {
    /// (system, context) in the order they were first compared.
    contexts: Vec<(String, String)>,
    kinds: Vec<String>,
    /// (system, context, kind) → (compared, equal).
    counts: std::collections::HashMap<(String, String, String), (usize, usize)>,
    /// (system, kind, what differs).
    misses: Vec<(String, String, String)>,
}

impl Tally {
    fn compare(
        &mut self,
        system: &str,
        context: &str,
        kind: &str,
        equal: bool,
        detail: impl FnOnce() -> String,
    ) {
        let at = (system.to_string(), context.to_string());
        if !self.contexts.contains(&at) {
            self.contexts.push(at);
        }
        if !self.kinds.iter().any(|k| k == kind) {
            self.kinds.push(kind.to_string());
        }
        let n = self
            .counts
            .entry((system.to_string(), context.to_string(), kind.to_string()))
            .or_default();
        n.0 += 1;
        if equal {
            n.1 += 1;
        } else {
            self.misses.push((
                system.to_string(),
                kind.to_string(),
                format!("{context}: {}", detail()),
            ));
        }
    }

    /// (compared, equal) of `kind` in `system`, in every context.
    fn total(&self, system: &str, kind: &str) -> (usize, usize) {
        self.counts
            .iter()
            .filter(|((s, _, k), _)| s == system && k == kind)
            .fold((0, 0), |a, (_, n)| (a.0 + n.0, a.1 + n.1))
    }

    /// Prints what `system` compared: equal of compared, per context and kind.
    fn print(&self, system: &str, what: &str) {
        let row = |counts: &dyn Fn(&str) -> (usize, usize)| {
            self.kinds
                .iter()
                .filter_map(|k| {
                    let (n, eq) = counts(k);
                    (n > 0).then(|| format!("{k} {eq}/{n}"))
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let contexts: Vec<&String> = self
            .contexts
            .iter()
            .filter(|(s, _)| s == system)
            .map(|(_, c)| c)
            .collect();
        println!("{system}: {what}, equal/compared per context:");
        for c in &contexts {
            let key = |k: &str| (system.to_string(), c.to_string(), k.to_string());
            println!(
                "  {c}: {}",
                row(&|k| self.counts.get(&key(k)).copied().unwrap_or_default())
            );
        }
        println!(
            "  all {} contexts: {}",
            contexts.len(),
            row(&|k| self.total(system, k))
        );
    }

    /// Fails, when something differs, with the count of differences per
    /// system and kind and a few of each (about 40 lines in all); every
    /// one of them is written to a file under the target directory.
    fn finish(self, what: &str) {
        let compared: usize = self.counts.values().map(|n| n.0).sum();
        println!(
            "{what}: {compared} values compared, {} differ",
            self.misses.len()
        );
        if self.misses.is_empty() {
            return;
        }
        let mut groups: Vec<(&str, &str)> = Vec::new();
        for (system, kind, _) in &self.misses {
            if !groups.contains(&(system, kind)) {
                groups.push((system, kind));
            }
        }
        let each = (40 / groups.len()).max(2);
        let mut report = Vec::new();
        for (system, kind) in &groups {
            let (n, eq) = self.total(system, kind);
            report.push(format!(
                "{system} {kind}: {} of {n} differ, such as",
                n - eq
            ));
            let lines = self
                .misses
                .iter()
                .filter(|(s, k, _)| s == system && k == kind)
                .take(each);
            report.extend(lines.map(|(_, _, line)| format!("    {line}")));
        }
        let file = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "{}.txt",
            what.replace(|c: char| !c.is_ascii_alphanumeric(), "-")
        ));
        let all: Vec<String> = self
            .misses
            .iter()
            .map(|(system, kind, line)| format!("{system} {kind} {line}\n"))
            .collect();
        std::fs::write(&file, all.concat()).unwrap();
        panic!(
            "{what}: {} of {compared} values differ from the resolver's (all of them in {}):\n  {}",
            self.misses.len(),
            file.display(),
            report.join("\n  ")
        );
    }
}

/// A token name's segments as marque's CSS names write them.
pub(crate) fn kebab(name: &str) -> String {
    marque::spec::tokens::css::kebab(name)
}

/// Readings of one resolver document, one per permutation, each read once.
struct References {
    resolver: PathBuf,
    read: BTreeMap<Vec<(String, String)>, Reference>,
}

impl References {
    fn new(resolver: &Path) -> References {
        References {
            resolver: resolver.to_path_buf(),
            read: BTreeMap::new(),
        }
    }

    fn of(&mut self, chosen: &[(String, String)]) -> &Reference {
        let mut key = chosen.to_vec();
        key.sort();
        let resolver = &self.resolver;
        self.read.entry(key).or_insert_with(|| {
            let pairs: Vec<(&str, &str)> = chosen
                .iter()
                .map(|(m, c)| (m.as_str(), c.as_str()))
                .collect();
            Reference::of(resolver, &pairs)
        })
    }
}

/// What `support/resolve_tokens.py` reads for one permutation: each colour
/// token ([r, g, b] from 0 to 255, alpha), px or rem dimension (px),
/// shadow, border and font family.
pub struct Reference {
    pub colors: BTreeMap<String, [f64; 4]>,
    pub dimensions: BTreeMap<String, f64>,
    /// Typography tokens' font sizes, px.
    pub font_sizes: BTreeMap<String, f64>,
    /// Font family tokens' families.
    pub fonts: BTreeMap<String, Vec<String>>,
    /// Typography tokens' font families.
    pub typography_fonts: BTreeMap<String, Vec<String>>,
    /// Shadow tokens, and strings with references that read as a shadow.
    pub shadows: BTreeMap<String, Vec<ShadowLayer>>,
    pub borders: BTreeMap<String, Border>,
    /// String values with references inside, resolved.
    pub strings: BTreeMap<String, String>,
}

#[derive(serde::Deserialize, Debug, Clone)]
pub struct ShadowLayer {
    /// `None`: the layer has no colour and paints in `currentcolor`.
    pub color: Option<[f64; 4]>,
    pub x: f64,
    pub y: f64,
    pub blur: f64,
    pub spread: f64,
    pub inset: bool,
}

impl ShadowLayer {
    fn css(&self) -> String {
        format!(
            "{} {}px {}px {}px {}px{}",
            self.color
                .map(|c| css_rgba(&c))
                .unwrap_or("currentcolor".into()),
            self.x,
            self.y,
            self.blur,
            self.spread,
            if self.inset { " inset" } else { "" }
        )
    }
}

#[derive(serde::Deserialize, Debug, Clone)]
pub struct Border {
    pub color: [f64; 4],
    pub width: f64,
    pub style: String,
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
        let field = |key: &str| v[key].clone();
        Reference {
            colors: serde_json::from_value(field("colors")).unwrap(),
            dimensions: serde_json::from_value(field("dimensions")).unwrap(),
            font_sizes: serde_json::from_value(field("fontSizes")).unwrap(),
            fonts: serde_json::from_value(field("fonts")).unwrap(),
            typography_fonts: serde_json::from_value(field("typographyFonts")).unwrap(),
            shadows: serde_json::from_value(field("shadows")).unwrap(),
            borders: serde_json::from_value(field("borders")).unwrap(),
            strings: serde_json::from_value(field("strings")).unwrap(),
        }
    }
}

/// tokens.figma.json of every system: a body Figma's OpenAPI description
/// accepts, a Figma mode per context, and every colour variable's value in
/// each mode (aliases followed, across collections, in the mode of the
/// same permutation) equal to what the independent resolver reads there:
/// every colour token in every context, every difference reported with
/// counts per system and context before the test fails.
#[test]
fn figma_gets_a_mode_per_context_with_the_resolvers_values() {
    let Some(corpus) = corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (site, slugs) = built(&corpus, dir.path());
    let mut tally = Tally::default();
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
        let (mut compared, mut absent) = (0, 0);
        for chosen in permutations {
            let pairs: Vec<(&str, &str)> = chosen
                .iter()
                .map(|(m, c)| (m.as_str(), c.as_str()))
                .collect();
            let context = match pairs.as_slice() {
                [] => "default".to_string(),
                pairs => pairs.iter().map(|(m, c)| format!("{m}={c}")).collect(),
            };
            let reference = Reference::of(&resolver, &pairs);
            let figma = FigmaValues::new(&body, slug, &chosen);
            for (name, want) in &reference.colors {
                let Some(got) = figma.color(name) else {
                    absent += 1;
                    continue;
                };
                compared += 1;
                let close = (0..3).all(|i| (got[i] * 255.0 - want[i]).abs() <= 0.51)
                    && (got[3] - want[3]).abs() <= 0.001;
                tally.compare(slug, &context, "figma colour", close, || {
                    let bytes = [got[0] * 255.0, got[1] * 255.0, got[2] * 255.0, got[3]];
                    format!(
                        "{name} is {} in Figma; the resolver reads {}",
                        css_rgba(&bytes),
                        css_rgba(want)
                    )
                });
            }
        }
        assert!(compared > 50, "{slug}: {compared}");
        println!(
            "{slug}: {} Figma modes; {absent} colour values of the resolver's have no COLOR variable",
            body["variableCollections"].as_array().unwrap().len() + modes.len() - renamed
        );
        tally.print(slug, "tokens.figma.json's colour variables per mode");
    }
    tally.finish("tokens.figma.json's colours per mode");
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

/// What the manual (docs/reference/tokens.md, "Strict exports") says of
/// the bundled brands and the token tools it recommends, held true: Terrazzo with its CSS plugin builds both of
/// Northwind's exports and stops on Lumen Health's Display P3 colours with
/// the message the manual quotes; Style Dictionary builds both brands'
/// tokens.json and prints `[object Object]` for exactly the variables the
/// manual lists. A tool that changes its mind fails this test, and the
/// manual with it.
#[test]
fn the_bundled_brands_build_with_the_recommended_tools_as_the_manual_says() {
    let (Some(tz), Some(sd)) = (js_tool("tz"), js_tool("style-dictionary")) else {
        return;
    };
    let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/js-tools/node_modules");
    let plugin = modules.join("@terrazzo/plugin-css/dist/index.js");
    if !require(
        "npm @terrazzo/plugin-css",
        plugin.is_file(),
        "bash .ci/deps",
    ) {
        return;
    }
    let readme = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference/tokens.md"),
    )
    .unwrap()
    .replace('\n', " ");
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["build", "--out"])
        .arg(&site)
        .arg(example_content())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    const P3: &str = "No color space found with id = \"display-p3\"";
    let mut outcomes = Vec::new();
    for slug in ["northwind", "lumen-health"] {
        for file in ["tokens.json", "tokens.resolver.json"] {
            let work = dir.path().join(format!("tz-{slug}-{file}"));
            std::fs::create_dir_all(&work).unwrap();
            std::fs::copy(site.join("brand").join(slug).join(file), work.join(file)).unwrap();
            std::fs::write(
                work.join("terrazzo.config.mjs"),
                format!(
                    "import css from {};\nexport default {{ tokens: [\"./{file}\"], outDir: \"./out/\", lint: {{ build: {{ enabled: false }} }}, plugins: [css({{ filename: \"tokens.css\" }})] }};\n",
                    serde_json::json!(plugin.to_str().unwrap())
                ),
            )
            .unwrap();
            let (ok, text) = run_in(&work, &tz, &["build"]);
            let outcome = match ok {
                true => "builds".to_string(),
                false if text.contains(P3) => "stops on display-p3".to_string(),
                false => format!("fails otherwise: {text}"),
            };
            outcomes.push(format!("terrazzo {slug}/{file}: {outcome}"));
        }
        let css = style_dictionary_css(
            &sd,
            &dir.path().join(format!("sd-{slug}")),
            &site.join("brand").join(slug),
        );
        let objects: Vec<&str> = css
            .lines()
            .filter(|l| l.contains("[object Object]"))
            .map(|l| l.trim().split(':').next().unwrap())
            .collect();
        for var in &objects {
            assert!(
                readme.contains(&format!("`{var}`")),
                "docs/reference/tokens.md names {var}, which Style Dictionary prints as [object Object]"
            );
        }
        outcomes.push(format!(
            "style-dictionary {slug}: {} [object Object]",
            objects.len()
        ));
    }
    assert_eq!(
        outcomes,
        [
            "terrazzo northwind/tokens.json: builds",
            "terrazzo northwind/tokens.resolver.json: builds",
            "style-dictionary northwind: 4 [object Object]",
            "terrazzo lumen-health/tokens.json: stops on display-p3",
            "terrazzo lumen-health/tokens.resolver.json: stops on display-p3",
            "style-dictionary lumen-health: 2 [object Object]",
        ]
    );
    assert!(
        readme.contains(P3),
        "docs/reference/tokens.md quotes Terrazzo's message"
    );
}
