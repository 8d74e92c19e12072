//! Git mode. A bare mirror of the remote lives in the cache folder; one
//! blocking worker owns it, fetches on start, on every poll (with jitter)
//! and on every webhook, and rebuilds when the branch head or the tags
//! moved. The snapshot is built from one commit's tree, read from the
//! object database. A failed fetch keeps the last good snapshot and retries
//! with capped exponential backoff; a warm cache serves even when the
//! remote is unreachable at start. Credentials come from the environment
//! and never reach logs or /status. Directory mode's loop (`dir.rs`)
//! has the same shape: a worker that owns its source and the [`Live`]
//! pair, and a blocking step per trigger.

use super::previews::{PreviewConfig, Previews};
use super::Live;
use crate::redact::redact_url;
use crate::source::git::{describe, no_branch, GitSource};
use anyhow::{Context as _, Result};
use git2::{
    AutotagOption, Cred, CredentialType, FetchOptions, FetchPrune, RemoteCallbacks, Repository,
};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct GitConfig {
    pub url: String,
    pub branch: String,
    pub poll: Duration,
    pub cache_dir: PathBuf,
    /// Path of the content folder inside the repository (`""` for its root).
    pub prefix: String,
    /// Branches served as previews (`--preview-branches`), if any.
    pub previews: Option<PreviewConfig>,
}

/// Longest wait between retries after failed fetches.
pub const MAX_BACKOFF: Duration = Duration::from_secs(300);

/// The mirror's folder: one per remote URL, so changing `--git-url` starts afresh.
pub fn mirror_path(cache_dir: &Path, url: &str) -> PathBuf {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(redact_url(url).as_bytes());
    let id: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
    cache_dir.join(format!("mirror-{id}.git"))
}

pub fn open_mirror(path: &Path) -> Result<Repository> {
    if path.exists() {
        return Repository::open_bare(path)
            .with_context(|| format!("cannot open the git cache {}", path.display()));
    }
    std::fs::create_dir_all(path)?;
    Ok(Repository::init_bare(path)?)
}

/// Credentials from the environment: `MARQUE_GIT_TOKEN` for https, the ssh
/// agent or `MARQUE_GIT_SSH_KEY` for ssh. Gives up after a few attempts, so a
/// wrong token fails the fetch instead of looping.
fn callbacks<'a>() -> RemoteCallbacks<'a> {
    let mut attempts = 0;
    let mut cb = RemoteCallbacks::new();
    cb.credentials(move |_url, username, allowed| {
        attempts += 1;
        if attempts > 3 {
            return Err(git2::Error::from_str("the remote refused the credentials"));
        }
        if allowed.contains(CredentialType::USER_PASS_PLAINTEXT) {
            if let Ok(token) = std::env::var("MARQUE_GIT_TOKEN") {
                return Cred::userpass_plaintext(username.unwrap_or("x-access-token"), &token);
            }
        }
        if allowed.contains(CredentialType::SSH_KEY) {
            let user = username.unwrap_or("git");
            return match std::env::var("MARQUE_GIT_SSH_KEY") {
                Ok(path) => Cred::ssh_key(user, None, Path::new(&path), None),
                Err(_) => Cred::ssh_key_from_agent(user),
            };
        }
        Cred::default()
    });
    cb
}

/// Fetches the branch and every tag into the mirror, pruning deleted tags;
/// with previews, every branch, pruning deleted ones.
pub fn fetch(repo: &Repository, cfg: &GitConfig) -> Result<()> {
    let mut remote = repo.remote_anonymous(&cfg.url)?;
    let mut fo = FetchOptions::new();
    fo.remote_callbacks(callbacks())
        .prune(FetchPrune::On)
        .download_tags(AutotagOption::All);
    let heads = match cfg.previews {
        Some(_) => "+refs/heads/*:refs/heads/*".to_string(),
        None => format!("+refs/heads/{b}:refs/heads/{b}", b = cfg.branch),
    };
    let refspecs = [heads, "+refs/tags/*:refs/tags/*".to_string()];
    remote
        .fetch(&refspecs, Some(&mut fo), None)
        .map_err(anyhow::Error::from)
}

/// What decides whether a rebuild is needed: the head commit and every tag.
fn state_of(repo: &Repository, branch: &str) -> Result<State> {
    let head = repo
        .find_reference(&format!("refs/heads/{branch}"))
        .map_err(|_| no_branch(branch))?
        .peel_to_commit()?
        .id();
    let mut tags = Vec::new();
    repo.tag_foreach(|oid, name| {
        tags.push((String::from_utf8_lossy(name).into_owned(), oid));
        true
    })?;
    tags.sort();
    Ok((head, tags))
}

