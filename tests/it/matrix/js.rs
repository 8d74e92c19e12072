//! The matrix's columns for JavaScript: `tokens.js` in node, `tokens.d.ts`
//! in `tsc --strict` (one run for every system), and the `package.tgz` a
//! release of the system would have, installed by npm offline into a
//! fresh project and imported by node.

use super::{first_line, run, Cell, System};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// node imports tokens.js; what it exports, as JSON.
pub(super) fn tokens_js(system: &System) -> Result<Value, String> {
    let (ok, out) = run(
        &system.brand,
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
    for (path, value) in system.colours(&BTreeMap::new()) {
        let opaque_srgb = value["colorSpace"] == "srgb" && value.get("alpha").is_none();
        if !opaque_srgb {
            continue;
        }
        let mut v = &module["tokens"];
        for p in path {
            v = &v[p];
        }
        if v.as_str().map(str::to_lowercase) != value["hex"].as_str().map(str::to_lowercase) {
            return Err(format!(
                "{} is {v}, spec.json {}",
                path.join("."),
                value["hex"]
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
pub(super) fn program(module: &Value) -> String {
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

/// `tsc --strict` of every program at once: each error is the cell of the
/// system whose folder it names. `programs` are `(system, read.ts)`.
pub(super) fn tsc_each(
    tsc: &Path,
    dir: &Path,
    programs: &[(String, PathBuf)],
) -> Vec<(String, Cell)> {
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
    let (_, out) = run(dir, &tsc.to_string_lossy(), &args);
    programs
        .iter()
        .map(|(system, program)| {
            let folder = program.parent().unwrap();
            let absolute = folder.to_string_lossy().into_owned();
            let relative = folder
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let error = out
                .lines()
                .find(|l| l.contains(&absolute) || l.starts_with(&relative));
            let cell = match error {
                Some(line) => Err(format!(
                    "tsc: {}",
                    line.chars().take(160).collect::<String>()
                )),
                None => Ok(()),
            };
            (system.clone(), cell)
        })
        .collect()
}

/// The package.tgz a release of `system` would have (marque's own
/// renderer, on the build's tokens.js and tokens.d.ts), installed with
/// `npm install --offline` into a fresh project: node imports it by its
/// name, and reads what tokens.js exports (`module`).
pub(super) fn package(system: &System, module: &Value, work: &Path, cache: &Path) -> Cell {
    let read = |file: &str| std::fs::read_to_string(system.brand.join(file)).unwrap_or_default();
    let text = |k: &str| system.spec[k].as_str().unwrap_or_default().to_string();
    let slug = text("slug");
    let tgz = marque::render::apps::package_of(
        &slug,
        &text("version"),
        &text("name"),
        Some("matrix"),
        &read("tokens.js"),
        &read("tokens.d.ts"),
    );
    std::fs::create_dir_all(work).unwrap();
    std::fs::write(work.join("package.tgz"), tgz).unwrap();
    std::fs::write(
        work.join("package.json"),
        r#"{"name": "site", "private": true, "type": "module"}"#,
    )
    .unwrap();
    let (ok, out) = run(
        work,
        "npm",
        &[
            "install",
            "--offline",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--cache",
            cache.to_str().unwrap(),
            "./package.tgz",
        ],
    );
    if !ok {
        return Err(format!("npm install: {}", first_line(&out)));
    }
    let name = marque::render::apps::package_name(Some("matrix"), &slug);
    let script = format!(
        "import {{ tokens, modes }} from {}; console.log(JSON.stringify({{ tokens, modes }}));",
        serde_json::to_string(&name).unwrap()
    );
    let (ok, out) = run(work, "node", &["--input-type=module", "-e", &script]);
    if !ok {
        return Err(format!("node imports {name}: {}", first_line(&out)));
    }
    match serde_json::from_str::<Value>(out.trim()) {
        Ok(v) if v == *module => Ok(()),
        Ok(_) => Err(format!("{name} exports other values than tokens.js")),
        Err(e) => Err(format!("node printed no JSON: {e}")),
    }
}
