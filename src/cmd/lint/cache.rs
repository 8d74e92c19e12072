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
//! Its second line is the folder's stamp: each file's path, size,
//! modification and change times and inode, as git's index keeps them
//! for the same purpose. A run whose stamp matches uses the index without
//! reading the brand's files at all; one whose stamp does not (a file
//! touched, or copied with its times) reads and hashes them, and uses the
//! index still if the key matches. The stamp is taken before the files
//! are read, so an edit made while they are is a later stamp; and as git
//! does with a "racily clean" file, a folder with a file changed within
//! [`RACY`] of the stamp has none (a same-size edit in the same tick of
//! the file system's clock would leave it unchanged), and is hashed.
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

/// Where one brand folder's index is kept, and the key and stamp it
/// must carry (either is enough; an empty one matches nothing).
pub struct Store {
    file: PathBuf,
    key: String,
    stamp: String,
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
    part(b"marque lint index 2");
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

/// How recent a file's change may be for its folder's stamp to be
/// trusted: above the coarsest clock of a common file system (FAT's 2 s).
pub const RACY: std::time::Duration = std::time::Duration::from_secs(3);

/// The stamp of the brand folder `dir` (see the module's documentation),
/// as hex; `None` where a file cannot be asked, the folder is larger than
/// a brand may be (the brand is then read, and its limits said), or a
/// file changed within `racy` of now.
pub fn stamp(dir: &Path, today: NaiveDate, racy: std::time::Duration) -> Option<String> {
    let started = std::time::SystemTime::now();
    fn walk(dir: &Path, rel: &str, depth: usize, out: &mut Vec<(String, Meta)>) -> Option<()> {
        if depth > crate::spec::limits::MAX_ASSET_DEPTH + 2 {
            return None;
        }
        for entry in std::fs::read_dir(dir).ok()? {
            let entry = entry.ok()?;
            let name = entry.file_name().into_string().ok()?;
            let path = format!("{rel}{name}");
            let meta = std::fs::symlink_metadata(entry.path()).ok()?;
            if meta.is_dir() {
                walk(&entry.path(), &format!("{path}/"), depth + 1, out)?;
                continue;
            }
            if out.len() > crate::spec::limits::MAX_ASSETS * 2 {
                return None;
            }
            out.push((path, times(&meta)));
        }
        Some(())
    }
    let mut files = Vec::new();
    walk(dir, "", 0, &mut files)?;
    let newest = files.iter().map(|(_, m)| m.changed).max();
    let cutoff = started.checked_sub(racy)?;
    if newest.is_some_and(|n| n > cutoff) {
        return None;
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    let mut h = Sha256::new();
    let mut part = |bytes: &[u8]| {
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    part(b"marque lint stamp 1");
    part(env!("CARGO_PKG_VERSION").as_bytes());
    part(binary().as_bytes());
    part(today.to_string().as_bytes());
    for (path, meta) in &files {
        part(path.as_bytes());
        part(meta.words.as_bytes());
    }
    Some(hex(&h.finalize()))
}

/// What the stamp keeps of a file, and when it last changed.
struct Meta {
    words: String,
    changed: std::time::SystemTime,
}

/// A file's kind, size and times (and inode, where there is one).
fn times(meta: &std::fs::Metadata) -> Meta {
    let nanos = |t: std::io::Result<std::time::SystemTime>| {
        t.ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos())
    };
    let kind = meta.file_type();
    let modified = meta.modified().unwrap_or(std::time::UNIX_EPOCH);
    #[cfg(unix)]
    let (more, changed) = {
        use std::os::unix::fs::MetadataExt;
        let ctime = u64::try_from(meta.ctime()).ok().map(|s| {
            std::time::UNIX_EPOCH
                + std::time::Duration::new(s, u32::try_from(meta.ctime_nsec()).unwrap_or(0))
        });
        let words = format!(
            "{} {} {} {}",
            meta.ctime(),
            meta.ctime_nsec(),
            meta.ino(),
            meta.mode()
        );
        (words, ctime.map_or(modified, |c| c.max(modified)))
    };
    #[cfg(not(unix))]
    let (more, changed) = (String::new(), modified);
    Meta {
        words: format!(
            "{} {} {} {more}",
            kind.is_symlink(),
            meta.len(),
            nanos(meta.modified())
        ),
        changed,
    }
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
    /// `stamp` is the folder's, taken before its files were read (empty
    /// for none).
    pub fn new(
        folder: &Path,
        dir: &Path,
        slug: &str,
        files: &BTreeMap<String, Bytes>,
        problems: &[Diagnostic],
        today: NaiveDate,
        stamp: String,
    ) -> Store {
        let key = key(slug, files, problems, today, &binary());
        Store::at(folder, dir, key, stamp)
    }

    /// The store of the brand folder `dir` known by its stamp alone,
    /// before its files are read (its key is the one kept, once loaded).
    pub fn stamped(folder: &Path, dir: &Path, stamp: String) -> Store {
        Store::at(folder, dir, String::new(), stamp)
    }

    /// Whether the folder had a stamp to keep the index under.
    pub fn has_stamp(&self) -> bool {
        !self.stamp.is_empty()
    }

    fn at(folder: &Path, dir: &Path, key: String, stamp: String) -> Store {
        let dir = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let name = hex(&Sha256::digest(dir.to_string_lossy().as_bytes())[..16]);
        Store {
            file: folder.join(format!("{name}.json")),
            key,
            stamp,
        }
    }

    /// The index kept for this key or stamp, if one is, and whether it
    /// was kept under this stamp (else it is kept again, under it). Found
    /// by its stamp alone, the store takes the key it was kept under.
    pub fn load(&mut self) -> Option<(Kept, bool)> {
        let bytes = std::fs::read(&self.file).ok()?;
        let line = |b: &[u8]| b.iter().position(|c| *c == b'\n');
        let (key, rest) = bytes.split_at(line(&bytes)?);
        let rest = &rest[1..];
        let (stamp, rest) = rest.split_at(line(rest)?);
        let by_stamp = !self.stamp.is_empty() && stamp == self.stamp.as_bytes();
        if !by_stamp && (self.key.is_empty() || key != self.key.as_bytes()) {
            return None;
        }
        let kept = serde_json::from_slice(&rest[1..]).ok()?;
        if self.key.is_empty() {
            self.key = String::from_utf8_lossy(key).into_owned();
        }
        Some((kept, by_stamp))
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
        bytes.extend_from_slice(self.stamp.as_bytes());
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
        let mut store = Store::at(folder.path(), &brand, "k1".into(), String::new());
        assert!(store.load().is_none(), "nothing is kept yet");
        store.save("tokens/x.json", &made.pointers, &made.ix);
        let (kept, by_stamp) = store.load().expect("the index just kept");
        assert!(!by_stamp, "an empty stamp matches nothing");
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
        let mut other = Store::at(folder.path(), &brand, "k2".into(), String::new());
        assert!(other.load().is_none());
    }

    #[test]
    fn a_folder_as_it_was_is_known_by_its_stamp_and_any_change_to_a_file_is_not() {
        let cache = tempfile::tempdir().unwrap();
        let content = tempfile::tempdir().unwrap();
        let dir = content.path().join("harbor");
        let copy = std::process::Command::new("cp")
            .arg("-r")
            .arg(fixtures().join("content/harbor"))
            .arg(&dir)
            .status()
            .unwrap();
        assert!(copy.success());
        let day = NaiveDate::from_ymd_opt(2026, 11, 28).unwrap();
        // The tests do not wait out the racy window, but for one check.
        let zero = std::time::Duration::ZERO;
        let stamp = || super::stamp(&dir, day, zero).unwrap();
        let tick = || std::thread::sleep(std::time::Duration::from_millis(20));
        let first = stamp();
        assert_eq!(first, stamp(), "nothing changed");
        assert_ne!(
            first,
            super::stamp(&dir, day.succ_opt().unwrap(), zero).unwrap()
        );
        // Just copied: too recent a change for any stamp to be trusted.
        assert_eq!(super::stamp(&dir, day, RACY), None);
        // Kept under the stamp: found by it alone, with the key it was
        // kept under.
        let made =
            crate::cmd::lint::index_brand(&dir.to_string_lossy(), Path::new("."), None).unwrap();
        Store::at(cache.path(), &dir, "k".into(), first.clone()).save(
            "tokens.json",
            &made.pointers,
            &made.ix,
        );
        let mut by_stamp = Store::stamped(cache.path(), &dir, first.clone());
        assert!(matches!(by_stamp.load(), Some((_, true))));
        assert_eq!(by_stamp.key, "k");
        // Each change: rewritten with the same bytes (its times change),
        // a byte changed in place, a file added, a file renamed.
        let brand_json = dir.join("brand.json");
        let bytes = std::fs::read(&brand_json).unwrap();
        tick();
        std::fs::write(&brand_json, &bytes).unwrap();
        let rewritten = stamp();
        assert_ne!(rewritten, first);
        assert!(Store::stamped(cache.path(), &dir, rewritten.clone())
            .load()
            .is_none());
        let mut changed = bytes.clone();
        let last = changed.iter().rposition(|b| *b == b'}').unwrap();
        changed.insert(last, b' ');
        tick();
        std::fs::write(&brand_json, &changed).unwrap();
        assert_ne!(stamp(), rewritten);
        let now = stamp();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        assert_ne!(stamp(), now);
        let now = stamp();
        std::fs::rename(dir.join("notes.txt"), dir.join("notes2.txt")).unwrap();
        assert_ne!(stamp(), now);
        // As lint runs: read and kept; then known by the stamp, nothing
        // read; touched, known by its bytes and kept again under the new
        // stamp; then known by that stamp.
        let kept = tempfile::tempdir().unwrap();
        let run = || {
            let spec = dir.to_string_lossy();
            crate::cmd::lint::index_brand_with(&spec, Path::new("."), Some(kept.path()), zero)
                .unwrap()
        };
        let how = |i: &crate::cmd::lint::Indexed| {
            let k = i.keep.as_ref().unwrap();
            (k.hit, k.read)
        };
        let first = run();
        assert_eq!(how(&first), (false, true), "read, and kept");
        first.keep();
        assert_eq!(how(&run()), (true, false), "known by its stamp");
        tick();
        std::fs::write(&brand_json, &changed).unwrap();
        let touched = run();
        assert_eq!(how(&touched), (false, true), "read, known by its key");
        assert_eq!(
            format!("{:?}", touched.ix.tokens),
            format!("{:?}", first.ix.tokens)
        );
        touched.keep();
        assert_eq!(how(&run()), (true, false), "known by its new stamp");
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
