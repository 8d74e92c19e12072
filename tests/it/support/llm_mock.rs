//! A real local HTTP server that speaks the OpenAI Chat Completions and
//! Anthropic Messages wire formats, including their streams and error
//! bodies. Tests queue replies and read back exactly what marque sent.

use axum::body::Body;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct Recorded {
    pub path: String,
    pub headers: HeaderMap,
    pub body: Value,
}

#[derive(Debug, Clone)]
pub enum Reply {
    /// A status, extra headers and a JSON body.
    Json(u16, Vec<(&'static str, String)>, Value),
    /// A `text/event-stream` body made of these SSE events.
    Stream(Vec<String>),
    /// Answer after a delay.
    Slow(Duration, Box<Reply>),
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Wire {
    OpenAi,
    Anthropic,
}

#[derive(Clone)]
struct Shared {
    wire: Wire,
    requests: Arc<Mutex<Vec<Recorded>>>,
    script: Arc<Mutex<VecDeque<Reply>>>,
}

pub struct MockLlm {
    pub addr: SocketAddr,
    shared: Shared,
    _rt: tokio::runtime::Runtime,
}

impl MockLlm {
    pub fn start(wire: Wire) -> MockLlm {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let shared = Shared {
            wire,
            requests: Default::default(),
            script: Default::default(),
        };
        let s = shared.clone();
        let addr = rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let addr = listener.local_addr().unwrap();
            let app = axum::Router::new()
                .fallback(move |req: axum::extract::Request| handle(s.clone(), req));
            tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
            addr
        });
        MockLlm {
            addr,
            shared,
            _rt: rt,
        }
    }

    /// The base URL marque is configured with (`…/v1`).
    pub fn base_url(&self) -> String {
        format!("http://{}/v1", self.addr)
    }

    pub fn push(&self, reply: Reply) {
        self.shared.script.lock().unwrap().push_back(reply);
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.requests.lock().unwrap().clone()
    }
}

async fn handle(s: Shared, req: axum::extract::Request) -> Response {
    let path = req.uri().path().to_string();
    let headers = req.headers().clone();
    let bytes = axum::body::to_bytes(req.into_body(), 1 << 20)
        .await
        .unwrap();
    let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    s.requests.lock().unwrap().push(Recorded {
        path,
        headers,
        body: body.clone(),
    });
    let reply = s
        .script
        .lock()
        .unwrap()
        .pop_front()
        .unwrap_or_else(|| success(s.wire, &body));
    respond(reply).await
}

fn respond(reply: Reply) -> std::pin::Pin<Box<dyn std::future::Future<Output = Response> + Send>> {
    Box::pin(async move {
        match reply {
            Reply::Slow(d, inner) => {
                tokio::time::sleep(d).await;
                respond(*inner).await
            }
            Reply::Json(status, headers, body) => {
                let mut b = Response::builder()
                    .status(StatusCode::from_u16(status).unwrap())
                    .header("content-type", "application/json");
                for (k, v) in headers {
                    b = b.header(k, v);
                }
                b.body(Body::from(body.to_string())).unwrap()
            }
            Reply::Stream(events) => {
                let chunks = events
                    .into_iter()
                    .map(|e| Ok::<_, std::convert::Infallible>(format!("{e}\n\n")));
                Response::builder()
                    .header("content-type", "text/event-stream")
                    .body(Body::from_stream(futures_util::stream::iter(chunks)))
                    .unwrap()
            }
        }
    })
}

/// A successful, non-streamed answer in the provider's format.
pub fn success(wire: Wire, request: &Value) -> Reply {
    let model = request["model"].as_str().unwrap_or("m").to_string();
    match wire {
        Wire::OpenAi => Reply::Json(
            200,
            vec![],
            json!({
                "id": "chatcmpl-1", "object": "chat.completion", "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": "A calm notice."}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1200, "completion_tokens": 12, "total_tokens": 1212}
            }),
        ),
        Wire::Anthropic => Reply::Json(
            200,
            vec![],
            json!({
                "id": "msg_1", "type": "message", "role": "assistant", "model": model,
                "content": [{"type": "text", "text": "A calm "}, {"type": "text", "text": "notice."}],
                "stop_reason": "end_turn",
                "usage": {"input_tokens": 1300, "output_tokens": 9}
            }),
        ),
    }
}

/// A streamed answer in OpenAI's format: deltas, a usage chunk, `[DONE]`.
pub fn openai_stream(parts: &[&str]) -> Reply {
    let mut events: Vec<String> = vec![r#"data: {"id":"c","object":"chat.completion.chunk","model":"gpt-test","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}"#.into()];
    for p in parts {
        events.push(format!("data: {}", json!({"id": "c", "object": "chat.completion.chunk", "model": "gpt-test", "choices": [{"index": 0, "delta": {"content": p}}]})));
    }
    events.push(r#"data: {"id":"c","object":"chat.completion.chunk","model":"gpt-test","choices":[],"usage":{"prompt_tokens":50,"completion_tokens":3,"total_tokens":53}}"#.into());
    events.push("data: [DONE]".into());
    Reply::Stream(events)
}

/// A streamed answer in Anthropic's format, with its named events.
pub fn anthropic_stream(parts: &[&str]) -> Reply {
    let mut events = vec![
        format!(
            "event: message_start\ndata: {}",
            json!({"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test", "content": [], "usage": {"input_tokens": 70, "output_tokens": 1}}})
        ),
        format!(
            "event: content_block_start\ndata: {}",
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
        ),
        "event: ping\ndata: {\"type\": \"ping\"}".to_string(),
    ];
    for p in parts {
        events.push(format!("event: content_block_delta\ndata: {}", json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}})));
    }
    events.push(format!(
        "event: content_block_stop\ndata: {}",
        json!({"type": "content_block_stop", "index": 0})
    ));
    events.push(format!("event: message_delta\ndata: {}", json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 4}})));
    events.push("event: message_stop\ndata: {\"type\": \"message_stop\"}".to_string());
    Reply::Stream(events)
}
