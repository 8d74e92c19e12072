//! Branch previews (git mode, `--preview-branches GLOB`): every branch of
//! the remote whose name matches is built like the published branch and
//! served under `/preview/<name>/…`, never cached (`no-store`) and never
//! indexed (`X-Robots-Tag: noindex`), its pages under a banner that says
//! which commit it is and what it changes against the published branch.
//! `/previews.json` lists them. At most `--preview-limit` branches are
//! kept, newest commit first; a deleted branch goes on the next fetch.
//!
//! Each previewed branch has a [`Reloader`] of its own: the same pipeline
//! as the published branch, whose render context (`Context::preview`)
//! decides the preview's cache policy as it renders. Only the banner, which
//! depends on the comparison with the published branch, is added after,
//! to pages that were left uncompressed for it: nothing is encoded twice.
//!
//! Reads the mirror (one blocking worker owns it, see `GitWorker` in `git.rs`).

use super::reload::Reloader;
use crate::build::audience::Inherited;
use crate::build::{BuildOptions, Catalog};
use crate::clock::Clock;
use crate::paths;
use crate::render::diff::verdict;
use crate::render::previews::{
    banner, with_banner, BrandChange, ChangeState, PreviewRow, PreviewSettings,
};
use crate::render::{self, Context};
use crate::report::Reporter;
use crate::snapshot::{Branch, CachePolicy, Effort, Resource, Resources, Site, Snapshot};
use crate::source::git::GitSource;
use crate::spec::diff::{diff, Diff, Level};
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
    /// What it serves, to each audience.
    pub views: Branch,
}

/// What each brand of `preview` changes against `published`, at `now`.
fn changes(
    published: &Catalog,
    preview: &Catalog,
    inherited: &Inherited,
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<BrandChange> {
    // /previews.json and the banners answer whoever may read previews:
    // they compare what public readers see of each branch, the preview as
    // the published branch decides, so a private brand or a version under
    // embargo, in either, is never named or quoted there (DESIGN.md §20).
    let split = |c: &Catalog, i: &Inherited| crate::build::audience::split(c, i, now, &[], 0);
    let (a, b) = (
        split(published, &Inherited::default()).public,
        split(preview, inherited).public,
    );
    changes_between(
        a.as_ref().unwrap_or(published),
        b.as_ref().unwrap_or(preview),
        preview,
    )
}

/// What `preview` changes against `published`, both as public readers see
/// them; `branch` is the preview as built (a brand withheld there is not
/// one the branch removes).
fn changes_between(published: &Catalog, preview: &Catalog, branch: &Catalog) -> Vec<BrandChange> {
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
            .and_then(|p| p.model.brand.brand());
        let old = published
            .brands
            .get(slug)
            .and_then(|p| p.published.as_ref())
            .and_then(|p| p.model.brand.brand());
        let since = new
            .as_ref()
            .and_then(|b| b.releases.first())
            .map(|r| r.version.to_string());
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
            since,
        });
    }
    for slug in published.brands.keys() {
        if !branch.brands.contains_key(slug) {
            out.push(BrandChange {
                slug: slug.clone(),
                state: ChangeState::Removed,
                level: Some(Level::Major),
                summary: "The branch removes this brand.".to_string(),
                errors: 0,
                diff: None,
                since: None,
            });
        }
    }
    out
}

/// The snapshot a preview serves of one view: `built` (rendered `no-store` and
/// `noindex`, its pages uncompressed, see `Context::preview`) with the
/// banner on each page, which is compressed now, once. Every other
/// resource is served as it was built, shared.
fn with_banners(built: &Snapshot, p: &Preview, published: &str) -> Snapshot {
    let bannered = |resources: &Resources| -> Resources {
        resources
            .iter()
            .map(|(path, r)| {
                if !r.content_type.as_bytes().starts_with(b"text/html") {
                    return (path.clone(), r.clone());
                }
                let slug = path.strip_prefix("/brand/").filter(|s| !s.contains('/'));
                let banner = banner(&p.branch, &p.commit, published, &p.brands, slug);
                let media = r.content_type.to_str().unwrap_or("text/html");
                let body = with_banner(&r.body(), &banner);
                let page = Resource {
                    headers: r.headers.clone(),
                    ..Resource::with_effort(media, body, r.cache, Effort::Fast)
                };
                (path.clone(), Arc::new(page))
            })
            .collect()
    };
    Snapshot {
        brands: built
            .brands
            .iter()
            .map(|(k, r)| (k.clone(), Arc::new(bannered(r))))
            .collect(),
        documents: {
            // Its large documents (the lists, /openapi.json) were built
            // with gzip alone: they get brotli here, as the main site's do
            // once served. Pages have theirs with the banner.
            let mut documents = bannered(&built.documents);
            documents.extend(
                crate::build::compress_later(built)
                    .into_iter()
                    .filter(|(_, r)| !r.content_type.as_bytes().starts_with(b"text/html")),
            );
            documents
        },
        unpublished: bannered(&built.unpublished),
        ..built.clone()
    }
}

/// What a branch's pipeline keeps between its commits.
fn state_of_branch(state: Option<State>) -> Option<(GitSource, Reloader)> {
    state.map(|s| (s.source, s.reloader))
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

/// The published branch, as every preview is compared with it and
/// inherits from it.
struct Published<'p> {
    catalog: &'p Catalog,
    inherited: &'p Inherited,
    clock: &'p Clock,
}

/// What the server knows of one previewed branch between fetches.
struct State {
    source: GitSource,
    /// The branch's own pipeline, as the published branch has one.
    reloader: Reloader,
    /// Its views as built, before the banners.
    built: Branch,
    preview: Arc<Preview>,
}

