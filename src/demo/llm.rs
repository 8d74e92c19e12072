//! Language-model clients over reqwest: OpenAI-compatible Chat Completions
//! (OpenAI, Ollama, vLLM, llama.cpp server), Anthropic Messages, and a dry
//! run that calls nothing.
//!
//! reqwest has no total timeout by default; every call here has a connect
//! timeout and a deadline, and is retried at most once (on a connect error,
//! 429 or 5xx), after the upstream's `retry-after` when it gives one, and
//! only if the retry still fits before the deadline. Upstream error bodies
//! are summarised, never passed on: they can echo keys or prompts.

use futures_util::{Stream, StreamExt};
use serde_json::{json, Value};
use std::pin::Pin;
use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ProviderKind {
    /// Any OpenAI-compatible Chat Completions API.
    Openai,
    /// Anthropic's Messages API.
    Anthropic,
    /// Call nothing; return the messages that would be sent.
    DryRun,
}

impl ProviderKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::Openai => "openai",
            ProviderKind::Anthropic => "anthropic",
            ProviderKind::DryRun => "dry-run",
        }
    }

    pub fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::Openai => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com/v1",
            ProviderKind::DryRun => "",
        }
    }

    pub fn default_model(self) -> &'static str {
        match self {
            ProviderKind::Openai => "gpt-4o-mini",
            ProviderKind::Anthropic => "claude-3-5-haiku-latest",
            ProviderKind::DryRun => "dry-run",
        }
    }
}

/// The Anthropic API version marque speaks.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

#[derive(Clone)]
pub struct LlmClient {
    http: reqwest::Client,
    pub kind: ProviderKind,
    pub base_url: String,
    pub model: String,
    api_key: Option<String>,
    pub timeout: Duration,
}

impl std::fmt::Debug for LlmClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never print the key.
        f.debug_struct("LlmClient")
            .field("kind", &self.kind)
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<set>"))
            .finish()
    }
}

/// What to ask the model.
#[derive(Debug, Clone)]
pub struct ChatRequest {
    pub system: String,
    pub user: String,
    pub max_tokens: u32,
    pub temperature: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Completion {
    pub output: String,
    pub model: String,
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// A piece of a streamed answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Chunk {
    Text(String),
    /// The end, with the token counts the provider reported.
    Done {
        model: String,
        input_tokens: u64,
        output_tokens: u64,
    },
}

pub type ChunkStream = Pin<Box<dyn Stream<Item = Result<Chunk, LlmError>> + Send>>;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    #[error("the model's API did not answer in time")]
    Timeout,
    #[error("the model's API is rate limiting marque")]
    RateLimited { retry_after: Option<Duration> },
    #[error("{0}")]
    Upstream(String),
}

impl LlmError {
    /// Which of the demo endpoint's refusals the failure is.
    pub fn refusal(&self) -> crate::paths::Refusal {
        use crate::paths::Refusal;
        match self {
            LlmError::Timeout => Refusal::UpstreamTimeout,
            LlmError::RateLimited { .. } => Refusal::Busy,
            LlmError::Upstream(_) => Refusal::Upstream,
        }
    }
}

