//! The consumer matrix (issue 60): every design system the project has
//! fixtures for (the seven of npm dtcg-examples, the fifteen real exports
//! of `tests/fixtures/formats/`, the bundled brands, and the hostile
//! fixture with hostile token names, for the shapes no real system has)
//! against each output
//! for apps, judged by its consumer's own tool:
//!
//! - `android.zip`: `aapt2 compile` of its whole `res/` tree, and every
//!   colour of `values/` the one spec.json gives its token;
//! - `ios.zip`: every `Contents.json` is JSON of the form Apple's Asset
//!   Catalog Format Reference documents (see `apps.rs`), each colour set's
//!   default colour spec.json's;
//! - `tokens.js`: node imports it, every value a string, each opaque sRGB
//!   colour spec.json's hex;
//! - `tokens.d.ts`: `tsc --strict` compiles a program that reads the first
//!   token and, where the brand has modes, the first mode (one `tsc` run
//!   for every system).
//!
//! Each system is built once (`marque build`) and every output read from
//! that build. The test prints the table, system × output, each cell
//! `pass` or its first failure, and fails if any cell does. The browser,
//! Tailwind, Terrazzo and Style Dictionary columns of the issue are the
//! corpus, consumers and formats modules' tests; they are not repeated
//! here.

use crate::helpers::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The outputs judged, in the table's order.
const OUTPUTS: [&str; 4] = ["android.zip", "ios.zip", "tokens.js", "tokens.d.ts"];

/// A cell: `Ok` or its first failure.
type Cell = Result<(), String>;

/// Runs `tool` with `args` in `dir`: whether it succeeded, and both streams.
fn run(dir: &Path, tool: &str, args: &[&str]) -> (bool, String) {
    match Command::new(tool).args(args).current_dir(dir).output() {
        Ok(o) => (
            o.status.success(),
            format!(
                "{}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ),
        ),
        Err(e) => (false, format!("{tool}: {e}")),
    }
}

/// `marque build` of `content` into `out`: each brand's folder, by slug.
fn build(content: &Path, out: &Path) -> Vec<(String, PathBuf)> {
    let status = Command::new(env!("CARGO_BIN_EXE_marque"))
        .arg("build")
        .arg(content)
        .arg("--out")
        .arg(out)
        .stderr(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "{} builds", content.display());
    let mut brands: Vec<(String, PathBuf)> = std::fs::read_dir(out.join("brand"))
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), e.path())
        })
        .collect();
    brands.sort();
    brands
}

/// Extracts `zip` into `to` with Python's zipfile (so every unzip reads it).
fn unzip(zip: &Path, to: &Path) -> Result<(), String> {
    let (ok, out) = run(
        Path::new("."),
        "python3",
        &[
            "-c",
            "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; z.extractall(sys.argv[2])",
            zip.to_str().unwrap(),
            to.to_str().unwrap(),
        ],
    );
    ok.then_some(()).ok_or(format!("unzip: {out}"))
}

fn first_line(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    line.chars().take(160).collect()
}

/// A colour of spec.json's default tokens, aliases followed: its path,
/// and its `$value` object (`colorSpace`, `components`, `hex`, `alpha`).
struct Colour {
    path: Vec<String>,
    value: Value,
}

/// Every colour token of spec.json's default tokens, in its order.
fn spec_colours(brand: &Path) -> Result<Vec<Colour>, String> {
    let spec: Value = serde_json::from_slice(&std::fs::read(brand.join("spec.json")).unwrap())
        .map_err(|e| format!("spec.json: {e}"))?;
    fn walk(v: &Value, path: &mut Vec<String>, out: &mut Vec<(Vec<String>, Value)>) {
        let Some(o) = v.as_object() else { return };
        if o.contains_key("$value") {
            out.push((path.clone(), v.clone()));
            return;
        }
        // `$root` is a token (DTCG 2025.10's group's own value).
        for (k, child) in o
            .iter()
            .filter(|(k, _)| !k.starts_with('$') || *k == "$root")
        {
            path.push(k.clone());
            walk(child, path, out);
            path.pop();
        }
    }
    let mut all = Vec::new();
    walk(&spec["tokens"], &mut Vec::new(), &mut all);
    let by_name: BTreeMap<String, &Value> = all.iter().map(|(p, t)| (p.join("."), t)).collect();
    let mut out = Vec::new();
    for (path, token) in &all {
        if token["$type"] != "color" {
            continue;
        }
        let mut t: &Value = token;
        for _ in 0..16 {
            match t["$value"].as_str() {
                Some(alias) => match by_name.get(alias.trim_matches(['{', '}'])) {
                    Some(next) => t = next,
                    None => break,
                },
                None => break,
            }
        }
        if t["$value"].is_object() {
            out.push(Colour {
                path: path.clone(),
                value: t["$value"].clone(),
            });
        }
    }
    Ok(out)
}

