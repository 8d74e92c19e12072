//! What a brand's releases say of it: the semantic changes between
//! them and since the latest, and the checks that hold a version back
//! (a step smaller than its changes, a removal not announced); which
//! releases readers may see at a moment (embargoes and private-era
//! releases left out of other versions' renders); and the public stand-in
//! of a head under embargo.

use super::{BuildOptions, Published, SemverMode};
use crate::render::changelog::SemanticChanges;
use crate::render::Context;
use crate::source::{Content, Pinned};
use crate::spec::diag::{Code, FileDiags};
use crate::spec::diff;
use crate::spec::release::Release;
use crate::spec::Moment;
use crate::spec::{parse_brand, Brand, BrandFiles, Diagnostic};
use chrono::NaiveDate;
use sha2::{Digest, Sha256};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Every embargo the releases of `content` declare, by brand and version.
pub fn embargoes(content: &Content) -> BTreeMap<(String, String), chrono::DateTime<chrono::Utc>> {
    content
        .pinned
        .iter()
        .filter_map(|p| {
            let e = p.release.declared.embargo?;
            Some(((p.files.slug.clone(), p.release.version.to_string()), e))
        })
        .collect()
}

/// `content` as readers may see its releases at `now`: a release under an
/// embargo that holds, or made while its brand was private when the brand
/// is public now, is left out of every brand's list of releases (so of its
/// changelog, page, comparisons and banners) and of what other versions
/// are compared with or extend; it is still built at `<slug>@<version>`
/// ([`Content::withheld`]), for the readers who may see it.
pub fn withheld_left_out(
    content: &Content,
    now: chrono::DateTime<chrono::Utc>,
) -> std::borrow::Cow<'_, Content> {
    use crate::spec::release::withheld;
    let public = |files: &BrandFiles| {
        !crate::spec::visibility::declared(files.get("brand.json").map(|b| &b[..])).private
    };
    let held = |p: &&Arc<Pinned>| p.release.declared.embargo.is_some_and(|e| e > now);
    let private = |p: &&Arc<Pinned>| p.release.declared.private;
    if !content.pinned.iter().any(|p| held(&p) || private(&p)) {
        return std::borrow::Cow::Borrowed(content);
    }
    // Whether each brand with a private release is public now.
    let with_private: std::collections::BTreeSet<&str> = content
        .pinned
        .iter()
        .filter(private)
        .map(|p| p.files.slug.as_str())
        .collect();
    let public_now: BTreeMap<&str, bool> = content
        .brands
        .iter()
        .filter(|f| with_private.contains(f.slug.as_str()))
        .map(|f| (f.slug.as_str(), public(f)))
        .collect();
    let is_public = |slug: &str| public_now.get(slug).copied().unwrap_or(false);
    let (withheld_pins, pinned): (Vec<_>, Vec<_>) = content
        .pinned
        .iter()
        .cloned()
        .partition(|p| withheld(&p.release, now, is_public(&p.files.slug)));
    if withheld_pins.is_empty() {
        return std::borrow::Cow::Borrowed(content);
    }
    let gone: std::collections::BTreeSet<&str> = withheld_pins
        .iter()
        .map(|p| p.release.tag.as_str())
        .collect();
    let brands = content
        .brands
        .iter()
        .map(|f| {
            if !f.releases.iter().any(|r| gone.contains(r.tag.as_str())) {
                return f.clone();
            }
            let kept: Vec<Release> = f
                .releases
                .iter()
                .filter(|r| !gone.contains(r.tag.as_str()))
                .cloned()
                .collect();
            Arc::new(f.with_releases(kept.into()))
        })
        .collect();
    std::borrow::Cow::Owned(Content {
        brands,
        pinned,
        withheld: withheld_pins,
        ..content.clone()
    })
}

/// What public readers get of the head `files` (at `version`, under an
/// embargo) while the embargo holds: its latest release before it, with
/// the releases up to that one, rendered as the current version. `None`
/// when no release comes before it or that release does not validate.
pub(super) fn stand_in(
    files: &Arc<BrandFiles>,
    version: &semver::Version,
    releases: &[Arc<Pinned>],
    ctx: &Context,
    moment: Moment,
    input: [u8; 32],
    opts: &BuildOptions,
) -> Option<Arc<Published>> {
    let below = |v: &semver::Version| v.cmp_precedence(version) == std::cmp::Ordering::Less;
    let pin = releases
        .iter()
        .filter(|p| below(&p.release.version))
        .max_by(|a, b| a.release.version.cmp_precedence(&b.release.version))?;
    let upto =
        |v: &semver::Version| v.cmp_precedence(&pin.release.version) != std::cmp::Ordering::Greater;
    let listed: Vec<crate::spec::release::Release> = files
        .releases
        .iter()
        .filter(|r| upto(&r.version))
        .cloned()
        .collect();
    let earlier: Vec<Arc<Pinned>> = releases
        .iter()
        .filter(|p| upto(&p.release.version))
        .cloned()
        .collect();
    let as_head = Arc::new(pin.files.with_releases(listed.into()));
    let mut h = Sha256::new();
    h.update(input);
    h.update(b"stand-in");
    h.update(pin.release.commit.as_bytes());
    let (published, _) = super::attempt(&as_head, &earlier, ctx, moment, h.finalize().into(), opts);
    published
}

