//! The one registry of what a brand publishes under `/brand/<key>/<file>`:
//! a row per output (its file, media type, label, purpose and kind). The
//! builder, OpenAPI, MCP, llms.txt, spec.json's links, spec.md, the API
//! page and the consumer matrix (`tests/it/matrix/`) read it, so a new
//! output is one row here and one renderer, not an edit to each
//! describer; `tests/it/matrix/outputs.rs` fails for an output one of
//! them leaves out.

use super::{Context, Surface};
use crate::spec::Brand;

/// What an output is, which decides how it is rendered and described.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A document rendered as text ([`Surface::render`]).
    Surface(Surface),
    /// A file in a platform's own form, for apps (DESIGN.md §19),
    /// rendered by [`super::apps::render`].
    App,
    /// A brand's releases, from git tags, rendered by [`super::changelog`]
    /// with what changed between them: one per brand, beside its current
    /// version.
    Changelog,
}

/// Which of a brand's versions serve an output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Serves {
    /// Every version.
    Always,
    /// A brand whose colour scheme has a second context that Android
    /// reads from this folder: `values-night` (a dark context beside a
    /// light default) or `values-notnight` (a light context beside a dark
    /// default).
    OtherAppearance(&'static str),
    /// Released versions only (`/brand/<slug>@<version>/…`).
    Releases,
    /// The current version only (`/brand/<slug>/…`): what lists every
    /// release is not itself part of one.
    Current,
}

/// One output of a brand.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Output {
    /// Its path under the brand's key (`tokens.css`, `android/values/tokens.xml`).
    pub file: &'static str,
    /// The exact `Content-Type` it is served with.
    pub media_type: &'static str,
    /// What it is, for people: one line (OpenAPI's summaries, the API page).
    pub label: &'static str,
    /// What it is for, in a phrase (MCP's resource descriptions).
    pub purpose: &'static str,
    pub kind: Kind,
    pub serves: Serves,
}

impl Output {
    /// True for an archive, which MCP reads as a blob and OpenAPI
    /// describes as binary; every other output is text.
    pub fn is_binary(&self) -> bool {
        matches!(self.mime(), "application/zip" | "application/gzip")
    }

    /// The media type without its parameters (`text/markdown`), as MCP
    /// resources name it.
    pub fn mime(&self) -> &'static str {
        let m = self.media_type;
        m.split_once(';').map_or(m, |(essence, _)| essence)
    }

    /// Its path under the key of `brand` (a release's when `pinned`),
    /// where that version serves it: package.tgz only for a release, the
    /// changelog only beside the current version, and the Android
    /// resources of the other appearance only in the folder Android reads
    /// it from for this brand.
    pub fn file_of(&self, brand: &Brand, pinned: bool) -> Option<String> {
        match self.serves {
            Serves::Always => Some(self.file.to_string()),
            Serves::Releases => pinned.then(|| self.file.to_string()),
            Serves::Current => (!pinned).then(|| self.file.to_string()),
            Serves::OtherAppearance(folder) => (super::apps::android::night_folder(&brand.tokens)
                == Some(folder))
            .then(|| self.file.to_string()),
        }
    }
}

pub use super::apps::{
    ANDROID_NIGHT, ANDROID_NOTNIGHT, ANDROID_VALUES, ANDROID_ZIP, FIGMA_ZIP, IOS_ZIP, PACKAGE_TGZ,
};

const fn surface(
    s: Surface,
    file: &'static str,
    media_type: &'static str,
    label: &'static str,
    purpose: &'static str,
) -> Output {
    Output {
        file,
        media_type,
        label,
        purpose,
        kind: Kind::Surface(s),
        serves: Serves::Always,
    }
}

/// A brand's changelog, in one of its forms.
const fn changelog(
    file: &'static str,
    media_type: &'static str,
    label: &'static str,
    purpose: &'static str,
) -> Output {
    Output {
        file,
        media_type,
        label,
        purpose,
        kind: Kind::Changelog,
        serves: Serves::Current,
    }
}

/// An output for apps: one phrase says what it is, for people and agents alike.
const fn app(
    file: &'static str,
    media_type: &'static str,
    what: &'static str,
    serves: Serves,
) -> Output {
    Output {
        file,
        media_type,
        label: what,
        purpose: what,
        kind: Kind::App,
        serves,
    }
}

const JSON: &str = "application/json";
const MARKDOWN: &str = "text/markdown; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const TEXT: &str = "text/plain; charset=utf-8";

/// A brand's releases, from git tags, as Markdown and as JSON.
pub const CHANGELOG_MD: &str = crate::paths::CHANGELOG_MD;
pub const CHANGELOG_JSON: &str = crate::paths::CHANGELOG_JSON;