/// `#AARRGGBB` of a spec.json colour.
fn argb(v: &Value) -> String {
    let hex = v["hex"].as_str().unwrap_or("").trim_start_matches('#');
    let alpha = v.get("alpha").and_then(Value::as_f64).unwrap_or(1.0);
    format!(
        "#{:02X}{}",
        (alpha * 255.0).round() as u8,
        hex.to_uppercase()
    )
}

fn android(brand: &Path, work: &Path, aapt2: bool) -> Cell {
    unzip(&brand.join("android.zip"), work)?;
    // Every colour of values/ is spec.json's (the first token of a name
    // has it, as MQ2304 says).
    let xml = std::fs::read_to_string(work.join("res/values/tokens.xml"))
        .map_err(|e| format!("values/tokens.xml: {e}"))?;
    let written: BTreeMap<&str, &str> = xml
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("<color name=\"")?;
            let (name, rest) = rest.split_once("\">")?;
            Some((name, rest.strip_suffix("</color>")?))
        })
        .collect();
    let mut seen = std::collections::BTreeSet::new();
    for c in spec_colours(brand)? {
        let name = marque::render::apps::android::name(&c.path);
        if !seen.insert(name.clone()) {
            continue;
        }
        let want = argb(&c.value);
        match written.get(name.as_str()) {
            Some(got) if *got == want => {}
            Some(got) => {
                return Err(format!(
                    "colour {name} is {got}, spec.json {want} ({})",
                    c.path.join(".")
                ))
            }
            None => return Err(format!("colour {name} ({}) is missing", c.path.join("."))),
        }
    }
    if !aapt2 {
        return Ok(());
    }
    let res = work.join("res");
    let (ok, out) = run(
        work,
        "aapt2",
        &["compile", "--dir", res.to_str().unwrap(), "-o", "out.zip"],
    );
    ok.then_some(())
        .ok_or_else(|| format!("aapt2: {}", first_line(&out)))
}

/// One Contents.json against Apple's documented form.
fn apple_form(file: &str, doc: &Value) -> Cell {
    if doc["info"] != serde_json::json!({"author": "xcode", "version": 1}) {
        return Err(format!("{file}: info {}", doc["info"]));
    }
    if !file.contains(".colorset/") {
        return Ok(());
    }
    let colors = doc["colors"]
        .as_array()
        .filter(|c| !c.is_empty())
        .ok_or(format!("{file}: no colors"))?;
    let mut seen = Vec::new();
    for entry in colors {
        if entry["idiom"] != "universal" {
            return Err(format!("{file}: idiom {}", entry["idiom"]));
        }
        let space = entry["color"]["color-space"].as_str().unwrap_or("");
        if ![
            "srgb",
            "display-p3",
            "extended-srgb",
            "extended-linear-srgb",
        ]
        .contains(&space)
        {
            return Err(format!("{file}: color-space {space:?}"));
        }
        for k in ["red", "green", "blue", "alpha"] {
            let v = &entry["color"]["components"][k];
            let x = v
                .as_str()
                .and_then(|s| s.parse::<f64>().ok())
                .or(v.as_f64());
            if !x.is_some_and(|x| (0.0..=1.0).contains(&x)) {
                return Err(format!("{file}: component {k} {v}"));
            }
        }
        let appearances = entry["appearances"].as_array().cloned().unwrap_or_default();
        for a in &appearances {
            let ok = matches!(
                (a["appearance"].as_str(), a["value"].as_str()),
                (Some("luminosity"), Some("light" | "dark")) | (Some("contrast"), Some("high"))
            );
            if !ok {
                return Err(format!("{file}: appearance {a}"));
            }
        }
        // Two entries for one appearance: Xcode keeps one, silently.
        let key = serde_json::to_string(&appearances).unwrap();
        if seen.contains(&key) {
            return Err(format!("{file}: appearance {key} twice"));
        }
        seen.push(key);
    }
    Ok(())
}

