//! A browser's session: the token's name and the moment it ends, signed
//! with HMAC-SHA256 under a key made of the server's session secret and
//! the token's hash. So every replica that shares the secret and reads
//! the same tokens file accepts it; taking a token out of the file ends
//! its sessions; the cookie says nothing of the token; and the tokens file
//! alone (which holds hashes only) cannot mint one. A session lasts at
//! most [`LIFETIME`]: a cookie that claims to end later is refused.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The cookie's name.
pub const COOKIE: &str = "marque_session";

/// The longest a session lasts, in seconds (12 hours).
pub const LIFETIME: u64 = 12 * 60 * 60;

/// The server's session secret: generated once and kept in the cache
/// directory, or given (`MARQUE_SESSION_SECRET`); never in the tokens file.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret([u8; 32]);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(…)")
    }
}

impl Secret {
    /// A secret of these bytes.
    pub fn new(bytes: [u8; 32]) -> Secret {
        Secret(bytes)
    }

    /// A secret from a passphrase an operator gives (its SHA-256).
    pub fn from_text(text: &str) -> Secret {
        use sha2::Digest;
        Secret(Sha256::digest(text.trim().as_bytes()).into())
    }

    /// The key sessions of the token whose hash is `token` are signed with.
    fn key_for(&self, token: &[u8; 32]) -> [u8; 32] {
        let mut m = <Hmac<Sha256> as Mac>::new_from_slice(&self.0).expect("HMAC takes any key");
        m.update(b"marque-session-key\0");
        m.update(token);
        m.finalize().into_bytes().into()
    }
}

/// A session's claims: `<name>.<ends, Unix seconds>.<signature hex>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub name: String,
    pub ends: u64,
    signature: Vec<u8>,
}

fn mac(key: &[u8; 32], name: &str, ends: u64) -> Vec<u8> {
    let mut m = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes any key");
    m.update(b"marque-session\0");
    m.update(name.as_bytes());
    m.update(b"\0");
    m.update(ends.to_string().as_bytes());
    m.finalize().into_bytes().to_vec()
}

impl Session {
    pub fn new(name: &str, ends: u64) -> Session {
        Session {
            name: name.to_string(),
            ends,
            signature: Vec::new(),
        }
    }

    /// The cookie's value, signed for the token whose hash is `token`.
    pub fn sign(&self, secret: &Secret, token: &[u8; 32]) -> String {
        let sig = mac(&secret.key_for(token), &self.name, self.ends);
        format!("{}.{}.{}", self.name, self.ends, super::hex(&sig))
    }

    /// Reads a cookie's value; `None` for anything not of its shape.
    pub fn parse(value: &str) -> Option<Session> {
        let mut parts = value.splitn(3, '.');
        let name = parts.next()?;
        let ends = parts.next()?.parse().ok()?;
        let hex = parts.next()?;
        // Lower-case hex only, as it is written: one cookie, one spelling.
        let lower = hex
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
        if hex.len() != 64 || name.is_empty() || !lower {
            return None;
        }
        let signature = (0..32)
            .map(|i| u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok())
            .collect::<Option<Vec<u8>>>()?;
        Some(Session {
            name: name.to_string(),
            ends,
            signature,
        })
    }

    /// True when it was signed for the token whose hash is `token`, has
    /// not ended at `now`, and ends no later than a session may.
    pub fn valid(&self, secret: &Secret, token: &[u8; 32], now: u64) -> bool {
        let expected = mac(&secret.key_for(token), &self.name, self.ends);
        let good = super::same(&expected, &self.signature);
        good && now < self.ends && self.ends <= now.saturating_add(LIFETIME)
    }
}
