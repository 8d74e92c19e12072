//! Test helpers: spawn the real server on 127.0.0.1:0 and speak HTTP/1.1 to
//! it over a plain TCP socket, so tests see exactly the bytes a client sees
//! (no automatic decompression, redirects or header rewriting).

// What tests configure a server with (a benchmark may use none of them).
#[allow(unused_imports)]
pub use marque::config::{FleetConfig, GitSource, ServeConfig, SourceConfig, Watch, Webhook};
#[allow(unused_imports)]
pub use marque::live::previews::PreviewConfig;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub struct TestApp {
    pub addr: SocketAddr,
    pub public_url: String,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
    /// The render cache folder the helper made for this app, removed with it.
    own_cache: Option<PathBuf>,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        if let Some(dir) = self.own_cache.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// The repository's example content.
pub fn example_content() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("content")
}

/// Serving `content` on 127.0.0.1:0, every other setting the flags' default.
pub fn serve_config(content: &Path) -> ServeConfig {
    ServeConfig::folder(content)
}

/// Starts marque on `content` and waits until it is ready.
pub fn spawn_app(content: &Path) -> TestApp {
    spawn_with(serve_config(content))
}

/// Starts marque and waits until it is ready and no brand is building
/// (a brand that takes longer than the patience of a build, as the corpus's
/// largest do in a debug build, is published a moment after the others).
pub fn spawn_with(args: ServeConfig) -> TestApp {
    let app = spawn_with_readiness(args, true);
    app.wait_until(|a| !a.building(), "every brand is built");
    // Brotli codings follow readiness: tests of codings want them made.
    app.wait_until(
        |a| a.get("/status").json()["brotliPending"] != true,
        "every body has its brotli coding",
    );
    app
}

/// Starts marque; with `wait_ready`, waits until `/readyz` answers 200.
pub fn spawn_with_readiness(mut args: ServeConfig, wait_ready: bool) -> TestApp {
    // Each app gets a render cache of its own (not the default one in the
    // working directory), unless the test chose one.
    let own_cache = (args.cache_dir == ServeConfig::folder("content").cache_dir).then(|| {
        let dir = tempfile::Builder::new()
            .prefix("marque-cache")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .unwrap()
            .keep();
        args.cache_dir = dir.clone();
        dir
    });
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let (ready_tx, ready_rx) = mpsc::channel();
    let thread = std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let shutdown = async move {
                let _ = rx.await;
            };
            let result = marque::cmd::serve::run(args, shutdown, |running| {
                let _ = ready_tx.send((running.addr, running.public_url.clone()));
            })
            .await;
            if let Err(e) = result {
                panic!("server failed: {e:#}");
            }
        });
    });
    let (addr, public_url) = ready_rx
        .recv_timeout(Duration::from_secs(30))
        .expect("server starts listening");
    let app = TestApp {
        addr,
        public_url,
        shutdown: Some(tx),
        thread: Some(thread),
        own_cache,
    };
    if wait_ready {
        app.wait_until(|a| a.get("/readyz").status == 200, "server becomes ready");
    }
    app
}

#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    pub headers: BTreeMap<String, Vec<String>>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .and_then(|v| v.first())
            .map(String::as_str)
    }

    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("body is UTF-8")
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is JSON ({e}): {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }
}

impl TestApp {
    pub fn get(&self, path: &str) -> Response {
        self.request("GET", path, &[], None)
    }

    pub fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Response {
        self.request("GET", path, headers, None)
    }

    /// Sends one request on a fresh connection and reads the whole response.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> Response {
        raw_request(self.addr, method, path, headers, body)
    }

    /// Polls `cond` until it holds, failing after 20 s.
    /// True while `/status` lists a brand as building.
    pub fn building(&self) -> bool {
        let s = self.get("/status").json();
        ["brands", "unpublished"].iter().any(|list| {
            s[list]
                .as_array()
                .is_some_and(|l| l.iter().any(|b| b["building"] == true))
        })
    }

    pub fn wait_until(&self, mut cond: impl FnMut(&TestApp) -> bool, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if cond(self) {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("timed out waiting until {what}");
    }

    /// Polls `found` until it gives a value, failing after 20 s.
    pub fn wait_until_some<T>(
        &self,
        mut found: impl FnMut(&TestApp) -> Option<T>,
        what: &str,
    ) -> T {
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Some(v) = found(self) {
                return v;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("timed out waiting until {what}");
    }
}

pub fn raw_request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Response {
    let stream = TcpStream::connect(addr).expect("connect");
    raw_request_on(stream, addr, method, path, headers, body)
}

/// A connection to `addr` from the address `local` (port chosen by the
/// system), so a test can be several clients: on Linux every address of
/// 127.0.0.0/8 reaches the loopback interface.
pub fn connect_from(local: std::net::IpAddr, addr: SocketAddr) -> TcpStream {
    // std cannot bind before connecting; tokio's socket can, and hands the
    // connected socket back as a std one.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .unwrap();
    let stream = rt.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(local, 0)).unwrap();
        let stream = socket.connect(addr).await.expect("connect");
        stream.into_std().unwrap()
    });
    stream.set_nonblocking(false).unwrap();
    stream
}

