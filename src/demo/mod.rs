//! `POST /api/brand-spec/<slug>/demo`: run a named prompt of a brand's
//! prompt kit against a language model. The one endpoint that costs money
//! per call, so every request counts against a per-client rate limit before
//! anything else happens, bodies are capped, and upstream failures are
//! reported without upstream details.

pub mod limit;
pub mod llm;

use crate::http::problem::Problem;
use crate::http::AppState;
use crate::snapshot::DemoBrand;
use crate::spec::model::Prompt;
use axum::body::Body;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use limit::{ceil_secs, client_ip, Cidr, Decision, DemoLimiter};
use llm::{ChatRequest, Chunk, LlmClient, LlmError, ProviderKind};
use serde::Serialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Largest request body, in bytes.
pub const MAX_BODY: usize = 16 * 1024;

/// The endpoint's settings and shared state.
pub struct Demo {
    pub limiter: DemoLimiter,
    pub trusted: Vec<Cidr>,
    pub client: LlmClient,
    /// Upstream calls in flight at once.
    pub permits: Arc<Semaphore>,
    /// Cap on a prompt's `maxTokens`.
    pub max_tokens: u32,
}

impl Demo {
    /// Purges idle rate-limit keys every `every`, so memory stays bounded
    /// however many addresses call.
    pub fn spawn_purger(self: &Arc<Self>, every: Duration) {
        let weak = Arc::downgrade(self);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.tick().await;
            loop {
                tick.tick().await;
                match weak.upgrade() {
                    Some(demo) => demo.limiter.purge(),
                    None => return,
                }
            }
        });
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Success {
    brand: String,
    spec_version: String,
    prompt_id: String,
    provider: &'static str,
    model: String,
    output: Option<String>,
    usage: Usage,
    latency_ms: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    messages: Option<Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Usage {
    input_tokens: u64,
    output_tokens: u64,
}

fn rate_headers(h: &mut HeaderMap, demo: &Demo, decision: Decision) {
    let policy = format!("\"demo\";q={};w=60", demo.limiter.per_minute);
    let (remaining, reset) = match decision {
        Decision::Allowed { remaining, reset } => (remaining, ceil_secs(reset)),
        Decision::Limited { retry_after } => (0, ceil_secs(retry_after)),
    };
    h.insert(
        "ratelimit-policy",
        HeaderValue::from_str(&policy).expect("ascii"),
    );
    h.insert(
        "ratelimit",
        HeaderValue::from_str(&format!("\"demo\";r={remaining};t={reset}")).expect("ascii"),
    );
}

fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .map(|m| {
            let m = m.trim().to_ascii_lowercase();
            m == "application/json" || (m.starts_with("application/") && m.ends_with("+json"))
        })
        .unwrap_or(false)
}

fn wants_stream(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',').any(|m| {
                m.split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .eq_ignore_ascii_case("text/event-stream")
            })
        })
}

/// The validated request: which prompt, with which values.
struct Call {
    prompt_id: String,
    variables: BTreeMap<String, String>,
}

fn parse_call(body: &[u8]) -> Result<Call, Box<Problem>> {
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        Box::new(Problem::new(
            StatusCode::BAD_REQUEST,
            format!("the body is not valid JSON: {e}"),
        ))
    })?;
    let mut errors = Vec::new();
    let obj = value.as_object();
    if obj.is_none() {
        errors.push(json!({"pointer": "", "message": "the body must be a JSON object {\"promptId\": \"…\", \"variables\": {…}}"}));
    }
    let prompt_id = match obj.and_then(|o| o.get("promptId")) {
        Some(Value::String(s)) => s.clone(),
        Some(_) => {
            errors.push(json!({"pointer": "/promptId", "message": "promptId must be a string"}));
            String::new()
        }
        None => {
            if obj.is_some() {
                errors.push(json!({"pointer": "/promptId", "message": "promptId is required"}));
            }
            String::new()
        }
    };
    let mut variables = BTreeMap::new();
    match obj.and_then(|o| o.get("variables")) {
        None | Some(Value::Null) => {}
        Some(Value::Object(vars)) => {
            for (k, v) in vars {
                match v {
                    Value::String(s) => {
                        variables.insert(k.clone(), s.clone());
                    }
                    _ => errors.push(json!({
                        "pointer": format!("/variables/{}", crate::spec::json::escape_token(k)),
                        "message": "every variable value must be a string"
                    })),
                }
            }
        }
        Some(_) => errors.push(
            json!({"pointer": "/variables", "message": "variables must be an object of strings"}),
        ),
    }
    if let Some(o) = obj {
        for k in o.keys().filter(|k| *k != "promptId" && *k != "variables") {
            errors.push(json!({"pointer": format!("/{}", crate::spec::json::escape_token(k)), "message": format!("unknown member `{k}`")}));
        }
    }
    if !errors.is_empty() {
        return Err(Box::new(
            Problem::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "the request does not have the expected shape",
            )
            .with("errors", Value::Array(errors)),
        ));
    }
    Ok(Call {
        prompt_id,
        variables,
    })
}

