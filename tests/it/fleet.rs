//! A fleet of replicas through a real Redis (`redis-server`, started here on
//! a free port with persistence off): one demo limit across replicas, the
//! local limit while Redis is stopped or slow, and a webhook delivered to
//! one replica fetched by all.
//!
//! `.ci/deps` installs redis-server; without it these tests fail under CI
//! and are skipped with a note elsewhere.

use super::git::{github_sig, serve_git_with, Remote};
use super::helpers::*;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub(crate) fn redis_available() -> bool {
    require(
        "redis-server",
        Command::new("redis-server")
            .arg("--version")
            .stdout(Stdio::null())
            .status()
            .is_ok_and(|s| s.success()),
        "apt-get install redis-server (bash .ci/deps)",
    )
}

/// A redis-server of this test's own, stopped when dropped.
pub(crate) struct Redis {
    port: u16,
    child: Option<Child>,
    /// Extra arguments of the server (TLS), and of redis-cli to reach it.
    server_args: Vec<String>,
    cli_args: Vec<String>,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Redis {
    pub(crate) fn start() -> Redis {
        Redis::start_with(Vec::new(), Vec::new())
    }

    fn start_with(server_args: Vec<String>, cli_args: Vec<String>) -> Redis {
        let mut r = Redis {
            port: free_port(),
            child: None,
            server_args,
            cli_args,
        };
        r.restart();
        r
    }

    fn restart(&mut self) {
        let port = self.port.to_string();
        let tls = self.server_args.iter().any(|a| a == "--tls-cert-file");
        let ports = if tls {
            ["--port", "0", "--tls-port", &port]
        } else {
            ["--port", &port, "--bind", "127.0.0.1"]
        };
        let child = Command::new("redis-server")
            .args(ports)
            .args(&self.server_args)
            .args(["--save", "", "--appendonly", "no"])
            // DEBUG SLEEP plays a slow Redis.
            .args(["--enable-debug-command", "local"])
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        self.child = Some(child);
        wait_for("redis to answer PING", || self.cli(&["PING"]) == "PONG");
    }

    fn stop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    pub(crate) fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    fn cli(&self, args: &[&str]) -> String {
        let out = Command::new("redis-cli")
            .args(["-p", &self.port.to_string()])
            .args(&self.cli_args)
            .args(args)
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.stop();
    }
}

fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// One dry-run demo call from `client` (the replicas trust loopback's
/// `X-Forwarded-For`, so each phase of a test is its own client).
fn demo(app: &TestApp, client: &str) -> Response {
    let body = br#"{"promptId": "weather-notice", "variables": {"location": "Bergen", "forecast": "rain"}}"#;
    app.request(
        "POST",
        "/api/brand-spec/northwind/demo",
        &[
            ("Content-Type", "application/json"),
            ("X-Forwarded-For", client),
        ],
        Some(body),
    )
}

fn mode(app: &TestApp) -> String {
    app.get("/status").json()["demoLimiter"]["mode"]
        .as_str()
        .unwrap()
        .to_string()
}

fn replica(redis: &Redis, burst: u32) -> TestApp {
    let mut args = serve_config(&example_content());
    args.fleet = Some(FleetConfig {
        url: redis.url(),
        password: None,
        prefix: "marque:".into(),
    });
    args.fleet.as_mut().unwrap().prefix = "test-fleet:".into();
    args.demo.burst = burst;
    args.demo.per_minute = 1;
    args.trusted_proxy = vec!["127.0.0.1/32".parse().unwrap()];
    spawn_with(args)
}

#[test]
fn replicas_share_one_limit_and_decide_alone_while_redis_is_down() {
    if !redis_available() {
        return;
    }
    let mut redis = Redis::start();
    let burst = 3;
    let (a, b) = (replica(&redis, burst), replica(&redis, burst));
    wait_for("both replicas to reach redis", || {
        mode(&a) == "shared" && mode(&b) == "shared"
    });

    // burst + 1 requests, alternating: exactly `burst` pass, on either replica.
    let statuses: Vec<u16> = (0..=burst)
        .map(|i| demo(if i % 2 == 0 { &a } else { &b }, "203.0.113.1").status)
        .collect();
    assert_eq!(statuses, [200, 200, 200, 429]);
    for app in [&a, &b] {
        let res = demo(app, "203.0.113.1");
        assert_eq!(res.status, 429);
        assert!(res.header("retry-after").unwrap().parse::<u64>().unwrap() >= 1);
        assert_eq!(res.header("ratelimit-policy"), Some("\"demo\";q=1;w=60"));
    }
    assert!(redis
        .cli(&["KEYS", "test-fleet:demo:*"])
        .contains("203.0.113.1"));

    // Slow: Redis busy for a second; a request waits at most 50 ms for it.
    let busy = {
        let port = redis.port.to_string();
        std::thread::spawn(move || {
            Command::new("redis-cli")
                .args(["-p", &port, "DEBUG", "SLEEP", "1"])
                .output()
                .unwrap()
        })
    };
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let res = demo(&a, "203.0.113.2");
    let waited = started.elapsed();
    assert_eq!(res.status, 200, "decided locally");
    assert!(waited < Duration::from_millis(500), "{waited:?}");
    assert_eq!(mode(&a), "local-fallback");
    let slept = busy.join().unwrap();
    assert_eq!(String::from_utf8_lossy(&slept.stdout).trim(), "OK");

    // Down: every request is still answered, by each replica's own limit.
    redis.stop();
    for app in [&a, &b] {
        for _ in 0..burst + 1 {
            let status = demo(app, "203.0.113.3").status;
            assert!(status == 200 || status == 429, "{status}");
        }
        assert_eq!(mode(app), "local-fallback");
        let metrics = app.get("/metrics").text();
        assert!(
            metrics.contains("marque_demo_limiter_shared 0"),
            "{metrics}"
        );
    }

    // Back: shared again within a few retries, and one limit again.
    redis.restart();
    for app in [&a, &b] {
        wait_for("the replica to use redis again", || {
            demo(app, "203.0.113.9");
            mode(app) == "shared"
        });
    }
    let statuses: Vec<u16> = (0..=burst)
        .map(|i| demo(if i % 2 == 0 { &b } else { &a }, "203.0.113.4").status)
        .collect();
    assert_eq!(statuses, [200, 200, 200, 429]);
    let status = a.get("/status").json();
    assert_eq!(status["demoLimiter"]["redis"], true);
    assert!(status["demoLimiter"]["decidedLocally"].as_u64().unwrap() > 0);
}

#[test]
fn a_webhook_to_one_replica_is_fetched_by_every_replica() {
    if !redis_available() {
        return;
    }
    let mut redis = Redis::start();
    let remote = Remote::new();
    let url = redis.url();
    let configure = |args: &mut marque::config::ServeConfig| {
        args.fleet = Some(FleetConfig {
            url: url.clone(),
            password: None,
            prefix: "marque:".into(),
        });
        args.fleet.as_mut().unwrap().prefix = "test-hook:".into();
        // Replicas behind one load balancer share its public URL.
        args.public_url = Some("https://brand.example.com".into());
    };
    let a = serve_git_with(&remote.url(), None, configure);
    let b = serve_git_with(&remote.url(), None, configure);
    let channel = format!("test-hook:fetch:{}", remote.url());
    wait_for("both replicas to listen for fetch notices", || {
        redis.cli(&["PUBSUB", "NUMSUB", &channel]).ends_with('2')
    });
    let etag = |app: &TestApp| {
        app.get("/brand/northwind/spec.json")
            .header("etag")
            .unwrap()
            .to_string()
    };
    let before = etag(&b.app);

    remote.set_version("northwind", "2.4.0", "2.5.0");
    remote.commit("Northwind 2.5.0", 5);
    // A push hint signed GitHub's way.
    let deliver = |app: &TestApp| {
        let body = br#"{"ref": "refs/heads/main"}"#;
        let sig = github_sig(body);
        let headers = [
            ("X-Hub-Signature-256", sig.as_str()),
            ("Content-Type", "application/json"),
        ];
        app.request("POST", "/hooks/git", &headers, Some(body))
            .status
    };
    let delivered = Instant::now();
    assert_eq!(deliver(&a.app), 202);
    wait_for("replica B to serve the pushed version", || {
        b.app.get("/brand/northwind/spec.json").json()["version"] == "2.5.0"
    });
    let took = delivered.elapsed();
    println!(
        "replica B served the push {} ms after the webhook reached A",
        took.as_millis()
    );
    assert!(took < Duration::from_secs(2), "{took:?}");
    wait_for("replica A to serve it too", || {
        a.app.get("/brand/northwind/spec.json").json()["version"] == "2.5.0"
    });
    assert_ne!(etag(&b.app), before);
    assert_eq!(etag(&a.app), etag(&b.app), "one revision, one ETag");
    assert_eq!(
        a.app.get("/status").json()["revision"],
        b.app.get("/status").json()["revision"]
    );

    // Redis restarts. The replicas find their connections dead and replace
    // them, so the limit is shared again within about a second, and the
    // next webhook's notice is not sent on a dead connection and lost.
    redis.stop();
    let mode = |app: &TestApp| app.get("/status").json()["demoLimiter"]["mode"].clone();
    wait_for("the replicas to notice that Redis is gone", || {
        mode(&a.app) == "local-fallback" && mode(&b.app) == "local-fallback"
    });
    redis.restart();
    let back = Instant::now();
    wait_for("both replicas to share the limit again", || {
        mode(&a.app) == "shared" && mode(&b.app) == "shared"
    });
    let shared_after = back.elapsed();
    println!(
        "shared again {} ms after Redis came back",
        shared_after.as_millis()
    );
    assert!(shared_after < Duration::from_secs(3), "{shared_after:?}");
    wait_for("replica B to listen again", || {
        redis.cli(&["PUBSUB", "NUMSUB", &channel]).ends_with('2')
    });
    remote.set_version("northwind", "2.5.0", "2.6.0");
    remote.commit("Northwind 2.6.0", 6);
    let delivered = Instant::now();
    assert_eq!(deliver(&a.app), 202);
    wait_for("replica B to serve the push after the restart", || {
        b.app.get("/brand/northwind/spec.json").json()["version"] == "2.6.0"
    });
    let took = delivered.elapsed();
    assert!(took < Duration::from_secs(2), "{took:?}");
}

#[test]
fn rediss_with_a_password_from_the_environment_is_used_and_never_logged() {
    if !redis_available()
        || !require(
            "openssl",
            Command::new("openssl").arg("version").output().is_ok(),
            "apt-get install openssl",
        )
    {
        return;
    }
    // A CA of this test's own, and a certificate for 127.0.0.1 it signed.
    let dir = tempfile::tempdir().unwrap();
    let at = |f: &str| dir.path().join(f).to_str().unwrap().to_string();
    let openssl = |args: &[&str]| {
        let out = Command::new("openssl")
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-days",
        "2",
        "-subj",
        "/CN=marque test CA",
    ]);
    openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    std::fs::write(
        dir.path().join("ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n",
    )
    .unwrap();
    openssl(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.crt",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.crt",
        "-days",
        "2",
        "-extfile",
        "ext",
    ]);
    let password = "correct-horse-battery-staple";
    let server_args = [
        "--tls-cert-file",
        &at("server.crt"),
        "--tls-key-file",
        &at("server.key"),
        "--tls-ca-cert-file",
        &at("ca.crt"),
        "--tls-auth-clients",
        "no",
        "--requirepass",
        password,
    ];
    let cli_args = [
        "--tls",
        "--cacert",
        &at("ca.crt"),
        "--no-auth-warning",
        "-a",
        password,
    ];
    let redis = Redis::start_with(
        server_args.iter().map(|s| s.to_string()).collect(),
        cli_args.iter().map(|s| s.to_string()).collect(),
    );

