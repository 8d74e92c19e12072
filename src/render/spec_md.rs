//! spec.md: the whole brand as Markdown prose and tables, written to be a
//! language model's system prompt. It carries every fact of spec.json, then
//! the author's BRAND_BOOK.md with its headings moved down a level.
//!
//! Content strings go through `escape::md` (or a code span or fence), so a
//! value can never open a heading, a link, or raw HTML.

use super::escape::{md, md_code};
use super::spec_json::{self, dtcg_value, reference_value, Spec};
use super::Context;
use crate::spec::model::Ext;
use crate::spec::Brand;
use std::fmt::Write;

fn list(out: &mut String, label: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    let _ = writeln!(out, "{label}\n");
    for i in items {
        let _ = writeln!(out, "- {}", md(i));
    }
    out.push('\n');
}

fn para(out: &mut String, text: Option<&str>) {
    if let Some(t) = text {
        let _ = writeln!(out, "{}\n", md(t));
    }
}

fn ext(out: &mut String, e: &Ext) {
    for (k, v) in e {
        let _ = writeln!(
            out,
            "- Extension {}: {}",
            md_code(k),
            md_code(&v.to_string())
        );
    }
    if !e.is_empty() {
        out.push('\n');
    }
}

/// A fenced code block that no line of `text` can close.
fn fence(out: &mut String, lang: &str, text: &str) {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let f = "`".repeat(longest.max(2) + 1);
    let _ = writeln!(out, "{f}{lang}\n{text}\n{f}\n");
}

fn cell(s: Option<&str>) -> String {
    s.map(md).unwrap_or_default()
}

pub fn render(brand: &Brand, ctx: &Context) -> String {
    let spec = spec_json::build(brand, ctx);
    let mut o = String::new();
    for section in [
        header,
        voice,
        audience,
        logo,
        typography,
        colour,
        applications,
        prompt_kit,
        tokens,
        brand_book,
    ] {
        section(&mut o, brand, &spec);
    }
    o
}

/// The title, version, summary and the links to every surface.
fn header(o: &mut String, brand: &Brand, spec: &Spec<'_>) {
    let doc = &brand.doc;
    let _ = writeln!(o, "# {}\n", md(&doc.name));
    let _ = writeln!(
        o,
        "Spec version {} as of {}.\n",
        brand.version, brand.updated
    );
    para(o, doc.summary.as_deref());
    let _ = writeln!(o, "Brand slug: {}.", md_code(&brand.slug));
    if let Some(rev) = &brand.revision {
        let _ = writeln!(o, "Content revision: {}.", md_code(rev));
    }
    o.push('\n');
    ext(o, &doc.ext);

    o.push_str("## Links\n\n");
    let l = &spec.links;
    for (label, url) in [
        ("API page", &l.page),
        ("spec.json", &l.spec_json),
        ("spec.md", &l.spec_md),
        ("tokens.css", &l.tokens_css),
        ("tokens.figma.json", &l.tokens_figma_json),
        ("llms.txt", &l.llms_txt),
        ("Embed script", &l.embed),
        ("Prompt demo (POST)", &l.demo),
        ("brand.json schema", &l.schema),
    ] {
        let _ = writeln!(o, "- {label}: <{url}>");
    }
    o.push('\n');
}

