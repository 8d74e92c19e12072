//! The syntaxes teams keep their tokens in: JSONC and JSON5 (also under
//! `.json`), YAML 1.2, and JSON with a byte-order mark are read wherever
//! JSON is, and publish exactly what the same tokens in JSON publish;
//! diagnostics keep the file, line and column as written.

use crate::helpers::*;
use std::path::Path;
use std::process::Command;

const JSON: &str = r##"{
  "color": {
    "$type": "color",
    "brand": { "$value": "#0a84ff" },
    "text": { "$value": "{color.brand}" }
  },
  "space": {
    "$type": "dimension",
    "sm": { "$value": { "value": 4, "unit": "px" } }
  }
}
"##;

const JSON5: &str = r##"// The brand's tokens, as JSON5.
{
  color: {
    $type: 'color',
    brand: { $value: '#0a84ff' }, /* the accent */
    text: { $value: '{color.brand}', },
  },
  space: {
    $type: "dimension",
    sm: { $value: { value: 0x4, unit: 'px' } },
  },
}
"##;

const JSONC: &str = r##"{
  // Comments and trailing commas, under .json, as many tools write them.
  "color": {
    "$type": "color",
    "brand": { "$value": "#0a84ff" },
    "text": { "$value": "{color.brand}" },
  },
  "space": {
    "$type": "dimension",
    "sm": { "$value": { "value": 4, "unit": "px" } }
  }
}
"##;

const YAML: &str = r##"# The brand's tokens, as YAML.
color:
  $type: color
  brand:
    $value: "#0a84ff"
  text:
    $value: "{color.brand}"
space:
  $type: dimension
  sm:
    $value: {value: 4, unit: px}
"##;

fn brand(root: &Path, slug: &str, file: &str, text: &str) {
    let dir = root.join(slug);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("brand.json"),
        format!(r#"{{"name": "{slug}", "summary": "x", "version": "1.0.0", "updated": "2026-11-20", "tokens": "{file}"}}"#),
    )
    .unwrap();
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// The custom properties of a tokens.css, in order.
fn declarations(css: &str) -> Vec<String> {
    css.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("--"))
        .map(str::to_string)
        .collect()
}

fn check(root: &Path) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", "--semver", "off", root.to_str().unwrap()])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

#[test]
fn the_same_tokens_in_every_syntax_publish_the_same_css() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    brand(&root, "json", "tokens/brand.json", JSON);
    brand(
        &root,
        "bom",
        "tokens/brand.json",
        &format!("\u{feff}{JSON}"),
    );
    brand(&root, "jsonc", "tokens/brand.json", JSONC);
    brand(&root, "json5", "tokens/brand.json5", JSON5);
    brand(&root, "jsonc-named", "tokens/brand.jsonc", JSONC);
    brand(&root, "yaml", "tokens/brand.yaml", YAML);
    brand(&root, "yml", "tokens/brand.yml", YAML);
    let (ok, text) = check(&root);
    assert!(ok, "{text}");
    let app = spawn_with(serve_config(&root));
    let want = declarations(&app.get("/brand/json/tokens.css").text());
    assert!(
        want.contains(&"--color-text: var(--color-brand);".to_string())
            && want.contains(&"--space-sm: 4px;".to_string()),
        "{want:?}"
    );
    for slug in ["bom", "jsonc", "json5", "jsonc-named", "yaml", "yml"] {
        let got = declarations(&app.get(&format!("/brand/{slug}/tokens.css")).text());
        assert_eq!(got, want, "{slug}");
    }
}

#[test]
fn a_mistake_in_yaml_or_json5_is_reported_at_its_line_and_column_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    // A reference to no token: reported where the value is written.
    brand(
        &root,
        "yaml",
        "tokens.yaml",
        &YAML.replace("\"{color.brand}\"", "\"{color.missing}\""),
    );
    brand(
        &root,
        "json5",
        "tokens.json5",
        &JSON5.replace("'{color.brand}'", "'{color.missing}'"),
    );
    // Syntax errors: where the parser stops.
    brand(
        &root,
        "broken-yaml",
        "tokens.yaml",
        "color:\n  brand: [1, 2\n",
    );
    brand(&root, "broken-json5", "tokens.json5", "{\n  color: 'x\n}\n");
    // An unquoted `#` is a comment in YAML: the value is empty, and said so.
    brand(
        &root,
        "comment",
        "tokens.yaml",
        "color:\n  $type: color\n  a:\n    $value: #fff\n",
    );
    let (ok, text) = check(&root);
    assert!(!ok, "{text}");
    let at = |file: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.trim().strip_prefix("--> "))
            .filter(|l| l.starts_with(file))
            .map(str::to_string)
            .collect()
    };
    // YAML line 7 is `    $value: "{color.missing}"`: the value starts in column 13.
    assert!(
        at("yaml/tokens.yaml").contains(&"yaml/tokens.yaml:7:13".to_string()),
        "{text}"
    );
    // JSON5 line 6 is `    text: { $value: '{color.missing}', },`.
    let json5 = at("json5/tokens.json5");
    assert!(
        json5.iter().any(|l| l.starts_with("json5/tokens.json5:6:")),
        "{text}"
    );
    assert!(
        text.contains("invalid YAML")
            && at("broken-yaml/tokens.yaml")
                .iter()
                .any(|l| l.starts_with("broken-yaml/tokens.yaml:")),
        "{text}"
    );
    assert!(
        at("broken-json5/tokens.json5").contains(&"broken-json5/tokens.json5:2:10".to_string()),
        "{text}"
    );
    // The file is there: its syntax error says why it is not read, and
    // nothing says it is missing (MQ1003).
    assert!(!text.contains("which is not in the brand folder"), "{text}");
    assert!(
        text.contains(
            "warning[MQ1010]: this value is empty: an unquoted `#` starts a comment in YAML"
        ) && at("comment/tokens.yaml").contains(&"comment/tokens.yaml:4:13".to_string()),
        "{text}"
    );
}

#[test]
fn import_reads_yaml_and_json5_as_json() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in [("brand.yaml", YAML), ("brand.json5", JSON5)] {
        let input = dir.path().join(name);
        std::fs::write(&input, text).unwrap();
        let out_dir = dir.path().join(format!("out-{name}"));
        let out = Command::new(env!("CARGO_BIN_EXE_marque"))
            .args([
                "import",
                input.to_str().unwrap(),
                "--out",
                out_dir.to_str().unwrap(),
            ])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{name}: {text}");
        let (ok, checked) = check(&out_dir);
        assert!(ok, "{name}: {checked}");
    }
}
