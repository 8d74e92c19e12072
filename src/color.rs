//! Colour arithmetic: conversion of every DTCG 2025.10 colour space to sRGB,
//! and the WCAG 2 contrast ratio.
//!
//! Matrices and transfer functions follow the sample code of CSS Color 4,
//! which the DTCG colour module defers to. Out-of-gamut results are clipped
//! to the sRGB cube: Figma and the contrast formula both need sRGB, and
//! clipping keeps the conversion predictable for authors.

/// The colour spaces DTCG 2025.10 names, with their `colorSpace` spelling.
pub const COLOR_SPACES: &[&str] = &[
    "srgb",
    "srgb-linear",
    "hsl",
    "hwb",
    "lab",
    "lch",
    "oklab",
    "oklch",
    "display-p3",
    "a98-rgb",
    "prophoto-rgb",
    "rec2020",
    "xyz-d65",
    "xyz-d50",
];

type Mat = [[f64; 3]; 3];

const LIN_SRGB_TO_XYZ: Mat = [
    [
        0.412_390_799_265_959_34,
        0.357_584_339_383_878,
        0.180_480_788_401_834_3,
    ],
    [
        0.212_639_005_871_510_27,
        0.715_168_678_767_756,
        0.072_192_315_360_733_71,
    ],
    [
        0.019_330_818_715_591_82,
        0.119_194_779_794_625_98,
        0.950_532_152_249_660_7,
    ],
];
const XYZ_TO_LIN_SRGB: Mat = [
    [
        3.240_969_941_904_522_6,
        -1.537_383_177_570_094,
        -0.498_610_760_293_003_4,
    ],
    [
        -0.969_243_636_280_879_6,
        1.875_967_501_507_720_2,
        0.041_555_057_407_175_59,
    ],
    [
        0.055_630_079_696_993_66,
        -0.203_976_958_888_976_52,
        1.056_971_514_242_878_6,
    ],
];
const LIN_P3_TO_XYZ: Mat = [
    [
        0.486_570_948_648_216_2,
        0.265_667_693_169_093_06,
        0.198_217_285_234_362_5,
    ],
    [
        0.228_974_564_069_748_8,
        0.691_738_521_836_506_4,
        0.079_286_914_093_745,
    ],
    [0.0, 0.045_113_381_858_902_64, 1.043_944_368_900_976],
];
const LIN_A98_TO_XYZ: Mat = [
    [
        0.576_669_042_910_130_5,
        0.185_558_237_906_546_3,
        0.188_228_646_234_994_7,
    ],
    [
        0.297_344_975_250_536_05,
        0.627_363_566_255_466_1,
        0.075_291_458_493_997_88,
    ],
    [
        0.027_031_361_386_412_34,
        0.070_688_852_535_827_23,
        0.991_337_536_837_638_8,
    ],
];
const LIN_2020_TO_XYZ: Mat = [
    [
        0.636_958_048_301_291_4,
        0.144_616_903_586_208_32,
        0.168_880_975_164_172_1,
    ],
    [
        0.262_700_212_011_267_1,
        0.677_998_071_518_870_8,
        0.059_301_716_469_861_96,
    ],
    [0.0, 0.028_072_693_049_087_428, 1.060_985_057_710_791],
];
const LIN_PROPHOTO_TO_XYZ_D50: Mat = [
    [
        0.797_760_489_672_302_7,
        0.135_185_837_175_740_31,
        0.031_349_349_581_524_8,
    ],
    [
        0.288_071_128_229_293_4,
        0.711_843_217_810_101_4,
        0.000_085_653_960_605_259,
    ],
    [0.0, 0.0, 0.825_104_602_510_460_1],
];
const D50_TO_D65: Mat = [
    [
        0.955_473_421_488_075,
        -0.023_098_454_948_764_71,
        0.063_259_243_200_570_72,
    ],
    [
        -0.028_369_709_333_863_7,
        1.009_995_398_081_304_1,
        0.021_041_441_191_917_323,
    ],
    [
        0.012_314_014_864_481_998,
        -0.020_507_649_298_898_964,
        1.330_365_926_242_124,
    ],
];
const D50_WHITE: [f64; 3] = [0.964_295_676_429_567_7, 1.0, 0.825_104_602_510_460_2];

fn mul(m: &Mat, v: [f64; 3]) -> [f64; 3] {
    [
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    ]
}

