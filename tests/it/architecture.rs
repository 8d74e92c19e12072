//! The architecture, enforced: the pure core (parsing, validation,
//! rendering, colour, prompts) does no IO and knows nothing of the shell
//! around it, so it can be tested with no server, no files and no clock.
//! A change that reaches for the file system, the environment, the clock,
//! the network, git or an IO module from there fails here.

use std::path::{Path, PathBuf};

/// The pure modules, relative to `src/`.
const PURE: &[&str] = &["spec", "render", "color.rs", "prompt.rs"];

/// What the pure core must not use, with why.
const FORBIDDEN: &[(&str, &str)] = &[
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
    ("crate::source", "an IO module"),
    ("crate::reload", "an IO module"),
    ("crate::gitmode", "an IO module"),
    ("crate::watch", "an IO module"),
    ("crate::http", "an IO module"),
    ("crate::app", "an IO module"),
    ("crate::cli", "an IO module"),
    ("crate::build", "the build shell"),
    ("crate::report", "the terminal writer"),
    ("crate::demo", "the demo endpoint"),
];

fn rust_files(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            rust_files(&entry.unwrap().path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

/// The code of a file without its comments, line by line.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split("//").next().unwrap_or("").to_string()))
        .collect()
}

/// Every use of a forbidden path in the pure modules under `src`.
pub fn violations(src: &Path) -> Vec<String> {
    let mut files = Vec::new();
    for m in PURE {
        rust_files(&src.join(m), &mut files);
    }
    assert!(
        files.len() > 10,
        "the pure modules are where they should be"
    );
    let mut found = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        // Unit tests may use what they like.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (line, l) in code_lines(code) {
            for (path, what) in FORBIDDEN {
                if l.contains(path) {
                    found.push(format!(
                        "{}:{line}: `{path}` ({what}) in the pure core",
                        f.strip_prefix(src).unwrap_or(&f).display()
                    ));
                }
            }
        }
    }
    found
}

#[test]
fn the_pure_core_does_no_io_and_imports_no_shell_module() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = violations(&src);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_check_itself_catches_an_io_import() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    crate::helpers::copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), src);
    let spec = src.join("spec/mod.rs");
    let text = std::fs::read_to_string(&spec).unwrap();
    std::fs::write(&spec, format!("use std::fs;\n{text}")).unwrap();
    let render = src.join("render/mod.rs");
    let text = std::fs::read_to_string(&render).unwrap();
    std::fs::write(&render, format!("use crate::source::Content;\n{text}")).unwrap();
    let mut found = violations(src);
    found.sort();
    assert_eq!(
        found,
        [
            "render/mod.rs:1: `crate::source` (an IO module) in the pure core",
            "spec/mod.rs:1: `std::fs` (the file system) in the pure core",
        ]
    );
}
