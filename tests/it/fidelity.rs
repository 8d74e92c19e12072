//! Values as the corpus systems mean them, on every surface, with the real
//! tokens that once showed each defect (issue 41): GitHub Primer's colour
//! aliases with an `alpha` beside them, Primer's `{references}` inside a
//! string, and Microsoft Fluent's font stack written as one string.
//! `marque build` writes the surfaces once; each test reads its own.

use crate::corpus::{corpus, Reference};
use crate::helpers::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Primer and Fluent as brand folders (Primer with a contrast pair whose
/// foreground is translucent), built into static files once.
fn site() -> Option<&'static Path> {
    static SITE: OnceLock<Option<(tempfile::TempDir, PathBuf)>> = OnceLock::new();
    SITE.get_or_init(|| {
        let corpus = corpus()?;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("content");
        for system in ["github-primer", "microsoft-fluent"] {
            let brand = root.join(system);
            std::fs::create_dir_all(&brand).unwrap();
            std::fs::copy(
                corpus.join(format!("{system}.resolver.json")),
                brand.join("tokens.resolver.json"),
            )
            .unwrap();
            copy_dir(&corpus.join(system), &brand.join(system));
            let color = match system {
                "github-primer" => r#", "color": {"pairs": [{"foreground": "{header.fgColor.default}", "background": "{header.bgColor}", "level": "AA"}]}"#,
                _ => "",
            };
            std::fs::write(
                brand.join("brand.json"),
                format!("{{\"name\": \"{system}\", \"summary\": \"Edit 0.\", \"version\": \"0.1.0\", \"updated\": \"2026-11-20\"{color}}}\n"),
            )
            .unwrap();
        }
        let out = dir.path().join("site");
        let status = Command::new(env!("CARGO_BIN_EXE_marque"))
            .args(["build", root.to_str().unwrap(), "--out", out.to_str().unwrap()])
            .stderr(std::process::Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "both systems build");
        Some((dir, out))
    })
    .as_ref()
    .map(|(_, out)| out.as_path())
}

fn surface(slug: &str, file: &str) -> String {
    let path = site().unwrap().join("brand").join(slug).join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn json(slug: &str, file: &str) -> Value {
    serde_json::from_str(&surface(slug, file)).unwrap()
}

/// The resolver document of a corpus system.
fn resolver(system: &str) -> PathBuf {
    corpus().unwrap().join(format!("{system}.resolver.json"))
}

/// `doc` at a dotted token path.
fn at<'v>(doc: &'v Value, dotted: &str) -> &'v Value {
    dotted.split('.').fold(doc, |v, k| &v[k])
}

/// A DTCG colour object's alpha (1 when it has none).
fn alpha(colour: &Value) -> f64 {
    colour["alpha"].as_f64().unwrap_or(1.0)
}

#[test]
fn primer_alpha_on_aliases_in_tokens_css_keeps_the_alias_and_applies_the_alpha() {
    if site().is_none() {
        return;
    }
    let css = surface("github-primer", "tokens.css");
    for line in [
        "  --border-color-translucent: rgb(from var(--base-color-neutral-13) r g b / 0.15);\n",
        "  --border-color-muted: rgb(from var(--border-color-default) r g b / 0.7);\n",
        "  --overlay-border-color: rgb(from var(--border-color-muted) r g b / 0.5);\n",
        // What aliases a translucent colour follows it.
        "  --avatar-border-color: var(--border-color-translucent);\n",
    ] {
        assert!(css.contains(line), "{line}");
    }
    // Without relative colours, the colour painted, per context.
    let fallback = css
        .split("@supports not (color: rgb(from red r g b)) {\n  :root {\n")
        .nth(1)
        .expect("a fallback for browsers without relative colours");
    assert!(
        fallback.contains("    --border-color-translucent: hsl(213.3 12.7% 13.9% / 0.15);\n"),
        "{}",
        &fallback[..400]
    );
    let dark = css
        .split("@supports not (color: rgb(from red r g b)) {\n  [data-theme=\"dark\"] {\n")
        .nth(1)
        .expect("the dark context's fallback");
    assert!(
        dark[..dark.find('}').unwrap()]
            .contains("--border-color-translucent: hsl(0 0% 100% / 0.15);"),
        "{}",
        &dark[..300]
    );
}

#[test]
fn primer_alpha_on_aliases_in_tailwind_and_design_md_is_the_resolved_colour_with_it() {
    if site().is_none() {
        return;
    }
    let tailwind = surface("github-primer", "tailwind.css");
    assert!(
        tailwind.contains("  --color-avatar-border: hsl(213.3 12.7% 13.9% / 0.15);\n"),
        "tailwind.css bakes the colour with its alpha"
    );
    assert!(tailwind.contains("  --color-selection-bg: hsl(212.4 92.1% 44.5% / 0.2);\n"));
    // DESIGN.md lists the colours of the brand's pairs: white at alpha 0.7
    // (0xb3 = 179 of 255).
    let design = surface("github-primer", "DESIGN.md");
    assert!(
        design.contains("  \"header-fg-default\": \"#ffffffb3\"\n"),
        "DESIGN.md"
    );
}

