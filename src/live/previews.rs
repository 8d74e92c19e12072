//! Branch previews (git mode, `--preview-branches GLOB`): every branch of
//! the remote whose name matches is built like the published branch and
//! served under `/preview/<name>/…`, never cached (`no-store`) and never
//! indexed (`X-Robots-Tag: noindex`), its pages under a banner that says
//! which commit it is and what it changes against the published branch.
//! `/previews.json` lists them. At most `--preview-limit` branches are
//! kept, newest commit first; a deleted branch goes on the next fetch.
//!
//! Reads the mirror (one blocking worker owns it, see `GitWorker` in `git.rs`).

use crate::build::{assemble, build_catalog, BuildOptions, Catalog, Views};
use crate::paths;
use crate::render::diff::verdict;
use crate::render::previews::{
    banner, with_banner, BrandChange, ChangeState, PreviewRow, PreviewSettings,
};
use crate::render::status::Reload;
use crate::render::{self, Context};
use crate::snapshot::{CachePolicy, Effort, Resource, Resources, Snapshot};
use crate::source::git::GitSource;
use crate::spec::diff::{diff, Diff, Level};
use axum::http::{HeaderName, HeaderValue};
use git2::{BranchType, Oid, Repository};
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Which branches are previewed, and how many at most.
#[derive(Debug, Clone)]
pub struct PreviewConfig {
    /// A glob over branch names: `*` matches any run of characters, `/`
    /// included; `?` matches one.
    pub glob: String,
    pub limit: usize,
}

/// True when `branch` matches `glob` (`*` any run, `/` included; `?` one character).
pub fn matches(glob: &str, branch: &str) -> bool {
    let (g, b): (Vec<char>, Vec<char>) = (glob.chars().collect(), branch.chars().collect());
    let (mut gi, mut bi) = (0, 0);
    // Where the last `*` was, and how much of `branch` it has taken.
    let mut star: Option<(usize, usize)> = None;
    while bi < b.len() {
        match g.get(gi) {
            Some('*') => {
                star = Some((gi, bi));
                gi += 1;
            }
            Some(c) if *c == '?' || *c == b[bi] => {
                gi += 1;
                bi += 1;
            }
            _ => match star {
                Some((sg, sb)) => {
                    gi = sg + 1;
                    bi = sb + 1;
                    star = Some((sg, sb + 1));
                }
                None => return false,
            },
        }
    }
    g[gi..].iter().all(|c| *c == '*')
}

/// A branch's name in paths: lower-cased, every character outside `a-z`,
/// `0-9` and `-` replaced by `-` (`Feature/New_Palette` → `feature-new-palette`).
pub fn name_of(branch: &str) -> String {
    branch
        .chars()
        .map(|c| match c.to_ascii_lowercase() {
            c @ ('a'..='z' | '0'..='9' | '-') => c,
            _ => '-',
        })
        .collect()
}

/// One previewed branch.
#[derive(Debug)]
pub struct Preview {
    pub name: String,
    pub branch: String,
    pub commit: String,
    /// The commit's time, seconds since the epoch: the newest are kept.
    pub time: i64,
    pub brands: Vec<BrandChange>,
    pub snapshot: Arc<Snapshot>,
}

/// What each brand of `preview` changes against `published`.
fn changes(published: &Catalog, preview: &Catalog) -> Vec<BrandChange> {
    let mut out = Vec::new();
    for (slug, s) in &preview.brands {
        let errors = preview
            .brand_diagnostics(s)
            .iter()
            .filter(|d| d.severity() == crate::spec::Severity::Error)
            .count();
        let new = s
            .published
            .as_ref()
            .filter(|_| !s.stale())
            .and_then(|p| p.comparable.brand.brand());
        let old = published
            .brands
            .get(slug)
            .and_then(|p| p.published.as_ref())
            .and_then(|p| p.comparable.brand.brand());
        let (state, d) = match (old, new) {
            _ if preview.is_building(slug) => (ChangeState::Building, None),
            (_, None) => (ChangeState::Invalid, None),
            (None, Some(_)) => (ChangeState::Added, None),
            (Some(old), Some(new)) => {
                let d = diff(&old, &new);
                let state = match d.is_empty() {
                    true => ChangeState::Unchanged,
                    false => ChangeState::Changed,
                };
                (state, Some(d))
            }
        };
        let summary = match (&d, state) {
            (Some(d), _) => verdict(d),
            (None, ChangeState::Added) => "A brand the published branch does not have.".to_string(),
            (None, ChangeState::Building) => {
                "Still being checked and rendered: compared when it is done.".to_string()
            }
            _ => format!("{errors} error(s): not comparable until they are fixed."),
        };
        out.push(BrandChange {
            slug: slug.clone(),
            state,
            level: d.as_ref().and_then(Diff::level),
            summary,
            errors,
            diff: d,
        });
    }
    for slug in published.brands.keys() {
        if !preview.brands.contains_key(slug) {
            out.push(BrandChange {
                slug: slug.clone(),
                state: ChangeState::Removed,
                level: Some(Level::Major),
                summary: "The branch removes this brand.".to_string(),
                errors: 0,
                diff: None,
            });
        }
    }
    out
}

