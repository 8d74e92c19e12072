//! The `marque` binary's commands, run as a user runs them.

use crate::helpers::*;
use std::process::Command;

fn marque(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(args)
        .env_remove("MARQUE_CONTENT")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn check_passes_on_the_example_content() {
    let (code, out) = marque(&["check", example_content().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("2 brand(s) checked, 2 valid: 0 error(s)"),
        "{out}"
    );
}

#[test]
fn check_prints_compiler_style_errors_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    let brand = dir.path().join("northwind/brand.json");
    let text = std::fs::read_to_string(&brand)
        .unwrap()
        .replacen("\"2.4.0\"", "\"2.4\"", 1);
    std::fs::write(&brand, text).unwrap();
    let (code, out) = marque(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error: version \"2.4\" is not a semantic version"),
        "{out}"
    );
    assert!(out.contains("  --> northwind/brand.json:4:14"), "{out}");
    let (code, out) = marque(&["check", dir.path().to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 1);
    let line: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
    assert_eq!(line["severity"], "error");
    assert_eq!(line["file"], "northwind/brand.json");
    assert_eq!(line["pointer"], "/version");
    assert_eq!(
        (line["line"].as_u64(), line["column"].as_u64()),
        (Some(4), Some(14))
    );
}

#[test]
fn build_writes_every_surface_with_compressed_siblings() {
    let out = tempfile::tempdir().unwrap();
    let (code, text) = marque(&[
        "build",
        example_content().to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
        "--public-url",
        "https://brand.example.com",
    ]);
    assert_eq!(code, 0, "{text}");
    let root = out.path();
    for file in [
        "index.html",
        "llms.txt",
        "brands.json",
        "schema/brand.schema.json",
        "brand/northwind/index.html",
        "brand/northwind/spec.json",
        "brand/northwind/spec.md",
        "brand/northwind/tokens.css",
        "brand/northwind/tokens.figma.json",
        "brand/northwind/llms.txt",
        "brand/northwind/assets/logo.svg",
        "embed/brand/northwind.js",
        "_headers",
    ] {
        assert!(root.join(file).is_file(), "{file}");
    }
    let css = std::fs::read(root.join("brand/northwind/tokens.css")).unwrap();
    assert_eq!(
        gunzip(&std::fs::read(root.join("brand/northwind/tokens.css.gz")).unwrap()),
        css
    );
    assert_eq!(
        unbrotli(&std::fs::read(root.join("brand/northwind/tokens.css.br")).unwrap()),
        css
    );
    let spec = std::fs::read_to_string(root.join("brand/northwind/spec.json")).unwrap();
    assert!(spec.contains("https://brand.example.com/brand/northwind/spec.md"));
    assert!(
        !root.join("status").exists(),
        "operational documents are not published"
    );
}
