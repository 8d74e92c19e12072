//! NVE's build and marque's tokens.css in headless Chromium: see the
//! parent module.

use super::{built, judge, tokens, Judged, GENERIC_FAMILY};
use crate::helpers::*;
use crate::terrazzo::declared;
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The differences Chromium computes, every brand, device, theme and size.
const CHROMIUM_JUDGED: &[Judged] = &[
    Judged {
        context: "*",
        names: "--font-family-primary-family|--typography-*",
        why: GENERIC_FAMILY,
    },
    Judged {
        context: "rme/*",
        names: "--color-shades-brand-000|--color-brand-foreground-*-on-bg",
        why: "RME's `color-shades.brand.000` is `#fffffff` (seven digits) in the repository: \
the build writes it as is, invalid CSS that computes to no colour, and so do the tokens \
that refer to it (primary-on-bg, and secondary-on-bg in dark); marque stops the import on \
it (MQ1701) and, accepted with --allow-partial, RME keeps NVE's `#ffffff` for it",
    },
    Judged {
        context: "*",
        names: "--spacing-none|--paragraph-spacing-0",
        why: "a zero the sets write `0`: the build keeps it unitless, marque writes `0px` (a \
dimension has a unit). Every length property computes both to `0px`; only the probe's \
`opacity`, a number, takes the unitless one",
    },
    Judged {
        context: "varsom/*",
        names: "--text-brand-name",
        why: "a `text` token: the build writes the text bare (`Varsom – en tjeneste levert av \
NVE, MET og Statens vegvesen`), which CSS reads as words and a comma, two families to the \
probe's `font-family`; marque writes it as one CSS string, the text the set holds. NVE's and \
RME's names have no comma, and compute alike",
    },
];

/// The widths each device of the build applies at (its media queries:
/// desktop-large from 1600 px, tablet 764 to 1023, mobile 390 to 763,
/// mobile-small to 389, desktop the rest).
const DEVICES: &[(&str, u32)] = &[
    ("desktop", 1200),
    ("desktop-large", 1700),
    ("tablet", 900),
    ("mobile", 500),
    ("mobile-small", 360),
];

/// The brands, by marque's context and the build's file.
const BRANDS: &[(&str, &str)] = &[("nve", "nve"), ("varsom", "varsom"), ("rme", "rme")];

/// marque's tokens.css, built from the repository's folder as committed.
fn marque_tokens_css(dir: &Path) -> String {
    let content = dir.join("content");
    copy_dir(&tokens(), &content.join("nve/design-tokens"));
    std::fs::write(
        content.join("nve/brand.json"),
        r#"{"name": "nve", "summary": "NVE", "version": "1.0.0", "updated": "2026-11-28", "tokens": "design-tokens"}"#,
    )
    .unwrap();
    let site = dir.join("site");
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["build", content.to_str().unwrap(), "--out"])
        .arg(&site)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "marque builds NVE: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(site.join("brand/nve/tokens.css")).unwrap()
}

/// One frame per brand and device width, each one document with the
/// brand's build (light and dark files, their `@import` of the
/// repository's component styles left out) and marque's tokens.css,
/// whose `:root` is scoped to `.m` (as specific as `:root`, so its
/// contexts' data attributes still override it) so that the two do not
/// meet: probes under `#t` compute the build's properties on the root,
/// probes under `#m` marque's (its contexts by data attribute, on any
/// element).
const PAGE: &str = r#"
window.ready = 0;
window.frames = [];
for (const [brand, file] of BRANDS) for (const [device, width] of DEVICES) {
  const f = document.createElement('iframe');
  f.style.cssText = `width:${width}px;height:40px;border:0;display:block`;
  f.onload = () => { window.ready++; };
  f.srcdoc = `<!doctype html><html><head><style>${THEIRS[file]}</style><style>${MARQUE}</style>
    <style>html,body{margin:0;overflow:hidden} #t,#m{color:rgb(1,2,3)}</style></head>
    <body><div id="t"></div><div id="m" class="m" data-brand="${brand}" data-device="${device}"></div></body></html>`;
  window.frames.push([brand, device, f]);
  document.body.append(f);
}
"#;

/// Per frame, for the theme and root size: every name both declare,
/// probed twice per side (`font: var(--x)`, and the other properties
/// set to `var(--x)`), each side's computed values joined; a name no
/// property takes (a string) is compared by its computed text.
const PROBE: &str = r#"
const [dark, px, names] = ARGS;
const FONT = ['font-family', 'font-size', 'font-weight', 'font-style', 'line-height'];
const REST = ['color', 'margin-left', 'font-weight', 'font-family', 'line-height', 'letter-spacing',
  'box-shadow', 'opacity', 'text-transform', 'text-decoration-line'];
