//! The forms of Tokens Studio's values: its types as DTCG's, literals in
//! the form sd-transforms' css transforms give them, colours, weights,
//! references old and new, and evaluated math as a value.

use super::super::{math::Quantity, srgb};
use crate::spec::diag::Code;
use serde_json::{json, Value};

/// A value with its older `$a.b` references written `{a.b}`.
pub(super) fn old_references_in(v: &Value) -> Value {
    match v {
        Value::String(s) => Value::String(old_references(s)),
        Value::Array(a) => Value::Array(a.iter().map(old_references_in).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| (k.clone(), old_references_in(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// A DTCG colour with its alpha replaced by `alpha`.
pub(super) fn with_alpha(mut c: Value, alpha: f64) -> Value {
    match alpha < 1.0 {
        true => c["alpha"] = json!(alpha),
        false => {
            if let Some(o) = c.as_object_mut() {
                o.remove("alpha");
            }
        }
    }
    c
}

/// A token left out, in place of its DTCG form: the code of the warning
/// that says so, and why, carried as data (`$left-out`).
pub(super) fn left_out_value(code: Code, why: impl Into<String>) -> Value {
    json!({"$left-out": {"code": code, "why": why.into()}})
}

/// The code and why of a token left out ([`left_out_value`]).
pub(super) fn left_out_of(token: &Value) -> Option<(Code, String)> {
    let o = token.get("$left-out")?;
    let code = Code::parse(o.get("code")?.as_str()?)?;
    Some((code, o.get("why")?.as_str()?.to_string()))
}

/// Why a value is left out, when it or a part of it is.
pub(super) fn nested_left_out(v: &Value) -> Option<Value> {
    match v {
        Value::Object(o) => o
            .get("$left-out")
            .cloned()
            .or_else(|| o.values().find_map(nested_left_out)),
        Value::Array(a) => a.iter().find_map(nested_left_out),
        _ => None,
    }
}

/// `rgba({colour}, a)`: the reference and the alpha.
pub(super) fn alias_alpha(text: &str) -> Option<(String, f64)> {
    let inner = text
        .strip_prefix("rgba(")
        .or_else(|| text.strip_prefix("rgb("))?
        .strip_suffix(')')?;
    let (target, a) = inner.rsplit_once(',')?;
    let target = target.trim();
    is_reference(target).then_some(())?;
    Some((target.to_string(), parse_alpha(a.trim())?))
}

pub(super) fn is_numeric(ty: &str) -> bool {
    matches!(
        ty,
        "sizing"
            | "spacing"
            | "borderRadius"
            | "borderWidth"
            | "fontSizes"
            | "paragraphSpacing"
            | "paragraphIndent"
            | "dimension"
            | "letterSpacing"
            | "lineHeights"
            | "opacity"
            | "number"
            | "fontWeights"
            | "math"
            | ""
    )
}

/// `{a.b}` references in `s`: each one's byte span and name.
pub(super) fn references(s: &str) -> Vec<(std::ops::Range<usize>, String)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = s[from..].find('{') {
        let open = from + open;
        let Some(close) = s[open..].find('}') else {
            break;
        };
        let close = open + close;
        let name = s[open + 1..close].trim();
        if !name.is_empty() && !name.contains('{') {
            out.push((open..close + 1, name.to_string()));
        }
        from = close + 1;
    }
    out
}

/// Tokens Studio's older references, `$a.b`, as `{a.b}`.
pub(super) fn old_references(s: &str) -> String {
    if !s.contains('$') {
        return s.to_string();
    }
    let mut out = String::new();
    let mut chars = s.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        let next_is_name = chars
            .peek()
            .is_some_and(|(_, n)| n.is_alphanumeric() || *n == '_');
        if c == '$' && next_is_name {
            out.push('{');
            while let Some(&(_, n)) = chars.peek() {
                if n.is_alphanumeric() || matches!(n, '_' | '-' | '.') {
                    out.push(n);
                    chars.next();
                } else {
                    break;
                }
            }
            while out.ends_with('.') {
                out.pop();
            }
            out.push('}');
        } else {
            out.push(c);
        }
    }
    out
}

/// The DTCG type of a Tokens Studio type, for a value of that form.
pub(super) fn dtcg_type(ty: &str, value: &Value) -> Option<&'static str> {
    Some(match ty {
        "color" => "color",
        "sizing" | "spacing" | "borderRadius" | "borderWidth" | "fontSizes"
        | "paragraphSpacing" | "paragraphIndent" | "dimension" | "letterSpacing" => "dimension",
        "lineHeights" => match value.as_str().map(str::trim) {
            Some(s) if s.ends_with("px") || s.ends_with("rem") || s.ends_with("em") => "dimension",
            _ => "number",
        },
        "opacity" | "number" => "number",
        "fontWeights" => "fontWeight",
        "fontFamilies" => "fontFamily",
        "boxShadow" => "shadow",
        "typography" => "typography",
        "border" => "border",
        "duration" => "duration",
        "textCase" | "textDecoration" | "other" | "string" | "text" | "asset" => "string",
        _ => return None,
    })
}

/// An evaluated expression as a value of type `ty`, and its DTCG type.
pub(super) fn quantity(ty: &str, q: Quantity) -> (Option<&'static str>, Value) {
    let round = |x: f64| (x * 1e4).round() / 1e4;
    if ty == "lineHeights" && q.unit.is_empty() {
        let (dtcg, value, _) = super::super::bare_line_height(round(q.value));
        return (Some(dtcg), value);
    }
    let dtcg = match dtcg_type(ty, &Value::Null) {
        Some("number") | None if matches!(q.unit.as_str(), "px" | "rem" | "em") => {
            Some("dimension")
        }
        None => Some("number"),
        t => t,
    };
    let value = match (dtcg, q.unit.as_str()) {
        (Some("dimension"), "" | "px") => json!({"value": round(q.value), "unit": "px"}),
        (Some("dimension"), "%") if ty == "letterSpacing" => {
            json!({"value": round(q.value / 100.0), "unit": "em"})
        }
        (Some("dimension"), u) => json!({"value": round(q.value), "unit": u}),
        (_, "%") if matches!(ty, "lineHeights" | "opacity") => json!(round(q.value / 100.0)),
        (_, "") => json!(round(q.value)),
        (_, u) => json!(format!("{}{u}", round(q.value))),
    };
    (dtcg, value)
}

pub(super) fn is_reference(s: &str) -> bool {
    s.starts_with('{') && s.ends_with('}') && s.matches('{').count() == 1
}

/// A literal string of type `ty`, in the form sd-transforms' css
/// transforms give it, and its DTCG type.
pub(super) fn leaf(ty: &str, s: &str) -> (Option<&'static str>, Value) {
    let number = s.parse::<f64>().ok();
    let percent = s
        .strip_suffix('%')
        .and_then(|p| p.trim().parse::<f64>().ok());
    let length = ["px", "rem", "em"].iter().find_map(|u| {
        let n = s.strip_suffix(u)?.trim().parse::<f64>().ok()?;
        Some(json!({"value": n, "unit": u}))
    });
    let dtcg = dtcg_type(ty, &json!(s));
    let css_function = ["clamp(", "calc(", "min(", "max(", "var(", "env("]
        .iter()
        .any(|f| s.to_ascii_lowercase().starts_with(f));
    let value = match dtcg {
        // A length only CSS can hold (`clamp(1rem, 2.5vw, 2rem)`): a
        // dimension written as CSS text, which the DTCG reading keeps.
        Some("dimension") if css_function => json!(s),
        // Several lengths (`4px 8px`): CSS text, its references resolved.
        Some("dimension") if s.split_whitespace().count() > 1 => {
            return (Some("string"), json!(s));
        }
        Some("dimension") => match (number, percent, length) {
            (Some(n), _, _) => json!({"value": n, "unit": "px"}),
            (_, Some(p), _) if ty == "letterSpacing" => json!({"value": p / 100.0, "unit": "em"}),
            (_, _, Some(l)) => l,
            _ => json!(s),
        },
        Some("number") => match (number, percent, length) {
            (Some(n), _, _) if ty == "lineHeights" => {
                let (dtcg, value, _) = super::super::bare_line_height(n);
                return (Some(dtcg), value);
            }
            (Some(n), _, _) => json!(n),
            (_, Some(p), _) => json!(p / 100.0),
            (_, _, Some(l)) => return (Some("dimension"), l),
            _ => json!(s),
        },
        Some("fontWeight") => match number {
            Some(n) => json!(n),
            None => weight(s).map_or_else(|| json!(s), |w| json!(w)),
        },
        Some("color") => color(s).unwrap_or_else(|| json!(s)),
        // A list of families (`Arial Black, Suisse Int'l, sans-serif`).
        Some("fontFamily") if s.contains(',') => Value::Array(
            s.split(',')
                .map(|f| json!(f.trim().trim_matches(['"', '\''])))
                .filter(|f| f.as_str().is_some_and(|f| !f.is_empty()))
                .collect(),
        ),
        // No type: what the value's form says.
        None if number.is_some() => return (Some("number"), json!(number)),
        _ => json!(s),
    };
    (dtcg, value)
}

/// A colour string as DTCG: `#hex`, `rgb()`/`rgba()` with numbers, or an
/// `rgba(#hex, alpha)` (Tokens Studio's).
pub(super) fn color(s: &str) -> Option<Value> {
    let object = srgb;
    if let Some((rgb, a)) = crate::color::parse_hex(s) {
        return Some(object(rgb, a));
    }
    let inner = s
        .strip_prefix("rgba(")
        .or_else(|| s.strip_prefix("rgb("))?
        .strip_suffix(')')?;
    let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
    match parts.as_slice() {
        [hex, a] => {
            let (rgb, alpha) = crate::color::parse_hex(hex)?;
            Some(object(rgb, alpha * parse_alpha(a)?))
        }
        [r, g, b] | [r, g, b, _] => {
            let ch = |x: &str| x.parse::<f64>().ok().map(|v| v / 255.0);
            let a = match parts.get(3) {
                Some(a) => parse_alpha(a)?,
                None => 1.0,
            };
            Some(object([ch(r)?, ch(g)?, ch(b)?], a))
        }
        _ => None,
    }
}

pub(super) fn parse_alpha(a: &str) -> Option<f64> {
    match a.strip_suffix('%') {
        Some(p) => p.trim().parse::<f64>().ok().map(|p| p / 100.0),
        None => a.parse().ok(),
    }
}

/// A font weight's name as its number (sd-transforms' `fontWeightMap`).
pub(super) fn weight(name: &str) -> Option<u32> {
    let key: String = name
        .to_ascii_lowercase()
        .replace("italic", "")
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .collect();
    Some(match key.as_str() {
        "hairline" | "thin" => 100,
        "extralight" | "ultralight" => 200,
        "light" => 300,
        "normal" | "regular" | "book" | "" => 400,
        "medium" => 500,
        "semibold" | "demibold" => 600,
        "bold" => 700,
        "extrabold" | "ultrabold" => 800,
        "black" | "heavy" => 900,
        "extrablack" | "ultrablack" => 950,
        _ => return None,
    })
}
