//! Watching a content folder. A batch of file events is only a trigger: the
//! folder is read again, because editors save by writing a temporary file
//! and renaming it, and checkouts produce removals that are not real.
//!
//! Which events matter is decided by a pure function, `is_relevant`, so the
//! filter is table-tested and a change to it cannot silently drop edits.

use crate::source::dir::is_scratch_name;
use anyhow::Result;
use notify::{Event, EventKind, RecursiveMode, Watcher};
use std::path::Path;
use std::time::Duration;
use tokio::sync::mpsc::UnboundedSender;

/// How often the polling watcher scans, when native watching is unavailable or refused.
pub const POLL_INTERVAL: Duration = Duration::from_millis(250);

/// True when a change at `path` (relative to the content root) can change
/// what marque serves.
pub fn is_relevant(rel: &Path) -> bool {
    let parts: Vec<&str> = rel.iter().filter_map(|c| c.to_str()).collect();
    let Some(first) = parts.first() else {
        return true; // the root itself
    };
    if first.starts_with('.') || first.starts_with('_') || *first == "target" {
        return false;
    }
    match parts.last() {
        Some(name) => !is_scratch_name(name) && !parts.contains(&".git"),
        None => true,
    }
}

/// True when an event needs a rebuild: a relevant path changed, or the
/// watcher lost track (rescan flag) and everything must be read again.
pub fn needs_rebuild(event: &Event, root: &Path) -> bool {
    if event.need_rescan() {
        return true;
    }
    if matches!(event.kind, EventKind::Access(_)) {
        return false;
    }
    event.paths.iter().any(|p| match p.strip_prefix(root) {
        Ok(rel) => is_relevant(rel),
        Err(_) => true,
    })
}

/// A running watcher; dropping it stops watching.
pub struct ContentWatcher {
    _inner: Box<dyn Watcher + Send>,
    /// Watches the tags of the git repository the folder lives in, if any.
    _tags: Option<Box<dyn Watcher + Send>>,
    pub polling: bool,
}

/// True for a change to a repository's tags: `refs/tags/…` or `packed-refs`.
pub fn is_tag_change(path: &Path) -> bool {
    let parts: Vec<&str> = path.iter().filter_map(|c| c.to_str()).collect();
    parts.last() == Some(&"packed-refs") || parts.windows(2).any(|w| w == ["refs", "tags"])
}

/// When `root` lies in a git work tree, watches its tags so that tagging a
/// release updates the changelog without an edit.
fn watch_tags(root: &Path, tx: UnboundedSender<()>) -> Option<Box<dyn Watcher + Send>> {
    let (repo, _) = crate::source::git::discover(root)?;
    let gitdir = repo.path().to_path_buf();
    let tags = gitdir.join("refs").join("tags");
    let mut w = notify::recommended_watcher(move |res: notify::Result<Event>| {
        if res.is_ok_and(|e| e.paths.iter().any(|p| is_tag_change(p))) {
            let _ = tx.send(());
        }
    })
    .ok()?;
    w.watch(&gitdir, RecursiveMode::NonRecursive).ok()?;
    if tags.is_dir() {
        w.watch(&tags, RecursiveMode::Recursive).ok()?;
    }
    Some(Box::new(w))
}

/// Watches `root` recursively and sends `()` for every event that needs a
/// rebuild (and for every watcher error, which also means "read it all
/// again"). Falls back to polling when native watching cannot start.
pub fn watch(root: &Path, force_poll: bool, tx: UnboundedSender<()>) -> Result<ContentWatcher> {
    let root = root.canonicalize()?;
    let tags = watch_tags(&root, tx.clone());
    let handler_root = root.clone();
    let handler = move |res: notify::Result<Event>| match res {
        Ok(event) => {
            if needs_rebuild(&event, &handler_root) {
                let _ = tx.send(());
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, "file watcher error; rebuilding everything");
            let _ = tx.send(());
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
    use notify::event::{AccessKind, CreateKind, ModifyKind, RemoveKind, RenameMode};
    use std::path::PathBuf;

    #[test]
    fn relevant_paths_are_brand_files_not_scratch_or_tooling() {
        let table: &[(&str, bool)] = &[
            ("", true),
            ("acme", true),
            ("acme/brand.json", true),
            ("acme/tokens.json", true),
            ("acme/BRAND_BOOK.md", true),
            ("acme/assets/logo.svg", true),
            ("new-brand", true),
            ("acme/.brand.json.swp", false),
            ("acme/brand.json.swx", false),
            ("acme/brand.json~", false),
            ("acme/4913", false),
            ("acme/.#brand.json", false),
            ("acme/brand.json___jb_tmp___", false),
            ("acme/brand.json___jb_old___", false),
            ("acme/brand.json.tmp", false),
            (".git/index", false),
            (".git/refs/heads/main", false),
            ("acme/.git/HEAD", false),
            ("target/debug/x", false),
            ("_drafts/brand.json", false),
            (".hidden/brand.json", false),
        ];
        for (path, want) in table {
            assert_eq!(is_relevant(Path::new(path)), *want, "{path}");
        }
    }

    fn event(kind: EventKind, path: &str) -> Event {
        Event::new(kind).add_path(PathBuf::from("/c").join(path))
    }

    #[test]
    fn tag_changes_are_recognised() {
        assert!(is_tag_change(Path::new("/r/.git/refs/tags/acme@1.0.0")));
        assert!(is_tag_change(Path::new("/r/.git/refs/tags/acme/v1.0.0")));
        assert!(is_tag_change(Path::new("/r/.git/packed-refs")));
        assert!(!is_tag_change(Path::new("/r/.git/refs/heads/main")));
        assert!(!is_tag_change(Path::new("/r/.git/index")));
    }

    #[test]
    fn every_kind_of_change_to_a_brand_file_triggers_a_rebuild() {
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
            assert!(
                needs_rebuild(&event(kind, "acme/brand.json"), root),
                "{kind:?}"
            );
            assert!(
                !needs_rebuild(&event(kind, "acme/.brand.json.swp"), root),
                "{kind:?} on a swap file"
            );
        }
        assert!(!needs_rebuild(
            &event(EventKind::Access(AccessKind::Read), "acme/brand.json"),
            root
        ));
        let rescan = Event::new(EventKind::Other).set_flag(notify::event::Flag::Rescan);
        assert!(
            needs_rebuild(&rescan, root),
            "a rescan flag rebuilds everything"
        );
    }
}
