//! Who sees what, in the shapes a black-box run against the release binary
//! found (`shared/repro/2026-11-27`, F1, F4, F7, F8, F11, F12): a preview cut
//! before an embargoed release, a branch that drops `visibility`, a public
//! child of a private parent, a brand.json that cannot be read as text or
//! says `visibility` twice, a `\u` in a value, a brand made public after a
//! private release; then the headers of private answers and what `/readyz`
//! and a brand still building answer.

use crate::access::{
    aurora, bearer, edit, lumen_visibility, previews_config, serve_secrets, tokens_file, ALL,
    AURORA_ONLY,
};
use crate::git::Remote;
use crate::helpers::*;
use marque::build::Fault;
use std::path::Path;
use std::time::{Duration, Instant};

/// What the embargoed release adds: its notes, its token and its version.
const EMBARGOED: &[&str] = &["2.0.0", "Adds the launch colour", "00e599", "color.launch"];

/// Aurora Launch's tokens with a `color.launch` token (#00e599).
fn add_launch_colour(root: &Path) {
    edit(
        &root.join("aurora-launch/tokens.json"),
        "\"snow\": {",
        "\"launch\": { \"$value\": { \"colorSpace\": \"srgb\", \"components\": [0, 0.898, 0.6], \"hex\": \"#00e599\" } },\n    \"snow\": {",
    );
}

/// On `remote`: Aurora Launch 1.0.0 released, a branch `branch` cut there
/// (knowing nothing of the embargo to come), then 2.0.0, which adds the
/// launch colour, committed and tagged under an embargo.
fn released_then_embargoed(remote: &Remote, branch: &str) {
    aurora(remote.path(), "1.0.0", None);
    remote.commit("Aurora Launch 1.0.0", 3);
    remote.tag_annotated("aurora-launch@1.0.0", "The first launch", 3);
    remote.edit(
        "northwind/brand.json",
        "\"updated\": \"2026-10-14\"",
        "\"updated\": \"2026-10-15\"",
    );
    remote.commit_to(branch, "Before the launch", 2);
    aurora(remote.path(), "2.0.0", Some("2099-01-01T00:00:00Z"));
    add_launch_colour(remote.path());
    remote.commit("Aurora Launch 2.0.0, under embargo", 1);
    remote.tag_annotated("aurora-launch@2.0.0", "Adds the launch colour", 1);
}

/// The first preview's name in `/previews.json`, once `branch` is built
/// and none of its brands is still building (one that is answers 503).
fn preview_name(app: &TestApp, branch: &str) -> String {
    let token = bearer(ALL);
    app.wait_until(
        |a| {
            let list = a
                .get_with("/previews.json", &[("Authorization", &token)])
                .text();
            list.contains(branch) && !list.contains("\"building\"")
        },
        "the preview is built",
    );
    let list = app.get("/previews.json").json();
    let row = list["previews"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["branch"] == branch)
        .unwrap()
        .clone();
    row["name"].as_str().unwrap().to_string()
}

/// Asserts no answer at `paths` to `headers`, for a browser or not, says
/// what it may not (see [`leak`]).
fn none_say(app: &TestApp, paths: &[String], headers: &[(&str, &str)], needles: &[&str]) {
    for path in paths {
        for accept in ["text/html", "*/*"] {
            let mut h = headers.to_vec();
            h.push(("Accept", accept));
            if let Some(l) = leak(app, path, &h, needles) {
                panic!("{accept}: {l}");
            }
        }
    }
}

