//! IO: the delivery queue. A publish hands what it changed to the
//! [`Outbox`] (a lock and a push, nothing more) and goes on; a tokio task
//! takes deliveries from the queue and makes them, a few at once, each
//! with a request deadline, retries with exponential backoff and jitter
//! (a `Retry-After` the receiver sends wins), and an idempotency key that
//! stays the same across retries, so a receiver drops what it has seen.
//!
//! The queue is bounded: when it is full, the oldest waiting delivery is
//! dropped (logged, counted in `/status`), so a target that never answers
//! cannot make marque hold more and more. Logs name the target without
//! its credentials; secrets and headers never reach logs or `/status`.

use super::{Event, OutboundConfig, Published, Seen};
use crate::redact::redact_url;
pub use crate::render::status::OutboundStatus;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{watch, Notify, Semaphore};

/// Deliveries made at once: a hanging target holds one each until its
/// deadline, and the others go on.
pub const CONCURRENT: usize = 16;

/// Paths in one purge request: Cloudflare's `purge_cache` takes at most
/// 30 `files` per call on most plans.
pub const PURGE_CHUNK: usize = 30;

/// The longest wait between two tries, whatever the backoff or the
/// receiver's `Retry-After` says.
pub const MAX_WAIT: Duration = Duration::from_secs(600);

/// The queue and the task that empties it; cheap to clone.
#[derive(Clone)]
pub struct Outbox {
    inner: Arc<Inner>,
}

struct Inner {
    cfg: OutboundConfig,
    /// In a fleet, the Redis where each event is claimed by one replica.
    fleet: Option<Arc<crate::fleet::Fleet>>,
    public_url: String,
    client: reqwest::Client,
    queue: Mutex<VecDeque<Job>>,
    wake: Notify,
    counts: Counts,
}

#[derive(Default)]
struct Counts {
    sent: AtomicU64,
    failed: AtomicU64,
    dropped: AtomicU64,
    pending: AtomicU64,
}

/// One request to make, and what it is for.
#[derive(Debug)]
enum Job {
    /// A purge request: `body` is `None` for a template with `{path}` (one
    /// request per path, no body).
    Purge {
        url: String,
        body: Option<Vec<u8>>,
        key: String,
    },
    /// One event to one target; with `dispatch` (its headers, a token
    /// among them), as a GitHub `repository_dispatch`.
    Event {
        event: Arc<Event>,
        url: String,
        dispatch: Option<Vec<(String, String)>>,
    },
    /// A commit status (`headers` holds the forge's token).
    Status {
        url: String,
        body: Vec<u8>,
        headers: Vec<(String, String)>,
        key: String,
    },
}

impl Job {
    fn url(&self) -> &str {
        match self {
            Job::Purge { url, .. } | Job::Event { url, .. } | Job::Status { url, .. } => url,
        }
    }

    fn what(&self) -> &'static str {
        match self {
            Job::Purge { .. } => "purge",
            Job::Event { event, .. } => event.kind.as_str(),
            Job::Status { .. } => "commit status",
        }
    }

    fn key(&self) -> &str {
        match self {
            Job::Purge { key, .. } | Job::Status { key, .. } => key,
            Job::Event { event, .. } => &event.id,
        }
    }
}

impl Outbox {
    /// Starts the task that delivers, until `stop` turns true. Needs a
    /// tokio runtime.
    pub fn start(
        cfg: OutboundConfig,
        public_url: &str,
        fleet: Option<Arc<crate::fleet::Fleet>>,
        stop: watch::Receiver<bool>,
    ) -> Outbox {
        let client = reqwest::Client::builder()
            .timeout(cfg.timeout)
            .connect_timeout(cfg.timeout)
            .user_agent(concat!("marque/", env!("CARGO_PKG_VERSION")))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        let outbox = Outbox {
            inner: Arc::new(Inner {
                cfg,
                fleet,
                public_url: public_url.trim_end_matches('/').to_string(),
                client,
                queue: Mutex::default(),
                wake: Notify::new(),
                counts: Counts::default(),
            }),
        };
        tokio::spawn(run(outbox.inner.clone(), stop));
        outbox
    }

    /// Queues what the publish from `before` to `after` changed: a purge
    /// of its paths and its events. Returns at once.
    pub fn published(&self, before: &Seen, after: &Seen) {
        let inner = &self.inner;
        let published = super::published(before, after, &inner.public_url);
        if !published.paths.is_empty() || !published.events.is_empty() {
            tracing::debug!(
                generation = published.generation,
                paths = published.paths.len(),
                events = published.events.len(),
                "a publish to tell"
            );
        }
        for job in self.jobs(published) {
            self.push(job);
        }
    }