/// Every output, surfaces first in [`Surface::ALL`]'s order (row `i` is
/// `Surface::ALL[i]`), then the changelog, then those for apps.
pub const OUTPUTS: [Output; 21] = [
    surface(Surface::SpecJson, "spec.json", JSON, "canonical structured spec", "the canonical structured spec"),
    surface(Surface::SpecMd, "spec.md", MARKDOWN, "prose for a system prompt", "the brand as prose for a system prompt, with its brand book"),
    surface(Surface::TokensCss, "tokens.css", CSS, "CSS custom properties", "design tokens as CSS custom properties"),
    surface(Surface::TokensFigma, "tokens.figma.json", JSON, "Figma variables body", "a body for Figma's variables API"),
    surface(Surface::TokensJson, "tokens.json", JSON, "DTCG 2025.10 design tokens", "design tokens in strict DTCG 2025.10 (default mode)"),
    surface(Surface::TokensResolver, "tokens.resolver.json", JSON, "DTCG resolver document, every mode", "every mode as one DTCG 2025.10 resolver document, sources inlined"),
    surface(Surface::LlmsTxt, "llms.txt", TEXT, "discovery for AI tools", "discovery for AI tools"),
    surface(Surface::DesignMd, "DESIGN.md", MARKDOWN, "DESIGN.md for coding agents", "the brand in Google's DESIGN.md format, for agents that build UI: tokens in front matter, then prose"),
    surface(Surface::TailwindCss, "tailwind.css", CSS, "Tailwind CSS v4 theme", "a Tailwind CSS v4 theme, with a variant per mode"),
    surface(Surface::FamilyJson, "family.json", JSON, "the brand's family: parents and dependents", "where the brand stands in its family: the brand it extends, its chain of parents and the brands that extend it"),
    surface(Surface::TokensJs, "tokens.js", "text/javascript; charset=utf-8", "ES module of resolved tokens, every mode", "the tokens as an ES module of resolved CSS values: `tokens` (the default) and `modes.<modifier>.<context>` (what differs)"),
    surface(Surface::TokensDts, "tokens.d.ts", TEXT, "TypeScript types of tokens.js", "tokens.js's TypeScript types, every token a literal type"),
    changelog(CHANGELOG_MD, MARKDOWN, "releases from git tags, Keep a Changelog style", "the brand's releases from git tags, each with what changed and the semver level it required (Keep a Changelog)"),
    changelog(CHANGELOG_JSON, JSON, "releases from git tags, as JSON", "the brand's releases from git tags as JSON: each version, its date and its changes, each with the semver level it required"),
    app(ANDROID_ZIP, "application/zip", "Android resources: the whole res/ tree (values/tokens.xml, and values-night/tokens.xml with what the dark context changes, or values-notnight/tokens.xml with what the light context changes when the default is dark)", Serves::Always),
    app(ANDROID_VALUES, "application/xml", "Android resources of the default context: colours, dimensions (dp, sp), font weights, durations, numbers, font families", Serves::Always),
    app(ANDROID_NIGHT, "application/xml", "Android resources: what the colour scheme's dark context changes (404 for a brand without one, or whose default is dark)", Serves::OtherAppearance("values-night")),
    app(ANDROID_NOTNIGHT, "application/xml", "Android resources of a brand whose default is dark: what the colour scheme's light context changes (404 for any other brand)", Serves::OtherAppearance("values-notnight")),
    app(IOS_ZIP, "application/zip", "an Xcode asset catalogue: a colour set per colour token, with the brand's dark and high-contrast appearances", Serves::Always),
    app(FIGMA_ZIP, "application/zip", "Figma's variables import, for every paid plan: a folder per collection, a `<Mode>.tokens.json` per mode (DTCG, with `com.figma` scopes, code syntax and cross-collection aliases); in Figma, Local variables → Import", Serves::Always),
    app(PACKAGE_TGZ, "application/gzip", "an npm package of tokens.js and tokens.d.ts, at the release's version (`npm install <this URL>`)", Serves::Releases),
];

/// The outputs for apps, in the registry's order.
pub fn apps() -> impl Iterator<Item = &'static Output> {
    OUTPUTS.iter().filter(|o| o.kind == Kind::App)
}

/// The output served as `file` under a brand's key, if any.
pub fn named(file: &str) -> Option<&'static Output> {
    OUTPUTS.iter().find(|o| o.file == file)
}

/// Every output `brand` serves at the key `ctx` renders, with its path
/// under that key, in the registry's order.
pub fn of_brand<'a>(
    brand: &'a Brand,
    ctx: &'a Context,
) -> impl Iterator<Item = (&'static Output, String)> + 'a {
    OUTPUTS
        .iter()
        .filter_map(move |o| Some((o, o.file_of(brand, ctx.pin.is_some())?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_surfaces_row_is_its_place_in_all() {
        for (i, s) in Surface::ALL.into_iter().enumerate() {
            assert_eq!(OUTPUTS[i].kind, Kind::Surface(s));
            assert_eq!(s as usize, i);
        }
        let files: std::collections::BTreeSet<_> = OUTPUTS.iter().map(|o| o.file).collect();
        assert_eq!(files.len(), OUTPUTS.len(), "every file once");
    }
}
