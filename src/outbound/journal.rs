//! IO: the outbox written down, so a restart loses no delivery of the
//! last publish and repeats none a target acknowledged. One file in the
//! cache directory (`outbox.json`) holds the deliveries not yet done and
//! the ids of the last [`ACKED_KEPT`] acknowledged; it is replaced whole
//! (a temporary file written, synced, renamed over it), so a kill at any
//! moment leaves the old file or the new one, never half of one.
//!
//! Writes are made by a task of their own, woken by each change and
//! coalescing the changes that came meanwhile: the publish path only
//! takes a lock and records. The file is bounded: the pending are at most
//! the queue's length and the deliveries under way, and the acknowledged
//! ids are the newest [`ACKED_KEPT`]. Jobs hold no secret (see `job`), so
//! neither does the file.

use super::job::Job;
use serde::{Deserialize, Serialize};
use std::collections::{HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::sync::{watch, Notify};

/// Acknowledged delivery ids kept: enough for many publishes' events to
/// every target, a few hundred KB at most.
pub const ACKED_KEPT: usize = 4096;

/// The file's name in the cache directory.
pub const FILE: &str = "outbox.json";

/// A delivery not done yet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    pub id: String,
    pub job: Job,
    /// In a fleet, this replica won the event's claim in Redis: after a
    /// restart it sends it without claiming again (its claim is there,
    /// under the id of the process before).
    #[serde(default)]
    pub claimed: bool,
}

/// What the file holds.
#[derive(Debug, Default, Serialize, Deserialize)]
struct OnDisk {
    version: u32,
    pending: Vec<Entry>,
    acked: Vec<String>,
}

#[derive(Debug, Default)]
struct Book {
    pending: Vec<Entry>,
    acked: VecDeque<String>,
    acked_set: HashSet<String>,
    /// Changes since the last write.
    changes: u64,
}

/// The outbox's record on disk; cheap to clone.
#[derive(Clone)]
pub struct Journal {
    inner: Arc<Inner>,
}

struct Inner {
    path: PathBuf,
    book: Mutex<Book>,
    dirty: Notify,
}

impl Journal {
    /// Reads `path` (a missing or unreadable file is an empty outbox,
    /// the latter logged) and returns the journal and the deliveries to
    /// resume: those pending that no target acknowledged.
    pub fn open(path: &Path) -> (Journal, Vec<Entry>) {
        let disk = match std::fs::read(path) {
            Ok(bytes) => serde_json::from_slice::<OnDisk>(&bytes).unwrap_or_else(|e| {
                tracing::warn!(path = %path.display(), error = %e, "the outbox's record cannot be read: starting with none");
                OnDisk::default()
            }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => OnDisk::default(),
            Err(e) => {
                tracing::warn!(path = %path.display(), error = %e, "the outbox's record cannot be read: starting with none");
                OnDisk::default()
            }
        };
        let mut book = Book::default();
        for id in disk.acked {
            book.ack(id);
        }
        let mut seen = HashSet::new();
        let resume: Vec<Entry> = disk
            .pending
            .into_iter()
            .filter(|e| !book.acked_set.contains(&e.id) && seen.insert(e.id.clone()))
            .collect();
        let journal = Journal {
            inner: Arc::new(Inner {
                path: path.to_path_buf(),
                book: Mutex::new(book),
                dirty: Notify::new(),
            }),
        };
        (journal, resume)
    }

    fn change(&self, f: impl FnOnce(&mut Book)) {
        let mut book = self.inner.book.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut book);
        book.changes += 1;
        drop(book);
        self.inner.dirty.notify_one();
    }

    /// A delivery queued.
    pub fn add(&self, entry: Entry) {
        self.change(|b| {
            b.pending.retain(|e| e.id != entry.id);
            b.pending.push(entry);
        });
    }

    /// This replica won the claim of delivery `id`.
    pub fn claimed(&self, id: &str) {
        self.change(|b| {
            if let Some(e) = b.pending.iter_mut().find(|e| e.id == id) {
                e.claimed = true;
            }
        });
    }

    /// Delivery `id` is done: `acked` when its target acknowledged it,
    /// else given up, dropped, or sent by another replica.
    pub fn done(&self, id: &str, acked: bool) {
        self.change(|b| {
            b.pending.retain(|e| e.id != id);
            if acked {
                b.ack(id.to_string());
            }
        });
    }

