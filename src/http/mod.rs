//! HTTP: the GET path for snapshot resources ([`surface`], answered on the
//! accepting thread), the handlers of everything else (this router), and
//! the connections ([`server`], [`conn`], [`body`]). Nothing is rendered on
//! a request and no path ever reaches the file system.

pub mod body;
pub mod compare;
pub mod conn;
pub mod demo;
pub mod headers;
pub mod mcp;
pub mod problem;
pub mod server;
pub mod surface;
pub mod webhook;

use crate::paths::{self, Route};
use crate::snapshot::Snapshot;
use arc_swap::ArcSwap;
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use headers::common_headers;
use problem::Problem;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::watch;

/// Everything a handler needs; cloning is shallow.
#[derive(Clone)]
pub struct AppState {
    pub snapshot: Arc<ArcSwap<Snapshot>>,
    /// The generation of the snapshot being served, in watch mode (for `/events`).
    pub live: Option<watch::Receiver<u64>>,
    /// Turns true when the server shuts down, so long-lived streams end.
    pub stopping: watch::Receiver<bool>,
    /// The prompt demo's client, limiter and limits.
    pub demo: Arc<crate::demo::Demo>,
    /// Git mode: wakes the git worker (webhook deliveries).
    pub git_trigger: Option<std::sync::mpsc::Sender<()>>,
    /// Git mode with Redis: the channel on which a verified webhook tells
    /// the other replicas to fetch.
    pub fetch_channel: Option<Arc<str>>,
    /// The shared secret that webhook deliveries must be signed with.
    pub webhook_secret: Option<Arc<str>>,
    /// Webhook bodies being read at once (unauthenticated until read).
    pub webhook_reads: Arc<tokio::sync::Semaphore>,
    /// Request counters for /metrics, one shard per accepting thread.
    pub counters: Arc<Counters>,
    /// The public base URL (MCP resource URIs are the HTTP URLs).
    pub public_url: Arc<str>,
    /// The generation of the snapshot being served, in every mode (MCP
    /// sessions are told of each new one).
    pub generations: watch::Receiver<u64>,
    /// MCP at /mcp, with the browser origins it accepts; None turns it off.
    pub mcp_origins: Option<Vec<String>>,
    /// The sessions /mcp holds, and their bounds.
    pub mcp_sessions: Arc<mcp::sessions::Sessions>,
    /// Comparisons of two versions computed so far.
    pub compare: Arc<compare::Memo>,
}

impl AppState {
    pub fn new(
        snapshot: Arc<ArcSwap<Snapshot>>,
        threads: usize,
        stopping: watch::Receiver<bool>,
        demo: Arc<crate::demo::Demo>,
    ) -> AppState {
        AppState {
            snapshot,
            live: None,
            stopping,
            demo,
            git_trigger: None,
            fetch_channel: None,
            webhook_secret: None,
            webhook_reads: Arc::new(tokio::sync::Semaphore::new(webhook::CONCURRENT_READS)),
            counters: Arc::new(Counters::new(threads)),
            public_url: Arc::from(""),
            generations: watch::channel(0).1,
            mcp_origins: None,
            mcp_sessions: mcp::sessions::Sessions::new(Default::default(), Vec::new()),
            compare: Arc::default(),
        }
    }
}

/// One thread's counters, on a cache line of its own so threads never contend.
#[derive(Debug, Default)]
#[repr(align(128))]
struct Shard {
    by_class: [AtomicU64; 5],
    connections: AtomicU64,
}

/// Responses by status class and connections accepted, counted per thread
/// and summed only when /metrics is read.
#[derive(Debug)]
pub struct Counters {
    shards: Box<[Shard]>,
}

impl Counters {
    pub fn new(threads: usize) -> Counters {
        Counters {
            shards: (0..threads.max(1)).map(|_| Shard::default()).collect(),
        }
    }

    fn shard(&self, i: usize) -> &Shard {
        &self.shards[i % self.shards.len()]
    }

