//! Branch previews: a pushed branch is served under /preview/<name>/ with
//! what it changes against the published branch, updated by a webhook and
//! gone once the branch is deleted. Over a real repository.

use crate::git::{push_hook, serve_git_with, Remote};
use crate::helpers::*;

const NAME: &str = "feature-spring-palette";

/// Removes `color.surface.muted` from Northwind in the work tree.
fn drop_muted(remote: &Remote) {
    let path = remote.path().join("northwind/tokens.json");
    let mut tokens: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    tokens["color"]["surface"]
        .as_object_mut()
        .unwrap()
        .remove("muted")
        .unwrap();
    std::fs::write(&path, serde_json::to_string_pretty(&tokens).unwrap()).unwrap();
}

/// A branch that removes `color.surface.muted` from Northwind.
fn remote_with_branch() -> Remote {
    let remote = Remote::new();
    drop_muted(&remote);
    remote.commit_to("Feature/Spring_Palette", "Drop the muted surface", 2);
    remote
}

fn previews(app: &TestApp) -> serde_json::Value {
    app.get("/previews.json").json()
}

/// /previews.json once it lists a preview and every brand of it is built
/// (a brand slower than a build's patience is listed as `building` first,
/// as the corpus's largest are in a debug build on a busy machine).
fn previewed(app: &TestApp) -> serde_json::Value {
    app.wait_until(
        |a| {
            previews(a)["previews"].as_array().is_some_and(|p| {
                !p.is_empty()
                    && p.iter().all(|p| {
                        p["brands"]
                            .as_array()
                            .is_some_and(|b| b.iter().all(|b| b["state"] != "building"))
                    })
            })
        },
        "a branch is previewed",
    );
    previews(app)
}

/// What a preview says of one brand.
fn brand_of<'a>(preview: &'a serde_json::Value, slug: &str) -> &'a serde_json::Value {
    preview["brands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["slug"] == slug)
        .unwrap()
}

