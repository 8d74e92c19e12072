//! Walking a codebase for `marque lint`: each file lint reads, read and
//! linted on the walker's threads as soon as the brand is indexed.

use super::{shown, Indexed, Linted, MAX_FILE_BYTES};
use crate::lint::{lint_text, Lang, Options};
use anyhow::{bail, Result};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;
use std::sync::{Mutex, OnceLock};

/// Sets the brand's cell, if nothing has, when dropped: a panic while
/// indexing leaves an error there rather than walkers waiting.
pub(super) struct SetOnDrop<'a>(pub(super) &'a OnceLock<Result<Indexed>>);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        let _ = self
            .0
            .set(Err(anyhow::anyhow!("indexing the brand failed")));
    }
}

/// The most text files read before the brand is indexed may hold while
/// they wait for it.
const PENDING_BYTES: usize = 64 << 20;

/// Reads and lints every file under `paths` that lint reads, in
/// parallel, each as soon as it is read and the brand (`brand`, set by
/// the thread indexing it) is indexed (its text dropped then, unless it
/// has findings and `keep_text`). Files read before then wait, up to
/// [`PENDING_BYTES`], and are linted on every core once it is. Sorted by
/// path. `None` when the brand could not be read (its error is the one to
/// report).
pub(super) fn walk(
    paths: &[PathBuf],
    brand: &OnceLock<Result<Indexed>>,
    opts: &Options,
    keep_text: bool,
) -> Result<Option<Vec<Linted>>> {
    let Some((first, rest)) = paths.split_first() else {
        bail!("no path to lint");
    };
    for p in paths {
        if !p.exists() {
            bail!("{}: no such file or folder", p.display());
        }
    }
    let mut builder = ignore::WalkBuilder::new(first);
    for p in rest {
        builder.add(p);
    }
    // A .gitignore counts in a folder that is not (yet) a repository too.
    builder.require_git(false);
    let out: Mutex<Vec<Linted>> = Mutex::new(Vec::new());
    // Files read before the brand is indexed wait here, so reading the
    // tree overlaps indexing rather than waiting on it.
    let pending: Mutex<Vec<(String, Lang, String)>> = Mutex::new(Vec::new());
    let pending_bytes = std::sync::atomic::AtomicUsize::new(0);
    let done = |brand: &Indexed, path: String, lang: Lang, text: String| {
        let lint = lint_text(&brand.ix, lang, &text, opts);
        let text = match keep_text && !lint.findings.is_empty() {
            true => text,
            false => String::new(),
        };
        if let Ok(mut v) = out.lock() {
            v.push(Linted { path, text, lint });
        }
    };
    builder.build_parallel().run(|| {
        let (pending, pending_bytes, done) = (&pending, &pending_bytes, &done);
        Box::new(move |entry| {
            let Ok(entry) = entry else {
                return ignore::WalkState::Continue;
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return ignore::WalkState::Continue;
            }
            let path = shown(entry.path());
            let Some(lang) = Lang::of_path(&path) else {
                return ignore::WalkState::Continue;
            };
            let Some(text) = read_text(entry.path()) else {
                return ignore::WalkState::Continue;
            };
            // Kept while the brand is indexed, up to PENDING_BYTES; past
            // that, a walker waits for it as it did.
            let kept = pending_bytes.fetch_add(text.len(), Relaxed) + text.len();
            let ready = match kept <= PENDING_BYTES {
                true => brand.get(),
                false => Some(brand.wait()),
            };
            match ready {
                None => {
                    if let Ok(mut p) = pending.lock() {
                        p.push((path, lang, text));
                    }
                }
                Some(Ok(brand)) => done(brand, path, lang, text),
                // The brand's error is the one reported, once walking ends.
                Some(Err(_)) => return ignore::WalkState::Quit,
            }
            ignore::WalkState::Continue
        })
    });
    let Ok(indexed) = brand.wait() else {
        return Ok(None);
    };
    // What was read while the brand was indexed, linted on every core.
    let pending = pending.into_inner().unwrap_or_default();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let share = pending.len().div_ceil(threads).max(1);
    let pending = Mutex::new(pending);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let batch: Vec<_> = match pending.lock() {
                    Ok(mut p) => {
                        let at = p.len().saturating_sub(share.min(16));
                        p.split_off(at)
                    }
                    Err(_) => return,
                };
                if batch.is_empty() {
                    return;
                }
                for (path, lang, text) in batch {
                    done(indexed, path, lang, text);
                }
            });
        }
    });
    let mut files = out.into_inner().unwrap_or_default();
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(Some(files))
}

/// A file's text, unless it is over [`MAX_FILE_BYTES`] or not UTF-8: its
/// size is asked of the open file, not of its path again, and is the
/// buffer's size, so it is read once into the string it stays in.
fn read_text(path: &Path) -> Option<String> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let len = file.metadata().ok()?.len();
    if len > MAX_FILE_BYTES {
        return None;
    }
    let mut text = String::with_capacity(usize::try_from(len).ok()? + 1);
    file.read_to_string(&mut text).ok()?;
    Some(text)
}
