//! Private brands, protected previews and embargoed releases (DESIGN.md
//! §20), as a reader without a token, a reader with one, a browser and an
//! operator see them: a crawl of every public path finds nothing withheld,
//! the same crawl with a token finds all of it; a private brand is to
//! anyone else a brand that does not exist, byte for byte; wrong tokens
//! stop at ten a minute; an embargo lifts by itself, in directory mode, in
//! git mode and on two replicas.

use crate::git::Remote;
use crate::helpers::*;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A token for every private brand, and two scoped ones.
pub const ALL: &str = "mq_every_private_brand_0f9e8d7c";
pub const LUMEN_ONLY: &str = "mq_only_lumen_health_5a4b3c2d";
pub const AURORA_ONLY: &str = "mq_only_aurora_launch_1e2f3a4b";

/// What no public answer may say: the private brand's name, slug and a
/// token value of its own; the embargoed brand's name, slug and version.
const NEEDLES: &[&str] = &[
    "Lumen Health",
    "lumen-health",
    "Obsidian Serif Pro",
    "Aurora Launch",
    "aurora-launch",
    "9.8.7",
];

/// The tokens file for [`ALL`], [`LUMEN_ONLY`] and [`AURORA_ONLY`].
pub fn tokens_file(dir: &Path) -> PathBuf {
    let line = |name, token, slugs: &[&str]| {
        let slugs: Vec<String> = slugs.iter().map(|s| s.to_string()).collect();
        marque::access::line_for(name, token, &slugs).unwrap()
    };
    let path = dir.join("tokens.txt");
    let text = format!(
        "# marque access tokens\n{}\n\n{}\n{}\n",
        line("ops", ALL, &[]),
        line("lumen-agency", LUMEN_ONLY, &["lumen-health"]),
        line("aurora-team", AURORA_ONLY, &["aurora-launch"]),
    );
    std::fs::write(&path, text).unwrap();
    path
}

