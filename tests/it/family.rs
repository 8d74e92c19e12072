//! Brand families (DESIGN.md §18), over a real repository with real tags:
//! `core` (a light/dark resolver) released as 1.0.0, 1.1.0 and 2.0.0;
//! `retail` follows core's head, overrides a colour and adds a context;
//! `outlet` is pinned to `core@^1` and has no tokens of its own.

use crate::git::{push_hook, serve_git_with, Remote};
use crate::helpers::*;
use serde_json::{json, Value};
use std::path::Path;

/// core's coral in each release: 1.0.0 as Lumen Health has it, then lighter.
const CORAL_1_0: &str = r#""components": [8, 78, 62]"#;
const CORAL_1_1: &str = r#""components": [8, 78, 70]"#;
/// retail's own coral, in every context.
const RETAIL_CORAL: &str = "#cc331a";

fn write_json(path: &Path, v: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_string_pretty(v).unwrap()).unwrap();
}

/// A brand.json for a child: Lumen Health's sections (its pairs and
/// references resolve in core's tokens), its own name, version and parent.
fn child_brand(remote: &Remote, name: &str, version: &str, extends: &str) -> Value {
    let text = std::fs::read_to_string(remote.path().join("lumen-health/brand.json")).unwrap();
    let mut b: Value = serde_json::from_str(&text).unwrap();
    b["name"] = json!(name);
    b["version"] = json!(version);
    b["extends"] = json!(extends);
    b["logo"] = json!({"variants": []});
    b
}

/// The family as the tests need it, with core released as 1.0.0 and
/// retail as 1.0.0; `later` runs before the last commit.
fn family_remote() -> Remote {
    let remote = Remote::new();
    let root = remote.path();
    copy_dir(&root.join("lumen-health"), &root.join("core"));
    remote.edit(
        "core/brand.json",
        "\"name\": \"Lumen Health\"",
        "\"name\": \"Core\"",
    );
    remote.set_version("core", "3.0.0-beta.2", "1.0.0");
    write_json(
        &root.join("retail/brand.json"),
        &child_brand(&remote, "Retail", "1.0.0", "core"),
    );
    write_json(
        &root.join("retail/own.json"),
        &json!({"color": {"$type": "color", "coral": {"$value": {"colorSpace": "srgb", "components": [0.8, 0.2, 0.1], "hex": RETAIL_CORAL}}}}),
    );
    write_json(
        &root.join("retail/dim.json"),
        &json!({"color": {"$type": "color",
            "ink": {"$value": {"colorSpace": "srgb", "components": [1, 1, 1], "hex": "#ffffff"}},
            "paper": {"$value": {"colorSpace": "srgb", "components": [0, 0, 0], "hex": "#000000"}},
            "teal": {"700": {"$value": {"colorSpace": "srgb", "components": [0.6, 0.9, 0.9], "hex": "#99e6e6"}}}}}),
    );
    write_json(
        &root.join("retail/tokens.resolver.json"),
        &json!({
            "version": "2025.10",
            "sets": {"own": {"sources": [{"$ref": "own.json"}]}},
            "modifiers": {"theme": {"contexts": {"dim": [{"$ref": "dim.json"}]}}},
            "resolutionOrder": [{"$ref": "#/sets/own"}, {"$ref": "#/modifiers/theme"}]
        }),
    );
    write_json(
        &root.join("outlet/brand.json"),
        &child_brand(&remote, "Outlet", "1.0.0", "core@^1"),
    );
    remote.commit("Add the core and two brands that extend it", 1);
    remote.tag_annotated("core@1.0.0", "Core 1.0.0", 1);
    remote.tag_annotated("retail@1.0.0", "Retail 1.0.0", 1);
    // 1.1.0: a lighter coral (which retail overrides).
    remote.edit("core/tokens/base.json", CORAL_1_0, CORAL_1_1);
    remote.set_version("core", "1.0.0", "1.1.0");
    remote.commit("Core: a lighter coral", 2);
    remote.tag_annotated("core@1.1.0", "Core 1.1.0", 2);
    remote
}

/// 2.0.0: the deprecated `color.legacy-blue` removed, a major release.
fn release_core_2(remote: &Remote) {
    let path = remote.path().join("core/tokens/base.json");
    let mut base: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    base["color"].as_object_mut().unwrap().remove("legacy-blue");
    write_json(&path, &base);
    remote.set_version("core", "1.1.0", "2.0.0");
    remote.commit("Core: retire the legacy blue", 3);
    remote.tag_annotated("core@2.0.0", "Core 2.0.0", 3);
}