#[test]
fn primer_alpha_on_aliases_in_figma_is_a_colour_per_mode() {
    if site().is_none() {
        return;
    }
    let text = surface("github-primer", "tokens.figma.json");
    crate::surfaces::assert_figma_accepts(&text);
    let body: Value = serde_json::from_str(&text).unwrap();
    let var = body["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "borderColor/translucent")
        .unwrap();
    assert_eq!(
        var["variableCollectionId"],
        "collection:github-primer:theme"
    );
    let values: Vec<&Value> = body["variableModeValues"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|mv| mv["variableId"] == var["id"])
        .map(|mv| &mv["value"])
        .collect();
    assert!(values.len() > 2, "a value per mode of the theme");
    for v in values {
        assert_eq!(v["a"], 0.15, "a literal at alpha 0.15, not an alias: {v}");
    }
}

#[test]
fn primer_alpha_on_aliases_in_the_strict_exports_is_the_painted_colour_per_context() {
    if site().is_none() {
        return;
    }
    let tokens = json("github-primer", "tokens.json");
    let translucent = at(&tokens, "borderColor.translucent");
    assert_eq!(alpha(&translucent["$value"]), 0.15);
    assert_eq!(translucent["$value"]["hex"], "#1f2328");
    assert_eq!(
        translucent["$extensions"]["com.marque"]["aliasWithAlpha"],
        serde_json::json!({"alias": "{base.color.neutral.13}", "alpha": 0.15})
    );
    assert_eq!(
        at(&tokens, "avatar.borderColor")["$value"],
        "{borderColor.translucent}",
        "what aliases it stays an alias"
    );
    let resolver = json("github-primer", "tokens.resolver.json");
    let dark = &resolver["modifiers"]["theme"]["contexts"]["dark"][0];
    let painted = &at(dark, "borderColor.translucent")["$value"];
    assert_eq!(
        (painted["hex"].as_str(), alpha(painted)),
        (Some("#ffffff"), 0.15)
    );
}

#[test]
fn primer_alpha_on_aliases_in_spec_json_and_contrast_is_composited() {
    if site().is_none() {
        return;
    }
    let spec = json("github-primer", "spec.json");
    let translucent = at(&spec["tokens"], "borderColor.translucent");
    assert_eq!(alpha(&translucent["$value"]), 0.15);
    let theme = spec["modes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "theme")
        .unwrap();
    let dark = theme["contexts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "dark")
        .unwrap();
    let there = &dark["tokens"]["borderColor.translucent"]["$value"];
    assert_eq!(
        (there["hex"].as_str(), alpha(there)),
        (Some("#ffffff"), 0.15)
    );
    // The pair's foreground is white at alpha 0.7: its contrast is that of
    // the colour painted over the background, as an independent reader
    // of the resolver gives both.
    let reference = Reference::of(&resolver("github-primer"), &[]);
    let (fg, bg) = (
        reference.colors["header.fgColor.default"],
        reference.colors["header.bgColor"],
    );
    assert!((fg[3] - 0.7).abs() < 1e-9, "{fg:?}");
    let painted: Vec<f64> = (0..3)
        .map(|i| fg[i] * fg[3] + bg[i] * (1.0 - fg[3]))
        .collect();
    let want = contrast(&painted, &bg[..3]);
    let got = spec["color"]["pairs"][0]["contrast"].as_f64().unwrap();
    assert!(
        (got - want).abs() < 0.02,
        "spec.json says {got}; painted over its background it is {want:.2} (opaque, {:.2})",
        contrast(&fg[..3], &bg[..3])
    );
}

/// WCAG 2's contrast ratio of two sRGB colours, channels 0 to 255.
fn contrast(a: &[f64], b: &[f64]) -> f64 {
    let lum = |c: &[f64]| {
        let lin = |x: f64| {
            let x = x / 255.0;
            match x <= 0.04045 {
                true => x / 12.92,
                false => ((x + 0.055) / 1.055).powf(2.4),
            }
        };
        0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])
    };
    let (x, y) = (lum(a), lum(b));
    (x.max(y) + 0.05) / (x.min(y) + 0.05)
}

#[test]
fn primer_references_inside_a_string_are_resolved_on_every_surface() {
    if site().is_none() {
        return;
    }
    let css = surface("github-primer", "tokens.css");
    assert!(
        css.contains("  --box-shadow-thin: inset 0 0 0 var(--border-width-thin);\n"),
        "a usable box-shadow that follows modes"
    );
    assert!(!css.contains("{borderWidth.thin}"));
    let figma: Value = json("github-primer", "tokens.figma.json");
    let id = figma["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["name"] == "boxShadow/thin")
        .unwrap()["id"]
        .clone();
    let value = figma["variableModeValues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|mv| mv["variableId"] == id)
        .unwrap();
    assert_eq!(value["value"], "inset 0 0 0 1px");
    let md = surface("github-primer", "spec.md");
    assert!(md.contains("- `boxShadow.thin`: inset 0 0 0 1px, in CSS `--box-shadow-thin`."));
}

#[test]
fn fluent_font_stack_written_as_one_string_is_a_list_of_families() {
    if site().is_none() {
        return;
    }
    let stack = "\"Segoe UI\", \"Segoe UI Web (West European)\", \"Segoe UI\", -apple-system, BlinkMacSystemFont, Roboto, \"Helvetica Neue\", sans-serif";
    let css = surface("microsoft-fluent", "tokens.css");
    assert!(
        css.contains(&format!("  --fonts-tiny-font-family: {stack};\n")),
        "each family alone, the generic last"
    );
    let tailwind = surface("microsoft-fluent", "tailwind.css");
    assert!(!tailwind.contains("\"'Segoe UI'"), "tailwind.css");
    let spec = json("microsoft-fluent", "spec.json");
    let family = &spec["tokens"]["fonts"]["tiny"]["$value"]["fontFamily"];
    assert_eq!(family.as_array().map(Vec::len), Some(8), "{family}");
    assert_eq!(family[7], "sans-serif");
    let design = surface("microsoft-fluent", "DESIGN.md");
    assert!(
        !design.contains("'Segoe UI', "),
        "DESIGN.md names one family"
    );
    let figma = surface("microsoft-fluent", "tokens.figma.json");
    assert!(
        !figma.contains("'Segoe UI'"),
        "Figma's STRING is the first family"
    );
}
