//! A Tokens Studio repository as a team keeps it (issue 42's target): a
//! synced folder of about 2,000 tokens in 15 sets, with 12 themes in three
//! groups (brand × 6, mode × 2, density × 4), math over sets the themes
//! override, and `rgba({…}, a)` colours; its scales are `source` sets
//! (referred to, not published). Served by the real binary.
//!
//! Prints `marque check` wall time (read, every context resolved with its
//! math, checked, every surface rendered; p50 and max of 7 runs) and
//! save-to-served p50/p99 over 20 saves of one set file (the time from the
//! write until tokens.css serves the new value).
//!
//! `just bench-tokens-studio` or `cargo bench --bench tokens_studio`.

// A benchmark unwraps (a failure ends the run) and prints its figures.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

use serde_json::{json, Map, Value};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_marque");

fn write(path: &Path, v: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_string_pretty(v).unwrap()).unwrap();
}

fn token(ty: &str, value: Value) -> Value {
    json!({"value": value, "type": ty})
}

/// The synced folder under `dir`; returns how many tokens its sets define.
fn generate(dir: &Path) -> usize {
    let mut count = 0;
    let mut set = |name: &str, tree: Map<String, Value>, n: usize| {
        count += n;
        write(&dir.join(format!("{name}.json")), &Value::Object(tree));
    };
    // core/colors: 30 hues × 20 steps.
    let mut colors = Map::new();
    for h in 0..30 {
        let mut hue = Map::new();
        for s in 0..20 {
            let (r, g, b) = ((h * 8) % 256, (s * 12) % 256, ((h + s) * 5) % 256);
            hue.insert(
                format!("{}", (s + 1) * 50),
                token("color", json!(format!("#{r:02x}{g:02x}{b:02x}"))),
            );
        }
        colors.insert(format!("hue{h}"), Value::Object(hue));
    }
    set(
        "core/colors",
        Map::from_iter([("color".into(), Value::Object(colors))]),
        600,
    );
    // core/space: a unit the density themes set, 60 multiples of it.
    let mut space = Map::new();
    space.insert("unit".into(), token("spacing", json!("4")));
    for n in 1..=60 {
        space.insert(
            format!("s{n}"),
            token("spacing", json!(format!("{{space.unit}} * {n}"))),
        );
    }
    set(
        "core/space",
        Map::from_iter([("space".into(), Value::Object(space))]),
        61,
    );
    // core/type: a base the brands set, 120 steps of a modular scale.
    let mut ty = Map::new();
    ty.insert("base".into(), token("fontSizes", json!("16")));
    ty.insert("ratio".into(), token("number", json!("1.2")));
    for n in 0..120 {
        let step = n % 12;
        ty.insert(
            format!("t{n}"),
            token(
                "fontSizes",
                json!(format!("roundTo({{type.base}} * {{type.ratio}}^{step}, 1)")),
            ),
        );
    }
    set(
        "core/type",
        Map::from_iter([("type".into(), Value::Object(ty))]),
        122,
    );
    // brand/*: 200 semantic colours each, and the type base.
    for b in 0..6 {
        let mut sem = Map::new();
        for i in 0..200 {
            let v = match i % 4 {
                0 => json!(format!(
                    "rgba({{color.hue{}.{}}}, 0.5)",
                    (i + b) % 30,
                    (i % 20 + 1) * 50
                )),
                _ => json!(format!(
                    "{{color.hue{}.{}}}",
                    (i * 7 + b) % 30,
                    (i % 20 + 1) * 50
                )),
            };
            sem.insert(format!("c{i}"), token("color", v));
        }
        let tree = Map::from_iter([
            ("brand".into(), Value::Object(sem)),
            (
                "type".into(),
                json!({"base": token("fontSizes", json!(format!("{}", 14 + b)))}),
            ),
        ]);
        set(&format!("brand/b{b}"), tree, 201);
    }
    // mode/*: 300 surface colours each.
    for (m, offset) in [("light", 0), ("dark", 10)] {
        let mut surface = Map::new();
        for i in 0..300 {
            surface.insert(
                format!("s{i}"),
                token("color", json!(format!("{{brand.c{}}}", (i + offset) % 200))),
            );
        }
        set(
            &format!("mode/{m}"),
            Map::from_iter([("surface".into(), Value::Object(surface))]),
            300,
        );
    }
    // density/*: the space unit.
    for (d, unit) in [
        ("compact", 2),
        ("cozy", 4),
        ("comfortable", 6),
        ("spacious", 8),
    ] {
        set(
            &format!("density/{d}"),
            Map::from_iter([(
                "space".into(),
                json!({"unit": token("spacing", json!(unit.to_string()))}),
            )]),
            1,
        );
    }
    // components: typography and shadows over all of it.
    let mut comp = Map::new();
    for i in 0..100 {
        comp.insert(
            format!("text{i}"),
            token("typography", json!({"fontFamily": "Inter", "fontWeight": "Semi Bold", "fontSize": format!("{{type.t{i}}}"), "lineHeight": "130%", "letterSpacing": "0%"})),
        );
        comp.insert(
            format!("shadow{i}"),
            token("boxShadow", json!({"x": "0", "y": format!("{{space.s{}}}", i % 60 + 1), "blur": "4", "spread": "0", "color": "rgba(0,0,0,0.16)", "type": "dropShadow"})),
        );
    }
    set(
        "components",
        Map::from_iter([("component".into(), Value::Object(comp))]),
        200,
    );
    let core = ["core/colors", "core/space", "core/type", "components"];
    let mut themes = Vec::new();
    let mut add = |group: &str, name: &str, own: &str| {
        let mut sel: Map<String, Value> = core
            .iter()
            // The scales are `source` (referred to, not published, as
            // Tokens Studio teams keep them); the components are published.
            .map(|s| {
                let state = if *s == "components" {
                    "enabled"
                } else {
                    "source"
                };
                (s.to_string(), json!(state))
            })
            .collect();
        sel.insert(own.to_string(), json!("enabled"));
        themes.push(json!({"id": format!("{group}-{name}"), "name": name, "group": group, "selectedTokenSets": sel}));
    };
    for b in 0..6 {
        add("brand", &format!("b{b}"), &format!("brand/b{b}"));
    }
    for m in ["light", "dark"] {
        add("mode", m, &format!("mode/{m}"));
    }
    for d in ["cozy", "compact", "comfortable", "spacious"] {
        add("density", d, &format!("density/{d}"));
    }
    write(&dir.join("$themes.json"), &Value::Array(themes));
    let mut order: Vec<String> = core.iter().map(|s| s.to_string()).collect();
    order.extend((0..6).map(|b| format!("brand/b{b}")));
    order.extend(["mode/light", "mode/dark"].map(String::from));
    order.extend(
        [
            "density/compact",
            "density/cozy",
            "density/comfortable",
            "density/spacious",
        ]
        .map(String::from),
    );
    write(
        &dir.join("$metadata.json"),
        &json!({"tokenSetOrder": order}),
    );
    count
}