    /// Queues a commit status `verdict` on `sha`, with `--status-api`.
    pub fn commit_status(&self, sha: &str, verdict: &super::commit_status::Verdict) {
        let Some(api) = &self.inner.cfg.status else {
            return;
        };
        let (url, body, headers) =
            super::commit_status::request(api, sha, verdict, &self.inner.public_url);
        let body = body.to_string().into_bytes();
        let key = {
            use sha2::Digest;
            let d = Sha256::new()
                .chain_update(&url)
                .chain_update(&body)
                .finalize();
            let hex: String = d[..12].iter().map(|b| format!("{b:02x}")).collect();
            format!("status_{hex}")
        };
        self.push(Job::Status {
            url,
            body,
            headers,
            key,
        });
    }

    /// Deliveries counted so far, for `/status`.
    pub fn status(&self) -> OutboundStatus {
        let c = &self.inner.counts;
        OutboundStatus {
            purge_targets: self.inner.cfg.purge.len(),
            event_targets: self.inner.cfg.notify.len(),
            sent: c.sent.load(Ordering::Relaxed),
            failed: c.failed.load(Ordering::Relaxed),
            pending: c.pending.load(Ordering::Relaxed),
            dropped: c.dropped.load(Ordering::Relaxed),
        }
    }

    /// The requests `published` asks for.
    fn jobs(&self, published: Published) -> Vec<Job> {
        let inner = &self.inner;
        let mut jobs = Vec::new();
        if !published.paths.is_empty() {
            for template in &inner.cfg.purge {
                jobs.extend(purges(
                    template,
                    &published.paths,
                    &inner.public_url,
                    published.generation,
                ));
            }
        }
        for event in published.events {
            let event = Arc::new(event);
            for target in &inner.cfg.notify {
                if event.private && !target.private {
                    continue;
                }
                jobs.push(Job::Event {
                    event: event.clone(),
                    url: target.url.clone(),
                    dispatch: None,
                });
            }
            if event.private {
                continue;
            }
            if let Some(d) = &inner.cfg.dispatch {
                for repo in &d.repos {
                    jobs.push(Job::Event {
                        event: event.clone(),
                        url: format!("{}/repos/{repo}/dispatches", d.base),
                        dispatch: Some(d.headers()),
                    });
                }
            }
        }
        jobs
    }

    /// Queues `job`; when the queue is full, the oldest waiting goes.
    fn push(&self, job: Job) {
        let inner = &self.inner;
        let mut queue = inner.queue.lock().unwrap_or_else(|e| e.into_inner());
        if queue.len() >= inner.cfg.queue.max(1) {
            if let Some(old) = queue.pop_front() {
                inner.counts.dropped.fetch_add(1, Ordering::Relaxed);
                inner.counts.pending.fetch_sub(1, Ordering::Relaxed);
                tracing::warn!(
                    target_url = %redact_url(old.url()),
                    what = old.what(),
                    key = old.key(),
                    "the delivery queue is full: the oldest delivery is dropped"
                );
            }
        }
        queue.push_back(job);
        inner.counts.pending.fetch_add(1, Ordering::Relaxed);
        drop(queue);
        inner.wake.notify_one();
    }
}

/// The purge requests of `paths` for one `--purge-url`: with `{path}` or
/// `{url}` in the template, one POST per path with no body; without, POSTs
/// of `{"paths": [...], "files": [...]}` ([`PURGE_CHUNK`] paths each,
/// `files` the absolute URLs, as Cloudflare's `purge_cache` reads them).
fn purges(template: &str, paths: &[String], public_url: &str, generation: u64) -> Vec<Job> {
    let per_path = template.contains("{path}") || template.contains("{url}");
    if per_path {
        return paths
            .iter()
            .map(|p| Job::Purge {
                url: template
                    .replace("{path}", p)
                    .replace("{url}", &format!("{public_url}{p}")),
                body: None,
                key: purge_key(generation, std::slice::from_ref(p)),
            })
            .collect();
    }
    paths
        .chunks(PURGE_CHUNK)
        .map(|chunk| {
            let files: Vec<String> = chunk.iter().map(|p| format!("{public_url}{p}")).collect();
            let body = serde_json::json!({ "paths": chunk, "files": files });
            Job::Purge {
                url: template.to_string(),
                body: Some(body.to_string().into_bytes()),
                key: purge_key(generation, chunk),
            }
        })
        .collect()
}

