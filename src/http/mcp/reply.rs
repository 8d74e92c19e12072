//! A POST's reply as one JSON body where the protocol allows it.
//!
//! In a session, the SDK answers every request as a stream of server-sent
//! events, even one that streams nothing (its priming event, then the
//! response). Streamable HTTP lets a server answer a POST with either
//! `text/event-stream` or `application/json`, and clients must take both;
//! but a client may bound one event (the Python SDK's takes at most
//! 1 MiB), so a document over that could not be read at all. The SDK's
//! own JSON mode is for stateless servers only, and marque keeps sessions
//! (for `list_changed`), so this middleware does what that mode does: the
//! reply is read up to its first message, and a response or error that
//! comes first is the whole reply, sent as JSON. A notification or a
//! request to the client that comes first keeps the stream, byte for byte,
//! so nothing is lost.

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method};
use axum::response::Response;
use futures_util::StreamExt;

/// An event stream's first message, as far as the reply needs it.
#[derive(Debug, PartialEq, Eq)]
pub enum First {
    /// A response or an error: the whole reply, as its JSON text.
    Reply(String),
    /// A notification or a request: the stream must be kept.
    Stream,
}

/// The first message of the event stream in `buf`; `None` while `buf`
/// holds no whole event with data. Events without data (the priming
/// event, keep-alive comments) are passed over.
pub fn first_message(buf: &[u8]) -> Option<First> {
    // An event ends at a blank line; the SDK writes `\n`, and `\r\n` and
    // `\r` are read too, as the standard allows them.
    let text = String::from_utf8_lossy(buf)
        .replace("\r\n", "\n")
        .replace('\r', "\n");
    let (_, whole) = text.rsplit_once("\n\n")?;
    let events = text[..text.len() - whole.len()].split("\n\n");
    for event in events {
        let data: Vec<&str> = event
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .map(|d| d.strip_prefix(' ').unwrap_or(d))
            .collect();
        let data = data.join("\n");
        if data.is_empty() {
            continue;
        }
        let reply = serde_json::from_str::<serde_json::Value>(&data)
            .ok()
            .is_some_and(|m| {
                m.get("method").is_none()
                    && m.get("id").is_some()
                    && (m.get("result").is_some() || m.get("error").is_some())
            });
        return Some(match reply {
            true => First::Reply(data),
            false => First::Stream,
        });
    }
    None
}

/// True when the request lists `application/json` in `Accept`, as a
/// Streamable HTTP client's POST must.
fn takes_json(req: &Request) -> bool {
    req.headers()
        .get_all(header::ACCEPT)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| {
            v.split(',')
                .any(|t| t.trim().starts_with("application/json"))
        })
}

/// The middleware: a POST whose reply streams nothing gets it as JSON.
pub async fn as_json(req: Request, next: axum::middleware::Next) -> Response {
    if req.method() != Method::POST || !takes_json(&req) {
        return next.run(req).await;
    }
    let res = next.run(req).await;
    let streams = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/event-stream"));
    if !streams {
        return res;
    }
    let (mut parts, body) = res.into_parts();
    let mut stream = body.into_data_stream();
    let mut buf = Vec::new();
    // Until the stream ends or fails: then what came is passed on as it came.
    while let Some(Ok(chunk)) = stream.next().await {
        buf.extend_from_slice(&chunk);
        // Only a line break can end an event: a large message in many
        // chunks is scanned once, not once a chunk.
        if !chunk.iter().any(|b| matches!(b, b'\n' | b'\r')) {
            continue;
        }
        match first_message(&buf) {
            Some(First::Reply(json)) => {
                parts.headers.remove(header::CONTENT_LENGTH);
                parts.headers.remove("x-accel-buffering");
                parts.headers.insert(
                    header::CONTENT_TYPE,
                    HeaderValue::from_static("application/json"),
                );
                // Dropping the stream ends the request's channel: its
                // response, the only message it was to carry, is here.
                return Response::from_parts(parts, Body::from(json));
            }
            Some(First::Stream) => break,
            None => {}
        }
    }
    let head = futures_util::stream::once(async move { Ok::<_, axum::Error>(Bytes::from(buf)) });
    Response::from_parts(parts, Body::from_stream(head.chain(stream)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_priming_event_is_passed_over_and_a_response_is_the_reply() {
        let sse =
            b"id: 0\nretry: 3000\ndata:\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n\n";
        assert_eq!(
            first_message(sse),
            Some(First::Reply(
                "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}".into()
            ))
        );
    }

    #[test]
    fn an_error_is_the_reply_too() {
        let sse = b"data: {\"jsonrpc\":\"2.0\",\"id\":\"a\",\"error\":{\"code\":-32002,\"message\":\"no\"}}\r\n\r\n";
        assert!(matches!(first_message(sse), Some(First::Reply(_))));
    }

    #[test]
    fn a_notification_or_a_request_first_keeps_the_stream() {
        let note = b": keep-alive\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n";
        assert_eq!(first_message(note), Some(First::Stream));
        let ask = b"data: {\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"sampling/createMessage\",\"params\":{}}\n\n";
        assert_eq!(first_message(ask), Some(First::Stream));
    }

    #[test]
    fn half_an_event_waits_for_the_rest() {
        assert_eq!(first_message(b"id: 0\ndata:\n\ndata: {\"jsonrpc\""), None);
        assert_eq!(first_message(b""), None);
    }

    #[test]
    fn data_over_several_lines_is_one_message() {
        let sse = b"data: {\"jsonrpc\":\"2.0\",\ndata: \"id\":1,\"result\":{\"a\":1}}\n\n";
        assert_eq!(
            first_message(sse).unwrap(),
            First::Reply("{\"jsonrpc\":\"2.0\",\n\"id\":1,\"result\":{\"a\":1}}".into())
        );
    }
}
