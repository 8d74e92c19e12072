//! figma.zip, Figma's native variables import, both ways: the bundle read
//! back by the reader that reads Figma's own export gives the brand's
//! values in every context with its aliases; its layout, `$extensions` and
//! value shapes are those of import-ready files; a native export with a
//! cross-collection alias, imported and published, carries a palette
//! change to the alias in every mode; and the plans each collection fits.

use crate::helpers::*;
use marque::render::apps::figma;
use marque::spec::tokens::{TokenSet, TokenValue};
use marque::spec::{parse_brand, Brand, BrandFiles, Severity};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/figma-native")
}

fn today() -> chrono::NaiveDate {
    chrono::NaiveDate::from_ymd_opt(2026, 11, 27).unwrap()
}

const BRAND_JSON: &str = r#"{"name": "Back", "summary": "Read back.", "version": "0.1.0", "updated": "2026-11-20", "tokens": "figma"}"#;

/// A brand whose brand.json names the folder `figma` holding `files`.
fn read_back(files: &[(String, Vec<u8>)]) -> Brand {
    let mut texts: Vec<(String, Vec<u8>)> = vec![("brand.json".into(), BRAND_JSON.into())];
    for (path, bytes) in files {
        texts.push((format!("figma/{path}"), bytes.clone()));
    }
    let files = BrandFiles::from_texts(
        "back",
        texts.iter().map(|(p, b)| (p.as_str(), b.as_slice())),
    );
    let (brand, diags) = parse_brand(&files, today());
    let errors: Vec<String> = diags
        .iter()
        .filter(|d| d.severity() == Severity::Error)
        .map(|d| format!("{} {}: {}", d.file, d.pointer, d.message))
        .collect();
    brand.unwrap_or_else(|| panic!("the bundle reads back: {errors:#?}"))
}

/// A colour as sRGB components and alpha, or a dimension in pixels.
fn shown(v: &TokenValue) -> Option<Vec<f64>> {
    match v {
        TokenValue::Color(c) => {
            let [r, g, b] = c.srgb().map(|x| x.clamp(0.0, 1.0));
            Some(vec![r, g, b, c.alpha])
        }
        TokenValue::Dimension(d) => Some(vec![d.px()?]),
        _ => None,
    }
}

#[derive(Default, Debug)]
struct Counts {
    values: usize,
    colours: usize,
    dimensions: usize,
    aliases: usize,
    contexts: usize,
}

