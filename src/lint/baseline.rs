//! PURE. A baseline: the findings a codebase had when CI started to lint
//! it, counted per file, code and subject (`#0969da`, `--fg-accent`), so
//! that lines may move without a finding becoming new. A finding beyond
//! the baseline's count is new and fails; `--update-baseline` keeps, of
//! each entry, at most what is still found, so the file only shrinks.

use crate::spec::diag::Code;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The file `--baseline` names.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    pub version: u32,
    pub findings: Vec<Entry>,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Entry {
    pub file: String,
    pub code: Code,
    pub subject: String,
    pub count: usize,
}

type Key = (String, Code, String);

fn counts<'a>(found: impl Iterator<Item = (&'a str, Code, &'a str)>) -> BTreeMap<Key, usize> {
    let mut out = BTreeMap::new();
    for (file, code, subject) in found {
        *out.entry((file.to_string(), code, subject.to_string()))
            .or_default() += 1;
    }
    out
}

impl Baseline {
    /// A baseline of everything found now (when there is none yet).
    pub fn of<'a>(found: impl Iterator<Item = (&'a str, Code, &'a str)>) -> Baseline {
        Baseline {
            version: 1,
            findings: counts(found)
                .into_iter()
                .map(|((file, code, subject), count)| Entry {
                    file,
                    code,
                    subject,
                    count,
                })
                .collect(),
        }
    }

    /// For each finding, in order, whether the baseline accepts it: the
    /// first `count` of each key are accepted, the rest are new.
    pub fn accepts<'a>(&self, found: impl Iterator<Item = (&'a str, Code, &'a str)>) -> Vec<bool> {
        let mut left: BTreeMap<Key, usize> = self
            .findings
            .iter()
            .map(|e| ((e.file.clone(), e.code, e.subject.clone()), e.count))
            .collect();
        found
            .map(|(file, code, subject)| {
                let key = (file.to_string(), code, subject.to_string());
                match left.get_mut(&key) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        true
                    }
                    _ => false,
                }
            })
            .collect()
    }

    /// The baseline shrunk to what is still found: never an entry added,
    /// never a count raised.
    pub fn shrunk<'a>(&self, found: impl Iterator<Item = (&'a str, Code, &'a str)>) -> Baseline {
        let now = counts(found);
        Baseline {
            version: 1,
            findings: self
                .findings
                .iter()
                .filter_map(|e| {
                    let key = (e.file.clone(), e.code, e.subject.clone());
                    let count = e.count.min(now.get(&key).copied().unwrap_or(0));
                    (count > 0).then(|| Entry { count, ..e.clone() })
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_baseline_accepts_what_it_counts_and_only_shrinks() {
        let a = ("a.css", Code::LiteralIsToken, "#fff");
        let b = ("b.css", Code::UnknownTokenName, "--x");
        let base = Baseline::of([a, a, b].into_iter());
        assert_eq!(
            base.accepts([a, a, a, b].into_iter()),
            [true, true, false, true]
        );
        let shrunk = base.shrunk([a, ("c.css", Code::LiteralIsToken, "#000")].into_iter());
        assert_eq!(shrunk.findings.len(), 1);
        assert_eq!(shrunk.findings[0].count, 1);
        // A second shrink with more findings raises nothing.
        assert_eq!(shrunk.shrunk([a, a, b].into_iter()), shrunk);
    }
}
