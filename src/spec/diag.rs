//! Diagnostics: every problem found in a content repository, with the file,
//! JSON Pointer, line and column it points at.
//!
//! Validation never stops at the first problem; it pushes into a
//! [`FileDiags`] collector and the caller decides what an error means (the
//! brand is not published) once everything has been looked at. Positions are
//! filled in at the end, in one pass over the file's text.
//!
//! Each diagnostic carries a [`Code`] (`MQ1201`), and its severity is its
//! code's: what a diagnostic means is its code, never its wording, so no
//! code reads messages back.

use std::borrow::Cow;

use super::json::{locate, Anchor, Pos};
use super::limits::MAX_DIAGNOSTICS_PER_FILE;
use serde::ser::SerializeStruct;
use serde::{Deserialize, Serialize};
use std::fmt;

mod codes;
mod index;
mod kinds;
pub use codes::{Code, Family};
pub use index::readme_index;
pub use kinds::{kinds, Kind};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One problem, as `marque check` prints it and `/status` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
#[serde(from = "Wire")]
pub struct Diagnostic {
    /// What kind of problem it is; its severity is the code's.
    pub code: Code,
    /// The brand's slug (the top-level folder name).
    pub brand: String,
    /// Path of the file relative to the content root, with `/` separators.
    pub file: String,
    /// RFC 6901 JSON Pointer into the file ("" for the whole file or non-JSON files).
    pub pointer: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// For a reference that names no token: the token it names, as data
    /// (a resolver brand adds where else that token is defined). Not
    /// published.
    pub target: Option<String>,
    /// For a brand of a family: the parent whose file the problem is in,
    /// and the parents between (DESIGN.md section 18). Published.
    pub inherited: Option<Inherited>,
}

/// Where in a family a diagnostic comes from: the parent brand (and the
/// version of it the child is built over) whose file it is in, and the
/// parents it is reached through, nearest the child first.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Inherited {
    pub brand: String,
    pub version: String,
    pub through: Vec<String>,
}

impl Diagnostic {
    /// Error or warning: the code's severity.
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }
}

/// Written as `{severity, code, brand, file, pointer, line, column,
/// message}`: the severity for readers that do not know the codes.
impl Serialize for Diagnostic {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n = 8 + usize::from(self.inherited.is_some());
        let mut o = s.serialize_struct("Diagnostic", n)?;
        o.serialize_field("severity", &self.severity())?;
        o.serialize_field("code", &self.code)?;
        o.serialize_field("brand", &self.brand)?;
        o.serialize_field("file", &self.file)?;
        o.serialize_field("pointer", &self.pointer)?;
        o.serialize_field("line", &self.line)?;
        o.serialize_field("column", &self.column)?;
        o.serialize_field("message", &self.message)?;
        if let Some(i) = &self.inherited {
            o.serialize_field("inherited", i)?;
        }
        o.end()
    }
}

/// A diagnostic as it is written (the severity, derived, is not read back).
#[derive(Deserialize)]
struct Wire {
    code: Code,
    brand: String,
    file: String,
    pointer: String,
    line: u32,
    column: u32,
    message: String,
    #[serde(default)]
    inherited: Option<Inherited>,
}

impl From<Wire> for Diagnostic {
    fn from(w: Wire) -> Diagnostic {
        Diagnostic {
            code: w.code,
            brand: w.brand,
            file: w.file,
            pointer: w.pointer,
            line: w.line,
            column: w.column,
            message: w.message,
            target: None,
            inherited: w.inherited,
        }
    }
}

impl fmt::Display for Diagnostic {
    /// Compiler style: `error[MQ1201]: message\n  --> acme/brand.json:3:14`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}[{}]: {}\n  --> {}:{}:{}",
            self.severity().as_str(),
            self.code,
            self.message,
            self.file,
            self.line,
            self.column
        )?;
        if !self.pointer.is_empty() {
            write!(f, " (at {})", self.pointer)?;
        }
        if let Some(i) = &self.inherited {
            write!(f, "\n  = in {}@{}", i.brand, i.version)?;
            if !i.through.is_empty() {
                write!(f, ", through {}", i.through.join(" → "))?;
            }
        }
        Ok(())
    }
}

