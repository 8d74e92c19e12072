//! The consumer matrix (issue 60): every design system the project has
//! fixtures for (the seven of npm dtcg-examples, the fifteen real exports
//! of `tests/fixtures/formats/`, the bundled brands, and the hostile
//! fixture with hostile token names, for the shapes no real system has)
//! against each output, judged by its consumer's own tool:
//!
//! - `tokens.css`: one headless Chromium page per system; every colour,
//!   dimension, duration and font weight, in the default and in every
//!   context of every modifier, computes to the resolver's value
//!   (`web.rs`);
//! - `android.zip`: every colour of `values/`, and of `values-night/` (or
//!   `values-notnight/`) over it, the resolver's in that context; `aapt2
//!   compile` of its whole `res/` tree and `aapt2 link` of a minimal app
//!   against Android's framework resources (`apps.rs`);
//! - `ios.zip`: every `Contents.json` is JSON of the form Apple's Asset
//!   Catalog Format Reference documents (see `apps.rs`), each colour set's
//!   default colour spec.json's;
//! - `tokens.js`: node imports it, every value a string, each opaque sRGB
//!   colour spec.json's hex;
//! - `tokens.d.ts`: `tsc --strict` compiles a program that reads the first
//!   token and, where the brand has modes, the first mode (one `tsc` run
//!   for every system);
//! - `package.tgz`: the package a release would have, `npm install
//!   --offline` into a fresh project, and node imports what tokens.js
//!   exports (`js.rs`);
//! - `llms.txt`: the llmstxt.org reference parser reads it, titled with
//!   the brand's name, with links;
//! - `DESIGN.md`: Google's `@google/design.md` linter, no error;
//! - `tailwind.css`: a Tailwind CSS v4 build with one utility per
//!   namespace, each computing in Chromium what the theme's value does,
//!   also under a context's attribute (`tailwind.rs`);
//! - `tokens.json` and `tokens.resolver.json`: Terrazzo 2.7 with its lint
//!   on, and `tokens.json` through Style Dictionary 5.5 (`tools.rs`);
//! - `tokens.figma.json`: the request body of Figma's own OpenAPI;
//! - `figma.zip`: Figma's native variables import (no plugin: no
//!   manifest, no code), its files read as Figma's import reads them into
//!   that same request body, which Figma's OpenAPI accepts, every colour
//!   the resolver's in its mode's context (`figma_zip.rs`);
//! - MCP: marque serves each content folder and the MCP Python SDK lists
//!   and reads every output of every system (`mcp.rs`).
//!
//! Each system is built once (`marque build`) and its resolved model
//! (spec.json) read once; every column reads that build. The test prints
//! the table, system × column, each cell `pass` or its first failure, and
//! the time each column took; it fails if any cell does. Which outputs a
//! column judges is data ([`COLUMNS`]): `outputs.rs` fails for an output
//! of the registry that no column judges.

mod apps;
mod columns;
mod figma_zip;
mod js;
mod mcp;
mod outputs;
mod tailwind;
mod tools;
mod web;

use crate::helpers::*;
use crate::spec_tokens::{by_name, colour, token_paths};
use columns::{COLUMNS, KNOWN};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A cell: `Ok` or its first failure.
type Cell = Result<(), String>;