    /// The deliveries not done, as recorded.
    pub fn pending(&self) -> Vec<Entry> {
        let book = self.inner.book.lock().unwrap_or_else(|e| e.into_inner());
        book.pending.clone()
    }

    /// Writes the record after each change (those that come while one is
    /// written go in the next), until `stop`; then once more.
    pub async fn run(self, mut stop: watch::Receiver<bool>) {
        loop {
            let stopping = tokio::select! {
                () = self.inner.dirty.notified() => false,
                _ = stop.wait_for(|s| *s) => true,
            };
            let me = self.clone();
            let _ = tokio::task::spawn_blocking(move || me.write()).await;
            if stopping {
                return;
            }
        }
    }

    /// Replaces the file with the record as it is now, if it changed.
    pub fn write(&self) {
        let (bytes, changes) = {
            let book = self.inner.book.lock().unwrap_or_else(|e| e.into_inner());
            if book.changes == 0 {
                return;
            }
            let disk = OnDisk {
                version: 1,
                pending: book.pending.clone(),
                acked: book.acked.iter().cloned().collect(),
            };
            (
                serde_json::to_vec(&disk).expect("the outbox serializes"),
                book.changes,
            )
        };
        match replace(&self.inner.path, &bytes) {
            Ok(()) => {
                let mut book = self.inner.book.lock().unwrap_or_else(|e| e.into_inner());
                book.changes -= changes.min(book.changes);
            }
            Err(e) => {
                tracing::warn!(path = %self.inner.path.display(), error = %format!("{e:#}"), "cannot write the outbox's record: a restart may lose or repeat deliveries");
            }
        }
    }
}

impl Book {
    fn ack(&mut self, id: String) {
        if !self.acked_set.insert(id.clone()) {
            return;
        }
        self.acked.push_back(id);
        while self.acked.len() > ACKED_KEPT {
            if let Some(old) = self.acked.pop_front() {
                self.acked_set.remove(&old);
            }
        }
    }
}

/// Writes `bytes` to `path` as a whole: a temporary file beside it,
/// synced, renamed over it, and the directory synced.
fn replace(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    use anyhow::Context;
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let tmp = path.with_extension("json.tmp");
    let mut file =
        std::fs::File::create(&tmp).with_context(|| format!("creating {}", tmp.display()))?;
    file.write_all(bytes)?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(&tmp, path).with_context(|| format!("renaming over {}", path.display()))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: &str) -> Entry {
        let job = Job::Purge {
            url: "https://cdn.example/purge".into(),
            body: Some("{}".into()),
            key: key.into(),
        };
        Entry {
            id: job.id(),
            job,
            claimed: false,
        }
    }

    #[test]
    fn what_is_pending_comes_back_and_what_was_acknowledged_does_not() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("cache").join(FILE);
        let (j, resume) = Journal::open(&path);
        assert!(resume.is_empty());
        let (a, b, c) = (entry("a"), entry("b"), entry("c"));
        j.add(a.clone());
        j.add(b.clone());
        j.add(c.clone());
        j.claimed(&b.id);
        j.done(&a.id, true);
        j.done(&c.id, false);
        j.write();
        assert!(!path.with_extension("json.tmp").exists());
        let (again, resume) = Journal::open(&path);
        let mut claimed_b = b.clone();
        claimed_b.claimed = true;
        assert_eq!(resume, [claimed_b]);
        // An id both pending and acknowledged (the file edited by hand,
        // or a delivery queued again) is not sent again.
        again.add(a.clone());
        again.write();
        let (_, resume) = Journal::open(&path);
        assert!(resume.is_empty(), "{resume:?}");
    }

    #[test]
    fn the_record_is_bounded_and_a_broken_file_is_an_empty_outbox() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let (j, _) = Journal::open(&path);
        for i in 0..ACKED_KEPT + 10 {
            j.done(&format!("k{i}"), true);
        }
        j.write();
        let disk: OnDisk = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(disk.acked.len(), ACKED_KEPT);
        assert_eq!(disk.acked[0], "k10", "the oldest go first");
        std::fs::write(&path, b"{ half").unwrap();
        let (_, resume) = Journal::open(&path);
        assert!(resume.is_empty());
    }
}
