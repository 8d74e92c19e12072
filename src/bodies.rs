//! One copy of each body: every file read and every resource rendered is
//! held by the SHA-256 of its bytes, so identical bodies share one
//! allocation (a release's logo and the current one, the unchanged bodies
//! of two builds, a body read back from the render cache, two brands'
//! equal token files). An entry lives as long as something holds its body.
//!
//! Below the pure core: bytes in, shared bytes out, no HTTP types. The
//! readers and the builder reach it through a [`Bodies`] handle, so a
//! signature says when bytes are shared; the server runs one
//! ([`Bodies::process`]) because bodies only meet when every reader and
//! every build uses the same one.
//!
//! A large text body is held only as its gzip coding once it has one (see
//! `snapshot::Identity`); the few clients that take no coding get it
//! inflated, and [`Bodies::inflated`] keeps the bodies inflated lately, up
//! to [`RECENT_BYTES`], so that a body such a client asks for often is
//! inflated once, not on every request.

use bytes::Bytes;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, Weak};

/// A body's key: the first 128 bits of the SHA-256 of its bytes (what its
/// ETag names).
pub type Key = [u8; 16];

/// A body's key and the gzip and brotli levels it was compressed at.
pub type Compressed = (Key, (u32, u32));

/// The keys of a body's gzip and brotli codings (`None`: not worth keeping).
pub type CodingKeys = (Option<Key>, Option<Key>);

/// A coding made before and still held: its key and its bytes (`None`: not
/// worth keeping).
pub type Coding = Option<(Key, Bytes)>;

/// The key of bytes whose SHA-256 is `digest`.
pub fn key_of(digest: &[u8; 32]) -> Key {
    let mut key = [0u8; 16];
    key.copy_from_slice(&digest[..16]);
    key
}

/// A body shared by every resource that holds the same bytes. The bytes
/// are boxed, not inline in the `Arc`: the interner holds a `Weak` to
/// each, and a `Weak` keeps an `Arc`'s allocation alive. With the bytes
/// inline, every dropped body (each save drops the tens of megabytes of
/// the documents that list every brand) stayed allocated until the next
/// sweep of the map; boxed, only the small `Arc` itself waits.
struct SharedBody(Arc<Box<[u8]>>);

