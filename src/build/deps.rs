//! What a brand's render depends on besides its own files: the brands it
//! extends (a family's child renders its parent's tokens as its own,
//! DESIGN.md section 18). A brand's input folds in the inputs of the
//! brands it depends on, so a change to one brand reaches every brand that
//! depends on it, and only those: the rebuild set is computed from this
//! graph, never assumed to be the brand whose files changed.
//!
//! A child pinned to a range of its parent's releases depends here on the
//! parent as a whole, which rebuilds it more often than it needs, never
//! less; its surfaces stay byte-identical when nothing it uses changed.

use crate::spec::BrandFiles;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, BTreeSet};

/// Most brands a chain of parents may have (DESIGN.md section 18); past
/// it, and around a cycle, nothing more is folded in (the model reports
/// both as errors of the child).
pub const MAX_DEPTH: usize = 8;

/// Each brand's parents, by slug.
#[derive(Debug, Default)]
pub struct Dependencies {
    parents: BTreeMap<String, Vec<String>>,
}

impl Dependencies {
    /// The dependencies among `brands`, as their files name them.
    pub fn of<'a>(brands: impl IntoIterator<Item = &'a BrandFiles>) -> Dependencies {
        let parents = brands
            .into_iter()
            .filter_map(|f| Some((f.slug.clone(), vec![f.parent()?.to_string()])))
            .collect();
        Dependencies { parents }
    }

    /// True when no brand depends on another (then every input is its own).
    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }

    /// Each brand's input with the inputs of everything it depends on
    /// folded in, nearest parent first, from `own` (each brand's input from
    /// its own files). A parent that is not in `own` adds its name only:
    /// its arrival changes the child's input too.
    pub fn fold(&self, own: &BTreeMap<String, [u8; 32]>) -> BTreeMap<String, [u8; 32]> {
        let mut out = own.clone();
        for slug in self.parents.keys().filter(|s| own.contains_key(*s)) {
            let mut h = Sha256::new();
            h.update(own[slug]);
            let mut seen = BTreeSet::from([slug.as_str()]);
            let mut at = slug.as_str();
            for _ in 0..MAX_DEPTH {
                let Some(parent) = self.parents.get(at).and_then(|p| p.first()) else {
                    break;
                };
                h.update(parent.as_bytes());
                h.update([0]);
                if !seen.insert(parent) {
                    break;
                }
                if let Some(input) = own.get(parent) {
                    h.update(input);
                }
                at = parent;
            }
            out.insert(slug.clone(), h.finalize().into());
        }
        out
    }

    /// The brands that depend on any of `changed`, directly or through
    /// others, `changed` included: what a change to them rebuilds.
    pub fn reached_by(&self, changed: &BTreeSet<String>) -> BTreeSet<String> {
        let mut reached = changed.clone();
        loop {
            let more: Vec<String> = self
                .parents
                .iter()
                .filter(|(child, parents)| {
                    !reached.contains(*child) && parents.iter().any(|p| reached.contains(p))
                })
                .map(|(child, _)| child.clone())
                .collect();
            if more.is_empty() {
                return reached;
            }
            reached.extend(more);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brand(slug: &str, extends: Option<&str>, colour: &str) -> BrandFiles {
        let json = match extends {
            Some(p) => format!(r#"{{"name": "{slug}", "extends": "{p}", "c": "{colour}"}}"#),
            None => format!(r#"{{"name": "{slug}", "c": "{colour}"}}"#),
        };
        BrandFiles::from_texts(slug, [("brand.json", json.as_bytes())])
    }

    fn inputs(brands: &[BrandFiles]) -> BTreeMap<String, [u8; 32]> {
        let own = brands
            .iter()
            .map(|b| (b.slug.clone(), b.digest()))
            .collect();
        Dependencies::of(brands).fold(&own)
    }

    /// The brands whose input changed between two versions of the content.
    fn rebuilt(before: &[BrandFiles], after: &[BrandFiles]) -> Vec<String> {
        let (a, b) = (inputs(before), inputs(after));
        b.iter()
            .filter(|(slug, input)| a.get(*slug) != Some(*input))
            .map(|(slug, _)| slug.clone())
            .collect()
    }

    #[test]
    fn a_change_rebuilds_the_brands_that_depend_on_it_and_only_those() {
        let family = |core: &str, child: &str| {
            vec![
                brand("core", None, core),
                brand("retail", Some("core"), child),
                brand("outlet", Some("retail@^1.0"), "x"),
                brand("other", None, "y"),
            ]
        };
        let before = family("blue", "red");
        // The parent: itself, its child and its grandchild.
        assert_eq!(
            rebuilt(&before, &family("green", "red")),
            ["core", "outlet", "retail"]
        );
        // A child: itself and its own child, not its parent.
        assert_eq!(
            rebuilt(&before, &family("blue", "pink")),
            ["outlet", "retail"]
        );
        // Nothing changed: nothing is rebuilt.
        assert!(rebuilt(&before, &family("blue", "red")).is_empty());
        let deps = Dependencies::of(&before);
        assert_eq!(
            deps.reached_by(&BTreeSet::from(["core".to_string()])),
            BTreeSet::from(["core", "outlet", "retail"].map(String::from))
        );
    }

    #[test]
    fn a_cycle_or_a_missing_parent_folds_what_there_is_and_ends() {
        let cycle = [brand("a", Some("b"), "1"), brand("b", Some("a"), "2")];
        let changed = [brand("a", Some("b"), "1"), brand("b", Some("a"), "3")];
        assert_eq!(rebuilt(&cycle, &changed), ["a", "b"]);
        // A parent arriving changes its child's input.
        let orphan = [brand("kid", Some("gone"), "1")];
        let adopted = [brand("kid", Some("gone"), "1"), brand("gone", None, "2")];
        assert_eq!(rebuilt(&orphan, &adopted), ["gone", "kid"]);
        // Brands without `extends` keep their own input.
        let plain = [brand("solo", None, "1")];
        assert_eq!(inputs(&plain)["solo"], plain[0].digest());
    }
}
