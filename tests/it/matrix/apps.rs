//! The matrix's columns for Android and iOS: `android.zip` through
//! `aapt2 compile` and `aapt2 link`, its colours in `values/` and in the
//! colour scheme's other folder; `ios.zip` against Apple's documented
//! `Contents.json` form.

use super::{first_line, run, unzip, Cell, System};
use crate::spec_tokens::{argb, colours_of};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Android 10's framework resources from Debian's `android-framework-res`:
/// the resource table of an `android.jar`, which `aapt2 link` needs.
pub(super) const FRAMEWORK_RES: &str = "/usr/share/android-framework-res/framework-res.apk";

/// The colours of one `tokens.xml` of the zip, by resource name.
fn colours_in(work: &Path, folder: &str) -> Result<BTreeMap<String, String>, String> {
    std::fs::read_to_string(work.join("res").join(folder).join("tokens.xml"))
        .map(|xml| colours_of(&xml))
        .map_err(|e| format!("{folder}/tokens.xml: {e}"))
}

/// Every colour as an app sees it in one configuration (`over` the
/// entries of its qualified folder, else `values/`) is the resolver's in
/// that context. The first token of a name has it, as MQ2304 says.
fn same_colours(
    system: &System,
    here: &BTreeMap<String, Value>,
    values: &BTreeMap<String, String>,
    over: &BTreeMap<String, String>,
    folder: &str,
) -> Cell {
    let mut seen = BTreeSet::new();
    for (path, value) in system.colours(here) {
        let name = marque::render::apps::android::name(path);
        if !seen.insert(name.clone()) {
            continue;
        }
        let want = argb(value);
        match over.get(&name).or_else(|| values.get(&name)) {
            Some(got) if *got == want => {}
            Some(got) => {
                return Err(format!(
                    "{folder}: colour {name} is {got}, the resolver's {want} ({})",
                    path.join(".")
                ))
            }
            None => {
                return Err(format!(
                    "{folder}: colour {name} ({}) is missing",
                    path.join(".")
                ))
            }
        }
    }
    Ok(())
}

/// The colour scheme's other context, if the brand has one: the folder
/// Android reads it from and its tokens (`values-night` for a dark
/// context, `values-notnight` for a light one where dark is the default).
fn other_scheme(system: &System) -> Option<(&'static str, BTreeMap<String, Value>)> {
    let contexts = system.contexts();
    let scheme: Vec<_> = contexts.iter().filter(|c| c.color_scheme).collect();
    // By the context's identifier (`Dark` is `dark`), as Android's rule is.
    let has = |ident: &str| scheme.iter().find(|c| c.value == ident);
    let dark_default = scheme.iter().any(|c| c.is_default && c.value == "dark");
    match dark_default {
        true => has("light").map(|c| ("values-notnight", c.tokens.clone())),
        false => has("dark").map(|c| ("values-night", c.tokens.clone())),
    }
}

pub(super) fn android(system: &System, work: &Path, aapt2: bool, link: bool) -> Cell {
    unzip(&system.brand.join("android.zip"), work)?;
    // The loose resources (android/<folder>/tokens.xml) are the zip's.
    for folder in ["values", "values-night", "values-notnight"] {
        let loose = std::fs::read(system.brand.join(format!("android/{folder}/tokens.xml"))).ok();
        let zipped = std::fs::read(work.join(format!("res/{folder}/tokens.xml"))).ok();
        if loose != zipped {
            return Err(format!("android/{folder}/tokens.xml is not the zip's"));
        }
    }
    let values = colours_in(work, "values")?;
    same_colours(
        system,
        &BTreeMap::new(),
        &values,
        &BTreeMap::new(),
        "values",
    )?;
    match other_scheme(system) {
        Some((folder, tokens)) => {
            let over = colours_in(work, folder)?;
            same_colours(system, &tokens, &values, &over, folder)?;
        }
        None => {
            for folder in ["values-night", "values-notnight"] {
                if work.join("res").join(folder).exists() {
                    return Err(format!("{folder}/ for a brand with no colour scheme"));
                }
            }
        }
    }
    if !aapt2 {
        return Ok(());
    }
    let res = work.join("res");
    let (ok, out) = run(
        work,
        "aapt2",
        &["compile", "--dir", res.to_str().unwrap(), "-o", "res.zip"],
    );
    if !ok {
        return Err(format!("aapt2 compile: {}", first_line(&out)));
    }
    if !link {
        return Ok(());
    }
    // A minimal app: a manifest and the brand's resources, linked against
    // the platform's own (every `@android:` reference, every attribute).
    std::fs::write(
        work.join("AndroidManifest.xml"),
        "<manifest xmlns:android=\"http://schemas.android.com/apk/res/android\" package=\"dev.marque.matrix\"/>\n",
    )
    .unwrap();
    let (ok, out) = run(
        work,
        "aapt2",
        &[
            "link",
            "-I",
            FRAMEWORK_RES,
            "--manifest",
            "AndroidManifest.xml",
            "-o",
            "app.apk",
            "res.zip",
        ],
    );
    ok.then_some(())
        .ok_or_else(|| format!("aapt2 link: {}", first_line(&out)))
}
/// One Contents.json against Apple's documented form.
fn apple_form(file: &str, doc: &Value) -> Cell {
    if doc["info"] != serde_json::json!({"author": "xcode", "version": 1}) {
        return Err(format!("{file}: info {}", doc["info"]));
    }
    if !file.contains(".colorset/") {
        return Ok(());
    }
    let colors = doc["colors"]
        .as_array()
        .filter(|c| !c.is_empty())
        .ok_or(format!("{file}: no colors"))?;
    let mut seen = Vec::new();
    for entry in colors {
        if entry["idiom"] != "universal" {
            return Err(format!("{file}: idiom {}", entry["idiom"]));
        }
        let space = entry["color"]["color-space"].as_str().unwrap_or("");
        if ![
            "srgb",
            "display-p3",
            "extended-srgb",
            "extended-linear-srgb",
        ]
        .contains(&space)
        {
            return Err(format!("{file}: color-space {space:?}"));
        }
        for k in ["red", "green", "blue", "alpha"] {
            let v = &entry["color"]["components"][k];
            let x = v
                .as_str()
                .and_then(|s| s.parse::<f64>().ok())
                .or(v.as_f64());
            if !x.is_some_and(|x| (0.0..=1.0).contains(&x)) {
                return Err(format!("{file}: component {k} {v}"));
            }
        }
        let appearances = entry["appearances"].as_array().cloned().unwrap_or_default();
        for a in &appearances {
            let ok = matches!(
                (a["appearance"].as_str(), a["value"].as_str()),
                (Some("luminosity"), Some("light" | "dark")) | (Some("contrast"), Some("high"))
            );
            if !ok {
                return Err(format!("{file}: appearance {a}"));
            }
        }
        // Two entries for one appearance: Xcode keeps one, silently.
        let key = serde_json::to_string(&appearances).unwrap();
        if seen.contains(&key) {
            return Err(format!("{file}: appearance {key} twice"));
        }
        seen.push(key);
    }
    Ok(())
}

