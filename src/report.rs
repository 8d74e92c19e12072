//! What marque tells a person: diagnostics as rustc-style frames (file,
//! line and column, the source line, a caret), and after each rebuild what
//! changed, which brands were rebuilt, kept stale, recovered, added or
//! removed, and how long it took. Colour only on a terminal, never with
//! `NO_COLOR`. This is the one place that writes to the terminal directly;
//! with `--log-format json` the same report goes out as tracing events,
//! written by [`json_log`].

pub mod json_log;

use crate::spec::diag::Code;
use crate::spec::{Diagnostic, Severity};
use std::fmt::Write as _;
use std::io::IsTerminal;

/// Whether to colour output written to a stream that is (or is not) a terminal.
pub fn use_colour(is_terminal: bool) -> bool {
    is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// True when standard error should be coloured.
pub fn stderr_colour() -> bool {
    use_colour(std::io::stderr().is_terminal())
}

/// ANSI styles, or nothing.
#[derive(Clone, Copy)]
struct Paint(bool);

impl Paint {
    fn wrap(self, code: &str, s: &str) -> String {
        if self.0 {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
    /// `error[MQ1201]`, in the severity's colour.
    fn severity(self, s: Severity, code: Code) -> String {
        let colour = match s {
            Severity::Error => "1;31",
            Severity::Warning => "1;33",
        };
        self.wrap(colour, &format!("{}[{code}]", s.as_str()))
    }
    fn blue(self, s: &str) -> String {
        self.wrap("1;34", s)
    }
    fn bold(self, s: &str) -> String {
        self.wrap("1", s)
    }
    fn green(self, s: &str) -> String {
        self.wrap("1;32", s)
    }
    fn red(self, s: &str) -> String {
        self.wrap("1;31", s)
    }
    fn yellow(self, s: &str) -> String {
        self.wrap("1;33", s)
    }
}

/// Widest part of a source line shown in a frame, in characters.
const WINDOW: usize = 100;

/// A diagnostic as rustc shows one, its code in brackets:
///
/// ```text
/// error[MQ1201]: version "3.2" is not a semantic version
///   --> northwind/brand.json:4:14
///    |
///  4 |   "version": "3.2",
///    |              ^^^^^
/// ```
///
/// `source` is the text of the diagnostic's file, when there is one.
pub fn frame(d: &Diagnostic, source: Option<&str>, colour: bool) -> String {
    frame_span(d, source, colour, None)
}

/// [`frame`], with the underline `span` characters long where the caller
/// knows what it points at (a lint finding's literal or name); `None`
/// guesses it from the text at the column (a JSON string, a word).
pub fn frame_span(
    d: &Diagnostic,
    source: Option<&str>,
    colour: bool,
    span: Option<usize>,
) -> String {
    let p = Paint(colour);
    let mut o = String::new();
    let severity = p.severity(d.severity(), d.code);
    let _ = writeln!(o, "{severity}: {}", p.bold(&d.message));
    let width = d.line.to_string().len();
    let pad = " ".repeat(width);
    let _ = writeln!(
        o,
        "{pad}{} {}:{}:{}",
        p.blue("-->"),
        d.file,
        d.line,
        d.column
    );
    if let Some(i) = &d.inherited {
        let through = match i.through.is_empty() {
            true => String::new(),
            false => format!(", through {}", i.through.join(" → ")),
        };
        let _ = writeln!(
            o,
            "{pad}{} {} extends {}@{}{through}",
            p.blue("="),
            d.brand,
            i.brand,
            i.version
        );
    }
    let line = source.and_then(|s| s.lines().nth(d.line.saturating_sub(1) as usize));
    if let Some(line) = line.filter(|_| !d.pointer.is_empty() || d.line > 1 || d.column > 1) {
        let chars: Vec<char> = line.chars().collect();
        let col = (d.column.max(1) as usize - 1).min(chars.len());
        // Show a window of long lines (minified JSON) around the column.
        let start = col.saturating_sub(WINDOW / 2);
        let end = (start + WINDOW).min(chars.len());
        let mut shown: String = chars[start..end].iter().collect();
        let mut caret_at = col - start;
        if start > 0 {
            shown.insert(0, '…');
            caret_at += 1;
        }
        if end < chars.len() {
            shown.push('…');
        }
        let len = match span {
            Some(n) => n.min(end - col),
            None => span_len(&chars[col..end]),
        };
        let _ = writeln!(o, "{pad} {}", p.blue("|"));
        let _ = writeln!(
            o,
            "{} {} {}",
            p.blue(&d.line.to_string()),
            p.blue("|"),
            shown.trim_end()
        );
        let carets = "^".repeat(len.max(1));
        let marks = match d.severity() {
            Severity::Error => p.red(&carets),
            Severity::Warning => p.yellow(&carets),
        };
        let _ = writeln!(o, "{pad} {} {}{marks}", p.blue("|"), " ".repeat(caret_at));
    }
    o
}

/// How many characters of the value that starts at `rest` to underline: a
/// whole string literal, a word or number, or one character.
fn span_len(rest: &[char]) -> usize {
    match rest.first() {
        Some('"') => {
            let mut escaped = false;
            for (i, c) in rest.iter().enumerate().skip(1) {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => return i + 1,
                    _ => escaped = false,
                }
            }
            rest.len()
        }
        Some(c) if c.is_alphanumeric() || *c == '-' => rest
            .iter()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '+' | '_'))
            .count(),
        Some(_) => 1,
        None => 1,
    }
}

