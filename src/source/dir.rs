//! Directory source: reads `<root>/<slug>/…` from the file system, and keeps
//! what it read so a reload reads again only the brand folders that changed.
//!
//! A top-level folder is a brand when it holds an entry named `brand.json`
//! (whatever that entry turns out to be: a directory or a FIFO there is a
//! diagnostic, never a silent unpublish). Of each brand, marque reads
//! brand.json, tokens.json, BRAND_BOOK.md and everything under assets/.
//!
//! Only regular files are read, and never by waiting on them (a FIFO is
//! opened non-blocking and refused). Symbolic links are followed only when
//! they stay inside the brand folder (the brand folder itself: inside the
//! content folder), and a folder is entered at most once, so a link loop
//! cannot multiply the files or the work. A brand folder holds at most
//! [`limits::MAX_BRAND_BYTES`] and [`limits::MAX_ASSETS`] files.
//!
//! `marque import` reads its input's folder with the same [`Reader`], as a
//! brand folder in all but name, so an import refuses what serving refuses.

use super::{is_ignored, is_scratch_name, Content, Releases, BRAND_FILES};
use crate::bodies::Bodies;
use crate::spec::diag::{file_diagnostic, Code};
use crate::spec::{limits, BrandFiles, Diagnostic};
use anyhow::{Context as _, Result};
use bytes::Bytes;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A content folder, read once and then kept current brand by brand.
pub struct DirSource {
    root: PathBuf,
    brands: BTreeMap<String, Arc<BrandFiles>>,
    history: Option<super::git::History>,
    /// Whether the folder lies in a git work tree whose tags give releases.
    in_git: Option<bool>,
    /// Brand folders read by the last read_all or reread.
    last_read: usize,
}

impl DirSource {
    pub fn new(root: &Path) -> DirSource {
        DirSource {
            root: root.to_path_buf(),
            brands: BTreeMap::new(),
            history: None,
            in_git: None,
            last_read: 0,
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// True when `rel` (`acme/brand.json`) is a file that was read, or one
    /// that exists now: what a report of changed files should name.
    pub fn is_known(&self, rel: &str) -> bool {
        let read_before = rel
            .split_once('/')
            .and_then(|(slug, path)| self.brands.get(slug).map(|b| b.get(path).is_some()))
            .unwrap_or(false);
        read_before || self.root.join(rel).exists()
    }

    /// Reads every brand folder again, and the tags. Fails only when the
    /// content folder itself cannot be read.
    pub fn read_all(&mut self) -> Result<()> {
        let slugs = list_brands(&self.root)?;
        self.last_read = slugs.len();
        // Thousands of folders: read from every core.
        let root = &self.root;
        self.brands = {
            use rayon::prelude::*;
            slugs
                .into_par_iter()
                .filter_map(|slug| Some((slug.clone(), Arc::new(read_brand(root, &slug)?))))
                .collect()
        };
        self.read_tags();
        Ok(())
    }

    /// Reads again only the named brand folders (a folder that is gone, or
    /// no longer a brand, is dropped).
    pub fn reread(&mut self, slugs: &BTreeSet<String>) -> Result<()> {
        if !self.root.is_dir() {
            anyhow::bail!("cannot read content folder {}", self.root.display());
        }
        self.last_read = slugs.len();
        for slug in slugs {
            let is_brand = !is_ignored(&[slug.as_str()]) && holds_brand_json(&self.root, slug);
            match is_brand.then(|| read_brand(&self.root, slug)).flatten() {
                Some(files) => {
                    self.brands.insert(slug.clone(), Arc::new(files));
                }
                None => {
                    self.brands.remove(slug);
                }
            }
        }
        Ok(())
    }

    /// Reads the tags of the git work tree the folder lies in, if any; only
    /// tags that are new or moved since the last read cost anything.
    pub fn read_tags(&mut self) {
        if self.in_git == Some(false) {
            return;
        }
        match super::git::discover(&self.root) {
            Some((repo, prefix)) => {
                self.in_git = Some(true);
                let history = super::git::History::read(&repo, &prefix, self.history.take());
                self.history = Some(history);
            }
            None => self.in_git = Some(false),
        }
    }

    /// What was read, with each brand's releases attached.
    pub fn content(&self) -> Content {
        let empty = Releases::new();
        let (releases, diagnostics, pinned) = match &self.history {
            Some(h) => (&h.releases, h.diagnostics.clone(), h.pinned.clone()),
            None => (&empty, Vec::new(), Vec::new()),
        };
        let brands: Vec<Arc<BrandFiles>> = self
            .brands
            .values()
            .map(|b| super::with_releases(b, releases))
            .collect();
        let slugs: HashSet<&str> = brands.iter().map(|b| b.slug.as_str()).collect();
        Content {
            withheld: Vec::new(),
            diagnostics: diagnostics
                .into_iter()
                .filter(|d| slugs.contains(d.brand.as_str()))
                .collect(),
            pinned: pinned
                .into_iter()
                .filter(|p| slugs.contains(p.files.slug.as_str()))
                .collect(),
            brands,
            read: self.last_read,
        }
        .with_hint(|| self.no_brands())
    }

    /// Why the folder serves nothing: the brand folders it holds deeper,
    /// and the content folder that serves them.
    fn no_brands(&self) -> Option<Diagnostic> {
        if !self.brands.is_empty() {
            return None;
        }
        let mut found = Vec::new();
        let mut stack = vec![(self.root.clone(), String::new(), 0)];
        while let Some((dir, rel, depth)) = stack.pop() {
            let Ok(entries) = fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let Ok(name) = entry.file_name().into_string() else {
                    continue;
                };
                let path = match rel.is_empty() {
                    true => name.clone(),
                    false => format!("{rel}/{name}"),
                };
                let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
                if is_dir && depth < super::HINT_DEPTH && !super::is_tool_folder(&name) {
                    stack.push((entry.path(), path, depth + 1));
                } else if name == "brand.json" && depth >= 1 && found.len() < 1000 {
                    found.push(rel.clone());
                }
            }
        }
        found.sort();
        let looked = format!("`{}`", self.root.display());
        let root = self.root.clone();
        Some(super::no_brands_here(&looked, &found, move |parent| {
            format!("serve them with --content {}", root.join(parent).display())
        }))
    }
}

/// True when `<root>/<slug>` holds an entry named brand.json (of any kind).
fn holds_brand_json(root: &Path, slug: &str) -> bool {
    fs::symlink_metadata(root.join(slug).join("brand.json")).is_ok()
}

/// The top-level folders of `root` that are brands, sorted.
fn list_brands(root: &Path) -> Result<Vec<String>> {
    let entries = fs::read_dir(root)
        .with_context(|| format!("cannot read content folder {}", root.display()))?;
    let mut slugs: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !is_ignored(&[n.as_str()]))
        .filter(|n| root.join(n).is_dir() && holds_brand_json(root, n))
        .collect();
    slugs.sort();
    Ok(slugs)
}

