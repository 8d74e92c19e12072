//! Who a request is, and what it sees (DESIGN.md §20). Without a
//! credential a request sees the snapshot public readers see, with no work
//! beyond looking for two headers; with a valid token, its scope's
//! snapshot; a bearer token that is valid nowhere is a failed attempt,
//! answered as no token until the client's failures reach ten a minute,
//! then 429.
//!
//! The sign-in form (`/signin`) gives a browser a signed session cookie
//! for a token; `/signout` ends it.

use super::problem::Problem;
use super::AppState;
use crate::access::{Holder, Scope, COOKIE};
use crate::snapshot::{Site, Snapshot, View};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

/// How long a browser's session lasts.
pub const SESSION_SECONDS: u64 = crate::access::LIFETIME;

/// The cookie that names who is signed in, for the pages' footer (not a credential).
pub const WHO: &str = "marque_who";

/// `Cache-Control` of everything only a token holder sees.
const PRIVATE: HeaderValue = HeaderValue::from_static("private, no-store");

/// `Vary` of every answer under `/brand/`, public or not: a shared cache
/// keeps a token holder's answer apart from everyone else's.
const VARY: HeaderValue = HeaderValue::from_static("Accept-Encoding, Authorization, Cookie");

/// The token of an `Authorization: Bearer` header.
fn bearer(headers: &HeaderMap) -> Option<&str> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = value.split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| token.trim())
        .filter(|t| !t.is_empty())
}

/// The session cookie's value, if the request sends one.
fn session(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| {
            let (name, value) = c.trim().split_once('=')?;
            (name == COOKIE).then_some(value)
        })
}

/// A client's address as the failures are counted by.
/// An IPv6 client is its /64, as the demo's limit keys it: one host holds
/// a whole /64, so counting single addresses would not limit it.
fn client_key(ip: IpAddr) -> crate::access::failures::Client {
    match super::client::key_of(ip) {
        IpAddr::V4(a) => u128::from(a.to_ipv6_mapped()),
        IpAddr::V6(a) => u128::from(a),
    }
}

/// Seconds since the Unix epoch.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Who sends `headers`: anonymous (no credential, or no tokens on this
/// server), a token's holder, or, for a client over its failures, 429.
fn holder(app: &AppState, headers: &HeaderMap, peer: IpAddr) -> Result<Holder, TooMany> {
    let Some(access) = &app.access else {
        return Ok(Holder::Anonymous);
    };
    let (bearer, session) = (bearer(headers), session(headers));
    if bearer.is_none() && session.is_none() {
        return Ok(Holder::Anonymous);
    }
    let holder = access.holder(bearer, session, unix_now());
    if bearer.is_none() {
        return Ok(holder);
    }
    // Judged and counted under one lock, so a burst cannot pass the limit.
    let client = app.clients.address(peer, headers);
    let failed = holder == Holder::Failed;
    if let Some(wait) = access
        .failures
        .judge(client_key(client), Instant::now(), failed)
    {
        return Err(TooMany(wait));
    }
    match holder {
        Holder::Failed => {
            tracing::info!(%client, "an access token that is valid nowhere was sent");
            Ok(Holder::Anonymous)
        }
        h => Ok(h),
    }
}

/// A client over its failed attempts, and how long it must wait.
#[derive(Debug, Clone, Copy)]
pub struct TooMany(pub std::time::Duration);

impl TooMany {
    /// The 429 it gets.
    pub fn problem(self) -> Problem {
        let secs = self.0.as_secs().max(1);
        Problem::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many access tokens that are not valid from this client; try again in {secs} s"
            ),
        )
        .header(header::RETRY_AFTER, &secs.to_string())
    }
}

