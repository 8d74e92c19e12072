//! One parser per token type: a `$value` (or a part of a composite) in, a
//! typed [`TokenValue`] out, or a diagnostic. The older string forms most
//! tools still emit (`"#0b5fff"`, `"16px"`, `"120ms"`) are accepted with a
//! warning and normalised to the 2025.10 objects.

use super::tolerant::{defaults, dimension_unit, is_length, split_unit, NORMAL_LINE_HEIGHT};
use super::{
    parse_reference, Composite, DimUnit, Dimension, DurUnit, Duration, GradientStop, Item,
    ShadowLayer, StrokeStyle, TokenType, TokenValue,
};
use crate::spec::diag::{Code, FileDiags};
use crate::spec::json::join;
use serde_json::{Map, Value};

mod color_value;
use color_value::parse_color;

/// CSS functions that make a length of other lengths.
const LENGTH_FUNCTIONS: &[&str] = &["clamp(", "calc(", "min(", "max(", "var(", "env("];

/// CSS length units the tolerant reading has no unit for.
const CSS_ONLY_UNITS: &[&str] = &[
    "ch", "ex", "ic", "cap", "lh", "rlh", "vmin", "vmax", "svh", "lvh", "dvh", "svw", "lvw", "dvw",
    "cqw", "cqh", "cqi", "cqb", "cqmin", "cqmax",
];

/// True for a length that only CSS can hold: a function of lengths, or a
/// number in a unit DTCG and the tolerant reading lack.
fn is_css_only_length(s: &str) -> bool {
    let lower = s.trim().to_ascii_lowercase();
    if !super::css::is_css_value(&lower) {
        return false;
    }
    if LENGTH_FUNCTIONS.iter().any(|f| lower.starts_with(f)) {
        return true;
    }
    super::tolerant::split_unit(&lower).is_some_and(|(_, unit)| CSS_ONLY_UNITS.contains(&unit))
}

fn num(v: &Value) -> Option<f64> {
    v.as_f64().filter(|n| n.is_finite())
}

/// Parses one `$value` (or a part of a composite) of type `ty`.
pub(super) fn parse_value(
    ty: TokenType,
    v: &Value,
    p: &str,
    diags: &mut FileDiags<'_>,
) -> Option<TokenValue> {
    if let Some(s) = v.as_str() {
        if let Some(target) = parse_reference(s) {
            return Some(TokenValue::Alias(target.to_string()));
        }
        // A shadow, border, transition or gradient written as CSS text,
        // references inside resolved (checked with the references).
        if matches!(
            ty,
            TokenType::Shadow | TokenType::Border | TokenType::Transition | TokenType::Gradient
        ) {
            diags.push(
                Code::CssTextComposite,
                p,
                format!("a {} written as CSS text is not DTCG 2025.10 (an object of its parts); it is read as that text, its {{references}} resolved (tokens.css, tailwind.css and spec.md use it; tokens.json and Figma, which need the parts, and the Android resources, which have no form for CSS, leave it out)", ty.as_str()),
            );
            return Some(TokenValue::String(s.to_string()));
        }
        // A length DTCG has no form for but CSS reads (`clamp(1rem, 2.5vw,
        // 2rem)`, `calc(100% - 2rem)`, `60ch`): that CSS text.
        if ty == TokenType::Dimension && is_css_only_length(s) {
            diags.push(
                Code::CssTextComposite,
                p,
                format!("`{s}` is a length DTCG 2025.10 has no form for, but CSS reads; it is read as that CSS text (tokens.css, tailwind.css and tokens.js use it; tokens.json and Figma, which need a number and a unit, leave it out)"),
            );
            return Some(TokenValue::String(s.to_string()));
        }
    }
    match ty {
        TokenType::Color => parse_color(v, p, diags).map(TokenValue::Color),
        TokenType::Dimension => parse_dimension(v, p, diags).map(TokenValue::Dimension),
        TokenType::Duration => parse_duration(v, p, diags).map(TokenValue::Duration),
        TokenType::Number => match num(v) {
            Some(n) => Some(TokenValue::Number(n)),
            None => {
                diags.push(
                    Code::InvalidValue,
                    p,
                    "a number token's value must be a number",
                );
                None
            }
        },
        TokenType::FontFamily => parse_font_family(v, p, diags).map(TokenValue::FontFamily),
        TokenType::FontWeight => parse_font_weight(v, p, diags).map(TokenValue::FontWeight),
        TokenType::CubicBezier => parse_cubic_bezier(v, p, diags).map(TokenValue::CubicBezier),
        TokenType::StrokeStyle => parse_stroke_style(v, p, diags).map(TokenValue::StrokeStyle),
        TokenType::Border | TokenType::Transition | TokenType::Typography => {
            parse_composite(ty, v, p, diags).map(TokenValue::Composite)
        }
        TokenType::Shadow => parse_shadow(v, p, diags).map(TokenValue::Shadow),
        TokenType::Gradient => parse_gradient(v, p, diags).map(TokenValue::Gradient),
        TokenType::String => match v.as_str() {
            Some(s) => Some(TokenValue::String(s.to_string())),
            None => {
                diags.push(
                    Code::InvalidValue,
                    p,
                    "a string token's value must be a string",
                );
                None
            }
        },
    }
}

