//! brand.json's `diagnostics`: a brand silences the warnings of a real
//! export by code. Silenced warnings are counted (by `marque check` and in
//! `/status`), never hidden without a trace; errors cannot be silenced, and
//! an entry that silences nothing says so, at its line and column.

use crate::helpers::*;
use serde_json::{json, Value};
use std::path::Path;
use std::process::Command;

/// The example content with Northwind's tokens carrying the noise of an
/// export (two `string` tokens, MQ1407; one colour in the older string
/// form, MQ1401) and its brand.json's `diagnostics` set to `silence`.
fn noisy_content(silence: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    let tokens_path = dir.path().join("northwind/tokens.json");
    let mut tokens: Value =
        serde_json::from_str(&std::fs::read_to_string(&tokens_path).unwrap()).unwrap();
    tokens["export"] = json!({
        "tagline": { "$type": "string", "$value": "Go out anyway" },
        "legal": { "$type": "string", "$value": "© Northwind" },
        "legacy": { "$type": "color", "$value": "#ff6600" }
    });
    std::fs::write(&tokens_path, serde_json::to_string_pretty(&tokens).unwrap()).unwrap();
    let brand_path = dir.path().join("northwind/brand.json");
    let brand = std::fs::read_to_string(&brand_path).unwrap().replacen(
        "  \"name\": \"Northwind Outfitters\",\n",
        &format!("  \"name\": \"Northwind Outfitters\",\n  \"diagnostics\": {silence},\n"),
        1,
    );
    std::fs::write(&brand_path, brand).unwrap();
    dir
}

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

fn json_lines(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn codes(diags: &[Value]) -> Vec<&str> {
    diags.iter().filter_map(|d| d["code"].as_str()).collect()
}

#[test]
fn the_noise_of_an_export_is_there_until_silenced() {
    let dir = noisy_content("{}");
    let (code, out) = check(dir.path(), "json");
    assert_eq!(code, 0, "{out}");
    let diags = json_lines(&out);
    let found = codes(&diags);
    assert_eq!(found.iter().filter(|c| **c == "MQ1407").count(), 2, "{out}");
    assert_eq!(found.iter().filter(|c| **c == "MQ1401").count(), 1, "{out}");
}

#[test]
fn check_leaves_silenced_warnings_out_and_says_how_many() {
    let dir = noisy_content(r#"{"MQ1407": "off", "MQ1401": "off"}"#);
    let (code, out) = check(dir.path(), "human");
    assert_eq!(code, 0, "{out}");
    assert!(
        !out.contains("[MQ1407]") && !out.contains("[MQ1401]"),
        "{out}"
    );
    assert!(
        out.contains("northwind: 3 warning(s) silenced by brand.json (MQ1401 × 1, MQ1407 × 2)\n"),
        "{out}"
    );
    let (_, out) = check(dir.path(), "json");
    let found = codes(&json_lines(&out)).join(" ");
    assert!(
        !found.contains("MQ1407") && !found.contains("MQ1401"),
        "{out}"
    );
}

#[test]
fn an_entry_that_silences_nothing_is_a_warning_at_its_key() {
    let dir = noisy_content(r#"{"MQ1407": "on", "MQ9999": "off", "MQ1111": "off"}"#);
    let (code, out) = check(dir.path(), "json");
    assert_eq!(code, 0, "warnings only: {out}");
    let diags = json_lines(&out);
    let refused: Vec<&Value> = diags.iter().filter(|d| d["code"] == "MQ1111").collect();
    let pointers: Vec<&str> = refused
        .iter()
        .map(|d| d["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(
        pointers,
        [
            "/diagnostics/MQ1407",
            "/diagnostics/MQ9999",
            "/diagnostics/MQ1111"
        ],
        "{out}"
    );
    // At each entry's key, on brand.json's fourth line, in the order written.
    let at: Vec<(u64, u64)> = refused
        .iter()
        .map(|d| (d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap()))
        .collect();
    assert_eq!(at, [(4, 19), (4, 35), (4, 52)], "{out}");
    assert!(refused
        .iter()
        .all(|d| d["file"] == "northwind/brand.json" && d["severity"] == "warning"));
    assert!(
        refused[0]["message"].as_str().unwrap().contains("\"off\""),
        "{out}"
    );
    // None of them had an effect: the warnings they name are all there.
    assert_eq!(
        codes(&diags).iter().filter(|c| **c == "MQ1407").count(),
        2,
        "{out}"
    );
}

#[test]
fn an_error_cannot_be_silenced() {
    let dir = noisy_content(r#"{"MQ1501": "off", "MQ1407": "off"}"#);
    // A palette entry naming no token: MQ1501, an error.
    let brand_path = dir.path().join("northwind/brand.json");
    let brand = std::fs::read_to_string(&brand_path).unwrap();
    let broken = brand.replacen("\"{color.fjord.900}\"", "\"{color.fjord.950}\"", 1);
    assert_ne!(brand, broken, "the fixture names {{color.fjord.900}}");
    std::fs::write(&brand_path, broken).unwrap();
    let (code, out) = check(dir.path(), "human");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error[MQ1501]"), "{out}");
    assert!(
        out.contains("warning[MQ1111]: MQ1501 (dangling-reference) is an error, and errors cannot be silenced"),
        "{out}"
    );
    // The warning beside it is silenced all the same.
    assert!(!out.contains("[MQ1407]"), "{out}");
    assert!(
        out.contains("northwind: 2 warning(s) silenced by brand.json (MQ1407 × 2)"),
        "{out}"
    );
}

#[test]
fn status_counts_what_each_brand_silences() {
    let dir = noisy_content(r#"{"MQ1407": "off", "MQ1401": "off"}"#);
    let app = spawn_app(dir.path());
    let northwind = brand_status(&app, "northwind").expect("northwind in /status");
    assert_eq!(northwind["state"], "ok", "{northwind:#}");
    assert_eq!(northwind["silenced"], json!({"MQ1401": 1, "MQ1407": 2}));
    let shown = northwind["diagnostics"].as_array().unwrap();
    assert!(
        shown
            .iter()
            .all(|d| d["code"] != "MQ1407" && d["code"] != "MQ1401"),
        "{northwind:#}"
    );
    // A brand that silences nothing has no such member.
    let lumen = brand_status(&app, "lumen-health").unwrap();
    assert_eq!(lumen.get("silenced"), None, "{lumen:#}");
    // An edit that adds one more string token is counted on the next build.
    let tokens_path = dir.path().join("northwind/tokens.json");
    let mut tokens: Value =
        serde_json::from_str(&std::fs::read_to_string(&tokens_path).unwrap()).unwrap();
    tokens["export"]["motto"] = json!({ "$type": "string", "$value": "Any weather" });
    std::fs::write(&tokens_path, serde_json::to_string_pretty(&tokens).unwrap()).unwrap();
    app.wait_until(
        |a| brand_status(a, "northwind").unwrap()["silenced"]["MQ1407"] == 3,
        "the edit's silenced warning is counted",
    );
}
