//! changelog.md and changelog.json: a brand's releases (from git tags),
//! newest first, as Keep a Changelog Markdown and as JSON.

use crate::render::escape;
use crate::spec::release::{unreleased, Release};
use serde::Serialize;
use std::fmt::Write;

/// Keep a Changelog Markdown, newest first.
pub fn render_md(name: &str, current: &semver::Version, releases: &[Release]) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "# Changelog: {}\n", escape::md(name));
    o.push_str("All notable changes to this brand are listed here, newest first.\n");
    o.push_str("The format follows [Keep a Changelog](https://keepachangelog.com/en/1.1.0/) and versions follow [Semantic Versioning](https://semver.org/).\n\n");
    if let Some(v) = unreleased(current, releases) {
        let _ = writeln!(o, "## [Unreleased]\n");
        match releases.first() {
            Some(last) => {
                let _ = writeln!(
                    o,
                    "brand.json is at {v}, ahead of the latest release {}.\n",
                    last.version
                );
            }
            None => {
                let _ = writeln!(o, "brand.json is at {v}; no release is tagged yet.\n");
            }
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
    }
    o.trim_end().to_string() + "\n"
}

#[derive(Serialize)]
struct ChangelogJson<'a> {
    brand: &'a str,
    unreleased: Option<Unreleased>,
    releases: &'a [Release],
}

#[derive(Serialize)]
struct Unreleased {
    version: String,
}

/// The same data as JSON.
pub fn render_json(slug: &str, current: &semver::Version, releases: &[Release]) -> String {
    let doc = ChangelogJson {
        brand: slug,
        unreleased: unreleased(current, releases).map(|v| Unreleased {
            version: v.to_string(),
        }),
        releases,
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
        }
    }

    #[test]
    fn unreleased_heads_the_markdown_when_brand_json_is_ahead() {
        let r = vec![rel("1.2.0", "2026-01-01")];
        let md = render_md("Acme", &"1.3.0".parse().unwrap(), &r);
        assert!(md.contains(
            "## [Unreleased]\n\nbrand.json is at 1.3.0, ahead of the latest release 1.2.0."
        ));
        assert!(md.contains("## [1.2.0] - 2026-01-01\n\n- Release 1.2.0\n"));
    }
}
