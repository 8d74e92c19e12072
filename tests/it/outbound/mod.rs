//! What marque sends when it publishes: CDN purges and signed release
//! events, recorded by real local HTTP servers; the faults a sender must
//! survive (a receiver that fails, then answers; one that hangs).

/// The pull request comment (`--status-comment`), made once and edited.
mod comment;
/// What the forges' published OpenAPI descriptions say of each request.
mod openapi;
/// A real local HTTP server that records what it gets.
mod receiver;
/// The real binary killed with deliveries pending, and started again.
mod restart;

use crate::git::{push_hook, serve_git_with, Remote};
use crate::helpers::*;
use crate::reload::{edit, workspace};
use receiver::{Answer, Got, Receiver};
use serde_json::Value;
use std::time::{Duration, Instant};

pub const NOTIFY_SECRET: &str = "shh-notify-secret-0123";
const PURGE_KEY: &str = "purge-key-abcdef";

/// What a receiver does with `X-Marque-Signature-256`: HMAC-SHA256 over
/// `<timestamp>.<body>`, compared with what came.
pub fn verifies(got: &Got) -> bool {
    use hmac::{Hmac, Mac};
    let ts = got.header("x-marque-timestamp");
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(NOTIFY_SECRET.as_bytes()).unwrap();
    mac.update(ts.as_bytes());
    mac.update(b".");
    mac.update(&got.body);
    let hex: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    got.header("x-marque-signature-256") == format!("sha256={hex}")
}

fn outbound(app: &TestApp) -> Value {
    app.get("/status").json()["outbound"].clone()
}

#[test]
fn a_push_purges_the_brand_it_changed_and_the_lists_within_a_second() {
    let cdn = Receiver::start(&[]);
    let remote = Remote::new();
    let (bulk, per_path) = (cdn.url("/purge_cache"), cdn.url("/purge/b.example{path}"));
    let g = serve_git_with(&remote.url(), None, |c| {
        c.outbound.purge = vec![bulk, per_path];
        c.outbound.purge_header = Some(("Authorization".into(), format!("Bearer {PURGE_KEY}")));
    });
    let app = &g.app;
    std::thread::sleep(Duration::from_millis(300));
    assert!(cdn.got().is_empty(), "the first build purges nothing");

    remote.edit("northwind/brand.json", "Outdoor gear", "Weatherproof gear");
    let head = remote.commit("Northwind: wording", 1).to_string();
    let pushed = Instant::now();
    push_hook(app);
    app.wait_until(
        |a| a.get("/status").json()["revision"] == head.as_str(),
        "the push is served",
    );
    let served = Instant::now();
    let got = cdn.wait_for(1, "a purge");
    let bulk: Vec<&Got> = got.iter().filter(|g| g.path == "/purge_cache").collect();
    let first = got.iter().map(|g| g.at).min().unwrap();
    println!(
        "purge: push to served {} ms, push to first purge {} ms",
        (served - pushed).as_millis(),
        (first - pushed).as_millis()
    );
    assert!(
        first < served + Duration::from_secs(1),
        "purged within 1 s of the publish"
    );
    let body = bulk[0].json();
    println!(
        "POST /purge_cache {}",
        serde_json::to_string(&body).unwrap()
    );
    let paths: Vec<&str> = body["paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    for list in [
        "/",
        "/brands.json",
        "/llms.txt",
        "/brand/northwind/tokens.css",
    ] {
        assert!(paths.contains(&list), "{list} in {paths:?}");
    }
    assert!(
        paths.iter().all(|p| !p.starts_with("/brand/lumen-health")),
        "an unchanged brand is not purged: {paths:?}"
    );
    assert_eq!(
        body["files"][0].as_str().unwrap(),
        format!("{}{}", app.public_url, paths[0])
    );
    assert_eq!(
        bulk[0].header("authorization"),
        format!("Bearer {PURGE_KEY}")
    );
    assert!(bulk[0].header("idempotency-key").starts_with("purge_"));
    // With `{path}`, one request per path (and no body).
    let each: Vec<String> = cdn
        .wait_for(
            1 + paths.len().div_ceil(30) + paths.len() - 1,
            "every per-path purge",
        )
        .iter()
        .filter(|g| g.path.starts_with("/purge/"))
        .map(|g| g.path.clone())
        .collect();
    assert!(each.contains(&"/purge/b.example/brand/northwind/tokens.css".to_string()));
    let status = serde_json::to_string(&app.get("/status").json()).unwrap();
    assert!(!status.contains(PURGE_KEY), "no secret in /status");
}

