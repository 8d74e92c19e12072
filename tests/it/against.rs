//! `marque import --against <built.css>` (issue 59): the team's own built
//! CSS compared, per context, with the tokens.css marque publishes: equal,
//! different and missing, by exact name. A constructed case with one
//! value that differs and one property marque does not publish, and a
//! real system's published build (Auro's, `tests/fixtures/formats/
//! style-dictionary/auro-classic`, whose SOURCE.md gives its origin and
//! licence).

use crate::formats::fixtures;
use crate::helpers::import;
use std::path::Path;

const RESOLVER: &str = r##"{
  "name": "Against", "version": "2025.10",
  "sets": {"base": {"sources": [{
    "color": {
      "ink": {"$type": "color", "$value": "#111111"},
      "paper": {"$type": "color", "$value": "#ffffff"},
      "fg": {"$type": "color", "$value": "{color.ink}"}
    },
    "space": {"sm": {"$type": "dimension", "$value": {"value": 4, "unit": "px"}}}
  }]}},
  "modifiers": {"theme": {"default": "light", "contexts": {
    "light": [],
    "dark": [{"color": {
      "ink": {"$type": "color", "$value": "#eeeeee"},
      "paper": {"$type": "color", "$value": "#000000"}
    }}]
  }}},
  "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}]
}"##;

/// The team's build: `--space-md` is not a token, dark's paper is not
/// marque's, a breakpoint and a component class name no context.
const BUILT: &str = r#"/* Do not edit: built by the team's Style Dictionary */
:root {
  --color-ink: #111;
  --color-paper: #FFF;
  --color-fg: var(--color-ink);
  --space-sm: 4px;
  --space-md: 8px;
}
.theme-dark, [data-theme="dark"] { --color-ink: #eee; --color-paper: #0a0a0a; }
@media (prefers-color-scheme: dark) { :root { --color-fg: #EEEEEE; } }
@media (min-width: 600px) { :root { --space-sm: 6px; } }
.card { --color-ink: red; }
"#;

#[test]
fn against_a_built_css_counts_equal_different_and_missing_per_context_by_exact_name() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("against.resolver.json");
    std::fs::write(&input, RESOLVER).unwrap();
    let built = dir.path().join("variables.css");
    std::fs::write(&built, BUILT).unwrap();
    let out = dir.path().join("out");
    let (ok, said) = import(&[
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--against",
        built.to_str().unwrap(),
    ]);
    assert!(ok, "{said}");
    assert!(
        said.contains("  default: 4 equal, 0 different, 1 missing (of 5 it declares)\n    missing --space-md\n"),
        "{said}"
    );
    // Dark: ink and fg (through `var(--color-ink)` on marque's side) are
    // equal, paper differs.
    assert!(
        said.contains("  theme=dark: 2 equal, 1 different, 0 missing (of 3 it declares)\n    different --color-paper: theirs `#0a0a0a`, marque `#000`\n")
            || said.contains("  theme=dark: 2 equal, 1 different, 0 missing (of 3 it declares)\n    different --color-paper: theirs `#0a0a0a`, marque `#000000`\n"),
        "{said}"
    );
    assert!(
        said.contains("not compared, naming no context of the brand: .card, @media (min-width: 600px) { :root }"),
        "{said}"
    );
}

/// Auro's own build of its sources: its names carry the `--ds-` prefix
/// its pipeline adds, which the import reads off the build (the words
/// before marque's names), writes as brand.json `naming.prefix` and
/// publishes, so the comparison is name for name; with the prefix taken
/// off the build, none is read and the values compare the same.
#[test]
fn against_a_real_systems_own_build() {
    let auro = fixtures().join("style-dictionary/auro-classic");
    let dir = tempfile::tempdir().unwrap();
    let files: Vec<String> = crate::formats::json_files(&auro)
        .into_iter()
        .filter(|p| !p.starts_with("expected/"))
        .collect();
    crate::formats::corpus_brand(dir.path(), "auro", &auro, &files, &[]);
    let input = dir.path().join("auro/tokens.resolver.json");
    let built = auro.join("expected/CSSCustomProperties.css");
    let out = dir.path().join("out");
    let run = |css: &Path| {
        let _ = std::fs::remove_dir_all(&out);
        import(&[
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--allow-partial",
            "--against",
            css.to_str().unwrap(),
        ])
    };
    let (ok, said) = run(&built);
    assert!(ok, "{said}");
    let line = said
        .lines()
        .find(|l| l.starts_with("  default: "))
        .unwrap_or_else(|| panic!("{said}"));
    println!("auro-classic against its build: {line}");
    assert_eq!(
        line, "  default: 676 equal, 86 different, 0 missing (of 762 it declares)",
        "{said}"
    );
    assert!(
        said.contains("custom properties are prefixed `--ds-` (brand.json naming.prefix), from the built CSS (762 of its 762 names are marque's behind it)"),
        "{said}"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("auro/brand.json")).unwrap())
            .unwrap();
    assert_eq!(doc["naming"]["prefix"], "ds", "{doc}");
    let unprefixed = dir.path().join("unprefixed.css");
    let css = std::fs::read_to_string(&built)
        .unwrap()
        .replace("--ds-", "--");
    std::fs::write(&unprefixed, css).unwrap();
    let (ok, said) = run(&unprefixed);
    assert!(ok, "{said}");
    let line = said.lines().find(|l| l.starts_with("  default: ")).unwrap();
    println!("auro-classic against its build, prefix taken off: {line}");
    assert!(!said.contains("naming.prefix"), "{said}");
    let equal: usize = line["  default: ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(equal > 500, "{said}");
}
