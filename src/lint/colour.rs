//! PURE. Colour literals as code writes them, read into sRGB and alpha:
//! hex (`#rgb` to `#rrggbbaa`, and Android's `#aarrggbb`), the CSS colour
//! functions (`rgb()`, `rgba()`, `hsl()`, `hsla()`, `hwb()`, `lab()`,
//! `lch()`, `oklab()`, `oklch()`, `color()`), both the comma and the space
//! syntax, and the CSS named colours. The conversion is `crate::color`'s.

use crate::color;

/// A colour read from code: gamma-encoded sRGB (clipped) and alpha.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgba {
    pub rgb: [f64; 3],
    pub alpha: f64,
}

impl Rgba {
    /// The colour as 8-bit channels and alpha: equal keys are the same
    /// colour in any notation (what "exactly" means for `marque lint`).
    pub fn key(&self) -> [u8; 4] {
        let byte = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
        [
            byte(self.rgb[0]),
            byte(self.rgb[1]),
            byte(self.rgb[2]),
            byte(self.alpha),
        ]
    }
}

/// `#…` in CSS order (the alpha last).
pub fn hex(s: &str) -> Option<Rgba> {
    color::parse_hex(s).map(|(rgb, alpha)| Rgba { rgb, alpha })
}

/// `#aarrggbb` as Android writes it (the alpha first); other lengths as CSS.
pub fn android_hex(s: &str) -> Option<Rgba> {
    let h = s.strip_prefix('#')?;
    match h.len() {
        8 => hex(&format!("#{}{}", &h[2..], &h[..2])),
        4 => hex(&format!("#{}{}", &h[1..], &h[..1])),
        _ => hex(s),
    }
}

/// A 32-bit ARGB integer (`0xFF0969DA`, Compose's `Color(0xFF0969DA)`),
/// or a 24-bit RGB one (`0x0969DA`, opaque).
pub fn argb_int(digits: &str) -> Option<Rgba> {
    let v = u32::from_str_radix(digits, 16).ok()?;
    let (a, rgb) = match digits.len() {
        8 => (v >> 24, v & 0xFF_FFFF),
        6 => (0xFF, v),
        _ => return None,
    };
    let c = |shift: u32| f64::from((rgb >> shift) & 0xFF) / 255.0;
    Some(Rgba {
        rgb: [c(16), c(8), c(0)],
        alpha: f64::from(a) / 255.0,
    })
}