/// The default colour of a colour set (its entry with no appearance)
/// against spec.json's: sRGB as hex, Display P3 by its components.
fn ios_colour(file: &str, doc: &Value, want: &Value) -> Cell {
    let entry = doc["colors"]
        .as_array()
        .and_then(|c| c.iter().find(|e| e.get("appearances").is_none()))
        .ok_or(format!("{file}: no default colour"))?;
    let part = |k: &str| -> f64 {
        let v = &entry["color"]["components"][k];
        v.as_str()
            .and_then(|s| s.parse().ok())
            .or(v.as_f64())
            .unwrap_or(-1.0)
    };
    let rgb = [part("red"), part("green"), part("blue")];
    let same = match entry["color"]["color-space"].as_str() {
        Some("display-p3") => want["components"].as_array().is_some_and(|c| {
            c.iter()
                .zip(rgb)
                .all(|(w, g)| (w.as_f64().unwrap_or(9.0) - g).abs() < 0.0006)
        }),
        // Three decimals, as Xcode writes them, are within a unit of the
        // hex's byte: within half a unit and the rounding.
        _ => {
            let hex = want["hex"].as_str().unwrap_or("").trim_start_matches('#');
            let byte = |i: usize| {
                hex.get(2 * i..2 * i + 2)
                    .and_then(|b| u8::from_str_radix(b, 16).ok())
                    .map_or(-99.0, f64::from)
            };
            (0..3).all(|i| (rgb[i] * 255.0 - byte(i)).abs() <= 0.5 + 0.0005 * 255.0)
        }
    };
    let alpha = want.get("alpha").and_then(Value::as_f64).unwrap_or(1.0);
    match same && (part("alpha") - alpha).abs() < 0.0006 {
        true => Ok(()),
        false => Err(format!(
            "{file}: {} is not spec.json's {want}",
            entry["color"]
        )),
    }
}

pub(super) fn ios(system: &System, work: &Path) -> Cell {
    unzip(&system.brand.join("ios.zip"), work)?;
    let none = BTreeMap::new();
    let colours: BTreeMap<String, &Value> = system
        .colours(&none)
        .into_iter()
        .map(|(path, value)| (marque::spec::tokens::css::css_name(path), value))
        .collect();
    let mut stack = vec![work.to_path_buf()];
    let mut sets = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let file = p.strip_prefix(work).unwrap().to_string_lossy().into_owned();
            if !file.ends_with("Contents.json") {
                continue;
            }
            let doc: Value = serde_json::from_slice(&std::fs::read(&p).unwrap())
                .map_err(|e| format!("{file}: not JSON: {e}"))?;
            apple_form(&file, &doc)?;
            let set = file
                .rsplit_once(".colorset/")
                .and_then(|(before, _)| before.rsplit('/').next());
            if let Some(set) = set {
                sets += 1;
                let want = colours
                    .get(set)
                    .ok_or(format!("{file}: no colour token is named {set}"))?;
                ios_colour(&file, &doc, want)?;
            }
        }
    }
    if !work.join("README.txt").is_file() {
        return Err("no README.txt".into());
    }
    let _ = sets;
    Ok(())
}
