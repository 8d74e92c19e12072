//! The change table on a preview's pull request (`--status-comment`):
//! one comment, made on the first verdict and edited in place on each
//! later one, found again by a hidden marker in its body. PURE: the body,
//! and the requests of each step; the outbox holds the conversation.
//!
//! - GitHub: the pull request of a branch from
//!   `GET /repos/{owner}/{repo}/pulls?head={owner}:{branch}`; its comments
//!   from `GET /repos/{owner}/{repo}/issues/{number}/comments`; made by
//!   `POST` there, edited by `PATCH /repos/{owner}/{repo}/issues/comments/{id}`.
//! - Gitea and Forgejo: the same paths under `/api/v1` (the pull requests
//!   listed open, the branch's found by `head.ref`).
//! - GitLab: `GET /projects/:id/merge_requests?source_branch=`, its notes
//!   from `GET /projects/:id/merge_requests/:iid/notes`; made by `POST`
//!   there, edited by `PUT /projects/:id/merge_requests/:iid/notes/:note_id`.

use super::commit_status::{project, Forge, StatusApi, Verdict};
use crate::render::previews::{BrandChange, ChangeState};
use std::fmt::Write;

/// What marks marque's comment among the others: invisible in the
/// rendered Markdown.
pub const MARKER: &str = "<!-- marque:preview-comment -->";

/// Changes listed at most: a comment stays readable, and under every
/// forge's size limit; the compare pages have the rest.
pub const ROWS: usize = 50;

/// Pages of comments read at most when looking for marque's (100 each).
pub const PAGES: u32 = 10;

/// The comment on preview `name` of `branch` at `commit`.
pub fn body(
    name: &str,
    branch: &str,
    commit: &str,
    brands: &[BrandChange],
    verdict: &Verdict,
    public_url: &str,
) -> String {
    let root = format!("{public_url}{}", crate::paths::preview(name));
    let short: String = commit.chars().take(12).collect();
    let mut o = format!(
        "{MARKER}\n### marque: the preview of `{}`\n\n",
        cell(branch)
    );
    let _ = write!(
        o,
        "**{}** at `{short}`: [the preview]({root})",
        verdict.description
    );
    let target = format!("{public_url}{}", verdict.target);
    if target != root {
        let _ = write!(o, ", [the comparison]({target})");
    }
    o.push_str(".\n\n");
    o.push_str("| Brand | Change | Step | Changes | Errors |\n|---|---|---|---|---|\n");
    for b in brands {
        let state = match b.state {
            ChangeState::Added => "added",
            ChangeState::Changed => "changed",
            ChangeState::Unchanged => "unchanged",
            ChangeState::Removed => "removed",
            ChangeState::Invalid => "invalid",
            ChangeState::Building => "building",
        };
        let brand = match (&b.since, b.state) {
            (Some(since), ChangeState::Changed) => format!(
                "[{}]({root}/brand/{}/compare/{since}...current)",
                cell(&b.slug),
                b.slug
            ),
            _ => cell(&b.slug),
        };
        let step = b.level.map_or("", |l| l.as_str());
        let changes = b.diff.as_ref().map_or(0, |d| d.changes.len());
        let _ = writeln!(
            o,
            "| {brand} | {state} | {step} | {changes} | {} |",
            b.errors
        );
    }
    let rows: Vec<(&str, &str, String)> = brands
        .iter()
        .flat_map(|b| {
            b.diff.iter().flat_map(move |d| {
                d.changes.iter().map(move |c| {
                    (
                        c.level.as_str(),
                        b.slug.as_str(),
                        crate::render::diff::summary(c),
                    )
                })
            })
        })
        .collect();
    if !rows.is_empty() {
        o.push_str("\n<details><summary>What changed</summary>\n\n| Step | Brand | Change |\n|---|---|---|\n");
        for (level, slug, text) in rows.iter().take(ROWS) {
            let _ = writeln!(o, "| {level} | {} | {} |", cell(slug), cell(text));
        }
        if rows.len() > ROWS {
            let _ = writeln!(o, "\n{} more on the compare pages.", rows.len() - ROWS);
        }
        o.push_str("\n</details>\n");
    }
    o
}

