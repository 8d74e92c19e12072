//! Several replicas behind one load balancer, through Redis (`--redis-url`):
//! one demo rate limit for the whole fleet, and a verified webhook spread
//! to every replica so all fetch the pushed commit at once.
//!
//! Redis is never a reason to fail a request. The limit is GCRA evaluated
//! atomically in Redis by one script call per request, given at most
//! [`DEADLINE`]; when Redis is down, slow or not yet reached, the request is
//! decided by the replica's own limiter instead, the outage is logged once,
//! and Redis is tried again at most once per [`RETRY`] until it answers.
//! `/status` and `/metrics` say which limiter decides.

use crate::demo::limit::{key_of, Decision, DemoLimiter};
use crate::source::git::redact_url;
use arc_swap::ArcSwapOption;
use futures_util::StreamExt;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{Client, IntoConnectionInfo};
use std::net::IpAddr;
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

/// GCRA (the generic cell rate algorithm, as governor implements it) on
/// Redis's clock, so replicas' clocks do not matter. KEYS[1]: the client's
/// key; ARGV: emission interval and burst tolerance in microseconds.
/// Returns `{1, remaining, reset_us}` or `{0, retry_after_us}`. The key
/// expires once the client's burst is whole again, so idle clients cost
/// nothing.
const GCRA: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local period = tonumber(ARGV[1])
local tolerance = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local new_tat = tat + period
local allow_at = new_tat - tolerance
if now < allow_at then
  return {0, allow_at - now}
end
redis.call('SET', KEYS[1], new_tat, 'PX', math.ceil((new_tat - now) / 1000))
return {1, math.floor((now - allow_at) / period), new_tat - now}
";