pub fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} contains {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// The example content with Lumen Health private (and a font of its own),
/// and a third brand, Aurora Launch 9.8.7, embargoed until `embargo`.
pub fn secret_content(root: &Path, embargo: &str) {
    copy_dir(&example_content(), root);
    let lumen = root.join("lumen-health");
    edit(
        &lumen.join("brand.json"),
        "\"name\": \"Lumen Health\",",
        "\"name\": \"Lumen Health\",\n  \"visibility\": \"private\",",
    );
    edit(
        &lumen.join("tokens/base.json"),
        "\"Source Serif 4\"",
        "\"Obsidian Serif Pro\"",
    );
    aurora(root, "9.8.7", Some(embargo));
}

/// Aurora Launch at `version`, embargoed until `embargo`, if any.
pub fn aurora(root: &Path, version: &str, embargo: Option<&str>) {
    let dir = root.join("aurora-launch");
    if !dir.exists() {
        copy_dir(&example_content().join("northwind"), &dir);
    }
    let brand = dir.join("brand.json");
    let text = std::fs::read_to_string(&brand).unwrap();
    let mut doc: serde_json::Map<String, Value> = serde_json::from_str(&text).unwrap();
    doc.insert("name".into(), json!("Aurora Launch"));
    doc.insert("version".into(), json!(version));
    match embargo {
        Some(e) => doc.insert("embargo".into(), json!(e)),
        None => doc.remove("embargo"),
    };
    std::fs::write(&brand, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
}

/// The secret content (see [`secret_content`]) in a folder of its own,
/// served with the tokens of [`tokens_file`]: the folder, the content, the server.
fn secret_server(embargo: &str) -> (tempfile::TempDir, PathBuf, TestApp) {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    secret_content(&content, embargo);
    let app = serve_secrets(&content, |_| {});
    (dir, content, app)
}

/// A server of `content` with the tokens of [`tokens_file`].
pub fn serve_secrets(content: &Path, configure: impl FnOnce(&mut ServeConfig)) -> TestApp {
    let mut config = serve_config(content);
    config.access_tokens = Some(tokens_file(content.parent().unwrap()));
    configure(&mut config);
    spawn_with(config)
}

pub fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// Every path of this server that `text` links: absolute URLs under
/// `base`, and `href`/`src` paths.
fn links(text: &str, base: &str) -> Vec<String> {
    let end = |c: char| {
        matches!(
            c,
            '"' | '\'' | '<' | '>' | ' ' | ')' | '\n' | '\\' | '`' | ']'
        )
    };
    let mut out = Vec::new();
    for (i, _) in text.match_indices(base) {
        let rest = &text[i + base.len()..];
        let path: String = rest.chars().take_while(|c| !end(*c)).collect();
        if path.starts_with('/') || path.is_empty() {
            out.push(if path.is_empty() { "/".into() } else { path });
        }
    }
    for attr in ["href=\"/", "src=\"/"] {
        for (i, _) in text.match_indices(attr) {
            let rest = &text[i + attr.len() - 1..];
            out.push(rest.chars().take_while(|c| !end(*c)).collect());
        }
    }
    out.into_iter()
        .map(|p| p.split(['#', '?']).next().unwrap_or("").to_string())
        .filter(|p| p.starts_with('/') && !p.starts_with("//"))
        .collect()
}

/// What a crawl read: each path (or MCP call) and its answer, headers and body.
type Crawled = BTreeMap<String, Response>;

/// Reads every path reachable from the documents about all brands, every
/// GET path of /openapi.json (its templates filled with the brands
/// /brands.json lists), and MCP's lists, sending `headers`.
fn crawl(app: &TestApp, headers: &[(&str, &str)]) -> Crawled {
    let mut seen = Crawled::new();
    let mut queue: VecDeque<String> = [
        "/",
        "/brands.json",
        "/llms.txt",
        "/status",
        "/metrics",
        "/openapi.json",
        "/previews.json",
        "/events",
    ]
    .iter()
    .map(|p| p.to_string())
    .collect();
    let get = |path: &str| {
        let h: Vec<(&str, &str)> =
            [headers, &[("Accept", "text/html, application/json, */*")]].concat();
        match path {
            // A stream: its first event is enough.
            "/events" => Response {
                status: 200,
                headers: Default::default(),
                body: Vec::new(),
            },
            _ => app.get_with(path, &h),
        }
    };
    while let Some(path) = queue.pop_front() {
        if seen.contains_key(&path) || seen.len() > 3000 {
            continue;
        }
        let res = get(&path);
        let text = String::from_utf8_lossy(&res.body).into_owned();
        for link in links(&text, &app.public_url) {
            if !seen.contains_key(&link) {
                queue.push_back(link);
            }
        }
        seen.insert(path, res);
    }
    // Every GET of the API description, for each brand it may name.
    let openapi = seen["/openapi.json"].json();
    let slugs: Vec<String> = seen["/brands.json"].json()["brands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["slug"].as_str().unwrap().to_string())
        .collect();
    for (template, ops) in openapi["paths"].as_object().unwrap() {
        if ops.get("get").is_none() {
            continue;
        }
        for slug in &slugs {
            let path = template
                .replace("{slug}", slug)
                .replace("{range}", "current...current")
                .replace("{name}", "main")
                .replace("{file}", "logo.svg");
            if !path.contains('{') && !seen.contains_key(&path) {
                let res = get(&path);
                seen.insert(path, res);
            }
        }
    }
    for (name, res) in mcp_lists(app, headers) {
        seen.insert(name, res);
    }
    seen
}

/// MCP's lists and list-like tools, each as an answer named `mcp <method>`.
fn mcp_lists(app: &TestApp, headers: &[(&str, &str)]) -> Vec<(String, Response)> {
    let (sid, res) = mcp_session(app, headers);
    let base = mcp_headers(headers);
    let with_sid: Vec<(&str, &str)> =
        [base.as_slice(), &[("Mcp-Session-Id", sid.as_str())]].concat();
    let calls = [
        ("resources/list", json!({})),
        ("resources/templates/list", json!({})),
        ("prompts/list", json!({})),
        ("tools/list", json!({})),
        (
            "tools/call",
            json!({"name": "list_brands", "arguments": {}}),
        ),
        (
            "tools/call",
            json!({"name": "get_brand", "arguments": {"slug": "northwind"}}),
        ),
    ];
    let mut out = vec![("mcp initialize".to_string(), res)];
    for (i, (method, params)) in calls.into_iter().enumerate() {
        let body = json!({"jsonrpc": "2.0", "id": 10 + i, "method": method, "params": params});
        let res = app.request("POST", "/mcp", &with_sid, Some(body.to_string().as_bytes()));
        out.push((format!("mcp {method} {params}"), res));
    }
    out
}

/// Where the crawl's answers say any of `needles`: (path, needle).
fn hits(crawled: &Crawled, needles: &[&str]) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for (path, res) in crawled {
        let headers: String = res
            .headers
            .iter()
            .map(|(k, v)| format!("{k}: {}\n", v.join(", ")))
            .collect();
        let text = format!("{headers}{}", String::from_utf8_lossy(&res.body));
        for n in needles {
            if text.contains(n) {
                found.push((path.clone(), n.to_string()));
            }
        }
    }
    found
}

#[test]
fn a_crawl_of_every_public_path_finds_nothing_withheld_and_a_token_finds_it_all() {
    let (_dir, _content, app) = secret_server("2099-01-01T09:00:00+01:00");

    let public = crawl(&app, &[]);
    let leaks = hits(&public, NEEDLES);
    assert!(
        leaks.is_empty(),
        "public answers name what is withheld: {leaks:?}"
    );
    assert!(
        public.len() > 40,
        "the crawl reached {} paths: {:?}",
        public.len(),
        public.keys().collect::<Vec<_>>()
    );
    // Northwind is public and reached.
    assert!(public.contains_key("/brand/northwind/spec.json"));
    assert!(public.contains_key("/brand/northwind/tokens.css"));
    println!(
        "public crawl: {} answers, 0 hits of {NEEDLES:?}",
        public.len()
    );

    let token = bearer(ALL);
    let holder = crawl(&app, &[("Authorization", &token)]);
    let found: BTreeSet<String> = hits(&holder, NEEDLES).into_iter().map(|(_, n)| n).collect();
    let wanted: BTreeSet<String> = NEEDLES.iter().map(|n| n.to_string()).collect();
    assert_eq!(found, wanted, "a token holder reaches everything withheld");
    for path in [
        "/brand/lumen-health/spec.json",
        "/brand/lumen-health/tokens.css",
        "/brand/aurora-launch/spec.json",
    ] {
        let res = &holder[path];
        assert_eq!(res.status, 200, "{path}");
        assert_eq!(
            res.header("cache-control"),
            Some("private, no-store"),
            "{path}"
        );
        assert_eq!(
            res.header("vary"),
            Some("Accept-Encoding, Authorization, Cookie"),
            "{path}"
        );
    }
    // Lists that name withheld brands are the holder's alone; a public
    // brand's answer is the public one, cacheable.
    assert_eq!(
        holder["/brands.json"].header("cache-control"),
        Some("private, no-store")
    );
    assert_eq!(
        holder["/brand/northwind/spec.json"].header("cache-control"),
        Some("public, max-age=60")
    );
    let compare = app.get_with(
        "/brand/northwind/compare/current...current.json",
        &[("Authorization", &token)],
    );
    assert_eq!(
        compare.header("cache-control"),
        Some("public, max-age=60"),
        "a public brand's comparison"
    );
    // The lists list more for a holder: a shared cache keeps them apart.
    for path in ["/", "/brands.json", "/llms.txt"] {
        assert_eq!(
            public[path].header("vary"),
            Some("Accept-Encoding, Authorization, Cookie"),
            "{path}"
        );
    }
    let aurora = holder["/brand/aurora-launch/spec.json"].json();
    assert_eq!(aurora["version"], "9.8.7");
    let status = holder["/status"].json();
    assert_eq!(status["nextEmbargoLift"], "2099-01-01T08:00:00Z");
    assert!(public["/status"].json().get("nextEmbargoLift").is_none());
    println!("token crawl: {} answers, every needle found", holder.len());
}

/// The answer to `path` with `headers`, its headers but `date` and its
/// body with `slug` written as `<slug>`.
fn shape(
    app: &TestApp,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    slug: &str,
) -> (u16, Vec<(String, Vec<String>)>, String) {
    let body = (method == "POST")
        .then_some(br#"{"promptId":"appointment-reminder","variables":{}}"#.as_slice());
    let res = app.request(method, path, headers, body);
    let h = res
        .headers
        .iter()
        .filter(|(k, _)| {
            k.as_str() != "date"
                && !k.starts_with("ratelimit")
                && k.as_str() != "x-ratelimit-remaining"
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    (res.status, h, res.text().replace(slug, "<slug>"))
}

#[test]
fn a_private_brand_is_to_anyone_else_a_brand_that_does_not_exist() {
    let (_dir, _content, app) = secret_server("2099-01-01T00:00:00Z");
    let other = bearer(AURORA_ONLY);
    let wrong = bearer("mq_not_a_token_at_all");
    let html: &[(&str, &str)] = &[("Accept", "text/html")];
    let cases: &[(&str, &str)] = &[
        ("GET", "/brand/{}"),
        ("GET", "/brand/{}/spec.json"),
        ("HEAD", "/brand/{}/tokens.css"),
        ("GET", "/brand/{}/assets/logo.svg"),
        ("GET", "/brand/{}/changelog.md"),
        ("GET", "/brand/{}@3.0.0-beta.2/spec.json"),
        ("GET", "/brand/{}/compare/current...current"),
        ("POST", "/api/brand-spec/{}/demo"),
        ("GET", "/brand/{}/embed.js"),
    ];
    for (i, (method, template)) in cases.iter().enumerate() {
        let private = template.replace("{}", "lumen-health");
        let absent = template.replace("{}", "absent-brand");
        let mut variants = vec![
            vec![],
            vec![("Authorization", other.as_str())],
            html.to_vec(),
        ];
        // A wrong token counts as a failed attempt: within the ten a minute.
        if i < 4 {
            variants.push(vec![("Authorization", wrong.as_str())]);
        }
        for headers in variants {
            let mut headers = headers;
            if *method == "POST" {
                headers.push(("Content-Type", "application/json"));
            }
            let a = shape(&app, method, &private, &headers, "lumen-health");
            let b = shape(&app, method, &absent, &headers, "absent-brand");
            assert_eq!(
                a, b,
                "{method} {private} with {headers:?} answers as a brand that does not exist"
            );
            assert!(a.0 == 404 || a.0 == 405, "{method} {private}: {}", a.0);
            if template.starts_with("/brand/") {
                assert!(
                    a.1.iter()
                        .any(|(k, v)| k == "vary" && v[0].contains("Authorization, Cookie")),
                    "{private}: {:?}",
                    a.1
                );
            }
        }
    }
    // Its holder reads it; a token scoped to it does not open the other.
    let lumen = bearer(LUMEN_ONLY);
    let res = app.get_with(
        "/brand/lumen-health/spec.json",
        &[("Authorization", &lumen)],
    );
    assert_eq!(res.status, 200);
    assert_eq!(res.json()["name"], "Lumen Health");
    let res = app.get_with(
        "/brand/aurora-launch/spec.json",
        &[("Authorization", &lumen)],
    );
    assert_eq!(res.status, 404, "a scoped token opens only its brands");
    let res = app.get_with(
        "/brand/aurora-launch/spec.json",
        &[("Authorization", &other)],
    );
    assert_eq!(res.status, 200);
    let brands = app
        .get_with("/brands.json", &[("Authorization", &lumen)])
        .text();
    assert!(
        brands.contains("lumen-health") && !brands.contains("aurora-launch"),
        "{brands}"
    );
    // The compare endpoint and the demo answer a holder too.
    let res = app.get_with(
        "/brand/lumen-health/compare/current...current.json",
        &[("Authorization", &lumen)],
    );
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.header("cache-control"), Some("private, no-store"));
    let res = app.request(
        "POST",
        "/api/brand-spec/lumen-health/demo",
        &[("Authorization", &lumen), ("Content-Type", "application/json")],
        Some(br#"{"promptId":"appointment-reminder","variables":{"patient_first_name":"Ada","clinician":"Dr Lee","when":"Monday 9:00","bring":"your card"}}"#),
    );
    assert_eq!(res.status, 200, "{}", res.text());
    assert_eq!(res.header("cache-control"), Some("private, no-store"));
}

#[test]
fn wrong_tokens_stop_at_ten_a_minute_and_then_even_a_right_one_waits() {
    let (_dir, _content, app) = secret_server("2099-01-01T00:00:00Z");
    // No token is never a failure.
    for _ in 0..30 {
        assert_eq!(app.get("/brand/lumen-health/spec.json").status, 404);
    }
    for i in 0..10 {
        let wrong = bearer(&format!("mq_guess_{i}"));
        let res = app.get_with("/brand/northwind/spec.json", &[("Authorization", &wrong)]);
        assert_eq!(res.status, 200, "a wrong token reads as no token (try {i})");
    }
    let res = app.get_with(
        "/brand/northwind/spec.json",
        &[("Authorization", "Bearer mq_guess_10")],
    );
    assert_eq!(res.status, 429);
    assert_eq!(res.header("content-type"), Some("application/problem+json"));
    let retry: u64 = res.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=60).contains(&retry), "{retry}");
    let right = bearer(ALL);
    let res = app.get_with(
        "/brand/lumen-health/spec.json",
        &[("Authorization", &right)],
    );
    assert_eq!(
        res.status, 429,
        "a guesser learns nothing past the tenth try"
    );
    // Without a token, the client is served as ever.
    assert_eq!(app.get("/brand/northwind/spec.json").status, 200);
    // The sign-in form counts the same failures.
    let res = app.request(
        "POST",
        "/signin",
        &[("Content-Type", "application/x-www-form-urlencoded")],
        Some(format!("token={ALL}").as_bytes()),
    );
    assert_eq!(res.status, 429);
    assert!(res.text().contains("Try again in"));
}

#[test]
fn the_sign_in_form_gives_a_browser_a_session_that_opens_private_brands() {
    let (_dir, _content, app) = secret_server("2099-01-01T00:00:00Z");

    // The cookie's flags, as the server sets them (and `Secure` behind TLS).
    let signin = |app: &TestApp, token: &str, extra: &[(&str, &str)]| {
        let h = [
            &[("Content-Type", "application/x-www-form-urlencoded")],
            extra,
        ]
        .concat();
        app.request(
            "POST",
            "/signin",
            &h,
            Some(format!("token={token}&next=%2Fbrand%2Flumen-health").as_bytes()),
        )
    };
    let res = signin(&app, LUMEN_ONLY, &[]);
    assert_eq!(res.status, 303);
    assert_eq!(res.header("location"), Some("/brand/lumen-health"));
    let cookie = res.header("set-cookie").unwrap().to_string();
    assert!(
        cookie.starts_with("marque_session=lumen-agency."),
        "{cookie}"
    );
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=43200"] {
        assert!(cookie.contains(flag), "{flag} in {cookie}");
    }
    assert!(
        !cookie.contains("Secure") && !cookie.contains(LUMEN_ONLY),
        "{cookie}"
    );
    let tls = signin(&app, LUMEN_ONLY, &[("X-Forwarded-Proto", "https")]);
    assert!(tls.header("set-cookie").unwrap().contains("; Secure"));
    let session = cookie.split(';').next().unwrap().to_string();
    let res = app.get_with("/brand/lumen-health/spec.json", &[("Cookie", &session)]);
    assert_eq!(res.status, 200);
    assert_eq!(res.header("cache-control"), Some("private, no-store"));
    // A forged session is no session (and no failure).
    // (Its last digit changed: to 1 where it was 0, else to 0.)
    let last = if session.ends_with('0') { "1" } else { "0" };
    let forged = format!("{}{last}", &session[..session.len() - 1]);
    assert_eq!(
        app.get_with("/brand/lumen-health/spec.json", &[("Cookie", &forged)])
            .status,
        404
    );
    let res = app.request("POST", "/signout", &[("Cookie", &session)], None);
    assert_eq!(res.status, 303);
    assert!(res.header("set-cookie").unwrap().contains("Max-Age=0"));

    // The form in a real browser.
    let Some((_one, b)) = crate::browser::locked() else {
        return;
    };
    // Every page's footer links the form.
    b.goto(&format!("{}/", app.public_url));
    b.js("document.querySelector('footer a[href$=\"/signin\"]').click(); return 1;");
    b.wait_for(
        "return location.pathname === '/signin'",
        "the footer's link opens the form",
    );
    assert_eq!(
        b.js("return document.querySelector('label[for=token]').textContent"),
        "Access token"
    );
    assert_eq!(
        b.js("return document.getElementById('token').type"),
        "password"
    );
    b.js("document.getElementById('token').value = 'mq_wrong'; document.querySelector('form.signin').submit(); return 1;");
    b.wait_for(
        "return !!document.querySelector('[role=alert]')",
        "the error is announced",
    );
    assert_eq!(
        b.js("return document.getElementById('token').getAttribute('aria-invalid')"),
        "true"
    );
    assert_eq!(
        b.js("return document.getElementById('token').getAttribute('aria-describedby')"),
        "signin-hint signin-error"
    );
    b.js(&format!("document.getElementById('token').value = '{ALL}'; document.querySelector('form.signin').submit(); return 1;"));
    b.wait_for(
        "return location.pathname === '/'",
        "the browser goes on to the index",
    );
    b.wait_for(
        "return document.body.textContent.includes('Lumen Health')",
        "the index lists the private brand",
    );
    assert!(
        b.csp_violations().as_array().unwrap().is_empty(),
        "{}",
        b.csp_violations()
    );
    let cookies = b.cookies();
    let session = cookies
        .iter()
        .find(|c| c["name"] == "marque_session")
        .unwrap_or_else(|| panic!("a session cookie: {cookies:?}"));
    assert_eq!(session["httpOnly"], true);
    assert_eq!(session["sameSite"], "Lax");
    assert_eq!(session["secure"], false, "no TLS here");
    assert_eq!(
        b.js("return document.cookie.includes('marque_session')"),
        false,
        "scripts cannot read it"
    );
    b.goto(&format!("{}/brand/lumen-health", app.public_url));
    b.wait_for(
        "return document.title.startsWith('Lumen Health')",
        "the private brand's page",
    );
    // The reader is told the page is private, and who is signed in.
    assert_eq!(
        b.js("return document.querySelector('header #marque-access strong').textContent"),
        "Private"
    );
    b.wait_for(
        "return document.querySelector('footer').textContent.includes('Signed in as ops')",
        "the footer names who is signed in",
    );
    b.screenshot("signin-lumen-health");
    // An embargoed version says until when, in UTC and in the reader's zone.
    b.goto(&format!("{}/brand/aurora-launch", app.public_url));
    b.wait_for(
        "var a = document.querySelector('#marque-access'); return !!a && a.textContent.includes('Embargoed') && a.querySelector('.local').textContent.includes('your time');",
        "the embargo's moment is shown",
    );
    assert!(b
        .js("return document.querySelector('#marque-access time').textContent")
        .as_str()
        .unwrap()
        .ends_with("UTC"));
    // Sign-out from the footer ends the session.
    b.js("document.querySelector('footer button.signout').click(); return 1;");
    b.wait_for(
        "return location.pathname === '/' && !document.body.textContent.includes('Lumen Health')",
        "signed out, the private brand is gone",
    );
    assert_eq!(
        b.js("return document.querySelector('footer').textContent.includes('Signed in')"),
        false
    );
}

/// The real binary serving the secret content of `dir` (JSON logs on
/// stderr, stdout piped), with `env` added.
fn marque_binary(dir: &Path, env: &[(&str, &std::ffi::OsStr)]) -> std::process::Child {
    let content = dir.join("content");
    secret_content(&content, "2099-01-01T00:00:00Z");
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_marque"));
    cmd.args([
        "--listen",
        "127.0.0.1:0",
        "--no-watch",
        "--log-format",
        "json",
    ])
    .arg("--content")
    .arg(&content)
    .arg("--cache-dir")
    .arg(dir.join("cache"))
    .stderr(std::process::Stdio::piped())
    .stdout(std::process::Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.spawn().unwrap()
}

#[test]
fn the_log_never_shows_a_token_or_its_hash() {
    use std::io::{BufRead, BufReader, Read};
    let dir = tempfile::tempdir().unwrap();
    let tokens = tokens_file(dir.path());
    let mut child = marque_binary(
        dir.path(),
        &[
            ("MARQUE_ACCESS_TOKENS", tokens.as_os_str()),
            ("RUST_LOG", std::ffi::OsStr::new("debug")),
        ],
    );
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut log = String::new();
    let addr: std::net::SocketAddr = loop {
        let mut line = String::new();
        assert!(
            err.read_line(&mut line).unwrap() > 0,
            "marque logs that it listens: {log}"
        );
        log.push_str(&line);
        let v: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        if v["fields"]["message"] == "marque is listening" {
            break v["fields"]["addr"].as_str().unwrap().parse().unwrap();
        }
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while raw_request(addr, "GET", "/readyz", &[], None).status != 200 {
        assert!(Instant::now() < deadline);
        std::thread::sleep(Duration::from_millis(20));
    }
    let form = "application/x-www-form-urlencoded";
    for token in [ALL, "mq_a_wrong_one_9999"] {
        let auth = bearer(token);
        raw_request(
            addr,
            "GET",
            "/brand/lumen-health/spec.json",
            &[("Authorization", &auth)],
            None,
        );
        raw_request(
            addr,
            "POST",
            "/signin",
            &[("Content-Type", form)],
            Some(format!("token={token}").as_bytes()),
        );
        let status = raw_request(addr, "GET", "/status", &[("Authorization", &auth)], None);
        let metrics = raw_request(addr, "GET", "/metrics", &[("Authorization", &auth)], None);
        for body in [status.body, metrics.body] {
            let text = String::from_utf8_lossy(&body).into_owned();
            assert!(!text.contains(token), "an operator document shows a token");
        }
    }
    // SIGHUP reads the file again (and says so, by count, not content).
    let _ = std::process::Command::new("kill")
        .args(["-HUP", &child.id().to_string()])
        .status();
    std::thread::sleep(Duration::from_millis(500));
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let _ = err.read_to_string(&mut log);
    let mut out = String::new();
    let _ = child.stdout.take().unwrap().read_to_string(&mut out);
    let _ = child.wait();
    log.push_str(&out);
    assert_eq!(
        log.matches("access tokens read").count(),
        2,
        "read at start and on SIGHUP: {log}"
    );
    assert!(log.contains("signed in"), "{log}");
    let text = std::fs::read_to_string(&tokens).unwrap();
    let hashes: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| l.split(':').nth(1).unwrap())
        .collect();
    for secret in [ALL, "mq_a_wrong_one_9999"].iter().chain(&hashes) {
        assert!(!log.contains(secret), "the log shows {secret}");
        assert!(
            !log.contains(&secret[..16]),
            "the log shows part of {secret}"
        );
    }
}

#[test]
fn marque_token_prints_a_line_the_server_reads_and_a_token_it_opens() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["token", "agency", "--brands", "lumen-health,aurora-launch"])
        // Standard output is a pipe here: the token comes only when asked for.
        .arg("--plaintext-to-stdout")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2, "{text}");
    let tokens = marque::access::Tokens::parse(lines[0]).unwrap();
    let token = tokens
        .find(lines[1])
        .expect("the token printed opens the line printed");
    assert_eq!(token.name, "agency");
    assert!(token.scope.covers("aurora-launch") && !token.scope.covers("northwind"));
    assert!(
        lines[1].starts_with("mq_") && lines[1].len() == 67,
        "{}",
        lines[1]
    );
    assert!(!lines[0].contains(lines[1]));
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["token", "has space"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

/// `marque token >> tokens.txt` leaves only the hash in the file: to a pipe
/// or a file, the token itself is withheld unless asked for, and standard
/// error says so and how to get it.
#[test]
fn marque_token_writes_no_plaintext_to_a_pipe_unless_asked() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["token", "ci"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stdout.lines().count(), 1, "the hash line only: {stdout}");
    let tokens = marque::access::Tokens::parse(stdout.trim_end()).unwrap();
    assert!(!stdout.contains("mq_"), "no token in a pipe: {stdout}");
    assert!(
        stderr.contains("withheld") && stderr.contains("--plaintext-to-stdout"),
        "{stderr}"
    );
    assert!(!stderr.contains("mq_"), "nor on standard error: {stderr}");
    let asked = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["token", "ci", "--plaintext-to-stdout"])
        .output()
        .unwrap();
    let text = String::from_utf8(asked.stdout).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[1].starts_with("mq_"), "{text}");
    let asked_for = marque::access::Tokens::parse(lines[0]).unwrap();
    assert!(asked_for.find(lines[1]).is_some(), "{text}");
    // The line written without its token is one the server reads, and
    // another run's token does not open it.
    assert!(tokens.find(lines[1]).is_none());
}

