//! Git mode, the webhook, changelogs from tags and pinned versions, over
//! real repositories built in temp dirs with real commits and tags.

use crate::helpers::*;
use git2::{IndexAddOption, Oid, Repository, RepositoryInitOptions, Signature, Time};
use hmac::{Hmac, Mac};
use serde_json::Value;
use sha2::Sha256;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A content repository playing the remote: brands at its root.
pub struct Remote {
    pub dir: tempfile::TempDir,
    pub repo: Repository,
}

/// 2026-10-01T12:00:00Z plus `days`.
fn at(days: i64) -> Time {
    Time::new(1_790_856_000 + days * 86_400, 0)
}

fn sig(days: i64) -> Signature<'static> {
    Signature::new("Brand Bot", "bot@example.com", &at(days)).unwrap()
}

impl Remote {
    pub fn new() -> Remote {
        let dir = tempfile::tempdir().unwrap();
        let mut opts = RepositoryInitOptions::new();
        opts.initial_head("main");
        let repo = Repository::init_opts(dir.path(), &opts).unwrap();
        copy_dir(&example_content(), dir.path());
        let r = Remote { dir, repo };
        r.commit("Add Northwind and Lumen Health", 0);
        r
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn url(&self) -> String {
        format!("file://{}", self.path().display())
    }

    /// Commits the whole work tree as it is.
    pub fn commit(&self, message: &str, days: i64) -> Oid {
        let mut index = self.repo.index().unwrap();
        index.add_all(["*"], IndexAddOption::DEFAULT, None).unwrap();
        index.update_all(["*"], None).unwrap();
        index.write().unwrap();
        let tree = self.repo.find_tree(index.write_tree().unwrap()).unwrap();
        let parent = self.repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        let parents: Vec<&git2::Commit> = parent.iter().collect();
        self.repo
            .commit(
                Some("HEAD"),
                &sig(days),
                &sig(days),
                message,
                &tree,
                &parents,
            )
            .unwrap()
    }

    pub fn edit(&self, file: &str, from: &str, to: &str) {
        let path = self.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(from), "{file} contains {from:?}");
        std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    }

    pub fn set_version(&self, slug: &str, from: &str, to: &str) {
        self.edit(
            &format!("{slug}/brand.json"),
            &format!("\"version\": \"{from}\""),
            &format!("\"version\": \"{to}\""),
        );
    }

    pub fn tag_annotated(&self, name: &str, message: &str, days: i64) {
        let head = self
            .repo
            .head()
            .unwrap()
            .peel(git2::ObjectType::Commit)
            .unwrap();
        self.repo
            .tag(name, &head, &sig(days), message, false)
            .unwrap();
    }

    pub fn tag_light(&self, name: &str) {
        let head = self
            .repo
            .head()
            .unwrap()
            .peel(git2::ObjectType::Commit)
            .unwrap();
        self.repo.tag_lightweight(name, &head, false).unwrap();
    }

    /// Commits the work tree as it is onto `branch` (created from HEAD if
    /// new), then puts the work tree back at HEAD.
    pub fn commit_to(&self, branch: &str, message: &str, days: i64) -> Oid {
        let mut index = self.repo.index().unwrap();
        index.add_all(["*"], IndexAddOption::DEFAULT, None).unwrap();
        index.update_all(["*"], None).unwrap();
        let tree = self.repo.find_tree(index.write_tree().unwrap()).unwrap();
        let parent = match self.repo.find_branch(branch, git2::BranchType::Local) {
            Ok(b) => b.get().peel_to_commit().unwrap(),
            Err(_) => self.repo.head().unwrap().peel_to_commit().unwrap(),
        };
        let oid = self
            .repo
            .commit(
                Some(&format!("refs/heads/{branch}")),
                &sig(days),
                &sig(days),
                message,
                &tree,
                &[&parent],
            )
            .unwrap();
        let mut checkout = git2::build::CheckoutBuilder::new();
        checkout.force().remove_untracked(true);
        self.repo.checkout_head(Some(&mut checkout)).unwrap();
        let mut index = self.repo.index().unwrap();
        index
            .read_tree(&self.repo.head().unwrap().peel_to_tree().unwrap())
            .unwrap();
        index.write().unwrap();
        oid
    }

    pub fn delete_branch(&self, branch: &str) {
        self.repo
            .find_branch(branch, git2::BranchType::Local)
            .unwrap()
            .delete()
            .unwrap();
    }

    pub fn head(&self) -> String {
        self.repo
            .head()
            .unwrap()
            .peel_to_commit()
            .unwrap()
            .id()
            .to_string()
    }

