//! Every surface of every example brand: golden snapshots (insta), output
//! rules that hold for any brand, and checks against the published formats
//! of the tools that consume them.

use crate::helpers::*;
use chrono::NaiveDate;
use marque::build::{build_catalog, BuildOptions, Catalog};
use marque::render::html::{IndexEntry, State};
use marque::render::{self, Context, Surface};
use marque::source::read_folder;
use marque::spec::Brand;
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

pub fn today() -> NaiveDate {
    NaiveDate::from_ymd_opt(2026, 11, 22).unwrap()
}

pub fn ctx() -> Context {
    Context::new("https://brand.example.com")
}

/// The revision the golden surfaces are rendered at (in git mode, the id of
/// the brand folder's tree).
pub const REVISION: &str = "0123456789abcdef0123456789abcdef01234567";

/// The valid brands of a content folder, parsed with a fixed date and revision.
pub fn brands_of(dir: &Path) -> Vec<Arc<Brand>> {
    let mut content = read_folder(dir).unwrap();
    for b in &mut content.brands {
        let mut files = marque::spec::BrandFiles::clone(b);
        files.revision = Some(REVISION.into());
        *b = Arc::new(files);
    }
    let catalog = build_catalog(
        &content,
        &ctx(),
        marque::spec::Moment::on(today()),
        &Catalog::default(),
        &BuildOptions::default(),
    );
    assert!(!catalog.has_errors(), "{:#?}", catalog.diagnostics());
    catalog
        .published()
        .map(|p| p.model.brand.brand().unwrap())
        .collect()
}

/// Every surface of a brand as (name, text).
pub fn surfaces(brand: &Brand, ctx: &Context) -> Vec<(&'static str, String)> {
    let mut all: Vec<(&'static str, String)> = Surface::ALL
        .iter()
        .map(|s| (s.file(), s.render(brand, ctx)))
        .collect();
    all.push(("page.html", render::html::render(brand, ctx).body));
    all.push((
        "embed.js",
        render::embed::render(
            brand,
            ctx,
            marque::render::view::Access::private_or_public(brand),
        ),
    ));
    all
}

#[test]
fn every_surface_of_every_example_brand_matches_its_snapshot() {
    let brands = brands_of(&example_content());
    assert_eq!(brands.len(), 2);
    for brand in &brands {
        for (name, text) in surfaces(brand, &ctx()) {
            insta::assert_snapshot!(format!("{}__{name}", brand.slug), text);
        }
        // figma.zip's files, one after another, so a change shows as text.
        let bundle = render::apps::figma::render(brand);
        let text: String = bundle
            .files
            .iter()
            .map(|(path, bytes)| format!("==> {path} <==\n{}", String::from_utf8_lossy(bytes)))
            .collect();
        insta::assert_snapshot!(format!("{}__figma.zip", brand.slug), text);
    }
    let refs: Vec<&Brand> = brands.iter().map(|b| b.as_ref()).collect();
    insta::assert_snapshot!(
        "root__llms.txt",
        render::llms_txt::render_index(&refs, &ctx())
    );
    insta::assert_snapshot!(
        "root__index.html",
        render::html::render_index(&index_entries(&refs), &ctx()).body
    );
}

/// Index rows for published, valid brands.
pub fn index_entries<'a>(brands: &[&'a Brand]) -> Vec<IndexEntry<'a>> {
    brands
        .iter()
        .map(|b| IndexEntry {
            slug: &b.slug,
            // A test's rows live as long as the test.
            headline: Some(Box::leak(Box::new(render::Headline::of(b)))),
            state: State::Ok,
            errors: 0,
        })
        .collect()
}

#[test]
fn rendering_is_deterministic() {
    let a = brands_of(&example_content());
    let b = brands_of(&example_content());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(surfaces(x, &ctx()), surfaces(y, &ctx()));
    }
}

/// Every string and number in a JSON value, as text.
fn facts(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        // As a reader writes it: 120, not 120.0.
        Value::Number(n) => out.push(n.as_f64().map_or(n.to_string(), |f| f.to_string())),
        Value::Array(a) => a.iter().for_each(|x| facts(x, out)),
        Value::Object(o) => o.values().for_each(|x| facts(x, out)),
        _ => {}
    }
}

