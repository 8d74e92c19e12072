//! IO: making one delivery. Each try has a request deadline; an answer
//! that may differ later (408, 429, 5xx, no answer) is tried again after
//! an exponential backoff with jitter, or after the receiver's
//! `Retry-After`; the idempotency key stays the same across tries (and
//! restarts), so a receiver drops what it has seen. Secrets are added to
//! each request here, from the configuration, and never logged.

use super::job::Job;
use super::journal::Journal;
use super::OutboundConfig;
use crate::redact::redact_url;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// The longest wait between two tries, whatever the backoff or the
/// receiver's `Retry-After` says.
pub const MAX_WAIT: Duration = Duration::from_secs(600);

/// How long a replica's claim on a delivery lasts: a replica that
/// publishes the same event later (it was behind) does not send it again.
pub const CLAIM_FOR: Duration = Duration::from_secs(24 * 3600);

/// What makes deliveries, held by the outbox: the configuration (the
/// secrets among it), the HTTP client, the fleet's Redis, the journal,
/// and the counts `/status` shows.
pub struct Sender {
    pub cfg: OutboundConfig,
    /// In a fleet, the Redis where each event is claimed by one replica.
    pub fleet: Option<Arc<crate::fleet::Fleet>>,
    pub client: reqwest::Client,
    pub counts: Counts,
    /// Where deliveries are written down, when a cache directory is given.
    pub journal: Option<Journal>,
    /// Pull request comments are made one at a time.
    pub comments: tokio::sync::Mutex<()>,
}

/// Deliveries by how they ended, and those waiting.
#[derive(Default)]
pub struct Counts {
    pub sent: AtomicU64,
    pub failed: AtomicU64,
    pub dropped: AtomicU64,
    pub pending: AtomicU64,
}

/// How a delivery ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The target acknowledged it (a 2xx answer).
    Acked,
    /// Refused, or out of tries.
    Failed,
    /// Another replica of the fleet sends it.
    NotOurs,
}

