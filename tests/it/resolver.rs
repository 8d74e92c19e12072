//! Brands whose tokens are a DTCG resolver document (`tokens.resolver.json`):
//! sets and modifiers merged in `resolutionOrder`, the default permutation
//! published, every context checked, diagnostics in the file a token is
//! written in.

use crate::helpers::*;
use marque::spec::diag::Code;
use marque::spec::{parse_brand, BrandFiles, Diagnostic, Severity};
use std::path::Path;

const RESOLVER: &str = r##"{
  "version": "2025.10",
  "sets": {
    "base": { "sources": [{ "$ref": "tokens/base.json" }] }
  },
  "modifiers": {
    "theme": {
      "contexts": {
        "light": [],
        "dark": [{ "$ref": "tokens/dark.json" }]
      },
      "default": "light"
    }
  },
  "resolutionOrder": [{ "$ref": "#/sets/base" }, { "$ref": "#/modifiers/theme" }]
}
"##;

/// The dark context: a lighter lichen (in no contrast pair, so every pair
/// keeps passing; a test below breaks one on purpose).
const DARK: &str = r##"{
  "color": {
    "lichen": {
      "500": {
        "$value": { "colorSpace": "srgb", "components": [0.6, 0.8, 0.651], "hex": "#99cca6" }
      }
    }
  }
}
"##;

/// The example content with Northwind's tokens.json moved into a resolver:
/// the same tokens as a set, and a `theme` modifier whose default adds
/// nothing.
fn resolver_content(root: &Path, dark: &str) {
    copy_dir(&example_content(), root);
    let brand = root.join("northwind");
    let tokens = std::fs::read_to_string(brand.join("tokens.json")).unwrap();
    std::fs::remove_file(brand.join("tokens.json")).unwrap();
    std::fs::create_dir_all(brand.join("tokens")).unwrap();
    std::fs::write(brand.join("tokens/base.json"), tokens).unwrap();
    std::fs::write(brand.join("tokens/dark.json"), dark).unwrap();
    std::fs::write(brand.join("tokens.resolver.json"), RESOLVER).unwrap();
}

/// Northwind's files with the resolver, `dark.json` as given.
fn northwind_files(dark: &str, edit: impl Fn(&mut String)) -> BrandFiles {
    let dir = example_content().join("northwind");
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap();
    let mut base = read("tokens.json");
    edit(&mut base);
    let (brand, book) = (read("brand.json"), read("BRAND_BOOK.md"));
    let assets: Vec<(String, String)> = ["logo.svg", "logo-reversed.svg", "mark.svg"]
        .iter()
        .map(|f| (format!("assets/{f}"), read(&format!("assets/{f}"))))
        .collect();
    let texts = [
        ("brand.json", brand.as_bytes()),
        ("BRAND_BOOK.md", book.as_bytes()),
        ("tokens.resolver.json", RESOLVER.as_bytes()),
        ("tokens/base.json", base.as_bytes()),
        ("tokens/dark.json", dark.as_bytes()),
    ];
    BrandFiles::from_texts(
        "northwind",
        texts
            .into_iter()
            .chain(assets.iter().map(|(p, t)| (p.as_str(), t.as_bytes()))),
    )
}

/// `files` with `resolver` as its tokens.resolver.json.
fn with_resolver(files: BrandFiles, resolver: &str) -> BrandFiles {
    let texts: Vec<(String, Vec<u8>)> = files
        .files()
        .iter()
        .map(|(p, b)| match p.as_str() {
            "tokens.resolver.json" => (p.clone(), resolver.as_bytes().to_vec()),
            _ => (p.clone(), b.to_vec()),
        })
        .collect();
    BrandFiles::from_texts(
        "northwind",
        texts.iter().map(|(p, b)| (p.as_str(), b.as_slice())),
    )
}

fn errors(files: &BrandFiles) -> Vec<Diagnostic> {
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    let (brand, diags) = parse_brand(files, today);
    let errors: Vec<Diagnostic> = diags
        .into_iter()
        .filter(|d| d.severity() == Severity::Error)
        .collect();
    assert_eq!(brand.is_some(), errors.is_empty(), "{errors:#?}");
    errors
}

