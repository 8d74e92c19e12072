//! `POST /api/brand-spec/<slug>/demo`: the HTTP side of the prompt demo.
//! The one endpoint that costs money per call, so every request counts
//! against the per-client rate limit before anything else happens, bodies
//! are capped and timed, and upstream failures are reported without
//! upstream details.

use super::body::read;
use super::headers::common_headers;
use super::problem::{read_problem, refused, Problem};
use super::AppState;
use crate::demo::limit::{ceil_secs, Decision};
use crate::demo::llm::{ChatRequest, Chunk, LlmError, ProviderKind};
use crate::demo::{parse_call, Demo, DemoError, Prepared, MAX_BODY};
use crate::paths::Refusal;
use crate::snapshot::Snapshot;
use axum::body::Body;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, Sse};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::Serialize;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

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
    /// Dry run only: the request body an OpenAI-compatible API would get.
    #[serde(skip_serializing_if = "Option::is_none")]
    request: Option<Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Usage {
    input_tokens: u64,
    output_tokens: u64,
    /// True when the counts are marque's estimate (a dry run), not the model's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    estimated: bool,
}

impl From<DemoError> for Problem {
    fn from(e: DemoError) -> Problem {
        let mut p = refused(e.refusal(), e.to_string());
        for (key, value) in e.members() {
            p = p.with(key, value);
        }
        p
    }
}

