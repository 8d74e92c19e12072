//! Families (DESIGN.md section 18): which brands each brand is built
//! over. A brand whose brand.json says `"extends": "core"` is built over
//! `core` as the content has it now; `"core@^3.2"` over the highest
//! release of `core` the range allows. The parents chosen become part of
//! the child's files ([`Lineage`]), so part of its input: a change to a
//! parent rebuilds each brand it reaches, and only those, and a child
//! pinned to a range is not rebuilt until a release in its range moves.
//!
//! Pure: the content's brands and releases in, each brand's lineage out.

use crate::source::{Content, Pinned};
use crate::spec::diag::Code;
use crate::spec::{BrandFiles, Lineage, Parent};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Most parents a brand may have in a chain (DESIGN.md section 18).
pub const MAX_DEPTH: usize = 8;

/// `content` with each brand that says `"extends"` given its lineage.
/// Content without a family is returned as it is.
pub fn settle(content: &Content) -> Cow<'_, Content> {
    if content.brands.iter().all(|f| f.parent().is_none()) {
        return Cow::Borrowed(content);
    }
    let heads: BTreeMap<&str, &Arc<BrandFiles>> = content
        .brands
        .iter()
        .map(|f| (f.slug.as_str(), f))
        .collect();
    let releases = releases_of(&content.pinned);
    let brands = content
        .brands
        .iter()
        .map(|f| match f.parent() {
            None => f.clone(),
            Some(_) => {
                let lineage = lineage(f, &|slug| heads.get(slug).map(|f| (*f).clone()), &releases);
                match lineage == f.lineage {
                    true => f.clone(),
                    false => Arc::new(f.with_lineage(lineage)),
                }
            }
        })
        .collect();
    Cow::Owned(Content {
        brands,
        ..content.clone()
    })
}

/// Each brand's releases, by slug.
pub fn releases_of(pinned: &[Arc<Pinned>]) -> BTreeMap<&str, Vec<&Arc<Pinned>>> {
    let mut out: BTreeMap<&str, Vec<&Arc<Pinned>>> = BTreeMap::new();
    for p in pinned {
        out.entry(p.files.slug.as_str()).or_default().push(p);
    }
    out
}

/// The lineage of `child`: each parent named by `extends` in turn, a
/// parent's head from `head`, a range's release from `releases`.
pub fn lineage(
    child: &BrandFiles,
    head: &dyn Fn(&str) -> Option<Arc<BrandFiles>>,
    releases: &BTreeMap<&str, Vec<&Arc<Pinned>>>,
) -> Lineage {
    let mut parents: Vec<Parent> = Vec::new();
    let mut seen = vec![child.slug.clone()];
    let mut at: Arc<BrandFiles> = Arc::new(child.with_lineage(Lineage::None));
    while let Some((slug, range)) = at.extends() {
        let broken = |code, message: String| Lineage::Broken(code, message);
        if seen.contains(&slug) {
            seen.push(slug);
            return broken(
                Code::ExtendsCycle,
                format!(
                    "`extends` leads back where it started, a cycle: {}; make one of them extend nothing",
                    seen.join(" → ")
                ),
            );
        }
        if parents.len() == MAX_DEPTH {
            return broken(
                Code::FamilyTooDeep,
                format!("the chain of parents is longer than {MAX_DEPTH} ({}…); extend a brand nearer the core", seen.join(" → ")),
            );
        }
        let parent = match &range {
            None => match head(&slug) {
                Some(files) => Parent {
                    files,
                    range: None,
                    release: None,
                },
                None => {
                    let whose = match parents.last() {
                        Some(p) => format!(", which `{}` extends,", p.files.slug),
                        None => String::new(),
                    };
                    return broken(
                        Code::ParentMissing,
                        format!("the parent `{slug}`{whose} is not a brand of this content; correct the slug, or add its folder"),
                    );
                }
            },
            Some(text) => {
                let Ok(req) = semver::VersionReq::parse(text) else {
                    return broken(
                        Code::InvalidParent,
                        format!("`{slug}@{text}`: `{text}` is not a semver range; write one such as `{slug}@^1.2`"),
                    );
                };
                let theirs = releases.get(slug.as_str()).map_or(&[][..], Vec::as_slice);
                let best = theirs
                    .iter()
                    .filter(|p| req.matches(&p.release.version))
                    .max_by(|a, b| a.release.version.cmp(&b.release.version));
                match best {
                    Some(p) => Parent {
                        files: p.files.clone(),
                        range: Some(text.clone()),
                        release: Some(p.release.version.clone()),
                    },
                    None => {
                        let mut versions: Vec<String> =
                            theirs.iter().map(|p| p.release.version.to_string()).collect();
                        versions.sort();
                        let have = match versions.is_empty() {
                            true => format!("`{slug}` has no release tag (`{slug}@<version>`)"),
                            false => format!("its releases are {}", versions.join(", ")),
                        };
                        return broken(
                            Code::NoReleaseInRange,
                            format!("no release of `{slug}` satisfies `{text}`: {have}; tag one in the range, or widen it"),
                        );
                    }
                }
            }
        };
        seen.push(slug);
        // A release built over its own parents brings them.
        let settled = parent.files.lineage.clone();
        at = parent.files.clone();
        parents.push(parent);
        match settled {
            Lineage::None => {}
            Lineage::Parents(more) => {
                parents.extend(more.iter().cloned());
                if parents.len() > MAX_DEPTH {
                    return Lineage::Broken(
                        Code::FamilyTooDeep,
                        format!("the chain of parents is longer than {MAX_DEPTH}; extend a brand nearer the core"),
                    );
                }
                break;
            }
            Lineage::Broken(code, message) => {
                let p = parents.last().map(|p| p.files.slug.clone()).unwrap_or_default();
                return Lineage::Broken(code, format!("the release of `{p}` it takes cannot be built: {message}"));
            }
        }
    }
    match parents.is_empty() {
        true => Lineage::None,
        false => Lineage::Parents(parents.into()),
    }
}

