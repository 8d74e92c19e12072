//! `marque lint`'s index of a brand, kept between runs. Reading and
//! validating a brand with many contexts (GitHub Primer: six, 3,535
//! values) costs several times what scanning a large codebase does, and
//! CI lints the same brand again and again; the index it comes to is kept
//! in the user's cache folder, never in the tree linted:
//! `$XDG_CACHE_HOME/marque/lint`, else `~/.cache/marque/lint`.
//!
//! One file per brand folder (its canonical path hashed), so the cache
//! holds one index a brand and never grows with edits. The file starts
//! with the key of what it was made from: a SHA-256 of the brand's files
//! as read (paths and bytes), the problems met reading them, the day
//! (validation reads the date), marque's version and the binary itself
//! (its size and time), so any change to any of them reads the brand
//! again. Whatever goes wrong with the cache (no folder, a file cut short,
//! another version's layout) is a miss: the brand is read as if there
//! were none.
//!
//! Beside the index, the file keeps the nearest-name answers lint has
//! measured for the brand (each misspelled name against every name the
//! brand publishes): they depend on the brand and the name alone, and a
//! codebase repeats its misspellings from run to run. The file is written
//! after linting, when it was missing or the run measured a name it did
//! not hold.

use crate::lint::Index;
use crate::spec::Diagnostic;
use bytes::Bytes;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Where one brand folder's index is kept, and the key it must carry.
pub struct Store {
    file: PathBuf,
    key: String,
}

/// What is kept: the index, the tokens file's path in the brand folder,
/// each token's pointer in it (for `--unused`), and the nearest-name
/// answers measured so far (see [`Index::nearest_known`]).
#[derive(Deserialize)]
pub struct Kept {
    pub tokens_rel: String,
    pub pointers: Vec<String>,
    pub index: Index,
    #[serde(default)]
    pub nearest: Vec<(String, Vec<usize>)>,
}

#[derive(Serialize)]
struct Keeping<'a> {
    tokens_rel: &'a str,
    pointers: &'a [String],
    index: &'a Index,
    nearest: Vec<(String, Vec<usize>)>,
}

/// The user's cache folder for lint: `$XDG_CACHE_HOME/marque/lint`, else
/// `$HOME/.cache/marque/lint`; none when neither is set (absolute).
pub fn folder() -> Option<PathBuf> {
    let absolute = |v: std::ffi::OsString| Some(PathBuf::from(v)).filter(|p| p.is_absolute());
    let base = std::env::var_os("XDG_CACHE_HOME")
        .and_then(absolute)
        .or_else(|| {
            std::env::var_os("HOME")
                .and_then(absolute)
                .map(|h| h.join(".cache"))
        })?;
    Some(base.join("marque").join("lint"))
}

/// The key of a brand as read: what its index is made from (see the
/// module's documentation), as hex.
pub fn key(
    slug: &str,
    files: &BTreeMap<String, Bytes>,
    problems: &[Diagnostic],
    today: NaiveDate,
    binary: &str,
) -> String {
    let mut h = Sha256::new();
    let mut part = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    part(b"marque lint index 1");
    part(env!("CARGO_PKG_VERSION").as_bytes());
    part(binary.as_bytes());
    part(today.to_string().as_bytes());
    part(slug.as_bytes());
    for (path, bytes) in files {
        part(path.as_bytes());
        part(bytes);
    }
    for p in problems {
        part(p.to_string().as_bytes());
    }
    hex(&h.finalize())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// This binary, as its size and modification time: a rebuilt marque may
/// index the same brand differently.
fn binary() -> String {
    let meta = std::env::current_exe().and_then(std::fs::metadata);
    match meta {
        Ok(m) => {
            let time = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos());
            format!("{} {time}", m.len())
        }
        Err(_) => String::new(),
    }
}

impl Store {
    /// The store in `folder` of the brand folder `dir` (of `slug`) read
    /// as `files` and `problems` on `today`.
    pub fn new(
        folder: &Path,
        dir: &Path,
        slug: &str,
        files: &BTreeMap<String, Bytes>,
        problems: &[Diagnostic],
        today: NaiveDate,
    ) -> Store {
        Store::at(folder, dir, key(slug, files, problems, today, &binary()))
    }

    fn at(folder: &Path, dir: &Path, key: String) -> Store {
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let name = hex(&Sha256::digest(dir.to_string_lossy().as_bytes())[..16]);
        Store {
            file: folder.join(format!("{name}.json")),
            key,
        }
    }

    /// The index kept for this key, if one is.
    pub fn load(&self) -> Option<Kept> {
        let bytes = std::fs::read(&self.file).ok()?;
        let (key, rest) = bytes.split_at(bytes.iter().position(|b| *b == b'\n')?);
        if key != self.key.as_bytes() {
            return None;
        }
        serde_json::from_slice(&rest[1..]).ok()
    }

