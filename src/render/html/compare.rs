//! The comparison as a page, for the browser a pull request's link opens:
//! the verdict, then each change under its heading with its level, a
//! changed value's before and after side by side, and a swatch of each
//! colour.

use super::{foot, head, page, Page};
use crate::render::diff::{capitalised, summary, summary_html, verdict, Side};
use crate::render::escape::html;
use crate::render::Context;
use crate::spec::diff::{Change, Diff, Section, What};
use crate::spec::Brand;
use std::fmt::Write;

/// A value cell keeps its swatch beside its value, and a level whole.
const NOWRAP: &str = " style=\"white-space:nowrap;overflow-wrap:normal\"";

/// The page of a comparison of `brand` (the newer side's) from `from` to `to`.
pub fn render(brand: &Brand, from: &Side, to: &Side, diff: &Diff, ctx: &Context) -> Page {
    let label = |s: &Side| match s.reference == s.version {
        true => s.version.clone(),
        false => format!("{} ({})", s.reference, s.version),
    };
    let title = format!("{}: {} → {}", brand.doc.name, label(from), label(to));
    let compare = |ext: &str| {
        ctx.url(&crate::paths::compare(
            &brand.slug,
            &from.reference,
            &to.reference,
            ext,
        ))
    };
    let mut o = String::new();
    head(
        &mut o,
        ctx,
        &format!("{title} · compare"),
        &verdict(diff),
        Some(brand),
        &[
            ("text/markdown", compare(".md")),
            ("application/json", compare(".json")),
        ],
        &brand.slug,
    );
    let _ = write!(
        o,
        "<header><div class=\"inner\"><h1>{}</h1><p class=\"version\">{} → {}</p><p>{}</p><p><a href=\"{}\">API page</a> · <a href=\"{}\">changelog</a> · <a href=\"{}\">Markdown</a> · <a href=\"{}\">JSON</a></p></div></header>\n<main>",
        html(&brand.doc.name),
        html(&label(from)),
        html(&label(to)),
        html(&verdict(diff)),
        html(&ctx.brand_url(&brand.slug, "")),
        html(&ctx.brand_url(&brand.slug, "changelog.md")),
        html(&compare(".md")),
        html(&compare(".json")),
    );
    if diff.is_empty() {
        let _ = write!(
            o,
            "<section><p>Nothing changed between {} and {}.</p></section>",
            html(&from.reference),
            html(&to.reference)
        );
    }
    for s in Section::ALL {
        let changes: Vec<&Change> = diff.section(s).collect();
        if changes.is_empty() {
            continue;
        }
        let _ = write!(
            o,
            "<section><h2>{}</h2><table><thead><tr><th>Change</th><th{NOWRAP}>Level</th><th{NOWRAP}>Before</th><th{NOWRAP}>After</th></tr></thead><tbody>",
            html(s.heading())
        );
        for c in changes {
            let (before, after) = values(c);
            let _ = write!(
                o,
                "<tr data-level=\"{}\"><td>{}</td><td{NOWRAP}>{}</td><td{NOWRAP}>{before}</td><td{NOWRAP}>{after}</td></tr>",
                c.level,
                summary_html(&summary(c)),
                html(&capitalised(c.level.as_str())),
            );
        }
        o.push_str("</tbody></table></section>");
    }
    o.push_str("</main>\n");
    foot(&mut o, ctx);
    page(o)
}

/// A change's values before and after, as cells: a value in `<code>`,
/// with a swatch when it is a colour.
fn values(c: &Change) -> (String, String) {
    match &c.what {
        What::TokenValue { before, after } => (value(before), value(after)),
        What::TokenAdded { value: v } => (String::new(), value(v)),
        What::TokenRemoved { property, .. } => (value(property), String::new()),
        What::TokenRenamed {
            from_property,
            to_property,
            ..
        } => (value(from_property), value(to_property)),
        What::PairContrast { before, after } => (format!("{before:.2}:1"), format!("{after:.2}:1")),
        What::PairLowered { from, to } | What::PairRaised { from, to } => (html(from), html(to)),
        What::BrandRenamed { from, to } => (html(from), html(to)),
        _ => (String::new(), String::new()),
    }
}

fn value(css: &str) -> String {
    let swatch = match is_colour(css) {
        true => format!(
            "<span class=\"swatch\" role=\"img\" aria-label=\"{0}\" style=\"display:inline-block;width:1.25em;height:1.25em;margin-right:.4em;vertical-align:-.25em;border-radius:4px;border:1px solid rgba(127,127,127,.5);background:{0}\"></span>",
            html(css)
        ),
        false => String::new(),
    };
    format!("{swatch}<code>{}</code>", html(css))
}

/// True for a literal colour a style attribute can paint as it is: hex,
/// or a colour function, of characters that can end nothing (no quote,
/// semicolon, brace or backslash); references (`var(…)`) have nothing to
/// paint on this page.
fn is_colour(css: &str) -> bool {
    let safe = css.len() <= 96
        && css
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b" .,%()/#-".contains(&b));
    let hex = css.strip_prefix('#').is_some_and(|h| {
        matches!(h.len(), 3 | 4 | 6 | 8) && h.bytes().all(|b| b.is_ascii_hexdigit())
    });
    let function = [
        "rgb(", "rgba(", "hsl(", "hsla(", "hwb(", "lab(", "lch(", "oklab(", "oklch(", "color(",
    ]
    .iter()
    .any(|f| css.starts_with(f))
        && css.ends_with(')')
        && !css.contains("var(");
    safe && (hex || function)
}

#[cfg(test)]
mod tests {
    use super::is_colour;

    #[test]
    fn only_literal_colours_are_painted() {
        for yes in [
            "#0a2742",
            "#fff",
            "oklch(0.62 0.11 150)",
            "rgb(10 39 66 / 0.24)",
            "color(display-p3 0.1 0.2 0.3)",
        ] {
            assert!(is_colour(yes), "{yes}");
        }
        for no in [
            "var(--color-fjord-900)",
            "red; background:url(x)",
            "rgb(1 2 3)\"><script>",
            "#12345",
            "oklch(0.6 0.1 150) }",
            "1rem",
            "url(#x)",
        ] {
            assert!(!is_colour(no), "{no}");
        }
    }
}
