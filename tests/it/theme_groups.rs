//! Tokens Studio theme groups, and Material Theme Builder's schemes, read
//! as the system defines them, on real repositories (tests/fixtures/modes,
//! each with its SOURCE.md): groups are axes; groups whose themes define
//! the same tokens are one modifier whose contexts are exactly the
//! system's themes; the default is `light`, `default` or `base`, else the
//! first theme declared; each context's colour scheme follows the theme.

use crate::helpers::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/modes")
        .join(rel)
}

/// `marque import` of `input` as `slug` into `out`: whether it succeeded,
/// what it said, and the resolver it wrote.
fn import(input: &Path, slug: &str, out: &Path) -> (bool, String, Value) {
    let run = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["import", "--allow-partial", "--slug", slug, "--out"])
        .arg(out)
        .arg(input)
        .output()
        .unwrap();
    let said =
        String::from_utf8_lossy(&run.stdout).to_string() + &String::from_utf8_lossy(&run.stderr);
    let resolver = std::fs::read_to_string(out.join(slug).join("tokens.resolver.json"))
        .map(|t| serde_json::from_str(&t).unwrap())
        .unwrap_or(Value::Null);
    (run.status.success(), said, resolver)
}

/// The tokens (objects with `$value`) in a tree.
fn count(v: &Value) -> usize {
    match v {
        Value::Object(o) if o.contains_key("$value") => 1,
        Value::Object(o) => o.values().map(count).sum(),
        Value::Array(a) => a.iter().map(count).sum(),
        _ => 0,
    }
}

/// Each context of modifier `m` with the tokens it writes, in order.
fn contexts(resolver: &Value, m: &str) -> Vec<(String, usize)> {
    resolver["modifiers"][m]["contexts"]
        .as_object()
        .unwrap_or_else(|| panic!("no modifier `{m}`: {resolver:#}"))
        .iter()
        .map(|(c, sources)| (c.clone(), count(sources)))
        .collect()
}

/// What the import's summary says each context publishes: by
/// "modifier context", its tokens and how many it sets itself.
fn published(said: &str) -> Vec<(String, usize, usize)> {
    said.lines()
        .filter_map(|l| {
            let (name, rest) = l.strip_prefix("  ")?.split_once(": ")?;
            let (total, rest) = rest.split_once(" tokens")?;
            let own = rest
                .strip_prefix(", ")
                .and_then(|r| r.split_once(' '))
                .map_or(Some(0), |(n, _)| n.parse().ok())?;
            Some((name.to_string(), total.parse().ok()?, own))
        })
        .collect()
}

fn modifiers(resolver: &Value) -> Vec<String> {
    let mut names: Vec<String> = resolver["modifiers"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// NVE's design system: three groups (Brand, Theme, Device), each a Figma
/// collection of its own, whose themes select sets that define different
/// tokens: three axes, as Tokens Studio and sd-transforms read them. The
/// sets every theme of a group selects (`brand/nve`, `public/device/
/// desktop`) are the base; `light` is the Theme default though nothing
/// sorts it first, and each other group's first theme is its default.
#[test]
fn nve_theme_groups_are_three_axes_with_light_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, said, resolver) = import(
        &fixture("nve-designsystem/tokens"),
        "nve",
        &dir.path().join("out"),
    );
    assert!(ok, "{said}");
    assert_eq!(modifiers(&resolver), ["Brand", "Device", "Theme"], "{said}");
    let m = &resolver["modifiers"];
    assert_eq!(m["Brand"]["default"], "NVE");
    assert_eq!(m["Theme"]["default"], "light");
    assert_eq!(m["Device"]["default"], "desktop");
    // Each context publishes 702 tokens (749 names, less 47 left out,
    // each said: the 36 `boolean.*` of a type DTCG has not; RME's
    // `#fffffff`; 10 with no strict DTCG form, MQ2302 and MQ2303;
    // `paragraph-indent.0` is a dimension), and sets those whose value
    // differs from the default's. Counted independently in Python from
    // the sets: dark 149; Varsom 71 colours and 1 text; RME 57 colours and
    // 1 text, less its invalid colour; tablet 22 sizing, 8 spacing, 8 font
    // sizes; mobile and mobile-small 24, 13, 8 (their booleans left out).
    let expected = [
        ("Brand NVE", 0),
        ("Brand Varsom", 72),
        ("Brand RME", 57),
        ("Theme light", 0),
        ("Theme dark", 149),
        ("Device desktop", 0),
        ("Device desktop-large", 7),
        ("Device tablet", 38),
        ("Device mobile", 45),
        ("Device mobile-small", 45),
    ];
    assert_eq!(
        published(&said),
        expected.map(|(c, own)| (c.to_string(), 702, own)),
        "{said}"
    );
    // The colour scheme is declared for the Theme's contexts only.
    assert_eq!(
        m["Theme"]["$extensions"]["app.marque"]["colorScheme"],
        serde_json::json!({"light": "light", "dark": "dark"})
    );
    assert!(m["Brand"].get("$extensions").is_none());
}

