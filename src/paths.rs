//! Every path and what answers it, in one place. PURE: a path is parsed
//! into a [`Route`] (what answers it, which methods it takes; the demo's
//! statuses are [`Refusal`]), and every path marque prints
//! is made here, so the router, the request fast path, the builder, the
//! renderers' links and MCP's resources cannot disagree about where a
//! document lives.
//!
//! A brand's documents live under `/brand/<key>/`, where the key is its
//! slug (`acme`) or a released version of it (`acme@1.2.0`); a branch
//! preview repeats the whole layout under `/preview/<name>/`.

/// The liveness probe.
pub const HEALTHZ: &str = "/healthz";
/// The readiness probe.
pub const READYZ: &str = "/readyz";
/// What is served and why: every brand, its state and its diagnostics.
pub const STATUS: &str = "/status";
/// Prometheus metrics.
pub const METRICS: &str = "/metrics";
/// Server-sent events: one per published snapshot.
pub const EVENTS: &str = "/events";
/// The MCP endpoint (Streamable HTTP).
pub const MCP: &str = "/mcp";
/// Git mode's push webhook.
pub const HOOK_GIT: &str = "/hooks/git";
/// The sign-in form: a browser's session for an access token.
pub const SIGN_IN: &str = "/signin";
/// Ends a browser's session.
pub const SIGN_OUT: &str = "/signout";

/// The index of every brand, for people.
pub const INDEX: &str = "/";
/// Every published brand, for programs.
pub const BRANDS_JSON: &str = "/brands.json";
/// Every published brand, for language models (llmstxt.org).
pub const LLMS_TXT: &str = "/llms.txt";
/// The OpenAPI description of every path.
pub const OPENAPI: &str = "/openapi.json";
/// Every diagnostic code, what it means and how to fix it: where SARIF's
/// `helpUri` points (`/codes#mq1501`).
pub const CODES: &str = "/codes";
/// Branch previews (git mode).
pub const PREVIEWS_JSON: &str = "/previews.json";
/// What every page shares (its stylesheet and scripts), each named by a
/// hash of its bytes: `/assets/page.<hash>.css`. Beside `/brand/`, so no
/// slug can take its name; a brand's own files are `/brand/<key>/assets/`.
pub const PAGE_ASSETS: &str = "/assets/";

/// A brand's releases, from git tags: files beside its surfaces.
pub const CHANGELOG_MD: &str = "changelog.md";
pub const CHANGELOG_JSON: &str = "changelog.json";

/// The router's pattern of a brand's comparison.
pub const COMPARE_PATTERN: &str = "/brand/{slug}/compare/{range}";
/// The router's pattern of a brand's demo.
pub const DEMO_PATTERN: &str = "/api/brand-spec/{slug}/demo";
/// The router's pattern of a preview's demo.
pub const PREVIEW_DEMO_PATTERN: &str = "/preview/{name}/api/brand-spec/{slug}/demo";
/// The router's pattern of a comparison inside a preview.
pub const PREVIEW_COMPARE_PATTERN: &str = "/preview/{name}/brand/{slug}/compare/{range}";

/// What answers a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route<'a> {
    /// `/healthz` and `/readyz`: answered beside the snapshot, never stored.
    Probe,
    /// Anything the snapshot may hold: documents, brands, assets, pages.
    Snapshot,
    Metrics,
    Events,
    Mcp,
    /// `/signin` (the form, and where it posts) and `/signout`.
    SignIn,
    SignOut,
    /// `/hooks/…`.
    Hook,
    /// `/brand/<key>/compare/<range>`, answered by the comparison handler
    /// (and the same inside a preview, `/preview/<name>/brand/…`).
    Compare {
        preview: Option<&'a str>,
        key: &'a str,
        range: &'a str,
    },
    /// `/api/…` (the demo is `/api/brand-spec/<slug>/demo`).
    Api,
    /// `/preview/<name>/api/…`.
    PreviewApi {
        name: &'a str,
    },
}