/// Text in a table cell: a pipe or a line break would end it.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// A branch name in a query string: every byte but the unreserved ones
/// percent-encoded.
fn query(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Where the open pull requests of `branch` are listed.
pub fn pulls_url(api: &StatusApi, branch: &str) -> String {
    match api.forge {
        Forge::Github => {
            let owner = api.repo.split('/').next().unwrap_or_default();
            format!(
                "{}/repos/{}/pulls?state=open&head={}",
                api.base,
                api.repo,
                query(&format!("{owner}:{branch}"))
            )
        }
        Forge::Gitea => format!("{}/repos/{}/pulls?state=open&limit=50", api.base, api.repo),
        Forge::Gitlab => format!(
            "{}/projects/{}/merge_requests?state=opened&source_branch={}",
            api.base,
            project(api),
            query(branch)
        ),
    }
}

/// The number (GitLab: the iid) of `branch`'s pull request in a listing.
pub fn pull_number(api: &StatusApi, branch: &str, listing: &serde_json::Value) -> Option<u64> {
    let items = listing.as_array()?;
    items.iter().find_map(|p| match api.forge {
        Forge::Github | Forge::Gitea => {
            (p["head"]["ref"] == branch).then(|| p["number"].as_u64())?
        }
        Forge::Gitlab => (p["source_branch"] == branch).then(|| p["iid"].as_u64())?,
    })
}

/// Where the comments of pull request `number` are listed, page `page`.
pub fn comments_url(api: &StatusApi, number: u64, page: u32) -> String {
    match api.forge {
        Forge::Github => format!(
            "{}/repos/{}/issues/{number}/comments?per_page=100&page={page}",
            api.base, api.repo
        ),
        Forge::Gitea => format!(
            "{}/repos/{}/issues/{number}/comments?limit=100&page={page}",
            api.base, api.repo
        ),
        Forge::Gitlab => format!(
            "{}/projects/{}/merge_requests/{number}/notes?per_page=100&sort=asc&order_by=created_at&page={page}",
            api.base,
            project(api)
        ),
    }
}

/// marque's comment in one page of a listing, if it is there; and
/// whether the page was the last.
pub fn existing(listing: &serde_json::Value) -> (Option<u64>, bool) {
    let items = listing.as_array().map(Vec::as_slice).unwrap_or_default();
    let found = items.iter().find_map(|c| {
        let body = c["body"].as_str()?;
        body.starts_with(MARKER).then(|| c["id"].as_u64())?
    });
    (found, items.len() < 100)
}

/// The request that makes the comment (`existing` `None`) or edits it:
/// its method, URL and JSON body.
pub fn write(
    api: &StatusApi,
    number: u64,
    existing: Option<u64>,
    body: &str,
) -> (reqwest::Method, String, serde_json::Value) {
    let json = serde_json::json!({ "body": body });
    let (base, repo) = (&api.base, &api.repo);
    match (api.forge, existing) {
        (Forge::Github | Forge::Gitea, None) => (
            reqwest::Method::POST,
            format!("{base}/repos/{repo}/issues/{number}/comments"),
            json,
        ),
        (Forge::Github | Forge::Gitea, Some(id)) => (
            reqwest::Method::PATCH,
            format!("{base}/repos/{repo}/issues/comments/{id}"),
            json,
        ),
        (Forge::Gitlab, None) => (
            reqwest::Method::POST,
            format!(
                "{base}/projects/{}/merge_requests/{number}/notes",
                project(api)
            ),
            json,
        ),
        (Forge::Gitlab, Some(id)) => (
            reqwest::Method::PUT,
            format!(
                "{base}/projects/{}/merge_requests/{number}/notes/{id}",
                project(api)
            ),
            json,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn api(forge: Forge) -> StatusApi {
        StatusApi {
            forge,
            base: "https://forge.example/api".into(),
            repo: "acme/brands".into(),
            token: "t0k".into(),
        }
    }

    #[test]
    fn the_body_starts_with_the_marker_and_tables_each_brand() {
        let brands = [BrandChange {
            slug: "northwind".into(),
            state: ChangeState::Changed,
            level: Some(crate::spec::diff::Level::Minor),
            summary: String::new(),
            errors: 0,
            diff: None,
            since: Some("2.4.0".into()),
        }];
        let v = Verdict {
            success: true,
            description: "minor: 1 change · 0 errors".into(),
            target: "/preview/x".into(),
        };
        let b = body(
            "x",
            "feat|x",
            "0123456789abcdef",
            &brands,
            &v,
            "https://b.example",
        );
        assert!(b.starts_with(MARKER), "{b}");
        assert!(b.contains("`feat\\|x`"), "{b}");
        assert!(b.contains("at `0123456789ab`"), "{b}");
        assert!(b.contains(
            "| [northwind](https://b.example/preview/x/brand/northwind/compare/2.4.0...current) | changed | minor | 0 | 0 |"
        ), "{b}");
    }

    #[test]
    fn each_forge_finds_the_pull_request_and_the_comment_its_own_way() {
        let gh = api(Forge::Github);
        assert_eq!(
            pulls_url(&gh, "preview/spring"),
            "https://forge.example/api/repos/acme/brands/pulls?state=open&head=acme%3Apreview%2Fspring"
        );
        let listing = json!([{ "number": 7, "head": { "ref": "preview/spring" } }]);
        assert_eq!(pull_number(&gh, "preview/spring", &listing), Some(7));
        assert_eq!(pull_number(&gh, "other", &listing), None);
        let gl = api(Forge::Gitlab);
        assert!(pulls_url(&gl, "a b")
            .ends_with("/projects/acme%2Fbrands/merge_requests?state=opened&source_branch=a%20b"));
        assert_eq!(
            pull_number(&gl, "x", &json!([{ "iid": 3, "source_branch": "x" }])),
            Some(3)
        );
        let page =
            json!([{ "id": 1, "body": "lgtm" }, { "id": 9, "body": format!("{MARKER}\nold") }]);
        assert_eq!(existing(&page), (Some(9), true));
        assert_eq!(
            write(&gh, 7, None, "b").1,
            "https://forge.example/api/repos/acme/brands/issues/7/comments"
        );
        let (method, url, _) = write(&gh, 7, Some(9), "b");
        assert_eq!(
            (method, url.as_str()),
            (
                reqwest::Method::PATCH,
                "https://forge.example/api/repos/acme/brands/issues/comments/9"
            )
        );
        let (method, url, _) = write(&gl, 3, Some(9), "b");
        assert_eq!(
            (method, url.as_str()),
            (
                reqwest::Method::PUT,
                "https://forge.example/api/projects/acme%2Fbrands/merge_requests/3/notes/9"
            )
        );
    }
}
