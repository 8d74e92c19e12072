//! The HTTP API described once (`/openapi.json`) and held to it: every path
//! the server publishes is described and answers as described; the document
//! passes the standard validator (PyPI openapi-spec-validator); spec.json and
//! changelog.json validate against their published schemas; and
//! Schemathesis, a tool that did not write the API, finds no contradiction
//! between the document and the running server.
//!
//! The Python tools are installed by `.ci/deps`; without them these tests
//! fail under CI and are skipped with a note elsewhere.

use super::git::{changelog_remote, serve_git_with, GitApp, Remote};
use super::helpers::*;
use serde_json::Value;
use std::collections::BTreeSet;

/// A git-mode server over the example brands with released versions, the
/// webhook on, and a demo limit the contract run cannot exhaust.
fn served() -> (GitApp, Remote) {
    let remote = changelog_remote();
    let g = serve_git_with(&remote.url(), None, |args| {
        args.demo.per_minute = 100_000;
        args.demo.burst = 100_000;
    });
    (g, remote)
}

/// True when `path` matches the OpenAPI path template `t`: a `{name}`
/// stands for one or more characters other than `/` (and `@`, which ends a
/// slug), except `{file}`, which may span folders.
fn matches(t: &str, path: &str) -> bool {
    let Some(open) = t.find('{') else {
        return t == path;
    };
    let Some(rest) = path.strip_prefix(&t[..open]) else {
        return false;
    };
    let close = open + t[open..].find('}').unwrap();
    let name = &t[open + 1..close];
    let after = &t[close + 1..];
    (1..=rest.len()).any(|n| {
        let (value, tail) = rest.split_at(n);
        let allowed = match name {
            "file" => true,
            "slug" => !value.contains(['/', '@']),
            _ => !value.contains('/'),
        };
        allowed && matches(after, tail)
    })
}

/// The paths a client learns from the server's own documents, relative to it.
fn published_paths(app: &super::helpers::TestApp) -> BTreeSet<String> {
    let relative = |url: &str| url.strip_prefix(&app.public_url).unwrap().to_string();
    let mut paths: BTreeSet<String> = [
        "/",
        "/brands.json",
        "/llms.txt",
        "/openapi.json",
        "/schema/brand.schema.json",
        "/schema/spec.schema.json",
        "/schema/changelog.schema.json",
        "/healthz",
        "/readyz",
        "/status",
        "/metrics",
        "/previews.json",
        "/codes",
    ]
    .map(String::from)
    .into();
    // What the pages link to: the stylesheet and scripts they share.
    let index = app.get("/").text();
    for attr in ["<link rel=\"stylesheet\" href=\"", "<script src=\""] {
        for part in index.split(attr).skip(1) {
            paths.insert(relative(part.split('"').next().unwrap()));
        }
    }
    let mut specs = Vec::new();
    for brand in app.get("/brands.json").json()["brands"].as_array().unwrap() {
        let slug = brand["slug"].as_str().unwrap();
        paths.insert(format!("/brand/{slug}/"));
        paths.insert(format!("/brand/{slug}/changelog.md"));
        paths.insert(format!("/brand/{slug}/changelog.json"));
        specs.push(format!("/brand/{slug}/spec.json"));
        for release in app.get(&format!("/brand/{slug}/changelog.json")).json()["releases"]
            .as_array()
            .unwrap()
        {
            let version = release["version"].as_str().unwrap();
            let key = format!("{slug}@{version}");
            paths.insert(format!("/brand/{key}/"));
            paths.insert(format!("/brand/{slug}/compare/{version}...current"));
            paths.insert(format!("/brand/{slug}/compare/current...{version}.md"));
            specs.push(format!("/brand/{key}/spec.json"));
        }
    }
    assert!(
        specs.iter().any(|s| s.contains('@')),
        "released versions are served"
    );
    for spec in specs {
        let spec = app.get(&spec).json();
        for (name, url) in spec["links"].as_object().unwrap() {
            if name != "demo" {
                paths.insert(relative(url.as_str().unwrap()));
            }
        }
        for variant in spec["logo"]["variants"].as_array().unwrap() {
            paths.insert(relative(variant["url"].as_str().unwrap()));
        }
    }
    paths
}

fn openapi(app: &super::helpers::TestApp) -> Value {
    let res = app.get("/openapi.json");
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-type"), Some("application/json"));
    res.json()
}

