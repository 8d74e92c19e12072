//! The matrix's Tailwind column: a Tailwind CSS v4 build (`@tailwindcss/cli`,
//! installed by `.ci/deps`) of a page that imports `tailwindcss` and the
//! system's tailwind.css, with one utility per namespace the theme has
//! (`bg-*`, `p-*`, `rounded-*`, `font-*`, `text-*`, `shadow-*` and
//! `font-*` for weights); in headless Chromium each utility computes what
//! the theme's own value computes, in the default and under the first
//! context's data attribute that changes it.

use super::{first_line, Cell, System};
use crate::browser::Browser;
use serde_json::{json, Value};
use std::path::Path;

/// Tailwind's namespace, the utility it makes for `name` and the property
/// that utility sets.
fn utility(namespace: &str, name: &str) -> Option<(String, &'static str)> {
    Some(match namespace {
        "color" => (format!("bg-{name}"), "background-color"),
        "spacing" => (format!("p-{name}"), "padding-left"),
        "radius" => (format!("rounded-{name}"), "border-top-left-radius"),
        "font" => (format!("font-{name}"), "font-family"),
        "text" => (format!("text-{name}"), "font-size"),
        "shadow" => (format!("shadow-{name}"), "box-shadow"),
        "font-weight" => (format!("font-{name}"), "font-weight"),
        _ => return None,
    })
}

/// The custom properties a block of CSS declares, in order: `(name,
/// value)`. A `;` ends a declaration only outside a string and not
/// escaped (a hostile font name holds `\"; }`); comments are dropped.
fn declarations(block: &str) -> Vec<(String, String)> {
    let mut parts = vec![String::new()];
    let mut chars = block.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        let part = parts.last_mut().unwrap();
        match (c, quote) {
            ('\\', _) => {
                part.push(c);
                part.extend(chars.next());
            }
            ('"' | '\'', None) => {
                quote = Some(c);
                part.push(c);
            }
            (c, Some(q)) if c == q => {
                quote = None;
                part.push(c);
            }
            ('/', None) if chars.peek() == Some(&'*') => {
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            (';', None) => parts.push(String::new()),
            _ => part.push(c),
        }
    }
    parts
        .iter()
        .filter_map(|d| {
            let (name, value) = d.trim().split_once(':')?;
            let name = name.trim().strip_prefix("--")?;
            Some((name.to_string(), value.trim().to_string()))
        })
        .collect()
}

/// The text of the block that follows `head` (`@theme`, a selector).
fn block<'a>(css: &'a str, head: &str) -> Option<&'a str> {
    let start = css.find(&format!("{head} {{"))? + head.len() + 2;
    let end = css[start..].find("\n}")?;
    Some(&css[start..start + end])
}

