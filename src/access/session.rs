//! A browser's session: the token's name and the moment it ends, signed
//! with HMAC-SHA256 keyed by the token's hash. So every replica that reads
//! the same tokens file accepts it, taking a token out of the file ends
//! its sessions, and the cookie says nothing of the token.

use hmac::{Hmac, Mac};
use sha2::Sha256;

/// The cookie's name.
pub const COOKIE: &str = "marque_session";

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

    /// The cookie's value, signed with `key` (the token's hash).
    pub fn sign(&self, key: &[u8; 32]) -> String {
        let sig = mac(key, &self.name, self.ends);
        format!("{}.{}.{}", self.name, self.ends, super::hex(&sig))
    }

    /// Reads a cookie's value; `None` for anything not of its shape.
    pub fn parse(value: &str) -> Option<Session> {
        let mut parts = value.splitn(3, '.');
        let name = parts.next()?;
        let ends = parts.next()?.parse().ok()?;
        let hex = parts.next()?;
        if hex.len() != 64 || name.is_empty() {
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

    /// True when `key` signed it and it has not ended at `now`.
    pub fn valid(&self, key: &[u8; 32], now: u64) -> bool {
        let good = super::same(&mac(key, &self.name, self.ends), &self.signature);
        good && now < self.ends
    }
}
