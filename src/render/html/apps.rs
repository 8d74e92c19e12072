//! The API page's Apps section (DESIGN.md section 19): a copyable
//! snippet per platform.

use super::sections::Snippets;
use crate::render::escape::html;
use crate::render::{apps, outputs, Context, Surface};
use crate::spec::Brand;
use std::fmt::Write;

pub(super) fn section(o: &mut String, brand: &Brand, ctx: &Context, snip: &mut Snippets) {
    let s = &brand.slug;
    let color = brand
        .tokens
        .tokens
        .iter()
        .find(|t| t.ty == crate::spec::tokens::TokenType::Color);
    o.push_str("<section id=\"apps\"><h2>Apps</h2>\n<p>The same tokens, in each platform's own form, with every mode it has a place for.</p>");
    let dark = brand.tokens.dark_context().is_some();
    o.push_str("<h3 id=\"apps-android\">Android</h3><p>Resources for <code>res/</code>: colours, dimensions in dp and sp");
    // The folder Android reads the other appearance from, as the zip has it.
    o.push_str(match crate::render::apps::android::night_folder(&brand.tokens) {
        Some("values-notnight") => {
            ", and <code>values-notnight</code> for the light context (the default is dark):</p>"
        }
        Some(_) => ", and <code>values-night</code> for the dark context:</p>",
        None => ":</p>",
    });
    snip.code(
        o,
        &format!(
            "curl -sSO {}\nunzip -o android.zip -d app/src/main/",
            ctx.brand_url(s, outputs::ANDROID_ZIP)
        ),
    );
    if let Some(t) = color {
        let _ = write!(
            o,
            "<p>Then <code>@color/{}</code> in layouts.</p>",
            html(&apps::android::name(&t.path))
        );
    }
    o.push_str(
        "<h3 id=\"apps-ios\">iOS</h3><p>An asset catalogue with a colour set per colour token",
    );
    o.push_str(match dark {
        true => " and its dark appearance; drag it into Xcode:</p>",
        false => "; drag it into Xcode:</p>",
    });
    snip.code(
        o,
        &format!(
            "curl -sSO {}\nunzip -o ios.zip   # {}.xcassets and a README",
            ctx.brand_url(s, outputs::IOS_ZIP),
            apps::ios::catalogue_name(brand)
        ),
    );
    if let Some(t) = color {
        let _ = write!(
            o,
            "<p>Then <code>Color(\"{}\")</code> in SwiftUI.</p>",
            html(&crate::spec::tokens::css::css_name(&t.path))
        );
    }
    o.push_str("<h3 id=\"apps-figma\">Figma</h3><p>Variables for Figma's own import, on every paid plan: a folder per collection, a <code>.tokens.json</code> file per mode. Unzip it; in Figma, open Local variables, choose Import, and choose a collection's files (its README says more):</p>");
    snip.code(
        o,
        &format!(
            "curl -sSO {}\nunzip -o figma.zip -d figma-variables",
            ctx.brand_url(s, outputs::FIGMA_ZIP)
        ),
    );
    o.push_str("<p>On the Enterprise plan, <code>tokens.figma.json</code> is the same variables as a body for Figma's REST API.</p>");
    o.push_str("<h3 id=\"apps-js\">JavaScript and TypeScript</h3>");
    match brand.releases.first() {
        Some(latest) => {
            o.push_str("<p>Each release is an npm package of tokens.js and its types:</p>");
            let url = ctx.url(&crate::paths::brand_doc(
                &crate::paths::brand_key(s, Some(&latest.version.to_string())),
                outputs::PACKAGE_TGZ,
            ));
            snip.code(o, &format!("npm install {url}"));
            let name = apps::package_name(ctx.npm_scope.as_deref(), s);
            snip.code(
                o,
                &format!(
                    "import {{ tokens, modes }} from \"{name}\";\nconsole.log(tokens, modes);"
                ),
            );
        }
        None => {
            let _ = write!(
                o,
                "<p>No release yet: once one is tagged (<code>{}@&lt;version&gt;</code>), it is an npm package. Until then, the module itself:</p>",
                html(s)
            );
            snip.code(
                o,
                &format!(
                    "curl -sSO {}\ncurl -sSO {}",
                    ctx.brand_url(s, Surface::TokensJs.file()),
                    ctx.brand_url(s, Surface::TokensDts.file())
                ),
            );
        }
    }
    o.push_str("</section>\n");
}
