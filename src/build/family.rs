//! Families (DESIGN.md section 18): which brands each brand is built
//! over. A brand whose brand.json says `"extends": "core"` is built over
//! `core` as the content has it now; `"core@^3.2"` over the highest
//! release of `core` the range allows. The parents chosen become part of
//! the child's files ([`crate::spec::Lineage`]), so part of its input: a change to a
//! parent rebuilds each brand it reaches, and only those, and a child
//! pinned to a range is not rebuilt until a release in its range moves.
//!
//! A parent whose new files do not validate is given to its children as
//! the version it serves (`last_good_parent`).
//!
//! Pure: the content's brands and releases in, each brand's lineage out.

use super::Catalog;
use crate::source::{Content, Pinned};
use crate::spec::diag::has_errors;
use crate::spec::lineage::{lineage, Release};
use crate::spec::parse_brand;
use crate::spec::{BrandFiles, Dependent};
use chrono::NaiveDate;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// `content` with each brand that says `"extends"` given its lineage.
/// Content without a family is returned as it is.
pub fn settle(content: &Content) -> Cow<'_, Content> {
    settle_over(content, &|f| f.clone())
}

/// [`settle`], each parent's head as `as_parent` gives it: the build gives
/// a parent whose new files do not validate as its last good files, so a
/// parent held back by an error passes nothing of that save to its
/// children (they are built over what the parent itself serves).
pub fn settle_over<'c>(
    content: &'c Content,
    as_parent: &dyn Fn(&Arc<BrandFiles>) -> Arc<BrandFiles>,
) -> Cow<'c, Content> {
    if content
        .brands
        .iter()
        .all(|f| f.parent().is_none() && f.dependents.is_empty())
    {
        return Cow::Borrowed(content);
    }
    let parents: std::collections::BTreeSet<String> = content
        .brands
        .iter()
        .filter_map(|f| Some(f.extends()?.0))
        .collect();
    let heads: BTreeMap<&str, Arc<BrandFiles>> = content
        .brands
        .iter()
        .map(|f| {
            let head = match parents.contains(&f.slug) {
                true => as_parent(f),
                false => f.clone(),
            };
            (f.slug.as_str(), head)
        })
        .collect();
    let releases = releases_of(&content.pinned);
    let dependents = dependents(content);
    let brands = content
        .brands
        .iter()
        .map(|f| {
            let mut f = f.clone();
            if f.parent().is_some() {
                let head = |slug: &str| heads.get(slug).cloned();
                let releases = |slug: &str| releases.get(slug).cloned().unwrap_or_default();
                let lineage = lineage(&f, &head, &releases);
                if lineage != f.lineage {
                    f = Arc::new(f.with_lineage(lineage));
                }
            }
            if let Some(children) = dependents.get(&f.slug) {
                if **children != *f.dependents {
                    f = Arc::new(f.with_dependents(children.clone()));
                }
            }
            f
        })
        .collect();
    Cow::Owned(Content {
        brands,
        ..content.clone()
    })
}

/// Each brand's releases, by slug.
pub fn releases_of(pinned: &[Arc<Pinned>]) -> BTreeMap<&str, Vec<Release>> {
    let mut out: BTreeMap<&str, Vec<Release>> = BTreeMap::new();
    for p in pinned {
        out.entry(p.files.slug.as_str())
            .or_default()
            .push((p.release.version.clone(), p.files.clone()));
    }
    out
}

/// Each brand's direct children, with the range each names it by and
/// its version: what a parent's `family.json` lists. A child that may be
/// private or embargoed (its brand.json says `visibility` or `embargo`,
/// or escapes a character) is not named: the parent's surfaces are
/// public.
pub fn dependents(content: &Content) -> BTreeMap<String, Arc<[Dependent]>> {
    let mut out: BTreeMap<String, Vec<Dependent>> = BTreeMap::new();
    for f in &content.brands {
        let Some((parent, range)) = f.extends() else {
            continue;
        };
        if crate::spec::visibility::Guard::of(f).any() {
            continue;
        }
        let json = f.get("brand.json").map_or(&[][..], |b| &b[..]);
        let version = crate::spec::brand::brand_json(json)
            .and_then(|doc| Some(doc.get("version")?.as_str()?.to_string()))
            .unwrap_or_default();
        out.entry(parent).or_default().push(Dependent {
            slug: f.slug.clone(),
            range,
            version,
        });
    }
    out.into_iter().map(|(k, v)| (k, v.into())).collect()
}

/// The files a parent's children are built over: its own, unless they do
/// not validate while an earlier version of it is served; then those it
/// serves (so a parent held back by an error passes nothing of that save on).
pub(super) fn last_good_parent(
    files: &Arc<BrandFiles>,
    previous: &Catalog,
    today: NaiveDate,
) -> Arc<BrandFiles> {
    let Some(served) = previous
        .brands
        .get(&files.slug)
        .and_then(|s| s.published.as_ref())
    else {
        return files.clone();
    };
    let last = served.model.brand.files();
    if last.digest() == files.digest() {
        return files.clone();
    }
    // Checked over the parents it was last built over (its own lineage is
    // settled with the rest).
    let checked = files.with_lineage(last.lineage.clone());
    match has_errors(&parse_brand(&checked, today).1) {
        true => last.clone(),
        false => files.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::diag::Code;
    use crate::spec::Lineage;

    fn brand(slug: &str, extends: Option<&str>, colour: &str) -> Arc<BrandFiles> {
        let json = match extends {
            Some(p) => format!(r#"{{"name": "{slug}", "extends": "{p}", "c": "{colour}"}}"#),
            None => format!(r#"{{"name": "{slug}", "c": "{colour}"}}"#),
        };
        Arc::new(BrandFiles::from_texts(
            slug,
            [("brand.json", json.as_bytes())],
        ))
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
        let ranged = content(vec![
            brand("core", None, "1"),
            brand("kid", Some("core@^2"), "1"),
        ]);
        assert!(matches!(
            &settle(&ranged).brands[1].lineage,
            Lineage::Broken(Code::NoReleaseInRange, m) if m.contains("no release tag")
        ));
        let nonsense = content(vec![
            brand("core", None, "1"),
            brand("kid", Some("core@banana"), "1"),
        ]);
        assert!(matches!(
            &settle(&nonsense).brands[1].lineage,
            Lineage::Broken(Code::InvalidParent, _)
        ));
        // A public brand may not extend a private one; a private one may.
        let secret = Arc::new(BrandFiles::from_texts(
            "secret",
            [(
                "brand.json",
                &br#"{"name": "s", "visibility": "private"}"#[..],
            )],
        ));
        let public = content(vec![secret.clone(), brand("kid", Some("secret"), "1")]);
        assert!(matches!(
            &settle(&public).brands[1].lineage,
            Lineage::Broken(Code::PrivateParent, _)
        ));
        let private_kid = Arc::new(BrandFiles::from_texts(
            "kid",
            [(
                "brand.json",
                &br#"{"name": "k", "extends": "secret", "visibility": "private"}"#[..],
            )],
        ));
        let private = content(vec![secret, private_kid]);
        assert!(matches!(
            &settle(&private).brands[1].lineage,
            Lineage::Parents(_)
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
