//! Invalid content, one case per rule: each asserts the diagnostic's text,
//! file and line. Validation is pure, so these run on bytes in memory.

use crate::surfaces::today;
use marque::spec::diag::Code;
use marque::spec::{parse_brand, BrandFiles, Diagnostic, Severity};

const BRAND: &str = r##"{
  "name": "Acme",
  "version": "1.2.0",
  "updated": "2026-03-01",
  "logo": {
    "variants": [
      { "id": "primary", "file": "assets/logo.svg" }
    ]
  },
  "typography": {
    "families": [ { "role": "body", "token": "{font.body}" } ]
  },
  "color": {
    "palette": [ { "name": "Ink", "token": "{color.ink}" } ],
    "pairs": [ { "foreground": "{color.ink}", "background": "{color.paper}", "level": "AA" } ]
  },
  "promptKit": {
    "prompts": [
      {
        "id": "tagline",
        "template": "Write a tagline for {{ product }}.",
        "variables": [ { "name": "product" } ]
      }
    ]
  }
}
"##;

const TOKENS: &str = r##"{
  "color": {
    "$type": "color",
    "ink": { "$value": { "colorSpace": "srgb", "components": [0.1, 0.1, 0.1] } },
    "paper": { "$value": { "colorSpace": "srgb", "components": [1, 1, 1] } },
    "mist": { "$value": { "colorSpace": "srgb", "components": [0.8, 0.8, 0.8] } }
  },
  "space": {
    "$type": "dimension",
    "md": { "$value": { "value": 16, "unit": "px" } }
  },
  "font": {
    "body": { "$type": "fontFamily", "$value": ["Inter", "sans-serif"] }
  }
}
"##;

fn files(slug: &str, brand: &str, tokens: &str) -> BrandFiles {
    BrandFiles::from_texts(
        slug,
        [
            ("brand.json", brand.as_bytes()),
            ("tokens.json", tokens.as_bytes()),
            ("assets/logo.svg", b"<svg/>".as_slice()),
        ],
    )
}

fn errors_of(f: &BrandFiles) -> Vec<Diagnostic> {
    let (brand, diags) = parse_brand(f, today());
    let errors: Vec<Diagnostic> = diags
        .into_iter()
        .filter(|d| d.severity() == Severity::Error)
        .collect();
    assert_eq!(
        brand.is_some(),
        errors.is_empty(),
        "a brand is published exactly when it has no errors"
    );
    errors
}

/// Applies `from → to` to brand.json (or tokens.json) and expects exactly one
/// error, of kind `code`, in `file` at `line`, whose message contains
/// `message` (so it says what is wrong in words a person reads).
fn expect_error(
    in_tokens: bool,
    from: &str,
    to: &str,
    file: &str,
    line: u32,
    code: Code,
    message: &str,
) {
    let (mut b, mut t) = (BRAND.to_string(), TOKENS.to_string());
    let target = if in_tokens { &mut t } else { &mut b };
    assert!(target.contains(from), "fixture contains {from:?}");
    *target = target.replacen(from, to, 1);
    let errors = errors_of(&files("acme", &b, &t));
    assert_eq!(errors.len(), 1, "one error for {to:?}: {errors:#?}");
    let e = &errors[0];
    assert_eq!(e.code, code, "{e:?}");
    assert_eq!(e.file, file, "{e:?}");
    assert_eq!(e.line, line, "{e:?}");
    assert!(
        e.message.contains(message),
        "message {:?} should contain {message:?}",
        e.message
    );
    assert_eq!(e.brand, "acme");
}

#[test]
fn the_base_fixture_is_valid() {
    assert!(errors_of(&files("acme", BRAND, TOKENS)).is_empty());
}

#[test]
fn malformed_json_points_at_the_syntax_error() {
    expect_error(
        false,
        "\"version\": \"1.2.0\",",
        "\"version\": \"1.2.0\"",
        "acme/brand.json",
        4,
        Code::InvalidJson,
        "invalid JSON",
    );
    expect_error(
        true,
        "\"mist\"",
        "mist",
        "acme/tokens.json",
        6,
        Code::InvalidJson,
        "invalid JSON",
    );
}

#[test]
fn unknown_keys_are_errors_with_a_suggestion_but_x_keys_pass() {
    expect_error(
        false,
        "\"color\": {",
        "\"colour\": {",
        "acme/brand.json",
        13,
        Code::UnknownKey,
        "unknown key `colour`; did you mean `color`?",
    );
    expect_error(
        false,
        "\"role\": \"body\"",
        "\"role\": \"body\", \"weight\": 3",
        "acme/brand.json",
        11,
        Code::UnknownKey,
        "unknown key `weight`",
    );
    let with_x = BRAND.replacen(
        "\"name\": \"Acme\",",
        "\"name\": \"Acme\", \"x-team\": {\"any\": [1]},",
        1,
    );
    assert!(errors_of(&files("acme", &with_x, TOKENS)).is_empty());
}

