//! Where `marque import` writes: only inside `--out`, and never through a
//! link. A content folder is often a clone of a repository that anyone can
//! commit to, and a committed symbolic link at `<out>/<slug>/tokens.json`
//! (or at the brand folder, or at `--out` itself) would otherwise carry the
//! write to wherever it points, dangling or not. So `--out` and the brand
//! folder must be real folders (or missing, then made), each target a
//! regular file (or missing), all checked before anything is written; and
//! each file is written as a temporary file beside its target and renamed
//! over it, because a rename replaces the directory entry itself, link or
//! not, and never writes through it.
//!
//! The folders above `--out` are the user's to choose: a home folder that
//! is a link is fine. The checks are of what is inside `--out`.

use crate::source::dir::kind_of;
use anyhow::{bail, Context as _, Result};
use std::fs;
use std::io::{ErrorKind, Write as _};
use std::path::Path;

/// Whether `path` exists, after checking that it is a real folder (not a
/// link to one): what `--out` and the brand folder must be.
pub fn check_folder(path: &Path) -> Result<bool> {
    match inspect(path)? {
        None => Ok(false),
        Some(meta) if meta.is_dir() => Ok(true),
        Some(meta) => bail!(
            "{} is {}, not a folder: nothing is written",
            path.display(),
            match meta.is_file() {
                true => "a file",
                false => kind_of(&meta),
            }
        ),
    }
}

/// Whether `path` exists, after checking that it is a regular file (not a
/// link, a folder, a FIFO or a device): what import may replace.
pub fn check_file(path: &Path) -> Result<bool> {
    match inspect(path)? {
        None => Ok(false),
        Some(meta) if meta.is_file() => Ok(true),
        Some(meta) => bail!(
            "{} is {}, not a file: it is not replaced, and nothing is written",
            path.display(),
            kind_of(&meta)
        ),
    }
}

/// What is at `path` itself (a link is not followed), or `None`; a link of
/// any kind is refused here, so the callers see only real entries.
fn inspect(path: &Path) -> Result<Option<fs::Metadata>> {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => bail!(
            "{} is a symbolic link: marque import writes only inside --out and never through a link; \
             remove the link or choose another --out (nothing is written)",
            path.display()
        ),
        Ok(meta) => Ok(Some(meta)),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot inspect {}", path.display())),
    }
}

/// Makes `out` (and the folders above it) and the brand folder `folder`
/// inside it where missing, and checks both again once they exist: what
/// was checked before may have been replaced in between, and
/// `create_dir_all` is content with a link to a folder.
pub fn make_folders(out: &Path, folder: &Path) -> Result<()> {
    fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    check_folder(out)?;
    match fs::create_dir(folder) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
        Err(e) => return Err(e).with_context(|| format!("cannot create {}", folder.display())),
    }
    check_folder(folder)?;
    Ok(())
}

/// Writes `bytes` as `folder/name`: a temporary file made in `folder` (with
/// `create_new`, which refuses any existing entry, a link included), then
/// renamed over the target. A file replaced keeps its permissions.
pub fn replace(folder: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let target = folder.join(name);
    // A dot and `.tmp`: a scratch name, which a server watching the folder
    // ignores until the rename.
    let tmp = folder.join(format!(".{name}.{}.tmp", std::process::id()));
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    let mut write = || -> std::io::Result<()> {
        if let Ok(meta) = fs::symlink_metadata(&target) {
            if meta.is_file() {
                file.set_permissions(meta.permissions())?;
            }
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        fs::rename(&tmp, &target)
    };
    if let Err(e) = write() {
        let _ = fs::remove_file(&tmp);
        return Err(e).with_context(|| format!("cannot write {}", target.display()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// The checks come first, but a link can appear between them and the
    /// write: the rename then replaces the link, and what it pointed to is
    /// untouched.
    #[test]
    fn replace_puts_a_file_where_a_link_was_and_leaves_its_target_alone() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.json");
        std::fs::write(&victim, "keep").unwrap();
        let folder = dir.path().join("out");
        std::fs::create_dir(&folder).unwrap();
        symlink(&victim, folder.join("tokens.json")).unwrap();
        replace(&folder, "tokens.json", b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
        let meta = std::fs::symlink_metadata(folder.join("tokens.json")).unwrap();
        assert!(meta.is_file(), "a regular file now, not the link");
        assert_eq!(
            std::fs::read_to_string(folder.join("tokens.json")).unwrap(),
            "new"
        );
        let names: Vec<_> = std::fs::read_dir(&folder).unwrap().collect();
        assert_eq!(names.len(), 1, "no temporary file is left");
    }

    #[test]
    fn the_checks_refuse_links_of_every_kind_and_say_which_path() {
        let dir = tempfile::tempdir().unwrap();
        let to_folder = dir.path().join("to-folder");
        let dangling = dir.path().join("dangling");
        symlink(dir.path(), &to_folder).unwrap();
        symlink(dir.path().join("gone"), &dangling).unwrap();
        for link in [&to_folder, &dangling] {
            for result in [check_folder(link), check_file(link)] {
                let message = format!("{:#}", result.unwrap_err());
                assert!(
                    message.starts_with(&format!("{} is a symbolic link", link.display())),
                    "{message}"
                );
            }
        }
        assert!(!check_folder(&dir.path().join("missing")).unwrap());
        assert!(check_folder(dir.path()).unwrap());
        let message = format!("{:#}", check_file(dir.path()).unwrap_err());
        assert!(message.contains("is a folder, not a file"), "{message}");
    }
}
