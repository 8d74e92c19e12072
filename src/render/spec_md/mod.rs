//! spec.md: the whole brand as Markdown written to be a language model's
//! system prompt: what to say and to whom first (voice, audience, rules for
//! each medium), then the logo, type and colour, then every design token
//! as one line in its CSS form, then the prompt kit, the links, and the
//! author's BRAND_BOOK.md nested under its own heading. Every fact of
//! spec.json is here, once, in as few words as reads naturally: tokens are
//! `4px`, `#0a2742` or `oklch(…)` with its sRGB hex, never JSON; an alias is
//! `→ color.fjord.900` with the value it resolves to.
//!
//! Content strings go through `escape::md` (or a code span or fence), so a
//! value can never open a heading, a link, or raw HTML.

mod headings;
mod modes;

pub use headings::{shift_headings, top_heading_level};

use super::escape::{md, md_code, md_inline};
use super::spec_json::{self, Spec};
use super::view::reference_value;
use super::Context;
use crate::spec::model::Ext;
use crate::spec::tokens::css::{self, Refs};
use crate::spec::tokens::{fmt_num, StrokeStyle, Token, TokenSet, TokenValue};
use crate::spec::Brand;
use std::fmt::Write;

/// `label: a; b; c.` on one line, or nothing.
fn inline_list(out: &mut String, label: &str, items: &[String]) {
    if !items.is_empty() {
        let _ = writeln!(out, "{label}: {}", joined(items));
    }
}

/// Items as one sentence: `a; b; c.` (each item's own full stop dropped).
fn joined(items: &[String]) -> String {
    let items: Vec<String> = items
        .iter()
        .map(|i| md(i.trim_end().trim_end_matches('.')))
        .collect();
    items.join("; ") + "."
}

fn para(out: &mut String, text: Option<&str>) {
    if let Some(t) = text {
        let _ = writeln!(out, "{}\n", md(t));
    }
}

/// Extension members, inline: ` Extension `x-owner`: `"…"`.`
fn ext_inline(e: &Ext) -> String {
    e.iter()
        .map(|(k, v)| format!(" Extension {}: {}.", md_code(k), md_code(&v.to_string())))
        .collect()
}

fn ext(out: &mut String, e: &Ext) {
    let text = ext_inline(e);
    if !text.is_empty() {
        let _ = writeln!(out, "{}\n", text.trim_start());
    }
}

/// A fenced code block that no line of `text` can close.
fn fence(out: &mut String, lang: &str, text: &str) {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let f = "`".repeat(longest.max(2) + 1);
    let _ = writeln!(out, "{f}{lang}\n{text}\n{f}\n");
}

/// ` Usage.` after a value, when there is one.
fn then(text: Option<&str>) -> String {
    text.map(|t| format!(" {}", md(t))).unwrap_or_default()
}

pub fn render(brand: &Brand, ctx: &Context) -> String {
    let spec = spec_json::build_prose(brand, ctx);
    let mut o = String::new();
    for section in [
        header,
        voice,
        audience,
        applications,
        logo,
        typography,
        colour,
        tokens,
        modes::modes,
        prompt_kit,
        links,
        brand_book,
    ] {
        section(&mut o, brand, &spec);
    }
    o.trim_end().to_string() + "\n"
}

/// The title, version, slug, revision and summary.
fn header(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let doc = &brand.doc;
    let _ = writeln!(o, "# {}\n", md(&doc.name));
    let _ = write!(
        o,
        "Brand {}, spec version {} as of {}",
        md_code(&brand.slug),
        brand.version,
        brand.updated
    );
    if let Some(rev) = &brand.revision {
        let _ = write!(o, ", content revision {}", md_code(rev));
    }
    o.push_str(".\n\n");
    para(o, doc.summary.as_deref());
    ext(o, &doc.ext);
}

