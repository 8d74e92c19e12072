//! Themes a Tokens Studio document keeps without `$themes`: sets whose
//! names differ only by a mode word of one axis, and that do not refer to
//! one another, are the contexts of that axis's modifier. What cannot be
//! told (no context is `light`, `default` or `base` and no order is
//! declared; sibling sets that define the same tokens with no mode word
//! in their names) is a question, an error with the proposed plan, never
//! a guess. Build output (`dist/`, `build/`) and other platforms' copies
//! (`ios/`, `android/` beside `web/`) are not read, and versions (`v1`,
//! `v2`) stay layers: none of them is a mode.

use super::{references_in, Group, Written};
use crate::spec::diag::{Code, FileDiags};
use std::collections::{BTreeMap, HashMap, HashSet};

/// Mode words, by the axis (the modifier) they name; a set whose name
/// holds one is a context of that axis.
const MODE_WORDS: &[(&str, &[&str])] = &[
    (
        "theme",
        &[
            "light", "dark", "dim", "dimmed", "day", "night", "darker", "lighter",
        ],
    ),
    (
        "contrast",
        &["contrast", "high-contrast", "hc", "low-contrast"],
    ),
    (
        "density",
        &[
            "compact",
            "comfortable",
            "cozy",
            "spacious",
            "condensed",
            "dense",
            "regular",
        ],
    ),
];

/// The context that is a modifier's default, when one of these names it.
const DEFAULT_CONTEXTS: &[&str] = &[
    "light",
    "default",
    "base",
    "day",
    "normal",
    "regular",
    "comfortable",
    "contrast",
];

/// The axis a word of a set's name names, if it is a mode word.
fn axis_of(word: &str) -> Option<&'static str> {
    MODE_WORDS
        .iter()
        .find(|(_, words)| words.contains(&word))
        .map(|(axis, _)| *axis)
}

/// True for a word that names a mode of some axis (`dark`, `compact`).
pub fn is_mode_word(word: &str) -> bool {
    axis_of(word).is_some()
}

