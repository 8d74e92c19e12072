//! Bounds on what MCP clients can make marque hold. Every session costs
//! memory until it ends, and `initialize` is anonymous, so the sessions
//! that `/mcp` keeps are capped in all and per client address, opened
//! under a rate limit, and ended when idle; refusals are an HTTP status
//! with a JSON-RPC error body, and counted for `/metrics`.
//!
//! The gate also answers what the SDK's transport answers wrongly for
//! JSON-RPC: a body that is not JSON is 400 with a parse error (-32700),
//! a batch or a non-message 400 with an invalid request (-32600), a
//! DELETE of a session that does not exist 404, and of one that does 204.

use super::super::client::{key_of, Cidr};
use crate::demo::limit::{ceil_secs, Decision, DemoLimiter};
use axum::body::Body;
use axum::extract::{ConnectInfo, Request};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::session::SessionManager;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
// tokio's clock, so that tests can move time on.
use tokio::time::Instant;

/// Largest `initialize` body: its client info is held for the whole
/// session, so it is kept far below the limit of other messages.
pub const MAX_INITIALIZE_BODY: usize = 16 * 1024;

/// The bounds, from the command line.
#[derive(Debug, Clone, Copy)]
pub struct SessionLimits {
    /// Sessions open at once, from every client together.
    pub total: usize,
    /// Sessions open at once from one client address (IPv6: one /64).
    pub per_client: usize,
    /// A session unused this long is ended.
    pub idle: Duration,
    /// `initialize` calls a client may make per minute (bursts of `per_client`).
    pub initialize_per_minute: u32,
}

impl Default for SessionLimits {
    fn default() -> SessionLimits {
        SessionLimits {
            total: 1024,
            per_client: 16,
            idle: Duration::from_secs(300),
            initialize_per_minute: 30,
        }
    }
}

/// Why a new session was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionRefusal {
    /// The server holds as many sessions as it may.
    Full,
    /// This client holds as many sessions as one client may.
    ClientFull,
    /// This client opened sessions too quickly.
    Rate,
}

impl SessionRefusal {
    pub const ALL: [SessionRefusal; 3] = [
        SessionRefusal::Full,
        SessionRefusal::ClientFull,
        SessionRefusal::Rate,
    ];

    /// Its label in `/metrics`.
    pub fn label(self) -> &'static str {
        match self {
            SessionRefusal::Full => "sessions",
            SessionRefusal::ClientFull => "client",
            SessionRefusal::Rate => "rate",
        }
    }

    fn status(self) -> StatusCode {
        match self {
            SessionRefusal::Full => StatusCode::SERVICE_UNAVAILABLE,
            SessionRefusal::ClientFull | SessionRefusal::Rate => StatusCode::TOO_MANY_REQUESTS,
        }
    }
}

struct Open {
    client: IpAddr,
    last_used: Instant,
}

#[derive(Default)]
struct Table {
    open: HashMap<Arc<str>, Open>,
    /// Sessions per client, those being opened included.
    per_client: HashMap<IpAddr, usize>,
    /// Sessions being opened (counted before `initialize` is answered, so
    /// that a burst of them cannot pass the caps together).
    opening: usize,
}

impl Table {
    fn release(&mut self, client: IpAddr) {
        if let Some(n) = self.per_client.get_mut(&client) {
            *n -= 1;
            if *n == 0 {
                self.per_client.remove(&client);
            }
        }
    }
}

/// The sessions `/mcp` holds, and the gate in front of it.
pub struct Sessions {
    pub manager: Arc<LocalSessionManager>,
    limits: SessionLimits,
    table: Mutex<Table>,
    initialize: DemoLimiter,
    trusted: Vec<Cidr>,
    refused: [AtomicU64; 3],
    expired: AtomicU64,
    /// When a refusal was last logged, and how many since (one line per
    /// ten seconds at most, whatever a client sends).
    logged: Mutex<(Option<Instant>, u64)>,
}

impl Sessions {
    pub fn new(limits: SessionLimits, trusted: Vec<Cidr>) -> Arc<Sessions> {
        let mut manager = LocalSessionManager::default();
        // The SDK's own idle end is a safety net behind ours.
        manager.session_config.keep_alive = Some(limits.idle + Duration::from_secs(60));
        Arc::new(Sessions {
            manager: Arc::new(manager),
            limits,
            table: Mutex::default(),
            // A client may open its whole allowance twice in a burst.
            initialize: DemoLimiter::new(
                limits.initialize_per_minute,
                (limits.per_client.max(1) * 2).min(u32::MAX as usize) as u32,
            ),
            trusted,
            refused: Default::default(),
            expired: AtomicU64::new(0),
            logged: Mutex::new((None, 0)),
        })
    }