fn status(app: &TestApp) -> Value {
    app.get("/status").json()
}

/// The diagnostics /status gives a brand (published or not).
fn diagnostics_of(app: &TestApp, slug: &str) -> Vec<Value> {
    let s = status(app);
    let all = s["brands"]
        .as_array()
        .into_iter()
        .chain(s["unpublished"].as_array())
        .flatten();
    all.filter(|b| b["slug"] == slug)
        .flat_map(|b| b["diagnostics"].as_array().cloned().unwrap_or_default())
        .collect()
}

/// A token's value in a brand's spec.json tokens tree (`color.coral`).
fn token(spec: &Value, name: &str) -> Value {
    let mut v = &spec["tokens"];
    for part in name.split('.') {
        v = &v[part];
    }
    v["$value"].clone()
}

#[test]
fn each_child_serves_its_parent_resolved_in_as_its_range_says() {
    let remote = family_remote();
    release_core_2(&remote);
    let g = serve_git_with(&remote.url(), None, |_| {});
    let app = &g.app;
    let spec = |slug: &str| {
        let res = app.get(&format!("/brand/{slug}/spec.json"));
        assert_eq!(res.status, 200, "{slug}: {}", res.text());
        res.json()
    };
    let core = spec("core");
    let retail = spec("retail");
    let outlet = spec("outlet");

    // retail follows core's head (2.0.0): the legacy blue is gone, its own
    // coral replaces core's, and everything else is core's.
    assert_eq!(
        retail["extends"],
        json!({"slug": "core", "version": "2.0.0"})
    );
    assert!(token(&retail, "color.legacy-blue").is_null());
    assert_eq!(token(&retail, "color.coral")["hex"], RETAIL_CORAL);
    assert_eq!(
        token(&retail, "color.teal.700"),
        token(&core, "color.teal.700")
    );
    assert_eq!(token(&retail, "shadow"), token(&core, "shadow"));
    // Its modes: core's theme with retail's context added, core's default.
    let theme = &retail["modes"][0];
    assert_eq!(theme["name"], "theme");
    assert_eq!(theme["default"], "light");
    let contexts: Vec<&str> = theme["contexts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(contexts, ["light", "dark", "dim"]);

    // outlet is pinned to ^1: core 1.1.0, legacy blue and the 1.1 coral.
    assert_eq!(
        outlet["extends"],
        json!({"slug": "core", "range": "^1", "version": "1.1.0"})
    );
    assert!(!token(&outlet, "color.legacy-blue").is_null());
    let core_1_1 = app.get("/brand/core@1.1.0/spec.json").json();
    assert_eq!(
        token(&outlet, "color.coral"),
        token(&core_1_1, "color.coral")
    );
    assert_ne!(token(&outlet, "color.coral"), token(&retail, "color.coral"));

    // tokens.css is self-contained: retail's coral in every context, the
    // dark context core's, retail's dim context its own.
    let css = app.get("/brand/retail/tokens.css").text();
    assert!(
        css.contains(&format!("--color-coral: {RETAIL_CORAL};")),
        "{css}"
    );
    assert_eq!(css.matches("--color-coral:").count(), 1, "{css}");
    assert!(css.contains("[data-theme=\"dim\"] {"), "{css}");
    assert!(css.contains("[data-theme=\"dark\"] {"), "{css}");

    // family.json: the chain above each child, the dependents below core.
    let family = app.get("/brand/core/family.json");
    assert_eq!(family.status, 200);
    assert_eq!(family.header("content-type"), Some("application/json"));
    let family = family.json();
    assert_eq!(family["extends"], Value::Null);
    let base = app.get("/openapi.json").json()["servers"][0]["url"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        family["dependents"],
        json!([
            {"slug": "outlet", "range": "^1", "version": "1.0.0", "url": format!("{base}/brand/outlet")},
            {"slug": "retail", "version": "1.0.0", "url": format!("{base}/brand/retail")}
        ])
    );
    let outlet_family = app.get("/brand/outlet/family.json").json();
    assert_eq!(
        outlet_family["chain"],
        json!([{"slug": "core", "version": "1.1.0", "url": format!("{base}/brand/core@1.1.0")}])
    );
    // The API page shows the chain above and the dependents below.
    let page = app.get("/brand/outlet").text();
    assert!(page.contains("id=\"extends\">Extends <a href=\""), "{page}");
    assert!(page.contains("/brand/core@1.1.0\"><code>core</code> 1.1.0</a> (<code>^1</code>)"));
    let page = app.get("/brand/core").text();
    assert!(
        page.contains("<section id=\"family\"><h2>Family</h2>"),
        "{page}"
    );
    assert!(page.contains("<code>outlet</code> 1.0.0</a>, following releases <code>^1</code>"));
    // It is in the API description and among MCP's resources.
    let openapi = app.get("/openapi.json").json();
    assert!(openapi["paths"]["/brand/{slug}/family.json"]["get"].is_object());

    // A release of retail is built over core as its tag's tree has it.
    let retail_1 = app.get("/brand/retail@1.0.0/spec.json").json();
    assert_eq!(
        retail_1["extends"],
        json!({"slug": "core", "version": "1.0.0"})
    );
    assert!(!token(&retail_1, "color.legacy-blue").is_null());

    // What retail publishes lost a token since retail@1.0.0: its own
    // version (1.0.0) is too small a step, and /status names the token.
    let warned = diagnostics_of(app, "retail");
    assert!(
        warned.iter().any(
            |d| d["code"] == "MQ1207" && d["message"].as_str().unwrap().contains("legacy-blue")
        ),
        "{warned:#?}"
    );
}

#[test]
fn a_change_to_the_parent_rebuilds_its_dependents_and_only_those() {
    let remote = family_remote();
    let g = serve_git_with(&remote.url(), None, |_| {});
    let app = &g.app;
    let etag = |path: &str| app.get(path).header("etag").unwrap().to_string();
    let outlet_before = etag("/brand/outlet/tokens.css");
    let northwind_before = etag("/brand/northwind/tokens.css");
    let retail_css = app.get("/brand/retail/tokens.css").text();

    // A change to core's head, not released: core and retail (which
    // follows the head) are rebuilt; outlet (^1, no new release) and the
    // brands outside the family are not.
    let generation = status(app)["generation"].as_u64().unwrap();
    remote.edit(
        "core/tokens/base.json",
        r#""components": [0.92, 0.97, 0.96]"#,
        r#""components": [0.9, 0.96, 0.95]"#,
    );
    remote.commit("Core: a cooler teal 50", 4);
    push_hook(app);
    app.wait_until(
        |a| status(a)["generation"].as_u64().unwrap() > generation,
        "the push is served",
    );
    let work = &status(app)["lastBuild"];
    assert_eq!(work["checked"], 2, "core and retail only: {work}");
    assert_eq!(etag("/brand/outlet/tokens.css"), outlet_before);
    assert_eq!(etag("/brand/northwind/tokens.css"), northwind_before);
    let css = app.get("/brand/retail/tokens.css").text();
    assert_ne!(css, retail_css, "retail follows the head");
    assert!(css.contains("color(display-p3 0.9 0.96 0.95)"), "{css}");

    // A release in outlet's range reaches it.
    remote.set_version("core", "1.1.0", "1.2.0");
    remote.commit("Core 1.2.0", 5);
    remote.tag_annotated("core@1.2.0", "Core 1.2.0", 5);
    let generation = status(app)["generation"].as_u64().unwrap();
    push_hook(app);
    app.wait_until(
        |a| status(a)["generation"].as_u64().unwrap() > generation,
        "the release is served",
    );
    let outlet = app.get("/brand/outlet/spec.json").json();
    assert_eq!(outlet["extends"]["version"], "1.2.0");
    assert_ne!(etag("/brand/outlet/tokens.css"), outlet_before);

    // A parent change the child overrides is no change for the child:
    // core's coral moved between core 1.0.0 and now, retail's did not.
    let diff = app.get("/brand/retail/compare/1.0.0...current.json").json();
    let text = diff.to_string();
    assert!(!text.contains("color.coral"), "{diff:#}");
    assert!(text.contains("color.teal.50"), "{diff:#}");
    let changelog = app.get("/brand/retail/changelog.md").text();
    assert!(changelog.contains("## [Unreleased]"), "{changelog}");
    assert!(changelog.contains("color.teal.50"), "{changelog}");
}

#[test]
fn a_cycle_a_missing_parent_and_an_unsatisfiable_range_keep_the_last_good_version() {
    let remote = family_remote();
    let g = serve_git_with(&remote.url(), None, |_| {});
    let app = &g.app;
    assert_eq!(app.get("/brand/outlet/spec.json").status, 200);
    let generation = status(app)["generation"].as_u64().unwrap();
    // outlet asks for a major core never had; retail names a brand that is
    // not there; northwind and lumen-health extend each other.
    remote.edit("outlet/brand.json", "\"core@^1\"", "\"core@^7\"");
    remote.edit(
        "retail/brand.json",
        "\"extends\": \"core\"",
        "\"extends\": \"kore\"",
    );
    remote.edit(
        "northwind/brand.json",
        "\"name\":",
        "\"extends\": \"lumen-health\",\n  \"name\":",
    );
    remote.edit(
        "lumen-health/brand.json",
        "\"name\":",
        "\"extends\": \"northwind\",\n  \"name\":",
    );
    remote.commit("Break the family", 4);
    push_hook(app);
    app.wait_until(
        |a| status(a)["generation"].as_u64().unwrap() > generation,
        "the push is served",
    );
    let first_error = |slug: &str| {
        diagnostics_of(app, slug)
            .into_iter()
            .find(|d| d["severity"] == "error")
            .unwrap_or_else(|| panic!("{slug} has an error"))
    };
    let outlet = first_error("outlet");
    assert_eq!(outlet["code"], "MQ1212");
    assert_eq!(outlet["file"], "outlet/brand.json");
    assert_eq!(outlet["pointer"], "/extends");
    assert!(outlet["line"].as_u64().unwrap() > 1, "{outlet}");
    assert!(
        outlet["message"].as_str().unwrap().contains("1.0.0, 1.1.0"),
        "{outlet}"
    );
    assert_eq!(first_error("retail")["code"], "MQ1211");
    let cycle = first_error("northwind");
    assert_eq!(cycle["code"], "MQ1210");
    assert!(cycle["message"].as_str().unwrap().contains("cycle"));
    // Each keeps serving its last good version.
    for slug in ["outlet", "retail", "northwind", "lumen-health"] {
        assert_eq!(
            app.get(&format!("/brand/{slug}/spec.json")).status,
            200,
            "{slug}"
        );
    }
    let outlet = app.get("/brand/outlet/spec.json").json();
    assert_eq!(outlet["extends"]["range"], "^1");
}

#[test]
fn an_error_in_a_parent_file_says_which_parent_and_through_which() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_dir(&example_content(), root);
    copy_dir(&root.join("lumen-health"), &root.join("core"));
    let remote_like = |slug: &str, extends: &str| {
        let text = std::fs::read_to_string(root.join("lumen-health/brand.json")).unwrap();
        let mut b: Value = serde_json::from_str(&text).unwrap();
        b["name"] = json!(slug);
        b["version"] = json!("1.0.0");
        b["extends"] = json!(extends);
        b["logo"] = json!({"variants": []});
        write_json(&root.join(format!("{slug}/brand.json")), &b);
    };
    remote_like("retail", "core");
    remote_like("kiosk", "retail");
    // kiosk overrides a colour with a dimension: core's alias of it (the
    // shadow's colour) breaks, in core's file.
    write_json(
        &root.join("kiosk/tokens.json"),
        &json!({"color": {"scrim": {"$type": "dimension", "$value": {"value": 4, "unit": "px"}}}}),
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", "--format", "json"])
        .arg(root)
        .output()
        .unwrap();
    // One diagnostic a line.
    let all: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let text = format!("{all:#?}");
    let diagnostics: Vec<&Value> = all.iter().filter(|d| d["brand"] == "kiosk").collect();
    let inherited = diagnostics
        .iter()
        .find(|d| d.get("inherited").is_some())
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        inherited["inherited"],
        json!({"brand": "core", "version": "3.0.0-beta.2", "through": ["retail"]})
    );
    assert!(
        inherited["file"].as_str().unwrap().starts_with("core/"),
        "{inherited}"
    );
    assert!(
        diagnostics
            .iter()
            .any(|d| d["code"] == "MQ1214" && d["file"] == "kiosk/brand.json"),
        "{text}"
    );
    // core and retail themselves are fine.
    assert!(!all
        .iter()
        .any(|d| d["severity"] == "error" && (d["brand"] == "core" || d["brand"] == "retail")));
}