    /// Keeps `index`, written whole to a file of its own and then renamed
    /// over the brand's: a run reading it at the same time sees the old
    /// index or the new, never half of one. Failing is not an error.
    pub fn save(&self, tokens_rel: &str, pointers: &[String], index: &Index) {
        let keeping = Keeping {
            tokens_rel,
            pointers,
            index,
            nearest: index.nearest_known(),
        };
        let mut bytes = Vec::with_capacity(1 << 20);
        bytes.extend_from_slice(self.key.as_bytes());
        bytes.push(b'\n');
        if serde_json::to_writer(&mut bytes, &keeping).is_err() {
            return;
        }
        let Some(folder) = self.file.parent() else {
            return;
        };
        let part = self
            .file
            .with_extension(format!("{}.part", std::process::id()));
        let written = std::fs::create_dir_all(folder)
            .and_then(|()| std::fs::write(&part, &bytes))
            .and_then(|()| std::fs::rename(&part, &self.file));
        if written.is_err() {
            let _ = std::fs::remove_file(&part);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lint::{lint_text, Lang, Options};

    fn fixtures() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/lint")
    }

    /// Every finding of every fixture file, as lint words it, with `ix`.
    fn findings(ix: &Index) -> Vec<String> {
        let mut out = Vec::new();
        let code = fixtures().join("code");
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&code)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        paths.sort();
        for path in paths {
            let Some(lang) = Lang::of_path(&path.to_string_lossy()) else {
                continue;
            };
            let text = std::fs::read_to_string(&path).unwrap();
            let lint = lint_text(ix, lang, &text, &Options::default());
            out.extend(lint.findings.iter().map(|f| format!("{path:?} {f:?}")));
            let mut used: Vec<usize> = lint.used.into_iter().collect();
            used.sort();
            out.push(format!("{path:?} used {used:?}"));
        }
        out
    }

    #[test]
    fn a_kept_index_reads_back_as_the_one_made_and_lints_alike() {
        let folder = tempfile::tempdir().unwrap();
        let brand = fixtures().join("content/harbor");
        let made =
            crate::cmd::lint::index_brand(&brand.to_string_lossy(), Path::new("."), None).unwrap();
        let store = Store::at(folder.path(), &brand, "k1".into());
        assert!(store.load().is_none(), "nothing is kept yet");
        store.save("tokens/x.json", &made.pointers, &made.ix);
        let kept = store.load().expect("the index just kept");
        assert_eq!(kept.tokens_rel, "tokens/x.json");
        assert_eq!(kept.pointers, made.pointers);
        let (a, b) = (&made.ix, &kept.index);
        assert_eq!(format!("{:?}", a.tokens), format!("{:?}", b.tokens));
        assert_eq!(a.contexts, b.contexts);
        assert_eq!(a.by_css, b.by_css);
        assert_eq!(a.by_css_folded, b.by_css_folded);
        assert_eq!(a.by_tailwind, b.by_tailwind);
        assert_eq!(a.by_js, b.by_js);
        assert_eq!(a.js_groups, b.js_groups);
        assert_eq!(a.by_android, b.by_android);
        assert_eq!(a.by_ios, b.by_ios);
        assert_eq!(a.first_words, b.first_words);
        assert!(!findings(a).is_empty());
        assert_eq!(findings(a), findings(b));
        // Another key (another brand's files, day or binary) is a miss.
        let other = Store::at(folder.path(), &brand, "k2".into());
        assert!(other.load().is_none());
    }

    #[test]
    fn the_key_changes_with_any_byte_path_problem_day_or_binary() {
        let files =
            |t: &'static [u8]| BTreeMap::from([("tokens.json".to_string(), Bytes::from(t))]);
        let day = NaiveDate::from_ymd_opt(2026, 11, 28).unwrap();
        let base = key("acme", &files(b"{}"), &[], day, "1 2");
        assert_eq!(base, key("acme", &files(b"{}"), &[], day, "1 2"));
        let renamed = BTreeMap::from([("tokens.jsonc".to_string(), Bytes::from_static(b"{}"))]);
        let problem = crate::spec::diag::file_diagnostic(
            crate::spec::diag::Code::FileRefused,
            "acme",
            "acme/",
            "refused",
        );
        for other in [
            key("acme", &files(b"{ }"), &[], day, "1 2"),
            key("acme", &renamed, &[], day, "1 2"),
            key("acme", &files(b"{}"), &[problem], day, "1 2"),
            key("acme", &files(b"{}"), &[], day.succ_opt().unwrap(), "1 2"),
            key("acme", &files(b"{}"), &[], day, "1 3"),
            key("acmf", &files(b"{}"), &[], day, "1 2"),
        ] {
            assert_ne!(base, other);
        }
    }
}
