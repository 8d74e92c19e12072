//! A colour value: a 2025.10 object (`colorSpace`, `components`, and an
//! optional `alpha` and `hex`, which must agree with the components) or,
//! read with a warning, the older hex string.

use super::{composite, fmt_num, num, round};
use crate::color;
use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::join;
use crate::spec::tokens::{Color, Component};
use serde_json::Value;

pub(super) fn parse_color(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<Color> {
    if let Some(s) = v.as_str() {
        return match color::parse_hex(s) {
            Some((rgb, alpha)) => {
                diags.push(
                    Code::LegacyStringForm,
                    p,
                    format!("\"{s}\" is the older string form; DTCG 2025.10 writes colours as {{\"colorSpace\": \"srgb\", \"components\": [...], \"hex\": \"...\"}}"),
                );
                Some(Color {
                    space: "srgb".into(),
                    components: rgb.map(|c| Component::Num(round(c, 4))),
                    alpha,
                    hex: Some(color::hex(rgb, 1.0)),
                })
            }
            None => {
                diags.push(Code::InvalidColor, p, format!("\"{s}\" is not a colour: use a {{colorSpace, components}} object or a #rrggbb hex string"));
                None
            }
        };
    }
    let o = composite(
        v,
        p,
        &["colorSpace", "components"],
        &["alpha", "hex"],
        diags,
    )?;
    let space = o["colorSpace"].as_str().unwrap_or_default();
    if !color::COLOR_SPACES.contains(&space) {
        diags.push(
            Code::InvalidColor,
            &join(p, "colorSpace"),
            format!(
                "unknown colorSpace \"{space}\"; expected one of {}",
                color::COLOR_SPACES.join(", ")
            ),
        );
        return None;
    }
    let comps: Option<Vec<Component>> = o["components"]
        .as_array()
        .filter(|a| a.len() == 3)
        .and_then(|a| {
            a.iter()
                .map(|c| match c {
                    Value::String(s) if s == "none" => Some(Component::None),
                    other => num(other).map(Component::Num),
                })
                .collect()
        });
    let Some(comps) = comps else {
        diags.push(
            Code::InvalidColor,
            &join(p, "components"),
            "components must be an array of three numbers (or \"none\")",
        );
        return None;
    };
    let alpha = match o.get("alpha") {
        None => 1.0,
        Some(a) => match num(a).filter(|a| (0.0..=1.0).contains(a)) {
            Some(a) => a,
            None => {
                diags.push(
                    Code::InvalidColor,
                    &join(p, "alpha"),
                    "alpha must be a number between 0 and 1",
                );
                return None;
            }
        },
    };
    let mut alpha = alpha;
    let hex = match o.get("hex") {
        None => None,
        Some(Value::String(h)) if h.len() == 7 && color::parse_hex(h).is_some() => {
            Some(h.to_lowercase())
        }
        Some(Value::String(h)) if matches!(h.len(), 4 | 5 | 9) && color::parse_hex(h).is_some() => {
            let (rgb, a) = color::parse_hex(h).expect("checked");
            let six = color::hex(rgb, 1.0);
            let mut reading = format!(
                "hex \"{h}\" is not the 6 digits DTCG 2025.10 asks for; it is read as \"{six}\""
            );
            if a < 1.0 && !o.contains_key("alpha") {
                alpha = round(a, 4);
                reading.push_str(&format!(" with alpha {}", fmt_num(round(a, 4))));
            }
            diags.push(Code::ShortHex, &join(p, "hex"), reading);
            Some(six)
        }
        Some(_) => {
            diags.push(
                Code::InvalidColor,
                &join(p, "hex"),
                "hex must be a 6-digit CSS hex colour such as \"#0b5fff\"",
            );
            return None;
        }
    };
    let c = Color {
        space: space.to_string(),
        components: [comps[0], comps[1], comps[2]],
        alpha,
        hex,
    };
    if let Some(h) = &c.hex {
        if let Some(expected) = hex_mismatch(&c, h) {
            diags.push(
                Code::HexMismatch,
                &join(p, "hex"),
                format!("hex {h} does not match the components, which give {expected}: a colour must have one value, so correct one of them"),
            );
            return None;
        }
    }
    Some(c)
}

/// The hex that a colour's components give, when the author's `hex` says
/// otherwise. Compared at 8 bits per channel; for a colour space wider than
/// sRGB the hex is a fallback, so it is compared only when the colour lies
/// inside sRGB (outside, any gamut mapping is the author's choice), with a
/// tolerance of one step for the conversion's rounding.
fn hex_mismatch(c: &Color, hex: &str) -> Option<String> {
    let comps = c.components.map(Component::value);
    let (exact, tolerance) = match c.space.as_str() {
        "srgb" => (comps, 0),
        space => match color::to_srgb_unclipped(space, comps) {
            Some(rgb) if rgb.iter().all(|v| (-0.001..=1.001).contains(v)) => (rgb, 1),
            _ => return None,
        },
    };
    let (given, _) = color::parse_hex(hex)?;
    let bytes = |rgb: [f64; 3]| rgb.map(|v| (v.clamp(0.0, 1.0) * 255.0).round() as i32);
    let (want, got) = (bytes(exact), bytes(given));
    let differs = want.iter().zip(got).any(|(a, b)| (a - b).abs() > tolerance);
    differs.then(|| color::hex(exact.map(|v| v.clamp(0.0, 1.0)), 1.0))
}
