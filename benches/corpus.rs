//! Real design systems: reading and checking every context of each system
//! of the public DTCG corpus (npm `dtcg-examples` 1.1.3, which `.ci/deps`
//! fetches into `target/`), rendering every surface of it, and
//! save-to-served for the largest published one.
//!
//! `cargo bench --bench corpus` (or `just bench-corpus`). Targets, checked
//! here and reported as PASS or FAIL: reading and checking every context of
//! GitHub Primer (about 1,500 tokens in 60 files, 12 permutations) under
//! 300 ms; save-to-served of a resolver brand under 250 ms (median); a
//! generated system of 40,000 tokens in four contexts (issue 59) read,
//! checked and rendered under 2 s.
//!
//! `cargo bench --bench corpus -- --write-large DIR N` only writes the
//! generated system of N tokens to DIR (to measure `marque check` on it);
//! `-- --large N` only reads, checks and renders it once, and prints the
//! time (run under `/usr/bin/time -v` for the peak memory of one build).

// A benchmark unwraps (a failure ends the run) and prints its figures.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

#[allow(dead_code)]
#[path = "../tests/it/support/helpers.rs"]
mod helpers;
#[path = "../tests/it/support/large_system.rs"]
mod large_system;

use helpers::*;
use marque::render::{Context, Surface};
use marque::source::read_folder;
use marque::spec::brand::parse_brand;
use std::path::Path;
use std::time::{Duration, Instant};

/// The allocator the `marque` binary runs with (`src/main.rs`), so the
/// figures are the server's and not the system allocator's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The generated system's size: the target, 40,000 tokens.
const LARGE: usize = 40_000;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == "--write-large") {
        let n = args.get(at + 2).map_or(LARGE, |n| n.parse().unwrap());
        large_system::large_system(Path::new(&args[at + 1]), n);
        return;
    }
    if let Some(at) = args.iter().position(|a| a == "--large") {
        let n = args.get(at + 1).map_or(LARGE, |n| n.parse().unwrap());
        let dir = tempfile::tempdir().unwrap();
        large_system::large_system(&dir.path().join("content/large-system"), n);
        let content = read_folder(&dir.path().join("content")).unwrap();
        let started = Instant::now();
        let (brand, _) = parse_brand(&content.brands[0], marque::clock::today());
        let check = started.elapsed().as_secs_f64();
        let brand = brand.expect("the generated system is valid");
        let ctx = Context::new("http://127.0.0.1:8080");
        let bytes: usize = Surface::ALL
            .iter()
            .map(|s| s.render(&brand, &ctx).len())
            .sum();
        println!(
            "{n} tokens: check {check:.2} s, then render {:.2} s, {} MiB of surfaces",
            started.elapsed().as_secs_f64() - check,
            bytes >> 20
        );
        return;
    }
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/dtcg-examples-1.1.3/package");
    assert!(
        corpus.join("package.json").is_file(),
        "the corpus is missing: run `bash .ci/deps`"
    );
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    corpus_content(&corpus, &root);
    large_system::large_system(&root.join("large-system"), LARGE);
    let content = read_folder(&root).unwrap();
    let ctx = Context::new("http://127.0.0.1:8080");
    let today = marque::clock::today();
    let mut verdicts = Vec::new();
    println!("system: files, tokens, contexts; read and check every context p50; render every surface p50");
    for files in &content.brands {
        let large = files.slug == "large-system";
        let runs = if large { 5 } else { 15 };
        let mut check = Vec::new();
        let mut brand = None;
        for _ in 0..runs {
            let started = Instant::now();
            let (b, _) = parse_brand(files, today);
            check.push(started.elapsed().as_secs_f64() * 1000.0);
            brand = b;
        }
        let check = median(check);
        let (tokens, contexts, render) = match &brand {
            Some(b) => {
                let mut times = Vec::new();
                for _ in 0..runs {
                    let started = Instant::now();
                    for s in Surface::ALL {
                        std::hint::black_box(s.render(b, &ctx));
                    }
                    times.push(started.elapsed().as_secs_f64() * 1000.0);
                }
                let contexts: usize = b.tokens.modes.iter().map(|m| m.contexts.len()).sum();
                (
                    b.tokens.tokens.len(),
                    contexts,
                    format!("{:.1} ms", median(times)),
                )
            }
            None => (0, 0, "not valid".to_string()),
        };
        println!(
            "{}: {} files, {tokens} tokens, {contexts} contexts; check {check:.1} ms; render {render}",
            files.slug,
            files.files().len() - 1,
        );
        if large {
            let total = check
                + render
                    .trim_end_matches(" ms")
                    .parse::<f64>()
                    .unwrap_or(f64::INFINITY);
            println!("large-system: read, check and render {total:.0} ms");
            verdicts.push((
                "40,000 tokens in 4 contexts: read, check and render under 2 s",
                total < 2000.0,
            ));
        }
        if files.slug == "github-primer" {
            verdicts.push((
                "Primer: read and check every context under 300 ms",
                check < 300.0,
            ));
        }
    }

    // Save-to-served for the largest published system.
    let app = spawn_app(&root);
    let path = root.join("adobe-spectrum/brand.json");
    let original = std::fs::read_to_string(&path).unwrap();
    let mut latencies = Vec::new();
    for i in 1..=20 {
        let marker = format!("Edit {i}.");
        let tmp = path.with_file_name(".brand.json.tmp");
        std::fs::write(&tmp, original.replace("Edit 0.", &marker)).unwrap();
        std::fs::rename(&tmp, &path).unwrap();
        let started = Instant::now();
        loop {
            let res = app.get("/brand/adobe-spectrum/spec.json");
            if res.status == 200 && res.text().contains(&marker) {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "edit {i} never served"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        latencies.push(started.elapsed().as_secs_f64() * 1000.0);
        std::thread::sleep(Duration::from_millis(150));
    }
    let p50 = median(latencies.clone());
    latencies.sort_by(f64::total_cmp);
    println!(
        "save-to-served, adobe-spectrum (20 edits by rename): p50={p50:.1} ms max={:.1} ms",
        latencies[latencies.len() - 1]
    );
    verdicts.push(("save-to-served median under 250 ms (Spectrum)", p50 < 250.0));
    let mut failed = false;
    for (what, ok) in verdicts {
        println!("{} {what}", if ok { "PASS" } else { "FAIL" });
        failed |= !ok;
    }
    if failed {
        std::process::exit(1);
    }
}
