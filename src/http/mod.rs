//! The router and handlers. Every GET surface is answered from the current
//! snapshot: one load, one map lookup, one write; nothing is rendered here
//! and no path ever reaches the file system.

pub mod problem;
pub mod server;
pub mod webhook;

use crate::snapshot::{CachePolicy, Encoded, Resource, Snapshot};
use arc_swap::ArcSwap;
use axum::body::Body;
use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use problem::Problem;
use std::sync::Arc;
use tokio::sync::watch;

/// Everything a handler needs; cloning is shallow.
#[derive(Clone)]
pub struct AppState {
    pub snapshot: Arc<ArcSwap<Snapshot>>,
    /// `Cache-Control` of current surfaces, e.g. `public, max-age=60`.
    pub cache_current: HeaderValue,
    /// The generation of the snapshot being served, in watch mode (for `/events`).
    pub live: Option<watch::Receiver<u64>>,
    /// Turns true when the server shuts down, so long-lived streams end.
    pub stopping: watch::Receiver<bool>,
    /// The prompt demo's client, limiter and limits.
    pub demo: Arc<crate::demo::Demo>,
    /// Git mode: wakes the git worker (webhook deliveries).
    pub git_trigger: Option<std::sync::mpsc::Sender<()>>,
    /// The shared secret that webhook deliveries must be signed with.
    pub webhook_secret: Option<Arc<str>>,
    /// Request counters for /metrics.
    pub counters: Arc<Counters>,
}

/// Responses served, by status class.
#[derive(Debug, Default)]
pub struct Counters {
    pub by_class: [std::sync::atomic::AtomicU64; 5],
}

impl AppState {
    pub fn new(
        snapshot: Arc<ArcSwap<Snapshot>>,
        max_age: u32,
        stopping: watch::Receiver<bool>,
        demo: Arc<crate::demo::Demo>,
    ) -> AppState {
        AppState {
            snapshot,
            cache_current: HeaderValue::from_str(&format!("public, max-age={max_age}"))
                .expect("valid header"),
            live: None,
            stopping,
            demo,
            git_trigger: None,
            webhook_secret: None,
            counters: Arc::default(),
        }
    }
}

pub fn router(state: AppState) -> Router {
    let counters = state.counters.clone();
    Router::new()
        .route("/metrics", get(metrics))
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
        .route("/events", get(events))
        .route("/hooks/git", axum::routing::post(webhook::handle))
        .route(
            "/api/brand-spec/{slug}/demo",
            axum::routing::post(crate::demo::handle).fallback(demo_method_not_allowed),
        )
        .fallback(surface)
        .with_state(state)
        .layer(axum::middleware::map_response(move |res: Response| {
            let class = (res.status().as_u16() / 100).clamp(1, 5) as usize - 1;
            counters.by_class[class].fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            std::future::ready(res)
        }))
}