    // The real binary, configured only through the environment; the CA is
    // trusted the way an operator's would be (SSL_CERT_FILE).
    let mut child = Running(
        Command::new(env!("CARGO_BIN_EXE_marque"))
            .env("MARQUE_CONTENT", example_content())
            .env("MARQUE_LISTEN", "127.0.0.1:0")
            .env("MARQUE_NO_WATCH", "true")
            .env("MARQUE_LOG_FORMAT", "json")
            .env(
                "MARQUE_REDIS_URL",
                format!("rediss://127.0.0.1:{}/", redis.port),
            )
            .env("MARQUE_REDIS_PASSWORD", password)
            .env("MARQUE_REDIS_PREFIX", "tls-test:")
            .env("SSL_CERT_FILE", at("ca.crt"))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    use std::io::{BufRead, BufReader};
    let stderr = child.0.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let mut log = Vec::new();
    let addr: std::net::SocketAddr = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("marque logs that it listens");
        let event: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
        log.push(line);
        if event["fields"]["message"] == "marque is listening" {
            break event["fields"]["addr"].as_str().unwrap().parse().unwrap();
        }
    };
    wait_for("the first snapshot", || {
        raw_request(addr, "GET", "/readyz", &[], None).status == 200
    });
    let body = br#"{"promptId": "weather-notice", "variables": {"location": "Bergen", "forecast": "rain"}}"#;
    wait_for("the replica to use redis over TLS", || {
        let res = raw_request(
            addr,
            "POST",
            "/api/brand-spec/northwind/demo",
            &[("Content-Type", "application/json")],
            Some(body),
        );
        assert_eq!(res.status, 200);
        let status = raw_request(addr, "GET", "/status", &[], None);
        let status: serde_json::Value = serde_json::from_slice(&status.body).unwrap();
        status["demoLimiter"]["mode"] == "shared"
    });
    assert!(redis
        .cli(&["KEYS", "tls-test:demo:*"])
        .contains("127.0.0.1"));
    let status = raw_request(addr, "GET", "/status", &[], None);
    drop(child);
    log.extend(rx.try_iter());
    let all = log.join("\n");
    assert!(all.contains("redis answers"), "{all}");
    assert!(!all.contains(password), "the password is never logged");
    assert!(!String::from_utf8_lossy(&status.body).contains(password));
}

/// A child process killed when dropped, so a failing test leaves none behind.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}
