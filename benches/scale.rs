//! Scale benchmark: N copies of the example brand Northwind (default 1,000),
//! served by the real binary. Prints the time to ready (cold, then warm from
//! the cache of rendered brands), save-to-served p50 and p99 over 30 saves
//! of one brand, full `check` and `build` times, RSS and snapshot bytes,
//! and where a brand's bytes go: each of its documents in every coding, and
//! its share of the documents about all brands.
//!
//! `just bench-scale [N]` or `cargo bench --bench scale -- --brands N
//! [--scopes K]` (K brands private, a token scope each). `MARQUE_BENCH_BIN`
//! names another build's binary to measure with the same harness.

// A benchmark unwraps (a failure ends the run) and prints its figures.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The binary measured: this build's, or `MARQUE_BENCH_BIN` (another
/// build's, to compare two side by side with one harness).
fn bin() -> String {
    std::env::var("MARQUE_BENCH_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_marque").to_string())
}
const SUMMARY: &str = "Outdoor gear for people who go out in any weather.";

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// N copies of Northwind, each with its own name.
fn generate(root: &Path, n: usize) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("content/northwind");
    for i in 0..n {
        let dir = root.join(format!("brand-{i:05}"));
        copy_dir(&src, &dir);
        let p = dir.join("brand.json");
        let text = std::fs::read_to_string(&p).unwrap().replacen(
            "Northwind Outfitters",
            &format!("Brand {i:05}"),
            1,
        );
        std::fs::write(p, text).unwrap();
    }
}

fn get(port: u16, path: &str) -> Option<(u16, String)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).ok()?;
    let text = String::from_utf8_lossy(&buf).into_owned();
    let status = text.get(9..12)?.parse().ok()?;
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string())?;
    Some((status, body))
}

/// The length and ETag of the body `path` answers with `coding`
/// (`identity`, `gzip` or `br`); a length of 0 when that coding is not
/// kept for it.
fn coded(port: u16, path: &str, coding: &str) -> (usize, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nAccept-Encoding: {coding}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&buf[..end]).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200"), "{path}: {head}");
    let header = |name: &str| head.lines().find_map(|l| l.strip_prefix(name));
    let sent = header("content-encoding: ").unwrap_or("identity");
    let etag = header("etag: ").unwrap_or_default().to_string();
    match sent == coding {
        true => (buf.len() - end - 4, etag),
        false => (0, etag),
    }
}

