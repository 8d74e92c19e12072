//! The embed script and the API page in a real headless Chromium, driven
//! over the WebDriver protocol (chromedriver) with plain HTTP.
//!
//! `.ci/run` installs Debian's `chromium` and `chromium-driver`. Where they
//! are missing, these tests fail under CI (`CI=true`) and are skipped with
//! a note elsewhere, so `cargo test` works on a machine with only Rust.

use crate::helpers::*;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// One browser at a time: this machine has two cores.
pub(crate) static BROWSER_LOCK: Mutex<()> = Mutex::new(());

pub(crate) struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = raw_request(
            self.addr,
            "DELETE",
            &format!("/session/{}", self.session),
            &[],
            None,
        );
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// The browser lock, then a browser (`None`: Chromium is not installed).
/// Bound as `let Some((_one, b))`, the browser is dropped (its Chromium
/// stopped) before the lock is given back.
pub(crate) fn locked() -> Option<(std::sync::MutexGuard<'static, ()>, Browser)> {
    let one = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    Some((one, browser()?))
}

/// Starts chromedriver and a headless Chromium session, or says why it cannot.
pub(crate) fn browser() -> Option<Browser> {
    if !require(
        "chromium and chromium-driver",
        Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists(),
        "apt-get install chromium chromium-driver",
    ) {
        return None;
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let driver = Command::new(CHROMEDRIVER)
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver starts");
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::net::TcpStream::connect(addr).is_err() {
        assert!(Instant::now() < deadline, "chromedriver listens");
        std::thread::sleep(Duration::from_millis(50));
    }
    let profile = tempfile::tempdir().unwrap().keep();
    let caps = json!({"capabilities": {"alwaysMatch": {
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--window-size=1200,1600",
                format!("--user-data-dir={}", profile.display()),
            ]
        }
    }}});
    let res = webdriver(addr, "POST", "/session", Some(caps));
    let session = res["value"]["sessionId"]
        .as_str()
        .unwrap_or_else(|| panic!("a session starts: {res}"))
        .to_string();
    let b = Browser {
        driver,
        addr,
        session,
    };
    let res = b.cmd(
        "POST",
        "/goog/cdp/execute",
        Some(json!({"cmd": "Page.addScriptToEvaluateOnNewDocument", "params": {"source": CSP_WATCH}})),
    );
    assert!(
        res["value"].is_object(),
        "the CSP watch is installed: {res}"
    );
    Some(b)
}

/// Records each Content-Security-Policy violation of every page the session
/// opens, in `window.__cspViolations`: installed through DevTools before
/// any script of the page runs (and not itself subject to the page's CSP).
const CSP_WATCH: &str = "window.__cspViolations = []; document.addEventListener('securitypolicyviolation', function (e) { window.__cspViolations.push(e.violatedDirective + ' blocked ' + (e.blockedURI || '?') + ' at ' + (e.sourceFile || '?') + ':' + e.lineNumber); }, true);";

fn webdriver(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> Value {
    let bytes = body.map(|b| b.to_string().into_bytes());
    let res = raw_request(
        addr,
        method,
        path,
        &[("Content-Type", "application/json")],
        bytes.as_deref(),
    );
    serde_json::from_slice(&res.body).unwrap_or(Value::Null)
}

impl Browser {
    fn cmd(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        webdriver(
            self.addr,
            method,
            &format!("/session/{}{path}", self.session),
            body,
        )
    }

    pub(crate) fn goto(&self, url: &str) {
        let res = self.cmd("POST", "/url", Some(json!({"url": url})));
        assert!(res["value"].is_null(), "navigation to {url}: {res}");
    }

    /// Emulates the reader's `prefers-color-scheme: dark` (or stops).
    pub(crate) fn emulate_dark(&self, dark: bool) {
        let features = match dark {
            true => json!([{"name": "prefers-color-scheme", "value": "dark"}]),
            false => json!([]),
        };
        let res = self.cmd(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": "Emulation.setEmulatedMedia", "params": {"features": features}})),
        );
        assert!(res["value"].is_object(), "emulated media: {res}");
    }

    /// Runs JavaScript in the page and returns its result.
    pub(crate) fn js(&self, script: &str) -> Value {
        let res = self.cmd(
            "POST",
            "/execute/sync",
            Some(json!({"script": script, "args": []})),
        );
        if res["value"].get("error").is_some() {
            panic!("script failed: {}\n{script}", res["value"]);
        }
        res["value"].clone()
    }

    /// Polls `script` until it returns true.
    /// Opens the page of `slug` on the server at `base`, applies its
    /// tokens.css as a stylesheet, then runs `dom` (a script that adds the
    /// elements a test reads) and waits until both are done.
    pub(crate) fn with_tokens_css(&self, base: &str, slug: &str, dom: &str) {
        self.goto(&format!("{base}/brand/{slug}"));
        self.js(&format!(
            "fetch('/brand/{slug}/tokens.css').then(r => r.text()).then(t => {{ const s = document.createElement('style'); s.textContent = t; document.head.append(s); {dom}; window.__ready = true; }}); return 1;"
        ));
        self.wait_for("return window.__ready === true", "tokens.css is applied");
    }

    pub(crate) fn wait_for(&self, script: &str, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline {
            if self.js(script) == Value::Bool(true) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("timed out waiting for {what}");
    }

    /// The session's cookies, as WebDriver describes them (with their flags).
    pub(crate) fn cookies(&self) -> Vec<Value> {
        let res = self.cmd("GET", "/cookie", None);
        res["value"].as_array().cloned().unwrap_or_default()
    }

    /// Saves a screenshot as a test artifact and returns its path.
    pub(crate) fn screenshot(&self, name: &str) -> PathBuf {
        let res = self.cmd("GET", "/screenshot", None);
        let png = base64_decode(res["value"].as_str().expect("a screenshot"));
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        std::fs::write(&path, png).unwrap();
        path
    }

    /// What the page's Content-Security-Policy refused so far (see [`CSP_WATCH`]).
    pub(crate) fn csp_violations(&self) -> Value {
        let found = self.js("return window.__cspViolations || null;");
        assert!(found.is_array(), "the CSP watch runs in this page");
        found
    }

    /// True when a JavaScript dialog (alert) is open.
    fn dialog_open(&self) -> bool {
        self.cmd("GET", "/alert/text", None)["value"].is_string()
    }
}

fn base64_decode(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let clean: Vec<u8> = s
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
        .collect();
    let mut out = Vec::with_capacity(clean.len() * 3 / 4);
    for chunk in clean.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, c)| {
            acc | (u32::from(val(*c)) << (18 - 6 * i))
        });
        for i in 0..chunk.len().saturating_sub(1) {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    out
}

/// marque without watching. With watching, pages hold an EventSource open,
/// and headless Chromium's screenshots then time out waiting for the
/// renderer (seen here: two 10 s retries per screenshot, on and off). The
/// live-reload stream itself is tested over HTTP in `reload.rs`.
pub(crate) fn marque_for_browser(content: &Path) -> TestApp {
    let mut args = serve_config(content);
    args.set_watch(Watch::Off);
    spawn_with(args)
}

/// A host page on another origin (`localhost` instead of `127.0.0.1`) with
/// styles that try to reach into the cards, and a class name the card uses.
pub(crate) struct HostPage {
    addr: SocketAddr,
    _rt: tokio::runtime::Runtime,
}

pub(crate) fn host_page(html: String) -> HostPage {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let addr = rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let app = axum::Router::new().fallback(move || {
            let html = html.clone();
            async move { ([("content-type", "text/html; charset=utf-8")], html) }
        });
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        addr
    });
    HostPage { addr, _rt: rt }
}

