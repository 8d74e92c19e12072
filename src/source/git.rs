//! Git source: read one commit's tree from the object database (no work
//! tree), and the brand's releases from its tags.
//!
//! Everything here is synchronous: git2's `Repository` is `Send` but not
//! `Sync`, so one blocking worker owns it and calls these functions.

use super::Content;
use crate::changelog::{parse_tag, sort_newest_first, Release};
use crate::source::dir::{is_scratch_name, BRAND_FILES};
use crate::spec::brand::{parse_version, MAX_ASSET_BYTES};
use crate::spec::diag::{file_error, Severity};
use crate::spec::{BrandFiles, Diagnostic};
use anyhow::{anyhow, Context as _, Result};
use chrono::{DateTime, NaiveDate};
use git2::{ObjectType, Oid, Repository, Tree, TreeWalkMode, TreeWalkResult};
use std::collections::{BTreeMap, HashSet};

const LINK_MODE: i32 = 0o120000;

/// A released version's files, to render at `/brand/<slug>@<version>/…`.
#[derive(Debug, Clone)]
pub struct Pinned {
    pub release: Release,
    pub files: BrandFiles,
}

/// The content tree below `prefix` (`""` or `"content/"`) of a commit.
fn content_tree<'r>(repo: &'r Repository, commit: Oid, prefix: &str) -> Result<Tree<'r>> {
    let tree = repo.find_commit(commit)?.tree()?;
    let prefix = prefix.trim_end_matches('/');
    if prefix.is_empty() {
        return Ok(tree);
    }
    let entry = tree
        .get_path(std::path::Path::new(prefix))
        .with_context(|| format!("the commit has no folder {prefix}"))?;
    Ok(entry.to_object(repo)?.peel_to_tree()?)
}

/// Reads every brand of a commit.
pub fn content_at(repo: &Repository, commit: Oid, prefix: &str) -> Result<Content> {
    let root = content_tree(repo, commit, prefix)?;
    let mut content = Content::default();
    for entry in root.iter() {
        let Some(name) = entry.name() else { continue };
        if entry.kind() != Some(ObjectType::Tree) || name.starts_with('.') || name.starts_with('_')
        {
            continue;
        }
        let tree = entry.to_object(repo)?.peel_to_tree()?;
        if tree.get_name("brand.json").is_none() {
            continue;
        }
        let (files, mut diags) = brand_files(repo, &tree, name);
        content.diagnostics.append(&mut diags);
        content.brands.push(files);
    }
    content.brands.sort_by(|a, b| a.slug.cmp(&b.slug));
    Ok(content)
}

/// Reads one brand folder of a tree: brand.json, tokens.json, BRAND_BOOK.md and assets/.
pub fn brand_files(
    repo: &Repository,
    tree: &Tree<'_>,
    slug: &str,
) -> (BrandFiles, Vec<Diagnostic>) {
    let mut files = BTreeMap::new();
    let mut diags = Vec::new();
    let mut take = |path: String, entry: &git2::TreeEntry<'_>, diags: &mut Vec<Diagnostic>| {
        let file = format!("{slug}/{path}");
        if entry.filemode() == LINK_MODE {
            diags.push(file_error(
                slug,
                &file,
                "symbolic links are not published from git",
            ));
            return;
        }
        let Ok(blob) = entry.to_object(repo).and_then(|o| o.peel_to_blob()) else {
            return;
        };
        if blob.size() > MAX_ASSET_BYTES {
            diags.push(file_error(
                slug,
                &file,
                format!("file is {} bytes; the limit is 5 MiB", blob.size()),
            ));
            return;
        }
        files.insert(path, blob.content().to_vec());
    };
    for name in BRAND_FILES {
        if let Some(entry) = tree.get_name(name) {
            take((*name).to_string(), &entry, &mut diags);
        }
    }
    if let Some(assets) = tree
        .get_name("assets")
        .and_then(|e| e.to_object(repo).ok())
        .and_then(|o| o.peel_to_tree().ok())
    {
        let _ = assets.walk(TreeWalkMode::PreOrder, |dir, entry| {
            let name = entry.name().unwrap_or_default();
            if entry.kind() == Some(ObjectType::Tree) {
                return if name.starts_with('.') {
                    TreeWalkResult::Skip
                } else {
                    TreeWalkResult::Ok
                };
            }
            if !is_scratch_name(name) {
                take(format!("assets/{dir}{name}"), entry, &mut diags);
            }
            TreeWalkResult::Ok
        });
    }
    (
        BrandFiles {
            slug: slug.to_string(),
            files,
            releases: Vec::new(),
        },
        diags,
    )
}

