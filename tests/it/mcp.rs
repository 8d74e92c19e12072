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
    let mut args = serve_config(&ws.root);
    // One shared budget, refilled slowly enough not to move during the test.
    args.demo.burst = 20;
    args.demo.per_minute = 1;
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
        for file in marque::render::Surface::ALL.map(|s| s.file()) {
            let path = format!("/brand/{slug}/{file}");
            let res = app.get(&path);
            assert_eq!(res.status, 200);
            served.insert(path, res);
        }
        let others = marque::render::outputs::OUTPUTS
            .iter()
            .filter(|o| !matches!(o.kind, marque::render::outputs::Kind::Surface(_)));
        for file in others.map(|o| o.file) {
            let path = format!("/brand/{slug}/{file}");
            let res = app.get(&path);
            if res.status == 200 {
                served.insert(path, res);
            }
        }
    }

    let out = std::process::Command::new("python3")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/it/support/mcp_client.py"
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

    // Resources: every surface of each brand, named by their HTTP URLs,
    // with the sizes and bytes that GET serves.
    let resources = report["resources"].as_array().unwrap();
    let surfaces = resources
        .iter()
        .filter(|r| {
            let uri = r["uri"].as_str().unwrap();
            marque::render::Surface::ALL
                .iter()
                .any(|s| uri.ends_with(&format!("/{}", s.file())))
        })
        .count();
    assert_eq!(
        surfaces,
        2 * marque::render::Surface::ALL.len(),
        "{resources:?}"
    );
    // Then each brand's changelog, in Markdown and JSON, and what apps
    // take: the three zips and the Android files each has (Lumen Health a
    // values-night, Northwind none).
    assert_eq!(resources.len(), surfaces + 2 * 2 + 5 + 4, "{resources:?}");
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
    // A template per output of the registry, text or blob, at each key
    // that serves it: package.tgz only a release's, the changelog only
    // the current version's.
    let mut expected = Vec::new();
    for o in &marque::render::outputs::OUTPUTS {
        use marque::render::outputs::Serves;
        let at = |key: &str| {
            (
                format!("{}/brand/{key}/{}", app.public_url, o.file),
                o.mime(),
            )
        };
        if o.serves != Serves::Releases {
            expected.push(at("{slug}"));
        }
        if o.serves != Serves::Current {
            expected.push(at("{slug}@{version}"));
        }
    }
    let mut listed: Vec<(String, &str)> = report["templates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["uriTemplate"].as_str().unwrap().to_string(),
                t["mimeType"].as_str().unwrap(),
            )
        })
        .collect();
    listed.sort();
    expected.sort();
    assert_eq!(listed, expected);
    for binary in ["{slug}/ios.zip", "{slug}@{version}/package.tgz"] {
        let uri = format!("{}/brand/{binary}", app.public_url);
        assert!(templates.contains(&uri.as_str()), "{uri}");
    }
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
            "northwind/rewrite-in-voice",
            "check-styles"
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
            "check_code",
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
    // A mode: values as they are in that context.
    let ink = &call["find_tokens_dark"]["structured"]["tokens"][0];
    assert_eq!(ink["name"], "color.ink");
    assert_eq!(
        ink["value"]["hex"], "#fdfcf9",
        "light ink in the dark theme"
    );
    assert_eq!(call["find_tokens_bad_mode"]["isError"], true);
    assert!(call["find_tokens_bad_mode"]["text"]
        .as_str()
        .unwrap()
        .contains("modes: theme=dark"));
    let dark = &call["get_brand_dark"]["structured"];
    assert!(dark["color"]["pairs"].is_array());
    assert_eq!(dark["mode"]["attribute"], "data-theme=\"dark\"");
    assert_eq!(dark["mode"]["tokens"]["color.paper"]["hex"], "#1a2028");
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
    let mut args = serve_config(&example_content());
    args.mcp.as_mut().unwrap().allowed_origins = vec!["https://studio.example.com".into()];
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

    let mut off = serve_config(&example_content());
    off.mcp = None;
    let off = spawn_with(off);
    let res = raw_request(off.addr, "POST", "/mcp", MCP_HEADERS, Some(&initialize()));
    assert_eq!(res.status, 404);
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    for path in ["/llms.txt", "/brand/northwind/llms.txt", "/brand/northwind"] {
        assert!(!off.get(path).text().contains("/mcp"), "{path}");
    }
}