/// True for a path whose answer depends on who asks: a brand's (its
/// page, surfaces and card), in the published branch or a preview; and,
/// on a server with access tokens, the documents that list brands.
fn varies(path: &str, tokens: bool) -> bool {
    let inner = crate::paths::split_preview(path).map_or(path, |(_, p)| p);
    let lists = tokens
        && matches!(
            path,
            crate::paths::INDEX
                | crate::paths::BRANDS_JSON
                | crate::paths::LLMS_TXT
                | crate::paths::STATUS
                | crate::paths::OPENAPI
                | crate::paths::PREVIEWS_JSON
        );
    lists || inner.starts_with("/brand/") || inner.starts_with("/embed/")
}

/// What one request sees (DESIGN.md §20): who it is, whether it may read
/// branch previews, and so which view of the [`Site`] each path reads
/// ([`Site::view`], by this request's scope), and what that makes of each
/// answer's headers. Made by [`seen`], the one place that decides it; the
/// fast path, the compare endpoint, the demo and MCP all answer from it,
/// and none derives a view, `private` or `Vary` itself.
pub struct Seen<'s> {
    site: &'s Site,
    /// What public readers see of the published branch.
    pub public: &'s Arc<Snapshot>,
    /// What this request sees of the published branch.
    pub snapshot: &'s Arc<Snapshot>,
    pub holder: Holder,
    /// It may read branch previews (anyone, unless `--preview-access token`).
    pub previews: bool,
    /// Previews answer token holders only: what a holder reads of one is
    /// the holder's alone.
    previews_private: bool,
    /// The server has access tokens: the lists of brands vary by reader.
    tokens: bool,
}

/// What the request with `headers` from `peer` sees of `site` (the site
/// being served); or, for a client over its failed tokens, 429.
pub fn seen<'s>(
    app: &AppState,
    site: &'s Site,
    headers: &HeaderMap,
    peer: IpAddr,
) -> Result<Seen<'s>, TooMany> {
    Ok(as_holder(app, site, holder(app, headers, peer)?))
}

/// What a request that sends no credential sees (a method that reads
/// nothing, say).
pub fn anonymous<'s>(app: &AppState, site: &'s Site) -> Seen<'s> {
    as_holder(app, site, Holder::Anonymous)
}

/// What `holder` (found by [`seen`] before) sees of `site`: for a
/// reader that stays, such as an MCP session told of each new site.
pub fn as_holder<'s>(app: &AppState, site: &'s Site, holder: Holder) -> Seen<'s> {
    let scope = match &holder {
        Holder::Token { scope, .. } => Some(scope),
        _ => None,
    };
    let previews_private = app.access.as_ref().is_some_and(|a| a.previews);
    Seen {
        site,
        public: site.public(),
        snapshot: site.published.of(scope),
        previews: scope.is_some() || !previews_private,
        previews_private,
        tokens: app.access.is_some(),
        holder,
    }
}

impl<'s> Seen<'s> {
    /// The scope of its token, if it holds one.
    fn scope(&self) -> Option<&Scope> {
        match &self.holder {
            Holder::Token { scope, .. } => Some(scope),
            _ => None,
        }
    }

