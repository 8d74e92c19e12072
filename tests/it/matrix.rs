//! The consumer matrix (issue 60): every design system the project has
//! fixtures for (the seven of npm dtcg-examples, the fifteen real exports
//! of `tests/fixtures/formats/`, the bundled brands) against each output
//! for apps, judged by its consumer's own tool:
//!
//! - `android.zip`: `aapt2 compile` of its whole `res/` tree;
//! - `ios.zip`: every `Contents.json` is JSON of the form Apple's Asset
//!   Catalog Format Reference documents (see `apps.rs`);
//! - `tokens.js`: node imports it, every value a string;
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

fn android(brand: &Path, work: &Path, aapt2: bool) -> Cell {
    unzip(&brand.join("android.zip"), work)?;
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

fn ios(brand: &Path, work: &Path) -> Cell {
    unzip(&brand.join("ios.zip"), work)?;
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
            sets += usize::from(file.contains(".colorset/"));
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
    match strings(&module["tokens"]) && strings(&module["modes"]) {
        true => Ok(module),
        false => Err("a value that is not a string".into()),
    }
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
    assert!(table.len() >= 17, "{} systems", table.len());
}
