//! Several replicas behind one load balancer, through Redis (`--redis-url`):
//! the connection they share, kept alive. Two features use it: one demo
//! rate limit for the whole fleet (`demo::limit::redis`), and a verified
//! webhook spread to every replica so all fetch the pushed commit at once
//! (`live::fanout`).
//!
//! Redis is never a reason to fail a request. Every call is given at most
//! [`DEADLINE`]; when Redis is down, slow or not yet reached, the outage is
//! logged once, callers do without it, and Redis is tried again at most
//! once per [`RETRY`] until it answers.

use crate::redact::redact_url;
use arc_swap::ArcSwapOption;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{Client, IntoConnectionInfo};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// How long a request waits for Redis before its own replica decides.
pub const DEADLINE: Duration = Duration::from_millis(50);
/// How often Redis is tried again while it is down.
pub const RETRY: Duration = Duration::from_secs(1);

/// How often the connection is checked (PING) while Redis answers.
pub const HEARTBEAT: Duration = Duration::from_secs(1);

/// How a replica reaches Redis: the client, the key prefix, and this
/// replica's id (so it can tell its own fetch notices from others').
pub struct Fleet {
    client: Client,
    prefix: String,
    id: String,
    conn: ArcSwapOption<ConnectionManager>,
    /// True while Redis decides; false while this replica does alone.
    shared: AtomicBool,
    /// The current outage has been logged.
    warned: AtomicBool,
    /// When Redis may be tried again (micros since `epoch`), while it is down.
    retry_at: AtomicU64,
    epoch: Instant,
}

impl Fleet {
    /// Reads the URL (and `password`, which wins over one in the URL);
    /// connects later, in the background. An invalid URL is an error now.
    pub fn new(url: &str, password: Option<&str>, prefix: &str) -> anyhow::Result<Arc<Fleet>> {
        let mut info = url
            .into_connection_info()
            .map_err(|e| anyhow::anyhow!("--redis-url: {}", redact_error(&e.to_string())))?;
        if let Some(pw) = password.filter(|p| !p.is_empty()) {
            let settings = info.redis_settings().clone().set_password(pw);
            info = info.set_redis_settings(settings);
        }
        let client = Client::open(info)
            .map_err(|e| anyhow::anyhow!("--redis-url: {}", redact_error(&e.to_string())))?;
        Ok(Arc::new(Fleet {
            client,
            prefix: prefix.to_string(),
            id: format!("{:016x}", rand_id()),
            conn: ArcSwapOption::empty(),
            shared: AtomicBool::new(false),
            warned: AtomicBool::new(false),
            retry_at: AtomicU64::new(0),
            epoch: Instant::now(),
        }))
    }

    /// A new connection to Redis, within a second.
    async fn connect(&self) -> Result<ConnectionManager, String> {
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(1)))
            .set_response_timeout(Some(DEADLINE))
            .set_max_delay(RETRY);
        let connecting = self.client.get_connection_manager_with_config(config);
        match tokio::time::timeout(Duration::from_secs(2), connecting).await {
            Ok(Ok(conn)) => Ok(conn),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err("no connection within 2 s".into()),
        }
    }

    /// Replaces the connection with a new one, or says why it cannot.
    pub async fn reconnect(&self) -> Result<ConnectionManager, String> {
        let conn = self.connect().await?;
        self.conn.store(Some(Arc::new(conn.clone())));
        Ok(conn)
    }

    /// True when Redis answers a PING on the current connection in time.
    async fn ping(&self) -> Result<(), String> {
        let Some(conn) = self.conn.load_full() else {
            return Err("not connected".into());
        };
        let mut conn = (*conn).clone();
        let cmd = redis::cmd("PING");
        let ping = cmd.query_async::<String>(&mut conn);
        match tokio::time::timeout(DEADLINE * 4, ping).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err(format!(
                "no answer within {} ms",
                (DEADLINE * 4).as_millis()
            )),
        }
    }

    /// Connects in the background until Redis answers, then checks the
    /// connection every [`HEARTBEAT`]: a connection that stopped answering
    /// (Redis restarted, a network cut) is replaced by a new one as soon
    /// as Redis takes it, so the shared limit and fan-out come back within
    /// about a second of Redis, and no notice is sent on a dead connection.
    pub fn spawn_connector(self: &Arc<Self>, mut stopping: watch::Receiver<bool>) {
        let fleet = Arc::downgrade(self);
        tokio::spawn(async move {
            loop {
                let Some(f) = fleet.upgrade() else { return };
                let healthy = match f.ping().await {
                    Ok(()) => Ok(()),
                    Err(_) => f.reconnect().await.map(drop),
                };
                match healthy {
                    Ok(()) => f.mark_up(),
                    Err(e) => f.mark_down(&e),
                }
                drop(f);
                tokio::select! {
                    _ = tokio::time::sleep(HEARTBEAT) => {}
                    _ = stopping.wait_for(|s| *s) => return,
                }
            }
        });
    }

    /// Whether Redis decides now (for /status and /metrics).
    pub fn is_shared(&self) -> bool {
        self.shared.load(Ordering::Relaxed)
    }

    /// The connection to ask Redis on, unless there is none or Redis is
    /// down and not to be tried again yet (see [`RETRY`]).
    pub fn may_ask(&self) -> Option<ConnectionManager> {
        let conn = self.conn.load_full()?;
        if !self.is_shared() && self.now() < self.retry_at.load(Ordering::Relaxed) {
            return None;
        }
        Some((*conn).clone())
    }

    /// The connection there is, if any, to send on.
    pub fn connection(&self) -> Option<ConnectionManager> {
        self.conn.load_full().map(|c| (*c).clone())
    }

    /// A new connection for subscribing (pub/sub needs one of its own).
    pub async fn subscriber(&self) -> redis::RedisResult<redis::aio::PubSub> {
        self.client.get_async_pubsub().await
    }

    /// This replica's id, to tell its own messages from others'.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// A key or channel name under the fleet's prefix.
    pub fn key(&self, name: &str) -> String {
        format!("{}{name}", self.prefix)
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_micros() as u64
    }

    /// Redis answered: log once when an outage ends.
    pub fn mark_up(&self) {
        if !self.shared.swap(true, Ordering::Relaxed) {
            tracing::info!("redis answers: the demo limit is shared by the fleet");
            self.warned.store(false, Ordering::Relaxed);
        }
    }

    /// Redis did not answer: log once per outage, and wait before trying again.
    pub fn mark_down(&self, why: &str) {
        self.retry_at
            .store(self.now() + RETRY.as_micros() as u64, Ordering::Relaxed);
        self.shared.store(false, Ordering::Relaxed);
        if !self.warned.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                error = %redact_error(why),
                "redis is unavailable: each replica limits the demo alone until it is back"
            );
        }
    }
}

/// An error text with anything that looks like a URL's credentials removed.
pub fn redact_error(text: &str) -> String {
    text.split(' ')
        .map(|w| {
            if w.contains("://") && w.contains('@') {
                redact_url(w)
            } else {
                w.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// An id for this replica: unique enough to tell replicas apart.
fn rand_id() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    h.write_u32(std::process::id());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_and_errors_never_carry_credentials() {
        assert_eq!(
            redact_error("cannot reach redis://:hunter2@cache:6379/0 now"),
            "cannot reach redis://cache:6379/0 now"
        );
        let f = Fleet::new("redis://:pw@127.0.0.1:1/", None, "marque:").unwrap();
        assert_eq!(f.key("demo:x"), "marque:demo:x");
    }
}