#[test]
fn a_resolver_brand_publishes_its_default_permutation_as_tokens_json_would() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    resolver_content(&root, DARK);
    // A token Figma leaves out, the same in both, to see where it is reported.
    let plain_root = dir.path().join("plain");
    copy_dir(&example_content(), &plain_root);
    add_figma_gaps(&plain_root.join("northwind/tokens.json"), 1);
    add_figma_gaps(&root.join("northwind/tokens/base.json"), 1);
    let plain = spawn_with(serve_config(&plain_root));
    let resolved = spawn_with(serve_config(&root));
    for surface in marque::render::Surface::ALL.map(|s| s.file()) {
        let path = format!("/brand/northwind/{surface}");
        let (a, b) = (plain.get(&path), resolved.get(&path));
        assert_eq!(b.status, 200, "{path}");
        if surface == "tokens.resolver.json" {
            // Every mode: the same set, then the theme's contexts.
            let (a, b) = (a.json(), b.json());
            assert_eq!(a["sets"], b["sets"], "the default permutation is the set");
            assert_eq!(a["resolutionOrder"].as_array().unwrap().len(), 1);
            assert_eq!(
                b["resolutionOrder"],
                serde_json::json!([{"$ref": "#/sets/tokens"}, {"$ref": "#/modifiers/theme"}])
            );
            let theme = &b["modifiers"]["theme"];
            assert_eq!(theme["default"], "light");
            assert_eq!(theme["contexts"]["light"], serde_json::json!([]));
            let dark = &theme["contexts"]["dark"][0];
            assert_eq!(
                dark["color"]["lichen"]["500"]["$value"]["hex"], "#99cca6",
                "only what differs in dark: {dark}"
            );
            assert_eq!(dark.as_object().unwrap().len(), 1, "{dark}");
            assert_eq!(dark["color"].as_object().unwrap().len(), 1, "{dark}");
            continue;
        }
        let (a, b) = (
            a.text().replace(&plain.public_url, ""),
            b.text().replace(&resolved.public_url, ""),
        );
        match surface {
            // The default on :root, then the theme's contexts.
            "tokens.css" => {
                let (root, modes) = b.split_once("/* Modes:").unwrap();
                assert_eq!(root.replace("  color-scheme: light;\n", ""), a);
                assert!(
                    modes.contains("[data-theme=\"dark\"] {\n  color-scheme: dark;\n  --color-lichen-500: #99cca6;\n"),
                    "{modes}"
                );
            }
            // The varying token in the theme's collection, a mode per context.
            "tokens.figma.json" => {
                let b: serde_json::Value = serde_json::from_str(&b).unwrap();
                assert_eq!(
                    b["variableCollections"][1]["name"],
                    "Northwind Outfitters · theme"
                );
                assert_eq!(b["variableModes"][1]["name"], "dark");
                let a: serde_json::Value = serde_json::from_str(&a).unwrap();
                assert_eq!(
                    a["variables"].as_array().unwrap().len(),
                    b["variables"].as_array().unwrap().len()
                );
            }
            // The same, and the modes.
            "spec.json" => {
                let mut b: serde_json::Value = serde_json::from_str(&b).unwrap();
                let dark = &b["modes"][0]["contexts"][1]["tokens"]["color.lichen.500"];
                assert_eq!(dark["$value"]["hex"], "#99cca6");
                b.as_object_mut().unwrap().remove("modes");
                // And Android's dark resources, linked.
                let night = b["links"]
                    .as_object_mut()
                    .unwrap()
                    .remove("androidValuesNight");
                assert!(night.is_some_and(|u| u
                    .as_str()
                    .unwrap()
                    .ends_with("/android/values-night/tokens.xml")));
                let a: serde_json::Value = serde_json::from_str(&a).unwrap();
                assert!(
                    a == b,
                    "{path}: the default permutation is the tokens.json it was split from"
                );
            }
            "spec.md" => {
                let (before, modes) = b.split_once("## Modes\n").unwrap();
                let after = &modes[modes.find("\n## ").unwrap() + 1..];
                let row = "| `color.lichen.500` | oklch(0.62 0.11 150), sRGB #519962 | #99cca6 |";
                assert!(modes.contains(row), "{modes}");
                // The links name Android's dark resources too.
                let rest =
                    format!("{before}{after}").replacen(", android/values-night/tokens.xml", "", 1);
                assert!(
                    rest == a,
                    "{path}: the default permutation is the tokens.json it was split from"
                );
            }
            // The outputs listed name Android's dark resources too.
            "llms.txt" => {
                let night: Vec<&str> = b
                    .lines()
                    .filter(|l| l.contains("/android/values-night/tokens.xml"))
                    .collect();
                assert_eq!(night.len(), 1, "{b}");
                let rest = b.replacen(&format!("{}\n", night[0]), "", 1);
                assert_eq!(rest, a, "{path}");
            }
            // Colors gain a Modes part with the dark colour, under its key.
            "DESIGN.md" => {
                let (before, modes) = b.split_once("### Modes\n").unwrap();
                let after = &modes[modes.find("\n## ").unwrap() + 1..];
                assert!(
                    modes.contains("`tertiary` #99cca6 (default #519962)"),
                    "{modes}"
                );
                assert_eq!(format!("{before}{after}"), a, "{path}");
            }
            // The same default tokens; the modes hold the dark colour.
            "tokens.js" | "tokens.d.ts" => {
                let split = |text: &str| {
                    let at = text
                        .find("export const modes")
                        .or(text.find("export type Modes"))
                        .unwrap();
                    (text[..at].to_string(), text[at..].to_string())
                };
                let ((a_tokens, a_modes), (b_tokens, b_modes)) = (split(&a), split(&b));
                assert_eq!(a_tokens, b_tokens, "{path}");
                assert!(!a_modes.contains("\"dark\""), "{a_modes}");
                assert!(
                    b_modes.contains("\"dark\"") && b_modes.contains("#99cca6"),
                    "{b_modes}"
                );
            }
            // The same theme, then the variant and the context's rule.
            "tailwind.css" => {
                let theme = |css: &str| {
                    let at = css.find("@theme {").unwrap();
                    css[at..at + css[at..].find("\n}\n").unwrap()].to_string()
                };
                assert_eq!(theme(&a), theme(&b), "{path}");
                assert!(!a.contains("@custom-variant"), "{a}");
                assert!(
                    b.contains("@custom-variant theme-dark (&:where([data-theme=\"dark\"], [data-theme=\"dark\"] *));")
                        && b.contains("[data-theme=\"dark\"] {\n  color-scheme: dark;\n  --color-lichen-500: #99cca6;\n}"),
                    "{b}"
                );
            }
            _ => assert!(
                a == b,
                "{path}: the default permutation is the tokens.json it was split from"
            ),
        }
    }
    // What Figma leaves out is reported at the token, in the file it is written in.
    let status = resolved.get("/status").json();
    let northwind = status["brands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["slug"] == "northwind")
        .unwrap();
    let warnings = northwind["diagnostics"].as_array().unwrap();
    assert!(!warnings.is_empty());
    for w in warnings {
        assert_eq!(w["file"], "northwind/tokens/base.json", "{w}");
        assert!(w["line"].as_u64().unwrap() > 1, "{w}");
    }
}

