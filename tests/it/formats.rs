//! The formats teams keep (DESIGN 17): a brand whose brand.json names its
//! tokens in another format publishes from them as they are, its
//! diagnostics in the file as written; `marque import` converts them.

use crate::helpers::*;
use std::path::Path;
use std::process::Command;

/// Style Dictionary's legacy sources, as its own examples write them:
/// `value`, `type`, `comment`, `{a.b.value}` references (whole and inside
/// a string), a token with child tokens, and values without a type.
const STYLE_DICTIONARY: &str = r##"{
  "color": {
    "base": {
      "red": { "value": "#ff0000", "type": "color", "comment": "Alarm." },
      "gray": { "light": { "value": "#cccccc" }, "dark": { "value": "#333333" } }
    },
    "font": { "value": "{color.base.gray.dark.value}" },
    "brand": { "value": "{color.base.red.value}", "light": { "value": "#ff8080" } }
  },
  "size": {
    "font": { "small": { "value": "12px", "type": "size" }, "base": { "value": "1rem" } },
    "border": { "value": "1px solid {color.brand.value}" }
  }
}
"##;

fn brand(root: &Path, slug: &str, tokens: &str, file: &str, text: &str) {
    let dir = root.join(slug);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("brand.json"),
        format!(r#"{{"name": "{slug}", "summary": "x", "version": "1.0.0", "updated": "2026-11-20", "tokens": {tokens}}}"#),
    )
    .unwrap();
    let path = dir.join(file);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_brand_publishes_style_dictionary_sources_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    brand(
        &root,
        "legacy",
        r#""tokens/design-tokens.json""#,
        "tokens/design-tokens.json",
        STYLE_DICTIONARY,
    );
    let app = spawn_with(serve_args(&root));
    let css = app.get("/brand/legacy/tokens.css").text();
    for line in [
        "  --color-base-red: #ff0000;\n",
        "  --color-font: var(--color-base-gray-dark);\n",
        // A token with children is its group's own token, both published.
        "  --color-brand: var(--color-base-red);\n",
        "  --color-brand-light: #ff8080;\n",
        "  --size-font-small: 12px;\n",
        "  --size-font-base: 1rem;\n",
        // A reference inside a string follows its target.
        "  --size-border: 1px solid var(--color-brand);\n",
    ] {
        assert!(css.contains(line), "{line}{css}");
    }
    let spec = app.get("/brand/legacy/spec.json").json();
    assert_eq!(
        spec["tokens"]["color"]["base"]["red"]["$description"],
        "Alarm."
    );
}

#[test]
fn a_style_dictionary_mistake_is_reported_in_the_source_file_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    let broken = STYLE_DICTIONARY.replace(
        r#""font": { "value": "{color.base.gray.dark.value}" }"#,
        r#""font": { "value": "{color.base.gray.darkest.value}" }"#,
    );
    brand(
        &root,
        "legacy",
        r#"{"path": "sd.json", "format": "style-dictionary"}"#,
        "sd.json",
        &broken,
    );
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", root.to_str().unwrap()])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{text}");
    assert!(
        text.contains(
            "reference `{color.base.gray.darkest}` does not name a token\n --> legacy/sd.json:7:24"
        ),
        "{text}"
    );
}

#[test]
fn brand_json_names_its_tokens_plainly_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    brand(&root, "outside", r#""../x.json""#, "x.json", "{}");
    brand(
        &root,
        "unknown",
        r#"{"path": "x.json", "format": "yaml"}"#,
        "x.json",
        "{}",
    );
    brand(&root, "missing", r#""tokens/none.json""#, "x.json", "{}");
    brand(
        &root,
        "unread",
        r#""theo.json""#,
        "theo.json",
        r##"{"props": {"a": {"value": "#fff", "type": "color"}}}"##,
    );
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", root.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    for want in [
        "\"../x.json\" is no path inside the brand folder",
        "unknown format \"yaml\"; the formats are dtcg, tokens-studio, style-dictionary, theo, figma-variables, figma-export",
        "brand.json's `tokens` names `tokens/none.json`, which is not in the brand folder",
        "this file is in the theo format, which this version of marque does not read yet",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
}

#[test]
fn a_resolver_may_name_style_dictionary_files_per_context() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    brand(
        &root,
        "modes",
        r#""tokens/modes.resolver.json""#,
        "tokens/light.json",
        r##"{"color": {"bg": {"value": "#ffffff"}, "fg": {"value": "{color.ink.value}"}, "ink": {"value": "#111111", "comment": "Text."}}}"##,
    );
    std::fs::write(
        root.join("modes/tokens/dark.json"),
        r##"{"color": {"bg": {"value": "#000000"}, "ink": {"value": "#eeeeee"}}}"##,
    )
    .unwrap();
    std::fs::write(
        root.join("modes/tokens/modes.resolver.json"),
        r##"{"version": "2025.10",
             "sets": {"base": {"sources": [{"$ref": "light.json"}]}},
             "modifiers": {"theme": {"contexts": {"light": [], "dark": [{"$ref": "dark.json"}]}, "default": "light"}},
             "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}]}"##,
    )
    .unwrap();
    let app = spawn_with(serve_args(&root));
    let css = app.get("/brand/modes/tokens.css").text();
    assert!(css.contains("  --color-bg: #ffffff;\n"), "{css}");
    assert!(css.contains("  --color-fg: var(--color-ink);\n"), "{css}");
    let dark = css.split("[data-theme=\"dark\"] {").nth(1).expect(&css);
    assert!(
        dark.contains("--color-bg: #000000;") && dark.contains("--color-ink: #eeeeee;"),
        "{dark}"
    );
}

#[test]
fn import_converts_style_dictionary_sources_and_again_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("design-tokens.json");
    std::fs::write(
        &input,
        STYLE_DICTIONARY.replace(
            "{color.base.gray.dark.value}",
            "{color.base.gray.nope.value}",
        ),
    )
    .unwrap();
    let run = |file: &Path, out: &Path| {
        Command::new(env!("CARGO_BIN_EXE_marque"))
            .args([
                "import",
                file.to_str().unwrap(),
                "--slug",
                "legacy",
                "--out",
                out.to_str().unwrap(),
            ])
            .output()
            .unwrap()
    };
    // Its diagnostics point at the input, not at what import would write.
    let failed = run(&input, &dir.path().join("out"));
    let text = String::from_utf8_lossy(&failed.stdout).to_string();
    assert!(!failed.status.success());
    assert!(
        text.contains(&format!("{}:7:24", input.display())),
        "{text}"
    );
    std::fs::write(&input, STYLE_DICTIONARY).unwrap();
    let out = dir.path().join("out");
    let ok = run(&input, &out);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
    let tokens = out.join("legacy/tokens.json");
    let first = std::fs::read_to_string(&tokens).unwrap();
    let again = dir.path().join("again");
    assert!(run(&tokens, &again).status.success());
    assert_eq!(
        first,
        std::fs::read_to_string(again.join("legacy/tokens.json")).unwrap()
    );
    // A folder is refused with why, not "Is a directory".
    let folder = run(dir.path(), &dir.path().join("x"));
    assert!(
        String::from_utf8_lossy(&folder.stderr).contains("is a folder"),
        "{}",
        String::from_utf8_lossy(&folder.stderr)
    );
}