impl HostPage {
    pub(crate) fn url(&self) -> String {
        format!("http://localhost:{}/", self.addr.port())
    }
}

const HOSTILE_HOST_STYLES: &str = "<style>
  h2 { color: rgb(255, 0, 0) !important; font-size: 64px !important; }
  .card { border-top: 0 !important; background: rgb(255, 255, 0); }
  img { display: none !important; }
</style>";

fn shadow(id: &str, expr: &str) -> String {
    format!("var r = document.getElementById('{id}').shadowRoot; return {expr};")
}

#[test]
fn the_card_takes_its_hosts_width_and_follows_its_theme() {
    let _one = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = browser() else { return };
    let marque = marque_for_browser(&example_content());
    let m = &marque.public_url;
    let host = host_page(format!(
        "<!doctype html><html><head><title>Host</title></head><body style=\"margin:0;background:#111\">
         <div data-marque-brand=\"northwind\" id=\"narrow\" style=\"width:300px\"></div>
         <div data-marque-brand=\"northwind\" id=\"wide\"></div>
         <div data-marque-brand=\"northwind\" id=\"dark\" data-theme=\"dark\" style=\"max-width:400px\"></div>
         <div data-marque-brand=\"lumen-health\" id=\"lone\" style=\"width:300px\"></div>
         <script async src=\"{m}/embed/brand/northwind\"></script>
         <script async src=\"{m}/embed/brand/lumen-health\"></script>
         </body></html>"
    ));
    for (width, name) in [(1280, "wide"), (375, "phone")] {
        b.cmd(
            "POST",
            "/window/rect",
            Some(json!({"width": width, "height": 1400})),
        );
        b.goto(&host.url());
        b.wait_for(
            "return ['narrow','wide','dark','lone'].every(function(id){ var e = document.getElementById(id); var r = e.shadowRoot; return r && Array.prototype.every.call(r.querySelectorAll('img'), function(i){ return getComputedStyle(i).display === 'none' || (i.complete && i.naturalWidth > 0); }); })",
            "four cards with their logos",
        );
        let rect = |id: &str| {
            b.js(&format!("var e = document.getElementById('{id}'); var c = e.shadowRoot.querySelector('.card').getBoundingClientRect(); return [getComputedStyle(e).display, Math.round(e.getBoundingClientRect().width), Math.round(c.width)];"))
        };
        // The host is a block the page sizes; the card fills it.
        assert_eq!(rect("narrow"), json!(["block", 300, 300]), "{name}");
        let wide = rect("wide");
        let page = b
            .js("return document.documentElement.clientWidth")
            .as_i64()
            .unwrap();
        assert!(page <= width, "{page}");
        let expected = page.min(560);
        assert_eq!(wide, json!(["block", expected, expected]), "{name}");
        // No text runs out of its box, at either width: the date stays whole.
        let overflow = b.js(&shadow(
            "narrow",
            "Array.prototype.filter.call(r.querySelectorAll('*'), function(e){ return e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflow === 'visible' && e.clientWidth > 0; }).map(function(e){ return e.className; })",
        ));
        assert_eq!(overflow, json!([]), "{name}");
        let spans = b.js(&shadow(
            "narrow",
            "Array.prototype.map.call(r.querySelectorAll('.version span'), function(s){ return s.getClientRects().length; })",
        ));
        assert_eq!(
            spans,
            json!([1, 1]),
            "each part of the version line on one line"
        );
        // A lone swatch in a narrow card shares its row.
        let tops = b.js(&shadow(
            "lone",
            "Array.prototype.map.call(r.querySelectorAll('.swatch'), function(s){ return Math.round(s.getBoundingClientRect().top); })",
        ));
        let tops: Vec<i64> = tops
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_i64().unwrap())
            .collect();
        let last_row = tops.iter().filter(|t| **t == *tops.last().unwrap()).count();
        assert!(last_row >= 2 || tops.len() == 1, "{tops:?}");
        b.screenshot(&format!("card-{name}"));
    }
    // The accent is the brand's colour, not the first swatch.
    assert_eq!(
        b.js(&shadow(
            "wide",
            "getComputedStyle(r.querySelector('.card')).borderTopColor"
        )),
        "rgb(21, 96, 160)"
    );
    // Dark: dark surface, light text, the logo made for dark backgrounds.
    let dark = b.js(&shadow(
        "dark",
        "(function(){ var c = getComputedStyle(r.querySelector('.card')); var shown = Array.prototype.filter.call(r.querySelectorAll('img'), function(i){ return getComputedStyle(i).display !== 'none'; }); return [c.backgroundColor, c.color, shown.length, shown[0].src]; })()",
    ));
    assert_eq!(dark[0], "rgb(13, 17, 23)");
    assert_eq!(dark[1], "rgb(230, 237, 243)");
    assert_eq!(dark[2], 1);
    assert_eq!(
        dark[3],
        format!("{m}/brand/northwind/assets/logo-reversed.svg")
    );
    // No swatches overlap, in any card.
    for id in ["narrow", "wide", "dark", "lone"] {
        let overlaps = b.js(&shadow(
            id,
            "(function(){ var q = Array.prototype.map.call(r.querySelectorAll('.swatch'), function(s){ return s.getBoundingClientRect(); }); var n = 0; for (var i = 0; i < q.length; i++) for (var j = i + 1; j < q.length; j++) { var a = q[i], b = q[j]; if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) n++; } return n; })()",
        ));
        assert_eq!(overlaps, 0, "{id}");
    }
    // `auto` follows the reader's colour scheme.
    b.cmd(
        "POST",
        "/goog/cdp/execute",
        Some(json!({"cmd": "Emulation.setEmulatedMedia", "params": {"features": [{"name": "prefers-color-scheme", "value": "dark"}]}})),
    );
    b.js("var d = document.createElement('div'); d.id = 'auto'; d.setAttribute('data-marque-brand', 'northwind'); d.setAttribute('data-theme', 'auto'); document.body.appendChild(d); return true;");
    b.wait_for(
        "var e = document.getElementById('auto'); return !!(e.shadowRoot && e.shadowRoot.querySelector('.card'));",
        "the auto card",
    );
    assert_eq!(
        b.js(&shadow(
            "auto",
            "getComputedStyle(r.querySelector('.card')).backgroundColor"
        )),
        "rgb(13, 17, 23)"
    );
    b.screenshot("card-auto-dark");
    // A brand with a dark context of its own shows it in a dark card: its
    // swatches take their dark values, with their hex.
    b.js("var d = document.createElement('div'); d.id = 'lumen-auto'; d.setAttribute('data-marque-brand', 'lumen-health'); d.setAttribute('data-theme', 'auto'); document.body.appendChild(d); return true;");
    b.wait_for(
        "var e = document.getElementById('lumen-auto'); return !!(e.shadowRoot && e.shadowRoot.querySelector('.card'));",
        "the lumen-health auto card",
    );
    let ink = |id: &str| {
        b.js(&shadow(
            id,
            "(function(){ var s = r.querySelectorAll('.swatch')[3]; var shown = Array.prototype.filter.call(s.querySelectorAll('.hex'), function(h){ return getComputedStyle(h).display !== 'none'; }); return [getComputedStyle(s.querySelector('.chip')).backgroundColor, shown.map(function(h){ return h.textContent; })]; })()",
        ))
    };
    assert_eq!(
        ink("lumen-auto"),
        json!(["rgb(253, 252, 249)", ["#fdfcf9"]])
    );
    assert_eq!(
        ink("lone"),
        json!(["rgb(26, 32, 40)", ["#1a2028"]]),
        "a light card keeps the default"
    );
    // The top border is the brand's colour in the card's theme: its dark
    // value in a dark card, as the brand swatch (the first) shows it.
    let border = |id: &str| {
        b.js(&shadow(
            id,
            "(function(){ var c = r.querySelector('.card'); return [getComputedStyle(c).borderTopColor, getComputedStyle(r.querySelector('.chip')).backgroundColor]; })()",
        ))
    };
    for id in ["lumen-auto", "lone"] {
        let got = border(id);
        assert_eq!(
            got[0], got[1],
            "{id}: the border is the brand swatch's colour"
        );
    }
    assert_ne!(
        border("lumen-auto")[0],
        border("lone")[0],
        "a dark card's border takes the brand's dark value"
    );
    b.cmd(
        "POST",
        "/goog/cdp/execute",
        Some(json!({"cmd": "Emulation.setEmulatedMedia", "params": {"features": [{"name": "prefers-color-scheme", "value": "light"}]}})),
    );
    let light = b.js(&shadow(
        "wide",
        "Array.prototype.filter.call(r.querySelectorAll('img'), function(i){ return getComputedStyle(i).display !== 'none'; }).map(function(i){ return i.src; })",
    ));
    assert_eq!(
        light,
        json!([format!("{m}/brand/northwind/assets/logo.svg")])
    );
}

