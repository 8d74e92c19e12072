//! DESIGN.md and tailwind.css, each judged by its consumer's own tool as
//! a black box: Google's `@google/design.md` linter (its `lint`, `export`
//! and `diff`), and the Tailwind CSS v4 compiler, whose output headless
//! Chromium paints.

use crate::corpus::{corpus, Reference};
use crate::helpers::*;
use crate::surfaces::{brands_of, ctx};
use marque::render::namespaces::{place, Namespace};
use marque::render::Surface;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// A computed length (`12px`) is `want` pixels.
fn same_px(computed: &str, want: f64) -> bool {
    let px = computed.trim_end_matches("px").parse::<f64>();
    px.is_ok_and(|px| (px - want).abs() <= 0.01)
}

/// `design.md lint` of `file`: its report.
fn lint(tool: &Path, file: &Path) -> Value {
    let out = Command::new(tool).arg("lint").arg(file).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The findings of a report that are not `info`, one a line.
fn findings(report: &Value) -> String {
    report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] != "info")
        .map(|f| format!("{} {} {}\n", f["severity"], f["path"], f["message"]))
        .collect()
}

/// The bundled brands' DESIGN.md lint with no error and no warning; every
/// system of the public DTCG corpus with no error; and what the format's
/// own `export --format dtcg` makes of a bundled brand's DESIGN.md is a
/// tokens.json `marque check` reads without an error.
#[test]
fn design_md_passes_googles_linter_and_its_export_reads_back() {
    let Some(tool) = js_tool("design.md") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let app = spawn_app(&example_content());
    let exported = dir.path().join("exported");
    for slug in ["northwind", "lumen-health"] {
        let res = app.get(&format!("/brand/{slug}/DESIGN.md"));
        assert_eq!(
            res.header("content-type"),
            Some("text/markdown; charset=utf-8")
        );
        let file = dir.path().join(format!("{slug}.md"));
        std::fs::write(&file, res.body).unwrap();
        let report = lint(&tool, &file);
        assert_eq!(report["summary"]["errors"], 0, "{slug}: {report:#}");
        assert_eq!(
            report["summary"]["warnings"],
            0,
            "{slug}:\n{}",
            findings(&report)
        );
        let out = Command::new(&tool)
            .args(["export", "--format", "dtcg"])
            .arg(&file)
            .output()
            .unwrap();
        assert!(out.status.success(), "{slug}: export runs");
        let brand = exported.join(slug);
        std::fs::create_dir_all(&brand).unwrap();
        std::fs::write(brand.join("tokens.json"), &out.stdout).unwrap();
        std::fs::write(
            brand.join("brand.json"),
            format!(
                "{{\"name\": \"{slug}\", \"version\": \"1.0.0\", \"updated\": \"2026-11-24\"}}"
            ),
        )
        .unwrap();
    }
    let check = Command::new(env!("CARGO_BIN_EXE_marque"))
        .arg("check")
        .arg(&exported)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(
        check.status.success() && text.contains("2 valid: 0 error(s)"),
        "{text}{}",
        String::from_utf8_lossy(&check.stderr)
    );

    let Some(corpus) = corpus() else { return };
    let root = dir.path().join("corpus");
    corpus_content(&corpus, &root);
    let app = spawn_app(&root);
    for system in CORPUS_SYSTEMS {
        let file = dir.path().join(format!("{system}.md"));
        std::fs::write(&file, app.get(&format!("/brand/{system}/DESIGN.md")).body).unwrap();
        let report = lint(&tool, &file);
        assert_eq!(report["summary"]["errors"], 0, "{system}: {report:#}");
        println!(
            "{system}: {} warning(s)\n{}",
            report["summary"]["warnings"],
            findings(&report)
        );
    }
}