/// How a replica reaches Redis: the client, the key prefix, and this
/// replica's id (so it can tell its own fetch notices from others').
pub struct Fleet {
    client: Client,
    prefix: String,
    id: String,
    conn: ArcSwapOption<ConnectionManager>,
    script: redis::Script,
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
            script: redis::Script::new(GCRA),
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
    async fn reconnect(&self) -> Result<ConnectionManager, String> {
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

    /// Counts one demo request from `ip` against the fleet's limit, with the
    /// quota of `local`; `None` while Redis cannot answer within
    /// [`DEADLINE`] (the caller's replica decides alone then).
    pub async fn check(&self, ip: IpAddr, local: &DemoLimiter) -> Option<Decision> {
        let conn = self.conn.load_full()?;
        if !self.is_shared() && self.now() < self.retry_at.load(Ordering::Relaxed) {
            return None;
        }
        let period = local.period();
        let tolerance = period * local.burst;
        let mut conn = (*conn).clone();
        let mut call = self.script.prepare_invoke();
        call.key(format!("{}demo:{}", self.prefix, key_of(ip)))
            .arg(period.as_micros() as u64)
            .arg(tolerance.as_micros() as u64);
        let answer = tokio::time::timeout(DEADLINE, call.invoke_async::<Vec<i64>>(&mut conn)).await;
        match answer {
            Ok(Ok(v)) => {
                self.mark_up();
                let us = |x: i64| Duration::from_micros(x.max(0) as u64);
                Some(match v.as_slice() {
                    [1, remaining, reset] => Decision::Allowed {
                        remaining: (*remaining).clamp(0, i64::from(local.burst)) as u32,
                        reset: us(*reset),
                    },
                    [0, retry, ..] => Decision::Limited {
                        retry_after: us(*retry),
                    },
                    _ => {
                        self.mark_down("the rate-limit script answered in an unexpected shape");
                        return None;
                    }
                })
            }
            Ok(Err(e)) => {
                self.mark_down(&e.to_string());
                None
            }
            Err(_) => {
                self.mark_down(&format!("no answer within {} ms", DEADLINE.as_millis()));
                None
            }
        }
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_micros() as u64
    }

    /// Redis answered: log once when an outage ends.
    fn mark_up(&self) {
        if !self.shared.swap(true, Ordering::Relaxed) {
            tracing::info!("redis answers: the demo limit is shared by the fleet");
            self.warned.store(false, Ordering::Relaxed);
        }
    }

    /// Redis did not answer: log once per outage, and wait before trying again.
    fn mark_down(&self, why: &str) {
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

    /// The pub/sub channel of fetch notices for a repository: the prefix and
    /// the URL without credentials, so fleets of other repositories, or of
    /// other prefixes, never hear them.
    pub fn fetch_channel(&self, repo_url: &str) -> String {
        format!("{}fetch:{}", self.prefix, redact_url(repo_url))
    }

    /// Tells every replica to fetch now (after a verified webhook). A
    /// connection that fails (Redis restarted since the last heartbeat) is
    /// replaced and the notice sent again once, so it is not lost.
    pub async fn announce_fetch(&self, channel: &str) {
        let Some(conn) = self.conn.load_full() else {
            return;
        };
        if self.publish(&conn, channel).await.is_ok() {
            return;
        }
        let again = match self.reconnect().await {
            Ok(conn) => self.publish(&conn, channel).await,
            Err(e) => Err(e),
        };
        if let Err(error) = again {
            tracing::warn!(
                error = %redact_error(&error),
                "could not publish the fetch notice; other replicas fetch at their next poll"
            );
        }
    }

    async fn publish(&self, conn: &ConnectionManager, channel: &str) -> Result<(), String> {
        let mut conn = conn.clone();
        let mut cmd = redis::cmd("PUBLISH");
        cmd.arg(channel).arg(&self.id);
        let publish = cmd.query_async::<i64>(&mut conn);
        match tokio::time::timeout(DEADLINE * 4, publish).await {
            Ok(Ok(n)) => {
                tracing::debug!(replicas = n, "fetch notice published");
                Ok(())
            }
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => Err("no answer in time".into()),
        }
    }

    /// Listens for other replicas' fetch notices and sends each to `fetch`,
    /// reconnecting after an outage, until marque stops.
    pub fn spawn_fetch_listener(
        self: &Arc<Self>,
        channel: String,
        fetch: std::sync::mpsc::Sender<()>,
        mut stopping: watch::Receiver<bool>,
    ) {
        let fleet = self.clone();
        tokio::spawn(async move {
            let mut was_down = false;
            loop {
                let attempt = async {
                    let mut pubsub = fleet.client.get_async_pubsub().await?;
                    pubsub.subscribe(&channel).await?;
                    Ok::<_, redis::RedisError>(pubsub)
                };
                let listened = tokio::select! {
                    r = tokio::time::timeout(Duration::from_secs(2), attempt) => r,
                    _ = stopping.wait_for(|s| *s) => return,
                };
                match listened {
                    Ok(Ok(pubsub)) => {
                        if was_down {
                            tracing::info!("listening for fetch notices again");
                        }
                        was_down = false;
                        let mut messages = pubsub.into_on_message();
                        loop {
                            let msg = tokio::select! {
                                m = messages.next() => m,
                                _ = stopping.wait_for(|s| *s) => return,
                            };
                            let Some(msg) = msg else { break };
                            let from: String = msg.get_payload().unwrap_or_default();
                            if from != fleet.id {
                                let _ = fetch.send(());
                            }
                        }
                    }
                    Ok(Err(e)) if !was_down => {
                        was_down = true;
                        tracing::warn!(error = %redact_error(&e.to_string()), "cannot listen for fetch notices; polling still fetches");
                    }
                    Err(_) if !was_down => {
                        was_down = true;
                        tracing::warn!("cannot listen for fetch notices; polling still fetches");
                    }
                    _ => {}
                }
                tokio::select! {
                    _ = tokio::time::sleep(RETRY) => {}
                    _ = stopping.wait_for(|s| *s) => return,
                }
            }
        });
    }
}

/// An error text with anything that looks like a URL's credentials removed.
fn redact_error(text: &str) -> String {
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
        assert_eq!(
            f.fetch_channel("https://x:y@git.example.com/b.git"),
            "marque:fetch:https://git.example.com/b.git"
        );
    }
}