#[test]
fn a_tag_sends_one_signed_release_event_through_three_500s() {
    let hook = Receiver::start(&[
        Answer::Status(500),
        Answer::Status(500),
        Answer::Status(500),
    ]);
    let remote = Remote::new();
    remote.tag_annotated("northwind@2.4.0", "First", 0);
    let github = Receiver::start(&[]);
    let url = hook.url("/marque");
    let api = github.url("/api");
    let g = serve_git_with(&remote.url(), None, |c| {
        c.outbound.dispatch = Some(marque::outbound::Dispatch {
            repos: vec!["acme/app".into()],
            base: api,
            token: "ghs_dispatch_token".into(),
        });
        c.outbound.notify = vec![marque::outbound::Target::parse(&url)];
        c.outbound.secret = Some(NOTIFY_SECRET.into());
        c.outbound.retry_base = Duration::from_millis(50);
    });
    let app = &g.app;
    remote.set_version("northwind", "2.4.0", "2.5.0");
    remote.edit("northwind/brand.json", "Outdoor gear", "Weatherproof gear");
    remote.commit("Release 2.5", 2);
    remote.tag_annotated("northwind@2.5.0", "Wording", 2);
    push_hook(app);

    let got = hook.wait_for(4, "three failures and a success");
    app.wait_until(|a| outbound(a)["sent"] == 2, "the deliveries are counted");
    let events: Vec<Value> = got.iter().map(Got::json).collect();
    println!(
        "POST /marque\n{}",
        serde_json::to_string_pretty(&events[3]).unwrap()
    );
    let first = &got[0];
    for name in [
        "content-type",
        "user-agent",
        "idempotency-key",
        "x-marque-event",
        "x-marque-timestamp",
        "x-marque-signature-256",
    ] {
        println!("{name}: {}", got[3].header(name));
    }
    let gaps: Vec<u128> = got
        .windows(2)
        .map(|w| (w[1].at - w[0].at).as_millis())
        .collect();
    println!("tries 500, 500, 500, 200; ms between tries: {gaps:?}");
    for g in &got {
        assert!(verifies(g), "signed: {:?}", g.headers);
        assert_eq!(g.header("idempotency-key"), first.header("idempotency-key"));
        assert_eq!(g.header("x-marque-event"), "release.published");
    }
    let e = &events[3];
    assert_eq!(e["id"], first.header("idempotency-key"));
    assert_eq!(e["type"], "release.published");
    assert_eq!(e["brand"], "northwind");
    assert_eq!(e["version"], "2.5.0");
    assert!(e["verdict"].is_string(), "{e}");
    assert_eq!(
        e["links"]["compare"],
        format!("{}/brand/northwind/compare/2.4.0...2.5.0", app.public_url)
    );
    assert!(e["changed_paths"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p == "/brand/northwind@2.5.0/tokens.css"));
    // The same event as a repository_dispatch.
    let dispatched = github.wait_for(1, "a repository_dispatch");
    let d = &dispatched[0];
    println!(
        "POST {}\n{}",
        d.path,
        serde_json::to_string(&d.json()).unwrap()
    );
    assert_eq!(d.path, "/api/repos/acme/app/dispatches");
    openapi::conforms(marque::outbound::commit_status::Forge::Github, d);
    assert_eq!(d.header("authorization"), "Bearer ghs_dispatch_token");
    assert_eq!(d.json()["event_type"], "marque-release");
    assert_eq!(d.json()["client_payload"]["id"], e["id"]);
    assert!(d.json()["client_payload"].as_object().unwrap().len() <= 10);
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(hook.got().len(), 4, "acknowledged once, not sent again");
    assert_eq!(github.got().len(), 1);
    let out = outbound(app);
    assert_eq!(
        (
            out["sent"].clone(),
            out["failed"].clone(),
            out["pending"].clone()
        ),
        (2.into(), 0.into(), 0.into())
    );
    let status = serde_json::to_string(&app.get("/status").json()).unwrap();
    assert!(!status.contains(NOTIFY_SECRET), "no secret in /status");
    assert!(!status.contains("ghs_dispatch_token"));
}