/// A preview's copy of `r`: `no-store`, `noindex`, and on a page the banner.
fn previewed(r: &Resource, banner: Option<&str>) -> Arc<Resource> {
    let mut out = match banner {
        Some(b) => {
            let content_type = r.content_type.to_str().unwrap_or("text/html");
            let body = with_banner(&r.identity.body, b);
            let mut page = Resource::with_effort(content_type, body, r.cache, Effort::Fast);
            page.headers = r.headers.clone();
            page
        }
        None => r.clone(),
    };
    out.cache = CachePolicy::NoStore;
    out.cache_control = CachePolicy::NoStore.header();
    out.headers.push((
        HeaderName::from_static("x-robots-tag"),
        HeaderValue::from_static("noindex"),
    ));
    Arc::new(out)
}

/// The snapshot a preview serves: every resource of `snap` made a preview's.
fn finish(snap: Snapshot, p: &Preview, published: &str) -> Snapshot {
    let is_page = |r: &Resource| r.content_type.as_bytes().starts_with(b"text/html");
    let convert = |resources: &Resources| -> Resources {
        resources
            .iter()
            .map(|(path, r)| {
                let banner = is_page(r).then(|| {
                    let slug = path.strip_prefix("/brand/").filter(|s| !s.contains('/'));
                    banner(&p.branch, &p.commit, published, &p.brands, slug)
                });
                (path.clone(), previewed(r, banner.as_deref()))
            })
            .collect()
    };
    Snapshot {
        brands: snap
            .brands
            .iter()
            .map(|(k, r)| (k.clone(), Arc::new(convert(r))))
            .collect(),
        documents: convert(&snap.documents),
        unpublished: convert(&snap.unpublished),
        ..snap
    }
}

/// A branch to preview.
struct Wanted {
    /// Its name in paths (see [`name_of`]).
    name: String,
    branch: String,
    commit: Oid,
    /// The commit's time, seconds since the epoch.
    time: i64,
}

/// What the server knows of one previewed branch between fetches.
struct State {
    source: GitSource,
    catalog: Catalog,
    views: Views,
    preview: Arc<Preview>,
}

/// Builds and keeps the previews, fetch after fetch.
pub struct Previews {
    pub cfg: PreviewConfig,
    prefix: String,
    /// The published branch, which is never previewed.
    published: String,
    states: BTreeMap<String, State>,
}

impl Previews {
    pub fn new(cfg: PreviewConfig, prefix: &str, published: &str) -> Previews {
        Previews {
            cfg,
            prefix: prefix.to_string(),
            published: published.to_string(),
            states: BTreeMap::new(),
        }
    }

    /// The matching branches of the mirror, newest commit first, one per
    /// name, at most the limit.
    fn wanted(&self, repo: &Repository) -> Vec<Wanted> {
        let mut found = Vec::new();
        let Ok(branches) = repo.branches(Some(BranchType::Local)) else {
            return found;
        };
        for (branch, _) in branches.flatten() {
            let Ok(Some(name)) = branch.name() else {
                continue;
            };
            if name == self.published || !matches(&self.cfg.glob, name) {
                continue;
            }
            if let Ok(commit) = branch.get().peel_to_commit() {
                found.push(Wanted {
                    name: name_of(name),
                    branch: name.to_string(),
                    commit: commit.id(),
                    time: commit.time().seconds(),
                });
            }
        }
        found.sort_by(|a, b| b.time.cmp(&a.time).then_with(|| a.branch.cmp(&b.branch)));
        let mut seen = std::collections::HashSet::new();
        found.retain(|w| {
            let first = seen.insert(w.name.clone());
            if !first {
                tracing::warn!(branch = %w.branch, preview = %w.name, "another, newer branch has the same preview name; not previewed");
            }
            first
        });
        found.truncate(self.cfg.limit);
        found
    }

    /// Brings the previews in line with the mirror's branches and with the
    /// published catalog (`published_changed`: every preview's diff is made
    /// again). True when anything changed.
    pub fn update(
        &mut self,
        repo: &Repository,
        published: &Catalog,
        published_changed: bool,
        ctx: &Context,
        opts: &BuildOptions,
    ) -> bool {
        let wanted = self.wanted(repo);
        let before = self.states.len();
        self.states.retain(|name, s| {
            let kept = wanted.iter().any(|w| &w.name == name);
            if !kept {
                s.catalog.cancel_running();
                tracing::info!(branch = %s.preview.branch, preview = %name, "preview removed: its branch is gone, no longer matches, or is past --preview-limit");
            }
            kept
        });
        let mut changed = self.states.len() != before;
        for branch in wanted {
            // A preview whose brand was left building is built again once
            // that brand's job ends.
            let current = self.states.get(&branch.name).is_some_and(|s| {
                s.preview.commit == branch.commit.to_string()
                    && s.preview.branch == branch.branch
                    && !s.catalog.has_ended_jobs()
            });
            if current && !published_changed {
                continue;
            }
            let state = self.states.remove(&branch.name);
            match self.build(repo, state, &branch, published, ctx, opts) {
                Ok(state) => {
                    self.states.insert(branch.name, state);
                }
                Err(e) => {
                    tracing::warn!(branch = %branch.branch, commit = %branch.commit, error = %format!("{e:#}"), "cannot build the preview");
                }
            }
            changed = true;
        }
        changed
    }

