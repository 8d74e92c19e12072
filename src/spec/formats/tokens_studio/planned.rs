//! What a Tokens Studio reading decided, as a [`Plan`]: the sets in the
//! order they apply (source-only ones marked), each modifier with the sets
//! only each context applies and what it was read from, and the sets not
//! read with why.

use super::Group;
use crate::spec::formats::decisions::{Modifier, Plan, Set};
use std::collections::HashSet;

/// Where the themes came from.
pub(super) enum Evidence<'a> {
    /// A plan's own `$themes`: read as it says.
    Plan,
    /// `$themes`, by the groups it declares (before alternatives merge).
    Declared(&'a [Group]),
    /// The sets' names.
    Inferred,
}

/// The plan of a reading: `names` the sets in order, `themes` the groups
/// read, `hidden` the source-only sets, `skipped` those not read.
pub(super) fn plan(
    names: &[&str],
    themes: &[Group],
    hidden: &HashSet<usize>,
    skipped: &[usize],
    evidence: Evidence<'_>,
) -> Plan {
    let selected = |s: usize| {
        themes.is_empty()
            || themes
                .iter()
                .any(|(_, ts)| ts.iter().any(|(_, sel)| sel.contains(&s)))
    };
    let always = |s: usize| {
        themes
            .iter()
            .any(|(_, ts)| ts.iter().all(|(_, sel)| sel.contains(&s)))
    };
    let mut plan = Plan::default();
    for (s, name) in names.iter().enumerate() {
        if skipped.contains(&s) {
            plan.not_read.push((
                name.to_string(),
                "a build output or another platform's copy (MQ2216)".into(),
            ));
        } else if !selected(s) {
            plan.not_read.push((
                name.to_string(),
                "in no theme of `$themes`, so no context applies it".into(),
            ));
        } else {
            plan.sets.push(Set {
                name: name.to_string(),
                source_only: hidden.contains(&s),
            });
        }
    }
    for (group, ts) in themes.iter().filter(|(_, ts)| ts.len() > 1) {
        let contexts: Vec<(String, Vec<String>)> = ts
            .iter()
            .map(|(t, sel)| {
                let own = sel.iter().filter(|s| !always(**s));
                (t.clone(), own.map(|s| names[*s].to_string()).collect())
            })
            .collect();
        let description = describe(group, ts, &contexts, &evidence);
        plan.modifiers.push(Modifier {
            name: group.clone(),
            description,
            contexts,
        });
    }
    plan
}

/// What a modifier was read from, and why its default is its default.
fn describe(
    group: &str,
    ts: &[(String, Vec<usize>)],
    contexts: &[(String, Vec<String>)],
    evidence: &Evidence<'_>,
) -> String {
    let default = &ts[0].0;
    let named = ["light", "default", "base"].contains(&default.trim().to_lowercase().as_str());
    let why_default = match named {
        true => format!("the default is `{default}`, by its name"),
        false => format!("the default is `{default}`, the first declared"),
    };
    match evidence {
        Evidence::Plan => format!("as the plan says; the default is `{default}`"),
        Evidence::Declared(groups) => {
            let merged: Vec<&str> = groups
                .iter()
                .filter(|(g, themes)| {
                    themes.iter().all(|(t, _)| {
                        ts.iter()
                            .any(|(name, _)| name == t || *name == format!("{g} {t}"))
                    })
                })
                .map(|(g, _)| g.as_str())
                .collect();
            match merged.as_slice() {
                [one] if *one == group => {
                    format!("declared by `$themes`, group `{group}`; {why_default}")
                }
                _ => {
                    // Groups of several themes each (a brand's light and
                    // dark) may be whole brands: say how to keep them so.
                    let brands = merged.len() > 1
                        && groups
                            .iter()
                            .filter(|(g, _)| merged.contains(&g.as_str()))
                            .all(|(_, themes)| themes.len() > 1);
                    let proposal = match brands {
                        true => "; if each group is a whole brand, one brand per group, as a family that `extends` a core, gives each its own `:root`, versions and changelog",
                        false => "",
                    };
                    format!(
                        "`$themes` groups {} are alternatives (their themes define the same tokens, or are modes of one Figma collection), so one modifier of exactly their themes; {why_default}{proposal}",
                        quoted(&merged)
                    )
                }
            }
        }
        Evidence::Inferred => {
            let sets: Vec<&str> = contexts
                .iter()
                .flat_map(|(_, own)| own.iter().map(String::as_str))
                .collect();
            format!(
                "inferred from the sets' names (no `$themes`): {} differ by a mode word (or a mode a config's CSS selector names) and none refers to another (MQ2214); {why_default}",
                quoted(&sets)
            )
        }
    }
}

fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
