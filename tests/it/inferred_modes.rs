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

/// `marque check` of the content folder `root`: whether it passed, and
/// what it said.
fn check(root: &Path) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", "--semver", "off", root.to_str().unwrap()])
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), said)
}

/// Only part of LIGHT, overridden: a layer's usual shape.
const PARTIAL: &str = r#"{"fg": {"value": "{palette.white}", "type": "color"}}"#;

#[test]
fn layers_platforms_build_copies_and_versions_are_never_made_modes() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    // No mode word, a partial override: a base and its layer, in order.
    synced(
        &root,
        "layers",
        &[("core.json", CORE), ("a.json", LIGHT), ("b.json", PARTIAL)],
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
    // Platforms: web is read, the other platforms' copies are not.
    synced(
        &root,
        "platforms",
        &[
            ("core.json", CORE),
            ("web/semantic.json", LIGHT),
            ("ios/semantic.json", DARK),
            ("android/semantic.json", DARK),
        ],
    );
    // A build output copy is never input.
    synced(
        &root,
        "built",
        &[
            ("core.json", CORE),
            ("semantic.json", LIGHT),
            ("dist/semantic.json", DARK),
        ],
    );
    // Versions are layers, the later over the earlier; no question.
    synced(
        &root,
        "versions",
        &[
            ("core.json", CORE),
            ("v1/semantic.json", DARK),
            ("v2/semantic.json", LIGHT),
        ],
    );
    let (_, said) = check(&root);
    assert!(!said.contains("MQ2215"), "no question\n{said}");
    assert_eq!(
        said.matches("MQ2216").count(),
        3,
        "ios, android, dist\n{said}"
    );
    let app = spawn_with(serve_config(&root));
    for slug in ["layers", "referring", "platforms", "built", "versions"] {
        let css = app.get(&format!("/brand/{slug}/tokens.css")).text();
        assert!(css.contains(":root"), "{slug} publishes\n{css}");
        assert!(!css.contains("[data-"), "{slug}: no modifier\n{css}");
    }
    for slug in ["platforms", "built", "versions"] {
        let css = app.get(&format!("/brand/{slug}/tokens.css")).text();
        assert!(
            rule(&css, ":root").contains(&"--bg: var(--palette-white);".to_string()),
            "{slug}: web's, the source's, the latest version's values\n{css}"
        );
    }
}

/// `light` and `dark` renamed to `a` and `b`: sibling sets that define
/// the same tokens and refer to none of each other's could be modes or
/// layers. marque asks, naming both; it does not guess. Contexts with no
/// `light`, `default` or `base` and no declared order: it asks which is
/// the default, never taking the alphabetical first.
#[test]
fn renamed_modes_and_an_undeclared_default_are_questions_not_guesses() {
    let dir = tempfile::tempdir().unwrap();
    let renamed = dir.path().join("renamed");
    synced(
        &renamed,
        "renamed",
        &[
            ("core.json", CORE),
            ("semantic/a.json", LIGHT),
            ("semantic/b.json", DARK),
        ],
    );
    let (ok, said) = check(&renamed);
    assert!(!ok, "{said}");
    assert!(
        said.contains("MQ2215") && said.contains("`semantic/a`, `semantic/b`"),
        "{said}"
    );
    let undeclared = dir.path().join("undeclared");
    synced(
        &undeclared,
        "dim",
        &[
            ("core.json", CORE),
            ("theme/dim.json", LIGHT),
            ("theme/dark.json", DARK),
        ],
    );
    let (ok, said) = check(&undeclared);
    assert!(!ok, "{said}");
    assert!(
        said.contains("MQ2215") && said.contains("which context is the default?"),
        "{said}"
    );
    // Declaring the order answers it: the first set ordered is the default.
    std::fs::write(
        undeclared.join("dim/tokens/$metadata.json"),
        r#"{"tokenSetOrder": ["core", "theme/dim", "theme/dark"]}"#,
    )
    .unwrap();
    let (ok, said) = check(&undeclared);
    assert!(ok && !said.contains("MQ2215"), "{said}");
}

/// The same files written in another order give the same brand.
#[test]
fn file_order_does_not_change_what_is_published() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    let files = [
        ("core/palette.json", CORE),
        ("semantic/light.json", LIGHT),
        ("semantic/dark.json", DARK),
        ("web/extra.json", PARTIAL),
    ];
    synced(&root, "forward", &files);
    let mut backward = files;
    backward.reverse();
    synced(&root, "backward", &backward);
    let app = spawn_with(serve_config(&root));
    let forward = app.get("/brand/forward/tokens.css").text();
    let backward = app
        .get("/brand/backward/tokens.css")
        .text()
        .replace("backward", "forward");
    assert!(forward.contains("[data-theme=\"dark\"]"), "{forward}");
    assert_eq!(forward, backward);
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
