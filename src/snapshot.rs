//! The snapshot: every surface of every brand, rendered, compressed and
//! hashed once, off the request path. A request loads the current snapshot
//! once and answers from one map lookup; a reload builds a whole new
//! snapshot and swaps it in.

use axum::body::Bytes;
use axum::http::{HeaderName, HeaderValue};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

/// How a resource may be cached by browsers and CDNs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CachePolicy {
    /// Current surfaces: `public, max-age=<seconds>` (`--cache-max-age`).
    Current(u32),
    /// Released versions: `public, max-age=31536000, immutable`.
    Immutable,
    /// Operational documents such as /status: `no-store`.
    NoStore,
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
            CachePolicy::NoStore => HeaderValue::from_static("no-store"),
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

/// A published document in every coding worth sending, with the values of
/// its response headers prepared when the snapshot is built, so that a
/// request copies them and formats nothing.
#[derive(Debug, Clone)]
pub struct Resource {
    pub content_type: HeaderValue,
    pub identity: Encoded,
    pub gzip: Option<Encoded>,
    pub br: Option<Encoded>,
    pub cache: CachePolicy,
    pub cache_control: HeaderValue,
    /// Extra response headers, e.g. a page's Content-Security-Policy.
    pub headers: Vec<(HeaderName, HeaderValue)>,
}

/// Compressed codings are kept only when they save at least this share.
const MIN_SAVING: f64 = 0.05;
// Measured on a 20 KB spec.json: quality 6 takes 1.4 ms and is 1 % larger
// than quality 9 (9 ms); quality 11 is 10 % smaller but takes 50 ms. Bodies
// are compressed on every change of their brand, so reload speed wins.
const BROTLI_QUALITY: u32 = 6;
/// A 4 MiB window. (Smaller windows made brotli slower at qualities 5 to 8 in
/// the measurement above, with no gain in size.)
const BROTLI_WINDOW: u32 = 22;

fn etag(body: &[u8], suffix: &str) -> HeaderValue {
    let digest = Sha256::digest(body);
    let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
    HeaderValue::from_str(&format!("\"{hex}{suffix}\"")).expect("hex is a valid header value")
}

pub fn gzip(body: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(body).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

pub fn brotli(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, BROTLI_QUALITY, BROTLI_WINDOW);
        w.write_all(body).expect("writing to memory");
    }
    out
}

impl Resource {
    /// Builds a resource, compressing `body` with gzip and brotli when that pays.
    pub fn new(content_type: &str, body: impl Into<Bytes>, cache: CachePolicy) -> Resource {
        let body: Bytes = body.into();
        let worth = |c: &[u8]| (c.len() as f64) < body.len() as f64 * (1.0 - MIN_SAVING);
        let encoded = |bytes: Bytes, suffix: &str| Encoded {
            etag: etag(&bytes, suffix),
            length: HeaderValue::from(bytes.len()),
            body: bytes,
        };
        let (gz, br) = if body.len() >= 128 {
            (gzip(&body), brotli(&body))
        } else {
            (Vec::new(), Vec::new())
        };
        Resource {
            content_type: HeaderValue::from_str(content_type)
                .expect("media types are valid header values"),
            gzip: (!gz.is_empty() && worth(&gz)).then(|| encoded(gz.into(), "-gz")),
            br: (!br.is_empty() && worth(&br)).then(|| encoded(br.into(), "-br")),
            identity: encoded(body, ""),
            cache,
            cache_control: cache.header(),
            headers: Vec::new(),
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
        self.identity.body.len()
            + self.gzip.as_ref().map_or(0, |e| e.body.len())
            + self.br.as_ref().map_or(0, |e| e.body.len())
    }
}

/// Media type of an asset, by extension.
pub fn media_type_of(path: &str) -> &'static str {
    let ext = path
        .rsplit('.')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    match ext.as_str() {
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "ico" => "image/x-icon",
        "pdf" => "application/pdf",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        "md" => "text/markdown; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// What the prompt demo needs of one published brand, kept in the snapshot.
#[derive(Debug)]
pub struct DemoBrand {
    pub slug: String,
    pub version: String,
    /// spec.md: the system context of every prompt.
    pub spec_md: String,
    pub prompts: Vec<crate::spec::model::Prompt>,
}

/// The immutable set of everything marque serves at one moment.
#[derive(Debug, Default)]
pub struct Snapshot {
    pub resources: HashMap<String, Arc<Resource>>,
    /// Pages of brands that are not published, by path: what a browser
    /// asking for `/brand/<slug>` gets, with status 404.
    pub unpublished: HashMap<String, Arc<Resource>>,
    /// False only for the empty snapshot served before the first build.
    pub ready: bool,
    /// Counts builds; a new snapshot has a higher generation.
    pub generation: u64,
    /// What the prompt demo needs of each published brand.
    pub demo: HashMap<String, Arc<DemoBrand>>,
    /// Figures for /metrics.
    pub stats: Stats,
}

/// Figures of a snapshot and of the builds that led to it, for /metrics.
#[derive(Debug, Default, Clone)]
pub struct Stats {
    pub brands_ok: usize,
    pub brands_stale: usize,
    pub brands_unpublished: usize,
    pub reloads: u64,
    pub failed_reloads: u64,
    pub last_reload_ms: f64,
    /// Bytes held by every resource, all codings.
    pub bytes: usize,
    /// Bytes held by each published brand's resources, by slug.
    pub brand_bytes: Vec<(String, usize)>,
}

impl Snapshot {
    pub fn get(&self, path: &str) -> Option<&Arc<Resource>> {
        self.resources.get(path)
    }

    /// Bytes held by all resources (shared resources counted once per path).
    pub fn memory(&self) -> usize {
        self.resources.values().map(|r| r.memory()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

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
