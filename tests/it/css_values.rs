//! Values as a team's own build makes them, where DTCG has no form: a
//! length only CSS holds (`clamp()`, `calc()`, `ch`) is published as that
//! CSS; a font list that names a token lists that token's families. Each consumer that
//! cannot hold such a value (tokens.json, Figma) leaves it out, saying so.

use crate::helpers::*;

#[test]
fn css_only_lengths_and_font_lists_publish_as_the_teams_build_makes_them() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    tokens_studio_brand(
        &root,
        r#"{"g": {
 "fluid": {"value": "clamp(1rem, 2.5vw, 2rem)", "type": "fontSizes"},
 "calc": {"value": "calc(100% - 2rem)", "type": "sizing"},
 "measure": {"value": "60ch", "type": "sizing"},
 "body": {"value": "16", "type": "fontSizes"},
 "ratio": {"value": "1.5", "type": "lineHeights"},
 "base": {"value": "Inter", "type": "fontFamilies"},
 "stack": {"value": "{g.base}, sans-serif", "type": "fontFamilies"}
}}"#,
    );
    let app = spawn_with(serve_config(&root));
    let css = app.get("/brand/ts/tokens.css").text();
    for line in [
        "--g-fluid: clamp(1rem, 2.5vw, 2rem);",
        "--g-calc: calc(100% - 2rem);",
        "--g-measure: 60ch;",
        "--g-body: 16px;",
        "--g-ratio: 1.5;",
        "--g-stack: Inter, sans-serif;",
    ] {
        assert!(css.contains(line), "{line}\n{css}");
    }
    // tokens.json has no form for a CSS-only length: left out, and said.
    let tokens = app.get("/brand/ts/tokens.json").json();
    assert!(tokens["g"].get("fluid").is_none(), "{tokens}");
    assert!(tokens["g"].get("body").is_some(), "{tokens}");
    let figma = app.get("/brand/ts/tokens.figma.json").text();
    assert!(!figma.contains("clamp("), "{figma}");
}

#[test]
fn a_dtcg_font_stack_naming_a_brand_font_lists_that_fonts_families() {
    // `["{font.brand}", "Helvetica"]`: the reference resolves, as any does.
    let dir = tempfile::tempdir().unwrap();
    let brand = dir.path().join("content/acme");
    std::fs::create_dir_all(&brand).unwrap();
    std::fs::write(
        brand.join("tokens.json"),
        r#"{"font": {"brand": {"$type": "fontFamily", "$value": "DB Screen Sans"},
 "stack": {"$type": "fontFamily", "$value": ["{font.brand}", "Helvetica", "sans-serif"]},
 "list": {"$type": "fontFamily", "$value": "'{font.brand}', Helvetica, Arial, sans-serif"}}}"#,
    )
    .unwrap();
    std::fs::write(
        brand.join("brand.json"),
        r#"{"name": "Acme", "summary": "x", "version": "1.0.0", "updated": "2026-11-20"}"#,
    )
    .unwrap();
    let app = spawn_with(serve_config(&dir.path().join("content")));
    let css = app.get("/brand/acme/tokens.css").text();
    for line in [
        "--font-stack: \"DB Screen Sans\", Helvetica, sans-serif;",
        "--font-list: \"DB Screen Sans\", Helvetica, Arial, sans-serif;",
    ] {
        assert!(css.contains(line), "{line}\n{css}");
    }
}
