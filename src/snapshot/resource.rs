//! One published document in every coding: its identity (held, or only
//! as its gzip coding), its gzip and brotli codings made once, off the
//! request path, and its response headers prepared.

use super::coding::{brotli, gzip};
use crate::bodies::{key_of, Bodies, Coding, Compressed, Key};
use axum::body::Bytes;
use axum::http::{HeaderName, HeaderValue};
use sha2::{Digest, Sha256};

/// How a resource may be cached by browsers and CDNs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CachePolicy {
    /// Current surfaces: `public, max-age=<seconds>` (`--cache-max-age`).
    Current(u32),
    /// Released versions: `public, max-age=31536000, immutable`.
    Immutable,
    /// Operational documents such as /status: `no-store`.
    NoStore,
    /// A branch preview's documents: `no-store`, and `X-Robots-Tag:
    /// noindex` so that search engines never list unpublished work.
    Preview,
}

impl CachePolicy {
    /// The `Cache-Control` value.
    pub fn header(self) -> HeaderValue {
        match self {
            CachePolicy::Current(max_age) => {
                HeaderValue::from_str(&format!("public, max-age={max_age}"))
                    .unwrap_or(HeaderValue::from_static("no-cache"))
            }
            CachePolicy::Immutable => {
                HeaderValue::from_static("public, max-age=31536000, immutable")
            }
            CachePolicy::NoStore | CachePolicy::Preview => HeaderValue::from_static("no-store"),
        }
    }

    /// The response headers the policy adds besides `Cache-Control`.
    pub fn headers(self) -> Vec<(HeaderName, HeaderValue)> {
        match self {
            CachePolicy::Preview => vec![(
                HeaderName::from_static("x-robots-tag"),
                HeaderValue::from_static("noindex"),
            )],
            _ => Vec::new(),
        }
    }
}

/// One content coding of a resource: its bytes, their strong ETag and length,
/// ready to be copied into a response.
#[derive(Debug, Clone)]
pub struct Encoded {
    pub body: Bytes,
    pub etag: HeaderValue,
    pub length: HeaderValue,
}

/// The identity coding: its strong ETag and length always, and its bytes
/// held, or, for a text body of [`INFLATED`] size whose gzip coding is
/// kept, made from that coding when asked ([`Resource::body`]).
#[derive(Debug, Clone)]
pub struct Identity {
    pub etag: HeaderValue,
    pub length: HeaderValue,
    len: usize,
    held: Option<Bytes>,
}

impl Identity {
    /// `body` with its strong ETag and length, held.
    fn held(encoded: Encoded) -> Identity {
        Identity {
            len: encoded.body.len(),
            etag: encoded.etag,
            length: encoded.length,
            held: Some(encoded.body),
        }
    }

    /// The identity of a body of `len` bytes held only as its gzip coding.
    fn inflated(etag: HeaderValue, len: usize) -> Identity {
        Identity {
            etag,
            length: HeaderValue::from(len),
            len,
            held: None,
        }
    }

    /// The bytes, when they are held.
    pub fn held_body(&self) -> Option<&Bytes> {
        self.held.as_ref()
    }
}

/// Identity bodies of these sizes are held only as their gzip coding once
/// it is made: two thirds of a brand's bytes were identity copies that
/// nearly every client (browsers, curl --compressed, Python, Go, node, every
/// HTTP library an agent uses) never asks for. A body under 2 KiB is kept:
/// it costs little. A body over [`LARGE`] is kept too: the lists of every
/// brand at thousands of brands are megabytes, and no request inflates
/// megabytes.
pub const INFLATED: std::ops::RangeInclusive<usize> = 2 * 1024..=LARGE;

/// A published document in every coding worth sending, with the values of
/// its response headers prepared when the snapshot is built, so that a
/// request copies them and formats nothing.
#[derive(Debug, Clone)]
pub struct Resource {
    pub content_type: HeaderValue,
    pub identity: Identity,
    pub gzip: Option<Encoded>,
    pub br: Option<Encoded>,
    pub cache: CachePolicy,
    pub cache_control: HeaderValue,
    /// Extra response headers, e.g. a page's Content-Security-Policy.
    pub headers: Vec<(HeaderName, HeaderValue)>,
}

/// Compressed codings are kept only when they save at least this share.
const MIN_SAVING: f64 = 0.05;