/// Milliseconds from a save to the edit served, for each of `n` saves.
fn save_to_served(app: &TestApp, root: &std::path::Path, n: usize) -> Vec<u128> {
    let mut figures = Vec::new();
    for i in 0..n {
        let (from, to) = match i {
            0 => ("Outdoor gear".to_string(), "Gear 0".to_string()),
            _ => (format!("Gear {}", i - 1), format!("Gear {i}")),
        };
        let saved = Instant::now();
        edit(&root.join("northwind/brand.json"), &from, &to);
        app.wait_until(
            |a| {
                a.get("/brand/northwind/spec.json").json()["summary"]
                    .as_str()
                    .unwrap_or_default()
                    .starts_with(&to)
            },
            "the save is served",
        );
        figures.push(saved.elapsed().as_millis());
    }
    figures
}

#[test]
fn a_hanging_receiver_does_not_delay_publishing() {
    let ws = workspace();
    let plain = spawn_app(&ws.root);
    let baseline = save_to_served(&plain, &ws.root, 3);
    drop(plain);

    let ws = workspace();
    let hang = Receiver::start(&[Answer::Hang; 64]);
    let mut config = serve_config(&ws.root);
    config.outbound.purge = vec![hang.url("/purge")];
    config.outbound.timeout = Duration::from_secs(60);
    let app = spawn_with(config);
    let hanging = save_to_served(&app, &ws.root, 3);
    hang.wait_for(1, "a purge that hangs");
    let out = outbound(&app);
    println!("save to served (ms): no receiver {baseline:?}, a hanging receiver {hanging:?}; outbound {out}");
    assert!(out["pending"].as_u64().unwrap() >= 1, "{out}");
    assert_eq!(out["sent"], 0);
    let worst = *hanging.iter().max().unwrap();
    assert!(
        worst < 2_000 + 2 * *baseline.iter().max().unwrap(),
        "publishing waited: {hanging:?} against {baseline:?}"
    );
}