#[test]
fn a_branch_is_previewed_with_its_changes_updated_by_webhook_and_gone_when_deleted() {
    let remote = remote_with_branch();
    let g = serve_git_with(&remote.url(), None, |a| {
        a.git_source().unwrap().previews = Some(PreviewConfig {
            glob: "Feature/*".into(),
            limit: 20,
        });
    });
    let app = &g.app;
    let list = previewed(app);
    assert_eq!(list["enabled"], true);
    assert_eq!(list["publishedBranch"], "main");
    let p = &list["previews"][0];
    assert_eq!(p["name"], NAME);
    assert_eq!(p["branch"], "Feature/Spring_Palette");
    let url = p["url"].as_str().unwrap();
    assert!(
        url.starts_with("http") && url.ends_with(&format!("/preview/{NAME}/")),
        "{url}"
    );
    let base = url.strip_suffix('/').unwrap();
    let northwind = brand_of(p, "northwind");
    assert_eq!(northwind["state"], "changed");
    assert_eq!(northwind["level"], "major");
    let lumen = brand_of(p, "lumen-health");
    assert_eq!(lumen["state"], "unchanged");

    // Every surface, never cached, never indexed, linking inside the preview.
    let spec = app.get(&format!("/preview/{NAME}/brand/northwind/spec.json"));
    assert_eq!(spec.status, 200);
    assert_eq!(spec.header("cache-control"), Some("no-store"));
    assert_eq!(spec.header("x-robots-tag"), Some("noindex"));
    let spec = spec.json();
    assert!(spec["tokens"]["color"]["surface"].get("muted").is_none());
    assert_eq!(
        spec["links"]["tokensCss"],
        format!("{base}/brand/northwind/tokens.css")
    );
    let css = app
        .get(&format!("/preview/{NAME}/brand/northwind/tokens.css"))
        .text();
    assert!(!css.contains("--color-surface-muted"), "{css}");
    // The page says what it is and what it changes.
    let page = app.get(&format!("/preview/{NAME}/brand/northwind"));
    assert_eq!(page.status, 200);
    let page = page.text();
    assert!(
        page.contains("<strong>Preview</strong> of branch <code>Feature/Spring_Palette</code>"),
        "{page}"
    );
    assert!(
        page.contains("A major change: 1 major, 0 minor, 0 patch."),
        "{page}"
    );
    assert!(
        page.contains("<li>Removes token <code>color.surface.muted</code> (<code>--color-surface-muted</code>), which was not deprecated: deprecate it first (naming its replacement) in a release, then remove it (major)</li>"),
        "{page}"
    );
    // Its stylesheet and script are the preview's own, beside its pages.
    let shared: Vec<&str> = page
        .split(['"'])
        .filter(|u| u.contains("/assets/") && !u.contains("/brand/"))
        .collect();
    assert_eq!(shared.len(), 2, "{shared:?}");
    for url in shared {
        let path = url.strip_prefix(&app.public_url).unwrap();
        assert!(
            path.starts_with(&format!("/preview/{NAME}/assets/")),
            "{url}"
        );
        let asset = app.get(path);
        assert_eq!(asset.status, 200, "{url}");
        assert_eq!(asset.header("cache-control"), Some("no-store"), "{url}");
    }
    let index = app.get(&format!("/preview/{NAME}/")).text();
    assert!(
        index.contains("<b>northwind</b>: A major change"),
        "{index}"
    );
    // Every document of a preview, not only its brands' surfaces, is
    // rendered never cached and never indexed, each header said once; its
    // pages are compressed with their banner in.
    for path in [
        "/",
        "/brand/northwind",
        "/brand/northwind/spec.md",
        "/brand/northwind/tokens.figma.json",
        "/embed/brand/northwind",
        "/brand/northwind/changelog.json",
        "/brands.json",
        "/llms.txt",
        "/openapi.json",
        "/schema/brand.schema.json",
        "/schema/spec.schema.json",
    ] {
        let res = app.get_with(
            &format!("/preview/{NAME}{path}"),
            &[("accept-encoding", "gzip")],
        );
        assert_eq!(res.status, 200, "{path}");
        assert_eq!(res.headers["cache-control"], ["no-store"], "{path}");
        assert_eq!(res.headers["x-robots-tag"], ["noindex"], "{path}");
        if res.header("content-type").unwrap().starts_with("text/html") {
            assert_eq!(res.header("content-encoding"), Some("gzip"), "{path}");
            let page = String::from_utf8(gunzip(&res.body)).unwrap();
            assert!(
                page.contains("<strong>Preview</strong> of branch"),
                "{path}"
            );
            assert!(res.header("content-security-policy").is_some(), "{path}");
        }
    }
    // The published branch is untouched.
    let published = app.get("/brand/northwind/spec.json");
    assert!(published.json()["tokens"]["color"]["surface"]["muted"].is_object());
    assert_ne!(published.header("cache-control"), Some("no-store"));
    assert_eq!(published.header("x-robots-tag"), None);

    // The preview's prompt kit runs in the demo, with the preview's spec.md.
    let call = serde_json::json!({"promptId": "weather-notice", "variables": {"location": "Oslo", "forecast": "sleet"}}).to_string();
    let demo_path = format!("/preview/{NAME}/api/brand-spec/northwind/demo");
    let res = app.request(
        "POST",
        &demo_path,
        &[("Content-Type", "application/json")],
        Some(call.as_bytes()),
    );
    assert_eq!(res.status, 200, "{}", res.text());
    let system = res.json()["messages"][0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    let preview_md = app
        .get(&format!("/preview/{NAME}/brand/northwind/spec.md"))
        .text();
    assert_eq!(system, preview_md);
    assert_ne!(system, app.get("/brand/northwind/spec.md").text());
    let res = app.request(
        "POST",
        "/preview/nobody/api/brand-spec/northwind/demo",
        &[("Content-Type", "application/json")],
        Some(call.as_bytes()),
    );
    assert_eq!(res.status, 404);

    // A new commit on the branch, announced by a webhook, is previewed.
    drop_muted(&remote);
    remote.edit("northwind/brand.json", "Outdoor gear", "Weatherproof gear");
    let commit = remote.commit_to("Feature/Spring_Palette", "Reword", 3);
    push_hook(app);
    app.wait_until(
        |a| previews(a)["previews"][0]["commit"] == commit.to_string(),
        "the new commit is previewed",
    );
    let page = app.get(&format!("/preview/{NAME}/brand/northwind")).text();
    assert!(page.contains("1 major, 0 minor, 1 patch"), "{page}");

    // Deleted: gone on the next fetch.
    remote.delete_branch("Feature/Spring_Palette");
    push_hook(app);
    app.wait_until(
        |a| previews(a)["previews"] == serde_json::json!([]),
        "the deleted branch is no longer previewed",
    );
    let gone = app.get(&format!("/preview/{NAME}/brand/northwind/spec.json"));
    assert_eq!(gone.status, 404);
    assert_eq!(
        gone.header("content-type"),
        Some("application/problem+json")
    );
}

#[test]
fn only_matching_branches_are_previewed_the_newest_first_up_to_the_limit() {
    let remote = Remote::new();
    remote.edit("northwind/brand.json", "Outdoor gear", "Older idea");
    remote.commit_to("try/older", "Older", 2);
    remote.edit("northwind/brand.json", "Outdoor gear", "Newer idea");
    remote.commit_to("try/newer", "Newer", 3);
    // Not matching the glob.
    remote.commit_to("wip", "Elsewhere", 4);
    let g = serve_git_with(&remote.url(), None, |a| {
        a.git_source().unwrap().previews = Some(PreviewConfig {
            glob: "try/*".into(),
            limit: 20,
        });
        a.git_source().unwrap().previews.as_mut().unwrap().limit = 1;
    });
    let app = &g.app;
    let list = previewed(app);
    let names: Vec<&str> = list["previews"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["try-newer"]);
    assert_eq!(app.get("/preview/try-older/").status, 404);
    assert_eq!(app.get("/preview/wip/").status, 404);
    let spec = app
        .get("/preview/try-newer/brand/northwind/spec.json")
        .json();
    assert!(spec.to_string().contains("Newer idea"));
    // A preview with errors shows them, as a stale brand does.
    remote.edit(
        "northwind/brand.json",
        "\"version\": \"2.4.0\"",
        "\"version\": \"two\"",
    );
    remote.commit_to("try/newer", "Break the version", 5);
    push_hook(app);
    app.wait_until(
        |a| {
            previews(a)["previews"][0]["brands"]
                .as_array()
                .unwrap()
                .iter()
                .any(|b| b["slug"] == "northwind" && b["state"] == "invalid")
        },
        "the broken brand is reported",
    );
    let page = app
        .get_with(
            "/preview/try-newer/brand/northwind",
            &[("accept", "text/html")],
        )
        .text();
    assert!(
        page.contains(
            "northwind/brand.json:4:14</code> version &quot;two&quot; is not a semantic version"
        ),
        "{page}"
    );
    // Without previews, the list says so.
    let plain = spawn_app(remote.path());
    let list = plain.get("/previews.json").json();
    assert_eq!(list, serde_json::json!({"enabled": false, "previews": []}));
}

/// `/previews.json` says what is configured from the start: previews are
/// on before any branch matches, and stay on once the last one is gone.
#[test]
fn the_list_says_previews_are_on_before_any_branch_matches() {
    let remote = Remote::new();
    let g = serve_git_with(&remote.url(), None, |a| {
        a.git_source().unwrap().previews = Some(PreviewConfig {
            glob: "try/*".into(),
            limit: 20,
        });
    });
    let list = g.app.get("/previews.json").json();
    assert_eq!(list["enabled"], true, "{list}");
    assert_eq!(list["branches"], "try/*");
    assert_eq!(list["previews"], serde_json::json!([]));
}

/// The links a document holds that point inside `root` (absolute, or
/// rooted paths in `href`/`src`), as paths without their fragment.
fn links_inside(text: &str, public_url: &str, root: &str) -> Vec<String> {
    let mut found = Vec::new();
    let absolute = format!("{public_url}{root}");
    for (i, _) in text.match_indices(&absolute) {
        let rest = &text[i + public_url.len()..];
        let end = rest
            .find(|c: char| c.is_whitespace() || "\"'<>)]`,&".contains(c))
            .unwrap_or(rest.len());
        found.push(rest[..end].to_string());
    }
    for attr in ["href=\"", "src=\""] {
        for (i, _) in text.match_indices(&format!("{attr}{root}")) {
            let rest = &text[i + attr.len()..];
            found.push(rest[..rest.find('"').unwrap_or(rest.len())].to_string());
        }
    }
    found
        .into_iter()
        .map(|l| {
            l.split('#')
                .next()
                .unwrap()
                .trim_end_matches('.')
                .to_string()
        })
        .filter(|l| !l.contains('{'))
        .collect()
}

#[test]
fn every_link_a_preview_renders_answers_inside_it() {
    let remote = crate::git::changelog_remote();
    drop_muted(&remote);
    remote.commit_to("preview/spring", "Drop the muted surface", 30);
    let g = serve_git_with(&remote.url(), None, |a| {
        a.git_source().unwrap().previews = Some(PreviewConfig {
            glob: "preview/*".into(),
            limit: 20,
        });
    });
    let app = &g.app;
    previewed(app);
    let root = "/preview/preview-spring/";
    let mut queue: Vec<String> = ["", "brand/northwind", "brand/northwind/changelog.md"]
        .iter()
        .map(|p| format!("{root}{p}"))
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    let mut kinds = std::collections::BTreeSet::new();
    while let Some(path) = queue.pop() {
        if !seen.insert(path.clone()) || seen.len() > 400 {
            continue;
        }
        let r = app.get(&path);
        assert_ne!(r.status, 404, "{path} answers 404 inside the preview");
        if r.status == 405 {
            continue; // the demo: POST only
        }
        if r.status == 308 {
            // A folder's spelling (`…/brand/acme/`), redirected to its page.
            let to = r.header("location").unwrap().to_string();
            let to = to.strip_prefix(&app.public_url).unwrap_or(&to);
            assert!(
                to.starts_with(root),
                "{path} redirects out of the preview: {to}"
            );
            queue.push(to.to_string());
            continue;
        }
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("cache-control"), Some("no-store"), "{path}");
        assert_eq!(r.header("x-robots-tag"), Some("noindex"), "{path}");
        if path.contains("/compare/") {
            kinds.insert("compare");
        }
        if path.contains('@') {
            kinds.insert("release");
        }
        if r.header("content-type")
            .is_some_and(|t| t.starts_with("text/"))
            || path.ends_with(".json")
        {
            queue.extend(links_inside(&r.text(), &app.public_url, root));
        }
    }
    assert!(seen.len() > 20, "{} links followed", seen.len());
    // The banner on a brand's page links what the branch holds against
    // the latest release (relative to the page), and it answers.
    let page = app.get(&format!("{root}brand/northwind")).text();
    let at = page
        .find("\">Compare with release ")
        .expect("the banner links a comparison");
    let start = page[..at].rfind("href=\"").unwrap() + 6;
    let href = &page[start..start + page[start..].find('"').unwrap()];
    assert_eq!(href, "northwind/compare/2.10.0...current");
    let compare = app.get(&format!("{root}brand/{href}"));
    assert_eq!(compare.status, 200);
    assert_eq!(compare.header("x-robots-tag"), Some("noindex"));
    assert_eq!(
        kinds,
        ["compare", "release"].into(),
        "the crawl reached compare and release pages: {seen:#?}"
    );
}

