//! The life of a token (DESIGN.md §18): deprecated, then removed. A
//! deprecated token says "deprecated: use …" on every surface an agent or
//! a designer reads, tokens.css keeps it as a shim that follows its
//! replacement (computed in Chromium), the changelog has a Deprecated
//! section, and a removal the latest release did not announce is major,
//! and refused under `--require-deprecation`.

use crate::git::Remote;
use crate::helpers::*;
use serde_json::{json, Value};

const MUTED: &str = r#""muted": { "$value": "{color.fjord.100}" }"#;
const MUTED_DEPRECATED: &str = r#""muted": { "$value": "{color.fjord.100}", "$deprecated": "Use {color.fjord.100}; the muted surface is the lightest fjord." }"#;

/// Northwind released as 2.4.0, then 2.5.0 deprecating `color.surface.muted`.
fn deprecated_remote() -> Remote {
    let remote = Remote::new();
    remote.tag_annotated("northwind@2.4.0", "2.4.0", 9);
    remote.edit("northwind/tokens.json", MUTED, MUTED_DEPRECATED);
    remote.set_version("northwind", "2.4.0", "2.5.0");
    remote.commit("Deprecate the muted surface", 8);
    remote.tag_annotated("northwind@2.5.0", "Deprecate the muted surface", 8);
    remote
}

