//! Diagnostics: every problem found in a content repository, with the file,
//! JSON Pointer, line and column it points at.
//!
//! Validation never stops at the first problem; it pushes into a [`Diags`]
//! collector and the caller decides what an error means (the brand is not
//! published) once everything has been looked at.

use super::json::PosIndex;
use serde::Serialize;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem, as `marque check` prints it and `/status` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The brand's slug (the top-level folder name).
    pub brand: String,
    /// Path of the file relative to the content root, with `/` separators.
    pub file: String,
    /// RFC 6901 JSON Pointer into the file ("" for the whole file or non-JSON files).
    pub pointer: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    /// Compiler style: `error: message\n  --> acme/brand.json:3:14`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{label}: {}\n  --> {}:{}:{}",
            self.message, self.file, self.line, self.column
        )?;
        if !self.pointer.is_empty() {
            write!(f, " (at {})", self.pointer)?;
        }
        Ok(())
    }
}

/// Collects diagnostics for one file of one brand, placing each one with the
/// file's position index.
pub struct FileDiags<'a> {
    pub brand: &'a str,
    pub file: String,
    pub index: &'a PosIndex,
    pub out: &'a mut Vec<Diagnostic>,
}

impl FileDiags<'_> {
    /// An error at the value that `pointer` names.
    pub fn error(&mut self, pointer: &str, message: impl Into<String>) {
        let pos = self.index.value(pointer);
        self.push(Severity::Error, pointer, pos, message.into());
    }

    /// An error at the key of the member that `pointer` names.
    pub fn error_at_key(&mut self, pointer: &str, message: impl Into<String>) {
        let pos = self.index.key(pointer);
        self.push(Severity::Error, pointer, pos, message.into());
    }

    pub fn warning(&mut self, pointer: &str, message: impl Into<String>) {
        let pos = self.index.value(pointer);
        self.push(Severity::Warning, pointer, pos, message.into());
    }

    fn push(&mut self, severity: Severity, pointer: &str, pos: super::json::Pos, message: String) {
        self.out.push(Diagnostic {
            severity,
            brand: self.brand.to_string(),
            file: self.file.clone(),
            pointer: pointer.to_string(),
            line: pos.line,
            column: pos.column,
            message,
        });
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diags: &[Diagnostic]) -> bool {
    diags.iter().any(|d| d.severity == Severity::Error)
}

/// A diagnostic that is not inside a JSON document (a bad folder name, a missing file).
pub fn file_error(brand: &str, file: &str, message: impl Into<String>) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        brand: brand.to_string(),
        file: file.to_string(),
        pointer: String::new(),
        line: 1,
        column: 1,
        message: message.into(),
    }
}

/// Suggests the closest candidate to a misspelt key, for "did you mean" hints.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
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
    use super::*;

    #[test]
    fn suggests_near_misses_only() {
        let keys = ["typography", "color", "voice"];
        assert_eq!(closest("colour", keys), Some("color"));
        assert_eq!(closest("typografy", keys), Some("typography"));
        assert_eq!(closest("banana", keys), None);
    }

    #[test]
    fn displays_like_a_compiler() {
        let d = file_error("acme", "acme/brand.json", "boom");
        assert_eq!(d.to_string(), "error: boom\n  --> acme/brand.json:1:1");
    }
}