fn srgb_decode(v: f64) -> f64 {
    let a = v.abs();
    if a <= 0.04045 {
        v / 12.92
    } else {
        v.signum() * ((a + 0.055) / 1.055).powf(2.4)
    }
}

fn srgb_encode(v: f64) -> f64 {
    let a = v.abs();
    if a <= 0.003_130_8 {
        v * 12.92
    } else {
        v.signum() * (1.055 * a.powf(1.0 / 2.4) - 0.055)
    }
}

fn xyz_d65_to_srgb(xyz: [f64; 3]) -> [f64; 3] {
    mul(&XYZ_TO_LIN_SRGB, xyz).map(srgb_encode)
}

fn lab_to_xyz_d50(l: f64, a: f64, b: f64) -> [f64; 3] {
    const KAPPA: f64 = 24389.0 / 27.0;
    const EPSILON: f64 = 216.0 / 24389.0;
    let f1 = (l + 16.0) / 116.0;
    let f0 = a / 500.0 + f1;
    let f2 = f1 - b / 200.0;
    let x = if f0.powi(3) > EPSILON {
        f0.powi(3)
    } else {
        (116.0 * f0 - 16.0) / KAPPA
    };
    let y = if l > KAPPA * EPSILON {
        f1.powi(3)
    } else {
        l / KAPPA
    };
    let z = if f2.powi(3) > EPSILON {
        f2.powi(3)
    } else {
        (116.0 * f2 - 16.0) / KAPPA
    };
    [x * D50_WHITE[0], y * D50_WHITE[1], z * D50_WHITE[2]]
}

fn oklab_to_lin_srgb(l: f64, a: f64, b: f64) -> [f64; 3] {
    let l_ = (l + 0.396_337_777_4 * a + 0.215_803_757_3 * b).powi(3);
    let m_ = (l - 0.105_561_345_8 * a - 0.063_854_172_8 * b).powi(3);
    let s_ = (l - 0.089_484_177_5 * a - 1.291_485_548 * b).powi(3);
    [
        4.076_741_662_1 * l_ - 3.307_711_591_3 * m_ + 0.230_969_929_2 * s_,
        -1.268_438_004_6 * l_ + 2.609_757_401_1 * m_ - 0.341_319_396_5 * s_,
        -0.004_196_086_3 * l_ - 0.703_418_614_7 * m_ + 1.707_614_701 * s_,
    ]
}

fn polar(c: f64, h: f64) -> (f64, f64) {
    let r = h.to_radians();
    (c * r.cos(), c * r.sin())
}

/// Gamma-encoded sRGB (0..=1) as HSL: hue in degrees, saturation and
/// lightness in percent.
pub fn srgb_to_hsl(rgb: [f64; 3]) -> [f64; 3] {
    let [r, g, b] = rgb;
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let l = (max + min) / 2.0;
    let d = max - min;
    if d == 0.0 {
        return [0.0, 0.0, l * 100.0];
    }
    let s = d / (1.0 - (2.0 * l - 1.0).abs());
    let h = if max == r {
        60.0 * ((g - b) / d).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((b - r) / d + 2.0)
    } else {
        60.0 * ((r - g) / d + 4.0)
    };
    [h, s * 100.0, l * 100.0]
}

fn hsl_to_srgb(h: f64, s: f64, l: f64) -> [f64; 3] {
    let (s, l) = (s / 100.0, l / 100.0);
    let h = h.rem_euclid(360.0);
    let f = |n: f64| {
        let k = (n + h / 30.0) % 12.0;
        let a = s * l.min(1.0 - l);
        l - a * (k - 3.0).min(9.0 - k).clamp(-1.0, 1.0)
    };
    [f(0.0), f(8.0), f(4.0)]
}

/// Converts components of `space` (with `none` read as 0) to gamma-encoded
/// sRGB in 0..=1, clipped to the gamut. Returns `None` for an unknown colour space.
pub fn to_srgb(space: &str, c: [f64; 3]) -> Option<[f64; 3]> {
    let rgb = to_srgb_unclipped(space, c)?;
    Some(rgb.map(|v| if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) }))
}

