//! Modes a token repository keeps without declaring them: sets whose
//! names differ only by a mode word (`semantic/light`, `semantic/dark`)
//! and that do not refer to one another are the contexts of one modifier,
//! `light` its default whatever the order; a layer (a set that refers to
//! another, or one with no mode word) is never made a mode.

use crate::helpers::*;
use std::path::Path;

/// A brand whose brand.json names the synced folder `tokens`, holding
/// `files` (path in the folder, JSON).
fn synced(root: &Path, slug: &str, files: &[(&str, &str)]) {
    let dir = root.join(slug);
    for (path, text) in files {
        let file = dir.join("tokens").join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    std::fs::write(
        dir.join("brand.json"),
        format!(r#"{{"name": "{slug}", "summary": "x", "version": "1.0.0", "updated": "2026-11-20", "tokens": "tokens"}}"#),
    )
    .unwrap();
}

const CORE: &str = r##"{"palette": {"white": {"value": "#ffffff", "type": "color"}, "ink": {"value": "#111111", "type": "color"}}}"##;
const LIGHT: &str = r#"{"bg": {"value": "{palette.white}", "type": "color"}, "fg": {"value": "{palette.ink}", "type": "color"}}"#;
const DARK: &str = r#"{"bg": {"value": "{palette.ink}", "type": "color"}, "fg": {"value": "{palette.white}", "type": "color"}}"#;

/// The declarations of the rule that starts with `selector` in `css`.
fn rule(css: &str, selector: &str) -> Vec<String> {
    let Some(at) = css.find(&format!("{selector} {{")) else {
        return Vec::new();
    };
    let body = &css[at..];
    let end = body.find('}').unwrap();
    body[..end]
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("--"))
        .map(str::to_string)
        .collect()
}

#[test]
fn parallel_light_and_dark_sets_are_one_modifier_with_light_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    // Folders, and file names: both shapes real repositories keep.
    synced(
        &root,
        "folders",
        &[
            ("core/palette.json", CORE),
            ("semantic/dark.json", DARK),
            ("semantic/light.json", LIGHT),
        ],
    );
    synced(
        &root,
        "names",
        &[
            ("core.json", CORE),
            ("theme-dark.json", DARK),
            ("theme-light.json", LIGHT),
        ],
    );
    let app = spawn_with(serve_config(&root));
    for slug in ["folders", "names"] {
        let css = app.get(&format!("/brand/{slug}/tokens.css")).text();
        let root_rule = rule(&css, ":root");
        assert!(
            root_rule.contains(&"--bg: var(--palette-white);".to_string())
                && root_rule.contains(&"--fg: var(--palette-ink);".to_string()),
            "{slug}: light is the default\n{css}"
        );
        let dark = rule(&css, "[data-theme=\"dark\"]");
        assert!(
            dark.contains(&"--bg: var(--palette-ink);".to_string())
                && dark.contains(&"--fg: var(--palette-white);".to_string()),
            "{slug}: dark is a context\n{css}"
        );
        let status = app.get("/status").json();
        let said = status.to_string();
        assert!(
            said.contains("MQ2214"),
            "{slug}: the inference is said\n{said}"
        );
    }
}

#[test]
fn layers_and_unnamed_sets_are_never_made_modes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    // No mode word: a base and its overrides, applied in order.
    synced(
        &root,
        "layers",
        &[("core.json", CORE), ("a.json", LIGHT), ("b.json", DARK)],
    );
    // Renamed away from mode words: no guess.
    synced(
        &root,
        "renamed",
        &[
            ("core.json", CORE),
            ("semantic/x.json", LIGHT),
            ("semantic/y.json", DARK),
        ],
    );
    // `dark` refers to `light`'s tokens: a layer over it, not a context.
    synced(
        &root,
        "referring",
        &[
            ("core.json", CORE),
            ("theme/light.json", LIGHT),
            (
                "theme/dark.json",
                r#"{"fg": {"value": "{bg}", "type": "color"}}"#,
            ),
        ],
    );
    let app = spawn_with(serve_config(&root));
    for slug in ["layers", "renamed", "referring"] {
        let css = app.get(&format!("/brand/{slug}/tokens.css")).text();
        assert!(!css.contains("[data-"), "{slug}: no modifier\n{css}");
    }
}

#[test]
fn modes_kept_inside_values_are_contexts_read_from_each_key() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    let brand = root.join("inline");
    std::fs::create_dir_all(&brand).unwrap();
    std::fs::write(
        brand.join("brand.json"),
        r#"{"name": "inline", "summary": "x", "version": "1.0.0", "updated": "2026-11-20"}"#,
    )
    .unwrap();
    let tokens = r##"{
  "color": {
    "$type": "color",
    "bg": { "$value": { "default": "#ffffff", "dark": "#000000" } },
    "fg": { "$value": { "default": "#111111", "dark": "#eeeeee" } },
    "brand": { "$value": "#0a84ff" },
    "link": { "$value": { "default": "{color.brand}", "dark": "{color.nope}" } }
  }
}
"##;
    std::fs::write(brand.join("tokens.json"), tokens).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", "--semver", "off", root.to_str().unwrap()])
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    // A broken reference in one mode is said where it is written.
    assert!(said.contains("--> inline/tokens.json:7:"), "{said}");
    assert!(said.contains("MQ2214"), "{said}");
    assert!(
        said.contains("(in context `dark` of modifier `theme`)"),
        "{said}"
    );
    std::fs::write(
        brand.join("tokens.json"),
        tokens.replace("{color.nope}", "{color.fg}"),
    )
    .unwrap();
    let app = spawn_with(serve_config(&root));
    let css = app.get("/brand/inline/tokens.css").text();
    let root_rule = rule(&css, ":root");
    assert!(
        root_rule.contains(&"--color-bg: #ffffff;".to_string())
            && root_rule.contains(&"--color-fg: #111111;".to_string())
            && root_rule.contains(&"--color-brand: #0a84ff;".to_string()),
        "{css}"
    );
    let dark = rule(&css, "[data-theme=\"dark\"]");
    assert!(
        dark.contains(&"--color-bg: #000000;".to_string())
            && dark.contains(&"--color-fg: #eeeeee;".to_string())
            && dark.contains(&"--color-link: var(--color-fg);".to_string()),
        "{css}"
    );
}
