//! Apps (DESIGN.md §19): Android resources judged by Android's own
//! resource compiler, the iOS asset catalogue against Apple's documented
//! `Contents.json` form, tokens.js in node, tokens.d.ts in `tsc --strict`,
//! and a release's package.tgz installed by npm from the test server.
//! Every value is checked against spec.json.

use crate::helpers::*;
use crate::spec_tokens::{argb, by_name, colour, colours_of};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;
use std::process::Command;

/// The entries of a zip, by name (Python's zipfile reads them, so the
/// archive is one every unzip reads).
fn unzip(bytes: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let dir = tempfile::tempdir().unwrap();
    let zip = dir.path().join("a.zip");
    std::fs::write(&zip, bytes).unwrap();
    let out = dir.path().join("out");
    let status = Command::new("python3")
        .args(["-c", "import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; z.extractall(sys.argv[2])"])
        .arg(&zip)
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success(), "python's zipfile reads the zip");
    let mut files = BTreeMap::new();
    let mut stack = vec![out.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(&out).unwrap().to_string_lossy().into_owned();
                files.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    files
}

/// The Android name of a dotted token name (the rule in docs/tasks/apps.md).
fn android_name(token: &str) -> String {
    let mut out = String::new();
    for c in token.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    out.trim_end_matches('_').to_string()
}

/// Writes `files` (path → bytes) under `dir`.
fn write_tree(dir: &Path, files: &BTreeMap<String, Vec<u8>>) {
    for (path, body) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    }
}

/// `aapt2 compile` of a res/ tree: its exit status and output.
fn aapt2(res: &Path, out: &Path) -> (bool, String) {
    let (res, out) = (res.to_str().unwrap(), out.to_str().unwrap());
    run(
        Path::new("."),
        "aapt2",
        &["compile", "--dir", res, "-o", out],
    )
}

fn aapt2_available() -> bool {
    let found = Command::new("aapt2").arg("version").output().is_ok();
    require("aapt2", found, "bash .ci/deps (Debian package aapt)")
}

#[test]
fn android_resources_compile_with_aapt2_and_hold_the_resolvers_colours() {
    let app = spawn_app(&example_content());
    let compile = aapt2_available();
    for slug in ["northwind", "lumen-health"] {
        let zip = app.get(&format!("/brand/{slug}/android.zip"));
        assert_eq!(zip.status, 200);
        assert_eq!(zip.header("content-type"), Some("application/zip"));
        let files = unzip(&zip.body);
        let xml = |path: &str| String::from_utf8(files[path].clone()).unwrap();
        // The zip holds what is served file by file.
        for (path, body) in &files {
            let served = app.get(&format!(
                "/brand/{slug}/android/{}",
                path.strip_prefix("res/").unwrap()
            ));
            assert_eq!(&served.body, body, "{path}");
        }
        let spec = app.get(&format!("/brand/{slug}/spec.json")).json();
        let default = by_name(&spec["tokens"]);
        let values = colours_of(&xml("res/values/tokens.xml"));
        // The header says what was left out, and why.
        if slug == "lumen-health" {
            let header = xml("res/values/tokens.xml");
            let header = header.split("-->").next().unwrap();
            assert!(
                header.contains("Android resources have no form for this type")
                    && header.contains("shadow.soft"),
                "{header}"
            );
        }
        let mut want = BTreeMap::new();
        let none = BTreeMap::new();
        for (name, t) in &default {
            if let Some(c) = colour(name, &none, &default) {
                if t["$type"] == "color" {
                    want.insert(android_name(name), argb(c));
                }
            }
        }
        assert_eq!(
            values, want,
            "{slug}: every default colour, as the resolver has it"
        );
        // values-night: exactly what the dark context changes.
        let dark = spec["modes"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["colorScheme"] == true)
            .flat_map(|m| m["contexts"].as_array().unwrap().iter())
            .find(|c| c["name"] == "dark");
        match dark {
            Some(dark) => {
                let here: BTreeMap<String, Value> = dark["tokens"]
                    .as_object()
                    .unwrap()
                    .iter()
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                let mut changed = BTreeMap::new();
                let none = BTreeMap::new();
                for (name, t) in &default {
                    if t["$type"] != "color" {
                        continue;
                    }
                    let (a, b) = (colour(name, &none, &default), colour(name, &here, &default));
                    if let (Some(a), Some(b)) = (a, b) {
                        if argb(a) != argb(b) {
                            changed.insert(android_name(name), argb(b));
                        }
                    }
                }
                let night = colours_of(&xml("res/values-night/tokens.xml"));
                assert_eq!(
                    night, changed,
                    "{slug}: values-night is the dark context's differences"
                );
                assert!(!night.is_empty());
            }
            None => assert!(!files.contains_key("res/values-night/tokens.xml"), "{slug}"),
        }
        if compile {
            let dir = tempfile::tempdir().unwrap();
            let res = dir.path().join("res");
            write_tree(dir.path(), &files);
            let (ok, text) = aapt2(&res, &dir.path().join("out.zip"));
            assert!(ok, "aapt2 refuses {slug}'s resources:\n{text}");
            // It is a judge: a broken colour is refused.
            let values = res.join("values/tokens.xml");
            let text = std::fs::read_to_string(&values).unwrap();
            let broken = text.replacen("\">#", "\">#GG", 1);
            std::fs::write(&values, broken).unwrap();
            let (ok, _) = aapt2(&res, &dir.path().join("out2.zip"));
            assert!(!ok, "aapt2 refuses a broken colour");
        }
    }
    // The same brand gives the same bytes.
    let again = spawn_app(&example_content());
    for file in ["android.zip", "ios.zip"] {
        assert_eq!(
            app.get(&format!("/brand/northwind/{file}")).body,
            again.get(&format!("/brand/northwind/{file}")).body,
            "{file} is deterministic"
        );
    }
}