/// Like [`to_srgb`], without clipping: a colour outside sRGB has channels
/// below 0 or above 1.
pub fn to_srgb_unclipped(space: &str, c: [f64; 3]) -> Option<[f64; 3]> {
    let rgb = match space {
        "srgb" => c,
        "srgb-linear" => c.map(srgb_encode),
        "hsl" => hsl_to_srgb(c[0], c[1], c[2]),
        "hwb" => {
            let (w, b) = (c[1] / 100.0, c[2] / 100.0);
            if w + b >= 1.0 {
                let g = w / (w + b);
                [g, g, g]
            } else {
                hsl_to_srgb(c[0], 100.0, 50.0).map(|v| v * (1.0 - w - b) + w)
            }
        }
        "lab" => xyz_d65_to_srgb(mul(&D50_TO_D65, lab_to_xyz_d50(c[0], c[1], c[2]))),
        "lch" => {
            let (a, b) = polar(c[1], c[2]);
            xyz_d65_to_srgb(mul(&D50_TO_D65, lab_to_xyz_d50(c[0], a, b)))
        }
        "oklab" => oklab_to_lin_srgb(c[0], c[1], c[2]).map(srgb_encode),
        "oklch" => {
            let (a, b) = polar(c[1], c[2]);
            oklab_to_lin_srgb(c[0], a, b).map(srgb_encode)
        }
        "display-p3" => xyz_d65_to_srgb(mul(&LIN_P3_TO_XYZ, c.map(srgb_decode))),
        "a98-rgb" => xyz_d65_to_srgb(mul(
            &LIN_A98_TO_XYZ,
            c.map(|v| v.signum() * v.abs().powf(563.0 / 256.0)),
        )),
        "prophoto-rgb" => {
            let lin = c.map(|v| {
                if v.abs() <= 16.0 / 512.0 {
                    v / 16.0
                } else {
                    v.signum() * v.abs().powf(1.8)
                }
            });
            xyz_d65_to_srgb(mul(&D50_TO_D65, mul(&LIN_PROPHOTO_TO_XYZ_D50, lin)))
        }
        "rec2020" => {
            const ALPHA: f64 = 1.099_296_826_809_44;
            const BETA: f64 = 0.018_053_968_510_807;
            let lin = c.map(|v| {
                if v.abs() < BETA * 4.5 {
                    v / 4.5
                } else {
                    v.signum() * ((v.abs() + ALPHA - 1.0) / ALPHA).powf(1.0 / 0.45)
                }
            });
            xyz_d65_to_srgb(mul(&LIN_2020_TO_XYZ, lin))
        }
        "xyz-d65" => xyz_d65_to_srgb(c),
        "xyz-d50" => xyz_d65_to_srgb(mul(&D50_TO_D65, c)),
        _ => return None,
    };
    Some(rgb)
}

/// Gamma-encoded sRGB as OKLab (Björn Ottosson's matrices): lightness
/// 0..=1 and the two opponent axes, where a Euclidean distance is a
/// perceived difference (`marque lint` compares colours with it).
pub fn srgb_to_oklab(rgb: [f64; 3]) -> [f64; 3] {
    let [r, g, b] = rgb.map(srgb_decode);
    let l = 0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * b;
    let m = 0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * b;
    let s = 0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * b;
    let (l, m, s) = (l.cbrt(), m.cbrt(), s.cbrt());
    [
        0.210_454_255_3 * l + 0.793_617_785 * m - 0.004_072_046_8 * s,
        1.977_998_495_1 * l - 2.428_592_205 * m + 0.450_593_709_9 * s,
        0.025_904_037_1 * l + 0.782_771_766_2 * m - 0.808_675_766 * s,
    ]
}

/// WCAG 2 relative luminance of a gamma-encoded sRGB colour.
pub fn luminance(rgb: [f64; 3]) -> f64 {
    let lin = rgb.map(srgb_decode);
    mul(&LIN_SRGB_TO_XYZ, lin)[1]
}

/// WCAG 2 contrast ratio, from 1 to 21.
pub fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Composites `fg` with alpha over an opaque `bg`, as a reader sees it.
pub fn over(fg: [f64; 3], alpha: f64, bg: [f64; 3]) -> [f64; 3] {
    [0, 1, 2].map(|i| fg[i] * alpha + bg[i] * (1.0 - alpha))
}

/// The contrast ratio people are shown: `fg` with `alpha` composited over
/// `bg`, cut (not rounded) to two decimals, so that a verdict on the number
/// shown is the verdict on the colours (4.499 is 4.49 and fails AA).
pub fn shown_contrast(fg: [f64; 3], alpha: f64, bg: [f64; 3]) -> f64 {
    let ratio = contrast(over(fg, alpha, bg), bg);
    (ratio * 100.0).floor() / 100.0
}

