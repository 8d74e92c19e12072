//! Themes a Tokens Studio document keeps without `$themes`: sets whose
//! names differ only by a mode word of one axis, and that do not refer to
//! one another, are the contexts of that axis's modifier.

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

/// Themes made of a document without `$themes`, where the sets' names
/// make them plain: sets whose names differ only by mode words of one
/// axis (`semantic/light.json`, `semantic/dark.json`; `theme-dark`), and
/// that do not refer to one another's tokens, are the contexts of that
/// axis's modifier, over every other set. Never a guess from order: a set
/// that refers to another, or a name with no mode word, stays a layer.
pub(super) fn inferred_themes(
    names: &[&str],
    written: &[Written<'_>],
    d: &mut FileDiags<'_>,
) -> Vec<Group> {
    // By axis and the name with its mode word blanked: (word, set).
    let mut families: BTreeMap<(&str, String), Vec<(String, usize)>> = BTreeMap::new();
    for (s, name) in names.iter().enumerate() {
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
        .filter(|s| !in_a_context.contains(s))
        .collect();
    let mut groups = Vec::new();
    for (axis, mut contexts) in axes {
        // The default first: `light`, `default`, `base`…; else the first
        // set written, never the alphabetical first (`dark`).
        let default = DEFAULT_CONTEXTS
            .iter()
            .find_map(|w| contexts.iter().position(|(c, _)| c == w))
            .unwrap_or(0);
        let first = contexts.remove(default);
        contexts.insert(0, first);
        let described: Vec<String> = contexts
            .iter()
            .map(|(c, sets)| {
                let sets: Vec<&str> = sets.iter().map(|s| names[*s]).collect();
                format!("{c} ({})", sets.join(", "))
            })
            .collect();
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