#[test]
fn an_error_in_a_context_names_it_and_points_into_its_file() {
    let bad = DARK.replace("\"hex\": \"#99cca6\"", "\"hex\": \"#nothex\"");
    let errors = errors(&northwind_files(&bad, |_| {}));
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = &errors[0];
    assert_eq!(e.code, Code::InvalidColor, "{e:?}");
    assert_eq!(e.file, "northwind/tokens/dark.json");
    assert_eq!((e.line, e.column), (5, 83), "{e:?}");
    assert!(
        e.message
            .ends_with("(in context `dark` of modifier `theme`)"),
        "{}",
        e.message
    );
}

#[test]
fn a_reference_to_a_token_of_another_context_says_which() {
    let dark = DARK.replace("\"500\"", "\"night\"");
    let errors = errors(&northwind_files(&dark, |base| {
        let at = base.find("\"typography\"").unwrap();
        base.insert_str(
            at,
            "\"alias\": { \"$type\": \"color\", \"$value\": \"{color.lichen.night}\" },\n  ",
        );
    }));
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = &errors[0];
    assert_eq!(e.file, "northwind/tokens/base.json");
    assert_eq!(e.code, Code::DanglingReference);
    assert_eq!(e.target.as_deref(), Some("color.lichen.night"));
    assert!(
        e.message
            .contains("defined only in context `dark` of modifier `theme`"),
        "{}",
        e.message
    );
}

