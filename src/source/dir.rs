//! Directory source: reads `<root>/<slug>/…` from the file system.
//!
//! A top-level folder is a brand when it holds `brand.json`; folders whose
//! names start with `.` or `_` are ignored. Of each brand, marque reads
//! brand.json, tokens.json, BRAND_BOOK.md and everything under assets/.
//! Symbolic links are followed only when they stay inside the brand folder.

use super::Content;
use crate::spec::brand::MAX_ASSET_BYTES;
use crate::spec::diag::file_error;
use crate::spec::BrandFiles;
use anyhow::{Context as _, Result};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Files at the top of a brand folder that marque reads.
pub const BRAND_FILES: &[&str] = &["brand.json", "tokens.json", "BRAND_BOOK.md"];

/// True for names editors and tools leave behind, which are never content.
pub fn is_scratch_name(name: &str) -> bool {
    name.starts_with('.')
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.ends_with(".tmp")
        || name.ends_with("___jb_tmp___")
        || name.ends_with("___jb_old___")
        || name == "4913"
}

/// Reads every brand under `root`. Fails only when `root` itself cannot be read.
pub fn read_content(root: &Path) -> Result<Content> {
    let mut content = Content::default();
    let entries = fs::read_dir(root)
        .with_context(|| format!("cannot read content folder {}", root.display()))?;
    let mut slugs: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.') && !n.starts_with('_') && n != "target")
        .filter(|n| root.join(n).join("brand.json").is_file())
        .collect();
    slugs.sort();
    for slug in slugs {
        let (files, mut diags) = read_brand(root, &slug);
        content.diagnostics.append(&mut diags);
        content.brands.push(files);
    }
    Ok(content)
}

/// Reads one brand folder. Missing files are simply absent (validation reports them).
pub fn read_brand(root: &Path, slug: &str) -> (BrandFiles, Vec<crate::spec::Diagnostic>) {
    let dir = root.join(slug);
    let mut files = BTreeMap::new();
    let mut diags = Vec::new();
    let Ok(base) = dir.canonicalize() else {
        return (
            BrandFiles {
                slug: slug.to_string(),
                files,
                releases: Vec::new(),
            },
            diags,
        );
    };
    for name in BRAND_FILES {
        if let Some(bytes) = read_inside(&base, &dir.join(name), slug, name, &mut diags) {
            files.insert((*name).to_string(), bytes);
        }
    }
    let mut stack: Vec<(PathBuf, String)> = vec![(dir.join("assets"), "assets".to_string())];
    while let Some((path, rel)) = stack.pop() {
        let Ok(entries) = fs::read_dir(&path) else {
            continue;
        };
        for entry in entries.filter_map(|e| e.ok()) {
            let Ok(name) = entry.file_name().into_string() else {
                continue;
            };
            if is_scratch_name(&name) {
                continue;
            }
            let child = entry.path();
            let child_rel = format!("{rel}/{name}");
            if child.is_dir() {
                if within(&base, &child) {
                    stack.push((child, child_rel));
                } else {
                    diags.push(file_error(
                        slug,
                        &format!("{slug}/{child_rel}"),
                        "folder links outside the brand folder; it is not published",
                    ));
                }
            } else if let Some(bytes) = read_inside(&base, &child, slug, &child_rel, &mut diags) {
                files.insert(child_rel, bytes);
            }
        }
    }
    (
        BrandFiles {
            slug: slug.to_string(),
            files,
            releases: Vec::new(),
        },
        diags,
    )
}

fn within(base: &Path, path: &Path) -> bool {
    path.canonicalize().is_ok_and(|p| p.starts_with(base))
}

fn read_inside(
    base: &Path,
    path: &Path,
    slug: &str,
    rel: &str,
    diags: &mut Vec<crate::spec::Diagnostic>,
) -> Option<Vec<u8>> {
    let meta = fs::metadata(path).ok()?;
    if !meta.is_file() {
        return None;
    }
    let file = format!("{slug}/{rel}");
    if !within(base, path) {
        diags.push(file_error(
            slug,
            &file,
            "file links outside the brand folder; it is not read",
        ));
        return None;
    }
    if meta.len() > MAX_ASSET_BYTES as u64 {
        diags.push(file_error(
            slug,
            &file,
            format!("file is {} bytes; the limit is 5 MiB", meta.len()),
        ));
        return None;
    }
    match fs::read(path) {
        Ok(bytes) => Some(bytes),
        Err(e) => {
            diags.push(file_error(slug, &file, format!("cannot read file: {e}")));
            None
        }
    }
}