#[test]
fn required_keys_and_types_are_enforced() {
    expect_error(
        false,
        "\"name\": \"Acme\",",
        "",
        "acme/brand.json",
        1,
        Code::MissingKey,
        "missing required key `name`",
    );
    expect_error(
        false,
        "\"name\": \"Acme\"",
        "\"name\": 7",
        "acme/brand.json",
        2,
        Code::WrongType,
        "expected a string, found an integer",
    );
    expect_error(
        false,
        "\"level\": \"AA\"",
        "\"level\": \"A\"",
        "acme/brand.json",
        15,
        Code::NotOneOf,
        "expected one of \"AA\", \"AA-large\", \"AAA\"",
    );
}

#[test]
fn versions_must_be_semver_without_prefix_or_leading_zeros() {
    for bad in ["3.2", "v1.0.0", "01.2.0", "1.0.0+build.7"] {
        expect_error(
            false,
            "\"1.2.0\"",
            &format!("\"{bad}\""),
            "acme/brand.json",
            3,
            Code::InvalidVersion,
            &format!("version \"{bad}\""),
        );
    }
}

#[test]
fn dates_must_be_real_and_not_in_the_future() {
    expect_error(
        false,
        "\"2026-03-01\"",
        "\"2026-02-30\"",
        "acme/brand.json",
        4,
        Code::InvalidDate,
        "does not exist in the calendar",
    );
    expect_error(
        false,
        "\"2026-03-01\"",
        "\"2099-01-01\"",
        "acme/brand.json",
        4,
        Code::DateInFuture,
        "is in the future",
    );
    expect_error(
        false,
        "\"2026-03-01\"",
        "\"1 March 2026\"",
        "acme/brand.json",
        4,
        Code::InvalidDate,
        "must be written YYYY-MM-DD",
    );
}

#[test]
fn folder_names_must_be_slugs() {
    let errors = errors_of(&files("Acme_Brand", BRAND, TOKENS));
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, Code::InvalidSlug, "{errors:#?}");
    assert_eq!(errors[0].file, "Acme_Brand/");
}

#[test]
fn references_must_resolve_to_the_right_type() {
    expect_error(
        false,
        "\"{color.ink}\" }",
        "\"{color.nope}\" }",
        "acme/brand.json",
        14,
        Code::DanglingReference,
        "does not name a token",
    );
    expect_error(
        false,
        "\"{font.body}\"",
        "\"{space.md}\"",
        "acme/brand.json",
        11,
        Code::ReferenceTypeMismatch,
        "is a dimension token; a fontFamily token is needed",
    );
    expect_error(
        false,
        "\"{color.ink}\" }",
        "\"color.ink\" }",
        "acme/brand.json",
        14,
        Code::NotAReference,
        "is not a token reference",
    );
}

#[test]
fn alias_cycles_and_dangling_aliases_in_tokens_are_errors() {
    let cyclic = TOKENS.replacen(
        "\"mist\": { \"$value\": { \"colorSpace\": \"srgb\", \"components\": [0.8, 0.8, 0.8] } }",
        "\"mist\": { \"$value\": \"{color.fog}\" },\n    \"fog\": { \"$value\": \"{color.mist}\" }",
        1,
    );
    let errors = errors_of(&files("acme", BRAND, &cyclic));
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(errors
        .iter()
        .all(|e| e.code == Code::AliasCycle && e.file == "acme/tokens.json"));
    assert_eq!(errors[0].line, 6);
    expect_error(
        true,
        "\"components\": [0.8, 0.8, 0.8] }",
        "\"components\": [0.8, 0.8, 0.8] }, \"$description\": 5",
        "acme/tokens.json",
        6,
        Code::InvalidTokenProperty,
        "`$description` must",
    );
}

#[test]
fn two_tokens_with_one_css_name_are_an_error() {
    expect_error(
        true,
        "\"space\": {",
        "\"space-md\": { \"$type\": \"number\", \"$value\": 1 },\n  \"space\": {",
        "acme/tokens.json",
        11,
        Code::CssNameClash,
        "both map to the CSS name `--space-md`",
    );
}

#[test]
fn contrast_pairs_below_their_level_are_errors() {
    expect_error(
        false,
        "\"foreground\": \"{color.ink}\"",
        "\"foreground\": \"{color.mist}\"",
        "acme/brand.json",
        15,
        Code::ContrastTooLow,
        "below the AA minimum of 4.5:1",
    );
}