/// Markdown as a reader sees it: backslash escapes removed outside code
/// spans (inside them text is literal), whitespace folded. With
/// `keep_code` false, code spans are dropped instead of kept.
pub fn md_text(md: &str, keep_code: bool) -> String {
    let chars: Vec<char> = md.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' && chars.get(i + 1).is_some_and(|n| n.is_ascii_punctuation()) {
            out.push(chars[i + 1]);
            i += 2;
            continue;
        }
        if c == '`' {
            let run = chars[i..].iter().take_while(|x| **x == '`').count();
            let fence: String = "`".repeat(run);
            let rest: String = chars[i + run..].iter().collect();
            if let Some(end) = rest.find(&fence) {
                if keep_code {
                    out.push_str(&rest[..end]);
                }
                i += run + rest[..end].chars().count() + run;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

fn plain(md: &str) -> String {
    md_text(md, true)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn assert_md_carries_spec_json(brand: &Brand) {
    let mut spec: Value = serde_json::from_str(&render::spec_json::render(brand, &ctx())).unwrap();
    let md = plain(&render::spec_md::render(brand, &ctx()));
    // Tokens are written in their CSS form, not as DTCG JSON: each token's
    // name, its value as CSS and, outside sRGB, its hex.
    spec.as_object_mut().unwrap().remove("tokens");
    // So are the tokens each context sets apart, resolved in that context.
    for m in spec["modes"].as_array_mut().into_iter().flatten() {
        for c in m["contexts"].as_array_mut().unwrap() {
            c.as_object_mut().unwrap().remove("tokens");
        }
    }
    let mut all = Vec::new();
    facts(&spec, &mut all);
    let set = &brand.tokens;
    for (m, c) in set.contexts() {
        let here = set.in_context(m, c);
        for t in &set.modes[m].contexts[c].tokens {
            all.push(t.name());
            if let Some(marque::spec::tokens::TokenValue::Color(c)) =
                here.resolve(&t.value).as_deref()
            {
                all.push(c.srgb_hex());
            }
        }
    }
    for t in &set.tokens {
        all.push(t.name());
        all.push(marque::spec::tokens::css::value(
            &t.value,
            set,
            marque::spec::tokens::css::Refs::Resolve,
        ));
        if let Some(marque::spec::tokens::TokenValue::Color(c)) = set.resolve(&t.value).as_deref() {
            all.push(c.srgb_hex());
        }
        all.extend(t.description.clone());
    }
    for g in &set.groups {
        all.extend(g.description.clone());
    }
    // A surface or logo file under the brand's page is named by its path
    // there, once the page's URL is given.
    let page = spec["links"]["page"].as_str().unwrap().to_string();
    assert!(md.contains(&format!("<{page}/>")), "the base of every file");
    for fact in all {
        let fact = fact.split_whitespace().collect::<Vec<_>>().join(" ");
        let fact = match fact.strip_prefix(&format!("{page}/")) {
            Some(path) => path.to_string(),
            None => fact,
        };
        // A list item may lose its full stop when items are joined; a
        // `{reference}` is written as the token's name.
        let bare = match fact.strip_prefix('{').and_then(|f| f.strip_suffix('}')) {
            Some(name) => name,
            None => fact.trim_end_matches('.'),
        };
        assert!(
            md.contains(&fact) || md.contains(bare),
            "spec.md of {} lacks {fact:?}",
            brand.slug
        );
    }
}

#[test]
fn spec_md_carries_every_fact_of_spec_json() {
    for brand in brands_of(&example_content()) {
        assert_md_carries_spec_json(&brand);
    }
    for brand in brands_of(Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/hostile"
    ))) {
        assert_md_carries_spec_json(&brand);
    }
}

#[test]
fn spec_md_puts_voice_first_and_nests_the_brand_book_under_its_heading() {
    let brands = brands_of(&example_content());
    let nw = brands.iter().find(|b| b.slug == "northwind").unwrap();
    let md = render::spec_md::render(nw, &ctx());
    assert!(md.starts_with(
        "# Northwind Outfitters\n\nBrand `northwind`, spec version 2.4.0 as of 2026-10-14"
    ));
    // Voice and audience come first, the prompt kit and links last.
    let at = |h: &str| md.find(&format!("\n## {h}\n")).unwrap();
    assert!(at("Voice") < at("Audience") && at("Audience") < at("Logo"));
    assert!(at("Design tokens") < at("Prompt kit") && at("Prompt kit") < at("Links"));
    let book = md
        .split_once("\n## Brand book\n")
        .expect("brand book section")
        .1;
    // The book's own title nests under it.
    assert!(book.contains("\n### Northwind brand book\n"));
    assert!(book.contains("\n#### Principles\n"));
    assert!(
        book.contains("# A code block is copied as is"),
        "code blocks are untouched"
    );
}

#[test]
fn spec_json_has_every_section_and_computed_fields() {
    let brands = brands_of(&example_content());
    let nw = brands.iter().find(|b| b.slug == "northwind").unwrap();
    let spec: Value = serde_json::from_str(&render::spec_json::render(nw, &ctx())).unwrap();
    for key in [
        "slug",
        "name",
        "version",
        "updated",
        "summary",
        "revision",
        "links",
        "tokens",
        "voice",
        "audience",
        "logo",
        "typography",
        "color",
        "applications",
        "promptKit",
    ] {
        assert!(spec.get(key).is_some(), "spec.json has {key}");
    }
    assert_eq!(spec["color"]["palette"][0]["value"], "#0a2742");
    assert_eq!(spec["color"]["palette"][3]["value"], "oklch(0.62 0.11 150)");
    assert_eq!(
        spec["typography"]["families"][1]["value"],
        "Inter, \"Helvetica Neue\", Arial, sans-serif"
    );
    assert_eq!(
        spec["typography"]["styles"][0]["value"],
        "700 3rem/1.1 Fraunces, Georgia, serif"
    );
    let pair = &spec["color"]["pairs"][0];
    assert_eq!(pair["passes"], true);
    assert!(pair["contrast"].as_f64().unwrap() > 7.0);
    assert_eq!(
        spec["logo"]["variants"][0]["url"],
        "https://brand.example.com/brand/northwind/assets/logo.svg"
    );
    assert_eq!(spec["x-owner"], "brand-team@northwind.example");
    // Tokens come back in DTCG 2025.10 form with explicit types.
    assert_eq!(
        spec["tokens"]["color"]["text"]["primary"],
        serde_json::json!({"$type": "color", "$value": "{color.fjord.900}"})
    );
    // A brand without a section still publishes it, empty.
    let lumen = brands.iter().find(|b| b.slug == "lumen-health").unwrap();
    let spec: Value = serde_json::from_str(&render::spec_json::render(lumen, &ctx())).unwrap();
    assert_eq!(spec["audience"]["segments"][0]["description"], Value::Null);
    assert_eq!(spec["version"], "3.0.0-beta.2");
}

fn any_of(v: &mut Value) {
    match v {
        Value::Object(o) => {
            if let Some(one) = o.remove("oneOf") {
                o.insert("anyOf".into(), one);
            }
            o.values_mut().for_each(any_of);
        }
        Value::Array(a) => a.iter_mut().for_each(any_of),
        _ => {}
    }
}

/// The request body schema of Figma's `POST /v1/files/{file_key}/variables`,
/// with `#/components/...` references resolvable from its root.
fn figma_validator() -> jsonschema::Validator {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/figma/openapi.yaml"
    ))
    .unwrap();
    let mut doc: Value = serde_yaml::from_str(&text).unwrap();
    any_of(&mut doc);
    let mut schema = doc["paths"]["/v1/files/{file_key}/variables"]["post"]["requestBody"]
        ["content"]["application/json"]["schema"]
        .clone();
    schema["components"] = doc["components"].clone();
    jsonschema::validator_for(&schema).expect("Figma's schema compiles")
}

