//! Regression tests for every shape in ../shared/repro/: tiny or legal
//! inputs that once took marque down. Each asserts its bound: a status, a
//! diagnostic, a time and a memory ceiling far above what marque needs now
//! and far below what the old code took (it ran out of 4 GiB, or never ended).

use crate::helpers::*;
use serde_json::{json, Map, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A copy of the example content in a temporary folder.
fn content() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    dir
}

fn tokens_of(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("northwind/tokens.json")).unwrap())
        .unwrap()
}

fn write_tokens(dir: &Path, v: &Value) {
    std::fs::write(dir.join("northwind/tokens.json"), v.to_string()).unwrap();
}

/// Generous ceilings: the old code exceeded them by orders of magnitude.
const CAP_MIB: u64 = 1536;
const TIME: Duration = Duration::from_secs(10);

/// Ten levels of four groups, each extending the level below, over `g0`.
fn extends_bomb(g0: Value) {
    let dir = content();
    let mut t = tokens_of(dir.path());
    t["g0"] = g0;
    for l in 1..=10 {
        let level: Map<String, Value> = (0..4)
            .map(|i| {
                (
                    format!("k{i}"),
                    json!({"$extends": format!("{{g{}}}", l - 1)}),
                )
            })
            .collect();
        t[format!("g{l}")] = Value::Object(level);
    }
    write_tokens(dir.path(), &t);
    let (code, out, took) = check_capped(dir.path(), CAP_MIB);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("`$extends` would make tokens.json larger than 200000 values"),
        "{out}"
    );
    assert!(took < TIME, "{took:?}");
}

#[test]
fn an_exponential_extends_chain_is_cut_at_the_budget() {
    extends_bomb(json!({"$type": "number", "v": {"$value": 1}}));
}

/// Found by the fuzzer: the same chain over one 128 KiB string asked for
/// 4 GiB and 7 s while the values it copied stayed under the budget.
#[test]
fn an_extends_chain_over_a_long_string_is_cut_by_its_bytes() {
    extends_bomb(json!({"$type": {"$type": "dimension", "$value": "x".repeat(128 * 1024)}}));
}

#[test]
fn a_huge_key_is_refused_without_indexing_it() {
    for file in ["brand.json", "tokens.json"] {
        let dir = content();
        let body = format!(
            "{{\"{}\": [{}0]}}",
            "k".repeat(1_000_000),
            "0,".repeat(50_000)
        );
        std::fs::write(dir.path().join("northwind").join(file), body).unwrap();
        let (code, out, took) = check_capped(dir.path(), CAP_MIB);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("a key of 1000000 characters"), "{file}: {out}");
        assert!(took < TIME, "{took:?}");
    }
}

#[test]
fn a_file_of_millions_of_values_is_refused_before_parsing() {
    let dir = content();
    let body = format!("{{\"a\": [{}0]}}", "0,".repeat(2_400_000));
    std::fs::write(dir.path().join("northwind/brand.json"), body).unwrap();
    let (code, out, took) = check_capped(dir.path(), 512);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("JSON values; at most 300000 are read"),
        "{out}"
    );
    assert!(took < TIME, "{took:?}");
}

#[test]
fn a_ten_thousand_link_alias_chain_is_refused_quickly() {
    let dir = content();
    let mut t = json!({"chain": {"$type": "number", "t0": {"$value": 1}}});
    for i in 1..9_000 {
        t["chain"][format!("t{i}")] = json!({"$value": format!("{{chain.t{}}}", i - 1)});
    }
    let mut base = tokens_of(dir.path());
    base["chain"] = t["chain"].take();
    write_tokens(dir.path(), &base);
    let (code, out, took) = check_capped(dir.path(), CAP_MIB);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("is longer than 64 links"), "{out}");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn symlink_loops_in_assets_publish_each_file_once_and_end() {
    let dir = content();
    let assets = dir.path().join("northwind/assets");
    std::os::unix::fs::symlink(".", assets.join("l1")).unwrap();
    std::os::unix::fs::symlink(".", assets.join("l2")).unwrap();
    let started = Instant::now();
    let content = marque::source::read_folder(dir.path()).unwrap();
    assert!(started.elapsed() < Duration::from_secs(5));
    let nw = content
        .brands
        .iter()
        .find(|b| b.slug == "northwind")
        .unwrap();
    let svgs: Vec<&String> = nw.files().keys().filter(|k| k.ends_with(".svg")).collect();
    assert_eq!(svgs.len(), 3, "{svgs:?}");
    assert!(
        nw.problems
            .iter()
            .any(|p| p.code == marque::spec::diag::Code::EntryNotPublished
                && p.message.contains("already published")),
        "{:?}",
        nw.problems
    );
}