const out = [];
for (const [brand, device, f] of window.frames) {
  const doc = f.contentDocument, w = f.contentWindow;
  doc.documentElement.classList.toggle('darkmode', dark);
  doc.documentElement.style.fontSize = px + 'px';
  const m = doc.getElementById('m');
  if (dark) m.setAttribute('data-theme', 'dark'); else m.removeAttribute('data-theme');
  const probe = (host, name) => {
    const a = doc.createElement('div'), b = doc.createElement('div');
    a.style.setProperty('font', `var(${name})`);
    for (const p of REST) b.style.setProperty(p, `var(${name})`);
    doc.getElementById(host).append(a, b);
    return [a, b];
  };
  const read = ([a, b], name) => {
    const ca = w.getComputedStyle(a), cb = w.getComputedStyle(b);
    return FONT.map(p => ca.getPropertyValue(p)).concat(REST.map(p => cb.getPropertyValue(p))).join(' | ');
  };
  // The probes, made once per frame and read in each theme and size.
  if (!f.pairs) {
    f.none = probe('t', '--not-declared');
    f.pairs = names.map(n => [n, probe('t', n), probe('m', n)]);
  }
  const none = read(f.none, ''), pairs = f.pairs;
  let equal = 0;
  const strings = [];
  const different = [];
  for (const [n, t, me] of pairs) {
    let theirs = read(t, n), mine = read(me, n);
    if (theirs === none && mine === none) {
      strings.push(n);
      const text = el => w.getComputedStyle(el[0]).getPropertyValue(n).trim().replaceAll("'", '"');
      theirs = text(t); mine = text(me);
    }
    if (theirs === mine) equal++; else different.push([n, theirs, mine]);
  }
  const root = w.getComputedStyle(doc.documentElement);
  const seen = ['--sizing-device-page-min-width', '--color-neutrals-background-primary']
    .map(n => root.getPropertyValue(n).trim());
  out.push([brand, device, pairs.length, equal, strings, different, seen]);
}
return out;
"#;

/// The names no probed property takes, compared by their computed text.
const TEXT_ONLY: &[&str] = &[];

/// Chromium computes every custom property NVE's build declares, in
/// each brand, device, theme, at 16 px and 20 px, as marque's tokens.css
/// computes it, or the difference is judged.
#[test]
fn chromium_computes_the_nve_build_and_tokens_css_alike_in_every_mode_at_16_and_20_px() {
    let Some((_one, b)) = crate::browser::locked() else {
        return;
    };
    let started = std::time::Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let marque = marque_tokens_css(dir.path())
        .replace("\n:root {", "\n.m {")
        .replace(":root:where(", ".m:where(");
    assert!(!marque.contains(":root"), "every :root scoped to .m");
    let mut theirs = serde_json::Map::new();
    let mut names: BTreeSet<String> = BTreeSet::new();
    for (_, file) in BRANDS {
        let css = built(&format!("{file}.css")) + &built(&format!("{file}_dark.css"));
        let css: String = css
            .lines()
            .filter(|l| !l.starts_with("@import"))
            .collect::<Vec<_>>()
            .join("\n");
        names.extend(declared(&css));
        theirs.insert(file.to_string(), json!(css));
    }
    // The names both declare; those only the build declares are
    // `--against`'s to list (the booleans).
    let mine = declared(&marque);
    let only_build: Vec<&String> = names.iter().filter(|n| !mine.contains(*n)).collect();
    assert_eq!(
        only_build,
        [
            "--boolean-brand-nve",
            "--boolean-brand-nve-rme",
            "--boolean-brand-rme",
            "--boolean-brand-varsom"
        ],
        "only the build declares"
    );
    let names: Vec<&String> = names.iter().filter(|n| mine.contains(*n)).collect();
    let script = format!(
        "const BRANDS = {}; const DEVICES = {}; const THEIRS = {}; const MARQUE = {};",
        json!(BRANDS),
        json!(DEVICES),
        Value::Object(theirs),
        json!(marque)
    )
    .replace("</", "<\\/");
    let host = crate::browser::host_page(format!(
        "<!doctype html><html><head></head><body><script>{script}{PAGE}</script></body></html>"
    ));
    b.goto(&host.url());
    let frames = BRANDS.len() * DEVICES.len();
    b.wait_for(
        &format!("return window.ready === {frames}"),
        "every frame loads",
    );
    let mut found = Vec::new();
    let (mut compared, mut equal) = (0, 0);
    for dark in [false, true] {
        for px in [16, 20] {
            let got = b.js(&format!(
                "const ARGS = {};{PROBE}",
                json!([dark, px, names])
            ));
            for frame in got.as_array().unwrap() {
                let (brand, device) = (frame[0].as_str().unwrap(), frame[1].as_str().unwrap());
                let theme = if dark { "dark" } else { "light" };
                let context = format!("{brand}/{device}/{theme}/{px}px");
                compared += frame[2].as_u64().unwrap();
                equal += frame[3].as_u64().unwrap();
                assert_eq!(
                    frame[4],
                    json!(TEXT_ONLY),
                    "{context}: the names no probed property takes, compared as text"
                );
                // The build's own breakpoints and dark class took effect.
                let min_width = match device {
                    "desktop" => "1024px",
                    "desktop-large" => "1600px",
                    "tablet" => "764px",
                    "mobile" => "390px",
                    _ => "320px",
                };
                assert_eq!(frame[6][0], min_width, "{context}");
                assert_eq!(frame[6][1] == "#ffffff", !dark, "{context}: {}", frame[6]);
                for d in frame[5].as_array().unwrap() {
                    let name = d[0].as_str().unwrap().to_string();
                    let line = format!("{name}: build `{}`, marque `{}`", d[1], d[2]);
                    found.push((context.clone(), name, line));
                }
            }
        }
    }
    println!(
        "{compared} values compared in {} frames, 2 themes, 16 and 20 px: {equal} equal, {} different, in {:.1} s",
        frames,
        found.len(),
        started.elapsed().as_secs_f64()
    );
    assert_eq!(compared, 4 * frames as u64 * names.len() as u64);
    judge("the NVE build (Chromium)", &found, CHROMIUM_JUDGED);
}