pub fn assert_figma_accepts(body: &str) {
    let validator = figma_validator();
    let value: Value = serde_json::from_str(body).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "Figma would reject the body: {errors:#?}"
    );
    // Rules the schema cannot state: names, limits and references within the body.
    let vars = value["variables"].as_array().unwrap();
    assert!(body.len() <= 4 * 1024 * 1024);
    let ids: std::collections::HashSet<&str> =
        vars.iter().map(|v| v["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), vars.len(), "temporary ids are unique");
    // Each collection's modes: its initial mode and those created in it.
    let mut modes: std::collections::HashMap<&str, Vec<&str>> = value["variableCollections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap(),
                vec![c["initialModeId"].as_str().unwrap()],
            )
        })
        .collect();
    for m in value["variableModes"].as_array().into_iter().flatten() {
        let collection = modes
            .get_mut(m["variableCollectionId"].as_str().unwrap())
            .expect("a mode's collection is in the body");
        match m["action"].as_str().unwrap() {
            "CREATE" => collection.push(m["id"].as_str().unwrap()),
            _ => assert!(collection.contains(&m["id"].as_str().unwrap()), "{m}"),
        }
    }
    for (collection, ms) in &modes {
        assert!(ms.len() <= 40, "{collection}: Figma's mode limit");
        let n = vars
            .iter()
            .filter(|v| v["variableCollectionId"] == *collection)
            .count();
        assert!(n <= 5000, "{collection}: Figma's variable limit");
    }
    let mut set: std::collections::HashMap<&str, Vec<&str>> = Default::default();
    for mv in value["variableModeValues"].as_array().unwrap() {
        let var = mv["variableId"].as_str().unwrap();
        assert!(ids.contains(var));
        set.entry(var)
            .or_default()
            .push(mv["modeId"].as_str().unwrap());
        if mv["value"]["type"] == "VARIABLE_ALIAS" {
            assert!(
                ids.contains(mv["value"]["id"].as_str().unwrap()),
                "alias targets are in the body"
            );
        }
    }
    for v in vars {
        let name = v["name"].as_str().unwrap();
        assert!(!name.contains(['.', '{', '}']), "{name}");
        let collection = v["variableCollectionId"].as_str().unwrap();
        let mut want = modes[collection].clone();
        let mut got = set.remove(v["id"].as_str().unwrap()).unwrap_or_default();
        want.sort();
        got.sort();
        assert_eq!(
            got, want,
            "{name} has one value in each mode of its collection"
        );
    }
}