#[test]
fn brand_json_that_is_not_a_file_is_a_diagnostic_not_a_silent_unpublish() {
    let dir = content();
    let app = spawn_app(dir.path());
    let path = dir.path().join("northwind/brand.json");
    let good = std::fs::read(&path).unwrap();
    type Make = fn(&Path);
    let cases: [(&str, Make); 3] = [
        ("is a folder, not a file", |p| {
            std::fs::create_dir(p).unwrap()
        }),
        ("is a named pipe (FIFO), not a file", |p| {
            let ok = Command::new("mkfifo").arg(p).status().unwrap().success();
            assert!(ok);
        }),
        ("is a symbolic link to nothing", |p| {
            std::os::unix::fs::symlink("/nonexistent/brand.json", p).unwrap()
        }),
    ];
    for (message, make) in cases {
        std::fs::remove_file(&path).unwrap();
        make(&path);
        app.wait_until(
            |a| {
                let s = a.get("/status").json();
                s["brands"].as_array().unwrap().iter().any(|b| {
                    b["slug"] == "northwind"
                        && b["state"] == "stale"
                        && b["diagnostics"][0]["code"] == "MQ1006"
                        && b["diagnostics"].to_string().contains(message)
                })
            },
            message,
        );
        assert_eq!(
            app.get("/brand/northwind/spec.json").status,
            200,
            "last good version"
        );
        let _ = std::fs::remove_dir(&path).or_else(|_| std::fs::remove_file(&path));
        std::fs::write(&path, &good).unwrap();
        app.wait_until(
            |a| {
                a.get("/status").json()["brands"]
                    .to_string()
                    .contains("\"state\":\"ok\"")
                    && !a.get("/status").json()["brands"]
                        .to_string()
                        .contains("stale")
            },
            "recovered",
        );
    }
}

#[test]
fn a_brand_folder_linked_from_outside_the_content_folder_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    copy_dir(
        &example_content().join("northwind"),
        &outside.path().join("b"),
    );
    std::fs::write(outside.path().join("b/assets/secret.txt"), "SECRET").unwrap();
    let dir = content();
    std::os::unix::fs::symlink(outside.path().join("b"), dir.path().join("linked")).unwrap();
    let app = spawn_app(dir.path());
    let res = app.get("/brand/linked/assets/secret.txt");
    assert_eq!(res.status, 404);
    assert!(!res.text().contains("SECRET"));
    let s = app.get("/status").json();
    assert!(
        s["unpublished"]
            .to_string()
            .contains("outside the content folder"),
        "{s}"
    );
}

#[test]
fn an_oversized_asset_is_seen_in_watch_mode_and_its_removal_recovers() {
    let dir = content();
    let app = spawn_app(dir.path());
    let big = dir.path().join("northwind/assets/big.png");
    std::fs::write(&big, vec![0u8; 6 * 1024 * 1024]).unwrap();
    let stale = |a: &TestApp| {
        a.get("/status").json()["brands"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["slug"] == "northwind" && b["state"] == "stale")
    };
    app.wait_until(stale, "the oversized asset makes the brand stale");
    std::fs::write(dir.path().join("northwind/assets/note.txt"), "hi").unwrap();
    std::fs::remove_file(&big).unwrap();
    app.wait_until(|a| !stale(a), "the fix is seen");
    app.wait_until(
        |a| a.get("/brand/northwind/assets/note.txt").status == 200,
        "the new asset is published",
    );
}

