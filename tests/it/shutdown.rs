//! SIGTERM under load, on the real binary: clients keep asking while slow
//! requests are under way; on the signal, every request already accepted
//! is answered in full, new connections are refused once the listener is
//! closed, and the process exits 0 within its drain timeout. Loopback
//! only, with a bounded number of clients, requests and seconds.

use crate::helpers::*;
use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier, Mutex};
use std::time::{Duration, Instant};

/// Clients asking for a surface in a loop, each request on a new connection.
const LOAD_CLIENTS: usize = 8;
/// Requests under way at the signal, each sending its body slowly.
const SLOW_CLIENTS: usize = 4;
/// The pause between the pieces of a slow body: eleven pieces follow the
/// signal, so about 2.2 s.
const PACE: Duration = Duration::from_millis(200);
/// The most requests one load client makes (it stops once refused).
const MAX_PER_CLIENT: usize = 20_000;

/// `marque serve` on the example content, and the address it listens on.
fn serve(args: &[&str]) -> (Child, SocketAddr, std::thread::JoinHandle<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args([
            "serve",
            "--no-watch",
            "--listen",
            "127.0.0.1:0",
            "--threads",
            "2",
        ])
        .args(args)
        .arg("--content")
        .arg(example_content())
        .env("MARQUE_LLM_API_KEY", "")
        .env("MARQUE_LOG_FORMAT", "json")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let addr: SocketAddr = loop {
        let line = lines.next().expect("marque logs that it listens").unwrap();
        let log: serde_json::Value = serde_json::from_str(&line).expect("JSON logs");
        if log["fields"]["message"] == "marque is listening" {
            break log["fields"]["addr"].as_str().unwrap().parse().unwrap();
        }
    };
    // The rest of the log, kept for the assertions.
    let log =
        std::thread::spawn(move || lines.map_while(Result::ok).collect::<Vec<_>>().join("\n"));
    let deadline = Instant::now() + Duration::from_secs(60);
    while raw_request(addr, "GET", "/readyz", &[], None).status != 200 {
        assert!(Instant::now() < deadline, "ready in time");
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, addr, log)
}

