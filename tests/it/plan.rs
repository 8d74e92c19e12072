//! The reading plan: `marque import --plan` writes how marque reads a
//! team's files as a resolver document over those files, `check
//! --explain` says it for a brand read natively, and brand.json naming
//! the plan (as written, or corrected by hand) reads exactly what it says.

use crate::helpers::*;
use serde_json::{json, Value};
use std::path::Path;

const CORE: &str = r##"{"palette": {"white": {"value": "#ffffff", "type": "color"}, "ink": {"value": "#111111", "type": "color"}, "blue": {"value": "#0969da", "type": "color"}}}"##;
const LIGHT: &str = r#"{"bg": {"value": "{palette.white}", "type": "color"}, "fg": {"value": "{palette.ink}", "type": "color"}}"#;
const DARK: &str = r#"{"bg": {"value": "{palette.ink}", "type": "color"}, "fg": {"value": "{palette.white}", "type": "color"}}"#;
const ACCENT: &str = r#"{"accent": {"value": "{palette.blue}", "type": "color"}}"#;

/// A team's repository: `tokens/` with a core, light and dark semantic
/// sets, and an iOS copy of the light set beside its web one.
fn repository(root: &Path) {
    for (path, text) in [
        ("tokens/core.json", CORE),
        ("tokens/web/semantic/light.json", LIGHT),
        ("tokens/web/semantic/dark.json", DARK),
        ("tokens/ios/semantic/light.json", LIGHT),
        ("tokens/web/extra/accent.json", ACCENT),
    ] {
        let file = root.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
}

fn brand_json(dir: &Path, tokens: &str) {
    std::fs::write(
        dir.join("brand.json"),
        format!(r#"{{"name": "Acme", "summary": "x", "version": "1.0.0", "updated": "2026-11-20", "tokens": "{tokens}"}}"#),
    )
    .unwrap();
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// The plan of the repository at `repo`, written beside its `tokens/`.
fn plan_of(repo: &Path) -> (Value, String) {
    let plan = repo.join("marque.plan.json");
    let (ok, said) = import(&[
        repo.join("tokens").to_str().unwrap(),
        "--plan",
        plan.to_str().unwrap(),
    ]);
    assert!(ok, "{said}");
    (read(&plan), said)
}

/// The declarations of the rule `selector` in `css`, sorted.
fn rule(css: &str, selector: &str) -> Vec<String> {
    let Some(at) = css.find(&format!("{selector} {{")) else {
        return Vec::new();
    };
    let body = &css[at..];
    let mut out: Vec<String> = body[..body.find('}').unwrap()]
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("--"))
        .map(str::to_string)
        .collect();
    out.sort();
    out
}

#[test]
fn a_plan_names_the_teams_files_says_what_it_inferred_and_reads_as_the_folder_does() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let planned = content.join("planned");
    repository(&planned);
    let (plan, said) = plan_of(&planned);
    // The team's own files, each set saying how it is read.
    let sets = plan["sets"].as_object().unwrap();
    let names: Vec<&str> = sets.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "core",
            "web/extra/accent",
            "web/semantic/dark",
            "web/semantic/light"
        ],
        "{plan:#}"
    );
    assert_eq!(
        plan["sets"]["web/semantic/dark"]["sources"][0]["$ref"],
        "tokens/web/semantic/dark.json"
    );
    assert_eq!(
        plan["sets"]["core"]["$extensions"]["app.marque"],
        json!({"format": "tokens-studio", "oneTree": true})
    );
    // The modifier, what it was inferred from, and its default.
    let theme = &plan["modifiers"]["theme"];
    assert_eq!(theme["default"], "light");
    let description = theme["description"].as_str().unwrap();
    assert!(
        description.contains("inferred from the sets' names")
            && description.contains("`web/semantic/dark`"),
        "{description}"
    );
    assert_eq!(
        theme["contexts"]["dark"],
        json!([{"$ref": "#/sets/web~1semantic~1dark"}])
    );
    assert_eq!(
        plan["resolutionOrder"],
        json!([{"$ref": "#/sets/core"}, {"$ref": "#/sets/web~1extra~1accent"}, {"$ref": "#/modifiers/theme"}])
    );
    // What was left out is said, not kept in the plan.
    assert!(said.contains("not read: `ios/semantic/light`"), "{said}");
    assert!(!plan.to_string().contains("ios"), "{plan:#}");

    // The same repository, its folder named: the plan reads to the same brand.
    let folder = content.join("folder");
    repository(&folder);
    brand_json(&folder, "tokens");
    brand_json(&planned, "marque.plan.json");
    let app = spawn_app(&content);
    let a = app.get("/brand/planned/tokens.css").text();
    let b = app.get("/brand/folder/tokens.css").text();
    assert_eq!(rule(&a, ":root"), rule(&b, ":root"), "{a}\n{b}");
    assert_eq!(
        rule(&a, "[data-theme=\"dark\"]"),
        rule(&b, "[data-theme=\"dark\"]")
    );
    assert!(rule(&a, ":root").contains(&"--bg: var(--palette-white);".to_string()));
    // The plan is explicit: nothing is inferred from it again.
    let status = app.get("/status").json().to_string();
    let planned_status = brand_status(&app, "planned").unwrap().to_string();
    assert!(!planned_status.contains("MQ2214"), "{planned_status}");
    assert!(
        status.contains("MQ2214"),
        "the folder's reading is inferred"
    );
}