#[test]
fn a_preview_that_changes_the_parent_lists_each_dependent_it_changes() {
    let remote = family_remote();
    remote.edit(
        "core/tokens/base.json",
        r#""components": [0.92, 0.97, 0.96]"#,
        r#""components": [0.9, 0.96, 0.95]"#,
    );
    remote.commit_to("family/cooler-teal", "Core: a cooler teal 50", 4);
    let g = serve_git_with(&remote.url(), None, |a| {
        a.git_source().unwrap().previews = Some(PreviewConfig {
            glob: "family/*".into(),
            limit: 5,
        });
    });
    let app = &g.app;
    let list = app.wait_until_some(
        |a| {
            let list = a.get("/previews.json").json();
            let brands = list["previews"][0]["brands"].as_array()?.clone();
            brands
                .iter()
                .all(|b| b["state"] != "building")
                .then_some(brands)
        },
        "the branch is previewed",
    );
    let state = |slug: &str| {
        let b = list.iter().find(|b| b["slug"] == slug).unwrap();
        (b["state"].as_str().unwrap().to_string(), b["level"].clone())
    };
    assert_eq!(
        state("core"),
        ("changed".into(), json!("patch")),
        "{list:#?}"
    );
    // retail follows core's head: the preview changes it too.
    assert_eq!(
        state("retail"),
        ("changed".into(), json!("patch")),
        "{list:#?}"
    );
    // outlet follows core's releases: not changed by an unreleased edit.
    assert_eq!(state("outlet").0, "unchanged", "{list:#?}");
    assert_eq!(state("northwind").0, "unchanged");
    let name = app.get("/previews.json").json()["previews"][0]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let css = app
        .get(&format!("/preview/{name}/brand/retail/tokens.css"))
        .text();
    assert!(css.contains("color(display-p3 0.9 0.96 0.95)"), "{css}");
}