/// [`raw_request`] on a connection the caller opened (e.g. with [`connect_from`]).
pub fn raw_request_on(
    mut stream: TcpStream,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Response {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some(b) = body {
        req.push_str(&format!("Content-Length: {}\r\n", b.len()));
    }
    req.push_str("\r\n");
    stream.write_all(req.as_bytes()).unwrap();
    if let Some(b) = body {
        stream.write_all(b).unwrap();
    }
    let raw = read_message(&mut stream, method == "HEAD", &format!("{method} {path}"));
    parse_response(&raw, method == "HEAD")
}

/// Reads one response: to its Content-Length, to the last chunk, or to EOF
/// (some servers keep the connection open despite `Connection: close`).
fn read_message(stream: &mut TcpStream, head: bool, what: &str) -> Vec<u8> {
    let mut raw = Vec::new();
    let mut buf = [0u8; 16384];
    loop {
        if let Some(end) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            let head_text = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
            let body = raw.len() - end - 4;
            let length = head_text
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            let status_no_body =
                head_text.starts_with("http/1.1 304") || head_text.starts_with("http/1.1 204");
            if head || status_no_body || length == Some(body) {
                return raw;
            }
            if length.is_none()
                && head_text.contains("transfer-encoding: chunked")
                && raw.ends_with(b"\r\n0\r\n\r\n")
            {
                return raw;
            }
        }
        match stream.read(&mut buf) {
            Ok(0) => return raw,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(e) => panic!("read response to {what}: {e}"),
        }
    }
}

/// Parses one whole response as read off the wire.
pub fn parse_response(raw: &[u8], head: bool) -> Response {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("response has a head");
    let head_text = std::str::from_utf8(&raw[..end]).unwrap();
    let mut lines = head_text.split("\r\n");
    let status: u16 = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let mut headers: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in lines {
        let (k, v) = line.split_once(':').unwrap();
        headers
            .entry(k.trim().to_ascii_lowercase())
            .or_default()
            .push(v.trim().to_string());
    }
    let mut body = raw[end + 4..].to_vec();
    if head {
        assert!(body.is_empty(), "HEAD response has no body");
    }
    if headers
        .get("transfer-encoding")
        .is_some_and(|v| v.iter().any(|x| x.contains("chunked")))
    {
        body = dechunk(&body);
    }
    Response {
        status,
        headers,
        body,
    }
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let line_end = data.windows(2).position(|w| w == b"\r\n").unwrap();
        let size =
            usize::from_str_radix(std::str::from_utf8(&data[..line_end]).unwrap().trim(), 16)
                .unwrap();
        data = &data[line_end + 2..];
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&data[..size]);
        data = &data[size + 2..];
    }
}

pub fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .unwrap();
    out
}

pub fn unbrotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    brotli::Decompressor::new(bytes, 4096)
        .read_to_end(&mut out)
        .unwrap();
    out
}

