//! Hot reload over real files and the real server: every save is served,
//! a broken brand keeps its last good version, other brands keep updating.

use crate::helpers::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub struct Workspace {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
}

pub fn workspace() -> Workspace {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    copy_dir(&example_content(), &root);
    Workspace { _dir: dir, root }
}

/// Saves like an editor does: write a temporary file, then rename it over the target.
pub fn save(path: &Path, text: &str) {
    let tmp = path.with_file_name(format!(
        ".{}.tmp",
        path.file_name().unwrap().to_str().unwrap()
    ));
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

pub fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} contains {from:?}", path.display());
    save(path, &text.replacen(from, to, 1));
}

fn summary(app: &TestApp, slug: &str) -> Option<String> {
    let res = app.get(&format!("/brand/{slug}/spec.json"));
    (res.status == 200).then(|| {
        res.json()["summary"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    })
}

const NW_SUMMARY: &str = "Outdoor gear for people who go out in any weather.";

#[test]
fn a_saved_edit_is_served() {
    let ws = workspace();
    let app = spawn_app(&ws.root);
    edit(
        &ws.root.join("northwind/brand.json"),
        NW_SUMMARY,
        "Gear for every weather, tested on the fjords.",
    );
    app.wait_until(
        |a| {
            summary(a, "northwind")
                .unwrap()
                .starts_with("Gear for every weather")
        },
        "the edit is served",
    );
    assert_eq!(brand_status(&app, "northwind").unwrap()["state"], "ok");
}

#[test]
fn a_broken_brand_keeps_its_last_good_version_and_others_keep_updating() {
    let ws = workspace();
    let app = spawn_app(&ws.root);
    let before = app.get("/brand/northwind/spec.json").body;

    // Broken JSON.
    edit(
        &ws.root.join("northwind/brand.json"),
        "\"version\": \"2.4.0\",",
        "\"version\": \"2.4.0\"",
    );
    app.wait_until(
        |a| brand_status(a, "northwind").unwrap()["state"] == "stale",
        "northwind is stale",
    );
    let st = brand_status(&app, "northwind").unwrap();
    let d = &st["diagnostics"][0];
    assert_eq!(d["file"], "northwind/brand.json");
    assert_eq!(d["line"], 5);
    assert_eq!(d["code"], "MQ1002", "invalid-json: {d}");
    assert_eq!(
        st["version"], "2.4.0",
        "the served version is the last good one"
    );
    assert_eq!(
        app.get("/brand/northwind/spec.json").body,
        before,
        "last good render is served"
    );
    let status = app.get("/status").json();
    assert!(status["lastFailure"]["since"].is_string());
    assert_eq!(
        status["lastFailure"]["diagnostics"][0]["file"],
        "northwind/brand.json"
    );

    // Another brand keeps updating meanwhile.
    edit(
        &ws.root.join("lumen-health/brand.json"),
        "warm, exact and never alarming",
        "warm, exact and calm",
    );
    app.wait_until(
        |a| {
            summary(a, "lumen-health")
                .unwrap()
                .contains("warm, exact and calm")
        },
        "lumen-health updates",
    );
    assert_eq!(brand_status(&app, "northwind").unwrap()["state"], "stale");

    // Fixed, but with an invalid version, then an impossible date.
    edit(
        &ws.root.join("northwind/brand.json"),
        "\"version\": \"2.4.0\"",
        "\"version\": \"2.5\",",
    );
    app.wait_until(
        |a| brand_status(a, "northwind").unwrap()["diagnostics"][0]["code"] == "MQ1201",
        "the semver error is reported",
    );
    // One save: the version is fixed and the date broken at once.
    let path = ws.root.join("northwind/brand.json");
    let text = std::fs::read_to_string(&path).unwrap();
    save(
        &path,
        &text
            .replacen("\"version\": \"2.5\",", "\"version\": \"2.5.0\",", 1)
            .replacen("\"2026-10-14\"", "\"2026-02-30\"", 1),
    );
    app.wait_until(
        |a| brand_status(a, "northwind").unwrap()["diagnostics"][0]["code"] == "MQ1202",
        "the date error is reported",
    );
    assert_eq!(app.get("/brand/northwind/spec.json").body, before);

    // Fixed for real: the new version is served and the failure clears.
    edit(
        &ws.root.join("northwind/brand.json"),
        "\"2026-02-30\"",
        "\"2026-10-20\"",
    );
    app.wait_until(
        |a| a.get("/brand/northwind/spec.json").json()["version"] == "2.5.0",
        "the fix is served",
    );
    assert_eq!(brand_status(&app, "northwind").unwrap()["state"], "ok");
    assert!(app.get("/status").json()["lastFailure"].is_null());
}

#[test]
fn brands_appear_and_disappear_with_their_folders() {
    let ws = workspace();
    let app = spawn_app(&ws.root);

    // A new, valid brand is published.
    copy_dir(&ws.root.join("northwind"), &ws.root.join("southwind"));
    app.wait_until(
        |a| a.get("/brand/southwind/spec.json").status == 200,
        "the new brand is served",
    );
    assert!(app.get("/brands.json").text().contains("\"southwind\""));

    // A new brand with errors is not published, and says why.
    let bad = ws.root.join("eastwind");
    copy_dir(&ws.root.join("northwind"), &bad);
    edit(&bad.join("brand.json"), "\"2.4.0\"", "\"v2\"");
    app.wait_until(
        |a| brand_status(a, "eastwind").is_some(),
        "the broken brand is reported",
    );
    assert_eq!(app.get("/brand/eastwind/spec.json").status, 404);
    let st = app.get("/status").json();
    assert_eq!(st["unpublished"][0]["slug"], "eastwind");

    // A deleted brand is unpublished.
    std::fs::remove_dir_all(ws.root.join("southwind")).unwrap();
    app.wait_until(
        |a| a.get("/brand/southwind/spec.json").status == 404,
        "the deleted brand is gone",
    );
    assert!(!app.get("/brands.json").text().contains("\"southwind\""));
    assert_eq!(app.get("/brand/northwind/spec.json").status, 200);
}

#[test]
fn rapid_saves_end_with_the_last_one_served() {
    let ws = workspace();
    let app = spawn_app(&ws.root);
    let path = ws.root.join("northwind/brand.json");
    let original = std::fs::read_to_string(&path).unwrap();
    for i in 0..30 {
        save(
            &path,
            &original.replacen(NW_SUMMARY, &format!("Save number {i}."), 1),
        );
    }
    app.wait_until(
        |a| {
            summary(a, "northwind")
                .unwrap()
                .starts_with("Save number 29.")
        },
        "the last save wins",
    );
    std::thread::sleep(Duration::from_millis(400));
    // 30 saves in a burst coalesce: far fewer builds than saves.
    let reloads = app.get("/status").json()["reloads"].as_u64().unwrap();
    assert!(reloads < 15, "{reloads} builds for 30 saves");
    assert!(
        summary(&app, "northwind")
            .unwrap()
            .starts_with("Save number 29."),
        "and stays"
    );
}

#[test]
fn requests_during_continuous_reloads_never_fail_or_tear() {
    let ws = workspace();
    let app = spawn_app(&ws.root);
    let path = ws.root.join("northwind/brand.json");
    let original = std::fs::read_to_string(&path).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let readers: Vec<_> = (0..4)
        .map(|_| {
            let addr = app.addr;
            let stop = stop.clone();
            std::thread::spawn(move || {
                let mut seen = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    let res = raw_request(
                        addr,
                        "GET",
                        "/brand/northwind/spec.json",
                        &[("Accept-Encoding", "br")],
                        None,
                    );
                    assert_eq!(res.status, 200);
                    let body = if res.header("content-encoding") == Some("br") {
                        unbrotli(&res.body)
                    } else {
                        res.body.clone()
                    };
                    let spec: Value =
                        serde_json::from_slice(&body).expect("a whole document, never a torn one");
                    assert_eq!(spec["slug"], "northwind");
                    seen += 1;
                }
                seen
            })
        })
        .collect();
    for i in 0..20 {
        save(
            &path,
            &original.replacen(NW_SUMMARY, &format!("Reload {i}."), 1),
        );
        std::thread::sleep(Duration::from_millis(60));
    }
    app.wait_until(
        |a| summary(a, "northwind").unwrap().starts_with("Reload 19."),
        "the last edit is served",
    );
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let total: usize = readers
        .into_iter()
        .map(|r| r.join().expect("no reader saw an error"))
        .sum();
    assert!(
        total > 20,
        "readers ran during the reloads ({total} requests)"
    );
}

