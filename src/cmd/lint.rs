//! `marque lint`: read a brand, walk a codebase as ripgrep does (the
//! `ignore` crate: .gitignore and .ignore respected, in parallel), lint
//! each file once, then print the findings as frames, JSON lines or SARIF
//! (check's writer), apply `--fix` and keep the baseline. The linting
//! itself is [`crate::lint`]'s, pure; this is its IO shell.

use crate::config::{LintArgs, OutputFormat};
use crate::lint::baseline::Baseline;
use crate::lint::{FileLint, Finding, Index, Options};
use crate::spec::diag::{Code, Diagnostic};
use crate::spec::Severity;
use anyhow::{bail, Context as _, Result};
use std::collections::HashSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

mod cache;
mod remote;
mod walk;

use walk::{walk, SetOnDrop};

/// Files larger than this are not linted: generated bundles and minified
/// builds, whose literals are the tokens' own output.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// One file's findings, with its text when it has any (for frames, SARIF's
/// fingerprints and `--fix`).
struct Linted {
    path: String,
    text: String,
    lint: FileLint,
}

/// What lint needs of a brand: its index, where its tokens are written,
/// and for `--unused` each token's pointer and the tokens file's text.
pub struct Indexed {
    pub ix: Index,
    /// The tokens file, as a path to show (`content/acme/tokens.json`).
    pub tokens_path: String,
    /// Its text, to place `--unused` findings on their tokens.
    pub tokens_text: Option<String>,
    /// Each token's JSON pointer in it, in the index's token order.
    pub pointers: Vec<String>,
    /// Where the index is kept between runs, if anywhere: written by
    /// [`Indexed::keep`] after linting.
    keep: Option<Keep>,
}

/// The cache file of a brand's index, and what it held when read.
struct Keep {
    store: cache::Store,
    /// The tokens file's path in the brand folder.
    tokens_rel: String,
    /// Whether the file held this index (a hit), and how many
    /// nearest-name answers it held.
    hit: bool,
    known: usize,
    /// Whether the brand's files were read (not when the folder's stamp
    /// found the index): what the tests tell the two ways apart by.
    #[cfg_attr(not(test), allow(dead_code))]
    read: bool,
}

impl Indexed {
    /// Keeps the index in the cache when it was not there, or when
    /// linting measured a nearest name it did not hold (see the `cache`
    /// module). Failing is not an error.
    pub fn keep(&self) {
        let Some(k) = &self.keep else {
            return;
        };
        if k.hit && self.ix.nearest_known().len() <= k.known {
            return;
        }
        k.store.save(&k.tokens_rel, &self.pointers, &self.ix);
    }
}

/// The content folder and the slug of the brand `--brand` names: a brand
/// folder, a slug in `content`, or a brand's URL on a marque server
/// (written as a folder in `cache`, see `remote`).
fn brand_folder(spec: &str, content: &Path, cache: Option<&Path>) -> Result<(PathBuf, String)> {
    if remote::is_url(spec) {
        // Never a folder others can write to, as a shared temporary one is.
        let Some(folder) = cache else {
            bail!("--brand {spec}: a brand read from a URL is kept in the cache folder; set XDG_CACHE_HOME or HOME");
        };
        return remote::fetch(spec, folder);
    }
    let as_folder = Path::new(spec);
    if !as_folder.join("brand.json").is_file() {
        return Ok((content.to_path_buf(), spec.to_string()));
    }
    let abs = as_folder
        .canonicalize()
        .with_context(|| format!("cannot read {spec}"))?;
    let slug = abs
        .file_name()
        .and_then(|s| s.to_str())
        .context("the brand folder has no name")?
        .to_string();
    let root = abs.parent().context("the brand folder has no parent")?;
    Ok((root.to_path_buf(), slug))
}

/// Reads and indexes the brand `--brand` names. The index is kept in the
/// cache folder (see the `cache` module), known by the folder's stamp
/// (its files' sizes and times) and by the brand's files as read, so a
/// second run over an unchanged brand reads the index, not the brand.
pub fn index_brand(spec: &str, content: &Path, cache: Option<&Path>) -> Result<Indexed> {
    index_brand_with(spec, content, cache, cache::RACY)
}

