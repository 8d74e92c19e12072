//! /mcp driven by a client this project did not write: the official MCP
//! Python SDK (PyPI `mcp`), through `mcp_client.py`. It lists and reads
//! resources, gets prompts, calls every tool, and hears of an edit.

use crate::helpers::*;
use crate::reload::workspace;
use serde_json::{json, Value};

fn mcp_client_available() -> bool {
    require(
        "the MCP Python SDK",
        python_can("import mcp.client.streamable_http"),
        "pip install 'mcp>=2.3,<3' (bash .ci/deps)",
    )
}

/// `r` of a `RateLimit: "demo";r=N;t=S` header.
fn remaining(res: &Response) -> u64 {
    let header = res.header("ratelimit").unwrap();
    let r = header
        .split(';')
        .find_map(|p| p.strip_prefix("r="))
        .unwrap();
    r.parse().unwrap()
}

fn dry_run(app: &TestApp, body: &Value) -> Response {
    app.request(
        "POST",
        "/api/brand-spec/northwind/demo",
        &[("Content-Type", "application/json")],
        Some(body.to_string().as_bytes()),
    )
}

#[test]
fn an_mcp_client_reads_every_brand_runs_its_prompts_and_hears_of_edits() {
    if !mcp_client_available() {
        return;
    }
    let ws = workspace();
    let mut args = serve_args(&ws.root);
    // One shared budget, refilled slowly enough not to move during the test.
    args.demo_burst = Some(20);
    args.demo_per_minute = Some(1);
    let app = spawn_with(args);
    let vars =
        json!({"product": "Fjord Shell jacket", "facts": "310 g, 2-layer nylon", "words": "80"});
    let demo = dry_run(
        &app,
        &json!({"promptId": "product-description", "variables": vars}),
    );
    assert_eq!(demo.status, 200, "{}", demo.text());
    let before = remaining(&demo);
    // What GET serves now (the client edits a file at its end).
    let mut served = std::collections::HashMap::new();
    for slug in ["northwind", "lumen-health"] {
        for file in [
            "spec.md",
            "spec.json",
            "tokens.css",
            "tokens.figma.json",
            "llms.txt",
        ] {
            let path = format!("/brand/{slug}/{file}");
            let res = app.get(&path);
            assert_eq!(res.status, 200);
            served.insert(path, res);
        }
    }

    let out = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/it/mcp_client.py"
        ))
        .arg(format!("{}/mcp", app.public_url))
        .arg(ws.root.join("northwind/brand.json"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "the client failed:\n{stderr}");
    assert!(!stderr.contains("termination failed"), "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();

    let init = &report["initialize"];
    assert_eq!(init["serverName"], "marque");
    assert!(
        init["protocolVersion"].as_str().unwrap() >= "2025-06-18",
        "{init}"
    );
    assert_eq!(init["capabilities"]["resources"]["listChanged"], true);
    assert_eq!(init["capabilities"]["prompts"]["listChanged"], true);

    // Resources: five surfaces of each brand, named by their HTTP URLs,
    // with the sizes and bytes that GET serves.
    let resources = report["resources"].as_array().unwrap();
    assert_eq!(resources.len(), 10, "{resources:?}");
    for r in resources {
        let uri = r["uri"].as_str().unwrap();
        let path = uri.strip_prefix(&app.public_url).unwrap();
        let served = &served[path];
        assert_eq!(r["size"], served.body.len(), "{uri}");
        let media = served
            .header("content-type")
            .unwrap()
            .split(';')
            .next()
            .unwrap();
        assert_eq!(r["mimeType"], media, "{uri}");
        assert!(r["description"].as_str().unwrap().len() > 20);
    }
    let templates: Vec<&str> = report["templates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["uriTemplate"].as_str().unwrap())
        .collect();
    assert!(templates.contains(&format!("{}/brand/{{slug}}/spec.md", app.public_url).as_str()));
    assert!(templates
        .contains(&format!("{}/brand/{{slug}}@{{version}}/tokens.css", app.public_url).as_str()));
    let spec_md = served["/brand/northwind/spec.md"].text();
    assert_eq!(report["read"]["text"], spec_md.as_str());
    assert_eq!(report["read"]["mimeType"], "text/markdown");
    assert_eq!(report["readUnknown"]["code"], -32002);

    // Prompts: the kit, one to one, and the demo's messages and errors.
    let prompts = report["prompts"].as_array().unwrap();
    let names: Vec<&str> = prompts
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "lumen-health/appointment-reminder",
            "lumen-health/explain-term",
            "northwind/product-description",
            "northwind/weather-notice",
            "northwind/rewrite-in-voice"
        ]
    );
    let product = &prompts[2];
    assert_eq!(
        product["arguments"],
        json!([
            {"name": "product", "description": "Product name.", "required": true},
            {"name": "facts", "description": "Weights, materials, ratings.", "required": true},
            {"name": "words", "description": "Target length in words.", "required": true},
            {"name": "season", "description": "Season, if any.", "required": false}
        ])
    );
    let messages = demo.json()["messages"].clone();
    let got = &report["getPrompt"]["messages"];
    assert_eq!(
        got[0]["content"]["resource"]["text"],
        messages[0]["content"]
    );
    assert_eq!(got[1]["content"]["text"], messages[1]["content"]);
    let missing = report["getPromptMissing"]["message"].as_str().unwrap();
    assert_eq!(report["getPromptMissing"]["code"], -32602);
    assert!(
        missing.contains("missing: product, facts, words"),
        "{missing}"
    );
    let unknown = report["getPromptUnknown"]["message"].as_str().unwrap();
    assert!(
        unknown.contains("product-description, weather-notice, rewrite-in-voice"),
        "{unknown}"
    );
    assert!(report["getPromptUnknownBrand"]["message"]
        .as_str()
        .unwrap()
        .contains("no brand named \"nowhere\""));

    // Tools, each with its schemas, good and bad calls.
    let tools = report["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "list_brands",
            "get_brand",
            "find_tokens",
            "check_contrast",
            "run_prompt"
        ]
    );
    assert!(tools
        .iter()
        .all(|t| t["inputSchema"]["type"] == "object" && t["outputSchema"].is_object()));
    let call = &report["call"];
    assert_eq!(
        call["list_brands"]["structured"]["brands"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert!(call["get_brand"]["structured"]["voice"]["traits"].is_array());
    assert_eq!(call["get_brand_bad_section"]["isError"], true);
    assert!(call["get_brand_bad_section"]["text"]
        .as_str()
        .unwrap()
        .contains("voice, audience"));
    assert_eq!(call["get_brand_unknown"]["isError"], true);
    let fjord = &call["find_tokens"]["structured"]["tokens"];
    assert_eq!(fjord.as_array().unwrap().len(), 3);
    assert_eq!(fjord[0]["name"], "color.fjord.900");
    assert_eq!(fjord[0]["cssVariable"], "--color-fjord-900");
    assert_eq!(fjord[0]["value"]["hex"], "#0a2742");
    let css = app.get("/brand/northwind/tokens.css").text();
    assert!(
        css.contains("--color-fjord-900: #0a2742"),
        "the variable tokens.css defines"
    );
    let typography = &call["find_tokens_type"]["structured"]["tokens"];
    assert_eq!(typography[0]["alias"], Value::Null);
    assert!(
        !typography[0]["value"].to_string().contains("\"{"),
        "aliases inside values are resolved: {}",
        typography[0]["value"]
    );
    let contrast = &call["check_contrast"]["structured"];
    assert_eq!(contrast["foreground"], "#0a2742");
    assert!(
        contrast["ratio"].as_f64().unwrap() > 14.0 && contrast["aaa"] == true,
        "{contrast}"
    );
    // A contrast pair of the brand: the same ratio and verdict as spec.json's.
    let spec = app.get("/brand/northwind/spec.json").json();
    let pair = spec["color"]["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["foreground"] == "{color.fjord.900}" && p["background"] == "{color.signal.500}")
        .expect("northwind has the pair");
    let checked = &call["check_contrast_pair"]["structured"];
    assert_eq!(checked["ratio"], pair["contrast"], "{checked} vs {pair}");
    assert_eq!(pair["level"], "AA");
    assert_eq!(checked["aa"], pair["passes"], "{checked} vs {pair}");
    assert_eq!(call["check_contrast_bad"]["isError"], true);
    assert_eq!(call["run_prompt"]["structured"]["messages"], messages);
    assert_eq!(call["run_prompt_bad"]["isError"], true);
    assert_eq!(report["unknownTool"]["code"], -32602);

    // An edit is announced to the open session, and the next read has it.
    assert_eq!(
        report["listChanged"],
        json!({"resources": true, "prompts": true})
    );
    assert_eq!(report["readAfterEdit"], true);

    // run_prompt spends the same per-client budget as the HTTP demo.
    let after = remaining(&dry_run(
        &app,
        &json!({"promptId": "product-description", "variables": vars}),
    ));
    assert_eq!(after, before - 3, "two run_prompt calls and this one");
    println!("median latency, ms: {}", report["latencyMs"]);
}

/// An MCP initialize request.
fn initialize() -> Vec<u8> {
    json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    })
    .to_string()
    .into_bytes()
}