/// The default colour of a colour set (its entry with no appearance)
/// against spec.json's: sRGB as hex, Display P3 by its components.
fn ios_colour(file: &str, doc: &Value, want: &Value) -> Cell {
    let entry = doc["colors"]
        .as_array()
        .and_then(|c| c.iter().find(|e| e.get("appearances").is_none()))
        .ok_or(format!("{file}: no default colour"))?;
    let part = |k: &str| -> f64 {
        let v = &entry["color"]["components"][k];
        v.as_str()
            .and_then(|s| s.parse().ok())
            .or(v.as_f64())
            .unwrap_or(-1.0)
    };
    let rgb = [part("red"), part("green"), part("blue")];
    let same = match entry["color"]["color-space"].as_str() {
        Some("display-p3") => want["components"].as_array().is_some_and(|c| {
            c.iter()
                .zip(rgb)
                .all(|(w, g)| (w.as_f64().unwrap_or(9.0) - g).abs() < 0.0006)
        }),
        // Three decimals, as Xcode writes them, are within a unit of the
        // hex's byte: within half a unit and the rounding.
        _ => {
            let hex = want["hex"].as_str().unwrap_or("").trim_start_matches('#');
            let byte = |i: usize| {
                hex.get(2 * i..2 * i + 2)
                    .and_then(|b| u8::from_str_radix(b, 16).ok())
                    .map_or(-99.0, f64::from)
            };
            (0..3).all(|i| (rgb[i] * 255.0 - byte(i)).abs() <= 0.5 + 0.0005 * 255.0)
        }
    };
    let alpha = want.get("alpha").and_then(Value::as_f64).unwrap_or(1.0);
    match same && (part("alpha") - alpha).abs() < 0.0006 {
        true => Ok(()),
        false => Err(format!(
            "{file}: {} is not spec.json's {want}",
            entry["color"]
        )),
    }
}

fn ios(brand: &Path, work: &Path) -> Cell {
    unzip(&brand.join("ios.zip"), work)?;
    let colours: BTreeMap<String, Value> = spec_colours(brand)?
        .into_iter()
        .map(|c| (marque::spec::tokens::css::css_name(&c.path), c.value))
        .collect();
    let mut stack = vec![work.to_path_buf()];
    let mut sets = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let file = p.strip_prefix(work).unwrap().to_string_lossy().into_owned();
            if !file.ends_with("Contents.json") {
                continue;
            }
            let doc: Value = serde_json::from_slice(&std::fs::read(&p).unwrap())
                .map_err(|e| format!("{file}: not JSON: {e}"))?;
            apple_form(&file, &doc)?;
            let set = file
                .rsplit_once(".colorset/")
                .and_then(|(before, _)| before.rsplit('/').next());
            if let Some(set) = set {
                sets += 1;
                let want = colours
                    .get(set)
                    .ok_or(format!("{file}: no colour token is named {set}"))?;
                ios_colour(&file, &doc, want)?;
            }
        }
    }
    if !work.join("README.txt").is_file() {
        return Err("no README.txt".into());
    }
    let _ = sets;
    Ok(())
}

/// node imports tokens.js; what it exports, as JSON.
fn tokens_js(brand: &Path) -> Result<Value, String> {
    let (ok, out) = run(
        brand,
        "node",
        &["--input-type=module", "-e", "import { tokens, modes } from './tokens.js'; console.log(JSON.stringify({ tokens, modes }));"],
    );
    if !ok {
        return Err(format!("node: {}", first_line(&out)));
    }
    let module: Value =
        serde_json::from_str(out.trim()).map_err(|e| format!("node printed no JSON: {e}"))?;
    fn strings(v: &Value) -> bool {
        match v {
            Value::String(_) => true,
            Value::Object(o) => o.values().all(strings),
            _ => false,
        }
    }
    if !(strings(&module["tokens"]) && strings(&module["modes"])) {
        return Err("a value that is not a string".into());
    }
    for c in spec_colours(brand)? {
        let opaque_srgb = c.value["colorSpace"] == "srgb" && c.value.get("alpha").is_none();
        if !opaque_srgb {
            continue;
        }
        let mut v = &module["tokens"];
        for p in &c.path {
            v = &v[p];
        }
        if v.as_str().map(str::to_lowercase) != c.value["hex"].as_str().map(str::to_lowercase) {
            return Err(format!(
                "{} is {v}, spec.json {}",
                c.path.join("."),
                c.value["hex"]
            ));
        }
    }
    Ok(module)
}

/// The path of the first leaf of `v`, as TypeScript index expressions.
fn first_leaf(v: &Value) -> Option<String> {
    match v {
        Value::String(_) => Some(String::new()),
        Value::Object(o) => o.iter().find_map(|(k, child)| {
            first_leaf(child).map(|rest| format!("[{}]{rest}", serde_json::to_string(k).unwrap()))
        }),
        _ => None,
    }
}

/// A program reading the first token and the first mode of `module`.
fn program(module: &Value) -> String {
    let mut o = String::from("import { tokens, modes } from './tokens.js';\n");
    if let Some(path) = first_leaf(&module["tokens"]) {
        o.push_str(&format!(
            "const t: string = tokens{path};\nconsole.log(t);\n"
        ));
    }
    if let Some(path) = first_leaf(&module["modes"]) {
        o.push_str(&format!(
            "const m: string = modes{path};\nconsole.log(m);\n"
        ));
    }
    o.push_str("console.log(Object.keys(tokens).length, Object.keys(modes).length);\n");
    o
}

