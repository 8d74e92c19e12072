//! The `marque` binary's commands, run as a user runs them.

use crate::helpers::*;
use std::process::Command;

fn marque(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(args)
        .env_remove("MARQUE_CONTENT")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn check_passes_on_the_example_content() {
    let (code, out) = marque(&["check", example_content().to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("2 brand(s) checked, 2 valid: 0 error(s)"),
        "{out}"
    );
}

#[test]
fn check_prints_compiler_style_errors_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    let brand = dir.path().join("northwind/brand.json");
    let text = std::fs::read_to_string(&brand)
        .unwrap()
        .replacen("\"2.4.0\"", "\"2.4\"", 1);
    std::fs::write(&brand, text).unwrap();
    let (code, out) = marque(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error[MQ1201]: version \"2.4\" is not a semantic version"),
        "{out}"
    );
    assert!(out.contains(" --> northwind/brand.json:4:14\n"), "{out}");
    assert!(
        out.contains("4 |   \"version\": \"2.4\",\n  |              ^^^^^\n"),
        "the source line and a caret under the value: {out}"
    );
    let (code, out) = marque(&["check", dir.path().to_str().unwrap(), "--format", "json"]);
    assert_eq!(code, 1);
    let line: serde_json::Value = out
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|d| d["severity"] == "error")
        .expect("one error line");
    assert_eq!(line["severity"], "error");
    assert_eq!(line["file"], "northwind/brand.json");
    assert_eq!(line["pointer"], "/version");
    assert_eq!(
        (line["line"].as_u64(), line["column"].as_u64()),
        (Some(4), Some(14))
    );
}

#[test]
fn build_writes_every_surface_with_compressed_siblings() {
    let out = tempfile::tempdir().unwrap();
    let (code, text) = marque(&[
        "build",
        example_content().to_str().unwrap(),
        "--out",
        out.path().to_str().unwrap(),
        "--public-url",
        "https://brand.example.com",
    ]);
    assert_eq!(code, 0, "{text}");
    let root = out.path();
    for file in [
        "index.html",
        "llms.txt",
        "brands.json",
        "schema/brand.schema.json",
        "brand/northwind/index.html",
        "brand/northwind/spec.json",
        "brand/northwind/spec.md",
        "brand/northwind/tokens.css",
        "brand/northwind/tokens.figma.json",
        "brand/northwind/llms.txt",
        "brand/northwind/assets/logo.svg",
        "embed/brand/northwind.js",
        "_headers",
    ] {
        assert!(root.join(file).is_file(), "{file}");
    }
    let css = std::fs::read(root.join("brand/northwind/tokens.css")).unwrap();
    assert_eq!(
        gunzip(&std::fs::read(root.join("brand/northwind/tokens.css.gz")).unwrap()),
        css
    );
    assert_eq!(
        unbrotli(&std::fs::read(root.join("brand/northwind/tokens.css.br")).unwrap()),
        css
    );
    let spec = std::fs::read_to_string(root.join("brand/northwind/spec.json")).unwrap();
    assert!(spec.contains("https://brand.example.com/brand/northwind/spec.md"));
    assert!(
        !root.join("status").exists(),
        "operational documents are not published"
    );
    // It says how many files it wrote, and it wrote that many.
    fn count(dir: &std::path::Path) -> usize {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| if p.is_dir() { count(&p) } else { 1 })
            .sum()
    }
    let written = count(root);
    assert!(
        text.contains(&format!("wrote {written} files (")),
        "{written} files on disk: {text}"
    );
}