/// Compares each of a brand's releases with the one before it, and the
/// brand with its latest release (the newest whose version is not above
/// the brand's), which is returned too. Each release is parsed once.
pub fn semantic_changes<'r>(
    brand: &Brand,
    releases: &'r [Arc<Pinned>],
    today: NaiveDate,
) -> (SemanticChanges, Option<&'r Release>) {
    let mut sorted: Vec<&Arc<Pinned>> = releases.iter().collect();
    sorted.sort_by(|a, b| a.release.version.cmp_precedence(&b.release.version));
    // A release that does not validate today is compared with nothing (it
    // has a warning of its own).
    let parsed: Vec<(&Release, Option<Brand>)> = sorted
        .iter()
        .map(|p| (&p.release, parse_brand(&p.files, today).0))
        .collect();
    let mut changes = SemanticChanges::default();
    for w in parsed.windows(2) {
        if let ((_, Some(old)), (r, Some(new))) = (&w[0], &w[1]) {
            changes
                .releases
                .insert(r.version.to_string(), diff::diff(old, new));
        }
    }
    let base = parsed
        .iter()
        .rev()
        .find(|(r, _)| r.version.cmp_precedence(&brand.version) != Ordering::Greater);
    if let Some((_, Some(old))) = base {
        changes.head = Some(diff::diff(old, brand));
    }
    (changes, base.map(|(r, _)| *r))
}

/// With `--require-deprecation`, refuses a version that removes tokens the
/// latest release did not deprecate (DESIGN.md §18), at brand.json's `version`.
pub(super) fn deprecation_check(
    brand: &Brand,
    files: &BrandFiles,
    base: Option<&Release>,
    changes: &SemanticChanges,
    required: bool,
) -> Option<Diagnostic> {
    if !required {
        return None;
    }
    let (base, head) = (base?, changes.head.as_ref()?);
    let unannounced: Vec<String> = head
        .changes
        .iter()
        .filter(|c| {
            matches!(
                c.what,
                diff::What::TokenRemoved {
                    announced: false,
                    ..
                }
            )
        })
        .map(|c| format!("`{}`", c.name))
        .collect();
    if unannounced.is_empty() {
        return None;
    }
    let mut d = FileDiags::new(&brand.slug, format!("{}/brand.json", brand.slug));
    d.push(
        Code::RemovedWithoutDeprecation,
        "/version",
        format!(
            "{} removed without being deprecated in the latest release ({}); under --require-deprecation that is an error: deprecate first (`\"$deprecated\": \"Use {{replacement}}\"`), release that, then remove in a major version. The last good version keeps serving",
            match unannounced.len() {
                n if n > 8 => format!("{} and {} more", unannounced[..8].join(", "), n - 8),
                _ => unannounced.join(", "),
            },
            base.tag
        ),
    );
    at_brand_json(d, files)
}

/// Reports a version that is too small a step after the brand's latest
/// release for what changed since, at brand.json's `version`.
pub(super) fn semver_check(
    brand: &Brand,
    files: &BrandFiles,
    base: Option<&Release>,
    changes: &SemanticChanges,
    mode: SemverMode,
    preview: bool,
) -> Option<Diagnostic> {
    if mode == SemverMode::Off {
        return None;
    }
    let (base, head) = (base?, changes.head.as_ref()?);
    let from = &base.version;
    let too_small = diff::check_step(from, &brand.version, head.level()).err()?;
    let mut explained = crate::render::diff::explain(from, &brand.version, head, &too_small);
    // A brand of a family publishes what it inherits: say from where.
    if let Some(parent) = brand.lineage.parents().first() {
        explained.push_str(&format!(
            " (what it inherits counts: it extends `{}`, now {})",
            parent.files.slug,
            parent.version()
        ));
    }
    let mut d = FileDiags::new(&brand.slug, format!("{}/brand.json", brand.slug));
    // Said while serving: what happened to this version, and what to do.
    match mode {
        SemverMode::Error => d.push(
            Code::VersionTooLow,
            "/version",
            format!(
                "{explained} (latest release: {}). It is not published: the last good version keeps serving until `version` is raised (`--semver warn` would publish it with a warning)",
                base.tag
            ),
        ),
        // A branch preview publishes nothing: say what to do before it is.
        _ if preview => d.push(
            Code::VersionTooLowPublished,
            "/version",
            format!(
                "{explained} (latest release: {}). Raise `version` before this branch is merged and tagged, or consumers that trust semver will break",
                base.tag
            ),
        ),
        _ => d.push(
            Code::VersionTooLowPublished,
            "/version",
            format!(
                "{explained} (latest release: {}). It is published, as `--semver warn` allows: raise `version` before this is tagged, or consumers that trust semver will break",
                base.tag
            ),
        ),
    }
    at_brand_json(d, files)
}

/// The diagnostic `d` holds, framed in the brand's brand.json.
fn at_brand_json(d: FileDiags<'_>, files: &BrandFiles) -> Option<Diagnostic> {
    let mut out = Vec::new();
    let text = files
        .get("brand.json")
        .and_then(|b| std::str::from_utf8(b).ok());
    d.finish(text, &mut out);
    out.pop()
}
