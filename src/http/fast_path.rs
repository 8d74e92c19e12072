//! The GET path: every request for a snapshot resource is answered here,
//! on the thread that accepted its connection, with no router, middleware
//! or extractor in between. One snapshot load, one map lookup, the coding
//! chosen from `Accept-Encoding`, the prepared header values copied, the
//! body shared: nothing is rendered, formatted or parsed into a new value
//! on a hit.
//!
//! Rules (the product contract, section 4): HEAD without a body; a strong ETag per coding and
//! 304 on `If-None-Match`; `Cache-Control`, `Vary: Accept-Encoding`, CORS
//! and `nosniff` on every answer; 404 as problem+json (or, for a browser,
//! the page of an unpublished brand); 405 with `Allow`; 308 for a trailing
//! slash.

use super::access;
use super::body::ResBody;
use super::headers::common_headers;
pub use super::problem::not_found;
use super::problem::Problem;
use super::AppState;
use crate::paths::{self, Route};
use crate::render::status::{LimiterStatus, ServedStatus, Status};
use crate::snapshot::{Encoded, Resource, View};
use axum::http::{header, HeaderMap, HeaderValue, Method, Response, StatusCode};

const ALLOWED: &str = "GET, HEAD, OPTIONS";

/// Answers a request from the snapshot, or `None` for a handler's path.
/// `peer` is the connection's address (a client's failed tokens are
/// counted by it).
pub fn answer(
    app: &AppState,
    method: &Method,
    path: &str,
    headers: &HeaderMap,
    peer: std::net::IpAddr,
) -> Option<Response<ResBody>> {
    let route = Route::parse(path);
    if !route.is_snapshot() {
        return None;
    }
    let site = app.site.load();
    let reads = matches!(*method, Method::GET | Method::HEAD) && route != Route::Probe;
    // /status is the operator's under --ops-token: its bearer is that
    // token, never judged as an access token.
    let inner = paths::split_preview(path).map_or(path, |(_, p)| p);
    if inner == paths::STATUS && app.ops_token.is_some() {
        if !access::ops_allowed(app, headers) {
            let mut res = problem(access::ops_refused());
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            return Some(res);
        }
        let seen = access::anonymous(app, &site);
        let mut res = match seen.view(path) {
            Some(view) if reads && !seen.hides(path) => lookup(app, view, path, method, headers),
            _ => problem(not_found(path)),
        };
        seen.apply(res.headers_mut(), path, false);
        return Some(res);
    }
    let seen = match reads {
        true => match access::seen(app, &site, headers, peer) {
            Ok(seen) => seen,
            Err(too_many) => {
                let mut res = problem(too_many.problem());
                access::anonymous(app, &site).apply(res.headers_mut(), path, false);
                return Some(res);
            }
        },
        false => access::anonymous(app, &site),
    };
    let snapshot = seen.snapshot;
    let mut private = false;
    let mut res = match *method {
        Method::GET | Method::HEAD => match path {
            paths::HEALTHZ => plain(StatusCode::OK, "ok\n"),
            paths::READYZ if app.progress.stuck_for().is_some() => problem(
                Problem::new(StatusCode::SERVICE_UNAVAILABLE, stuck(&app.progress))
                    .header(header::RETRY_AFTER, "5"),
            ),
            paths::READYZ if snapshot.ready => plain(StatusCode::OK, "ok\n"),
            paths::READYZ => problem(
                Problem::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    match (snapshot.building.len(), snapshot.generation > 0 && snapshot.demo.is_empty()) {
                        (0, true) => "not ready: no brand is published (/status says why; --allow-empty serves an empty site)".to_string(),
                        (0, false) => "not ready: the first snapshot is being built or compressed".to_string(),
                        (n, _) => format!("not ready: {n} brand(s) are still being checked and rendered for the first time"),
                    },
                )
                .header(header::RETRY_AFTER, "1"),
            ),
            _ => match seen.view(path) {
                Some(view) if !seen.hides(path) => {
                    private = seen.private_at(path);
                    lookup(app, view, path, method, headers)
                }
                _ => problem(not_found(path)),
            },
        },
        Method::OPTIONS => preflight(),
        _ if route == Route::Probe
            || (!seen.hides(path)
                && seen
                    .view(path)
                    .is_some_and(|v| v.get().is_some() || v.status().is_some())) =>
        {
            problem(
                Problem::new(
                    StatusCode::METHOD_NOT_ALLOWED,
                    format!("{path} is read-only: use GET or HEAD"),
                )
                .header(header::ALLOW, ALLOWED),
            )
        }
        _ => problem(not_found(path)),
    };
    seen.apply(res.headers_mut(), path, private);
    Some(res)
}

