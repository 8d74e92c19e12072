//! Which brands a brand of a family is built over (DESIGN.md section
//! 18): each parent its `extends` names in turn, a parent's head or the
//! highest of its releases a range allows, until a brand that extends
//! none, or one whose own parents are already settled (a release). Pure:
//! where heads and releases come from is the caller's (the build for the
//! content as it is now, the git reader for a release's tree).

use super::diag::Code;
use super::{BrandFiles, Lineage, Parent};
use std::sync::Arc;

/// Most parents a brand may have in a chain (DESIGN.md section 18).
pub const MAX_DEPTH: usize = 8;

/// True when a brand's brand.json says it is private, or may (see
/// [`super::visibility`]): what a public child may not extend.
fn may_be_private(files: &BrandFiles) -> bool {
    let guard = super::visibility::Guard::of(files);
    (guard.visibility || guard.unknown)
        && super::visibility::declared(files.get("brand.json").map(|b| &b[..])).private
}

/// The refusal of a public brand that extends a private one. It never
/// names the parent: the refusal is shown wherever the child's errors
/// are, to readers who may not know the parent exists.
fn private_parent() -> Lineage {
    Lineage::Broken(
        Code::PrivateParent,
        "`extends` names a brand that is not public, and this brand is public: its surfaces would publish that brand's tokens and name it; make this brand private too, or its parent public".to_string(),
    )
}

/// A release of a brand: its version and its files.
pub type Release = (semver::Version, Arc<BrandFiles>);

/// The lineage of `child`: each parent named by `extends` in turn, a
/// parent's head from `head`, a range's release from `releases`.
pub fn lineage(
    child: &BrandFiles,
    head: &dyn Fn(&str) -> Option<Arc<BrandFiles>>,
    releases: &dyn Fn(&str) -> Vec<Release>,
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
        // Asked before anything of the parent is said (its releases, say).
        if head(&slug).is_some_and(|h| may_be_private(&h)) && !may_be_private(child) {
            return private_parent();
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
                let theirs = releases(&slug);
                let best = theirs
                    .iter()
                    .filter(|(v, _)| req.matches(v))
                    .max_by(|a, b| a.0.cmp(&b.0));
                match best {
                    Some((version, files)) => Parent {
                        files: files.clone(),
                        range: Some(text.clone()),
                        release: Some(version.clone()),
                    },
                    None => {
                        let mut versions: Vec<String> =
                            theirs.iter().map(|(v, _)| v.to_string()).collect();
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
        if may_be_private(&parent.files) && !may_be_private(child) {
            return private_parent();
        }
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
                let p = parents
                    .last()
                    .map(|p| p.files.slug.clone())
                    .unwrap_or_default();
                return Lineage::Broken(
                    code,
                    format!("the release of `{p}` it takes cannot be built: {message}"),
                );
            }
        }
    }
    match parents.is_empty() {
        true => Lineage::None,
        false => Lineage::Parents(parents.into()),
    }
}
