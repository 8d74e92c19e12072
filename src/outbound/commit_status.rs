//! Commit statuses on previews (`--status-api`): what a preview's head
//! commit is told (a state, a line such as `minor: 3 changes · 0 errors`,
//! the preview's compare page) and the request each forge's API takes for
//! it. PURE: the outbox sends what [`request`] makes.
//!
//! - GitHub: `POST {api}/repos/{owner}/{repo}/statuses/{sha}`, `state`
//!   `success`/`failure`, `context`; `Authorization: Bearer`.
//! - Gitea and Forgejo: the same path under `/api/v1`, `Authorization: token`.
//! - GitLab: `POST {api}/projects/{id}/statuses/{sha}`, `state`
//!   `success`/`failed`, `name`; `PRIVATE-TOKEN`.

use crate::render::previews::{BrandChange, ChangeState};
use crate::spec::diff::Level;

/// Which forge's API statuses are posted to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Forge {
    Github,
    Gitlab,
    Gitea,
}

/// Where and as whom statuses are posted.
#[derive(Clone)]
pub struct StatusApi {
    pub forge: Forge,
    /// The API's base URL, without a trailing slash
    /// (`https://api.github.com`, `https://gitlab.com/api/v4`,
    /// `https://codeberg.org/api/v1`).
    pub base: String,
    /// `owner/name`, or GitLab's project id or path.
    pub repo: String,
    /// From `MARQUE_STATUS_TOKEN` only.
    pub token: String,
}

impl std::fmt::Debug for StatusApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StatusApi")
            .field("forge", &self.forge)
            .field("base", &self.base)
            .field("repo", &self.repo)
            .finish_non_exhaustive()
    }
}

/// The status name every forge shows beside the commit.
pub const CONTEXT: &str = "marque";

/// What a preview's head commit is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub success: bool,
    /// `minor: 3 changes · 0 errors`.
    pub description: String,
    /// The path of the page it links (the preview's compare page when one
    /// brand changed, else the preview).
    pub target: String,
}

/// The verdict on a preview named `name` whose brands change `brands`;
/// `None` while a brand is still being built (told when it is done).
pub fn verdict(name: &str, brands: &[BrandChange]) -> Option<Verdict> {
    if brands.iter().any(|b| b.state == ChangeState::Building) {
        return None;
    }
    let errors: usize = brands.iter().map(|b| b.errors).sum();
    let invalid = brands.iter().any(|b| b.state == ChangeState::Invalid);
    let changed: Vec<&BrandChange> = brands
        .iter()
        .filter(|b| !matches!(b.state, ChangeState::Unchanged))
        .collect();
    // An invalid brand is not comparable: its errors say what is wrong.
    let changes: usize = changed
        .iter()
        .map(|b| match (&b.diff, b.state) {
            (Some(d), _) => d.changes.len(),
            (None, ChangeState::Invalid) => 0,
            (None, _) => 1,
        })
        .sum();
    let level = brands.iter().filter_map(|b| b.level).max();
    let step = match level {
        Some(Level::Major) => "major",
        Some(Level::Minor) => "minor",
        Some(Level::Patch) => "patch",
        None if invalid => "invalid",
        None => "no change",
    };
    let plural = |n: usize, one: &str| match n {
        1 => format!("1 {one}"),
        n => format!("{n} {one}s"),
    };
    let root = crate::paths::preview(name);
    let target = match changed.as_slice() {
        [one] if one.since.is_some() && one.state == ChangeState::Changed => format!(
            "{root}/brand/{}/compare/{}...current",
            one.slug,
            one.since.as_deref().unwrap_or_default()
        ),
        _ => root,
    };
    Some(Verdict {
        success: errors == 0 && !invalid,
        description: format!(
            "{step}: {} · {}",
            plural(changes, "change"),
            plural(errors, "error")
        ),
        target,
    })
}

/// The request that posts `verdict` on commit `sha`: its URL, its JSON
/// body, and its headers (the token among them: never logged).
pub fn request(
    api: &StatusApi,
    sha: &str,
    verdict: &Verdict,
    public_url: &str,
) -> (String, serde_json::Value, Vec<(String, String)>) {
    let target_url = format!("{public_url}{}", verdict.target);
    let description: String = verdict.description.chars().take(140).collect();
    match api.forge {
        Forge::Github | Forge::Gitea => {
            let body = serde_json::json!({
                "state": if verdict.success { "success" } else { "failure" },
                "target_url": target_url,
                "description": description,
                "context": CONTEXT,
            });
            (
                format!("{}/repos/{}/statuses/{sha}", api.base, api.repo),
                body,
                headers(api),
            )
        }
        Forge::Gitlab => {
            let body = serde_json::json!({
                "state": if verdict.success { "success" } else { "failed" },
                "target_url": target_url,
                "description": description,
                "name": CONTEXT,
            });
            (
                format!("{}/projects/{}/statuses/{sha}", api.base, project(api)),
                body,
                headers(api),
            )
        }
    }
}