impl AsRef<[u8]> for SharedBody {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// Appends `bytes` to `out` as one raw deflate stream, made by `deflater`
/// reset first: a compressor kept for many bodies (a new one zeroes a
/// quarter of a megabyte of tables).
pub fn deflate(deflater: &mut flate2::Compress, bytes: &[u8], out: &mut Vec<u8>) {
    deflater.reset();
    loop {
        let read = deflater.total_in() as usize;
        let status = deflater
            .compress_vec(&bytes[read..], out, flate2::FlushCompress::Finish)
            .expect("deflating in memory");
        if status == flate2::Status::StreamEnd {
            return;
        }
        out.reserve(out.capacity().max(64));
    }
}

thread_local! {
    /// A compressor per level on each thread, reset for each body: a new
    /// one allocates and zeroes a quarter of a megabyte of tables, which
    /// for the small entries of a brand's archives cost more than the
    /// compressing (a tenth of a cold start, with three archives a brand).
    static DEFLATERS: std::cell::RefCell<Vec<(u32, flate2::Compress)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// [`deflate`] at `level`, by this thread's compressor for that level.
/// The bytes are those a new compressor would make.
pub fn deflate_at(level: u32, bytes: &[u8], out: &mut Vec<u8>) {
    DEFLATERS.with_borrow_mut(|deflaters| {
        let at = match deflaters.iter().position(|(l, _)| *l == level) {
            Some(at) => at,
            None => {
                let fresh = flate2::Compress::new(flate2::Compression::new(level), false);
                deflaters.push((level, fresh));
                deflaters.len() - 1
            }
        };
        deflate(&mut deflaters[at].1, bytes, out);
    });
}

/// `body` in gzip at `level`, with the header flate2's `GzEncoder` writes
/// (no name, no time, the level's XFL, OS unknown), by this thread's
/// compressor ([`deflate_at`]).
pub fn gzip(body: &[u8], level: u32) -> Vec<u8> {
    let xfl = match level {
        9.. => 2,
        0 | 1 => 4,
        _ => 0,
    };
    let mut out = Vec::with_capacity(body.len() / 3 + 64);
    out.extend_from_slice(&[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, xfl, 255]);
    deflate_at(level, body, &mut out);
    out.extend_from_slice(&crc32fast::hash(body).to_le_bytes());
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out
}

/// A handle on a set of shared bodies; clones share the set.
#[derive(Clone, Default)]
pub struct Bodies(Arc<Sets>);

#[derive(Default)]
struct Sets {
    interner: Mutex<Interner>,
    /// Its own lock: a request for an inflated body never waits for a build.
    recent: Mutex<Recent>,
}

/// The bytes of inflated bodies held at most (a few hundred pages, spec
/// documents or token files).
pub const RECENT_BYTES: usize = 32 * 1024 * 1024;

/// Bodies inflated lately, each with the tick it was last asked for.
#[derive(Default)]
struct Recent {
    bodies: HashMap<Key, (Bytes, u64)>,
    bytes: usize,
    tick: u64,
}

impl Recent {
    fn get(&mut self, key: &Key) -> Option<Bytes> {
        self.tick += 1;
        let (body, used) = self.bodies.get_mut(key)?;
        *used = self.tick;
        Some(body.clone())
    }

    /// Keeps `body`; over the budget, the least recently asked for go
    /// until a quarter of it is free (one sort for many insertions).
    fn keep(&mut self, key: Key, body: Bytes, budget: usize) {
        if body.len() > budget / 4 {
            return;
        }
        self.tick += 1;
        self.bytes += body.len();
        if let Some((old, _)) = self.bodies.insert(key, (body, self.tick)) {
            self.bytes -= old.len();
        }
        if self.bytes > budget {
            let mut by_use: Vec<(u64, Key)> = self
                .bodies
                .iter()
                .map(|(k, (_, used))| (*used, *k))
                .collect();
            by_use.sort_unstable();
            for (_, key) in by_use {
                if self.bytes <= budget - budget / 4 {
                    break;
                }
                if let Some((gone, _)) = self.bodies.remove(&key) {
                    self.bytes -= gone.len();
                }
            }
        }
    }
}

static PROCESS: LazyLock<Bodies> = LazyLock::new(Bodies::default);

#[derive(Default)]
struct Interner {
    bodies: HashMap<Key, Weak<Box<[u8]>>>,
    /// What compressing a body at given levels made, by the keys of the
    /// body and of its gzip and brotli codings, so that a body equal to one
    /// compressed before is not compressed again while those codings are
    /// held.
    codings: HashMap<Compressed, CodingKeys>,
    /// Entries at the last sweep of dropped bodies.
    swept_at: usize,
}

impl Interner {
    fn held(&self, key: &Key) -> Option<Bytes> {
        let shared = self.bodies.get(key)?.upgrade()?;
        Some(Bytes::from_owner(SharedBody(shared)))
    }
}

impl Bodies {
    /// The set the server, its readers and its builds share.
    pub fn process() -> &'static Bodies {
        &PROCESS
    }

    fn lock(&self) -> MutexGuard<'_, Interner> {
        // A poisoned lock only means another thread panicked mid-insert;
        // the map is still a valid map.
        self.0.interner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The body of `key` (`len` bytes), inflated from `gzip`, its gzip
    /// coding, or taken from the bodies inflated lately; an empty body if
    /// `gzip` does not inflate to `len` bytes (it always does: marque made
    /// it from those bytes).
    pub fn inflated(&self, key: Key, gzip: &[u8], len: usize) -> Bytes {
        let recent = || self.0.recent.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(body) = recent().get(&key) {
            return body;
        }
        let mut body = Vec::with_capacity(len);
        let whole = std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(gzip), &mut body)
            .is_ok_and(|n| n == len);
        if !whole {
            // A broken invariant, not a client's doing: say so where an
            // operator looks, since the answer will be cut short.
            tracing::error!(len, "a gzip coding marque made did not inflate to its body");
            return Bytes::new();
        }
        let body = Bytes::from(body);
        recent().keep(key, body.clone(), RECENT_BYTES);
        body
    }

    /// Bytes of the bodies inflated lately that are held now.
    pub fn inflated_bytes(&self) -> usize {
        self.0
            .recent
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .bytes
    }

    /// The one shared copy of `body`, whose SHA-256 is `digest`: what a
    /// resource with the same bytes holds too.
    pub fn share(&self, body: &[u8], digest: &[u8; 32]) -> Bytes {
        self.intern(key_of(digest), body)
    }