/// Each brand's direct children, with the range each names it by: what
/// a parent's `family.json` lists.
pub fn dependents(content: &Content) -> BTreeMap<String, Vec<(String, Option<String>)>> {
    let mut out: BTreeMap<String, Vec<(String, Option<String>)>> = BTreeMap::new();
    for f in &content.brands {
        if let Some((parent, range)) = f.extends() {
            out.entry(parent).or_default().push((f.slug.clone(), range));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brand(slug: &str, extends: Option<&str>, colour: &str) -> Arc<BrandFiles> {
        let json = match extends {
            Some(p) => format!(r#"{{"name": "{slug}", "extends": "{p}", "c": "{colour}"}}"#),
            None => format!(r#"{{"name": "{slug}", "c": "{colour}"}}"#),
        };
        Arc::new(BrandFiles::from_texts(slug, [("brand.json", json.as_bytes())]))
    }

    fn content(brands: Vec<Arc<BrandFiles>>) -> Content {
        Content {
            brands,
            ..Content::default()
        }
    }

    /// The brands whose input changed between two versions of the content.
    fn rebuilt(before: &Content, after: &Content) -> Vec<String> {
        let digests = |c: &Content| -> BTreeMap<String, [u8; 32]> {
            settle(c)
                .brands
                .iter()
                .map(|f| (f.slug.clone(), f.digest()))
                .collect()
        };
        let (a, b) = (digests(before), digests(after));
        b.iter()
            .filter(|(slug, d)| a.get(*slug) != Some(*d))
            .map(|(slug, _)| slug.clone())
            .collect()
    }

    #[test]
    fn a_change_rebuilds_the_brands_that_depend_on_it_and_only_those() {
        let family = |core: &str, child: &str| {
            content(vec![
                brand("core", None, core),
                brand("retail", Some("core"), child),
                brand("outlet", Some("retail"), "x"),
                brand("other", None, "y"),
            ])
        };
        let before = family("blue", "red");
        assert_eq!(
            rebuilt(&before, &family("green", "red")),
            ["core", "outlet", "retail"]
        );
        assert_eq!(
            rebuilt(&before, &family("blue", "pink")),
            ["outlet", "retail"]
        );
        assert!(rebuilt(&before, &family("blue", "red")).is_empty());
        let settled = settle(&before);
        let outlet = settled.brands.iter().find(|f| f.slug == "outlet").unwrap();
        let chain: Vec<&str> = outlet
            .lineage
            .parents()
            .iter()
            .map(|p| p.files.slug.as_str())
            .collect();
        assert_eq!(chain, ["retail", "core"]);
    }

    #[test]
    fn a_cycle_a_missing_parent_and_a_bad_range_are_broken() {
        let c = content(vec![brand("a", Some("b"), "1"), brand("b", Some("a"), "2")]);
        let settled = settle(&c);
        for f in &settled.brands {
            assert!(
                matches!(&f.lineage, Lineage::Broken(Code::ExtendsCycle, m) if m.contains("cycle")),
                "{:?}",
                f.lineage
            );
        }
        let orphan = content(vec![brand("kid", Some("gone"), "1")]);
        assert!(matches!(
            &settle(&orphan).brands[0].lineage,
            Lineage::Broken(Code::ParentMissing, _)
        ));
        let ranged = content(vec![brand("core", None, "1"), brand("kid", Some("core@^2"), "1")]);
        assert!(matches!(
            &settle(&ranged).brands[1].lineage,
            Lineage::Broken(Code::NoReleaseInRange, m) if m.contains("no release tag")
        ));
        let nonsense = content(vec![brand("core", None, "1"), brand("kid", Some("core@banana"), "1")]);
        assert!(matches!(
            &settle(&nonsense).brands[1].lineage,
            Lineage::Broken(Code::InvalidParent, _)
        ));
        let chain: Vec<Arc<BrandFiles>> = (0..10)
            .map(|i| {
                let parent = (i > 0).then(|| format!("b{}", i - 1));
                brand(&format!("b{i}"), parent.as_deref(), "x")
            })
            .collect();
        let deep = settle(&content(chain)).into_owned();
        assert!(matches!(deep.brands[8].lineage, Lineage::Parents(_)));
        assert!(matches!(
            deep.brands[9].lineage,
            Lineage::Broken(Code::FamilyTooDeep, _)
        ));
    }
}
