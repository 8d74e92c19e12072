//! The authoring loop as a brand author lives it: a content folder inside a
//! git work tree, quiet while nobody edits, every mistake shown at once in
//! the terminal and the browser, and one broken or crashing brand never
//! stopping the others.

use crate::helpers::*;
use git2::{IndexAddOption, Repository, Signature};
use marque::build::Fault;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A git work tree holding the example content under `content/`, committed and tagged,
/// as in every author's clone.
struct WorkTree {
    dir: tempfile::TempDir,
    repo: Repository,
}

impl WorkTree {
    fn new() -> WorkTree {
        let dir = tempfile::tempdir().unwrap();
        let repo = Repository::init(dir.path()).unwrap();
        copy_dir(&example_content(), &dir.path().join("content"));
        std::fs::write(dir.path().join("README.md"), "brands\n").unwrap();
        let w = WorkTree { dir, repo };
        w.commit("Add the brands");
        w.tag("northwind@2.4.0", "Release 2.4.0");
        w
    }

    fn tag(&self, name: &str, message: &str) {
        let head = self
            .repo
            .head()
            .unwrap()
            .peel(git2::ObjectType::Commit)
            .unwrap();
        let sig = Signature::now("Author", "author@example.com").unwrap();
        self.repo.tag(name, &head, &sig, message, false).unwrap();
    }

    fn content(&self) -> PathBuf {
        self.dir.path().join("content")
    }

    fn commit(&self, message: &str) {
        let mut index = self.repo.index().unwrap();
        index.add_all(["*"], IndexAddOption::DEFAULT, None).unwrap();
        index.write().unwrap();
        let tree = self.repo.find_tree(index.write_tree().unwrap()).unwrap();
        let sig = Signature::now("Author", "author@example.com").unwrap();
        let parent = self.repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        let parents: Vec<&git2::Commit> = parent.iter().collect();
        self.repo
            .commit(Some("HEAD"), &sig, &sig, message, &tree, &parents)
            .unwrap();
    }
}

fn generation(app: &TestApp) -> u64 {
    app.get("/status").json()["generation"].as_u64().unwrap()
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} contains {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

const NW_SUMMARY: &str = "Outdoor gear for people who go out in any weather.";

#[test]
fn content_in_a_git_work_tree_is_quiet_when_idle_and_after_an_edit() {
    let tree = WorkTree::new();
    let app = spawn_app(&tree.content());
    let start = generation(&app);
    // The rebuild loop this guards against ran ten times a second.
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(generation(&app), start, "no rebuild while nobody edits");
    let changelog = app.get("/brand/northwind/changelog.json").json();
    assert_eq!(
        changelog["releases"][0]["version"], "2.4.0",
        "tags feed the changelog"
    );

    edit(
        &tree.content().join("northwind/brand.json"),
        NW_SUMMARY,
        "Edited in a work tree.",
    );
    app.wait_until(
        |a| {
            a.get("/brand/northwind/spec.json").json()["summary"]
                .as_str()
                .unwrap_or("")
                .starts_with("Edited in a work tree.")
        },
        "the edit is served",
    );
    let after = generation(&app);
    assert_eq!(after, start + 1, "one edit, one rebuild");
    std::thread::sleep(Duration::from_secs(2));
    assert_eq!(generation(&app), after, "quiet again after the edit");
}

#[test]
fn a_save_that_changes_nothing_swaps_nothing() {
    let tree = WorkTree::new();
    let app = spawn_app(&tree.content());
    let start = generation(&app);
    let path = tree.content().join("lumen-health/brand.json");
    let text = std::fs::read_to_string(&path).unwrap();
    // Saved twice with the same bytes, and a stray file that is no content.
    // Each save replaces the file whole (as editors that write a temporary
    // file and rename it do): a write that truncates first can be read
    // half-done on a loaded machine, which is a change, not this test's case.
    for _ in 0..2 {
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, &text).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
    }
    std::fs::write(tree.content().join("lumen-health/notes.txt.swp"), "x").unwrap();
    // A real change elsewhere shows the watcher has seen everything before it.
    edit(
        &tree.content().join("northwind/brand.json"),
        NW_SUMMARY,
        "Only this changed.",
    );
    app.wait_until(
        |a| {
            a.get("/brand/northwind/spec.json").json()["summary"]
                .as_str()
                .unwrap_or("")
                .starts_with("Only this changed.")
        },
        "the real change is served",
    );
    assert_eq!(generation(&app), start + 1);
}

