//! IO: the delivery queue. A publish hands what it changed to the
//! [`Outbox`] (a lock and a push, nothing more) and goes on; a tokio task
//! takes deliveries from the queue and makes them (`delivery`),
//! a few at once. Each delivery is written down ([`super::journal`]) from
//! when it is queued until it is done, so a restart resumes what was
//! pending and repeats nothing a target acknowledged.
//!
//! The queue is bounded: when it is full, the oldest waiting delivery is
//! dropped (logged, counted in `/status`), so a target that never answers
//! cannot make marque hold more and more. Logs name the target without
//! its credentials; secrets and headers never reach logs or `/status`.

use super::delivery::{deliver, Counts, Ended, Sender};
use super::job::{self, Job};
use super::journal::{Entry, Journal};
use super::{OutboundConfig, Published, Seen};
use crate::redact::redact_url;
pub use crate::render::status::OutboundStatus;
use std::collections::VecDeque;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use tokio::sync::{watch, Notify, Semaphore};

pub use super::delivery::{sign, CLAIM_FOR, MAX_WAIT};
pub use super::job::{DISPATCH_EVENT, PURGE_CHUNK};

/// Deliveries made at once: a hanging target holds one each until its
/// deadline, and the others go on.
pub const CONCURRENT: usize = 16;

/// The queue and the task that empties it; cheap to clone.
#[derive(Clone)]
pub struct Outbox {
    inner: Arc<Inner>,
}

struct Inner {
    sender: Sender,
    public_url: String,
    queue: Mutex<VecDeque<Entry>>,
    wake: Notify,
    /// The runtime the outbox runs on: a publish, on a thread of its own,
    /// hands its events' bodies to it to make.
    runtime: tokio::runtime::Handle,
}

impl Outbox {
    /// Starts the task that delivers, until `stop` turns true; with
    /// `journal` (a file in the cache directory), deliveries are written
    /// down there, and those pending from before a restart resume. Needs
    /// a tokio runtime.
    pub fn start(
        cfg: OutboundConfig,
        public_url: &str,
        fleet: Option<Arc<crate::fleet::Fleet>>,
        journal: Option<&Path>,
        stop: watch::Receiver<bool>,
    ) -> Outbox {
        let client = reqwest::Client::builder()
            .timeout(cfg.timeout)
            .connect_timeout(cfg.timeout)
            .user_agent(concat!("marque/", env!("CARGO_PKG_VERSION")))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        let (journal, resume) = match journal.map(Journal::open) {
            Some((j, resume)) => (Some(j), resume),
            None => (None, Vec::new()),
        };
        let outbox = Outbox {
            inner: Arc::new(Inner {
                sender: Sender {
                    cfg,
                    fleet,
                    client,
                    counts: Counts::default(),
                    journal,
                    comments: tokio::sync::Mutex::new(()),
                },
                public_url: public_url.trim_end_matches('/').to_string(),
                queue: Mutex::default(),
                wake: Notify::new(),
                runtime: tokio::runtime::Handle::current(),
            }),
        };
        if !resume.is_empty() {
            tracing::info!(
                deliveries = resume.len(),
                "resuming the deliveries pending before the restart"
            );
        }
        for entry in resume {
            outbox.push_entry(entry);
        }
        if let Some(journal) = &outbox.inner.sender.journal {
            tokio::spawn(journal.clone().run(stop.clone()));
        }
        tokio::spawn(run(outbox.inner.clone(), stop));
        outbox
    }

    /// Queues what the publish from `before` to `after` changed: a purge
    /// of its paths at once, and its events once their bodies are made
    /// (a diff each, for the verdict: on a blocking thread of the
    /// outbox's runtime, never on the publish path). Returns at once.
    pub fn published(&self, before: &Seen, after: &Seen) {
        let inner = &self.inner;
        let published = super::published(before, after, &inner.public_url);
        if !published.paths.is_empty() || !published.events.is_empty() {
            tracing::debug!(
                generation = published.generation,
                paths = published.paths.len(),
                events = published.events.len(),
                "a publish to tell"
            );
        }
        let Published {
            paths,
            events,
            generation,
        } = published;
        if !paths.is_empty() {
            for template in &inner.sender.cfg.purge {
                for job in job::purges(template, &paths, &inner.public_url, generation) {
                    self.push(job);
                }
            }
        }
        if events.is_empty()
            || (inner.sender.cfg.notify.is_empty() && inner.sender.cfg.dispatch.is_none())
        {
            return;
        }
        let me = self.clone();
        inner.runtime.spawn(async move {
            let made = tokio::task::spawn_blocking(move || {
                events
                    .iter()
                    .map(|e| (e.private, e.id.clone(), e.kind, job::event_body(e)))
                    .collect::<Vec<_>>()
            })
            .await;
            let Ok(made) = made else {
                tracing::error!("events' bodies could not be made (a bug; please report it)");
                return;
            };
            for (private, id, kind, body) in made {
                for job in me.event_jobs(private, &id, kind, &body) {
                    me.push(job);
                }
            }
        });
    }

    /// The deliveries of one event: to each `--notify-url` that may hear
    /// it, and as a `repository_dispatch` when it is public.
    fn event_jobs(&self, private: bool, id: &str, kind: super::Kind, body: &str) -> Vec<Job> {
        let cfg = &self.inner.sender.cfg;
        let mut jobs: Vec<Job> = cfg
            .notify
            .iter()
            .filter(|t| t.private || !private)
            .map(|t| Job::Event {
                url: t.url.clone(),
                event_type: kind.as_str().to_string(),
                body: body.to_string(),
                key: id.to_string(),
            })
            .collect();
        if let Some(d) = cfg.dispatch.as_ref().filter(|_| !private) {
            jobs.extend(d.repos.iter().map(|repo| Job::Dispatch {
                url: format!("{}/repos/{repo}/dispatches", d.base),
                body: job::dispatch_body(body),
                key: id.to_string(),
            }));
        }
        jobs
    }