/// Voice: summary, traits, vocabulary and examples.
fn voice(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let v = &brand.doc.voice;
    if v.is_empty() {
        return;
    }
    o.push_str("## Voice\n\n");
    para(o, v.summary.as_deref());
    for t in &v.traits {
        guidance(
            o,
            &t.name,
            t.description.as_deref(),
            &t.r#do,
            &t.dont,
            &t.ext,
        );
    }
    let vocab = &v.vocabulary;
    let prefer: Vec<String> = vocab
        .prefer
        .iter()
        .map(|p| {
            let instead: Vec<String> = p.instead_of.iter().map(|s| md(s)).collect();
            format!(
                "{} (not {}){}",
                md(&p.term),
                instead.join(", "),
                ext_inline(&p.ext)
            )
        })
        .collect();
    if !prefer.is_empty() {
        let _ = writeln!(o, "Prefer: {}.", prefer.join("; "));
    }
    if !vocab.avoid.is_empty() {
        let avoid: Vec<String> = vocab.avoid.iter().map(|s| md(s)).collect();
        let _ = writeln!(o, "Never say: {}.", avoid.join(", "));
    }
    let _ = writeln!(o, "{}", ext_inline(&vocab.ext).trim_start());
    for e in &v.examples {
        let context = e.context.as_deref().map(|c| format!("{}. ", md(c)));
        let _ = write!(o, "- {}Good: {}", context.unwrap_or_default(), md(&e.good));
        if let Some(b) = &e.bad {
            let _ = write!(o, " Bad: {}", md(b));
        }
        let _ = writeln!(o, "{}", ext_inline(&e.ext));
    }
    o.push('\n');
    ext(o, &v.ext);
}

/// A voice trait or a medium: its name and text, its dos and don'ts.
fn guidance(
    o: &mut String,
    name: &str,
    text: Option<&str>,
    dos: &[String],
    donts: &[String],
    e: &Ext,
) {
    let _ = writeln!(o, "**{}**.{}", md(name), then(text));
    inline_list(o, "Do", dos);
    inline_list(o, "Don't", donts);
    let _ = writeln!(o, "{}", ext_inline(e).trim_start());
}

/// Audience: summary and segments.
fn audience(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let a = &brand.doc.audience;
    if a.is_empty() {
        return;
    }
    o.push_str("## Audience\n\n");
    para(o, a.summary.as_deref());
    for s in &a.segments {
        let needs = if s.needs.is_empty() {
            String::new()
        } else {
            format!(" Needs: {}", joined(&s.needs))
        };
        let _ = writeln!(
            o,
            "- **{}**.{}{needs}{}",
            md(&s.name),
            then(s.description.as_deref()),
            ext_inline(&s.ext)
        );
    }
    o.push('\n');
    ext(o, &a.ext);
}

/// Applications: the rules for each medium.
fn applications(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let apps = &brand.doc.applications;
    if apps.is_empty() {
        return;
    }
    o.push_str("## Applications\n\n");
    for app in apps {
        guidance(
            o,
            &app.medium,
            app.guidance.as_deref(),
            &app.r#do,
            &app.dont,
            &app.ext,
        );
    }
}

/// Logo: variants, clear space and misuse.
fn logo(o: &mut String, brand: &Brand, spec: &Spec<'_>) {
    let logo = &brand.doc.logo;
    o.push_str("## Logo\n\n");
    for lv in &spec.logo.variants {
        let v = lv.variant;
        let mut facts = Vec::new();
        match v.background.as_deref() {
            Some("any") => facts.push("on any background".to_string()),
            Some(bg) => facts.push(format!("on {} backgrounds", md(bg))),
            None => {}
        }
        if let Some(d) = v.min_width {
            facts.push(format!(
                "at least {}{} wide",
                fmt_num(d.value),
                d.unit.as_str()
            ));
        }
        let facts = if facts.is_empty() {
            String::new()
        } else {
            format!(", {}", facts.join(", "))
        };
        let _ = writeln!(
            o,
            "- {} {}{facts}.{}{}",
            md_code(&v.id),
            md_code(&v.file),
            then(v.description.as_deref()),
            ext_inline(&v.ext)
        );
    }
    if let Some(cs) = &logo.clear_space {
        let _ = writeln!(o, "\nClear space: {}", md(cs));
    }
    inline_list(o, "Never", &logo.misuse);
    o.push('\n');
    ext(o, &logo.ext);
}

/// Typography: typeface roles and type styles.
fn typography(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let ty = &brand.doc.typography;
    o.push_str("## Typography\n\n");
    let mut line = |label: String, token: &str, usage: Option<&str>, e: &Ext| {
        let _ = writeln!(
            o,
            "- {label}: {} ({}).{}{}",
            md_code(&reference_value(&brand.tokens, token)),
            md_code(token.trim_matches(['{', '}'])),
            then(usage),
            ext_inline(e)
        );
    };
    for f in &ty.families {
        line(md(&f.role), &f.token, f.usage.as_deref(), &f.ext);
    }
    for s in &ty.styles {
        line(
            format!("{} style", md(&s.name)),
            &s.token,
            s.usage.as_deref(),
            &s.ext,
        );
    }
    o.push('\n');
    ext(o, &ty.ext);
}

