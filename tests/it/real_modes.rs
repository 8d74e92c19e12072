//! A real repository with modes, read as its own build reads it (issue
//! 59): NVE's design system (github.com/NVE/Designsystem, MIT), whose
//! Tokens Studio folder (`tests/fixtures/modes/nve-designsystem`) has
//! three theme groups, Brand (NVE, Varsom, RME), Theme (light, dark) and
//! Device (desktop, desktop-large, tablet, mobile, mobile-small), and
//! whose repository commits the CSS its Style Dictionary build made
//! (`tests/fixtures/modes-real/nve-designsystem/build`, SOURCE.md says how
//! it was made and checked): per brand a light file (`:root`, the device
//! files under breakpoint media queries, desktop in `:root`) and a dark
//! one (`:root.darkmode`).
//!
//! `marque import` as a user runs it: the contexts it finds are the build's
//! modes, nothing invented; `--against` the NVE build compares every
//! property it declares; headless Chromium loads each brand's build and
//! marque's tokens.css in one document per device width, at a root font
//! size of 16 px and 20 px, light and dark, and compares what every custom
//! property both declare computes to. Every difference is equal or listed
//! below with the reason; a new one fails, and so does a stale entry.

use crate::helpers::*;
use crate::terrazzo::glob;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

mod chromium;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The repository's Tokens Studio folder, as committed.
pub(crate) fn tokens() -> PathBuf {
    fixtures().join("modes/nve-designsystem/tokens")
}

