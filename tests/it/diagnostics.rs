//! Diagnostics carry a code in every form a tool reads them: the manual's
//! index of codes (docs/reference/diagnostics.md) is the code table,
//! `marque check --format json` and `--format sarif` carry the codes, and the SARIF log is valid against
//! OASIS's SARIF 2.1.0 schema (tests/fixtures/sarif/SOURCE.md) and has
//! what GitHub code scanning reads.

use crate::helpers::*;
use marque::spec::diag::{readme_index, Code};
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The manual's page of diagnostics, which holds the index of codes.
fn index_page() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/reference/diagnostics.md"
    ))
    .unwrap()
}

/// The README and every page of the manual, one after another.
fn every_page() -> String {
    fn walk(dir: &Path, out: &mut String) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push_str(&std::fs::read_to_string(&path).unwrap());
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = std::fs::read_to_string(root.join("README.md")).unwrap();
    walk(&root.join("docs"), &mut out);
    out
}

/// `marque check DIR --format FORMAT`: its exit status and standard output.
fn check(dir: &Path, format: &str) -> (i32, String) {
    check_with(dir, format, &[])
}

/// [`check`] with more arguments.
fn check_with(dir: &Path, format: &str, more: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", dir.to_str().unwrap(), "--format", format])
        .args(more)
        .env_remove("MARQUE_CONTENT")
        .env_remove("MARQUE_PUBLIC_URL")
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

/// The official SARIF 2.1.0 schema (draft 4), compiled.
pub(crate) fn sarif_schema() -> jsonschema::Validator {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/sarif/sarif-schema-2.1.0.json"
    );
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(schema["$schema"], "http://json-schema.org/draft-04/schema#");
    jsonschema::draft4::new(&schema).unwrap()
}

pub(crate) fn schema_errors(validator: &jsonschema::Validator, log: &Value) -> Vec<String> {
    validator
        .iter_errors(log)
        .map(|e| format!("{e} at {}", e.instance_path))
        .collect()
}

