//! The architecture, enforced: the pure core (the URL layout, colour,
//! prompts, the model and its validation, the renderers) does no IO and
//! imports only downward, so it can be tested with no server, no files
//! and no clock; the builder (`build/`) above it does no IO either, only
//! CPU work on its own threads, watched by the clock of its time budget.
//! Each layer has an allowlist of the modules it may import (`crate::…`
//! and `super::…` paths are both read, grouped `{…}` lists over several
//! lines too) and a list of what it may not use; anything else fails here.
//! The check tests itself on a copy of `src/` with forbidden imports
//! planted in it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The guarded layers, lowest first: each top-level module (a file or a
/// folder of `src/`), the modules it may import besides itself, and what
/// it must not use. A module missing here is not guarded.
const LAYERS: &[(&str, &[&str], Uses)] = &[
    ("paths", &[], PURE),
    ("color", &[], PURE),
    ("bodies", &[], PURE),
    ("prompt", &[], PURE),
    ("spec", &["color", "prompt", "bodies"], PURE),
    ("access", &["spec"], PURE),
    (
        "render",
        &["spec", "color", "prompt", "paths", "bodies"],
        PURE,
    ),
    ("lint", &["spec", "render", "color"], PURE),
    (
        "build",
        &[
            "spec", "render", "snapshot", "paths", "bodies", "source", "access",
        ],
        NO_IO,
    ),
];

/// Paths a layer must not use, each with what it means.
type Uses = &'static [(&'static str, &'static str)];

/// What the builder must not use, with why: no IO, but threads and the
/// clock of its time budget.
const NO_IO: Uses = &[
    ("std::fs", "the file system"),
    ("std::env", "the environment"),
    ("std::net", "the network"),
    ("std::process", "processes"),
    ("std::io::stdin", "the terminal"),
    ("SystemTime", "the wall clock"),
    ("Utc::now", "the wall clock"),
    ("Local::now", "the wall clock"),
    ("crate::clock", "the wall clock"),
    ("tokio", "the async runtime"),
    ("reqwest", "HTTP clients"),
    ("git2", "git"),
    ("notify::", "file watching"),
    ("hyper", "HTTP"),
    ("axum", "HTTP"),
];

/// What the pure core must not use, with why.
const PURE: Uses = &[
    ("std::fs", "the file system"),
    ("std::env", "the environment"),
    ("std::net", "the network"),
    ("std::process", "processes"),
    ("std::io::stdin", "the terminal"),
    ("Instant::now", "the clock"),
    ("SystemTime", "the clock"),
    ("Utc::now", "the clock"),
    ("Local::now", "the clock"),
    ("tokio", "the async runtime"),
    ("reqwest", "HTTP clients"),
    ("git2", "git"),
    ("notify", "file watching"),
    ("hyper", "HTTP"),
    ("axum", "HTTP"),
    ("rayon", "threads"),
    ("std::thread", "threads"),
];

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            rust_files(&entry.unwrap().path(), out);
        }
    } else if path.is_file() && path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// The code of a file without its unit tests and comments, line by line.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    // Unit tests may use what they like.
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    code.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("").to_string()))
        .collect()
}

/// The module path of a file under `src`: `spec/tokens/css.rs` → `spec::tokens::css`.
fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .with_extension("")
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|l| l == "mod") {
        parts.pop();
    }
    parts
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The first identifier of `s`.
fn ident(s: &str) -> &str {
    &s[..s.find(|c: char| !is_ident(c)).unwrap_or(s.len())]
}

/// The first identifier of each item of the `{…}` group `s` starts with:
/// `{render::escape, spec::{Brand, X}}` → `render`, `spec`.
fn group_heads(s: &str) -> Vec<&str> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut item_start = 1;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' | ',' if depth == 1 => {
                heads.push(ident(s[item_start..i].trim_start()));
                item_start = i + 1;
                if c == '}' {
                    break;
                }
            }
            '}' => depth -= 1,
            _ => {}
        }
    }
    heads.retain(|h| !h.is_empty());
    heads
}

/// The top-level modules that code in module `module` names through
/// `crate::…` or `super::…` (grouped `{…}` lists too, over several lines),
/// each with the line it is on and the text that names it.
fn imports(module: &[String], code: &str) -> Vec<(usize, String, String)> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(found) = ["crate::", "super::"]
        .iter()
        .filter_map(|k| code[at..].find(k).map(|i| at + i))
        .min()
    {
        let before = code[..found].chars().next_back();
        let start = found;
        // Part of a longer path (`a::super`, `$crate`, `self::crate`) or word.
        if before.is_some_and(|c| is_ident(c) || c == ':' || c == '$') {
            at = found + 7;
            continue;
        }
        let mut rest = &code[found..];
        let base: &[String] = if let Some(r) = rest.strip_prefix("crate::") {
            rest = r;
            &[]
        } else {
            let mut ups = 0;
            while let Some(r) = rest.strip_prefix("super::") {
                ups += 1;
                rest = r;
            }
            &module[..module.len().saturating_sub(ups)]
        };
        let heads = if rest.starts_with('{') {
            group_heads(rest)
        } else {
            vec![ident(rest)]
        };
        let line = code[..start].matches('\n').count() + 1;
        let named = &code[start..code.len() - rest.len()];
        for head in heads.into_iter().filter(|h| !h.is_empty()) {
            let top = base.first().map_or(head, String::as_str);
            out.push((line, top.to_string(), format!("{named}{head}")));
        }
        at = code.len() - rest.len();
    }
    out
}

