//! Tokens as real exports write them: each deviation from DTCG 2025.10
//! that has one safe reading loads with a warning at its line, read as the
//! manual's table says (docs/reference/tokens.md). Strict input gets no such warning.

use marque::spec::diag::{Family, FileDiags};
use marque::spec::tokens::css::{value, Refs};
use marque::spec::{Diagnostic, Severity};
use serde_json::Value;

/// Each deviation: a token `t` (with a `base` colour and `size` to refer
/// to), the warning it gets, the line it is on, and `t`'s value in CSS.
const CASES: &[(&str, &str, u32, &str)] = &[
    (
        r##""t": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [1, 1, 1],
          "hex": "#fff"}}"##,
        "hex \"#fff\" is not the 6 digits DTCG 2025.10 asks for; it is read as \"#ffffff\"",
        4,
        "#ffffff",
    ),
    (
        r##""t": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [1, 1, 1],
          "hex": "#ffffff80"}}"##,
        "with alpha 0.502",
        4,
        "rgb(255 255 255 / 0.502)",
    ),
    (
        r##""t": {"$type": "dimension", "$value": {"value": 1.5,
          "unit": "em"}}"##,
        "unit \"em\" is not one of DTCG 2025.10's (px, rem); it is kept as a CSS length",
        4,
        "1.5em",
    ),
    (
        r##""t": {"$type": "dimension", "$value": {"value": 8,
          "unit": "dp"}}"##,
        "unit \"dp\" is a platform unit, not DTCG 2025.10's; it is read as 1 px per dp",
        4,
        "8px",
    ),
    (
        r##""t": {"$type": "dimension",
          "$value": 0}"##,
        "a bare 0 is not a DTCG 2025.10 dimension",
        4,
        "0px",
    ),
    (
        r##""t": {"$type": "dimension", "$value": {"value": 0,
          "unit": ""}}"##,
        "a 0 without a unit is not a DTCG 2025.10 dimension",
        4,
        "0px",
    ),
    (
        r##""t": {"$type": "transition",
          "$value": {"duration": {"value": 200, "unit": "ms"}, "timingFunction": [0.4, 0, 0.2, 1]}}"##,
        "no `delay`: it is read as 0 ms",
        4,
        "200ms cubic-bezier(0.4, 0, 0.2, 1) 0ms",
    ),
    (
        r##""t": {"$type": "typography",
          "$value": {"fontFamily": "Inter", "fontSize": "{size}", "fontWeight": 400, "lineHeight": 1.5}}"##,
        "no `letterSpacing`: it is read as 0 px",
        4,
        "400 16px/1.5 Inter",
    ),
    (
        r##""t": {"$type": "typography",
          "$value": {"fontFamily": "Inter", "fontSize": "{size}", "fontWeight": 400, "letterSpacing": {"value": 0, "unit": "px"}}}"##,
        "no `lineHeight`: it is read as CSS `normal`",
        4,
        "400 16px/normal Inter",
    ),
    (
        r##""t": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": "{size}", "fontWeight": 400,
          "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": {"value": 24, "unit": "px"}}}"##,
        "a lineHeight in a unit is not DTCG 2025.10",
        4,
        "400 16px/24px Inter",
    ),
    (
        r##""t": {"$type": "color", "$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"},
          "alpha": 0}"##,
        "it is read as the colour's alpha, 0",
        4,
        "rgb(255 255 255 / 0)",
    ),
    (
        r##""t": {"$type": "color", "$value": "{base}",
          "note": "from Figma"}"##,
        "`note` beside `$value` is not DTCG 2025.10",
        4,
        "#0b5fff",
    ),
    (
        r##""t": {
          "$value": {"colorSpace": "srgb", "components": [1, 0, 0], "hex": "#ff0000"}}"##,
        "has no `$type`, on itself or an enclosing group; its value reads as a color",
        3,
        "#ff0000",
    ),
    (
        r##""t": {"$type": "string",
          "$value": "Say \"hi\""}"##,
        "`$type` \"string\" is not a DTCG 2025.10 type; the token is read as a string",
        3,
        "\"Say \\\"hi\\\"\"",
    ),
    (
        r##""t": {"$type": "color", "$value": "{base}",
          "alpha": 0.15}"##,
        "it is read as the alpha of the colour `{base}` resolves to, 0.15",
        4,
        "rgb(11 95 255 / 0.15)",
    ),
    (
        r##""t": {"$type": "fontFamily",
          "$value": "'Segoe UI', -apple-system, sans-serif"}"##,
        "this string is a CSS font list, so it is read as the 3 names it lists",
        4,
        "\"Segoe UI\", -apple-system, sans-serif",
    ),
    (
        r##""t": {"$type": "string",
          "$value": "inset 0 0 0 {size} {base}"}"##,
        "`$type` \"string\" is not a DTCG 2025.10 type; the token is read as a string",
        3,
        "inset 0 0 0 16px #0b5fff",
    ),
    (
        r##""t": {"$type": "shadow",
          "$value": "0 1px {size} {base}"}"##,
        "a shadow written as CSS text is not DTCG 2025.10",
        4,
        "0 1px 16px #0b5fff",
    ),
    (
        r##""t": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": "{size}", "fontWeight": 400,
          "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5, "WebkitFontSmoothing": "antialiased"}}"##,
        "`WebkitFontSmoothing` is not a part of a DTCG 2025.10 typography; it is kept in spec.json",
        4,
        "400 16px/1.5 Inter",
    ),
];