/// The component a `$ref` names, or the value itself.
fn deref<'a>(doc: &'a Value, v: &'a Value) -> &'a Value {
    match v["$ref"].as_str() {
        Some(r) => doc.pointer(r.strip_prefix('#').unwrap()).unwrap(),
        None => v,
    }
}

#[test]
fn every_published_path_is_described_and_answers_as_described() {
    let (g, _remote) = served();
    let app = &g.app;
    let doc = openapi(app);
    let templates: Vec<&String> = doc["paths"].as_object().unwrap().keys().collect();
    let mut used = BTreeSet::new();
    for path in published_paths(app) {
        let found: Vec<&&String> = templates.iter().filter(|t| matches(t, &path)).collect();
        assert_eq!(found.len(), 1, "{path} is described once: {found:?}");
        used.insert(found[0].as_str());
        let op = &doc["paths"][found[0].as_str()]["get"];
        assert!(op.is_object(), "GET {path} is described");
        let res = app.get(&path);
        let described = deref(&doc, &op["responses"][res.status.to_string()]);
        assert!(
            described.is_object(),
            "{path}: status {} is described",
            res.status
        );
        if let Some(content) = described["content"].as_object() {
            let media = res.header("content-type").unwrap();
            assert!(
                content.contains_key(media) || content.contains_key("*/*"),
                "{path}: {media} is described ({:?})",
                content.keys()
            );
        }
        for (name, header) in described["headers"].as_object().into_iter().flatten() {
            if deref(&doc, header)["required"] == true {
                assert!(res.header(name).is_some(), "{path}: {name} is sent");
            }
        }
    }
    // And nothing is described that is not served (the operations a GET of
    // a document does not reach are checked by the tests of their own).
    // values-notnight is only a brand's whose default is dark, which this
    // repository has none of: matrix::outputs checks it against one.
    let reached_otherwise = [
        "/events",
        "/hooks/git",
        "/signin",
        "/signout",
        "/brand/{slug}/android/values-notnight/tokens.xml",
        "/brand/{slug}@{version}/android/values-notnight/tokens.xml",
    ];
    for t in templates {
        let demo = t.starts_with("/api/brand-spec/") && t.ends_with("/demo");
        assert!(
            used.contains(t.as_str()) || reached_otherwise.contains(&t.as_str()) || demo,
            "{t} is described but no published path reaches it"
        );
    }
    // MCP is a session protocol OpenAPI cannot describe: named with a link,
    // not an operation.
    assert!(doc["paths"].get("/mcp").is_none());
    assert!(doc["info"]["description"]
        .as_str()
        .unwrap()
        .contains("modelcontextprotocol.io"));
}

#[test]
fn spec_json_and_changelog_json_follow_their_published_schemas() {
    let (g, _remote) = served();
    let app = &g.app;
    let compile = |path: &str| {
        let schema = app.get(path).json();
        assert_eq!(
            schema["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{path}"
        );
        jsonschema::draft202012::new(&schema).unwrap()
    };
    let spec = compile("/schema/spec.schema.json");
    let changelog = compile("/schema/changelog.schema.json");
    let mut checked = 0;
    for brand in [
        "northwind",
        "lumen-health",
        "northwind@2.4.0",
        "northwind@2.10.0",
    ] {
        let doc = app.get(&format!("/brand/{brand}/spec.json")).json();
        let errors: Vec<String> = spec
            .iter_errors(&doc)
            .map(|e| format!("{e} at {}", e.instance_path))
            .collect();
        assert!(errors.is_empty(), "{brand}/spec.json: {errors:#?}");
        checked += 1;
    }
    for brand in ["northwind", "lumen-health"] {
        let doc = app.get(&format!("/brand/{brand}/changelog.json")).json();
        assert!(!doc["releases"].as_array().unwrap().is_empty());
        let errors: Vec<String> = changelog.iter_errors(&doc).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{brand}/changelog.json: {errors:#?}");
    }
    // The schema is strict enough to fail: a computed field of the wrong type.
    let mut wrong = app.get("/brand/northwind/spec.json").json();
    wrong["color"]["pairs"][0]["passes"] = "yes".into();
    assert!(!spec.is_valid(&wrong));
    assert_eq!(checked, 4);
}

#[test]
fn the_probes_answer_other_methods_with_405() {
    // Found by Schemathesis: TRACE /healthz answered 404 although the path exists.
    let app = spawn_app(&example_content());
    for path in ["/healthz", "/readyz"] {
        let res = app.request("TRACE", path, &[], None);
        assert_eq!(res.status, 405, "{path}");
        assert_eq!(res.header("allow"), Some("GET, HEAD, OPTIONS"));
        assert_eq!(res.header("content-type"), Some("application/problem+json"));
    }
}

#[test]
fn openapi_json_passes_the_standard_validator() {
    if !require(
        "openapi-spec-validator",
        python_can("import openapi_spec_validator"),
        "pip install openapi-spec-validator (bash .ci/deps)",
    ) {
        return;
    }
    let app = spawn_app(&example_content());
    let text = app.get("/openapi.json").text();
    let file = std::env::temp_dir().join(format!("marque-openapi-{}.json", std::process::id()));
    std::fs::write(&file, text).unwrap();
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import json, sys\nfrom openapi_spec_validator import validate\nvalidate(json.load(open(sys.argv[1])))\nprint('valid')",
        ])
        .arg(&file)
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&file);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Cases per operation for the Schemathesis run: a short run by default,
/// `MARQUE_CONTRACT_EXAMPLES` for a longer one (`just contract`).
fn examples() -> String {
    std::env::var("MARQUE_CONTRACT_EXAMPLES").unwrap_or_else(|_| "8".into())
}