/// Collects the diagnostics of one file of one brand. Positions are found
/// by [`FileDiags::finish`], once, from the file's text.
pub struct FileDiags<'a> {
    pub brand: &'a str,
    pub file: String,
    pending: Vec<(Diagnostic, Anchor)>,
    /// Diagnostics past the cap, counted but not kept.
    dropped: Dropped,
}

/// What the cap on listed diagnostics left out, by severity: a warning
/// left out is still a warning.
#[derive(Clone, Copy, Default)]
struct Dropped {
    errors: usize,
    warnings: usize,
}

impl Dropped {
    /// The line that says what was left out, an error only when an error was.
    fn summary(self, brand: &str, file: &str, what: &str) -> Option<Diagnostic> {
        let Dropped { errors, warnings } = self;
        let listed = match (errors, warnings) {
            (0, 0) => return None,
            (0, w) => format!("{w} more warning(s) {what} are not listed"),
            (e, 0) => format!("{e} more error(s) {what} are not listed; fix the ones above first"),
            (e, w) => format!("{e} more error(s) and {w} more warning(s) {what} are not listed; fix the errors above first"),
        };
        let code = match errors {
            0 => Code::MoreWarningsNotListed,
            _ => Code::MoreErrorsNotListed,
        };
        Some(file_diagnostic(code, brand, file, listed))
    }
}

impl<'a> FileDiags<'a> {
    pub fn new(brand: &'a str, file: impl Into<String>) -> FileDiags<'a> {
        FileDiags {
            brand,
            file: file.into(),
            pending: Vec::new(),
            dropped: Dropped::default(),
        }
    }

    /// A diagnostic of kind `code` at the value that `pointer` names.
    pub fn push(&mut self, code: Code, pointer: &str, message: impl Into<String>) {
        self.keep(code, pointer, Anchor::Value, message.into(), None);
    }

    /// A diagnostic of kind `code` at the key of the member that `pointer` names.
    pub fn push_at_key(&mut self, code: Code, pointer: &str, message: impl Into<String>) {
        self.keep(code, pointer, Anchor::Key, message.into(), None);
    }

    /// A diagnostic about a reference to `target` (a token that is not
    /// there), at the value that `pointer` names: the target travels with
    /// it as data.
    pub fn push_reference(
        &mut self,
        code: Code,
        pointer: &str,
        message: impl Into<String>,
        target: &str,
    ) {
        let target = Some(target.to_string());
        self.keep(code, pointer, Anchor::Value, message.into(), target);
    }

    /// True when an error has been recorded (kept or dropped).
    pub fn has_errors(&self) -> bool {
        self.dropped.errors > 0
            || self
                .pending
                .iter()
                .any(|(d, _)| d.severity() == Severity::Error)
    }

    /// Errors recorded so far.
    pub fn error_count(&self) -> usize {
        self.pending
            .iter()
            .filter(|(d, _)| d.severity() == Severity::Error)
            .count()
            + self.dropped.errors
    }

    /// Keeps the first [`MAX_DIAGNOSTICS_PER_FILE`] diagnostics, errors
    /// before warnings: past the cap an error takes the place of the last
    /// warning listed, and what is left out is counted by severity.
    fn keep(
        &mut self,
        code: Code,
        pointer: &str,
        anchor: Anchor,
        message: String,
        target: Option<String>,
    ) {
        if self.pending.len() >= MAX_DIAGNOSTICS_PER_FILE {
            let warning = self
                .pending
                .iter()
                .rposition(|(d, _)| d.severity() == Severity::Warning);
            match (code.severity(), warning) {
                (Severity::Error, Some(i)) => {
                    self.pending.remove(i);
                    self.dropped.warnings += 1;
                }
                (Severity::Error, None) => {
                    self.dropped.errors += 1;
                    return;
                }
                (Severity::Warning, _) => {
                    self.dropped.warnings += 1;
                    return;
                }
            }
        }
        self.pending.push((
            Diagnostic {
                code,
                brand: self.brand.to_string(),
                file: self.file.clone(),
                pointer: pointer.to_string(),
                line: 1,
                column: 1,
                message,
                target,
                inherited: None,
            },
            anchor,
        ));
    }

    /// Places every diagnostic in `text` (valid JSON, or `None` to leave
    /// them at 1:1) and appends them to `out`.
    pub fn finish(self, text: Option<&str>, out: &mut Vec<Diagnostic>) {
        let FileDiags {
            brand,
            file,
            pending,
            dropped,
        } = self;
        place(pending, text, out);
        out.extend(dropped.summary(brand, &file, "in this file"));
    }
}

impl FileDiags<'_> {
    /// Like [`FileDiags::finish`], for a document merged from several
    /// files: `origin` says which file, and which pointer in it, each
    /// diagnostic's pointer came from; `texts` holds each file's text
    /// (by its path relative to the content root) to place it in. `edit`
    /// may change each diagnostic's message (to name the context it is
    /// in) before it is kept.
    pub fn finish_mapped(
        self,
        origin: impl Fn(&str) -> (String, String),
        texts: &std::collections::BTreeMap<String, &str>,
        edit: impl Fn(&mut Diagnostic),
        out: &mut Vec<Diagnostic>,
    ) {
        let mut by_file: std::collections::BTreeMap<String, Vec<(Diagnostic, Anchor)>> =
            Default::default();
        let (brand, file, dropped) = (self.brand, self.file, self.dropped);
        for (mut d, anchor) in self.pending {
            let (file, pointer) = origin(&d.pointer);
            d.file = file.clone();
            d.pointer = pointer;
            edit(&mut d);
            by_file.entry(file).or_default().push((d, anchor));
        }
        for (file, pending) in by_file {
            place(pending, texts.get(&file).copied(), out);
        }
        out.extend(dropped.summary(brand, &file, "in these tokens"));
    }
}

