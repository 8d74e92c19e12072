//! llms.txt (llmstxt.org): an H1, a one-line `>` summary, prose, then H2
//! sections of links with absolute URLs; `## Optional` holds what an agent
//! may skip. One per brand, and one at the root listing every brand.
//!
//! The file is Markdown, so content is Markdown text ([`md`]): the name
//! and summary start their lines (the H1's, the `>` line's), and a name
//! of `# x`, `> x` or `<script>` must show as written, not open a block or
//! carry markup, whether a Markdown renderer or the llmstxt.org reference
//! parser (which reads the H1 and `>` lines as they are) reads it.

use super::escape::{collapse_ws, md, md_inline};
use super::{outputs, Context, Surface};
use crate::paths;
use crate::spec::Brand;
use std::fmt::Write;

/// A link's title: Markdown text with round brackets for square ones,
/// since the reference parser ends a title at the first `]`, escaped or not.
fn link_title(s: &str) -> String {
    md_inline(&collapse_ws(s).replace('[', "(").replace(']', ")"))
}

/// The outputs the lines above the generic ones describe in words of
/// their own (llms.txt itself is the document being read).
const WRITTEN: [&str; 14] = [
    "spec.md",
    "spec.json",
    "DESIGN.md",
    "tokens.css",
    "tokens.json",
    "tokens.resolver.json",
    "tokens.figma.json",
    "tailwind.css",
    "tokens.js",
    "tokens.d.ts",
    outputs::ANDROID_ZIP,
    outputs::IOS_ZIP,
    outputs::FIGMA_ZIP,
    "llms.txt",
];

/// `text` with its first letter upper-case: a phrase as a sentence.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

pub fn render(brand: &Brand, ctx: &Context) -> String {
    let s = &brand.slug;
    let mut o = String::new();
    let _ = writeln!(o, "# {}\n", md(&brand.doc.name));
    let summary = brand.doc.summary.as_deref().map(md).unwrap_or_else(|| {
        format!(
            "Brand guidelines, design tokens and prompts of {}.",
            md_inline(&brand.doc.name)
        )
    });
    let _ = writeln!(o, "> {summary}\n");
    let _ = writeln!(
        o,
        "Spec version {} as of {}. Published by marque; every link below is a public, cacheable document.\n",
        brand.version, brand.updated
    );
    mcp_paragraph(&mut o, ctx);
    o.push_str("## Spec\n\n");
    let _ = writeln!(o, "- [spec.md]({}): The whole brand in Markdown: voice, audience, logo, typography, colour, applications, prompt kit and tokens. Use it as a system prompt.", ctx.brand_url(s, "spec.md"));
    let _ = writeln!(o, "- [spec.json]({}): The same spec as structured JSON, with resolved token values and contrast ratios.", ctx.brand_url(s, "spec.json"));
    let _ = writeln!(o, "- [DESIGN.md]({}): The brand in Google's DESIGN.md format for agents that build UI: colours, type, radii, spacing and colour pairs as YAML front matter, then prose.", ctx.brand_url(s, Surface::DesignMd.file()));
    o.push_str("\n## Design tokens\n\n");
    let _ = writeln!(
        o,
        "- [tokens.css]({}): CSS custom properties for every design token.",
        ctx.brand_url(s, "tokens.css")
    );
    let _ = writeln!(
        o,
        "- [tokens.json]({}): The design tokens in strict W3C DTCG 2025.10, for Style Dictionary, Terrazzo and Tokens Studio.",
        ctx.brand_url(s, Surface::TokensJson.file())
    );
    let _ = writeln!(
        o,
        "- [tokens.resolver.json]({}): Every mode (such as dark) as one DTCG 2025.10 resolver document.",
        ctx.brand_url(s, Surface::TokensResolver.file())
    );
    let _ = writeln!(
        o,
        "- [tokens.figma.json]({}): A request body for Figma's variables API.",
        ctx.brand_url(s, "tokens.figma.json")
    );
    let _ = writeln!(
        o,
        "- [tailwind.css]({}): A Tailwind CSS v4 theme (`@theme`), with a variant per mode such as `dark:`.",
        ctx.brand_url(s, Surface::TailwindCss.file())
    );
    let _ = writeln!(
        o,
        "- [tokens.js]({}): The tokens as an ES module of resolved values, `modes.<modifier>.<context>` for what differs; types in [tokens.d.ts]({}).",
        ctx.brand_url(s, Surface::TokensJs.file()),
        ctx.brand_url(s, Surface::TokensDts.file())
    );
    let _ = writeln!(
        o,
        "- [android.zip]({}) and [ios.zip]({}): Android resources (values, and values-night or values-notnight for the other appearance) and an Xcode asset catalogue of the colours, every appearance.",
        ctx.brand_url(s, outputs::ANDROID_ZIP),
        ctx.brand_url(s, outputs::IOS_ZIP)
    );
    let _ = writeln!(
        o,
        "- [figma.zip]({}): Figma variables for Figma's own import (every paid plan): a folder per collection, a `<Mode>.tokens.json` per mode.",
        ctx.brand_url(s, outputs::FIGMA_ZIP)
    );
    // Every other output this version serves, from the registry, so a new
    // one is listed without an edit here.
    for (out, file) in outputs::of_brand(brand, ctx) {
        if !WRITTEN.contains(&out.file) {
            let _ = writeln!(
                o,
                "- [{file}]({}): {}.",
                ctx.brand_url(s, &file),
                capitalized(out.purpose)
            );
        }
    }
    if !brand.doc.prompt_kit.prompts.is_empty() {
        o.push_str("\n## Prompts\n\n");
        for p in &brand.doc.prompt_kit.prompts {
            let title = link_title(p.title.as_deref().unwrap_or(&p.id));
            let desc = p
                .description
                .as_deref()
                .map(|d| format!("{} ", md_inline(d)))
                .unwrap_or_default();
            let _ = writeln!(
                o,
                "- [{title}]({}#prompt-{}): {desc}Run it with POST {} and {{\"promptId\": \"{}\"}}.",
                ctx.brand_url(s, ""),
                p.id,
                ctx.demo_url(s),
                p.id
            );
        }
    }
    let set = &brand.tokens;
    let deprecated: Vec<_> = set
        .tokens
        .iter()
        .filter_map(|t| Some((t, t.deprecation(set)?)))
        .collect();
    if !deprecated.is_empty() {
        // So an agent stops choosing them (DESIGN.md §18).
        o.push_str("\n## Deprecated tokens\n\n");
        for (t, d) in deprecated {
            let _ = writeln!(
                o,
                "- [{}]({}): {}",
                link_title(&t.name()),
                ctx.brand_url(s, "spec.md"),
                crate::render::spec_md::deprecated_md(&d).replacen("Deprecated", "deprecated", 1)
            );
        }
    }
    o.push_str("\n## Optional\n\n");
    let _ = writeln!(
        o,
        "- [API page]({}): Every endpoint of this brand with copyable examples.",
        ctx.brand_url(s, "")
    );
    let _ = writeln!(
        o,
        "- [brand.json schema]({}): JSON Schema of the source format.",
        ctx.schema_url()
    );
    let _ = writeln!(
        o,
        "- [OpenAPI description]({}): Every path, header and status of this server's HTTP API, as OpenAPI 3.1.",
        ctx.url(paths::OPENAPI)
    );
    let _ = writeln!(
        o,
        "- [All brands]({}): Discovery file listing every brand on this server.",
        ctx.url(paths::LLMS_TXT)
    );
    o
}