/// Themes made of a document without `$themes`, where the sets' names
/// make them plain: sets whose names differ only by mode words of one
/// axis (`semantic/light.json`, `semantic/dark.json`; `theme-dark`), and
/// that do not refer to one another's tokens, are the contexts of that
/// axis's modifier, over every other set. Never a guess from order: a set
/// that refers to another, or a name with no mode word, stays a layer.
pub(super) fn inferred_themes(
    names: &[&str],
    written: &[Written<'_>],
    declared: bool,
    skipped: &[usize],
    given: &[String],
    d: &mut FileDiags<'_>,
) -> Vec<Group> {
    // Names a config's selectors give modes are modes of `theme`.
    let axis_of = |w: &str| match given.iter().any(|g| g == w) {
        true => Some("theme"),
        false => axis_of(w),
    };
    // By axis and the name with its mode word blanked: (word, set).
    let mut families: BTreeMap<(&str, String), Vec<(String, usize)>> = BTreeMap::new();
    for (s, name) in names.iter().enumerate() {
        if skipped.contains(&s) {
            continue;
        }
        let lower = name.to_ascii_lowercase();
        let words: Vec<&str> = lower.split(['/', '-', '_', '.', ' ']).collect();
        // The longest mode word first (`high-contrast` before `contrast`).
        let hyphenated = ["high-contrast", "low-contrast"]
            .into_iter()
            .find(|w| lower.contains(w));
        let found = match hyphenated {
            Some(w) => Some((w.to_string(), lower.replacen(w, "*", 1))),
            None => words.iter().find(|w| axis_of(w).is_some()).map(|w| {
                let blanked: Vec<&str> = words
                    .iter()
                    .map(|x| if x == w { "*" } else { *x })
                    .collect();
                (w.to_string(), blanked.join("/"))
            }),
        };
        if let Some((word, pattern)) = found {
            if let Some(axis) = axis_of(&word) {
                families.entry((axis, pattern)).or_default().push((word, s));
            }
        }
    }
    // What each set defines, and the names its tokens refer to.
    let mut defines: HashMap<usize, HashSet<String>> = HashMap::new();
    let mut refers: HashMap<usize, Vec<String>> = HashMap::new();
    for w in written {
        defines.entry(w.set).or_default().insert(w.path.join("."));
        references_in(w.value, refers.entry(w.set).or_default(), 0);
    }
    let mut axes: BTreeMap<&str, Vec<(String, Vec<usize>)>> = BTreeMap::new();
    for ((axis, _), members) in families {
        let words: HashSet<&str> = members.iter().map(|(w, _)| w.as_str()).collect();
        if words.len() < 2 {
            continue;
        }
        // A set that refers to another of the family is a layer over it.
        let layered = members.iter().any(|(_, a)| {
            members.iter().any(|(_, b)| {
                a != b
                    && refers.get(a).is_some_and(|rs| {
                        rs.iter().any(|r| {
                            let r = r.trim_matches(['{', '}']);
                            defines.get(b).is_some_and(|names| names.contains(r))
                                && !defines.get(a).is_some_and(|names| names.contains(r))
                        })
                    })
            })
        });
        if layered {
            continue;
        }
        let contexts = axes.entry(axis).or_default();
        for (word, s) in members {
            match contexts.iter_mut().find(|(w, _)| *w == word) {
                Some((_, sets)) => sets.push(s),
                None => contexts.push((word, vec![s])),
            }
        }
    }
    let in_a_context: HashSet<usize> = axes
        .values()
        .flatten()
        .flat_map(|(_, sets)| sets.iter().copied())
        .collect();
    let base: Vec<usize> = (0..names.len())
        .filter(|s| !in_a_context.contains(s) && !skipped.contains(s))
        .collect();
    // Sets of no context are layers, unless siblings among them define
    // the same tokens with no mode word: a question, whether or not other
    // sets made a modifier (NVE's devices `tablet`, `mobile`,
    // `mobile-small` beside its `light` and `dark`, without `$themes`,
    // were read as layers, the last overriding the others everywhere).
    let not_siblings: Vec<usize> = (0..names.len())
        .filter(|s| skipped.contains(s) || in_a_context.contains(s))
        .collect();
    undecided_siblings(names, &defines, &refers, &not_siblings, d);
    let mut groups = Vec::new();
    for (axis, mut contexts) in axes {
        // The default first: `light`, `default`, `base`…; else the first
        // set the document orders (`$metadata.tokenSetOrder`), never the
        // alphabetical first (`dark`): without an order, a question.
        // Else the first a config's selectors name.
        let named = DEFAULT_CONTEXTS
            .iter()
            .find_map(|w| contexts.iter().position(|(c, _)| c == w))
            .or_else(|| {
                given
                    .iter()
                    .find_map(|g| contexts.iter().position(|(c, _)| c == g))
            });
        let first = contexts.remove(named.unwrap_or(0));
        contexts.insert(0, first);
        let described: Vec<String> = contexts
            .iter()
            .map(|(c, sets)| {
                let sets: Vec<&str> = sets.iter().map(|s| names[*s]).collect();
                format!("{c} ({})", sets.join(", "))
            })
            .collect();
        if named.is_none() && !declared {
            d.push(
                Code::ModesUndecided,
                "",
                format!(
                    "which context is the default? The sets' names make a modifier `{axis}` of contexts {}, and none is `light`, `default` or `base`, and no `$metadata.tokenSetOrder` orders them; add `$themes`, or a `$metadata.tokenSetOrder` that names the default's set first",
                    described.join(", ")
                ),
            );
        }
        d.push(
            Code::ModesInferred,
            "",
            format!(
                "without `$themes`, the sets' names make a modifier `{axis}` of contexts {}; `{}` is its default; add `$themes` to say otherwise",
                described.join(", "),
                contexts[0].0
            ),
        );
        let themes = contexts
            .into_iter()
            .map(|(c, mut sets)| {
                sets.extend(base.iter().copied());
                sets.sort_unstable();
                (c, sets)
            })
            .collect();
        groups.push((axis.to_string(), themes));
    }
    groups
}

/// The segment sets are told apart by, when their names differ in one
/// path segment only: `(index, a's, b's)`.
fn differing(a: &str, b: &str) -> Option<(usize, String, String)> {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.split('/').collect(), b.split('/').collect());
    if a.len() != b.len() {
        return None;
    }
    let mut diff = (0..a.len()).filter(|i| a[*i] != b[*i]);
    let i = diff.next()?;
    diff.next()
        .is_none()
        .then(|| (i, a[i].to_ascii_lowercase(), b[i].to_ascii_lowercase()))
}

