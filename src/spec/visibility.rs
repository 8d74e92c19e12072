//! What a brand.json says of who may read its brand, read without trusting
//! it (DESIGN.md §20). A brand is private until its brand.json proves it
//! public: one that cannot be read as text (not UTF-8, over the size
//! limit, a link out of the folder), that names `visibility` or `embargo`,
//! or that escapes a key with `\u` (which could spell either) is guarded:
//! while no version of it is served, nothing about it is shown to readers
//! who may not see private brands. A release's tagged brand.json says
//! whether that release was private and when its embargo lifts.
//!
//! Pure: bytes in, a verdict out.

use super::release::Declared;
use super::BrandFiles;
use chrono::{DateTime, Utc};

/// What a brand folder's brand.json may say of who reads it, before it is
/// parsed (the build keeps a brand's last good render while its latest
/// brand.json does not parse).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Guard {
    /// It names `visibility`: it may be private.
    pub visibility: bool,
    /// It names `embargo`: it may be under embargo.
    pub embargo: bool,
    /// It cannot be read as text (UTF-16; over the size limit or a link
    /// out, which leave it out of the files), or escapes a key: it may say
    /// either.
    /// (A brand already published has its last good version to say what
    /// it is; one never published is private until it is.)
    pub unknown: bool,
}

impl Guard {
    /// What `files`' brand.json may say.
    pub fn of(files: &BrandFiles) -> Guard {
        let unreadable = files
            .problems
            .iter()
            .any(|d| d.file == format!("{}/brand.json", files.slug));
        let Some(json) = files.get("brand.json") else {
            return Guard {
                unknown: unreadable,
                ..Guard::default()
            };
        };
        // UTF-16 (or 32) from a Windows editor, say: no key can be seen in
        // it. Its byte-order mark, or the NUL of any ASCII character in
        // it, tells it (one search, at every build of every brand).
        let wide = json.starts_with(&[0xff, 0xfe])
            || json.starts_with(&[0xfe, 0xff])
            || memchr::memchr(0, json).is_some();
        if wide {
            return Guard {
                unknown: true,
                ..Guard::default()
            };
        }
        let says = |text: &[u8]| memchr::memmem::find(json, text).is_some();
        Guard {
            visibility: says(b"\"visibility\""),
            embargo: says(b"\"embargo\""),
            unknown: escapes_a_key(json),
        }
    }

    /// True when the brand may be private or embargoed.
    pub fn any(self) -> bool {
        self.visibility || self.embargo || self.unknown
    }
}

/// True when a key of the JSON text `json` holds a `\u` escape: a string
/// with one, followed by `:`. Escapes in values (`"Caf\u00e9"`, as
/// Python's `json.dump` writes every name) hide nothing.
pub fn escapes_a_key(json: &[u8]) -> bool {
    // Most files escape nothing: one search, and done.
    if memchr::memmem::find(json, b"\\u").is_none() {
        return false;
    }
    let mut i = 0;
    while i < json.len() {
        if json[i] != b'"' {
            i += 1;
            continue;
        }
        // A string: find its end, noting a `\u` in it.
        let mut j = i + 1;
        let mut has_u = false;
        while j < json.len() && json[j] != b'"' {
            if json[j] == b'\\' {
                has_u |= json.get(j + 1) == Some(&b'u');
                j += 1;
            }
            j += 1;
        }
        let mut k = j + 1;
        while k < json.len() && json[k].is_ascii_whitespace() {
            k += 1;
        }
        if has_u && json.get(k) == Some(&b':') {
            return true;
        }
        i = j + 1;
    }
    false
}

/// What the brand.json `json` (of a tagged commit) declares.
pub fn declared(json: Option<&[u8]>) -> Declared {
    let never = Declared {
        private: true,
        embargo: Some(DateTime::<Utc>::MAX_UTC),
    };
    let Some(doc) = json.and_then(super::brand::brand_json) else {
        return never;
    };
    if json.is_some_and(escapes_a_key) {
        return never;
    }
    let embargo = doc.get("embargo").map(|v| {
        v.as_str()
            .and_then(|s| super::brand::parse_embargo(s).ok())
            .unwrap_or(DateTime::<Utc>::MAX_UTC)
    });
    Declared {
        private: doc.get("visibility").and_then(|v| v.as_str()) != Some("public")
            && doc.get("visibility").is_some(),
        embargo,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_brand_json_in_utf16_or_escaping_a_key_may_say_anything() {
        let files = |bytes: &[u8]| BrandFiles::from_texts("a", [("brand.json", bytes)]);
        let text = r#"{"name": "A", "visibility": "private"}"#;
        let utf16: Vec<u8> = [0xff, 0xfe]
            .into_iter()
            .chain(text.encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert!(Guard::of(&files(&utf16)).unknown);
        let plain = Guard::of(&files(text.as_bytes()));
        assert!(plain.visibility && !plain.unknown);
        assert!(Guard::of(&files(br#"{"vis\u0069bility": "public"}"#)).unknown);
        assert_eq!(
            Guard::of(&files(br#"{"name": "Caf\u00e9"}"#)),
            Guard::default()
        );
    }

    #[test]
    fn only_an_escape_in_a_key_hides_what_a_brand_json_says() {
        assert!(!escapes_a_key(br#"{"name": "Caf\u00e9", "v": "1"}"#));
        assert!(escapes_a_key(br#"{"vis\u0069bility": "private"}"#));
        assert!(escapes_a_key(br#"{"a": {"\u0065mbargo" : 1}}"#));
        assert!(!escapes_a_key(br#"{"a\"b": "\\u0041"}"#));
        assert!(!escapes_a_key(b"{}"));
    }

    #[test]
    fn a_release_is_private_or_embargoed_unless_its_brand_json_says_plainly_otherwise() {
        let d = declared(Some(br#"{"version": "1.0.0"}"#));
        assert_eq!(d, Declared::default());
        let d = declared(Some(br#"{"visibility": "private"}"#));
        assert!(d.private && d.embargo.is_none());
        let d = declared(Some(br#"{"embargo": "2030-01-01T00:00:00Z"}"#));
        assert!(
            !d.private
                && d.embargo
                    .is_some_and(|e| e.to_rfc3339().starts_with("2030"))
        );
        let d = declared(Some(br#"{"embargo": "soon"}"#));
        assert_eq!(d.embargo, Some(DateTime::<Utc>::MAX_UTC));
        assert!(declared(None).private);
        assert!(declared(Some(b"\xff\xfe{")).private);
        assert!(declared(Some(br#"{"visibilit\u0079": "public"}"#)).private);
    }
}