/// A colour reference as people say it: the palette's name for it, its
/// token and its value (`Fjord 900 (`color.text.primary`, `#0a2742`)`).
fn colour_name(brand: &Brand, reference: &str) -> String {
    let set = &brand.tokens;
    let target = set.resolve_reference(reference);
    let target = target.as_deref();
    let named = brand.doc.color.palette.iter().find(|p| {
        match (set.resolve_reference(&p.token).as_deref(), target) {
            (Some(a), Some(b)) => std::ptr::eq(a, b) || a == b,
            _ => false,
        }
    });
    let value = target.map(|v| srgb_value(v, set)).unwrap_or_default();
    let token = md_code(reference.trim_matches(['{', '}']));
    match named {
        Some(p) => format!("{} ({token}, {value})", md(&p.name)),
        None => format!("{token} ({value})"),
    }
}

/// A value's CSS form; a colour not written as hex with its sRGB hex after
/// it (for a colour outside sRGB, the fallback).
fn colour_value(v: &TokenValue, set: &TokenSet) -> String {
    let css = css::value(v, set, Refs::Resolve);
    match v {
        TokenValue::Color(c) if !css.starts_with('#') => {
            format!("{}, sRGB {}", md_inline(&css), srgb_hex(c))
        }
        _ => md_inline(&css),
    }
}

/// A colour's sRGB hex, `#rrggbbaa` when it is translucent: without its
/// alpha the fallback would be another, opaque colour.
pub(super) fn srgb_hex(c: &crate::spec::tokens::Color) -> String {
    match c.alpha < 1.0 {
        true => crate::color::hex(c.srgb(), c.alpha),
        false => c.srgb_hex(),
    }
}

/// A colour as contrast is computed: in sRGB, as hex when it is opaque.
fn srgb_value(v: &TokenValue, set: &TokenSet) -> String {
    match v {
        TokenValue::Color(c) if c.alpha >= 1.0 => c.srgb_hex(),
        _ => md_inline(&css::value(v, set, Refs::Resolve)),
    }
}

/// Colour: palette and contrast pairs.
fn colour(o: &mut String, brand: &Brand, spec: &Spec<'_>) {
    let set = &brand.tokens;
    o.push_str("## Colour\n\n");
    for p in &spec.color.palette {
        let e = p.entry;
        let value = set
            .resolve_reference(&e.token)
            .as_deref()
            .map(|v| colour_value(v, set))
            .unwrap_or_default();
        let role = e
            .role
            .as_deref()
            .map(|r| format!(", {}", md(r)))
            .unwrap_or_default();
        let _ = writeln!(
            o,
            "- {} ({}{role}): {value}.{}{}",
            md(&e.name),
            md_code(e.token.trim_matches(['{', '}'])),
            then(e.usage.as_deref()),
            ext_inline(&e.ext)
        );
    }
    if !spec.color.pairs.is_empty() {
        o.push_str("\nContrast pairs (WCAG 2):\n\n");
        for p in &spec.color.pairs {
            let verdict = |passes: bool| if passes { "passes" } else { "fails" };
            let contexts: String = p
                .in_contexts
                .iter()
                .map(|c| {
                    format!(
                        "; in {}={}: {}:1, {}",
                        md(&c.modifier),
                        md(&c.context),
                        c.contrast,
                        verdict(c.passes)
                    )
                })
                .collect();
            let _ = writeln!(
                o,
                "- {} on {}: {}:1, {} {}{contexts}.{}",
                colour_name(brand, &p.pair.foreground),
                colour_name(brand, &p.pair.background),
                p.contrast,
                verdict(p.passes),
                md(&p.pair.level),
                ext_inline(&p.pair.ext)
            );
        }
    }
    o.push('\n');
    ext(o, &brand.doc.color.ext);
}