/// Gives each diagnostic the line and column of its pointer in `text`
/// (valid JSON, or `None` to leave them at 1:1) and appends it to `out`.
fn place(pending: Vec<(Diagnostic, Anchor)>, text: Option<&str>, out: &mut Vec<Diagnostic>) {
    let positions = match text {
        Some(t) => {
            let wanted: Vec<(&str, Anchor)> = pending
                .iter()
                .map(|(d, a)| (d.pointer.as_str(), *a))
                .collect();
            locate(t, &wanted)
        }
        None => vec![Pos::START; pending.len()],
    };
    for ((mut d, _), pos) in pending.into_iter().zip(positions) {
        d.line = pos.line;
        d.column = pos.column;
        out.push(d);
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity() == Severity::Error)
}

/// Errors and warnings in a list of diagnostics.
pub fn count(diags: &[Diagnostic]) -> (usize, usize) {
    let errors = diags
        .iter()
        .filter(|d| d.severity() == Severity::Error)
        .count();
    (errors, diags.len() - errors)
}

/// `diags` with each file named by its path in the repository that holds
/// the content folder at `prefix` (`brands/`): what people find in it.
pub fn in_repository(diags: &[Diagnostic], prefix: &str) -> Vec<Diagnostic> {
    diags
        .iter()
        .cloned()
        .map(|mut d| {
            if !prefix.is_empty() && !d.file.is_empty() {
                d.file = format!("{prefix}{}", d.file);
            }
            d
        })
        .collect()
}

/// The token a diagnostic's pointer is in (`/color/brand/$value/hex` →
/// `color.brand`), if it points into a token document below its root.
pub fn token_of(d: &Diagnostic) -> Option<String> {
    let path: Vec<String> = d
        .pointer
        .split('/')
        .skip(1)
        .take_while(|s| !s.starts_with('$'))
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect();
    (!path.is_empty() && !path.iter().any(String::is_empty)).then(|| path.join("."))
}

/// What a diagnostic is about, by name: the token its pointer is in (in a
/// token file: not brand.json, not a resolver document, whose pointers
/// name sets and modifiers), else what its message quotes first.
pub fn named(d: &Diagnostic) -> Option<String> {
    let in_tokens = !d.file.ends_with("brand.json") && !d.file.ends_with(".resolver.json");
    in_tokens
        .then(|| token_of(d))
        .flatten()
        .or_else(|| first_quoted(&d.message).map(String::from))
}