#[test]
fn figma_body_matches_figmas_openapi_description() {
    for brand in brands_of(&example_content()) {
        assert_figma_accepts(&render::figma::render(&brand, &ctx()).body);
    }
}

#[test]
fn the_schema_check_itself_rejects_a_malformed_body() {
    // Guards the test above: a body Figma would refuse must fail validation.
    let validator = figma_validator();
    let bad = serde_json::json!({"variables": [{"action": "CREATE", "name": "x", "variableCollectionId": "c", "resolvedType": "COLOUR"}]});
    assert!(!validator.is_valid(&bad));
    let bad_color = serde_json::json!({"variableModeValues": [{"variableId": "v", "modeId": "m", "value": {"r": 2, "g": 0, "b": 0}}]});
    assert!(!validator.is_valid(&bad_color));
}

#[test]
fn figma_values_use_figmas_units_and_aliases() {
    let brands = brands_of(&example_content());
    let nw = brands.iter().find(|b| b.slug == "northwind").unwrap();
    let body: Value = serde_json::from_str(&render::figma::render(nw, &ctx()).body).unwrap();
    let value_of = |name: &str| {
        let var = body["variables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == name)
            .unwrap_or_else(|| panic!("{name}"));
        let mv = body["variableModeValues"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["variableId"] == var["id"])
            .unwrap();
        (var.clone(), mv["value"].clone())
    };
    let (var, v) = value_of("space/md");
    assert_eq!(v, serde_json::json!(16.0), "1rem is 16px");
    assert_eq!(var["resolvedType"], "FLOAT");
    assert_eq!(var["codeSyntax"]["WEB"], "var(--space-md)");
    let (_, v) = value_of("color/fjord/900");
    assert_eq!(v["a"], serde_json::json!(1.0));
    assert!((v["r"].as_f64().unwrap() - 0.0392).abs() < 1e-6);
    let (var, v) = value_of("color/text/primary");
    assert_eq!(v["type"], "VARIABLE_ALIAS");
    assert_eq!(var["scopes"], serde_json::json!(["TEXT_FILL"]));
    let (_, v) = value_of("motion/duration/calm");
    assert_eq!(v, serde_json::json!(300.0), "durations are milliseconds");
    let (_, v) = value_of("typography/display/lineHeight");
    assert_eq!(v, serde_json::json!(52.8), "line height in px: 1.1 × 48px");
    // Composites are their bindable parts: a border's colour and width, a
    // transition's timing, each shadow layer's colour and geometry, each
    // gradient stop's colour, an easing curve as text hidden from pickers.
    let (var, v) = value_of("border/focus/color");
    assert_eq!(v["type"], "VARIABLE_ALIAS");
    assert_eq!(var["scopes"], serde_json::json!(["STROKE_COLOR"]));
    assert_eq!(var["codeSyntax"]["WEB"], "var(--border-focus-color)");
    let (var, v) = value_of("border/focus/width");
    assert_eq!(v, serde_json::json!(2.0));
    assert_eq!(var["scopes"], serde_json::json!(["STROKE_FLOAT"]));
    let (var, v) = value_of("elevation/card/1/blur");
    assert_eq!(v, serde_json::json!(24.0), "the second layer's blur");
    assert_eq!(var["scopes"], serde_json::json!(["EFFECT_FLOAT"]));
    let (_, v) = value_of("elevation/card/1/spread");
    assert_eq!(v, serde_json::json!(-4.0));
    let (var, _) = value_of("elevation/pressed/offsetY");
    assert_eq!(var["codeSyntax"]["WEB"], "var(--elevation-pressed)");
    let (var, v) = value_of("gradient/horizon/1/color");
    assert_eq!(v["type"], "VARIABLE_ALIAS");
    assert_eq!(var["scopes"], serde_json::json!(["ALL_FILLS"]));
    let (var, v) = value_of("motion/easing/standard");
    assert_eq!(v, serde_json::json!("cubic-bezier(0.2, 0, 0, 1)"));
    assert_eq!(var["scopes"], serde_json::json!([]));
    let (_, v) = value_of("motion/transition/fade/timingFunction");
    assert_eq!(v["type"], "VARIABLE_ALIAS");
    assert!(
        !body["variables"]
            .as_array()
            .unwrap()
            .iter()
            .any(|v| v["name"] == "border/focus/style"),
        "no Figma field takes a stroke style"
    );
    assert_eq!(
        body["variableCollections"][0]["name"],
        "Northwind Outfitters"
    );
}

#[test]
fn example_content_validates_against_the_published_brand_schema() {
    let schema: Value = serde_json::from_str(marque::spec::schema::BRAND_SCHEMA).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    for slug in ["northwind", "lumen-health"] {
        let text =
            std::fs::read_to_string(example_content().join(slug).join("brand.json")).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| e.to_string())
            .collect();
        assert!(errors.is_empty(), "{slug}: {errors:?}");
    }
    let typo: Value =
        serde_json::json!({"name": "A", "version": "1.0.0", "updated": "2026-01-01", "colour": {}});
    assert!(
        !validator.is_valid(&typo),
        "the published schema rejects unknown keys too"
    );
}

