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

const SYSTEMS: [&str; 7] = [
    "adobe-spectrum",
    "apple-hig",
    "figma-sds",
    "github-primer",
    "ibm-carbon",
    "microsoft-fluent",
    "shopify-polaris",
];

fn corpus() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/dtcg-examples-1.1.3/package");
    let there = dir.join("package.json").is_file();
    require("the dtcg-examples corpus", there, "bash .ci/deps").then_some(dir)
}

/// A content folder with one brand per system.
fn content(corpus: &Path, root: &Path) {
    for system in SYSTEMS {
        let brand = root.join(system);
        std::fs::create_dir_all(&brand).unwrap();
        std::fs::copy(
            corpus.join(format!("{system}.resolver.json")),
            brand.join("tokens.resolver.json"),
        )
        .unwrap();
        copy_dir(&corpus.join(system), &brand.join(system));
        std::fs::write(
            brand.join("brand.json"),
            format!(
                "{{\"name\": \"{system}\", \"version\": \"0.1.0\", \"updated\": \"2026-11-20\"}}\n"
            ),
        )
        .unwrap();
    }
}

#[test]
fn the_dtcg_corpus_checks_as_documented_and_serves() {
    let Some(corpus) = corpus() else { return };
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    content(&corpus, &root);
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
    for system in SYSTEMS.iter().filter(|s| !errors.contains_key(**s)) {
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