/// A GET or HEAD of a path where `view` reads it: its resource, /status,
/// or what a missing path gets.
fn lookup(
    app: &AppState,
    view: View<'_, '_>,
    path: &str,
    method: &Method,
    headers: &HeaderMap,
) -> Response<ResBody> {
    match view.get() {
        Some(r) if view.in_preview() => as_preview(respond(r, method, headers)),
        Some(r) => respond(r, method, headers),
        None => match view.status() {
            Some(status) => respond(&status_resource(status, app), method, headers),
            None => missing(view, path, method, headers),
        },
    }
}

/// /status: the snapshot's document, plus what changes between snapshots:
/// which limiter decides the demo (Redis can come and go). An operator's
/// endpoint (`no-store`), so it is the one GET serialized per request.
fn status_resource(status: &Status, app: &AppState) -> Resource {
    let demo = &app.demo;
    let (shared, local) = demo.decided.counts();
    let live = ServedStatus {
        built: status,
        pending: app.progress.stuck_for().map(|_| stuck(&app.progress)),
        demo_limiter: LimiterStatus {
            mode: demo.limiter_mode(),
            redis: demo.shared.is_some(),
            decided_by_redis: shared,
            decided_locally: local,
        },
        outbound: app.outbox.as_ref().map(|o| o.status()),
    };
    let mut body = serde_json::to_vec_pretty(&live).expect("/status serializes");
    body.push(b'\n');
    Resource::with_effort(
        "application/json",
        body,
        crate::snapshot::CachePolicy::NoStore,
        crate::snapshot::Effort::None,
    )
}

/// What /status and /readyz say while changes wait and no build finishes.
fn stuck(progress: &crate::live::Progress) -> String {
    let waited = progress.stuck_for().unwrap_or_default().as_secs();
    format!("changes pending, no build finished for {waited} s")
}

/// Whatever a preview answers is its own, never cached or indexed: a
/// release it links to is the published one's resource, with the
/// preview's policy.
fn as_preview(mut res: Response<ResBody>) -> Response<ResBody> {
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    for (name, value) in crate::snapshot::CachePolicy::Preview.headers() {
        h.insert(name, value);
    }
    res
}

fn plain(status: StatusCode, text: &'static str) -> Response<ResBody> {
    let mut res = Response::new(ResBody::full(text.into()));
    *res.status_mut() = status;
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    common_headers(h);
    res
}

fn problem(p: Problem) -> Response<ResBody> {
    let (parts, body) = p.into_parts();
    Response::from_parts(parts, ResBody::full(body))
}

fn preflight() -> Response<ResBody> {
    let mut res = Response::new(ResBody::empty());
    *res.status_mut() = StatusCode::NO_CONTENT;
    let h = res.headers_mut();
    common_headers(h);
    h.insert(header::ALLOW, HeaderValue::from_static(ALLOWED));
    h.insert(
        header::ACCESS_CONTROL_ALLOW_METHODS,
        HeaderValue::from_static("GET, HEAD, POST, OPTIONS"),
    );
    h.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static("content-type, if-none-match, accept"),
    );
    h.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("86400"),
    );
    res
}

