//! `marque import` against hostile folders, as the probe of 2026-11-24
//! built them (`shared/repro/2026-11-24/import_probe.sh`): links where it
//! writes, links and special files where it reads, slugs that try to leave
//! `--out`. Each case is a sandbox with the input in `src/`, `--out` in
//! `out/`, and `outside/`, whose files must never change; the real binary
//! runs under a memory cap and a deadline, so a hang or a read that never
//! ends fails the test instead of stalling it.

use crate::helpers::*;
use serde_json::Value;
use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const VICTIM: &str = "{\"keep\":\"me\"}\n";
/// Far above what an import of the example brand takes (well under a second).
const DEADLINE: Duration = Duration::from_secs(20);
/// Address space, as `ulimit -v`: reading /dev/zero to the end would pass it.
const CAP_MIB: u64 = 1536;

/// One case's folders: `src/` holds lumen-health's resolver (as
/// `lumen.resolver.json`) and its tokens, `out/` is empty, `outside/`
/// holds `victim.json`.
struct Sandbox {
    dir: tempfile::TempDir,
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// Both streams: a refusal is on stderr, diagnostics on stdout.
    fn text(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }
}

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        let lumen = example_content().join("lumen-health");
        copy_dir(&lumen.join("tokens"), &dir.path().join("src/tokens"));
        std::fs::copy(
            lumen.join("tokens.resolver.json"),
            dir.path().join("src/lumen.resolver.json"),
        )
        .unwrap();
        std::fs::create_dir(dir.path().join("out")).unwrap();
        std::fs::create_dir(dir.path().join("outside")).unwrap();
        std::fs::write(dir.path().join("outside/victim.json"), VICTIM).unwrap();
        Sandbox { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Adds a source to the resolver's base set.
    fn add_source(&self, rel: &str) {
        let file = self.path("src/lumen.resolver.json");
        let mut r: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        r["sets"]["base"]["sources"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({ "$ref": rel }));
        std::fs::write(&file, r.to_string()).unwrap();
    }

    /// Runs `marque import ARGS…` in `src/`, capped in memory and time: a
    /// run past the deadline is killed and the test fails.
    fn import(&self, args: &[&str]) -> Run {
        let stdout = self.path("stdout.txt");
        let stderr = self.path("stderr.txt");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!(
                "ulimit -v {}; exec \"$0\" import \"$@\"",
                CAP_MIB * 1024
            ))
            .arg(env!("CARGO_BIN_EXE_marque"))
            .args(args)
            .current_dir(self.path("src"))
            .env_remove("MARQUE_CONTENT")
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&stdout).unwrap())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        let started = Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > DEADLINE {
                let _ = child.kill();
                let _ = child.wait();
                panic!("marque import {args:?} did not return in {DEADLINE:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        Run {
            code: status.code().unwrap_or(-1),
            stdout: std::fs::read_to_string(stdout).unwrap(),
            stderr: std::fs::read_to_string(stderr).unwrap(),
        }
    }

    /// Every entry under `outside/` with its contents (a link as `-> target`).
    fn outside(&self) -> BTreeMap<String, String> {
        tree(&self.path("outside"))
    }

    /// `outside/` as the sandbox made it: the victim, unchanged, alone.
    fn assert_outside_untouched(&self, run: &Run) {
        assert_eq!(
            self.outside(),
            BTreeMap::from([("victim.json".to_string(), VICTIM.to_string())]),
            "nothing outside --out changes: {}",
            run.text()
        );
    }
}

/// Every entry under `dir`, by path, with a file's text or a link's target.
fn tree(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((path, rel)) = stack.pop() {
        for entry in std::fs::read_dir(&path).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            let rel = match rel.is_empty() {
                true => name,
                false => format!("{rel}/{name}"),
            };
            let kind = entry.file_type().unwrap();
            if kind.is_symlink() {
                let target = std::fs::read_link(entry.path()).unwrap();
                out.insert(rel, format!("-> {}", target.display()));
            } else if kind.is_dir() {
                out.insert(format!("{rel}/"), String::new());
                stack.push((entry.path(), rel));
            } else {
                out.insert(
                    rel,
                    std::fs::read_to_string(entry.path()).unwrap_or_default(),
                );
            }
        }
    }
    out
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

#[test]
fn import_writes_a_brand_folder_inside_out_and_leaves_no_scratch_behind() {
    let s = Sandbox::new();
    let run = s.import(&["lumen.resolver.json", "--out", "../out/new/deep"]);
    assert_eq!(run.code, 0, "{}", run.text());
    let out = tree(&s.path("out"));
    let names: Vec<&str> = out.keys().map(String::as_str).collect();
    assert_eq!(
        names,
        [
            "new/",
            "new/deep/",
            "new/deep/lumen/",
            "new/deep/lumen/brand.json",
            "new/deep/lumen/tokens.resolver.json"
        ],
        "missing folders are made; no temporary file is left"
    );
    // Again over its own output: the tokens are replaced, brand.json kept.
    let run = s.import(&["lumen.resolver.json", "--out", "../out/new/deep"]);
    assert_eq!(run.code, 0, "{}", run.text());
    assert!(run.stdout.contains("kept "), "{}", run.text());
    assert_eq!(tree(&s.path("out")), out, "the same files, the same bytes");
    s.assert_outside_untouched(&run);
}

