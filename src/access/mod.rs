//! Who may read what is not public (DESIGN.md §20): access tokens, read
//! from the operator's file and compared in constant time; the signed
//! session a browser gets for one; and a client's failed attempts,
//! counted so that guessing stops at ten a minute.
//!
//! A token is never kept, only its SHA-256; neither reaches a log, a
//! status document or an error. Nothing here reads a file or the clock:
//! the file's text and the time come in as values.

pub mod failures;
mod session;

pub use failures::Failures;
pub use session::{Secret, Session, COOKIE, LIFETIME};

use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::fmt;
use std::sync::Arc;

/// Which private brands a token opens.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Every private brand (a line with no slugs).
    All,
    /// The brands named on its line.
    Brands(BTreeSet<String>),
}

impl Scope {
    /// True when the scope opens the brand `slug`.
    pub fn covers(&self, slug: &str) -> bool {
        match self {
            Scope::All => true,
            Scope::Brands(slugs) => slugs.contains(slug),
        }
    }
}

/// One line of the tokens file: a name (what logs may say), the token's
/// SHA-256 and its scope.
#[derive(Clone, PartialEq, Eq)]
pub struct Token {
    pub name: String,
    hash: [u8; 32],
    pub scope: Scope,
}

/// Never prints the hash.
impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Token")
            .field("name", &self.name)
            .field("scope", &self.scope)
            .finish_non_exhaustive()
    }
}

/// The tokens of one reading of the file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tokens {
    list: Vec<Token>,
}

/// A token name: what the file, the logs and the session cookie say.
fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// 64 hex digits as 32 bytes.
pub fn unhex32(s: &str) -> Option<[u8; 32]> {
    hex32(s)
}

