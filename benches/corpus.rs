//! Real design systems: reading and checking every context of each system
//! of the public DTCG corpus (npm `dtcg-examples` 1.1.3, which `.ci/deps`
//! fetches into `target/`), rendering every surface of it, and
//! save-to-served for the largest published one.
//!
//! `cargo bench --bench corpus` (or `just bench-corpus`). Targets, checked
//! here and reported as PASS or FAIL: reading and checking every context of
//! GitHub Primer (about 1,500 tokens in 60 files, 12 permutations) under
//! 300 ms; save-to-served of a resolver brand under 250 ms (median).

// A benchmark unwraps (a failure ends the run) and prints its figures.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

#[allow(dead_code)]
#[path = "../tests/it/support/helpers.rs"]
mod helpers;

use helpers::*;
use marque::render::{Context, Surface};
use marque::source::read_folder;
use marque::spec::brand::parse_brand;
use std::path::Path;
use std::time::{Duration, Instant};

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/dtcg-examples-1.1.3/package");
    assert!(
        corpus.join("package.json").is_file(),
        "the corpus is missing: run `bash .ci/deps`"
    );
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    corpus_content(&corpus, &root);
    let content = read_folder(&root).unwrap();
    let ctx = Context::new("http://127.0.0.1:8080");
    let today = marque::clock::today();
    let mut verdicts = Vec::new();
    println!("system: files, tokens, contexts; read and check every context p50; render every surface p50");
    for files in &content.brands {
        let runs = 15;
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
