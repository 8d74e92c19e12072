//! A real repository with modes, read as its own build reads it (issue
//! 59): NVE's design system (github.com/NVE/Designsystem, MIT), whose
//! Tokens Studio folder (`tests/fixtures/modes/nve-designsystem`) has
//! three theme groups, Brand (NVE, Varsom, RME), Theme (light, dark) and
//! Device (desktop, desktop-large, tablet, mobile, mobile-small), and
//! whose repository commits the CSS its Style Dictionary build made
//! (`tests/fixtures/modes-real/nve-designsystem/build`, SOURCE.md says how
//! it was made and checked): per brand a light file (`:root`, the device
//! files under breakpoint media queries, desktop in `:root`) and a dark
//! one (`:root.darkmode`).
//!
//! `marque import` as a user runs it: the contexts it finds are the build's
//! modes, nothing invented; `--against` the NVE build compares every
//! property it declares; headless Chromium loads each brand's build and
//! marque's tokens.css in one document per device width, at a root font
//! size of 16 px and 20 px, light and dark, and compares what every custom
//! property both declare computes to. Every difference is equal or listed
//! below with the reason; a new one fails, and so does a stale entry.

use crate::helpers::*;
use crate::terrazzo::{declared, glob};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The repository's Tokens Studio folder, as committed.
fn tokens() -> PathBuf {
    fixtures().join("modes/nve-designsystem/tokens")
}