#[test]
fn the_brand_card_renders_on_another_origin_isolated_both_ways() {
    let _one = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = browser() else { return };
    let marque = marque_for_browser(&example_content());
    let m = &marque.public_url;
    let host = host_page(format!(
        "<!doctype html><html><head><title>Host</title>{HOSTILE_HOST_STYLES}</head><body>
         <p class=\"card\" id=\"host-card\">A host element that happens to use the class name card.</p>
         <div data-marque-brand=\"northwind\" id=\"nw\"></div>
         <div data-marque-brand=\"lumen-health\" id=\"lh\"></div>
         <div data-marque-brand=\"northwind\" id=\"nw2\"></div>
         <script async src=\"{m}/embed/brand/northwind\"></script>
         <script async src=\"{m}/embed/brand/northwind\"></script>
         <script async src=\"{m}/embed/brand/lumen-health\"></script>
         </body></html>"
    ));
    b.goto(&host.url());
    b.wait_for(
        "return ['nw','lh','nw2'].every(function(id){ var e = document.getElementById(id); return e.shadowRoot && e.shadowRoot.querySelector('.card'); })",
        "three cards",
    );
    b.wait_for(
        &shadow(
            "nw",
            "r.querySelector('img').complete && r.querySelector('img').naturalWidth > 0",
        ),
        "the logo loads",
    );

    // Text, logo and version.
    assert_eq!(
        b.js(&shadow("nw", "r.querySelector('h2').textContent")),
        "Northwind Outfitters"
    );
    assert_eq!(
        b.js(&shadow("nw", "r.querySelector('.version').textContent")),
        "Spec version 2.4.0 as of 2026-10-14"
    );
    assert_eq!(
        b.js(&shadow("nw", "r.querySelector('img').alt")),
        "Northwind Outfitters logo"
    );
    assert_eq!(
        b.js(&shadow("lh", "r.querySelector('.version').textContent")),
        "Spec version 3.0.0-beta.2 as of 2026-11-02"
    );
    assert_eq!(
        b.js(&shadow("nw", "r.querySelector('a').href")),
        format!("{m}/brand/northwind")
    );

    // Swatches: labelled, with their hex and their real colour.
    let swatches = b.js(&shadow(
        "nw",
        "Array.prototype.map.call(r.querySelectorAll('.swatch'), function(s){ return [s.querySelector('.label').textContent, s.querySelector('.hex').textContent, getComputedStyle(s.querySelector('.chip')).backgroundColor, s.querySelector('.chip').getAttribute('aria-label')]; })",
    ));
    assert_eq!(
        swatches[0],
        json!([
            "Fjord 900",
            "#0a2742",
            "rgb(10, 39, 66)",
            "Fjord 900 #0a2742"
        ])
    );
    assert_eq!(
        swatches[1],
        json!([
            "Fjord 600",
            "#1560a0",
            "rgb(21, 96, 160)",
            "Fjord 600 #1560a0"
        ])
    );
    assert_eq!(swatches.as_array().unwrap().len(), 6);
    assert!(
        swatches[3][2]
            .as_str()
            .unwrap()
            .starts_with("oklch(0.62 0.11 150"),
        "wide-gamut colours stay in their space: {}",
        swatches[3][2]
    );
    let fonts = b.js(&shadow("nw", "Array.prototype.map.call(r.querySelectorAll('.family'), function(f){ return f.textContent; })"));
    assert_eq!(fonts, json!(["Fraunces", "Inter", "JetBrains Mono"]));

    // Host styles do not reach in; card styles do not reach out.
    assert_eq!(
        b.js(&shadow(
            "nw",
            "getComputedStyle(r.querySelector('h2')).color"
        )),
        "rgb(27, 31, 36)"
    );
    assert_eq!(
        b.js(&shadow(
            "nw",
            "getComputedStyle(r.querySelector('h2')).fontSize"
        )),
        "20px"
    );
    assert_eq!(
        b.js(&shadow(
            "nw",
            "getComputedStyle(r.querySelector('img')).display"
        )),
        "block"
    );
    assert_eq!(
        b.js(&shadow(
            "nw",
            "getComputedStyle(r.querySelector('.card')).borderTopWidth"
        )),
        "6px"
    );
    assert_eq!(
        b.js("return getComputedStyle(document.getElementById('host-card')).borderTopWidth"),
        "0px"
    );
    assert_eq!(
        b.js("return getComputedStyle(document.getElementById('host-card')).backgroundColor"),
        "rgb(255, 255, 0)"
    );

    // Size, idempotence, contrast of the card's own text.
    let size = b.js(&shadow("nw", "(function(){ var q = r.querySelector('.card').getBoundingClientRect(); return [q.width, q.height]; })()"));
    let (w, h) = (size[0].as_f64().unwrap(), size[1].as_f64().unwrap());
    assert!(
        (300.0..=560.0).contains(&w) && h > 150.0,
        "card size {w}x{h}"
    );
    assert_eq!(
        b.js(&shadow("nw", "r.querySelectorAll('.card').length")),
        1,
        "loading the script twice renders once"
    );
    assert_eq!(
        b.js("return document.querySelectorAll('[data-marque-brand] .card').length"),
        0,
        "cards live in shadow roots only"
    );

    // Elements added later are picked up.
    b.js("var d = document.createElement('div'); d.id = 'late'; d.setAttribute('data-marque-brand', 'lumen-health'); document.body.appendChild(d); return true;");
    b.wait_for("var e = document.getElementById('late'); return !!(e.shadowRoot && e.shadowRoot.querySelector('h2'));", "a card for the element added later");
    assert_eq!(
        b.js(&shadow("late", "r.querySelector('h2').textContent")),
        "Lumen Health"
    );

    let shot = b.screenshot("embed-two-brands");
    println!("screenshot: {}", shot.display());
}