/// How hard to compress a body, chosen by measurement (`cargo bench --bench
/// compression`, README "Decisions"): every body of a brand is compressed
/// again whenever the brand changes, so time counts as much as bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effort {
    /// gzip 6 and brotli 5: within 0.3 % of gzip 9 and brotli 6, 17 % faster.
    Best,
    /// gzip 1 and brotli 1, for large documents rebuilt on every reload
    /// (the index and /status of thousands of brands): a quarter of the
    /// time, about 20 % more bytes.
    Fast,
    /// gzip 1 alone: a server's first build, made ready sooner (gzip 1
    /// takes about a fifth of gzip 6's time, for about 15 % more bytes).
    /// What [`Effort::Best`] makes follows ([`Resource::with_brotli`]): its
    /// brotli coding and its gzip 6 coding. A client that accepts `br`
    /// gets the gzip coding at hand until then.
    Gzip,
    /// Identity only: for `marque check`, which serves nothing.
    None,
}

impl Effort {
    fn levels(self) -> Option<(u32, u32)> {
        match self {
            Effort::Best => Some((6, 5)),
            Effort::Fast => Some((1, 1)),
            // Brotli level 0 here means none (`compressed` makes no brotli).
            Effort::Gzip => Some((1, 0)),
            Effort::None => None,
        }
    }
}

/// Bodies under this size are sent as they are: a coding would not pay.
const MIN_COMPRESS: usize = 128;
/// Documents rebuilt on every reload above this size get `Effort::Fast`.
pub const LARGE: usize = 256 * 1024;

fn etag_of(digest: &[u8], suffix: &str) -> HeaderValue {
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    HeaderValue::from_str(&format!("\"{hex}{suffix}\"")).expect("hex is a valid header value")
}

/// The one shared copy of `body`, whose SHA-256 is `digest`.
fn shared(body: &[u8], digest: &[u8; 32]) -> Bytes {
    Bodies::process().share(body, digest)
}

