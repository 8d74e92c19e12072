//! A structure-aware content fuzzer: mutates the example brands, the DTCG
//! specification's examples and the hostile shapes that once took marque
//! down (token files, and resolver documents whose sets name sets), and
//! runs `marque check`'s pipeline (validate, then render every surface) on
//! each input, in-process, under a time and a memory budget.
//!
//! `just fuzz` (five minutes) or `cargo bench --bench fuzz -- --seconds N [--seed S]`.
//! Time is the CPU time of the thread that runs the input, so other work on
//! the machine does not push an input over its budget.
//! A plain `cargo bench` runs it for 20 seconds. It prints the inputs run,
//! panics, inputs over the budget (1 s, 256 MiB), and the slowest and
//! largest cases; a failing input is written to `target/fuzz/` and the
//! process exits 1.

// A benchmark unwraps (a failure ends the run) and prints its figures.
#![allow(clippy::unwrap_used, clippy::print_stdout, clippy::print_stderr)]

use bytes::Bytes;
use marque::build::{render_brand, BrandJob};
use marque::render::Context;
use marque::spec::{parse_brand, BrandFiles};
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Tracks live and peak heap bytes, so each input's memory can be measured.
#[global_allocator]
static ALLOC: peak_alloc::PeakAlloc = peak_alloc::PeakAlloc;

/// Mutated documents larger than this are dropped (marque refuses files over 5 MiB).
const MAX_TEXT: usize = 6 * 1024 * 1024;
const TIME_BUDGET: Duration = Duration::from_secs(1);
const MEMORY_BUDGET: usize = 256 * 1024 * 1024;
/// An input still running after this long is a hang: written out, and the run fails.
const HANG: Duration = Duration::from_secs(20);

/// xorshift64*: small, fast, reproducible from `--seed`.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// One input: the JSON documents of a brand folder, as text: brand.json
/// and tokens.json, or, with a resolver, brand.json, tokens.resolver.json
/// and the token file it names (`tokens` as `tokens/base.json`).
#[derive(Clone)]
struct Case {
    brand: String,
    tokens: String,
    resolver: Option<String>,
}

const NASTY: &[&str] = &[
    "",
    " ",
    "{color.brand.primary}",
    "{a.b.c}",
    "{}",
    "{{x}}",
    "</script><script>alert(1)</script>",
    "*/ } body { color: red; } /*",
    "\u{2028}\u{2029}",
    "\0\u{1}\u{7f}",
    "#zzz",
    "#0b5fff",
    "16px",
    "1.5rem",
    "120ms",
    "NaN",
    "-0",
    "1e309",
    "$root",
    "$extends",
    "javascript:alert(1)",
    "{{ x|int + 1 }}",
    "{% for a in range(100000) %}{% endfor %}",
    "é̀ǅ🎨",
    "../../etc/passwd",
    "assets/logo.svg",
    "2026-02-30",
    "3.2",
    "v1.0.0",
    "1.0.0+build",
];

const TYPES: &[&str] = &[
    "color",
    "dimension",
    "fontFamily",
    "fontWeight",
    "duration",
    "cubicBezier",
    "number",
    "strokeStyle",
    "border",
    "transition",
    "shadow",
    "gradient",
    "typography",
    "string",
];

fn random_scalar(rng: &mut Rng) -> Value {
    match rng.below(8) {
        0 => Value::String(rng.pick(NASTY).to_string()),
        1 => Value::String("x".repeat(1 << rng.below(18))),
        2 => json!(rng.next() as i64),
        3 => json!((rng.next() % 2000) as f64 / 7.0 - 100.0),
        4 => json!(rng.chance(50)),
        5 => Value::Null,
        6 => {
            json!({"colorSpace": *rng.pick(&["srgb", "oklch", "display-p3", "hsl", "lab", "rec2020", "nope"]),
                    "components": [rng.below(400), "none", (rng.next() % 100) as f64 / 100.0],
                    "hex": format!("#{:06x}", rng.next() % 0x1000000)})
        }
        _ => {
            json!({"value": (rng.next() % 100) as f64 - 10.0, "unit": *rng.pick(&["px", "rem", "em", "%"])})
        }
    }
}