#[test]
fn a_preview_cut_before_an_embargoed_release_never_shows_it_to_public_readers() {
    let dir = tempfile::tempdir().unwrap();
    let remote = Remote::new();
    released_then_embargoed(&remote, "feature/spring");
    let app = spawn_with(previews_config(&remote, dir.path()));
    let name = preview_name(&app, "feature/spring");
    let p = |rest: &str| format!("/preview/{name}{rest}");
    let paths = [
        p("/brand/aurora-launch"),
        p("/brand/aurora-launch/changelog.md"),
        p("/brand/aurora-launch/changelog.json"),
        p("/brand/aurora-launch/spec.json"),
        p("/brand/aurora-launch/spec.md"),
        p("/brand/aurora-launch/llms.txt"),
        p("/brand/aurora-launch@2.0.0/spec.json"),
        p("/"),
        p("/status"),
        p("/llms.txt"),
        "/previews.json".to_string(),
        "/brand/aurora-launch".to_string(),
        "/brand/aurora-launch/changelog.md".to_string(),
        "/brand/aurora-launch/changelog.json".to_string(),
        "/brand/aurora-launch/package.tgz".to_string(),
    ];
    none_say(&app, &paths, &[], EMBARGOED);
    // A comparison with it is one with a release that does not exist.
    let compare = app.get(&p("/brand/aurora-launch/compare/1.0.0...2.0.0.json"));
    assert_eq!(compare.status, 404);
    assert_eq!(compare.json()["releases"], serde_json::json!(["1.0.0"]));
    // The preview still serves the brand, and its release before.
    let md = app.get(&p("/brand/aurora-launch/changelog.md"));
    assert_eq!(md.status, 200);
    assert!(md.text().contains("1.0.0"), "{}", md.text());
    // Public readers of the published branch read every public release.
    let md = app.get("/brand/aurora-launch/changelog.md");
    assert_eq!(md.status, 200, "the changelog of the public releases");
    assert!(md.text().contains("The first launch"), "{}", md.text());
    let page = app.get_with("/brand/aurora-launch", &[("Accept", "text/html")]);
    assert_eq!(page.status, 200);
    assert!(
        !page.text().contains("No release yet") && !page.text().contains("released version"),
        "the public page is the current version's, as of its latest public release"
    );
    assert_eq!(
        app.get("/brand/aurora-launch@1.0.0/package.tgz").status,
        200
    );
    assert_eq!(
        app.get("/brand/aurora-launch@2.0.0/package.tgz").status,
        404
    );
    // Its holders read it all on the published branch.
    let token = bearer(AURORA_ONLY);
    let holder = [("Authorization", token.as_str())];
    let res = app.get_with("/brand/aurora-launch@2.0.0/spec.json", &holder);
    assert_eq!(res.status, 200);
    assert!(res.text().contains("00e599"));
    let res = app.get_with("/brand/aurora-launch/spec.json", &holder);
    assert_eq!(res.json()["version"], "2.0.0");
}

#[test]
fn a_branch_cannot_publish_a_brand_the_published_branch_keeps_private() {
    let dir = tempfile::tempdir().unwrap();
    let remote = Remote::new();
    lumen_visibility(&remote, true);
    remote.commit("Lumen Health is private", 2);
    // The branch drops `visibility` (and changes a word, to be a change).
    lumen_visibility(&remote, false);
    remote.commit_to("feature/open-lumen", "Open Lumen", 1);
    let app = spawn_with(previews_config(&remote, dir.path()));
    let name = preview_name(&app, "feature/open-lumen");
    let paths = [
        format!("/preview/{name}/brand/lumen-health"),
        format!("/preview/{name}/brand/lumen-health/spec.json"),
        format!("/preview/{name}/brands.json"),
        format!("/preview/{name}/"),
        format!("/preview/{name}/status"),
        "/previews.json".to_string(),
    ];
    none_say(&app, &paths, &[], &["Lumen Health", "lumen-health"]);
    assert_eq!(
        app.get(&format!("/preview/{name}/brand/lumen-health/spec.json"))
            .status,
        404
    );
    // Its holders see the branch (503 while its build is still going).
    let token = bearer(ALL);
    let res = app.wait_until_some(
        |a| {
            let res = a.get_with(
                &format!("/preview/{name}/brand/lumen-health/spec.json"),
                &[("Authorization", &token)],
            );
            assert!([200, 503].contains(&res.status), "{}", res.status);
            (res.status == 200).then_some(res)
        },
        "its holders see the branch",
    );
    assert_eq!(res.header("cache-control"), Some("private, no-store"));
}

/// A content folder beside its tokens file: the example content, plus what
/// `setup` writes into it.
fn content_with(setup: impl FnOnce(&Path)) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    copy_dir(&example_content(), &content);
    setup(&content);
    tokens_file(dir.path());
    (dir, content)
}

