//! Tokens Studio's own toolchain as the judge of tokens.css (issue 42).
//!
//! DESIGN.md §17: a Tokens Studio export's values mean what Style
//! Dictionary with `@tokens-studio/sd-transforms` makes of them, and
//! marque's published values equal it. For every export of the Tokens
//! Studio corpus (the 15 brands of `formats.rs`), `support/sd_transforms.mjs`
//! builds CSS variables as sd-transforms' README does (its `register`,
//! `permutateThemes` over `$themes`, one build per permutation from the
//! permutation's sets, transform group `tokens-studio`, `css/variables`),
//! each permutation scoped under `[data-sdt="<i>"]`; an export without
//! themes is one build of all its sets. `marque build` makes tokens.css from
//! the same files. Headless Chromium loads both in one page and, for every
//! permutation, selects marque's context with its data attributes
//! (`[data-<group>="<theme>"]`, every group of more than one theme named)
//! and computes, for every token both declare (matched by path), what each
//! variable paints: colours through `color`, dimensions through `margin`,
//! and so on (see `PROBES`, keyed by the type sd-transforms gives the
//! token). Every difference must be one of `KNOWN`, which says which side
//! is right and why; a new one fails the test, and so does a stale entry.

use crate::helpers::*;
use crate::terrazzo::{declared, glob, same};
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Which reading a known difference holds to be right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Right {
    Marque,
    /// Style Dictionary with sd-transforms is right: marque is wrong.
    Reference,
}

/// A difference between tokens.css and sd-transforms' CSS that has been
/// looked at: the export (brand slug), the context (a glob over the
/// permutation's label, `Group=theme, …`, or `default`), the token's path
/// (globs, `*` any run of characters, `|` between them), and which side is
/// right and why.
struct Known {
    export: &'static str,
    context: &'static str,
    token: &'static str,
    right: Right,
    why: &'static str,
}

/// Every difference seen, and the verdict on it. An entry that matches no
/// difference is stale, and fails the test too. Revise it when marque's
/// reading changes: each `Right::Reference` entry is marque computing a
/// value other than the reference's, to be fixed in marque.
///
/// Seen with Style Dictionary 5.5.5, sd-transforms 2.0.3 and Chromium 156
/// on the corpus: 642 of 56,973 values differed at first, for six things
/// marque read otherwise; four are mended (math rounded to 4 decimals at
/// each step, units of math over numbers that alias sizes, an `other`
/// number, a font stack). Left: a style in a weight's
/// name, and two where the reference builds no value (`$a.b` references,
/// rgba() of an rgba() colour). Colour modifiers are now applied too; one
/// channel of one mix ties on a rounding boundary.
const KNOWN: &[Known] = &[
    Known {
        export: "color-modifier-references",
        context: "default",
        token: "color3",
        right: Right::Reference,
        why: "`#FFFFFF` mixed half and half with `#4477DD` in srgb: its red is exactly 161.5 of \
255, a tie. colorjs' float arithmetic lands on 161.49999 and writes 161; marque's on 161.5 and \
writes 162. One unit of one channel; listed under the reference, whose build is the contract",
    },
    Known {
        export: "expand-composition",
        context: "default",
        token: "typography|ref|deepRef",
        right: Right::Reference,
        why: FONT_STYLE,
    },
    Known {
        export: "object-value-references",
        context: "default",
        token: "font.heading.xxl|before|after",
        right: Right::Reference,
        why: FONT_STYLE,
    },
    Known {
        export: "metamask",
        context: "default",
        token: "L-*|S-*",
        right: Right::Marque,
        why: "MetaMask's 28 typographies refer to their members with Tokens Studio's older \
`$fontSize.7` syntax, which Style Dictionary does not resolve: it writes `$fontweights…` text \
into the `font` shorthand, which computes as no font at all. DESIGN.md §17 names `$a.b` as \
Tokens Studio's meaning, and with the references written `{fontSize.7}` Style Dictionary \
builds exactly marque's values (checked: `500 48px/56 'Euclid Circular B'` for L-Display-MD)",
    },
    Known {
        export: "metamask",
        context: "*",
        token: "lineHeights.*",
        right: Right::Marque,
        why: "a deliberate difference (issue 59): MetaMask's line heights are bare pixel \
counts (`56`, `24`, `16`). sd-transforms keeps a bare line height unitless, a multiple of the \
font size, so a 16 px body with `24` gets a 384 px line; marque reads a bare line height above \
3 as pixels and one of 3 or below as a ratio, each with warning MQ1416 (bare-line-height)",
    },
    Known {
        export: "starter",
        context: "theme=dark",
        token: "boxShadow.default",
        right: Right::Marque,
        why: "its first layer's colour is `rgba({shadows.default}, 0.15)` and shadows.default is \
itself `rgba({colors.black}, 0.3)`: sd-transforms' `ts/color/css/hexrgba` rewrites only a hex \
colour inside rgba(), so it writes `rgba(rgba(0, 0, 0, 0.3), 0.15)`, invalid CSS, and the \
whole shadow computes as none. marque paints the colour at alpha 0.15, as it documents for \
`rgba({colour}, a)`: the author's evident meaning, where the reference has none",
    },
];

