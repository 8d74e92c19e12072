//! The HTML pages: a brand's API page at `/brand/<slug>` and the index at `/`.
//!
//! Self-contained (no external fonts, styles or scripts), styled with the
//! brand's own tokens, every content string escaped with `escape::html`.
//! Pages ship a Content-Security-Policy that allows only their own inline
//! script (by hash), so even a missed escape could not run script.

use super::css::{self, Refs};
use super::embed::{primary_logo, reference_hex};
use super::escape::html;
use super::spec_json::reference_value;
use super::{Context, Surface};
use crate::spec::{Brand, Diagnostic, Severity};
use sha2::{Digest, Sha256};
use std::fmt::Write;

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
    let palette = &brand.doc.color.palette;
    let accent = palette
        .iter()
        .find(|p| matches!(p.role.as_deref(), Some("brand" | "primary")))
        .or(palette.first())
        .map(|p| value_of(&p.token));
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
body{margin:0;font:16px/1.55 var(--font-body,system-ui,sans-serif);color:#1b1f24;background:#fbfbfa}\
header{background:#fff;border-bottom:6px solid var(--accent,#1b1f24);padding:32px 24px}\
header .inner,main,footer{max-width:980px;margin:0 auto}\
h1,h2,h3{font-family:var(--font-heading,var(--font-body,system-ui));line-height:1.2}\
h1{font-size:2.2rem;margin:8px 0}\
.version{font-weight:600;margin:0 0 8px}\
.logo{max-height:56px;max-width:260px}\
main{padding:8px 24px 48px}\
section{margin-top:40px}\
table{border-collapse:collapse;width:100%;font-size:.95rem}\
th,td{text-align:left;padding:8px;border-bottom:1px solid #d9dde1;vertical-align:top}\
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.88rem}\
pre{background:#f1f3f5;border:1px solid #d9dde1;border-radius:8px;padding:12px;overflow-x:auto;white-space:pre-wrap;word-break:break-all;margin:0}\
.snippet{position:relative;margin:8px 0 16px}\
.snippet pre{padding-right:76px}\
.snippet button{position:absolute;top:6px;right:6px;font:inherit;font-size:.8rem;padding:2px 8px;border:1px solid #9aa4ad;border-radius:6px;background:#fff;cursor:pointer}\
.swatches{display:flex;flex-wrap:wrap;gap:12px;list-style:none;padding:0}\
.swatches li{width:120px;font-size:.85rem}\
.chip{height:56px;border-radius:8px;border:1px solid rgba(0,0,0,.15)}\
.preview{padding:16px;border:1px dashed #9aa4ad;border-radius:8px;background:#fff}\
a{color:#0b5cad}\
footer{padding:24px;color:#4b5560;font-size:.9rem}\
#marque-diagnostics{background:#fff4e5;border-bottom:3px solid #b54708;padding:12px 24px;color:#3d1f00}\
#marque-diagnostics ul{margin:8px 0 0;padding-left:20px}\
.badge{display:inline-block;font-size:.78rem;font-weight:600;border-radius:999px;padding:1px 8px;margin-left:6px;vertical-align:middle}\
.badge.stale{background:#fff4e5;color:#8a3a00;border:1px solid #e8a86b}\
.badge.unpublished{background:#fdecec;color:#8a1111;border:1px solid #e59a9a}\
.slug{color:#4b5560;font-size:.85rem}\
@media (max-width:640px){th,td{display:block;border:0;padding:4px 0}tr{display:block;border-bottom:1px solid #d9dde1;padding:8px 0}}";

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

struct Snippets {
    next: usize,
}

impl Snippets {
    /// A copyable code block.
    fn code(&mut self, out: &mut String, code: &str) {
        self.next += 1;
        let id = format!("snippet-{}", self.next);
        let _ = write!(
            out,
            "<div class=\"snippet\"><pre><code id=\"{id}\">{}</code></pre><button type=\"button\" data-copy=\"{id}\">Copy</button></div>",
            html(code)
        );
    }
}

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
        html(&ctx.url("/llms.txt")),
        html(&ctx.url("/brands.json")),
        html(&ctx.schema_url()),
        html(&ctx.url("/openapi.json"))
    );
    csp(&script)
}

/// The brand's API page.
pub fn render(brand: &Brand, ctx: &Context) -> Page {
    render_page(brand, ctx, &[])
}

/// The API page of a stale brand: its last good version, with the errors
/// that keep the new one from being published on top.
pub fn render_with_errors(brand: &Brand, ctx: &Context, diagnostics: &[Diagnostic]) -> Page {
    render_page(brand, ctx, diagnostics)
}

/// The banner that lists a brand's errors (nothing when it has none).
fn banner(o: &mut String, title: &str, diagnostics: &[Diagnostic]) {
    let errors: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.severity == Severity::Error)
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

fn render_page(brand: &Brand, ctx: &Context, diagnostics: &[Diagnostic]) -> Page {
    let mut o = String::new();
    page_header(&mut o, brand, ctx, diagnostics);
    let mut snip = Snippets { next: 0 };
    for section in [endpoints, use_patterns, prompt_kit, palette, typography] {
        section(&mut o, brand, ctx, &mut snip);
    }
    changelog(&mut o, brand, ctx);
    o.push_str("</main>\n");
    let csp = foot(&mut o, ctx);
    Page { body: o, csp }
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
    o.push_str("<header><div class=\"inner\">");
    if let Some(logo) = primary_logo(brand) {
        let _ = write!(
            o,
            "<img class=\"logo\" src=\"{}\" alt=\"{}\">",
            html(&ctx.brand_url(s, &logo.file)),
            html(&format!("{} logo", doc.name))
        );
    }
    let _ = write!(
        o,
        "<h1>{}</h1><p class=\"version\">Spec version {} as of {}</p>",
        html(&doc.name),
        html(&brand.version.to_string()),
        brand.updated
    );
    if !summary.is_empty() {
        let _ = write!(o, "<p>{}</p>", html(&summary));
    }
    o.push_str("</div></header>\n<main>\n");
}

/// The table of every published surface with an example request.
fn endpoints(o: &mut String, brand: &Brand, ctx: &Context, snip: &mut Snippets) {
    let s = &brand.slug;
    o.push_str("<section id=\"endpoints\"><h2>Endpoints</h2><p>Public, cacheable, CORS-enabled documents. Every response has a strong ETag and is served gzip- or brotli-compressed on request.</p><table><thead><tr><th>Surface</th><th>Media type</th><th>Example</th></tr></thead><tbody>\n");
    let mut endpoints: Vec<(String, &str, String)> = Surface::ALL
        .iter()
        .map(|sf| {
            (
                format!("{}: {}", sf.file(), sf.label()),
                sf.media_type().split(';').next().unwrap_or(""),
                ctx.brand_url(s, sf.file()),
            )
        })
        .collect();
    endpoints.push(("Embed script".into(), "text/javascript", ctx.embed_url(s)));
    endpoints.push(("This page".into(), "text/html", ctx.brand_url(s, "")));
    endpoints.push((
        "The whole HTTP API, described (OpenAPI 3.1)".into(),
        "application/json",
        ctx.url("/openapi.json"),
    ));
    for (label, media, url) in &endpoints {
        let _ = write!(
            o,
            "<tr><td><a href=\"{}\">{}</a></td><td><code>{media}</code></td><td>",
            html(url),
            html(label)
        );
        snip.code(o, &format!("curl -sS --compressed {url}"));
        o.push_str("</td></tr>\n");
    }
    let demo_url = ctx.demo_url(s);
    let _ = write!(
        o,
        "<tr><td>Prompt demo (POST, rate limited)</td><td><code>application/json</code></td><td>See <a href=\"#prompts\">Prompt kit</a>: <code>{}</code></td></tr>\n</tbody></table></section>\n",
        html(&demo_url)
    );
}

/// Four ways to use the brand, each with a copyable example.
fn use_patterns(o: &mut String, brand: &Brand, ctx: &Context, snip: &mut Snippets) {
    let s = &brand.slug;
    o.push_str("<section id=\"use\"><h2>Use this brand</h2>\n");
    o.push_str("<h3 id=\"use-llm\">1. Give a language model the brand</h3><p>spec.md carries every fact of the spec as prose. Use it as the system prompt:</p>");
    snip.code(
        o,
        &format!(
            "SPEC=\"$(curl -sS {})\"\n# then send it as the system message of your chat request",
            ctx.brand_url(s, "spec.md")
        ),
    );
    o.push_str("<h3 id=\"use-css\">2. Style a page with the design tokens</h3><p>Every token is a CSS custom property on <code>:root</code>:</p>");
    snip.code(
        o,
        &format!(
            "<link rel=\"stylesheet\" href=\"{}\">",
            ctx.brand_url(s, "tokens.css")
        ),
    );
    if let Some(t) = brand.tokens.tokens.first() {
        snip.code(
            o,
            &format!(
                ".button {{ color: var(--{}); }}",
                crate::spec::brand::css_name(&t.path)
            ),
        );
    }
    let embed_url = ctx.embed_url(s);
    o.push_str("<h3 id=\"use-embed\">3. Embed the live brand card</h3><p>Paste this anywhere; the card follows every published change:</p>");
    snip.code(
        o,
        &format!(
            "<div data-marque-brand=\"{s}\"></div>\n<script async src=\"{embed_url}\"></script>"
        ),
    );
    let _ = writeln!(
        o,
        "<p>Preview:</p><div class=\"preview\"><div data-marque-brand=\"{}\"></div></div><script async src=\"{}\"></script>",
        html(s),
        html(&embed_url)
    );
    o.push_str("<h3 id=\"use-demo\">4. Run a prompt from the prompt kit</h3><p>Each prompt below has a ready-made call. Without an API key on the server, the demo runs dry and returns the exact messages it would send.</p>\n");
    if ctx.mcp {
        o.push_str("<h3 id=\"use-mcp\">Also: connect an AI agent over MCP</h3><p>This server speaks the Model Context Protocol: every surface is a resource, every prompt of the kit a prompt, and tools find tokens and check contrast.</p>");
        snip.code(
            o,
            &format!("claude mcp add --transport http marque {}", ctx.url("/mcp")),
        );
    }
    o.push_str("<h3 id=\"use-figma\">Also: load the tokens into Figma</h3>");
    snip.code(
        o,
        &format!(
            "curl -sS {} -o tokens.figma.json\ncurl -sS -X POST -H \"X-Figma-Token: $FIGMA_TOKEN\" -H 'Content-Type: application/json' \\\n  --data @tokens.figma.json https://api.figma.com/v1/files/$FILE_KEY/variables",
            ctx.brand_url(s, "tokens.figma.json")
        ),
    );
    o.push_str("</section>\n");
}

/// Each prompt with its variables and a copyable demo call.
fn prompt_kit(o: &mut String, brand: &Brand, ctx: &Context, snip: &mut Snippets) {
    let doc = &brand.doc;
    let demo_url = ctx.demo_url(&brand.slug);
    o.push_str("<section id=\"prompts\"><h2>Prompt kit</h2>\n");
    if doc.prompt_kit.prompts.is_empty() {
        o.push_str("<p>This brand has no prompts yet.</p>\n");
    }
    for p in &doc.prompt_kit.prompts {
        let _ = write!(
            o,
            "<article id=\"prompt-{}\"><h3>{}</h3><p><code>{}</code></p>",
            html(&p.id),
            html(p.title.as_deref().unwrap_or(&p.id)),
            html(&p.id)
        );
        if let Some(d) = &p.description {
            let _ = write!(o, "<p>{}</p>", html(d));
        }
        if !p.variables.is_empty() {
            o.push_str("<table><thead><tr><th>Variable</th><th>Required</th><th>Max length</th><th>Description</th></tr></thead><tbody>");
            for v in &p.variables {
                let _ = write!(
                    o,
                    "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                    html(&v.name),
                    if v.required { "yes" } else { "no" },
                    v.max_length,
                    html(v.description.as_deref().unwrap_or(""))
                );
            }
            o.push_str("</tbody></table>");
        }
        let vars: serde_json::Map<String, serde_json::Value> = p
            .variables
            .iter()
            .filter(|v| v.required || v.example.is_some())
            .map(|v| {
                (
                    v.name.clone(),
                    serde_json::Value::String(v.example.clone().unwrap_or_default()),
                )
            })
            .collect();
        let body = serde_json::json!({"promptId": p.id, "variables": vars}).to_string();
        snip.code(
            o,
            &format!(
                "curl -sS -X POST {demo_url} \\\n  -H 'content-type: application/json' \\\n  -d {}",
                shell_quote(&body)
            ),
        );
        o.push_str("</article>\n");
    }
    o.push_str("</section>\n");
}

/// The palette as swatches.
fn palette(o: &mut String, brand: &Brand, _ctx: &Context, _snip: &mut Snippets) {
    let doc = &brand.doc;
    if !doc.color.palette.is_empty() {
        o.push_str("<section id=\"palette\"><h2>Palette</h2><ul class=\"swatches\">");
        for p in &doc.color.palette {
            let value = reference_value(&brand.tokens, &p.token);
            let hex = reference_hex(brand, &p.token).unwrap_or_default();
            let _ = write!(
                o,
                "<li><div class=\"chip\" style=\"background:{}\"></div><strong>{}</strong><br><code>{}</code><br><code>{}</code></li>",
                html(&value),
                html(&p.name),
                html(&hex),
                html(&p.token)
            );
        }
        o.push_str("</ul></section>\n");
    }
}

/// Typeface roles, each set in its own family.
fn typography(o: &mut String, brand: &Brand, _ctx: &Context, _snip: &mut Snippets) {
    let doc = &brand.doc;
    if !doc.typography.families.is_empty() {
        o.push_str("<section id=\"typography\"><h2>Typography</h2><table><thead><tr><th>Role</th><th>Family</th><th>Usage</th></tr></thead><tbody>");
        for f in &doc.typography.families {
            let family = brand
                .tokens
                .resolve_reference(&f.token)
                .map(|v| css::value(v, &brand.tokens, Refs::Resolve))
                .unwrap_or_default();
            let _ = write!(
                o,
                "<tr><td>{}</td><td><span style=\"font-family:{}\">{}</span></td><td>{}</td></tr>",
                html(&f.role),
                html(&family),
                html(&family),
                html(f.usage.as_deref().unwrap_or(""))
            );
        }
        o.push_str("</tbody></table></section>\n");
    }
}

/// The releases, newest first, each linking to its pinned surfaces.
fn changelog(o: &mut String, brand: &Brand, ctx: &Context) {
    let s = &brand.slug;
    o.push_str("<section id=\"changelog\"><h2>Changelog</h2>");
    if ctx.pin.is_some() {
        let _ = write!(
            o,
            "<p>This is a released version; its documents never change. The current version is at <a href=\"{}\">{}</a>.</p>",
            html(&ctx.url(&format!("/brand/{s}"))),
            html(&ctx.url(&format!("/brand/{s}")))
        );
    } else {
        let _ = write!(
            o,
            "<p>Releases are git tags <code>{}@&lt;version&gt;</code>. Also as <a href=\"{}\">changelog.md</a> and <a href=\"{}\">changelog.json</a>.</p>",
            html(s),
            html(&ctx.brand_url(s, "changelog.md")),
            html(&ctx.brand_url(s, "changelog.json"))
        );
        if let Some(v) = crate::spec::release::unreleased(&brand.version, &brand.releases) {
            let _ = write!(o, "<h3>Unreleased: {}</h3>", html(&v.to_string()));
        }
        if brand.releases.is_empty() {
            o.push_str("<p>No release is tagged yet.</p>");
        }
        for (i, r) in brand.releases.iter().enumerate() {
            let pinned = ctx.url(&format!("/brand/{s}@{}", r.version));
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
            ("text/plain", ctx.url("/llms.txt")),
            ("application/json", ctx.url("/brands.json")),
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
        html(&ctx.url("/"))
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