/// A copy of Northwind at `root/slug`, its brand.json as `brand` makes it.
fn brand_copy(root: &Path, slug: &str, brand: impl FnOnce(String) -> String) {
    let to = root.join(slug);
    copy_dir(&example_content().join("northwind"), &to);
    let path = to.join("brand.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, brand(text)).unwrap();
}

#[test]
fn a_public_child_of_a_private_parent_is_refused_without_naming_the_parent() {
    let (_dir, content) = content_with(|root| {
        brand_copy(root, "acme-rebrand-2027", |t| {
            t.replacen(
                "\"name\": \"Northwind Outfitters\",",
                "\"name\": \"Acme Rebrand 2027\",\n  \"visibility\": \"private\",",
                1,
            )
        });
        brand_copy(root, "aaa-shop", |t| {
            t.replacen(
                "\"name\": \"Northwind Outfitters\",",
                "\"name\": \"AAA Shop\",\n  \"extends\": \"acme-rebrand-2027\",",
                1,
            )
        });
    });
    let app = serve_secrets(&content, |_| {});
    let status = app.get("/status").text();
    assert!(status.contains("MQ1216"), "the refusal is public: {status}");
    let paths = [
        "/status".to_string(),
        "/".to_string(),
        "/brands.json".to_string(),
        "/llms.txt".to_string(),
        "/brand/aaa-shop".to_string(),
        "/brand/acme-rebrand-2027".to_string(),
    ];
    none_say(&app, &paths, &[], &["acme-rebrand-2027", "Acme Rebrand"]);
}

#[test]
fn a_brand_json_that_cannot_be_read_or_says_visibility_twice_is_private_until_proven_public() {
    let (_dir, content) = content_with(|root| {
        // UTF-16, as Windows Notepad's "Unicode" writes it.
        brand_copy(root, "launch-utf16", |t| t);
        let path = root.join("launch-utf16/brand.json");
        let text = std::fs::read_to_string(&path).unwrap().replacen(
            "\"name\": \"Northwind Outfitters\",",
            "\"name\": \"Launch UTF16\",\n  \"visibility\": \"private\",",
            1,
        );
        let mut bytes = vec![0xff, 0xfe];
        bytes.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        std::fs::write(&path, bytes).unwrap();
        // Over the size limit.
        brand_copy(root, "launch-big", |t| {
            t.replacen(
                "\"name\": \"Northwind Outfitters\",",
                &format!(
                    "\"name\": \"Launch Big\",\n  \"visibility\": \"private\",\n  \"x-pad\": \"{}\",",
                    "x".repeat(6 << 20)
                ),
                1,
            )
        });
        // A merge gone wrong: private, then public.
        brand_copy(root, "launch-dupkey", |t| {
            t.replacen(
                "\"name\": \"Northwind Outfitters\",",
                "\"name\": \"Launch Dupkey\",\n  \"visibility\": \"private\",\n  \"visibility\": \"public\",",
                1,
            )
        });
    });
    let app = serve_secrets(&content, |_| {});
    let slugs = ["launch-utf16", "launch-big", "launch-dupkey"];
    let mut paths: Vec<String> = ["/", "/status", "/brands.json", "/llms.txt"]
        .iter()
        .map(|p| p.to_string())
        .collect();
    paths.extend(slugs.iter().map(|s| format!("/brand/{s}")));
    none_say(&app, &paths, &[], &slugs);
    for slug in slugs {
        assert_eq!(app.get(&format!("/brand/{slug}/spec.json")).status, 404);
    }
    // Its holders see why: a key given twice is an error at its line.
    let token = bearer(ALL);
    let status = app.get_with("/status", &[("Authorization", &token)]).text();
    assert!(status.contains("MQ1110"), "{status}");
    assert!(status.contains("launch-utf16") && status.contains("launch-big"));
}

#[test]
fn an_escape_in_a_value_hides_nothing_and_an_escape_in_a_key_hides_a_new_brand() {
    let (_dir, content) = content_with(|root| {
        // Python's json.dump escapes every non-ASCII character.
        brand_copy(root, "escaped-new", |t| {
            t.replacen(
                "\"name\": \"Northwind Outfitters\",",
                "\"name\": \"Caf\\u00e9 New\",",
                1,
            )
            .replacen(
                "\"updated\": \"2026-10-14\"",
                "\"updated\": \"2026-02-30\"",
                1,
            )
        });
        brand_copy(root, "escaped-key", |t| {
            t.replacen(
                "\"name\": \"Northwind Outfitters\",",
                "\"name\": \"Hidden Key\",\n  \"vis\\u0069bility\": \"private\",",
                1,
            )
            .replacen(
                "\"updated\": \"2026-10-14\"",
                "\"updated\": \"2026-02-30\"",
                1,
            )
        });
    });
    // No tokens on this server.
    let app = spawn_with(serve_config(&content));
    let page = app.get_with("/brand/escaped-new", &[("Accept", "text/html")]);
    assert_eq!(page.status, 404);
    assert!(
        page.text().contains("does not exist in the calendar"),
        "its author sees its error: {}",
        page.text()
    );
    none_say(
        &app,
        &["/status".into(), "/".into(), "/brand/escaped-key".into()],
        &[],
        &["escaped-key", "Hidden Key"],
    );
}

#[test]
fn a_release_made_while_private_stays_out_of_the_public_changelog_once_the_brand_is_public() {
    let dir = tempfile::tempdir().unwrap();
    let remote = Remote::new();
    aurora(remote.path(), "1.0.0", None);
    remote.edit(
        "aurora-launch/brand.json",
        "\"name\": \"Aurora Launch\",",
        "\"name\": \"Aurora Launch\",\n  \"visibility\": \"private\",",
    );
    remote.commit("Aurora Launch 1.0.0, private", 2);
    remote.tag_annotated(
        "aurora-launch@1.0.0",
        "Internal notes of the private release",
        2,
    );
    aurora(remote.path(), "1.0.1", None);
    remote.edit(
        "aurora-launch/brand.json",
        "\"name\": \"Aurora Launch\",\n  \"visibility\": \"private\",",
        "\"name\": \"Aurora Launch\",",
    );
    remote.commit("Aurora Launch is public", 1);
    let app = spawn_with(previews_config(&remote, dir.path()));
    let md = app.get("/brand/aurora-launch/changelog.md");
    assert_eq!(md.status, 200);
    let text = md.text();
    assert!(
        !text.contains("Internal notes") && !text.contains("@1.0.0"),
        "{text}"
    );
    assert_eq!(app.get("/brand/aurora-launch@1.0.0/spec.json").status, 404);
    let json = app.get("/brand/aurora-launch/changelog.json").text();
    assert!(!json.contains("Internal notes"), "{json}");
}

#[test]
fn every_private_answer_varies_on_the_credentials_and_is_never_stored() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    crate::access::secret_content(&content, "2099-01-01T00:00:00Z");
    let app = serve_secrets(&content, |_| {});
    let token = bearer(ALL);
    for path in [
        "/embed/brand/lumen-health",
        "/brand/lumen-health/spec.json",
        "/brand/lumen-health",
        "/brand/aurora-launch/tokens.css",
    ] {
        let res = app.get_with(path, &[("Authorization", &token)]);
        assert_eq!(res.status, 200, "{path}");
        assert_eq!(
            res.header("cache-control"),
            Some("private, no-store"),
            "{path}"
        );
        let vary = res.header("vary").unwrap_or_default();
        assert!(
            vary.contains("Authorization") && vary.contains("Cookie"),
            "{path}: {vary}"
        );
        assert_eq!(vary.matches("Authorization").count(), 1, "{path}: {vary}");
    }
    let public = app.get("/embed/brand/northwind");
    assert!(public.header("vary").unwrap_or_default().contains("Cookie"));
}

