//! Compression levels, measured: for every surface of the example brands,
//! the bytes and the time of gzip and brotli at several levels. The levels
//! marque uses are chosen from this table (README, "Decisions").
//!
//! `cargo bench --bench compression`.

// A benchmark unwraps (a failure ends the run) and prints its figures.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

use marque::build::{build_catalog, BuildOptions, Catalog};
use marque::render::Context;
use std::io::Write;
use std::time::Instant;

fn gzip(body: &[u8], level: u32) -> usize {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(level));
    enc.write_all(body).unwrap();
    enc.finish().unwrap().len()
}

fn brotli(body: &[u8], quality: u32) -> usize {
    brotli_window(body, quality, 22)
}

fn brotli_window(body: &[u8], quality: u32, lgwin: u32) -> usize {
    let mut out = Vec::new();
    {
        let mut w = brotli::CompressorWriter::new(&mut out, 4096, quality, lgwin);
        w.write_all(body).unwrap();
    }
    out.len()
}

/// The smallest window (10 to 22 bits) that holds the whole body.
fn fit(len: usize) -> u32 {
    (usize::BITS - len.max(1).leading_zeros()).clamp(10, 22)
}

fn main() {
    let content = marque::source::read_folder(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content"),
    )
    .unwrap();
    let ctx = Context::new("https://brand.example.com");
    let catalog = build_catalog(
        &content,
        &ctx,
        marque::spec::Moment::at(chrono::Utc::now()),
        &Catalog::default(),
        &BuildOptions::default(),
    );
    // Every text body of every brand: what is compressed at each reload of a brand.
    let bodies: Vec<Vec<u8>> = catalog
        .published()
        .flat_map(|p| p.resources.iter())
        .filter(|(_, r)| !r.content_type.to_str().unwrap_or("").starts_with("image/"))
        .map(|(_, r)| r.body().to_vec())
        .collect();
    let total: usize = bodies.iter().map(Vec::len).sum();
    println!(
        "{} text bodies of {} brands, {} bytes in all",
        bodies.len(),
        catalog.published().count(),
        total
    );
    println!(
        "{:<12} {:>10} {:>8} {:>12}",
        "coding", "bytes", "ratio", "ms/brand"
    );
    let brands = catalog.published().count() as f64;
    let rounds = 20;
    let run = |name: String, f: &dyn Fn(&[u8]) -> usize| {
        let started = Instant::now();
        let mut bytes = 0;
        for _ in 0..rounds {
            bytes = bodies.iter().map(|b| f(b)).sum::<usize>();
        }
        let ms = started.elapsed().as_secs_f64() * 1000.0 / rounds as f64 / brands;
        println!(
            "{name:<12} {bytes:>10} {:>8.3} {ms:>12.2}",
            bytes as f64 / total as f64
        );
    };
    for level in [1, 4, 6, 9] {
        run(format!("gzip -{level}"), &|b| gzip(b, level));
    }
    for q in [1, 3, 4, 5, 6, 9, 11] {
        run(format!("brotli {q}"), &|b| brotli(b, q));
    }
    // What marque runs: the same bytes as gzip -6 and brotli 5 above, by
    // compressors whose tables are kept between bodies (`snapshot::coding`).
    run("marque gz 6".into(), &|b| {
        marque::snapshot::gzip(b, 6).len()
    });
    run("marque br 5".into(), &|b| {
        marque::snapshot::brotli(b, 5).len()
    });
    // The window: 4 MiB, smaller, just enough for the body, or that but at
    // least 17 bits (at 16 or fewer brotli changes its match finder).
    for q in [5, 6] {
        for lgwin in [16, 17, 18, 20] {
            run(format!("br {q} w{lgwin}"), &|b| brotli_window(b, q, lgwin));
        }
        run(format!("br {q} fit"), &|b| {
            brotli_window(b, q, fit(b.len()))
        });
        run(format!("br {q} fit17"), &|b| {
            brotli_window(b, q, fit(b.len()).max(17))
        });
    }
}
