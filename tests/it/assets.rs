//! What every page shares (its stylesheet and scripts) is served once, under
//! names hashed from its bytes, immutable, in every coding, and the pages
//! link to it with no inline script and a CSP that allows none; the static
//! site writes the same files where its pages look for them.

use crate::helpers::*;
use sha2::{Digest, Sha256};
use std::process::Command;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// The `/assets/…` URLs an HTML page links to (stylesheets and scripts), in order.
fn asset_links(html: &str) -> Vec<String> {
    let mut links = Vec::new();
    for attr in ["href=\"", "src=\""] {
        for part in html.split(attr).skip(1) {
            let url = part.split('"').next().unwrap();
            if url.contains("/assets/") && !url.contains("/brand/") {
                links.push(url.to_string());
            }
        }
    }
    links
}

/// The path of an absolute URL on `app`.
fn path_of<'a>(app: &TestApp, url: &'a str) -> &'a str {
    url.strip_prefix(&app.public_url)
        .unwrap_or_else(|| panic!("{url} is on {}", app.public_url))
}

/// A directive of a Content-Security-Policy, as its list of sources.
fn directive<'a>(csp: &'a str, name: &str) -> Option<Vec<&'a str>> {
    csp.split(';').map(str::trim).find_map(|d| {
        let mut words = d.split_whitespace();
        (words.next() == Some(name)).then(|| words.collect())
    })
}

