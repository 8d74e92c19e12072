//! A semantic diff between two versions of a brand, as Markdown (Keep a
//! Changelog's Added / Changed / Removed headings) and as JSON. Summaries
//! are Markdown-safe when they are made (`spec::diff`), so they are written
//! as they are.

use crate::spec::diff::{Change, Diff, Level, Section};
use serde::Serialize;
use std::fmt::Write;

/// One side of a comparison: a release's version, or the working head.
#[derive(Debug, Clone, Serialize)]
pub struct Side {
    /// What was asked for: a version, or `current`.
    #[serde(rename = "ref")]
    pub reference: String,
    /// The version brand.json declares there.
    pub version: String,
}

/// The changes under their Keep a Changelog headings, each line marked
/// with its level: `### Removed` then `- removes token … (major)`.
pub fn sections_md(diff: &Diff, heading: &str) -> String {
    let mut o = String::new();
    for s in Section::ALL {
        let lines: Vec<&Change> = diff.section(s).collect();
        if lines.is_empty() {
            continue;
        }
        let _ = writeln!(o, "{heading} {}\n", s.heading());
        for c in lines {
            let _ = writeln!(o, "- {} ({})", capitalised(&c.summary), c.level);
        }
        o.push('\n');
    }
    o
}

/// `s` with its first letter upper-cased.
pub fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A change's summary as HTML: escaped, capitalised, its `code` spans as
/// `<code>` (summaries quote every name, and names hold no backtick).
pub fn summary_html(summary: &str) -> String {
    let escaped = crate::render::escape::html(&capitalised(summary));
    if escaped.matches('`').count() % 2 == 1 {
        return escaped;
    }
    let mut o = String::with_capacity(escaped.len() + 16);
    for (i, part) in escaped.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(o, "<code>{part}</code>");
        } else {
            o.push_str(part);
        }
    }
    o
}

/// What the diff asks of the version number, in words.
pub fn verdict(diff: &Diff) -> String {
    let count = |l: Level| diff.changes.iter().filter(|c| c.level == l).count();
    match diff.level() {
        None => "No semantic change.".to_string(),
        Some(level) => format!(
            "A {level} change: {} major, {} minor, {} patch.",
            count(Level::Major),
            count(Level::Minor),
            count(Level::Patch)
        ),
    }
}

/// The comparison as Markdown.
pub fn render_md(name: &str, from: &Side, to: &Side, diff: &Diff) -> String {
    let label = |s: &Side| {
        if s.reference == s.version {
            s.version.clone()
        } else {
            format!("{} ({})", s.reference, s.version)
        }
    };
    let mut o = String::new();
    let _ = writeln!(
        o,
        "# {}: {} → {}\n",
        crate::render::escape::md(name),
        label(from),
        label(to)
    );
    let _ = writeln!(o, "{}\n", verdict(diff));
    o.push_str(&sections_md(diff, "##"));
    o.trim_end().to_string() + "\n"
}

#[derive(Serialize)]
struct Json<'a> {
    brand: &'a str,
    from: &'a Side,
    to: &'a Side,
    /// The largest level of any change; null when nothing changed.
    level: Option<Level>,
    changes: &'a [Change],
}

/// The comparison as JSON.
pub fn render_json(slug: &str, from: &Side, to: &Side, diff: &Diff) -> String {
    let doc = Json {
        brand: slug,
        from,
        to,
        level: diff.level(),
        changes: &diff.changes,
    };
    serde_json::to_string_pretty(&doc).expect("serialisable") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_become_html_with_code_spans() {
        assert_eq!(
            summary_html("removes token `a<b` (`--a`)"),
            "Removes token <code>a&lt;b</code> (<code>--a</code>)"
        );
        assert_eq!(summary_html("odd ` tick"), "Odd ` tick");
    }

    #[test]
    fn changes_are_listed_under_their_headings_with_their_level() {
        let diff = Diff {
            changes: vec![
                Change::of_token(Level::Major, Section::Removed, "removes", "a"),
                Change::of_token(Level::Minor, Section::Added, "adds", "b"),
            ],
        };
        let side = |r: &str, v: &str| Side {
            reference: r.into(),
            version: v.into(),
        };
        let md = render_md(
            "Acme",
            &side("1.0.0", "1.0.0"),
            &side("current", "2.0.0"),
            &diff,
        );
        assert_eq!(
            md,
            "# Acme: 1.0.0 → current (2.0.0)\n\nA major change: 1 major, 1 minor, 0 patch.\n\n## Added\n\n- Adds token `b` (minor)\n\n## Removed\n\n- Removes token `a` (major)\n"
        );
        let json: serde_json::Value = serde_json::from_str(&render_json(
            "acme",
            &side("1.0.0", "1.0.0"),
            &side("current", "2.0.0"),
            &diff,
        ))
        .unwrap();
        assert_eq!(json["level"], "major");
        assert_eq!(json["to"]["ref"], "current");
        assert_eq!(json["changes"][0]["kind"], "token");
    }
}