/// What happened to one brand in a rebuild.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// New and valid: published.
    Added,
    /// New with errors: not published.
    AddedBroken,
    /// Changed and valid: the new version is served.
    Rebuilt,
    /// Changed and valid again after errors.
    Recovered,
    /// Changed with errors: the last good version keeps serving.
    Stale,
    /// Changed with errors and never valid: still not published.
    Unpublished,
    /// Its folder is gone: no longer served.
    Removed,
    /// Still being checked and rendered: published when done, the version
    /// before (if any) serving meanwhile.
    Building,
}

/// Brands named one by one in a rebuild's line; the rest are counted.
const SHOWN_BRANDS: usize = 8;
/// Errors shown as frames per rebuild; the rest are counted.
const SHOWN_FRAMES: usize = 20;
/// New warnings shown as frames per rebuild; the rest are counted.
const SHOWN_WARNINGS: usize = 10;
/// Kinds of the diagnostics past those shown, listed with their counts.
const SHOWN_KINDS: usize = 8;

/// `a, b, c` or, past `shown` names, `a, b and 9998 more`.
pub fn some_of(names: &[String], shown: usize) -> String {
    if names.len() <= shown {
        return names.join(", ");
    }
    format!(
        "{} and {} more",
        names[..shown].join(", "),
        names.len() - shown
    )
}

impl Fate {
    fn word(self) -> &'static str {
        match self {
            Fate::Added => "added",
            Fate::AddedBroken => "not published",
            Fate::Rebuilt => "rebuilt",
            Fate::Recovered => "recovered",
            Fate::Stale => "kept stale",
            Fate::Unpublished => "not published",
            Fate::Removed => "removed",
            Fate::Building => "building",
        }
    }
}

/// One rebuild, as the reload loop saw it.
#[derive(Debug, Clone, Default)]
pub struct Rebuild {
    /// What triggered it: changed files, a commit, a tag, or the start.
    pub cause: String,
    /// Each brand that changed, with what happened to it and, when it
    /// still serves, the version it serves.
    pub brands: Vec<(String, Fate, Option<String>)>,
    /// Errors of the brands that changed (with their source text), and their warning count.
    pub errors: Vec<(Diagnostic, Option<String>)>,
    pub warnings: usize,
    /// Warnings the change brought (not there before it), with their source text.
    pub new_warnings: Vec<(Diagnostic, Option<String>)>,
    pub millis: f64,
    pub generation: u64,
}

/// Writes rebuild reports: to standard error for people, or as tracing events.
#[derive(Debug, Clone, Copy)]
pub struct Reporter {
    pub json: bool,
    pub colour: bool,
}