/// `marque import ARGS`, run as a user runs it: whether it succeeded, and
/// what it printed (standard output, then standard error).
pub fn import(args: &[&str]) -> (bool, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .arg("import")
        .args(args)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// Copies a folder tree (for tests that edit content).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// Adds `n` tokens Figma has no variable for (stroke styles, under
/// `line`) at the top of a tokens file, so a test sees how a surface
/// reports what it leaves out. The bundled brands have none.
pub fn add_figma_gaps(tokens: &Path, n: usize) {
    let text = std::fs::read_to_string(tokens).unwrap();
    let gaps: Vec<String> = (0..n)
        .map(|i| {
            format!("\"dotted-{i}\": {{ \"$type\": \"strokeStyle\", \"$value\": \"dotted\" }}")
        })
        .collect();
    let open = text.find('{').expect("a tokens object");
    let text = format!(
        "{}{{\n  \"line\": {{ {} }},{}",
        &text[..open],
        gaps.join(", "),
        &text[open + 1..]
    );
    std::fs::write(tokens, text).unwrap();
}

/// The npm tools `.ci/deps` installs into `target/js-tools`.
pub fn js_tool(name: &str) -> Option<PathBuf> {
    let bin = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/js-tools/node_modules/.bin")
        .join(name);
    require(&format!("npm {name}"), bin.is_file(), "bash .ci/deps").then_some(bin)
}

/// Whether a test may use an outside tool. A tool that is missing fails
/// the test under CI (`.ci/run` installs it, so it must be there) and
/// skips it with a note elsewhere, so `cargo test` works with only Rust.
pub fn require(tool: &str, available: bool, install: &str) -> bool {
    if available {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false") {
        panic!("{tool} is missing under CI: {install}");
    }
    eprintln!("skipping: {tool} is not installed ({install})");
    false
}

/// True when `python3 -c <code>` runs and exits 0.
pub fn python_can(code: &str) -> bool {
    std::process::Command::new("python3")
        .args(["-c", code])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The seven systems of the public DTCG corpus (npm `dtcg-examples` 1.1.3).
pub const CORPUS_SYSTEMS: [&str; 7] = [
    "adobe-spectrum",
    "apple-hig",
    "figma-sds",
    "github-primer",
    "ibm-carbon",
    "microsoft-fluent",
    "shopify-polaris",
];

/// A content folder under `root` with one brand per corpus system: its
/// resolver document, its token files and a brand.json of four lines
/// (summary `Edit 0.`).
pub fn corpus_content(corpus: &Path, root: &Path) {
    for system in CORPUS_SYSTEMS {
        let brand = root.join(system);
        std::fs::create_dir_all(&brand).unwrap();
        std::fs::copy(
            corpus.join(format!("{system}.resolver.json")),
            brand.join("tokens.resolver.json"),
        )
        .unwrap();
        copy_dir(&corpus.join(system), &brand.join(system));
        std::fs::write(
            brand.join("brand.json"),
            format!("{{\"name\": \"{system}\", \"summary\": \"Edit 0.\", \"version\": \"0.1.0\", \"updated\": \"2026-11-20\"}}\n"),
        )
        .unwrap();
    }
}

/// One brand's entry in /status, published or not.
pub fn brand_status(app: &TestApp, slug: &str) -> Option<serde_json::Value> {
    let s = app.get("/status").json();
    s["brands"]
        .as_array()
        .unwrap()
        .iter()
        .chain(s["unpublished"].as_array().unwrap())
        .find(|b| b["slug"] == slug)
        .cloned()
}

/// Runs `marque check` under a memory cap (address space, as `ulimit -v`)
/// and returns its exit code, output and duration. Past the cap, an
/// allocation fails and the process aborts: the test then fails.
pub fn check_capped(dir: &Path, cap_mib: u64) -> (i32, String, Duration) {
    let started = Instant::now();
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {}; exec \"$0\" check \"$1\"",
            cap_mib * 1024
        ))
        .arg(env!("CARGO_BIN_EXE_marque"))
        .arg(dir)
        .env_remove("MARQUE_CONTENT")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        started.elapsed(),
    )
}

/// A second toolchain's differences from tokens.css, judged. `found` is
/// each difference as printed, with the index of the KNOWN entry that
/// explains it; `entries` names each KNOWN entry and gives its verdict.
/// Prints them all, and fails on a difference no entry explains (`tool`
/// names the other side) or an entry that explains none (stale).
pub fn judge_differences(
    tool: &str,
    found: Vec<(String, Option<usize>)>,
    entries: &[(String, String)],
) {
    let mut used = vec![0; entries.len()];
    let mut unexplained = Vec::new();
    for (line, known) in found {
        match known {
            Some(k) => {
                used[k] += 1;
                println!("  known: {line}");
            }
            None => {
                println!("  NEW:   {line}");
                unexplained.push(line);
            }
        }
    }
    let mut stale = Vec::new();
    for ((label, verdict), n) in entries.iter().zip(&used) {
        match n {
            0 => {
                println!("stale: {label} matches no difference now");
                stale.push(label.clone());
            }
            n => println!("{n} x {label}: {verdict}"),
        }
    }
    assert!(
        unexplained.is_empty(),
        "{} differences between tokens.css and {tool}'s CSS are not in KNOWN:\n{}",
        unexplained.len(),
        unexplained.join("\n")
    );
    assert!(
        stale.is_empty(),
        "KNOWN entries that match no difference now (remove them): {stale:?}"
    );
}

/// A brand `ts` under `root` whose tokens are one Tokens Studio file,
/// `t.json`, holding `tokens`.
pub fn tokens_studio_brand(root: &Path, tokens: &str) {
    let dir = root.join("ts");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("brand.json"),
        r#"{"name":"TS","summary":"x","version":"0.1.0","updated":"2026-11-01","tokens":{"path":"t.json","format":"tokens-studio"}}"#,
    )
    .unwrap();
    std::fs::write(dir.join("t.json"), tokens).unwrap();
}
