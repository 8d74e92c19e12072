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

fn corpus() -> Option<PathBuf> {
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
    // The two systems with no safe reading, for the reasons the README gives.
    assert_eq!(
        errors.keys().collect::<Vec<_>>(),
        ["apple-hig", "github-primer"],
        "{errors:#?}"
    );
    assert!(
        errors["apple-hig"].iter().all(|m| m
            .contains("defined only in set `typography`, which `resolutionOrder` does not list")),
        "{:#?}",
        errors["apple-hig"]
    );
    assert_eq!(errors["github-primer"], ["missing `lineHeight`"]);
    // Every surface of the others is served.
    let app = spawn_with(serve_args(&root));
    for system in CORPUS_SYSTEMS.iter().filter(|s| !errors.contains_key(**s)) {
        for surface in marque::render::Surface::ALL.map(|s| s.file()) {
            let res = app.get(&format!("/brand/{system}/{surface}"));
            assert_eq!(res.status, 200, "{system}/{surface}");
        }
        let spec = app.get(&format!("/brand/{system}/spec.json")).json();
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
    assert!(
        !status.success(),
        "two systems have errors, so the build says so"
    );
    let mut slugs: Vec<String> = std::fs::read_dir(out.join("brand"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    slugs.sort();
    assert_eq!(slugs.len(), 5, "{slugs:?}");
    (out, slugs)
}

/// The npm tools `.ci/deps` installs into `target/js-tools`.
fn js_tool(name: &str) -> Option<PathBuf> {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/js-tools/node_modules/.bin")
        .join(name);
    require(&format!("npm {name}"), bin.is_file(), "bash .ci/deps").then_some(bin)
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
        assert!(expected > 50, "{slug}: {expected} tokens");
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
        assert!(!css.contains("[object Object]"), "{slug}: {css}");
    }
}

/// `marque import` of each system writes a brand folder that checks clean
/// (no error; no warning but what a surface leaves out), prints what it normalised, and importing its
/// output again changes nothing; a system with an error is not imported.
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
        if matches!(system, "apple-hig" | "github-primer") {
            assert_eq!(code, Some(1), "{system}: {text}");
            assert!(text.contains("is not imported"), "{text}");
            assert!(!content.join(system).exists());
            continue;
        }
        assert_eq!(code, Some(0), "{system}: {text}");
        assert!(text.contains(&format!("as `{system}`")), "{text}");
        println!("{text}");
        imported.push(system);
    }
    assert_eq!(imported.len(), 5);
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
        assert!(message.contains("is left out of"), "{message}");
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