/// Reads server-sent events from `/events` until `count` `snapshot` events arrived.
fn read_events(addr: std::net::SocketAddr, count: usize, during: impl FnOnce()) -> Vec<u64> {
    use std::io::{BufRead, BufReader, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .write_all(b"GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
        .unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let mut reader = BufReader::new(stream);
    let mut generations = Vec::new();
    let mut during = Some(during);
    let mut line = String::new();
    while generations.len() < count {
        line.clear();
        reader.read_line(&mut line).expect("events arrive");
        if let Some(data) = line.trim().strip_prefix("data:") {
            let v: Value = serde_json::from_str(data.trim()).unwrap();
            generations.push(v["generation"].as_u64().unwrap());
            if let Some(f) = during.take() {
                f();
            }
        }
    }
    generations
}

/// The bodies of the scripts a brand's page links from `/assets/`.
fn page_scripts(app: &TestApp, slug: &str) -> Vec<String> {
    let page = app.get(&format!("/brand/{slug}")).text();
    page.split("<script src=\"")
        .skip(1)
        .filter_map(|part| part.split('"').next())
        .filter_map(|url| url.strip_prefix(&app.public_url))
        .filter(|path| path.starts_with("/assets/"))
        .map(|path| {
            let res = app.get(path);
            assert_eq!(res.status, 200, "{path}");
            res.text()
        })
        .collect()
}

#[test]
fn pages_learn_of_new_snapshots_through_server_sent_events() {
    let ws = workspace();
    let app = spawn_app(&ws.root);
    assert!(
        page_scripts(&app, "northwind")
            .iter()
            .any(|s| s.contains("new EventSource(\"/events\")")),
        "the page subscribes in watch mode"
    );
    let path = ws.root.join("northwind/brand.json");
    let generations = read_events(app.addr, 2, || edit(&path, NW_SUMMARY, "Evented."));
    assert!(generations[1] > generations[0], "{generations:?}");
}

#[test]
fn without_watching_there_is_no_live_reload() {
    // Two servers on two copies, one watching: the same edit to both. Once
    // the watching one serves it, a watcher would have had time to see it,
    // so the other still serving the old text shows it does not watch.
    let (quiet, live) = (workspace(), workspace());
    let mut args = serve_config(&quiet.root);
    args.set_watch(Watch::Off);
    let app = spawn_with(args);
    let watching = spawn_app(&live.root);
    assert_eq!(app.get("/events").status, 404);
    assert!(!app.get("/brand/northwind").text().contains("EventSource"));
    let scripts = page_scripts(&app, "northwind");
    assert_eq!(scripts.len(), 1, "the page's own script only");
    assert!(scripts.iter().all(|s| !s.contains("EventSource")));
    for ws in [&quiet, &live] {
        edit(
            &ws.root.join("northwind/brand.json"),
            NW_SUMMARY,
            "Not watched.",
        );
    }
    watching.wait_until(
        |a| summary(a, "northwind").unwrap().starts_with("Not watched."),
        "the watching server serves the edit",
    );
    assert!(summary(&app, "northwind").unwrap().starts_with(NW_SUMMARY));
    assert_eq!(app.get("/status").json()["generation"], 1);
}

#[test]
fn the_polling_watcher_picks_up_edits_too() {
    let ws = workspace();
    let mut args = serve_config(&ws.root);
    args.set_watch(Watch::Polling);
    let app = spawn_with(args);
    edit(
        &ws.root.join("northwind/tokens.json"),
        "[0.0824, 0.3765, 0.6275], \"hex\": \"#1560a0\"",
        "[0.0824, 0.3765, 0.6314], \"hex\": \"#1560a1\"",
    );
    app.wait_until(
        |a| {
            a.get("/brand/northwind/tokens.css")
                .text()
                .contains("#1560a1")
        },
        "the polled edit is served",
    );
}