    /// The id of a brand folder's tree at the head commit.
    pub fn tree_of(&self, slug: &str) -> String {
        let tree = self.repo.head().unwrap().peel_to_tree().unwrap();
        tree.get_path(Path::new(slug)).unwrap().id().to_string()
    }
}

pub const SECRET: &str = "It's a Secret to Everybody";

pub struct GitApp {
    pub app: TestApp,
    _cache: tempfile::TempDir,
}

pub fn serve_git(remote_url: &str, cache: Option<PathBuf>) -> GitApp {
    serve_git_with(remote_url, cache, |_| {})
}

/// [`serve_git`], with `configure` changing the arguments first.
pub fn serve_git_with(
    remote_url: &str,
    cache: Option<PathBuf>,
    configure: impl FnOnce(&mut marque::config::ServeConfig),
) -> GitApp {
    let cache_dir = tempfile::tempdir().unwrap();
    let mut args = serve_config(&example_content());
    args.source = SourceConfig::Git(GitSource::new(remote_url.to_string()));
    args.git_source().unwrap().poll = Duration::from_secs(3600); // only the webhook and the start fetch
    args.cache_dir = cache.unwrap_or_else(|| cache_dir.path().to_path_buf());
    args.git_source().unwrap().webhook = Some(Webhook {
        secret: SECRET.into(),
        rates: Default::default(),
    });
    configure(&mut args);
    GitApp {
        app: spawn_with(args),
        _cache: cache_dir,
    }
}

pub fn github_sig(body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(SECRET.as_bytes()).unwrap();
    mac.update(body);
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sha256={hex}")
}

fn hook(app: &TestApp, headers: &[(&str, &str)], body: &[u8]) -> Response {
    app.request("POST", "/hooks/git", headers, Some(body))
}

pub fn push_hook(app: &TestApp) {
    let body = br#"{"ref":"refs/heads/main"}"#;
    let res = hook(
        app,
        &[
            ("Content-Type", "application/json"),
            ("X-Hub-Signature-256", &github_sig(body)),
        ],
        body,
    );
    assert_eq!(res.status, 202);
}

fn status(app: &TestApp) -> Value {
    app.get("/status").json()
}

#[test]
fn serves_the_head_of_the_branch_from_the_mirror() {
    let remote = Remote::new();
    let g = serve_git(&remote.url(), None);
    let s = status(&g.app);
    assert_eq!(s["revision"], remote.head());
    assert_eq!(s["source"], format!("git {} (main)", remote.url()));
    let spec = g.app.get("/brand/northwind/spec.json").json();
    assert_eq!(
        spec["revision"],
        remote.tree_of("northwind"),
        "spec.json names the brand folder's tree, which changes only when the brand does"
    );
    assert_eq!(
        g.app.get("/events").status,
        404,
        "no live reload in git mode"
    );
}

#[test]
fn a_push_with_a_signed_webhook_is_served_and_bad_signatures_are_refused() {
    let remote = Remote::new();
    let g = serve_git(&remote.url(), None);
    let app = &g.app;

    let body = br#"{"ref":"refs/heads/main"}"#;
    for headers in [
        vec![("X-Hub-Signature-256", "sha256=0000")],
        vec![(
            "X-Hub-Signature-256",
            github_sig(b"another body").leak() as &str,
        )],
        vec![("X-Gitlab-Token", "wrong")],
        vec![],
    ] {
        let res = hook(app, &headers, body);
        assert_eq!(res.status, 401, "{headers:?}");
        assert_eq!(res.header("content-type"), Some("application/problem+json"));
    }

    remote.edit(
        "northwind/brand.json",
        "Outdoor gear for people",
        "Pushed: outdoor gear for people",
    );
    remote.commit("Sharper summary", 1);
    let started = Instant::now();
    push_hook(app);
    app.wait_until(
        |a| {
            a.get("/brand/northwind/spec.json")
                .text()
                .contains("Pushed: outdoor gear")
        },
        "the push is served",
    );
    println!("push + webhook to served: {:?}", started.elapsed());
    assert_eq!(status(app)["revision"], remote.head());

    // GitLab's token form works too, and a burst of deliveries coalesces.
    remote.edit(
        "northwind/brand.json",
        "Pushed: outdoor",
        "Pushed twice: outdoor",
    );
    remote.commit("Again", 2);
    for _ in 0..10 {
        assert_eq!(hook(app, &[("X-Gitlab-Token", SECRET)], b"{}").status, 202);
    }
    app.wait_until(
        |a| {
            a.get("/brand/northwind/spec.json")
                .text()
                .contains("Pushed twice")
        },
        "the second push is served",
    );
    let reloads = status(app)["reloads"].as_u64().unwrap();
    assert!(reloads <= 4, "deliveries coalesce: {reloads} builds");
}