/// [`index_brand`], a folder's stamp trusted once its newest change is
/// `racy` old.
fn index_brand_with(
    spec: &str,
    content: &Path,
    cache: Option<&Path>,
    racy: std::time::Duration,
) -> Result<Indexed> {
    let (root, slug) = brand_folder(spec, content, cache)?;
    let dir = root.join(&slug);
    let today = chrono::Utc::now().date_naive();
    let tokens_path = |rel: &str| shown(&dir.join(rel));
    let indexed = |hit: cache::Kept, text: Option<String>, store, restamp: bool, read: bool| {
        let mut ix = hit.index;
        ix.tokens_file = tokens_path(&hit.tokens_rel);
        let known = hit.nearest.len();
        ix.remember_nearest(hit.nearest);
        Indexed {
            tokens_path: ix.tokens_file.clone(),
            tokens_text: text,
            pointers: hit.pointers,
            ix,
            keep: Some(Keep {
                store,
                tokens_rel: hit.tokens_rel,
                hit: !restamp,
                known,
                read,
            }),
        }
    };
    // Taken before anything is read: an edit made while the files are
    // read is a later stamp, never this one.
    let stamp = cache.and_then(|_| cache::stamp(&dir, today, racy));
    // The folder as it was when its index was kept: nothing to read.
    if let (Some(c), Some(stamp)) = (cache, &stamp) {
        let mut store = cache::Store::stamped(c, &dir, stamp.clone());
        if let Some((hit, true)) = store.load() {
            let text = std::fs::read_to_string(dir.join(&hit.tokens_rel)).ok();
            return Ok(indexed(hit, text, store, false, false));
        }
    }
    let Some((raw, problems)) = crate::source::dir::read_brand_bytes(&root, &slug) else {
        bail!(
            "--brand {spec}: neither a brand folder (with brand.json) nor a brand in {}",
            content.display()
        );
    };
    let stamp = stamp.unwrap_or_default();
    let store = cache.map(|c| cache::Store::new(c, &dir, &slug, &raw, &problems, today, stamp));
    if let Some(mut store) = store {
        if let Some((hit, by_stamp)) = store.load() {
            let text = raw
                .get(&hit.tokens_rel)
                .and_then(|b| std::str::from_utf8(b).ok())
                .map(str::to_string);
            // The same files with other times: kept again under them
            // (when they have a stamp: not while a change is too recent).
            let restamp = !by_stamp && store.has_stamp();
            return Ok(indexed(hit, text, store, restamp, true));
        }
        return index_read(&root, slug, raw, problems, today, Some(store));
    }
    index_read(&root, slug, raw, problems, today, None)
}

/// [`index_brand`] where no index is kept for the brand as it is.
fn index_read(
    root: &Path,
    slug: String,
    raw: std::collections::BTreeMap<String, bytes::Bytes>,
    problems: Vec<crate::spec::Diagnostic>,
    today: chrono::NaiveDate,
    store: Option<cache::Store>,
) -> Result<Indexed> {
    let tokens_path = |rel: &str| shown(&root.join(&slug).join(rel));
    // The brand's files are read, and its resolver's contexts checked, on
    // every core.
    let (files, (brand, diags)) = crate::spec::limits::stop::spreading(
        std::sync::Arc::new(crate::build::jobs::Cores),
        || {
            let files = crate::spec::BrandFiles::new(
                slug.as_str(),
                raw,
                problems,
                crate::bodies::Bodies::process(),
            );
            let parsed = crate::spec::parse_brand(&files, today);
            (files, parsed)
        },
    );
    let Some(brand) = brand else {
        let errors = diags
            .iter()
            .filter(|d| d.severity() == Severity::Error)
            .count();
        bail!("the brand {slug} does not validate ({errors} error(s)): run `marque check` on its content folder");
    };
    let tokens_rel = brand
        .tokens
        .tokens
        .first()
        .and_then(|t| t.file.clone())
        .unwrap_or_else(|| "tokens.json".to_string());
    let tokens_text = files
        .source(&tokens_rel)
        .and_then(|b| std::str::from_utf8(b).ok())
        .map(str::to_string);
    let tokens_path = tokens_path(&tokens_rel);
    let ix = Index::new(&brand, &tokens_path);
    let pointers: Vec<String> = brand
        .tokens
        .tokens
        .iter()
        .map(|t| t.pointer.clone())
        .collect();
    Ok(Indexed {
        ix,
        tokens_path,
        tokens_text,
        pointers,
        keep: store.map(|store| Keep {
            store,
            tokens_rel,
            hit: false,
            known: 0,
            read: true,
        }),
    })
}

/// A path as findings show it: `/` separators, no leading `./`.
fn shown(p: &Path) -> String {
    let s = p.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").unwrap_or(&s).to_string()
}