impl<'a> Route<'a> {
    /// What answers `path`. Every path has an answer: what is not a
    /// handler's is looked up in the snapshot (and may be missing there).
    pub fn parse(path: &'a str) -> Route<'a> {
        match path {
            HEALTHZ | READYZ => return Route::Probe,
            METRICS => return Route::Metrics,
            EVENTS => return Route::Events,
            MCP => return Route::Mcp,
            SIGN_IN => return Route::SignIn,
            SIGN_OUT => return Route::SignOut,
            _ => {}
        }
        if path.starts_with("/hooks/") {
            return Route::Hook;
        }
        if path.starts_with("/api/") {
            return Route::Api;
        }
        let (preview, inner) = match split_preview(path) {
            Some((name, inner)) if inner.starts_with("/api/") => {
                return Route::PreviewApi { name };
            }
            Some((name, inner)) => (Some(name), inner),
            None => (None, path),
        };
        if let Some((key, rest)) = inner
            .strip_prefix("/brand/")
            .and_then(|rest| rest.split_once('/'))
        {
            if let Some(range) = rest.strip_prefix("compare/") {
                return Route::Compare {
                    preview,
                    key,
                    range,
                };
            }
        }
        Route::Snapshot
    }

    /// True when the request fast path answers it: from the snapshot, or
    /// (a probe) beside it.
    pub fn is_snapshot(&self) -> bool {
        matches!(self, Route::Snapshot | Route::Probe)
    }

    /// The methods it takes, as an `Allow` header says them.
    pub fn methods(&self) -> &'static str {
        match self {
            Route::Hook => "POST",
            Route::Api | Route::PreviewApi { .. } => "POST",
            Route::Mcp => "GET, POST, DELETE",
            Route::SignIn => "GET, HEAD, POST",
            Route::SignOut => "POST",
            Route::Snapshot | Route::Probe => "GET, HEAD, OPTIONS",
            Route::Metrics | Route::Events | Route::Compare { .. } => "GET, HEAD",
        }
    }
}

/// The preview a `/preview/<name>/…` path belongs to, and the path inside
/// it (starting with `/`).
pub fn split_preview(path: &str) -> Option<(&str, &str)> {
    let rest = path.strip_prefix("/preview/")?;
    let slash = rest.find('/')?;
    Some((&rest[..slash], &rest[slash..]))
}

/// The brand key a path belongs to: `acme` of `/brand/acme/spec.json`,
/// `acme@1.2.0` of `/embed/brand/acme@1.2.0`.
pub fn brand_key_of(path: &str) -> Option<&str> {
    let rest = path
        .strip_prefix("/brand/")
        .or_else(|| path.strip_prefix("/embed/brand/"))?;
    Some(rest.split('/').next().unwrap_or(rest))
}

/// A brand's key: `acme`, or `acme@1.2.0` for a released version.
pub fn brand_key(slug: &str, version: Option<&str>) -> String {
    match version {
        Some(v) => format!("{slug}@{v}"),
        None => slug.to_string(),
    }
}

/// A brand's page: `/brand/acme`.
pub fn brand(key: &str) -> String {
    format!("/brand/{key}")
}

/// A document of a brand: `/brand/acme/spec.json`, `/brand/acme/assets/logo.svg`.
pub fn brand_doc(key: &str, file: &str) -> String {
    format!("/brand/{key}/{file}")
}

/// The key and file of a brand's document: `/brand/acme/spec.json` →
/// `("acme", "spec.json")`; `None` for any other path (an asset of the
/// same name, `/brand/acme/assets/spec.json`, included).
pub fn brand_doc_of(path: &str) -> Option<(&str, &str)> {
    let (key, file) = path.strip_prefix("/brand/")?.split_once('/')?;
    (!key.is_empty() && !file.is_empty() && !file.contains('/')).then_some((key, file))
}

/// The prefix of a brand's assets: `/brand/acme/assets/`.
pub fn assets(key: &str) -> String {
    format!("/brand/{key}/assets/")
}

/// A document every page shares: `/assets/page.0123456789abcdef.css`.
pub fn page_asset(file: &str) -> String {
    format!("{PAGE_ASSETS}{file}")
}

/// A brand's embed script: `/embed/brand/acme`.
pub fn embed(key: &str) -> String {
    format!("/embed/brand/{key}")
}

/// A brand's demo endpoint: `/api/brand-spec/acme/demo`.
pub fn demo(slug: &str) -> String {
    format!("/api/brand-spec/{slug}/demo")
}

