//! Regressions for ../shared/repro/2026-11-24/: a resolver of a few
//! kilobytes that took marque down, builds that never stopped, and brands
//! that waited on another. Each asserts what now happens: the graph of
//! sets is expanded once and publishes, or is refused by a named budget at
//! its line; a brand's work stops at its limit and frees its thread; no
//! brand's build holds up another's.

use crate::helpers::*;
use marque::build::Fault;
use serde_json::{json, Value};
use std::path::Path;
use std::time::{Duration, Instant};

/// A copy of the example content in a temporary folder.
fn content() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&example_content(), dir.path());
    dir
}

/// Lumen Health's resolver with `sets` in place of its own: `base` names
/// its tokens and then `#/sets/s0`.
fn lumen_sets(root: &Path, sets: Value) {
    let path = root.join("lumen-health/tokens.resolver.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["sets"] = sets;
    std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
}

/// `base` names `s0`; each of `s0`…`s<levels - 1>` names the next
/// `fanout` times; `s<levels>` holds `leaf`. The repro's shape is 7 levels
/// of 100: 100^7 paths through the sets.
fn fanout_sets(levels: usize, fanout: usize, leaf: Value) -> Value {
    let mut sets = json!({
        "base": {"sources": [{"$ref": "tokens/base.json"}, {"$ref": "#/sets/s0"}]}
    });
    for i in 0..levels {
        let next = json!({"$ref": format!("#/sets/s{}", i + 1)});
        sets[format!("s{i}")] = json!({"sources": vec![next; fanout]});
    }
    sets[format!("s{levels}")] = json!({ "sources": leaf });
    sets
}

/// `n` colour tokens (`color.many.t0`…) in the brand's `tokens/many.json`.
fn many_colours(brand: &Path, n: usize) {
    let colour = json!({"colorSpace": "srgb", "components": [0.2, 0.4, 0.6]});
    let many: serde_json::Map<String, Value> = (0..n)
        .map(|i| (format!("t{i}"), json!({ "$value": colour })))
        .collect();
    let doc = json!({"color": {"$type": "color", "many": many}});
    std::fs::write(brand.join("tokens/many.json"), doc.to_string()).unwrap();
}

/// `marque check` of `dir` under [`CAP_MIB`], which must exit with `code`
/// within [`TIME`]: its output and how long it took.
fn check_within(dir: &Path, code: i32) -> (String, Duration) {
    let (exit, out, took) = check_capped(dir, CAP_MIB);
    assert_eq!(exit, code, "{out}");
    assert!(took < TIME, "{took:?}");
    (out, took)
}

/// Generous ceilings: the old code grew at 200 MB/s until it aborted, or
/// never ended.
const CAP_MIB: u64 = 1024;
const TIME: Duration = Duration::from_secs(10);

#[test]
fn a_16_kb_graph_of_sets_is_expanded_once_and_publishes() {
    let dir = content();
    let leaf = json!([{"color": {"x": {"$type": "color", "$value": "#123456"}}}]);
    lumen_sets(dir.path(), fanout_sets(7, 100, leaf));
    let size = std::fs::metadata(dir.path().join("lumen-health/tokens.resolver.json"))
        .unwrap()
        .len();
    assert!(size > 10_000, "the repro's size: {size} bytes");
    let (_, took) = check_within(dir.path(), 0);
    println!("16 KB resolver: `marque check` in {took:?}");
    // Served, with the one token at the end of the chain.
    let app = spawn_app(dir.path());
    let css = app.get("/brand/lumen-health/tokens.css").text();
    assert!(css.contains("--color-x: #123456"), "{css}");
}

#[test]
fn a_graph_of_empty_sets_costs_nothing_and_publishes() {
    let dir = content();
    lumen_sets(dir.path(), fanout_sets(7, 20, json!([])));
    let (_, took) = check_within(dir.path(), 0);
    println!("3.7 KB resolver: `marque check` in {took:?}");
}

#[test]
fn sets_that_still_add_up_past_the_budget_are_refused_by_name_at_their_line() {
    let dir = content();
    // 300 distinct sources at the end, named 100 times at each of 7 levels.
    let leaf: Vec<Value> = (0..300)
        .map(|i| json!({"color": {format!("x{i}"): {"$type": "color", "$value": "#123456"}}}))
        .collect();
    lumen_sets(dir.path(), fanout_sets(7, 100, Value::Array(leaf)));
    let (out, _) = check_within(dir.path(), 1);
    assert!(
        out.contains("name more than 10000 sources in all")
            && out.contains("the budget on a resolver's sources"),
        "{out}"
    );
    assert!(
        out.contains("--> lumen-health/tokens.resolver.json:"),
        "{out}"
    );
    // Northwind is not affected.
    assert!(!out.contains("northwind/"), "{out}");
}

#[test]
fn a_loop_of_sets_is_a_loop_and_deep_nesting_names_its_limit() {
    let dir = content();
    lumen_sets(
        dir.path(),
        json!({
            "base": {"sources": [{"$ref": "tokens/base.json"}, {"$ref": "#/sets/a"}]},
            "a": {"sources": [{"$ref": "#/sets/b"}]},
            "b": {"sources": [{"$ref": "#/sets/a"}]}
        }),
    );
    let (out, _) = check_within(dir.path(), 1);
    assert!(
        out.contains("sets name each other in a loop (`a` → `b` → `a`)"),
        "{out}"
    );
    // Twenty sets, each naming the next: deeper than eight.
    lumen_sets(dir.path(), fanout_sets(20, 1, json!([])));
    let (out, _) = check_within(dir.path(), 1);
    assert!(
        out.contains("sets that name sets nest more than 8 deep here (`s0` → …)"),
        "{out}"
    );
    assert!(!out.contains("a loop?"), "{out}");
}

#[test]
fn contexts_times_tokens_past_the_budget_are_refused_before_they_are_merged() {
    let dir = content();
    let brand = dir.path().join("lumen-health");
    // 40 contexts of 4,000 tokens: 160,000 tokens to check.
    many_colours(&brand, 4000);
    let path = brand.join("tokens.resolver.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    doc["sets"]["base"]["sources"]
        .as_array_mut()
        .unwrap()
        .push(json!({"$ref": "tokens/many.json"}));
    for i in 0..38 {
        doc["modifiers"]["theme"]["contexts"][format!("c{i}")] = json!([]);
    }
    std::fs::write(&path, doc.to_string()).unwrap();
    let (out, _) = check_within(dir.path(), 1);
    assert!(
        out.contains("over the budget of 150000 tokens checked across contexts"),
        "{out}"
    );
}

#[test]
fn contexts_that_add_tokens_past_the_budget_are_refused_at_the_one_that_passes_it() {
    let dir = content();
    let brand = dir.path().join("lumen-health");
    // A small default, and six contexts that each add 26,000 tokens: 156,000.
    many_colours(&brand, 26_000);
    let path = brand.join("tokens.resolver.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for i in 0..5 {
        doc["modifiers"]["theme"]["contexts"][format!("c{i}")] =
            json!([{"$ref": "tokens/many.json"}]);
    }
    doc["modifiers"]["theme"]["contexts"]["dark"] = json!([{"$ref": "tokens/many.json"}]);
    std::fs::write(&path, doc.to_string()).unwrap();
    let (out, _) = check_within(dir.path(), 1);
    assert!(
        out.contains("the contexts add up to more than 150000 tokens to check")
            && out.contains("context `c4` of modifier `theme` among them"),
        "{out}"
    );
}

fn edit(path: &Path, from: &str, to: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{} contains {from:?}", path.display());
    std::fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// Gives the brand.json at `path` a new top-level summary.
fn new_summary(path: &Path, summary: &str) {
    let text = std::fs::read_to_string(path).unwrap();
    let old = text.lines().find(|l| l.contains("\"summary\"")).unwrap();
    let new = format!("  \"summary\": \"{summary}\",");
    std::fs::write(path, text.replacen(old, &new, 1)).unwrap();
}

/// Three copies of Northwind, each working for a minute when checked.
fn with_slow_brands(root: &Path) -> Vec<String> {
    let slow: Vec<String> = (0..3).map(|i| format!("slow-{i}")).collect();
    for s in &slow {
        copy_dir(&root.join("northwind"), &root.join(s));
    }
    slow
}

#[test]
fn at_start_three_slow_brands_are_listed_as_building_and_the_others_are_served() {
    let dir = content();
    let slow = with_slow_brands(dir.path());
    let mut args = serve_config(dir.path());
    args.build.budget = Duration::from_secs(60);
    args.build.fault = Some(Fault::Stall(slow.clone(), Duration::from_secs(60)));
    let started = Instant::now();
    let app = spawn_with_readiness(args, false);
    // No brand waits on another: the others are served at once.
    app.wait_until(
        |a| {
            a.get("/brand/northwind/spec.json").status == 200
                && a.get("/brand/lumen-health/spec.json").status == 200
        },
        "the fast brands are served",
    );
    let served = started.elapsed();
    println!("fast brands served with three slow brands building in {served:?}");
    // The old code waited for the slowest brand: a minute here.
    assert!(served < Duration::from_secs(20), "{served:?}");
    // Not ready while a brand has had no outcome: a load balancer would
    // send readers of the slow brands to a replica that has none of them.
    let readyz = app.get("/readyz");
    assert_eq!(readyz.status, 503);
    assert!(readyz.text().contains("3 brand(s)"), "{}", readyz.text());
    for s in &slow {
        let st = brand_status(&app, s).unwrap();
        assert_eq!(st["building"], true, "{st}");
        let res = app.get(&format!("/brand/{s}/spec.json"));
        assert_eq!(res.status, 503, "building, never 404");
        assert!(res.header("retry-after").is_some());
    }
    // While they build, an edit to another brand is served.
    edit(
        &dir.path().join("lumen-health/brand.json"),
        "warm, exact and never alarming",
        "warm and exact",
    );
    let saved = Instant::now();
    app.wait_until(
        |a| {
            a.get("/brand/lumen-health/spec.json")
                .text()
                .contains("warm and exact")
        },
        "lumen-health's edit is served while three brands build",
    );
    println!(
        "save to served while three brands build: {:?}",
        saved.elapsed()
    );
}

#[test]
fn a_brand_past_its_time_limit_is_stopped_held_and_never_blocks_the_reloader() {
    let dir = content();
    let mut args = serve_config(dir.path());
    args.build.budget = Duration::from_millis(1500);
    args.build.fault = Some(Fault::Stall(
        vec!["northwind".into()],
        Duration::from_secs(600),
    ));
    let app = spawn_with_readiness(args, true);
    let timed_out = |a: &TestApp| {
        brand_status(a, "northwind").is_some_and(|st| {
            // MQ2411 timed-out, stopped at the budget it was given.
            st["diagnostics"][0]["code"] == "MQ2411"
                && st["diagnostics"][0]["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("took longer than 1.5 s"))
        })
    };
    app.wait_until(timed_out, "northwind is stopped at its limit");
    // Two more saves of the runaway brand: each is tried once and stopped.
    for summary in ["Outdoor gear, take two.", "Outdoor gear, take three."] {
        new_summary(&dir.path().join("northwind/brand.json"), summary);
        std::thread::sleep(Duration::from_millis(300));
    }
    // The reloader still serves another brand's edit within moments.
    edit(
        &dir.path().join("lumen-health/brand.json"),
        "warm, exact and never alarming",
        "warm and exact",
    );
    let saved = Instant::now();
    app.wait_until(
        |a| {
            a.get("/brand/lumen-health/spec.json")
                .text()
                .contains("warm and exact")
        },
        "lumen-health's edit is served after two runaway saves",
    );
    println!(
        "save to served after two runaway saves: {:?}",
        saved.elapsed()
    );
    app.wait_until(timed_out, "the last runaway save is stopped too");
    assert_eq!(app.get("/readyz").status, 200);
    assert!(app.get("/status").json().get("pending").is_none());
}

#[test]
fn a_brand_whose_surfaces_pass_the_cap_gets_an_error_and_keeps_its_last_good_version() {
    let dir = content();
    copy_dir(&dir.path().join("northwind"), &dir.path().join("wide"));
    let mut args = serve_config(dir.path());
    // Northwind's surfaces are about 150 KiB before compression.
    args.build.max_body_bytes = 400 * 1024;
    let app = spawn_with(args);
    assert_eq!(app.get("/brand/wide/spec.json").status, 200);
    // 3,000 more colours: megabytes of surfaces.
    let path = dir.path().join("wide/tokens.json");
    let mut tokens: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let colour = json!({"colorSpace": "srgb", "components": [0.2, 0.4, 0.6]});
    let many: serde_json::Map<String, Value> = (0..3000)
        .map(|i| (format!("t{i}"), json!({ "$value": colour })))
        .collect();
    tokens["color"]["many"] = Value::Object(many);
    std::fs::write(&path, tokens.to_string()).unwrap();
    let message = app.wait_until_some(
        |a| {
            let st = brand_status(a, "wide")?;
            st["diagnostics"]
                .as_array()?
                .iter()
                .find(|d| d["code"] == "MQ2410")
                .and_then(|d| d["message"].as_str())
                .map(str::to_string)
        },
        "the wide brand is refused by the cap",
    );
    assert!(
        message.contains("over the 400 KiB a brand may publish"),
        "{message}"
    );
    assert_eq!(brand_status(&app, "wide").unwrap()["state"], "stale");
    // The last good version keeps serving, without the new tokens.
    let css = app.get("/brand/wide/tokens.css").text();
    assert!(!css.contains("--color-many-t0"), "{css}");
    assert_eq!(app.get("/brand/northwind/spec.json").status, 200);
}

/// The repro's git_preview_oom.sh: the 16 KB resolver pushed only to a
/// preview branch took the production server down. The preview now builds
/// it as the small brand it is, and the published branch never notices.
#[test]
fn the_16_kb_resolver_on_a_preview_branch_builds_and_the_published_site_keeps_serving() {
    use crate::git::{push_hook, serve_git_with, Remote};
    let remote = Remote::new();
    let leaf = json!([{"color": {"x": {"$type": "color", "$value": "#123456"}}}]);
    lumen_sets(remote.path(), fanout_sets(7, 100, leaf));
    remote.commit_to("preview/bomb", "Sets that name sets", 1);
    let g = serve_git_with(&remote.url(), None, |a| {
        a.git_source().unwrap().previews = Some(PreviewConfig {
            glob: "preview/*".into(),
            limit: 20,
        });
    });
    let app = &g.app;
    push_hook(app);
    let css = app.wait_until_some(
        |a| {
            let res = a.get("/preview/preview-bomb/brand/lumen-health/tokens.css");
            (res.status == 200).then(|| res.text())
        },
        "the preview with the 16 KB resolver is served",
    );
    assert!(css.contains("--color-x: #123456"), "{css}");
    assert_eq!(app.get("/brand/lumen-health/spec.json").status, 200);
    assert_eq!(app.get("/readyz").status, 200);
}

/// The repro's git_main_runaway.sh: two commits of a brand that never
/// finishes checking stopped every later commit from being served. Each is
/// now stopped at the limit, and a later commit to another brand is served.
#[test]
fn in_git_mode_a_runaway_brand_never_holds_back_a_later_commit() {
    use crate::git::{push_hook, serve_git_with, Remote};
    let remote = Remote::new();
    let g = serve_git_with(&remote.url(), None, |a| {
        a.build.budget = Duration::from_millis(1500);
        a.build.fault = Some(Fault::Stall(
            vec!["northwind".into()],
            Duration::from_secs(600),
        ));
    });
    let app = &g.app;
    for (i, summary) in ["Outdoor gear, take two.", "Outdoor gear, take three."]
        .iter()
        .enumerate()
    {
        new_summary(&remote.path().join("northwind/brand.json"), summary);
        remote.commit("A runaway edit", 2 + i as i64);
        push_hook(app);
    }
    remote.edit(
        "lumen-health/brand.json",
        "warm, exact and never alarming",
        "warm and exact",
    );
    remote.commit("Lumen's summary", 5);
    let pushed = Instant::now();
    push_hook(app);
    app.wait_until(
        |a| {
            a.get("/brand/lumen-health/spec.json")
                .text()
                .contains("warm and exact")
        },
        "a later commit to lumen-health is served",
    );
    println!(
        "git mode: a commit served {:?} after its push, two runaway commits before it",
        pushed.elapsed()
    );
    assert_eq!(app.get("/readyz").status, 200);
}