#[test]
fn a_plan_corrected_by_hand_reads_to_exactly_what_it_says() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let brand = content.join("acme");
    repository(&brand);
    let (mut plan, _) = plan_of(&brand);
    // Dark the default, the core referred to but never published, and the
    // accent made part of the dark context (light's and dark's merged
    // with it: dark now applies both).
    plan["modifiers"]["theme"]["default"] = json!("dark");
    plan["sets"]["core"]["$extensions"]["app.marque"]["sourceOnly"] = json!(true);
    plan["modifiers"]["theme"]["contexts"]["dark"]
        .as_array_mut()
        .unwrap()
        .push(json!({"$ref": "#/sets/web~1extra~1accent"}));
    plan["resolutionOrder"] = json!([{"$ref": "#/sets/core"}, {"$ref": "#/modifiers/theme"}]);
    std::fs::write(
        brand.join("marque.plan.json"),
        serde_json::to_string_pretty(&plan).unwrap(),
    )
    .unwrap();
    brand_json(&brand, "marque.plan.json");
    let app = spawn_app(&content);
    let css = app.get("/brand/acme/tokens.css").text();
    let root = rule(&css, ":root");
    assert_eq!(
        root,
        ["--accent: #0969da;", "--bg: #111111;", "--fg: #ffffff;"],
        "dark the default, the core's values inlined, not published\n{css}"
    );
    let light = rule(&css, "[data-theme=\"light\"]");
    assert!(
        light.contains(&"--bg: #ffffff;".to_string()),
        "light is a context\n{css}"
    );
    // Imported again, the corrected plan gives the same.
    let out = dir.path().join("out");
    let (ok, said) = import(&[
        brand.join("marque.plan.json").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--slug",
        "acme",
    ]);
    assert!(ok, "{said}");
    assert!(
        said.contains("theme dark: 3 tokens (the default)"),
        "{said}"
    );
}

#[test]
fn a_plan_of_a_file_that_keeps_its_modes_inside_keeps_them() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let brand = content.join("acme");
    std::fs::create_dir_all(&brand).unwrap();
    std::fs::write(
        brand.join("system.json"),
        r##"{"bg": {"$type": "color", "$value": {"default": "#ffffff", "dark": "#000000"}}}"##,
    )
    .unwrap();
    let plan = brand.join("marque.plan.json");
    let (ok, said) = import(&[
        brand.join("system.json").to_str().unwrap(),
        "--plan",
        plan.to_str().unwrap(),
    ]);
    assert!(ok, "{said}");
    let doc = read(&plan);
    assert_eq!(
        doc["sets"]["tokens"],
        json!({"sources": [{"$ref": "system.json"}], "$extensions": {"app.marque": {"format": "dtcg"}}})
    );
    assert!(
        said.contains("modifier `theme`: read from inside the file")
            && said.contains("  dark: 1 tokens"),
        "{said}"
    );
    brand_json(&brand, "marque.plan.json");
    let app = spawn_app(&content);
    let css = app.get("/brand/acme/tokens.css").text();
    assert!(
        rule(&css, "[data-mode=\"dark\"]").contains(&"--bg: #000000;".to_string())
            || rule(&css, "[data-theme=\"dark\"]").contains(&"--bg: #000000;".to_string()),
        "the file's dark mode is a context\n{css}"
    );
}

