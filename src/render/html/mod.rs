//! The HTML pages: a brand's API page at `/brand/<slug>` and the index at `/`.
//!
//! Self-contained (no external fonts, styles or scripts), styled with the
//! brand's own tokens, every content string escaped with `escape::html`.
//! Pages ship a Content-Security-Policy that allows only their own inline
//! script (by hash), so even a missed escape could not run script.

use super::changelog::SemanticChanges;
use super::embed::primary_logo;
use super::escape::html;
use super::spec_json::reference_value;
use super::{Context, Surface};
use crate::paths;
use crate::spec::{Brand, Diagnostic, Severity};
use sha2::{Digest, Sha256};
use std::fmt::Write;

mod sections;
use sections::{
    applications, audience, contrast, endpoints, logos, palette, prompt_kit, typography,
    use_patterns, voice, Snippets,
};

const PAGE_SCRIPT: &str = include_str!("page.js");
/// Added in watch mode: reload on a new snapshot, show a stale brand's errors.
const LIVE_SCRIPT: &str = include_str!("live.js");

fn page_script(ctx: &Context) -> String {
    if ctx.live_reload {
        format!("{PAGE_SCRIPT}{LIVE_SCRIPT}")
    } else {
        PAGE_SCRIPT.to_string()
    }
}

/// A rendered page and the Content-Security-Policy it needs.
pub struct Page {
    pub body: String,
    pub csp: String,
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |acc, (i, b)| acc | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The CSP of a page whose only inline script is `script` (plus same-origin embed scripts).
pub fn csp(script: &str) -> String {
    let hash = base64(&Sha256::digest(script.as_bytes()));
    format!(
        "default-src 'none'; script-src 'self' 'sha256-{hash}'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *"
    )
}

/// The theme of a page: CSS declarations for the page's own custom properties.
fn theme(brand: &Brand) -> String {
    let value_of = |reference: &str| reference_value(&brand.tokens, reference);
    let accent = crate::render::embed::accent(brand).map(|p| value_of(&p.token));
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

const STYLE: &str = "*{box-sizing:border-box}\
:root{color-scheme:light dark;--bg:#fbfbfa;--fg:#1b1f24;--muted:#4b5560;--panel:#fff;--code:#f1f3f5;--line:#d9dde1;--link:#0b5cad}\
@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9da7b3;--panel:#161b22;--code:#161b22;--line:#30363d;--link:#7cb4ff}}\
body{margin:0;font:16px/1.55 var(--font-body,system-ui,sans-serif);color:var(--fg);background:var(--bg);overflow-wrap:anywhere}\
header{background:var(--panel);border-bottom:6px solid var(--accent,var(--fg));padding:32px 24px}\
header .inner{max-width:980px;margin:0 auto}\
main,footer{max-width:1028px;margin:0 auto;padding:8px 24px 48px}\
h1,h2,h3{font-family:var(--font-heading,var(--font-body,system-ui));line-height:1.2}\
h1{font-size:2.2rem;margin:8px 0}\
.version{font-weight:600;margin:0 0 8px}\
.version span{white-space:nowrap}\
.logo{max-height:56px;max-width:260px}\
section{margin-top:40px}\
table{border-collapse:collapse;width:100%;font-size:.95rem}\
th,td{text-align:left;padding:8px;border-bottom:1px solid var(--line);vertical-align:top}\
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.88rem}\
pre{background:var(--code);border:1px solid var(--line);border-radius:8px;padding:12px;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere;margin:0}\
.snippet{position:relative;margin:8px 0 16px}\
.snippet pre{padding-right:76px}\
button{font:inherit;font-size:.8rem;padding:2px 8px;border:1px solid var(--muted);border-radius:6px;background:var(--panel);color:var(--fg);cursor:pointer}\
.snippet button{position:absolute;top:6px;right:6px}\
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(190px,1fr));gap:16px;list-style:none;padding:0;margin:0}\
.tile{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:12px;min-width:0;font-size:.9rem}\
.tile p{margin:4px 0}\
.chip{height:64px;border-radius:8px;border:1px solid rgba(127,127,127,.35);margin-bottom:8px}\
.chip.scheme{background:var(--c)}#palette[data-scheme=dark] .chip.scheme{background:var(--cd)}@media (prefers-color-scheme:dark){#palette:not([data-scheme=light]) .chip.scheme{background:var(--cd)}}.scheme-switch button[aria-pressed=true]{font-weight:600;text-decoration:underline}\
.in-context{display:flex;flex-wrap:wrap;align-items:center;gap:4px 6px;margin:4px 0}.in-context>*{white-space:nowrap;overflow-wrap:normal;word-break:normal}.dot{width:18px;height:18px;border-radius:50%;border:1px solid rgba(127,127,127,.35);flex:none}\
.muted{color:var(--muted)}\
.stage{display:flex;align-items:center;justify-content:center;height:120px;border-radius:8px;margin-bottom:8px;border:1px solid var(--line)}\
.stage img{max-width:80%;max-height:64px}\
.on-light{background:#fff}.on-dark{background:#1b1f24}\
.on-any{background:repeating-conic-gradient(#d9dde1 0 25%,#fff 0 50%) 0 0/16px 16px}\
.pair{display:flex;align-items:center;justify-content:center;height:72px;border-radius:8px;font-size:1.6rem;font-weight:600;margin-bottom:8px;border:1px solid var(--line)}\
.verdict{display:inline-block;font-size:.78rem;font-weight:700;border-radius:999px;padding:1px 8px}\
.verdict.pass{background:#dafbe1;color:#0a5c21}.verdict.fail{background:#ffebe9;color:#8a1111}\
.specimen{margin:8px 0 20px;padding-bottom:12px;border-bottom:1px solid var(--line)}\
.specimen .sample{margin:4px 0}\
.dos{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:8px 24px}\
.dos ul{margin:4px 0;padding-left:20px}\
form.try label{display:block;margin:8px 0 2px;font-weight:600;font-size:.9rem}\
form.try input,form.try textarea{width:100%;max-width:40rem;font:inherit;padding:6px 8px;border:1px solid var(--line);border-radius:6px;background:var(--panel);color:var(--fg)}\
form.try button{display:block;margin-top:8px;font-size:.95rem;padding:4px 14px}\
form.try output{display:block;margin-top:8px}\
code.media{white-space:nowrap;overflow-wrap:normal}\
nav#toc{position:sticky;top:0;z-index:2;background:var(--bg);border-bottom:1px solid var(--line);overflow-x:auto;scrollbar-width:thin;margin:0 -24px;padding:0 24px}\
nav#toc ul{display:flex;width:max-content;gap:18px;list-style:none;margin:0;padding:10px 0;white-space:nowrap;font-size:.9rem}\
nav#toc a{text-decoration:none}\
nav#toc a[aria-current]{font-weight:700;text-decoration:underline}\
section[id]{scroll-margin-top:52px}\
.font-note{font-size:.85rem}\
form.try output[data-state]{border:1px solid var(--line);border-left:4px solid var(--link);border-radius:6px;padding:8px 12px;background:var(--panel)}\
form.try output[data-state=refused]{border-left-color:#b42318}\
form.try output[data-state=dry-run]{border-left-color:#b28704}\
form.try output .label{font-weight:600;margin:6px 0 2px}\
form.try button:disabled{opacity:.6;cursor:progress}\
.preview{padding:16px;border:1px dashed var(--muted);border-radius:8px;background:var(--panel)}\
a{color:var(--link)}\
footer{color:var(--muted);font-size:.9rem}\
#marque-diagnostics{background:#fff4e5;border-bottom:3px solid #b54708;padding:12px 24px;color:#3d1f00}\
#marque-diagnostics ul{margin:8px 0 0;padding-left:20px}\
#marque-version,#marque-changed{background:#fff8e1;border-bottom:3px solid #b28704;padding:12px 24px;color:#3d2e00}\
.badge{display:inline-block;font-size:.78rem;font-weight:600;border-radius:999px;padding:1px 8px;margin-left:6px;vertical-align:middle}\
.badge.stale{background:#fff4e5;color:#8a3a00;border:1px solid #e8a86b}\
.badge.unpublished{background:#fdecec;color:#8a1111;border:1px solid #e59a9a}\
.slug{color:var(--muted);font-size:.85rem}\
@media (max-width:640px){thead{position:absolute;left:-9999px}th,td{display:block;border:0;padding:4px 0}tr{display:block;border-bottom:1px solid var(--line);padding:8px 0}}";

fn head(
    out: &mut String,
    title: &str,
    description: &str,
    theme: &str,
    alternates: &[(&str, String)],
    slug: &str,
) {
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<meta name=\"description\" content=\"{}\">\n",
        html(title),
        html(description)
    );
    for (ty, href) in alternates {
        let _ = writeln!(
            out,
            "<link rel=\"alternate\" type=\"{ty}\" href=\"{}\">",
            html(href)
        );
    }
    let _ = write!(
        out,
        "<style>:root{{{theme}}}{STYLE}</style>\n</head>\n<body data-marque-slug=\"{}\">\n",
        html(slug)
    );
}

/// Closes the page and returns its Content-Security-Policy.
fn foot(out: &mut String, ctx: &Context) -> String {
    let script = page_script(ctx);
    let _ = write!(
        out,
        "<footer>Served by marque. <a href=\"{}\">llms.txt</a> · <a href=\"{}\">brands.json</a> · <a href=\"{}\">brand.json schema</a> · <a href=\"{}\">OpenAPI</a></footer>\n<script>{script}</script>\n</body>\n</html>\n",
        html(&ctx.url(paths::LLMS_TXT)),
        html(&ctx.url(paths::BRANDS_JSON)),
        html(&ctx.schema_url()),
        html(&ctx.url(paths::OPENAPI))
    );
    csp(&script)
}

/// The brand's API page.
pub fn render(brand: &Brand, ctx: &Context) -> Page {
    render_page(brand, ctx, &[], None)
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
) -> Page {
    render_page(brand, ctx, diagnostics, Some(changes))
}

/// A note about brand.json's `version`: what the semantic diff says of it.
fn is_version_note(d: &Diagnostic) -> bool {
    d.pointer == "/version" && d.file.ends_with("/brand.json")
}

/// The API page of a stale brand: its last good version, with the errors
/// that keep the new one from being published on top.
pub fn render_with_errors(brand: &Brand, ctx: &Context, diagnostics: &[Diagnostic]) -> Page {
    render_page(brand, ctx, diagnostics, None)
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
            html(&d.message)
        );
    }
    o.push_str("</ul></aside>\n");
}