fn date_of(time: git2::Time) -> NaiveDate {
    let local = time.seconds() + i64::from(time.offset_minutes()) * 60;
    DateTime::from_timestamp(local, 0)
        .map(|d| d.date_naive())
        .unwrap_or_default()
}

/// The version field of `<prefix><slug>/brand.json` at a commit, if readable.
fn version_at(repo: &Repository, commit: Oid, prefix: &str, slug: &str) -> Option<String> {
    let tree = content_tree(repo, commit, prefix).ok()?;
    let entry = tree
        .get_path(std::path::Path::new(&format!("{slug}/brand.json")))
        .ok()?;
    let blob = entry.to_object(repo).ok()?.peel_to_blob().ok()?;
    let v: serde_json::Value = serde_json::from_slice(blob.content()).ok()?;
    v["version"].as_str().map(str::to_string)
}

/// The id of the brand folder's tree at a commit (to tell whether a commit touched it).
fn brand_tree_id(commit: &git2::Commit<'_>, path: &str) -> Option<Oid> {
    commit
        .tree()
        .ok()?
        .get_path(std::path::Path::new(path))
        .ok()
        .map(|e| e.id())
}

/// Subjects of the commits reachable from `to` but not from `from` that
/// changed the brand folder, newest first.
fn subjects_between(repo: &Repository, from: Option<Oid>, to: Oid, path: &str) -> Vec<String> {
    let Ok(mut walk) = repo.revwalk() else {
        return vec![];
    };
    let _ = walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::TIME);
    if walk.push(to).is_err() {
        return vec![];
    }
    if let Some(f) = from {
        let _ = walk.hide(f);
    }
    walk.filter_map(|id| id.ok())
        .filter_map(|id| repo.find_commit(id).ok())
        .filter(|c| {
            let mine = brand_tree_id(c, path);
            let parent = c.parent(0).ok().and_then(|p| brand_tree_id(&p, path));
            mine != parent
        })
        .filter_map(|c| c.summary().map(str::to_string))
        .collect()
}

/// Every valid release of the brands in `slugs`, from the repository's tags.
/// A tag whose version is not semver or disagrees with brand.json at the
/// tagged commit is reported (as a warning on that brand) and skipped.
pub fn history(
    repo: &Repository,
    prefix: &str,
    slugs: &HashSet<String>,
) -> (BTreeMap<String, Vec<Release>>, Vec<Diagnostic>) {
    let mut releases: BTreeMap<String, Vec<Release>> = BTreeMap::new();
    let mut diags = Vec::new();
    let mut lightweight = HashSet::new();
    let names = repo
        .tag_names(None)
        .map(|n| n.iter().flatten().map(str::to_string).collect::<Vec<_>>())
        .unwrap_or_default();
    for name in names {
        let Some((slug, version_text)) = parse_tag(&name) else {
            continue;
        };
        if !slugs.contains(slug) {
            continue;
        }
        let warn = |message: String| Diagnostic {
            severity: Severity::Warning,
            brand: slug.to_string(),
            file: format!("{slug}/brand.json"),
            pointer: "/version".into(),
            line: 1,
            column: 1,
            message,
        };
        let Ok(reference) = repo.find_reference(&format!("refs/tags/{name}")) else {
            continue;
        };
        let Ok(commit) = reference.peel_to_commit() else {
            continue;
        };
        let annotated = reference.peel_to_tag().ok();
        let version = match parse_version(version_text) {
            Ok(v) => v,
            Err(e) => {
                diags.push(warn(format!("tag {name} is skipped: {e}")));
                continue;
            }
        };
        match version_at(repo, commit.id(), prefix, slug) {
            Some(v) if v == version_text => {}
            Some(v) => {
                diags.push(warn(format!(
                    "tag {name} is skipped: brand.json at {} says version \"{v}\"",
                    &commit.id().to_string()[..12]
                )));
                continue;
            }
            None => {
                diags.push(warn(format!(
                    "tag {name} is skipped: the tagged commit has no readable {slug}/brand.json"
                )));
                continue;
            }
        }
        let (date, notes) = match &annotated {
            Some(tag) => (
                tag.tagger()
                    .map_or_else(|| date_of(commit.time()), |t| date_of(t.when())),
                tag.message()
                    .unwrap_or_default()
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .map(str::to_string)
                    .collect(),
            ),
            None => {
                lightweight.insert(name.clone());
                (date_of(commit.time()), Vec::new())
            }
        };
        releases.entry(slug.to_string()).or_default().push(Release {
            version,
            date,
            tag: name.clone(),
            commit: commit.id().to_string(),
            notes,
        });
    }
    // Lightweight tags carry no message: list the commits since the previous release.
    for (slug, list) in releases.iter_mut() {
        sort_newest_first(list);
        let path = format!("{}{slug}", prefix);
        for i in 0..list.len() {
            if !lightweight.contains(&list[i].tag) {
                continue;
            }
            let to = Oid::from_str(&list[i].commit).ok();
            let from = list.get(i + 1).and_then(|p| Oid::from_str(&p.commit).ok());
            if let Some(to) = to {
                list[i].notes = subjects_between(repo, from, to, &path);
            }
        }
    }
    (releases, diags)
}

