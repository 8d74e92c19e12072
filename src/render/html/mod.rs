//! The HTML pages: a brand's API page at `/brand/<slug>` and the index at `/`.
//!
//! Styled with the brand's own tokens, every content string escaped with
//! `escape::html`. What every page shares, its stylesheet and scripts, is
//! served once beside them under hashed names ([`assets`]); no page has an
//! inline script, and its Content-Security-Policy allows only same-origin
//! scripts, so even a missed escape could not run script.

use super::changelog::SemanticChanges;
use super::escape::html;
use super::view::reference_value;
use super::view::{primary_logo, Access};
use super::{Context, Surface};
use crate::paths;
use crate::spec::{Brand, Diagnostic, Severity};
use std::fmt::Write;

mod apps;
mod family;
mod sections;
use sections::{
    applications, audience, contrast, endpoints, logos, palette, prompt_kit, typography,
    use_patterns, voice, Snippets,
};

pub mod assets;
pub mod compare;
pub mod signin;

/// A rendered page and the Content-Security-Policy it needs.
pub struct Page {
    pub body: String,
    pub csp: String,
}

/// The Content-Security-Policy of every page. Scripts: same-origin files
/// only (the shared page scripts and the brand card's embed script), none
/// inline. Styles: the shared stylesheet, and inline styles, which the
/// brand's own values need: the page's theme (`:root{--accent:…}`), each
/// colour's swatch and each type specimen (`style="…"` attributes of values
/// that differ per brand), and the brand card preview, whose shadow root
/// carries its own `<style>` (the embed script, a published surface of its
/// own, is the same on any site).
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *";

fn page(body: String) -> Page {
    Page {
        body,
        csp: CSP.to_string(),
    }
}

/// The theme of a page: CSS declarations for the page's own custom properties.
fn theme(brand: &Brand) -> String {
    let value_of = |reference: &str| reference_value(&brand.tokens, reference);
    let accent = crate::render::view::accent(brand).map(|p| value_of(&p.token));
    let family = |roles: &[&str]| {
        brand
            .doc
            .typography
            .families
            .iter()
            .find(|f| roles.contains(&f.role.as_str()))
            .map(|f| value_of(&f.token))
    };
    let mut t = String::new();
    if let Some(a) = accent.filter(|a| !a.is_empty()) {
        let _ = write!(t, "--accent:{a};");
    }
    if let Some(f) = family(&["body", "text", "sans"]).filter(|f| !f.is_empty()) {
        let _ = write!(t, "--font-body:{f}, system-ui, sans-serif;");
    }
    if let Some(f) = family(&["display", "heading", "headline", "serif"]).filter(|f| !f.is_empty())
    {
        let _ = write!(t, "--font-heading:{f}, Georgia, serif;");
    }
    t
}

/// A favicon in the brand's colour (a neutral one on pages of no brand),
/// inline, so a page load asks for nothing more (before: a 404 for
/// `/favicon.ico` on every load). Only a hex colour gets into the URL.
fn icon_link(hex: Option<&str>) -> String {
    let hex = hex
        .and_then(|h| h.strip_prefix('#'))
        .filter(|h| matches!(h.len(), 6 | 8) && h.bytes().all(|b| b.is_ascii_hexdigit()))
        .unwrap_or("1b1f24");
    format!(
        "<link rel=\"icon\" href=\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='4' fill='%23{hex}'/%3E%3C/svg%3E\">"
    )
}

/// The path browsers and feed readers ask for an icon on their own.
pub const FAVICON_ICO: &str = "/favicon.ico";