/// A comparison of two versions of a brand, `ext` with its dot or empty:
/// `/brand/acme/compare/1.0.0...current.md`.
pub fn compare(slug: &str, from: &str, to: &str, ext: &str) -> String {
    format!("/brand/{slug}/compare/{from}...{to}{ext}")
}

/// The root of a branch preview: `/preview/feature-x` (its paths follow).
pub fn preview(name: &str) -> String {
    format!("/preview/{name}")
}

/// Largest body of a demo call, in bytes.
pub const DEMO_MAX_BODY: usize = 16 * 1024;

/// Every answer of the demo endpoint (`POST …/demo`) but 200: the one
/// table of its statuses. The handler answers with these, `DemoError`
/// maps to them, and `/openapi.json` lists them with [`Refusal::describe`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// 400: the body is not JSON (or could not be read).
    Malformed,
    /// 404: no such brand, or no such prompt.
    Unknown,
    /// 405: not a POST.
    Method,
    /// 408: the body did not arrive in time.
    Timeout,
    /// 413: the body is over [`DEMO_MAX_BODY`].
    TooLarge,
    /// 415: not JSON by its content type.
    MediaType,
    /// 422: a body of the wrong shape, or variables that do not fit.
    Unfit,
    /// 429: over this client's rate limit.
    RateLimited,
    /// 502: the model's API failed.
    Upstream,
    /// 503: the model's API is busy, or every model slot is.
    Busy,
    /// 504: the model's API timed out.
    UpstreamTimeout,
}

impl Refusal {
    pub const ALL: [Refusal; 11] = [
        Refusal::Malformed,
        Refusal::Unknown,
        Refusal::Method,
        Refusal::Timeout,
        Refusal::TooLarge,
        Refusal::MediaType,
        Refusal::Unfit,
        Refusal::RateLimited,
        Refusal::Upstream,
        Refusal::Busy,
        Refusal::UpstreamTimeout,
    ];

    pub fn status(self) -> u16 {
        match self {
            Refusal::Malformed => 400,
            Refusal::Unknown => 404,
            Refusal::Method => 405,
            Refusal::Timeout => 408,
            Refusal::TooLarge => 413,
            Refusal::MediaType => 415,
            Refusal::Unfit => 422,
            Refusal::RateLimited => 429,
            Refusal::Upstream => 502,
            Refusal::Busy => 503,
            Refusal::UpstreamTimeout => 504,
        }
    }

