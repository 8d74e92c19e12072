//! PURE: one module per surface, each `render(&Brand, &Context)`. Renderers
//! take validated brands and return text; they never fail and never do IO,
//! and the same input always gives byte-identical output.

pub mod apps;
pub mod changelog;
pub mod design_md;
pub mod diff;
pub mod embed;
pub mod escape;
pub mod family;
pub mod figma;
pub mod html;
pub mod llms_txt;
pub mod namespaces;
pub mod openapi;
pub mod outputs;
pub mod previews;
pub mod sarif;
pub mod schemas;
pub mod spec_json;
pub mod spec_md;
pub mod status;
pub mod tailwind;
pub mod tokens_css;
pub mod tokens_json;
pub mod view;

use crate::paths;

/// What a render needs besides the brand: where it is published, and how.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Context {
    /// Absolute base URL without a trailing slash, e.g. `https://brand.example.com`.
    pub public_url: String,
    /// Pages subscribe to `/events` and reload when a new snapshot is in (watch mode).
    pub live_reload: bool,
    /// Set when rendering a released version: links point at `/brand/<slug>@<version>/…`.
    pub pin: Option<String>,
    /// `max-age` of current surfaces, in seconds (`--cache-max-age`).
    pub max_age: u32,
    /// The server answers MCP at `/mcp`: discovery surfaces say so.
    pub mcp: bool,
    /// A branch preview: every document is served `no-store` and
    /// `noindex`, and its pages get a banner once the preview is compared
    /// with the published branch (see `live::previews`).
    pub preview: bool,
    /// Where the content folder is in its repository (`brands/`, git mode's
    /// `--git-path`), so a diagnostic names a file by its repository path.
    pub source_prefix: String,
    /// The server has access tokens: pages link the sign-in form.
    pub sign_in: bool,
    /// The npm scope of each release's package.tgz (`--npm-scope`).
    pub npm_scope: Option<String>,
}

impl Context {
    pub fn new(public_url: &str) -> Context {
        Context {
            public_url: public_url.trim_end_matches('/').to_string(),
            live_reload: false,
            pin: None,
            max_age: 60,
            mcp: false,
            preview: false,
            source_prefix: String::new(),
            sign_in: false,
            npm_scope: None,
        }
    }

    /// Absolute URL of a path that starts with `/`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.public_url)
    }

    /// The brand's path segment: `acme`, or `acme@1.2.0` for a released version.
    pub fn brand_key(&self, slug: &str) -> String {
        paths::brand_key(slug, self.pin.as_deref())
    }

    /// Absolute URL of a brand's surface (`spec.json`), or of its page when `surface` is empty.
    pub fn brand_url(&self, slug: &str, surface: &str) -> String {
        let key = self.brand_key(slug);
        if surface.is_empty() {
            self.url(&paths::brand(&key))
        } else {
            self.url(&paths::brand_doc(&key, surface))
        }
    }

    /// Absolute URL of the brand's embed script.
    pub fn embed_url(&self, slug: &str) -> String {
        self.url(&paths::embed(&self.brand_key(slug)))
    }

    /// Absolute URL of the brand's demo endpoint.
    pub fn demo_url(&self, slug: &str) -> String {
        self.url(&paths::demo(slug))
    }

    /// Absolute URL of the published brand.json schema.
    pub fn schema_url(&self) -> String {
        self.url(SCHEMA_PATH)
    }
}

/// Where the brand.json schema is published.
pub const SCHEMA_PATH: &str = "/schema/brand.schema.json";

/// The documents every brand renders as text under `/brand/<slug>/<file>`;
/// their rows, with the outputs for apps, are [`outputs::OUTPUTS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Surface {
    SpecJson,
    SpecMd,
    TokensCss,
    TokensFigma,
    /// The default permutation in strict DTCG 2025.10.
    TokensJson,
    /// Every mode: a self-contained DTCG resolver document.
    TokensResolver,
    LlmsTxt,
    /// Google's DESIGN.md format, for coding agents.
    DesignMd,
    /// A Tailwind CSS v4 theme.
    TailwindCss,
    /// Where the brand stands in its family (DESIGN.md §18).
    FamilyJson,
    /// An ES module of resolved values, every mode (DESIGN.md §19).
    TokensJs,
    /// tokens.js's TypeScript types.
    TokensDts,
}