impl Reporter {
    /// The report as a person reads it.
    pub fn human(&self, r: &Rebuild) -> String {
        let p = Paint(self.colour);
        let mut o = String::new();
        if !r.cause.is_empty() {
            let _ = writeln!(o, "{} {}", p.blue("change"), r.cause);
        }
        // Frames up to `shown`, then how many more (`kind`: "error(s)").
        let frames = |o: &mut String, list: &[(Diagnostic, Option<String>)], shown, tag, kind| {
            for (d, source) in list.iter().take(shown) {
                o.push_str(&frame(d, source.as_deref(), self.colour));
                o.push('\n');
            }
            if list.len() > shown {
                let n = list.len() - shown;
                let _ = writeln!(
                    o,
                    "{tag} and {n} more {kind}: `marque check` or /status lists them all; by kind:"
                );
                let rest = crate::spec::diag::kinds(list[shown..].iter().map(|(d, _)| d));
                for k in rest.iter().take(SHOWN_KINDS) {
                    let _ = writeln!(o, "  {:>5} × [{}] {}", k.count, k.code, k.message);
                    if let Some(named) = k.named() {
                        let _ = writeln!(o, "          {named}");
                    }
                }
                if rest.len() > SHOWN_KINDS {
                    let _ = writeln!(o, "  and {} more kinds", rest.len() - SHOWN_KINDS);
                }
                o.push('\n');
            }
        };
        frames(&mut o, &r.errors, SHOWN_FRAMES, p.red("error:"), "error(s)");
        let (tag, kind) = (p.yellow("warning:"), "new warning(s)");
        frames(&mut o, &r.new_warnings, SHOWN_WARNINGS, tag, kind);
        let mut parts: Vec<String> = Vec::new();
        for (slug, fate, version) in r.brands.iter().take(SHOWN_BRANDS) {
            let word = match fate {
                Fate::Added | Fate::Rebuilt | Fate::Recovered => p.green(fate.word()),
                Fate::Stale | Fate::Unpublished | Fate::AddedBroken => p.red(fate.word()),
                Fate::Removed | Fate::Building => p.yellow(fate.word()),
            };
            let serving = match (fate, version) {
                (Fate::Stale | Fate::Building, Some(v)) => format!(" (still serving {v})"),
                (Fate::Building, None) => " (published when done)".to_string(),
                (Fate::Added | Fate::Rebuilt | Fate::Recovered, Some(v)) => format!(" {v}"),
                _ => String::new(),
            };
            parts.push(format!("{} {word}{serving}", p.bold(slug)));
        }
        if r.brands.len() > SHOWN_BRANDS {
            let mut by_fate: Vec<(&str, usize)> = Vec::new();
            for (_, fate, _) in &r.brands[SHOWN_BRANDS..] {
                match by_fate.iter_mut().find(|(w, _)| *w == fate.word()) {
                    Some((_, n)) => *n += 1,
                    None => by_fate.push((fate.word(), 1)),
                }
            }
            let counts: Vec<String> = by_fate.iter().map(|(w, n)| format!("{n} {w}")).collect();
            parts.push(format!(
                "and {} more ({})",
                r.brands.len() - SHOWN_BRANDS,
                counts.join(", ")
            ));
        }
        let summary = if parts.is_empty() {
            "nothing changed".to_string()
        } else {
            parts.join(", ")
        };
        let mut counts = String::new();
        if !r.errors.is_empty() || r.warnings > 0 {
            counts = format!("; {} error(s), {} warning(s)", r.errors.len(), r.warnings);
            if !r.new_warnings.is_empty() {
                counts.push_str(&format!(" ({} new)", r.new_warnings.len()));
            }
        }
        let _ = writeln!(
            o,
            "{} {summary}{counts} in {:.0} ms (generation {})",
            p.blue("build "),
            r.millis,
            r.generation
        );
        o
    }

