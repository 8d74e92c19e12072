//! `marque import <config.json>` (issue 59): the system a Style Dictionary
//! config describes, read statically. Its `include` files are the lower
//! layer under its `source` files, a platform's `buildPath` is output and
//! never read, its CSS platform's `prefix` names what marque publishes,
//! and its `size/pxToRem` makes px sizes rem. A real repository's config (Style Dictionary's own "basic"
//! example, `tests/fixtures/formats/style-dictionary/sd-basic-config`,
//! whose SOURCE.md gives its origin and licence) and a constructed one.

use crate::formats::fixtures;
use crate::helpers::{copy_dir, import};
use marque::render::{self, Context};
use marque::spec::brand::{parse_brand, BrandFiles};
use std::path::Path;

/// The brand folder `out/<slug>` import wrote, parsed, and its tokens.css.
fn tokens_css(folder: &Path) -> String {
    let mut texts: Vec<(String, Vec<u8>)> = Vec::new();
    for name in ["brand.json", "tokens.json", "tokens.resolver.json"] {
        if let Ok(bytes) = std::fs::read(folder.join(name)) {
            texts.push((name.to_string(), bytes));
        }
    }
    let files = BrandFiles::from_texts("sd", texts.iter().map(|(n, b)| (n.as_str(), b.as_slice())));
    let (brand, diags) = parse_brand(&files, "2030-01-01".parse().unwrap());
    let brand = brand.unwrap_or_else(|| panic!("{diags:?}"));
    render::tokens_css::render(&brand, &Context::new("http://x"))
}