impl LlmClient {
    pub fn new(
        kind: ProviderKind,
        base_url: Option<String>,
        model: Option<String>,
        api_key: Option<String>,
        timeout: Duration,
    ) -> LlmClient {
        let http = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(5).min(timeout))
            .user_agent(concat!("marque/", env!("CARGO_PKG_VERSION")))
            .build()
            .expect("a TLS backend is compiled in");
        LlmClient {
            http,
            kind,
            base_url: base_url
                .unwrap_or_else(|| kind.default_base_url().to_string())
                .trim_end_matches('/')
                .to_string(),
            model: model.unwrap_or_else(|| kind.default_model().to_string()),
            api_key,
            timeout,
        }
    }

    fn endpoint(&self) -> String {
        match self.kind {
            ProviderKind::Anthropic => format!("{}/messages", self.base_url),
            _ => format!("{}/chat/completions", self.base_url),
        }
    }

    /// The JSON body of a request to the provider's API (for a dry run, the
    /// OpenAI-compatible one).
    pub fn request_body(&self, req: &ChatRequest, stream: bool) -> Value {
        let mut body = match self.kind {
            ProviderKind::Anthropic => json!({
                "model": self.model,
                "system": req.system,
                "messages": [{"role": "user", "content": req.user}],
                "max_tokens": req.max_tokens,
            }),
            _ => json!({
                "model": self.model,
                "messages": [
                    {"role": "system", "content": req.system},
                    {"role": "user", "content": req.user},
                ],
                "max_tokens": req.max_tokens,
            }),
        };
        if let Some(t) = req.temperature {
            body["temperature"] = json!(t);
        }
        if stream {
            body["stream"] = json!(true);
            if self.kind == ProviderKind::Openai {
                body["stream_options"] = json!({"include_usage": true});
            }
        }
        body
    }

    fn request(
        &self,
        req: &ChatRequest,
        stream: bool,
        deadline: Instant,
    ) -> reqwest::RequestBuilder {
        let mut r = self
            .http
            .post(self.endpoint())
            .timeout(deadline.saturating_duration_since(Instant::now()))
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(self.request_body(req, stream).to_string());
        if stream {
            r = r.header(reqwest::header::ACCEPT, "text/event-stream");
        }
        match (self.kind, &self.api_key) {
            (ProviderKind::Anthropic, Some(key)) => {
                r = r
                    .header("x-api-key", key)
                    .header("anthropic-version", ANTHROPIC_VERSION);
            }
            (ProviderKind::Anthropic, None) => r = r.header("anthropic-version", ANTHROPIC_VERSION),
            (_, Some(key)) => r = r.bearer_auth(key),
            _ => {}
        }
        r
    }

    /// Sends the request, retrying once on a connect error, 429 or 5xx when
    /// the retry fits before the deadline. Returns a successful response.
    async fn send(&self, req: &ChatRequest, stream: bool) -> Result<reqwest::Response, LlmError> {
        let deadline = Instant::now() + self.timeout;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let result = self.request(req, stream, deadline).send().await;
            let (retryable, wait, err) = match result {
                Ok(res) if res.status().is_success() => return Ok(res),
                Ok(res) => {
                    let status = res.status();
                    let retry_after = retry_after(&res);
                    let err = if status.as_u16() == 429 {
                        LlmError::RateLimited { retry_after }
                    } else {
                        LlmError::Upstream(summarise(status, res.text().await.unwrap_or_default()))
                    };
                    (
                        status.as_u16() == 429 || status.is_server_error(),
                        retry_after,
                        err,
                    )
                }
                Err(e) if e.is_timeout() => return Err(LlmError::Timeout),
                Err(e) if e.is_connect() => (
                    true,
                    None,
                    LlmError::Upstream("cannot connect to the model's API".into()),
                ),
                Err(_) => {
                    return Err(LlmError::Upstream(
                        "the model's API connection failed".into(),
                    ))
                }
            };
            let wait = wait.unwrap_or(Duration::from_millis(250 * attempt));
            if !retryable || attempt >= 2 || Instant::now() + wait >= deadline {
                return Err(err);
            }
            tracing::info!(?wait, "retrying the model's API once");
            tokio::time::sleep(wait).await;
        }
    }

    /// One whole answer.
    pub async fn complete(&self, req: &ChatRequest) -> Result<Completion, LlmError> {
        let res = self.send(req, false).await?;
        let text = res.text().await.map_err(|e| {
            if e.is_timeout() {
                LlmError::Timeout
            } else {
                LlmError::Upstream("the model's answer was cut off".into())
            }
        })?;
        let v: Value = serde_json::from_str(&text).map_err(|_| {
            LlmError::Upstream("the model's API answered with something that is not JSON".into())
        })?;
        let num = |p: &str| v.pointer(p).and_then(Value::as_u64).unwrap_or(0);
        let model = v["model"].as_str().unwrap_or(&self.model).to_string();
        match self.kind {
            ProviderKind::Anthropic => {
                let output = v["content"]
                    .as_array()
                    .map(|blocks| {
                        blocks
                            .iter()
                            .filter_map(|b| b["text"].as_str())
                            .collect::<String>()
                    })
                    .ok_or_else(|| {
                        LlmError::Upstream("the model's answer has no content".into())
                    })?;
                Ok(Completion {
                    output,
                    model,
                    input_tokens: num("/usage/input_tokens"),
                    output_tokens: num("/usage/output_tokens"),
                })
            }
            _ => {
                let output = v
                    .pointer("/choices/0/message/content")
                    .and_then(Value::as_str)
                    .ok_or_else(|| LlmError::Upstream("the model's answer has no content".into()))?
                    .to_string();
                Ok(Completion {
                    output,
                    model,
                    input_tokens: num("/usage/prompt_tokens"),
                    output_tokens: num("/usage/completion_tokens"),
                })
            }
        }
    }

    /// A streamed answer, relayed chunk by chunk from the provider's SSE.
    pub async fn stream(&self, req: &ChatRequest) -> Result<ChunkStream, LlmError> {
        let res = self.send(req, true).await?;
        let state = StreamState {
            bytes: Box::pin(res.bytes_stream()),
            buf: String::new(),
            kind: self.kind,
            model: self.model.clone(),
            input: 0,
            output: 0,
            done: false,
        };
        let stream = futures_util::stream::unfold(state, |mut s| async move {
            if s.done {
                return None;
            }
            loop {
                // Serve complete events already buffered.
                while let Some(end) = s.buf.find("\n\n") {
                    let event: String = s.buf.drain(..end + 2).collect();
                    match parse_event(s.kind, &event, &mut s.model, &mut s.input, &mut s.output) {
                        Some(Ok(Chunk::Done { .. })) => {
                            s.done = true;
                            return Some((Ok(s.finish()), s));
                        }
                        Some(item) => {
                            s.done = item.is_err();
                            return Some((item, s));
                        }
                        None => continue,
                    }
                }
                match s.bytes.next().await {
                    Some(Ok(b)) => {
                        let text = String::from_utf8_lossy(&b).replace("\r\n", "\n");
                        s.buf.push_str(&text);
                    }
                    Some(Err(e)) => {
                        s.done = true;
                        let err = if e.is_timeout() {
                            LlmError::Timeout
                        } else {
                            LlmError::Upstream("the model's stream broke off".into())
                        };
                        return Some((Err(err), s));
                    }
                    None => {
                        // The stream ended without a final event: finish with what was counted.
                        s.done = true;
                        return Some((Ok(s.finish()), s));
                    }
                }
            }
        });
        Ok(Box::pin(stream))
    }
}