/// The utilities of the theme, one per namespace: `(class, property,
/// variable, value)`.
fn probes(theme: &[(String, String)]) -> Vec<(String, &'static str, String, String)> {
    let mut out: Vec<(String, &'static str, String, String)> = Vec::new();
    // Longest namespace first: `font-weight-bold` is not a font family.
    let spaces = [
        "font-weight",
        "color",
        "spacing",
        "radius",
        "font",
        "text",
        "shadow",
    ];
    for (var, value) in theme {
        let Some(space) = spaces.iter().find(|s| var.starts_with(&format!("{s}-"))) else {
            continue;
        };
        let name = &var[space.len() + 1..];
        if name.contains("--") || out.iter().any(|p| p.2.starts_with(&format!("{space}-"))) {
            continue;
        }
        if *space == "font"
            && theme
                .iter()
                .any(|(v, _)| v == &format!("font-weight-{name}"))
        {
            continue;
        }
        if let Some((class, property)) = utility(space, name) {
            out.push((class, property, var.clone(), value.clone()));
        }
    }
    out
}

/// The page's script: each utility's computed property, beside an element
/// given the theme's value for it, in the default and under `ATTRIBUTE`.
const PROBE: &str = r#"
const out = [];
for (const [host, attribute] of [["plain", null], ["moded", ATTRIBUTE]]) {
  const h = document.getElementById(host);
  if (attribute) h.setAttribute(attribute[0], attribute[1]);
  const row = [];
  for (const [i, property, value] of PROBES) {
    const u = h.querySelector(`.u${i}`);
    const r = document.createElement("div");
    r.style.setProperty(property, value);
    h.append(r);
    row.push([getComputedStyle(u).getPropertyValue(property), getComputedStyle(r).getPropertyValue(property), r.style.getPropertyValue(property) !== ""]);
    r.remove();
  }
  out.push(row);
}
return out;
"#;

/// The Tailwind column of `system` (see the module's doc).
pub(super) fn tailwind(b: &Browser, tool: &Path, system: &System, work: &Path) -> Cell {
    std::fs::create_dir_all(work).unwrap();
    let theme_css = std::fs::read_to_string(system.brand.join("tailwind.css"))
        .map_err(|e| format!("tailwind.css: {e}"))?;
    std::fs::write(work.join("tailwind.css"), &theme_css).unwrap();
    let theme = declarations(block(&theme_css, "@theme").ok_or("no @theme block")?);
    let probes = probes(&theme);
    if probes.is_empty() {
        return Ok(());
    }
    // The first context whose rule changes a probed variable.
    let moded = system.contexts().into_iter().find_map(|c| {
        let selector = format!("[{}=\"{}\"]", c.attribute, c.value);
        let changed = declarations(block(&theme_css, &selector)?);
        Some((c, changed))
    });
    let value_in = |var: &str| {
        moded
            .as_ref()
            .and_then(|(_, changed)| changed.iter().find(|(v, _)| v == var))
            .map(|(_, value)| value.clone())
    };
    let elements: String = (0..probes.len())
        .map(|i| format!("<div class=\"u{i} {}\">x</div>", probes[i].0))
        .collect();
    std::fs::write(
        work.join("page.html"),
        format!("<div id=\"plain\">{elements}</div><div id=\"moded\">{elements}</div>"),
    )
    .unwrap();
    crate::consumers::tailwind_entry(work, tool);
    let (ok, text) = super::run(
        work,
        tool.to_str().unwrap(),
        &["-i", "in.css", "-o", "out.css"],
    );
    if !ok {
        return Err(format!("Tailwind refuses it: {}", first_line(&text)));
    }
    let css = std::fs::read_to_string(work.join("out.css")).unwrap_or_default();
    let page = std::fs::read_to_string(work.join("page.html")).unwrap();
    std::fs::write(
        work.join("probe.html"),
        format!("<!doctype html><html><head><style>{css}</style></head><body>{page}</body></html>"),
    )
    .unwrap();
    let attribute = moded.as_ref().map(|(c, _)| json!([c.attribute, c.value]));
    let wanted: Vec<Value> = probes
        .iter()
        .enumerate()
        .map(|(i, p)| json!([i, p.1, p.3]))
        .collect();
    b.emulate_dark(system.default_is_dark());
    b.goto(&format!("file://{}", work.join("probe.html").display()));
    let script = PROBE
        .replace(
            "ATTRIBUTE",
            &attribute.clone().unwrap_or(Value::Null).to_string(),
        )
        .replace("PROBES", &Value::Array(wanted).to_string());
    let got = b.js(&script);
    // Tailwind's shadow utility lists its ring and inset shadows first.
    let same = |property: &str, u: &Value, r: &Value| {
        let (u, r) = (u.as_str().unwrap_or("?"), r.as_str().unwrap_or("!"));
        u == r || (property == "box-shadow" && u.ends_with(r))
    };
    for (i, (class, property, var, value)) in probes.iter().enumerate() {
        let [plain, under] = [&got[0][i], &got[1][i]];
        if plain[2] != true {
            return Err(format!("--{var}: {value} is not a {property}"));
        }
        if !same(property, &plain[0], &plain[1]) {
            return Err(format!(
                "{class} computes {property} {} for {value} ({})",
                plain[0], plain[1]
            ));
        }
        // Under the context's attribute, the context's value where it
        // changes this variable.
        if let (Some(v), Some((c, _))) = (value_in(var), &moded) {
            let script = PROBE
                .replace(
                    "ATTRIBUTE",
                    &attribute.clone().unwrap_or(Value::Null).to_string(),
                )
                .replace("PROBES", &json!([[i, property, v]]).to_string());
            let again = b.js(&script);
            if !same(property, &under[0], &again[1][0][1]) {
                return Err(format!(
                    "{class} under {} computes {} for {v} ({})",
                    c.name, under[0], again[1][0][1]
                ));
            }
        }
    }
    Ok(())
}