#[test]
fn tagging_a_release_in_the_work_tree_updates_the_changelog() {
    let tree = WorkTree::new();
    let app = spawn_app(&tree.content());
    edit(
        &tree.content().join("lumen-health/brand.json"),
        "\"3.0.0-beta.2\"",
        "\"3.0.0-beta.3\"",
    );
    tree.commit("Lumen beta 3");
    let head = tree
        .repo
        .head()
        .unwrap()
        .peel(git2::ObjectType::Commit)
        .unwrap();
    tree.repo
        .tag_lightweight("lumen-health@3.0.0-beta.3", &head, false)
        .unwrap();
    app.wait_until(
        |a| {
            a.get("/brand/lumen-health/changelog.json").json()["releases"][0]["version"]
                == "3.0.0-beta.3"
        },
        "the new tag is a release",
    );
}

/// Runs the real binary on `content` with stderr captured (not a terminal).
struct Binary {
    child: Child,
    log: Arc<Mutex<String>>,
    port: u16,
}

impl Binary {
    fn start(content: &Path, env: &[(&str, &str)]) -> Binary {
        let port = free_port();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_marque"));
        cmd.args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .arg("--content")
            .arg(content)
            .env_remove("MARQUE_LOG_FORMAT")
            .env_remove("NO_COLOR")
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().unwrap();
        let log = Arc::new(Mutex::new(String::new()));
        let stderr = child.stderr.take().unwrap();
        let sink = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                let mut l = sink.lock().unwrap();
                l.push_str(&line);
                l.push('\n');
            }
        });
        let b = Binary { child, log, port };
        b.wait_for_log("generation 1)");
        b
    }

    fn log(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    fn wait_for_log(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            let log = self.log();
            if log.contains(needle) {
                return log;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the log never said {needle:?}:\n{}", self.log());
    }
}

impl Drop for Binary {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn the_terminal_shows_a_broken_save_as_frames_without_colour_codes() {
    let tree = WorkTree::new();
    for no_color in [true, false] {
        let env: &[(&str, &str)] = if no_color { &[("NO_COLOR", "1")] } else { &[] };
        let bin = Binary::start(&tree.content(), env);
        let path = tree.content().join("northwind/brand.json");
        edit(&path, "\"2.4.0\"", "\"3.2\"");
        let log = bin.wait_for_log("kept stale");
        edit(&path, "\"3.2\"", "\"2.4.0\"");
        let log_after = bin.wait_for_log("recovered");
        assert!(
            !log_after.contains('\x1b'),
            "no ANSI codes without a terminal:\n{log}"
        );
        assert!(log.contains("change northwind/brand.json"), "{log}");
        assert!(
            log.contains(
                "error[MQ1201]: version \"3.2\" is not a semantic version MAJOR.MINOR.PATCH (unexpected end of input while parsing minor version number)\n --> northwind/brand.json:4:14\n  |\n4 |   \"version\": \"3.2\",\n  |              ^^^^^\n"
            ),
            "a frame with the file, line, column, source line and caret:\n{log}"
        );
        assert!(
            log.contains("northwind kept stale (still serving 2.4.0)"),
            "{log}"
        );
        assert!(
            log_after.contains("northwind recovered 2.4.0"),
            "{log_after}"
        );
        assert!(
            !log.contains("brand=") && !log.contains("snapshot swapped in"),
            "no fields trailing the frame, no success line after a failure:\n{log}"
        );
        drop(bin);
    }
}

/// The bundled brands are what a new user sees first: nothing in them
/// warns about what a user cannot act on.
#[test]
fn the_bundled_brands_start_with_no_warning() {
    let app = spawn_app(&example_content());
    for slug in ["northwind", "lumen-health"] {
        let status = brand_status(&app, slug).unwrap();
        assert_eq!(status["warnings"], 0, "{slug}: {:#}", status["diagnostics"]);
    }
}

#[test]
fn warnings_are_counted_the_same_in_check_and_status() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    // Two tolerated deviations: a 3-digit hex and a unitless zero.
    let path = dir.path().join("northwind/tokens.json");
    let mut tokens: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    tokens["legacy"] = serde_json::json!({
        "white": { "$type": "color", "$value": "#fff" },
        "gap": { "$type": "dimension", "$value": 0 }
    });
    std::fs::write(&path, serde_json::to_string_pretty(&tokens).unwrap()).unwrap();
    let app = spawn_app(dir.path());
    let warnings: u64 = ["northwind", "lumen-health"]
        .iter()
        .map(|s| brand_status(&app, s).unwrap()["warnings"].as_u64().unwrap())
        .sum();
    let listed: usize = ["northwind", "lumen-health"]
        .iter()
        .map(|s| {
            brand_status(&app, s).unwrap()["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|d| d["severity"] == "warning")
                .count()
        })
        .sum();
    assert_eq!(warnings as usize, listed);
    assert!(warnings >= 2, "both deviations warn: {warnings}");
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check"])
        .arg(dir.path())
        .env_remove("MARQUE_CONTENT")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("0 error(s), {warnings} warning(s)")),
        "check counts {warnings} warnings like /status:\n{text}"
    );
}

