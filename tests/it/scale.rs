//! Work proportional to the change: a save reads and renders only its brand,
//! a restart with unchanged content renders nothing (the render cache), and
//! a damaged cache entry is rendered again, never served.

use crate::helpers::*;
use crate::reload::{edit, workspace};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// What the last build did, as /status reports it.
fn last_build(app: &TestApp) -> Value {
    app.get("/status").json()["lastBuild"].clone()
}

/// Whether `slug`'s served spec.md has the "Edited: " its brand book got.
fn edited(app: &TestApp, slug: &str) -> bool {
    let res = app.get(&format!("/brand/{slug}/spec.md"));
    String::from_utf8_lossy(&res.body).contains("# Edited: ")
}

/// `n` copies of northwind next to the example brands.
fn many_brands(root: &Path, n: usize) {
    for i in 0..n {
        copy_dir(&root.join("northwind"), &root.join(format!("brand-{i:02}")));
    }
}

#[test]
fn a_save_in_one_of_many_brands_reads_and_renders_only_that_brand() {
    let ws = workspace();
    many_brands(&ws.root, 20);
    let app = spawn_app(&ws.root);
    let brands = 22;
    assert_eq!(
        last_build(&app),
        json!({"read": brands, "checked": brands, "rendered": brands, "fromCache": 0, "kept": 0}),
        "the first build reads and renders everything"
    );

    edit(&ws.root.join("brand-07/BRAND_BOOK.md"), "# ", "# Edited: ");
    // The served edit, not a new generation: under load a build may start
    // between the watcher's first event and the end of the write.
    app.wait_until(|a| edited(a, "brand-07"), "the edit is served");
    assert_eq!(
        last_build(&app),
        json!({"read": 1, "checked": 1, "rendered": 1, "fromCache": 0, "kept": brands - 1}),
        "one saved brand is read and rendered; the other {} are kept",
        brands - 1
    );

    // A change at the top of the content folder says nothing of which brand
    // changed: everything is read again (and only the edited brand, whose
    // input changed, is rendered).
    std::fs::write(ws.root.join("NOTES.txt"), "not a brand").unwrap();
    edit(&ws.root.join("brand-11/BRAND_BOOK.md"), "# ", "# Edited: ");
    app.wait_until(|a| edited(a, "brand-11"), "the edit is served");
    let work = last_build(&app);
    assert_eq!(
        work["read"], brands,
        "a top-level change reads every brand: {work}"
    );
    assert_eq!(work["rendered"], 1, "{work}");
}

/// The render cache of `dir`: its entries.
fn cache_entries(dir: &Path) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir.join("render")) else {
        return Vec::new();
    };
    let mut entries: Vec<PathBuf> = read.map(|e| e.unwrap().path()).collect();
    entries.sort();
    entries
}

fn serve_with_cache(content: &Path, cache: &Path) -> TestApp {
    let mut args = serve_config(content);
    args.cache_dir = cache.to_path_buf();
    // Renders name the public URL, so a warm start needs the same one (the
    // port changes from run to run).
    args.public_url = Some("https://brands.example.com".into());
    spawn_with(args)
}

/// Every surface of both example brands, in every coding.
fn surfaces(app: &TestApp) -> Vec<(String, Vec<u8>)> {
    let mut all = Vec::new();
    for slug in ["northwind", "lumen-health"] {
        for file in [
            "spec.json",
            "spec.md",
            "tokens.css",
            "tokens.figma.json",
            "llms.txt",
        ] {
            let path = format!("/brand/{slug}/{file}");
            for coding in ["identity", "gzip", "br"] {
                let res = app.get_with(&path, &[("Accept-Encoding", coding)]);
                assert_eq!(res.status, 200, "{path}");
                all.push((format!("{path} {coding}"), res.body));
            }
        }
    }
    all
}

#[test]
fn a_save_replaces_its_brand_entry_in_the_render_cache() {
    let ws = workspace();
    let cache = tempfile::tempdir().unwrap();
    let app = serve_with_cache(&ws.root, cache.path());
    app.wait_until(
        |_| cache_entries(cache.path()).len() == 2,
        "both brands are in the render cache",
    );
    let before = cache_entries(cache.path());
    edit(
        &ws.root.join("northwind/brand.json"),
        "\"version\": \"2.4.0\"",
        "\"version\": \"2.4.1\"",
    );
    app.wait_until(
        |_| {
            let now = cache_entries(cache.path());
            now.len() == 2 && now != before
        },
        "northwind's entry is replaced",
    );
    let kept = cache_entries(cache.path())
        .into_iter()
        .filter(|e| before.contains(e))
        .count();
    assert_eq!(kept, 1, "lumen-health's entry stays");
}

