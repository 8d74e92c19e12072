//! changelog.md and changelog.json: a brand's releases (from git tags),
//! newest first, as Keep a Changelog Markdown and as JSON. Each release
//! lists its tag's notes, then the semantic changes since the release
//! before it under Added / Changed / Deprecated / Removed; `[Unreleased]` lists what the
//! working head changes since the latest release.

use super::diff::ChangeJson;
use crate::render::escape;
use crate::spec::diff::Diff;
use crate::spec::release::{unreleased, Release};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

/// The semantic changes a changelog lists (see `spec::diff`).
#[derive(Debug, Clone, Default)]
pub struct SemanticChanges {
    /// By release version: what changed since the release before it. The
    /// first release, and one whose files do not validate, have none.
    pub releases: BTreeMap<String, Diff>,
    /// What the working head changes since the release it follows.
    pub head: Option<Diff>,
}

impl SemanticChanges {
    /// What `r` changed since the release before it, if anything.
    pub fn of(&self, r: &Release) -> Option<&Diff> {
        self.releases
            .get(&r.version.to_string())
            .filter(|d| !d.is_empty())
    }

    /// What the working head changes since its release, if anything.
    pub fn head(&self) -> Option<&Diff> {
        self.head.as_ref().filter(|d| !d.is_empty())
    }
}

/// Keep a Changelog Markdown, newest first. With `brand_url` (the brand's
/// page, where it is served) each heading links, as Keep a Changelog does,
/// to the comparison with the release before it.
pub fn render_md(
    name: &str,
    current: &semver::Version,
    releases: &[Release],
    changes: &SemanticChanges,
    brand_url: Option<&str>,
) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "# Changelog: {}\n", escape::md(name));
    o.push_str("All notable changes to this brand are listed here, newest first.\n");
    o.push_str("The format follows [Keep a Changelog](https://keepachangelog.com/en/1.1.0/) and versions follow [Semantic Versioning](https://semver.org/).\n\n");
    let ahead = unreleased(current, releases);
    if ahead.is_some() || changes.head().is_some() {
        let _ = writeln!(o, "## [Unreleased]\n");
        match (ahead, releases.first()) {
            (Some(v), Some(last)) => {
                let _ = writeln!(
                    o,
                    "brand.json is at {v}, ahead of the latest release {}.\n",
                    last.version
                );
            }
            (Some(v), None) => {
                let _ = writeln!(o, "brand.json is at {v}; no release is tagged yet.\n");
            }
            (None, _) => {
                let _ = writeln!(
                    o,
                    "brand.json is still at {current}, a released version: these changes need a new version.\n"
                );
            }
        }
        if let Some(d) = changes.head() {
            o.push_str(&super::diff::sections_md(d, "###"));
        }
    }
    for r in releases {
        let _ = writeln!(o, "## [{}] - {}\n", r.version, r.date);
        if r.notes.is_empty() {
            let _ = writeln!(o, "- Released as tag {}.", escape::md_code(&r.tag));
        }
        for n in &r.notes {
            let n = n.trim_start_matches(['-', '*', ' ']).trim();
            if !n.is_empty() {
                let _ = writeln!(o, "- {}", escape::md(n));
            }
        }
        o.push('\n');
        if let Some(d) = changes.of(r) {
            o.push_str(&super::diff::sections_md(d, "###"));
        }
    }
    if let Some(base) = brand_url {
        link_references(
            &mut o,
            base,
            ahead.is_some() || changes.head().is_some(),
            releases,
        );
    }
    o.trim_end().to_string() + "\n"
}

/// `[Unreleased]: …/compare/<latest>...current.md`, `[1.1.0]:
/// …/compare/1.0.0...1.1.0.md`, and the first release's own page.
fn link_references(o: &mut String, base: &str, unreleased: bool, releases: &[Release]) {
    let mut refs = Vec::new();
    if let (true, Some(latest)) = (unreleased, releases.first()) {
        refs.push(format!(
            "[Unreleased]: {base}/compare/{}...current.md",
            latest.version
        ));
    }
    for (i, r) in releases.iter().enumerate() {
        refs.push(match releases.get(i + 1) {
            Some(previous) => format!(
                "[{}]: {base}/compare/{}...{}.md",
                r.version, previous.version, r.version
            ),
            None => format!("[{}]: {}", r.version, pinned_url(base, &r.version)),
        });
    }
    if !refs.is_empty() {
        let _ = writeln!(o, "{}\n", refs.join("\n"));
    }
}

/// `https://host/brand/acme` → `https://host/brand/acme@1.0.0`.
fn pinned_url(base: &str, version: &semver::Version) -> String {
    format!("{base}@{version}")
}

#[derive(Serialize)]
struct ChangelogJson<'a> {
    brand: &'a str,
    unreleased: Option<Unreleased>,
    releases: Vec<ReleaseJson<'a>>,
}

#[derive(Serialize)]
struct Unreleased {
    version: String,
    changes: Vec<ChangeJson>,
}

#[derive(Serialize)]
struct ReleaseJson<'a> {
    #[serde(flatten)]
    release: &'a Release,
    changes: Vec<ChangeJson>,
}

/// The same data as JSON.
pub fn render_json(
    slug: &str,
    current: &semver::Version,
    releases: &[Release],
    changes: &SemanticChanges,
) -> String {
    let head = changes.head();
    let unreleased = match (unreleased(current, releases), head) {
        (None, None) => None,
        (v, _) => Some(Unreleased {
            version: v.unwrap_or(current).to_string(),
            changes: head.map_or_else(Vec::new, |d| ChangeJson::list(&d.changes)),
        }),
    };
    let doc = ChangelogJson {
        brand: slug,
        unreleased,
        releases: releases
            .iter()
            .map(|r| ReleaseJson {
                release: r,
                changes: changes
                    .of(r)
                    .map_or_else(Vec::new, |d| ChangeJson::list(&d.changes)),
            })
            .collect(),
    };
    serde_json::to_string_pretty(&doc).expect("serialisable") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(v: &str, date: &str) -> Release {
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
    fn unreleased_heads_the_markdown_when_brand_json_is_ahead() {
        let r = vec![rel("1.2.0", "2026-01-01")];
        let md = render_md(
            "Acme",
            &"1.3.0".parse().unwrap(),
            &r,
            &SemanticChanges::default(),
            None,
        );
        assert!(md.contains(
            "## [Unreleased]\n\nbrand.json is at 1.3.0, ahead of the latest release 1.2.0."
        ));
        assert!(md.contains("## [1.2.0] - 2026-01-01\n\n- Release 1.2.0\n"));
        assert!(!md.contains("]: "), "no links without a URL");
    }

    #[test]
    fn headings_link_to_the_comparison_with_the_release_before() {
        let r = vec![rel("1.2.0", "2026-02-01"), rel("1.1.0", "2026-01-01")];
        let md = render_md(
            "Acme",
            &"1.3.0".parse().unwrap(),
            &r,
            &SemanticChanges::default(),
            Some("https://b.example/brand/acme"),
        );
        assert!(
            md.ends_with(
                "\n\n[Unreleased]: https://b.example/brand/acme/compare/1.2.0...current.md\n\
                 [1.2.0]: https://b.example/brand/acme/compare/1.1.0...1.2.0.md\n\
                 [1.1.0]: https://b.example/brand/acme@1.1.0\n"
            ),
            "{md}"
        );
    }
}