const ACCEPT: (&str, &str) = ("Accept", "application/json, text/event-stream");
const JSON: (&str, &str) = ("Content-Type", "application/json");

/// An `initialize` whose client info carries `pad` bytes (held for the
/// session's life), from `client` (an `X-Forwarded-For` the server trusts).
fn initialize_from(app: &TestApp, client: &str, pad: usize) -> Response {
    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "probe", "version": "0", "title": "p".repeat(pad)}}
    });
    app.request(
        "POST",
        "/mcp",
        &[JSON, ACCEPT, ("X-Forwarded-For", client)],
        Some(body.to_string().as_bytes()),
    )
}

/// A session, initialized, and its id.
pub(crate) fn session(app: &TestApp, client: &str) -> String {
    let res = initialize_from(app, client, 0);
    assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
    let sid = res.header("mcp-session-id").unwrap().to_string();
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    let res = app.request(
        "POST",
        "/mcp",
        &[JSON, ACCEPT, ("Mcp-Session-Id", &sid)],
        Some(note.as_bytes()),
    );
    assert_eq!(res.status, 202);
    sid
}

/// The JSON-RPC messages of an answer, as JSON or as server-sent events.
fn messages(res: &Response) -> Vec<Value> {
    let text = String::from_utf8_lossy(&res.body);
    if res
        .header("content-type")
        .is_some_and(|c| c.starts_with("text/event-stream"))
    {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .collect()
    } else {
        vec![serde_json::from_str(&text).unwrap()]
    }
}

fn metric(app: &TestApp, line: &str) -> u64 {
    let text = app.get("/metrics").text();
    text.lines()
        .find_map(|l| l.strip_prefix(line)?.trim().parse().ok())
        .unwrap_or_else(|| panic!("{line} in /metrics"))
}

/// Resident memory of this process, in KiB.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[test]
fn mcp_sessions_are_capped_per_client_and_in_all_and_refused_clearly() {
    let mut args = serve_config(&example_content());
    args.mcp.as_mut().unwrap().sessions.total = 200;
    args.mcp.as_mut().unwrap().sessions.per_client = 8;
    args.mcp.as_mut().unwrap().sessions.initialize_per_minute = 10_000;
    args.trusted_proxy = vec!["127.0.0.1/32".parse().unwrap()];
    let app = spawn_with(args);
    let before = rss_kib();
    // 25 clients fill the table, each with its 8 sessions and the largest
    // client info an initialize may carry.
    for c in 0..25 {
        let client = format!("10.0.{c}.1");
        for _ in 0..8 {
            let res = initialize_from(&app, &client, 15 * 1024);
            assert_eq!(res.status, 200, "{}", String::from_utf8_lossy(&res.body));
        }
        // A ninth from the same client is refused, with a JSON-RPC error.
        let res = initialize_from(&app, &client, 0);
        assert_eq!(res.status, 429, "{}", String::from_utf8_lossy(&res.body));
        assert!(res.header("retry-after").is_some());
        assert_eq!(res.header("content-type"), Some("application/json"));
        let error = &messages(&res)[0]["error"];
        assert_eq!(error["code"], -32000);
        assert!(error["message"].as_str().unwrap().contains("8"), "{error}");
    }
    let per_session = (rss_kib().saturating_sub(before)) / 200;
    println!("about {per_session} KiB per open MCP session");
    assert!(per_session < 256, "{per_session} KiB per session");
    // The server is full: a new client is refused too, with 503.
    let res = initialize_from(&app, "10.9.9.9", 0);
    assert_eq!(res.status, 503);
    assert_eq!(messages(&res)[0]["error"]["code"], -32000);
    // An initialize too large to hold for a session's life is refused.
    assert_eq!(initialize_from(&app, "10.9.9.8", 20 * 1024).status, 413);
    assert_eq!(metric(&app, "marque_mcp_sessions "), 200);
    assert_eq!(
        metric(
            &app,
            "marque_mcp_sessions_refused_total{reason=\"client\"} "
        ),
        25
    );
    assert_eq!(
        metric(
            &app,
            "marque_mcp_sessions_refused_total{reason=\"sessions\"} "
        ),
        1
    );
}

