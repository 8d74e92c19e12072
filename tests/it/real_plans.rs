//! Reading plans of real, openly licensed repositories, one of each shape
//! (`tests/fixtures/plans-real/<name>/SOURCE.md` gives each one's origin,
//! commit and licence): a Tokens Studio folder whose themes are brand ×
//! mode, a Figma plugin export that keeps a collection's modes in the
//! path, and a Style Dictionary repository with a JSON config, a CSS
//! prefix and its own built CSS. Each is read as a user reads it: `marque
//! import --plan`, `check --explain`, then a brand whose brand.json names
//! the written plan, which must publish what the brand read without it
//! publishes. Every figure below was counted by hand in the source files.

use crate::helpers::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/plans-real")
        .join(name)
}

/// A brand `slug` under `content`: the fixture's files, and a brand.json
/// whose `tokens` is `tokens`.
fn brand(content: &Path, slug: &str, name: &str, tokens: &str) -> PathBuf {
    let dir = content.join(slug);
    copy_dir(&fixture(name), &dir);
    std::fs::write(
        dir.join("brand.json"),
        json!({"name": slug, "summary": "x", "version": "1.0.0", "updated": "2026-11-20", "tokens": tokens}).to_string(),
    )
    .unwrap();
    dir
}

/// `marque import <dir>/<input> --plan <dir>/marque.plan.json`: the plan
/// and what was printed.
fn plan_of(dir: &Path, input: &str) -> (Value, String) {
    let plan = dir.join("marque.plan.json");
    let (ok, said) = import(&[
        dir.join(input).to_str().unwrap(),
        "--plan",
        plan.to_str().unwrap(),
    ]);
    assert!(ok, "{said}");
    let text = std::fs::read_to_string(&plan).unwrap();
    (serde_json::from_str(&text).unwrap(), said)
}

/// `marque check --explain --format json <content>`: each brand's line.
fn explain(content: &Path) -> BTreeMap<String, Value> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", "--explain", "--format", "json"])
        .arg(content)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|v| (v["brand"].as_str().unwrap().to_string(), v))
        .collect()
}

/// The declarations of every rule of `css`, by its selector (inside an
/// at-rule, both), comments left out.
fn rules(css: &str) -> BTreeMap<String, Vec<String>> {
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut open: Vec<String> = Vec::new();
    for line in css.lines().map(str::trim) {
        if let Some(selector) = line.strip_suffix('{') {
            open.push(selector.trim().to_string());
        } else if line == "}" {
            open.pop();
        } else if line.starts_with("--") || line.starts_with("color-scheme") {
            out.entry(open.join(" > "))
                .or_default()
                .push(line.to_string());
        }
    }
    out
}

/// The planned brand and the brand read without a plan publish the same
/// tokens.css (`unprefixed`: once that prefix is taken off the names of
/// both); nothing is inferred from the plan (no MQ2214). Returns the
/// tokens.css of the brand read without the plan.
fn same_as_without_plan(content: &Path, planned: &str, folder: &str, unprefixed: &str) -> String {
    let app = spawn_app(content);
    let a = app.get(&format!("/brand/{planned}/tokens.css")).text();
    let b = app.get(&format!("/brand/{folder}/tokens.css")).text();
    assert!(!rules(&a).is_empty(), "{a}");
    let strip = |css: &str| match unprefixed {
        "" => rules(css),
        p => rules(&css.replace(&format!("--{p}-"), "--")),
    };
    assert_eq!(strip(&a), strip(&b), "{a}\n---\n{b}");
    let status = brand_status(&app, planned).unwrap().to_string();
    assert!(!status.contains("MQ2214"), "{status}");
    b
}

