//! The rules of DESIGN §4 that every GET surface follows, checked over real
//! HTTP against the example content.

use crate::helpers::*;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// One server on the example content, shared by the read-only tests here.
fn app() -> &'static TestApp {
    static APP: OnceLock<TestApp> = OnceLock::new();
    APP.get_or_init(|| spawn_app(&example_content()))
}

const SURFACES: &[(&str, &str)] = &[
    ("spec.json", "application/json"),
    ("spec.md", "text/markdown; charset=utf-8"),
    ("tokens.css", "text/css; charset=utf-8"),
    ("tokens.figma.json", "application/json"),
    ("llms.txt", "text/plain; charset=utf-8"),
];

fn every_get_path() -> Vec<(String, &'static str)> {
    let mut paths = vec![
        ("/".to_string(), "text/html; charset=utf-8"),
        ("/brands.json".to_string(), "application/json"),
        ("/llms.txt".to_string(), "text/plain; charset=utf-8"),
        (
            "/schema/brand.schema.json".to_string(),
            "application/schema+json",
        ),
    ];
    for slug in ["northwind", "lumen-health"] {
        for (file, media) in SURFACES {
            paths.push((format!("/brand/{slug}/{file}"), media));
        }
        paths.push((format!("/brand/{slug}"), "text/html; charset=utf-8"));
        paths.push((
            format!("/embed/brand/{slug}"),
            "text/javascript; charset=utf-8",
        ));
        paths.push((format!("/brand/{slug}/assets/logo.svg"), "image/svg+xml"));
        paths.push((
            format!("/brand/{slug}/changelog.md"),
            "text/markdown; charset=utf-8",
        ));
        paths.push((format!("/brand/{slug}/changelog.json"), "application/json"));
    }
    paths
}

#[test]
fn every_surface_is_served_with_its_exact_media_type_and_common_headers() {
    for (path, media) in every_get_path() {
        let res = app().get(&path);
        assert_eq!(res.status, 200, "{path}");
        assert_eq!(res.header("content-type"), Some(media), "{path}");
        assert_eq!(
            res.header("cache-control"),
            Some("public, max-age=60"),
            "{path}"
        );
        assert_eq!(
            res.header("access-control-allow-origin"),
            Some("*"),
            "{path}"
        );
        assert_eq!(
            res.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        // A brand's answer depends on who asks (DESIGN.md §20).
        let vary = match path.starts_with("/brand/") || path.starts_with("/embed/") {
            true => "Accept-Encoding, Authorization, Cookie",
            false => "Accept-Encoding",
        };
        assert_eq!(res.header("vary"), Some(vary), "{path}");
        assert_eq!(
            res.header("content-length"),
            Some(res.body.len().to_string().as_str()),
            "{path}"
        );
        let etag = res
            .header("etag")
            .unwrap_or_else(|| panic!("{path} has an ETag"));
        assert!(
            etag.starts_with('"') && etag.ends_with('"') && !etag.starts_with("W/"),
            "strong ETag on {path}: {etag}"
        );
        assert!(
            res.header("content-encoding").is_none(),
            "identity unless asked: {path}"
        );
        assert!(!res.body.is_empty(), "{path}");
    }
}

#[test]
fn head_answers_the_same_headers_without_a_body() {
    for (path, _) in every_get_path() {
        let get = app().get(&path);
        let head = app().request("HEAD", &path, &[], None);
        assert_eq!(head.status, 200, "{path}");
        assert!(head.body.is_empty(), "{path}");
        for name in [
            "content-type",
            "content-length",
            "etag",
            "cache-control",
            "access-control-allow-origin",
            "vary",
        ] {
            assert_eq!(head.header(name), get.header(name), "{name} of HEAD {path}");
        }
    }
}

#[test]
fn a_matching_if_none_match_gives_304_without_a_body() {
    let path = "/brand/northwind/tokens.css";
    let first = app().get(path);
    let etag = first.header("etag").unwrap().to_string();
    let again = app().get_with(path, &[("If-None-Match", &etag)]);
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), Some(etag.as_str()));
    assert_eq!(again.header("cache-control"), Some("public, max-age=60"));
    // A list containing it, a weak form of it, and `*` match too; another tag does not.
    for value in [
        format!("\"nope\", {etag}"),
        format!("W/{etag}"),
        "*".to_string(),
    ] {
        assert_eq!(
            app().get_with(path, &[("If-None-Match", &value)]).status,
            304,
            "{value}"
        );
    }
    assert_eq!(
        app()
            .get_with(path, &[("If-None-Match", "\"other\"")])
            .status,
        200
    );
}