/// One token's value: its CSS form, an alias as `→ target (value)`, a
/// colour outside sRGB with its hex, a composite with the aliases it is
/// built from.
fn token_value(t: &Token, set: &TokenSet) -> String {
    let resolved = || css::value(&t.value, set, Refs::Resolve);
    match &t.value {
        TokenValue::Alias(target) => {
            let value = set
                .resolve(&t.value)
                .as_deref()
                .map(|v| colour_value(v, set))
                .unwrap_or_default();
            format!("→ {} ({value})", md_code(target))
        }
        TokenValue::AliasWithAlpha { target, alpha } => {
            let value = set
                .resolve(&t.value)
                .map(|v| colour_value(&v, set))
                .unwrap_or_default();
            format!(
                "→ {} at alpha {} ({value})",
                md_code(target),
                fmt_num(*alpha)
            )
        }
        TokenValue::Color(_) => colour_value(&t.value, set),
        TokenValue::StrokeStyle(s) => format!("{}{}", md_inline(&resolved()), dashes(s, set)),
        TokenValue::Composite(c) => {
            let mut out = md_inline(&resolved());
            let mut aliases = Vec::new();
            for (part, v) in c.parts() {
                // Not in the `font` shorthand: said on its own.
                if part.key == "letterSpacing" {
                    let spacing = css::value(v, set, Refs::Resolve);
                    let _ = write!(out, ", letter-spacing {}", md_inline(&spacing));
                }
                if let Some(TokenValue::StrokeStyle(s)) = set.resolve(v).as_deref() {
                    out.push_str(&dashes(s, set));
                }
                if let TokenValue::Alias(target) = v {
                    aliases.push(md_code(target));
                }
            }
            if !aliases.is_empty() {
                let _ = write!(out, " (from {})", aliases.join(", "));
            }
            out
        }
        _ => md_inline(&resolved()),
    }
}

/// What `dashed` stands for in a custom stroke style.
fn dashes(s: &StrokeStyle, set: &TokenSet) -> String {
    match s {
        StrokeStyle::Dashed {
            dash_array,
            line_cap,
        } => {
            let dash: Vec<String> = dash_array
                .iter()
                .map(|d| css::value(d, set, Refs::Resolve))
                .collect();
            format!(
                ", dashes {} with {} caps",
                md_inline(&dash.join(" ")),
                md(line_cap)
            )
        }
        StrokeStyle::Keyword(_) => String::new(),
    }
}

/// Design tokens, one line each, grouped by type; group notes after.
fn tokens(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let set = &brand.tokens;
    if set.tokens.is_empty() {
        return;
    }
    let example = &set.tokens[0];
    let _ = writeln!(
        o,
        "## Design tokens\n\nW3C DTCG 2025.10 tokens as CSS values; in tokens.css {} is {}.",
        md_code(&example.name()),
        md_code(&format!("--{}", set.var_name(&example.path)))
    );
    let mut types: Vec<&str> = Vec::new();
    for t in &set.tokens {
        crate::spec::limits::checkpoint();
        if !types.contains(&t.ty.as_str()) {
            types.push(t.ty.as_str());
        }
    }
    for ty in types {
        let _ = writeln!(o, "\n### {ty}\n");
        for t in set.tokens.iter().filter(|t| t.ty.as_str() == ty) {
            let name = t.name();
            let mut line = format!("- {}: {}", md_code(&name), token_value(t, set));
            let css = set.var_name(&t.path);
            if css != name.replace('.', "-") {
                let _ = write!(line, ", in CSS {}", md_code(&format!("--{css}")));
            }
            if let Some(d) = &t.description {
                let _ = write!(line, ". {}", md(d));
            }
            // Said first, so an agent reading the line stops there.
            if let Some(d) = t.deprecation(set) {
                line = format!("{line}. **{}**", deprecated_md(&d));
            }
            line.push_str(&notes(&None, &t.extensions, ". "));
            let _ = writeln!(o, "{line}");
        }
    }
    o.push('\n');
    let group_notes: Vec<_> = set
        .groups
        .iter()
        .filter(|g| g.description.is_some() || g.extensions.is_some() || g.deprecated.is_some())
        .collect();
    if !group_notes.is_empty() {
        o.push_str("Token groups:\n\n");
        for g in group_notes {
            let name = if g.path.is_empty() {
                "(root)".to_string()
            } else {
                g.path.join(".")
            };
            let mut line = format!("- {}", md_code(&name));
            if let Some(d) = &g.description {
                let _ = write!(line, ": {}", md(d));
            }
            line.push_str(&notes(&g.deprecated, &g.extensions, " "));
            let _ = writeln!(o, "{line}");
        }
        o.push('\n');
    }
}