#[test]
fn import_refuses_to_write_through_a_symlinked_output_file() {
    for name in ["tokens.resolver.json", "brand.json"] {
        let s = Sandbox::new();
        std::fs::create_dir(s.path("out/lumen")).unwrap();
        let link = s.path("out/lumen").join(name);
        symlink("../../outside/victim.json", &link).unwrap();
        let run = s.import(&["lumen.resolver.json", "--out", "../out"]);
        assert_eq!(run.code, 2, "{name}: {}", run.text());
        assert!(
            run.stderr.contains(&format!(
                "{} is a symbolic link: marque import writes only inside --out and never through a link",
                Path::new("../out/lumen").join(name).display()
            )),
            "{name}: {}",
            run.text()
        );
        s.assert_outside_untouched(&run);
        assert_eq!(
            tree(&s.path("out/lumen")).len(),
            1,
            "{name}: nothing is written beside the link either"
        );
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
    }
}

#[test]
fn import_refuses_a_dangling_link_where_it_would_write() {
    for name in ["tokens.resolver.json", "brand.json"] {
        let s = Sandbox::new();
        std::fs::create_dir(s.path("out/lumen")).unwrap();
        symlink("../../outside/new.json", s.path("out/lumen").join(name)).unwrap();
        let run = s.import(&["lumen.resolver.json", "--out", "../out"]);
        assert_eq!(run.code, 2, "{name}: {}", run.text());
        assert!(
            run.stderr.contains("is a symbolic link"),
            "{name}: {}",
            run.text()
        );
        s.assert_outside_untouched(&run);
    }
}

#[test]
fn import_refuses_an_output_folder_or_brand_folder_that_is_a_link() {
    // --out itself a link, with and without a trailing slash (which would
    // make the system follow it).
    for out in ["../outlink", "../outlink/"] {
        let s = Sandbox::new();
        symlink("outside", s.path("outlink")).unwrap();
        let run = s.import(&["lumen.resolver.json", "--out", out]);
        assert_eq!(run.code, 2, "{out}: {}", run.text());
        assert!(
            run.stderr
                .contains("../outlink is a symbolic link: marque import writes only inside --out"),
            "{out}: {}",
            run.text()
        );
        s.assert_outside_untouched(&run);
    }
    // The brand folder a link, to a folder or to nothing.
    for target in ["../../outside", "../../outside/gone"] {
        let s = Sandbox::new();
        symlink(target, s.path("out/lumen")).unwrap();
        let run = s.import(&["lumen.resolver.json", "--out", "../out"]);
        assert_eq!(run.code, 2, "{target}: {}", run.text());
        assert!(
            run.stderr.contains("../out/lumen is a symbolic link"),
            "{target}: {}",
            run.text()
        );
        s.assert_outside_untouched(&run);
    }
    // --out a file, and a target that is a folder: said, and left alone.
    let s = Sandbox::new();
    std::fs::remove_dir(s.path("out")).unwrap();
    std::fs::write(s.path("out"), "x").unwrap();
    let run = s.import(&["lumen.resolver.json", "--out", "../out"]);
    assert_eq!(run.code, 2, "{}", run.text());
    assert!(
        run.stderr.contains("../out is a file, not a folder"),
        "{}",
        run.text()
    );
    let s = Sandbox::new();
    std::fs::create_dir_all(s.path("out/lumen/tokens.resolver.json")).unwrap();
    let run = s.import(&["lumen.resolver.json", "--out", "../out"]);
    assert_eq!(run.code, 2, "{}", run.text());
    assert!(
        run.stderr
            .contains("tokens.resolver.json is a folder, not a file: it is not replaced"),
        "{}",
        run.text()
    );
}

#[test]
fn import_refuses_a_source_linked_outside_the_input_folder() {
    // A file that is a link out, and a file inside a folder that is a link out.
    let s = Sandbox::new();
    std::fs::write(
        s.path("outside/secret.json"),
        r##"{"color":{"$type":"color","leak":{"$value":"#123456","$description":"SECRET-OUTSIDE"}}}"##,
    )
    .unwrap();
    symlink("../../outside/secret.json", s.path("src/tokens/s.json")).unwrap();
    s.add_source("tokens/s.json");
    let run = s.import(&["lumen.resolver.json", "--out", "../out"]);
    assert_eq!(run.code, 1, "{}", run.text());
    assert!(
        run.stdout
            .contains("tokens/s.json is a link to a file outside the folder; it is not read"),
        "{}",
        run.text()
    );
    assert!(run.stdout.contains("is not imported"), "{}", run.text());
    assert!(tree(&s.path("out")).is_empty(), "nothing is written");

    let s = Sandbox::new();
    std::fs::write(s.path("outside/more.json"), "{}").unwrap();
    symlink("../outside", s.path("src/linked")).unwrap();
    s.add_source("linked/more.json");
    let run = s.import(&["lumen.resolver.json", "--out", "../out"]);
    assert_eq!(run.code, 1, "{}", run.text());
    assert!(
        run.stdout
            .contains("linked/more.json is a link to a file outside the folder; it is not read"),
        "{}",
        run.text()
    );
    assert!(tree(&s.path("out")).is_empty(), "nothing is written");
}