#[test]
fn a_broken_new_brand_has_a_page_and_a_marker_on_the_index() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    copy_dir(
        &dir.path().join("northwind"),
        &dir.path().join("northwind-copy"),
    );
    copy_dir(&dir.path().join("northwind"), &dir.path().join("eastwind"));
    edit(
        &dir.path().join("eastwind/brand.json"),
        "\"2.4.0\"",
        "\"v2\"",
    );
    let app = spawn_app(dir.path());

    let page = app.get_with(
        "/brand/eastwind",
        &[("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")],
    );
    assert_eq!(page.status, 404);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let html = page.text();
    assert!(
        html.contains("<code>eastwind</code> is not published"),
        "{html}"
    );
    assert!(html.contains("eastwind/brand.json:4:14"), "{html}");
    assert!(
        html.contains("must not start with <code>v</code>"),
        "{html}"
    );
    // A client that asks for JSON still gets a problem.
    let problem = app.get("/brand/eastwind");
    assert_eq!(problem.status, 404);
    assert_eq!(
        problem.header("content-type"),
        Some("application/problem+json")
    );

    let index = app.get("/").text();
    assert!(
        index.contains("<code class=\"slug\">northwind-copy</code>"),
        "slugs tell copies apart"
    );
    assert!(index.contains("<code class=\"slug\">northwind</code>"));
    assert!(index.contains("not published: 1 error(s)"), "{index}");

    let slash = app.get("/brand/northwind/");
    assert_eq!(slash.status, 308);
    assert_eq!(slash.header("location"), Some("/brand/northwind"));
    assert_eq!(app.get("/brand/eastwind/").status, 308);
    assert_eq!(app.get("/brand/nobody/").status, 404);
}

#[test]
fn a_stale_brand_shows_its_errors_on_its_page_and_the_index() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    let app = spawn_app(dir.path());
    edit(
        &dir.path().join("northwind/brand.json"),
        "\"2.4.0\"",
        "\"2.4\"",
    );
    app.wait_until(
        |a| brand_status(a, "northwind").is_some_and(|b| b["state"] == "stale"),
        "northwind is stale",
    );
    let page = app.get("/brand/northwind").text();
    assert!(page.contains("id=\"marque-diagnostics\""), "{page}");
    assert!(page.contains("northwind/brand.json:4:14"));
    assert!(
        page.contains("Spec version 2.4.0"),
        "the last good version is shown"
    );
    assert!(app.get("/").text().contains("stale: 1 error(s)"));
}