#[test]
fn a_resolver_is_held_to_its_folder_and_to_one_token_file() {
    let outside = RESOLVER.replace("tokens/dark.json", "../lumen-health/tokens.json");
    let mut files = northwind_files(DARK, |_| {});
    let texts: Vec<(String, Vec<u8>)> = files
        .files()
        .iter()
        .map(|(p, b)| {
            let bytes = match p.as_str() {
                "tokens.resolver.json" => outside.as_bytes().to_vec(),
                _ => b.to_vec(),
            };
            (p.clone(), bytes)
        })
        .collect();
    files = BrandFiles::from_texts(
        "northwind",
        texts.iter().map(|(p, b)| (p.as_str(), b.as_slice())),
    );
    let found = errors(&files);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].file, "northwind/tokens.resolver.json");
    assert_eq!(found[0].line, 10, "{:?}", found[0]);
    assert_eq!(found[0].code, Code::UnknownResolverReference, "{found:#?}");

    let both: Vec<(&str, &[u8])> = texts
        .iter()
        .map(|(p, b)| (p.as_str(), b.as_slice()))
        .chain([("tokens.json", &b"{}"[..])])
        .collect();
    let found = errors(&BrandFiles::from_texts("northwind", both));
    assert!(
        found.iter().any(|e| e.code == Code::TwoTokenFiles),
        "{found:#?}"
    );
}

#[test]
fn an_edit_to_a_file_the_resolver_names_is_served() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    resolver_content(&root, DARK);
    let app = spawn_with(serve_config(&root));
    let spec = app.get("/brand/northwind/spec.json").text();
    assert!(spec.contains("Deepest blue, for text"), "{spec}");
    crate::reload::edit(
        &root.join("northwind/tokens/base.json"),
        "Deepest blue, for text",
        "Deepest blue, edited, for text",
    );
    app.wait_until(
        |a| {
            a.get("/brand/northwind/spec.json")
                .text()
                .contains("Deepest blue, edited")
        },
        "the edited token file is served",
    );
}