#[test]
fn a_broken_head_keeps_the_last_good_brand_and_status_names_the_commit() {
    let remote = Remote::new();
    let g = serve_git(&remote.url(), None);
    let good = g.app.get("/brand/northwind/spec.json").body;
    remote.set_version("northwind", "2.4.0", "2.5");
    let bad = remote.commit("Oops", 1).to_string();
    push_hook(&g.app);
    g.app.wait_until(
        |a| status(a)["revision"] == bad.as_str(),
        "the broken commit is processed",
    );
    let s = status(&g.app);
    assert_eq!(s["lastFailure"]["revision"], bad);
    assert_eq!(s["brands"][1]["state"], "stale");
    let d = &s["brands"][1]["diagnostics"][0];
    assert_eq!(d["code"], "MQ1201", "{d}");
    assert!(d["message"].as_str().unwrap().contains("\"2.5\""));
    assert_eq!(g.app.get("/brand/northwind/spec.json").body, good);
    assert_eq!(s["brands"][0]["state"], "ok", "lumen-health is unaffected");
}

#[test]
fn a_warm_cache_serves_when_the_remote_is_gone() {
    let remote = Remote::new();
    let cache = tempfile::tempdir().unwrap();
    let head = remote.head();
    let url = remote.url();
    drop(serve_git(&url, Some(cache.path().to_path_buf())));
    drop(remote); // the remote is deleted
    let g = serve_git(&url, Some(cache.path().to_path_buf()));
    assert_eq!(g.app.get("/brand/northwind/spec.json").status, 200);
    let s = status(&g.app);
    assert_eq!(s["revision"], head);
    let err = s["lastFailure"]["error"].as_str().unwrap();
    assert!(err.starts_with("fetch from"), "{err}");
}

#[test]
fn credentials_never_reach_status() {
    let remote = Remote::new();
    // A URL with userinfo for a remote that does not exist: the fetch fails.
    let url = format!(
        "https://x-access-token:ghp_supersecret@127.0.0.1:9/{}",
        remote.path().display()
    );
    let cache = tempfile::tempdir().unwrap();
    let mut args = serve_config(&example_content());
    args.source = SourceConfig::Git(GitSource::new(url));
    args.git_source().unwrap().poll = Duration::from_secs(3600);
    args.cache_dir = cache.path().to_path_buf();
    let app = spawn_app_unready(args);
    app.wait_until(
        |a| !status(a)["lastFailure"].is_null(),
        "/status reports the failed fetch",
    );
    assert_eq!(app.get("/readyz").status, 503, "not ready without content");
    let s = status(&app);
    assert_eq!(s["ready"], false, "/status agrees with /readyz");
    let err = s["lastFailure"]["error"].as_str().unwrap();
    assert!(err.starts_with("fetch from https://127.0.0.1:9/"), "{err}");
    assert!(
        !s.to_string().contains("supersecret") && !s.to_string().contains("x-access-token"),
        "{s}"
    );
}

/// Starts marque without waiting for readiness (git mode with a dead remote never gets ready).
fn spawn_app_unready(args: marque::config::ServeConfig) -> TestApp {
    spawn_with_readiness(args, false)
}

pub fn changelog_remote() -> Remote {
    let remote = Remote::new();
    remote.tag_annotated(
        "northwind@2.4.0",
        "First public palette\n\n- Signal orange for calls to action",
        3,
    );
    remote.set_version("northwind", "2.4.0", "2.9.0");
    remote.edit("northwind/brand.json", "Outdoor gear", "Weatherproof gear");
    remote.commit("Tighten the summary", 10);
    remote.edit("lumen-health/brand.json", "warm, exact", "warm and exact");
    remote.commit("Lumen: wording", 11);
    remote.tag_light("northwind@2.9.0");
    remote.set_version("northwind", "2.9.0", "2.10.0");
    remote.commit("Release 2.10", 20);
    remote.tag_annotated("northwind@2.10.0", "Two-digit minor", 21);
    remote.tag_annotated("northwind@3.0.0", "Says 3.0.0 but brand.json does not", 22);
    remote.tag_annotated("lumen-health/v3.0.0-beta.2", "Beta two", 23);
    remote.set_version("northwind", "2.10.0", "2.11.0");
    remote.commit("Start 2.11", 24);
    remote
}