const MCP_HEADERS: &[(&str, &str)] = &[
    ("Content-Type", "application/json"),
    ("Accept", "application/json, text/event-stream"),
];

#[test]
fn mcp_checks_origins_and_body_size_and_can_be_turned_off() {
    let mut args = serve_args(&example_content());
    args.mcp_allowed_origins = vec!["https://studio.example.com".into()];
    let app = spawn_with(args);
    let post = |extra: &[(&str, &str)], body: &[u8]| {
        let headers = [MCP_HEADERS, extra].concat();
        raw_request(app.addr, "POST", "/mcp", &headers, Some(body))
    };
    let ok = post(&[], &initialize());
    assert_eq!(ok.status, 200, "{}", ok.text());
    assert!(ok.header("mcp-session-id").is_some());
    assert_eq!(
        post(&[("Origin", "https://studio.example.com")], &initialize()).status,
        200
    );
    assert_eq!(
        post(&[("Origin", &app.public_url)], &initialize()).status,
        200
    );
    let evil = post(&[("Origin", "https://evil.example")], &initialize());
    assert_eq!(evil.status, 403, "{}", evil.text());
    let huge = vec![b' '; 300 * 1024];
    assert_eq!(post(&[], &[initialize(), huge].concat()).status, 413);
    let no_session = raw_request(
        app.addr,
        "GET",
        "/mcp",
        &[("Accept", "text/event-stream")],
        None,
    );
    assert!(
        (400..500).contains(&no_session.status),
        "{}",
        no_session.status
    );

    // Discovery documents name the endpoint while it answers, and only then.
    let endpoint = format!("{}/mcp", app.public_url);
    for path in ["/llms.txt", "/brand/northwind/llms.txt", "/brand/northwind"] {
        assert!(app.get(path).text().contains(&endpoint), "{path}");
    }

    let mut off = serve_args(&example_content());
    off.no_mcp = true;
    let off = spawn_with(off);
    let res = raw_request(off.addr, "POST", "/mcp", MCP_HEADERS, Some(&initialize()));
    assert_eq!(res.status, 404);
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    for path in ["/llms.txt", "/brand/northwind/llms.txt", "/brand/northwind"] {
        assert!(!off.get(path).text().contains("/mcp"), "{path}");
    }
}
