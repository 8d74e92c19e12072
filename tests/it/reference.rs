//! Output checked by the tools that consume it: the llmstxt.org reference
//! parser (PyPI `llms-txt`), Chromium's CSS engine for tokens.css, and the
//! DTCG 2025.10 specification's own examples.
//!
//! `.ci/run` installs `llms-txt`; where it is not installed, the parser
//! test fails under CI and is skipped with a note elsewhere. Installed, a
//! parse that fails is a test that fails.

use crate::helpers::*;
use marque::spec::diag::FileDiags;
use marque::spec::tokens::TokenSet;
use marque::spec::Severity;
use serde_json::Value;
use std::path::Path;

/// Parses llms.txt with `llms_txt.miniparse.parse_llms_txt`. The parser
/// failing on marque's output is a failure of marque.
fn reference_parse(text: &str) -> Value {
    reference_parse_all(&[text.to_string()]).remove(0)
}

/// [`reference_parse`] of many files, in one Python process.
pub(crate) fn reference_parse_all(texts: &[String]) -> Vec<Value> {
    crate::tools::parse_llms_txt_each(texts)
        .into_iter()
        .zip(texts)
        .map(|(parsed, text)| {
            parsed.unwrap_or_else(|e| {
                panic!("the llms-txt reference parser refuses a file: {e}\n{text}")
            })
        })
        .collect()
}

#[test]
fn the_llmstxt_reference_parser_reads_every_discovery_file_and_its_links_resolve() {
    if !require(
        "the llms-txt reference parser",
        python_can("import llms_txt.miniparse"),
        "pip install llms-txt",
    ) {
        return;
    }
    let app = spawn_app(&example_content());
    let cases = [
        ("/llms.txt", "Brand books"),
        ("/brand/northwind/llms.txt", "Northwind Outfitters"),
        ("/brand/lumen-health/llms.txt", "Lumen Health"),
    ];
    for (path, title) in cases {
        let parsed = reference_parse(&app.get(path).text());
        assert_eq!(parsed["title"], title, "{path}");
        assert!(
            parsed["summary"].as_str().is_some_and(|s| s.len() > 20),
            "{path}: {parsed}"
        );
        let sections = parsed["sections"].as_object().unwrap();
        assert!(sections.contains_key("Optional"), "{path}");
        let mut links = 0;
        for (_, items) in sections {
            for item in items.as_array().unwrap() {
                assert!(!item["title"].as_str().unwrap().is_empty());
                let url = item["url"].as_str().unwrap();
                let local = url
                    .strip_prefix(&app.public_url)
                    .unwrap_or_else(|| panic!("{url} is absolute on this server"));
                let local = local.split('#').next().unwrap();
                assert_eq!(app.get(local).status, 200, "{url} from {path}");
                links += 1;
            }
        }
        assert!(links >= 3, "{path} has {links} links");
    }
}