/// GitLab's project id or path as one URL segment (its slashes encoded).
pub fn project(api: &StatusApi) -> String {
    api.repo.replace('/', "%2F")
}

/// The headers of every request to the forge's API, its token among them
/// (never logged, never written down: added to each request as it is made).
pub fn headers(api: &StatusApi) -> Vec<(String, String)> {
    match api.forge {
        Forge::Github => vec![
            ("Authorization".into(), format!("Bearer {}", api.token)),
            ("Accept".into(), "application/vnd.github+json".into()),
            ("X-GitHub-Api-Version".into(), "2022-11-28".into()),
        ],
        Forge::Gitea => vec![
            ("Authorization".into(), format!("token {}", api.token)),
            ("Accept".into(), "application/json".into()),
        ],
        Forge::Gitlab => vec![("PRIVATE-TOKEN".into(), api.token.clone())],
    }
}

/// The default API of a forge, when `--status-api-url` is not given.
pub fn default_base(forge: Forge) -> Option<&'static str> {
    match forge {
        Forge::Github => Some("https://api.github.com"),
        Forge::Gitlab => Some("https://gitlab.com/api/v4"),
        Forge::Gitea => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(slug: &str, state: ChangeState, level: Option<Level>, errors: usize) -> BrandChange {
        BrandChange {
            slug: slug.into(),
            state,
            level,
            summary: String::new(),
            errors,
            diff: None,
            since: Some("2.4.0".into()),
        }
    }

    #[test]
    fn a_preview_reads_as_its_step_its_changes_and_its_errors() {
        let brands = [
            change("northwind", ChangeState::Changed, Some(Level::Minor), 0),
            change("lumen", ChangeState::Unchanged, None, 0),
        ];
        let v = verdict("fix-x", &brands).unwrap();
        assert_eq!(v.description, "minor: 1 change · 0 errors");
        assert!(v.success);
        assert_eq!(
            v.target,
            "/preview/fix-x/brand/northwind/compare/2.4.0...current"
        );
        let broken = [change("northwind", ChangeState::Invalid, None, 2)];
        let v = verdict("fix-x", &broken).unwrap();
        assert_eq!(v.description, "invalid: 0 changes · 2 errors");
        assert!(!v.success);
        assert_eq!(v.target, "/preview/fix-x");
        let building = [change("northwind", ChangeState::Building, None, 0)];
        assert!(verdict("fix-x", &building).is_none());
    }

    #[test]
    fn each_forge_gets_its_own_shape() {
        let v = Verdict {
            success: false,
            description: "major: 2 changes · 1 error".into(),
            target: "/preview/x".into(),
        };
        let api = |forge, base: &str, repo: &str| StatusApi {
            forge,
            base: base.into(),
            repo: repo.into(),
            token: "t0k".into(),
        };
        let (url, body, headers) = request(
            &api(Forge::Github, "https://api.github.com", "acme/brands"),
            "abc",
            &v,
            "https://b.example",
        );
        assert_eq!(url, "https://api.github.com/repos/acme/brands/statuses/abc");
        assert_eq!(body["state"], "failure");
        assert_eq!(body["target_url"], "https://b.example/preview/x");
        assert_eq!(headers[0], ("Authorization".into(), "Bearer t0k".into()));
        let (url, body, headers) = request(
            &api(Forge::Gitlab, "https://gitlab.com/api/v4", "acme/brands"),
            "abc",
            &v,
            "https://b.example",
        );
        assert_eq!(
            url,
            "https://gitlab.com/api/v4/projects/acme%2Fbrands/statuses/abc"
        );
        assert_eq!(body["state"], "failed");
        assert_eq!(body["name"], "marque");
        assert_eq!(headers[0].0, "PRIVATE-TOKEN");
        let (_, _, headers) = request(
            &api(Forge::Gitea, "https://codeberg.org/api/v1", "acme/brands"),
            "abc",
            &v,
            "",
        );
        assert_eq!(headers[0].1, "token t0k");
        assert!(!format!("{:?}", api(Forge::Github, "", "")).contains("t0k"));
    }
}