/// The findings of `--unused`: each token no file names, on its token.
fn unused(brand: &Indexed, files: &[Linted]) -> Vec<Finding> {
    let ix = &brand.ix;
    let used: HashSet<usize> = files
        .iter()
        .flat_map(|f| f.lint.used.iter().copied())
        .collect();
    let text = brand.tokens_text.as_deref().unwrap_or("");
    let pointers = &brand.pointers;
    let positions = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(_) => {
            let wanted: Vec<(&str, crate::spec::json::Anchor)> = pointers
                .iter()
                .map(|p| (p.as_str(), crate::spec::json::Anchor::Key))
                .collect();
            crate::spec::json::locate(text, &wanted)
        }
        Err(_) => Vec::new(),
    };
    ix.tokens
        .iter()
        .enumerate()
        .filter(|(i, _)| !used.contains(i))
        .map(|(i, e)| {
            let (line, column) = positions.get(i).map_or((1, 1), |p| (p.line, p.column));
            Finding {
                code: Code::UnusedToken,
                line,
                column,
                range: 0..0,
                subject: e.name.clone(),
                message: format!("no file linted uses `{}` (`var(--{})`)", e.name, e.css),
                suggest: Vec::new(),
                fix: None,
                var: None,
            }
        })
        .collect()
}

/// Rewrites each file's fixable findings; returns how many, and drops them.
fn apply_fixes(files: &mut [Linted]) -> Result<usize> {
    let mut n = 0;
    for f in files.iter_mut() {
        let mut fixes: Vec<(std::ops::Range<usize>, String)> = f
            .lint
            .findings
            .iter()
            .filter_map(|x| x.fix.clone())
            .collect();
        if fixes.is_empty() {
            continue;
        }
        fixes.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
        let mut text = f.text.clone();
        let mut last = usize::MAX;
        for (r, with) in &fixes {
            // Two fixes over one span (never expected): the later stays.
            if r.end > last {
                continue;
            }
            text.replace_range(r.clone(), with);
            last = r.start;
            n += 1;
        }
        std::fs::write(&f.path, &text).with_context(|| format!("cannot write {}", f.path))?;
        f.lint.findings.retain(|x| x.fix.is_none());
    }
    Ok(n)
}

/// Runs `marque lint`. Returns the exit code: 1 when an error remains
/// (after the baseline), as `marque check` does.
pub fn run(args: &LintArgs, out: &mut impl Write) -> Result<i32> {
    let opts = Options {
        delta_e: args.delta_e,
    };
    // Only the human and SARIF formats and `--fix` read a file's text
    // after linting it.
    let keep_text = args.fix || args.format != OutputFormat::Json;
    // The brand is read and indexed on one thread while the codebase is
    // walked on the others, which lint each file read once the brand is.
    let brand: OnceLock<Result<Indexed>> = OnceLock::new();
    let walked = std::thread::scope(|s| {
        s.spawn(|| {
            // Set however the thread ends, so no walker waits forever: a
            // panic is the scope's to raise again.
            let unset = SetOnDrop(&brand);
            let _ = brand.set(index_brand(
                &args.brand,
                &args.content,
                cache::folder().as_deref(),
            ));
            drop(unset);
        });
        walk(&args.paths, &brand, &opts, keep_text)
    });
    let brand = match brand.into_inner() {
        Some(b) => b?,
        None => bail!("the brand was not read"),
    };
    let Some(files) = walked? else {
        bail!("the brand was not read");
    };
    // The cache is written while the findings are: neither needs the other.
    let code = std::thread::scope(|s| {
        s.spawn(|| brand.keep());
        report(args, out, &brand, files)
    });
    // The process ends here: its memory goes back whole, without the
    // tens of thousands of frees of every name of the brand.
    std::mem::forget(brand);
    code
}

/// What follows linting: codebase-declared properties dropped, fixes,
/// `--unused`, the baseline, then the findings printed. Returns the exit
/// code.
fn report(
    args: &LintArgs,
    out: &mut impl Write,
    brand: &Indexed,
    mut files: Vec<Linted>,
) -> Result<i32> {
    let ix = &brand.ix;
    // A custom property the codebase declares is its own, not the brand's.
    let declared: HashSet<String> = files
        .iter()
        .flat_map(|f| f.lint.declared.iter().cloned())
        .collect();
    for f in &mut files {
        f.lint
            .findings
            .retain(|x| x.var.as_ref().is_none_or(|v| !declared.contains(v)));
    }
    let fixed = match args.fix {
        true => apply_fixes(&mut files)?,
        false => 0,
    };
    if args.unused {
        let findings = unused(brand, &files);
        files.push(Linted {
            path: brand.tokens_path.clone(),
            text: brand.tokens_text.clone().unwrap_or_default(),
            lint: FileLint {
                findings,
                ..FileLint::default()
            },
        });
    }
    let accepted = baseline(args, &files)?;
    // Each finding shown (not in the baseline), by file and index.
    let mut shown: Vec<(usize, usize)> = Vec::new();
    let mut k = 0;
    for (n, f) in files.iter().enumerate() {
        for m in 0..f.lint.findings.len() {
            if !accepted[k] {
                shown.push((n, m));
            }
            k += 1;
        }
    }
    let errors = shown
        .iter()
        .filter(|&&(n, m)| files[n].lint.findings[m].code.severity() == Severity::Error)
        .count();
    // Thousands of findings are thousands of lines: one write each to a
    // line-buffered stdout is a system call each.
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    let listed = Listed {
        slug: &ix.slug,
        files: &files,
        shown: &shown,
    };
    print(
        args,
        &mut out,
        &listed,
        fixed,
        accepted.iter().filter(|a| **a).count(),
    )?;
    out.flush()?;
    // The process ends here: its memory goes back whole, without the
    // tens of thousands of frees of every text and finding.
    std::mem::forget((files, shown));
    Ok(if errors > 0 { 1 } else { 0 })
}