fn parse_font_family(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<Vec<String>> {
    match v {
        Value::String(s) if !s.trim().is_empty() => match font_list(s) {
            Some(names) => {
                diags.push(
                    Code::FontList,
                    p,
                    format!(
                        "a fontFamily is one name or an array of names; this string is a CSS font list, so it is read as the {} names it lists",
                        names.len()
                    ),
                );
                Some(names)
            }
            None => Some(vec![s.clone()]),
        },
        Value::Array(items)
            if !items.is_empty()
                && items
                    .iter()
                    .all(|i| i.as_str().is_some_and(|s| !s.trim().is_empty())) =>
        {
            let mut names = Vec::new();
            for (i, item) in items.iter().filter_map(Value::as_str).enumerate() {
                match font_list(item) {
                    Some(list) => {
                        diags.push(
                            Code::FontList,
                            &format!("{p}/{i}"),
                            format!("a fontFamily's array holds names; this one is a CSS font list, so it is read as the {} names it lists", list.len()),
                        );
                        names.extend(list);
                    }
                    None => names.push(item.to_string()),
                }
            }
            Some(names)
        }
        _ => {
            diags.push(
                Code::InvalidValue,
                p,
                "a fontFamily value must be a font name or a non-empty array of font names",
            );
            None
        }
    }
}

/// The families of a string written as a CSS font list (`'Segoe UI',
/// -apple-system, sans-serif`): names separated by commas outside quotes,
/// each quoted or a run of identifiers. `None` for a string that is no
/// such list of more than one name, or of one quoted name: a plain name
/// (`Segoe UI`) is one family.
pub(super) fn font_list(s: &str) -> Option<Vec<String>> {
    let mut names = Vec::new();
    let mut quoted = false;
    let mut rest = s.trim();
    loop {
        let name = match rest.chars().next()? {
            q @ ('"' | '\'') => {
                let end = rest[1..].find(q)? + 1;
                quoted = true;
                let name = rest[1..end].to_string();
                rest = rest[end + 1..].trim_start();
                name
            }
            _ => {
                let end = rest.find(',').unwrap_or(rest.len());
                let name = rest[..end].trim();
                let words = name.split_whitespace();
                let ident = |w: &str| {
                    !w.is_empty()
                        && !w.starts_with(|c: char| c.is_ascii_digit())
                        && w.chars()
                            .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
                };
                if name.is_empty() || !words.clone().all(ident) {
                    return None;
                }
                rest = &rest[end..];
                words.collect::<Vec<_>>().join(" ")
            }
        };
        if name.trim().is_empty() || name.contains(['"', '\'']) {
            return None;
        }
        names.push(name);
        match rest.strip_prefix(',') {
            Some(r) => rest = r.trim_start(),
            None if rest.is_empty() => break,
            None => return None,
        }
    }
    (names.len() > 1 || quoted).then_some(names)
}

fn parse_cubic_bezier(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<[f64; 4]> {
    let pts: Option<Vec<f64>> = v
        .as_array()
        .filter(|a| a.len() == 4)
        .and_then(|a| a.iter().map(num).collect());
    match pts {
        Some(p4) if (0.0..=1.0).contains(&p4[0]) && (0.0..=1.0).contains(&p4[2]) => {
            Some([p4[0], p4[1], p4[2], p4[3]])
        }
        Some(_) => {
            diags.push(
                Code::InvalidValue,
                p,
                "cubicBezier x coordinates (first and third numbers) must lie between 0 and 1",
            );
            None
        }
        None => {
            diags.push(
                Code::InvalidValue,
                p,
                "a cubicBezier value must be an array of four numbers [x1, y1, x2, y2]",
            );
            None
        }
    }
}

/// A border, transition or typography value: every part of the type's
/// table, each parsed by its own type (all of them, so every problem shows).
fn parse_composite(
    ty: TokenType,
    v: &Value,
    p: &str,
    diags: &mut FileDiags<'_>,
) -> Option<Composite> {
    let keys: Vec<&str> = ty.parts().iter().map(|part| part.key).collect();
    let mut read = defaults(ty, v, p, diags);
    // Members outside the table: kept, with a warning.
    let mut extra = Vec::new();
    if let Some(o) = read.as_ref().unwrap_or(v).as_object() {
        let unknown: Vec<String> = o
            .keys()
            .filter(|k| !keys.contains(&k.as_str()))
            .cloned()
            .collect();
        if !unknown.is_empty() {
            let mut known = o.clone();
            for k in unknown {
                diags.push_at_key(Code::UnknownPart, &join(p, &k), format!("`{k}` is not a part of a DTCG 2025.10 {}; it is kept in spec.json and left out of CSS", ty.as_str()));
                let value = known.remove(&k).unwrap_or_default();
                extra.push((k, value));
            }
            read = Some(Value::Object(known));
        }
    }
    let o = composite(read.as_ref().unwrap_or(v), p, &keys, &[], diags)?;
    let values: Vec<Option<TokenValue>> = ty
        .parts()
        .iter()
        .map(|x| match (ty, x.key, o.get(x.key)) {
            (TokenType::Typography, "lineHeight", Some(v)) if is_length(v) => {
                let at = join(p, "lineHeight");
                let d = parse_dimension(v, &at, diags)?;
                diags.push(Code::LineHeightUnit, &at, "a lineHeight in a unit is not DTCG 2025.10 (a number, a multiple of the font size); it is kept as the CSS length it is");
                Some(TokenValue::Dimension(d))
            }
            (TokenType::Typography, "lineHeight", Some(Value::String(s)))
                if s == NORMAL_LINE_HEIGHT =>
            {
                if v.get("lineHeight").is_some() {
                    diags.push(Code::LineHeightUnit, &join(p, "lineHeight"), "lineHeight `normal` is not DTCG 2025.10 (a number); it is kept as CSS `normal`, the font's own line gap");
                }
                Some(TokenValue::String(s.clone()))
            }
            _ => part(o, x.key, x.ty, p, diags),
        })
        .collect();
    let mut c = Composite::new(ty, values.into_iter().collect::<Option<Vec<_>>>()?)?;
    c.extra = extra;
    Some(c)
}

fn parse_shadow(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<Vec<Item<ShadowLayer>>> {
    let layers: Vec<(&Value, String)> = match v {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, x)| (x, format!("{p}/{i}")))
            .collect(),
        other => vec![(other, p.to_string())],
    };
    let mut out = Vec::new();
    let mut ok = true;
    for (layer, lp) in layers {
        if let Some(target) = layer.as_str().and_then(parse_reference) {
            out.push(Item::Alias(target.to_string()));
            continue;
        }
        match parse_shadow_layer(layer, &lp, diags) {
            Some(l) => out.push(Item::Literal(l)),
            None => ok = false,
        }
    }
    (ok && !out.is_empty()).then_some(out)
}

fn parse_gradient(
    v: &Value,
    p: &str,
    diags: &mut FileDiags<'_>,
) -> Option<Vec<Item<GradientStop>>> {
    let Some(items) = v.as_array().filter(|a| !a.is_empty()) else {
        diags.push(
            Code::InvalidValue,
            p,
            "a gradient value must be a non-empty array of stops {color, position}",
        );
        return None;
    };
    let mut stops = Vec::new();
    for (i, s) in items.iter().enumerate() {
        let sp = format!("{p}/{i}");
        if let Some(target) = s.as_str().and_then(parse_reference) {
            stops.push(Item::Alias(target.to_string()));
            continue;
        }
        let o = composite(s, &sp, &["color", "position"], &[], diags)?;
        let mut position = part(o, "position", TokenType::Number, &sp, diags)?;
        // DTCG 2025.10: a position outside [0, 1] is read as if clamped.
        if let TokenValue::Number(n) = position {
            if !(0.0..=1.0).contains(&n) {
                diags.push(
                    Code::PositionClamped,
                    &join(&sp, "position"),
                    format!("gradient stop position {} lies outside 0 to 1; it is read as {}, as the DTCG format says", fmt_num(n), fmt_num(n.clamp(0.0, 1.0))),
                );
                position = TokenValue::Number(n.clamp(0.0, 1.0));
            }
        }
        stops.push(Item::Literal(GradientStop {
            color: part(o, "color", TokenType::Color, &sp, diags)?,
            position,
        }));
    }
    Some(stops)
}

/// Checks a composite object's keys: `required` must be present, anything
/// else outside `required` and `optional` is an error.
fn composite<'v>(
    v: &'v Value,
    p: &str,
    required: &[&str],
    optional: &[&str],
    diags: &mut FileDiags<'_>,
) -> Option<&'v Map<String, Value>> {
    let Some(o) = v.as_object() else {
        diags.push(
            Code::InvalidComposite,
            p,
            format!("expected an object with {}", required.join(", ")),
        );
        return None;
    };
    let mut ok = true;
    for r in required {
        if !o.contains_key(*r) {
            diags.push(Code::InvalidComposite, p, format!("missing `{r}`"));
            ok = false;
        }
    }
    for k in o.keys() {
        if !required.contains(&k.as_str()) && !optional.contains(&k.as_str()) {
            diags.push_at_key(
                Code::UnknownProperty,
                &join(p, k),
                format!("unknown property `{k}`"),
            );
            ok = false;
        }
    }
    ok.then_some(o)
}

