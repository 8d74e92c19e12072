//! `marque import <config.json>`: the system a Style Dictionary config
//! describes ([`crate::spec::formats::sd_config`]), over the data files
//! of the config's folder as they are on disk. The result is a resolver
//! document over the team's own files, imported as any resolver is; the
//! CSS prefix and unit transform come from the same config (`naming.rs`).

pub use crate::spec::formats::sd_config::{format_in, is_config, NAMES};
use anyhow::{anyhow, bail, Context as _, Result};
use serde_json::Value;
use std::path::Path;

/// The most data files a config's folder is searched for.
const MAX_FILES: usize = 10_000;

/// The data files under `dir`, relative to it with `/`, in path order:
/// regular files only (the reader refuses the rest), hidden folders and
/// `node_modules` left out.
pub fn data_files(dir: &Path) -> Result<Vec<String>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| format!("cannot read {}", d.display()))? {
            let p = e?.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            let meta = std::fs::symlink_metadata(&p)?;
            if meta.is_dir() && !name.starts_with('.') && name != "node_modules" {
                stack.push(p);
            } else if meta.is_file() && crate::spec::syntax::is_data_file(name) {
                if let Ok(rel) = p.strip_prefix(dir) {
                    out.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
            if out.len() > MAX_FILES {
                bail!("{} holds more than {MAX_FILES} data files", dir.display());
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The resolver document over the files under `dir` (the config's
/// folder) that `config` names.
pub fn resolver(config: &Value, dir: &Path, files: &[String]) -> Result<Value> {
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let has_value =
        |f: &str| std::fs::read_to_string(dir.join(f)).is_ok_and(|t| t.contains("\"$value\""));
    crate::spec::formats::sd_config::resolver(config, &files, has_value).map_err(|e| anyhow!(e))
}