#[test]
fn check_explain_says_each_brands_plan_and_counts_per_context() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let brand = content.join("acme");
    repository(&brand);
    brand_json(&brand, "tokens");
    let run = |format: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
            .args(["check", "--explain", "--format", format])
            .arg(&content)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let text = run("human");
    assert!(text.contains("acme: tokens from `tokens`"), "{text}");
    assert!(
        text.contains("dark: `web/semantic/dark`; 6 tokens"),
        "{text}"
    );
    assert!(text.contains("not read: `ios/semantic/light`"), "{text}");
    let line: Value = serde_json::from_str(run("json").lines().next().unwrap()).unwrap();
    assert_eq!(line["brand"], "acme");
    assert_eq!(line["plan"]["modifiers"]["theme"]["default"], "light");
    assert_eq!(line["contexts"]["theme=dark"], 6);
    assert_eq!(line["contexts"]["default"], 6);
    assert_eq!(line["leftOut"], json!({}), "nothing is left out");
}

#[test]
fn a_plan_is_kept_beside_the_files_it_names() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    repository(&repo);
    let elsewhere = tempfile::tempdir().unwrap();
    let (ok, said) = import(&[
        repo.join("tokens").to_str().unwrap(),
        "--plan",
        elsewhere.path().join("plan.json").to_str().unwrap(),
    ]);
    assert!(!ok, "{said}");
    assert!(
        said.contains("keep it in the folder that holds the input"),
        "{said}"
    );
}