#[test]
fn compressed_codings_are_negotiated_and_each_has_its_own_etag() {
    for (path, _) in every_get_path() {
        let plain = app().get(&path);
        let gz = app().get_with(&path, &[("Accept-Encoding", "gzip")]);
        let br = app().get_with(&path, &[("Accept-Encoding", "gzip, deflate, br")]);
        if plain.body.len() < 512 {
            continue;
        }
        assert_eq!(gz.header("content-encoding"), Some("gzip"), "{path}");
        assert_eq!(br.header("content-encoding"), Some("br"), "{path}");
        assert_eq!(gunzip(&gz.body), plain.body, "{path}");
        assert_eq!(unbrotli(&br.body), plain.body, "{path}");
        assert!(
            br.body.len() < plain.body.len() && gz.body.len() < plain.body.len(),
            "{path}"
        );
        let tags = [plain.header("etag"), gz.header("etag"), br.header("etag")];
        assert!(
            tags[0] != tags[1] && tags[1] != tags[2] && tags[0] != tags[2],
            "distinct ETags on {path}: {tags:?}"
        );
        // A 304 is judged against the representation the client would get.
        let gz_tag = gz.header("etag").unwrap();
        assert_eq!(
            app()
                .get_with(
                    &path,
                    &[("Accept-Encoding", "gzip"), ("If-None-Match", gz_tag)]
                )
                .status,
            304
        );
        assert_eq!(
            app().get_with(&path, &[("If-None-Match", gz_tag)]).status,
            200
        );
    }
    // q=0 refuses a coding.
    let res = app().get_with(
        "/brand/northwind/spec.json",
        &[("Accept-Encoding", "br;q=0, gzip")],
    );
    assert_eq!(res.header("content-encoding"), Some("gzip"));
}

#[test]
fn a_body_held_only_as_gzip_reaches_a_client_that_takes_no_coding_whole() {
    // spec.json, tokens.figma.json and the page are kilobytes of text: held
    // as their gzip coding, inflated for a client that asks for none.
    let metric = |name: &str| -> f64 {
        let text = app().get("/metrics").text();
        let line = text.lines().find(|l| l.starts_with(name)).unwrap();
        line[name.len()..].trim().parse().unwrap()
    };
    for path in [
        "/brand/northwind/spec.json",
        "/brand/northwind/tokens.figma.json",
        "/brand/lumen-health",
    ] {
        let plain = app().get(path);
        let gz = app().get_with(path, &[("Accept-Encoding", "gzip")]);
        assert_eq!(plain.status, 200, "{path}");
        assert!(plain.body.len() > 2048, "{path}: {}", plain.body.len());
        assert_eq!(plain.body, gunzip(&gz.body), "{path}");
        // Its ETag is still the hash of the identity bytes themselves.
        let digest: String = sha2::Digest::finalize(sha2::Digest::chain_update(
            <sha2::Sha256 as sha2::Digest>::new(),
            &plain.body,
        ))[..16]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(plain.header("etag"), Some(format!("\"{digest}\"").as_str()));
        let again = app().get(path);
        assert_eq!(
            again.body, plain.body,
            "{path}: the same bytes from the kept copy"
        );
        let head = app().request("HEAD", path, &[], None);
        assert_eq!(
            head.header("content-length"),
            plain.header("content-length")
        );
        assert!(head.body.is_empty());
        let tag = plain.header("etag").unwrap();
        assert_eq!(app().get_with(path, &[("If-None-Match", tag)]).status, 304);
    }
    assert!(metric("marque_inflated_bytes ") >= 2048.0);
    assert_eq!(
        metric("marque_inflated_limit_bytes "),
        32.0 * 1024.0 * 1024.0
    );
}

#[test]
fn etags_are_content_hashes_that_agree_across_servers() {
    let other = spawn_app(&example_content());
    // Same content and same public URL would give the same bytes; the URL differs by port,
    // so compare a surface that does not embed it.
    let a = app().get("/schema/brand.schema.json");
    let b = other.get("/schema/brand.schema.json");
    assert_eq!(a.header("etag"), b.header("etag"));
}

