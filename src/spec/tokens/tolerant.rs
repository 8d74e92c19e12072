//! The readings of what real exports write that DTCG 2025.10 does not,
//! where there is one safe reading (docs/reference/tokens.md, "Tokens as real exports write
//! them"). Each is applied where the value is parsed, with a warning that
//! says how it was read; everything else stays an error.

use super::{parse_reference, DimUnit, TokenType};
use crate::spec::diag::{Code, FileDiags};
use serde_json::Value;

/// A reading of something DTCG 2025.10 does not write: its code and what
/// it says.
pub(super) type Note = (Code, String);

/// A dimension's unit, and the warning its reading carries when it is not
/// one of DTCG 2025.10's: a CSS relative length is kept as it is; a
/// platform unit (`dp`, `pt`) is one CSS pixel, as both platforms define
/// them at their reference density.
pub(super) fn dimension_unit(unit: &str) -> Option<(DimUnit, f64, Option<Note>)> {
    let relative = |u: DimUnit| {
        Some((
            u,
            1.0,
            Some((Code::RelativeUnit, format!("unit \"{unit}\" is not one of DTCG 2025.10's (px, rem); it is kept as a CSS length, which has no pixel value (Figma leaves the token out)"))),
        ))
    };
    match unit {
        "px" => Some((DimUnit::Px, 1.0, None)),
        "rem" => Some((DimUnit::Rem, 1.0, None)),
        "em" => relative(DimUnit::Em),
        "%" => relative(DimUnit::Percent),
        "vw" => relative(DimUnit::Vw),
        "vh" => relative(DimUnit::Vh),
        "dp" | "pt" => Some((
            DimUnit::Px,
            1.0,
            Some((Code::PlatformUnit, format!("unit \"{unit}\" is a platform unit, not DTCG 2025.10's; it is read as 1 px per {unit} (the platform's reference density)"))),
        )),
        _ => None,
    }
}

/// True for a value written as a length: `{"value", "unit"}` or `"24px"`.
pub(super) fn is_length(v: &Value) -> bool {
    match v {
        Value::Object(o) => o.contains_key("unit"),
        Value::String(s) => {
            parse_reference(s).is_none() && split_unit(s).is_some_and(|(_, unit)| !unit.is_empty())
        }
        _ => false,
    }
}

/// A part a composite may leave out: its key, the value it is read as,
/// and the warning that says so.
type Reading = (&'static str, fn() -> Value, &'static str);

/// The parts real exports leave out that have one safe reading: a
/// transition without `delay` starts at once; a typography style without
/// `letterSpacing` has none, and one without `lineHeight` has CSS's
/// `normal` (what a `font` shorthand without one sets: the font's own
/// line gap). `None` when nothing is missing.
pub(super) fn defaults(
    ty: TokenType,
    v: &Value,
    p: &str,
    diags: &mut FileDiags<'_>,
) -> Option<Value> {
    let o = v.as_object()?;
    let readings: &[Reading] = match ty {
        TokenType::Transition => &[(
            "delay",
            || serde_json::json!({"value": 0, "unit": "ms"}),
            "no `delay`: it is read as 0 ms",
        )],
        TokenType::Typography => &[
            (
                "letterSpacing",
                || serde_json::json!({"value": 0, "unit": "px"}),
                "no `letterSpacing`: it is read as 0 px",
            ),
            (
                "lineHeight",
                || Value::String(NORMAL_LINE_HEIGHT.into()),
                "no `lineHeight`: it is read as CSS `normal`, the font's own line gap (tokens.json, which needs a number, leaves the style out)",
            ),
        ],
        _ => return None,
    };
    let mut filled = None;
    for (key, value, reading) in readings {
        if !o.contains_key(*key) {
            diags.push(Code::MissingPartRead, p, *reading);
            filled
                .get_or_insert_with(|| o.clone())
                .insert(key.to_string(), value());
        }
    }
    filled.map(Value::Object)
}

/// The line height a typography without one has: the CSS keyword.
pub const NORMAL_LINE_HEIGHT: &str = "normal";

/// The type a value without `$type` can only be: a colour object or hex,
/// a dimension or duration object, a number. `None` when it could be more
/// than one (a string may name a font or be text).
pub(super) fn infer_type(v: &Value) -> Option<TokenType> {
    match v {
        Value::Number(_) => Some(TokenType::Number),
        Value::String(s) if s.starts_with('#') && crate::color::parse_hex(s).is_some() => {
            Some(TokenType::Color)
        }
        Value::Object(o) if o.contains_key("colorSpace") && o.contains_key("components") => {
            Some(TokenType::Color)
        }
        Value::Object(o) if o.len() == 2 && o.contains_key("value") => {
            match o.get("unit").and_then(Value::as_str)? {
                "ms" | "s" => Some(TokenType::Duration),
                _ => Some(TokenType::Dimension),
            }
        }
        _ => None,
    }
}

/// Splits a legacy `"16px"` / `"120ms"` string into number and unit.
pub(super) fn split_unit(s: &str) -> Option<(f64, &str)> {
    let s = s.trim();
    let idx = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-' || c == '+'))
        .unwrap_or(s.len());
    let n: f64 = s[..idx].parse().ok()?;
    Some((n, &s[idx..]))
}