    /// Where it reads `path`: in the published branch or a preview, as
    /// its scope sees them; `None` for a preview it may not read or that
    /// does not exist.
    pub fn view<'p>(&self, path: &'p str) -> Option<View<'s, 'p>> {
        self.site.view(self.scope(), path, self.previews)
    }

    /// The preview `name`, as this request sees it, if it may read it.
    pub fn preview(&self, name: &str) -> Option<&'s Arc<Snapshot>> {
        self.site.preview(self.scope(), name, self.previews)
    }

    /// True when `path` is one this request may not know of: a preview's,
    /// or the list of previews, to a reader previews are closed to.
    pub fn hides(&self, path: &str) -> bool {
        !self.previews
            && (crate::paths::split_preview(path).is_some() || path == crate::paths::PREVIEWS_JSON)
    }

    /// True when what it gets at `path` is not what public readers get: a
    /// withheld brand's, a list that names one, or a preview behind the
    /// tokens. Such an answer is the holder's alone.
    pub fn private_at(&self, path: &str) -> bool {
        let Some(scope) = self.scope() else {
            return false;
        };
        if self.previews_private
            && (crate::paths::split_preview(path).is_some() || path == crate::paths::PREVIEWS_JSON)
        {
            return true;
        }
        let (Some(public), Some(own)) = (
            self.site.view(None, path, true),
            self.site.view(Some(scope), path, true),
        ) else {
            return false;
        };
        match (public.get(), own.get()) {
            (Some(a), Some(b)) => !Arc::ptr_eq(a, b),
            _ => !Arc::ptr_eq(public.snapshot, own.snapshot),
        }
    }

    /// True when its answers about the brand `slug` (a comparison, a
    /// demo) in the published branch, or in the preview `preview`, hold
    /// more than public readers get: a model of it, current or released,
    /// that they do not have, or any preview behind the tokens.
    pub fn private_for(&self, slug: &str, preview: Option<&str>) -> bool {
        let Some(scope) = self.scope() else {
            return false;
        };
        if preview.is_some() && self.previews_private {
            return true;
        }
        let of = |s: &Snapshot| {
            s.models
                .iter()
                .filter(|(k, _)| {
                    *k == slug || k.strip_prefix(slug).is_some_and(|r| r.starts_with('@'))
                })
                .map(|(k, m)| (k.clone(), Arc::as_ptr(m)))
                .collect::<std::collections::BTreeMap<_, _>>()
        };
        let differs = |public: &Arc<Snapshot>, own: &Arc<Snapshot>| {
            !Arc::ptr_eq(public, own) && of(public) != of(own)
        };
        let preview_differs = preview.is_some_and(|name| {
            match (
                self.site.preview(None, name, true),
                self.site.preview(Some(scope), name, true),
            ) {
                (Some(public), Some(own)) => differs(public, own),
                _ => false,
            }
        });
        differs(self.public, self.snapshot) || preview_differs
    }

    /// The headers an answer at `path` takes from who asked: `Vary` on the
    /// credentials where answers differ by reader, and, when this one is
    /// the holder's alone (`private`), `Cache-Control: private, no-store`
    /// and `Vary` on the credentials whatever the path.
    pub fn apply(&self, h: &mut HeaderMap, path: &str, private: bool) {
        if private {
            h.insert(header::CACHE_CONTROL, PRIVATE);
        }
        if private || varies(path, self.tokens) {
            vary_on_credentials(h);
        }
    }
}

/// Adds the credentials to the `Vary` of `h`, keeping what it varies on.
fn vary_on_credentials(h: &mut HeaderMap) {
    let value = match h.get(header::VARY).and_then(|v| v.to_str().ok()) {
        Some("Accept-Encoding") | None => VARY,
        Some(v) if v.contains("Authorization") => return,
        Some(v) => HeaderValue::from_str(&format!("{v}, Authorization, Cookie")).unwrap_or(VARY),
    };
    h.insert(header::VARY, value);
}

/// True when the request may read an operator's endpoint (/status,
/// /metrics): no `--ops-token` is set, or it sends that token as its
/// bearer. Compared in constant time, by digest.
pub fn ops_allowed(app: &AppState, headers: &HeaderMap) -> bool {
    use sha2::{Digest, Sha256};
    let Some(want) = &app.ops_token else {
        return true;
    };
    let Some(sent) = bearer(headers) else {
        return false;
    };
    let (a, b) = (
        Sha256::digest(want.as_bytes()),
        Sha256::digest(sent.as_bytes()),
    );
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

/// The 401 of an operator's endpoint asked without the ops token.
pub fn ops_refused() -> Problem {
    Problem::new(
        StatusCode::UNAUTHORIZED,
        "this endpoint is the operator's: send `Authorization: Bearer <ops token>` (--ops-token)",
    )
    .header(header::WWW_AUTHENTICATE, "Bearer realm=\"marque-ops\"")
}

/// Where a sign-in goes on to: a path of this server (`/…`, never
/// `//host` or a scheme), else the index.
fn next_path(next: Option<&str>) -> String {
    match next {
        Some(p)
            if p.starts_with('/') && !p.starts_with("//") && !p.contains(['\\', '\r', '\n']) =>
        {
            p.to_string()
        }
        _ => crate::paths::INDEX.to_string(),
    }
}

/// Percent-decodes a value of an `application/x-www-form-urlencoded` body
/// or a query (`+` is a space).
fn form_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match u8::from_str_radix(
                    std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz"),
                    16,
                ) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The value of `name` in a form body or query.
fn form_field(form: &str, name: &str) -> Option<String> {
    form.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (form_decode(k) == name).then(|| form_decode(v))
    })
}