/// The hash an ETag made by [`etag_of`] names.
fn key_of_etag(etag: &HeaderValue) -> Option<Key> {
    let hex = etag.as_bytes().get(1..33)?;
    let mut key = [0u8; 16];
    for (k, pair) in key.iter_mut().zip(hex.chunks(2)) {
        *k = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(key)
}

impl Encoded {
    /// The key its body is held under: the hash its ETag names.
    fn key(&self) -> Option<Key> {
        key_of_etag(&self.etag)
    }

    /// `body` with its strong ETag (`suffix` names the coding) and length,
    /// held once however many resources hold the same bytes.
    pub fn new(body: &[u8], suffix: &str) -> Encoded {
        let digest: [u8; 32] = Sha256::digest(body).into();
        Encoded {
            etag: etag_of(&digest, suffix),
            length: HeaderValue::from(body.len()),
            body: shared(body, &digest),
        }
    }

    /// `body` with the ETag it was given when it was made (read back from
    /// the render cache, whose checksum vouches for both), held once.
    pub fn with_etag(body: &[u8], etag: HeaderValue) -> Encoded {
        let key = key_of_etag(&etag).unwrap_or_else(|| key_of(&Sha256::digest(body).into()));
        Encoded {
            etag,
            length: HeaderValue::from(body.len()),
            body: Bodies::process().intern(key, body),
        }
    }
}

/// The gzip and brotli codings of `body` at `c`'s levels that are worth
/// keeping: those made before for the same bytes while they are held (two
/// brands' equal token files, a release's unchanged logo), else made now.
fn compressed(body: &[u8], c: Compressed) -> (Option<Encoded>, Option<Encoded>) {
    let bodies = Bodies::process();
    if let Some((gz, br)) = bodies.codings(&c) {
        let coding = |known: Coding, suffix: &str| {
            known.map(|(key, body)| Encoded {
                etag: etag_of(&key, suffix),
                length: HeaderValue::from(body.len()),
                body,
            })
        };
        return (coding(gz, "-gz"), coding(br, "-br"));
    }
    let (_, (g, b)) = c;
    let worth = |coded: &[u8]| (coded.len() as f64) < body.len() as f64 * (1.0 - MIN_SAVING);
    let gz = Some(gzip(body, g))
        .filter(|gz| worth(gz))
        .map(|gz| Encoded::new(&gz, "-gz"));
    let br = (b > 0)
        .then(|| brotli(body, b))
        .filter(|br| worth(br))
        .map(|br| Encoded::new(&br, "-br"));
    let keys = (
        gz.as_ref().and_then(Encoded::key),
        br.as_ref().and_then(Encoded::key),
    );
    bodies.remember(c, keys);
    (gz, br)
}

/// Media types whose bytes are compressed already: no coding is tried.
fn precompressed(content_type: &str) -> bool {
    matches!(
        content_type,
        "image/png"
            | "image/jpeg"
            | "image/gif"
            | "image/webp"
            | "image/avif"
            | "font/woff"
            | "font/woff2"
            | "application/pdf"
            | "application/zip"
            | "application/gzip"
    )
}

impl Resource {
    /// Builds a resource, compressing `body` with gzip and brotli when that pays.
    pub fn new(content_type: &str, body: impl Into<Bytes>, cache: CachePolicy) -> Resource {
        Resource::with_effort(content_type, body, cache, Effort::Best)
    }

    /// Builds a resource, compressing `body` as hard as `effort` says.
    pub fn with_effort(
        content_type: &str,
        body: impl Into<Bytes>,
        cache: CachePolicy,
        effort: Effort,
    ) -> Resource {
        let body: Bytes = body.into();
        let key = key_of(&Sha256::digest(&body).into());
        Resource::keyed(content_type, body, key, cache, effort)
    }

    /// [`Resource::with_effort`] for a body whose hash starts with `key`.
    fn keyed(
        content_type: &str,
        body: Bytes,
        key: Key,
        cache: CachePolicy,
        effort: Effort,
    ) -> Resource {
        let levels = effort
            .levels()
            .filter(|_| body.len() >= MIN_COMPRESS && !precompressed(content_type));
        let (gzip, br) = match levels {
            Some(levels) => compressed(&body, (key, levels)),
            None => (None, None),
        };
        let identity = match &gzip {
            Some(_) if INFLATED.contains(&body.len()) => {
                Identity::inflated(etag_of(&key, ""), body.len())
            }
            _ => Identity::held(Encoded {
                etag: etag_of(&key, ""),
                length: HeaderValue::from(body.len()),
                body: Bodies::process().intern(key, &body),
            }),
        };
        Resource {
            content_type: HeaderValue::from_str(content_type)
                .expect("media types are valid header values"),
            gzip,
            br,
            identity,
            cache,
            cache_control: cache.header(),
            headers: cache.headers(),
        }
    }

    /// A resource read back from the render cache: `body` is its identity
    /// bytes, or `None` for a body held only as `gzip` (of `len` bytes).
    pub fn from_parts(
        content_type: HeaderValue,
        (body, etag, len): (Option<&[u8]>, HeaderValue, usize),
        gzip: Option<Encoded>,
        br: Option<Encoded>,
        cache: CachePolicy,
        headers: Vec<(HeaderName, HeaderValue)>,
    ) -> Option<Resource> {
        let identity = match body {
            Some(body) if body.len() == len => Identity::held(Encoded::with_etag(body, etag)),
            None if gzip.is_some() => Identity::inflated(etag, len),
            _ => return None,
        };
        Some(Resource {
            content_type,
            identity,
            gzip,
            br,
            cache,
            cache_control: cache.header(),
            headers,
        })
    }

    /// The identity bytes: held, or inflated from the gzip coding (the
    /// bodies inflated lately are kept, see [`Bodies::inflated`]).
    pub fn body(&self) -> Bytes {
        match (&self.identity.held, &self.gzip) {
            (Some(body), _) => body.clone(),
            (None, Some(gz)) => match key_of_etag(&self.identity.etag) {
                Some(key) => Bodies::process().inflated(key, &gz.body, self.identity.len),
                None => Bytes::new(),
            },
            (None, None) => Bytes::new(),
        }
    }

    /// The length of the identity bytes.
    pub fn len(&self) -> usize {
        self.identity.len
    }

    /// True when the identity body is empty.
    pub fn is_empty(&self) -> bool {
        self.identity.len == 0
    }

    /// True when the body has a gzip or brotli coding (one that does not
    /// pay to compress never will).
    pub fn has_codings(&self) -> bool {
        self.gzip.is_some() || self.br.is_some()
    }

    /// This resource with codings as hard as `effort` says, for a body
    /// published before it was compressed.
    pub fn with_codings(&self, effort: Effort) -> Resource {
        let media = self.content_type.to_str().unwrap_or("text/plain");
        let headers = self.headers.clone();
        let made = match key_of_etag(&self.identity.etag) {
            // The hash the ETag names: not hashed again.
            Some(key) => Resource::keyed(media, self.body(), key, self.cache, effort),
            None => Resource::with_effort(media, self.body(), self.cache, effort),
        };
        Resource { headers, ..made }
    }

    /// True when its brotli coding is still to be made: it has a gzip
    /// coding (so a coding pays) and no brotli one.
    pub fn wants_brotli(&self) -> bool {
        self.gzip.is_some() && self.br.is_none()
    }

    /// This resource with the codings [`Effort::Best`] makes (brotli 5,
    /// gzip 6), for one made with [`Effort::Gzip`] (gzip 1 alone);
    /// everything else as it is.
    pub fn with_brotli(&self) -> Resource {
        if !self.wants_brotli() {
            return self.clone();
        }
        let body = self.body();
        let key = key_of_etag(&self.identity.etag)
            .unwrap_or_else(|| key_of(&Sha256::digest(&body).into()));
        let levels = Effort::Best.levels().expect("Best has levels");
        let (gzip, br) = compressed(&body, (key, levels));
        Resource {
            // gzip 6 is never larger than the gzip 1 that paid; kept all the same if not.
            gzip: gzip.or_else(|| self.gzip.clone()),
            br,
            ..self.clone()
        }
    }

    pub fn with_header(mut self, name: &'static str, value: &str) -> Resource {
        if let Ok(v) = HeaderValue::from_str(value) {
            self.headers.push((HeaderName::from_static(name), v));
        }
        self
    }

    /// Bytes held in memory by all codings.
    pub fn memory(&self) -> usize {
        self.identity.held.as_ref().map_or(0, Bytes::len)
            + self.gzip.as_ref().map_or(0, |e| e.body.len())
            + self.br.as_ref().map_or(0, |e| e.body.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn gzip_first_then_brotli_is_the_resource_best_effort_makes() {
        let body = "a first build is served with gzip, then brotli follows. ".repeat(60);
        let first = Resource::with_effort(
            "text/css",
            body.clone(),
            CachePolicy::Current(60),
            Effort::Gzip,
        );
        assert!(first.gzip.is_some() && first.br.is_none() && first.wants_brotli());
        // The first gzip is the fast one (XFL 4: fastest), made again at 6 later.
        assert_eq!(first.gzip.as_ref().map(|e| e.body[8]), Some(4));
        let later = first.with_brotli();
        let best = Resource::with_effort(
            "text/css",
            body.clone(),
            CachePolicy::Current(60),
            Effort::Best,
        );
        assert!(!later.wants_brotli());
        let br = |r: &Resource| r.br.as_ref().map(|e| (e.body.clone(), e.etag.clone()));
        assert_eq!(br(&later), br(&best));
        let gz = |r: &Resource| r.gzip.as_ref().map(|e| (e.body.clone(), e.etag.clone()));
        assert_eq!(gz(&later), gz(&best));
        assert_eq!(later.body(), body.as_bytes());
        // A body too small to pay gets no coding either way.
        let tiny = Resource::with_effort("text/css", "a{}", CachePolicy::Current(60), Effort::Gzip);
        assert!(!tiny.wants_brotli() && tiny.with_brotli().br.is_none());
    }

    #[test]
    fn identical_bodies_are_held_once() {
        let body = "a logo that two releases share. ".repeat(40).into_bytes();
        let current = Resource::new("image/svg+xml", body.clone(), CachePolicy::Current(60));
        let release = Resource::new("image/svg+xml", body.clone(), CachePolicy::Immutable);
        let held = |r: &Resource| r.identity.held_body().unwrap().as_ptr();
        assert_eq!(held(&current), held(&release));
        let (a, b) = (current.br.as_ref().unwrap(), release.br.as_ref().unwrap());
        assert_eq!(a.body.as_ptr(), b.body.as_ptr());
        let other = Resource::new(
            "image/svg+xml",
            [&body[..], b"!"].concat(),
            CachePolicy::Immutable,
        );
        assert_ne!(held(&current), held(&other));
    }

    #[test]
    fn codings_made_before_serve_an_equal_body_only_while_held() {
        let body = "tokens two brands share, compressed once. ".repeat(50);
        let decoded = |r: &Resource| {
            let mut out = Vec::new();
            brotli::Decompressor::new(&r.br.as_ref().unwrap().body[..], 4096)
                .read_to_end(&mut out)
                .unwrap();
            out
        };
        let first = Resource::new("text/css", body.clone(), CachePolicy::Current(60));
        let second = Resource::new("text/css", body.clone(), CachePolicy::Immutable);
        assert_eq!(
            first.gzip.as_ref().unwrap().etag,
            second.gzip.as_ref().unwrap().etag
        );
        assert_eq!(decoded(&second), body.as_bytes());
        drop((first, second));
        // Nothing holds the codings now: they are made again, whole.
        let later = Resource::new("text/css", body.clone(), CachePolicy::Current(60));
        assert_eq!(decoded(&later), body.as_bytes());
        assert!(later.gzip.is_some());
    }

    #[test]
    fn a_file_read_and_the_body_that_serves_it_are_held_once() {
        let logo = "<svg><!-- a logo read from a brand folder --></svg>".repeat(20);
        let files =
            crate::spec::BrandFiles::from_texts("acme", [("assets/logo.svg", logo.as_bytes())]);
        let read = files.get("assets/logo.svg").unwrap().clone();
        let served = Resource::new("image/svg+xml", read.to_vec(), CachePolicy::Current(60));
        assert_eq!(read.as_ptr(), served.identity.held_body().unwrap().as_ptr());
    }

    #[test]
    fn a_text_body_of_some_kilobytes_is_held_only_as_gzip_and_inflated_when_asked() {
        let body = "{\"color\": {\"$value\": \"#0a2742\"}}\n".repeat(200);
        let r = Resource::new("application/json", body.clone(), CachePolicy::Current(60));
        assert!(r.identity.held_body().is_none());
        assert_eq!(
            r.memory(),
            r.gzip.as_ref().unwrap().body.len() + r.br.as_ref().unwrap().body.len()
        );
        assert_eq!((r.len(), r.body()), (body.len(), Bytes::from(body.clone())));
        assert_eq!(r.identity.etag, Encoded::new(body.as_bytes(), "").etag);
        // Small, large, incompressible or uncompressed bodies are held as they are.
        let small = Resource::new(
            "application/json",
            "{\"a\": 1}".repeat(100),
            CachePolicy::Current(60),
        );
        let large = Resource::new(
            "application/json",
            "{\"b\": 2}\n".repeat(40_000),
            CachePolicy::Current(60),
        );
        let zip = Resource::new("application/zip", body.clone(), CachePolicy::Current(60));
        let none = Resource::with_effort(
            "application/json",
            body.clone(),
            CachePolicy::Current(60),
            Effort::None,
        );
        for r in [small, large, zip, none] {
            assert_eq!(r.identity.held_body().map(Bytes::len), Some(r.len()));
        }
        // Given codings later, it sheds its identity bytes.
        let later = Resource::with_effort(
            "application/json",
            body.clone(),
            CachePolicy::Current(60),
            Effort::None,
        )
        .with_codings(Effort::Best);
        assert!(later.identity.held_body().is_none());
        assert_eq!(later.body(), body.as_bytes());
    }

    /// Counts the heap in use, so a test can see memory come back.
    #[global_allocator]
    static HEAP: peak_alloc::PeakAlloc = peak_alloc::PeakAlloc;

    #[test]
    fn a_dropped_body_gives_its_memory_back() {
        // Unique bytes (no other test can hold the same body), 32 MiB: far
        // more than other tests allocate and free meanwhile.
        let body: Vec<u8> = (0..32u32 << 20)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
            .collect();
        let held = Encoded::new(&body, "");
        drop(body);
        let with = HEAP.current_usage();
        drop(held);
        let without = HEAP.current_usage();
        // The interner still names the body (until its next sweep); it
        // must not keep the bytes.
        assert!(
            with.saturating_sub(without) > 24 << 20,
            "dropping a 32 MiB body freed {} bytes",
            with.saturating_sub(without)
        );
    }

    #[test]
    fn each_coding_has_its_own_strong_etag_and_round_trips() {
        let body = "a body that compresses well. ".repeat(40).into_bytes();
        let r = Resource::new(
            "text/plain; charset=utf-8",
            body.clone(),
            CachePolicy::Current(60),
        );
        let gz = r.gzip.as_ref().unwrap();
        let br = r.br.as_ref().unwrap();
        assert_ne!(r.identity.etag, gz.etag);
        assert_ne!(gz.etag, br.etag);
        assert!(r.identity.etag.to_str().unwrap().starts_with('"'));
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&gz.body[..])
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, body);
        let mut out = Vec::new();
        brotli::Decompressor::new(&br.body[..], 4096)
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, body);
    }

    #[test]
    fn incompressible_bodies_are_kept_only_as_identity() {
        let r = Resource::new("image/png", vec![1, 2, 3], CachePolicy::Current(60));
        assert!(r.gzip.is_none() && r.br.is_none());
    }
}