#[test]
fn a_restart_serves_from_the_render_cache_and_ignores_a_damaged_entry() {
    let ws = workspace();
    let cache = tempfile::tempdir().unwrap();
    let first = serve_with_cache(&ws.root, cache.path());
    let rendered = surfaces(&first);
    first.wait_until(
        |_| cache_entries(cache.path()).len() == 2,
        "both brands are in the render cache",
    );
    drop(first);

    let warm = serve_with_cache(&ws.root, cache.path());
    assert_eq!(
        last_build(&warm),
        json!({"read": 2, "checked": 2, "rendered": 0, "fromCache": 2, "kept": 0}),
        "a restart with unchanged content renders nothing"
    );
    assert!(
        surfaces(&warm) == rendered,
        "the cache serves exactly what was rendered"
    );
    drop(warm);

    // One entry damaged in the middle, one cut short: both are rendered
    // again, and what is served is still exactly right.
    let entries = cache_entries(cache.path());
    let mut damaged = std::fs::read(&entries[0]).unwrap();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 0x20;
    std::fs::write(&entries[0], &damaged).unwrap();
    let whole = std::fs::read(&entries[1]).unwrap();
    std::fs::write(&entries[1], &whole[..whole.len() - 7]).unwrap();
    let repaired = serve_with_cache(&ws.root, cache.path());
    assert_eq!(
        last_build(&repaired),
        json!({"read": 2, "checked": 2, "rendered": 2, "fromCache": 0, "kept": 0}),
        "damaged entries are not used"
    );
    assert!(surfaces(&repaired) == rendered);
    repaired.wait_until(
        |_| {
            std::fs::read(&entries[0]).unwrap() != damaged
                && std::fs::read(&entries[1]).unwrap() == whole
        },
        "the damaged entries are written again",
    );
    drop(repaired);
    let again = serve_with_cache(&ws.root, cache.path());
    assert_eq!(last_build(&again)["fromCache"], 2);

    // A brand served from the cache that then breaks is stale, and its page
    // shows the errors over its last good version (parsed when needed).
    edit(
        &ws.root.join("northwind/brand.json"),
        "\"version\": \"2.4.0\"",
        "\"version\": \"v2\"",
    );
    again.wait_until(
        |a| {
            a.get("/status").json()["brands"]
                .as_array()
                .unwrap()
                .iter()
                .any(|b| b["slug"] == "northwind" && b["state"] == "stale")
        },
        "northwind is stale",
    );
    let page = again
        .get_with("/brand/northwind", &[("Accept", "text/html")])
        .text();
    assert!(page.contains("Northwind Outfitters"), "{page}");
    assert!(
        page.contains("must not start with <code>v</code>"),
        "{page}"
    );
    assert!(page.contains("This brand has errors; the last good version is shown"));
    let spec = again.get("/brand/northwind/spec.json");
    assert!(
        surfaces(&again).contains(&("/brand/northwind/spec.json identity".to_string(), spec.body))
    );
}

#[test]
fn a_first_build_is_served_at_once_ready_with_gzip_and_brotli_follows() {
    let ws = workspace();
    many_brands(&ws.root, 200);
    let app = spawn_with_readiness(serve_config(&ws.root), false);
    // Before ready, whatever a client gets is a whole, correct body.
    let identity = app.wait_until_some(
        |a| {
            let res = a.get("/brand/brand-100/spec.json");
            (res.status == 200).then_some(res.body)
        },
        "the first build is served",
    );
    app.wait_until(|a| a.get("/readyz").status == 200, "marque becomes ready");
    // Once /readyz says so, every brand, current and released, has its
    // gzip coding: a client that takes brotli gets brotli or, until its
    // body's brotli coding exists, gzip; never an uncompressed body.
    let mut saw_gzip_for_br = false;
    for slug in ["brand-01", "brand-100", "brand-199", "northwind"] {
        let path = format!("/brand/{slug}/spec.json");
        let br = app.get_with(&path, &[("Accept-Encoding", "br, gzip")]);
        match br.header("content-encoding") {
            Some("br") => assert!(!unbrotli(&br.body).is_empty()),
            Some("gzip") => saw_gzip_for_br = true,
            other => panic!("{path}: {other:?}"),
        }
        let gz = app.get_with(&path, &[("Accept-Encoding", "gzip")]);
        assert_eq!(gz.header("content-encoding"), Some("gzip"), "{path}");
        if slug == "brand-100" {
            assert_eq!(gunzip(&gz.body), identity);
        }
    }
    println!("a br client got gzip while brotli followed: {saw_gzip_for_br}");
    // Then brotli follows for every body.
    app.wait_until(
        |a| a.get("/status").json()["brotliPending"] == false,
        "every body has its brotli coding",
    );
    for slug in ["brand-01", "brand-100", "brand-199", "northwind"] {
        let path = format!("/brand/{slug}/spec.json");
        let br = app.get_with(&path, &[("Accept-Encoding", "br")]);
        assert_eq!(br.header("content-encoding"), Some("br"), "{path}");
        if slug == "brand-100" {
            assert_eq!(unbrotli(&br.body), identity);
        }
    }
    for path in ["/", "/brands.json", "/llms.txt", "/openapi.json"] {
        let gz = app.get_with(path, &[("Accept-Encoding", "gzip")]);
        assert_eq!(gz.header("content-encoding"), Some("gzip"), "{path}");
    }
    // The large documents about every brand were ready with gzip alone;
    // their brotli coding follows as every body's does.
    let br = |a: &TestApp, path: &str| {
        let res = a.get_with(path, &[("Accept-Encoding", "br")]);
        (res.header("content-encoding") == Some("br")).then(|| unbrotli(&res.body))
    };
    app.wait_until(
        |a| {
            ["/brands.json", "/openapi.json"]
                .iter()
                .all(|p| br(a, p).is_some())
        },
        "the lists and /openapi.json get their brotli coding",
    );
    let openapi = app.get("/openapi.json").body;
    assert!(openapi.len() > 256 * 1024, "{} bytes", openapi.len());
    assert_eq!(br(&app, "/openapi.json").unwrap(), openapi);
    assert_eq!(app.get("/status").json()["ready"], true);
}

