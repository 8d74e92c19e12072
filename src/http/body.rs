//! Bodies at the connection's edge: the response body every connection
//! writes (a snapshot's bytes, without boxing, or a handler's stream), and
//! the request body every handler reads, which fails once its deadline
//! passes so a client that stalls mid-body cannot hold a connection.

use super::conn::Done;
use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::{Instant, Sleep};

/// A response body: the bytes of a snapshot resource, or a handler's body.
/// When it is done (written or dropped) the connection goes back to
/// waiting for its next request head.
pub struct ResBody {
    kind: Kind,
    _done: Option<Done>,
}

enum Kind {
    Full(Option<Bytes>),
    Stream(axum::body::Body),
}

impl ResBody {
    pub fn full(bytes: Bytes) -> ResBody {
        ResBody {
            kind: Kind::Full((!bytes.is_empty()).then_some(bytes)),
            _done: None,
        }
    }

    pub fn empty() -> ResBody {
        ResBody {
            kind: Kind::Full(None),
            _done: None,
        }
    }

    pub fn stream(body: axum::body::Body) -> ResBody {
        ResBody {
            kind: Kind::Stream(body),
            _done: None,
        }
    }

    /// Marks the connection idle when this body is done.
    pub fn with_done(mut self, done: Done) -> ResBody {
        self._done = Some(done);
        self
    }
}

impl Body for ResBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        match &mut self.get_mut().kind {
            Kind::Full(bytes) => Poll::Ready(bytes.take().map(|b| Ok(Frame::data(b)))),
            Kind::Stream(body) => Pin::new(body).poll_frame(cx),
        }
    }

    fn is_end_stream(&self) -> bool {
        match &self.kind {
            Kind::Full(bytes) => bytes.is_none(),
            Kind::Stream(body) => body.is_end_stream(),
        }
    }

    fn size_hint(&self) -> SizeHint {
        match &self.kind {
            Kind::Full(bytes) => SizeHint::with_exact(bytes.as_ref().map_or(0, |b| b.len() as u64)),
            Kind::Stream(body) => body.size_hint(),
        }
    }
}

/// The request body did not arrive whole in time.
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive within {0:?}")]
pub struct BodyTimeout(pub Duration);

/// A request body that fails with [`BodyTimeout`] when it is not complete by its deadline.
pub struct TimedBody<B> {
    inner: B,
    deadline: Pin<Box<Sleep>>,
    limit: Duration,
}

impl<B> TimedBody<B> {
    pub fn new(inner: B, limit: Duration) -> TimedBody<B> {
        TimedBody {
            inner,
            deadline: Box::pin(tokio::time::sleep_until(Instant::now() + limit)),
            limit,
        }
    }
}

impl<B> Body for TimedBody<B>
where
    B: Body<Data = Bytes> + Unpin,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    type Data = Bytes;
    type Error = Box<dyn std::error::Error + Send + Sync>;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_frame(cx) {
            Poll::Ready(frame) => Poll::Ready(frame.map(|f| f.map_err(Into::into))),
            Poll::Pending => match this.deadline.as_mut().poll(cx) {
                Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(BodyTimeout(this.limit))))),
                Poll::Pending => Poll::Pending,
            },
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// Why a body could not be read.
#[derive(Debug, PartialEq, Eq)]
pub enum ReadError {
    /// Longer than the limit (said by Content-Length, or found reading).
    TooLarge,
    /// Not complete within the body timeout.
    TimedOut,
    /// The connection broke.
    Broken,
}

/// Reads a whole request body of at most `limit` bytes, refusing at once
/// when Content-Length already says it is larger.
pub async fn read(
    headers: &axum::http::HeaderMap,
    body: axum::body::Body,
    limit: usize,
) -> Result<Bytes, ReadError> {
    let declared = headers
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(ReadError::TooLarge);
    }
    match axum::body::to_bytes(body, limit).await {
        Ok(b) => Ok(b),
        Err(e) => {
            let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&e);
            while let Some(s) = source {
                if s.is::<BodyTimeout>() {
                    return Err(ReadError::TimedOut);
                }
                if s.is::<http_body_util::LengthLimitError>() {
                    return Err(ReadError::TooLarge);
                }
                source = s.source();
            }
            Err(ReadError::Broken)
        }
    }
}