#[test]
fn a_panic_in_one_brand_leaves_the_others_serving_and_reloading() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    let mut args = serve_config(dir.path());
    args.build.fault = Some(Fault::Panic("northwind".into()));
    let app = spawn_with(args);
    let st = brand_status(&app, "northwind").unwrap();
    assert_eq!(
        st["diagnostics"][0]["code"], "MQ2412",
        "internal-error: {st}"
    );
    assert!(
        st["diagnostics"][0]["message"]
            .as_str()
            .unwrap()
            .starts_with("marque failed while checking this brand (a bug"),
        "{st}"
    );
    assert_eq!(app.get("/brand/northwind/spec.json").status, 404);
    assert_eq!(app.get("/brand/lumen-health/spec.json").status, 200);
    // The reload loop is alive: another brand's edit is served.
    edit(
        &dir.path().join("lumen-health/brand.json"),
        "warm, exact and never alarming",
        "warm and exact",
    );
    app.wait_until(
        |a| {
            a.get("/brand/lumen-health/spec.json")
                .text()
                .contains("warm and exact")
        },
        "lumen-health updates after northwind's panic",
    );
}

#[test]
fn a_brand_over_its_time_budget_is_left_behind_and_others_go_on() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    let mut args = serve_config(dir.path());
    args.build.budget = Duration::from_millis(1500);
    args.build.fault = Some(Fault::Stall(
        vec!["northwind".into()],
        Duration::from_secs(20),
    ));
    let started = Instant::now();
    let app = spawn_with_readiness(args, true);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "ready before the stall ends"
    );
    assert_eq!(app.get("/brand/lumen-health/spec.json").status, 200);
    // Stopped at its limit, not when its work would have ended.
    let message = app.wait_until_some(
        |a| {
            let st = brand_status(a, "northwind")?;
            let d = &st["diagnostics"][0];
            let message = d["message"].as_str()?;
            assert_eq!(d["code"], "MQ2411", "timed-out: {d}");
            Some(message.to_string())
        },
        "northwind has its diagnostic",
    );
    assert!(message.contains("took longer than 1.5 s"), "{message}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "stopped at 1.5 s"
    );
}

/// A content folder with no brand at its top is not ready (a load
/// balancer must not send traffic to a site that serves nothing) and says
/// where brand folders are; `--allow-empty` makes an empty site ready.
#[test]
fn a_folder_with_no_brand_at_its_top_is_not_ready_and_says_where_they_are() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), &dir.path().join("site/content"));
    let app = spawn_with_readiness(serve_config(dir.path()), false);
    app.wait_until(
        |a| a.get("/status").json()["generation"].as_u64() >= Some(1),
        "the folder is built",
    );
    assert_eq!(app.get("/readyz").status, 503);
    let hint = app.get("/status").json()["contentDiagnostics"][0]["message"]
        .as_str()
        .unwrap()
        .to_string();
    let expected = format!(
        "serve them with --content {}",
        dir.path().join("site/content").display()
    );
    assert!(hint.contains(&expected), "{hint}");
    let empty = tempfile::tempdir().unwrap();
    let mut args = serve_config(empty.path());
    args.build.allow_empty = true;
    let app = spawn_with(args);
    assert_eq!(app.get("/readyz").status, 200);
    let warning = &app.get("/status").json()["contentDiagnostics"][0];
    assert_eq!(warning["severity"], "warning", "{warning}");
}

