//! Watching a content folder. Each file event is classified by a pure,
//! table-tested function into what must be read again: one brand folder,
//! the tags, or everything. Editors save by writing a temporary file and
//! renaming it, and a read is an event too (inotify reports opens): only
//! changes to content files and to tags count, so marque is quiet when idle.

use crate::source::is_ignored;
use anyhow::Result;
use notify::{Event, EventKind, RecursiveMode, Watcher};
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// How often the polling watcher scans, when native watching is unavailable or refused.
pub const POLL_INTERVAL: Duration = Duration::from_millis(250);

/// What a file event asks to read again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trigger {
    /// A file of one brand folder changed: the slug, and the path relative to the content root.
    Brand { slug: String, file: String },
    /// A tag was created, moved or deleted.
    Tags,
    /// Read everything again: a change at the top level, a rescan flag, a watcher error.
    All,
    /// A brand's job that a build left behind has ended: build again, to
    /// publish it (nothing is read).
    Settled,
    /// The access tokens were read anew, or an embargo lifts: serve the
    /// same catalog again to each reader (nothing is read or built).
    Republish,
}

impl Trigger {
    /// True for a change of the content (a file, a tag, a rescan), as
    /// opposed to the loop's own wake-ups.
    pub fn is_file_event(&self) -> bool {
        matches!(self, Trigger::Brand { .. } | Trigger::Tags | Trigger::All)
    }
}

/// What a change at `rel` (relative to the content root) asks for, if anything.
pub fn classify_path(rel: &Path) -> Option<Trigger> {
    let parts: Vec<&str> = rel.iter().filter_map(|c| c.to_str()).collect();
    if parts.len() != rel.iter().count() {
        return Some(Trigger::All); // a name that is not UTF-8: be safe
    }
    if parts.is_empty() {
        return Some(Trigger::All);
    }
    if is_ignored(&parts) {
        return None;
    }
    if parts.len() == 1 {
        return Some(Trigger::All);
    }
    Some(Trigger::Brand {
        slug: parts[0].to_string(),
        file: parts.join("/"),
    })
}

/// True for event kinds that mean something was written, created, moved or removed.
fn is_change(kind: &EventKind) -> bool {
    !matches!(kind, EventKind::Access(_))
}

/// What an event in the content folder asks for.
pub fn classify(event: &Event, root: &Path) -> Vec<Trigger> {
    if event.need_rescan() {
        return vec![Trigger::All];
    }
    if !is_change(&event.kind) {
        return Vec::new();
    }
    event
        .paths
        .iter()
        .filter_map(|p| match p.strip_prefix(root) {
            Ok(rel) => classify_path(rel),
            Err(_) => Some(Trigger::All),
        })
        .collect()
}

/// True for a change to a repository's tags: `refs/tags/…` or `packed-refs`
/// written, created, moved or removed (reading them is no change).
pub fn is_tag_change(event: &Event) -> bool {
    is_change(&event.kind)
        && event.paths.iter().any(|path| {
            let parts: Vec<&str> = path.iter().filter_map(|c| c.to_str()).collect();
            parts.last() == Some(&"packed-refs") || parts.windows(2).any(|w| w == ["refs", "tags"])
        })
}

/// A running watcher; dropping it stops watching.
pub struct ContentWatcher {
    _inner: Box<dyn Watcher + Send>,
    /// Watches the tags of the git repository the folder lives in, if any.
    _tags: Option<Box<dyn Watcher + Send>>,
    pub polling: bool,
}

/// When `root` lies in a git work tree, watches its tags so that tagging a
/// release updates the changelog without an edit.
fn watch_tags(root: &Path, tx: UnboundedSender<Trigger>) -> Option<Box<dyn Watcher + Send>> {
    let (repo, _) = crate::source::git::discover(root)?;
    let gitdir = repo.path().to_path_buf();
    let tags = gitdir.join("refs").join("tags");
    let mut w = notify::recommended_watcher(move |res: notify::Result<Event>| {
        if res.is_ok_and(|e| is_tag_change(&e)) {
            let _ = tx.send(Trigger::Tags);
        }
    })
    .ok()?;
    w.watch(&gitdir, RecursiveMode::NonRecursive).ok()?;
    if tags.is_dir() {
        w.watch(&tags, RecursiveMode::Recursive).ok()?;
    }
    Some(Box::new(w))
}