#[test]
fn changelogs_come_from_tags_sorted_by_semver_with_unreleased_work() {
    let remote = changelog_remote();
    let g = serve_git(&remote.url(), None);
    let app = &g.app;
    let cl = app.get("/brand/northwind/changelog.json").json();
    let versions: Vec<&str> = cl["releases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["version"].as_str().unwrap())
        .collect();
    assert_eq!(
        versions,
        ["2.10.0", "2.9.0", "2.4.0"],
        "semver order, not lexical; the disagreeing tag is skipped"
    );
    assert_eq!(cl["unreleased"]["version"], "2.11.0");
    let r = &cl["releases"];
    assert_eq!(
        r[0]["date"], "2026-10-22",
        "tagger date of an annotated tag"
    );
    assert_eq!(r[0]["notes"], serde_json::json!(["Two-digit minor"]));
    assert_eq!(
        r[1]["date"], "2026-10-12",
        "commit date of a lightweight tag"
    );
    assert_eq!(
        r[1]["notes"],
        serde_json::json!(["Tighten the summary"]),
        "subjects of commits that touched the brand"
    );
    assert_eq!(
        r[2]["notes"],
        serde_json::json!([
            "First public palette",
            "- Signal orange for calls to action"
        ])
    );

    let md = app.get("/brand/northwind/changelog.md").text();
    assert_eq!(
        app.get("/brand/northwind/changelog.md")
            .header("content-type"),
        Some("text/markdown; charset=utf-8")
    );
    let headings: Vec<&str> = md.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        headings,
        [
            "## [Unreleased]",
            "## [2.10.0] - 2026-10-22",
            "## [2.9.0] - 2026-10-12",
            "## [2.4.0] - 2026-10-04"
        ]
    );
    assert!(md.contains("- Signal orange for calls to action"));

    let warnings = &status(app)["brands"][1]["diagnostics"];
    assert!(
        warnings
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "MQ1204"
                && d["message"].as_str().unwrap().contains("northwind@3.0.0")),
        "{warnings}"
    );
    let lumen = app.get("/brand/lumen-health/changelog.json").json();
    assert_eq!(
        lumen["releases"][0]["version"], "3.0.0-beta.2",
        "the <slug>/v<version> form"
    );
    let page = app.get("/brand/northwind").text();
    assert!(page.contains("2.10.0"), "the API page shows the changelog");
    // Each release on the page lists what it changed, as changelog.md does.
    let sections_md = md.matches("\n### ").count();
    let sections_page = page.matches("<h4>").count();
    assert!(sections_md > 0, "{md}");
    assert_eq!(sections_page, sections_md, "{page}");
}

