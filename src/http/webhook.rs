//! `POST /hooks/git`: a push webhook. GitHub and Gitea/Forgejo sign the raw
//! body with HMAC-SHA256 (`X-Hub-Signature-256: sha256=<hex>`,
//! `X-Gitea-Signature: <hex>`); GitLab sends the secret as `X-Gitlab-Token`.
//! Checks run in constant time. The payload is only a hint: marque answers
//! 202 at once and fetches the branch itself; deliveries that arrive while
//! a fetch is pending coalesce into it.

use super::problem::Problem;
use super::AppState;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Largest webhook body read; GitHub caps payloads at 25 MB, but a push hint needs far less.
pub const MAX_BODY: usize = 1024 * 1024;

/// Webhook bodies read at once. A body is unauthenticated until it is read
/// whole (the signature covers it), so this bounds what anonymous clients
/// can make marque hold: at most this many MiB, each for at most the body timeout.
pub const CONCURRENT_READS: usize = 8;

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

pub async fn handle(State(app): State<AppState>, headers: HeaderMap, body: Body) -> Response {
    let (Some(secret), Some(trigger)) = (app.webhook_secret.as_deref(), app.git_trigger.as_ref())
    else {
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
            let slot = tokio::time::timeout(SLOT_WAIT, app.webhook_reads.clone().acquire_owned());
            let Ok(Ok(_slot)) = slot.await else {
                return Problem::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "too many webhook deliveries are being read; try again shortly",
                )
                .header(axum::http::header::RETRY_AFTER, "1")
                .into_response();
            };
            let bytes = match super::body::read(&headers, body, MAX_BODY).await {
                Ok(b) => b,
                Err(e) => return super::demo::read_problem(e, MAX_BODY).into_response(),
            };
            if !verify(secret, &headers, &bytes) {
                return unauthorized();
            }
        }
    }
    let _ = trigger.send(());
    if let Some(fanout) = &app.fanout {
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