fn render_page(
    brand: &Brand,
    ctx: &Context,
    diagnostics: &[Diagnostic],
    changes: Option<&SemanticChanges>,
) -> Page {
    let mut o = String::new();
    page_header(&mut o, brand, ctx, diagnostics);
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
    ] {
        section(&mut o, brand, ctx, &mut snip);
    }
    changelog(&mut o, brand, ctx, changes);
    contents(&mut o);
    o.push_str("</main>\n");
    let csp = foot(&mut o, ctx);
    Page { body: o, csp }
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
    while let Some(i) = rest.find(OPEN) {
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
fn page_header(o: &mut String, brand: &Brand, ctx: &Context, diagnostics: &[Diagnostic]) {
    let doc = &brand.doc;
    let s = &brand.slug;
    let summary = doc.summary.clone().unwrap_or_default();
    head(
        o,
        &format!("{} · brand API", doc.name),
        &summary,
        &theme(brand),
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
            html(&d.message)
        );
    }
    o.push_str("<header><div class=\"inner\">");
    if let Some(logo) = primary_logo(brand) {
        o.push_str("<picture>");
        if let Some(dark) = crate::render::embed::dark_logo(brand) {
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
    if !summary.is_empty() {
        let _ = write!(o, "<p>{}</p>", html(&summary));
    }
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
        "Brand books · marque",
        "Machine-readable brand books: specs for language models, design tokens and prompt kits.",
        "",
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
    let csp = foot(&mut o, ctx);
    Page { body: o, csp }
}

/// The page a browser gets at `/brand/<slug>` for a brand folder that is
/// not published: why, with every error and where it is.
pub fn render_unpublished(slug: &str, ctx: &Context, diagnostics: &[Diagnostic]) -> Page {
    let mut o = String::new();
    head(
        &mut o,
        &format!("{slug} · not published"),
        "This brand is not published because its content has errors.",
        "",
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
    let csp = foot(&mut o, ctx);
    Page { body: o, csp }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648_vectors() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }
}
