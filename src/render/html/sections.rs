//! The sections of a brand's page, in the order the page shows them: each
//! writes its HTML into the page, every string from content escaped.

use crate::paths;
use crate::render::escape::html;
use crate::render::outputs::{Kind, Output};
use crate::render::view::reference_hex;
use crate::render::view::{reference_value, reference_value_in};
use crate::render::{Context, Surface};
use crate::spec::tokens::css::{self, Refs};
use crate::spec::tokens::modes::View;
use crate::spec::Brand;
use std::fmt::Write;

/// The table of every published surface with an example request.
/// `s` as one single-quoted shell word.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The copyable code blocks of a page, numbered in order.
#[derive(Default)]
pub(super) struct Snippets {
    next: usize,
}

impl Snippets {
    /// A copyable code block.
    pub(super) fn code(&mut self, out: &mut String, code: &str) {
        self.next += 1;
        let id = format!("snippet-{}", self.next);
        let _ = write!(
            out,
            "<div class=\"snippet\"><pre><code id=\"{id}\">{}</code></pre><button type=\"button\" data-copy=\"{id}\">Copy</button></div>",
            html(code)
        );
    }
}

pub(super) fn endpoints(o: &mut String, brand: &Brand, ctx: &Context, snip: &mut Snippets) {
    let s = &brand.slug;
    o.push_str("<section id=\"endpoints\"><h2>Endpoints</h2><p>Public, cacheable, CORS-enabled documents. Every response has a strong ETag and is served gzip- or brotli-compressed on request.</p><table><thead><tr><th>Surface</th><th>Media type</th><th>Example</th></tr></thead><tbody>\n");
    // Every output this version serves, from the registry: a new one is
    // listed here without an edit. Those for apps follow the documents,
    // pointing at the Apps section's snippets.
    let outputs: Vec<_> = crate::render::outputs::of_brand(brand, ctx).collect();
    let row = |(out, file): &(&Output, String)| {
        (
            format!("{file}: {}", out.label),
            out.mime(),
            ctx.brand_url(s, file),
        )
    };
    let mut endpoints: Vec<(String, &str, String)> = outputs
        .iter()
        .filter(|(out, _)| out.kind != Kind::App)
        .map(row)
        .collect();
    endpoints.push(("Embed script".into(), "text/javascript", ctx.embed_url(s)));
    endpoints.push(("This page".into(), "text/html", ctx.brand_url(s, "")));
    endpoints.push((
        "The whole HTTP API, described (OpenAPI 3.1)".into(),
        "application/json",
        ctx.url(paths::OPENAPI),
    ));
    for (label, media, url) in &endpoints {
        let _ = write!(
            o,
            "<tr><td><a href=\"{}\">{}</a></td><td><code class=\"media\">{media}</code></td><td>",
            html(url),
            html(label)
        );
        snip.code(o, &format!("curl -sS --compressed {url}"));
        o.push_str("</td></tr>\n");
    }
    for (label, media, url) in outputs
        .iter()
        .filter(|(out, _)| out.kind == Kind::App)
        .map(row)
    {
        let _ = writeln!(
            o,
            "<tr><td><a href=\"{}\">{}</a></td><td><code class=\"media\">{media}</code></td><td>See <a href=\"#apps\">Apps</a></td></tr>",
            html(&url),
            html(&label)
        );
    }
    let demo_url = ctx.demo_url(s);
    let _ = write!(
        o,
        "<tr><td>Prompt demo (POST, rate limited)</td><td><code class=\"media\">application/json</code></td><td>See <a href=\"#prompts\">Prompt kit</a>: <code>{}</code></td></tr>\n</tbody></table></section>\n",
        html(&demo_url)
    );
}

