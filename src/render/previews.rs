//! `/previews.json`: every branch preview with its branch, commit, date,
//! URL and what it changes in each brand.

use super::Context;
use crate::paths;
use serde::Serialize;

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