fn rate_headers(h: &mut HeaderMap, demo: &Demo, decision: Decision) {
    let policy = format!("\"demo\";q={};w=60", demo.limiter.per_minute);
    let (remaining, reset) = match decision {
        Decision::Allowed { remaining, reset } => (remaining, ceil_secs(reset)),
        Decision::Limited { retry_after } => (0, ceil_secs(demo.limiter.full_after(retry_after))),
    };
    if let Ok(v) = HeaderValue::from_str(&policy) {
        h.insert("ratelimit-policy", v);
    }
    if let Ok(v) = HeaderValue::from_str(&format!("\"demo\";r={remaining};t={reset}")) {
        h.insert("ratelimit", v);
    }
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

/// The handler. Order matters: the rate limit counts every request, then
/// the cheap checks run before anything touches the brand or the model.
pub async fn handle(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(slug): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    demo_of(app, peer, None, &slug, headers, body).await
}

/// `POST /preview/<name>/api/brand-spec/<slug>/demo`: the demo of a branch
/// preview's prompt kit, under the same limit.
pub async fn handle_preview(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path((preview, slug)): Path<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    demo_of(app, peer, Some(&preview), &slug, headers, body).await
}

async fn demo_of(
    app: AppState,
    peer: SocketAddr,
    preview: Option<&str>,
    slug: &str,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let site = app.site.load_full();
    let seen = match super::access::seen(&app, &site, &headers, peer.ip()) {
        Ok(seen) => seen,
        Err(too_many) => return too_many.problem().into_response(),
    };
    // What the brand is looked up in: the published branch as this
    // request sees it, or the preview it names; a preview it may not read
    // is, to it, a preview that is not there: checked and limited as one.
    let hidden = Snapshot::default();
    let snap = match preview {
        Some(name) => seen.preview(name).map_or(&hidden, |p| &**p),
        None => &**seen.snapshot,
    };
    let demo = app.demo.clone();
    let client = app.clients.address(peer.ip(), &headers);
    let decision = demo.check(super::client::key_of(client)).await;
    let mut res = run(snap, &demo, decision, slug, &headers, body).await;
    let private = seen.private_for(slug, preview);
    seen.apply(res.headers_mut(), "/brand/", private);
    rate_headers(res.headers_mut(), &demo, decision);
    res
}

/// A checked request, ready to be sent to the model.
struct Ready {
    request: ChatRequest,
    base: Success,
    stream: bool,
}

async fn run(
    snap: &Snapshot,
    demo: &Arc<Demo>,
    decision: Decision,
    slug: &str,
    headers: &HeaderMap,
    body: Body,
) -> Response {
    let ready = match check(snap, demo, decision, slug, headers, body).await {
        Ok(r) => r,
        Err(p) => return p.into_response(),
    };
    if demo.client.kind == ProviderKind::DryRun {
        return dry_run(ready, &demo.client);
    }
    let Some(permit) = demo.permit().await else {
        return refused(
            Refusal::Busy,
            "too many demo calls are running; try again shortly",
        )
        .header(header::RETRY_AFTER, "1")
        .into_response();
    };
    let started = Instant::now();
    if ready.stream {
        return match demo.client.stream(&ready.request).await {
            Ok(chunks) => sse(relay(chunks, ready.base, started, permit)),
            Err(e) => upstream_failure(slug, &e),
        };
    }
    let result = demo.client.complete(&ready.request).await;
    drop(permit);
    match result {
        Ok(c) => json_response(&Success {
            model: c.model,
            output: Some(c.output),
            usage: Usage {
                input_tokens: c.input_tokens,
                output_tokens: c.output_tokens,
                estimated: false,
            },
            latency_ms: started.elapsed().as_millis() as u64,
            ..ready.base
        }),
        Err(e) => upstream_failure(slug, &e),
    }
}

/// Every check, cheapest first: the rate limit, the content type, the body,
/// its shape, the brand, the prompt, the variables, the template.
async fn check(
    snap: &Snapshot,
    demo: &Demo,
    decision: Decision,
    slug: &str,
    headers: &HeaderMap,
    body: Body,
) -> Result<Ready, Problem> {
    if let Decision::Limited { retry_after } = decision {
        let secs = ceil_secs(retry_after);
        return Err(refused(
            Refusal::RateLimited,
            format!("too many demo calls from your address; try again in {secs} s"),
        )
        .header(header::RETRY_AFTER, &secs.to_string()));
    }
    if !is_json(headers) {
        return Err(refused(
            Refusal::MediaType,
            "send the request as content-type: application/json",
        )
        .header(
            header::HeaderName::from_static("accept-post"),
            "application/json",
        ));
    }
    let bytes = read(headers, body, MAX_BODY)
        .await
        .map_err(|e| read_problem(e, MAX_BODY))?;
    // `snap` is the preview's, when the call names one (see `demo_of`).
    let brand = snap.demo.get(slug).cloned();
    let call = parse_call(&bytes)?;
    let brand = brand
        .ok_or_else(|| DemoError::UnknownBrand(crate::spec::diag::clipped(slug).into_owned()))?;
    let Prepared {
        request,
        brand,
        spec_version,
        prompt_id,
    } = demo.prepare(&brand, call)?;
    Ok(Ready {
        request,
        base: Success {
            brand,
            spec_version,
            prompt_id,
            provider: demo.client.kind.as_str(),
            model: demo.client.model.clone(),
            output: None,
            usage: Usage {
                input_tokens: 0,
                output_tokens: 0,
                estimated: false,
            },
            latency_ms: 0,
            messages: None,
            request: None,
        },
        stream: wants_stream(headers),
    })
}

/// What a dry run streams in `delta` events: a placeholder, never an
/// answer, in pieces, so a streaming client can be exercised offline.
pub const DRY_RUN_PLACEHOLDER: &str =
    "[dry run] No model was called. A model's answer would stream here, piece by piece.";

/// Without a model: the exact messages and request body that would be
/// sent, and an estimate of their input tokens (about four characters
/// each, the usual rule for English text).
fn dry_run(ready: Ready, client: &crate::demo::llm::LlmClient) -> Response {
    let chars = ready.request.system.chars().count() + ready.request.user.chars().count();
    let body = Success {
        messages: Some(json!([
            {"role": "system", "content": ready.request.system},
            {"role": "user", "content": ready.request.user},
        ])),
        request: Some(client.request_body(&ready.request, ready.stream)),
        usage: Usage {
            input_tokens: chars.div_ceil(4) as u64,
            output_tokens: 0,
            estimated: true,
        },
        ..ready.base
    };
    if ready.stream {
        let pieces = DRY_RUN_PLACEHOLDER.split_inclusive(' ').map(|piece| {
            Event::default()
                .event("delta")
                .data(json!({"text": piece}).to_string())
        });
        let done = Event::default()
            .event("done")
            .data(serde_json::to_string(&body).unwrap_or_default());
        let events = pieces
            .chain([done])
            .map(Ok::<_, std::convert::Infallible>)
            .collect::<Vec<_>>();
        return sse(futures_util::stream::iter(events));
    }
    json_response(&body)
}

/// The model's streamed answer as server-sent events: `delta` with each
/// piece of text, then `done` with the whole answer (or `error`). The
/// upstream permit is held until the stream ends.
fn relay(
    chunks: crate::demo::llm::ChunkStream,
    base: Success,
    started: Instant,
    permit: tokio::sync::OwnedSemaphorePermit,
) -> impl futures_util::Stream<Item = Result<Event, std::convert::Infallible>> + Send + 'static {
    let mut base = Some(base);
    let mut text = String::new();
    chunks.map(move |item| {
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
            }) => match base.take() {
                Some(base) => {
                    let done = Success {
                        model,
                        output: Some(std::mem::take(&mut text)),
                        usage: Usage {
                            input_tokens,
                            output_tokens,
                            estimated: false,
                        },
                        latency_ms: started.elapsed().as_millis() as u64,
                        ..base
                    };
                    Event::default()
                        .event("done")
                        .data(serde_json::to_string(&done).unwrap_or_default())
                }
                None => Event::default().comment("done was sent already"),
            },
            Err(e) => Event::default()
                .event("error")
                .data(serde_json::to_string(&upstream_problem(&e)).unwrap_or_default()),
        };
        Ok(event)
    })
}

fn upstream_problem(e: &LlmError) -> Problem {
    let refusal = e.refusal();
    match e {
        LlmError::Timeout => refused(refusal, "the language model did not answer in time"),
        LlmError::RateLimited { retry_after } => {
            let secs = retry_after.map_or(30, ceil_secs);
            refused(refusal, "the language model is busy; try again later")
                .header(header::RETRY_AFTER, &secs.to_string())
        }
        LlmError::Upstream(summary) => {
            refused(refusal, format!("the language model failed: {summary}"))
        }
    }
}

fn upstream_failure(slug: &str, e: &LlmError) -> Response {
    tracing::warn!(brand = slug, error = %e, "demo call failed upstream");
    upstream_problem(e).into_response()
}

fn json_response(body: &impl Serialize) -> Response {
    let mut res = (StatusCode::OK, serde_json::to_vec(body).unwrap_or_default()).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    common_headers(h);
    res
}

fn sse<S>(events: S) -> Response
where
    S: futures_util::Stream<Item = Result<Event, std::convert::Infallible>> + Send + 'static,
{
    let mut res = Sse::new(events).into_response();
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    common_headers(h);
    res
}
