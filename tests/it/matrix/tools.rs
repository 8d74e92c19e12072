//! The matrix's columns judged by the design-token tools and by Figma:
//! `tokens.json` and `tokens.resolver.json` through Terrazzo 2.7's parser
//! (its lint on, default settings) and `tokens.json` through Style Dictionary 5.5
//! (one node process for every system), and `tokens.figma.json` against
//! the request body of Figma's `POST /v1/files/{file_key}/variables` in
//! Figma's own OpenAPI (`tests/fixtures/figma/openapi.yaml`).

use super::{first_line, Cell, System};
use crate::corpus::{count_tokens, names_of_type};
use serde_json::Value;
use std::path::Path;

/// A system's tokens.json, parsed.
fn strict(system: &System) -> Result<Value, String> {
    std::fs::read(system.brand.join("tokens.json"))
        .map_err(|e| e.to_string())
        .and_then(|b| serde_json::from_slice(&b).map_err(|e| e.to_string()))
        .map_err(|e| format!("tokens.json: {e}"))
}

/// Terrazzo's parser, as `tz build` runs it (`defineConfig` of a config
/// with the file as its tokens and no plugin, then `parse` with its lint
/// on), over each file in one node process: the number of tokens, or the
/// first error (a lint error throws).
const TERRAZZO: &str = r#"
const P = await import(PARSER);
const { readFileSync } = await import("node:fs");
const { pathToFileURL } = await import("node:url");
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const file of JSON.parse(input)) {
  const url = pathToFileURL(file);
  try {
    const logger = new P.Logger({ level: "error" });
    const config = P.defineConfig({ tokens: [url.href], plugins: [] }, { cwd: new URL(".", url) });
    const { tokens } = await P.parse([{ filename: url, src: readFileSync(file, "utf8") }], { config, logger });
    out.push({ ok: { tokens: Object.keys(tokens).length, errors: logger.errorCount } });
  } catch (e) {
    out.push({ err: String(e.message || e).split("\n")[0] });
  }
}
console.log(JSON.stringify(out));
"#;

/// Runs `script` in node in `cwd` with `input` as JSON on its stdin, and
/// reads its JSON answer.
fn node(script: &str, cwd: &Path, input: &Value) -> Vec<Value> {
    let mut child = std::process::Command::new("node")
        .args(["--input-type=module", "-e", script])
        .current_dir(cwd)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    let _ = child
        .stdin
        .take()
        .unwrap()
        .write_all(input.to_string().as_bytes());
    let out = child.wait_with_output().unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("node: {e}: {}", String::from_utf8_lossy(&out.stderr)))
}

/// Terrazzo reads tokens.json and tokens.resolver.json of each system with
/// its lint on: no lint error, and every token of tokens.json read.
pub(super) fn terrazzo_each(tz: &Path, systems: &[&System]) -> Vec<Cell> {
    let modules = tz.ancestors().nth(2).unwrap();
    let parser = modules.join("@terrazzo/parser/dist/index.js");
    let script = TERRAZZO.replace(
        "PARSER",
        &serde_json::to_string(&format!("file://{}", parser.display())).unwrap(),
    );
    let files = ["tokens.json", "tokens.resolver.json"];
    let input: Vec<String> = systems
        .iter()
        .flat_map(|s| files.map(|f| s.brand.join(f).display().to_string()))
        .collect();
    let answers = node(&script, modules, &serde_json::json!(input));
    systems
        .iter()
        .zip(answers.chunks(2))
        .map(|(system, answers)| {
            let expected = count_tokens(&strict(system)?);
            for (file, answer) in files.iter().zip(answers) {
                if let Some(e) = answer["err"].as_str() {
                    return Err(format!("{file}: {}", first_line(e)));
                }
                let read = answer["ok"]["tokens"].as_u64().unwrap_or(0) as usize;
                if read != expected || answer["ok"]["errors"] != 0 {
                    return Err(format!(
                        "{file}: {read} of {expected} tokens, {} error(s)",
                        answer["ok"]["errors"]
                    ));
                }
            }
            Ok(())
        })
        .collect()
}