#[test]
fn a_template_that_fails_on_a_value_is_a_422_that_names_it_never_a_500() {
    let dir = content();
    let path = dir.path().join("northwind/brand.json");
    let mut brand: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for p in brand["promptKit"]["prompts"].as_array_mut().unwrap() {
        if p["id"] == "weather-notice" {
            // Renders with text in `tone`, fails when the optional `tone` is left out (empty).
            p["template"] =
                json!("{{ tone[0] }}: a notice for {{ location }} about {{ forecast }}.");
            p["variables"]
                .as_array_mut()
                .unwrap()
                .push(json!({"name": "tone", "required": false, "example": "calm"}));
        }
    }
    std::fs::write(&path, brand.to_string()).unwrap();
    let app = spawn_app(dir.path());
    let res = app.request(
        "POST",
        "/api/brand-spec/northwind/demo",
        &[("Content-Type", "application/json")],
        Some(br#"{"promptId": "weather-notice", "variables": {"location": "Oslo", "forecast": "rain"}}"#),
    );
    assert_eq!(res.status, 422, "{}", res.text());
    let body = res.json();
    assert_eq!(body["invalid"], json!(["tone"]), "{body}");
    assert!(
        body["detail"]
            .as_str()
            .unwrap()
            .contains("the value of tone"),
        "{body}"
    );
}

/// Sends a request head that declares a body, then one byte of it.
fn stall(addr: std::net::SocketAddr, path: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(
        format!("POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{")
            .as_bytes(),
    )
    .unwrap();
    s
}

#[test]
fn a_stalled_body_gets_408_and_frees_its_connection() {
    let mut args = serve_config(&example_content());
    args.limits.max_connections = 5;
    args.limits.body_timeout = Duration::from_millis(1500);
    args.demo.burst = 100;
    args.demo.per_minute = 1000;
    let app = spawn_with(args);
    let held: Vec<TcpStream> = (0..5)
        .map(|_| stall(app.addr, "/api/brand-spec/northwind/demo"))
        .collect();
    let started = Instant::now();
    let health = app.get("/healthz");
    assert_eq!(health.status, 200);
    assert!(
        started.elapsed() < Duration::from_secs(6),
        "the stalled bodies let go of their slots after the body timeout: {:?}",
        started.elapsed()
    );
    for mut s in held {
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        let text = String::from_utf8_lossy(&out);
        assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    }
}

#[test]
fn a_head_that_never_ends_gets_408_before_the_connection_closes() {
    let mut args = serve_config(&example_content());
    args.limits.header_timeout = Duration::from_secs(1);
    let app = spawn_with(args);
    let mut s = TcpStream::connect(app.addr).unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out);
    assert!(text.starts_with("HTTP/1.1 408 Request Timeout"), "{text}");
    assert!(text.contains("\"status\":408"), "{text}");
    // An idle keep-alive connection after an answer closes quietly.
    let mut s = TcpStream::connect(app.addr).unwrap();
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(!text.contains("408"), "{text}");
}

#[test]
fn gzip_with_q0_is_refused_even_when_star_allows_everything() {
    let app = spawn_app(&example_content());
    let res = app.get_with(
        "/brand/northwind/spec.json",
        &[("Accept-Encoding", "br;q=0, gzip;q=0, *;q=1")],
    );
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-encoding"), None);
    let res = app.get_with(
        "/brand/northwind/spec.json",
        &[("Accept-Encoding", "x-gzip")],
    );
    assert_eq!(res.header("content-encoding"), Some("gzip"));
}