#[test]
fn a_theme_that_selects_a_folder_selects_every_set_in_it_in_its_place() {
    // Workday Canvas's shape: `$themes` and `tokenSetOrder` name `base`,
    // the folder of `base/palette.json` and `base/size.json`.
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let brand = content.join("acme");
    for (path, text) in [
        (
            "tokens/base/palette.json",
            r##"{"blue": {"value": "#0969da", "type": "color"}, "green": {"value": "#1a7f37", "type": "color"}}"##,
        ),
        (
            "tokens/base/size.json",
            r#"{"size": {"4": {"value": "16", "type": "sizing"}}}"#,
        ),
        (
            "tokens/sys/canvas.json",
            r#"{"brand": {"value": "{blue}", "type": "color"}, "space": {"value": "{size.4}", "type": "spacing"}}"#,
        ),
        (
            "tokens/sys/forest.json",
            r#"{"brand": {"value": "{green}", "type": "color"}}"#,
        ),
        (
            "tokens/$metadata.json",
            r#"{"tokenSetOrder": ["base", "sys/canvas", "sys/forest"]}"#,
        ),
        (
            "tokens/$themes.json",
            r#"[{"name": "Canvas", "group": "Brand", "selectedTokenSets": {"base": "source", "sys/canvas": "enabled"}}, {"name": "Forest", "group": "Brand", "selectedTokenSets": {"base": "source", "sys/canvas": "enabled", "sys/forest": "enabled"}}]"#,
        ),
    ] {
        let file = brand.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    brand_json(&brand, "tokens");
    let app = spawn_app(&content);
    let css = app.get("/brand/acme/tokens.css").text();
    let root = rule(&css, ":root");
    assert!(
        root.contains(&"--brand: #0969da;".to_string())
            && root.contains(&"--space: 16px;".to_string()),
        "the folder's sets are read, as sources\n{css}"
    );
    assert!(
        rule(&css, "[data-brand=\"forest\"]").contains(&"--brand: #1a7f37;".to_string()),
        "{css}"
    );
}

/// A Style Dictionary 4 repository: `$value` sources, one file per mode,
/// and a config whose CSS files' selectors name the modes.
fn sd_repository(dir: &Path, modes: [&str; 2], selectors: [&str; 2]) {
    let files = [
        ("tokens/core.json".to_string(), r##"{"color": {"ink": {"$type": "color", "$value": "#111111"}, "paper": {"$type": "color", "$value": "#fafafa"}}}"##.to_string()),
        (format!("tokens/themes/{}.json", modes[0]), r#"{"bg": {"$type": "color", "$value": "{color.paper}"}}"#.to_string()),
        (format!("tokens/themes/{}.json", modes[1]), r#"{"bg": {"$type": "color", "$value": "{color.ink}"}}"#.to_string()),
    ];
    for (path, text) in files {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let files: Vec<Value> = selectors
        .iter()
        .map(|s| json!({"destination": "x.css", "format": "css/variables", "options": {"selector": s}}))
        .collect();
    let config = json!({"source": ["tokens/**/*.json"], "platforms": {"css": {"transformGroup": "css", "prefix": "ac", "buildPath": "build/", "files": files}}});
    std::fs::write(dir.join("config.json"), config.to_string()).unwrap();
}

#[test]
fn a_style_dictionary_configs_mode_files_are_contexts_named_as_its_selectors_name_them() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    // Mode words, and names only the config's selectors give.
    sd_repository(
        &content.join("daynight"),
        ["light", "dark"],
        [":root", "[data-theme=\"dark\"]"],
    );
    sd_repository(
        &content.join("seasons"),
        ["ocean", "forest"],
        ["[data-theme=\"ocean\"]", "[data-theme=\"forest\"]"],
    );
    for slug in ["daynight", "seasons"] {
        brand_json(&content.join(slug), "config.json");
    }
    let app = spawn_app(&content);
    let css = app.get("/brand/daynight/tokens.css").text();
    assert!(
        rule(&css, ":root").contains(&"--ac-bg: var(--ac-color-paper);".to_string()),
        "light the default\n{css}"
    );
    assert!(
        rule(&css, "[data-theme=\"dark\"]").contains(&"--ac-bg: var(--ac-color-ink);".to_string()),
        "{css}"
    );
    let css = app.get("/brand/seasons/tokens.css").text();
    assert!(
        rule(&css, ":root").contains(&"--ac-bg: var(--ac-color-paper);".to_string()),
        "ocean, the first the selectors name, is the default\n{css}"
    );
    assert!(
        rule(&css, "[data-theme=\"forest\"]")
            .contains(&"--ac-bg: var(--ac-color-ink);".to_string()),
        "{css}"
    );
    // The plan says the modifier and where it came from.
    let plan = content.join("seasons/marque.plan.json");
    let (ok, said) = import(&[
        content.join("seasons/config.json").to_str().unwrap(),
        "--plan",
        plan.to_str().unwrap(),
    ]);
    assert!(ok, "{said}");
    let plan = read(&plan);
    let theme = &plan["modifiers"]["theme"];
    assert_eq!(theme["default"], "ocean", "{plan:#}");
    assert_eq!(
        theme["contexts"]["forest"],
        json!([{"$ref": "#/sets/tokens~1themes~1forest"}])
    );
    assert_eq!(
        plan["sets"]["tokens/core"]["sources"][0]["$ref"],
        "tokens/core.json"
    );
}

#[test]
fn a_config_whose_globs_start_at_the_repositorys_root_reads_the_files_they_name_there() {
    // Style Dictionary runs from the repository's root, so a config kept
    // in `config/` names `tokens/**` from there, not from `config/`.
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    sd_repository(&repo, ["light", "dark"], [":root", ".dark"]);
    std::fs::create_dir_all(repo.join("config")).unwrap();
    std::fs::rename(repo.join("config.json"), repo.join("config/sd.json")).unwrap();
    let git = std::process::Command::new("git")
        .args(["init", "-q"])
        .arg(&repo)
        .status()
        .unwrap();
    assert!(git.success());
    let out = dir.path().join("out");
    let (ok, said) = import(&[
        repo.join("config/sd.json").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--slug",
        "acme",
    ]);
    assert!(ok, "{said}");
    assert!(
        said.contains("kept 3 of 3 tokens, modifiers theme (light, dark)"),
        "{said}"
    );
    // Outside a repository, the config's own folder is all there is.
    std::fs::remove_dir_all(repo.join(".git")).unwrap();
    let (ok, said) = import(&[
        repo.join("config/sd.json").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--slug",
        "other",
    ]);
    assert!(!ok && said.contains("name no data file"), "{said}");
}

#[test]
fn a_resolver_whose_sources_reach_outside_its_folder_is_read_from_the_repositorys_root() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    for (path, text) in [
        (
            "core/base.json",
            r##"{"ink": {"$type": "color", "$value": "#111111"}, "paper": {"$type": "color", "$value": "#fafafa"}}"##,
        ),
        (
            "brands/acme/light.json",
            r#"{"bg": {"$type": "color", "$value": "{paper}"}}"#,
        ),
        (
            "brands/acme/dark.json",
            r#"{"bg": {"$type": "color", "$value": "{ink}"}}"#,
        ),
        (
            "brands/acme/acme.resolver.json",
            r##"{"version": "2025.10", "sets": {"core": {"sources": [{"$ref": "../../core/base.json"}]}}, "modifiers": {"theme": {"contexts": {"light": [{"$ref": "light.json"}], "dark": [{"$ref": "dark.json"}]}, "default": "light"}}, "resolutionOrder": [{"$ref": "#/sets/core"}, {"$ref": "#/modifiers/theme"}]}"##,
        ),
    ] {
        let file = repo.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let git = std::process::Command::new("git")
        .args(["init", "-q"])
        .arg(&repo)
        .status()
        .unwrap();
    assert!(git.success());
    let out = dir.path().join("out");
    let (ok, said) = import(&[
        repo.join("brands/acme/acme.resolver.json")
            .to_str()
            .unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{said}");
    assert!(
        said.contains("kept 3 of 3 tokens, modifiers theme (light, dark)"),
        "{said}"
    );
}

#[test]
fn where_marque_must_ask_the_import_fails_with_the_plan_it_proposes_and_the_answer_is_an_edit() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let brand = content.join("acme");
    // `dim` and `dark`: modes, and neither is the default by name or order.
    for (path, text) in [
        ("tokens/core.json", CORE),
        ("tokens/semantic/dim.json", LIGHT),
        ("tokens/semantic/dark.json", DARK),
    ] {
        let file = brand.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let plan = brand.join("marque.plan.json");
    let (ok, said) = import(&[
        brand.join("tokens").to_str().unwrap(),
        "--plan",
        plan.to_str().unwrap(),
    ]);
    assert!(!ok, "{said}");
    assert!(
        said.contains("MQ2215") && said.contains("which context is the default?"),
        "{said}"
    );
    assert!(said.contains("the reading plan marque proposes"), "{said}");
    let mut doc = read(&plan);
    assert_eq!(
        doc["modifiers"]["theme"]["contexts"]
            .as_object()
            .unwrap()
            .len(),
        2,
        "{doc:#}"
    );
    // The answer: the default, said in the plan.
    doc["modifiers"]["theme"]["default"] = json!("dim");
    std::fs::write(&plan, doc.to_string()).unwrap();
    brand_json(&brand, "marque.plan.json");
    let app = spawn_app(&content);
    let css = app.get("/brand/acme/tokens.css").text();
    assert!(
        rule(&css, ":root").contains(&"--bg: var(--palette-white);".to_string()),
        "{css}"
    );
    let checked = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", "--semver", "off"])
        .arg(&content)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(
        checked.status.success() && !said.contains("MQ2215"),
        "{said}"
    );
}

#[test]
fn brand_groups_are_one_modifier_of_their_themes_and_the_plan_proposes_a_family() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let theme = |group: &str, mode: &str| json!({"name": mode, "group": group, "selectedTokenSets": {"core": "source", format!("{group}/{mode}"): "enabled"}});
    let themes = json!([
        theme("acme", "light"),
        theme("acme", "dark"),
        theme("zen", "light"),
        theme("zen", "dark")
    ]);
    let mut files = vec![
        ("tokens/core.json".to_string(), CORE.to_string()),
        ("tokens/$themes.json".to_string(), themes.to_string()),
    ];
    for group in ["acme", "zen"] {
        files.push((format!("tokens/{group}/light.json"), LIGHT.to_string()));
        files.push((format!("tokens/{group}/dark.json"), DARK.to_string()));
    }
    for (path, text) in files {
        let file = repo.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let (plan, said) = plan_of(&repo);
    let modifiers = plan["modifiers"].as_object().unwrap();
    assert_eq!(modifiers.len(), 1, "{plan:#}");
    let theme = &modifiers["theme"];
    let contexts: Vec<&String> = theme["contexts"].as_object().unwrap().keys().collect();
    assert_eq!(
        contexts,
        ["acme light", "acme dark", "zen light", "zen dark"]
    );
    assert_eq!(theme["default"], "acme light");
    let description = theme["description"].as_str().unwrap();
    assert!(
        description.contains("groups `acme`, `zen` are alternatives")
            && description.contains("one brand per group, as a family"),
        "{description}"
    );
    assert!(said.contains("acme dark: `acme/dark`; 2 tokens"), "{said}");
    assert_eq!(
        plan["sets"]["core"]["$extensions"]["app.marque"]["sourceOnly"],
        true
    );
}

/// The modifiers of a plan: each with its contexts, in order, and default.
fn modes_of(plan: &Value) -> Vec<(String, Vec<String>, String)> {
    plan["modifiers"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(name, m)| {
            let contexts = m["contexts"].as_object().unwrap().keys().cloned().collect();
            (
                name.clone(),
                contexts,
                m["default"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn file_order_syntax_and_how_sets_are_split_change_neither_the_modes_nor_the_values() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    // The reference: JSON files, written in order.
    let write = |brand: &str, files: &[(&str, &str)]| {
        let root = content.join(brand);
        for (path, text) in files {
            let file = root.join(path);
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, text).unwrap();
        }
        brand_json(&root, "tokens");
    };
    write(
        "json",
        &[
            ("tokens/core.json", CORE),
            ("tokens/semantic/light.json", LIGHT),
            ("tokens/semantic/dark.json", DARK),
        ],
    );
    // Written in another order.
    write(
        "shuffled",
        &[
            ("tokens/semantic/dark.json", DARK),
            ("tokens/core.json", CORE),
            ("tokens/semantic/light.json", LIGHT),
        ],
    );
    // The same tokens as YAML and JSON5.
    let yaml = "palette:\n  white: {value: '#ffffff', type: color}\n  ink: {value: '#111111', type: color}\n  blue: {value: '#0969da', type: color}\n";
    let light5 = "{bg: {value: '{palette.white}', type: 'color'}, fg: {value: '{palette.ink}', type: 'color',},} // light\n";
    write(
        "syntaxes",
        &[
            ("tokens/core.yaml", yaml),
            ("tokens/semantic/light.json5", light5),
            ("tokens/semantic/dark.json", DARK),
        ],
    );
    // The core split in two files.
    write(
        "split",
        &[
            (
                "tokens/core/white.json",
                r##"{"palette": {"white": {"value": "#ffffff", "type": "color"}}}"##,
            ),
            (
                "tokens/core/rest.json",
                r##"{"palette": {"ink": {"value": "#111111", "type": "color"}, "blue": {"value": "#0969da", "type": "color"}}}"##,
            ),
            ("tokens/semantic/light.json", LIGHT),
            ("tokens/semantic/dark.json", DARK),
        ],
    );
    let app = spawn_app(&content);
    let reference = app.get("/brand/json/tokens.css").text();
    let mut plans = Vec::new();
    for brand in ["json", "shuffled", "syntaxes", "split"] {
        let css = app.get(&format!("/brand/{brand}/tokens.css")).text();
        for selector in [":root", "[data-theme=\"dark\"]"] {
            assert_eq!(
                rule(&css, selector),
                rule(&reference, selector),
                "{brand} {selector}\n{css}"
            );
        }
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
            .args(["check", "--explain", "--format", "json"])
            .arg(&content)
            .output()
            .unwrap();
        let lines = String::from_utf8(out.stdout).unwrap();
        let line: Value = lines
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|l| l["brand"] == brand)
            .unwrap();
        plans.push((brand, modes_of(&line["plan"]), line["contexts"].clone()));
    }
    for (brand, modes, contexts) in &plans[1..] {
        assert_eq!(modes, &plans[0].1, "{brand}");
        assert_eq!(contexts, &plans[0].2, "{brand}");
    }
    assert_eq!(
        plans[0].1,
        [(
            "theme".to_string(),
            vec!["light".to_string(), "dark".to_string()],
            "light".to_string()
        )]
    );
}

#[test]
fn a_theme_none_of_whose_sets_is_there_is_left_out_not_published_as_another() {
    // `$themes` kept a theme whose file was renamed away: publishing it
    // would show the light theme's tokens under the name `dark`.
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let themes = json!([
        {"name": "light", "group": "theme", "selectedTokenSets": {"core": "source", "light": "enabled"}},
        {"name": "dark", "group": "theme", "selectedTokenSets": {"core": "source", "dark": "enabled"}},
        {"name": "dim", "group": "theme", "selectedTokenSets": {"core": "source", "dim": "enabled"}}
    ]);
    for (path, text) in [
        ("tokens/core.json", CORE.to_string()),
        ("tokens/light.json", LIGHT.to_string()),
        ("tokens/dim.json", DARK.to_string()),
        ("tokens/$themes.json", themes.to_string()),
    ] {
        let file = repo.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let (plan, said) = plan_of(&repo);
    let contexts: Vec<&String> = plan["modifiers"]["theme"]["contexts"]
        .as_object()
        .unwrap()
        .keys()
        .collect();
    assert_eq!(contexts, ["light", "dim"], "{plan:#}");
    assert!(said.contains("MQ2212"), "{said}");
}

#[test]
fn check_explain_compares_with_the_teams_build_as_import_does() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let brand = content.join("acme");
    sd_repository(&brand, ["light", "dark"], [":root", ".dark"]);
    brand_json(&brand, "config.json");
    let built = dir.path().join("built.css");
    std::fs::write(
        &built,
        ":root { --ac-color-ink: #111111; --ac-color-paper: #fafafa; --ac-bg: #fafafa; }\n.dark { --ac-bg: #111111; }\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", "--explain", "--against"])
        .arg(&built)
        .arg(&content)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("  default: 3 equal, 0 different, 0 missing (of 3 it declares)")
            && said.contains("dark: 1 equal, 0 different, 0 missing"),
        "{said}"
    );
}

#[test]
fn a_broken_file_that_two_sets_read_parts_of_is_said_to_be_broken_once() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let brand = content.join("acme");
    repository(&brand);
    let (mut plan, _) = plan_of(&brand);
    let how = plan["sets"]["core"]["$extensions"].clone();
    for (set, part) in [("x1", "a"), ("x2", "b")] {
        plan["sets"][set] = json!({
            "sources": [{"$ref": format!("tokens/broken.json#/{part}")}],
            "$extensions": how,
        });
    }
    plan["resolutionOrder"] = json!([
        {"$ref": "#/sets/core"}, {"$ref": "#/sets/x1"}, {"$ref": "#/sets/x2"},
        {"$ref": "#/modifiers/theme"}
    ]);
    std::fs::write(
        brand.join("marque.plan.json"),
        serde_json::to_string_pretty(&plan).unwrap(),
    )
    .unwrap();
    std::fs::write(
        brand.join("tokens/broken.json"),
        r##"{"a": {"x": {"value": "#ffffff", "type": "color"}}, "b": "##,
    )
    .unwrap();
    brand_json(&brand, "marque.plan.json");
    let (code, out, _) = check_capped(&content, 4096);
    assert_eq!(code, 1, "{out}");
    let said = out.matches("invalid JSON").count();
    assert_eq!(said, 1, "the file's error once, not once per set\n{out}");
}