/// Voice: summary, traits, vocabulary and examples.
fn voice(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let doc = &brand.doc;
    let v = &doc.voice;
    o.push_str("## Voice\n\n");
    para(o, v.summary.as_deref());
    ext(o, &v.ext);
    if !v.traits.is_empty() {
        o.push_str("### Traits\n\n");
        for t in &v.traits {
            let _ = writeln!(o, "#### {}\n", md(&t.name));
            para(o, t.description.as_deref());
            list(o, "Do:", &t.r#do);
            list(o, "Don't:", &t.dont);
            ext(o, &t.ext);
        }
    }
    let vocab = &v.vocabulary;
    if !vocab.prefer.is_empty() || !vocab.avoid.is_empty() || !vocab.ext.is_empty() {
        o.push_str("### Vocabulary\n\n");
        if !vocab.prefer.is_empty() {
            o.push_str("| Prefer | Instead of |\n|---|---|\n");
            for p in &vocab.prefer {
                let instead: Vec<String> = p.instead_of.iter().map(|s| md(s)).collect();
                let _ = writeln!(o, "| {} | {} |", md(&p.term), instead.join(", "));
            }
            o.push('\n');
            for p in &vocab.prefer {
                ext(o, &p.ext);
            }
        }
        list(o, "Avoid these words:", &vocab.avoid);
        ext(o, &vocab.ext);
    }
    if !v.examples.is_empty() {
        o.push_str("### Examples\n\n");
        for e in &v.examples {
            if let Some(c) = &e.context {
                let _ = writeln!(o, "{}:\n", md(c));
            }
            let _ = writeln!(o, "- Good: {}", md(&e.good));
            if let Some(b) = &e.bad {
                let _ = writeln!(o, "- Bad: {}", md(b));
            }
            o.push('\n');
            ext(o, &e.ext);
        }
    }
}

/// Audience: summary and segments.
fn audience(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let doc = &brand.doc;
    let a = &doc.audience;
    o.push_str("## Audience\n\n");
    para(o, a.summary.as_deref());
    ext(o, &a.ext);
    for s in &a.segments {
        let _ = writeln!(o, "### {}\n", md(&s.name));
        para(o, s.description.as_deref());
        list(o, "Needs:", &s.needs);
        ext(o, &s.ext);
    }
}

/// Logo: variants, clear space and misuse.
fn logo(o: &mut String, brand: &Brand, spec: &Spec<'_>) {
    let doc = &brand.doc;
    let logo = &doc.logo;
    o.push_str("## Logo\n\n");
    if !spec.logo.variants.is_empty() {
        o.push_str("| Variant | File | URL | Background | Minimum width | Description |\n|---|---|---|---|---|---|\n");
        for lv in &spec.logo.variants {
            let v = lv.variant;
            let min = v.min_width.map(|d| {
                format!(
                    "{}{}",
                    crate::spec::tokens::fmt_num(d.value),
                    d.unit.as_str()
                )
            });
            let _ = writeln!(
                o,
                "| {} | {} | <{}> | {} | {} | {} |",
                md_code(&v.id),
                md_code(&v.file),
                lv.url,
                cell(v.background.as_deref()),
                min.unwrap_or_default(),
                cell(v.description.as_deref())
            );
        }
        o.push('\n');
        for lv in &spec.logo.variants {
            ext(o, &lv.variant.ext);
        }
    }
    if let Some(cs) = &logo.clear_space {
        let _ = writeln!(o, "Clear space: {}\n", md(cs));
    }
    list(o, "Misuse:", &logo.misuse);
    ext(o, &logo.ext);
}

/// Typography: typeface roles and type styles.
fn typography(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let doc = &brand.doc;
    let ty = &doc.typography;
    o.push_str("## Typography\n\n");
    if !ty.families.is_empty() {
        o.push_str("### Families\n\n| Role | Token | CSS value | Usage |\n|---|---|---|---|\n");
        for f in &ty.families {
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} |",
                md(&f.role),
                md_code(&f.token),
                md_code(&reference_value(&brand.tokens, &f.token)),
                cell(f.usage.as_deref())
            );
        }
        o.push('\n');
        for f in &ty.families {
            ext(o, &f.ext);
        }
    }
    if !ty.styles.is_empty() {
        o.push_str("### Styles\n\n| Name | Token | CSS value | Usage |\n|---|---|---|---|\n");
        for s in &ty.styles {
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} |",
                md(&s.name),
                md_code(&s.token),
                md_code(&reference_value(&brand.tokens, &s.token)),
                cell(s.usage.as_deref())
            );
        }
        o.push('\n');
        for s in &ty.styles {
            ext(o, &s.ext);
        }
    }
    ext(o, &ty.ext);
}