/// DS-Simulate: one list of themes that are brand × mode (`Base Dark`,
/// `Base Light`, `Bet9ja Dark`, `Bet9ja Light`): ONE modifier whose
/// contexts are exactly those four, never their combinations; the first
/// declared the default (none is named light, default or base), and each
/// context's colour scheme its theme's, so `:root` is dark and the
/// `Bet9ja Light` context light, whatever their names.
#[test]
fn a_list_of_brand_and_mode_themes_is_one_modifier_of_exactly_those_themes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let (ok, said, resolver) = import(&fixture("ds-simulate/tokens"), "ds", &out);
    assert!(ok, "{said}");
    assert_eq!(modifiers(&resolver), ["theme"], "{said}");
    let m = &resolver["modifiers"]["theme"];
    assert_eq!(m["default"], "Base Dark");
    let names: Vec<String> = contexts(&resolver, "theme")
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    assert_eq!(
        names,
        ["Base Dark", "Base Light", "Bet9ja Dark", "Bet9ja Light"]
    );
    // `global light` and `bet9ja light` are `{}` in the repository; only
    // `bet9ja dark` sets anything: of its 60 tokens global lacks, those
    // that refer to tokens the repository does not have (`{primary.0300}`,
    // where global has `primary.300`) are left out with MQ1702, each said.
    let expected = [
        ("theme Base Dark", 0),
        ("theme Base Light", 0),
        ("theme Bet9ja Dark", 31),
        ("theme Bet9ja Light", 0),
    ];
    assert_eq!(
        published(&said),
        expected.map(|(c, own)| (c.to_string(), 212, own)),
        "{said}"
    );
    assert!(
        said.contains("MQ1702") && said.contains("kept 212 of 261"),
        "{said}"
    );
    assert_eq!(
        m["$extensions"]["app.marque"]["colorScheme"],
        serde_json::json!({"Base Dark": "dark", "Base Light": "light", "Bet9ja Dark": "dark", "Bet9ja Light": "light"})
    );
    // The set no theme selects is said, not published.
    assert!(
        said.contains("MQ2210") && said.contains("Content Typography"),
        "{said}"
    );
    // Read natively too: brand.json names the synced folder.
    let content = dir.path().join("content");
    let tokens = content.join("ds/tokens");
    std::fs::create_dir_all(&tokens).unwrap();
    for entry in std::fs::read_dir(fixture("ds-simulate/tokens")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), tokens.join(entry.file_name())).unwrap();
    }
    std::fs::write(
        content.join("ds/brand.json"),
        r#"{"name": "ds", "summary": "x", "version": "1.0.0", "updated": "2026-11-20", "tokens": "tokens"}"#,
    )
    .unwrap();
    let app = spawn_with(serve_config(&content));
    let css = app.get("/brand/ds/tokens.css").text();
    let root = css.find(":root {").expect("a :root rule");
    assert!(
        css[root..]
            .split('}')
            .next()
            .unwrap()
            .contains("color-scheme: dark"),
        "{css}"
    );
    let light = css
        .find("[data-theme=\"bet9ja-light\"]")
        .unwrap_or_else(|| panic!("{css}"));
    assert!(
        css[light..]
            .split('}')
            .next()
            .unwrap()
            .contains("color-scheme: light"),
        "{css}"
    );
}

/// Two brand groups, each with its own light and dark sets that define the
/// same tokens: alternatives, not axes. One modifier of exactly the four
/// themes, the first declared the default, so the default publishes one
/// brand's colour and never the other's over it.
#[test]
fn brand_groups_with_their_own_light_and_dark_are_one_modifier() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("tokens");
    let set = |name: &str, bg: &str| {
        // DTCG's `.tokens.json`, as some teams name a synced folder's
        // files: the set is still the name `$themes` gives.
        let file = folder.join(format!("{name}.tokens.json"));
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(
            file,
            format!(r##"{{"bg": {{"value": "{bg}", "type": "color"}}, "fg": {{"value": "#000000", "type": "color"}}}}"##),
        )
        .unwrap();
    };
    set("acme/light", "#ffffff");
    set("acme/dark", "#111111");
    set("zen/light", "#ff00ff");
    set("zen/dark", "#220022");
    let theme = |group: &str, name: &str, set: &str| {
        format!(
            r#"{{"name": "{name}", "group": "{group}", "selectedTokenSets": {{"{set}": "enabled"}}}}"#
        )
    };
    std::fs::write(
        folder.join("$themes.json"),
        format!(
            "[{}, {}, {}, {}]",
            theme("Acme", "light", "acme/light"),
            theme("Acme", "dark", "acme/dark"),
            theme("Zen", "light", "zen/light"),
            theme("Zen", "dark", "zen/dark")
        ),
    )
    .unwrap();
    let (ok, said, resolver) = import(&folder, "multi", &dir.path().join("out"));
    assert!(ok, "{said}");
    assert_eq!(modifiers(&resolver), ["theme"], "{said}");
    let m = &resolver["modifiers"]["theme"];
    let names: Vec<String> = contexts(&resolver, "theme")
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    assert_eq!(names, ["Acme light", "Acme dark", "Zen light", "Zen dark"]);
    assert_eq!(m["default"], "Acme light");
    // The default is Acme's own white, not Zen's magenta over it.
    let base = resolver["sets"].to_string();
    assert!(
        base.contains("#ffffff") && !base.contains("#ff00ff"),
        "{resolver:#}"
    );
    assert!(m["contexts"]["Zen light"].to_string().contains("#ff00ff"));
    assert_eq!(
        m["$extensions"]["app.marque"]["colorScheme"]["Zen dark"],
        "dark"
    );
}