#[test]
fn a_hostile_brand_shows_as_text_and_runs_nothing() {
    let _one = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = browser() else { return };
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile");
    let marque = marque_for_browser(&fixture);
    let m = &marque.public_url;
    let name: String = serde_json::from_str::<Value>(
        &std::fs::read_to_string(fixture.join("evil/brand.json")).unwrap(),
    )
    .unwrap()["name"]
        .as_str()
        .unwrap()
        .to_string();
    let host = host_page(format!(
        "<!doctype html><html><head><script>window.__ran = 0; window.alert = function(){{ window.__ran++; }};</script></head><body>
         <div data-marque-brand=\"evil\" id=\"evil\"></div>
         <script src=\"{m}/embed/brand/evil\"></script></body></html>"
    ));
    b.goto(&host.url());
    b.wait_for("var e = document.getElementById('evil'); return !!(e.shadowRoot && e.shadowRoot.querySelector('h2'));", "the hostile card");
    assert_eq!(
        b.js(&shadow("evil", "r.querySelector('h2').textContent")),
        name
    );
    assert_eq!(
        b.js(&shadow("evil", "r.querySelectorAll('img').length")),
        1,
        "only the logo"
    );
    assert_eq!(
        b.js(&shadow(
            "evil",
            "r.querySelectorAll('script, iframe, object').length"
        )),
        0
    );
    assert_eq!(
        b.js("return document.querySelectorAll('img[src=x]').length"),
        0
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(b.js("return window.__ran"), 0, "no script from content ran");
    b.screenshot("embed-hostile");

    // The API page and the index render the same content inert.
    for path in ["/brand/evil", "/"] {
        b.goto(&format!("{m}{path}"));
        b.wait_for(
            "return document.readyState === 'complete'",
            "the page loads",
        );
        std::thread::sleep(Duration::from_millis(300));
        assert!(!b.dialog_open(), "no alert on {path}");
        assert_eq!(
            b.js("return document.querySelectorAll('img[src=x]').length"),
            0,
            "{path}"
        );
        assert!(
            b.js("return document.body.textContent")
                .as_str()
                .unwrap()
                .contains("</script><img src=x onerror=alert(1)>"),
            "{path} shows the name as text"
        );
    }
    b.screenshot("api-page-hostile");
}

/// Every element whose text runs past its box, and every pair of sibling
/// tiles that overlap, on the page as laid out now.
const LAYOUT_FAULTS: &str = "var faults = [];\
  Array.prototype.forEach.call(document.querySelectorAll('main *'), function(e){\
    var cs = getComputedStyle(e);\
    if (e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1 && cs.overflowX === 'visible' && e.tagName !== 'PRE') faults.push('overflow ' + e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 30));\
  });\
  Array.prototype.forEach.call(document.querySelectorAll('.grid'), function(g){\
    var r = Array.prototype.map.call(g.children, function(c){ return c.getBoundingClientRect(); });\
    for (var i = 0; i < r.length; i++) for (var j = i + 1; j < r.length; j++) {\
      var a = r[i], b = r[j];\
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) faults.push('overlap in #' + g.parentNode.id);\
    }\
  });\
  if (document.documentElement.scrollWidth > window.innerWidth + 1) faults.push('horizontal scroll');\
  return faults;";

#[test]
fn the_api_page_is_a_brand_book_at_phone_and_desktop_widths_light_and_dark() {
    let _one = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = browser() else { return };
    let marque = marque_for_browser(&example_content());
    let m = marque.public_url.clone();
    for scheme in ["light", "dark"] {
        b.cmd(
            "POST",
            "/goog/cdp/execute",
            Some(json!({"cmd": "Emulation.setEmulatedMedia", "params": {"features": [{"name": "prefers-color-scheme", "value": scheme}]}})),
        );
        for width in [1280, 375] {
            b.cmd(
                "POST",
                "/window/rect",
                Some(json!({"width": width, "height": 1400})),
            );
            b.goto(&format!("{m}/brand/northwind"));
            b.wait_for(
                "return Array.prototype.every.call(document.images, function(i){ return i.complete && i.naturalWidth > 0; })",
                "every image",
            );
            assert_eq!(b.js(LAYOUT_FAULTS), json!([]), "{scheme} at {width}px");
            // Header and body content share one left edge.
            let edges = b.js("return [document.querySelector('header h1').getBoundingClientRect().left, document.querySelector('main h2').getBoundingClientRect().left].map(Math.round)");
            assert_eq!(edges[0], edges[1], "{scheme} at {width}px");
            let background = b.js("return getComputedStyle(document.body).backgroundColor");
            let expected = if scheme == "dark" {
                "rgb(13, 17, 23)"
            } else {
                "rgb(251, 251, 250)"
            };
            assert_eq!(background, expected);
            let header_logo = b.js("return document.querySelector('header img').currentSrc");
            let logo = if scheme == "dark" {
                "logo-reversed.svg"
            } else {
                "logo.svg"
            };
            assert!(
                header_logo
                    .as_str()
                    .unwrap()
                    .ends_with(&format!("/assets/{logo}")),
                "{header_logo}"
            );
            // The card preview follows the page's scheme.
            b.wait_for(
                "var e = document.querySelector('.preview [data-marque-brand]'); return !!(e && e.shadowRoot && e.shadowRoot.querySelector('.card'));",
                "the card preview",
            );
            let card = b.js("var c = document.querySelector('.preview [data-marque-brand]').shadowRoot.querySelector('.card'); var m = getComputedStyle(c).backgroundColor.match(/\\d+/g).map(Number); return (m[0] + m[1] + m[2]) / 3;");
            let dark_card = card.as_f64().unwrap() < 128.0;
            assert_eq!(
                dark_card,
                scheme == "dark",
                "the card's background at {scheme}: {card}"
            );
            assert_eq!(b.csp_violations(), json!([]), "{scheme} at {width}px");
            b.screenshot(&format!("api-page-{scheme}-{width}"));
        }
    }
    // What a designer needs: every logo on its background with a download,
    // the palette with roles, contrast verdicts, type specimens, voice.
    let logos = b.js("return Array.prototype.map.call(document.querySelectorAll('#logo .tile'), function(t){ return [t.querySelector('.stage').className, t.querySelector('a[download]').getAttribute('download')]; })");
    assert_eq!(
        logos,
        json!([
            ["stage on-light", "logo.svg"],
            ["stage on-dark", "logo-reversed.svg"],
            ["stage on-any", "mark.svg"]
        ])
    );
    assert_eq!(
        b.js("return Array.prototype.map.call(document.querySelectorAll('#contrast .verdict'), function(v){ return v.textContent; })"),
        json!(["Pass AAA", "Pass AA", "Pass AA", "Pass AAA"])
    );
    assert_eq!(
        b.js("return getComputedStyle(document.querySelector('#typography .specimen:nth-of-type(4) .sample')).fontSize"),
        "48px",
        "the Display style is set in its own size"
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#voice h3').length"),
        5,
        "three traits, the words and the examples"
    );
    // The prompt kit's form runs the prompt through the demo (dry run).
    b.js("var f = document.querySelector('form.try[data-prompt=\"weather-notice\"]'); f.querySelector('input[name=location]').value = 'Bergen'; f.querySelector('button').click(); return true;");
    b.wait_for(
        "var o = document.querySelector('form.try[data-prompt=\"weather-notice\"] output'); return o.getAttribute('data-state') === 'dry-run';",
        "the demo's answer",
    );
    let answer = b.js("var pres = document.querySelectorAll('form.try[data-prompt=\"weather-notice\"] output pre'); return pres[pres.length - 1].textContent");
    assert!(
        answer
            .as_str()
            .unwrap()
            .contains("Write a short notice for Bergen about this forecast"),
        "{answer}"
    );
}

/// On a brand's API page: its shared script ran (the Try-it snippet
/// follows the form), its shared stylesheet applies, and its CSP refused
/// nothing (not the shared files, nor the brand card preview with its
/// styles); then, as a control, an injected inline script is refused and
/// the watch sees it.
fn the_shared_script_runs_and_the_csp_refuses_only_what_it_must(b: &Browser) {
    b.js("var f = document.querySelector('form.try[data-prompt=\"weather-notice\"]'); var i = f.querySelector('input[name=location]'); i.value = 'Tromsø'; i.dispatchEvent(new Event('input', {bubbles: true})); return true;");
    b.wait_for(
        "return document.querySelector('form.try[data-prompt=\"weather-notice\"]').parentNode.querySelector('.snippet code').textContent.indexOf('Tromsø') >= 0;",
        "the page's script to follow the form",
    );
    assert_eq!(
        b.js("return getComputedStyle(document.querySelector('nav#toc')).position"),
        "sticky",
        "the shared stylesheet applies"
    );
    assert_eq!(b.csp_violations(), json!([]), "CSP violations on the page");
    // An inline script is refused, and the watch sees it: the policy holds.
    b.js("var s = document.createElement('script'); s.textContent = 'window.__inline = 1;'; document.body.appendChild(s); return null;");
    b.wait_for(
        "return window.__cspViolations.length > 0;",
        "the inline script's violation",
    );
    assert_eq!(b.js("return window.__inline === undefined;"), true);
    let refused = b.csp_violations();
    assert!(
        refused[0].as_str().unwrap().starts_with("script-src"),
        "{refused}"
    );
}

#[test]
fn the_api_page_renders_its_preview_and_every_link_resolves() {
    let _one = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = browser() else { return };
    let marque = marque_for_browser(&example_content());
    let m = marque.public_url.clone();
    let client_errors = || {
        let metrics = marque.get("/metrics").text();
        metrics
            .lines()
            .find_map(|l| l.strip_prefix("marque_http_responses_total{class=\"4xx\"} "))
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap()
    };
    let before = client_errors();
    b.goto(&format!("{m}/brand/northwind"));
    b.wait_for("var p = document.querySelector('.preview [data-marque-brand]'); return !!(p && p.shadowRoot && p.shadowRoot.querySelector('.card'));", "the preview card");
    b.wait_for(
        "return document.readyState === 'complete'",
        "the page's load",
    );
    assert_eq!(
        client_errors(),
        before,
        "a page load asks for nothing that is not there (a favicon, say)"
    );
    assert_eq!(
        b.js("return document.querySelector('link[rel=icon]').href.slice(0, 19)"),
        "data:image/svg+xml,"
    );
    assert_eq!(
        b.js("return document.querySelector('h1').textContent"),
        "Northwind Outfitters"
    );
    assert_eq!(
        b.js("return document.querySelector('.version').textContent"),
        "Spec version 2.4.0 as of 2026-10-14"
    );
    assert_eq!(
        b.js("return document.title"),
        "Northwind Outfitters · brand API"
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#prompts article').length"),
        3,
        "one block per prompt"
    );
    let snippets = b.js("return Array.prototype.map.call(document.querySelectorAll('pre code'), function(c){ return c.textContent; })");
    let snippets: Vec<&str> = snippets
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(snippets.iter().any(|s| s.contains(&format!(
        "<link rel=\"stylesheet\" href=\"{m}/brand/northwind/tokens.css\">"
    ))));
    assert!(snippets
        .iter()
        .any(|s| s.contains("data-marque-brand=\"northwind\"")));
    assert!(snippets
        .iter()
        .any(|s| s.contains("\"promptId\":\"weather-notice\"")));
    assert_eq!(
        b.js("return Array.prototype.every.call(document.querySelectorAll('pre code'), function(c){ return c.id && document.querySelector('button[data-copy=\"' + c.id + '\"]'); }) && Array.prototype.every.call(document.querySelectorAll('button[data-copy]'), function(b){ return document.getElementById(b.getAttribute('data-copy')); })"),
        Value::Bool(true),
        "every snippet has a copy button, and every copy button its text"
    );
    assert_eq!(
        b.js("return Array.prototype.map.call(document.querySelectorAll('#palette button[data-copy]'), function(b){ return document.getElementById(b.getAttribute('data-copy')).textContent; })"),
        json!(["#0a2742", "#1560a0", "#e1ecf6", "#519962", "#ef7926", "#ffffff"]),
        "each colour's hex is copyable"
    );
    // The page is styled with the brand's own tokens.
    assert_eq!(
        b.js("return getComputedStyle(document.querySelector('header')).borderBottomColor"),
        "rgb(21, 96, 160)"
    );
    the_shared_script_runs_and_the_csp_refuses_only_what_it_must(&b);
    // Every same-origin link resolves.
    let links = b.js("return Array.prototype.map.call(document.querySelectorAll('a[href], link[href], img[src], script[src]'), function(a){ return a.href || a.src; })");
    let mut checked = 0;
    for url in links.as_array().unwrap().iter().filter_map(Value::as_str) {
        let Some(path) = url.strip_prefix(&m) else {
            continue;
        };
        let path = path.split('#').next().unwrap();
        let path = if path.is_empty() { "/" } else { path };
        assert_eq!(marque.get(path).status, 200, "{url}");
        checked += 1;
    }
    assert!(checked >= 15, "{checked} links checked");
    let shot = b.screenshot("api-page-northwind");
    println!("screenshot: {}", shot.display());
    // A narrow screen still shows everything (responsive layout).
    b.cmd(
        "POST",
        "/window/rect",
        Some(json!({"width": 420, "height": 1400})),
    );
    assert!(
        b.js("return document.documentElement.scrollWidth <= window.innerWidth + 1")
            == Value::Bool(true),
        "no horizontal scrolling on a phone"
    );
    b.screenshot("api-page-northwind-narrow");
    // The index is styled by the same stylesheet, under the same policy.
    b.goto(&format!("{m}/"));
    b.wait_for("return document.readyState === 'complete'", "the index");
    assert_eq!(
        b.js("return getComputedStyle(document.body).margin"),
        "0px",
        "the shared stylesheet applies"
    );
    assert_eq!(b.csp_violations(), json!([]), "CSP violations on the index");
}

#[test]
fn chromium_reads_every_token_of_tokens_css_and_the_shorthands_work() {
    let _one = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = browser() else { return };
    let marque = marque_for_browser(&example_content());
    let css = marque.get("/brand/northwind/tokens.css").text();
    // :root, then the wide-gamut colours inside @media (color-gamut: p3).
    let (root_block, wide_block) = css.split_once("@media").unwrap();
    let declared = |block: &str| {
        block
            .lines()
            .filter(|l| l.trim_start().starts_with("--"))
            .count()
    };
    let host = host_page(format!(
        "<!doctype html><html><head><link rel=\"stylesheet\" crossorigin=\"anonymous\" href=\"{}/brand/northwind/tokens.css\"></head><body>
         <h1 id=\"t\" style=\"font: var(--typography-display); letter-spacing: var(--typography-display-letter-spacing)\">Display</h1>
         <div id=\"box\" style=\"box-shadow: var(--elevation-card); border: var(--border-hairline); transition: var(--motion-transition-fade); background-image: var(--gradient-horizon); color: var(--color-lichen-500); padding: var(--space-md); border-radius: var(--radius-card); opacity: var(--opacity-disabled)\">Box</div>
         </body></html>",
        marque.public_url
    ));
    b.goto(&host.url());
    b.wait_for(
        "return document.styleSheets.length === 1 && document.styleSheets[0].cssRules.length === 2",
        "tokens.css loads",
    );
    assert_eq!(
        b.js("return document.styleSheets[0].cssRules[0].style.length")
            .as_u64()
            .unwrap() as usize,
        declared(root_block),
        "every declaration parses"
    );
    assert_eq!(
        b.js("const m = document.styleSheets[0].cssRules[1]; return m.conditionText + ' ' + m.cssRules[0].style.length")
            .as_str()
            .unwrap(),
        format!("(color-gamut: p3) {}", declared(wide_block)),
        "the wide-gamut block parses"
    );
    let root = |name: &str| {
        b.js(&format!(
            "return getComputedStyle(document.documentElement).getPropertyValue('{name}').trim()"
        ))
    };
    assert_eq!(
        root("--color-text-primary"),
        "#0a2742",
        "aliases resolve through var()"
    );
    assert_eq!(
        root("--font-family-body"),
        "Inter, \"Helvetica Neue\", Arial, sans-serif"
    );
    let style = |id: &str, prop: &str| {
        b.js(&format!(
            "return getComputedStyle(document.getElementById('{id}'))['{prop}']"
        ))
    };
    assert_eq!(style("t", "fontSize"), "48px", "3rem");
    assert_eq!(style("t", "fontWeight"), "700");
    assert_eq!(style("t", "lineHeight"), "52.8px");
    assert_eq!(style("t", "letterSpacing"), "-0.5px");
    assert_eq!(style("box", "borderTopWidth"), "1px");
    assert_eq!(style("box", "borderTopStyle"), "solid");
    assert_eq!(style("box", "borderTopColor"), "rgb(225, 236, 246)");
    assert_eq!(style("box", "transitionDuration"), "0.12s");
    assert_eq!(
        style("box", "transitionTimingFunction"),
        "cubic-bezier(0.2, 0, 0, 1)"
    );
    assert!(
        style("box", "boxShadow")
            .as_str()
            .unwrap()
            .matches("px")
            .count()
            >= 8,
        "two shadow layers"
    );
    assert!(style("box", "backgroundImage")
        .as_str()
        .unwrap()
        .starts_with("linear-gradient("));
    // The colour itself on a wide-gamut display, else its sRGB fallback.
    let p3 = b.js("return matchMedia('(color-gamut: p3)').matches") == Value::Bool(true);
    let lichen = if p3 {
        "oklch(0.62 0.11 150)"
    } else {
        "rgb(81, 153, 98)"
    };
    assert_eq!(style("box", "color"), lichen);
    assert_eq!(style("box", "paddingTop"), "16px");
    assert_eq!(style("box", "borderTopLeftRadius"), "12px");
    assert_eq!(style("box", "opacity"), "0.4");
}

/// Live reload reloads a page only when the page itself changed, and never
/// over input the reader has not sent: then it says so instead.
#[test]
fn live_reload_spares_other_brands_edits_and_unsent_input() {
    let _one = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = browser() else { return };
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    let app = spawn_with(serve_config(dir.path()));
    let generation = |a: &TestApp| a.get("/status").json()["generation"].as_u64().unwrap();
    let edit_and_wait = |file: &str, from: &str, to: &str| {
        let before = generation(&app);
        crate::reload::edit(&dir.path().join(file), from, to);
        app.wait_until(|a| generation(a) > before, "the edit is served");
    };
    b.goto(&format!("{}/brand/northwind", app.public_url));
    b.wait_for(
        "return document.readyState === 'complete'",
        "the page loads",
    );
    // The stream is open and the page knows its version.
    std::thread::sleep(Duration::from_millis(800));
    b.js("window.__kept = 1; return null;");
    edit_and_wait(
        "lumen-health/brand.json",
        "\"summary\": \"",
        "\"summary\": \"Edited. ",
    );
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        b.js("return window.__kept === 1;"),
        Value::Bool(true),
        "another brand's edit leaves the page alone"
    );
    edit_and_wait(
        "northwind/brand.json",
        "\"summary\": \"",
        "\"summary\": \"Edited. ",
    );
    b.wait_for(
        "return window.__kept === undefined;",
        "the page reloads for its own brand",
    );
    assert_eq!(
        b.js("return Array.prototype.map.call(document.scripts, function (s) { return s.src.replace(/^.*\\/assets\\//, '').split('.')[0]; }).filter(function (n) { return n === 'page' || n === 'live'; });"),
        json!(["page", "live"]),
        "live reload comes from the shared script"
    );
    b.wait_for(
        "return document.readyState === 'complete';",
        "the page loads again",
    );
    std::thread::sleep(Duration::from_millis(800));
    b.js("window.__kept = 2; var f = document.querySelector('form textarea, form input:not([type=hidden])'); f.value = 'a draft'; return null;");
    edit_and_wait(
        "northwind/brand.json",
        "\"summary\": \"Edited. ",
        "\"summary\": \"Edited twice. ",
    );
    b.wait_for(
        "return document.getElementById('marque-changed') !== null;",
        "a notice instead of a reload",
    );
    assert_eq!(
        b.js("return [window.__kept, document.querySelector('form textarea, form input:not([type=hidden])').value];"),
        json!([2, "a draft"]),
        "the draft is kept"
    );
    assert_eq!(
        b.csp_violations(),
        json!([]),
        "CSP violations while watching"
    );
}

