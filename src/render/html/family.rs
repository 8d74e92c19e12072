//! The API page's view of a brand's family (DESIGN.md section 18): the
//! chain of parents above, in the header, and the brands that extend it
//! below, in a section of their own.

use super::sections::Snippets;
use crate::render::escape::html;
use crate::render::family::page;
use crate::render::Context;
use crate::spec::Brand;
use std::fmt::Write;

/// "Extends core 3.0.0 (^3) › base 1.2.0", under the title.
pub(super) fn chain(o: &mut String, brand: &Brand, ctx: &Context) {
    let parents = brand.lineage.parents();
    if parents.is_empty() {
        return;
    }
    o.push_str("<p class=\"family\" id=\"extends\">Extends ");
    for (i, p) in parents.iter().enumerate() {
        if i > 0 {
            o.push_str(" <span aria-label=\"which extends\">›</span> ");
        }
        let _ = write!(
            o,
            "<a href=\"{}\"><code>{}</code> {}</a>",
            html(&page(ctx, &p.files.slug, p.release.as_ref())),
            html(&p.files.slug),
            html(&p.version())
        );
        if let Some(range) = &p.range {
            let _ = write!(o, " (<code>{}</code>)", html(range));
        }
    }
    o.push_str(": every surface here has their tokens resolved in, so no consumer needs them.</p>");
}

/// The brands that extend this one, with the range each follows and the
/// snippet that makes one more.
pub(super) fn dependents(o: &mut String, brand: &Brand, ctx: &Context, snip: &mut Snippets) {
    if brand.dependents.is_empty() && brand.lineage.parents().is_empty() {
        return;
    }
    o.push_str("<section id=\"family\"><h2>Family</h2>\n");
    if brand.dependents.is_empty() {
        o.push_str("<p>No brand extends this one yet.</p>");
    } else {
        o.push_str(
            "<p>Brands that extend this one, and what each follows:</p><ul class=\"dependents\">",
        );
        for d in brand.dependents.iter() {
            let follows = match &d.range {
                Some(r) => format!("releases <code>{}</code>", html(r)),
                None => "the head".to_string(),
            };
            let _ = write!(
                o,
                "<li><a href=\"{}\"><code>{}</code> {}</a>, following {follows}</li>",
                html(&page(ctx, &d.slug, None)),
                html(&d.slug),
                html(&d.version)
            );
        }
        o.push_str("</ul>");
    }
    o.push_str("<p>To extend it, a brand's brand.json says:</p>");
    snip.code(
        o,
        &format!(
            "\"extends\": \"{}@^{}\"",
            brand.slug,
            if brand.version.major > 0 {
                brand.version.major.to_string()
            } else {
                format!("0.{}", brand.version.minor)
            }
        ),
    );
    let _ = writeln!(
        o,
        "<p>The family as data: <a href=\"{}\">family.json</a>.</p></section>",
        html(&ctx.brand_url(&brand.slug, "family.json"))
    );
}