/// `/favicon.ico`: the pages' neutral icon (as `icon_link` draws it), a 16 × 16
/// rounded square, as an ICO of one 32-bit bitmap, for the clients that ask
/// for it without reading a page (before: a 404 problem document).
pub fn favicon_ico() -> Vec<u8> {
    const SIZE: u32 = 16;
    let [r, g, b] = [0x1b_u8, 0x1f, 0x24];
    // Inside the square with corners of radius 4, at the pixel's centre.
    let inside = |x: u32, y: u32| {
        let corner = |v: u32| -> f64 {
            let c = f64::from(v) + 0.5;
            if c < 4.0 {
                4.0 - c
            } else if c > 12.0 {
                c - 12.0
            } else {
                0.0
            }
        };
        let (dx, dy) = (corner(x), corner(y));
        dx * dx + dy * dy <= 16.0
    };
    let mut pixels = Vec::new();
    // A bitmap's rows go bottom to top, each pixel blue, green, red, alpha.
    for y in (0..SIZE).rev() {
        for x in 0..SIZE {
            match inside(x, y) {
                true => pixels.extend_from_slice(&[b, g, r, 0xff]),
                false => pixels.extend_from_slice(&[0, 0, 0, 0]),
            }
        }
    }
    // The AND mask: all zero, the alpha channel decides (rows of 4 bytes).
    let mask = vec![0u8; (SIZE * 4) as usize];
    let image_len = 40 + pixels.len() + mask.len();
    let mut o = Vec::with_capacity(22 + image_len);
    // ICONDIR: reserved, type 1 (icon), one image.
    o.extend_from_slice(&[0, 0, 1, 0, 1, 0]);
    // ICONDIRENTRY: 16 × 16, no palette, 1 plane, 32 bits, size, offset 22.
    o.extend_from_slice(&[SIZE as u8, SIZE as u8, 0, 0, 1, 0, 32, 0]);
    o.extend_from_slice(&(image_len as u32).to_le_bytes());
    o.extend_from_slice(&22u32.to_le_bytes());
    // BITMAPINFOHEADER: the height counts the mask too.
    o.extend_from_slice(&40u32.to_le_bytes());
    o.extend_from_slice(&SIZE.to_le_bytes());
    o.extend_from_slice(&(SIZE * 2).to_le_bytes());
    o.extend_from_slice(&1u16.to_le_bytes());
    o.extend_from_slice(&32u16.to_le_bytes());
    o.extend_from_slice(&[0u8; 24]);
    o.extend_from_slice(&pixels);
    o.extend_from_slice(&mask);
    o
}

/// The head of a page, styled and iconed in `brand`'s colours and fonts
/// when it is a brand's.
fn head(
    out: &mut String,
    ctx: &Context,
    title: &str,
    description: &str,
    brand: Option<&Brand>,
    alternates: &[(&str, String)],
    slug: &str,
) {
    let theme = brand.map(theme).unwrap_or_default();
    let icon = brand.and_then(|b| {
        crate::render::view::accent(b).and_then(|p| crate::render::view::reference_hex(b, &p.token))
    });
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<meta name=\"description\" content=\"{}\">\n",
        html(title),
        html(description)
    );
    let _ = writeln!(out, "{}", icon_link(icon.as_deref()));
    for (ty, href) in alternates {
        let _ = writeln!(
            out,
            "<link rel=\"alternate\" type=\"{ty}\" href=\"{}\">",
            html(href)
        );
    }
    let _ = writeln!(
        out,
        "<link rel=\"stylesheet\" href=\"{}\">",
        html(&ctx.url(&assets::style().path))
    );
    if !theme.is_empty() {
        let _ = writeln!(out, "<style>:root{{{theme}}}</style>");
    }
    let _ = write!(out, "</head>\n<body data-marque-slug=\"{}\">\n", html(slug));
}

/// What the header says of a page only token holders read: that it is
/// private, or under embargo until when (in UTC, and in the reader's own
/// zone once the page's script has run), so no one shares it as public.
fn access_note(o: &mut String, access: Access) {
    match access {
        Access::Public => {}
        Access::Private => o.push_str("<p id=\"marque-access\" class=\"access\" role=\"note\"><strong>Private</strong> Only readers with an access token for this brand see this page: do not share it as public.</p>"),
        Access::Embargoed(until) => {
            let _ = write!(
                o,
                "<p id=\"marque-access\" class=\"access\" role=\"note\"><strong>Embargoed</strong> until <time datetime=\"{}\">{} UTC</time><span class=\"local\"></span>: not public before then; do not share it.</p>",
                until.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                until.format("%Y-%m-%d %H:%M")
            );
        }
    }
}