/// Watches `root` recursively and sends what each change asks for (every
/// watcher error asks to read everything again). Falls back to polling
/// when native watching cannot start.
pub fn watch(
    root: &Path,
    force_poll: bool,
    tx: UnboundedSender<Trigger>,
) -> Result<ContentWatcher> {
    let root: PathBuf = root.canonicalize()?;
    let tags = watch_tags(&root, tx.clone());
    let handler_root = root.clone();
    let handler = move |res: notify::Result<Event>| match res {
        Ok(event) => {
            for t in classify(&event, &handler_root) {
                let _ = tx.send(t);
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "file watcher error; reading everything again");
            let _ = tx.send(Trigger::All);
        }
    };
    if !force_poll {
        let native = notify::recommended_watcher(handler.clone()).and_then(|mut w| {
            w.watch(&root, RecursiveMode::Recursive)?;
            Ok(w)
        });
        match native {
            Ok(w) => {
                return Ok(ContentWatcher {
                    _inner: Box::new(w),
                    _tags: tags,
                    polling: false,
                })
            }
            Err(e) => tracing::warn!(error = %e, "native file watching failed; polling instead"),
        }
    }
    let config = notify::Config::default()
        .with_poll_interval(POLL_INTERVAL)
        .with_compare_contents(true);
    let mut w = notify::PollWatcher::new(handler, config)?;
    w.watch(&root, RecursiveMode::Recursive)?;
    Ok(ContentWatcher {
        _inner: Box::new(w),
        _tags: tags,
        polling: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{AccessKind, AccessMode, CreateKind, ModifyKind, RemoveKind, RenameMode};

    fn brand(slug: &str, file: &str) -> Option<Trigger> {
        Some(Trigger::Brand {
            slug: slug.into(),
            file: file.into(),
        })
    }

    #[test]
    fn paths_map_to_their_brand_or_to_everything() {
        let table: &[(&str, Option<Trigger>)] = &[
            ("", Some(Trigger::All)),
            ("acme", Some(Trigger::All)),
            ("new-brand", Some(Trigger::All)),
            ("acme/brand.json", brand("acme", "acme/brand.json")),
            ("acme/tokens.json", brand("acme", "acme/tokens.json")),
            ("acme/BRAND_BOOK.md", brand("acme", "acme/BRAND_BOOK.md")),
            (
                "acme/assets/logo.svg",
                brand("acme", "acme/assets/logo.svg"),
            ),
            ("acme/.brand.json.swp", None),
            ("acme/brand.json.swx", None),
            ("acme/brand.json~", None),
            ("acme/4913", None),
            ("acme/.#brand.json", None),
            ("acme/brand.json___jb_tmp___", None),
            ("acme/brand.json___jb_old___", None),
            ("acme/brand.json.tmp", None),
            (".git/index", None),
            (".git/refs/heads/main", None),
            ("acme/.git/HEAD", None),
            ("target/debug/x", None),
            ("_drafts/brand.json", None),
            (".hidden/brand.json", None),
        ];
        for (path, want) in table {
            assert_eq!(&classify_path(Path::new(path)), want, "{path}");
        }
    }

    fn event(kind: EventKind, path: &str) -> Event {
        Event::new(kind).add_path(PathBuf::from("/c").join(path))
    }

    #[test]
    fn every_kind_of_change_to_a_brand_file_counts_and_reads_do_not() {
        let root = Path::new("/c");
        let kinds = [
            EventKind::Create(CreateKind::File),
            EventKind::Modify(ModifyKind::Data(notify::event::DataChange::Content)),
            EventKind::Modify(ModifyKind::Name(RenameMode::To)),
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)),
            EventKind::Modify(ModifyKind::Name(RenameMode::From)),
            EventKind::Modify(ModifyKind::Metadata(notify::event::MetadataKind::WriteTime)),
            EventKind::Remove(RemoveKind::File),
            EventKind::Remove(RemoveKind::Folder),
            EventKind::Any,
            EventKind::Other,
        ];
        for kind in kinds {
            assert_eq!(
                classify(&event(kind, "acme/brand.json"), root),
                vec![brand("acme", "acme/brand.json").unwrap()],
                "{kind:?}"
            );
            assert!(
                classify(&event(kind, "acme/.brand.json.swp"), root).is_empty(),
                "{kind:?} on a swap file"
            );
        }
        for access in [
            AccessKind::Read,
            AccessKind::Open(AccessMode::Read),
            AccessKind::Close(AccessMode::Read),
        ] {
            assert!(
                classify(&event(EventKind::Access(access), "acme/brand.json"), root).is_empty()
            );
        }
        let rescan = Event::new(EventKind::Other).set_flag(notify::event::Flag::Rescan);
        assert_eq!(
            classify(&rescan, root),
            vec![Trigger::All],
            "a rescan flag reads everything"
        );
    }

    #[test]
    fn tag_changes_count_but_reading_the_tags_does_not() {
        let change = |p: &str| Event::new(EventKind::Create(CreateKind::File)).add_path(p.into());
        let opened = |p: &str| {
            Event::new(EventKind::Access(AccessKind::Open(AccessMode::Any))).add_path(p.into())
        };
        assert!(is_tag_change(&change("/r/.git/refs/tags/acme@1.0.0")));
        assert!(is_tag_change(&change("/r/.git/refs/tags/acme/v1.0.0")));
        assert!(is_tag_change(&change("/r/.git/packed-refs")));
        assert!(!is_tag_change(&change("/r/.git/refs/heads/main")));
        assert!(!is_tag_change(&change("/r/.git/index")));
        assert!(
            !is_tag_change(&opened("/r/.git/packed-refs")),
            "reading tags is no change"
        );
        assert!(!is_tag_change(&opened("/r/.git/refs/tags/acme@1.0.0")));
    }
}