    pub fn response(&self, shard: usize, status: StatusCode) {
        let class = (status.as_u16() / 100).clamp(1, 5) as usize - 1;
        self.shard(shard).by_class[class].fetch_add(1, Ordering::Relaxed);
    }

    pub fn connection(&self, shard: usize) {
        self.shard(shard)
            .connections
            .fetch_add(1, Ordering::Relaxed);
    }

    /// Responses of one status class (1 to 5), all threads together.
    pub fn responses(&self, class: usize) -> u64 {
        self.shards
            .iter()
            .map(|s| s.by_class[class - 1].load(Ordering::Relaxed))
            .sum()
    }

    /// Connections accepted by each thread.
    pub fn connections(&self) -> Vec<u64> {
        self.shards
            .iter()
            .map(|s| s.connections.load(Ordering::Relaxed))
            .collect()
    }
}

/// The handlers of every path that is not a snapshot resource.
pub fn router(state: AppState) -> Router {
    let mut router = Router::new();
    if let Some(origins) = &state.mcp_origins {
        let sessions = state.mcp_sessions.clone();
        let gate = move |req, next| mcp::sessions::gate(sessions.clone(), mcp::MAX_BODY, req, next);
        let mcp = Router::new()
            .route_service(paths::MCP, mcp_service(&state, origins))
            .layer(axum::middleware::from_fn(gate));
        router = router.merge(mcp);
    }
    router
        .route(paths::METRICS, get(metrics))
        .route(paths::EVENTS, get(events))
        .route(paths::HOOK_GIT, post(webhook::handle))
        .route(paths::COMPARE_PATTERN, get(compare::handle))
        .route(
            paths::DEMO_PATTERN,
            post(demo::handle).fallback(demo_method_not_allowed),
        )
        .route(
            paths::PREVIEW_DEMO_PATTERN,
            post(demo::handle_preview).fallback(demo_method_not_allowed),
        )
        .fallback(fallback)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state)
}

/// The MCP endpoint: Streamable HTTP sessions over the shared state. Any
/// `Host` is accepted (marque is a public server); a browser's `Origin`
/// must be one of `origins`; bodies over [`mcp::MAX_BODY`] get 413.
fn mcp_service(
    state: &AppState,
    origins: &[String],
) -> rmcp::transport::streamable_http_server::StreamableHttpService<
    mcp::Marque,
    rmcp::transport::streamable_http_server::session::local::LocalSessionManager,
> {
    use rmcp::transport::streamable_http_server::StreamableHttpServerConfig;
    let config = StreamableHttpServerConfig::default()
        .disable_allowed_hosts()
        .with_allowed_origins(origins.iter().cloned())
        .enforce_origin_validation()
        .with_max_request_body_bytes(mcp::MAX_BODY);
    // Open streams end when the server stops, so it can drain.
    let cancel = config.cancellation_token.clone();
    let mut stopping = state.stopping.clone();
    tokio::spawn(async move {
        let _ = stopping.wait_for(|s| *s).await;
        cancel.cancel();
    });
    let handler = mcp::Marque::new(state.clone());
    rmcp::transport::streamable_http_server::StreamableHttpService::new(
        move || Ok(handler.clone()),
        state.mcp_sessions.manager.clone(),
        config,
    )
}

async fn fallback(uri: axum::http::Uri) -> Response {
    surface::not_found(uri.path()).into_response()
}

async fn method_not_allowed(uri: axum::http::Uri) -> Response {
    let allow = Route::parse(uri.path()).methods();
    Problem::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} takes {allow}", uri.path()),
    )
    .header(header::ALLOW, allow)
    .into_response()
}

async fn demo_method_not_allowed() -> Response {
    Problem::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "the demo endpoint takes POST with a JSON body",
    )
    .header(header::ALLOW, "POST")
    .into_response()
}