fn part(
    o: &Map<String, Value>,
    key: &str,
    ty: TokenType,
    p: &str,
    diags: &mut FileDiags<'_>,
) -> Option<TokenValue> {
    parse_value(ty, o.get(key)?, &join(p, key), diags)
}

fn parse_shadow_layer(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<ShadowLayer> {
    let o = composite(
        v,
        p,
        &["color", "offsetX", "offsetY", "blur", "spread"],
        &["inset"],
        diags,
    )?;
    let inset = match o.get("inset") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => {
            diags.push(
                Code::InvalidComposite,
                &join(p, "inset"),
                "`inset` must be true or false",
            );
            false
        }
    };
    Some(ShadowLayer {
        color: part(o, "color", TokenType::Color, p, diags)?,
        offset_x: part(o, "offsetX", TokenType::Dimension, p, diags)?,
        offset_y: part(o, "offsetY", TokenType::Dimension, p, diags)?,
        blur: part(o, "blur", TokenType::Dimension, p, diags)?,
        spread: part(o, "spread", TokenType::Dimension, p, diags)?,
        inset,
    })
}

const STROKE_KEYWORDS: &[&str] = &[
    "solid", "dashed", "dotted", "double", "groove", "ridge", "outset", "inset",
];

fn parse_stroke_style(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<StrokeStyle> {
    match v {
        Value::String(s) if STROKE_KEYWORDS.contains(&s.as_str()) => {
            Some(StrokeStyle::Keyword(s.clone()))
        }
        Value::String(s) => {
            diags.push(
                Code::InvalidValue,
                p,
                format!(
                    "unknown stroke style \"{s}\"; expected one of {}",
                    STROKE_KEYWORDS.join(", ")
                ),
            );
            None
        }
        _ => {
            let o = composite(v, p, &["dashArray", "lineCap"], &[], diags)?;
            let cap = o["lineCap"].as_str().unwrap_or_default();
            if !matches!(cap, "round" | "butt" | "square") {
                diags.push(
                    Code::InvalidValue,
                    &join(p, "lineCap"),
                    "lineCap must be \"round\", \"butt\" or \"square\"",
                );
                return None;
            }
            let Some(items) = o["dashArray"].as_array().filter(|a| !a.is_empty()) else {
                diags.push(
                    Code::InvalidValue,
                    &join(p, "dashArray"),
                    "dashArray must be a non-empty array of dimensions",
                );
                return None;
            };
            let dash_array: Option<Vec<TokenValue>> = items
                .iter()
                .enumerate()
                .map(|(i, d)| {
                    parse_value(
                        TokenType::Dimension,
                        d,
                        &format!("{p}/dashArray/{i}"),
                        diags,
                    )
                })
                .collect();
            Some(StrokeStyle::Dashed {
                dash_array: dash_array?,
                line_cap: cap.to_string(),
            })
        }
    }
}

/// Rounds to `places` decimals, for output that reads well and stays stable.
pub fn round(v: f64, places: i32) -> f64 {
    let f = 10f64.powi(places);
    (v * f).round() / f
}

fn parse_dimension(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<Dimension> {
    if num(v) == Some(0.0) {
        diags.push(
            Code::BareZero,
            p,
            "a bare 0 is not a DTCG 2025.10 dimension; it is read as {\"value\": 0, \"unit\": \"px\"}",
        );
        return Some(Dimension {
            value: 0.0,
            unit: DimUnit::Px,
        });
    }
    if let Some(s) = v.as_str() {
        let parsed = split_unit(s).and_then(|(n, u)| match u {
            "" if n == 0.0 => Some((
                Dimension {
                    value: 0.0,
                    unit: DimUnit::Px,
                },
                None,
            )),
            u => dimension_unit(u).map(|(unit, f, why)| (Dimension { value: n * f, unit }, why)),
        });
        return match parsed {
            Some((d, why)) => {
                diags.push(Code::LegacyStringForm, p, format!("\"{s}\" is the older string form; DTCG 2025.10 writes dimensions as {{\"value\": {}, \"unit\": \"{}\"}}{}", fmt_num(d.value), d.unit.as_str(), why.map(|(_, w)| format!("; {w}")).unwrap_or_default()));
                Some(d)
            }
            None => {
                diags.push(Code::InvalidDimension, p, format!("\"{s}\" is not a dimension: use {{\"value\": 16, \"unit\": \"px\"}} (units px or rem)"));
                None
            }
        };
    }
    let o = composite(v, p, &["value", "unit"], &[], diags)?;
    let value = num(&o["value"]);
    if value == Some(0.0) && o["unit"].as_str() == Some("") {
        diags.push(
            Code::BareZero,
            &join(p, "unit"),
            "a 0 without a unit is not a DTCG 2025.10 dimension; it is read as {\"value\": 0, \"unit\": \"px\"}",
        );
        return Some(Dimension {
            value: 0.0,
            unit: DimUnit::Px,
        });
    }
    let unit = o["unit"].as_str().and_then(dimension_unit);
    match (value, unit) {
        (Some(value), Some((unit, factor, why))) => {
            if let Some((code, why)) = why {
                diags.push(code, &join(p, "unit"), why);
            }
            Some(Dimension {
                value: value * factor,
                unit,
            })
        }
        (None, _) => {
            diags.push(
                Code::InvalidDimension,
                &join(p, "value"),
                "a dimension's value must be a number",
            );
            None
        }
        (_, None) => {
            diags.push(
                Code::InvalidDimension,
                &join(p, "unit"),
                "a dimension's unit must be \"px\" or \"rem\" (or, read with a warning, em, %, vw, vh, dp or pt)",
            );
            None
        }
    }
}

fn parse_duration(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<Duration> {
    let unit_of = |u: &str| match u {
        "ms" => Some(DurUnit::Ms),
        "s" => Some(DurUnit::S),
        _ => None,
    };
    if let Some(s) = v.as_str() {
        let parsed =
            split_unit(s).and_then(|(n, u)| unit_of(u).map(|unit| Duration { value: n, unit }));
        return match parsed {
            Some(d) => {
                diags.push(Code::LegacyStringForm, p, format!("\"{s}\" is the older string form; DTCG 2025.10 writes durations as {{\"value\": {}, \"unit\": \"{}\"}}", fmt_num(d.value), d.unit_str()));
                Some(d)
            }
            None => {
                diags.push(Code::InvalidDuration, p, format!("\"{s}\" is not a duration: use {{\"value\": 120, \"unit\": \"ms\"}} (units ms or s)"));
                None
            }
        };
    }
    let o = composite(v, p, &["value", "unit"], &[], diags)?;
    match (
        num(&o["value"]).filter(|n| *n >= 0.0),
        o["unit"].as_str().and_then(unit_of),
    ) {
        (Some(value), Some(unit)) => Some(Duration { value, unit }),
        (None, _) => {
            diags.push(
                Code::InvalidDuration,
                &join(p, "value"),
                "a duration's value must be a non-negative number",
            );
            None
        }
        (_, None) => {
            diags.push(
                Code::InvalidDuration,
                &join(p, "unit"),
                "a duration's unit must be \"ms\" or \"s\"",
            );
            None
        }
    }
}

/// Named font weights from DTCG 2025.10, section "Font weight".
pub const NAMED_WEIGHTS: &[(&str, f64)] = &[
    ("thin", 100.0),
    ("hairline", 100.0),
    ("extra-light", 200.0),
    ("ultra-light", 200.0),
    ("light", 300.0),
    ("normal", 400.0),
    ("regular", 400.0),
    ("book", 400.0),
    ("medium", 500.0),
    ("semi-bold", 600.0),
    ("demi-bold", 600.0),
    ("bold", 700.0),
    ("extra-bold", 800.0),
    ("ultra-bold", 800.0),
    ("black", 900.0),
    ("heavy", 900.0),
    ("extra-black", 950.0),
    ("ultra-black", 950.0),
];

fn parse_font_weight(v: &Value, p: &str, diags: &mut FileDiags<'_>) -> Option<f64> {
    if let Some(s) = v.as_str() {
        if let Some((_, w)) = NAMED_WEIGHTS.iter().find(|(n, _)| *n == s) {
            return Some(*w);
        }
        diags.push(Code::InvalidValue, p, format!("unknown font weight \"{s}\"; use a number from 1 to 1000 or a DTCG name such as \"bold\""));
        return None;
    }
    match num(v).filter(|n| (1.0..=1000.0).contains(n)) {
        Some(n) => Some(n),
        None => {
            diags.push(
                Code::InvalidValue,
                p,
                "a font weight must be a number from 1 to 1000",
            );
            None
        }
    }
}

/// Formats a number the shortest way that reads back the same (`16`, `1.5`).
pub fn fmt_num(n: f64) -> String {
    if n == 0.0 {
        return "0".into();
    }
    format!("{n}")
}
