//! A semantic diff between two versions of a brand, in words: each
//! change's one-line summary (Markdown-safe), the Keep a Changelog
//! sections (Added / Changed / Removed), the comparison as Markdown and as
//! JSON, and the verdict on a version step that is too small. The changes
//! themselves are data from `spec::diff`.

use super::escape;
use crate::spec::diff::{Change, Diff, Kind, Level, Section, TooSmall, VariableChange, What};
use semver::Version;
use serde::Serialize;
use std::fmt::Write;

/// A change as `changelog.json` and the compare endpoint publish it.
#[derive(Serialize)]
pub struct ChangeJson {
    pub level: Level,
    pub section: Section,
    /// `token`, `css-property`, `palette`, `type-family`, `type-style`,
    /// `logo`, `asset`, `contrast-pair`, `prompt`, `prompt-variable`, `text`, `modifier` or `context`.
    pub kind: Kind,
    pub name: String,
    pub summary: String,
}

impl ChangeJson {
    pub fn of(c: &Change) -> ChangeJson {
        ChangeJson {
            level: c.level,
            section: c.section,
            kind: c.kind,
            name: tick(&c.name),
            summary: summary(c),
        }
    }

    pub fn list(changes: &[Change]) -> Vec<ChangeJson> {
        changes.iter().map(ChangeJson::of).collect()
    }
}

/// Text from content made safe inside a Markdown code span: one line, and
/// a backtick (which would end the span) shown as `ˋ`.
fn tick(s: &str) -> String {
    escape::collapse_ws(s).replace('`', "ˋ")
}

/// The noun of an entry that is only added, removed or changed.
fn noun(kind: Kind) -> &'static str {
    match kind {
        Kind::Token => "token",
        Kind::CssProperty => "CSS custom property",
        Kind::Palette => "palette colour",
        Kind::TypeFamily => "typeface role",
        Kind::TypeStyle => "type style",
        Kind::Logo => "logo",
        Kind::Asset => "asset",
        Kind::ContrastPair => "contrast pair",
        Kind::Prompt => "prompt",
        Kind::PromptVariable => "variable",
        Kind::Text => "text",
        Kind::Modifier => "modifier",
        Kind::Context => "context",
    }
}

/// One line for people, Markdown-safe: ``removes token `color.brand.primary` (`--color-brand-primary`)``.
pub fn summary(c: &Change) -> String {
    let name = tick(&c.name);
    let noun = noun(c.kind);
    match &c.what {
        What::Added => format!("adds {noun} `{name}`"),
        What::Removed => format!("removes {noun} `{name}`"),
        What::Changed => format!("changes {noun} `{name}`"),
        What::TokenAdded { value } => format!("adds token `{name}` (`{}`)", tick(value)),
        What::TokenRemoved {
            property,
            announced: true,
        } => format!("removes token `{name}` (`{property}`)"),
        What::TokenRemoved {
            property,
            announced: false,
        } => format!(
            "removes token `{name}` (`{property}`), which was not deprecated: deprecate it first (naming its replacement) in a release, then remove it"
        ),
        What::TokenRenamed {
            to,
            from_property,
            to_property,
        } => format!(
            "renames token `{name}` to `{}` (`{from_property}` becomes `{to_property}`)",
            tick(to)
        ),
        What::TokenRetyped { from, to } => format!(
            "changes the type of token `{name}` from {} to {}",
            from.as_str(),
            to.as_str()
        ),
        // A change in one context is named `<token> in <modifier>=<context>`
        // (spec/diff/modes.rs): the context is no part of the token's name.
        What::TokenValue { before, after } => match c.name.rsplit_once(" in ") {
            Some((token, context)) if context.contains('=') => format!(
                "changes token `{}` in `{}` from `{}` to `{}`",
                tick(token),
                tick(context),
                tick(before),
                tick(after)
            ),
            _ => format!(
                "changes token `{name}` from `{}` to `{}`",
                tick(before),
                tick(after)
            ),
        },
        What::TokenDeprecated => format!("deprecates token `{name}`"),
        What::TokenDescribed => format!("changes the description of token `{name}`"),
        What::PropertyRemoved => format!("removes CSS custom property `{name}` from tokens.css"),
        What::PairAdded { level } => format!("adds contrast pair `{name}` ({level})"),
        What::PairRemoved { level } => format!("removes contrast pair `{name}` ({level})"),
        What::PairFails { level, ratio } => {
            format!("contrast pair `{name}` stops passing {level} ({ratio:.2}:1)")
        }
        What::PairLowered { from, to } => {
            format!("lowers contrast pair `{name}` from {from} to {to}")
        }
        What::PairRaised { from, to } => {
            format!("raises contrast pair `{name}` from {from} to {to}")
        }
        What::PairContrast { before, after } => {
            format!("changes the contrast of `{name}` from {before:.2}:1 to {after:.2}:1")
        }
        What::PromptParts(parts) => {
            format!("changes the {} of prompt `{name}`", parts.join(", "))
        }
        What::Variable {
            prompt,
            variable,
            change,
        } => {
            let (v, p) = (tick(variable), tick(prompt));
            match change {
                VariableChange::Added { required } => {
                    let which = if *required { "required" } else { "optional" };
                    format!("adds {which} variable `{v}` to prompt `{p}`")
                }
                VariableChange::Removed => format!("removes variable `{v}` from prompt `{p}`"),
                VariableChange::Required => {
                    format!("makes variable `{v}` of prompt `{p}` required")
                }
                VariableChange::Optional => {
                    format!("makes variable `{v}` of prompt `{p}` optional")
                }
                VariableChange::Shorter { before, after } => format!(
                    "lowers the maxLength of variable `{v}` of prompt `{p}` from {before} to {after}"
                ),
                VariableChange::Changed => format!("changes variable `{v}` of prompt `{p}`"),
            }
        }
        What::BrandRenamed { from, to } => format!(
            "renames the brand from \"{}\" to \"{}\"",
            escape::md(from),
            escape::md(to)
        ),
        What::TextChanged => format!("changes the {}", c.name),
    }
}

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
            let _ = writeln!(o, "- {} ({})", capitalised(&summary(c)), c.level);
        }
        o.push('\n');
    }
    o
}