    fn table(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sessions open now.
    pub fn open(&self) -> usize {
        self.table().open.len()
    }

    /// New sessions refused so far, for one reason.
    pub fn refused(&self, why: SessionRefusal) -> u64 {
        self.refused[why as usize].load(Ordering::Relaxed)
    }

    /// Sessions ended for being idle so far.
    pub fn expired(&self) -> u64 {
        self.expired.load(Ordering::Relaxed)
    }

    pub fn limits(&self) -> SessionLimits {
        self.limits
    }

    /// Takes a place for a new session of `client`, or says why not.
    /// The caps are checked first, so a client at its cap spends no quota;
    /// a client at its own cap is told so (it can end one of its sessions)
    /// before it is told the server is full.
    fn reserve(&self, client: IpAddr) -> Result<(), (SessionRefusal, Duration)> {
        let mut t = self.table();
        if t.per_client.get(&client).copied().unwrap_or(0) >= self.limits.per_client {
            return Err((SessionRefusal::ClientFull, self.limits.idle));
        }
        if t.open.len() + t.opening >= self.limits.total {
            return Err((SessionRefusal::Full, Duration::from_secs(60)));
        }
        if let Decision::Limited { retry_after } = self.initialize.check(client) {
            return Err((SessionRefusal::Rate, retry_after));
        }
        *t.per_client.entry(client).or_insert(0) += 1;
        t.opening += 1;
        Ok(())
    }

    /// The place taken by [`Sessions::reserve`] becomes session `id`, or is
    /// given back when no session was made.
    fn settle(&self, client: IpAddr, id: Option<&str>) {
        let mut t = self.table();
        t.opening -= 1;
        match id {
            Some(id) => {
                let open = Open {
                    client,
                    last_used: Instant::now(),
                };
                if let Some(before) = t.open.insert(Arc::from(id), open) {
                    t.release(before.client);
                }
            }
            None => t.release(client),
        }
    }

    /// Marks session `id` used now; false when marque holds no such session.
    fn touch(&self, id: &str) -> bool {
        match self.table().open.get_mut(id) {
            Some(open) => {
                open.last_used = Instant::now();
                true
            }
            None => false,
        }
    }

    /// Forgets session `id` (ended by its client).
    fn forget(&self, id: &str) {
        let mut t = self.table();
        if let Some(open) = t.open.remove(id) {
            t.release(open.client);
        }
    }

    /// Ends every session idle for longer than the limit.
    pub async fn expire(&self) {
        let idle: Vec<Arc<str>> = {
            let mut t = self.table();
            let now = Instant::now();
            let idle: Vec<Arc<str>> = t
                .open
                .iter()
                .filter(|(_, o)| now.duration_since(o.last_used) > self.limits.idle)
                .map(|(id, _)| id.clone())
                .collect();
            for id in &idle {
                if let Some(open) = t.open.remove(id) {
                    t.release(open.client);
                }
            }
            idle
        };
        for id in idle {
            let _ = self.manager.close_session(&id.to_string().into()).await;
            self.expired.fetch_add(1, Ordering::Relaxed);
        }
        self.initialize.purge();
    }

    /// Ends idle sessions every few seconds until marque stops.
    pub fn spawn_expiry(self: &Arc<Self>, mut stopping: tokio::sync::watch::Receiver<bool>) {
        let sessions = Arc::downgrade(self);
        let every =
            (self.limits.idle / 4).clamp(Duration::from_millis(100), Duration::from_secs(15));
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(every) => {}
                    _ = stopping.wait_for(|s| *s) => return,
                }
                let Some(s) = sessions.upgrade() else { return };
                s.expire().await;
            }
        });
    }

    fn refuse(&self, why: SessionRefusal, client: IpAddr, retry_after: Duration) -> Response {
        self.refused[why as usize].fetch_add(1, Ordering::Relaxed);
        let message = match why {
            SessionRefusal::Full => format!(
                "marque holds as many MCP sessions as it may ({}); try again later",
                self.limits.total
            ),
            SessionRefusal::ClientFull => format!(
                "your address holds as many MCP sessions as one client may ({}); end one (DELETE /mcp) or let one go idle for {} s",
                self.limits.per_client,
                self.limits.idle.as_secs()
            ),
            SessionRefusal::Rate => format!(
                "too many MCP sessions opened from your address; try again in {} s",
                ceil_secs(retry_after)
            ),
        };
        self.log_refusal(why, client);
        let mut res = rpc_error(why.status(), Value::Null, -32000, &message);
        if let Ok(v) = HeaderValue::from_str(&ceil_secs(retry_after).to_string()) {
            res.headers_mut().insert(header::RETRY_AFTER, v);
        }
        res
    }

    /// One line per ten seconds at most, with the count since the last.
    fn log_refusal(&self, why: SessionRefusal, client: IpAddr) {
        let mut logged = self.logged.lock().unwrap_or_else(|e| e.into_inner());
        logged.1 += 1;
        let due = logged
            .0
            .is_none_or(|at| at.elapsed() >= Duration::from_secs(10));
        if due {
            tracing::warn!(
                reason = why.label(),
                %client,
                refused = logged.1,
                "MCP sessions refused (counted since the last such line)"
            );
            *logged = (Some(Instant::now()), 0);
        }
    }
}

