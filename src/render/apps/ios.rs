//! An iOS asset catalogue (DESIGN.md section 19): `<Brand>.xcassets`, a
//! colour set per colour token, each with an appearance for every
//! context the brand has that Apple's format has one for, in the form
//! Apple's Asset Catalog Format Reference documents for a colour set's
//! `Contents.json`:
//!
//! - the default context: the colour with no appearance;
//! - the colour scheme's dark context: `luminosity` `dark`; and when the
//!   default is dark, its light context: `luminosity` `light` (the
//!   default's colour, with no appearance, is then the dark one);
//! - a context whose name says high contrast (`high-contrast`, `hc`, or
//!   `ax`, as Apple's own tokens name their accessible colours):
//!   `contrast` `high`, with `luminosity` `dark` too when its name starts
//!   with `dark` (`light` too when it starts with `light` and the default
//!   is dark).
//!
//! Components are in Display P3 when the token is written in it, else in
//! sRGB (a colour in another space converted, clipped to sRGB), as
//! strings of three decimals, as Xcode writes them. A colour set is named
//! by the token's CSS name (`color-teal-700`), so `UIColor(named:
//! "color-teal-700")` and `Color("color-teal-700")` find it.

use crate::spec::tokens::{css, Color, TokenSet, TokenValue};
use crate::spec::Brand;
use serde_json::{json, Value};

/// An appearance: what Apple calls it, in Contents.json.
type Appearance = Vec<Value>;

/// The contexts with an appearance: `(modifier, context, appearances)`.
fn appearances(set: &TokenSet) -> (Vec<(usize, usize, Appearance)>, Vec<String>) {
    let mut out = Vec::new();
    let mut left_out = Vec::new();
    for (m, modifier) in set.modes.iter().enumerate() {
        let default_dark = modifier.contexts[modifier.default].scheme() == "dark";
        for (c, context) in modifier.contexts.iter().enumerate() {
            if c == modifier.default {
                continue;
            }
            let ident = context.ident();
            let words: Vec<&str> = ident.split('-').collect();
            // `hc` (GitHub Primer), `ax` (Apple's accessible colours).
            let high =
                ident.contains("high-contrast") || words.contains(&"hc") || words.contains(&"ax");
            let dark = words.first() == Some(&"dark");
            // Light is an appearance of its own only over a dark default:
            // over a light one it is the colour with no appearance.
            let light = words.first() == Some(&"light") && default_dark;
            let mut a = Vec::new();
            if dark && (high || modifier.is_color_scheme()) {
                a.push(json!({"appearance": "luminosity", "value": "dark"}));
            }
            if light && (high || modifier.is_color_scheme()) {
                a.push(json!({"appearance": "luminosity", "value": "light"}));
            }
            if high {
                a.push(json!({"appearance": "contrast", "value": "high"}));
            }
            match a.is_empty() {
                true => left_out.push(format!(
                    "context `{}` of modifier `{}`: an asset catalogue has no appearance for it",
                    context.name, modifier.name
                )),
                false => out.push((m, c, a)),
            }
        }
    }
    // One colour per appearance: Xcode keeps one of two and says nothing
    // (Primer's `dark`, `dark-dimmed` and `dark-tritanopia` are all dark).
    // The context named exactly for it takes it, else the first.
    let plain = |m: usize, c: usize| {
        let ident = set.modes[m].contexts[c].ident();
        !matches!(
            ident.as_str(),
            "dark" | "light" | "high-contrast" | "dark-high-contrast"
        )
    };
    let mut order: Vec<usize> = (0..out.len()).collect();
    order.sort_by_key(|&i| plain(out[i].0, out[i].1));
    let mut taken: Vec<(Appearance, usize, usize)> = Vec::new();
    let mut keep = vec![false; out.len()];
    for i in order {
        let (m, c, a) = &out[i];
        match taken.iter().find(|(t, _, _)| t == a) {
            Some((_, tm, tc)) => {
                let modifier = &set.modes[*m];
                left_out.push(format!(
                    "context `{}` of modifier `{}`: its appearance is context `{}` of modifier `{}`'s",
                    modifier.contexts[*c].name,
                    modifier.name,
                    set.modes[*tm].contexts[*tc].name,
                    set.modes[*tm].name
                ));
            }
            None => {
                taken.push((a.clone(), *m, *c));
                keep[i] = true;
            }
        }
    }
    let out = out
        .into_iter()
        .zip(keep)
        .filter_map(|(x, k)| k.then_some(x))
        .collect();
    (out, left_out)
}

fn component(v: f64) -> String {
    format!("{:.3}", v.clamp(0.0, 1.0))
}