fn assert_problem(res: &Response, status: u16) -> serde_json::Value {
    assert_eq!(res.status, status, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    assert_eq!(res.header("access-control-allow-origin"), Some("*"));
    let body = res.json();
    assert_eq!(body["status"], status);
    assert!(
        body["type"].is_string() && body["title"].is_string() && body["detail"].is_string(),
        "{body}"
    );
    body
}

#[test]
fn unknown_slugs_surfaces_and_paths_are_404_problems() {
    let body = assert_problem(&app().get("/brand/nope/spec.json"), 404);
    assert!(body["detail"].as_str().unwrap().contains("nope"));
    let body = assert_problem(&app().get("/brand/northwind/spec.yaml"), 404);
    assert!(body["detail"].as_str().unwrap().contains("spec.yaml"));
    assert_problem(&app().get("/brand/nope"), 404);
    assert_problem(&app().get("/embed/brand/nope"), 404);
    assert_problem(&app().get("/nothing/here"), 404);
    let head = app().request("HEAD", "/brand/nope/spec.json", &[], None);
    assert_eq!(head.status, 404);
    assert_eq!(
        head.header("content-type"),
        Some("application/problem+json")
    );
}

#[test]
fn paths_never_reach_the_file_system() {
    for path in [
        "/brand/northwind/brand.json",
        "/brand/northwind/assets/../brand.json",
        "/brand/northwind/assets/%2e%2e/brand.json",
        "/brand/northwind/assets/..%2fbrand.json",
        "/brand/../../Cargo.toml",
        "/content/northwind/brand.json",
        "/brand/northwind/BRAND_BOOK.md",
    ] {
        assert_problem(&app().get(path), 404);
    }
    // The surface of that name is rendered, never the author's file.
    let served = app().get("/brand/northwind/tokens.json").body;
    let written = std::fs::read(example_content().join("northwind/tokens.json")).unwrap();
    assert_ne!(served, written);
}

#[test]
fn other_methods_on_a_surface_are_405_with_allow() {
    for method in ["POST", "PUT", "DELETE", "PATCH"] {
        let res = app().request(method, "/brand/northwind/spec.json", &[], Some(b"{}"));
        assert_problem(&res, 405);
        assert_eq!(res.header("allow"), Some("GET, HEAD, OPTIONS"));
    }
}

#[test]
fn cors_preflight_is_answered() {
    let res = app().request(
        "OPTIONS",
        "/brand/northwind/spec.json",
        &[
            ("Origin", "https://site.example"),
            ("Access-Control-Request-Method", "GET"),
        ],
        None,
    );
    assert_eq!(res.status, 204);
    assert_eq!(res.header("access-control-allow-origin"), Some("*"));
    assert!(res
        .header("access-control-allow-methods")
        .unwrap()
        .contains("GET"));
}

#[test]
fn health_readiness_and_status_report_the_service() {
    assert_eq!(app().get("/healthz").status, 200);
    assert_eq!(app().get("/readyz").status, 200);
    let status = app().get("/status");
    assert_eq!(status.header("cache-control"), Some("no-store"));
    let s = status.json();
    assert_eq!(s["ready"], true);
    assert!(s["generation"].as_u64().unwrap() >= 1);
    let brands: Vec<_> = s["brands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["slug"].as_str().unwrap(), b["state"].as_str().unwrap()))
        .collect();
    assert_eq!(brands, [("lumen-health", "ok"), ("northwind", "ok")]);
    let nw = &s["brands"][1];
    assert_eq!(nw["version"], "2.4.0");
    assert_eq!(nw["updated"], "2026-10-14");
    // Tokens Figma cannot hold are listed as warnings with their position.
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    add_figma_gaps(&dir.path().join("northwind/tokens.json"), 1);
    let gapped = spawn_app(dir.path());
    let s = gapped.get("/status").json();
    let warning = s["brands"][1]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["pointer"] == "/line/dotted-0")
        .expect("stroke style warning");
    assert_eq!(warning["severity"], "warning");
    assert!(warning["line"].as_u64().unwrap() > 1);
}

#[test]
fn svg_assets_are_sandboxed_and_listed_assets_only() {
    let res = app().get("/brand/northwind/assets/logo.svg");
    assert!(res
        .header("content-security-policy")
        .unwrap()
        .contains("sandbox"));
    assert!(res.text().starts_with("<svg"));
}

#[test]
fn pages_ship_a_content_security_policy() {
    for path in ["/", "/brand/northwind"] {
        let res = app().get(path);
        let csp = res.header("content-security-policy").unwrap();
        assert!(
            csp.contains("default-src 'none'") && csp.contains("script-src 'self';"),
            "{csp}"
        );
    }
}

#[test]
fn a_connection_that_never_sends_its_request_head_is_closed() {
    let mut args = serve_config(&example_content());
    args.limits.header_timeout = Duration::from_secs(1);
    let app = spawn_with(args);
    let mut stream = TcpStream::connect(app.addr).unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .unwrap(); // never finished
    stream
        .set_read_timeout(Some(Duration::from_secs(15)))
        .unwrap();
    let started = Instant::now();
    let mut buf = Vec::new();
    let _ = stream.read_to_end(&mut buf); // returns when the server closes
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "closed after {:?}",
        started.elapsed()
    );
}