/// Between two releases of a brand, the format's `diff` of their DESIGN.md
/// lists as added and removed what marque's semantic diff lists, for the
/// tokens DESIGN.md carries.
#[test]
fn design_md_diff_agrees_with_marques_semantic_diff() {
    let Some(tool) = js_tool("design.md") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    copy_dir(&example_content(), &content);
    let tokens = content.join("northwind/tokens.json");
    let text = std::fs::read_to_string(&tokens).unwrap();
    let edited = text
        .replace(
            ",\n    \"xl\": { \"$value\": { \"value\": 3, \"unit\": \"rem\" } }",
            "",
        )
        .replacen(
            "\"radius\": {",
            "\"radius\": {\n    \"pill\": { \"$type\": \"dimension\", \"$value\": { \"value\": 999, \"unit\": \"px\" } },",
            1,
        );
    assert_ne!(edited, text);
    std::fs::write(&tokens, edited).unwrap();
    let old = brands_of(&example_content())
        .into_iter()
        .find(|b| b.slug == "northwind")
        .unwrap();
    let new = brands_of(&content)
        .into_iter()
        .find(|b| b.slug == "northwind")
        .unwrap();
    let (a, b) = (dir.path().join("a.md"), dir.path().join("b.md"));
    std::fs::write(&a, Surface::DesignMd.render(&old, &ctx())).unwrap();
    std::fs::write(&b, Surface::DesignMd.render(&new, &ctx())).unwrap();
    let out = Command::new(&tool)
        .arg("diff")
        .arg(&a)
        .arg(&b)
        .output()
        .unwrap();
    let theirs: Value = serde_json::from_slice(&out.stdout).unwrap();

    // marque's diff, each token change named as DESIGN.md names the token.
    let ours = marque::spec::diff::diff(&old, &new);
    let (placed, _) = place(&new.tokens);
    let (was, _) = place(&old.tokens);
    let key = |name: &str| {
        placed
            .iter()
            .chain(&was)
            .find(|p| p.token.name() == name)
            .and_then(|p| match p.kind {
                Namespace::Radius => Some(("rounded", p.name.clone())),
                Namespace::Spacing => Some(("spacing", p.name.clone())),
                _ => None,
            })
    };
    let mut listed = Vec::new();
    for c in &ours.changes {
        let direction = match c.section {
            marque::spec::diff::Section::Added => "added",
            marque::spec::diff::Section::Removed => "removed",
            marque::spec::diff::Section::Changed | marque::spec::diff::Section::Deprecated => {
                continue
            }
        };
        if let Some((group, name)) = key(&c.name) {
            listed.push((group, direction, name));
        }
    }
    listed.sort();
    assert_eq!(
        listed,
        [
            ("rounded", "added", "pill".to_string()),
            ("spacing", "removed", "xl".to_string())
        ],
        "{ours:#?}"
    );
    for (group, direction, name) in &listed {
        let names = &theirs["tokens"][group][direction];
        assert_eq!(
            names,
            &serde_json::json!([name]),
            "{group}.{direction}: {theirs:#}"
        );
    }
    for group in ["colors", "typography"] {
        for direction in ["added", "removed"] {
            assert_eq!(
                theirs["tokens"][group][direction],
                serde_json::json!([]),
                "{theirs:#}"
            );
        }
    }
}