/// A set that lists one file thousands of times merges it once: merging
/// it again changes nothing.
#[test]
fn a_set_that_lists_a_file_thousands_of_times_merges_it_once() {
    let sources = vec![r#"{ "$ref": "tokens/base.json" }"#; 5000].join(", ");
    let repeated = format!(
        r##"{{ "version": "2025.10", "sets": {{ "base": {{ "sources": [{sources}] }} }}, "resolutionOrder": [{{ "$ref": "#/sets/base" }}] }}"##
    );
    let files = with_resolver(northwind_files(DARK, |_| {}), &repeated);
    assert_eq!(errors(&files), Vec::<Diagnostic>::new());
}

/// A resolver whose steps merge one file thousands of times is refused,
/// quickly, at the resolver: every permutation's merge is bounded.
#[test]
fn a_resolver_that_merges_a_file_thousands_of_times_is_refused() {
    let steps = vec![r##"{ "$ref": "#/sets/base" }"##; 5000].join(", ");
    let bomb = format!(
        r##"{{ "version": "2025.10", "sets": {{ "base": {{ "sources": [{{ "$ref": "tokens/base.json" }}] }} }}, "resolutionOrder": [{steps}] }}"##
    );
    // 2,000 more tokens in the file: past the merge's budget (room for
    // 100,000 tokens) within a few hundred of the 5,000 steps.
    let bulk: Vec<String> = (0..2000)
        .map(|i| format!(r##""t{i}": {{"$type": "color", "$value": "#123456"}}"##))
        .collect();
    let bulk = format!("{{\"bulk\": {{{}}},", bulk.join(", "));
    let files = with_resolver(
        northwind_files(DARK, |base| *base = base.replacen('{', &bulk, 1)),
        &bomb,
    );
    let found = errors(&files);
    assert!(
        found
            .iter()
            .any(|e| e.file == "northwind/tokens.resolver.json" && e.code == Code::TooManyValues),
        "{found:#?}"
    );
}

/// A colour pair that passes in the default and fails in a context that
/// changes one of its colours is an error that names the context.
#[test]
fn a_pair_that_fails_only_in_dark_names_the_context() {
    let dark = DARK
        .replace("\"lichen\"", "\"fjord\"")
        .replace("\"500\"", "\"900\"")
        .replace(
            "[0.6, 0.8, 0.651], \"hex\": \"#99cca6\"",
            "[0.902, 0.929, 0.961], \"hex\": \"#e6edf5\"",
        );
    let errors = errors(&northwind_files(&dark, |_| {}));
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    assert!(
        messages.contains(&"contrast of {color.text.primary} on {color.surface.page} is 1.18:1 in theme=dark, below the AAA minimum of 7:1"),
        "{messages:#?}"
    );
    assert!(
        errors.iter().all(|e| e.file == "northwind/brand.json"
            && e.code == Code::ContrastTooLow
            && e.message.contains("in theme=dark")),
        "{errors:#?}"
    );
}

/// The semantic diff covers every context: a token changed only in dark
/// is a patch named by its context; a context removed is major, one added
/// is minor.
#[test]
fn the_diff_covers_every_context() {
    use marque::spec::diff::{diff, Kind, Level};
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    let brand = |files: &BrandFiles| parse_brand(files, today).0.expect("valid");
    let first = |d: &marque::spec::diff::Diff, kind: Kind| {
        let c = d
            .changes
            .iter()
            .find(|c| c.kind == kind)
            .expect("a change of that kind");
        format!("{} ({})", c.name, c.level)
    };
    let old = brand(&northwind_files(DARK, |_| {}));
    let changed = brand(&northwind_files(
        &DARK
            .replace("#99cca6", "#99cca7")
            .replace("0.651]", "0.655]"),
        |_| {},
    ));
    let d = diff(&old, &changed);
    assert_eq!(
        first(&d, Kind::Token),
        "color.lichen.500 in theme=dark (patch)",
        "{d:#?}"
    );
    assert_eq!(d.level(), Some(Level::Patch), "{d:#?}");
    let light_only = RESOLVER.replace(
        ",\n        \"dark\": [{ \"$ref\": \"tokens/dark.json\" }]",
        "",
    );
    assert_ne!(light_only, RESOLVER);
    let removed = brand(&with_resolver(northwind_files(DARK, |_| {}), &light_only));
    let d = diff(&old, &removed);
    assert_eq!(first(&d, Kind::Context), "theme=dark (major)", "{d:#?}");
    let d = diff(&removed, &old);
    assert_eq!(first(&d, Kind::Context), "theme=dark (minor)", "{d:#?}");
}

/// Mode names become HTML attributes: a name with no safe kebab-case form,
/// or two names with one, are errors at the resolver; a modifier without
/// `default` takes its first context, with a warning.
#[test]
fn mode_names_must_be_safe_attributes_and_a_missing_default_is_the_first() {
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    let resolver = RESOLVER
        .replace(
            "\"light\": [],",
            "\"日本\": [], \"light_ax\": [], \"lightAx\": [], \"light\": [],",
        )
        .replace(",\n      \"default\": \"light\"", "");
    let (brand, diags) = parse_brand(
        &with_resolver(northwind_files(DARK, |_| {}), &resolver),
        today,
    );
    assert!(brand.is_none());
    let at = |needle: &str| {
        diags
            .iter()
            .find(|d| d.message.contains(needle))
            .unwrap_or_else(|| panic!("{needle}: {diags:#?}"))
    };
    let unsafe_name = at("context `日本` has no name that is safe as an HTML attribute");
    assert_eq!(
        (unsafe_name.code, unsafe_name.file.as_str()),
        (Code::InvalidModeName, "northwind/tokens.resolver.json")
    );
    assert_eq!(
        at("contexts `light_ax` and `lightAx` are both `light-ax`").code,
        Code::InvalidModeName
    );
    let default = at("has no `default`; its first context, `日本`, is the default");
    assert_eq!(default.code, Code::NoDefaultContext);
    assert_eq!(default.severity(), Severity::Warning);
}

/// Figma takes at most 40 modes in a collection: a modifier with more
/// contexts gets the first 40 (the default among them) and a warning.
#[test]
fn figma_gets_at_most_forty_modes_per_modifier() {
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    let many: String = (0..44).map(|i| format!("\"c{i}\": [], ")).collect();
    let resolver = RESOLVER.replace("\"light\": [],", &format!("{many}\"light\": [],"));
    let (brand, diags) = parse_brand(
        &with_resolver(northwind_files(DARK, |_| {}), &resolver),
        today,
    );
    let brand = brand.unwrap_or_else(|| panic!("{diags:#?}"));
    let out = marque::render::figma::render(&brand, &marque::render::Context::new("http://x"));
    let body: serde_json::Value = serde_json::from_str(&out.body).unwrap();
    let modes = body["variableModes"].as_array().unwrap();
    assert_eq!(modes.len(), 40, "the renamed default and 39 more");
    assert!(
        modes.iter().any(|m| m["name"] == "light"),
        "the default is kept"
    );
    assert!(
        out.skipped
            .iter()
            .any(|(m, _)| m.contains("46 contexts, over Figma's 40 modes per collection")),
        "{:?}",
        out.skipped
    );
    crate::surfaces::assert_figma_accepts(&out.body);
}

/// Every alias in tokens.figma.json names a variable the body holds. A
/// context's value is resolved in that context: an alias to a token only
/// the context writes is that token's colour (primer-figma's dark
/// `control.fgColor.rest` is `{fgColor.default}`, which light has not). A
/// token with a value Figma cannot hold in one mode is left out, with a
/// warning, and an alias to it elsewhere holds its value instead. A
/// shadow's layers are resolved in each context too.
#[test]
fn figma_aliases_only_name_variables_in_the_body() {
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
    let lift = |blur: u8| {
        format!(
            r##"{{ "color": "#000000", "offsetX": {{ "value": 0, "unit": "px" }}, "offsetY": {{ "value": 1, "unit": "px" }}, "blur": {{ "value": {blur}, "unit": "px" }}, "spread": {{ "value": 0, "unit": "px" }} }}"##
        )
    };
    let dark = r##"{
      "probe": {
        "only-dark": { "$type": "color", "$value": { "colorSpace": "srgb", "components": [1, 0, 0], "hex": "#ff0000" } },
        "tint": { "$type": "color", "$value": "{probe.only-dark}" },
        "size": { "$type": "dimension", "$value": { "value": 2, "unit": "em" } },
        "dark-lift": { "$type": "shadow", "$value": LIFT_9 },
        "lift": { "$type": "shadow", "$value": "{probe.dark-lift}" }
      }
    }"##
    .replace("LIFT_9", &lift(9));
    let probe = r##"{"probe": {
      "tint": { "$type": "color", "$value": "{color.lichen.500}" },
      "follows": { "$type": "color", "$value": "{probe.tint}" },
      "size": { "$type": "dimension", "$value": { "value": 4, "unit": "px" } },
      "gap": { "$type": "dimension", "$value": "{probe.size}" },
      "lift": { "$type": "shadow", "$value": LIFT_2 }
    },"##
        .replace("LIFT_2", &lift(2));
    let files = northwind_files(&dark, |base| *base = base.replacen('{', &probe, 1));
    let (brand, diags) = parse_brand(&files, today);
    let brand = brand.unwrap_or_else(|| panic!("{diags:#?}"));
    let out = marque::render::figma::render(&brand, &marque::render::Context::new("http://x"));
    crate::surfaces::assert_figma_accepts(&out.body);
    let body: serde_json::Value = serde_json::from_str(&out.body).unwrap();
    let values = |id: &str| -> Vec<serde_json::Value> {
        body["variableModeValues"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|mv| mv["variableId"] == id)
            .map(|mv| mv["value"].clone())
            .collect()
    };
    let tint = values("var:probe.tint");
    assert_eq!(tint.len(), 2, "probe.tint has a light and a dark value");
    assert!(
        tint.iter().any(|v| v["r"] == 1.0 && v["g"] == 0.0),
        "dark resolves probe.only-dark: {tint:?}"
    );
    assert_eq!(values("var:probe.follows")[0]["type"], "VARIABLE_ALIAS");
    assert!(values("var:probe.size").is_empty(), "2em has no pixels");
    let blur = values("var:probe.lift.blur");
    assert!(
        blur.contains(&serde_json::json!(2.0)) && blur.contains(&serde_json::json!(9.0)),
        "dark's shadow is the dark-only one it names: {blur:?}"
    );
    assert_eq!(values("var:probe.gap"), [serde_json::json!(4.0)]);
    let said = |needle: &str| out.skipped.iter().any(|(m, _)| m.contains(needle));
    assert!(
        said("token `probe.size` has no value Figma can hold in mode `dark`"),
        "{:?}",
        out.skipped
    );
    assert!(
        said("variable `probe/gap` refers to `probe.size`, which tokens.figma.json leaves out"),
        "{:?}",
        out.skipped
    );
}