/// The Try-it form: its snippet follows what is typed, it cannot be sent
/// twice at once, a dry run shows every message, and a refusal looks like
/// one, with its status and detail.
#[test]
fn the_try_it_form_shows_each_outcome_and_its_snippet_follows_the_form() {
    let _one = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = browser() else { return };
    let mut args = serve_config(&example_content());
    args.set_watch(Watch::Off);
    args.demo.per_minute = 1;
    args.demo.burst = 1;
    let app = spawn_with(args);
    b.goto(&format!("{}/brand/northwind", app.public_url));
    let form = "document.querySelector('form.try[data-prompt=\"weather-notice\"]')";
    let typed = b.js(&format!(
        "var f = {form}; var i = f.querySelector('input[name=location]'); i.value = 'Tromsø'; i.dispatchEvent(new Event('input', {{bubbles: true}})); return f.parentNode.querySelector('.snippet code').textContent;"
    ));
    assert!(
        typed.as_str().unwrap().contains("\"location\":\"Tromsø\""),
        "the snippet follows the form: {typed}"
    );
    let disabled = b.js(&format!(
        "var f = {form}; f.querySelector('button').click(); return f.querySelector('button').disabled;"
    ));
    assert_eq!(disabled, Value::Bool(true), "disabled while it runs");
    b.wait_for(
        &format!("return {form}.querySelector('output').getAttribute('data-state') === 'dry-run';"),
        "the dry run",
    );
    let labels = b.js(&format!(
        "return Array.prototype.map.call({form}.querySelectorAll('output .label'), function (l) {{ return l.textContent; }});"
    ));
    assert_eq!(labels, json!(["system", "user"]), "every message sent");
    assert_eq!(
        b.js(&format!("return {form}.querySelector('button').disabled;")),
        Value::Bool(false)
    );
    b.js(&format!(
        "{form}.querySelector('button').click(); return null;"
    ));
    b.wait_for(
        &format!("return {form}.querySelector('output').getAttribute('data-state') === 'refused';"),
        "the refusal",
    );
    let refusal = b.js(&format!(
        "return {form}.querySelector('output').textContent;"
    ));
    let text = refusal.as_str().unwrap();
    assert!(text.starts_with("429 "), "{text}");
    assert!(
        text.contains("too many demo calls") && text.matches("try again in").count() == 1,
        "{text}"
    );
    assert_eq!(
        b.js(&format!(
            "return {form}.querySelector('output').getAttribute('role');"
        )),
        json!("alert")
    );
    b.js(&format!("{form}.scrollIntoView(); return null;"));
    b.screenshot("try-it-refused");
    // Media types in the endpoint table never break inside a word.
    let broken = b.js("return Array.prototype.filter.call(document.querySelectorAll('code.media'), function (c) { return c.getClientRects().length > 1 || c.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(c).lineHeight || 20); }).map(function (c) { return c.textContent; });");
    assert_eq!(broken, json!([]), "media types broken across lines");
    assert!(
        b.js("return document.querySelectorAll('code.media').length;")
            .as_u64()
            >= Some(6)
    );
}