/// An RFC 3339 moment `secs` from now, at an offset of +02:00.
pub fn in_secs(secs: i64) -> (String, chrono::DateTime<chrono::Utc>) {
    let at = chrono::Utc::now() + chrono::Duration::seconds(secs);
    let offset = chrono::FixedOffset::east_opt(2 * 3600).unwrap();
    (
        at.with_timezone(&offset)
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, false),
        at,
    )
}

/// Waits until `app` serves Aurora Launch at `version` to public readers,
/// and returns how long after `at` that was (negative: before).
fn public_from(app: &TestApp, version: &str, at: chrono::DateTime<chrono::Utc>) -> f64 {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let res = app.get("/brand/aurora-launch/spec.json");
        if res.status == 200 && res.json()["version"] == version {
            return (chrono::Utc::now() - at).num_milliseconds() as f64 / 1000.0;
        }
        assert!(
            Instant::now() < deadline,
            "version {version} is public in time"
        );
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[test]
fn an_embargo_lifts_by_itself_in_directory_mode() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    copy_dir(&example_content(), &content);
    let (embargo, at) = in_secs(3);
    aurora(&content, "9.8.7", Some(&embargo));
    let app = serve_secrets(&content, |c| c.set_watch(Watch::Off));
    assert!(
        chrono::Utc::now() < at,
        "the server started before the embargo lifts"
    );
    // No release before it: until then, no brand to public readers.
    assert_eq!(app.get("/brand/aurora-launch/spec.json").status, 404);
    assert!(!app.get("/brands.json").text().contains("aurora-launch"));
    let all = bearer(ALL);
    let res = app.get_with("/brand/aurora-launch/spec.json", &[("Authorization", &all)]);
    assert_eq!(res.status, 200);
    assert_eq!(res.header("cache-control"), Some("private, no-store"));
    let after = public_from(&app, "9.8.7", at);
    println!("directory mode: public {after:.3} s after the embargo");
    assert!(
        (0.0..1.0).contains(&after),
        "lifted {after} s after its moment"
    );
    let res = app.get("/brand/aurora-launch/spec.json");
    assert_eq!(res.header("cache-control"), Some("public, max-age=60"));
    assert!(app.get("/brands.json").text().contains("aurora-launch"));
}

