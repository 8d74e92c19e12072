//! `GET /brand/<slug>/compare/<a>...<b>`: the semantic diff between two
//! versions of a brand (each a released version or `current`), as JSON or
//! Markdown (`.json`/`.md` suffix, else by `Accept`).
//!
//! The one brand document not in the snapshot: a brand with n releases has
//! n² comparisons, nearly all never asked for. Each answer is computed
//! from the brands the snapshot holds (parsed once, on first use), off the
//! async runtime and a few at a time, then kept: a second request for the
//! same two inputs is a map lookup, whatever snapshot serves it.

use super::client::accepts;
use super::fast_path::respond;
use super::problem::Problem;
use super::AppState;
use crate::render::diff::{render_json, render_md, Side};
use crate::render::Context;
use crate::snapshot::{BrandModel, CachePolicy, Effort, Resource};
use crate::spec::diag::clipped;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

/// Comparisons computed at once; the others wait their turn.
const CONCURRENT: usize = 2;
/// Bytes of answers kept (every coding, and the key), by default. A sweep
/// of distinct pairs evicts the least recently used answers, never the
/// hot ones all at once.
pub const MEMO_BYTES: usize = 32 * 1024 * 1024;
/// What a kept answer costs beyond its bodies: its key, the map entries.
const ENTRY_OVERHEAD: usize = 256;

/// What decides an answer: each side as the caller spelled it (the answer
/// names it so), the inputs of both sides, the format, and whether it is
/// asked inside a preview (whose answers are `no-store` and `noindex`).
type Key = (String, String, [u8; 32], [u8; 32], Format, bool);

/// The answers computed so far, least recently used evicted first once
/// they hold more than their budget of bytes.
pub struct Memo {
    kept: Mutex<Kept>,
    running: tokio::sync::Semaphore,
    budget: usize,
}

#[derive(Default)]
struct Kept {
    answers: HashMap<Key, (Arc<Resource>, u64)>,
    /// Keys by the tick of their last use: the first is evicted first.
    order: BTreeMap<u64, Key>,
    bytes: usize,
    tick: u64,
}

impl Default for Memo {
    fn default() -> Memo {
        Memo::with_budget(MEMO_BYTES)
    }
}