    fn build(
        &self,
        repo: &Repository,
        state: Option<State>,
        wanted: &Wanted,
        published: &Catalog,
        ctx: &Context,
        opts: &BuildOptions,
    ) -> anyhow::Result<State> {
        let (mut source, previous, mut views) = match state {
            Some(s) => (s.source, s.catalog, s.views),
            None => (
                GitSource::new(&self.prefix),
                Catalog::default(),
                Views::default(),
            ),
        };
        let Wanted {
            name,
            branch,
            commit,
            time,
        } = wanted;
        let (content, _) = source.read(repo, *commit)?;
        let mut pctx = Context::new(&ctx.url(&paths::preview(name)));
        pctx.max_age = 0;
        // Under the same budgets as the published branch, on the preview
        // pool: one build at a time, at a lower scheduling priority.
        let popts = BuildOptions {
            cache: None,
            serve_releases: false,
            priority: crate::build::jobs::Priority::Preview,
            fault: None,
            ..opts.clone()
        };
        let catalog = build_catalog(&content, &pctx, crate::clock::today(), &previous, &popts);
        let reload = Reload {
            source: format!("preview of branch {branch}"),
            revision: Some(commit.to_string()),
            generation: 1,
            reloads: 1,
            last_build: catalog.work,
            ..Reload::default()
        };
        let (snap, _) = assemble(&catalog, &pctx, 1, &reload, &mut views, None);
        let mut preview = Preview {
            name: name.to_string(),
            branch: branch.to_string(),
            commit: commit.to_string(),
            time: *time,
            brands: changes(published, &catalog),
            snapshot: Arc::default(),
        };
        preview.snapshot = Arc::new(finish(snap, &preview, &self.published));
        let errors = catalog.errors();
        for d in errors.iter().take(20) {
            tracing::warn!(preview = %name, file = %d.file, line = d.line, column = d.column, "{}", d.message);
        }
        tracing::info!(%branch, %commit, preview = %name, errors = errors.len(), "preview built");
        Ok(State {
            source,
            catalog,
            views,
            preview: Arc::new(preview),
        })
    }

    /// The previews served, by name.
    pub fn served(&self) -> HashMap<String, Arc<Snapshot>> {
        self.states
            .iter()
            .map(|(name, s)| (name.clone(), s.preview.snapshot.clone()))
            .collect()
    }

    /// `/previews.json`.
    pub fn document(&self, ctx: &Context) -> Resource {
        let mut list: Vec<&Preview> = self.states.values().map(|s| &*s.preview).collect();
        list.sort_by(|a, b| b.time.cmp(&a.time).then_with(|| a.name.cmp(&b.name)));
        document(ctx, Some((&self.cfg, &self.published)), &list)
    }
}

/// `/previews.json`: every preview with its branch, commit and what it
/// changes; `enabled: false` and no previews when marque previews nothing.
pub fn document(
    ctx: &Context,
    cfg: Option<(&PreviewConfig, &str)>,
    previews: &[&Preview],
) -> Resource {
    let rows: Vec<PreviewRow<'_, [BrandChange]>> = previews
        .iter()
        .map(|p| PreviewRow {
            name: &p.name,
            branch: &p.branch,
            commit: &p.commit,
            time: p.time,
            brands: p.brands.as_slice(),
        })
        .collect();
    let settings = cfg.map(|(c, published)| PreviewSettings {
        branches: &c.glob,
        limit: c.limit,
        published_branch: published,
    });
    let body = render::previews::list_json(ctx, settings, &rows);
    Resource::with_effort("application/json", body, CachePolicy::NoStore, Effort::Fast)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_branch_names_across_slashes() {
        assert!(matches("*", "feature/new-palette"));
        assert!(matches("preview/*", "preview/spring"));
        assert!(!matches("preview/*", "feature/spring"));
        assert!(matches("release-?", "release-2"));
        assert!(!matches("release-?", "release-10"));
        assert!(matches("*-wip*", "brand/spring-wip-2"));
        assert!(!matches("main", "mainline"));
        assert!(matches("", "") && !matches("", "x"));
    }

    #[test]
    fn names_keep_only_lowercase_letters_digits_and_hyphens() {
        assert_eq!(name_of("Feature/New_Palette"), "feature-new-palette");
        assert_eq!(name_of("préview.2"), "pr-view-2");
    }
}
