//! `marque import --plan FILE`: the reading plan of the input, written
//! over the team's own files as they are on disk, relative to where the
//! plan is kept ([`crate::spec::formats::plan`]), and said in words.

use crate::spec::formats::{self, Format};
use crate::spec::tokens::TokenSet;
use crate::spec::{Diagnostic, Severity};
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
    /// and each context's tokens in `set`; the exit code. Without `set`
    /// (the input has errors, such as a question marque could not answer),
    /// the errors, then the plan it proposes, and 1.
    pub fn write(self, to: &Path, set: Option<&TokenSet>, out: &mut impl Write) -> Result<i32> {
        let input = self;
        match set {
            Some(set) => super::summary(out, input.file, input.slug, set, input.diags, &[])?,
            None => {
                let errors = input
                    .diags
                    .iter()
                    .filter(|d| d.severity() == Severity::Error);
                for d in errors {
                    writeln!(out, "{}", crate::report::frame(d, None, false))?;
                }
            }
        }
        let plan_dir = plan_dir(input.dir, to)?;
        let mut files: BTreeMap<String, Value> = input
            .files
            .iter()
            .filter_map(|(p, b)| Some((p.clone(), serde_json::from_slice(b).ok()?)))
            .collect();
        if !input.folder {
            files.insert(input.named.to_string(), input.doc.clone());
        }
        let named = input.dir.join(input.named);
        let made = formats::plan::make(input.named, input.format, &files, &plan_dir)
            .map_err(|e| anyhow!("cannot plan {}: {e}", named.display()))?;
        if std::fs::symlink_metadata(to).is_ok_and(|m| !m.is_file()) {
            bail!("cannot write the plan to {}: not a file", to.display());
        }
        let text = serde_json::to_string_pretty(&made.doc)? + "\n";
        std::fs::write(to, text).with_context(|| format!("cannot write {}", to.display()))?;
        let title = match set {
            Some(_) => "the reading plan:",
            None => "the reading plan marque proposes (answer the question above in it):",
        };
        writeln!(out, "{title}")?;
        for line in formats::plan::explain(&made, set) {
            writeln!(out, "  {line}")?;
        }
        let to = to.display();
        writeln!(out, "wrote the plan {to}: edit it where marque guessed wrong or asks, and name it in brand.json's `tokens`")?;
        Ok(match set {
            Some(_) => 0,
            None => 1,
        })
    }
}

/// The folder of the plan `to`, from `dir` (where the input's files are
/// named from): the plan must be in it or under it.
fn plan_dir(dir: &Path, to: &Path) -> Result<String> {
    let root = dir
        .canonicalize()
        .with_context(|| format!("cannot read {}", dir.display()))?;
    let parent = match to.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(p) => p.to_path_buf(),
        None => std::path::PathBuf::from("."),
    };
    let at = parent
        .canonicalize()
        .with_context(|| format!("cannot write the plan in {}", parent.display()))?;
    let Ok(rel) = at.strip_prefix(&root) else {
        let (to, dir) = (to.display(), dir.display());
        bail!("cannot write the plan to {to}: keep it in the folder that holds the input ({dir}) or in one under it, so it names the team's files from where it is");
    };
    Ok(rel.to_string_lossy().replace('\\', "/"))
}
