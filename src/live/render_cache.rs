//! IO: the on-disk cache of rendered brands, so a restart with unchanged
//! content serves in well under a second instead of rendering and
//! compressing every brand again.
//!
//! One file per rendered brand, named by the hash of its input (files,
//! releases, revision, render context, today's date and marque's version,
//! see `input_hash`): an entry can only ever be used for exactly the input
//! it was rendered from. Each file starts with a magic line and marque's
//! version, and ends with a CRC-32 of everything before it: a corrupt,
//! truncated or foreign file is ignored (and removed), never served. (The
//! CRC finds any damaged run of up to 32 bits and misses random damage
//! once in four billion; it was a SHA-256, a fifth of a warm start's CPU.
//! Nothing here is a defence against whoever can write the cache folder:
//! they could write the content too.)
//! Entries no brand uses any more are removed after each build.
//!
//! The builder reads it through [`Renders`] (the lookup runs on its jobs);
//! the reads, writes and pruning all live here, with what the reloader
//! remembers of them between builds ([`KeptRenders`]).

use crate::build::{CachedRender, Catalog, Listing, Renders};
use crate::snapshot::{CachePolicy, Encoded, Resource, Resources};
use crate::spec::{Diagnostic, Severity};
use axum::http::{HeaderName, HeaderValue};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

const MAGIC: &[u8] = b"marque render cache 4\n";

/// The CRC-32 of `data`, as the four bytes that end an entry.
fn checksum(data: &[u8]) -> [u8; 4] {
    // crc32fast uses the CPU's carry-less multiply where there is one
    // (zlib-rs's CRC, without its std feature, does not).
    crc32fast::hash(data).to_le_bytes()
}

/// What an entry holds besides its resources, as JSON.
#[derive(serde::Serialize, serde::Deserialize)]
struct Meta {
    warnings: Vec<Diagnostic>,
    headline: crate::render::Headline,
    prompts: Vec<crate::spec::model::Prompt>,
}

/// The cache folder (`<cache-dir>/render`).
#[derive(Debug, Clone)]
pub struct RenderCache {
    dir: PathBuf,
}

fn hex(hash: &[u8; 32]) -> String {
    hash.iter().map(|b| format!("{b:02x}")).collect()
}

impl RenderCache {
    pub fn new(cache_dir: &Path) -> RenderCache {
        RenderCache {
            dir: cache_dir.join("render"),
        }
    }

    fn path(&self, input: &[u8; 32]) -> PathBuf {
        self.dir.join(format!("{}.bin", hex(input)))
    }
}

impl Renders for RenderCache {
    /// The entry for `input`, if there is a sound one.
    fn load(&self, input: &[u8; 32]) -> Option<CachedRender> {
        let path = self.path(input);
        let bytes = std::fs::read(&path).ok()?;
        match decode(&bytes, input) {
            Some(e) => Some(e),
            None => {
                tracing::warn!(file = %path.display(), "a render cache entry is corrupt or foreign; it is ignored and rebuilt");
                let _ = std::fs::remove_file(&path);
                None
            }
        }
    }
}

impl RenderCache {
    /// Writes the entry for `input` (atomically: a temporary file, renamed).
    pub fn store(&self, input: &[u8; 32], entry: &CachedRender) {
        let path = self.path(input);
        if path.exists() {
            return;
        }
        let write = || -> std::io::Result<()> {
            std::fs::create_dir_all(&self.dir)?;
            let tmp = path.with_extension(format!("tmp{}", std::process::id()));
            std::fs::write(&tmp, encode(input, entry))?;
            std::fs::rename(&tmp, &path)
        };
        if let Err(e) = write() {
            tracing::debug!(error = %e, "cannot write the render cache");
        }
    }

    /// Removes the entry of `input`, if there is one.
    pub fn remove(&self, input: &[u8; 32]) {
        let _ = std::fs::remove_file(self.path(input));
    }