#[test]
fn import_follows_links_that_stay_inside_the_input_folder() {
    let s = Sandbox::new();
    let r = s.path("src/lumen.resolver.json");
    let text = std::fs::read_to_string(&r)
        .unwrap()
        .replace("tokens/dark.json", "tokens/night.json");
    std::fs::write(&r, text).unwrap();
    symlink("dark.json", s.path("src/tokens/night.json")).unwrap();
    let run = s.import(&["lumen.resolver.json", "--out", "../out"]);
    assert_eq!(run.code, 0, "{}", run.text());
    assert!(
        run.stdout.contains("modifiers theme (light, dark)"),
        "{}",
        run.text()
    );
}

#[test]
fn import_returns_promptly_on_a_fifo_or_a_device_as_input_or_source() {
    let s = Sandbox::new();
    mkfifo(&s.path("src/in.json"));
    let run = s.import(&["in.json", "--out", "../out"]);
    assert_eq!(run.code, 2, "{}", run.text());
    assert!(
        run.stderr
            .contains("cannot import in.json: in.json is a named pipe (FIFO), not a file"),
        "{}",
        run.text()
    );

    let run = s.import(&["/dev/zero", "--out", "../out", "--slug", "z"]);
    assert_eq!(run.code, 2, "{}", run.text());
    assert!(
        run.stderr.contains("zero is a device, not a file"),
        "{}",
        run.text()
    );
    assert!(tree(&s.path("out")).is_empty(), "nothing is written");

    let s = Sandbox::new();
    mkfifo(&s.path("src/tokens/f.json"));
    s.add_source("tokens/f.json");
    let run = s.import(&["lumen.resolver.json", "--out", "../out"]);
    assert_eq!(run.code, 1, "{}", run.text());
    assert!(
        run.stdout
            .contains("tokens/f.json is a named pipe (FIFO), not a file"),
        "{}",
        run.text()
    );

    let s = Sandbox::new();
    symlink("/dev/zero", s.path("src/tokens/z.json")).unwrap();
    s.add_source("tokens/z.json");
    let run = s.import(&["lumen.resolver.json", "--out", "../out"]);
    assert_eq!(run.code, 1, "{}", run.text());
    assert!(
        run.stdout.contains("tokens/z.json is a device, not a file")
            || run
                .stdout
                .contains("tokens/z.json is a link to a file outside"),
        "{}",
        run.text()
    );
    assert!(tree(&s.path("out")).is_empty(), "nothing is written");
}

#[test]
fn import_refuses_an_input_or_source_over_the_file_size_limit() {
    let s = Sandbox::new();
    // Sparse: six MiB on paper, nothing on disk.
    let big = std::fs::File::create(s.path("src/big.tokens.json")).unwrap();
    big.set_len(6 * 1024 * 1024).unwrap();
    let run = s.import(&["big.tokens.json", "--out", "../out"]);
    assert_eq!(run.code, 2, "{}", run.text());
    assert!(
        run.stderr
            .contains("file is 6291456 bytes; the limit is 5 MiB"),
        "{}",
        run.text()
    );

    std::fs::rename(s.path("src/big.tokens.json"), s.path("src/tokens/big.json")).unwrap();
    s.add_source("tokens/big.json");
    let run = s.import(&["lumen.resolver.json", "--out", "../out"]);
    assert_eq!(run.code, 1, "{}", run.text());
    assert!(
        run.stdout
            .contains("file is 6291456 bytes; the limit is 5 MiB"),
        "{}",
        run.text()
    );
    assert!(tree(&s.path("out")).is_empty(), "nothing is written");
}

#[test]
fn import_slugs_never_leave_the_output_folder() {
    let long = "x".repeat(300);
    let slugs = [
        "../escape",
        "../../outside",
        "/tmp/marque-import-abs-slug",
        "a/b",
        "..",
        ".",
        "",
        ".hidden",
        "UPPER",
        "a..b",
        "a b",
        "x;touch pwned",
        long.as_str(),
    ];
    for slug in slugs {
        let s = Sandbox::new();
        let before = tree(s.dir.path());
        let run = s.import(&["lumen.resolver.json", "--out", "../out", "--slug", slug]);
        assert_eq!(run.code, 2, "{slug:?}: {}", run.text());
        assert!(
            run.stderr.contains("is not a slug"),
            "{slug:?}: {}",
            run.text()
        );
        let mut after = tree(s.dir.path());
        after.remove("stdout.txt");
        after.remove("stderr.txt");
        assert_eq!(after, before, "{slug:?}: nothing is written anywhere");
    }
    assert!(!Path::new("/tmp/marque-import-abs-slug").exists());
}
