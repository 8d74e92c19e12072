//! The matrix's columns for the web and for readers: `tokens.css` in
//! headless Chromium (one page per system), `llms.txt` through the
//! llmstxt.org reference parser and DESIGN.md through Google's linter
//! (each one process for every system).

use super::{Cell, Context, System};
use crate::browser::Browser;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// What Chromium computes for one token: the property that paints it.
fn probe_property(kind: &str) -> Option<&'static str> {
    Some(match kind {
        "color" => "color",
        "dimension" => "margin-left",
        "duration" => "transition-duration",
        "fontWeight" => "font-weight",
        _ => return None,
    })
}

/// What the resolver's value should compute to in Chromium's terms: a
/// colour as sRGB bytes and alpha, a length in px, a duration in s, a
/// weight as a number; `None` for a value this column does not judge.
fn expected(kind: &str, value: &Value) -> Option<Value> {
    let number = |v: &Value| v["value"].as_f64();
    match kind {
        "color" => {
            let hex = value["hex"].as_str()?.trim_start_matches('#');
            let byte = |i: usize| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok();
            let alpha = value.get("alpha").and_then(Value::as_f64).unwrap_or(1.0);
            Some(json!([
                byte(0)?,
                byte(1)?,
                byte(2)?,
                (alpha * 255.0).round()
            ]))
        }
        "dimension" => match value["unit"].as_str()? {
            "px" => number(value).map(|n| json!(n)),
            "rem" => number(value).map(|n| json!(n * 16.0)),
            _ => None,
        },
        "duration" => match value["unit"].as_str()? {
            "ms" => number(value).map(|n| json!(n / 1000.0)),
            "s" => number(value).map(|n| json!(n)),
            _ => None,
        },
        "fontWeight" => value.as_f64().map(|n| json!(n)),
        _ => None,
    }
}

/// The page's script: for each context (an element with its attribute,
/// or none for the default), each probe's custom property as declared and
/// what its property computes to, colours read back as sRGB bytes from a
/// canvas (so `oklch()`, `color(display-p3 …)` and `hsl()` compare alike).
const PROBE: &str = r#"
const canvas = document.createElement("canvas");
canvas.width = canvas.height = 1;
const g = canvas.getContext("2d", { willReadFrequently: true });
const out = [];
for (const c of PROBES) {
  const host = document.createElement("div");
  if (c.attribute) host.setAttribute(c.attribute, c.value);
  const probe = document.createElement("div");
  host.append(probe);
  document.body.append(host);
  const row = [];
  for (const [name, property] of c.tokens) {
    probe.removeAttribute("style");
    probe.style.setProperty(property, `var(--${name})`);
    const declared = getComputedStyle(probe).getPropertyValue(`--${name}`).trim();
    const computed = getComputedStyle(probe).getPropertyValue(property);
    let rgba = null;
    if (property === "color") {
      g.clearRect(0, 0, 1, 1);
      g.fillStyle = "rgba(0, 0, 0, 0)";
      g.fillStyle = computed;
      g.fillRect(0, 0, 1, 1);
      rgba = Array.from(g.getImageData(0, 0, 1, 1).data);
    }
    row.push([declared, computed, rgba]);
  }
  host.remove();
  out.push(row);
}
return out;
"#;

/// Whether Chromium's reading `got` (`[declared, computed, rgba]`) is
/// `want`: colours within a byte (more where the alpha divides them),
/// lengths and durations within a hundredth.
fn same(kind: &str, got: &Value, want: &Value) -> bool {
    let computed = got[1].as_str().unwrap_or("");
    let float = |s: &str, unit: &str| {
        s.trim()
            .strip_suffix(unit)
            .and_then(|n| n.parse::<f64>().ok())
    };
    match kind {
        "color" => {
            let (Some(rgba), Some(want)) = (got[2].as_array(), want.as_array()) else {
                return false;
            };
            let byte = |v: &Value| v.as_f64().unwrap_or(-99.0);
            let alpha = byte(&want[3]);
            if (byte(&rgba[3]) - alpha).abs() > 1.0 {
                return false;
            }
            // The canvas keeps colours premultiplied: a translucent colour
            // reads back within 255 / alpha of a unit, a clear one not at all.
            let slack = if alpha == 0.0 {
                255.0
            } else {
                1.0 + 255.0 / alpha
            };
            (0..3).all(|i| (byte(&rgba[i]) - byte(&want[i])).abs() <= slack)
        }
        "dimension" => float(computed, "px")
            .is_some_and(|px| (px - want.as_f64().unwrap_or(f64::NAN)).abs() < 0.01),
        "duration" => float(computed, "s")
            .is_some_and(|s| (s - want.as_f64().unwrap_or(f64::NAN)).abs() < 0.0001),
        _ => computed.trim().parse::<f64>().ok() == want.as_f64(),
    }
}