#[test]
fn open_tokens_brand_and_mode_themes_are_one_modifier_of_exactly_those_themes() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let planned = brand(&content, "planned", "open-tokens", "marque.plan.json");
    brand(&content, "folder", "open-tokens", "figma");
    let (plan, said) = plan_of(&planned, "figma");
    // The team's 13 sets, in `tokenSetOrder`; the palette source only.
    let sets = plan["sets"].as_object().unwrap();
    let names: Vec<&str> = sets.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "core / color",
            "core / sizings",
            "core / spacings",
            "core / typographies",
            "tonal / navigational / blue",
            "tonal / navigational / group-blue",
            "tonal / accent / blue",
            "tonal / accent / green",
            "tonal / signal / green",
            "semantic/light",
            "semantic/dark",
            "components/button",
            "components/avatar"
        ],
        "{plan:#}"
    );
    for (name, set) in sets {
        let source_only = set["$extensions"]["app.marque"]["sourceOnly"] == true;
        assert_eq!(source_only, name.starts_with("core / "), "{name}");
    }
    assert_eq!(
        plan["sets"]["core / color"]["sources"][0]["$ref"],
        "figma/core / color.json"
    );
    // One modifier, its contexts exactly the two themes of `$themes`.
    let modifiers = plan["modifiers"].as_object().unwrap();
    assert_eq!(modifiers.keys().collect::<Vec<_>>(), ["theme"]);
    let theme = &plan["modifiers"]["theme"];
    assert_eq!(theme["default"], "UltraLight - Green");
    assert!(
        theme["description"]
            .as_str()
            .unwrap()
            .starts_with("declared by `$themes`"),
        "{theme:#}"
    );
    let set = |n: &str| json!({"$ref": format!("#/sets/{}", n.replace('/', "~1"))});
    assert_eq!(
        theme["contexts"],
        json!({
            "UltraLight - Green": [set("tonal / navigational / group-blue"), set("tonal / accent / green"), set("semantic/light")],
            "VeryDark - Blue": [set("tonal / navigational / blue"), set("tonal / accent / blue"), set("semantic/dark")]
        })
    );
    assert!(
        said.contains("not read: `tonal / accent / group-blue`, in no theme of `$themes`"),
        "{said}"
    );
    // 5 tokens in each theme: the accent's three, `painel`'s two.
    let lines = explain(&content);
    let expected = json!({"default": 5, "theme=UltraLight - Green": 5, "theme=VeryDark - Blue": 5});
    assert_eq!(lines["folder"]["contexts"], expected);
    assert_eq!(lines["planned"]["contexts"], expected);
    let css = same_as_without_plan(&content, "planned", "folder", "");
    // The dark theme's own values, as `core / color` holds them
    // (`global.blue.45`, `.40`, `.50`, `global.neutral.black`), and its
    // scheme from its name.
    assert_eq!(
        rules(&css)["[data-theme=\"very-dark-blue\"]"],
        [
            "color-scheme: dark;",
            "--color-primary-default: #337fbf;",
            "--color-primary-hover: #438bcc;",
            "--color-primary-active: #296fab;",
            "--painel-foreground: #000000;"
        ],
        "{css}"
    );
}

#[test]
fn fusillo_a_figma_collection_with_its_modes_in_the_path_is_a_modifier() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let planned = brand(&content, "planned", "fusillo", "marque.plan.json");
    brand(&content, "folder", "fusillo", "tokens.json");
    // The plugin's `$meta` is its notes, not an error.
    let (plan, said) = plan_of(&planned, "tokens.json");
    assert!(said.contains("`$meta`"), "{said}");
    assert!(!said.contains("MQ1302"), "{said}");
    // A plan of one file whose modes are inside it names the file.
    assert_eq!(
        plan["sets"],
        json!({"tokens": {"sources": [{"$ref": "tokens.json"}], "$extensions": {"app.marque": {"format": "style-dictionary"}}}})
    );
    assert!(plan.get("modifiers").is_none(), "{plan:#}");
    assert!(
        said.contains("modifier `Tokens`: read from inside the file")
            && said.contains("  Light (default): 475 tokens")
            && said.contains("  Dark: 475 tokens"),
        "{said}"
    );
    // The modifier, as imported: the collection `Tokens`, Light the default.
    let out = dir.path().join("out");
    let (ok, said) = import(&[
        planned.join("tokens.json").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--slug",
        "fusillo",
    ]);
    assert!(ok, "{said}");
    let resolver: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("fusillo/tokens.resolver.json")).unwrap(),
    )
    .unwrap();
    let m = &resolver["modifiers"]["Tokens"];
    assert_eq!(m["default"], "Light", "{said}");
    assert_eq!(
        m["contexts"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["Light", "Dark"]
    );
    assert_eq!(
        m["$extensions"]["app.marque"]["colorScheme"],
        json!({"Light": "light", "Dark": "dark"})
    );
    assert!(
        said.contains("modifiers Tokens (Light, Dark)")
            && said.contains("Tokens Dark: 472 tokens, 140 set by this context"),
        "{said}"
    );
    // 241 Foundations, 3 Config, 231 Tokens in each mode.
    let lines = explain(&content);
    let expected = json!({"default": 475, "Tokens=Light": 475, "Tokens=Dark": 475});
    assert_eq!(lines["folder"]["contexts"], expected);
    assert_eq!(lines["planned"]["contexts"], expected);
    // The mode is gone from names and references.
    let css = same_as_without_plan(&content, "planned", "folder", "");
    let all = rules(&css);
    let dark = &all["[data-tokens=\"dark\"]"];
    assert!(
        dark.contains(
            &"--tokens-color-bg-background: var(--foundations-color-neutral-950);".into()
        ),
        "{css}"
    );
    assert!(
        !css.contains("--tokens-light-") && !css.contains("--tokens-dark-"),
        "{css}"
    );
}

