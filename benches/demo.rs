//! Prompt-demo benchmark: the latency marque adds over a local upstream that
//! answers at once, the rate limiter's cost per request, and the limiter's
//! memory after 1,000,000 distinct client addresses (and after a purge).
//!
//! `cargo bench --bench demo` (or `just bench-demo`).

// A benchmark unwraps (a failure ends the run) and prints its figures.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

#[allow(dead_code)]
#[path = "../tests/it/support/helpers.rs"]
mod helpers;
#[allow(dead_code)]
#[path = "../tests/it/support/llm_mock.rs"]
mod llm_mock;

use helpers::*;
use llm_mock::{MockLlm, Wire};
use marque::demo::limit::DemoLimiter;
use marque::demo::llm::ProviderKind;
use std::net::{IpAddr, Ipv4Addr};
use std::time::{Duration, Instant};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn rss_mib() -> f64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: f64 = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse().ok())
        .unwrap_or(0.0);
    pages * 4096.0 / 1048576.0
}

fn timed(n: usize, mut f: impl FnMut()) -> Vec<f64> {
    let mut out: Vec<f64> = (0..n)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    out.sort_by(f64::total_cmp);
    out
}

fn main() {
    let mock = MockLlm::start(Wire::OpenAi);
    let mut config = serve_config(&example_content());
    config.demo.provider = ProviderKind::Openai;
    config.demo.base_url = Some(mock.base_url());
    config.demo.api_key = Some("bench".into());
    config.demo.per_minute = 1_000_000;
    config.demo.burst = 1_000_000;
    let app = spawn_with(config);
    let body = serde_json::json!({"promptId": "weather-notice", "variables": {"location": "Tromsø", "forecast": "sleet"}}).to_string();
    let upstream_body = serde_json::json!({"model": "m", "messages": [{"role": "user", "content": "x".repeat(14_000)}], "max_tokens": 200}).to_string();
    let n = 2000;
    let direct = timed(n, || {
        let r = raw_request(
            mock.addr,
            "POST",
            "/v1/chat/completions",
            &[("Content-Type", "application/json")],
            Some(upstream_body.as_bytes()),
        );
        assert_eq!(r.status, 200);
    });
    let through = timed(n, || {
        let r = raw_request(
            app.addr,
            "POST",
            "/api/brand-spec/northwind/demo",
            &[("Content-Type", "application/json")],
            Some(body.as_bytes()),
        );
        assert_eq!(r.status, 200);
    });
    println!(
        "upstream directly:  p50={:.3} ms p99={:.3} ms ({n} requests, a 14 KB body like marque's)",
        percentile(&direct, 0.5),
        percentile(&direct, 0.99)
    );
    println!(
        "through marque:     p50={:.3} ms p99={:.3} ms",
        percentile(&through, 0.5),
        percentile(&through, 0.99)
    );
    println!(
        "added by marque:    p50={:.3} ms p99={:.3} ms (two connections instead of one, validation, rendering, rate limit)",
        percentile(&through, 0.5) - percentile(&direct, 0.5),
        percentile(&through, 0.99) - percentile(&direct, 0.99)
    );

    // Limiter cost per check.
    let limiter = DemoLimiter::new(60_000, 5);
    let checks = 2_000_000u32;
    let t = Instant::now();
    for i in 0..checks {
        let ip = IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + (i % 1000)));
        std::hint::black_box(limiter.check(ip));
    }
    println!(
        "limiter: {:.0} ns per check (1,000 clients, {checks} checks)",
        t.elapsed().as_nanos() as f64 / checks as f64
    );

    // Memory after 1,000,000 distinct addresses, then after a purge.
    let before = rss_mib();
    let limiter = DemoLimiter::new(60_000, 5);
    let t = Instant::now();
    for i in 0..1_000_000u32 {
        std::hint::black_box(limiter.check(IpAddr::V4(Ipv4Addr::from(0x6400_0000 + i))));
    }
    let filled = rss_mib();
    println!(
        "limiter: 1,000,000 distinct addresses in {:.2} s: {} keys, RSS +{:.1} MiB ({:.0} bytes per key)",
        t.elapsed().as_secs_f64(),
        limiter.len(),
        filled - before,
        (filled - before) * 1048576.0 / 1e6
    );
    // With 60,000/min and a burst of 5, a key's quota recovers within 5 ms.
    std::thread::sleep(Duration::from_millis(50));
    limiter.purge();
    println!("limiter after purge: {} keys, RSS {:.1} MiB (was {filled:.1} MiB; the allocator may keep freed pages)", limiter.len(), rss_mib());
    fleet_cost();
}

/// What the shared limit adds per demo request: one script call to a local
/// redis-server (started here, persistence off) against the in-process check.
fn fleet_cost() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let Ok(mut redis) = std::process::Command::new("redis-server")
        .args([
            "--port",
            &port.to_string(),
            "--save",
            "",
            "--appendonly",
            "no",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
    else {
        println!("fleet limiter: skipped (no redis-server; apt-get install redis-server)");
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let local = DemoLimiter::new(60_000, 5);
    let fleet =
        marque::fleet::Fleet::new(&format!("redis://127.0.0.1:{port}/"), None, "bench:").unwrap();
    let shared = marque::demo::limit::redis::SharedLimiter::new(fleet.clone());
    let (_stop, stopping) = tokio::sync::watch::channel(false);
    rt.block_on(async {
        fleet.spawn_connector(stopping);
        let start = Instant::now();
        while !fleet.is_shared() {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "redis did not answer"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    });
    let n = 20_000;
    let clients = |i: usize| IpAddr::V4(Ipv4Addr::from(0x0a00_0000 + (i % 1000) as u32));
    let mut i = 0;
    let shared = timed(n, || {
        i += 1;
        std::hint::black_box(rt.block_on(shared.check(clients(i), &local)));
    });
    let mut j = 0;
    let alone = timed(n, || {
        j += 1;
        std::hint::black_box(local.check(clients(j)));
    });
    assert!(fleet.is_shared(), "every check was decided by redis");
    println!(
        "fleet limiter through redis: p50={:.3} ms p99={:.3} ms per check; in-process: p50={:.4} ms p99={:.4} ms ({n} checks, 1,000 clients)",
        percentile(&shared, 0.5),
        percentile(&shared, 0.99),
        percentile(&alone, 0.5),
        percentile(&alone, 0.99)
    );
    let _ = redis.kill();
    let _ = redis.wait();
}