/// The first 16 hex digits of the SHA-256 of `bytes`.
fn short_hash(bytes: &[u8]) -> String {
    Sha256::digest(bytes)[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn every_page_links_the_same_hashed_assets_and_has_no_inline_script() {
    let app = spawn_app(&example_content());
    let pages = ["/", "/brand/northwind", "/brand/lumen-health"];
    let mut seen: Option<Vec<String>> = None;
    for page in pages {
        let html = app.get(page).text();
        let links = asset_links(&html);
        // The stylesheet, the page's script, and (watching) live reload.
        assert_eq!(links.len(), 3, "{page}: {links:?}");
        assert!(links[0].ends_with(".css") && links[0].contains("/assets/page."));
        assert!(links[1].contains("/assets/page.") && links[1].ends_with(".js"));
        assert!(links[2].contains("/assets/live.") && links[2].ends_with(".js"));
        assert!(
            html.contains(&format!("<link rel=\"stylesheet\" href=\"{}\">", links[0])),
            "{page}"
        );
        // Every script is a same-origin file; none has a body of its own.
        for script in html.split("<script").skip(1) {
            let open = script.split_once('>').unwrap().0;
            assert!(
                open.contains(&format!(" src=\"{}/", app.public_url)),
                "{page}: <script{open}>"
            );
            assert!(
                script[open.len() + 1..].starts_with("</script>"),
                "{page}: an inline script"
            );
        }
        match &seen {
            Some(first) => assert_eq!(first, &links, "{page} links what every page links"),
            None => seen = Some(links),
        }
    }
}

#[test]
fn an_asset_is_immutable_named_by_its_hash_and_served_in_every_coding() {
    let app = spawn_app(&example_content());
    let html = app.get("/brand/northwind").text();
    for url in asset_links(&html) {
        let path = path_of(&app, &url);
        let media = match path.ends_with(".css") {
            true => "text/css; charset=utf-8",
            false => "text/javascript; charset=utf-8",
        };
        let plain = app.get(path);
        assert_eq!(plain.status, 200, "{path}");
        assert_eq!(plain.header("content-type"), Some(media), "{path}");
        assert_eq!(plain.header("cache-control"), Some(IMMUTABLE), "{path}");
        assert_eq!(plain.header("vary"), Some("Accept-Encoding"), "{path}");
        assert_eq!(plain.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(plain.header("content-encoding"), None, "{path}");
        // The name is the hash of the bytes served.
        let hash = path.rsplit('.').nth(1).unwrap();
        assert_eq!(hash, short_hash(&plain.body), "{path}");
        let etag = plain.header("etag").unwrap().to_string();
        assert!(etag.starts_with('"') && !etag.starts_with("W/"), "{etag}");

        let br = app.get_with(path, &[("Accept-Encoding", "gzip, br")]);
        assert_eq!(br.header("content-encoding"), Some("br"), "{path}");
        assert_eq!(unbrotli(&br.body), plain.body, "{path}");
        assert!(br.body.len() < plain.body.len() / 2, "{path} compresses");
        let gz = app.get_with(path, &[("Accept-Encoding", "gzip")]);
        assert_eq!(gz.header("content-encoding"), Some("gzip"), "{path}");
        assert_eq!(gunzip(&gz.body), plain.body, "{path}");
        for coded in [&br, &gz] {
            assert_eq!(coded.header("cache-control"), Some(IMMUTABLE), "{path}");
            assert_ne!(coded.header("etag"), Some(etag.as_str()), "{path}");
        }

        let again = app.get_with(path, &[("If-None-Match", &etag)]);
        assert_eq!(again.status, 304, "{path}");
        assert!(again.body.is_empty(), "{path}");
        let head = app.request("HEAD", path, &[], None);
        assert_eq!(head.status, 200, "{path}");
        assert!(head.body.is_empty(), "{path}");
        for name in ["content-type", "content-length", "etag", "cache-control"] {
            assert_eq!(
                head.header(name),
                plain.header(name),
                "{name} of HEAD {path}"
            );
        }
        let post = app.request("POST", path, &[], Some(b"x"));
        assert_eq!(post.status, 405, "{path}");
        assert_eq!(post.header("allow"), Some("GET, HEAD, OPTIONS"), "{path}");
    }
}

#[test]
fn an_asset_under_another_hash_is_a_404_problem() {
    let app = spawn_app(&example_content());
    let html = app.get("/brand/northwind").text();
    let css = asset_links(&html).remove(0);
    let real = path_of(&app, &css).to_string();
    let hash = real.rsplit('.').nth(1).unwrap();
    for wrong in [
        real.replace(hash, "0000000000000000"),
        real.replace(hash, &hash[..8]),
        real.replace(&format!(".{hash}"), ""),
        real.replace(".css", ".js"),
        "/assets/".to_string(),
    ] {
        let res = app.get(&wrong);
        assert_eq!(res.status, 404, "{wrong}");
        assert_eq!(
            res.header("content-type"),
            Some("application/problem+json"),
            "{wrong}"
        );
        let problem = res.json();
        assert_eq!(problem["status"], 404, "{wrong}");
        assert!(
            problem["detail"].as_str().unwrap().contains(&wrong),
            "{problem}"
        );
    }
}

#[test]
fn pages_allow_only_same_origin_scripts_and_styles_besides_their_own_inline_ones() {
    let app = spawn_app(&example_content());
    for page in ["/", "/brand/northwind", "/brand/lumen-health"] {
        let res = app.get(page);
        let csp = res.header("content-security-policy").unwrap();
        assert_eq!(directive(csp, "default-src"), Some(vec!["'none'"]), "{csp}");
        // Nothing inline, evaluated or from elsewhere runs: not even by hash.
        assert_eq!(directive(csp, "script-src"), Some(vec!["'self'"]), "{csp}");
        assert!(
            !csp.contains("unsafe-eval") && !csp.contains("sha256-"),
            "{csp}"
        );
        let style = directive(csp, "style-src").unwrap();
        assert!(style.contains(&"'self'"), "the shared stylesheet: {csp}");
        assert!(!style.contains(&"*"), "{csp}");
        assert_eq!(directive(csp, "base-uri"), Some(vec!["'none'"]), "{csp}");
    }
}

#[test]
fn the_live_reload_script_is_linked_and_served_only_while_watching() {
    let watching = spawn_app(&example_content());
    let live = asset_links(&watching.get("/brand/northwind").text())
        .into_iter()
        .find(|u| u.contains("/assets/live."))
        .expect("a watching server's page reloads itself");
    let live_path = path_of(&watching, &live).to_string();
    let script = watching.get(&live_path);
    assert_eq!(script.status, 200);
    assert!(script.text().contains("new EventSource(\"/events\")"));

    let mut args = serve_config(&example_content());
    args.set_watch(Watch::Off);
    let still = spawn_with(args);
    let links = asset_links(&still.get("/brand/northwind").text());
    assert_eq!(links.len(), 2, "{links:?}");
    assert!(
        links.iter().all(|u| !u.contains("/assets/live.")),
        "{links:?}"
    );
    assert_eq!(still.get(&live_path).status, 404);
    // The stylesheet and the page's script are the same files either way.
    let watched: Vec<String> = asset_links(&watching.get("/brand/northwind").text())
        .iter()
        .map(|u| path_of(&watching, u).to_string())
        .take(2)
        .collect();
    let unwatched: Vec<String> = links
        .iter()
        .map(|u| path_of(&still, u).to_string())
        .collect();
    assert_eq!(watched, unwatched);
}

/// A `_headers` file's entries: each path with its header lines.
fn header_entries(text: &str) -> std::collections::HashMap<&str, String> {
    let mut entries = std::collections::HashMap::new();
    let mut current: Option<&str> = None;
    for line in text.lines() {
        match line.strip_prefix("  ") {
            Some(header) => {
                let path = current.expect("a header follows its path");
                let entry: &mut String = entries.entry(path).or_default();
                entry.push_str(header);
                entry.push('\n');
            }
            None => current = Some(line),
        }
    }
    entries
}

#[test]
fn the_static_site_holds_the_assets_its_pages_link_to() {
    let out = tempfile::tempdir().unwrap();
    let public = "https://brand.example.com";
    let status = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["build", example_content().to_str().unwrap(), "--out"])
        .arg(out.path())
        .args(["--public-url", public])
        .env_remove("MARQUE_CONTENT")
        .output()
        .unwrap();
    assert!(status.status.success(), "{status:?}");
    let root = out.path();
    let headers = std::fs::read_to_string(root.join("_headers")).unwrap();
    let headers = header_entries(&headers);
    let mut checked = 0;
    for page in [
        "index.html",
        "brand/northwind/index.html",
        "brand/lumen-health/index.html",
    ] {
        let html = std::fs::read_to_string(root.join(page)).unwrap();
        let links = asset_links(&html);
        assert_eq!(links.len(), 2, "no live reload in a static site: {links:?}");
        for url in links {
            let path = url.strip_prefix(public).unwrap();
            let file = root.join(path.trim_start_matches('/'));
            let body = std::fs::read(&file).unwrap_or_else(|e| panic!("{page} links {url}: {e}"));
            assert_eq!(
                path.rsplit('.').nth(1).unwrap(),
                short_hash(&body),
                "{path}"
            );
            let gz = std::fs::read(format!("{}.gz", file.display())).unwrap();
            let br = std::fs::read(format!("{}.br", file.display())).unwrap();
            assert_eq!(gunzip(&gz), body, "{path}.gz");
            assert_eq!(unbrotli(&br), body, "{path}.br");
            // Hosts that read _headers serve it as marque does.
            let entry = &headers[path];
            assert!(
                entry.contains(&format!("Cache-Control: {IMMUTABLE}")),
                "{entry}"
            );
            assert!(entry.contains("Content-Type: text/"), "{entry}");
            checked += 1;
        }
    }
    assert_eq!(checked, 6);
    // A page's own entry keeps the short cache of a current surface.
    let page = &headers["/brand/northwind"];
    assert!(page.contains("Cache-Control: public, max-age=60"), "{page}");
}