/// The idempotency key of a purge: the generation and its paths.
fn purge_key(generation: u64, paths: &[String]) -> String {
    use sha2::Digest;
    let mut h = Sha256::new();
    h.update(generation.to_be_bytes());
    for p in paths {
        h.update(p.as_bytes());
        h.update([0]);
    }
    let d = h.finalize();
    let hex: String = d[..12].iter().map(|b| format!("{b:02x}")).collect();
    format!("purge_{hex}")
}

/// `sha256=<hex>` of HMAC-SHA256 with `secret` over `<timestamp>.<body>`:
/// the value of `X-Marque-Signature-256`. A receiver computes the same
/// and compares in constant time, and refuses an old timestamp.
pub fn sign(secret: &str, timestamp: u64, body: &[u8]) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes a key of any length");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    let sig = mac.finalize().into_bytes();
    let hex: String = sig.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256={hex}")
}

/// Takes deliveries off the queue and makes them, [`CONCURRENT`] at once.
async fn run(inner: Arc<Inner>, mut stop: watch::Receiver<bool>) {
    let slots = Arc::new(Semaphore::new(CONCURRENT));
    loop {
        let next = inner
            .queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front();
        let Some(job) = next else {
            tokio::select! {
                () = inner.wake.notified() => continue,
                _ = stop.wait_for(|s| *s) => return,
            }
        };
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let inner = inner.clone();
        tokio::spawn(async move {
            deliver(&inner, job).await;
            inner.counts.pending.fetch_sub(1, Ordering::Relaxed);
            drop(slot);
        });
    }
}

/// The body of an event as sent: with its verdict, computed here (off
/// the publish path) from the two versions' brands.
fn event_body(event: &Event) -> Vec<u8> {
    let mut e = event.clone();
    e.verdict = event.compared.as_ref().and_then(|(a, b)| {
        let (a, b) = (a.brand.brand()?, b.brand.brand()?);
        let diff = crate::spec::diff::diff(&a, &b);
        Some(diff.level().map_or("none", |l| l.as_str()).to_string())
    });
    serde_json::to_vec(&e).expect("an event serializes")
}

/// How long a replica's claim on a delivery lasts: a replica that
/// publishes the same event later (it was behind) does not send it again.
pub const CLAIM_FOR: Duration = Duration::from_secs(24 * 3600);

/// In a fleet, whether this replica sends `job`: every replica publishes
/// the same events (their ids are made from the content, the same
/// everywhere), and the first to `SET NX` the event's key for the target
/// in Redis sends it. Purges are not claimed (a purge repeated is
/// harmless). Without Redis, or when it does not answer within a second,
/// the replica sends: a duplicate, which the idempotency key lets a
/// receiver drop, rather than an event lost.
async fn claimed(inner: &Inner, job: &Job) -> bool {
    let Some(fleet) = &inner.fleet else {
        return true;
    };
    if matches!(job, Job::Purge { .. }) {
        return true;
    }
    let Some(mut conn) = fleet.may_ask() else {
        return true;
    };
    let target = {
        use sha2::Digest;
        let d = Sha256::digest(job.url().as_bytes());
        d[..8]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    };
    let name = fleet.key(&format!("outbox:{}:{target}", job.key()));
    let mut cmd = redis::cmd("SET");
    cmd.arg(&name)
        .arg(fleet.id())
        .arg("NX")
        .arg("PX")
        .arg(CLAIM_FOR.as_millis() as u64);
    let claim = cmd.query_async::<Option<String>>(&mut conn);
    match tokio::time::timeout(Duration::from_secs(1), claim).await {
        Ok(Ok(won)) => won.is_some(),
        Ok(Err(e)) => {
            let error = crate::fleet::redact_error(&e.to_string());
            tracing::warn!(%error, "cannot claim a delivery in redis: sending it from this replica");
            true
        }
        Err(_) => {
            tracing::warn!(
                "redis did not answer a delivery's claim in 1 s: sending it from this replica"
            );
            true
        }
    }
}

/// A GitHub `repository_dispatch` of an event: `event_type`
/// `marque-release`, the event as `client_payload` (GitHub takes at most
/// ten top-level properties there; an event has nine).
fn dispatch_body(event: &[u8]) -> Vec<u8> {
    let payload: serde_json::Value = serde_json::from_slice(event).unwrap_or_default();
    serde_json::json!({ "event_type": DISPATCH_EVENT, "client_payload": payload })
        .to_string()
        .into_bytes()
}