/// The files of every release, for pinned URLs.
pub fn pinned(
    repo: &Repository,
    prefix: &str,
    releases: &BTreeMap<String, Vec<Release>>,
) -> Vec<Pinned> {
    let mut out = Vec::new();
    for (slug, list) in releases {
        for r in list {
            let Ok(oid) = Oid::from_str(&r.commit) else {
                continue;
            };
            let Ok(root) = content_tree(repo, oid, prefix) else {
                continue;
            };
            let Some(tree) = root
                .get_name(slug)
                .and_then(|e| e.to_object(repo).ok())
                .and_then(|o| o.peel_to_tree().ok())
            else {
                continue;
            };
            let (files, _) = brand_files(repo, &tree, slug);
            out.push(Pinned {
                release: r.clone(),
                files,
            });
        }
    }
    out
}

/// Reads a commit's content plus the releases of its brands.
pub fn snapshot_input(repo: &Repository, commit: Oid, prefix: &str) -> Result<Content> {
    let mut content = content_at(repo, commit, prefix)?;
    add_history(repo, prefix, &mut content);
    Ok(content)
}

/// Adds the releases (from tags) of the content's brands.
pub fn add_history(repo: &Repository, prefix: &str, content: &mut Content) {
    let slugs: HashSet<String> = content.brands.iter().map(|b| b.slug.clone()).collect();
    let (releases, mut diags) = history(repo, prefix, &slugs);
    content.pinned = pinned(repo, prefix, &releases);
    for b in &mut content.brands {
        b.releases = releases.get(&b.slug).cloned().unwrap_or_default();
    }
    content.diagnostics.append(&mut diags);
}

/// For a content folder inside a git work tree: the repository and the
/// folder's path inside it (`"content/"`), so its tags feed the changelog.
pub fn discover(dir: &std::path::Path) -> Option<(Repository, String)> {
    let repo = Repository::discover(dir).ok()?;
    let workdir = repo.workdir()?.canonicalize().ok()?;
    let dir = dir.canonicalize().ok()?;
    let rel = dir.strip_prefix(&workdir).ok()?;
    let mut prefix = rel.to_str()?.replace('\\', "/");
    if !prefix.is_empty() {
        prefix.push('/');
    }
    Some((repo, prefix))
}

/// Removes `user:password@` from a URL, for logs and /status.
pub fn redact_url(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest.split_once('/').map_or((rest, ""), |(a, p)| (a, p));
            let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
            if path.is_empty() && !rest.contains('/') {
                format!("{scheme}://{host}")
            } else {
                format!("{scheme}://{host}/{path}")
            }
        }
        // scp-like `git@host:org/repo.git`: the user is not a secret, keep it.
        None => url.to_string(),
    }
}

/// The error of an operation, with any URL in it redacted.
pub fn describe(e: &anyhow::Error, url: &str) -> String {
    format!("{e:#}").replace(url, &redact_url(url))
}

pub fn no_branch(branch: &str) -> anyhow::Error {
    anyhow!("the remote has no branch {branch}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_removed_from_urls() {
        assert_eq!(
            redact_url("https://x-access-token:ghp_secret@github.com/acme/brands.git"),
            "https://github.com/acme/brands.git"
        );
        assert_eq!(
            redact_url("https://github.com/acme/brands.git"),
            "https://github.com/acme/brands.git"
        );
        assert_eq!(redact_url("file:///srv/brands"), "file:///srv/brands");
        assert_eq!(
            redact_url("git@github.com:acme/brands.git"),
            "git@github.com:acme/brands.git"
        );
    }
}