#[test]
fn ready_means_every_brand_is_served_and_a_brand_still_building_answers_503_not_404() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    let mut config = serve_config(dir.path());
    config.build.fault = Some(Fault::Stall(
        vec!["northwind".into()],
        Duration::from_secs(3),
    ));
    let started = Instant::now();
    let app = spawn_with_readiness(config, false);
    app.wait_until(
        |a| a.get("/brand/lumen-health/spec.json").status == 200,
        "the fast brand is served",
    );
    let mut saw_building = false;
    while app.get("/readyz").status != 200 {
        let res = app.get("/brand/northwind/spec.json");
        assert_ne!(res.status, 404, "a brand being built is never a 404");
        if res.status == 503 {
            saw_building = true;
            assert!(res.header("retry-after").is_some());
            assert_eq!(res.header("content-type"), Some("application/problem+json"));
            assert_eq!(app.get("/brand/lumen-health/spec.json").status, 200);
        }
        assert!(started.elapsed() < Duration::from_secs(30), "ready in time");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(saw_building, "the slow brand was seen building");
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "not ready before the slow brand is served"
    );
    assert_eq!(app.get("/brand/northwind/spec.json").status, 200);
}

#[test]
fn a_token_holder_is_told_what_is_private_or_embargoed_and_public_readers_are_not() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    crate::access::secret_content(&content, "2099-01-01T00:00:00Z");
    let app = serve_secrets(&content, |_| {});
    let token = bearer(ALL);
    let holder = [("Authorization", token.as_str()), ("Accept", "text/html")];
    let page = app.get_with("/brand/lumen-health", &holder).text();
    assert!(page.contains("id=\"marque-access\""), "{page}");
    assert!(page.contains("<strong>Private</strong>"));
    let page = app.get_with("/brand/aurora-launch", &holder).text();
    assert!(
        page.contains("<strong>Embargoed</strong> until <time datetime=\"2099-01-01T00:00:00Z\">2099-01-01 00:00 UTC</time>"),
        "{page}"
    );
    let card = app
        .get_with("/embed/brand/lumen-health", &[("Authorization", &token)])
        .text();
    assert!(card.contains("\"access\":\"Private\""), "{card}");
    let card = app
        .get_with("/embed/brand/aurora-launch", &[("Authorization", &token)])
        .text();
    assert!(
        card.contains("\"access\":\"Embargoed until 2099-01-01 00:00 UTC\""),
        "{card}"
    );
    // What public readers get says nothing of access.
    let page = app
        .get_with("/brand/northwind", &[("Accept", "text/html")])
        .text();
    assert!(!page.contains("marque-access"));
    assert!(!app
        .get("/embed/brand/northwind")
        .text()
        .contains("\"access\":"));
}