/// The tokens `ctx` (modifier, context; `None` for the default) of `a`
/// resolves that are colours or dimensions in pixels, compared with `b`'s
/// in the context of the same names; aliases compared as aliases.
fn compare(a: &Brand, b: &Brand, counts: &mut Counts) -> Vec<String> {
    let (sa, sb) = (&a.tokens, &b.tokens);
    let mut wrong = Vec::new();
    // The modifier of `b` a modifier of `a` became (its collection's name).
    let modifier_b = |m: usize| sb.modes.iter().position(|x| x.name == sa.modes[m].name);
    for t in &sa.tokens {
        let name = t.name();
        let varies: Vec<usize> = (0..sa.modes.len())
            .filter(|&m| sa.modes[m].contexts.iter().any(|c| c.get(&name).is_some()))
            .collect();
        // Where `t` lives: the default, or each exported context of its
        // modifier (the default and up to 39 others).
        let mut places: Vec<Option<(usize, usize)>> = Vec::new();
        match varies.first() {
            None => places.push(None),
            Some(&m) => {
                let d = sa.modes[m].default;
                places.push(Some((m, d)));
                places.extend(
                    (0..sa.modes[m].contexts.len())
                        .filter(|&c| c != d)
                        .take(39)
                        .map(|c| Some((m, c))),
                );
            }
        }
        for place in places {
            let (va, written_a, vb, written_b) = match place {
                None => (
                    sa.resolve(&t.value).map(|v| v.into_owned()),
                    Some(t.value.clone()),
                    sb.get(&name)
                        .and_then(|x| sb.resolve(&x.value))
                        .map(|v| v.into_owned()),
                    sb.get(&name).map(|x| x.value.clone()),
                ),
                Some((m, c)) => {
                    let cname = &sa.modes[m].contexts[c].name;
                    let view_a = sa.view(m, c);
                    let here_a = view_a.get(&name).unwrap_or(t);
                    // Only what figma.zip holds has to be read back.
                    if view_a
                        .resolve(&here_a.value)
                        .as_deref()
                        .and_then(shown)
                        .is_none()
                    {
                        continue;
                    }
                    let found = modifier_b(m).and_then(|mb| {
                        let cb = sb.modes[mb]
                            .contexts
                            .iter()
                            .position(|x| &x.name == cname)?;
                        Some((mb, cb))
                    });
                    let Some((mb, cb)) = found else {
                        wrong.push(format!(
                            "{} `{name}`: context `{cname}` of `{}` missing",
                            a.slug, sa.modes[m].name
                        ));
                        continue;
                    };
                    let view_b = sb.view(mb, cb);
                    let here_b = view_b.get(&name);
                    (
                        view_a.resolve(&here_a.value).map(|v| v.into_owned()),
                        Some(here_a.value.clone()),
                        here_b
                            .and_then(|x| view_b.resolve(&x.value))
                            .map(|v| v.into_owned()),
                        here_b.map(|x| x.value.clone()),
                    )
                }
            };
            let Some(want) = va.as_ref().and_then(shown) else {
                continue;
            };
            counts.values += 1;
            match va {
                Some(TokenValue::Color(_)) => counts.colours += 1,
                _ => counts.dimensions += 1,
            }
            let got = vb.as_ref().and_then(shown);
            let same = got.as_ref().is_some_and(|g| {
                g.len() == want.len() && g.iter().zip(&want).all(|(x, y)| (x - y).abs() < 1e-5)
            });
            if !same {
                wrong.push(format!(
                    "{} `{name}` at {place:?}: {want:?} read back as {got:?}",
                    a.slug
                ));
            }
            if let Some(TokenValue::Alias(target)) = &written_a {
                // An alias to a token the bundle holds stays an alias to it.
                let held = sa
                    .get(target)
                    .is_some_and(|x| shown_or_scalar(sa, &x.value));
                if held {
                    counts.aliases += 1;
                    if written_b.as_ref().and_then(TokenValue::alias_target)
                        != Some(target.as_str())
                    {
                        wrong.push(format!("{} `{name}` at {place:?}: the alias to `{target}` read back as {written_b:?}", a.slug));
                    }
                }
            }
        }
    }
    counts.contexts += 1 + sa
        .modes
        .iter()
        .map(|m| m.contexts.len().min(40))
        .sum::<usize>();
    wrong
}

/// True when the token a value resolves to is one figma.zip holds: a
/// colour, or a dimension with pixels (the others compared are these).
fn shown_or_scalar(set: &TokenSet, v: &TokenValue) -> bool {
    set.resolve(v).as_deref().and_then(shown).is_some()
}

/// Brands of a content folder, parsed.
fn brands(dir: &Path) -> Vec<Brand> {
    marque::source::read_folder(dir)
        .unwrap()
        .brands
        .iter()
        .map(|files| parse_brand(files, today()).0.unwrap())
        .collect()
}