/// The first thing a message quotes in backticks: the token or member it
/// is about, for a summary that counts messages by kind.
pub fn first_quoted(message: &str) -> Option<&str> {
    let start = message.find('`')? + 1;
    let len = message[start..].find('`')?;
    Some(&message[start..start + len]).filter(|q| !q.is_empty())
}

/// A message with what it quotes (in backticks or double quotes) elided,
/// so messages about different tokens read as one kind.
pub fn shape(message: &str) -> String {
    let mut out = String::new();
    let mut open: Option<char> = None;
    for c in message.chars() {
        match open {
            Some(q) if c == q => {
                out.push('…');
                out.push(q);
                open = None;
            }
            Some(_) => {}
            None if c == '`' || c == '"' => {
                out.push(c);
                open = Some(c);
            }
            None => out.push(c),
        }
    }
    out
}

/// A diagnostic of kind `code` that is not inside a JSON document (a bad
/// folder name, a missing file): at the start of `file`.
pub fn file_diagnostic(
    code: Code,
    brand: &str,
    file: &str,
    message: impl Into<String>,
) -> Diagnostic {
    Diagnostic {
        code,
        brand: brand.to_string(),
        file: file.to_string(),
        pointer: String::new(),
        line: 1,
        column: 1,
        message: message.into(),
        target: None,
        inherited: None,
    }
}

/// Most characters of a value that a message quotes.
pub const CLIPPED: usize = 60;

/// A value for a message or a log line: its first [`CLIPPED`] characters,
/// and `…` when it was cut, so a hostile value cannot blow a diagnostic, an
/// error answer or a log up to megabytes.
pub fn clipped(s: &str) -> Cow<'_, str> {
    match s.char_indices().nth(CLIPPED) {
        None => Cow::Borrowed(s),
        Some((end, _)) => Cow::Owned(format!("{}…", &s[..end])),
    }
}

/// A content string for a message: quoted, and [`clipped`].
pub fn quoted(s: &str) -> String {
    format!("\"{}\"", clipped(s))
}

