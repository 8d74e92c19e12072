//! `POST /hooks/git`: a push webhook. GitHub and Gitea/Forgejo sign the raw
//! body with HMAC-SHA256 (`X-Hub-Signature-256: sha256=<hex>`,
//! `X-Gitea-Signature: <hex>`); GitLab sends the secret as `X-Gitlab-Token`.
//! Checks run in constant time. The payload is only a hint: marque answers
//! 202 at once and fetches the branch itself; deliveries that arrive while
//! a fetch is pending coalesce into it.
//!
//! A signed body is unauthenticated until it is read whole, so reading one
//! is rationed ([`Reads`]): a few slots in all, at most
//! [`READS_PER_CLIENT`] of them per client address, and a body that
//! arrives slower than a floor loses its slot. Together these keep a
//! genuine delivery from waiting long behind slow bodies: one address
//! cannot hold every slot, and each slow body holds one for the grace
//! period only. Slots are taken in arrival order, so slow bodies from many
//! addresses that reconnect at once still queue ahead of a genuine
//! delivery: it waits about a grace period per eight of them queued, and
//! past `SLOT_WAIT` (5 s) gets 503 (measured: 16 addresses, 202 within 3 s;
//! 40 addresses, 503 for some).

use super::body::{RateFloor, ReadError};
use super::problem::Problem;
use super::AppState;
use crate::demo::limit::ceil_secs;
use axum::body::Body;
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Largest webhook body read; GitHub caps payloads at 25 MB, but a push hint needs far less.
pub const MAX_BODY: usize = 1024 * 1024;

/// Webhook bodies read at once. A body is unauthenticated until it is read
/// whole (the signature covers it), so this bounds what anonymous clients
/// can make marque hold: at most this many MiB, each for as long as it
/// keeps above the rate floor, and never past the body timeout.
pub const CONCURRENT_READS: usize = 8;

/// Webhook bodies one client address (IPv6: one /64) may have read or
/// waiting to be read at once. Two, not one: a sender may deliver two
/// events at the same moment (a push and its tag), and a genuine body
/// holds its slot for milliseconds. A quarter of [`CONCURRENT_READS`], so
/// filling every slot takes four addresses, and then the rate floor
/// frees each slot within the grace period.
pub const READS_PER_CLIENT: usize = 2;

/// How fast a webhook body must arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimits {
    /// Time a body has before its pace is judged: what a small payload
    /// needs to arrive whole even across a slow, distant link.
    pub grace: Duration,
    /// The floor, in bytes per second, averaged since the read began.
    pub min_bytes_per_sec: u64,
}

impl Default for RateLimits {
    /// 2 s of grace: a push payload of up to ~100 KB arrives from GitHub in
    /// milliseconds, and within a few round trips of TCP slow start (under
    /// 1 s) across the world; and 2 s is well under `SLOT_WAIT` (5 s), so a
    /// genuine delivery that queues behind slow bodies gets a slot when
    /// they are cut, before it gives up. 128 KiB/s (1 Mbit/s): the largest
    /// body read ([`MAX_BODY`]) at the floor takes 8 s, within the default
    /// 10 s body timeout, so every body that keeps the floor can finish.
    fn default() -> RateLimits {
        RateLimits {
            grace: Duration::from_secs(2),
            min_bytes_per_sec: 128 * 1024,
        }
    }
}

/// The webhook's read slots: [`CONCURRENT_READS`] in all, taken in arrival
/// order, and at most [`READS_PER_CLIENT`] per client, counted from before
/// a delivery queues for a slot (so one address cannot fill the queue
/// either).
pub struct Reads {
    slots: Arc<Semaphore>,
    clients: Mutex<HashMap<IpAddr, usize>>,
    rate: RateLimits,
}

impl Reads {
    pub fn new(rate: RateLimits) -> Reads {
        Reads {
            slots: Arc::new(Semaphore::new(CONCURRENT_READS)),
            clients: Mutex::default(),
            rate,
        }
    }

    fn clients(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        self.clients.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// One of `client`'s own reads, or None when it has all of its own.
    fn client_read(&self, client: IpAddr) -> Option<ClientRead<'_>> {
        let mut clients = self.clients();
        let held = clients.entry(client).or_insert(0);
        if *held >= READS_PER_CLIENT {
            return None;
        }
        *held += 1;
        Some(ClientRead {
            reads: self,
            client,
        })
    }

    /// Reads `client` has under way or queued now.
    #[cfg(test)]
    fn held_by(&self, client: IpAddr) -> usize {
        self.clients().get(&client).copied().unwrap_or(0)
    }
}

/// A client's claim on one of its reads, given back when dropped.
struct ClientRead<'a> {
    reads: &'a Reads,
    client: IpAddr,
}

impl Drop for ClientRead<'_> {
    fn drop(&mut self) {
        let mut clients = self.reads.clients();
        if let Some(n) = clients.get_mut(&self.client) {
            *n -= 1;
            if *n == 0 {
                clients.remove(&self.client);
            }
        }
    }
}

