//! What an import says of what it read: kept and left out, per context,
//! counted by code; and the exit code it earns.

use crate::spec::diag::Code;
use crate::spec::tokens::TokenSet;
use crate::spec::{Diagnostic, Severity};
use anyhow::Result;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// True for a token left out because something in it is wrong (a broken
/// reference, failing math, an unreadable value), not because it has no
/// form on the web by design (an unknown type, a composition).
fn left_out_for_an_error(code: Code) -> bool {
    code.family() == crate::spec::diag::Family::LeftOut
        && !matches!(code, Code::LeftOutUnknownType | Code::LeftOutNoDtcgForm)
}

/// The exit code a written import earns: 1 when it left tokens out for
/// errors (unless `allow_partial`), said; else 0.
pub(super) fn verdict(
    out: &mut impl Write,
    diags: &[Diagnostic],
    allow_partial: bool,
) -> Result<i32> {
    let failed = diags
        .iter()
        .filter(|d| left_out_for_an_error(d.code))
        .count();
    if failed == 0 {
        return Ok(0);
    }
    if allow_partial {
        writeln!(
            out,
            "{failed} token(s) left out for errors, accepted (--allow-partial)"
        )?;
        return Ok(0);
    }
    writeln!(
        out,
        "the import is partial: {failed} token(s) left out for errors (above); fix them, or accept it with --allow-partial"
    )?;
    Ok(1)
}

/// What was imported, and what import normalised, noted and left out,
/// counted by code with the tokens each is about.
pub(super) fn summary(
    out: &mut impl Write,
    file: &Path,
    slug: &str,
    set: &TokenSet,
    diags: &[Diagnostic],
    left_out: &[(Code, Option<String>)],
) -> Result<()> {
    let modes: Vec<String> = set
        .modes
        .iter()
        .map(|m| {
            let contexts: Vec<&str> = m.contexts.iter().map(|c| c.name.as_str()).collect();
            format!("{} ({})", m.name, contexts.join(", "))
        })
        .collect();
    // What is published: the tokens read, less those the strict export
    // cannot hold; and, of what the input holds, what was left out.
    let read_out = diags
        .iter()
        .filter(|d| d.code.family() == crate::spec::diag::Family::LeftOut)
        .count();
    let kept = set.tokens.len().saturating_sub(left_out.len());
    writeln!(
        out,
        "imported {} as `{slug}`: kept {kept} of {} tokens{}",
        file.display(),
        set.tokens.len() + read_out,
        match modes.is_empty() {
            true => String::new(),
            false => format!(", modifiers {}", modes.join(", ")),
        }
    )?;
    for m in &set.modes {
        for (i, c) in m.contexts.iter().enumerate() {
            let what = match i == m.default {
                true => format!("{kept} tokens (the default)"),
                false => format!("{kept} tokens, {} set by this context", c.tokens.len()),
            };
            writeln!(out, "  {} {}: {what}", m.name, c.name)?;
        }
    }
    // Two spellings of one token sharing a CSS property is a note about
    // tokens.css; the tokens themselves are written as they were.
    let (css, notes): (Vec<_>, Vec<_>) = diags
        .iter()
        .filter(|d| d.severity() == Severity::Warning)
        .map(|d| (d.code, crate::spec::diag::named(d)))
        .partition(|(c, _)| *c == Code::CssNameShared);
    let (gone, notes): (Vec<_>, Vec<_>) = notes
        .into_iter()
        .partition(|(c, _)| c.family() == crate::spec::diag::Family::LeftOut);
    report(out, "normalised", &notes)?;
    report(out, "noted, unchanged", &css)?;
    report(out, "left out of what the input holds", &gone)?;
    report(out, "left out of the strict tokens", left_out)
}

/// What was said, counted by code (most frequent first), each with what
/// its code means: `marque check` lists every one.
fn report(out: &mut impl Write, title: &str, found: &[(Code, Option<String>)]) -> Result<()> {
    if found.is_empty() {
        return Ok(());
    }
    // Per code: how many, and the first few names it was about.
    let mut groups: BTreeMap<Code, (usize, Vec<&str>)> = BTreeMap::new();
    for (code, name) in found {
        let (n, names) = groups.entry(*code).or_default();
        *n += 1;
        if let Some(name) = name
            .as_deref()
            .filter(|n| names.len() < 3 && !names.contains(n))
        {
            names.push(name);
        }
    }
    let mut groups: Vec<(Code, (usize, Vec<&str>))> = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then_with(|| a.0.cmp(&b.0)));
    writeln!(out, "{title} ({}):", found.len())?;
    for (code, (n, names)) in groups {
        let (name, means) = (code.name(), code.means());
        writeln!(out, "  {n:>5} × {code} {name}: {means}")?;
        if !names.is_empty() {
            let shown: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
            let more = match n.saturating_sub(names.len()) {
                0 => String::new(),
                rest => format!(" and {rest} more"),
            };
            writeln!(out, "          {}{more}", shown.join(", "))?;
        }
    }
    Ok(())
}
