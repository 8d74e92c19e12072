//! After a restart, the events of the last publish are neither lost nor
//! sent twice to a target that acknowledged them: the real binary is
//! killed (SIGKILL, then SIGTERM) while one target has not acknowledged
//! an event, and started again on the same cache directory.

use super::receiver::{Answer, Got, Receiver};
use super::{verifies, NOTIFY_SECRET};
use crate::helpers::*;
use crate::reload::workspace;
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `marque` serving `content`, its deliveries written down in `cache`.
struct Server {
    child: Child,
    addr: SocketAddr,
}

impl Server {
    fn start(content: &Path, cache: &Path, notify: &[String]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_marque"))
            .args(["--listen", "127.0.0.1:0", "--log-format", "json"])
            .arg("--content")
            .arg(content)
            .arg("--cache-dir")
            .arg(cache)
            .arg("--notify-url")
            .arg(notify.join(","))
            .env("MARQUE_NOTIFY_SECRET", NOTIFY_SECRET)
            .env("MARQUE_LLM_API_KEY", "")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let addr: SocketAddr = loop {
            let line = lines.next().expect("marque logs that it listens").unwrap();
            let log: Value = serde_json::from_str(&line).expect("JSON logs");
            if log["fields"]["message"] == "marque is listening" {
                break log["fields"]["addr"].as_str().unwrap().parse().unwrap();
            }
        };
        // The rest of the log is read, so marque never blocks on a full pipe.
        std::thread::spawn(move || lines.for_each(drop));
        let server = Server { child, addr };
        server.wait_until(|s| s.get("/readyz").0 == 200, "marque is ready");
        server
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let r = raw_request(self.addr, "GET", path, &[], None);
        (
            r.status,
            serde_json::from_slice(&r.body).unwrap_or_default(),
        )
    }

    fn outbound(&self) -> Value {
        self.get("/status").1["outbound"].clone()
    }

    fn wait_until(&self, ok: impl Fn(&Server) -> bool, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !ok(self) {
            assert!(Instant::now() < deadline, "timed out waiting until {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends `signal` and waits for the process to end.
    fn kill(mut self, signal: &str) {
        let sent = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let deadline = Instant::now() + Duration::from_secs(15);
        while self.child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "marque ends after {signal}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The outbox as written down: deliveries pending, ids acknowledged.
fn journal(cache: &Path) -> (usize, usize) {
    let Ok(bytes) = std::fs::read(cache.join("outbox.json")) else {
        return (0, 0);
    };
    let v: Value = serde_json::from_slice(&bytes).unwrap();
    let len = |k: &str| v[k].as_array().map_or(0, Vec::len);
    (len("pending"), len("acked"))
}

/// A brand appears (a folder renamed into the content, whole): a
/// `brand.published` event.
fn publish_a_brand(content: &Path) {
    let staged = content.parent().unwrap().join("staged");
    copy_dir(&content.join("northwind"), &staged);
    std::fs::rename(&staged, content.join("northwind-trail")).unwrap();
}

fn event_ids(got: &[Got]) -> Vec<String> {
    got.iter()
        .map(|g| g.header("idempotency-key").to_string())
        .collect()
}

/// The story: `steady` acknowledges at once; `flaky` answers `first`, so
/// its delivery is pending when marque is killed with `signal`. Started
/// again, marque sends `flaky` the same event (same key, signed), and
/// `steady` nothing.
fn a_pending_event_survives(signal: &str, first: Answer) {
    let ws = workspace();
    let cache = tempfile::tempdir().unwrap();
    let (steady, flaky) = (Receiver::start(&[]), Receiver::start(&[first]));
    let targets = [steady.url("/hook"), flaky.url("/hook")];
    let server = Server::start(&ws.root, cache.path(), &targets);
    publish_a_brand(&ws.root);
    steady.wait_for(1, "the event, acknowledged");
    flaky.wait_for(1, "the event, not acknowledged");
    let written = Instant::now() + Duration::from_secs(10);
    while journal(cache.path()) != (1, 1) {
        assert!(Instant::now() < written, "{:?}", journal(cache.path()));
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(server.outbound()["pending"], 1);
    server.kill(signal);

    let again = Server::start(&ws.root, cache.path(), &targets);
    let got = flaky.wait_for(2, "the pending event, after the restart");
    again.wait_until(
        |s| s.outbound()["sent"] == 1 && s.outbound()["pending"] == 0,
        "the resumed delivery is acknowledged",
    );
    std::thread::sleep(Duration::from_millis(500));
    let (first_try, resumed) = (&got[0], &got[1]);
    println!(
        "{signal}: target that acknowledged before the kill got {} request(s); the other got {} ({:?}), keys {:?}",
        steady.got().len(),
        flaky.got().len(),
        first,
        event_ids(&flaky.got())
    );
    assert_eq!(steady.got().len(), 1, "not sent again to who acknowledged");
    assert_eq!(flaky.got().len(), 2, "sent once more, and acknowledged");
    assert_eq!(
        first_try.header("idempotency-key"),
        resumed.header("idempotency-key")
    );
    assert_eq!(
        resumed.header("idempotency-key"),
        steady.got()[0].header("idempotency-key")
    );
    assert_eq!(
        resumed.body, first_try.body,
        "the same event, verdict and all"
    );
    assert!(verifies(resumed), "signed again, with a fresh timestamp");
    let e = resumed.json();
    assert_eq!(
        (e["type"].as_str(), e["brand"].as_str()),
        (Some("brand.published"), Some("northwind-trail"))
    );
    assert_eq!(journal(cache.path()), (0, 2));
    // A third start: everything was acknowledged, nothing is sent.
    again.kill("-TERM");
    let third = Server::start(&ws.root, cache.path(), &targets);
    std::thread::sleep(Duration::from_millis(700));
    assert_eq!((steady.got().len(), flaky.got().len()), (1, 2));
    assert_eq!(third.outbound()["sent"], 0);
    let record = std::fs::read_to_string(cache.path().join("outbox.json")).unwrap();
    assert!(!record.contains(NOTIFY_SECRET), "no secret on disk");
}

#[test]
fn an_event_pending_at_a_sigkill_is_sent_after_the_restart_and_acknowledged_once() {
    // 503 with Retry-After: an hour: the delivery waits to try again.
    a_pending_event_survives("-KILL", Answer::RetryAfter(503, 3600));
}

#[test]
fn an_event_hanging_at_a_sigterm_is_sent_after_the_restart_and_acknowledged_once() {
    a_pending_event_survives("-TERM", Answer::Hang);
}
