//! Versions that mean what they say: a version step smaller than what
//! changed since the latest release is refused by `marque check`, warned
//! of (or, with `--semver error`, kept from serving) by the server, and
//! every release's changelog lists its semantic changes. Over real
//! repositories with real tags.

use crate::git::Remote;
use crate::helpers::*;
use marque::build::SemverMode;
use std::process::Command;

fn marque(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// Removes `color.surface.muted` (no other token or brand.json uses it).
fn remove_muted_surface(remote: &Remote) {
    let path = remote.path().join("northwind/tokens.json");
    let mut tokens: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let surface = tokens["color"]["surface"].as_object_mut().unwrap();
    assert!(surface.remove("muted").is_some());
    std::fs::write(&path, serde_json::to_string_pretty(&tokens).unwrap()).unwrap();
}

/// Northwind released as 2.4.0, then a token removed.
fn released_then_token_removed() -> Remote {
    let remote = Remote::new();
    remote.tag_annotated("northwind@2.4.0", "First public palette", 1);
    remove_muted_surface(&remote);
    remote
}

#[test]
fn a_patch_bump_that_removes_a_token_fails_check_naming_the_change_and_the_version() {
    let remote = released_then_token_removed();
    let dir = remote.path().to_str().unwrap();
    remote.set_version("northwind", "2.4.0", "2.4.1");
    let (code, out) = marque(&["check", dir]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error[MQ1206]: 2.4.0 → 2.4.1 removes token `color.surface.muted` (`--color-surface-muted`), which was not deprecated: deprecate it first (naming its replacement) in a release, then remove it: a major change, needs 3.0.0 or later (latest release: northwind@2.4.0"),
        "{out}"
    );
    // At brand.json's version, line 4.
    assert!(out.contains("--> northwind/brand.json:4:"), "{out}");
    // Serving's default only warns; `off` does not compare.
    let (code, out) = marque(&["check", dir, "--semver", "warn"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("warning[MQ1207]: 2.4.0 → 2.4.1 removes token"),
        "{out}"
    );
    let (code, out) = marque(&["check", dir, "--semver", "off"]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("latest release"), "{out}");
    // Unchanged version, same verdict.
    remote.set_version("northwind", "2.4.1", "2.4.0");
    let (code, out) = marque(&["check", dir]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("2.4.0 → 2.4.0 (the same version) removes token"),
        "{out}"
    );
    // A minor bump is still too small; the major bump passes.
    remote.set_version("northwind", "2.4.0", "2.5.0");
    assert_eq!(marque(&["check", dir]).0, 1);
    remote.set_version("northwind", "2.5.0", "3.0.0");
    let (code, out) = marque(&["check", dir]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("latest release"), "{out}");
    // So does a pre-release of the next major.
    remote.set_version("northwind", "3.0.0", "3.0.0-rc.1");
    assert_eq!(marque(&["check", dir]).0, 0);
}

#[test]
fn additions_need_a_minor_step_and_a_brand_without_a_release_is_not_compared() {
    let remote = Remote::new();
    remote.tag_annotated("northwind@2.4.0", "First", 1);
    let dir = remote.path().to_str().unwrap();
    remote.edit(
        "northwind/tokens.json",
        "\"muted\":",
        "\"quiet\": { \"$value\": { \"colorSpace\": \"srgb\", \"components\": [0.5, 0.5, 0.5], \"hex\": \"#808080\" } },\n      \"muted\":",
    );
    remote.set_version("northwind", "2.4.0", "2.4.1");
    let (code, out) = marque(&["check", dir]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("2.4.0 → 2.4.1 adds token `color.surface.quiet` (`#808080`): a minor change, needs 2.5.0 or later"),
        "{out}"
    );
    remote.set_version("northwind", "2.4.1", "2.5.0");
    assert_eq!(marque(&["check", dir]).0, 0);
    // lumen-health has no release: edited freely.
    remote.edit("lumen-health/brand.json", "warm, exact", "warm and exact");
    assert_eq!(marque(&["check", dir]).0, 0);
}

#[test]
fn diff_prints_the_changes_between_two_versions_as_markdown_and_json() {
    let remote = released_then_token_removed();
    remote.set_version("northwind", "2.4.0", "3.0.0");
    remote.edit("northwind/brand.json", "Outdoor gear", "Weatherproof gear");
    remote.commit("Drop the muted surface", 5);
    remote.tag_annotated("northwind@3.0.0", "Drop the muted surface", 5);
    let dir = remote.path().to_str().unwrap();
    let (code, md) = marque(&["diff", dir, "northwind", "2.4.0", "3.0.0"]);
    assert_eq!(code, 0, "{md}");
    assert_eq!(
        md,
        "# Northwind Outfitters: 2.4.0 → 3.0.0\n\n\
         A major change: 1 major, 0 minor, 1 patch.\n\n\
         ## Changed\n\n- Changes the summary (patch)\n\n\
         ## Removed\n\n- Removes token `color.surface.muted` (`--color-surface-muted`), which was not deprecated: deprecate it first (naming its replacement) in a release, then remove it (major)\n"
    );
    let (code, json) = marque(&[
        "diff",
        dir,
        "northwind",
        "2.4.0",
        "current",
        "--format",
        "json",
    ]);
    assert_eq!(code, 0, "{json}");
    let json: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(json["level"], "major");
    assert_eq!(json["to"]["ref"], "current");
    assert_eq!(json["to"]["version"], "3.0.0");
    assert_eq!(json["changes"][0]["name"], "color.surface.muted");
    assert_eq!(json["changes"][0]["section"], "removed");
    // Nothing between a release and itself.
    let (_, md) = marque(&["diff", dir, "northwind", "3.0.0", "current"]);
    assert!(md.contains("No semantic change."), "{md}");
    let (code, out) = marque(&["diff", dir, "northwind", "1.0.0", "current"]);
    assert_eq!(code, 2);
    assert!(
        out.contains("no release northwind@1.0.0 (releases: 2.4.0, 3.0.0)"),
        "{out}"
    );
}

#[test]
fn the_changelog_lists_each_releases_semantic_changes_and_the_unreleased_ones() {
    let remote = released_then_token_removed();
    remote.set_version("northwind", "2.4.0", "3.0.0");
    remote.commit("Drop the muted surface", 5);
    remote.tag_annotated("northwind@3.0.0", "Drop the muted surface", 5);
    remote.edit(
        "northwind/tokens.json",
        "\"surface\": {",
        "\"surface\": {\n      \"quiet\": { \"$value\": { \"colorSpace\": \"srgb\", \"components\": [0.5, 0.5, 0.5], \"hex\": \"#808080\" } },",
    );
    remote.set_version("northwind", "3.0.0", "3.1.0");
    let app = spawn_app(remote.path());
    let md = app.get("/brand/northwind/changelog.md").text();
    assert!(
        md.contains(
            "## [Unreleased]\n\nbrand.json is at 3.1.0, ahead of the latest release 3.0.0.\n\n\
             ### Added\n\n- Adds token `color.surface.quiet` (`#808080`) (minor)\n"
        ),
        "{md}"
    );
    assert!(
        md.contains(
            "## [3.0.0] - 2026-10-06\n\n- Drop the muted surface\n\n\
             ### Removed\n\n- Removes token `color.surface.muted` (`--color-surface-muted`), which was not deprecated: deprecate it first (naming its replacement) in a release, then remove it (major)\n"
        ),
        "{md}"
    );
    let json = app.get("/brand/northwind/changelog.json").json();
    assert_eq!(json["unreleased"]["changes"][0]["section"], "added");
    assert_eq!(json["releases"][0]["changes"][0]["level"], "major");
    // The first release has nothing to compare with.
    assert_eq!(json["releases"][1]["changes"], serde_json::json!([]));
}

#[test]
fn a_server_warns_by_default_and_with_semver_error_keeps_the_last_good_version() {
    let remote = Remote::new();
    remote.tag_annotated("northwind@2.4.0", "First", 1);
    let mut args = serve_config(remote.path());
    args.build.semver = SemverMode::Error;
    let strict = spawn_with(args);
    let warned = spawn_app(remote.path());
    remove_muted_surface(&remote);
    remote.set_version("northwind", "2.4.0", "2.4.1");
    let version = |app: &TestApp| app.get("/brand/northwind/spec.json").json()["version"].clone();
    warned.wait_until(
        |a| version(a) == "2.4.1",
        "the patch is served with a warning",
    );
    let status = warned.get("/status").json();
    assert!(
        status.to_string().contains("2.4.0 → 2.4.1 removes token"),
        "{status}"
    );
    strict.wait_until(
        |a| {
            a.get("/status")
                .json()
                .to_string()
                .contains("needs 3.0.0 or later")
        },
        "the strict server reports the step",
    );
    assert_eq!(
        version(&strict),
        "2.4.0",
        "the last good version keeps serving"
    );
    remote.set_version("northwind", "2.4.1", "3.0.0");
    strict.wait_until(|a| version(a) == "3.0.0", "the major step is served");
}

#[test]
fn compare_answers_the_diff_of_two_releases_or_a_release_and_current() {
    let remote = released_then_token_removed();
    remote.set_version("northwind", "2.4.0", "3.0.0");
    remote.commit("Drop the muted surface", 5);
    remote.tag_annotated("northwind@3.0.0", "Drop the muted surface", 5);
    remote.edit("northwind/brand.json", "Outdoor gear", "Weatherproof gear");
    let app = spawn_app(remote.path());

    // Two releases: JSON by default, immutable, and the same bytes twice.
    let res = app.get("/brand/northwind/compare/2.4.0...3.0.0");
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.header("content-type"), Some("application/json"));
    assert_eq!(
        res.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    assert_eq!(
        res.header("vary"),
        Some("Accept, Accept-Encoding, Authorization, Cookie")
    );
    let json = res.json();
    assert_eq!(json["brand"], "northwind");
    assert_eq!(json["level"], "major");
    assert_eq!(json["from"]["version"], "2.4.0");
    assert_eq!(json["changes"][0]["name"], "color.surface.muted");
    assert_eq!(json["changes"].as_array().unwrap().len(), 1, "{json}");
    let etag = res.header("etag").unwrap().to_string();
    let again = app.get_with(
        "/brand/northwind/compare/2.4.0...3.0.0",
        &[("if-none-match", &etag)],
    );
    assert_eq!(again.status, 304);

    // Markdown by suffix or by Accept, the same as `marque diff` prints.
    let dir = remote.path().to_str().unwrap();
    let (_, printed) = marque(&["diff", dir, "northwind", "2.4.0", "3.0.0"]);
    let md = app.get("/brand/northwind/compare/2.4.0...3.0.0.md");
    assert_eq!(
        md.header("content-type"),
        Some("text/markdown; charset=utf-8")
    );
    assert_eq!(md.text(), printed);
    let negotiated = app.get_with(
        "/brand/northwind/compare/2.4.0...3.0.0",
        &[("accept", "text/markdown")],
    );
    assert_eq!(negotiated.text(), printed);

    // A release against current: what the working head changes, cached
    // like a current surface.
    let res = app.get("/brand/northwind/compare/3.0.0...current.json");
    assert_eq!(res.status, 200);
    assert_eq!(res.header("cache-control"), Some("public, max-age=60"));
    let json = res.json();
    assert_eq!(json["to"]["ref"], "current");
    assert_eq!(json["level"], "patch");
    assert_eq!(json["changes"][0]["section"], "changed");
    // Backwards: the token comes back, an addition.
    let back = app.get("/brand/northwind/compare/3.0.0...2.4.0").json();
    assert_eq!(back["level"], "minor");
    assert_eq!(back["changes"][0]["section"], "added");

    // What does not exist is a problem that says what does.
    let missing = app.get("/brand/northwind/compare/1.0.0...current");
    assert_eq!(missing.status, 404);
    assert_eq!(
        missing.header("content-type"),
        Some("application/problem+json")
    );
    let problem = missing.json();
    assert_eq!(problem["releases"], serde_json::json!(["2.4.0", "3.0.0"]));
    for path in [
        "/brand/northwind/compare/latest...current",
        "/brand/northwind/compare/2.4.0..3.0.0",
        "/brand/nobody/compare/2.4.0...current",
    ] {
        let res = app.get(path);
        assert_eq!(res.status, 404, "{path}");
        assert!(res.json()["detail"].is_string(), "{path}");
    }
    // An asset folder named `compare` is still an asset path.
    // (A file there is served: were the path routed to compare, it would 404.)
    let dir = remote.path().join("northwind/assets/compare");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("x.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
    )
    .unwrap();
    let asset = |a: &TestApp| a.get("/brand/northwind/assets/compare/x.svg");
    app.wait_until(|a| asset(a).status == 200, "the asset is served");
    assert_eq!(asset(&app).header("content-type"), Some("image/svg+xml"));
}

/// `marque diff` over real tags of a brand with a dark context: a value
/// changed only in dark is a patch named by its context; the dark context
/// removed is major.
#[test]
fn diff_names_the_context_a_change_is_in() {
    let remote = Remote::new();
    // Lumen Health moved from `from` to `to`, committed and tagged.
    let release = |from: &str, to: &str, message: &str, day: i64| {
        remote.set_version("lumen-health", from, to);
        remote.commit(message, day);
        remote.tag_annotated(&format!("lumen-health@{to}"), message, day);
    };
    release("3.0.0-beta.2", "3.0.0", "Release", 1);
    remote.edit(
        "lumen-health/tokens/dark.json",
        "\"components\": [8, 65, 40]",
        "\"components\": [8, 65, 38]",
    );
    release("3.0.0", "3.0.1", "A deeper coral at night", 2);
    remote.edit(
        "lumen-health/tokens.resolver.json",
        ",\n        \"dark\": [{ \"$ref\": \"tokens/dark.json\" }]",
        "",
    );
    release("3.0.1", "4.0.0", "No dark theme", 3);
    let dir = remote.path().to_str().unwrap();
    let (code, md) = marque(&["diff", dir, "lumen-health", "3.0.0", "3.0.1"]);
    assert_eq!(code, 0, "{md}");
    assert!(
        md.contains("- Changes token `color.coral` in `theme=dark` from `hsl(8 65% 40%)` to `hsl(8 65% 38%)` (patch)"),
        "the context is outside the token's code span: {md}"
    );
    // The compare page says the same.
    let app = spawn_with(serve_config(remote.path()));
    let page = app
        .get_with(
            "/brand/lumen-health/compare/3.0.0...3.0.1",
            &[("accept", "text/html")],
        )
        .text();
    assert!(
        page.contains("Changes token <code>color.coral</code> in <code>theme=dark</code> from"),
        "{page}"
    );
    assert!(md.contains("A patch change"), "{md}");
    let (code, md) = marque(&["diff", dir, "lumen-health", "3.0.1", "4.0.0"]);
    assert_eq!(code, 0, "{md}");
    assert!(
        md.contains("- Removes context `theme=dark` (major)"),
        "{md}"
    );
    assert!(md.contains("A major change"), "{md}");
    // And check holds each release to it: all three steps are right.
    let (code, out) = marque(&["check", dir]);
    assert_eq!(code, 0, "{out}");
}