    /// Removes every entry whose input is not in `keep`.
    pub fn prune(&self, keep: &HashSet<[u8; 32]>) {
        let keep: HashSet<String> = keep.iter().map(|k| format!("{}.bin", hex(k))).collect();
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for e in entries.filter_map(|e| e.ok()) {
            let name = e.file_name().to_string_lossy().into_owned();
            if !keep.contains(&name) {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

/// The render cache as the reloader keeps it between builds: which inputs
/// it holds, and whether the folder was cleared of everything else yet.
#[derive(Debug)]
pub struct KeptRenders {
    cache: Arc<RenderCache>,
    /// Inputs whose render is in the cache already.
    cached: HashSet<[u8; 32]>,
    /// The folder was cleared of every entry not in `cached`.
    pruned: bool,
}

impl KeptRenders {
    pub fn new(cache: RenderCache) -> KeptRenders {
        KeptRenders {
            cache: Arc::new(cache),
            cached: HashSet::new(),
            pruned: false,
        }
    }

    /// The lookup a build is handed.
    pub fn lookup(&self) -> Arc<dyn Renders> {
        self.cache.clone()
    }

    /// Writes every compressed render of `catalog` that is not in the
    /// cache yet, and removes the entries no brand uses any more. Gives way
    /// (and goes on next time) once `interrupted` says a change is waiting.
    pub fn sync(&mut self, catalog: &Catalog, interrupted: &dyn Fn() -> bool) {
        let published: Vec<&Arc<crate::build::Published>> = catalog
            .renders()
            .filter(|p| p.compressed && p.brotli)
            .collect();
        let fresh: Vec<_> = published
            .iter()
            .filter(|p| !self.cached.contains(&p.input))
            .collect();
        if fresh.is_empty() {
            return;
        }
        for p in &fresh {
            if interrupted() {
                return;
            }
            self.cache.store(&p.input, &CachedRender::of(p));
        }
        let used: HashSet<[u8; 32]> = published.iter().map(|p| p.input).collect();
        if self.pruned {
            // Only what this build replaced: listing a folder of ten
            // thousand entries took 40 ms of every save.
            for gone in self.cached.difference(&used) {
                self.cache.remove(gone);
            }
        } else {
            // The first time, whatever else the folder holds (entries of
            // content since changed, of another version of marque).
            self.cache.prune(&used);
            self.pruned = true;
        }
        self.cached = used;
    }
}

/// This build of marque: its executable's size and modification time. A
/// rebuild from changed sources keeps the crate's version but renders
/// differently, so a render cached by another build must not be served
/// (it is part of every brand's input, see `BuildOptions::build_id`).
pub fn build_id() -> Arc<str> {
    static ID: std::sync::OnceLock<Arc<str>> = std::sync::OnceLock::new();
    ID.get_or_init(|| {
        let meta = std::env::current_exe().and_then(std::fs::metadata);
        let id = match meta {
            Ok(m) => {
                let modified = m
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .unwrap_or_default();
                format!("{}:{}", m.len(), modified.as_nanos())
            }
            Err(_) => String::new(),
        };
        Arc::from(id)
    })
    .clone()
}

/// A little binary writer: lengths as u32, little-endian.
struct Writer(Vec<u8>);

impl Writer {
    fn u32(&mut self, n: usize) {
        self.0.extend_from_slice(&(n as u32).to_le_bytes());
    }
    fn bytes(&mut self, b: &[u8]) {
        self.u32(b.len());
        self.0.extend_from_slice(b);
    }
    fn opt(&mut self, e: Option<&Encoded>) {
        match e {
            Some(e) => {
                self.0.push(1);
                self.bytes(&e.body);
                self.bytes(e.etag.as_bytes());
            }
            None => self.0.push(0),
        }
    }
}

fn encode(input: &[u8; 32], entry: &CachedRender) -> Vec<u8> {
    let mut w = Writer(Vec::new());
    w.0.extend_from_slice(MAGIC);
    w.bytes(env!("CARGO_PKG_VERSION").as_bytes());
    w.0.extend_from_slice(input);
    let mut paths: Vec<&String> = entry.resources.keys().collect();
    paths.sort();
    w.u32(paths.len());
    for path in paths {
        let r = &entry.resources[path];
        w.bytes(path.as_bytes());
        w.bytes(r.content_type.as_bytes());
        match r.cache {
            CachePolicy::Current(age) => {
                w.0.push(0);
                w.u32(age as usize);
            }
            CachePolicy::Immutable => w.0.push(1),
            CachePolicy::NoStore => w.0.push(2),
            CachePolicy::Preview => w.0.push(3),
        }
        w.u32(r.headers.len());
        for (name, value) in &r.headers {
            w.bytes(name.as_str().as_bytes());
            w.bytes(value.as_bytes());
        }
        match r.identity.held_body() {
            Some(body) => {
                w.0.push(1);
                w.bytes(body);
            }
            // Held only as its gzip coding, written below.
            None => w.0.push(0),
        }
        w.bytes(r.identity.etag.as_bytes());
        w.u32(r.len());
        w.opt(r.gzip.as_ref());
        w.opt(r.br.as_ref());
    }
    let meta = Meta {
        warnings: entry.warnings.clone(),
        headline: entry.headline.clone(),
        prompts: entry.prompts.clone(),
    };
    w.bytes(&serde_json::to_vec(&meta).unwrap_or_default());
    w.bytes(entry.listing.brands_json.as_bytes());
    w.bytes(entry.listing.llms_line.as_bytes());
    let sum = checksum(&w.0);
    w.0.extend_from_slice(&sum);
    w.0
}

/// A little binary reader over a checked buffer.
struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let s = self.data.get(self.at..end)?;
        self.at = end;
        Some(s)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u32(&mut self) -> Option<usize> {
        let b = self.take(4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }
    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = self.u32()?;
        self.take(n)
    }
    fn text(&mut self) -> Option<String> {
        String::from_utf8(self.bytes()?.to_vec()).ok()
    }
    fn header(&mut self) -> Option<HeaderValue> {
        HeaderValue::from_bytes(self.bytes()?).ok()
    }
    fn encoded(&mut self, body: &[u8]) -> Option<Encoded> {
        let etag = self.header()?;
        Some(Encoded::with_etag(body, etag))
    }
    fn opt(&mut self) -> Option<Option<Encoded>> {
        match self.u8()? {
            0 => Some(None),
            1 => {
                let body = self.bytes()?;
                Some(Some(self.encoded(body)?))
            }
            _ => None,
        }
    }
}

fn decode(file: &[u8], input: &[u8; 32]) -> Option<CachedRender> {
    let (data, sum) = file.split_at(file.len().checked_sub(4)?);
    if checksum(data) != sum || !data.starts_with(MAGIC) {
        return None;
    }
    let mut r = Reader {
        data,
        at: MAGIC.len(),
    };
    if r.bytes()? != env!("CARGO_PKG_VERSION").as_bytes() || r.take(32)? != input {
        return None;
    }
    let mut resources = Resources::new();
    for _ in 0..r.u32()? {
        let path = r.text()?;
        let content_type = r.header()?;
        let cache = match r.u8()? {
            0 => CachePolicy::Current(r.u32()? as u32),
            1 => CachePolicy::Immutable,
            2 => CachePolicy::NoStore,
            3 => CachePolicy::Preview,
            _ => return None,
        };
        let mut headers = Vec::new();
        for _ in 0..r.u32()? {
            let name = HeaderName::from_bytes(r.bytes()?).ok()?;
            headers.push((name, r.header()?));
        }
        let body = match r.u8()? {
            0 => None,
            1 => Some(r.bytes()?),
            _ => return None,
        };
        let identity = (body, r.header()?, r.u32()?);
        let gzip = r.opt()?;
        let br = r.opt()?;
        let resource = Resource::from_parts(content_type, identity, gzip, br, cache, headers)?;
        resources.insert(path, Arc::new(resource));
    }
    let Meta {
        warnings,
        headline,
        prompts,
    } = serde_json::from_slice(r.bytes()?).ok()?;
    let listing = Listing {
        brands_json: r.text()?,
        llms_line: r.text()?,
    };
    (r.at == r.data.len() && warnings.iter().all(|w| w.severity() == Severity::Warning)).then_some(
        CachedRender {
            resources,
            warnings,
            listing,
            headline,
            prompts,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> CachedRender {
        let mut resources = Resources::new();
        resources.insert(
            "/brand/acme/spec.md".into(),
            Arc::new(
                Resource::new(
                    "text/markdown; charset=utf-8",
                    "# Acme\n\nA body that compresses. ".repeat(20),
                    CachePolicy::Current(60),
                )
                .with_header("content-security-policy", "default-src 'none'"),
            ),
        );
        CachedRender {
            resources,
            warnings: vec![crate::spec::diag::file_diagnostic(
                crate::spec::diag::Code::LeftOutOfFigma,
                "acme",
                "acme/tokens.json",
                "w",
            )],
            listing: Listing {
                brands_json: "{}".into(),
                llms_line: "- [Acme](x)\n".into(),
            },
            headline: crate::render::Headline {
                name: "Acme".into(),
                summary: None,
                version: "1.0.0".into(),
                updated: "2026-01-01".into(),
                private: true,
                embargo: None,
            },
            prompts: vec![crate::spec::model::Prompt::default()],
        }
    }

    #[test]
    fn an_entry_round_trips_and_any_damage_is_refused() {
        let input = [7u8; 32];
        let bytes = encode(&input, &entry());
        let back = decode(&bytes, &input).expect("a sound entry loads");
        let r = &back.resources["/brand/acme/spec.md"];
        let original = &entry().resources["/brand/acme/spec.md"];
        assert_eq!(r.body(), original.body());
        assert_eq!(r.identity.held_body(), original.identity.held_body());
        assert_eq!(r.identity.etag, original.identity.etag);
        assert_eq!(
            r.br.as_ref().unwrap().body,
            original.br.as_ref().unwrap().body
        );
        assert_eq!(r.headers, original.headers);
        assert_eq!(back.warnings.len(), 1);
        assert_eq!(back.listing.llms_line, "- [Acme](x)\n");
        // Another input's key, a flipped byte, a cut file: refused.
        assert!(decode(&bytes, &[8u8; 32]).is_none());
        for i in [0, MAGIC.len() + 3, bytes.len() / 2, bytes.len() - 1] {
            let mut damaged = bytes.clone();
            damaged[i] ^= 1;
            assert!(decode(&damaged, &input).is_none(), "byte {i}");
        }
        assert!(decode(&bytes[..bytes.len() - 40], &input).is_none());
        assert!(decode(b"", &input).is_none());
    }
}