/// A remote with Aurora Launch released as 1.0.0, then 2.0.0 committed
/// and tagged under an embargo of `embargo`.
pub fn embargoed_remote(embargo: &str) -> Remote {
    let remote = Remote::new();
    aurora(remote.path(), "1.0.0", None);
    remote.commit("Aurora Launch 1.0.0", 1);
    remote.tag_annotated("aurora-launch@1.0.0", "1.0.0", 1);
    aurora(remote.path(), "2.0.0", Some(embargo));
    remote.edit("aurora-launch/brand.json", "Outdoor gear", "Launch gear");
    remote.commit("Aurora Launch 2.0.0, under embargo", 0);
    remote.tag_annotated("aurora-launch@2.0.0", "2.0.0", 0);
    remote
}

/// Lumen Health on `remote` made private (or public again).
pub fn lumen_visibility(remote: &Remote, private: bool) {
    let (public, private_) = (
        "\"name\": \"Lumen Health\",",
        "\"name\": \"Lumen Health\",\n  \"visibility\": \"private\",",
    );
    let path = "lumen-health/brand.json";
    match private {
        true => remote.edit(path, public, private_),
        false => remote.edit(path, private_, public),
    }
}

/// Git mode of `remote`, previews of `feature/*` on, with the tokens of
/// [`tokens_file`] in `dir`.
pub fn previews_config(remote: &Remote, dir: &Path) -> ServeConfig {
    let mut config = serve_config(&example_content());
    config.source = SourceConfig::Git(GitSource::new(remote.url()));
    config.git_source().unwrap().poll = Duration::from_secs(3600);
    config.git_source().unwrap().previews = Some(PreviewConfig {
        glob: "feature/*".into(),
        limit: 4,
    });
    config.cache_dir = tempfile::tempdir_in(dir).unwrap().keep();
    config.access_tokens = Some(tokens_file(dir));
    config
}