/// tokens.css in one page of `b`: every colour, dimension, duration and
/// font weight, in the default context and in every context of every
/// modifier (its attribute on an element), computes to the resolver's
/// value; every token that tokens.css declares in the default is
/// declared in each context too.
pub(super) fn tokens_css(b: &Browser, system: &System, work: &Path) -> Cell {
    std::fs::create_dir_all(work).unwrap();
    let css = system.brand.join("tokens.css");
    let page = work.join("page.html");
    std::fs::write(
        &page,
        format!(
            "<!doctype html><html><head><link rel=\"stylesheet\" href=\"file://{}\"></head><body></body></html>",
            css.display()
        ),
    )
    .unwrap();
    let mut contexts: Vec<(Option<&Context>, BTreeMap<String, Value>)> =
        vec![(None, BTreeMap::new())];
    let all = system.contexts();
    contexts.extend(all.iter().map(|c| (Some(c), c.tokens.clone())));
    let mut probes = Vec::new();
    let mut wants = Vec::new();
    for (context, here) in &contexts {
        let mut names = BTreeSet::new();
        let mut tokens = Vec::new();
        let mut want = Vec::new();
        for (path, token) in &system.paths {
            let kind = token["$type"].as_str().unwrap_or("");
            let name = marque::spec::tokens::css::css_name(path);
            let Some(property) = probe_property(kind) else {
                continue;
            };
            let Some(value) = system.resolve(&path.join("."), here) else {
                continue;
            };
            let Some(w) = expected(kind, value) else {
                continue;
            };
            if !names.insert(name.clone()) {
                continue;
            }
            tokens.push(json!([name, property]));
            want.push((path.join("."), kind, w));
        }
        probes.push(json!({
            "attribute": context.map(|c| c.attribute.clone()),
            "value": context.map(|c| c.value.clone()),
            "tokens": tokens,
        }));
        wants.push(want);
    }
    b.emulate_dark(system.default_is_dark());
    b.goto(&format!("file://{}", page.display()));
    let script = PROBE.replace("PROBES", &Value::Array(probes).to_string());
    let got = b.js(&script);
    for (i, (context, _)) in contexts.iter().enumerate() {
        let at = match context {
            Some(c) => format!("context {} ([{}=\"{}\"])", c.name, c.attribute, c.value),
            None => "the default".to_string(),
        };
        for (j, (token, kind, want)) in wants[i].iter().enumerate() {
            let seen = &got[i][j];
            if seen[0].as_str().unwrap_or("").is_empty() {
                return Err(format!("{token} is not declared in {at}"));
            }
            if !same(kind, seen, want) {
                return Err(format!(
                    "{token} in {at} computes to {} ({}), the resolver's {want}",
                    seen[1], seen[2]
                ));
            }
        }
    }
    Ok(())
}

/// llms.txt of every system through the reference parser: each parses,
/// with the brand's name as its title and at least one linked section.
pub(super) fn llms_txt_each(systems: &[&System]) -> Vec<Cell> {
    let texts: Vec<String> = systems
        .iter()
        .map(|s| std::fs::read_to_string(s.brand.join("llms.txt")).unwrap_or_default())
        .collect();
    crate::tools::parse_llms_txt_each(&texts)
        .into_iter()
        .zip(systems)
        .map(|(parsed, system)| {
            let parsed = parsed.map_err(|e| format!("the parser raises {e}"))?;
            // The parser keeps Markdown's backslash escapes in the title.
            let title = parsed["title"].as_str().unwrap_or_default();
            let mut unescaped = String::new();
            let mut chars = title.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => unescaped.extend(chars.next()),
                    c => unescaped.push(c),
                }
            }
            // A title is one line: a line separator in the name is a space.
            let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
            if words(&unescaped) != words(system.spec["name"].as_str().unwrap_or_default()) {
                return Err(format!("title {} is not the brand's name", parsed["title"]));
            }
            let links = parsed["sections"]
                .as_object()
                .into_iter()
                .flat_map(|s| s.values())
                .filter_map(Value::as_array)
                .flatten()
                .count();
            match links {
                0 => Err("no section links anything".into()),
                _ => Ok(()),
            }
        })
        .collect()
}

/// DESIGN.md of every system through Google's linter: no error.
pub(super) fn design_md_each(tool: &Path, systems: &[&System]) -> Vec<Cell> {
    let texts: Vec<String> = systems
        .iter()
        .map(|s| std::fs::read_to_string(s.brand.join("DESIGN.md")).unwrap_or_default())
        .collect();
    crate::tools::lint_design_md_each(tool, &texts)
        .into_iter()
        .map(|report| {
            let report = report.map_err(|e| format!("the linter throws {e}"))?;
            let errors = report["findings"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|f| f["severity"] == "error")
                .map(|f| format!("{} {}", f["path"], f["message"]))
                .collect::<Vec<_>>();
            match (report["summary"]["errors"].as_u64(), errors.first()) {
                (Some(0), None) => Ok(()),
                (n, first) => Err(format!("{n:?} error(s), first: {first:?}")),
            }
        })
        .collect()
}