fn sigterm(child: &Child) {
    let sent = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// Waits for the process to exit; its status and when it exited.
fn exited(child: &mut Child, within: Duration) -> (std::process::ExitStatus, Instant) {
    let deadline = Instant::now() + within;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (status, Instant::now());
        }
        assert!(Instant::now() < deadline, "exits within {within:?}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Connections the server has accepted so far (from `/metrics`, whose own
/// connection is among them).
fn accepted(addr: SocketAddr) -> u64 {
    let text = raw_request(addr, "GET", "/metrics", &[], None).text();
    text.lines()
        .filter(|l| l.starts_with("marque_http_connections_total{"))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
        .sum()
}

/// Waits until the server has accepted `more` connections besides those
/// it had at `before` (each look is a connection of its own).
fn wait_accepted(addr: SocketAddr, before: u64, more: u64) {
    let deadline = Instant::now() + Duration::from_secs(10);
    for looks in 1.. {
        if accepted(addr) >= before + more + looks {
            return;
        }
        assert!(Instant::now() < deadline, "{more} connection(s) accepted");
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// One whole response read to the end of its connection: its status and
/// body, or why it is not one (a reset, a cut body), and whether it was a
/// reset before a byte of response.
fn read_whole(mut stream: TcpStream) -> Result<Response, (bool, String)> {
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    let mut raw = Vec::new();
    if let Err(e) = stream.read_to_end(&mut raw) {
        let reset = e.kind() == ErrorKind::ConnectionReset && raw.is_empty();
        return Err((reset, format!("read: {e} after {} bytes", raw.len())));
    }
    if !raw.windows(4).any(|w| w == b"\r\n\r\n") {
        return Err((false, format!("no response head in {} bytes", raw.len())));
    }
    let res = parse_response(&raw, false);
    let length = res
        .header("content-length")
        .and_then(|v| v.parse::<usize>().ok());
    match length {
        Some(n) if n != res.body.len() => {
            Err((false, format!("body cut: {} of {n} bytes", res.body.len())))
        }
        _ => Ok(res),
    }
}

/// What the load clients saw.
#[derive(Default)]
struct Tally {
    ok: AtomicUsize,
    /// Could not connect: why (refused, once the listener is closed).
    refused: Mutex<Vec<ErrorKind>>,
    /// Connected, then reset before a byte of response: a connection the
    /// kernel completed in the instant between marque's last accept and
    /// its close, which marque never saw (a proxy retries it as it
    /// retries a refused one).
    reset_unseen: AtomicUsize,
    /// Connected, then no whole 200 otherwise: what must never happen.
    failed: Mutex<Vec<String>>,
    /// Connected and not yet answered: requests in flight.
    in_flight: AtomicUsize,
}

/// A client asking for tokens.css, one connection per request, until the
/// server refuses it (or it has asked `MAX_PER_CLIENT` times).
fn load_client(addr: SocketAddr, tally: &Tally) {
    let req = format!(
        "GET /brand/northwind/tokens.css HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    );
    for _ in 0..MAX_PER_CLIENT {
        let mut stream = match TcpStream::connect_timeout(&addr, Duration::from_secs(5)) {
            Ok(s) => s,
            // Refused, or a handshake the close cut short: never connected.
            Err(e) => {
                tally.refused.lock().unwrap().push(e.kind());
                return;
            }
        };
        tally.in_flight.fetch_add(1, Ordering::SeqCst);
        let outcome = stream
            .write_all(req.as_bytes())
            .map_err(|e| (false, format!("write: {e}")))
            .and_then(|()| read_whole(stream));
        match outcome {
            Ok(res) if res.status == 200 && res.text().contains("--") => {
                tally.ok.fetch_add(1, Ordering::SeqCst);
            }
            Ok(res) => tally
                .failed
                .lock()
                .unwrap()
                .push(format!("status {}", res.status)),
            Err((true, _)) => {
                tally.reset_unseen.fetch_add(1, Ordering::SeqCst);
            }
            Err((false, e)) => tally.failed.lock().unwrap().push(e),
        }
        tally.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A prompt demo call (a dry run: no model) whose body is sent in pieces:
/// the first before `signalled`, the rest at a slow pace after it.
fn slow_client(
    addr: SocketAddr,
    signalled: &Barrier,
    sent: &AtomicUsize,
) -> Result<Response, String> {
    let body = br#"{"promptId": "weather-notice", "variables": {"location": "our Troms\u00f8 store", "forecast": "sleet from 14:00"}}"#;
    let mut stream = TcpStream::connect(addr).map_err(|e| e.to_string())?;
    let head = format!(
        "POST /api/brand-spec/northwind/demo HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(&body[..8]).unwrap();
    signalled.wait();
    for piece in body[8..].chunks(10) {
        std::thread::sleep(PACE);
        stream
            .write_all(piece)
            .map_err(|e| format!("write after SIGTERM: {e}"))?;
    }
    sent.fetch_add(1, Ordering::SeqCst);
    read_whole(stream).map_err(|(_, e)| e)
}

#[test]
fn sigterm_under_load_answers_every_request_in_flight_and_refuses_new_ones() {
    let (mut child, addr, log) = serve(&["--drain-timeout", "5s"]);
    // The slow requests first, each accepted before anything else starts.
    let before = accepted(addr);
    let signal = Arc::new(Barrier::new(SLOW_CLIENTS + 1));
    let sent = Arc::new(AtomicUsize::new(0));
    let slow: Vec<_> = (0..SLOW_CLIENTS)
        .map(|_| {
            let (signal, sent) = (signal.clone(), sent.clone());
            std::thread::spawn(move || slow_client(addr, &signal, &sent))
        })
        .collect();
    wait_accepted(addr, before, SLOW_CLIENTS as u64);
    // Then the load, until it is well under way.
    let tally = Arc::new(Tally::default());
    let load: Vec<_> = (0..LOAD_CLIENTS)
        .map(|_| {
            let tally = tally.clone();
            std::thread::spawn(move || load_client(addr, &tally))
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(30);
    while tally.ok.load(Ordering::SeqCst) < 200 {
        assert!(Instant::now() < deadline, "the load is served");
        assert!(
            tally.failed.lock().unwrap().is_empty(),
            "{:?}",
            tally.failed.lock().unwrap()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let served_before = tally.ok.load(Ordering::SeqCst);
    sigterm(&child);
    let at_signal = Instant::now();
    let load_in_flight = tally.in_flight.load(Ordering::SeqCst);
    signal.wait();
    // The listener closes while the slow bodies are still arriving.
    let deadline = Instant::now() + Duration::from_secs(3);
    let refused_after = loop {
        match TcpStream::connect(addr) {
            Err(e) if e.kind() == ErrorKind::ConnectionRefused => break at_signal.elapsed(),
            // Accepted from the queue before the close: answered, like any;
            // or a handshake the close cut short (never connected).
            Ok(_) | Err(_) => std::thread::sleep(Duration::from_millis(1)),
        }
        assert!(
            Instant::now() < deadline,
            "new connections are refused after SIGTERM"
        );
    };
    assert_eq!(
        sent.load(Ordering::SeqCst),
        0,
        "refused only {refused_after:?} after SIGTERM, once a slow body was whole"
    );
    for t in load {
        t.join().unwrap();
    }
    let mut slow_ok = 0;
    for t in slow {
        let res = t
            .join()
            .unwrap()
            .expect("a slow request in flight is answered");
        assert_eq!(res.status, 200, "{}", res.text());
        assert_eq!(res.json()["promptId"], "weather-notice", "{}", res.text());
        slow_ok += 1;
    }
    let (status, at_exit) = exited(&mut child, Duration::from_secs(5));
    let took = at_exit - at_signal;
    let failed = tally.failed.lock().unwrap().clone();
    println!(
        "SIGTERM under load: {served_before} served before it; in flight at SIGTERM: {} ({SLOW_CLIENTS} slow uploads, {load_in_flight} load); \
         served in all {} + {slow_ok} slow; failed {}; reset before marque saw them {}; \
         refused after the listener closed: {} clients (first {:.0} ms after SIGTERM); {status} after {:.0} ms",
        SLOW_CLIENTS + load_in_flight,
        tally.ok.load(Ordering::SeqCst),
        failed.len(),
        tally.reset_unseen.load(Ordering::SeqCst),
        tally.refused.lock().unwrap().len(),
        refused_after.as_secs_f64() * 1000.0,
        took.as_secs_f64() * 1000.0,
    );
    assert!(
        failed.is_empty(),
        "requests accepted and not answered: {failed:?}"
    );
    assert_eq!(slow_ok, SLOW_CLIENTS);
    // At most one per client: each then connects again, and is refused.
    assert!(tally.reset_unseen.load(Ordering::SeqCst) <= LOAD_CLIENTS);
    let refused = tally.refused.lock().unwrap().clone();
    assert_eq!(
        refused.len(),
        LOAD_CLIENTS,
        "every load client is refused in the end"
    );
    // A connect the listener's close cut short mid-handshake is reset, not
    // refused: never connected either way.
    assert!(
        refused
            .iter()
            .all(|k| matches!(k, ErrorKind::ConnectionRefused | ErrorKind::ConnectionReset)),
        "{refused:?}"
    );
    assert!(status.success(), "exits 0: {status}");
    // The slow bodies take about 2.2 s after the signal; the drain, 5 s at most.
    assert!(
        took >= PACE * 10 && took < Duration::from_secs(5),
        "{took:?}"
    );
    let log = log.join().unwrap();
    assert!(log.contains("shutdown signal received; draining"), "{log}");
    assert!(!log.contains("drain timed out"), "{log}");
}

#[test]
fn a_request_slower_than_the_drain_timeout_is_closed_and_marque_still_exits_0() {
    let (mut child, addr, log) = serve(&["--drain-timeout", "500ms"]);
    let before = accepted(addr);
    // Its body would take about 2.2 s after the signal.
    let signal = Arc::new(Barrier::new(2));
    let slow = {
        let signal = signal.clone();
        std::thread::spawn(move || slow_client(addr, &signal, &AtomicUsize::new(0)))
    };
    wait_accepted(addr, before, 1);
    sigterm(&child);
    let at_signal = Instant::now();
    signal.wait();
    let (status, at_exit) = exited(&mut child, Duration::from_secs(3));
    assert!(status.success(), "exits 0: {status}");
    let took = at_exit - at_signal;
    assert!(
        took >= Duration::from_millis(450) && took < Duration::from_millis(1500),
        "{took:?}"
    );
    assert!(
        slow.join().unwrap().is_err(),
        "the request cut off gets no response"
    );
    let log = log.join().unwrap();
    assert!(
        log.contains("drain timed out; closing remaining connections"),
        "{log}"
    );
}

#[test]
fn a_connection_that_sends_nothing_does_not_hold_the_drain() {
    let (mut child, addr, _log) = serve(&["--drain-timeout", "5s"]);
    let before = accepted(addr);
    // A browser's preconnect: connected, and no request yet.
    let idle = TcpStream::connect(addr).unwrap();
    wait_accepted(addr, before, 1);
    sigterm(&child);
    let at_signal = Instant::now();
    let (status, at_exit) = exited(&mut child, Duration::from_secs(5));
    assert!(status.success(), "exits 0: {status}");
    // Its grace for a first request is a second, not the header timeout (10 s).
    let took = at_exit - at_signal;
    assert!(took < Duration::from_secs(3), "{took:?}");
    drop(idle);
}