/// Closes the page: the footer, then the shared scripts.
fn foot(out: &mut String, ctx: &Context) {
    // The page's script names who is signed in, from the `marque_who`
    // cookie sign-in sets beside the session (see `page.js`).
    let sign_in = match ctx.sign_in {
        true => format!(
            " · <span id=\"marque-session\" data-signout=\"{}\"><a href=\"{}\">Sign in</a></span>",
            html(&ctx.url(paths::SIGN_OUT)),
            html(&ctx.url(paths::SIGN_IN))
        ),
        false => String::new(),
    };
    let _ = writeln!(
        out,
        "<footer>Served by marque. <a href=\"{}\">llms.txt</a> · <a href=\"{}\">brands.json</a> · <a href=\"{}\">brand.json schema</a> · <a href=\"{}\">OpenAPI</a>{sign_in}</footer>",
        html(&ctx.url(paths::LLMS_TXT)),
        html(&ctx.url(paths::BRANDS_JSON)),
        html(&ctx.schema_url()),
        html(&ctx.url(paths::OPENAPI))
    );
    for script in assets::scripts(ctx) {
        let _ = writeln!(
            out,
            "<script src=\"{}\"></script>",
            html(&ctx.url(&script.path))
        );
    }
    out.push_str("</body>\n</html>\n");
}

/// The brand's API page.
pub fn render(brand: &Brand, ctx: &Context) -> Page {
    render_page(brand, ctx, &[], None, Access::private_or_public(brand))
}

/// The API page of a published brand, with what its build said about its
/// version (a version step smaller than its changes, under `--semver
/// warn`) and what each release changed. A published brand has no errors,
/// so only such notes show.
pub fn render_with_notes(
    brand: &Brand,
    ctx: &Context,
    diagnostics: &[Diagnostic],
    changes: &SemanticChanges,
    access: Access,
) -> Page {
    render_page(brand, ctx, diagnostics, Some(changes), access)
}

/// A note about brand.json's `version`: what the semantic diff says of it.
fn is_version_note(d: &Diagnostic) -> bool {
    d.pointer == "/version" && d.file.ends_with("/brand.json")
}

/// The API page of a stale brand: its last good version, with the errors
/// that keep the new one from being published on top.
pub fn render_with_errors(brand: &Brand, ctx: &Context, diagnostics: &[Diagnostic]) -> Page {
    render_page(
        brand,
        ctx,
        diagnostics,
        None,
        Access::private_or_public(brand),
    )
}

/// The banner that lists a brand's errors (nothing when it has none).
fn banner(o: &mut String, title: &str, diagnostics: &[Diagnostic]) {
    let errors: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Error)
        .collect();
    if errors.is_empty() {
        return;
    }
    let _ = write!(
        o,
        "<aside id=\"marque-diagnostics\" role=\"alert\"><strong>{}</strong><ul>",
        html(title)
    );
    for d in errors {
        let _ = write!(
            o,
            "<li><code>{}:{}:{}</code> {}</li>",
            html(&d.file),
            d.line,
            d.column,
            crate::render::diff::code_spans(&d.message)
        );
    }
    o.push_str("</ul></aside>\n");
}

fn render_page(
    brand: &Brand,
    ctx: &Context,
    diagnostics: &[Diagnostic],
    changes: Option<&SemanticChanges>,
    access: Access,
) -> Page {
    let mut o = String::new();
    page_header(&mut o, brand, ctx, diagnostics, access);
    let mut snip = Snippets::default();
    for section in [
        voice,
        audience,
        logos,
        palette,
        contrast,
        typography,
        applications,
        prompt_kit,
        endpoints,
        use_patterns,
        apps::section,
        family::dependents,
    ] {
        section(&mut o, brand, ctx, &mut snip);
    }
    changelog(&mut o, brand, ctx, changes);
    contents(&mut o);
    o.push_str("</main>\n");
    foot(&mut o, ctx);
    page(o)
}