/// Every child's strict exports build with Terrazzo (lint on) and Style
/// Dictionary, and its tokens.css computes in Chromium to the family
/// resolved by hand: retail's own coral in every context, core's light
/// and dark, retail's dim.
#[test]
fn a_childs_exports_build_in_their_tools_and_compute_in_chromium() {
    let remote = family_remote();
    release_core_2(&remote);
    let app = spawn_app(remote.path());
    if let (Some(tz), Some(sd)) = (js_tool("tz"), js_tool("style-dictionary")) {
        let dir = tempfile::tempdir().unwrap();
        for slug in ["retail", "outlet"] {
            let brand = dir.path().join(slug);
            for file in ["tokens.json", "tokens.resolver.json"] {
                let res = app.get(&format!("/brand/{slug}/{file}"));
                assert_eq!(res.status, 200);
                // Style Dictionary reads brand/tokens.json; Terrazzo each
                // file in a folder of its own, with its config.
                std::fs::create_dir_all(&brand).unwrap();
                std::fs::write(brand.join(file), &res.body).unwrap();
                let work = brand.join(format!("tz-{file}"));
                std::fs::create_dir_all(&work).unwrap();
                std::fs::write(work.join(file), &res.body).unwrap();
                std::fs::write(
                    work.join("terrazzo.config.mjs"),
                    format!("export default {{ tokens: [\"./{file}\"], outDir: \"./out/\", plugins: [] }};\n"),
                )
                .unwrap();
                let (ok, text) = crate::corpus::run_in(&work, &tz, &["build"]);
                assert!(ok, "Terrazzo refuses {slug}/{file}:\n{text}");
                assert!(!text.contains(" error"), "{slug}/{file}:\n{text}");
            }
            let tokens: Value =
                serde_json::from_slice(&std::fs::read(brand.join("tokens.json")).unwrap()).unwrap();
            let expected = crate::corpus::count_tokens(&tokens);
            let css = crate::corpus::style_dictionary_css(&sd, &brand.join("sd"), &brand);
            assert_eq!(css.matches("\n  --").count(), expected, "{slug}: {css}");
        }
    }
    let Some((_one, b)) = crate::browser::locked() else {
        return;
    };
    b.with_tokens_css(
        &app.public_url,
        "retail",
        "for (const m of ['light', 'dark', 'dim']) { const d = document.createElement('div'); d.id = m; d.dataset.theme = m; for (const v of ['coral', 'ink', 'paper']) { const p = document.createElement('p'); p.className = v; p.style.color = `var(--color-${v})`; d.append(p); } document.body.append(d); }",
    );
    let color = |mode: &str, token: &str| {
        b.js(&format!(
            "return getComputedStyle(document.querySelector('#{mode} .{token}')).color;"
        ))
    };
    // Resolved by hand from core's base.json and dark.json and retail's files.
    let want = [
        ("light", "coral", "rgb(204, 51, 26)"),
        ("light", "ink", "rgb(26, 32, 40)"),
        ("light", "paper", "rgb(253, 252, 249)"),
        ("dark", "coral", "rgb(204, 51, 26)"),
        ("dark", "ink", "rgb(253, 252, 249)"),
        ("dark", "paper", "rgb(26, 32, 40)"),
        ("dim", "coral", "rgb(204, 51, 26)"),
        ("dim", "ink", "rgb(255, 255, 255)"),
        ("dim", "paper", "rgb(0, 0, 0)"),
    ];
    for (mode, token, rgb) in want {
        assert_eq!(color(mode, token), rgb, "{token} in {mode}");
    }
}