#[test]
fn a_parent_held_back_by_an_error_passes_nothing_of_that_save_to_its_children() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_dir(&example_content(), root);
    brand_copy(root, "kid", |t| {
        t.replacen(
            "\"name\": \"Northwind Outfitters\",",
            "\"name\": \"Kid\",\n  \"extends\": \"northwind\",",
            1,
        )
    });
    std::fs::remove_file(root.join("kid/tokens.json")).unwrap();
    std::fs::write(root.join("kid/tokens.json"), "{}").unwrap();
    let app = spawn_app(root);
    let kid = app.get("/brand/kid/spec.json");
    assert_eq!(kid.status, 200, "{}", kid.text());
    // One save: the parent's version breaks, and a colour changes.
    edit(
        &root.join("northwind/brand.json"),
        "\"version\": \"2.4.0\"",
        "\"version\": \"x\"",
    );
    edit(
        &root.join("northwind/tokens.json"),
        "[0.7, 0.17, 50]",
        "[0.7, 0.17, 55]",
    );
    app.wait_until(
        |a| brand_status(a, "northwind").is_some_and(|s| s["state"] == "stale"),
        "the parent is held back",
    );
    std::thread::sleep(Duration::from_millis(500));
    for path in ["/brand/kid/tokens.css", "/brand/northwind/tokens.css"] {
        let css = app.get(path).text();
        assert!(css.contains("0.17 50"), "{path} keeps the last good colour");
        assert!(
            !css.contains("0.17 55"),
            "{path} publishes nothing of the save"
        );
    }
    let kid = app.get("/brand/kid/spec.json").json();
    assert_ne!(kid["extends"]["version"], "x", "{}", kid["extends"]);
    // The parent fixed: both follow.
    edit(
        &root.join("northwind/brand.json"),
        "\"version\": \"x\"",
        "\"version\": \"2.4.1\"",
    );
    app.wait_until(
        |a| a.get("/brand/kid/tokens.css").text().contains("0.17 55"),
        "the child follows the fixed parent",
    );
}

/// What each audience of the crawl may not read, by the token it sends.
struct Audience {
    name: &'static str,
    token: Option<&'static str>,
    /// Needles of what it must never get.
    forbidden: &'static [&'static str],
}

/// The private brand (Lumen Health) and the embargoed release (Aurora
/// Launch 2.0.0: its notes and its colour).
const LUMEN: &[&str] = &["Lumen Health", "lumen-health"];
const LAUNCH: &[&str] = &["Adds the launch colour", "00e599", "aurora-launch@2.0.0"];
const BOTH: &[&str] = &[
    "Lumen Health",
    "lumen-health",
    "Adds the launch colour",
    "00e599",
    "aurora-launch@2.0.0",
];