/// Prometheus text exposition format: requests, snapshot, brands, reloads, demo.
async fn metrics(State(app): State<AppState>) -> Response {
    use std::fmt::Write;
    let snap = app.snapshot.load();
    let st = &snap.stats;
    let mut o = String::new();
    o.push_str("# HELP marque_http_responses_total Responses served, by status class.\n# TYPE marque_http_responses_total counter\n");
    for (i, c) in app.counters.by_class.iter().enumerate() {
        let _ = writeln!(
            o,
            "marque_http_responses_total{{class=\"{}xx\"}} {}",
            i + 1,
            c.load(std::sync::atomic::Ordering::Relaxed)
        );
    }
    let gauges: [(&str, &str, &str, f64); 7] = [
        (
            "marque_ready",
            "gauge",
            "1 once the first snapshot is served.",
            f64::from(u8::from(snap.ready)),
        ),
        (
            "marque_snapshot_generation",
            "gauge",
            "Builds swapped in since start.",
            snap.generation as f64,
        ),
        (
            "marque_snapshot_bytes",
            "gauge",
            "Bytes held by the snapshot, all codings.",
            st.bytes as f64,
        ),
        (
            "marque_reloads_total",
            "counter",
            "Builds attempted.",
            st.reloads as f64,
        ),
        (
            "marque_reload_failures_total",
            "counter",
            "Builds or fetches that reported errors.",
            st.failed_reloads as f64,
        ),
        (
            "marque_last_reload_seconds",
            "gauge",
            "Duration of the last build.",
            st.last_reload_ms / 1000.0,
        ),
        (
            "marque_demo_clients",
            "gauge",
            "Client addresses the demo rate limiter remembers.",
            app.demo.limiter.len() as f64,
        ),
    ];
    for (name, kind, help, value) in gauges {
        let _ = writeln!(
            o,
            "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
        );
    }
    o.push_str("# HELP marque_brands Brands by state.\n# TYPE marque_brands gauge\n");
    for (state, n) in [
        ("ok", st.brands_ok),
        ("stale", st.brands_stale),
        ("unpublished", st.brands_unpublished),
    ] {
        let _ = writeln!(o, "marque_brands{{state=\"{state}\"}} {n}");
    }
    let mut res = (StatusCode::OK, o).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

/// Server-sent events: `snapshot` with `{"generation": n}` now and after
/// every swap, in watch mode. Pages use it to reload themselves.
async fn events(State(app): State<AppState>) -> Response {
    let Some(live) = app.live.clone() else {
        return Problem::not_found("live reload is off: marque runs without watching (--no-watch)")
            .into_response();
    };
    struct Feed {
        live: watch::Receiver<u64>,
        stopping: watch::Receiver<bool>,
        first: bool,
    }
    let feed = Feed {
        live,
        stopping: app.stopping.clone(),
        first: true,
    };
    let stream = futures_util::stream::unfold(feed, |mut f| async move {
        if !f.first {
            tokio::select! {
                changed = f.live.changed() => changed.ok()?,
                _ = f.stopping.wait_for(|s| *s) => return None,
            }
        }
        f.first = false;
        let generation = *f.live.borrow_and_update();
        let event = Event::default()
            .event("snapshot")
            .data(format!("{{\"generation\":{generation}}}"));
        Some((Ok::<_, std::convert::Infallible>(event), f))
    });
    let mut res = Sse::new(stream)
        .keep_alive(KeepAlive::default())
        .into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    common_headers(res.headers_mut());
    res
}

async fn demo_method_not_allowed() -> Response {
    Problem::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "the demo endpoint takes POST with a JSON body",
    )
    .header(header::ALLOW, "POST")
    .into_response()
}

/// Headers every response carries.
pub fn common_headers(h: &mut HeaderMap) {
    h.insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
}

async fn healthz() -> Response {
    let mut res = (StatusCode::OK, "ok\n").into_response();
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    common_headers(res.headers_mut());
    res
}

async fn readyz(State(app): State<AppState>) -> Response {
    if !app.snapshot.load().ready {
        return Problem::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "the first snapshot has not been built yet",
        )
        .header(header::RETRY_AFTER, "1")
        .into_response();
    }
    healthz().await
}

/// Which coding to send: the smallest one the client accepts.
fn choose<'r>(r: &'r Resource, headers: &HeaderMap) -> (&'r Encoded, Option<&'static str>) {
    // Walks the header values in place: nothing is allocated per request.
    let items = || {
        headers
            .get_all(header::ACCEPT_ENCODING)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
    };
    let q = |coding: &str| -> f32 {
        let mut star = None;
        for item in items() {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or("").trim();
            let quality = parts
                .filter_map(|p| {
                    p.trim()
                        .strip_prefix("q=")
                        .and_then(|v| v.trim().parse::<f32>().ok())
                })
                .next()
                .unwrap_or(1.0);
            if name.eq_ignore_ascii_case(coding) {
                return quality;
            }
            if name == "*" {
                star = Some(quality);
            }
        }
        star.unwrap_or(0.0)
    };
    match (&r.br, &r.gzip) {
        (Some(br), _) if q("br") > 0.0 => (br, Some("br")),
        (_, Some(gz)) if q("gzip") > 0.0 || q("x-gzip") > 0.0 => (gz, Some("gzip")),
        _ => (&r.identity, None),
    }
}

/// True when `If-None-Match` lists `etag` (weak comparison, RFC 9110 §13.1.2) or `*`.
fn none_match(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let ours = etag.as_bytes();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag).as_bytes() == ours)
}

