//! The HTML pages: a brand's API page at `/brand/<slug>` and the index at `/`.
//!
//! Self-contained (no external fonts, styles or scripts), styled with the
//! brand's own tokens, every content string escaped with `escape::html`.
//! Pages ship a Content-Security-Policy that allows only their own inline
//! script (by hash), so even a missed escape could not run script.

use super::embed::{primary_logo, reference_hex};
use super::escape::html;
use super::spec_json::reference_value;
use super::{Context, Surface};
use crate::paths;
use crate::spec::tokens::css::{self, Refs};
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
form.try input,form.try textarea{width:100%;font:inherit;padding:6px 8px;border:1px solid var(--line);border-radius:6px;background:var(--panel);color:var(--fg)}\
form.try button{margin-top:8px;font-size:.95rem;padding:4px 14px}\
form.try output{display:block;margin-top:8px}\
.preview{padding:16px;border:1px dashed var(--muted);border-radius:8px;background:var(--panel)}\
a{color:var(--link)}\
footer{color:var(--muted);font-size:.9rem}\
#marque-diagnostics{background:#fff4e5;border-bottom:3px solid #b54708;padding:12px 24px;color:#3d1f00}\
#marque-diagnostics ul{margin:8px 0 0;padding-left:20px}\
.badge{display:inline-block;font-size:.78rem;font-weight:600;border-radius:999px;padding:1px 8px;margin-left:6px;vertical-align:middle}\
.badge.stale{background:#fff4e5;color:#8a3a00;border:1px solid #e8a86b}\
.badge.unpublished{background:#fdecec;color:#8a1111;border:1px solid #e59a9a}\
.slug{color:var(--muted);font-size:.85rem}\
@media (max-width:640px){thead{position:absolute;left:-9999px}th,td{display:block;border:0;padding:4px 0}tr{display:block;border-bottom:1px solid var(--line);padding:8px 0}}";

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
                crate::spec::tokens::css::css_name(&t.path)
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
        try_form(o, &demo_url, p);
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

/// A form that runs the prompt through the demo endpoint, its fields filled
/// with the examples (page.js sends it; without script nothing is sent).
fn try_form(o: &mut String, demo_url: &str, p: &crate::spec::model::Prompt) {
    let _ = write!(
        o,
        "<form class=\"try\" data-demo=\"{}\" data-prompt=\"{}\">",
        html(demo_url),
        html(&p.id)
    );
    for v in &p.variables {
        let id = format!("try-{}-{}", p.id, v.name);
        let _ = write!(
            o,
            "<label for=\"{}\"><code>{}</code> <span class=\"muted\">{}, at most {} characters{}</span></label>",
            html(&id),
            html(&v.name),
            if v.required { "required" } else { "optional" },
            v.max_length,
            html(&v.description.as_deref().map(|d| format!(". {d}")).unwrap_or_default())
        );
        let example = html(v.example.as_deref().unwrap_or(""));
        let required = if v.required { " required" } else { "" };
        if v.max_length > 200 {
            let _ = write!(
                o,
                "<textarea id=\"{}\" name=\"{}\" maxlength=\"{}\" rows=\"3\"{required}>{example}</textarea>",
                html(&id),
                html(&v.name),
                v.max_length
            );
        } else {
            let _ = write!(
                o,
                "<input id=\"{}\" name=\"{}\" maxlength=\"{}\" value=\"{example}\"{required}>",
                html(&id),
                html(&v.name),
                v.max_length
            );
        }
    }
    o.push_str(
        "<button type=\"submit\">Try it</button><output aria-live=\"polite\"></output></form>",
    );
}

/// A voice trait or a medium: its heading, its text, its dos and don'ts.
fn guidance(o: &mut String, title: &str, text: Option<&str>, dos: &[String], donts: &[String]) {
    let _ = write!(o, "<h3>{}</h3>", html(title));
    if let Some(t) = text {
        let _ = write!(o, "<p>{}</p>", html(t));
    }
    o.push_str("<div class=\"dos\">");
    ul(o, "Do", dos);
    ul(o, "Don't", donts);
    o.push_str("</div>");
}

/// `<ul>` of `items`, or nothing.
fn ul(o: &mut String, label: &str, items: &[String]) {
    if items.is_empty() {
        return;
    }
    let _ = write!(o, "<div><strong>{}</strong><ul>", html(label));
    for i in items {
        let _ = write!(o, "<li>{}</li>", html(i));
    }
    o.push_str("</ul></div>");
}

/// Voice: its summary, each trait with its dos and don'ts, the vocabulary
/// and the examples.
fn voice(o: &mut String, brand: &Brand, _ctx: &Context, _snip: &mut Snippets) {
    let v = &brand.doc.voice;
    o.push_str("<section id=\"voice\"><h2>Voice</h2>");
    if let Some(s) = &v.summary {
        let _ = write!(o, "<p>{}</p>", html(s));
    }
    for t in &v.traits {
        guidance(o, &t.name, t.description.as_deref(), &t.r#do, &t.dont);
    }
    let vocab = &v.vocabulary;
    if !vocab.prefer.is_empty() || !vocab.avoid.is_empty() {
        o.push_str("<h3>Words</h3><div class=\"dos\">");
        let prefer: Vec<String> = vocab
            .prefer
            .iter()
            .map(|p| format!("{} (not {})", p.term, p.instead_of.join(", ")))
            .collect();
        ul(o, "Prefer", &prefer);
        ul(o, "Never say", &vocab.avoid);
        o.push_str("</div>");
    }
    if !v.examples.is_empty() {
        o.push_str("<h3>Examples</h3><ul class=\"grid\">");
        for e in &v.examples {
            o.push_str("<li class=\"tile\">");
            if let Some(c) = &e.context {
                let _ = write!(o, "<p class=\"muted\">{}</p>", html(c));
            }
            let _ = write!(
                o,
                "<p><span class=\"verdict pass\">Good</span> {}</p>",
                html(&e.good)
            );
            if let Some(b) = &e.bad {
                let _ = write!(
                    o,
                    "<p><span class=\"verdict fail\">Bad</span> {}</p>",
                    html(b)
                );
            }
            o.push_str("</li>");
        }
        o.push_str("</ul>");
    }
    o.push_str("</section>\n");
}

/// Audience: summary and segments with their needs.
fn audience(o: &mut String, brand: &Brand, _ctx: &Context, _snip: &mut Snippets) {
    let a = &brand.doc.audience;
    if a.summary.is_none() && a.segments.is_empty() {
        return;
    }
    o.push_str("<section id=\"audience\"><h2>Audience</h2>");
    if let Some(s) = &a.summary {
        let _ = write!(o, "<p>{}</p>", html(s));
    }
    if !a.segments.is_empty() {
        o.push_str("<ul class=\"grid\">");
        for seg in &a.segments {
            let _ = write!(o, "<li class=\"tile\"><strong>{}</strong>", html(&seg.name));
            if let Some(d) = &seg.description {
                let _ = write!(o, "<p>{}</p>", html(d));
            }
            ul(o, "Needs", &seg.needs);
            o.push_str("</li>");
        }
        o.push_str("</ul>");
    }
    o.push_str("</section>\n");
}

/// Every logo variant on the background it is made for, with a download link.
fn logos(o: &mut String, brand: &Brand, ctx: &Context, _snip: &mut Snippets) {
    let logo = &brand.doc.logo;
    if logo.variants.is_empty() {
        return;
    }
    o.push_str("<section id=\"logo\"><h2>Logo</h2><ul class=\"grid\">");
    for v in &logo.variants {
        let url = ctx.brand_url(&brand.slug, &v.file);
        let stage = match v.background.as_deref() {
            Some("dark") => "on-dark",
            Some("any") => "on-any",
            _ => "on-light",
        };
        let _ = write!(
            o,
            "<li class=\"tile\"><div class=\"stage {stage}\"><img src=\"{}\" alt=\"{}\"></div><strong>{}</strong>",
            html(&url),
            html(&format!("{} logo, {}", brand.doc.name, v.id)),
            html(&v.id)
        );
        let mut facts = Vec::new();
        if let Some(bg) = &v.background {
            facts.push(format!("for {bg} backgrounds"));
        }
        if let Some(w) = v.min_width {
            facts.push(format!(
                "at least {}{} wide",
                crate::spec::tokens::fmt_num(w.value),
                w.unit.as_str()
            ));
        }
        if !facts.is_empty() {
            let _ = write!(o, "<p class=\"muted\">{}</p>", html(&facts.join(", ")));
        }
        if let Some(d) = &v.description {
            let _ = write!(o, "<p>{}</p>", html(d));
        }
        let file = v.file.rsplit('/').next().unwrap_or(&v.file);
        let _ = write!(
            o,
            "<p><a href=\"{}\" download=\"{}\">Download {}</a></p></li>",
            html(&url),
            html(file),
            html(file)
        );
    }
    o.push_str("</ul>");
    if let Some(cs) = &logo.clear_space {
        let _ = write!(o, "<p><strong>Clear space:</strong> {}</p>", html(cs));
    }
    ul(o, "Never", &logo.misuse);
    o.push_str("</section>\n");
}

/// A copyable value: its text and a Copy button.
fn copyable(o: &mut String, snip: &mut Snippets, text: &str) {
    snip.next += 1;
    let id = format!("snippet-{}", snip.next);
    let _ = write!(
        o,
        "<code id=\"{id}\">{}</code> <button type=\"button\" data-copy=\"{id}\" aria-label=\"Copy {}\">Copy</button>",
        html(text),
        html(text)
    );
}

/// The palette: each colour with its role, usage, hex (copyable), CSS value and token.
fn palette(o: &mut String, brand: &Brand, _ctx: &Context, snip: &mut Snippets) {
    let doc = &brand.doc;
    if doc.color.palette.is_empty() {
        return;
    }
    o.push_str("<section id=\"palette\"><h2>Palette</h2><ul class=\"grid\">");
    for p in &doc.color.palette {
        let value = reference_value(&brand.tokens, &p.token);
        let hex = reference_hex(brand, &p.token).unwrap_or_default();
        let _ = write!(
            o,
            "<li class=\"tile\"><div class=\"chip\" style=\"background:{}\"></div><strong>{}</strong>",
            html(&value),
            html(&p.name)
        );
        if let Some(r) = &p.role {
            let _ = write!(o, " <span class=\"muted\">{}</span>", html(r));
        }
        if let Some(u) = &p.usage {
            let _ = write!(o, "<p>{}</p>", html(u));
        }
        o.push_str("<p>");
        copyable(o, snip, &hex);
        o.push_str("</p>");
        if value != hex {
            let _ = write!(o, "<p><code>{}</code></p>", html(&value));
        }
        let _ = write!(
            o,
            "<p class=\"muted\"><code>{}</code></p></li>",
            html(p.token.trim_matches(['{', '}']))
        );
    }
    o.push_str("</ul></section>\n");
}

/// Contrast pairs as samples, with their ratio and a pass or fail chip.
fn contrast(o: &mut String, brand: &Brand, _ctx: &Context, _snip: &mut Snippets) {
    let set = &brand.tokens;
    let pairs = &brand.doc.color.pairs;
    if pairs.is_empty() {
        return;
    }
    o.push_str("<section id=\"contrast\"><h2>Contrast pairs</h2><p>WCAG 2 contrast ratios, computed by marque.</p><ul class=\"grid\">");
    for p in pairs {
        let (ratio, passes) =
            crate::spec::brand::pair_contrast(set, &p.foreground, &p.background, &p.level)
                .unwrap_or((0.0, false));
        let fg = reference_value(set, &p.foreground);
        let bg = reference_value(set, &p.background);
        let (class, word) = if passes {
            ("pass", "Pass")
        } else {
            ("fail", "Fail")
        };
        let _ = write!(
            o,
            "<li class=\"tile\"><div class=\"pair\" style=\"color:{};background:{}\">Aa</div><p><span class=\"verdict {class}\">{word} {}</span> {ratio}:1</p><p class=\"muted\"><code>{}</code> on <code>{}</code></p></li>",
            html(&fg),
            html(&bg),
            html(&p.level),
            html(p.foreground.trim_matches(['{', '}'])),
            html(p.background.trim_matches(['{', '}']))
        );
    }
    o.push_str("</ul></section>\n");
}

/// Typeface roles, each set in its own family, and the type styles as specimens.
fn typography(o: &mut String, brand: &Brand, _ctx: &Context, _snip: &mut Snippets) {
    let doc = &brand.doc;
    let ty = &doc.typography;
    if ty.families.is_empty() && ty.styles.is_empty() {
        return;
    }
    o.push_str("<section id=\"typography\"><h2>Typography</h2>");
    for f in &ty.families {
        let family = reference_value(&brand.tokens, &f.token);
        let _ = write!(
            o,
            "<div class=\"specimen\"><p class=\"muted\">{} · <code>{}</code></p><p class=\"sample\" style=\"font-family:{};font-size:1.6rem\">{}</p>",
            html(&f.role),
            html(&family),
            html(&family),
            html(&doc.name)
        );
        if let Some(u) = &f.usage {
            let _ = write!(o, "<p>{}</p>", html(u));
        }
        o.push_str("</div>");
    }
    for st in &ty.styles {
        let font = reference_value(&brand.tokens, &st.token);
        let spacing = match brand.tokens.resolve_reference(&st.token) {
            Some(crate::spec::tokens::TokenValue::Composite(c)) => c
                .get("letterSpacing")
                .map(|v| css::value(v, &brand.tokens, Refs::Resolve))
                .unwrap_or_default(),
            _ => String::new(),
        };
        let _ = write!(
            o,
            "<div class=\"specimen\"><p class=\"muted\">{} · <code>{}</code></p><p class=\"sample\" style=\"font:{};letter-spacing:{}\">{}</p>",
            html(&st.name),
            html(&font),
            html(&font),
            html(&spacing),
            html(&doc.name)
        );
        if let Some(u) = &st.usage {
            let _ = write!(o, "<p>{}</p>", html(u));
        }
        o.push_str("</div>");
    }
    o.push_str("</section>\n");
}

/// Applications: the guidance for each medium.
fn applications(o: &mut String, brand: &Brand, _ctx: &Context, _snip: &mut Snippets) {
    let apps = &brand.doc.applications;
    if apps.is_empty() {
        return;
    }
    o.push_str("<section id=\"applications\"><h2>Applications</h2>");
    for a in apps {
        guidance(o, &a.medium, a.guidance.as_deref(), &a.r#do, &a.dont);
    }
    o.push_str("</section>\n");
}

/// The releases, newest first, each linking to its pinned surfaces.
fn changelog(o: &mut String, brand: &Brand, ctx: &Context) {
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