/// Every import or IO use in the guarded layers under `src` that its layer
/// does not allow.
pub fn violations(src: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut files = 0;
    for (layer, allowed, forbidden) in LAYERS {
        let mut paths = Vec::new();
        rust_files(&src.join(layer), &mut paths);
        rust_files(&src.join(format!("{layer}.rs")), &mut paths);
        let allowed: BTreeSet<&str> = allowed.iter().copied().chain([*layer]).collect();
        // A `tests.rs` is a unit-test module in a file of its own.
        for f in paths.into_iter().filter(|f| !f.ends_with("tests.rs")) {
            files += 1;
            let rel = f.strip_prefix(src).unwrap_or(&f).to_path_buf();
            let module = module_of(&rel);
            let text = std::fs::read_to_string(&f).unwrap();
            let lines = code_lines(&text);
            let code: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
            for (line, top, named) in imports(&module, &code.join("\n")) {
                if !allowed.contains(top.as_str()) {
                    let at = rel.display();
                    found.push(format!(
                        "{at}:{line}: `{named}` ({layer} may not import {top})"
                    ));
                }
            }
            for (line, l) in lines {
                let at = format!("{}:{line}", rel.display());
                for (path, what) in *forbidden {
                    if l.contains(path) {
                        found.push(format!("{at}: `{path}` ({what}) in {layer}"));
                    }
                }
            }
        }
    }
    assert!(files > 10, "the pure modules are where they should be");
    found
}

#[test]
fn the_pure_core_and_the_builder_do_no_io_and_import_only_downward() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = violations(&src);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_check_itself_catches_a_forbidden_import() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    crate::helpers::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), src);
    let plant = |file: &str, line: &str| {
        let path = src.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, format!("{line}\n{text}")).unwrap();
    };
    plant("spec/mod.rs", "use std::fs;");
    plant("spec/diff/mod.rs", "use crate::render::escape;");
    plant(
        "spec/tokens/css.rs",
        "use super::super::super::snapshot::Resource;",
    );
    plant("render/mod.rs", "use crate::source::Content;");
    plant(
        "build/plan.rs",
        "use crate::live::render_cache::RenderCache;",
    );
    plant(
        "build/jobs.rs",
        "fn f() { let _ = std::fs::read(\"cache\"); }",
    );
    plant("build/brand.rs", "use super::super::http::AppState;");
    plant("paths.rs", "use crate::spec::Brand;");
    plant("color.rs", "use crate::{paths::brand, snapshot::Snapshot};");
    plant(
        "prompt.rs",
        "use super::{\n    color::srgb,\n    http::AppState,\n};",
    );
    let mut found = violations(src);
    found.sort();
    assert_eq!(
        found,
        [
            "build/brand.rs:1: `super::super::http` (build may not import http)",
            "build/jobs.rs:1: `std::fs` (the file system) in build",
            "build/plan.rs:1: `crate::live` (build may not import live)",
            "color.rs:1: `crate::paths` (color may not import paths)",
            "color.rs:1: `crate::snapshot` (color may not import snapshot)",
            "paths.rs:1: `crate::spec` (paths may not import spec)",
            "prompt.rs:1: `super::color` (prompt may not import color)",
            "prompt.rs:1: `super::http` (prompt may not import http)",
            "render/mod.rs:1: `crate::source` (render may not import source)",
            "spec/diff/mod.rs:1: `crate::render` (spec may not import render)",
            "spec/mod.rs:1: `std::fs` (the file system) in spec",
            "spec/tokens/css.rs:1: `super::super::super::snapshot` (spec may not import snapshot)",
        ]
    );
}

/// Who sees what has two rooms (DESIGN.md §20): `build/audience.rs` makes
/// each reader's catalog, and `http/access.rs` picks a request's view of
/// the site (through `Site::view`) and says what that makes of its headers. What no other request-side file
/// may do itself, with why.
const ACCESS_ONLY: &[(&str, &str)] = &[
    (".published", "picks a view of the published branch"),
    (".scoped", "reads the scopes' views"),
    (".view(None", "picks the public view"),
    ("Holder::", "judges a credential"),
    ("private, no-store", "marks an answer private"),
    ("Authorization, Cookie", "varies on the credentials"),
    (
        ".previews.get(",
        "picks a preview without asking who may read it",
    ),
];

/// Where `src` derives a view outside the access module.
fn access_violations(src: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut files = Vec::new();
    collect(&src.join("http"), &mut files);
    for file in files {
        let rel = file
            .strip_prefix(src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel == "http/access.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (n, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or("");
            for (needle, what) in ACCESS_ONLY {
                if line.contains(needle) {
                    found.push(format!("{rel}:{}: `{needle}` ({what})", n + 1));
                }
            }
        }
    }
    found
}

/// Every `.rs` file under `dir`.
fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn only_the_access_module_derives_what_a_request_sees() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = access_violations(&src);
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The check catches a handler that decides for itself.
    let dir = tempfile::tempdir().unwrap();
    crate::helpers::copy_dir(&src, dir.path());
    let path = dir.path().join("http/compare.rs");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        format!("fn f(s: &crate::snapshot::Site) {{ let _ = s.previews.get(\"x\"); }}\n{text}"),
    )
    .unwrap();
    let found = access_violations(dir.path());
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("http/compare.rs:"), "{found:?}");
}