/// Every GET path of the route table (`/openapi.json`) with its
/// parameters filled in for every brand, version and file the content
/// has, and each again inside every preview.
fn route_table_paths(app: &TestApp, previews: &[String]) -> Vec<String> {
    let doc = app.get("/openapi.json").json();
    let mut templates: Vec<String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, ops)| ops.get("get").is_some())
        .map(|(p, _)| p.clone())
        // A stream that never ends.
        .filter(|p| p != "/events")
        .collect();
    templates.push("/previews.json".into());
    let mut paths = Vec::new();
    for t in &templates {
        let mut filled = vec![t.clone()];
        for (param, values) in [
            (
                "{slug}",
                &["northwind", "lumen-health", "aurora-launch"][..],
            ),
            ("{version}", &["1.0.0", "2.0.0"][..]),
            ("{file}", &["logo.svg"][..]),
            (
                "{range}",
                &["1.0.0...2.0.0", "1.0.0...current", "2.0.0.json"][..],
            ),
        ] {
            filled = filled
                .into_iter()
                .flat_map(|p| match p.contains(param) {
                    true => values.iter().map(|v| p.replace(param, v)).collect(),
                    false => vec![p],
                })
                .collect();
        }
        paths.extend(filled);
    }
    let inside: Vec<String> = paths
        .iter()
        .filter(|p| {
            p.starts_with("/brand")
                || p.starts_with("/embed")
                || ["/", "/brands.json", "/llms.txt", "/status"].contains(&p.as_str())
        })
        .flat_map(|p| previews.iter().map(move |n| format!("/preview/{n}{p}")))
        .collect();
    paths.extend(inside);
    paths.sort();
    paths.dedup();
    paths
}

/// What `path` says to `headers` that it may not, if anything: a needle
/// in its body, or (for a 404) anything beyond the 404 of a path that
/// names nothing.
fn leak(app: &TestApp, path: &str, headers: &[(&str, &str)], needles: &[&str]) -> Option<String> {
    let res = app.get_with(path, headers);
    let body = match res.header("content-encoding") {
        Some("gzip") => gunzip(&res.body),
        _ => res.body.clone(),
    };
    let text = String::from_utf8_lossy(&body).into_owned();
    if res.header("cache-control") == Some("private, no-store") {
        let vary = res.header("vary").unwrap_or_default();
        if !(vary.contains("Authorization") && vary.contains("Cookie")) {
            return Some(format!("{path}: a private answer varies on {vary:?}"));
        }
    }
    let named: Vec<&&str> = needles.iter().filter(|n| path.contains(**n)).collect();
    if res.status == 404 && !named.is_empty() {
        let mut nothing = path.to_string();
        for n in &named {
            nothing = nothing.replace(**n, &"z".repeat(n.len()));
        }
        let other = app.get_with(&nothing, headers);
        let mut echoed = String::from_utf8_lossy(&other.body).into_owned();
        let mut asked = text.clone();
        for n in &named {
            echoed = echoed.replace(&"z".repeat(n.len()), "");
            asked = asked.replace(**n, "");
        }
        return (other.status != 404 || asked != echoed)
            .then(|| format!("{path}: 404 says more than one of nothing: {text}"));
    }
    if !named.is_empty() && res.status < 400 {
        return Some(format!("{path}: {} for a withheld name", res.status));
    }
    needles
        .iter()
        .find(|n| text.contains(**n))
        .map(|n| format!("{path} ({}): says {n:?}", res.status))
}