/// Four ways to use the brand, each with a copyable example.
pub(super) fn use_patterns(o: &mut String, brand: &Brand, ctx: &Context, snip: &mut Snippets) {
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
                brand.tokens.var_name(&t.path)
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
        "<p>Preview (with <code>data-theme=\"auto\"</code>, it follows the reader's light or dark scheme, as this page does):</p><div class=\"preview\"><div data-marque-brand=\"{}\" data-theme=\"auto\"></div></div><script async src=\"{}\"></script>",
        html(s),
        html(&embed_url)
    );
    o.push_str("<h3 id=\"use-demo\">4. Run a prompt from the prompt kit</h3><p>Each prompt of the <a href=\"#prompts\">prompt kit</a> above has a ready-made call and a Try-it form. Without an API key on the server, the demo runs dry and returns the exact messages it would send.</p>\n");
    if ctx.mcp {
        o.push_str("<h3 id=\"use-mcp\">Also: connect an AI agent over MCP</h3><p>This server speaks the Model Context Protocol: every surface is a resource, every prompt of the kit a prompt, and tools find tokens and check contrast.</p>");
        snip.code(
            o,
            &format!("claude mcp add --transport http marque {}", ctx.url("/mcp")),
        );
    }
    o.push_str("<h3 id=\"use-tailwind\">Also: use the brand in Tailwind CSS v4</h3><p>Save tailwind.css beside your CSS, then <code>bg-*</code>, <code>text-*</code>, <code>font-*</code> and <code>rounded-*</code> use the brand, with a variant per mode:</p>");
    snip.code(
        o,
        &format!(
            "curl -sS {} -o tailwind.css",
            ctx.brand_url(s, Surface::TailwindCss.file())
        ),
    );
    snip.code(o, "@import \"tailwindcss\";\n@import \"./tailwind.css\";");
    o.push_str("<h3 id=\"use-agents\">Also: point a coding agent at DESIGN.md</h3><p>Google's DESIGN.md format: the brand's colours, type, radii, spacing and colour pairs as YAML front matter, then prose an agent follows when it builds UI.</p>");
    snip.code(
        o,
        &format!(
            "curl -sS {} -o DESIGN.md",
            ctx.brand_url(s, Surface::DesignMd.file())
        ),
    );
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
pub(super) fn prompt_kit(o: &mut String, brand: &Brand, ctx: &Context, snip: &mut Snippets) {
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
pub(super) fn try_form(o: &mut String, demo_url: &str, p: &crate::spec::model::Prompt) {
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
pub(super) fn guidance(
    o: &mut String,
    title: &str,
    text: Option<&str>,
    dos: &[String],
    donts: &[String],
) {
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
pub(super) fn ul(o: &mut String, label: &str, items: &[String]) {
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
pub(super) fn voice(o: &mut String, brand: &Brand, _ctx: &Context, _snip: &mut Snippets) {
    let v = &brand.doc.voice;
    if v.is_empty() {
        return;
    }
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
pub(super) fn audience(o: &mut String, brand: &Brand, _ctx: &Context, _snip: &mut Snippets) {
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
pub(super) fn logos(o: &mut String, brand: &Brand, ctx: &Context, _snip: &mut Snippets) {
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
pub(super) fn copyable(o: &mut String, snip: &mut Snippets, text: &str) {
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
pub(super) fn palette(o: &mut String, brand: &Brand, _ctx: &Context, snip: &mut Snippets) {
    let doc = &brand.doc;
    if doc.color.palette.is_empty() {
        return;
    }
    o.push_str("<section id=\"palette\"><h2>Palette</h2>");
    // Each context of the brand's modes, for the colours it changes.
    let set = &brand.tokens;
    let contexts: Vec<(String, View<'_>)> = set
        .contexts()
        .map(|(m, c)| (set.label(m, c), set.view(m, c)))
        .collect();
    if !contexts.is_empty() {
        let labels: Vec<String> = contexts
            .iter()
            .map(|(l, _)| format!("<code>{}</code>", html(l)))
            .collect();
        let _ = write!(o, "<p>Each colour by default, and below it in each context that changes it ({}); tokens.css applies a context with its data attribute.</p>", labels.join(", "));
    }
    // The brand's own dark context, which the chips show when the reader
    // prefers dark or picks it here.
    let dark = set.dark_context();
    if dark.is_some() {
        o.push_str("<p class=\"scheme-switch\" role=\"group\" aria-label=\"Colour scheme of the swatches\">Swatches: <button type=\"button\" data-scheme=\"auto\" aria-pressed=\"true\">As your system</button> <button type=\"button\" data-scheme=\"light\" aria-pressed=\"false\">Light</button> <button type=\"button\" data-scheme=\"dark\" aria-pressed=\"false\">Dark</button></p>");
    }
    o.push_str("<ul class=\"grid\">");
    for p in &doc.color.palette {
        let value = reference_value(&brand.tokens, &p.token);
        let hex = reference_hex(brand, &p.token).unwrap_or_default();
        let in_dark = dark
            .map(|d| reference_value_in(d, &p.token))
            .filter(|v| *v != value);
        let style = match &in_dark {
            Some(d) => format!("--c:{value};--cd:{d}"),
            None => format!("background:{value}"),
        };
        let _ = write!(
            o,
            "<li class=\"tile\"><div class=\"chip{}\" style=\"{}\"></div><strong>{}</strong>",
            if in_dark.is_some() { " scheme" } else { "" },
            html(&style),
            html(&p.name)
        );
        if let Some(r) = &p.role {
            let _ = write!(o, " <span class=\"muted\">{}</span>", html(r));
        }
        if let Some(u) = &p.usage {
            let _ = write!(o, "<p>{}</p>", html(u));
        }
        // The headline names what the swatch shows: where the swatch
        // follows the reader's scheme (or the switch) to the dark context,
        // so does the hex, by the same rules in page.css.
        let dark_hex = in_dark.as_ref().and_then(|_| {
            let d = dark?;
            match d.resolve_reference(&p.token).as_deref() {
                Some(crate::spec::tokens::TokenValue::Color(c)) => {
                    Some(crate::color::hex(c.srgb(), c.alpha))
                }
                _ => None,
            }
        });
        match (&in_dark, &dark_hex) {
            (Some(dark_value), Some(dark_hex)) => {
                o.push_str("<p class=\"on-light\">");
                copyable(o, snip, &hex);
                o.push_str("</p><p class=\"on-dark\">");
                copyable(o, snip, dark_hex);
                o.push_str("</p>");
                if value != hex {
                    let _ = write!(o, "<p class=\"on-light\"><code>{}</code></p>", html(&value));
                }
                if dark_value != dark_hex {
                    let _ = write!(
                        o,
                        "<p class=\"on-dark\"><code>{}</code></p>",
                        html(dark_value)
                    );
                }
            }
            _ => {
                o.push_str("<p>");
                copyable(o, snip, &hex);
                o.push_str("</p>");
                if value != hex {
                    let _ = write!(o, "<p><code>{}</code></p>", html(&value));
                }
            }
        }
        let _ = write!(
            o,
            "<p class=\"muted\"><code>{}</code></p>",
            html(p.token.trim_matches(['{', '}']))
        );
        for (label, here) in &contexts {
            let there = reference_value_in(*here, &p.token);
            if there == value {
                continue;
            }
            let hex = match here.resolve_reference(&p.token).as_deref() {
                Some(crate::spec::tokens::TokenValue::Color(c)) => {
                    crate::color::hex(c.srgb(), c.alpha)
                }
                _ => String::new(),
            };
            let _ = write!(
                o,
                "<p class=\"in-context\"><span class=\"dot\" style=\"background:{}\"></span><code>{}</code> ",
                html(&there),
                html(label)
            );
            copyable(o, snip, &hex);
            o.push_str("</p>");
        }
        o.push_str("</li>");
    }
    o.push_str("</ul></section>\n");
}

/// The class and word of a pass or fail chip.
fn verdict(passes: bool) -> (&'static str, &'static str) {
    match passes {
        true => ("pass", "Pass"),
        false => ("fail", "Fail"),
    }
}

/// Contrast pairs as samples, with their ratio and a pass or fail chip.
pub(super) fn contrast(o: &mut String, brand: &Brand, _ctx: &Context, _snip: &mut Snippets) {
    let set = &brand.tokens;
    let pairs = &brand.doc.color.pairs;
    if pairs.is_empty() {
        return;
    }
    o.push_str("<section id=\"contrast\"><h2>Contrast pairs</h2><p>WCAG 2 contrast ratios, computed by marque, by default and in each context that changes a pair's colours.</p><ul class=\"grid\">");
    for p in pairs {
        let (ratio, passes) =
            crate::spec::brand::pair_contrast(set, &p.foreground, &p.background, &p.level)
                .unwrap_or((0.0, false));
        let fg = reference_value(set, &p.foreground);
        let bg = reference_value(set, &p.background);
        let (class, word) = verdict(passes);
        // Under a dark scheme, the sample takes the brand's dark context.
        let dark = set.dark_context().map(|d| {
            (
                reference_value_in(d, &p.foreground),
                reference_value_in(d, &p.background),
            )
        });
        let sample = match dark.filter(|d| *d != (fg.clone(), bg.clone())) {
            Some((fgd, bgd)) => format!(
                "class=\"pair scheme\" style=\"--pf:{};--pb:{};--pfd:{};--pbd:{}\"",
                html(&fg),
                html(&bg),
                html(&fgd),
                html(&bgd)
            ),
            None => format!(
                "class=\"pair\" style=\"color:{};background:{}\"",
                html(&fg),
                html(&bg)
            ),
        };
        let _ = write!(
            o,
            "<li class=\"tile\"><div {sample}>Aa</div><p><span class=\"verdict {class}\">{word} {}</span> {ratio}:1</p><p class=\"muted\"><code>{}</code> on <code>{}</code></p>",
            html(&p.level),
            html(p.foreground.trim_matches(['{', '}'])),
            html(p.background.trim_matches(['{', '}']))
        );
        // The pair in each context that changes either of its colours.
        for c in crate::spec::brand::pair_in_contexts(set, p) {
            let here = set.view(c.modifier, c.context);
            let (class, word) = verdict(c.passes);
            let _ = write!(
                o,
                "<p class=\"in-context\"><span class=\"dot\" style=\"background:{}\"></span><span class=\"dot\" style=\"background:{}\"></span><code>{}</code> <span class=\"verdict {class}\">{word}</span> {}:1</p>",
                html(&reference_value_in(here, &p.background)),
                html(&reference_value_in(here, &p.foreground)),
                html(&set.label(c.modifier, c.context)),
                c.ratio
            );
        }
        o.push_str("</li>");
    }
    o.push_str("</ul></section>\n");
}

/// Typeface roles, each set in its own family, and the type styles as specimens.
pub(super) fn typography(o: &mut String, brand: &Brand, _ctx: &Context, _snip: &mut Snippets) {
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
        let spacing = match brand.tokens.resolve_reference(&st.token).as_deref() {
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
pub(super) fn applications(o: &mut String, brand: &Brand, _ctx: &Context, _snip: &mut Snippets) {
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