    /// Queues a commit status `verdict` on `sha`, with `--status-api`.
    pub fn commit_status(&self, sha: &str, verdict: &super::commit_status::Verdict) {
        let Some(api) = &self.inner.sender.cfg.status else {
            return;
        };
        let (url, body, _) =
            super::commit_status::request(api, sha, verdict, &self.inner.public_url);
        let body = body.to_string();
        let key = format!(
            "status_{}",
            job::short_hash(&[url.as_bytes(), body.as_bytes()])
        );
        self.push(Job::Status { url, body, key });
    }

    /// Queues the change table of preview `preview` on its pull request,
    /// with `--status-comment`.
    pub fn comment(
        &self,
        preview: &crate::live::previews::Preview,
        verdict: &super::commit_status::Verdict,
    ) {
        if !self.inner.sender.cfg.comment || self.inner.sender.cfg.status.is_none() {
            return;
        }
        let body = super::comment::body(
            &preview.name,
            &preview.branch,
            &preview.commit,
            &preview.brands,
            verdict,
            &self.inner.public_url,
        );
        let key = format!(
            "comment_{}",
            job::short_hash(&[preview.branch.as_bytes(), body.as_bytes()])
        );
        self.push(Job::Comment {
            branch: preview.branch.clone(),
            body,
            key,
        });
    }

    /// Deliveries counted so far, for `/status`.
    pub fn status(&self) -> OutboundStatus {
        let c = &self.inner.sender.counts;
        OutboundStatus {
            purge_targets: self.inner.sender.cfg.purge.len(),
            event_targets: self.inner.sender.cfg.notify.len(),
            sent: c.sent.load(Ordering::Relaxed),
            failed: c.failed.load(Ordering::Relaxed),
            pending: c.pending.load(Ordering::Relaxed),
            dropped: c.dropped.load(Ordering::Relaxed),
        }
    }

    /// Queues `job`.
    fn push(&self, job: Job) {
        self.push_entry(Entry {
            id: job.id(),
            job,
            claimed: false,
        });
    }

    /// Queues a delivery and writes it down; when the queue is full, the
    /// oldest waiting goes.
    fn push_entry(&self, entry: Entry) {
        let inner = &self.inner;
        if let Some(journal) = &inner.sender.journal {
            journal.add(entry.clone());
        }
        let mut queue = inner.queue.lock().unwrap_or_else(|e| e.into_inner());
        if queue.len() >= inner.sender.cfg.queue.max(1) {
            if let Some(old) = queue.pop_front() {
                inner.sender.counts.dropped.fetch_add(1, Ordering::Relaxed);
                inner.sender.counts.pending.fetch_sub(1, Ordering::Relaxed);
                if let Some(journal) = &inner.sender.journal {
                    journal.done(&old.id, false);
                }
                tracing::warn!(
                    target_url = %redact_url(old.job.url()),
                    what = old.job.what(),
                    key = old.job.key(),
                    "the delivery queue is full: the oldest delivery is dropped"
                );
            }
        }
        queue.push_back(entry);
        inner.sender.counts.pending.fetch_add(1, Ordering::Relaxed);
        drop(queue);
        inner.wake.notify_one();
    }
}

/// Takes deliveries off the queue and makes them, [`CONCURRENT`] at once.
async fn run(inner: Arc<Inner>, mut stop: watch::Receiver<bool>) {
    let slots = Arc::new(Semaphore::new(CONCURRENT));
    loop {
        let next = inner
            .queue
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop_front();
        let Some(entry) = next else {
            tokio::select! {
                () = inner.wake.notified() => continue,
                _ = stop.wait_for(|s| *s) => return,
            }
        };
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return;
        };
        let inner = inner.clone();
        tokio::spawn(async move {
            let ended = deliver(&inner.sender, &entry.id, &entry.job, entry.claimed).await;
            if let Some(journal) = &inner.sender.journal {
                journal.done(&entry.id, ended == Ended::Acked);
            }
            inner.sender.counts.pending.fetch_sub(1, Ordering::Relaxed);
            drop(slot);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outbound::OutboundConfig;
    use std::time::Duration;

    /// A receiver that takes connections and never answers: every slot
    /// fills, the queue fills, and the oldest waiting are dropped.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_full_queue_drops_the_oldest_and_counts_it() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let mut held = Vec::new();
            while let Ok((conn, _)) = listener.accept().await {
                held.push(conn);
            }
        });
        let cfg = OutboundConfig {
            purge: vec![format!("http://{addr}/purge")],
            queue: 4,
            timeout: Duration::from_secs(60),
            ..OutboundConfig::default()
        };
        let (_stop_tx, stop) = watch::channel(false);
        let outbox = Outbox::start(cfg, "https://b.example", None, None, stop);
        let total = CONCURRENT as u64 + 10;
        for i in 0..total {
            outbox.push(Job::Purge {
                url: format!("http://{addr}/purge"),
                body: None,
                key: format!("purge_{i}"),
            });
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let status = loop {
            let s = outbox.status();
            // Every slot busy, one taken off waiting for a slot, the queue full.
            if s.pending <= CONCURRENT as u64 + 1 + 4 || std::time::Instant::now() > deadline {
                break s;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        assert!(status.dropped >= 1, "{status:?}");
        assert_eq!(status.pending + status.dropped, total, "{status:?}");
        assert_eq!((status.sent, status.failed), (0, 0));
    }
}