fn hex32(s: &str) -> Option<[u8; 32]> {
    if s.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (o, pair) in out.iter_mut().zip(s.as_bytes().chunks(2)) {
        *o = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(out)
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// True when `a` and `b` are equal, in a time that depends only on their
/// length (which is public: both are digests).
pub fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let diff = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(diff) == 0
}

impl Tokens {
    /// Reads the file's text: lines `name:sha256-hex[:slug,slug…]`, `#`
    /// comments and blank lines. An error names the line, never its hash.
    pub fn parse(text: &str) -> Result<Tokens, String> {
        let mut list: Vec<Token> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = i + 1;
            let mut parts = line.splitn(3, ':');
            let (name, hash) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            if !is_name(name) {
                return Err(format!(
                    "line {at}: a token's name is letters, digits, `-` and `_` (at most 64), then `:`"
                ));
            }
            let Some(hash) = hex32(hash.trim()) else {
                return Err(format!(
                    "line {at} (token `{name}`): the second field must be the token's SHA-256 as 64 hex digits (`marque token` prints the line)"
                ));
            };
            let scope = match parts.next().map(str::trim) {
                None | Some("") => Scope::All,
                Some(slugs) => {
                    let set: BTreeSet<String> = slugs
                        .split(',')
                        .map(|s| s.trim().to_string())
                        .filter(|s| !s.is_empty())
                        .collect();
                    if let Some(bad) = set.iter().find(|s| !crate::spec::brand::is_slug(s)) {
                        return Err(format!(
                            "line {at} (token `{name}`): `{}` is not a brand slug",
                            crate::spec::diag::clipped(bad)
                        ));
                    }
                    Scope::Brands(set)
                }
            };
            if list.iter().any(|t| t.name == name) {
                return Err(format!("line {at}: a second token named `{name}`"));
            }
            list.push(Token {
                name: name.to_string(),
                hash,
                scope,
            });
        }
        Ok(Tokens { list })
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// The token `presented` is, if any: its SHA-256 compared with every
    /// line's in constant time (every line, whichever matches).
    pub fn find(&self, presented: &str) -> Option<&Token> {
        let digest: [u8; 32] = Sha256::digest(presented.as_bytes()).into();
        let mut found = None;
        for t in &self.list {
            if same(&t.hash, &digest) {
                found = Some(t);
            }
        }
        found
    }

    /// The token named `name`, if the file still has it.
    pub fn named(&self, name: &str) -> Option<&Token> {
        self.list.iter().find(|t| t.name == name)
    }

    /// Each distinct scope of the file, once.
    pub fn scopes(&self) -> Vec<Scope> {
        let set: BTreeSet<&Scope> = self.list.iter().map(|t| &t.scope).collect();
        set.into_iter().cloned().collect()
    }
}

/// A new token: 32 random bytes from the operating system, as `mq_` and
/// 64 hex digits.
pub fn new_token(random: [u8; 32]) -> String {
    format!("mq_{}", hex(&random))
}

/// The tokens file's line for `token`.
pub fn line_for(name: &str, token: &str, slugs: &[String]) -> Result<String, String> {
    if !is_name(name) {
        return Err(format!(
            "`{}` is not a token name: letters, digits, `-` and `_`, at most 64",
            crate::spec::diag::clipped(name)
        ));
    }
    if let Some(bad) = slugs.iter().find(|s| !crate::spec::brand::is_slug(s)) {
        return Err(format!(
            "`{}` is not a brand slug",
            crate::spec::diag::clipped(bad)
        ));
    }
    let hash = hex(&Sha256::digest(token.as_bytes()));
    Ok(match slugs.is_empty() {
        true => format!("{name}:{hash}"),
        false => format!("{name}:{hash}:{}", slugs.join(",")),
    })
}

/// The access tokens a server runs with, read again on SIGHUP or when the
/// file changes, and the failed attempts of its clients.
#[derive(Debug)]
pub struct Access {
    tokens: arc_swap::ArcSwap<Tokens>,
    pub failures: Failures,
    /// `--preview-access token`: branch previews answer token holders only.
    pub previews: bool,
    /// `Secure` on the session cookie (the public URL is `https`).
    pub secure: bool,
    /// Set when the tokens are replaced by different ones: the snapshots
    /// of each scope are made again.
    changed: std::sync::atomic::AtomicBool,
    /// What session cookies are signed with (never in the tokens file).
    secret: Secret,
}

impl Access {
    pub fn new(tokens: Tokens, previews: bool, secure: bool, secret: Secret) -> Access {
        Access {
            tokens: arc_swap::ArcSwap::from_pointee(tokens),
            failures: Failures::default(),
            previews,
            secure,
            changed: Default::default(),
            secret,
        }
    }

    /// Who sends `bearer` and `session` at `now` (see [`Tokens::holder`]).
    pub fn holder(&self, bearer: Option<&str>, session: Option<&str>, now: u64) -> Holder {
        self.tokens().holder(bearer, session, &self.secret, now)
    }

    /// A session cookie's value for the token `presented` (see [`Tokens::sign_in`]).
    pub fn sign_in(&self, presented: &str, now: u64) -> Option<String> {
        self.tokens().sign_in(presented, &self.secret, now)
    }

    /// The tokens as last read.
    pub fn tokens(&self) -> Arc<Tokens> {
        self.tokens.load_full()
    }

    /// Serves `tokens` from now on; true when they differ from those before.
    pub fn replace(&self, tokens: Tokens) -> bool {
        let before = self.tokens.swap(Arc::new(tokens));
        let changed = *before != *self.tokens.load_full();
        if changed {
            self.changed
                .store(true, std::sync::atomic::Ordering::SeqCst);
        }
        changed
    }

    /// True once after the tokens changed.
    pub fn take_changed(&self) -> bool {
        self.changed
            .swap(false, std::sync::atomic::Ordering::SeqCst)
    }
}

/// What a request's credentials come to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Holder {
    /// None were sent (or only a session that has ended).
    Anonymous,
    /// A valid token, by bearer or session, and its scope.
    Token { name: String, scope: Scope },
    /// A bearer token that is valid nowhere: a failed attempt.
    Failed,
}

impl Tokens {
    /// Who sends `bearer` (the `Authorization: Bearer` value) and
    /// `session` (the cookie's value), at `now` (Unix seconds). A session
    /// that has ended, or whose token left the file, is no credential; a
    /// bearer token that is valid nowhere is a failed attempt.
    pub fn holder(
        &self,
        bearer: Option<&str>,
        session: Option<&str>,
        secret: &Secret,
        now: u64,
    ) -> Holder {
        if let Some(presented) = bearer {
            return match self.find(presented) {
                Some(t) => Holder::Token {
                    name: t.name.clone(),
                    scope: t.scope.clone(),
                },
                None => Holder::Failed,
            };
        }
        let Some(session) = session.and_then(Session::parse) else {
            return Holder::Anonymous;
        };
        match self.named(&session.name) {
            Some(t) if session.valid(secret, &t.hash, now) => Holder::Token {
                name: t.name.clone(),
                scope: t.scope.clone(),
            },
            _ => Holder::Anonymous,
        }
    }

