//! What every page shares: its stylesheet (`page.css`), its script
//! (`page.js`) and, in watch mode, its live-reload script (`live.js`).
//!
//! They are the same for every brand, so they are served once, as their
//! own documents, instead of inlined into each of thousands of pages (with
//! a gzip and a brotli copy of each). Each is named by a hash of its bytes
//! (`/assets/page.<hash>.css`), so a name never serves two bodies and the
//! documents are cached as immutable; a new build of marque that changes
//! one changes its name, and the pages that link to it with it.
//!
//! PURE: the bodies are compiled in; nothing here depends on content.

use super::super::Context;
use crate::paths;
use sha2::{Digest, Sha256};
use std::sync::LazyLock;

/// One shared document of the pages.
#[derive(Debug)]
pub struct Asset {
    /// Its path: `/assets/page.<hash>.css`.
    pub path: String,
    pub media_type: &'static str,
    pub body: &'static str,
}

impl Asset {
    /// Named `<stem>.<hash>.<ext>`, the hash being the first 64 bits of
    /// the SHA-256 of `body`, in hex.
    fn new(stem: &str, ext: &str, media_type: &'static str, body: &'static str) -> Asset {
        let digest = Sha256::digest(body.as_bytes());
        let hash: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        Asset {
            path: paths::page_asset(&format!("{stem}.{hash}.{ext}")),
            media_type,
            body,
        }
    }
}

/// The three documents, made once per process.
struct Assets {
    style: Asset,
    script: Asset,
    live: Asset,
}

static ASSETS: LazyLock<Assets> = LazyLock::new(|| Assets {
    style: Asset::new(
        "page",
        "css",
        "text/css; charset=utf-8",
        include_str!("page.css"),
    ),
    script: Asset::new(
        "page",
        "js",
        "text/javascript; charset=utf-8",
        include_str!("page.js"),
    ),
    live: Asset::new(
        "live",
        "js",
        "text/javascript; charset=utf-8",
        include_str!("live.js"),
    ),
});

/// Every page's stylesheet.
pub fn style() -> &'static Asset {
    &ASSETS.style
}

/// Every page's script: copy buttons, the Try-it forms, the contents and
/// the palette's scheme switch.
pub fn script() -> &'static Asset {
    &ASSETS.script
}

/// Added in watch mode: reload on a new snapshot, show a stale brand's errors.
pub fn live() -> &'static Asset {
    &ASSETS.live
}

/// The scripts a page rendered in `ctx` runs, in order.
pub fn scripts(ctx: &Context) -> impl Iterator<Item = &'static Asset> {
    std::iter::once(script()).chain(ctx.live_reload.then(live))
}

/// Every shared document pages rendered in `ctx` link to: what a snapshot
/// (or a static site) built with `ctx` must serve beside them.
pub fn all(ctx: &Context) -> impl Iterator<Item = &'static Asset> {
    std::iter::once(style()).chain(scripts(ctx))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::Route;

    #[test]
    fn each_asset_is_named_by_the_hash_of_its_bytes() {
        let mut ctx = Context::new("https://b.example");
        ctx.live_reload = true;
        let all: Vec<&Asset> = all(&ctx).collect();
        assert_eq!(all.len(), 3);
        for a in &all {
            let digest = Sha256::digest(a.body.as_bytes());
            let hex: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
            let file = a.path.strip_prefix(paths::PAGE_ASSETS).unwrap();
            let (stem, rest) = file.split_once('.').unwrap();
            assert_eq!(rest.split_once('.').unwrap().0, hex, "{}", a.path);
            assert!(["page", "live"].contains(&stem), "{}", a.path);
            assert_eq!(Route::parse(&a.path), Route::Snapshot, "{}", a.path);
            assert_eq!(paths::brand_key_of(&a.path), None, "not a brand's path");
        }
        let names: std::collections::HashSet<&str> = all.iter().map(|a| a.path.as_str()).collect();
        assert_eq!(names.len(), 3, "three names");
        assert!(style().path.ends_with(".css") && script().path.ends_with(".js"));
    }

    #[test]
    fn the_live_script_is_only_for_watch_mode() {
        let mut ctx = Context::new("https://b.example");
        assert_eq!(all(&ctx).count(), 2);
        assert!(all(&ctx).all(|a| a.path != live().path));
        ctx.live_reload = true;
        assert_eq!(
            scripts(&ctx).map(|a| a.path.as_str()).collect::<Vec<_>>(),
            [script().path.as_str(), live().path.as_str()],
            "page.js first: live.js follows it, as when they were one script"
        );
    }
}
