//! Tokens Studio's theme groups as the system defines them. Each group is
//! an axis, as Tokens Studio and sd-transforms' `permutateThemes` treat
//! them: one theme of every group applies at once. Two groups are
//! alternatives instead, and their themes the contexts of ONE modifier,
//! when themes of both select sets that define the same tokens (brand
//! groups each with their own light and dark sets), or when Figma says
//! their themes are modes of one collection (`$figmaCollectionId`): every
//! combination of them would be a theme the system does not have, and a
//! default of each group's first theme at once would publish one brand's
//! colours over another's.
//!
//! Each modifier's default is its theme named `light`, `default` or
//! `base`, else the first the system declares; never the alphabetical
//! first. Each theme's colour scheme is read from the mode words of its
//! name and of the sets it selects (`night`, `🌚 Brand Dark`,
//! `semantic/color/dark`), so `color-scheme` follows the theme.

use super::{Group, Written};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// Names of a default theme.
const DEFAULT_THEMES: &[&str] = &["light", "default", "base"];

/// Words that make a theme dark, or light.
const DARK_WORDS: &[&str] = &["dark", "night", "dim", "dimmed", "darker", "black"];
const LIGHT_WORDS: &[&str] = &["light", "day", "lighter", "white"];

/// The groups of `$themes` as the system defines them: groups that are
/// alternatives merged into one (its contexts exactly their themes, named
/// `group theme` where two groups share a theme's name), each with its
/// default theme first. `doc_themes` is `$themes`, read for Figma's ids.
pub(super) fn as_the_system_defines(
    groups: Vec<Group>,
    written: &[Written<'_>],
    doc_themes: Option<&Value>,
) -> Vec<Group> {
    let defines = defined_names(written);
    let figma = figma_collections(doc_themes);
    // Union-find over the groups.
    let mut parent: Vec<usize> = (0..groups.len()).collect();
    fn root(p: &mut [usize], i: usize) -> usize {
        let mut i = i;
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for a in 0..groups.len() {
        for b in a + 1..groups.len() {
            if alternatives(&groups[a], &groups[b], &defines, &figma) {
                let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
                parent[rb.max(ra)] = ra.min(rb);
            }
        }
    }
    let mut merged: Vec<(Vec<usize>, Group)> = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let r = root(&mut parent, g);
        match merged.iter_mut().find(|(members, _)| members[0] == r) {
            Some((members, _)) => members.push(g),
            None => merged.push((vec![g], group.clone())),
        }
    }
    let taken: HashSet<&str> = groups.iter().map(|(n, _)| n.as_str()).collect();
    let mut out: Vec<Group> = Vec::new();
    for (members, single) in merged {
        let mut group = match members.len() {
            1 => single,
            _ => {
                let parts: Vec<&Group> = members.iter().map(|g| &groups[*g]).collect();
                one_modifier(&parts, &taken)
            }
        };
        default_first(&mut group.1);
        out.push(group);
    }
    out
}

/// Groups `parts`, alternatives of one another, as one modifier whose
/// contexts are exactly their themes, in the order they are declared.
fn one_modifier(parts: &[&Group], taken: &HashSet<&str>) -> Group {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for (_, themes) in parts {
        for (t, _) in themes {
            *seen.entry(t.as_str()).or_default() += 1;
        }
    }
    let themes = parts
        .iter()
        .flat_map(|(g, themes)| {
            let seen = &seen;
            themes.iter().map(move |(t, sets)| {
                let name = match seen[t.as_str()] {
                    1 => t.clone(),
                    _ => format!("{g} {t}"),
                };
                (name, sets.clone())
            })
        })
        .collect();
    let names: Vec<&str> = parts.iter().map(|(g, _)| g.as_str()).collect();
    let name = match taken.contains("theme") {
        false => "theme".to_string(),
        true => names.join(" "),
    };
    (name, themes)
}

/// Puts the default theme first: the one named `light`, `default` or
/// `base`, else the first declared (it already is).
fn default_first(themes: &mut Vec<(String, Vec<usize>)>) {
    let named = DEFAULT_THEMES.iter().find_map(|d| {
        themes
            .iter()
            .position(|(t, _)| t.trim().eq_ignore_ascii_case(d))
    });
    if let Some(i) = named {
        let theme = themes.remove(i);
        themes.insert(0, theme);
    }
}

/// True when no two of `names` (sets of token names) could be told apart
/// by which applies: they define the same tokens.
fn same_tokens(a: &HashSet<&str>, b: &HashSet<&str>) -> bool {
    let shared = a.intersection(b).count();
    shared > 0 && shared * 2 >= a.len().min(b.len())
}

/// Groups `a` and `b` are alternatives: a theme of each selects sets
/// (other than those both select) that define the same tokens, or their
/// themes are modes of one Figma collection.
fn alternatives(
    a: &Group,
    b: &Group,
    defines: &HashMap<usize, HashSet<String>>,
    figma: &HashMap<(String, String), String>,
) -> bool {
    let collections = |g: &Group| -> HashSet<&String> {
        g.1.iter()
            .filter_map(|(t, _)| figma.get(&(g.0.clone(), t.clone())))
            .collect()
    };
    if !collections(a).is_disjoint(&collections(b)) {
        return true;
    }
    let own = |g: &Group| -> Vec<Vec<usize>> {
        // Sets every theme of the group selects are always on: the base.
        g.1.iter()
            .map(|(_, sets)| {
                sets.iter()
                    .copied()
                    .filter(|s| !g.1.iter().all(|(_, other)| other.contains(s)))
                    .collect()
            })
            .collect()
    };
    let names = |sets: &[usize], not: &[usize]| -> HashSet<&str> {
        sets.iter()
            .filter(|s| !not.contains(s))
            .filter_map(|s| defines.get(s))
            .flatten()
            .map(String::as_str)
            .collect()
    };
    let (own_a, own_b) = (own(a), own(b));
    own_a.iter().any(|x| {
        own_b
            .iter()
            .any(|y| same_tokens(&names(x, y), &names(y, x)))
    })
}

/// The token names each set defines.
fn defined_names(written: &[Written<'_>]) -> HashMap<usize, HashSet<String>> {
    let mut defines: HashMap<usize, HashSet<String>> = HashMap::new();
    for w in written {
        defines.entry(w.set).or_default().insert(w.path.join("."));
    }
    defines
}

/// Each theme's `$figmaCollectionId`, by (group, name).
fn figma_collections(doc_themes: Option<&Value>) -> HashMap<(String, String), String> {
    doc_themes
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| {
            let name = t.get("name")?.as_str()?;
            let group = t.get("group").and_then(Value::as_str).unwrap_or("theme");
            let id = t.get("$figmaCollectionId")?.as_str()?;
            Some(((group.to_string(), name.to_string()), id.to_string()))
        })
        .collect()
}

/// The colour scheme of a theme named `theme` that selects sets named
/// `sets`: `dark` or `light` when a mode word of its name, else of its
/// sets' names, says so.
pub(super) fn scheme_of(theme: &str, sets: &[&str]) -> Option<&'static str> {
    let said = |name: &str| -> Option<&'static str> {
        let lower = name.to_lowercase();
        let words: Vec<&str> = lower
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let dark = words.iter().any(|w| DARK_WORDS.contains(w));
        let light = words.iter().any(|w| LIGHT_WORDS.contains(w));
        match (dark, light) {
            (true, false) => Some("dark"),
            (false, true) => Some("light"),
            _ => None,
        }
    };
    said(theme).or_else(|| {
        let found: HashSet<&'static str> = sets.iter().filter_map(|s| said(s)).collect();
        match found.len() {
            1 => found.into_iter().next(),
            _ => None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_theme_s_scheme_is_its_words_not_its_exact_name() {
        assert_eq!(scheme_of("y-night-hc", &[]), Some("dark"));
        assert_eq!(scheme_of("🌚 Brand Dark", &[]), Some("dark"));
        assert_eq!(scheme_of("Bet9ja Light", &[]), Some("light"));
        assert_eq!(
            scheme_of("Acme", &["core", "semantic/color/dark"]),
            Some("dark")
        );
        assert_eq!(scheme_of("Compact", &["core", "density/compact"]), None);
    }

    #[test]
    fn the_default_is_light_default_or_base_else_the_first_declared() {
        let mut t = vec![("dark".to_string(), vec![]), ("Light".to_string(), vec![])];
        default_first(&mut t);
        assert_eq!(t[0].0, "Light");
        let mut t = vec![
            ("x-day".to_string(), vec![]),
            ("a-night".to_string(), vec![]),
        ];
        default_first(&mut t);
        assert_eq!(t[0].0, "x-day");
    }
}