fn hex_decode(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Equality that takes the same time wherever the inputs differ.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// True when the request carries a valid signature or token for `secret`.
pub fn verify(secret: &str, headers: &HeaderMap, body: &[u8]) -> bool {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    let hmac_ok = |hex: &str| {
        let Some(sig) = hex_decode(hex) else {
            return false;
        };
        let mut mac =
            Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
        mac.update(body);
        mac.verify_slice(&sig).is_ok()
    };
    if let Some(sig) = header("x-hub-signature-256") {
        return sig.strip_prefix("sha256=").is_some_and(hmac_ok);
    }
    if let Some(sig) = header("x-gitea-signature").or_else(|| header("x-forgejo-signature")) {
        return hmac_ok(sig);
    }
    if let Some(token) = header("x-gitlab-token") {
        return constant_time_eq(token.as_bytes(), secret.as_bytes());
    }
    false
}

/// How long a signed delivery waits for a read slot before 503: deliveries
/// queue in arrival order, so a genuine one waits behind a flood of bogus
/// ones for a moment instead of being refused.
const SLOT_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// What the headers say a delivery is, judged before any body is read.
#[derive(Debug, PartialEq, Eq)]
enum Claim {
    /// A GitLab token: decided from the header alone.
    Token(bool),
    /// A well-formed HMAC signature: decided once the body is read.
    Signed,
    /// No signature, or one that no body could match.
    Refused,
}

/// The cheapest checks first: a GitLab token is compared at once, and a
/// signature header that is not 64 hex digits (after `sha256=` for
/// GitHub) is refused at once. Only a well-formed signature makes marque
/// read and hash a body.
fn claim(secret: &str, headers: &HeaderMap) -> Claim {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    let well_formed = |hex: &str| hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit());
    if let Some(sig) = header("x-hub-signature-256") {
        return match sig.strip_prefix("sha256=") {
            Some(hex) if well_formed(hex) => Claim::Signed,
            _ => Claim::Refused,
        };
    }
    if let Some(sig) = header("x-gitea-signature").or_else(|| header("x-forgejo-signature")) {
        return if well_formed(sig) {
            Claim::Signed
        } else {
            Claim::Refused
        };
    }
    if let Some(token) = header("x-gitlab-token") {
        return Claim::Token(constant_time_eq(token.as_bytes(), secret.as_bytes()));
    }
    Claim::Refused
}

pub async fn handle(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Body,
) -> Response {
    let Some((git, Some(secret))) = app.git.as_deref().map(|g| (g, g.secret.as_deref())) else {
        return Problem::not_found(
            "the webhook is off: run marque in git mode with --webhook-secret",
        )
        .into_response();
    };
    match claim(secret, &headers) {
        Claim::Refused | Claim::Token(false) => return unauthorized(),
        // The token is the whole proof; the payload is only a hint, and
        // marque never reads it.
        Claim::Token(true) => {}
        Claim::Signed => {
            let reads = &git.reads;
            // The same client address as every per-client limit: the peer,
            // or what a --trusted-proxy says, so a forged X-Forwarded-For
            // does not make one client many.
            let client = app.clients.key(peer.ip(), &headers);
            let Some(_own) = reads.client_read(client) else {
                return client_busy(reads.rate).into_response();
            };
            let slot = tokio::time::timeout(SLOT_WAIT, reads.slots.clone().acquire_owned());
            let Ok(Ok(_slot)) = slot.await else {
                return Problem::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "too many webhook deliveries are being read; try again shortly",
                )
                .header(header::RETRY_AFTER, "1")
                .header(header::CONNECTION, "close")
                .into_response();
            };
            // The pace is judged from here: time spent queued for a slot
            // is not the client's.
            let body = Body::new(RateFloor::new(
                body,
                reads.rate.grace,
                reads.rate.min_bytes_per_sec,
            ));
            let bytes = match super::body::read(&headers, body, MAX_BODY).await {
                Ok(b) => b,
                Err(ReadError::TooSlow) => return too_slow(reads.rate).into_response(),
                Err(e) => return super::problem::read_problem(e, MAX_BODY).into_response(),
            };
            if !verify(secret, &headers, &bytes) {
                return unauthorized();
            }
        }
    }
    let _ = git.trigger.send(());
    if let Some(fanout) = &git.fanout {
        fanout.announce().await;
    }
    let mut res = (StatusCode::ACCEPTED, "{\"status\":\"accepted\"}").into_response();
    res.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        axum::http::HeaderValue::from_static("application/json"),
    );
    super::headers::common_headers(res.headers_mut());
    res
}

/// A client that has all of its own reads under way: it may send again
/// once one is done, which a stalled body is within the grace period.
fn client_busy(rate: RateLimits) -> Problem {
    Problem::new(
        StatusCode::TOO_MANY_REQUESTS,
        format!(
            "this client already has {READS_PER_CLIENT} webhook deliveries being read; try again when one is done"
        ),
    )
    .header(header::RETRY_AFTER, &ceil_secs(rate.grace).to_string())
    // Its body is left unread, so the connection cannot carry another request.
    .header(header::CONNECTION, "close")
}