/// The page has a table of contents that stays in view and marks the
/// section being read, and a type specimen says when its font is missing.
#[test]
fn the_page_has_contents_that_follow_the_reader_and_says_when_a_font_is_missing() {
    let _one = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = browser() else { return };
    let app = marque_for_browser(&example_content());
    b.goto(&format!("{}/brand/northwind", app.public_url));
    let missing = b.js("return Array.prototype.filter.call(document.querySelectorAll('#toc a'), function (a) { return !document.querySelector(a.getAttribute('href')); }).map(function (a) { return a.getAttribute('href'); });");
    assert_eq!(missing, json!([]), "every entry leads to its section");
    assert!(
        b.js("return document.querySelectorAll('#toc a').length;")
            .as_u64()
            >= Some(8)
    );
    b.js("document.getElementById('endpoints').scrollIntoView(); return null;");
    b.wait_for(
        "var a = document.querySelector('#toc a[aria-current]'); return !!a && a.getAttribute('href') === '#endpoints';",
        "the section being read is marked",
    );
    let top = b.js("return document.getElementById('toc').getBoundingClientRect().top;");
    assert!(
        top.as_f64().unwrap().abs() < 1.0,
        "the contents stay in view: {top}"
    );
    b.screenshot("api-page-contents");
    // This machine has none of Northwind's fonts: each specimen says so.
    b.wait_for(
        "return document.querySelectorAll('.font-note').length > 0;",
        "a missing font is named",
    );
    let notes = b.js("return Array.prototype.map.call(document.querySelectorAll('.font-note'), function (n) { return n.textContent; }).join(' | ');");
    let notes = notes.as_str().unwrap();
    assert!(
        notes.contains("is not installed in this browser"),
        "{notes}"
    );
    assert!(
        !notes.contains("system-ui"),
        "a generic family is never missing: {notes}"
    );
}