    /// What the status means, for a caller reading the API's description.
    pub fn describe(self) -> String {
        match self {
            Refusal::Malformed => "The body is not valid JSON.".into(),
            Refusal::Unknown => {
                "No such brand, or no such prompt (`promptIds` lists the valid ones).".into()
            }
            Refusal::Method => "Only POST is answered.".into(),
            Refusal::Timeout => "The body was not sent within the body timeout.".into(),
            Refusal::TooLarge => format!("The body is over {} KiB.", DEMO_MAX_BODY / 1024),
            Refusal::MediaType => "The content type is not JSON.".into(),
            Refusal::Unfit => "Wrong shape (`errors`, with JSON pointers), or missing, unknown or too-long variables (`missing`, `unknown`, `tooLong`), or a variable the template cannot use (`invalid`).".into(),
            Refusal::RateLimited => {
                "Over this client's rate limit; `Retry-After` says when to try again.".into()
            }
            Refusal::Upstream => {
                "The model's API failed or refused; no upstream details are passed on.".into()
            }
            Refusal::Busy => "The model's API rate-limited marque, or every model slot stayed busy; `Retry-After` says when to try again.".into(),
            Refusal::UpstreamTimeout => "The model's API timed out.".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brand_document_is_a_key_and_a_file_directly_under_it() {
        assert_eq!(
            brand_doc_of("/brand/acme/spec.json"),
            Some(("acme", "spec.json"))
        );
        assert_eq!(
            brand_doc_of(&brand_doc("acme@1.2.0", "llms.txt")),
            Some(("acme@1.2.0", "llms.txt"))
        );
        assert_eq!(brand_doc_of("/brand/acme/assets/spec.json"), None);
        assert_eq!(brand_doc_of("/brand/acme"), None);
        assert_eq!(brand_doc_of("/brand//spec.json"), None);
        assert_eq!(brand_doc_of("/preview/p/brand/acme/spec.json"), None);
    }

    #[test]
    fn each_refusal_has_its_own_error_status() {
        let statuses: std::collections::BTreeSet<u16> =
            Refusal::ALL.iter().map(|r| r.status()).collect();
        assert_eq!(statuses.len(), Refusal::ALL.len(), "one status per refusal");
        assert!(statuses.iter().all(|s| (400..600).contains(s)));
        assert_eq!(Refusal::TooLarge.describe(), "The body is over 16 KiB.");
    }

    #[test]
    fn paths_parse_into_what_answers_them() {
        let cases = [
            ("/healthz", Route::Probe),
            ("/readyz", Route::Probe),
            ("/status", Route::Snapshot),
            ("/brand/acme/spec.json", Route::Snapshot),
            ("/brand/acme/assets/compare/x.svg", Route::Snapshot),
            ("/compare/acme", Route::Snapshot),
            ("/assets/page.0123456789abcdef.js", Route::Snapshot),
            ("/metrics", Route::Metrics),
            ("/events", Route::Events),
            ("/mcp", Route::Mcp),
            ("/hooks/git", Route::Hook),
            ("/api/brand-spec/x/demo", Route::Api),
            (
                "/preview/b/api/brand-spec/x/demo",
                Route::PreviewApi { name: "b" },
            ),
            ("/preview/b/brand/acme/spec.json", Route::Snapshot),
            (
                "/brand/acme/compare/1.0.0...current",
                Route::Compare {
                    preview: None,
                    key: "acme",
                    range: "1.0.0...current",
                },
            ),
            (
                "/preview/b/brand/acme/compare/1.0.0...current",
                Route::Compare {
                    preview: Some("b"),
                    key: "acme",
                    range: "1.0.0...current",
                },
            ),
        ];
        for (path, route) in cases {
            assert_eq!(Route::parse(path), route, "{path}");
        }
    }

    #[test]
    fn what_is_printed_parses_back() {
        assert_eq!(
            Route::parse(&compare("acme", "1.0.0", "current", ".md")),
            Route::Compare {
                preview: None,
                key: "acme",
                range: "1.0.0...current.md"
            }
        );
        assert_eq!(Route::parse(&demo("acme")), Route::Api);
        let key = brand_key("acme", Some("1.2.0"));
        assert_eq!(
            brand_key_of(&brand_doc(&key, "tokens.css")),
            Some("acme@1.2.0")
        );
        assert_eq!(brand_key_of(&brand(&key)), Some("acme@1.2.0"));
        assert_eq!(brand_key_of(&embed("acme")), Some("acme"));
        assert_eq!(
            split_preview(&format!("{}{}", preview("b"), brand("acme"))),
            Some(("b", "/brand/acme"))
        );
        assert_eq!(Route::parse(HOOK_GIT).methods(), "POST");
    }

    #[test]
    fn the_router_patterns_are_the_paths_printed_here() {
        let fill = |pattern: &str| {
            pattern
                .replace("{slug}", "acme")
                .replace("{name}", "b")
                .replace("{range}", "1.0.0...current")
        };
        assert_eq!(fill(DEMO_PATTERN), demo("acme"));
        assert_eq!(
            fill(PREVIEW_DEMO_PATTERN),
            format!("{}{}", preview("b"), demo("acme"))
        );
        assert_eq!(
            fill(COMPARE_PATTERN),
            compare("acme", "1.0.0", "current", "")
        );
        assert_eq!(
            fill(PREVIEW_COMPARE_PATTERN),
            format!(
                "{}{}",
                preview("b"),
                compare("acme", "1.0.0", "current", "")
            )
        );
        // Each handler's path is a handler's route, never a snapshot lookup.
        for path in [
            DEMO_PATTERN,
            PREVIEW_DEMO_PATTERN,
            COMPARE_PATTERN,
            PREVIEW_COMPARE_PATTERN,
        ]
        .map(fill)
        .into_iter()
        .chain([METRICS, EVENTS, MCP, HOOK_GIT].map(String::from))
        {
            assert!(!Route::parse(&path).is_snapshot(), "{path}");
        }
    }
}