/// Builds and keeps the previews, fetch after fetch.
pub struct Previews {
    pub cfg: PreviewConfig,
    prefix: String,
    /// How a preview's build is reported: framed, as the published branch's.
    reporter: Option<Reporter>,
    /// The published branch, which is never previewed.
    published: String,
    states: BTreeMap<String, State>,
    /// The access tokens: a preview's private brands are withheld as the
    /// published branch's are.
    access: Option<Arc<crate::access::Access>>,
    /// What the published branch decided when the previews were last split.
    inherited: Inherited,
}

impl Previews {
    pub fn new(
        cfg: PreviewConfig,
        prefix: &str,
        published: &str,
        reporter: Option<Reporter>,
    ) -> Previews {
        Previews {
            cfg,
            prefix: prefix.to_string(),
            reporter,
            published: published.to_string(),
            states: BTreeMap::new(),
            access: None,
            inherited: Inherited::default(),
        }
    }

    /// Withholds each preview's private brands and embargoed versions from
    /// readers without a token, as the published branch does.
    pub fn with_access(mut self, access: Option<Arc<crate::access::Access>>) -> Previews {
        self.access = access;
        self
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
        clock: &Clock,
    ) -> bool {
        let wanted = self.wanted(repo);
        // What the published branch decides holds in every preview (F7:
        // a branch cannot publish what the published branch keeps private).
        let inherited = crate::build::audience::inherited(published);
        self.inherited = inherited.clone();
        let on = Published {
            catalog: published,
            inherited: &inherited,
            clock,
        };
        let before = self.states.len();
        self.states.retain(|name, s| {
            let kept = wanted.iter().any(|w| &w.name == name);
            if !kept {
                // Dropping its reloader calls off the jobs it still runs.
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
                    && !s.reloader.catalog().has_ended_jobs()
            });
            if current && !published_changed {
                continue;
            }
            let state = self.states.remove(&branch.name);
            // Only compared again when only the published branch changed.
            let state = match state {
                Some(state) if current => Ok(self.compare(state, &on)),
                other => self.build(repo, state_of_branch(other), &branch, &on, ctx, opts),
            };
            match state {
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

    /// Builds the branch's commit with its own reloader (made the first
    /// time), then compares it with `published`.
    fn build(
        &self,
        repo: &Repository,
        state: Option<(GitSource, Reloader)>,
        wanted: &Wanted,
        published: &Published<'_>,
        ctx: &Context,
        opts: &BuildOptions,
    ) -> anyhow::Result<State> {
        let Wanted {
            name,
            branch,
            commit,
            time,
        } = wanted;
        let (mut source, mut reloader) = state.unwrap_or_else(|| {
            let mut pctx = Context::new(&ctx.url(&paths::preview(name)));
            pctx.max_age = 0;
            pctx.preview = true;
            pctx.source_prefix = ctx.source_prefix.clone();
            // Under the same budgets as the published branch, on the
            // preview pool: one build at a time, at a lower priority.
            let popts = BuildOptions {
                renders: None,
                serve_releases: false,
                priority: crate::build::jobs::Priority::Preview,
                fault: None,
                ..opts.clone()
            };
            let source = format!("preview of branch {branch}");
            let reloader = Reloader::for_preview(pctx, source, popts, self.reporter)
                .with_access(self.access.clone())
                .with_clock(published.clock.clone());
            (GitSource::new(&self.prefix), reloader)
        });
        let (content, _) = source.read(repo, *commit)?;
        reloader.set_inherited(published.inherited.clone());
        let revision = Some(commit.to_string());
        // Reported as the published branch's builds are, errors framed,
        // under a line that says which preview it is.
        let cause = format!(
            "preview {name}: branch {branch} at {}",
            &commit.to_string()[..12]
        );
        let Some(next) = reloader.rebuild(&content, revision, &cause, &Site::default()) else {
            anyhow::bail!("a preview's first build always makes a snapshot");
        };
        let errors = reloader.catalog().errors();
        tracing::info!(%branch, %commit, preview = %name, errors = errors.len(), "preview built");
        let preview = Preview {
            name: name.to_string(),
            branch: branch.to_string(),
            commit: commit.to_string(),
            time: *time,
            brands: Vec::new(),
            views: Branch::default(),
        };
        let state = State {
            source,
            reloader,
            built: next.site.published,
            preview: Arc::new(preview),
        };
        Ok(self.compare(state, published))
    }

    /// The preview of `state` compared with `published` again: what each
    /// brand changes, and the banners that say so. Its snapshot is made
    /// again when what the published branch decides has changed.
    fn compare(&self, mut state: State, published: &Published<'_>) -> State {
        if state.reloader.set_inherited(published.inherited.clone()) {
            let next = state.reloader.site(&Site::default(), false);
            state.built = next.site.published;
        }
        let mut preview = Preview {
            brands: changes(
                published.catalog,
                state.reloader.catalog(),
                published.inherited,
                published.clock.now(),
            ),
            views: Branch::default(),
            name: state.preview.name.clone(),
            branch: state.preview.branch.clone(),
            commit: state.preview.commit.clone(),
            time: state.preview.time,
        };
        preview.views = state
            .built
            .map(|view| with_banners(view, &preview, &self.published));
        State {
            preview: Arc::new(preview),
            ..state
        }
    }

    /// What the published branch decided when the previews were last split.
    pub fn inherited(&self) -> &Inherited {
        &self.inherited
    }

    /// The previews as last built.
    pub fn previews(&self) -> impl Iterator<Item = &Preview> {
        self.states.values().map(|s| &*s.preview)
    }

    /// The previews served, by name.
    pub fn served(&self) -> HashMap<String, Branch> {
        self.states
            .iter()
            .map(|(name, s)| (name.clone(), s.preview.views.clone()))
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