/// Directory mode with hot reload: an edit of the parent's file reaches
/// the child that follows it, without a restart.
#[test]
fn in_a_content_folder_an_edit_of_the_parent_reaches_its_child() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_dir(&example_content(), root);
    let text = std::fs::read_to_string(root.join("lumen-health/brand.json")).unwrap();
    let mut b: Value = serde_json::from_str(&text).unwrap();
    b["name"] = json!("Lumen Kids");
    b["version"] = json!("1.0.0");
    b["extends"] = json!("lumen-health");
    b["logo"] = json!({"variants": []});
    write_json(&root.join("lumen-kids/brand.json"), &b);
    let app = spawn_app(root);
    let js = |a: &TestApp| a.get("/brand/lumen-kids/tokens.js").text();
    assert!(
        js(&app).contains("\"coral\": \"hsl(8 78% 62%)\""),
        "{}",
        js(&app)
    );
    let base = root.join("lumen-health/tokens/base.json");
    let text = std::fs::read_to_string(&base).unwrap();
    std::fs::write(
        &base,
        text.replacen(CORAL_1_0, r#""components": [8, 78, 58]"#, 1),
    )
    .unwrap();
    app.wait_until(
        |a| js(a).contains("\"coral\": \"hsl(8 78% 58%)\""),
        "the child serves the parent's edit",
    );
    let family = app.get("/brand/lumen-health/family.json").json();
    assert_eq!(family["dependents"][0]["slug"], "lumen-kids");
}