/// Where an MCP client connects, when the server answers MCP: prose, not
/// a link, since the endpoint is not a document to fetch. `<slug>/<id>` is
/// a code span: bare, Markdown reads it as two HTML tags and shows nothing.
fn mcp_paragraph(o: &mut String, ctx: &Context) {
    if ctx.mcp {
        let _ = writeln!(
            o,
            "Agents that speak the Model Context Protocol can connect to {} (streamable HTTP): every surface of every brand is a resource, each prompt of a prompt kit is a prompt named `<slug>/<id>`, and the tools list_brands, get_brand, find_tokens, check_contrast, check_code and run_prompt answer questions about the brands. Before writing styles for a brand, follow the prompt `check-styles`: call check_code on what you write and use the token names it gives.\n",
            ctx.url("/mcp")
        );
    }
}

/// One brand's line in the root `/llms.txt`.
pub fn index_line(b: &Brand, ctx: &Context) -> String {
    let summary = b.doc.summary.as_deref().map(md_inline).unwrap_or_default();
    let sep = if summary.is_empty() {
        String::new()
    } else {
        format!(": {summary}")
    };
    format!(
        "- [{}]({}){sep}\n",
        link_title(&b.doc.name),
        ctx.brand_url(&b.slug, "llms.txt")
    )
}

/// The root `/llms.txt`, listing every brand.
pub fn render_index(brands: &[&Brand], ctx: &Context) -> String {
    let lines: Vec<String> = brands.iter().map(|b| index_line(b, ctx)).collect();
    render_index_of(&lines.iter().map(String::as_str).collect::<Vec<_>>(), ctx)
}

/// The root `/llms.txt` from each brand's line (see [`index_line`]).
pub fn render_index_of(lines: &[&str], ctx: &Context) -> String {
    let mut o = String::from("# Brand books\n\n");
    let _ = writeln!(
        o,
        "> Machine-readable brand books published by marque: {} brand{}, each with a spec for language models, design tokens and a prompt kit.\n",
        lines.len(),
        if lines.len() == 1 { "" } else { "s" }
    );
    o.push_str("Each brand has its own llms.txt with every surface.\n\n");
    mcp_paragraph(&mut o, ctx);
    o.push_str("## Brands\n\n");
    for line in lines {
        o.push_str(line);
    }
    o.push_str("\n## Optional\n\n");
    let _ = writeln!(
        o,
        "- [brands.json]({}): Every brand with its version and links, as JSON.",
        ctx.url(paths::BRANDS_JSON)
    );
    let _ = writeln!(
        o,
        "- [brand.json schema]({}): JSON Schema of the source format.",
        ctx.schema_url()
    );
    let _ = writeln!(
        o,
        "- [OpenAPI description]({}): Every path, header and status of this server's HTTP API, as OpenAPI 3.1.",
        ctx.url(paths::OPENAPI)
    );
    o
}