/// Where one brand's bytes go: each document of `brand-00000` in each
/// coding (those equal in every copy, held once, set apart), then its
/// share of the documents about all `n` brands.
fn breakdown(port: u16, n: usize) {
    use marque::paths;
    let doc = |slug: &str, file: &str| match file {
        "page" => paths::brand(slug),
        "embed" => paths::embed(slug),
        file => paths::brand_doc(slug, file),
    };
    use marque::render::outputs::{Serves, OUTPUTS};
    // Every output the current version serves (Northwind has no dark
    // context, so no night resources), the changelogs, page and embed.
    let files = OUTPUTS
        .iter()
        .filter(|o| o.serves == Serves::Always)
        .map(|o| o.file)
        .chain([paths::CHANGELOG_MD, paths::CHANGELOG_JSON, "page", "embed"]);
    let lists = [
        paths::INDEX,
        paths::BRANDS_JSON,
        paths::LLMS_TXT,
        paths::OPENAPI,
    ];
    // An identity body in this range with a gzip coding is held only as
    // that coding (`snapshot::INFLATED`): it is served, not held.
    let held = |[i, g, b]: [usize; 3]| {
        let inflated = g > 0 && marque::snapshot::INFLATED.contains(&i);
        [if inflated { 0 } else { i }, g, b]
    };
    let mut rows: Vec<(String, [usize; 3], bool)> = Vec::new();
    for file in files {
        let path = doc("brand-00000", file);
        let sizes = held(["identity", "gzip", "br"].map(|c| coded(port, &path, c).0));
        // Equal bodies are one body: the same ETag in another copy.
        let held_once = n > 1
            && coded(port, &path, "identity").1
                == coded(port, &doc("brand-00001", file), "identity").1;
        rows.push((file.to_string(), sizes, held_once));
    }
    for path in lists {
        let sizes = held(["identity", "gzip", "br"].map(|c| coded(port, path, c).0)).map(|b| b / n);
        rows.push((format!("{path} / {n}"), sizes, false));
    }
    rows.sort_by_key(|(_, sizes, _)| std::cmp::Reverse(sizes.iter().sum::<usize>()));
    let kib = |b: usize| b as f64 / 1024.0;
    println!(
        "where a brand's bytes go, KiB held (identity + gzip + br), then its share of each list;"
    );
    println!("an identity of 2 to 256 KiB with a gzip coding is held as that coding (0 here):");
    for (name, [i, g, b], once) in &rows {
        let note = if *once {
            "  (the same in every copy: held once)"
        } else {
            ""
        };
        let (i, g, b) = (kib(*i), kib(*g), kib(*b));
        println!(
            "  {name:24} {i:6.1} + {g:5.1} + {b:5.1} = {:6.1}{note}",
            i + g + b
        );
    }
    let own: usize = rows
        .iter()
        .filter(|(_, _, once)| !once)
        .map(|(_, sizes, _)| sizes.iter().sum::<usize>())
        .sum();
    println!("  {:24} {:>30.1}", "total, each held once", kib(own));
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

struct Server {
    child: Child,
    port: u16,
}

impl Server {
    /// Starts `marque serve` (with `tokens`, an access tokens file) and
    /// returns it once /readyz says 200, with the time that took.
    fn start(content: &Path, cache: &Path, tokens: Option<&Path>) -> (Server, Duration) {
        let port = free_port();
        let started = Instant::now();
        let mut cmd = Command::new(bin());
        cmd.args(["serve", "--listen", &format!("127.0.0.1:{port}")]);
        if let Some(t) = tokens {
            cmd.arg("--access-tokens").arg(t);
        }
        let child = cmd
            .arg("--content")
            .arg(content)
            .arg("--cache-dir")
            .arg(cache)
            // Renders name the public URL: the same one for both starts.
            .args(["--public-url", "https://brands.example.com"])
            .env("RUST_LOG", "warn")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let server = Server { child, port };
        let deadline = Instant::now() + Duration::from_secs(600);
        loop {
            if get(port, "/readyz").is_some_and(|(s, _)| s == 200) {
                return (server, started.elapsed());
            }
            assert!(Instant::now() < deadline, "never ready");
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn rss_mib(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
            .map_or(0.0, |kb| kb / 1024.0)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Saves by writing a temporary file and renaming it, as editors do.
fn save(path: &Path, text: &str) {
    let tmp = path.with_file_name(".brand.json.tmp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

fn timed(cmd: &mut Command) -> Duration {
    let started = Instant::now();
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    let took = started.elapsed();
    assert!(status.code().is_some(), "{cmd:?} ran");
    took
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args
        .iter()
        .position(|a| a == "--brands")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(1000);
    // `--scopes K`: K brands private, each opened by a token of its own
    // (K views besides the public one, each with its lists of all brands).
    let scopes: usize = args
        .iter()
        .position(|a| a == "--scopes")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let work = tempfile::tempdir().unwrap();
    let content: PathBuf = work.path().join("content");
    let cache = work.path().join("cache");
    let t = Instant::now();
    generate(&content, n);
    let tokens = (scopes > 0).then(|| {
        let mut lines = String::new();
        // The last K: the first brand is the one whose bytes are broken down.
        for k in 0..scopes {
            let slug = format!("brand-{:05}", n - 1 - k);
            let path = content.join(&slug).join("brand.json");
            let text = std::fs::read_to_string(&path).unwrap();
            std::fs::write(
                &path,
                text.replacen("{", "{\n  \"visibility\": \"private\",", 1),
            )
            .unwrap();
            let token = format!("mq_bench_scope_{k:04}_0123456789abcdef");
            lines.push_str(
                &marque::access::line_for(&format!("scope-{k}"), &token, &[slug]).unwrap(),
            );
            lines.push('\n');
        }
        let path = work.path().join("tokens.txt");
        std::fs::write(&path, lines).unwrap();
        println!("scale: {scopes} private brands, a token scope each");
        path
    });
    println!(
        "scale: {n} brands (copies of Northwind), generated in {:.1} s; {} cores",
        t.elapsed().as_secs_f64(),
        std::thread::available_parallelism().map_or(1, |c| c.get())
    );

    let (server, cold) = Server::start(&content, &cache, tokens.as_deref());
    let status = get(server.port, "/status").unwrap().1;
    let status: serde_json::Value = serde_json::from_str(&status).unwrap();
    let bytes = status["snapshotBytes"].as_f64().unwrap_or(0.0) / 1048576.0;
    let rss = server.rss_mib();
    println!("cold start to ready:   {:8.2} s", cold.as_secs_f64());
    println!(
        "RSS when ready:        {rss:8.1} MiB; snapshot {bytes:.1} MiB ({:.0} KiB per brand)",
        bytes * 1024.0 / n as f64
    );

    // 30 saves of one brand, each waited for, once the first build's
    // codings and cache entries are written: a cache entry is written once
    // its brand's codings are made, so a full cache says both are done.
    let settled = Instant::now();
    let entries = || std::fs::read_dir(cache.join("render")).map_or(0, |d| d.count());
    while entries() < n && settled.elapsed() < Duration::from_secs(300) {
        std::thread::sleep(Duration::from_millis(100));
    }
    println!(
        "codings and render cache written {:.1} s after ready",
        settled.elapsed().as_secs_f64()
    );
    breakdown(server.port, n);
    let slug = format!("brand-{:05}", n / 2);
    let path = content.join(&slug).join("brand.json");
    let original = std::fs::read_to_string(&path).unwrap();
    let mut latencies = Vec::new();
    for i in 0..30 {
        let marker = format!("Save {i} at {:?}.", Instant::now());
        save(&path, &original.replacen(SUMMARY, &marker, 1));
        let started = Instant::now();
        loop {
            let body = get(server.port, &format!("/brand/{slug}/spec.json")).map(|r| r.1);
            if body.is_some_and(|b| b.contains(&marker)) {
                break;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "save {i} never served"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        latencies.push(started.elapsed().as_secs_f64() * 1000.0);
        std::thread::sleep(Duration::from_millis(50));
    }
    latencies.sort_by(f64::total_cmp);
    println!(
        "save to served:        p50 {:.0} ms, p99 {:.0} ms (30 saves)",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99)
    );
    let rss_after = server.rss_mib();
    let status = get(server.port, "/status").unwrap().1;
    let status: serde_json::Value = serde_json::from_str(&status).unwrap();
    let bytes = status["snapshotBytes"].as_f64().unwrap_or(0.0) / 1048576.0;
    println!(
        "RSS after the saves:   {rss_after:8.1} MiB; snapshot {bytes:.1} MiB, every coding in"
    );
    drop(server);
    save(&path, &original);

    let (server, warm) = Server::start(&content, &cache, tokens.as_deref());
    println!(
        "warm start to ready:   {:8.2} s (from the cache of rendered brands)",
        warm.as_secs_f64()
    );
    drop(server);

    let check = timed(Command::new(bin()).arg("check").arg(&content));
    println!("marque check:          {:8.2} s", check.as_secs_f64());
    let out = work.path().join("site");
    let build = timed(
        Command::new(bin())
            .arg("build")
            .arg(&content)
            .arg("--out")
            .arg(&out),
    );
    println!("marque build:          {:8.2} s", build.as_secs_f64());
}