/// A random node's path, found by walking down from the root and stopping
/// at each level with some chance: O(depth), whatever the document's size.
fn walk(rng: &mut Rng, v: &Value) -> Vec<String> {
    let mut path = Vec::new();
    let mut cur = v;
    loop {
        if rng.chance(25) {
            return path;
        }
        let next = match cur {
            Value::Object(o) if !o.is_empty() => {
                let (k, c) = o
                    .iter()
                    .nth(rng.below(o.len().min(64)))
                    .unwrap_or_else(|| o.iter().next().unwrap());
                path.push(k.clone());
                c
            }
            Value::Array(a) if !a.is_empty() => {
                let i = rng.below(a.len().min(64));
                path.push(i.to_string());
                &a[i]
            }
            _ => return path,
        };
        cur = next;
    }
}

fn node_mut<'v>(v: &'v mut Value, path: &[String]) -> Option<&'v mut Value> {
    let mut cur = v;
    for seg in path {
        cur = match cur {
            Value::Object(o) => o.get_mut(seg)?,
            Value::Array(a) => a.get_mut(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

fn node<'v>(v: &'v Value, path: &[String]) -> Option<&'v Value> {
    let mut cur = v;
    for seg in path {
        cur = match cur {
            Value::Object(o) => o.get(seg)?,
            Value::Array(a) => a.get(seg.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(cur)
}

/// A dotted reference to some group or token of `doc`.
fn reference(rng: &mut Rng, doc: &Value) -> String {
    format!("{{{}}}", walk(rng, doc).join("."))
}

/// One structure-aware mutation of a document.
fn mutate(rng: &mut Rng, doc: &mut Value) {
    let target = walk(rng, doc);
    let from = walk(rng, doc);
    let source = node(doc, &from).cloned().unwrap_or(Value::Null);
    let op = rng.below(12);
    let reference = reference(rng, doc);
    let Some(n) = node_mut(doc, &target) else {
        return;
    };
    match op {
        0 => *n = random_scalar(rng),
        1 => *n = source,
        2 => *n = json!({"$extends": reference}),
        3 => {
            *n = json!({"$ref": format!("#/{}", reference.trim_matches(['{', '}']).replace('.', "/"))})
        }
        4 => *n = json!({"$type": *rng.pick(TYPES), "$value": reference}),
        5 => *n = json!({"$type": *rng.pick(TYPES), "$value": random_scalar(rng)}),
        6 => {
            // Deepen: wrap in arrays and objects.
            let depth = 1 + rng.below(80);
            for i in 0..depth {
                let inner = std::mem::take(n);
                *n = if i % 2 == 0 {
                    json!([inner])
                } else {
                    json!({"g": inner})
                };
            }
        }
        7 => {
            if let Value::Object(o) = n {
                let k = rng.pick(NASTY).to_string();
                let v = o.values().next().cloned().unwrap_or(Value::Null);
                o.insert(k, v);
            }
        }
        8 => {
            if let Value::Object(o) = n {
                if let Some(k) = o.keys().nth(rng.below(o.len())).cloned() {
                    o.remove(&k);
                }
            }
        }
        9 => {
            // Many tokens at once, some aliasing the previous one.
            let mut g = Map::new();
            g.insert("$type".into(), json!("number"));
            let count = 1 << rng.below(15);
            for i in 0..count {
                let v = if i > 0 && rng.chance(70) {
                    json!({"$value": format!("{{many.t{}}}", i - 1)})
                } else {
                    json!({"$value": i})
                };
                g.insert(format!("t{i}"), v);
            }
            if let Value::Object(o) = n {
                o.insert("many".into(), Value::Object(g));
            } else {
                *n = Value::Object(g);
            }
        }
        10 => {
            if let Value::Array(a) = n {
                let copies = (1 << rng.below(12)).min(100_000 / (a.len() + 1));
                let item = a.first().cloned().unwrap_or(Value::Null);
                a.extend(std::iter::repeat_n(item, copies));
            } else {
                *n = json!([source.clone(), source]);
            }
        }
        _ => {
            if let Value::String(s) = n {
                let at = rng.below(s.len() + 1);
                if s.is_char_boundary(at) {
                    let nasty = rng.pick(NASTY).to_string();
                    s.insert_str(at, &nasty);
                }
            } else {
                *n = Value::String(rng.pick(NASTY).to_string());
            }
        }
    }
}

/// A gentle mutation: hostile text inside an existing string, so the brand
/// often stays valid and its text reaches every renderer.
fn season(rng: &mut Rng, doc: &mut Value) {
    for _ in 0..8 {
        let target = walk(rng, doc);
        if let Some(Value::String(s)) = node_mut(doc, &target) {
            let at = rng.below(s.len() + 1);
            if s.is_char_boundary(at) {
                let nasty = rng.pick(NASTY).to_string();
                s.insert_str(at, &nasty);
                return;
            }
        }
    }
}

/// Byte-level damage, now and then: truncation, a flipped byte, a duplicated slice.
fn damage(rng: &mut Rng, text: &mut String) {
    let mut bytes = std::mem::take(text).into_bytes();
    match rng.below(3) {
        0 => bytes.truncate(rng.below(bytes.len() + 1)),
        1 => {
            if !bytes.is_empty() {
                let i = rng.below(bytes.len());
                bytes[i] ^= 1 << rng.below(8);
            }
        }
        _ => {
            let a = rng.below(bytes.len() + 1);
            let b = (a + rng.below(64)).min(bytes.len());
            let slice = bytes[a..b].to_vec();
            bytes.splice(a..a, slice);
        }
    }
    *text = String::from_utf8_lossy(&bytes).into_owned();
}

/// The seeds: the example brands, each DTCG example as tokens.json, and the
/// shapes that once took marque down.
fn seeds(root: &Path) -> Vec<Case> {
    let read = |p: PathBuf| std::fs::read_to_string(p).unwrap_or_default();
    let nw_brand = read(root.join("content/northwind/brand.json"));
    let nw_tokens = read(root.join("content/northwind/tokens.json"));
    let mut out = vec![Case {
        brand: nw_brand.clone(),
        tokens: nw_tokens.clone(),
        resolver: None,
    }];
    if let Ok(entries) = std::fs::read_dir(root.join("tests/fixtures/dtcg/examples")) {
        let mut files: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        // Each example joins Northwind's tokens, so the brand's references still resolve.
        let base: Value = serde_json::from_str(&nw_tokens).unwrap_or(json!({}));
        for f in files {
            let mut tokens = base.clone();
            if let (Some(t), Ok(Value::Object(example))) = (
                tokens.as_object_mut(),
                serde_json::from_str::<Value>(&read(f)),
            ) {
                for (k, v) in example {
                    if k != "$schema" && !t.contains_key(&k) {
                        t.insert(k, v);
                    }
                }
            }
            out.push(Case {
                brand: nw_brand.clone(),
                tokens: tokens.to_string(),
                resolver: None,
            });
        }
    }
    // Lumen Health with its resolver, and the resolver shapes of the
    // 2026-11-24 probe: graphs of sets that name sets.
    let lumen = root.join("content/lumen-health");
    let lumen_brand = read(lumen.join("brand.json"));
    let lumen_tokens = read(lumen.join("tokens/base.json"));
    for resolver in resolver_shapes(&read(lumen.join("tokens.resolver.json"))) {
        out.push(Case {
            brand: lumen_brand.clone(),
            tokens: lumen_tokens.clone(),
            resolver: Some(resolver),
        });
    }
    for shape in marque_shapes(&nw_tokens) {
        out.push(Case {
            brand: nw_brand.clone(),
            tokens: shape,
            resolver: None,
        });
    }
    out
}

/// Lumen Health's resolver (its dark context kept inline) and its hostile
/// variants: eight levels of sets each naming the next 100 times over one
/// token, and 20 times over nothing; a chain of twenty; a loop.
fn resolver_shapes(resolver: &str) -> Vec<String> {
    let mut base: Value = serde_json::from_str(resolver).unwrap_or(json!({}));
    base["modifiers"]["theme"]["contexts"]["dark"] = json!([]);
    let fanout = |n: usize, leaf: Value| {
        let mut doc = base.clone();
        doc["sets"]["base"]["sources"] =
            json!([{"$ref": "tokens/base.json"}, {"$ref": "#/sets/s0"}]);
        for i in 0..7 {
            let next = json!({"$ref": format!("#/sets/s{}", i + 1)});
            doc["sets"][format!("s{i}")] = json!({"sources": vec![next; n]});
        }
        doc["sets"]["s7"] = json!({ "sources": leaf });
        doc.to_string()
    };
    let mut chain = base.clone();
    chain["sets"]["base"]["sources"] = json!([{"$ref": "tokens/base.json"}, {"$ref": "#/sets/s0"}]);
    for i in 0..20 {
        chain["sets"][format!("s{i}")] =
            json!({"sources": [{"$ref": format!("#/sets/s{}", i + 1)}]});
    }
    chain["sets"]["s20"] = json!({"sources": []});
    let mut ring = base.clone();
    ring["sets"]["base"]["sources"] = json!([{"$ref": "tokens/base.json"}, {"$ref": "#/sets/a"}]);
    ring["sets"]["a"] = json!({"sources": [{"$ref": "#/sets/b"}]});
    ring["sets"]["b"] = json!({"sources": [{"$ref": "#/sets/a"}]});
    vec![
        base.to_string(),
        fanout(
            100,
            json!([{"color": {"x": {"$type": "color", "$value": "#123456"}}}]),
        ),
        fanout(20, json!([])),
        chain.to_string(),
        ring.to_string(),
    ]
}

/// A mutation of a resolver's graph of sets: a new set naming an existing
/// one many times, named from another set (loops included).
fn mutate_sets(rng: &mut Rng, doc: &mut Value) {
    let Some(sets) = doc.get_mut("sets").and_then(Value::as_object_mut) else {
        return mutate(rng, doc);
    };
    let names: Vec<String> = sets.keys().cloned().collect();
    if names.is_empty() {
        return;
    }
    let target = rng.pick(&names).clone();
    let fresh = format!("f{}", rng.below(1000));
    let copies = 1 << rng.below(8);
    let named = json!({"$ref": format!("#/sets/{target}")});
    sets.insert(fresh.clone(), json!({"sources": vec![named; copies]}));
    let from = rng.pick(&names).clone();
    if let Some(list) = sets
        .get_mut(&from)
        .and_then(|s| s.get_mut("sources"))
        .and_then(Value::as_array_mut)
    {
        list.push(json!({"$ref": format!("#/sets/{fresh}")}));
    }
}

/// The hostile token files of the black-box probe: an exponential `$extends`
/// chain (also over a long string, which this fuzzer found), a huge key, a
/// long alias chain.
fn marque_shapes(tokens: &str) -> Vec<String> {
    let base: Value = serde_json::from_str(tokens).unwrap_or(json!({}));
    let mut extends = base.clone();
    extends["g0"] = json!({"$type": "number", "v": {"$value": 1}});
    for l in 1..=10 {
        let level: Map<String, Value> = (0..4)
            .map(|i| {
                (
                    format!("k{i}"),
                    json!({"$extends": format!("{{g{}}}", l - 1)}),
                )
            })
            .collect();
        extends[format!("g{l}")] = Value::Object(level);
    }
    let mut long_extends = extends.clone();
    long_extends["g0"] = json!({"t": {"$type": "x".repeat(128 * 1024)}});
    let mut chain = base.clone();
    let mut g = Map::new();
    g.insert("$type".into(), json!("number"));
    g.insert("t0".into(), json!({"$value": 1}));
    for i in 1..10_000 {
        g.insert(
            format!("t{i}"),
            json!({"$value": format!("{{chain.t{}}}", i - 1)}),
        );
    }
    chain["chain"] = Value::Object(g);
    let huge_key = format!(
        "{{\"{}\": [{}0]}}",
        "k".repeat(200_000),
        "0,".repeat(100_000)
    );
    vec![
        extends.to_string(),
        long_extends.to_string(),
        chain.to_string(),
        huge_key,
    ]
}

/// Runs check's pipeline on one case. Returns the time taken and the peak
/// heap bytes above what was live before it.
fn run(case: &Case, ctx: &Context, today: chrono::NaiveDate) -> (Duration, usize, bool) {
    let logo: &[u8] = b"<svg xmlns=\"http://www.w3.org/2000/svg\"/>";
    let token_files = match &case.resolver {
        None => vec![("tokens.json".to_string(), Bytes::from(case.tokens.clone()))],
        Some(r) => vec![
            ("tokens.resolver.json".to_string(), Bytes::from(r.clone())),
            (
                "tokens/base.json".to_string(),
                Bytes::from(case.tokens.clone()),
            ),
        ],
    };
    let files = std::sync::Arc::new(BrandFiles::new(
        "fuzz",
        BTreeMap::from_iter(token_files.into_iter().chain([
            ("brand.json".to_string(), Bytes::from(case.brand.clone())),
            ("assets/logo.svg".to_string(), Bytes::from_static(logo)),
            (
                "assets/logo-reversed.svg".to_string(),
                Bytes::from_static(logo),
            ),
            ("assets/mark.svg".to_string(), Bytes::from_static(logo)),
            (
                "assets/logo-white.svg".to_string(),
                Bytes::from_static(logo),
            ),
        ])),
        Vec::new(),
        marque::bodies::Bodies::process(),
    ));
    let base = ALLOC.current_usage();
    ALLOC.reset_peak_usage();
    // CPU time of this thread: what the input costs, however busy the machine is.
    let started = cpu_time::ThreadTime::now();
    let (brand, diags) = parse_brand(&files, today);
    if std::env::var_os("FUZZ_DEBUG").is_some() {
        for d in diags
            .iter()
            .filter(|d| d.severity() == marque::spec::Severity::Error)
            .take(3)
        {
            println!("  {d}");
        }
    }
    let published = brand.is_some();
    if let Some(brand) = brand {
        let changes = Default::default();
        let job = BrandJob {
            files: &files,
            input: [0; 32],
            today,
            now: chrono::Utc::now(),
            effort: marque::snapshot::Effort::Best,
            changes: &changes,
        };
        let _ = render_brand(brand, ctx, &job, Vec::new());
    }
    let took = started.elapsed();
    (took, ALLOC.peak_usage().saturating_sub(base), published)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .and_then(|v| v.parse::<u64>().ok())
    };
    let seconds = arg("--seconds").unwrap_or(20);
    let seed = arg("--seed").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    }) | 1;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out_dir = root.join("target/fuzz");
    let seeds = seeds(root);
    let ctx = Context::new("https://fuzz.example");
    let today = chrono::NaiveDate::from_ymd_opt(2026, 11, 22).unwrap_or_default();
    let mut rng = Rng(seed);
    println!(
        "fuzz: {} seeds, {seconds} s, seed {seed}, budget {} ms and {} MiB per input",
        seeds.len(),
        TIME_BUDGET.as_millis(),
        MEMORY_BUDGET >> 20
    );
    // A watchdog: an input that runs past HANG is written out and the run fails.
    let current: std::sync::Arc<std::sync::Mutex<Option<(Instant, Case)>>> = Default::default();
    {
        let current = current.clone();
        let out_dir = out_dir.clone();
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(200));
            let guard = current.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((since, case)) = guard.as_ref() {
                if since.elapsed() > HANG {
                    let path = save(&out_dir, "hang", case);
                    println!(
                        "HANG: an input ran for more than {HANG:?}: {}",
                        path.display()
                    );
                    std::process::exit(1);
                }
            }
        });
    }
    std::panic::set_hook(Box::new(|_| {}));
    // The seeds themselves first: the corpus every run starts from.
    let valid_seeds = seeds
        .iter()
        .filter(|c| std::panic::catch_unwind(|| run(c, &ctx, today).2).unwrap_or(false))
        .count();
    println!("seeds: {valid_seeds} of {} are valid brands", seeds.len());
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (mut runs, mut published, mut panics, mut over) = (0u64, 0u64, 0u64, 0u64);
    let mut slowest: (Duration, String) = (Duration::ZERO, String::new());
    let mut largest: (usize, String) = (0, String::new());
    let mut failures = Vec::new();
    let mut in_pipeline = Duration::ZERO;
    // The hostile shapes are slow by design (they run into the budgets):
    // draw them one time in twenty, so the run covers ordinary brands too.
    // Resolver brands are ordinary: their graphs are cheap now.
    let (ordinary, hostile) = seeds.split_at(seeds.len() - 3);
    while Instant::now() < deadline {
        let pool = if rng.chance(5) { hostile } else { ordinary };
        let mut case = rng.pick(pool).clone();
        let rounds = 1 + rng.below(4);
        let which = rng.below(3);
        if rng.chance(40) {
            for _ in 0..rounds {
                if let Ok(mut v) = serde_json::from_str::<Value>(&case.brand) {
                    season(&mut rng, &mut v);
                    case.brand = v.to_string();
                }
            }
        } else {
            for _ in 0..rounds {
                let mutate_doc =
                    |text: &mut String, rng: &mut Rng| match serde_json::from_str::<Value>(text)
                        .ok()
                        .filter(|_| text.len() <= MAX_TEXT)
                    {
                        Some(mut v) => {
                            mutate(rng, &mut v);
                            *text = v.to_string();
                        }
                        None => damage(rng, text),
                    };
                if which != 1 {
                    match case.resolver.as_mut() {
                        // Half the time the graph of sets, else the document.
                        Some(r) => match serde_json::from_str::<Value>(r) {
                            Ok(mut v) if rng.chance(50) => {
                                mutate_sets(&mut rng, &mut v);
                                *r = v.to_string();
                            }
                            _ => mutate_doc(r, &mut rng),
                        },
                        None => mutate_doc(&mut case.tokens, &mut rng),
                    }
                }
                if which != 0 {
                    mutate_doc(&mut case.brand, &mut rng);
                }
            }
        }
        if rng.chance(5) {
            damage(&mut rng, &mut case.tokens);
        }
        // Past 5 MiB a file is refused unread; growing it further only slows the run.
        if case.brand.len() > MAX_TEXT || case.tokens.len() > MAX_TEXT {
            continue;
        }
        *current.lock().unwrap_or_else(|e| e.into_inner()) = Some((Instant::now(), case.clone()));
        let t0 = Instant::now();
        let outcome = std::panic::catch_unwind(|| run(&case, &ctx, today));
        in_pipeline += t0.elapsed();
        // Only marque's own run is watched, not the next mutation.
        *current.lock().unwrap_or_else(|e| e.into_inner()) = None;
        runs += 1;
        let label = format!("{} + {} bytes", case.brand.len(), case.tokens.len());
        match outcome {
            Ok((took, bytes, ok)) => {
                published += u64::from(ok);
                if took > slowest.0 {
                    slowest = (took, label.clone());
                    if std::env::var_os("FUZZ_DEBUG").is_some() {
                        save(&out_dir, "slowest", &case);
                    }
                }
                if bytes > largest.0 {
                    largest = (bytes, label.clone());
                }
                if took > TIME_BUDGET || bytes > MEMORY_BUDGET {
                    over += 1;
                    let path = save(&out_dir, "over-budget", &case);
                    failures.push(format!(
                        "over budget ({took:?}, {} MiB): {}",
                        bytes >> 20,
                        path.display()
                    ));
                }
            }
            Err(_) => {
                panics += 1;
                let path = save(&out_dir, "panic", &case);
                failures.push(format!("panic: {}", path.display()));
            }
        }
    }
    *current.lock().unwrap_or_else(|e| e.into_inner()) = None;
    println!(
        "inputs run: {runs} ({published} valid brands rendered; {:.0} % of the time in marque, the rest mutating)",
        100.0 * in_pipeline.as_secs_f64() / seconds as f64
    );
    println!("panics: {panics}; over the budget: {over}; hangs: 0");
    println!(
        "slowest: {:.1} ms ({})",
        slowest.0.as_secs_f64() * 1000.0,
        slowest.1
    );
    println!(
        "largest: {:.1} MiB ({})",
        largest.0 as f64 / 1048576.0,
        largest.1
    );
    for f in &failures {
        println!("  {f}");
    }
    if !failures.is_empty() {
        std::process::exit(1);
    }
}

fn save(dir: &Path, kind: &str, case: &Case) -> PathBuf {
    let _ = std::fs::create_dir_all(dir);
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let path = dir.join(format!("{kind}-{stamp}"));
    let _ = std::fs::create_dir_all(&path);
    let _ = std::fs::write(path.join("brand.json"), &case.brand);
    match &case.resolver {
        None => {
            let _ = std::fs::write(path.join("tokens.json"), &case.tokens);
        }
        Some(r) => {
            let _ = std::fs::write(path.join("tokens.resolver.json"), r);
            let _ = std::fs::create_dir_all(path.join("tokens"));
            let _ = std::fs::write(path.join("tokens/base.json"), &case.tokens);
        }
    }
    path
}