/// The API page's palette of a brand with a dark context follows the
/// reader's scheme, and its switch picks light or dark whatever the
/// reader's is.
#[test]
fn the_palette_follows_the_readers_scheme_and_its_switch() {
    let _one = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = browser() else { return };
    let marque = marque_for_browser(&example_content());
    b.goto(&format!("{}/brand/lumen-health", marque.public_url));
    b.wait_for(
        "return !!document.querySelector('#palette .scheme-switch')",
        "the switch",
    );
    let ink = || {
        b.js("return getComputedStyle(document.querySelectorAll('#palette .chip')[3]).backgroundColor")
    };
    let click = |scheme: &str| {
        b.js(&format!("document.querySelector('#palette button[data-scheme=\"{scheme}\"]').click(); return true;"));
    };
    // The headline hex is the swatch's colour, whichever it shows.
    let ink_hex = || {
        b.js("var t = document.querySelectorAll('#palette .tile')[3]; return Array.prototype.filter.call(t.querySelectorAll(':scope > p:not(.in-context) > code[id]'), function(c){ return c.offsetParent !== null; }).map(function(c){ return c.textContent; });")
    };
    assert_eq!(ink(), "rgb(26, 32, 40)", "light by default");
    assert_eq!(ink_hex(), json!(["#1a2028"]));
    b.emulate_dark(true);
    assert_eq!(
        ink(),
        "rgb(253, 252, 249)",
        "the brand's dark ink for a dark reader"
    );
    assert_eq!(ink_hex(), json!(["#fdfcf9"]), "the hex follows the swatch");
    click("light");
    assert_eq!(ink(), "rgb(26, 32, 40)", "light when picked");
    assert_eq!(ink_hex(), json!(["#1a2028"]));
    assert_eq!(
        b.js("return document.querySelector('#palette button[data-scheme=\"light\"]').getAttribute('aria-pressed')"),
        "true"
    );
    b.emulate_dark(false);
    click("dark");
    assert_eq!(ink(), "rgb(253, 252, 249)", "dark when picked");
    assert_eq!(ink_hex(), json!(["#fdfcf9"]));
    b.js("document.getElementById('palette').scrollIntoView(); return true;");
    b.screenshot("palette-dark-picked");
    click("auto");
    assert_eq!(ink(), "rgb(26, 32, 40)", "the reader's light again");
    // The contrast pairs' samples follow the reader's scheme too: a dark
    // reader sees each pair in the brand's dark context.
    let sample = || {
        b.js("var s = getComputedStyle(document.querySelector('#contrast .pair')); return [s.color, s.backgroundColor]")
    };
    let light = sample();
    b.emulate_dark(true);
    let dark = sample();
    b.emulate_dark(false);
    assert_ne!(light, dark, "the sample follows a dark reader");
    assert_eq!(
        dark[0], "rgb(253, 252, 249)",
        "the dark sample's text is the brand's dark ink"
    );
    // Each pair also in the context that changes its colours, as spec.json has it.
    let spec = marque.get("/brand/lumen-health/spec.json").json();
    let expected: Vec<String> = spec["color"]["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|p| p["inContexts"].as_array().cloned().unwrap_or_default())
        .map(|c| {
            let verdict = if c["passes"] == true { "Pass" } else { "Fail" };
            format!(
                "{}={} {verdict} {}:1",
                c["modifier"].as_str().unwrap(),
                c["context"].as_str().unwrap(),
                c["contrast"]
            )
        })
        .collect();
    assert_eq!(expected.len(), 3, "every pair changes in dark");
    assert_eq!(
        b.js("return Array.prototype.map.call(document.querySelectorAll('#contrast .in-context'), function(p){ return p.textContent; })"),
        json!(expected)
    );
    // A brand without modes has no switch.
    b.goto(&format!("{}/brand/northwind", marque.public_url));
    b.wait_for("return document.readyState === 'complete'", "the page");
    assert_eq!(
        b.js("return document.querySelector('.scheme-switch') === null"),
        true
    );
}

/// `/brand/<slug>/compare/a...b`, the link a pull request shares, opens
/// in a browser as a page: the verdict, each change by level, a colour's
/// before and after as swatches; the same URL answers JSON to a client
/// that asks for no page, and `.md` Markdown.
#[test]
fn the_compare_page_shows_each_change_with_a_swatch_before_and_after() {
    let _one = BROWSER_LOCK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(b) = browser() else { return };
    let remote = crate::git::changelog_remote();
    remote.edit(
        "northwind/tokens.json",
        "[0.0824, 0.3765, 0.6275], \"hex\": \"#1560a0\"",
        "[0.7, 0.1, 0.1], \"hex\": \"#b31a1a\"",
    );
    remote.commit("A red fjord", 40);
    let g = crate::git::serve_git(&remote.url(), None);
    let m = g.app.public_url.clone();
    let path = "/brand/northwind/compare/2.10.0...current";
    b.goto(&format!("{m}{path}"));
    b.wait_for(
        "return document.readyState === 'complete'",
        "the compare page",
    );
    assert_eq!(
        b.js("return document.querySelector('h1').textContent"),
        "Northwind Outfitters"
    );
    assert_eq!(
        b.js("return document.querySelector('.version').textContent"),
        "2.10.0 → current (2.11.0)"
    );
    let swatches = b.js("const r = [...document.querySelectorAll('tbody tr')].find(r => r.cells[0].textContent.includes('color.fjord.600')); return r ? [r.dataset.level, ...[...r.querySelectorAll('.swatch')].map(s => getComputedStyle(s).backgroundColor)] : null");
    assert_eq!(
        swatches,
        json!(["patch", "rgb(21, 96, 160)", "rgb(179, 26, 26)"]),
        "the changed colour, before and after"
    );
    assert_eq!(
        b.csp_violations(),
        json!([]),
        "CSP violations on the compare page"
    );
    let shot = b.screenshot("compare-northwind");
    println!("screenshot: {}", shot.display());
    let api = g.app.get(path);
    assert_eq!(api.header("content-type"), Some("application/json"));
    assert!(api.header("vary").is_some_and(|v| v.contains("Accept")));
    assert_eq!(
        g.app.get(&format!("{path}.md")).header("content-type"),
        Some("text/markdown; charset=utf-8")
    );
}