/// The same sections as HTML, for the API page: a heading per section and
/// each change with its level.
pub fn sections_html(diff: &Diff) -> String {
    let mut o = String::new();
    for s in Section::ALL {
        let lines: Vec<&Change> = diff.section(s).collect();
        if lines.is_empty() {
            continue;
        }
        let _ = write!(
            o,
            "<h4>{}</h4><ul>",
            crate::render::escape::html(s.heading())
        );
        for c in lines {
            let _ = write!(
                o,
                "<li>{} <small>({})</small></li>",
                summary_html(&summary(c)),
                c.level
            );
        }
        o.push_str("</ul>");
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
    code_spans(&capitalised(summary))
}

/// Text with Markdown code spans (a diagnostic's message, a summary) as
/// HTML: escaped, each `` `…` `` a `<code>`; with an odd number of
/// backticks, only escaped.
pub fn code_spans(text: &str) -> String {
    let escaped = crate::render::escape::html(text);
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
    changes: Vec<ChangeJson>,
}

/// The comparison as JSON.
pub fn render_json(slug: &str, from: &Side, to: &Side, diff: &Diff) -> String {
    let doc = Json {
        brand: slug,
        from,
        to,
        level: diff.level(),
        changes: ChangeJson::list(&diff.changes),
    };
    serde_json::to_string_pretty(&doc).expect("serialisable") + "\n"
}

/// The one-line verdict of a step that is too small:
/// `` 2.4.0 → 2.4.1 removes token `color.brand.primary` (…): needs 3.0.0 ``,
/// naming the changes that force it (at most five, then how many more).
pub fn explain(from: &Version, to: &Version, diff: &Diff, too_small: &TooSmall) -> String {
    let forcing = || diff.changes.iter().filter(|c| c.level == too_small.needed);
    // Only the five named are worded: a rename of thousands of tokens is
    // one count, not thousands of sentences.
    let mut listed = forcing()
        .take(5)
        .map(summary)
        .collect::<Vec<_>>()
        .join("; ");
    let more = forcing().count().saturating_sub(5);
    if more > 0 {
        listed.push_str(&format!("; and {more} more"));
    }
    let unchanged = if from == to {
        " (the same version)"
    } else {
        ""
    };
    format!(
        "{from} → {to}{unchanged} {listed}: a {} change, needs {} or later",
        too_small.needed, too_small.minimum
    )
}

#[cfg(test)]
mod tests;