fn git_secrets(remote: &Remote, dir: &Path, fleet: Option<FleetConfig>) -> TestApp {
    let mut config = serve_config(&example_content());
    config.source = SourceConfig::Git(GitSource::new(remote.url()));
    config.git_source().unwrap().poll = Duration::from_secs(3600);
    config.cache_dir = tempfile::tempdir_in(dir).unwrap().keep();
    config.access_tokens = Some(tokens_file(dir));
    config.fleet = fleet;
    spawn_with(config)
}

#[test]
fn an_embargo_lifts_by_itself_in_git_mode_and_public_readers_keep_the_release_before() {
    let dir = tempfile::tempdir().unwrap();
    let (embargo, at) = in_secs(4);
    let remote = embargoed_remote(&embargo);
    let app = git_secrets(&remote, dir.path(), None);
    assert!(
        chrono::Utc::now() < at,
        "the server started before the embargo lifts"
    );
    let spec = app.get("/brand/aurora-launch/spec.json");
    assert_eq!(spec.status, 200);
    assert_eq!(
        spec.json()["version"],
        "1.0.0",
        "public readers keep the release before"
    );
    assert_eq!(spec.header("cache-control"), Some("public, max-age=60"));
    for path in [
        "/brand/aurora-launch@2.0.0/spec.json",
        "/brand/aurora-launch/compare/1.0.0...2.0.0",
    ] {
        assert_eq!(app.get(path).status, 404, "{path}");
    }
    for path in [
        "/brand/aurora-launch/changelog.md",
        "/brand/aurora-launch/changelog.json",
        "/brands.json",
        "/llms.txt",
    ] {
        let text = app.get(path).text();
        assert!(
            !text.contains("2.0.0") && !text.contains("Launch gear"),
            "{path}: {text}"
        );
    }
    let all = bearer(ALL);
    let token = [("Authorization", all.as_str())];
    assert_eq!(
        app.get_with("/brand/aurora-launch/spec.json", &token)
            .json()["version"],
        "2.0.0"
    );
    assert_eq!(
        app.get_with("/brand/aurora-launch@2.0.0/spec.json", &token)
            .status,
        200
    );
    let compare = app.get_with("/brand/aurora-launch/compare/1.0.0...2.0.0.json", &token);
    assert_eq!(compare.status, 200, "{}", compare.text());
    assert!(app
        .get_with("/brand/aurora-launch/changelog.md", &token)
        .text()
        .contains("2.0.0"));
    let after = public_from(&app, "2.0.0", at);
    println!("git mode: public {after:.3} s after the embargo");
    assert!(
        (0.0..1.0).contains(&after),
        "lifted {after} s after its moment"
    );
    assert_eq!(app.get("/brand/aurora-launch@2.0.0/spec.json").status, 200);
    assert_eq!(
        app.get("/brand/aurora-launch/compare/1.0.0...2.0.0.json")
            .status,
        200
    );
}

