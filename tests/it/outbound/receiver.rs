//! A real HTTP server on 127.0.0.1:0 that records every request and
//! answers from its script (then from its responder, then 200): what
//! each target of marque's deliveries is in these tests.

use axum::http::HeaderMap;
use serde_json::Value;
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One request as a receiver got it.
#[derive(Debug, Clone)]
pub struct Got {
    pub at: Instant,
    pub method: String,
    pub path: String,
    pub query: String,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Got {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap()
    }

    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map_or("", |v| v.to_str().unwrap_or(""))
    }
}

/// How a receiver answers.
#[derive(Debug, Clone, Copy)]
pub enum Answer {
    Status(u16),
    /// A status with `Retry-After` in seconds.
    RetryAfter(u16, u64),
    /// Never answers (until the sender gives up).
    Hang,
}

/// What answers a request the script does not: a status and a JSON body.
pub type Responder = Arc<dyn Fn(&Got) -> Option<(u16, Value)> + Send + Sync>;

#[derive(Clone, Default)]
struct Shared {
    got: Arc<Mutex<Vec<Got>>>,
    script: Arc<Mutex<VecDeque<Answer>>>,
}

pub struct Receiver {
    addr: SocketAddr,
    shared: Shared,
    _rt: tokio::runtime::Runtime,
}

impl Receiver {
    pub fn start(script: &[Answer]) -> Receiver {
        Receiver::with(script, Arc::new(|_: &Got| None))
    }

    pub fn with(script: &[Answer], responder: Responder) -> Receiver {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let shared = Shared::default();
        shared.script.lock().unwrap().extend(script);
        let s = shared.clone();
        let addr = rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let app = axum::Router::new().fallback(move |req: axum::extract::Request| {
                let (s, responder) = (s.clone(), responder.clone());
                async move { answer(&s, &responder, req).await }
            });
            tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
            addr
        });
        Receiver {
            addr,
            shared,
            _rt: rt,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn got(&self) -> Vec<Got> {
        self.shared.got.lock().unwrap().clone()
    }

    /// Waits (at most 20 s) until `n` requests have arrived.
    pub fn wait_for(&self, n: usize, what: &str) -> Vec<Got> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let got = self.got();
            if got.len() >= n {
                return got;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}: {got:?}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

async fn answer(
    s: &Shared,
    responder: &Responder,
    req: axum::extract::Request,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let got = Got {
        at: Instant::now(),
        method: req.method().to_string(),
        path: req.uri().path().to_string(),
        query: req.uri().query().unwrap_or_default().to_string(),
        headers: req.headers().clone(),
        body: axum::body::to_bytes(req.into_body(), 1 << 20)
            .await
            .unwrap()
            .to_vec(),
    };
    s.got.lock().unwrap().push(got.clone());
    let status = |code: u16| axum::http::StatusCode::from_u16(code).unwrap();
    let scripted = s.script.lock().unwrap().pop_front();
    match scripted {
        Some(Answer::Status(code)) => status(code).into_response(),
        Some(Answer::RetryAfter(code, secs)) => {
            (status(code), [("retry-after", secs.to_string())]).into_response()
        }
        Some(Answer::Hang) => {
            tokio::time::sleep(Duration::from_secs(3600)).await;
            status(200).into_response()
        }
        None => match responder(&got) {
            Some((code, body)) => (
                status(code),
                [("content-type", "application/json")],
                body.to_string(),
            )
                .into_response(),
            None => status(200).into_response(),
        },
    }
}