/// Colour: palette and contrast pairs.
fn colour(o: &mut String, brand: &Brand, spec: &Spec<'_>) {
    let doc = &brand.doc;
    o.push_str("## Color\n\n");
    if !spec.color.palette.is_empty() {
        o.push_str(
            "### Palette\n\n| Name | Token | CSS value | Role | Usage |\n|---|---|---|---|---|\n",
        );
        for p in &spec.color.palette {
            let e = p.entry;
            let _ = writeln!(
                o,
                "| {} | {} | {} | {} | {} |",
                md(&e.name),
                md_code(&e.token),
                md_code(&p.value),
                cell(e.role.as_deref()),
                cell(e.usage.as_deref())
            );
        }
        o.push('\n');
        for p in &spec.color.palette {
            ext(o, &p.entry.ext);
        }
    }
    if !spec.color.pairs.is_empty() {
        o.push_str("### Contrast pairs\n\nWCAG 2 contrast ratios, computed by marque.\n\n| Foreground | Background | Level | Contrast | Passes |\n|---|---|---|---|---|\n");
        for p in &spec.color.pairs {
            let _ = writeln!(
                o,
                "| {} | {} | {} | {}:1 | {} |",
                md_code(&p.pair.foreground),
                md_code(&p.pair.background),
                md(&p.pair.level),
                p.contrast,
                if p.passes { "yes" } else { "no" }
            );
        }
        o.push('\n');
        for p in &spec.color.pairs {
            ext(o, &p.pair.ext);
        }
    }
    ext(o, &doc.color.ext);
}

/// Applications: guidance per medium.
fn applications(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let doc = &brand.doc;
    o.push_str("## Applications\n\n");
    for app in &doc.applications {
        let _ = writeln!(o, "### {}\n", md(&app.medium));
        para(o, app.guidance.as_deref());
        list(o, "Do:", &app.r#do);
        list(o, "Don't:", &app.dont);
        ext(o, &app.ext);
    }
}

/// The prompt kit: each prompt with its variables and template.
fn prompt_kit(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    let doc = &brand.doc;
    o.push_str("## Prompt kit\n\n");
    ext(o, &doc.prompt_kit.ext);
    for p in &doc.prompt_kit.prompts {
        let _ = writeln!(
            o,
            "### {}\n",
            p.title.as_deref().map(md).unwrap_or_else(|| md(&p.id))
        );
        let _ = writeln!(o, "Prompt id: {}.\n", md_code(&p.id));
        para(o, p.description.as_deref());
        if let Some(sys) = &p.system {
            o.push_str("System instructions:\n\n");
            fence(o, "text", sys);
        }
        o.push_str("Template:\n\n");
        fence(o, "jinja", &p.template);
        if !p.variables.is_empty() {
            o.push_str("| Variable | Required | Max length | Description | Example |\n|---|---|---|---|---|\n");
            for var in &p.variables {
                let _ = writeln!(
                    o,
                    "| {} | {} | {} | {} | {} |",
                    md_code(&var.name),
                    if var.required { "yes" } else { "no" },
                    var.max_length,
                    cell(var.description.as_deref()),
                    var.example.as_deref().map(md_code).unwrap_or_default()
                );
            }
            o.push('\n');
        }
        let mut limits = Vec::new();
        if let Some(m) = p.max_tokens {
            limits.push(format!("at most {m} output tokens"));
        }
        if let Some(t) = p.temperature {
            limits.push(format!("temperature {}", crate::spec::tokens::fmt_num(t)));
        }
        if !limits.is_empty() {
            let _ = writeln!(o, "Model settings: {}.\n", limits.join(", "));
        }
        ext(o, &p.ext);
        for var in &p.variables {
            ext(o, &var.ext);
        }
    }
}

/// Design tokens and group notes.
fn tokens(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    o.push_str("## Design tokens\n\nW3C DTCG 2025.10 values; the CSS column is the custom property in tokens.css.\n\n");
    o.push_str("| Token | Type | Value | CSS | Notes |\n|---|---|---|---|---|\n");
    for t in &brand.tokens.tokens {
        let mut notes = Vec::new();
        if let Some(d) = &t.description {
            notes.push(md(d));
        }
        match &t.deprecated {
            Some(serde_json::Value::String(why)) => notes.push(format!("Deprecated: {}", md(why))),
            Some(serde_json::Value::Bool(true)) => notes.push("Deprecated.".into()),
            _ => {}
        }
        if let Some(e) = &t.extensions {
            notes.push(format!("Extensions: {}", md_code(&e.to_string())));
        }
        let _ = writeln!(
            o,
            "| {} | {} | {} | {} | {} |",
            md_code(&t.name()),
            t.ty.as_str(),
            md_code(&dtcg_value(&t.value).to_string()),
            md_code(&format!("--{}", crate::spec::brand::css_name(&t.path))),
            notes.join(" ")
        );
    }
    o.push('\n');
    let group_notes: Vec<_> = brand
        .tokens
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
            match &g.deprecated {
                Some(serde_json::Value::String(why)) => {
                    let _ = write!(line, " Deprecated: {}", md(why));
                }
                Some(serde_json::Value::Bool(true)) => line.push_str(" Deprecated."),
                _ => {}
            }
            if let Some(e) = &g.extensions {
                let _ = write!(line, " Extensions: {}", md_code(&e.to_string()));
            }
            let _ = writeln!(o, "{line}");
        }
        o.push('\n');
    }
}