/// Parses llms.txt the way the llmstxt.org reference parser does: H1 title,
/// `>` summary, and H2 sections of `- [title](url): description` links.
pub fn parse_llms_txt(text: &str) -> (String, String, Vec<(String, Vec<String>)>) {
    let mut lines = text.lines();
    let title = lines
        .next()
        .unwrap()
        .strip_prefix("# ")
        .expect("starts with an H1")
        .to_string();
    let summary = text
        .lines()
        .find_map(|l| l.strip_prefix("> "))
        .expect("has a summary")
        .to_string();
    let mut sections: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("## ") {
            sections.push((h.to_string(), Vec::new()));
        } else if let Some(rest) = line.strip_prefix("- [") {
            let url = rest.split_once("](").unwrap().1.split_once(')').unwrap().0;
            sections
                .last_mut()
                .expect("links are inside a section")
                .1
                .push(url.to_string());
        }
    }
    (title, summary, sections)
}

#[test]
fn every_link_a_discovery_document_publishes_resolves_on_the_server() {
    let app = spawn_app(&example_content());
    let mut urls: Vec<String> = Vec::new();
    for path in [
        "/llms.txt",
        "/brand/northwind/llms.txt",
        "/brand/lumen-health/llms.txt",
    ] {
        let (title, summary, sections) = parse_llms_txt(&app.get(path).text());
        assert!(!title.is_empty() && !summary.is_empty());
        assert!(
            sections.iter().any(|(h, _)| h == "Optional"),
            "{path} has an Optional section"
        );
        urls.extend(sections.into_iter().flat_map(|(_, u)| u));
    }
    let spec = app.get("/brand/northwind/spec.json").json();
    urls.extend(
        spec["links"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_str().unwrap().to_string()),
    );
    urls.extend(
        spec["logo"]["variants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["url"].as_str().unwrap().to_string()),
    );
    for b in app.get("/brands.json").json()["brands"].as_array().unwrap() {
        urls.extend(
            b["links"]
                .as_object()
                .unwrap()
                .values()
                .map(|v| v.as_str().unwrap().to_string()),
        );
    }
    assert!(urls.len() > 30);
    for url in urls {
        let path = url
            .strip_prefix(&app.public_url)
            .unwrap_or_else(|| panic!("{url} is absolute on this server"));
        let path = path.split('#').next().unwrap();
        if path.starts_with("/api/") {
            continue; // the demo endpoint is POST-only (issue 5)
        }
        assert_eq!(app.get(path).status, 200, "{url}");
    }
}

/// The manual's numbers about the embed script (docs/reference/surfaces.md,
/// "The brand card") are the served sizes, not a memory of them.
#[test]
fn the_manuals_embed_sizes_are_what_is_served() {
    let readme = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/docs/reference/surfaces.md"
    ))
    .unwrap();
    let flat = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let at = flat
        .find("no dependencies: ")
        .expect("the manual gives the embed script's size");
    let said: Vec<String> = flat[at..]
        .split(" KB")
        .take(3)
        .map(|part| part.rsplit(' ').next().unwrap().to_string())
        .collect();
    let app = spawn_app(&example_content());
    let size = |coding: &str| {
        let res = app.get_with("/embed/brand/northwind", &[("accept-encoding", coding)]);
        format!("{:.1}", res.body.len() as f64 / 1000.0)
    };
    let served = vec![size("identity"), size("gzip"), size("br")];
    assert_eq!(
        said, served,
        "docs/reference/surfaces.md: identity, gzip, brotli KB of the embed script"
    );
}