impl Memo {
    /// A memo that keeps at most `budget` bytes of answers.
    pub fn with_budget(budget: usize) -> Memo {
        Memo {
            kept: Mutex::default(),
            running: tokio::sync::Semaphore::new(CONCURRENT),
            budget,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, key: &Key) -> Option<Arc<Resource>> {
        let mut kept = self.lock();
        kept.tick += 1;
        let tick = kept.tick;
        let (answer, last) = kept.answers.get_mut(key)?;
        let (answer, before) = (answer.clone(), std::mem::replace(last, tick));
        if let Some(k) = kept.order.remove(&before) {
            kept.order.insert(tick, k);
        }
        Some(answer)
    }

    fn keep(&self, key: Key, answer: Arc<Resource>) {
        let cost = cost_of(&key, &answer);
        if cost > self.budget {
            return;
        }
        let mut kept = self.lock();
        kept.tick += 1;
        let tick = kept.tick;
        if let Some((old, last)) = kept.answers.insert(key.clone(), (answer, tick)) {
            kept.order.remove(&last);
            kept.bytes -= cost_of(&key, &old);
        }
        kept.order.insert(tick, key);
        kept.bytes += cost;
        while kept.bytes > self.budget {
            let Some((_, oldest)) = kept.order.pop_first() else {
                break;
            };
            if let Some((old, _)) = kept.answers.remove(&oldest) {
                kept.bytes -= cost_of(&oldest, &old);
            }
        }
    }

    /// Bytes of the answers kept, and how many (for /metrics).
    pub fn held(&self) -> (usize, usize) {
        let kept = self.lock();
        (kept.bytes, kept.answers.len())
    }

    /// The most bytes the memo keeps.
    pub fn budget(&self) -> usize {
        self.budget
    }
}

fn cost_of(key: &Key, answer: &Resource) -> usize {
    answer.memory() + key.0.len() + key.1.len() + ENTRY_OVERHEAD
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Format {
    Json,
    Markdown,
    /// For a browser: asked by `Accept: text/html`, never by a suffix.
    Html,
}

/// The two sides and the format of `<a>...<b>[.md|.json]`. A suffix is
/// taken as a format only when the side without it is a valid reference
/// (`1.0.0-rc.md` is a version).
fn parse_range(range: &str) -> Option<(&str, &str, Option<Format>)> {
    let (a, b) = range.split_once("...")?;
    let is_ref = |s: &str| {
        s == "current" || semver::Version::parse(s.strip_prefix('v').unwrap_or(s)).is_ok()
    };
    let suffixed = [(".json", Format::Json), (".md", Format::Markdown)]
        .into_iter()
        .find_map(|(suffix, f)| Some((b.strip_suffix(suffix)?, f)))
        .filter(|(side, _)| is_ref(side));
    let (b, format) = match suffixed {
        Some((side, f)) if !is_ref(b) => (side, Some(f)),
        _ => (b, None),
    };
    (!a.is_empty() && !b.is_empty()).then_some((a, b, format))
}

/// Answers a comparison.
pub async fn handle(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path((slug, range)): Path<(String, String)>,
    method: Method,
    headers: HeaderMap,
) -> Response {
    let site = app.site.load_full();
    let seen = match super::access::seen(&app, &site, &headers, peer.ip()) {
        Ok(seen) => seen,
        Err(too_many) => return refused(&app, &site, too_many),
    };
    // A public brand's comparison is the public one, cacheable.
    let private = seen.private_for(&slug, None);
    let mut res = answer(
        &app,
        Sides::Published(seen.snapshot),
        slug,
        range,
        &method,
        &headers,
    )
    .await;
    // A comparison lives under `/brand/`: it varies on the credentials.
    seen.apply(res.headers_mut(), "/brand/", private);
    res
}

/// The 429 of a client over its failed tokens, varied as every answer.
fn refused(
    app: &AppState,
    site: &crate::snapshot::Site,
    too_many: super::access::TooMany,
) -> Response {
    let mut res = too_many.problem().into_response();
    super::access::anonymous(app, site).apply(res.headers_mut(), "/brand/", false);
    res
}

/// Answers a comparison inside a branch preview, as its changelog links
/// it: `current` is the preview's, a release the published branch's
/// (releases are tags, the same from every branch).
pub async fn handle_preview(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path((name, slug, range)): Path<(String, String, String)>,
    method: Method,
    headers: HeaderMap,
) -> Response {
    let site = app.site.load_full();
    let seen = match super::access::seen(&app, &site, &headers, peer.ip()) {
        Ok(seen) => seen,
        Err(too_many) => return refused(&app, &site, too_many),
    };
    let Some(preview) = seen.preview(&name) else {
        let mut res = super::fast_path::not_found(&crate::paths::preview(&name)).into_response();
        seen.apply(res.headers_mut(), "/brand/", false);
        return res;
    };
    let sides = Sides::Preview {
        name: &name,
        preview,
        published: seen.snapshot,
    };
    let private = seen.private_for(&slug, Some(&name));
    let mut res = answer(&app, sides, slug, range, &method, &headers).await;
    seen.apply(res.headers_mut(), "/brand/", private);
    res
}

/// What a comparison's page links from: the public URL, or the preview's.
fn page_context(app: &AppState, sides: Sides<'_>) -> Context {
    match sides {
        Sides::Published(_) => Context::new(&app.public_url),
        Sides::Preview { name, .. } => {
            let mut ctx = Context::new(&format!(
                "{}{}",
                app.public_url,
                crate::paths::preview(name)
            ));
            ctx.preview = true;
            ctx
        }
    }
}

/// Where the two sides of a comparison are looked up.
#[derive(Clone, Copy)]
enum Sides<'s> {
    Published(&'s crate::snapshot::Snapshot),
    Preview {
        name: &'s str,
        preview: &'s crate::snapshot::Snapshot,
        published: &'s crate::snapshot::Snapshot,
    },
}

impl<'s> Sides<'s> {
    /// The snapshot of `current`.
    fn current(self) -> &'s crate::snapshot::Snapshot {
        match self {
            Sides::Published(s) => s,
            Sides::Preview { preview, .. } => preview,
        }
    }
}

async fn answer(
    app: &AppState,
    sides: Sides<'_>,
    slug: String,
    range: String,
    method: &Method,
    headers: &HeaderMap,
) -> Response {
    let Some((a, b, suffix)) = parse_range(&range) else {
        return Problem::not_found(format!(
            "/brand/{slug}/compare/{} names no comparison: write /brand/{slug}/compare/<a>...<b>, each side a released version or `current`, optionally ending in .md or .json",
            clipped(&range)
        ))
        .into_response();
    };
    if !sides.current().models.contains_key(&slug) {
        return super::fast_path::not_found(&format!("/brand/{slug}")).into_response();
    }
    let (from, to) = match (side(sides, &slug, a), side(sides, &slug, b)) {
        (Ok(from), Ok(to)) => (from, to),
        (Err(p), _) | (_, Err(p)) => return p.into_response(),
    };
    let format = suffix.unwrap_or(if accepts(headers, "text/html") {
        Format::Html
    } else if accepts(headers, "text/markdown") && !accepts(headers, "application/json") {
        Format::Markdown
    } else {
        Format::Json
    });
    let key = (
        from.0.reference.clone(),
        to.0.reference.clone(),
        from.1.input,
        to.1.input,
        format,
        matches!(sides, Sides::Preview { .. }),
    );
    let answer = match app.compare.get(&key) {
        Some(answer) => answer,
        None => {
            let Ok(_turn) = app.compare.running.acquire().await else {
                return Problem::new(StatusCode::SERVICE_UNAVAILABLE, "shutting down")
                    .into_response();
            };
            let brand = slug.clone();
            let ctx = page_context(app, sides);
            let work = tokio::task::spawn_blocking(move || compute(&brand, from, to, format, &ctx));
            match work.await {
                Ok(Some(answer)) => {
                    let answer = Arc::new(answer);
                    app.compare.keep(key, answer.clone());
                    answer
                }
                _ => {
                    tracing::error!(%slug, range = %clipped(&range), "a comparison failed");
                    return Problem::new(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "the comparison failed",
                    )
                    .into_response();
                }
            }
        }
    };
    let mut res = respond(&answer, method, headers).map(axum::body::Body::new);
    if suffix.is_none() {
        res.headers_mut().insert(
            header::VARY,
            HeaderValue::from_static("Accept, Accept-Encoding"),
        );
    }
    res
}

/// One side of a comparison: `current` or a released version of `slug`.
fn side(
    sides: Sides<'_>,
    slug: &str,
    reference: &str,
) -> Result<(Side, Arc<BrandModel>), Box<Problem>> {
    let snap = match (sides, reference) {
        (_, "current") | (Sides::Published(_), _) => sides.current(),
        (Sides::Preview { published, .. }, _) => published,
    };
    let key = match reference {
        "current" => slug.to_string(),
        v => match semver::Version::parse(v.strip_prefix('v').unwrap_or(v)) {
            Ok(v) => format!("{slug}@{v}"),
            Err(_) => {
                return Err(Box::new(Problem::not_found(format!(
                    "`{}` is neither a version nor `current`",
                    clipped(reference)
                ))))
            }
        },
    };
    let Some(c) = snap.models.get(&key).cloned() else {
        let prefix = format!("{slug}@");
        let mut released: Vec<semver::Version> = snap
            .models
            .keys()
            .filter_map(|k| k.strip_prefix(&prefix)?.parse().ok())
            .collect();
        released.sort_by(|a, b| a.cmp_precedence(b));
        let released: Vec<String> = released.iter().map(ToString::to_string).collect();
        return Err(Box::new(
            Problem::not_found(format!("{slug} has no release {}", clipped(reference)))
                .with("releases", released),
        ));
    };
    let side = Side {
        reference: reference.to_string(),
        version: c.version.clone(),
    };
    Ok((side, c))
}

/// The comparison of two published versions, rendered and compressed.
fn compute(
    slug: &str,
    (from, a): (Side, Arc<BrandModel>),
    (to, b): (Side, Arc<BrandModel>),
    format: Format,
    ctx: &Context,
) -> Option<Resource> {
    let preview = ctx.preview;
    let (old, new) = (a.brand.brand()?, b.brand.brand()?);
    let diff = crate::spec::diff::diff(&old, &new);
    let cache = match (a.cache, b.cache) {
        // Whatever a preview answers is never cached or indexed.
        _ if preview => CachePolicy::Preview,
        (CachePolicy::Immutable, CachePolicy::Immutable) => CachePolicy::Immutable,
        (CachePolicy::Current(age), _) | (_, CachePolicy::Current(age)) => {
            CachePolicy::Current(age)
        }
        _ => CachePolicy::NoStore,
    };
    let (media, body) = match format {
        Format::Json => ("application/json", render_json(slug, &from, &to, &diff)),
        Format::Markdown => (
            "text/markdown; charset=utf-8",
            render_md(&new.doc.name, &from, &to, &diff),
        ),
        Format::Html => {
            let page = crate::render::html::compare::render(&new, &from, &to, &diff, ctx);
            let r =
                Resource::with_effort("text/html; charset=utf-8", page.body, cache, Effort::Best);
            return Some(r.with_header("content-security-policy", &page.csp));
        }
    };
    Some(Resource::with_effort(media, body, cache, Effort::Best))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_name_two_sides_and_maybe_a_format() {
        assert_eq!(
            parse_range("1.0.0...current"),
            Some(("1.0.0", "current", None))
        );
        assert_eq!(
            parse_range("1.0.0...2.0.0.md"),
            Some(("1.0.0", "2.0.0", Some(Format::Markdown)))
        );
        assert_eq!(
            parse_range("1.0.0...current.json"),
            Some(("1.0.0", "current", Some(Format::Json)))
        );
        // A pre-release identifier that reads like a suffix is a version.
        assert_eq!(
            parse_range("1.0.0...2.0.0-rc.md"),
            Some(("1.0.0", "2.0.0-rc.md", None))
        );
        // A `v` before a version is allowed on either side, suffix or not.
        assert_eq!(
            parse_range("v3.1.0...v3.2.0.md"),
            Some(("v3.1.0", "v3.2.0", Some(Format::Markdown)))
        );
        assert_eq!(
            parse_range("v3.1.0...current.json"),
            Some(("v3.1.0", "current", Some(Format::Json)))
        );
        assert_eq!(parse_range("1.0.0..2.0.0"), None);
        assert_eq!(parse_range("...2.0.0"), None);
    }

    fn answer(bytes: usize) -> Arc<Resource> {
        Arc::new(Resource::with_effort(
            "application/json",
            vec![b'x'; bytes],
            CachePolicy::NoStore,
            Effort::None,
        ))
    }

    fn key(n: u8) -> Key {
        (
            n.to_string(),
            "current".into(),
            [n; 32],
            [0; 32],
            Format::Json,
            false,
        )
    }

    #[test]
    fn the_memo_stays_within_its_bytes_and_evicts_the_least_recently_used() {
        let memo = Memo::with_budget(10 * 1024);
        for n in 0..4 {
            memo.keep(key(n), answer(2000));
        }
        assert_eq!(memo.held().1, 4);
        // Key 0 is asked for all along: a sweep of new answers evicts the
        // others, never it.
        for n in 4..12 {
            assert!(memo.get(&key(0)).is_some());
            memo.keep(key(n), answer(2000));
            assert!(memo.held().0 <= memo.budget(), "{:?}", memo.held());
        }
        assert!(memo.get(&key(0)).is_some(), "the hot answer survives");
        assert!(memo.get(&key(1)).is_none(), "the coldest went first");
        assert!(memo.get(&key(11)).is_some());
        // An answer larger than the whole budget is not kept, and evicts nothing.
        let before = memo.held();
        memo.keep(key(99), answer(20 * 1024));
        assert!(memo.get(&key(99)).is_none());
        assert_eq!(memo.held(), before);
        // Keeping a key again replaces it, counted once.
        memo.keep(key(11), answer(100));
        assert!(memo.held().0 < before.0);
    }
}