#[test]
fn the_manual_indexes_every_code_and_nothing_else() {
    let page = index_page();
    let start = page
        .find("<!-- codes:start")
        .expect("docs/reference/diagnostics.md has the index of codes");
    let start = start + page[start..].find("-->\n").unwrap() + "-->\n".len();
    let end = page.find("<!-- codes:end -->").unwrap();
    let expected = readme_index();
    assert!(
        page[start..end] == expected,
        "docs/reference/diagnostics.md's index of codes is not the code table (src/spec/diag/codes.rs); put this between its markers:\n{expected}"
    );
    // Every code the README or the manual mentions anywhere is one, and
    // each has its anchor in the index.
    let pages = every_page();
    let mentioned: BTreeSet<String> = pages
        .match_indices("MQ")
        .filter_map(|(i, _)| pages.get(i..i + 6))
        .filter(|s| s[2..].bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
        .collect();
    for m in &mentioned {
        assert!(Code::parse(m).is_some(), "the docs mention {m}, no code");
    }
    for code in Code::ALL {
        let anchor = format!("<a id=\"{}\"></a>`{code}`", code.anchor());
        assert!(page.contains(&anchor), "{code} has no row in the index");
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
    for format in ["human", "json", "sarif"] {
        let (status, out) = check(&example_content(), format);
        assert_eq!(status, 0, "{format}: {out}");
    }
}

#[test]
fn check_writes_sarif_that_the_official_schema_and_code_scanning_accept() {
    let (_tree, content) = broken_content();
    // Given the public URL of the marque that serves the brands, each
    // rule links to that server's page of codes (served: see below).
    let (status, out) = check_with(
        &content,
        "sarif",
        &["--public-url", "https://brand.example.com/"],
    );
    assert_eq!(status, 1, "an error: exit 1, as for the other formats");
    let log: Value = serde_json::from_str(&out).unwrap();
    let validator = sarif_schema();
    let errors = schema_errors(&validator, &log);
    assert!(errors.is_empty(), "{errors:#?}\n{out}");
    assert_eq!(log["version"], "2.1.0");
    assert_eq!(
        log["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let driver = &runs[0]["tool"]["driver"];
    assert_eq!(driver["name"], "marque");
    assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(driver["informationUri"], "https://brand.example.com/");
    // A rule per code found, with what code scanning shows of it.
    let rules = driver["rules"].as_array().unwrap();
    let ids: Vec<&str> = rules.iter().map(|r| r["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["MQ1201", "MQ2301"]);
    let index = index_page();
    for r in rules {
        let code = Code::parse(r["id"].as_str().unwrap()).unwrap();
        assert_eq!(r["name"], code.name());
        assert_eq!(r["shortDescription"]["text"], code.means());
        assert!(r["fullDescription"]["text"]
            .as_str()
            .unwrap()
            .contains(code.fix()));
        assert_eq!(r["help"]["text"], code.fix());
        assert_eq!(r["defaultConfiguration"]["level"], code.severity().as_str());
        let (page, anchor) = r["helpUri"].as_str().unwrap().rsplit_once('#').unwrap();
        assert_eq!(page, "https://brand.example.com/codes");
        assert!(
            index.contains(&format!("<a id=\"{anchor}\"></a>")),
            "{anchor} is an anchor of the index of codes"
        );
    }
    // Without one, no link to a site that may not exist; the help text
    // carries the fix, and the log is still valid.
    let (_, bare) = check(&content, "sarif");
    let bare: Value = serde_json::from_str(&bare).unwrap();
    assert!(schema_errors(&validator, &bare).is_empty());
    let driver = &bare["runs"][0]["tool"]["driver"];
    assert!(driver.get("informationUri").is_none());
    assert!(driver["rules"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r.get("helpUri").is_none() && !r["help"]["text"].as_str().unwrap().is_empty()));
    // A result per diagnostic, at its file in the repository.
    let results = runs[0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2, "{out}");
    for r in results {
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], r["ruleId"]);
        assert!(!r["message"]["text"].as_str().unwrap().is_empty());
        let at = &r["locations"][0]["physicalLocation"];
        assert_eq!(at["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        assert!(at["region"]["startLine"].as_u64().unwrap() >= 1);
        assert!(at["region"]["startColumn"].as_u64().unwrap() >= 1);
        let fingerprints = r["partialFingerprints"].as_object().unwrap();
        assert!(fingerprints.contains_key("primaryLocationLineHash"), "{r}");
        assert!(fingerprints.contains_key("marque/v1"), "{r}");
    }
    let version = results.iter().find(|r| r["ruleId"] == "MQ1201").unwrap();
    assert_eq!(version["level"], "error");
    let at = &version["locations"][0]["physicalLocation"];
    assert_eq!(
        at["artifactLocation"]["uri"], "site/content/lumen-health/brand.json",
        "relative to the repository root"
    );
    assert_eq!(
        (&at["region"]["startLine"], &at["region"]["startColumn"]),
        (&4.into(), &14.into())
    );
    let figma = results.iter().find(|r| r["ruleId"] == "MQ2301").unwrap();
    assert_eq!(figma["level"], "warning");
}

#[test]
fn the_sarif_validator_rejects_a_broken_log() {
    let (_tree, content) = broken_content();
    let (_, out) = check(&content, "sarif");
    let log: Value = serde_json::from_str(&out).unwrap();
    let validator = sarif_schema();
    assert!(validator.is_valid(&log));
    // A level SARIF does not have, and a log without its version.
    let mut wrong_level = log.clone();
    wrong_level["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!schema_errors(&validator, &wrong_level).is_empty());
    let mut no_version = log.clone();
    no_version.as_object_mut().unwrap().remove("version");
    assert!(!validator.is_valid(&no_version));
    let mut bad_region = log;
    bad_region["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
        ["startLine"] = 0.into();
    assert!(!validator.is_valid(&bad_region), "lines start at 1");
}

/// `/status` reports each diagnostic, and each kind, with its code, as the
/// OpenAPI document describes them.
#[test]
fn status_reports_codes_as_the_openapi_document_describes_them() {
    let (_tree, content) = broken_content();
    let app = spawn_with_readiness(serve_config(&content), false);
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

/// `/codes`, where SARIF's `helpUri` points: every code under its anchor,
/// what it means and how to fix it, a page of the site's own look.
#[test]
fn the_server_serves_every_code_at_its_anchor() {
    let app = spawn_app(&example_content());
    let res = app.get("/codes");
    assert_eq!(res.status, 200);
    assert!(res.header("content-type").unwrap().starts_with("text/html"));
    assert!(res.header("content-security-policy").is_some());
    let page = res.text();
    for code in Code::ALL {
        let row = format!(
            "<tr id=\"{}\"><td><code>{}</code></td>",
            code.anchor(),
            code.as_str()
        );
        assert!(page.contains(&row), "{row}");
    }
    // Markdown code spans become <code>, and nothing is raw.
    assert!(!page.contains('`'), "no raw backticks");
}