/// Which findings, in order, the baseline accepts; writes it under
/// `--update-baseline`.
fn baseline(args: &LintArgs, files: &[Linted]) -> Result<Vec<bool>> {
    let found = || {
        files.iter().flat_map(|f| {
            f.lint
                .findings
                .iter()
                .map(|x| (f.path.as_str(), x.code, x.subject.as_str()))
        })
    };
    let Some(path) = &args.baseline else {
        return Ok(found().map(|_| false).collect());
    };
    let old: Option<Baseline> = match std::fs::read_to_string(path) {
        Ok(text) => Some(
            serde_json::from_str(&text)
                .with_context(|| format!("{} is not a lint baseline", path.display()))?,
        ),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if args.update_baseline {
        let new = match &old {
            Some(b) => b.shrunk(found()),
            None => Baseline::of(found()),
        };
        let mut text = serde_json::to_string_pretty(&new)?;
        text.push('\n');
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
        return Ok(new.accepts(found()));
    }
    Ok(old.unwrap_or_default().accepts(found()))
}

/// A finding as one of check's diagnostics: the code, the file, where, the
/// message; the subject as its pointer, so SARIF's fingerprint follows it.
fn diagnostic(slug: &str, path: &str, x: &Finding) -> Diagnostic {
    Diagnostic {
        code: x.code,
        brand: slug.to_string(),
        file: path.to_string(),
        pointer: x.subject.clone(),
        line: x.line,
        column: x.column,
        message: message(x).into_owned(),
        target: None,
        inherited: None,
    }
}

/// A finding's message as shown: with its other suggestions, where it has any.
fn message(x: &Finding) -> std::borrow::Cow<'_, str> {
    match x.suggest.len() > 1 {
        true => format!("{} (or {})", x.message, x.suggest[1..].join(", ")).into(),
        false => x.message.as_str().into(),
    }
}

/// The findings to print: each shown one's file and index in it.
struct Listed<'a> {
    slug: &'a str,
    files: &'a [Linted],
    shown: &'a [(usize, usize)],
}

impl Listed<'_> {
    /// Each finding shown as a diagnostic, with its file and finding.
    fn diagnostics(&self) -> Vec<(Diagnostic, usize, usize)> {
        self.shown
            .iter()
            .map(|&(n, m)| {
                let f = &self.files[n];
                (diagnostic(self.slug, &f.path, &f.lint.findings[m]), n, m)
            })
            .collect()
    }
}

/// A finding as a line of `--format json`: its diagnostic as check writes
/// one, with the suggestions where the pointer was and what it is about
/// last (the order lint has always written: the line was a JSON object
/// whose pointer was swapped out for its last member). Written straight
/// to the output: no JSON tree made and dropped per line.
#[derive(serde::Serialize)]
struct JsonLine<'a> {
    severity: Severity,
    code: Code,
    brand: &'a str,
    file: &'a str,
    suggest: &'a [String],
    line: u32,
    column: u32,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    inherited: Option<&'a crate::spec::diag::Inherited>,
    subject: &'a str,
}

impl<'a> JsonLine<'a> {
    /// The line of a finding, as `JsonLine::of` writes its diagnostic's, with
    /// no diagnostic made (nothing of the finding copied).
    fn of_finding(slug: &'a str, file: &'a str, x: &'a Finding, message: &'a str) -> JsonLine<'a> {
        JsonLine {
            severity: x.code.severity(),
            code: x.code,
            brand: slug,
            file,
            line: x.line,
            column: x.column,
            message,
            inherited: None,
            subject: &x.subject,
            suggest: &x.suggest,
        }
    }

    #[cfg(test)]
    fn of(d: &'a Diagnostic, x: &'a Finding) -> JsonLine<'a> {
        JsonLine {
            severity: d.severity(),
            code: d.code,
            brand: &d.brand,
            file: &d.file,
            line: d.line,
            column: d.column,
            message: &d.message,
            inherited: d.inherited.as_ref(),
            subject: &x.subject,
            suggest: &x.suggest,
        }
    }
}