#[test]
fn mcp_answers_what_json_rpc_and_the_transport_say() {
    let mut args = serve_config(&example_content());
    args.mcp.as_mut().unwrap().sessions.idle = std::time::Duration::from_millis(600);
    let app = spawn_with(args);
    let sid = session(&app, "127.0.0.1");
    let post = |body: &[u8]| {
        app.request(
            "POST",
            "/mcp",
            &[JSON, ACCEPT, ("Mcp-Session-Id", &sid)],
            Some(body),
        )
    };
    for (body, code) in [
        (&b"{not json"[..], -32700),
        (b"42", -32600),
        (
            br#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#,
            -32600,
        ),
        (br#"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#, -32600),
    ] {
        let res = post(body);
        assert_eq!(res.status, 400, "{}", String::from_utf8_lossy(body));
        assert_eq!(messages(&res)[0]["error"]["code"], code);
    }
    // Params of the wrong shape are invalid params, not an unknown method.
    let res = post(br#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":5}}"#);
    assert_eq!(messages(&res)[0]["error"]["code"], -32602);
    // Only this server's URLs are resources, and a long input is quoted short.
    let foreign = format!(
        r#"{{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{{"uri":"file:///etc/brand/northwind/spec.md{}"}}}}"#,
        "a".repeat(100_000)
    );
    let error = messages(&post(foreign.as_bytes()))[0]["error"].clone();
    assert_eq!(error["code"], -32002);
    assert!(error["message"].as_str().unwrap().len() < 400, "{error}");
    let own = format!(
        r#"{{"jsonrpc":"2.0","id":4,"method":"resources/read","params":{{"uri":"{}/brand/northwind/spec.md"}}}}"#,
        app.public_url
    );
    assert!(messages(&post(own.as_bytes()))[0]["result"]["contents"].is_array());
    // DELETE of a session that does not exist is 404; of one that does, 204.
    let delete = |id: &str| app.request("DELETE", "/mcp", &[("Mcp-Session-Id", id)], None);
    assert_eq!(delete("00000000-0000-0000-0000-000000000000").status, 404);
    assert_eq!(delete(&sid).status, 204);
    assert_eq!(delete(&sid).status, 404);
    // An idle session ends by itself and gives its place back.
    let idle = session(&app, "127.0.0.1");
    app.wait_until(
        |a| metric(a, "marque_mcp_sessions_expired_total ") >= 1,
        "the idle session expires",
    );
    let res = app.request(
        "POST",
        "/mcp",
        &[JSON, ACCEPT, ("Mcp-Session-Id", &idle)],
        Some(br#"{"jsonrpc":"2.0","id":5,"method":"tools/list"}"#),
    );
    assert_eq!(res.status, 404);
    assert_eq!(metric(&app, "marque_mcp_sessions "), 0);
}

#[test]
fn a_hundred_large_hostile_mcp_requests_add_little_to_the_log() {
    let cache = tempfile::tempdir().unwrap();
    let log = cache.path().join("marque.log");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    /// Stops the server however the test ends.
    struct Killed(std::process::Child);
    impl Drop for Killed {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["serve", "--no-watch", "--listen"])
        .arg(format!("127.0.0.1:{port}"))
        .arg("--content")
        .arg(example_content())
        .arg("--cache-dir")
        .arg(cache.path())
        .env_remove("RUST_LOG")
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let child = Killed(child);
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let started = std::time::Instant::now();
    let ready = || {
        std::net::TcpStream::connect(addr).is_ok()
            && raw_request(addr, "GET", "/readyz", &[], None).status == 200
    };
    while !ready() {
        assert!(started.elapsed() < std::time::Duration::from_secs(30));
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let post = |headers: &[(&str, &str)], body: &str| {
        raw_request(addr, "POST", "/mcp", headers, Some(body.as_bytes()))
    };
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "l", "version": "0"}}});
    let res = post(&[JSON, ACCEPT], &init.to_string());
    let sid = res.header("mcp-session-id").unwrap().to_string();
    post(
        &[JSON, ACCEPT, ("Mcp-Session-Id", &sid)],
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
    );
    let before = std::fs::metadata(&log).unwrap().len();
    let big = "a".repeat(200_000);
    for i in 0..100 {
        let body = match i % 4 {
            0 => json!({"jsonrpc": "2.0", "id": i, "method": "resources/read",
                        "params": {"uri": format!("http://x/brand/{big}/spec.md")}}),
            1 => json!({"jsonrpc": "2.0", "id": i, "method": big}),
            2 => json!({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                        "params": {"name": big, "arguments": {}}}),
            _ => json!({"jsonrpc": "2.0", "id": i, "method": "prompts/get",
                        "params": {"name": format!("n/{big}")}}),
        };
        post(&[JSON, ACCEPT, ("Mcp-Session-Id", &sid)], &body.to_string());
    }
    // Ten refused initializes too (the per-client cap is 16).
    for _ in 0..26 {
        post(&[JSON, ACCEPT], &init.to_string());
    }
    drop(child);
    let grown = std::fs::metadata(&log).unwrap().len() - before;
    println!("100 hostile MCP requests of 200 KB added {grown} bytes of log");
    assert!(grown < 16 * 1024, "{grown} bytes of log");
}