#[test]
fn released_versions_are_served_immutable_from_their_tags() {
    let remote = changelog_remote();
    let g = serve_git(&remote.url(), None);
    let app = &g.app;
    let res = app.get("/brand/northwind@2.9.0/spec.json");
    assert_eq!(res.status, 200);
    assert_eq!(
        res.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    let spec = res.json();
    assert_eq!(spec["version"], "2.9.0");
    assert!(spec["summary"]
        .as_str()
        .unwrap()
        .starts_with("Weatherproof gear"));
    assert!(spec["links"]["specMd"]
        .as_str()
        .unwrap()
        .ends_with("/brand/northwind@2.9.0/spec.md"));
    let old = app.get("/brand/northwind@2.4.0/spec.md").text();
    assert!(old.contains("spec version 2.4.0 as of 2026-10-14"), "{old}");
    let old = app.get("/brand/northwind@2.4.0/DESIGN.md").text();
    assert!(old.contains("Spec version 2.4.0 as of 2026-10-14"), "{old}");
    let old = app.get("/brand/northwind@2.4.0/tailwind.css").text();
    assert!(old.contains("spec version 2.4.0 as of 2026-10-14"), "{old}");
    // Every surface of the release, its page, an asset and its card.
    let surfaces =
        marque::render::Surface::ALL.map(|s| format!("/brand/northwind@2.4.0/{}", s.file()));
    let others = [
        "/brand/northwind@2.4.0",
        "/brand/northwind@2.4.0/assets/logo.svg",
        "/embed/brand/northwind@2.4.0",
    ];
    for path in surfaces.iter().map(String::as_str).chain(others) {
        let res = app.get(path);
        assert_eq!(res.status, 200, "{path}");
        assert_eq!(
            res.header("cache-control"),
            Some("public, max-age=31536000, immutable"),
            "{path}"
        );
    }
    assert_eq!(
        app.get("/brand/northwind/spec.json").json()["version"],
        "2.11.0"
    );
    for path in [
        "/brand/northwind@9.9.9/spec.json",
        "/brand/northwind@3.0.0/spec.json",
        "/brand/northwind@2.9/spec.json",
    ] {
        let res = app.get(path);
        assert_eq!(res.status, 404, "{path}");
        assert_eq!(res.header("content-type"), Some("application/problem+json"));
    }
}

#[test]
fn directory_mode_in_a_work_tree_reads_tags_and_the_cli_writes_the_changelog() {
    let remote = changelog_remote();
    // The remote is itself a work tree whose root is the content folder.
    let app = spawn_app(remote.path());
    assert_eq!(
        app.get("/brand/northwind/changelog.json").json()["releases"][0]["version"],
        "2.10.0"
    );
    let out = remote.path().join("CHANGELOG.md");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args([
            "changelog",
            remote.path().to_str().unwrap(),
            "--brand",
            "northwind",
            "--output",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let md = std::fs::read_to_string(out).unwrap();
    assert!(md.starts_with("# Changelog: Northwind Outfitters\n"));
    assert!(md.contains("## [2.10.0] - 2026-10-22"));
}

#[test]
fn webhook_bodies_are_bounded_before_they_are_read() {
    let remote = Remote::new();
    let g = serve_git(&remote.url(), None);
    let app = &g.app;
    // Declared too large: refused from the head alone.
    let mut s = std::net::TcpStream::connect(app.addr).unwrap();
    use std::io::{Read, Write};
    s.write_all(
        format!("POST /hooks/git HTTP/1.1\r\nHost: x\r\nX-Hub-Signature-256: sha256={}\r\nContent-Length: 2000000\r\n\r\n", "0".repeat(64)).as_bytes(),
    )
    .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let mut buf = [0u8; 64];
    let n = s.read(&mut buf).unwrap();
    assert!(
        String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 413"),
        "{}",
        String::from_utf8_lossy(&buf[..n])
    );
    // Without any signature header, nothing is read: 401 at once, even for a
    // body that never arrives.
    // Nor for a signature no body could match, or a wrong GitLab token
    // (which needs no body at all).
    for signature in [
        "",
        "X-Hub-Signature-256: sha256=zz\r\n",
        "X-Gitea-Signature: ab\r\n",
        "X-Gitlab-Token: nope\r\n",
    ] {
        let mut s = std::net::TcpStream::connect(app.addr).unwrap();
        s.write_all(
            format!("POST /hooks/git HTTP/1.1\r\nHost: x\r\n{signature}Content-Length: 1048576\r\n\r\nxx")
                .as_bytes(),
        )
        .unwrap();
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let started = Instant::now();
        let n = s.read(&mut buf).unwrap();
        assert!(
            String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 401"),
            "{signature:?}"
        );
        assert!(started.elapsed() < Duration::from_secs(2), "{signature:?}");
    }
}

/// Replaces the values of `keys`, wherever they appear, with a placeholder.
fn redact(v: &mut Value, keys: &[&str]) {
    match v {
        Value::Object(o) => {
            for (k, x) in o.iter_mut() {
                if keys.contains(&k.as_str()) {
                    *x = Value::String(format!("[{k}]"));
                } else {
                    redact(x, keys);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| redact(x, keys)),
        _ => {}
    }
}

#[test]
fn the_documents_about_all_brands_match_their_golden_copies() {
    let remote = changelog_remote();
    let cache = tempfile::tempdir().unwrap();
    let mut args = serve_config(&example_content());
    args.source = SourceConfig::Git(GitSource::new(remote.url()));
    args.git_source().unwrap().poll = Duration::from_secs(3600);
    args.cache_dir = cache.path().to_path_buf();
    args.public_url = Some("https://brand.example.com".into());
    let app = spawn_with(args);
    insta::assert_snapshot!("documents__brands.json", app.get("/brands.json").text());
    insta::assert_snapshot!(
        "documents__northwind__changelog.md",
        app.get("/brand/northwind/changelog.md").text()
    );
    insta::assert_snapshot!(
        "documents__northwind__changelog.json",
        app.get("/brand/northwind/changelog.json").text()
    );
    // What changes from run to run (times, the temporary repository's path,
    // byte counts that follow the compressors) is redacted.
    let mut status = app.get("/status").json();
    redact(
        &mut status,
        &[
            "source",
            "lastReloadAt",
            "lastReloadMs",
            "snapshotBytes",
            "bytes",
        ],
    );
    status["version"] = Value::String("[marque's version]".into());
    insta::assert_snapshot!(
        "documents__status.json",
        serde_json::to_string_pretty(&status).unwrap()
    );
}

#[test]
fn a_push_rerenders_only_the_brands_whose_folders_changed() {
    let remote = Remote::new();
    remote.tag_annotated("northwind@2.4.0", "Spring palette", 1);
    let g = serve_git(&remote.url(), None);
    let app = &g.app;
    assert_eq!(
        status(app)["lastBuild"],
        serde_json::json!({"read": 2, "checked": 3, "rendered": 3, "fromCache": 0, "kept": 0}),
        "the first build reads both brands and renders them and the release"
    );

    remote.edit("lumen-health/BRAND_BOOK.md", "# ", "# Edited: ");
    let head = remote.commit("Retitle the Lumen book", 2);
    push_hook(app);
    app.wait_until(
        |a| status(a)["revision"] == head.to_string(),
        "the push is served",
    );
    assert_eq!(
        status(app)["lastBuild"],
        serde_json::json!({"read": 1, "checked": 1, "rendered": 1, "fromCache": 0, "kept": 2}),
        "only lumen-health's folder changed: northwind and its release are kept"
    );
}

/// A webhook delivery of `body` signed GitHub's way with `sig`, sent from
/// the loopback address `local` (one client address per test client).
fn signed_delivery_from(
    local: [u8; 4],
    addr: std::net::SocketAddr,
    sig: &str,
    body: &[u8],
) -> Response {
    let headers = [
        ("X-Hub-Signature-256", sig),
        ("Content-Type", "application/json"),
    ];
    let stream = connect_from(local.into(), addr);
    raw_request_on(stream, addr, "POST", "/hooks/git", &headers, Some(body))
}

#[test]
fn a_flood_of_bogus_webhooks_never_starves_a_genuine_delivery() {
    let remote = Remote::new();
    let g = serve_git(&remote.url(), None);
    let addr = g.app.addr;
    let stop = Instant::now() + Duration::from_secs(3);
    // Well-formed signatures that no body matches, with large bodies: each
    // one is read and hashed before it is refused. Six flooding addresses,
    // one delivery at a time each (within any client's share of the reads).
    let flooders: Vec<_> = (0..6u8)
        .map(|i| {
            std::thread::spawn(move || {
                let body = vec![b'x'; 512 * 1024];
                let sig = format!("sha256={}", "0".repeat(64));
                let mut refused = 0;
                while Instant::now() < stop {
                    let res = signed_delivery_from([127, 0, 0, 10 + i], addr, &sig, &body);
                    assert_eq!(res.status, 401);
                    refused += 1;
                }
                refused
            })
        })
        .collect();
    let body = br#"{"ref": "refs/heads/main"}"#;
    let sig = github_sig(body);
    let mut genuine = Vec::new();
    while Instant::now() < stop {
        genuine.push(signed_delivery_from([127, 0, 0, 2], addr, &sig, body).status);
        std::thread::sleep(Duration::from_millis(100));
    }
    let bogus: usize = flooders.into_iter().map(|t| t.join().unwrap()).sum();
    println!(
        "{} genuine deliveries beside {bogus} bogus ones: {:?}",
        genuine.len(),
        genuine
    );
    assert!(bogus > 50, "the flood ran: {bogus}");
    assert!(genuine.len() >= 10);
    assert!(genuine.iter().all(|s| *s == 202), "{genuine:?}");
}

/// What a slow webhook body was answered, and how long after its head.
struct SlowBody {
    res: Response,
    after: Duration,
}

/// A slow-body client as in the repro (`webhook_slowloris.py`): a
/// well-formed signature no body will match, a declared 1 MiB, then one
/// byte every 100 ms until marque answers. It forges `X-Forwarded-For`,
/// claiming to be `forged`.
fn slow_body(addr: std::net::SocketAddr, forged: &str) -> SlowBody {
    use std::io::{ErrorKind, Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let head = format!(
        "POST /hooks/git HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         X-Forwarded-For: {forged}\r\nX-Hub-Signature-256: sha256={}\r\n\
         Content-Length: 1048576\r\n\r\n{{",
        "0".repeat(64)
    );
    s.write_all(head.as_bytes()).unwrap();
    let sent = Instant::now();
    // The read timeout is the drip: each time nothing came back, one more byte.
    s.set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        assert!(
            sent.elapsed() < Duration::from_secs(20),
            "a slow body is answered"
        );
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                raw.extend_from_slice(&buf[..n]);
                let whole = raw
                    .windows(4)
                    .position(|w| w == b"\r\n\r\n")
                    .is_some_and(|end| {
                        let res = parse_response(&raw, false);
                        res.header("content-length")
                            .and_then(|l| l.parse::<usize>().ok())
                            .is_some_and(|l| raw.len() - end - 4 >= l)
                    });
                if whole {
                    break;
                }
            }
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                // Marque may have closed its side already; the answer is read next.
                let _ = s.write_all(b" ");
            }
            Err(e) => panic!("reading the answer to a slow body: {e}"),
        }
    }
    SlowBody {
        after: sent.elapsed(),
        res: parse_response(&raw, false),
    }
}

#[test]
fn slow_webhook_bodies_from_one_address_never_starve_a_genuine_delivery() {
    let remote = Remote::new();
    let grace = Duration::from_millis(1500);
    let g = serve_git_with(&remote.url(), None, |args| {
        args.git_source()
            .unwrap()
            .webhook
            .as_mut()
            .unwrap()
            .rates
            .grace = grace;
    });
    let addr = g.app.addr;
    // Eight slow bodies from 127.0.0.1, each forging another address in
    // X-Forwarded-For (believed only from a --trusted-proxy): eight held
    // every read slot before.
    let (tx, rx) = std::sync::mpsc::channel();
    let slow: Vec<_> = (0..8)
        .map(|i| {
            let tx = tx.clone();
            std::thread::spawn(move || {
                let answer = slow_body(addr, &format!("10.0.0.{i}"));
                let _ = tx.send(answer.res.status);
                answer
            })
        })
        .collect();
    // Two are read (the address's share); six are told at once to wait.
    let refused: Vec<u16> = (0..6)
        .map(|_| rx.recv_timeout(Duration::from_secs(10)).unwrap())
        .collect();
    assert_eq!(refused, [429; 6]);
    // While those two trickle, a genuine delivery from another address
    // gets a slot and 202 at once.
    let body = br#"{"ref": "refs/heads/main"}"#;
    let sig = github_sig(body);
    let started = Instant::now();
    let genuine = signed_delivery_from([127, 0, 0, 2], addr, &sig, body);
    let took = started.elapsed();
    println!(
        "a genuine delivery beside them: {} in {took:?}",
        genuine.status
    );
    assert_eq!(genuine.status, 202, "{}", genuine.text());
    assert!(took < Duration::from_secs(1), "{took:?}");
    // One from the slow bodies' own address is over its share, and told
    // so as a problem with Retry-After (the grace period, rounded up).
    let own = signed_delivery_from([127, 0, 0, 1], addr, &sig, body);
    assert_eq!(own.status, 429);
    assert_eq!(own.header("retry-after"), Some("2"));
    assert_eq!(own.header("content-type"), Some("application/problem+json"));
    assert!(
        matches!(rx.try_recv(), Err(std::sync::mpsc::TryRecvError::Empty)),
        "the two slow bodies were still being read"
    );
    // The two are cut once the grace period is over, far before the 10 s
    // body timeout, at 1 byte per 100 ms against a floor of 128 KiB/s.
    let answers: Vec<SlowBody> = slow.into_iter().map(|t| t.join().unwrap()).collect();
    let cut: Vec<&SlowBody> = answers.iter().filter(|a| a.res.status != 429).collect();
    for a in &answers {
        println!("slow body answered {} after {:?}", a.res.status, a.after);
    }
    assert_eq!(cut.len(), 2);
    for a in cut {
        assert_eq!(a.res.status, 408, "{}", a.res.text());
        assert!(
            a.res.text().contains("slower than 128 KiB/s"),
            "{}",
            a.res.text()
        );
        assert_eq!(a.res.header("connection"), Some("close"));
        assert!(a.after >= grace, "{:?}", a.after);
        assert!(a.after < grace + Duration::from_secs(1), "{:?}", a.after);
    }
    // Their slots were given back with the answer: the address is read again.
    assert_eq!(
        signed_delivery_from([127, 0, 0, 1], addr, &sig, body).status,
        202
    );
}

#[test]
fn the_compare_memo_stays_within_its_bytes_and_answers_each_spelling() {
    let remote = changelog_remote();
    let g = serve_git_with(&remote.url(), None, |args| {
        args.compare_memo_bytes = Some(3 * 1024);
    });
    let app = &g.app;
    let releases: Vec<String> = app.get("/brand/northwind/changelog.json").json()["releases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["version"].as_str().unwrap().to_string())
        .chain(["current".to_string()])
        .collect();
    let metric = |name: &str| -> u64 {
        app.get("/metrics")
            .text()
            .lines()
            .find_map(|l| l.strip_prefix(name)?.trim().parse().ok())
            .unwrap()
    };
    let mut answered = 0;
    for a in &releases {
        for b in &releases {
            for suffix in [".json", ".md"] {
                let res = app.get(&format!("/brand/northwind/compare/{a}...{b}{suffix}"));
                assert_eq!(res.status, 200);
                answered += res.body.len();
                let held = metric("marque_compare_memo_bytes ");
                assert!(held <= 3 * 1024, "{held} bytes held");
            }
        }
    }
    println!("{answered} bytes answered, at most 3 KiB kept");
    assert!(answered > 3 * 1024, "the sweep outgrew the memo");
    assert!(metric("marque_compare_memo_answers ") > 0);
    // Each spelling is answered as it was written, with or without `v`.
    let first = &releases[0];
    let plain = app.get(&format!("/brand/northwind/compare/{first}...current.json"));
    let v = app.get(&format!("/brand/northwind/compare/v{first}...current.json"));
    assert_eq!(plain.json()["from"]["ref"], first.as_str());
    assert_eq!(v.json()["from"]["ref"], format!("v{first}"));
    // A hostile range is quoted short in the answer that refuses it.
    let long = app.get(&format!(
        "/brand/northwind/compare/current...{}",
        "9".repeat(8000)
    ));
    assert_eq!(long.status, 404);
    assert!(long.text().len() < 1000, "{} bytes", long.text().len());
    let md = app.get(&format!("/brand/northwind/compare/v{first}...current.md"));
    assert_eq!(md.status, 200);
    assert!(md
        .header("content-type")
        .unwrap()
        .starts_with("text/markdown"));
}

/// A repository whose brands live in `content/` (marque's own layout),
/// served without `--git-path`: nothing is published, so marque is not
/// ready, and it says where the brands are and how to serve them.
#[test]
fn git_mode_with_no_brand_at_its_path_is_not_ready_and_says_where_they_are() {
    let remote = Remote::new();
    let root = remote.path();
    std::fs::create_dir(root.join("content")).unwrap();
    for slug in ["northwind", "lumen-health"] {
        std::fs::rename(root.join(slug), root.join("content").join(slug)).unwrap();
    }
    remote.commit("Keep the brands under content/", 1);
    let cache = tempfile::tempdir().unwrap();
    let mut args = serve_config(&example_content());
    args.source = SourceConfig::Git(GitSource::new(remote.url()));
    args.git_source().unwrap().poll = Duration::from_secs(3600);
    args.cache_dir = cache.path().to_path_buf();
    let app = spawn_app_unready(args.clone());
    app.wait_until(
        |a| status(a)["generation"].as_u64() >= Some(1),
        "the commit is built",
    );
    let s = status(&app);
    let hint = s["contentDiagnostics"][0]["message"].as_str().unwrap();
    assert!(
        hint.contains("2 brand folder(s) under `content`")
            && hint.contains("serve them with --git-path content"),
        "{hint}"
    );
    assert_eq!(s["contentDiagnostics"][0]["severity"], "error");
    assert_eq!(s["contentDiagnostics"][0]["code"], "MQ1009");
    assert_eq!(s["ready"], false);
    let ready = app.get("/readyz");
    assert_eq!(ready.status, 503);
    assert!(
        ready.text().contains("no brand is published"),
        "{}",
        ready.text()
    );
    // As the hint says: the brands are served, and marque is ready; a
    // brand's diagnostic names its file by its path in the repository.
    remote.set_version("content/lumen-health", "3.0.0-beta.2", "v3");
    remote.commit("A version with a v", 2);
    let cache = tempfile::tempdir().unwrap();
    args.git_source().unwrap().prefix = "content/".into();
    args.cache_dir = cache.path().to_path_buf();
    let served = spawn_with(args);
    assert_eq!(served.get("/brand/northwind/spec.json").status, 200);
    let s = status(&served);
    assert!(s["contentDiagnostics"].as_array().unwrap().is_empty());
    let lumen = s["unpublished"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["slug"] == "lumen-health")
        .unwrap();
    assert_eq!(
        lumen["diagnostics"][0]["file"], "content/lumen-health/brand.json",
        "{lumen:#}"
    );
}