/// Reads one brand folder, or `None` when it is not a brand (any more).
/// Whatever cannot be read becomes a problem carried with the files.
pub fn read_brand(root: &Path, slug: &str) -> Option<BrandFiles> {
    let (files, problems) = read_brand_bytes(root, slug)?;
    Some(BrandFiles::new(slug, files, problems, Bodies::process()))
}

/// The files of one brand folder as they are on disk (before
/// [`BrandFiles::new`] reads JSONC, JSON5 and YAML as JSON), with the
/// problems met reading them: what [`read_brand`] makes its files of, and
/// what `marque lint` keys its cached index by.
pub fn read_brand_bytes(
    root: &Path,
    slug: &str,
) -> Option<(BTreeMap<String, Bytes>, Vec<Diagnostic>)> {
    let dir = root.join(slug);
    let mut problems = Vec::new();
    let mut files = BTreeMap::new();
    let base = match dir.canonicalize() {
        Ok(b) => b,
        Err(_) => return None,
    };
    let root_base = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    if !base.starts_with(&root_base) || base == root_base {
        problems.push(file_diagnostic(
            Code::FileRefused,
            slug,
            &format!("{slug}/"),
            "the brand folder is a link to a folder outside the content folder; it is not read",
        ));
        return Some((files, problems));
    }
    if !holds_brand_json(root, slug) {
        return None;
    }
    let mut reader = Reader {
        slug,
        base,
        problems,
        bytes: 0,
        count: 0,
    };
    for name in BRAND_FILES {
        if let Some(bytes) = reader.read_file(&dir.join(name), name, true) {
            files.insert((*name).to_string(), bytes);
        }
    }
    if super::reads_token_files(&files) {
        reader.read_token_files(&dir, &mut files);
    }
    reader.read_assets(&dir.join("assets"), &mut files);
    Some((files, reader.problems))
}

/// Reads the files of one brand folder, counting what it read against the
/// limits. Serving reads whole folders with it; `marque import` reads its
/// input and the files a resolver names with it, one by one
/// ([`Reader::open`], [`Reader::read_named`]), so both refuse the same
/// links, special files and sizes with the same words.
pub struct Reader<'a> {
    slug: &'a str,
    /// The brand folder, canonical.
    base: PathBuf,
    problems: Vec<Diagnostic>,
    bytes: usize,
    count: usize,
}