/// Style Dictionary's `css/variables` of each system's tokens.json, in
/// one node process: the CSS, or what it throws.
const STYLE_DICTIONARY: &str = r#"
const { default: StyleDictionary } = await import(SD);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const out = [];
for (const [source, build] of JSON.parse(input)) {
  try {
    const sd = new StyleDictionary({
      source: [source],
      log: { verbosity: "silent", warnings: "disabled" },
      platforms: { css: { transformGroup: "css", buildPath: build + "/", files: [{ destination: "variables.css", format: "css/variables" }] } },
    });
    await sd.buildAllPlatforms();
    out.push({ ok: true });
  } catch (e) {
    out.push({ err: String(e.message || e).split("\n").map((l) => l.trim()).filter(Boolean).slice(0, 2).join(" ") });
  }
}
console.log(JSON.stringify(out));
"#;

/// Style Dictionary builds each system's tokens.json: a variable per
/// token, each a CSS value (durations, transitions and gradients aside,
/// which Style Dictionary 5.5 has no transform for; see corpus.rs).
pub(super) fn style_dictionary_each(sd: &Path, systems: &[&System], work: &Path) -> Vec<Cell> {
    let modules = sd.ancestors().nth(2).unwrap();
    let entry = modules.join("style-dictionary/lib/StyleDictionary.js");
    let script = STYLE_DICTIONARY.replace(
        "SD",
        &serde_json::to_string(&format!("file://{}", entry.display())).unwrap(),
    );
    let plan: Vec<(String, String)> = (0..systems.len())
        .map(|i| {
            let source = systems[i].brand.join("tokens.json");
            let build = work.join(format!("sd-{i}"));
            (source.display().to_string(), build.display().to_string())
        })
        .collect();
    let answers = node(&script, modules, &serde_json::json!(plan));
    systems
        .iter()
        .zip(answers)
        .zip(plan)
        .map(|((system, answer), (_, build))| {
            if let Some(e) = answer["err"].as_str() {
                return Err(format!("Style Dictionary throws {}", first_line(e)));
            }
            let tokens = strict(system)?;
            let css = std::fs::read_to_string(Path::new(&build).join("variables.css"))
                .map_err(|e| format!("variables.css: {e}"))?;
            let (want, got) = (count_tokens(&tokens), css.matches("\n  --").count());
            if want != got {
                return Err(format!("{got} variables for {want} tokens"));
            }
            // Nor for gradients: it prints each stop as `[object Object]`.
            let timed = names_of_type(&tokens, &["duration", "transition", "gradient"]);
            for line in css.lines().filter(|l| l.contains("[object Object]")) {
                let name = line.trim().trim_start_matches("--");
                let name = name.split(':').next().unwrap_or("").replace('-', "");
                if !timed.contains(&name) {
                    return Err(format!("not a CSS value: {}", first_line(line)));
                }
            }
            Ok(())
        })
        .collect()
}

/// tokens.figma.json is a body Figma's variables API accepts: its OpenAPI
/// schema, and the rules it cannot state (`assert_figma_accepts`).
pub(super) fn figma(system: &System) -> Cell {
    let body = std::fs::read_to_string(system.brand.join("tokens.figma.json"))
        .map_err(|e| format!("tokens.figma.json: {e}"))?;
    figma_accepts(&body)
}

/// `body` is one Figma's variables API accepts, or the first line of why
/// not (the `figma.zip` column reads its bundle into such a body too).
pub(super) fn figma_accepts(body: &str) -> Cell {
    std::panic::catch_unwind(|| crate::surfaces::assert_figma_accepts(body)).map_err(|e| {
        let text = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        first_line(&text.replace('\n', " "))
    })
}
