//! PURE: one module per surface, each `render(&Brand, &Context)`. Renderers
//! take validated brands and return text; they never fail and never do IO,
//! and the same input always gives byte-identical output.

pub mod css;
pub mod embed;
pub mod escape;
pub mod figma;
pub mod html;
pub mod llms_txt;
pub mod spec_json;
pub mod spec_md;
pub mod tokens_css;

/// What a render needs besides the brand: where it is published, and from which revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Context {
    /// Absolute base URL without a trailing slash, e.g. `https://brand.example.com`.
    pub public_url: String,
    /// The content revision (a commit id), when the content comes from git.
    pub revision: Option<String>,
    /// Pages subscribe to `/events` and reload when a new snapshot is in (watch mode).
    pub live_reload: bool,
    /// Set when rendering a released version: links point at `/brand/<slug>@<version>/…`.
    pub pin: Option<String>,
}

impl Context {
    pub fn new(public_url: &str, revision: Option<String>) -> Context {
        Context {
            public_url: public_url.trim_end_matches('/').to_string(),
            revision,
            live_reload: false,
            pin: None,
        }
    }

    /// Absolute URL of a path that starts with `/`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.public_url)
    }

    /// The brand's path segment: `acme`, or `acme@1.2.0` for a released version.
    pub fn brand_key(&self, slug: &str) -> String {
        match &self.pin {
            Some(v) => format!("{slug}@{v}"),
            None => slug.to_string(),
        }
    }

    /// Absolute URL of a brand's surface (`spec.json`), or of its page when `surface` is empty.
    pub fn brand_url(&self, slug: &str, surface: &str) -> String {
        let key = self.brand_key(slug);
        if surface.is_empty() {
            self.url(&format!("/brand/{key}"))
        } else {
            self.url(&format!("/brand/{key}/{surface}"))
        }
    }

    /// Absolute URL of the brand's embed script.
    pub fn embed_url(&self, slug: &str) -> String {
        self.url(&format!("/embed/brand/{}", self.brand_key(slug)))
    }
}

/// The surfaces every brand publishes, as (file name, media type).
pub const SURFACES: &[(&str, &str)] = &[
    ("spec.json", "application/json"),
    ("spec.md", "text/markdown; charset=utf-8"),
    ("tokens.css", "text/css; charset=utf-8"),
    ("tokens.figma.json", "application/json"),
    ("llms.txt", "text/plain; charset=utf-8"),
];