/// Checks the values against the prompt's variables and fills optional ones with "".
fn bind(
    prompt: &Prompt,
    mut given: BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>, Box<Problem>> {
    let declared: Vec<&str> = prompt.variables.iter().map(|v| v.name.as_str()).collect();
    let unknown: Vec<&String> = given
        .keys()
        .filter(|k| !declared.contains(&k.as_str()))
        .collect();
    let missing: Vec<&str> = prompt
        .variables
        .iter()
        .filter(|v| v.required && given.get(&v.name).is_none_or(|s| s.trim().is_empty()))
        .map(|v| v.name.as_str())
        .collect();
    let too_long: Vec<Value> = prompt
        .variables
        .iter()
        .filter_map(|v| {
            let len = given.get(&v.name)?.chars().count();
            (len > v.max_length as usize)
                .then(|| json!({"name": v.name, "maxLength": v.max_length, "length": len}))
        })
        .collect();
    if !unknown.is_empty() || !missing.is_empty() || !too_long.is_empty() {
        let mut parts = Vec::new();
        if !missing.is_empty() {
            parts.push(format!("missing: {}", missing.join(", ")));
        }
        if !unknown.is_empty() {
            parts.push(format!(
                "unknown: {}",
                unknown
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !too_long.is_empty() {
            parts.push(format!(
                "too long: {}",
                too_long
                    .iter()
                    .filter_map(|v| v["name"].as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        return Err(Box::new(
            Problem::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!(
                    "the variables do not fit prompt \"{}\" ({})",
                    prompt.id,
                    parts.join("; ")
                ),
            )
            .with("missing", json!(missing))
            .with("unknown", json!(unknown))
            .with("tooLong", Value::Array(too_long)),
        ));
    }
    for v in &prompt.variables {
        given.entry(v.name.clone()).or_default();
    }
    Ok(given)
}

/// The messages for a prompt: system = spec.md then the prompt's own
/// instructions; user = the rendered template.
pub fn messages(
    brand: &DemoBrand,
    prompt: &Prompt,
    vars: &BTreeMap<String, String>,
) -> Result<(String, String), String> {
    let mut system = brand.spec_md.clone();
    if let Some(extra) = &prompt.system {
        system.push_str("\n\n");
        system.push_str(extra);
    }
    let user = crate::prompt::render_template(&prompt.template, vars)?;
    Ok((system, user))
}

fn upstream_problem(e: &LlmError) -> Problem {
    match e {
        LlmError::Timeout => Problem::new(
            StatusCode::GATEWAY_TIMEOUT,
            "the language model did not answer in time",
        ),
        LlmError::RateLimited { retry_after } => {
            let secs = retry_after.map_or(30, ceil_secs);
            Problem::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the language model is busy; try again later",
            )
            .header(header::RETRY_AFTER, &secs.to_string())
        }
        LlmError::Upstream(summary) => Problem::new(
            StatusCode::BAD_GATEWAY,
            format!("the language model failed: {summary}"),
        ),
    }
}

/// The handler. Order matters: the rate limit counts every request, then
/// the cheap checks run before anything touches the brand or the model.
pub async fn handle(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(slug): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let demo = app.demo.clone();
    let xff = headers.get("x-forwarded-for").and_then(|v| v.to_str().ok());
    let fwd = headers.get(header::FORWARDED).and_then(|v| v.to_str().ok());
    let client = client_ip(peer.ip(), &demo.trusted, xff, fwd);
    let decision = demo.limiter.check(client);
    let mut res = run(&app, &demo, decision, &slug, &headers, body).await;
    rate_headers(res.headers_mut(), &demo, decision);
    res
}

async fn run(
    app: &AppState,
    demo: &Arc<Demo>,
    decision: Decision,
    slug: &str,
    headers: &HeaderMap,
    body: Body,
) -> Response {
    if let Decision::Limited { retry_after } = decision {
        let secs = ceil_secs(retry_after);
        return Problem::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!("too many demo calls from your address; try again in {secs} s"),
        )
        .header(header::RETRY_AFTER, &secs.to_string())
        .into_response();
    }
    if !is_json(headers) {
        return Problem::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "send the request as content-type: application/json",
        )
        .header(
            header::HeaderName::from_static("accept-post"),
            "application/json",
        )
        .into_response();
    }
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    if declared.is_some_and(|n| n > MAX_BODY) {
        return too_large();
    }
    let Ok(bytes) = axum::body::to_bytes(body, MAX_BODY).await else {
        return too_large();
    };
    let call = match parse_call(&bytes) {
        Ok(c) => c,
        Err(p) => return p.into_response(),
    };
    let snapshot = app.snapshot.load();
    let Some(brand) = snapshot.demo.get(slug).cloned() else {
        return Problem::not_found(format!("no brand named \"{slug}\" is published here"))
            .into_response();
    };
    drop(snapshot);
    let Some(prompt) = brand.prompts.iter().find(|p| p.id == call.prompt_id) else {
        let ids: Vec<&str> = brand.prompts.iter().map(|p| p.id.as_str()).collect();
        return Problem::not_found(format!(
            "brand \"{slug}\" has no prompt \"{}\"",
            call.prompt_id
        ))
        .with("promptIds", json!(ids))
        .into_response();
    };
    let vars = match bind(prompt, call.variables) {
        Ok(v) => v,
        Err(p) => return p.into_response(),
    };
    let (system, user) = match messages(&brand, prompt, &vars) {
        Ok(m) => m,
        Err(e) => {
            tracing::error!(brand = slug, prompt = %prompt.id, error = %e, "a validated template failed to render");
            return Problem::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the prompt could not be rendered",
            )
            .into_response();
        }
    };
    let max_tokens = prompt
        .max_tokens
        .unwrap_or(demo.max_tokens)
        .min(demo.max_tokens);
    let request = ChatRequest {
        system,
        user,
        max_tokens,
        temperature: prompt.temperature,
    };
    let started = Instant::now();
    let base = Success {
        brand: brand.slug.clone(),
        spec_version: brand.version.clone(),
        prompt_id: prompt.id.clone(),
        provider: demo.client.kind.as_str(),
        model: demo.client.model.clone(),
        output: None,
        usage: Usage {
            input_tokens: 0,
            output_tokens: 0,
        },
        latency_ms: 0,
        messages: None,
    };
    let stream = wants_stream(headers);

    if demo.client.kind == ProviderKind::DryRun {
        let body = Success {
            messages: Some(json!([
                {"role": "system", "content": request.system},
                {"role": "user", "content": request.user},
            ])),
            latency_ms: started.elapsed().as_millis() as u64,
            ..base
        };
        if stream {
            let event = Event::default()
                .event("done")
                .data(serde_json::to_string(&body).expect("serialisable"));
            return sse(futures_util::stream::iter([Ok::<
                _,
                std::convert::Infallible,
            >(event)]));
        }
        return json_response(&body);
    }

    let waiting = demo.permits.clone().acquire_owned();
    let Ok(Ok(permit)) = tokio::time::timeout(Duration::from_secs(1), waiting).await else {
        return Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many demo calls are running; try again shortly",
        )
        .header(header::RETRY_AFTER, "1")
        .into_response();
    };
    if stream {
        let chunks = match demo.client.stream(&request).await {
            Ok(c) => c,
            Err(e) => return upstream_failure(slug, &e),
        };
        let mut base = Some(base);
        let mut text = String::new();
        let events = chunks.map(move |item| {
            let _held = &permit;
            let event = match item {
                Ok(Chunk::Text(t)) => {
                    text.push_str(&t);
                    Event::default()
                        .event("delta")
                        .data(json!({"text": t}).to_string())
                }
                Ok(Chunk::Done {
                    model,
                    input_tokens,
                    output_tokens,
                }) => {
                    let done = Success {
                        model,
                        output: Some(std::mem::take(&mut text)),
                        usage: Usage {
                            input_tokens,
                            output_tokens,
                        },
                        latency_ms: started.elapsed().as_millis() as u64,
                        ..base.take().expect("done comes once")
                    };
                    Event::default()
                        .event("done")
                        .data(serde_json::to_string(&done).expect("serialisable"))
                }
                Err(e) => {
                    let p = upstream_problem(&e);
                    Event::default()
                        .event("error")
                        .data(serde_json::to_string(&p).expect("serialisable"))
                }
            };
            Ok::<_, std::convert::Infallible>(event)
        });
        return sse(events);
    }
    let result = demo.client.complete(&request).await;
    drop(permit);
    match result {
        Ok(c) => json_response(&Success {
            model: c.model,
            output: Some(c.output),
            usage: Usage {
                input_tokens: c.input_tokens,
                output_tokens: c.output_tokens,
            },
            latency_ms: started.elapsed().as_millis() as u64,
            ..base
        }),
        Err(e) => upstream_failure(slug, &e),
    }
}

fn upstream_failure(slug: &str, e: &LlmError) -> Response {
    tracing::warn!(brand = slug, error = %e, "demo call failed upstream");
    upstream_problem(e).into_response()
}

fn too_large() -> Response {
    Problem::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the body is larger than {} KiB", MAX_BODY / 1024),
    )
    .into_response()
}

fn json_response(body: &impl Serialize) -> Response {
    let mut res = (
        StatusCode::OK,
        serde_json::to_vec(body).expect("serialisable"),
    )
        .into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    crate::http::common_headers(h);
    res
}

fn sse<S>(events: S) -> Response
where
    S: futures_util::Stream<Item = Result<Event, std::convert::Infallible>> + Send + 'static,
{
    let mut res = Sse::new(events).into_response();
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    crate::http::common_headers(h);
    res
}