#[test]
fn mcp_resources_are_a_brands_documents_not_its_assets_of_the_same_name() {
    let ws = workspace();
    std::fs::write(
        ws.root.join("northwind/assets/spec.json"),
        br#"{"an": "asset, not the spec"}"#,
    )
    .unwrap();
    let app = spawn_with(serve_config(&ws.root));
    assert_eq!(app.get("/brand/northwind/assets/spec.json").status, 200);
    let sid = session(&app, "127.0.0.1");
    let read = |path: &str| {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{{"uri":"{}{path}"}}}}"#,
            app.public_url
        );
        let res = app.request(
            "POST",
            "/mcp",
            &[JSON, ACCEPT, ("Mcp-Session-Id", &sid)],
            Some(body.as_bytes()),
        );
        messages(&res)[0].clone()
    };
    let asset = read("/brand/northwind/assets/spec.json");
    assert_eq!(asset["error"]["code"], -32002, "{asset}");
    let spec = read("/brand/northwind/spec.json");
    let text = spec["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(text.contains("\"tokens\""), "the brand's spec.json");
}

/// A JSON-RPC request `method` with `params` in session `sid`, and the
/// message that answers it.
pub(crate) fn rpc(app: &TestApp, sid: &str, method: &str, params: Value) -> Value {
    let body = json!({"jsonrpc": "2.0", "id": 9, "method": method, "params": params});
    let res = app.request(
        "POST",
        "/mcp",
        &[JSON, ACCEPT, ("Mcp-Session-Id", sid)],
        Some(body.to_string().as_bytes()),
    );
    messages(&res).pop().unwrap()
}

