//! Accepting connections, one runtime per core. Each of `--threads` threads
//! runs a current-thread tokio runtime with its own `SO_REUSEPORT` listener
//! on the same address, so the kernel spreads connections over the cores
//! and no two threads share a run queue, a listener or a counter. A GET for
//! a snapshot resource is answered there (see [`super::fast_path`]); every
//! other request (the demo, the webhook, MCP, events, metrics) is handed to
//! the main runtime, which also does the background work.
//!
//! Budgets per connection: the open connections are capped
//! (`--max-connections`, further clients wait to be accepted), a request
//! head must arrive within `--header-timeout` (or the client gets 408, see
//! [`super::conn`]), and a request body within `--body-timeout` (a webhook
//! body also at a minimum pace, see [`super::webhook`]).
//!
//! Shutdown (SIGTERM, SIGINT): each thread stops accepting, takes the
//! connections the kernel has already completed, closes its listener (a
//! new client is refused), and waits up to `--drain-timeout` for every
//! request in flight to be answered; idle keep-alive connections close at
//! once. What is left then is closed, with a warning in the log.

use super::body::{ResBody, TimedBody};
use super::conn::{ConnState, Guarded};
use super::{fast_path, AppState};
use axum::extract::ConnectInfo;
use axum::http::{Request, Response, StatusCode};
use axum::response::IntoResponse;
use axum::Router;
use futures_util::future::{BoxFuture, Either, Ready};
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::{watch, Semaphore};
use tower::ServiceExt;

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Connections served at once; the accept loops wait when all are taken.
    pub max_connections: usize,
    /// Time a client has to send a request head, idle keep-alive included.
    pub header_timeout: Duration,
    /// Time a client has to send a whole request body.
    pub body_timeout: Duration,
    /// Time in-flight requests get to finish after a shutdown signal (`--drain-timeout`).
    pub drain_timeout: Duration,
    /// Threads (runtimes, listeners) accepting connections.
    pub threads: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 10_000,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            drain_timeout: Duration::from_secs(10),
            threads: default_threads(),
        }
    }
}

/// Connections the kernel completes and queues for each listener.
const BACKLOG: u32 = 4096;

/// How long a stopping server waits for the first request of a connection
/// that has sent none yet: one accepted just before the signal is sending
/// it, while a browser's preconnect that never sends must not hold the
/// drain up to `--header-timeout`.
const FIRST_REQUEST_GRACE: Duration = Duration::from_secs(1);

/// The cores this process may run on.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Binds `threads` listeners to `addr`, all with `SO_REUSEPORT`; with port 0
/// the first one picks the port and the others take the same.
pub fn bind(addr: SocketAddr, threads: usize) -> std::io::Result<Vec<std::net::TcpListener>> {
    let mut out = Vec::new();
    let mut addr = addr;
    for _ in 0..threads.max(1) {
        let socket = if addr.is_ipv4() {
            TcpSocket::new_v4()?
        } else {
            TcpSocket::new_v6()?
        };
        socket.set_reuseaddr(true)?;
        #[cfg(unix)]
        socket.set_reuseport(true)?;
        socket.set_nodelay(true)?;
        socket.bind(addr)?;
        let listener = socket.listen(BACKLOG)?;
        addr = listener.local_addr()?;
        out.push(listener.into_std()?);
    }
    Ok(out)
}

/// What every connection of the server shares.
struct Shared {
    state: AppState,
    router: Router,
    background: tokio::runtime::Handle,
    limits: Limits,
}

/// Serves on `listeners`, one thread each, until `stop` turns true; then
/// drains and returns. Must be called inside the main runtime.
pub async fn serve(
    listeners: Vec<std::net::TcpListener>,
    state: AppState,
    router: Router,
    limits: Limits,
    stop: watch::Receiver<bool>,
) {
    let shared = Arc::new(Shared {
        state,
        router,
        background: tokio::runtime::Handle::current(),
        limits,
    });
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let mut done = Vec::new();
    for (i, listener) in listeners.into_iter().enumerate() {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let (shared, permits, stop) = (shared.clone(), permits.clone(), stop.clone());
        let spawned = std::thread::Builder::new()
            .name(format!("marque-http-{i}"))
            .spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build();
                match rt {
                    Ok(rt) => rt.block_on(accept_loop(i, listener, shared, permits, stop)),
                    Err(e) => tracing::error!(error = %e, "cannot start an HTTP runtime"),
                }
                let _ = tx.send(());
            });
        match spawned {
            Ok(_) => done.push(rx),
            Err(e) => tracing::error!(error = %e, "cannot start an HTTP thread"),
        }
    }
    for rx in done {
        let _ = rx.await;
    }
}