/// A page of the sign-in form, with `status`.
fn form_page(
    app: &AppState,
    status: StatusCode,
    notice: crate::render::html::signin::Notice<'_>,
    next: &str,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let ctx = crate::render::Context::new(&app.public_url);
    let page = crate::render::html::signin::render(&ctx, notice, next);
    let mut res = (status, page.body).into_response();
    let h = res.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, PRIVATE);
    h.insert(
        header::VARY,
        HeaderValue::from_static("Authorization, Cookie"),
    );
    if let Ok(csp) = HeaderValue::from_str(&page.csp) {
        h.insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    h.insert(
        header::HeaderName::from_static("x-robots-tag"),
        HeaderValue::from_static("noindex"),
    );
    super::headers::common_headers(h);
    res
}

/// `GET /signin`: the form (404 on a server without access tokens).
pub async fn sign_in_form(
    axum::extract::State(app): axum::extract::State<AppState>,
    uri: axum::http::Uri,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    if app.access.is_none() {
        return super::problem::not_found(crate::paths::SIGN_IN).into_response();
    }
    let next = next_path(uri.query().and_then(|q| form_field(q, "next")).as_deref());
    form_page(
        &app,
        StatusCode::OK,
        crate::render::html::signin::Notice::None,
        &next,
    )
}

/// The longest sign-in body read.
const MAX_FORM: usize = 4096;

/// `POST /signin`: a valid token gets a session cookie and goes on (303);
/// a wrong one the form again (401), counted as a failed attempt; a client
/// over its failures, 429.
pub async fn sign_in(
    axum::extract::State(app): axum::extract::State<AppState>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
    body: axum::body::Body,
) -> axum::response::Response {
    use crate::render::html::signin::Notice;
    use axum::response::IntoResponse;
    let Some(access) = &app.access else {
        return super::problem::not_found(crate::paths::SIGN_IN).into_response();
    };
    let Ok(bytes) = axum::body::to_bytes(body, MAX_FORM).await else {
        return Problem::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("a sign-in form is at most {MAX_FORM} bytes"),
        )
        .into_response();
    };
    let form = String::from_utf8_lossy(&bytes);
    let next = next_path(form_field(&form, "next").as_deref());
    let token = form_field(&form, "token").unwrap_or_default();
    let client = app.clients.address(peer.ip(), &headers);
    let tokens = access.tokens();
    let cookie = access.sign_in(token.trim(), unix_now());
    let judged = access
        .failures
        .judge(client_key(client), Instant::now(), cookie.is_none());
    if let Some(wait) = judged {
        let secs = wait.as_secs().max(1);
        let mut res = form_page(
            &app,
            StatusCode::TOO_MANY_REQUESTS,
            Notice::Wait(secs),
            &next,
        );
        if let Ok(v) = HeaderValue::from_str(&secs.to_string()) {
            res.headers_mut().insert(header::RETRY_AFTER, v);
        }
        return res;
    }
    let Some(cookie) = cookie else {
        tracing::info!(%client, "a sign-in with a token that is valid nowhere");
        return form_page(&app, StatusCode::UNAUTHORIZED, Notice::Wrong, &next);
    };
    let secure = access.secure
        || headers
            .get("x-forwarded-proto")
            .is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https"));
    let secure = if secure { "; Secure" } else { "" };
    let set = format!(
        "{COOKIE}={cookie}; Path=/; Max-Age={SESSION_SECONDS}; HttpOnly; SameSite=Lax{secure}"
    );
    let name = tokens
        .find(token.trim())
        .map(|t| t.name.clone())
        .unwrap_or_default();
    // Who is signed in, for the pages' footer to say: the token's name,
    // readable by the page's script, never a credential.
    let who = format!("{WHO}={name}; Path=/; Max-Age={SESSION_SECONDS}; SameSite=Lax{secure}");
    tracing::info!(token = %name, "signed in");
    let mut res = StatusCode::SEE_OTHER.into_response();
    let h = res.headers_mut();
    if let (Ok(location), Ok(set), Ok(who)) = (
        HeaderValue::from_str(&next),
        HeaderValue::from_str(&set),
        HeaderValue::from_str(&who),
    ) {
        h.insert(header::LOCATION, location);
        h.insert(header::SET_COOKIE, set);
        h.append(header::SET_COOKIE, who);
    }
    h.insert(header::CACHE_CONTROL, PRIVATE);
    super::headers::common_headers(h);
    res
}