#[test]
fn an_embargo_lifts_on_every_replica_of_a_fleet_within_a_second() {
    if !crate::fleet::redis_available() {
        return;
    }
    let redis = crate::fleet::Redis::start();
    let dir = tempfile::tempdir().unwrap();
    let (embargo, at) = in_secs(5);
    let remote = embargoed_remote(&embargo);
    let fleet = || {
        Some(FleetConfig {
            url: redis.url(),
            password: None,
            prefix: "embargo-fleet:".into(),
        })
    };
    let replicas = [
        git_secrets(&remote, dir.path(), fleet()),
        git_secrets(&remote, dir.path(), fleet()),
    ];
    assert!(
        chrono::Utc::now() < at,
        "the replicas started before the embargo lifts"
    );
    for app in &replicas {
        assert_eq!(
            app.get("/brand/aurora-launch/spec.json").json()["version"],
            "1.0.0"
        );
    }
    let lifted: Vec<f64> = std::thread::scope(|s| {
        let handles: Vec<_> = replicas
            .iter()
            .map(|app| s.spawn(move || public_from(app, "2.0.0", at)))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    println!("fleet: public {lifted:?} s after the embargo");
    for after in lifted {
        assert!(
            (0.0..1.0).contains(&after),
            "lifted {after} s after its moment"
        );
    }
}

#[test]
fn an_embargo_without_an_offset_is_an_error_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    copy_dir(&example_content(), &content);
    aurora(&content, "9.8.7", Some("2099-01-01T09:00:00"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .args(["check", "--format", "json"])
        .arg(&content)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    let d: Value = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find(|d| d["code"] == "MQ1208")
        .unwrap_or_else(|| panic!("MQ1208 in {text}"));
    assert_eq!(d["file"], "aurora-launch/brand.json");
    assert_eq!(d["severity"], "error");
    assert!(d["line"].as_u64().unwrap() > 1);
    assert!(
        d["message"].as_str().unwrap().contains("has no offset"),
        "{d}"
    );
}

#[test]
fn previews_behind_tokens_answer_their_holders_only() {
    let dir = tempfile::tempdir().unwrap();
    let remote = Remote::new();
    remote.edit("northwind/brand.json", "Outdoor gear", "Storm gear");
    remote.commit_to("feature/storm", "Storm gear", 0);
    let mut config = previews_config(&remote, dir.path());
    config.preview_access = marque::config::PreviewAccess::Token;
    let app = spawn_with(config);
    let all = bearer(ALL);
    let token = [("Authorization", all.as_str())];
    app.wait_until(
        |a| {
            a.get_with("/previews.json", &token)
                .text()
                .contains("feature/storm")
        },
        "the preview is built",
    );
    let list = app.get_with("/previews.json", &token);
    assert_eq!(list.header("cache-control"), Some("private, no-store"));
    let name = list.json()["previews"][0]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let path = format!("/preview/{name}/brand/northwind/spec.json");
    let res = app.get_with(&path, &token);
    assert_eq!(res.status, 200);
    assert!(res.text().contains("Storm gear"));
    assert_eq!(res.header("cache-control"), Some("private, no-store"));
    for p in [
        "/previews.json",
        path.as_str(),
        &format!("/preview/{name}/status"),
        &format!("/preview/{name}/brand/northwind/compare/current...current"),
    ] {
        let public = app.get(p);
        let absent = app.get(&p.replace(&name, "no-such-preview"));
        assert_eq!(public.status, 404, "{p}");
        if p != "/previews.json" {
            assert_eq!(
                public.text().replace(&name, "x"),
                absent.text().replace("no-such-preview", "x"),
                "{p}"
            );
        }
        assert!(!public.text().contains("Storm gear"), "{p}");
    }
    let demo = |preview: &str, headers: &[(&str, &str)]| {
        let h = [headers, &[("Content-Type", "application/json")]].concat();
        app.request(
            "POST",
            &format!("/preview/{preview}/api/brand-spec/northwind/demo"),
            &h,
            Some(br#"{"promptId":"product-description","variables":{"product":"Tarn shell","facts":"waterproof","words":"40","season":"autumn"}}"#),
        )
    };
    let hidden = demo(&name, &[]);
    let absent = demo("no-such-preview", &[]);
    assert_eq!(
        (hidden.status, hidden.text()),
        (absent.status, absent.text())
    );
    assert_eq!(hidden.status, 404, "{}", hidden.text());
    assert_eq!(
        demo(&name, &token).status,
        200,
        "its holder reaches the preview's demo"
    );
}

#[test]
fn a_static_build_holds_what_public_readers_see_and_nothing_withheld() {
    let dir = tempfile::tempdir().unwrap();
    let content = dir.path().join("content");
    secret_content(&content, "2099-01-01T00:00:00Z");
    let site = dir.path().join("site");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_marque"))
        .arg("build")
        .arg(&content)
        .arg("--out")
        .arg(&site)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("left out (private, or under embargo): aurora-launch, lumen-health"),
        "{said}"
    );
    assert!(site.join("brand/northwind/spec.json").exists());
    let mut files = Vec::new();
    let mut stack = vec![site.clone()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 30);
    for f in files {
        let name = f.strip_prefix(&site).unwrap().display().to_string();
        let text = match f.extension().and_then(|e| e.to_str()) {
            Some("gz") => {
                String::from_utf8_lossy(&gunzip(&std::fs::read(&f).unwrap())).into_owned()
            }
            Some("br") => {
                String::from_utf8_lossy(&unbrotli(&std::fs::read(&f).unwrap())).into_owned()
            }
            _ => String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned(),
        };
        for n in NEEDLES {
            assert!(!name.contains(n) && !text.contains(n), "{name} holds {n}");
        }
    }
}

#[test]
fn a_changed_tokens_file_is_read_again_and_a_removed_token_stops_opening() {
    let (dir, _content, app) = secret_server("2099-01-01T00:00:00Z");
    let tokens = dir.path().join("tokens.txt");
    let lumen = bearer(LUMEN_ONLY);
    let read = |auth: &str| {
        app.get_with("/brand/lumen-health/spec.json", &[("Authorization", auth)])
            .status
    };
    assert_eq!(read(&lumen), 200);
    // A new token, scoped to Lumen Health, replaces the old one.
    let fresh = "mq_rotated_token_for_lumen_77";
    let line = marque::access::line_for("lumen-agency", fresh, &["lumen-health".into()]).unwrap();
    std::fs::write(&tokens, format!("{line}\n")).unwrap();
    // Looked at every second (a poll with the new token would count as
    // failed attempts until then).
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(read(&bearer(fresh)), 200, "the new token opens its brand");
    assert_eq!(read(&lumen), 404, "the removed token opens nothing");
    // A file that no longer reads keeps the tokens before.
    std::fs::write(&tokens, "lumen-agency:not-a-hash\n").unwrap();
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(read(&bearer(fresh)), 200);
}

/// What every MCP request sends, with `headers`.
fn mcp_headers<'h>(headers: &[(&'h str, &'h str)]) -> Vec<(&'h str, &'h str)> {
    [
        headers,
        &[
            ("Content-Type", "application/json"),
            ("Accept", "application/json, text/event-stream"),
        ],
    ]
    .concat()
}

/// An MCP session opened with `headers` and initialized: its id, and the
/// answer to `initialize`.
fn mcp_session(app: &TestApp, headers: &[(&str, &str)]) -> (String, Response) {
    let base = mcp_headers(headers);
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "crawl", "version": "1"}}});
    let res = app.request("POST", "/mcp", &base, Some(init.to_string().as_bytes()));
    assert_eq!(res.status, 200, "{}", res.text());
    let sid = res.header("mcp-session-id").unwrap().to_string();
    let note = json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string();
    let with: Vec<(&str, &str)> = [base.as_slice(), &[("Mcp-Session-Id", sid.as_str())]].concat();
    assert_eq!(
        app.request("POST", "/mcp", &with, Some(note.as_bytes()))
            .status,
        202
    );
    (sid, res)
}