/// The quality a client gives a coding, known by any of `names`, in
/// `Accept-Encoding` (RFC 9110 §12.5.3): an entry that names it wins over
/// `*`, and `q=0` means "not acceptable". The second value is true when
/// the client named the coding, false when only `*` accepts it.
fn quality(headers: &HeaderMap, names: &[&str]) -> (f32, bool) {
    let mut star = None;
    let mut named: Option<f32> = None;
    let items = headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','));
    for item in items {
        let mut parts = item.split(';');
        let name = parts.next().unwrap_or("").trim();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q="))
            .find_map(|v| v.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if names.iter().any(|n| name.eq_ignore_ascii_case(n)) {
            named = Some(named.map_or(q, |m| m.max(q)));
        } else if name == "*" {
            star = Some(q);
        }
    }
    match named {
        Some(q) => (q, true),
        None => (star.unwrap_or(0.0), false),
    }
}

/// Which coding to send: brotli when the client names it, then gzip, then
/// identity, as the client accepts. `*` alone never gets brotli while gzip
/// is acceptable: a client that says "anything" may not know brotli
/// (Python's requests, for one, cannot decode it), and every HTTP client
/// decodes gzip.
fn choose<'r>(r: &'r Resource, headers: &HeaderMap) -> Option<(&'r Encoded, &'static str)> {
    let (br, br_named) = quality(headers, &["br"]);
    let (gzip, _) = quality(headers, &["gzip", "x-gzip"]);
    match (&r.br, &r.gzip) {
        (Some(b), _) if br > 0.0 && br_named => Some((b, "br")),
        (_, Some(gz)) if gzip > 0.0 => Some((gz, "gzip")),
        (Some(b), _) if br > 0.0 => Some((b, "br")),
        _ => None,
    }
}

/// True when `If-None-Match` lists `etag` (weak comparison, RFC 9110 §13.1.2) or `*`.
fn none_match(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let ours = etag.as_bytes();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.strip_prefix("W/").unwrap_or(tag).as_bytes() == ours)
}

/// Answers a request for a snapshot resource: 200 (or its HEAD) or 304.
pub fn respond(r: &Resource, method: &Method, headers: &HeaderMap) -> Response<ResBody> {
    let coded = choose(r, headers);
    let (etag, length) = match coded {
        Some((e, _)) => (&e.etag, &e.length),
        None => (&r.identity.etag, &r.identity.length),
    };
    let not_modified = none_match(headers, etag);
    let body = if not_modified || method == Method::HEAD {
        ResBody::empty()
    } else {
        match coded {
            Some((e, _)) => ResBody::full(e.body.clone()),
            // Held, or inflated from the gzip coding for a client that
            // takes no coding (kept a while: see `Bodies::inflated`).
            None => ResBody::full(r.body()),
        }
    };
    let mut res = Response::new(body);
    let h = res.headers_mut();
    h.reserve(12);
    h.insert(header::ETAG, etag.clone());
    h.insert(header::CACHE_CONTROL, r.cache_control.clone());
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    h.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("ETag"),
    );
    common_headers(h);
    for (name, value) in &r.headers {
        h.insert(name.clone(), value.clone());
    }
    if not_modified {
        *res.status_mut() = StatusCode::NOT_MODIFIED;
        return res;
    }
    h.insert(header::CONTENT_TYPE, r.content_type.clone());
    h.insert(header::CONTENT_LENGTH, length.clone());
    if let Some((_, c)) = coded {
        h.insert(header::CONTENT_ENCODING, HeaderValue::from_static(c));
    }
    res
}