fn get(port: u16, path: &str) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut text = String::new();
    s.read_to_string(&mut text).ok()?;
    let status = text.get(9..12)?.parse().ok()?;
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string())?;
    Some((status, body))
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    let brand = content.join("studio");
    let tokens = generate(&brand.join("design-tokens"));
    std::fs::write(
        brand.join("brand.json"),
        r#"{"name": "Studio", "summary": "A Tokens Studio sync.", "version": "1.0.0", "updated": "2026-11-20", "tokens": "design-tokens"}"#,
    )
    .unwrap();
    println!("tokens studio: {tokens} tokens in 15 sets, 12 themes (brand 6, mode 2, density 4)");

    // `marque check`: read, resolve every context with its math, check, render.
    let mut runs = Vec::new();
    for _ in 0..7 {
        let started = Instant::now();
        let out = Command::new(BIN)
            .arg("check")
            .arg(&content)
            .output()
            .unwrap();
        runs.push(started.elapsed().as_secs_f64() * 1000.0);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text}");
        assert!(text.contains("1 valid: 0 error(s)"), "{text}");
    }
    runs.sort_by(f64::total_cmp);
    println!(
        "marque check (whole process): p50 {:.0} ms, max {:.0} ms",
        percentile(&runs, 0.5),
        runs[runs.len() - 1]
    );

    // Save-to-served: a density set's unit changes; tokens.css serves it.
    let port = free_port();
    let server = Server(
        Command::new(BIN)
            .args(["serve", "--listen", &format!("127.0.0.1:{port}")])
            .arg("--content")
            .arg(&content)
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let started = Instant::now();
    while get(port, "/readyz").is_none_or(|(s, _)| s != 200) {
        assert!(started.elapsed() < Duration::from_secs(120), "never ready");
        std::thread::sleep(Duration::from_millis(5));
    }
    println!(
        "serve: ready in {:.0} ms",
        started.elapsed().as_secs_f64() * 1000.0
    );
    let file = brand.join("design-tokens/density/compact.json");
    let mut saves = Vec::new();
    for i in 0..20 {
        let unit = 10 + i;
        let want = format!("--space-unit: {unit}px;");
        std::fs::write(
            &file,
            json!({"space": {"unit": {"value": unit.to_string(), "type": "spacing"}}}).to_string(),
        )
        .unwrap();
        let saved = Instant::now();
        loop {
            if get(port, "/brand/studio/tokens.css").is_some_and(|(_, b)| b.contains(&want)) {
                break;
            }
            assert!(
                saved.elapsed() < Duration::from_secs(30),
                "save {i} never served"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        saves.push(saved.elapsed().as_secs_f64() * 1000.0);
        // Let the watcher settle before the next save.
        std::thread::sleep(Duration::from_millis(150));
    }
    saves.sort_by(f64::total_cmp);
    println!(
        "save-to-served (density/compact.json, 20 saves): p50 {:.0} ms, p99 {:.0} ms",
        percentile(&saves, 0.5),
        percentile(&saves, 0.99)
    );
    let status: Value = serde_json::from_str(&get(port, "/status").unwrap().1).unwrap();
    println!(
        "last rebuild (of it, after the watcher's debounce): {:.0} ms",
        status["lastReloadMs"].as_f64().unwrap_or(0.0)
    );
    drop(server);
}
