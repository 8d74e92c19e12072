//! One connection's budget for its request heads. hyper's own header
//! timeout closes without a word; here a client that does not finish a
//! request head in time gets `408 Request Timeout` before the connection
//! closes, when it sent part of a head or nothing was answered yet (an idle
//! keep-alive connection that sent nothing closes quietly, as nginx does).
//!
//! The socket is wrapped: while no request is being answered, a read that
//! would wait past the deadline ends the connection instead. Whether a
//! request is being answered is kept in [`ConnState`], set when a head has
//! been read and cleared when its response body is done ([`Done`]).

use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

/// What one connection is doing.
#[derive(Debug)]
pub struct ConnState {
    epoch: Instant,
    /// A request head was read and its response is not done yet.
    busy: AtomicBool,
    /// When the connection last began waiting for a head, in µs since `epoch`.
    idle_since: AtomicU64,
    /// Bytes arrived since it began waiting.
    received: AtomicBool,
    /// Responses completed on this connection.
    answered: AtomicU64,
    /// Told each time a request head has been read.
    began: tokio::sync::Notify,
}

impl ConnState {
    pub fn new() -> Arc<ConnState> {
        Arc::new(ConnState {
            epoch: Instant::now(),
            busy: AtomicBool::new(false),
            idle_since: AtomicU64::new(0),
            received: AtomicBool::new(false),
            answered: AtomicU64::new(0),
            began: tokio::sync::Notify::new(),
        })
    }

    /// Resolves once the connection has a request of its own: one under
    /// way or one answered. A client that has just connected has sent its
    /// first request, or is sending it, and is answered before a stopping
    /// server closes the connection (hyper closes a connection it has read
    /// nothing from at once).
    pub async fn has_had_a_request(&self) {
        if self.answered.load(Ordering::Relaxed) == 0 && !self.busy.load(Ordering::Relaxed) {
            // `begin` leaves a permit when nobody waits yet: none is missed.
            self.began.notified().await;
        }
    }

    /// A request head has been read: its answer is under way.
    pub fn begin(self: &Arc<Self>) -> Done {
        self.busy.store(true, Ordering::Relaxed);
        self.began.notify_one();
        Done(self.clone())
    }

    fn since_epoch(&self) -> u64 {
        self.epoch.elapsed().as_micros() as u64
    }
}

/// Dropped when a response body is done: the connection waits for its next head.
#[derive(Debug)]
pub struct Done(Arc<ConnState>);

impl Drop for Done {
    fn drop(&mut self) {
        let s = &self.0;
        s.idle_since.store(s.since_epoch(), Ordering::Relaxed);
        s.received.store(false, Ordering::Relaxed);
        s.answered.fetch_add(1, Ordering::Relaxed);
        s.busy.store(false, Ordering::Relaxed);
    }
}

/// What a client that ran out of time for its head gets.
const TIMEOUT_RESPONSE: &[u8] = b"HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-type: application/problem+json\r\ncontent-length: 112\r\n\r\n{\"type\":\"about:blank\",\"title\":\"Request Timeout\",\"status\":408,\"detail\":\"the request head did not arrive in time\"}";

/// A socket whose reads end the connection when a request head takes too long.
pub struct Guarded {
    io: TcpStream,
    state: Arc<ConnState>,
    timeout: Duration,
    timer: Pin<Box<Sleep>>,
    closed: bool,
}

impl Guarded {
    pub fn new(io: TcpStream, state: Arc<ConnState>, timeout: Duration) -> Guarded {
        Guarded {
            io,
            timer: Box::pin(tokio::time::sleep(timeout)),
            state,
            timeout,
            closed: false,
        }
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        if this.closed {
            return Poll::Ready(Ok(()));
        }
        let before = buf.filled().len();
        match Pin::new(&mut this.io).poll_read(cx, buf) {
            Poll::Ready(r) => {
                if buf.filled().len() > before {
                    this.state.received.store(true, Ordering::Relaxed);
                }
                Poll::Ready(r)
            }
            Poll::Pending => {
                let s = &this.state;
                if s.busy.load(Ordering::Relaxed) {
                    // Bodies have their own deadline (TimedBody).
                    return Poll::Pending;
                }
                let deadline = s.epoch
                    + Duration::from_micros(s.idle_since.load(Ordering::Relaxed))
                    + this.timeout;
                if this.timer.deadline() != deadline {
                    this.timer.as_mut().reset(deadline);
                }
                if this.timer.as_mut().poll(cx).is_pending() {
                    return Poll::Pending;
                }
                // Out of time for a head.
                if s.received.load(Ordering::Relaxed) || s.answered.load(Ordering::Relaxed) == 0 {
                    let _ = this.io.try_write(TIMEOUT_RESPONSE);
                }
                this.closed = true;
                Poll::Ready(Ok(()))
            }
        }
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write(cx, buf)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timeout_response_is_a_well_formed_problem() {
        let text = std::str::from_utf8(TIMEOUT_RESPONSE).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .unwrap()
            .parse()
            .unwrap();
        assert_eq!(length, body.len());
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["status"], 408);
    }
}