/// A font family alone gets a generic family after it in tokens.css, as
/// tailwind.css gives it (one rule, `css::with_generic`): without one,
/// `"Circular Std"` on a machine without it falls back to the browser's
/// serif. The token's name says the kind; sans-serif otherwise.
#[test]
fn a_lone_font_family_gets_a_generic_fallback_in_tokens_css() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &example_content().join("northwind"),
        &dir.path().join("northwind"),
    );
    let path = dir.path().join("northwind/tokens.json");
    let mut tokens: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    tokens["face"] = serde_json::json!({
        "$type": "fontFamily",
        "brand": {"$value": "Circular Std"},
        "code-mono": {"$value": ["JetBrains Mono"]},
        "display-serif": {"$value": "Tiempos Headline"},
        "stack": {"$value": ["Inter", "system-ui"]}
    });
    std::fs::write(&path, serde_json::to_string_pretty(&tokens).unwrap()).unwrap();
    let app = spawn_app(dir.path());
    let css = app.get("/brand/northwind/tokens.css").text();
    for want in [
        "--face-brand: \"Circular Std\", sans-serif;",
        "--face-code-mono: \"JetBrains Mono\", ui-monospace, monospace;",
        "--face-display-serif: \"Tiempos Headline\", serif;",
        "--face-stack: Inter, system-ui;",
    ] {
        assert!(css.contains(want), "{want} in:\n{css}");
    }
    let tailwind = app.get("/brand/northwind/tailwind.css").text();
    assert!(
        tailwind.contains("\"Circular Std\", sans-serif;"),
        "tailwind.css agrees:\n{tailwind}"
    );
}

/// spec.md's sRGB fallback of a translucent colour keeps its alpha: Lumen's
/// scrim, `rgb(26 32 40 / 0.16)`, is `#1a202829`, not the opaque `#1a2028`.
#[test]
fn spec_md_writes_a_translucent_colours_fallback_with_its_alpha() {
    let app = spawn_app(&example_content());
    let md = app.get("/brand/lumen-health/spec.md").text();
    let scrim: Vec<&str> = md.lines().filter(|l| l.contains("color.scrim")).collect();
    assert!(!scrim.is_empty(), "{md}");
    for line in &scrim {
        assert!(
            !line.contains("sRGB #1a2028 ")
                && !line.contains("sRGB #1a2028,")
                && !line.ends_with("sRGB #1a2028"),
            "{line}"
        );
    }
    assert!(
        md.contains("sRGB #1a202829"),
        "the fallback has the alpha:\n{}",
        scrim.join("\n")
    );
}
