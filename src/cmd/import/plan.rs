//! `marque import --plan FILE`: the reading plan of the input, written
//! over the team's own files as they are on disk, relative to where the
//! plan is kept ([`crate::spec::formats::plan`]), and said in words.

use crate::spec::formats::{self, Format};
use crate::spec::tokens::TokenSet;
use crate::spec::Diagnostic;
use anyhow::{anyhow, bail, Context as _, Result};
use bytes::Bytes;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// What the import read, as the plan needs it.
pub(super) struct Input<'a> {
    /// The folder that holds the input.
    pub dir: &'a Path,
    /// The input's name in it (a file, or a folder).
    pub named: &'a str,
    pub format: Option<Format>,
    /// The input document, as read (a Style Dictionary config's resolver).
    pub doc: &'a Value,
    /// The files read, by path from `dir`.
    pub files: &'a BTreeMap<String, Bytes>,
    pub folder: bool,
    /// The input as named, the brand's slug, and what reading it said.
    pub file: &'a Path,
    pub slug: &'a str,
    pub diags: &'a [Diagnostic],
}

impl<'a> Input<'a> {
    pub fn new(
        dir: &'a Path,
        named: &'a str,
        doc: &'a Value,
        files: &'a BTreeMap<String, Bytes>,
    ) -> Input<'a> {
        Input {
            dir,
            named,
            format: None,
            doc,
            files,
            folder: false,
            file: Path::new(""),
            slug: "",
            diags: &[],
        }
    }

    /// With the input as named (a folder or not) and its format, and what
    /// was read: the input's path, the brand's slug, the diagnostics.
    pub fn of(
        self,
        folder: bool,
        format: Option<Format>,
        (file, slug, diags): (&'a Path, &'a str, &'a [Diagnostic]),
    ) -> Input<'a> {
        Input {
            folder,
            format,
            file,
            slug,
            diags,
            ..self
        }
    }
}

impl Input<'_> {
    /// Writes the plan of the input to `to` and says it, with what was read
    /// and each context's tokens in `set`; the exit code.
    pub fn write(self, to: &Path, set: &TokenSet, out: &mut impl Write) -> Result<i32> {
        let input = self;
        super::summary(out, input.file, input.slug, set, input.diags, &[])?;
        let root = input
            .dir
            .canonicalize()
            .with_context(|| format!("cannot read {}", input.dir.display()))?;
        let parent = match to.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(p) => p.to_path_buf(),
            None => std::path::PathBuf::from("."),
        };
        let at = parent
            .canonicalize()
            .with_context(|| format!("cannot write the plan in {}", parent.display()))?;
        let Ok(plan_dir) = at.strip_prefix(&root) else {
            bail!(
            "cannot write the plan to {}: keep it in the folder that holds the input ({}) or in one under it, so it names the team's files from where it is",
            to.display(),
            input.dir.display()
        );
        };
        let plan_dir = plan_dir.to_string_lossy().replace('\\', "/");
        let mut files: BTreeMap<String, Value> = input
            .files
            .iter()
            .filter_map(|(p, b)| Some((p.clone(), serde_json::from_slice(b).ok()?)))
            .collect();
        if !input.folder {
            files.insert(input.named.to_string(), input.doc.clone());
        }
        let made = formats::plan::make(input.named, input.format, &files, &plan_dir)
            .map_err(|e| anyhow!("cannot plan {}: {e}", input.dir.join(input.named).display()))?;
        if std::fs::symlink_metadata(to).is_ok_and(|m| !m.is_file()) {
            bail!(
                "cannot write the plan to {}: it is not a file",
                to.display()
            );
        }
        let text = serde_json::to_string_pretty(&made.doc)? + "\n";
        std::fs::write(to, text).with_context(|| format!("cannot write {}", to.display()))?;
        writeln!(out, "the reading plan:")?;
        for line in formats::plan::explain(&made, Some(set)) {
            writeln!(out, "  {line}")?;
        }
        writeln!(
        out,
        "wrote the plan {}: edit it if marque guessed wrong, and name it in brand.json's `tokens`",
        to.display()
    )?;
        Ok(0)
    }
}