/// A colour as Contents.json writes one.
fn color(c: &Color) -> Value {
    let (space, [r, g, b]) = match c.space.as_str() {
        "display-p3" => (
            "display-p3",
            [
                c.components[0].value(),
                c.components[1].value(),
                c.components[2].value(),
            ],
        ),
        _ => ("srgb", c.srgb()),
    };
    json!({
        "color-space": space,
        "components": {"alpha": component(c.alpha), "blue": component(b), "green": component(g), "red": component(r)}
    })
}

/// The catalogue's folder name: the brand's name in letters and digits.
pub fn catalogue_name(brand: &Brand) -> String {
    let name: String = brand
        .doc
        .name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| {
            let mut cs = w.chars();
            cs.next()
                .map(|f| f.to_ascii_uppercase().to_string() + cs.as_str())
                .unwrap_or_default()
        })
        .collect();
    match name.is_empty() {
        true => "Brand".to_string(),
        false => name,
    }
}

/// Every file of the catalogue (path in the zip, bytes), and the README.
pub fn render(brand: &Brand) -> Vec<(String, Vec<u8>)> {
    let set = &brand.tokens;
    let root = format!("{}.xcassets", catalogue_name(brand));
    let (contexts, left_out) = appearances(set);
    let views: Vec<(&TokenSet, &Appearance)> = contexts
        .iter()
        .map(|(m, c, a)| (set.context(*m, *c), a))
        .collect();
    let mut files = vec![(
        format!("{root}/Contents.json"),
        pretty(&json!({"info": {"author": "xcode", "version": 1}})),
    )];
    let mut count = 0;
    let mut example = None;
    for t in &set.tokens {
        let Some(TokenValue::Color(c)) = set.resolve(&t.value).map(|v| v.into_owned()) else {
            continue;
        };
        let mut colors = vec![json!({"color": color(&c), "idiom": "universal"})];
        for (here, a) in &views {
            let Some(TokenValue::Color(there)) = here
                .get(&t.name())
                .and_then(|h| here.resolve(&h.value))
                .map(|v| v.into_owned())
            else {
                continue;
            };
            colors.push(json!({"appearances": a, "color": color(&there), "idiom": "universal"}));
        }
        let name = css::css_name(&t.path);
        example.get_or_insert_with(|| name.clone());
        files.push((
            format!("{root}/{name}.colorset/Contents.json"),
            pretty(&json!({"colors": colors, "info": {"author": "xcode", "version": 1}})),
        ));
        count += 1;
    }
    let mut readme = format!(
        "{root}: the colours of {} {} as an Xcode asset catalogue (generated by marque).\n\n\
         {count} colour sets, one per colour token, named by the token's CSS name.\n\n\
         To use it: drag {root} into your Xcode project's navigator (check \"Copy items if needed\" and your app target),\n\
         or put it in a Swift package's resources.\n",
        brand.slug, brand.version
    );
    // Swift string literals: the name is a CSS identifier, but say so
    // safely whatever it is.
    if let Some(name) = example {
        let literal = serde_json::to_string(&name).unwrap_or_default();
        readme.push_str(&format!(
            "Then, for the brand's `{name}`:\n\n\
             \x20   UIColor(named: {literal})   // UIKit\n\
             \x20   Color({literal})            // SwiftUI\n"
        ));
    }
    readme.push('\n');
    readme.push_str(&appearances_line(&contexts));
    if !left_out.is_empty() {
        readme.push_str("\nLeft out:\n");
        for l in &left_out {
            readme.push_str(&format!("- {l}\n"));
        }
    }
    readme.push_str("- every token that is not a colour: an asset catalogue holds colours, not lengths or type.\n");
    files.push(("README.txt".to_string(), readme.into_bytes()));
    files
}

/// What the README says of the appearances: only those the brand has.
fn appearances_line(contexts: &[(usize, usize, Appearance)]) -> String {
    let mut kinds: Vec<&str> = Vec::new();
    for (_, _, a) in contexts {
        for x in a {
            let kind = match (x["appearance"].as_str(), x["value"].as_str()) {
                (Some("luminosity"), Some("dark")) => "dark (luminosity dark)",
                (Some("luminosity"), Some("light")) => "light (luminosity light)",
                (Some("contrast"), Some("high")) => "high contrast (contrast high)",
                _ => continue,
            };
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
    }
    match kinds.is_empty() {
        true => "Each colour set has one colour: the brand has no context an asset catalogue has an appearance for.\n".to_string(),
        false => format!(
            "Besides the default, each colour set has the appearances the brand has: {}.\n",
            kinds.join(", ")
        ),
    }
}

fn pretty(v: &Value) -> Vec<u8> {
    let mut s = serde_json::to_string_pretty(v).unwrap_or_default();
    s.push('\n');
    s.into_bytes()
}
