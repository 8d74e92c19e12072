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

/// A handle on a set of shared bodies; clones share the set.
#[derive(Clone, Default)]
pub struct Bodies(Arc<Mutex<Interner>>);

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
        self.0.lock().unwrap_or_else(|e| e.into_inner())
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