/// A small random spread so replicas do not fetch in lockstep.
fn jitter(base: Duration) -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let spread = base.as_millis() as u64 / 10;
    if spread == 0 {
        return base;
    }
    base - Duration::from_millis(spread) + Duration::from_millis(u64::from(nanos) % (2 * spread))
}

/// Queues a commit status (and, with --status-comment, the pull request's
/// comment) for each preview whose commit or verdict is new since the
/// last one queued (nothing while a brand is building).
fn post_statuses(
    previews: &Previews,
    outbox: &crate::outbound::outbox::Outbox,
    posted: &mut std::collections::HashMap<
        String,
        (String, crate::outbound::commit_status::Verdict),
    >,
) {
    posted.retain(|name, _| previews.previews().any(|p| &p.name == name));
    for p in previews.previews() {
        let Some(verdict) = crate::outbound::commit_status::verdict(&p.name, &p.brands) else {
            continue;
        };
        let now = (p.commit.clone(), verdict);
        if posted.get(&p.name) != Some(&now) {
            tracing::info!(branch = %p.branch, commit = %p.commit, description = %now.1.description, "queueing the preview's commit status");
            outbox.commit_status(&now.0, &now.1);
            // The pull request's comment (--status-comment) follows the
            // status: once per commit and verdict, edited in place.
            outbox.comment(p, &now.1);
            posted.insert(p.name.clone(), now);
        }
    }
}

/// The branch head and every tag of the mirror: what decides whether a
/// rebuild is needed.
type State = (git2::Oid, Vec<(String, git2::Oid)>);

/// What git mode holds for the server's lifetime: the mirror, the content
/// as last read from it, the reloader and publisher, and the previews.
pub struct GitWorker {
    live: Live,
    repo: Repository,
    cfg: GitConfig,
    /// The remote's URL without credentials, for logs.
    shown: String,
    source: GitSource,
    /// The state of the mirror the served snapshot was built from.
    built: Option<State>,
    /// Fetches failed in a row: the wait before the next grows with them.
    failures: u32,
    previews: Option<Previews>,
    /// The commit status last queued for each preview: its commit and
    /// verdict (`--status-api`), so each is posted once.
    statuses: std::collections::HashMap<String, (String, crate::outbound::commit_status::Verdict)>,
}

impl GitWorker {
    /// Opens (or creates) the mirror. When that fails, /status says why and
    /// there is no worker.
    pub fn open(mut live: Live, cfg: GitConfig) -> Option<GitWorker> {
        let repo = match open_mirror(&mirror_path(&cfg.cache_dir, &cfg.url)) {
            Ok(r) => r,
            Err(e) => {
                tracing::error!(error = %format!("{e:#}"), "git mode cannot start");
                live.record_failure(None, format!("{e:#}"));
                return None;
            }
        };
        let previews = cfg.previews.clone().map(|p| {
            Previews::new(p, &cfg.prefix, &cfg.branch, live.reloader.reporter())
                .with_access(live.reloader.access().cloned())
        });
        // /previews.json says previews are on from the start, before any
        // branch matches.
        if let Some(p) = &previews {
            let document = p.document(live.reloader.ctx());
            live.set_previews(Default::default(), document, Default::default());
        }
        Some(GitWorker {
            live,
            repo,
            shown: redact_url(&cfg.url),
            source: GitSource::new(&cfg.prefix),
            built: None,
            failures: 0,
            previews,
            statuses: Default::default(),
            cfg,
        })
    }