/// A JSON-RPC error as the whole HTTP answer.
fn rpc_error(status: StatusCode, id: Value, code: i64, message: &str) -> Response {
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    let mut res = (status, body.to_string()).into_response();
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    res.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    res
}

fn session_id(req: &Request) -> Option<String> {
    req.headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

fn is_json(req: &Request) -> bool {
    req.headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.trim_start()
                .to_ascii_lowercase()
                .starts_with("application/json")
        })
}

/// What a POST body is, as far as the gate needs to know.
enum Message {
    /// An `initialize` request, which opens a session.
    Initialize,
    /// Any other message.
    Other,
}

/// Why a POST body is not one JSON-RPC message: the error to answer with.
struct NotMessage {
    id: Value,
    code: i64,
    message: &'static str,
}

impl NotMessage {
    fn into_response(self) -> Response {
        rpc_error(StatusCode::BAD_REQUEST, self.id, self.code, self.message)
    }
}

/// Reads a POST body as JSON-RPC, or says why it is not one.
fn classify(bytes: &[u8]) -> Result<Message, NotMessage> {
    let value: Value = serde_json::from_slice(bytes).map_err(|_| NotMessage {
        id: Value::Null,
        code: -32700,
        message: "parse error: the body is not JSON",
    })?;
    let id = value
        .get("id")
        .cloned()
        .filter(|id| id.is_string() || id.is_number())
        .unwrap_or(Value::Null);
    let invalid = |message: &'static str| NotMessage {
        id: id.clone(),
        code: -32600,
        message,
    };
    if value.is_array() {
        return Err(invalid(
            "invalid request: batches are not part of MCP (since 2025-06-18); send one message per request",
        ));
    }
    let Some(obj) = value.as_object() else {
        return Err(invalid("invalid request: a JSON-RPC message is an object"));
    };
    if obj.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(invalid("invalid request: `jsonrpc` must be \"2.0\""));
    }
    let is_reply = obj.contains_key("result") || obj.contains_key("error");
    match obj.get("method") {
        Some(Value::String(m)) if m == "initialize" => Ok(Message::Initialize),
        Some(Value::String(_)) => Ok(Message::Other),
        Some(_) => Err(invalid("invalid request: `method` must be a string")),
        None if is_reply && obj.contains_key("id") => Ok(Message::Other),
        None => Err(invalid(
            "invalid request: a JSON-RPC message has a `method`",
        )),
    }
}