/// What a GET for `path`, missing where `view` reads it, gets: a
/// redirect when only a trailing slash is wrong, a browser the page of a
/// brand that is not published (with its errors, status 404), anyone else
/// a problem.
fn missing(
    view: View<'_, '_>,
    path: &str,
    method: &Method,
    headers: &HeaderMap,
) -> Response<ResBody> {
    let trimmed = path.trim_end_matches('/');
    let inner = View {
        path: view.path.trim_end_matches('/'),
        ..view
    };
    if trimmed.len() < path.len()
        && !trimmed.is_empty()
        && !inner.path.is_empty()
        && (inner.get().is_some() || inner.unpublished_page().is_some())
    {
        let mut res = Response::new(ResBody::empty());
        *res.status_mut() = StatusCode::PERMANENT_REDIRECT;
        let h = res.headers_mut();
        if let Ok(v) = HeaderValue::from_str(trimmed) {
            h.insert(header::LOCATION, v);
        }
        h.insert(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=3600"),
        );
        common_headers(h);
        return res;
    }
    if view.is_building() {
        return problem(
            Problem::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "this brand is being checked and rendered for the first time: it is served in a moment",
            )
            .header(header::RETRY_AFTER, "2"),
        );
    }
    if let Some(page) = view.unpublished_page() {
        if accepts_html(headers) {
            let mut res = respond(page, method, headers);
            *res.status_mut() = StatusCode::NOT_FOUND;
            res.headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            return res;
        }
    }
    problem(not_found(path))
}

/// True when the client lists `text/html` as acceptable (a browser).
fn accepts_html(headers: &HeaderMap) -> bool {
    super::client::accepts(headers, "text/html")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn accept(v: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::ACCEPT_ENCODING, v.parse().unwrap());
        h
    }

    #[test]
    fn q0_refuses_a_coding_even_when_star_allows_others() {
        let h = accept("br;q=0, gzip;q=0, *;q=1");
        assert_eq!(quality(&h, &["gzip", "x-gzip"]), (0.0, true));
        assert_eq!(quality(&h, &["br"]), (0.0, true));
        assert_eq!(quality(&h, &["zstd"]), (1.0, false));
        assert_eq!(
            quality(&accept("gzip, deflate"), &["gzip", "x-gzip"]),
            (1.0, true)
        );
        assert_eq!(quality(&accept("x-gzip"), &["gzip", "x-gzip"]), (1.0, true));
        assert_eq!(quality(&accept("*"), &["br"]), (1.0, false));
        assert_eq!(quality(&accept("identity"), &["gzip"]), (0.0, false));
    }

    #[test]
    fn a_star_gets_gzip_and_only_a_client_that_names_brotli_gets_it() {
        let r = Resource::with_effort(
            "text/plain",
            "hello ".repeat(500),
            crate::snapshot::CachePolicy::NoStore,
            crate::snapshot::Effort::Best,
        );
        assert!(r.br.is_some() && r.gzip.is_some());
        let coding = |v: &str| choose(&r, &accept(v)).map(|(_, c)| c);
        assert_eq!(coding("*"), Some("gzip"));
        assert_eq!(coding("gzip, *"), Some("gzip"));
        assert_eq!(coding("br"), Some("br"));
        assert_eq!(coding("gzip, br"), Some("br"));
        assert_eq!(coding("*, gzip;q=0"), Some("br"), "brotli is what is left");
        assert_eq!(coding("identity"), None);
    }

    #[test]
    fn a_client_that_takes_no_coding_gets_the_body_inflated_with_its_own_etag() {
        let text = "{\"tokens\": [1, 2, 3]}\n".repeat(400);
        let r = Resource::with_effort(
            "application/json",
            text.clone(),
            crate::snapshot::CachePolicy::NoStore,
            crate::snapshot::Effort::Best,
        );
        assert!(r.identity.held_body().is_none(), "held only as gzip");
        let res = respond(&r, &Method::GET, &HeaderMap::new());
        let h = res.headers();
        assert_eq!(h[header::ETAG], r.identity.etag);
        assert_eq!(h[header::CONTENT_LENGTH], text.len().to_string().as_str());
        assert!(h.get(header::CONTENT_ENCODING).is_none());
        assert_eq!(r.body(), text.as_bytes());
        let mut again = HeaderMap::new();
        again.insert(header::IF_NONE_MATCH, r.identity.etag.clone());
        let res = respond(&r, &Method::GET, &again);
        assert_eq!(res.status(), StatusCode::NOT_MODIFIED);
    }
}