#[test]
fn a_deprecated_token_says_use_its_replacement_on_every_surface() {
    let remote = deprecated_remote();
    let app = spawn_app(remote.path());
    let text = |file: &str| {
        let res = app.get(&format!("/brand/northwind/{file}"));
        assert_eq!(res.status, 200, "{file}");
        res.text()
    };
    let css = text("tokens.css");
    assert!(
        css.contains("  /* Deprecated: use `color.fjord.100` (Use {color.fjord.100}; the muted surface is the lightest fjord.) */\n  --color-surface-muted: var(--color-fjord-100);"),
        "{css}"
    );
    let md = text("spec.md");
    assert!(md.contains("**Deprecated: use `color.fjord.100` ("), "{md}");
    let design = text("DESIGN.md");
    assert!(
        design.contains(
            "- Don't use the token `color.surface.muted`: deprecated: use `color.fjord.100`"
        ),
        "{design}"
    );
    let llms = text("llms.txt");
    assert!(
        llms.contains("## Deprecated tokens\n\n- [color.surface.muted]("),
        "{llms}"
    );
    let tailwind = text("tailwind.css");
    assert!(
        tailwind.contains("  /* deprecated: use `color.fjord.100`"),
        "{tailwind}"
    );
    let figma: Value = serde_json::from_str(&text("tokens.figma.json")).unwrap();
    let muted = figma["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "color/surface/muted")
        .unwrap_or_else(|| panic!("{figma}"));
    assert!(
        muted["description"]
            .as_str()
            .unwrap()
            .starts_with("Deprecated: use `color.fjord.100`"),
        "{muted}"
    );
    // The changelog has a Deprecated section; deprecating is minor.
    let changelog = text("changelog.md");
    let section = changelog.split("## [2.5.0]").nth(1).unwrap();
    assert!(
        section.contains("### Deprecated")
            && section.contains("- Deprecates token `color.surface.muted` (minor)"),
        "{changelog}"
    );
    let json: Value = serde_json::from_str(&text("changelog.json")).unwrap();
    let release = json["releases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["version"] == "2.5.0")
        .unwrap();
    let change = release["changes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "color.surface.muted")
        .unwrap();
    assert_eq!(
        (change["section"].as_str(), change["level"].as_str()),
        (Some("deprecated"), Some("minor")),
        "{release}"
    );
    // An agent that asks MCP for tokens is told.
    let sid = crate::mcp::session(&app, "10.0.0.9");
    let found = crate::mcp::call_tool(
        &app,
        &sid,
        "find_tokens",
        json!({"slug": "northwind", "prefix": "color.surface"}),
    );
    let tokens = found["result"]["structuredContent"]["tokens"]
        .as_array()
        .unwrap()
        .clone();
    let muted = tokens
        .iter()
        .find(|t| t["name"] == "color.surface.muted")
        .unwrap();
    assert_eq!(muted["replacement"], "color.fjord.100", "{muted}");
    assert!(muted["deprecated"]
        .as_str()
        .unwrap()
        .starts_with("deprecated: use `color.fjord.100`"));
    assert!(tokens
        .iter()
        .find(|t| t["name"] == "color.surface.page")
        .unwrap()
        .get("deprecated")
        .is_none());
}

#[test]
fn the_shim_follows_its_replacement_in_chromium() {
    let remote = deprecated_remote();
    let app = spawn_app(remote.path());
    let Some((_one, b)) = crate::browser::locked() else {
        return;
    };
    b.with_tokens_css(
        &app.public_url,
        "northwind",
        "const a = document.createElement('div'); a.id = 'a'; a.style.color = 'var(--color-surface-muted)'; const b = document.createElement('div'); b.id = 'b'; b.style.color = 'var(--color-fjord-100)'; document.body.append(a, b)",
    );
    let color = |id: &str| {
        b.js(&format!(
            "return getComputedStyle(document.getElementById('{id}')).color;"
        ))
    };
    assert_eq!(
        color("a"),
        color("b"),
        "the deprecated token is its replacement"
    );
    assert_eq!(color("a"), "rgb(225, 236, 246)");
    // A site that sets the new token anew, as a theme does on the root,
    // moves the old one with it.
    b.js("document.documentElement.style.setProperty('--color-fjord-100', 'rgb(255, 0, 0)'); return 1;");
    assert_eq!(
        color("a"),
        "rgb(255, 0, 0)",
        "the shim follows its replacement"
    );
}

/// `marque check --require-deprecation` of `dir`: exit code and stdout.
fn check_requiring(dir: &std::path::Path) -> (i32, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", "--format", "json", "--require-deprecation"])
        .arg(dir)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn a_removal_the_latest_release_did_not_announce_is_refused_under_require_deprecation() {
    let remote = deprecated_remote();
    let mut config = serve_config(remote.path());
    config.build.require_deprecation = true;
    let app = spawn_with(config);
    let version = |a: &TestApp| {
        a.get("/brand/northwind/spec.json").json()["version"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(version(&app), "2.5.0");
    // radius.sm was never deprecated: removing it, even in a major, is refused.
    remote.edit(
        "northwind/tokens.json",
        r#""sm": { "$value": { "value": 4, "unit": "px" } },
    "card""#,
        r#""card""#,
    );
    remote.set_version("northwind", "2.5.0", "3.0.0");
    let status = app.wait_until_some(
        |a| {
            let s = brand_status(a, "northwind")?;
            let d = s["diagnostics"]
                .as_array()?
                .iter()
                .find(|d| d["code"] == "MQ1209")?
                .clone();
            Some(d)
        },
        "the removal is refused",
    );
    let message = status["message"].as_str().unwrap();
    assert!(
        message.contains(
            "`radius.sm` removed without being deprecated in the latest release (northwind@2.5.0)"
        ),
        "{message}"
    );
    assert_eq!(status["file"], "northwind/brand.json");
    assert_eq!(
        version(&app),
        "2.5.0",
        "the last good version keeps serving"
    );
    let (code, out) = check_requiring(remote.path());
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("\"code\":\"MQ1209\""), "{out}");
    // Without the flag it is published, its diff saying to deprecate first.
    let diff = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["diff"])
        .arg(remote.path())
        .args(["northwind", "2.5.0", "current"])
        .output()
        .unwrap();
    let diff = String::from_utf8_lossy(&diff.stdout);
    assert!(diff.contains("Removes token `radius.sm` (`--radius-sm`), which was not deprecated: deprecate it first"), "{diff}");
    // The token deprecated in 2.5.0 may go in 3.0.0.
    remote.edit(
        "northwind/tokens.json",
        r#""card""#,
        r#""sm": { "$value": { "value": 4, "unit": "px" } },
    "card""#,
    );
    let brand = r#""brand": { "$value": "{color.fjord.600}" }"#;
    remote.edit(
        "northwind/tokens.json",
        &format!("{brand},\n      {MUTED_DEPRECATED}"),
        brand,
    );
    app.wait_until(
        |a| version(a) == "3.0.0",
        "the announced removal is published",
    );
    let (code, out) = check_requiring(remote.path());
    assert_eq!(code, 0, "{out}");
    let changelog = app.get("/brand/northwind/changelog.md").text();
    let unreleased = changelog.split("## [Unreleased]").nth(1).unwrap();
    assert!(
        unreleased
            .contains("- Removes token `color.surface.muted` (`--color-surface-muted`) (major)"),
        "{changelog}"
    );
    assert!(
        !unreleased.contains("which was not deprecated"),
        "{changelog}"
    );
}