#[test]
fn a_logo_or_prompt_id_used_twice_is_named_where_it_repeats() {
    expect_error(
        false,
        "{ \"id\": \"primary\", \"file\": \"assets/logo.svg\" }",
        "{ \"id\": \"primary\", \"file\": \"assets/logo.svg\" }, { \"id\": \"primary\", \"file\": \"assets/logo.svg\" }",
        "acme/brand.json",
        7,
        Code::DuplicateId,
        "logo id \"primary\" is used twice",
    );
    expect_error(
        false,
        "\"prompts\": [",
        "\"prompts\": [ { \"id\": \"tagline\", \"template\": \"Say hello.\" },",
        "acme/brand.json",
        20,
        Code::DuplicateId,
        "prompt id \"tagline\" is used twice",
    );
}

#[test]
fn prompt_ids_and_templates_are_checked_strictly() {
    expect_error(
        false,
        "\"id\": \"tagline\"",
        "\"id\": \"Tag Line\"",
        "acme/brand.json",
        20,
        Code::InvalidId,
        "must be slug-shaped",
    );
    expect_error(
        false,
        "{{ product }}",
        "{{ product }} in {{ market }}",
        "acme/brand.json",
        21,
        Code::UndeclaredVariable,
        "template uses `market`, which is not declared",
    );
    expect_error(
        false,
        "{{ product }}.",
        "{{ product }.",
        "acme/brand.json",
        21,
        Code::TemplateSyntax,
        "template does not parse",
    );
}

#[test]
fn logo_files_must_exist_inside_the_brand_folder() {
    expect_error(
        false,
        "\"assets/logo.svg\"",
        "\"../secret.svg\"",
        "acme/brand.json",
        7,
        Code::InvalidAssetPath,
        "must stay inside the brand folder",
    );
    expect_error(
        false,
        "\"assets/logo.svg\"",
        "\"assets/missing.svg\"",
        "acme/brand.json",
        7,
        Code::MissingLogoFile,
        "does not exist",
    );
}

#[test]
fn a_logo_lettered_with_svg_text_is_a_warning() {
    let lettered = BrandFiles::from_texts(
        "acme",
        [
            ("brand.json", BRAND.as_bytes()),
            ("tokens.json", TOKENS.as_bytes()),
            (
                "assets/logo.svg",
                br#"<svg xmlns="http://www.w3.org/2000/svg"><text x="4" y="20">Acme</text></svg>"#
                    .as_slice(),
            ),
        ],
    );
    let (brand, diags) = parse_brand(&lettered, today());
    assert!(brand.is_some(), "published: it is a warning");
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0].code, Code::LogoTextElement);
    assert_eq!(diags[0].severity(), Severity::Warning);
    assert_eq!(
        (diags[0].file.as_str(), diags[0].line),
        ("acme/brand.json", 7)
    );
    assert!(
        diags[0].message.contains("convert the text to outlines"),
        "{}",
        diags[0].message
    );
}

#[test]
fn token_values_are_checked_by_type() {
    expect_error(
        true,
        "\"unit\": \"px\"",
        "\"unit\": \"furlong\"",
        "acme/tokens.json",
        10,
        Code::InvalidDimension,
        "unit must be \"px\" or \"rem\"",
    );
    expect_error(
        true,
        "\"$type\": \"color\"",
        "\"$type\": \"colour\"",
        "acme/tokens.json",
        3,
        Code::UnknownType,
        "did you mean `color`?",
    );
}

#[test]
fn legacy_token_strings_are_accepted_with_a_warning() {
    let legacy = TOKENS.replacen("{ \"value\": 16, \"unit\": \"px\" }", "\"16px\"", 1);
    let (brand, diags) = parse_brand(&files("acme", BRAND, &legacy), today());
    assert!(brand.is_some());
    assert_eq!(diags.len(), 1);
    assert_eq!(diags[0].severity(), Severity::Warning);
    assert_eq!(diags[0].line, 10);
    assert_eq!(diags[0].code, Code::LegacyStringForm);
}

#[test]
fn every_problem_is_reported_at_once() {
    let broken = BRAND
        .replacen("\"1.2.0\"", "\"1.2\"", 1)
        .replacen("\"2026-03-01\"", "\"2026-02-30\"", 1)
        .replacen("\"color\": {", "\"colour\": {", 1);
    let errors = errors_of(&files("acme", &broken, TOKENS));
    let lines: Vec<(u32, Code)> = errors.iter().map(|e| (e.line, e.code)).collect();
    // A shape error never hides the semantic checks of what could be read.
    assert_eq!(
        lines,
        [
            (13, Code::UnknownKey),
            (3, Code::InvalidVersion),
            (4, Code::InvalidDate)
        ],
        "{errors:#?}"
    );
    let broken = BRAND
        .replacen("\"1.2.0\"", "\"1.2\"", 1)
        .replacen("\"2026-03-01\"", "\"2026-02-30\"", 1)
        .replacen("{color.ink}\" }", "{color.nope}\" }", 1);
    let errors = errors_of(&files("acme", &broken, TOKENS));
    let lines: Vec<u32> = errors.iter().map(|e| e.line).collect();
    assert_eq!(lines, [3, 4, 14], "{errors:#?}");
}