/// `POST /signout`: the session cookie is cleared, and the browser goes
/// to the index (303).
pub async fn sign_out(
    axum::extract::State(app): axum::extract::State<AppState>,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    if app.access.is_none() {
        return super::problem::not_found(crate::paths::SIGN_OUT).into_response();
    }
    let mut res = StatusCode::SEE_OTHER.into_response();
    let h = res.headers_mut();
    h.insert(header::LOCATION, HeaderValue::from_static("/"));
    h.insert(
        header::SET_COOKIE,
        HeaderValue::from_static("marque_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"),
    );
    h.append(
        header::SET_COOKIE,
        HeaderValue::from_static("marque_who=; Path=/; Max-Age=0; SameSite=Lax"),
    );
    h.insert(header::CACHE_CONTROL, PRIVATE);
    super::headers::common_headers(h);
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sign_in_goes_on_only_to_a_path_of_this_server() {
        assert_eq!(next_path(Some("/brand/acme")), "/brand/acme");
        for away in [
            "//evil.example",
            "https://evil.example",
            "/\\evil",
            "/x\r\nSet-Cookie: a",
            "",
        ] {
            assert_eq!(next_path(Some(away)), "/", "{away:?}");
        }
        assert_eq!(next_path(None), "/");
    }

    #[test]
    fn an_ipv6_client_is_its_64_as_the_demo_counts_it() {
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let c: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_key(a), client_key(b));
        assert_ne!(client_key(a), client_key(c));
        let v4: IpAddr = "10.0.0.1".parse().unwrap();
        assert_ne!(client_key(v4), client_key("10.0.0.2".parse().unwrap()));
    }

    #[test]
    fn form_values_are_decoded() {
        let form = "token=mq_ab%2Bc+d&next=%2Fbrand%2Facme&x=%zz";
        assert_eq!(form_field(form, "token").as_deref(), Some("mq_ab+c d"));
        assert_eq!(form_field(form, "next").as_deref(), Some("/brand/acme"));
        assert_eq!(form_field(form, "x").as_deref(), Some("%zz"));
        assert_eq!(form_field(form, "none"), None);
        assert_eq!(form_decode("%4"), "%4");
    }

    #[test]
    fn a_bearer_token_and_a_session_are_found_among_other_headers() {
        let mut h = HeaderMap::new();
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("bearer  mq_x "),
        );
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; marque_session=s.1.f; b=2"),
        );
        assert_eq!(bearer(&h), Some("mq_x"));
        assert_eq!(session(&h), Some("s.1.f"));
        h.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Basic eDp5"),
        );
        assert_eq!(bearer(&h), None);
    }
}