/// The brand book, its headings one level down.
fn brand_book(o: &mut String, brand: &Brand, _spec: &Spec<'_>) {
    if let Some(book) = &brand.brand_book {
        o.push_str("## Brand book\n\n");
        o.push_str(demote_headings(book).trim_end());
        o.push('\n');
    }
}

/// Moves every heading of a Markdown document down one level (`#` → `##`),
/// leaving fenced code blocks alone. Setext headings become ATX headings.
pub fn demote_headings(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut fence: Option<(char, usize)> = None;
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if let Some((ch, n)) = fence {
            let run = trimmed.chars().take_while(|c| *c == ch).count();
            if indent < 4 && run >= n && trimmed[run..].trim().is_empty() {
                fence = None;
            }
            out.push(line.to_string());
            i += 1;
            continue;
        }
        if indent < 4 {
            for ch in ['`', '~'] {
                let run = trimmed.chars().take_while(|c| *c == ch).count();
                if run >= 3 {
                    fence = Some((ch, run));
                }
            }
            if fence.is_some() {
                out.push(line.to_string());
                i += 1;
                continue;
            }
            let hashes = trimmed.chars().take_while(|c| *c == '#').count();
            if (1..=6).contains(&hashes)
                && trimmed[hashes..]
                    .chars()
                    .next()
                    .is_none_or(|c| c == ' ' || c == '\t')
            {
                let level = (hashes + 1).min(6);
                out.push(format!(
                    "{} {}",
                    "#".repeat(level),
                    trimmed[hashes..].trim()
                ));
                i += 1;
                continue;
            }
            // Setext: a paragraph line followed by === or ---.
            if let Some(next) = lines.get(i + 1) {
                let n = next.trim();
                let para = !trimmed.is_empty() && !trimmed.starts_with(['-', '*', '>', '+']);
                if para
                    && !n.is_empty()
                    && (n.chars().all(|c| c == '=')
                        || (n.chars().all(|c| c == '-') && n.len() >= 2))
                {
                    let level = if n.starts_with('=') { 2 } else { 3 };
                    out.push(format!("{} {}", "#".repeat(level), trimmed.trim()));
                    i += 2;
                    continue;
                }
            }
        }
        out.push(line.to_string());
        i += 1;
    }
    let mut s = out.join("\n");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_move_down_but_code_blocks_stay() {
        let book = "# Title\n\nText\n\n```\n# not a heading\n```\n\n###### Deep\n\nSub\n---\n";
        assert_eq!(
            demote_headings(book),
            "## Title\n\nText\n\n```\n# not a heading\n```\n\n###### Deep\n\n### Sub\n"
        );
    }
}