/// Puts a table of contents of the page's sections (those it has: a brand
/// without type styles has no Typography) at the top of `<main>`; page.js
/// marks the one being read.
fn contents(o: &mut String) {
    const OPEN: &str = "<section id=\"";
    let Some(main) = o.find("<main>\n").map(|i| i + "<main>\n".len()) else {
        return;
    };
    let mut links = String::new();
    let mut rest = &o[main..];
    let open = memchr::memmem::Finder::new(OPEN);
    while let Some(i) = open.find(rest.as_bytes()) {
        let after = &rest[i + OPEN.len()..];
        let Some((id, tail)) = after.split_once('"') else {
            break;
        };
        if let Some(title) = tail
            .strip_prefix("><h2>")
            .and_then(|t| t.split_once("</h2>"))
            .map(|(t, _)| t)
        {
            // Both were written by this module, escaped.
            let _ = write!(links, "<li><a href=\"#{id}\">{title}</a></li>");
        }
        rest = tail;
    }
    if !links.is_empty() {
        o.insert_str(
            main,
            &format!("<nav id=\"toc\" aria-label=\"On this page\"><ul>{links}</ul></nav>\n"),
        );
    }
}

/// The head, the error banner of a stale brand, and the header with the logo.
fn page_header(
    o: &mut String,
    brand: &Brand,
    ctx: &Context,
    diagnostics: &[Diagnostic],
    access: Access,
) {
    let doc = &brand.doc;
    let s = &brand.slug;
    let summary = doc.summary.clone().unwrap_or_default();
    head(
        o,
        ctx,
        &format!("{} · brand API", doc.name),
        &summary,
        Some(brand),
        &[
            ("text/markdown", ctx.brand_url(s, "spec.md")),
            ("application/json", ctx.brand_url(s, "spec.json")),
        ],
        s,
    );
    banner(
        o,
        "This brand has errors; the last good version is shown.",
        diagnostics,
    );
    for d in diagnostics
        .iter()
        .filter(|d| d.severity() == Severity::Warning && is_version_note(d))
    {
        let _ = writeln!(
            o,
            "<aside id=\"marque-version\" role=\"note\"><strong>Version {}</strong>: {}</aside>",
            html(&brand.version.to_string()),
            crate::render::diff::code_spans(&d.message)
        );
    }
    o.push_str("<header><div class=\"inner\">");
    if let Some(logo) = primary_logo(brand) {
        o.push_str("<picture>");
        if let Some(dark) = crate::render::view::dark_logo(brand) {
            let _ = write!(
                o,
                "<source media=\"(prefers-color-scheme: dark)\" srcset=\"{}\">",
                html(&ctx.brand_url(s, &dark.file))
            );
        }
        let _ = write!(
            o,
            "<img class=\"logo\" src=\"{}\" alt=\"{}\"></picture>",
            html(&ctx.brand_url(s, &logo.file)),
            html(&format!("{} logo", doc.name))
        );
    }
    let _ = write!(
        o,
        "<h1>{}</h1><p class=\"version\"><span>Spec version {}</span> <span>as of {}</span></p>",
        html(&doc.name),
        html(&brand.version.to_string()),
        brand.updated
    );
    access_note(o, access);
    if !summary.is_empty() {
        let _ = write!(o, "<p>{}</p>", html(&summary));
    }
    family::chain(o, brand, ctx);
    o.push_str("</div></header>\n<main>\n");
}