/// Under `--semver error`, a child that follows its parent's head and
/// inherits a change its own version does not allow keeps its last good
/// version, and /status names the change and the parent.
#[test]
fn a_child_whose_inherited_changes_need_a_major_is_held_under_semver_error() {
    let remote = family_remote();
    let g = serve_git_with(&remote.url(), None, |a| {
        a.build.semver = marque::build::SemverMode::Error;
    });
    let app = &g.app;
    // retail overrides the coral core 1.1.0 changed: nothing to release.
    let retail = app.get("/brand/retail/spec.json").json();
    assert!(!token(&retail, "color.legacy-blue").is_null());
    let generation = status(app)["generation"].as_u64().unwrap();
    release_core_2(&remote);
    push_hook(app);
    app.wait_until(
        |a| status(a)["generation"].as_u64().unwrap() > generation,
        "the push is served",
    );
    let held = diagnostics_of(app, "retail");
    let refused = held
        .iter()
        .find(|d| d["code"] == "MQ1206")
        .unwrap_or_else(|| panic!("{held:#?}"));
    let message = refused["message"].as_str().unwrap();
    assert!(message.contains("legacy-blue"), "{message}");
    assert!(
        message.contains("it extends `core`, now 2.0.0"),
        "{message}"
    );
    // The last good version, built over core 1.1.0, keeps serving.
    let retail = app.get("/brand/retail/spec.json").json();
    assert!(!token(&retail, "color.legacy-blue").is_null());
    assert_eq!(retail["extends"]["version"], "1.1.0");
    // core itself is a major, as its version says.
    assert_eq!(app.get("/brand/core/spec.json").json()["version"], "2.0.0");
}