/// Prometheus text exposition format: requests, snapshot, brands, reloads, demo.
async fn metrics(State(app): State<AppState>) -> Response {
    use std::fmt::Write;
    let snap = app.snapshot.load();
    let st = &snap.stats;
    let mut o = String::new();
    o.push_str("# HELP marque_http_responses_total Responses served, by status class.\n# TYPE marque_http_responses_total counter\n");
    for class in 1..=5 {
        let _ = writeln!(
            o,
            "marque_http_responses_total{{class=\"{class}xx\"}} {}",
            app.counters.responses(class)
        );
    }
    o.push_str("# HELP marque_http_connections_total Connections accepted, by accepting thread.\n# TYPE marque_http_connections_total counter\n");
    for (i, n) in app.counters.connections().iter().enumerate() {
        let _ = writeln!(o, "marque_http_connections_total{{thread=\"{i}\"}} {n}");
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
            "Builds swapped in.",
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
    let demo = &app.demo;
    let _ = writeln!(
        o,
        "# HELP marque_demo_limiter_shared 1 while Redis decides the demo limit for the fleet, 0 while this replica decides alone.\n# TYPE marque_demo_limiter_shared gauge\nmarque_demo_limiter_shared {}",
        u8::from(demo.fleet.as_ref().is_some_and(|f| f.is_shared()))
    );
    {
        let (shared, local) = demo.decided.counts();
        let _ = writeln!(
            o,
            "# HELP marque_demo_decisions_total Demo requests by the limiter that decided them.\n# TYPE marque_demo_decisions_total counter\nmarque_demo_decisions_total{{limiter=\"redis\"}} {shared}\nmarque_demo_decisions_total{{limiter=\"local\"}} {local}"
        );
    }
    let sessions = &app.mcp_sessions;
    let _ = writeln!(
        o,
        "# HELP marque_mcp_sessions MCP sessions open.\n# TYPE marque_mcp_sessions gauge\nmarque_mcp_sessions {}\n# HELP marque_mcp_sessions_limit Most MCP sessions open at once.\n# TYPE marque_mcp_sessions_limit gauge\nmarque_mcp_sessions_limit {}\n# HELP marque_mcp_sessions_expired_total MCP sessions ended for being idle.\n# TYPE marque_mcp_sessions_expired_total counter\nmarque_mcp_sessions_expired_total {}",
        sessions.open(),
        sessions.limits().total,
        sessions.expired()
    );
    o.push_str("# HELP marque_mcp_sessions_refused_total New MCP sessions refused: the server's cap (sessions), a client's cap (client), the initialize rate (rate).\n# TYPE marque_mcp_sessions_refused_total counter\n");
    for why in mcp::sessions::Refusal::ALL {
        let _ = writeln!(
            o,
            "marque_mcp_sessions_refused_total{{reason=\"{}\"}} {}",
            why.label(),
            sessions.refused(why)
        );
    }
    let (memo_bytes, memo_answers) = app.compare.held();
    let _ = writeln!(
        o,
        "# HELP marque_compare_memo_bytes Bytes of comparisons kept.\n# TYPE marque_compare_memo_bytes gauge\nmarque_compare_memo_bytes {memo_bytes}\n# HELP marque_compare_memo_limit_bytes Most bytes of comparisons kept.\n# TYPE marque_compare_memo_limit_bytes gauge\nmarque_compare_memo_limit_bytes {}\n# HELP marque_compare_memo_answers Comparisons kept.\n# TYPE marque_compare_memo_answers gauge\nmarque_compare_memo_answers {memo_answers}",
        app.compare.budget()
    );
    o.push_str("# HELP marque_brands Brands by state.\n# TYPE marque_brands gauge\n");
    for (state, n) in [
        ("ok", st.brands_ok),
        ("stale", st.brands_stale),
        ("unpublished", st.brands_unpublished),
    ] {
        let _ = writeln!(o, "marque_brands{{state=\"{state}\"}} {n}");
    }
    o.push_str("# HELP marque_brand_bytes Bytes held by one brand's resources, all codings.\n# TYPE marque_brand_bytes gauge\n");
    for (slug, bytes) in &st.brand_bytes {
        let _ = writeln!(o, "marque_brand_bytes{{brand=\"{slug}\"}} {bytes}");
    }
    let mut res = (StatusCode::OK, o).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    common_headers(h);
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