/// Each difference `--against` reports between the team's build and
/// tokens.css, and why it is there.
const KNOWN: &[(&str, &str)] = &[
    (
        "fontfamily: theirs `\"DB Screen",
        "right: marque ends a font stack with a generic family, so a reader without the DB fonts gets sans-serif, not the browser's default serif",
    ),
];

#[test]
fn db_ui_base_a_style_dictionary_config_reads_with_its_prefix_and_matches_its_build() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let config = "style-dictionary.config.json";
    let planned = brand(&content, "planned", "db-ui-base", "marque.plan.json");
    brand(&content, "folder", "db-ui-base", config);
    // One set of the config's twelve sources, in its glob's order; no mode.
    let (plan, said) = plan_of(&planned, config);
    let sources: Vec<&str> = plan["sets"]["source"]["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["$ref"].as_str().unwrap())
        .collect();
    let files = [
        "asset/font.json",
        "color.json",
        "color/feedback.json",
        "color/poi.json",
        "color/primary.json",
        "color/transportation.json",
        "font.jsonc",
        "spacings.json",
        "tailwind/font-size.json",
        "tailwind/screens.json",
        "tailwind/spacing.json",
        "transition.json",
    ]
    .map(|f| format!("tokens/{f}"));
    assert_eq!(sources, files, "{plan:#}");
    assert_eq!(
        plan["sets"]["source"]["$extensions"]["app.marque"],
        json!({"format": "style-dictionary"})
    );
    assert_eq!(plan["sets"].as_object().unwrap().len(), 1);
    assert!(plan.get("modifiers").is_none(), "{plan:#}");
    assert!(said.contains("no modifier: one context"), "{said}");
    // 177 tokens, as many as the team's build declares.
    let lines = explain(&content);
    assert_eq!(lines["folder"]["contexts"], json!({"default": 177}));
    assert_eq!(lines["planned"]["contexts"], json!({"default": 177}));
    // The config's prefix, which the plan keeps (`$extensions` `prefix`);
    // an easing written as text is CSS, not a string.
    assert_eq!(
        plan["$extensions"]["app.marque"]["prefix"], "db",
        "{plan:#}"
    );
    let css = same_as_without_plan(&content, "planned", "folder", "");
    let root = &rules(&css)[":root"];
    assert_eq!(root.len(), 177, "{css}");
    assert!(root.iter().all(|d| d.starts_with("--db-")), "{css}");
    for d in [
        "--db-transition-emotional-timing: cubic-bezier(0.27, 0.05, 0.4, 0.95);",
        "--db-transition-emotional-straight: var(--db-transition-duration-fast) var(--db-transition-emotional-timing);",
    ] {
        assert!(root.contains(&d.to_string()), "{d}\n{css}");
    }
    // The team's own build, compared.
    let (ok, said) = import(&[
        planned.join(config).to_str().unwrap(),
        "--out",
        dir.path().join("out").to_str().unwrap(),
        "--against",
        planned.join("build/css/variables.css").to_str().unwrap(),
    ]);
    assert!(ok, "{said}");
    assert!(
        said.contains("  default: 173 equal, 4 different, 0 missing (of 177 it declares)\n"),
        "{said}"
    );
    let found = said
        .lines()
        .filter_map(|l| l.trim().strip_prefix("different "))
        .map(|l| {
            let known = KNOWN.iter().position(|(k, _)| l.contains(k));
            (l.to_string(), known)
        })
        .collect();
    let entries: Vec<(String, String)> = KNOWN
        .iter()
        .map(|(k, why)| (k.to_string(), why.to_string()))
        .collect();
    judge_differences("DB UI Base's build", found, &entries);
}
