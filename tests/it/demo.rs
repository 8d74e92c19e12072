//! The prompt demo: every row of DESIGN §6's table, the rate limit, and the
//! OpenAI and Anthropic clients against real local servers that speak their
//! wire formats.

use crate::helpers::*;
use crate::llm_mock::*;
use marque::demo::llm::ProviderKind;
use serde_json::{json, Value};
use std::time::Duration;

const KEY: &str = "sk-test-0123456789-secret";

fn demo_path(slug: &str) -> String {
    format!("/api/brand-spec/{slug}/demo")
}

fn post(app: &TestApp, slug: &str, body: &str) -> Response {
    app.request(
        "POST",
        &demo_path(slug),
        &[("Content-Type", "application/json")],
        Some(body.as_bytes()),
    )
}

fn notice() -> String {
    json!({"promptId": "weather-notice", "variables": {"location": "our Tromsø store", "forecast": "sleet from 14:00"}}).to_string()
}

fn with_llm(
    kind: ProviderKind,
    mock: &MockLlm,
    f: impl FnOnce(&mut marque::config::ServeConfig),
) -> TestApp {
    let mut args = serve_config(&example_content());
    args.demo.provider = kind;
    args.demo.base_url = Some(mock.base_url());
    args.demo.model = Some("test-model".into());
    args.demo.api_key = Some(KEY.into());
    args.demo.burst = 100;
    args.demo.per_minute = 1000;
    f(&mut args);
    spawn_with(args)
}

fn problem(res: &Response, status: u16) -> Value {
    assert_eq!(res.status, status, "{}", String::from_utf8_lossy(&res.body));
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    let body = res.json();
    assert_eq!(body["status"], status);
    assert!(
        res.header("ratelimit").is_some() && res.header("ratelimit-policy").is_some(),
        "RateLimit headers on every demo response"
    );
    body
}

#[test]
fn dry_run_is_the_default_and_returns_the_exact_messages() {
    let app = spawn_app(&example_content());
    let res = post(&app, "northwind", &notice());
    assert_eq!(res.status, 200, "{}", res.text());
    // A dry run calls no model: its own, higher limit.
    assert_eq!(res.header("ratelimit-policy"), Some("\"demo\";q=60;w=60"));
    assert_eq!(res.header("ratelimit"), Some("\"demo\";r=19;t=1"));
    let body = res.json();
    assert_eq!(body["provider"], "dry-run");
    assert_eq!(body["output"], Value::Null);
    assert_eq!(body["brand"], "northwind");
    assert_eq!(body["specVersion"], "2.4.0");
    assert_eq!(body["promptId"], "weather-notice");
    let spec_md = app.get("/brand/northwind/spec.md").text();
    assert_eq!(
        body["messages"][0],
        json!({"role": "system", "content": spec_md}),
        "no prompt system text: spec.md alone"
    );
    assert_eq!(
        body["messages"][1]["content"],
        "Write a short notice for our Tromsø store about this forecast: sleet from 14:00. Say what people should do."
    );
    // The request body a model's API would get, and an estimate of its size.
    assert_eq!(body["request"]["messages"], body["messages"]);
    assert_eq!(body["request"]["max_tokens"], 200);
    assert_eq!(body["request"]["temperature"], 0.3);
    let chars = spec_md.chars().count()
        + body["messages"][1]["content"]
            .as_str()
            .unwrap()
            .chars()
            .count();
    assert_eq!(body["usage"]["inputTokens"], chars.div_ceil(4));
    assert_eq!(body["usage"]["estimated"], true);
    // A prompt with its own system text appends it; an optional variable defaults to empty.
    let res = post(&app, "northwind", &json!({"promptId": "product-description", "variables": {"product": "Fjell", "facts": "310 g", "words": "80"}}).to_string());
    let body = res.json();
    assert_eq!(
        body["messages"][0]["content"],
        format!("{spec_md}\n\nYou write product copy for Northwind Outfitters. Use metric units.")
    );
    assert_eq!(
        body["messages"][1]["content"],
        "Write a product description of about 80 words for Fjell.\nKey facts: 310 g\n"
    );
}