    /// The one shared copy of `body`, whose hash starts with `key`.
    pub fn intern(&self, key: Key, body: &[u8]) -> Bytes {
        let mut interner = self.lock();
        if let Some(shared) = interner.bodies.get(&key).and_then(Weak::upgrade) {
            if shared.len() == body.len() {
                return Bytes::from_owner(SharedBody(shared));
            }
        }
        let shared: Arc<Box<[u8]>> = Arc::new(Box::from(body));
        interner.bodies.insert(key, Arc::downgrade(&shared));
        if interner.bodies.len() > 2 * interner.swept_at + 1024 {
            interner.bodies.retain(|_, w| w.strong_count() > 0);
            let Interner {
                bodies, codings, ..
            } = &mut *interner;
            codings.retain(|(key, _), _| bodies.contains_key(key));
            interner.swept_at = interner.bodies.len();
        }
        Bytes::from_owner(SharedBody(shared))
    }

    /// The body of `key`, if something holds it.
    pub fn held(&self, key: &Key) -> Option<Bytes> {
        self.lock().held(key)
    }

    /// The codings made before of the body `c` names, each with its key,
    /// if each is still held (`Some(None)`: not worth keeping).
    pub fn codings(&self, c: &Compressed) -> Option<(Coding, Coding)> {
        let interner = self.lock();
        let (gz, br) = interner.codings.get(c)?;
        let coding = |key: &Option<Key>| -> Option<Coding> {
            match key {
                None => Some(None),
                Some(key) => Some(Some((*key, interner.held(key)?))),
            }
        };
        Some((coding(gz)?, coding(br)?))
    }

    /// Remembers the codings compressing the body `c` names made.
    pub fn remember(&self, c: Compressed, keys: CodingKeys) {
        self.lock().codings.insert(c, keys);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gz(body: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        e.write_all(body).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn gzip_by_a_kept_compressor_inflates_and_is_what_flate2_writes() {
        use std::io::{Read, Write};
        let body = "a body compressed by a compressor kept for many. ".repeat(500);
        for level in [1, 6, 9] {
            let mut back = String::new();
            flate2::read::GzDecoder::new(&gzip(body.as_bytes(), level)[..])
                .read_to_string(&mut back)
                .unwrap();
            assert_eq!(back, body, "level {level}");
        }
        // At 1 flate2's writer ends with an empty block of its own; at 6 and
        // 9 (the codings kept and package.tgz) the bytes are the same.
        for level in [6, 9] {
            // Twice: the second time by the compressor the first one left.
            for _ in 0..2 {
                let mut e = flate2::GzBuilder::new()
                    .mtime(0)
                    .write(Vec::new(), flate2::Compression::new(level));
                e.write_all(body.as_bytes()).unwrap();
                assert_eq!(
                    gzip(body.as_bytes(), level),
                    e.finish().unwrap(),
                    "level {level}"
                );
            }
        }
    }

    #[test]
    fn an_inflated_body_is_kept_and_asked_for_again_without_inflating() {
        let bodies = Bodies::default();
        let body = vec![b'x'; 10_000];
        let first = bodies.inflated([1; 16], &gz(&body), body.len());
        assert_eq!(first[..], body[..]);
        // The same key again comes from the kept copy, whatever is passed.
        let again = bodies.inflated([1; 16], b"not gzip", body.len());
        assert_eq!(again.as_ptr(), first.as_ptr());
        assert_eq!(bodies.inflated_bytes(), 10_000);
        // A coding that does not inflate to the length gives nothing, kept nowhere.
        assert!(bodies.inflated([2; 16], &gz(b"short"), 100).is_empty());
        assert!(bodies.inflated([3; 16], b"not gzip", 100).is_empty());
        assert_eq!(bodies.inflated_bytes(), 10_000);
    }

    #[test]
    fn the_bodies_asked_for_least_lately_go_first_and_the_budget_holds() {
        let mut recent = Recent::default();
        let budget = 4_000;
        for k in 0..4u8 {
            recent.keep([k; 16], Bytes::from(vec![k; 900]), budget);
        }
        assert_eq!(recent.bytes, 3_600);
        // Asking for 0 makes 1 the least recently asked for.
        assert!(recent.get(&[0; 16]).is_some());
        recent.keep([9; 16], Bytes::from(vec![9; 900]), budget);
        assert!(recent.bytes <= 3_000, "{}", recent.bytes);
        assert!(
            recent.get(&[1; 16]).is_none(),
            "least lately asked for: gone"
        );
        assert!(recent.get(&[0; 16]).is_some(), "asked for lately: kept");
        assert!(recent.get(&[9; 16]).is_some());
        // A body over a quarter of the budget is never kept.
        recent.keep([7; 16], Bytes::from(vec![7; 1_001]), budget);
        assert!(recent.get(&[7; 16]).is_none());
    }
}