/// Apple's Asset Catalog Format Reference, "Named Color Type" and
/// "Appearances": a colour set's Contents.json has `info` (`author`,
/// `version` 1) and `colors`, each with `idiom`, an optional list of
/// `appearances` (`{"appearance": "luminosity", "value": "light" | "dark"}`,
/// `{"appearance": "contrast", "value": "high"}`) and `color` with a
/// `color-space` (`srgb`, `display-p3`, …) and `components` (`red`,
/// `green`, `blue`, `alpha`, each a number 0–1 or a string of one).
#[test]
fn the_ios_asset_catalogue_has_apples_form_and_the_resolvers_colours() {
    let app = spawn_app(&example_content());
    let files = unzip(&app.get("/brand/lumen-health/ios.zip").body);
    assert!(files.contains_key("README.txt"));
    assert!(String::from_utf8_lossy(&files["README.txt"]).contains("Xcode"));
    let root: Value = serde_json::from_slice(&files["LumenHealth.xcassets/Contents.json"]).unwrap();
    assert_eq!(root["info"], json!({"author": "xcode", "version": 1}));
    let spec = app.get("/brand/lumen-health/spec.json").json();
    let default = by_name(&spec["tokens"]);
    let dark: BTreeMap<String, Value> = spec["modes"][0]["contexts"][1]["tokens"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut seen = BTreeSet::new();
    for (path, body) in &files {
        let Some(set) = path
            .strip_prefix("LumenHealth.xcassets/")
            .and_then(|p| p.strip_suffix(".colorset/Contents.json"))
        else {
            continue;
        };
        seen.insert(set.to_string());
        let doc: Value = serde_json::from_slice(body).unwrap();
        assert_eq!(doc["info"], json!({"author": "xcode", "version": 1}));
        let token = default
            .keys()
            .find(|n| n.replace('.', "-") == set)
            .unwrap_or_else(|| panic!("{set} names a token"));
        for entry in doc["colors"].as_array().unwrap() {
            assert_eq!(entry["idiom"], "universal");
            let c = &entry["color"];
            let space = c["color-space"].as_str().unwrap();
            assert!(["srgb", "display-p3"].contains(&space), "{set}: {space}");
            let part = |k: &str| -> f64 {
                let v = &c["components"][k];
                let x = v
                    .as_str()
                    .map(|s| s.parse().unwrap())
                    .or(v.as_f64())
                    .unwrap();
                assert!((0.0..=1.0).contains(&x), "{set}: {k} {x}");
                x
            };
            let rgb = [part("red"), part("green"), part("blue")];
            let appearances = entry["appearances"].as_array().cloned().unwrap_or_default();
            for a in &appearances {
                let ok = matches!(
                    (a["appearance"].as_str(), a["value"].as_str()),
                    (Some("luminosity"), Some("light" | "dark")) | (Some("contrast"), Some("high"))
                );
                assert!(ok, "{set}: {a}");
            }
            // The value for this appearance, as the resolver gives it.
            let here = match appearances.is_empty() {
                true => BTreeMap::new(),
                false => dark.clone(),
            };
            let want = colour(token, &here, &default).unwrap();
            let want_space = want["colorSpace"].as_str().unwrap();
            if want_space == "display-p3" {
                assert_eq!(space, "display-p3", "{set}: written in Display P3");
                let comps: Vec<f64> = want["components"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .collect();
                for (got, want) in rgb.iter().zip(&comps) {
                    assert!((got - want).abs() < 0.0006, "{set}: {rgb:?} vs {comps:?}");
                }
            } else {
                let hex = format!(
                    "#{:02x}{:02x}{:02x}",
                    (rgb[0] * 255.0).round() as u8,
                    (rgb[1] * 255.0).round() as u8,
                    (rgb[2] * 255.0).round() as u8
                );
                assert_eq!(hex, want["hex"].as_str().unwrap(), "{set} {appearances:?}");
            }
        }
    }
    let colours: BTreeSet<String> = default
        .iter()
        .filter(|(_, t)| t["$type"] == "color")
        .map(|(n, _)| n.replace('.', "-"))
        .collect();
    assert_eq!(seen, colours, "a colour set per colour token");
}

/// Runs `tool` with `args` in `dir`: exit status and both streams.
fn run(dir: &Path, tool: &str, args: &[&str]) -> (bool, String) {
    let o = Command::new(tool)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    (
        o.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    )
}

#[test]
fn tokens_js_imports_in_node_and_its_types_catch_a_misspelled_token() {
    let remote = crate::git::Remote::new();
    remote.tag_annotated("northwind@2.4.0", "2.4.0", 1);
    let mut config = serve_config(remote.path());
    config.npm_scope = Some("acme".into());
    let app = spawn_with(config);
    let dir = tempfile::tempdir().unwrap();
    let js = app.get("/brand/lumen-health/tokens.js");
    assert_eq!(
        js.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    std::fs::write(dir.path().join("tokens.js"), &js.body).unwrap();
    std::fs::write(
        dir.path().join("tokens.d.ts"),
        app.get("/brand/lumen-health/tokens.d.ts").body,
    )
    .unwrap();
    // node reads it; its values are spec.json's.
    let (ok, out) = run(
        dir.path(),
        "node",
        &["--input-type=module", "-e", "import { tokens, modes } from './tokens.js'; console.log(JSON.stringify({ tokens, modes }));"],
    );
    assert!(ok, "{out}");
    let module: Value = serde_json::from_str(out.trim()).unwrap();
    let spec = app.get("/brand/lumen-health/spec.json").json();
    let at = |tree: &Value, token: &str| {
        let mut v = tree;
        for p in token.trim_matches(|c| c == '{' || c == '}').split('.') {
            v = &v[p];
        }
        v.clone()
    };
    for swatch in spec["color"]["palette"].as_array().unwrap() {
        let token = swatch["token"].as_str().unwrap();
        assert_eq!(at(&module["tokens"], token), swatch["value"], "{token}");
    }
    for style in spec["typography"]["styles"].as_array().unwrap() {
        let token = style["token"].as_str().unwrap();
        assert_eq!(at(&module["tokens"], token), style["value"], "{token}");
    }
    assert_eq!(
        module["modes"]["theme"]["dark"]["color"]["paper"],
        "#1a2028"
    );
    assert!(module["modes"]["theme"]["dark"]["color"]
        .get("legacy-blue")
        .is_none());

    // tsc --strict: a program that reads a colour and a mode compiles; one
    // with a misspelled token does not.
    if let Some(tsc) = js_tool("tsc") {
        let tsc = tsc.to_string_lossy().into_owned();
        std::fs::write(
            dir.path().join("good.ts"),
            "import { tokens, modes } from './tokens.js';\nconst ink: \"#1a2028\" = tokens.color.ink;\nconst night: string = modes.theme.dark.color.paper;\nconsole.log(ink, night);\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("typo.ts"),
            "import { tokens } from './tokens.js';\nconsole.log(tokens.color.inc);\n",
        )
        .unwrap();
        let strict = [
            "--strict",
            "--noEmit",
            "--module",
            "nodenext",
            "--moduleResolution",
            "nodenext",
            "--target",
            "es2022",
        ];
        let (ok, out) = run(dir.path(), &tsc, &[&strict[..], &["good.ts"]].concat());
        assert!(ok, "tsc accepts good.ts:\n{out}");
        let (ok, out) = run(dir.path(), &tsc, &[&strict[..], &["typo.ts"]].concat());
        assert!(
            !ok && out.contains("TS2339") && out.contains("'inc'"),
            "tsc refuses the typo:\n{out}"
        );
    }

    // A release's package.tgz: npm installs it from the test server alone.
    let url = format!("{}/brand/northwind@2.4.0/package.tgz", app.public_url);
    let tgz = app.get("/brand/northwind@2.4.0/package.tgz");
    assert_eq!(tgz.status, 200);
    assert_eq!(tgz.header("content-type"), Some("application/gzip"));
    assert_eq!(
        app.get("/brand/northwind/package.tgz").status,
        404,
        "releases only"
    );
    let mut manifest = String::new();
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(&tgz.body[..])
        .read_to_end(&mut tar)
        .unwrap();
    let at = tar
        .windows(20)
        .position(|w| w == b"package/package.json")
        .unwrap();
    let size =
        usize::from_str_radix(std::str::from_utf8(&tar[at + 124..at + 135]).unwrap(), 8).unwrap();
    manifest.push_str(std::str::from_utf8(&tar[at + 512..at + 512 + size]).unwrap());
    let manifest: Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(manifest["name"], "@acme/northwind");
    assert_eq!(manifest["version"], "2.4.0");
    let project = tempfile::tempdir().unwrap();
    std::fs::write(
        project.path().join("package.json"),
        r#"{"name": "site", "private": true, "type": "module"}"#,
    )
    .unwrap();
    let cache = project.path().join(".npm-cache");
    let (ok, out) = run(
        project.path(),
        "npm",
        &[
            "install",
            "--no-audit",
            "--no-fund",
            "--registry",
            "http://127.0.0.1:9/",
            "--cache",
            cache.to_str().unwrap(),
            &url,
        ],
    );
    assert!(ok, "npm installs {url}:\n{out}");
    let (ok, out) = run(
        project.path(),
        "node",
        &["--input-type=module", "-e", "import { tokens } from '@acme/northwind'; console.log(Object.keys(tokens).length > 0 ? 'ok' : 'empty');"],
    );
    assert!(ok && out.trim() == "ok", "{out}");
}

/// MCP lists each output for apps among a brand's resources, and reads an
/// archive as a base64 blob of the bytes served.
#[test]
fn mcp_lists_the_outputs_for_apps_and_reads_an_archive_as_a_blob() {
    let app = spawn_app(&example_content());
    let sid = crate::mcp::session(&app, "127.0.0.1");
    let uris = crate::mcp::resource_uris(&app, &sid);
    for file in [
        "android.zip",
        "ios.zip",
        "figma.zip",
        "android/values/tokens.xml",
        "tokens.js",
        "tokens.d.ts",
    ] {
        let uri = format!("{}/brand/lumen-health/{file}", app.public_url);
        assert!(uris.contains(&uri), "{file} in {uris:#?}");
    }
    let uri = format!("{}/brand/lumen-health/ios.zip", app.public_url);
    let read = crate::mcp::rpc(&app, &sid, "resources/read", json!({"uri": uri}));
    let blob = read["result"]["contents"][0]["blob"]
        .as_str()
        .unwrap_or_else(|| panic!("{read}"));
    let out = Command::new("python3")
        .args(["-c", "import base64, sys; sys.stdout.buffer.write(base64.b64decode(sys.argv[1], validate=True))", blob])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, app.get("/brand/lumen-health/ios.zip").body);
    let xml = crate::mcp::rpc(
        &app,
        &sid,
        "resources/read",
        json!({"uri": format!("{}/brand/lumen-health/android/values/tokens.xml", app.public_url)}),
    );
    assert!(xml["result"]["contents"][0]["text"]
        .as_str()
        .unwrap()
        .contains("<resources>"));
}

/// Every corpus system's Android resources compile with aapt2, its
/// catalogue and module read; prints what each platform got and left out.
#[test]
fn every_corpus_systems_outputs_for_apps_are_accepted() {
    let Some(corpus) = crate::corpus::corpus() else {
        return;
    };
    let compile = aapt2_available();
    let dir = tempfile::tempdir().unwrap();
    let (site, slugs) = crate::corpus::built(&corpus, dir.path());
    for slug in &slugs {
        let brand = site.join("brand").join(slug);
        let android = unzip(&std::fs::read(brand.join("android.zip")).unwrap());
        let values = String::from_utf8(android["res/values/tokens.xml"].clone()).unwrap();
        let resources = values.matches("\n    <").count();
        let night = android
            .get("res/values-night/tokens.xml")
            .map_or(0, |x| String::from_utf8_lossy(x).matches("\n    <").count());
        let left_out: Vec<String> = values
            .lines()
            .filter(|l| l.trim_start().starts_with("- "))
            .map(|l| {
                let l = l.trim().trim_start_matches("- ");
                l.split(": ").take(2).collect::<Vec<_>>().join(": ")
            })
            .collect();
        if compile {
            let work = dir.path().join(format!("android-{slug}"));
            write_tree(&work, &android);
            let (ok, text) = aapt2(&work.join("res"), &work.join("out.zip"));
            assert!(ok, "aapt2 refuses {slug}'s resources:\n{text}");
        }
        let ios = unzip(&std::fs::read(brand.join("ios.zip")).unwrap());
        let sets = ios
            .keys()
            .filter(|k| k.ends_with(".colorset/Contents.json"))
            .count();
        let appearances: BTreeSet<String> = ios
            .iter()
            .filter(|(k, _)| k.ends_with(".colorset/Contents.json"))
            .flat_map(|(_, v)| {
                let doc: Value = serde_json::from_slice(v).unwrap();
                doc["colors"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .flat_map(|c| c["appearances"].as_array().cloned().unwrap_or_default())
                    .map(|a| {
                        format!(
                            "{}={}",
                            a["appearance"].as_str().unwrap(),
                            a["value"].as_str().unwrap()
                        )
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        let (ok, out) = run(
            &brand,
            "node",
            &["--input-type=module", "-e", "import { tokens, modes } from './tokens.js'; const n = o => typeof o === 'string' ? 1 : Object.values(o).reduce((a, v) => a + n(v), 0); console.log(n(tokens), Object.keys(modes).length);"],
        );
        assert!(ok, "node reads {slug}'s tokens.js: {out}");
        println!(
            "{slug}: android {resources} resources (+{night} in values-night), left out {left_out:?}; ios {sets} colour sets, appearances {appearances:?}; tokens.js tokens and modifiers {}",
            out.trim()
        );
    }
}

/// Two tokens whose Android names are one: the later is left out of the
/// Android resources, with a warning at it; everything else is served.
#[test]
fn an_android_name_clash_is_a_warning_at_the_token() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &example_content().join("northwind"),
        &dir.path().join("northwind"),
    );
    let path = dir.path().join("northwind/tokens.json");
    let mut tokens: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // Two names for CSS (`--color-brand-x`, `--color-brandx`), one for
    // Android (`color_brandx`).
    tokens["color"]["brandX"] = json!({"$type": "color", "$value": "#112233"});
    tokens["color"]["brandx"] = json!({"$type": "color", "$value": "#445566"});
    std::fs::write(&path, serde_json::to_string_pretty(&tokens).unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", "--format", "json"])
        .arg(dir.path())
        .output()
        .unwrap();
    let all: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let clash = all
        .iter()
        .find(|d| d["code"] == "MQ2304")
        .unwrap_or_else(|| panic!("{all:#?}"));
    assert_eq!(clash["severity"], "warning");
    assert_eq!(clash["file"], "northwind/tokens.json");
    assert_eq!(clash["pointer"], "/color/brandx");
    assert!(clash["line"].as_u64().unwrap() > 1);
    assert!(clash["message"]
        .as_str()
        .unwrap()
        .contains("`color_brandx`"));
    assert_eq!(out.status.code(), Some(0), "a warning, not an error");
}

/// Names and values no bundled brand has, through every app output, each
/// judged by its consumer's own tool (the 2026-11-27 black-box run, F9 and
/// F10): a string with two `%s` and a tab, a token named `class`, a
/// dimension of 1e308 px, a colour named `__proto__` and one named
/// `größe`.
#[test]
fn hostile_names_and_values_pass_aapt2_node_and_every_unzip() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    copy_dir(&example_content(), &root);
    let path = root.join("northwind/tokens.json");
    let mut tokens: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let colour = |hex: &str| {
        let c = |i: usize| f64::from(u8::from_str_radix(&hex[i..i + 2], 16).unwrap()) / 255.0;
        serde_json::json!({"$value": {"colorSpace": "srgb", "components": [c(1), c(3), c(5)], "hex": hex}})
    };
    tokens["color"]["__proto__"] = colour("#112233");
    tokens["color"]["größe"] = colour("#223344");
    tokens["class"] = serde_json::json!({"$type": "color", "$value": colour("#334455")["$value"]});
    tokens["label"] = serde_json::json!({
        "$type": "string",
        "greeting": {"$value": "%s of %s"},
        "tabbed": {"$value": "a\tb"}
    });
    tokens["space"]["huge"] = serde_json::json!({"$type": "dimension", "$value": {"value": 1.7976931348623157e308, "unit": "px"}});
    std::fs::write(&path, serde_json::to_string_pretty(&tokens).unwrap()).unwrap();
    let app = spawn_app(&root);
    let spec = app.get("/brand/northwind/spec.json");
    assert_eq!(spec.status, 200, "{}", app.get("/status").text());

    // Android: aapt2 compiles every file; the string is text, the tab kept.
    let android = unzip(&app.get("/brand/northwind/android.zip").body);
    let xml = String::from_utf8(android["res/values/tokens.xml"].clone()).unwrap();
    assert!(
        xml.contains("<string name=\"label_greeting\" formatted=\"false\">%s of %s</string>"),
        "{xml}"
    );
    assert!(xml.contains(">a\\tb</string>"), "{xml}");
    assert!(xml.contains("name=\"t_class\""), "{xml}");
    assert!(
        !xml.contains("space_huge\">"),
        "the huge dimension is left out: {xml}"
    );
    if aapt2_available() {
        let res = dir.path().join("android");
        write_tree(&res, &android);
        let (ok, text) = aapt2(&res.join("res"), &dir.path().join("out.zip"));
        assert!(ok, "aapt2 refuses the resources:\n{text}");
    }

    // tokens.js: node reads `__proto__` as a token, as tokens.d.ts declares it.
    let js = dir.path().join("js");
    std::fs::create_dir_all(&js).unwrap();
    std::fs::write(
        js.join("tokens.js"),
        app.get("/brand/northwind/tokens.js").body,
    )
    .unwrap();
    let (ok, out) = run(
        &js,
        "node",
        &["--input-type=module", "-e", "import { tokens } from './tokens.js'; console.log(Object.prototype.hasOwnProperty.call(tokens.color, '__proto__'), tokens.color['__proto__'], Object.getPrototypeOf(tokens.color) === Object.prototype, tokens.color['größe']);"],
    );
    assert!(ok, "{out}");
    assert_eq!(out.trim(), "true #112233 true #223344");

    // ios.zip: a non-ASCII colour-set name is flagged UTF-8, so every
    // unzip (Python's zipfile here) extracts it under its own name.
    let ios = unzip(&app.get("/brand/northwind/ios.zip").body);
    assert!(
        ios.keys().any(|k| k.contains("color-größe.colorset")),
        "{:?}",
        ios.keys()
            .filter(|k| k.contains("colorset"))
            .collect::<Vec<_>>()
    );
}

/// Lumen Health with its dark context as the default, and string tokens
/// Android's rules are strict about: CSS a browser reads (a gradient, as
/// CSS text and as a string, `calc()`), and text with `%`, a leading `@`
/// and `?`, quotes and characters beyond ASCII.
pub(crate) fn dark_default_lumen(root: &Path) {
    copy_dir(
        &example_content().join("lumen-health"),
        &root.join("lumen-health"),
    );
    // The light context sets what the dark one changes back to the base's
    // values: marque lays a context over the default, so `"light": []`
    // would be the dark default itself.
    let resolver = root.join("lumen-health/tokens.resolver.json");
    let text = std::fs::read_to_string(&resolver).unwrap();
    let dark_default = text
        .replace("\"default\": \"light\"", "\"default\": \"dark\"")
        .replace(
            "\"light\": []",
            "\"light\": [{ \"$ref\": \"tokens/light.json\" }]",
        );
    assert_ne!(text, dark_default);
    std::fs::write(&resolver, dark_default).unwrap();
    let base = root.join("lumen-health/tokens/base.json");
    let read =
        |p: &Path| -> Value { serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap() };
    let mut tokens = read(&base);
    let dark = read(&root.join("lumen-health/tokens/dark.json"));
    let mut light = json!({"color": {"$type": "color"}});
    for (name, _) in dark["color"].as_object().unwrap() {
        if name == "teal" {
            light["color"]["teal"] = json!({"700": tokens["color"]["teal"]["700"]});
        } else if !name.starts_with('$') {
            light["color"][name] = tokens["color"][name].clone();
        }
    }
    std::fs::write(
        root.join("lumen-health/tokens/light.json"),
        serde_json::to_string_pretty(&light).unwrap(),
    )
    .unwrap();
    tokens["label"] = json!({
        "$type": "string",
        "sale": {"$value": "50% off: %s of %s, 100%"},
        "at": {"$value": "@string/app_name"},
        "question": {"$value": "?attr/colorPrimary"},
        "quotes": {"$value": "She said \"it's\" \\ done"},
        "unicode": {"$value": "Grüße — 日本 🎨 \u{202E}rtl"},
        "fade": {"$value": "linear-gradient(90deg, #ffffff 0%, #000000 50%)"},
        "width": {"$value": "calc(100% - 8px)"}
    });
    tokens["fade"] = json!({"$type": "gradient", "$value": "linear-gradient(180deg, #1a2028 0%, rgba(26, 32, 40, 0) 45%)"});
    std::fs::write(&base, serde_json::to_string_pretty(&tokens).unwrap()).unwrap();
}

/// Android: what has no Android form (CSS gradients and functions) is left
/// out, with a warning at the token; the strings are escaped by Android's
/// rules, so `aapt2 compile` accepts every file, `values-notnight/` too,
/// and reads each string back as written.
#[test]
fn android_leaves_css_out_with_a_warning_and_escapes_strings_for_aapt2() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    dark_default_lumen(&root);
    let app = spawn_app(&root);
    let android = unzip(&app.get("/brand/lumen-health/android.zip").body);
    let values = String::from_utf8(android["res/values/tokens.xml"].clone()).unwrap();
    let (header, body) = values.split_once("-->").unwrap();
    for left_out in ["label_fade", "label_width", "\"fade\""] {
        assert!(!body.contains(left_out), "{left_out} is left out:\n{body}");
    }
    for token in ["label.fade", "label.width", "fade"] {
        assert!(
            header
                .lines()
                .any(|l| l.contains("CSS") && l.contains(token)),
            "the header names {token}:\n{header}"
        );
    }
    assert!(
        android.contains_key("res/values-notnight/tokens.xml"),
        "{:?}",
        android.keys()
    );
    assert!(!android.contains_key("res/values-night/tokens.xml"));

    // `marque check` warns at each string left out as CSS.
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", "--format", "json"])
        .arg(&root)
        .output()
        .unwrap();
    let all: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for pointer in ["/label/fade", "/label/width"] {
        let warning = all
            .iter()
            .find(|d| {
                d["pointer"] == pointer
                    && d["code"] == "MQ1408"
                    && d["file"] == "lumen-health/tokens/base.json"
            })
            .unwrap_or_else(|| panic!("a warning at {pointer}: {all:#?}"));
        assert_eq!(warning["severity"], "warning");
        assert!(
            warning["message"].as_str().unwrap().contains("Android"),
            "{warning}"
        );
    }
    assert!(
        all.iter().any(|d| d["pointer"] == "/fade/$value"
            && d["code"] == "MQ1408"
            && d["message"].as_str().unwrap().contains("Android")),
        "{all:#?}"
    );

    if aapt2_available() {
        let work = dir.path().join("android");
        write_tree(&work, &android);
        let (ok, text) = aapt2(&work.join("res"), &work.join("out"));
        assert!(ok, "aapt2 refuses the resources:\n{text}\n{values}");
        // aapt2 reads each string as the token has it: its dump of the
        // compiled file.
        let flat = work.join("flat");
        std::fs::create_dir_all(&flat).unwrap();
        let values = work.join("res/values/tokens.xml");
        let (ok, out) = run(
            &work,
            "aapt2",
            &[
                "compile",
                values.to_str().unwrap(),
                "-o",
                flat.to_str().unwrap(),
            ],
        );
        assert!(ok, "{out}");
        let compiled = flat.join("values_tokens.arsc.flat");
        let (ok, dump) = run(&work, "aapt2", &["dump", "apc", compiled.to_str().unwrap()]);
        assert!(ok, "{dump}");
        for want in [
            "\"50% off: %s of %s, 100%\"",
            "\"@string/app_name\"",
            "\"?attr/colorPrimary\"",
            "\"She said \"it's\" \\ done\"",
            "\"Grüße — 日本 🎨 \u{202E}rtl\"",
        ] {
            assert!(dump.contains(want), "aapt2 reads {want}:\n{dump}");
        }
        // It is a judge: the same `%` read as a format string is refused.
        let file = work.join("res/values/tokens.xml");
        let text = std::fs::read_to_string(&file).unwrap();
        let formatted = text.replace(
            "<string name=\"label_sale\" formatted=\"false\">",
            "<string name=\"label_sale\">",
        );
        assert_ne!(text, formatted);
        std::fs::write(&file, formatted).unwrap();
        let (ok, out) = aapt2(&work.join("res"), &work.join("out2"));
        assert!(
            !ok && out.contains("substitutions"),
            "aapt2 refuses it:\n{out}"
        );
    }
}

/// iOS: a brand whose default is dark gets its light context as
/// `luminosity` `light`, with the resolver's colours; the README names one
/// of the brand's own colour sets and only the appearances it has.
#[test]
fn a_dark_default_brand_gets_a_light_appearance_in_ios_zip() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    dark_default_lumen(&root);
    let app = spawn_app(&root);
    let files = unzip(&app.get("/brand/lumen-health/ios.zip").body);
    let spec = app.get("/brand/lumen-health/spec.json").json();
    let default = by_name(&spec["tokens"]);
    let light: BTreeMap<String, Value> = spec["modes"][0]["contexts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "light")
        .unwrap()["tokens"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let srgb_hex = |entry: &Value| {
        let part = |k: &str| {
            let x: f64 = entry["color"]["components"][k]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            (x * 255.0).round() as u8
        };
        format!(
            "#{:02x}{:02x}{:02x}",
            part("red"),
            part("green"),
            part("blue")
        )
    };
    let none = BTreeMap::new();
    for token in ["color.ink", "color.paper", "color.scrim"] {
        let path = format!(
            "LumenHealth.xcassets/{}.colorset/Contents.json",
            token.replace('.', "-")
        );
        let doc: Value = serde_json::from_slice(&files[&path]).unwrap();
        let colors = doc["colors"].as_array().unwrap();
        assert_eq!(colors.len(), 2, "{token}: {doc:#}");
        assert!(colors[0].get("appearances").is_none());
        assert_eq!(
            colors[1]["appearances"],
            json!([{"appearance": "luminosity", "value": "light"}]),
            "{token}"
        );
        let dark = colour(token, &none, &default).unwrap();
        let lit = colour(token, &light, &default).unwrap();
        assert_eq!(
            srgb_hex(&colors[0]),
            dark["hex"].as_str().unwrap(),
            "{token} (dark)"
        );
        assert_eq!(
            srgb_hex(&colors[1]),
            lit["hex"].as_str().unwrap(),
            "{token} (light)"
        );
        assert_ne!(
            dark["hex"], lit["hex"],
            "{token} differs in the light context"
        );
    }
    // Ink is light on the dark default, dark in the light context.
    assert_eq!(
        colour("color.ink", &none, &default).unwrap()["hex"],
        "#fdfcf9"
    );

    let readme = String::from_utf8(files["README.txt"].clone()).unwrap();
    assert!(!readme.contains("color-brand-primary"), "{readme}");
    assert!(
        readme.contains("Color(\"color-teal-700\")"),
        "the README names one of the brand's colour sets:\n{readme}"
    );
    assert!(!readme.contains("high contrast"), "{readme}");
    assert!(readme.contains("luminosity light"), "{readme}");
    assert!(!readme.contains("no appearance for it"), "{readme}");
}

/// The hostile names of [`hostile_content`].
pub(crate) const HOSTILE_NAMES: [&str; 9] = [
    "q\"uote's",
    "back`tick",
    "end*/comment",
    "arrow-->",
    "</resources>",
    "pct%n%s",
    "nul\u{0}byte",
    "rtl\u{202E}mark",
    "emoji🎨",
];

/// The hostile fixture brand (`evil`, its name hostile, an emoji, an RTL
/// override and `%n` added) under `root`, with a colour, a string and a
/// cubic Bézier (which Android leaves out, naming it) named by each of
/// [`HOSTILE_NAMES`]; the consumer matrix builds it too.
pub(crate) fn hostile_content(root: &Path) {
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile/evil"),
        &root.join("evil"),
    );
    let brand = root.join("evil/brand.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&brand).unwrap()).unwrap();
    let name = format!("{} 🎨\u{202E} %n", doc["name"].as_str().unwrap());
    doc["name"] = json!(name);
    std::fs::write(&brand, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let path = root.join("evil/tokens.json");
    let mut tokens: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    tokens["hostile"] = json!({"$type": "color"});
    tokens["say"] = json!({"$type": "string"});
    tokens["curve"] = json!({"$type": "cubicBezier"});
    for (i, n) in HOSTILE_NAMES.iter().enumerate() {
        tokens["hostile"][n] =
            json!({"$value": {"colorSpace": "srgb", "components": [i as f64 / 10.0, 0.2, 0.3]}});
        tokens["say"][n] = json!({"$value": format!("{n} \"%s %n\" </resources> */ `x` @x it's")});
        tokens["curve"][n] = json!({"$value": [0.4, 0, 0.2, 1]});
    }
    std::fs::write(&path, serde_json::to_string_pretty(&tokens).unwrap()).unwrap();
}

/// Brand and token names with quotes, backticks, `*/`, `-->`,
/// `</resources>`, `%n`, NUL, an RTL override and an emoji, in a brand
/// whose name is hostile too (tests/fixtures/hostile), through every output
/// for apps: aapt2 compiles the Android resources (the names left out are
/// listed in an XML comment that the names cannot end), every Contents.json
/// of the catalogue is JSON of Apple's form, node imports tokens.js with
/// the values tokens.css has, and `tsc --strict` reads every name through
/// tokens.d.ts.
#[test]
fn hostile_brand_and_token_names_pass_every_output_for_apps() {
    let names = HOSTILE_NAMES;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    hostile_content(&root);
    let hex = |i: usize| format!("#{:02x}334d", (i as f64 / 10.0 * 255.0).round() as u8);
    let app = spawn_app(&root);
    assert_eq!(
        app.get("/brand/evil/spec.json").status,
        200,
        "{}",
        app.get("/status").text()
    );

    // Android: one XML document per file, its comment whole, and aapt2
    // compiles it.
    let android = unzip(&app.get("/brand/evil/android.zip").body);
    let values = String::from_utf8(android["res/values/tokens.xml"].clone()).unwrap();
    let (comment, rest) = values.split_once("-->").unwrap();
    assert!(comment.contains("curve.arrow- ->"), "{comment}");
    assert_eq!(rest.matches("</resources>").count(), 1, "{values}");
    assert!(!rest.contains("-->"), "{values}");
    if aapt2_available() {
        let work = dir.path().join("android");
        write_tree(&work, &android);
        let (ok, text) = aapt2(&work.join("res"), &work.join("out.zip"));
        assert!(ok, "aapt2 refuses the resources:\n{text}\n{values}");
    }

    // iOS: every Contents.json is JSON of Apple's form.
    let ios = unzip(&app.get("/brand/evil/ios.zip").body);
    let mut sets = 0;
    for (file, body) in &ios {
        if !file.ends_with("Contents.json") {
            continue;
        }
        let doc: Value = serde_json::from_slice(body)
            .unwrap_or_else(|e| panic!("{file} is JSON ({e}): {}", String::from_utf8_lossy(body)));
        assert_eq!(
            doc["info"],
            json!({"author": "xcode", "version": 1}),
            "{file}"
        );
        if file.contains(".colorset/") {
            sets += 1;
            assert!(
                doc["colors"][0]["color"]["components"]["red"].is_string(),
                "{file}"
            );
        }
    }
    assert!(sets >= names.len(), "{:?}", ios.keys());
    let readme = String::from_utf8(ios["README.txt"].clone()).unwrap();
    assert!(readme.contains("Color(\""), "{readme}");

    // tokens.js: node imports it; each colour is the one written, each
    // string the value tokens.css declares.
    let js = dir.path().join("js");
    std::fs::create_dir_all(&js).unwrap();
    std::fs::write(js.join("tokens.js"), app.get("/brand/evil/tokens.js").body).unwrap();
    std::fs::write(
        js.join("tokens.d.ts"),
        app.get("/brand/evil/tokens.d.ts").body,
    )
    .unwrap();
    let (ok, out) = run(
        &js,
        "node",
        &["--input-type=module", "-e", "import { tokens } from './tokens.js'; console.log(JSON.stringify({ hostile: tokens.hostile, say: tokens.say }));"],
    );
    assert!(ok, "{out}");
    let module: Value = serde_json::from_str(out.trim()).unwrap();
    let css = app.get("/brand/evil/tokens.css").text();
    for (i, n) in names.iter().enumerate() {
        assert_eq!(module["hostile"][n], hex(i), "{n:?}");
        let property = marque::spec::tokens::css::css_name(&["say".to_string(), n.to_string()]);
        let declared = css
            .lines()
            .find_map(|l| l.trim().strip_prefix(&format!("--{property}: ")))
            .and_then(|v| v.strip_suffix(';'))
            .unwrap_or_else(|| panic!("--{property} in tokens.css"));
        assert_eq!(module["say"][n], declared, "{n:?}");
    }

    // tokens.d.ts: tsc --strict reads every name.
    if let Some(tsc) = js_tool("tsc") {
        let mut program = String::from("import { tokens } from './tokens.js';\n");
        for (i, n) in names.iter().enumerate() {
            let key = serde_json::to_string(n).unwrap();
            program.push_str(&format!(
                "const c{i}: {} = tokens.hostile[{key}];\nconst s{i}: string = tokens.say[{key}];\nconsole.log(c{i}, s{i});\n",
                serde_json::to_string(&hex(i)).unwrap()
            ));
        }
        std::fs::write(js.join("read.ts"), program).unwrap();
        let (ok, out) = run(
            &js,
            &tsc.to_string_lossy(),
            &[
                "--strict",
                "--noEmit",
                "--module",
                "nodenext",
                "--moduleResolution",
                "nodenext",
                "--target",
                "es2022",
                "read.ts",
            ],
        );
        assert!(ok, "tsc reads every name:\n{out}");
    }
}
