//! Diagnostics carry a code in every form a tool reads them: the README's
//! index of codes is the code table, and `marque check --format json` and
//! `/status` carry the codes.

use crate::helpers::*;
use marque::spec::diag::{readme_index, Code};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap()
}

/// `marque check DIR --format FORMAT`: its exit status and standard output.
fn check(dir: &Path, format: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", dir.to_str().unwrap(), "--format", format])
        .env_remove("MARQUE_CONTENT")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// A git work tree holding the example content under `site/content/`,
/// with one error (lumen-health's version is no semver) and one warning
/// (a northwind token Figma has no variable for). Returns the tree and
/// the folder.
fn broken_content() -> (tempfile::TempDir, PathBuf) {
    let tree = tempfile::tempdir().unwrap();
    git2::Repository::init(tree.path()).unwrap();
    let content = tree.path().join("site/content");
    copy_dir(&example_content(), &content);
    let brand = content.join("lumen-health/brand.json");
    let text = std::fs::read_to_string(&brand).unwrap();
    std::fs::write(&brand, text.replacen("\"3.0.0-beta.2\"", "\"3.0\"", 1)).unwrap();
    add_figma_gaps(&content.join("northwind/tokens.json"), 1);
    (tree, content)
}

#[test]
fn the_readme_indexes_every_code_and_nothing_else() {
    let readme = readme();
    let start = readme
        .find("<!-- codes:start")
        .expect("the README has the index of codes");
    let start = start + readme[start..].find("-->\n").unwrap() + "-->\n".len();
    let end = readme.find("<!-- codes:end -->").unwrap();
    let expected = readme_index();
    assert!(
        readme[start..end] == expected,
        "the README's index of codes is not the code table (src/spec/diag/codes.rs); put this between its markers:\n{expected}"
    );
    // Every code the README mentions anywhere is one, and each has its anchor.
    let mentioned: BTreeSet<String> = readme
        .match_indices("MQ")
        .filter_map(|(i, _)| readme.get(i..i + 6))
        .filter(|s| s[2..].bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
        .collect();
    for m in &mentioned {
        assert!(Code::parse(m).is_some(), "the README mentions {m}, no code");
    }
    for code in Code::ALL {
        let anchor = format!("<a id=\"{}\"></a>`{code}`", code.anchor());
        assert!(readme.contains(&anchor), "{code} has no row in the README");
    }
}

#[test]
fn check_json_lines_carry_each_diagnostics_code_and_its_severity() {
    let (_tree, content) = broken_content();
    let (status, out) = check(&content, "json");
    assert_eq!(status, 1, "an error: exit 1, as before codes\n{out}");
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let codes: Vec<&str> = lines.iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["MQ1201", "MQ2301"], "{out}");
    for d in &lines {
        let code = Code::parse(d["code"].as_str().unwrap()).unwrap();
        assert_eq!(d["severity"], code.severity().as_str(), "{d}");
    }
    assert_eq!(lines[0]["file"], "lumen-health/brand.json");
    assert_eq!(lines[1]["file"], "northwind/tokens.json");
    // Without an error, every format exits 0.
    for format in ["human", "json"] {
        let (status, out) = check(&example_content(), format);
        assert_eq!(status, 0, "{format}: {out}");
    }
}

/// `/status` reports each diagnostic, and each kind, with its code, as the
/// OpenAPI document describes them.
#[test]
fn status_reports_codes_as_the_openapi_document_describes_them() {
    let (_tree, content) = broken_content();
    let app = spawn_with_readiness(serve_args(&content), false);
    app.wait_until(
        |a| a.get("/status").json()["generation"].as_u64() >= Some(1),
        "the content is built",
    );
    let status = app.get("/status").json();
    let openapi = app.get("/openapi.json").json();
    let compile = |name: &str| {
        let mut schema = openapi["components"]["schemas"][name].clone();
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema".into();
        jsonschema::draft202012::new(&schema).unwrap()
    };
    let (diagnostic, kind) = (compile("Diagnostic"), compile("DiagnosticKind"));
    let brands = status["brands"].as_array().unwrap().iter();
    let entries: Vec<&Value> = brands
        .chain(status["unpublished"].as_array().unwrap())
        .collect();
    let mut codes = BTreeSet::new();
    for entry in entries {
        for d in entry["diagnostics"].as_array().unwrap() {
            assert!(diagnostic.is_valid(d), "{d}");
            codes.insert(d["code"].as_str().unwrap().to_string());
        }
        for k in entry["kinds"].as_array().unwrap() {
            assert!(kind.is_valid(k), "{k}");
        }
    }
    assert_eq!(codes, BTreeSet::from(["MQ1201".into(), "MQ2301".into()]));
    // The schema is strict enough to fail: a code that is no code.
    let mut wrong = status["brands"][0]["diagnostics"][0].clone();
    wrong["code"] = "E0308".into();
    assert!(!diagnostic.is_valid(&wrong));
}