#[test]
fn a_real_repositorys_config_imports_the_files_its_source_names_and_none_of_its_build() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path().join("basic");
    copy_dir(&fixtures().join("style-dictionary/sd-basic-config"), &root);
    std::fs::create_dir_all(root.join(".git")).unwrap();
    // A data file its `source` does not name is not read.
    std::fs::create_dir_all(root.join("build/css")).unwrap();
    std::fs::write(
        root.join("build/css/built.json"),
        r##"{"built": {"$type": "color", "$value": "#123456"}}"##,
    )
    .unwrap();
    let out = repo.path().join("out");
    let config = root.join("config.json");
    let (ok, said) = import(&[
        config.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--allow-partial",
    ]);
    assert!(ok, "{said}");
    println!("{}", said.lines().next().unwrap());
    assert!(
        said.starts_with(&format!(
            "imported {} as `basic`: kept 36 of 58 tokens",
            config.display()
        )),
        "{said}"
    );
    assert!(
        !said.contains("naming.prefix"),
        "it names no prefix: {said}"
    );
    let css = tokens_css(&out.join("basic"));
    assert!(css.contains("--colors-orange-500: #ed8936;"), "{css}");
    assert!(css.contains("--dimensions-4: 16px;"), "{css}");
    assert!(!css.contains("built"), "{css}");
    // A config that is a program is refused, not run.
    let script = root.join("sd.config.js");
    std::fs::write(&script, "require('fs').writeFileSync('ran', '')\n").unwrap();
    let (ok, said) = import(&[script.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(
        !ok && said.contains("it is a program, and marque never runs one"),
        "{said}"
    );
    assert!(!root.join("ran").exists());
}

#[test]
fn include_is_the_lower_layer_and_the_css_prefix_names_what_is_published() {
    let repo = tempfile::tempdir().unwrap();
    let root = repo.path();
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join("core")).unwrap();
    std::fs::create_dir_all(root.join("tokens")).unwrap();
    std::fs::write(
        root.join("core/base.json"),
        r##"{"color": {"ink": {"value": "#111111"}, "paper": {"value": "#ffffff"}}}"##,
    )
    .unwrap();
    std::fs::write(
        root.join("tokens/brand.json"),
        r##"{"color": {"ink": {"value": "#222222"}, "fg": {"value": "{color.ink.value}"}}, "space": {"gap": {"value": "10px", "type": "dimension"}}}"##,
    )
    .unwrap();
    std::fs::write(
        root.join("sd.config.json5"),
        "{\n  // the core's tokens under the brand's\n  include: ['core/**/*.json'],\n  source: ['tokens/**/*.json'],\n  platforms: {css: {transforms: ['attribute/cti', 'name/kebab', 'size/pxToRem'], basePxFontSize: 20, prefix: 'acme', buildPath: 'tokens/dist/'}},\n}\n",
    )
    .unwrap();
    // Output its `source` glob matches, under the buildPath: never read.
    std::fs::create_dir_all(root.join("tokens/dist")).unwrap();
    std::fs::write(
        root.join("tokens/dist/flat.json"),
        r##"{"built": {"value": "#123456"}}"##,
    )
    .unwrap();
    let out = root.join("out");
    let (ok, said) = import(&[
        root.join("sd.config.json5").to_str().unwrap(),
        "--slug",
        "acme",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{said}");
    assert!(said.contains("kept 4 of 4 tokens"), "{said}");
    assert!(
        said.contains("sizes in px are published in rem (20 px each), as size/pxToRem does"),
        "{said}"
    );
    assert!(said.contains("prefixed `--acme-`"), "{said}");
    let css = tokens_css(&out.join("acme"));
    assert!(
        css.contains("--acme-color-ink: #222222;"),
        "source over include: {css}"
    );
    assert!(css.contains("--acme-color-paper: #ffffff;"), "{css}");
    assert!(
        css.contains("--acme-color-fg: var(--acme-color-ink);"),
        "{css}"
    );
    assert!(!css.contains("built"), "{css}");
    assert!(css.contains("--acme-space-gap: 0.5rem;"), "{css}");
}

/// A brand folder whose brand.json names the team's config reads what the
/// config names, as import does: the same layers, the build left out.
#[test]
fn brand_json_can_name_the_config_and_check_reads_it_as_import_does() {
    let config = "{\n  include: ['core/**/*.json'],\n  source: ['tokens/**/*.json'],\n  platforms: {css: {transformGroup: 'css', buildPath: 'tokens/dist/'}},\n}\n";
    let files = BrandFiles::from_texts(
        "acme",
        [
            (
                "brand.json",
                br#"{"name": "Acme", "version": "1.0.0", "updated": "2026-01-01", "tokens": "sd/config.json5"}"#.as_slice(),
            ),
            ("sd/config.json5", config.as_bytes()),
            (
                "sd/core/base.json",
                br##"{"color": {"ink": {"value": "#111111"}, "paper": {"value": "#ffffff"}}}"##,
            ),
            (
                "sd/tokens/brand.json",
                br##"{"color": {"ink": {"value": "#222222"}}}"##,
            ),
            (
                "sd/tokens/dist/flat.json",
                br##"{"built": {"value": "#123456"}}"##,
            ),
        ],
    );
    let (brand, diags) = parse_brand(&files, "2030-01-01".parse().unwrap());
    let brand = brand.unwrap_or_else(|| panic!("{diags:?}"));
    let names: Vec<String> = brand.tokens.tokens.iter().map(|t| t.name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let css = render::tokens_css::render(&brand, &Context::new("http://x"));
    assert!(
        css.contains("--color-ink: #222222;"),
        "source over include: {css}"
    );
    assert!(!css.contains("built"), "{css}");
    // A config that names nothing says so at the config.
    let empty = BrandFiles::from_texts(
        "acme",
        [
            (
                "brand.json",
                br#"{"name": "Acme", "version": "1.0.0", "updated": "2026-01-01", "tokens": "config.json"}"#.as_slice(),
            ),
            ("config.json", br#"{"source": ["tokens/*.json"], "platforms": {}}"#),
        ],
    );
    let (brand, diags) = parse_brand(&empty, "2030-01-01".parse().unwrap());
    assert!(brand.is_none());
    assert!(
        diags
            .iter()
            .any(|d| d.file == "acme/config.json" && d.message.contains("name no data file")),
        "{diags:?}"
    );
}

#[test]
fn a_config_named_by_brand_json_gives_its_prefix_and_units_as_import_does() {
    let config = "{\n  source: ['tokens/*.json'],\n  platforms: {css: {transformGroup: 'css', prefix: 'Acme', transforms: ['attribute/cti', 'name/kebab', 'size/pxToRem'], basePxFontSize: 10, buildPath: 'dist/'}},\n}\n";
    let tokens = br##"{"size": {"md": {"$type": "dimension", "$value": {"value": 16, "unit": "px"}}}, "color": {"ink": {"$type": "color", "$value": "#111111"}}}"##;
    let brand = |brand_json: &str| {
        let files = BrandFiles::from_texts(
            "acme",
            [
                ("brand.json", brand_json.as_bytes()),
                ("config.json5", config.as_bytes()),
                ("tokens/base.json", tokens.as_slice()),
            ],
        );
        let (brand, diags) = parse_brand(&files, "2030-01-01".parse().unwrap());
        let brand = brand.unwrap_or_else(|| panic!("{diags:?}"));
        render::tokens_css::render(&brand, &Context::new("http://x"))
    };
    let css = brand(
        r#"{"name": "Acme", "version": "1.0.0", "updated": "2026-01-01", "tokens": "config.json5"}"#,
    );
    // The CSS platform's prefix, kebab-cased, and 16 px at 10 px a rem.
    assert!(css.contains("--acme-size-md: 1.6rem;"), "{css}");
    assert!(css.contains("--acme-color-ink: #111111;"), "{css}");
    // brand.json's naming.prefix is the team's correction: it wins.
    let css = brand(
        r#"{"name": "Acme", "version": "1.0.0", "updated": "2026-01-01", "tokens": "config.json5", "naming": {"prefix": "ds"}}"#,
    );
    assert!(css.contains("--ds-size-md: 1.6rem;"), "{css}");
    assert!(!css.contains("--acme-"), "{css}");
}