/// A deprecation as Markdown: "Deprecated: use `color.teal.700`", its
/// note after it.
pub(crate) fn deprecated_md(d: &crate::spec::tokens::deprecation::Deprecation) -> String {
    match (&d.replacement, &d.note) {
        (Some(r), Some(n)) => format!("Deprecated: use {} ({})", md_code(r), md(n)),
        (Some(r), None) => format!("Deprecated: use {}", md_code(r)),
        (None, Some(n)) => format!("Deprecated: {}", md(n)),
        (None, None) => "Deprecated".to_string(),
    }
}

/// `$deprecated` and `$extensions` of a token or group, each after `sep`.
fn notes(
    deprecated: &Option<serde_json::Value>,
    extensions: &Option<serde_json::Value>,
    sep: &str,
) -> String {
    let mut out = String::new();
    match deprecated {
        Some(serde_json::Value::String(why)) => {
            let _ = write!(out, "{sep}Deprecated: {}", md(why));
        }
        Some(serde_json::Value::Bool(true)) => {
            let _ = write!(out, "{sep}Deprecated.");
        }
        _ => {}
    }
    if let Some(e) = extensions {
        let _ = write!(out, "{sep}Extensions: {}", md_code(&e.to_string()));
    }
    out
}

/// The prompt kit: each prompt with its variables, settings and template.
fn prompt_kit(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let kit = &brand.doc.prompt_kit;
    if kit.prompts.is_empty() && kit.ext.is_empty() {
        return;
    }
    o.push_str("## Prompt kit\n\n");
    ext(o, &kit.ext);
    for p in &kit.prompts {
        let title = p.title.as_deref().map(md).unwrap_or_else(|| md(&p.id));
        let _ = writeln!(o, "### {title} ({})\n", md_code(&p.id));
        para(o, p.description.as_deref());
        for var in &p.variables {
            let example = var
                .example
                .as_deref()
                .map(|e| format!(" Example: {}.", md_code(e)))
                .unwrap_or_default();
            let _ = writeln!(
                o,
                "- {} ({}, at most {} characters).{}{example}{}",
                md_code(&var.name),
                if var.required { "required" } else { "optional" },
                var.max_length,
                then(var.description.as_deref()),
                ext_inline(&var.ext)
            );
        }
        let mut limits = Vec::new();
        if let Some(m) = p.max_tokens {
            limits.push(format!("at most {m} output tokens"));
        }
        if let Some(t) = p.temperature {
            limits.push(format!("temperature {}", fmt_num(t)));
        }
        if !limits.is_empty() {
            let _ = writeln!(o, "- Model: {}.", limits.join(", "));
        }
        o.push('\n');
        ext(o, &p.ext);
        if let Some(sys) = &p.system {
            o.push_str("System:\n\n");
            fence(o, "text", sys);
        }
        fence(o, "jinja", &p.template);
    }
}

/// Where everything is served: the brand's files and surfaces under its
/// page's URL, the rest in full.
fn links(o: &mut String, brand: &Brand, spec: &Spec<'_>) {
    let l = &spec.links;
    // Every output the registry has that this version serves, as
    // spec.json links them.
    let released = l.package_tgz.is_some();
    let files: Vec<String> = crate::render::outputs::OUTPUTS
        .iter()
        .filter_map(|out| out.file_of(brand, released))
        .collect();
    let _ = writeln!(
        o,
        "## Links\n\nAPI page <{}>. Under <{}/>: {} and the logo files. Embed script <{}>; prompt demo (POST) <{}>; brand.json schema <{}>.\n",
        l.page,
        l.page,
        files.join(", "),
        l.embed,
        l.demo,
        l.schema
    );
}

/// The brand book, under a heading of its own: its top headings become
/// level 3, below `## Brand book`.
fn brand_book(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    if let Some(book) = &brand.brand_book {
        o.push_str("## Brand book\n\n");
        let top = top_heading_level(book).unwrap_or(3);
        o.push_str(shift_headings(book, 3usize.saturating_sub(top)).trim_end());
        o.push('\n');
    }
}

#[cfg(test)]
mod tests;