/// How one try went.
enum Try {
    Done(u16),
    Later(Option<Duration>, Option<u16>, String),
    Refused(Option<u16>, String),
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

/// In a fleet, whether this replica sends `job`: every replica publishes
/// the same events (their ids are made from the content, the same
/// everywhere), and the first to `SET NX` the event's key for the target
/// in Redis sends it. Purges are not claimed (a purge repeated is
/// harmless). Without Redis, or when it does not answer within a second,
/// the replica sends: a duplicate, which the idempotency key lets a
/// receiver drop, rather than an event lost.
async fn claimed(inner: &Sender, job: &Job) -> bool {
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

/// Makes one delivery (`claimed`: this replica won its claim before a
/// restart), trying again while the answer says it may work later;
/// counts and logs how it ended.
pub async fn deliver(inner: &Sender, id: &str, job: &Job, was_claimed: bool) -> Ended {
    let shown = redact_url(job.url());
    let (what, key) = (job.what(), job.key());
    if !was_claimed {
        if !claimed(inner, job).await {
            tracing::info!(target_url = %shown, what, key, "another replica of the fleet sends this delivery");
            return Ended::NotOurs;
        }
        if let Some(journal) = &inner.journal {
            journal.claimed(id);
        }
    }
    let attempts = inner.cfg.attempts.max(1);
    for attempt in 1..=attempts {
        let started = std::time::Instant::now();
        let answer = match job {
            Job::Comment { branch, body, .. } => comment(inner, branch, body, key).await,
            _ => once(inner, job).await,
        };
        let ms = started.elapsed().as_millis() as u64;
        let wait = match answer {
            Try::Done(status) => {
                inner.counts.sent.fetch_add(1, Ordering::Relaxed);
                tracing::info!(target_url = %shown, what, key, attempt, status, ms, "delivered");
                return Ended::Acked;
            }
            Try::Later(after, status, error) => {
                tracing::warn!(target_url = %shown, what, key, attempt, status, ms, error, "delivery refused for now or failed; trying again");
                after.unwrap_or_else(|| backoff(inner.cfg.retry_base, attempt))
            }
            Try::Refused(status, error) => {
                inner.counts.failed.fetch_add(1, Ordering::Relaxed);
                tracing::warn!(target_url = %shown, what, key, attempt, status, ms, error, "delivery refused; not trying again");
                return Ended::Failed;
            }
        };
        if attempt == attempts {
            break;
        }
        tokio::time::sleep(wait.min(MAX_WAIT)).await;
    }
    inner.counts.failed.fetch_add(1, Ordering::Relaxed);
    tracing::error!(target_url = %shown, what, key, attempts, "delivery given up after every try");
    Ended::Failed
}

/// What an answer means for the delivery.
fn judged(answer: Result<reqwest::Response, reqwest::Error>) -> Result<reqwest::Response, Try> {
    match answer {
        Ok(r) if r.status().is_success() => Ok(r),
        Ok(r) if retryable(r.status()) => Err(Try::Later(
            retry_after(r.headers()),
            Some(r.status().as_u16()),
            String::new(),
        )),
        Ok(r) => Err(Try::Refused(Some(r.status().as_u16()), String::new())),
        // Without the URL, which may carry a credential.
        Err(e) => Err(Try::Later(None, None, e.without_url().to_string())),
    }
}

/// One try of a single-request delivery.
async fn once(inner: &Sender, job: &Job) -> Try {
    let req = match request(inner, job) {
        Ok(r) => r,
        Err(why) => return Try::Refused(None, why.into()),
    };
    match judged(req.send().await) {
        Ok(r) => Try::Done(r.status().as_u16()),
        Err(t) => t,
    }
}

/// The request of one try: a fresh timestamp and signature each time,
/// the same idempotency key; the secrets from the configuration.
fn request(inner: &Sender, job: &Job) -> Result<reqwest::RequestBuilder, &'static str> {
    let cfg = &inner.cfg;
    let mut req = inner
        .client
        .post(job.url())
        .header("Idempotency-Key", job.key());
    let headers = match job {
        Job::Purge { .. } => cfg.purge_header.iter().cloned().collect(),
        Job::Status { .. } | Job::Comment { .. } => match &cfg.status {
            Some(api) => super::commit_status::headers(api),
            None => return Err("--status-api is no longer configured"),
        },
        Job::Dispatch { .. } => match &cfg.dispatch {
            Some(d) => d.headers(),
            None => return Err("--dispatch-repo is no longer configured"),
        },
        Job::Event {
            event_type, body, ..
        } => {
            let timestamp = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            let mut h = vec![
                ("X-Marque-Event".to_string(), event_type.clone()),
                ("X-Marque-Timestamp".to_string(), timestamp.to_string()),
            ];
            if let Some(secret) = &cfg.secret {
                let signature = sign(secret, timestamp, body.as_bytes());
                h.push(("X-Marque-Signature-256".to_string(), signature));
            }
            h
        }
    };
    for (name, value) in headers {
        req = req.header(name, value);
    }
    Ok(match job.body() {
        Some(b) => req
            .header("Content-Type", "application/json")
            .body(b.to_string()),
        None => req,
    })
}

/// One try of a pull request comment: find the branch's pull request,
/// then marque's comment on it, then edit it or make it. Each step is a
/// request whose failure is judged as any delivery's; a branch with no
/// open pull request is done (there is nothing to comment on).
async fn comment(inner: &Sender, branch: &str, body: &str, key: &str) -> Try {
    use super::comment as c;
    let Some(api) = &inner.cfg.status else {
        return Try::Refused(None, "--status-api is no longer configured".into());
    };
    // One conversation at a time: two at once could both find no comment
    // and both make one.
    let _one = inner.comments.lock().await;
    let headers = super::commit_status::headers(api);
    let get = |url: String| {
        let mut req = inner.client.get(url);
        for (name, value) in &headers {
            req = req.header(name, value);
        }
        req
    };
    let json = |r: reqwest::Response| async move {
        let bytes = r
            .bytes()
            .await
            .map_err(|e| Try::Later(None, None, e.without_url().to_string()))?;
        serde_json::from_slice::<serde_json::Value>(&bytes)
            .map_err(|e| Try::Later(None, None, format!("an answer that is not JSON: {e}")))
    };
    let pulls = match judged(get(c::pulls_url(api, branch)).send().await) {
        Ok(r) => match json(r).await {
            Ok(v) => v,
            Err(t) => return t,
        },
        Err(t) => return t,
    };
    let Some(number) = c::pull_number(api, branch, &pulls) else {
        tracing::info!(branch, "no open pull request of the branch: no comment");
        return Try::Done(200);
    };
    let mut found = None;
    for page in 1..=c::PAGES {
        let listing = match judged(get(c::comments_url(api, number, page)).send().await) {
            Ok(r) => match json(r).await {
                Ok(v) => v,
                Err(t) => return t,
            },
            Err(t) => return t,
        };
        let (id, last) = c::existing(&listing);
        found = id;
        if found.is_some() || last {
            break;
        }
    }
    let (method, url, json_body) = c::write(api, number, found, body);
    let mut req = inner
        .client
        .request(method, url)
        .header("Idempotency-Key", key)
        .header("Content-Type", "application/json")
        .body(json_body.to_string());
    for (name, value) in &headers {
        req = req.header(name, value);
    }
    match judged(req.send().await) {
        Ok(r) => Try::Done(r.status().as_u16()),
        Err(t) => t,
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
    fn a_signature_covers_the_timestamp_and_the_body() {
        let a = sign("s3cret", 1_700_000_000, b"{}");
        assert!(a.starts_with("sha256=") && a.len() == 7 + 64);
        assert_ne!(a, sign("s3cret", 1_700_000_001, b"{}"));
        assert_ne!(a, sign("s3cret", 1_700_000_000, b"{ }"));
    }
}