#[test]
fn serve_reads_its_config_from_the_environment_and_drains_on_sigterm() {
    use std::io::{BufRead, BufReader};
    let mut child = Command::new(env!("CARGO_BIN_EXE_marque"))
        .env("MARQUE_CONTENT", example_content())
        .env("MARQUE_LISTEN", "127.0.0.1:0")
        .env("MARQUE_PUBLIC_URL", "https://brand.example.com/")
        .env("MARQUE_LOG_FORMAT", "json")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let addr: std::net::SocketAddr = loop {
        let line = lines.next().expect("marque logs that it listens").unwrap();
        let log: serde_json::Value = serde_json::from_str(&line).expect("JSON logs");
        if log["fields"]["message"] == "marque is listening" {
            break log["fields"]["addr"].as_str().unwrap().parse().unwrap();
        }
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while raw_request(addr, "GET", "/readyz", &[], None).status != 200 {
        assert!(std::time::Instant::now() < deadline, "ready in time");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let spec = raw_request(addr, "GET", "/brand/northwind/spec.json", &[], None);
    assert!(String::from_utf8_lossy(&spec.body)
        .contains("\"https://brand.example.com/brand/northwind/spec.md\""));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "exits cleanly: {status}");
            break;
        }
        assert!(std::time::Instant::now() < deadline, "exits after SIGTERM");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(
        std::net::TcpStream::connect(addr).is_err(),
        "stops listening"
    );
}

#[test]
fn serve_refuses_a_public_url_that_links_cannot_be_made_from_before_it_listens() {
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["serve", "--listen", "127.0.0.1:0", "--public-url"])
        .arg("brands.example.com")
        .arg("--content")
        .arg(example_content())
        .env("MARQUE_LLM_API_KEY", "")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--public-url \"brands.example.com\" must be an absolute http(s) URL"),
        "{stderr}"
    );
    assert!(!stderr.contains("listening"), "{stderr}");
}

/// `marque check DIR | head`, with standard error in the pipe too
/// (`2>&1`): the reader goes away after a few lines.
#[test]
fn a_pipe_closed_early_ends_output_quietly_and_keeps_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    // Enough frames to fill a pipe's buffer many times over.
    for i in 0..400 {
        let brand = dir.path().join(format!("broken-{i:03}"));
        std::fs::create_dir_all(&brand).unwrap();
        std::fs::write(
            brand.join("brand.json"),
            "{\"name\": 7, \"version\": \"v1\"}\n",
        )
        .unwrap();
    }
    let (reader, writer) = std::io::pipe().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_marque"))
        .arg("check")
        .arg(dir.path())
        .env("NO_COLOR", "1")
        .stdout(writer.try_clone().unwrap())
        .stderr(writer)
        .spawn()
        .unwrap();
    let mut first = [0u8; 64];
    let mut reader = reader;
    std::io::Read::read_exact(&mut reader, &mut first).unwrap();
    drop(reader);
    let status = child.wait().unwrap();
    assert_eq!(
        status.code(),
        Some(1),
        "the errors' exit code, not 2 (Broken pipe) or 101 (a panic)"
    );
}

/// `--log-format json`: each line is a JSON object whose structured fields
/// keep their types: the rebuild's brands an array, its milliseconds and
/// counts numbers.
#[test]
fn json_logs_write_lists_as_arrays_and_numbers_as_numbers() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args([
            "--listen",
            "127.0.0.1:0",
            "--no-watch",
            "--log-format",
            "json",
        ])
        .arg("--content")
        .arg(example_content())
        .arg("--cache-dir")
        .arg(dir.path().join("cache"))
        .stderr(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut log = String::new();
    let rebuilt = loop {
        let mut line = String::new();
        if err.read_line(&mut line).unwrap() == 0 {
            let _ = child.kill();
            panic!("marque logs a rebuild: {log}");
        }
        log.push_str(&line);
        let v: serde_json::Value = serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("every line is JSON ({e}): {line}"));
        if v["fields"]["message"] == "rebuilt" {
            break v;
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    let fields = &rebuilt["fields"];
    assert_eq!(
        fields["brands"],
        serde_json::json!(["lumen-health: added", "northwind: added"]),
        "{rebuilt}"
    );
    assert!(fields["ms"].is_f64() || fields["ms"].is_u64(), "{rebuilt}");
    for count in ["errors", "warnings", "generation"] {
        assert!(fields[count].is_u64(), "{count}: {rebuilt}");
    }
    assert_eq!(rebuilt["level"], "INFO");
    assert_eq!(rebuilt["target"], "marque::report");
}