/// The URI of every resource `resources/list` gives in session `sid`.
pub(crate) fn resource_uris(app: &TestApp, sid: &str) -> Vec<String> {
    let list = rpc(app, sid, "resources/list", json!({}));
    list["result"]["resources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["uri"].as_str().unwrap().to_string())
        .collect()
}

/// A `tools/call` in session `sid`, and the JSON-RPC message that answers it.
pub(crate) fn call_tool(app: &TestApp, sid: &str, tool: &str, arguments: Value) -> Value {
    rpc(
        app,
        sid,
        "tools/call",
        json!({"name": tool, "arguments": arguments}),
    )
}

/// Each tool's input schema says what its arguments are, and nothing else
/// (`additionalProperties: false`); an argument of another type or name is
/// refused as invalid params (-32602) with a message that names it and
/// what was expected, where `mode: {"theme": "dark"}` used to answer the
/// default's values as though no mode had been asked for.
#[test]
fn mcp_tools_refuse_arguments_of_the_wrong_type_or_name_as_invalid_params() {
    let app = spawn_app(&example_content());
    let sid = session(&app, "127.0.0.1");
    let call = |tool: &str, args: Value| call_tool(&app, &sid, tool, args);
    let refused = |tool: &str, args: Value| -> String {
        let answer = call(tool, args.clone());
        assert_eq!(answer["error"]["code"], -32602, "{tool} {args}: {answer}");
        answer["error"]["message"].as_str().unwrap().to_string()
    };
    for (mode, ty) in [
        (json!({"theme": "dark"}), "an object"),
        (json!(5), "a number"),
        (json!(1.5), "a number"),
        (json!(true), "a boolean"),
        (json!(["dark"]), "an array"),
        (Value::Null, "null"),
    ] {
        for tool in ["find_tokens", "get_brand"] {
            let message = refused(tool, json!({"slug": "lumen-health", "mode": mode}));
            assert_eq!(
                message,
                format!("argument \"mode\" of {tool} must be a string, not {ty}")
            );
        }
    }
    let message = refused("get_brand", json!({"slug": 5}));
    assert!(message.contains("\"slug\""), "{message}");
    let message = refused(
        "find_tokens",
        json!({"slug": "lumen-health", "prefix": "color.ink", "limit": 3}),
    );
    assert_eq!(
        message,
        "find_tokens has no argument \"limit\"; it takes slug, prefix, type, text, mode"
    );
    let message = refused("get_brand", json!({"slug": "lumen-health", "mdoe": "dark"}));
    assert!(message.contains("(did you mean \"mode\"?)"), "{message}");
    let message = refused("list_brands", json!({"all": true}));
    assert!(message.ends_with("it takes no arguments"), "{message}");
    let message = refused(
        "run_prompt",
        json!({"slug": "northwind", "promptId": "product-description", "variables": {"words": 80}}),
    );
    assert_eq!(
        message,
        "argument \"variables.words\" of run_prompt must be a string, not a number"
    );
    // A hostile name is quoted short.
    let long: serde_json::Map<String, Value> =
        [("x".repeat(100_000), json!(1))].into_iter().collect();
    let message = refused("check_contrast", Value::Object(long));
    assert!(message.len() < 400, "{} bytes", message.len());

    // Arguments of the right types answer as before: a mode by name, and
    // a mode the brand does not have is a tool error the model reads.
    let dark = call(
        "find_tokens",
        json!({"slug": "lumen-health", "prefix": "color.ink", "mode": "theme=dark"}),
    );
    assert_eq!(
        dark["result"]["structuredContent"]["tokens"][0]["value"]["hex"], "#fdfcf9",
        "{dark}"
    );
    let light = call(
        "find_tokens",
        json!({"slug": "lumen-health", "prefix": "color.ink"}),
    );
    assert_ne!(
        light["result"]["structuredContent"]["tokens"][0]["value"]["hex"], "#fdfcf9",
        "{light}"
    );
    let dusk = call(
        "find_tokens",
        json!({"slug": "lumen-health", "mode": "dusk"}),
    );
    assert_eq!(dusk["result"]["isError"], true, "{dusk}");
}