#[test]
fn every_client_error_row_has_its_status_and_problem_body() {
    let mut args = serve_config(&example_content());
    args.demo.burst = 100;
    let app = spawn_with(args);
    let path = demo_path("northwind");

    let res = app.request(
        "POST",
        &path,
        &[("Content-Type", "text/plain")],
        Some(notice().as_bytes()),
    );
    problem(&res, 415);
    let res = app.request("POST", &path, &[], Some(notice().as_bytes()));
    problem(&res, 415);

    let big =
        json!({"promptId": "weather-notice", "variables": {"location": "x".repeat(17 * 1024)}})
            .to_string();
    problem(&post(&app, "northwind", &big), 413);

    let body = problem(&post(&app, "northwind", "{\"promptId\": "), 400);
    assert!(body["detail"].as_str().unwrap().contains("not valid JSON"));

    let body = problem(
        &post(
            &app,
            "northwind",
            r#"{"promptId": 7, "variables": {"location": 1}}"#,
        ),
        422,
    );
    let pointers: Vec<&str> = body["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(pointers, ["/promptId", "/variables/location"]);
    let body = problem(
        &post(
            &app,
            "northwind",
            r#"{"promptId": "weather-notice", "variables": ["a"]}"#,
        ),
        422,
    );
    assert_eq!(body["errors"][0]["pointer"], "/variables");
    problem(&post(&app, "northwind", "[1, 2]"), 422);

    let body = problem(&post(&app, "nope", &notice()), 404);
    assert!(body["detail"].as_str().unwrap().contains("nope"));

    let body = problem(&post(&app, "northwind", r#"{"promptId": "haiku"}"#), 404);
    assert_eq!(
        body["promptIds"],
        json!(["product-description", "weather-notice", "rewrite-in-voice"])
    );

    let body = problem(
        &post(&app, "northwind", &json!({"promptId": "weather-notice", "variables": {"location": "x".repeat(81), "mood": "grim"}}).to_string()),
        422,
    );
    assert_eq!(body["missing"], json!(["forecast"]));
    assert_eq!(body["unknown"], json!(["mood"]));
    assert_eq!(
        body["tooLong"],
        json!([{"name": "location", "maxLength": 80, "length": 81}])
    );
}

#[test]
fn other_methods_on_the_demo_are_405() {
    let app = spawn_app(&example_content());
    let res = app.get(&demo_path("northwind"));
    assert_eq!(res.status, 405);
    assert_eq!(res.header("allow"), Some("POST"));
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
}

#[test]
fn every_request_counts_against_the_clients_limit() {
    let mut args = serve_config(&example_content());
    args.demo.burst = 2;
    args.demo.per_minute = 2;
    let app = spawn_with(args);
    // Malformed requests count too.
    assert_eq!(post(&app, "northwind", "nonsense").status, 400);
    assert_eq!(post(&app, "northwind", &notice()).status, 200);
    let res = post(&app, "northwind", &notice());
    let body = problem(&res, 429);
    let retry: u64 = res.header("retry-after").unwrap().parse().unwrap();
    assert!(
        (1..=30).contains(&retry),
        "Retry-After rounds up and is never 0: {retry}"
    );
    assert!(body["detail"].as_str().unwrap().contains("try again"));
    // `t` is when the burst is full again, refused or allowed alike: the
    // next request after Retry-After, the second a period (30 s) later.
    assert_eq!(
        res.header("ratelimit"),
        Some(format!("\"demo\";r=0;t={}", retry + 30).as_str())
    );
    // GET surfaces are never limited.
    for _ in 0..20 {
        assert_eq!(app.get("/brand/northwind/spec.json").status, 200);
    }
    // A spoofed X-Forwarded-For from an untrusted peer does not buy a new quota.
    let res = app.request(
        "POST",
        &demo_path("northwind"),
        &[
            ("Content-Type", "application/json"),
            ("X-Forwarded-For", "203.0.113.50"),
            ("Forwarded", "for=203.0.113.51"),
        ],
        Some(notice().as_bytes()),
    );
    assert_eq!(res.status, 429);
    // Without Redis, every one of those requests was decided here, and says so.
    let limiter = &app.get("/status").json()["demoLimiter"];
    assert_eq!(limiter["mode"], "local");
    assert_eq!(limiter["decidedLocally"], 4);
    assert_eq!(limiter["decidedByRedis"], 0);
    assert!(app
        .get("/metrics")
        .text()
        .contains("marque_demo_decisions_total{limiter=\"local\"} 4"));
}

#[test]
fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_quota() {
    let mut args = serve_config(&example_content());
    args.demo.burst = 1;
    args.demo.per_minute = 1;
    args.trusted_proxy = vec!["127.0.0.0/8".parse().unwrap()];
    let app = spawn_with(args);
    let call = |xff: &str| {
        app.request(
            "POST",
            &demo_path("northwind"),
            &[
                ("Content-Type", "application/json"),
                ("X-Forwarded-For", xff),
            ],
            Some(notice().as_bytes()),
        )
        .status
    };
    assert_eq!(call("198.51.100.1"), 200);
    assert_eq!(call("198.51.100.1"), 429);
    assert_eq!(call("198.51.100.2"), 200, "another client behind the proxy");
    // The client cannot escape by prepending a forged address: the rightmost untrusted hop counts.
    assert_eq!(call("6.6.6.6, 198.51.100.1"), 429);
}

#[test]
fn openai_compatible_call_sends_the_brand_and_returns_the_answer() {
    let mock = MockLlm::start(Wire::OpenAi);
    let app = with_llm(ProviderKind::Openai, &mock, |_| {});
    let res = post(&app, "northwind", &notice());
    assert_eq!(res.status, 200, "{}", res.text());
    let body = res.json();
    assert_eq!(body["provider"], "openai");
    assert_eq!(body["output"], "A calm notice.");
    assert_eq!(
        body["usage"],
        json!({"inputTokens": 1200, "outputTokens": 12})
    );
    assert_eq!(body["model"], "test-model");
    assert!(body["latencyMs"].is_u64());
    assert!(body.get("messages").is_none());

    let sent = mock.requests();
    assert_eq!(sent.len(), 1);
    let r = &sent[0];
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(r.headers["authorization"], format!("Bearer {KEY}"));
    assert_eq!(r.body["model"], "test-model");
    assert_eq!(r.body["max_tokens"], 200);
    assert_eq!(r.body["temperature"], 0.3);
    let spec_md = app.get("/brand/northwind/spec.md").text();
    assert_eq!(
        r.body["messages"][0],
        json!({"role": "system", "content": spec_md})
    );
    assert_eq!(r.body["messages"][1]["role"], "user");
    assert!(r.body["messages"][1]["content"]
        .as_str()
        .unwrap()
        .contains("sleet from 14:00"));
    assert!(
        !res.text().contains(KEY) && !app.get("/status").text().contains(KEY),
        "the key is never echoed"
    );
}

#[test]
fn anthropic_call_uses_the_messages_api() {
    let mock = MockLlm::start(Wire::Anthropic);
    let app = with_llm(ProviderKind::Anthropic, &mock, |a| a.demo.max_tokens = 100);
    let res = post(
        &app,
        "lumen-health",
        &json!({"promptId": "explain-term", "variables": {"term": "HbA1c", "sentences": "3"}})
            .to_string(),
    );
    assert_eq!(res.status, 200, "{}", res.text());
    let body = res.json();
    assert_eq!(body["provider"], "anthropic");
    assert_eq!(body["output"], "A calm notice.");
    assert_eq!(
        body["usage"],
        json!({"inputTokens": 1300, "outputTokens": 9})
    );
    let r = &mock.requests()[0];
    assert_eq!(r.path, "/v1/messages");
    assert_eq!(r.headers["x-api-key"], KEY);
    assert_eq!(r.headers["anthropic-version"], "2023-06-01");
    assert!(r.headers.get("authorization").is_none());
    assert_eq!(
        r.body["max_tokens"], 100,
        "the prompt's 300 is capped by --llm-max-tokens"
    );
    assert!(
        r.body.get("temperature").is_none(),
        "no temperature when the prompt sets none"
    );
    assert_eq!(
        r.body["system"],
        app.get("/brand/lumen-health/spec.md").text()
    );
    assert_eq!(
        r.body["messages"],
        json!([{"role": "user", "content": "Explain HbA1c in plain language for a patient, in 3 sentences."}])
    );
}

/// The texts of the `delta` events, in order.
fn deltas(events: &[(String, Value)]) -> Vec<&str> {
    events
        .iter()
        .filter(|(e, _)| e == "delta")
        .map(|(_, d)| d["text"].as_str().unwrap())
        .collect()
}

/// Splits an SSE body into (event, data) pairs.
fn sse_events(text: &str) -> Vec<(String, Value)> {
    text.split("\n\n")
        .filter_map(|block| {
            let event = block
                .lines()
                .find_map(|l| l.strip_prefix("event:"))?
                .trim()
                .to_string();
            let data = block.lines().find_map(|l| l.strip_prefix("data:"))?.trim();
            Some((event, serde_json::from_str(data).unwrap()))
        })
        .collect()
}

fn post_stream(app: &TestApp, slug: &str, body: &str) -> Response {
    app.request(
        "POST",
        &demo_path(slug),
        &[
            ("Content-Type", "application/json"),
            ("Accept", "text/event-stream"),
        ],
        Some(body.as_bytes()),
    )
}

#[test]
fn a_dry_run_streams_a_placeholder_then_the_same_answer() {
    let app = spawn_app(&example_content());
    let res = post_stream(&app, "northwind", &notice());
    assert_eq!(res.status, 200);
    assert_eq!(res.header("content-type"), Some("text/event-stream"));
    let events = sse_events(&res.text());
    let deltas = deltas(&events);
    assert!(deltas.len() > 5, "{deltas:?}");
    assert_eq!(deltas.concat(), marque::http::demo::DRY_RUN_PLACEHOLDER);
    let (last, done) = events.last().unwrap();
    assert_eq!(last, "done");
    assert_eq!(done["provider"], "dry-run");
    assert_eq!(done["output"], Value::Null);
    assert_eq!(done["request"]["stream"], true);
    assert!(done["usage"]["inputTokens"].as_u64().unwrap() > 1000);
}

#[test]
fn streams_are_relayed_as_server_sent_events() {
    for (wire, kind, reply) in [
        (
            Wire::OpenAi,
            ProviderKind::Openai,
            openai_stream(&["Calm ", "and ", "clear."]),
        ),
        (
            Wire::Anthropic,
            ProviderKind::Anthropic,
            anthropic_stream(&["Calm ", "and ", "clear."]),
        ),
    ] {
        let mock = MockLlm::start(wire);
        mock.push(reply);
        let app = with_llm(kind, &mock, |_| {});
        let res = post_stream(&app, "northwind", &notice());
        assert_eq!(res.status, 200);
        assert_eq!(res.header("content-type"), Some("text/event-stream"));
        let events = sse_events(&res.text());
        let deltas = deltas(&events);
        assert_eq!(deltas, ["Calm ", "and ", "clear."]);
        let (last, done) = events.last().unwrap();
        assert_eq!(last, "done");
        assert_eq!(done["output"], "Calm and clear.");
        let expected_usage = if wire == Wire::OpenAi {
            json!({"inputTokens": 50, "outputTokens": 3})
        } else {
            json!({"inputTokens": 70, "outputTokens": 4})
        };
        assert_eq!(done["usage"], expected_usage);
        assert_eq!(mock.requests()[0].body["stream"], true);
        assert_eq!(mock.requests()[0].headers["accept"], "text/event-stream");
    }
}

#[test]
fn upstream_failures_map_to_gateway_statuses_without_upstream_details() {
    let mock = MockLlm::start(Wire::OpenAi);
    let app = with_llm(ProviderKind::Openai, &mock, |a| {
        a.demo.timeout = Duration::from_millis(800)
    });

    // 401 with a body that echoes part of the key: 502, body not passed on, no retry.
    mock.push(Reply::Json(401, vec![], json!({"error": {"message": format!("Incorrect API key provided: {KEY}"), "type": "invalid_request_error"}})));
    let before = mock.requests().len();
    let body = problem(&post(&app, "northwind", &notice()), 502);
    let detail = body["detail"].as_str().unwrap();
    assert!(
        detail.contains("401") && detail.contains("invalid_request_error"),
        "{detail}"
    );
    assert!(!body.to_string().contains(KEY) && !body.to_string().contains("Incorrect"));
    assert_eq!(mock.requests().len() - before, 1, "4xx is not retried");

    // 500 twice: retried once, then 502.
    mock.push(Reply::Json(
        500,
        vec![],
        json!({"error": {"message": "boom", "type": "server_error"}}),
    ));
    mock.push(Reply::Json(
        500,
        vec![],
        json!({"error": {"message": "boom", "type": "server_error"}}),
    ));
    let before = mock.requests().len();
    problem(&post(&app, "northwind", &notice()), 502);
    assert_eq!(mock.requests().len() - before, 2);

    // 503 then success: the retry succeeds.
    mock.push(Reply::Json(
        503,
        vec![],
        json!({"error": {"type": "overloaded"}}),
    ));
    let res = post(&app, "northwind", &notice());
    assert_eq!(res.status, 200, "{}", res.text());

    // Rate limited upstream, with a retry-after beyond our deadline: 503 with Retry-After.
    mock.push(Reply::Json(
        429,
        vec![("retry-after", "20".into())],
        json!({"error": {"type": "rate_limit_error"}}),
    ));
    let res = post(&app, "northwind", &notice());
    problem(&res, 503);
    assert_eq!(res.header("retry-after"), Some("20"));

    // Too slow: 504.
    mock.push(Reply::Slow(
        Duration::from_secs(3),
        Box::new(success(Wire::OpenAi, &json!({}))),
    ));
    let body = problem(&post(&app, "northwind", &notice()), 504);
    assert!(body["detail"].as_str().unwrap().contains("in time"));
}

#[test]
fn anthropic_errors_and_stream_errors_are_reported() {
    let mock = MockLlm::start(Wire::Anthropic);
    let app = with_llm(ProviderKind::Anthropic, &mock, |_| {});
    mock.push(Reply::Json(
        529,
        vec![],
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    ));
    mock.push(Reply::Json(
        529,
        vec![],
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    ));
    let body = problem(&post(&app, "northwind", &notice()), 502);
    assert!(body["detail"]
        .as_str()
        .unwrap()
        .contains("overloaded_error"));

    mock.push(Reply::Stream(vec![
        "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-test\",\"usage\":{\"input_tokens\":5}}}".into(),
        "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}".into(),
    ]));
    let res = post_stream(&app, "northwind", &notice());
    let events = sse_events(&res.text());
    assert_eq!(events.last().unwrap().0, "error");
    assert_eq!(events.last().unwrap().1["status"], 502);
}

#[test]
fn calls_beyond_the_concurrency_cap_are_turned_away_with_retry_after() {
    let mock = MockLlm::start(Wire::OpenAi);
    let app = with_llm(ProviderKind::Openai, &mock, |a| a.demo.concurrency = 1);
    mock.push(Reply::Slow(
        Duration::from_secs(3),
        Box::new(success(Wire::OpenAi, &json!({}))),
    ));
    let addr = app.addr;
    let slow = std::thread::spawn(move || {
        raw_request(
            addr,
            "POST",
            &demo_path("northwind"),
            &[("Content-Type", "application/json")],
            Some(notice().as_bytes()),
        )
        .status
    });
    // Wait until the first call holds the only slot at the upstream.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while mock.requests().is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the first call reaches the upstream"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let res = post(&app, "northwind", &notice());
    problem(&res, 503);
    assert_eq!(res.header("retry-after"), Some("1"));
    assert_eq!(
        mock.requests().len(),
        1,
        "the turned-away call never reached the upstream"
    );
    assert_eq!(slow.join().unwrap(), 200);
}