/// Tailwind's compiler builds a page using `bg-*`, `text-*`, `font-*` and
/// `rounded-*` for every token tailwind.css exports, of both bundled brands
/// and two corpus systems; in headless Chromium each paints what an
/// independent reader of the brand's tokens gives, in the default, under
/// each context's data attribute (on an inner element), and through
/// `dark:` and the reader's dark scheme.
#[test]
fn tailwind_builds_the_theme_and_chromium_paints_the_brands_values() {
    let Some(tailwind) = js_tool("tailwindcss") else {
        return;
    };
    let _one = crate::browser::BROWSER_LOCK
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let Some(browser) = crate::browser::browser() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    copy_dir(&example_content(), &root);
    let mut systems: Vec<(String, std::path::PathBuf)> = Vec::new();
    // Northwind's tokens.json as a one-set resolver document, for the reader.
    let northwind = root.join("northwind/tokens.check.resolver.json");
    std::fs::write(
        &northwind,
        r##"{"version": "2025.10", "sets": {"base": {"sources": [{"$ref": "tokens.json"}]}}, "resolutionOrder": [{"$ref": "#/sets/base"}]}"##,
    )
    .unwrap();
    systems.push(("northwind".into(), northwind));
    systems.push((
        "lumen-health".into(),
        root.join("lumen-health/tokens.resolver.json"),
    ));
    if let Some(corpus) = corpus() {
        corpus_content(&corpus, &root);
        for system in ["figma-sds", "ibm-carbon"] {
            systems.push((
                system.into(),
                root.join(system).join("tokens.resolver.json"),
            ));
        }
    }
    let brands = brands_of(&root);
    for (slug, resolver) in &systems {
        let brand = brands.iter().find(|b| &b.slug == slug).unwrap();
        let work = dir.path().join(format!("tw-{slug}"));
        std::fs::create_dir_all(&work).unwrap();
        std::fs::write(
            work.join("tailwind.css"),
            Surface::TailwindCss.render(brand, &ctx()),
        )
        .unwrap();
        tailwind_entry(&work, &tailwind);
        let (placed, _) = place(&brand.tokens);
        let set = &brand.tokens;
        let mut items = Vec::new();
        for p in &placed {
            let (class, token) = match p.kind {
                Namespace::Color => (format!("bg-{}", p.name), p.token.name()),
                Namespace::Radius => (format!("rounded-{}", p.name), p.token.name()),
                Namespace::Font => (format!("font-{}", p.name), p.token.name()),
                Namespace::Text => (format!("text-{}", p.name), p.token.name()),
                _ => continue,
            };
            items.push((p.kind, class, token));
        }
        assert!(
            items.iter().any(|i| i.0 == Namespace::Color),
            "{slug}: colours exported"
        );
        let elements: String = items
            .iter()
            .enumerate()
            .map(|(i, (kind, class, _))| {
                let dark = match kind {
                    Namespace::Color => format!(" dark:{class}"),
                    _ => String::new(),
                };
                format!("<div id=\"t{i}\" class=\"{class}\"></div><div id=\"d{i}\" class=\"bg-[#010203]{dark}\"></div>")
            })
            .collect();
        std::fs::write(
            work.join("page.html"),
            format!("<div id=\"host\">{elements}</div>"),
        )
        .unwrap();
        let out = Command::new(&tailwind)
            .current_dir(&work)
            .args(["-i", "in.css", "-o", "out.css"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{slug}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let css = std::fs::read_to_string(work.join("out.css")).unwrap();
        for (_, class, _) in &items {
            assert!(
                css.contains(&format!(".{} {{", class.replace('.', "\\."))),
                "{slug}: Tailwind made no `{class}` utility"
            );
        }
        let host = crate::browser::host_page(format!(
            "<!doctype html><html><head><style>{css}</style></head><body><div id=\"ctx\">{elements}</div></body></html>"
        ));
        browser.goto(&host.url());
        browser.wait_for(
            "return document.readyState === 'complete'",
            "the page loads",
        );
        let paint = |what: &str,
                     chosen: &[(&str, &str)],
                     attribute: Option<(String, String)>,
                     dark_variant: bool| {
            let reference = Reference::of(resolver, chosen);
            let set_attr = match attribute {
                Some((name, c)) => format!("el.setAttribute('{name}', '{c}');"),
                None => String::new(),
            };
            let painted = browser.js(&format!(
                "const el = document.getElementById('ctx');
                 for (const a of [...el.attributes]) if (a.name.startsWith('data-')) el.removeAttribute(a.name);
                 {set_attr}
                 const canvas = document.createElement('canvas'); canvas.width = canvas.height = 1;
                 const g = canvas.getContext('2d', {{ willReadFrequently: true }});
                 const srgb = c => {{
                   if (c.startsWith('rgb')) {{ const n = c.match(/[0-9.]+/g).map(Number); return [n[0], n[1], n[2], n.length > 3 ? n[3] : 1]; }}
                   g.clearRect(0, 0, 1, 1); g.fillStyle = c; g.fillRect(0, 0, 1, 1);
                   const d = g.getImageData(0, 0, 1, 1).data; return [d[0], d[1], d[2], d[3] / 255];
                 }};
                 return {n}.map((_, i) => {{
                   const t = getComputedStyle(document.getElementById('t' + i)), d = getComputedStyle(document.getElementById('d' + i));
                   return {{ bg: srgb(t.backgroundColor), dark: srgb(d.backgroundColor), radius: t.borderTopLeftRadius, size: t.fontSize, family: t.fontFamily }};
                 }});",
                n = serde_json::to_string(&vec![0; items.len()]).unwrap(),
            ));
            let painted = painted.as_array().unwrap();
            let mut checked = 0;
            for ((kind, class, token), got) in items.iter().zip(painted) {
                let fail = |detail: String| panic!("{slug} {what}: `{class}` ({token}) {detail}");
                match kind {
                    Namespace::Color => {
                        let Some(want) = reference.colors.get(token) else {
                            continue;
                        };
                        let key = if dark_variant { "dark" } else { "bg" };
                        let got: Vec<f64> = serde_json::from_value(got[key].clone()).unwrap();
                        let close = (got[3] - want[3]).abs() <= 0.01
                            && (want[3] < 0.05 || (0..3).all(|i| (got[i] - want[i]).abs() <= 2.5));
                        if !close {
                            fail(format!("paints {got:?}; the reader gives {want:?}"));
                        }
                    }
                    Namespace::Radius => {
                        let Some(want) = reference.dimensions.get(token) else {
                            continue;
                        };
                        let got = got["radius"].as_str().unwrap();
                        if !same_px(got, *want) {
                            fail(format!("rounds {got}; the reader gives {want}px"));
                        }
                    }
                    Namespace::Text => {
                        let want = reference
                            .font_sizes
                            .get(token)
                            .or(reference.dimensions.get(token));
                        let Some(want) = want else { continue };
                        let got = got["size"].as_str().unwrap();
                        if !same_px(got, *want) {
                            fail(format!("sets font-size {got}; the reader gives {want}px"));
                        }
                    }
                    Namespace::Font => {
                        let Some(want) = reference.fonts.get(token) else {
                            continue;
                        };
                        let got = got["family"].as_str().unwrap();
                        if !got.contains(want[0].as_str()) {
                            fail(format!("sets font-family {got}; the reader gives {want:?}"));
                        }
                    }
                    _ => continue,
                }
                checked += 1;
            }
            assert!(checked > 0, "{slug} {what}: something was compared");
            checked
        };
        let checked = paint("default", &[], None, false);
        let mut contexts = 0;
        for (m, c) in set.contexts() {
            let modifier = &set.modes[m];
            let context = &modifier.contexts[c];
            let attr = (modifier.name.as_str(), context.name.as_str());
            let on = || Some((modifier.attribute(), context.ident()));
            paint(&format!("{}={}", attr.0, attr.1), &[attr], on(), false);
            contexts += 1;
            if modifier.is_color_scheme() && context.ident() == "dark" {
                paint("dark: under its attribute", &[attr], on(), true);
                browser.emulate_dark(true);
                paint("the reader's dark scheme", &[attr], None, false);
                paint("dark: in the reader's dark scheme", &[attr], None, true);
                browser.emulate_dark(false);
            }
        }
        println!("{slug}: {checked} utilities paint the brand's values; {contexts} context(s) too");
    }
}

/// A stock Tailwind page (sizes from its own scales, `font-mono`) lays out
/// the same with each brand's theme as without it: the theme adds, and
/// breaks nothing. Every bundled brand and every corpus system.
#[test]
fn a_brand_theme_leaves_a_stock_tailwind_layout_as_it_was() {
    let Some(tailwind) = js_tool("tailwindcss") else {
        return;
    };
    let _one = crate::browser::BROWSER_LOCK
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let Some(browser) = crate::browser::browser() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    copy_dir(&example_content(), &root);
    if let Some(corpus) = corpus() {
        corpus_content(&corpus, &root);
    }
    let package = tailwind
        .parent()
        .and_then(Path::parent)
        .unwrap()
        .join("tailwindcss");
    // Sizes Tailwind takes from its container, spacing and keyword scales.
    let boxes = [
        "max-w-3xs",
        "max-w-xs",
        "max-w-sm",
        "max-w-md",
        "max-w-lg",
        "max-w-xl",
        "max-w-2xl",
        "w-md",
        "w-sm",
        "w-4",
        "w-64",
        "w-px",
        "min-w-xs",
        "p-4",
        "gap-2",
        "size-8",
        "h-12",
    ];
    let page: String = boxes
        .iter()
        .enumerate()
        .map(|(i, class)| {
            format!("<div id=\"b{i}\" class=\"{class} flex\"><span>x</span><span>y</span></div>")
        })
        .chain(["<code id=\"mono\" class=\"font-mono\">x</code>".to_string()])
        .collect();
    let build = |work: &Path, theme: Option<&str>| -> String {
        std::fs::create_dir_all(work).unwrap();
        std::fs::write(work.join("page.html"), &page).unwrap();
        let mut input = format!("@import \"{}\";\n", package.display());
        if let Some(theme) = theme {
            std::fs::write(work.join("tailwind.css"), theme).unwrap();
            input.push_str("@import \"./tailwind.css\";\n");
        }
        input.push_str("@source \"./page.html\";\n");
        std::fs::write(work.join("in.css"), input).unwrap();
        let out = Command::new(&tailwind)
            .current_dir(work)
            .args(["-i", "in.css", "-o", "out.css"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read_to_string(work.join("out.css")).unwrap()
    };
    let measure = |css: &str| -> Value {
        let host = crate::browser::host_page(format!(
            "<!doctype html><html><head><style>{css}</style></head><body style=\"width:1200px\">{page}</body></html>"
        ));
        browser.goto(&host.url());
        browser.wait_for(
            "return document.readyState === 'complete'",
            "the page loads",
        );
        browser.js(&format!(
            "return {{ boxes: {n}.map((_, i) => {{ const e = document.getElementById('b' + i), s = getComputedStyle(e);
               return [e.getBoundingClientRect().width, e.getBoundingClientRect().height, s.paddingLeft, s.columnGap]; }}),
               mono: getComputedStyle(document.getElementById('mono')).fontFamily }};",
            n = serde_json::to_string(&vec![0; boxes.len()]).unwrap()
        ))
    };
    let stock = measure(&build(&dir.path().join("stock"), None));
    let brands = brands_of(&root);
    assert!(brands.len() >= 2, "the brands build");
    for brand in &brands {
        let theme = Surface::TailwindCss.render(brand, &ctx());
        let themed = measure(&build(
            &dir.path().join(format!("tw-{}", brand.slug)),
            Some(&theme),
        ));
        for (i, class) in boxes.iter().enumerate() {
            assert_eq!(
                themed["boxes"][i], stock["boxes"][i],
                "{}: `{class}` lays out otherwise with the brand's theme",
                brand.slug
            );
        }
        let mono = themed["mono"].as_str().unwrap();
        assert!(
            mono.ends_with("monospace"),
            "{}: font-mono falls back to a monospace font: {mono}",
            brand.slug
        );
    }
}

/// Writes `work/in.css`, what Tailwind's CLI `cli` builds: Tailwind as
/// `@import "tailwindcss"` finds it, from where `.ci/deps` installs it,
/// then the brand's `tailwind.css`, with `page.html` named as a source.
pub(crate) fn tailwind_entry(work: &Path, cli: &Path) {
    let package = cli.ancestors().nth(2).unwrap().join("tailwindcss");
    std::fs::write(
        work.join("in.css"),
        format!(
            "@import \"{}\";\n@import \"./tailwind.css\";\n@source \"./page.html\";\n",
            package.display()
        ),
    )
    .unwrap();
}