/// A version segment (`v1`, `v2`, `legacy`, `next`): versions are layers.
fn is_version(segment: &str) -> bool {
    matches!(segment, "legacy" | "next" | "latest" | "old" | "new")
        || segment
            .strip_prefix('v')
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// Sibling sets that define the same tokens, refer to none of each
/// other's, and whose names hold no mode word: modes or layers, marque
/// cannot tell. A question (an error with the plan it would propose),
/// never a guess. Sets told apart by a version are layers, silently.
fn undecided_siblings(
    names: &[&str],
    defines: &HashMap<usize, HashSet<String>>,
    refers: &HashMap<usize, Vec<String>>,
    skipped: &[usize],
    d: &mut FileDiags<'_>,
) {
    let refers_to = |a: usize, b: usize| {
        refers.get(&a).is_some_and(|rs| {
            rs.iter().any(|r| {
                let r = r.trim_matches(['{', '}']);
                defines.get(&b).is_some_and(|n| n.contains(r))
            })
        })
    };
    let mut asked: HashSet<usize> = HashSet::new();
    for a in 0..names.len() {
        if asked.contains(&a) || skipped.contains(&a) {
            continue;
        }
        let Some(tokens) = defines.get(&a).filter(|t| !t.is_empty()) else {
            continue;
        };
        let alike: Vec<usize> = (a + 1..names.len())
            .filter(|b| !skipped.contains(b) && !asked.contains(b))
            .filter(|b| defines.get(b) == Some(tokens))
            .filter(|b| {
                differing(names[a], names[*b])
                    .is_some_and(|(_, x, y)| !is_version(&x) && !is_version(&y))
            })
            .filter(|b| !refers_to(a, *b) && !refers_to(*b, a))
            .collect();
        if alike.is_empty() {
            continue;
        }
        let mut family = vec![a];
        family.extend(alike);
        asked.extend(family.iter().copied());
        let listed: Vec<String> = family.iter().map(|s| format!("`{}`", names[*s])).collect();
        d.push(
            Code::ModesUndecided,
            "",
            format!(
                "are {} modes or layers? They define the same {} token(s) and refer to none of each other's, but their names hold no mode word (light, dark, compact…). Read as layers, the last would override the others everywhere; read as modes, they would be the contexts {} of one modifier. Add `$themes`, or name them by their modes",
                listed.join(", "),
                tokens.len(),
                listed.join(", ")
            ),
        );
    }
}

/// Sets that are not read: a copy under a build output folder (`dist/`,
/// `build/`) of a set that is there, and other platforms' copies
/// (`ios/`, `android/`) of a set that `web/` has. Each is said.
pub(super) fn not_read(names: &[&str], d: &mut FileDiags<'_>) -> Vec<usize> {
    const OUTPUT: &[&str] = &["dist", "build"];
    const PLATFORMS: &[&str] = &[
        "ios",
        "android",
        "flutter",
        "compose",
        "native",
        "mobile-app",
    ];
    let mut out = Vec::new();
    for (s, name) in names.iter().enumerate() {
        let segments: Vec<String> = name.split('/').map(str::to_ascii_lowercase).collect();
        let output = segments.iter().any(|x| OUTPUT.contains(&x.as_str()))
            && names.len() > 1
            && names.iter().any(|o| {
                !o.split('/')
                    .any(|x| OUTPUT.contains(&x.to_ascii_lowercase().as_str()))
            });
        let platform = names.iter().any(|o| {
            differing(name, o).is_some_and(|(_, mine, theirs)| {
                PLATFORMS.contains(&mine.as_str()) && theirs == "web"
            })
        });
        if output || platform {
            let why = match output {
                true => "a build output copy",
                false => "another platform's copy of a `web` set",
            };
            d.push(
                Code::SetNotRead,
                "",
                format!("set `{name}` is not read: it is {why}, not a mode or a layer"),
            );
            out.push(s);
        }
    }
    out
}