/// Runs `tool` with `args` in `dir`: whether it succeeded, and both streams.
pub(super) fn run(dir: &Path, tool: &str, args: &[&str]) -> (bool, String) {
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
pub(super) fn unzip(zip: &Path, to: &Path) -> Result<(), String> {
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

pub(super) fn first_line(text: &str) -> String {
    let line = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    line.chars().take(160).collect()
}

/// One system's build and its resolved model, spec.json, read once and
/// shared by every column.
struct System {
    brand: PathBuf,
    spec: Value,
    /// Every token of the default context with its path, in spec.json's order.
    paths: Vec<(Vec<String>, Value)>,
    default: BTreeMap<String, Value>,
}

/// A context of a modifier: the attribute that selects it, and the tokens
/// it changes (spec.json's `modes`).
struct Context {
    name: String,
    attribute: String,
    value: String,
    color_scheme: bool,
    is_default: bool,
    tokens: BTreeMap<String, Value>,
}

impl System {
    fn load(brand: &Path) -> Result<System, String> {
        let spec: Value = std::fs::read(brand.join("spec.json"))
            .map_err(|e| e.to_string())
            .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
            .map_err(|e| format!("spec.json: {e}"))?;
        Ok(System {
            brand: brand.to_path_buf(),
            paths: token_paths(&spec["tokens"]),
            default: by_name(&spec["tokens"]),
            spec,
        })
    }

    /// Every modifier's every context.
    fn contexts(&self) -> Vec<Context> {
        let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
        let mut out = Vec::new();
        for m in self.spec["modes"].as_array().into_iter().flatten() {
            for c in m["contexts"].as_array().into_iter().flatten() {
                let tokens = c["tokens"].as_object().cloned().unwrap_or_default();
                out.push(Context {
                    name: text(&c["name"]),
                    attribute: text(&m["attribute"]),
                    value: text(&c["value"]),
                    color_scheme: m["colorScheme"] == true,
                    is_default: m["default"] == c["name"] || m["default"] == c["value"],
                    tokens: tokens.into_iter().collect(),
                });
            }
        }
        out
    }

    /// Whether the colour scheme's default context is its dark one.
    fn default_is_dark(&self) -> bool {
        self.contexts()
            .iter()
            .any(|c| c.color_scheme && c.is_default && c.value == "dark")
    }

    /// Every colour token's path and value in `here` (a context's tokens)
    /// over the default, aliases followed.
    fn colours<'a>(
        &'a self,
        here: &'a BTreeMap<String, Value>,
    ) -> Vec<(&'a Vec<String>, &'a Value)> {
        self.paths
            .iter()
            .filter(|(_, t)| t["$type"] == "color")
            .filter_map(|(path, _)| Some((path, colour(&path.join("."), here, &self.default)?)))
            .collect()
    }

    /// A token's `$value` in `here` over the default, aliases followed.
    fn resolve<'a>(&'a self, name: &str, here: &'a BTreeMap<String, Value>) -> Option<&'a Value> {
        let mut name = name.to_string();
        for _ in 0..16 {
            let t = here.get(&name).or_else(|| self.default.get(&name))?;
            match &t["$value"] {
                Value::String(s) if s.starts_with('{') && s.ends_with('}') => {
                    name = s.trim_matches(['{', '}']).to_string()
                }
                v => return Some(v),
            }
        }
        None
    }
}

/// A content folder the systems come from, and their names' prefix.
type Content = (&'static str, PathBuf);

/// Every system, built: `(name, brand folder)`, named by where it comes
/// from; and each content folder they come from, with the names' prefix.
fn systems(dir: &Path) -> (Vec<(String, PathBuf)>, Vec<Content>) {
    let mut systems: Vec<(String, PathBuf)> = Vec::new();
    let mut contents = Vec::new();
    if let Some(corpus) = crate::corpus::corpus() {
        let (_, slugs) = crate::corpus::built(&corpus, &dir.join("dtcg"));
        for slug in slugs {
            let path = dir.join("dtcg/site/brand").join(&slug);
            systems.push((format!("dtcg/{slug}"), path));
        }
        contents.push(("dtcg/", dir.join("dtcg/content")));
    }
    let exports = dir.join("exports");
    crate::formats::export_content(&exports);
    for (slug, path) in build(&exports, &dir.join("exports-site")) {
        systems.push((format!("export/{slug}"), path));
    }
    contents.push(("export/", exports));
    for (slug, path) in build(&example_content(), &dir.join("bundled-site")) {
        systems.push((format!("bundled/{slug}"), path));
    }
    contents.push(("bundled/", example_content()));
    // No real system has every shape an escaping rule is for: hostile
    // names and values (apps.rs) stand for them.
    let hostile = dir.join("hostile");
    crate::apps::hostile_content(&hostile);
    for (slug, path) in build(&hostile, &dir.join("hostile-site")) {
        systems.push((format!("hostile/{slug}"), path));
    }
    contents.push(("hostile/", hostile));
    (systems, contents)
}

type Rows = BTreeMap<String, BTreeMap<&'static str, Cell>>;

/// The table, system × column, and each failing cell's failure.
/// `text` without its ANSI escape sequences (colours, bold).
fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // CSI: `ESC [`, parameters, then one final letter.
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

fn table(rows: &Rows) -> (String, Vec<String>) {
    let width = rows.keys().map(|s| s.chars().count()).max().unwrap_or(6);
    let mut text = format!("{:width$}", "system");
    for c in &COLUMNS {
        text.push_str(&format!(" | {:11}", c.name));
    }
    text.push('\n');
    let mut failures = Vec::new();
    for (system, row) in rows {
        text.push_str(&format!("{system:width$}"));
        for c in &COLUMNS {
            let known: Vec<_> = KNOWN
                .iter()
                .filter(|k| k.0 == system.as_str() && k.1 == c.name)
                .collect();
            // A tool colours its messages where it guesses a terminal (in
            // CI, say): the words are what is compared and shown.
            let got = row.get(c.name).map(|r| r.as_ref().map_err(|e| plain(e)));
            let cell = match got {
                Some(Ok(_)) if known.is_empty() => "pass".to_string(),
                Some(Ok(_)) => {
                    failures.push(format!(
                        "{system} × {}: passes, but KNOWN says it fails",
                        c.name
                    ));
                    "STALE".to_string()
                }
                Some(Err(e)) if known.iter().any(|k| e.starts_with(k.2)) => "known".to_string(),
                Some(Err(e)) => {
                    failures.push(format!("{system} × {}: {e}", c.name));
                    "FAIL".to_string()
                }
                None => "skipped".to_string(),
            };
            text.push_str(&format!(" | {cell:11}"));
        }
        text.push('\n');
    }
    (text, failures)
}

/// The consumers' tools this machine has (`.ci/deps` installs them all).
struct Tools {
    aapt2: bool,
    link: bool,
    tsc: Option<PathBuf>,
    design_md: Option<PathBuf>,
    llms_txt: bool,
    npm: bool,
    tailwind: Option<PathBuf>,
    tz: Option<PathBuf>,
    sd: Option<PathBuf>,
    mcp: bool,
}

impl Tools {
    fn find() -> Tools {
        let aapt2 = require(
            "aapt2",
            Command::new("aapt2").arg("version").output().is_ok(),
            "bash .ci/deps (Debian package aapt)",
        );
        let link = aapt2
            && require(
                "Android's framework resources",
                Path::new(apps::FRAMEWORK_RES).is_file(),
                "bash .ci/deps (Debian package android-framework-res)",
            );
        Tools {
            aapt2,
            link,
            tsc: js_tool("tsc"),
            design_md: js_tool("design.md"),
            llms_txt: require(
                "the llms-txt reference parser",
                python_can("import llms_txt.miniparse"),
                "pip install llms-txt",
            ),
            npm: require(
                "npm",
                Command::new("npm").arg("--version").output().is_ok(),
                "bash .ci/deps",
            ),
            tailwind: js_tool("tailwindcss"),
            tz: js_tool("tz"),
            sd: js_tool("style-dictionary"),
            mcp: require(
                "the MCP Python SDK",
                python_can("import mcp.client.streamable_http"),
                "bash .ci/deps (PyPI mcp)",
            ),
        }
    }
}

/// How long each column took, summed over the systems.
#[derive(Default)]
struct Clock(BTreeMap<&'static str, Duration>);

impl Clock {
    fn time<T>(&mut self, column: &'static str, f: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let t = f();
        *self.0.entry(column).or_default() += started.elapsed();
        t
    }
}

/// The columns judged one system at a time: tokens.css, Tailwind,
/// Figma and figma.zip, the apps and tokens.js with its package; the TypeScript
/// program for `tsc`, which runs once for every system, is put in `programs`.
fn one_system(
    tools: &Tools,
    browser: Option<&crate::browser::Browser>,
    system: &System,
    work: &Path,
    clock: &mut Clock,
    programs: &mut Vec<PathBuf>,
) -> BTreeMap<&'static str, Cell> {
    let mut row = BTreeMap::new();
    if let Some(b) = browser {
        let cell = clock.time("tokens.css", || {
            web::tokens_css(b, system, &work.join("css"))
        });
        row.insert("tokens.css", cell);
        if let Some(tool) = &tools.tailwind {
            let cell = clock.time("tailwind", || {
                tailwind::tailwind(b, tool, system, &work.join("tailwind"))
            });
            row.insert("tailwind", cell);
        }
    }
    row.insert("figma", clock.time("figma", || tools::figma(system)));
    let cell = clock.time("figma.zip", || {
        figma_zip::figma_zip(system, &work.join("figma"))
    });
    row.insert("figma.zip", cell);
    let cell = clock.time("android.zip", || {
        apps::android(system, &work.join("android"), tools.aapt2, tools.link)
    });
    row.insert("android.zip", cell);
    row.insert(
        "ios.zip",
        clock.time("ios.zip", || apps::ios(system, &work.join("ios"))),
    );
    match clock.time("tokens.js", || js::tokens_js(system)) {
        Ok(module) => {
            row.insert("tokens.js", Ok(()));
            let ts = work.join("ts");
            std::fs::create_dir_all(&ts).unwrap();
            for file in ["tokens.js", "tokens.d.ts"] {
                std::fs::copy(system.brand.join(file), ts.join(file)).unwrap();
            }
            std::fs::write(ts.join("read.ts"), js::program(&module)).unwrap();
            programs.push(ts.join("read.ts"));
            if tools.npm {
                let cache = work.parent().unwrap().join("npm-cache");
                let cell = clock.time("package.tgz", || {
                    js::package(system, &module, &work.join("npm"), &cache)
                });
                row.insert("package.tgz", cell);
            }
        }
        Err(e) => {
            row.insert("tokens.js", Err(e));
            row.insert("tokens.d.ts", Err("tokens.js fails".into()));
            row.insert("package.tgz", Err("tokens.js fails".into()));
        }
    }
    row
}

/// The columns judged for every system in one process of their tool.
fn every_system(
    tools: &Tools,
    loaded: &[(String, System)],
    dir: &Path,
    rows: &mut Rows,
    clock: &mut Clock,
) {
    let systems: Vec<&System> = loaded.iter().map(|(_, s)| s).collect();
    let mut set = |column: &'static str, cells: Vec<Cell>| {
        for ((name, _), cell) in loaded.iter().zip(cells) {
            rows.get_mut(name).unwrap().insert(column, cell);
        }
    };
    if tools.llms_txt {
        set(
            "llms.txt",
            clock.time("llms.txt", || web::llms_txt_each(&systems)),
        );
    }
    if let Some(tool) = &tools.design_md {
        let cells = clock.time("DESIGN.md", || web::design_md_each(tool, &systems));
        set("DESIGN.md", cells);
    }
    if let Some(tz) = &tools.tz {
        set(
            "terrazzo",
            clock.time("terrazzo", || tools::terrazzo_each(tz, &systems)),
        );
    }
    if let Some(sd) = &tools.sd {
        let cells = clock.time("style-dict", || {
            tools::style_dictionary_each(sd, &systems, dir)
        });
        set("style-dict", cells);
    }
}

#[test]
fn every_design_system_through_every_output() {
    let dir = tempfile::tempdir().unwrap();
    let mut clock = Clock::default();
    let (built, contents) = clock.time("build", || systems(dir.path()));
    let tools = Tools::find();
    let browser = crate::browser::locked();

    let mut rows: Rows = BTreeMap::new();
    let mut loaded: Vec<(String, System)> = Vec::new();
    let mut programs: Vec<(String, PathBuf)> = Vec::new();
    for (i, (name, brand)) in built.iter().enumerate() {
        let system = match System::load(brand) {
            Ok(s) => s,
            Err(e) => {
                let row = rows.entry(name.clone()).or_default();
                for c in &COLUMNS {
                    row.insert(c.name, Err(e.clone()));
                }
                continue;
            }
        };
        let work = dir.path().join(format!("work-{i}"));
        let mut mine = Vec::new();
        let b = browser.as_ref().map(|(_, b)| b);
        let row = one_system(&tools, b, &system, &work, &mut clock, &mut mine);
        programs.extend(mine.into_iter().map(|p| (name.clone(), p)));
        rows.insert(name.clone(), row);
        loaded.push((name.clone(), system));
    }
    drop(browser);
    if let Some(tsc) = &tools.tsc {
        let cells = clock.time("tokens.d.ts", || js::tsc_each(tsc, dir.path(), &programs));
        for (system, cell) in cells {
            rows.get_mut(&system).unwrap().insert("tokens.d.ts", cell);
        }
    }
    every_system(&tools, &loaded, dir.path(), &mut rows, &mut clock);
    if tools.mcp {
        let groups: Vec<(&Path, Vec<&System>)> = contents
            .iter()
            .map(|(prefix, content)| {
                let mine = loaded.iter().filter(|(n, _)| n.starts_with(prefix));
                (content.as_path(), mine.map(|(_, s)| s).collect())
            })
            .collect();
        let cells = clock.time("mcp", || mcp::mcp_each(&groups));
        for ((prefix, _), cells) in contents.iter().zip(cells) {
            let names = loaded.iter().filter(|(n, _)| n.starts_with(prefix));
            for ((name, _), cell) in names.zip(cells) {
                rows.get_mut(name).unwrap().insert("mcp", cell);
            }
        }
    }

    let (text, failures) = table(&rows);
    println!("{text}");
    let spent: Vec<String> = clock
        .0
        .iter()
        .map(|(c, d)| format!("{c} {:.1} s", d.as_secs_f64()))
        .collect();
    println!("time per column: {}", spent.join(", "));
    if !tools.link {
        println!(
            "android.zip: not linked (aapt2 or Android's framework resources are not installed)"
        );
    }
    assert!(
        failures.is_empty(),
        "{text}\n{} cell(s) fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(rows.len() >= 18, "{} systems", rows.len());
}
