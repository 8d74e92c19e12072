//! Bodies at the connection's edge: the response body every connection
//! writes (a snapshot's bytes, without boxing, or a handler's stream), and
//! the request body every handler reads, which fails once its deadline
//! passes so a client that stalls mid-body cannot hold a connection. A
//! handler that reads bodies into scarce slots (the webhook) adds a rate
//! floor ([`RateFloor`]), so a trickling body gives its slot back long
//! before the deadline.

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

/// The request body arrived slower than its floor.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("the request body arrived slower than {bytes_per_sec} bytes/s after {grace:?}")]
pub struct BodyTooSlow {
    pub grace: Duration,
    pub bytes_per_sec: u64,
}

/// A request body that fails with [`BodyTooSlow`] when, once `grace` has
/// passed since it was wrapped, it has averaged less than `bytes_per_sec`.
///
/// The average is taken from the start rather than over a sliding window:
/// a client cannot bank a fast burst and then trickle, and the check needs
/// no clock ticks. Nothing more arriving, the body fails at
/// `start + max(grace, received / rate)`: one timer, moved only when data
/// arrives, so a stalled body costs no wake-ups until then.
pub struct RateFloor<B> {
    inner: B,
    start: Instant,
    floor: BodyTooSlow,
    received: u64,
    timer: Pin<Box<Sleep>>,
}

impl<B> RateFloor<B> {
    pub fn new(inner: B, grace: Duration, bytes_per_sec: u64) -> RateFloor<B> {
        let start = Instant::now();
        RateFloor {
            inner,
            start,
            floor: BodyTooSlow {
                grace,
                bytes_per_sec: bytes_per_sec.max(1),
            },
            received: 0,
            timer: Box::pin(tokio::time::sleep_until(start + grace)),
        }
    }

    /// When the average falls below the floor if no more bytes arrive.
    fn deadline(&self) -> Instant {
        let earned =
            Duration::from_secs_f64(self.received as f64 / self.floor.bytes_per_sec as f64);
        self.start + self.floor.grace.max(earned)
    }
}

impl<B> Body for RateFloor<B>
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
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    this.received += data.len() as u64;
                }
                Poll::Ready(Some(Ok(frame)))
            }
            Poll::Ready(other) => Poll::Ready(other.map(|f| f.map_err(Into::into))),
            Poll::Pending => {
                let deadline = this.deadline();
                if this.timer.deadline() != deadline {
                    this.timer.as_mut().reset(deadline);
                }
                match this.timer.as_mut().poll(cx) {
                    Poll::Ready(()) => Poll::Ready(Some(Err(Box::new(this.floor)))),
                    Poll::Pending => Poll::Pending,
                }
            }
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
    /// Slower than its rate floor ([`RateFloor`]).
    TooSlow,
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
                if s.is::<BodyTooSlow>() {
                    return Err(ReadError::TooSlow);
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

#[cfg(test)]
mod tests {
    use super::*;
    use http_body_util::BodyExt;

    type Chunks = Pin<
        Box<dyn futures_util::Stream<Item = Result<Frame<Bytes>, std::convert::Infallible>> + Send>,
    >;

    /// A body of `n` chunks of `size` bytes, one every `every`.
    fn trickle(n: usize, size: usize, every: Duration) -> http_body_util::StreamBody<Chunks> {
        let chunks = futures_util::stream::unfold(0, move |i| async move {
            if i == n {
                return None;
            }
            tokio::time::sleep(every).await;
            Some((Ok(Frame::data(Bytes::from(vec![b'x'; size]))), i + 1))
        });
        http_body_util::StreamBody::new(Box::pin(chunks))
    }

    /// Reads `body` whole under a floor of 128 KiB/s after 2 s: the bytes
    /// read, or the error, and when.
    async fn read_under_floor(
        body: impl Body<Data = Bytes, Error = std::convert::Infallible> + Unpin,
    ) -> (
        Result<usize, Box<dyn std::error::Error + Send + Sync>>,
        Duration,
    ) {
        let started = Instant::now();
        let floor = RateFloor::new(body, Duration::from_secs(2), 128 * 1024);
        let out = floor.collect().await.map(|c| c.to_bytes().len());
        (out, started.elapsed())
    }

    fn within(took: Duration, expected: Duration) -> bool {
        took >= expected && took < expected + Duration::from_millis(5)
    }

    #[tokio::test(start_paused = true)]
    async fn a_trickle_is_cut_when_the_grace_period_ends() {
        // A byte every 300 ms, as a slow-body attack sends it.
        let (out, took) = read_under_floor(trickle(1000, 1, Duration::from_millis(300))).await;
        assert!(out.unwrap_err().is::<BodyTooSlow>());
        assert!(within(took, Duration::from_secs(2)), "{took:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_body_above_the_floor_arrives_whole_however_long_it_takes() {
        // 1 MiB at 160 KiB/s: 6.4 s, past the grace period throughout.
        let (out, took) =
            read_under_floor(trickle(64, 16 * 1024, Duration::from_millis(100))).await;
        assert_eq!(out.unwrap(), 1024 * 1024);
        assert!(within(took, Duration::from_millis(6400)), "{took:?}");
    }

    #[tokio::test(start_paused = true)]
    async fn a_burst_buys_time_only_in_proportion_to_its_size() {
        // 512 KiB at once, then a byte a second: the average falls under
        // 128 KiB/s at 4 s, and the body is cut then.
        let burst = trickle(1, 512 * 1024, Duration::from_millis(1));
        let drip = trickle(1000, 1, Duration::from_secs(1));
        let (out, took) = read_under_floor(Chain(Some(burst), drip)).await;
        assert!(out.unwrap_err().is::<BodyTooSlow>());
        assert!(within(took, Duration::from_secs(4)), "{took:?}");
    }

    /// One body, then another (the first is dropped when it ends: a
    /// stream must not be polled after its end).
    struct Chain<A, B>(Option<A>, B);

    impl<A, B> Body for Chain<A, B>
    where
        A: Body<Data = Bytes> + Unpin,
        B: Body<Data = Bytes, Error = A::Error> + Unpin,
    {
        type Data = Bytes;
        type Error = A::Error;

        fn poll_frame(
            self: Pin<&mut Self>,
            cx: &mut Context<'_>,
        ) -> Poll<Option<Result<Frame<Bytes>, A::Error>>> {
            let this = self.get_mut();
            if let Some(first) = &mut this.0 {
                match Pin::new(first).poll_frame(cx) {
                    Poll::Ready(None) => this.0 = None,
                    other => return other,
                }
            }
            Pin::new(&mut this.1).poll_frame(cx)
        }
    }
}