    pub fn rebuild(&self, r: &Rebuild) {
        if self.json {
            for (d, _) in r.errors.iter().chain(&r.new_warnings) {
                tracing::warn!(
                    code = %d.code, severity = d.severity().as_str(), brand = %d.brand,
                    file = %d.file, line = d.line, column = d.column, pointer = %d.pointer,
                    "{}", d.message
                );
            }
            let brands: Vec<String> = r
                .brands
                .iter()
                .map(|(s, f, _)| format!("{s}: {}", f.word()))
                .collect();
            // Numbers and the list in their JSON types (see `json_log`).
            let brands = json_log::field(&brands);
            tracing::info!(
                cause = %r.cause,
                brands = &brands as &(dyn std::error::Error + 'static),
                errors = r.errors.len(),
                warnings = r.warnings,
                ms = (r.millis * 10.0).round() / 10.0,
                generation = r.generation,
                "rebuilt"
            );
            return;
        }
        // eprint!, not a raw handle: a test's harness captures it.
        #[allow(clippy::print_stderr)]
        {
            eprint!("{}", self.human(r));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(line: u32, column: u32, message: &str) -> Diagnostic {
        Diagnostic {
            code: Code::InvalidVersion,
            brand: "northwind".into(),
            file: "northwind/brand.json".into(),
            pointer: "/version".into(),
            line,
            column,
            message: message.into(),
            target: None,
            inherited: None,
        }
    }

    #[test]
    fn a_rebuild_of_thousands_of_brands_fits_on_a_line() {
        let r = Rebuild {
            brands: (0..10_000)
                .map(|i| {
                    let fate = if i % 2 == 0 {
                        Fate::Added
                    } else {
                        Fate::AddedBroken
                    };
                    (format!("brand-{i:05}"), fate, Some("1.0.0".to_string()))
                })
                .collect(),
            errors: (0..30).map(|i| (diag(i + 1, 1, "bad"), None)).collect(),
            millis: 12.0,
            generation: 1,
            ..Rebuild::default()
        };
        let out = Reporter {
            json: false,
            colour: false,
        }
        .human(&r);
        let last = out.lines().last().unwrap();
        assert!(
            last.starts_with("build  brand-00000 added 1.0.0, brand-00001 not published, "),
            "{last}"
        );
        assert!(
            last.contains(", and 9992 more (4996 added, 4996 not published); 30 error(s)"),
            "{last}"
        );
        assert!(last.len() < 400, "{last}");
        assert_eq!(out.matches(" --> ").count(), 20, "{out}");
        assert!(out.contains("error: and 10 more error(s)"), "{out}");
        assert_eq!(
            some_of(&["a".into(), "b".into(), "c".into()], 2),
            "a, b and 1 more"
        );
    }

    #[test]
    fn new_warnings_are_frames_up_to_a_cap_and_counted_on_the_line() {
        let warning = |i: u32| {
            let mut d = diag(i, 1, "new");
            d.code = Code::TagSkipped;
            (d, None)
        };
        let r = Rebuild {
            brands: vec![("northwind".into(), Fate::Rebuilt, Some("2.4.0".into()))],
            warnings: 14,
            new_warnings: (1..=12).map(warning).collect(),
            ..Rebuild::default()
        };
        let out = Reporter {
            json: false,
            colour: false,
        }
        .human(&r);
        assert_eq!(out.matches("warning[MQ1204]: new\n").count(), 10, "{out}");
        assert!(out.contains("warning: and 2 more new warning(s)"), "{out}");
        assert!(out.contains("14 warning(s) (12 new)"), "{out}");
    }

    #[test]
    fn a_frame_shows_the_line_and_underlines_the_value() {
        let src = "{\n  \"name\": \"N\",\n  \"version\": \"3.2\",\n}";
        let got = frame(&diag(3, 14, "bad version"), Some(src), false);
        assert_eq!(
            got,
            "error[MQ1201]: bad version\n --> northwind/brand.json:3:14\n  |\n3 |   \"version\": \"3.2\",\n  |              ^^^^^\n"
        );
    }

    #[test]
    fn frames_are_plain_text_without_colour_and_cut_long_lines() {
        let line = format!("{{\"a\": [{}], \"version\": 3}}", "0,".repeat(5000));
        let col = line.find("3}").unwrap() as u32 + 1;
        let got = frame(&diag(1, col, "long"), Some(&line), false);
        assert!(!got.contains('\x1b'));
        assert!(got.lines().all(|l| l.chars().count() < 140), "{got}");
        assert!(got.contains("^\n"), "{got}");
        let coloured = frame(&diag(1, col, "long"), Some(&line), true);
        assert!(coloured.contains("\x1b[1;31m"));
    }

    #[test]
    fn colour_needs_a_terminal_and_no_no_color() {
        assert!(!use_colour(false));
    }
}
