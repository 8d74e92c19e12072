//! HTTP: the GET path for snapshot resources ([`fast_path`], answered on the
//! accepting thread), the handlers of everything else (this router), and
//! the connections ([`server`], [`conn`], [`body`]). Nothing is rendered on
//! a request and no path ever reaches the file system.

pub mod access;
pub mod body;
pub mod client;
pub mod compare;
pub mod conn;
pub mod demo;
mod events;
pub mod fast_path;
pub mod headers;
pub mod mcp;
mod metrics;
pub mod problem;
pub mod server;
pub mod webhook;

use crate::live::publisher::Reader;
use crate::paths::{self, Route};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use problem::Problem;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::watch;

/// Everything a handler needs; cloning is shallow. Built whole, in one
/// expression, by `marque serve` (see `cmd/serve.rs`).
#[derive(Clone)]
pub struct AppState {
    /// The site being served: every view of every branch.
    pub site: Reader,
    /// The generation of the snapshot being served, in watch mode (for `/events`).
    pub live: Option<watch::Receiver<u64>>,
    /// Turns true when the server shuts down, so long-lived streams end.
    pub stopping: watch::Receiver<bool>,
    /// The prompt demo's client, limiter and limits.
    pub demo: Arc<crate::demo::Demo>,
    /// Git mode's webhook; none in directory mode.
    pub git: Option<Arc<GitHooks>>,
    /// Request counters for /metrics, one shard per accepting thread.
    pub counters: Arc<Counters>,
    /// The public base URL (MCP resource URIs are the HTTP URLs).
    pub public_url: Arc<str>,
    /// The generation of the snapshot being served, in every mode (MCP
    /// sessions are told of each new one).
    pub generations: watch::Receiver<u64>,
    /// MCP at /mcp; none turns it off.
    pub mcp: Option<Arc<McpState>>,
    /// Comparisons of two versions computed so far.
    pub compare: Arc<compare::Memo>,
    /// Changes no build has served yet: /status and /readyz say so when
    /// builds stop finishing.
    pub progress: Arc<crate::live::Progress>,
    /// The access tokens, with `--access-tokens`: private brands, embargoed
    /// versions and (with `--preview-access token`) previews answer their
    /// holders only.
    pub access: Option<Arc<crate::access::Access>>,
    /// `--ops-token`: the bearer token /status and /metrics require, if any.
    pub ops_token: Option<Arc<str>>,
    /// The proxies believed (`--trusted-proxy`): who a request's client is.
    pub clients: client::Clients,
    /// Purges and release events, when any target is configured: /status
    /// counts their deliveries.
    pub outbox: Option<crate::outbound::outbox::Outbox>,
}

/// What the webhook needs in git mode.
pub struct GitHooks {
    /// Wakes the git worker.
    pub trigger: std::sync::mpsc::Sender<()>,
    /// The shared secret that deliveries must be signed with; none turns
    /// the webhook off.
    pub secret: Option<Arc<str>>,
    /// Bodies being read (unauthenticated until read): slots in all and
    /// per client, and the pace a body must keep.
    pub reads: webhook::Reads,
    /// With Redis: the channel on which a verified delivery tells the
    /// other replicas to fetch.
    pub fanout: Option<Arc<crate::live::fanout::Fanout>>,
}

/// What /mcp needs when it is on.
pub struct McpState {
    /// The browser origins it accepts.
    pub origins: Vec<String>,
    /// The sessions it holds, and their bounds.
    pub sessions: Arc<mcp::sessions::Sessions>,
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
    if let Some(m) = &state.mcp {
        let sessions = m.sessions.clone();
        let gate = move |req, next| mcp::sessions::gate(sessions.clone(), mcp::MAX_BODY, req, next);
        let mcp = Router::new()
            .route_service(paths::MCP, mcp_service(&state, &m.origins, &m.sessions))
            .layer(axum::middleware::from_fn(gate))
            .layer(axum::middleware::from_fn(mcp::reply::as_json));
        router = router.merge(mcp);
    }
    router
        .route(paths::METRICS, get(metrics::metrics))
        .route(paths::EVENTS, get(events::events))
        .route(paths::HOOK_GIT, post(webhook::handle))
        .route(
            paths::SIGN_IN,
            get(access::sign_in_form).post(access::sign_in),
        )
        .route(paths::SIGN_OUT, post(access::sign_out))
        .route(paths::COMPARE_PATTERN, get(compare::handle))
        .route(paths::PREVIEW_COMPARE_PATTERN, get(compare::handle_preview))
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
    sessions: &mcp::sessions::Sessions,
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
        sessions.manager.clone(),
        config,
    )
}

async fn fallback(uri: axum::http::Uri) -> Response {
    fast_path::not_found(uri.path()).into_response()
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
    problem::refused(
        crate::paths::Refusal::Method,
        "the demo endpoint takes POST with a JSON body",
    )
    .header(header::ALLOW, "POST")
    .into_response()
}
