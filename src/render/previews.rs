//! What a branch preview shows: `/previews.json` (every preview with its
//! branch, commit, date, URL and what it changes in each brand), and the
//! banner on each of its pages.

use super::diff::{summary, summary_html};
use super::escape::html;
use super::Context;
use crate::paths;
use crate::spec::diff::{Diff, Level};
use serde::Serialize;
use std::fmt::Write;

/// What a preview does to one brand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeState {
    Added,
    Changed,
    Unchanged,
    Removed,
    /// The preview's version has errors: its page lists them.
    Invalid,
    /// The preview's version is still being checked and rendered: the
    /// preview is built again, and compared, when it is done.
    Building,
}

/// What a preview changes in one brand, against the published branch.
#[derive(Debug, Clone, Serialize)]
pub struct BrandChange {
    pub slug: String,
    pub state: ChangeState,
    /// The largest level of any change (null when none or not comparable).
    pub level: Option<Level>,
    /// The diff's verdict in words.
    pub summary: String,
    pub errors: usize,
    #[serde(skip)]
    pub diff: Option<Diff>,
    /// The brand's latest release, which the banner links a comparison with.
    #[serde(skip)]
    pub since: Option<String>,
}

/// The banner on a preview's page: which branch and commit, and what it
/// changes (of one brand, or of all on the index).
pub fn banner(
    branch: &str,
    commit: &str,
    published: &str,
    brands: &[BrandChange],
    only: Option<&str>,
) -> String {
    let mut o = String::from(
        "<div role=\"note\" aria-label=\"Preview\" style=\"background:#fff4ce;color:#3d2e00;border-bottom:2px solid #c9a227;padding:.75rem 1rem;font:14px/1.5 system-ui,sans-serif\">",
    );
    let _ = write!(
        o,
        "<strong>Preview</strong> of branch <code>{}</code> at commit <code>{}</code>, not published. Against the published branch <code>{}</code>: ",
        html(branch),
        html(&commit[..commit.len().min(12)]),
        html(published)
    );
    let shown: Vec<&BrandChange> = brands
        .iter()
        .filter(|b| only.is_none_or(|s| s == b.slug))
        .collect();
    if shown.is_empty() {
        o.push_str("no brand.");
    }
    for b in shown {
        if only.is_none() {
            let _ = write!(o, "<br><b>{}</b>: ", html(&b.slug));
        }
        o.push_str(&html(&b.summary));
        let Some(d) = b.diff.as_ref().filter(|d| !d.is_empty()) else {
            continue;
        };
        o.push_str("<details><summary>What changes</summary><ul>");
        for c in &d.changes {
            let _ = write!(o, "<li>{} ({})</li>", summary_html(&summary(c)), c.level);
        }
        o.push_str("</ul></details>");
        // On a brand's page (`/preview/<name>/brand/<slug>`), what the
        // branch holds against the latest release, as a page of its own.
        if let (Some(slug), Some(since)) = (only, &b.since) {
            let _ = write!(
                o,
                "<a href=\"{}/compare/{}...current\" style=\"color:inherit\">Compare with release {}</a>",
                html(slug),
                html(since),
                html(since)
            );
        }
    }
    o.push_str("</div>\n");
    o
}

/// `page` with `banner` as the first thing in its body.
pub fn with_banner(page: &[u8], banner: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(page);
    let at = text
        .find("<body")
        .and_then(|i| text[i..].find('>').map(|j| i + j + 1))
        .unwrap_or(0);
    let mut out = String::with_capacity(text.len() + banner.len() + 1);
    out.push_str(&text[..at]);
    out.push('\n');
    out.push_str(banner);
    out.push_str(&text[at..]);
    out.into_bytes()
}

/// How previews are configured, when they are on.
pub struct PreviewSettings<'a> {
    /// The glob of branches previewed.
    pub branches: &'a str,
    pub limit: usize,
    pub published_branch: &'a str,
}

/// One preview, `B` being what it says of each brand.
pub struct PreviewRow<'a, B: Serialize + ?Sized> {
    pub name: &'a str,
    pub branch: &'a str,
    pub commit: &'a str,
    /// The commit's time, seconds since the epoch.
    pub time: i64,
    pub brands: &'a B,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ListJson<'a, B: Serialize + ?Sized> {
    enabled: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    branches: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    published_branch: Option<&'a str>,
    previews: Vec<PreviewJson<'a, B>>,
}

#[derive(Serialize)]
struct PreviewJson<'a, B: Serialize + ?Sized> {
    name: &'a str,
    branch: &'a str,
    commit: &'a str,
    date: String,
    url: String,
    brands: &'a B,
}

/// The document; `enabled: false` and no previews when `settings` is `None`.
pub fn list_json<B: Serialize + ?Sized>(
    ctx: &Context,
    settings: Option<PreviewSettings<'_>>,
    previews: &[PreviewRow<'_, B>],
) -> String {
    let doc = ListJson {
        enabled: settings.is_some(),
        branches: settings.as_ref().map(|s| s.branches),
        limit: settings.as_ref().map(|s| s.limit),
        published_branch: settings.as_ref().map(|s| s.published_branch),
        previews: previews
            .iter()
            .map(|p| PreviewJson {
                name: p.name,
                branch: p.branch,
                commit: p.commit,
                date: chrono::DateTime::from_timestamp(p.time, 0)
                    .map(|t| t.to_rfc3339())
                    .unwrap_or_default(),
                url: ctx.url(&format!("{}/", paths::preview(p.name))),
                brands: p.brands,
            })
            .collect(),
    };
    serde_json::to_string_pretty(&doc).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_banner_goes_first_in_the_body() {
        let page = b"<!doctype html><html><head></head>\n<body data-x=\"1\">\n<main>x</main>";
        let out = String::from_utf8(with_banner(page, "<div>B</div>\n")).unwrap();
        assert_eq!(
            out,
            "<!doctype html><html><head></head>\n<body data-x=\"1\">\n<div>B</div>\n\n<main>x</main>"
        );
    }
}
