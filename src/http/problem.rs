//! RFC 9457 problem details: the one error type at the HTTP edge. Client
//! errors say what was wrong; server errors say nothing of the cause, which
//! is logged instead.

use super::body::ReadError;
use crate::paths::Refusal;
use crate::spec::diag::clipped;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Map, Value};
#[derive(Debug, Clone, Serialize)]
pub struct Problem {
    #[serde(rename = "type")]
    pub kind: String,
    pub title: String,
    pub status: u16,
    pub detail: String,
    /// Extension members, e.g. `promptIds`.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
    #[serde(skip)]
    pub headers: Vec<(header::HeaderName, HeaderValue)>,
}

impl Problem {
    pub fn new(status: StatusCode, detail: impl Into<String>) -> Problem {
        Problem {
            kind: "about:blank".into(),
            title: status.canonical_reason().unwrap_or("Error").into(),
            status: status.as_u16(),
            detail: detail.into(),
            extra: Map::new(),
            headers: Vec::new(),
        }
    }

    pub fn not_found(detail: impl Into<String>) -> Problem {
        Problem::new(StatusCode::NOT_FOUND, detail)
    }

    pub fn with(mut self, key: &str, value: impl Into<Value>) -> Problem {
        self.extra.insert(key.into(), value.into());
        self
    }

    pub fn header(mut self, name: header::HeaderName, value: &str) -> Problem {
        if let Ok(v) = HeaderValue::from_str(value) {
            self.headers.push((name, v));
        }
        self
    }
}

impl Problem {
    /// The response's head and its JSON body, for answers that are not axum responses.
    pub fn into_parts(self) -> (axum::http::response::Parts, bytes::Bytes) {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = bytes::Bytes::from(serde_json::to_vec(&self).unwrap_or_default());
        let mut res = axum::http::Response::new(());
        *res.status_mut() = status;
        let h = res.headers_mut();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
        super::headers::common_headers(h);
        for (k, v) in self.headers {
            h.insert(k, v);
        }
        let (parts, ()) = res.into_parts();
        (parts, body)
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        let (parts, body) = self.into_parts();
        Response::from_parts(parts, axum::body::Body::from(body))
    }
}

/// The problem of a refusal, its status from the one table.
pub fn refused(refusal: Refusal, detail: impl Into<String>) -> Problem {
    let status = StatusCode::from_u16(refusal.status()).expect("the table's statuses are valid");
    Problem::new(status, detail)
}

/// The problem for a body that could not be read.
pub fn read_problem(e: ReadError, limit: usize) -> Problem {
    match e {
        ReadError::TooLarge => refused(
            Refusal::TooLarge,
            format!(
                "the body is larger than {}",
                crate::spec::limits::describe_bytes(limit)
            ),
        ),
        ReadError::TimedOut | ReadError::TooSlow => {
            refused(Refusal::Timeout, "the request body did not arrive in time")
                .header(header::CONNECTION, "close")
        }
        ReadError::Broken => refused(Refusal::Malformed, "the request body could not be read"),
    }
}

/// A 404 that says what was not found: a brand, a surface of a brand, or a path.
pub fn not_found(path: &str) -> Problem {
    let detail = match path
        .strip_prefix("/brand/")
        .map(|rest| rest.split_once('/').unwrap_or((rest, "")))
    {
        Some((slug, "")) => format!("no brand named \"{}\" is published here", clipped(slug)),
        Some((slug, surface)) => format!(
            "brand \"{}\" has no surface \"{}\" (or the brand is not published)",
            clipped(slug),
            clipped(surface)
        ),
        None => format!("nothing is published at {}", clipped(path)),
    };
    Problem::not_found(detail)
}