/// Material Theme Builder's export: its six schemes are the contexts of
/// one modifier, light the default, the dark ones dark; its 49 roles per
/// scheme and five palettes of 18 tones are every token.
#[test]
fn a_material_theme_builder_export_is_six_schemes() {
    let dir = tempfile::tempdir().unwrap();
    let (ok, said, resolver) = import(
        &fixture("life-chest-material-theme/material-theme.json"),
        "m3",
        &dir.path().join("out"),
    );
    assert!(ok, "{said}");
    assert_eq!(modifiers(&resolver), ["scheme"]);
    let m = &resolver["modifiers"]["scheme"];
    assert_eq!(m["default"], "light");
    let names: Vec<String> = contexts(&resolver, "scheme")
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    assert_eq!(
        names,
        [
            "light",
            "light-medium-contrast",
            "light-high-contrast",
            "dark",
            "dark-medium-contrast",
            "dark-high-contrast"
        ]
    );
    // Every context: 49 roles, 5 palettes × 18 tones, the seed and one
    // core colour; each sets the roles whose colour differs from light's
    // (counted in Python from the file: 27, 30, 35, 41, 47).
    let expected = [
        ("scheme light", 0),
        ("scheme light-medium-contrast", 27),
        ("scheme light-high-contrast", 30),
        ("scheme dark", 35),
        ("scheme dark-medium-contrast", 41),
        ("scheme dark-high-contrast", 47),
    ];
    assert_eq!(
        published(&said),
        expected.map(|(c, own)| (c.to_string(), 49 + 5 * 18 + 2, own)),
        "{said}"
    );
    assert_eq!(
        m["$extensions"]["app.marque"]["colorScheme"]["dark-high-contrast"],
        "dark"
    );
}

/// A JSON file in no format marque reads gets one error that says so and
/// lists the formats it reads, not one error per member read as DTCG.
#[test]
fn an_unknown_format_is_one_error_listing_the_formats_marque_reads() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("palette.json");
    let members: Vec<String> = (0..200)
        .map(|i| {
            format!(
                r##""c{i}": {{"hex": "#0000{:02x}", "name": "c{i}"}}"##,
                i % 256
            )
        })
        .collect();
    std::fs::write(&file, format!("{{{}}}", members.join(", "))).unwrap();
    let (ok, said, _) = import(&file, "x", &dir.path().join("out"));
    assert!(!ok, "{said}");
    assert_eq!(
        said.matches("not a format marque reads").count(),
        1,
        "{said}"
    );
    assert!(
        said.contains("Material Theme Builder") && said.contains("Theo"),
        "{said}"
    );
    assert!(!said.contains("MQ1304"), "{said}");
}

/// A Figma plugin export that puts each collection's mode in the path
/// (`Semantic/Light/bg`, references `{Semantic.Light.bg}`): the mode is a
/// context of the collection's modifier, and the segment is gone from
/// names and references, so `--semantic-bg` switches under
/// `[data-semantic="dark"]` instead of two themes side by side.
#[test]
fn modes_in_a_figma_export_s_paths_are_contexts() {
    let dir = tempfile::tempdir().unwrap();
    let brand = dir.path().join("content/fig");
    std::fs::create_dir_all(&brand).unwrap();
    std::fs::write(
        brand.join("brand.json"),
        r#"{"name": "fig", "summary": "x", "version": "1.0.0", "updated": "2026-11-20"}"#,
    )
    .unwrap();
    let token = |value: &str| serde_json::json!({"$type": "color", "$value": value, "$extensions": {"com.figma.scopes": ["ALL_SCOPES"]}});
    let doc = serde_json::json!({
        "Primitives": {"Mode 1": {"white": token("#ffffff"), "ink": token("#111111")}},
        "Semantic": {
            "Light": {"bg": token("{Primitives.Mode 1.white}"), "fg": token("{Semantic.Light.bg}")},
            "Dark": {"bg": token("{Primitives.Mode 1.ink}"), "fg": token("{Semantic.Dark.bg}")}
        }
    });
    std::fs::write(brand.join("tokens.json"), doc.to_string()).unwrap();
    let app = spawn_with(serve_config(&dir.path().join("content")));
    let css = app.get("/brand/fig/tokens.css").text();
    assert!(
        css.contains("--semantic-bg: var(--primitives-white);"),
        "{css}"
    );
    assert!(css.contains("[data-semantic=\"dark\"]"), "{css}");
    assert!(
        !css.contains("--semantic-light-bg") && !css.contains("mode-1"),
        "{css}"
    );
}