#[test]
fn connections_over_the_cap_wait_until_a_slot_frees() {
    let mut args = serve_config(&example_content());
    args.limits.max_connections = 1;
    let app = spawn_with(args);
    // The holder is answered once, so it holds the only slot, whichever
    // listener thread took it and whenever the readiness probe's slot freed.
    let mut holder = TcpStream::connect(app.addr).unwrap();
    holder
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    holder
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = [0u8; 12];
    holder.read_exact(&mut head).unwrap();
    assert_eq!(&head, b"HTTP/1.1 200");
    let mut waiting = TcpStream::connect(app.addr).unwrap(); // accepted by the kernel, not by marque
    waiting
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    waiting
        .set_read_timeout(Some(Duration::from_millis(400)))
        .unwrap();
    let mut buf = [0u8; 64];
    assert!(
        waiting.read(&mut buf).is_err(),
        "no answer while the only slot is taken"
    );
    drop(holder);
    waiting
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut out = Vec::new();
    waiting.read_to_end(&mut out).unwrap();
    assert!(
        String::from_utf8_lossy(&out).starts_with("HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&out)
    );
}

#[test]
fn metrics_are_exposed_for_prometheus() {
    let app = spawn_app(&example_content());
    app.get("/brand/nope/spec.json");
    let res = app.get("/metrics");
    assert_eq!(res.status, 200);
    assert_eq!(
        res.header("content-type"),
        Some("text/plain; version=0.0.4; charset=utf-8")
    );
    let text = res.text();
    for line in [
        "marque_ready 1",
        "marque_brands{state=\"ok\"} 2",
        "marque_brands{state=\"stale\"} 0",
        "marque_snapshot_generation 1",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
    }
    let count = |class: &str| -> u64 {
        text.lines()
            .find_map(|l| {
                l.strip_prefix(&format!(
                    "marque_http_responses_total{{class=\"{class}\"}} "
                ))
            })
            .unwrap()
            .parse()
            .unwrap()
    };
    assert!(count("2xx") >= 1, "the readiness probes");
    assert_eq!(count("4xx"), 1, "the 404 above");
    // Every metric line is `name{labels} value` or a # comment.
    for l in text.lines().filter(|l| !l.starts_with('#')) {
        let value = l.rsplit(' ').next().unwrap();
        assert!(value.parse::<f64>().is_ok(), "{l}");
    }
}

#[test]
fn every_listener_thread_answers_by_the_same_rules() {
    let mut args = serve_config(&example_content());
    args.limits.threads = 4;
    let app = spawn_with(args);
    let paths = every_get_path();
    // What one connection gets, per path and coding: the reference.
    let headers = [
        "content-type",
        "etag",
        "vary",
        "cache-control",
        "content-encoding",
    ];
    let reference: Vec<(Response, Response)> = paths
        .iter()
        .map(|(p, _)| {
            (
                app.get(p),
                app.get_with(p, &[("Accept-Encoding", "gzip, br")]),
            )
        })
        .collect();
    // Every request below opens its own connection: the kernel spreads them
    // over the four SO_REUSEPORT listeners.
    for round in 0..8 {
        for ((path, _), (plain, coded)) in paths.iter().zip(&reference) {
            let coding: &[(&str, &str)] = if round % 2 == 0 {
                &[]
            } else {
                &[("Accept-Encoding", "gzip, br")]
            };
            let res = app.get_with(path, coding);
            let expected = if round % 2 == 0 { plain } else { coded };
            assert_eq!(res.status, expected.status, "{path}");
            assert_eq!(res.body, expected.body, "{path}");
            for h in headers {
                assert_eq!(res.header(h), expected.header(h), "{path} {h}");
            }
            let etag = res.header("etag").unwrap();
            let not_modified = app.get_with(path, &[coding, &[("If-None-Match", etag)]].concat());
            assert_eq!(not_modified.status, 304, "{path}");
            assert!(not_modified.body.is_empty(), "{path}");
        }
    }
    let metrics = app.get("/metrics").text();
    let busy: Vec<&str> = metrics
        .lines()
        .filter(|l| l.starts_with("marque_http_connections_total{thread="))
        .filter(|l| l.rsplit(' ').next().is_some_and(|n| n != "0"))
        .collect();
    assert!(
        busy.len() >= 2,
        "connections reached only {busy:?} of 4 threads:\n{metrics}"
    );
}

/// `/favicon.ico`, which browsers and feed readers ask for without reading
/// a page, is an icon (the pages' neutral one), not a 404 problem document:
/// an image tool reads a 16 × 16 icon with the icon's colour at its centre
/// and clear corners.
#[test]
fn favicon_ico_is_an_icon() {
    let app = spawn_app(&example_content());
    let res = app.get("/favicon.ico");
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-type"), Some("image/x-icon"));
    assert_eq!(&res.body[..6], &[0, 0, 1, 0, 1, 0], "one icon");
    let head = app.request("HEAD", "/favicon.ico", &[], None);
    assert_eq!(head.status, 200);
    // ImageMagick by its own names: a `convert` on the PATH may be
    // something else.
    let magick = ["magick", "convert-im6.q16", "convert"]
        .into_iter()
        .find(|name| {
            std::process::Command::new(name)
                .arg("-version")
                .output()
                .is_ok_and(|o| {
                    o.status.success() && String::from_utf8_lossy(&o.stdout).contains("ImageMagick")
                })
        });
    if !require(
        "ImageMagick's convert",
        magick.is_some(),
        "apt-get install imagemagick",
    ) {
        return;
    }
    let magick = magick.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("favicon.ico");
    std::fs::write(&file, &res.body).unwrap();
    let out = std::process::Command::new(magick)
        .arg(&file)
        .args(["-format", "%w×%h %[pixel:p{8,8}] %[fx:p{0,0}.a]", "info:"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.trim(), "16×16 srgba(27,31,36,1) 0", "{text}");
}

/// `--ops-token`: /status and /metrics answer its bearer only, 401 with
/// `WWW-Authenticate` to anyone else; the probes and every brand stay
/// public, and the ops token is never judged as an access token.
#[test]
fn an_ops_token_restricts_status_and_metrics_to_the_operator() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    crate::helpers::copy_dir(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content"),
        &root,
    );
    let mut config = serve_config(&root);
    config.ops_token = Some("s3cret-ops".into());
    let app = spawn_with(config);
    for path in ["/status", "/metrics"] {
        let anonymous = app.get(path);
        assert_eq!(anonymous.status, 401, "{path}");
        assert_eq!(
            anonymous.header("www-authenticate"),
            Some("Bearer realm=\"marque-ops\""),
            "{path}"
        );
        assert!(anonymous.text().contains("ops token"), "{path}");
        let wrong = app.get_with(path, &[("authorization", "Bearer nope")]);
        assert_eq!(wrong.status, 401, "{path}");
        let operator = app.get_with(path, &[("authorization", "Bearer s3cret-ops")]);
        assert_eq!(operator.status, 200, "{path}");
    }
    assert!(app
        .get_with("/status", &[("authorization", "Bearer s3cret-ops")])
        .json()["brands"]
        .is_array());
    for path in ["/healthz", "/readyz", "/brand/northwind/tokens.css", "/"] {
        assert_eq!(app.get(path).status, 200, "{path}");
    }
}