/// `#rrggbb` (or `#rrggbbaa` when alpha is below 1) of an sRGB colour.
pub fn hex(rgb: [f64; 3], alpha: f64) -> String {
    let byte = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round() as u8;
    let mut s = format!(
        "#{:02x}{:02x}{:02x}",
        byte(rgb[0]),
        byte(rgb[1]),
        byte(rgb[2])
    );
    if alpha < 1.0 {
        s.push_str(&format!("{:02x}", byte(alpha)));
    }
    s
}

/// Parses `#rgb`, `#rgba`, `#rrggbb` or `#rrggbbaa` into sRGB components and alpha.
pub fn parse_hex(s: &str) -> Option<([f64; 3], f64)> {
    let h = s.strip_prefix('#')?;
    if !h.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let expand: String = match h.len() {
        3 | 4 => h.chars().flat_map(|c| [c, c]).collect(),
        6 | 8 => h.to_string(),
        _ => return None,
    };
    let byte = |i: usize| {
        u8::from_str_radix(&expand[i..i + 2], 16)
            .ok()
            .map(|b| f64::from(b) / 255.0)
    };
    let rgb = [byte(0)?, byte(2)?, byte(4)?];
    let alpha = if expand.len() == 8 { byte(6)? } else { 1.0 };
    Some((rgb, alpha))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex_of(space: &str, c: [f64; 3]) -> String {
        hex(to_srgb(space, c).unwrap(), 1.0)
    }

    #[test]
    fn converts_reference_colours_to_srgb() {
        // Reference values from CSS Color 4 conversions (colorjs.io).
        assert_eq!(hex_of("oklch", [0.627_955, 0.257_683, 29.2339]), "#ff0000");
        assert_eq!(
            hex_of("oklab", [0.519_752, -0.140_302, 0.107_676]),
            "#008000"
        );
        assert_eq!(
            hex_of("display-p3", [0.917_488, 0.200_287, 0.138_561]),
            "#ff0000"
        );
        assert_eq!(hex_of("hsl", [210.0, 100.0, 50.0]), "#0080ff");
        assert_eq!(hex_of("hwb", [0.0, 100.0, 100.0]), "#808080");
        assert_eq!(hex_of("lab", [54.2905, 80.8049, 69.8910]), "#ff0000");
        assert_eq!(hex_of("lch", [54.2905, 106.8390, 40.8526]), "#ff0000");
        assert_eq!(
            hex_of("srgb-linear", [0.215_861, 0.215_861, 0.215_861]),
            "#808080"
        );
        assert_eq!(hex_of("xyz-d65", [0.950_455, 1.0, 1.089_058]), "#ffffff");
        assert_eq!(hex_of("xyz-d50", [0.964_296, 1.0, 0.825_105]), "#ffffff");
        assert_eq!(hex_of("a98-rgb", [0.858_69, 0.0, 0.0]), "#ff0000");
        assert_eq!(
            hex_of("rec2020", [0.791_977, 0.230_976, 0.073_761]),
            "#ff0000"
        );
        assert_eq!(
            hex_of("prophoto-rgb", [0.702_283, 0.275_763, 0.103_564]),
            "#ff0000"
        );
    }

    #[test]
    fn contrast_matches_wcag_examples() {
        let black = [0.0; 3];
        let white = [1.0; 3];
        assert!((contrast(black, white) - 21.0).abs() < 1e-9);
        let (grey, _) = parse_hex("#767676").unwrap();
        assert_eq!(format!("{:.2}", contrast(grey, white)), "4.54");
    }

    #[test]
    fn parses_short_and_long_hex() {
        assert_eq!(parse_hex("#fff"), Some(([1.0; 3], 1.0)));
        assert_eq!(
            parse_hex("#00000080").map(|(_, a)| hex([0.0; 3], a)),
            Some("#00000080".into())
        );
        assert_eq!(parse_hex("#ggg"), None);
        assert_eq!(parse_hex("0b5fff"), None);
    }

    #[test]
    fn the_shown_ratio_is_cut_not_rounded() {
        let grey = parse_hex("#777777").unwrap().0;
        let white = [1.0; 3];
        assert!((contrast(grey, white) - 4.4776).abs() < 1e-3);
        assert_eq!(shown_contrast(grey, 1.0, white), 4.47);
        // Half-transparent black over white is the grey a reader sees.
        let seen = over([0.0; 3], 0.5, white);
        assert_eq!(
            shown_contrast([0.0; 3], 0.5, white),
            shown_contrast(seen, 1.0, white)
        );
    }
}