/// Why typographies whose weight names a style differ.
const FONT_STYLE: &str = "a typography whose fontWeight refers to a `fontWeights` token with a \
style in its name (`ExtraBold italic`, `Regular Italic`): sd-transforms' preprocessor splits it \
into a weight and a fontStyle and the typography is italic; marque keeps the weight (800, 400) \
and drops the italic";

/// How a token of each type (as sd-transforms' preprocessor aligns it) is
/// painted: the properties set to `var(--name)` and the computed
/// properties read back. A type not here is compared as the variable's
/// text. Several properties where one would hide a difference of kind: a
/// number that is a length elsewhere leaves `scale` unset, and the reverse
/// `margin`.
const PROBES: &str = r#"{
  "color": [["color"], ["color"]],
  "dimension": [["margin"], ["margin"]],
  "fontSize": [["margin"], ["margin"]],
  "number": [["scale", "margin"], ["scale", "margin"]],
  "math": [["scale", "margin"], ["scale", "margin"]],
  "other": [["scale", "margin"], ["scale", "margin"]],
  "lineHeight": [["line-height", "scale"], ["line-height", "scale"]],
  "opacity": [["opacity", "scale"], ["opacity", "scale"]],
  "fontWeight": [["font-weight"], ["font-weight"]],
  "fontFamily": [["font-family"], ["font-family"]],
  "fontStyle": [["font-style"], ["font-style"]],
  "shadow": [["box-shadow"], ["box-shadow"]],
  "border": [["border-top"], ["border-top-width", "border-top-style", "border-top-color"]],
  "typography": [["font"], ["font-style", "font-weight", "font-size", "line-height", "font-family"]],
  "textCase": [["text-transform"], ["text-transform"]],
  "textDecoration": [["text-decoration-line"], ["text-decoration-line"]]
}"#;

/// Single files whose top-level keys are sets, as marque reads them (a
/// file with `$themes` or `$metadata`, or whose references name tokens one
/// level down): sd-transforms' README builds such a file by writing each
/// set to a file of its own ("Single-file tokens example"), as here.
const SET_FILES: [&str; 3] = ["starter", "metamask", "exclude-parent-keys"];

/// Where a brand's tokens are, from its brand.json.
fn tokens_path(brand: &Path) -> PathBuf {
    let json: Value =
        serde_json::from_slice(&std::fs::read(brand.join("brand.json")).unwrap()).unwrap();
    let tokens = &json["tokens"];
    brand.join(tokens.as_str().or(tokens["path"].as_str()).unwrap())
}

/// The `.json` files under `dir` (not `$themes.json`, `$metadata.json`),
/// as set names: their paths without `.json`.
fn set_files(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            set_files(&path, &format!("{prefix}{name}/"), out);
        } else if let Some(set) = name.strip_suffix(".json") {
            if !set.starts_with('$') {
                out.push(format!("{prefix}{set}"));
            }
        }
    }
}

