//! Diagnostics grouped by kind and counted, so that thousands read as a
//! few lines (`/status`, `marque import`).

use super::{named, shape, Code, Diagnostic, Severity};
use serde::Serialize;

/// Diagnostics of one kind: one code, and the same message but for what
/// it quotes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Kind {
    pub severity: Severity,
    pub code: Code,
    /// The message with what it quotes (`…` or "…") elided.
    pub message: String,
    pub count: usize,
    /// What the first few quoted (their first backtick span), so that a
    /// summary names the tokens it counts.
    #[serde(skip)]
    pub examples: Vec<String>,
}

impl Kind {
    /// What it counts, by name: "`a`, `b`, `c` and 8 more" (`None` when
    /// its messages quote nothing).
    pub fn named(&self) -> Option<String> {
        if self.examples.is_empty() {
            return None;
        }
        let shown: Vec<String> = self.examples.iter().map(|e| format!("`{e}`")).collect();
        Some(match self.count.saturating_sub(self.examples.len()) {
            0 => shown.join(", "),
            n => format!("{} and {n} more", shown.join(", ")),
        })
    }
}

/// `diags` grouped by kind (code and wording), and counted: errors first,
/// then the most frequent first. A 3,000-warning export reads as a few
/// lines.
pub fn kinds<'d>(diags: impl IntoIterator<Item = &'d Diagnostic>) -> Vec<Kind> {
    let mut groups: std::collections::BTreeMap<(Code, String), (usize, Vec<String>)> =
        Default::default();
    for d in diags {
        let (count, examples) = groups.entry((d.code, shape(&d.message))).or_default();
        *count += 1;
        if let Some(q) = named(d).filter(|q| examples.len() < 3 && !examples.contains(q)) {
            examples.push(q);
        }
    }
    let mut kinds: Vec<Kind> = groups
        .into_iter()
        .map(|((code, message), (count, examples))| Kind {
            severity: code.severity(),
            code,
            message,
            count,
            examples,
        })
        .collect();
    kinds.sort_by(|a, b| {
        (a.severity != Severity::Error)
            .cmp(&(b.severity != Severity::Error))
            .then(b.count.cmp(&a.count))
            .then_with(|| a.code.cmp(&b.code))
            .then_with(|| a.message.cmp(&b.message))
    });
    kinds
}