#[test]
fn schemathesis_finds_no_contradiction_between_the_document_and_the_server() {
    if !require(
        "Schemathesis",
        python_can("import schemathesis.cli, brotli"),
        "pip install schemathesis brotli (bash .ci/deps)",
    ) {
        return;
    }
    let (g, _remote) = served();
    let app = &g.app;
    let seed = std::env::var("MARQUE_CONTRACT_SEED").unwrap_or_else(|_| "20261122".into());
    // As a stranger runs it: every check, no configuration, nothing but
    // the document to go by (the flags below set only how long it runs).
    let out = std::process::Command::new("python3")
        .args(["-m", "schemathesis.cli", "--no-color", "run"])
        .arg(format!("{}/openapi.json", app.public_url))
        .args([
            "--checks",
            "all",
            "--max-examples",
            &examples(),
            "--seed",
            &seed,
        ])
        // One worker: with two, CPython 3.11's AST constructor can raise a
        // spurious SystemError across threads (python/cpython#106905),
        // which Schemathesis reports as a runtime error of its own.
        .args([
            "--workers",
            "1",
            "--request-timeout",
            "10",
            "--continue-on-failure",
        ])
        // /events is a stream that ends only with the server; in git mode it
        // answers 404 at once, so it is tested too.
        // Its cache of crashes goes under target/, not into the work tree.
        .current_dir(env!("CARGO_TARGET_TMPDIR"))
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("schemathesis.txt");
    std::fs::write(&report, stdout.as_bytes()).unwrap();
    let summary: String = stdout
        .lines()
        .skip_while(|l| !l.contains("SUMMARY"))
        .collect::<Vec<_>>()
        .join("\n");
    println!("{summary}\n(full report: {})", report.display());
    assert!(
        out.status.success(),
        "Schemathesis found contradictions:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("Tested:"), "{stdout}");
}

#[test]
fn the_document_follows_a_prompt_kit_edit_and_stays_put_otherwise() {
    let ws = super::reload::workspace();
    let app = spawn_app(&ws.root);
    let location = |a: &TestApp| {
        let doc = a.get("/openapi.json").json();
        let bodies = &doc["paths"]["/api/brand-spec/northwind/demo"]["post"]["requestBody"]
            ["content"]["application/json"]["schema"]["oneOf"];
        bodies
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["properties"]["promptId"]["const"] == "weather-notice")
            .unwrap()["properties"]["variables"]["properties"]["location"]["maxLength"]
            .clone()
    };
    assert_eq!(location(&app), 80);
    let etag = app.get("/openapi.json").header("etag").unwrap().to_string();
    // An edit elsewhere leaves the document as it was, byte for byte.
    super::reload::edit(&ws.root.join("northwind/BRAND_BOOK.md"), "# ", "# Edited: ");
    app.wait_until(
        |a| {
            a.get("/brand/northwind/spec.md")
                .text()
                .contains("Edited: ")
        },
        "the brand book edit is served",
    );
    assert_eq!(app.get("/openapi.json").header("etag"), Some(etag.as_str()));
    // An edit of a prompt's variable is described at once.
    super::reload::edit(
        &ws.root.join("northwind/brand.json"),
        r#""name": "location", "maxLength": 80"#,
        r#""name": "location", "maxLength": 90"#,
    );
    app.wait_until(|a| location(a) == 90, "the document follows the edit");
}