/// A number, a percentage (of `scale`) or `none`, as a colour function's
/// argument is written.
fn arg(s: &str, scale: f64) -> Option<f64> {
    let s = s.trim();
    if s == "none" {
        return Some(0.0);
    }
    if let Some(p) = s.strip_suffix('%') {
        return p.parse::<f64>().ok().map(|v| v / 100.0 * scale);
    }
    let s = s.strip_suffix("deg").unwrap_or(s);
    s.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// The arguments of a colour function: three components and an alpha,
/// split at commas or spaces, with `/` before the alpha.
fn args(inner: &str) -> Option<([&str; 3], Option<&str>)> {
    let (main, alpha) = match inner.split_once('/') {
        Some((m, a)) => (m, Some(a.trim())),
        None => (inner, None),
    };
    let parts: Vec<&str> = main
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    match (parts.len(), alpha) {
        (3, a) => Some(([parts[0], parts[1], parts[2]], a)),
        (4, None) => Some(([parts[0], parts[1], parts[2]], Some(parts[3]))),
        _ => None,
    }
}

/// A CSS colour function call, `name(inner)` (its name in lowercase).
pub fn function(name: &str, inner: &str) -> Option<Rgba> {
    if inner.contains(['(', '$', '{', '@']) {
        // A variable or a nested function: not a literal.
        return None;
    }
    if name == "color" {
        let (space, rest) = inner.trim().split_once(char::is_whitespace)?;
        let ([a, b, c], alpha) = args(rest)?;
        let comps = [arg(a, 1.0)?, arg(b, 1.0)?, arg(c, 1.0)?];
        let rgb = color::to_srgb(space, comps)?;
        return Some(Rgba {
            rgb,
            alpha: alpha.map_or(Some(1.0), |a| arg(a, 1.0))?,
        });
    }
    let ([a, b, c], alpha) = args(inner)?;
    let (space, comps) = match name {
        "rgb" | "rgba" => (
            "srgb",
            [
                arg(a, 255.0)? / 255.0,
                arg(b, 255.0)? / 255.0,
                arg(c, 255.0)? / 255.0,
            ],
        ),
        "hsl" | "hsla" => ("hsl", [arg(a, 1.0)?, arg(b, 100.0)?, arg(c, 100.0)?]),
        "hwb" => ("hwb", [arg(a, 1.0)?, arg(b, 100.0)?, arg(c, 100.0)?]),
        "lab" => ("lab", [arg(a, 100.0)?, arg(b, 125.0)?, arg(c, 125.0)?]),
        "lch" => ("lch", [arg(a, 100.0)?, arg(b, 150.0)?, arg(c, 1.0)?]),
        "oklab" => ("oklab", [arg(a, 1.0)?, arg(b, 0.4)?, arg(c, 0.4)?]),
        "oklch" => ("oklch", [arg(a, 1.0)?, arg(b, 0.4)?, arg(c, 1.0)?]),
        _ => return None,
    };
    let rgb = color::to_srgb(space, comps)?;
    let alpha = alpha.map_or(Some(1.0), |a| arg(a, 1.0))?;
    Some(Rgba {
        rgb,
        alpha: alpha.clamp(0.0, 1.0),
    })
}

/// The colour functions `function` reads, by name.
pub const FUNCTIONS: &[&str] = &[
    "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color",
];

/// A CSS named colour (lowercase), as `#rrggbb`.
pub fn named(name: &str) -> Option<Rgba> {
    let i = NAMED.binary_search_by(|(n, _)| n.cmp(&name)).ok()?;
    let v = NAMED[i].1;
    argb_int(&format!("{v:06x}"))
}

/// A named colour in any case (`White`), with no copy made: the longest
/// name is 20 letters, so a longer word is none.
pub fn named_any_case(word: &str) -> Option<Rgba> {
    let mut buf = [0u8; 20];
    let lower = buf.get_mut(..word.len())?;
    lower.copy_from_slice(word.as_bytes());
    lower.make_ascii_lowercase();
    named(std::str::from_utf8(lower).ok()?)
}

/// The CSS Color 4 named colours, sorted by name (`transparent` and
/// `currentcolor` are not colours a token stands for).
#[rustfmt::skip]
const NAMED: &[(&str, u32)] = &[
    ("aliceblue", 0xf0f8ff), ("antiquewhite", 0xfaebd7), ("aqua", 0x00ffff),
    ("aquamarine", 0x7fffd4), ("azure", 0xf0ffff), ("beige", 0xf5f5dc),
    ("bisque", 0xffe4c4), ("black", 0x000000), ("blanchedalmond", 0xffebcd),
    ("blue", 0x0000ff), ("blueviolet", 0x8a2be2), ("brown", 0xa52a2a),
    ("burlywood", 0xdeb887), ("cadetblue", 0x5f9ea0), ("chartreuse", 0x7fff00),
    ("chocolate", 0xd2691e), ("coral", 0xff7f50), ("cornflowerblue", 0x6495ed),
    ("cornsilk", 0xfff8dc), ("crimson", 0xdc143c), ("cyan", 0x00ffff),
    ("darkblue", 0x00008b), ("darkcyan", 0x008b8b), ("darkgoldenrod", 0xb8860b),
    ("darkgray", 0xa9a9a9), ("darkgreen", 0x006400), ("darkgrey", 0xa9a9a9),
    ("darkkhaki", 0xbdb76b), ("darkmagenta", 0x8b008b), ("darkolivegreen", 0x556b2f),
    ("darkorange", 0xff8c00), ("darkorchid", 0x9932cc), ("darkred", 0x8b0000),
    ("darksalmon", 0xe9967a), ("darkseagreen", 0x8fbc8f), ("darkslateblue", 0x483d8b),
    ("darkslategray", 0x2f4f4f), ("darkslategrey", 0x2f4f4f), ("darkturquoise", 0x00ced1),
    ("darkviolet", 0x9400d3), ("deeppink", 0xff1493), ("deepskyblue", 0x00bfff),
    ("dimgray", 0x696969), ("dimgrey", 0x696969), ("dodgerblue", 0x1e90ff),
    ("firebrick", 0xb22222), ("floralwhite", 0xfffaf0), ("forestgreen", 0x228b22),
    ("fuchsia", 0xff00ff), ("gainsboro", 0xdcdcdc), ("ghostwhite", 0xf8f8ff),
    ("gold", 0xffd700), ("goldenrod", 0xdaa520), ("gray", 0x808080),
    ("green", 0x008000), ("greenyellow", 0xadff2f), ("grey", 0x808080),
    ("honeydew", 0xf0fff0), ("hotpink", 0xff69b4), ("indianred", 0xcd5c5c),
    ("indigo", 0x4b0082), ("ivory", 0xfffff0), ("khaki", 0xf0e68c),
    ("lavender", 0xe6e6fa), ("lavenderblush", 0xfff0f5), ("lawngreen", 0x7cfc00),
    ("lemonchiffon", 0xfffacd), ("lightblue", 0xadd8e6), ("lightcoral", 0xf08080),
    ("lightcyan", 0xe0ffff), ("lightgoldenrodyellow", 0xfafad2), ("lightgray", 0xd3d3d3),
    ("lightgreen", 0x90ee90), ("lightgrey", 0xd3d3d3), ("lightpink", 0xffb6c1),
    ("lightsalmon", 0xffa07a), ("lightseagreen", 0x20b2aa), ("lightskyblue", 0x87cefa),
    ("lightslategray", 0x778899), ("lightslategrey", 0x778899), ("lightsteelblue", 0xb0c4de),
    ("lightyellow", 0xffffe0), ("lime", 0x00ff00), ("limegreen", 0x32cd32),
    ("linen", 0xfaf0e6), ("magenta", 0xff00ff), ("maroon", 0x800000),
    ("mediumaquamarine", 0x66cdaa), ("mediumblue", 0x0000cd), ("mediumorchid", 0xba55d3),
    ("mediumpurple", 0x9370db), ("mediumseagreen", 0x3cb371), ("mediumslateblue", 0x7b68ee),
    ("mediumspringgreen", 0x00fa9a), ("mediumturquoise", 0x48d1cc), ("mediumvioletred", 0xc71585),
    ("midnightblue", 0x191970), ("mintcream", 0xf5fffa), ("mistyrose", 0xffe4e1),
    ("moccasin", 0xffe4b5), ("navajowhite", 0xffdead), ("navy", 0x000080),
    ("oldlace", 0xfdf5e6), ("olive", 0x808000), ("olivedrab", 0x6b8e23),
    ("orange", 0xffa500), ("orangered", 0xff4500), ("orchid", 0xda70d6),
    ("palegoldenrod", 0xeee8aa), ("palegreen", 0x98fb98), ("paleturquoise", 0xafeeee),
    ("palevioletred", 0xdb7093), ("papayawhip", 0xffefd5), ("peachpuff", 0xffdab9),
    ("peru", 0xcd853f), ("pink", 0xffc0cb), ("plum", 0xdda0dd),
    ("powderblue", 0xb0e0e6), ("purple", 0x800080), ("rebeccapurple", 0x663399),
    ("red", 0xff0000), ("rosybrown", 0xbc8f8f), ("royalblue", 0x4169e1),
    ("saddlebrown", 0x8b4513), ("salmon", 0xfa8072), ("sandybrown", 0xf4a460),
    ("seagreen", 0x2e8b57), ("seashell", 0xfff5ee), ("sienna", 0xa0522d),
    ("silver", 0xc0c0c0), ("skyblue", 0x87ceeb), ("slateblue", 0x6a5acd),
    ("slategray", 0x708090), ("slategrey", 0x708090), ("snow", 0xfffafa),
    ("springgreen", 0x00ff7f), ("steelblue", 0x4682b4), ("tan", 0xd2b48c),
    ("teal", 0x008080), ("thistle", 0xd8bfd8), ("tomato", 0xff6347),
    ("turquoise", 0x40e0d0), ("violet", 0xee82ee), ("wheat", 0xf5deb3),
    ("white", 0xffffff), ("whitesmoke", 0xf5f5f5), ("yellow", 0xffff00),
    ("yellowgreen", 0x9acd32),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_colour_in_every_notation_has_one_key() {
        let key = hex("#0969da").unwrap().key();
        for (name, inner) in [
            ("rgb", "9, 105, 218"),
            ("rgb", "9 105 218"),
            ("rgba", "9,105,218,1"),
            ("rgb", "9 105 218 / 100%"),
            ("hsl", "212.4 92% 44.5%"),
        ] {
            assert_eq!(function(name, inner).unwrap().key(), key, "{name}({inner})");
        }
        assert_eq!(argb_int("FF0969DA").unwrap().key(), key);
        assert_eq!(android_hex("#ff0969da").unwrap().key(), key);
        assert_eq!(named("white").unwrap().key(), [255, 255, 255, 255]);
        assert!(NAMED.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(function("rgb", "var(--x)"), None);
    }

    #[test]
    fn oklch_reads_as_its_srgb() {
        // oklch(1 0 0) is white, oklch(0 0 0) black.
        assert_eq!(function("oklch", "1 0 0").unwrap().key(), [255; 4]);
        assert_eq!(function("oklch", "0% 0 0").unwrap().key(), [0, 0, 0, 255]);
    }
}