#[test]
fn missing_files_are_reported() {
    let f = BrandFiles::from_texts(
        "acme",
        [
            ("brand.json", BRAND.as_bytes()),
            ("assets/logo.svg", b"<svg/>".as_slice()),
        ],
    );
    let errors = errors_of(&f);
    assert!(errors
        .iter()
        .any(|e| e.file == "acme/tokens.json" && e.code == Code::MissingFile));
}

#[test]
fn one_broken_brand_never_affects_another() {
    use marque::build::{build_catalog, Catalog};
    use marque::source::Content;
    let content = Content {
        brands: vec![
            files("good", BRAND, TOKENS).into(),
            files("bad", &BRAND.replacen("\"1.2.0\"", "\"1.2\"", 1), TOKENS).into(),
        ],
        ..Content::default()
    };
    let catalog = build_catalog(
        &content,
        &crate::surfaces::ctx(),
        marque::spec::Moment::on(today()),
        &Catalog::default(),
        &Default::default(),
    );
    let published: Vec<&str> = catalog.published().map(|p| p.demo.slug.as_str()).collect();
    assert_eq!(published, ["good"]);
    assert!(catalog.brands["bad"].stale());
}

#[test]
fn an_unknown_key_a_bad_version_and_a_dangling_reference_are_reported_together() {
    // The three mistakes of the authoring-loop report, in one brand.json.
    let broken = BRAND
        .replacen("\"1.2.0\"", "\"3.2\"", 1)
        .replacen(
            "\"families\": [ { \"role\": \"body\", \"token\": \"{font.body}\" } ]",
            "\"families\": [ { \"role\": \"body\", \"token\": \"{font.body}\" } ],\n    \"styles\": [ { \"name\": \"Body\", \"token\": \"{type.body}\", \"colour\": \"ink\" } ]",
            1,
        )
        .replacen("{color.ink}\" }", "{color.harbor.navvy}\" }", 1);
    let errors = errors_of(&files("acme", &broken, TOKENS));
    let mut kinds: Vec<(Code, &str)> = errors
        .iter()
        .map(|e| (e.code, e.pointer.as_str()))
        .collect();
    kinds.sort();
    assert_eq!(
        kinds,
        [
            (Code::UnknownKey, "/typography/styles/0/colour"),
            (Code::InvalidVersion, "/version"),
            (Code::DanglingReference, "/color/palette/0/token"),
            // `{type.body}` names no token either.
            (Code::DanglingReference, "/typography/styles/0/token"),
        ],
        "{errors:#?}"
    );
}

#[test]
fn a_hex_that_disagrees_with_its_components_is_an_error_in_tokens_json() {
    let tokens = TOKENS.replacen(
        "\"components\": [0.1, 0.1, 0.1] }",
        "\"components\": [0.1, 0.1, 0.1], \"hex\": \"#1a1a1a\" }",
        1,
    );
    // 0.1 × 255 = 25.5, which rounds to 26 = 0x1a: the hex agrees.
    assert!(errors_of(&files("acme", BRAND, &tokens)).is_empty());
    expect_error(
        true,
        "\"components\": [0.1, 0.1, 0.1] }",
        "\"components\": [0.1, 0.1, 0.1], \"hex\": \"#0a0a0a\" }",
        "acme/tokens.json",
        4,
        Code::HexMismatch,
        "hex #0a0a0a does not match the components, which give #1a1a1a",
    );
}

#[test]
fn an_example_longer_than_its_max_length_is_an_error() {
    expect_error(
        false,
        "\"variables\": [ { \"name\": \"product\" } ]",
        "\"variables\": [ { \"name\": \"product\", \"maxLength\": 5, \"example\": \"a kayak\" } ]",
        "acme/brand.json",
        22,
        Code::ExampleTooLong,
        "the example of \"product\" is 7 characters long, more than its maxLength of 5",
    );
}

#[test]
fn a_template_that_fails_on_ordinary_text_is_an_error() {
    expect_error(
        false,
        "\"Write a tagline for {{ product }}.\"",
        "\"Write {{ product|int + 1 }} taglines.\"",
        "acme/brand.json",
        21,
        Code::TemplateFails,
        "template fails",
    );
}