/// Answers a request for a snapshot resource.
pub fn respond(app: &AppState, r: &Resource, method: &Method, headers: &HeaderMap) -> Response {
    let (encoded, coding) = choose(r, headers);
    let not_modified = none_match(headers, &encoded.etag);
    let status = if not_modified {
        StatusCode::NOT_MODIFIED
    } else {
        StatusCode::OK
    };
    let body = if not_modified || method == Method::HEAD {
        Body::empty()
    } else {
        Body::from(encoded.body.clone())
    };
    let mut res = Response::new(body);
    *res.status_mut() = status;
    let h = res.headers_mut();
    h.insert(header::ETAG, encoded.etag.clone());
    h.insert(
        header::CACHE_CONTROL,
        match r.cache {
            CachePolicy::Current => app.cache_current.clone(),
            CachePolicy::Immutable => {
                HeaderValue::from_static("public, max-age=31536000, immutable")
            }
            CachePolicy::NoStore => HeaderValue::from_static("no-store"),
        },
    );
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    h.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("ETag"),
    );
    common_headers(h);
    for (name, value) in &r.headers {
        h.insert(*name, value.clone());
    }
    if !not_modified {
        h.insert(header::CONTENT_TYPE, r.content_type.clone());
        h.insert(
            header::CONTENT_LENGTH,
            HeaderValue::from(encoded.body.len()),
        );
        if let Some(c) = coding {
            h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(c));
        }
    }
    res
}

const ALLOWED: &str = "GET, HEAD, OPTIONS";

async fn surface(
    State(app): State<AppState>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let snapshot = app.snapshot.load();
    let path = uri.path();
    let resource = snapshot.get(path);
    match method {
        Method::GET | Method::HEAD => match resource {
            Some(r) => respond(&app, r, &method, &headers),
            None => missing(&app, &snapshot, path, &method, &headers),
        },
        Method::OPTIONS => {
            let mut res = StatusCode::NO_CONTENT.into_response();
            let h = res.headers_mut();
            common_headers(h);
            h.insert(header::ALLOW, HeaderValue::from_static(ALLOWED));
            h.insert(
                header::ACCESS_CONTROL_ALLOW_METHODS,
                HeaderValue::from_static("GET, HEAD, POST, OPTIONS"),
            );
            h.insert(
                header::ACCESS_CONTROL_ALLOW_HEADERS,
                HeaderValue::from_static("content-type, if-none-match, accept"),
            );
            h.insert(
                header::ACCESS_CONTROL_MAX_AGE,
                HeaderValue::from_static("86400"),
            );
            res
        }
        _ if resource.is_some() => Problem::new(
            StatusCode::METHOD_NOT_ALLOWED,
            format!("{path} is read-only: use GET or HEAD"),
        )
        .header(header::ALLOW, ALLOWED)
        .into_response(),
        _ => not_found(path).into_response(),
    }
}

/// What a GET for a path that is not in the snapshot gets: a redirect when
/// only a trailing slash is wrong, a browser the page of a brand that is
/// not published (with its errors, status 404), anyone else a problem.
fn missing(
    app: &AppState,
    snapshot: &Snapshot,
    path: &str,
    method: &Method,
    headers: &HeaderMap,
) -> Response {
    let trimmed = path.trim_end_matches('/');
    if trimmed.len() < path.len()
        && !trimmed.is_empty()
        && (snapshot.get(trimmed).is_some() || snapshot.unpublished.contains_key(trimmed))
    {
        let mut res = StatusCode::PERMANENT_REDIRECT.into_response();
        if let Ok(v) = HeaderValue::from_str(trimmed) {
            res.headers_mut().insert(header::LOCATION, v);
        }
        res.headers_mut()
            .insert(header::CACHE_CONTROL, app.cache_current.clone());
        common_headers(res.headers_mut());
        return res;
    }
    if let Some(page) = snapshot.unpublished.get(path) {
        if accepts_html(headers) {
            let mut res = respond(app, page, method, headers);
            *res.status_mut() = StatusCode::NOT_FOUND;
            return res;
        }
    }
    not_found(path).into_response()
}

/// True when the client lists `text/html` as acceptable (a browser).
fn accepts_html(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';');
            let media = parts.next().unwrap_or("").trim();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            media.eq_ignore_ascii_case("text/html") && q > 0.0
        })
}

/// A 404 that says what was not found: a brand, a surface of a brand, or a path.
fn not_found(path: &str) -> Problem {
    let detail = match path
        .strip_prefix("/brand/")
        .map(|rest| rest.split_once('/').unwrap_or((rest, "")))
    {
        Some((slug, "")) => format!("no brand named \"{slug}\" is published here"),
        Some((slug, surface)) => {
            format!("brand \"{slug}\" has no surface \"{surface}\" (or the brand is not published)")
        }
        None => format!("nothing is published at {path}"),
    };
    Problem::not_found(detail)
}