/// The version a list of brands (`/brands.json`, `/status`) gives `slug`,
/// as `headers` see it.
fn version_listed(
    app: &TestApp,
    path: &str,
    slug: &str,
    headers: &[(&str, &str)],
) -> Option<Value> {
    let doc = app.get_with(path, headers).json();
    doc["brands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["slug"] == slug)
        .map(|b| b["version"].clone())
}

#[test]
fn with_many_brands_a_save_is_served_first_and_the_lists_of_all_brands_follow() {
    let ws = workspace();
    add_figma_gaps(&ws.root.join("northwind/tokens.json"), 12);
    many_brands(&ws.root, 100);
    let app = spawn_app(&ws.root);
    let status = app.get("/status").text();
    assert!(
        status.len() > 256 * 1024,
        "/status is large enough to be rebuilt after the save: {} bytes",
        status.len()
    );
    edit(
        &ws.root.join("brand-50/brand.json"),
        "\"version\": \"2.4.0\"",
        "\"version\": \"2.5.0\"",
    );
    let version = |a: &TestApp| a.get("/brand/brand-50/spec.json").json()["version"].clone();
    app.wait_until(|a| version(a) == "2.5.0", "the save is served");
    let listed = |a: &TestApp, path: &str| version_listed(a, path, "brand-50", &[]);
    app.wait_until(
        |a| {
            listed(a, "/brands.json") == Some(json!("2.5.0"))
                && listed(a, "/status") == Some(json!("2.5.0"))
        },
        "brands.json and /status list the new version",
    );
    assert!(app.get("/").text().contains("2.5.0"), "so does the index");

    // Saves in quick succession: the lists end at the last, and lists made
    // for an earlier save never replace it afterwards.
    for (from, to) in [("2.5.0", "2.6.0"), ("2.6.0", "2.7.0"), ("2.7.0", "2.8.0")] {
        edit(
            &ws.root.join("brand-50/brand.json"),
            &format!("\"version\": \"{from}\""),
            &format!("\"version\": \"{to}\""),
        );
        std::thread::sleep(std::time::Duration::from_millis(150));
    }
    app.wait_until(
        |a| listed(a, "/brands.json") == Some(json!("2.8.0")),
        "brands.json lists the last save",
    );
    for _ in 0..10 {
        assert_eq!(listed(&app, "/brands.json"), Some(json!("2.8.0")));
        assert_eq!(listed(&app, "/status"), Some(json!("2.8.0")));
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_token_holders_lists_of_all_brands_follow_a_save_as_the_public_ones_do() {
    use crate::access::{bearer, tokens_file, ALL};
    let ws = workspace();
    add_figma_gaps(&ws.root.join("northwind/tokens.json"), 12);
    many_brands(&ws.root, 100);
    edit(
        &ws.root.join("lumen-health/brand.json"),
        "\"name\": \"Lumen Health\",",
        "\"name\": \"Lumen Health\",\n  \"visibility\": \"private\",",
    );
    let tokens = tempfile::tempdir().unwrap();
    let mut config = serve_config(&ws.root);
    config.access_tokens = Some(tokens_file(tokens.path()));
    let app = spawn_with(config);
    let token = bearer(ALL);
    let holder = [("Authorization", token.as_str())];
    let listed = |a: &TestApp, path: &str, slug: &str| version_listed(a, path, slug, &holder);
    assert!(listed(&app, "/brands.json", "lumen-health").is_some());
    let status = app.get_with("/status", &holder).text();
    assert!(status.len() > 256 * 1024, "{} bytes", status.len());
    for (from, to) in [("2.4.0", "2.5.0"), ("2.5.0", "2.6.0"), ("2.6.0", "2.7.0")] {
        edit(
            &ws.root.join("brand-50/brand.json"),
            &format!("\"version\": \"{from}\""),
            &format!("\"version\": \"{to}\""),
        );
        std::thread::sleep(std::time::Duration::from_millis(150));
    }
    app.wait_until(
        |a| {
            listed(a, "/brands.json", "brand-50") == Some(json!("2.7.0"))
                && listed(a, "/status", "brand-50") == Some(json!("2.7.0"))
        },
        "the holder's lists follow the last save",
    );
    for _ in 0..10 {
        assert_eq!(
            listed(&app, "/brands.json", "brand-50"),
            Some(json!("2.7.0"))
        );
        assert!(listed(&app, "/brands.json", "lumen-health").is_some());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Public readers' lists follow too, and never name the private brand.
    app.wait_until(
        |a| a.get("/brands.json").text().contains("2.7.0"),
        "the public lists follow",
    );
    assert!(!app.get("/brands.json").text().contains("lumen-health"));
    // A holder's large documents get their brotli coding as the public
    // ones do, and are the holder's own.
    app.wait_until(
        |a| {
            let res = a.get_with("/brands.json", &[holder[0], ("Accept-Encoding", "br")]);
            res.header("content-encoding") == Some("br")
                && String::from_utf8_lossy(&unbrotli(&res.body)).contains("lumen-health")
        },
        "a holder's lists get their brotli coding",
    );
}

#[test]
fn a_brands_diagnostics_are_held_once_by_its_state_and_its_render() {
    use marque::build::{build_catalog, Catalog};
    // Ten thousand brands with ten warnings each: a second copy of every
    // list was tens of megabytes.
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    add_figma_gaps(&dir.path().join("northwind/tokens.json"), 10);
    let content = marque::source::read_folder(dir.path()).unwrap();
    let catalog = build_catalog(
        &content,
        &crate::surfaces::ctx(),
        marque::spec::Moment::at(chrono::Utc::now()),
        &Catalog::default(),
        &Default::default(),
    );
    let mut with_warnings = 0;
    for state in catalog.brands.values() {
        let published = state.published.as_ref().unwrap();
        assert!(
            std::sync::Arc::ptr_eq(&state.diagnostics, &published.warnings),
            "{}: two copies of its diagnostics",
            state.slug
        );
        with_warnings += usize::from(!state.diagnostics.is_empty());
    }
    assert!(with_warnings > 0, "Northwind has warnings");
}

#[test]
fn status_and_metrics_report_the_bytes_each_brand_holds() {
    let ws = workspace();
    let app = spawn_app(&ws.root);
    // Taken together once the first build's codings are in (the figures
    // grow when they arrive).
    let agreed = |a: &TestApp| {
        let status = a.get("/status").json();
        let metrics = a.get("/metrics").text();
        let brands = status["brands"].as_array().unwrap().clone();
        let per_brand: Vec<(String, u64)> = brands
            .iter()
            .map(|b| {
                let slug = b["slug"].as_str().unwrap().to_string();
                (slug, b["bytes"].as_u64().unwrap())
            })
            .collect();
        let exported = |slug: &str| {
            metrics
                .lines()
                .find_map(|l| l.strip_prefix(&format!("marque_brand_bytes{{brand=\"{slug}\"}} ")))
                .and_then(|v| v.parse::<u64>().ok())
        };
        let same = per_brand
            .iter()
            .all(|(slug, bytes)| exported(slug) == Some(*bytes));
        let total = status["snapshotBytes"].as_u64().unwrap();
        let snapshot_metric = metrics
            .lines()
            .find_map(|l| l.strip_prefix("marque_snapshot_bytes "))
            .and_then(|v| v.parse::<u64>().ok());
        (same && snapshot_metric == Some(total)).then_some((per_brand, total))
    };
    let mut seen = None;
    app.wait_until(
        |a| {
            seen = agreed(a);
            seen.is_some()
        },
        "/status and /metrics report the same bytes",
    );
    let (per_brand, total) = seen.unwrap();
    assert_eq!(per_brand.len(), 2, "{per_brand:?}");
    for (slug, bytes) in &per_brand {
        // Every surface in identity at least: tens of kilobytes.
        assert!(*bytes > 20_000, "{slug} holds {bytes} bytes");
    }
    let brands: u64 = per_brand.iter().map(|(_, b)| b).sum();
    // The snapshot holds the brands and the documents about them.
    assert!(total > brands, "snapshot {total} bytes, brands {brands}");
}