impl<'a> Reader<'a> {
    /// A reader of the folder `dir`, as the brand folder of `slug`; fails
    /// only when the folder cannot be found.
    pub fn open(slug: &'a str, dir: &Path) -> std::io::Result<Reader<'a>> {
        Ok(Reader {
            slug,
            base: dir.canonicalize()?,
            problems: Vec::new(),
            bytes: 0,
            count: 0,
        })
    }

    /// The folder read, canonical.
    pub fn base(&self) -> &Path {
        &self.base
    }

    /// Reads from `dir` from now on (an ancestor the input's files are
    /// named from), what was read and said kept.
    pub fn reopen(&mut self, dir: &Path) -> std::io::Result<()> {
        self.base = dir.canonicalize()?;
        Ok(())
    }

    /// Reads `rel`, a path inside the folder (`tokens/base.json`), as a
    /// brand file: a regular file, through links only when they stay in the
    /// folder, within the size and count limits. `None` when it is missing
    /// (nothing said: the caller knows what a missing file means) or
    /// refused (why, in [`Reader::problems`]).
    pub fn read_named(&mut self, rel: &str) -> Option<Bytes> {
        let path = self.base.join(rel);
        fs::symlink_metadata(&path).ok()?;
        // read_file checks only a link at the end of the path, which is all
        // a walk that entered each folder by its real path needs; a named
        // path may pass through a linked folder (`tokens` → elsewhere), so
        // where it really leads is checked here, before anything is opened.
        if path.exists() && !within(&self.base, &path) {
            self.problem(
                Code::FileRefused,
                rel,
                format!("{rel} is a link to a file outside the folder; it is not read"),
            );
            return None;
        }
        if self.count >= limits::MAX_ASSETS {
            self.problem(
                Code::FolderTooLarge,
                rel,
                format!(
                    "the folder names more than {} files; this one and any after it are not read",
                    limits::MAX_ASSETS
                ),
            );
            return None;
        }
        self.read_file(&path, rel, true)
    }

    /// What was refused so far, each a diagnostic on `<slug>/<rel>`.
    pub fn problems(&self) -> &[Diagnostic] {
        &self.problems
    }
    fn problem(&mut self, code: Code, rel: &str, message: impl Into<String>) {
        let file = format!("{}/{rel}", self.slug);
        self.problems
            .push(file_diagnostic(code, self.slug, &file, message));
    }

    /// Reads a regular file inside the brand folder. `required_kind`: the
    /// file must be a regular file if it exists at all (brand.json and
    /// friends); anything else at that name is an error.
    fn read_file(&mut self, path: &Path, rel: &str, required_kind: bool) -> Option<Bytes> {
        let link = fs::symlink_metadata(path).ok()?;
        let meta = match fs::metadata(path) {
            Ok(m) => m,
            Err(_) if link.file_type().is_symlink() => {
                self.problem(
                    Code::FileRefused,
                    rel,
                    format!("{rel} is a symbolic link to nothing; it is not read"),
                );
                return None;
            }
            Err(e) => {
                self.problem(Code::FileRefused, rel, format!("{rel} cannot be read: {e}"));
                return None;
            }
        };
        if !meta.is_file() {
            let kind = kind_of(&meta);
            if required_kind {
                self.problem(
                    Code::FileRefused,
                    rel,
                    format!("{rel} is {kind}, not a file"),
                );
            } else {
                self.problem(
                    Code::EntryNotPublished,
                    rel,
                    format!("{rel} is {kind}, not a file; it is not published"),
                );
            }
            return None;
        }
        if link.file_type().is_symlink() && !within(&self.base, path) {
            self.problem(
                Code::FileRefused,
                rel,
                format!("{rel} is a link to a file outside the brand folder; it is not read"),
            );
            return None;
        }
        if meta.len() > limits::MAX_FILE_BYTES as u64 {
            self.problem(
                Code::FileTooLarge,
                rel,
                format!(
                    "file is {} bytes; the limit is {}",
                    meta.len(),
                    limits::describe_bytes(limits::MAX_FILE_BYTES)
                ),
            );
            return None;
        }
        if self.bytes + meta.len() as usize > limits::MAX_BRAND_BYTES {
            self.problem(
                Code::FolderTooLarge,
                rel,
                format!(
                    "the brand folder holds more than {}; this file and any after it are not read",
                    limits::describe_bytes(limits::MAX_BRAND_BYTES)
                ),
            );
            return None;
        }
        match read_regular(path, limits::MAX_FILE_BYTES) {
            Ok(bytes) => {
                self.bytes += bytes.len();
                self.count += 1;
                Some(Bytes::from(bytes))
            }
            Err(e) => {
                self.problem(Code::FileRefused, rel, format!("{rel} cannot be read: {e}"));
                None
            }
        }
    }

    /// Walks assets/, entering each real folder once.
    fn read_assets(&mut self, assets: &Path, files: &mut BTreeMap<String, Bytes>) {
        self.read_tree(assets, "assets", files, &|_, _| true);
    }

    /// Walks the brand folder for the JSON files a resolver document may
    /// name (not assets/, nor the files read by name).
    fn read_token_files(&mut self, dir: &Path, files: &mut BTreeMap<String, Bytes>) {
        self.read_tree(dir, "", files, &|rel, is_dir| {
            let name = rel.rsplit('/').next().unwrap_or(rel);
            if is_dir {
                rel != "assets" && !super::is_tool_folder(name)
            } else {
                crate::spec::syntax::is_data_file(rel) && !BRAND_FILES.contains(&rel)
            }
        });
    }

    /// Walks the folder `start` (at `rel` in the brand folder), entering each
    /// real folder once and reading the files `wanted` keeps (it is given
    /// each entry's path in the brand folder, and whether it is a folder).
    fn read_tree(
        &mut self,
        start: &Path,
        rel: &str,
        files: &mut BTreeMap<String, Bytes>,
        wanted: &dyn Fn(&str, bool) -> bool,
    ) {
        let mut visited: HashSet<PathBuf> = HashSet::new();
        let mut stack: Vec<(PathBuf, String, usize)> =
            vec![(start.to_path_buf(), rel.to_string(), 0)];
        while let Some((path, rel, depth)) = stack.pop() {
            let Ok(real) = path.canonicalize() else {
                continue;
            };
            if !real.starts_with(&self.base) {
                self.problem(
                    Code::FileRefused,
                    &rel,
                    format!(
                        "{rel} is a link to a folder outside the brand folder; it is not published"
                    ),
                );
                continue;
            }
            if !visited.insert(real) {
                self.problem(
                Code::EntryNotPublished,
                &rel,
                    format!("{rel} is a link to a folder already published; it is skipped (a link loop?)"),
                );
                continue;
            }
            if depth > limits::MAX_ASSET_DEPTH {
                self.problem(
                    Code::FolderTooLarge,
                    &rel,
                    format!("{rel}: folders are nested too deeply; it is not published"),
                );
                continue;
            }
            let Ok(entries) = fs::read_dir(&path) else {
                continue;
            };
            let mut names: Vec<String> = entries
                .filter_map(|e| e.ok())
                .filter_map(|e| e.file_name().into_string().ok())
                .filter(|n| !is_scratch_name(n))
                .collect();
            names.sort();
            for name in names.into_iter().rev() {
                let child = path.join(&name);
                let child_rel = match rel.is_empty() {
                    true => name,
                    false => format!("{rel}/{name}"),
                };
                let is_dir = child.is_dir();
                if !wanted(&child_rel, is_dir) {
                    continue;
                }
                if is_dir {
                    stack.push((child, child_rel, depth + 1));
                    continue;
                }
                if self.count >= limits::MAX_ASSETS {
                    self.problem(
                Code::FolderTooLarge,
                &child_rel,
                        format!(
                            "the brand folder holds more than {} files; this one and any after it are not published",
                            limits::MAX_ASSETS
                        ),
                    );
                    return;
                }
                if let Some(bytes) = self.read_file(&child, &child_rel, false) {
                    files.insert(child_rel, bytes);
                }
            }
        }
    }
}

/// What an entry that is not a regular file is, for a message: `a named
/// pipe (FIFO)`, `a folder`.
pub(crate) fn kind_of(meta: &fs::Metadata) -> &'static str {
    let t = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

fn within(base: &Path, path: &Path) -> bool {
    path.canonicalize().is_ok_and(|p| p.starts_with(base))
}

/// Reads a regular file without ever blocking on it: opened non-blocking
/// (a FIFO swapped in after the check cannot stall the reader), checked
/// again on the open handle, and read to at most `limit` bytes.
fn read_regular(path: &Path, limit: usize) -> std::io::Result<Vec<u8>> {
    let mut options = fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit as u64 + 1).read_to_end(&mut bytes)?;
    if bytes.len() > limit {
        return Err(std::io::Error::other(
            "the file grew past the size limit while being read",
        ));
    }
    Ok(bytes)
}