/// The `event_type` of the `repository_dispatch` marque sends.
pub const DISPATCH_EVENT: &str = "marque-release";

/// Makes one delivery, trying again while the answer says it may work
/// later; counts and logs how it ended.
async fn deliver(inner: &Inner, job: Job) {
    let shown = redact_url(job.url());
    let (what, key) = (job.what(), job.key().to_string());
    if !claimed(inner, &job).await {
        tracing::info!(target_url = %shown, what, key, "another replica of the fleet sends this delivery");
        return;
    }
    let body = match &job {
        Job::Purge { body, .. } => body.clone(),
        Job::Status { body, .. } => Some(body.clone()),
        Job::Event {
            event, dispatch, ..
        } => {
            let event = event.clone();
            let wrap = dispatch.is_some();
            match tokio::task::spawn_blocking(move || event_body(&event)).await {
                Ok(b) if wrap => Some(dispatch_body(&b)),
                Ok(b) => Some(b),
                Err(_) => {
                    inner.counts.failed.fetch_add(1, Ordering::Relaxed);
                    tracing::error!(target_url = %shown, what, key, "an event's body could not be made (a bug; please report it)");
                    return;
                }
            }
        }
    };
    let attempts = inner.cfg.attempts.max(1);
    for attempt in 1..=attempts {
        let started = std::time::Instant::now();
        let answer = request(inner, &job, body.as_deref()).send().await;
        let ms = started.elapsed().as_millis() as u64;
        let wait = match answer {
            Ok(r) if r.status().is_success() => {
                inner.counts.sent.fetch_add(1, Ordering::Relaxed);
                tracing::info!(target_url = %shown, what, key, attempt, status = r.status().as_u16(), ms, "delivered");
                return;
            }
            Ok(r) if retryable(r.status()) => {
                let after = retry_after(r.headers());
                tracing::warn!(target_url = %shown, what, key, attempt, status = r.status().as_u16(), ms, "delivery refused for now; trying again");
                after.unwrap_or_else(|| backoff(inner.cfg.retry_base, attempt))
            }
            Ok(r) => {
                inner.counts.failed.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(target_url = %shown, what, key, attempt, status = r.status().as_u16(), ms, "delivery refused; not trying again");
                return;
            }
            Err(e) => {
                // Without the URL, which may carry a credential.
                let error = e.without_url();
                tracing::warn!(target_url = %shown, what, key, attempt, ms, error = %error, "delivery failed; trying again");
                backoff(inner.cfg.retry_base, attempt)
            }
        };
        if attempt == attempts {
            break;
        }
        tokio::time::sleep(wait.min(MAX_WAIT)).await;
    }
    inner.counts.failed.fetch_add(1, Ordering::Relaxed);
    tracing::error!(target_url = %shown, what, key, attempts, "delivery given up after every try");
}

/// The request of one try: a fresh timestamp and signature each time,
/// the same idempotency key.
fn request(inner: &Inner, job: &Job, body: Option<&[u8]>) -> reqwest::RequestBuilder {
    let mut req = inner
        .client
        .post(job.url())
        .header("Idempotency-Key", job.key());
    match job {
        Job::Purge { .. } => {
            if let Some((name, value)) = &inner.cfg.purge_header {
                req = req.header(name.as_str(), value.as_str());
            }
        }
        Job::Status { headers, .. } => {
            for (name, value) in headers {
                req = req.header(name.as_str(), value.as_str());
            }
        }
        Job::Event {
            dispatch: Some(headers),
            ..
        } => {
            for (name, value) in headers {
                req = req.header(name.as_str(), value.as_str());
            }
        }
        Job::Event { event, .. } => {
            let timestamp = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            req = req
                .header("X-Marque-Event", event.kind.as_str())
                .header("X-Marque-Timestamp", timestamp.to_string());
            if let Some(secret) = &inner.cfg.secret {
                let signature = sign(secret, timestamp, body.unwrap_or_default());
                req = req.header("X-Marque-Signature-256", signature);
            }
        }
    }
    match body {
        Some(b) => req
            .header("Content-Type", "application/json")
            .body(b.to_vec()),
        None => req,
    }
}

/// An answer that may be different later: 408, 429 and every 5xx.
fn retryable(status: reqwest::StatusCode) -> bool {
    status.is_server_error() || status.as_u16() == 408 || status.as_u16() == 429
}

/// `Retry-After` as seconds or as an HTTP date.
fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let value = headers.get("retry-after")?.to_str().ok()?.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = chrono::DateTime::parse_from_rfc2822(value).ok()?;
    (at.with_timezone(&chrono::Utc) - chrono::Utc::now())
        .to_std()
        .ok()
}