    /// A session for the token `presented`, signed with `secret`, ending
    /// [`session::LIFETIME`] after `now`: the cookie's value, or `None` for
    /// a token valid nowhere.
    pub fn sign_in(&self, presented: &str, secret: &Secret, now: u64) -> Option<String> {
        let t = self.find(presented)?;
        Some(Session::new(&t.name, now + session::LIFETIME).sign(secret, &t.hash))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(lines: &[(&str, &str, &str)]) -> Tokens {
        let text: Vec<String> = lines
            .iter()
            .map(|(n, t, s)| {
                let slugs: Vec<String> = s
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect();
                line_for(n, t, &slugs).unwrap()
            })
            .collect();
        Tokens::parse(&format!("# tokens\n\n{}\n", text.join("\n"))).unwrap()
    }

    #[test]
    fn a_line_names_a_hash_and_its_scope() {
        let tokens = file(&[
            ("ci", "secret-a", ""),
            ("client", "secret-b", "acme,globex"),
        ]);
        assert_eq!(tokens.find("secret-a").unwrap().scope, Scope::All);
        let b = tokens.find("secret-b").unwrap();
        assert!(b.scope.covers("acme") && !b.scope.covers("initech"));
        assert!(tokens.find("secret-c").is_none());
        assert_eq!(tokens.scopes().len(), 2);
    }

    #[test]
    fn a_bad_line_is_named_without_its_hash() {
        let e = Tokens::parse("ok:zz\n").unwrap_err();
        assert!(e.starts_with("line 1 (token `ok`)"), "{e}");
        assert!(Tokens::parse("bad name:00\n")
            .unwrap_err()
            .starts_with("line 1"));
        let h = hex(&Sha256::digest(b"x"));
        let e = Tokens::parse(&format!("a:{h}:Not A Slug\n")).unwrap_err();
        assert!(e.contains("not a brand slug") && !e.contains(&h), "{e}");
        let e = Tokens::parse(&format!("a:{h}\na:{h}\n")).unwrap_err();
        assert!(e.contains("second token named `a`"), "{e}");
    }

    #[test]
    fn sessions_hold_until_they_end_or_their_token_goes() {
        let tokens = file(&[("ci", "secret-a", "acme")]);
        let secret = Secret::new([7; 32]);
        let cookie = tokens.sign_in("secret-a", &secret, 1_000).unwrap();
        assert!(!cookie.contains("secret-a"));
        let end = 1_000 + session::LIFETIME;
        let holder = |t: &Tokens, now| t.holder(None, Some(&cookie), &secret, now);
        assert!(matches!(holder(&tokens, end - 1), Holder::Token { .. }));
        assert_eq!(holder(&tokens, end), Holder::Anonymous);
        let rotated = file(&[("ci", "secret-new", "acme")]);
        assert_eq!(holder(&rotated, 1_001), Holder::Anonymous);
        // Another server's secret, or a forged signature, is no credential.
        let other = Secret::new([8; 32]);
        assert_eq!(
            tokens.holder(None, Some(&cookie), &other, 1_001),
            Holder::Anonymous
        );
        let forged = format!("{}0", &cookie[..cookie.len() - 1]);
        let anonymous = |c: &str| tokens.holder(None, Some(c), &secret, 1_001) == Holder::Anonymous;
        assert!(anonymous(&forged));
        assert!(anonymous(&cookie.to_uppercase().replace("CI.", "ci.")));
        assert_eq!(
            tokens.holder(Some("nope"), None, &secret, 1_001),
            Holder::Failed
        );
        assert!(tokens.sign_in("nope", &secret, 1_000).is_none());
    }

    #[test]
    fn the_tokens_file_alone_mints_no_session_and_none_outlives_its_lifetime() {
        let tokens = file(&[("ci", "secret-a", "acme")]);
        let secret = Secret::new([7; 32]);
        let hash: [u8; 32] = Sha256::digest(b"secret-a").into();
        // Keyed by the hash alone, as sessions once were: refused.
        let from_file = {
            let mut m = <hmac::Hmac<Sha256> as hmac::Mac>::new_from_slice(&hash).unwrap();
            hmac::Mac::update(&mut m, b"marque-session\x00ci\x004102444800");
            hex(&hmac::Mac::finalize(m).into_bytes())
        };
        let cookie = format!("ci.4102444800.{from_file}");
        assert_eq!(
            tokens.holder(None, Some(&cookie), &secret, 1_000),
            Holder::Anonymous
        );
        // Signed with the secret but ending past a session's lifetime: refused.
        let long = Session::new("ci", 1_000 + session::LIFETIME + 1).sign(&secret, &hash);
        assert_eq!(
            tokens.holder(None, Some(&long), &secret, 1_000),
            Holder::Anonymous
        );
        let right = Session::new("ci", 1_000 + session::LIFETIME).sign(&secret, &hash);
        assert!(matches!(
            tokens.holder(None, Some(&right), &secret, 1_000),
            Holder::Token { .. }
        ));
    }

    #[test]
    fn equal_digests_and_only_those_are_the_same() {
        assert!(same(&[1, 2, 3], &[1, 2, 3]));
        assert!(!same(&[1, 2, 3], &[1, 2, 4]));
        assert!(!same(&[1, 2], &[1, 2, 3]));
    }
}