/// Suggests the closest candidate to a misspelt key, for "did you mean" hints.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // Edit distance is quadratic; a key longer than any candidate by far is no typo.
    if word.chars().count() > 64 {
        return None;
    }
    candidates
        .into_iter()
        .map(|c| (edit_distance(&word.to_lowercase(), &c.to_lowercase()), c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_summary_can_name_the_token_a_diagnostic_is_about() {
        let mut d = file_diagnostic(
            Code::RelativeUnit,
            "b",
            "b/tokens.json",
            "unit \"em\" is relative",
        );
        d.pointer = "/typography/title~1page/$value/fontSize".into();
        assert_eq!(token_of(&d).as_deref(), Some("typography.title/page"));
        d.pointer = "/$schema".into();
        assert_eq!(token_of(&d), None);
        assert_eq!(
            first_quoted("no `color.ink`: it is read as 0 px"),
            Some("color.ink")
        );
        assert_eq!(first_quoted("no quotes here"), None);
        // A resolver document's pointers name sets, not tokens.
        d.file = "b/tokens.resolver.json".into();
        d.pointer = "/sets/base/sources/0".into();
        d.message = "source `base.json` is missing".into();
        assert_eq!(named(&d).as_deref(), Some("base.json"));
        d.file = "b/tokens/base.json".into();
        d.pointer = "/color/ink/$value".into();
        assert_eq!(named(&d).as_deref(), Some("color.ink"));
    }

    use super::*;

    #[test]
    fn suggests_near_misses_only() {
        let keys = ["typography", "color", "voice"];
        assert_eq!(closest("colour", keys), Some("color"));
        assert_eq!(closest("typografy", keys), Some("typography"));
        assert_eq!(closest("banana", keys), None);
        assert_eq!(closest(&"c".repeat(100_000), keys), None);
    }

    #[test]
    fn displays_like_a_compiler() {
        let d = file_diagnostic(Code::MissingFile, "acme", "acme/brand.json", "boom");
        assert_eq!(
            d.to_string(),
            "error[MQ1003]: boom\n  --> acme/brand.json:1:1"
        );
    }

    #[test]
    fn diagnostics_are_placed_at_the_end_and_capped() {
        let mut d = FileDiags::new("acme", "acme/tokens.json");
        for i in 0..(MAX_DIAGNOSTICS_PER_FILE + 5) {
            d.push(Code::InvalidValue, &format!("/a/{i}"), "bad");
        }
        let mut out = Vec::new();
        d.finish(Some("{\n\"a\": [1, 2]}"), &mut out);
        assert_eq!(out.len(), MAX_DIAGNOSTICS_PER_FILE + 1);
        assert_eq!((out[0].line, out[0].column), (2, 7));
        assert!(out.last().unwrap().message.starts_with("5 more error(s)"));
        assert_eq!(out.last().unwrap().code, Code::MoreErrorsNotListed);
        assert_eq!(out.last().unwrap().severity(), Severity::Error);
    }

    #[test]
    fn warnings_past_the_cap_stay_warnings_and_errors_are_listed_first() {
        let mut d = FileDiags::new("acme", "acme/tokens.json");
        for i in 0..(MAX_DIAGNOSTICS_PER_FILE + 142) {
            d.push(Code::BareZero, &format!("/a/{i}"), "tolerated");
        }
        assert!(!d.has_errors(), "only warnings");
        let mut out = Vec::new();
        d.finish(None, &mut out);
        assert!(!has_errors(&out), "{:?}", out.last());
        assert_eq!(out.last().unwrap().code, Code::MoreWarningsNotListed);
        assert_eq!(
            out.last().unwrap().message,
            "142 more warning(s) in this file are not listed"
        );
        // An error after the cap is listed, in place of a warning.
        let mut d = FileDiags::new("acme", "acme/tokens.json");
        for i in 0..(MAX_DIAGNOSTICS_PER_FILE + 3) {
            d.push(Code::BareZero, &format!("/a/{i}"), "tolerated");
        }
        d.push(Code::InvalidValue, "/b", "broken");
        assert!(d.has_errors());
        let mut out = Vec::new();
        d.finish(None, &mut out);
        assert_eq!(out.len(), MAX_DIAGNOSTICS_PER_FILE + 1);
        assert!(out.iter().any(|x| x.message == "broken"));
        assert_eq!(
            out.last().unwrap().message,
            "4 more warning(s) in this file are not listed"
        );
    }

    #[test]
    fn a_diagnostic_is_written_with_its_severity_and_code_and_read_back() {
        let mut d = file_diagnostic(Code::UnusedVariable, "acme", "acme/brand.json", "unused");
        d.target = Some("not published".into());
        let json = serde_json::to_value(&d).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "severity": "warning", "code": "MQ2106", "brand": "acme",
                "file": "acme/brand.json", "pointer": "", "line": 1, "column": 1,
                "message": "unused"
            })
        );
        let back: Diagnostic = serde_json::from_value(json).unwrap();
        assert_eq!((back.code, back.target), (Code::UnusedVariable, None));
    }

    #[test]
    fn kinds_group_by_code_and_wording_errors_first() {
        let d = |code, message: &str| file_diagnostic(code, "a", "a/tokens.json", message);
        let diags = [
            d(Code::BareZero, "a bare 0 at `x`"),
            d(Code::BareZero, "a bare 0 at `y`"),
            d(Code::LegacyStringForm, "a bare 0 at `z`"),
            d(Code::InvalidColor, "\"red\" is not a colour"),
        ];
        let kinds = kinds(&diags);
        let got: Vec<(Code, &str, usize)> = kinds
            .iter()
            .map(|k| (k.code, k.message.as_str(), k.count))
            .collect();
        assert_eq!(
            got,
            [
                (Code::InvalidColor, "\"…\" is not a colour", 1),
                (Code::BareZero, "a bare 0 at `…`", 2),
                (Code::LegacyStringForm, "a bare 0 at `…`", 1),
            ]
        );
        assert_eq!(kinds[0].severity, Severity::Error);
    }

    #[test]
    fn clipped_values_are_cut_at_a_character_boundary() {
        assert_eq!(clipped("spec.md"), "spec.md");
        let long = "é".repeat(10_000);
        let c = clipped(&long);
        assert_eq!(c.chars().count(), CLIPPED + 1);
        assert!(c.ends_with('…'));
        assert_eq!(quoted(&long), format!("\"{c}\""));
    }
}
