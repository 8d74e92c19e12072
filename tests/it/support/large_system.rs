//! A generated design system at the size of the largest real ones (issue
//! 59 cites Atlassian's at about 37,000 tokens): a palette, a size scale,
//! semantic colours that alias the palette, component tokens that alias
//! the semantic layer (a chain of two), typography and shadow composites,
//! and a `theme` modifier of four contexts (light, dark and their high
//! contrast variants), each re-pointing an eighth of the semantic colours.
//! The corpus bench (benches/corpus.rs, which includes this file) reads,
//! checks and renders it.

use serde_json::{json, Map, Value};
use std::path::Path;

/// Tokens in each generated file (files stay far under the per-file limits).
const PER_FILE: usize = 2_000;

fn write(path: &Path, v: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, serde_json::to_string(v).unwrap()).unwrap();
}

/// A colour of hue `h`, step `s`, as DTCG 2025.10 writes one.
fn colour(h: usize, s: usize) -> Value {
    let (r, g, b) = ((h * 37) % 256, (s * 5) % 256, ((h * 11 + s * 3) * 7) % 256);
    let c = |v: usize| (v as f64 / 255.0 * 1e4).round() / 1e4;
    json!({"colorSpace": "srgb", "components": [c(r), c(g), c(b)], "hex": format!("#{r:02x}{g:02x}{b:02x}")})
}

/// One group per file: `group.<file>.<i>` tokens made by `make(i)`.
fn files(
    dir: &Path,
    sources: &mut Vec<String>,
    group: &str,
    n: usize,
    make: impl Fn(usize) -> Value,
) {
    let mut i = 0;
    let mut file = 0;
    while i < n {
        let mut tokens = Map::new();
        let end = (i + PER_FILE).min(n);
        for k in i..end {
            tokens.insert(format!("t{k}"), make(k));
        }
        let name = format!("big/{group}/{file}.tokens.json");
        let part = Map::from_iter([(format!("f{file}"), Value::Object(tokens))]);
        write(&dir.join(&name), &json!({ group: part }));
        sources.push(name);
        i = end;
        file += 1;
    }
}

/// The name the semantic colour `k` has (its file is `k / PER_FILE`).
fn semantic(k: usize) -> String {
    format!("semantic.f{}.t{k}", k / PER_FILE)
}

/// Writes the brand folder `dir` (brand.json, tokens.resolver.json and the
/// files under big/) of exactly `n` tokens in the default context; returns
/// how many contexts its modifier has.
pub fn large_system(dir: &Path, n: usize) -> usize {
    let palette_hues = (n / 10).div_ceil(50);
    let (palette, sizes) = (palette_hues * 50, n / 20);
    let (semantics, typography, shadows) = (n / 2, n / 40, n / 40);
    let components = n - palette - sizes - semantics - typography - shadows;
    let mut sources = Vec::new();
    files(
        dir,
        &mut sources,
        "palette",
        palette,
        |k| json!({"$type": "color", "$value": colour(k / 50, k % 50)}),
    );
    files(
        dir,
        &mut sources,
        "size",
        sizes,
        |k| json!({"$type": "dimension", "$value": {"value": (k % 400) as f64 / 2.0, "unit": "px"}}),
    );
    let palette_ref = |k: usize| format!("{{palette.f{}.t{k}}}", k / PER_FILE);
    let size_ref = |k: usize| format!("{{size.f{}.t{k}}}", k / PER_FILE);
    files(
        dir,
        &mut sources,
        "semantic",
        semantics,
        |k| json!({"$type": "color", "$value": palette_ref(k % palette)}),
    );
    files(dir, &mut sources, "typography", typography, |k| {
        json!({"$type": "typography", "$value": {
            "fontFamily": ["Inter", "sans-serif"],
            "fontSize": size_ref(k % sizes),
            "fontWeight": 400 + (k % 4) * 100,
            "lineHeight": 1.5,
            "letterSpacing": {"value": 0, "unit": "px"}
        }})
    });
    files(dir, &mut sources, "shadow", shadows, |k| {
        json!({"$type": "shadow", "$value": {
            "color": format!("{{{}}}", semantic(k % semantics)),
            "offsetX": {"value": 0, "unit": "px"},
            "offsetY": {"value": (k % 8) as f64, "unit": "px"},
            "blur": {"value": (k % 16) as f64, "unit": "px"},
            "spread": {"value": 0, "unit": "px"}
        }})
    });
    files(dir, &mut sources, "component", components, |k| {
        if k % 4 == 3 {
            json!({"$type": "dimension", "$value": size_ref(k % sizes)})
        } else {
            json!({"$type": "color", "$value": format!("{{{}}}", semantic(k % semantics))})
        }
    });
    // Each context other than light re-points every eighth semantic colour.
    let mut contexts = Map::new();
    for (c, name) in ["light", "dark", "light-hc", "dark-hc"]
        .into_iter()
        .enumerate()
    {
        let mut groups: Map<String, Value> = Map::new();
        if c > 0 {
            for k in (0..semantics).step_by(8) {
                let file = groups
                    .entry(format!("f{}", k / PER_FILE))
                    .or_insert_with(|| json!({}));
                file[format!("t{k}")] =
                    json!({"$type": "color", "$value": palette_ref((k * 7 + c * 13) % palette)});
            }
        }
        let path = format!("big/theme/{name}.tokens.json");
        write(&dir.join(&path), &json!({"semantic": groups}));
        contexts.insert(name.into(), json!([{"$ref": format!("./{path}")}]));
    }
    let sources: Vec<Value> = sources
        .iter()
        .map(|s| json!({"$ref": format!("./{s}")}))
        .collect();
    write(
        &dir.join("tokens.resolver.json"),
        &json!({
            "name": "Large system",
            "version": "2025.10",
            "resolutionOrder": [{"$ref": "#/sets/base"}, {"$ref": "#/modifiers/theme"}],
            "sets": {"base": {"sources": sources}},
            "modifiers": {"theme": {"contexts": contexts, "default": "light"}}
        }),
    );
    std::fs::write(
        dir.join("brand.json"),
        format!("{{\"name\": \"Large system\", \"summary\": \"{n} generated tokens.\", \"version\": \"0.1.0\", \"updated\": \"2026-11-20\"}}\n"),
    )
    .unwrap();
    contexts.len()
}