/// What `.ci/run` and the DTCG fixture's SOURCE.md say about each spec example.
fn examples() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dtcg/examples");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_str().unwrap().ends_with(".tokens.json"))
        .map(|p| {
            (
                p.file_name().unwrap().to_str().unwrap().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Parses a tokens.json text; returns the set and its errors as `pointer message`.
fn parse(text: &str) -> (TokenSet, Vec<String>) {
    let doc: Value = serde_json::from_str(text).unwrap();
    let mut d = FileDiags::new("x", "x/tokens.json");
    let set = marque::spec::tokens::parse_tokens(&doc, &mut d).unwrap_or_default();
    let mut out = Vec::new();
    d.finish(Some(text), &mut out);
    let errors = out
        .into_iter()
        .filter(|d| d.severity() == Severity::Error)
        .map(|d| format!("{} {}", d.pointer, d.message))
        .collect();
    (set, errors)
}

fn warnings_of(text: &str) -> Vec<String> {
    let doc: Value = serde_json::from_str(text).unwrap();
    let mut d = FileDiags::new("x", "x/tokens.json");
    marque::spec::tokens::parse_tokens(&doc, &mut d);
    let mut out = Vec::new();
    d.finish(Some(text), &mut out);
    out.into_iter()
        .filter(|d| d.severity() == Severity::Warning)
        .map(|d| d.message)
        .collect()
}

fn load(text: &str) -> (usize, Vec<String>) {
    let (set, errors) = parse(text);
    (set.tokens.len(), errors)
}

/// Spec examples the DTCG schemas accept but that marque rejects, and why.
/// Each is a fragment of the specification text, not a whole file: it
/// refers to tokens it does not define, or it gives a token no type.
const REJECTED_ON_PURPOSE: &[(&str, &str)] = &[
    (
        "format-composite-types-01.tokens.json",
        "does not name a token",
    ),
    (
        "format-composite-types-09.tokens.json",
        "does not name a token",
    ),
    (
        "format-composite-types-12.tokens.json",
        "does not name a token",
    ),
    (
        "format-composite-types-07.tokens.json",
        "does not name a token",
    ),
    (
        "format-composite-types-13.tokens.json",
        "does not name a token",
    ),
    (
        "format-groups-03.tokens.json",
        "`$extends` must name a group",
    ),
    ("format-groups-06.tokens.json", "has no `$type`"),
    ("format-groups-07.tokens.json", "has no `$type`"),
    // hsl(330 100% 50%) is #ff0080, but the example's hex says #ff00ff: the
    // colour would say two things, so marque refuses it (the spec's text
    // calls this colour "Hot pink", which #ff0080 is).
    (
        "color-color-type-06.tokens.json",
        "hex #ff00ff does not match the components, which give #ff0080",
    ),
    (
        "color-color-type-07.tokens.json",
        "hex #ff00ff does not match the components, which give #ff0080",
    ),
];

/// Examples the DTCG schemas reject (see tests/fixtures/dtcg/SOURCE.md), with the diagnostic marque gives.
const INVALID: &[(&str, &str)] = &[
    ("format-aliases-06.tokens.json", "must be a token"),
    (
        "format-groups-04.tokens.json",
        "`$ref` \"#/button\" must be a JSON Pointer",
    ),
];

/// Examples the DTCG schemas reject that real exports write too, and that
/// marque reads tolerantly (docs/reference/tokens.md, "Tokens as real exports write them"):
/// they load, with the warning that says how each was read.
const TOLERATED: &[(&str, &str)] = &[
    (
        "format-aliases-05.tokens.json",
        "no `letterSpacing`: it is read as 0 px",
    ),
    (
        "format-groups-01.tokens.json",
        "the token is read as a string",
    ),
    (
        "format-groups-09.tokens.json",
        "unit \"%\" is not one of DTCG 2025.10's (px, rem); it is kept as a CSS length",
    ),
];

#[test]
fn the_dtcg_specifications_examples_load_or_are_rejected_with_a_reason() {
    let mut loaded = 0;
    for (name, text) in examples() {
        let (tokens, errors) = load(&text);
        let expected = REJECTED_ON_PURPOSE
            .iter()
            .chain(INVALID)
            .find(|(n, _)| *n == name);
        match expected {
            Some((_, why)) => assert!(
                errors.iter().any(|e| e.contains(why)),
                "{name} is rejected because {why}: {errors:?}"
            ),
            None => {
                assert!(errors.is_empty(), "{name} loads: {errors:?}");
                if let Some((_, reading)) = TOLERATED.iter().find(|(n, _)| *n == name) {
                    assert!(
                        warnings_of(&text).iter().any(|w| w.contains(reading)),
                        "{name} is read with the warning {reading:?}: {:?}",
                        warnings_of(&text)
                    );
                }
                loaded += 1;
                let empty_on_purpose = name == "format-groups-05.tokens.json";
                assert!(tokens > 0 || empty_on_purpose, "{name} has tokens");
            }
        }
    }
    assert_eq!(loaded, 61 - REJECTED_ON_PURPOSE.len() - INVALID.len());
}

#[test]
fn json_pointer_references_and_root_tokens_resolve() {
    let (_, errors) = load(
        &examples()
            .into_iter()
            .find(|(n, _)| n == "format-aliases-02.tokens.json")
            .unwrap()
            .1,
    );
    assert!(errors.is_empty());
    let text = r##"{"spacing": {"$type": "dimension", "$root": {"$value": {"value": 16, "unit": "px"}}, "small": {"$value": {"value": 8, "unit": "px"}}},
        "gap": {"$type": "dimension", "$value": "{spacing.$root}"},
        "half": {"$type": "dimension", "$value": {"value": {"$ref": "#/spacing/small/$value/value"}, "unit": "rem"}},
        "alias": {"$ref": "#/spacing/small"}}"##;
    let (set, errors) = parse(text);
    assert!(errors.is_empty(), "{errors:?}");
    let css = |name: &str| {
        let t = set.get(name).unwrap_or_else(|| panic!("{name}"));
        marque::spec::tokens::css::value(&t.value, &set, marque::spec::tokens::css::Refs::Var)
    };
    assert_eq!(
        css("gap"),
        "var(--spacing)",
        "$root drops out of the CSS name"
    );
    assert_eq!(css("half"), "8rem", "a property reference copies the part");
    assert_eq!(
        css("alias"),
        "var(--spacing-small)",
        "a token-level $ref stays an alias"
    );
}

#[test]
fn a_fragment_loads_once_the_tokens_it_names_exist() {
    // format-composite-types-01 with the two tokens it refers to defined.
    let fragment: Value = serde_json::from_str(
        &examples()
            .into_iter()
            .find(|(n, _)| n == "format-composite-types-01.tokens.json")
            .unwrap()
            .1,
    )
    .unwrap();
    let mut doc = fragment.clone();
    doc["base"] = serde_json::json!({"shadow": {"$type": "shadow", "$value": {"color": {"colorSpace": "srgb", "components": [0, 0, 0], "alpha": 0.5}, "offsetX": {"value": 0, "unit": "px"}, "offsetY": {"value": 2, "unit": "px"}, "blur": {"value": 4, "unit": "px"}, "spread": {"value": 0, "unit": "px"}}}});
    doc["brand"] = serde_json::json!({"accent": {"$type": "color", "$value": {"colorSpace": "oklch", "components": [0.7, 0.1, 200]}}});
    let text = serde_json::to_string_pretty(&doc).unwrap();
    let (set, errors) = parse(&text);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(set.tokens.len(), 3);
    let layered = &set.get("layered-shadow").unwrap().value;
    assert_eq!(
        marque::spec::tokens::css::value(layered, &set, marque::spec::tokens::css::Refs::Var),
        "var(--base-shadow), 4px 4px 8px 0px var(--brand-accent)",
        "an aliased layer stays a reference in a box-shadow list"
    );
}