/// A session's stream of server messages.
struct Stream(std::io::BufReader<std::net::TcpStream>);

impl Stream {
    fn open(app: &TestApp, sid: &str, auth: Option<&str>) -> Stream {
        use std::io::Write;
        let mut s = std::net::TcpStream::connect(app.addr).unwrap();
        let auth = auth
            .map(|a| format!("Authorization: {a}\r\n"))
            .unwrap_or_default();
        write!(s, "GET /mcp HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nMcp-Session-Id: {sid}\r\n{auth}\r\n").unwrap();
        Stream(std::io::BufReader::new(s))
    }

    /// True when a list_changed notice arrives within `wait`.
    fn hears_change(&mut self, wait: Duration) -> bool {
        use std::io::BufRead;
        let deadline = Instant::now() + wait;
        let mut line = String::new();
        while let Some(left) = deadline.checked_duration_since(Instant::now()) {
            self.0
                .get_ref()
                .set_read_timeout(Some(left.max(Duration::from_millis(1))))
                .unwrap();
            line.clear();
            match self.0.read_line(&mut line) {
                Ok(0) | Err(_) => return false,
                Ok(_) if line.contains("list_changed") => return true,
                Ok(_) => {}
            }
        }
        false
    }
}

#[test]
fn mcp_sessions_hear_only_of_changes_they_may_see() {
    let (_dir, content, app) = secret_server("2099-01-01T00:00:00Z");
    let all = bearer(ALL);
    let (public_sid, _) = mcp_session(&app, &[]);
    let (holder_sid, _) = mcp_session(&app, &[("Authorization", &all)]);
    let mut public = Stream::open(&app, &public_sid, None);
    let mut holder = Stream::open(&app, &holder_sid, Some(&all));
    std::thread::sleep(Duration::from_millis(300));
    edit(
        &content.join("lumen-health/brand.json"),
        "\"summary\": \"A clinic network",
        "\"summary\": \"A secret clinic network",
    );
    assert!(
        holder.hears_change(Duration::from_secs(10)),
        "the holder hears of the private brand's edit"
    );
    assert!(
        !public.hears_change(Duration::from_millis(1500)),
        "a public session does not"
    );
    edit(
        &content.join("northwind/brand.json"),
        "\"summary\": \"Outdoor gear",
        "\"summary\": \"Weatherproof outdoor gear",
    );
    assert!(
        public.hears_change(Duration::from_secs(10)),
        "a public session hears of a public edit"
    );
}