/// One of the stylesheets the repository's build wrote.
pub(crate) fn built(file: &str) -> String {
    let path = fixtures()
        .join("modes-real/nve-designsystem/build")
        .join(file);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A difference that has been looked at: the context (a glob over
/// `default`, `Theme=dark`, or in Chromium `nve/tablet/dark/20px`), the
/// custom properties (globs, `|` between them), and why.
pub(crate) struct Judged {
    context: &'static str,
    names: &'static str,
    why: &'static str,
}

impl Judged {
    fn matches(&self, context: &str, name: &str) -> bool {
        glob(self.context, context) && self.names.split('|').any(|n| glob(n, name))
    }
}

pub(crate) const GENERIC_FAMILY: &str =
    "the build writes the family alone (`'Source Sans 3'`); marque adds \
the generic family a stack without one lacks (`\"Source Sans 3\", sans-serif`, \
`css::with_generic`), so a page without the web font gets a sans-serif, not the browser's serif";

/// `--against` the NVE build (light and dark files, as a page loads both).
const AGAINST_JUDGED: &[Judged] = &[
    Judged {
        context: "*",
        names: "--font-family-primary-family|--typography-*",
        why: GENERIC_FAMILY,
    },
    Judged {
        context: "*",
        names: "--boolean-brand-*",
        why: "Tokens Studio `boolean` tokens (which brand is on, for Figma): DTCG has no \
boolean type, so marque leaves them out, each said (MQ1703); the build writes `true`/`false`, \
which no CSS property reads",
    },
];

/// The build's breakpoints, each the device its script
/// (`scripts/groupDeviceFilesToBrandFiles.js`) puts under it.
const BREAKPOINTS: &[(&str, &str)] = &[
    ("min-width: 1600px", "desktop-large"),
    ("(min-width: 764px) and (max-width: 1023px)", "tablet"),
    ("(min-width: 390px) and (max-width: 763px)", "mobile"),
    ("max-width: 389px", "mobile-small"),
];

/// A brand's light file with each breakpoint's `@media (…) { :root {…} }`
/// written `:root.<device> {…}`, so that `--against`, which cannot tell
/// which device a width is, compares the device contexts too.
fn devices_by_class(css: &str) -> String {
    let mut parts = css.split("@media (");
    let mut out = parts.next().unwrap().to_string();
    for part in parts {
        let (query, body) = part.split_once(") {").unwrap();
        let device = BREAKPOINTS
            .iter()
            .find(|(q, _)| *q == query)
            .unwrap_or_else(|| panic!("a breakpoint of the build: {query}"))
            .1;
        let inner = &body[..body.trim_end().rfind('}').unwrap()];
        out.push_str(&inner.replacen(":root {", &format!(":root.{device} {{"), 1));
    }
    out
}

/// The import's summary lines for each context: (context, tokens, set by it).
fn published(said: &str) -> Vec<(String, usize, usize)> {
    said.lines()
        .filter_map(|l| {
            let (context, rest) = l.strip_prefix("  ")?.split_once(": ")?;
            let (n, rest) = rest.split_once(" tokens")?;
            let own = rest
                .strip_prefix(", ")
                .and_then(|r| r.split(' ').next())
                .map_or(Some(0), |n| n.parse().ok())?;
            Some((context.to_string(), n.parse().ok()?, own))
        })
        .collect()
}

/// The `--against` report: each context's counts line, and each
/// difference as `(context, name, line)`.
fn against_report(said: &str) -> (Vec<String>, Vec<(String, String, String)>) {
    let section = said
        .split_once("\nagainst ")
        .map(|(_, s)| s)
        .unwrap_or_else(|| panic!("an --against report\n{said}"));
    let (mut counts, mut found) = (Vec::new(), Vec::new());
    let mut context = String::new();
    for line in section.lines().skip(1) {
        if let Some(l) = line.strip_prefix("    ") {
            let name = l.split([' ', ':']).nth(1).unwrap_or("").to_string();
            found.push((context.clone(), name, l.to_string()));
        } else if let Some(l) = line.strip_prefix("  ") {
            if l.contains(" equal, ") {
                context = l.split(':').next().unwrap().to_string();
                counts.push(l.to_string());
            } else {
                counts.push(l.to_string());
            }
        } else {
            break;
        }
    }
    (counts, found)
}

/// Each difference judged by one entry; every entry used.
pub(crate) fn judge(tool: &str, found: &[(String, String, String)], judged: &[Judged]) {
    let marked = found
        .iter()
        .map(|(context, name, line)| {
            (
                format!("[{context}] {line}"),
                judged.iter().position(|j| j.matches(context, name)),
            )
        })
        .collect();
    let entries: Vec<(String, String)> = judged
        .iter()
        .map(|j| (format!("[{}] {}", j.context, j.names), j.why.to_string()))
        .collect();
    judge_differences(tool, marked, &entries);
}

/// The import of the repository's folder, as committed, against its NVE
/// build: the build's three axes and every one of their contexts, the
/// defaults the build's `:root` has (NVE, light, desktop), the tokens of
/// each context, and every property the build declares for NVE light and
/// dark equal or judged. The breakpoints are the Device contexts, which
/// no selector names: `--against` lists them as not compared; written as
/// classes (the device the build's script puts under each), every
/// device's properties are compared too, and the Chromium test compares
/// them at the widths they apply at.
#[test]
fn nve_imports_as_its_build_publishes_it_and_against_its_build_only_judged_differences() {
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("nve-both.css");
    std::fs::write(&both, built("nve.css") + &built("nve_dark.css")).unwrap();
    let out = dir.path().join("out");
    let input = tokens();
    let args = [
        input.to_str().unwrap(),
        "--slug",
        "nve",
        "--out",
        out.to_str().unwrap(),
        "--against",
        both.to_str().unwrap(),
    ];
    // RME's `#fffffff` is an error the import stops on, said by name.
    let (ok, said) = import(&args);
    assert!(!ok, "{said}");
    assert!(
        said.contains("MQ1701") && said.contains("`color-shades.brand.000`"),
        "{said}"
    );
    // `--against` names the dark context by `.darkmode`; the breakpoints
    // it cannot name.
    assert!(
        said.contains(
            "\n  not compared, naming no context of the brand: \
@media ((min-width: 390px) and (max-width: 763px)) { :root }, \
@media ((min-width: 764px) and (max-width: 1023px)) { :root }, \
@media (max-width: 389px) { :root }, @media (min-width: 1600px) { :root }\n"
        ),
        "{said}"
    );
    let by_class = dir.path().join("nve-devices.css");
    std::fs::write(
        &by_class,
        devices_by_class(&built("nve.css")) + &built("nve_dark.css"),
    )
    .unwrap();
    let mut args = args.to_vec();
    args[6] = by_class.to_str().unwrap();
    args.push("--allow-partial");
    let (ok, said) = import(&args);
    assert!(ok, "{said}");
    assert!(
        said.contains("modifiers Brand (NVE, Varsom, RME), Theme (light, dark), Device (desktop, desktop-large, tablet, mobile, mobile-small)\n"),
        "{said}"
    );
    // 702 tokens in each context: the sets' 722 names less the 10
    // `boolean.*` (MQ1703) and the 10 with no strict DTCG form (MQ2302,
    // MQ2303). Set by each context, counted in Python from the sets (the
    // tokens whose value differs from the default's): dark 149 of 207;
    // Varsom 71 colours and its name; RME 57 colours and its name, less
    // its invalid colour; desktop-large 7 sizing; tablet 22 sizing, 8 spacing,
    // 8 font sizes; mobile and mobile-small 24, 13 and 8.
    let expected = [
        ("Brand NVE", 0),
        ("Brand Varsom", 72),
        ("Brand RME", 57),
        ("Theme light", 0),
        ("Theme dark", 149),
        ("Device desktop", 0),
        ("Device desktop-large", 7),
        ("Device tablet", 38),
        ("Device mobile", 45),
        ("Device mobile-small", 45),
    ];
    assert_eq!(
        published(&said),
        expected.map(|(c, own)| (c.to_string(), 702, own)),
        "{said}"
    );
    let resolver: Value =
        serde_json::from_slice(&std::fs::read(out.join("nve/tokens.resolver.json")).unwrap())
            .unwrap();
    let m = &resolver["modifiers"];
    assert_eq!(
        (
            &m["Brand"]["default"],
            &m["Theme"]["default"],
            &m["Device"]["default"]
        ),
        (&json!("NVE"), &json!("light"), &json!("desktop"))
    );
    let brand: Value =
        serde_json::from_slice(&std::fs::read(out.join("nve/brand.json")).unwrap()).unwrap();
    assert!(
        brand["naming"]["prefix"].as_str().unwrap_or("").is_empty(),
        "the build's names have no prefix: {brand}"
    );

    let (counts, found) = against_report(&said);
    assert_eq!(
        counts,
        [
            "default: 670 equal, 42 different, 4 missing (of 716 it declares)",
            "Theme=dark: 467 equal, 1 different, 4 missing (of 472 it declares)",
            "Device=desktop-large: 188 equal, 0 different, 0 missing (of 188 it declares)",
            "Device=tablet: 188 equal, 0 different, 0 missing (of 188 it declares)",
            "Device=mobile: 188 equal, 0 different, 0 missing (of 188 it declares)",
            "Device=mobile-small: 188 equal, 0 different, 0 missing (of 188 it declares)",
        ],
        "{said}"
    );
    judge("the NVE build (--against)", &found, AGAINST_JUDGED);
}

/// The repository's folder copied to `to`, then changed by `edit`.
fn variant(to: &Path, edit: impl FnOnce(&Path)) -> PathBuf {
    copy_dir(&tokens(), to);
    edit(to);
    to.to_path_buf()
}

/// `$themes.json` (or `$metadata.json`) rewritten by `f`.
fn edit_json(file: &Path, f: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
    f(&mut v);
    std::fs::write(file, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
}

/// The same folder with its brand sets moved and renamed (`brand/nve`
/// is `merke/nve`, `$themes` and `$metadata` following), the themes of
/// `$themes` in another order (the groups interleaved, each group's
/// default kept first but Theme's, whose `light` is its default by name)
/// and each theme's sets listed backwards: the same modifiers, contexts,
/// defaults and tokens, and the same comparison with the build.
#[test]
fn nve_with_its_sets_renamed_and_its_themes_reordered_reads_the_same() {
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("nve-both.css");
    std::fs::write(&both, built("nve.css") + &built("nve_dark.css")).unwrap();
    let read = |input: &Path, out: &str| {
        let out = dir.path().join(out);
        let (ok, said) = import(&[
            input.to_str().unwrap(),
            "--slug",
            "nve",
            "--out",
            out.to_str().unwrap(),
            "--against",
            both.to_str().unwrap(),
            "--allow-partial",
        ]);
        assert!(ok, "{said}");
        let resolver: Value =
            serde_json::from_slice(&std::fs::read(out.join("nve/tokens.resolver.json")).unwrap())
                .unwrap();
        let mut contexts = published(&said);
        contexts.sort();
        let against = said
            .split_once("\nagainst ")
            .unwrap()
            .1
            .split_once('\n')
            .unwrap()
            .1;
        let against = against.split("\npalette").next().unwrap().to_string();
        (resolver, contexts, against)
    };
    let shuffled = variant(&dir.path().join("shuffled"), |root| {
        let moved = ["nve", "varsom", "rme"];
        std::fs::create_dir_all(root.join("merke")).unwrap();
        for b in moved {
            std::fs::rename(
                root.join(format!("brand/{b}.json")),
                root.join(format!("merke/{b}.json")),
            )
            .unwrap();
        }
        std::fs::remove_dir(root.join("brand")).unwrap();
        let rename = |s: &str| s.replacen("brand/", "merke/", 1);
        edit_json(&root.join("$themes.json"), |t| {
            let themes = t.as_array_mut().unwrap();
            for theme in themes.iter_mut() {
                let sets = theme["selectedTokenSets"].as_object().unwrap();
                let backwards: serde_json::Map<String, Value> = sets
                    .iter()
                    .rev()
                    .map(|(k, v)| (rename(k), v.clone()))
                    .collect();
                theme["selectedTokenSets"] = Value::Object(backwards);
            }
            // The repository's NVE, Varsom, light, dark, desktop,
            // desktop-large, tablet, mobile, RME, mobile-small as dark,
            // NVE, desktop, light, Varsom, desktop-large, RME, tablet,
            // mobile, mobile-small.
            let order = [3, 0, 4, 2, 1, 5, 8, 6, 7, 9];
            *themes = order.iter().map(|i| themes[*i].clone()).collect();
        });
        edit_json(&root.join("$metadata.json"), |m| {
            for s in m["tokenSetOrder"].as_array_mut().unwrap() {
                *s = json!(rename(s.as_str().unwrap()));
            }
        });
    });
    let (resolver, contexts, against) = read(&tokens(), "as-committed");
    let (r2, c2, a2) = read(&shuffled, "shuffled");
    assert_eq!(c2, contexts);
    assert_eq!(a2, against);
    // The modifiers in the order `$themes` first names their groups; each
    // the same, and the same sets.
    assert_eq!(r2["modifiers"], resolver["modifiers"]);
    assert_eq!(r2["sets"], resolver["sets"]);
}

/// Without `$themes`, NVE's folder says less than its build: `light` and
/// `dark` are plainly modes, but the devices `tablet`, `mobile` and
/// `mobile-small` define the same tokens with no mode word in their
/// names, and the brands are layers by `$metadata`'s order. marque asks
/// about the devices (MQ2215), it does not layer them; with the theme
/// files renamed `a` and `b` it asks about those too, never guessing
/// which is the default.
#[test]
fn nve_without_its_themes_is_a_question_about_what_its_names_do_not_say() {
    let dir = tempfile::tempdir().unwrap();
    let ask = |input: &Path| {
        let out = dir.path().join("out");
        let (ok, said) = import(&[
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--allow-partial",
        ]);
        assert!(!ok, "{said}");
        assert!(!out.join("nve/tokens.resolver.json").exists(), "{said}");
        said
    };
    let devices = "are `public/device/tablet`, `public/device/mobile`, `public/device/mobile-small` modes or layers?";
    let unthemed = variant(&dir.path().join("nve"), |root| {
        std::fs::remove_file(root.join("$themes.json")).unwrap();
    });
    let said = ask(&unthemed);
    assert!(
        said.contains("error[MQ2215]: ") && said.contains(devices),
        "{said}"
    );
    assert_eq!(said.matches("error[MQ2215]").count(), 1, "{said}");

    let renamed = variant(&dir.path().join("renamed"), |root| {
        std::fs::remove_file(root.join("$themes.json")).unwrap();
        for (from, to) in [("light", "a"), ("dark", "b")] {
            std::fs::rename(
                root.join(format!("public/theme/{from}.json")),
                root.join(format!("public/theme/{to}.json")),
            )
            .unwrap();
        }
    });
    let said = ask(&renamed);
    assert!(said.contains(devices), "{said}");
    assert!(
        said.contains("are `public/theme/a`, `public/theme/b` modes or layers?"),
        "{said}"
    );
    assert_eq!(said.matches("error[MQ2215]").count(), 2, "{said}");
}

/// `$themes` with `tablet` the first theme of Device: tablet is Device's
/// default, and `desktop` a context that restores desktop's values over
/// it. The `boolean.device.*` tokens desktop and tablet give different
/// values are left out in both places, as every boolean is (MQ1703): the
/// copy the desktop context restores was found by no later reading once
/// the base's was taken out, and stopped the import with MQ1305.
#[test]
fn nve_with_tablet_its_first_device_makes_it_the_default_and_still_imports() {
    let dir = tempfile::tempdir().unwrap();
    let input = variant(&dir.path().join("nve"), |root| {
        edit_json(&root.join("$themes.json"), |t| {
            let themes = t.as_array_mut().unwrap();
            let tablet = themes.iter().position(|t| t["name"] == "tablet").unwrap();
            let desktop = themes.iter().position(|t| t["name"] == "desktop").unwrap();
            themes.swap(tablet, desktop);
        });
    });
    let out = dir.path().join("out");
    let (ok, said) = import(&[
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--allow-partial",
    ]);
    assert!(ok && !said.contains("MQ1305"), "{said}");
    assert!(
        said.contains("Device (tablet, desktop-large, desktop, mobile, mobile-small)\n"),
        "{said}"
    );
    let devices: Vec<(String, usize, usize)> = published(&said)
        .into_iter()
        .filter(|(c, _, _)| c.starts_with("Device "))
        .collect();
    // Set by each over tablet's values, counted in Python as above.
    let expected = [
        ("Device tablet", 0),
        ("Device desktop-large", 38),
        ("Device desktop", 38),
        ("Device mobile", 38),
        ("Device mobile-small", 41),
    ];
    assert_eq!(devices, expected.map(|(c, own)| (c.to_string(), 702, own)));
}