/// Sets in `$metadata.tokenSetOrder`, the others after them as they are.
fn in_order(mut sets: Vec<String>, metadata: &Value) -> Vec<String> {
    let order: Vec<&str> = metadata["tokenSetOrder"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    sets.sort_by_key(|s| order.iter().position(|o| o == s).unwrap_or(usize::MAX));
    sets
}

/// What `sd_transforms.mjs` builds for one brand: the folder of its set
/// files, the sets in order and `$themes` (null without).
fn plan_of(brand: &Path, split: &Path, slug: &str) -> Value {
    let tokens = tokens_path(brand);
    let read = |p: &Path| -> Value { serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap() };
    let (dir, sets, themes) = if tokens.is_dir() {
        let mut sets = Vec::new();
        set_files(&tokens, "", &mut sets);
        let meta = tokens.join("$metadata.json");
        let meta = match meta.is_file() {
            true => read(&meta),
            false => Value::Null,
        };
        let themes = tokens.join("$themes.json");
        let themes = match themes.is_file() {
            true => read(&themes),
            false => Value::Null,
        };
        (tokens, in_order(sets, &meta), themes)
    } else if SET_FILES.contains(&slug) {
        let doc = read(&tokens);
        let dir = split.join(slug);
        let mut sets = Vec::new();
        for (set, tree) in doc.as_object().unwrap() {
            if set.starts_with('$') {
                continue;
            }
            let file = dir.join(format!("{set}.json"));
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(&file, serde_json::to_vec_pretty(tree).unwrap()).unwrap();
            sets.push(set.clone());
        }
        (
            dir,
            in_order(sets, &doc["$metadata"]),
            doc["$themes"].clone(),
        )
    } else {
        let name = tokens.file_name().unwrap().to_string_lossy();
        let set = name.strip_suffix(".json").unwrap().to_string();
        (
            tokens.parent().unwrap().to_path_buf(),
            vec![set],
            Value::Null,
        )
    };
    let themes = match themes {
        Value::Null => parallel_themes(&sets),
        t => t,
    };
    json!({"slug": slug, "dir": dir, "sets": sets, "themes": themes})
}

/// The themes of an export without `$themes` whose sets are named `light`
/// and `dark` (the Tokens Studio starter's "alternative colour sets meant
/// for two themes a user creates"): the two themes such a user creates,
/// each every other set and its own, which marque reads from the names
/// (MQ2214). Null for any other export: one build of all its sets.
fn parallel_themes(sets: &[String]) -> Value {
    let modes = ["light", "dark"];
    if !modes.iter().all(|m| sets.iter().any(|s| s == m)) {
        return Value::Null;
    }
    let theme = |mode: &str| {
        let selected: serde_json::Map<String, Value> = sets
            .iter()
            .filter(|s| !modes.contains(&s.as_str()) || s.as_str() == mode)
            .map(|s| (s.clone(), json!("enabled")))
            .collect();
        json!({"name": mode, "group": "theme", "selectedTokenSets": selected})
    };
    json!([theme("light"), theme("dark")])
}

/// A difference: where, which token, both computed values.
struct Difference {
    export: String,
    context: String,
    token: String,
    var: String,
    marque: String,
    reference: String,
}

fn known(d: &Difference) -> Option<usize> {
    KNOWN.iter().position(|k| {
        (k.export == "*" || k.export == d.export)
            && glob(k.context, &d.context)
            && k.token.split('|').any(|t| glob(t, &d.token))
    })
}

/// Every token that both tokens.css and Style Dictionary with
/// sd-transforms declare computes to the same value in Chromium, in every
/// permutation of every export's themes, or the difference is in `KNOWN`.
#[test]
fn sd_transforms_computes_what_tokens_css_computes_or_the_difference_is_known() {
    if js_tool("style-dictionary").is_none() {
        return;
    }
    let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/js-tools/node_modules");
    if !require(
        "npm @tokens-studio/sd-transforms",
        modules
            .join("@tokens-studio/sd-transforms/package.json")
            .is_file(),
        "bash .ci/deps",
    ) {
        return;
    }
    let _one = crate::browser::BROWSER_LOCK
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let Some(b) = crate::browser::browser() else {
        return;
    };
    let started = std::time::Instant::now();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("content");
    crate::formats::tokens_studio_content(&root);
    let site = dir.path().join("site");
    let out = Command::new(env!("CARGO_BIN_EXE_marque"))
        .args([
            "build",
            root.to_str().unwrap(),
            "--out",
            site.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "marque builds the corpus: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut slugs: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    slugs.sort();
    assert_eq!(slugs.len(), 15, "{slugs:?}");

    // Style Dictionary with sd-transforms, every export at once.
    let plans: Vec<Value> = slugs
        .iter()
        .map(|slug| plan_of(&root.join(slug), &dir.path().join("split"), slug))
        .collect();
    let plan_file = dir.path().join("plan.json");
    std::fs::write(&plan_file, serde_json::to_vec(&plans).unwrap()).unwrap();
    let built = dir.path().join("sd");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/support/sd_transforms.mjs");
    let out = Command::new("node")
        .arg(&script)
        .arg(&modules)
        .arg(&plan_file)
        .arg(&built)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "Style Dictionary builds:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!(
        "marque and Style Dictionary built in {:.1} s",
        started.elapsed().as_secs_f64()
    );

    let mut differences = Vec::new();
    let mut counts = Vec::new();
    let mut unbuilt = Vec::new();
    for (slug, plan) in slugs.iter().zip(&plans) {
        let sd: Value =
            serde_json::from_slice(&std::fs::read(built.join(slug).join("plan.json")).unwrap())
                .unwrap();
        let perms = sd["perms"].as_array().unwrap();
        // Groups of more than one theme are marque's modifiers.
        let mut themes_of: BTreeMap<&str, usize> = BTreeMap::new();
        for t in plan["themes"].as_array().into_iter().flatten() {
            *themes_of.entry(t["group"].as_str().unwrap()).or_default() += 1;
        }
        let marque_css =
            std::fs::read_to_string(site.join("brand").join(slug).join("tokens.css")).unwrap();
        let marque_declares = declared(&marque_css);
        // (type, marque's variable, Style Dictionary's, path)
        let mut probes: Vec<(String, String, String, String)> = Vec::new();
        let mut only_reference = BTreeSet::new();
        for (var, token) in sd["names"].as_object().unwrap() {
            let path: Vec<String> = token["path"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            let mine = format!("--{}", marque::spec::tokens::css::css_name(&path));
            if !marque_declares.contains(&mine) {
                only_reference.insert(path.join("."));
                continue;
            }
            let ty = token["type"].as_str().unwrap_or("").to_string();
            probes.push((ty, mine, var.clone(), path.join(".")));
        }
        let sheets: Vec<String> = (0..perms.len())
            .map(|i| std::fs::read_to_string(built.join(slug).join(format!("{i}.css"))).unwrap())
            .collect();
        let host = crate::browser::host_page(format!(
            "<!doctype html><html><head><style>{marque_css}</style><style>{}</style></head>
             <body><div id=\"m\"></div><div id=\"s\"></div></body></html>",
            sheets.concat()
        ));
        b.goto(&host.url());
        b.wait_for(
            "return document.readyState === 'complete'",
            "the page loads",
        );
        let list: Vec<Value> = probes
            .iter()
            .map(|(ty, mine, theirs, _)| json!([ty, mine, theirs]))
            .collect();
        b.js(&format!(
            "const P = {PROBES};
             const make = (host, type, v) => {{
               const el = document.createElement('div');
               for (const prop of (P[type] || [[]])[0]) el.style.setProperty(prop, 'var(' + v + ')');
               document.getElementById(host).appendChild(el);
               return el;
             }};
             window.P = P;
             window.probes = {}.map(([type, mine, theirs]) => [type, make('m', type, mine), mine, make('s', type, theirs), theirs]);
             return null;",
            Value::Array(list)
        ));
        let mut lines = Vec::new();
        let (mut compared, mut equal) = (0, 0);
        for (i, perm) in perms.iter().enumerate() {
            let label = perm["label"].as_str().unwrap();
            if let Some(error) = perm["error"].as_str() {
                unbuilt.push(format!("{slug} [{label}]: {error}"));
                continue;
            }
            let named: Vec<(String, String)> = perm["choices"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|c| {
                    themes_of
                        .get(c[0].as_str().unwrap())
                        .is_some_and(|n| *n > 1)
                })
                .map(|c| (c[0].as_str().unwrap().into(), c[1].as_str().unwrap().into()))
                .collect();
            let context = match named.is_empty() {
                true => "default".to_string(),
                false => named
                    .iter()
                    .map(|(g, t)| format!("{g}={t}"))
                    .collect::<Vec<_>>()
                    .join(", "),
            };
            let attributes: String = named
                .iter()
                .map(|(g, t)| {
                    format!(
                        "m.setAttribute({}, {});",
                        json!(format!("data-{}", crate::corpus::kebab(g))),
                        json!(crate::corpus::kebab(t))
                    )
                })
                .collect();
            let theirs = declared(&sheets[i]);
            let here: Vec<usize> = (0..probes.len())
                .filter(|p| theirs.contains(&probes[*p].2))
                .collect();
            let painted = b.js(&format!(
                "const P = window.P;
                 const m = document.getElementById('m');
                 for (const a of [...m.attributes]) if (a.name.startsWith('data-')) m.removeAttribute(a.name);
                 {attributes}
                 document.getElementById('s').setAttribute('data-sdt', '{i}');
                 const read = (el, type, v) => {{
                   const cs = getComputedStyle(el);
                   const text = cs.getPropertyValue(v).trim();
                   if (text === '') return '(guaranteed-invalid)';
                   const p = P[type];
                   return p ? p[1].map(r => cs.getPropertyValue(r)).join(' | ') : text;
                 }};
                 return {}.map(i => {{
                   const [type, me, mine, se, theirs] = window.probes[i];
                   return [read(me, type, mine), read(se, type, theirs)];
                 }});",
                json!(here)
            ));
            let (mut n, mut same_here) = (0, 0);
            for (p, pair) in here.iter().zip(painted.as_array().unwrap()) {
                let (mine, theirs) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
                n += 1;
                if same(mine, theirs) {
                    same_here += 1;
                    continue;
                }
                differences.push(Difference {
                    export: slug.clone(),
                    context: context.clone(),
                    token: probes[*p].3.clone(),
                    var: probes[*p].1.clone(),
                    marque: mine.to_string(),
                    reference: theirs.to_string(),
                });
            }
            compared += n;
            equal += same_here;
            lines.push(format!(
                "  [{context}] ({} sets): {n} compared, {same_here} equal",
                perm["sets"].as_array().unwrap().len()
            ));
        }
        println!(
            "{slug}: {} contexts, {compared} values compared, {equal} equal; {} tokens matched by path; {} only Style Dictionary declares{}",
            perms.len(),
            probes.len(),
            only_reference.len(),
            match only_reference.is_empty() {
                true => String::new(),
                false => format!(
                    " ({})",
                    only_reference.iter().take(6).cloned().collect::<Vec<_>>().join(", ")
                ),
            }
        );
        for l in &lines {
            println!("{l}");
        }
        counts.push((slug.clone(), compared));
    }
    let found = differences
        .iter()
        .map(|d| {
            (
                format!(
                    "{} [{}] {} ({}): marque {} | sd-transforms {}",
                    d.export, d.context, d.token, d.var, d.marque, d.reference
                ),
                known(d),
            )
        })
        .collect();
    let entries: Vec<(String, String)> = KNOWN
        .iter()
        .map(|k| {
            (
                format!("{} [{}] {}", k.export, k.context, k.token),
                format!("{:?} is right: {}", k.right, k.why),
            )
        })
        .collect();
    println!(
        "{} values compared in {:.1} s",
        counts.iter().map(|(_, n)| n).sum::<usize>(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        unbuilt.is_empty(),
        "permutations Style Dictionary with sd-transforms does not build:\n{}",
        unbuilt.join("\n")
    );
    // Every export is compared (one that compares nothing would hide every
    // difference).
    assert!(
        counts.iter().all(|(_, n)| *n > 0),
        "values compared per export: {counts:?}"
    );
    judge_differences("sd-transforms", found, &entries);
}