fn parse(text: &str) -> (marque::spec::tokens::TokenSet, Vec<Diagnostic>) {
    let doc: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let mut d = FileDiags::new("x", "x/tokens.json");
    let set = marque::spec::tokens::parse_tokens(&doc, &mut d).unwrap_or_default();
    let mut out = Vec::new();
    d.finish(Some(text), &mut out);
    (set, out)
}

#[test]
fn each_deviation_loads_with_a_warning_at_its_line_read_as_documented() {
    for (token, warning, line, css) in CASES {
        let text = format!(
            "{{\"base\": {{\"$type\": \"color\", \"$value\": {{\"colorSpace\": \"srgb\", \"components\": [0.0431, 0.3725, 1], \"hex\": \"#0b5fff\"}}}},\n  \"size\": {{\"$type\": \"dimension\", \"$value\": {{\"value\": 16, \"unit\": \"px\"}}}},\n  {token}\n}}"
        );
        let (set, diags) = parse(&text);
        let errors: Vec<&Diagnostic> = diags
            .iter()
            .filter(|d| d.severity() == Severity::Error)
            .collect();
        assert!(errors.is_empty(), "{token}: {errors:#?}");
        let found = diags.iter().find(|d| d.message.contains(warning));
        let Some(found) = found else {
            panic!("{token}: no warning {warning:?} in {diags:#?}");
        };
        assert_eq!(found.line, *line, "{token}: {found:?}");
        assert_eq!(found.code.family(), Family::Readings, "{token}: {found:?}");
        let t = set.get("t").unwrap_or_else(|| panic!("{token}: t is read"));
        let written = value(&set.resolve(&t.value).unwrap(), &set, Refs::Resolve);
        assert_eq!(written, *css, "{token}");
    }
}

#[test]
fn strict_tokens_get_none_of_these_warnings() {
    let text =
        std::fs::read_to_string(crate::helpers::example_content().join("northwind/tokens.json"))
            .unwrap();
    let (_, diags) = parse(&text);
    let tolerant: Vec<&Diagnostic> = diags
        .iter()
        .filter(|d| d.code.family() == Family::Readings)
        .collect();
    assert!(tolerant.is_empty(), "{tolerant:#?}");
}

#[test]
fn unknown_parts_are_kept_in_spec_json() {
    let text = r##"{"t": {"$type": "typography", "$value": {"fontFamily": "Inter", "fontSize": {"value": 16, "unit": "px"},
        "fontWeight": 400, "letterSpacing": {"value": 0, "unit": "px"}, "lineHeight": 1.5, "WebkitFontSmoothing": "antialiased"}}}"##;
    let (set, _) = parse(text);
    let t = set.get("t").unwrap();
    let json = marque::render::spec_json::dtcg_value(&t.value);
    assert_eq!(json["WebkitFontSmoothing"], "antialiased", "{json}");
}

/// An export with more than 200 tolerated deviations in one file (Figma's
/// variables export writes every colour as a hex string) checks clean: the
/// cap on listed diagnostics counts the rest as warnings.
#[test]
fn hundreds_of_warnings_in_one_file_are_no_error() {
    let dir = tempfile::tempdir().unwrap();
    let brand = dir.path().join("content/acme");
    std::fs::create_dir_all(&brand).unwrap();
    std::fs::write(
        brand.join("brand.json"),
        r#"{"name": "Acme", "summary": "x", "version": "1.0.0", "updated": "2026-11-20"}"#,
    )
    .unwrap();
    let colours: Vec<String> = (0..342)
        .map(|i| format!("\"c{i}\": {{\"$value\": \"#{:06x}\"}}", i * 4099))
        .collect();
    std::fs::write(
        brand.join("tokens.json"),
        format!(
            "{{\"color\": {{\"$type\": \"color\", {}}}}}",
            colours.join(", ")
        ),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", dir.path().join("content").to_str().unwrap()])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{}",
        &text[text.len().saturating_sub(600)..]
    );
    assert!(
        text.contains("142 more warning(s) in this file are not listed"),
        "{}",
        &text[text.len().saturating_sub(600)..]
    );
    assert!(
        text.contains(" valid: 0 error(s), "),
        "{}",
        &text[text.len().saturating_sub(300)..]
    );
}