/// A token removed without raising the version (a breaking change under a
/// released version): the serving terminal shows the new warning as a
/// frame, in words that fit serving, and the API page says it too.
#[test]
fn a_breaking_change_under_a_released_version_is_shown_not_counted() {
    let tree = WorkTree::new();
    let bin = Binary::start(&tree.content(), &[("NO_COLOR", "1")]);
    let tokens = tree.content().join("northwind/tokens.json");
    edit(
        &tokens,
        "    \"lg\": { \"$value\": { \"value\": 1.5, \"unit\": \"rem\" } },\n    \"xl\": { \"$value\": { \"value\": 3, \"unit\": \"rem\" } }",
        "    \"lg\": { \"$value\": { \"value\": 1.5, \"unit\": \"rem\" } }",
    );
    let log = bin.wait_for_log("(1 new)");
    let frame = "warning[MQ1207]: ";
    let at = log
        .rfind(frame)
        .unwrap_or_else(|| panic!("a warning frame:\n{log}"));
    let shown = &log[at..];
    assert!(
        shown.contains("northwind@2.4.0). It is published, as `--semver warn` allows")
            && shown.contains(" --> northwind/brand.json:4:14"),
        "the frame says what happened and where:\n{log}"
    );
    assert!(!log.contains("to publish anyway"), "{log}");
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], bin.port));
    let page = raw_request(addr, "GET", "/brand/northwind", &[], None).text();
    assert!(
        page.contains("<aside id=\"marque-version\" role=\"note\"><strong>Version 2.4.0</strong>"),
        "{page}"
    );
    // Its Markdown code spans are code, not backticks.
    let note = &page[page.find("<aside id=\"marque-version\"").unwrap()..];
    let note = &note[..note.find("</aside>").unwrap()];
    assert!(
        note.contains("<code>--semver warn</code>") && !note.contains('`'),
        "{note}"
    );
    // The page's changelog has the Unreleased work, with what it removes.
    let changelog = &page[page.find("<section id=\"changelog\">").unwrap()..];
    assert!(
        changelog.contains("<h3>Unreleased</h3><p>brand.json is still at 2.4.0, a released version: these changes need a new version.</p><h4>Removed</h4><ul><li>")
            && changelog.contains("<code>space.xl</code>")
            && changelog.contains("<small>(major)</small>"),
        "{changelog}"
    );
}

/// The first build's warnings are new too: each is a frame, with where it
/// is written; the bundled brands start with none.
#[test]
fn the_first_build_shows_each_warning_as_a_frame() {
    let bundled = Binary::start(&example_content(), &[("NO_COLOR", "1")]);
    let log = bundled.wait_for_log("(generation 1)");
    assert!(
        log.contains("northwind added 2.4.0 in") && !log.contains("warning"),
        "{log}"
    );
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    add_figma_gaps(&dir.path().join("northwind/tokens.json"), 1);
    let gapped = Binary::start(dir.path(), &[("NO_COLOR", "1")]);
    let log = gapped.wait_for_log("(1 new)");
    assert!(
        log.contains(
            "warning[MQ2301]: token `line.dotted-0` (strokeStyle) has no Figma variable type"
        ) && log.contains(" --> northwind/tokens.json:2:"),
        "{log}"
    );
}

/// The bundled brands' `$schema` names the schema as marque serves it, so
/// a brand folder copied out of `content/` keeps its editor completion.
#[test]
fn the_bundled_brands_schema_is_the_served_one_from_any_folder() {
    let app = spawn_app(&example_content());
    for slug in ["northwind", "lumen-health"] {
        let text =
            std::fs::read_to_string(example_content().join(slug).join("brand.json")).unwrap();
        let brand: Value = serde_json::from_str(&text).unwrap();
        let url = brand["$schema"].as_str().unwrap();
        let path = url
            .strip_prefix("http://127.0.0.1:8080")
            .unwrap_or_else(|| panic!("{slug}: {url} is where `cargo run --release` serves it"));
        let schema = app.get(path);
        assert_eq!(schema.status, 200, "{slug}: {path}");
        assert_eq!(
            schema.header("content-type"),
            Some("application/schema+json")
        );
    }
}