struct StreamState {
    bytes: Pin<Box<dyn Stream<Item = reqwest::Result<axum::body::Bytes>> + Send>>,
    buf: String,
    kind: ProviderKind,
    model: String,
    input: u64,
    output: u64,
    done: bool,
}

impl StreamState {
    fn finish(&self) -> Chunk {
        Chunk::Done {
            model: self.model.clone(),
            input_tokens: self.input,
            output_tokens: self.output,
        }
    }
}

/// Parses one SSE event of a provider's stream. `None` for events that carry nothing for us.
fn parse_event(
    kind: ProviderKind,
    event: &str,
    model: &mut String,
    input: &mut u64,
    output: &mut u64,
) -> Option<Result<Chunk, LlmError>> {
    let data: String = event
        .lines()
        .filter_map(|l| l.strip_prefix("data:"))
        .map(str::trim_start)
        .collect::<Vec<_>>()
        .join("\n");
    if data.is_empty() {
        return None;
    }
    if data == "[DONE]" {
        return Some(Ok(Chunk::Done {
            model: String::new(),
            input_tokens: 0,
            output_tokens: 0,
        }));
    }
    let v: Value = serde_json::from_str(&data).ok()?;
    if let Some(m) = v["model"]
        .as_str()
        .or_else(|| v.pointer("/message/model").and_then(Value::as_str))
    {
        *model = m.to_string();
    }
    match kind {
        ProviderKind::Anthropic => match v["type"].as_str()? {
            "message_start" => {
                *input = v
                    .pointer("/message/usage/input_tokens")
                    .and_then(Value::as_u64)
                    .unwrap_or(0);
                None
            }
            "content_block_delta" => v
                .pointer("/delta/text")
                .and_then(Value::as_str)
                .map(|t| Ok(Chunk::Text(t.to_string()))),
            "message_delta" => {
                *output = v
                    .pointer("/usage/output_tokens")
                    .and_then(Value::as_u64)
                    .unwrap_or(*output);
                None
            }
            "message_stop" => Some(Ok(Chunk::Done {
                model: String::new(),
                input_tokens: 0,
                output_tokens: 0,
            })),
            "error" => Some(Err(LlmError::Upstream(format!(
                "the model's API reported an error ({})",
                v.pointer("/error/type")
                    .and_then(Value::as_str)
                    .unwrap_or("unknown")
            )))),
            _ => None,
        },
        _ => {
            if let Some(u) = v.get("usage").filter(|u| u.is_object()) {
                *input = u["prompt_tokens"].as_u64().unwrap_or(*input);
                *output = u["completion_tokens"].as_u64().unwrap_or(*output);
            }
            if v.get("error").is_some() {
                return Some(Err(LlmError::Upstream(
                    "the model's API reported an error in its stream".into(),
                )));
            }
            v.pointer("/choices/0/delta/content")
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty())
                .map(|t| Ok(Chunk::Text(t.to_string())))
        }
    }
}

fn retry_after(res: &reqwest::Response) -> Option<Duration> {
    let v = res
        .headers()
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?;
    v.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| *s >= 0.0 && *s < 3600.0)
        .map(Duration::from_secs_f64)
}

/// A one-line account of an upstream failure: the status and the error's
/// type or code when the body says one, never the body's free text.
fn summarise(status: reqwest::StatusCode, body: String) -> String {
    let kind = serde_json::from_str::<Value>(&body).ok().and_then(|v| {
        let e = v.get("error").unwrap_or(&v);
        e.get("type")
            .or_else(|| e.get("code"))
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    let kind: Option<String> = kind.filter(|k| {
        k.len() <= 64
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    });
    match kind {
        Some(k) => format!("the model's API answered {status} ({k})"),
        None => format!("the model's API answered {status}"),
    }
}