/// A preview's content errors reach the terminal as the published
/// branch's do: framed, with the file (its repository path), line and
/// source, under a line that names the preview.
#[test]
fn a_previews_errors_are_framed_in_the_terminal() {
    use std::io::{BufRead, BufReader};
    let remote = Remote::new();
    remote.tag_annotated("northwind@2.4.0", "First", 1);
    remote.set_version("northwind", "2.4.0", "v2.5");
    remote.commit_to("preview/broken", "A version with a v", 2);
    drop_muted(&remote);
    remote.commit_to("preview/breaking", "Drop a token, keep the version", 3);
    let cache = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["serve", "--listen", "127.0.0.1:0", "--git-poll", "1h"])
        .arg("--git-url")
        .arg(remote.url())
        .args(["--preview-branches", "preview/*", "--cache-dir"])
        .arg(cache.path())
        .env("NO_COLOR", "1")
        .env_remove("MARQUE_CONTENT")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut seen = String::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !seen.contains("\"version\": \"v2.5\"") || !seen.contains("merged and tagged") {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                seen.push_str(&line);
                seen.push('\n');
            }
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    assert!(
        seen.contains("change preview preview-broken: branch preview/broken at "),
        "{seen}"
    );
    assert!(seen.contains("error[MQ"), "a framed error: {seen}");
    assert!(seen.contains("--> northwind/brand.json:"), "{seen}");
    assert!(
        seen.contains("\"version\": \"v2.5\""),
        "its source line: {seen}"
    );
    // A version too small a step, in a preview, which publishes nothing.
    assert!(
        seen.contains("Raise `version` before this branch is merged and tagged"),
        "{seen}"
    );
    assert!(
        !seen.contains("It is published, as `--semver warn` allows"),
        "{seen}"
    );
}
