//! Releases: a git tag `<slug>@<version>` (or `<slug>/v<version>`) whose
//! version equals brand.json's at the tagged commit. The git source finds
//! the tags with their dates and notes; here they are named and ordered by
//! semver precedence, never by name or time.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

/// One release of one brand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Release {
    #[serde(serialize_with = "as_string")]
    pub version: semver::Version,
    /// The tagger's date for an annotated tag, else the commit's.
    pub date: NaiveDate,
    pub tag: String,
    pub commit: String,
    /// The tag message's lines, or the subjects of the commits that touched
    /// the brand since the previous release.
    pub notes: Vec<String>,
    /// What the tagged brand.json says of who may read this release: it is
    /// left out of every render of the brand for readers who may not (see
    /// [`withheld`]). Never published itself.
    #[serde(skip)]
    pub declared: Declared,
}

/// What a released version's brand.json says of who may read it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Declared {
    /// It was private (or cannot be read to say otherwise).
    pub private: bool,
    /// The moment its embargo lifts, if it names one (one that cannot be
    /// read never lifts).
    pub embargo: Option<DateTime<Utc>>,
}

/// True when `r` is withheld from renders at `now`: under an embargo that
/// holds, or made while the brand was private and the brand is public now
/// (`public_head`). A private brand's own readers see its private releases.
pub fn withheld(r: &Release, now: chrono::DateTime<chrono::Utc>, public_head: bool) -> bool {
    r.declared.embargo.is_some_and(|e| e > now) || (public_head && r.declared.private)
}

fn as_string<S: serde::Serializer>(v: &semver::Version, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&v.to_string())
}

/// Splits a tag name into brand slug and version text: `acme@1.2.0` or `acme/v1.2.0`.
pub fn parse_tag(name: &str) -> Option<(&str, &str)> {
    if let Some((slug, version)) = name.split_once('@') {
        return Some((slug, version));
    }
    let (slug, rest) = name.split_once('/')?;
    Some((slug, rest.strip_prefix('v')?))
}

/// Newest first, by semver precedence: `2.10.0` after `2.9.0`, `3.0.0-beta.1` before `3.0.0`.
pub fn sort_newest_first(releases: &mut [Release]) {
    releases.sort_by(|a, b| {
        b.version
            .cmp_precedence(&a.version)
            .then_with(|| b.date.cmp(&a.date))
    });
}

/// The version brand.json is at, when it is ahead of every release.
pub fn unreleased<'a>(
    current: &'a semver::Version,
    releases: &[Release],
) -> Option<&'a semver::Version> {
    match releases
        .iter()
        .map(|r| &r.version)
        .max_by(|a, b| a.cmp_precedence(b))
    {
        Some(latest) if current.cmp_precedence(latest) != std::cmp::Ordering::Greater => None,
        _ => Some(current),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub fn rel(v: &str, date: &str) -> Release {
        Release {
            version: v.parse().unwrap(),
            date: date.parse().unwrap(),
            tag: format!("acme@{v}"),
            commit: "c0ffee".into(),
            notes: vec![format!("Release {v}")],
            declared: Default::default(),
        }
    }

    #[test]
    fn tags_name_a_brand_and_a_version() {
        assert_eq!(parse_tag("acme@1.2.0"), Some(("acme", "1.2.0")));
        assert_eq!(
            parse_tag("lumen-health/v3.0.0-beta.1"),
            Some(("lumen-health", "3.0.0-beta.1"))
        );
        assert_eq!(parse_tag("v1.0.0"), None);
        assert_eq!(parse_tag("acme/1.0.0"), None);
    }

    #[test]
    fn releases_sort_by_semver_precedence_not_by_name_or_date() {
        let mut r = vec![
            rel("2.9.0", "2026-05-01"),
            rel("2.10.0", "2026-04-01"),
            rel("3.0.0", "2026-06-01"),
            rel("3.0.0-beta.1", "2026-07-01"),
        ];
        sort_newest_first(&mut r);
        let order: Vec<String> = r.iter().map(|r| r.version.to_string()).collect();
        assert_eq!(order, ["3.0.0", "3.0.0-beta.1", "2.10.0", "2.9.0"]);
    }

    #[test]
    fn unreleased_appears_only_when_brand_json_is_ahead() {
        let r = vec![rel("1.2.0", "2026-01-01")];
        assert_eq!(
            unreleased(&"1.3.0".parse().unwrap(), &r).map(|v| v.to_string()),
            Some("1.3.0".into())
        );
        assert_eq!(unreleased(&"1.2.0".parse().unwrap(), &r), None);
        assert_eq!(unreleased(&"1.2.0-rc.1".parse().unwrap(), &r), None);
    }
}