async fn accept_loop(
    shard: usize,
    listener: std::net::TcpListener,
    shared: Arc<Shared>,
    permits: Arc<Semaphore>,
    mut stop: watch::Receiver<bool>,
) {
    let listener = match TcpListener::from_std(listener) {
        Ok(l) => l,
        Err(e) => {
            tracing::error!(error = %e, "cannot listen");
            return;
        }
    };
    let limits = shared.limits;
    // Each connection's task holds a sender: when the last is dropped,
    // every connection of this thread is done (mini-redis's
    // `shutdown_complete`).
    let (alive, mut all_done) = tokio::sync::mpsc::channel::<()>(1);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(conn) => conn,
                Err(e) => {
                    // Typically EMFILE: back off briefly instead of spinning.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = stop.wait_for(|s| *s) => break,
        };
        spawn_connection(stream, peer, shard, &shared, &permits, &alive, &stop);
    }
    // A client whose connection the kernel completed before the close was
    // told it is connected: closing the listener with it queued would
    // reset it. Those queued are taken (by the system call itself: the
    // runtime's readiness may be stale) and served like any in flight, at
    // most a full queue's worth, so clients that keep connecting cannot
    // hold the listener open; a client that connects after the close is
    // refused, and tries another replica.
    if let Ok(listener) = listener.into_std() {
        // First the queue is shrunk to what it holds: a new client's SYN
        // is then dropped (and, retried, refused) rather than completed in
        // the instant before the close; one can still slip in then.
        let _ = socket2::SockRef::from(&listener).listen(0);
        for _ in 0..BACKLOG {
            let Ok((stream, peer)) = listener.accept() else {
                break;
            };
            // An accepted socket does not inherit the listener's O_NONBLOCK.
            let stream = stream
                .set_nonblocking(true)
                .and_then(|()| tokio::net::TcpStream::from_std(stream));
            match stream {
                Ok(stream) => {
                    spawn_connection(stream, peer, shard, &shared, &permits, &alive, &stop)
                }
                Err(e) => tracing::warn!(error = %e, "a queued connection could not be served"),
            }
        }
    }
    drop(alive);
    tokio::select! {
        _ = all_done.recv() => {},
        () = tokio::time::sleep(limits.drain_timeout) => tracing::warn!(
            drain_timeout_s = limits.drain_timeout.as_secs_f64(),
            "drain timed out; closing remaining connections"
        ),
    }
}

/// Serves one accepted connection on this thread's runtime. Once the
/// server stops, the connection finishes the request it has (a new one,
/// its first, if it comes within [`FIRST_REQUEST_GRACE`]) with
/// `connection: close` and closes; an idle keep-alive connection closes
/// at once. `alive` is held until it is done.
fn spawn_connection(
    stream: tokio::net::TcpStream,
    peer: SocketAddr,
    shard: usize,
    shared: &Arc<Shared>,
    permits: &Arc<Semaphore>,
    alive: &tokio::sync::mpsc::Sender<()>,
    stop: &watch::Receiver<bool>,
) {
    let _ = stream.set_nodelay(true);
    shared.state.counters.connection(shard);
    let (permits, alive, shared) = (permits.clone(), alive.clone(), shared.clone());
    let mut stop = stop.clone();
    let timeout = shared.limits.header_timeout;
    tokio::spawn(async move {
        let _alive = alive;
        // Over the cap, a connection waits here, unanswered, for a slot:
        // a permit is taken only by a connection that will be served, so
        // one freed on any thread serves the next connection of any thread.
        let Ok(_permit) = permits.acquire_owned().await else {
            return;
        };
        // Its time for a head starts when it is served.
        let conn_state = ConnState::new();
        let service = Conn {
            shared,
            peer,
            shard,
            state: conn_state.clone(),
        };
        let io = TokioIo::new(Guarded::new(stream, conn_state.clone(), timeout));
        let conn = hyper::server::conn::http1::Builder::new()
            .keep_alive(true)
            .serve_connection(io, service);
        let mut conn = std::pin::pin!(conn);
        let stopping = async {
            let _ = stop.wait_for(|s| *s).await;
            let first = conn_state.has_had_a_request();
            let _ = tokio::time::timeout(FIRST_REQUEST_GRACE, first).await;
        };
        tokio::select! {
            _ = conn.as_mut() => return,
            () = stopping => conn.as_mut().graceful_shutdown(),
        }
        let _ = conn.await;
    });
}

/// One connection's request handler.
struct Conn {
    shared: Arc<Shared>,
    peer: SocketAddr,
    shard: usize,
    state: Arc<ConnState>,
}

type Reply = Result<Response<ResBody>, std::convert::Infallible>;

impl hyper::service::Service<Request<Incoming>> for Conn {
    type Response = Response<ResBody>;
    type Error = std::convert::Infallible;
    type Future = Either<Ready<Reply>, BoxFuture<'static, Reply>>;

    fn call(&self, req: Request<Incoming>) -> Self::Future {
        let done = self.state.begin();
        let app = &self.shared.state;
        if let Some(res) = fast_path::answer(
            app,
            req.method(),
            req.uri().path(),
            req.headers(),
            self.peer.ip(),
        ) {
            app.counters.response(self.shard, res.status());
            return Either::Left(futures_util::future::ready(Ok(
                res.map(|b| b.with_done(done))
            )));
        }
        // Everything else runs on the main runtime, with a deadline on the body.
        let (parts, body) = req.into_parts();
        let body = axum::body::Body::new(TimedBody::new(body, self.shared.limits.body_timeout));
        let mut req = Request::from_parts(parts, body);
        req.extensions_mut().insert(ConnectInfo(self.peer));
        let shared = self.shared.clone();
        let shard = self.shard;
        Either::Right(Box::pin(async move {
            let router = shared.router.clone();
            let res = match shared.background.spawn(router.oneshot(req)).await {
                Ok(Ok(res)) => res,
                Ok(Err(never)) => match never {},
                Err(e) => {
                    tracing::error!(error = %e, "a request handler failed");
                    super::problem::Problem::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "the request could not be answered",
                    )
                    .into_response()
                }
            };
            shared.state.counters.response(shard, res.status());
            Ok(res.map(|b| ResBody::stream(b).with_done(done)))
        }))
    }
}

/// Resolves on SIGTERM or SIGINT (Ctrl-C).
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutdown signal received; draining");
}