#[test]
fn a_version_under_embargo_is_withheld_in_every_render_and_a_broken_embargoed_edit_keeps_its_errors_private(
) {
    // The tag was cut before the embargo line was added: its render does
    // not carry the embargo, but its version does.
    let dir = tempfile::tempdir().unwrap();
    let remote = Remote::new();
    aurora(remote.path(), "1.0.0", None);
    remote.commit("Aurora Launch 1.0.0", 2);
    remote.tag_annotated("aurora-launch@1.0.0", "1.0.0", 2);
    aurora(remote.path(), "2.0.0", None);
    remote.edit("aurora-launch/brand.json", "Outdoor gear", "Launch gear");
    remote.commit("Aurora Launch 2.0.0", 1);
    remote.tag_annotated("aurora-launch@2.0.0", "2.0.0", 1);
    aurora(remote.path(), "2.0.0", Some("2099-01-01T00:00:00Z"));
    remote.commit("Hold 2.0.0 back", 0);
    let app = git_secrets(&remote, dir.path(), None);
    assert_eq!(
        app.get("/brand/aurora-launch/spec.json").json()["version"],
        "1.0.0"
    );
    assert_eq!(app.get("/brand/aurora-launch@2.0.0/spec.json").status, 404);
    assert!(!app
        .get("/brand/aurora-launch/changelog.md")
        .text()
        .contains("Launch gear"));
    drop(app);

    // Directory mode: a published brand gets a broken edit that carries an
    // embargo; public readers keep its last good version, without its errors.
    let content = dir.path().join("content");
    copy_dir(&example_content(), &content);
    aurora(&content, "1.0.0", None);
    let app = serve_secrets(&content, |_| {});
    aurora(&content, "2.0.0", Some("2099-01-01T09:00:00"));
    edit(
        &content.join("aurora-launch/brand.json"),
        "Outdoor gear",
        "Secret launch gear",
    );
    let all = bearer(ALL);
    let token = [("Authorization", all.as_str())];
    app.wait_until(
        |a| a.get_with("/status", &token).text().contains("MQ1208"),
        "the holder's /status shows the broken edit",
    );
    let status = app.get("/status").text();
    assert!(
        !status.contains("MQ1208") && !status.contains("2099") && !status.contains("Secret launch"),
        "{status}"
    );
    let page = app
        .get_with("/brand/aurora-launch", &[("Accept", "text/html")])
        .text();
    assert!(!page.contains("2099") && !page.contains("MQ1208"), "{page}");
    assert_eq!(
        app.get("/brand/aurora-launch/spec.json").json()["version"],
        "1.0.0"
    );
}

#[test]
fn a_preview_never_names_a_private_brand_or_quotes_an_embargoed_version_to_public_readers() {
    let dir = tempfile::tempdir().unwrap();
    let remote = Remote::new();
    lumen_visibility(&remote, true);
    aurora(remote.path(), "1.0.0", None);
    remote.commit("Lumen private, Aurora 1.0.0", 2);
    remote.tag_annotated("aurora-launch@1.0.0", "1.0.0", 2);
    aurora(remote.path(), "9.8.7", Some("2099-01-01T00:00:00Z"));
    remote.commit("Aurora 9.8.7 under embargo", 1);
    // A branch that deletes the private brand.
    std::fs::remove_dir_all(remote.path().join("lumen-health")).unwrap();
    remote.commit_to("feature/cleanup", "Drop a brand", 0);
    let config = previews_config(&remote, dir.path());
    let app = spawn_with(config);
    app.wait_until(
        |a| a.get("/previews.json").text().contains("feature/cleanup"),
        "the preview is built",
    );
    let name = app.get("/previews.json").json()["previews"][0]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let list = app.get("/previews.json").text();
    assert!(
        !list.contains("removed"),
        "the branch removes only what public readers never see: {list}"
    );
    for path in [
        "/previews.json".to_string(),
        format!("/preview/{name}/"),
        format!("/preview/{name}/brand/aurora-launch"),
    ] {
        let res = app.get_with(&path, &[("Accept", "text/html")]);
        let text = res.text();
        for n in NEEDLES
            .iter()
            .filter(|n| **n != "aurora-launch" && **n != "Aurora Launch")
        {
            assert!(!text.contains(n), "{path} says {n}: {text}");
        }
    }
}

#[test]
fn a_public_brands_broken_edit_stays_public_with_its_errors() {
    // A `\u` escape could spell a hidden key only in a brand never
    // published: a public brand's last good version says what it is.
    let (_dir, content, app) = secret_server("2099-01-01T00:00:00Z");
    edit(
        &content.join("northwind/brand.json"),
        "\"version\": \"2.4.0\",",
        "\"version\": \"2.4.0\",\n  \"x-note\": \"it\\u2019s broken\",",
    );
    edit(
        &content.join("northwind/brand.json"),
        "\"updated\": \"2026-10-14\"",
        "\"updated\": \"2026-02-30\"",
    );
    app.wait_until(
        |a| a.get("/status").text().contains("MQ1202"),
        "public /status shows the public brand's error",
    );
    assert_eq!(
        app.get("/brand/northwind/spec.json").status,
        200,
        "its last good version keeps serving"
    );
    assert!(app.get("/brands.json").text().contains("northwind"));
}

#[test]
fn private_brands_without_tokens_are_served_to_no_one_and_the_log_says_how_to_open_them() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().unwrap();
    let mut child = marque_binary(dir.path(), &[]);
    let lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut warned = None;
    for line in lines {
        let line = line.unwrap();
        if line.contains("served to no one") {
            warned = Some(line);
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let line = warned.expect("the log says the private brands are served to no one");
    assert!(
        line.contains("aurora-launch, lumen-health") && line.contains("--access-tokens"),
        "{line}"
    );
}