/// The releases, newest first, each linking to its pinned surfaces.
/// The releases, newest first, each with its notes and (with `changes`)
/// what it changed, and the Unreleased work ahead of them.
fn changelog(o: &mut String, brand: &Brand, ctx: &Context, changes: Option<&SemanticChanges>) {
    let s = &brand.slug;
    o.push_str("<section id=\"changelog\"><h2>Changelog</h2>");
    if ctx.pin.is_some() {
        let _ = write!(
            o,
            "<p>This is a released version; its documents never change. The current version is at <a href=\"{}\">{}</a>.</p>",
            html(&ctx.url(&paths::brand(s))),
            html(&ctx.url(&paths::brand(s)))
        );
    } else {
        let _ = write!(
            o,
            "<p>Releases are git tags <code>{}@&lt;version&gt;</code>. Also as <a href=\"{}\">changelog.md</a> and <a href=\"{}\">changelog.json</a>.</p>",
            html(s),
            html(&ctx.brand_url(s, paths::CHANGELOG_MD)),
            html(&ctx.brand_url(s, paths::CHANGELOG_JSON))
        );
        let ahead = crate::spec::release::unreleased(&brand.version, &brand.releases);
        let head = changes.and_then(SemanticChanges::head);
        if ahead.is_some() || head.is_some() {
            o.push_str("<h3>Unreleased</h3>");
            let _ = match (ahead, brand.releases.first()) {
                (Some(v), Some(last)) => write!(
                    o,
                    "<p>brand.json is at {}, ahead of the latest release {}.</p>",
                    html(&v.to_string()),
                    html(&last.version.to_string())
                ),
                (Some(v), None) => write!(
                    o,
                    "<p>brand.json is at {}; no release is tagged yet.</p>",
                    html(&v.to_string())
                ),
                (None, _) => write!(
                    o,
                    "<p>brand.json is still at {}, a released version: these changes need a new version.</p>",
                    html(&brand.version.to_string())
                ),
            };
            if let Some(d) = head {
                o.push_str(&crate::render::diff::sections_html(d));
            }
        }
        if brand.releases.is_empty() && ahead.is_none() {
            o.push_str("<p>No release is tagged yet.</p>");
        }
        for (i, r) in brand.releases.iter().enumerate() {
            let pinned = ctx.url(&paths::brand(&paths::brand_key(
                s,
                Some(&r.version.to_string()),
            )));
            let _ = write!(
                o,
                "<h3><a href=\"{}\">{}</a> <small>{}</small></h3>",
                html(&pinned),
                html(&r.version.to_string()),
                r.date
            );
            if let Some(previous) = brand.releases.get(i + 1) {
                let compare = ctx.brand_url(
                    s,
                    &format!("compare/{}...{}.md", previous.version, r.version),
                );
                let _ = write!(
                    o,
                    "<p><a href=\"{}\">What changed since {}</a></p>",
                    html(&compare),
                    html(&previous.version.to_string())
                );
            }
            if !r.notes.is_empty() {
                o.push_str("<ul>");
                for n in &r.notes {
                    let _ = write!(
                        o,
                        "<li>{}</li>",
                        html(n.trim_start_matches(['-', '*', ' ']))
                    );
                }
                o.push_str("</ul>");
            }
            if let Some(d) = changes.and_then(|c| c.of(r)) {
                o.push_str(&crate::render::diff::sections_html(d));
            }
        }
    }
    o.push_str("</section>\n");
}

/// A brand's state, as the index shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Ok,
    /// Served from its last good version; the latest has errors.
    Stale,
    /// Never valid: not served.
    Unpublished,
}

/// One row of the index: a brand folder, whether or not it is published.
pub struct IndexEntry<'a> {
    pub slug: &'a str,
    /// The version being served, if any.
    pub headline: Option<&'a super::Headline>,
    pub state: State,
    pub errors: usize,
}

/// One brand folder's row of the index.
pub fn index_row(e: &IndexEntry<'_>, ctx: &Context) -> String {
    let badge = match e.state {
        State::Ok => String::new(),
        State::Stale => format!(
            "<span class=\"badge stale\" title=\"the last good version is served\">stale: {} error(s)</span>",
            e.errors
        ),
        State::Unpublished => format!(
            "<span class=\"badge unpublished\">not published: {} error(s)</span>",
            e.errors
        ),
    };
    let page = html(&ctx.brand_url(e.slug, ""));
    match e.headline {
        Some(b) => {
            let links: Vec<String> = Surface::ALL
                .iter()
                .map(|f| {
                    format!(
                        "<a href=\"{}\">{}</a>",
                        html(&ctx.brand_url(e.slug, f.file())),
                        f.file()
                    )
                })
                .collect();
            format!(
                "<tr><td><a href=\"{page}\"><strong>{}</strong></a>{badge}<br><code class=\"slug\">{}</code><br>{}</td><td>{} as of {}</td><td>{}</td></tr>\n",
                html(&b.name),
                html(e.slug),
                html(b.summary.as_deref().unwrap_or("")),
                html(&b.version),
                html(&b.updated),
                links.join(" · ")
            )
        }
        None => format!(
            "<tr><td><a href=\"{page}\"><code>{}</code></a>{badge}</td><td>—</td><td>—</td></tr>\n",
            html(e.slug)
        ),
    }
}