/// A body under the rate floor. The connection closes: the rest of the
/// body is not worth waiting for.
fn too_slow(rate: RateLimits) -> Problem {
    Problem::new(
        StatusCode::REQUEST_TIMEOUT,
        format!(
            "the request body arrived slower than {}/s after {} ms",
            crate::spec::limits::describe_bytes(rate.min_bytes_per_sec as usize),
            rate.grace.as_millis()
        ),
    )
    .header(header::CONNECTION, "close")
}

fn unauthorized() -> Response {
    Problem::new(
        StatusCode::UNAUTHORIZED,
        "missing or invalid webhook signature",
    )
    .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn githubs_published_test_vector_verifies() {
        // From GitHub's "Validating webhook deliveries" documentation.
        let secret = "It's a Secret to Everybody";
        let sig = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
        assert!(verify(
            secret,
            &headers(&[("x-hub-signature-256", sig)]),
            b"Hello, World!"
        ));
        assert!(!verify(
            secret,
            &headers(&[("x-hub-signature-256", sig)]),
            b"Hello, World?"
        ));
        assert!(!verify(
            "another secret",
            &headers(&[("x-hub-signature-256", sig)]),
            b"Hello, World!"
        ));
        assert!(
            !verify(
                secret,
                &headers(&[("x-hub-signature-256", &sig[7..])]),
                b"Hello, World!"
            ),
            "the sha256= prefix is required"
        );
    }

    #[test]
    fn gitea_and_gitlab_forms_verify() {
        let secret = "It's a Secret to Everybody";
        let hex = "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
        assert!(verify(
            secret,
            &headers(&[("x-gitea-signature", hex)]),
            b"Hello, World!"
        ));
        assert!(verify(
            secret,
            &headers(&[("x-gitlab-token", secret)]),
            b"anything"
        ));
        assert!(!verify(
            secret,
            &headers(&[("x-gitlab-token", "It's a Secret to Everybodx")]),
            b"anything"
        ));
        assert!(
            !verify(secret, &headers(&[]), b"Hello, World!"),
            "unsigned is refused"
        );
        assert!(!verify(
            secret,
            &headers(&[("x-gitea-signature", "zz")]),
            b"x"
        ));
    }

    #[test]
    fn one_address_gets_its_share_of_the_reads_and_others_still_get_theirs() {
        let reads = Reads::new(RateLimits::default());
        let a = IpAddr::from([203, 0, 113, 9]);
        let b = IpAddr::from([198, 51, 100, 1]);
        let first = reads.client_read(a).expect("a first read");
        let second = reads.client_read(a).expect("a second read");
        assert!(reads.client_read(a).is_none(), "a third from one address");
        let _other = reads
            .client_read(b)
            .expect("another address is not affected");
        drop(first);
        assert_eq!(reads.held_by(a), 1, "a read is given back when it ends");
        let again = reads.client_read(a).expect("and can be taken again");
        assert_eq!(reads.held_by(a), READS_PER_CLIENT);
        drop(again);
        drop(second);
        assert_eq!(reads.held_by(a), 0);
        assert!(
            !reads.clients().contains_key(&a),
            "an address with no reads is forgotten, so the table stays small"
        );
    }

    #[test]
    fn the_flags_default_to_the_documented_floor() {
        let args = crate::config::ServeArgs::default();
        let from_flags = RateLimits {
            grace: args.webhook_body_grace,
            min_bytes_per_sec: u64::from(args.webhook_body_rate) * 1024,
        };
        assert_eq!(from_flags, RateLimits::default());
        // The largest body, sent at the floor, fits the default body timeout.
        let at_floor = MAX_BODY as u64 / RateLimits::default().min_bytes_per_sec;
        assert!(Duration::from_secs(at_floor) < args.body_timeout);
        // A delivery queued behind slow bodies gets a slot before it gives up.
        assert!(RateLimits::default().grace < SLOT_WAIT);
    }

    #[test]
    fn what_no_body_could_match_is_refused_before_any_body_is_read() {
        let secret = "It's a Secret to Everybody";
        let hex = "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
        let sig = format!("sha256={hex}");
        let of = |pairs: &[(&'static str, &str)]| claim(secret, &headers(pairs));
        assert_eq!(of(&[("x-hub-signature-256", &sig)]), Claim::Signed);
        assert_eq!(of(&[("x-gitea-signature", hex)]), Claim::Signed);
        assert_eq!(of(&[("x-forgejo-signature", hex)]), Claim::Signed);
        for bad in ["sha256=zz", "sha256=00", hex, "sha1=abc", ""] {
            assert_eq!(of(&[("x-hub-signature-256", bad)]), Claim::Refused, "{bad}");
        }
        assert_eq!(of(&[("x-gitea-signature", "ab")]), Claim::Refused);
        assert_eq!(of(&[("x-gitlab-token", secret)]), Claim::Token(true));
        assert_eq!(of(&[("x-gitlab-token", "nope")]), Claim::Token(false));
        assert_eq!(of(&[]), Claim::Refused);
    }
}
