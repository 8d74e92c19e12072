//! Terrazzo as a second opinion on tokens.css (issue 41, part 5).
//!
//! For every system of the public corpus, Terrazzo 2.7 with its CSS plugin
//! (`@terrazzo/plugin-css`, installed by `.ci/deps`) builds CSS variables
//! from marque's own strict exports: `tokens.json` (the default) and
//! `tokens.resolver.json` (the default and each other context of each
//! modifier, as plugin-css `permutations`, with every modifier named in the
//! input). Headless Chromium loads marque's tokens.css and both of
//! Terrazzo's style sheets in one page and computes, for every token that
//! both declare, what each sheet's variable paints: colours through
//! `color`, dimensions through `margin-left`, shadows through `box-shadow`,
//! and so on (see `PROBES`). Every difference must be one of `KNOWN`, which
//! says which side is right and why; a new one fails the test.

use crate::helpers::*;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Stdio};

/// Which reading a known difference holds to be right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Right {
    Marque,
    /// Where Terrazzo is right, marque is wrong: none is listed now.
    #[allow(dead_code)]
    Terrazzo,
}

/// A difference between marque's tokens.css and Terrazzo's CSS that has
/// been looked at: the system (`*` for any), the token id (a glob: `*`
/// matches any run of characters), and which side is right and why.
struct Known {
    system: &'static str,
    token: &'static str,
    right: Right,
    why: &'static str,
}

/// Every difference seen, and the verdict on it. Revise this table when
/// marque's reading changes; an entry that matches nothing is stale, and
/// fails the test too.
///
/// Seen with Terrazzo 2.7.1 on the corpus (dtcg-examples 1.1.3): only
/// GitHub Primer's `prettylights.syntax` colours that Primer names twice,
/// in every permutation of both exports (27 tokens, 189 values).
/// Primer's `base.color.transparent`, which Terrazzo paints opaque from
/// Primer's own source (it drops the `alpha` beside `$value`), agrees here:
/// marque's strict export writes that alpha inside `$value` (DESIGN.md
/// §14), where Terrazzo reads it.
const KNOWN: &[Known] = &[
    Known {
        system: "github-primer",
        token: "*prettylights.syntax.carriage*eturn.*",
        right: Right::Marque,
        why: SAME_NAME,
    },
    Known {
        system: "github-primer",
        token: "*prettylights.syntax.constant*ther*eference*ink",
        right: Right::Marque,
        why: SAME_NAME,
    },
    Known {
        system: "github-primer",
        token: "*prettylights.syntax.entity*ag",
        right: Right::Marque,
        why: SAME_NAME,
    },
    Known {
        system: "github-primer",
        token: "*prettylights.syntax.invalid*llegal.*",
        right: Right::Marque,
        why: SAME_NAME,
    },
    Known {
        system: "github-primer",
        token: "*prettylights.syntax.meta*iff*ange",
        right: Right::Marque,
        why: SAME_NAME,
    },
    Known {
        system: "github-primer",
        token: "*prettylights.syntax.storage*odifier*mport",
        right: Right::Marque,
        why: SAME_NAME,
    },
    Known {
        system: "github-primer",
        token: "*prettylights.syntax.string*egexp",
        right: Right::Marque,
        why: SAME_NAME,
    },
];

/// Primer writes these colours under a camelCase id and again under a
/// deprecated alias of it (`prettylights.syntax.entityTag` and
/// `prettylights.syntax.entity-tag`, or `.carriageReturn.bg` and
/// `.carriage.return.bg`), and `color.prettylights.syntax.*` aliases the
/// camelCase one. Both ids make one CSS name.
const SAME_NAME: &str = "two ids make one CSS name; Terrazzo keeps the first declaration in id \
order, the deprecated alias's, which reads var() of its own name: a cycle, so the variable and \
the color.prettylights.* aliases of it compute as guaranteed-invalid (no colour). marque writes \
one property with the colour both ids mean, as DESIGN.md §4 asks where names collide and \
values agree";