impl Surface {
    pub const ALL: [Surface; 12] = [
        Surface::SpecJson,
        Surface::SpecMd,
        Surface::TokensCss,
        Surface::TokensFigma,
        Surface::TokensJson,
        Surface::TokensResolver,
        Surface::LlmsTxt,
        Surface::DesignMd,
        Surface::TailwindCss,
        Surface::FamilyJson,
        Surface::TokensJs,
        Surface::TokensDts,
    ];

    /// Its row in the registry of outputs ([`outputs::OUTPUTS`]), which
    /// holds its file, media type, label and purpose.
    pub fn output(self) -> &'static outputs::Output {
        // Row `i` is `Surface::ALL[i]`, the enum's order (tested there).
        &outputs::OUTPUTS[self as usize]
    }

    /// The file name in the brand's path.
    pub fn file(self) -> &'static str {
        self.output().file
    }

    /// The exact `Content-Type` it is served with.
    pub fn media_type(self) -> &'static str {
        self.output().media_type
    }

    /// Renders this surface of a brand.
    pub fn render(self, brand: &crate::spec::Brand, ctx: &Context) -> String {
        match self {
            Surface::SpecJson => spec_json::render(brand, ctx),
            Surface::SpecMd => spec_md::render(brand, ctx),
            Surface::TokensCss => tokens_css::render(brand, ctx),
            Surface::TokensFigma => figma::render(brand, ctx).body,
            Surface::TokensJson => tokens_json::render(brand).body,
            Surface::TokensResolver => tokens_json::render_resolver(brand).body,
            Surface::LlmsTxt => llms_txt::render(brand, ctx),
            Surface::DesignMd => design_md::render(brand, ctx),
            Surface::TailwindCss => tailwind::render(brand, ctx),
            Surface::FamilyJson => family::render(brand, ctx),
            Surface::TokensJs => apps::js::render(brand).0,
            Surface::TokensDts => apps::js::render(brand).1,
        }
    }

    /// The order MCP lists them in: prose for a system prompt first.
    pub const FOR_AGENTS: [Surface; 12] = [
        Surface::SpecMd,
        Surface::DesignMd,
        Surface::SpecJson,
        Surface::TokensCss,
        Surface::TailwindCss,
        Surface::TokensJson,
        Surface::TokensResolver,
        Surface::TokensFigma,
        Surface::LlmsTxt,
        Surface::FamilyJson,
        Surface::TokensJs,
        Surface::TokensDts,
    ];

    /// The media type without its parameters (`text/markdown`), as MCP
    /// resources name it.
    pub fn mime(self) -> &'static str {
        self.output().mime()
    }

    /// What it is for, in a phrase (MCP's resource descriptions).
    pub fn purpose(self) -> &'static str {
        self.output().purpose
    }

    /// What it is, for people: one line.
    pub fn label(self) -> &'static str {
        self.output().label
    }
}

/// What the documents about all brands say of one published brand: its
/// index row and its /status entry, without the whole brand.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Headline {
    pub name: String,
    pub summary: Option<String>,
    pub version: String,
    pub updated: String,
    /// `"visibility": "private"` (DESIGN.md §20).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
    /// When this version's embargo lifts, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub embargo: Option<chrono::DateTime<chrono::Utc>>,
}

impl Headline {
    pub fn of(brand: &crate::spec::Brand) -> Headline {
        Headline {
            name: brand.doc.name.clone(),
            summary: brand.doc.summary.clone(),
            version: brand.version.to_string(),
            updated: brand.updated.to_string(),
            private: brand.is_private(),
            embargo: brand.embargo(),
        }
    }
}

/// Media type of an asset, by extension.
pub fn media_type_of(path: &str) -> &'static str {
    let ext = path
        .rsplit('.')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    match ext.as_str() {
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "ico" => "image/x-icon",
        "pdf" => "application/pdf",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "ttf" => "font/ttf",
        "otf" => "font/otf",
        "json" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        "md" => "text/markdown; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        _ => "application/octet-stream",
    }
}
