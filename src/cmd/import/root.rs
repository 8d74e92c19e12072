//! Where an import's files are named from: the input's folder, or the
//! root of the git repository that holds it when the input names files
//! outside its folder (a Style Dictionary config's globs, which Style
//! Dictionary matches from where it runs; a resolver's `../` sources).

use crate::source::dir::Reader;
use anyhow::Result;
use bytes::Bytes;
use serde_json::Value;
use std::path::Path;

/// A resolver in `dir` whose sources reach outside it (`../core.json`),
/// read from the repository's root from now on: its sources named from
/// there, and `reader` reading there. `None` for any other input, or one
/// in no repository.
pub fn widened(reader: &mut Reader<'_>, dir: &Path, doc: &Value) -> Result<Option<(Bytes, Value)>> {
    if doc.get("resolutionOrder").is_none() || !doc.to_string().contains("\"../") {
        return Ok(None);
    }
    let Some(root) = repository_root(dir) else {
        return Ok(None);
    };
    let here = dir.canonicalize()?;
    let rel = here.strip_prefix(&root).unwrap_or(Path::new(""));
    let doc = rebased(doc.clone(), &rel.to_string_lossy().replace('\\', "/"));
    reader.reopen(&root)?;
    Ok(Some((Bytes::from(doc.to_string()), doc)))
}

/// The root of the git repository that holds `dir`, when it is above
/// `dir`: where a team runs Style Dictionary, so where its globs start.
pub fn repository_root(dir: &Path) -> Option<std::path::PathBuf> {
    let dir = dir.canonicalize().ok()?;
    let root = dir.ancestors().find(|a| a.join(".git").exists())?;
    (root != dir).then(|| root.to_path_buf())
}

/// A resolver's file sources, written from the folder `dir` (relative to
/// the root), as the root names them: `../core.json` from `tokens` is
/// `core.json`.
pub fn rebased(mut doc: Value, dir: &str) -> Value {
    crate::spec::formats::plan::rebase_files(&mut doc, |r| normalized(&format!("{dir}/{r}")));
    doc
}

/// `a/b/../c` as `a/c`; a `..` above the root is kept (and refused later).
fn normalized(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}