/// How a token of each `$type` is painted: the properties set to
/// `var(--name<suffix>)` and the computed properties read back.
const PROBES: &str = r#"{
  "color": [[["color", ""]], ["color"]],
  "dimension": [[["margin-left", ""]], ["margin-left"]],
  "number": [[["scale", ""]], ["scale"]],
  "fontWeight": [[["font-weight", ""]], ["font-weight"]],
  "fontFamily": [[["font-family", ""]], ["font-family"]],
  "duration": [[["transition-duration", ""]], ["transition-duration"]],
  "cubicBezier": [[["transition-timing-function", ""]], ["transition-timing-function"]],
  "shadow": [[["box-shadow", ""]], ["box-shadow"]],
  "gradient": [[["background-image", ""]], ["background-image"]],
  "border": [[["border-top", ""]], ["border-top-width", "border-top-style", "border-top-color"]],
  "transition": [[["transition", ""]], ["transition-duration", "transition-delay", "transition-timing-function"]],
  "typography": [[["font", ""], ["letter-spacing", "-letter-spacing"]],
    ["font-style", "font-weight", "font-size", "line-height", "font-family", "letter-spacing"]]
}"#;

/// One of Terrazzo's two inputs: marque's export, the prefix its variables
/// get (Terrazzo's own naming, `makeCSSVar`, with a prefix so both sheets
/// share a page) and the attribute that selects a permutation.
struct Source {
    file: &'static str,
    prefix: &'static str,
}

const SOURCES: [Source; 2] = [
    Source {
        file: "tokens.json",
        prefix: "tzj",
    },
    Source {
        file: "tokens.resolver.json",
        prefix: "tzr",
    },
];

/// A context permutation: `(modifier, context)` for every modifier, the
/// ones that differ from the default (what marque's page names), and the
/// tokens only that context defines, which Terrazzo 2.7 cannot build (its
/// `setTransform` knows only the default permutation's tokens and stops
/// with `No token "…"`), so they are left out of its permutation.
struct Permutation {
    label: String,
    input: BTreeMap<String, String>,
    named: Vec<(String, String)>,
    only_here: Vec<String>,
}

/// The ids of the tokens in a DTCG document (or a list of them).
fn token_ids(v: &Value, path: &mut Vec<String>, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(o) if o.contains_key("$value") => {
            out.insert(path.join("."));
        }
        Value::Object(o) => {
            for (k, child) in o.iter().filter(|(k, _)| !k.starts_with('$')) {
                path.push(k.clone());
                token_ids(child, path, out);
                path.pop();
            }
        }
        Value::Array(items) => items.iter().for_each(|i| token_ids(i, path, out)),
        _ => {}
    }
}

/// The default, then each other context of each modifier with the others
/// at their defaults, from the resolver document marque exports.
fn permutations(resolver: &Value) -> Vec<Permutation> {
    // marque's export: the sets hold the default, each other context only
    // what differs from it.
    let mut in_default = BTreeSet::new();
    for set in resolver["sets"]
        .as_object()
        .into_iter()
        .flatten()
        .map(|(_, s)| s)
    {
        token_ids(&set["sources"], &mut Vec::new(), &mut in_default);
    }
    let mut defaults = BTreeMap::new();
    let mut others = Vec::new();
    for (m, modifier) in resolver["modifiers"].as_object().into_iter().flatten() {
        let contexts: Vec<&String> = modifier["contexts"].as_object().unwrap().keys().collect();
        let default = modifier["default"]
            .as_str()
            .unwrap_or(contexts[0].as_str())
            .to_string();
        for c in contexts.into_iter().filter(|c| **c != default) {
            let mut here = BTreeSet::new();
            token_ids(&modifier["contexts"][c], &mut Vec::new(), &mut here);
            let only_here: Vec<String> = here.difference(&in_default).cloned().collect();
            others.push((m.clone(), c.clone(), only_here));
        }
        defaults.insert(m.clone(), default);
    }
    let mut out = vec![Permutation {
        label: "default".into(),
        input: defaults.clone(),
        named: Vec::new(),
        only_here: Vec::new(),
    }];
    for (m, c, only_here) in others {
        let mut input = defaults.clone();
        input.insert(m.clone(), c.clone());
        out.push(Permutation {
            label: format!("{m}={c}"),
            input,
            named: vec![(m, c)],
            only_here,
        });
    }
    out
}