fn print(
    args: &LintArgs,
    out: &mut impl Write,
    listed: &Listed<'_>,
    fixed: usize,
    accepted: usize,
) -> Result<()> {
    let files = listed.files;
    match args.format {
        OutputFormat::Human => {
            let diags = listed.diagnostics();
            let diags = diags.as_slice();
            for (d, n, m) in diags {
                let source = Some(files[*n].text.as_str()).filter(|t| !t.is_empty());
                // The whole literal or name is underlined, not the word at its start.
                let range = files[*n].lint.findings[*m].range.clone();
                let span = source
                    .and_then(|t| t.get(range))
                    .map(|s| s.chars().count())
                    .filter(|s| *s > 0);
                writeln!(out, "{}", crate::report::frame_span(d, source, false, span))?;
            }
            let (e, w) = crate::spec::diag::count(
                &diags.iter().map(|(d, ..)| d.clone()).collect::<Vec<_>>(),
            );
            let mut line = format!(
                "{} file(s) linted: {e} error(s), {w} warning(s)",
                files.len()
            );
            if fixed > 0 {
                line.push_str(&format!(", {fixed} fixed"));
            }
            if accepted > 0 {
                line.push_str(&format!(", {accepted} in the baseline"));
            }
            writeln!(out, "{line}")?;
        }
        OutputFormat::Json => {
            for &(n, m) in listed.shown {
                let (f, x) = (&files[n], &files[n].lint.findings[m]);
                let message = message(x);
                let line = JsonLine::of_finding(listed.slug, &f.path, x, &message);
                serde_json::to_writer(&mut *out, &line)?;
                out.write_all(b"\n")?;
            }
        }
        OutputFormat::Sarif => {
            let list: Vec<Diagnostic> = listed.diagnostics().into_iter().map(|(d, ..)| d).collect();
            let sarif = crate::render::sarif::render(&list, "", args.public_url.as_deref(), |d| {
                files
                    .iter()
                    .find(|f| f.path == d.file)
                    .map(|f| f.text.as_str())
                    .filter(|t| !t.is_empty())
            });
            out.write_all(sarif.as_bytes())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JSON line as it was first written: the diagnostic as a JSON tree,
    /// its pointer taken out, the subject and suggestions put in.
    fn plain_json_line(d: &Diagnostic, x: &Finding) -> String {
        let mut v = serde_json::to_value(d).unwrap();
        let o = v.as_object_mut().unwrap();
        o.insert("subject".into(), x.subject.clone().into());
        o.insert("suggest".into(), serde_json::to_value(&x.suggest).unwrap());
        o.remove("pointer");
        serde_json::to_string(&v).unwrap()
    }

    #[test]
    fn a_json_line_is_the_diagnostic_less_its_pointer_with_subject_and_suggestions() {
        let finding = |code, subject: &str, suggest: &[&str]| Finding {
            code,
            line: 12,
            column: 7,
            range: 3..9,
            subject: subject.to_string(),
            message: format!("`{subject}` is \"quoted\"\tand → not ascii"),
            suggest: suggest.iter().map(|s| s.to_string()).collect(),
            fix: None,
            var: None,
        };
        for x in [
            finding(Code::UnusedToken, "color.ink", &[]),
            finding(
                Code::LiteralIsToken,
                "#0969da",
                &["var(--color-harbor-500)", "b"],
            ),
        ] {
            let mut d = diagnostic("harbor", "src/a b.css", &x);
            assert_eq!(
                serde_json::to_string(&JsonLine::of(&d, &x)).unwrap(),
                plain_json_line(&d, &x)
            );
            let shown = message(&x);
            assert_eq!(
                serde_json::to_string(&JsonLine::of_finding("harbor", "src/a b.css", &x, &shown))
                    .unwrap(),
                plain_json_line(&d, &x)
            );
            d.inherited = Some(crate::spec::diag::Inherited {
                brand: "core".into(),
                version: "1.2.0".into(),
                through: vec!["mid".into()],
            });
            assert_eq!(
                serde_json::to_string(&JsonLine::of(&d, &x)).unwrap(),
                plain_json_line(&d, &x)
            );
        }
    }
}