#[test]
fn the_bundle_reads_back_with_every_value_and_alias_of_every_context() {
    let mut all = brands(&example_content());
    let dir = tempfile::tempdir().unwrap();
    if let Some(corpus) = crate::corpus::corpus() {
        let root = dir.path().join("content");
        corpus_content(&corpus, &root);
        all.extend(brands(&root));
    }
    let mut total = Counts::default();
    let mut wrong = Vec::new();
    for brand in &all {
        let bundle = figma::render(brand);
        let back = read_back(&bundle.files);
        let mut counts = Counts::default();
        wrong.extend(compare(brand, &back, &mut counts));
        println!(
            "{}: {} files, {} contexts, {} values ({} colours, {} dimensions), {} aliases still aliases",
            brand.slug,
            bundle.files.len(),
            counts.contexts,
            counts.values,
            counts.colours,
            counts.dimensions,
            counts.aliases
        );
        total.values += counts.values;
        total.colours += counts.colours;
        total.dimensions += counts.dimensions;
        total.aliases += counts.aliases;
        total.contexts += counts.contexts;
    }
    println!("all {} brands: {total:?}", all.len());
    assert!(total.aliases > 0 && total.colours > 0 && total.dimensions > 0);
    assert!(
        wrong.is_empty(),
        "{} differences:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// Every JSON object's keys, by where they are: `token`, `color`,
/// `dimension`, `aliasData`, `codeSyntax`, `root` (a file's own).
fn shapes(doc: &Value, out: &mut BTreeMap<&'static str, BTreeSet<String>>) {
    let Some(o) = doc.as_object() else { return };
    if let Some(value) = o.get("$value") {
        out.entry("token").or_default().extend(o.keys().cloned());
        let ty = o["$type"].as_str().unwrap();
        if let Some(v) = value.as_object() {
            let kind = match ty {
                "color" => "color",
                _ => "dimension",
            };
            out.entry(kind).or_default().extend(v.keys().cloned());
        }
        let ext = o["$extensions"].as_object().unwrap();
        out.entry("extensions")
            .or_default()
            .extend(ext.keys().cloned());
        if let Some(a) = ext.get("com.figma.aliasData") {
            out.entry("aliasData")
                .or_default()
                .extend(a.as_object().unwrap().keys().cloned());
        }
        return;
    }
    for (k, v) in o {
        if k == "$extensions" {
            out.entry("root")
                .or_default()
                .extend(v.as_object().unwrap().keys().cloned());
        } else {
            shapes(v, out);
        }
    }
}

#[test]
fn the_bundle_has_the_layout_extensions_and_values_of_figmas_own_files() {
    // A brand of three layers: the palette, a dark context and a density
    // modifier, so there are cross-collection and in-collection aliases.
    let tokens = r##"{
      "version": "2025.10",
      "sets": {"base": {"sources": [{
        "color": {"$type": "color",
          "blue": {"$value": {"colorSpace": "srgb", "components": [0.145098, 0.388235, 0.921569], "hex": "#2563eb"}},
          "white": {"$value": "#ffffff"},
          "ink": {"$value": "#111827"},
          "background": {"$value": "{color.white}"},
          "text": {"$value": "{color.ink}"},
          "link": {"$value": "{color.text}"}},
        "radius": {"md": {"$type": "dimension", "$value": {"value": 0.5, "unit": "rem"}}},
        "space": {"$type": "dimension", "gap": {"$value": {"value": 8, "unit": "px"}}}
      }]}},
      "modifiers": {
        "color-scheme": {"default": "light", "contexts": {"light": [], "dark": [{"color": {
          "background": {"$type": "color", "$value": "{color.ink}"},
          "text": {"$type": "color", "$value": "{color.white}"},
          "link": {"$type": "color", "$value": "{color.background}"}}}]}},
        "density": {"default": "regular", "contexts": {"regular": [], "compact": [{"space": {"gap": {"$type": "dimension", "$value": {"value": 4, "unit": "px"}}}}]}}
      },
      "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/color-scheme"}, {"$ref": "#/modifiers/density"}]
    }"##;
    let files = BrandFiles::from_texts(
        "acme",
        [
            ("brand.json", br#"{"name": "Acme", "summary": "A brand.", "version": "1.0.0", "updated": "2026-11-20"}"#.as_slice()),
            ("tokens.resolver.json", tokens.as_bytes()),
        ],
    );
    let brand = parse_brand(&files, today()).0.unwrap();
    let bundle = figma::render(&brand);
    let names: Vec<&str> = bundle.files.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(
        names,
        [
            "README.txt",
            "Acme/Mode 1.tokens.json",
            "color-scheme/light.tokens.json",
            "color-scheme/dark.tokens.json",
            "density/regular.tokens.json",
            "density/compact.tokens.json"
        ]
    );
    let readme = String::from_utf8(bundle.files[0].1.clone()).unwrap();
    for step in ["1. Unzip", "2. In Figma", "3. Choose Import"] {
        assert!(readme.contains(step), "{readme}");
    }
    let doc = |path: &str| -> Value {
        let (_, b) = bundle.files.iter().find(|(p, _)| p == path).unwrap();
        serde_json::from_slice(b).unwrap()
    };
    let base = doc("Acme/Mode 1.tokens.json");
    let light = doc("color-scheme/light.tokens.json");
    let dark = doc("color-scheme/dark.tokens.json");
    assert_eq!(dark["$extensions"]["com.figma.modeName"], "dark");
    // The palette stays in the brand's collection; what the dark context
    // changes moves to the modifier's, in both its modes.
    assert!(base["color"]["blue"].is_object() && base["color"]["background"].is_null());
    assert_eq!(
        base["color"]["blue"]["$value"],
        serde_json::json!({"colorSpace": "srgb", "components": [0.145098, 0.388235, 0.921569], "alpha": 1, "hex": "#2563EB"})
    );
    // Across collections: the resolved value, with aliasData.
    assert_eq!(dark["color"]["background"]["$value"]["hex"], "#111827");
    assert_eq!(
        dark["color"]["background"]["$extensions"]["com.figma.aliasData"],
        serde_json::json!({"targetVariableName": "color/ink", "targetVariableSetName": "Acme"})
    );
    assert_eq!(
        light["color"]["background"]["$extensions"]["com.figma.aliasData"]["targetVariableName"],
        "color/white"
    );
    // Inside a collection: a reference, in each mode.
    assert_eq!(dark["color"]["link"]["$value"], "{color.background}");
    assert_eq!(light["color"]["link"]["$value"], "{color.text}");
    // Dimensions in pixels, as Figma keeps them.
    assert_eq!(
        base["radius"]["md"]["$value"],
        serde_json::json!({"value": 8, "unit": "px"})
    );
    let syntax = &dark["color"]["text"]["$extensions"]["com.figma.codeSyntax"];
    assert_eq!(
        syntax,
        &serde_json::json!({"WEB": "var(--color-text)", "ANDROID": "color_text", "iOS": "color-text"})
    );
    assert_eq!(base["color"]["text"].get("$type"), None);
    assert_eq!(
        light["color"]["text"]["$extensions"]["com.figma.scopes"],
        serde_json::json!(["TEXT_FILL"])
    );

    // The shapes of a native export, key for key.
    let mut theirs = BTreeMap::new();
    for f in [
        "Primitives/Mode 1.tokens.json",
        "Semantic/Light.tokens.json",
        "Semantic/Dark.tokens.json",
    ] {
        let d: Value =
            serde_json::from_slice(&std::fs::read(fixtures().join("export").join(f)).unwrap())
                .unwrap();
        shapes(&d, &mut theirs);
    }
    let mut ours = BTreeMap::new();
    for (path, b) in &bundle.files[1..] {
        assert!(path.ends_with(".tokens.json"));
        shapes(&serde_json::from_slice(b).unwrap(), &mut ours);
    }
    for kind in ["token", "color", "aliasData", "root"] {
        assert_eq!(
            ours[kind].difference(&theirs[kind]).collect::<Vec<_>>(),
            Vec::<&String>::new(),
            "{kind}: ours {:?}, theirs {:?}",
            ours[kind],
            theirs[kind]
        );
    }
    assert_eq!(ours["token"], theirs["token"]);
    assert_eq!(ours["color"], theirs["color"]);
    // Figma's export names variables and collections; marque names the
    // variable and its collection (Figma links by name on import).
    assert!(
        ours["aliasData"].contains("targetVariableName")
            && ours["aliasData"].contains("targetVariableSetName")
    );
    for ext in &ours["extensions"] {
        assert!(
            [
                "com.figma.scopes",
                "com.figma.codeSyntax",
                "com.figma.aliasData"
            ]
            .contains(&ext.as_str()),
            "{ext}"
        );
    }

    // Gutenberg's import-ready tokens: the same dimension shape, and the
    // scopes it gives a radius and a border width are the ones marque derives.
    let gutenberg = std::fs::read(fixtures().join("gutenberg/border.json")).unwrap();
    let files = BrandFiles::from_texts(
        "wp",
        [
            ("brand.json", br#"{"name": "WP", "summary": "Borders.", "version": "1.0.0", "updated": "2026-11-20"}"#.as_slice()),
            ("tokens.json", gutenberg.as_slice()),
        ],
    );
    let wp = parse_brand(&files, today()).0.unwrap();
    let bundle = figma::render(&wp);
    let ours: Value = serde_json::from_slice(&bundle.files[1].1).unwrap();
    let theirs: Value = serde_json::from_slice(&gutenberg).unwrap();
    for size in ["xs", "sm", "md", "lg"] {
        let (o, t) = (
            &ours["wpds-border"]["radius"][size],
            &theirs["wpds-border"]["radius"][size],
        );
        assert_eq!(o["$value"], t["$value"], "radius {size}");
        assert_eq!(
            o["$extensions"]["com.figma.scopes"],
            theirs["wpds-border"]["radius"]["$extensions"]["com.figma.scopes"]
        );
        let (o, t) = (
            &ours["wpds-border"]["width"][size],
            &theirs["wpds-border"]["width"][size],
        );
        assert_eq!(o["$value"], t["$value"], "width {size}");
        assert_eq!(
            o["$extensions"]["com.figma.scopes"],
            t["$extensions"]["com.figma.scopes"]
        );
        assert_eq!(o["$description"], t["$description"]);
    }
}

/// A brand folder `acme` whose brand.json names Figma's native export.
fn export_brand(root: &Path) -> PathBuf {
    let brand = root.join("acme");
    copy_dir(&fixtures().join("export"), &brand.join("figma"));
    std::fs::write(
        brand.join("brand.json"),
        r#"{"name": "Acme", "summary": "From Figma.", "version": "1.0.0", "updated": "2026-11-20", "tokens": "figma"}"#,
    )
    .unwrap();
    brand
}

/// The declarations of tokens.css's block that starts with `selector`.
fn block(css: &str, selector: &str) -> BTreeMap<String, String> {
    let start = css
        .find(selector)
        .unwrap_or_else(|| panic!("{selector} in:\n{css}"));
    let body = &css[start..];
    let body = &body[body.find('{').unwrap() + 1..body.find('}').unwrap()];
    body.split(';')
        .filter_map(|d| d.trim().split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

#[test]
fn a_native_export_keeps_its_cross_collection_aliases_and_a_palette_change_flows() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    let brand_dir = export_brand(&root);
    let app = spawn_app(&root);
    let css = app.get("/brand/acme/tokens.css").text();
    let base = block(&css, ":root");
    assert_eq!(base["--color-accent"], "var(--color-blue-500)", "{css}");
    assert_eq!(base["--color-background"], "var(--color-white)");
    assert_eq!(base["--color-link"], "var(--color-accent)");
    assert_eq!(base["--radius-control"], "var(--radius-md)");
    let dark = block(&css, "[data-semantic=\"dark\"]");
    assert_eq!(dark["--color-accent"], "var(--color-blue-700)", "{css}");
    assert_eq!(dark["--color-background"], "var(--color-gray-900)");
    drop(app);

    // The designer changes the palette's blues in Figma; the Semantic
    // files still hold the old resolved values beside their aliasData.
    let primitives = brand_dir.join("figma/Primitives/Mode 1.tokens.json");
    let text = std::fs::read_to_string(&primitives).unwrap();
    let mut doc: Value = serde_json::from_str(&text).unwrap();
    doc["color"]["blue"]["500"]["$value"] = serde_json::json!({"colorSpace": "srgb", "components": [1, 0, 0], "alpha": 1, "hex": "#FF0000"});
    doc["color"]["blue"]["700"]["$value"] = serde_json::json!({"colorSpace": "srgb", "components": [0, 0.5019607843137255, 0], "alpha": 1, "hex": "#008000"});
    std::fs::write(&primitives, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let files = marque::source::read_folder(&root).unwrap();
    let brand = parse_brand(&files.brands[0], today()).0.unwrap();
    let set = &brand.tokens;
    let m = set.modes.iter().position(|m| m.name == "Semantic").unwrap();
    for (c, want) in [("Light", "#ff0000"), ("Dark", "#008000")] {
        let c = set.modes[m]
            .contexts
            .iter()
            .position(|x| x.name == c)
            .unwrap();
        let view = set.view(m, c);
        for token in ["color.accent", "color.link"] {
            let v = view.resolve(&view.get(token).unwrap().value).unwrap();
            let TokenValue::Color(col) = v.as_ref() else {
                panic!("{token}")
            };
            assert_eq!(
                marque::color::hex(col.srgb(), 1.0),
                want,
                "{token} in {}",
                set.modes[m].contexts[c].name
            );
        }
    }
    let app = spawn_app(&root);
    let css = app.get("/brand/acme/tokens.css").text();
    assert!(
        block(&css, ":root")["--color-blue-500"].contains("ff0000")
            || css.contains("--color-blue-500: #f00"),
        "{css}"
    );
    assert_eq!(
        block(&css, ":root")["--color-accent"],
        "var(--color-blue-500)"
    );
    assert_eq!(
        block(&css, "[data-semantic=\"dark\"]")["--color-accent"],
        "var(--color-blue-700)"
    );
    drop(app);
    // Chromium computes the aliases in each mode from tokens.css.
    if let Some((_one, b)) = crate::browser::locked() {
        let app = crate::browser::marque_for_browser(&root);
        let dom = "document.body.insertAdjacentHTML('beforeend', ['light', 'dark'].map(m => `<div data-semantic=\"${m}\"><i id=\"accent-${m}\" style=\"color: var(--color-accent)\"></i><i id=\"link-${m}\" style=\"color: var(--color-link)\"></i></div>`).join(''))";
        b.with_tokens_css(&app.public_url, "acme", dom);
        let got = b.js("return ['accent-light', 'link-light', 'accent-dark', 'link-dark'].map(id => getComputedStyle(document.getElementById(id)).color)");
        assert_eq!(
            got,
            serde_json::json!([
                "rgb(255, 0, 0)",
                "rgb(255, 0, 0)",
                "rgb(0, 128, 0)",
                "rgb(0, 128, 0)"
            ]),
            "the palette's change in every mode, as Chromium computes it"
        );
    }

    // `marque import` of the export zipped, as Figma hands it over.
    let bundle: Vec<(String, Vec<u8>)> = [
        "Primitives/Mode 1.tokens.json",
        "Semantic/Light.tokens.json",
        "Semantic/Dark.tokens.json",
    ]
    .iter()
    .map(|p| {
        (
            p.to_string(),
            std::fs::read(fixtures().join("export").join(p)).unwrap(),
        )
    })
    .collect();
    let zip = dir.path().join("figma.zip");
    std::fs::write(&zip, marque::render::apps::archive::zip(&bundle)).unwrap();
    let out = dir.path().join("imported");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args([
            "import",
            zip.to_str().unwrap(),
            "--slug",
            "acme",
            "--out",
            out.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let resolver = std::fs::read_to_string(out.join("acme/tokens.resolver.json")).unwrap();
    assert!(resolver.contains("\"{color.blue.700}\""), "{resolver}");
    assert!(resolver.contains("\"{radius.md}\""), "{resolver}");
    println!("{said}");
}

#[test]
fn collections_past_a_plans_mode_limit_are_warned_about() {
    for (modes, plans) in [
        (10, None),
        (11, Some("Organization and Enterprise plans")),
        (20, Some("Organization and Enterprise plans")),
        (21, Some("Enterprise plan")),
    ] {
        let contexts: serde_json::Map<String, Value> = (0..modes)
            .map(|i| (format!("m{i}"), serde_json::json!([{"c": {"$type": "color", "$value": format!("#0000{i:02x}")}}])))
            .collect();
        let tokens = serde_json::json!({
            "version": "2025.10",
            "sets": {"base": {"sources": [{"c": {"$type": "color", "$value": "#000000"}}]}},
            "modifiers": {"theme": {"default": "m0", "contexts": contexts}},
            "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}]
        })
        .to_string();
        let files = BrandFiles::from_texts(
            "acme",
            [
                ("brand.json", br#"{"name": "Acme", "summary": "Modes.", "version": "1.0.0", "updated": "2026-11-20"}"#.as_slice()),
                ("tokens.resolver.json", tokens.as_bytes()),
            ],
        );
        let brand = parse_brand(&files, today()).0.unwrap();
        let warnings = figma::render(&brand).warnings;
        match plans {
            None => assert!(warnings.is_empty(), "{modes}: {warnings:?}"),
            Some(plans) => {
                assert_eq!(warnings.len(), 1, "{modes}: {warnings:?}");
                let w = &warnings[0].0;
                assert!(
                    w.contains(&format!("`theme` has {modes} modes")) && w.contains(plans),
                    "{modes}: {w}"
                );
                assert!(!w.contains("Professional plan"), "{w}");
            }
        }
    }
    // And the brand's diagnostics say it, as MQ2305.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    let brand = root.join("acme");
    std::fs::create_dir_all(&brand).unwrap();
    let contexts: serde_json::Map<String, Value> = (0..11)
        .map(|i| {
            (
                format!("m{i}"),
                serde_json::json!([{"c": {"$type": "color", "$value": format!("#0000{i:02x}")}}]),
            )
        })
        .collect();
    std::fs::write(
        brand.join("brand.json"),
        r#"{"name": "Acme", "summary": "Modes.", "version": "1.0.0", "updated": "2026-11-20"}"#,
    )
    .unwrap();
    std::fs::write(
        brand.join("tokens.resolver.json"),
        serde_json::json!({
            "version": "2025.10",
            "sets": {"base": {"sources": [{"c": {"$type": "color", "$value": "#000000"}}]}},
            "modifiers": {"theme": {"default": "m0", "contexts": contexts}},
            "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}]
        })
        .to_string(),
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", root.to_str().unwrap(), "--format", "json"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("MQ2305") && text.contains("Organization and Enterprise"),
        "{text}"
    );
}