/// One of the stylesheets the repository's build wrote.
fn built(file: &str) -> String {
    let path = fixtures()
        .join("modes-real/nve-designsystem/build")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A difference that has been looked at: the context (a glob over
/// `default`, `Theme=dark`, or in Chromium `nve/tablet/dark/20px`), the
/// custom properties (globs, `|` between them), and why.
struct Judged {
    context: &'static str,
    names: &'static str,
    why: &'static str,
}

impl Judged {
    fn matches(&self, context: &str, name: &str) -> bool {
        glob(self.context, context) && self.names.split('|').any(|n| glob(n, name))
    }
}

const GENERIC_FAMILY: &str = "the build writes the family alone (`'Source Sans 3'`); marque adds \
the generic family a stack without one lacks (`\"Source Sans 3\", sans-serif`, \
`css::with_generic`), so a page without the web font gets a sans-serif, not the browser's serif";

/// `--against` the NVE build (light and dark files, as a page loads both).
const AGAINST_JUDGED: &[Judged] = &[
    Judged {
        context: "*",
        names: "--font-family-primary-family|--typography-*",
        why: GENERIC_FAMILY,
    },
    Judged {
        context: "*",
        names: "--boolean-brand-*",
        why: "Tokens Studio `boolean` tokens (which brand is on, for Figma): DTCG has no \
boolean type, so marque leaves them out, each said (MQ1703); the build writes `true`/`false`, \
which no CSS property reads",
    },
];

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

/// The import's summary lines for each context: (context, tokens, set by it).
fn published(said: &str) -> Vec<(String, usize, usize)> {
    said.lines()
        .filter_map(|l| {
            let (context, rest) = l.strip_prefix("  ")?.split_once(": ")?;
            let (n, rest) = rest.split_once(" tokens")?;
            let own = rest
                .strip_prefix(", ")
                .and_then(|r| r.split(' ').next())
                .map_or(Some(0), |n| n.parse().ok())?;
            Some((context.to_string(), n.parse().ok()?, own))
        })
        .collect()
}

/// The `--against` report: each context's counts line, and each
/// difference as `(context, name, line)`.
fn against_report(said: &str) -> (Vec<String>, Vec<(String, String, String)>) {
    let section = said
        .split_once("\nagainst ")
        .map(|(_, s)| s)
        .unwrap_or_else(|| panic!("an --against report\n{said}"));
    let (mut counts, mut found) = (Vec::new(), Vec::new());
    let mut context = String::new();
    for line in section.lines().skip(1) {
        if let Some(l) = line.strip_prefix("    ") {
            let name = l.split([' ', ':']).nth(1).unwrap_or("").to_string();
            found.push((context.clone(), name, l.to_string()));
        } else if let Some(l) = line.strip_prefix("  ") {
            if l.contains(" equal, ") {
                context = l.split(':').next().unwrap().to_string();
                counts.push(l.to_string());
            } else {
                counts.push(l.to_string());
            }
        } else {
            break;
        }
    }
    (counts, found)
}

/// Each difference judged by one entry; every entry used.
fn judge(tool: &str, found: &[(String, String, String)], judged: &[Judged]) {
    let marked = found
        .iter()
        .map(|(context, name, line)| {
            (
                format!("[{context}] {line}"),
                judged.iter().position(|j| j.matches(context, name)),
            )
        })
        .collect();
    let entries: Vec<(String, String)> = judged
        .iter()
        .map(|j| (format!("[{}] {}", j.context, j.names), j.why.to_string()))
        .collect();
    judge_differences(tool, marked, &entries);
}

/// The import of the repository's folder, as committed, against its NVE
/// build: the build's three axes and every one of their contexts, the
/// defaults the build's `:root` has (NVE, light, desktop), the tokens of
/// each context, and every property the build declares for NVE light and
/// dark equal or judged. The breakpoints are the Device contexts, which
/// no selector names: `--against` lists them as not compared, and the
/// Chromium test compares them at the widths they apply at.
#[test]
fn nve_imports_as_its_build_publishes_it_and_against_its_build_only_judged_differences() {
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("nve-both.css");
    std::fs::write(&both, built("nve.css") + &built("nve_dark.css")).unwrap();
    let out = dir.path().join("out");
    let input = tokens();
    let args = [
        input.to_str().unwrap(),
        "--slug",
        "nve",
        "--out",
        out.to_str().unwrap(),
        "--against",
        both.to_str().unwrap(),
    ];
    // RME's `#fffffff` is an error the import stops on, said by name.
    let (ok, said) = import(&args);
    assert!(!ok, "{said}");
    assert!(
        said.contains("MQ1701") && said.contains("`color-shades.brand.000`"),
        "{said}"
    );
    let (ok, said) = import(&[&args[..], &["--allow-partial"]].concat());
    assert!(ok, "{said}");
    assert!(
        said.contains("modifiers Brand (NVE, Varsom, RME), Theme (light, dark), Device (desktop, desktop-large, tablet, mobile, mobile-small)\n"),
        "{said}"
    );
    // 702 tokens in each context: the sets' 722 names less the 10
    // `boolean.*` (MQ1703) and the 10 with no strict DTCG form (MQ2302,
    // MQ2303). Set by each context, counted in Python from the sets (the
    // tokens whose value differs from the default's): dark 149 of 207;
    // Varsom 71 colours and its name; RME 57 colours and its name, less
    // its invalid colour; desktop-large 7 sizing; tablet 22 sizing, 8 spacing,
    // 8 font sizes; mobile and mobile-small 24, 13 and 8.
    let expected = [
        ("Brand NVE", 0),
        ("Brand Varsom", 72),
        ("Brand RME", 57),
        ("Theme light", 0),
        ("Theme dark", 149),
        ("Device desktop", 0),
        ("Device desktop-large", 7),
        ("Device tablet", 38),
        ("Device mobile", 45),
        ("Device mobile-small", 45),
    ];
    assert_eq!(
        published(&said),
        expected.map(|(c, own)| (c.to_string(), 702, own)),
        "{said}"
    );
    let resolver: Value =
        serde_json::from_slice(&std::fs::read(out.join("nve/tokens.resolver.json")).unwrap())
            .unwrap();
    let m = &resolver["modifiers"];
    assert_eq!(
        (
            &m["Brand"]["default"],
            &m["Theme"]["default"],
            &m["Device"]["default"]
        ),
        (&json!("NVE"), &json!("light"), &json!("desktop"))
    );
    let brand: Value =
        serde_json::from_slice(&std::fs::read(out.join("nve/brand.json")).unwrap()).unwrap();
    assert!(
        brand["naming"]["prefix"].as_str().unwrap_or("").is_empty(),
        "the build's names have no prefix: {brand}"
    );

    let (counts, found) = against_report(&said);
    assert_eq!(
        counts,
        [
            "default: 670 equal, 42 different, 4 missing (of 716 it declares)",
            "Theme=dark: 467 equal, 1 different, 4 missing (of 472 it declares)",
            "not compared, naming no context of the brand: \
@media ((min-width: 390px) and (max-width: 763px)) { :root }, \
@media ((min-width: 764px) and (max-width: 1023px)) { :root }, \
@media (max-width: 389px) { :root }, @media (min-width: 1600px) { :root }",
        ],
        "{said}"
    );
    judge("the NVE build (--against)", &found, AGAINST_JUDGED);
}

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

/// The repository's folder copied to `to`, then changed by `edit`.
fn variant(to: &Path, edit: impl FnOnce(&Path)) -> PathBuf {
    copy_dir(&tokens(), to);
    edit(to);
    to.to_path_buf()
}

/// `$themes.json` (or `$metadata.json`) rewritten by `f`.
fn edit_json(file: &Path, f: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(file, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
}

/// The same folder with its brand sets moved and renamed (`brand/nve`
/// is `merke/nve`, `$themes` and `$metadata` following), the themes of
/// `$themes` in another order (the groups interleaved, each group's
/// default kept first but Theme's, whose `light` is its default by name)
/// and each theme's sets listed backwards: the same modifiers, contexts,
/// defaults and tokens, and the same comparison with the build.
#[test]
fn nve_with_its_sets_renamed_and_its_themes_reordered_reads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("nve-both.css");
    std::fs::write(&both, built("nve.css") + &built("nve_dark.css")).unwrap();
    let read = |input: &Path, out: &str| {
        let out = dir.path().join(out);
        let (ok, said) = import(&[
            input.to_str().unwrap(),
            "--slug",
            "nve",
            "--out",
            out.to_str().unwrap(),
            "--against",
            both.to_str().unwrap(),
            "--allow-partial",
        ]);
        assert!(ok, "{said}");
        let resolver: Value =
            serde_json::from_slice(&std::fs::read(out.join("nve/tokens.resolver.json")).unwrap())
                .unwrap();
        let mut contexts = published(&said);
        contexts.sort();
        let against = said
            .split_once("\nagainst ")
            .unwrap()
            .1
            .split_once('\n')
            .unwrap()
            .1;
        let against = against.split("\npalette").next().unwrap().to_string();
        (resolver, contexts, against)
    };
    let shuffled = variant(&dir.path().join("shuffled"), |root| {
        let moved = ["nve", "varsom", "rme"];
        std::fs::create_dir_all(root.join("merke")).unwrap();
        for b in moved {
            std::fs::rename(
                root.join(format!("brand/{b}.json")),
                root.join(format!("merke/{b}.json")),
            )
            .unwrap();
        }
        std::fs::remove_dir(root.join("brand")).unwrap();
        let rename = |s: &str| s.replacen("brand/", "merke/", 1);
        edit_json(&root.join("$themes.json"), |t| {
            let themes = t.as_array_mut().unwrap();
            for theme in themes.iter_mut() {
                let sets = theme["selectedTokenSets"].as_object().unwrap();
                let backwards: serde_json::Map<String, Value> = sets
                    .iter()
                    .rev()
                    .map(|(k, v)| (rename(k), v.clone()))
                    .collect();
                theme["selectedTokenSets"] = Value::Object(backwards);
            }
            // The repository's NVE, Varsom, light, dark, desktop,
            // desktop-large, tablet, mobile, RME, mobile-small as dark,
            // NVE, desktop, light, Varsom, desktop-large, RME, tablet,
            // mobile, mobile-small.
            let order = [3, 0, 4, 2, 1, 5, 8, 6, 7, 9];
            *themes = order.iter().map(|i| themes[*i].clone()).collect();
        });
        edit_json(&root.join("$metadata.json"), |m| {
            for s in m["tokenSetOrder"].as_array_mut().unwrap() {
                *s = json!(rename(s.as_str().unwrap()));
            }
        });
    });
    let (resolver, contexts, against) = read(&tokens(), "as-committed");
    let (r2, c2, a2) = read(&shuffled, "shuffled");
    assert_eq!(c2, contexts);
    assert_eq!(a2, against);
    // The modifiers in the order `$themes` first names their groups; each
    // the same, and the same sets.
    assert_eq!(r2["modifiers"], resolver["modifiers"]);
    assert_eq!(r2["sets"], resolver["sets"]);
}

/// Without `$themes`, NVE's folder says less than its build: `light` and
/// `dark` are plainly modes, but the devices `tablet`, `mobile` and
/// `mobile-small` define the same tokens with no mode word in their
/// names, and the brands are layers by `$metadata`'s order. marque asks
/// about the devices (MQ2215), it does not layer them; with the theme
/// files renamed `a` and `b` it asks about those too, never guessing
/// which is the default.
#[test]
fn nve_without_its_themes_is_a_question_about_what_its_names_do_not_say() {
    let dir = tempfile::tempdir().unwrap();
    let ask = |input: &Path| {
        let out = dir.path().join("out");
        let (ok, said) = import(&[
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--allow-partial",
        ]);
        assert!(!ok, "{said}");
        assert!(!out.join("nve/tokens.resolver.json").exists(), "{said}");
        said
    };
    let devices = "are `public/device/tablet`, `public/device/mobile`, `public/device/mobile-small` modes or layers?";
    let unthemed = variant(&dir.path().join("nve"), |root| {
        std::fs::remove_file(root.join("$themes.json")).unwrap();
    });
    let said = ask(&unthemed);
    assert!(
        said.contains("error[MQ2215]: ") && said.contains(devices),
        "{said}"
    );
    assert_eq!(said.matches("error[MQ2215]").count(), 1, "{said}");

    let renamed = variant(&dir.path().join("renamed"), |root| {
        std::fs::remove_file(root.join("$themes.json")).unwrap();
        for (from, to) in [("light", "a"), ("dark", "b")] {
            std::fs::rename(
                root.join(format!("public/theme/{from}.json")),
                root.join(format!("public/theme/{to}.json")),
            )
            .unwrap();
        }
    });
    let said = ask(&renamed);
    assert!(said.contains(devices), "{said}");
    assert!(
        said.contains("are `public/theme/a`, `public/theme/b` modes or layers?"),
        "{said}"
    );
    assert_eq!(said.matches("error[MQ2215]").count(), 2, "{said}");
}