/// The wait after the `attempt`th try: `base` doubled each try, capped at
/// [`MAX_WAIT`], and a random half of it taken off ("equal jitter"), so
/// deliveries that failed together do not retry together.
fn backoff(base: Duration, attempt: u32) -> Duration {
    let full = base
        .saturating_mul(1u32 << attempt.saturating_sub(1).min(20))
        .min(MAX_WAIT);
    let random = f64::from(getrandom::u32().unwrap_or(u32::MAX / 2)) / f64::from(u32::MAX);
    full / 2 + full.mul_f64(random / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outbound::OutboundConfig;

    #[test]
    fn backoff_doubles_within_its_jitter_and_is_capped() {
        let base = Duration::from_secs(1);
        for attempt in 1..6 {
            let w = backoff(base, attempt);
            let full = base * (1 << (attempt - 1));
            assert!(w >= full / 2 && w <= full, "{attempt}: {w:?}");
        }
        assert!(backoff(base, 40) <= MAX_WAIT);
    }

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let mut h = reqwest::header::HeaderMap::new();
        h.insert("retry-after", "7".parse().unwrap());
        assert_eq!(retry_after(&h), Some(Duration::from_secs(7)));
        let later = chrono::Utc::now() + chrono::Duration::seconds(30);
        let date = later.format("%a, %d %b %Y %H:%M:%S GMT").to_string();
        h.insert("retry-after", date.parse().unwrap());
        let w = retry_after(&h).unwrap();
        assert!(
            w > Duration::from_secs(25) && w <= Duration::from_secs(30),
            "{w:?}"
        );
    }

    #[test]
    fn a_template_with_a_path_is_one_request_per_path_else_chunks() {
        let paths: Vec<String> = (0..31).map(|i| format!("/brand/b{i}")).collect();
        let one = purges(
            "https://api.fastly.com/purge/b.example{path}",
            &paths[..2],
            "https://b.example",
            3,
        );
        let urls: Vec<_> = one.iter().map(|j| j.url().to_string()).collect();
        assert_eq!(
            urls,
            [
                "https://api.fastly.com/purge/b.example/brand/b0",
                "https://api.fastly.com/purge/b.example/brand/b1"
            ]
        );
        let chunks = purges("https://cdn.example/purge", &paths, "https://b.example", 3);
        assert_eq!(chunks.len(), 2);
        let Job::Purge {
            body: Some(body), ..
        } = &chunks[1]
        else {
            panic!("a body");
        };
        let body: serde_json::Value = serde_json::from_slice(body).unwrap();
        assert_eq!(body["paths"], serde_json::json!(["/brand/b30"]));
        assert_eq!(
            body["files"],
            serde_json::json!(["https://b.example/brand/b30"])
        );
    }

    /// A receiver that takes connections and never answers: every slot
    /// fills, the queue fills, and the oldest waiting are dropped.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_full_queue_drops_the_oldest_and_counts_it() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((conn, _)) = listener.accept().await {
                held.push(conn);
            }
        });
        let cfg = OutboundConfig {
            purge: vec![format!("http://{addr}/purge")],
            queue: 4,
            timeout: Duration::from_secs(60),
            ..OutboundConfig::default()
        };
        let (_stop_tx, stop) = watch::channel(false);
        let outbox = Outbox::start(cfg, "https://b.example", None, stop);
        let total = CONCURRENT as u64 + 10;
        for i in 0..total {
            outbox.push(Job::Purge {
                url: format!("http://{addr}/purge"),
                body: None,
                key: format!("purge_{i}"),
            });
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let status = loop {
            let s = outbox.status();
            // Every slot busy, one taken off waiting for a slot, the queue full.
            if s.pending <= CONCURRENT as u64 + 1 + 4 || std::time::Instant::now() > deadline {
                break s;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        assert!(status.dropped >= 1, "{status:?}");
        assert_eq!(status.pending + status.dropped, total, "{status:?}");
        assert_eq!((status.sent, status.failed), (0, 0));
    }

    #[test]
    fn a_signature_covers_the_timestamp_and_the_body() {
        let a = sign("s3cret", 1_700_000_000, b"{}");
        assert!(a.starts_with("sha256=") && a.len() == 7 + 64);
        assert_ne!(a, sign("s3cret", 1_700_000_001, b"{}"));
        assert_ne!(a, sign("s3cret", 1_700_000_000, b"{ }"));
    }
}