#[test]
fn a_preview_branch_gets_a_commit_status_updated_by_a_fix() {
    let github = Receiver::start(&[]);
    let remote = Remote::new();
    remote.tag_annotated("northwind@2.4.0", "First", 0);
    let tokens = remote.path().join("northwind/tokens.json");
    let good = std::fs::read_to_string(&tokens).unwrap();
    std::fs::write(&tokens, "{ \"color\": ").unwrap();
    let broken = remote
        .commit_to("preview/spring", "Half a palette", 2)
        .to_string();
    let base = github.url("/api");
    let g = serve_git_with(&remote.url(), None, |c| {
        c.git_source().unwrap().previews = Some(PreviewConfig {
            glob: "preview/*".into(),
            limit: 20,
        });
        c.outbound.status = Some(marque::outbound::commit_status::StatusApi {
            forge: marque::outbound::commit_status::Forge::Github,
            base,
            repo: "acme/brands".into(),
            token: "ghp_secret_status_token".into(),
        });
    });
    let app = &g.app;
    let first = github.wait_for(1, "the status of the broken commit");
    assert_eq!(
        first[0].path,
        format!("/api/repos/acme/brands/statuses/{broken}")
    );
    let body = first[0].json();
    println!(
        "POST {}\n{}",
        first[0].path,
        serde_json::to_string_pretty(&body).unwrap()
    );
    assert_eq!(body["state"], "failure");
    assert_eq!(body["context"], "marque");
    assert!(
        body["description"].as_str().unwrap().ends_with("error"),
        "{body}"
    );
    assert_eq!(
        first[0].header("authorization"),
        "Bearer ghp_secret_status_token"
    );
    assert_eq!(first[0].header("accept"), "application/vnd.github+json");
    assert_eq!(first[0].header("x-github-api-version"), "2022-11-28");

    // The fix: valid tokens, Northwind's muted surface dropped.
    let mut t: Value = serde_json::from_str(&good).unwrap();
    t["color"]["surface"]
        .as_object_mut()
        .unwrap()
        .remove("muted");
    std::fs::write(&tokens, serde_json::to_string_pretty(&t).unwrap()).unwrap();
    let fixed = remote
        .commit_to("preview/spring", "The whole palette", 3)
        .to_string();
    push_hook(app);
    let got = github.wait_for(2, "the status of the fix");
    assert_eq!(
        got[1].path,
        format!("/api/repos/acme/brands/statuses/{fixed}")
    );
    let body = got[1].json();
    println!(
        "POST {}\n{}",
        got[1].path,
        serde_json::to_string_pretty(&body).unwrap()
    );
    assert_eq!(body["state"], "success");
    for g in &got {
        openapi::conforms(marque::outbound::commit_status::Forge::Github, g);
    }
    assert!(
        body["description"].as_str().unwrap().starts_with("major: "),
        "{body}"
    );
    assert!(body["description"]
        .as_str()
        .unwrap()
        .ends_with(" · 0 errors"));
    assert_eq!(
        body["target_url"],
        format!(
            "{}/preview/preview-spring/brand/northwind/compare/2.4.0...current",
            app.public_url
        )
    );
    assert_eq!(
        app.get(
            body["target_url"]
                .as_str()
                .unwrap()
                .trim_start_matches(&app.public_url)
        )
        .status,
        200
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(github.got().len(), 2, "each verdict posted once");
    let status = serde_json::to_string(&app.get("/status").json()).unwrap();
    assert!(!status.contains("ghp_secret_status_token"));
}

/// The events a receiver got, as (type, key, private).
fn events_of(r: &Receiver) -> Vec<(String, String, bool)> {
    r.got()
        .iter()
        .map(|g| {
            let e = g.json();
            let key = match e["version"].as_str() {
                Some(v) => format!("{}@{v}", e["brand"].as_str().unwrap()),
                None => e["brand"].as_str().unwrap().to_string(),
            };
            (
                e["type"].as_str().unwrap().to_string(),
                key,
                e["private"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[test]
fn an_embargo_lift_is_announced_at_its_moment_and_private_releases_to_private_targets_only() {
    use crate::access::{aurora, embargoed_remote, in_secs, tokens_file};
    let dir = tempfile::tempdir().unwrap();
    let (embargo, at) = in_secs(6);
    let remote = embargoed_remote(&embargo);
    let (public, private) = (Receiver::start(&[]), Receiver::start(&[]));
    let mut config = serve_config(&example_content());
    config.source = SourceConfig::Git(GitSource::new(remote.url()));
    config.git_source().unwrap().poll = Duration::from_secs(3600);
    config.git_source().unwrap().webhook = Some(Webhook {
        secret: crate::git::SECRET.into(),
        rates: Default::default(),
    });
    config.cache_dir = tempfile::tempdir_in(dir.path()).unwrap().keep();
    config.access_tokens = Some(tokens_file(dir.path()));
    config.outbound.notify = vec![
        marque::outbound::Target::parse(&public.url("/public")),
        marque::outbound::Target::parse(&format!("private:{}", private.url("/private"))),
    ];
    let app = spawn_with(config);
    assert!(chrono::Utc::now() < at, "started before the embargo lifts");

    // A release tagged under an embargo an hour away: private targets only.
    let (later, _) = in_secs(3600);
    aurora(remote.path(), "3.0.0", Some(&later));
    remote.commit("Aurora Launch 3.0.0, under embargo", 2);
    remote.tag_annotated("aurora-launch@3.0.0", "3.0.0", 2);
    push_hook(&app);
    private.wait_for(1, "the private release");
    assert_eq!(
        events_of(&private),
        [(
            "release.published".to_string(),
            "aurora-launch@3.0.0".to_string(),
            true
        )]
    );
    assert!(events_of(&public).is_empty(), "{:?}", events_of(&public));
    assert!(chrono::Utc::now() < at, "the test reached the lift in time");

    let got = public.wait_for(1, "the lift");
    // When it arrived, in seconds after the moment.
    let late = (chrono::Utc::now() - at).num_milliseconds() as f64 / 1000.0
        - got[0].at.elapsed().as_secs_f64();
    println!("embargo.lifted received {late:.3} s after the embargo's moment");
    assert!(
        (0.0..1.0).contains(&late),
        "announced {late} s after its moment"
    );
    let lifted = (
        "embargo.lifted".to_string(),
        "aurora-launch@2.0.0".to_string(),
        false,
    );
    assert_eq!(events_of(&public), std::slice::from_ref(&lifted));
    private.wait_for(2, "the lift, to the private target too");
    assert_eq!(events_of(&private)[1], lifted);
    let e = public.got()[0].json();
    assert_eq!(
        e["links"]["compare"],
        format!(
            "{}/brand/aurora-launch/compare/1.0.0...2.0.0",
            app.public_url
        )
    );
}

#[test]
fn a_fleet_of_two_replicas_sends_each_event_once() {
    use crate::fleet::{redis_available, Redis};
    if !redis_available() {
        return;
    }
    let redis = Redis::start();
    let hook = Receiver::start(&[]);
    let remote = Remote::new();
    remote.tag_annotated("northwind@2.4.0", "First", 0);
    let (url, redis_url) = (hook.url("/marque"), redis.url());
    let configure = |c: &mut ServeConfig| {
        c.fleet = Some(FleetConfig {
            url: redis_url.clone(),
            password: None,
            prefix: "test-outbox:".into(),
        });
        c.public_url = Some("https://brand.example.com".into());
        c.outbound.notify = vec![marque::outbound::Target::parse(&url)];
        c.outbound.secret = Some(NOTIFY_SECRET.into());
    };
    let a = serve_git_with(&remote.url(), None, configure);
    let b = serve_git_with(&remote.url(), None, configure);
    let shared = |app: &TestApp| app.get("/status").json()["demoLimiter"]["mode"] == "shared";
    a.app.wait_until(shared, "replica A reaches redis");
    b.app.wait_until(shared, "replica B reaches redis");
    remote.set_version("northwind", "2.4.0", "2.5.0");
    remote.commit("Release 2.5", 2);
    remote.tag_annotated("northwind@2.5.0", "2.5.0", 2);
    // Each replica fetches (a webhook to each: the fan-out is tested in fleet.rs).
    push_hook(&a.app);
    push_hook(&b.app);
    for app in [&a.app, &b.app] {
        app.wait_until(
            |a| {
                a.get("/brand/northwind@2.5.0/spec.json").status == 200
                    && a.get("/status").json()["outbound"]["pending"] == 0
            },
            "the release is served and nothing waits",
        );
    }
    hook.wait_for(1, "the release event");
    std::thread::sleep(Duration::from_millis(500));
    let sent = |app: &TestApp| outbound(app)["sent"].as_u64().unwrap();
    println!(
        "fleet: {} delivery received; sent by A {}, by B {}",
        hook.got().len(),
        sent(&a.app),
        sent(&b.app)
    );
    assert_eq!(hook.got().len(), 1, "one replica sends it");
    assert!(verifies(&hook.got()[0]));
    assert_eq!(sent(&a.app) + sent(&b.app), 1);
}