/// The index page at `/`, listing every brand folder with its slug and
/// state, so two copies of a brand, or a broken new one, can be told apart.
pub fn render_index(entries: &[IndexEntry<'_>], ctx: &Context) -> Page {
    let rows: Vec<String> = entries.iter().map(|e| index_row(e, ctx)).collect();
    render_index_of(&rows.iter().map(String::as_str).collect::<Vec<_>>(), ctx)
}

/// The index page from each brand's row (see [`index_row`]).
pub fn render_index_of(rows: &[&str], ctx: &Context) -> Page {
    let mut o = String::new();
    head(
        &mut o,
        ctx,
        "Brand books · marque",
        "Machine-readable brand books: specs for language models, design tokens and prompt kits.",
        None,
        &[
            ("text/plain", ctx.url(paths::LLMS_TXT)),
            ("application/json", ctx.url(paths::BRANDS_JSON)),
        ],
        "",
    );
    o.push_str("<header><div class=\"inner\"><h1>Brand books</h1><p>Specs for language models, design tokens for code and Figma, and prompt kits: one URL each.</p></div></header>\n<main><section><table><thead><tr><th>Brand</th><th>Version</th><th>Surfaces</th></tr></thead><tbody>\n");
    for row in rows {
        o.push_str(row);
    }
    if rows.is_empty() {
        o.push_str("<tr><td colspan=\"3\">No brands are published yet.</td></tr>\n");
    }
    o.push_str("</tbody></table></section></main>\n");
    foot(&mut o, ctx);
    page(o)
}

/// `/codes`: every diagnostic code, by family, each row anchored by its
/// code (`#mq1501`), with what it means and how to fix it: the page
/// SARIF's `helpUri` and the pages' errors point at.
pub fn render_codes(ctx: &Context) -> Page {
    use crate::render::diff::code_spans;
    use crate::spec::diag::{Code, Family};
    let mut o = String::new();
    head(
        &mut o,
        ctx,
        "Diagnostic codes · marque",
        "Every code marque's checks give, what it means and how to fix it.",
        None,
        &[],
        "",
    );
    o.push_str("<header><div class=\"inner\"><h1>Diagnostic codes</h1><p>Every problem <code>marque check</code>, the server and SARIF report has one of these codes. A code never changes meaning.</p></div></header>\n<main>\n");
    for family in Family::ALL {
        let _ = writeln!(
            o,
            "<section><h2 id=\"mq{n}xx\">MQ{n}xx: {}</h2><table><thead><tr><th>Code</th><th>Name</th><th>Severity</th><th>What it means</th><th>How to fix it</th></tr></thead><tbody>",
            html(family.title()),
            n = family.number(),
        );
        for code in Code::ALL.iter().filter(|c| c.family() == family) {
            let _ = writeln!(
                o,
                "<tr id=\"{}\"><td><code>{}</code></td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                code.anchor(),
                code.as_str(),
                code.name(),
                code.severity().as_str(),
                code_spans(code.means()),
                code_spans(code.fix()),
            );
        }
        o.push_str("</tbody></table></section>\n");
    }
    o.push_str("</main>\n");
    foot(&mut o, ctx);
    page(o)
}

/// The page a browser gets at `/brand/<slug>` for a brand folder that is
/// not published: why, with every error and where it is.
pub fn render_unpublished(slug: &str, ctx: &Context, diagnostics: &[Diagnostic]) -> Page {
    let mut o = String::new();
    head(
        &mut o,
        ctx,
        &format!("{slug} · not published"),
        "This brand is not published because its content has errors.",
        None,
        &[],
        slug,
    );
    banner(
        &mut o,
        "This brand is not published: fix these errors and it will be.",
        diagnostics,
    );
    let _ = write!(
        o,
        "<header><div class=\"inner\"><h1><code>{}</code> is not published</h1><p>The folder <code>{}/</code> holds a brand.json, but the brand has errors, so none of its surfaces are served yet. Each error above names the file, line and column; <code>marque check</code> shows them with the source line.</p></div></header>\n<main><p><a href=\"{}\">All brands</a></p></main>\n",
        html(slug),
        html(slug),
        html(&ctx.url(paths::INDEX))
    );
    foot(&mut o, ctx);
    page(o)
}

#[cfg(test)]
mod tests;