fn demo_with(app: &TestApp, headers: &[(&str, &str)]) -> u16 {
    let mut all = vec![("Content-Type", "application/json")];
    all.extend_from_slice(headers);
    app.request(
        "POST",
        "/api/brand-spec/northwind/demo",
        &all,
        Some(br#"{"promptId": "weather-notice", "variables": {"location": "a", "forecast": "b"}}"#),
    )
    .status
}

#[test]
fn every_forwarded_line_counts_and_forwarded_wins_over_x_forwarded_for() {
    let mut args = serve_config(&example_content());
    args.demo.burst = 5;
    args.demo.per_minute = 10;
    args.trusted_proxy = vec!["127.0.0.1/32".parse().unwrap()];
    let app = spawn_with(args);
    // A proxy that appends its own X-Forwarded-For line: the client's forged line is ignored.
    let codes: Vec<u16> = (0..7)
        .map(|i| {
            let forged = format!("9.7.{i}.9");
            demo_with(
                &app,
                &[("X-Forwarded-For", &forged), ("X-Forwarded-For", "4.4.4.4")],
            )
        })
        .collect();
    assert_eq!(
        codes,
        [200, 200, 200, 200, 200, 429, 429],
        "keyed on 4.4.4.4"
    );
    // A proxy that writes Forwarded and passes the client's X-Forwarded-For through.
    let codes: Vec<u16> = (0..7)
        .map(|i| {
            let forged = format!("9.6.{i}.9");
            demo_with(
                &app,
                &[("Forwarded", "for=5.5.5.5"), ("X-Forwarded-For", &forged)],
            )
        })
        .collect();
    assert_eq!(
        codes,
        [200, 200, 200, 200, 200, 429, 429],
        "keyed on 5.5.5.5"
    );
}

/// F5 (repro 2026-11-27): tokens left out for an error take what refers
/// to them along in one pass, whatever the depth; everything else
/// publishes. (Readings again, one per level, gave up after ten.)
#[test]
fn any_depth_of_aliases_over_a_missing_reference_leaves_out_exactly_that_chain() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    let mut g = Map::new();
    g.insert(
        "t0".into(),
        json!({"value": "{nothing.here}", "type": "color"}),
    );
    for i in 1..=60 {
        g.insert(
            format!("t{i}"),
            json!({"value": format!("{{g.t{}}}", i - 1), "type": "color"}),
        );
    }
    g.insert("ok".into(), json!({"value": "#ffffff", "type": "color"}));
    g.insert(
        "also-ok".into(),
        json!({"value": "{g.ok}", "type": "color"}),
    );
    tokens_studio_brand(&root, &json!({ "g": g }).to_string());
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", "--semver", "off", root.to_str().unwrap()])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("1 valid: 0 error(s), 61 warning(s)"),
        "{text}"
    );
    assert_eq!(
        text.matches("warning[MQ1707]: it refers to `{g.t").count(),
        60,
        "{text}"
    );
    let app = spawn_with(serve_config(&root));
    let css = app.get("/brand/ts/tokens.css").text();
    assert!(
        css.contains("--g-ok: #ffffff;") && css.contains("--g-also-ok: var(--g-ok);"),
        "{css}"
    );
    assert!(!css.contains("--g-t"), "{css}");
}

/// F6 (repro 2026-11-27): math is read in one pass over the expression
/// (it was quadratic: a 1 MB expression kept `check` for 12 s), and
/// reads scientific notation.
#[test]
fn a_megabyte_of_math_and_scientific_notation_read_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    let long = format!("{}1", "1+".repeat(500_000));
    tokens_studio_brand(
        &root,
        &json!({"g": {
            "long": {"value": long, "type": "spacing"},
            "sci": {"value": "2 * 1e2", "type": "spacing"},
            "em": {"value": "1em * 2", "type": "spacing"}
        }})
        .to_string(),
    );
    let app = spawn_with(serve_config(&root));
    let css = app.get("/brand/ts/tokens.css").text();
    for line in ["--g-long: 500001px;", "--g-sci: 200px;", "--g-em: 2em;"] {
        assert!(css.contains(line), "{line}\n{css}");
    }
}