/// The middleware in front of the SDK's transport.
pub async fn gate(
    sessions: Arc<Sessions>,
    max_body: usize,
    req: Request,
    next: axum::middleware::Next,
) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip());
    let client = key_of(super::super::client::client_of(
        peer,
        req.headers(),
        &sessions.trusted,
    ));
    let id = session_id(&req);
    match *req.method() {
        Method::DELETE => {
            let Some(id) = id else {
                return next.run(req).await;
            };
            let known = sessions
                .manager
                .has_session(&id.clone().into())
                .await
                .unwrap_or(false);
            if !known {
                return rpc_error(
                    StatusCode::NOT_FOUND,
                    Value::Null,
                    -32001,
                    "no such session: it ended, expired, or never existed",
                );
            }
            sessions.forget(&id);
            // The SDK answers 202, which clients read as a failure to end
            // the session: ended, it is 204 No Content.
            let mut res = next.run(req).await;
            if res.status() == StatusCode::ACCEPTED {
                *res.status_mut() = StatusCode::NO_CONTENT;
            }
            res
        }
        Method::POST if is_json(&req) => {
            let (parts, body) = req.into_parts();
            let limit = if id.is_some() {
                max_body
            } else {
                MAX_INITIALIZE_BODY.min(max_body)
            };
            let bytes = match axum::body::to_bytes(body, limit).await {
                Ok(b) => b,
                Err(_) => {
                    return rpc_error(
                        StatusCode::PAYLOAD_TOO_LARGE,
                        Value::Null,
                        -32600,
                        &format!("the body is over {limit} bytes"),
                    )
                }
            };
            let message = match classify(&bytes) {
                Ok(m) => m,
                Err(not) => return not.into_response(),
            };
            let req = Request::from_parts(parts, Body::from(bytes));
            if let Some(id) = id {
                sessions.touch(&id);
                return next.run(req).await;
            }
            if !matches!(message, Message::Initialize) {
                return next.run(req).await;
            }
            if let Err((why, retry)) = sessions.reserve(client) {
                return sessions.refuse(why, client, retry);
            }
            let res = next.run(req).await;
            let made = res
                .headers()
                .get("mcp-session-id")
                .and_then(|v| v.to_str().ok())
                .filter(|_| res.status().is_success());
            sessions.settle(client, made);
            res
        }
        _ => {
            if let Some(id) = &id {
                sessions.touch(id);
            }
            next.run(req).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of `total` sessions, `per_client` each, opened at `rate` a
    /// minute, ended after a minute idle.
    fn sessions(total: usize, per_client: usize, rate: u32) -> Arc<Sessions> {
        let limits = SessionLimits {
            total,
            per_client,
            idle: Duration::from_secs(60),
            initialize_per_minute: rate,
        };
        Sessions::new(limits, Vec::new())
    }

    #[test]
    fn bodies_that_are_not_one_json_rpc_message_are_told_apart() {
        let code = |body: &[u8]| match classify(body) {
            Ok(Message::Initialize) => "initialize",
            Ok(Message::Other) => "other",
            Err(not) => {
                assert!(matches!(not.code, -32700 | -32600), "{}", not.message);
                "refused"
            }
        };
        assert_eq!(code(b"{not json"), "refused");
        assert_eq!(code(b""), "refused");
        assert_eq!(code(b"null"), "refused");
        assert_eq!(code(b"42"), "refused");
        assert_eq!(code(b"[]"), "refused");
        assert_eq!(
            code(br#"[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]"#),
            "refused"
        );
        assert_eq!(
            code(br#"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#),
            "refused"
        );
        assert_eq!(code(br#"{"jsonrpc":"2.0","id":1}"#), "refused");
        assert_eq!(code(br#"{"jsonrpc":"2.0","id":1,"method":5}"#), "refused");
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":1,"method":"initialize"}"#),
            "initialize"
        );
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#),
            "other"
        );
        assert_eq!(
            code(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#),
            "other"
        );
        assert_eq!(code(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#), "other");
    }

    #[test]
    fn sessions_are_capped_per_client_and_in_all() {
        let s = sessions(3, 2, 1000);
        let (a, b, c) = (
            IpAddr::from([10, 0, 0, 1]),
            IpAddr::from([10, 0, 0, 2]),
            IpAddr::from([10, 0, 0, 3]),
        );
        for (n, client) in [(1, a), (2, a)] {
            s.reserve(client).unwrap();
            s.settle(client, Some(&format!("a{n}")));
        }
        assert_eq!(s.reserve(a).unwrap_err().0, SessionRefusal::ClientFull);
        s.reserve(b).unwrap();
        assert_eq!(
            s.reserve(c).unwrap_err().0,
            SessionRefusal::Full,
            "one being opened counts"
        );
        s.settle(b, None);
        s.reserve(c).unwrap();
        s.settle(c, Some("c1"));
        assert_eq!(s.open(), 3);
        s.forget("a1");
        assert_eq!(s.open(), 2);
        s.reserve(a).unwrap();
    }

    #[tokio::test(flavor = "current_thread", start_paused = true)]
    async fn idle_sessions_end_and_give_their_place_back() {
        let s = sessions(10, 1, 1000);
        let a = IpAddr::from([10, 0, 0, 1]);
        s.reserve(a).unwrap();
        s.settle(a, Some("x"));
        assert_eq!(s.reserve(a).unwrap_err().0, SessionRefusal::ClientFull);
        tokio::time::advance(Duration::from_secs(30)).await;
        assert!(s.touch("x"));
        s.expire().await;
        assert_eq!(s.open(), 1, "used 30 s ago");
        tokio::time::advance(Duration::from_secs(61)).await;
        s.expire().await;
        assert_eq!((s.open(), s.expired()), (0, 1));
        assert!(!s.touch("x"));
        s.reserve(a).unwrap();
    }

    #[test]
    fn initialize_is_rate_limited_per_client() {
        let s = sessions(100, 2, 1);
        let a = IpAddr::from([10, 0, 0, 1]);
        for _ in 0..4 {
            s.reserve(a).unwrap();
            s.settle(a, None);
        }
        assert_eq!(s.reserve(a).unwrap_err().0, SessionRefusal::Rate);
        assert!(s.reserve(IpAddr::from([10, 0, 0, 2])).is_ok());
    }
}