    /// Runs until `triggers` is closed. Each message on `triggers` (a
    /// webhook) causes a fetch; bursts coalesce into one. A failure of the
    /// worker itself is logged and reported in /status, and the worker goes on.
    pub fn run(mut self, triggers: Receiver<()>) {
        loop {
            let covered = self.live.progress.building();
            let stepped = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                let rebuilt = self.step();
                self.live.republish_if_due();
                // The published branch is built: what previews take after
                // it is not what /status and /readyz watch.
                self.live.progress.built(covered);
                self.update_previews(rebuilt);
            }));
            if stepped.is_err() {
                self.live.progress.built(covered);
                self.failures += 1;
                let error = "the git worker failed (a bug; please report it); still serving the last snapshot".to_string();
                tracing::error!(remote = %self.shown, %error);
                let revision = self.built.as_ref().map(|b| b.0.to_string());
                self.live.record_failure(revision, error);
                // Read every brand again next time: what the worker held is unknown.
                self.source = GitSource::new(&self.cfg.prefix);
                self.built = None;
            }
            let wait = if self.failures == 0 {
                jitter(self.cfg.poll)
            } else {
                Duration::from_secs(1u64 << self.failures.min(9)).min(MAX_BACKOFF)
            };
            // An embargo lifts at its moment, not at the next poll.
            let lift = self.live.next_lift_in();
            match triggers.recv_timeout(lift.map_or(wait, |l| l.min(wait))) {
                Ok(()) => while triggers.try_recv().is_ok() {},
                Err(RecvTimeoutError::Timeout) if lift.is_some_and(|l| l < wait) => {
                    self.live.republish_if_due();
                    continue;
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
    }

    /// Builds the previews again where their branch or the published
    /// catalog (`rebuilt`) moved, and serves them.
    fn update_previews(&mut self, rebuilt: bool) {
        let Some(p) = self.previews.as_mut() else {
            return;
        };
        let reloader = &self.live.reloader;
        if p.update(
            &self.repo,
            reloader.catalog(),
            rebuilt,
            reloader.ctx(),
            reloader.options(),
            reloader.clock(),
        ) {
            let document = p.document(reloader.ctx());
            let served = p.served();
            let inherited = p.inherited().clone();
            self.live.set_previews(served, document, inherited);
        }
        if let Some(outbox) = self.live.outbox() {
            post_statuses(p, outbox, &mut self.statuses);
        }
    }

    /// One fetch, and a rebuild when the branch head or the tags moved (then
    /// true).
    fn step(&mut self) -> bool {
        let started = Instant::now();
        let fetched = fetch(&self.repo, &self.cfg);
        let shown = &self.shown;
        // Known before any build, so the snapshot that serves a warm cache
        // already reports why it may be old.
        let source_error = fetched
            .as_ref()
            .err()
            .map(|e| format!("fetch from {shown} failed: {}", describe(e, &self.cfg.url)));
        self.live.reloader.set_source_error(source_error.clone());
        match &fetched {
            Ok(()) => {
                if self.failures > 0 {
                    tracing::info!(remote = %shown, "fetch works again");
                }
                self.failures = 0;
            }
            Err(e) => {
                self.failures += 1;
                tracing::warn!(remote = %shown, error = %describe(e, &self.cfg.url), "fetch failed; serving the last good snapshot");
            }
        }
        // Build when the mirror has something new (also after a failed fetch,
        // so a warm cache serves at start).
        let mut rebuilt = false;
        // A brand's job that a build left behind has ended: publish it.
        let settled = self.live.reloader.catalog().has_ended_jobs();
        match state_of(&self.repo, &self.cfg.branch) {
            Ok(state) if settled || self.built.as_ref() != Some(&state) => {
                let head = state.0;
                match self.source.read(&self.repo, head) {
                    Ok((content, changed)) => {
                        let short = &head.to_string()[..12];
                        let mut cause = format!("commit {short}");
                        if !changed.brands.is_empty() {
                            cause.push_str(&format!(
                                ": {}",
                                crate::report::some_of(&changed.brands, 8)
                            ));
                        }
                        if changed.tags {
                            cause.push_str(" (tags moved)");
                        }
                        self.live.rebuild(&content, Some(head.to_string()), &cause);
                        self.live.finish();
                        tracing::debug!(commit = %head, ms = started.elapsed().as_millis() as u64, "built from git");
                        self.built = Some(state);
                        rebuilt = true;
                    }
                    Err(e) => {
                        let msg = format!("{e:#}");
                        tracing::warn!(commit = %head, error = %msg, "cannot read the commit; serving the last good snapshot");
                        self.live.record_failure(Some(head.to_string()), msg);
                    }
                }
            }
            Ok(_) => {}
            Err(e) if fetched.is_ok() => self.live.record_failure(None, format!("{e:#}")),
            Err(_) => {}
        }
        // Without a build to carry it, publish the fetch failure on its own.
        if let Some(msg) = source_error.filter(|_| !rebuilt) {
            let revision = self.built.as_ref().map(|b| b.0.to_string());
            self.live.record_failure(revision, msg);
        }
        rebuilt
    }
}