/// terrazzo.config.mjs for `source`: plugin-css, lint off (corpus.rs runs
/// it), and every token's variable name and `$type` written to names.json.
/// The resolver export gets one permutation per entry of `perms`, each under
/// `[data-<prefix>="<i>"]`. tokens.json, a plain token file, is the default
/// alone under `[data-<prefix>="0"]` (plugin-css's `baseSelector`): a
/// permutation with input `{}` builds an empty sheet from a file that has
/// no resolver, so it takes the path plugin-css documents for one.
fn config(source: &Source, perms: &[&Permutation]) -> String {
    let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/js-tools/node_modules");
    let selection = match source.file {
        "tokens.json" => format!("baseSelector: \"[data-{}=\\\"0\\\"]\"", source.prefix),
        _ => {
            let permutations: Vec<String> = perms
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    format!(
                        "{{ input: {}, exclude: {}, prepare: (css) => `[data-{}=\"{i}\"] {{\\n${{css}}\\n}}` }}",
                        serde_json::to_string(&p.input).unwrap(),
                        json!(p.only_here),
                        source.prefix
                    )
                })
                .collect();
            format!("permutations: [{}]", permutations.join(",\n      "))
        }
    };
    format!(
        "import css from {css};
import {{ makeCSSVar }} from {tools};
import {{ writeFileSync }} from \"node:fs\";
const names = {{}};
process.on(\"exit\", () => writeFileSync(\"names.json\", JSON.stringify(names)));
export default {{
  tokens: [\"./{file}\"],
  outDir: \"./out/\",
  lint: {{ build: {{ enabled: false }} }},
  plugins: [css({{
    filename: \"tokens.css\",
    variableName: (token) => (names[token.id] = [makeCSSVar(token.id, {{ prefix: \"{prefix}\" }}), token.$type])[0],
    {selection},
  }})],
}};
",
        css = json!(modules
            .join("@terrazzo/plugin-css/dist/index.js")
            .to_str()
            .unwrap()),
        tools = json!(modules
            .join("@terrazzo/token-tools/dist/css/index.js")
            .to_str()
            .unwrap()),
        file = source.file,
        prefix = source.prefix,
    )
}

/// What Terrazzo made of one export: its CSS, and each token id's variable
/// name and `$type`.
struct Built {
    css: String,
    names: BTreeMap<String, (String, String)>,
}

/// A difference: where, which token, both computed values.
struct Difference {
    system: String,
    source: &'static str,
    mode: String,
    token: String,
    var: String,
    marque: String,
    terrazzo: String,
}

pub(crate) fn glob(pattern: &str, text: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == text,
        Some((head, rest)) => {
            let Some(text) = text.strip_prefix(head) else {
                return false;
            };
            (0..=text.len())
                .filter(|i| text.is_char_boundary(*i))
                .any(|i| glob(rest, &text[i..]))
        }
    }
}

fn known(d: &Difference) -> Option<usize> {
    KNOWN
        .iter()
        .position(|k| (k.system == "*" || k.system == d.system) && glob(k.token, &d.token))
}

/// A computed value as a comparable list: numbers with their tolerance
/// (colours as sRGB channels from 0 to 255 and alpha, whichever syntax the
/// engine keeps), and everything else as words.
#[derive(Debug)]
enum Part {
    Num(f64, f64),
    Word(String),
}

fn lex(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in s.chars() {
        if c.is_whitespace() || c == ',' || "()/|".contains(c) {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            if "()/|".contains(c) {
                out.push(c.to_string());
            }
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

fn number(word: &str) -> Option<(f64, &str)> {
    let end = word
        .char_indices()
        .find(|(i, c)| !(c.is_ascii_digit() || *c == '.' || (*i == 0 && (*c == '-' || *c == '+'))))
        .map_or(word.len(), |(i, _)| i);
    word[..end].parse().ok().map(|n| (n, &word[end..]))
}

fn canon(s: &str) -> Vec<Part> {
    let words = lex(s);
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        let srgb = w == "color" && words.get(i + 2).is_some_and(|s| s == "srgb");
        if (w == "rgb" || w == "rgba" || srgb) && words.get(i + 1).is_some_and(|s| s == "(") {
            let close = words[i..].iter().position(|s| s == ")").map(|p| p + i);
            let close = close.unwrap_or(words.len());
            let first = if srgb { i + 3 } else { i + 2 };
            let scale = if srgb { 255.0 } else { 1.0 };
            let n: Vec<f64> = words[first..close]
                .iter()
                .filter_map(|w| number(w).map(|(n, _)| n))
                .collect();
            if n.len() >= 3 {
                out.push(Part::Word("<color>".into()));
                for channel in &n[..3] {
                    out.push(Part::Num(channel * scale, 0.6));
                }
                out.push(Part::Num(n.get(3).copied().unwrap_or(1.0), 0.01));
                i = close + 1;
                continue;
            }
        }
        match number(w) {
            Some((n, unit)) => {
                out.push(Part::Num(n, 0.01 + n.abs() * 1e-3));
                if !unit.is_empty() {
                    out.push(Part::Word(unit.to_string()));
                }
            }
            None => out.push(Part::Word(w.to_string())),
        }
        i += 1;
    }
    out
}

/// Whether marque's computed value `a` is the other tool's `b`. tokens.css
/// ends a font stack that has no generic family with one (`Inter,
/// sans-serif`, by tailwind.css's rule), where the other tools write the
/// stack as authored (`Inter`): marque is right (a reader without the font
/// gets its kind, not the browser's serif), so that generic alone is no
/// difference.
pub(crate) fn same(a: &str, b: &str) -> bool {
    // The family ends the value, or a part of a typography's (` | `).
    let generic = [", ui-monospace, monospace", ", sans-serif", ", serif"]
        .iter()
        .filter(|g| !b.contains(*g))
        .find_map(|g| {
            let without = a.replace(&format!("{g} |"), " |");
            let without = without.strip_suffix(g).unwrap_or(&without).to_string();
            (without != a).then_some(without)
        });
    exactly_same(a, b) || generic.is_some_and(|a| exactly_same(&a, b))
}

fn exactly_same(a: &str, b: &str) -> bool {
    let (a, b) = (canon(a), canon(b));
    a.len() == b.len()
        && a.iter().zip(&b).all(|pair| match pair {
            (Part::Num(x, tol), Part::Num(y, _)) => (x - y).abs() <= *tol,
            (Part::Word(x), Part::Word(y)) => x == y,
            _ => false,
        })
}

/// The custom properties a style sheet declares.
pub(crate) fn declared(css: &str) -> BTreeSet<String> {
    css.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            l.starts_with("--")
                .then(|| l.split(':').next().unwrap().to_string())
        })
        .collect()
}

/// marque's variable for a token id.
fn marque_var(id: &str) -> String {
    let path: Vec<String> = id.split('.').map(String::from).collect();
    format!("--{}", marque::spec::tokens::css::css_name(&path))
}

/// Runs Terrazzo on both exports of one brand, the two builds at once.
fn terrazzo(dir: &Path, brand: &Path, perms: &[Permutation]) -> Vec<Built> {
    let tz = js_tool("tz").unwrap();
    let children: Vec<_> = SOURCES
        .iter()
        .map(|source| {
            let work = dir.join(source.prefix);
            std::fs::create_dir_all(&work).unwrap();
            std::fs::copy(brand.join(source.file), work.join(source.file)).unwrap();
            // tokens.json is the default alone.
            let perms: Vec<&Permutation> = match source.prefix {
                "tzj" => perms.iter().take(1).collect(),
                _ => perms.iter().collect(),
            };
            std::fs::write(work.join("terrazzo.config.mjs"), config(source, &perms)).unwrap();
            let child = Command::new(&tz)
                .arg("build")
                .current_dir(&work)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            (work, child)
        })
        .collect();
    children
        .into_iter()
        .map(|(work, child)| {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "Terrazzo builds {}:\n{}{}",
                work.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let names: BTreeMap<String, (String, String)> =
                serde_json::from_slice(&std::fs::read(work.join("names.json")).unwrap()).unwrap();
            Built {
                css: std::fs::read_to_string(work.join("out/tokens.css")).unwrap(),
                names,
            }
        })
        .collect()
}

/// Every token both marque's tokens.css and Terrazzo's CSS declare, in
/// every permutation the resolver export has (default and each other
/// context alone), computes to the same value in Chromium, or the
/// difference is in `KNOWN`.
#[test]
fn terrazzo_computes_what_tokens_css_computes_or_the_difference_is_known() {
    let Some(corpus) = crate::corpus::corpus() else {
        return;
    };
    if js_tool("tz").is_none() {
        return;
    }
    let plugin = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/js-tools/node_modules/@terrazzo/plugin-css/package.json");
    if !require(
        "npm @terrazzo/plugin-css",
        plugin.is_file(),
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
    let dir = tempfile::tempdir().unwrap();
    let (site, slugs) = crate::corpus::built(&corpus, dir.path());
    let mut differences = Vec::new();
    let mut counts = Vec::new();
    for slug in &slugs {
        let brand = site.join("brand").join(slug);
        let resolver: Value =
            serde_json::from_slice(&std::fs::read(brand.join("tokens.resolver.json")).unwrap())
                .unwrap();
        let perms = permutations(&resolver);
        let work = dir.path().join(format!("tz-{slug}"));
        let built = terrazzo(&work, &brand, &perms);
        let marque_css = std::fs::read_to_string(brand.join("tokens.css")).unwrap();
        let marque_declares = declared(&marque_css);
        let host = crate::browser::host_page(format!(
            "<!doctype html><html><head><style>{}</style><style>{}</style><style>{}</style></head>
             <body><div id=\"m\"><div id=\"mp\"></div></div><div id=\"tzj\" data-tzj=\"0\"><div id=\"tzjp\"></div></div>
             <div id=\"tzr\"><div id=\"tzrp\"></div></div></body></html>",
            marque_css, built[0].css, built[1].css
        ));
        b.goto(&host.url());
        b.wait_for(
            "return document.readyState === 'complete'",
            "the page loads",
        );
        let (mut compared, mut equal, mut unpainted, mut renamed) =
            ([0; SOURCES.len()], 0, 0, BTreeSet::new());
        for (i, perm) in perms.iter().enumerate() {
            // (source index, token id, type, marque's variable, Terrazzo's)
            let mut probes = Vec::new();
            for (s, built) in built.iter().enumerate() {
                if s == 0 && i > 0 {
                    continue;
                }
                let tz_declares = declared(&built.css);
                for (id, (name, ty)) in &built.names {
                    let var = marque_var(id);
                    if !marque_declares.contains(&var) || !tz_declares.contains(name) {
                        continue;
                    }
                    let unprefixed = name.replacen(&format!("--{}-", SOURCES[s].prefix), "--", 1);
                    if unprefixed != var {
                        renamed.insert(format!("{id}: {var} / {unprefixed}"));
                    }
                    probes.push((s, id.clone(), ty.clone(), var, name.clone()));
                }
            }
            let list: Vec<Value> = probes
                .iter()
                .map(|(s, _, ty, var, name)| json!([SOURCES[*s].prefix, ty, var, name]))
                .collect();
            let named: String = perm
                .named
                .iter()
                .map(|(m, c)| {
                    format!(
                        "m.setAttribute('data-{}', '{}');",
                        crate::corpus::kebab(m),
                        crate::corpus::kebab(c)
                    )
                })
                .collect();
            let painted = b.js(&format!(
                "const P = {PROBES};
                 const m = document.getElementById('m');
                 for (const a of [...m.attributes]) if (a.name.startsWith('data-')) m.removeAttribute(a.name);
                 {named}
                 document.getElementById('tzr').setAttribute('data-tzr', '{i}');
                 const probe = (el, type, v) => {{
                   const p = P[type];
                   if (!p) return null;
                   el.removeAttribute('style');
                   if (getComputedStyle(el).getPropertyValue(v).trim() === '') return '(guaranteed-invalid)';
                   for (const [prop, suffix] of p[0]) el.style.setProperty(prop, 'var(' + v + suffix + ')');
                   const cs = getComputedStyle(el);
                   return p[1].map(r => cs.getPropertyValue(r)).join(' | ');
                 }};
                 const mp = document.getElementById('mp');
                 return {}.map(([src, type, v, t]) => [probe(mp, type, v), probe(document.getElementById(src + 'p'), type, t)]);",
                Value::Array(list)
            ));
            for ((s, id, _, var, _), pair) in probes.iter().zip(painted.as_array().unwrap()) {
                let (Some(mine), Some(theirs)) = (pair[0].as_str(), pair[1].as_str()) else {
                    continue;
                };
                compared[*s] += 1;
                if same(mine, theirs) {
                    equal += 1;
                    unpainted += usize::from(mine == "(guaranteed-invalid)");
                    continue;
                }
                differences.push(Difference {
                    system: slug.clone(),
                    source: SOURCES[*s].file,
                    mode: perm.label.clone(),
                    token: id.clone(),
                    var: var.clone(),
                    marque: mine.to_string(),
                    terrazzo: theirs.to_string(),
                });
            }
        }
        println!(
            "{slug}: {} permutations, {} values compared ({} from {}, {} from {}), {equal} equal ({unpainted} of them unpainted by both); {} variable names differ from marque's beyond the prefix",
            perms.len(),
            compared.iter().sum::<usize>(),
            compared[0],
            SOURCES[0].file,
            compared[1],
            SOURCES[1].file,
            renamed.len()
        );
        for p in perms.iter().filter(|p| !p.only_here.is_empty()) {
            println!(
                "  {}: {} tokens only this context defines, which Terrazzo cannot build: {:?}",
                p.label,
                p.only_here.len(),
                p.only_here
            );
        }
        for r in renamed.iter().take(5) {
            println!("  renamed {r}");
        }
        counts.push((slug.clone(), compared, equal));
    }
    let found = differences
        .iter()
        .map(|d| {
            (
                format!(
                    "{} {} [{}] {} ({}): marque {} | Terrazzo {}",
                    d.system, d.source, d.mode, d.token, d.var, d.marque, d.terrazzo
                ),
                known(d),
            )
        })
        .collect();
    let entries: Vec<(String, String)> = KNOWN
        .iter()
        .map(|k| {
            (
                format!("{} {}", k.system, k.token),
                format!("{:?} is right: {}", k.right, k.why),
            )
        })
        .collect();
    // Each export of each system is compared (a build that declares nothing
    // compares nothing, and would hide every difference).
    assert!(
        counts
            .iter()
            .all(|(_, compared, _)| compared.iter().all(|n| *n > 0)),
        "values compared per system, from tokens.json and tokens.resolver.json: {counts:?}"
    );
    judge_differences("Terrazzo", found, &entries);
}