#[test]
fn every_design_system_through_every_output_for_apps() {
    let dir = tempfile::tempdir().unwrap();
    let mut systems: Vec<(String, PathBuf)> = Vec::new();
    if let Some(corpus) = crate::corpus::corpus() {
        let (_, slugs) = crate::corpus::built(&corpus, &dir.path().join("dtcg"));
        for slug in slugs {
            let path = dir.path().join("dtcg/site/brand").join(&slug);
            systems.push((format!("dtcg/{slug}"), path));
        }
    }
    let exports = dir.path().join("exports");
    crate::formats::export_content(&exports);
    for (slug, path) in build(&exports, &dir.path().join("exports-site")) {
        systems.push((format!("export/{slug}"), path));
    }
    for (slug, path) in build(&example_content(), &dir.path().join("bundled-site")) {
        systems.push((format!("bundled/{slug}"), path));
    }
    // No real system has every shape an escaping rule is for: hostile
    // names and values (apps.rs) stand for them.
    let hostile = dir.path().join("hostile");
    crate::apps::hostile_content(&hostile);
    for (slug, path) in build(&hostile, &dir.path().join("hostile-site")) {
        systems.push((format!("hostile/{slug}"), path));
    }
    let aapt2 = require(
        "aapt2",
        Command::new("aapt2").arg("version").output().is_ok(),
        "bash .ci/deps (Debian package aapt)",
    );
    let tsc = js_tool("tsc");

    let mut table: BTreeMap<String, BTreeMap<&str, Cell>> = BTreeMap::new();
    let mut programs: Vec<(String, PathBuf)> = Vec::new();
    for (i, (system, brand)) in systems.iter().enumerate() {
        let work = dir.path().join(format!("work-{i}"));
        let row = table.entry(system.clone()).or_default();
        row.insert("android.zip", android(brand, &work.join("android"), aapt2));
        row.insert("ios.zip", ios(brand, &work.join("ios")));
        match tokens_js(brand) {
            Ok(module) => {
                row.insert("tokens.js", Ok(()));
                let ts = work.join("ts");
                std::fs::create_dir_all(&ts).unwrap();
                for file in ["tokens.js", "tokens.d.ts"] {
                    std::fs::copy(brand.join(file), ts.join(file)).unwrap();
                }
                std::fs::write(ts.join("read.ts"), program(&module)).unwrap();
                programs.push((system.clone(), ts.join("read.ts")));
            }
            Err(e) => {
                row.insert("tokens.js", Err(e));
                row.insert("tokens.d.ts", Err("tokens.js fails".into()));
            }
        }
    }
    // tsc --strict, once for every program; each error is the cell of the
    // system whose folder it names.
    if let Some(tsc) = &tsc {
        let mut args: Vec<String> = [
            "--strict",
            "--noEmit",
            "--skipLibCheck",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "--target",
            "es2022",
        ]
        .map(String::from)
        .to_vec();
        args.extend(
            programs
                .iter()
                .map(|(_, p)| p.to_string_lossy().into_owned()),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (_, out) = run(dir.path(), &tsc.to_string_lossy(), &args);
        for (system, program) in &programs {
            let folder = program.parent().unwrap().to_string_lossy().into_owned();
            let relative = program
                .parent()
                .unwrap()
                .strip_prefix(dir.path())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let error = out
                .lines()
                .find(|l| l.contains(&folder) || l.starts_with(&relative));
            let cell = match error {
                Some(line) => Err(format!(
                    "tsc: {}",
                    line.chars().take(160).collect::<String>()
                )),
                None => Ok(()),
            };
            table.get_mut(system).unwrap().insert("tokens.d.ts", cell);
        }
    }

    // The table.
    let width = table.keys().map(|s| s.chars().count()).max().unwrap_or(6);
    let mut text = format!("{:width$}", "system");
    for o in OUTPUTS {
        text.push_str(&format!(" | {o:11}"));
    }
    text.push('\n');
    let mut failures = Vec::new();
    for (system, row) in &table {
        text.push_str(&format!("{system:width$}"));
        for o in OUTPUTS {
            let cell = match row.get(o) {
                Some(Ok(())) => "pass".to_string(),
                Some(Err(e)) => {
                    failures.push(format!("{system} × {o}: {e}"));
                    "FAIL".to_string()
                }
                None => "skipped".to_string(),
            };
            text.push_str(&format!(" | {cell:11}"));
        }
        text.push('\n');
    }
    println!("{text}");
    if !aapt2 {
        println!("android.zip: unzipped only (aapt2 is not installed)");
    }
    if tsc.is_none() {
        println!("tokens.d.ts: skipped (tsc is not installed)");
    }
    assert!(
        failures.is_empty(),
        "{text}\n{} cell(s) fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(table.len() >= 18, "{} systems", table.len());
}