#[test]
fn a_crawl_of_the_route_table_finds_nothing_an_audience_may_not_see_in_any_state() {
    let dir = tempfile::tempdir().unwrap();
    let remote = Remote::new();
    lumen_visibility(&remote, true);
    released_then_embargoed(&remote, "feature/old");
    // A branch after it that drops Lumen Health's `visibility`.
    lumen_visibility(&remote, false);
    remote.commit_to("feature/open", "Open Lumen", 1);
    let app = spawn_with(previews_config(&remote, dir.path()));
    let old = preview_name(&app, "feature/old");
    let open = preview_name(&app, "feature/open");
    let paths = route_table_paths(&app, &[old, open]);
    println!("crawl: {} paths per audience", paths.len());
    assert!(paths.len() > 300, "{}", paths.len());
    let audiences = [
        Audience {
            name: "no token",
            token: None,
            forbidden: BOTH,
        },
        Audience {
            name: "Lumen's scope",
            token: Some(crate::access::LUMEN_ONLY),
            forbidden: LAUNCH,
        },
        Audience {
            name: "Aurora's scope",
            token: Some(AURORA_ONLY),
            forbidden: LUMEN,
        },
    ];
    let mut found = Vec::new();
    let started = Instant::now();
    for a in &audiences {
        let bearer = a.token.map(bearer);
        let mut headers: Vec<(&str, &str)> = vec![("Accept-Encoding", "gzip")];
        if let Some(b) = &bearer {
            headers.push(("Authorization", b));
        }
        for path in &paths {
            for accept in ["text/html", "*/*"] {
                let mut h = headers.clone();
                h.push(("Accept", accept));
                if let Some(l) = leak(&app, path, &h, a.forbidden) {
                    found.push(format!("{}: {l}", a.name));
                }
            }
        }
    }
    // A token that is valid nowhere is read as none, until the client's
    // ten failures a minute (then 429, for every token): last, and the
    // paths that name what is withheld.
    let wrong = bearer("mq_valid_nowhere_0000000000000000");
    let named: Vec<&String> = paths
        .iter()
        .filter(|p| {
            !p.starts_with("/preview") && (p.contains("lumen-health/") || p.contains("@2.0.0/"))
        })
        // Each may cost two attempts (its 404 is compared): under ten.
        .take(4)
        .collect();
    for path in named {
        let h = [("Authorization", wrong.as_str()), ("Accept", "*/*")];
        if let Some(l) = leak(&app, path, &h, BOTH) {
            found.push(format!("a wrong token: {l}"));
        }
    }
    println!("crawl: {:.1} s", started.elapsed().as_secs_f64());
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The holder of every scope reads it all: the crawl can see a leak.
    let all = bearer(ALL);
    let seen_by_all = |needle: &str| {
        paths.iter().any(|p| {
            let res = app.get_with(p, &[("Authorization", &all), ("Accept", "text/html")]);
            String::from_utf8_lossy(&res.body).contains(needle)
        })
    };
    // (The embargoed tag's notes are in no render until it lifts: the
    // holder's changelog lists 2.0.0 as brand.json's version, unreleased.)
    for n in BOTH.iter().filter(|n| **n != "Adds the launch colour") {
        assert!(seen_by_all(n), "the holder of every scope reads {n:?}");
    }
}

#[test]
fn once_the_published_branch_makes_a_brand_private_no_preview_shows_it_even_for_a_moment() {
    let dir = tempfile::tempdir().unwrap();
    let remote = Remote::new();
    // A branch that changes Lumen Health, which is public everywhere.
    remote.edit(
        "lumen-health/brand.json",
        "\"updated\": \"2026-11-02\"",
        "\"updated\": \"2026-11-03\"",
    );
    remote.commit_to("feature/lumen", "Lumen touch-up", 1);
    let mut config = previews_config(&remote, dir.path());
    config.git_source().unwrap().webhook = Some(marque::config::Webhook {
        secret: crate::git::SECRET.into(),
        rates: Default::default(),
    });
    let app = spawn_with(config);
    let name = preview_name(&app, "feature/lumen");
    let page = format!("/preview/{name}/brand/lumen-health/spec.json");
    assert_eq!(app.get(&page).status, 200);
    // The published branch makes it private.
    lumen_visibility(&remote, true);
    remote.commit("Lumen Health is private", 0);
    crate::git::push_hook(&app);
    app.wait_until(
        |a| a.get("/brand/lumen-health/spec.json").status == 404,
        "the published branch withholds it",
    );
    // From that moment on, no preview answer shows it, while the previews
    // are split again and after.
    let until = Instant::now() + Duration::from_secs(2);
    while Instant::now() < until {
        assert_eq!(app.get(&page).status, 404, "{page}");
        let list = app.get("/previews.json").text();
        assert!(!list.contains("lumen-health"), "{list}");
    }
    // Split again, the preview is served, without it.
    app.wait_until(
        |a| a.get("/previews.json").text().contains("feature/lumen"),
        "the preview is back",
    );
    assert_eq!(app.get(&page).status, 404);
}
